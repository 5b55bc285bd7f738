"""Easy: grabs the most valuable capture it sees, now and then plays at random,
and calls Koi-Koi far too readily. Beatable, but not silly."""

from __future__ import annotations

import random
from typing import Sequence

from ..engine.actions import KoiKoi, Stop
from ..engine.cards import CARD_MONTH_MASK, ID_TO_INDEX
from .base import KnowledgeCache, find, kind, play_key
from .sim import bits


class EasyPlayer:
    level = "easy"

    def __init__(self, seed: int = 0, always_stop: bool = False, randomness: float = 0.2):
        self._always_stop = always_stop
        self._randomness = randomness
        self._rng = random.Random(seed)
        self._kc = KnowledgeCache()

    def choose(self, view, legal: Sequence):
        rng = self._rng
        k = kind(legal)
        if k == "oyagime" or len(legal) == 1:
            return legal[rng.randrange(len(legal))]
        know = self._kc.get(view.rules)
        value = know.value
        if k == "decide":
            total = view.award(view.seat).total
            cards_left = len(view.hand)
            if not self._always_stop and cards_left >= 2 and total < 8 and rng.random() < 0.7:
                return find(legal, KoiKoi)
            return find(legal, Stop)
        if rng.random() < self._randomness:
            return legal[rng.randrange(len(legal))]
        field = view.field_mask
        best, best_score = legal[0], -1e9
        for a in legal:
            if k == "choose":
                score = value[ID_TO_INDEX[a.target]]
            else:
                c, t = play_key(a)
                m = field & CARD_MONTH_MASK[c]
                if not m:
                    score = -0.3 * value[c]
                else:
                    taken = (1 << t) if t >= 0 else m
                    score = value[c] + sum(value[x] for x in bits(taken))
            score += rng.gauss(0.0, 0.6)
            if score > best_score:
                best, best_score = a, score
        return best
