"""tools/load_server.py: a few pairs against a real server subprocess on 127.0.0.1, with
and without faults; it finishes by itself, checks every match and reports numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "load_server.py"


def run_tool(*args, timeout=90):
    p = subprocess.run([sys.executable, str(TOOL), "--json", "--timeout", "60", *args],
                       capture_output=True, text=True, timeout=timeout, cwd=str(ROOT))
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    assert lines, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    return p.returncode, json.loads(lines[-1]), p.stdout


def test_five_pairs_play_and_are_measured(tmp_path):
    code, out, text = run_tool("--pairs", "5", "--think", "0.01", "--ramp", "0.2", "--data", str(tmp_path / "srv"))
    assert code == 0, text
    assert out["ok"] and out["matches"] == out["matches_wanted"] == 5 and not out["problems"]
    assert out["actions"] >= 5 * 8 and out["actions_per_s"] > 0
    assert 0 < out["rtt_p50_ms"] <= out["rtt_p99_ms"] <= out["rtt_max_ms"]
    assert out["peak_rooms"] >= 1 and out["server_rss_peak_mb"] > 0
    assert "actions/s" in text and "p99" in text and "KB a room" in text
    # the length of the matches is said: CPU an action depends on it (each match's start and end)
    assert out["months"] == 1 and "matches of 1 month" in text
    assert out["actions_per_match"] == round(out["actions"] / 5, 1) and "a match)" in text
    assert (tmp_path / "srv" / "rooms.sqlite3").is_file()        # the server's log, read by the check


def test_faults_drop_and_reconnect_and_no_match_is_lost():
    code, out, text = run_tool("--pairs", "5", "--months", "3", "--think", "0.03", "--ramp", "0.2",
                               "--faults", "--fault-interval", "0.4")
    assert code == 0, text
    assert out["ok"] and out["matches"] == 5 and out["drops"] >= 1 and out["reconnects"] >= out["drops"]


def test_an_unmet_target_fails_and_bad_options_are_refused():
    code, out, _text = run_tool("--pairs", "2", "--think", "0", "--ramp", "0", "--target-p99", "0.0001")
    assert code == 1 and not out["ok"] and out["matches"] == 2     # played, but not fast enough
    p = subprocess.run([sys.executable, str(TOOL), "--pairs", "0"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 2 and "--pairs must be" in p.stderr


def test_quick_match_mode_seats_every_player_and_plays_the_matches_out(tmp_path):
    code, out, text = run_tool("--quick", "10", "--ramp", "0.2", "--play", "--think", "0.01",
                               "--data", str(tmp_path / "srv"))
    assert code == 0, text
    assert out["ok"] and not out["problems"] and out["db"] == "sqlite" and out["processes"] == 1
    assert out["rooms"] == out["rooms_wanted"] == 5 and out["seated"] == 10 and out["peak_waiting"] == 10
    assert out["matches_per_s"] > 0 and out["server_cpu_ms_per_match"] is not None
    assert 0 < out["q2r_p50_ms"] <= out["q2r_p99_ms"] <= out["q2r_max_ms"] < 30_000
    assert out["actions"] >= 5 * 8 and not out["refused"]
    assert "matches made:" in text and "queue-to-room: p50" in text and "every match finished" in text
    # the profiles were made beforehand (one address may bring only a few new keys an hour)
    import sqlite3
    db = sqlite3.connect(tmp_path / "srv" / "p1" / "ladder.sqlite3")
    try:
        assert db.execute("SELECT COUNT(*) FROM profiles WHERE matches = 1").fetchone()[0] == 10
    finally:
        db.close()


def test_quick_match_on_two_processes_follows_matched():
    p = subprocess.run([sys.executable, str(TOOL), "--json", "--timeout", "60", "--quick", "8", "--ramp", "0.2",
                        "--processes", "2"], capture_output=True, text=True, timeout=150, cwd=str(ROOT))
    if p.returncode == 77:
        import pytest
        pytest.skip("no PostgreSQL for two processes: " + p.stderr.strip()[-300:])
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    assert p.returncode == 0 and lines, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    out = json.loads(lines[-1])
    assert out["ok"] and out["db"] == "postgresql" and out["rooms"] == 4 and out["seated"] == 8
    assert out["moved"] >= 1                    # some pairs were made across the two processes


def test_quick_match_options_are_checked():
    for args, why in ((["--quick", "7"], "even number"), (["--processes", "2"], "go with --quick"),
                      (["--quick", "4", "--processes", "2", "--pin"], "one process"),
                      (["--quick", "4", "--faults"], "not a --quick option")):
        p = subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and why in p.stderr, (args, p.stderr)


def test_server_args_reach_the_server_and_a_bad_one_stops_the_run(tmp_path):
    code, out, text = run_tool("--pairs", "2", "--think", "0.01", "--ramp", "0.1",
                               "--server-arg=--commit-window", "--server-arg=0")
    assert code == 0 and out["ok"], text
    p = subprocess.run([sys.executable, str(TOOL), "--pairs", "1", "--timeout", "30",
                        "--server-arg=--commit-window", "--server-arg=nonsense", "--data", str(tmp_path / "s")],
                       capture_output=True, text=True, timeout=60, cwd=str(ROOT))
    assert p.returncode != 0 and "did not start" in (p.stdout + p.stderr)


def test_the_room_bench_plays_matches_out_and_reports_an_action(tmp_path):
    tool = ROOT / "tools" / "bench_room.py"
    p = subprocess.run([sys.executable, str(tool), "--matches", "2", "--months", "1"],
                       capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert p.returncode == 0, p.stderr[-2000:]
    assert "2 matches of 1 month,"  in p.stdout and "ms CPU an action" in p.stdout


def test_the_transport_bench_measures_a_frame_in_and_two_out():
    tool = ROOT / "tools" / "bench_transport.py"
    p = subprocess.run([sys.executable, str(tool), "--clients", "5", "--seconds", "1", "--gap", "0.05",
                        "--runs", "1", "--kinds", "koikoi"],
                       capture_output=True, text=True, timeout=120, cwd=str(ROOT))
    assert p.returncode == 0, p.stderr[-2000:]
    (line,) = [ln for ln in p.stdout.splitlines() if ln.startswith("koikoi:")]
    frames = int(line.split()[1])
    assert frames > 10 and "us of server CPU a frame in" in line
