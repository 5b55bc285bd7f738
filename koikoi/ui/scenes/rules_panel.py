"""The rules in words: the "Rules of this match" overlay, and the House rules
editor of the New match dialog.

    RulesPanelScene(app, rules, months=None)       # read-only, over any scene
    house_rules.HouseRulesScene(app, "nintendo", {"weather": True}, on_done=callback)   # the editor: house_rules.py

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

from typing import Any, Callable, Optional

import pygame

from ...engine import PRESET_DESCRIPTIONS, RULESETS, Rules
from ...engine.rules import (CANNOT_PLAY, HOUSE_ROWS, JOINT_ROWS, KNOB_GROUPS, KNOBS, POINTS_MAX, ROW_OF,
                             TARGET_POINTS_MAX, Knob, RulesError, dependency_text,
                             house_knobs, knob_info, matters, match_rules)
from ...i18n import _, format_number, ngettext
from ...narration import preset_label, rules_name
from .. import theme
from .. import widgets as W
from . import MenuScene

# ------------------------------------------------------------------ words
# Every label, value word, group and editor row comes from the knobs' declaration in
# koikoi/engine/rules.py (``Rules`` fields' metadata); these are views of it. They are English
# there (marked with the engine's ``N_``) and translated here, where they are shown.

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
    return _(short) if short is not None else format_value(knob, value)


def format_value(knob: str, value: Any) -> str:
    """A knob's value in words ("Yes", "Unlimited", "Dealer sweeps", "12")."""
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    info = _knob(knob)
    said = info.word(value) if info is not None else None
    if said is not None:
        return _(said)
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
            return ngettext("{n} point", "{n} points", value).format(n=value)
        return _(info.unit).format(value)
    return str(value)


def knob_help(name: str) -> str:
    """What a knob (or joint editor row) means, in a sentence: its declared explanation."""
    info = _knob(name)
    return _(info.explanation) if info is not None and info.explanation else ""


def knob_matters(rules, name: str) -> bool:
    """Whether knob or editor row ``name`` changes anything under ``rules`` (any object with
    the knobs as attributes): a row of several knobs matters if one of them does."""
    try:
        return matters(rules, name)
    except (KeyError, AttributeError):
        return True


def knob_reason(name: str) -> str:
    """Why ``name`` may not matter: "Only when Lucky hands is On." ("" if it always does).
    The words of ``rules.dependency_text``, in the current language."""
    try:
        depends = knob_info(name).depends
    except KeyError:
        return ""

    def said(other: Knob, v: Any) -> str:
        if isinstance(v, bool):
            return _("Yes") if v else _("No")      # a toggle's values, as the panel says them
        word = other.word(v)
        return _(word) if word is not None else str(v)

    parts = []
    try:
        for w in depends:
            other = knob_info(w.knob)
            if w.said:
                parts.append(_(w.said))
                continue
            if w.values:
                parts.append(_("{rule} is {values}").format(
                    rule=_(other.label), values=_(" or ").join(said(other, v) for v in w.values)))
            if w.unless:
                parts.append(_("{rule} is not {values}").format(
                    rule=_(other.label), values=_(" or ").join(said(other, v) for v in w.unless)))
    except KeyError:               # a dependency on a knob that is not declared: English words
        return dependency_text(name)
    return _("Only when {conditions}.").format(conditions=_(", or when ").join(parts)) if parts else ""


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
            rows.append((k, _(KNOB_LABELS.get(k, k)), format_value(k, v), differs, format_value(k, pv)))
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
    """The Rules of ``preset_name`` with the house-rule ``changes``: ``engine.rules.match_rules``,
    the one builder the server and the saved settings use; raises ValueError (a ``RulesError``,
    whose ``rules_problem`` a player reads) for a change or combination it refuses."""
    return match_rules(preset_name, changes).rules


def rules_problem(exc: BaseException) -> str:
    """Why ``build_rules`` refused, in the player's language: the engine's sentence of what to
    change (``RulesError.sentence``); its technical English is for the log only."""
    if isinstance(exc, RulesError):
        return exc.sentence(_, format_number)
    return _(CANNOT_PLAY)


def match_rules_title(rules: Rules, months: Optional[int]) -> str:
    """The rules a match was played with, named right for its length: the preset's label
    ("Casual (6 months, stacking yaku)") only when the match kept the preset's length, else
    its name and the length played ("Casual (3 months)"; no length for a match to a target)."""
    name = rules.name
    preset = RULESETS.get(name)
    if preset is not None and (months == preset.months or (months is None and preset.months is None)):
        return preset_label(name)
    if not months:
        return rules_name(name) if preset is not None else str(name).title()
    return ngettext("{preset} ({n} month)", "{preset} ({n} months)", months).format(
        preset=rules_name(name) if preset is not None else str(name).title(), n=months)


def house_rules_changed(rules: Rules) -> int:
    """How many house-rule rows of ``rules`` differ from its preset (the length not counted:
    the match's own length is said beside it)."""
    return len({ROW_OF.get(k, k) for k in differing_knobs(rules) if k != "months"})


def changed_text(n: int) -> str:
    if n == 0:
        return _("Preset rules, unchanged")
    return ngettext("{n} house rule changed", "{n} house rules changed", n).format(n=n)


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
    label = _(KNOB_LABELS.get(name, name))
    reason = "" if knob_matters(rules, name) else knob_reason(name)
    return _("{rule}: {explanation}").format(rule=label, explanation=knob_help(name)), reason


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
        whole = _("{text}  {reason}").format(text=text, reason=reason) if reason else text
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
        self.close_b = self.button((0, 0, bw, bh), _("Close"), self.back, style="primary",
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
            W.draw_text(surf, _(title).upper(), head, theme.GOLD, (x, y), shadow=False)
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
                    note = _("preset: {value}").format(value=pval)
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
        r = W.draw_text(surface, _("Rules of this match"), self.font("h2", True), theme.GOLD_LIGHT, (cx, y), "midtop")
        preset = match_rules_title(self.rules, self.months if self.months is not None else self.rules.months)
        n = len(self.differing)
        if not n:
            sub = _("{preset}  ·  played as the preset").format(preset=preset)
        else:
            sub = ngettext("{preset}  ·  {n} house rule differs (marked in gold)",
                           "{preset}  ·  {n} house rules differ (marked in gold)", n).format(preset=preset, n=n)
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
            tip = _("Point at a rule to read what it means.")
            described = PRESET_DESCRIPTIONS.get(self.rules.name)
            # whole sentences one after another: a space between them in English, none in Japanese;
            # the preset's description names its length ("Six months, ..."): only at that length
            preset = RULESETS.get(self.rules.name)
            kept = preset is not None and (self.months is None or self.months == preset.months)
            if described and not self.differing and kept:
                tip = _("{first} {then}").format(first=_(described), then=tip)
            if self.idle:
                tip = _("{first} {then}").format(first=tip, then=_("Greyed rules change nothing under these rules."))
            self.draw_help(surface, tip, color=theme.CREAM_DIM)

