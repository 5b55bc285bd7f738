"""The table, online: the scenes an ``online_table.OnlineMatch`` shows (they draw; the
match, its connection and its seat are the controller's).

The table is the normal ``RoundScene`` (and ``OyagimeScene`` for the draw for
dealer) with four online differences, in subclasses here: Escape and Menu open
``OnlinePauseScene`` (there is nothing to save or concede locally: the match is the
server's), the draw for dealer goes on to the online table, its prompt names the
other player while they choose, and the end of the match opens
``OnlineResultsScene``: the usual results, without Replay (the other player's hand
never reached this machine during play, so a round cannot be shown face up here).

``LinkScene`` shows the connection's trouble over the table (``OnlineMatch.trouble``):
"Reconnecting…", "Waiting for Haru (0:42)" (with "Claim the match" once the server
allows it, and "Keep waiting"), "The server is gone", a match won or lost by forfeit.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pygame

from ...engine.phase import Phase
from ...net.netsession import REMOTE
from .. import theme
from .. import widgets as W
from ...i18n import _
from ..table import seat_label
from . import MenuScene
from .ledger import MatchResultsScene
from .oyagime import OyagimeScene
from .pause_menu import TablePauseMenu
from .round import RoundScene

if TYPE_CHECKING:
    from .online_table import OnlineMatch


def clock(seconds: float) -> str:
    """0:42, 12:05."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def table_scene(app, match: OnlineMatch):
    """The draw for dealer while it goes on, else the round table."""
    if match.session.phase == Phase.OYAGIME:
        return OnlineOyagimeScene(app, match)
    return OnlineRoundScene(app, match)


# ------------------------------------------------------------------ the table, online

class _OnMatch:
    """What the scenes of an online match's session share (mixed in first): ``self.match``,
    the ``OnlineMatch`` (set before the scene is built), and quitting the game keeps the seat."""

    def __init__(self, app, online: OnlineMatch, **kwargs):
        self.match = online
        super().__init__(app, online.session, **kwargs)

    def on_quit(self) -> None:
        self.match.quit_keeping_seat()


class OnlineRoundScene(_OnMatch, RoundScene):
    """The round table on a ``NetSession`` (see the module docstring for what differs)."""

    pausable = False            # Escape opens the online menu, not the local pause menu

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


class OnlineOyagimeScene(_OnMatch, OyagimeScene):
    def continue_(self) -> None:
        if self.decided is None or self.decided.dealer is None:
            return
        self.app.replace(OnlineRoundScene(self.app, self.match))

    def back(self) -> None:
        self.app.push_overlay("online_pause", self.match)

    def _prompt(self):
        seat = self.picking_seat
        if self.decided is None and seat is not None and self.session.seats[seat].kind == REMOTE:
            return _("{name} is choosing…").format(name=seat_label(self.session.seats[seat].name)), None
        return super()._prompt()


class OnlineResultsScene(_OnMatch, MatchResultsScene):
    """The usual match results, without Replay (the other hand never came here)."""

    def __init__(self, app, online: OnlineMatch):
        over = online.session.over or {}
        conceded = over.get("conceded") if over.get("reason") == "forfeit" else None
        super().__init__(app, online, conceded=conceded)

    def layout(self) -> None:
        self.columns = [c for c in self.columns if c.key != "replay"]
        super().layout()

    def replay_row(self, i: int) -> None:
        if self.match.session.filed is not None:
            self.app.toast(_("This match is in your Match history, where its rounds can be replayed."),
                           5.0, "info")
            return
        self.app.toast(_("An online round cannot be replayed: the other player's hand never came to this "
                         "computer."), 5.0, "info")

    def new_match(self) -> None:
        self.app.open("title", mode="reset")
        self.app.open("online")
        for name in self.match.AGAIN:          # a quick match: straight back to Quick match
            self.app.open(name)

    def _draw_table(self, surface: pygame.Surface) -> None:
        W.draw_panel(surface, self.panel, s=self.s)
        self.table.draw(surface)
        if self.session.ledger:
            W.draw_text(surface, _("Click a round for its details"), self.font("tiny"), theme.CREAM_DIM,
                        (self.panel.right - self.px(10), self.panel.bottom + self.px(8)), "topright")


class OnlinePauseScene(TablePauseMenu):
    """The menu over an online table: resume, rules, how to play, settings, leave, quit."""

    def __init__(self, app, online: OnlineMatch):
        match = online
        self.match = match
        super().__init__(app)

    def match_rules(self):
        s = self.match.session
        return None if s.rules is None else (s.rules, s.months)

    def leave_buttons(self) -> list:
        return [(_("Leave the match"), self.leave, "danger", ())]

    def leave(self) -> None:
        name = self.match.session.opponent_name
        self.app.open("confirm", _("Leave the match?"),
                      _("You leave the room: {name} may then claim the match as won.").format(name=name),
                      _("Leave"), self._leave_now)

    def _leave_now(self) -> None:
        self.match.close()
        self.app.open("title", mode="reset")

    def quit_game(self) -> None:
        self.match.close(leave=False)       # the seat is kept: the game started again takes it back
        self.app.quit()

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_menu_panel(surface, _("Online match {code}").format(code=self.match.code or ""))


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
        self.place_row(row, gap)

    # ---------------------------------------------------------- actions
    def keep_waiting(self) -> None:
        self.match.keep_waiting = True
        self.set_mode(self.mode)

    def to_title(self) -> None:
        # the server gone: its rooms may come back with it, so the seat is kept for later
        self.match.close(forget=self.mode != "lost")
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
