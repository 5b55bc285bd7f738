"""What one seat sees of a match, as a value folded from its public events.

``fold(table, event, seat)`` is a pure reducer over the events a seat is shown
(``public_event(e, seat)`` for every ``e`` in ``state.events``); ``fold_all``
folds a whole log and ``tables`` yields the table after every event (the replay
viewer's frames, the director's (old table, event, new table) triples). The
fold reads only what ``public_event`` leaves visible, so folding the raw log
gives the same table as folding the public one, and a ``PublicTable`` holds
nothing the seat could not see: no other hand, no stock order, no seed (the
seed would deal every card again).

A ``PublicTable`` agrees with ``view(state, seat)`` on everything they share
(tests/engine/test_table.py checks it after every action) and adds what a
table on screen needs and a View does not keep: the field laid out in slots,
the capture piles in capture order, the yaku each seat announced (YakuMade)
and who announced last.

Field slots
-----------
The field is a tuple of slots, one month each: a slot is the tuple of that
month's field cards (in the order they came to the field), or ``()`` when the
slot is free. A table lays out slot ``k`` in one place (``ui.board``), so the
layout is a pure function of the public events and a match resumed from its
log lays out exactly as it did before it was saved. The rule:

1. A deal (``RoundDealt``, also a redeal after a misdeal) resets the field:
   its months take slots 0, 1, 2, ... in the order their first card is listed
   in the event, and each slot holds its month's dealt cards in that order.
2. A captured field card leaves its slot; a slot left with no card is free.
   The other slots do not move.
3. A card that joins the field goes to the slot of its month if the field
   holds that month (only a sweep's replacement can), else to the lowest free
   slot, or to a new slot at the end if none is free.
4. ``FieldSwept``: the four swept cards leave (their slot is freed), then the
   replacements join in the event's order by rule 3.

So a card keeps its slot for as long as it stays on the field, a month never
holds two slots, there are at most twelve slots, their number never shrinks
within a round, and a new round starts again from the deal.
"""

from __future__ import annotations

from typing import Iterable, Iterator, NamedTuple, Optional

from .cards import BRIGHTS, CARD_MONTH_MASK, DECK, ID_TO_INDEX, from_mask, ids_of
from .events import (Chose, Exhausted, FieldSwept, Flipped, KoiKoiCalled, LedgerRow, LuckyHand,
                     MatchEnded, MatchStarted, Misdeal, OyagimeDecided, OyagimePicked,
                     OyagimeSpread, Played, RoundDealt, RoundEnded, Stopped, YakuMade)
from .phase import Phase
from .rules import Rules
from .scoring import next_dealer, round_month, yaku_points
from .view import View, pass_step

# The phases of View.phase.
OYAGIME, PLAY, CHOOSE, DECIDE, OVER = Phase.OYAGIME, Phase.PLAY, Phase.CHOOSE, Phase.DECIDE, Phase.OVER


