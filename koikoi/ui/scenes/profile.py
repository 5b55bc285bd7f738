"""A player's profile on a match server's ladder (the ``profile`` answer of
``koikoi.ladder.service``): the rating and its deviation, the place, the record, the
rating after each rated match as a small plot, and the record against each player met
(a click opens theirs). One's own profile also offers the player key:

* Copy my key: after a warning (the key lets anyone play as you), onto the clipboard;
  shown on screen when the clipboard cannot be reached.
* Use a key: paste the key copied from another computer; it is checked
  (``identity.valid_key``) and, confirmed, replaces this computer's key
  (``identity.use_key``: the old one is kept beside it in the data folder).
"""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ... import crash
from ...ladder import identity

from .. import theme
from .. import widgets as W
from ...i18n import N_, _
from . import MenuScene
from .ladder_link import LinkScreen, answer_rows, player_folder
from .leaderboard import open_link, ladder_address

log = logging.getLogger("koikoi.profile")

AGAINST_COLUMNS = (
    W.Column("name", N_("Player"), 0.52),             # titles translated where drawn
    W.Column("wins", N_("Won"), 0.16, "right", bold=True, color=theme.GOOD),
    W.Column("draws", N_("Drawn"), 0.16, "right"),
    W.Column("losses", N_("Lost"), 0.16, "right"),
)


def _int(v, default: int = 0) -> int:
    return v if type(v) is int else default


def history_points(view: dict) -> list:
    """(rating, result) of each rated match, oldest first; result "won", "lost" or "draw"."""
    out = []
    for h in view.get("history") or ():
        if isinstance(h, dict) and isinstance(h.get("rating"), (int, float)):
            out.append((float(h["rating"]), "draw" if h.get("draw") else "won" if h.get("won") else "lost"))
    return out


def draw_rating_plot(surface: pygame.Surface, rect: pygame.Rect, points: list, font, s: float,
                     start: float = 1500.0) -> None:
    """The rating after each match as a line from ``start``, a dot per match (green won,
    red lost, cream drawn), the lowest and highest ratings written on the left."""
    values = [start] + [p[0] for p in points]
    lo, hi = min(values), max(values)
    if hi - lo < 50:
        mid = (hi + lo) / 2
        lo, hi = mid - 25, mid + 25
    label_w = max(font.size(str(round(v)))[0] for v in (lo, hi)) + theme.px(12, s)
    area = pygame.Rect(rect.x + label_w, rect.y + theme.px(8, s), rect.w - label_w - theme.px(8, s),
                       rect.h - theme.px(16, s))
    line = theme.darken(theme.GOLD, 0.55)
    for v in (lo, hi):
        y = area.bottom - (v - lo) / (hi - lo) * area.h
        pygame.draw.line(surface, line, (area.x, int(y)), (area.right, int(y)), 1)
        W.draw_text(surface, str(round(v)), font, theme.CREAM_DIM, (area.x - theme.px(8, s), int(y)), "midright",
                    shadow=False)
    n = len(values)
    xy = [(area.x + (i * area.w / max(1, n - 1) if n > 1 else area.w / 2),
           area.bottom - (v - lo) / (hi - lo) * area.h) for i, v in enumerate(values)]
    if len(xy) > 1:
        pygame.draw.lines(surface, theme.GOLD_LIGHT, False, xy, max(2, theme.px(3, s)))
    r = max(3, theme.px(6 if n < 60 else 4, s))
    colors = {"won": theme.GOOD, "lost": theme.BAD, "draw": theme.CREAM}
    for (x, y), (_v, result) in zip(xy[1:], points):
        pygame.draw.circle(surface, colors[result], (int(x), int(y)), r)


