"""Input storms (CI size): the seeded fuzzer of tools/fuzz.py on the real App.

Thousands of random mouse, key, wheel, resize, focus and minimise events,
plus scenes pushed directly; after every action the app must not raise and
must have a top scene; match logs must replay to the same state; and with
the fuzzer quiet, a CPU-vs-CPU match must still run to its end.
The long run: ``python tools/fuzz.py --events 100000 --seed N``.
"""

from __future__ import annotations

import pygame
import pytest

from harness import load_tool, make_app

fuzz = load_tool("fuzz")


@pytest.fixture(autouse=True)
def _display():
    yield
    pygame.display.quit()


def test_scene_discovery_finds_every_scene():
    found = fuzz.scene_classes()
    bad = {k: v for k, v in found.items() if isinstance(v, Exception)}
    assert not bad, f"scene modules that do not import: {bad}"
    for name in ("TitleScene", "HowToPlayScene", "NewMatchScene", "OyagimeScene", "RoundScene",
                 "KoiKoiPromptScene", "CurtainScene", "RoundResultsScene", "MatchResultsScene",
                 "HistoryScene", "SettingsScene", "PauseMenuScene"):
        assert name in found


def test_input_storm():
    fz = fuzz.Fuzzer(101, size=(960, 540), check_every=20, quiet_every=0, quiet_frames=4000)
    summary = fz.run(1000)
    print(summary.text())
    assert summary.ok, summary.text()
    assert summary.actions == 1000 and summary.posted >= 3000
    assert summary.replay_checks > 0 and summary.quiet_matches >= 1
    assert len(summary.scenes) >= 5            # it really went places


def test_every_scene_class_can_be_pushed_and_survives_a_storm():
    """Push each discovered scene directly, then hammer it briefly."""
    fz = fuzz.Fuzzer(7, size=(960, 540), check_every=5)
    built = []
    for name, cls in sorted(fz.classes.items()):
        try:
            scene = fz.builder.build(name, cls)
        except (LookupError, TypeError):
            continue
        if name in fuzz.ROOT_SCENES:
            fz.app.reset(scene)
        else:
            fz.app.push(scene)
        built.append(name)
        fz.step()
        for _ in range(15):
            fz.act()
        fz.check_replay()
    assert fz.summary.ok and not fz.summary.failures
    assert {"RoundScene", "SettingsScene", "HistoryScene", "MatchResultsScene"} <= set(built)


def test_match_summary_fallback_escape_does_not_empty_the_stack():
    from koikoi.ui.scenes.plain_results import MatchSummaryScene
    app = make_app((960, 540), anim_speed=None)
    rng = fuzz.random.Random(1)
    session = fuzz.Builder(app, rng).session("finished")
    app.reset(MatchSummaryScene(app, session))          # as RoundScene._step_match_ended does (replace)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    app.step()
    assert app.emptied == []


# ---------------------------------------------------------------- long sessions (tools/soak.py, small)


def test_soak_five_short_matches_no_runaway_growth():
    soak = load_tool("soak")
    lines = []
    stats = soak.soak(5, seed=2, size=(960, 540), levels=("random",), max_frames=20000, out=lines.append)
    assert len(stats) == 5 and all(s.rounds >= 1 for s in stats)
    rss = [s.rss_mb for s in stats]
    # caches fill during the first matches; a leak of a frame-sized surface per frame would
    # add hundreds of MB per match
    assert rss[-1] - rss[0] < 150, "\n".join(lines)
    assert max(rss) < 600, "\n".join(lines)
    assert "growth after the first match" in lines[-1]


@pytest.mark.parametrize("size", [(3, 447), (1, 2000), (2000, 1), (1, 1), (200, 150)])
def test_extreme_window_shapes_keep_the_back_buffer_sane(size):
    """A 3x447 window once made a 960x143040 back buffer, and pygame-ce's smoothscale
    then corrupted the heap (found by the fuzzer: seed 12, 'double free' abort)."""
    from koikoi.ui.window import MAX_BUFFER_RATIO, MAX_BUFFER_SIDE
    from koikoi.ui.scenes.title import TitleScene
    app = make_app((960, 540), anim_speed=None)
    app.push(TitleScene(app))
    for s in (size, (960, 540), size):
        pygame.display.set_mode(s, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=s, w=s[0], h=s[1]))
        app.step()
        if app._buffer is not None:
            bw, bh = app._buffer.get_size()
            assert max(bw, bh) <= MAX_BUFFER_SIDE and max(bw / bh, bh / bw) <= MAX_BUFFER_RATIO + 0.01
    pygame.display.set_mode((960, 540), pygame.RESIZABLE)
    app.step()
