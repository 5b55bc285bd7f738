"""The knobs the two games' presets and the newer house rules need, case by case (issue 16):
per-set grading (``inoshikacho_grading``), ``akatan_aotan_on_top``, ``rain_break``,
``tsuki_fuda`` (and how rounds map to months), ``viewing_after_koikoi``, ``own_call_bonus``
with ``own_call_bonus_max_calls``, ``field_three_of_month``; the field-brights count under a
sweep; and that every new knob's default leaves the rules recorded before it as they were."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_helpers import deal, start

from koikoi.ai import sim
from koikoi.engine import (RULESETS, KoiKoi, Play, Rules, Stop, apply, events_from_json, events_to_json,
                           legal_actions, new_match, replay, settle, view)
from koikoi.engine.cards import to_mask
from koikoi.engine.events import FieldSwept, Misdeal, RoundDealt, YakuMade
from koikoi.engine.match import DECIDE
from koikoi.engine.rules import KNOBS, matters
from koikoi.engine.scoring import award_from_mask, round_month, yaku_points
from koikoi.engine.table import fold_all

R = RULESETS
INO = ["07-A", "10-A", "06-A"]
SIX_RIBBONS = ["01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB"]
BRIGHTS3 = ["01-B", "03-B", "08-B"]

# The knobs as they stood before issue 16: a log recorded then names exactly these.
OLD_KNOBS = frozenset({
    "name", "months", "months_offered", "target_points", "goko", "shiko", "ame_shiko", "sanko",
    "inoshikacho", "akatan", "aotan", "akatan_aotan", "hanami_zake", "tsukimi_zake", "tane",
    "tanzaku", "kasu", "combo_grading", "viewing", "weather", "sake_cup_is_chaff",
    "sake_cup_is_animal", "lucky_hands", "lucky_points", "lucky_both_hands_points",
    "lucky_both_players", "field_four_of_month", "field_four_pairs", "seven_plus_double",
    "koikoi_multiplier", "field_brights_multiplier", "max_koikoi_calls", "prompt_when",
    "last_turn_auto_stop", "exhausted_dealer", "oya_ken", "oyagime_tie", "must_play_match",
    "scoring_mode", "starting_points"})
NEW_KNOBS = {
    "inoshikacho_grading": "set_yaku", "akatan_aotan_on_top": False, "rain_break": "off",
    "tsuki_fuda": 0, "viewing_after_koikoi": None, "own_call_bonus": 0,
    "own_call_bonus_max_calls": None, "field_three_of_month": "play_on"}
OLD_PRESETS = ("casual", "classic", "nintendo", "kk-add-10", "tournament", "yakuza")


def yaku(award):
    return {name: pts for name, pts, _ in award.yaku}


# ---------------------------------------------------------------- the cases, knob by knob

# (rules, captured cards, own calls, opponent calls, round month, yaku -> points, award)
CASES = {
    # inoshikacho_grading: follows Set yaku by default; graded alone; graded with Tane paying
    "ino as stacking sets": (R["casual"], INO + ["02-A", "04-A"], 0, 0, 1,
                             {"inoshikacho": 5, "tane": 1}, 6),
    "ino as graded sets": (R["nintendo"], INO + ["02-A", "04-A"], 0, 0, 1, {"inoshikacho": 7}, 14),
    "ino graded under stacking sets": (replace(R["casual"], inoshikacho_grading="graded"),
                                       INO + ["02-A", "04-A"], 0, 0, 1, {"inoshikacho": 7}, 14),
    "ino stacked under graded sets": (replace(R["nintendo"], inoshikacho_grading="stack"),
                                      INO + ["02-A", "04-A"], 0, 0, 1, {"inoshikacho": 5, "tane": 1}, 6),
    "ino graded, Tane pays (hanafuda-js)": (replace(R["casual"], inoshikacho_grading="graded_tane_pays"),
                                            INO + ["02-A", "04-A", "05-A"], 0, 0, 1,
                                            {"inoshikacho": 8, "tane": 2}, 20),
    "ino graded, Tane pays, three animals": (replace(R["casual"], inoshikacho_grading="graded_tane_pays"),
                                             INO, 0, 0, 1, {"inoshikacho": 5}, 5),
    "ino grading leaves the ribbons graded": (replace(R["nintendo"], inoshikacho_grading="stack"),
                                              ["01-RP", "02-RP", "03-RP", "04-R", "05-R"], 0, 0, 1,
                                              {"akatan": 7}, 14),
    # akatan_aotan_on_top: 5 + 5 + 10 (and Tanzaku) under stacking sets; graded sets ignore it
    "both ribbon sets stacked": (R["casual"], SIX_RIBBONS, 0, 0, 1,
                                 {"akatan": 5, "aotan": 5, "tanzaku": 2}, 24),
    "both ribbon sets, on top": (replace(R["casual"], akatan_aotan_on_top=True), SIX_RIBBONS, 0, 0, 1,
                                 {"akatan": 5, "aotan": 5, "akatan_aotan": 10, "tanzaku": 2}, 44),
    "one ribbon set, on top": (replace(R["casual"], akatan_aotan_on_top=True), SIX_RIBBONS[:3], 0, 0, 1,
                               {"akatan": 5}, 5),
    "on top under graded sets": (replace(R["nintendo"], akatan_aotan_on_top=True), SIX_RIBBONS, 0, 0, 1,
                                 {"akatan_aotan": 10}, 20),
    # rain_break: the Rain Man (or the Phoenix) in one's own pile cancels both viewing yaku
    "no rain-break": (R["casual"], ["03-B", "08-B", "09-A", "11-B"], 0, 0, 1,
                      {"hanami_zake": 5, "tsukimi_zake": 5}, 20),
    "the Rain Man breaks": (replace(R["casual"], rain_break="rain_man"), ["03-B", "08-B", "09-A", "11-B"],
                            0, 0, 1, {}, 0),
    "the Phoenix does not break alone": (replace(R["casual"], rain_break="rain_man"),
                                         ["03-B", "09-A", "12-B"], 0, 0, 1, {"hanami_zake": 5}, 5),
    "the Phoenix breaks too": (replace(R["casual"], rain_break="rain_man_or_phoenix"),
                               ["08-B", "09-A", "12-B"], 0, 0, 1, {}, 0),
    "other willow cards do not break": (replace(R["casual"], rain_break="rain_man_or_phoenix"),
                                        ["08-B", "09-A", "11-A", "11-R", "11-P", "12-P1"], 0, 0, 1,
                                        {"tsukimi_zake": 5}, 5),
    "the broken pile keeps its brights": (replace(R["casual"], rain_break="rain_man"),
                                          ["01-B", "03-B", "08-B", "11-B", "09-A"], 0, 0, 1,
                                          {"ame_shiko": 7}, 14),
    # tsuki_fuda: the round's month only
    "tsuki-fuda in its month": (replace(R["casual"], tsuki_fuda=4), ["01-B", "01-RP", "01-P1", "01-P2"],
                                0, 0, 1, {"tsuki_fuda": 4}, 4),
    "tsuki-fuda out of its month": (replace(R["casual"], tsuki_fuda=4), ["01-B", "01-RP", "01-P1", "01-P2"],
                                    0, 0, 2, {}, 0),
    "tsuki-fuda off": (R["casual"], ["01-B", "01-RP", "01-P1", "01-P2"], 0, 0, 1, {}, 0),
    "tsuki-fuda beside the Moon's": (replace(R["casual"], tsuki_fuda=4),
                                     ["08-B", "08-A", "08-P1", "08-P2", "09-A"], 0, 0, 8,
                                     {"tsukimi_zake": 5, "tsuki_fuda": 4}, 18),
    "tsuki-fuda is another yaku for the viewing": (replace(R["casual"], tsuki_fuda=4, viewing="with_other_yaku"),
                                                   ["03-B", "03-RP", "03-P1", "03-P2", "09-A"], 0, 0, 3,
                                                   {"hanami_zake": 5, "tsuki_fuda": 4}, 18),
    # viewing_after_koikoi: the holder's own calls change the value, not the opponent's
    "viewing before the call": (replace(R["casual"], hanami_zake=1, viewing_after_koikoi=3),
                                ["03-B", "09-A"], 0, 0, 1, {"hanami_zake": 1}, 1),
    "viewing after the call": (replace(R["casual"], hanami_zake=1, viewing_after_koikoi=3),
                               ["03-B", "09-A"], 1, 0, 1, {"hanami_zake": 3}, 3),
    "viewing after the opponent's call": (replace(R["casual"], hanami_zake=1, viewing_after_koikoi=3),
                                          ["03-B", "09-A"], 0, 1, 1, {"hanami_zake": 1}, 2),
    "viewing void after the call": (replace(R["casual"], viewing_after_koikoi=0),
                                    ["03-B", "08-B", "09-A", "02-A", "04-A", "05-A", "06-A"], 1, 0, 1,
                                    {"tane": 1}, 1),
    "viewing after the call, a yaku that is off": (replace(R["casual"], tsukimi_zake=0, viewing_after_koikoi=3),
                                                   ["03-B", "08-B", "09-A"], 2, 0, 1, {"hanami_zake": 3}, 3),
    # own_call_bonus: added before the multipliers (and so to the 7-point test)
    "bonus off": (R["casual"], BRIGHTS3, 2, 0, 1, {"sanko": 5}, 5),
    "bonus for two calls": (replace(R["casual"], own_call_bonus=1), BRIGHTS3, 2, 0, 1,
                            {"sanko": 5, "koikoi_bonus": 2}, 14),
    "bonus and the opponent's call": (replace(R["classic"], own_call_bonus=1), BRIGHTS3, 1, 1, 1,
                                      {"sanko": 6, "koikoi_bonus": 1}, 14),
    "bonus, no yaku": (replace(R["casual"], own_call_bonus=1), ["01-B", "03-B"], 3, 0, 1, {}, 0),
    "bonus of 2 a call": (replace(R["classic"], own_call_bonus=2), BRIGHTS3, 3, 0, 1,
                          {"sanko": 6, "koikoi_bonus": 6}, 12),
    "bonus at its last call": (replace(R["classic"], own_call_bonus=1, own_call_bonus_max_calls=3),
                               BRIGHTS3, 3, 0, 1, {"sanko": 6, "koikoi_bonus": 3}, 9),
    "bonus past its last call": (replace(R["classic"], own_call_bonus=1, own_call_bonus_max_calls=3),
                                 BRIGHTS3, 4, 0, 1, {"sanko": 6}, 12),
    "bonus two past its last call": (replace(R["classic"], own_call_bonus=1, own_call_bonus_max_calls=3),
                                     BRIGHTS3, 5, 0, 1, {"sanko": 6}, 18),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_new_knob_scores_as_its_case_says(case):
    rules, cards, own, opp, month, want, total = CASES[case]
    a = settle(cards, rules, own_calls=own, opponent_calls=opp, month=month)
    assert yaku(a) == want
    assert a.total == total
    assert a.base == sum(want.values())
    # the simulator agrees, and the prompt's view of the pile is the award's minus the bonus
    mask = to_mask(cards)
    assert sim.points_fn(rules, month)(mask, 0, own) == sum(p for n, p in want.items() if n != "koikoi_bonus")
    assert sim.award(rules, mask, own, opp, 0, 0, month) == total
    assert dict(yaku_points(mask, rules, 0, own, month)) == {n: p for n, p in want.items() if n != "koikoi_bonus"}


def test_the_bonus_multiplies_past_its_last_call_and_is_named():
    rules = replace(R["classic"], own_call_bonus=1, own_call_bonus_max_calls=3)
    a = settle(BRIGHTS3, rules, own_calls=4)
    assert a.multipliers == (("4 own Koi-Koi calls", 2),)
    a = settle(BRIGHTS3, rules, own_calls=2)
    assert a.yaku[-1] == ("koikoi_bonus", 2, ()) and a.multipliers == ()


@pytest.mark.parametrize("round_no,month", [(1, 1), (2, 2), (8, 8), (12, 12), (13, 1), (24, 12), (25, 1)])
def test_rounds_map_to_months_one_to_twelve_then_again(round_no, month):
    assert round_month(round_no) == month


# ---------------------------------------------------------------- in play

PLAIN_HANDS = (["02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B", "09-A"],
               ["02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB"])
# January's other three cards lie in the field: the dealer's Crane takes all four at once.
THREE_PINES = deal(["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"], PLAIN_HANDS[1],
                   ["01-RP", "01-P1", "01-P2", "10-A", "11-A", "12-B", "10-RB", "12-P1"],
                   ["11-P"])
PLAIN = deal(["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
             ["01-RP", "02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A"],
             ["09-A", "09-RB", "10-A", "10-RB", "11-A", "11-R", "12-B", "01-P1"])


def test_tsuki_fuda_is_made_in_play_in_the_rounds_month():
    rules = replace(R["casual"], tsuki_fuda=4)
    s = apply(start(rules, THREE_PINES), Play("01-B"))
    made = [e for e in s.events if isinstance(e, YakuMade)]
    assert s.phase == DECIDE and made[-1].yaku == (("tsuki_fuda", 4),)
    assert view(s, 0).yaku(0) == (("tsuki_fuda", 4),) and view(s, 0).month == 1
    row = apply(s, Stop()).ledger[0]
    assert row.yaku == (("tsuki_fuda", 4, ("01-B", "01-RP", "01-P1", "01-P2")),) and row.award == 4
    # the same cards in round 2 (February) make nothing
    pines = to_mask(["01-B", "01-RP", "01-P1", "01-P2"])
    assert yaku_points(pines, rules, 0, 0, round_month(2)) == ()
    assert apply(start(R["casual"], THREE_PINES), Play("01-B")).phase != DECIDE   # knob off


def test_a_koikoi_values_the_callers_reference_after_the_call():
    """Under ``viewing_after_koikoi`` the reference a call sets is valued as after the call,
    so the jump of the viewing yaku's points is not an improvement in itself."""
    rules = R["koikoi-japan"]
    for seed in range(200):
        s = new_match(rules, seed=seed, first_dealer=0)
        while not s.is_over and s.phase != DECIDE:
            s = apply(s, legal_actions(s)[0])
        if s.phase != DECIDE:
            continue
        seat = s.to_move
        held = dict(yaku_points(s.captured[seat], rules, s.field, 0, 1))
        if "hanami_zake" not in held and "tsukimi_zake" not in held:
            continue
        s2 = apply(s, KoiKoi())
        ref = dict(s2.refs[seat])
        assert all(ref[n] == 3 for n in ("hanami_zake", "tsukimi_zake") if n in held)
        assert all(held[n] == 1 for n in ("hanami_zake", "tsukimi_zake") if n in held)
        # the table folded from the public events says the same
        assert fold_all(s2.events, seat).koikoi_refs == s2.refs
        return
    pytest.fail("no seed made a viewing yaku to call on")


