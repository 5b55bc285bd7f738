"""Hard's think time: CPU seconds a decision, p50 / p95 / max, on the same positions.

    python tools/bench_think.py [TREE ...] [--preset nintendo] [--matches 4] [--months 12] [--runs 2]

The positions come from seeded matches that Medium plays on both seats; at each of
seat 0's turns with a choice (more than one legal action, not the oya-gime pick)
Hard is asked what it would do (its answer is not played), and the CPU time of that
call (``time.thread_time``) is recorded. So every tree is timed on the same positions
whatever its Hard decides (as long as Medium and the engine play the same there).
Hard runs as the game makes it (``make_player("hard")``: its default budget, with the
wall-clock ceiling, which binds only on a machine too busy to matter), or with
``--spec "hard:simulations=900"`` for a budget under study. Issue 28's budget is
p95 <= 150 ms a decision on this machine.

With TREEs (project checkouts; default: this one) each is run in its own process on
its own code (this file's loop), in turns, ``--runs`` times; each line says the tree
and its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(preset: str, matches: int, months: int, spec: str) -> list:
    """CPU seconds of each of Hard's decisions (see the module's docstring)."""
    from koikoi.ai import make_player
    from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
    from koikoi.engine.actions import PickOyagime

    rules = RULESETS[preset]
    times = []
    for m in range(matches):
        state = new_match(rules, seed=5000 + m, months=months)
        medium = [make_player("medium", seed=2 * m + 1), make_player("medium", seed=2 * m + 2)]
        if ":" in spec:
            level, _, rest = spec.partition(":")
            kw = {k: json.loads(v) for k, _, v in (item.partition("=") for item in rest.split(","))}
            from koikoi.ai.players import _levels
            hard = _levels()[level](seed=m, **kw)
        else:
            hard = make_player(spec, seed=m)
        while not state.is_over:
            seat = state.to_move
            legal = legal_actions(state)
            seen = view(state, seat)
            if seat == 0 and len(legal) > 1 and not isinstance(legal[0], PickOyagime):
                t = time.thread_time()
                hard.choose(seen, legal)
                times.append(time.thread_time() - t)
            state = apply(state, medium[seat].choose(seen, legal))
    return times


def pct(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="*", type=Path, help="project checkouts (default: this one)")
    ap.add_argument("--preset", default="nintendo")
    ap.add_argument("--matches", type=int, default=4)
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--spec", default="hard", help='the player timed (default "hard", as the game makes it)')
    ap.add_argument("--here", type=Path, default=None, help=argparse.SUPPRESS)   # one run of that tree
    args = ap.parse_args(argv)
    if args.here:
        sys.path.insert(0, str(args.here))
        times = measure(args.preset, args.matches, args.months, args.spec)
        print(f"{args.here}: {args.spec} on {args.preset}, {len(times)} decisions: CPU p50 "
              f"{pct(times, 0.5) * 1000:.0f} ms, p95 {pct(times, 0.95) * 1000:.0f} ms, "
              f"max {max(times) * 1000:.0f} ms", flush=True)
        return 0
    trees = args.trees or [ROOT]
    for _ in range(args.runs):
        for tree in trees:
            tree = tree.resolve()
            cmd = [sys.executable, str(Path(__file__).resolve()), "--here", str(tree), "--preset", args.preset,
                   "--matches", str(args.matches), "--months", str(args.months), "--spec", args.spec]
            subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=str(tree)), check=True, cwd=str(tree))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
