"""A match being played: the one owner of its engine state, seats, CPU and files.

    session = MatchSession(rules, seed=7, seats=(SeatConfig(SeatKind.HUMAN, "You"),
                                                 SeatConfig(SeatKind.CPU, "CPU (Hard)", "hard")),
                           store=storage)
    session.apply(action)        # the engine's apply, then autosave (or filing, once over)
    session.apply(action, seat=1, at=42)   # the same, gated for a seat: its turn, what it saw

Every action goes through one gate, ``prepare(action, seat=, at=)``: the seat to
move, a stale view, the rules' legality. It raises ``Refused`` (an IllegalAction)
with a ``code``: "over", "not_your_turn", "stale" or "illegal". ``apply`` is
``commit(prepare(...))``; the network server (koikoi.net) calls the two halves
apart, writing the prepared events to its store between them, so the local table and
the server refuse and apply an action by the same code.

A session has a stable ``id`` (16 hex digits), written into every copy of it:
the autosave, a match kept for later, the history file. Storage files a
match by that id, so filing twice writes one file however often it is asked,
and a restart that finds the autosave of a match already in the history
keeps only the history copy.

The scenes read ``session.state`` only through ``view(state, seat)`` and the
public events; they send actions through ``session.apply`` and never change a
rule. A CPU seat thinks on a worker thread (``start_cpu``/``poll_cpu``) so no
frame waits on it. Nothing here imports pygame: the network server can own
sessions the same way.

Saved form (JSON, ``format`` 2)::

    {"format": 2, "id": "3f9c0a...", "seats": [{"kind", "name", "level"}, ...],
     "log": {"format": 1, "events": [...]}}

Format 1 (before ids) is still read: its id is derived from its log, so the
same old file always gets the same id.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import threading
from dataclasses import asdict, dataclass
from typing import Any, Callable, Optional, Protocol, Sequence, runtime_checkable

from . import narration
from .files import parse_json
from .forward import via
from .ai import LEVELS, make_player
from .engine import (IllegalAction, Rules, State, apply, events_from_data, events_to_json,
                     legal_actions, new_match, public_event, replay, view)
from .engine.phase import SeatKind
from .engine.view import View
from .i18n import N_

log = logging.getLogger("koikoi.session")

FORMAT = 2
SEAT_KINDS = tuple(SeatKind)
MAX_NAME_LEN = 40
_ID = re.compile(r"[0-9a-f]{16}")


def new_match_id() -> str:
    return secrets.token_hex(8)


def valid_match_id(value: Any) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def clean_name(value: Any) -> str:
    """A seat name as the game shows it, or ValueError: a string of 1 to
    MAX_NAME_LEN characters, no control characters."""
    if not isinstance(value, str):
        raise ValueError(f"a seat name must be text, not {type(value).__name__}")
    name = value.strip()
    if not name or len(name) > MAX_NAME_LEN:
        raise ValueError(f"a seat name must have 1 to {MAX_NAME_LEN} characters")
    if any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in name):
        raise ValueError("a seat name may not hold control characters")
    if any(0xd800 <= ord(c) < 0xe000 for c in name):     # a lone surrogate: not text at all
        raise ValueError("a seat name may not hold lone surrogates")
    return name


@dataclass(frozen=True)
class SeatConfig:
    kind: SeatKind             # (a str enum: "human" or "cpu" in files)
    name: str                  # shown on the table: "You", "CPU (Hard)", "Player 2"
    level: Optional[str] = None  # CPU level: random, easy, medium, hard

    @classmethod
    def from_data(cls, data: Any) -> "SeatConfig":
        """A seat from saved JSON, checked field by field (ValueError if malformed).
        A level this build does not know is kept as written; the session plays
        it as 'random' (see MatchSession)."""
        if not isinstance(data, dict) or not set(data) <= {"kind", "name", "level"}:
            raise ValueError("a seat in the save is malformed")
        kind, level = data.get("kind"), data.get("level")
        if kind not in SEAT_KINDS:
            raise ValueError("a seat in the save is neither a player nor the CPU")
        if level is not None and not (isinstance(level, str) and 0 < len(level) <= 20
                                      and level.isascii() and level.isidentifier()):
            raise ValueError("a seat in the save has a malformed CPU level")
        return cls(SeatKind(kind), clean_name(data.get("name")), level)


class Refused(IllegalAction):
    """An action the session will not take: ``code`` says why ("over", "not_your_turn",
    "stale", "illegal"), ``message`` in plain English (never naming a card the seat it
    was asked for cannot see). Nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Move:
    """A prepared action: the state it was prepared on, the state after it, and where
    its events start in the log."""
    action: Any
    before: State
    state: State

    @property
    def start(self) -> int:
        return len(self.before.events)

    @property
    def events(self) -> tuple:
        return self.state.events[self.start:]