THREE_OF_A_MONTH = deal(*PLAIN_HANDS, ["01-B", "01-RP", "01-P1", "10-A", "11-A", "12-B", "10-RB", "12-P1"])
FOUR_OF_A_MONTH = deal(*PLAIN_HANDS, ["01-B", "01-RP", "01-P1", "01-P2", "10-A", "11-A", "12-B", "10-RB"])


@pytest.mark.parametrize("knob,deck,reasons", [
    ("play_on", THREE_OF_A_MONTH, []),
    ("redeal", THREE_OF_A_MONTH, ["three_of_a_month"]),
    ("redeal", FOUR_OF_A_MONTH, ["four_of_a_month"]),      # four is the four-of-a-month knob's
    ("redeal", PLAIN, []),
])
def test_three_of_a_month_in_the_field(knob, deck, reasons):
    s = start(replace(R["nintendo"], field_three_of_month=knob), deck, PLAIN)
    mis = [e for e in s.events if isinstance(e, Misdeal)]
    assert [e.reason for e in mis] == reasons
    if reasons == ["three_of_a_month"]:
        assert mis[0].cards == ("01-B", "01-RP", "01-P1")
    assert len([e for e in s.events if isinstance(e, RoundDealt)]) == 1 + len(reasons)
    assert s.round == 1 and s.ledger == ()


