"""Hostile files through the real paths: start-up, Continue, History and Statistics.

Each case plants one bad file, then starts the game as `koikoi` does (App,
title screen, a few frames), opens History, Statistics and (if offered)
Continue. The game must reach its title screen every time, say what it set
aside, and keep the file (renamed ``<name>.corrupt-…``), never delete it.
Cases that could hang a regression (a FIFO, /dev/zero) run in a subprocess
with a timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from koikoi.engine import RULESETS
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage

ROOT = Path(__file__).resolve().parents[1]
SEATS = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Random)", "random"))


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


def drive() -> dict:
    """What a player does: start, look at the title, History, Statistics, Continue."""
    from koikoi.ui.app import App
    from koikoi.ui.scenes.history import HistoryScene
    from koikoi.ui.scenes.stats import StatsScene
    from koikoi.ui.scenes.title import TitleScene
    app = App((1280, 720), storage=Storage(), seed=3)
    app.settings["anim_speed"] = 0.0
    app.push(TitleScene(app))
    for _ in range(3):
        app.step(1 / 60)
    report = {"title": type(app.top).__name__, "continue": app.top.saved is not None}
    app.push(HistoryScene(app))
    app.top.feed.index.wait(30)
    for _ in range(3):
        app.step(1 / 60)
    report["history"] = [(m.scores, m.players, m.rules) for m in app.top.matches]
    app.pop()
    app.push(StatsScene(app))
    for _ in range(3):
        app.step(1 / 60)
    report["stats"] = app.top.stats.overall.matches
    app.pop()
    if app.top.saved is not None:
        app.top.continue_match()
        for _ in range(5):
            app.step(1 / 60)
        report["continued"] = type(app.top).__name__
    report["warnings"] = [t.text for t in app.toasts if t.kind == "warning"]
    app.shutdown()
    pygame.display.quit()
    return report


def drive_in_subprocess(home: Path, timeout: float = 60) -> dict:
    code = ("import json, sys; sys.path.insert(0, %r); import test_hostile_files as t; "
            "print('REPORT' + json.dumps(t.drive()))" % str(Path(__file__).parent))
    env = dict(os.environ, KOIKOI_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               KOIKOI_NO_CRASH_SCREEN="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    line = [x for x in r.stdout.splitlines() if x.startswith("REPORT")][-1]
    return json.loads(line[len("REPORT"):])


def a_match(seed=5, actions=8, finish=False) -> MatchSession:
    s = MatchSession(RULESETS["casual"], seed=seed, months=1, seats=SEATS)
    n = 0
    while not s.state.is_over and (finish or n < actions):
        s.apply(s.legal()[0])
        n += 1
    return s


def set_aside(path: Path) -> list[Path]:
    return list(path.parent.glob(path.name + ".corrupt-*"))


def deep(n=200_000) -> str:
    return "[" * n + "]" * n


# ---------------------------------------------------------------- the autosave and kept matches


def _with(data: dict, path: tuple, value) -> str:
    d = json.loads(json.dumps(data))
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return json.dumps(d)


def _match_cases():
    s = a_match()
    data = s.to_data()
    rules_path = ("log", "events", 0, "rules", "name")
    return {
        "deep": deep(),
        "rules-name-int": _with(data, rules_path, 7),
        "rules-name-dict": _with(data, rules_path, {"a": 1}),
        "rules-name-list": _with(data, rules_path, ["x"]),
        "seat-name-int": _with(data, ("seats", 1, "name"), 5),
        "seat-name-dict": _with(data, ("seats", 0, "name"), {"n": 1}),
        "seat-name-list": _with(data, ("seats", 0, "name"), []),
        "seat-name-20k": _with(data, ("seats", 1, "name"), "N" * 20_000),
        "seat-name-1mb": _with(data, ("seats", 1, "name"), "M" * 1_000_000),
        "format-true": _with(data, ("format",), True),
        "format-float": _with(data, ("format",), 2.0),
        "log-format-true": _with(data, ("log", "format"), True),
        "event-type-dict": _with(data, ("log", "events", 1, "type"), {"x": 1}),
        "nan": json.dumps(data).replace('"seed":', '"seed":NaN, "x":', 1),
    }


MATCH_CASES = _match_cases()


@pytest.mark.parametrize("case", sorted(MATCH_CASES))
def test_a_hostile_autosave_is_set_aside_and_the_game_starts(case):
    store = Storage()
    store.data_dir.mkdir(parents=True)
    store.autosave_path.write_text(MATCH_CASES[case])
    report = drive()
    assert report["title"] == "TitleScene" and report["continue"] is False
    aside = set_aside(store.autosave_path)
    assert len(aside) == 1 and aside[0].read_text() == MATCH_CASES[case]
    assert any("could not be restored" in w for w in report["warnings"])
    again = drive()                                 # told once: the next start is quiet
    assert not any("could not be restored" in w for w in again["warnings"])


@pytest.mark.parametrize("case", ["deep", "seat-name-1mb", "rules-name-dict"])
def test_a_hostile_kept_match_is_set_aside(case):
    store = Storage()
    store.saved_dir.mkdir(parents=True)
    p = store.saved_dir / ("match-" + "a" * 16 + ".json")
    p.write_text(MATCH_CASES[case])
    report = drive()
    assert report["title"] == "TitleScene"
    assert len(set_aside(p)) == 1 and not p.exists()


# ---------------------------------------------------------------- history files


def _history_file(store: Storage, text: str, name="match-20260101-120000-0123456789abcdef.json") -> Path:
    store.history_dir.mkdir(parents=True, exist_ok=True)
    p = store.history_dir / name
    p.write_text(text)
    return p


@pytest.mark.parametrize("case", sorted(MATCH_CASES))
def test_a_hostile_history_file_is_set_aside_and_the_rest_still_shows(case):
    store = Storage()
    good = store.file_match(a_match(seed=9, finish=True))
    p = _history_file(store, MATCH_CASES[case])
    report = drive()
    assert report["title"] == "TitleScene"
    assert len(report["history"]) == 1 and report["stats"] == 1
    assert good.exists() and not p.exists()
    assert [x.read_text() for x in set_aside(p)] == [MATCH_CASES[case]]
    assert any("set aside" in w for w in report["warnings"])


def test_a_summary_is_never_believed():
    """A summary claiming 999-0 (or Infinity) is recomputed from the log."""
    store = Storage()
    s = a_match(seed=9, finish=True)
    data = s.to_data()
    data["summary"] = {"finished_at": "2026-01-01T12:00:00", "players": ["You", "CPU"], "opponent": "CPU",
                       "rules": "casual", "months": 1, "rounds": 1, "scores": [999, 0], "winner": 0}
    _history_file(store, json.dumps(data))
    report = drive()
    assert [tuple(r[0]) for r in report["history"]] == [tuple(s.state.scores)]
    inf = dict(data, summary=dict(data["summary"], scores=[1e309, 0]))
    text = json.dumps(inf)                       # Python writes Infinity for 1e309
    assert "Infinity" in text
    p = _history_file(store, text, name="match-20260101-130000-fedcba9876543210.json")
    report = drive()
    assert report["title"] == "TitleScene" and len(report["history"]) == 1 and len(set_aside(p)) == 1


def test_an_index_that_is_not_a_database_is_set_aside_and_rebuilt():
    store = Storage()
    for seed in (1, 2, 3):
        store.file_match(a_match(seed=seed, finish=True))
    store.history_index.close()
    index = store.data_dir / "history-index.sqlite3"
    index.write_bytes(b"not a database at all" * 100)
    report = drive()
    assert len(report["history"]) == 3 and report["stats"] == 3
    assert len(set_aside(index)) == 1


# ---------------------------------------------------------------- settings


@pytest.mark.parametrize("text, reset", [
    (json.dumps({"last_new_match": {"rules": []}}), "New match choices"),
    (json.dumps({"last_new_match": {}}), "New match choices"),
    (json.dumps({"last_new_match": {"opponent": {"a": 1}, "rules": "casual", "months": 3}}), "New match choices"),
    (json.dumps({"window_size": [16384, 16384]}), "Window size"),
    (json.dumps({"volume": 1e308 * 10}), None),          # Infinity: the file is set aside
])
def test_settings_with_wrong_values_start_with_a_message(text, reset):
    store = Storage()
    store.config_dir.mkdir(parents=True)
    store.settings_path.write_text(text)
    report = drive()
    assert report["title"] == "TitleScene"
    if reset:
        assert any(reset in w for w in report["warnings"])
        assert list(store.config_dir.glob("settings.json.backup-*"))
    else:
        assert set_aside(store.settings_path)


def test_deeply_nested_settings_are_set_aside():
    store = Storage()
    store.config_dir.mkdir(parents=True)
    store.settings_path.write_text(deep())
    report = drive()
    assert report["title"] == "TitleScene"
    assert any("settings file could not be read" in w for w in report["warnings"])
    assert len(set_aside(store.settings_path)) == 1


# ---------------------------------------------------------------- files that are not files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("which", ["settings", "autosave", "history", "saved"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "outside-link"])
def test_pipes_devices_and_links_out_never_hang_and_are_set_aside(koikoi_home, tmp_path, which, kind):
    store = Storage()
    store.file_match(a_match(seed=4, finish=True))
    store.history_index.close()
    target = {"settings": store.settings_path, "autosave": store.autosave_path,
              "history": store.history_dir / "match-20260101-120000-00000000000000ff.json",
              "saved": store.saved_dir / ("match-" + "b" * 16 + ".json")}[which]
    target.parent.mkdir(parents=True, exist_ok=True)
    outside = tmp_path / "outside.json"
    outside.write_text(a_match(seed=6).to_json())
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        os.symlink("/dev/zero", target)
    else:
        os.symlink(outside, target)
    before = outside.read_text()
    report = drive_in_subprocess(koikoi_home)
    assert report["title"] == "TitleScene"
    assert len(report["history"]) == 1
    assert len(set_aside(target)) == 1
    # gone, or (settings saved at exit) a plain file the game wrote anew
    assert not os.path.lexists(target) or (target.is_file() and not target.is_symlink())
    assert outside.read_text() == before


# ---------------------------------------------------------------- window sizes and paths


def test_a_huge_window_size_is_clamped_with_a_message():
    from koikoi.ui.app import App
    app = App((16384, 16384), storage=Storage())
    try:
        w, h = app.window.get_size()
        assert w <= 7680 and h <= 4320
        assert any("larger than this screen allows" in t.text for t in app.toasts)
    finally:
        pygame.display.quit()


def test_clamp_follows_the_desktop():
    from koikoi.ui.window import clamp_window_size
    assert clamp_window_size((1280, 720), [(1920, 1080)]) == ((1280, 720), False)
    assert clamp_window_size((5000, 5000), [(1920, 1080)]) == ((3840, 2160), True)
    assert clamp_window_size((9000, 9000), []) == ((7680, 4320), True)
    assert clamp_window_size(("x", None), []) == ((1280, 720), True)


def test_a_data_path_longer_than_the_system_allows_is_a_clear_error(tmp_path):
    home = tmp_path / ("d" * 200) / ("e" * 200) / ("f" * 200) / ("g" * 200) / ("h" * 200)
    home = Path(str(home) + "/" + "/".join(["x" * 250] * 20))
    env = dict(os.environ, KOIKOI_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               KOIKOI_NO_CRASH_SCREEN="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "koikoi", "--frames", "2"], env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2
    assert "too long a path" in r.stderr and "Traceback" not in r.stderr