def safe_explanation(text: str, state: State, seat: Optional[int]) -> str:
    """The engine's explanation of a refusal as ``seat`` may read it: a plain one if it
    names a card that seat cannot see (None: anyone at this table sees every card)."""
    if seat is not None:
        unseen = {c.id for c in view(state, seat).unseen}
        if any(cid in text for cid in unseen):
            return "that is not a legal action now"
    return text[:300]


class MatchStore(Protocol):
    """Where a session keeps itself (koikoi.storage.Storage; later the server's rooms)."""

    def save_autosave(self, session: "MatchSession") -> bool: ...

    def file_match(self, session: "MatchSession", **kwargs) -> Any: ...

    def clear_autosave(self, match_id: str) -> None: ...


class MoveStore(Protocol):
    """Where a session's moves are written before they are taken (the match server's
    rooms: ``koikoi.net.store.AwaitedStore`` over its SQLite writer thread). The server
    runs ``move = session.prepare(...)``, ``await store.append(...)``, then
    ``session.commit(move)``: an acknowledged action is on disk before anyone hears of it,
    and a write that fails leaves the session as it was. (A local session writes through
    its ``MatchStore`` in ``commit`` instead: the autosave after each action.)"""

    async def append(self, key: Any, start: int, events: tuple, status: str,
                     result: Optional[dict]) -> float: ...


class TableSeat(Protocol):
    """One seat as a table shows it (``SeatConfig``; ``NetSeat`` online)."""

    @property
    def kind(self) -> Any: ...        # SeatKind.HUMAN, SeatKind.CPU, or another kind (online: remote)

    @property
    def name(self) -> str: ...        # stored in English for the game's own names (seat_label shows it)

    @property
    def level(self) -> Optional[str]: ...


@runtime_checkable
class TableSession(Protocol):
    """What the round table, its overlays (the Koi-Koi prompt, the round results, the combo
    inspector) and the oya-gime draw need of a match: ``MatchSession`` (a local match, a
    lesson's, a puzzle's), ``koikoi.net.netsession.NetSession`` (a room of a match server)
    and ``koikoi.ui.scenes.ledger.StateSession`` (a finished match read from its state).

    Reading: who sits where, whose turn and which phase (``phase``: the ``Phase`` names, as
    ``PublicTable.phase``), the rules, and ``events``: the log this screen may read (every
    event of a local match; the seat's public events of an online one). The table itself
    draws ``public_events(seat)`` folded (``engine.table.fold``) and reads ``view(seat)``
    for hints, never a ``State``. Acting: ``legal()`` and ``apply(action)``; a CPU seat
    thinks through ``start_cpu``/``poll_cpu`` (sessions without one: no-ops).
    tests/test_session_protocol.py checks every implementation against this list."""

    @property
    def seats(self) -> Sequence[TableSeat]: ...

    @property
    def human_seats(self) -> tuple: ...

    @property
    def is_hotseat(self) -> bool: ...

    @property
    def rules(self) -> Optional[Rules]: ...

    @property
    def months(self) -> Optional[int]: ...

    @property
    def to_move(self) -> Optional[int]: ...

    @property
    def phase(self) -> str: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def events(self) -> Sequence: ...

    def public_events(self, seat: int, since: int = 0) -> list: ...

    def view(self, seat: int) -> View: ...

    def legal(self) -> Sequence: ...

    def apply(self, action) -> list: ...

    def is_cpu_turn(self) -> bool: ...

    def start_cpu(self) -> None: ...

    def poll_cpu(self) -> Any: ...


