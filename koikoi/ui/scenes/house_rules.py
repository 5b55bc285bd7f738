"""The house-rules editor: every knob the rules declare as a house rule, in two columns
(``rules.HOUSE_ROWS``), with the help line, the greyed options and the reasons of the rules panel."""

from __future__ import annotations

from typing import Any, Callable, Optional
from types import SimpleNamespace

import pygame

from ...engine import PRESET_LABELS, RULESETS, Rules
from ...engine.rules import KNOBS, house_value
from .. import theme
from .. import widgets as W
from ...i18n import _
from .rules_panel import (GROUPS, HOUSE_KNOBS, KNOB_LABELS, RulesPanelScene, Stepper, _Overlay, build_rules,
                          changed_text, count_changes, differing_knobs, format_value,
                          help_lines, help_text, house_changes, idle_knobs, knob_help,
                          knob_matters, knob_reason, row_knobs, rules_problem, rules_rows,
                          short_value)


class HouseRulesScene(_Overlay):
    """Edit the house rules on top of a preset. ``on_done(changes)`` gets the knob ->
    value changes when the player presses Done (only if the Rules accept them).

    The row under the mouse (or with the keyboard focus) is explained in the help
    line; a row that changes nothing under the other rows' values is greyed and its
    control disabled, with the reason in its place."""

    def __init__(self, app, preset_name: str, changes: Optional[dict] = None,
                 on_done: Optional[Callable[[dict], Any]] = None):
        self.preset_name = preset_name
        self.preset = RULESETS[preset_name]
        start = dict(changes or {})
        try:
            rules = build_rules(preset_name, start)
        except ValueError:
            rules = self.preset
        self.values = {k: house_value(rules, k) for k, _, _ in HOUSE_KNOBS}
        self.on_done = on_done
        self.refusal: Optional[ValueError] = None  # the Rules' refusal, said when drawn (``rules_problem``)
        self.controls: dict = {}
        self._mouse: Optional[tuple[int, int]] = None
        self._by_key = False
        self.scroller = W.Scroller(keys=False, line=30)   # rows too many for the window scroll
        self._placed_at: Optional[int] = None
        super().__init__(app)

    # ---------------------------------------------------------- state
    @property
    def changes(self) -> dict:
        return house_changes(self.preset, self.values)

    def rules(self) -> Rules:
        """The Rules these choices make (ValueError if the Rules refuse them)."""
        return build_rules(self.preset_name, self.changes)

    def knob_values(self):
        """Every knob's value under these choices, as attributes (even for a combination
        the Rules refuse), for the dependencies."""
        values = {f: getattr(self.preset, f) for f in KNOBS}
        values.update(self.changes)
        return SimpleNamespace(**values)

    def active(self, row: str) -> bool:
        """Whether the editor's ``row`` changes anything under the other rows' values."""
        return knob_matters(self.knob_values(), row)

    def set_value(self, knob: str, value: Any) -> None:
        self.values[knob] = value
        try:
            self.rules()
            self.refusal = None
        except ValueError as exc:
            self.refusal = exc
        self._sync()

    @property
    def error(self) -> Optional[str]:
        """The refusal's technical English (for logs and tests), or None."""
        return str(self.refusal) if self.refusal is not None else None

    def _sync(self) -> None:
        """Disable (and hide behind their reason) the controls of rows that change nothing."""
        current = self.focus.current
        for row, ctrl in self.controls.items():
            on = self.active(row)
            ctrl.enabled = ctrl.visible = on
            if not on:
                ctrl.hovered = ctrl.focused = False
        if current is not None and not current.visible:
            self.focus.focus(None)

    def reset(self) -> None:
        self.values = {k: house_value(self.preset, k) for k, _, _ in HOUSE_KNOBS}
        self.refusal = None
        self.layout()

    def done(self) -> None:
        try:
            self.rules()
        except ValueError as exc:
            self.refusal = exc
            return
        self.app.pop()
        if self.on_done is not None:
            self.on_done(self.changes)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        self.panel = pygame.Rect(0, 0, min(w - self.px(60), self.px(1760)), h - self.px(50))
        self.panel.center = (w // 2, h // 2)
        n = len(HOUSE_KNOBS)
        per_col = (n + 1) // 2
        top = self.panel.y + self.px(140)
        bh = self.px(68)
        by = self.panel.bottom - self.px(24) - bh
        help_h = 3 * self.font("small").get_linesize()
        inner_x = self.panel.x + self.px(50)
        self.help_rect = pygame.Rect(inner_x, by - self.px(14) - help_h, self.panel.w - self.px(100), help_h)
        bottom = self.help_rect.y - self.px(12)
        # rows as tall as the window allows, never shorter than a disabled row's two-line
        # reason needs: more rows than that scroll
        least = 2 * self.font("tiny").get_linesize() + self.px(12) + 6
        self.row_h = max(least, min(self.px(80), (bottom - top) // per_col))
        self.rows_vp = pygame.Rect(inner_x - self.px(10), top, self.panel.w - self.px(80), bottom - top)
        self.scroller.viewport = self.rows_vp
        self.scroller.content_height = per_col * self.row_h
        self.scroller.scroll_to(self.scroller.target, instant=True)
        gap = self.px(60)
        cw = (self.panel.w - self.px(100) - gap) // 2
        ch = min(self.px(54), int(self.row_h * 0.72))
        self._content_rows: list[tuple[str, pygame.Rect]] = []
        self._ctrl_at: dict = {}
        self.controls = {}
        fs = theme.font_px("tiny", self.s)
        for i, (knob, kind, options) in enumerate(HOUSE_KNOBS):
            c, r = divmod(i, per_col)
            x = inner_x + c * (cw + gap)
            row = pygame.Rect(x, r * self.row_h, cw, self.row_h)     # in the rows' own space
            self._content_rows.append((knob, row))
            ctrl_x = x + int(cw * 0.46)
            ctrl_w = row.right - ctrl_x
            cy = row.centery
            value = self.values[knob]

            def cb(v, k=knob):
                self.set_value(k, v)
            if kind == "toggle":
                tg_h = min(self.px(44), ch)
                wdg = W.Toggle((ctrl_x, cy - tg_h // 2, int(tg_h * 1.9), tg_h), bool(value), cb, assets=a)
            elif kind == "choice":
                wdg = W.ChoiceRow((ctrl_x, cy - ch // 2, ctrl_w, ch),
                                  [(o, short_value(knob, o)) for o in options], value, cb,
                                  assets=a, gap=self.px(6), font_size=fs)
            else:
                fmt = (lambda v, k=knob: format_value(k, v))
                wdg = Stepper((ctrl_x, cy - ch // 2, min(ctrl_w, self.px(360)), ch), options, value, cb,
                              fmt=fmt, assets=a)
            self._ctrl_at[knob] = (wdg.rect.x - row.x, wdg.rect.y - row.y)
            self.controls[knob] = wdg
        bw = self.px(300)
        g = self.px(22)
        self.reset_b = self.button((0, by, bw, bh), _("Reset to preset"), self.reset, style="ghost")
        self.cancel_b = self.button((0, by, bw, bh), _("Cancel"), self.back, style="secondary")
        self.done_b = self.button((0, by, bw, bh), _("Done"), self.done, style="primary",
                                  hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        total = 3 * bw + 2 * g
        x = w // 2 - total // 2
        for b in (self.reset_b, self.cancel_b, self.done_b):
            b.rect.x = x
            x += bw + g
        self.status_y = self.help_rect.y
        self.buttons = [self.reset_b, self.cancel_b, self.done_b]
        self.widgets = list(self.controls.values()) + self.buttons
        self.focus.set(self.widgets)
        self._placed_at = None
        self._position()
        self._sync()

    def _position(self) -> None:
        """Put the rows and their controls where the scrolling has them."""
        off = int(self.scroller.offset)
        if off == self._placed_at:
            return
        self._placed_at = off
        dy = self.rows_vp.y - off
        self.rows = [(knob, row.move(0, dy)) for knob, row in self._content_rows]
        for knob, row in self.rows:
            ox, oy = self._ctrl_at[knob]
            self.controls[knob].rect.topleft = (row.x + ox, row.y + oy)

    def update(self, dt: float) -> None:
        super().update(dt)
        self._position()

    # ---------------------------------------------------------- help
    def control_area(self, row: pygame.Rect) -> pygame.Rect:
        """Where a row's control sits (its reason, when the row is disabled)."""
        x = row.x + int(row.w * 0.46)
        return pygame.Rect(x, row.y + self.px(4), row.right - x, row.h - self.px(8))

    def reason_lines(self, row: str, rect: pygame.Rect):
        """(font, lines) of a disabled row's reason, fitted into its control area."""
        return help_lines(self.font, knob_reason(row), rect.w - self.px(20), rect.h - self.px(4),
                          roles=("tiny",))

    def help_row(self) -> Optional[str]:
        """The row the help line explains: under the mouse, or with the keyboard focus
        (whichever was used last)."""
        focused = next((k for k, c in self.controls.items() if c is self.focus.current), None)
        if self._by_key and focused is not None:
            return focused
        if self._mouse is not None and self.rows_vp.collidepoint(self._mouse):
            for knob, row in self.rows:
                if row.inflate(self.px(16), 0).collidepoint(self._mouse):
                    return knob
        return focused

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self._mouse, self._by_key = event.pos, False
        elif event.type == pygame.WINDOWLEAVE:
            self._mouse = None
        elif event.type == pygame.KEYDOWN:
            self._by_key = True
        if self.scroller.handle(event):
            self._position()
            return True
        pos = getattr(event, "pos", None)
        if pos is not None and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) \
                and not self.rows_vp.collidepoint(pos):
            # outside the rows: a row scrolled out of view takes no click there
            for b in self.buttons:
                if b.handle(event):
                    return True
            self.focus.handle(event)
            return True
        super().handle(event)
        if event.type == pygame.KEYDOWN:      # the keyboard focus on a row out of view: show it
            row = next((r for (k, r) in self._content_rows if self.controls[k] is self.focus.current), None)
            if row is not None:
                self.scroller.reveal(row.y, row.h)
                if self.app.anim_speed <= 0:
                    self.scroller.scroll_to(self.scroller.target, instant=True)
                self._position()
        return True

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        cx = self.panel.centerx
        y = self.panel.y + self.px(24)
        r = W.draw_text(surface, _("House rules"), self.font("h2", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        changed = self.changes
        n = count_changes(changed)
        sub_font = self.font("small")
        left = _("On top of {preset}  ·  ").format(preset=_(PRESET_LABELS[self.preset_name]))
        right = changed_text(n)
        bold = self.font("small", True)
        sw = W.text_width(left, sub_font) + W.text_width(right, bold)
        sx = cx - sw // 2
        sr = W.draw_text(surface, left, sub_font, theme.CREAM_DIM, (sx, r.bottom + self.px(8)))
        W.draw_text(surface, right, bold, theme.GOLD_LIGHT if n else theme.CREAM_DIM, (sr.right, sr.y))
        label = self.font("small")
        keys_changed = set(changed)
        helped = self.help_row()
        per = (len(self.rows) + 1) // 2
        prev = surface.get_clip()
        surface.set_clip(self.rows_vp.clip(prev))
        for i, (knob, row) in enumerate(self.rows):
            if row.bottom < self.rows_vp.top or row.top > self.rows_vp.bottom:
                continue
            differs = bool(keys_changed.intersection(row_knobs(knob)))
            on = self.controls[knob].visible
            rr = row.inflate(self.px(16), -self.px(6))
            if differs:
                surface.blit(W.rounded_surface(rr.size, self.px(8), theme.with_alpha(theme.LACQUER, 80),
                                               border=theme.GOLD_DARK, border_width=1), rr.topleft)
            elif (i % per) % 2 == 0:
                surface.blit(W.rounded_surface(rr.size, self.px(8), theme.PANEL_ROW), rr.topleft)
            if knob == helped:
                surface.blit(W.rounded_surface(rr.size, self.px(8), (0, 0, 0, 0), border=theme.GOLD_LIGHT,
                                               border_width=1), rr.topleft)
            ctrl = self.controls[knob]
            area = self.control_area(row)
            lw = area.x - row.x - self.px(16)
            text = W.ellipsize(_(KNOB_LABELS.get(knob, knob)), label, lw)
            color = theme.MUTED if not on else (theme.GOLD_LIGHT if differs else theme.CREAM)
            W.draw_text(surface, text, label, color, (row.x, row.centery), "midleft", shadow=False)
            if not on:
                # the control greyed out: an empty box with the reason in it
                surface.blit(W.rounded_surface(area.size, max(3, area.h // 3), (30, 30, 30, 150),
                                               border=(70, 64, 54), border_width=1), area.topleft)
                font, lines = self.reason_lines(knob, area)
                ty = area.centery - len(lines) * font.get_linesize() // 2
                for line in lines:
                    W.draw_text(surface, line, font, theme.CREAM_DIM, (area.x + self.px(10), ty), shadow=False)
                    ty += font.get_linesize()
            elif isinstance(ctrl, W.Toggle):
                W.draw_text(surface, _("On") if ctrl.value else _("Off"), self.font("small", True),
                            theme.GOLD_LIGHT if ctrl.value else theme.CREAM_DIM,
                            (ctrl.rect.right + self.px(18), row.centery), "midleft", shadow=False)
        for ctrl in self.controls.values():
            if ctrl.rect.colliderect(self.rows_vp):
                ctrl.draw(surface)
        surface.set_clip(prev)
        self.scroller.draw_bar(surface)
        if self.refusal is not None:
            # the Rules' own sentence of what to change (their technical English is not shown)
            reason = rules_problem(self.refusal)
            self.draw_help(surface, _("These rules cannot be played: {reason}").format(reason=reason),
                           color=theme.BAD)
        elif helped is not None:
            self.draw_help(surface, *help_text(self.knob_values(), helped))
        else:
            self.draw_help(surface, _("Point at a rule (or move to it with Tab) to read what it does. "
                                      "Rules that change nothing under the others are greyed."),
                           color=theme.CREAM_DIM)

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(200 * self.intro)))
        W.draw_panel(surface, self.panel, fill=(12, 18, 16, 250), s=self.s)
        self.draw_content(surface)          # the rows' controls too, clipped to their viewport
        for b in self.buttons:
            b.draw(surface)


__all__ = ["RulesPanelScene", "HouseRulesScene", "Stepper", "GROUPS", "HOUSE_KNOBS", "KNOB_LABELS",
           "format_value", "short_value", "differing_knobs", "rules_rows", "house_value", "house_changes",
           "row_knobs", "build_rules", "changed_text", "count_changes", "knob_help", "knob_matters",
           "knob_reason", "idle_knobs", "help_lines", "help_text"]