class PublicTable(NamedTuple):
    """One seat's table at one moment. Cards are ids ("09-A")."""

    seat: int
    rules: Optional[Rules]      # None only before MatchStarted
    months: Optional[int]       # rounds in the match (None: to a target or a bankruptcy)
    phase: str                  # oyagime, play, choose_match, decide, over (as View.phase)
    to_move: Optional[int]
    dealer: Optional[int]       # between rounds and after the match: who deals next (as View)
    round: int                  # 1-based round being played; after the match, the last one
    scores: tuple               # running match totals per seat
    hand: tuple                 # this seat's cards, in dealt (deck) order
    opponent_hand_count: int
    field_slots: tuple          # per slot, its month's card ids; () when free (module docstring)
    captured: tuple             # (seat 0's ids, seat 1's ids), each in capture order
    stock_count: int
    pending: Optional[str]      # the stock card waiting for a ChooseMatch target
    choices: tuple              # the field cards it may take, in deck order
    calls: tuple                # Koi-Koi calls this round per seat
    koikoi_refs: tuple          # per seat, the (name, points) held at its last call
    yaku: tuple                 # per seat, the (name, points) of its last YakuMade this round
    last_yaku_seat: Optional[int]  # who last formed or improved a yaku this round
    field_brights: int          # brights in the field as dealt (as View: before any sweep; a swept
                                # Bright still counts, its replacements do not: see
                                # Rules.field_brights_multiplier)
    oyagime_face_down: int      # face-down oya-gime cards still on offer
    oyagime_picks: tuple        # ((seat, spread index, card id), ...) of the latest draw
    ledger: tuple               # LedgerRow per round played
    is_over: bool
    winner: Optional[int]       # once the match is over; None also for a draw
    passed: tuple = (0, 0)      # per seat, as View.passed (view.passed_months), this round

    opponent = property(lambda self: 1 - self.seat, doc="The other seat.")
    my_turn = property(lambda self: self.to_move == self.seat, doc="Whether this seat is to move.")

    @property
    def field(self) -> tuple:
        """The field's cards in slot order (each slot's cards in their order)."""
        return tuple(c for slot in self.field_slots for c in slot)

    def slot_of(self, card: str) -> Optional[int]:
        """The slot ``card`` lies in, or None if it is not on the field."""
        for i, slot in enumerate(self.field_slots):
            if card in slot:
                return i
        return None

    def hand_count(self, seat: int) -> int:
        return len(self.hand) if seat == self.seat else self.opponent_hand_count

    def view(self) -> View:
        """This seat's engine ``View``, from the table alone: what ``view(state, seat)`` gives
        (tests/engine/test_table.py checks they are equal after every action), so a table
        known only from its public events (an online match) is read as a local one is."""
        hand, field = _mask(self.hand), _mask(self.field)
        cap = (_mask(self.captured[0]), _mask(self.captured[1]))
        pending = DECK[ID_TO_INDEX[self.pending]] if self.pending is not None else None
        choices = from_mask(field & CARD_MONTH_MASK[pending.index]) if pending is not None else ()
        return View(
            seat=self.seat, phase=self.phase, to_move=self.to_move, dealer=self.dealer, round=self.round,
            months=self.months, rules=self.rules, hand=from_mask(hand), field=from_mask(field),
            captured=(from_mask(cap[0]), from_mask(cap[1])), opponent_hand_count=self.opponent_hand_count,
            stock_count=self.stock_count, scores=tuple(self.scores), calls=tuple(self.calls),
            koikoi_refs=tuple(self.koikoi_refs), pending=pending, choices=choices,
            field_brights=self.field_brights, oyagime_face_down=self.oyagime_face_down,
            oyagime_picks=tuple((s, i, DECK[ID_TO_INDEX[c]]) for s, i, c in self.oyagime_picks),
            ledger=tuple(self.ledger), is_over=self.is_over, winner=self.winner, hand_mask=hand,
            field_mask=field, captured_masks=cap, passed=self.passed)


def _mask(ids) -> int:
    return sum(1 << ID_TO_INDEX[c] for c in ids if c is not None)


def initial(seat: int) -> PublicTable:
    """The table before any event: nothing dealt, no rules yet."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    return PublicTable(seat, None, None, OYAGIME, None, None, 1, (0, 0), (), 0, (), ((), ()), 0,
                       None, (), (0, 0), ((), ()), ((), ()), None, 0, 0, (), (), False, None)


# ---------------------------------------------------------------- the field's slots

_MONTH = {c.id: c.month for c in DECK}


def _deal(cards: Iterable[str]) -> tuple:
    """The slots of a freshly dealt field: one per month, in order of first appearance."""
    slots: list = []
    where: dict = {}
    for c in cards:
        m = _MONTH[c]
        k = where.get(m)
        if k is None:
            where[m] = len(slots)
            slots.append((c,))
        else:
            slots[k] += (c,)
    return tuple(slots)


def _free(slots: tuple, cards: Iterable[str]) -> tuple:
    """``slots`` without ``cards`` (a slot left empty is free: ``()``)."""
    gone = set(cards)
    return tuple(tuple(c for c in slot if c not in gone) if gone.intersection(slot) else slot
                 for slot in slots)


def _join(slots: tuple, card: str) -> tuple:
    """``slots`` with ``card`` in its month's slot, else the lowest free one, else a new one."""
    month = _MONTH[card]
    free = None
    for i, slot in enumerate(slots):
        if slot and _MONTH[slot[0]] == month:
            return slots[:i] + (slot + (card,),) + slots[i + 1:]
        if not slot and free is None:
            free = i
    if free is None:
        return slots + ((card,),)
    return slots[:free] + ((card,),) + slots[free + 1:]


def _per_seat(pair: tuple, seat: int, value) -> tuple:
    return (pair[0], value) if seat else (value, pair[1])


# ---------------------------------------------------------------- one event each

def _match_started(t: PublicTable, e: MatchStarted) -> PublicTable:
    start = e.rules.starting_points if e.rules.scoring_mode == "zero_sum" else 0
    return initial(t.seat)._replace(rules=e.rules, months=e.months, to_move=0,
                                    scores=(start, start))


