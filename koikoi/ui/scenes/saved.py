"""Unfinished matches: the question before one is replaced, and the matches kept for later.

``UnfinishedMatchScene`` asks, before a new match would take the place of
the saved one: continue it, keep it for later, or abandon it (filed in the
history as unfinished, never counted as won or lost). Escape goes back.

``SavedMatchesScene`` (Title -> Saved matches) lists the matches kept for
later: resume one (the match being played, if any, is kept for later in its
place: nothing is lost by switching) or abandon it, after a confirmation.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import datetime
from typing import Callable

import pygame

from ...engine import Phase
from ...narration import preset_label, rules_name
from .. import theme
from .. import widgets as W
from ...i18n import N_, _, ngettext
from ..table import seat_label
from . import DialogScene, MenuScene, TableScreen

log = logging.getLogger("koikoi.saved")

RELOAD_EVERY = 0.5      # seconds between listings while kept files are read in the background


def match_summary(session) -> str:
    """'Month 3 of 6 · You 12 – 7 CPU (Hard)' for a saved session."""
    st = session.state
    return summary_line((session.seats[0].name, session.seats[1].name), st.round, st.months, st.scores)


def summary_line(players, round_: int, months, scores) -> str:
    """``match_summary`` of a match's parts (a kept match's summary: ``koikoi.saved_index``)."""
    a, b = seat_label(players[0]), seat_label(players[1])
    if months:
        when = _("Month {n} of {total}").format(n=min(round_, months), total=months)
    else:
        when = _("Round {n}").format(n=round_)
    return _("{when} · {first} {first_score} – {second_score} {second}").format(
        when=when, first=a, first_score=scores[0], second_score=scores[1], second=b)


def kept_summary(m) -> str:
    """The summary line of a match kept for later (``koikoi.kept.SavedMatch``)."""
    s = m.summary
    if s is None:
        return _("Reading this match…")
    return summary_line(s.players, s.round, s.months, s.scores)


def continue_session(app, session) -> None:
    """Put ``session`` on the table (the oya-gime draw if no round has started),
    in place of every screen open now."""
    app.watch(session)
    if session.state.phase_name == Phase.OYAGIME:
        app.open("oyagime", session, mode="reset")
    else:
        from .oyagime import open_round  # start-up time: measured 7 ms, kept off the title's start
        while len(app.scenes) > 1:
            app.scenes.pop().exit()
        open_round(app, session, replace=True)


class UnfinishedMatchScene(DialogScene):
    """Continue / keep for later / abandon, over the screen that would start a match."""

    title = N_("You have an unfinished match")
    hint = N_("Esc: back")

    def __init__(self, app, session, *, on_clear: Callable[[], None]):
        self.session = session
        self.on_clear = on_clear          # the saved match is out of the way: start the new one
        super().__init__(app)

    @staticmethod
    def pending(app):
        """The unfinished match in the autosave, if any (a bad file is set aside and said so)."""
        session, warning = app.storage.load_autosave_checked()
        if warning:
            app.toast(warning, 7.0, "warning")
        return session

    def layout(self) -> None:
        w, h = self.size
        self.panel = pygame.Rect(0, 0, min(w - self.px(60), self.px(1000)), self.px(430))
        self.panel.center = (w // 2, h // 2)
        gap = self.px(20)
        bw = min(self.px(290), (self.panel.w - self.px(60) - 2 * gap) // 3)
        bh = self.px(84)
        by = self.panel.bottom - self.px(40) - bh
        total = 3 * bw + 2 * gap
        x = self.panel.centerx - total // 2
        self.cont_b = self.button((x, by, bw, bh), _("Continue it"), self.continue_it, style="primary",
                                  sublabel=_("Play it now"), hotkeys=(pygame.K_c,))
        self.keep_b = self.button((x + bw + gap, by, bw, bh), _("Keep for later"), self.keep_it,
                                  style="secondary", sublabel=_("Start the new one"), hotkeys=(pygame.K_k,))
        self.drop_b = self.button((x + 2 * (bw + gap), by, bw, bh), _("Abandon it"), self.abandon_it,
                                  style="danger", sublabel=_("Filed as unfinished"), hotkeys=(pygame.K_a,))
        self.widgets = [self.cont_b, self.keep_b, self.drop_b]
        self.focus.set(self.widgets)
        self.focus.focus(self.cont_b)

    # ---------------------------------------------------------- actions
    def continue_it(self) -> None:
        continue_session(self.app, self.session)

    def keep_it(self) -> None:
        if not self.app.storage.keep_for_later():
            self.app.toast(_("The saved match could not be kept for later (see the log); nothing was changed."),
                           6.0, "warning")
            return
        self.app.pop()
        self.app.toast(_("The unfinished match is kept for later: Title → Saved matches."), 5.0)
        self.on_clear()

    def abandon_it(self) -> None:
        if self.app.storage.abandon(self.session) is None:
            self.app.toast(_("The saved match could not be filed in the history (see the log); "
                             "nothing was changed."), 6.0, "warning")
            return
        self.app.pop()
        self.on_clear()

    # ---------------------------------------------------------- drawing
    def draw_body(self, surface: pygame.Surface, y: int) -> None:
        cx = self.panel.centerx
        room = self.panel.w - self.px(80)
        font_b = self.font("body", True)
        y += self.px(24)
        line = W.ellipsize(match_summary(self.session), font_b, room)
        W.draw_text(surface, line, font_b, theme.CREAM, (cx, y), "midtop")
        y += font_b.get_linesize() + self.px(4)
        rules = preset_label(self.session.rules.name)
        W.draw_text(surface, W.ellipsize(rules, self.font("small"), room), self.font("small"),
                    theme.CREAM_DIM, (cx, y), "midtop")
        y += self.font("small").get_linesize() + self.px(18)
        font = self.font("body")
        for text in W.wrap_text(_("A new match would take its place. What should happen to it?"), font, room)[:2]:
            W.draw_text(surface, text, font, theme.CREAM, (cx, y), "midtop")
            y += font.get_linesize()


COLUMNS = (
    W.Column("saved", N_("Saved"), 0.20, color=theme.CREAM_DIM),    # titles translated where drawn
    W.Column("match", N_("Match"), 0.44, bold=True),
    W.Column("rules", N_("Rules"), 0.16),
    W.Column("actions", "", 0.20, "right"),     # Resume and Abandon
)


# The months as "%b" writes them in English (a fixed table: not the OS locale's), translated where shown.
MONTH_ABBREVIATIONS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"),
                       N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"))


def nice_time(stamp: float) -> str:
    d = datetime.fromtimestamp(stamp)
    return _("{day} {month}, {time}").format(day=d.day, month=_(MONTH_ABBREVIATIONS[d.month - 1]),
                                             time=d.strftime("%H:%M"))


def saved_cells(m) -> dict:
    """The cells of one match kept for later."""
    return {
        "saved": nice_time(m.saved_at),
        "match": kept_summary(m),
        "rules": rules_name(m.summary.rules) if m.summary is not None else "",
    }


class SavedMatchesScene(TableScreen, MenuScene):
    """The matches kept for later: resume or abandon."""

    def __init__(self, app):
        self.row_buttons: list[tuple[W.Button, W.Button]] = []
        self._load(app)
        columns = [replace(c, draw=self._draw_actions) if c.key == "actions" else c for c in COLUMNS]
        self.table = W.Table(columns, self.matches, cells=saved_cells, on_activate=self.resume, click=False,
                             assets=app.assets, keys=self.table_keys_free, empty=N_("No saved matches."),
                             empty_detail=N_("When a new match would replace an unfinished one, "
                                             "you can keep it here."))
        super().__init__(app)

    def _load(self, app) -> None:
        self._version = app.storage.kept_version
        self._loaded_at = time.monotonic()
        self.matches, problems = app.storage.list_saved()
        for text in problems[:3]:
            app.toast(text, 7.0, "warning")

    def _reload(self) -> None:
        """Read the kept matches again and lay the list out anew."""
        self._load(self.app)
        self.table.set_rows(self.matches)
        self.layout()

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        self.layout_table(width=1400, row_h=74, min_rows=3)
        self.table.empty_center = (self.size[0] // 2, self.panel.centery - self.px(20))
        self.focus.set(self.widgets)
        self.focus.vertical_keys = False   # Up/Down walk the rows
        self._place_row_buttons()

    def _place_row_buttons(self) -> None:
        """Resume / Abandon for each row, where the list is scrolled now (moved as it scrolls)."""
        self.row_buttons = []
        for i in range(len(self.matches)):
            cell = self.table.cell_rect(i, "actions")
            gap = self.px(10)
            bw = (cell.w - gap) // 2
            bh = self.row_h - self.px(18)
            y = cell.y + self.px(9)
            resume = self.button((cell.right - 2 * bw - gap, y, bw, bh), _("Resume"),
                                 lambda i=i: self.resume(i), style="primary")
            drop = self.button((cell.right - bw, y, bw, bh), _("Abandon"), lambda i=i: self.abandon(i),
                               style="danger")
            self.row_buttons.append((resume, drop))

    # ---------------------------------------------------------- actions
    def resume(self, i: int) -> None:
        m = self.matches[i]
        if m.summary is None:             # still being read: its row fills in shortly
            return
        session = self.app.storage.resume_saved(m.match_id)
        if session is None:
            self.app.toast(_("That match could not be resumed (see the log)."), 6.0, "warning")
            self._reload()
            return
        continue_session(self.app, session)

    def abandon(self, i: int) -> None:
        m = self.matches[i]
        if m.summary is None:
            return
        self.app.open(
            "confirm", _("Abandon this match?"),
            _("{match}. It is filed in the match history as unfinished and never counted "
              "as won or lost.").format(match=kept_summary(m)), _("Abandon"), lambda: self._do_abandon(m))

    def _do_abandon(self, m) -> None:
        session = self.app.storage.load_saved(m.match_id)
        if session is None:
            self.app.toast(_("That match could not be read (see the log); nothing was changed."), 6.0, "warning")
            self._reload()
            return
        if self.app.storage.abandon(session) is None:
            self.app.toast(_("The match could not be filed in the history (see the log); it is still kept."),
                           6.0, "warning")
        self._reload()

    # ---------------------------------------------------------- input
    def _visible(self, rect: pygame.Rect) -> bool:
        return self.table.viewport.contains(rect)

    def handle(self, event) -> bool:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            for pair in self.row_buttons:
                for b in pair:
                    if self._visible(b.rect) and b.handle(event):
                        return True
        if super().handle(event):
            return True
        if (event.type == pygame.KEYDOWN and event.key == pygame.K_DELETE and self.key_row is not None
                and self.table_keys_free()):
            self.abandon(self.key_row)
            return True
        return self.table.handle(event)

    def update(self, dt: float) -> None:
        before = self.scroller.offset
        super().update(dt)
        now = time.monotonic()
        if self.app.storage.kept_version != self._version and now - self._loaded_at >= RELOAD_EVERY:
            self._reload()                # kept files read in the background: their rows fill in
        elif self.scroller.offset != before:
            self._place_row_buttons()

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        w, _h = self.size
        n = len(self.matches)
        sub = (ngettext("{n} unfinished match kept for later", "{n} unfinished matches kept for later",
                        n).format(n=n) if n else _("Matches you keep for later wait here."))
        y = self.draw_title(surface, _("Saved matches"), self.px(40))
        W.draw_text(surface, sub, self.font("small"), theme.CREAM_DIM, (w // 2, y + self.px(6)), "midtop")
        W.draw_panel(surface, self.panel, s=self.s)
        self.table.draw(surface)

    def _draw_actions(self, surface: pygame.Surface, cell: pygame.Rect, i: int, hot: bool) -> None:
        for b in self.row_buttons[i]:
            b.draw(surface)


__all__ = ["UnfinishedMatchScene", "SavedMatchesScene", "continue_session", "match_summary", "summary_line",
           "kept_summary", "seat_label"]
