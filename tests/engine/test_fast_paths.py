"""The engine's shortcuts give exactly what the plain rules give.

``legal_actions`` reads precomputed tables, ``apply`` builds the common turns
directly, ``ids_of`` and ``yaku_points`` take lookups and early answers: each is
checked here against a direct statement of the rule, on random play under
every preset and house-rule mix, legal and illegal actions alike.
"""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import HOUSE_KNOBS_OF_16
from koikoi.engine import (RULESETS, ChooseMatch, IllegalAction, KoiKoi, PickOyagime, Play, Stop,
                           apply, legal_actions, new_match)
from koikoi.engine import legal
from koikoi.engine import match as M
from koikoi.engine.cards import IDS, ids_of
from koikoi.engine.scoring import yaku_masks, yaku_points

knobs = st.fixed_dictionaries({}, optional={
    "must_play_match": st.booleans(),
    "weather": st.booleans(),
    "viewing": st.sampled_from(["on", "off", "with_other_yaku"]),
    "field_four_of_month": st.sampled_from(["redeal", "dealer_sweeps", "dealer_wins"]),
    "lucky_hands": st.sampled_from(["off", "on", "misdeal"]),
    "max_koikoi_calls": st.sampled_from([None, 0, 1, 2]),
    "prompt_when": st.sampled_from(["total_rises", "combo_new_or_grew"]),
    "last_turn_auto_stop": st.sampled_from(["both_hands_empty", "mover_hand_empty"]),
    "sake_cup_is_chaff": st.booleans(),
    "sake_cup_is_animal": st.booleans(),
    **HOUSE_KNOBS_OF_16,
})

games = st.builds(lambda preset, k, seed, chooser: (replace(RULESETS[preset], **k), seed, chooser),
                  st.sampled_from(sorted(RULESETS)), knobs, st.integers(0, 2**32),
                  st.integers(0, 2**16))


def same_month(a: int, b: int) -> bool:
    return a // 4 == b // 4


def enumerated(s):
    """legal_actions(s), from the rules as written: hand cards in deck order, a Play per
    field card to take when two match, only matching cards under must_play_match."""
    if s.phase == M.OVER:
        return None
    if s.phase == M.OYAGIME:
        return (PickOyagime(2 * s.to_move), PickOyagime(2 * s.to_move + 1))
    if s.phase == M.DECIDE:
        return (Stop(), KoiKoi())
    if s.phase == M.CHOOSE:
        return tuple(ChooseMatch(IDS[t]) for t in range(48)
                     if s.field >> t & 1 and same_month(t, s.pending))
    hand = s.hands[s.to_move]
    every, matching = [], []
    for c in range(48):
        if hand >> c & 1:
            targets = [t for t in range(48) if s.field >> t & 1 and same_month(t, c)]
            plays = ([Play(IDS[c], IDS[t]) for t in targets] if len(targets) == 2
                     else [Play(IDS[c])])
            every += plays
            if targets:
                matching += plays
    if s.rules.must_play_match and matching:
        return tuple(matching)
    return tuple(every)


def outcome(reducer, s, action):
    try:
        return reducer(s, action)
    except IllegalAction as exc:
        return ("illegal", str(exc))


def candidates(s, rng):
    """Some legal and some illegal actions for state ``s``."""
    legal = list(legal_actions(s) or ())
    out = rng.sample(legal, min(3, len(legal)))
    some = [IDS[rng.randrange(48)] for _ in range(3)]
    held = [IDS[c] for c in range(48) if s.phase == M.PLAY and s.hands[s.to_move] >> c & 1]
    out += [Play(c) for c in some] + [Play(c, t) for c, t in zip(some, reversed(some))]
    for c in held[:2]:
        out += [Play(c), Play(c, rng.choice(IDS)), Play(c, 7)]
        out += [Play(c, IDS[t]) for t in range(48) if s.field >> t & 1 and same_month(t, IDS.index(c))]
    out += [ChooseMatch(c) for c in some] + [ChooseMatch(IDS[t]) for t in range(48) if s.field >> t & 1][:4]
    out += [Play(5), Play(None), ChooseMatch(3), ChooseMatch(None), KoiKoi(), Stop(),
            PickOyagime(0), PickOyagime(3), None]
    return out


@settings(max_examples=50, deadline=None)
@given(games)
def test_legal_actions_are_the_rules_enumeration_and_apply_agrees_with_the_reference(game):
    rules, seed, chooser = game
    rng = random.Random(chooser)
    s = new_match(rules, seed=seed, months=2)
    while not s.is_over:
        assert legal_actions(s) == enumerated(s)
        snapshot = tuple(s)
        for action in candidates(s, rng):
            assert outcome(apply, s, action) == outcome(M.reference_apply, s, action), action
            assert tuple(s) == snapshot, "apply changed its input"
        s = apply(s, rng.choice(legal_actions(s)))
    assert legal_actions(s) is None


def test_the_play_tables_fill_themselves_from_empty(monkeypatch):
    fresh = tuple([None] * 65536 for _ in range(6))
    monkeypatch.setattr(legal, "_PAIRS", fresh)
    for p, table in enumerate(fresh):
        monkeypatch.setattr(legal, f"_PAIR_{p}", table)
    rng = random.Random(3)
    for seed in range(4):
        s = new_match(RULESETS["kk-add-10"], seed=seed, months=2)
        while not s.is_over:
            assert legal_actions(s) == enumerated(s)
            s = apply(s, rng.choice(legal_actions(s)))
    assert any(x is not None for x in fresh[0])


def test_ids_of_names_the_cards_of_any_mask_in_deck_order():
    rng = random.Random(11)
    masks = [0, (1 << 48) - 1] + [1 << c for c in range(48)]
    masks += [bits << (4 * mo) for mo in range(12) for bits in range(16)]
    masks += [rng.getrandbits(48) & rng.getrandbits(48) for _ in range(3000)]
    for mask in masks:
        assert ids_of(mask) == tuple(IDS[c] for c in range(48) if mask >> c & 1)


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_yaku_points_early_answer_never_hides_a_yaku(preset):
    rng = random.Random(preset)
    for rules in (RULESETS[preset], replace(RULESETS[preset], weather=True, viewing="on"),
                  replace(RULESETS[preset], sake_cup_is_chaff=True, sake_cup_is_animal=False)):
        for _ in range(3000):
            mask = 0
            for c in rng.sample(range(48), rng.randrange(0, 20)):
                mask |= 1 << c
            field = rng.getrandbits(48) & ~mask
            assert yaku_points(mask, rules, field) == tuple(
                (name, points) for name, points, _ in yaku_masks(mask, rules, field))
