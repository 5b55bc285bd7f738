"""Match history: every filed match (finished, conceded or abandoned), newest
first; open one to see its ledger, and from there replay any round.

The rows come from the history index (koikoi.match_index): what is indexed
shows at once, and files that are new or changed are read in the background
(``HistoryFeed``, shared with the statistics screen) while the screen draws.
"""

from __future__ import annotations

import bisect
import logging
import time
from datetime import datetime
from pathlib import Path
from typing import Optional

import pygame

from ...i18n import N_, _, language, ngettext
from ...narration import rules_name
from .. import theme
from .. import widgets as W
from ..table import seat_label
from . import MenuScene, TableScreen
from .saved import MONTH_ABBREVIATIONS

log = logging.getLogger("koikoi.history")

COLUMNS = (
    W.Column("date", N_("Date"), 0.22, color=theme.CREAM_DIM),      # titles translated where drawn
    W.Column("opponent", N_("Opponent"), 0.20),
    W.Column("rules", N_("Rules"), 0.17),
    W.Column("rounds", N_("Rounds"), 0.09, "right"),
    W.Column("score", N_("Score"), 0.14, "right", bold=True),
    W.Column("result", N_("Result"), 0.18, "right", bold=True),
)


def nice_date(iso: str) -> str:
    try:
        d = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return _("{day} {month} {year}, {time}").format(day=d.day, month=_(MONTH_ABBREVIATIONS[d.month - 1]),
                                                    year=d.year, time=d.strftime("%H:%M"))


class HistoryFeed:
    """The index's rows for a screen: what is known now, a refresh on a worker
    thread, fresh rows picked up by ``poll`` (only the rows written since the
    last look, at most twice a second while the worker runs, so a rebuild of
    thousands never costs the frame rate), and files the index had to set
    aside reported once."""

    RELOAD_EVERY = 0.5

    def __init__(self, app):
        self.app = app
        self.index = app.storage.history_index
        self.version = self.index.version
        self._retry_filing(app.storage)
        self._full_load()
        self._loaded_at = time.monotonic()
        self.index.frame_start()        # the screen's first frame, before the worker's first step
        self.index.refresh()

    def _retry_filing(self, storage) -> None:
        """A finished match whose filing failed in this run (a read-only or full history
        folder) is filed again now, from its autosave or kept copy; if it still cannot
        be, the toast says it is kept and why. Only after a failure: the start files the
        rest, and reading every kept match here would slow every opening."""
        if storage.filing_problem is None:
            return
        _filed, pending = storage.file_pending()
        if pending:
            self.app.toast(storage.pending_message(), 8.0, "warning")

    def _full_load(self) -> None:
        self._removals = self.index.removals
        rows, self._mark = self.index.snapshot()
        names = [m.path.name for m in rows]          # once a row: 5,000 took 5-10 ms a time
        self._rows = dict(zip(names, rows))
        # oldest first, with their sort keys: fresh rows are put in place, not all sorted again
        self._oldest = rows[::-1]
        self._keys = [(m.finished_at, name) for m, name in zip(self._oldest, reversed(names))]
        self.entries: list = rows

    def _load(self) -> None:
        if self._removals != self.index.removals:    # rows went away: read them all again
            self._full_load()
            return
        fresh, self._mark = self.index.written_since(self._mark)
        if not fresh:
            return
        keys, oldest = self._keys, self._oldest
        for m in fresh:
            name = m.path.name
            before = self._rows.get(name)
            if before is not None:                   # a row read again: its old place goes
                i = bisect.bisect_left(keys, (before.finished_at, name))
                if i < len(keys) and keys[i] == (before.finished_at, name):
                    del keys[i], oldest[i]
            self._rows[name] = m
            key = (m.finished_at, name)
            i = bisect.bisect_left(keys, key)
            keys.insert(i, key)
            oldest.insert(i, m)
        self.entries = oldest[::-1]

    @property
    def busy(self) -> bool:
        return self.index.busy

    def poll(self) -> bool:
        """True when ``entries`` changed. Called first in the screen's frame, which
        ``drawn`` ends: meanwhile the index's worker keeps still."""
        self.index.frame_start()
        problems = self.index.take_problems()
        if problems:
            n = len(problems)
            self.app.toast(ngettext("{n} match file could not be read and was set aside: {problem}",
                                    "{n} match files could not be read and were set aside: {problem}",
                                    n).format(n=n, problem=problems[0]), 8.0, "warning")
        if self.index.version == self.version:
            return False
        if self.busy and self.entries and time.monotonic() - self._loaded_at < self.RELOAD_EVERY:
            return False
        self.version = self.index.version
        self._load()
        self._loaded_at = time.monotonic()
        return True

    def drawn(self) -> None:
        """The screen's frame is drawn: the worker may go on (until the next ``poll``)."""
        self.index.frame_end()

    def progress_text(self) -> Optional[str]:
        done, total = self.index.progress
        if not self.busy or total <= 0:
            return None
        return _("Reading match files… {done} of {total}").format(done=f"{done:,}", total=f"{total:,}")


