"""The lessons on screen: Title -> Learn -> a lesson, played with the mouse only by
clicking what the lesson highlights, to its end summary; wrong moves are refused with
the lesson's words and change nothing; progress is remembered; nothing is saved."""

from __future__ import annotations

import pygame
import pytest
from harness import button, click, key, step
from lesson_driver import act, card_point, play_through, settle

from koikoi import lessons as L


def open_learn(app):
    app.open("title", mode="reset")
    step(app, 0.1)
    click(app, button(app.top, "Learn"))
    step(app, 0.1)
    assert type(app.top).__name__ == "LearnScene"
    return app.top


def start(app, learn, lesson_id):
    click(app, learn.button_for(lesson_id))
    step(app, 0.1)
    scene = app.top
    assert type(scene).__name__ == "LessonScene" and scene.lesson.id == lesson_id
    return scene


def test_title_to_learn_to_the_end_of_lesson_one(app):
    learn = open_learn(app)
    first = learn.button_for("01-matching")
    assert first.style == "primary"                       # the next one to take
    scene = start(app, learn, "01-matching")
    play_through(app, scene)
    done = app.top
    assert type(done).__name__ == "LessonDoneScene"
    assert scene.refusals == []
    assert app.settings["lessons"]["done"] == ["01-matching"]
    assert app.storage.load_settings()[0]["lessons"]["done"] == ["01-matching"]   # written to disk
    click(app, button(done, "Next lesson"))
    step(app, 0.1)
    assert app.top.lesson.id == "02-two-choice"
    key(app, pygame.K_ESCAPE)                              # the lesson's own pause menu
    assert type(app.top).__name__ == "LessonPauseScene"
    click(app, button(app.top, "Back to the lessons"))
    step(app, 0.1)
    learn = app.top
    assert type(learn).__name__ == "LearnScene"
    assert learn.button_for("02-two-choice").style == "primary"
    assert learn.button_for("01-matching").style == "secondary"


def test_a_wrong_click_is_refused_and_changes_nothing(app):
    scene = start(app, open_learn(app), "02-two-choice")
    settle(app, scene)
    click(app, scene.next_button)
    settle(app, scene)
    step_now = scene.script.current
    before = (len(scene.session.state.events), scene.script.index)
    # the Geese onto the Pampas plain, not the Moon the lesson asks for
    click(app, card_point(scene, "08-A"))
    click(app, card_point(scene, "08-P1"))
    step(app, 0.2)
    assert scene.refusals == [step_now.wrong]
    assert scene.coach_text() == step_now.wrong
    assert (len(scene.session.state.events), scene.script.index) == before
    # a hand card the step does not use cannot even be picked up
    click(app, card_point(scene, "12-P1"))
    assert scene.selected != "12-P1" and len(scene.refusals) == 2
    play_through(app, scene)
    assert scene.finished


def test_the_koikoi_question_goes_through_the_gate(app):
    scene = start(app, open_learn(app), "07-when-to-stop")
    settle(app, scene)
    while type(app.top).__name__ != "KoiKoiPromptScene":
        assert not scene.finished
        act(app, scene)
    prompt = app.top
    assert prompt.pick == "stop"
    click(app, prompt.koikoi_button)
    assert app.top is prompt and prompt.refusal == scene.script.current.wrong
    assert scene.session.state.phase_name == "decide"
    play_through(app, scene)
    assert scene.session.state.ledger[-1].award == 5


@pytest.mark.app(size=(1920, 1080))
def test_every_lesson_can_be_completed_by_clicking_what_is_highlighted(app):
    learn = open_learn(app)
    ids = [e.id for e in learn.entries]
    assert len(ids) >= 8
    for lesson_id in ids:
        scene = start(app, learn, lesson_id)
        play_through(app, scene)
        assert scene.refusals == []
        click(app, button(app.top, "Back to lessons"))
        step(app, 0.1)
        learn = app.top
    assert app.settings["lessons"]["done"] == ids
    # lesson matches are never autosaved nor filed in the history (nor the statistics)
    assert not app.storage.has_autosave()
    assert app.storage.list_finished() == []
    assert all(learn.button_for(i).style == "secondary" for i in ids)


def test_a_broken_lesson_is_listed_unavailable(app, tmp_path, monkeypatch):
    good = (L.DATA / "01-matching.json").read_text("utf-8")
    (tmp_path / "01-matching.json").write_text(good, "utf-8")
    (tmp_path / "02-broken.json").write_text("{oops", "utf-8")
    monkeypatch.setattr(L, "DATA", tmp_path)
    learn = open_learn(app)
    b = learn.button_for("02-broken")
    assert b is not None and not b.enabled and "Unavailable" in b.sublabel
    step(app, 0.1)
    assert app.top is learn


@pytest.mark.app(size=(1280, 720))
def test_the_title_learn_button_fits_1280(app):
    _learn_button_fits(app, (1280, 720))


@pytest.mark.app(size=(1920, 1080))
def test_the_title_learn_button_fits_1920(app):
    _learn_button_fits(app, (1920, 1080))


def _learn_button_fits(app, size):
    app.open("title", mode="reset")
    step(app, 0.1)
    title = app.top
    b = button(title, "Learn")
    assert pygame.Rect((0, 0), size).contains(b.rect)
    others = [x.rect for x in title.widgets if x is not b]
    assert b.rect.collidelist(others) < 0
    click(app, b)
    assert type(app.top).__name__ == "LearnScene"
