"""The table's heads-up display: both seats' panels, the yaku line over each capture
pile, the month label, the guidance line above the hand, and the banners.

Everything here reads the displayed table (``ctx.table``, the fold shown, and the
pose being shown for the piles), never the engine's newest state: a panel
never runs ahead of the cards on the felt.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Optional

import pygame

from ...engine import Phase, SeatKind
from ...engine import card as card_of
from ...engine.cards import ID_TO_INDEX
from ...engine.scoring import round_month, yaku_points
from .. import board, hints, theme
from .. import widgets as W
from ...i18n import N_, _, ngettext
from ...narration import turn_summary
from .controls import field_matches

if TYPE_CHECKING:  # pragma: no cover
    from .context import TableContext

log = logging.getLogger("koikoi.table")

KIND_LABELS = (N_("光"), N_("種"), N_("短"), N_("カス"))   # the empty stacks' labels, as on a real table
# (translated where drawn)


yaku_label = hints.yaku_label
"""A yaku's name for the ``name_style`` setting, in the current language (``hints.yaku_label``)."""


def mask(ids) -> int:
    m = 0
    for i in ids:
        m |= 1 << ID_TO_INDEX[i]
    return m


class Banner:
    """A centred announcement that fades in, holds and fades out (pre-rendered once)."""

    def __init__(self, image: pygame.Surface, life: float):
        self.image = image
        self.life = life
        self.t = 0.0

    @property
    def alpha(self) -> int:
        fade = min(0.25, self.life / 4)
        if self.t < fade:
            return int(255 * self.t / fade)
        if self.t > self.life - fade:
            return int(255 * max(0.0, (self.life - self.t) / fade))
        return 255


