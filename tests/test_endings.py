"""Why a round ended (issue 30, point 1): one reason per ending (engine.endings), one
sentence per reason (narration.why_ended), under every preset and both languages, and
random play under every preset never told a reason the position contradicts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from koikoi import i18n
from koikoi import narration as N
from koikoi.engine import RULESETS, apply, legal_actions, new_match
from koikoi.engine.endings import REASONS, ending, round_events
from koikoi.engine.events import LedgerRow, Played, RoundDealt, RoundEnded

NAMES = ("You", "CPU")


def _row(reason, winner=0, calls=(0, 0), award=5):
    return LedgerRow(1, 0, winner, reason, (("kasu", 1, ()),) if winner is not None else (), award, (), award,
                     (award, 0), calls)


# reason -> (the rules' change that allows it, the ledger row)
SCENARIOS = {
    "stop": ({}, _row("stop", calls=(1, 0))),
    "last_turn": ({"max_koikoi_calls": None, "last_turn_auto_stop": "mover_hand_empty"},
                  _row("auto_stop", calls=(1, 0))),
    "last_turn_both": ({"max_koikoi_calls": None, "last_turn_auto_stop": "both_hands_empty"},
                       _row("auto_stop", calls=(1, 0))),
    "call_limit": ({"max_koikoi_calls": 1}, _row("auto_stop", calls=(0, 1))),
    "first_yaku": ({"max_koikoi_calls": 0}, _row("auto_stop")),
    "lucky_hand": ({}, _row("lucky_hand")),
    "lucky_draw": ({}, _row("lucky_draw", winner=None, award=0)),
    "field_four": ({}, _row("field_four")),
    "dealer_privilege": ({"oya_ken": 1}, _row("exhausted", award=1)),
    "no_game": ({"oya_ken": 0}, _row("exhausted", winner=None, award=0)),
}


def test_every_reason_has_a_scenario():
    assert set(SCENARIOS) == set(REASONS)


@pytest.mark.parametrize("preset", sorted(RULESETS))
@pytest.mark.parametrize("reason", REASONS)
def test_each_reason_under_each_preset_has_its_own_sentence_in_both_languages(preset, reason):
    change, row = SCENARIOS[reason]
    rules = replace(RULESETS[preset], **change)
    end = ending(row, rules)
    assert end.reason == reason
    english = N.why_ended(end, NAMES, you=0)
    others = {N.why_ended(ending(r, replace(RULESETS[preset], **c)), NAMES, you=0)
              for k, (c, r) in SCENARIOS.items() if k != reason}
    assert english and english not in others, "each reason reads differently"
    if reason == "last_turn":
        assert "hand empty" in english and "after a Koi-Koi" not in english
    i18n.set_language("ja")
    try:
        japanese = N.why_ended(end, NAMES, you=0)
    finally:
        i18n.set_language("en")
    assert japanese and japanese != english and not any(c.isascii() and c.isalpha() for c in japanese
                                                        if c not in "CPU")


def test_a_yaku_with_the_last_card_after_a_call_is_told_as_the_last_turn_not_the_call():
    """The issue's case: Casual with unlimited calls, a Koi-Koi call, then Kasu with the last
    card in hand: the round ended because the hand was empty."""
    rules = replace(RULESETS["casual"], max_koikoi_calls=None, last_turn_auto_stop="mover_hand_empty")
    text = N.why_ended(ending(_row("auto_stop", calls=(1, 0)), rules), NAMES, you=0)
    assert "last turn" in text and "ends the round at once under these rules" not in text


def _random_ends(preset, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        st = new_match(RULESETS[preset], seed=seed, months=3)
        while not st.is_over:
            acts = legal_actions(st)
            koikoi = [a for a in acts if type(a).__name__ == "KoiKoi"]
            st = apply(st, koikoi[0] if koikoi and rng.random() < 0.7 else rng.choice(acts))
        for e in st.events:
            if isinstance(e, RoundEnded):
                yield st, e


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_random_play_reasons_agree_with_the_position(preset):
    seen = set()
    for st, e in _random_ends(preset, range(12)):
        rules = st.rules
        end = ending(e.row, rules, st.events)
        seen.add(end.reason)
        mine = round_events(st.events, e.row.round)
        deal = next(x for x in mine if isinstance(x, RoundDealt))
        played = [sum(1 for x in mine if isinstance(x, Played) and x.seat == s) for s in (0, 1)]
        if end.reason == "last_turn":
            assert played[end.seat] == len(deal.hands[end.seat])
        if end.reason == "last_turn_both":
            assert played == [len(h) for h in deal.hands]
        if end.reason == "call_limit":
            assert sum(e.row.calls) >= rules.max_koikoi_calls
        if end.reason in ("last_turn", "last_turn_both", "call_limit", "first_yaku"):
            assert end.card is not None
            assert N.card_name(end.card) in N.why_ended(end, NAMES, you=0)
    assert "stop" in seen or "last_turn" in seen or "call_limit" in seen
