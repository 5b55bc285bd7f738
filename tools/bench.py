"""The performance budget, measured. Prints each figure beside its target.

    python tools/bench.py              # everything (about half a minute)
    python tools/bench.py --only idle  # one of: start, round, memory, idle

Headless (SDL dummy drivers) with a throwaway KOIKOI_HOME; every figure is
measured in a fresh child process so one does not disturb the next.

  start    cold start of ``python -m koikoi`` to the first interactive title
           frame (the app writes the time of its first flip to the file named
           by KOIKOI_FIRST_FRAME_FILE); the first run warms the OS file cache,
           the median of the next runs is the figure.        target <= 1.0 s
  round    the round table at 1920x1080 with capture animations running:
           median and p99 frame time (tools/bench_ui.py's set-up).
                                                    targets <= 4 ms / <= 8 ms
  memory   resident memory (VmRSS, and the peak VmHWM) while matches are
           played at 1920x1080 through the real scenes.     target <= 200 MB
  idle     process CPU time over ~3 s of the real loop (real clock) idling on
           the title, and on the table waiting for the player.
                                                      target < 5 % of a core
Nothing here is a test: the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(ROOT))


def _env(home: str) -> dict:
    return dict(os.environ, KOIKOI_HOME=home, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
                SDL_AUDIODRIVER="dummy", KOIKOI_NO_CRASH_SCREEN="1")


def _child(name: str, home: str, *extra: str, timeout: float = 600) -> dict:
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", name, *extra],
                       cwd=ROOT, env=_env(home), capture_output=True, text=True, timeout=timeout)
    for line in reversed(r.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"bench child {name} failed (status {r.returncode}):\n{r.stderr[-2000:]}")


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "OVER"


# ---------------------------------------------------------------------- start


def bench_start(runs: int = 5) -> list[str]:
    home = tempfile.mkdtemp(prefix="koikoi-bench-start-")
    # An installed game has its bytecode compiled; a checkout with
    # PYTHONDONTWRITEBYTECODE set would recompile every module at every start.
    # The children write and reuse bytecode in a private folder (the repository
    # is not touched), so the first run warms both that and the OS file cache.
    pycache = tempfile.mkdtemp(prefix="koikoi-bench-pycache-")
    times = []
    for i in range(runs + 1):
        mark = Path(home) / "first-frame.txt"
        if mark.exists():
            mark.unlink()
        env = _env(home)
        env["KOIKOI_FIRST_FRAME_FILE"] = str(mark)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
        t0 = time.time()
        p = subprocess.run([sys.executable, "-m", "koikoi", "--frames", "2", "--size", "1280x720"], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=120)
        if p.returncode != 0 or not mark.exists():
            raise RuntimeError(f"koikoi failed to start: {p.stderr[-2000:]}")
        times.append(float(mark.read_text()) - t0)
    warm = times[1:]
    med = statistics.median(warm)
    return [f"cold start to the first title frame: median {med:.3f} s over {len(warm)} runs "
            f"(min {min(warm):.3f}, max {max(warm):.3f}; bytecode cached; the very first run, compiling "
            f"every module, {times[0]:.3f} s)  "
            f"target <= 1.0 s  {verdict(med, 1.0)}"]


# ---------------------------------------------------------------------- round


def bench_round(frames: int = 600) -> list[str]:
    home = tempfile.mkdtemp(prefix="koikoi-bench-ui-")
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_ui.py"), "--frames", str(frames),
                        "--size", "1920x1080"], cwd=ROOT, env=_env(home), capture_output=True, text=True,
                       timeout=600)
    line = next((ln for ln in p.stdout.splitlines() if ln.startswith("round table")), None)
    if line is None:
        raise RuntimeError(f"tools/bench_ui.py failed: {p.stderr[-2000:]}")
    import re
    med = float(re.search(r"median ([\d.]+) ms", line).group(1))
    p99 = float(re.search(r"p99 ([\d.]+) ms", line).group(1))
    return [f"{line}", f"  round table frame time: median {med:.2f} ms (target <= 4 ms {verdict(med, 4)}), "
            f"p99 {p99:.2f} ms (target <= 8 ms {verdict(p99, 8)})"]


# ---------------------------------------------------------------------- memory


def child_memory(matches: int) -> dict:
    import random
    import pygame
    sys.path.insert(0, str(ROOT / "tools"))
    import soak
    from koikoi.storage import Storage
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene
    app = App((1920, 1080), storage=Storage())
    app.assets.muted = True
    app.settings["anim_speed"] = 0.0
    app.push(TitleScene(app))
    app.step()
    start = soak.rss_mb()
    rng = random.Random(3)
    peak = in_match = start
    for i in range(matches):
        st = soak.play_one(app, i + 1, rng, full=False, levels=("random",), max_frames=50000)
        peak = max(peak, st.rss_mb)
        in_match = max(in_match, st.peak_mb)
    hwm = soak.hwm_mb()
    pygame.quit()
    return {"start": start, "peak_after_match": peak, "peak_in_match": in_match, "hwm": hwm,
            "end": soak.rss_mb()}


def bench_memory(matches: int = 3) -> list[str]:
    r = _child("memory", tempfile.mkdtemp(prefix="koikoi-bench-mem-"), str(matches))
    top = r["hwm"] if r["hwm"] is not None else r["peak_after_match"]
    return [f"resident memory in matches at 1920x1080: {r['start']:.1f} MB at the title, "
            f"{r['peak_in_match']:.1f} MB max after a frame, "
            f"{r['peak_after_match']:.1f} MB max after a match, peak (VmHWM) "
            f"{(r['hwm'] or float('nan')):.1f} MB  target <= 200 MB  {verdict(top, 200)}"]


# ---------------------------------------------------------------------- idle


def _idle_window(app, seconds: float) -> dict:
    """Run the real loop (real clock) for ``seconds``; the CPU time it used."""
    import pygame
    pygame.time.set_timer(pygame.QUIT, int(seconds * 1000), loops=1)
    app.running = True
    f0 = app.frame
    c0, w0 = time.process_time(), time.perf_counter()
    app.run()
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"cpu": cpu, "wall": wall, "frames": app.frame - f0, "pct": 100.0 * cpu / max(wall, 1e-9)}


def child_idle(where: str, seconds: float) -> dict:
    import pygame
    from koikoi.storage import Storage
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene
    app = App((1280, 720), storage=Storage())
    app.assets.muted = True
    if where == "title":
        app.push(TitleScene(app))
        settle_until = time.perf_counter() + 10
        while time.perf_counter() < settle_until:       # the intro plays out, then input goes quiet
            app.step(1 / 60)
            if not any(getattr(s, "animating", False) for s in app.scenes):
                break
    else:
        from koikoi.engine import RULESETS
        from koikoi.ui.scenes.oyagime import open_round
        from koikoi.session import MatchSession, SeatConfig
        s = MatchSession(RULESETS["casual"], seed=8, months=3,
                         seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random")))
        while s.state.phase_name == "oyagime":
            s.apply(s.legal()[0])
        scene = open_round(app, s, replace=False)
        for _ in range(3000):                            # the deal and any CPU moves play out
            app.step(1 / 60)
            if scene.my_turn() and not scene.animating:
                break
        else:
            raise RuntimeError("the table never waited for the player")
    app.toasts.clear()
    app._last_input = time.monotonic() - 60               # nobody has touched it for a minute
    r = _idle_window(app, seconds)
    r["busy"] = app.busy
    pygame.quit()
    return r


def bench_idle(seconds: float = 3.0) -> list[str]:
    out = []
    for where, label in (("title", "idle on the title"), ("table", "waiting for the player on the table")):
        r = _child("idle", tempfile.mkdtemp(prefix="koikoi-bench-idle-"), where, str(seconds))
        out.append(f"CPU {label}: {r['pct']:.1f} % of a core ({r['cpu']:.3f} s CPU in {r['wall']:.2f} s, "
                   f"{r['frames']} frames)  target < 5 %  {verdict(r['pct'], 4.999)}")
    return out


# ---------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("start", "round", "memory", "idle"))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child == "memory":
        print(json.dumps(child_memory(int(args.rest[0]))))
        return 0
    if args.child == "idle":
        print(json.dumps(child_idle(args.rest[0], float(args.rest[1]))))
        return 0
    import platform
    print(f"koikoi performance budget ({platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, SDL video driver "
          f"{os.environ.get('SDL_VIDEODRIVER')}; load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg()) if hasattr(os, 'getloadavg') else '?'})")
    benches = {"start": bench_start, "round": bench_round, "memory": bench_memory, "idle": bench_idle}
    for name, fn in benches.items():
        if args.only and name != args.only:
            continue
        try:
            for line in fn():
                print(line, flush=True)
        except Exception as exc:
            print(f"{name}: FAILED: {exc}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
