"""CPU arena: level A against level B over paired deals.

    python tools/arena.py medium easy --preset nintendo --months 12 --pairs 200
    python tools/arena.py hard medium --pairs 100 --hard-sims 150 --log runs/hm.jsonl --json out.json
    python tools/arena.py --bench-sim

Every seed is played twice with the seats swapped (a "pair"), so both sides
get the same deals. Matches run on ``--jobs`` processes (default: all cores).
Prints mean points per round of A minus B with a bootstrap 95% CI (over
pairs), A's match win rate (draws count half) with a Wilson 95% interval,
Koi-Koi call and success rates per side, and decision time p50/p95 per side.

``--log FILE`` appends one JSON line per finished match and skips matches
already in it, so an interrupted run resumes where it stopped and a long
ladder can be built up over several sessions. ``--json FILE`` writes the
summary.

A level may carry keyword arguments for experiments: ``"medium:feed_w=0.5"``; an old
Hard too, its own budget with no wall-clock ceiling: ``"hard@905da7d:simulations=600"``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import multiprocessing as mp
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from koikoi.engine import RULESETS, apply, legal_actions, new_match, view  # noqa: E402
from koikoi.engine.actions import KoiKoi  # noqa: E402
# Load every level before the worker processes fork (edits made during a run do not leak in).
from koikoi.ai import make_player, playout as _playout  # noqa: E402
from koikoi.ai.players import _levels  # noqa: E402

_levels()


_OLD_HARD: dict = {}


class _GitPackage:
    """Serves ``koikoi._ai_<rev>.<name>`` from ``git show <rev>:koikoi/ai/<name>.py``: the
    CPU levels as they were at a revision, with their own playout policy, knowledge and
    simulator, on today's engine (``from ..engine`` still reaches koikoi.engine)."""

    def __init__(self, rev: str, root: Path):
        self.rev = rev
        self.root = root
        self.prefix = "koikoi._ai_" + "".join(ch for ch in rev if ch.isalnum())

    def _source(self, rel: str):
        out = subprocess.run(["git", "-C", str(self.root), "show", f"{self.rev}:{rel}"],
                             capture_output=True, text=True)
        return out.stdout if out.returncode == 0 else None

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.prefix and not fullname.startswith(self.prefix + "."):
            return None
        sub = fullname[len(self.prefix) + 1:].replace(".", "/")
        rel = f"koikoi/ai/{sub}.py" if sub else "koikoi/ai/__init__.py"
        if self._source(rel) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=f"{self.rev}:{rel}",
                                               is_package=not sub)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        rel = module.__spec__.origin.partition(":")[2]
        if rel.endswith("__init__.py"):
            # The package itself: an empty shell (the real __init__ pulls in every level).
            module.__path__ = []
            return
        module.__file__ = str(self.root / rel)      # data/ (the win table) is today's
        exec(compile(self._source(rel), module.__spec__.origin, "exec"), module.__dict__)


def hard_at(rev: str):
    """Hard as it was at git revision ``rev``: its hard.py with the playout policy, knowledge,
    Medium and simulator of that revision (read with ``git show``, loaded as the package
    ``koikoi._ai_<rev>``), on today's engine: the baseline of a paired "new Hard against old
    Hard" run, ``arena.py hard hard@a216113``."""
    cls = _OLD_HARD.get(rev)
    if cls is None:
        finder = _GitPackage(rev, Path(__file__).resolve().parents[1])
        if not any(isinstance(f, _GitPackage) and f.prefix == finder.prefix
                   for f in sys.meta_path):
            sys.meta_path.insert(0, finder)
        cls = _OLD_HARD[rev] = importlib.import_module(finder.prefix + ".hard").HardPlayer
    return cls


def _kwargs(rest: str) -> dict:
    """``"a=1,b=0.5"`` (JSON values) as keyword arguments."""
    kw = {}
    for item in rest.split(","):
        k, _, v = item.partition("=")
        kw[k] = json.loads(v)
    return kw


def make(spec: str, seed: int, sims, think):
    if spec.startswith("hard@"):
        # ``hard@REV:simulations=600``: its own budget overrides the run's, as for "hard:"
        rev, _, rest = spec[5:].partition(":")
        kw = _kwargs(rest) if rest else {}
        return hard_at(rev)(seed=seed, **{"think_time": think, "simulations": sims, **kw})
    if spec.split(":")[0] == "greedy":     # the playout policy, for experiments
        kw = _kwargs(spec.partition(":")[2]) if ":" in spec else {}
        return _playout.GreedyPlayer(seed=seed, **kw)
    if ":" not in spec:
        return make_player(spec, seed=seed, think_time=think, simulations=sims)
    level, _, rest = spec.partition(":")
    kw = _kwargs(rest)
    cls = _levels()[level]
    if level == "hard":     # its own ``simulations=`` or ``think_time=`` overrides the run's
        return cls(seed=seed, **{"think_time": think, "simulations": sims, **kw})
    return cls(seed=seed, **kw)


