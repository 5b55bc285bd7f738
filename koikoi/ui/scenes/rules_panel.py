"""The rules in words: the "Rules of this match" overlay, and the House rules
editor of the New match dialog.

    RulesPanelScene(app, rules, months=None)       # read-only, over any scene
    HouseRulesScene(app, "nintendo", {"weather": True}, on_done=callback)

Both speak of the knobs of ``koikoi.engine.rules.Rules`` with the labels, value
words, units, explanations, dependencies, groups and editor rows declared with
each knob there (``KNOBS``, ``HOUSE_ROWS``, ``Knob.depends``). A knob that
differs from the preset named in ``rules.name`` is highlighted (the panel) or
counted ("3 house rules changed"). The knob under the mouse (or, in the editor,
the keyboard focus) is explained in a help line. A knob that changes nothing
under the other knobs' values (``matters``) is greyed, with the reason
(``dependency_text``): in the editor its control is disabled.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Optional

import pygame

from ...engine import PRESET_DESCRIPTIONS, PRESET_LABELS, RULESETS, Rules
from ...engine.rules import (HOUSE_ROWS, JOINT_ROWS, KNOB_GROUPS, KNOBS, POINTS_MAX, ROW_OF,
                             TARGET_POINTS_MAX, Knob, dependency_text, house_knobs, house_value, knob_info,
                             matters)
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
        if info.unit == "{}" and info.bounds and info.bounds[1] in (POINTS_MAX, TARGET_POINTS_MAX):
            # a point knob declared without a unit still reads "1 point", "6 points"
            return f"{value} point{'s' if value != 1 else ''}"
        return info.unit.format(value)
    return str(value)


def knob_help(name: str) -> str:
    """What a knob (or joint editor row) means, in a sentence: its declared explanation."""
    info = _knob(name)
    return info.explanation if info is not None else ""


def knob_matters(rules, name: str) -> bool:
    """Whether knob or editor row ``name`` changes anything under ``rules`` (any object with
    the knobs as attributes): a row of several knobs matters if one of them does."""
    try:
        return matters(rules, name)
    except (KeyError, AttributeError):
        return True


def knob_reason(name: str) -> str:
    """Why ``name`` may not matter: "Only when Lucky hands is On." ("" if it always does)."""
    try:
        return dependency_text(name)
    except KeyError:
        return ""


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


def idle_knobs(rules: Rules) -> list[str]:
    """Knobs of the panel that change nothing under ``rules`` (greyed there)."""
    return [k for _, knobs in GROUPS for k in knobs if not knob_matters(rules, k)]


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
        on = self.enabled
        border = (theme.GOLD_LIGHT if (self.hovered or self.focused) else theme.GOLD_DARK) if on else (70, 64, 54)
        surface.blit(W.rounded_surface(r.size, radius, (40, 38, 36, 220) if on else (34, 34, 34, 160),
                                       bottom=(22, 22, 22, 220) if on else (24, 24, 24, 160),
                                       border=border, border_width=max(1, r.h // 30)), r.topleft)
        left, right = self._arrows()
        af = self._a.font(max(10, int(r.h * 0.42)), True)
        arrow = theme.GOLD if on else theme.MUTED
        W.draw_text(surface, "◀", af, arrow, left.center, "center", shadow=False)
        W.draw_text(surface, "▶", af, arrow, right.center, "center", shadow=False)
        text = self.fmt(self.selected)
        font = W.fit_font(self._a, text, r.w - 2 * left.w - 8, max(10, int(r.h * 0.40)), bold=True)
        W.draw_text(surface, text, font, theme.CREAM if on else theme.MUTED, r.center, "center")


# ------------------------------------------------------------------ help line


def help_lines(assets_font, text: str, width: int, height: int, roles=("small", "tiny")):
    """(font, lines) of ``text`` wrapped to ``width`` in the first type role whose lines
    fit ``height``; in the last role cut to the lines that fit if none does.
    ``assets_font(role)`` gives the font of a role."""
    font, lines = None, []
    for role in roles:
        font = assets_font(role)
        lines = W.wrap_text(text, font, width)
        if len(lines) * font.get_linesize() <= height:
            return font, lines
    fit = max(1, height // font.get_linesize())
    if len(lines) > fit:
        lines = lines[:fit]
        lines[-1] = W.ellipsize(lines[-1] + " …", font, width)
    return font, lines


def help_text(rules, name: str) -> tuple[str, str]:
    """(what ``name`` means, why it changes nothing under ``rules`` or "") for a help line."""
    label = KNOB_LABELS.get(name, name)
    reason = "" if knob_matters(rules, name) else knob_reason(name)
    return f"{label}: {knob_help(name)}", reason


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

    def help_lines(self, text: str, reason: str = "") -> list[tuple[str, pygame.font.Font, tuple]]:
        """(line, font, colour) of the help area for ``text`` and a ``reason`` after it (gold)."""
        area = self.help_rect
        whole = text + (f"  {reason}" if reason else "")
        font, lines = help_lines(self.font, whole, area.w, area.h)
        if not reason:
            return [(line, font, theme.CREAM) for line in lines]
        # the reason in gold: the lines of the text, then those of the reason
        tl = W.wrap_text(text, font, area.w)
        rl = W.wrap_text(reason, font, area.w)
        if (len(tl) + len(rl)) * font.get_linesize() <= area.h:
            return [(line, font, theme.CREAM) for line in tl] + [(line, font, theme.GOLD_LIGHT) for line in rl]
        return [(line, font, theme.CREAM) for line in lines]

    def draw_help(self, surface: pygame.Surface, text: str, reason: str = "", color=None) -> None:
        y = self.help_rect.y
        for line, font, c in self.help_lines(text, reason):
            W.draw_text(surface, line, font, color or c, (self.help_rect.x, y), shadow=False)
            y += font.get_linesize()


class RulesPanelScene(_Overlay):
    """Every knob of a match's Rules, in groups; knobs that differ from the preset
    named in ``rules.name`` are marked in gold with the preset's value, knobs that
    change nothing under these rules are greyed, and the knob under the mouse is
    explained in the help line above Close."""

    def __init__(self, app, rules: Rules, months: Optional[int] = None):
        self.rules = rules
        self.months = months
        self.groups = rules_rows(rules, months)
        self.differing = [k for _, rows in self.groups for k, _l, _v, d, _p in rows if d]
        self.idle = set(idle_knobs(rules))
        self.scroller = W.Scroller(line=40)
        self._content: Optional[pygame.Surface] = None
        self._hits: list[tuple[pygame.Rect, str]] = []
        self._mouse: Optional[tuple[int, int]] = None
        super().__init__(app)

    def layout(self) -> None:
        w, h = self.size
        self.panel = pygame.Rect(0, 0, min(w - self.px(60), self.px(1700)), h - self.px(60))
        self.panel.center = (w // 2, h // 2)
        bw, bh = self.px(280), self.px(68)
        self.close_b = self.button((0, 0, bw, bh), "Close", self.back, style="primary",
                                   hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        self.close_b.rect.midbottom = (w // 2, self.panel.bottom - self.px(22))
        self.widgets = [self.close_b]
        self.focus.set(self.widgets)
        top = self.panel.y + self.px(130)
        x = self.panel.x + self.px(50)
        width = self.panel.w - self.px(100)
        help_h = 3 * self.font("small").get_linesize()
        self.help_rect = pygame.Rect(x, self.close_b.rect.y - self.px(14) - help_h, width, help_h)
        vp = pygame.Rect(x, top, width, self.help_rect.y - self.px(14) - top)
        self.scroller.viewport = vp
        self._content = None

    def _build(self) -> pygame.Surface:
        vp = self.scroller.viewport
        head, label, value = self.font("small", True), self.font("small"), self.font("small", True)
        tiny = self.font("tiny")
        cols = 3 if vp.w > self.px(1200) else 2
        gap = self.px(40)
        cw = (vp.w - gap * (cols - 1)) // cols
        line = max(label.get_linesize(), value.get_linesize()) + self.px(2)
        heights = [head.get_linesize() + self.px(12) + len(rows) * line + self.px(20) for _, rows in self.groups]
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
        self._hits = []
        for (title, rows), c in zip(self.groups, col_of):
            x = c * (cw + gap)
            y = ys[c]
            W.draw_text(surf, title.upper(), head, theme.GOLD, (x, y), shadow=False)
            y += head.get_linesize() + self.px(4)
            W.draw_divider(surf, x, x + cw, y, theme.GOLD_DARK, max(1, self.px(2)))
            y += self.px(8)
            for i, (k, lab, val, differs, pval) in enumerate(rows):
                rr = pygame.Rect(x - self.px(8), y, cw + self.px(16), line)
                self._hits.append((rr, k))
                idle = k in self.idle
                if differs:
                    surf.blit(W.rounded_surface(rr.size, self.px(8), theme.with_alpha(theme.LACQUER, 90),
                                                border=theme.GOLD, border_width=1), rr.topleft)
                elif i % 2 == 0:
                    surf.blit(W.rounded_surface(rr.size, self.px(8), theme.PANEL_ROW), rr.topleft)
                cy = y + line // 2
                color = theme.MUTED if idle else (theme.GOLD_LIGHT if differs else theme.CREAM)
                vr = W.draw_text(surf, W.ellipsize(val, value, cw // 2), value, color, (x + cw - self.px(4), cy),
                                 "midright", shadow=False)
                lw = vr.x - x - self.px(10)
                if differs:
                    note = f"preset: {pval}"
                    nr_w = W.text_width(note, tiny)
                    if W.text_width(lab, label) + nr_w + self.px(16) < lw:
                        W.draw_text(surf, note, tiny, theme.CREAM_DIM, (vr.x - self.px(12), cy), "midright",
                                    shadow=False)
                        lw -= nr_w + self.px(16)
                W.draw_text(surf, W.ellipsize(lab, label, lw), label, theme.MUTED if idle else theme.CREAM,
                            (x, cy), "midleft", shadow=False)
                y += line
            ys[c] = y + self.px(20)
        self.scroller.content_height = total
        return surf

    def hovered_knob(self) -> Optional[str]:
        """The knob under the mouse, or None."""
        vp = self.scroller.viewport
        if self._mouse is None or not vp.collidepoint(self._mouse):
            return None
        if self._content is None:
            self._content = self._build()
        p = (self._mouse[0] - vp.x, self._mouse[1] - vp.y + int(self.scroller.offset))
        for r, k in self._hits:
            if r.collidepoint(p):
                return k
        return None

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self._mouse = event.pos
        elif event.type == pygame.WINDOWLEAVE:
            self._mouse = None
        if self.scroller.handle(event):
            return True
        return super().handle(event)

    def draw_content(self, surface: pygame.Surface) -> None:
        cx = self.panel.centerx
        y = self.panel.y + self.px(24)
        r = W.draw_text(surface, "Rules of this match", self.font("h2", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        preset = PRESET_LABELS.get(self.rules.name, self.rules.name.title())
        n = len(self.differing)
        sub = f"{preset}  ·  " + ("played as the preset" if not n else
                                  f"{n} house rule{'s' if n != 1 else ''} differ{'s' if n == 1 else ''} (marked in gold)")
        W.draw_text(surface, sub, self.font("small"), theme.CREAM_DIM, (cx, r.bottom + self.px(8)), "midtop")
        if self._content is None:
            self._content = self._build()
        vp = self.scroller.viewport
        off = int(self.scroller.offset)
        surface.blit(self._content, vp.topleft, area=pygame.Rect(0, off, vp.w, vp.h))
        self.scroller.draw_bar(surface)
        knob = self.hovered_knob()
        if knob is not None:
            r = next(rr for rr, k in self._hits if k == knob).move(vp.x, vp.y - off).clip(vp)
            if r.h > 0:
                surface.blit(W.rounded_surface(r.size, self.px(8), (0, 0, 0, 0), border=theme.GOLD_LIGHT,
                                               border_width=1), r.topleft)
            self.draw_help(surface, *help_text(self.rules, knob))
        else:
            tip = "Point at a rule to read what it means."
            described = PRESET_DESCRIPTIONS.get(self.rules.name)
            if described and not self.differing:
                tip = f"{described} {tip}"
            if self.idle:
                tip += " Greyed rules change nothing under these rules."
            self.draw_help(surface, tip, color=theme.CREAM_DIM)


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
        self.error: Optional[str] = None
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
        from types import SimpleNamespace
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
            self.error = None
        except ValueError as exc:
            self.error = str(exc)
        self._sync()

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
        self.reset_b = self.button((0, by, bw, bh), "Reset to preset", self.reset, style="ghost")
        self.cancel_b = self.button((0, by, bw, bh), "Cancel", self.back, style="secondary")
        self.done_b = self.button((0, by, bw, bh), "Done", self.done, style="primary",
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
        r = W.draw_text(surface, "House rules", self.font("h2", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        changed = self.changes
        n = count_changes(changed)
        sub_font = self.font("small")
        left = f"On top of {PRESET_LABELS[self.preset_name]}  ·  "
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
            text = W.ellipsize(KNOB_LABELS.get(knob, knob), label, lw)
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
                W.draw_text(surface, "On" if ctrl.value else "Off", self.font("small", True),
                            theme.GOLD_LIGHT if ctrl.value else theme.CREAM_DIM,
                            (ctrl.rect.right + self.px(18), row.centery), "midleft", shadow=False)
        for ctrl in self.controls.values():
            if ctrl.rect.colliderect(self.rows_vp):
                ctrl.draw(surface)
        surface.set_clip(prev)
        self.scroller.draw_bar(surface)
        if self.error:
            msg = self.error.replace("invalid rules: ", "These rules cannot be played: ")
            self.draw_help(surface, msg, color=theme.BAD)
        elif helped is not None:
            self.draw_help(surface, *help_text(self.knob_values(), helped))
        else:
            self.draw_help(surface, "Point at a rule (or move to it with Tab) to read what it does. "
                                    "Rules that change nothing under the others are greyed.", color=theme.CREAM_DIM)

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
