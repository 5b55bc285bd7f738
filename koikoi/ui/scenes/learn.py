"""Learn (Title -> Learn): the list of lessons.

Each lesson is a button (two columns of them): completed ones carry a tick, the next
one to take is the highlighted (primary) button, and a lesson file that cannot be used
is shown disabled with the reason. Clicking one opens it (``LessonScene``). The list is
read again each time the screen is shown, so a lesson just completed gets its tick.

Under the lessons, "Puzzles from your matches (N)" opens the puzzles made from the clear
mistakes of the player's reviewed matches (``koikoi.review.puzzles``, read from the history
folder each time the screen is shown); with none it is disabled and says how to get some.
"""

from __future__ import annotations

import logging

import pygame

from ... import lessons
from .. import theme
from .. import widgets as W
from ...i18n import _, pgettext
from ...review.puzzles import from_history
from . import MenuScene

log = logging.getLogger("koikoi.learn")


def done_ids(settings) -> set:
    """The ids of the lessons completed, from the settings (anything malformed: none)."""
    try:
        done = settings.get("lessons", {}).get("done", [])
        return {d for d in done if isinstance(d, str)}
    except AttributeError:
        return set()


class LearnScene(MenuScene):
    def __init__(self, app):
        self.entries = self._load()
        self.lesson_buttons: list = []      # (button, entry), in order
        self.puzzles = self._load_puzzles(app)
        self.puzzles_b = None
        self._fresh = True                  # the first enter() follows at once: nothing read twice
        super().__init__(app)

    @staticmethod
    def _load_puzzles(app) -> list:
        """The puzzles of the player's reviewed matches (none if the history cannot be read)."""
        storage = getattr(app, "storage", None)
        if storage is None:
            return []
        try:
            return from_history(storage)
        except Exception:   # puzzles are extra: the lessons still open without them
            log.exception("could not make the puzzles")
            return []

    @staticmethod
    def _load() -> list:
        try:
            return lessons.load_all()
        except Exception:   # never: load_all reports each file; the screen still opens
            log.exception("could not list the lessons")
            return []

    def enter(self) -> None:
        if not self._fresh:     # back from a lesson or the puzzles: read and lay out again
            self.entries = self._load()
            self.puzzles = self._load_puzzles(self.app)
            self.layout()
        self._fresh = False     # (the first enter follows __init__, which did both)
        super().enter()

    def next_up(self):
        """The first playable lesson not completed yet, or None (all done)."""
        done = done_ids(getattr(self.app, "settings", {}))
        for e in self.entries:
            if e.lesson is not None and e.id not in done:
                return e
        return None

    def layout(self) -> None:
        w, h = self.size
        done = done_ids(getattr(self.app, "settings", {}))
        nxt = self.next_up()
        n = len(self.entries)
        cols = 2 if n > 4 else 1
        rows = max(1, (n + cols - 1) // cols)
        gap = self.px(16)
        # under the title, its divider and the subtitle (as draw_title lays them out)
        top = (self.px(44) + self.font("h1", True).get_linesize() + self.px(8 + 14)
               + self.font("small").get_linesize() + self.px(22))
        back_h = self.px(70)
        room = h - top - back_h - self.px(70)
        # one row more for the puzzles' button under the lessons
        bh = max(self.px(56), min(self.px(92), (room - rows * gap - self.px(10)) // (rows + 1)))
        bw = min(self.px(820), (w - self.px(80) - (cols - 1) * gap) // cols)
        x0 = w // 2 - (cols * bw + (cols - 1) * gap) // 2
        self.widgets = []
        self.lesson_buttons = []
        small = self.font("small")
        for i, e in enumerate(self.entries):
            c, r = i % cols, i // cols
            if cols == 2:      # down the left column, then the right
                c, r = i // rows, i % rows
            rect = (x0 + c * (bw + gap), top + r * (bh + gap), bw, bh)
            if e.lesson is None:
                sub = _("Unavailable: {reason}").format(reason=e.problem or "?")
            elif e.id in done:
                sub = _("Done · {intro}").format(intro=e.lesson.intro) if e.lesson.intro else _("Done")
            elif e is nxt:
                sub = _("Next · {intro}").format(intro=e.lesson.intro) if e.lesson.intro \
                    else pgettext("lesson list", "Next")
            else:
                sub = e.lesson.intro or ""
            label = _("{n}. {title}").format(n=i + 1, title=e.title)
            # centred text clear of the tick at the right end (and as far from the left)
            room = bw - 2 * (2 * self._tick_r(bh) + self.px(24))
            b = self.button(rect, W.ellipsize(label, self.font("body", True), room),
                            (lambda e=e: self.start(e)), font_size=theme.font_px("body", self.s), style="primary" if e is nxt else "secondary",
                            sublabel=W.ellipsize(sub, small, room) if sub else None,
                            enabled=e.lesson is not None)
            self.widgets.append(b)
            self.lesson_buttons.append((b, e))
        py = top + rows * (bh + gap) + self.px(10)
        pw = min(self.px(820), w - self.px(80))
        n_puzzles = len(self.puzzles)
        self.puzzles_b = self.button(
            (w // 2 - pw // 2, py, pw, bh), _("Puzzles from your matches ({n})").format(n=n_puzzles),
            self.open_puzzles, font_size=theme.font_px("body", self.s),
            style="primary" if n_puzzles and nxt is None else "secondary",
            sublabel=W.ellipsize(_("Find the best move where one of your matches went wrong") if n_puzzles
                                 else _("Review a finished match to make puzzles from its mistakes"),
                                 small, pw - self.px(40)),
            enabled=bool(n_puzzles))
        self.widgets.append(self.puzzles_b)
        by = min(h - back_h - self.px(24), py + bh + gap + self.px(14))
        self.back_b = self.button((0, by, self.px(300), back_h), _("Back"), self.back, style="secondary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        self.back_b.rect.centerx = w // 2
        self.widgets.append(self.back_b)
        self.focus.set(self.widgets)

    def button_for(self, lesson_id: str):
        for b, e in self.lesson_buttons:
            if e.id == lesson_id:
                return b
        return None

    def start(self, entry) -> None:
        if entry.lesson is None:
            self.app.toast(_("This lesson cannot be played: {reason}").format(reason=entry.problem), 5.0,
                           "warning")
            return
        self.app.open("lesson", entry.lesson, entries=self.entries)

    def open_puzzles(self) -> None:
        if not self.puzzles:
            self.app.toast(_("Review a finished match to make puzzles from its mistakes"), 5.0, "info")
            return
        self.app.open("puzzle", self.puzzles)

    def draw_content(self, surface: pygame.Surface) -> None:
        done = done_ids(getattr(self.app, "settings", {}))
        y = self.draw_title(surface, _("Learn to play"), self.px(44),
                            subtitle=_("{done} of {total} lessons done · each one is a short deal on the real table")
                            .format(done=sum(1 for e in self.entries if e.id in done and e.lesson is not None),
                                    total=len(self.entries)))
        if not self.entries:
            W.draw_text(surface, _("No lessons were found in this copy of the game."), self.font("body"),
                        theme.CREAM_DIM, (self.size[0] // 2, y + self.px(60)), "midtop")

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        done = done_ids(getattr(self.app, "settings", {}))
        for b, e in self.lesson_buttons:
            if e.id in done and e.lesson is not None:
                self._tick(surface, b.rect)

    def _tick_r(self, h: int) -> int:
        return max(8, min(h // 3, self.px(20)))

    def _tick(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """A gold tick in a disc at the right end of a completed lesson's button."""
        r = self._tick_r(rect.h)
        c = (rect.right - r - self.px(14), rect.centery)
        pygame.draw.circle(surface, theme.GOOD, c, r)
        pygame.draw.circle(surface, theme.INK, c, r, max(1, self.px(2)))
        pts = [(c[0] - r * 0.5, c[1] + r * 0.02), (c[0] - r * 0.12, c[1] + r * 0.4), (c[0] + r * 0.52, c[1] - r * 0.38)]
        pygame.draw.lines(surface, theme.INK, False, [(int(x), int(y)) for x, y in pts], max(2, r // 4))
