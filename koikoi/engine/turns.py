"""The general reducer, ``reference_apply``: every action under every rule, through a mutable
draft (engine/state.py ``_Draft``): a play and its stock turn, a choice of match, Koi-Koi or
Stop, an oya-gime pick; the round's start and end are engine/rounds.py's. ``apply``'s fast
paths (engine/fast.py) are tested against it."""

from __future__ import annotations

from operator import itemgetter

from .actions import Action, Stop
from .cards import CARD_MONTH_MASK, ID_TO_INDEX, IDS, ids_of
from .events import Chose, Flipped, KoiKoiCalled, Played, Stopped, YakuMade
from .legal import _explain, _is_legal
from .rounds import _exhausted, _oyagime_pick, _settle
from .scoring import improved, yaku_points
from .rules import Rules
from .state import _new, CHOOSE, DECIDE, PLAY, IllegalAction, State, _Draft

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
        d.new.append(_new(Stopped, (seat, True, "stopped")))
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
