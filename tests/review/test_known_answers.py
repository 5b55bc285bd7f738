"""Positions whose answer is known, set by their deals: Hard, the coach and the review must
all get each right (issue 28). A move that makes a yaku for certain, a move that feeds the
opponent's yaku, a Stop with the hand empty (nothing left to gain, the opponent still to
play), a Stop when the opponent is a card from Sankō, and the lesson 09 case: the Moon that
makes Sankō after the CPU's Koi-Koi, which the playout policy's answer to the Koi-Koi
question had valued at 2 points against the plain's 10. And one where the opponent's own
question decides the value: in the match's last round, level, the opponent stops with the
Sankō that playing the Moon feeds it (stopping wins the match), so the feed costs about
that Sankō, not the 15 points of a playout in which it called Koi-Koi."""

from __future__ import annotations

import pytest

from koikoi import coach, lessons
from koikoi.ai.hard import HardPlayer
from koikoi.ai.medium import MediumPlayer
from koikoi.engine import RULESETS, Play, Stop, apply, legal_actions, new_match, view
from koikoi.engine.phase import Phase
from koikoi.review.analysis import analyse_decision, analyse_match
from koikoi.review.model import GOOD

from review_helpers import FEED, SANKO, STOP, scripted


def _lesson_state(stem: str, step: int):
    lesson = lessons.load(lessons.DATA / f"{stem}.json", "en")
    return lessons.replay(lesson)[step - 1], lesson.steps[step - 1].action


def _hand_empty_question(preset: str, seed: int):
    """The first Koi-Koi question of a Medium-against-Medium match (``seed``) put to a seat
    whose hand is empty: Koi-Koi can add nothing, the opponent still plays."""
    s = new_match(RULESETS[preset], seed=seed, months=2)
    players = (MediumPlayer(seed=1), MediumPlayer(seed=2))
    for _ in range(400):
        if s.is_over:
            break
        legal = legal_actions(s)
        if s.to_move is None:
            s = apply(s, legal[0])
            continue
        v = view(s, s.to_move)
        if v.phase == Phase.DECIDE and not v.hand_mask and len(legal) > 1:
            return s
        s = apply(s, players[s.to_move].choose(v, legal))
    raise AssertionError("no such question in this match")


def _takes(card):
    return lambda a: isinstance(a, Play) and a.card == card


def _not_plays(card):
    return lambda a: not (isinstance(a, Play) and a.card == card)


def _is(kind):
    return lambda a: isinstance(a, kind)


def _cases():
    out = [("lesson 09 step 8: the Moon makes Sankō after the CPU's call",
            lambda: _lesson_state("09-doubling", 8)[0], _takes("08-B")),
           ("lesson 09 step 10: Stop for 40 points", lambda: _lesson_state("09-doubling", 10)[0],
            _is(Stop)),
           ("lesson 08 step 10: Stop for 20 points", lambda: _lesson_state("08-when-to-play-on", 10)[0],
            _is(Stop)),
           ("taking the Moon makes Sankō", lambda: scripted(SANKO)[1], _takes("08-P1")),
           ("playing the Moon feeds the opponent's Sankō", lambda: scripted(FEED)[1],
            _not_plays("08-B")),
           ("Stop when the opponent is a card from Sankō", lambda: scripted(STOP)[1], _is(Stop))]
    for preset in ("nintendo", "casual", "classic"):
        for seed in (2, 7):
            out.append((f"{preset} seed {seed}: the hand is empty, Stop",
                        lambda p=preset, s=seed: _hand_empty_question(p, s), _is(Stop)))
    return out


CASES = _cases()


@pytest.mark.parametrize("name,build,right", CASES, ids=[c[0] for c in CASES])
def test_hard_the_coach_and_the_review_get_the_known_answer(name, build, right):
    s = build()
    seat = s.to_move
    v = view(s, seat)
    legal = legal_actions(s)
    good = [a for a in legal if right(a)]
    assert good and len(good) < len(legal), name
    d = analyse_decision(v, legal, good[0])
    assert right(d.best), (name, d.best, d.options)
    if len(good) == 1:
        assert d.verdict == GOOD, (name, d.verdict, d.loss)
    for a in legal:
        if not right(a):
            assert analyse_decision(v, legal, a).verdict != GOOD, (name, a)
    assert right(HardPlayer(seed=0).choose(v, legal)), name
    if v.phase == Phase.DECIDE:
        assert right(coach.advice(v, legal).best), name


def test_the_known_answers_are_enough():
    assert len({name for name, _b, _r in CASES}) >= 11


def test_the_coach_and_the_review_agree_on_every_koikoi_question_of_reviewed_matches():
    """Matches of Medium against Medium, reviewed for both seats: at every Koi-Koi question
    the coach's pick (from the same View) is the review's best option."""
    asked = 0
    for preset, seed in (("nintendo", 3), ("casual", 4), ("koikoi-japan", 5)):
        s = new_match(RULESETS[preset], seed=seed, months=3)
        players = (MediumPlayer(seed=seed), MediumPlayer(seed=seed + 1))
        views = {}
        while not s.is_over:
            legal = legal_actions(s)
            v = view(s, s.to_move)
            if v.phase == Phase.DECIDE and len(legal) > 1:
                views[len(s.events)] = (v, tuple(legal))
            s = apply(s, players[s.to_move].choose(v, legal))
        review = analyse_match(s.events, (0, 1), budget=200)
        for r in review.rounds:
            for d in r.decisions:
                if d.kind != "decide":
                    continue
                v, legal = views[d.index]
                assert coach.advice(v, legal, budget=200).best == d.best, (preset, seed, d.index)
                asked += 1
    assert asked >= 3


@pytest.mark.parametrize("preset", ["nintendo", "casual"])
def test_an_opponent_who_wins_the_match_by_stopping_is_valued_as_stopping(preset):
    """The match's last round (a one-round match, level at 0-0): playing the Moon onto the
    field feeds the opponent's Sankō, and the opponent asked Koi-Koi or Stop with it stops,
    since stopping wins the match. So the feed costs at most that Sankō's award (5) and a
    point more (the Moon lost to one's own pile), not the 15 points that the playout
    policy's old answer (Koi-Koi, on a match already won) made of it. Hard, the review's
    verdict and its loss all say so."""
    rules = RULESETS[preset]
    deck, s = scripted(FEED, rules)
    assert s.months == 1
    v = view(s, s.to_move)
    legal = legal_actions(s)
    moon = Play("08-B")
    assert moon in legal
    d = analyse_decision(v, legal, moon)
    assert d.verdict != GOOD
    assert 1.5 <= d.loss <= rules.sanko + 1.0, (d.loss, d.options)
    assert HardPlayer(seed=0).choose(v, legal) != moon
