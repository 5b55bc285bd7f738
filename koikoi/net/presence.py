"""Who is at a room's seats, and when the other player may claim the match: driven by an
explicit ``now`` (Unix seconds), so the room service is tested without a clock.

    presence = Presence(claim_after=120.0)
    presence.set(room, 1, "dropped", now)       # the seat's state changes (and is timed)
    presence.message(room, 1, now)              # its ``presence`` frame
    presence.due(now)                            # [(room, seat)]: claims possible from now on
    presence.next_due()                          # when the next one is (None: none)

A seat is "empty", "connected", "dropped" (its connection went; the other may claim
once it has been gone ``claim_after`` seconds) or "left" (it said ``leave``: claimable
at once). Each change is a ``presence`` frame to the room, and another when a claim
becomes possible (``due``).
"""

from __future__ import annotations

import heapq
import itertools
from typing import Optional


class Presence:
    def __init__(self, claim_after: float):
        self.claim_after = claim_after
        self._heap: list = []                   # (due, n, room, seat, since): dropped seats
        self._n = itertools.count()

    def set(self, room, seat: int, state: str, now: float) -> None:
        s = room.seats[seat]
        s.presence, s.since = state, now
        self.watch(room, seat)

    def watch(self, room, seat: int) -> None:
        """Time ``seat``'s claim if it is dropped from a playing room (a resumed room too)."""
        s = room.seats[seat]
        if room.status == "playing" and s.presence == "dropped":
            heapq.heappush(self._heap, (s.since + self.claim_after, next(self._n), room, seat, s.since))

    def claim_in(self, room, seat: int, now: float) -> Optional[float]:
        """Seconds until ``seat``'s absence may be claimed (0: now), None if it may not."""
        s = room.seats[seat]
        if room.status != "playing":
            return None
        if s.presence == "left":
            return 0.0
        if s.presence == "dropped":
            return max(0.0, round(s.since + self.claim_after - now, 3))
        return None

    def message(self, room, seat: int, now: float) -> dict:
        s = room.seats[seat]
        return {"type": "presence", "seat": seat, "name": s.name, "state": s.presence,
                "since": round(s.since, 3), "gone": round(max(0.0, now - s.since), 3)
                if s.presence in ("dropped", "left") else 0.0, "claim_in": self.claim_in(room, seat, now)}

    def due(self, now: float) -> list:
        """The (room, seat) whose claim became possible by ``now`` (each once)."""
        out = []
        heap = self._heap
        while heap and heap[0][0] <= now:
            _due, _n, room, seat, since = heapq.heappop(heap)
            s = room.seats[seat]
            if room.status == "playing" and s.presence == "dropped" and s.since == since:
                out.append((room, seat))
        return out

    def next_due(self) -> Optional[float]:
        heap = self._heap
        while heap:
            _due, _n, room, seat, since = heap[0]
            s = room.seats[seat]
            if room.status == "playing" and s.presence == "dropped" and s.since == since:
                return heap[0][0]
            heapq.heappop(heap)
        return None


__all__ = ["Presence"]
