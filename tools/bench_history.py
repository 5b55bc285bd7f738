"""How long History and Statistics take to open with thousands of finished matches.

    python tools/bench_history.py                      # 5,000 logs in a cached folder
    python tools/bench_history.py --matches 1000 --compare 84eedc0

It fills a KOIKOI_HOME (``--home``, default a folder under the system temp
dir, reused between runs) with ``--matches`` finished match logs played by
random legal moves (12- and 6-month matches of every preset; written in the
save format every version reads), then prints:

* the time to build the history index from nothing with History on screen
  (opened from the title, whose first frame is drawn first),
  in wall-clock seconds and in CPU seconds (the game's process and any
  background process it started: on a shared machine the wall clock says
  more about the neighbours), and the frame times meanwhile and for ``--after``
  seconds after it (the render loop must never wait for the worker more than a
  frame, nor for the full collection the rebuild's new objects are due: the
  loop runs it at an idle moment, koikoi.gc_pacing), wall clock and the render
  thread's own CPU, and the full collections on the render thread;
* opening History and Statistics with the index built: the scene's
  construction plus its first frame, median and worst of ``--repeat``, and
  how long until its rows are on screen (the same, unless the rows arrive
  from the worker). Each run first draws one frame of the title screen, which
  makes the table's background: that is the game's start, not an opening.

``--compare REV`` runs the same with the code of another commit (a
temporary ``git worktree``) on the same files, in the same run: the openings,
and with ``--compare-rebuild`` the rebuild too (minutes at 5,000 matches).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env(home: Path, pythonpath: Path) -> dict:
    return dict(os.environ, KOIKOI_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                PYTHONPATH=str(pythonpath), PYGAME_HIDE_SUPPORT_PROMPT="1")


# ---------------------------------------------------------------------- the logs


def random_match(rng: random.Random, i: int, *, months: int, moves=None):
    """A MatchSession of the ``i``-th preset (they take turns) between You and CPU (Hard),
    played by random legal moves: to its end, or ``moves(rng)`` actions if that comes first
    (then never its last one: the match stays unfinished)."""
    sys.path.insert(0, str(ROOT))
    from koikoi.engine import RULESETS, apply, legal_actions   # after ROOT is on the path
    from koikoi.session import MatchSession, SeatConfig        # after ROOT is on the path
    names = sorted(RULESETS)
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Hard)", "hard"))
    s = MatchSession(RULESETS[names[i % len(names)]], seed=rng.randrange(1, 2 ** 31), months=months, seats=seats)
    state = s.state
    left = moves(rng) if moves is not None else None
    while not state.is_over and (left is None or left > 0):
        legal = legal_actions(state)
        after = apply(state, legal[rng.randrange(len(legal))])
        if left is not None:
            if after.is_over:
                break
            left -= 1
        state = after
    s.state = state
    return s


def generate(home: Path, n: int, seed: int = 1) -> int:
    """Write ``n`` finished matches into home/data/history (kept if already there)."""
    sys.path.insert(0, str(ROOT))
    from koikoi.storage import _summary    # after ROOT is on the path
    folder = home / "data" / "history"
    folder.mkdir(parents=True, exist_ok=True)
    have = len(list(folder.glob("match-*.json")))
    rng = random.Random(seed + have)
    t0 = time.perf_counter()
    for i in range(have, n):
        s = random_match(rng, i, months=12 if i % 2 else 6)
        data = s.to_data()
        # the format before match ids, which every version reads: --compare times the same files
        data["format"] = 1
        del data["id"]
        data["summary"] = _summary(s)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(1.7e9 + i * 600))
        data["summary"]["finished_at"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(1.7e9 + i * 600))
        (folder / f"match-{stamp}-{i:05d}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        if (i + 1) % 500 == 0:
            print(f"  wrote {i + 1:,} of {n:,} logs ({time.perf_counter() - t0:.0f} s)", flush=True)
    return n - have


# ---------------------------------------------------------------------- measuring (either code)


MEASURE = r"""
import json, os, statistics, sys, time
import pygame
from koikoi.storage import Storage
from koikoi.ui.app import App
from koikoi.ui.scenes.history import HistoryScene
from koikoi.ui.scenes.stats import StatsScene
repeat = int(sys.argv[1])
from koikoi.ui.scenes.title import TitleScene
app = App((1920, 1080), storage=Storage())
app.settings["anim_speed"] = 0.0
app.push(TitleScene(app))
app.step(1 / 60)
idx = getattr(app.storage, "history_index", None)
out = {}
if idx is not None:
    t0 = time.perf_counter(); idx.refresh(wait=True); out["warm_up_s"] = time.perf_counter() - t0

def shown(scene):
    return bool(scene.matches) if hasattr(scene, "matches") else not scene.empty

