"""What one seat may know: ``view(state, seat)``.

The UI and the AI read only this. It holds the seat's own hand, the field,
both capture piles and counts, never the other hand or the stock order.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .cards import ALL, CARD_MONTH_MASK, DECK, ID_TO_INDEX, Card, from_mask, months_of, to_mask
from .state import CHOOSE, OVER, PHASE_NAMES, OYAGIME, State
from .rules import Rules
from .scoring import Award, award_from_mask, round_month, yaku_points


class View(NamedTuple):
    seat: int
    phase: str                 # oyagime, play, choose_match, decide, over
    to_move: Optional[int]
    dealer: Optional[int]
    round: int                 # 1-based round being played
    months: Optional[int]
    rules: Rules
    hand: tuple                # Cards, deck order
    field: tuple
    captured: tuple            # (seat 0's Cards, seat 1's Cards)
    opponent_hand_count: int
    stock_count: int
    scores: tuple
    calls: tuple               # Koi-Koi calls this round per seat
    koikoi_refs: tuple         # per seat, the (name, points) held at its last call
    pending: Optional[Card]    # the stock card waiting for a choice
    choices: tuple             # the field cards it may take
    field_brights: int         # brights in the opening field as dealt (before any sweep)
    oyagime_face_down: int     # face-down oya-gime cards still on offer
    oyagime_picks: tuple       # ((seat, spread index, Card), ...)
    ledger: tuple
    is_over: bool
    winner: Optional[int]
    hand_mask: int
    field_mask: int
    captured_masks: tuple
    passed: tuple = (0, 0)     # per seat, months it likely does not hold (``passed_months``)

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def month(self) -> int:
        """The round's month, 1..12 (``scoring.round_month``): what tsuki-fuda asks for."""
        return round_month(self.round)

    @property
    def unseen_mask(self) -> int:
        """Cards this seat cannot see: the opponent's hand and the stock, together."""
        seen = self.hand_mask | self.field_mask | self.captured_masks[0] | self.captured_masks[1]
        if self.pending is not None:  # turned from the stock, waiting for a choice
            seen |= 1 << self.pending.index
        return ALL & ~seen

    @property
    def unseen(self) -> tuple:
        return from_mask(self.unseen_mask)

    def matches(self, card: Card) -> tuple:
        """Field cards of ``card``'s month."""
        return from_mask(self.field_mask & CARD_MONTH_MASK[card.index])

    def yaku(self, seat: int) -> tuple:
        """(name, points) of the yaku in ``seat``'s capture pile."""
        return yaku_points(self.captured_masks[seat], self.rules, self.field_mask, self.calls[seat],
                           round_month(self.round))

    def award(self, seat: int) -> Award:
        """What ``seat`` would earn by stopping now (a preview, not points won)."""
        return award_from_mask(self.captured_masks[seat], self.rules, self.calls[seat],
                               self.calls[1 - seat], self.field_brights, self.field_mask,
                               round_month(self.round))


def view(state: State, seat: int) -> View:
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    hand = state.hands[seat]
    cap = state.captured
    pending = DECK[state.pending] if state.phase == CHOOSE else None
    choices = from_mask(state.field & CARD_MONTH_MASK[state.pending]) if pending else ()
    return View(
        seat, PHASE_NAMES[state.phase], state.to_move, state.dealer, state.round, state.months,
        state.rules, from_mask(hand), from_mask(state.field), (from_mask(cap[0]), from_mask(cap[1])),
        state.hands[1 - seat].bit_count(), state.stock_count, state.scores, state.calls, state.refs,
        pending, choices, state.field_brights,
        len(state.spread) - len(state.picks) if state.phase == OYAGIME else 0,
        tuple((s, i, DECK[c]) for s, i, c in state.picks), state.ledger, state.phase == OVER,
        state.winner, hand, state.field, cap, passed_months(state.events, state.field),
    )


def pass_step(passed: tuple, seat: int, card: int, took: bool, field: int) -> tuple:
    """``passed`` (``View.passed``) after ``seat`` played ``card`` (an index) from its hand
    onto ``field`` (the mask before the play), capturing (``took``) or not. A play of a month
    voids what the seat's earlier passes said of it: it held that month after all."""
    p = passed[seat] & ~CARD_MONTH_MASK[card]
    if not took:
        p |= months_of(field)
    return (p, passed[1]) if seat == 0 else (passed[0], p)


def passed_months(events, field: int) -> tuple:
    """``View.passed``: per seat, the months (a mask of their four cards) whose card lay on
    the field when that seat played a card from its hand to the field this round without
    capturing, and none of whose cards it has played from its hand since. A player who holds
    a match almost always takes it, so these are months it most likely does not hold.
    ``events``: the log (or a seat's public log) up to now; ``field``: the field mask now.
    The field before each play is found by undoing the round's events from the end, then the
    plays are folded in order by ``pass_step`` (the fold ``engine.table`` runs as it goes).
    Public knowledge: each play and the field it met are on the table for both seats."""
    plays = []
    f = field
    for e in reversed(events):
        t = e.type
        if t == "played":
            c = ID_TO_INDEX[e.card]
            if e.taken:
                f |= to_mask(e.taken)
            else:
                f &= ~(1 << c)
            plays.append((e.seat, c, bool(e.taken), f))
        elif t == "flipped":
            if e.taken:
                f |= to_mask(e.taken)
            elif e.taken is not None:
                f &= ~(1 << ID_TO_INDEX[e.card])
        elif t == "chose":
            f |= 1 << ID_TO_INDEX[e.target]
        elif t in ("round_dealt", "field_swept", "match_started"):
            break
    passed = (0, 0)
    for seat, c, took, before in reversed(plays):
        passed = pass_step(passed, seat, c, took, before)
    return passed
