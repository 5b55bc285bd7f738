"""tools/load_ladder.py runs and reports (a small load: the figures are the tool's job)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_tool():
    spec = importlib.util.spec_from_file_location("koikoi_tools_load_ladder", ROOT / "tools" / "load_ladder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_load_ladder_pairs_everyone_it_can(tmp_path, capsys):
    tool = load_tool()
    from koikoi.ladder import service
    clock = tool.Clock()
    svc = service.open_service(str(tmp_path / "l.sqlite3"), tmp_path, clock=clock)
    try:
        r = tool.run("t", [svc], 40, 4, 1, 3, clock)
    finally:
        svc.close()
    # one choice, 40 waiting: the window reaches everyone within a minute; every tick pairs
    assert r["pairs_per_tick"] > 0 and r["paired"] >= 2 * 4
    assert r["wait_max"] is not None and r["wait_max"] <= 4
    assert tool.main(["--players", "12", "--ticks", "2", "--no-postgres"]) == 0
    assert "matches made a second" in capsys.readouterr().out


def test_load_ladder_two_services_on_postgres(postgres_url, tmp_path):
    tool = load_tool()
    from koikoi.ladder import service
    clock = tool.Clock()
    svcs = [service.open_service(postgres_url, tmp_path, public_url=f"ws://127.0.0.1:{9200 + i}", clock=clock)
            for i in range(2)]
    try:
        r = tool.run("t", svcs, 30, 3, 1, 5, clock)
    finally:
        for s in svcs:
            s.close()
    assert r["paired"] >= 2 * 3
