"""Puzzles from reviewed matches: only clear mistakes, the position the seat decided in,
the best answer right and the mistake wrong; de-duplicated, ranked, capped; read from the
history folder through the review cache, skipping what cannot be used."""

from __future__ import annotations

import dataclasses

import pytest

from koikoi.ai import make_player
from koikoi.engine import RULESETS, apply, legal_actions, new_match, replay, view
from koikoi.review import (GOOD, MISTAKE, NOISE_Z, analyse_match, cache_path, save_cached,
                           verdict_of)
from koikoi.review.model import Option
from koikoi.review.puzzles import MAX_PUZZLES, from_history, puzzle_of, puzzles_from
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage

BUDGET = 60
SEEDS = (8, 10, 16, 17, 22, 35, 39)   # Easy (seat 0) against Medium: each makes a clear mistake


def cpu_match(seed: int):
    """A two-month match of Easy (seat 0) against Medium, played to its end."""
    s = new_match(RULESETS["nintendo"], seed=seed, months=2)
    players = [make_player("easy", seed=seed), make_player("medium", seed=seed + 100)]
    while not s.is_over:
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    return s


@pytest.fixture(scope="module")
def matches():
    """(events, review) of each seed's match, seat 0 reviewed at a small budget."""
    out = []
    for seed in SEEDS:
        s = cpu_match(seed)
        out.append((s.events, analyse_match(s.events, (0,), match_id=f"m{seed}", budget=BUDGET)))
    return out


def decisions(review):
    return [d for r in review.rounds for d in r.decisions]


def decision_of(matches, p):
    review = next(r for _e, r in matches if r.match_id == p.match_id)
    return review.decision_at(p.index)


def test_puzzles_come_only_from_clear_mistakes(matches):
    ps = puzzles_from(matches)
    assert ps, "the seeds' matches make puzzles"
    kinds = {p.kind for p in ps}
    assert "decide" in kinds and "play" in kinds
    for p in ps:
        d = decision_of(matches, p)
        assert d.verdict == MISTAKE and d.chosen == p.chosen and d.best == p.best
        assert p.points == d.loss >= 1.5 and p.margin >= 1.5
        top = p.options[0].points
        for o in p.options:          # every option is right or a clear mistake: nothing arguable
            v = verdict_of(max(0.0, top - o.points), o.spread)
            assert v == (GOOD if o.action in p.right else MISTAKE)
        assert 2 * len(p.right) <= len(p.options)        # not trivial
    # no other decision made one
    made = {(p.match_id, p.index) for p in ps}
    for events, review in matches:
        for d in decisions(review):
            if (review.match_id, d.index) not in made:
                assert puzzle_of(events, d, match_id=review.match_id) is None
            if d.verdict != MISTAKE:
                assert puzzle_of(events, d) is None


def test_the_position_is_the_log_up_to_the_decision(matches):
    for p in puzzles_from(matches):
        events = next(e for e, r in matches if r.match_id == p.match_id)
        assert p.state == replay(events[:p.index])
        assert p.state.to_move == p.seat and p.state.round == p.round
        assert set(legal_actions(p.state)) == {o.action for o in p.options}
        assert p.view() == view(p.state, p.seat)


def test_the_best_is_right_and_the_mistake_wrong(matches):
    ps = puzzles_from(matches)
    # a move within the playouts' noise of the best counts as right too
    assert any(len(p.right) > 1 for p in ps)
    for p in ps:
        assert p.judge(p.best).right and p.judge(p.best).gap == 0.0
        for a in p.right:
            assert p.judge(a).right
        wrong = p.judge(p.chosen)
        assert not wrong.right and wrong.gap == pytest.approx(p.points, abs=1e-3)
        for a in legal_actions(p.state):
            ans = p.judge(a)
            assert ans.right == (a in p.right) and (ans.right or ans.gap >= 1.5)


