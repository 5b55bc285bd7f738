"""The game's screens, one module each (imported lazily by whoever opens them):

    title.py       TitleScene
    newmatch.py    NewMatchScene: opponent, rules, months, house rules
    oyagime.py     OyagimeScene: drawing cards for the first dealer
    round.py       RoundScene: the table where a round is played
    prompt.py      KoiKoiPromptScene: stop or play on, with the Easy coach (an overlay)
    inspector.py   InspectorScene: one side's combos, near misses and award preview (an overlay)
    curtain.py     CurtainScene: "pass the device" between turns of a friend match
    results.py     RoundResultsScene: the score of one round (an overlay)
    ledger.py      MatchResultsScene: the winner and the ledger of every round
    replay.py      ReplayScene: a played round step by step, both hands face up
    history.py     HistoryScene: filed matches (finished, conceded, abandoned)
    saved.py       UnfinishedMatchScene (before a new match replaces a saved one), SavedMatchesScene
    stats.py       StatsScene: statistics across finished matches
    howto.py       How to play: card gallery, turns, yaku per rule set, the decision
    rules_panel.py RulesPanelScene: the rules of this match
    house_rules.py HouseRulesScene: the house-rule editor of the New match dialog
    settings.py    SettingsScene, PauseMenuScene, ConfirmScene
    pause_menu.py  TablePauseMenu: what the local and the online pause menus share
    plain_results.py  RoundSummaryScene, MatchSummaryScene: plain stand-ins for the results screens
"""

from __future__ import annotations

from typing import Optional

import pygame

from .. import theme
from .. import widgets as W
from ..scene import Scene
from ...forward import via
from ...i18n import _


