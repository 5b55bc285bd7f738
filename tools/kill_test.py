"""Kill the game with SIGKILL again and again during CPU-vs-CPU play; check nothing is lost.

    python tools/kill_test.py                  # 60 kill cycles in a fresh temporary KOIKOI_HOME
    python tools/kill_test.py --cycles 200 --home /tmp/kk --keep

Each cycle starts a child process that does what the game does at start (the
instance lock, App with its clean-up of interrupted writes, the title screen
with its Continue check), continues the autosaved match or starts a new one
between two CPUs, and plays it through ``MatchSession.apply`` (which autosaves
after every action and files the match once it ends). After every action it
prints ``A <id> <events>``, after a finished match ``F <id>``; the parent
kills it at a random moment (``--min``/``--max`` seconds after start).

At the end one clean start is made, and the tool checks:

* every match the child reported finished is in the history (nothing lost);
* no match id is filed twice (no duplicate);
* no temporary file of an interrupted write is left anywhere;
* every match that was being played is still somewhere (the autosave, a kept
  match or the history) with at least the events last reported (at most the
  action in flight when the kill came is lost).

It prints the counts and exits 1 if any check fails. POSIX only (SIGKILL).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------- the child


def child(seed: int) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    sys.path.insert(0, str(ROOT))
    from koikoi.engine import RULESETS
    from koikoi.instance_lock import InstanceLock
    from koikoi.session import MatchSession, SeatConfig
    from koikoi.storage import Storage
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene

    storage = Storage()
    lock = InstanceLock(storage.data_dir)
    if not lock.acquire():
        print("LOCKED", flush=True)
        return 3
    app = App((640, 360), storage=storage, seed=seed)
    app.settings["anim_speed"] = 0.0
    app.push(TitleScene(app))
    app.step(1 / 60)
    rng = random.Random(seed)
    out = sys.stdout
    while True:
        session = app.top.saved if isinstance(app.top, TitleScene) else None
        if session is None:
            preset = RULESETS[rng.choice(sorted(RULESETS))]
            months = rng.choice([m for m in preset.months_offered if m <= 3] or [1])
            seats = (SeatConfig("cpu", "CPU East", "random"), SeatConfig("cpu", "CPU West", "easy"))
            session = MatchSession(preset, seed=rng.randrange(1, 2 ** 31), months=months, seats=seats)
            app.autosave(session)
        else:
            app.watch(session)
        out.write(f"S {session.id} {len(session.state.events)}\n")
        out.flush()
        while not session.state.is_over:
            session.apply(session.cpu_move_now())
            out.write(f"A {session.id} {len(session.state.events)}\n")
            out.flush()
        out.write(f"F {session.id}\n")
        out.flush()
        app.reset(TitleScene(app))
        app.step(1 / 60)


# ---------------------------------------------------------------------- the parent


def _env(home: Path) -> dict:
    return dict(os.environ, KOIKOI_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                KOIKOI_NO_CRASH_SCREEN="1", PYTHONPATH=str(ROOT))


def _final_start(home: Path) -> None:
    code = ("import os, sys; sys.path.insert(0, %r)\n"
            "from koikoi.storage import Storage\nfrom koikoi.ui.app import App\n"
            "from koikoi.ui.scenes.title import TitleScene\n"
            "app = App((640, 360), storage=Storage()); app.push(TitleScene(app)); app.step(1/60)\n"
            "Storage().list_finished()\n" % str(ROOT))
    subprocess.run([sys.executable, "-c", code], env=_env(home), check=True, timeout=300,
                   stdout=subprocess.DEVNULL)


def _events_in(path: Path) -> tuple[str, int]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["id"], len(data["log"]["events"])


def run(args) -> int:
    home = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="koikoi-kill-"))
    rng = random.Random(args.seed)
    finished: set[str] = set()
    last: dict[str, int] = {}
    kills = exits = interrupted = 0
    t0 = time.monotonic()
    for cycle in range(args.cycles):
        proc = subprocess.Popen([sys.executable, __file__, "--child", str(rng.randrange(1, 2 ** 31))],
                                env=_env(home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(args.min, args.max))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        else:
            exits += 1
        stdout, stderr = proc.communicate(timeout=60)
        interrupted += len(list(home.rglob("*.tmp")))   # writes this kill cut short (the next start tidies)
        if "Traceback" in stderr:
            print(f"cycle {cycle}: the child failed:\n{stderr[-2000:]}", file=sys.stderr)
            return 1
        for line in stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] in ("A", "S"):
                last[parts[1]] = max(last.get(parts[1], 0), int(parts[2]))
            elif len(parts) == 2 and parts[0] == "F":
                finished.add(parts[1])
    _final_start(home)

    from_history: dict[str, int] = {}
    dupes = []
    for p in (home / "data" / "history").glob("match-*.json"):
        mid, n = _events_in(p)
        if mid in from_history:
            dupes.append(mid)
        from_history[mid] = max(n, from_history.get(mid, 0))
    kept: dict[str, int] = {}
    for p in list((home / "data" / "saved").glob("match-*.json")) + [home / "data" / "autosave.json"]:
        if p.exists():
            mid, n = _events_in(p)
            kept[mid] = max(n, kept.get(mid, 0))
    temps = [p for p in home.rglob("*.tmp")]
    corrupt = [p for p in home.rglob("*.corrupt-*")]
    lost_finished = sorted(finished - set(from_history))
    behind = []
    for mid, n in last.items():
        have = max(from_history.get(mid, 0), kept.get(mid, 0))
        if have < n:
            behind.append((mid, n, have))
    took = time.monotonic() - t0
    print(f"{args.cycles} cycles in {took:.0f} s: {kills} killed, {exits} exited on their own")
    print(f"matches played: {len(last)}; finished (reported): {len(finished)}; "
          f"in the history: {len(from_history)}; kept or autosaved: {len(kept)}")
    print(f"duplicates: {len(dupes)}; finished matches lost: {len(lost_finished)}; "
          f"matches behind their last reported action: {len(behind)}; "
          f"writes cut short by a kill: {interrupted}; temp files left at the end: {len(temps)}; "
          f"files set aside: {len(corrupt)}")
    for what, items in (("duplicate", dupes), ("lost", lost_finished), ("behind", behind),
                        ("temp", temps), ("set aside", corrupt)):
        for item in items[:5]:
            print(f"  {what}: {item}")
    if not args.keep and not args.home:
        shutil.rmtree(home, ignore_errors=True)
    else:
        print(f"files kept in {home}")
    ok = not (dupes or lost_finished or behind or temps or corrupt)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cycles", type=int, default=60)
    p.add_argument("--min", type=float, default=0.4, help="earliest kill, seconds after start")
    p.add_argument("--max", type=float, default=2.5, help="latest kill, seconds after start")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--home", help="KOIKOI_HOME to use (kept afterwards)")
    p.add_argument("--keep", action="store_true", help="keep the temporary KOIKOI_HOME")
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child is not None:
        return child(args.child)
    if not hasattr(signal, "SIGKILL"):
        print("kill_test needs SIGKILL (POSIX)", file=sys.stderr)
        return 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
