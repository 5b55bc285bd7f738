"""Hard's search: Medium's favourite is kept unless the playouts clearly beat it."""

import random

from koikoi.ai.base import KnowledgeCache
from koikoi.ai.hard import search
from koikoi.ai.playout import Policy
from koikoi.ai.sim import PLAY, Round
from koikoi.engine import RULESETS
from koikoi.engine.cards import ID_TO_INDEX

RULES = RULESETS["nintendo"]


def _mask(*ids):
    return sum(1 << ID_TO_INDEX[i] for i in ids)


def _position():
    """Seat 0 to play, holding 08-P1 (takes the Moon on the field for Sankō) and junk."""
    hand = _mask("08-P1", "04-P1", "05-P1", "06-P1", "07-P1", "10-P1", "12-P1", "02-P1")
    field = _mask("08-B", "03-P2", "04-P2", "09-P1", "11-P", "01-P1", "05-P2", "06-P2")
    cap = (_mask("01-B", "03-B"), 0)
    seen = hand | field | cap[0]
    pool = [c for c in range(48) if not seen >> c & 1]
    r = Round(RULES, (hand, 0), field, [], cap, (0, 0), ((), ()), 0, PLAY, -1, None, 0)
    return r, pool


def _points_for(me):
    return lambda winner, points, last: (points if winner == me else
                                         -points if winner is not None else 0.0)


def _run(moves, anchor, sims=120, seed=3):
    r, pool = _position()
    policy = Policy(KnowledgeCache().get(RULES))
    return search(r, pool, 8, 0, moves, _points_for(0), policy, random.Random(seed), sims,
                  1.0, 0.0, anchor, 1.0)


def test_equal_candidates_keep_the_anchor():
    dump = (0, ID_TO_INDEX["12-P1"], -1)
    for anchor in (0, 1, 2):
        best, _, total = _run([dump, dump, dump], anchor)
        assert best == anchor
        assert total > 0


def test_a_clearly_better_move_overrides_the_anchor():
    moon = (0, ID_TO_INDEX["08-P1"], -1)        # Sankō at once
    dump = (0, ID_TO_INDEX["12-P1"], -1)
    best, mean, _ = _run([dump, moon], anchor=0)
    assert best == 1 and mean >= 5
    best, _, _ = _run([moon, dump], anchor=0)  # and the anchor stays when it is the best
    assert best == 0


def test_without_an_anchor_the_best_mean_wins():
    moon = (0, ID_TO_INDEX["08-P1"], -1)
    dump = (0, ID_TO_INDEX["12-P1"], -1)
    best, _, _ = _run([dump, moon], anchor=None)
    assert best == 1