class Hud:
    def __init__(self, ctx: "TableContext"):
        self.ctx = ctx
        self.cache: dict = {}
        self.combo_rects: dict = {}      # seat -> Rect of its clickable combo preview

    def clear(self) -> None:
        self.cache.clear()

    # ------------------------------------------------------------------ fonts
    def fonts(self, card_h: int) -> None:
        f = self.ctx.assets.font
        self.f_small = f(max(9, int(card_h * 0.13)))
        self.body_size = max(10, int(card_h * 0.155))
        self.f_body = f(self.body_size)
        self.bold_size = max(10, int(card_h * 0.16))
        self.small_size = max(9, int(card_h * 0.13))
        self.f_bold = f(self.bold_size, True)
        self.f_score = f(max(12, int(card_h * 0.3)), True)
        self.f_big = f(max(14, int(card_h * 0.42)), True)
        self.f_banner_sub = f(max(11, int(card_h * 0.2)))

    # ------------------------------------------------------------------ what the piles hold
    def _cached(self, key, make):
        got = self.cache.get(key)
        if got is None:
            if len(self.cache) > 64:
                self.cache.clear()
            got = self.cache[key] = make()
        return got

    def yaku_of(self, seat: int) -> tuple:
        """The yaku in ``seat``'s displayed pile (as the engine scores them)."""
        t = self.ctx.stage.pose.table
        pile, field, calls, month = t.captured[seat], t.field, t.calls[seat], round_month(t.round)
        return self._cached((seat, pile, field, calls, month),
                            lambda: yaku_points(mask(pile), self.ctx.session.rules, mask(field),
                                                calls, month))

    def near_of(self, seat: int) -> list:
        """Easy practice: yaku one card from ``seat``'s displayed pile."""
        pose = self.ctx.stage.pose
        t = pose.table

        def make():
            try:
                return [x for x in hints.near_misses(pose.view(), seat, max_away=1)
                        if x.away == 1]
            except Exception:   # a hint must never break the table
                log.exception("near misses failed")
                return []
        return self._cached(("near", seat, t.captured, t.field, t.hand, pose.flip, pose.onto), make)

    def combo_title(self, seat: int) -> str:
        """"YOUR COMBOS", "CPU COMBOS", or the friend's name in a friend match."""
        ctx = self.ctx
        kind = ctx.session.seats[seat].kind
        if not ctx.session.is_hotseat:
            if seat == ctx.seat and kind == SeatKind.HUMAN:
                return _("YOUR COMBOS")
            if kind == SeatKind.CPU:
                return _("CPU COMBOS")
        return _("{name} COMBOS").format(name=W.caps(ctx.name(seat)))

    # ------------------------------------------------------------------ the background layer
    def draw_field_bed(self, surface, lay) -> None:
        pad = lay.card_h // 7
        a = lay.field_grid.inflate(2 * pad, 2 * pad)
        a = a.clip(pygame.Rect(lay.field_area.x, 0, lay.size[0] - lay.margin - lay.field_area.x,
                               lay.size[1]))
        surface.blit(W.rounded_surface(a.size, max(4, lay.card_h // 8), (0, 0, 0, 30)), a.topleft)
        fl = lay.flip.inflate(4, 4)
        surface.blit(W.rounded_surface(fl.size, max(3, lay.card_h // 16), (0, 0, 0, 40),
                                       border=(255, 240, 200, 40), border_width=1), fl.topleft)

    def draw(self, surface, lay) -> None:
        """Both panels, the yaku lines, the empty stacks' labels and the month label."""
        t = self.ctx.stage.pose.table
        for seat in (0, 1):
            self.draw_panel(surface, lay, seat)
            self._yaku_line(surface, lay, seat)
            self._stack_labels(surface, lay, seat, t.captured[seat])
        if self.ctx.policy.shows_turn_log:
            self.draw_log(surface, lay)
        label = (_("Month {n} / {months}").format(n=t.round, months=t.months) if t.months else
                 _("Round {n}").format(n=t.round))
        target = self.ctx.session.rules.target_points
        if target:
            label = _("{label} · to {points}").format(label=label, points=target)
        rl = lay.round_label
        W.draw_text(surface, label, self.f_bold, theme.GOLD_LIGHT, (rl.centerx, rl.bottom), "midbottom")

    def log_lines(self) -> list:
        """The last turns in words, oldest first: "CPU: played Crane and took a Pine plain"."""
        ctx = self.ctx
        style = ctx.settings.name_style()
        if style == "both":
            style = "english"        # one name a card: the log has two lines to say a turn in
        out = []
        for seat, events in ctx.director.log:
            turn, _cards = turn_summary(events, seat, style)
            if turn:
                who = _("You") if ctx.is_you(seat) else ctx.name(seat)
                out.append(_("{name}: {turn}").format(name=who, turn=turn))
        return out

    def draw_log(self, surface, lay) -> None:
        """The turn log, between the other side's hand and the field: the last two turns."""
        lines = self.log_lines()[-2:]
        if not lines:
            return
        lh = self.f_small.get_linesize()
        zone = lay.opponent_zone
        top = zone.bottom + max(2, lay.card_h // 30)
        bottom = lay.field_grid.y - lay.card_h // 7 - 2
        room = max(0, (bottom - top) // lh)
        lines = lines[-room:] if room else []
        x, w = lay.field_grid.x, lay.field_grid.w
        for i, text in enumerate(lines):
            newest = i == len(lines) - 1
            W.draw_text(surface, W.ellipsize(text, self.f_small, w), self.f_small,
                        theme.CREAM if newest else theme.CREAM_DIM, (x, top + i * lh))

    def _yaku_line(self, surface, lay, seat: int) -> None:
        line = lay.yaku_line[seat]
        yaku = self.yaku_of(seat)
        if yaku:
            # the names as the Names setting says (Both: "三光 Sankō 5"), whole, then "+2 more"
            total = sum(p for _n, p in yaku)
            style = self.ctx.settings.name_style()
            name = hints.yaku_heading if style == "both" else (lambda n, st: yaku_label(n, st, short=True))
            items = [f"{name(n, style)} {p}" for n, p in yaku]
            form = _("{yaku}   = {points} pt") if total == 1 else _("{yaku}   = {points} pts")
            room = line.w - W.text_width(form.format(yaku="", points=total), self.f_body)
            parts, _hidden = W.fit_items(items, self.f_body, room, none_fit=ngettext(
                "{n} yaku", "{n} yaku", len(items)).format(n=len(items)))
            text = form.format(yaku=parts, points=total)
            r = W.draw_text(surface, text, self.f_body, theme.GOLD_LIGHT, (line.right, line.centery), "midright")
            if _hidden:
                W.note_cut(r, form.format(yaku="  ·  ".join(items), points=total))
            return
        n = len(self.ctx.stage.pose.table.captured[seat])
        label = _("{n} captured").format(n=n) if n else _("No captures yet")
        W.draw_text(surface, label, self.f_small, theme.CREAM_DIM, (line.right, line.centery), "midright")

    def _stack_labels(self, surface, lay, seat: int, pile: tuple) -> None:
        """Each stack's kind when it is empty, its count beside its top card when not."""
        for kind_i, rect in enumerate(lay.stacks[seat]):
            kind = board.KIND_ORDER[kind_i]
            ids = [c for c in lay.captured_order[seat] if card_of(c).kind == kind]
            if not ids:
                ph = pygame.Rect(rect.x, rect.y, lay.small_w, lay.small_h)
                surface.blit(W.rounded_surface(ph.size, max(2, lay.small_h // 14), (0, 0, 0, 36),
                                               border=(255, 240, 200, 40), border_width=1), ph.topleft)
                W.draw_text(surface, _(KIND_LABELS[kind_i]), self.f_small, (255, 240, 200, 110),
                            ph.center, "center", shadow=False)
                continue
            r = lay.captured[seat].get(ids[-1])
            if r is not None:
                W.draw_text(surface, str(len(ids)), self.f_small, theme.CREAM,
                            (r.right + 3, rect.bottom), "bottomleft")

    def _status_of(self, seat: int, active: bool, lay) -> Optional[tuple]:
        ctx = self.ctx
        if active:
            phase = ctx.table.phase
            if ctx.session.seats[seat].kind == SeatKind.CPU:
                msg = _("▶ thinking…")
            elif phase == Phase.DECIDE:
                msg = _("▶ deciding…")
            elif phase == Phase.CHOOSE:
                msg = _("▶ choosing a card")
            else:
                msg = _("▶ to play")
            return msg, theme.GOLD_LIGHT
        if seat != lay.bottom:
            n = ctx.stage.pose.table.opponent_hand_count
            return _("{n} in hand").format(n=n), theme.CREAM_DIM
        return None

    def draw_panel(self, surface, lay, seat: int) -> None:
        ctx = self.ctx
        t = ctx.stage.pose.table
        r = lay.panel[seat]
        self.combo_rects.pop(seat, None)
        if r.h < 20 or r.w < 20:
            return
        active = t.to_move == seat and not t.is_over
        W.draw_panel(surface, r, fill=theme.PANEL_SOFT if not active else (30, 22, 10, 210),
                     border=theme.GOLD_LIGHT if active else theme.GOLD_DARK, s=ctx.s,
                     border_width=max(1, int(ctx.s * (3 if active else 1.5))))
        pad = max(4, int(lay.card_h * 0.08))
        x, y = r.x + pad, r.y + pad
        color = theme.SEAT_COLORS[0 if seat == lay.bottom else 1]
        # the name beside the dealer's badge: smaller if it needs to be, cut only past that
        room = r.w - 2 * pad - int(self.f_bold.get_height() * 1.3)
        size = self.bold_size
        name = ctx.name(seat)         # (the game's own names translated)
        font = W.fit_font(ctx.assets, name, room, size, bold=True, minimum=max(9, int(size * 0.75)))
        nr = W.draw_text(surface, W.ellipsize(name, font, room), font, color,
                         (x, y + (self.f_bold.get_height() - font.get_height()) // 2))
        nr.y, nr.h = y, self.f_bold.get_height()
        if t.dealer == seat:
            br = pygame.Rect(0, 0, int(self.f_bold.get_height() * 1.15), self.f_bold.get_height())
            br.midright = (r.right - pad, nr.centery)
            surface.blit(W.rounded_surface(br.size, br.h // 4, theme.LACQUER, border=theme.GOLD_LIGHT,
                                           border_width=1), br.topleft)
            W.draw_text(surface, "親", self.f_small, theme.CREAM, br.center, "center", shadow=False)
        y = nr.bottom + pad // 3
        sr = W.draw_text(surface, str(t.scores[seat]), self.f_score, theme.CREAM, (x, y))
        W.draw_text(surface, _("pts"), self.f_small, theme.CREAM_DIM, (sr.right + pad // 2, sr.bottom - pad // 3),
                    "bottomleft")
        # Koi-Koi calls share the score's row, at the right, or go under it when a long
        # score leaves no room
        calls = t.calls[seat]
        font = self.f_bold if calls else self.f_small
        text = _("こいこい ×{n}").format(n=calls)
        pts_right = sr.right + pad // 2 + self.f_small.size(_("pts"))[0]
        y = sr.bottom + pad // 2
        if pts_right + pad > r.right - pad - font.size(text)[0]:
            cr = W.draw_text(surface, text, font, theme.LACQUER_LIGHT if calls else theme.MUTED,
                             (r.right - pad, sr.bottom), "topright")
            y = cr.bottom + pad // 3
        else:
            W.draw_text(surface, text, font, theme.LACQUER_LIGHT if calls else theme.MUTED,
                        (r.right - pad, sr.bottom - pad // 3), "bottomright")
        status = self._status_of(seat, active, lay)
        status_h = self.f_small.get_linesize() + pad
        box_bottom = r.bottom - (status_h if status else pad)
        lh = self.f_small.get_linesize()
        if status is not None and not active and (box_bottom - y < lh * 2 + pad
                                                  or len(self.yaku_of(seat)) >= 2):
            status = None                    # the backs show the count anyway: room for the combos
            box_bottom = r.bottom - pad
        if lh + pad // 2 <= box_bottom - y < lh * 2 + pad:
            self._combo_line(surface, seat, pygame.Rect(x - pad // 2, y, r.w - pad, lh + pad // 2), pad)
        elif box_bottom - y >= lh * 2 + pad:
            self._combo_box(surface, seat, pygame.Rect(x - pad // 2, y, r.w - pad, box_bottom - y), pad)
        if status is not None:
            W.draw_text(surface, status[0], self.f_small, status[1], (x, r.bottom - pad), "bottomleft")

    def _combo_frame(self, surface, seat: int, box: pygame.Rect, pad: int) -> None:
        surface.blit(W.rounded_surface(box.size, max(3, pad // 2), (0, 0, 0, 60),
                                       border=(*theme.GOLD_DARK, 200), border_width=1), box.topleft)
        self.combo_rects[seat] = box

    def _combo_line(self, surface, seat: int, box: pygame.Rect, pad: int) -> None:
        """One line only: "CPU COMBOS  Sankō 5  ›" (the inspector has the full names)."""
        self._combo_frame(surface, seat, box, pad)
        style = self.ctx.settings.name_style()
        yaku = self.yaku_of(seat)
        arrow = W.draw_text(surface, "›", self.f_bold, theme.GOLD, (box.right - pad // 2, box.centery),
                            "midright")
        left = box.x + pad // 2
        if not yaku:
            tr = W.draw_text(surface, self.combo_title(seat), self.f_small, theme.GOLD,
                             (left, box.centery), "midleft")
            W.draw_text(surface, "—", self.f_small, theme.CREAM, (tr.right + pad // 2, box.centery), "midleft")
            return
        # With yaku, they take the whole line (the title is the box itself: it opens the
        # inspector), in a smaller size if they need it; only what still cannot fit is cut.
        items = [f"{yaku_label(n, style, short=True)} {p}" for n, p in yaku]
        whole = "  ·  ".join(items)
        width = arrow.left - pad // 2 - left
        size = self.small_size
        font = W.fit_font(self.ctx.assets, whole, width, size, minimum=max(9, int(size * 0.72)))
        count = ngettext("{n} yaku", "{n} yaku", len(items)).format(n=len(items))
        text, hidden = W.fit_items(items, font, width, none_fit=count)   # whole yaku, then "+2 more"
        r = W.draw_text(surface, text, font, theme.CREAM, (left, box.centery), "midleft")
        if text != whole:
            W.note_cut(r, whole)

    def _combo_box(self, surface, seat: int, box: pygame.Rect, pad: int) -> None:
        """The combo preview: a title, one yaku a line, then (Easy) the yaku one card away."""
        self._combo_frame(surface, seat, box, pad)
        lh = self.f_small.get_linesize()
        ix, iy = box.x + pad // 2, box.y + pad // 3
        W.draw_text(surface, W.ellipsize(self.combo_title(seat), self.f_small, box.w - pad * 2),
                    self.f_small, theme.GOLD, (ix, iy))
        W.draw_text(surface, "›", self.f_bold, theme.GOLD, (box.right - pad // 2, iy + lh // 2), "midright")
        iy += lh
        yaku = self.yaku_of(seat)
        style = self.ctx.settings.name_style()
        pw = self.f_small.size("99")[0]
        if not yaku:
            W.draw_text(surface, "—", self.f_small, theme.CREAM_DIM, (ix, iy))
            iy += lh
        rows = max(1, (box.bottom - pad // 4 - iy) // lh)
        if len(yaku) > rows:
            # more yaku than lines: side by side, whole yaku to a line; the last line ends
            # with "+2 more" when some still do not fit, and the pointer on it shows them all
            items = [f"{yaku_label(n, style, short=True)} {p}" for n, p in yaku]
            width, font, k = box.w - pad, self.f_small, 0
            for row in range(rows):
                if k >= len(items):
                    break
                if row == rows - 1:
                    text, hidden = W.fit_items(items[k:], font, width, none_fit=W.more_text(len(items) - k) if k else ngettext(
                        "{n} yaku", "{n} yaku", len(items)).format(n=len(items)))
                    k = len(items)
                else:
                    n = k + 1
                    while n < len(items) and W.text_width("  ·  ".join(items[k:n + 1]), font) <= width:
                        n += 1
                    text, hidden = W.fit_items(items[k:n], font, width)
                    k = n
                r = W.draw_text(surface, text, font, theme.CREAM, (ix, iy))
                if hidden or text.endswith("…"):
                    W.note_cut(r, "\n".join(items))
                iy += lh
            yaku = ()
        for n, p in yaku:
            W.draw_text(surface, W.ellipsize(yaku_label(n, style, short=True), self.f_small, box.w - pad * 2 - pw),
                        self.f_small, theme.CREAM, (ix, iy))
            W.draw_text(surface, str(p), self.f_small, theme.GOLD_LIGHT, (box.right - pad // 2, iy), "topright")
            iy += lh
        if not self.ctx.practice():
            return
        for miss in self.near_of(seat):
            if iy + lh > box.bottom - pad // 4:
                break
            label = _("1 away: {yaku}").format(yaku=yaku_label(miss.name, style, short=True))
            W.draw_text(surface, W.ellipsize(label, self.f_small, box.w - pad), self.f_small,
                        theme.CREAM_DIM, (ix, iy))
            iy += lh

    # ------------------------------------------------------------------ the table's buttons
    def place_buttons(self, lay, buttons: list) -> list:
        """The table's own buttons, at the top left of the play area (left of the other
        side's hand): the menu (pause, rules, how to play, settings, leave) and the keys.
        ``buttons`` (the ones placed before) are kept while the layout keeps their place."""
        ctx = self.ctx
        h = max(14, int(lay.back_h * 0.34))
        w = max(40, int(lay.card_w * 1.25))
        x, y = lay.opponent_zone.x, lay.opponent_zone.y
        rects = (pygame.Rect(x, y, w, h), pygame.Rect(x, y + h + max(3, h // 4), w, h))
        texts = (_("Menu"), _("Keys  ?"))
        if buttons and [b.rect for b in buttons] == list(rects):
            for b, text in zip(buttons, texts):   # kept, in the language now in use
                b.label = text
            return buttons
        size = max(9, int(h * 0.5))
        return [W.Button(rects[0], texts[0], lambda: ctx.command("pause"), style="ghost",
                         assets=ctx.assets, font_size=size),
                W.Button(rects[1], texts[1], lambda: ctx.command("keys"), style="ghost",
                         assets=ctx.assets, font_size=size)]

    # ------------------------------------------------------------------ over the cards
    def draw_combo_hover(self, surface) -> None:
        """A gold outline on the combo preview under the pointer: it can be clicked (the
        scene draws it only while the table is on top)."""
        ctx = self.ctx
        if ctx.drag is not None:
            return
        for rect in self.combo_rects.values():
            if rect.collidepoint(ctx.pointer.pos):
                pygame.draw.rect(surface, theme.GOLD_LIGHT, rect, max(1, int(ctx.s * 2.5)),
                                 border_radius=max(3, rect.h // 12))

    def guidance(self) -> Optional[str]:
        """One line of guidance for the seat at the bottom, above its hand (None: none)."""
        ctx = self.ctx
        if not ctx.my_turn():
            return None
        phase = ctx.table.phase
        drag, selected = ctx.drag, ctx.pick.selected
        if phase == Phase.PLAY and drag is not None:
            n = len(field_matches(ctx.table, drag))
            return (_("Drop it on the card you want to take") if n == 2 else
                    _("Drop it on the field to capture") if n else _("Drop it on the field to lay it down"))
        if phase == Phase.PLAY and selected is not None:
            n = len(field_matches(ctx.table, selected))
            return (_("Two cards match: click the one to take") if n == 2 else
                    _("Click a matching card to capture (right-click or Esc cancels)") if n else
                    _("No match: click the field to lay it down"))
        if phase == Phase.PLAY:
            return _("Your turn: drag a card onto the field, or click to select it")
        if phase == Phase.CHOOSE:
            return (_("Drop it on the card you want to take") if drag is not None else
                    _("The stock card matches two: click the one to take, or drag the card onto it"))
        return None

    def draw_guidance(self, surface, lay) -> None:
        msg = self.guidance()
        if msg is None:
            return
        hz = lay.hand_zone
        # one line over the hand, never past it (the side panels are beside it): a smaller
        # font down to four fifths, then two lines, each drawn whole
        size = self.body_size
        font = W.fit_font(self.ctx.assets, msg, hz.w, size, minimum=max(9, size * 4 // 5))
        lines = W.wrap_text(msg, font, hz.w) if W.text_width(msg, font) > hz.w else [msg]
        y = int(hz.y - lay.card_h * 0.2)
        for line in reversed(lines):
            r = W.draw_text(surface, line, font, theme.CREAM, (hz.centerx, y), "midbottom")
            y = r.top

    def make_banner(self, title: str, sub: str, life: float, *, cards=(), big: bool = False,
                    color=None) -> Banner:
        ctx = self.ctx
        ch = ctx.lay.card_h if ctx.lay else 100
        tf = self.f_big if not big else ctx.assets.font(max(14, int(ch * 0.34)), True)
        title_img = W.render_text(title, tf, color or theme.GOLD_LIGHT)
        sub_img = W.render_text(sub, self.f_banner_sub, theme.CREAM)
        thumbs = []
        if cards:
            th = max(8, int(ch * 0.62))
            thumbs = [ctx.assets.card(c, th, month_number=ctx.settings.month_numbers()) for c in cards if c]
        pad = max(6, int(ch * 0.16))
        tw = sum(t.get_width() for t in thumbs) + max(0, len(thumbs) - 1) * pad // 2
        w = max(title_img.get_width(), sub_img.get_width(), tw) + pad * 4
        h = title_img.get_height() + sub_img.get_height() + pad * 2 + (thumbs[0].get_height() + pad if thumbs else 0)
        w = min(w, ctx.size[0] - 8)
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        # opaque: no field card shows through it (only its fade in and out is translucent)
        surf.blit(W.opaque_inside(W.rounded_surface((w, h), max(4, pad), (40, 10, 14), bottom=(18, 6, 8),
                                                    border=theme.GOLD, border_width=max(1, int(ch / 60))).copy()),
                  (0, 0))
        y = pad
        surf.blit(title_img, title_img.get_rect(midtop=(w // 2, y)))
        y += title_img.get_height()
        surf.blit(sub_img, sub_img.get_rect(midtop=(w // 2, y)))
        y += sub_img.get_height() + pad // 2
        x = (w - tw) // 2
        for t in thumbs:
            surf.blit(t, (x, y))
            x += t.get_width() + pad // 2
        return Banner(surf, life)
