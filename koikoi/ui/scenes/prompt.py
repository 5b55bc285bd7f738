"""The Koi-Koi decision: stop now (勝負 Shōbu) or play on (こいこい Koi-Koi).

An overlay over the round table: the yaku held (their cards and points,
big), what stopping now would earn with every multiplier spelled out
(``view.award(seat)``), and the two choices (keys S and K; Tab or the arrow
keys put the focus on one, Enter takes it). Neither choice is the default:
both buttons look alike and the focus starts on neither. With practice hints
on, the coach weighs playing on (``coach.summary``) and ``recommend`` turns
its numbers into advice, shown as a "Coach suggests" tag on one button.
``on_choice`` receives ``Stop()`` or ``KoiKoi()``; the round scene checks and
applies it.
"""

from __future__ import annotations

import logging
import math
import threading
from typing import Callable, Optional

import pygame

from ...engine import KoiKoi, Stop
from ...engine.scoring import multipliers
from ...narration import multiplier_label
from ... import coach
from .. import anim, hints, theme
from .. import widgets as W
from ..scene import Scene
from ..tooltip import HoverTimer, draw_tooltip
from ..table.hud import yaku_label
from ...i18n import N_, _, ngettext
from ..table import seat_label
from ...engine.phase import SeatKind

log = logging.getLogger("koikoi.prompt")

STOP, KOIKOI = "stop", "koikoi"           # ``recommend``'s answers
SUGGESTS = N_("Coach suggests")              # the tag on the recommended button (drawn in capitals)


def recommend(odds, pays_now: int, pays_later: int) -> Optional[str]:
    """The coach's advice from its numbers: ``STOP``, ``KOIKOI``, or None (no numbers).

    ``odds`` is ``coach.risk``'s answer for playing on, ``pays_now`` what stopping
    pays now, ``pays_later`` what stopping at the next chance would pay (one point
    more, with one more call's multipliers: ``pays_if_improved``).

    Stopping banks ``pays_now``. Playing on stakes it: the seat is paid only if it
    improves its yaku before the opponent makes or improves one (``odds.mine``),
    and then it can stop for ``pays_later``. If the opponent gets there first
    (``odds.theirs``) the seat's yaku score nothing and the opponent scores, which
    is counted as losing about as much again (a yaku for a yaku); if the round runs
    out, nothing is paid. So the coach suggests Koi-Koi when

        mine × pays_later  >  pays_now + theirs × pays_now

    and Stop otherwise, and always Stop when the seat's hand is empty (no turn is
    left to improve in: playing on can only lose what it holds).
    """
    if not isinstance(odds, coach.Odds) or odds.samples <= 0 or pays_now <= 0:
        return None
    if odds.hand_empty:
        return STOP
    gain = odds.mine * pays_later
    cost = pays_now * (1.0 + odds.theirs)
    return KOIKOI if gain > cost else STOP


def pays_if_improved(view, seat: int) -> int:
    """What ``seat`` would be paid for stopping after calling Koi-Koi now and adding
    one base point: the least an improvement brings (``recommend``'s ``pays_later``)."""
    aw = view.award(seat)
    base = aw.base + 1
    total = base
    for _label, factor in multipliers(base, view.rules, view.calls[seat] + 1, view.calls[1 - seat],
                                      view.field_brights):
        total *= factor
    return total


