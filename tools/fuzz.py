"""Input storms: a seeded fuzzer that drives the real App and every scene.

    python tools/fuzz.py --events 100000 --seed 7
    python tools/fuzz.py --events 5000 --seed 1 --size 960x540 --check-every 25

Headless (SDL dummy drivers, a throwaway KOIKOI_HOME). Each fuzz *action* is
one of: mouse moves, clicks at random points or on a discovered target
(buttons and any Rect a scene exposes: cards, slots, rows), drags,
right/middle clicks, the wheel, key presses (Escape, P, F11, Enter, S, K,
arrows, digits..., single, held with repeats, or mashed), window resizes down
to 1x1 and back, focus loss, minimise/restore, a QUIT, and pushing scenes
directly (every Scene class found in koikoi.ui.scenes, including ones added
later, is built when its constructor can be satisfied). The events are posted
with ``pygame.event.post`` and processed by ``app.step()``.

After every action: no exception escaped, the stack has a top scene. Every
``--check-every`` actions and at the end, every match session on the stack
satisfies ``replay(session.state.events) == session.state``. Every
``--quiet-every`` actions and at the end the fuzzer stops interfering and a
CPU-vs-CPU match must run to its end (only Continue-type acknowledgements
are given), so the game never freezes.

The summary lists the actions, the pygame events posted, the scenes seen,
the sessions checked, and any failure with its seed and action number (a
failure is reproducible: the same seed and size give the same run).
"""

from __future__ import annotations

import argparse
import collections
import importlib
import inspect
import os
import pkgutil
import random
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
if __name__ == "__main__" and not os.environ.get("KOIKOI_HOME"):
    os.environ["KOIKOI_HOME"] = tempfile.mkdtemp(prefix="koikoi-fuzz-")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from koikoi.engine import RULESETS, fold_all, replay  # noqa: E402
from koikoi.engine.events import RoundEnded  # noqa: E402

KEYS = [
    pygame.K_ESCAPE, pygame.K_p, pygame.K_F11, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_s,
    pygame.K_k, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_SPACE,
    pygame.K_TAB, pygame.K_BACKSPACE, pygame.K_n, pygame.K_c, pygame.K_h, pygame.K_q, pygame.K_F1,
    pygame.K_HOME, pygame.K_END, pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_DELETE, pygame.K_a,
    pygame.K_r, pygame.K_i, pygame.K_z,
] + [getattr(pygame, f"K_{d}") for d in range(10)]
MODS = [0, 0, 0, 0, pygame.KMOD_SHIFT, pygame.KMOD_CTRL, pygame.KMOD_ALT]
SIZES = [(1, 1), (200, 150), (320, 240), (640, 360), (800, 600), (960, 540), (1280, 720),
         (1920, 1080), (300, 900), (1600, 400)]
DTS = [1 / 60, 1 / 60, 1 / 60, 1 / 30, 0.1, 0.0, 0.25]

_WINDOW_EVENTS = [getattr(pygame, n) for n in (
    "WINDOWFOCUSLOST", "WINDOWFOCUSGAINED", "WINDOWENTER", "WINDOWLEAVE", "WINDOWEXPOSED",
    "WINDOWSHOWN", "WINDOWHIDDEN", "WINDOWMOVED") if hasattr(pygame, n)]


# Scenes the game itself shows alone on the stack (app.reset / app.replace);
# everything else is pushed over another scene.
ROOT_SCENES = {"TitleScene", "OyagimeScene", "RoundScene", "MatchResultsScene", "MatchSummaryScene",
               "UnavailableScene"}


class Failure(Exception):
    pass


