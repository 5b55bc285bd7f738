"""The window, the main loop and the scene stack.

    app = App((1280, 720))
    app.push(TitleScene(app))
    app.run()                 # until the window closes
    app.step(1 / 60)          # or one frame at a time (tests, tools)

Scenes lay out in real window pixels from ``app.size`` (no per-frame scaling).
Only a window smaller than ``theme.MIN_LAYOUT_SIZE`` is drawn at that minimum
size on a back buffer and scaled into the window (mouse positions mapped
back), so layouts never have to squeeze below it and nothing crashes.

The loop runs at 60 fps while any scene is ``animating``, a toast shows or
input arrived in the last second. Otherwise it is idle: it blocks in
``pygame.event.wait`` for up to a quarter of a second (so an idle game uses
next to no CPU) and redraws at that slow pace; a minimised window is not
drawn at all and steps at most twice a second (a CPU-vs-CPU game there runs
slower until the window is back). Input goes to the top scene first; an overlay that does not
``pauses_below`` passes on what it does not consume. F11 (or Alt+Enter)
toggles fullscreen.

``App(lang="ja")`` (--lang) plays in that language for this run whatever the
Language setting says, and saves nothing about it; without it the setting
("system": the OS language when translated) is applied at start.
``app.set_language(code)`` switches, saves, and lays every scene out again.

``App(read_only=True)`` (a second window while another copy of the game holds
the lock, see koikoi.instance_lock) reads the player's files but never writes
them: it sees ``storage.read_only_view()``, and its matches have no store.

A window size (``--size`` or the saved one) is clamped to what the display
and memory allow: at most ``MAX_WINDOW`` (7680x4320) and twice the desktop
on each side (four times its area), with a message.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from typing import Optional

import pygame

from .. import gc_pacing, i18n
from ..i18n import N_, _
from ..storage import LANGUAGES, Storage
from . import registry, theme
from . import widgets as W
from .assets import Assets
from .memory import tune_malloc
from .notices import CutTip, Toast, draw_toasts
from .scene import Scene
from .window import WINDOW_HIDDEN, WINDOW_SHOWN, buffer_size, clamp_window_size, map_pos

log = logging.getLogger("koikoi.app")

FPS_ACTIVE = 60
FPS_IDLE = 15              # kept for tools that read it; the idle loop waits instead
IDLE_WAIT_MS = 250         # idle: wait this long for an event before the next frame
# Idle waits look for an event this often and sleep between: SDL's own timed wait looks every
# millisecond (some 1,000 wake-ups a second, 4-5% of a core at the title, measured by
# tools/bench.py); 15 ms keeps the first input after a quiet spell within a frame.
IDLE_POLL_S = 0.015
MINIMISED_WAIT_MS = 500
IDLE_AFTER = 1.0           # seconds without input before the loop slows down

READ_ONLY_MESSAGE = N_("Koi-Koi is already open in another window: this one will not save")   # shown translated


class App:
    def __init__(self, size=(1280, 720), *, fullscreen: bool = False,
                 storage: Optional[Storage] = None, seed: Optional[int] = None,
                 read_only: bool = False, lang: Optional[str] = None):
        tune_malloc()
        pygame.init()
        self.read_only = bool(read_only)
        storage = storage if storage is not None else Storage()
        self.storage = storage.read_only_view() if self.read_only else storage
        self.storage.tidy()              # leftovers of writes a crash interrupted (the writer only)
        # the language first, so a settings warning is already in it: ``lang`` (--lang, see
        # koikoi.__main__) wins for this run and is not saved; otherwise the "language" setting
        self.lang_override = lang
        self.apply_language({"language": self.storage.saved_language()})
        self.settings, warning = self.storage.load_settings()
        self.seed = seed
        self.scenes: list[Scene] = []
        self.toasts: list[Toast] = []
        self.cut_tip = CutTip()              # the whole of a cut text under the pointer
        self.running = True
        self.frame = 0
        self.clock = pygame.time.Clock()
        self._last_input = time.monotonic()
        self._stack_version = 0
        self._held: list = []            # events taken by the idle wait, handled first
        self._failing: set[str] = set()  # writes that failed and were reported once
        self.emptied: list[str] = []     # scenes that popped the last scene (see _refill)
        self.tickers: list = []          # tick(dt) each frame before the scenes (an online match)
        self.minimised = False
        self.idle_frames = 0             # frames drawn in the slow idle mode (tests, bench)
        self._buffer: Optional[pygame.Surface] = None      # only for windows below the minimum
        if size is None:  # the last windowed size, else 1280x720
            size = self.settings.get("window_size") or (1280, 720)
        self._window_size, clamped = clamp_window_size(size)
        if clamped:
            log.warning("window size %sx%s is more than this display allows; using %dx%d",
                        size[0], size[1], *self._window_size)
        self.fullscreen = bool(fullscreen or self.settings.get("fullscreen"))

        pygame.display.set_caption("Koi-Koi")
        self.assets = Assets()
        try:
            pygame.display.set_icon(self.assets.icon(64))
        except pygame.error:  # some platforms refuse icons before a window exists
            pass
        self.window = self._set_mode()
        self.screen = self.window
        self.size = self.window.get_size()
        self._fit_buffer()
        self.apply_audio()
        pygame.key.set_repeat(350, 40)
        if warning:
            self.toast(warning, 7.0, "warning")
        if clamped:
            self.toast(_("The window size {width}×{height} is larger than this screen allows; "
                         "the window is {shown_width}×{shown_height}.").format(
                             width=int(size[0]), height=int(size[1]), shown_width=self._window_size[0],
                             shown_height=self._window_size[1]), 6.0, "warning")
        if self.read_only:
            self.toast(_(READ_ONLY_MESSAGE), 8.0, "warning")

    # ------------------------------------------------------------ window
    def _set_mode(self) -> pygame.Surface:
        if self.fullscreen:
            try:
                return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            except pygame.error as exc:
                log.warning("fullscreen failed (%s); using a window", exc)
                self.fullscreen = False
        surf = pygame.display.set_mode(self._window_size, pygame.RESIZABLE)
        try:  # pygame-ce 2.5: keep the OS from shrinking the window past usability
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                win = pygame.Window.from_display_module()
            win.minimum_size = (640, 360)
        except Exception:
            pass
        return surf

    def _fit_buffer(self) -> None:
        """Scenes draw on ``self.screen``: the window itself, or a back buffer of
        at least the minimum layout size when the window is smaller."""
        self.window = pygame.display.get_surface() or self.window
        size = buffer_size(self.window.get_size(), theme.MIN_LAYOUT_SIZE)
        if size is None:
            self._buffer = None
            self.screen = self.window
        else:
            self._buffer = pygame.Surface(size).convert()
            self.screen = self._buffer
        self.size = self.screen.get_size()

    def _map_pos(self, pos) -> tuple[int, int]:
        if self._buffer is None:
            return pos
        return map_pos(pos, self.window.get_size(), self._buffer.get_size())

    def on_window_resized(self) -> None:
        old = self.size
        self._fit_buffer()
        if not self.fullscreen:
            self._window_size = self.window.get_size()
        if self.size != old:
            self.relayout()

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def set_fullscreen(self, on: bool) -> None:
        if bool(on) == self.fullscreen:
            return
        if not self.fullscreen:
            self._window_size = self.window.get_size()
        self.fullscreen = bool(on)
        self.window = self._set_mode()
        self.settings["fullscreen"] = self.fullscreen
        self.save_settings()
        self.on_window_resized()

    # ------------------------------------------------------------ language
    def apply_language(self, settings: Optional[dict] = None) -> str:
        """Play in the --lang language, else in the "language" setting's (``i18n.resolve``:
        "system" is the OS language when its catalog is complete). Returns the code."""
        if self.lang_override is not None:
            return i18n.set_language(self.lang_override)
        st = self.settings if settings is None else settings
        return i18n.set_language(i18n.resolve(st.get("language", "system")))

    def set_language(self, code: str) -> str:
        """The Settings row: switch to ``code`` ("system", "en", "ja"), save it, and lay
        out every scene again (as a window resize does) so the game speaks it at once.
        A --lang of this run gives way to the player's choice. Returns the language in use."""
        if code not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}, not {code!r}")
        self.settings["language"] = code
        self.lang_override = None
        used = self.apply_language()
        self.save_settings()
        self.relayout()
        return used

    def relayout(self) -> None:
        """Every scene on the stack recomputes its layout (and so its texts)."""
        for scene in list(self.scenes):
            try:
                scene.resize(self.size)
            except Exception:
                log.exception("%s.resize failed", type(scene).__name__)

    # ------------------------------------------------------------ settings
    @property
    def anim_speed(self) -> float:
        """0 = instant, 1 = normal, 2 = twice as fast."""
        return float(self.settings.get("anim_speed", 1.0))

    def anim_dt(self, dt: float) -> float:
        """``dt`` as animation time: scaled by the speed; a huge step when instant."""
        speed = self.anim_speed
        return 1e6 if speed <= 0 else dt * speed

    def apply_audio(self) -> None:
        self.assets.volume = float(self.settings.get("volume", 0.8))
        self.assets.muted = bool(self.settings.get("muted", False))
        music = 0.0 if self.assets.muted else float(self.settings.get("music_volume", 0.5))
        self.assets.set_music(music)

    def save_settings(self) -> None:
        self.apply_audio()
        if not self.fullscreen:
            w, h = self._window_size
            self.settings["window_size"] = [int(w), int(h)] if w >= 200 and h >= 200 else None
        if self.read_only:
            return
        ok = self.storage.save_settings(self.settings)
        self._report("settings", ok, _("Settings could not be saved (see the log)."))

    def play(self, name: str, volume: float = 1.0) -> None:
        """Play a sound effect (honours volume and mute through the Assets)."""
        try:
            self.assets.play(name, volume)
        except Exception:
            log.exception("sound %r failed", name)

    def _report(self, what: str, ok: bool, message: str) -> None:
        """Toast a failed write once, not on every attempt (a full disk would
        otherwise warn after every card); a later success re-arms the warning."""
        if ok:
            self._failing.discard(what)
        elif what not in self._failing:
            self._failing.add(what)
            self.toast(message, 6.0, "warning")

    def toast(self, text: str, seconds: float = 5.0, kind: str = "info") -> None:
        self.toasts.append(Toast(text, seconds, kind))
        log.info("toast: %s", text)

    # ------------------------------------------------------------ matches
    def watch(self, session):
        """Keep ``session``: it saves itself through the storage after every
        action (a read-only window gives it no store) and the app toasts a
        failure once. Returns the session."""
        session.store = None if self.read_only else self.storage
        session.on_change = self._session_changed
        return session

    def _session_changed(self, session) -> None:
        problem = session.save_problem
        for what, default in (("autosave", _("The match could not be autosaved (see the log).")),
                              ("history", _("The finished match could not be saved to the history."))):
            failed = problem is not None and problem[0] == what
            # the session words its problem as an N_ msgid: shown in the player's language
            self._report(what, not failed, _(problem[1]) if failed else default)

    def autosave(self, session) -> None:
        """Save ``session`` now (a match that just started, tools) and keep it
        saving: see ``watch``. A finished match is filed once, by its id."""
        self.watch(session)
        session.save()
        self._session_changed(session)

    def finish_match(self, session) -> None:
        """Make sure a finished ``session`` is filed (idempotent)."""
        if session.is_over:
            self.autosave(session)

    # ------------------------------------------------------------ stack
    @property
    def top(self) -> Optional[Scene]:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        self.scenes.append(scene)
        self._stack_version += 1
        self._mark_input()
        scene.enter()
        return scene

    def pop(self) -> Optional[Scene]:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        self._stack_version += 1
        self._mark_input()
        scene.exit()
        if self.scenes:
            self.scenes[-1].enter()
        elif self.running:
            self._refill(scene)
        return scene

    def _refill(self, closed: Scene) -> None:
        """The last scene closed itself while the game runs: show the title
        rather than end the game with no window content (a scene bug, logged)."""
        name = type(closed).__name__
        self.emptied.append(name)
        log.warning("%s closed the last scene on the stack; showing the title screen", name)
        try:
            self.open("title")
        except Exception:
            log.exception("the title screen could not be shown")

    def replace(self, scene: Scene) -> Scene:
        if self.scenes:
            old = self.scenes.pop()
            old.exit()
        self.scenes.append(scene)
        self._stack_version += 1
        self._mark_input()
        scene.enter()
        return scene

    def reset(self, scene: Scene) -> Scene:
        """Close every scene and show ``scene`` alone (e.g. back to the title)."""
        while self.scenes:
            self.scenes.pop().exit()
        return self.replace(scene)

    def open(self, name: str, *args, mode: str = "push", **kwargs) -> Scene:
        """Build the scene registered as ``name`` (``ui/registry.py``) with ``args`` and
        ``kwargs`` after the app, and push it, replace the top with it or ``reset`` the
        stack to it."""
        if mode not in registry.MODES:
            raise ValueError(f"mode must be one of {registry.MODES}, not {mode!r}")
        scene = registry.scene_class(name)(self, *args, **kwargs)
        return getattr(self, mode)(scene)

    def push_overlay(self, name: str, *args, **kwargs) -> Scene:
        """An overlay (a dialog, the prompt, the pause menu) over the scene on top."""
        return self.open(name, *args, mode="push", **kwargs)

    def remove(self, scene: Scene) -> None:
        """Take ``scene`` out of the stack wherever it is."""
        if scene is self.top:
            self.pop()
        elif scene in self.scenes:
            self.scenes.remove(scene)
            self._stack_version += 1
            scene.exit()

    def quit(self) -> None:
        self.running = False

    # ------------------------------------------------------------ loop
    def _mark_input(self) -> None:
        self._last_input = time.monotonic()

    @property
    def busy(self) -> bool:
        """True while something moves or the player is active: full frame rate."""
        if self.toasts or time.monotonic() - self._last_input < IDLE_AFTER:
            return True
        return any(getattr(s, "animating", False) for s in self.scenes)

    def run(self, max_frames: Optional[int] = None) -> int:
        """The main loop; returns 0. ``max_frames``: stop after that many frames."""
        frames = 0
        try:
            while self.running and self.scenes:
                if self.busy and not self.minimised:
                    dt = self.clock.tick(FPS_ACTIVE) / 1000.0
                else:
                    self.wait_idle()
                    dt = self.clock.tick() / 1000.0
                self.step(min(dt, 0.1))
                frames += 1
                if max_frames is not None and frames >= max_frames:
                    break
        finally:
            self.shutdown()
        return 0

    def wait_idle(self, timeout_ms: Optional[int] = None) -> bool:
        """Sleep until an event arrives or ``timeout_ms`` passes (idle frames).
        The event is kept for the next ``step``; True if one arrived."""
        gc_pacing.idle()   # a full collection a background worker deferred: nothing moves now
        if timeout_ms is None:
            timeout_ms = MINIMISED_WAIT_MS if self.minimised else IDLE_WAIT_MS
        self.idle_frames += 1
        deadline = time.monotonic() + timeout_ms / 1000.0
        while True:
            try:
                event = pygame.event.poll()
            except pygame.error:
                event = None
            if event is not None and event.type != pygame.NOEVENT:
                self._held.append(event)
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(IDLE_POLL_S, left))

    def shutdown(self) -> None:
        for scene in reversed(self.scenes):
            if hasattr(scene, "on_quit"):
                try:
                    scene.on_quit()
                except Exception:
                    log.exception("%s.on_quit failed", type(scene).__name__)
        if not self.fullscreen and self.window is not None:
            self._window_size = self.window.get_size()
        self.save_settings()

    def step(self, dt: float = 1 / 60) -> None:
        """One frame: every queued event, then update, then draw and flip."""
        held, self._held = self._held, []
        for event in held + pygame.event.get():
            self.dispatch(event)
        self.update(dt)
        if not self.minimised:
            self.draw()
            pygame.display.flip()
        self.frame += 1
        if self.frame == 1:
            self._first_frame()

    @staticmethod
    def _first_frame() -> None:
        """tools/bench.py times the cold start up to here: the first frame is on
        screen and takes input. It names a file in KOIKOI_FIRST_FRAME_FILE."""
        target = os.environ.get("KOIKOI_FIRST_FRAME_FILE")
        if target:
            try:
                with open(target, "w", encoding="ascii") as f:
                    f.write(repr(time.time()))
            except OSError:
                pass

    def dispatch(self, event: pygame.event.Event) -> bool:
        """Send one event down the stack; True if something consumed it."""
        t = event.type
        if t == pygame.MOUSEMOTION:
            self.cut_tip.pointer = event.pos     # where a cut text's hover looks
        elif t == pygame.WINDOWLEAVE:
            self.cut_tip.pointer = None
        if t == pygame.QUIT:
            self.running = False
            return True
        if t in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.WINDOWRESIZED):
            self.on_window_resized()
            return True
        if t in WINDOW_HIDDEN:
            self.minimised = True
        elif t in WINDOW_SHOWN:
            self.minimised = False
            self._mark_input()
        if t in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP,
                 pygame.MOUSEMOTION, pygame.MOUSEWHEEL, pygame.TEXTINPUT):
            self._mark_input()
            self.minimised = False
        if t == pygame.KEYDOWN and (event.key == pygame.K_F11 or (
                event.key == pygame.K_RETURN and event.mod & pygame.KMOD_ALT)):
            self.toggle_fullscreen()
            return True
        if self._buffer is not None and hasattr(event, "pos") and t in (
                pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            d = dict(event.dict)
            d["pos"] = self._map_pos(event.pos)
            event = pygame.event.Event(t, d)
        version = self._stack_version
        for scene in reversed(list(self.scenes)):
            try:
                consumed = scene.handle(event)
            except Exception:
                log.exception("%s.handle failed", type(scene).__name__)
                raise
            if consumed or self._stack_version != version:
                return True
            if scene.opaque or getattr(scene, "pauses_below", True):
                break
        if t == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self._pausable(self.top):
            self.open_pause_menu()
            return True
        return False

    @staticmethod
    def _pausable(scene) -> bool:
        """The table scenes get the pause menu on an Escape they do not use."""
        if scene is None:
            return False
        return bool(getattr(scene, "pausable", False))

    def open_pause_menu(self) -> None:
        self.push_overlay("pause")

    def update(self, dt: float) -> None:
        self.cut_tip.update(dt)
        for toast in list(self.toasts):
            toast.left -= dt
            if toast.left <= 0:
                self.toasts.remove(toast)
        for tick in list(self.tickers):   # runs under any overlay, even one that pauses below
            tick(dt)
        version = self._stack_version
        for scene in reversed(list(self.scenes)):
            scene.update(dt)
            if self._stack_version != version:
                break
            if getattr(scene, "pauses_below", True):
                break

    def draw(self) -> None:
        surface = self.screen
        first = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                first = i
                break
        if not self.scenes or not self.scenes[first].opaque:
            surface.blit(self.assets.table(self.size), (0, 0))
        W.text.new_frame(surface.get_size())
        for scene in self.scenes[first:]:
            scene.draw(surface)
        self.cut_tip.draw(surface, self.assets, self.size)
        draw_toasts(surface, self.toasts, self.assets, self.size)
        if self._buffer is not None:
            pygame.transform.smoothscale(self._buffer, self.window.get_size(), self.window)


__all__ = ["App", "READ_ONLY_MESSAGE"]
