"""Oya-gime: each player turns up a card and the earlier month deals first.

The four cards lie face down: seat 0 picks one of the first two, seat 1 one of
the last two. The scene replays the match's oya-gime events one beat at a
time (a flip per pick, the verdict, a visible redraw on a same-month tie), so
it shows the same thing whether a human clicked or a CPU chose, and picks up
where a saved match left off.
"""

from __future__ import annotations

import logging
import math
from typing import Optional

import pygame

from ...engine import KIND_JAPANESE, MONTH_NAMES, Phase, PickOyagime, SeatKind, card
from ...engine.events import OyagimeDecided, OyagimePicked, OyagimeSpread
from ...i18n import _
from .. import theme
from .. import widgets as W
from ..assets import card_size
from ..scene import Scene
from ..table.driver import CpuPacer, send
from ..registry import scene_class
from ..table import seat_label
from . import MenuScene

log = logging.getLogger("koikoi.oyagime")

FLIP_TIME = 0.5
DEAL_TIME = 0.55
CPU_DELAY = 0.8            # a CPU "considers" its two cards this long (anim time)


def open_round(app, session, *, replace: bool = True) -> Optional[Scene]:
    """Show the table for ``session``: this scene while the first dealer is being drawn,
    else the round table (lazily imported). If the round scene cannot be loaded, a message
    screen explains it instead of crashing."""
    if session.phase == Phase.OYAGIME:
        scene: Scene = OyagimeScene(app, session)
    else:
        try:
            RoundScene = scene_class("round")
        except Exception as exc:  # ImportError, or an error inside the module
            log.exception("the round scene could not be loaded")
            scene = UnavailableScene(app, _("The card table could not be opened."),
                                     f"{type(exc).__name__}: {exc}")
        else:
            scene = RoundScene(app, session)
    if replace:
        app.replace(scene)
    else:
        app.push(scene)
    return scene


def _is_you(session, seat: int) -> bool:
    """Whether ``seat`` reads as "you": the human seat outside friend (hot-seat) matches."""
    try:
        if session.is_hotseat:
            return False
        return session.seats[seat].kind == SeatKind.HUMAN
    except (AttributeError, IndexError, TypeError):
        return False


def verdict_text(session, event: OyagimeDecided) -> str:
    """One line saying who deals and why."""
    a, b = card(event.cards[0]), card(event.cards[1])
    if event.dealer is None:
        return _("Both cards are from {month}: draw again.").format(month=_(MONTH_NAMES[a.month - 1]))
    win, lose = (a, b) if event.dealer == 0 else (b, a)
    name = seat_label(session.seats[event.dealer].name)
    you = _is_you(session, event.dealer)
    if event.reason == "higher_kind":
        text = (_("Both are {month}, and a {winner} beats a {loser}: you deal first.") if you else
                _("Both are {month}, and a {winner} beats a {loser}: {name} deals first."))
        return text.format(month=_(MONTH_NAMES[win.month - 1]), winner=_(KIND_JAPANESE[win.kind][0]),
                           loser=_(KIND_JAPANESE[lose.kind][0]), name=name)
    text = (_("{winner} comes before {loser}: you deal first.") if you else
            _("{winner} comes before {loser}: {name} deals first."))
    return text.format(winner=_(MONTH_NAMES[win.month - 1]), loser=_(MONTH_NAMES[lose.month - 1]), name=name)


class _Slot:
    def __init__(self):
        self.face: Optional[str] = None   # the card once turned up
        self.flip = 0.0                   # 0 face down .. 1 face up
        self.deal = 0.0                   # 0 in the deck .. 1 in place
        self.hover = 0.0                  # the lift under the mouse


