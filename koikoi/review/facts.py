"""Facts of one position that the review's reasons put in words (koikoi.review.reasons).

Pure functions of the deciding seat's View (its hand, the field, both capture piles,
which are public, the unseen set) and card masks: what a move captures and leaves on
the field, which yaku a card would make or raise for either pile, the opponent's yaku
a card away, a discard no one else can ever take, the cards of a month still to come
that keeping a card may take. No sentences here: the words are reasons.py's.
"""

from __future__ import annotations

from typing import Optional

from ..engine import ChooseMatch, Play
from ..engine.cards import ALL, CARD_MONTH_MASK, CHAFF, ID_TO_INDEX
from ..engine.scoring import yaku_points


def yaku_of(v, mask: int, seat: int) -> dict:
    return dict(yaku_points(mask, v.rules, v.field_mask, v.calls[seat], v.month))


def raised(v, before: int, after: int, seat: int) -> list:
    """The yaku names that ``after`` holds with more points than ``before``."""
    a, b = yaku_of(v, before, seat), yaku_of(v, after, seat)
    return [name for name, p in b.items() if p > a.get(name, 0)]


def takes(v, action) -> tuple:
    """(cards the action captures, as a mask, with the card played; the card it puts on
    the field, or -1; field cards of the month it leaves there)."""
    field = v.field_mask
    if isinstance(action, Play):
        c = ID_TO_INDEX[action.card]
        m = field & CARD_MONTH_MASK[c]
        if not m:
            return 0, c, 0
        if action.target:
            t = 1 << ID_TO_INDEX[action.target]
            return (1 << c) | t, -1, m & ~t
        return (1 << c) | m, -1, 0
    if isinstance(action, ChooseMatch) and v.pending is not None:
        p = v.pending.index
        t = 1 << ID_TO_INDEX[action.target]
        return (1 << p) | t, -1, (field & CARD_MONTH_MASK[p]) & ~t
    return 0, -1, 0


def one_away(v, pile: int, seat: int, avail: int) -> dict:
    """Yaku name -> the cards of ``avail`` that would each, added to ``pile``, make or raise it."""
    out: dict = {}
    m = avail
    while m:
        low = m & -m
        m ^= low
        for name in raised(v, pile, pile | low, seat):
            out[name] = out.get(name, 0) | low
    return out


def takeable(v, cards: int) -> int:
    """The cards of ``cards`` the opponent could ever take from the field: those with a
    card of their month still unseen (in the opponent's hand or the stock)."""
    out = 0
    m = cards
    while m:
        low = m & -m
        m ^= low
        if CARD_MONTH_MASK[low.bit_length() - 1] & ~low & v.unseen_mask:
            out |= low
    return out


def raising(v, mine: int, taken: int, seat: int, names) -> int:
    """The cards of ``taken`` that are members of the yaku ``names`` in ``mine | taken``:
    those whose absence would lower one of them."""
    after = yaku_of(v, mine | taken, seat)
    out = 0
    m = taken
    while m:
        low = m & -m
        m ^= low
        without = yaku_of(v, (mine | taken) & ~low, seat)
        if any(without.get(n, 0) < after.get(n, 0) for n in names):
            out |= low
    return out


def near(v, seat: int) -> dict:
    """Yaku name -> the cards outside both piles that would each make or raise it for ``seat``."""
    mine, theirs = v.captured_masks[seat], v.captured_masks[1 - seat]
    avail = ALL & ~(mine | theirs)
    if v.pending is not None:
        avail &= ~(1 << v.pending.index)
    return one_away(v, mine, seat, avail)


def threat(v) -> Optional[dict]:
    """The opponent's yaku one card away ("needed one card for Inoshikachō, with 2 of 3
    unseen"), as the fields ``their_yaku``, ``unseen``, ``outs`` (name key), if it is so."""
    close = near(v, 1 - v.seat)
    if not close:
        return None
    # The yaku with the most ways to make it first; its cards still to come.
    name = max(close, key=lambda n: (close[n].bit_count(), n))
    outs = close[name]
    return dict(their_yaku=name, unseen=(outs & v.unseen_mask).bit_count(),
                outs=outs.bit_count())


def safe_discard(v, action) -> Optional[int]:
    """The card ``action`` puts on the field when no one else can ever take it there: every
    other card of its month is in a capture pile or the mover's hand. Else None."""
    _taken, dumped, _left = takes(v, action)
    if dumped < 0:
        return None
    mates = CARD_MONTH_MASK[dumped] & ~(1 << dumped)
    if mates & v.unseen_mask:
        return None
    return dumped


def wanted(v, card: int) -> int:
    """The unseen cards of ``card``'s month that would raise a yaku of the mover's or one of
    the opponent's: what keeping ``card`` in hand may take when it turns up."""
    me = v.seat
    mine, theirs = v.captured_masks[me], v.captured_masks[1 - me]
    out = 0
    m = CARD_MONTH_MASK[card] & v.unseen_mask & ~(1 << card)
    while m:
        low = m & -m
        m ^= low
        if raised(v, mine, mine | low | (1 << card), me) or raised(v, theirs, theirs | low, 1 - me) \
                or low & ~CHAFF:
            out |= low
    return out


def month_of(c: int) -> int:
    return c // 4 + 1


def played_card(action) -> int:
    return ID_TO_INDEX[action.card] if isinstance(action, Play) else -1
