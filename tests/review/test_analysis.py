"""The review's verdicts on positions whose best move is obvious, and its blindness to the
hidden cards (the opponent's hand and the stock order)."""

from __future__ import annotations

import re
import threading

import pytest

from koikoi import i18n
from koikoi.ai import make_player
from koikoi.engine import (RULESETS, KoiKoi, Play, State, Stop, View, apply, legal_actions,
                           new_match, view)
from koikoi.review import (FORCED, GOOD, INACCURACY, MISTAKE, Cancelled, analyse_decision,
                           analyse_match, positions)
from koikoi.review import analysis
from review_helpers import FEED, SANKO, STOP, deck_of, hidden_shuffled, play_out, scripted

BUDGET = 120


def _decide(spec, chosen, budget=BUDGET):
    _deck, s = scripted(spec)
    return analyse_decision(view(s, s.to_move), legal_actions(s), chosen, budget=budget)


def _cpu_match(months=1, seed=3, upto=None):
    s = new_match(RULESETS["nintendo"], seed=seed, months=months)
    players = [make_player("medium", seed=1), make_player("easy", seed=2)]
    while not s.is_over and (upto is None or len(s.events) < upto):
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    return s


def test_taking_the_moon_for_sanko_is_good_and_anything_else_a_mistake():
    good = _decide(SANKO, Play("08-P1"))
    assert good.verdict == GOOD and good.loss == 0.0 and good.best == Play("08-P1")
    assert good.options[0].action == Play("08-P1")
    assert "Moon" in good.reason and "Sankō" in good.reason and "08-" not in good.reason
    bad = _decide(SANKO, Play("11-P"))
    assert bad.verdict == MISTAKE and bad.best == Play("08-P1") and bad.loss >= 1.5
    assert bad.is_error and "Sankō" in bad.reason
    # The same values whatever was chosen: the options do not depend on the choice.
    assert {o.action: o.points for o in bad.options} == {o.action: o.points for o in good.options}


def test_twin_plains_are_one_move():
    a, b = _decide(SANKO, Play("12-P1")), _decide(SANKO, Play("12-P2"))
    values = {o.action: o.points for o in a.options}
    assert values[Play("12-P1")] == values[Play("12-P2")]
    assert values[Play("02-P1")] == values[Play("02-P2")]
    assert (a.loss, a.verdict) == (b.loss, b.verdict)


def test_feeding_the_moon_to_the_opponents_sanko_is_a_mistake():
    d = _decide(FEED, Play("08-B"))
    assert d.verdict == MISTAKE and d.best != Play("08-B") and d.loss >= 3
    assert "feeds" in d.reason and "Sankō" in d.reason and "Moon" in d.reason
    assert d.options[-1].action == Play("08-B")      # the worst option of all


def test_stop_when_the_opponent_is_a_card_from_sanko():
    stop = _decide(STOP, Stop())
    assert stop.kind == "decide" and stop.verdict == GOOD and stop.loss == 0.0
    value = {type(o.action): o for o in stop.options}
    assert value[Stop].points == 5.0 and value[Stop].spread == 0.0    # exact: the award
    assert stop.reason.startswith("Stop: 5 points now") and "Sankō" in stop.reason
    call = _decide(STOP, KoiKoi())
    assert call.verdict == MISTAKE and call.best == Stop() and call.loss >= 1.5


def test_a_single_legal_move_is_forced_and_left_out_of_the_review():
    forced = None
    for seed in range(40):     # a round played to its last card: the last play is forced
        s = new_match(RULESETS["nintendo"], seed=seed, months=1)
        players = [make_player("easy", seed=1), make_player("easy", seed=2)]
        while not s.is_over:
            legal = legal_actions(s)
            if forced is None and s.phase_name == "play" and len(legal) == 1:
                forced = (len(s.events), view(s, s.to_move), legal)
            s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal))
        if forced is not None:
            break
    assert forced is not None
    index, v, legal = forced
    d = analyse_decision(v, legal, legal[0], index=index)
    assert d.verdict == FORCED and d.loss == 0.0 and d.best == legal[0]
    assert all(len(p.legal) > 1 for p in positions(s.events, (0, 1)))
    assert index not in {p.index for p in positions(s.events, (0, 1))}


def test_a_chosen_action_that_is_not_legal_is_refused():
    _deck, s = scripted(SANKO)
    with pytest.raises(ValueError):
        analyse_decision(view(s, 0), legal_actions(s), Play("01-B"), budget=4)


def test_shuffling_the_unseen_cards_changes_no_verdict():
    deck, s = scripted(SANKO)
    for seed in (1, 2):
        other_deck = hidden_shuffled(deck, s, 0, seed)
        t = play_out(other_deck, SANKO["moves"])
        assert (t.hands[1], t.stock[t.stock_pos:]) != (s.hands[1], s.stock[s.stock_pos:])
        assert view(t, 0) == view(s, 0)
        for chosen in (Play("08-P1"), Play("12-P1")):
            assert analyse_decision(view(t, 0), legal_actions(t), chosen, budget=BUDGET) == \
                analyse_decision(view(s, 0), legal_actions(s), chosen, budget=BUDGET)
        # Every decision of seat 0 in the two logs, through the match walker.
        mine = positions(s.events, (0,), complete=False)
        theirs = positions(t.events, (0,), complete=False)
        assert [p.index for p in mine] == [p.index for p in theirs] and mine
        for p, q in zip(mine, theirs):
            assert analyse_decision(p.view, p.legal, p.chosen, index=p.index, budget=40) == \
                analyse_decision(q.view, q.legal, q.chosen, index=q.index, budget=40)


