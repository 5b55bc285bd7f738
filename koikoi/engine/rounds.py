"""A round from its deal to its result, in the general reducer's draft: the seeded shuffles
(chance comes only from a hash of ``f"{seed}/{draw}"``, or from the decks ``new_match`` was
given), ``new_match`` and the oya-gime, the deal and what the rules make of it (misdeals,
a swept field, lucky hands), and the round's end (settlement, the ledger, the next dealer,
the next deal or the end of the match)."""

from __future__ import annotations

import hashlib
import struct
from typing import Optional, Sequence

from . import cards as C
from .cards import _BIT, _ID, DECK, ID_TO_INDEX, IDS, _mask, _stock_ids, ids_of
from .events import (DECKS_MAX, Exhausted, FieldSwept, LedgerRow, LuckyHand, MatchEnded, MatchStarted,
                     Misdeal, OyagimeDecided, OyagimePicked, OyagimeSpread, RoundDealt, RoundEnded)
from .rules import Rules
from .scoring import award_from_mask, next_dealer, paid
from .state import _new, OVER, OYAGIME, PLAY, State, _Draft

_KEYS = struct.Struct("<48Q").unpack


_shake = hashlib.shake_256
_CARDS = range(48)


def _draw_keys(d: _Draft) -> tuple:
    """48 random 64-bit keys for draw number ``d.draws`` of this match's seed.

    SHAKE-256 of "seed/draw" is a deterministic, platform-independent stream: the same
    seed gives the same deals on every machine and Python version, with no global state.
    """
    keys = _KEYS(_shake(b"%d/%d" % (d.seed, d.draws)).digest(384))
    d.draws += 1
    return keys


def _shuffled(keys: tuple) -> list:
    """The deck in the order of its random keys: a uniform shuffle."""
    # (A list's bound __getitem__ is a cheaper key function than a tuple's.)
    return sorted(range(48), key=list(keys).__getitem__)


_WORDS = struct.Struct("<48I")
_UNPACK32, _PACK32 = _WORDS.unpack, _WORDS.pack
_INDEX_SLOTS = bytes(b for i in range(48) for b in (i, 0, 0, 0))
_TOPS = sum(0xFFFF00 << (32 * k) for k in range(47))       # bits 8..23 of words 0..46
_CARRY = sum(1 << (32 * k + 24) for k in range(47))         # bit 24 of words 0..46


def _deck_of(digest: bytes) -> bytes:
    """``_shuffled(_KEYS(digest))`` (the deal of one draw) as bytes, faster: each card sorts as
    one 24-bit int, its key's top 16 bits above its index (laid out by byte copies, not by
    arithmetic in Python), a sort of one-digit ints. That orders the cards as their whole
    keys do unless two keys share their top 16 bits (1.7% of draws, found after the sort),
    which take the sort by whole keys."""
    slots = bytearray(_INDEX_SLOTS)     # word i: (i, key i's byte 6, its byte 7, 0)
    slots[1::4] = digest[6::8]
    slots[2::4] = digest[7::8]
    order = _PACK32(*sorted(_UNPACK32(slots)))
    # Each sorted word XOR the next has bits 8..23 clear only where two share their top 16
    # bits; adding those bits back carries into bit 24 of every word where they are not clear.
    w = int.from_bytes(order, "little")
    if ((w ^ w >> 32) & _TOPS) + _TOPS & _CARRY != _CARRY:
        return bytes(_shuffled(_KEYS(digest)))
    return order[::4]


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
                     (0, 0), ((), ()), -1, 0, -1, (start, start), (), (), (), None, False, ()))
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
_BRIGHTS = C.BRIGHTS


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
            # _shuffled(_draw_keys(d)), inline and through _deck_of: every round's deal runs this.
            deck = _deck_of(_shake(b"%d/%d" % (d.seed, d.draws)).digest(384))
            d.draws += 1
        dealer = d.dealer
        first = sum(map(bit, deck[0:8]))
        second = sum(map(bit, deck[8:16]))
        hands = [second, first] if dealer else [first, second]
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
        d.field_brights = (field & _BRIGHTS).bit_count()
        d.last_yaku_seat = -1
        new.append(_new(RoundDealt, (round_no, dealer, (ids_of(hands[0]), ids_of(hands[1])),
                                     ids_of(field), _stock_ids(stock), "round_dealt")))

        redeal = False
        while True:
            full = d.field
            full &= full >> 1 & full >> 2 & full >> 3 & _LOW     # _full_months, inline
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
            odd = (x ^ x >> 1 ^ x >> 2 ^ x >> 3) & _LOW      # _odd_months, inlined for speed
            if x & x >> 1 & x >> 2 & x >> 3 & _LOW or not odd & _ALL or not odd >> 48:  # _full_months
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
    ledger = d.ledger
    if winner is not None and award:
        scores = paid(scores, winner, award, rules)
    d.scores = scores      # (a tuple: paid's, or the State's)
    row = _new(LedgerRow, (len(ledger) + 1, d.dealer, winner, reason, yaku, base, mults, award,
                           scores, d.calls))
    d.ledger = ledger = ledger + (row,)
    captured = d.captured
    d.new.append(_new(RoundEnded, (row, (ids_of(captured[0]), ids_of(captured[1])), "round_ended")))

    if reason == "exhausted":
        d.dealer = next_dealer(rules, d.dealer, winner, True, d.last_yaku_seat)
    elif winner is not None:
        d.dealer = winner   # next_dealer's answer, inlined for speed: the winner deals next

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
