"""One interactive lesson, played on the real round table with the real engine.

``LessonScene`` is the round table (``RoundScene``) driven by a ``MatchSession`` made
from the lesson's set deal (``koikoi.lessons``): seat 0 is the player, seat 1 a CPU
whose every move is the script's (``ScriptedPlayer``, a player object the session asks
like any CPU). A coach panel above the field says the current step's text; the cards
to click pulse; any other move is refused with the step's friendly explanation and not
played (``gate`` for actions, ``gate_pick`` for picking up a hand card; the Koi-Koi
prompt asks the same gate). A step with nothing to play waits for Next. When the
script ends the lesson is marked done in the settings (``"lessons": {"done": [...]}``)
and ``LessonDoneScene`` shows its one-line summary with Next lesson / Back to lessons.

The lesson's match is never saved, filed or counted: its session has no store and
``record=False``; the table's pause menu is replaced by the lesson's own
(``LessonPauseScene``: resume, restart, leave), and the match results screen (which
files a finished match) is never opened.
"""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ...engine import SeatKind
from ...lessons import CPU, YOU, Lesson, highlights
from ...session import MatchSession, SeatConfig
from .. import theme
from .. import widgets as W
from ...i18n import N_, _
from ..table.context import TablePolicy
from . import DialogScene, MenuScene
from .round import RoundScene

log = logging.getLogger("koikoi.lesson")

REFUSAL_TIME = 6.0       # seconds a refusal stays in the coach panel


class Script:
    """Which step of the lesson is current (the scene advances it)."""

    def __init__(self, lesson: Lesson):
        self.lesson = lesson
        self.index = 0

    @property
    def current(self):
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.lesson.steps)

    def advance(self) -> None:
        if not self.done:
            self.index += 1


class ScriptedPlayer:
    """The lesson's CPU: it plays the current step's move. Should the script and the table
    ever disagree (they cannot once the lesson has loaded), it plays the first legal move
    rather than freeze the table."""

    def __init__(self, script: Script):
        self.script = script

    def choose(self, view, legal):
        step = self.script.current
        if step is not None and step.seat == CPU and step.action in legal:
            return step.action
        log.warning("lesson %s: no scripted CPU move at step %d; playing the first legal one",
                    self.script.lesson.id, self.script.index + 1)
        return legal[0]


class LessonPolicy(TablePolicy):
    """The round table as a lesson plays it: the script's cards ringed and the only ones that
    may be picked (any other is refused, and the coach says why), the Koi-Koi question asked
    through the script's gate, no practice glow, no turn log (the coach's words are there),
    and the table held while the script waits: a step to read (Next), or the end of the
    lesson. Otherwise the CPU moves (its scripted move) as at the round table."""

    shows_turn_log = False   # the coach panel covers that strip: the lesson's words replace it
    hints = False            # the lesson's own highlights, not the Easy glow
    pulses = True

    def __init__(self, lesson: "LessonScene"):
        self.lesson = lesson

    def holds_turn(self) -> bool:
        step = self.lesson.script.current
        return step is None or step.seat is None

    def highlighted(self) -> tuple:
        scene = self.lesson
        step = scene.script.current
        if step is None or scene.overlay is not None or scene.tl.busy:
            return ()
        try:
            return highlights(step, scene.session.state)
        except Exception:   # a highlight must never break the table
            log.exception("lesson highlight failed")
            return ()

    def gate_pick(self, card: str) -> bool:
        scene = self.lesson
        step = scene.script.current
        action = step.action if step is not None else None
        if step is not None and step.seat == YOU and getattr(action, "card", None) == card:
            return True
        scene.refuse(scene.gate(None) or _("Not this time: follow the highlighted cards."))
        return False

    def prompt_options(self) -> dict:
        """The Koi-Koi question, asked through the lesson's gate, its answer ringed."""
        scene = self.lesson
        step = scene.script.current
        return dict(practice=False, gate=scene.gate, pick=step.decision if step is not None else None,
                    note=step.say if step is not None else None)


def lesson_session(lesson: Lesson, script: Script) -> MatchSession:
    """The lesson's match: the set deal, the scripted CPU, nothing ever written."""
    # The names in English, as every session stores them: the table shows them through
    # seat_label, so they follow a change of language made during the lesson.
    seats = (SeatConfig(SeatKind.HUMAN, "You"), SeatConfig(SeatKind.CPU, "CPU", "random"))
    return MatchSession(lesson.rules, seed=lesson.seed, months=1, seats=seats, state=lesson.start(),
                        store=None, record=False, players={CPU: ScriptedPlayer(script)})


