"""Play online: host a match or join one, then the usual table fed by the network.

    Title -> "Play online" (OnlineScene) -> Host a match (HostScene) / Join a match (JoinScene)

``OnlineMatch`` is one match over the network: a ``ThreadedClient`` (and, for the
host, the ``HostedServer`` this game runs on a free port) and its ``NetSession``.
It is an app ticker (``app.tickers``): every frame, whatever screen is on top, it
polls the session, opens the table when both players are in, and shows the
connection's trouble over the table (``LinkScene``): "Reconnecting…" when this
side's connection dropped, "Waiting for Haru (0:42)" when the other side's did (with
"Claim the match" once the server allows it, and "Keep waiting"), "The server is
gone", and a match won or lost by forfeit. When no screen shows the match any more
(the player went back to the title) it leaves the room and shuts everything down.

The table is the normal ``RoundScene`` (and ``OyagimeScene`` for the draw for
dealer) with four online differences, in subclasses here: Escape and Menu open
``OnlinePauseScene`` (there is nothing to save or concede locally: the match is the
server's), the draw for dealer goes on to the online table, its prompt names the
other player while they choose, and the end of the match opens
``OnlineResultsScene``: the usual results, without Replay (the other player's hand
never reached this machine, so a round cannot be shown face up).

Local-network discovery (zeroconf) is not built: a player joins with the address and
the code the host shows.
"""

from __future__ import annotations

import logging
import time
from typing import Optional

import pygame

from ...engine import PRESET_LABELS, RULESETS
from ...engine.phase import Phase
from ...net.netsession import (REMOTE, AddressError, HostedServer, NetSession, parse_address,
                               parse_code, url_of)
from ...session import MAX_NAME_LEN, clean_name
from .. import theme
from .. import widgets as W
from ..table import _
from . import MenuScene
from .ledger import MatchResultsScene
from .oyagime import OyagimeScene
from .round import RoundScene

log = logging.getLogger("koikoi.online")

RECONNECT_FOR = 90.0            # seconds a dropped connection keeps trying before "lost"
DEFAULT_PORT = 8765

# What the player typed last, for the next visit to these screens (this run only: the
# settings file keeps only the settings it knows).
PREFS: dict = {"name": None, "address": "", "code": "", "lan": False}