class MatchSession:
    def __init__(self, rules: Rules, *, seed: int, months: Optional[int] = None,
                 seats: tuple[SeatConfig, SeatConfig] = (SeatConfig(SeatKind.HUMAN, "You"),
                                                          SeatConfig(SeatKind.CPU, "CPU", "easy")),
                 state: Optional[State] = None, match_id: Optional[str] = None,
                 store: Optional[MatchStore] = None,
                 on_change: Optional[Callable[["MatchSession"], None]] = None,
                 players: Optional[dict] = None, record: bool = True, narrate: bool = True):
        """``players``: seat -> an object with ``choose(view, legal) -> action`` playing that
        CPU seat instead of the level's player (a lesson's scripted CPU). ``record=False``:
        the match is never written anywhere, whatever store it is given (a lesson: no
        autosave, no history, no statistics). ``narrate=False``: no log line per action
        (the server, holding thousands of matches)."""
        if len(seats) != 2:
            raise ValueError("a match needs exactly two seats")
        for s in seats:
            if s.kind not in SEAT_KINDS:
                raise ValueError(f"seat kind must be human or cpu, not {s.kind!r}")
        if match_id is not None and not valid_match_id(match_id):
            raise ValueError(f"not a match id: {match_id!r:.40}")
        self.seats = tuple(seats)
        self.id = match_id or new_match_id()
        self.state = state if state is not None else new_match(rules, seed=seed, months=months)
        self.store = store
        self.on_change = on_change
        self.record = bool(record)
        self.narrate = bool(narrate)
        # what went wrong at the last save, for the UI to report: (what, message) or None;
        # the message is English marked with N_, the UI shows it translated (``_(message)``)
        self.save_problem: Optional[tuple[str, str]] = None
        self.filed_path = None           # the history file, once filed
        self._players = {}
        for i, s in enumerate(self.seats):
            if s.kind == SeatKind.CPU:
                level = s.level or "easy"
                if level not in LEVELS:
                    log.warning("CPU level %r is not in this build; seat %d plays at 'random'", level, i)
                    level = "random"
                self._players[i] = make_player(level, seed=self.state.seed * 2 + i)
        for seat, player in (players or {}).items():
            if seat not in self._players:
                raise ValueError(f"seat {seat!r} is not a CPU seat")
            self._players[seat] = player
        self._thinking: Optional[threading.Thread] = None
        self._cpu_result: Optional[tuple[int, object]] = None
        self._cpu_error: Optional[BaseException] = None

    # ------------------------------------------------------------ reading
    rules = via("state", "rules")
    to_move = via("state", "to_move")
    months = via("state", "months")
    phase = via("state", "phase_name")
    is_over = via("state", "is_over")
    events = via("state", "events")
    # what the match results read (the ledger screen, which an online match shares)
    ledger = via("state", "ledger")
    winner = via("state", "winner")
    scores = via("state", "scores")
    seed = via("state", "seed")

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.kind == SeatKind.HUMAN)

    @property
    def is_hotseat(self) -> bool:
        return len(self.human_seats) == 2

    def view(self, seat: int) -> View:
        return view(self.state, seat)

    def legal(self):
        return legal_actions(self.state)

    def is_cpu_turn(self) -> bool:
        seat = self.state.to_move
        return seat is not None and self.seats[seat].kind == SeatKind.CPU

    def public_events(self, seat: int, since: int = 0) -> list:
        return [public_event(e, seat) for e in self.state.events[since:]]

    # ------------------------------------------------------------ acting
    def prepare(self, action, *, seat: Optional[int] = None, at: Optional[int] = None) -> Move:
        """The gate every action passes, here and on the server: the match is not over,
        ``seat`` (if given) is the seat to move, ``at`` (if given: how many events the
        actor has seen) is the log's length, and the rules take the action. The Move to
        ``commit``; raises Refused otherwise (nothing changes)."""
        state = self.state
        if state.is_over:
            raise Refused("over", "the match is over")
        if seat is not None and state.to_move != seat:
            raise Refused("not_your_turn", "it is the other player's turn")
        start = len(state.events)
        if at is not None and at != start:
            raise Refused("stale", f"the match has moved on: {start} events, you have seen {at}")
        if action not in (legal_actions(state) or ()):
            try:
                apply(state, action)
                why = "that is not a legal action now"
            except IllegalAction as exc:
                why = safe_explanation(str(exc), state, seat)
            raise Refused("illegal", why)
        return Move(action, state, apply(state, action))

    def commit(self, move: Move) -> list:
        """Take a prepared action: the new state, its log line, the save, the UI's hook;
        returns the new events. Refused ("stale") if the match moved since it was prepared."""
        if move.before is not self.state:
            raise Refused("stale", "the match moved on since this action was prepared")
        self.state = move.state
        added = move.events
        if self.narrate:
            self._log_events(added)
        self.save()
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:  # the UI's hook must never break play
                log.exception("on_change hook failed")
        return list(added)

    def apply(self, action, *, seat: Optional[int] = None, at: Optional[int] = None) -> list:
        """Apply a legal action, then save; returns the new events. Raises Refused (an
        IllegalAction) otherwise: nothing changes, nothing is written. ``seat``, ``at``:
        see ``prepare``."""
        return self.commit(self.prepare(action, seat=seat, at=at))

    def _log_events(self, events) -> None:
        """One log line per applied action: its events as sentences (koikoi.narration), told
        from the human seat's public events, so no hidden card is ever written."""
        if not events or not log.isEnabledFor(logging.INFO):
            return
        try:
            humans = self.human_seats
            seat = humans[0] if humans else 0
            you = seat if len(humans) == 1 else None
            names = tuple(s.name for s in self.seats)
            text = " ".join(narration.sentences((public_event(e, seat) for e in events), names,
                                                seat=seat, style="both", you=you))
            if text:
                log.info("match %s: %s", self.id, text)
        except Exception:  # the log must never break play
            log.exception("could not narrate the events of match %s", self.id)

    def save(self) -> Optional[tuple[str, str]]:
        """Write this match where it belongs: the autosave while it runs; once
        over, its history file (once, by id), and only when that is on disk is
        the autosave removed. Returns (and keeps in ``save_problem``) what
        failed, or None: (what, message), the message an English msgid to show as
        ``_(message)``."""
        store = self.store
        self.save_problem = None
        if store is None or not self.record:
            return None
        try:
            if self.state.is_over:
                # The finished state (over, with its result) goes to the autosave first: if
                # filing fails (a read-only or full history folder), the next start files it
                # from there; the autosave never stays one move before the end.
                kept = store.save_autosave(self)
                path = store.file_match(self)
                if path is None:
                    self.save_problem = ("history", N_("The finished match could not be saved to the history.")
                                         if kept else N_("The match could not be saved (see the log)."))
                else:
                    self.filed_path = path
                    store.clear_autosave(self.id)
            elif not store.save_autosave(self):
                self.save_problem = ("autosave", N_("The match could not be autosaved (see the log)."))
        except Exception:  # storage logs its own failures; play goes on regardless
            log.exception("saving match %s failed", self.id)
            self.save_problem = ("autosave", N_("The match could not be saved (see the log)."))
        return self.save_problem

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
    def to_data(self) -> dict:
        return {
            "format": FORMAT,
            "id": self.id,
            "seats": [asdict(s) for s in self.seats],
            "log": json.loads(events_to_json(self.state.events)),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_data(), ensure_ascii=False)

    @classmethod
    def from_data(cls, data: Any, **kwargs) -> "MatchSession":
        """Rebuild a session from ``to_data`` (parsed JSON), checked field by field
        and replayed by the rules. Raises ValueError (only) if anything is wrong."""
        match_id, seats, state = load_match(data)
        return cls(state.rules, seed=state.seed, seats=seats, state=state, match_id=match_id, **kwargs)

    @classmethod
    def from_json(cls, text: str, **kwargs) -> "MatchSession":
        """``from_data`` on JSON text (tests, tools; the game reads files through koikoi.files)."""
        return cls.from_data(parse_json(text), **kwargs)