@dataclass
class Summary:
    seed: int
    actions: int = 0
    posted: int = 0
    frames: int = 0
    kinds: collections.Counter = field(default_factory=collections.Counter)
    scenes: collections.Counter = field(default_factory=collections.Counter)
    pushed: collections.Counter = field(default_factory=collections.Counter)
    unbuildable: dict = field(default_factory=dict)
    replay_checks: int = 0
    quiet_matches: int = 0
    matches_finished: int = 0
    quits: int = 0
    emptied: collections.Counter = field(default_factory=collections.Counter)
    resyncs: int = 0
    resync_at: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def text(self) -> str:
        lines = [
            f"fuzz seed {self.seed}: {self.actions} actions, {self.posted} pygame events posted, "
            f"{self.frames} frames in {self.seconds:.1f} s",
            "  scenes on top: " + ", ".join(f"{k} {v}" for k, v in self.scenes.most_common()),
            "  pushed directly: " + (", ".join(f"{k} {v}" for k, v in sorted(self.pushed.items())) or "none"),
            "  actions: " + ", ".join(f"{k} {v}" for k, v in self.kinds.most_common()),
            f"  replay checks {self.replay_checks}, quiet CPU-vs-CPU matches run to the end "
            f"{self.quiet_matches}, matches finished {self.matches_finished}, quits absorbed {self.quits}",
        ]
        if self.emptied:
            lines.append("  FINDING: scenes that closed the last scene on the stack (the app showed the "
                         "title instead of going blank): " + ", ".join(f"{k} {v}" for k, v in self.emptied.items()))
        if self.resyncs:
            lines.append(f"  FINDING: at rest the round table showed something other than the fold of "
                         f"its seat's public events {self.resyncs} times, first at " + ", ".join(self.resync_at))
        if self.unbuildable:
            lines.append("  scene classes not built directly: " +
                         ", ".join(f"{k} ({v})" for k, v in sorted(self.unbuildable.items())))
        if self.failures:
            lines.append(f"  FAILURES ({len(self.failures)}):")
            for f in self.failures:
                lines.append("    " + f.replace("\n", "\n    "))
        else:
            lines.append("  result: OK (no exception, always a top scene, every log replays, no freeze)")
        return "\n".join(lines)


# ---------------------------------------------------------------------- helpers


def cpu_seats(level: str = "random"):
    from koikoi.session import SeatConfig
    return (SeatConfig("cpu", "CPU East", level), SeatConfig("cpu", "CPU West", level))


def human_cpu_seats(level: str = "random"):
    from koikoi.session import SeatConfig
    return (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Random)", level))


