"""The legal actions of a State as precomputed tables (``legal_actions``), whether one action
is legal without building them (``_is_legal``), and why one is not, in words (``_explain``)."""

from __future__ import annotations

from typing import Optional

from .actions import ChooseMatch, KoiKoi, PickOyagime, Play, Stop, describe
from .cards import _SHIFT, CARD_MONTH_MASK, ID_TO_INDEX, IDS, ids_of, indices
from .cards import MONTH_LOWS as _MONTH_LOW_BITS
from .state import CHOOSE, DECIDE, OVER, OYAGIME, PHASE_NAMES, PLAY, State

_PLAY = tuple(Play(IDS[c]) for c in range(48))
_PLAY_TARGET = tuple(tuple(Play(IDS[c], IDS[t]) for t in range(48)) for c in range(48))
_CHOOSE = tuple(ChooseMatch(IDS[t]) for t in range(48))
_PICK = tuple(PickOyagime(i) for i in range(4))
_DECIDE = (Stop(), KoiKoi())


def shared_actions() -> tuple:
    """Every action instance ``legal_actions`` hands out (it builds none of its own). They
    live as long as this module, so no other object ever takes one's ``id``: a reader may
    keep what it derives from one (its wire text) under that id for good."""
    return _PLAY + tuple(a for row in _PLAY_TARGET for a in row) + _CHOOSE + _PICK + _DECIDE


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
    # The fields by index (State's field order), inlined for speed: an index is cheaper than
    # an attribute's descriptor, and this runs every turn.
    phase = state[3]
    if phase == PLAY:
        hand = state[8][state[4]]       # state.hands[state.to_move]
        field = state[9]                # state.field
        if not state[0].must_play_match:
            # The hand's and the field's bytes, in one conversion (hand bytes first).
            h0, h1, h2, h3, h4, h5, f0, f1, f2, f3, f4, f5 = (hand | field << 48).to_bytes(12, "little")
            out = ()
            try:
                # Two months a step, unrolled. An entry not filled yet is None: adding it raises.
                if h0:
                    out += _PAIR_0[h0 | f0 << 8]
                if h1:
                    out += _PAIR_1[h1 | f1 << 8]
                if h2:
                    out += _PAIR_2[h2 | f2 << 8]
                if h3:
                    out += _PAIR_3[h3 | f3 << 8]
                if h4:
                    out += _PAIR_4[h4 | f4 << 8]
                if h5:
                    out += _PAIR_5[h5 | f5 << 8]
            except TypeError:
                _fill_pairs(hand.to_bytes(6, "little"), field.to_bytes(6, "little"))
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


assert State._fields[0] == "rules" and State._fields[3:5] == ("phase", "to_move") \
    and State._fields[8:10] == ("hands", "field")   # the indices legal_actions reads


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
