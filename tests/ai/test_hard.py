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


def test_later_decisions_play_more_playouts_for_the_same_cost():
    """``even_scale``: the opening's budget at a full round, more as the hands empty (about
    in proportion to a playout's shorter length), never more than EVEN_MAX times, never less."""
    from koikoi.ai.hard import EVEN_MAX, OPEN_CARDS, even_scale
    assert even_scale(OPEN_CARDS) == 1.0
    assert even_scale(OPEN_CARDS + 4) == 1.0          # a bigger deal never plays fewer
    scales = [even_scale(n) for n in range(OPEN_CARDS, -1, -1)]
    assert scales == sorted(scales)
    assert 1.5 < even_scale(OPEN_CARDS // 2) < 2.0      # half the cards: nearly twice
    assert max(scales) == EVEN_MAX


def test_hard_plays_the_scaled_budget_and_flat_when_asked():
    from koikoi.ai.hard import HardPlayer, even_scale
    from koikoi.engine import apply, legal_actions, new_match, view
    s = new_match(RULES, seed=5, months=1)
    seen = set()
    while not s.is_over and len(seen) < 6:
        legal = legal_actions(s)
        v = view(s, s.to_move)
        if len(legal) > 1 and v.phase == "play":
            cards = v.hand_mask.bit_count() + v.opponent_hand_count
            even = HardPlayer(seed=1, simulations=100)
            flat = HardPlayer(seed=1, simulations=100, even=False)
            even.choose(v, legal)
            flat.choose(v, legal)
            want = round(100 * even_scale(cards))
            # successive halving rounds each phase down, so the count is within a few
            assert want * 0.8 <= even.last_stats["playouts"] <= want * 1.1, cards
            assert 80 <= flat.last_stats["playouts"] <= 110
            seen.add(cards)
        s = apply(s, legal[0])
    assert len(seen) >= 4 and min(seen) < 12
