"""The coach's playouts follow the engine's rules.

The coach (koikoi.coach) builds a sim.Round from what a View shows
(``sim.from_view``), deals the unseen cards into it (``sim.deal_hidden``),
calls Koi-Koi with the simulator's ``Round.koikoi`` and plays on with the
playout policy (``Policy.until_yaku``). Here, from many real engine positions
under every preset and random house-rule mixes (the turn knobs included:
``must_play_match``, ``last_turn_auto_stop``, ``max_koikoi_calls``,
``oya_ken``), that Round is checked against the engine: everything visible is
the engine's, the hidden part is exactly the unseen cards, and every move of
the coach's playout, replayed in the engine on the same deal, is legal and
leads to the same field, piles, mover, prompt, auto-stop and round end.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from koikoi import coach
from koikoi.ai import sim
from koikoi.ai.playout import Policy
from koikoi.ai.knowledge import Knowledge
from koikoi.engine import RULESETS, apply, legal_actions, new_match, view
from koikoi.engine.actions import ChooseMatch, KoiKoi, Play
from koikoi.engine.cards import ID_TO_INDEX, IDS
from koikoi.engine.match import CHOOSE, DECIDE, PLAY
from test_sim import VARIANTS, _house_rules, _same, _step, walk_against_engine

_PHASE = {PLAY: sim.PLAY, CHOOSE: sim.CHOOSE, DECIDE: sim.DECIDE}


def _turn_house_rules(rng: random.Random, n: int) -> list:
    """test_sim's yaku-knob mixes, with the knobs of the turn logic mixed in too."""
    out = []
    for r in _house_rules(rng, n):
        out.append(replace(
            r, must_play_match=rng.random() < 0.5,
            last_turn_auto_stop=rng.choice(["both_hands_empty", "mover_hand_empty"]),
            max_koikoi_calls=rng.choice([None, None, 0, 1, 2, 3]),
            oya_ken=rng.choice([0, 0, 1, 6]),
            exhausted_dealer=rng.choice(["keeps", "passes", "last_yaku"])))
    return out


RULE_MIXES = [*VARIANTS, *_turn_house_rules(random.Random(2024), 24)]


def _engine_with(s, seat: int, r: sim.Round):
    """The engine state ``s`` with the cards hidden from ``seat`` replaced by ``r``'s deal."""
    opp = 1 - seat
    hands = list(s.hands)
    hands[opp] = r.hands[opp]
    return s._replace(hands=tuple(hands), stock=s.stock[:s.stock_pos] + tuple(r.stock[r.sp:]))


def _action(s, move):
    kind, a, b = move
    if kind == 0:
        return Play(IDS[a], IDS[b] if b >= 0 else None)
    return ChooseMatch(IDS[a])


def _check_visible(r: sim.Round, s, v) -> None:
    """The Round the coach builds from ``v`` agrees with the engine on all ``v`` shows, and
    its hidden part is a permutation of exactly the unseen cards."""
    me, opp = v.seat, 1 - v.seat
    assert r.phase == _PHASE[s.phase]
    assert r.to_move == s.to_move
    assert r.hands[me] == s.hands[me]
    assert r.field == s.field
    assert r.cap == list(s.captured)
    assert r.calls == list(s.calls)
    assert r.refs == list(s.refs)
    assert r.reft == [sum(p for _, p in ref) for ref in s.refs]
    assert r.pending == s.pending
    assert r.field_brights == s.field_brights
    assert r.dealer == s.dealer
    assert r.stock_count == s.stock_count == v.stock_count
    assert r.hands[opp].bit_count() == s.hands[opp].bit_count() == v.opponent_hand_count
    hidden = r.stock[r.sp:]
    assert len(set(hidden)) == len(hidden)
    hidden_mask = sum(1 << c for c in hidden)
    assert not hidden_mask & r.hands[opp]
    assert hidden_mask | r.hands[opp] == v.unseen_mask
    truth = s.hands[opp] | sum(1 << c for c in s.stock[s.stock_pos:])
    assert v.unseen_mask == truth
    if s.phase == CHOOSE:
        assert sorted(r.choices()) == sorted(ID_TO_INDEX[a.target] for a in legal_actions(s))
    if s.phase == PLAY and s.to_move == me:
        want = sorted((ID_TO_INDEX[a.card], ID_TO_INDEX[a.target] if a.target else -1)
                      for a in legal_actions(s))
        assert sorted(r.plays()) == want


def _follow(r: sim.Round, s, moves: list, end: sim.Round):
    """Replay the coach's ``moves`` from ``r`` in the simulator and from ``s`` in the engine,
    side by side; ``end`` is where the coach's own playout stopped."""
    n = len(s.ledger)
    for i, m in enumerate(moves):
        a = _action(s, m)
        assert a in legal_actions(s), f"the coach's move {a} is not legal in the engine"
        _step(r, a)
        s = apply(s, a)
        if len(s.ledger) > n:           # the round ended: on the playout's last move
            assert i == len(moves) - 1
            break
        _same(r, s)
    for slot in ("phase", "to_move", "hands", "field", "cap", "calls", "sp", "winner", "points",
                 "reason"):
        assert getattr(r, slot) == getattr(end, slot), slot
    return r, s, n


