"""Drawing the table, and the caches that keep a frame cheap.

Cards at rest are baked into a cached layer together with the felt, the
panels and the stock; each frame draws only what moves or glows, and whatever
lies over those (so overlaps keep their order). The background (felt, field
bed, panels) is redrawn only when what it shows changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import pygame

from ...engine import Phase
from ...engine import card as card_of
from .. import board
from .. import widgets as W
from .. import theme
from .stage import L_DRAG, CardSprite

if TYPE_CHECKING:  # pragma: no cover
    from ..scenes.round import RoundScene

BAKE_AFTER = 0.25       # a card at rest this long is drawn into the cached table layer


class Renderer:
    def __init__(self, scene: "RoundScene"):
        self.scene = scene
        self.squash: dict = {}
        self.shadows: dict = {}
        self.bg = self.bg_sig = None
        self.layer = self.layer_sig = None

    def clear(self) -> None:
        """Drop every window-sized layer and cache (16 MB at 1920x1080)."""
        self.bg = self.bg_sig = None
        self.layer = self.layer_sig = None
        self.shadows.clear()
        self.squash.clear()

    # ------------------------------------------------------------------ one card
    def card_image(self, sp: CardSprite, h: int) -> pygame.Surface:
        scene = self.scene
        numbers = scene.month_numbers()
        if sp.face and sp.cid is not None:
            img = scene.assets.card(sp.cid, h, month_number=numbers)
        else:
            img = scene.assets.back(h)
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
        lay = self.scene.lay
        for s in (lay.card_h, lay.small_h, lay.back_h):
            if abs(h - s) < 1.0:
                return s
        q = max(2, lay.card_h // 24)
        return max(4, int(round(h / q)) * q)

    def sprite_rect(self, sp: CardSprite) -> pygame.Rect:
        h = self.quant_h(sp.pos[2])
        w = board.card_size(h)[0]
        return pygame.Rect(int(sp.pos[0] - w / 2), int(sp.pos[1] - h / 2), w, h)

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
    def marks(self) -> tuple:
        """The card keys that glow (Easy hints), that are outlined (the selection and its
        matches) and the one outlined twice (the keyboard's target)."""
        scene = self.scene
        t = scene.table
        glow: set = set()
        outline: set = set()
        strong: Optional[str] = None
        easy = scene.practice()
        field = t.field
        if not scene.tl.busy and t.to_move == scene.me and scene.overlay is None:
            base = None
            if t.phase == Phase.PLAY:
                if easy and scene.my_turn():
                    glow.update(c for c in scene.hint_glow() if c != scene.drag)
                base = scene.selected
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
                strong = scene.target_cursor
        if scene.drag is not None and easy:
            month = card_of(scene.drag).month
            glow.update(c for c in field if card_of(c).month == month and c != scene.drag)
        return glow, outline, strong

    # ------------------------------------------------------------------ the frame
    def background(self, lay) -> pygame.Surface:
        """Felt, field bed, panels and pile summaries: drawn once per change, one blit a frame."""
        scene = self.scene
        pose = scene.stage.pose
        sig = (scene.size, id(lay), pose.table, scene.me, scene.name_style(), scene.practice())
        if self.bg_sig != sig or self.bg is None:
            bg = self.bg if self.bg is not None and self.bg.get_size() == scene.size else None
            if bg is None:
                bg = _surface(scene.size)
            bg.blit(scene.assets.table(scene.size), (0, 0))
            scene.hud.draw_field_bed(bg, lay)
            scene.hud.draw(bg, lay)
            self.bg, self.bg_sig = bg, sig
        return self.bg

    def draw_stock(self, surface, lay) -> None:
        scene = self.scene
        n = scene.stage.pose.table.stock_count + scene.director.stock_extra
        r = lay.stock
        if n > 0:
            layers = min(5, (n + 5) // 6)
            step = max(1, lay.card_h // 90)
            back = scene.assets.back(lay.card_h)
            sh, off = self.shadow(r.size, False)
            surface.blit(sh, (r.x + off[0], r.y + off[1]))
            for k in range(layers):
                surface.blit(back, (r.x - k * step, r.y - k * step))
        W.draw_text(surface, str(n), scene.hud.f_bold, theme.CREAM, (r.centerx, r.bottom + lay.card_h * 0.05),
                    "midtop")

    def draw(self, surface: pygame.Surface, lay) -> None:
        scene = self.scene
        sprites = scene.stage.draw_order()
        glow, outline, strong = self.marks()
        static, dynamic, over = [], [], []
        for sp in sprites:
            h = sp.pos[2]
            pad = h * 0.22 + sp.lift
            r = pygame.Rect(int(sp.pos[0] - h * 0.31 - pad), int(sp.pos[1] - h / 2 - pad),
                            int(h * 0.62 + 2 * pad), int(h + 2 * pad))
            if (sp.still < BAKE_AFTER or sp.busy or sp.lift or sp.sx != 1.0 or sp.key in glow
                    or sp.key in outline or sp.layer == L_DRAG or r.collidelist(over) >= 0):
                dynamic.append(sp)
                over.append(r)
            else:
                static.append(sp)
        bg = self.background(lay)
        sig = (id(bg), self.bg_sig, scene.stage.pose.table.stock_count + scene.director.stock_extra,
               tuple((sp.key, sp.pos, sp.face, sp.cid) for sp in static))
        if self.layer_sig != sig or self.layer is None or self.layer.get_size() != scene.size:
            if self.layer is None or self.layer.get_size() != scene.size:
                self.layer = _surface(scene.size)
            self.layer.blit(bg, (0, 0))
            self.draw_stock(self.layer, lay)
            for sp in static:
                self.blit(self.layer, lay, sp, glow, outline, strong)
            self.layer_sig = sig
        surface.blit(self.layer, (0, 0))
        for sp in dynamic:
            self.blit(surface, lay, sp, glow, outline, strong)

    def blit(self, surface, lay, sp: CardSprite, glow, outline, strong) -> None:
        scene = self.scene
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
            g = scene.assets.glow(hq)
            surface.blit(g, g.get_rect(center=centre))
        sh, off = self.shadow((w, hq), lifted)
        surface.blit(sh, (int(x) + off[0], int(y) + off[1]))
        surface.blit(img, (int(x), int(y)))
        if sp.key in outline and sp.face:
            sel = scene.assets.select(hq)
            surface.blit(sel, sel.get_rect(center=centre))
            if sp.key == strong:
                surface.blit(sel, sel.get_rect(center=centre))


def _surface(size) -> pygame.Surface:
    s = pygame.Surface(size)
    try:
        return s.convert()
    except pygame.error:
        return s
