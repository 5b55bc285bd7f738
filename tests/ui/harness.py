"""The one UI test harness: a real App driven by posted pygame events.

Plain functions, imported by the UI test modules (``from harness import ...``;
pytest puts tests/ui on sys.path, as it does tests/engine for engine_helpers).
The fixtures that use them (``app``, ``screen``) are in tests/ui/conftest.py.

    app = make_app((1920, 1080), seed=7, home=tmp_path)
    click(app, button(app.top, "New match"))      # a widget, a rect or a point
    drag(app, start, end); key(app, pygame.K_RETURN); step(app, 0.5)
    assert wait_for(app, lambda: scene.my_turn())
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pygame

from koikoi.engine import RULESETS, ChooseMatch, KoiKoi, Play
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import Storage
from koikoi.ui import widgets as W
from koikoi.ui.app import App

ROOT = Path(__file__).resolve().parents[2]
DT = 1 / 60                      # one frame
SIZE = (1280, 720)
HUMAN_CPU = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random"))


# ---------------------------------------------------------------- the app
def make_app(size=SIZE, seed=None, home=None, *, anim_speed=0.0, muted=None) -> App:
    """A headless App. ``home``: its data folder (default: $KOIKOI_HOME, a temporary
    folder per test); ``anim_speed``/``muted``: None leaves the saved setting."""
    app = App(size, storage=Storage(home), seed=seed)
    if anim_speed is not None:
        app.settings["anim_speed"] = anim_speed
    if muted is not None:
        app.assets.muted = muted
    return app


def close_app(app: App) -> None:
    """What a test leaves behind: no queued events, no display."""
    pygame.event.clear()
    pygame.display.quit()


def load_tool(name: str):
    """tools/<name>.py as a module (the tools folder is not a package)."""
    spec = importlib.util.spec_from_file_location(f"koikoi_tools_{name}", ROOT / "tools" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- what is drawn
def spy_drawn(monkeypatch, *, rects: bool = True) -> list:
    """Every text ``W.draw_text`` draws from now on (in every widget part): (text, rect
    drawn), or the texts alone with ``rects=False``."""
    drawn: list = []
    real = W.draw_text

    def spy(surface, text, *a, **kw):
        r = real(surface, text, *a, **kw)
        drawn.append((text, pygame.Rect(r)) if rects else text)
        return r
    monkeypatch.setattr(W, "draw_text", spy)
    return drawn


# ---------------------------------------------------------------- input
def post(kind, **kw) -> None:
    pygame.event.post(pygame.event.Event(kind, **kw))


def step(app: App, seconds: float = DT, dt: float = DT) -> None:
    """Run ``seconds`` of frames of ``dt`` each (at least one frame)."""
    for _ in range(max(1, int(round(seconds / dt)))):
        app.step(dt)


def point(target) -> tuple[int, int]:
    """The point to press on: a widget's rect centre, a rect's centre, or a point."""
    if hasattr(target, "rect"):
        target = target.rect
    if isinstance(target, pygame.Rect) or len(target) == 4:
        target = pygame.Rect(target).center
    return int(target[0]), int(target[1])


def click(app: App, target, button: int = 1) -> None:
    """Move there, press and release ``button``, one frame."""
    pos = point(target)
    post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
    post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
    app.step(DT)


def move(app: App, target, seconds: float = DT) -> None:
    """Hover there for ``seconds``."""
    post(pygame.MOUSEMOTION, pos=point(target), rel=(0, 0), buttons=(0, 0, 0))
    step(app, seconds)


def key(app: App, k: int, mod: int = 0, unicode: str = "") -> None:
    post(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0)
    app.step(DT)


def drag(app: App, start, end, steps: int = 6) -> None:
    """Press at ``start``, move to ``end`` in ``steps`` frames, release there."""
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    app.step(DT)
    for i in range(1, steps + 1):
        p = (start[0] + (end[0] - start[0]) * i // steps, start[1] + (end[1] - start[1]) * i // steps)
        post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        app.step(DT)
    post(pygame.MOUSEBUTTONUP, pos=end, button=1)
    app.step(DT)


def wait_for(app: App, cond, limit: float = 40.0) -> bool:
    """Step frames until ``cond()`` or ``limit`` seconds; the last ``cond()``."""
    t = 0.0
    while t < limit:
        if cond():
            return True
        app.step(DT)
        t += DT
    return cond()


def quick(**kw):
    """A match server's config for tests on 127.0.0.1: short timeouts, no sweeps, no fsync."""
    from koikoi.net.server import ServerConfig
    base = dict(open_timeout=5.0, close_timeout=1.0, send_timeout=5.0, sweep_every=3600.0, durable=False)
    base.update(kw)
    return ServerConfig(**base)


