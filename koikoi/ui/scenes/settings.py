"""Settings: animation speed, sound, month numbers on the cards, fullscreen.

Every change is applied and saved at once (``app.save_settings``); there is
no Apply button to forget.
"""

from __future__ import annotations

import pygame

from ...storage import DEFAULT_SETTINGS
from .. import theme
from .. import widgets as W
from . import MenuScene


def speed_text(v: float) -> str:
    if v <= 0:
        return "Instant"
    if abs(v - 1.0) < 1e-6:
        return "Normal"
    if v < 1:
        return f"Relaxed ({v:g}×)"
    return f"Fast ({v:g}×)"


class SettingsScene(MenuScene):
    def __init__(self, app):
        self.rows: list[tuple[str, str, W.Widget]] = []
        super().__init__(app)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        st = self.app.settings
        self.panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(1180)), 0)
        self.panel.centerx = w // 2
        self.panel.y = self.px(150)
        self.row_h = self.px(96)
        self.panel.h = self.row_h * 5 + self.px(60)
        bh = self.px(76)
        space = h - self.panel.y - self.px(40) - bh - self.px(40)
        if self.panel.h > space:   # small window: tighter rows
            self.row_h = max(self.px(60), (space - self.px(60)) // 5)
            self.panel.h = self.row_h * 5 + self.px(60)
        total = self.panel.h + self.px(40) + bh
        self.panel.y = max(self.px(150), (h - total) // 2 + self.px(30))
        x_ctrl = self.panel.x + int(self.panel.w * 0.50)
        ctrl_w = self.panel.right - self.px(190) - x_ctrl
        y = self.panel.y + self.px(30)
        sl_h = self.px(40)
        tg_h = self.px(44)

        def ry(i):
            return y + i * self.row_h + self.row_h // 2

        self.speed = W.Slider((x_ctrl, ry(0) - sl_h // 2, ctrl_w, sl_h), st["anim_speed"], self.set_speed,
                              minimum=0.0, maximum=2.0, step=0.25, marks=(0.0, 1.0, 2.0), assets=a)
        self.volume = W.Slider((x_ctrl, ry(1) - sl_h // 2, ctrl_w, sl_h), st["volume"], self.set_volume,
                               minimum=0.0, maximum=1.0, step=0.05, assets=a,
                               on_release=lambda v: self.app.play("capture"))
        self.mute = W.Toggle((x_ctrl, ry(2) - tg_h // 2, int(tg_h * 1.9), tg_h), st["muted"], self.set_muted,
                             assets=a)
        self.numbers = W.Toggle((x_ctrl, ry(3) - tg_h // 2, int(tg_h * 1.9), tg_h), st["month_numbers"],
                                self.set_numbers, assets=a)
        self.full = W.Toggle((x_ctrl, ry(4) - tg_h // 2, int(tg_h * 1.9), tg_h), self.app.fullscreen,
                             self.set_fullscreen, assets=a)
        self.rows = [
            ("Animation speed", "How fast the cards move; Instant skips it.", self.speed),
            ("Sound effects", "The volume of card sounds.", self.volume),
            ("Mute", "Silence every sound.", self.mute),
            ("Month numbers", "Print the month in a corner of every card.", self.numbers),
            ("Fullscreen", "Also F11 at any time.", self.full),
        ]
        self.row_y = [ry(i) for i in range(5)]
        bw = self.px(300)
        by = self.panel.bottom + self.px(40)
        gap = self.px(24)
        self.reset_b = self.button((0, by, bw, bh), "Restore defaults", self.restore, style="ghost")
        self.back_b = self.button((0, by, bw, bh), "Back", self.back, style="primary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        self.reset_b.rect.right = w // 2 - gap // 2
        self.back_b.rect.left = w // 2 + gap // 2
        self.widgets = [self.speed, self.volume, self.mute, self.numbers, self.full, self.reset_b, self.back_b]
        self.focus.set(self.widgets)

    # ---------------------------------------------------------- changes
    def _save(self) -> None:
        self.app.save_settings()

    def set_speed(self, v: float) -> None:
        self.app.settings["anim_speed"] = float(v)
        self._save()

    def set_volume(self, v: float) -> None:
        self.app.settings["volume"] = float(v)
        if v > 0 and self.app.settings.get("muted"):
            self.app.settings["muted"] = False
            self.mute.set(False, notify=False)
        self._save()
        if not self.volume.dragging:   # keys and the wheel: preview each step
            self.app.play("snap", 0.8)

    def set_muted(self, on: bool) -> None:
        self.app.settings["muted"] = bool(on)
        self._save()
        if not on:
            self.app.play("click")

    def set_numbers(self, on: bool) -> None:
        self.app.settings["month_numbers"] = bool(on)
        self._save()

    def set_fullscreen(self, on: bool) -> None:
        self.app.set_fullscreen(bool(on))
        self.app.settings["fullscreen"] = self.app.fullscreen
        self._save()

    def restore(self) -> None:
        keep = {k: self.app.settings.get(k) for k in ("last_new_match", "window_size")}
        fresh = {k: (v.copy() if isinstance(v, dict) else v) for k, v in DEFAULT_SETTINGS.items()}
        fresh.update(keep)
        self.app.settings.clear()
        self.app.settings.update(fresh)
        if self.app.fullscreen:
            self.app.set_fullscreen(False)
        self._save()
        self.layout()

    def resize(self, size) -> None:
        super().resize(size)
        self.full.set(self.app.fullscreen, notify=False)

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, "Settings", max(self.px(30), self.panel.y - self.px(120)))
        W.draw_panel(surface, self.panel, s=self.s)
        label, hint, value = self.font("body", True), self.font("small"), self.font("small", True)
        x = self.panel.x + self.px(48)
        for i, ((name, text, widget), cy) in enumerate(zip(self.rows, self.row_y)):
            if i:
                W.draw_divider(surface, self.panel.x + self.px(30), self.panel.right - self.px(30),
                               cy - self.row_h // 2, theme.with_alpha(theme.GOLD_DARK, 255))
            two = self.row_h >= self.px(80)
            if two:
                W.draw_text(surface, name, label, theme.CREAM, (x, cy - self.px(2)), "bottomleft")
                W.draw_text(surface, text, hint, theme.CREAM_DIM, (x, cy + self.px(2)), "topleft", shadow=False)
            else:
                W.draw_text(surface, name, label, theme.CREAM, (x, cy), "midleft")
            vx = self.panel.right - self.px(48)
            if widget is self.speed:
                W.draw_text(surface, speed_text(self.speed.value), value, theme.GOLD_LIGHT, (vx, cy), "midright")
            elif widget is self.volume:
                pct = "Muted" if self.app.settings.get("muted") else f"{int(round(self.volume.value * 100))}%"
                W.draw_text(surface, pct, value, theme.GOLD_LIGHT, (vx, cy), "midright")
            elif isinstance(widget, W.Toggle):
                W.draw_text(surface, "On" if widget.value else "Off", value,
                            theme.GOLD_LIGHT if widget.value else theme.CREAM_DIM,
                            (widget.rect.right + self.px(22), cy), "midleft")
        # a preview card for the month-number setting
        ch = min(self.px(170), self.row_h * 2)
        img = self.app.assets.card("08-B", ch, month_number=bool(self.app.settings.get("month_numbers", True)))
        cx = self.panel.right - self.px(48) - img.get_width()
        W.draw_card(surface, img, (cx, self.row_y[3] - ch // 2 - self.px(10)), angle=-6)


class PauseMenuScene(MenuScene):
    """The in-game menu (Escape on the table): resume, rules, settings, or leave.

    The match is saved after every action, so leaving loses nothing: the
    title screen offers Continue.
    """

    opaque = False
    intro_time = 0.2

    def layout(self) -> None:
        w, h = self.size
        bw, bh, gap = self.px(420), self.px(74), self.px(18)
        labels = (("Resume", self.back, "primary", (pygame.K_ESCAPE,)),
                  ("How to play", self.how_to, "secondary", (pygame.K_F1,)),
                  ("Settings", self.settings, "secondary", ()),
                  ("Save and leave to title", self.to_title, "secondary", ()),
                  ("Quit the game", self.app.quit, "danger", ()))
        total = len(labels) * bh + (len(labels) - 1) * gap
        top = self.px(150)
        self.panel = pygame.Rect(0, 0, bw + 2 * self.px(60), total + top + self.px(60))
        self.panel.center = (w // 2, h // 2)
        y = self.panel.y + top
        self.widgets = []
        for label, fn, style, keys in labels:
            b = self.button((0, y, bw, bh), label, fn, style=style, hotkeys=keys)
            b.rect.centerx = w // 2
            self.widgets.append(b)
            y += bh + gap
        self.focus.set(self.widgets)

    def how_to(self) -> None:
        from .title import HowToPlayScene
        session = self._session()
        name = session.rules.name if session is not None else None
        self.app.push(HowToPlayScene(self.app, name))

    def settings(self) -> None:
        self.app.push(SettingsScene(self.app))

    def _session(self):
        for scene in reversed(self.app.scenes):
            s = getattr(scene, "session", None)
            if s is not None:
                return s
        return None

    def to_title(self) -> None:
        session = self._session()
        if session is not None and not session.state.is_over:
            self.app.storage.save_autosave(session)
        from .title import TitleScene
        self.app.reset(TitleScene(self.app))

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(160 * self.intro)))
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, s=self.s)
        W.draw_text(surface, "Paused", self.font("h1", True), theme.GOLD_LIGHT,
                    (self.panel.centerx, self.panel.y + self.px(34)), "midtop")
        for wdg in self.widgets:
            wdg.draw(surface)