def play_match(job):
    """One match. job = (a, b, preset, months, seed, swap, sims, think)."""
    a, b, preset, months, seed, swap, sims, think = job
    rules = RULESETS[preset]
    specs = (b, a) if swap else (a, b)
    players = [make(specs[0], seed * 2 + 1, sims, think), make(specs[1], seed * 2 + 2, sims, think)]
    s = new_match(rules, seed=seed, months=months)
    times = ([], [])
    calls = [0, 0]
    while not s.is_over:
        seat = s.to_move
        legal = legal_actions(s)
        t0 = time.perf_counter()
        act = players[seat].choose(view(s, seat), legal)
        dt = time.perf_counter() - t0
        if act not in legal:
            raise RuntimeError(f"{specs[seat]} chose an illegal action {act!r}")
        if len(legal) > 1:
            times[seat].append(dt)
        if isinstance(act, KoiKoi):
            calls[seat] += 1
        s = apply(s, act)
    # Per side (A first): rounds with a call, and of those the rounds it won.
    ia, ib = (1, 0) if swap else (0, 1)
    called = [0, 0]
    won_after = [0, 0]
    for row in s.ledger:
        for side, seat in ((0, ia), (1, ib)):
            if row.calls[seat]:
                called[side] += 1
                won_after[side] += row.winner == seat
    return {
        "seed": seed, "swap": swap, "rounds": len(s.ledger),
        "score_a": s.scores[ia], "score_b": s.scores[ib],
        "calls_a": calls[ia], "calls_b": calls[ib],
        "called_rounds": called, "called_won": won_after,
        "wins_rounds": [sum(r.winner == ia for r in s.ledger), sum(r.winner == ib for r in s.ledger)],
        "times_a": [round(x, 5) for x in times[ia]], "times_b": [round(x, 5) for x in times[ib]],
    }


