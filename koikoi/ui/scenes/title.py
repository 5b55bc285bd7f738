"""The title screen (the How to play page is in howto.py).

The title shows the logo over a fan of the five Bright cards, with the
player's ways in: New match, Continue (when an unfinished match was saved),
Learn (the lessons), Play online, then Match history, Statistics, How to play, Settings, Quit.
"""

from __future__ import annotations

import math
from typing import Optional

import pygame

from ... import __version__
from .. import theme
from .. import widgets as W
from ...i18n import _, ngettext
from . import MenuScene, opens
from .saved import continue_session, match_summary

FAN = ("03-B", "11-B", "01-B", "12-B", "08-B")      # the five Brights
FAN_ANGLES = (-30.0, -15.0, 0.0, 15.0, 30.0)
# (card, x as a fraction of the width, y as a fraction of the height, angle)
SCATTER = (
    ("09-A", 0.06, 0.86, 24.0), ("02-A", 0.15, 0.95, -12.0),
    ("06-A", 0.94, 0.84, -22.0), ("10-A", 0.85, 0.96, 10.0),
)


def _same_size(buttons: list, assets) -> None:
    """One label size for a row of buttons: the least any of them needs to fit ("Match
    history" is not set smaller than "Quit" beside it)."""
    if not buttons:
        return
    r = buttons[0].rect
    size = max(10, int(r.h * (0.36 if buttons[0].sublabel else 0.42)))
    pad = max(4, r.h // 4)
    common = min(W.fit_size(assets, b.label, b.rect.w - 2 * pad, size, bold=True) for b in buttons)
    for b in buttons:
        b.font_size = common


def _ease(k: float) -> float:
    k = max(0.0, min(1.0, k))
    return 1 - (1 - k) ** 3


class TitleScene(MenuScene):
    intro_time = 0.9

    def __init__(self, app):
        self.saved = None                 # the autosaved unfinished match, if any
        self.kept = 0                     # matches kept for later (saved/)
        self._checked_save = False
        self.lift = [0.0] * len(FAN)      # how far each fan card is raised under the mouse
        self.hover_card: Optional[int] = None
        super().__init__(app)

    # ---------------------------------------------------------- saves
    def _check_save(self) -> None:
        session, warning = self.app.storage.load_autosave_checked()
        self.saved = session
        kept, problems = self.app.storage.list_saved()
        self.kept = len(kept)
        self._checked_save = True
        for text in ([warning] if warning else []) + problems[:2]:
            self.app.toast(text, 7.0, "warning")

    def enter(self) -> None:
        self._check_save()
        self.layout()
        super().enter()

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        cx = w // 2
        # the fan behind the logo
        self.card_h = min(self.px(300), int(h * 0.3))
        self.fan_pivot = (cx, int(h * 0.08) + int(self.card_h * 1.62))
        self.fan_radius = int(self.card_h * 1.05)
        self.logo_w = min(int(w * 0.62), self.px(780))
        self.logo_center = (cx, int(self.fan_pivot[1] - self.card_h * 0.08))
        # buttons
        bh, gap = self.px(86), self.px(22)
        bw = min(self.px(400), (w - 3 * gap) // 2)
        row1 = self.logo_center[1] + self.px(185)
        self.widgets = []
        new = self.button((0, 0, bw, bh), _("New match"), self.new_match, style="primary",
                          sublabel=_("Play the CPU or a friend"), hotkeys=(pygame.K_n,))
        row = []
        if self.saved is not None:
            row.append(self.button((0, 0, bw, bh), _("Continue"), self.continue_match, style="primary",
                                   sublabel=match_summary(self.saved), hotkeys=(pygame.K_c,)))
            new.style = "secondary"
        row.append(new)
        # Learn sits beside New match, unless Continue and Saved matches fill that row too:
        # five side by side crowd the window, so it joins the row below then.
        learn_first = self.saved is None or not self.kept
        if learn_first:
            row.append(self.button((0, 0, bw, bh), _("Learn"), self.learn, style="secondary",
                                   sublabel=_("Short lessons on the table"), hotkeys=(pygame.K_l,)))
        row.append(self.button((0, 0, bw, bh), _("Play online"), self.play_online, style="secondary",
                               sublabel=_("Host or join over the network"), hotkeys=(pygame.K_o,)))
        if self.kept:
            row.append(self.button((0, 0, bw, bh), _("Saved matches"), self.saved_matches, style="secondary",
                                   sublabel=ngettext("{n} kept for later", "{n} kept for later",
                                                     self.kept).format(n=self.kept), hotkeys=(pygame.K_m,)))
        if len(row) >= 3:               # three or four side by side must fit the window
            bw = min(bw, (w - (len(row) + 1) * gap) // len(row))
            for b in row:
                b.rect.w = bw
        total = len(row) * bw + (len(row) - 1) * gap
        x = cx - total // 2
        for b in row:
            b.rect.topleft = (x, row1)
            x += bw + gap
        self.widgets += row
        sh, sgap = self.px(64), self.px(16)
        labels = ((_("Match history"), self.history, pygame.K_h), (_("Statistics"), self.statistics, pygame.K_t),
                  (_("How to play"), self.how_to, pygame.K_F1), (_("Settings"), self.settings, pygame.K_s),
                  (_("Quit"), self.app.quit, None))
        if not learn_first:
            labels = ((_("Learn"), self.learn, pygame.K_l),) + labels
        n = len(labels)
        sw = min(self.px(228 if n <= 5 else 196), (w - (n + 1) * sgap) // n)
        total = n * sw + (n - 1) * sgap
        x = cx - total // 2
        row2 = row1 + bh + self.px(30)
        for label, fn, key in labels:
            b = self.button((x, row2, sw, sh), label, fn, style="danger" if fn == self.app.quit else "secondary",
                            hotkeys=(key,) if key else ())
            self.widgets.append(b)
            x += sw + sgap
        for buttons in (row, self.widgets[len(row):]):
            _same_size(buttons, self.app.assets)
        self.focus.set(self.widgets)
        self._button_top = row1
        self.scatter = self._place_scatter()

    def _place_scatter(self) -> list:
        """(card, centre x, centre y, angle) of the cards at the lower corners, each moved
        down and outwards off any button (four buttons in a row reach the corners)."""
        w, h = self.size
        sc_h = int(self.card_h * 0.78)
        sc_w = sc_h * 216 / 348
        keep_off = [b.rect.inflate(self.px(24), self.px(24)) for b in self.widgets]
        out = []
        for cid, fx, fy, ang in SCATTER:
            rad = math.radians(ang)
            bw = sc_w * abs(math.cos(rad)) + sc_h * abs(math.sin(rad))
            bh = sc_w * abs(math.sin(rad)) + sc_h * abs(math.cos(rad))
            x, y = fx * w, fy * h
            side = -1 if fx < 0.5 else 1
            for _ in range(60):
                box = pygame.Rect(int(x - bw * 0.4), int(y - bh * 0.4), int(bw * 0.8), int(bh * 0.8))
                if box.collidelist(keep_off) < 0:
                    break
                x += side * self.px(6)
                y += self.px(9)
            out.append((cid, x, y, ang, sc_h))
        return out

    # ---------------------------------------------------------- actions
    new_match = opens("newmatch")
    learn = opens("learn")
    play_online = opens("online")

    def continue_match(self) -> None:
        session = self.saved
        if session is None:
            return
        continue_session(self.app, session)

    saved_matches = opens("saved")
    history = opens("history")
    statistics = opens("stats")

    def how_to(self) -> None:
        self.app.push(HowToPlayScene(self.app))

    settings = opens("settings")

    def back(self) -> None:
        self.app.quit()

    def handle(self, event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return True   # Escape on the title does not quit by accident; use Quit
        if event.type == pygame.MOUSEMOTION:
            self.hover_card = self._fan_card_at(event.pos)
        return super().handle(event)

    def _fan_geometry(self, i: int, kk: float = 1.0) -> tuple[float, float, float]:
        """(centre x, centre y, angle) of fan card ``i`` opened by ``kk``."""
        angle = FAN_ANGLES[i] * kk
        rad = math.radians(angle)
        r = self.fan_radius + self.lift[i] * self.px(26)
        px_, py = self.fan_pivot
        return px_ + r * math.sin(rad), py - r * math.cos(rad), angle

    def _fan_card_at(self, pos) -> Optional[int]:
        cw, ch = self.card_h * 216 / 348, self.card_h
        for i in range(len(FAN) - 1, -1, -1):     # the top-most card first
            cx, cy, angle = self._fan_geometry(i)
            rad = math.radians(angle)
            dx, dy = pos[0] - cx, pos[1] - cy
            x = dx * math.cos(rad) + dy * math.sin(rad)
            y = -dx * math.sin(rad) + dy * math.cos(rad)
            if abs(x) <= cw / 2 and abs(y) <= ch / 2:
                return i
        return None

    def update(self, dt: float) -> None:
        super().update(dt)
        k = min(1.0, dt * 12) if self.app.anim_speed > 0 else 1.0
        for i in range(len(self.lift)):
            goal = 1.0 if i == self.hover_card else 0.0
            self.lift[i] += (goal - self.lift[i]) * k
            if abs(goal - self.lift[i]) < 0.01:
                self.lift[i] = goal

    @property
    def animating(self) -> bool:
        if super().animating:
            return True
        return any(v != (1.0 if i == self.hover_card else 0.0) for i, v in enumerate(self.lift))

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        a = self.app.assets
        w, h = self.size
        k = self.intro
        # scattered cards at the lower corners, sliding in from outside
        for i, (cid, x0, y0, ang, sc_h) in enumerate(self.scatter):
            kk = _ease((self.t - 0.05 * i) / 0.8) if self.app.anim_speed > 0 else 1.0
            x = x0 + (1 - kk) * (-1 if x0 < w / 2 else 1) * w * 0.25
            y = y0 + (1 - kk) * h * 0.2
            W.draw_card(surface, a.card(cid, sc_h, month_number=False), (x, y), anchor="center",
                        angle=ang)
        # the fan of Brights opening
        img_h = self.card_h
        for i, cid in enumerate(FAN):
            kk = _ease((self.t - 0.06 * abs(i - 2)) / 0.75) if self.app.anim_speed > 0 else 1.0
            cx, cy, angle = self._fan_geometry(i, kk)
            cy += (1 - kk) * self.px(60)
            W.draw_card(surface, a.card(cid, img_h, month_number=False), (cx, cy), anchor="center",
                        angle=-angle, cache=kk >= 1)
        # a dark halo so the gold logo reads over the cards
        lw = self.logo_w
        logo = a.logo(lw)
        halo = W.soft_shadow((int(lw * 0.9), int(logo.get_height() * 0.7)), logo.get_height() // 3,
                             spread=self.px(70), alpha=190)
        surface.blit(halo, halo.get_rect(center=(self.logo_center[0], self.logo_center[1] + self.px(6))))
        lr = logo.get_rect(center=(self.logo_center[0], self.logo_center[1] + int((1 - k) * self.px(20))))
        if k < 1:
            logo = logo.copy()
            logo.set_alpha(int(255 * k))
        surface.blit(logo, lr)
        # footer
        W.draw_text(surface, _("v{version}   ·   F11 fullscreen").format(version=__version__), self.font("tiny"),
                    theme.CREAM_DIM, (w // 2, h - self.px(22)), "midbottom")

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_background(surface)
        self.draw_content(surface)
        k = self.intro
        if k >= 1:
            self.drop_scratch()
            for wdg in self.widgets:
                wdg.draw(surface)
            return
        # buttons rise and fade in after the logo
        layer = self.scratch_layer()
        for wdg in self.widgets:
            wdg.draw(layer)
        kk = _ease((self.t - 0.3) / 0.6)
        layer.set_alpha(int(255 * kk))
        surface.blit(layer, (0, int((1 - kk) * self.px(24))))


# The how-to page lives in howto.py; these names stay importable from here.
from .howto import (BASICS, KIND_EXAMPLES, YAKU_CARDS, HowToPlayScene, rule_notes,  # noqa: E402,F401
                    yaku_rows)

__all__ = ["TitleScene", "match_summary", "HowToPlayScene", "rule_notes", "yaku_rows", "YAKU_CARDS",
           "KIND_EXAMPLES", "BASICS"]
