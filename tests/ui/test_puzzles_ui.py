"""Puzzles on screen: Learn -> "Puzzles from your matches" -> the real table at a position
from a reviewed match, seen from the deciding seat only; any legal move is taken and judged;
Next puzzle / Back; the other seat never moves and nothing is filed or autosaved."""

from __future__ import annotations

import os

import pygame
import pytest
from harness import click, key, step
from lesson_driver import card_point, empty_field_point

from koikoi.ai import make_player
from koikoi.engine import RULESETS, KoiKoi, Play, Stop, apply, legal_actions, new_match, view
from koikoi.engine.cards import ids_of
from koikoi.engine.events import Played
from koikoi.review import analyse_match, save_cached
from koikoi.session import MatchSession, SeatConfig

SEEDS = (39, 8)      # Easy at seat 0 against Medium: a Play mistake and two Stop mistakes


def file_reviewed(storage, seed: int) -> str:
    """File a two-month Easy-Medium match (seat 0 the player) with its review beside it."""
    s = new_match(RULESETS["nintendo"], seed=seed, months=2)
    players = [make_player("easy", seed=seed), make_player("medium", seed=seed + 100)]
    while not s.is_over:
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    session = MatchSession(s.rules, seed=seed, state=s,
                           seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Medium)", "medium")))
    assert storage.file_match(session) is not None
    review = analyse_match(s.events, (0,), match_id=session.id, budget=60, opponent="the CPU")
    save_cached(storage.history_dir, review)
    return session.id


def files(folder) -> list:
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def open_learn(app):
    app.open("learn", mode="reset")
    step(app, 0.1)
    assert type(app.top).__name__ == "LearnScene"
    return app.top


def the_puzzle_scene(app):
    return [s for s in app.scenes if type(s).__name__ == "PuzzleScene"][-1]


def open_puzzles(app):
    click(app, open_learn(app).puzzles_b)
    step(app, 0.3)
    return the_puzzle_scene(app)


def goto(app, scene, kind):
    """The puzzle of ``kind`` in the scene's list, opened."""
    at = next(i for i, p in enumerate(scene.puzzles) if p.kind == kind)
    while app.top is not scene:          # a Koi-Koi question open over it
        app.pop()
    app.open("puzzle", scene.puzzles, at=at, mode="replace")
    step(app, 1.0)
    return the_puzzle_scene(app)


@pytest.fixture
def reviewed(app):
    for seed in SEEDS:
        file_reviewed(app.storage, seed)
    return app


def test_the_button_is_disabled_without_reviews(app):
    learn = open_learn(app)
    b = learn.puzzles_b
    assert not b.enabled and "(0)" in b.label
    assert b.sublabel == "Review a finished match to make puzzles from its mistakes"
    click(app, b)
    step(app, 0.1)
    assert app.top is learn
    learn.open_puzzles()                  # asked anyway: a message, no puzzle screen
    assert app.top is learn and app.toasts


def test_learn_opens_the_puzzles(reviewed):
    app = reviewed
    learn = open_learn(app)
    b = learn.puzzles_b
    n = len(learn.puzzles)
    assert b.enabled and n >= 2 and f"({n})" in b.label
    scene = open_puzzles(app)
    assert scene.at == 0 and len(scene.puzzles) == n
    head, text, _frame = scene.panel_state()
    assert head.startswith(f"Puzzle 1 of {n} · from your match of ") and "find the best move" in head


def test_the_table_shows_only_the_deciding_seats_side(reviewed):
    app = reviewed
    scene = goto(app, open_puzzles(app), "play")
    p = scene.puzzle
    st = scene.session.state
    assert st == p.state and scene.me == p.seat
    assert scene.shows_the_fold()
    other = set(ids_of(st.hands[1 - p.seat]))
    v = view(st, p.seat)
    hidden = {c.id for c in v.unseen}              # the other hand and the stock, to this seat
    assert other and other <= hidden
    t = scene.table
    assert set(t.hand) == {c.id for c in v.hand} and t.opponent_hand_count == v.opponent_hand_count
    shown = set(t.hand) | set(t.field) | set(t.captured[0]) | set(t.captured[1])
    assert not shown & hidden
    face_up = {sp.cid for sp in scene.sprites.values() if sp.face and sp.cid is not None}
    assert face_up and not face_up & hidden        # every other card is drawn face down
    pygame.display.get_surface().fill((0, 0, 0))
    scene.draw(pygame.display.get_surface())       # and drawing it changes nothing
    assert not {sp.cid for sp in scene.sprites.values() if sp.face and sp.cid} & hidden