def clock(seconds: float) -> str:
    """0:42, 12:05."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def default_name(app) -> str:
    if PREFS.get("name"):
        return PREFS["name"]
    names = app.settings.get("friend_names") or []
    try:
        return clean_name(names[0])
    except (ValueError, TypeError, IndexError):
        return _("Player")


def _failure_text(exc: BaseException, address: str) -> str:
    from ...net.client import ServerError
    if isinstance(exc, ServerError):
        return _("The server refused: {reason}.").format(reason=exc.message.rstrip("."))
    if isinstance(exc, (ConnectionError, OSError, TimeoutError)) or type(exc).__name__ in (
            "InvalidURI", "InvalidHandshake", "InvalidStatus", "TimeoutError"):
        return _("Nobody answers at {address}: check the address, and that the host's game is open.").format(
            address=address)
    return _("The connection failed: {reason}.").format(reason=str(exc)[:120] or type(exc).__name__)


# ------------------------------------------------------------------ one match over the network

class OnlineMatch:
    """A client (and, hosting, a server) for one online match; see the module docstring.

    ``stage``: connecting, entering (creating or joining the room), open (the host
    waits for a player), playing (the table is shown), failed (``error`` says why),
    closed."""

    def __init__(self, app, url: str, *, hosted: Optional[HostedServer] = None, address: str = ""):
        from ...net.client import ThreadedClient
        self.app = app
        self.url = url
        self.hosted = hosted
        self.address = address or url
        self.client = ThreadedClient(url, reconnect_for=RECONNECT_FOR)
        self.session = NetSession(self.client, you=_("You"))
        self.stage = "connecting"
        self.error: Optional[str] = None
        self._future = self.client.connect()
        self._then = None
        self.link_scene: Optional["LinkScene"] = None
        self.keep_waiting = False          # the player chose Keep waiting for this absence
        self._claim_seen = False           # the claim question was asked for this absence
        self._claim_future = None
        self.closer = None
        self.messages: list = []           # every message polled (tests read it)
        app.tickers.append(self.tick)

    # ---------------------------------------------------------- starting
    def host(self, rules: dict, months, name: str, spectators: bool = False) -> "OnlineMatch":
        self._then = lambda: self.client.create_room(rules, months=months, name=name, spectators=spectators)
        return self

    def join(self, code: str, name: str) -> "OnlineMatch":
        self._then = lambda: self.client.join(code, name)
        return self

    @property
    def code(self) -> Optional[str]:
        return self.session.room

    def fail(self, text: str) -> None:
        self.stage, self.error = "failed", text
        log.info("online match failed: %s", text)

    # ---------------------------------------------------------- every frame
    def tick(self, dt: float) -> None:
        if self.stage == "closed":
            return
        self.messages += self.session.poll()
        f = self._future
        if f is not None and f.done():
            self._future = None
            exc = f.exception()
            if exc is not None:
                self.fail(_failure_text(exc, self.address))
            elif self.stage == "connecting" and self._then is not None:
                self.stage = "entering"
                self._future = self._then()
            elif self.stage == "entering":
                self.stage = "open"
        if self.stage == "open" and self.session.status == "playing" and self.session.state.events:
            self.open_table()
        elif self.stage in ("connecting", "entering", "open") and self.session.link == "lost":
            self.fail(_("The connection to the server was lost."))
        if not self._shown():          # the player left its screens (or they were never shown)
            self.close()
            return
        if self.stage == "playing":
            self._update_link_scene()
        if self._claim_future is not None and self._claim_future.done():
            exc = self._claim_future.exception()
            self._claim_future = None
            if exc is not None:
                self.app.toast(_("The match could not be claimed: {reason}").format(
                    reason=getattr(exc, "message", str(exc))[:120]), 5.0, "warning")

    def _shown(self) -> bool:
        """Whether a screen on the stack still shows this match."""
        for s in self.app.scenes:
            if getattr(s, "match", None) is self or getattr(s, "session", None) is self.session:
                return True
        return False

    def open_table(self) -> None:
        self.stage = "playing"
        self.app.reset(table_scene(self.app, self))

    # ---------------------------------------------------------- trouble on the line
    def trouble(self) -> Optional[str]:
        """What the link scene shows now: forfeit, lost, reconnecting, waiting or None."""
        s = self.session
        over = s.over
        if over is not None and over.get("reason") == "forfeit":
            return "forfeit"
        if s.state.table.is_over or over is not None:
            return None
        if s.link == "lost":
            return "lost"
        if s.link == "reconnecting":
            return "reconnecting"
        if s.waiting_for() is not None:
            return "waiting"
        return None

    def _update_link_scene(self) -> None:
        mode = self.trouble()
        if mode != "waiting":
            self.keep_waiting = False
            self._claim_seen = False
        else:
            w = self.session.waiting_for()
            claimable = w is not None and w[2] is not None and w[2] <= 0
            if claimable and not self._claim_seen:
                self._claim_seen = True
                self.keep_waiting = False     # the question is asked once the claim is open
        scene = self.link_scene
        on_stack = scene is not None and scene in self.app.scenes
        if mode is None:
            if on_stack:
                self.app.remove(scene)
            self.link_scene = None
            return
        if not on_stack:
            scene = self.link_scene = LinkScene(self.app, self)
            self.app.push(scene)
        elif scene is not self.app.top and mode != "waiting":
            # something opened over it (a pause menu): the trouble goes on top again
            self.app.remove(scene)
            self.app.push(scene)
        scene.set_mode(mode)

    def claim(self) -> None:
        if self._claim_future is None:
            self._claim_future = self.session.claim()

    # ---------------------------------------------------------- the end
    def close(self, *, leave: bool = True) -> None:
        """Leave the room, close the connection and stop a hosted server (on a thread of
        its own: the frame never waits). ``wait`` for it with ``join``."""
        if self.stage == "closed":
            return
        self.stage = "closed"
        if self.tick in self.app.tickers:
            self.app.tickers.remove(self.tick)
        if self.link_scene is not None and self.link_scene in self.app.scenes:
            self.app.remove(self.link_scene)
        self.link_scene = None
        client, hosted = self.client, self.hosted
        playing = self.session.status in ("open", "playing") and self.session.over is None

        def work():
            try:
                if leave and playing and client.connected:
                    client.leave().result(2.0)
            except Exception:
                pass
            client.close(2.0)
            if hosted is not None:
                hosted.stop(10.0)
        import threading
        self.closer = threading.Thread(target=work, name="koikoi-online-close", daemon=True)
        self.closer.start()

    def join_closed(self, timeout: float = 15.0) -> bool:
        if self.closer is not None:
            self.closer.join(timeout)
            return not self.closer.is_alive()
        return True


def table_scene(app, match: OnlineMatch):
    """The draw for dealer while it goes on, else the round table."""
    if match.session.state.phase_name == Phase.OYAGIME:
        return OnlineOyagimeScene(app, match)
    return OnlineRoundScene(app, match)


# ------------------------------------------------------------------ the table, online

class OnlineRoundScene(RoundScene):
    """The round table on a ``NetSession`` (see the module docstring for what differs)."""

    pausable = False            # Escape opens the online menu, not the local pause menu

    def __init__(self, app, online: OnlineMatch):
        match = online
        self.match = match
        super().__init__(app, match.session)

    def handle(self, event) -> bool:
        used = super().handle(event)
        if not used and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.pause()
            return True
        return used

    def pause(self) -> None:
        self.tip.hide()
        if self.drag is not None:
            self.controls.cancel()
        self.controls.reset_pointer()
        self.app.push_overlay("online_pause", self.match)

    def _to_oyagime(self) -> None:
        self.closed = True
        self.app.replace(OnlineOyagimeScene(self.app, self.match))

    def match_over(self) -> None:
        self.closed = True
        self.app.replace(OnlineResultsScene(self.app, self.match))

    def on_quit(self) -> None:
        self.match.close()
        self.match.join_closed(3.0)


class OnlineOyagimeScene(OyagimeScene):
    def __init__(self, app, online: OnlineMatch):
        match = online
        self.match = match
        super().__init__(app, match.session)

    def continue_(self) -> None:
        if self.decided is None or self.decided.dealer is None:
            return
        self.app.replace(OnlineRoundScene(self.app, self.match))

    def back(self) -> None:
        self.app.push_overlay("online_pause", self.match)

    def _prompt(self):
        seat = self.picking_seat
        if self.decided is None and seat is not None and self.session.seats[seat].kind == REMOTE:
            return _("{name} is choosing…").format(name=self.session.seats[seat].name), None
        return super()._prompt()

    def on_quit(self) -> None:
        self.match.close()
        self.match.join_closed(3.0)


class OnlineResultsScene(MatchResultsScene):
    """The usual match results, without Replay (the other hand never came here)."""

    def __init__(self, app, online: OnlineMatch):
        match = online
        self.match = match
        over = match.session.over or {}
        conceded = over.get("conceded") if over.get("reason") == "forfeit" else None
        super().__init__(app, match.session, conceded=conceded)

    def layout(self) -> None:
        self.columns = [c for c in self.columns if c.key != "replay"]
        super().layout()

    def replay_row(self, i: int) -> None:
        self.app.toast(_("An online round cannot be replayed: the other player's hand never came to this "
                         "computer."), 5.0, "info")

    def new_match(self) -> None:
        self.app.open("title", mode="reset")
        self.app.open("online")

    def _draw_table(self, surface: pygame.Surface) -> None:
        W.draw_panel(surface, self.panel, s=self.s)
        self.table.draw(surface)
        if self.state.ledger:
            W.draw_text(surface, _("Click a round for its details"), self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(10), self.panel.bottom + self.px(8)), "topright")

    def on_quit(self) -> None:
        self.match.close()
        self.match.join_closed(3.0)


class OnlinePauseScene(MenuScene):
    """The menu over an online table: resume, rules, how to play, settings, leave, quit."""

    opaque = False
    intro_time = 0.2

    def __init__(self, app, online: OnlineMatch):
        match = online
        self.match = match
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        bw, bh, gap = self.px(420), self.px(74), self.px(18)
        labels = [(_("Resume"), self.back, "primary", (pygame.K_ESCAPE,)),
                  (_("Rules of this match"), self.rules_panel, "secondary", (pygame.K_r,)),
                  (_("How to play"), self.how_to, "secondary", (pygame.K_F1,)),
                  (_("Settings"), self.settings, "secondary", ()),
                  (_("Leave the match"), self.leave, "danger", ()),
                  (_("Quit the game"), self.quit, "danger", ())]
        self.layout_button_column(labels, bw, bh, gap)

    def rules_panel(self) -> None:
        st = self.match.session.state
        if st.rules is not None:
            self.app.open("rules_panel", st.rules, st.months)

    def how_to(self) -> None:
        rules = self.match.session.state.rules
        if rules is None:
            self.app.open("howto", None)
        else:
            self.app.open("howto", rules.name, rules=rules)

    def settings(self) -> None:
        self.app.open("settings")

    def leave(self) -> None:
        name = self.match.session.opponent_name
        self.app.open("confirm", _("Leave the match?"),
                      _("You leave the room: {name} may then claim the match as won.").format(name=name),
                      _("Leave"), self._leave_now)

    def _leave_now(self) -> None:
        self.match.close()
        self.app.open("title", mode="reset")

    def quit(self) -> None:
        self.match.close()
        self.app.quit()

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(160 * self.intro)))
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, s=self.s)
        W.draw_text(surface, _("Online match {code}").format(code=self.match.code or ""), self.font("h1", True),
                    theme.GOLD_LIGHT, (self.panel.centerx, self.panel.y + self.px(34)), "midtop")
        for wdg in self.widgets:
            wdg.draw(surface)


class LinkScene(MenuScene):
    """The connection's trouble over the table (``OnlineMatch.trouble``). Modal, except
    while the player keeps waiting for the other side: then a strip at the top that
    lets the table be played."""

    opaque = False
    intro_time = 0.15

    def __init__(self, app, online: OnlineMatch):
        match = online
        self.match = match
        self.mode = "reconnecting"
        self.since = time.monotonic()
        super().__init__(app)

    @property
    def strip(self) -> bool:
        return self.mode == "waiting" and self.match.keep_waiting

    @property
    def pauses_below(self) -> bool:        # the table plays on under the strip
        return not self.strip

    def set_mode(self, mode: str) -> None:
        key = (mode, self.strip, self._claimable())
        if key != getattr(self, "_key", None):
            self.mode = mode
            self._key = key
            self.layout()

    def _claimable(self) -> bool:
        w = self.match.session.waiting_for()
        return w is not None and w[2] is not None and w[2] <= 0

    # ---------------------------------------------------------- texts
    def texts(self) -> tuple[str, str]:
        """(title, sentence) for the mode."""
        s = self.match.session
        name = s.opponent_name
        if self.mode == "reconnecting":
            return (_("Reconnecting…"),
                    _("The connection to the match dropped. Your seat is kept: the game takes it back as "
                      "soon as the server answers."))
        if self.mode == "lost":
            return (_("The server is gone"),
                    _("The match server stopped answering, so this match cannot go on from here."))
        if self.mode == "forfeit":
            over = s.over or {}
            if over.get("winner") == s.seat:
                return (_("You win: {name} forfeits").format(name=name),
                        _("{name} was away too long, and the match was claimed for you.").format(name=name))
            return (_("{name} claimed the match").format(name=name),
                    _("You were away longer than the server waits, and {name} claimed the match.").format(
                        name=name))
        w = s.waiting_for() or (name, 0.0, None)
        who, gone, claim_in = w
        who = who or name
        title = _("Waiting for {name} ({time})").format(name=who, time=clock(gone))
        left = (s.latest.presence[1 - s.seat] or {}).get("state") == "left"
        if claim_in is not None and claim_in <= 0:
            text = (_("{name} left the match. You may claim it as won, or keep waiting for them to come back.")
                    if left else
                    _("{name} has been away for {time}. You may claim the match as won, or keep waiting."))
        elif claim_in is not None:
            text = _("{name}'s connection dropped. Their seat is kept for them; you may claim the match "
                     "in {time}.")
            return title, text.format(name=who, time=clock(claim_in))
        else:
            text = _("{name}'s connection dropped. The match goes on when they are back.")
        return title, text.format(name=who, time=clock(gone))

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        self.widgets = []
        if self.strip:
            bh = self.px(52)
            self.panel = pygame.Rect(0, self.px(12), min(w - self.px(40), self.px(980)), bh + self.px(24))
            self.panel.centerx = w // 2
            if self._claimable():
                b = self.button((0, 0, self.px(280), bh), _("Claim the match"), self.match.claim,
                                style="danger", font_size=theme.font_px("small", self.s))
                b.rect.midright = (self.panel.right - self.px(14), self.panel.centery)
                self.widgets.append(b)
            self.focus.set(self.widgets)
            return
        self.panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(940)), self.px(400))
        self.panel.center = (w // 2, h // 2)
        bw, bh, gap = self.px(320), self.px(72), self.px(24)
        by = self.panel.bottom - self.px(36) - bh
        row = []
        if self.mode == "reconnecting":
            row.append(self.button((0, by, bw, bh), _("Leave the match"), self.to_title, style="secondary"))
        elif self.mode == "lost":
            row.append(self.button((0, by, bw, bh), _("Title screen"), self.to_title, style="primary",
                                   hotkeys=(pygame.K_RETURN,)))
        elif self.mode == "forfeit":
            row.append(self.button((0, by, bw, bh), _("See the results"), self.results, style="primary",
                                   hotkeys=(pygame.K_RETURN,)))
        else:
            row.append(self.button((0, by, bw, bh), _("Keep waiting"), self.keep_waiting, style="secondary",
                                   hotkeys=(pygame.K_ESCAPE,)))
            if self._claimable():
                row.append(self.button((0, by, bw, bh), _("Claim the match"), self.match.claim, style="danger"))
        total = sum(b.rect.w for b in row) + gap * (len(row) - 1)
        x = w // 2 - total // 2
        for b in row:
            b.rect.x = x
            x += b.rect.w + gap
        self.widgets = row
        self.focus.set(self.widgets)

    # ---------------------------------------------------------- actions
    def keep_waiting(self) -> None:
        self.match.keep_waiting = True
        self.set_mode(self.mode)

    def to_title(self) -> None:
        self.match.close()
        self.app.open("title", mode="reset")

    def results(self) -> None:
        match = self.match
        match.close(leave=False)
        self.app.reset(OnlineResultsScene(self.app, match))

    def back(self) -> None:
        if self.mode == "waiting":
            self.keep_waiting()

    def update(self, dt: float) -> None:
        super().update(dt)
        self.set_mode(self.mode)     # the claim may have opened

    @property
    def animating(self) -> bool:
        return True                   # the clock ticks

    def handle(self, event) -> bool:
        if self.strip:
            for wdg in reversed(self.widgets):
                if wdg.handle(event):
                    return True
            return False              # the table takes the rest
        super().handle(event)
        return True                   # modal

    def draw(self, surface: pygame.Surface) -> None:
        title, text = self.texts()
        if self.strip:
            W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, border=theme.GOLD, s=self.s)
            right = self.widgets[0].rect.left - self.px(14) if self.widgets else self.panel.right - self.px(20)
            font = self.font("body", True)
            W.draw_text(surface, W.ellipsize(title, font, right - self.panel.x - self.px(24)), font,
                        theme.GOLD_LIGHT, (self.panel.x + self.px(24), self.panel.centery), "midleft")
            for wdg in self.widgets:
                wdg.draw(surface)
            return
        W.draw_scrim(surface, (0, 0, 0, int(150 * self.intro)))
        border = theme.LACQUER_LIGHT if self.mode in ("lost", "reconnecting") else theme.GOLD
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, border=border, s=self.s)
        cx = self.panel.centerx
        tf = W.fit_font(self.app.assets, title, self.panel.w - self.px(60), theme.font_px("h2", self.s), bold=True)
        r = W.draw_text(surface, title, tf, theme.GOLD_LIGHT, (cx, self.panel.y + self.px(34)), "midtop")
        font = self.font("body")
        y = r.bottom + self.px(22)
        for line in W.wrap_text(text, font, self.panel.w - self.px(100))[:4]:
            W.draw_text(surface, line, font, theme.CREAM, (cx, y), "midtop")
            y += font.get_linesize()
        for wdg in self.widgets:
            wdg.draw(surface)


# ------------------------------------------------------------------ the screens before the table

class OnlineScene(MenuScene):
    """Play online: Host a match, or Join one."""

    def layout(self) -> None:
        w, h = self.size
        bw, bh, gap = min(self.px(560), w - self.px(80)), self.px(110), self.px(26)
        y = max(self.px(230), h // 2 - bh - gap // 2)
        self.host_b = self.button((0, y, bw, bh), _("Host a match"), self.host, style="primary",
                                  sublabel=_("Your game runs the match; a friend joins with its code"),
                                  hotkeys=(pygame.K_h,))
        self.join_b = self.button((0, y + bh + gap, bw, bh), _("Join a match"), self.join, style="primary",
                                  sublabel=_("With the address and the code the host shows"),
                                  hotkeys=(pygame.K_j,))
        self.back_b = self.button((0, y + 2 * (bh + gap) + self.px(20), self.px(300), self.px(72)), _("Back"),
                                  self.back, style="secondary", hotkeys=(pygame.K_BACKSPACE,))
        for b in (self.host_b, self.join_b, self.back_b):
            b.rect.centerx = w // 2
        self.widgets = [self.host_b, self.join_b, self.back_b]
        self.focus.set(self.widgets)

    def host(self) -> None:
        self.app.open("online_host")

    def join(self) -> None:
        self.app.open("online_join")

    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Play online"), self.px(60),
                        subtitle=_("Play a friend on another computer: one hosts, the other joins."))


class _NameMixin:
    """What the Host and Join screens share: the name field, the fields' keys, and the
    match being made (``self.match``, an ``OnlineMatch``)."""

    # ---------------------------------------------------------- the match being made
    leave_on_failure = True       # a failed attempt still leaves the room it made

    @property
    def busy(self) -> bool:
        """A match is being made (connecting, creating or joining, waiting)."""
        return self.match is not None and self.match.stage != "failed"

    def cancel(self) -> None:
        if self.match is not None:
            self.match.close()
        self.match = None
        self._collect()

    def back(self) -> None:
        if self.busy:
            self.cancel()
        else:
            self.app.pop()

    def update(self, dt: float) -> None:
        super().update(dt)
        m = self.match
        if m is not None and m.stage == "failed":
            self.error = m.error
            m.close(leave=self.leave_on_failure)
            self.match = None
            self._collect()

    @property
    def animating(self) -> bool:
        return super().animating or self.match is not None

    def on_quit(self) -> None:
        if self.match is not None:
            self.match.close()
            self.match.join_closed(3.0)

    def _bottom_buttons(self, go_label: str, by: int, bw: int, bh: int) -> W.Button:
        """Back and the screen's own button side by side at ``by``, and Cancel (while a match
        is being made) centred in their place; the screen's button is returned."""
        w = self.size[0]
        go = self.button((0, by, bw, bh), go_label, self.start, style="primary",
                         hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        self.back_b = self.button((0, by, bw, bh), _("Back"), self.back, style="secondary")
        self.cancel_b = self.button((0, by, bw, bh), _("Cancel"), self.cancel, style="secondary",
                                    hotkeys=(pygame.K_ESCAPE,))
        self.cancel_b.rect.centerx = w // 2
        gap = self.px(24)
        self.back_b.rect.right = w // 2 - gap // 2
        go.rect.left = w // 2 + gap // 2
        return go

    def _name_field(self, rect) -> W.TextField:
        return W.TextField(rect, default_name(self.app), self._set_name, max_len=MAX_NAME_LEN, clean=clean_name,
                           placeholder=_("Your name"), assets=self.app.assets,
                           font_size=theme.font_px("body", self.s))

    def _set_name(self, text: str) -> None:
        PREFS["name"] = text

    def typed_name(self) -> str:
        f = self.name_field
        try:
            return clean_name(f.buffer if f.editing else f.text)
        except ValueError:
            return default_name(self.app)

    def _fields(self) -> list:
        return [f for f in self.widgets if isinstance(f, W.TextField) and f.visible]

    def handle(self, event) -> bool:
        # a field being typed in takes the keys first (no hotkey fires while typing)
        editing = [f for f in self._fields() if f.editing or f.focused]
        if editing and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN):
            for f in editing:
                if f.handle(event):
                    self._focus_editing()
                    return True
        used = super().handle(event)
        self._focus_editing()
        return used

    def _focus_editing(self) -> None:
        """The keyboard focus follows the field being typed in (a click moves it there)."""
        for f in self._fields():
            if f.editing and self.focus.current is not f and f in self.focus.widgets:
                self.focus.focus(f)


