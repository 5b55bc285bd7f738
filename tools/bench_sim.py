"""The simulator's speed, old tree against new in the same run: random full rounds per CPU-second.

    python tools/bench_sim.py TREE [TREE ...] [--rounds 20000] [--runs 5] [--preset nintendo]
                              [--playouts] [--callgrind N]
    python tools/bench_sim.py TREE [TREE ...] --hard [--sims 700] [--matches 6] [--months 3]
                              [--runs 3] [--callgrind N]

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

``--hard`` times Hard's decisions instead: this tree's Hard (``--sims`` playouts, no clock)
plays ``--matches`` seeded matches of ``--months`` against Medium on each of Nintendo and
Battle Hanafuda, and every tree then replays the same moves (as indices into the legal
actions, so any engine with the same order of legal actions replays them) and decides each of
Hard's positions with its own Hard, one player a match as in play. Each run prints the CPU
time per decision (median and p95, ``time.process_time``) and a hash of the actions its Hard
chose: equal hashes, equal decisions. With ``--callgrind N``, the instructions of the first N
decisions (less a run that only replays), over N.
"""

from __future__ import annotations

import argparse
import json
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


_HARD_CHILD = r"""
import hashlib, json, sys, time
from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
from koikoi.ai.hard import HardPlayer
games = json.load(open(sys.argv[1]))
sims, most = int(sys.argv[2]), int(sys.argv[3])
h = hashlib.sha256()
cpu = []
for g in games:
    s = new_match(RULESETS[g["preset"]], seed=g["seed"], months=g["months"])
    me = g["hard"]
    hard = HardPlayer(seed=g["seed"], simulations=sims)
    for i in g["steps"]:
        legal = legal_actions(s)
        if s.to_move == me and len(legal) > 1 and len(cpu) < most:
            v = view(s, me)
            t0 = time.process_time()
            a = hard.choose(v, legal)
            cpu.append(time.process_time() - t0)
            h.update(repr(a).encode())
        s = apply(s, legal[i])
print(json.dumps({"hash": h.hexdigest()[:16], "cpu": cpu}))
"""


def _run(tree: str, args: list, prefix: list = (), child: str = _CHILD) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()), PYTHONHASHSEED="0")
    return subprocess.run([*prefix, sys.executable, "-c", child, *map(str, args)], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=3600, check=True)


def hard_games(sims: int, matches: int, months: int) -> list:
    """The seeded matches of ``--hard``, played by this tree's Hard (``sims`` playouts) against
    Medium: per match its preset, seed, months, Hard's seat and every move as an index into
    the legal actions."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from koikoi.ai.hard import HardPlayer
    from koikoi.ai.medium import MediumPlayer
    from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
    games = []
    for preset in ("nintendo", "battle-hanafuda"):
        for seed in range(matches):
            s = new_match(RULESETS[preset], seed=seed, months=months)
            me = seed & 1
            players = {me: HardPlayer(seed=seed, simulations=sims), 1 - me: MediumPlayer(seed=seed)}
            steps = []
            while not s.is_over:
                legal = legal_actions(s)
                a = players[s.to_move].choose(view(s, s.to_move), legal)
                steps.append(legal.index(a))
                s = apply(s, a)
            games.append({"preset": preset, "seed": seed, "months": months, "hard": me,
                          "steps": steps})
    return games


def _pct(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def hard(trees: list, sims: int, matches: int, months: int, runs: int, callgrind) -> int:
    """``--hard``: Hard's decisions on the same positions in every tree (see the docstring)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "games.json")
        with open(path, "w") as fh:
            json.dump(hard_games(sims, matches, months), fh)
        if callgrind:
            print(f"Hard's decisions at {sims} playouts: instructions a decision (callgrind, "
                  f"first {callgrind})")
            base = None
            for t in trees:
                total = []
                for n in (0, callgrind):
                    out = os.path.join(d, f"cg.{n}")
                    p = _run(t, [path, sims, n], ["valgrind", "--tool=callgrind",
                                                  f"--callgrind-out-file={out}"], _HARD_CHILD)
                    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
                    if not m:
                        raise RuntimeError(f"no instruction count from callgrind:\n{p.stderr[-2000:]}")
                    total.append(int(m.group(1)))
                got = json.loads(p.stdout)
                ir = (total[1] - total[0]) / callgrind
                base = base or ir
                print(f"  {t:40s} {ir:14,.0f}   x{base / ir:.3f}   actions {got['hash']}")
            return 0
        res: dict = {t: [] for t in trees}
        for i in range(runs):
            for t in trees:
                got = json.loads(_run(t, [path, sims, 1 << 30], child=_HARD_CHILD).stdout)
                res[t].append(got)
                print(f"  run {i + 1}/{runs} {t}: p50 {statistics.median(got['cpu']) * 1e3:.1f} ms"
                      f" p95 {_pct(got['cpu'], 0.95) * 1e3:.1f} ms", file=sys.stderr)
        n = len(res[trees[0]][0]["cpu"])
        print(f"Hard's decisions at {sims} playouts, {n} positions ({matches} seeded {months}-month "
              f"matches a preset against Medium), CPU ms a decision, median of {runs} alternated runs")
        for t in trees:
            p50 = statistics.median(statistics.median(g["cpu"]) for g in res[t]) * 1e3
            p95 = statistics.median(_pct(g["cpu"], 0.95) for g in res[t]) * 1e3
            tot = statistics.median(sum(g["cpu"]) for g in res[t])
            hashes = sorted({g["hash"] for g in res[t]})
            print(f"  {t:40s} p50 {p50:6.1f}  p95 {p95:6.1f}  total {tot:6.2f} s   actions {', '.join(hashes)}")
    return 0


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
                    help="count instructions of N rounds (or decisions) instead of timing")
    ap.add_argument("--hard", action="store_true", help="Hard's decisions on seeded positions")
    ap.add_argument("--sims", type=int, default=700, help="--hard: Hard's playouts a decision")
    ap.add_argument("--matches", type=int, default=6, help="--hard: seeded matches a preset")
    ap.add_argument("--months", type=int, default=3, help="--hard: months a match")
    a = ap.parse_args(argv)
    if a.hard:
        return hard(a.trees, a.sims, a.matches, a.months, a.runs, a.callgrind)
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
