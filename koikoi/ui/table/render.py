"""Drawing the table, and the caches that keep a frame cheap.

Cards at rest are baked into a cached layer together with the felt, the
panels and the stock; each frame draws only what moves or glows, and whatever
lies over those (so overlaps keep their order). The background (felt, field
bed, panels) is redrawn only when what it shows changes.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING, Optional

import pygame

from ...engine import KIND_JAPANESE, Phase
from ...engine.cards import Kind
from ...engine import card as card_of
from .. import board, hints
from .. import widgets as W
from .. import theme
from .stage import L_DRAG, CardSprite

if TYPE_CHECKING:  # pragma: no cover
    from .context import TableContext
    from .hud import Hud

log = logging.getLogger("koikoi.round")

BAKE_AFTER = 0.25       # a card at rest this long is drawn into the cached table layer


class Renderer:
    def __init__(self, ctx: "TableContext", hud: "Hud"):
        self.ctx = ctx
        self.hud = hud                   # draws the background's panels and the stock's count
        self._hint_key = None
        self._hint_ids: frozenset = frozenset()
        self.squash: dict = {}
        self.shadows: dict = {}
        self.bg = self.bg_sig = None
        self.bg_cuts: list = []          # the cut texts drawn on it (W.cuts_since)
        self.layer = self.layer_sig = None
        self.origins: dict = {}          # (table, where, size, scale) -> a mark's arrow start

    def clear(self) -> None:
        """Drop every window-sized layer and cache (16 MB at 1920x1080)."""
        self.bg = self.bg_sig = None
        self.layer = self.layer_sig = None
        self.shadows.clear()
        self.squash.clear()
        self.origins.clear()

    # ------------------------------------------------------------------ one card
    def card_image(self, sp: CardSprite, h: int) -> pygame.Surface:
        ctx = self.ctx
        numbers = ctx.settings.month_numbers()
        if sp.face and sp.cid is not None:
            img = ctx.assets.card(sp.cid, h, month_number=numbers)
        else:
            img = ctx.assets.back(h)
        if sp.sx < 0.985:
            step = max(1, int(round(sp.sx * 12)))
            key = (sp.cid if sp.face else None, h, step, numbers)
            sq = self.squash.get(key)
            if sq is None:
                if len(self.squash) > 400:
                    self.squash.clear()
                sq = pygame.transform.smoothscale(img, (max(1, img.get_width() * step // 12), img.get_height()))
                self.squash[key] = sq
            img = sq
        return img

    def quant_h(self, h: float) -> int:
        return self.ctx.stage.quant_h(h)

    def sprite_rect(self, sp: CardSprite) -> pygame.Rect:
        return self.ctx.stage.sprite_rect(sp)

    def shadow(self, size, lifted: bool) -> tuple:
        key = (size, lifted)
        got = self.shadows.get(key)
        if got is None:
            spread = max(2, size[1] // (9 if lifted else 16))
            img = W.soft_shadow(size, max(2, size[1] // 30), spread=spread, alpha=150 if lifted else 115)
            off = (-spread + spread // (1 if lifted else 3), -spread + spread // (1 if lifted else 2))
            got = (img, off)
            self.shadows[key] = got
        return got

    # ------------------------------------------------------------------ what glows
    def hint_glow(self) -> frozenset:
        """Easy practice: the hand cards that would capture now (cached per state)."""
        ctx = self.ctx
        key = (len(ctx.session.events), ctx.seat)
        if key != self._hint_key:
            self._hint_key = key
            try:
                self._hint_ids = hints.capturing_cards(ctx.session.view(ctx.seat))
            except Exception:   # a hint must never break the table
                log.exception("hint failed")
                self._hint_ids = frozenset()
        return self._hint_ids

    def marks(self) -> tuple:
        """The card keys that glow (Easy hints), that are outlined (the selection and its
        matches) and the one outlined twice (the keyboard's target)."""
        ctx = self.ctx
        t = ctx.table
        glow: set = set()
        outline: set = set()
        strong: Optional[str] = None
        easy = ctx.practice()
        field = t.field
        drag = ctx.drag
        if not ctx.tl.busy and t.to_move == ctx.seat and ctx.overlay is None:
            base = None
            if t.phase == Phase.PLAY:
                if easy and ctx.my_turn():
                    glow.update(c for c in self.hint_glow() if c != drag)
                base = ctx.pick.selected
            elif t.phase == Phase.CHOOSE:
                base = t.pending
            if base is not None:
                # the selection's outline: every difficulty; the month's glow: Easy only
                outline.add(base)
                month = card_of(base).month
                ms = [c for c in field if card_of(c).month == month]
                if easy:
                    glow.update(ms)
                outline.update(ms)
                strong = ctx.pick.target_cursor
        if drag is not None and easy:
            month = card_of(drag).month
            glow.update(c for c in field if card_of(c).month == month and c != drag)
        if not ctx.tl.busy:
            glow.update(c for c in ctx.policy.highlighted() if c != drag)   # a lesson's "click this"
        return glow, outline, strong

    # ------------------------------------------------------------------ the frame
    def background(self, lay) -> pygame.Surface:
        """Felt, field bed, panels and pile summaries: drawn once per change, one blit a frame."""
        ctx = self.ctx
        pose = ctx.stage.pose
        turns = tuple((seat, len(events)) for seat, events in ctx.director.log)
        sig = (ctx.size, id(lay), pose.table, ctx.seat, ctx.settings.name_style(), ctx.practice(), turns)
        if self.bg_sig != sig or self.bg is None:
            bg = self.bg if self.bg is not None and self.bg.get_size() == ctx.size else None
            if bg is None:
                bg = _surface(ctx.size)
            bg.blit(ctx.assets.table(ctx.size), (0, 0))
            mark = W.cut_mark()
            self.hud.draw_field_bed(bg, lay)
            self.hud.draw(bg, lay)
            self.bg, self.bg_sig = bg, sig
            self.bg_cuts = W.cuts_since(mark)
        else:
            W.renote(self.bg_cuts)       # the texts it cuts show whole on hover every frame
        return self.bg

    def draw_stock(self, surface, lay) -> None:
        ctx = self.ctx
        n = ctx.stage.pose.table.stock_count + ctx.director.stock_extra
        r = lay.stock
        if n > 0:
            layers = min(5, (n + 5) // 6)
            step = max(1, lay.card_h // 90)
            back = ctx.assets.back(lay.card_h)
            sh, off = self.shadow(r.size, False)
            surface.blit(sh, (r.x + off[0], r.y + off[1]))
            for k in range(layers):
                surface.blit(back, (r.x - k * step, r.y - k * step))
        W.draw_text(surface, str(n), self.hud.f_bold, theme.CREAM, (r.centerx, r.bottom + lay.card_h * 0.05),
                    "midtop")

    def draw(self, surface: pygame.Surface, lay) -> None:
        ctx = self.ctx
        stage = ctx.stage
        pos = ctx.pointer.pos
        if stage.peek_held is not None and tuple(pos) != tuple(stage.peek_held):
            stage.peek_held = None
        calm = (not ctx.tl.busy and ctx.drag is None and ctx.overlay is None
                and stage.peek_held is None)
        stage.peek = lay.field_peek(pos, stage.peek) if calm else None
        sprites = stage.draw_order()
        glow, outline, strong = self.marks()
        rings = self.rings()
        static, dynamic, over = [], [], []
        for sp in sprites:
            h = sp.pos[2]
            pad = h * 0.22 + sp.lift
            r = pygame.Rect(int(sp.pos[0] - h * 0.31 - pad), int(sp.pos[1] - h / 2 - pad),
                            int(h * 0.62 + 2 * pad), int(h + 2 * pad))
            if (sp.still < BAKE_AFTER or sp.busy or sp.lift or sp.sx != 1.0 or sp.key in glow
                    or sp.key in outline or sp.key in rings or sp.layer == L_DRAG
                    or r.collidelist(over) >= 0):
                dynamic.append(sp)
                over.append(r)
            else:
                static.append(sp)
        bg = self.background(lay)
        sig = (id(bg), self.bg_sig, stage.pose.table.stock_count + ctx.director.stock_extra,
               lay.covered, stage.peek, tuple((sp.key, sp.pos, sp.face, sp.cid) for sp in static))
        if self.layer_sig != sig or self.layer is None or self.layer.get_size() != ctx.size:
            if self.layer is None or self.layer.get_size() != ctx.size:
                self.layer = _surface(ctx.size)
            self.layer.blit(bg, (0, 0))
            self.draw_stock(self.layer, lay)
            for sp in static:
                self.blit(self.layer, lay, sp, glow, outline, strong)
            self.layer_sig = sig
        surface.blit(self.layer, (0, 0))
        for sp in dynamic:
            self.blit(surface, lay, sp, glow, outline, strong)
            if sp.key in rings:
                self.draw_rings(surface, sp, rings[sp.key])
        self.draw_arrows(surface, lay)

    def rings(self) -> dict:
        """key -> (soft ring?, pulsing ring?) of the cards ringed this frame: the other side's
        last turn (soft) and a lesson's "look here" (pulsing). Each ring is drawn right after
        its card, so a card lying over a ringed one covers its ring too."""
        ctx = self.ctx
        if ctx.tl.busy:
            return {}
        out: dict = {}
        for key in ctx.director.marks or ():
            out[key] = (True, False)
        for cid in ctx.policy.highlighted() or ():
            out[cid] = (out.get(cid, (False, False))[0], True)
        return out

    def draw_rings(self, surface, sp: CardSprite, which: tuple) -> None:
        if not sp.visible or sp.move is not None:
            return
        ctx = self.ctx
        hq = self.quant_h(sp.pos[2])
        centre = (int(sp.pos[0]), int(sp.pos[1] - sp.lift))
        if which[0]:
            ring = self.soft_ring(hq)
            surface.blit(ring, ring.get_rect(center=centre))
        if which[1] and sp.face:
            k = 0.5 + 0.5 * math.sin(ctx.pulse_t * 5.0)
            key = ("highlight", hq)
            ring = self.shadows.get(key)
            if ring is None:
                ring = ctx.assets.select(hq).copy()
                self.shadows[key] = ring
            ring.set_alpha(int(120 + 135 * k))
            grow = int(hq * 0.04 * k)
            img = ring if not grow else pygame.transform.smoothscale(
                ring, (ring.get_width() + 2 * grow, ring.get_height() + 2 * grow))
            surface.blit(img, img.get_rect(center=centre))

    def soft_ring(self, h: int) -> pygame.Surface:
        """The selection ring, faded: the mark of the other side's last move."""
        key = ("soft", h)
        got = self.shadows.get(key)
        if got is None:
            got = self.ctx.assets.select(h).copy()
            got.set_alpha(150)
            self.shadows[key] = got
        return got

    def draw_arrows(self, surface, lay) -> None:
        """The other side's last turn: an arrow from where the played (or turned-up) card was
        to where it went (its cards' soft rings are drawn with them)."""
        marks = self.ctx.director.marks
        if not marks or self.ctx.tl.busy:
            return
        sprites = self.ctx.stage.sprites
        for key, how in marks.items():
            sp = sprites.get(key)
            if sp is None or not sp.visible or sp.move is not None or how is None:
                continue
            start = self.origin(*how)
            if start is not None:
                _arrow(surface, start, (sp.pos[0], sp.pos[1]), max(2, lay.card_h // 32),
                       self.quant_h(sp.pos[2]) * 0.55)

    def kind_badge(self, kind, side: int) -> pygame.Surface:
        """The small seal a covered field card shows its kind with (光 種 短, as on the piles)."""
        key = ("badge", kind, side)
        got = self.shadows.get(key)
        if got is None:
            assets = self.ctx.assets
            got = W.rounded_surface((side, side), side // 2, theme.LACQUER if kind == Kind.RIBBON else
                                    theme.BLACK_LACQUER, border=theme.GOLD_LIGHT,
                                    border_width=max(1, side // 14)).copy()
            glyph = KIND_JAPANESE[kind][1][0]          # 光, 種, 短 (of 短冊)
            font = assets.font(max(8, int(side * 0.6)), True)
            color = theme.GOLD_LIGHT if kind == Kind.BRIGHT else theme.CREAM
            W.draw_text(got, glyph, font, color, (side // 2, side // 2), "center", shadow=False)
            self.shadows[key] = got
        return got

    def origin(self, before, where: str) -> Optional[tuple]:
        """Where a card of the other side's last turn came from, on the table ``before`` its
        move as laid out now: the other hand, the flip spot, or the field card it took."""
        ctx = self.ctx
        scale = ctx.settings.card_scale()
        key = (before, where, ctx.size, scale)   # by value: ids get reused
        if key not in self.origins:
            if len(self.origins) > 32:
                self.origins.clear()
            lay = board.layout(ctx.size, before, card_scale=scale)
            if where == "hand":
                r = lay.opponent_hand[-1] if lay.opponent_hand else lay.opponent_zone
            elif where == "flip":
                r = lay.flip
            else:
                r = lay.field.get(where)
            self.origins[key] = (r.centerx, r.centery) if r is not None else None
        return self.origins[key]


    def blit(self, surface, lay, sp: CardSprite, glow, outline, strong) -> None:
        ctx = self.ctx
        h = sp.pos[2]
        if sp.pop:
            h = h * (1.0 + 0.07 * sp.pop)
        hq = self.quant_h(h)
        img = self.card_image(sp, hq)
        w = img.get_width()
        x = sp.pos[0] - w / 2 + sp.shake * lay.card_w * 0.09
        y = sp.pos[1] - hq / 2 - sp.lift
        lifted = sp.flying or sp.layer == L_DRAG or sp.lift > 1
        centre = (int(x + w / 2), int(y + hq / 2))
        if sp.key in glow and sp.face:
            g = ctx.assets.glow(hq)
            surface.blit(g, g.get_rect(center=centre))
        sh, off = self.shadow((w, hq), lifted)
        surface.blit(sh, (int(x) + off[0], int(y) + off[1]))
        surface.blit(img, (int(x), int(y)))
        badge = lay.kind_badge(sp.key) if sp.face and not sp.busy and sp.key != ctx.stage.peek else None
        spot = lay.field.get(sp.key)
        if badge is not None and abs(sp.pos[0] - spot.centerx) < 1.5 and abs(sp.pos[1] - spot.centery) < 1.5:
            # resting at its place in a month's fan, under another card: its kind, readable
            img = self.kind_badge(card_of(sp.key).kind, badge.w)
            surface.blit(img, (int(x) + badge.x - spot.x, int(y) + badge.y - spot.y))
        if sp.key in outline and sp.face:
            sel = ctx.assets.select(hq)
            surface.blit(sel, sel.get_rect(center=centre))
            if sp.key == strong:
                surface.blit(sel, sel.get_rect(center=centre))


def _arrow(surface, start, end, width: int, clear: float, alpha: int = 190) -> None:
    """A translucent gold arrow from ``start`` to ``end``, stopping ``clear`` pixels short
    of both (outside the cards), with a head at ``end``; nothing if they are too close."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length < 2.5 * clear:
        return
    ux, uy = dx / length, dy / length
    head = width * 4
    a = (start[0] + ux * clear, start[1] + uy * clear)
    b = (end[0] - ux * clear, end[1] - uy * clear)
    base = (b[0] - ux * head, b[1] - uy * head)
    wing = (-uy * head * 0.6, ux * head * 0.6)
    points = [b, (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1])]
    pad = head + width
    x0, y0 = int(min(a[0], b[0]) - pad), int(min(a[1], b[1]) - pad)
    box = pygame.Surface((int(abs(b[0] - a[0]) + 2 * pad) + 1, int(abs(b[1] - a[1]) + 2 * pad) + 1),
                         pygame.SRCALPHA)

    def at(p):
        return (p[0] - x0, p[1] - y0)
    pygame.draw.line(box, (30, 20, 10, 160), at(a), at(base), width + 2)
    pygame.draw.polygon(box, (30, 20, 10, 160), [at(p) for p in points])
    pygame.draw.line(box, (255, 226, 150, 255), at(a), at(base), width)
    mid = (sum(p[0] for p in points) / 3, sum(p[1] for p in points) / 3)
    pygame.draw.polygon(box, (255, 226, 150, 255),
                        [at((p[0] * 0.8 + mid[0] * 0.2, p[1] * 0.8 + mid[1] * 0.2)) for p in points])
    box.set_alpha(alpha)
    surface.blit(box, (x0, y0))


def _surface(size) -> pygame.Surface:
    s = pygame.Surface(size)
    try:
        return s.convert()
    except pygame.error:
        return s
