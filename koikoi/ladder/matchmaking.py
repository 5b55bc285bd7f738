"""Who plays whom: a pure pairing policy over the waiting queue (no I/O, no clock).

Players pair only with the same preset and match length. The window of rating
difference a waiting player accepts widens with the time waited; a pair is allowed
when the difference fits the wider window of the two. Whoever has waited longest
is served first, with the nearest rating within reach."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

BASE_WINDOW = 100.0        # rating points accepted at once
WIDEN_PER_SECOND = 10.0    # added for every second waited
MAX_WINDOW = 700.0         # reached after 60 s: beyond it anyone of the same choice


@dataclass(frozen=True)
class Waiter:
    key: str               # the player's key hash (the store's id)
    preset: str
    length: int            # rounds of the match
    rating: float
    since: float           # when the player joined the queue (seconds, any clock)


def window(waited: float) -> float:
    """Rating difference accepted after `waited` seconds."""
    w = BASE_WINDOW + WIDEN_PER_SECOND * max(0.0, waited)
    return float("inf") if w >= MAX_WINDOW else w


def can_pair(a: Waiter, b: Waiter, now: float) -> bool:
    if a.key == b.key or a.preset != b.preset or a.length != b.length:
        return False
    reach = max(window(now - a.since), window(now - b.since))
    return abs(a.rating - b.rating) <= reach


def pair(waiting: Iterable[Waiter], now: float) -> list[tuple[Waiter, Waiter]]:
    """Disjoint pairs to make now, the longest-waiting player first in each."""
    order = sorted(waiting, key=lambda w: (w.since, w.key))
    groups: dict[tuple[str, int], list[Waiter]] = {}
    for w in order:
        groups.setdefault((w.preset, w.length), []).append(w)
    pairs = []
    for group in groups.values():
        taken: set[str] = set()
        for a in group:
            if a.key in taken:
                continue
            best = None
            for b in group:
                if b.key in taken or not can_pair(a, b, now):
                    continue
                gap = abs(a.rating - b.rating)
                if best is None or gap < best[0]:
                    best = (gap, b)
            if best is not None:
                taken.update((a.key, best[1].key))
                pairs.append((a, best[1]))
    pairs.sort(key=lambda p: (p[0].since, p[0].key))
    return pairs
