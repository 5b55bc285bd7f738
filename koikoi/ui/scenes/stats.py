"""Statistics: folded from the finished matches of the history (``koikoi.stats``).

Tiles for the totals (matches and wins, points per round, the best round,
Koi-Koi calls and how often they paid off), a table by opponent and rule set,
and the yaku made most often, drawn with their cards. With no finished match
yet, an empty state offers a new match.
"""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ... import stats as S
from ...ai import LEVEL_LABELS, LEVEL_ORDER
from ...engine import PRESET_LABELS
from ...narration import rules_name
from ...engine import yaku as Y
from .. import theme
from .. import widgets as W
from ..hints import yaku_label
from ...i18n import N_, _, ngettext
from . import MenuScene, TableScreen
from .history import FedScreen, HistoryFeed

log = logging.getLogger("koikoi.stats_scene")

# the CPU levels as declared once in koikoi.ai, then the two kinds of opponent that are not levels
# (English: translated where shown, in ``table_rows``)
OPPONENT_LABELS = {**LEVEL_LABELS, "cpu": N_("CPU"), "friend": N_("Friend")}
OPPONENT_ORDER = LEVEL_ORDER + ("cpu", "friend")

TABLE_COLUMNS = (
    W.Column("opponent", N_("Opponent"), 0.22),      # titles translated where drawn
    W.Column("rules", N_("Rules"), 0.19),
    W.Column("played", N_("Played"), 0.10, "right"),
    W.Column("won", N_("Won"), 0.08, "right", bold=True, color=theme.GOOD),
    W.Column("drawn", N_("Drawn"), 0.09, "right"),
    W.Column("lost", N_("Lost"), 0.08, "right"),
    W.Column("rate", N_("Win %"), 0.10, "right", bold=True),
    W.Column("ppr", N_("Per round"), 0.14, "right", bold=True),
)


def percent(x: Optional[float]) -> str:
    return "—" if x is None else _("{percent}%").format(percent=round(100 * x))


def signed(x: Optional[float]) -> str:
    return "—" if x is None else f"{x:+.1f}"


def table_rows(stats: "S.Stats") -> list[dict]:
    """One dict of cell texts per (opponent, rule set), by opponent then rules."""
    order = {o: i for i, o in enumerate(OPPONENT_ORDER)}
    rules_order = {n: i for i, n in enumerate(PRESET_LABELS)}
    keys = sorted(stats.by, key=lambda k: (order.get(k[0], 99), rules_order.get(k[1], 99), k))
    out = []
    for opp, rules in keys:
        rec = stats.by[(opp, rules)]
        out.append({
            "opponent": _(OPPONENT_LABELS[opp]) if opp in OPPONENT_LABELS else opp.title(),
            "rules": rules_name(rules),
            "played": str(rec.matches), "won": str(rec.wins), "drawn": str(rec.draws),
            "lost": str(rec.losses), "rate": percent(rec.win_rate), "ppr": signed(rec.points_per_round),
        })
    return out


def row_cells(row: dict) -> dict:
    """A table row's cells, coloured: losses in red (but none), the points per round gold or red."""
    lost, ppr = row["lost"], row["ppr"]
    return {**row, "lost": W.Cell(lost, theme.BAD if lost != "0" else theme.CREAM_DIM),
            "ppr": W.Cell(ppr, theme.GOLD_LIGHT if not ppr.startswith("-") else theme.BAD)}


# The last rows folded and their statistics: opening the screen again on the same rows takes
# them (folding 5,000 rows took 20-30 ms of the opening frame). Read only by the screens.
_FOLDED: list = [None, None]


def folded(feed, entries: list) -> "S.Stats":
    """``S.from_entries(entries)``, the feed's rows, or the statistics last folded from the
    same rows (the same index at the same version, as many rows, the same newest one)."""
    index = feed.index
    key = (id(index), feed.version, index.removals, len(entries), id(entries[0]) if entries else None)
    if _FOLDED[0] != key or (entries and _FOLDED[1][1] is not entries[0]):
        _FOLDED[:] = [key, (S.from_entries(entries), entries[0] if entries else None)]
    return _FOLDED[1][0]


