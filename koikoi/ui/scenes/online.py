"""Play online: the Play online menu and Host a match (Join a match: ``online_join.py``; the
table itself: ``online_table.py``, ``online_scenes.py``).

    Title -> "Play online" (OnlineScene) -> Host a match (HostScene) / Join a match (JoinScene)
                                          -> Quick match (``quickmatch.py``: the server's ladder)

A seat kept from an earlier run (``koikoi.net.seats``: the game was closed or killed
in the middle of a match) is taken back: Join with the address and code of a room
where this player holds a seat reconnects with its token instead of joining anew, and
the Host screen offers "Resume your match KOI-4821 with Haru", which starts the
in-game server again on the same port and folder (the server restores the room from
its database; the guest's game reconnects to that address by itself).

Host a match can also create the room on a match server elsewhere (``koikoi serve``;
"Where the match runs: A match server", or ``koikoi --host --server HOST:PORT``): no
server runs in the game, the waiting screen shows that server's address, nothing is
announced on the local network, and the seat is kept like a joined one (``net.seats``):
Join with the server's address and the code takes it back. An address written
``wss://host:port`` connects over TLS (websockets' default certificate checks).

Games on the local network (``koikoi.net.discovery``, zeroconf): the Host screen
announces its room while it waits for the guest (it stops when the match starts or the
host leaves); the Join screen lists the games it finds while it is open (a click joins
one), beside the address and code fields that work without it. Discovery is off under
tests, CI and a headless video driver unless KOIKOI_DISCOVERY turns it on.
"""

from __future__ import annotations

import errno
import logging
import tempfile
from pathlib import Path
from typing import Optional

import pygame

from ...engine import RULESETS
from ...net.discovery import Announcer, RoomAd
from ...net.netsession import AddressError, HostedServer, parse_address
from ...storage import valid_house_rules
from .. import theme
from .. import widgets as W
from ...i18n import _
from . import MenuScene, opens
from .newmatch import months_row, preset_line
from .rules_panel import changed_text, count_changes

from .online_errors import os_error_kind
from .online_form import _NameMixin
from .online_join import JoinScene
from .online_table import (  # noqa: F401  (the table's scenes and the shared fields, re-exported)
    DEFAULT_PORT, PREFS, LinkScene, OnlineMatch, OnlineOyagimeScene, OnlinePauseScene, OnlineResultsScene,
    OnlineRoundScene, clock, default_name, load_prefs, save_prefs, seat_store, table_scene, unavailable_text)

log = logging.getLogger("koikoi.online")


# ------------------------------------------------------------------ the screens before the table

def server_start_text(exc: BaseException, port: int = 0) -> str:
    """Why the match server in this game could not start (on ``port``, 0: any free one),
    from the error's type and errno; the raw text is for the log."""
    kind = os_error_kind(exc)
    folder = getattr(exc, "filename", None)
    if kind == "in_use" and port:
        return _("The match server could not start: port {port} is taken by another program.").format(port=port)
    if kind == "no_space":
        return _("The match server could not start: the disk is full.")
    if folder:
        return _("The match server could not start: the game may not write to its folder {folder}.").format(
            folder=str(folder)[-80:])
    if kind == "denied":
        if port:
            return _("The match server could not start: this computer does not let the game use port "
                     "{port}.").format(port=port)
        return _("The match server could not start: this computer does not let the game take "
                 "connections.")
    if kind == "timeout":
        return _("The match server did not start in time: try again.")
    return _("The match server could not start (see the log).")


class OnlineScene(MenuScene):
    """Play online: Quick match (a stranger of your level, rated), Host a match, or Join one."""

    def layout(self) -> None:
        w, h = self.size
        bw, bh, gap = min(self.px(560), w - self.px(80)), self.px(110), self.px(26)
        y = max(self.px(200), h // 2 - (3 * bh + 2 * gap) // 2 - self.px(10))
        self.quick_b = self.button((0, y, bw, bh), _("Quick match"), self.quick, style="primary",
                                   sublabel=_("Meet a player of your level on a match server, rated"),
                                   hotkeys=(pygame.K_q,))
        y += bh + gap
        self.host_b = self.button((0, y, bw, bh), _("Host a match"), self.host, style="primary",
                                  sublabel=_("On this computer or on a match server; a friend joins with its code"),
                                  hotkeys=(pygame.K_h,))
        self.join_b = self.button((0, y + bh + gap, bw, bh), _("Join a match"), self.join, style="primary",
                                  sublabel=_("A game on your local network, or the address and code the host shows"),
                                  hotkeys=(pygame.K_j,))
        self.back_b = self.button((0, y + 2 * (bh + gap) + self.px(20), self.px(300), self.px(72)), _("Back"),
                                  self.back, style="secondary", hotkeys=(pygame.K_BACKSPACE,))
        for b in (self.quick_b, self.host_b, self.join_b, self.back_b):
            b.rect.centerx = w // 2
        self.widgets = [self.quick_b, self.host_b, self.join_b, self.back_b]
        self.focus.set(self.widgets)

    quick = opens("quickmatch")
    host = opens("online_host")
    join = opens("online_join")

    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Play online"), self.px(60),
                        subtitle=_("Meet a player of your level, or play a friend: one hosts, the other joins."))