def test_the_core_only_ever_receives_views(monkeypatch):
    s = _cpu_match()
    seen = []
    real = analysis.analyse_decision

    def spy(v, legal, chosen, **kw):
        assert isinstance(v, View) and not isinstance(v, State)
        assert not any(isinstance(x, State) for x in (legal, chosen, *kw.values()))
        seen.append(kw["index"])
        return real(v, legal, chosen, **kw)

    monkeypatch.setattr(analysis, "analyse_decision", spy)
    review = analyse_match(s.events, (0, 1), budget=8)
    assert seen == sorted(d.index for r in review.rounds for d in r.decisions) and seen


def test_a_match_review_covers_the_complete_rounds_with_progress():
    s = _cpu_match(months=2)
    calls = []
    review = analyse_match(s.events, (0,), match_id="m1", budget=8,
                           progress=lambda done, total: calls.append((done, total)))
    assert [r.round for r in review.rounds] == [1, 2] and all(r.seat == 0 for r in review.rounds)
    n = sum(len(r.decisions) for r in review.rounds)
    assert calls[0] == (0, n) and calls[-1] == (n, n) and len(calls) == n + 1
    for r in review.rounds:
        assert [d.index for d in r.decisions] == sorted(d.index for d in r.decisions)
        for d in r.decisions:
            assert d.seat == 0 and d.round == r.round and d.reason and d.verdict != FORCED
            assert review.decision_at(d.index) == d
            assert d.options[0].action == d.best and d.loss >= 0.0
            assert d.verdict in (GOOD, INACCURACY, MISTAKE)
            assert not re.search(r"\d\d-[A-Z]", d.reason), d.reason    # cards by name, never ids
    assert review.meta["rounds_done"] == 2 and review.budget == 8
    assert analyse_match(s.events, (0,), match_id="m1", budget=8).rounds == review.rounds


def test_an_unfinished_match_is_reviewed_up_to_its_last_complete_round_and_extended():
    full = _cpu_match(months=2)
    first_end = next(i for i, e in enumerate(full.events) if e.type == "round_ended")
    partial = full.events[:first_end + 6]          # a few turns into round 2
    early = analyse_match(partial, (0, 1), budget=8)
    assert [r.round for r in early.rounds] == [1, 1] and early.meta["rounds_done"] == 1
    whole = analyse_match(full.events, (0, 1), budget=8)
    totals = []
    extended = analyse_match(full.events, (0, 1), budget=8, prior=early,
                             progress=lambda done, total: totals.append(total))
    assert extended.rounds == whole.rounds
    # Only round 2 was analysed: round 1's decisions came from the prior review.
    assert totals[0] == sum(len(r.decisions) for r in whole.rounds if r.round == 2)
    # A prior of another budget, or of another log, is not reused: all is analysed again.
    assert analyse_match(full.events, (0, 1), budget=9, prior=early).rounds == \
        analyse_match(full.events, (0, 1), budget=9).rounds
    other = _cpu_match(months=2, seed=11)
    assert analyse_match(other.events, (0, 1), budget=8, prior=early).rounds == \
        analyse_match(other.events, (0, 1), budget=8).rounds


def test_cancel_stops_between_decisions():
    s = _cpu_match()
    stop = threading.Event()
    done = []

    def progress(n, total):
        done.append(n)
        if n == 2:
            stop.set()

    with pytest.raises(Cancelled):
        analyse_match(s.events, (0, 1), budget=8, progress=progress, cancel=stop)
    assert done[-1] == 2


def test_a_bad_log_or_bad_arguments_are_value_errors():
    s = _cpu_match()
    with pytest.raises(ValueError):
        analyse_match(s.events[1:], (0,))
    with pytest.raises(ValueError):
        analyse_match(s.events, (2,))
    with pytest.raises(ValueError):
        analyse_match(s.events, (0,), budget=0)
    tampered = list(s.events)
    i = next(i for i, e in enumerate(tampered) if e.type == "played")
    tampered[i] = tampered[i]._replace(card="12-B" if tampered[i].card != "12-B" else "01-B")
    with pytest.raises(ValueError):
        analyse_match(tuple(tampered), (0,), budget=4)


def test_deck_helper_sets_the_deal():
    deck = deck_of(SANKO["hand0"], SANKO["hand1"], SANKO["field"], SANKO["flips"])
    s = new_match(RULESETS["nintendo"], seed=1, months=1, decks=[deck], first_dealer=0)
    assert {c.id for c in view(s, 0).hand} == set(SANKO["hand0"])


def test_a_review_made_in_another_language_is_not_extended():
    s = _cpu_match(months=1)
    before = i18n.language()
    try:
        i18n.set_language("en")
        english = analyse_match(s.events, (0,), budget=4)
        assert english.meta["lang"] == "en"
        assert analysis.extends(english, s.events, (0,), 4)
        assert i18n.set_language("ja") == "ja"
        assert not analysis.extends(english, s.events, (0,), 4)      # its reasons are English
        legacy = english.meta.copy()
        del legacy["lang"]                    # a review saved before the language was kept
        i18n.set_language("en")
        assert analysis.extends(type(english)(english.match_id, english.seats, english.rounds,
                                              english.budget, legacy), s.events, (0,), 4)
    finally:
        i18n.set_language(before)
