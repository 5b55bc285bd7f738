"""The score of one round, shown over the table when the round ends.

``RoundResultsScene(app, session, ended_event, on_close)`` is an overlay
pushed by the round scene: every yaku with its cards and points, the base,
each multiplier with its reason, the award (or "No game", or the lucky hand),
then both match totals. Continue (Enter, Space, or a click on the button)
calls ``on_close()``; the overlay does not pop itself, the caller decides
what comes next. A first key press during the reveal shows everything at once.
Beside Continue, "Review" (R) opens this round's replay with the match's review
started (only for a local match's round that is in its log); closing the replay
comes back here.
"""

from __future__ import annotations

import logging
from typing import Callable, Optional

import pygame

from ...engine import MONTH_NAMES
from ...engine.endings import ending
from ...engine.events import RoundEnded
from ...engine.rules import Rules
from ...i18n import _, ngettext, pgettext
from ... import narration as N
from ...narration import multiplier_label
from ...replay import problem_text, round_bounds
from .. import theme
from .. import widgets as W
from ..assets import card_size
from ..hints import yaku_title
from ..table import seat_label
from . import MenuScene
from . import review_panel as RP
from ...engine.phase import SeatKind

log = logging.getLogger("koikoi.results")

REVEAL_STEP = 0.22       # seconds between the rows of the breakdown


def multiplier_text(label: str, winner: Optional[int], names: tuple) -> str:
    """The engine's multiplier label in the words of this table's seats (translated)."""
    if winner is None:
        return multiplier_label(label)
    other = names[1 - winner]
    me = names[winner]
    if label == "opponent called Koi-Koi":
        return _("{who} called Koi-Koi").format(who=other)
    if label == "you called Koi-Koi":
        return _("{who} called Koi-Koi").format(who=me)
    text = multiplier_label(label)
    return text[:1].upper() + text[1:]


def round_title(row, months: Optional[int]) -> str:
    month = _(MONTH_NAMES[(row.round - 1) % 12])
    if months:
        return _("Round {n} of {months}  ·  {month}").format(n=row.round, months=months, month=month)
    return _("Round {n}  ·  {month}").format(n=row.round, month=month)


def you_seat(session) -> Optional[int]:
    """The seat that reads as "You": the human seat outside friend (hot-seat) matches, else None."""
    try:
        if session.is_hotseat:
            return None
        seats = [i for i, s in enumerate(session.seats) if s.kind == SeatKind.HUMAN]
    except (AttributeError, TypeError):
        return None
    return seats[0] if len(seats) == 1 else None


def headline(row, names: tuple, hotseat: bool, you: Optional[int] = -1, *, rules=None,
             events=(), end=None) -> tuple[str, str]:
    """(big line, explanation) for a ledger row. ``you``: the seat that reads as "You"
    (None: nobody); left out, a seat named "You" (in English or translated) does. The
    explanation is ``narration.why_ended`` of the round's ending under ``rules`` (default
    rules when not given), told from ``events`` (the match's log) where it names the card."""
    if row.reason == "lucky_draw":
        big = _("A draw")
    elif row.winner is None:
        big = _("No game")
    if row.winner is not None:
        who = names[row.winner]
        if you == -1:
            you = row.winner if (who.lower() == "you" or who == _("You")) else None
        you = row.winner if you is not None and you == row.winner else None
        is_you = you is not None
        big = (_("Lucky hand!") if row.reason == "lucky_hand" else _("You win the round") if is_you
               else _("{name} wins the round").format(name=who))
    elif you == -1:
        you = None
    if end is None:
        end = ending(row, rules if rules is not None else Rules(), events)
    return big, N.why_ended(end, names, you=you)