def result_text(m) -> tuple[str, tuple]:
    """('Won', colour) from the first seat's point of view ('Player 1 won' for friends), or
    online from this computer's player's."""
    if getattr(m, "unfinished", False):
        return _("Unfinished"), theme.CREAM_DIM
    conceded = getattr(m, "conceded", None)
    me = getattr(m, "online_seat", None)
    if me is not None:
        if conceded is not None:
            return ((_("Forfeited"), theme.BAD) if conceded == me else (_("Won (forfeit)"), theme.GOOD))
        if m.winner is None:
            return _("Draw"), theme.CREAM_DIM
        return (_("Won"), theme.GOOD) if m.winner == me else (_("Lost"), theme.BAD)
    if conceded is not None:
        if m.opponent == "Friend":
            return (_("{name} conceded").format(name=seat_label(m.players[conceded])),
                    theme.SEAT_COLORS[1 - conceded])
        return (_("Conceded"), theme.BAD) if conceded == 0 else (_("Won (conceded)"), theme.GOOD)
    if m.winner is None:
        return _("Draw"), theme.CREAM_DIM
    if m.opponent == "Friend":
        return _("{name} won").format(name=seat_label(m.players[m.winner])), theme.SEAT_COLORS[m.winner]
    return (_("Won"), theme.GOOD) if m.winner == 0 else (_("Lost"), theme.BAD)


def open_problem_text(path) -> str:
    """What the toast says of a filed match that cannot be opened (the reason itself,
    English from the storage, goes to the log)."""
    try:
        gone = not Path(path).is_file()
    except (OSError, TypeError, ValueError):
        gone = False
    if gone:
        return _("That match could not be opened: its file is no longer there.")
    return _("That match could not be opened: its file could not be read.")


def history_cells(m) -> dict:
    """The cells of one history row (a match from the index)."""
    res, res_color = result_text(m)
    me = getattr(m, "online_seat", None)
    if me is not None:
        # online: the other player, tagged; the score with this player's points first
        room = getattr(m, "room", "")
        tag = _("online · {room}").format(room=room) if room else _("online")
        opponent = W.Cell(seat_label(m.players[1 - me]), sub=tag, sub_color=theme.GOLD_LIGHT)
        score = f"{m.scores[me]} – {m.scores[1 - me]}"
    else:
        opponent = (seat_label(m.opponent) if m.opponent != "Friend" else
                    _("{first} vs {second}").format(first=seat_label(m.players[0]),
                                                    second=seat_label(m.players[1])))
        score = f"{m.scores[0]} – {m.scores[1]}"
    return {
        "date": nice_date(m.finished_at),
        "opponent": opponent,
        "rules": rules_name(m.rules),
        "rounds": str(m.rounds),
        "score": score,
        "result": W.Cell(res, res_color),
    }


# Seconds a frame spends drawing ahead the rows that arrive (Table.warm) before they are shown:
# a screenful drawn for the first time in one frame made it 10-20 ms longer than the others
WARM_BUDGET = 0.004


class FedScreen:
    """Mixed into a screen that reads a ``HistoryFeed`` (``self.feed``): once the whole screen
    is drawn, its widgets too, the index's worker may go on (a worker let go takes the
    interpreter at each blit)."""

    def draw(self, surface: pygame.Surface) -> None:
        try:
            super().draw(surface)
        finally:
            self.feed.drawn()


