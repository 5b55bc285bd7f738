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
# the trace of each frame: what the render thread waited for, and what the other threads did
# meanwhile (their CPU clocks; the index worker's steps, where its code has them)
import resource
RT = getattr(resource, "RUSAGE_THREAD", None)
def switches():
    if RT is None:
        return (0, 0)
    r = resource.getrusage(RT)
    return (r.ru_nvcsw, r.ru_nivcsw)
def thread_clocks():
    out = {}
    for t in threading.enumerate():
        if t is threading.main_thread() or t.ident is None:
            continue
        try:
            out[t.name] = time.clock_gettime(time.pthread_getcpuclockid(t.ident))
        except (OSError, AttributeError):
            pass
    return out
import multiprocessing
def schedstat(path):             # (ns on a core, ns waiting in the run queue for one) of a task
    try:
        with open(path) as f:
            run, wait = f.read().split()[:2]
        return int(run), int(wait)
    except (OSError, ValueError):
        return None
ME = f"/proc/self/task/{threading.get_native_id()}/schedstat"
def children_run():             # ns on a core of each background process (the pool's)
    out = {}
    for c in multiprocessing.active_children():
        st = schedstat(f"/proc/{c.pid}/schedstat")
        if st is not None:
            out[c.pid] = st[0]
    return out
steps = []                          # (wall, the worker thread's CPU, where; CPU on entering) at each step
real_step = getattr(idx, "_step", None)
if real_step is not None:
    def traced_step():
        here, entered = sys._getframe(1), time.thread_time()
        real_step()
        steps.append((time.perf_counter(), time.thread_time(), f"{here.f_code.co_name}:{here.f_lineno}", entered))
    idx._step = traced_step
trace = []
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
    sw0, th0, prog, n0 = switches(), thread_clocks(), tuple(idx.progress), len(steps)
    me0, ch0 = schedstat(ME), children_run()
    f0, c0 = time.perf_counter(), time.thread_time()
    app.step(1 / 60)
    frames.append(time.perf_counter() - f0)
    cpu.append(time.thread_time() - c0)
    starts.append(f0)
    sw1, th1 = switches(), thread_clocks()
    me1, ch1 = schedstat(ME), children_run()
    trace.append({"t": f0 - t0, "progress": prog, "switches": [sw1[0] - sw0[0], sw1[1] - sw0[1]],
                  "threads": {k: (th1[k] - th0[k]) * 1000 for k in th1 if k in th0 and th1[k] > th0[k]},
                  "steps": len(steps) - n0, "step_index": n0,
                  "queued_ms": (me1[1] - me0[1]) / 1e6 if me0 and me1 else None,
                  "children_ms": [(ch1[k] - ch0[k]) / 1e6 for k in ch1 if k in ch0]})
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
# the worker's longest stretch between two steps that overlaps each frame (wall and its CPU)
import bisect
at = [st[0] for st in steps]
for n, (f0, d) in enumerate(zip(starts, frames)):
    longest = (0.0, 0.0)
    for j in range(max(1, bisect.bisect_right(at, f0)), min(len(at), bisect.bisect_left(at, f0 + d) + 1)):
        gap = (at[j] - at[j - 1]) * 1000
        if gap > longest[0]:
            longest = (gap, (steps[j][1] - steps[j - 1][1]) * 1000)
    trace[n]["longest_step"] = longest
# the worker's CPU between two steps, by where it went from and to: its longest stretches holding the interpreter
stretches = {}
for j in range(1, len(steps)):
    key = f"{steps[j - 1][2]} -> {steps[j][2]}"
    ms = (steps[j][3] - steps[j - 1][1]) * 1000      # from leaving one step to entering the next
    n_max = stretches.setdefault(key, [0, 0.0, 0.0])
    n_max[0] += 1
    n_max[1] = max(n_max[1], ms)
    n_max[2] += ms
