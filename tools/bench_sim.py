"""The simulator's speed, old tree against new in the same run: random full rounds per CPU-second.

    python tools/bench_sim.py TREE [TREE ...] [--rounds 20000] [--runs 5] [--preset nintendo]
                              [--playouts] [--callgrind N]

Each TREE is a checkout of the project (e.g. ``git archive 905da7d | tar -x -C /tmp/old``;
``.`` for this one). Every run is a fresh ``python`` process in that tree, importing that
tree's own ``koikoi.ai.sim``, so each tree runs its own code; the trees take turns
(A B C A B C ...) so that a busy machine slows them alike. A run plays ``--rounds`` rounds
of ``sim.random_round`` from one seed (after 2,000 unmeasured ones that fill the memos) and
counts this process's CPU time (``time.process_time``). The table gives each tree's median
rate, its spread (lowest..highest run) and the ratio of the medians to the first tree.

``--playouts`` times the playout policy's self-play rounds instead (``playout.selfplay_round``,
what Hard's look-ahead runs on the simulator): meaningful between trees whose ``playout.py``
is the same, so that only the simulator differs.

``--callgrind N`` counts the machine instructions instead (valgrind's callgrind, which a busy
machine does not disturb): each tree plays 0 and N rounds, and the difference over N is the
cost of one round. One run per tree; it takes about a minute per 10,000 rounds.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import random, sys, time
from koikoi.engine.rules import RULESETS
from koikoi.ai import sim
rules = RULESETS[sys.argv[1]]
n, warm, mode = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(20261202)
if mode == "playouts":
    from koikoi.ai.knowledge import Knowledge
    from koikoi.ai.playout import Policy, selfplay_round
    pol = Policy(Knowledge(rules, 1))
    def one(i):
        selfplay_round(pol, rules, rng, i & 1, 1)
else:
    rr = sim.random_round
    def one(i):
        rr(rules, rng)
for i in range(warm):
    one(i)
t0 = time.process_time()
for i in range(n):
    one(i)
print(time.process_time() - t0)
"""


def _run(tree: str, args: list, prefix: list = ()) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()), PYTHONHASHSEED="0")
    return subprocess.run([*prefix, sys.executable, "-c", _CHILD, *map(str, args)], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=3600, check=True)


def timed(trees: list, preset: str, rounds: int, runs: int, mode: str) -> dict:
    rates: dict = {t: [] for t in trees}
    for i in range(runs):
        for t in trees:
            cpu = float(_run(t, [preset, rounds, 2000, mode]).stdout.split()[-1])
            rates[t].append(rounds / cpu)
            print(f"  run {i + 1}/{runs} {t}: {rounds / cpu:,.0f} rounds/s", file=sys.stderr)
    return rates


def instructions(tree: str, preset: str, rounds: int, mode: str) -> int:
    """Instructions (callgrind's Ir) of playing ``rounds`` rounds after the warm-up."""
    with tempfile.TemporaryDirectory() as d:
        total = []
        for n in (0, rounds):
            out = os.path.join(d, f"cg.{n}")
            p = _run(tree, [preset, n, 2000, mode],
                     ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
            m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
            if not m:
                raise RuntimeError(f"no instruction count from callgrind:\n{p.stderr[-2000:]}")
            total.append(int(m.group(1)))
    return total[1] - total[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+", help="project checkouts; the first is the baseline")
    ap.add_argument("--preset", default="nintendo")
    ap.add_argument("--rounds", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--playouts", action="store_true", help="the playout policy's rounds")
    ap.add_argument("--callgrind", type=int, default=None, metavar="N",
                    help="count instructions of N rounds instead of timing")
    a = ap.parse_args(argv)
    mode = "playouts" if a.playouts else "random"
    what = "playout-policy rounds" if a.playouts else "random full rounds"
    if a.callgrind:
        ir = {t: instructions(t, a.preset, a.callgrind, mode) / a.callgrind for t in a.trees}
        print(f"{a.preset}: instructions per {what[:-1]} (callgrind, {a.callgrind} rounds)")
        for t in a.trees:
            print(f"  {t:40s} {ir[t]:12,.0f}   x{ir[a.trees[0]] / ir[t]:.3f}")
        return 0
    rates = timed(a.trees, a.preset, a.rounds, a.runs, mode)
    base = statistics.median(rates[a.trees[0]])
    print(f"{a.preset}: {what} per CPU-second, {a.runs} alternated runs of {a.rounds}")
    for t in a.trees:
        r = rates[t]
        med = statistics.median(r)
        print(f"  {t:40s} median {med:9,.0f}  ({min(r):,.0f}..{max(r):,.0f})   x{med / base:.3f}"
              f"  (per-run ratio {min(x / y for x, y in zip(r, rates[a.trees[0]])):.3f}.."
              f"{max(x / y for x, y in zip(r, rates[a.trees[0]])):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
