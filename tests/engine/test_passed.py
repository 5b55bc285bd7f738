"""``View.passed``: the months each seat left on the field when it played a card there
without capturing (and has not played from its hand since), this round. Checked against a
plain reading of the states themselves (sets of months, the field as it was before each
play), on random and CPU play of every preset, and on the public table's fold."""

from __future__ import annotations

import random

import pytest

from koikoi.ai import make_player
from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
from koikoi.engine.actions import Play
from koikoi.engine.cards import ID_TO_INDEX
from koikoi.engine.state import PLAY
from koikoi.engine.table import fold_all
from koikoi.engine.events import public_event
from koikoi.engine.cards import months_of


def _months(mask: int) -> set:
    return {i // 4 for i in range(48) if mask >> i & 1}


def _as_mask(months: set) -> int:
    return sum(0xF << (4 * m) for m in months)


def _play(rules, seed: int, choose) -> int:
    """Plays a match with ``choose(state)``, checking ``passed`` before every action; returns
    how many (seat, month) passes it saw."""
    s = new_match(rules, seed=seed, months=3)
    want = [set(), set()]
    rnd = s.round
    seen = 0
    while not s.is_over:
        if s.round != rnd:
            want, rnd = [set(), set()], s.round
        for seat in (0, 1):
            assert view(s, seat).passed == (_as_mask(want[0]), _as_mask(want[1]))
        a = choose(s)
        if s.phase == PLAY and isinstance(a, Play):
            seat, c = s.to_move, ID_TO_INDEX[a.card]
            want[seat].discard(c // 4)
            field = _months(s.field)
            if c // 4 not in field:           # no match: the card joins the field
                want[seat] |= field
                seen += len(field)
        s = apply(s, a)
        if s.round != rnd and not s.is_over:
            want, rnd = [set(), set()], s.round
    return seen


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_passed_is_the_months_left_on_the_field_by_a_play_that_took_nothing(preset):
    rules = RULESETS[preset]
    seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        seen += _play(rules, seed, lambda s: rng.choice(legal_actions(s)))
    cpus = [make_player("medium", seed=1), make_player("easy", seed=2)]
    seen += _play(rules, 99, lambda s: cpus[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    assert seen > 50


def test_the_public_table_folds_the_same_passes():
    rules = RULESETS["nintendo"]
    rng = random.Random(5)
    s = new_match(rules, seed=5, months=2)
    nonzero = 0
    while not s.is_over:
        for seat in (0, 1):
            t = fold_all([public_event(e, seat) for e in s.events], seat)
            assert t.passed == view(s, seat).passed
            nonzero += t.passed != (0, 0)
        s = apply(s, rng.choice(legal_actions(s)))
    assert nonzero > 10


def test_months_of_fills_each_month_of_a_card():
    for i in range(48):
        assert months_of(1 << i) == 0xF << (4 * (i // 4))
    assert months_of(0) == 0
    assert months_of((1 << 48) - 1) == (1 << 48) - 1
