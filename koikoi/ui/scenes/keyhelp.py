"""The keyboard help over the table (F1 or ?): every key the table and its prompt read."""

from __future__ import annotations

import pygame

from .. import theme
from .. import widgets as W
from ..table import _
from . import DialogScene

# (keys, what they do), in the order a player meets them.
KEYS = (
    (_("1 – 8"), _("Pick a card from your hand (left to right)")),
    (_("← →"), _("Move through your hand; with two matches, choose which to take")),
    (_("Enter / Space"), _("Play the picked card (twice when two cards match)")),
    (_("Esc / right-click"), _("Put the card back; with nothing picked, pause")),
    (_("S / K"), _("At a yaku: stop (Shōbu) or play on (Koi-Koi)")),
    (_("C / Shift+C"), _("Your combos / the other side's combos")),
    (_("Hold Space or click"), _("Hurry the CPU's turn along")),
    (_("P"), _("Pause: rules of this match, how to play, settings, leave")),
    (_("F1 / ?"), _("This list")),
    (_("F11 / Alt+Enter"), _("Full screen on or off")),
)


class KeysScene(DialogScene):
    title = _("Keys")
    hint = _("Esc, Enter or a click closes this")
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

    def draw_body(self, surface: pygame.Surface, y: int) -> None:
        p = self.panel
        pad = self.px(48)
        key_font, text_font = self.font("body", True), self.font("body")
        key_w = max(W.text_width(k, key_font) for k, _t in KEYS) + self.px(28)
        line = max(key_font.get_linesize(), text_font.get_linesize()) + self.px(8)
        y += self.px(24)
        room = self.ok.rect.y - self.px(20)
        for keys, text in KEYS:
            if y + line > room:
                break
            W.draw_text(surface, keys, key_font, theme.GOLD_LIGHT, (p.x + pad, y))
            W.draw_text(surface, W.ellipsize(text, text_font, p.w - 2 * pad - key_w), text_font,
                        theme.CREAM, (p.x + pad + key_w, y))
            y += line