class HostScene(_NameMixin, MenuScene):
    """Host a match: the rules (the last New match choice by default), where the match
    runs, then the room code and the addresses to share while waiting for the other player.

    Where the match runs: "This computer" starts a match server inside the game (and
    who may connect: this computer only, or the local network); "A match server" creates
    the room on a server elsewhere (``koikoi serve``) at the typed address (host:port,
    ws://host:port or wss://host:port for TLS). ``server``: that address given on the
    command line (``koikoi --host --server HOST:PORT``), chosen and filled in."""

    def __init__(self, app, server: Optional[str] = None):
        load_prefs(app)
        self.where = "server" if PREFS.get("where") == "server" else "here"
        self.server_text = PREFS.get("server") or ""
        if server:
            self.where = PREFS["where"] = "server"
            self.server_text = PREFS["server"] = server
        last = dict(app.settings.get("last_new_match") or {})
        self.rules_name = last.get("rules", "casual") if last.get("rules") in RULESETS else "casual"
        preset = RULESETS[self.rules_name]
        self.months = last.get("months", preset.months)
        if self.months not in preset.months_offered:
            self.months = preset.months
        self.last_house = (self.rules_name, valid_house_rules(self.rules_name, last.get("house")))
        self.house = dict(self.last_house[1])
        self.lan = bool(PREFS.get("lan"))
        self.match: Optional[OnlineMatch] = None
        self.error: Optional[str] = None
        self.months_row = None
        self.host_name = ""
        self.announcer: Optional[Announcer] = None
        self._announced: Optional[OnlineMatch] = None     # the match the announcer is for
        self.resume_seat = self._resumable(app)            # an unfinished hosted match to resume
        self.port_taken = False                            # its port was taken: offer a new one
        self.resume_b = self.new_port_b = None
        super().__init__(app)

    def _resumable(self, app=None):
        """The newest unfinished match this game hosted (None in a read-only window: its
        server's folder would not be the one the match is kept in)."""
        app = app or self.app
        if getattr(app, "read_only", False):
            return None
        store = seat_store(app)
        found = store.hosted() if store is not None else []
        return found[0] if found else None

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        fs = theme.font_px("body", self.s)
        top = self.px(130)
        pw = min(w - self.px(80), self.px(1180))
        self.resume_b = self.new_port_b = None
        seat = self.resume_seat
        if seat is not None:
            rh = self.px(96)
            rw = pw if not self.port_taken else (pw - self.px(20)) * 3 // 5
            label = _("Resume your match {code} with {name}").format(
                code=seat.room, name=seat.opponent or _("your guest"))
            sub = _("It goes on where it stopped, on port {port}").format(port=seat.port)
            self.resume_b = self.button(((w - pw) // 2, top, rw, rh), label, self.resume, style="primary",
                                        sublabel=sub, enabled=not self.port_taken,
                                        hotkeys=() if self.port_taken else (pygame.K_RETURN, pygame.K_KP_ENTER))
            if self.port_taken:
                self.new_port_b = self.button((self.resume_b.rect.right + self.px(20), top,
                                               pw - rw - self.px(20), rh), _("Resume on a new port"),
                                              self.resume_new_port, style="primary",
                                              sublabel=_("Tell your guest the new address"))
            top += rh + self.px(16)
        by = self._form_panel(top, pw)
        bw, bh = self.px(340), self.px(78)
        x = self.panel.x + self.px(56)
        inner = self.panel.w - 2 * self.px(56)
        y = self.panel.y + self.px(30)
        self.labels = [(_("Your name"), y)]
        name_w = self._place_name_field(x, y, inner)
        wx = x + name_w + self.px(40)
        self.where_x = wx
        self.where_row = W.ChoiceRow((wx, y + self.px(36), x + inner - wx, self.px(56)),
                                     [("here", _("This computer")), ("server", _("A match server"))],
                                     self.where, self.set_where, gap=self.px(10), assets=a, font_size=fs)
        self.label_where = (_("Where the match runs"), y)
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Rules"), y))
        y += self.px(36)
        self.rules_row = self._rules_row(x, y, inner)
        y += self.px(110 + 14)
        self.detail_y = y
        y += self.px(44)
        self.labels.append((_("Length"), y))
        y += self.px(36)
        self.months_rect = pygame.Rect(x, y, inner, self.px(56))
        self._build_months()
        y += self.px(56 + 26)
        self.lan_toggle = W.Toggle((x, y, self.px(86), self.px(44)), self.lan, self.set_lan, assets=a)
        self.lan_y = y + self.px(22)
        self.server_field = self._made_server_field()
        self.server_label_y = y
        self.server_field.rect = pygame.Rect(x, y + self.px(36), min(inner * 11 // 20, self.px(560)),
                                             self.px(56))
        self._show_where()
        self.host_b = self._bottom_buttons(_("Host a new match") if seat is not None else _("Host the match"),
                                           by, bw, bh)
        if seat is not None:            # the resume is the primary choice; a new match is the other one
            self.host_b.style = "secondary"
            self.host_b.hotkeys = ()
        self._collect()

    def _build_months(self) -> None:
        self.months_row = months_row(self, self.rules_name, self.months_rect, self.months, self.set_months)
        self.months = self.months_row.selected

    def _collect(self) -> None:
        if self.hosting:
            self.widgets = [self.cancel_b]
        else:
            resume = [b for b in (self.resume_b, self.new_port_b) if b is not None]
            here = self.where == "here"
            self.widgets = [*resume, self.name_field, self.where_row, self.rules_row, self.months_row,
                            self.lan_toggle if here else self.server_field, self.back_b, self.host_b]
        self.focus.set(self.widgets)

    hosting = _NameMixin.busy

    # ---------------------------------------------------------- choices
    def set_rules(self, name: str) -> None:
        self.rules_name = name
        self.house = dict(self.last_house[1]) if name == self.last_house[0] else {}
        if self.months not in RULESETS[name].months_offered:
            self.months = RULESETS[name].months
        self._build_months()
        self._collect()

    def set_months(self, m) -> None:
        self.months = m

    def set_lan(self, on: bool) -> None:
        self.lan = PREFS["lan"] = bool(on)

    def set_where(self, where: str) -> None:
        """This computer's server, or a match server elsewhere (its address field)."""
        self.where = PREFS["where"] = "server" if where == "server" else "here"
        self.where_row.selected = self.where
        self.error = None
        self._show_where()
        self._collect()
        if self.where == "server" and not self.server_field.text:
            self.focus.focus(self.server_field)
            self.server_field.begin()

    def _show_where(self) -> None:
        server = self.where == "server"
        self.server_field.visible = server
        self.lan_toggle.visible = not server
        if not server and self.server_field.editing:
            self.server_field.commit()

    def _set_server(self, text: str) -> None:
        self.server_text = PREFS["server"] = text

    # ---------------------------------------------------------- hosting
    def start(self) -> None:
        if self.hosting:
            return
        name = self._commit_name()
        if self.where == "server":
            self.server_field.commit()
            self.server_text = PREFS["server"] = self.server_field.text.strip()
        save_prefs(self.app)
        self.error = None
        self.host_name = name
        months = None if self.house.get("months", 0) is None else self.months
        rules = {"preset": self.rules_name, "house": dict(self.house)}
        if self.where == "server":
            self.host_on_server(rules, months, name)
            return
        try:
            hosted = HostedServer(self._data_dir(), lan=self.lan).start()
        except OSError as exc:
            log.warning("the match server could not start: %s: %s", type(exc).__name__, exc)
            self.error = server_start_text(exc)
            return
        self.match = OnlineMatch(self.app, hosted.url, hosted=hosted, address=hosted.url).host(
            rules, months, name, label=self.rules_name)
        self._collect()

    def host_on_server(self, rules: dict, months, name: str) -> None:
        """Create the room on the match server at the typed address (no server in this
        game): the seat is kept as a joined one under that address (``net.seats``)."""
        text = self.server_text
        if not text:
            self.error = _("Type the address of the match server: it looks like play.example.org:8765.")
            return
        try:
            a = parse_address(text)
        except AddressError:
            self.error = _("That server address cannot be right: it looks like play.example.org:8765 "
                           "(or ws://… or wss://… in front).")
            return
        self.match = OnlineMatch(self.app, a.url, address=a.text).host(rules, months, name, label=self.rules_name)
        self._collect()

    # ---------------------------------------------------------- resuming a hosted match
    def resume(self, new_port: bool = False) -> None:
        """Start the server again on the stored match's port and folder (it restores the
        room from its database) and take the host's seat back with its token."""
        seat = self.resume_seat
        if self.hosting or seat is None:
            return
        self.error = None
        port = 0 if new_port else seat.port
        try:
            hosted = HostedServer(self._data_dir(), lan=seat.lan, port=port).start()
        except OSError as exc:
            log.warning("the match server could not start on port %s: %s: %s", port, type(exc).__name__, exc)
            if not new_port and exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1), errno.EACCES):
                self.port_taken = True
                self.error = _("Port {port} is taken by another program, so the match cannot go on there. "
                               "Resume it on a new port: {name} then needs the new address.").format(
                    port=seat.port, name=seat.opponent or _("your guest"))
                self.layout()
            else:
                self.error = server_start_text(exc, port)
            return
        self.host_name = seat.name
        self.match = OnlineMatch(self.app, hosted.url, hosted=hosted, address=hosted.url).resume(seat)
        if new_port:
            self.app.toast(_("Your match {code} is now at {address}: {name} joins it there with the same "
                             "code.").format(code=seat.room, address=", ".join(hosted.addresses()[:2]),
                                             name=seat.opponent or _("your guest")), 12.0, "info")
        self._collect()

    def resume_new_port(self) -> None:
        self.resume(new_port=True)

    def stale_text(self, m: OnlineMatch) -> str:
        return _("The match {code} is no longer kept by this game's server (it ended, or its folder was "
                 "reset): host a new match.").format(code=m.resuming.room)

    def failed(self, m: OnlineMatch) -> None:
        if m.stale:
            self.resume_seat = self._resumable()
            self.port_taken = False
            self.layout()

    # ---------------------------------------------------------- announcing on the local network
    def update(self, dt: float) -> None:
        super().update(dt)
        self.tend_announcer()

    def tend_announcer(self) -> None:
        """Announce the room while it waits for the guest; stop once it does not."""
        m = self.match
        waiting = m is not None and m.stage == "open" and m.code is not None and m.hosted is not None
        # a room on a match server elsewhere is never announced: the local network is not where it runs
        if waiting and self._announced is not m:
            self.stop_announcing()
            hosted = m.hosted
            addresses = tuple(a.rpartition(":")[0] for a in hosted.addresses())
            rules = m.resuming.rules if m.resuming is not None and m.resuming.rules in RULESETS else self.rules_name
            ad = RoomAd(code=m.code, name=self.host_name or self.typed_name(), rules=rules,
                        port=hosted.port, addresses=addresses)
            self.announcer = Announcer(ad, lan=self.lan).start()
            self._announced = m
        elif not waiting and self.announcer is not None:
            self.stop_announcing()

    def stop_announcing(self) -> None:
        """Stop announcing (at once: the goodbye is sent on the announcer's thread)."""
        if self.announcer is not None:
            self.announcer.stop()
        self.announcer = None
        self._announced = None

    def cancel(self) -> None:
        self.stop_announcing()
        super().cancel()

    def exit(self) -> None:
        self.stop_announcing()
        super().exit()

    def on_quit(self) -> None:
        a = self.announcer
        self.stop_announcing()
        if a is not None:
            a.join(3.0)
        super().on_quit()

    def announce_text(self) -> Optional[str]:
        """What the waiting screen says of the local network (None: nothing to say)."""
        a = self.announcer
        if a is None:
            return None
        if a.state == "off":
            return _("Not announced on the local network (discovery is turned off).")
        if a.state == "unavailable":
            return unavailable_text(a)
        if a.state == "stopped":
            return _("No longer announced on the local network: share the address and the code.")
        if a.state == "announcing":
            if a.lan:
                return _("Announced on your local network: it shows in the Join list of a game there.")
            return _("Announced on this computer: it shows in the Join list of a game here.")
        return _("Announcing on the local network…")

    def _data_dir(self):
        if getattr(self.app, "read_only", False):
            return Path(tempfile.mkdtemp(prefix="koikoi-host-"))
        return Path(self.app.storage.data_dir) / "server"

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Host a match"), self.px(34))
        W.draw_panel(surface, self.panel, s=self.s)
        if self.hosting:
            self._draw_waiting(surface)
            return
        head = self.font("small", True)
        for text, y in self.labels:
            W.draw_text(surface, text.upper(), head, theme.GOLD, (self.name_field.rect.x, y))
        text, y = self.label_where
        W.draw_text(surface, text.upper(), head, theme.GOLD, (self.where_x, y))
        font = self.font("small")
        x = self.rules_row.rect.x
        room = self.rules_row.rect.w
        text = preset_line(self.rules_name)
        n = count_changes(self.house)
        if n:
            text = _("{rules}  ·  {changes} (from your last new match)").format(rules=text, changes=changed_text(n))
        W.draw_text(surface, W.ellipsize(text, font, room), font, theme.CREAM_DIM, (x, self.detail_y))
        if self.where == "server":
            t = self.server_field.rect
            W.draw_text(surface, _("Address of the match server").upper(), head, theme.GOLD,
                        (t.x, self.server_label_y))
            hint = _("The match server's address: host:port, or wss://host:port for an encrypted one.")
            room = self.panel.right - t.right - self.px(80)
            lines = W.wrap_text(hint, font, room)[:2]
            y = t.centery - font.get_linesize() * len(lines) // 2
            for line in lines:
                W.draw_text(surface, line, font, theme.CREAM_DIM, (t.right + self.px(20), y))
                y += font.get_linesize()
        else:
            t = self.lan_toggle.rect
            lan = (_("Players on my local network may join") if self.lan else
                   _("Only this computer may join (turn on for the local network)"))
            W.draw_text(surface, W.ellipsize(lan, self.font("body"), self.panel.right - t.right - self.px(80)),
                        self.font("body"), theme.CREAM, (t.right + self.px(20), self.lan_y), "midleft")
        if self.error:
            lines = W.wrap_text(self.error, font, self.panel.w - self.px(80))[:3]
            y = self.panel.bottom - self.px(22) - font.get_linesize() * len(lines)
            for line in lines:
                W.draw_text(surface, line, font, theme.BAD, (self.panel.centerx, y), "midtop")
                y += font.get_linesize()

    def _draw_waiting(self, surface: pygame.Surface) -> None:
        m = self.match
        cx = self.panel.centerx
        y = self.panel.y + self.px(40)
        if m.code is None:
            text = (_("Creating the room on {address}…").format(address=m.address) if m.on_server
                    else _("Starting the match server…"))
            W.draw_text(surface, W.ellipsize(text, self.font("h3", True), self.panel.w - self.px(60)),
                        self.font("h3", True), theme.CREAM, (cx, self.panel.centery), "center")
            return
        W.draw_text(surface, _("ROOM CODE"), self.font("small", True), theme.GOLD, (cx, y), "midtop")
        y += self.px(36)
        r = W.draw_text(surface, m.code, self.font("display", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        y = r.bottom + self.px(30)
        W.draw_text(surface, _("ADDRESS TO SHARE"), self.font("small", True), theme.GOLD, (cx, y), "midtop")
        y += self.px(36)
        addrs = m.hosted.addresses() if m.hosted is not None else [m.address]
        for a in addrs[:3]:
            r = W.draw_text(surface, a, self.font("h3", True), theme.CREAM, (cx, y), "midtop")
            y = r.bottom + self.px(6)
        if m.on_server:
            note = _("The other player types this address and the code in Join a match. It is not announced "
                     "on your local network: only a match on this computer's server is.")
        elif self.lan:
            note = _("Players on your local network can join with this address and the code.")
        else:
            note = _("Only a game on this computer can join: go back and allow the local network for another one.")
        y += self.px(14)
        for line in W.wrap_text(note, self.font("small"), self.panel.w - self.px(100))[:3]:
            W.draw_text(surface, line, self.font("small"), theme.CREAM_DIM, (cx, y), "midtop")
            y += self.font("small").get_linesize()
        said = self.announce_text()
        if said:
            a = self.announcer
            color = theme.BAD if a is not None and a.state == "unavailable" else theme.GOLD_LIGHT
            y += self.px(8)
            W.draw_text(surface, W.ellipsize(said, self.font("small"), self.panel.w - self.px(100)),
                        self.font("small"), color, (cx, y), "midtop")
        dots = "…"
        text = _("Waiting for a player to join {code}{dots}").format(code=m.code, dots=dots)
        W.draw_text(surface, text, self.font("h3", True), theme.GOLD_LIGHT,
                    (cx, self.panel.bottom - self.px(40)), "midbottom")



__all__ = ["OnlineMatch", "OnlineScene", "HostScene", "JoinScene", "OnlineRoundScene", "OnlineOyagimeScene",
           "OnlineResultsScene", "OnlinePauseScene", "LinkScene", "PREFS", "clock", "table_scene"]