def draw_card_strip(surface: pygame.Surface, assets, ids, rect: pygame.Rect, *, month_numbers: bool = True,
                    max_step: Optional[int] = None) -> None:
    """Small cards side by side in ``rect`` (overlapping when they do not fit)."""
    if not ids:
        return
    h = rect.h
    cw, _ = card_size(h)
    n = len(ids)
    natural = cw + max(2, h // 14)
    step = natural if max_step is None else min(natural, max_step)
    if n > 1 and cw + step * (n - 1) > rect.w:
        step = max(4, (rect.w - cw) // (n - 1))
    for i, cid in enumerate(ids):
        W.draw_card(surface, assets.card(cid, h, month_number=month_numbers), (rect.x + i * step, rect.y))


class RoundResultsScene(MenuScene):
    opaque = False
    pauses_below = True
    intro_time = 0.3

    def __init__(self, app, session, ended_event: RoundEnded, on_close: Optional[Callable[[], None]] = None,
                 *, look_back: bool = False):
        self.look_back = look_back    # a past round opened from the ledger: Close, nothing to continue
        self.session = session
        self.event = ended_event
        self.row = ended_event.row
        self.on_close = on_close
        self.names = tuple(seat_label(s.name) for s in session.seats)
        self.revealed = 0.0
        self._end = None          # the round's engine.endings.Ending, read once
        self._sounded = 0
        self._closed = False
        super().__init__(app)
        self.app.play("win" if self._good_news() else ("lose" if self.row.winner is not None else "stop"), 0.8)

    def _headline(self) -> tuple:
        if self._end is None:
            s = self.session
            self._end = ending(self.row, s.rules or Rules(), s.events)
        return headline(self.row, self.names, self.session.is_hotseat, you_seat(self.session), end=self._end)

    def _good_news(self) -> bool:
        w = self.row.winner
        return w is not None and (self.session.is_hotseat or self.session.seats[w].kind == SeatKind.HUMAN)

    # ---------------------------------------------------------- layout
    def _lines(self) -> int:
        """How many reveal steps the breakdown has."""
        return len(self.row.yaku) + len(self.row.multipliers) + 2

    def layout(self) -> None:
        w, h = self.size
        row = self.row
        ny = max(1, len(row.yaku))
        pw = min(w - self.px(60), self.px(1220))
        pad = self.px(56)
        # the fixed parts, measured as draw_content lays them out
        _big, why = self._headline()
        why_lines = len(W.wrap_text(why, self.font("small"), pw - 2 * pad)[:2]) if why else 0
        header_h = (self.px(30 + 40 + 8 + 14 + 16) + self.font("h1", True).get_linesize()
                    + why_lines * self.font("small").get_linesize())
        nm = len(row.multipliers)
        line_h = self.px(50)
        calc_h = (self.px(6 + 8 + 12 + 20) + line_h * (nm + 2)) if row.winner is not None else 0
        footer_h = self.px(34 + 92 + 26 + 76 + 30)
        name_h = self.font("body", True).get_height()
        self.two_line_h = name_h + self.font("small").get_height() + self.px(10)   # a yaku row's two lines
        one_line_h = name_h + self.px(10)
        ph_max = h - self.px(40)
        # Stacked: the yaku rows, then the calculation under their names. When that does not
        # fit with both lines of every name, side by side: the yaku left, the calculation right.
        self.side = False
        if row.yaku:
            self.yaku_h = self.px(112) if ny <= 4 else max(self.px(64), self.px(480) // ny)
            fixed = header_h + calc_h + footer_h
            if fixed + ny * self.yaku_h > ph_max:   # a small window: squeeze the yaku rows
                self.yaku_h = max(self.px(44), (ph_max - fixed) // ny)
            if self.yaku_h < self.two_line_h and row.winner is not None:
                self.side = True
                room = ph_max - header_h - footer_h
                self.yaku_h = max(one_line_h, min(self.px(112), room // ny))
            body_h = max(ny * self.yaku_h, calc_h) if self.side else ny * self.yaku_h + calc_h
        else:
            self.yaku_h = self.px(90)
            body_h = self.yaku_h + calc_h
        self.panel = pygame.Rect(0, 0, pw, min(ph_max, header_h + body_h + footer_h))
        self.panel.center = (w // 2, h // 2)
        bw, bh = self.px(320), self.px(76)
        label = _("Close") if self.look_back else pgettext("round results", "Continue")
        self.ok = self.button((0, 0, bw, bh), label, self.close, style="primary",
                              hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE))
        self.ok.rect.midbottom = (w // 2, self.panel.bottom - self.px(30))
        self.widgets = [self.ok]
        self.review_b = None
        if self._can_review():
            rw = min(self.px(220), (self.panel.right - self.px(56)) - (self.ok.rect.right + self.px(24)))
            if rw >= self.px(120):
                self.review_b = self.button((0, 0, rw, bh), _("Review"), self.review_round, style="ghost",
                                            hotkeys=(pygame.K_r,))
                self.review_b.rect.midleft = (self.ok.rect.right + self.px(24), self.ok.rect.centery)
                self.widgets.append(self.review_b)

    def _can_review(self) -> bool:
        """A local match's round whose events are in the log (the replay needs them)."""
        if not RP.reviewable(self.session):
            return False
        try:
            round_bounds(self.session.events, self.row.round)
        except (ValueError, AttributeError):
            return False
        return True

    def review_round(self) -> None:
        """This round's replay, with the review started; closing it comes back here."""
        if not self.done_revealing:
            self.revealed = float(self._lines())
            return
        try:
            self.app.open("replay", self.session, self.row.round, review=True)
        except ValueError as exc:
            log.warning("round %s cannot be reviewed: %s", self.row.round, exc)
            self.app.toast(_("This round cannot be reviewed: {problem}").format(problem=problem_text(exc)),
                           5.0, "warning")

    # ---------------------------------------------------------- behaviour
    @property
    def done_revealing(self) -> bool:
        return self.revealed >= self._lines()

    @property
    def animating(self) -> bool:
        return super().animating or not self.done_revealing

    def close(self) -> None:
        if not self.done_revealing:
            self.revealed = float(self._lines())
            return
        if self._closed:
            return
        self._closed = True
        if self.on_close is not None:
            self.on_close()
        elif self.app.top is self:
            self.app.pop()

    def back(self) -> None:
        self.close()

    def handle(self, event) -> bool:
        if not self.done_revealing and (event.type == pygame.KEYDOWN or
                                        (event.type == pygame.MOUSEBUTTONUP and event.button == 1)):
            self.revealed = float(self._lines())
            return True
        super().handle(event)
        return True   # a modal overlay: nothing reaches the table below

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.intro >= 1 and not self.done_revealing:
            self.revealed = min(float(self._lines()), self.revealed + self.app.anim_dt(dt) / REVEAL_STEP)
            n = int(self.revealed)
            if n > self._sounded and n <= len(self.row.yaku) and self.app.anim_speed > 0:
                self.app.play("yaku", 0.5)
            self._sounded = n

    # ---------------------------------------------------------- drawing
    def _alpha_for(self, i: int) -> float:
        return max(0.0, min(1.0, self.revealed - i))

    def resize(self, size) -> None:
        self._static = None
        super().resize(size)

    def exit(self) -> None:
        """Closed: the drawn panel goes now, not when the garbage collector frees the scene."""
        self._static = None
        super().exit()

    def draw(self, surface: pygame.Surface) -> None:
        k = self.intro
        W.draw_scrim(surface, (0, 0, 0, int(150 * k)))
        if k >= 1 and self.done_revealing:
            # nothing moves any more: draw the panel once, then only blit it. Only the
            # part with something on it is kept (the panel and its shadow), not the
            # whole window: the rest is clear and blitting it changes no pixel.
            if getattr(self, "_static", None) is None:
                layer = self.scratch_layer()
                self.draw_content(layer)
                box = layer.get_bounding_rect()
                self._static = (layer.subsurface(box).copy(), box.topleft)
                self.drop_scratch()
            img, at = self._static
            surface.blit(img, at)
            for wdg in self.widgets:
                wdg.draw(surface)
            return
        if k >= 1:
            self.drop_scratch()
            self.draw_content(surface)
            for wdg in self.widgets:
                wdg.draw(surface)
            return
        layer = self.scratch_layer()
        self.draw_content(layer)
        for wdg in self.widgets:
            wdg.draw(layer)
        layer.set_alpha(int(255 * k))
        surface.blit(layer, (0, int((1 - k) * self.px(30))))

    def draw_content(self, surface: pygame.Surface) -> None:
        a = self.app.assets
        row = self.row
        p = self.panel
        W.draw_panel(surface, p, fill=(13, 21, 18, 252), s=self.s)   # opaque: no ghost cards through it
        cx = p.centerx
        pad = self.px(56)
        y = p.y + self.px(30)
        W.draw_text(surface, W.ellipsize(round_title(row, self.session.months).upper(), self.font("small", True),
                                         p.w - 2 * pad),
                    self.font("small", True), theme.GOLD, (cx, y), "midtop")
        y += self.px(40)
        big, why = self._headline()
        color = theme.GOLD_LIGHT if self._good_news() else theme.CREAM
        big_f = W.fit_font(a, big, p.w - 2 * pad, theme.font_px("h1", self.s), bold=True)
        big = W.ellipsize(big, big_f, p.w - 2 * pad)
        r = W.draw_text(surface, big, big_f, color, (cx, y), "midtop")
        y = max(r.bottom, y + self.font("h1", True).get_linesize()) + self.px(8)
        if why:
            font = self.font("small")
            for line in W.wrap_text(why, font, p.w - 2 * pad)[:2]:
                W.draw_text(surface, line, font, theme.CREAM_DIM, (cx, y), "midtop")
                y += font.get_linesize()
        y += self.px(14)
        W.draw_divider(surface, p.x + pad, p.right - pad, y, theme.GOLD_DARK, max(1, self.px(2)))
        y += self.px(16)
        # the yaku: stacked, each row the cards, the name and the points across the panel, the
        # calculation under the names; side by side (many yaku), the yaku left, the calculation right
        month_numbers = bool(self.app.settings.get("month_numbers", True))
        left, right = p.x + pad, p.right - pad
        name_font, sub_font, pts_font = self.font("body", True), self.font("small"), self.font("h3", True)
        if self.side:
            yaku_right = left + int((right - left) * 0.58)
            strip_w = int((yaku_right - left) * 0.36)
            name_x = left + strip_w + self.px(20)
            calc_x = yaku_right + self.px(44)
        else:
            yaku_right = right
            strip_w = int((right - left) * 0.46)
            name_x = left + strip_w + self.px(30)
            calc_x = name_x
        two_lines = self.yaku_h >= self.two_line_h
        pts_w = pts_font.size("88")[0]
        name_room = yaku_right - pts_w - self.px(20) - name_x
        body_top = y
        step_i = 0
        if row.yaku:
            for name, pts, ids in row.yaku:
                alpha = self._alpha_for(step_i)
                step_i += 1
                if alpha <= 0:
                    y += self.yaku_h
                    continue
                layer = pygame.Surface((p.w, self.yaku_h), pygame.SRCALPHA)
                ch = max(self.px(34), self.yaku_h - self.px(18))
                ch = min(ch, self.yaku_h - 2)
                draw_card_strip(layer, a, ids, pygame.Rect(pad, (self.yaku_h - ch) // 2, strip_w, ch),
                                month_numbers=month_numbers)
                main, sub = yaku_title(name)
                ty = self.yaku_h // 2
                nx = name_x - p.x
                if two_lines:
                    W.draw_text(layer, W.ellipsize(main, name_font, name_room), name_font, theme.CREAM, (nx, ty),
                                "bottomleft")
                    W.draw_text(layer, W.ellipsize(sub, sub_font, name_room), sub_font, theme.GOLD,
                                (nx, ty + self.px(2)), "topleft")
                else:   # one line: the name (smaller if need be), then the rōmaji and kanji if they fit
                    nf = W.fit_font(a, main, name_room, theme.font_px("body", self.s), bold=True,
                                    minimum=theme.font_px("small", self.s))
                    nr = W.draw_text(layer, W.ellipsize(main, nf, name_room), nf, theme.CREAM, (nx, ty), "midleft")
                    rest = name_room - nr.w - self.px(14)
                    if W.text_width(sub, sub_font) <= rest:
                        W.draw_text(layer, sub, sub_font, theme.GOLD, (nr.right + self.px(14), nr.bottom - self.px(2)),
                                    "bottomleft")
                W.draw_text(layer, f"{pts}", pts_font, theme.GOLD_LIGHT, (yaku_right - p.x, ty), "midright")
                layer.set_alpha(int(255 * alpha))
                surface.blit(layer, (p.x, y + int((1 - alpha) * self.px(12))))
                y += self.yaku_h
        else:
            step_i += 1
            msg = _("No yaku were scored.") if row.winner is None else ""
            if msg:
                W.draw_text(surface, msg, self.font("body"), theme.CREAM_DIM, (cx, y + self.px(30)), "midtop")
            y += self.px(90)
        yaku_bottom = y
        if self.side:
            y = body_top - self.px(6)
        # base, multipliers, award
        line_h = self.px(50)
        label_f, factor_f = self.font("body"), self.font("h3", True)
        texts = [multiplier_text(label, row.winner, self.names) for label, _ in row.multipliers]
        if texts:   # one size for every multiplier's reason: the largest in which the longest fits
            widest = max(texts, key=lambda t: W.text_width(t, label_f))
            label_room = right - calc_x - factor_f.size("×88")[0] - self.px(16)
            label_f = W.fit_font(a, widest, label_room, theme.font_px("body", self.s),
                                 minimum=theme.font_px("small", self.s))
        if row.winner is not None:
            y += self.px(6)
            W.draw_divider(surface, calc_x - self.px(10), right, y, theme.GOLD_DARK)
            y += self.px(8)
            if self._alpha_for(step_i) > 0:
                W.draw_text(surface, _("Base"), label_f, theme.CREAM_DIM, (calc_x, y + line_h // 2), "midleft")
                W.draw_text(surface, str(row.base), factor_f, theme.CREAM, (right, y + line_h // 2),
                            "midright")
            y += line_h
            step_i += 1
            for text, (_label, factor) in zip(texts, row.multipliers):
                if self._alpha_for(step_i) > 0:
                    fr = W.draw_text(surface, f"×{factor}", factor_f, theme.LACQUER_LIGHT,
                                     (right, y + line_h // 2), "midright")
                    room = fr.left - self.px(16) - calc_x
                    W.draw_text(surface, W.ellipsize(text, label_f, room), label_f, theme.CREAM_DIM,
                                (calc_x, y + line_h // 2), "midleft")
                y += line_h
                step_i += 1
            if self._alpha_for(step_i) > 0:
                W.draw_divider(surface, calc_x - self.px(10), right, y + self.px(4), theme.GOLD, max(1, self.px(2)))
                W.draw_text(surface, _("Award"), self.font("body", True), theme.GOLD_LIGHT,
                            (calc_x, y + self.px(12) + line_h // 2), "midleft")
                k = self._alpha_for(step_i)
                shown = int(round(row.award * k))
                W.draw_text(surface, f"+{shown}", self.font("h2", True), theme.GOLD_LIGHT,
                            (right, y + self.px(12) + line_h // 2), "midright")
            y += self.px(12) + line_h + self.px(20)
        else:
            step_i += 1 + len(row.multipliers)
        if self.side:
            y = max(y, yaku_bottom)
        # both match totals
        self._draw_totals(surface, y)

    def _draw_totals(self, surface: pygame.Surface, y: int) -> None:
        row = self.row
        p = self.panel
        pad = self.px(56)
        box_h = self.px(92)
        limit = self.ok.rect.top - self.px(26)
        y = max(y + self.px(34), limit - box_h)
        gap = self.px(20)
        bw = (p.w - 2 * pad - gap) // 2
        for seat in (0, 1):
            r = pygame.Rect(p.x + pad + seat * (bw + gap), y, bw, box_h)
            won = row.winner == seat and row.award > 0
            fill = (60, 20, 22, 200) if won else (255, 255, 255, 12)
            surface.blit(W.rounded_surface(r.size, self.px(12), fill,
                                           border=theme.GOLD if won else theme.GOLD_DARK, border_width=1), r.topleft)
            score_r = W.draw_text(surface, str(row.scores[seat]), self.font("h2", True), theme.CREAM,
                                  (r.right - self.px(24), r.centery), "midright")
            left_of = score_r.left
            if won:
                ar = W.draw_text(surface, f"+{row.award}", self.font("small", True), theme.GOLD_LIGHT,
                                 (score_r.left - self.px(16), r.centery), "midright")
                left_of = ar.left
            room = left_of - self.px(16) - (r.x + self.px(24))
            nf = W.fit_font(self.app.assets, self.names[seat], room, theme.font_px("body", self.s), bold=True,
                            minimum=theme.font_px("tiny", self.s))
            W.draw_text(surface, W.ellipsize(self.names[seat], nf, room), nf, theme.SEAT_COLORS[seat],
                        (r.x + self.px(24), r.centery), "midleft")
        W.draw_text(surface, _("MATCH TOTALS"), self.font("tiny", True), theme.CREAM_DIM,
                    (p.centerx, y - self.px(6)), "midbottom")