def wilson(k: float, n: int, z: float = 1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def summarize(a: str, b: str, results: list, preset: str, months: int) -> dict:
    pairs = {}
    for r in results:
        pairs.setdefault(r["seed"], []).append(r)
    per_pair = []
    for seed, rs in pairs.items():
        rounds = sum(r["rounds"] for r in rs)
        per_pair.append((sum(r["score_a"] - r["score_b"] for r in rs), rounds))
    tot_rounds = sum(n for _, n in per_pair)
    mean = sum(d for d, _ in per_pair) / max(1, tot_rounds)
    rng = random.Random(0)
    boots = []
    if per_pair:
        for _ in range(2000):
            smp = [per_pair[rng.randrange(len(per_pair))] for _ in per_pair]
            boots.append(sum(d for d, _ in smp) / max(1, sum(n for _, n in smp)))
    boots.sort()
    lo, hi = (boots[int(0.025 * len(boots))], boots[int(0.975 * len(boots)) - 1]) if boots else (0, 0)
    n = len(results)
    wins = sum(1.0 if r["score_a"] > r["score_b"] else 0.5 if r["score_a"] == r["score_b"] else 0.0
               for r in results)
    draws = sum(r["score_a"] == r["score_b"] for r in results)
    wl = wilson(wins, n)
    rounds = sum(r["rounds"] for r in results)
    ta = [t for r in results for t in r["times_a"]]
    tb = [t for r in results for t in r["times_b"]]

    def side(i, key_calls):
        calls = sum(r[key_calls] for r in results)
        called = sum(r["called_rounds"][i] for r in results)
        won = sum(r["called_won"][i] for r in results)
        return {"calls": calls, "calls_per_round": calls / max(1, rounds),
                "rounds_with_call": called, "success_rate": won / called if called else None,
                "round_win_rate": sum(r["wins_rounds"][i] for r in results) / max(1, rounds)}

    return {
        "a": a, "b": b, "preset": preset, "months": months, "matches": n, "pairs": len(pairs),
        "rounds": rounds,
        "points_per_round_a_minus_b": mean, "ci95": [lo, hi],
        "match_win_rate_a": wins / max(1, n), "wilson95": list(wl), "draws": draws,
        "koikoi": {"a": side(0, "calls_a"), "b": side(1, "calls_b")},
        "decision_ms": {
            "a": {"p50": pct(ta, 0.5) * 1000, "p95": pct(ta, 0.95) * 1000, "max": max(ta, default=0) * 1000, "n": len(ta)},
            "b": {"p50": pct(tb, 0.5) * 1000, "p95": pct(tb, 0.95) * 1000, "max": max(tb, default=0) * 1000, "n": len(tb)},
        },
    }


def show(s: dict) -> None:
    print(f"{s['a']} vs {s['b']} — {s['preset']}, {s['months']} months, {s['matches']} matches "
          f"({s['pairs']} paired deals), {s['rounds']} rounds")
    lo, hi = s["ci95"]
    print(f"  points/round A−B: {s['points_per_round_a_minus_b']:+.3f}  (95% CI {lo:+.3f} .. {hi:+.3f})")
    wl = s["wilson95"]
    print(f"  match win rate A: {s['match_win_rate_a']:.3f}  (Wilson 95% {wl[0]:.3f} .. {wl[1]:.3f}; "
          f"{s['draws']} draws count half)")
    for k, name in (("a", s["a"]), ("b", s["b"])):
        kk = s["koikoi"][k]
        sr = "—" if kk["success_rate"] is None else f"{kk['success_rate']:.2f}"
        d = s["decision_ms"][k]
        print(f"  {k.upper()} {name:>10s}: Koi-Koi {kk['calls_per_round']:.3f}/round, success {sr} "
              f"({kk['rounds_with_call']} rounds); rounds won {kk['round_win_rate']:.3f}; "
              f"decision p50 {d['p50']:.1f} ms, p95 {d['p95']:.1f} ms, max {d['max']:.0f} ms")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="CPU arena over paired deals")
    ap.add_argument("a", nargs="?")
    ap.add_argument("b", nargs="?")
    ap.add_argument("--preset", default="nintendo", choices=sorted(RULESETS))
    ap.add_argument("--months", type=int, default=None,
                    help="rounds per match (default: the preset's own length, or 12)")
    ap.add_argument("--pairs", type=int, default=100, help="paired deals (matches = 2 x pairs)")
    ap.add_argument("--first-seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--hard-sims", type=int, default=None, help="Hard: fixed simulations per decision")
    ap.add_argument("--think-time", type=float, default=None, help="Hard: seconds per decision")
    ap.add_argument("--log", help="JSON lines of finished matches: appended to, and resumed from")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--bench-sim", action="store_true", help="the simulator's random full rounds per second")
    a = ap.parse_args(argv)
    if a.bench_sim:
        from koikoi.ai.sim import main as sim_main
        sim_main(["--bench"])
        return 0
    if not (a.a and a.b):
        ap.error("name two levels, e.g. medium easy")
    if a.months is None:
        a.months = RULESETS[a.preset].months or 12
    done = {}
    if a.log and os.path.exists(a.log):
        with open(a.log) as fh:
            for line in fh:
                line = line.strip()
                if line:
                    r = json.loads(line)
                    if r.get("a") == a.a and r.get("b") == a.b and r.get("preset") == a.preset \
                            and r.get("months") == a.months:
                        done[(r["seed"], r["swap"])] = r
    jobs = [(a.a, a.b, a.preset, a.months, seed, swap, a.hard_sims, a.think_time)
            for seed in range(a.first_seed, a.first_seed + a.pairs) for swap in (0, 1)
            if (seed, swap) not in done]
    results = [r for (seed, _), r in done.items() if a.first_seed <= seed < a.first_seed + a.pairs]
    log = open(a.log, "a") if a.log else None
    t0 = time.time()
    try:
        if a.jobs > 1 and len(jobs) > 1:
            with mp.get_context("fork").Pool(a.jobs) as pool:
                for i, r in enumerate(pool.imap_unordered(play_match, jobs, chunksize=1)):
                    _record(r, a, results, log, i, len(jobs), t0)
        else:
            for i, job in enumerate(jobs):
                _record(play_match(job), a, results, log, i, len(jobs), t0)
    finally:
        if log:
            log.close()
    s = summarize(a.a, a.b, results, a.preset, a.months)
    s["hard_sims"] = a.hard_sims
    s["think_time"] = a.think_time
    s["first_seed"] = a.first_seed
    show(s)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(s, fh, indent=2)
    return 0


def _record(r, a, results, log, i, n, t0):
    r.update(a=a.a, b=a.b, preset=a.preset, months=a.months)
    results.append(r)
    if log:
        log.write(json.dumps(r) + "\n")
        log.flush()
    if (i + 1) % 20 == 0 or i + 1 == n:
        print(f"  ... {i + 1}/{n} matches, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