def hotseat_seats():
    from koikoi.session import SeatConfig
    return (SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2"))


def make_session(app, rng: random.Random, seats=None, months: Optional[int] = None):
    from koikoi.session import MatchSession
    rules = rng.choice(sorted(RULESETS))
    preset = RULESETS[rules]
    if months is None and preset.months_offered:
        months = min(preset.months_offered)
    if seats is None:
        seats = rng.choice([cpu_seats(), human_cpu_seats(), hotseat_seats()])
    return app.watch(MatchSession(preset, seed=rng.randrange(1, 2 ** 31), months=months, seats=seats))


def fast_forward(session, rng: random.Random, until: Callable[[object], bool], limit: int = 4000) -> bool:
    """``advance`` without the autosave after every action (then one save at the end)."""
    hook, store = session.on_change, session.store
    session.on_change = session.store = None
    try:
        return advance(session, rng, until, limit)
    finally:
        session.on_change, session.store = hook, store
        session.save()
        if hook is not None:
            hook(session)


def advance(session, rng: random.Random, until: Callable[[object], bool], limit: int = 4000) -> bool:
    """Play random legal actions on ``session`` until ``until(session)``."""
    for _ in range(limit):
        if until(session):
            return True
        if session.state.is_over:
            return False
        legal = session.legal()
        session.apply(legal[rng.randrange(len(legal))])
    return until(session)


def sessions_of(app) -> list:
    out, seen = [], set()
    for sc in app.scenes:
        s = getattr(sc, "session", None)
        if s is not None and hasattr(s, "state") and id(s) not in seen:
            seen.add(id(s))
            out.append(s)
    return out


def rects_of(obj, depth: int = 0) -> list:
    """Every pygame.Rect an object exposes (attributes, dicts and lists of them)."""
    out = []
    if obj is None or depth > 1:
        return out
    try:
        items = list(vars(obj).values())
    except TypeError:
        return out
    for v in items:
        if isinstance(v, pygame.Rect):
            out.append(v)
        elif isinstance(v, dict):
            out += [r for r in list(v.values())[:60] if isinstance(r, pygame.Rect)]
        elif isinstance(v, (list, tuple)):
            for r in v[:60]:
                if isinstance(r, pygame.Rect):
                    out.append(r)
                elif isinstance(r, dict):
                    out += [x for x in list(r.values())[:60] if isinstance(x, pygame.Rect)]
    return out


def targets_of(scene) -> list:
    """Places worth clicking on ``scene``: visible widgets first, then any Rect."""
    widgets = []
    for w in list(getattr(scene, "widgets", []) or []) + list(getattr(scene, "buttons", []) or []):
        r = getattr(w, "rect", None)
        if isinstance(r, pygame.Rect) and getattr(w, "visible", True) and r.w > 0 and r.h > 0:
            widgets.append(r)
    rects = rects_of(scene) + rects_of(getattr(scene, "lay", None))
    return widgets, [r for r in rects if r.w > 0 and r.h > 0]


# ---------------------------------------------------------------------- the scene catalogue


def scene_classes() -> dict:
    """name -> class for every Scene subclass defined in koikoi.ui.scenes.*."""
    from koikoi.ui import scenes as pkg
    from koikoi.ui.scene import Scene
    found = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        try:
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        except Exception as exc:  # a module that does not import is itself a finding
            found[f"<import {info.name}>"] = exc
            continue
        for name, obj in vars(mod).items():
            if (inspect.isclass(obj) and issubclass(obj, Scene) and obj.__module__ == mod.__name__
                    and not name.startswith("_")):
                found[name] = obj
    found.pop("MenuScene", None)        # the base class of the menus, not a screen
    return found


class Builder:
    """Builds a scene of a given class with whatever its constructor asks for."""

    def __init__(self, app, rng: random.Random):
        self.app = app
        self.rng = rng

    def closer(self, holder: dict):
        """A callback that takes the scene off the stack (the title if it was alone)."""
        app = self.app

        def close(*args, **kwargs):
            scene = holder.get("scene")
            if scene not in app.scenes:
                return
            if len(app.scenes) > 1:
                app.remove(scene)
            else:
                from koikoi.ui.scenes.title import TitleScene
                app.reset(TitleScene(app))
        return close

    def session(self, kind: str = "any"):
        rng = self.rng
        app = self.app
        if kind == "finished":
            s = make_session(app, rng, seats=cpu_seats(), months=1)
            s.on_change = s.store = None
            advance(s, rng, lambda x: x.state.is_over)
            return s
        if kind == "round_ended":
            s = make_session(app, rng, seats=human_cpu_seats(), months=None)
            s.on_change = s.store = None
            advance(s, rng, lambda x: any(isinstance(e, RoundEnded) for e in x.state.events))
            return s
        if kind == "decide":
            for _ in range(8):
                s = make_session(app, rng, seats=human_cpu_seats(), months=None)
                s.on_change = s.store = None
                if advance(s, rng, lambda x: x.state.phase_name == "decide" and x.state.to_move == 0):
                    return s
            return None
        s = make_session(app, rng)
        if rng.random() < 0.7:
            stop = rng.randrange(0, 60)
            fast_forward(s, rng, lambda x: len(x.state.events) >= stop or x.state.is_over)
        if s.state.is_over:
            s = make_session(app, rng)
        return s

    def build(self, name: str, cls):
        app = self.app
        from koikoi.ui.scenes import oyagime as oy
        if name == "RoundScene":
            s = self.session()
            if s.state.phase_name == "oyagime":
                fast_forward(s, self.rng, lambda x: x.state.phase_name != "oyagime")
            return cls(app, s)
        if name == "OyagimeScene":
            return cls(app, make_session(app, self.rng))
        if name in ("MatchResultsScene", "MatchSummaryScene"):
            return cls(app, self.session("finished"))
        if name in ("RoundResultsScene", "RoundSummaryScene"):
            s = self.session("round_ended")
            ended = [e for e in s.state.events if isinstance(e, RoundEnded)][-1]
            holder = {}
            scene = cls(app, s, ended, self.closer(holder))
            holder["scene"] = scene
            return scene
        if name == "KoiKoiPromptScene":
            s = self.session("decide")
            if s is None:
                raise LookupError("no Koi-Koi decision came up")
            holder = {}
            scene = cls(app, s, 0, self.closer(holder))
            holder["scene"] = scene
            return scene
        if name == "CurtainScene":
            holder = {}
            scene = cls(app, "Player 2's turn", "Click when ready",
                        on_ready=self.closer(holder))
            holder["scene"] = scene
            return scene
        if name == "UnavailableScene":
            return oy.UnavailableScene(app, "The fuzzer opened this.", "detail")
        if name == "LessonScene":
            from koikoi.lessons import load_all
            entries = [e for e in load_all() if e.lesson is not None]
            if not entries:
                raise LookupError("no lesson could be loaded")
            return cls(app, self.rng.choice(entries).lesson, entries=entries)
        if name == "PuzzleScene":
            from koikoi.review import analyse_match
            from koikoi.review.puzzles import puzzles_from
            s = self.session("finished")
            found = puzzles_from([(s.state.events, analyse_match(s.state.events, (0,), budget=24))])
            if not found:
                raise LookupError("the finished match made no puzzle")
            return cls(app, found, self.rng.randrange(len(found)))
        # anything else (today's menus and any scene added later): fill the arguments in
        sig = inspect.signature(cls.__init__)
        args, holder = [], {}
        for pname, p in list(sig.parameters.items())[1:]:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.default is not p.empty and pname not in ("session", "state"):
                continue
            if pname == "app":
                args.append(app)
            elif pname in ("session", "session_or_state", "match"):
                args.append(self.session())
            elif pname == "state":
                args.append(self.session().state)
            elif pname in ("seat", "index", "viewer", "side"):
                args.append(self.rng.choice([0, 1]) if pname == "side" else 0)
            elif pname in ("round_no", "round"):
                args.append(None)   # filled below from the session's ledger
            elif pname.startswith("on_") or pname in ("callback", "done"):
                args.append(self.closer(holder))
            elif pname in ("title", "message", "text", "subtitle", "detail") or pname.endswith(
                    ("_label", "_text", "_title")):
                args.append("Fuzz")
            elif pname in ("rules_name", "preset", "preset_name"):
                args.append(self.rng.choice(sorted(RULESETS)))
            elif pname == "rules":
                args.append(RULESETS[self.rng.choice(sorted(RULESETS))])
            elif pname == "months":
                args.append(None)
            elif pname in ("ended_event", "event"):
                s = self.session("round_ended")
                args.append([e for e in s.state.events if isinstance(e, RoundEnded)][-1])
            elif pname in ("path",):
                found = app.storage.list_finished()
                if not found:
                    raise LookupError("no finished match to open")
                args.append(found[0].path)
            else:
                raise LookupError(f"cannot fill argument {pname!r}")
        names = [n for n, p in list(sig.parameters.items())[1:]
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                 and (p.default is p.empty or n in ("session", "state"))]
        if any(n in ("round_no", "round") for n in names):
            # a round of a match: a finished match, one of its rounds
            done = self.session("finished")
            for i, n in enumerate(names):
                if n in ("session", "session_or_state", "match"):
                    args[i] = done
                elif n == "state":
                    args[i] = done.state
                elif n in ("round_no", "round"):
                    args[i] = self.rng.choice(done.state.ledger).round
        scene = cls(*args)
        holder["scene"] = scene
        return scene


# ---------------------------------------------------------------------- the fuzzer


class Fuzzer:
    def __init__(self, seed: int = 0, *, app=None, size=(1280, 720), check_every: int = 50,
                 quiet_every: int = 0, quiet_frames: int = 6000, stop_on_failure: bool = True,
                 verbose: bool = False):
        self.seed = seed
        self.rng = random.Random(seed)
        self.size = tuple(size)
        self.check_every = max(1, check_every)
        self.quiet_every = quiet_every
        self.quiet_frames = quiet_frames
        self.stop_on_failure = stop_on_failure
        self.verbose = verbose
        self.summary = Summary(seed)
        if app is None:
            from koikoi.storage import Storage
            from koikoi.ui.app import App
            from koikoi.ui.scenes.title import TitleScene
            app = App(self.size, storage=Storage(), seed=seed)
            app.assets.muted = True
            app.settings["anim_speed"] = 0.0
            app.push(TitleScene(app))
        self.app = app
        self.classes = scene_classes()
        for name, cls in list(self.classes.items()):
            if isinstance(cls, Exception):
                self.summary.failures.append(f"scene module failed to import: {name}: {cls!r}")
                del self.classes[name]
        self.builder = Builder(app, self.rng)
        self.held_keys: list[int] = []
        self.mouse = (self.size[0] // 2, self.size[1] // 2)
        self.buttons_down: set[int] = set()
        self._finished_ids: set[int] = set()
        self.trail: collections.deque = collections.deque(maxlen=12)
        self._resyncs: dict = {}
        self.current = "?"

    # ------------------------------------------------------------ posting
    def post(self, etype, **kw) -> None:
        pygame.event.post(pygame.event.Event(etype, **kw))
        self.summary.posted += 1

    def window_pos(self, pos) -> tuple[int, int]:
        """Scene (buffer) coordinates -> window coordinates (the app maps them back)."""
        app = self.app
        if getattr(app, "_buffer", None) is None:
            return int(pos[0]), int(pos[1])
        ww, wh = app.window.get_size()
        bw, bh = app._buffer.get_size()
        return int(pos[0] * ww / max(1, bw)), int(pos[1] * wh / max(1, bh))

    def random_pos(self) -> tuple[int, int]:
        w, h = self.app.window.get_size()
        if self.rng.random() < 0.05:   # sometimes outside the window
            return self.rng.randint(-50, w + 50), self.rng.randint(-50, h + 50)
        return self.rng.randrange(max(1, w)), self.rng.randrange(max(1, h))

    def target_pos(self) -> tuple[int, int]:
        top = self.app.top
        widgets, rects = targets_of(top) if top is not None else ([], [])
        pool = widgets if widgets and (self.rng.random() < 0.6 or not rects) else rects
        if not pool:
            return self.random_pos()
        r = self.rng.choice(pool)
        p = (self.rng.randint(r.left, max(r.left, r.right - 1)),
             self.rng.randint(r.top, max(r.top, r.bottom - 1)))
        return self.window_pos(p)

    def motion(self, pos, buttons=(0, 0, 0)) -> None:
        rel = (pos[0] - self.mouse[0], pos[1] - self.mouse[1])
        self.mouse = pos
        self.post(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons)

    def press(self, pos, button=1) -> None:
        self.motion(pos)
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)

    def key(self, key, mod=0, down=True) -> None:
        uni = ""
        if down and 32 <= key < 127:
            uni = chr(key)
        elif down and key == pygame.K_RETURN:
            uni = "\r"
        elif down and key == pygame.K_ESCAPE:
            uni = "\x1b"
        self.post(pygame.KEYDOWN if down else pygame.KEYUP, key=key, mod=mod, unicode=uni,
                  scancode=0)

    # ------------------------------------------------------------ stepping
    def step(self, dt: Optional[float] = None) -> None:
        app = self.app
        app.step(self.rng.choice(DTS) if dt is None else dt)
        self.summary.frames += 1
        if not app.running:           # Quit button, QUIT event: the fuzzer keeps the game open
            app.running = True
            self.summary.quits += 1
        top = app.top
        if top is None:
            raise Failure("the scene stack is empty")
        for sc in app.scenes:   # at rest, the round table must show the fold of its seat's events
            at_rest = getattr(sc, "at_rest", None)
            if at_rest is None or not hasattr(sc, "table") or not at_rest():
                continue
            key = (len(sc.session.state.events), sc.me)
            if self._resyncs.get(id(sc)) == key:
                continue                   # checked at this point already
            self._resyncs[id(sc)] = key
            if sc.table != fold_all(sc.session.public_events(sc.me, 0), sc.me):
                self.summary.resyncs += 1
                if len(self.summary.resync_at) < 10:
                    self.summary.resync_at.append(
                        f"action {self.summary.actions + 1} ({self.current}; before it: {' '.join(self.trail)})")
        emptied = getattr(app, "emptied", None)
        if emptied:
            for name in emptied:
                self.summary.emptied[name] += 1
            emptied.clear()
        self.summary.scenes[type(top).__name__] += 1
        for s in sessions_of(app):
            if s.state.is_over and id(s) not in self._finished_ids:
                self._finished_ids.add(id(s))
                self.summary.matches_finished += 1

    def check_replay(self) -> None:
        for s in sessions_of(self.app):
            rebuilt = replay(s.state.events)
            self.summary.replay_checks += 1
            if rebuilt != s.state:
                raise Failure(f"replay(events) != state for a session with {len(s.state.events)} events")

    # ------------------------------------------------------------ actions
    def act(self) -> str:
        rng = self.rng
        kinds = (("move", 14), ("click", 10), ("click_target", 26), ("drag", 6), ("right", 3),
                 ("middle", 1), ("wheel", 4), ("key", 16), ("held_key", 3), ("mash", 2),
                 ("resize", 2), ("focus", 2), ("minimise", 1), ("push", 3), ("quit", 0.3),
                 ("idle", 5), ("text", 1))
        total = sum(w for _, w in kinds)
        x = rng.random() * total
        for kind, w in kinds:
            x -= w
            if x < 0:
                break
        self.current = kind
        top = self.app.top
        self.trail.append(f"{kind}@{type(top).__name__ if top is not None else None}")
        getattr(self, f"do_{kind}")()
        return kind

    def do_move(self) -> None:
        for _ in range(self.rng.randint(1, 4)):
            self.motion(self.random_pos() if self.rng.random() < 0.6 else self.target_pos())
        self.step()

    def do_click(self) -> None:
        self.press(self.random_pos(), 1)
        self.step()

    def do_click_target(self) -> None:
        self.press(self.target_pos(), 1)
        self.step()
        if self.rng.random() < 0.15:   # a double click
            self.press(self.mouse, 1)
            self.step()

    def do_drag(self) -> None:
        start = self.target_pos()
        end = self.target_pos() if self.rng.random() < 0.7 else self.random_pos()
        self.motion(start)
        self.post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
        self.step()
        n = self.rng.randint(1, 6)
        for i in range(1, n + 1):
            p = (start[0] + (end[0] - start[0]) * i // n, start[1] + (end[1] - start[1]) * i // n)
            self.motion(p, buttons=(1, 0, 0))
            if self.rng.random() < 0.5:
                self.step()
        if self.rng.random() < 0.1:     # a right click in the middle of a drag
            self.post(pygame.MOUSEBUTTONDOWN, pos=end, button=3)
        if self.rng.random() < 0.9:     # sometimes the release never comes (focus lost)
            self.post(pygame.MOUSEBUTTONUP, pos=end, button=1)
        self.step()

    def do_right(self) -> None:
        self.press(self.target_pos() if self.rng.random() < 0.5 else self.random_pos(), 3)
        self.step()

    def do_middle(self) -> None:
        self.press(self.random_pos(), 2)
        self.step()

    def do_wheel(self) -> None:
        self.motion(self.target_pos() if self.rng.random() < 0.5 else self.random_pos())
        for _ in range(self.rng.randint(1, 8)):
            y = self.rng.choice([-3, -1, -1, 1, 1, 3])
            self.post(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0, precise_y=float(y),
                      which=0, touch=False)
        self.step()

    def do_key(self) -> None:
        k = self.rng.choice(KEYS)
        m = self.rng.choice(MODS)
        self.key(k, m)
        self.key(k, m, down=False)
        self.step()

    def do_held_key(self) -> None:
        k = self.rng.choice(KEYS)
        self.trail.append(f"[held {pygame.key.name(k)}]")
        self.key(k)
        for _ in range(self.rng.randint(1, 12)):   # key repeat: KEYDOWNs without KEYUP
            if self.rng.random() < 0.7:
                self.key(k)
            self.step(1 / 60)
        self.key(k, down=False)
        self.step()

    def do_mash(self) -> None:
        for _ in range(self.rng.randint(3, 20)):
            k = self.rng.choice(KEYS)
            self.key(k)
            self.key(k, down=False)
        self.step()

    def do_text(self) -> None:
        self.post(pygame.TEXTINPUT, text=self.rng.choice(["a", "k", " ", "é", "1", "漢"]))
        self.step()

    def do_resize(self) -> None:
        size = self.rng.choice(SIZES) if self.rng.random() < 0.8 else (
            self.rng.randint(1, 2000), self.rng.randint(1, 1200))
        if self.app.fullscreen and self.rng.random() < 0.7:
            self.key(pygame.K_F11)
            self.step()
        else:
            pygame.display.set_mode(size, pygame.RESIZABLE)
            real = pygame.display.get_surface().get_size()
            self.post(pygame.VIDEORESIZE, size=real, w=real[0], h=real[1])
            if hasattr(pygame, "WINDOWSIZECHANGED"):
                self.post(pygame.WINDOWSIZECHANGED, x=real[0], y=real[1])
            self.step()
            if self.rng.random() < 0.5:   # and back to a normal size soon after
                for _ in range(self.rng.randint(0, 3)):
                    self.do_click_target()
                size = self.rng.choice([(1280, 720), (960, 540), (1920, 1080)])
                pygame.display.set_mode(size, pygame.RESIZABLE)
                self.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
                self.step()

    def do_focus(self) -> None:
        rng = self.rng
        if hasattr(pygame, "ACTIVEEVENT"):
            self.post(pygame.ACTIVEEVENT, gain=0, state=rng.choice([1, 2, 6]))
        if _WINDOW_EVENTS:
            self.post(rng.choice(_WINDOW_EVENTS))
        if hasattr(pygame, "WINDOWFOCUSLOST"):
            self.post(pygame.WINDOWFOCUSLOST)
        for _ in range(rng.randint(1, 5)):
            self.step()
        if hasattr(pygame, "WINDOWFOCUSGAINED"):
            self.post(pygame.WINDOWFOCUSGAINED)
        if hasattr(pygame, "ACTIVEEVENT"):
            self.post(pygame.ACTIVEEVENT, gain=1, state=2)
        self.step()

    def do_minimise(self) -> None:
        if hasattr(pygame, "WINDOWMINIMIZED"):
            self.post(pygame.WINDOWMINIMIZED)
        for _ in range(self.rng.randint(1, 30)):
            self.step(self.rng.choice([1 / 60, 0.1]))
        if self.rng.random() < 0.8 and hasattr(pygame, "WINDOWRESTORED"):
            self.post(pygame.WINDOWRESTORED)
        self.step()

    def do_quit(self) -> None:
        self.post(pygame.QUIT)
        self.step()

    def do_idle(self) -> None:
        for _ in range(self.rng.randint(1, 15)):
            self.step()

    def do_push(self) -> None:
        app = self.app
        rng = self.rng
        r = rng.random()
        if r < 0.1:
            app.open_pause_menu()
            self.summary.pushed["PauseMenuScene(open_pause_menu)"] += 1
            self.step()
            return
        name = rng.choice(sorted(self.classes))
        cls = self.classes[name]
        try:
            scene = self.builder.build(name, cls)
        except (LookupError, TypeError) as exc:
            self.summary.unbuildable[name] = f"{type(exc).__name__}: {exc}"[:80]
            return
        how = rng.random()
        if name not in ROOT_SCENES and app.scenes:
            how = 0.5            # menus and overlays go over something, as in the game
        if how < 0.4 or not app.scenes:
            app.reset(scene)
        elif how < 0.8:
            app.push(scene)
        else:
            app.replace(scene)
        self.summary.pushed[name] += 1
        self.step()

    # ------------------------------------------------------------ quiet: no freeze
    def acknowledge(self) -> bool:
        """Give only the answers a match waits for (Continue, Deal, ready); True if one was given."""
        top = self.app.top
        name = type(top).__name__
        if name == "OyagimeScene" and getattr(top, "go", None) is not None and top.go.visible:
            self.press(self.window_pos(top.go.rect.center))
            return True
        if name in ("RoundResultsScene",) and getattr(top, "ok", None) is not None:
            self.press(self.window_pos(top.ok.rect.center))
            return True
        if name in ("CurtainScene", "RoundSummaryScene"):
            self.key(pygame.K_RETURN)
            return True
        if name == "KoiKoiPromptScene" and getattr(top, "buttons", None):
            self.press(self.window_pos(top.buttons[0].rect.center))
            return True
        return False

    def settle_existing(self, frames: int) -> None:
        """Stop interfering with the match already on the table: if both seats are
        CPUs it must reach its end (menus opened over it are closed with Escape)."""
        app = self.app
        cpu = [s for s in sessions_of(app) if not s.state.is_over
               and all(seat.kind == "cpu" for seat in s.seats)]
        if not cpu:
            return
        session = cpu[-1]
        for i in range(frames):
            self.step(0.1)
            if session.state.is_over:
                self.summary.quiet_matches += 1
                return
            if session not in sessions_of(app):
                return                  # Escape left the match (to the title): nothing to wait for
            if (i % 3 == 0 and not self.acknowledge()
                    and type(app.top).__name__ not in ("RoundScene", "OyagimeScene")):
                self.key(pygame.K_ESCAPE)   # a menu or an inspector over the table: close it
        raise Failure(f"frozen: the CPU-vs-CPU match on the table did not end in {frames} quiet frames; "
                      f"top {type(app.top).__name__}, phase {session.state.phase_name}, "
                      f"{len(session.state.events)} events")

    def quiet_match(self, frames: Optional[int] = None) -> None:
        """Stop interfering: a fresh CPU-vs-CPU match must reach its ledger."""
        app = self.app
        from koikoi.ui.scenes.oyagime import OyagimeScene
        frames = frames or self.quiet_frames
        pygame.event.clear()
        if app.fullscreen:
            app.set_fullscreen(False)
        pygame.display.set_mode(self.size, pygame.RESIZABLE)
        self.post(pygame.VIDEORESIZE, size=self.size, w=self.size[0], h=self.size[1])
        if hasattr(pygame, "WINDOWRESTORED"):
            self.post(pygame.WINDOWRESTORED)
        speed = app.settings.get("anim_speed")
        app.settings["anim_speed"] = 0.0
        try:
            self.settle_existing(frames)
        finally:
            app.settings["anim_speed"] = speed
        app.settings["anim_speed"] = 0.0
        session = make_session(app, self.rng, seats=cpu_seats(), months=1)
        app.reset(OyagimeScene(app, session))
        try:
            for i in range(frames):
                self.step(0.1)
                if session.state.is_over and type(app.top).__name__ in ("MatchResultsScene", "MatchSummaryScene"):
                    self.summary.quiet_matches += 1
                    break
                if i % 3 == 0:
                    self.acknowledge()
            else:
                raise Failure(f"frozen: a CPU-vs-CPU match did not end in {frames} quiet frames; "
                              f"top {type(app.top).__name__}, phase {session.state.phase_name}, "
                              f"{len(session.state.events)} events, to move {session.state.to_move}")
            self.check_replay()
        finally:
            app.settings["anim_speed"] = speed

    # ------------------------------------------------------------ main
    def run(self, actions: int, *, progress: int = 0) -> Summary:
        t0 = time.perf_counter()
        i = 0
        last_kind = "-"
        try:
            for i in range(1, actions + 1):
                self.current = "?"
                last_kind = self.act()
                self.summary.actions = i
                self.summary.kinds[last_kind] += 1
                if i % self.check_every == 0:
                    self.check_replay()
                if self.quiet_every and i % self.quiet_every == 0:
                    last_kind = "quiet"
                    self.quiet_match()
                if progress and i % progress == 0:
                    print(f"  ... {i} actions, {time.perf_counter() - t0:.0f} s, top "
                          f"{type(self.app.top).__name__}", flush=True)
            last_kind = "final check"
            self.check_replay()
            last_kind = "final quiet match"
            self.quiet_match()
        except Exception as exc:
            top = type(self.app.top).__name__ if self.app.top is not None else None
            if last_kind not in ("quiet", "final check", "final quiet match"):
                last_kind = self.current
            self.summary.failures.append(
                f"action {i} ({last_kind}), seed {self.seed}, top {top}: {type(exc).__name__}: {exc}\n"
                f"last actions: {' '.join(self.trail)}\n"
                + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-6:]).rstrip())
        self.summary.seconds = time.perf_counter() - t0
        return self.summary


def run_fuzz(events: int, seed: int, size=(1280, 720), **kw) -> Summary:
    return Fuzzer(seed, size=size, **kw).run(events)


def _size(text: str):
    w, h = text.lower().split("x")
    return int(w), int(h)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=5000, help="fuzz actions to run")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=_size, default=(1280, 720))
    ap.add_argument("--check-every", type=int, default=50, help="replay check every N actions")
    ap.add_argument("--quiet-every", type=int, default=5000,
                    help="run a CPU-vs-CPU match to its end every N actions (0: only at the end)")
    ap.add_argument("--progress", type=int, default=5000)
    args = ap.parse_args(argv)
    fz = Fuzzer(args.seed, size=args.size, check_every=args.check_every, quiet_every=args.quiet_every)
    summary = fz.run(args.events, progress=args.progress)
    print(summary.text())
    pygame.quit()
    return 0 if summary.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