class MenuScene(Scene):
    """What the menu-like screens share: a scale from the window size, a list
    of widgets that get every event (top-most first), keyboard focus, Escape
    to go back, and a short entrance animation.

    Subclasses build their widgets in ``layout()`` (called at construction and
    on every resize) and draw their own content in ``draw_content``. A scene
    with a ``scroller`` (a W.Scroller, set before ``layout`` runs) has it eased
    by ``update`` and counted in ``animating``; it handles its events itself.
    A screen built around a ``W.Table`` mixes in ``TableScreen`` (and lays the
    table out with ``layout_table`` or ``place_table``); a modal question is a
    ``DialogScene``.
    """

    intro_time = 0.35
    scroller: Optional[W.Scroller] = None
    _scratch: Optional[pygame.Surface] = None

    def __init__(self, app):
        super().__init__(app)
        self.widgets: list[W.Widget] = []
        self.focus = W.FocusGroup()
        self.t = 0.0
        self.s = theme.scale(app.size)
        self.size = app.size
        self.layout()

    # ---------------------------------------------------------- helpers
    def font(self, role: str, bold: bool = False) -> pygame.font.Font:
        return self.app.assets.font(theme.font_px(role, self.s), bold)

    def px(self, n: float) -> int:
        return theme.px(n, self.s)

    def scratch_layer(self) -> pygame.Surface:
        """A clear window-sized layer (per-pixel alpha) to draw on and fade in as one.

        The same surface is cleared and handed out again frame after frame while an
        entrance runs (8 MB at 1920x1080: a new one each frame would be fresh memory
        mapped and faulted in every time); ``drop_scratch`` lets it go."""
        layer = self._scratch
        if layer is None or layer.get_size() != tuple(self.size):
            layer = self._scratch = pygame.Surface(self.size, pygame.SRCALPHA)
        else:
            layer.fill((0, 0, 0, 0))
        return layer

    def drop_scratch(self) -> None:
        self._scratch = None

    def exit(self) -> None:
        self.drop_scratch()

    def button(self, rect, label, on_click, **kw) -> W.Button:
        return W.Button(rect, label, on_click, assets=self.app.assets, **kw)

    def place_row(self, row: list, gap: int) -> None:
        """``row`` of buttons side by side, centred in the window; they become the widgets."""
        x = self.size[0] // 2 - (sum(b.rect.w for b in row) + gap * (len(row) - 1)) // 2
        for b in row:
            b.rect.x = x
            x += b.rect.w + gap
        self.widgets = row
        self.focus.set(self.widgets)

    def draw_menu_panel(self, surface: pygame.Surface, title: str) -> None:
        """A pause menu's look: the screen dimmed, a strong panel with ``title``, its buttons."""
        W.draw_scrim(surface, (0, 0, 0, int(160 * self.intro)))
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, s=self.s)
        px = theme.font_px("h1", self.s)       # a long title (another language) set smaller to fit
        font = W.fit_font(self.app.assets, title, self.panel.w - 2 * self.px(28), px, bold=True,
                          minimum=max(10, px * 2 // 3))
        W.draw_text(surface, title, font, theme.GOLD_LIGHT,
                    (self.panel.centerx, self.panel.y + self.px(34)), "midtop")
        for wdg in self.widgets:
            wdg.draw(surface)

    def dialog_panel(self, width: int, height: int) -> tuple[int, int, int, int]:
        """A question's panel (``self.panel``): ``width`` wide at most (a margin kept in a narrow
        window), ``height`` tall, centred; (button width, height, gap, top) of its row of buttons
        along the bottom (the sizes in design pixels)."""
        w, h = self.size
        self.panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(width)), self.px(height))
        self.panel.center = (w // 2, h // 2)
        bw, bh, gap = self.px(300), self.px(72), self.px(24)
        return bw, bh, gap, self.panel.bottom - self.px(36) - bh

    def layout_button_column(self, labels, bw: int, bh: int, gap: int) -> None:
        """A menu panel (``self.panel``) of buttons one under another, centred in the window
        (the pause menus): ``labels`` are (label, on_click, style, hotkeys); a short window
        gets tighter buttons."""
        w, h = self.size
        n = len(labels)
        top = self.px(150)
        room = h - self.px(40) - top - self.px(50)
        if n * bh + (n - 1) * gap > room:
            bh = max(self.px(48), (room - (n - 1) * gap) // n)
        total = n * bh + (n - 1) * gap
        self.panel = pygame.Rect(0, 0, bw + 2 * self.px(60), total + top + self.px(60))
        self.panel.center = (w // 2, h // 2)
        y = self.panel.y + top
        self.widgets = []
        for label, fn, style, keys in labels:
            b = self.button((0, y, bw, bh), label, fn, style=style, hotkeys=keys)
            b.rect.centerx = w // 2
            self.widgets.append(b)
            y += bh + gap
        self.focus.set(self.widgets)

    @property
    def intro(self) -> float:
        """0 -> 1 over the entrance (eased); 1 at once when animations are instant."""
        if self.app.anim_speed <= 0:
            return 1.0
        k = min(1.0, self.t / self.intro_time)
        return 1 - (1 - k) ** 3

    @property
    def animating(self) -> bool:
        if self.intro < 1.0:
            return True
        if self.scroller is not None and self.scroller.animating:
            return True
        return any(getattr(w, "animating", False) for w in self.widgets)

    # ---------------------------------------------------------- scene
    def layout(self) -> None:
        """Build or move the widgets for ``self.size`` / ``self.s``."""

    def resize(self, size) -> None:
        self.size = tuple(size)
        self.s = theme.scale(size)
        self.layout()

    def enter(self) -> None:
        if self.size != self.app.size:
            self.resize(self.app.size)

    def back(self) -> None:
        """Escape: close this screen (by default, pop it)."""
        self.app.pop()

    def handle(self, event: pygame.event.Event) -> bool:
        for w in reversed(self.widgets):
            if w.handle(event):
                return True
        if self.focus.handle(event):
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.back()
            return True
        return False

    def update(self, dt: float) -> None:
        self.t += dt * max(self.app.anim_speed, 0.001) if self.app.anim_speed > 0 else 1e6
        for w in self.widgets:
            upd = getattr(w, "update", None)
            if upd is not None:
                upd(dt)
        if self.scroller is not None:
            self.scroller.update(dt if self.app.anim_speed > 0 else 0)

    def draw_background(self, surface: pygame.Surface) -> None:
        surface.blit(self.app.assets.table(self.size), (0, 0))

    def draw_content(self, surface: pygame.Surface) -> None:
        """The screen's own drawing (between background and widgets)."""

    def draw(self, surface: pygame.Surface) -> None:
        if self.opaque:
            self.draw_background(surface)
        self.draw_content(surface)
        for w in self.widgets:
            w.draw(surface)

    def layout_table(self, *, width: int, row_h: int, min_rows: int) -> int:
        """``self.table`` in a panel under the title, as tall as its rows need (at
        least ``min_rows``, at most what the window holds), with the Back button
        below it (the History and Saved matches screens). Sets ``panel`` and
        ``back_b`` as the only widget; returns the Back button's y."""
        w, h = self.size
        self.panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(width)), 0)
        self.panel.centerx = w // 2
        self.panel.y = self.px(200)
        bh = self.px(76)
        rows = len(self.table.rows)
        need = self.px(22 + 50 + 18) + max(min_rows, rows) * self.px(row_h) + self.px(10)
        self.panel.h = min(h - self.panel.y - bh - self.px(80), need)
        self.place_table(self.panel, self.px(row_h))
        by = min(h - bh - self.px(40), self.panel.bottom + self.px(56))
        self.back_b = self.button((0, by, self.px(300), bh), _("Back"), self.back, style="primary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        self.back_b.rect.centerx = w // 2
        self.widgets = [self.back_b]
        return by

    def place_table(self, panel: pygame.Rect, row_h: int) -> None:
        """``self.table`` across ``panel`` (inside its side margins): the header
        line near its top, the rows down to near its bottom."""
        header_y = panel.y + self.px(22)
        top = header_y + self.px(14)
        rows_y = header_y + self.px(50)
        inner = panel.inflate(-2 * self.px(36), 0)
        self.table.place((inner.x, top, inner.w, panel.bottom - self.px(18) - top), s=self.s,
                         row_h=row_h, header_h=rows_y - top)

    def draw_title(self, surface: pygame.Surface, text: str, y: int, *, subtitle: Optional[str] = None) -> int:
        """A centred screen title with a gold divider; returns the y below it."""
        cx = self.size[0] // 2
        r = W.draw_text(surface, text, self.font("h1", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        y = r.bottom + self.px(8)
        half = min(self.size[0] // 3, self.px(320))
        W.draw_divider(surface, cx - half, cx + half, y, theme.GOLD, max(1, self.px(2)))
        y += self.px(14)
        if subtitle:
            r = W.draw_text(surface, subtitle, self.font("small"), theme.CREAM_DIM, (cx, y), "midtop")
            y = r.bottom + self.px(8)
        return y


def opens(scene: str, doc: Optional[str] = None):
    """A scene's action that opens the registered scene ``scene`` (``app.open``) over it:
    ``new_match = opens("newmatch")`` for the buttons and keys that call it."""
    def action(self) -> None:
        self.app.open(scene)
    action.__doc__ = doc or f"Open the {scene} screen."
    return action


class TableScreen:
    """What a screen built around one ``W.Table`` (``self.table``, made before
    ``MenuScene.__init__`` lays it out) reads from it. Mixed in before
    ``MenuScene``, whose ``update`` then eases the table's scroller."""

    table: W.Table
    scroller = via("table", "scroller", "The table's scroller.")
    row_h = via("table", "row_h", "The height of a row (px).")
    cols = via("table", "cols", "[(key, title, x, width, align), ...] as laid out now.")
    key_row = via("table", "selected", "The row picked with the arrow keys, or None.")

    def table_keys_free(self) -> bool:
        """Up / Down / Enter are the table's while no button has the keyboard focus."""
        return self.focus.current is None


class DialogScene(MenuScene):
    """A modal question over the screen below: the screen dimmed, a strong panel
    (``self.panel``, set in ``layout``) with a title, then ``draw_body``, the
    buttons and a small ``hint`` in the bottom corner. Every event stops here;
    Escape goes back."""

    opaque = False
    intro_time = 0.15
    dim = 150                  # the scrim's alpha once faded in
    border = theme.GOLD        # the panel's border colour
    title = ""                 # English (N_-marked in the subclass): translated where drawn
    hint = ""

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal

    def draw_body(self, surface: pygame.Surface, y: int) -> None:
        """What the dialog says, from ``y`` (below its title) down."""

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(self.dim * self.intro)))
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, border=self.border, s=self.s)
        r = W.draw_text(surface, _(self.title) if self.title else "", self.font("h2", True), theme.GOLD_LIGHT,
                        (self.panel.centerx, self.panel.y + self.px(34)), "midtop")
        self.draw_body(surface, r.bottom)
        for wdg in self.widgets:
            wdg.draw(surface)
        if self.hint:
            W.draw_text(surface, _(self.hint), self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(18), self.panel.bottom - self.px(12)), "bottomright",
                        shadow=False)
