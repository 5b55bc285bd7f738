"""The keyboard help over the table (F1 or ?): every key the table and its prompt read."""

from __future__ import annotations

import pygame

from .. import theme
from .. import widgets as W
from ...i18n import N_, _
from . import DialogScene

# (keys, what they do), in the order a player meets them (translated where drawn).
KEYS = (
    (N_("1 – 8"), N_("Pick a card from your hand (left to right)")),
    (N_("← →"), N_("Move through your hand; with two matches, choose which to take")),
    (N_("Enter / Space"), N_("Play the picked card (twice when two cards match)")),
    (N_("Esc / right-click"), N_("Put the card back; with nothing picked, pause")),
    (N_("S / K"), N_("At a yaku: stop (Shōbu) or play on (Koi-Koi)")),
    (N_("C / Shift+C"), N_("Your combos / the other side's combos")),
    (N_("Hold Space or click"), N_("Hurry the CPU's turn along")),
    (N_("P"), N_("Pause: rules of this match, how to play, settings, leave")),
    (N_("F1 / ?"), N_("This list")),
    (N_("F11 / Alt+Enter"), N_("Full screen on or off")),
)


class KeysScene(DialogScene):
    @property
    def title(self) -> str:
        return _("Keys")

    @property
    def hint(self) -> str:
        return _("Esc, Enter or a click closes this")
    pausable = False

    def layout(self) -> None:
        w, h = self.size
        pw, ph = min(w - self.px(60), self.px(1100)), min(h - self.px(60), self.px(760))
        self.panel = pygame.Rect(0, 0, pw, ph)
        self.panel.center = (w // 2, h // 2)
        bw, bh = self.px(240), self.px(64)
        self.ok = self.button((0, 0, bw, bh), _("Close"), self.back, style="secondary",
                              hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_F1))
        self.ok.rect.midbottom = (self.panel.centerx, self.panel.bottom - self.px(40))
        self.widgets = [self.ok]
        self.focus.set(self.widgets)

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and \
                not self.ok.rect.collidepoint(event.pos):
            self.back()
            return True
        if event.type == pygame.TEXTINPUT and event.text == "?":
            self.back()
            return True
        return super().handle(event)

    def rows(self, width: int, room: int) -> tuple:
        """(key font, text font, line step, [(keys, [lines of what they do]), ...]): every key
        with its whole text wrapped beside it, in the largest type that lets all of them fit
        in ``room`` px (body, then small, then tiny)."""
        for size in ("body", "small", "tiny"):
            key_font, text_font = self.font(size, True), self.font(size)
            key_w = max(W.text_width(_(k), key_font) for k, _t in KEYS) + self.px(28)
            lh = max(key_font.get_linesize(), text_font.get_linesize())
            rows = [(_(k), W.wrap_text(_(t), text_font, max(40, width - key_w))) for k, t in KEYS]
            gap = self.px(8)
            if sum(lh * len(lines) + gap for _k, lines in rows) <= room or size == "tiny":
                return key_font, text_font, key_w, lh, gap, rows
        raise AssertionError("unreachable")

    def draw_body(self, surface: pygame.Surface, y: int) -> None:
        p = self.panel
        pad = self.px(48)
        y += self.px(24)
        bottom = self.ok.rect.y - self.px(20)
        key_font, text_font, key_w, lh, gap, rows = self.rows(p.w - 2 * pad, bottom - y)
        for keys, lines in rows:
            if y + lh > bottom:
                break
            W.draw_text(surface, keys, key_font, theme.GOLD_LIGHT, (p.x + pad, y))
            for line in lines:
                if y + lh > bottom:
                    break
                W.draw_text(surface, line, text_font, theme.CREAM, (p.x + pad + key_w, y))
                y += lh
            y += gap
