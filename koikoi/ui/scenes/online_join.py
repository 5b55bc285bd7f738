"""Join a match (``JoinScene``): a game found on the local network, or the host's
address and the room code (see ``online``'s docstring for seats taken back and the search).

``PREFS`` is read as ``OT.PREFS`` (the module's attribute, at the moment it is used):
the one dict of what the player typed, which tests replace on ``online_table``."""

from __future__ import annotations

from typing import Optional

import pygame

from ...narration import rules_name
from ...net.discovery import Browser, FoundGame
from ...net.netsession import AddressError, address_text, parse_address, parse_code
from ...session import clean_name
from .. import theme
from .. import widgets as W
from ...i18n import _, ngettext
from . import MenuScene
from . import online_table as OT
from .online_form import _NameMixin
from .online_table import DEFAULT_PORT, OnlineMatch, load_prefs, save_prefs, seat_store, unavailable_text


class JoinScene(_NameMixin, MenuScene):
    """Join a match: a game found on the local network (a click joins it), or the host's
    address (host:port) and the room code; and a name.

    The search (``koikoi.net.discovery.Browser``) runs while this screen is on the stack:
    it starts when the screen is first shown and stops when it leaves."""

    def __init__(self, app, join: Optional[tuple] = None, *, player: Optional[str] = None, auto: bool = False):
        load_prefs(app)
        self.address = OT.PREFS.get("address") or f"127.0.0.1:{DEFAULT_PORT}"
        self.code_text = OT.PREFS.get("code") or ""
        if join is not None:
            host, port, code = join            # a parse_join result (wss:// kept as .secure), or a tuple
            self.address = address_text(host, port, secure=bool(getattr(join, "secure", False)))
            self.code_text = code
        if player:
            try:
                OT.PREFS["name"] = clean_name(player)
            except ValueError:
                pass
        self.match: Optional[OnlineMatch] = None
        self.error: Optional[str] = None
        self.browser: Optional[Browser] = None
        self.game_buttons: list = []
        self._rows: dict = {}                   # (game, row) -> its button, kept while it is shown
        self._games_seen = None                 # (browser version, state) last shown
        self.more_games = 0
        super().__init__(app)
        if auto:
            self.start()

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        fs = theme.font_px("body", self.s)
        by = self._form_panel(self.px(175), self.px(1560))
        self.panel.h = max(self.px(200), min(self.panel.h, self.px(700)))
        bw, bh = self.px(340), self.px(78)
        pad, gap = self.px(48), self.px(56)
        inner = self.panel.w - 2 * pad
        left = min(self.px(600), (inner - gap) * 9 // 20)
        x = self.panel.x + pad
        y = self.panel.y + self.px(30)
        self.left_w = left
        self.labels = []
        old = {k: getattr(self, k, None) for k in ("address_field", "code_field", "name_field")}
        self.labels.append((_("Address of the host"), x, y))
        self.address_field = old["address_field"] or W.TextField(
            (0, 0, 1, 1), self.address, self._set_address, max_len=80, placeholder="192.168.1.20:8765",
            assets=a, font_size=fs)
        self.address_field.rect = pygame.Rect(x, y + self.px(36), left, self.px(56))
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Room code"), x, y))
        self.code_field = old["code_field"] or W.TextField(
            (0, 0, 1, 1), self.code_text, self._set_code, max_len=16, placeholder="KOI-4821", assets=a,
            font_size=fs)
        self.code_field.rect = pygame.Rect(x, y + self.px(36), min(left, self.px(320)), self.px(56))
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Your name"), x, y))
        self.name_field = old["name_field"] or self._name_field((0, 0, 1, 1))
        self.name_field.rect = pygame.Rect(x, y + self.px(36), left, self.px(56))
        y += self.px(36 + 56 + 30)
        self.message_y = y
        # the games found on the local network, right of the fields
        rx = x + left + gap
        self.divider_x = x + left + gap // 2
        self.lan_rect = pygame.Rect(rx, self.panel.y + self.px(30), self.panel.right - pad - rx,
                                    self.panel.h - self.px(30 + 26))
        self.labels.append((_("Games on your local network"), rx, self.lan_rect.y))
        self.row_h, self.row_gap = self.px(88), self.px(12)
        self.rows_y = self.lan_rect.y + self.px(40)
        room = self.lan_rect.bottom - self.px(40) - self.rows_y + self.row_gap
        self.lan_rows = max(1, room // (self.row_h + self.row_gap))
        self.join_b = self._bottom_buttons(_("Join"), by, bw, bh)
        self._rows = {}
        self._games_seen = None
        self._sync_games()

    def _collect(self) -> None:
        if self.joining:
            self.widgets = [self.cancel_b]
        else:
            self.widgets = [*self.game_buttons, self.address_field, self.code_field, self.name_field,
                            self.back_b, self.join_b]
        self.focus.set(self.widgets)

    joining = _NameMixin.busy
    leave_on_failure = False      # nothing to leave: no seat was taken

    # ---------------------------------------------------------- the search
    def enter(self) -> None:
        super().enter()
        if self.browser is None:
            self.browser = Browser().start()
            self._games_seen = None

    def exit(self) -> None:
        self.stop_searching()
        super().exit()

    def on_quit(self) -> None:
        b = self.browser
        self.stop_searching()
        if b is not None:
            b.join(3.0)
        super().on_quit()

    def stop_searching(self) -> None:
        """Stop the search (at once: the browser's thread closes zeroconf by itself)."""
        if self.browser is not None:
            self.browser.stop()

    def update(self, dt: float) -> None:
        super().update(dt)
        self._sync_games()

    def games(self) -> tuple:
        return self.browser.games() if self.browser is not None else ()

    def _sync_games(self) -> None:
        """The list follows the browser's snapshot (rebuilt only when it changed)."""
        b = self.browser
        seen = (b.version, b.state) if b is not None else None
        if seen == self._games_seen and self._games_seen is not None:
            return
        self._games_seen = seen
        games = self.games()
        shown = games[:self.lan_rows]
        self.more_games = len(games) - len(shown)
        rows = {}
        for i, g in enumerate(shown):
            btn = self._rows.get((g, i))
            if btn is None:
                r = (self.lan_rect.x, self.rows_y + i * (self.row_h + self.row_gap), self.lan_rect.w, self.row_h)
                label = _("{name}  ·  {code}").format(name=g.name, code=g.code)
                sub = (_("{rules}  ·  {address}").format(rules=rules_name(g.rules), address=g.address)
                       if g.compatible else _("Another version of the game: it cannot join this one"))
                btn = self.button(r, label, lambda g=g: self.join_found(g), style="secondary", sublabel=sub,
                                  enabled=g.compatible)
            rows[(g, i)] = btn
        self._rows = rows
        self.game_buttons = list(rows.values())
        self._collect()

    def search_text(self) -> tuple[str, tuple]:
        """What the list says of the search: (text, colour)."""
        b = self.browser
        state = b.state if b is not None else "off"
        if state == "unavailable":
            return (unavailable_text(b) + " "
                    + _("Type the address and the code instead."), theme.BAD)
        if state == "stopped":
            return _("The search has stopped: go back and open Join again to search again."), theme.CREAM_DIM
        if self.more_games:
            return ngettext("{n} more game was found than fits here.", "{n} more games were found than fit here.",
                            self.more_games).format(n=self.more_games), theme.CREAM_DIM
        if self.game_buttons:
            return _("Click a game to join it."), theme.CREAM_DIM
        if state == "off":
            return _("Local network search is off: type the address and the code."), theme.CREAM_DIM
        return _("Searching for games on your local network…"), theme.CREAM_DIM

    def join_found(self, game: FoundGame) -> None:
        """Join a game from the list: its address and its code, then Join."""
        if self.joining:
            return
        if not game.compatible:
            self.error = _("That game is another version of Koi-Koi: it cannot be joined from this one.")
            return
        self.address_field.set_text(game.address)
        self.code_field.set_text(game.code)
        self._set_address(game.address)
        self._set_code(game.code)
        self.start()

    # ---------------------------------------------------------- fields
    def _set_address(self, text: str) -> None:
        self.address = OT.PREFS["address"] = text

    def _set_code(self, text: str) -> None:
        self.code_text = OT.PREFS["code"] = text

    def _typed(self, f: W.TextField) -> str:
        return f.buffer if f.editing else f.text

    def start(self) -> None:
        """Check the address and the code, then connect and take the free seat."""
        if self.joining:
            return
        for f in (self.address_field, self.code_field, self.name_field):
            f.commit()
        address, code = self._typed(self.address_field).strip(), self._typed(self.code_field).strip()
        if "/" in address and not code:          # "host:port/KOI-4821" pasted whole
            address, _sep, code = address.rpartition("/")
        try:
            where = parse_address(address)          # ws:// or wss:// (TLS) kept as .secure
        except AddressError:
            self.error = _("That address cannot be right: it looks like 192.168.1.20:8765.")
            return
        try:
            code = parse_code(code)
        except AddressError:
            self.error = _("That room code cannot be right: it looks like KOI-4821.")
            return
        self.error = None
        name = self.typed_name()
        OT.PREFS.update(name=name, address=address, code=code)
        save_prefs(self.app)
        self.code_field.set_text(code)
        self.code_text = code
        store = seat_store(self.app)
        kept = store.find(where.text, code) if store is not None else None
        match = OnlineMatch(self.app, where.url, address=address)
        # a seat kept from an earlier run in this room: take it back instead of joining anew
        self.match = match.resume(kept) if kept is not None else match.join(code, name)
        self._collect()

    def stale_text(self, m: OnlineMatch) -> str:
        return _("The server no longer keeps your seat in {code} (the match ended, or the server was reset). "
                 "Press Join to join it as a new player.").format(code=m.resuming.room)

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Join a match"), self.px(34),
                        subtitle=_("Click a game found on your local network, or type the address and the "
                                   "room code the host's screen shows."))
        W.draw_panel(surface, self.panel, s=self.s)
        cx = self.panel.centerx
        if self.joining:
            text = _("Connecting to {address}…").format(address=self.match.address)
            if self.match.stage in ("entering", "open"):
                text = _("Joining {code}…").format(code=self.code_text)
                if self.match.resuming is not None:
                    text = _("Taking back your seat in {code}…").format(code=self.code_text)
            W.draw_text(surface, W.ellipsize(text, self.font("h3", True), self.panel.w - self.px(60)),
                        self.font("h3", True), theme.GOLD_LIGHT, (cx, self.panel.centery), "center")
            return
        head = self.font("small", True)
        for text, x, y in self.labels:
            W.draw_text(surface, text.upper(), head, theme.GOLD, (x, y))
        pygame.draw.line(surface, theme.darken(theme.GOLD, 0.55), (self.divider_x, self.panel.y + self.px(30)),
                         (self.divider_x, self.panel.bottom - self.px(30)), max(1, self.px(2)))
        font = self.font("small")
        said, color = self.search_text()
        if self.game_buttons:
            y = self.lan_rect.bottom - font.get_linesize()
            W.draw_text(surface, W.ellipsize(said, font, self.lan_rect.w), font, color, (self.lan_rect.x, y))
        else:
            y = self.rows_y + self.px(10)
            for line in W.wrap_text(said, font, self.lan_rect.w)[:4]:
                W.draw_text(surface, line, font, color, (self.lan_rect.x, y))
                y += font.get_linesize()
        if self.error:
            font = self.font("small", True)
            y = self.message_y
            for line in W.wrap_text(self.error, font, self.left_w)[:3]:
                W.draw_text(surface, line, font, theme.BAD, (self.address_field.rect.x, y))
                y += font.get_linesize()
