"""Yaku and settlement per preset: RULES.md's worked examples and the seeds' tables."""

from dataclasses import replace

import pytest

from koikoi.engine import DECK, RULESETS, card, settle

R = RULESETS
BRIGHTS3 = ["01-B", "03-B", "08-B"]                 # Sankō (no Rain man)
ANIMALS = ["02-A", "04-A", "05-A", "06-A", "07-A", "08-A", "09-A", "10-A", "11-A"]
CHAFF10 = ["01-P1", "01-P2", "02-P1", "02-P2", "03-P1", "03-P2", "04-P1", "04-P2", "05-P1", "05-P2"]


def yaku(award):
    return {name: pts for name, pts, _ in award.yaku}


# ---- RULES.md section 4, worked examples (all must hold)

def test_casual_sanko_tsukimi_hanami_doubles_to_30_and_60_after_opponent_koikoi():
    hand = BRIGHTS3 + ["09-A"]
    a = settle(hand, R["casual"])
    assert yaku(a) == {"sanko": 5, "hanami_zake": 5, "tsukimi_zake": 5}
    assert (a.base, a.total) == (15, 30)
    assert settle(hand, R["casual"], own_calls=1).total == 30  # own calls never multiply
    assert settle(hand, R["casual"], opponent_calls=1).total == 60
    assert settle(hand, R["casual"], opponent_calls=3).total == 60  # how many does not matter


def test_casual_tane_with_six_animals():
    six = ["02-A", "04-A", "05-A", "08-A", "09-A", "11-A"]
    assert settle(six, R["casual"]).total == 2
    assert settle(six, R["casual"], opponent_calls=1).total == 4


def test_casual_goko_after_opponent_koikoi_is_40():
    brights = [c.id for c in DECK if c.kind.name == "BRIGHT"]
    a = settle(brights, R["casual"], opponent_calls=1)
    assert yaku(a) == {"goko": 10}
    assert a.total == 40
    assert [f for _, f in a.multipliers] == [2, 2]


def test_nintendo_sanko_plus_tanzaku_six_stays_six_then_seven_doubles_to_14():
    ribbons5 = ["04-R", "05-R", "07-R", "11-R", "01-RP"]  # no complete Akatan/Aotan
    a = settle(BRIGHTS3 + ribbons5, R["nintendo"])
    assert yaku(a) == {"sanko": 5, "tanzaku": 1}
    assert a.total == 6
    a = settle(BRIGHTS3 + ribbons5 + ["06-RB"], R["nintendo"])
    assert yaku(a) == {"sanko": 5, "tanzaku": 2}
    assert (a.base, a.total) == (7, 14)


@pytest.mark.parametrize("preset", ["casual", "nintendo", "kk-add-10", "tournament", "yakuza"])
def test_nine_points_against_a_caller_is_36_where_both_doublings_apply(preset):
    # Sankō 5 + Tane 1 (five animals, no sake cup) + Kasu 3 (twelve chaff) = 9.
    cards = BRIGHTS3 + ["02-A", "04-A", "05-A", "08-A", "11-A"] + CHAFF10 + ["06-P1", "06-P2"]
    a = settle(cards, R[preset], opponent_calls=1)
    assert yaku(a) == {"sanko": 5, "tane": 1, "kasu": 3}
    assert (a.base, a.total) == (9, 36)


# ---- Bright yaku never stack; the Rain man

@pytest.mark.parametrize("preset,expect", [
    ("casual", (10, 8, 7, 5)), ("classic", (15, 8, 7, 6)), ("nintendo", (10, 8, 7, 5)),
])
def test_bright_yaku_values_and_rain_man(preset, expect):
    r = R[preset]
    goko, shiko, ame, sanko = expect
    assert yaku(settle(["01-B", "03-B", "08-B", "11-B", "12-B"], r)) == {"goko": goko}
    assert yaku(settle(["01-B", "03-B", "08-B", "12-B"], r)) == {"shiko": shiko}
    assert yaku(settle(["01-B", "03-B", "08-B", "11-B"], r)) == {"ame_shiko": ame}
    assert yaku(settle(["01-B", "03-B", "12-B"], r)) == {"sanko": sanko}
    assert yaku(settle(["01-B", "03-B", "11-B"], r)) == {}  # three with the Rain man is nothing


# ---- Stacking versus graded sets

def test_stack_scores_akatan_and_aotan_separately_and_still_counts_tanzaku():
    six = ["01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB"]
    assert yaku(settle(six, R["casual"])) == {"akatan": 5, "aotan": 5, "tanzaku": 2}
    assert yaku(settle(six, R["classic"])) == {"akatan": 6, "aotan": 6, "tanzaku": 2}


def test_graded_akatan_plus_two_ribbons_is_seven_and_replaces_tanzaku():
    a = settle(["01-RP", "02-RP", "03-RP", "04-R", "05-R"], R["nintendo"])
    assert yaku(a) == {"akatan": 7}


def test_graded_akatan_aotan_is_one_yaku_growing_with_ribbons():
    six = ["01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB"]
    assert yaku(settle(six, R["nintendo"])) == {"akatan_aotan": 10}
    assert yaku(settle(six + ["04-R"], R["nintendo"])) == {"akatan_aotan": 11}