def _outcome_agrees(r: sim.Round, s, n: int, me: int) -> str:
    """The coach's reading of the playout's end, checked against the engine."""
    if r.phase == sim.DECIDE:
        assert s.phase == DECIDE and s.to_move == r.to_move
        assert len(s.ledger) == n
        return "theirs" if r.to_move != me else "mine"
    assert r.phase == sim.DONE
    row = s.ledger[n]
    if row.reason == "exhausted":
        assert r.reason == "exhausted" and r.winner is None and r.points == 0
        return "runs_out"
    assert r.winner == row.winner and r.points == row.award
    assert r.reason == row.reason == "auto_stop"
    return "theirs" if r.winner != me else "mine"


@pytest.mark.parametrize("rules", RULE_MIXES, ids=lambda r: r.name)
def test_the_coachs_round_and_playouts_follow_the_engine(rules):
    rng = random.Random(hash(rules.name) & 0xFFFF)
    policy = Policy(Knowledge(rules))
    positions = playouts = 0
    seen = set()
    # (three matches, or more where zero-sum stakes end them early)
    for seed in range(12):
        if seed >= 3 and positions > 100 and playouts > 50:
            break
        s = new_match(rules, seed=seed, months=6)
        while not s.is_over:
            legal = legal_actions(s)
            if s.phase in _PHASE:
                for seat in (s.to_move, 1 - s.to_move):
                    v = view(s, seat)
                    template = sim.from_view(v)
                    pool = list(sim.bits(v.unseen_mask))
                    r = sim.deal_hidden(template, seat, pool, v.opponent_hand_count, rng)
                    _check_visible(r, s, v)
                    # with the true hidden cards, the coach's Round is the engine's State
                    true = _engine_with(s, seat, r)
                    full = sim.from_state(true)
                    for slot in sim.Round.__slots__:
                        if slot not in ("last_yaku_seat", "stock", "sp"):
                            assert getattr(r, slot) == getattr(full, slot), slot
                    assert r.stock[r.sp:] == full.stock[full.sp:]
                    positions += 1
                    if seat != s.to_move and rng.random() < 0.7:
                        continue
                    # the coach's playout on this deal, replayed in the engine
                    e = true
                    n = len(e.ledger)
                    if r.phase == sim.DECIDE and r.to_move == seat:
                        r.koikoi()
                        e = apply(e, KoiKoi())
                        if len(e.ledger) > n:
                            assert r.phase == sim.DONE and r.reason == "exhausted"
                            continue
                        _same(r, e)
                    start = r.copy()
                    log = []
                    end = policy.until_yaku(r, rng.random, log)
                    assert end.phase in (sim.DECIDE, sim.DONE)
                    got, e, n = _follow(start, e, log, end)
                    seen.add(_outcome_agrees(got, e, n, seat))
                    playouts += 1
            # Koi-Koi more often than not, so that long rounds and the call rules are exercised.
            if s.phase == DECIDE:
                a = legal[1] if rng.random() < 0.7 else legal[0]
            else:
                a = legal[rng.randrange(len(legal))]
            s = apply(s, a)
    assert positions > 100 and playouts > 50
    assert len(seen) >= 2


@pytest.mark.parametrize("rules", RULE_MIXES[len(VARIANTS):], ids=lambda r: r.name)
def test_sim_follows_engine_under_the_turn_knobs(rules):
    """test_sim's move-by-move check (random legal moves) on the house mixes with the turn
    knobs."""
    walk_against_engine(rules, matches=(3, 12), months=8, enough=(200, 10))


def test_the_coach_uses_exactly_this_sampling_and_call():
    """``coach.risk`` is the mean over deals built this way: recomputing it here by hand,
    with the same generator, gives the very same numbers."""
    rules = RULESETS["classic"]
    s = new_match(rules, seed=5, months=12)
    rng = random.Random(5)
    checked = 0
    while not s.is_over and checked < 12:
        legal = legal_actions(s)
        if s.phase == DECIDE:
            v = view(s, s.to_move)
            me, opp = v.seat, 1 - v.seat
            odds = coach.risk(v, samples=60, seed=checked)
            g = random.Random(checked)
            template = sim.from_view(v)
            pool = list(sim.bits(v.unseen_mask))
            pol = coach._policy(rules)
            theirs = early = mine = 0
            for _ in range(60):
                r = sim.deal_hidden(template, me, pool, v.opponent_hand_count, g)
                r.koikoi()
                pol.until_yaku(r, g.random)
                who = r.to_move if r.phase == sim.DECIDE else r.winner
                theirs += who == opp
                early += who == opp and bool(r.hands[me])
                mine += who == me
            assert (float(odds), odds.early, odds.mine) == (theirs / 60, early / 60, mine / 60)
            assert abs(odds + odds.mine + odds.runs_out - 1.0) < 1e-9
            checked += 1
            a = legal[1] if rng.random() < 0.8 else legal[0]
        else:
            a = legal[rng.randrange(len(legal))]
        s = apply(s, a)
    assert checked >= 5
