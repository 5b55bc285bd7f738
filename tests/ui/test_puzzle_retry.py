"""A puzzle can be tried again (Retry, or the R key: the same position, unanswered), and a
wrong answer other than the match's own move is told why the best beats it, not the
review's words on the match's move (issue 28)."""

from __future__ import annotations

import pygame
from harness import click, key, step
from test_puzzles_ui import goto, open_puzzles, reviewed, the_puzzle_scene  # noqa: F401 (fixture)

from koikoi.engine import legal_actions


def _other_wrong(p):
    legal = legal_actions(p.state)
    return next((a for a in legal if a not in p.right and a != p.chosen), None)


def test_retry_opens_the_same_position_again_by_button_and_key(reviewed):
    app = reviewed
    scene = goto(app, open_puzzles(app), "play")
    p, at = scene.puzzle, scene.at
    assert scene.send(p.chosen)
    step(app, 2.0)
    labels = [b.label for b in scene.panel_buttons]
    assert "Retry" in labels
    click(app, scene.panel_buttons[labels.index("Retry")])
    step(app, 1.0)
    again = the_puzzle_scene(app)
    assert again is not scene and again.at == at and again.puzzle is p
    assert again.answer is None and again.session.state == p.state
    assert again.send(p.best)
    step(app, 2.0)
    assert again.answer.right and again.panel_text().startswith("Best move! ")
    key(app, pygame.K_r)
    step(app, 1.0)
    third = the_puzzle_scene(app)
    assert third is not again and third.at == at and third.answer is None
    assert third.session.state == p.state


def test_a_wrong_answer_is_told_about_itself_not_the_matchs_move(reviewed):
    app = reviewed
    scene = goto(app, open_puzzles(app), "play")
    p = scene.puzzle
    a = _other_wrong(p)
    assert a is not None
    assert scene.send(a)
    step(app, 2.0)
    text = scene.panel_text()
    assert text.startswith("Not the best move") and not text.endswith(p.reason), text
    assert text.endswith(p.reason_for(a, style=scene.name_style())), text
    assert "In your match" not in text and "playout" not in text.lower()
