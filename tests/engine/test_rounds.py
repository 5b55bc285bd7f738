"""Turns and rounds, knob by knob, from exact deals (see engine_helpers.start)."""

from dataclasses import replace

import pytest
from engine_helpers import deal, seed_with_spread, start

from koikoi.engine import (RULESETS, ChooseMatch, IllegalAction, KoiKoi, PickOyagime, Play, Stop,
                           apply, legal_actions, new_match, view)
from koikoi.engine.cards import ID_TO_INDEX, card, to_mask
from koikoi.engine.scoring import improved
from koikoi.engine.events import (Chose, Exhausted, FieldSwept, Flipped, KoiKoiCalled, LuckyHand,
                                  MatchEnded, Misdeal, OyagimeDecided, Played, RoundDealt,
                                  RoundEnded, Stopped, YakuMade)

R = RULESETS
FILLER_A = ["02-P1", "03-P1", "04-P1", "05-P1", "06-P1", "07-P1", "10-P1", "12-P1"]
FILLER_B = ["02-P2", "03-P2", "04-P2", "05-P2", "06-P2", "07-P2", "10-P2", "12-P2"]


def _mask(card_ids):
    return to_mask(card_ids)


def ids(cards):
    return {c.id for c in cards}


def events_since(before, after, kind):
    return [e for e in after.events[len(before.events):] if isinstance(e, kind)]


# ---------------------------------------------------------------- matching

