"""The round table draws the public-table fold: at rest it shows exactly
``fold_all(public events of its seat)``, and a match reloaded from its autosave is
drawn pixel for pixel as it was before."""

from __future__ import annotations

import random

import pygame
import pytest
from harness import DT, make_app, step

from koikoi.engine import RULESETS, KoiKoi, Phase, Stop, fold_all
from koikoi.session import MatchSession, SeatConfig
from koikoi.ui.scenes.prompt import KoiKoiPromptScene
from koikoi.ui.scenes.round import RoundScene

SEATS = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random"))


def settle(app, scene, limit=60.0):
    """Step until the scene is at rest with the human to play (or the round is over)."""
    t = 0.0
    while t < limit:
        overlay = scene.overlay
        if isinstance(overlay, KoiKoiPromptScene):
            overlay.on_choice(Stop() if len(scene.applied) % 2 else KoiKoi())
        elif overlay is not None and hasattr(scene, "_results_close"):
            scene._results_close()
        if scene.at_rest() and (scene.my_turn() or scene.session.state.is_over) \
                and not scene.animating:
            step(app, 1.0)          # long enough for every card to be baked into the layer
            return True
        step(app, 0.1, dt=0.05)
        t += 0.1
    return False


def render(app, scene) -> bytes:
    surface = pygame.Surface(app.size)
    scene.draw(surface)
    return pygame.image.tobytes(surface, "RGB")


def play(app, scene, rng, actions: int) -> None:
    for _ in range(actions):
        assert settle(app, scene)
        if scene.session.state.is_over:
            return
        legal = scene.session.legal()
        assert scene.send(rng.choice(legal))
        # At every rest the table on screen is the fold of the seat's public events.
        assert settle(app, scene)
        public = scene.session.public_events(scene.me, 0)
        assert scene.table == fold_all(public, scene.me)
        assert scene.stage.pose.table == scene.table and not scene.stage.pose.onto


@pytest.mark.parametrize("seed,rules", [(11, "classic"), (4, "casual"), (23, "nintendo")])
def test_a_match_reloaded_from_its_autosave_is_drawn_as_it_was(tmp_path, seed, rules):
    app = make_app(home=tmp_path, anim_speed=1.0, muted=True)
    session = MatchSession(RULESETS[rules], seed=seed, seats=SEATS, store=app.storage)
    while session.state.phase_name == Phase.OYAGIME:
        session.apply(session.legal()[0])
    scene = RoundScene(app, session)
    app.reset(scene)
    play(app, scene, random.Random(seed), 7)
    assert settle(app, scene)
    before = render(app, scene)
    events = len(session.state.events)
    session.save()

    again = app.storage.load_autosave()
    assert again is not None and len(again.state.events) == events
    scene2 = RoundScene(app, again)
    app.reset(scene2)
    assert settle(app, scene2)
    assert scene2.table == scene.table
    assert render(app, scene2) == before, "the reloaded match is drawn differently"


def test_the_table_agrees_with_the_fold_through_whole_matches(tmp_path):
    """CPU against CPU at full speed: every rest shows the fold, and the match ends."""
    app = make_app(home=tmp_path, anim_speed=4.0, muted=True)
    cpu = (SeatConfig("cpu", "A", "random"), SeatConfig("cpu", "B", "random"))
    session = MatchSession(RULESETS["classic"], seed=5, months=2, seats=cpu, store=app.storage)
    while session.state.phase_name == Phase.OYAGIME:
        session.apply(session.legal()[0])
    scene = RoundScene(app, session)
    app.reset(scene)
    rests = 0
    for _ in range(20000):
        if scene.closed:
            break
        if scene.overlay is not None and hasattr(scene, "_results_close"):
            scene._results_close()
        step(app, DT)
        if scene.at_rest():
            rests += 1
            assert scene.table == fold_all(session.public_events(scene.me, 0), scene.me)
    assert session.state.is_over and scene.closed and rests > 20