def _oyagime_spread(t: PublicTable, e: OyagimeSpread) -> PublicTable:
    # The cards themselves are face down: only how many.
    return t._replace(phase=OYAGIME, to_move=0, oyagime_face_down=len(e.cards), oyagime_picks=())


def _oyagime_picked(t: PublicTable, e: OyagimePicked) -> PublicTable:
    return t._replace(to_move=1 - e.seat, oyagime_face_down=t.oyagime_face_down - 1,
                      oyagime_picks=t.oyagime_picks + ((e.seat, e.index, e.card),))


def _oyagime_decided(t: PublicTable, e: OyagimeDecided) -> PublicTable:
    if e.dealer is None:  # a tie: the next OyagimeSpread starts the redraw
        return t
    return t._replace(dealer=e.dealer, oyagime_face_down=0)


def _round_dealt(t: PublicTable, e: RoundDealt) -> PublicTable:
    # Only this seat's hand is read; of the other hand and the stock, only their sizes.
    field = tuple(e.field)
    brights = sum(BRIGHTS >> ID_TO_INDEX[c] & 1 for c in field)
    return t._replace(
        phase=PLAY, to_move=e.dealer, dealer=e.dealer, round=e.round, hand=tuple(e.hands[t.seat]),
        opponent_hand_count=len(e.hands[1 - t.seat]), field_slots=_deal(field), captured=((), ()),
        stock_count=len(e.stock), pending=None, choices=(), calls=(0, 0),
        koikoi_refs=((), ()), yaku=((), ()), last_yaku_seat=None, field_brights=brights,
        oyagime_face_down=0, passed=(0, 0))


def _misdeal(t: PublicTable, e: Misdeal) -> PublicTable:
    return t  # the redeal follows as a RoundDealt


def _field_swept(t: PublicTable, e: FieldSwept) -> PublicTable:
    slots = _free(t.field_slots, e.cards)
    for c in e.replacements:
        slots = _join(slots, c)
    return t._replace(field_slots=slots, stock_count=t.stock_count - len(e.replacements),
                      captured=_per_seat(t.captured, e.seat, t.captured[e.seat] + tuple(e.cards)))


def _lucky_hand(t: PublicTable, e: LuckyHand) -> PublicTable:
    return t  # the round ends at once (RoundEnded); the director shows the event itself


def _after_turn(t: PublicTable, seat: int) -> PublicTable:
    """The turn of ``seat`` is over: the other seat plays next while it holds cards.
    (A YakuMade, Exhausted or RoundEnded that follows sets what really comes next.)"""
    return t._replace(phase=PLAY, to_move=1 - seat if t.hand_count(1 - seat) else seat,
                      pending=None, choices=())


def _played(t: PublicTable, e: Played) -> PublicTable:
    seat, card = e.seat, e.card
    t = t._replace(passed=pass_step(t.passed, seat, ID_TO_INDEX[card], bool(e.taken),
                                    _mask(t.field)))
    if seat == t.seat:
        t = t._replace(hand=tuple(c for c in t.hand if c != card))
    else:
        t = t._replace(opponent_hand_count=t.opponent_hand_count - 1)
    if e.taken:
        return t._replace(field_slots=_free(t.field_slots, e.taken), captured=_per_seat(
            t.captured, seat, t.captured[seat] + (card,) + tuple(e.taken)))
    return t._replace(field_slots=_join(t.field_slots, card))


def _flipped(t: PublicTable, e: Flipped) -> PublicTable:
    seat, card = e.seat, e.card
    t = t._replace(stock_count=t.stock_count - 1)
    if e.taken is None:  # two field cards match: the seat chooses
        field = sum(1 << ID_TO_INDEX[c] for c in t.field)
        choices = ids_of(field & CARD_MONTH_MASK[ID_TO_INDEX[card]])
        return t._replace(phase=CHOOSE, to_move=seat, pending=card, choices=choices)
    if e.taken:
        t = t._replace(field_slots=_free(t.field_slots, e.taken), captured=_per_seat(
            t.captured, seat, t.captured[seat] + (card,) + tuple(e.taken)))
    else:
        t = t._replace(field_slots=_join(t.field_slots, card))
    return _after_turn(t, seat)


def _chose(t: PublicTable, e: Chose) -> PublicTable:
    seat = e.seat
    t = t._replace(field_slots=_free(t.field_slots, (e.target,)), captured=_per_seat(
        t.captured, seat, t.captured[seat] + (e.card, e.target)))
    return _after_turn(t, seat)