def wait_real(app: App, cond, limit: float = 20.0) -> bool:
    """Step frames, sleeping a little (the network runs on other threads), until ``cond()``
    or ``limit`` real seconds; the last ``cond()``."""
    import time
    deadline = time.monotonic() + limit
    for _ in range(int(limit * 400)):
        if cond() or time.monotonic() > deadline:
            break
        app.step(DT)
        time.sleep(0.002)
    return cond()


# ---------------------------------------------------------------- widgets
def button(scene, label: str) -> W.Button:
    for w in scene.widgets:
        if isinstance(w, W.Button) and w.label == label and w.visible:
            return w
    raise AssertionError(f"no button {label!r} on {type(scene).__name__}: "
                         f"{[getattr(w, 'label', None) for w in scene.widgets]}")


def pill(row: W.ChoiceRow, value) -> pygame.Rect:
    for opt, rect in zip(row.options, row.rects()):
        if opt.value == value:
            return rect
    raise AssertionError(f"no option {value!r}")


# ---------------------------------------------------------------- the round table
def session_where(cond, *, rules="classic", seeds=range(1, 400), seats=HUMAN_CPU, max_steps=60):
    """A session advanced with random legal actions until ``cond(session)`` holds."""
    for seed in seeds:
        s = MatchSession(RULESETS[rules] if isinstance(rules, str) else rules, seed=seed, seats=seats)
        rng = random.Random(seed)
        for _ in range(max_steps):
            if s.state.is_over:
                break
            if s.state.phase_name != "oyagime" and cond(s):
                return s
            legal = s.legal()
            if s.state.phase_name == "decide":
                s.apply(KoiKoi())
                continue
            s.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no such state found")


def human_to_play(s, matches=None):
    v = s.view(0)
    if v.phase != "play" or v.to_move != 0:
        return False
    if matches is None:
        return True
    return any(len(v.matches(c)) == matches for c in v.hand)


def card_with(s, n):
    v = s.view(0)
    return next(c.id for c in v.hand if len(v.matches(c)) == n)


def new_match_table(app, seed=5, rules="classic", seats=HUMAN_CPU, months=None):
    """A new match past its oya-gime, on a RoundScene pushed onto ``app``."""
    from koikoi.ui.scenes.round import RoundScene
    s = MatchSession(RULESETS[rules], seed=seed, seats=seats, months=months)
    while s.state.phase_name == "oyagime":
        s.apply(s.legal()[0])
    scene = RoundScene(app, s)
    app.push(scene)
    return s, scene


def human_move(app, s, scene):
    """Play the first legal action through the mouse, the way a player would."""
    lay = scene.lay
    v = s.view(scene.me)
    a = s.legal()[0]
    if isinstance(a, Play):
        click(app, lay.hand[a.card].center)
        assert scene.selected == a.card
        ms = [c.id for c in v.field if c.month == int(a.card[:2])]
        if a.target:
            click(app, lay.field[a.target].center)
        elif ms:
            click(app, lay.field[ms[0]].center)
        else:
            click(app, empty_field_point(scene))
    elif isinstance(a, ChooseMatch):
        click(app, lay.field[a.target].center)


def empty_field_point(scene):
    """A point of the field no card covers: a free slot's centre, else (a fanned month may
    reach over the next slot's centre) any point of the field area on a grid."""
    lay = scene.lay
    for slot in reversed(lay.field_slots):
        p = slot.center
        if lay.field_at(p) is None and lay.on_field(p):
            return p
    area = lay.field_area
    step = max(4, lay.card_w // 4)
    for y in range(area.bottom - step, area.top, -step):
        for x in range(area.right - step, area.left, -step):
            if lay.field_at((x, y)) is None and lay.on_field((x, y)):
                return (x, y)
    raise AssertionError("no empty field point")