class StatsScene(FedScreen, TableScreen, MenuScene):
    def __init__(self, app):
        self.feed = HistoryFeed(app)
        self.table = W.Table(TABLE_COLUMNS, cells=row_cells, assets=app.assets, hoverable=False,
                             selectable=False, click=False, cell_pad=6, rule_gap=8)
        self._fold()
        super().__init__(app)

    def _fold(self) -> None:
        entries = self.feed.entries
        self.stats = folded(self.feed, entries)
        self.conceded = sum(1 for m in entries if m.conceded is not None)
        self.unfinished = sum(1 for m in entries if m.unfinished)
        self.rows = table_rows(self.stats)
        self.table.set_rows(self.rows)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.feed.poll():
            was_empty = self.empty
            self._fold()
            if was_empty != self.empty:
                self.layout()

    # Not ``animating`` while the feed reads files: the progress line changes a few times a
    # second, which the idle loop draws (input still gets full-rate frames); 60 redraws a
    # second would take a core's share from the processes reading the files.

    @property
    def empty(self) -> bool:
        return self.stats.overall.matches == 0

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        pad = self.px(48)
        self.content = pygame.Rect(0, 0, min(w - 2 * pad, self.px(1680)), 0)
        self.content.centerx = w // 2
        self.content.y = self.px(196)
        bh = self.px(76)
        by = h - self.px(36) - bh
        self.content.h = by - self.px(36) - self.content.y
        self.tiles_h = self.px(150)
        below = self.content.y + self.tiles_h + self.px(28)
        left_w = int(self.content.w * 0.58)
        self.table_panel = pygame.Rect(self.content.x, below, left_w, self.content.bottom - below)
        self.yaku_panel = pygame.Rect(self.table_panel.right + self.px(28), below,
                                      self.content.right - self.table_panel.right - self.px(28),
                                      self.content.bottom - below)
        self.back_b = self.button((0, by, self.px(300), bh), _("Back"), self.back, style="primary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        self.back_b.rect.centerx = w // 2
        self.widgets = [self.back_b]
        if self.empty:
            self.panel = pygame.Rect(0, 0, min(w - 2 * pad, self.px(1100)), self.px(470))
            self.panel.center = (w // 2, (self.content.y + by) // 2)
            self.new_b = self.button((0, 0, self.px(340), bh), _("New match"), self.new_match, style="secondary")
            self.new_b.rect.midbottom = (w // 2, self.panel.bottom - self.px(34))
            self.widgets.insert(0, self.new_b)
        # the table scrolls when there are many pairs
        p = self.table_panel
        inner = p.inflate(-2 * self.px(30), 0)
        top = p.y + self.px(78)
        rows_y = p.y + self.px(70) + self.px(44)
        self.table.place((inner.x, top, inner.w, p.bottom - self.px(16) - top), s=self.s,
                         row_h=self.px(56), header_h=rows_y - top)
        self.focus.set(self.widgets)

    def new_match(self) -> None:
        self.app.open("newmatch", mode="replace")

    # ---------------------------------------------------------- scene
    def handle(self, event) -> bool:
        return super().handle(event) or self.table.handle(event)

    # ---------------------------------------------------------- drawing
    def tiles(self) -> list[tuple[str, str, str]]:
        """(label, big value, small line) of the summary tiles."""
        o = self.stats.overall
        calls = o.koikoi_calls
        return [
            (_("Matches"), str(o.matches),
             _("{won} won · {drawn} drawn · {lost} lost").format(won=o.wins, drawn=o.draws, lost=o.losses)),
            (_("Win rate"), percent(o.win_rate),
             _("{won} of {n} rounds won").format(won=o.rounds_won, n=o.rounds)),
            (_("Points per round"), signed(o.points_per_round),
             _("{won} won · {lost} lost").format(won=o.points_for, lost=o.points_against)),
            (_("Best round"), str(o.best_round) if o.best_round else "—", _("points in one round")),
            (_("Koi-Koi calls"), str(calls),
             _("{n} paid off ({percent})").format(n=o.koikoi_paid, percent=percent(o.koikoi_success))
             if calls else _("none called yet")),
        ]

    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        y = self.draw_title(surface, _("Statistics"), self.px(36))
        progress = self.feed.progress_text()
        if self.empty and progress:
            W.draw_text(surface, progress, self.font("small"), theme.CREAM_DIM, (w // 2, y + self.px(4)), "midtop")
            return
        if self.empty:
            W.draw_text(surface, _("From every match you finish"), self.font("small"), theme.CREAM_DIM,
                        (w // 2, y + self.px(4)), "midtop")
            W.draw_panel(surface, self.panel, s=self.s)
            cx = self.panel.centerx
            for j, cid in enumerate(("01-B", "03-B", "08-B")):
                img = self.app.assets.card(cid, self.px(120), month_number=False)
                W.draw_card(surface, img, (cx + (j - 1) * self.px(70), self.panel.y + self.px(110)),
                            anchor="center", angle=(1 - j) * 10)
            W.draw_text(surface, _("No finished matches yet"), self.font("h3", True), theme.CREAM,
                        (cx, self.panel.y + self.px(210)), "midtop")
            W.draw_text(surface, _("Win rates, points per round, your favourite yaku and how your Koi-Koi calls "
                          "pay off will appear here."), self.font("small"), theme.CREAM_DIM,
                        (cx, self.panel.y + self.px(262)), "midtop")
            return
        o = self.stats.overall
        sub = ngettext("Your results in {n} finished match", "Your results in {n} finished matches",
                       o.matches).format(n=o.matches)
        left_out = self.conceded + self.unfinished
        if left_out:
            sub += "  ·  " + ngettext("{n} conceded or unfinished match is not counted",
                                      "{n} conceded or unfinished matches are not counted",
                                      left_out).format(n=left_out)
        if progress:
            sub = progress
        W.draw_text(surface, sub, self.font("small"), theme.CREAM_DIM, (w // 2, y + self.px(4)), "midtop")
        self._draw_tiles(surface)
        self._draw_table(surface)
        self._draw_yaku(surface)

    def _draw_tiles(self, surface) -> None:
        tiles = self.tiles()
        gap = self.px(20)
        n = len(tiles)
        tw = (self.content.w - gap * (n - 1)) // n
        for i, (label, big, small) in enumerate(tiles):
            r = pygame.Rect(self.content.x + i * (tw + gap), self.content.y, tw, self.tiles_h)
            W.draw_panel(surface, r, s=self.s)
            W.draw_text(surface, label.upper(), self.font("tiny", True), theme.GOLD, (r.centerx, r.y + self.px(16)),
                        "midtop", shadow=False)
            font = W.fit_font(self.app.assets, big, tw - self.px(20), theme.font_px("h1", self.s), bold=True)
            W.draw_text(surface, big, font, theme.GOLD_LIGHT, (r.centerx, r.centery + self.px(4)), "center")
            tf = self.font("tiny")
            W.draw_text(surface, W.ellipsize(small, tf, tw - self.px(16)), tf, theme.CREAM_DIM,
                        (r.centerx, r.bottom - self.px(14)), "midbottom", shadow=False)

    def _draw_table(self, surface) -> None:
        p = self.table_panel
        W.draw_panel(surface, p, s=self.s)
        W.draw_text(surface, _("By opponent and rules"), self.font("h3", True), theme.GOLD_LIGHT,
                    (p.x + self.px(30), p.y + self.px(20)))
        self.table.draw(surface)

    def _draw_yaku(self, surface) -> None:
        p = self.yaku_panel
        W.draw_panel(surface, p, s=self.s)
        W.draw_text(surface, _("Yaku you made most"), self.font("h3", True), theme.GOLD_LIGHT,
                    (p.x + self.px(30), p.y + self.px(20)))
        common = self.stats.overall.yaku.most_common()
        common = [(n, c) for n, c in common if n in Y.CAPTURE_ORDER]
        y = p.y + self.px(80)
        if not common:
            W.draw_text(surface, _("No yaku scored yet."), self.font("small"), theme.CREAM_DIM,
                        (p.centerx, p.centery), "center")
            return
        style = self.app.settings.get("name_style", "both")
        row_h = self.px(78)
        n = max(1, min(len(common), (p.bottom - self.px(16) - y) // row_h))
        top = common[0][1]
        ch = self.px(64)
        cw = int(ch * 216 / 348)
        small, bold = self.font("small"), self.font("small", True)
        numbers = bool(self.app.settings.get("month_numbers", True))
        for i, (name, count) in enumerate(common[:n]):
            ry = y + i * row_h
            ids = Y.info(name).example[:3]
            for j, cid in enumerate(ids):
                W.draw_card(surface, self.app.assets.card(cid, ch, month_number=numbers),
                            (p.x + self.px(30) + j * int(cw * 0.6), ry + (row_h - ch) // 2), shadow=False)
            tx = p.x + self.px(30) + int(cw * 0.6) * 2 + cw + self.px(20)
            bar_w = p.right - self.px(110) - tx
            W.draw_text(surface, W.ellipsize(yaku_label(name, style), bold, p.right - self.px(40) - tx), bold,
                        theme.CREAM, (tx, ry + self.px(12)), shadow=False)
            bar = pygame.Rect(tx, ry + self.px(46), max(self.px(8), int(bar_w * count / top)), self.px(12))
            track = pygame.Rect(tx, bar.y, bar_w, bar.h)
            surface.blit(W.rounded_surface(track.size, track.h // 2, (255, 255, 255, 20)), track.topleft)
            surface.blit(W.rounded_surface(bar.size, bar.h // 2, theme.GOLD, bottom=theme.GOLD_DARK), bar.topleft)
            W.draw_text(surface, _("{count}×").format(count=count), bold, theme.GOLD_LIGHT,
                        (p.right - self.px(30), bar.centery),
                        "midright", shadow=False)
        del small


__all__ = ["StatsScene", "table_rows", "percent", "signed"]