def test_hand_card_with_no_match_joins_the_field_and_stock_can_match_it():
    s = start(R["casual"], deal(
        ["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
        ["01-RP", "02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A"],
        ["09-A", "09-RB", "10-A", "10-RB", "11-A", "11-R", "12-B", "12-P3"],
        ["08-P1"]))  # the stock's top card matches the 08-B just laid down
    assert s.phase_name == "play" and s.to_move == 0 and s.dealer == 0
    s2 = apply(s, Play("08-B"))
    played, flipped = events_since(s, s2, Played)[0], events_since(s, s2, Flipped)[0]
    assert played.taken == ()
    assert flipped.card == "08-P1" and flipped.taken == ("08-B",)
    assert ids(view(s2, 0).captured[0]) == {"08-B", "08-P1"}
    assert s2.to_move == 1


def test_one_match_captures_both_three_match_captures_all_four():
    s = start(R["casual"], deal(
        ["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
        ["08-A", "09-RB", "10-RB", "11-R", "12-B", "04-R", "05-R", "06-RB"],
        ["01-RP", "01-P1", "01-P2", "02-RP", "09-A", "10-A", "11-A", "12-P3"],
        ["11-P", "02-P1"]))
    assert len(legal_actions(s)) == 8
    s2 = apply(s, Play("01-B"))
    assert events_since(s, s2, Played)[0].taken == ("01-RP", "01-P1", "01-P2")
    assert {"01-B", "01-RP", "01-P1", "01-P2", "11-P", "11-A"} == ids(view(s2, 0).captured[0])
    s3 = apply(s2, Play("12-B"))  # seat 1 takes 12-P3
    assert ids(view(s3, 1).captured[1]) >= {"12-B", "12-P3"}


def test_two_matches_need_a_target_and_the_stock_choice_cannot_be_cancelled():
    s = start(R["casual"], deal(
        ["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
        ["08-A", "09-RB", "10-RB", "11-R", "12-B", "04-R", "05-R", "06-RB"],
        ["01-RP", "01-P1", "02-RP", "02-P1", "09-A", "10-A", "11-A", "12-P3"],
        ["03-P1", "02-P2"]))
    acts = legal_actions(s)
    assert Play("01-B", "01-RP") in acts and Play("01-B", "01-P1") in acts and Play("01-B") not in acts
    with pytest.raises(IllegalAction, match="say which to take"):
        apply(s, Play("01-B"))
    with pytest.raises(IllegalAction, match="not one of the field cards"):
        apply(s, Play("01-B", "02-RP"))
    s = apply(s, Play("01-B", "01-RP"))       # stock 03-P1 matches nothing... 03-B is in hand
    assert view(s, 0).pending is None and s.to_move == 1
    s = apply(s, Play("08-A"))                # seat 1: no match; stock 02-P2 matches 02-RP, 02-P1
    assert s.phase_name == "choose_match" and s.to_move == 1
    v = view(s, 1)
    assert v.pending.id == "02-P2" and ids(v.choices) == {"02-RP", "02-P1"}
    assert set(legal_actions(s)) == {ChooseMatch("02-RP"), ChooseMatch("02-P1")}
    for wrong in (Play("09-RB"), Stop(), KoiKoi(), ChooseMatch("01-P1")):
        with pytest.raises(IllegalAction):
            apply(s, wrong)
    s2 = apply(s, ChooseMatch("02-RP"))
    assert events_since(s, s2, Chose)[0].target == "02-RP"
    assert ids(view(s2, 1).captured[1]) == {"02-P2", "02-RP"}
    assert "02-P1" in ids(view(s2, 1).field)


def test_must_play_match_knob():
    hands = (["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
             ["08-A", "09-RB", "10-RB", "11-R", "12-B", "04-R", "05-R", "06-RB"],
             ["01-RP", "09-A", "10-A", "11-A", "12-P3", "11-P", "10-P1", "09-P1"])
    s = start(R["casual"], deal(*hands))
    assert len(legal_actions(s)) == 8
    s = start(replace(R["casual"], must_play_match=True), deal(*hands))
    assert legal_actions(s) == (Play("01-B"),)
    with pytest.raises(IllegalAction, match="must_play_match"):
        apply(s, Play("02-A"))


# ---------------------------------------------------------------- the decision

SANKO_DEAL = deal(  # the dealer can take the crane, curtain and moon on three turns
    ["01-B", "03-B", "08-B", "02-A", "04-A", "05-A", "06-A", "07-A"],
    ["09-RB", "10-RB", "11-R", "12-B", "04-R", "05-R", "06-RB", "07-R"],
    ["01-P1", "03-P1", "08-P1", "09-P1", "10-P1", "11-P", "12-P1", "02-RP"],
    ["04-P1", "05-P1", "06-P1", "07-P1", "04-P2", "05-P2", "06-P2", "07-P2"])


def play_to_sanko(s):
    """Dealer takes 01-B, 03-B, 08-B on turns 1-3; the other seat plays ribbons."""
    s = apply(s, Play("01-B"))
    s = apply(s, Play("09-RB"))
    s = apply(s, Play("03-B"))
    s = apply(s, Play("10-RB"))
    return apply(s, Play("08-B"))


@pytest.mark.parametrize("preset", ["casual", "classic", "nintendo", "kk-add-10", "tournament", "yakuza"])
def test_a_new_yaku_prompts_stop_or_koikoi_and_stop_scores_it(preset):
    rules = replace(R[preset], lucky_hands="off")
    s = start(rules, SANKO_DEAL)
    s = play_to_sanko(s)
    assert s.phase_name == "decide" and s.to_move == 0
    assert set(legal_actions(s)) == {Stop(), KoiKoi()}
    made = [e for e in s.events if isinstance(e, YakuMade)][-1]
    assert made.seat == 0 and dict(made.yaku)["sanko"] == rules.sanko
    s2 = apply(s, Stop())
    row = s2.ledger[-1]
    assert (row.winner, row.reason, row.award) == (0, "stop", rules.sanko)
    assert s2.scores[0] == rules.sanko
    assert isinstance(events_since(s, s2, RoundDealt)[0], RoundDealt)  # the next round is dealt
    assert s2.dealer == 0 and s2.to_move == 0 and s2.round == 2


def give(s, seat, card_ids):
    """Move cards from the (unturned) stock into ``seat``'s capture pile."""
    m = _mask(card_ids)
    idx = [ID_TO_INDEX[c] for c in card_ids]
    assert all(i in s.stock[s.stock_pos:] for i in idx), "only unturned stock cards can be moved"
    stock = tuple(i for i in s.stock if i not in idx)
    captured = list(s.captured)
    captured[seat] |= m
    return s._replace(stock=stock, captured=tuple(captured))


def test_koikoi_then_no_prompt_until_the_total_rises_and_opponent_stop_doubles():
    s = start(R["casual"], SANKO_DEAL)
    s = apply(play_to_sanko(s), KoiKoi())
    assert s.calls == (1, 0) and s.to_move == 1
    assert view(s, 1).koikoi_refs[0] == (("sanko", 5),)
    # Play on: seat 0's next captures add no yaku, so no prompt follows.
    s = apply(s, Play("11-R"))
    s = apply(s, Play("02-A"))
    assert s.phase_name == "play" and s.to_move == 1
    # Seat 1 reaches Kasu (12 chaff) and stops: seat 0's call doubles the award.
    s = give(s, 1, ["01-P2", "02-P1", "02-P2", "03-P2"])
    s = apply(s, Play("12-B"))
    assert s.phase_name == "decide" and s.to_move == 1
    s2 = apply(s, Stop())
    row = s2.ledger[-1]
    assert row.winner == 1 and [n for n, _, _ in row.yaku] == ["kasu"]
    assert row.multipliers == (("opponent called Koi-Koi", 2),)
    assert (row.base, row.award) == (3, 6)


def test_prompt_when_modes():
    rise = R["casual"]
    grow = replace(R["casual"], prompt_when="combo_new_or_grew")
    ref = (("tane", 2),)
    now = (("tane", 1), ("kasu", 1))  # same total, a new combo
    assert not improved(rise, now, ref)
    assert improved(grow, now, ref)
    assert improved(rise, (("tane", 3),), ref) and improved(grow, (("tane", 3),), ref)
    assert not improved(grow, (("tane", 2),), ref)


def test_nintendo_one_koikoi_then_the_next_improvement_ends_the_round():
    s = start(R["nintendo"], SANKO_DEAL)
    s = apply(play_to_sanko(s), KoiKoi())
    s = give(s, 1, ["01-P2", "02-P1", "02-P2", "03-P2", "08-P2"])
    s2 = apply(s, Play("12-B"))  # Kasu: the first improvement after the call ends the round
    stopped = events_since(s, s2, Stopped)
    assert stopped and stopped[0].seat == 1 and stopped[0].auto
    row = s2.ledger[-1]
    assert (row.winner, row.reason) == (1, "auto_stop")
    assert row.award == row.base * 2 * (2 if row.base >= 7 else 1)


def test_last_turn_auto_stop_modes():
    assert R["nintendo"].last_turn_auto_stop == "both_hands_empty"
    assert R["kk-add-10"].last_turn_auto_stop == "mover_hand_empty"


@pytest.mark.parametrize("mode,expect_prompt", [("both_hands_empty", True), ("mover_hand_empty", False)])
def test_yaku_on_the_dealers_last_card(mode, expect_prompt):
    rules = replace(R["casual"], last_turn_auto_stop=mode)
    s = start(rules, SANKO_DEAL)
    # Dealer's last card: hand holds only 08-B, the other seat still has one card.
    s = s._replace(hands=(_mask(["08-B"]), _mask(["12-B"])), captured=(_mask(["01-B", "03-B"]), 0))
    s2 = apply(s, Play("08-B"))
    if expect_prompt:
        assert s2.phase_name == "decide"
    else:
        assert s2.ledger[-1].reason == "auto_stop" and s2.ledger[-1].winner == 0


# ---------------------------------------------------------------- exhaustion

@pytest.mark.parametrize("mode,last_yaku,next_dealer", [
    ("keeps", -1, 0), ("passes", -1, 1), ("last_yaku", 1, 1), ("last_yaku", -1, 0)])
def test_exhausted_round_scores_nothing_and_picks_the_next_dealer(mode, last_yaku, next_dealer):
    rules = replace(R["casual"], exhausted_dealer=mode)
    s = start(rules, SANKO_DEAL)
    s = s._replace(hands=(0, _mask(["12-B"])), to_move=1, last_yaku_seat=last_yaku)
    s2 = apply(s, Play("12-B"))
    assert events_since(s, s2, Exhausted)
    row = s2.ledger[-1]
    assert (row.winner, row.reason, row.award) == (None, "exhausted", 0)
    assert s2.scores == (0, 0)
    assert s2.dealer == next_dealer


def test_oya_ken_pays_the_dealer_for_an_exhausted_round():
    rules = replace(R["casual"], oya_ken=1, exhausted_dealer="keeps")
    s = start(rules, SANKO_DEAL)
    s = s._replace(hands=(0, _mask(["12-B"])), to_move=1)
    s2 = apply(s, Play("12-B"))
    row = s2.ledger[-1]
    assert (row.winner, row.reason, row.award, row.yaku[0][0]) == (0, "exhausted", 1, "oya_ken")
    assert s2.scores == (1, 0)


# ---------------------------------------------------------------- deals: misdeals and lucky hands

FOUR_IN_FIELD = deal(
    ["02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B", "09-A"],
    ["02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB"],
    ["01-B", "01-RP", "01-P1", "01-P2", "10-A", "11-A", "12-B", "10-RB"],
    ["11-R", "11-P", "12-P1", "12-P2"])
FOUR_PAIRS_FIELD = deal(
    ["02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B", "09-A"],
    ["02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB"],
    ["01-B", "01-RP", "10-A", "10-RB", "11-A", "11-R", "12-B", "12-P1"])
PLAIN = deal(  # no misdeal, no lucky hand
    ["01-B", "02-A", "03-B", "04-A", "05-A", "06-A", "07-A", "08-B"],
    ["01-RP", "02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A"],
    ["09-A", "09-RB", "10-A", "10-RB", "11-A", "11-R", "12-B", "01-P1"])


def test_four_of_a_month_in_the_field_is_a_misdeal_redealt_by_the_same_dealer():
    s = start(R["casual"], FOUR_IN_FIELD, PLAIN)
    mis = [e for e in s.events if isinstance(e, Misdeal)]
    assert mis and mis[0].reason == "four_of_a_month"
    assert len([e for e in s.events if isinstance(e, RoundDealt)]) == 2
    assert s.ledger == () and s.round == 1 and s.dealer == 0


def test_dealer_sweeps_the_four_and_stock_cards_replace_them():
    s = start(replace(R["casual"], field_four_of_month="dealer_sweeps"), FOUR_IN_FIELD)
    swept = [e for e in s.events if isinstance(e, FieldSwept)][0]
    assert swept.seat == 0 and set(swept.cards) == {"01-B", "01-RP", "01-P1", "01-P2"}
    assert swept.replacements == ("11-R", "11-P", "12-P1", "12-P2")
    v = view(s, 0)
    assert ids(v.captured[0]) == set(swept.cards)
    assert len(v.field) == 8 and v.stock_count == 20


def test_dealer_wins_with_four_of_a_month():
    rules = replace(R["casual"], field_four_of_month="dealer_wins")
    s = start(rules, FOUR_IN_FIELD, PLAIN)
    row = s.ledger[0]
    assert (row.winner, row.reason, row.award) == (0, "field_four", rules.lucky_points)


def test_four_pairs_redeal_only_where_the_preset_says():
    s = start(replace(R["kk-add-10"], lucky_hands="off"), FOUR_PAIRS_FIELD, PLAIN)
    assert [e.reason for e in s.events if isinstance(e, Misdeal)] == ["four_pairs"]
    s = start(R["nintendo"], FOUR_PAIRS_FIELD, PLAIN)
    assert not [e for e in s.events if isinstance(e, Misdeal)]


TESHI = deal(
    ["01-B", "01-RP", "01-P1", "01-P2", "02-A", "03-B", "04-A", "05-A"],
    ["02-RP", "03-RP", "04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB"],
    ["06-A", "07-A", "08-B", "09-A", "10-A", "11-A", "12-B", "10-RB"])
KUTTSUKI_BOTH = deal(
    ["01-B", "01-RP", "01-P1", "01-P2", "02-A", "03-B", "04-A", "05-A"],
    ["02-RP", "02-P1", "03-RP", "03-P1", "04-R", "04-P1", "05-R", "05-P1"],
    ["06-A", "07-A", "08-B", "09-A", "10-A", "11-A", "12-B", "10-RB"])


def test_lucky_hand_wins_the_round_flat():
    s = start(R["nintendo"], TESHI, PLAIN)
    lucky = [e for e in s.events if isinstance(e, LuckyHand)]
    assert lucky[0].seat == 0 and lucky[0].hands == ("teshi",) and lucky[0].points == 6
    row = s.ledger[0]
    assert (row.winner, row.reason, row.award, row.multipliers) == (0, "lucky_hand", 6, ())
    assert s.scores == (6, 0) and s.round == 2


def test_lucky_hands_for_both_players_draw_or_dealer():
    s = start(R["kk-add-10"], KUTTSUKI_BOTH, PLAIN)
    assert s.ledger[0].reason == "lucky_draw" and s.ledger[0].winner is None and s.scores == (0, 0)
    assert s.dealer == 0
    s = start(R["yakuza"], KUTTSUKI_BOTH, PLAIN, dealer=1)
    # seat 1 deals: its hand is the teshi one here
    assert s.ledger[0].winner == 1 and s.scores == (0, 6)


def test_lucky_hands_off_or_misdeal():
    s = start(R["casual"], TESHI, PLAIN)
    assert s.ledger == () and s.phase_name == "play"
    s = start(replace(R["nintendo"], lucky_hands="misdeal"), TESHI, PLAIN)
    assert [e.reason for e in s.events if isinstance(e, Misdeal)] == ["lucky_hand"]
    assert s.ledger == ()


def test_one_player_holding_teshi_and_kuttsuki_gets_the_both_hands_points():
    both = deal(["01-B", "01-RP", "01-P1", "01-P2", "02-A", "02-RP", "03-B", "03-RP"],
                ["04-R", "05-R", "06-RB", "07-R", "08-A", "09-RB", "10-A", "11-A"],
                ["06-A", "07-A", "08-B", "09-A", "12-B", "10-RB", "04-A", "05-A"])
    rules = replace(R["nintendo"], lucky_both_hands_points=12)
    s = start(rules, both, PLAIN)
    assert s.ledger[0].yaku[0][0] == "teshi_kuttsuki" and s.scores == (12, 0)


# ---------------------------------------------------------------- oya-gime and match end

def test_oyagime_earlier_month_deals_and_ties_follow_the_knob():
    def month(c):
        return card(c).month

    # Seeds whose first spread has the shape each case needs (picks 1 and 3, 0 and 3, 1 and 2).
    seed = seed_with_spread(lambda sp: month(sp[3]) < month(sp[1]))
    s = apply(apply(new_match(R["casual"], seed=seed), PickOyagime(1)), PickOyagime(3))
    decided = [e for e in s.events if isinstance(e, OyagimeDecided)][0]
    assert (decided.dealer, decided.reason) == (1, "earlier_month") and s.to_move == 1

    seed = seed_with_spread(lambda sp: month(sp[0]) == month(sp[3])
                            and month(sp[1]) != month(sp[2]))
    s = apply(apply(new_match(R["casual"], seed=seed), PickOyagime(0)), PickOyagime(3))
    assert s.phase_name == "oyagime" and s.to_move == 0       # redraw
    assert [e.reason for e in s.events if isinstance(e, OyagimeDecided)] == ["same_month_redraw"]
    assert [e.type for e in s.events[-2:]] == ["oyagime_decided", "oyagime_spread"]

    seed = seed_with_spread(lambda sp: month(sp[1]) == month(sp[2])
                            and card(sp[2]).kind > card(sp[1]).kind)
    s = apply(apply(new_match(R["kk-add-10"], seed=seed), PickOyagime(1)), PickOyagime(2))
    decided = [e for e in s.events if isinstance(e, OyagimeDecided)][0]
    assert (decided.dealer, decided.reason) == (1, "higher_kind")  # seat 1's card is the higher kind
    s = apply(apply(new_match(R["casual"], seed=seed), PickOyagime(1)), PickOyagime(2))
    assert s.phase_name == "oyagime"                          # the same spread redraws under "redraw"


def test_oyagime_picks_are_per_seat():
    s = new_match(R["casual"], seed=3)
    assert legal_actions(s) == (PickOyagime(0), PickOyagime(1))
    with pytest.raises(IllegalAction, match="picks oya-gime card 0 or 1"):
        apply(s, PickOyagime(2))
    s = apply(s, PickOyagime(1))
    assert legal_actions(s) == (PickOyagime(2), PickOyagime(3))


def test_match_ends_after_its_months_with_a_winner():
    s = start(R["casual"], SANKO_DEAL, months=1)
    s = apply(play_to_sanko(s), Stop())
    assert s.is_over and s.winner == 0 and legal_actions(s) is None
    assert isinstance(s.events[-1], MatchEnded) and s.events[-1].scores == (5, 0)
    with pytest.raises(IllegalAction, match="match is over"):
        apply(s, Stop())


def test_target_points_and_zero_sum():
    s = start(replace(R["casual"], months=None, target_points=5), SANKO_DEAL)
    s = apply(play_to_sanko(s), Stop())
    assert s.is_over and s.scores == (5, 0)
    zs = replace(R["casual"], scoring_mode="zero_sum", starting_points=4, months=None)
    s = start(zs, SANKO_DEAL)
    assert s.scores == (4, 4)
    s = apply(play_to_sanko(s), Stop())
    assert s.scores == (8, 0) and s.is_over and s.winner == 0  # capped at what the loser had


def test_draw_when_totals_are_equal():
    s = start(R["casual"], SANKO_DEAL, months=1)
    s = s._replace(hands=(0, _mask(["12-B"])), to_move=1)
    s = apply(s, Play("12-B"))
    assert s.is_over and s.winner is None and s.scores == (0, 0)


def test_koikoi_calls_event():
    s = start(R["casual"], SANKO_DEAL)
    s2 = apply(play_to_sanko(s), KoiKoi())
    assert events_since(s, s2, KoiKoiCalled)[0].calls == 1
    assert any(isinstance(e, RoundEnded) for e in s2.events) is False
