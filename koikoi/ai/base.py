"""Shared plumbing for the CPU levels: reading a View into masks, mapping moves to actions."""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..engine.actions import ChooseMatch, KoiKoi, PickOyagime, Play, Stop
from ..engine.cards import ID_TO_INDEX
from .knowledge import Knowledge


class Seen(NamedTuple):
    """A seat's picture of the round, as masks (all from the View)."""

    me: int
    hand: int
    field: int
    mine: int           # my capture pile
    theirs: int         # the opponent's capture pile
    unseen: int         # opponent hand + stock (the pending stock card excluded)
    opp_hand: int       # how many cards the opponent holds
    stock: int          # cards left face down
    pending: int        # the stock card waiting for a choice, or -1


def seen(view) -> Seen:
    me = view.seat
    pending = view.pending.index if view.pending is not None else -1
    unseen = view.unseen_mask
    if pending >= 0:
        unseen &= ~(1 << pending)
    return Seen(me, view.hand_mask, view.field_mask, view.captured_masks[me],
                view.captured_masks[1 - me], unseen, view.opponent_hand_count, view.stock_count,
                pending)


def play_key(action) -> tuple:
    return ID_TO_INDEX[action.card], (ID_TO_INDEX[action.target] if action.target else -1)


def kind(legal: Sequence) -> str:
    return kind_of(legal[0])


def kind_of(a) -> str:
    """What deciding ``a`` is: "play", "choose", "decide", "oyagime" or "other"."""
    if isinstance(a, Play):
        return "play"
    if isinstance(a, ChooseMatch):
        return "choose"
    if isinstance(a, (KoiKoi, Stop)):
        return "decide"
    if isinstance(a, PickOyagime):
        return "oyagime"
    return "other"


def find(legal: Sequence, cls):
    for a in legal:
        if isinstance(a, cls):
            return a
    return legal[0]


class KnowledgeCache:
    """One Knowledge per Rules value (and round month, where tsuki-fuda makes it matter),
    per player (no sharing between players)."""

    def __init__(self):
        self._rules = None
        self._month = 0
        self._k = None

    def get(self, rules, month: int = 0) -> Knowledge:
        if not rules.tsuki_fuda:
            month = 0
        if self._rules is not rules or self._month != month:
            if self._rules is None or self._month != month or self._rules != rules:
                self._k = Knowledge(rules, month)
            self._rules = rules
            self._month = month
        return self._k


def months_left(view) -> int | None:
    """Rounds still to play after this one (None: the match has no fixed length)."""
    if view.months is None:
        return None
    return max(0, view.months - view.round)