def test_graded_inoshikacho_gains_per_animal_and_replaces_tane():
    ino = ["07-A", "10-A", "06-A"]
    assert yaku(settle(ino, R["nintendo"])) == {"inoshikacho": 5}
    assert yaku(settle(ino + ["02-A", "04-A"], R["nintendo"])) == {"inoshikacho": 7}
    assert yaku(settle(ino + ["02-A", "04-A"], R["casual"])) == {"inoshikacho": 5, "tane": 1}


# ---- The sake cup

def test_sake_cup_counts_as_chaff_only_where_the_preset_says():
    nine_chaff = CHAFF10[:9]
    assert yaku(settle(nine_chaff + ["09-A"], R["nintendo"])) == {"kasu": 1}
    assert yaku(settle(nine_chaff + ["09-A"], R["casual"])) == {}
    chaff_only = replace(R["casual"], sake_cup_is_chaff=True, sake_cup_is_animal=False)
    four = ["02-A", "04-A", "05-A", "08-A"]
    assert yaku(settle(four + ["09-A"], R["casual"])) == {"tane": 1}
    assert yaku(settle(four + ["09-A"], chaff_only)) == {}


def test_viewing_yaku_knobs_off_and_with_other_yaku():
    assert yaku(settle(["03-B", "09-A"], R["tournament"])) == {}
    assert yaku(settle(["03-B", "09-A"], R["yakuza"])) == {}
    other = replace(R["casual"], viewing="with_other_yaku")
    assert yaku(settle(["03-B", "09-A"], other)) == {}
    assert yaku(settle(["03-B", "09-A", "01-B", "08-B"], other)) == {
        "sanko": 5, "hanami_zake": 5, "tsukimi_zake": 5}
    assert yaku(settle(["03-B", "09-A"] + CHAFF10, other)) == {"hanami_zake": 5, "kasu": 1}


def test_weather_ruling_cancels_viewing_while_the_field_shows_willow_or_paulownia():
    w = replace(R["casual"], weather=True)
    both = ["03-B", "08-B", "09-A"]
    assert yaku(settle(both, w)) == {"hanami_zake": 5, "tsukimi_zake": 5}
    assert yaku(settle(both, w, field=["11-P"])) == {"tsukimi_zake": 5}
    assert yaku(settle(both, w, field=["12-P1"])) == {"hanami_zake": 5}
    assert yaku(settle(both, R["casual"], field=["11-P", "12-P1"])) == {
        "hanami_zake": 5, "tsukimi_zake": 5}


# ---- Multipliers

@pytest.mark.parametrize("mode,own,opp,factors", [
    ("opponent_called", 2, 0, []), ("opponent_called", 0, 1, [2]),
    ("own_calls_and_opponent", 2, 0, [3]), ("own_calls_and_opponent", 1, 1, [2, 2]),
    ("caller", 1, 0, [2]), ("caller", 0, 1, []),
    ("anyone", 0, 1, [2]), ("anyone", 1, 0, [2]), ("anyone", 0, 0, []),
    ("scaling", 1, 1, [3]), ("scaling", 3, 0, [4]), ("none", 2, 2, []),
])
def test_koikoi_multiplier_modes(mode, own, opp, factors):
    r = replace(R["casual"], koikoi_multiplier=mode, seven_plus_double=False)
    a = settle(BRIGHTS3, r, own_calls=own, opponent_calls=opp)
    assert [f for _, f in a.multipliers] == factors
    total = 5
    for f in factors:
        total *= f
    assert a.total == total


def test_seven_plus_double_knob_and_field_brights_multiplier():
    r = replace(R["casual"], seven_plus_double=False)
    assert settle(["01-B", "03-B", "08-B", "12-B"], r).total == 8
    assert settle(["01-B", "03-B", "08-B", "12-B"], R["casual"]).total == 16
    fb = replace(R["casual"], field_brights_multiplier=True)
    a = settle(BRIGHTS3, fb, field_brights=2)
    assert a.multipliers[-1][1] == 3 and a.total == 15
    assert settle(["01-B", "03-B", "08-B", "12-B"], R["classic"]).total == 8  # classic: no 7+ doubling


def test_no_yaku_no_award_and_no_multipliers():
    a = settle(["01-P1", "02-P1"], R["casual"], opponent_calls=2)
    assert (a.yaku, a.base, a.multipliers, a.total) == ((), 0, (), 0)


def test_settle_accepts_card_objects_and_rejects_unknown_ids():
    assert settle([card("01-B"), card("03-B"), card("08-B")], R["casual"]).base == 5
    with pytest.raises(KeyError):
        settle(["13-B"], R["casual"])


def test_yaku_cards_are_reported():
    a = settle(BRIGHTS3 + ["09-A"], R["casual"])
    cards = {name: set(ids) for name, _, ids in a.yaku}
    assert cards["sanko"] == set(BRIGHTS3)
    assert cards["hanami_zake"] == {"03-B", "09-A"}
