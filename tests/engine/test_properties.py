"""Properties of random legal play on every preset and house-rule mix (hypothesis)."""

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import HOUSE_KNOBS_OF_16
from koikoi.engine import (RULESETS, IllegalAction, Play, Stop, apply, events_from_json,
                           events_to_json, legal_actions, new_match, replay, view)
from koikoi.engine.cards import ALL, IDS, to_mask

house_rules = st.fixed_dictionaries({}, optional={
    "weather": st.booleans(),
    "viewing": st.sampled_from(["on", "off", "with_other_yaku"]),
    "koikoi_multiplier": st.sampled_from(["opponent_called", "own_calls_and_opponent", "caller",
                                          "anyone", "scaling", "none"]),
    "seven_plus_double": st.booleans(),
    "field_four_of_month": st.sampled_from(["redeal", "dealer_sweeps", "dealer_wins"]),
    "field_four_pairs": st.sampled_from(["redeal", "play_on"]),
    "lucky_hands": st.sampled_from(["off", "on", "misdeal"]),
    "lucky_both_hands_points": st.sampled_from([6, 12]),
    "exhausted_dealer": st.sampled_from(["keeps", "passes", "last_yaku"]),
    "oya_ken": st.sampled_from([0, 1, 6]),
    "must_play_match": st.booleans(),
    "field_brights_multiplier": st.booleans(),
    "max_koikoi_calls": st.sampled_from([None, 0, 1, 2]),
    "prompt_when": st.sampled_from(["total_rises", "combo_new_or_grew"]),
    "last_turn_auto_stop": st.sampled_from(["both_hands_empty", "mover_hand_empty"]),
    "sake_cup_is_chaff": st.booleans(),
    "sake_cup_is_animal": st.booleans(),
    "oyagime_tie": st.sampled_from(["redraw", "kind"]),
    **HOUSE_KNOBS_OF_16,
})

matches = st.builds(
    lambda preset, knobs, seed, chooser, months: (replace(RULESETS[preset], **knobs), seed, chooser, months),
    st.sampled_from(sorted(RULESETS)), house_rules, st.integers(0, 2**32), st.integers(0, 2**16),
    st.sampled_from([1, 2, 3, None]),
)


def check_conservation(s):
    parts = [s.hands[0], s.hands[1], s.field, s.captured[0], s.captured[1],
             sum(1 << i for i in s.stock[s.stock_pos:]),
             1 << s.pending if s.pending >= 0 else 0]  # turned, waiting for a choice
    total = 0
    for p in parts:
        assert total & p == 0, "a card is in two places"
        total |= p
    assert total == ALL, "cards went missing"


def play(rules, seed, chooser, months, every_step=None):
    rng = random.Random(chooser)
    s = new_match(rules, seed=seed, months=months)
    steps = 0
    while not s.is_over:
        legal = legal_actions(s)
        assert legal, "a live state always offers an action"
        action = rng.choice(legal)
        if every_step:
            every_step(s, action, legal)
        s = apply(s, action)
        steps += 1
        assert steps < 5000, "the match does not end"
    return s


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_random_play_keeps_every_invariant(m):
    rules, seed, chooser, months = m
    expected_rounds = months if months is not None else rules.months

    def step(s, action, legal):
        if s.phase_name in ("play", "choose_match", "decide"):
            check_conservation(s)
        snapshot = tuple(s)
        nxt = apply(s, action)
        assert tuple(s) == snapshot, "apply changed its input"
        assert nxt.events[:len(s.events)] == s.events, "the log is append-only"
        # An action from the wrong phase is refused and changes nothing.
        wrong = Stop() if s.phase_name != "decide" else Play(IDS[0])
        try:
            apply(s, wrong)
            raise AssertionError(f"{wrong} was accepted in phase {s.phase_name}")
        except IllegalAction:
            pass
        assert tuple(s) == snapshot

    s = play(rules, seed, chooser, months, step)
    assert replay(s.events) == s
    assert events_from_json(events_to_json(s.events)) == s.events
    if rules.scoring_mode == "total":
        won = [0, 0]
        for row in s.ledger:
            if row.winner is not None:
                won[row.winner] += row.award
        assert tuple(won) == s.scores
        if rules.target_points is None:
            assert len(s.ledger) == expected_rounds
    else:
        assert sum(s.scores) == 2 * rules.starting_points
        assert len(s.ledger) == expected_rounds or min(s.scores) <= 0
    assert s.ledger[-1].scores == s.scores
    assert s.winner == (None if s.scores[0] == s.scores[1] else (0 if s.scores[0] > s.scores[1] else 1))


@settings(max_examples=40, deadline=None)
@given(matches, st.integers(0, 1))
def test_a_view_never_shows_the_other_hand_or_the_stock(m, seat):
    rules, seed, chooser, months = m
    seen = []

    def step(s, action, legal):
        if s.phase_name == "oyagime":
            return
        v = view(s, seat)
        shown = to_mask(c.id for c in v.hand + v.field + v.captured[0] + v.captured[1])
        if v.pending is not None:
            shown |= 1 << v.pending.index
        hidden = s.hands[1 - seat] | sum(1 << i for i in s.stock[s.stock_pos:])
        assert shown & hidden == 0
        assert v.unseen_mask == hidden
        assert v.opponent_hand_count == s.hands[1 - seat].bit_count()
        assert v.stock_count == len(s.stock) - s.stock_pos
        seen.append(1)

    s = play(rules, seed, chooser, months, step)
    # Every round but a lucky hand or a field win is played, and each play was checked.
    played = [r for r in s.ledger if r.reason not in ("lucky_hand", "lucky_draw", "field_four")]
    assert seen or not played


def test_the_global_random_module_is_never_read():
    def run(noise):
        rng = random.Random(99)
        s = new_match(RULESETS["nintendo"], seed=2024, months=3)
        while not s.is_over:
            if noise:
                random.seed(noise)
                random.random()
            s = apply(s, rng.choice(legal_actions(s)))
        return s.events
    assert run(0) == run(1) == run(12345)


def test_same_seed_same_deals_different_seed_different_deals():
    a = new_match(RULESETS["casual"], seed=5)
    b = new_match(RULESETS["casual"], seed=5)
    c = new_match(RULESETS["casual"], seed=6)
    assert a == b and a.events == b.events
    assert a.events != c.events


@settings(max_examples=60, deadline=None)
@given(matches)
def test_the_plain_play_fast_path_agrees_with_the_general_reducer(m):
    from koikoi.engine import match as M
    rules, seed, chooser, months = m

    def step(s, action, legal):
        assert M.apply(s, action) == M.reference_apply(s, action)

    play(rules, seed, chooser, months, step)
