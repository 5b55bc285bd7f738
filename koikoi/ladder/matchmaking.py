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
        # scanned outward from a's rating, nearest first, up to the widest reach of
        # the group: the first b that can pair is the nearest one within reach
        reach = max(window(now - w.since) for w in group)
        by_rating = sorted(group, key=lambda w: (w.rating, w.since, w.key))
        place = {id(w): i for i, w in enumerate(by_rating)}
        taken: set[str] = set()
        for a in group:
            if a.key in taken:
                continue
            i = place[id(a)]
            lo, hi = i - 1, i + 1
            found = None
            while found is None:
                while lo >= 0 and by_rating[lo].key in taken:
                    lo -= 1
                while hi < len(by_rating) and by_rating[hi].key in taken:
                    hi += 1
                gap_lo = a.rating - by_rating[lo].rating if lo >= 0 else float("inf")
                gap_hi = by_rating[hi].rating - a.rating if hi < len(by_rating) else float("inf")
                if (lo < 0 and hi >= len(by_rating)) or min(gap_lo, gap_hi) > reach:
                    break
                if gap_lo <= gap_hi:
                    b, lo = by_rating[lo], lo - 1
                else:
                    b, hi = by_rating[hi], hi + 1
                if can_pair(a, b, now):
                    found = b
            if found is not None:
                taken.update((a.key, found.key))
                pairs.append((a, found))
    pairs.sort(key=lambda p: (p[0].since, p[0].key))
    return pairs