# ---------------------------------------------------------------- field brights under a sweep

# All four willow cards (the Rain Man among them) in the field; the Crane is a replacement.
WILLOWS = deal(*PLAIN_HANDS, ["11-B", "11-A", "11-R", "11-P", "10-A", "10-RB", "12-P1", "12-P2"],
               ["01-B", "02-P1", "03-P1", "04-P1"])


def test_the_field_brights_are_counted_as_dealt_before_a_sweep():
    """The count is of the eight cards as dealt: the swept Rain Man counts, the Crane that
    replaces a swept card does not; engine, View, PublicTable and simulator agree."""
    rules = replace(R["casual"], field_four_of_month="dealer_sweeps", field_brights_multiplier=True)
    s = start(rules, WILLOWS)
    swept = [e for e in s.events if isinstance(e, FieldSwept)][0]
    assert "11-B" in swept.cards and "01-B" in swept.replacements
    assert s.field & to_mask(["01-B"]) and not s.field & to_mask(["11-B"])
    assert s.field_brights == 1
    for seat in (0, 1):
        assert view(s, seat).field_brights == 1
        assert fold_all(s.events, seat).field_brights == 1
    assert sim.from_state(s).field_brights == 1
    # and the award multiplies by 1 + 1
    a = award_from_mask(to_mask(BRIGHTS3), rules, 0, 0, s.field_brights)
    assert a.multipliers == (("1 bright in the opening field", 2),) and a.total == 10
    assert sim.award(rules, to_mask(BRIGHTS3), 0, 0, s.field_brights, 0) == 10
    # a round played out scores it so
    rng = random.Random(5)
    while not s.ledger:
        legal = legal_actions(s)
        s = apply(s, Stop() if Stop() in legal else legal[rng.randrange(len(legal))])
    row = s.ledger[0]
    if row.winner is not None:
        assert ("1 bright in the opening field", 2) in row.multipliers


