"""The rules in words: the "Rules of this match" overlay, and the House rules
editor of the New match dialog.

    RulesPanelScene(app, rules, months=None)       # read-only, over any scene
    HouseRulesScene(app, "nintendo", {"weather": True}, on_done=callback)

Both speak of the knobs of ``koikoi.engine.rules.Rules`` with the labels, value
words, groups and editor rows declared with each knob there (``KNOBS``,
``HOUSE_ROWS``). A knob that differs from the preset named in
``rules.name`` is highlighted (the panel) or counted ("3 house rules changed").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Optional

import pygame

from ...engine import PRESET_LABELS, RULESETS, Rules
from ...engine.rules import (HOUSE_ROWS, JOINT_ROWS, KNOB_GROUPS, KNOBS, ROW_OF, Knob, house_knobs,
                             house_value, knob_info)
from .. import theme
from .. import widgets as W
from . import MenuScene

# ------------------------------------------------------------------ words
# Every label, value word, group and editor row comes from the knobs' declaration in
# koikoi/engine/rules.py (``Rules`` fields' metadata); these are views of it.

KNOB_LABELS = {**{name: k.label for name, k in KNOBS.items()},
               **{name: k.label for name, k in JOINT_ROWS.items()}}


def _knob(name: str) -> Optional[Knob]:
    try:
        return knob_info(name)
    except KeyError:
        return None


def short_value(knob: str, value: Any) -> str:
    """A value in the fewest words, for the pills of the house-rules editor."""
    info = _knob(knob)
    short = info.short(value) if info is not None else None
    return short if short is not None else format_value(knob, value)


def format_value(knob: str, value: Any) -> str:
    """A knob's value in words ("Yes", "Unlimited", "Dealer sweeps", "12")."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    info = _knob(knob)
    said = info.word(value) if info is not None else None
    if said is not None:
        return said
    if value is None:
        return "—"
    if info is not None and info.kind == "lengths":
        v = tuple(value)
        if len(v) > 4 and v == tuple(range(v[0], v[-1] + 1)):
            return f"{v[0]}–{v[-1]}"
        return ", ".join(str(m) for m in v)
    if isinstance(value, str):
        return value.replace("_", " ")
    if info is not None and info.kind == "number":
        return info.unit.format(value)
    return str(value)


# The panel's groups, in reading order; every knob but ``name`` is in one.
GROUPS = tuple((title, tuple(n for n, k in KNOBS.items() if k.shown and k.group == title))
               for title in KNOB_GROUPS)


def preset_of(rules: Rules) -> Optional[Rules]:
    return RULESETS.get(rules.name)


def differing_knobs(rules: Rules, preset: Optional[Rules] = None) -> list[str]:
    """Knobs of ``rules`` that differ from its preset (by ``rules.name``), in panel order."""
    preset = preset if preset is not None else preset_of(rules)
    if preset is None:
        return []
    return [k for _, knobs in GROUPS for k in knobs if getattr(rules, k) != getattr(preset, k)]


def rules_rows(rules: Rules, months: Optional[int] = None) -> list[tuple[str, list[tuple]]]:
    """(group title, [(knob, label, value text, differs, preset value text), ...]) for the panel.
    ``months``: the length the match was actually played at (it may differ from the preset's)."""
    preset = preset_of(rules)
    out = []
    for title, knobs in GROUPS:
        rows = []
        for k in knobs:
            v = getattr(rules, k)
            if k == "months" and months is not None:
                v = months
            pv = getattr(preset, k) if preset is not None else v
            differs = preset is not None and v != pv and not (k == "months" and v in preset.months_offered)
            rows.append((k, KNOB_LABELS.get(k, k), format_value(k, v), differs, format_value(k, pv)))
        out.append((title, rows))
    return out


# ------------------------------------------------------------------ house rules


# The editor's rows: (row, kind, options). Kinds: "toggle", "choice" (a ChoiceRow over
# the options), "step" (a stepper over the options). A row is a knob, or a joint row of
# several ("sake_cup" stands for the two sake-cup knobs).
HOUSE_KNOBS = tuple((row, k.house.control, None if k.house.control == "toggle" else k.house.values)
                    for row, k in HOUSE_ROWS)


def row_knobs(row: str) -> tuple:
    """The knobs the editor's ``row`` sets."""
    info = knob_info(row)
    return tuple(k for k, _ in info.sets[0][1]) if info.sets else (row,)


def house_changes(preset: Rules, values: dict) -> dict:
    """Knob -> value for the entries of ``values`` (editor rows) that differ from ``preset``."""
    out: dict = {}
    for row, value in values.items():
        for k, v in house_knobs(row, value).items():
            if getattr(preset, k) != v:
                out[k] = v
    return out


