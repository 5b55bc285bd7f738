"""The match as a pure reducer: ``apply(state, action) -> state``.

``State`` is an immutable NamedTuple of small ints, bitmasks and tuples. The
general reducer ``reference_apply`` copies it into a mutable draft, runs the turn
(and whatever the rules then make happen: stock flip, settlement, the next deal,
the end of the match), records every step as an event, and freezes a new State.
``apply`` builds the common turns (a Play, a ChooseMatch, a Koi-Koi call that leave
the round going) directly as a new State instead, and hands over to the draft where
the round ends; a test checks that ``apply`` and ``reference_apply`` always agree.
Chance comes only from a hash of ``f"{seed}/{draw}"``, never the global ``random``,
or from the decks ``new_match`` was given for the first deals (recorded in
MatchStarted); the shuffled decks are also written into the events, so a log is
readable on its own and ``replay`` can check it card by card.
"""

from __future__ import annotations

import hashlib
import struct
from operator import itemgetter
from typing import NamedTuple, Optional, Sequence

from . import cards as C
from .actions import Action, ChooseMatch, KoiKoi, PickOyagime, Play, Stop, describe
from .cards import CARD_MONTH_MASK, DECK, ID_TO_INDEX, IDS, ids_of, indices
from .events import (DECKS_MAX, Chose, Exhausted, FieldSwept, Flipped, KoiKoiCalled, LedgerRow,
                     LuckyHand, MatchEnded, MatchStarted, Misdeal, OyagimeDecided, OyagimePicked,
                     OyagimeSpread, Played, RoundDealt, RoundEnded, Stopped, YakuMade)
from .phase import PHASES, Phase  # noqa: F401  (Phase: re-exported for callers)
from .rules import Rules
from .scoring import award_from_mask, improved, next_dealer, paid, yaku_points

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
    events: tuple            # the whole log

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

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
         self.spread, self.picks, self.winner, self.events) = s
        self.hands = list(hands)
        self.captured = list(captured)
        self.new = []

    def freeze(self) -> State:
        return _new(State, (
            self.rules, self.seed, self.months, self.phase, self.to_move, self.dealer,
            self.draws, self.decks, tuple(self.hands), self.field, self.stock, self.stock_pos,
            tuple(self.captured), self.calls, self.refs, self.pending, self.field_brights,
            self.last_yaku_seat, self.scores, self.ledger, self.spread, self.picks,
            self.winner, self.events + tuple(self.new)))


_KEYS = struct.Struct("<48Q").unpack


def _draw_keys(d: _Draft) -> tuple:
    """48 random 64-bit keys for draw number ``d.draws`` of this match's seed.

    SHAKE-256 of "seed/draw" is a deterministic, platform-independent stream: the same
    seed gives the same deals on every machine and Python version, with no global state.
    """
    keys = _KEYS(hashlib.shake_256(b"%d/%d" % (d.seed, d.draws)).digest(384))
    d.draws += 1
    return keys


def _shuffled(keys: tuple) -> list:
    """The deck in the order of its random keys: a uniform shuffle."""
    # (A list's bound __getitem__ is a cheaper key function than a tuple's.)
    return sorted(range(48), key=list(keys).__getitem__)


