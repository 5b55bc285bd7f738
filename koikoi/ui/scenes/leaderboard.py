"""Leaderboard: the rated players of a match server's ladder, best first, and your own
place (the ``board`` answer of ``koikoi.ladder.service``). A click on a row opens that
player's profile. The connection (``LadderLink``) is this screen's, shared with the
profiles opened from it, and closed when the screen goes."""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ...net.netsession import AddressError, parse_address

from .. import theme
from .. import widgets as W
from ...i18n import N_, _, ngettext
from . import MenuScene, TableScreen
from .ladder_link import LadderLink, LinkScreen, answer_rows, ladder_address
from .online_table import default_name

log = logging.getLogger("koikoi.leaderboard")

BOARD_ROWS = 100

COLUMNS = (
    W.Column("place", N_("Place"), 0.10, "right"),           # titles translated where drawn
    W.Column("name", N_("Player"), 0.38),
    W.Column("rating", N_("Rating"), 0.16, "right", bold=True, color=theme.GOLD_LIGHT),
    W.Column("matches", N_("Matches"), 0.14, "right"),
    W.Column("record", N_("Won · Drawn · Lost"), 0.22, "right"),
)


def record_text(row: dict) -> str:
    wins, draws = int(row.get("wins") or 0), int(row.get("draws") or 0)
    losses = max(0, int(row.get("matches") or 0) - wins - draws)
    return f"{wins} · {draws} · {losses}"


def open_link(app, address: Optional[str]):
    """A LadderLink to the match server at ``address`` (typed text), or (None, why)."""
    text = (address or "").strip()
    if not text:
        return None, _("Type the address of the match server on the Quick match screen first.")
    try:
        where = parse_address(text)
    except AddressError:
        return None, _("That server address cannot be right: it looks like play.example.org:8765 "
                       "(or ws://… or wss://… in front).")
    return LadderLink(app, where.url, where.text, default_name(app)), None


class LeaderboardScene(LinkScreen, TableScreen, MenuScene):
    def __init__(self, app, address: Optional[str] = None, *, link=None):
        self.address = address or ladder_address(app)
        self.own_link = link is None
        self.error: Optional[str] = None
        if link is None:
            link, self.error = open_link(app, self.address)
        self.link = link
        self.rows: list = []
        self.table = W.Table(COLUMNS, cells=self.cells, assets=app.assets, hoverable=True, selectable=True,
                             click=True, on_activate=self.open_row, keys=self.table_keys_free,
                             empty=N_("No rated players yet"),
                             empty_detail=N_("Finish a quick match to be the first on the board."))
        super().__init__(app)
        if self.link is not None:
            self.address = self.link.address
            self.link.ask("board", 0, BOARD_ROWS)

    # ---------------------------------------------------------- data
    @property
    def board(self) -> Optional[dict]:
        return self.link.answers.get("board") if self.link is not None else None

    @property
    def my_id(self) -> Optional[str]:
        me = self.link.me if self.link is not None else None
        return me.get("id") if me else None

    def cells(self, row: dict) -> dict:
        mine = row.get("id") == self.my_id
        color = theme.GOLD_LIGHT if mine else None
        return {"place": W.Cell(str(row.get("place", "")), color, mine or None),
                "name": W.Cell(str(row.get("name", "")), color, mine or None),
                "rating": W.Cell(str(row.get("rating", ""))),
                "matches": W.Cell(str(row.get("matches", "")), color),
                "record": W.Cell(record_text(row), color)}

    def current_answer(self) -> Optional[dict]:
        return self.board

    def show_answer(self, board: dict) -> None:
        self.rows = answer_rows(board, "rows")
        self.table.set_rows(self.rows)

    def open_row(self, i: int) -> None:
        if 0 <= i < len(self.rows) and self.link is not None:
            self.app.open("profile", self.rows[i].get("id"), link=self.link)

    def my_profile(self) -> None:
        if self.link is not None:
            self.app.open("profile", None, link=self.link)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        self.panel = pygame.Rect(0, self.px(196), min(w - self.px(80), self.px(1400)), 0)
        self.panel.centerx = w // 2
        bh = self.px(76)
        by = h - self.px(34) - bh
        self.place_y = by - self.px(58)
        self.panel.h = self.place_y - self.px(16) - self.panel.y
        self.place_table(self.panel, self.px(58))
        gap = self.px(24)
        self.back_b = self.button((0, by, self.px(300), bh), _("Back"), self.back, style="secondary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        self.me_b = self.button((0, by, self.px(300), bh), _("My profile"), self.my_profile, style="primary",
                                hotkeys=(pygame.K_p,))
        self.back_b.rect.right = w // 2 - gap // 2
        self.me_b.rect.left = w // 2 + gap // 2
        self.widgets = [self.back_b, self.me_b]
        self.focus.set(self.widgets)

    # ---------------------------------------------------------- drawing
    def status(self) -> tuple[str, tuple]:
        """The line under the table: your place, or what is going on."""
        link = self.link
        if link is None:
            return self.error or "", theme.BAD
        if link.stage == "failed":
            return link.error or "", theme.BAD
        if link.problems.get("board"):
            return link.problems["board"], theme.BAD
        board = self.board
        if board is None:
            return _("Asking {address} for the leaderboard…").format(address=self.address), theme.CREAM_DIM
        total = board.get("total") if isinstance(board.get("total"), int) else len(self.rows)
        you = board.get("you")
        if isinstance(you, int):
            return ngettext("You are number {place} of {n} rated player.",
                            "You are number {place} of {n} rated players.", total).format(place=you, n=total), \
                theme.GOLD_LIGHT
        return _("You are not on the board yet: finish a quick match to be rated."), theme.CREAM_DIM

    def draw_content(self, surface: pygame.Surface) -> None:
        w = self.size[0]
        self.draw_title(surface, _("Leaderboard"), self.px(36),
                        subtitle=_("The rated players of {address}").format(address=self.address or "—"))
        W.draw_panel(surface, self.panel, s=self.s)
        if self.link is not None and self.link.stage == "ready" and self.board is not None:
            self.table.draw(surface)
        text, color = self.status()
        font = self.font("body", True)
        for i, line in enumerate(W.wrap_text(text, font, self.panel.w)[:2]):
            W.draw_text(surface, line, font, color, (w // 2, self.place_y + i * font.get_linesize()), "midtop")
