"""A match being played on this screen: the engine state plus who sits where.

The scenes read ``session.state`` only through ``view(state, seat)`` and the
public events; they send actions through ``session.apply`` and never change a
rule. A CPU seat thinks on a worker thread (``start_cpu``/``poll_cpu``) so no
frame waits on it.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import asdict, dataclass
from typing import Callable, Optional

from ..ai import make_player
from ..engine import (IllegalAction, Rules, State, apply, events_from_json, events_to_json,
                      legal_actions, new_match, public_event, replay, view)

log = logging.getLogger("koikoi.session")


@dataclass(frozen=True)
class SeatConfig:
    kind: str                  # "human" or "cpu"
    name: str                  # shown on the table: "You", "CPU (Hard)", "Player 2"
    level: Optional[str] = None  # CPU level: random, easy, medium, hard


class MatchSession:
    def __init__(self, rules: Rules, *, seed: int, months: Optional[int] = None,
                 seats: tuple[SeatConfig, SeatConfig] = (SeatConfig("human", "You"),
                                                          SeatConfig("cpu", "CPU", "easy")),
                 state: Optional[State] = None,
                 on_change: Optional[Callable[["MatchSession"], None]] = None):
        for s in seats:
            if s.kind not in ("human", "cpu"):
                raise ValueError(f"seat kind must be human or cpu, not {s.kind!r}")
        self.seats = tuple(seats)
        self.state = state if state is not None else new_match(rules, seed=seed, months=months)
        self.on_change = on_change
        self._players = {
            i: make_player(s.level or "easy", seed=self.state.seed * 2 + i)
            for i, s in enumerate(self.seats) if s.kind == "cpu"
        }
        self._thinking: Optional[threading.Thread] = None
        self._cpu_result: Optional[tuple[int, object]] = None
        self._cpu_error: Optional[BaseException] = None

    # ------------------------------------------------------------ reading
    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def to_move(self) -> Optional[int]:
        return self.state.to_move

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.kind == "human")

    @property
    def is_hotseat(self) -> bool:
        return len(self.human_seats) == 2

    def view(self, seat: int):
        return view(self.state, seat)

    def legal(self):
        return legal_actions(self.state)

    def is_cpu_turn(self) -> bool:
        seat = self.state.to_move
        return seat is not None and self.seats[seat].kind == "cpu"

    def public_events(self, seat: int, since: int = 0) -> list:
        return [public_event(e, seat) for e in self.state.events[since:]]

    # ------------------------------------------------------------ acting
    def apply(self, action) -> list:
        """Apply a legal action; returns the new events. Raises IllegalAction otherwise."""
        before = len(self.state.events)
        self.state = apply(self.state, action)
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:  # saving must never break play; storage logs its own failures
                log.exception("on_change hook failed")
        return list(self.state.events[before:])

    def start_cpu(self) -> None:
        """Start the CPU seat thinking about the current state (no-op if already thinking)."""
        if not self.is_cpu_turn() or self._thinking is not None:
            return
        seat = self.state.to_move
        state = self.state
        player = self._players[seat]
        self._cpu_result = None
        self._cpu_error = None

        def think() -> None:
            try:
                action = player.choose(view(state, seat), legal_actions(state))
                self._cpu_result = (len(state.events), action)
            except BaseException as exc:  # reported on the main thread by poll_cpu
                self._cpu_error = exc

        self._thinking = threading.Thread(target=think, name="koikoi-cpu", daemon=True)
        self._thinking.start()

    def poll_cpu(self):
        """The CPU's chosen action once it has decided (for the current state), else None."""
        if self._thinking is None or self._thinking.is_alive():
            return None
        self._thinking = None
        if self._cpu_error is not None:
            raise RuntimeError("the CPU player failed") from self._cpu_error
        result, self._cpu_result = self._cpu_result, None
        if result is None or result[0] != len(self.state.events):
            return None  # stale: the state moved on while it thought
        return result[1]

    def cpu_move_now(self):
        """Decide synchronously (tests and tools)."""
        seat = self.state.to_move
        return self._players[seat].choose(view(self.state, seat), legal_actions(self.state))

    # ------------------------------------------------------------ saving
    def to_json(self) -> str:
        return json.dumps({
            "format": 1,
            "seats": [asdict(s) for s in self.seats],
            "log": json.loads(events_to_json(self.state.events)),
        }, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, **kwargs) -> "MatchSession":
        """Rebuild a session from ``to_json``; the log is replayed and checked by the rules."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != 1:
            raise ValueError("not a koikoi match save (unknown format)")
        seats = tuple(SeatConfig(**s) for s in data["seats"])
        if len(seats) != 2:
            raise ValueError("a match save needs exactly two seats")
        events = events_from_json(json.dumps(data["log"]))
        state = replay(events)
        return cls(state.rules, seed=state.seed, seats=seats, state=state, **kwargs)


__all__ = ["MatchSession", "SeatConfig", "IllegalAction"]