for name, cls in (("history", HistoryScene), ("stats", StatsScene)):
    times, rows_at, cpu = [], [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.thread_time()
        app.push(cls(app))
        app.step(1 / 60)
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
        while not shown(app.top) and time.perf_counter() - t0 < 60:
            time.sleep(0.005)
            app.step(1 / 60)
        rows_at.append(time.perf_counter() - t0)
        if idx is not None:
            idx.wait(60)
        app.pop()
    out[name] = times
    out[name + "_rows"] = rows_at
    out[name + "_cpu"] = cpu
    if name == "history":
        out["rows"] = len(HistoryScene(app).matches)
import koikoi
out["code"] = os.path.dirname(os.path.dirname(os.path.abspath(koikoi.__file__)))
print("RESULT" + json.dumps(out))
"""


def measure(home: Path, code_root: Path, repeat: int) -> dict:
    # run from inside the tree measured: ``python -c`` puts the working folder first on sys.path
    r = subprocess.run([sys.executable, "-c", MEASURE, str(repeat)], env=_env(home, code_root), cwd=code_root,
                       capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit(f"measuring failed:\n{r.stderr[-3000:]}")
    line = [x for x in r.stdout.splitlines() if x.startswith("RESULT")][-1]
    return json.loads(line[len("RESULT"):])


REBUILD = r"""
import gc, json, sys, threading, time
try:
    from koikoi.gc_pacing import idle as collect_when_idle
except ImportError:                 # older code: the collector on its own schedule
    collect_when_idle = lambda: False
from koikoi.storage import Storage
from koikoi.ui.app import App
from koikoi.ui.scenes.history import HistoryScene
from koikoi.ui.scenes.title import TitleScene
app = App((1920, 1080), storage=Storage())
app.settings["anim_speed"] = 0.0
# the game's start, as in MEASURE: the title's first frame makes the table's background
# (about 0.1 s, once a run, with or without a rebuild), which History's first frame would otherwise count
app.push(TitleScene(app))
app.step(1 / 60)
idx = app.storage.history_index
after_s = float(sys.argv[1])
full = []                           # full collections on this (the render) thread: (start, end)
def watch(phase, info):
    if info["generation"] == 2 and threading.current_thread() is threading.main_thread():
        if phase == "start":
            full.append([time.perf_counter(), None])
        elif full:
            full[-1][1] = time.perf_counter()
gc.callbacks.append(watch)
t0 = time.perf_counter()
app.push(HistoryScene(app))
frames, cpu, starts, idle_collect = [], [], [], []
build = None
while True:
    # the game's own loop (App.run): 60 frames a second while something moves, else the
    # idle wait, before which it runs a full collection a worker deferred (koikoi.gc_pacing)
    if app.busy:
        app.clock.tick(60)
    else:
        i0, ic = time.perf_counter(), time.thread_time()
        if collect_when_idle():
            idle_collect.append((time.perf_counter() - i0, time.thread_time() - ic))
        app.wait_idle()
    f0, c0 = time.perf_counter(), time.thread_time()
    app.step(1 / 60)
    frames.append(time.perf_counter() - f0)
    cpu.append(time.thread_time() - c0)
    starts.append(f0)
    if build is None and not idx.busy and not app.top.feed.busy:
        build = time.perf_counter() - t0
        built_at = len(frames)
    if build is not None and time.perf_counter() - t0 - build >= after_s:
        break
# which frame each full collection on this thread fell in (None: between frames)
def frame_of(t):
    for n, (f0, d) in enumerate(zip(starts, frames)):
        if f0 <= t <= f0 + d:
            return n
    return None
gcs = [{"ms": (e - s) * 1000 if e else None, "frame": frame_of(s)} for s, e in full]
print("RESULT" + json.dumps({"build_s": build, "frames": frames, "frame_cpu": cpu, "built_at": built_at,
                             "rows": len(app.top.matches), "full_gc": gcs,
                             "idle_collect_ms": [[x * 1000 for x in w_c] for w_c in idle_collect]}))
"""


def rebuild(home: Path, code_root: Path = ROOT, after_s: float = 5.0) -> dict:
    index = home / "data" / "history-index.sqlite3"
    for p in (index, index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm")):
        if p.exists():
            p.unlink()          # the benchmark's own cache, in the benchmark's own folder
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, "-c", REBUILD, str(after_s)], env=_env(home, code_root), cwd=code_root,
                       capture_output=True, text=True, timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"rebuild failed:\n{r.stderr[-3000:]}")
    line = [x for x in r.stdout.splitlines() if x.startswith("RESULT")][-1]
    out = json.loads(line[len("RESULT"):])
    # the game's process and, once it has ended, every process it started (all reaped by then)
    out["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out["after_s"] = after_s
    return out


def _frame_stats(frames: list, cpu: list) -> str:
    if not frames:
        return "no frames"
    ordered = sorted(frames)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    over = [(f, c) for f, c in zip(frames, cpu) if f > 1 / 60]
    by_cpu = sorted(cpu)
    text = (f"{len(frames)} frames: p95 {p95 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
            f"worst {ordered[-1] * 1000:.1f} ms; {len(over)} over 16.7 ms")
    if over:
        worst = sorted(over, reverse=True)[:8]
        text += " (" + ", ".join(f"{f * 1000:.0f}" for f, _c in worst) + (" ..." if len(over) > 8 else "") + " ms)"
    text += (f"; the render thread's own CPU a frame: median {by_cpu[len(by_cpu) // 2] * 1000:.1f} ms, "
             f"p99 {by_cpu[int(0.99 * (len(by_cpu) - 1))] * 1000:.1f} ms, worst {by_cpu[-1] * 1000:.1f} ms, "
             f"{sum(1 for c in cpu if c > 1 / 60)} over 16.7 ms")
    return text


def _rebuild_line(label: str, rb: dict) -> str:
    n = rb["built_at"]
    frames, cpu = rb["frames"], rb["frame_cpu"]
    in_frames = [g for g in rb["full_gc"] if g["frame"] is not None]
    gcs = ", ".join(f"{g['ms']:.0f} ms in frame {g['frame']}" for g in in_frames) or "none"
    idle = ", ".join(f"{ms:.0f} ms (CPU {c:.0f} ms)" for ms, c in rb["idle_collect_ms"]) or "none"
    return (f"{label}: index built from nothing with History open: {rb['build_s']:.1f} s "
            f"({rb['cpu_s']:.1f} s of CPU, the {rb['after_s']:.0f} s after it included) for {rb['rows']:,} rows; "
            f"the screen's first frame {frames[0] * 1000:.0f} ms (CPU {cpu[0] * 1000:.1f} ms)\n"
            f"    during the build, {_frame_stats(frames[1:n], cpu[1:n])}\n"
            f"    in the {rb['after_s']:.0f} s after it, {_frame_stats(frames[n:], cpu[n:])}\n"
            f"    full collections on the render thread within a frame: {gcs}; between frames, "
            f"at an idle moment (koikoi.gc_pacing): {idle}")


def _open_line(label: str, m: dict) -> str:
    return (f"{label:<10} ({m['rows']:,} rows):  History {_fmt(m['history'])} (rows shown: median "
            f"{statistics.median(m['history_rows']) * 1000:.1f} ms{_cpu(m, 'history')})   Statistics "
            f"{_fmt(m['stats'])} (shown: median {statistics.median(m['stats_rows']) * 1000:.1f} ms{_cpu(m, 'stats')})")


def _cpu(m: dict, name: str) -> str:
    cpu = m.get(name + "_cpu")
    if not cpu:
        return ""
    return (f"; the opening's CPU: first {cpu[0] * 1000:.1f} ms, median {statistics.median(cpu) * 1000:.1f} ms, "
            f"worst {max(cpu) * 1000:.1f} ms")


def _fmt(times: list) -> str:
    return f"median {statistics.median(times) * 1000:7.1f} ms, worst {max(times) * 1000:7.1f} ms"


def export_tree(rev: str) -> Path:
    """The code of commit ``rev``, exported with ``git archive`` into a new temporary folder
    (the caller removes it)."""
    tree = Path(tempfile.mkdtemp(prefix="koikoi-old-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=5000)
    p.add_argument("--home", default=str(Path(tempfile.gettempdir()) / "koikoi-bench-history"))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--compare", metavar="REV", help="also time the code of this commit")
    p.add_argument("--compare-rebuild", action="store_true", help="with --compare: time its rebuild too")
    p.add_argument("--no-rebuild", action="store_true", help="time the openings only")
    p.add_argument("--after", type=float, default=5.0, metavar="S",
                   help="frames drawn for S seconds after the rebuild too (default 5)")
    args = p.parse_args(argv)
    home = Path(args.home)
    folder = home / "data" / "history"
    have = len(list(folder.glob("match-*.json"))) if folder.is_dir() else 0
    if have > args.matches:
        raise SystemExit(f"{folder} holds {have} logs, more than --matches {args.matches}: use another --home")
    if have < args.matches:
        print(f"writing {args.matches - have:,} match logs into {folder} ...", flush=True)
        generate(home, args.matches)
    size = sum(f.stat().st_size for f in folder.glob("match-*.json"))
    print(f"{args.matches:,} finished matches, {size / 1e6:.0f} MB of logs, in {home}")

    tree = export_tree(args.compare) if args.compare else None
    try:
        if not args.no_rebuild:
            if tree is not None and args.compare_rebuild:
                print(_rebuild_line(args.compare[:10], rebuild(home, tree, args.after)), flush=True)
            print(_rebuild_line("this code", rebuild(home, ROOT, args.after)), flush=True)
        new = measure(home, ROOT, args.repeat)
        print(_open_line("this code", new), flush=True)
        if tree is not None:
            # the other version's index of the same files (another schema: it sets ours aside and builds its own)
            old = measure(home, tree, args.repeat)
            assert Path(old["code"]).resolve() == tree.resolve(), old["code"]
            print(_open_line(args.compare[:10], old), flush=True)
    finally:
        if tree is not None:
            shutil.rmtree(tree, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