def _yaku_made(t: PublicTable, e: YakuMade) -> PublicTable:
    # Koi-Koi or Stop next, unless a Stopped(auto) follows at once.
    return t._replace(phase=DECIDE, to_move=e.seat, last_yaku_seat=e.seat,
                      yaku=_per_seat(t.yaku, e.seat, tuple(e.yaku)))


def _koikoi(t: PublicTable, e: KoiKoiCalled) -> PublicTable:
    # The call's reference is what the seat held when it called: its YakuMade just before,
    # valued as after the call (the engine's ref), which differs only where the viewing yaku
    # change their points after a Koi-Koi.
    seat = e.seat
    ref = t.yaku[seat]
    rules = t.rules
    if rules is not None and rules.viewing_after_koikoi is not None:
        pile = sum(1 << ID_TO_INDEX[c] for c in t.captured[seat])
        field = sum(1 << ID_TO_INDEX[c] for c in t.field)
        ref = yaku_points(pile, rules, field, e.calls, round_month(t.round))
    t = t._replace(calls=_per_seat(t.calls, seat, e.calls),
                   koikoi_refs=_per_seat(t.koikoi_refs, seat, ref))
    return _after_turn(t, seat)


def _stopped(t: PublicTable, e: Stopped) -> PublicTable:
    return t  # RoundEnded follows with the award


def _exhausted(t: PublicTable, e: Exhausted) -> PublicTable:
    return t  # RoundEnded follows


def _round_ended(t: PublicTable, e: RoundEnded) -> PublicTable:
    row: LedgerRow = e.row
    # The engine moves the deal on as the round ends (View.dealer is then the next dealer,
    # also after the last round); the next RoundDealt says the same.
    dealer = next_dealer(t.rules, row.dealer, row.winner, row.reason == "exhausted",
                         -1 if t.last_yaku_seat is None else t.last_yaku_seat)
    # Nobody is to move until the next deal (or the match's end) says who.
    return t._replace(ledger=t.ledger + (row,), scores=tuple(row.scores), calls=tuple(row.calls),
                      dealer=dealer, to_move=None, pending=None, choices=())


def _match_ended(t: PublicTable, e: MatchEnded) -> PublicTable:
    return t._replace(phase=OVER, to_move=None, pending=None, choices=(), is_over=True,
                      winner=e.winner, scores=tuple(e.scores))


_FOLDS = {
    MatchStarted: _match_started, OyagimeSpread: _oyagime_spread, OyagimePicked: _oyagime_picked,
    OyagimeDecided: _oyagime_decided, RoundDealt: _round_dealt, Misdeal: _misdeal,
    FieldSwept: _field_swept, LuckyHand: _lucky_hand, Played: _played, Flipped: _flipped,
    Chose: _chose, YakuMade: _yaku_made, KoiKoiCalled: _koikoi, Stopped: _stopped,
    Exhausted: _exhausted, RoundEnded: _round_ended, MatchEnded: _match_ended,
}


# ---------------------------------------------------------------- the public API

def fold(table: PublicTable, event: NamedTuple, seat: Optional[int] = None) -> PublicTable:
    """The table after ``event``, one of ``seat``'s public events (``seat`` defaults to
    ``table.seat`` and must equal it). The raw event gives the same table: the fold never
    reads the cards ``public_event`` hides."""
    if seat is not None and seat != table.seat:
        raise ValueError(f"a table of seat {table.seat} cannot fold seat {seat!r}'s events")
    step = _FOLDS.get(type(event))
    if step is None:
        raise TypeError(f"not a match event: {type(event).__name__}")
    return step(table, event)


def fold_all(events: Iterable[NamedTuple], seat: int,
             table: Optional[PublicTable] = None) -> PublicTable:
    """The table after ``events`` (from the start of the match, or on from ``table``)."""
    t = initial(seat) if table is None else table
    if t.seat != seat:
        raise ValueError(f"a table of seat {t.seat} cannot fold seat {seat!r}'s events")
    folds = _FOLDS
    for e in events:
        step = folds.get(type(e))
        if step is None:
            raise TypeError(f"not a match event: {type(e).__name__}")
        t = step(t, e)
    return t


def tables(events: Iterable[NamedTuple], seat: int,
           table: Optional[PublicTable] = None) -> Iterator[PublicTable]:
    """The table after each event in turn: one table per event (the replay viewer's
    frames; zip them with the events for (event, table) pairs)."""
    t = initial(seat) if table is None else table
    if t.seat != seat:
        raise ValueError(f"a table of seat {t.seat} cannot fold seat {seat!r}'s events")
    for e in events:
        t = fold(t, e)
        yield t