# ---------------------------------------------------------------- the knobs' declarations

def test_the_new_knobs_are_declared_with_what_they_depend_on():
    assert set(KNOBS) == OLD_KNOBS | set(NEW_KNOBS)
    assert {n: KNOBS[n].house is not None for n in NEW_KNOBS} == {
        "inoshikacho_grading": False, "akatan_aotan_on_top": False, "rain_break": True, "tsuki_fuda": True,
        "viewing_after_koikoi": True, "own_call_bonus": True, "own_call_bonus_max_calls": False,
        "field_three_of_month": False}
    casual = R["casual"]
    assert matters(casual, "rain_break") and not matters(R["tournament"], "rain_break")
    assert matters(casual, "akatan_aotan_on_top") and not matters(R["nintendo"], "akatan_aotan_on_top")
    assert not matters(casual, "own_call_bonus_max_calls")
    assert matters(R["koikoi-japan"], "own_call_bonus_max_calls")
    assert not matters(replace(casual, max_koikoi_calls=0), "own_call_bonus")
    assert matters(R["koikoi-japan"], "akatan_aotan")      # paid on top there
    assert not matters(replace(casual, viewing="off"), "viewing_after_koikoi")


@pytest.mark.parametrize("preset", OLD_PRESETS)
def test_every_new_knob_defaults_to_what_the_older_rules_did(preset):
    rules = R[preset]
    assert {n: getattr(rules, n) for n in NEW_KNOBS} == NEW_KNOBS
    old = {k: v for k, v in rules.to_dict().items() if k in OLD_KNOBS}
    assert Rules.from_dict(old) == rules


@pytest.mark.parametrize("preset", OLD_PRESETS)
def test_a_log_recorded_without_the_new_knobs_still_decodes_and_replays(preset):
    rng = random.Random(preset)
    s = new_match(R[preset], seed=31, months=3)
    while not s.is_over:
        legal = legal_actions(s)
        s = apply(s, legal[rng.randrange(len(legal))])
    text = events_to_json(s.events)
    # the log as an older version wrote it: its rules without the new keys
    head, rest = text.split("\n", 2)[1], text.split("\n", 2)[2]
    import json
    first = json.loads(head.rstrip(","))
    first["rules"] = {k: v for k, v in first["rules"].items() if k in OLD_KNOBS}
    assert set(NEW_KNOBS).isdisjoint(first["rules"])
    old_text = text.split("\n", 1)[0] + "\n" + json.dumps(first, separators=(",", ":")) + ",\n" + rest
    events = events_from_json(old_text)
    assert events == s.events
    assert replay(events) == s
