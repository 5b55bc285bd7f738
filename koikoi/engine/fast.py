"""``apply``: the common turns (a Play, a ChooseMatch, a Koi-Koi call that leave the round
going) built directly as a new State, the hot path; a turn that ends the round continues in
the general reducer's draft, and anything illegal goes to ``reference_apply``, which raises.
A test checks that ``apply`` and ``reference_apply`` always agree."""

from __future__ import annotations

from .actions import Action, ChooseMatch, KoiKoi, Play, Stop
from .cards import _BIT, _INDEX, _TAKEN, CARD_MONTH_MASK, ID_TO_INDEX, IDS
from .events import Chose, Flipped, KoiKoiCalled, Played, Stopped, YakuMade
from .legal import _is_legal
from .rounds import _exhausted, _settle
from .scoring import _SIG0, _SIG1, _SIG2, _SIG3, GATE as _GATE, improved, yaku_points
from .state import _new, CHOOSE, DECIDE, PLAY, State, _Draft
from .turns import _POINTS, _auto_stop, _yaku_made, reference_apply


def _events_by_take() -> tuple:
    """The hot path's events, made once: events are immutable values, so one instance serves
    every turn that records the same thing (a dict read instead of building two tuples).
    ``played[seat * 48 + c]`` maps the field cards ``c`` takes (a mask of its month; 0: none)
    to its Played, leaving out the two-card masks (a target says which); ``chosen[seat * 48 +
    c][t]`` is the Played of ``c`` taking ``t`` of two; ``flipped[seat * 48 + s]`` maps what the
    stock card ``s`` takes to its Flipped, and ``pending[seat * 48 + s]`` is its Flipped when
    two match (the seat chooses)."""
    played, chosen, flipped, pending = [], [], [], []
    for seat in (0, 1):
        for c in range(48):
            others = [t for t in range(4 * (c // 4), 4 * (c // 4) + 4) if t != c]
            # What c can take: any of its month's other three cards (two only with a target).
            takes = [sum(1 << t for j, t in enumerate(others) if sub >> j & 1) for sub in range(8)]
            played.append({m: _new(Played, (seat, IDS[c], None, _TAKEN[m], "played"))
                           for m in takes if m.bit_count() != 2})
            chosen.append({t: _new(Played, (seat, IDS[c], IDS[t], _TAKEN[1 << t], "played"))
                           for t in others})
            flipped.append({m: _new(Flipped, (seat, IDS[c], _TAKEN[m], "flipped"))
                            for m in takes if m.bit_count() != 2})
            pending.append(_new(Flipped, (seat, IDS[c], None, "flipped")))
    return tuple(played), tuple(chosen), tuple(flipped), tuple(pending)


_PLAYED, _CHOSEN, _FLIPPED, _PENDING = _events_by_take()


def shared_events() -> tuple:
    """Every event instance the hot path shares between turns. They live as long as this
    module, so no other object ever takes one's ``id``: a reader may keep what it derives
    from one (its encoded text) under that id for good."""
    return (tuple(e for table in (_PLAYED, _CHOSEN, _FLIPPED) for by in table for e in by.values())
            + _PENDING)


def apply(state: State, action: Action) -> State:
    """The state after ``action``. Raises IllegalAction (state untouched) if it is not legal.

    A Play is computed here directly on the State's fields: the hot path (one frame, no call
    on the way but the yaku check, and that only when the pile's signature passes its gate).
    A turn that leaves the round going (to the next player, to a choice of match for the
    stock card, or to a Koi-Koi decision) is built here in one step. A turn that ends the
    round (the rules stop it, or the last cards were played) continues in a draft with the
    general reducer's helpers from where this left off, so nothing is computed twice. An
    illegal action goes to ``reference_apply``, which raises; it is also the reference that
    a test checks this against (both must give the same State)."""
    if type(action) is not Play:
        return _apply_other(state, action)
    (rules, seed, months, phase, seat, dealer, draws, decks, hands, field, stock, stock_pos,
     captured, calls, refs, pending, field_brights, last_yaku_seat, scores, ledger, spread, picks,
     winner, is_over, log) = state[:]  # (a slice: an exact tuple unpacks faster)
    if phase != PLAY:
        return reference_apply(state, action)  # raises IllegalAction
    card = action.card
    c = _INDEX(card) if type(card) is str else None
    hand = hands[seat]
    if c is None or not hand & _BIT[c]:
        return reference_apply(state, action)  # raises IllegalAction
    bit = _BIT[c]
    m = field & CARD_MONTH_MASK[c]
    target = action.target
    sc = seat * 48 + c
    played = _PLAYED[sc].get(m)     # None: two field cards match
    if played is None:
        t = _INDEX(target) if type(target) is str else None
        played = _CHOSEN[sc].get(t)
        if played is None or not m & _BIT[t] or m.bit_count() != 2:
            # (or a hand-built State whose field holds the played card itself)
            return reference_apply(state, action)  # raises IllegalAction
        m = _BIT[t]
    elif target is not None or (not m and rules.must_play_match and not _is_legal(state, action)):
        return reference_apply(state, action)  # raises IllegalAction
    hand ^= bit
    cap = before = captured[seat]
    if m:
        field ^= m
        cap |= bit | m
    else:
        field |= bit
    other = hands[1 - seat]
    new_hands = (other, hand) if seat else (hand, other)
    s = stock[stock_pos]
    sm = field & CARD_MONTH_MASK[s]
    ss = seat * 48 + s
    flipped = _FLIPPED[ss].get(sm)  # None: two field cards match the stock card
    if flipped is None and sm.bit_count() != 2:
        # A hand-built State whose field holds the stock card itself.
        flipped = _new(Flipped, (seat, IDS[s], _TAKEN[sm], "flipped"))
    if flipped is None:
        # The seat chooses next.
        return _new(State, (
            rules, seed, months, CHOOSE, seat, dealer, draws, decks, new_hands, field, stock,
            stock_pos + 1, (captured[0], cap) if seat else (cap, captured[1]), calls, refs, s,
            field_brights, last_yaku_seat, scores, ledger, spread, picks, winner, False,
            log + (played, _PENDING[ss])))
    if sm:
        field ^= sm
        cap |= _BIT[s] | sm
    else:
        field |= _BIT[s]
    new_cap = (captured[0], cap) if seat else (cap, captured[1])
    # A turn that captured nothing leaves the pile's yaku as they were (under the weather
    # ruling the field alone can change them, so that case takes the full check); a pile
    # whose signature does not pass the gate holds none (but tsuki-fuda's).
    now = ()
    if cap != before or rules.weather:
        v = _SIG0[cap & 4095] + _SIG1[cap >> 12 & 4095] + _SIG2[cap >> 24 & 4095] + _SIG3[cap >> 36 & 4095]
        if v & _GATE or rules.tsuki_fuda:
            now = yaku_points(cap, rules, field, calls[seat], len(ledger) % 12 + 1, v)
            if now and not improved(rules, now, refs[seat]):
                now = ()
    if now and not _auto_stop(rules, new_hands, seat, calls):
        # A yaku made: the seat decides between Koi-Koi and Stop.
        return _new(State, (
            rules, seed, months, DECIDE, seat, dealer, draws, decks, new_hands, field, stock,
            stock_pos + 1, new_cap, calls, refs, -1, field_brights, seat, scores, ledger, spread,
            picks, winner, False, log + (played, flipped, _new(YakuMade, (
                seat, now, sum(map(_POINTS, now)), "yaku_made")))))
    if now or not (hand | other):
        # The rules stop the round, or the last cards were played: the rest in a draft.
        d = _Draft(_new(State, (
            rules, seed, months, PLAY, seat, dealer, draws, decks, new_hands, field, stock,
            stock_pos + 1, new_cap, calls, refs, -1, field_brights, last_yaku_seat, scores,
            ledger, spread, picks, winner, False, log)))
        d.new += (played, flipped)
        return _finish_in_draft(d, seat, now)
    # tuple.__new__ skips the NamedTuples' Python-level __new__: this is the hot path.
    return _new(State, (
        rules, seed, months, PLAY, (1 - seat) if other else seat, dealer, draws, decks, new_hands,
        field, stock, stock_pos + 1, new_cap, calls, refs, -1, field_brights, last_yaku_seat,
        scores, ledger, spread, picks, winner, False, log + (played, flipped)))


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
     winner, is_over, log) = state[:]  # (a slice: an exact tuple unpacks faster)
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
            new_cap, calls, refs, -1, field_brights, seat, scores, ledger, spread, picks, winner, False,
            log + (chose, _new(YakuMade, (seat, now, sum(map(_POINTS, now)), "yaku_made")))))
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
        scores, ledger, spread, picks, winner, False, log + (chose,)))


