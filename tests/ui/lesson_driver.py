"""Plays a lesson on the screen the way a new player would: by clicking what it highlights.

Shared by tests/ui/test_lessons_ui.py and the screenshot script; every action is a mouse
event posted to the app (harness.click), never a call into the session.
"""

from __future__ import annotations

from harness import DT, click

from koikoi.engine import ChooseMatch, Play
from koikoi.lessons import YOU


def _top_name(app) -> str:
    return type(app.top).__name__


def card_point(scene, cid):
    lay = scene.lay
    r = lay.hand.get(cid) or lay.field.get(cid)
    if r is None:
        sp = scene.sprites.get(cid)
        r = scene.sprite_rect(sp) if sp is not None else None
    assert r is not None, f"{cid} is not on the table"
    return r.center


def empty_field_point(scene):
    """A point of the field with no card on it (where a card that matches nothing is laid)."""
    lay = scene.lay
    taken = list(lay.field.values())
    for r in lay.field_slots:
        if r.collidelist(taken) < 0 and lay.on_field(r.center):
            return r.center
    raise AssertionError("no empty place in the field")


def settle(app, scene, limit: float = 30.0) -> None:
    """Frames until the lesson waits for the player (or is over)."""
    t = 0.0
    while t < limit:
        if scene.finished or app.top is not scene or scene.waiting_for_next():
            return
        step = scene.script.current
        if step is not None and step.seat == YOU and scene.my_turn():
            return
        app.step(DT)
        t += DT
    raise AssertionError(f"lesson {scene.lesson.id} stuck at step {scene.script.index + 1}")


def act(app, scene, on_moment=None) -> None:
    """One thing a player does: answer the overlay on top, click Next, or play the move."""
    top = app.top
    name = _top_name(app)
    step = scene.script.current
    if name == "KoiKoiPromptScene":
        b = top.stop_button if top.pick == "stop" else top.koikoi_button
        if on_moment:
            on_moment("prompt")
        click(app, b)
    elif name == "RoundResultsScene":
        if on_moment:
            on_moment("results")
        click(app, top.ok)
    elif scene.waiting_for_next():
        if on_moment:
            on_moment("say")
        click(app, scene.next_button)
    elif step is not None and step.seat == YOU and scene.my_turn():
        lit = scene.highlighted()
        if on_moment:
            on_moment("move")
        a = step.action
        if isinstance(a, Play):
            click(app, card_point(scene, a.card))
            targets = [c for c in lit if c in scene.lay.field]
            click(app, card_point(scene, targets[0]) if targets else empty_field_point(scene))
        elif isinstance(a, ChooseMatch):
            click(app, card_point(scene, lit[0]))
    settle(app, scene)


def play_through(app, scene, on_moment=None, limit: int = 200) -> None:
    """Every step of the lesson in ``scene`` by mouse, to its end summary."""
    settle(app, scene)
    for _ in range(limit):
        if scene.finished:
            return
        act(app, scene, on_moment)
    raise AssertionError(f"lesson {scene.lesson.id} did not end")
