"""A match's State (an immutable NamedTuple of small ints, bitmasks and tuples), the phase
numbers it holds, the errors of the reducers, and ``_Draft``, the mutable copy the general
reducer (engine/turns.py, engine/rounds.py) works in and freezes into the next State."""

from __future__ import annotations

from typing import NamedTuple, Optional

from .phase import PHASES
from .rules import Rules

OYAGIME, PLAY, CHOOSE, DECIDE, OVER = range(5)
PHASE_NAMES = PHASES            # Phase members, indexed by State.phase


class IllegalAction(ValueError):
    """An action that is not in ``legal_actions(state)``. The state is unchanged."""


class ReplayError(ValueError):
    """A log that the rules do not reproduce (corrupt or tampered)."""


class State(NamedTuple):
    rules: Rules
    seed: int
    months: Optional[int]
    phase: int
    to_move: Optional[int]
    dealer: Optional[int]
    draws: int               # random draws so far (oya-gime spreads and deals): the RNG stream
    decks: tuple             # set decks not dealt yet (48 card indices each), next first
    hands: tuple             # (mask, mask)
    field: int               # mask
    stock: tuple             # card indices of this round's stock, top first
    stock_pos: int           # how many have been turned
    captured: tuple          # (mask, mask)
    calls: tuple             # Koi-Koi calls this round per seat
    refs: tuple              # per seat: the (name, points) yaku held at its last Koi-Koi
    pending: int             # stock card awaiting ChooseMatch, or -1
    field_brights: int       # brights in the opening field
    last_yaku_seat: int      # who last formed or improved a yaku this round (-1: nobody)
    scores: tuple
    ledger: tuple            # LedgerRow per played round
    spread: tuple            # oya-gime face-down cards (indices), empty once decided
    picks: tuple             # ((seat, spread index, card index), ...) of the latest oya-gime draw
    winner: Optional[int]    # set when the match is over (None also for a draw)
    is_over: bool            # phase == OVER (a field, not a property: every loop over a match reads it)
    events: tuple            # the whole log

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def stock_count(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def round(self) -> int:
        """The round being played (1-based); after the match, the last one."""
        return len(self.ledger) + (0 if self.phase == OVER else 1)

    def __repr__(self) -> str:
        return (f"<State {self.phase_name} round={self.round} to_move={self.to_move} "
                f"scores={self.scores} events={len(self.events)}>")


_new = tuple.__new__


class _Draft:
    """A mutable copy of a State, alive only inside one ``apply``."""

    __slots__ = State._fields + ("new",)

    def __init__(self, s: State):
        (self.rules, self.seed, self.months, self.phase, self.to_move, self.dealer, self.draws,
         self.decks, hands, self.field, self.stock, self.stock_pos, captured, self.calls,
         self.refs, self.pending, self.field_brights, self.last_yaku_seat, self.scores, self.ledger,
         self.spread, self.picks, self.winner, _, self.events) = s[:]
        self.hands = list(hands)
        self.captured = list(captured)
        self.new = []

    def freeze(self) -> State:
        return _new(State, (
            self.rules, self.seed, self.months, self.phase, self.to_move, self.dealer,
            self.draws, self.decks, tuple(self.hands), self.field, self.stock, self.stock_pos,
            tuple(self.captured), self.calls, self.refs, self.pending, self.field_brights,
            self.last_yaku_seat, self.scores, self.ledger, self.spread, self.picks,
            self.winner, self.phase == OVER, self.events + tuple(self.new)))