class OyagimeScene(MenuScene):
    intro_time = 0.3

    def __init__(self, app, session):
        self.session = session
        self.slots = [_Slot() for _ in range(4)]
        self.cursor = 0
        self.wait = 0.0
        self.decided: Optional[OyagimeDecided] = None
        self.message = ""
        self.redraws = 0
        self.hover_i: Optional[int] = None
        self.key_i: Optional[int] = None
        self.cpu = CpuPacer()           # the CPU's pick, paced as on the round table
        self.auto_t = 0.0
        events = session.events
        self.cursor = max((i for i, e in enumerate(events) if isinstance(e, OyagimeSpread)), default=0)
        super().__init__(app)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        self.card_h = min(self.px(330), int(h * 0.34))
        cw, ch = card_size(self.card_h)
        pair_gap = self.px(36)
        mid_gap = max(self.px(180), cw)
        total = 4 * cw + 2 * pair_gap + mid_gap
        x = w // 2 - total // 2
        y = int(h * 0.5) - ch // 2 + self.px(10)
        self.rects = []
        for i in range(4):
            self.rects.append(pygame.Rect(x, y, cw, ch))
            x += cw + (mid_gap if i == 1 else pair_gap)
        self.deck_pos = (w // 2, y + ch // 2)
        bw, bh = self.px(380), self.px(80)
        self.go = self.button((0, 0, bw, bh), _("Deal the cards"), self.continue_, style="primary",
                              hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE))
        self.go.rect.midtop = (w // 2, self.rects[0].bottom + self.px(185))
        self.go.visible = self.decided is not None and self.decided.dealer is not None
        self.widgets = [self.go]
        self.focus.set(self.widgets)

    # ---------------------------------------------------------- state
    @property
    def picking_seat(self) -> Optional[int]:
        """The seat whose pick is awaited now that every beat has played."""
        s = self.session
        if s.phase != Phase.OYAGIME or self.wait > 0 or self.cursor < len(s.events):
            return None
        return s.to_move

    def human_can_pick(self) -> bool:
        seat = self.picking_seat
        return seat is not None and self.session.seats[seat].kind == SeatKind.HUMAN

    def _own(self, seat: int) -> tuple[int, int]:
        return (0, 1) if seat == 0 else (2, 3)

    @property
    def animating(self) -> bool:
        if super().animating or self.wait > 0:
            return True
        if any(0 < s.flip < 1 or s.deal < 1 for s in self.slots):
            return True
        return self.cursor < len(self.session.events) or self.session.is_cpu_turn()

    def pick(self, index: int) -> None:
        seat = self.picking_seat
        if seat is None or index not in self._own(seat):
            return
        send(self.session, PickOyagime(index))   # the table's one legality check

    def continue_(self) -> None:
        if self.decided is None or self.decided.dealer is None:
            return
        open_round(self.app, self.session, replace=True)

    def back(self) -> None:
        # the match is saved after every action: Continue on the title resumes it
        self.app.open("title", mode="reset")

    # ---------------------------------------------------------- input
    def _slot_at(self, pos) -> Optional[int]:
        for i in range(3, -1, -1):
            if self.rects[i].collidepoint(pos):
                return i
        return None

    def handle(self, event) -> bool:
        if super().handle(event):
            return True
        seat = self.picking_seat
        mine = self._own(seat) if seat is not None and self.human_can_pick() else ()
        if event.type == pygame.MOUSEMOTION:
            i = self._slot_at(event.pos)
            self.hover_i = i if i in mine else None
            self.key_i = None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            i = self._slot_at(event.pos)
            if i in mine:
                return True
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            i = self._slot_at(event.pos)
            if i in mine:
                self.pick(i)
                return True
        elif event.type == pygame.KEYDOWN and mine:
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.key_i = mine[0] if event.key == pygame.K_LEFT else mine[1]
                self.hover_i = self.key_i
                return True
            if event.key in (pygame.K_1, pygame.K_KP1):
                self.pick(mine[0])
                return True
            if event.key in (pygame.K_2, pygame.K_KP2):
                self.pick(mine[1])
                return True
            if event.key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER) and self.key_i in mine:
                self.pick(self.key_i)
                return True
        return False

    # ---------------------------------------------------------- beats
    def _beat(self, event) -> None:
        if isinstance(event, OyagimeSpread):
            for s in self.slots:
                s.face, s.flip, s.deal = None, 0.0, 0.0
            self.decided = None
            self.go.visible = False
            self.app.play("shuffle", 0.7)
            self.wait = DEAL_TIME
        elif isinstance(event, OyagimePicked):
            slot = self.slots[event.index]
            slot.face = event.card
            slot.flip = 0.001
            self.app.play("flip")
            self.wait = FLIP_TIME + 0.15
        elif isinstance(event, OyagimeDecided):
            self.message = verdict_text(self.session, event)
            if event.dealer is None:
                self.redraws += 1
                self.wait = 2.2
            else:
                self.decided = event
                self.go.visible = True
                self.app.play("yaku", 0.8)
                self.auto_t = 0.0

    def update(self, dt: float) -> None:
        super().update(dt)
        adt = self.app.anim_dt(dt)
        for i, s in enumerate(self.slots):
            if s.deal < 1:
                s.deal = min(1.0, s.deal + adt / DEAL_TIME)
            if 0 < s.flip < 1:
                s.flip = min(1.0, s.flip + adt / FLIP_TIME)
            goal = 1.0 if (i == self.hover_i and self.human_can_pick()) else 0.0
            s.hover += (goal - s.hover) * min(1.0, dt * 14 if self.app.anim_speed > 0 else 1.0)
        if self.wait > 0:
            self.wait -= adt
            if self.wait > 0:
                return
            self.wait = 0.0
        events = self.session.events
        while self.cursor < len(events) and self.wait <= 0:
            ev = events[self.cursor]
            self.cursor += 1
            if isinstance(ev, (OyagimeSpread, OyagimePicked, OyagimeDecided)):
                if self.decided is not None:
                    continue
                self._beat(ev)
        if self.decided is not None:
            if all(s.kind == SeatKind.CPU for s in self.session.seats):
                self.auto_t += adt
                if self.auto_t > 2.5:
                    self.continue_()
            return
        # the CPU's pick
        if self.picking_seat is not None and self.session.is_cpu_turn():
            action = self.cpu.tick(self.session, adt, CPU_DELAY)
            if action is not None and not send(self.session, action):
                log.warning("the CPU chose an illegal pick %r", action)

    # ---------------------------------------------------------- drawing
    def _prompt(self) -> tuple[str, Optional[str]]:
        seat = self.picking_seat
        names = [seat_label(s.name) for s in self.session.seats]
        if self.decided is not None:
            return self.message, None
        if self.wait > 0 and self.redraws and self.message:
            return self.message, None
        if seat is None:
            return "", None
        if self.session.seats[seat].kind == SeatKind.CPU:
            return _("{name} is choosing…").format(name=names[seat]), None
        if self.session.is_hotseat:
            return (_("{name}: turn up one of your cards.").format(name=names[seat]),
                    _("Click a card, or press 1 or 2."))
        return _("Turn up one of your two cards."), _("Click a card, or press 1 or 2.")

    def draw_content(self, surface: pygame.Surface) -> None:
        a = self.app.assets
        w, h = self.size
        self.draw_title(surface, _("Oya-gime  ·  親決め"), self.px(40),
                            subtitle=_("Who deals first? Each player turns up a card: the earlier month deals."))
        # seat labels over each pair
        names = [seat_label(s.name) for s in self.session.seats]
        label_font = self.font("h3", True)
        for seat in (0, 1):
            i, j = self._own(seat)
            cx = (self.rects[i].left + self.rects[j].right) // 2
            color = theme.SEAT_COLORS[seat]
            r = W.draw_text(surface, names[seat], label_font, color, (cx, self.rects[i].top - self.px(58)), "midbottom")
            active = self.picking_seat == seat
            if active:
                W.draw_divider(surface, r.left - self.px(20), r.right + self.px(20), r.bottom + self.px(6),
                               color, max(1, self.px(3)))
            if self.decided is not None and self.decided.dealer == seat:
                # the dealer's seal: 親 on red lacquer beside the name
                bh = self.px(44)
                badge = pygame.Rect(0, 0, bh, bh)
                badge.midleft = (r.right + self.px(16), r.centery)
                surface.blit(W.rounded_surface(badge.size, self.px(8), theme.LACQUER_LIGHT, bottom=theme.LACQUER_DARK,
                                               border=theme.GOLD, border_width=max(1, self.px(2))), badge.topleft)
                W.draw_text(surface, "親", self.font("body", True), theme.CREAM, badge.center, "center")
        # the cards
        month_numbers = bool(self.app.settings.get("month_numbers", True))
        for i, (slot, rect) in enumerate(zip(self.slots, self.rects)):
            k = 1 - (1 - slot.deal) ** 3
            cx = self.deck_pos[0] + (rect.centerx - self.deck_pos[0]) * k
            cy = self.deck_pos[1] + (rect.centery - self.deck_pos[1]) * k
            lift = slot.hover * self.px(22) + math.sin(math.pi * slot.flip) * self.px(30) if slot.flip < 1 else slot.hover * self.px(22)
            cy -= lift
            f = slot.flip
            if f < 0.5 or slot.face is None:
                img = a.back(self.card_h)
                sx = abs(1 - 2 * f) if slot.face is not None else 1.0
            else:
                img = a.card(slot.face, self.card_h, month_number=month_numbers)
                sx = abs(2 * f - 1)
            winner = (self.decided is not None and self.decided.dealer is not None
                      and slot.face is not None and f >= 1
                      and i in self._own(self.decided.dealer))
            if winner:
                g = a.glow(self.card_h)
                surface.blit(g, g.get_rect(center=(int(cx), int(cy))))
            if sx < 0.999:
                img = pygame.transform.smoothscale(img, (max(1, int(img.get_width() * sx)), img.get_height()))
            if slot.hover > 0.05 and slot.flip == 0:
                sel = a.select(self.card_h)
                sel = sel.copy()
                sel.set_alpha(int(255 * slot.hover))
                surface.blit(sel, sel.get_rect(center=(int(cx), int(cy))))
            W.draw_card(surface, img, (cx, cy), anchor="center")
            if slot.face is not None and f >= 1:
                c = card(slot.face)
                name = _("{month} · {plant}").format(month=_(MONTH_NAMES[c.month - 1]), plant=_(c.plant))
                W.draw_text(surface, name,
                            self.font("small"),
                            theme.CREAM, (rect.centerx, rect.bottom + self.px(16)), "midtop")
        # the prompt or the verdict
        text, hint = self._prompt()
        if text:
            font = self.font("h3", True) if self.decided is not None else self.font("body", True)
            color = theme.GOLD_LIGHT if self.decided is not None else theme.CREAM
            ty = self.rects[0].bottom + self.px(88)
            W.draw_text(surface, text, font, color, (w // 2, ty), "midtop")
            if hint:
                W.draw_text(surface, hint, self.font("small"), theme.CREAM_DIM,
                            (w // 2, ty + font.get_linesize() + self.px(6)), "midtop")
        W.draw_text(surface, _("Esc  Title screen"), self.font("tiny"), theme.CREAM_DIM,
                    (self.px(22), h - self.px(22)), "bottomleft")


class UnavailableScene(MenuScene):
    """A plain explanation when a screen cannot be opened (never a crash)."""

    def __init__(self, app, message: str, detail: str = ""):
        self.message = message
        self.detail = detail
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        self.ok = self.button((0, 0, self.px(340), self.px(76)), _("Title screen"), self.back,
                              hotkeys=(pygame.K_RETURN,))
        self.ok.rect.midtop = (w // 2, h // 2 + self.px(90))
        self.widgets = [self.ok]

    def back(self) -> None:
        self.app.open("title", mode="reset")

    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(1100)), self.px(420))
        panel.center = (w // 2, h // 2)
        W.draw_panel(surface, panel, s=self.s)
        W.draw_text(surface, self.message, self.font("h2", True), theme.GOLD_LIGHT,
                    (w // 2, panel.y + self.px(60)), "midtop")
        font = self.font("small")
        y = panel.y + self.px(150)
        saved = _("Your match is saved: choose Continue on the title screen once the game is repaired.")
        for line in W.wrap_text(self.detail + "\n" + saved, font, panel.w - self.px(100))[:5]:
            W.draw_text(surface, line, font, theme.CREAM_DIM, (w // 2, y), "midtop")
            y += font.get_linesize()
