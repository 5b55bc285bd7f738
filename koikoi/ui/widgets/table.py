"""``Table``: the scrolling table of the history, ledger, statistics and
saved-matches screens.

    table = W.Table([W.Column("date", "Date", 0.3), W.Column("score", "Score", 0.2, "right", bold=True)],
                    matches, cells=lambda m: {"date": m.date, "score": W.Cell(m.score, theme.GOOD)},
                    on_activate=open_match, assets=app.assets)
    table.place(rect, s=scale, row_h=62, header_h=36)   # in the screen's layout
    table.handle(event)                                 # in Scene.handle
    table.draw(surface)                                 # in Scene.draw

A header line of column titles (gold, upper case) with a gold rule under it,
then the rows in a scrolling viewport: every other row on a faint band, the
row under the mouse or picked with the arrow keys lit. Each cell's text is cut
with an ellipsis to its column, so nothing overflows. With no rows, a message
(and a smaller line of detail) stands in the middle instead.

Input: the wheel, PageUp / PageDown / Space, Home / End and the scrollbar
scroll (``Scroller``); Up / Down pick a row (``selected``, scrolled into view)
and Enter activates it, as does a click on a row (``on_activate(index)``, or
the column's own ``on_click(index)``).

Rows a screen is about to show can be drawn ahead (``warm``): the text of each
cell is rendered the first time a row is drawn, and a screenful of new rows took
a frame 10-20 ms longer than the others; warmed a few at a time, within a budget
each frame, they then appear at once in a frame that renders nothing new.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence, Union

import pygame

from .. import theme
from .core import Widget, _is_click_up
from .draw import draw_divider, rounded_surface
from .scroll import Scroller
from .text import caps, draw_text, ellipsize, fit_items, note_cut
from ...i18n import N_, _

_ALIGNS = ("left", "right", "center")


@dataclass(frozen=True)
class Column:
    """One column of a ``Table``.

    ``share``: its part of the width left after the ``fixed`` columns;
    ``fixed``: a width in 1080p design pixels instead (scaled like the table).
    ``align``: "left", "right" or "center", for the title and the cells.
    ``bold`` / ``color``: how its cells are drawn unless a ``Cell`` says
    otherwise. ``draw(surface, cell_rect, index, hot)`` draws a cell itself
    instead of text (``hot``: the mouse is over that cell), on top of every
    row. ``on_click(index)`` runs on a click in this column instead of the
    table's ``on_activate``. ``title`` is English (``N_``-marked where the
    column is declared) and translated where it is drawn, as are the table's
    ``empty`` and ``empty_detail``; a ``literal`` title (a player's name) is
    drawn as written.
    """

    key: str
    title: str = ""
    share: float = 1.0
    align: str = "left"
    fixed: Optional[float] = None
    bold: bool = False
    color: Any = theme.CREAM
    title_color: Any = theme.GOLD
    draw: Optional[Callable[[pygame.Surface, pygame.Rect, int, bool], Any]] = None
    on_click: Optional[Callable[[int], Any]] = None
    literal: bool = False

    def __post_init__(self):
        if self.align not in _ALIGNS:
            raise ValueError(f"unknown column alignment {self.align!r}")


@dataclass(frozen=True)
class Cell:
    """The text of one cell, with its own colour or weight (None: the column's)
    and an optional second, smaller line ``sub`` under it. A cell that lists ``items``
    (``text`` being them joined by ``sep``) shows as many whole ones as fit, then "+N more";
    the pointer on it shows them all."""

    text: str
    color: Any = None
    bold: Optional[bool] = None
    sub: str = ""
    sub_color: Any = theme.CREAM_DIM
    items: tuple = ()
    sep: str = ", "


ColumnSpec = Union[Column, tuple]


class Table(Widget):
    """Columns over rows, scrolled in a viewport under a header line.

    ``columns``: ``Column`` values or ``(key, title, share, align)`` tuples.
    ``rows``: any sequence; ``cells(row)`` gives a row's cells as a mapping
    from column key to a ``str`` or a ``Cell`` (default: the row is that
    mapping). Only the visible rows are asked for their cells.

    Geometry (``place``): ``rect`` holds the header line (``header_h`` tall,
    titles at its top) and the rows' viewport under it, ``row_h`` tall each;
    the row bands reach a little past the sides and the scrollbar stands right
    of the viewport. ``cell_pad`` (from a right-aligned cell's right edge) and
    ``rule_gap`` (the rule above the rows) are design pixels scaled by ``s``.

    ``hoverable``: light the row under the mouse; ``selectable``: Up / Down
    pick a row and Enter activates it, while ``keys`` (a bool, or a callable
    asked each time: e.g. "no button has the focus") says so; ``click``: a
    click on a row activates it. Up / Down go to the scroller otherwise.
    ``empty`` / ``empty_detail``: the message with no rows, centred on
    ``empty_center`` (default: the viewport's centre).
    """

    focusable = False      # Tab moves between the screen's buttons; Up / Down walk the rows

    def __init__(self, columns: Sequence[ColumnSpec], rows: Sequence = (), *,
                 cells: Optional[Callable[[Any], Mapping[str, Union[str, Cell]]]] = None,
                 on_activate: Optional[Callable[[int], Any]] = None, assets=None,
                 rect=(0, 0, 1, 1), s: float = 1.0, row_h: int = 48, header_h: int = 36,
                 hoverable: bool = True, selectable: bool = True, click: bool = True,
                 keys: Union[bool, Callable[[], bool]] = True, zebra: bool = True,
                 empty: str = N_("Nothing here yet."), empty_detail: Optional[str] = None,
                 cell_pad: float = 8, rule_gap: float = 6):
        super().__init__(rect, assets=assets)
        self.columns = [c if isinstance(c, Column) else Column(*c) for c in columns]
        self.cells = cells if cells is not None else (lambda row: row)
        self.on_activate = on_activate
        self.hoverable, self.selectable, self.click, self.keys = hoverable, selectable, click, keys
        self.zebra = zebra
        self.empty, self.empty_detail = empty, empty_detail
        self.empty_center: Optional[tuple[int, int]] = None
        self.cell_pad, self.rule_gap = cell_pad, rule_gap
        self.scroller = Scroller(line=row_h)
        self.hover: Optional[int] = None          # the row under the mouse
        self.hover_key: Optional[str] = None      # and the column
        self.selected: Optional[int] = None       # the row picked with the keys
        self.rows: Sequence = ()
        self._scratch: Optional[pygame.Surface] = None
        self._warming = False            # drawing ahead (warm): nothing is on screen, nothing noted
        self._warmed: dict = {}          # row index -> the row warmed there (while the layout holds)
        self._warm_header = False
        self.place(rect, s=s, row_h=row_h, header_h=header_h)
        self.set_rows(rows)

    # ---------------------------------------------------------- geometry
    def _px(self, n: float) -> int:
        return theme.px(n, self.s)

    def place(self, rect, *, s: Optional[float] = None, row_h: Optional[int] = None,
              header_h: Optional[int] = None) -> None:
        """Lay the table out in ``rect`` (window pixels) at UI scale ``s``."""
        self.rect = pygame.Rect(rect)
        if s is not None:
            self.s = s
        if row_h is not None:
            self.row_h = max(1, int(row_h))
        if header_h is not None:
            self.header_h = int(header_h)
        self.scroller.viewport = self.viewport
        self.scroller.line = self.row_h
        self.scroller.content_height = len(self.rows) * self.row_h
        self.cols = self._layout_columns()
        self._warmed, self._warm_header = {}, False        # other widths: other cuts

    @property
    def viewport(self) -> pygame.Rect:
        """Where the rows scroll: the rect below the header line."""
        r = self.rect
        return pygame.Rect(r.x, r.y + self.header_h, r.w, max(0, r.h - self.header_h))

    def _layout_columns(self) -> list:
        """``[(key, title, x, width, align), ...]`` across the viewport (as
        ``layout_columns``): fixed widths first, the rest by share."""
        vp = self.viewport
        fixed = sum(self._px(c.fixed) for c in self.columns if c.fixed is not None)
        room = vp.w - fixed
        total = sum(c.share for c in self.columns if c.fixed is None) or 1
        x = vp.x
        out = []
        for c in self.columns:
            cw = self._px(c.fixed) if c.fixed is not None else int(room * c.share / total)
            out.append((c.key, c.title, x, cw, c.align))
            x += cw
        return out

    def _band(self, y: int) -> pygame.Rect:
        """The row band of a row whose top is at ``y``."""
        vp = self.viewport
        return pygame.Rect(vp.x - self._px(10), y + 2, vp.w + self._px(20), self.row_h - 4)

    def row_y(self, i: int) -> int:
        """The top of row ``i`` on screen (as scrolled now)."""
        return self.viewport.y + i * self.row_h - int(self.scroller.offset)

    def cell_rect(self, i: int, key: str) -> pygame.Rect:
        """Row ``i``'s cell in column ``key`` on screen (as scrolled now)."""
        for k, _title, x, cw, _align in self.cols:
            if k == key:
                return pygame.Rect(x, self.row_y(i), cw, self.row_h)
        raise KeyError(key)

    def row_at(self, pos) -> Optional[int]:
        """The row under ``pos`` (in the viewport), or None."""
        vp = self.viewport
        if not vp.collidepoint(pos):
            return None
        i = int((pos[1] - vp.y + self.scroller.offset) // self.row_h)
        return i if 0 <= i < len(self.rows) else None

    def column_at(self, x: int) -> Optional[str]:
        """The key of the column at ``x`` (the first and last reach the row bands' ends)."""
        band = self._band(0)
        for n, (key, _title, cx, cw, _align) in enumerate(self.cols):
            left = band.x if n == 0 else cx
            right = band.right if n == len(self.cols) - 1 else cx + cw
            if left <= x < right:
                return key
        return None

    # ---------------------------------------------------------- rows
    def set_rows(self, rows: Sequence) -> None:
        """New rows; the hover and the selection are kept while their rows still exist."""
        self.rows = rows
        n = len(rows)
        if self.hover is not None and self.hover >= n:
            self.hover = self.hover_key = None
        if self.selected is not None and self.selected >= n:
            self.selected = None
        self.scroller.content_height = n * self.row_h

    def select(self, i: Optional[int]) -> None:
        """Pick row ``i`` (None: none) and scroll it into view."""
        self.selected = i
        if i is not None:
            self.scroller.reveal(i * self.row_h, self.row_h)

    def _column(self, key: Optional[str]) -> Optional[Column]:
        return next((c for c in self.columns if c.key == key), None)

    def _keys_on(self) -> bool:
        return bool(self.keys() if callable(self.keys) else self.keys)

    def visible_range(self, n: Optional[int] = None) -> range:
        """The rows ``draw`` draws as scrolled now (of ``n`` rows; default: this table's)."""
        n = len(self.rows) if n is None else n
        first = int(self.scroller.offset // self.row_h)
        return range(first, max(first, min(n, first + self.viewport.h // self.row_h + 2)))

    def warm(self, rows: Sequence, budget: float) -> bool:
        """Draw ahead what ``rows`` (about to be ``set_rows``) would show at this scroll: the
        header and the visible rows' cells are rendered into the caches, one row at a time
        until ``budget`` seconds have passed (at least one row a call). True once every
        visible row is ready: shown now, they render nothing new."""
        end = time.perf_counter() + budget
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = pygame.Surface((1, 1))     # everything drawn on it is clipped
        shown, self.rows = self.rows, rows
        self._warming = True
        try:
            if not self._warm_header:
                self._draw_header(scratch)
                self._warm_header = True
            todo = self.visible_range()
            for i in todo:
                if rows[i] is self._warmed.get(i):
                    continue
                self._draw_row(scratch, i)
                self._warmed[i] = rows[i]
                if time.perf_counter() >= end and i != todo[-1]:
                    return False
            return True
        finally:
            self.rows = shown
            self._warming = False

    # ---------------------------------------------------------- input
    def handle(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.row_at(event.pos) if self.hoverable else None
            self.hover_key = self.column_at(event.pos[0]) if self.hover is not None else None
        elif event.type == pygame.WINDOWLEAVE:
            self.hover = self.hover_key = None
        elif _is_click_up(event) and self.click and not self.scroller._drag:
            i = self.row_at(event.pos)
            column = self._column(self.column_at(event.pos[0]))
            if i is not None and column is not None and column.on_click is not None:
                column.on_click(i)
                return True
            if i is not None and self.on_activate is not None:
                self.on_activate(i)
                return True
        elif (event.type == pygame.KEYDOWN and self.selectable and self.rows and self._keys_on()):
            n = len(self.rows)
            if event.key in (pygame.K_DOWN, pygame.K_UP):
                d = 1 if event.key == pygame.K_DOWN else -1
                cur = self.selected if self.selected is not None else (-1 if d > 0 else n)
                self.select(max(0, min(n - 1, cur + d)))
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.selected is not None \
                    and self.on_activate is not None:
                self.on_activate(self.selected)
                return True
        return self.scroller.handle(event)

    def update(self, dt: float) -> None:
        """Ease the scrolling (a screen whose ``scroller`` is this table's does it itself)."""
        self.scroller.update(dt)

    # ---------------------------------------------------------- drawing
    def _font(self, role: str, bold: bool = False) -> pygame.font.Font:
        return self._a.font(theme.font_px(role, self.s), bold)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        if not self.rows:
            self._draw_empty(surface)
            return
        self._draw_header(surface)
        vp = self.viewport
        prev = surface.get_clip()
        surface.set_clip(vp.inflate(self._px(16), 0).clip(prev))
        first = int(self.scroller.offset // self.row_h)
        last = min(len(self.rows), first + vp.h // self.row_h + 2)
        drawn = [c for c in self.columns if c.draw is not None]
        for i in range(first, last):
            self._draw_row(surface, i)
        for i in range(first, last):       # drawn cells (buttons, pills) on top of every row
            for c in drawn:
                c.draw(surface, self.cell_rect(i, c.key), i, i == self.hover and self.hover_key == c.key)
        surface.set_clip(prev)
        self.scroller.draw_bar(surface)

    def _draw_header(self, surface: pygame.Surface) -> None:
        head = self._font("tiny", True)
        pad = self._px(self.cell_pad)
        y = self.rect.y
        for column, (_key, title, x, cw, align) in zip(self.columns, self.cols):
            if not title:
                continue
            text = ellipsize(caps(title if column.literal else _(title)), head, cw - pad)
            if align == "right":
                pos, anchor = (x + cw - pad, y), "topright"
            elif align == "center":
                pos, anchor = (x + cw // 2, y), "midtop"
            else:
                pos, anchor = (x, y), "topleft"
            draw_text(surface, text, head, column.title_color, pos, anchor, shadow=False)
        vp = self.viewport
        draw_divider(surface, vp.x, vp.right, vp.y - self._px(self.rule_gap), theme.GOLD_DARK,
                     max(1, self._px(2)))

    def _draw_row(self, surface: pygame.Surface, i: int) -> None:
        y = self.row_y(i)
        band = self._band(y)
        if i == self.hover or i == self.selected:
            surface.blit(rounded_surface(band.size, self._px(8), theme.PANEL_ROW_HOVER), band.topleft)
        elif self.zebra and i % 2 == 0:
            surface.blit(rounded_surface(band.size, self._px(8), theme.PANEL_ROW), band.topleft)
        cells = self.cells(self.rows[i])
        body, bold, small = self._font("small"), self._font("small", True), self._font("tiny")
        pad = self._px(self.cell_pad)
        room_pad = self._px(self.cell_pad + 4)
        for column, (key, _title, x, cw, align) in zip(self.columns, self.cols):
            if column.draw is not None:
                continue
            cell = cells.get(key)
            if cell is None:
                continue
            if not isinstance(cell, Cell):
                cell = Cell(str(cell))
            font = bold if (cell.bold if cell.bold is not None else column.bold) else body
            color = cell.color if cell.color is not None else column.color
            cy = y + self.row_h // 2
            if cell.sub:
                cy -= small.get_linesize() // 2
            if align == "right":
                ax, anchor, sub_anchor = x + cw - pad, "midright", "topright"
            elif align == "center":
                ax, anchor, sub_anchor = x + cw // 2, "center", "midtop"
            else:
                ax, anchor, sub_anchor = x, "midleft", "topleft"
            room = cw - room_pad
            if cell.items:
                text, _hidden = fit_items(cell.items, font, room, cell.sep)
                r = draw_text(surface, text, font, color, (ax, cy), anchor, shadow=False)
                if text != cell.text and not self._warming:
                    note_cut(r, cell.text)
            else:
                draw_text(surface, ellipsize(cell.text, font, room), font, color, (ax, cy), anchor, shadow=False)
            if cell.sub:
                draw_text(surface, ellipsize(cell.sub, small, room), small, cell.sub_color,
                          (ax, cy + font.get_linesize() // 2), sub_anchor, shadow=False)

    def _draw_empty(self, surface: pygame.Surface) -> None:
        cx, cy = self.empty_center or self.viewport.center
        room = max(self.rect.w, self.viewport.w)
        font = self._font("h3", True)
        draw_text(surface, ellipsize(_(self.empty), font, room), font, theme.CREAM, (cx, cy), "center")
        if self.empty_detail:
            small = self._font("small")
            draw_text(surface, ellipsize(_(self.empty_detail), small, room), small, theme.CREAM_DIM,
                      (cx, cy + self._px(40)), "center")


__all__ = ["Table", "Column", "Cell"]
