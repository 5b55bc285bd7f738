"""The lesson's words keep pace with its cards (issue 30, point 7): the script advances when
a move is made, but the coach panel shows the next step's text only once the move's
animation is over, so "The CPU played its Boar onto the Bush clover plain" appears when the
Boar has landed in the CPU's pile, not while the Crane is still flying."""

from __future__ import annotations

from harness import click, step
from lesson_driver import settle
from test_lessons_ui import open_learn, start

from koikoi import lessons as L

DT = 1 / 60


def test_the_coach_text_waits_for_the_animation(app):
    scene = start(app, open_learn(app), "07-when-to-stop")
    settle(app, scene)
    click(app, scene.next_button)                  # step 1: words only
    settle(app, scene)
    crane = scene.script.current
    assert crane.seat == L.YOU and scene.coach_text() == crane.say
    assert scene.send(crane.action)
    boar_step = scene.lesson.steps[3]
    assert "Boar" in boar_step.say
    seen = []
    for _ in range(int(30 / DT)):
        app.step(DT)
        text = scene.coach_text()
        seen.append(text)
        if text == boar_step.say:
            # The words about the CPU's Boar come once the Boar is in its pile on screen.
            assert "07-A" in scene.table.captured[1] and not scene.tl.busy
            break
    else:
        raise AssertionError("the step after the CPU's move never showed")
    assert seen[0] == crane.say                    # the Crane's words while it moved
    assert boar_step.say not in seen[:-1]