# Lists, not tuples: ``map(a_list.__getitem__, ...)`` is the faster lookup.
_BIT = [1 << i for i in range(48)]
_ID = list(IDS)
_INDEX = ID_TO_INDEX.get
_SHIFT = tuple(4 * (c // 4) for c in range(48))   # card index -> the shift of its month's nibble
# The ids of any cards of one month, by mask: what a capture takes (one lookup, no arithmetic).
_TAKEN = {bits << (4 * mo): ids_of(bits << (4 * mo)) for mo in range(12) for bits in range(16)}


def _mask(idx) -> int:
    return sum(map(_BIT.__getitem__, idx))


def _stock_ids(stock: tuple) -> tuple:
    """The ids of the 24 cards of a freshly dealt stock, in order."""
    return itemgetter(*stock)(_ID)


# ---------------------------------------------------------------- starting

def new_match(rules: Rules, *, seed: int, months: Optional[int] = None,
              decks: Sequence[Sequence[str]] = (), first_dealer: Optional[int] = None) -> State:
    """A new match, waiting for the oya-gime picks (seat 0 first), or, with ``first_dealer``,
    dealt and waiting for that seat's first play.

    ``seed`` decides every shuffle. ``months`` defaults to ``rules.months``.

    ``decks`` sets the first deals instead (scripted lessons, tests, a deal recorded
    elsewhere): a list of decks, each a list of the 48 card ids ("09-A") once, in deal
    order: ``deck[0:8]`` the dealer's hand, ``deck[8:16]`` the other seat's, ``deck[16:24]``
    the field, ``deck[24:]`` the stock, top card first (the hands and the field are sets:
    RoundDealt lists them in deck order, whatever their order here). The first ``len(decks)``
    deals use them in turn; every deal counts, so a misdeal's redeal takes the next deck
    (a round that ends at the deal, on a lucky hand, is a deal too). Later deals, and the
    oya-gime spreads, come from the seed; a set deck uses up the draw the seed would have
    dealt there, so the deals after it are the seed's own.

    ``first_dealer`` (0 or 1) skips the oya-gime: no spread is drawn and that seat deals
    the first round at once (no rule knob does this: without it the oya-gime is played).

    Both are recorded in the MatchStarted event, so ``replay(state.events)`` and the JSON
    codec reproduce the match; ``public_event`` hides the decks' cards from both seats.
    Raises TypeError for ``rules`` or ``seed`` of the wrong type, ValueError for a bad
    ``months``, ``first_dealer`` or deck (not a list of 48 card ids, an unknown id, a card
    twice, more than DECKS_MAX decks).
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, not {type(rules).__name__}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {seed!r}")
    if months is None:
        months = rules.months
    if months is not None and (not isinstance(months, int) or months < 1):
        raise ValueError(f"months must be a whole number >= 1, not {months!r}")
    if months is None and rules.target_points is None and rules.scoring_mode != "zero_sum":
        raise ValueError("a match without a number of months needs target_points or zero_sum scoring")
    if first_dealer is not None and (type(first_dealer) is not int or first_dealer not in (0, 1)):
        raise ValueError(f"first_dealer must be a seat, 0 or 1, or None, not {first_dealer!r}")
    recorded, order = _set_decks(decks)
    start = rules.starting_points if rules.scoring_mode == "zero_sum" else 0
    d = _Draft(State(rules, seed, months, OYAGIME, 0, None, 0, order, (0, 0), 0, (), 0, (0, 0),
                     (0, 0), ((), ()), -1, 0, -1, (start, start), (), (), (), None, ()))
    d.new.append(MatchStarted(rules, seed, months, recorded, first_dealer))
    if first_dealer is None:
        _oyagime_spread(d)
    else:
        d.dealer = first_dealer
        _start_round(d)
    return d.freeze()


def _set_decks(decks) -> tuple:
    """The decks given to ``new_match``, checked: (their ids as MatchStarted records them,
    their card indices as State.decks holds them)."""
    if type(decks) is not list and type(decks) is not tuple:
        raise ValueError(f"decks must be a list of decks (each a list of 48 card ids), "
                         f"not {type(decks).__name__}")
    if len(decks) > DECKS_MAX:
        raise ValueError(f"at most {DECKS_MAX} decks can be set, not {len(decks)}")
    recorded, order = [], []
    for i, deck in enumerate(decks):
        if type(deck) is not list and type(deck) is not tuple:
            raise ValueError(f"deck {i} must be a list of the 48 card ids, not {type(deck).__name__}"
                             + (" (decks is a list of decks: [deck] sets one)"
                                if type(deck) is str else ""))
        if len(deck) != 48:
            raise ValueError(f"deck {i} has {len(deck)} cards; a deck is all 48 card ids")
        for j, c in enumerate(deck):
            if type(c) is not str or c not in ID_TO_INDEX:
                raise ValueError(f"deck {i}, card {j}: {c!r} is not a card id (such as \"09-A\")")
        if len(set(deck)) != 48:
            twice = sorted({c for c in deck if deck.count(c) > 1}, key=ID_TO_INDEX.__getitem__)
            raise ValueError(f"deck {i} holds {', '.join(twice)} more than once "
                             f"(and so lacks {', '.join(c for c in IDS if c not in deck)})")
        recorded.append(tuple(deck))
        order.append(tuple(map(ID_TO_INDEX.__getitem__, deck)))
    return tuple(recorded), tuple(order)


def _oyagime_spread(d: _Draft) -> None:
    d.spread = tuple(_shuffled(_draw_keys(d))[:4])
    d.picks = ()
    d.phase, d.to_move = OYAGIME, 0
    d.new.append(OyagimeSpread(ids_of_list(d.spread)))


def ids_of_list(idx) -> tuple:
    return tuple(map(_ID.__getitem__, idx))


def _oyagime_pick(d: _Draft, index: int) -> None:
    seat = d.to_move
    c = d.spread[index]
    d.picks = d.picks + ((seat, index, c),)
    d.new.append(OyagimePicked(seat, index, IDS[c]))
    if seat == 0:
        d.to_move = 1
        return
    a, b = DECK[d.picks[0][2]], DECK[d.picks[1][2]]
    shown = (a.id, b.id)
    if a.month != b.month:
        dealer, reason = (0 if a.month < b.month else 1), "earlier_month"
    elif d.rules.oyagime_tie == "kind" and a.kind != b.kind:
        dealer, reason = (0 if a.kind > b.kind else 1), "higher_kind"
    else:
        d.new.append(OyagimeDecided(None, shown, "same_month_redraw"))
        _oyagime_spread(d)
        return
    d.new.append(OyagimeDecided(dealer, shown, reason))
    d.spread = ()
    d.dealer = dealer
    _start_round(d)


# ---------------------------------------------------------------- dealing

_LOW = sum(1 << (4 * m) for m in range(24))  # the lowest card bit of every month (of two masks)
_ALL = C.ALL


def _full_months(mask: int) -> int:
    """One bit (at the month's lowest card) per month whose four cards are all in ``mask``
    (which may also be two masks side by side, ``a | b << 48``)."""
    return mask & mask >> 1 & mask >> 2 & mask >> 3 & _LOW


def _odd_months(mask: int) -> int:
    """One bit per month held an odd number of times."""
    return (mask ^ mask >> 1 ^ mask >> 2 ^ mask >> 3) & _LOW


def _lucky(hand: int) -> tuple:
    names = ()
    if _full_months(hand):
        names += ("teshi",)
    # Four pairs: every month held an even number of times (a teshi month is two pairs) *(chosen)*.
    if not _odd_months(hand):
        names += ("kuttsuki",)
    return names


def _four_pairs(field: int) -> bool:
    # Eight cards, every month even and none complete: exactly four months of two.
    return not _odd_months(field) and not _full_months(field)


def _three_of_a_month(field: int) -> int:
    """The cards of the first month of which ``field`` holds exactly three, or 0."""
    for mo in range(12):
        m = field >> (4 * mo) & 15
        if m.bit_count() == 3:
            return m << (4 * mo)
    return 0


def _start_round(d: _Draft) -> None:
    rules = d.rules
    round_no = len(d.ledger) + 1
    new = d.new
    bit = _BIT.__getitem__
    while True:
        if d.decks:
            # A deck set by new_match: it stands for this draw of the seed.
            deck = d.decks[0]
            d.decks = d.decks[1:]
            d.draws += 1
        else:
            deck = _shuffled(_draw_keys(d))
        dealer = d.dealer
        hands = [0, 0]
        hands[dealer] = sum(map(bit, deck[0:8]))
        hands[1 - dealer] = sum(map(bit, deck[8:16]))
        d.hands = hands
        d.field = field = sum(map(bit, deck[16:24]))
        d.stock = stock = tuple(deck[24:])
        d.stock_pos = 0
        d.captured = [0, 0]
        d.calls = (0, 0)
        d.refs = ((), ())
        d.pending = -1
        # The brights of the field as dealt: a sweep below leaves the count as it is
        # (see Rules.field_brights_multiplier).
        d.field_brights = (field & C.BRIGHTS).bit_count()
        d.last_yaku_seat = -1
        new.append(_new(RoundDealt, (round_no, dealer, (ids_of(hands[0]), ids_of(hands[1])),
                                     ids_of(field), _stock_ids(stock), "round_dealt")))

        redeal = False
        while True:
            full = _full_months(d.field)
            if not full:
                break
            four = 0xF << ((full & -full).bit_length() - 1)
            mode = rules.field_four_of_month
            if mode == "redeal" or (mode == "dealer_sweeps" and len(d.stock) - d.stock_pos - 4 < 16):
                new.append(Misdeal(round_no, "four_of_a_month", ids_of(four)))
                redeal = True
                break
            if mode == "dealer_wins":
                d.phase = PLAY
                _end_round(d, dealer, "field_four",
                           (("field_four", rules.lucky_points, ids_of(four)),),
                           rules.lucky_points, (), rules.lucky_points)
                return
            repl = d.stock[d.stock_pos:d.stock_pos + 4]
            d.stock_pos += 4
            d.captured[dealer] |= four
            d.field = (d.field ^ four) | _mask(repl)
            new.append(FieldSwept(dealer, ids_of(four), ids_of_list(repl)))
        if redeal:
            continue
        if rules.field_four_pairs == "redeal" and _four_pairs(d.field):
            new.append(Misdeal(round_no, "four_pairs", ids_of(d.field)))
            continue
        if rules.field_three_of_month == "redeal":
            three = _three_of_a_month(d.field)
            if three:
                new.append(Misdeal(round_no, "three_of_a_month", ids_of(three)))
                continue

        if rules.lucky_hands != "off":
            h0, h1 = hands
            # A lucky hand holds a month complete, or no month an odd number of times. Both
            # hands at once: seat 1's cards in the 48 bits above seat 0's.
            x = h0 | h1 << 48
            odd = _odd_months(x)
            if _full_months(x) or not odd & _ALL or not odd >> 48:
                lucky = (_lucky(h0), _lucky(h1))
                if rules.lucky_hands == "misdeal":
                    seat = 0 if lucky[0] else 1
                    new.append(Misdeal(round_no, "lucky_hand", ids_of(hands[seat])))
                    continue
                _lucky_round(d, lucky)
                return
        break
    d.phase = PLAY
    d.to_move = d.dealer


def _lucky_round(d: _Draft, lucky: tuple) -> None:
    rules = d.rules
    points = [0, 0]
    for seat in (0, 1):
        if lucky[seat]:
            points[seat] = rules.lucky_both_hands_points if len(lucky[seat]) == 2 else rules.lucky_points
            d.new.append(LuckyHand(seat, lucky[seat], points[seat], ids_of(d.hands[seat])))
    d.phase = PLAY
    if lucky[0] and lucky[1]:
        if rules.lucky_both_players == "draw":
            _end_round(d, None, "lucky_draw", (), 0, (), 0)
            return
        winner = d.dealer
    else:
        winner = 0 if lucky[0] else 1
    name = "_".join(lucky[winner])
    _end_round(d, winner, "lucky_hand", ((name, points[winner], ids_of(d.hands[winner])),),
               points[winner], (), points[winner])


# ---------------------------------------------------------------- turns

def _take(d: _Draft, seat: int, c: int, target: int) -> tuple:
    """Match card ``c`` against the field; returns the field cards taken."""
    bit = 1 << c
    m = d.field & CARD_MONTH_MASK[c]
    if not m:
        d.field |= bit
        return ()
    if target >= 0:
        m = 1 << target
    d.field ^= m
    d.captured[seat] |= bit | m
    return ids_of(m)


def _play(d: _Draft, card: int, target: int) -> None:
    seat = d.to_move
    d.hands[seat] ^= 1 << card
    taken = _take(d, seat, card, target)
    d.new.append(Played(seat, IDS[card], IDS[target] if target >= 0 else None, taken))
    s = d.stock[d.stock_pos]
    d.stock_pos += 1
    if (d.field & CARD_MONTH_MASK[s]).bit_count() == 2:
        d.pending = s
        d.phase = CHOOSE
        d.new.append(Flipped(seat, IDS[s], None))
        return
    d.new.append(Flipped(seat, IDS[s], _take(d, seat, s, -1)))
    _end_turn(d, seat)


def _choose(d: _Draft, target: int) -> None:
    seat = d.to_move
    s = d.pending
    _take(d, seat, s, target)
    d.pending = -1
    d.new.append(Chose(seat, IDS[s], IDS[target]))
    _end_turn(d, seat)


_POINTS = itemgetter(1)


def _end_turn(d: _Draft, seat: int) -> None:
    rules = d.rules
    now = yaku_points(d.captured[seat], rules, d.field, d.calls[seat], len(d.ledger) % 12 + 1)
    if now and improved(rules, now, d.refs[seat]):
        _yaku_made(d, seat, now)
        return
    _next_turn(d, seat)


def _yaku_made(d: _Draft, seat: int, now: tuple) -> None:
    """``seat`` has just formed or improved a yaku (``now``): Koi-Koi or Stop, or the rules stop."""
    d.new.append(_new(YakuMade, (seat, now, sum(map(_POINTS, now)), "yaku_made")))
    d.last_yaku_seat = seat
    if _auto_stop(d.rules, d.hands, seat, d.calls):
        d.new.append(Stopped(seat, True))
        _settle(d, seat, "auto_stop")
    else:
        d.phase = DECIDE
        d.to_move = seat


def _auto_stop(rules: Rules, hands, seat: int, calls: tuple) -> bool:
    """Whether the rules stop the round for ``seat``, who has just made a yaku."""
    if rules.last_turn_auto_stop == "both_hands_empty":
        last = not (hands[0] | hands[1])
    else:
        last = not hands[seat]
    limit = rules.max_koikoi_calls
    return last or (limit is not None and calls[0] + calls[1] >= limit)


def _next_turn(d: _Draft, seat: int) -> None:
    if not (d.hands[0] | d.hands[1]):
        _exhausted(d)
        return
    d.phase = PLAY
    d.to_move = 1 - seat if d.hands[1 - seat] else seat


def _koikoi(d: _Draft) -> None:
    seat = d.to_move
    calls = list(d.calls)
    calls[seat] += 1
    d.calls = tuple(calls)
    refs = list(d.refs)
    refs[seat] = yaku_points(d.captured[seat], d.rules, d.field, calls[seat], len(d.ledger) % 12 + 1)
    d.refs = tuple(refs)
    d.new.append(KoiKoiCalled(seat, calls[seat]))
    _next_turn(d, seat)


def _settle(d: _Draft, seat: int, reason: str) -> None:
    a = award_from_mask(d.captured[seat], d.rules, d.calls[seat], d.calls[1 - seat],
                        d.field_brights, d.field, len(d.ledger) % 12 + 1)
    _end_round(d, seat, reason, a.yaku, a.base, a.multipliers, a.total)


def _exhausted(d: _Draft) -> None:
    d.new.append(Exhausted(len(d.ledger) + 1))
    pay = d.rules.oya_ken
    if pay:
        _end_round(d, d.dealer, "exhausted", (("oya_ken", pay, ()),), pay, (), pay)
    else:
        _end_round(d, None, "exhausted", (), 0, (), 0)


def _end_round(d: _Draft, winner: Optional[int], reason: str, yaku: tuple, base: int,
               mults: tuple, award: int) -> None:
    rules = d.rules
    scores = d.scores
    if winner is not None and award:
        scores = paid(scores, winner, award, rules)
    d.scores = scores = tuple(scores)
    ledger = d.ledger
    row = _new(LedgerRow, (len(ledger) + 1, d.dealer, winner, reason, yaku, base, mults, award,
                           scores, d.calls))
    d.ledger = ledger = ledger + (row,)
    captured = d.captured
    d.new.append(_new(RoundEnded, (row, (ids_of(captured[0]), ids_of(captured[1])), "round_ended")))

    d.dealer = next_dealer(rules, d.dealer, winner, reason == "exhausted", d.last_yaku_seat)

    played = len(ledger)
    over = ((d.months is not None and played >= d.months)
            or (rules.target_points is not None and max(scores) >= rules.target_points)
            or (rules.scoring_mode == "zero_sum" and min(scores) <= 0))
    if over:
        d.phase = OVER
        d.to_move = None
        d.pending = -1
        d.winner = 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else None
        d.new.append(MatchEnded(d.winner, d.scores))
        return
    _start_round(d)


# ---------------------------------------------------------------- the public API

_PLAY = tuple(Play(IDS[c]) for c in range(48))
_PLAY_TARGET = tuple(tuple(Play(IDS[c], IDS[t]) for t in range(48)) for c in range(48))
_CHOOSE = tuple(ChooseMatch(IDS[t]) for t in range(48))
_PICK = tuple(PickOyagime(i) for i in range(4))
_DECIDE = (Stop(), KoiKoi())


def _month_table() -> tuple:
    """For month ``mo``, hand bits ``h`` and field bits ``f`` of that month (4 bits each),
    ``table[mo * 256 + h * 16 + f]`` is (the Plays of those hand cards, whether they match)."""
    table = []
    for mo in range(12):
        for h in range(16):
            for f in range(16):
                acts = []
                targets = [4 * mo + j for j in range(4) if f >> j & 1]
                for j in range(4):
                    if h >> j & 1:
                        c = 4 * mo + j
                        if len(targets) == 2:
                            acts.extend(_PLAY_TARGET[c][t] for t in targets)
                        else:
                            acts.append(_PLAY[c])
                table.append((tuple(acts), bool(targets)))
    return tuple(table)


_BY_MONTH = _month_table()
_ACTS_BY_MONTH = tuple(acts for acts, _ in _BY_MONTH)
_MONTH_LOW_BITS = sum(1 << (4 * m) for m in range(12))


# _PAIR_p[hand byte | field byte << 8]: the Plays of months 2p and 2p + 1 (byte p of the
# masks). Of the 65,536 keys only the 3**8 whose hand and field bytes are disjoint can
# occur. The entries are filled on first use, a hand byte's row at once (None until then).
# Lists, not dicts: the hot path indexes them.
_PAIRS = _PAIR_0, _PAIR_1, _PAIR_2, _PAIR_3, _PAIR_4, _PAIR_5 = tuple(
    [None] * 65536 for _ in range(6))


def _fill_pairs(hand: bytes, field: bytes) -> None:
    """Fill the entries of _PAIRS that these hand and field bytes look up: for each hand
    byte, its whole row (every field byte that shares no card with it)."""
    for p, (table, h, f) in enumerate(zip(_PAIRS, hand, field)):
        if h and table[h | f << 8] is None:
            lo = (2 * p) << 8 | (h & 15) << 4
            hi = (2 * p + 1) << 8 | (h >> 4) << 4
            # The row, and the asked entry itself (a hand and field that overlap cannot
            # come from play, but a hand-built State may have them).
            free = 255 ^ h
            for g in {f, *_submasks(free)}:
                table[h | g << 8] = _ACTS_BY_MONTH[lo | (g & 15)] + _ACTS_BY_MONTH[hi | (g >> 4)]


def _submasks(bits: int) -> list:
    out = [bits]
    sub = bits
    while sub:
        sub = (sub - 1) & bits
        out.append(sub)
    return out


# _CHOOSE_BY_MONTH[month * 16 + field bits of that month]: the ChooseMatch of those cards.
_CHOOSE_BY_MONTH = tuple(tuple(_CHOOSE[4 * mo + j] for j in range(4) if f >> j & 1)
                         for mo in range(12) for f in range(16))


def legal_actions(state: State) -> Optional[tuple]:
    """The actions open to ``state.to_move``; None when the match is over."""
    phase = state.phase
    if phase == PLAY:
        hand = state.hands[state.to_move]
        field = state.field
        if not state.rules.must_play_match:
            h = hand.to_bytes(6, "little")
            f = field.to_bytes(6, "little")
            out = ()
            try:
                # Two months a step, unrolled. An entry not filled yet is None: adding it raises.
                if h[0]:
                    out += _PAIR_0[h[0] | f[0] << 8]
                if h[1]:
                    out += _PAIR_1[h[1] | f[1] << 8]
                if h[2]:
                    out += _PAIR_2[h[2] | f[2] << 8]
                if h[3]:
                    out += _PAIR_3[h[3] | f[3] << 8]
                if h[4]:
                    out += _PAIR_4[h[4] | f[4] << 8]
                if h[5]:
                    out += _PAIR_5[h[5] | f[5] << 8]
            except TypeError:
                _fill_pairs(h, f)
                return legal_actions(state)
            return out
        # One bit per month the hand holds, at the month's lowest card.
        months = (hand | hand >> 1 | hand >> 2 | hand >> 3) & _MONTH_LOW_BITS
        out = ()
        matching = ()
        while months:
            low = months & -months
            months ^= low
            sh = low.bit_length() - 1
            acts, match = _BY_MONTH[(sh << 6) | ((hand >> sh & 15) << 4) | (field >> sh & 15)]
            out += acts
            if match:
                matching += acts
        return matching or out
    if phase == CHOOSE:
        sh = _SHIFT[state.pending]
        return _CHOOSE_BY_MONTH[(sh << 2) | (state.field >> sh & 15)]
    if phase == DECIDE:
        return _DECIDE
    if phase == OYAGIME:
        base = 2 * state.to_move
        return (_PICK[base], _PICK[base + 1])
    return None


def _is_legal(state: State, action) -> bool:
    """``action in legal_actions(state)``, answered without building the list."""
    phase = state.phase
    kind = type(action)
    if phase == PLAY:
        if kind is not Play:
            return False
        c = ID_TO_INDEX.get(action.card) if type(action.card) is str else None
        hand = state.hands[state.to_move]
        if c is None or not hand >> c & 1:
            return False
        m = state.field & CARD_MONTH_MASK[c]
        target = action.target
        if m.bit_count() == 2:
            t = ID_TO_INDEX.get(target) if type(target) is str else None
            if t is None or not m >> t & 1:
                return False
        elif target is not None:
            return False
        if not m and state.rules.must_play_match:
            field = state.field
            return not any(field & CARD_MONTH_MASK[i] for i in indices(hand))
        return True
    if phase == CHOOSE:
        if kind is not ChooseMatch or type(action.target) is not str:
            return False
        t = ID_TO_INDEX.get(action.target)
        return t is not None and bool((state.field & CARD_MONTH_MASK[state.pending]) >> t & 1)
    if phase == DECIDE:
        return kind is Stop or kind is KoiKoi
    if phase == OYAGIME:
        return (kind is PickOyagime and type(action.index) is int
                and action.index // 2 == state.to_move and 0 <= action.index < 4)
    return False


def _explain(state: State, action) -> str:
    if state.phase == OVER:
        return f"cannot {_say(action)}: the match is over"
    seat = state.to_move
    phase = PHASE_NAMES[state.phase]
    if state.phase == PLAY and isinstance(action, Play):
        c = ID_TO_INDEX.get(action.card)
        if c is None:
            return f"{action.card!r} is not a card id"
        if not state.hands[seat] >> c & 1:
            return f"{action.card} is not in seat {seat}'s hand"
        m = state.field & CARD_MONTH_MASK[c]
        if m.bit_count() == 2:
            if action.target is None:
                return f"two field cards match {action.card} ({', '.join(ids_of(m))}): say which to take"
            return f"{action.target} is not one of the field cards matching {action.card} ({', '.join(ids_of(m))})"
        if action.target is not None:
            return f"{action.card} has no choice to make: leave target empty"
        return f"{action.card} cannot be played while a matching card is held (must_play_match)"
    if state.phase == CHOOSE and isinstance(action, ChooseMatch):
        m = state.field & CARD_MONTH_MASK[state.pending]
        return (f"{action.target} is not a field card matching the stock card {IDS[state.pending]} "
                f"(choose {' or '.join(ids_of(m))})")
    if state.phase == OYAGIME and isinstance(action, PickOyagime):
        return f"seat {seat} picks oya-gime card {2 * seat} or {2 * seat + 1}, not {action.index!r}"
    wanted = {PLAY: "a Play of a hand card", CHOOSE: "a ChooseMatch of the stock card's match",
              DECIDE: "KoiKoi or Stop", OYAGIME: "a PickOyagime"}[state.phase]
    return f"cannot {_say(action)} now: seat {seat} is in the {phase} phase and needs {wanted}"


def _say(action) -> str:
    try:
        return describe(action)
    except Exception:  # anything at all may arrive from outside
        return repr(action)


def _apply_play(state: State, action: Play) -> State:
    """A Play, computed directly on the State's fields: the hot path.

    A turn that leaves the round going (to the next player, to a choice of match for the
    stock card, or to a Koi-Koi decision) is built here in one step. A turn that ends the
    round (the rules stop it, or the last cards were played) continues in a draft with the
    general reducer's helpers from where this left off, so nothing is computed twice. An
    illegal Play goes to ``reference_apply``, which raises; it is also the reference that a
    test checks this against (both must give the same State)."""
    (rules, seed, months, phase, seat, dealer, draws, decks, hands, field, stock, stock_pos,
     captured, calls, refs, pending, field_brights, last_yaku_seat, scores, ledger, spread, picks,
     winner, events) = state
    card = action.card
    c = _INDEX(card) if type(card) is str else None
    hand = hands[seat]
    if c is None or not hand & _BIT[c]:
        return reference_apply(state, action)  # raises IllegalAction
    bit = _BIT[c]
    m = field & CARD_MONTH_MASK[c]
    target = action.target
    if m.bit_count() == 2:
        t = _INDEX(target) if type(target) is str else None
        if t is None or not m & _BIT[t]:
            return reference_apply(state, action)  # raises IllegalAction
        m = _BIT[t]
    elif target is not None or (not m and rules.must_play_match and not _is_legal(state, action)):
        return reference_apply(state, action)  # raises IllegalAction
    hand ^= bit
    cap = before = captured[seat]
    if m:
        field ^= m
        cap |= bit | m
        played = _new(Played, (seat, card, target, _TAKEN[m], "played"))
    else:
        field |= bit
        played = _new(Played, (seat, card, target, (), "played"))
    other = hands[1 - seat]
    new_hands = (other, hand) if seat else (hand, other)
    s = stock[stock_pos]
    sm = field & CARD_MONTH_MASK[s]
    if sm.bit_count() == 2:
        # Two field cards match the stock card: the seat chooses next.
        return _new(State, (
            rules, seed, months, CHOOSE, seat, dealer, draws, decks, new_hands, field, stock,
            stock_pos + 1, (captured[0], cap) if seat else (cap, captured[1]), calls, refs, s,
            field_brights, last_yaku_seat, scores, ledger, spread, picks, winner,
            events + (played, _new(Flipped, (seat, IDS[s], None, "flipped")))))
    if sm:
        field ^= sm
        cap |= _BIT[s] | sm
        flipped = _new(Flipped, (seat, IDS[s], _TAKEN[sm], "flipped"))
    else:
        field |= _BIT[s]
        flipped = _new(Flipped, (seat, IDS[s], (), "flipped"))
    new_cap = (captured[0], cap) if seat else (cap, captured[1])
    # A turn that captured nothing leaves the pile's yaku as they were (under the weather
    # ruling the field alone can change them, so that case takes the full check).
    now = ()
    if cap != before or rules.weather:
        now = yaku_points(cap, rules, field, calls[seat], len(ledger) % 12 + 1)
        if now and not improved(rules, now, refs[seat]):
            now = ()
    if now and not _auto_stop(rules, new_hands, seat, calls):
        # A yaku made: the seat decides between Koi-Koi and Stop.
        return _new(State, (
            rules, seed, months, DECIDE, seat, dealer, draws, decks, new_hands, field, stock,
            stock_pos + 1, new_cap, calls, refs, -1, field_brights, seat, scores, ledger, spread,
            picks, winner, events + (played, flipped, _new(YakuMade, (
                seat, now, sum(map(_POINTS, now)), "yaku_made")))))
    if now or not (hand | other):
        # The rules stop the round, or the last cards were played: the rest in a draft.
        d = _Draft(_new(State, (
            rules, seed, months, PLAY, seat, dealer, draws, decks, new_hands, field, stock,
            stock_pos + 1, new_cap, calls, refs, -1, field_brights, last_yaku_seat, scores,
            ledger, spread, picks, winner, events)))
        d.new += (played, flipped)
        return _finish_in_draft(d, seat, now)
    # tuple.__new__ skips the NamedTuples' Python-level __new__: this is the hot path.
    return _new(State, (
        rules, seed, months, PLAY, (1 - seat) if other else seat, dealer, draws, decks, new_hands,
        field, stock, stock_pos + 1, new_cap, calls, refs, -1, field_brights, last_yaku_seat,
        scores, ledger, spread, picks, winner, events + (played, flipped)))


def _finish_in_draft(d: _Draft, seat: int, now: tuple) -> State:
    """The fast paths' hand-over: ``seat`` made the yaku ``now`` (on which the rules stop
    the round), or, with ``now`` empty, the last cards are played; the draft does the rest."""
    if now:
        _yaku_made(d, seat, now)
    else:
        _exhausted(d)
    return d.freeze()


def _apply_choose(state: State, action: ChooseMatch) -> State:
    """A ChooseMatch computed directly, like ``_apply_play``."""
    (rules, seed, months, phase, seat, dealer, draws, decks, hands, field, stock, stock_pos,
     captured, calls, refs, s, field_brights, last_yaku_seat, scores, ledger, spread, picks,
     winner, events) = state
    target = action.target
    t = ID_TO_INDEX.get(target) if type(target) is str else None
    if t is None or not (field & CARD_MONTH_MASK[s]) >> t & 1:
        return reference_apply(state, action)  # raises IllegalAction
    tb = 1 << t
    field ^= tb
    cap = captured[seat] | (1 << s) | tb
    new_cap = (captured[0], cap) if seat else (cap, captured[1])
    chose = _new(Chose, (seat, IDS[s], IDS[t], "chose"))
    now = yaku_points(cap, rules, field, calls[seat], len(ledger) % 12 + 1)
    if now and not improved(rules, now, refs[seat]):
        now = ()
    if now and not _auto_stop(rules, hands, seat, calls):
        return _new(State, (
            rules, seed, months, DECIDE, seat, dealer, draws, decks, hands, field, stock, stock_pos,
            new_cap, calls, refs, -1, field_brights, seat, scores, ledger, spread, picks, winner,
            events + (chose, _new(YakuMade, (seat, now, sum(map(_POINTS, now)), "yaku_made")))))
    if now or not (hands[0] | hands[1]):
        d = _Draft(state)
        d.field = field
        d.captured = list(new_cap)
        d.pending = -1
        d.new.append(chose)
        return _finish_in_draft(d, seat, now)
    return _new(State, (
        rules, seed, months, PLAY, (1 - seat) if hands[1 - seat] else seat, dealer, draws, decks,
        hands, field, stock, stock_pos, new_cap, calls, refs, -1, field_brights, last_yaku_seat,
        scores, ledger, spread, picks, winner, events + (chose,)))


def _apply_koikoi(state: State) -> State:
    """A KoiKoi call computed directly, like ``_apply_play``."""
    (rules, seed, months, phase, seat, dealer, draws, decks, hands, field, stock, stock_pos,
     captured, calls, refs, pending, field_brights, last_yaku_seat, scores, ledger, spread, picks,
     winner, events) = state
    other = hands[1 - seat]
    if not (hands[seat] | other):
        return reference_apply(state, KoiKoi())
    n = calls[seat] + 1
    ref = yaku_points(captured[seat], rules, field, n, len(ledger) % 12 + 1)
    if seat:
        calls, refs = (calls[0], n), (refs[0], ref)
    else:
        calls, refs = (n, calls[1]), (ref, refs[1])
    return _new(State, (
        rules, seed, months, PLAY, (1 - seat) if other else seat, dealer, draws, decks, hands,
        field, stock, stock_pos, captured, calls, refs, pending, field_brights, last_yaku_seat,
        scores, ledger, spread, picks, winner,
        events + (_new(KoiKoiCalled, (seat, n, "koikoi")),)))


def apply(state: State, action: Action) -> State:
    """The state after ``action``. Raises IllegalAction (state untouched) if it is not legal."""
    kind = type(action)
    phase = state.phase
    if phase == PLAY:
        if kind is Play:
            return _apply_play(state, action)
    elif phase == CHOOSE:
        if kind is ChooseMatch:
            return _apply_choose(state, action)
    elif phase == DECIDE and kind is KoiKoi:
        return _apply_koikoi(state)
    return reference_apply(state, action)


def reference_apply(state: State, action: Action) -> State:
    """The general reducer: every action, every rule, through a mutable draft.

    ``apply`` gives the same State for every action (a test checks it on random play),
    faster: it builds the common turns directly and hands the rest to this. Use ``apply``;
    this is public as the reference that ``apply``'s fast paths are tested against."""
    if not _is_legal(state, action):
        raise IllegalAction(_explain(state, action))
    d = _Draft(state)
    phase = state.phase
    if phase == PLAY:
        _play(d, ID_TO_INDEX[action.card], ID_TO_INDEX[action.target] if action.target else -1)
    elif phase == CHOOSE:
        _choose(d, ID_TO_INDEX[action.target])
    elif phase == DECIDE:
        if isinstance(action, Stop):
            d.new.append(Stopped(d.to_move, False))
            _settle(d, d.to_move, "stop")
        else:
            _koikoi(d)
    else:
        _oyagime_pick(d, action.index)
    return d.freeze()


def action_of(event) -> Optional[Action]:
    """The action a player took to cause ``event``, or None for events the rules caused."""
    if isinstance(event, Played):
        return Play(event.card, event.target)
    if isinstance(event, Chose):
        return ChooseMatch(event.target)
    if isinstance(event, KoiKoiCalled):
        return KoiKoi()
    if isinstance(event, Stopped):
        return None if event.auto else Stop()
    if isinstance(event, OyagimePicked):
        return PickOyagime(event.index)
    return None


def walk(events):
    """Each player's action in the log with the state it was taken in, checking every
    event against the rules: yields (event index, state, action), then, at the end of the
    log, (its length, the final state, None).

    Raises ReplayError naming the first event the rules do not reproduce.
    """
    events = tuple(events)
    if not events or not isinstance(events[0], MatchStarted):
        raise ReplayError("a match log starts with a match_started event")
    first = events[0]
    try:
        state = new_match(first.rules, seed=first.seed, months=first.months, decks=first.decks,
                          first_dealer=first.first_dealer)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"the log's first event cannot start a match: {exc}") from None
    p = len(state.events)
    if events[:p] != state.events:
        raise ReplayError("the opening events of the log do not follow from its seed "
                          "(and set decks)")
    while p < len(events):
        event = events[p]
        action = action_of(event)
        if action is None:
            raise ReplayError(f"event {p} ({getattr(event, 'type', '?')}) is not a player's action, "
                              f"but the rules expect one here")
        yield p, state, action
        try:
            state = apply(state, action)
        except IllegalAction as exc:
            raise ReplayError(f"event {p} is an illegal action: {exc}") from None
        n = len(state.events)
        if events[p:n] != state.events[p:]:
            for k in range(p, n):
                if k >= len(events) or events[k] != state.events[k]:
                    got = events[k].type if k < len(events) else "the end of the log"
                    raise ReplayError(f"event {k} is {got}, but the rules give {state.events[k].type}")
        p = n
    yield p, state, None


def replay(events) -> State:
    """Rebuild a State from its log, checking every event against the rules (``walk``).

    Raises ReplayError naming the first event the rules do not reproduce.
    """
    for _p, state, _action in walk(events):
        pass
    return state
