"""Quick match: meet a player of your level on a match server (``koikoi serve`` with its
ladder, ``koikoi.ladder.service``).

    Title -> Play online -> Quick match (QuickMatchScene): name, match server, rules, length
          -> Find a match: the wait (the time waited, Cancel) -> the table, as for a room
             joined by hand (``OnlineMatch``: reconnect, claim, record and filing hold)

The server pairs players waiting for the same rules and length, nearest in rating first,
widening the range the longer one waits. The player key (``koikoi.ladder.identity``) is
made in the data folder on first use and sent to that server only. A room made on
another server process (``matched``) is followed by the client itself. Leaderboard and
My profile open the ladder's reading screens (``leaderboard.py``, ``profile.py``) on the
same server.
"""

from __future__ import annotations

import logging
import time
from typing import Optional

import pygame

from ...engine import RULESETS
from ...net.netsession import AddressError, parse_address
from ...narration import rules_name
from .. import theme
from .. import widgets as W
from ...i18n import _, ngettext
from . import MenuScene
from .ladder_link import ladder_error_text, player_folder
from .newmatch import months_row
from .online import _NameMixin
from .online_table import PREFS, OnlineMatch, clock, load_prefs, save_prefs, server_error_text

log = logging.getLogger("koikoi.quickmatch")


class QuickOnlineMatch(OnlineMatch):
    """An ``OnlineMatch`` whose room comes from the ladder: identify, queue, then the
    server's own ``joined`` (here or, after ``matched``, on another server process)."""

    AGAIN = ("quickmatch",)

    def quick(self, preset: str, months: Optional[int], name: str, folder=None) -> "QuickOnlineMatch":
        self.rules_label = preset
        self.on_server = True
        self.preset, self.months = preset, months
        self.queued_at: Optional[float] = None     # this machine's clock when the wait began
        self._seen = 0
        self._then = lambda: self.client.quick_match(name, preset, months, folder=folder)
        return self

    @property
    def me(self) -> Optional[dict]:
        """The ladder's profile of this player (identify's answer)."""
        return self.client.state.me

    def waited(self) -> float:
        return 0.0 if self.queued_at is None else max(0.0, time.monotonic() - self.queued_at)

    def tick(self, dt: float) -> None:
        f = self._future
        if self.stage == "entering" and f is not None and f.done() and f.exception() is not None:
            exc = f.exception()
            self._future = None
            log.warning("quick match refused (%s): %s: %s", self.address, type(exc).__name__, str(exc)[:300])
            self.fail(ladder_error_text(exc, self.address))
        super().tick(dt)
        if self.stage == "closed":
            return
        if self.queued_at is None and self.stage == "open" and self.client.state.queued is not None:
            self.queued_at = time.monotonic()
        if self.client.url != self.url:           # the room is on another server process
            self.url = self.address = self.client.url
        for m in self.messages[self._seen:]:
            if m.get("type") == "unqueued" and m.get("re") is None and self.stage == "open":
                self.fail(unqueued_text(m.get("reason"), self.address))
        self._seen = len(self.messages)


def unqueued_text(reason, address: str) -> str:
    """Why the wait ended without a match (the server's ``unqueued`` reason)."""
    if reason == "elsewhere":
        return _("Your player key started waiting in another window of the game, so this one stopped.")
    said = server_error_text(str(reason), address=address) if reason else None
    return said or _("The server could not make the room for your match: try again.")