class HistoryScene(FedScreen, TableScreen, MenuScene):
    def __init__(self, app):
        self.feed = HistoryFeed(app)
        self.matches = self.feed.entries
        self._arriving: Optional[list] = None      # rows from the feed, drawn ahead before shown
        self._summary_of: Optional[tuple] = None   # (rows, their number, language) of _summary_text
        self._summary_text = ""
        self.table = W.Table(COLUMNS, self.matches, cells=history_cells, on_activate=self.open,
                             assets=app.assets, keys=self.table_keys_free)
        super().__init__(app)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.feed.poll():
            self._arriving = self.feed.entries
        if self._arriving is not None:
            # shown once the rows on screen are drawn ahead, a few a frame: all at once, and in a
            # frame that renders nothing new (the panel keeps its size meanwhile)
            if self.table.warm(self._arriving, WARM_BUDGET):
                had = len(self.matches)
                self.matches, self._arriving = self._arriving, None
                self.table.set_rows(self.matches)
                if had != len(self.matches):
                    self.layout()
        elif self._reading and not self.feed.busy:
            self.layout()                # the panel read at full height: now as tall as its rows

    # Not ``animating`` while the feed reads files: the progress line changes a few times a
    # second, which the idle loop draws (input still gets full-rate frames); 60 redraws a
    # second would take a core's share from the processes reading the files. Only while rows
    # are drawn ahead (a frame or two), so they come without waiting for the idle loop.
    @property
    def animating(self) -> bool:
        return self._arriving is not None or super().animating

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        # while the first files are read, the panel is as tall as the window allows: the rows
        # arriving then do not resize it (a panel's surfaces, made anew at each size, cost a
        # 50-100 ms frame mid-rebuild)
        self._reading = self.feed.busy and not self.matches
        self.layout_table(width=1500, row_h=62, min_rows=10_000 if self._reading else 4)
        self.table.empty_center = (w // 2, self.panel.centery - self.px(40))
        if not self.matches:
            self.new_b = self.button((0, 0, self.px(340), self.px(76)), _("New match"), self.new_match,
                                     style="secondary")
            self.new_b.rect.center = (w // 2, self.panel.centery + self.px(70))
            self.widgets.insert(0, self.new_b)
        self.focus.set(self.widgets)
        self.focus.vertical_keys = False   # Up/Down walk the rows

    # ---------------------------------------------------------- actions
    def new_match(self) -> None:
        self.app.open("newmatch", mode="replace")

    def open(self, i: int) -> None:
        m = self.matches[i]
        try:
            session = self.app.storage.load_finished(m.path)
        except ValueError as exc:
            log.warning("cannot open %s: %s", m.path, exc)       # the file's problem, in English
            self.app.toast(open_problem_text(m.path), 6.0, "warning")
            return
        self.app.open("match_results", session, from_history=True, conceded=getattr(m, "conceded", None))

    # ---------------------------------------------------------- input
    def handle(self, event) -> bool:
        return super().handle(event) or self.table.handle(event)

    # ---------------------------------------------------------- drawing
    def _summary(self) -> str:
        progress = self.feed.progress_text()
        if progress:
            return progress
        # counted once for these rows (and language), not every frame: 5,000 rows took 5-8 ms
        key = (self.matches, len(self.matches), language())
        if self._summary_of is None or self._summary_of[0] is not key[0] or self._summary_of[1:] != key[1:]:
            self._summary_of = key
            self._summary_text = self._count_summary()
        return self._summary_text

    def _count_summary(self) -> str:
        cpu = [m for m in self.matches if m.opponent != "Friend" and not getattr(m, "unfinished", False)
               and getattr(m, "online_seat", None) is None]
        if not self.matches:
            return _("Finished matches are kept here.")
        won = sum(1 for m in cpu if m.winner == 0)
        lost = sum(1 for m in cpu if m.winner == 1)
        drawn = sum(1 for m in cpu if m.winner is None)
        n = len(self.matches)
        text = ngettext("{n} match played", "{n} matches played", n).format(n=n)
        if cpu:
            against = (_("against the CPU: {won} won, {lost} lost, {drawn} drawn") if drawn else
                       _("against the CPU: {won} won, {lost} lost"))
            text += "  ·  " + against.format(won=won, lost=lost, drawn=drawn)
        online = [m for m in self.matches if getattr(m, "online_seat", None) is not None
                  and not getattr(m, "unfinished", False)]
        if online:
            ours = sum(1 for m in online if m.winner == m.online_seat)
            theirs = sum(1 for m in online if m.winner is not None and m.winner != m.online_seat)
            text += "  ·  " + _("online: {won} won, {lost} lost").format(won=ours, lost=theirs)
        return text

    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        y = self.draw_title(surface, _("Match history"), self.px(40))
        W.draw_text(surface, self._summary(), self.font("small"), theme.CREAM_DIM, (w // 2, y + self.px(6)), "midtop")
        W.draw_panel(surface, self.panel, s=self.s)
        if self.feed.busy:
            self.table.empty, self.table.empty_detail = N_("Reading the match history…"), None
        else:
            self.table.empty = N_("No finished matches yet.")
            self.table.empty_detail = N_("Every match you finish is saved here with its full ledger.")
        self.table.draw(surface)
        if self.matches:
            W.draw_text(surface, _("Click a match to see its ledger"), self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(10), self.panel.bottom + self.px(8)), "topright")
