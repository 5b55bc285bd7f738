"""The review stops dealing once more deals would not change the verdict (``settled``), so
a 12-round match is analysed in about half the time of the full budget (issue 28, review
speed), with the same values whatever the chosen action at a Koi-Koi question."""

from __future__ import annotations

import pytest

from koikoi.ai import hard
from koikoi.ai.hard import Estimate
from koikoi.engine import KoiKoi, Play, Stop, legal_actions, view
from koikoi.review import analysis, analyse_decision
from review_helpers import SANKO, STOP, scripted


def _est(*gaps_and_spreads):
    out = [Estimate(5.0, 0.6, 0.0)]
    out += [Estimate(5.0 - g, 0.5, s) for g, s in gaps_and_spreads]
    return out


def test_settled_asks_whether_one_standard_error_either_way_keeps_the_verdict():
    assert analysis.settled(_est((4.0, 0.3)))             # a mistake either way
    assert analysis.settled(_est((0.2, 0.3)))             # good either way
    assert not analysis.settled(_est((1.5, 0.3)))         # inaccuracy or mistake: deal on
    assert not analysis.settled(_est((4.0, 0.3), (1.5, 0.3)))
    assert analysis.settled(_est((4.0, 0.3), (1.5, 0.3)), chosen=1)   # only the chosen one
    assert analysis.settled(_est((4.0, 0.3), (1.5, 0.3)), chosen=0)   # the best: good anyway


@pytest.fixture
def deals(monkeypatch):
    used = []
    real = hard._summary

    def spy(records, exact, live, k):
        used.append(k)
        return real(records, exact, live, k)

    monkeypatch.setattr(hard, "_summary", spy)
    return used


def test_a_clear_decision_stops_at_the_least_deals(deals):
    _deck, s = scripted(SANKO)
    d = analyse_decision(view(s, 0), legal_actions(s), Play("08-P1"), budget=500)
    assert d.verdict == "good" and d.best == Play("08-P1")
    assert deals[-1] == analysis.MIN_DEALS


def test_a_koikoi_question_gets_the_same_values_whatever_the_answer(deals):
    _deck, s = scripted(STOP)
    v, legal = view(s, s.to_move), legal_actions(s)
    a = analyse_decision(v, legal, KoiKoi(), budget=500)
    b = analyse_decision(v, legal, Stop(), budget=500)
    assert a.options == b.options and a.best == b.best == Stop()
    assert deals[0] == deals[-1] <= 500


def test_without_a_check_the_full_budget_is_dealt(deals):
    _deck, s = scripted(SANKO)
    v, legal = view(s, 0), legal_actions(s)
    hard.estimate(v, legal, samples=300, seed=0)
    assert deals[-1] == 300