def load_match(data: Any) -> tuple[str, tuple[SeatConfig, SeatConfig], State]:
    """(id, seats, replayed state) of a saved match (parsed JSON), without
    seating any CPU: the history index reads thousands of files this way.
    Raises ValueError (only) if anything is malformed or the rules do not
    reproduce the log."""
    if not isinstance(data, dict):
        raise ValueError("not a koikoi match save")
    fmt = data.get("format")
    if type(fmt) is not int or fmt not in (1, FORMAT):
        raise ValueError("not a koikoi match save (unknown format)")
    seats_data = data.get("seats")
    if not isinstance(seats_data, list) or len(seats_data) != 2:
        raise ValueError("a match save needs exactly two seats")
    seats = tuple(SeatConfig.from_data(s) for s in seats_data)
    log_data = data.get("log")
    if not isinstance(log_data, dict):
        raise ValueError("the match save has no log")
    # ValueError only (tests/engine/test_codec_hostile.py); storage.session_from_data is the one
    # safety net for anything else
    state = replay(events_from_data(log_data))    # parsed already: no second encode and parse
    if fmt == 1:
        match_id = legacy_id(log_data)
    else:
        match_id = data.get("id")
        if not valid_match_id(match_id):
            raise ValueError("the match save has no valid id")
    return match_id, seats, state  # type: ignore[return-value]


def legacy_id(log_data: Any) -> str:
    """The id of a save written before ids: a hash of its log, so every read of
    the same file (and a history copy of the same match) agrees."""
    return text_id(canonical_json(log_data))


def canonical_json(value: Any) -> str:
    """``value`` as the text ``legacy_id`` hashes: compact, keys sorted, UTF-8 as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def text_id(canon: str) -> str:
    """16 hex digits of the SHA-256 of a log's canonical text (``canonical_json``)."""
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:16]


__all__ = ["MatchSession", "TableSession", "TableSeat", "SeatConfig", "MatchStore", "MoveStore", "IllegalAction", "Refused", "Move",
           "safe_explanation", "new_match_id", "valid_match_id",
           "clean_name", "legacy_id", "canonical_json", "text_id", "load_match", "MAX_NAME_LEN", "FORMAT"]
