"""The match win probability that Hard maximises, and a finished round scored by it.

``WinProb``: P(win the match) from the lead, the rounds left and who deals next
(the logistic table fitted by tools/fit_winprob.py, shipped as
koikoi/ai/data/winprob.json). ``Outcome``: what a finished round (its winner and
points) is worth to the deciding seat of one View: the match scores after it,
the next dealer by the rules, then the win chance (exact when the match is over),
with a small pull towards points so that a decided match is still played well.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Optional

from ..engine.scoring import next_dealer, paid

POINTS_TIEBREAK = 0.002   # match win probability per point of the round, added to the goal
_DATA = Path(__file__).resolve().parent / "data" / "winprob.json"


def load_winprob() -> dict:
    try:
        with open(_DATA) as fh:
            return json.load(fh).get("presets", {})
    except (OSError, ValueError):
        return {}


class WinProb:
    """P(win the match) from the lead, rounds left and who deals next."""

    def __init__(self, rules, table: dict):
        p = table.get(rules.name) or table.get("nintendo")
        if p:
            self.a = list(p["a"])
            self.b = list(p["b"])
        else:   # no data shipped: a plain guess of the same shape
            self.a = [0.25 / math.sqrt(m) for m in range(1, 13)]
            self.b = [0.05] * 12
        # Rule sets with bigger awards than their preset (house rules) spread the scores more:
        # the fitted scale is kept; an error there only shifts how bold Hard plays.

    def __call__(self, lead: float, left: Optional[int], dealer: bool) -> float:
        if left is not None and left <= 0:
            return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        m = 6 if left is None else left
        if m <= 12:
            a, b = self.a[m - 1], self.b[m - 1]
        else:
            a, b = self.a[11] * math.sqrt(12 / m), self.b[11]
        z = a * lead + (b if dealer else -b)
        if z > 40:
            return 1.0
        if z < -40:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))


class Outcome:
    """Scores a finished round for the deciding seat, with a cache per decision."""

    def __init__(self, view, wp: WinProb):
        rules = view.rules
        self.me = view.seat
        self.rules = rules
        self.scores = view.scores
        self.left = None if view.months is None else max(0, view.months - view.round)
        self.dealer = view.dealer
        self.wp = wp
        self.cache = {}

    def value(self, winner, points: int, last_yaku_seat: int = -1) -> float:
        key = (winner, points, last_yaku_seat)
        v = self.cache.get(key)
        if v is None:
            v = self.cache[key] = self._value(winner, points, last_yaku_seat)
        return v

    def _value(self, winner, points, last_yaku_seat) -> float:
        scores, lead, dealer = self._after(winner, points, last_yaku_seat)
        me = self.me
        # A small pull towards points, so that a decided match is still played well.
        gained = (lead - (self.scores[me] - self.scores[1 - me])) * POINTS_TIEBREAK
        return gained + self._wp_of(scores, lead, dealer)

    def _after(self, winner, points, last_yaku_seat) -> tuple:
        """(the match scores after the round, the deciding seat's lead, the next dealer)."""
        rules = self.rules
        me = self.me
        scores = self.scores
        if winner is None and rules.oya_ken:
            winner, points = self.dealer, rules.oya_ken
        if winner is not None:
            scores = paid(scores, winner, points, rules)
        dealer = next_dealer(rules, self.dealer, winner, winner is None, last_yaku_seat)
        return scores, scores[me] - scores[1 - me], dealer

    def points_and_win(self, winner, points: int, last_yaku_seat: int = -1) -> tuple:
        """(the round's point difference for the deciding seat: its award, the opponent's
        negated, 0 for no game; the chance of winning the match after the round, without
        ``value``'s pull towards points). Cached like ``value``."""
        key = (winner, points, last_yaku_seat, "pw")
        v = self.cache.get(key)
        if v is None:
            rules = self.rules
            w, p = winner, points
            if w is None and rules.oya_ken:
                w, p = self.dealer, rules.oya_ken
            diff = 0 if w is None else p if w == self.me else -p
            scores, lead, dealer = self._after(winner, points, last_yaku_seat)
            v = self.cache[key] = (float(diff), self._wp_of(scores, lead, dealer))
        return v

    def _wp_of(self, scores, lead, dealer) -> float:
        rules = self.rules
        me = self.me
        over = ((self.left is not None and self.left <= 0)
                or (rules.target_points is not None and max(scores) >= rules.target_points)
                or (rules.scoring_mode == "zero_sum" and min(scores) <= 0))
        if over:
            return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        left = self.left
        if left is None and rules.target_points is not None:
            # Play to a target: the rounds still needed, roughly 4 points a round.
            left = max(1, int((rules.target_points - max(scores)) / 4))
        return self.wp(lead, left, dealer == me)


_TABLE: list = []    # the shipped win-probability table, read once (never changed after)


def shipped_table() -> dict:
    if not _TABLE:
        _TABLE.append(load_winprob())
    return _TABLE[0]