class HostScene(_NameMixin, MenuScene):
    """Host a match: the rules (the last New match choice by default), who may connect,
    then the room code and the addresses to share while waiting for the other player."""

    def __init__(self, app):
        last = dict(app.settings.get("last_new_match") or {})
        self.rules_name = last.get("rules", "casual") if last.get("rules") in RULESETS else "casual"
        preset = RULESETS[self.rules_name]
        self.months = last.get("months", preset.months)
        if self.months not in preset.months_offered:
            self.months = preset.months
        from ...storage import valid_house_rules
        self.last_house = (self.rules_name, valid_house_rules(self.rules_name, last.get("house")))
        self.house = dict(self.last_house[1])
        self.lan = bool(PREFS.get("lan"))
        self.match: Optional[OnlineMatch] = None
        self.error: Optional[str] = None
        self.months_row = None
        super().__init__(app)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        fs = theme.font_px("body", self.s)
        self.panel = pygame.Rect(0, self.px(130), min(w - self.px(80), self.px(1180)), 0)
        self.panel.centerx = w // 2
        bw, bh = self.px(340), self.px(78)
        by = h - self.px(30) - bh
        self.panel.h = by - self.px(24) - self.panel.y
        x = self.panel.x + self.px(56)
        inner = self.panel.w - 2 * self.px(56)
        y = self.panel.y + self.px(30)
        self.labels = []
        self.labels.append((_("Your name"), y))
        self.name_field = getattr(self, "name_field", None) or self._name_field((0, 0, 1, 1))
        self.name_field.rect = pygame.Rect(x, y + self.px(36), min(inner, self.px(520)), self.px(56))
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Rules"), y))
        y += self.px(36)
        from .newmatch import short_label
        self.rules_row = W.ChoiceRow((x, y, inner, self.px(50) * 2 + self.px(10)),
                                     [(n, short_label(n)) for n in RULESETS], self.rules_name, self.set_rules,
                                     columns=4, gap=self.px(10), assets=a, font_size=fs)
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
        self.host_b = self._bottom_buttons(_("Host the match"), by, bw, bh)
        self._collect()

    def _build_months(self) -> None:
        offered = RULESETS[self.rules_name].months_offered
        many = len(offered) > 6
        opts = [(m, str(m) if many else (_("1 month") if m == 1 else _("{n} months").format(n=m))) for m in offered]
        r = self.months_rect.copy()
        if not many:
            r.w = min(r.w, self.px(190) * len(offered))
        self.months_row = W.ChoiceRow(r, opts, self.months, self.set_months, assets=self.app.assets,
                                      gap=self.px(10), font_size=theme.font_px("body", self.s))
        self.months = self.months_row.selected

    def _collect(self) -> None:
        if self.hosting:
            self.widgets = [self.cancel_b]
        else:
            self.widgets = [self.name_field, self.rules_row, self.months_row, self.lan_toggle,
                            self.back_b, self.host_b]
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

    # ---------------------------------------------------------- hosting
    def start(self) -> None:
        if self.hosting:
            return
        self.name_field.commit()
        name = self.typed_name()
        PREFS["name"] = name
        self.error = None
        try:
            hosted = HostedServer(self._data_dir(), lan=self.lan).start()
        except OSError as exc:
            self.error = _("The match server could not start: {reason}").format(reason=str(exc)[:120])
            return
        months = None if self.house.get("months", 0) is None else self.months
        self.match = OnlineMatch(self.app, hosted.url, hosted=hosted, address=hosted.url).host(
            {"preset": self.rules_name, "house": dict(self.house)}, months, name)
        self._collect()

    def _data_dir(self):
        import tempfile
        from pathlib import Path
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
        from .newmatch import preset_detail, short_label
        from .rules_panel import changed_text, count_changes
        font = self.font("small")
        x = self.rules_row.rect.x
        room = self.rules_row.rect.w
        text = f"{short_label(self.rules_name)}: {preset_detail(self.rules_name)}"
        n = count_changes(self.house)
        if n:
            text = _("{rules}  ·  {changes} (from your last new match)").format(rules=text, changes=changed_text(n))
        W.draw_text(surface, W.ellipsize(text, font, room), font, theme.CREAM_DIM, (x, self.detail_y))
        t = self.lan_toggle.rect
        lan = (_("Players on my local network may join") if self.lan else
               _("Only this computer may join (turn on for the local network)"))
        W.draw_text(surface, W.ellipsize(lan, self.font("body"), self.panel.right - t.right - self.px(80)),
                    self.font("body"), theme.CREAM, (t.right + self.px(20), self.lan_y), "midleft")
        if self.error:
            W.draw_text(surface, W.ellipsize(self.error, font, self.panel.w - self.px(80)), font, theme.BAD,
                        (self.panel.centerx, self.panel.bottom - self.px(22)), "midbottom")

    def _draw_waiting(self, surface: pygame.Surface) -> None:
        m = self.match
        cx = self.panel.centerx
        y = self.panel.y + self.px(40)
        if m.code is None:
            W.draw_text(surface, _("Starting the match server…"), self.font("h3", True), theme.CREAM,
                        (cx, self.panel.centery), "center")
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
        note = (_("Players on your local network can join with this address and the code.") if self.lan else
                _("Only a game on this computer can join: go back and allow the local network for another one."))
        y += self.px(14)
        for line in W.wrap_text(note, self.font("small"), self.panel.w - self.px(100))[:2]:
            W.draw_text(surface, line, self.font("small"), theme.CREAM_DIM, (cx, y), "midtop")
            y += self.font("small").get_linesize()
        dots = "…"
        text = _("Waiting for a player to join {code}{dots}").format(code=m.code, dots=dots)
        W.draw_text(surface, text, self.font("h3", True), theme.GOLD_LIGHT,
                    (cx, self.panel.bottom - self.px(40)), "midbottom")


