"""How long the match review takes: 12-round matches (Medium against Easy) analysed in the
background process, as the game runs it.

    python tools/bench_review.py                 # 3 seeds, the default budget, seat 0
    python tools/bench_review.py --budget 200 --seeds 1 2 3 4 --seats both
    python tools/bench_review.py --in-process    # analyse_match here, no process

Prints per seed: the decisions analysed, the wall time (from ``ReviewJob.start`` to the
result, with the process's start-up), seconds per decision, the verdicts found, and the
longest ``poll()`` (what the job costs a frame of the game, the result's decoding and the
cache's write included).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from koikoi.ai import make_player  # noqa: E402
from koikoi.engine import RULESETS, apply, events_to_json, legal_actions, new_match, view  # noqa: E402
from koikoi.review import DEFAULT_BUDGET, ReviewJob, analyse_match  # noqa: E402


def play(seed: int, preset: str, months: int):
    s = new_match(RULESETS[preset], seed=seed, months=months)
    players = [make_player("medium", seed=seed), make_player("easy", seed=seed + 1)]
    while not s.is_over:
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    return s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="deals per decision")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--preset", default="nintendo", choices=sorted(RULESETS))
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--seats", choices=("0", "1", "both"), default="0")
    ap.add_argument("--in-process", action="store_true", help="no background process")
    a = ap.parse_args(argv)
    seats = (0, 1) if a.seats == "both" else (int(a.seats),)
    total_t = total_n = 0
    print(f"budget {a.budget}, preset {a.preset}, {a.months} rounds, seats {seats}")
    for seed in a.seeds:
        s = play(seed, a.preset, a.months)
        t0 = time.perf_counter()
        if a.in_process:
            review = analyse_match(s.events, seats, match_id=f"bench{seed}", budget=a.budget)
        else:
            with tempfile.TemporaryDirectory() as folder:
                job = ReviewJob(events_to_json(s.events), seats, match_id=f"bench{seed}",
                                cache_dir=Path(folder), budget=a.budget)
                job.start()
                worst = 0.0
                while not job.done:
                    p0 = time.perf_counter()
                    job.poll()
                    worst = max(worst, time.perf_counter() - p0)
                    time.sleep(0.016)          # a frame
                print(f"seed {seed}: the longest poll() took {worst * 1000:.1f} ms of a frame")
                if job.error:
                    print(f"seed {seed}: {job.error}")
                    return 1
                review = job.result
        dt = time.perf_counter() - t0
        n = sum(len(r.decisions) for r in review.rounds)
        verdicts = {}
        for r in review.rounds:
            for d in r.decisions:
                verdicts[d.verdict] = verdicts.get(d.verdict, 0) + 1
        lost = sum(r.points_lost for r in review.rounds)
        print(f"seed {seed}: {n} decisions, {dt:.1f} s, {dt / max(1, n):.3f} s/decision, "
              f"{len(s.events)} events; verdicts {verdicts}; {lost:.1f} points lost")
        total_t += dt
        total_n += n
    print(f"all: {total_n} decisions, {total_t:.1f} s, {total_t / max(1, total_n):.3f} s/decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
