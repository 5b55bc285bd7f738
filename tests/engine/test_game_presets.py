"""The presets of two games, KoiKoi Japan and Battle Hanafuda (issue 16): their knobs, and
worked examples in the seeds' style (a pile of captures -> its points, with and without
Koi-Koi calls), then the round rules they play by."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from engine_helpers import deal, start

from koikoi.engine import RULESETS, KoiKoi, Play, apply, legal_actions, new_match, settle, view
from koikoi.engine.cards import to_mask
from koikoi.engine.events import LuckyHand, Misdeal, RoundDealt, Stopped, YakuMade
from koikoi.engine.match import DECIDE
from koikoi.engine.rules import PRESET_DESCRIPTIONS, PRESET_LABELS

R = RULESETS
KKJ, BATTLE = R["koikoi-japan"], R["battle-hanafuda"]
SIX_RIBBONS = ["01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB"]
CHAFF9 = ["01-P1", "01-P2", "02-P1", "02-P2", "03-P1", "03-P2", "04-P1", "04-P2", "05-P1"]


def yaku(award):
    return {name: pts for name, pts, _ in award.yaku}


def test_the_presets_are_named_labelled_and_described():
    for name in ("koikoi-japan", "battle-hanafuda"):
        assert R[name].name == name
        assert PRESET_LABELS[name] and PRESET_DESCRIPTIONS[name].endswith(".")
    assert list(PRESET_LABELS) == list(R) == list(PRESET_DESCRIPTIONS)
    assert (KKJ.months, KKJ.scoring_mode, KKJ.starting_points) == (8, "zero_sum", 30)
    assert KKJ.months in KKJ.months_offered and BATTLE.months in BATTLE.months_offered


def test_battle_hanafuda_is_nintendo_but_for_its_redeals_and_the_last_card():
    differ = {k: v for k, v in BATTLE.to_dict().items() if R["nintendo"].to_dict()[k] != v}
    assert differ == {"name": "battle-hanafuda", "months_offered": [2, 4, 6, 12], "lucky_hands": "misdeal",
                      "field_four_pairs": "redeal", "field_three_of_month": "redeal",
                      "last_turn_auto_stop": "mover_hand_empty"}


# ---------------------------------------------------------------- worked examples

# (captured cards, own calls, opponent's calls) -> (yaku -> points, award)
KKJ_EXAMPLES = [
    # brights 10/8/7/5, never stacking
    (["01-B", "03-B", "08-B", "11-B", "12-B"], 0, 0, {"goko": 10}, 10),
    (["01-B", "03-B", "08-B", "12-B"], 0, 0, {"shiko": 8}, 8),
    (["01-B", "03-B", "08-B", "11-B"], 0, 0, {"ame_shiko": 7}, 7),
    (["01-B", "03-B", "08-B"], 0, 0, {"sanko": 5}, 5),
    # no doublings, the opponent's calls change nothing; +1 per own call up to 3, then ×(calls − 2)
    (["01-B", "03-B", "08-B"], 0, 2, {"sanko": 5}, 5),
    (["01-B", "03-B", "08-B"], 1, 0, {"sanko": 5, "koikoi_bonus": 1}, 6),
    (["01-B", "03-B", "08-B"], 2, 1, {"sanko": 5, "koikoi_bonus": 2}, 7),
    (["01-B", "03-B", "08-B"], 3, 0, {"sanko": 5, "koikoi_bonus": 3}, 8),
    (["01-B", "03-B", "08-B"], 4, 0, {"sanko": 5}, 10),
    (["01-B", "03-B", "08-B"], 5, 0, {"sanko": 5}, 15),
    # the red and blue ribbons: 5 + 5 and 10 on top (20 with all six), Tanzaku besides
    (SIX_RIBBONS[:3], 0, 0, {"akatan": 5}, 5),
    (SIX_RIBBONS, 0, 0, {"akatan": 5, "aotan": 5, "akatan_aotan": 10, "tanzaku": 2}, 22),
    (SIX_RIBBONS, 1, 0, {"akatan": 5, "aotan": 5, "akatan_aotan": 10, "tanzaku": 2, "koikoi_bonus": 1}, 23),
    # the viewing yaku: 1 each, 3 each after one's own Koi-Koi
    (["03-B", "09-A"], 0, 0, {"hanami_zake": 1}, 1),
    (["03-B", "08-B", "09-A"], 0, 0, {"hanami_zake": 1, "tsukimi_zake": 1}, 2),
    (["03-B", "09-A"], 0, 1, {"hanami_zake": 1}, 1),
    (["03-B", "09-A"], 1, 0, {"hanami_zake": 3, "koikoi_bonus": 1}, 4),
    (["03-B", "08-B", "09-A"], 1, 0, {"hanami_zake": 3, "tsukimi_zake": 3, "koikoi_bonus": 1}, 7),
    # the sake cup is an animal and chaff; Inoshikachō 5 flat and its animals count for Tane
    (CHAFF9 + ["09-A"], 0, 0, {"kasu": 1}, 1),
    (["02-A", "04-A", "05-A", "08-A", "09-A"], 0, 0, {"tane": 1}, 1),
    (["07-A", "10-A", "06-A", "02-A", "04-A"], 0, 0, {"inoshikacho": 5, "tane": 1}, 6),
]


@pytest.mark.parametrize("cards,own,opp,want,total", KKJ_EXAMPLES)
def test_koikoi_japan_worked_examples(cards, own, opp, want, total):
    a = settle(cards, KKJ, own_calls=own, opponent_calls=opp)
    assert (yaku(a), a.total) == (want, total)


BATTLE_EXAMPLES = [
    # Nintendo's: Sankō + Tanzaku of 5 = 6; one more ribbon 7, doubled to 14; ×2 again after
    # the opponent's Koi-Koi; graded sets
    (["01-B", "03-B", "08-B", "04-R", "05-R", "07-R", "11-R", "01-RP"], 0, 0, {"sanko": 5, "tanzaku": 1}, 6),
    (["01-B", "03-B", "08-B", "04-R", "05-R", "07-R", "11-R", "01-RP", "06-RB"], 0, 0,
     {"sanko": 5, "tanzaku": 2}, 14),
    (["01-B", "03-B", "08-B", "04-R", "05-R", "07-R", "11-R", "01-RP", "06-RB"], 0, 1,
     {"sanko": 5, "tanzaku": 2}, 28),
    (["01-RP", "02-RP", "03-RP", "04-R", "05-R"], 0, 0, {"akatan": 7}, 14),
    (SIX_RIBBONS, 0, 0, {"akatan_aotan": 10}, 20),
    (["07-A", "10-A", "06-A", "02-A", "04-A"], 1, 0, {"inoshikacho": 7}, 14),
    (["03-B", "09-A"], 1, 0, {"hanami_zake": 5}, 5),
    (CHAFF9 + ["09-A"], 0, 0, {"kasu": 1}, 1),
]


@pytest.mark.parametrize("cards,own,opp,want,total", BATTLE_EXAMPLES)
def test_battle_hanafuda_worked_examples(cards, own, opp, want, total):
    a = settle(cards, BATTLE, own_calls=own, opponent_calls=opp)
    assert (yaku(a), a.total) == (want, total)


# ---------------------------------------------------------------- the round rules

HANDS = (["02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B", "09-A"],
         ["02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB"])
PLAIN = deal(["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
             ["01-RP", "02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A"],
             ["09-A", "09-RB", "10-A", "10-RB", "11-A", "11-R", "12-B", "01-P1"])
THREE_IN_FIELD = deal(*HANDS, ["01-B", "01-RP", "01-P1", "10-A", "11-A", "12-B", "10-RB", "12-P1"])
FOUR_PAIRS_FIELD = deal(*HANDS, ["01-B", "01-RP", "10-A", "10-RB", "11-A", "11-R", "12-B", "12-P1"])
TESHI = deal(["01-B", "01-RP", "01-P1", "01-P2", "02-A", "03-B", "04-A", "05-A"], HANDS[1],
             ["06-A", "07-A", "08-B", "09-A", "10-A", "11-A", "12-B", "10-RB"])
KUTTSUKI = deal(HANDS[0], ["02-RP", "02-P1", "03-RP", "03-P1", "04-R", "04-P1", "05-R", "05-P1"],
                ["06-P1", "07-P1", "08-P1", "10-A", "10-P1", "11-A", "12-B", "12-P1"])


@pytest.mark.parametrize("deck,reason", [(THREE_IN_FIELD, "three_of_a_month"), (FOUR_PAIRS_FIELD, "four_pairs"),
                                         (TESHI, "lucky_hand"), (KUTTSUKI, "lucky_hand")])
def test_battle_hanafuda_redeals_what_nintendo_plays_or_pays(deck, reason):
    s = start(BATTLE, deck, PLAIN)
    assert [e.reason for e in s.events if isinstance(e, Misdeal)] == [reason]
    assert not [e for e in s.events if isinstance(e, LuckyHand)]
    assert len([e for e in s.events if isinstance(e, RoundDealt)]) == 2 and s.round == 1
    n = start(R["nintendo"], deck, PLAIN)           # Nintendo: played on, or the lucky hand paid
    assert not [e for e in n.events if isinstance(e, Misdeal)]


def _auto_stops_on_the_last_card(rules) -> int:
    """Random matches, calling Koi-Koi whenever asked: every yaku made with the mover's own
    hand empty ends the round at once (no Koi-Koi offered). Returns how many were seen."""
    seen = 0
    rng = random.Random(rules.name)
    for seed in range(40):
        s = new_match(rules, seed=seed)
        while not s.is_over:
            legal = legal_actions(s)
            a = KoiKoi() if s.phase == DECIDE else legal[rng.randrange(len(legal))]
            hand = s.hands[s.to_move] if s.to_move is not None else 0
            if isinstance(a, Play):
                hand &= ~to_mask([a.card])
            before = len(s.events)
            s2 = apply(s, a)
            new = s2.events[before:]
            for i, e in enumerate(new):
                if isinstance(e, YakuMade) and not hand:
                    assert i + 1 < len(new) and isinstance(new[i + 1], Stopped) and new[i + 1].auto, \
                        "Koi-Koi offered on the last card"
                    seen += 1
            s = s2
        if seen >= 5:
            break
    return seen


@pytest.mark.parametrize("preset", ["koikoi-japan", "battle-hanafuda"])
def test_no_koikoi_is_offered_on_the_movers_last_card(preset):
    assert _auto_stops_on_the_last_card(R[preset]) >= 5


def test_koikoi_japan_last_card_scripted():
    """The dealer's last card makes Sankō while the other hand still holds a card: KoiKoi
    Japan stops the round at once (the casual preset would ask)."""
    sanko = deal(["01-B", "03-B", "08-B", "02-A", "04-A", "05-A", "06-A", "07-A"],
                 ["09-RB", "10-RB", "11-R", "12-B", "04-R", "05-R", "06-RB", "07-R"],
                 ["01-P1", "03-P1", "08-P1", "09-P1", "10-P1", "11-P", "12-P1", "02-RP"],
                 ["04-P1", "05-P1", "06-P1", "07-P1", "04-P2", "05-P2", "06-P2", "07-P2"])
    for rules, asks in ((KKJ, False), (replace(KKJ, last_turn_auto_stop="both_hands_empty"), True)):
        s = start(replace(rules, lucky_hands="off"), sanko)
        s = s._replace(hands=(to_mask(["08-B"]), to_mask(["12-B"])), captured=(to_mask(["01-B", "03-B"]), 0))
        s2 = apply(s, Play("08-B"))
        if asks:
            assert s2.phase == DECIDE
        else:
            row = s2.ledger[-1]
            assert (row.winner, row.reason, row.award) == (0, "auto_stop", 5)
            assert s2.scores == (35, 25)        # zero-sum from 30 each


def test_koikoi_japan_pays_the_dealer_a_point_for_a_round_run_out_and_he_deals_again():
    rng = random.Random(3)
    found = 0
    for seed in range(60):
        s = new_match(KKJ, seed=seed, first_dealer=0)
        while not s.is_over and found < 3:
            legal = legal_actions(s)
            a = KoiKoi() if s.phase == DECIDE else legal[rng.randrange(len(legal))]
            before = len(s.ledger)
            scores, dealer = s.scores, s.dealer
            s = apply(s, a)
            if len(s.ledger) > before and s.ledger[before].reason == "exhausted":
                row = s.ledger[before]
                assert (row.winner, row.award, row.yaku) == (dealer, 1, (("oya_ken", 1, ()),))
                assert s.scores[dealer] == scores[dealer] + 1 and sum(s.scores) == 60
                assert s.is_over or s.dealer == dealer
                found += 1
        if found >= 3:
            return
    pytest.fail("no round ran out")


def test_koikoi_japan_is_zero_sum_from_30_and_ends_at_zero():
    s = new_match(KKJ, seed=4, first_dealer=1)
    assert s.scores == (30, 30) and s.months == 8
    rng = random.Random(4)
    while not s.is_over:
        legal = legal_actions(s)
        s = apply(s, legal[rng.randrange(len(legal))])
        assert sum(s.scores) == 60 and min(s.scores) >= 0
    assert len(s.ledger) == 8 or min(s.scores) == 0
    assert view(s, 0).scores == s.scores
