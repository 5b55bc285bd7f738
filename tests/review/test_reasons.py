"""The review's reasons in the player's words (issue 28): what the better move makes, takes,
keeps safe or how often it wins, never only "in the playouts"; "about equal" when the two
moves are within the evaluator's noise. English and Japanese."""

from __future__ import annotations

import re

import pytest

from koikoi import i18n
from koikoi.ai.players import make_player
from koikoi.engine import RULESETS, KoiKoi, Play, Stop, apply, legal_actions, new_match, view
from koikoi.review.analysis import analyse_match, verdict_of
from koikoi.review.model import GOOD, INACCURACY, Decision, Option
from koikoi.review.reasons import explain, within_noise

from review_helpers import deck_of, play_out

# Seat 0 holds the Wisteria ribbon and a Wisteria plain; the Cuckoo lies on the field: either
# card takes it (the reported reason was "better move: Wisteria ribbon, which takes Cuckoo").
WISTERIA = dict(hand0=["04-R", "04-P1", "01-P1", "03-P1", "08-P1", "12-P1", "02-P1", "11-P"],
                hand1=["05-A", "06-RB", "09-P2", "09-RB", "11-A", "10-RB", "07-R", "12-P2"],
                field=["04-A", "01-B", "03-B", "05-P1", "06-P1", "07-P1", "10-P1", "08-B"],
                flips=["11-R", "09-P1", "12-P3", "02-RP"], moves=[])

# The opponent has taken the Boar with a Bush clover plain; seat 0 holds the Bush clover
# ribbon and the last Bush clover plain, and a Peony plain (the Butterflies and the Peony
# blue ribbon are unseen). Neither matches the field: discarding the ribbon is safe (only
# seat 0 could ever take it back), the Peony plain is kept for the Peony cards to come.
BUSH_CLOVER = dict(hand0=["07-R", "07-P2", "06-P1", "01-P1", "03-P2", "12-P1", "02-P1", "11-P"],
                   hand1=["07-P1", "05-A", "09-P2", "09-RB", "11-A", "10-RB", "04-R", "12-P2"],
                   field=["07-A", "01-B", "03-B", "05-P1", "04-P1", "10-P1", "08-B", "09-A"],
                   flips=["11-R", "12-P3", "02-RP", "08-P2"], moves=["01-P1", "07-P1"])


def _view(case):
    s = play_out(deck_of(case["hand0"], case["hand1"], case["field"], case["flips"]), case["moves"])
    return s, view(s, 0)


def _decision(chosen, best, loss, spread=0.3, won=(0.5, 0.45), lost=(0.3, 0.35), kind="play"):
    top = 3.0
    opts = (Option(best, top, 0.6, 0.0, won[0], lost[0]),
            Option(chosen, top - loss, 0.55, spread, won[1], lost[1]))
    return Decision(1, 0, 0, kind, chosen, best, opts, loss, verdict_of(loss, spread))


@pytest.fixture(params=["en", "ja"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_the_better_move_is_not_praised_for_a_card_the_players_move_also_took(lang):
    _s, v = _view(WISTERIA)
    d = _decision(Play("04-P1"), Play("04-R"), 2.0)
    text = explain(v, d, style="english")
    if lang == "en":
        assert "which takes Cuckoo" not in text, text
        assert "Your move takes Cuckoo too" in text and "Wisteria ribbon in your pile" in text, text
    else:
        assert "あなたの手でも藤に不如帰は取れます" in text, text
    assert "playouts" not in text and "プレイアウト" not in text


def test_a_safe_discard_says_why_it_is_safe(lang):
    _s, v = _view(BUSH_CLOVER)
    d = _decision(Play("06-P1"), Play("07-R"), 2.0)
    text = explain(v, d, style="english", opponent=i18n._("the CPU"))
    if lang == "en":
        assert "can never take Bush clover ribbon" in text, text
        assert "other Bush clover cards are taken or in your hand" in text, text
    else:
        assert "萩の残りの札は取られたかあなたの手にある" in text, text
    # And the ribbon left there is not called a gift to the opponent.
    bad = _decision(Play("07-R"), Play("06-P1"), 2.0)
    assert "may take it" not in explain(v, bad, style="english")


def test_a_move_kept_in_hand_names_the_card_it_waits_for():
    _s, v = _view(BUSH_CLOVER)
    # Discarding the Peony plain gives up taking the Butterflies or the Peony blue ribbon.
    d = _decision(Play("06-P1"), Play("02-P1"), 2.0)
    text = explain(v, d, style="english")
    assert "keeping a Peony plain in hand to take" in text and "Butterflies" in text, text


def test_with_nothing_on_the_table_to_name_the_reason_is_the_chance_of_winning_the_round(lang):
    _s, v = _view(BUSH_CLOVER)
    d = _decision(Play("07-P2"), Play("02-P1"), 2.0, won=(0.52, 0.41))
    text = explain(v, d, style="english")
    assert "52" in text and "41" in text, text
    assert "playouts" not in text and "プレイアウト" not in text
    d = _decision(Play("07-P2"), Play("02-P1"), 2.0, won=(0.5, 0.5), lost=(0.3, 0.3))
    text = explain(v, d, style="english")
    assert ("bigger yaku" in text) if lang == "en" else ("役" in text), text


def test_moves_within_the_noise_are_about_equal_not_a_mistake(lang):
    _s, v = _view(WISTERIA)
    # 0.9 points apart with a paired standard error of 0.5: within two standard errors.
    d = _decision(Play("04-P1"), Play("08-P1"), 0.9, spread=0.5)
    assert d.verdict == GOOD and within_noise(d)
    text = explain(v, d, style="english")
    assert text.startswith("About equal") if lang == "en" else "ほぼ同じ" in text, text
    # Beyond the noise, the same gap is marked and the reason names the better move.
    d = _decision(Play("04-P1"), Play("08-P1"), 0.9, spread=0.1)
    assert d.verdict == INACCURACY and not within_noise(d)
    assert "Moon" in explain(v, d, style="english") or lang == "ja"


def test_koikoi_and_stop_within_the_noise_are_about_equal(lang):
    _s, v = _view(WISTERIA)
    d = _decision(KoiKoi(), Stop(), 0.6, spread=0.4, kind="decide")
    text = explain(v, d, style="english")
    assert text.startswith("About equal") if lang == "en" else "ほぼ同じ" in text, text


def test_no_reason_of_a_reviewed_match_speaks_of_playouts():
    s = new_match(RULESETS["nintendo"], seed=5, months=3)
    players = [make_player("medium", seed=1), make_player("easy", seed=2)]
    for _ in range(2000):
        if s.is_over:
            break
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    review = analyse_match(s.events, (0, 1), budget=40)
    reasons = [d.reason for r in review.rounds for d in r.decisions]
    assert len(reasons) > 20
    for text in reasons:
        assert "playout" not in text.lower(), text
        assert not re.search(r"\d\d-[A-Z]", text), text