def test_the_mistake_is_judged_wrong_by_mouse_and_nothing_more_moves(reviewed):
    app = reviewed
    history = app.storage.history_dir
    before = files(history)
    scene = goto(app, open_puzzles(app), "play")
    p = scene.puzzle
    a = p.chosen
    assert isinstance(a, Play)
    click(app, card_point(scene, a.card))
    click(app, card_point(scene, a.target) if a.target else
          (card_point(scene, next(c for c in scene.lay.field if c[:2] == a.card[:2]))
           if any(c[:2] == a.card[:2] for c in scene.lay.field) else empty_field_point(scene)))
    step(app, 2.0)
    assert scene.applied == [a]
    assert scene.answer is not None and not scene.answer.right
    text = scene.panel_text()
    assert text.startswith("Not the best move") and text.endswith(p.reason) and text.count("Better:") == 1
    assert scene.highlighted() or p.best.card not in scene.table.hand
    # the other seat never plays, however long the table waits
    n = len(scene.session.state.events)
    step(app, 3.0)
    events = scene.session.state.events
    assert len(events) == n and not any(isinstance(e, Played) and e.seat != p.seat for e in events[p.index:])
    assert scene.session._thinking is None
    assert not scene.send(p.best)                  # answered: the table is only to look at now
    # nothing filed, nothing autosaved
    assert files(history) == before and not app.storage.has_autosave()
    assert scene.session.record is False and scene.session.store is None
    # the last puzzle's first button is Done (back to the list), any other's Next puzzle
    nxt = scene.panel_buttons[0]
    assert nxt.label == ("Next puzzle" if scene.has_next() else "Done")
    assert [b.label for b in scene.panel_buttons[1:]] == ["Retry", "Back"]
    click(app, scene.panel_buttons[2])
    step(app, 0.1)
    assert type(app.top).__name__ == "LearnScene" and the_puzzle_scene_or_none(app) is None


def the_puzzle_scene_or_none(app):
    found = [s for s in app.scenes if type(s).__name__ == "PuzzleScene"]
    return found[-1] if found else None


def test_a_koikoi_or_stop_puzzle_is_answered_at_the_prompt(reviewed):
    app = reviewed
    history = app.storage.history_dir
    before = files(history)
    scene = goto(app, open_puzzles(app), "decide")
    p = scene.puzzle
    prompt = app.top
    assert type(prompt).__name__ == "KoiKoiPromptScene" and prompt.gate is None
    click(app, prompt.stop_button if p.best == Stop() else prompt.koikoi_button)
    step(app, 2.0)
    assert scene.answer is not None and scene.answer.right
    assert scene.panel_text().startswith("Best move! ")
    assert app.top is scene                       # no results screen, no next deal
    assert scene.shows_the_fold()
    assert files(history) == before and not app.storage.has_autosave()
    # the other answer, on the same puzzle again: judged wrong, not refused
    app.open("puzzle", scene.puzzles, at=scene.at, mode="replace")
    step(app, 1.0)
    scene = the_puzzle_scene(app)
    prompt = app.top
    click(app, prompt.koikoi_button if p.best == Stop() else prompt.stop_button)
    step(app, 2.0)
    assert scene.answer is not None and not scene.answer.right
    assert scene.applied == [KoiKoi() if p.best == Stop() else Stop()]
    assert scene.panel_text().startswith("Not the best move")
    assert files(history) == before
    # Next puzzle opens the one after it, in the same list
    assert scene.has_next() and scene.panel_buttons[0].label == "Next puzzle"
    click(app, scene.panel_buttons[0])
    step(app, 0.5)
    nxt = the_puzzle_scene(app)
    assert nxt is not scene and nxt.at == scene.at + 1 and nxt.puzzles == scene.puzzles
    assert nxt.panel_state()[0].startswith(f"Puzzle {scene.at + 2} of {len(scene.puzzles)}")


def test_a_bad_review_file_drops_only_its_puzzles(reviewed):
    app = reviewed
    history = app.storage.history_dir
    n = len(open_learn(app).puzzles)
    name = next(x for x in files(history) if x.endswith(".review.json"))
    (history / name).write_text("[1, 2", encoding="utf-8")
    learn = open_learn(app)
    assert 1 <= len(learn.puzzles) < n and learn.puzzles_b.enabled
    assert f"({len(learn.puzzles)})" in learn.puzzles_b.label


def test_a_puzzle_of_seat_two_is_shown_from_seat_two(app):
    from koikoi.review.puzzles import puzzles_from
    s = new_match(RULESETS["nintendo"], seed=1, months=2)
    players = [make_player("medium", seed=101), make_player("easy", seed=1)]
    while not s.is_over:
        s = apply(s, players[s.to_move].choose(view(s, s.to_move), legal_actions(s)))
    ps = puzzles_from([(s.events, analyse_match(s.events, (1,), match_id="m1", budget=60))])
    assert ps and all(p.seat == 1 for p in ps) and ps[0].kind == "play"
    app.open("puzzle", ps)
    step(app, 1.0)
    scene = the_puzzle_scene(app)
    assert scene.me == 1 and scene.table.seat == 1 and scene.is_you(1) and not scene.is_you(0)
    assert not scene.session.is_hotseat and app.top is scene
    hidden = {c.id for c in view(ps[0].state, 1).unseen}
    assert set(ids_of(ps[0].state.hands[0])) <= hidden
    assert not {sp.cid for sp in scene.sprites.values() if sp.face and sp.cid} & hidden
    assert scene.panel_state()[0].startswith("Puzzle 1 of ") and "from one of your matches" in scene.panel_state()[0]
    assert scene.send(ps[0].best)
    step(app, 2.0)
    assert scene.answer.right and scene.panel_text().startswith("Best move! ")
    key(app, pygame.K_ESCAPE)                      # Esc leaves the puzzle
    step(app, 0.1)
    assert scene not in app.scenes