def build_rules(preset_name: str, changes: dict) -> Rules:
    """``dataclasses.replace(preset, **changes)``; raises ValueError for a combination the
    Rules refuse."""
    try:
        return replace(RULESETS[preset_name], **changes)
    except TypeError as exc:
        raise ValueError(str(exc)) from None


def changed_text(n: int) -> str:
    if n == 0:
        return "Preset rules, unchanged"
    return f"{n} house rule{'s' if n != 1 else ''} changed"


def count_changes(changes: dict) -> int:
    """How many editor rows ``changes`` touch (the two sake-cup knobs are one row)."""
    return len({ROW_OF.get(k, k) for k in changes})


class Stepper(W.Widget):
    """◀ value ▶: steps through ``values`` (wrapping). Click an arrow, or Left/Right
    while focused."""

    def __init__(self, rect, values, selected, on_change: Optional[Callable[[Any], Any]] = None, *,
                 fmt: Callable[[Any], str] = str, assets=None):
        super().__init__(rect, assets=assets)
        self.values = list(values)
        self.selected = selected if selected in self.values else self.values[0]
        self.on_change = on_change
        self.fmt = fmt
        self._press: Optional[int] = None

    def _arrows(self) -> tuple[pygame.Rect, pygame.Rect]:
        r = self.rect
        a = r.h
        return pygame.Rect(r.x, r.y, a, r.h), pygame.Rect(r.right - a, r.y, a, r.h)

    def step(self, d: int) -> None:
        i = (self.values.index(self.selected) + d) % len(self.values)
        self.selected = self.values[i]
        if self.on_change is not None:
            self.on_change(self.selected)

    def handle(self, event) -> bool:
        if not self.visible:
            return False
        self._track_hover(event)
        left, right = self._arrows()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self._press = -1 if event.pos[0] < self.rect.centerx else 1
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._press is not None:
            d, self._press = self._press, None
            if self.enabled and self.rect.collidepoint(event.pos):
                W._play(self._a, "click", 0.6)
                self.step(d)
            return True
        if event.type == pygame.KEYDOWN and self.focused and self.enabled:
            d = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(event.key)
            if d:
                self.step(d)
                return True
        return False

    def draw(self, surface) -> None:
        if not self.visible:
            return
        r = self.rect
        radius = max(3, r.h // 3)
        border = theme.GOLD_LIGHT if (self.hovered or self.focused) else theme.GOLD_DARK
        surface.blit(W.rounded_surface(r.size, radius, (40, 38, 36, 220), bottom=(22, 22, 22, 220),
                                       border=border, border_width=max(1, r.h // 30)), r.topleft)
        left, right = self._arrows()
        af = self._a.font(max(10, int(r.h * 0.42)), True)
        W.draw_text(surface, "◀", af, theme.GOLD, left.center, "center", shadow=False)
        W.draw_text(surface, "▶", af, theme.GOLD, right.center, "center", shadow=False)
        text = self.fmt(self.selected)
        font = W.fit_font(self._a, text, r.w - 2 * left.w - 8, max(10, int(r.h * 0.40)), bold=True)
        W.draw_text(surface, text, font, theme.CREAM, r.center, "center")


# ------------------------------------------------------------------ overlays


class _Overlay(MenuScene):
    """A modal panel over the scene below (dimmed)."""

    opaque = False
    intro_time = 0.2

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal: nothing reaches the scene below

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(200 * self.intro)))
        W.draw_panel(surface, self.panel, fill=(12, 18, 16, 250), s=self.s)
        self.draw_content(surface)
        for wdg in self.widgets:
            wdg.draw(surface)


class RulesPanelScene(_Overlay):
    """Every knob of a match's Rules, in groups; knobs that differ from the preset
    named in ``rules.name`` are marked in gold with the preset's value."""

    def __init__(self, app, rules: Rules, months: Optional[int] = None):
        self.rules = rules
        self.months = months
        self.groups = rules_rows(rules, months)
        self.differing = [k for _, rows in self.groups for k, _l, _v, d, _p in rows if d]
        self.scroller = W.Scroller(line=40)
        self._content: Optional[pygame.Surface] = None
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        self.panel = pygame.Rect(0, 0, min(w - self.px(60), self.px(1700)), h - self.px(60))
        self.panel.center = (w // 2, h // 2)
        bw, bh = self.px(280), self.px(68)
        self.close_b = self.button((0, 0, bw, bh), "Close", self.back, style="primary",
                                   hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        self.close_b.rect.midbottom = (w // 2, self.panel.bottom - self.px(26))
        self.widgets = [self.close_b]
        self.focus.set(self.widgets)
        top = self.panel.y + self.px(140)
        vp = pygame.Rect(self.panel.x + self.px(50), top, self.panel.w - self.px(100),
                         self.close_b.rect.y - self.px(20) - top)
        self.scroller.viewport = vp
        self._content = None

    def _build(self) -> pygame.Surface:
        vp = self.scroller.viewport
        head, label, value = self.font("small", True), self.font("small"), self.font("small", True)
        tiny = self.font("tiny")
        cols = 3 if vp.w > self.px(1200) else 2
        gap = self.px(40)
        cw = (vp.w - gap * (cols - 1)) // cols
        line = max(label.get_linesize(), value.get_linesize()) + self.px(5)
        heights = [head.get_linesize() + self.px(14) + len(rows) * line + self.px(26) for _, rows in self.groups]
        # fill the columns in order, starting a new one when it passes an even share
        share = sum(heights) / cols
        col_of, c, acc = [], 0, 0
        for hgt in heights:
            if acc > 0 and acc + hgt / 2 > share * (c + 1) and c < cols - 1:
                c += 1
            col_of.append(c)
            acc += hgt
        col_h = [0] * cols
        for i, hgt in enumerate(heights):
            col_h[col_of[i]] += hgt
        total = max(col_h)
        surf = pygame.Surface((vp.w, max(1, total)), pygame.SRCALPHA)
        ys = [0] * cols
        for (title, rows), c in zip(self.groups, col_of):
            x = c * (cw + gap)
            y = ys[c]
            W.draw_text(surf, title.upper(), head, theme.GOLD, (x, y), shadow=False)
            y += head.get_linesize() + self.px(4)
            W.draw_divider(surf, x, x + cw, y, theme.GOLD_DARK, max(1, self.px(2)))
            y += self.px(10)
            for i, (k, lab, val, differs, pval) in enumerate(rows):
                rr = pygame.Rect(x - self.px(8), y, cw + self.px(16), line)
                if differs:
                    surf.blit(W.rounded_surface(rr.size, self.px(8), theme.with_alpha(theme.LACQUER, 90),
                                                border=theme.GOLD, border_width=1), rr.topleft)
                elif i % 2 == 0:
                    surf.blit(W.rounded_surface(rr.size, self.px(8), theme.PANEL_ROW), rr.topleft)
                cy = y + line // 2
                color = theme.GOLD_LIGHT if differs else theme.CREAM
                vtext = val
                vr = W.draw_text(surf, W.ellipsize(vtext, value, cw // 2), value, color, (x + cw - self.px(4), cy),
                                 "midright", shadow=False)
                lw = vr.x - x - self.px(10)
                if differs:
                    note = f"preset: {pval}"
                    nr_w = W.text_width(note, tiny)
                    if W.text_width(lab, label) + nr_w + self.px(16) < lw:
                        W.draw_text(surf, note, tiny, theme.CREAM_DIM, (vr.x - self.px(12), cy), "midright",
                                    shadow=False)
                        lw -= nr_w + self.px(16)
                W.draw_text(surf, W.ellipsize(lab, label, lw), label, theme.CREAM if not differs else theme.CREAM,
                            (x, cy), "midleft", shadow=False)
                y += line
            ys[c] = y + self.px(26)
        self.scroller.content_height = total
        return surf

    def handle(self, event) -> bool:
        if self.scroller.handle(event):
            return True
        return super().handle(event)

    def draw_content(self, surface: pygame.Surface) -> None:
        cx = self.panel.centerx
        y = self.panel.y + self.px(28)
        r = W.draw_text(surface, "Rules of this match", self.font("h2", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        preset = PRESET_LABELS.get(self.rules.name, self.rules.name.title())
        n = len(self.differing)
        sub = f"{preset}  ·  " + ("played as the preset" if not n else
                                  f"{n} house rule{'s' if n != 1 else ''} differ{'s' if n == 1 else ''} (marked in gold)")
        W.draw_text(surface, sub, self.font("small"), theme.CREAM_DIM, (cx, r.bottom + self.px(10)), "midtop")
        if self._content is None:
            self._content = self._build()
        vp = self.scroller.viewport
        off = int(self.scroller.offset)
        surface.blit(self._content, vp.topleft, area=pygame.Rect(0, off, vp.w, vp.h))
        self.scroller.draw_bar(surface)


class HouseRulesScene(_Overlay):
    """Edit the house rules on top of a preset. ``on_done(changes)`` gets the knob ->
    value changes when the player presses Done (only if the Rules accept them)."""

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
        self.error: Optional[str] = None
        self.controls: dict = {}
        super().__init__(app)

    # ---------------------------------------------------------- state
    @property
    def changes(self) -> dict:
        return house_changes(self.preset, self.values)

    def rules(self) -> Rules:
        """The Rules these choices make (ValueError if the Rules refuse them)."""
        return build_rules(self.preset_name, self.changes)

    def set_value(self, knob: str, value: Any) -> None:
        self.values[knob] = value
        try:
            self.rules()
            self.error = None
        except ValueError as exc:
            self.error = str(exc)

    def reset(self) -> None:
        self.values = {k: house_value(self.preset, k) for k, _, _ in HOUSE_KNOBS}
        self.error = None
        self.layout()

    def done(self) -> None:
        try:
            self.rules()
        except ValueError as exc:
            self.error = str(exc)
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
        top = self.panel.y + self.px(150)
        bh = self.px(68)
        bottom = self.panel.bottom - self.px(28) - bh - self.px(60)
        self.row_h = min(self.px(80), (bottom - top) // per_col)
        gap = self.px(60)
        inner_x = self.panel.x + self.px(50)
        cw = (self.panel.w - self.px(100) - gap) // 2
        ch = min(self.px(54), int(self.row_h * 0.72))
        self.rows: list[tuple[str, pygame.Rect]] = []
        self.controls = {}
        fs = theme.font_px("tiny", self.s)
        for i, (knob, kind, options) in enumerate(HOUSE_KNOBS):
            c, r = divmod(i, per_col)
            x = inner_x + c * (cw + gap)
            y = top + r * self.row_h
            row = pygame.Rect(x, y, cw, self.row_h)
            self.rows.append((knob, row))
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
            self.controls[knob] = wdg
        bw = self.px(300)
        by = self.panel.bottom - self.px(28) - bh
        g = self.px(22)
        self.reset_b = self.button((0, by, bw, bh), "Reset to preset", self.reset, style="ghost")
        self.cancel_b = self.button((0, by, bw, bh), "Cancel", self.back, style="secondary")
        self.done_b = self.button((0, by, bw, bh), "Done", self.done, style="primary",
                                  hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        total = 3 * bw + 2 * g
        x = w // 2 - total // 2
        for b in (self.reset_b, self.cancel_b, self.done_b):
            b.rect.x = x
            x += bw + g
        self.status_y = by - self.px(54)
        self.widgets = list(self.controls.values()) + [self.reset_b, self.cancel_b, self.done_b]
        self.focus.set(self.widgets)

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        cx = self.panel.centerx
        y = self.panel.y + self.px(28)
        r = W.draw_text(surface, "House rules", self.font("h2", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        W.draw_text(surface, f"On top of {PRESET_LABELS[self.preset_name]}", self.font("small"),
                    theme.CREAM_DIM, (cx, r.bottom + self.px(10)), "midtop")
        label = self.font("small")
        changed = self.changes
        keys_changed = set(changed)
        for i, (knob, row) in enumerate(self.rows):
            differs = bool(keys_changed.intersection(row_knobs(knob)))
            rr = row.inflate(self.px(16), -self.px(6))
            if differs:
                surface.blit(W.rounded_surface(rr.size, self.px(8), theme.with_alpha(theme.LACQUER, 80),
                                               border=theme.GOLD_DARK, border_width=1), rr.topleft)
            elif (i % ((len(self.rows) + 1) // 2)) % 2 == 0:
                surface.blit(W.rounded_surface(rr.size, self.px(8), theme.PANEL_ROW), rr.topleft)
            ctrl = self.controls[knob]
            lw = ctrl.rect.x - row.x - self.px(16)
            text = W.ellipsize(KNOB_LABELS.get(knob, knob), label, lw)
            W.draw_text(surface, text, label, theme.GOLD_LIGHT if differs else theme.CREAM,
                        (row.x, row.centery), "midleft", shadow=False)
            if isinstance(ctrl, W.Toggle):
                W.draw_text(surface, "On" if ctrl.value else "Off", self.font("small", True),
                            theme.GOLD_LIGHT if ctrl.value else theme.CREAM_DIM,
                            (ctrl.rect.right + self.px(18), row.centery), "midleft", shadow=False)
        if self.error:
            msg = self.error.replace("invalid rules: ", "These rules cannot be played: ")
            font = self.font("small", True)
            lines = W.wrap_text(msg, font, self.panel.w - self.px(120))[:2]
            for j, line in enumerate(lines):
                W.draw_text(surface, line, font, theme.BAD, (cx, self.status_y - (len(lines) - 1 - j) * font.get_linesize()),
                            "midtop")
        else:
            n = count_changes(changed)
            W.draw_text(surface, changed_text(n), self.font("body", True),
                        theme.GOLD_LIGHT if n else theme.CREAM_DIM, (cx, self.status_y), "midtop")


__all__ = ["RulesPanelScene", "HouseRulesScene", "Stepper", "GROUPS", "HOUSE_KNOBS", "KNOB_LABELS",
           "format_value", "short_value", "differing_knobs", "rules_rows", "house_value", "house_changes",
           "row_knobs", "build_rules", "changed_text", "count_changes"]