def _apply_koikoi(state: State) -> State:
    """A KoiKoi call computed directly, like ``_apply_play``."""
    (rules, seed, months, phase, seat, dealer, draws, decks, hands, field, stock, stock_pos,
     captured, calls, refs, pending, field_brights, last_yaku_seat, scores, ledger, spread, picks,
     winner, is_over, log) = state[:]  # (a slice: an exact tuple unpacks faster)
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
        scores, ledger, spread, picks, winner, False,
        log + (_new(KoiKoiCalled, (seat, n, "koikoi")),)))


def _apply_stop(state: State) -> State:
    """A Stop, like ``reference_apply``'s without the legality check (the phase is DECIDE)
    and the NamedTuple's Python-level constructor of its event: every stopped round ends here."""
    d = _Draft(state)
    seat = d.to_move
    d.new.append(_new(Stopped, (seat, False, "stopped")))
    _settle(d, seat, "stop")
    return d.freeze()


def _apply_other(state: State, action) -> State:
    """``apply`` of any action but a Play."""
    kind = type(action)
    phase = state.phase
    if phase == CHOOSE:
        if kind is ChooseMatch:
            return _apply_choose(state, action)
    elif phase == DECIDE:
        if kind is KoiKoi:
            return _apply_koikoi(state)
        if kind is Stop:
            return _apply_stop(state)
    return reference_apply(state, action)
