"""``engine.rules.match_rules``: the one place a match's Rules are built from a preset name,
house-rule changes and a length (the New match dialog, the house-rules editor, saved settings
and the match server), and ``offered_changes``, the lenient filter saved settings are read
through."""

from __future__ import annotations

from dataclasses import replace

import pytest

from koikoi.engine import RULESETS
from koikoi.engine.rules import (BAD_LENGTH, CANNOT_PLAY, KNOBS, LENGTH_BY_HOUSE, NEVER_ENDS,
                                 NOT_OFFERED, NOT_RULES, POINTS_MAX, UNKNOWN_KNOBS, UNKNOWN_PRESET,
                                 MatchRules, RulesError, match_rules, offered_changes)


def _said(exc: RulesError) -> str:
    """The player's sentence, checked to be a whole one (no placeholder left, not the fallback)."""
    text = exc.sentence()
    assert "{" not in text and text
    return text


@pytest.mark.parametrize("preset", list(RULESETS))
def test_every_preset_as_it_is_at_every_length_it_offers(preset):
    base = RULESETS[preset]
    built = match_rules(preset)
    assert built == MatchRules(base, base.months, {}) and built.months in base.months_offered
    assert match_rules(preset, {}, "preset") == built
    for m in base.months_offered:
        assert match_rules(preset, {}, m) == (base, m, {})


def test_no_month_limit_plays_to_a_target_and_takes_no_length():
    rules, months, house = match_rules("nintendo", {"months": None, "target_points": 50}, None)
    assert months is None and rules.months is None and rules.target_points == 50
    assert match_rules("nintendo", {"months": None, "target_points": 50}) == (rules, None, house)
    with pytest.raises(RulesError) as err:
        match_rules("nintendo", {"months": None, "target_points": 50}, 6)
    assert err.value.message == LENGTH_BY_HOUSE and "months must be null" in str(err.value)
    with pytest.raises(RulesError) as err:     # a match that would never end
        match_rules("casual", {"months": None}, None)
    assert err.value.message == NEVER_ENDS and "never ends" in str(err.value)
    assert _said(err.value) == NEVER_ENDS


def test_a_no_op_change_is_dropped_and_a_look_alike_of_another_type_is_not():
    assert match_rules("casual", {"weather": True, "viewing": "on"}, 3) == (
        replace(RULESETS["casual"], weather=True), 3, {"weather": True})
    with pytest.raises(RulesError):            # 1 is not True, even where True is the preset's
        match_rules("kk-add-10", {"seven_plus_double": 1})


@pytest.mark.parametrize("preset, house, months", [
    ("nope", {}, 3), (3, {}, 3), (None, {}, 3), (["casual"], {}, 3), ("CASUAL", {}, 3)])
def test_an_unknown_preset_is_refused(preset, house, months):
    with pytest.raises(RulesError, match="unknown rules preset") as err:
        match_rules(preset, house, months)
    assert err.value.message == UNKNOWN_PRESET
    _said(err.value)


@pytest.mark.parametrize("house", ["weather", [("weather", True)], 3, (), True])
def test_house_rules_that_are_not_a_dict_are_refused(house):
    with pytest.raises(RulesError, match="must be a dict") as err:
        match_rules("casual", house)
    assert err.value.message == NOT_RULES


@pytest.mark.parametrize("knob", ["bogus", 3, None, ("weather",), "Weather", ""])
def test_an_unknown_knob_is_refused(knob):
    with pytest.raises(RulesError, match="house rules not offered with casual") as err:
        match_rules("casual", {knob: True})
    assert err.value.message == UNKNOWN_KNOBS


@pytest.mark.parametrize("knob, value", [
    ("lucky_points", -3), ("lucky_points", POINTS_MAX + 1), ("weather", "yes"), ("weather", 1),
    ("combo_grading", "weird"), ("target_points", 0), ("oya_ken", 2.0), ("oya_ken", True),
    ("name", ""), ("months_offered", (0,)), ("months", 0), ("months", "6")])
def test_a_value_the_knob_cannot_hold_names_the_rule_and_what_it_may_be(knob, value):
    with pytest.raises(RulesError) as err:
        match_rules("casual", {knob: value})
    message, fields = KNOBS[knob].complaint()
    assert err.value.message == message != CANNOT_PLAY and err.value.fields == fields
    assert f"{knob}=" in str(err.value)
    assert KNOBS[knob].label in _said(err.value)


@pytest.mark.parametrize("knob, value", [
    ("goko", 99), ("name", "x"), ("lucky_points", 7), ("oya_ken", 5), ("target_points", 75),
    ("months_offered", (1, 2)), ("viewing_after_koikoi", 5)])
def test_a_value_the_editor_does_not_offer_is_refused(knob, value):
    house = {knob: value}
    if getattr(RULESETS["casual"], knob) == value:
        pytest.skip("the preset's own value")
    assert knob not in offered_changes("casual", house)
    with pytest.raises(RulesError, match=f"not offered with casual: {knob}") as err:
        match_rules("casual", house)
    assert err.value.message == NOT_OFFERED
    assert _said(err.value).startswith("The house rules do not offer")


def test_the_sake_cup_row_offers_only_its_three_settings():
    with pytest.raises(RulesError) as err:
        match_rules("nintendo", {"sake_cup_is_chaff": False, "sake_cup_is_animal": False})
    assert err.value.message == NOT_OFFERED and err.value.fields == {"rule": "Sake cup counts as"}
    assert match_rules("nintendo", {"sake_cup_is_chaff": False}).house == {"sake_cup_is_chaff": False}


@pytest.mark.parametrize("months", [5, 0, -1, None, True, 6.0, "6", [6], "chosen", 10 ** 100])
def test_a_length_the_rules_do_not_offer_is_refused(months):
    with pytest.raises(RulesError, match="months must be one of 1, 3, 6, 12") as err:
        match_rules("casual", {}, months)
    assert err.value.message == BAD_LENGTH
    _said(err.value)


def test_every_problem_is_listed_and_the_first_is_said():
    with pytest.raises(RulesError) as err:
        match_rules("casual", {"weather": "yes", "bogus": 1, "goko": 99})
    detail = str(err.value)
    assert "bogus" in detail and "goko" in detail and "weather='yes'" in detail
    assert err.value.message == UNKNOWN_KNOBS          # 'bogus' sorts first


def test_offered_changes_keeps_what_it_can_one_knob_at_a_time():
    house = {"weather": True, "lucky_points": 12, "target_points": 50, "goko": 99, "bogus": 1, 7: 7,
             "oya_ken": "6"}
    assert offered_changes("casual", house) == {"weather": True, "lucky_points": 12, "target_points": 50}
    assert offered_changes("casual", {"months": None}) == {}
    assert offered_changes("casual", {"months": None, "target_points": 50}) == {"months": None,
                                                                                "target_points": 50}
    for preset, h in [("nope", {"weather": True}), (["casual"], {}), ("casual", "weather"), ("casual", None)]:
        assert offered_changes(preset, h) == {}