class JoinScene(_NameMixin, MenuScene):
    """Join a match: the host's address (host:port) and the room code, and a name."""

    def __init__(self, app, join: Optional[tuple] = None, *, player: Optional[str] = None, auto: bool = False):
        self.address = PREFS.get("address") or f"127.0.0.1:{DEFAULT_PORT}"
        self.code_text = PREFS.get("code") or ""
        if join is not None:
            host, port, code = join
            self.address = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
            self.code_text = code
        if player:
            try:
                PREFS["name"] = clean_name(player)
            except ValueError:
                pass
        self.match: Optional[OnlineMatch] = None
        self.error: Optional[str] = None
        super().__init__(app)
        if auto:
            self.start()

    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        fs = theme.font_px("body", self.s)
        self.panel = pygame.Rect(0, self.px(175), min(w - self.px(80), self.px(980)), 0)
        self.panel.centerx = w // 2
        bw, bh = self.px(340), self.px(78)
        by = h - self.px(30) - bh
        self.panel.h = min(by - self.px(24) - self.panel.y, self.px(560))
        x = self.panel.x + self.px(56)
        inner = self.panel.w - 2 * self.px(56)
        y = self.panel.y + self.px(30)
        self.labels = []
        old = {k: getattr(self, k, None) for k in ("address_field", "code_field", "name_field")}
        self.labels.append((_("Address of the host"), y))
        self.address_field = old["address_field"] or W.TextField(
            (0, 0, 1, 1), self.address, self._set_address, max_len=80, placeholder="192.168.1.20:8765",
            assets=a, font_size=fs)
        self.address_field.rect = pygame.Rect(x, y + self.px(36), inner, self.px(56))
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Room code"), y))
        self.code_field = old["code_field"] or W.TextField(
            (0, 0, 1, 1), self.code_text, self._set_code, max_len=16, placeholder="KOI-4821", assets=a,
            font_size=fs)
        self.code_field.rect = pygame.Rect(x, y + self.px(36), min(inner, self.px(320)), self.px(56))
        y += self.px(36 + 56 + 26)
        self.labels.append((_("Your name"), y))
        self.name_field = old["name_field"] or self._name_field((0, 0, 1, 1))
        self.name_field.rect = pygame.Rect(x, y + self.px(36), min(inner, self.px(520)), self.px(56))
        y += self.px(36 + 56 + 30)
        self.message_y = y
        self.join_b = self._bottom_buttons(_("Join"), by, bw, bh)
        self._collect()

    def _collect(self) -> None:
        if self.joining:
            self.widgets = [self.cancel_b]
        else:
            self.widgets = [self.address_field, self.code_field, self.name_field, self.back_b, self.join_b]
        self.focus.set(self.widgets)

    joining = _NameMixin.busy
    leave_on_failure = False      # nothing to leave: no seat was taken

    def _set_address(self, text: str) -> None:
        self.address = PREFS["address"] = text

    def _set_code(self, text: str) -> None:
        self.code_text = PREFS["code"] = text

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
            host, port = parse_address(address)
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
        PREFS.update(name=name, address=address, code=code)
        self.code_field.set_text(code)
        self.match = OnlineMatch(self.app, url_of(host, port), address=address).join(code, name)
        self._collect()

    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Join a match"), self.px(34),
                        subtitle=_("Type the address and the room code the host's screen shows."))
        W.draw_panel(surface, self.panel, s=self.s)
        cx = self.panel.centerx
        if self.joining:
            text = _("Connecting to {address}…").format(address=self.match.address)
            if self.match.stage in ("entering", "open"):
                text = _("Joining {code}…").format(code=self.code_text)
            W.draw_text(surface, W.ellipsize(text, self.font("h3", True), self.panel.w - self.px(60)),
                        self.font("h3", True), theme.GOLD_LIGHT, (cx, self.panel.centery), "center")
            return
        head = self.font("small", True)
        for text, y in self.labels:
            W.draw_text(surface, text.upper(), head, theme.GOLD, (self.address_field.rect.x, y))
        if self.error:
            font = self.font("small", True)
            y = self.message_y
            for line in W.wrap_text(self.error, font, self.panel.w - self.px(112))[:2]:
                W.draw_text(surface, line, font, theme.BAD, (self.address_field.rect.x, y))
                y += font.get_linesize()


__all__ = ["OnlineMatch", "OnlineScene", "HostScene", "JoinScene", "OnlineRoundScene", "OnlineOyagimeScene",
           "OnlineResultsScene", "OnlinePauseScene", "LinkScene", "PREFS", "clock", "table_scene"]