class ProfileScene(LinkScreen, MenuScene):
    def __init__(self, app, player: Optional[str] = None, *, address: Optional[str] = None, link=None):
        self.player = player
        self.own_link = link is None
        self.error: Optional[str] = None
        if link is None:
            link, self.error = open_link(app, address or ladder_address(app))
        self.link = link
        self.address = link.address if link is not None else (address or "")
        self.against: list = []
        self.table = W.Table(AGAINST_COLUMNS, cells=self.cells, assets=app.assets, hoverable=True,
                             selectable=True, click=True, on_activate=self.open_row,
                             keys=lambda: self.focus.current is None,
                             empty=N_("No rated matches yet"),
                             empty_detail=N_("The players met in quick matches are listed here."))
        super().__init__(app)
        if self.link is not None:
            self.link.ask("profile", player)

    # ---------------------------------------------------------- data
    @property
    def view(self) -> Optional[dict]:
        if self.link is None:
            return None
        got = self.link.answers.get("profile")
        if got is None:
            return None
        if self.player is None:
            return got if got.get("you") else None
        return got if got.get("id") == self.player else None

    @property
    def mine(self) -> bool:
        v = self.view
        return bool(v and v.get("you"))

    def cells(self, row: dict) -> dict:
        return {"name": str(row.get("name", "")), "wins": str(_int(row.get("wins"))),
                "draws": str(_int(row.get("draws"))), "losses": str(_int(row.get("losses")))}

    def current_answer(self) -> Optional[dict]:
        return self.view

    def show_answer(self, view: dict) -> None:
        self.against = answer_rows(view, "against")
        self.table.set_rows(self.against)
        self.layout()

    def open_row(self, i: int) -> None:
        if 0 <= i < len(self.against) and self.link is not None:
            self.app.open("profile", self.against[i].get("id"), link=self.link)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        self.content = pygame.Rect(0, self.px(196), min(w - self.px(80), self.px(1600)), 0)
        self.content.centerx = w // 2
        bh = self.px(76)
        by = h - self.px(34) - bh
        self.content.h = by - self.px(30) - self.content.y
        self.tiles_h = self.px(168)
        self.plot_panel, self.against_panel = W.panels_below(self.content, self.tiles_h, self.px(24), 0.56)
        p = self.against_panel
        inner = p.inflate(-2 * self.px(26), 0)
        top = p.y + self.px(64)
        self.table.place((inner.x, top, inner.w, p.bottom - self.px(14) - top), s=self.s,
                         row_h=self.px(52), header_h=self.px(40))
        gap = self.px(20)
        bw = self.px(320)
        self.back_b = self.button((0, by, bw, bh), _("Back"), self.back, style="primary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        row = [self.back_b]
        if self.mine:
            self.copy_b = self.button((0, by, bw, bh), _("Copy my key"), self.copy_key, style="secondary")
            self.use_b = self.button((0, by, bw, bh), _("Use a key"), self.use_key, style="secondary")
            row = [self.back_b, self.copy_b, self.use_b]
        left = w // 2 - (len(row) * bw + (len(row) - 1) * gap) // 2
        for i, b in enumerate(row):
            b.rect.x = left + i * (bw + gap)
        self.widgets = row
        self.focus.set(self.widgets)

    def copy_key(self) -> None:
        self.app.open("player_key", "copy")

    def use_key(self) -> None:
        self.app.open("player_key", "use")

    # ---------------------------------------------------------- drawing
    def problem(self) -> Optional[str]:
        link = self.link
        if link is None:
            return self.error
        if link.stage == "failed":
            return link.error
        return link.problems.get("profile")

    def tiles(self, v: dict) -> list:
        matches, wins, draws = _int(v.get("matches")), _int(v.get("wins")), _int(v.get("draws"))
        losses = max(0, matches - wins - draws)
        place = v.get("place")
        return [
            (_("Rating"), str(_int(v.get("rating"), 1500)), _("± {rd}").format(rd=_int(v.get("rd"), 350))),
            (_("Place"), f"#{place}" if type(place) is int else "—",
             _("on the leaderboard") if type(place) is int else _("unrated until a quick match ends")),
            (_("Matches"), str(matches),
             _("{won} won · {drawn} drawn · {lost} lost").format(won=wins, drawn=draws, lost=losses)),
        ]

    def draw_content(self, surface: pygame.Surface) -> None:
        w = self.size[0]
        v = self.view
        problem = self.problem()
        if v is None:
            self.draw_title(surface, _("Profile"), self.px(36),
                            subtitle=self.address or None)
            text = problem or _("Asking {address} for the profile…").format(address=self.address)
            font = self.font("h3", True)
            y = self.content.centery - font.get_linesize()
            for line in W.wrap_text(text, font, self.content.w - self.px(100))[:3]:
                W.draw_text(surface, line, font, theme.BAD if problem else theme.GOLD_LIGHT, (w // 2, y), "midtop")
                y += font.get_linesize()
            return
        title = _("Your profile: {name}") if v.get("you") else _("Profile: {name}")
        self.draw_title(surface, title.format(name=str(v.get("name", ""))), self.px(36),
                        subtitle=_("Player id {id}  ·  {address}").format(id=v.get("id", ""), address=self.address))
        self._draw_tiles(surface, v)
        # the rating history
        p = self.plot_panel
        W.draw_panel(surface, p, s=self.s)
        W.draw_text(surface, _("Rating after each rated match").upper(), self.font("small", True), theme.GOLD,
                    (p.x + self.px(26), p.y + self.px(20)))
        points = history_points(v)
        plot = pygame.Rect(p.x + self.px(20), p.y + self.px(64), p.w - self.px(40), p.h - self.px(84))
        if points:
            draw_rating_plot(surface, plot, points, self.font("tiny"), self.s)
        else:
            W.draw_text(surface, _("No rated matches yet: the plot starts with the first one."), self.font("small"),
                        theme.CREAM_DIM, plot.center, "center")
        # the record against each player met
        a = self.against_panel
        W.draw_panel(surface, a, s=self.s)
        W.draw_text(surface, _("Against the players met").upper(), self.font("small", True), theme.GOLD,
                    (a.x + self.px(26), a.y + self.px(20)))
        self.table.draw(surface)
        if problem:
            W.draw_text(surface, W.ellipsize(problem, self.font("small", True), self.content.w), self.font("small", True),
                        theme.BAD, (w // 2, self.content.bottom + self.px(6)), "midtop")

    def _draw_tiles(self, surface: pygame.Surface, v: dict) -> None:
        tiles = self.tiles(v)
        for r, (label, big, small) in zip(W.tile_rects(self.content, len(tiles), self.px(20), self.tiles_h), tiles):
            tw = r.w
            W.draw_panel(surface, r, s=self.s)
            W.draw_text(surface, label.upper(), self.font("tiny", True), theme.GOLD, (r.centerx, r.y + self.px(14)),
                        "midtop", shadow=False)
            font = W.fit_font(self.app.assets, big, tw - self.px(20), theme.font_px("h1", self.s), bold=True)
            W.draw_text(surface, big, font, theme.GOLD_LIGHT, (r.centerx, r.centery - self.px(2)), "center")
            small_font = W.fit_font(self.app.assets, small, tw - self.px(20), theme.font_px("small", self.s))
            W.draw_text(surface, small, small_font, theme.CREAM_DIM, (r.centerx, r.bottom - self.px(14)), "midbottom",
                        shadow=False)


def clipboard_text() -> str:
    """The clipboard's text (best effort: "" when it cannot be read)."""
    try:
        scrap = pygame.scrap
        if hasattr(scrap, "get_text"):
            return scrap.get_text() or ""
        if not scrap.get_init():
            scrap.init()
        raw = scrap.get(pygame.SCRAP_TEXT)
        return raw.decode("utf-8", "replace").rstrip("\x00") if raw else ""
    except BaseException:       # no clipboard under this video driver
        return ""


class PlayerKeyScene(MenuScene):
    """Copy my key (``mode`` "copy") or Use a key ("use"): a modal panel with the warning,
    the key (or the field to paste one into), and a confirmation button."""

    opaque = False
    intro_time = 0.15

    def __init__(self, app, mode: str = "copy"):
        self.mode = "use" if mode == "use" else "copy"
        self.folder = player_folder(app)
        self.status: Optional[str] = None        # what happened (green) ...
        self.problem: Optional[str] = None       # ... or why not (red)
        self.shown_key: Optional[str] = None     # the key shown when the clipboard failed
        self.field: Optional[W.TextField] = None
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        bw, bh, gap, by = self.dialog_panel(1000, 580)
        self.no_b = self.button((0, by, bw, bh), _("Close") if self.status else _("Cancel"), self.back,
                                style="secondary")
        self.widgets = [self.no_b]
        if self.mode == "use":
            fr = (self.panel.x + self.px(60), self.panel.y + self.px(290), self.panel.w - self.px(120), self.px(56))
            if self.field is None:
                self.field = W.TextField(fr, "", None, max_len=80, placeholder="kk1_…", assets=self.app.assets,
                                         font_size=theme.font_px("body", self.s))
            self.field.rect = pygame.Rect(fr)
            self.widgets.insert(0, self.field)
        if not self.status:
            label = _("Copy to the clipboard") if self.mode == "copy" else _("Use this key")
            self.yes_b = self.button((0, by, bw, bh), label, self.confirm, style="danger" if self.mode == "use"
                                     else "primary", hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
            self.no_b.rect.right = w // 2 - gap // 2
            self.yes_b.rect.left = w // 2 + gap // 2
            self.widgets.append(self.yes_b)
        else:
            self.no_b.rect.centerx = w // 2
        self.focus.set(self.widgets)

    def handle(self, event) -> bool:
        f = self.field
        if f is not None and event.type == pygame.KEYDOWN and event.key == pygame.K_v \
                and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            pasted = clipboard_text().strip()
            if pasted:
                f.set_text(pasted)
            return True
        if f is not None and (f.editing or f.focused) and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT,
                                                                         pygame.MOUSEBUTTONDOWN):
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                f.commit()
                self.confirm()
                return True
            if f.handle(event):
                return True
        super().handle(event)
        return True     # modal

    def confirm(self) -> None:
        self.problem = None
        if self.mode == "copy":
            try:
                key = identity.load_or_create_key(self.folder)
            except OSError as exc:
                log.warning("the player key could not be read or made: %s", exc)
                self.problem = _("The player key could not be kept in the game's data folder (see the log).")
                return
            if crash.copy_text(key):
                self.status = _("Your key is on the clipboard. Paste it into Use a key on your other computer.")
            else:
                self.shown_key = key
                self.status = _("The clipboard cannot be reached: write the key down from here.")
            self.layout()
            return
        f = self.field
        f.commit()
        text = f.text.strip()
        if not identity.valid_key(text):
            self.problem = _("That is not a player key: it starts with kk1_ and has 47 letters, digits, - and _.")
            return
        try:
            aside = identity.use_key(text, self.folder)
        except (OSError, ValueError) as exc:
            log.warning("the player key could not be replaced: %s", exc)
            self.problem = _("The player key could not be kept in the game's data folder (see the log).")
            return
        f.set_text("")
        if aside is None:
            self.status = _("This computer already plays with that key.")
        else:
            self.status = _("This computer now plays with that key. The old key is kept in the data folder as "
                            "{file}.").format(file=aside.name)
        self.layout()

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(150 * self.intro)))
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, border=theme.LACQUER_LIGHT, s=self.s)
        cx = self.panel.centerx
        title = _("Copy my key") if self.mode == "copy" else _("Use a key")
        r = W.draw_text(surface, title, self.font("h2", True), theme.GOLD_LIGHT, (cx, self.panel.y + self.px(34)),
                        "midtop")
        if self.mode == "copy":
            text = _("Your player key is who you are on the match servers: anyone who has it can play and rename "
                     "as you. Copy it only to move to another computer of yours, and never share it.")
        else:
            text = _("Paste the key copied from your other computer (Ctrl+V). This computer then plays as that "
                     "profile; its own key is kept in the data folder, so nothing is lost.")
        font = self.font("body")
        y = r.bottom + self.px(22)
        for line in W.wrap_text(text, font, self.panel.w - self.px(100))[:4]:
            W.draw_text(surface, line, font, theme.CREAM, (cx, y), "midtop")
            y += font.get_linesize()
        y = max(y + self.px(14), self.panel.y + self.px(270)) if self.mode == "copy" else self.panel.y + self.px(362)
        if self.shown_key:
            W.draw_text(surface, self.shown_key, W.fit_font(self.app.assets, self.shown_key, self.panel.w - self.px(80),
                                                            theme.font_px("body", self.s), bold=True),
                        theme.GOLD_LIGHT, (cx, y), "midtop")
            y += self.px(44)
        said, color = (self.problem, theme.BAD) if self.problem else (self.status, theme.GOOD)
        if said:
            small = self.font("small", True)
            for line in W.wrap_text(said, small, self.panel.w - self.px(100))[:2]:
                W.draw_text(surface, line, small, color, (cx, y), "midtop")
                y += small.get_linesize()
        for wdg in self.widgets:
            wdg.draw(surface)