class QuickMatchScene(_NameMixin, MenuScene):
    """The choices (name, match server, rules, length), then the wait."""

    def __init__(self, app):
        load_prefs(app)
        self.server_text = PREFS.get("server") or ""
        # this run's last quick-match choice first, else the New match dialog's last one
        last = dict(PREFS.get("_quick") or app.settings.get("last_new_match") or {})
        self.rules_name = last.get("rules", "casual") if last.get("rules") in RULESETS else "casual"
        self.months = last.get("months", RULESETS[self.rules_name].months)
        if self.months not in RULESETS[self.rules_name].months_offered:
            self.months = RULESETS[self.rules_name].months
        self.match: Optional[QuickOnlineMatch] = None
        self.error: Optional[str] = None
        super().__init__(app)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        by = self._form_panel(self.px(196), self.px(1180))
        bh = self.px(78)
        x = self.panel.x + self.px(56)
        inner = self.panel.w - 2 * self.px(56)
        y = self.panel.y + self.px(30)
        name_w = self._place_name_field(x, y, inner)
        sx = x + name_w + self.px(40)
        self.labels = [(_("Your name"), x, y), (_("Match server"), sx, y)]
        self.server_field = self._made_server_field()
        self.server_field.rect = pygame.Rect(sx, y + self.px(36), x + inner - sx, self.px(56))
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Rules"), x, y))
        y += self.px(36)
        self.rules_row = self._rules_row(x, y, inner)
        y += self.px(110 + 26)
        self.labels.append((_("Length"), x, y))
        y += self.px(36)
        self.months_rect = pygame.Rect(x, y, inner, self.px(56))
        self._build_months()
        self.note_y = y + self.px(56 + 26)
        # the buttons: Back, Leaderboard, My profile, Find a match
        gap = self.px(20)
        bw = min(self.px(340), (w - self.px(80) - 3 * gap) // 4)
        self.back_b = self.button((0, by, bw, bh), _("Back"), self.back, style="secondary")
        self.board_b = self.button((0, by, bw, bh), _("Leaderboard"), self.leaderboard, style="secondary",
                                   hotkeys=(pygame.K_l,))
        self.profile_b = self.button((0, by, bw, bh), _("My profile"), self.profile, style="secondary",
                                     hotkeys=(pygame.K_p,))
        self.find_b = self.button((0, by, bw, bh), _("Find a match"), self.start, style="primary",
                                  hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        row = [self.back_b, self.board_b, self.profile_b, self.find_b]
        left = w // 2 - (4 * bw + 3 * gap) // 2
        for i, b in enumerate(row):
            b.rect.x = left + i * (bw + gap)
        self.cancel_b = self.button((0, by, self.px(340), bh), _("Cancel"), self.cancel, style="secondary",
                                    hotkeys=(pygame.K_ESCAPE,))
        self.cancel_b.rect.centerx = w // 2
        self._collect()

    def _build_months(self) -> None:
        self.months_row = months_row(self, self.rules_name, self.months_rect, self.months, self.set_months,
                                     old=getattr(self, "months_row", None))
        self.months = self.months_row.selected

    def _collect(self) -> None:
        if self.searching:
            self.widgets = [self.cancel_b]
        else:
            self.widgets = [self.name_field, self.server_field, self.rules_row, self.months_row,
                            self.back_b, self.board_b, self.profile_b, self.find_b]
        self.focus.set(self.widgets)

    searching = _NameMixin.busy

    # ---------------------------------------------------------- choices
    def set_rules(self, name: str) -> None:
        self.rules_name = name
        if self.months not in RULESETS[name].months_offered:
            self.months = RULESETS[name].months
        self._build_months()
        self._collect()
        PREFS["_quick"] = {"rules": self.rules_name, "months": self.months}

    def set_months(self, m) -> None:
        self.months = m
        PREFS["_quick"] = {"rules": self.rules_name, "months": self.months}

    def _set_server(self, text: str) -> None:
        self.server_text = PREFS["server"] = text

    def _address(self):
        """The typed match server's address, or None (and ``error`` says why)."""
        self.server_field.commit()
        text = self.server_text = PREFS["server"] = self.server_field.text.strip()
        if not text:
            self.error = _("Type the address of the match server: it looks like play.example.org:8765.")
            self.focus.focus(self.server_field)
            return None
        try:
            return parse_address(text)
        except AddressError:
            self.error = _("That server address cannot be right: it looks like play.example.org:8765 "
                           "(or ws://… or wss://… in front).")
            return None

    # ---------------------------------------------------------- going
    def start(self) -> None:
        if self.searching:
            return
        name = self._commit_name()
        self.error = None
        where = self._address()
        save_prefs(self.app)
        if where is None:
            return
        self.match = QuickOnlineMatch(self.app, where.url, address=where.text).quick(
            self.rules_name, self.months, name, folder=player_folder(self.app))
        self._collect()

    def _reading(self, scene: str) -> None:
        self._commit_name()
        self.error = None
        where = self._address()
        save_prefs(self.app)
        if where is not None:
            self.app.open(scene, address=where.text)

    def leaderboard(self) -> None:
        self._reading("leaderboard")

    def profile(self) -> None:
        self._reading("profile")

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Quick match"), self.px(34),
                        subtitle=_("Meet a player of your level on a match server: every quick match moves "
                                   "both ratings."))
        W.draw_panel(surface, self.panel, s=self.s)
        if self.searching:
            self._draw_waiting(surface)
            return
        head = self.font("small", True)
        for text, x, y in self.labels:
            W.draw_text(surface, text.upper(), head, theme.GOLD, (x, y))
        font = self.font("small")
        x, wide = self.name_field.rect.x, self.panel.w - 2 * self.px(56)
        y = self.note_y
        if self.error:
            bold = self.font("small", True)
            for line in W.wrap_text(self.error, bold, wide)[:3]:
                W.draw_text(surface, line, bold, theme.BAD, (x, y))
                y += bold.get_linesize()
            return
        note = _("Players waiting for the same rules and length meet, nearest in rating first. Rooms you "
                 "host for a friend are never rated.")
        for line in W.wrap_text(note, font, wide)[:3]:
            W.draw_text(surface, line, font, theme.CREAM_DIM, (x, y))
            y += font.get_linesize()

    def _draw_waiting(self, surface: pygame.Surface) -> None:
        m = self.match
        cx = self.panel.centerx
        y = max(self.panel.y + self.px(40), self.panel.centery - self.px(230))
        if m.stage in ("connecting", "entering") and m.queued_at is None:
            text = _("Connecting to {address}…").format(address=m.address)
            W.draw_text(surface, W.ellipsize(text, self.font("h3", True), self.panel.w - self.px(60)),
                        self.font("h3", True), theme.GOLD_LIGHT, self.panel.center, "center")
            return
        W.draw_text(surface, _("LOOKING FOR AN OPPONENT"), self.font("small", True), theme.GOLD, (cx, y), "midtop")
        y += self.px(40)
        r = W.draw_text(surface, clock(m.waited()), self.font("display", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        y = r.bottom + self.px(24)
        choice = _("{rules}  ·  {length}").format(
            rules=rules_name(m.preset),
            length=ngettext("{n} month", "{n} months", m.months).format(n=m.months))
        r = W.draw_text(surface, choice, self.font("h3", True), theme.CREAM, (cx, y), "midtop")
        y = r.bottom + self.px(10)
        me = m.me or {}
        if me.get("rating") is not None:
            said = _("{name}, rating {rating}").format(name=me.get("name", ""), rating=me["rating"])
            r = W.draw_text(surface, said, self.font("body"), theme.CREAM_DIM, (cx, y), "midtop")
            y = r.bottom + self.px(6)
        r = W.draw_text(surface, _("on {address}").format(address=m.address), self.font("small"),
                        theme.CREAM_DIM, (cx, y), "midtop")
        y = r.bottom + self.px(26)
        if m.waited() < 60:
            note = _("Players near your rating come first; the range widens the longer you wait.")
        else:
            note = _("Anyone waiting for the same rules and length can be your opponent now.")
        font = self.font("small")
        for line in W.wrap_text(note, font, self.panel.w - self.px(100))[:2]:
            W.draw_text(surface, line, font, theme.CREAM_DIM, (cx, y), "midtop")
            y += font.get_linesize()

    @property
    def animating(self) -> bool:       # the clock of the wait moves every second
        return super().animating or self.searching
