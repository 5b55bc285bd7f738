"""``hard.dealt``: the one deal of the hidden cards that Hard's search and ``estimate`` (the
review's and the coach's values) share. The opponent's hand comes from the months it did not
pass first (``View.passed``); with nothing passed, the deal is the plain split of the pool."""

from __future__ import annotations

import random

import pytest

from koikoi.ai import hard, make_player
from koikoi.ai.sim import Round, bits
from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
from koikoi.engine.state import PLAY


_DEALT = hard.dealt


def _template() -> Round:
    rules = RULESETS["nintendo"]
    return Round(rules, [0, 0], 0, [])


def _never():
    raise AssertionError("no draw is needed with nothing passed")


def test_with_nothing_passed_the_hand_is_the_first_cards_and_no_draw_is_made():
    pool = list(range(10, 30))
    r = hard.dealt(_template(), pool, 1, 8, 0, 0.15, _never)
    assert r.hands[1] == sum(1 << c for c in pool[:8]) and r.stock == pool[8:] and r.sp == 0
    assert r.hands[0] == 0


def test_passed_cards_go_to_the_stock_unless_they_escape_or_are_needed():
    pool = list(range(10, 30))
    random.Random(3).shuffle(pool)
    unlikely = sum(1 << c for c in pool[:6])          # the first six of the shuffled pool
    r = hard.dealt(_template(), pool, 1, 8, unlikely, 0.0, random.Random(1).random)
    assert r.hands[1] == sum(1 << c for c in pool[6:14])           # the likely ones, in order
    assert r.stock == pool[:6] + pool[14:]                          # the rest, in pool order
    # too few likely cards: the hand is filled with the unlikely ones, in pool order
    unlikely = sum(1 << c for c in pool[:15])
    r = hard.dealt(_template(), pool, 1, 8, unlikely, 0.0, random.Random(1).random)
    assert r.hands[1] == sum(1 << c for c in pool[15:] + pool[:3])
    assert sorted(r.stock + list(bits(r.hands[1]))) == sorted(pool)
    # every card escapes: the plain split
    r = hard.dealt(_template(), pool, 1, 8, unlikely, 1.0, random.Random(1).random)
    assert r.hands[1] == sum(1 << c for c in pool[:8]) and r.stock == pool[8:]


@pytest.fixture(scope="module")
def position():
    """A position of a Medium-against-Medium match where seat 0 decides between plays and
    seat 1 has passed at least three unseen cards' months."""
    rules = RULESETS["nintendo"]
    for seed in range(40):
        s = new_match(rules, seed=seed, months=1)
        cpus = [make_player("medium", seed=1), make_player("medium", seed=2)]
        while not s.is_over:
            legal = legal_actions(s)
            if s.to_move == 0 and s.phase == PLAY and len(legal) > 1:
                v = view(s, 0)
                if (v.unseen_mask & v.passed[1]).bit_count() >= 3 and v.opponent_hand_count >= 4:
                    return v, legal
            s = apply(s, cpus[s.to_move].choose(view(s, s.to_move), legal))
    raise AssertionError("no seed gave a position with passes")


def _hands_dealt(monkeypatch, position, **kw):
    """The opponent's hands ``estimate`` deals at ``position``, 200 samples."""
    v, legal = position
    hands = []

    def spy(*args):
        r = _DEALT(*args)
        hands.append(r.hands[1])
        return r

    monkeypatch.setattr(hard, "dealt", spy)
    hard.estimate(v, legal, samples=200, seed=0, **kw)
    return hands


@pytest.mark.parametrize("infer", [hard.INFER, 0.0])
def test_the_reviews_values_deal_the_opponent_the_months_it_passed_rarely(monkeypatch, position,
                                                                         infer):
    read = _hands_dealt(monkeypatch, position, infer=infer)
    plain = _hands_dealt(monkeypatch, position, infer=None)
    v = position[0]
    passed = v.unseen_mask & v.passed[1]
    with_read = sum(h & passed != 0 for h in read) / len(read)
    uniform = sum(h & passed != 0 for h in plain) / len(plain)
    assert len(read) == len(plain) == 200
    assert uniform > 0.5                                   # a uniform deal often gives one
    assert with_read <= (0.4 if infer else 0.0) * uniform    # the read rarely does
