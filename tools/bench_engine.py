"""Engine speed: random legal matches through the public API, full rounds per second.

    python tools/bench_engine.py [--preset nintendo] [--seconds 5] [--all] [--profile [N]]

Plays whole matches with ``legal_actions`` + ``apply`` (events and all) on one
core, choosing uniformly among the legal actions with a seeded RNG, and prints
the number of rounds (ledger rows) finished per second of wall time, and per
second of this process's CPU time (the steadier figure on a busy machine).
``--profile`` runs the same loop under cProfile and prints its N costliest
functions by own time (the rates it prints are then the profiler's, not the
engine's).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from koikoi.engine import RULESETS, apply, legal_actions, new_match  # noqa: E402


def bench(preset: str, seconds: float) -> tuple[float, int, int]:
    rules = RULESETS[preset]
    rng = random.Random(12345)
    rounds = actions = 0
    seed = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_match(rules, seed=seed)
        seed += 1
        while not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
            actions += 1
        rounds += len(state.ledger)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return rounds / elapsed, rounds / cpu, rounds, actions


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="nintendo", choices=sorted(RULESETS))
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--all", action="store_true", help="every preset in turn")
    ap.add_argument("--profile", type=int, nargs="?", const=25, default=None, metavar="N",
                    help="run under cProfile and print the N costliest functions (default 25)")
    args = ap.parse_args(argv)
    presets = list(RULESETS) if args.all else [args.preset]
    print(f"python {sys.version.split()[0]}, one core, random legal play, full matches")
    for preset in presets:
        if args.profile is not None:
            import cProfile
            import pstats
            profiler = cProfile.Profile()
            result = profiler.runcall(bench, preset, args.seconds)
        else:
            result = bench(preset, args.seconds)
        rate, cpu_rate, rounds, actions = result
        print(f"{preset:>11}: {rate:8.0f} rounds/s wall, {cpu_rate:8.0f} rounds per CPU-second"
              f"  ({rounds} rounds, {actions / rounds:.1f} actions/round)")
        if args.profile is not None:
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
