"""Fit the match win-probability table that Hard maximises.

    python tools/fit_winprob.py [--matches 20000] [--presets nintendo casual ...] [--jobs 2]

Plays whole matches (12 months, total scoring) in the AI's simulator with the
playout policy on both sides (calling Koi-Koi with a hand of 3+ cards and at
most 6 points, about as often as the CPU levels do), records at the start of every round the lead of
seat 0, the rounds left (this one included) and whether seat 0 deals, and
the match result for seat 0 (win 1, draw 1/2, loss 0). For every number of
rounds left m = 1..12 it fits P(win) = 1 / (1 + exp(-(a_m * lead + b_m * d)))
with d = +1 when dealing and -1 otherwise (both seats' records, so the fit is
symmetric), and writes koikoi/ai/data/winprob.json: the parameters per preset
and a table over (lead -60..60, rounds left, dealer) for inspection.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from koikoi.ai.knowledge import Knowledge  # noqa: E402
from koikoi.ai.playout import Policy, selfplay_round  # noqa: E402
from koikoi.engine import RULESETS  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "koikoi" / "ai" / "data" / "winprob.json"
MONTHS = 12
KOIKOI_HAND, KOIKOI_MAX = 3, 6


def _matches(job):
    preset, seed, n = job
    rules = RULESETS[preset]
    # Koi-Koi is called as readily as the CPU levels do (hand of 3+, up to 6 points), so the
    # spread of the scores, which sets how safe a lead is, is that of real play.
    pol = Policy(Knowledge(rules), kk="simple", koikoi_hand=KOIKOI_HAND, koikoi_max=KOIKOI_MAX)
    rng = random.Random(seed)
    rows = []   # (lead for seat 0, rounds left incl. this one, seat 0 deals, result for seat 0)
    for _ in range(n):
        scores = [0, 0]
        dealer = rng.getrandbits(1)
        recs = []
        for rnd in range(MONTHS):
            recs.append((scores[0] - scores[1], MONTHS - rnd, 1 if dealer == 0 else -1))
            r = selfplay_round(pol, rules, rng, dealer)
            if r.winner is not None:
                scores[r.winner] += r.points
                dealer = r.winner
            else:
                mode = rules.exhausted_dealer
                if mode == "passes":
                    dealer = 1 - dealer
                elif mode == "last_yaku" and r.last_yaku_seat >= 0:
                    dealer = r.last_yaku_seat
        y = 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0
        rows.extend((lead, m, d, y) for lead, m, d in recs)
    return rows


def fit(rows) -> tuple:
    """Per rounds-left m: (a_m, b_m) by Newton's method on the symmetrised data."""
    data = np.array(rows, dtype=float)
    a_out, b_out, n_out = [], [], []
    for m in range(1, MONTHS + 1):
        sel = data[data[:, 1] == m]
        x = np.concatenate([sel[:, [0, 2]], -sel[:, [0, 2]]])
        y = np.concatenate([sel[:, 3], 1.0 - sel[:, 3]])
        w = np.zeros(2)
        for _ in range(50):
            z = x @ w
            p = 1.0 / (1.0 + np.exp(-z))
            g = x.T @ (y - p)
            h = (x * (p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(2)
            step = np.linalg.solve(h, g)
            w += step
            if np.abs(step).max() < 1e-9:
                break
        a_out.append(float(w[0]))
        b_out.append(float(w[1]))
        n_out.append(int(len(sel)))
    # Every match starts level, so the first round says nothing about the lead: extrapolate
    # (the spread of the final margin grows like the square root of the rounds left).
    a_out[-1] = a_out[-2] * math.sqrt((MONTHS - 1) / MONTHS)
    # The dealer's edge is small and noisy per m: one value for all.
    b = sum(bi * ni for bi, ni in zip(b_out, n_out)) / sum(n_out)
    return a_out, [b] * MONTHS, n_out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=12000, help="matches per preset")
    ap.add_argument("--presets", nargs="*", default=list(RULESETS))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=str(OUT))
    a = ap.parse_args(argv)
    out = {}
    if os.path.exists(a.out):
        with open(a.out) as fh:
            out = json.load(fh)
    out.setdefault("presets", {})
    out["model"] = ("P(win) = 1/(1+exp(-(a[m-1]*lead + b[m-1]*d))); lead = own - opponent points, "
                    "m = rounds left including the next one (1..12), d = +1 if dealing next, else -1")
    for preset in a.presets:
        t0 = time.time()
        per = max(1, a.matches // (a.jobs * 4))
        jobs = [(preset, 1000 + i, per) for i in range(a.jobs * 4)]
        with mp.get_context("fork").Pool(a.jobs) as pool:
            rows = [r for part in pool.map(_matches, jobs) for r in part]
        av, bv, nv = fit(rows)
        table = {}
        for m in range(1, MONTHS + 1):
            for d in (1, -1):
                table[f"{m},{'dealer' if d > 0 else 'other'}"] = [
                    round(1 / (1 + math.exp(-(av[m - 1] * lead + bv[m - 1] * d))), 4)
                    for lead in range(-60, 61, 5)]
        out["presets"][preset] = {"matches": per * len(jobs), "a": av, "b": bv, "records": nv,
                                  "table_leads": list(range(-60, 61, 5)), "table": table}
        print(f"{preset:12s} {per * len(jobs)} matches in {time.time() - t0:.0f} s; "
              f"a(12)={av[11]:.4f} a(1)={av[0]:.4f} b(12)={bv[11]:.3f} b(1)={bv[0]:.3f}", flush=True)
        os.makedirs(os.path.dirname(a.out), exist_ok=True)
        with open(a.out, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
