"""``apply``: the common turns (a Play, a ChooseMatch, a Koi-Koi call that leave the round
going) built directly as a new State, the hot path; a turn that ends the round continues in
the general reducer's draft, and anything illegal goes to ``reference_apply``, which raises.
A test checks that ``apply`` and ``reference_apply`` always agree."""

from __future__ import annotations

from .actions import Action, ChooseMatch, KoiKoi, Play
from .cards import _BIT, _INDEX, _TAKEN, CARD_MONTH_MASK, ID_TO_INDEX, IDS
from .events import Chose, Flipped, KoiKoiCalled, Played, YakuMade
from .legal import _is_legal
from .rounds import _exhausted
from .scoring import improved, yaku_points
from .state import _new, CHOOSE, DECIDE, PLAY, State, _Draft
from .turns import _POINTS, _auto_stop, _yaku_made, reference_apply

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