def _halo(size, spread: int):
    """A soft gold glow ``spread`` px around a panel of ``size`` (made once per size)."""
    w, h = size[0] + 2 * spread, size[1] + 2 * spread
    f = 4
    small = pygame.Surface((max(4, w // f), max(4, h // f)), pygame.SRCALPHA)
    inner = pygame.Rect(spread // f, spread // f, size[0] // f, size[1] // f)
    for i in range(spread // f, 0, -1):
        a = int(120 * (1 - i / (spread / f + 1)) ** 2)
        pygame.draw.rect(small, (*theme.GOLD_LIGHT, a), inner.inflate(2 * i, 2 * i), border_radius=i + 4)
    pygame.draw.rect(small, (*theme.GOLD_LIGHT, 120), inner, border_radius=4)
    return pygame.transform.smoothscale(small, (w, h)), spread



# award rows that are no yaku made from the pile: a bonus for one's own Koi-Koi calls
BONUS_ROWS = frozenset({"koikoi_bonus"})

class KoiKoiPromptScene(Scene):
    opaque = False
    pauses_below = True

    def __init__(self, app, session, seat: int, on_choice: Callable[[object], None], *,
                 practice: Optional[bool] = None,
                 gate: Optional[Callable[[object], Optional[str]]] = None,
                 pick: Optional[str] = None, note: Optional[str] = None):
        """``gate`` (lessons): asked about each choice before it is made; a string refuses
        it, shown over the panel, and the question stays open. ``pick``: "stop" or "koikoi",
        the button to ring with a pulse; ``note``: a line shown above the panel."""
        super().__init__(app)
        self.gate = gate
        self.pick = pick if pick in (STOP, KOIKOI) else None
        self.note = note
        self.refusal: Optional[str] = None
        self.session = session
        self.seat = seat
        self.on_choice = on_choice
        self.chosen = False
        self.t = 0.0
        self.animating = True
        if practice is None:
            try:
                other = session.seats[1 - seat]
                level = other.level if other.kind == SeatKind.CPU else None
                practice = hints.hints_enabled(getattr(app, "settings", {}), level, session.is_hotseat)
            except (AttributeError, IndexError):
                practice = False
        self.practice = bool(practice)
        self.tip = HoverTimer()
        self.mouse = (-10000, -10000)
        self.card_rects: list = []          # (Rect in window pixels, card id)
        self.style = hints.style_of(getattr(app, "settings", {}))
        v = session.view(seat)
        self.view = v
        # the coach: the risk of playing on, worked out off the render loop
        self.coach_risk: Optional[float] = None
        self.coach_pays = v.award(seat).total
        self.coach_later = pays_if_improved(v, seat)
        self.coach_pick: Optional[str] = None      # STOP or KOIKOI: the evaluator's pick
        self._coach_thread: Optional[threading.Thread] = None
        if self.practice:
            self._start_coach(v)
        self.award = v.award(seat)
        self.before = dict(v.koikoi_refs[seat]) if v.koikoi_refs else {}
        self.calls = v.calls
        self.cards_left = len(v.hand)
        self.opponent_left = v.opponent_hand_count
        self.buttons: list = []
        self.panel_img: Optional[pygame.Surface] = None
        self.size = None
        self.resize(app.size)

    # ------------------------------------------------------------------ coach
    def _start_coach(self, v) -> None:
        seed = len(self.session.events)

        def work():
            try:
                # the pick is the review's own evaluation of this View (coach.advice), so the
                # prompt and the review after the match give one answer; set before the odds,
                # which say the coach is ready
                try:
                    self.coach_pick = STOP if coach.advice(v).best == Stop() else KOIKOI
                except Exception:   # the odds' own rule (recommend) picks instead
                    log.exception("the coach's evaluation failed")
                odds, pays = coach.summary(v, samples=200, seed=seed)
                self.coach_pays = pays
                self.coach_risk = odds
            except Exception:   # the coach is advice: it must never block the decision
                log.exception("the coach failed")
                self.coach_risk = -1.0
        self._coach_thread = threading.Thread(target=work, name="koikoi-coach", daemon=True)
        self._coach_thread.start()

    @property
    def recommendation(self) -> Optional[str]:
        """``STOP`` or ``KOIKOI`` once the coach has its numbers (practice only), else None."""
        if not self.practice or self.coach_risk is None or self.coach_risk < 0:
            return None
        if self.coach_pick is not None:
            return self.coach_pick
        return recommend(self.coach_risk, self.coach_pays, self.coach_later)

    def recommended_button(self) -> Optional[W.Button]:
        rec = self.recommendation
        if rec is None or not self.buttons:
            return None
        return self.stop_button if rec == STOP else self.koikoi_button

    def coach_text(self) -> Optional[str]:
        """The coach's line (Easy only), or None."""
        if not self.practice:
            return None
        if self.coach_risk is None:
            return _("Coach: weighing the odds of playing on… Stop pays {points} now.").format(points=self.coach_pays)
        if self.coach_risk < 0:
            return _("Coach: Stop pays {points} now.").format(points=self.coach_pays)
        try:
            other = self.session.seats[1 - self.seat]
            who = _("the CPU") if other.kind == SeatKind.CPU else seat_label(other.name)
        except (AttributeError, IndexError):
            who = _("the CPU")
        return coach.coach_line(self.coach_risk, self.coach_pays, who)

    # ------------------------------------------------------------------ layout
    def _shown_rows(self, rows: list, limit: int) -> list:
        """At most ``limit`` of the yaku rows, in their order: the ones this turn made or
        raised first (the reason for the question), then the rest."""
        if len(rows) <= limit:
            return list(rows)
        fresh = [i for i, (name, pts, _) in enumerate(rows) if pts > self.before.get(name, 0)]
        keep = set((fresh + [i for i in range(len(rows)) if i not in fresh])[:limit])
        return [r for i, r in enumerate(rows) if i in keep]

    def resize(self, size) -> None:
        self.size = tuple(size)
        w, h = self.size
        s = theme.scale(size)
        a = self.app.assets
        pw = min(w - 2 * theme.px(24, s), max(int(w * 0.56), theme.px(980, s)))
        pad = theme.px(36, s)
        title_f = a.font(theme.font_px("h1", s), True)
        name_px = theme.font_px("h2", s)
        name_f = a.font(name_px, True)
        sub_f = a.font(theme.font_px("small", s))
        body_f = a.font(theme.font_px("body", s))
        pts_f = a.font(theme.font_px("h2", s), True)
        tag_f = a.font(max(9, theme.font_px("tiny", s)), True)
        card_h = max(20, int(h * 0.105))
        month_numbers = True
        try:
            month_numbers = bool(self.app.settings.get("month_numbers", True))
        except AttributeError:
            pass

        # the bonus for one's own calls is no yaku made: said on a line of its own, no NEW
        bonus = sum(p for n, p, _i in self.award.yaku if n in BONUS_ROWS)
        rows = [r for r in self.award.yaku if r[0] not in BONUS_ROWS]
        shown_rows = self._shown_rows(rows, 4)
        hidden = [r for r in rows if r not in shown_rows]
        inner_w = pw - 2 * pad
        # the line under the award: the arithmetic, then the reasons (two lines when long)
        aw = self.award
        if aw.multipliers:
            detail = _("{base} {factors} = {total}   ({reasons})").format(
                base=aw.base, factors=" ".join(f"× {f}" for _l, f in aw.multipliers), total=aw.total,
                reasons=_(", ").join(multiplier_label(lbl) for lbl, _f in aw.multipliers))
        else:
            detail = _("{base} base points, no multipliers").format(base=aw.base)
        detail_lines = [detail] if W.text_width(detail, sub_f) <= inner_w else W.wrap_text(detail, sub_f, inner_w)
        detail_lines = [W.ellipsize(line, sub_f, inner_w) for line in detail_lines[:2]]
        bh = theme.px(theme.BUTTON_H * 1.35, s)
        # the "Coach suggests" tag stands on the top edge of a button: room for its upper half
        self.tag_font = tag_f
        tag_room = (int((tag_f.get_height() + theme.px(6, s)) * 0.7) + theme.px(6, s)) if self.practice else 0
        min_row = name_f.get_height() + sub_f.get_height() + theme.px(8, s)
        row_h = max(card_h, name_f.get_height() + sub_f.get_height()) + theme.px(14, s)
        rest = (pad + title_f.get_height() + theme.px(10, s)
                + (sub_f.get_height() if hidden else 0) + (sub_f.get_height() if bonus else 0)
                + theme.px(16, s) + body_f.get_height() + theme.px(4, s) + sub_f.get_height() * len(detail_lines)
                + theme.px(12, s) + theme.px(12, s) + tag_room + bh + pad
                + (self._coach_h(s) if self.practice else 0))
        avail = h - 2 * theme.px(12, s)
        if shown_rows and rest + len(shown_rows) * row_h > avail:   # a short window: smaller cards
            row_h = max(min_row, (avail - rest) // len(shown_rows))
            card_h = max(20, min(card_h, row_h - theme.px(10, s)))
        ph = min(rest + len(shown_rows) * row_h, avail)
        panel = pygame.Rect(0, 0, pw, ph)
        panel.center = (w // 2, h // 2)
        self.panel = panel

        self.card_rects = []
        img = pygame.Surface(panel.size, pygame.SRCALPHA)
        img.blit(W.rounded_surface(panel.size, theme.px(22, s), (44, 12, 16, 246), bottom=(16, 6, 8, 246),
                                   border=theme.GOLD, border_width=max(2, theme.px(3, s)), highlight=30), (0, 0))
        y = pad
        r = W.draw_text(img, _("出来役  Yaku!"), title_f, theme.GOLD_LIGHT, (pw // 2, y), "midtop")
        y = r.bottom + theme.px(10, s)
        W.draw_divider(img, pad, pw - pad, y, theme.GOLD_DARK)
        y += theme.px(6, s)
        pts_w = pts_f.size("88")[0]
        name_room = int(inner_w * 0.5)     # the name column; the cards take the rest, overlapping when many
        for name, pts, ids in shown_rows:
            # the kanji and the short name; the English under them when both are shown
            main, second = hints.yaku_heading_lines(name, self.style)
            tag = ""
            if pts > self.before.get(name, 0):
                tag = _("NEW") if name not in self.before else f"+{pts - self.before[name]}"
            tw, th = tag_f.size(tag) if tag else (0, 0)
            tag_w = tw + theme.px(14 + 12, s) if tag else 0
            nf = W.fit_font(a, main, name_room - tag_w, name_px, bold=True, minimum=max(9, name_px * 2 // 3))
            main = W.ellipsize(main, nf, name_room - tag_w)
            top = y + theme.px(6, s)
            if row_h < name_f.get_height() + sub_f.get_height() + theme.px(14, s):   # squeezed: centred
                top = y + max(0, (row_h - nf.get_height() - (sub_f.get_height() if second else 0)) // 2)
            nr = W.draw_text(img, main, nf, theme.CREAM, (pad, top))
            left_end = nr.right
            if second:
                sr = W.draw_text(img, W.ellipsize(second, sub_f, name_room), sub_f, theme.CREAM_DIM,
                                 (pad, top + nf.get_height()))
                left_end = max(left_end, sr.right)
            if tag:
                # what this turn made or raised
                tr = pygame.Rect(nr.right + theme.px(12, s), nr.centery - th // 2 - 2, tw + theme.px(14, s), th + 4)
                img.blit(W.rounded_surface(tr.size, tr.h // 2, theme.LACQUER, border=theme.GOLD_LIGHT,
                                           border_width=1), tr.topleft)
                W.draw_text(img, tag, tag_f, theme.CREAM, tr.center, "center", shadow=False)
                left_end = max(left_end, tr.right)
            pr = W.draw_text(img, f"{pts}", pts_f, theme.GOLD_LIGHT, (pw - pad, y + row_h // 2), "midright")
            # the cards of the yaku, right of the name, overlapping when many
            cards = [a.card(c, card_h, month_number=month_numbers) for c in ids]
            card_ids = list(ids)
            if cards:
                cw = cards[0].get_width()
                right = pw - pad - max(pr.w, pts_w) - theme.px(24, s)
                left = left_end + theme.px(24, s)
                room = max(cw, right - left)
                step = cw + theme.px(4, s)
                if len(cards) > 1 and cw + step * (len(cards) - 1) > room:
                    step = max(4, (room - cw) // (len(cards) - 1))
                x = max(left, right - (cw + step * (len(cards) - 1)))
                for cid, c in zip(card_ids, cards):
                    img.blit(c, (x, y + (row_h - card_h) // 2))
                    self.card_rects.append((pygame.Rect(panel.x + x, panel.y + y + (row_h - card_h) // 2,
                                                        min(step, cw), card_h), cid))
                    x += step
                if self.card_rects:
                    r0, cid0 = self.card_rects[-1]
                    self.card_rects[-1] = (pygame.Rect(r0.x, r0.y, cw, r0.h), cid0)
            y += row_h
        if hidden:
            more = ngettext("+ {n} more: {yaku}", "+ {n} more: {yaku}", len(hidden)).format(
                n=len(hidden), yaku=_(",  ").join(
                    _("{yaku} {points}").format(yaku=yaku_label(n, self.style, short=True), points=p)
                    for n, p, _r in hidden))
            W.draw_text(img, W.ellipsize(more, sub_f, inner_w), sub_f, theme.CREAM_DIM, (pad, y))
            y += sub_f.get_height()
        if bonus:
            line = ngettext("+ {points} point of Koi-Koi bonus for your own calls",
                            "+ {points} points of Koi-Koi bonus for your own calls", bonus).format(points=bonus)
            W.draw_text(img, W.ellipsize(line, sub_f, inner_w), sub_f, theme.GOLD, (pad, y))
            y += sub_f.get_height()
        y += theme.px(8, s)
        W.draw_divider(img, pad, pw - pad, y, theme.GOLD_DARK)
        y += theme.px(8, s)
        line = ngettext("Stop now and win {n} point", "Stop now and win {n} points", aw.total).format(n=aw.total)
        W.draw_text(img, line, body_f, theme.GOLD_LIGHT, (pw // 2, y), "midtop")
        y += body_f.get_height() + theme.px(4, s)
        for dl in detail_lines:
            W.draw_text(img, dl, sub_f, theme.CREAM_DIM, (pw // 2, y), "midtop")
            y += sub_f.get_height()
        y += theme.px(12, s)
        # the coach's line goes here (drawn each frame: the estimate arrives from a thread)
        self.coach_rect = pygame.Rect(pad, y, pw - 2 * pad, self._coach_h(s) - theme.px(10, s))
        self.coach_font = a.font(theme.font_px("small", s))
        self._coach_img_key = None
        self.panel_img = img
        self.halo = _halo(panel.size, theme.px(60, s))

        # Two alike buttons: neither is the default (the coach's advice is a tag, drawn over them).
        bw = (pw - pad * 3) // 2
        by = panel.bottom - pad - bh
        stop = W.Button(pygame.Rect(panel.x + pad, by, bw, bh), _("勝負  Shōbu"), self._stop, style="secondary",
                        sublabel=_("Stop and score now  (S)"), assets=a, hotkeys=(pygame.K_s,), sound=None)
        koi = W.Button(pygame.Rect(panel.right - pad - bw, by, bw, bh), _("こいこい  Koi-Koi"), self._koikoi,
                       style="secondary", sublabel=_("Play on for more  (K)"), assets=a, hotkeys=(pygame.K_k,),
                       sound=None)
        focused = getattr(self, "focus", None)
        was = None
        if focused is not None and focused.current is not None and self.buttons:
            was = self.buttons.index(focused.current)
        self.stop_button, self.koikoi_button = stop, koi
        self.buttons = [stop, koi]
        self.focus = W.FocusGroup(self.buttons, vertical_keys=False)   # on neither until Tab or an arrow
        if was is not None:
            self.focus.focus(self.buttons[was])

    def _coach_h(self, s: float) -> int:
        f = self.app.assets.font(theme.font_px("small", s))
        return f.get_linesize() * 2 + theme.px(26, s)

    def _coach_image(self) -> Optional[pygame.Surface]:
        text = self.coach_text()
        if text is None:
            return None
        key = (text, self.coach_rect.size)
        if self._coach_img_key != key:
            r = self.coach_rect
            img = pygame.Surface(r.size, pygame.SRCALPHA)
            img.blit(W.rounded_surface(r.size, max(4, r.h // 5), (0, 0, 0, 90), border=(*theme.GOLD_DARK, 220),
                                       border_width=1), (0, 0))
            f = self.coach_font
            room = r.w - 2 * max(8, r.h // 4)
            lines = W.wrap_text(text, f, room)
            if len(lines) > 2:          # a long line: a size smaller, so it keeps to the box's two lines
                f = self.app.assets.font(max(9, theme.font_px("tiny", theme.scale(self.size))))
                lines = W.wrap_text(text, f, room)
                if len(lines) > 2:
                    lines = [lines[0], W.ellipsize(" ".join(lines[1:]), f, room)]
            lh = f.get_linesize()
            y = (r.h - lh * min(2, len(lines))) // 2
            for line in lines[:2]:
                W.draw_text(img, line, f, theme.CREAM, (r.w // 2, y), "midtop")
                y += lh
            self._coach_img = img
            self._coach_img_key = key
        return self._coach_img

    def suggestion_rect(self) -> Optional[pygame.Rect]:
        """Where the "Coach suggests" tag stands: on the top edge of the button the
        coach recommends (None: no recommendation)."""
        b = self.recommended_button()
        if b is None:
            return None
        f = self.tag_font
        tw, th = f.size(_(SUGGESTS).upper())
        s = theme.scale(self.size)
        r = pygame.Rect(0, 0, tw + theme.px(28, s), th + theme.px(6, s))
        r.centerx = b.rect.centerx
        r.bottom = b.rect.top + int(r.h * 0.3)     # mostly above the button, clear of its label
        return r

    def _draw_suggestion(self, surface: pygame.Surface) -> None:
        b = self.recommended_button()
        r = self.suggestion_rect()
        if b is None or r is None:
            return
        s = theme.scale(self.size)
        # a gold ring round the button, then the tag on its top edge
        ring = b.rect.inflate(theme.px(10, s), theme.px(10, s))
        surface.blit(W.rounded_surface(ring.size, theme.px(16, s), (0, 0, 0, 0), border=theme.GOLD_LIGHT,
                                       border_width=max(2, theme.px(3, s))), ring.topleft)
        surface.blit(W.rounded_surface(r.size, r.h // 2, (28, 22, 12, 250), border=theme.GOLD_LIGHT,
                                       border_width=max(1, theme.px(2, s))), r.topleft)
        W.draw_text(surface, _(SUGGESTS).upper(), self.tag_font, theme.GOLD_LIGHT, r.center, "center", shadow=False)

    def _draw_lesson(self, surface: pygame.Surface) -> None:
        """A lesson's touches: a pulsing ring on the button it asks for, and its note (or
        the refusal of the other choice) in a box above the panel."""
        s = theme.scale(self.size)
        b = self.stop_button if self.pick == STOP else self.koikoi_button if self.pick == KOIKOI else None
        if b is not None:
            k = 0.5 + 0.5 * math.sin(self.t * 5.0)
            ring = b.rect.inflate(theme.px(12 + 8 * k, s), theme.px(12 + 8 * k, s))
            img = W.rounded_surface(ring.size, theme.px(16, s), (0, 0, 0, 0), border=theme.GOLD_LIGHT,
                                    border_width=max(2, theme.px(4, s))).copy()   # (the cache's own is shared)
            img.set_alpha(int(140 + 115 * k))
            surface.blit(img, ring.topleft)
        text = self.refusal or self.note
        if not text:
            return
        f = self.app.assets.font(theme.font_px("body", s))
        pad = theme.px(14, s)
        width = min(self.size[0] - 2 * theme.px(24, s), max(self.panel.w, theme.px(700, s)))
        lines = W.wrap_text(text, f, width - 2 * pad)[:3]
        lh = f.get_linesize()
        box = pygame.Rect(0, 0, width, lh * len(lines) + 2 * pad)
        box.centerx = self.size[0] // 2
        box.bottom = max(box.h + theme.px(6, s), self.panel.y - theme.px(10, s))
        border = theme.LACQUER if self.refusal else theme.GOLD
        surface.blit(W.rounded_surface(box.size, theme.px(14, s), (24, 18, 10, 240), border=border,
                                       border_width=max(2, theme.px(3, s))), box.topleft)
        y = box.y + pad
        for line in lines:
            W.draw_text(surface, line, f, theme.CREAM, (box.centerx, y), "midtop")
            y += lh

    # ------------------------------------------------------------------ choosing
    def _choose(self, action) -> None:
        if self.chosen:
            return
        if self.gate is not None:
            refused = self.gate(action)
            if refused:
                self.refusal = refused
                return
        self.chosen = True
        self.on_choice(action)

    def _stop(self) -> None:
        self._choose(Stop())

    def _koikoi(self) -> None:
        self._choose(KoiKoi())

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.mouse = tuple(event.pos)
        for b in self.buttons:
            if b.handle(event):
                return True
        if self.focus.handle(event):      # Tab / Shift-Tab
            return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.focus.focus(self.stop_button if event.key == pygame.K_LEFT else self.koikoi_button)
            return True   # Esc does not dismiss: a decision is required; Enter needs a focused button
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)

    def update(self, dt: float) -> None:
        self.t += dt
        self.animating = True   # the halo pulses while the question is open
        hit = None
        if self.practice and self.t > 0.32:
            for r, cid in reversed(self.card_rects):
                if r.collidepoint(self.mouse):
                    hit = cid
                    break
        self.tip.update(dt, hit, hit, self.mouse, hit is not None)

    def draw(self, surface: pygame.Surface) -> None:
        if surface.get_size() != self.size:
            self.resize(surface.get_size())
        W.draw_scrim(surface, (0, 0, 0, 140))
        k = anim.out_back(min(1.0, self.t / 0.32))
        dy = int((1.0 - k) * self.panel.h * 0.15)
        img = self.panel_img
        img.set_alpha(int(255 * min(1.0, self.t / 0.2)))
        # a slow golden pulse around the panel: the celebration
        halo, spread = self.halo
        halo.set_alpha(int(150 + 90 * math.sin(self.t * 3.2)) if self.t > 0.2 else int(self.t / 0.2 * 150))
        surface.blit(halo, (self.panel.x - spread, self.panel.y - spread + dy))
        surface.blit(img, (self.panel.x, self.panel.y + dy))
        coach_img = self._coach_image()
        if coach_img is not None:
            coach_img.set_alpha(int(255 * min(1.0, self.t / 0.2)))
            surface.blit(coach_img, (self.panel.x + self.coach_rect.x, self.panel.y + self.coach_rect.y + dy))
        if dy == 0 or self.t > 0.32:
            for b in self.buttons:
                b.draw(surface)
            self._draw_suggestion(surface)
            self._draw_lesson(surface)
        if self.practice and getattr(self.app, "top", self) is self:
            draw_tooltip(surface, self.app.assets, self.tip, self.style)