def test_order_is_by_cost_deduplicated_and_capped(matches):
    ps = puzzles_from(matches)
    assert [p.points for p in ps] == sorted((p.points for p in ps), reverse=True)
    twice = puzzles_from(list(matches) + list(matches))
    assert [(p.match_id, p.index) for p in twice] == [(p.match_id, p.index) for p in ps]
    assert [(p.match_id, p.index) for p in puzzles_from(matches, limit=2)] == \
        [(p.match_id, p.index) for p in ps[:2]]
    assert puzzles_from(list(reversed(matches))) == ps          # order does not depend on input
    assert len(puzzles_from(matches)) <= MAX_PUZZLES


def _a_puzzle(matches, kind):
    for events, review in matches:
        for d in decisions(review):
            if d.kind == kind and puzzle_of(events, d, match_id=review.match_id) is not None:
                return events, d
    raise AssertionError(f"no {kind} puzzle")


def test_hand_made_decisions(matches):
    events, d = _a_puzzle(matches, "decide")         # Koi-Koi or Stop: one right of two
    assert puzzle_of(events, d) is not None
    worse = d.options[1]
    # the gap within the noise: both count as right, so no puzzle (and the mistake is not one)
    noisy = dataclasses.replace(d, options=(d.options[0], dataclasses.replace(
        worse, spread=(d.options[0].points - worse.points) / NOISE_Z + 0.5)))
    assert puzzle_of(events, noisy) is None
    # an inaccuracy away: arguable
    close = dataclasses.replace(d, options=(d.options[0], dataclasses.replace(
        worse, points=d.options[0].points - 1.0, spread=0.1)))
    assert puzzle_of(events, close) is None
    assert puzzle_of(events, dataclasses.replace(d, verdict=GOOD)) is None
    # a decision that does not fit the log: another index, or past its end
    assert puzzle_of(events, dataclasses.replace(d, index=d.index - 1)) is None
    assert puzzle_of(events, dataclasses.replace(d, index=len(events) + 5)) is None
    assert puzzle_of(events[:d.index], d) is None

    events, d = _a_puzzle(matches, "play")
    assert puzzle_of(events, d) is not None
    # every option but the chosen one within the noise of the best: trivial
    top = d.options[0].points
    easy = tuple(o if o.action == d.chosen else Option(o.action, top, o.win, 0.0) for o in d.options)
    assert puzzle_of(events, dataclasses.replace(d, options=easy)) is None


def test_malformed_input_gives_no_puzzles(matches):
    events, review = matches[0]
    assert puzzles_from([(events, "not a review"), ("nonsense",), (events, review)]) == \
        puzzles_from([(events, review)])
    assert puzzles_from([]) == []


def _file(storage, events, state, review, seed):
    session = MatchSession(state.rules, seed=seed, state=state,
                           seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "medium")))
    path = storage.file_match(session)
    save_cached(storage.history_dir, dataclasses.replace(review, match_id=session.id))
    return session.id, path


def test_from_the_history_folder(tmp_path, matches):
    storage = Storage(tmp_path / "home")
    assert from_history(storage) == []                        # no folder, no reviews: none
    ids = []
    for seed, (events, review) in zip(SEEDS[:3], matches[:3]):
        ids.append(_file(storage, events, replay(events), review, seed)[0])
    # a filed match without a review gives none
    plain = cpu_match(31)
    storage.file_match(MatchSession(plain.rules, seed=31, state=plain))
    ps = from_history(storage)
    expected = puzzles_from([(e, dataclasses.replace(r, match_id=i)) for (e, r), i in zip(matches[:3], ids)])
    assert [(p.match_id, p.index, p.best) for p in ps] == [(p.match_id, p.index, p.best) for p in expected]
    assert all(len(p.played_at) == 10 and p.played_at[4] == "-" for p in ps)
    # a review file that cannot be read skips its match only (and is left for the replay
    # viewer's cache to set aside: making puzzles only reads)
    bad = cache_path(storage.history_dir, ids[0])
    bad.write_text("{not json", encoding="utf-8")
    left = from_history(storage)
    assert {p.match_id for p in left} == {p.match_id for p in ps} - {ids[0]}
    assert bad.read_text(encoding="utf-8") == "{not json"
    # a review of another log (its fingerprint does not match this match) is not used
    other_events, other_review = matches[3]
    save_cached(storage.history_dir, dataclasses.replace(other_review, match_id=ids[1]))
    assert ids[1] not in {p.match_id for p in from_history(storage)}
