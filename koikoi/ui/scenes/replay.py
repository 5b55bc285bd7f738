"""The replay viewer: one round of a finished match, step by step, all cards face up.

    ReplayScene(app, session_or_state, round_no)

The steps and their words are the replay model's (koikoi/replay.py ``round_steps``; its names
are re-exported here). Keys: Right/Left (or Space/Backspace) step, Home/End jump, a click on a
turn marker jumps there.

The review (``ReplayScene(..., review=True)``, the Review button or R) analyses
the match in the background (``review_panel.ReviewState``: one per match, kept
while viewers open and close), or loads it from the cache at once. While it
runs a progress bar shows under the capture piles, with Cancel (Esc cancels
too); the viewer keeps working. Then every decision of the reviewed seat(s) gets
a mark over its turn marker (? a mistake, ?! an inaccuracy, a tick a good move),
the step's box says the verdict, the points given away, the best choice in words
and the reason, under the round's summary; N / Shift+N jump to the next /
previous mistake or inaccuracy, on into the other rounds.
"""

from __future__ import annotations

from typing import Optional, Union

import pygame

from ... import narration as N
from ...engine import MONTH_NAMES, Kind, State, card
from ...engine.phase import SeatKind
from ...i18n import _, _n
from ...session import TableSession
from ...replay import (KIND_ORDER, Position, RoundIncomplete, description_lines, position_key, position_of_state,
                       problem_text, result_text, round_bounds, round_steps, sorted_ids)
from .. import theme
from .. import widgets as W
from ..hints import style_of, yaku_label
from ..table import seat_label
from . import MenuScene
from . import review_panel as RP
from .ledger import _as_session
from .replay_review import ReplayReview