def mark_done(app, lesson_id: str) -> None:
    """Remember that ``lesson_id`` was completed (the settings' "lessons" key)."""
    settings = getattr(app, "settings", None)
    if not isinstance(settings, dict):
        return
    progress = settings.get("lessons")
    if not isinstance(progress, dict) or not isinstance(progress.get("done"), list):
        progress = {"done": []}
    if lesson_id not in progress["done"]:
        progress = {**progress, "done": list(progress["done"]) + [lesson_id]}
    settings["lessons"] = progress
    save = getattr(app, "save_settings", None)
    if save is not None:
        try:
            save()
        except Exception:   # progress is a convenience: never break the lesson over it
            log.exception("could not save the lesson progress")


def panel_band(lay, pad: int) -> tuple:
    """(x, width, top, height) of the strip a teaching panel may fill: across the field
    area, under the other side's hand and its yaku line (what a lesson often asks to read),
    above the field's cards (over the turn log, which such a scene does not show)."""
    x0 = lay.field_area.x + pad
    w = lay.field_area.right - pad - x0
    top = min(lay.field_area.y, lay.opponent_zone.bottom) + max(2, pad // 3)
    line = lay.yaku_line[1]
    if line.bottom > top and line.right > x0 and line.x < x0 + w:
        top = line.bottom + max(2, pad // 3)
    return x0, w, top, lay.field_grid.y - top - max(2, pad // 3)


class LessonScene(RoundScene):
    pausable = False     # the lesson's own pause menu (the table's would save the match)
    session: MatchSession    # (lesson_session: the script's highlights and gate read its State)

    def __init__(self, app, lesson: Lesson, *, entries: Optional[list] = None):
        self.lesson = lesson
        self.entries = list(entries) if entries is not None else []
        self.script = Script(lesson)
        self.refusal: Optional[str] = None
        self.refusal_left = 0.0
        self.refusals: list = []        # every refusal shown, in order (tests read it)
        self.finished = False
        self._coach_key = None
        self._coach_img: Optional[pygame.Surface] = None
        self._said: Optional[str] = None     # the coach's words last shown at rest
        self.next_button: Optional[W.Button] = None
        super().__init__(app, lesson_session(lesson, self.script), policy=LessonPolicy(self))

    # ------------------------------------------------------------------ what the table reads
    def number(self) -> tuple:
        """(this lesson's place, how many) among the lessons listed, or (0, 0)."""
        ids = [e.id for e in self.entries]
        if self.lesson.id in ids:
            return ids.index(self.lesson.id) + 1, len(ids)
        return 0, 0

    def waiting_for_next(self) -> bool:
        """A step to read: its Next button is live (the table at rest, nothing over it)."""
        step = self.script.current
        return step is not None and step.seat is None and self.at_rest()

    # ------------------------------------------------------------------ the gate
    def gate(self, action) -> Optional[str]:
        """None if ``action`` is the player's move the script asks for now, else why not."""
        step = self.script.current
        if step is None:
            return _("This lesson is over.")
        if step.seat is None:
            return _("Read the coach's note, then click Next.")
        if step.seat != YOU:
            return _("Wait a moment: it is the CPU's move.")
        if action != step.action:
            return step.wrong or _("Not this time: follow the highlighted cards.")
        return None

    def refuse(self, message: str) -> None:
        self.refusal = message
        self.refusal_left = REFUSAL_TIME
        self.refusals.append(message)

    def send(self, action) -> bool:
        st = self.session.state
        step = self.script.current
        if st.to_move == self.me:
            refused = self.gate(action)
            if refused:
                self.refuse(refused)
                return False
        elif step is None or step.seat != CPU or action != step.action:
            log.warning("lesson %s: refused the CPU move %r", self.lesson.id, action)
            return False
        if not super().send(action):
            return False
        self.refusal = None
        self.script.advance()
        return True

    def match_over(self) -> None:
        """The round scored and the lesson's one-month match ended: no match results screen
        (it would file the match); the script goes on, then the summary."""

    def next_step(self) -> None:
        if self.waiting_for_next():
            self.refusal = None
            self.script.advance()

    # ------------------------------------------------------------------ pause, end
    def pause(self) -> None:
        self.tip.hide()
        if self.drag is not None:
            self.controls.cancel()
        self.controls.reset_pointer()
        self.app.push(LessonPauseScene(self.app, self))

    def restart(self) -> None:
        self.closed = True
        self.app.open("lesson", self.lesson, entries=self.entries, mode="replace")

    def leave(self) -> None:
        self.closed = True
        self.app.remove(self)

    def next_entry(self):
        """The next lesson that can be played, after this one, or None."""
        ids = [e.id for e in self.entries]
        if self.lesson.id not in ids:
            return None
        for e in self.entries[ids.index(self.lesson.id) + 1:]:
            if e.lesson is not None:
                return e
        return None

    def finish(self) -> None:
        self.finished = True
        mark_done(self.app, self.lesson.id)
        self.app.push(LessonDoneScene(self.app, self))

    def open_next(self) -> None:
        e = self.next_entry()
        if e is None:
            self.leave()
            return
        self.closed = True
        self.app.open("lesson", e.lesson, entries=self.entries, mode="replace")

    # ------------------------------------------------------------------ frames
    def update(self, dt: float) -> None:
        super().update(dt)
        if self.refusal_left > 0:
            self.refusal_left -= dt
            if self.refusal_left <= 0:
                self.refusal = None
        if (self.script.done and not self.finished and not self.tl.busy and self.overlay is None
                and self.shown >= len(self.session.state.events)
                and getattr(self.app, "top", self) is self):
            self.finish()

    def handle(self, event: pygame.event.Event) -> bool:
        b = self.next_button
        if b is not None and self.waiting_for_next() and b.handle(event):
            return True
        used = super().handle(event)
        if used:
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.pause()
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) \
                and self.waiting_for_next():
            self.next_step()
            return True
        return False

    def coach_text(self) -> str:
        """The current step's words; while a move is still being animated, the words said
        before it (the script advances when the move is made, and the next step's text,
        "The CPU played its Boar ...", must not run ahead of the cards)."""
        if self.refusal:
            return self.refusal
        animating = self.tl.busy or self.shown < len(self.session.state.events)
        if animating and self._said is not None:
            return self._said
        self._said = self._step_text()
        return self._said

    def _step_text(self) -> str:
        step = self.script.current
        if step is None:
            return self.lesson.summary
        if step.say:
            return step.say
        if step.seat == CPU:
            return _("The CPU is playing…")
        return _("Follow the highlighted cards.")

    def _coach_layout(self, lay) -> pygame.Rect:
        """The coach panel: across the top of the field area, above the field's cards (over
        the turn log, which the lesson's own words replace)."""
        s = self.s
        pad = theme.px(10, s)
        x0, w, top, room = panel_band(lay, pad)
        head_f = self.assets.font(theme.font_px("tiny", s), True)
        bw = theme.px(150, s)
        text_w = w - 3 * pad - bw
        text = self.coach_text()
        f = self.assets.font(theme.font_px("body", s))
        lines = W.wrap_text(text, f, text_w)
        if head_f.get_linesize() + f.get_linesize() * len(lines) + 2 * pad > room:
            f = self.assets.font(theme.font_px("small", s))
            lines = W.wrap_text(text, f, text_w)[:4]
        h = head_f.get_linesize() + f.get_linesize() * len(lines) + 2 * pad
        box = pygame.Rect(x0, top, w, max(h, theme.px(60, s)))
        key = (box.size, text, bool(self.refusal), self.size, self.script.index)
        if key != self._coach_key:
            img = W.rounded_surface(box.size, theme.px(14, s), (20, 16, 12, 252),
                                    border=theme.LACQUER_LIGHT if self.refusal else theme.GOLD,
                                    border_width=max(2, theme.px(3, s))).copy()
            n, total = self.number()
            head = (_("Lesson {n} of {total} · {title}").format(n=n, total=total, title=self.lesson.title)
                    if n else self.lesson.title)
            if self.refusal:
                head = _("Not that move")
            W.draw_text(img, W.ellipsize(head, head_f, text_w), head_f,
                        theme.LACQUER_LIGHT if self.refusal else theme.GOLD_LIGHT, (2 * pad, pad))
            y = pad + head_f.get_linesize()
            for line in lines:
                W.draw_text(img, line, f, theme.CREAM, (2 * pad, y))
                y += f.get_linesize()
            self._coach_img, self._coach_key = img, key
            self.next_button = W.Button(pygame.Rect(box.right - pad - bw, 0, bw, min(box.h - 2 * pad,
                                                                                   theme.px(52, s))),
                                        _("Next"), self.next_step, style="primary", assets=self.assets,
                                        hotkeys=())
        self.next_button.rect.centery = box.centery
        return box

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        lay = self.lay
        if lay is None or self.overlay is not None or self.finished:
            return
        box = self._coach_layout(lay)
        # an opaque bed first: the turn log and the last-move arrows must not show through
        pygame.draw.rect(surface, (20, 16, 12), box.inflate(-2, -2), border_radius=theme.px(14, self.s))
        surface.blit(self._coach_img, box.topleft)
        if self.waiting_for_next():
            self.next_button.draw(surface)


class LessonPauseScene(MenuScene):
    """Esc, P or Menu during a lesson: resume, start it again, or leave it (nothing is saved)."""

    opaque = False
    intro_time = 0.2

    def __init__(self, app, lesson_scene: LessonScene):
        self.lesson_scene = lesson_scene
        super().__init__(app)

    def layout(self) -> None:
        bw, bh, gap = self.px(420), self.px(74), self.px(18)
        self.layout_button_column([(_("Resume"), self.back, "primary", (pygame.K_ESCAPE,)),
                                   (_("Start the lesson again"), self.restart, "secondary", (pygame.K_r,)),
                                   (_("Back to the lessons"), self.leave, "secondary", ()),
                                   (_("Quit the game"), self.app.quit, "danger", ())], bw, bh, gap)

    def restart(self) -> None:
        self.app.pop()
        self.lesson_scene.restart()

    def leave(self) -> None:
        self.app.pop()
        self.lesson_scene.leave()

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_menu_panel(surface, _("Lesson paused"))


class LessonDoneScene(DialogScene):
    """The end of a lesson: its one-line summary, then the next lesson or the list."""

    title = N_("Lesson complete")       # (DialogScene translates it where drawn)

    def __init__(self, app, lesson_scene: LessonScene):
        self.lesson_scene = lesson_scene
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        pw = min(w - self.px(60), self.px(900))
        bh, gap = self.px(76), self.px(24)
        lesson = self.lesson_scene.lesson
        body = self.font("body")
        self.summary_lines = W.wrap_text(lesson.summary, body, pw - 2 * self.px(56))[:5]
        ph = (self.px(34) + self.font("h2", True).get_linesize() * 2 + self.px(30)
              + body.get_linesize() * len(self.summary_lines) + self.px(36) + bh + self.px(40))
        self.panel = pygame.Rect(0, 0, pw, min(h - self.px(20), ph))
        self.panel.center = (w // 2, h // 2)
        bw = (pw - 2 * self.px(48) - gap) // 2
        nxt = self.lesson_scene.next_entry()
        row = []
        if nxt is not None:
            row.append(self.button((0, 0, bw, bh), _("Next lesson"), self.next_lesson, style="primary",
                                   sublabel=W.ellipsize(nxt.title, self.font("small"), bw - self.px(20)),
                                   hotkeys=(pygame.K_RETURN, pygame.K_n)))
        row.append(self.button((0, 0, bw, bh), _("Back to lessons"), self.back_to_list,
                               style="secondary" if nxt is not None else "primary",
                               hotkeys=(pygame.K_b,) if nxt is not None else (pygame.K_RETURN, pygame.K_b)))
        y = self.panel.bottom - self.px(40) - bh
        self.place_row(row, gap)
        for b in row:
            b.rect.y = y

    def next_lesson(self) -> None:
        self.app.pop()
        self.lesson_scene.open_next()

    def back_to_list(self) -> None:
        self.app.pop()
        self.lesson_scene.leave()

    def back(self) -> None:
        self.back_to_list()

    def draw_body(self, surface: pygame.Surface, y: int) -> None:
        lesson = self.lesson_scene.lesson
        cx = self.panel.centerx
        y += self.px(14)
        r = W.draw_text(surface, lesson.title, self.font("h2", True), theme.CREAM, (cx, y), "midtop")
        y = r.bottom + self.px(16)
        f = self.font("body")
        for line in self.summary_lines:
            W.draw_text(surface, line, f, theme.GOLD_LIGHT, (cx, y), "midtop")
            y += f.get_linesize()