print("RESULT" + json.dumps({"build_s": build, "frames": frames, "frame_cpu": cpu, "built_at": built_at,
                             "rows": len(app.top.matches), "full_gc": gcs, "trace": trace, "stretches": stretches,
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


def _build_figures(rb: dict) -> dict:
    n = rb["built_at"]
    frames, cpu = sorted(rb["frames"][1:n]), sorted(rb["frame_cpu"][1:n])
    queued = sorted(t["queued_ms"] for t in rb.get("trace", [])[1:n] if t.get("queued_ms") is not None)
    return {"build_s": rb["build_s"], "frames": len(frames),
            "over": sum(1 for f in frames if f > 1 / 60), "p99": frames[int(0.99 * (len(frames) - 1))] * 1000,
            "worst": frames[-1] * 1000, "cpu_p99": cpu[int(0.99 * (len(cpu) - 1))] * 1000, "cpu_worst": cpu[-1] * 1000,
            "cpu_over": sum(1 for c in cpu if c > 1 / 60),
            "queued_worst": queued[-1] if queued else None}


def _runs_table(runs: list) -> str:
    """One line a rebuild, the frames during the build (the first, History's opening, left out)."""
    lines = ["rebuilds, in the order run (frames during the build):"]
    for label, rb in runs:
        f = _build_figures(rb)
        q = f"; longest wait for a core {f['queued_worst']:.1f} ms" if f["queued_worst"] is not None else ""
        lines.append(f"  {label:<10} {f['build_s']:5.1f} s, {f['frames']} frames, {f['over']} over 16.7 ms, "
                     f"p99 {f['p99']:.1f} ms, worst {f['worst']:.1f} ms; own CPU p99 {f['cpu_p99']:.1f} ms, "
                     f"worst {f['cpu_worst']:.1f} ms, {f['cpu_over']} over 16.7 ms{q}")
    return "\n".join(lines)


def _rebuild_line(label: str, rb: dict, *, all_slow: bool = False) -> str:
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
            f"at an idle moment (koikoi.gc_pacing): {idle}" + _slow_frames(rb, all_slow))


def _slow_frames(rb: dict, all_slow: bool = False) -> str:
    """The trace of each frame over 16.7 ms: its wall clock and own CPU, how often the render
    thread gave up its core (voluntarily: the interpreter lock, a sleep; involuntarily: another
    task took the core), and the CPU of the game's other threads meanwhile."""
    trace = rb.get("trace")
    if not trace:
        return ""
    lines = []
    slow = [n for n, f in enumerate(rb["frames"]) if f > 1 / 60 and n < len(trace)]
    if not all_slow:
        slow = sorted(sorted(slow, key=lambda n: -rb["frames"][n])[:12])
    for n in slow:
        f, c = rb["frames"][n], rb["frame_cpu"][n]
        tr = trace[n]
        others = ", ".join(f"{k} {v:.1f}" for k, v in sorted(tr["threads"].items(), key=lambda kv: -kv[1]) if v >= 0.1)
        step = tr.get("longest_step") or (0.0, 0.0)
        lines.append(f"      frame {n} at {tr['t']:.1f} s ({'built' if n >= rb['built_at'] else 'building'}, "
                     f"progress {tr['progress'][0]}/{tr['progress'][1]}): {f * 1000:.1f} ms, CPU {c * 1000:.1f} ms; "
                     f"switches {tr['switches'][0]} voluntary, {tr['switches'][1]} involuntary"
                     + (f", {tr['queued_ms']:.1f} ms waiting for a core" if tr.get("queued_ms") is not None else "")
                     + (f"; the background processes on a core meanwhile: "
                        f"{', '.join(f'{x:.1f}' for x in tr['children_ms'])} ms" if tr.get("children_ms") else "")
                     + f"; other threads' CPU "
                     f"(ms): {others or 'none'}; worker steps {tr['steps']} in it, its longest stretch "
                     f"{step[0]:.1f} ms (CPU {step[1]:.1f})")
    text = ("\n    frames over 16.7 ms:\n" + "\n".join(lines)) if lines else ""
    stretches = rb.get("stretches")
    if stretches:
        worst = sorted(stretches.items(), key=lambda kv: -kv[1][1])[:4]
        text += ("\n    the index worker's longest CPU between two of its steps (from -> to: times, worst, total): "
                 + "; ".join(f"{k}: {n}, {m:.1f} ms, {t:.0f} ms" for k, (n, m, t) in worst))
    return text


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
    p.add_argument("--runs", type=int, default=1, metavar="N",
                   help="rebuild N times (with --compare-rebuild: the two versions taking turns)")
    p.add_argument("--no-openings", action="store_true", help="time the rebuild only")
    p.add_argument("--json", metavar="PATH", help="write every rebuild's figures and frame trace here")
    p.add_argument("--all-slow", action="store_true", help="list every frame over 16.7 ms (default: the 12 worst)")
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
        runs = []
        if not args.no_rebuild:
            for _run in range(max(1, args.runs)):
                if tree is not None and args.compare_rebuild:
                    runs.append((args.compare[:10], rebuild(home, tree, args.after)))
                    print(_rebuild_line(*runs[-1], all_slow=args.all_slow), flush=True)
                runs.append(("this code", rebuild(home, ROOT, args.after)))
                print(_rebuild_line(*runs[-1], all_slow=args.all_slow), flush=True)
            if len(runs) > 1:
                print(_runs_table(runs), flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps([{"code": label, **rb} for label, rb in runs]))
        if args.no_openings:
            return 0
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