class ReplayScene(ReplayReview, MenuScene):
    intro_time = 0.25

    def __init__(self, app, session_or_state: Union[TableSession, State], round_no: int, *,
                 review: bool = False):
        self.session = _as_session(session_or_state)
        self.state = self.session.state
        seats = self.session.seats
        self.names = tuple(seat_label(s.name) for s in seats)
        self.round_no = round_no
        humans = [i for i, s in enumerate(seats) if getattr(s, "kind", None) == SeatKind.HUMAN]
        self.you: Optional[int] = humans[0] if len(humans) == 1 else None   # None: a friend match
        self.style = style_of(app.settings)
        self.steps = round_steps(self.state.events, round_no, self.names, you=self.you, style=self.style)
        self.index = 0
        self.hover_marker: Optional[int] = None
        # the review: the match's shared state, and this round's decisions by their event index
        self.review: Optional[RP.ReviewState] = RP.review_for(app, self.session) if RP.reviewable(self.session) \
            else None
        self.decisions: dict = {}
        self._review_key = None
        self._laid_active = False
        self._refresh_review(layout=False)
        super().__init__(app)
        if review:
            self.start_review()

    # ---------------------------------------------------------- navigation
    @property
    def position(self) -> Position:
        return self.steps[self.index]

    def go(self, i: int) -> None:
        i = max(0, min(len(self.steps) - 1, int(i)))
        if i != self.index:
            self.index = i
            self.app.play("snap", 0.4)
        self._sync_buttons()

    def forward(self) -> None:
        self.go(self.index + 1)

    def backward(self) -> None:
        self.go(self.index - 1)

    def first(self) -> None:
        self.go(0)

    def last(self) -> None:
        self.go(len(self.steps) - 1)

    def _sync_buttons(self) -> None:
        if hasattr(self, "prev_b"):
            self.prev_b.enabled = self.home_b.enabled = self.index > 0
            self.next_b.enabled = self.end_b.enabled = self.index < len(self.steps) - 1
        self._sync_review_button()

    def set_round(self, round_no: int) -> None:
        """Show round ``round_no`` of the same match, from its first step."""
        self.steps = round_steps(self.state.events, round_no, self.names, you=self.you, style=self.style)
        self.round_no = round_no
        self.index = 0
        self.hover_marker = None
        self._review_key = None
        self._refresh_review(layout=False)
        self.layout()

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        pad = self.px(36)
        self.header_h = self.px(150)
        bh = self.px(64)
        self.controls_y = h - pad // 2 - bh
        active = self._laid_active = self.review_active
        # with a review: a taller box (its words beside the step's) and room for the marks
        self.badge_h = self.px(24) if active else 0
        self.desc_rect = pygame.Rect(pad, 0, w - 2 * pad, self.px(186 if active else 118))
        self.desc_rect.bottom = self.controls_y - self.px(16)
        self.markers_rect = pygame.Rect(pad + self.px(20), self.desc_rect.y - self.px(48) - self.badge_h,
                                        w - 2 * pad - self.px(40), self.px(36) + self.badge_h)
        d = self.desc_rect
        rw = int(d.w * 0.5) if active else 0      # the review's box: the right half
        self.review_rect = pygame.Rect(d.right - rw, d.y, rw, d.h)
        if active:
            d.w -= rw + self.px(16)
        top = self.header_h
        bottom = self.markers_rect.y - self.px(14)
        side_w = int((w - 2 * pad) * 0.31)
        self.side = pygame.Rect(w - pad - side_w, top, side_w, bottom - top)
        self.table = pygame.Rect(pad, top, self.side.x - pad - self.px(24), bottom - top)
        # four card rows in the table: their hand, two field rows, your hand
        gaps = self.px(26) * 3 + self.px(40)
        ch = (self.table.h - gaps) // 4
        cw = int(ch * 216 / 348)
        max_cw = (self.table.w - self.px(200)) // 9
        if cw > max_cw:
            cw = max_cw
            ch = int(cw * 348 / 216)
        self.card_h, self.card_w = ch, cw
        # buttons
        bw = self.px(170)
        gap = self.px(14)
        self.home_b = self.button((0, self.controls_y, self.px(110), bh), "|◀", self.first, style="secondary",
                                  hotkeys=(pygame.K_HOME,), font_size=theme.font_px("body", self.s))
        self.prev_b = self.button((0, self.controls_y, bw, bh), _("◀  Back"), self.backward, style="secondary",
                                  hotkeys=(pygame.K_LEFT, pygame.K_BACKSPACE))
        self.next_b = self.button((0, self.controls_y, bw, bh), _("Next  ▶"), self.forward, style="primary",
                                  hotkeys=(pygame.K_RIGHT, pygame.K_SPACE))
        self.end_b = self.button((0, self.controls_y, self.px(110), bh), "▶|", self.last, style="secondary",
                                 hotkeys=(pygame.K_END,), font_size=theme.font_px("body", self.s))
        self.close_b = self.button((0, self.controls_y, self.px(220), bh), _("Close"), self.back, style="ghost")
        row = [self.home_b, self.prev_b, self.next_b, self.end_b]
        total = sum(b.rect.w for b in row) + gap * (len(row) - 1)
        x = w // 2 - total // 2
        for b in row:
            b.rect.x = x
            x += b.rect.w + gap
        self.close_b.rect.right = w - pad
        self.widgets = row + [self.close_b]
        if self.review is not None:
            # beside Close, under the review box (its Cancel is next to the progress bar)
            self.review_b = self.button((0, self.controls_y, self.px(250), bh), _("Review"), self._review_button,
                                        style="secondary")
            self.review_b.rect.right = self.close_b.rect.x - gap
            if self.review_b.rect.x < row[-1].rect.right + gap:      # a narrow window: shorter
                self.review_b.rect.w = max(self.px(120), self.review_b.rect.right - row[-1].rect.right - gap)
                self.review_b.rect.right = self.close_b.rect.x - gap
            self.widgets.insert(len(row), self.review_b)
        self.focus.set(self.widgets)
        self.focus.vertical_keys = False
        self._sync_buttons()

    # ---------------------------------------------------------- input
    def _marker_rects(self) -> list[pygame.Rect]:
        n = len(self.steps)
        r = self.markers_rect
        step = min(self.px(40), r.w / max(1, n))
        total = step * n
        x0 = r.centerx - total / 2
        dots_h = r.h - self.badge_h           # the marks of a review go above the dots
        cy = r.bottom - dots_h // 2
        size = max(self.px(10), int(min(step * 0.7, dots_h * 0.7)))
        return [pygame.Rect(int(x0 + i * step + (step - size) / 2), cy - size // 2, size, size)
                for i in range(n)]

    def _marker_at(self, pos) -> Optional[int]:
        if not self.markers_rect.inflate(0, self.px(10)).collidepoint(pos):
            return None
        rects = self._marker_rects()
        best = min(range(len(rects)), key=lambda i: abs(rects[i].centerx - pos[0]))
        return best if abs(rects[best].centerx - pos[0]) <= max(rects[0].w, self.px(20)) else None

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hover_marker = self._marker_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            i = self._marker_at(event.pos)
            if i is not None:
                self.go(i)
                return True
        elif event.type == pygame.MOUSEWHEEL:
            self.go(self.index - event.y)
            return True
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            self.go(self.index + (5 if event.key == pygame.K_PAGEDOWN else -5))
            return True
        elif event.type == pygame.KEYDOWN and self.review is not None:
            plain = not (event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META))
            if event.key == pygame.K_ESCAPE and self.review.running:
                self.cancel_review()
                return True
            if event.key == pygame.K_r and plain:
                self.start_review()
                return True
            if event.key == pygame.K_n and plain:
                self.jump_error(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
        return super().handle(event)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.review is not None:      # (polled by the app's ticker, RP.keep, before the scenes)
            self._refresh_review()

    @property
    def animating(self) -> bool:
        return super().animating or (self.review is not None and self.review.running)

    def exit(self) -> None:
        super().exit()
        if self.review is not None:
            RP.release(self.app, self.session)     # a review runs on while the match's screens stay

    # ---------------------------------------------------------- drawing
    def _card(self, surface, cid, h, pos, *, touched=False) -> pygame.Rect:
        numbers = bool(self.app.settings.get("month_numbers", True))
        img = self.app.assets.card(cid, h, month_number=numbers)
        r = W.draw_card(surface, img, pos, shadow=True)
        if touched:
            ring = r.inflate(self.px(8), self.px(8))
            surface.blit(W.rounded_surface(ring.size, self.px(10), (0, 0, 0, 0), border=theme.GOLD_LIGHT,
                                           border_width=max(2, self.px(4))), ring.topleft)
        return r

    def _row_of_cards(self, surface, ids, y, x0, width, touched) -> None:
        ids = list(ids)
        if not ids:
            return
        cw, ch = self.card_w, self.card_h
        step = min(cw + self.px(12), (width - cw) / max(1, len(ids) - 1)) if len(ids) > 1 else 0
        total = cw + step * (len(ids) - 1)
        x = x0 + (width - total) / 2
        for i, cid in enumerate(ids):
            self._card(surface, cid, ch, (int(x + i * step), y), touched=cid in touched)

    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        p = self.position
        st = self.state
        # header
        cx = w // 2
        W.draw_text(surface, _("REPLAY"), self.font("small", True), theme.GOLD, (cx, self.px(18)), "midtop")
        title = _("Round {n}  ·  {month}").format(n=self.round_no, month=_(MONTH_NAMES[(self.round_no - 1) % 12]))
        r = W.draw_text(surface, title, self.font("h2", True), theme.GOLD_LIGHT, (cx, self.px(44)), "midtop")
        # the preset's short name in the current language (a house rule set's own name as it is)
        rules = N.rules_name(st.rules.name)
        sub = _("{first} vs {second}  ·  {rules}  ·  step {n} of {total}").format(
            first=self.names[0], second=self.names[1], rules=rules, n=self.index + 1, total=len(self.steps))
        W.draw_text(surface, sub, self.font("small"), theme.CREAM_DIM, (cx, r.bottom + self.px(4)), "midtop")
        # the table
        t = self.table
        W.draw_panel(surface, t, fill=theme.PANEL_SOFT, s=self.s)
        tiny = self.font("tiny")
        ch, cw = self.card_h, self.card_w
        label_w = self.px(210)
        inner_x = t.x + label_w
        inner_w = t.right - self.px(20) - inner_x
        ys = [t.y + self.px(20)]
        ys.append(ys[0] + ch + self.px(26))
        ys.append(ys[1] + ch + self.px(14))
        ys.append(t.bottom - self.px(20) - ch)
        for seat, y in ((1, ys[0]), (0, ys[3])):
            color = theme.SEAT_COLORS[seat]
            # a longer name ("CPU（やさしい）") is set smaller before it is cut short
            nf = W.fit_font(self.app.assets, self.names[seat], label_w - self.px(30),
                            theme.font_px("small", self.s), bold=True, minimum=theme.font_px("tiny", self.s))
            name = W.ellipsize(self.names[seat], nf, label_w - self.px(30))
            W.draw_text(surface, name, nf, color, (t.x + self.px(24), y + ch // 2 - self.px(10)), "midleft")
            in_hand = _("{n} in hand").format(n=len(p.hands[seat]))
            if getattr(st.ledger[self.round_no - 1], "dealer", None) == seat:
                info = _("dealer  {in_hand}").format(in_hand=in_hand)
            else:
                info = in_hand
            W.draw_text(surface, info, tiny, theme.CREAM_DIM, (t.x + self.px(24), y + ch // 2 + self.px(14)),
                        "midleft", shadow=False)
            self._row_of_cards(surface, sorted_ids(p.hands[seat]), y, inner_x, inner_w, p.touched)
        # the stock beside the field
        back = self.app.assets.back(ch)
        sx, sy = t.x + self.px(24), ys[1] + (ys[2] - ys[1]) // 2
        if p.stock_count:
            for k in range(min(3, p.stock_count)):
                surface.blit(back, (sx + k * 2, sy - k * 2))
        W.draw_text(surface, _("Stock {n}").format(n=p.stock_count), tiny, theme.CREAM,
                    (sx + cw // 2, sy + ch + self.px(6)), "midtop", shadow=False)
        if p.pending:
            self._card(surface, p.pending, ch, (sx + cw + self.px(16), sy), touched=True)
        # the field in two rows, by month
        fld = sorted_ids(p.field)
        half = (len(fld) + 1) // 2
        field_x = inner_x + (cw + self.px(30) if p.pending else 0)
        field_w = inner_w - (field_x - inner_x)
        self._row_of_cards(surface, fld[:half], ys[1], field_x, field_w, p.touched)
        self._row_of_cards(surface, fld[half:], ys[2], field_x, field_w, p.touched)
        if not fld:
            W.draw_text(surface, _("The field is empty"), self.font("small"), theme.CREAM_DIM,
                        (field_x + field_w // 2, (ys[1] + ys[2] + ch) // 2), "center")
        # the result over the field on the last step
        if p.kind == "end" and p.row is not None:
            self._draw_result_banner(surface, p, pygame.Rect(inner_x, ys[1], inner_w, ys[2] + ch - ys[1]))
        # the capture piles
        self._draw_piles(surface, p)
        # the markers
        self._draw_markers(surface)
        # the description
        d = self.desc_rect
        W.draw_panel(surface, d, fill=theme.PANEL, s=self.s)
        font = self.font("body")
        bold = self.font("body", True)
        y = d.y + self.px(14)
        hint = self._keys_hint()
        tiny = self.font("tiny")
        free = d.h - self.px(20) - (tiny.get_linesize() if hint and self.review_active else 0)
        room = max(1, free // font.get_linesize())
        width = d.w - self.px(60)
        lines = description_lines(p, lambda text: W.wrap_text(text, font, width), room,
                                  lambda text: W.text_width(text, font) <= width)
        for text, k in lines:
            color = theme.CREAM
            f = font
            tone = p.tones[k] if k < len(p.tones) else ""
            if tone == "yaku":
                color, f = theme.GOLD_LIGHT, bold
            elif tone == "koikoi":
                color, f = theme.LACQUER_LIGHT, bold
            W.draw_text(surface, text, f, color, (d.x + self.px(30), y), shadow=False)
            y += font.get_linesize()
        if self.review_active:
            self._draw_review_box(surface)
        if hint:
            right = d.right - self.px(20)
            W.draw_text(surface, W.ellipsize(hint, tiny, right - d.x - self.px(30)), tiny, theme.MUTED,
                        (right, d.bottom - self.px(10)), "bottomright", shadow=False)

    def _keys_hint(self) -> str:
        r = self.review
        if r is not None and r.running:
            return _("← → to step  ·  Esc cancels the review")
        if self.reviewed:
            return _("← → to step  ·  N / Shift+N next / previous mistake")
        if self.index < len(self.steps) - 1:
            if r is not None:
                return _("← → to step  ·  Home / End  ·  click a marker  ·  R to review")
            return _("← → to step  ·  Home / End  ·  click a marker")
        return ""

    def _draw_result_banner(self, surface, p: Position, area: pygame.Rect) -> None:
        row = p.row
        big = self.font("h2", True)
        if row.winner is None:
            head = _("Draw") if row.reason == "lucky_draw" else _("No game")
            color = theme.CREAM
        else:
            who = self.names[row.winner]
            if self.you is not None and self.you == row.winner:    # the seat, not the name
                head = _n("{who} win {n} point", "{who} win {n} points", row.award)
            else:
                head = _n("{who} wins {n} point", "{who} wins {n} points", row.award)
            head = head.format(who=who, n=row.award)
            color = theme.SEAT_COLORS[row.winner]
        style = self.style
        sub = _(", ").join(_("{yaku} {points}").format(yaku=yaku_label(n, style, short=True), points=pts)
                            for n, pts, _k in row.yaku) or _("Both hands are empty")
        small = self.font("small")
        w = max(W.text_width(head, big), W.text_width(sub, small)) + self.px(80)
        box = pygame.Rect(0, 0, min(area.w, w), big.get_linesize() + small.get_linesize() + self.px(44))
        box.center = area.center
        W.draw_panel(surface, box, fill=theme.PANEL_STRONG, border=theme.GOLD_LIGHT, s=self.s)
        r = W.draw_text(surface, head, big, color, (box.centerx, box.y + self.px(18)), "midtop")
        W.draw_text(surface, W.ellipsize(sub, small, box.w - self.px(30)), small, theme.GOLD_LIGHT,
                    (box.centerx, r.bottom + self.px(6)), "midtop")

    def _draw_piles(self, surface, p: Position) -> None:
        sd = self.side
        half = (sd.h - self.px(16)) // 2
        for seat, y in ((1, sd.y), (0, sd.y + half + self.px(16))):
            box = pygame.Rect(sd.x, y, sd.w, half)
            W.draw_panel(surface, box, fill=theme.PANEL, s=self.s,
                         border=theme.SEAT_COLORS[seat] if p.seat == seat else theme.GOLD_DARK)
            head = self.font("small", True)
            tiny = self.font("tiny")
            x = box.x + self.px(20)
            r = W.draw_text(surface, W.ellipsize(self.names[seat], head, box.w // 2), head, theme.SEAT_COLORS[seat],
                            (x, box.y + self.px(12)))
            if p.calls[seat]:
                tag = _("Koi-Koi ×{n}").format(n=p.calls[seat]) if p.calls[seat] > 1 else _("Koi-Koi")
                W.draw_text(surface, tag, self.font("tiny", True), theme.LACQUER_LIGHT,
                            (box.right - self.px(20), r.centery), "midright")
            yk = p.yaku[seat]
            style = self.style
            ytext = _(", ").join(_("{yaku} {points}").format(yaku=yaku_label(n, style, short=True), points=pt)
                                for n, pt in yk) if yk else _("No yaku yet")
            ty = r.bottom + self.px(4)
            W.draw_text(surface, W.ellipsize(ytext, tiny, box.w - self.px(40)), tiny,
                        theme.GOLD_LIGHT if yk else theme.CREAM_DIM, (x, ty), shadow=False)
            # cards by kind: two rows (brights + animals, ribbons + chaff)
            area = pygame.Rect(x, ty + tiny.get_linesize() + self.px(8), box.w - self.px(40), 0)
            area.h = box.bottom - self.px(12) - area.y
            ph = min(int((area.h - self.px(8)) / 2), int(self.card_h * 0.8))
            pw = int(ph * 216 / 348)
            groups = {k: [] for k in KIND_ORDER}
            for cid in sorted_ids(p.captured[seat]):
                groups[card(cid).kind].append(cid)
            for row_i, kinds in enumerate(((Kind.BRIGHT, Kind.ANIMAL), (Kind.RIBBON, Kind.CHAFF))):
                ids_a, ids_b = groups[kinds[0]], groups[kinds[1]]
                n = len(ids_a) + len(ids_b)
                if not n:
                    continue
                gap = self.px(14) if ids_a and ids_b else 0
                step = min(pw + self.px(6), (area.w - gap - pw * (2 if ids_a and ids_b else 1)) / max(1, n - 2 if ids_a and ids_b else n - 1))
                step = max(self.px(6), step)
                cx = area.x
                cy = area.y + row_i * (ph + self.px(8))
                for grp in (ids_a, ids_b):
                    for j, cid in enumerate(grp):
                        self._card(surface, cid, ph, (int(cx), cy), touched=cid in p.touched)
                        cx += step if j < len(grp) - 1 else pw
                    if grp:
                        cx += gap
            if not p.captured[seat]:
                W.draw_text(surface, _("Nothing captured yet"), tiny, theme.CREAM_DIM, area.center, "center",
                            shadow=False)

    def _draw_markers(self, surface) -> None:
        rects = self._marker_rects()
        self.mark_rects: dict = {}       # step index -> its mark's rect (as drawn)
        r = self.markers_rect
        if rects:
            W.draw_divider(surface, rects[0].centerx, rects[-1].centerx, r.centery, theme.GOLD_DARK,
                           max(1, self.px(2)))
        for i, (rr, step) in enumerate(zip(rects, self.steps)):
            if step.kind == "koikoi":
                color = theme.LACQUER_LIGHT
            elif step.kind in ("end", "stop") or step.made_yaku:
                color = theme.GOLD_LIGHT
            elif step.seat is not None:
                color = theme.SEAT_COLORS[step.seat]
            else:
                color = theme.CREAM
            cur = i == self.index
            size = rr.inflate(self.px(8), self.px(8)) if cur else rr
            if i == self.hover_marker and not cur:
                size = rr.inflate(self.px(4), self.px(4))
            fill = color if cur or i < self.index else theme.darken(color, 0.55)
            surface.blit(W.rounded_surface(size.size, size.w // 2, fill,
                                           border=theme.CREAM if cur else theme.darken(color, 0.2),
                                           border_width=max(1, self.px(2))), size.topleft)
            d = self.decisions.get(step.start)
            top = size.y
            if d is not None:
                top = self._draw_mark(surface, d, rr, cur, i)
            if step.kind == "koikoi" and (cur or i == self.hover_marker):
                W.draw_text(surface, _("Koi-Koi"), self.font("tiny", True), theme.LACQUER_LIGHT,
                            (size.centerx, top - self.px(4)), "midbottom")



__all__ = ["ReplayScene", "Position", "round_steps", "round_bounds", "position_key", "position_of_state",
           "result_text", "RoundIncomplete", "problem_text"]
