"""The new-match dialog: opponent, rule set and length, then Start.

After the preset, "House rules…" opens an editor of the house-rule knobs
(``house_rules.HouseRulesScene``); the match starts with
``dataclasses.replace(preset, **changes)``, and a combination the Rules refuse
is shown, never started. The last choice, house rules included, is remembered
in the settings (``last_new_match``). A CPU
level that is not built into this copy of the game can still be chosen: it
is marked unavailable and its seat plays random legal moves.

Against a friend, the two players type their names in the fields that appear
under the opponents (``koikoi.session.clean_name``: 1 to 40 characters, no
control characters); the seats take them, and they are remembered in the
settings (``friend_names``). "Scoring in these rules" says how the chosen
rules play, house rules first (in gold).
"""

from __future__ import annotations

import logging
import random
from typing import Optional

import pygame

from ...ai import LEVEL_INFO, OFFERED_LEVELS
from ...engine import RULESETS
from ...storage import DEFAULT_SETTINGS, level_available, valid_friend_names, valid_house_rules
from .. import theme
from .. import widgets as W
from ...session import MAX_NAME_LEN, MatchSession, SeatConfig, clean_name
from ..registry import scene_class
from ...i18n import N_, _, ngettext
from ..table import seat_label
from . import MenuScene
from .rule_notes import rule_note_items
from .rules_panel import build_rules, changed_text, count_changes, rules_problem
from ...engine.phase import SeatKind
from ...narration import preset_parts, rules_name

log = logging.getLogger("koikoi.newmatch")

# (choice, label, blurb): the CPU levels as koikoi.ai declares them, then a friend.
OPPONENTS = tuple((lvl.name, lvl.label, lvl.blurb) for lvl in OFFERED_LEVELS) + (
    ("friend", N_("Friend"), N_("Same screen")),
)
# OPPONENTS holds English (the levels' names from koikoi.ai, and N_-marked ones):
# each label and blurb is translated where it is drawn, with _().


def preset_line(preset: str) -> str:
    """ "Casual: 6 months, stacking yaku": the preset in a sentence, in the current language."""
    name, detail = preset_parts(preset)
    return _("{rules}: {detail}").format(rules=name, detail=detail)


FRIEND_NAMES = tuple(DEFAULT_SETTINGS["friend_names"])   # ("Player 1", "Player 2")


def friend_names(names) -> tuple[str, str]:
    """Two seat names from what was typed: each cleaned (``clean_name``), or its default
    ("Player 1" / "Player 2") if it cannot be a seat name."""
    out = []
    for i, default in enumerate(FRIEND_NAMES):
        try:
            out.append(clean_name(names[i]))
        except (ValueError, TypeError, IndexError, KeyError):
            out.append(default)
    return out[0], out[1]


def make_seats(opponent: str, names=None) -> tuple[tuple, str]:
    """(seats, level used) for an opponent choice; unbuilt levels play 'random'.
    ``names``: the two players' names in a friend match (cleaned; defaults if absent)."""
    if opponent == "friend":
        one, two = friend_names(names if names is not None else FRIEND_NAMES)
        return (SeatConfig(SeatKind.HUMAN, one), SeatConfig(SeatKind.HUMAN, two)), ""
    level = opponent
    if not level_available(level):
        log.warning("CPU level %r is not available; using 'random'", level)
        level = "random"
    return (SeatConfig(SeatKind.HUMAN, "You"), SeatConfig(SeatKind.CPU, LEVEL_INFO[level].seat_name, level)), level


def new_session(app, opponent: str, rules_name: str, months: Optional[int],
                seed: Optional[int] = None, house: Optional[dict] = None,
                names=None) -> MatchSession:
    """A fresh MatchSession for the dialog's choices, autosaving after every action.
    ``house``: house-rule changes on top of the preset (ValueError if the Rules refuse them);
    ``names``: the two players' names of a friend match."""
    rules = build_rules(rules_name, house or {})
    if house and "months" in house and house["months"] is None:
        months = None   # no limit: played to a target or to bankruptcy
    seats, _level = (make_seats(opponent, names) if opponent == "friend" and names is not None
                     else make_seats(opponent))
    if seed is None:
        seed = app.seed if app.seed is not None else random.SystemRandom().randrange(1, 2 ** 31)
    try:
        session = MatchSession(rules, seed=seed, months=months, seats=seats)
    except ValueError:  # a level that vanished between the check and here
        log.exception("could not seat the CPU; falling back to random play")
        seats = tuple(SeatConfig(s.kind, s.name, "random") if s.kind == SeatKind.CPU else s for s in seats)
        session = MatchSession(rules, seed=seed, months=months, seats=seats)
    return app.watch(session)


def months_row(scene, rules_name: str, rect, months, on_pick, old=None) -> W.ChoiceRow:
    """The Length row of ``scene`` (New match, Host a match): the rules' lengths ("1 month",
    "3 months"; bare numbers when there are many), laid in ``rect``. ``old``, the row shown
    before, is kept and moved when it offers the same lengths with the same one chosen (it
    keeps the focus)."""
    offered = RULESETS[rules_name].months_offered
    many = len(offered) > 6
    opts = [(m, str(m) if many else ngettext("{n} month", "{n} months", m).format(n=m)) for m in offered]
    r = rect.copy()
    if not many:
        r.w = min(r.w, scene.px(190) * len(offered))
    if old is not None and [o.value for o in old.options] == offered and old.selected == months:
        old.rect = r
        return old
    return W.ChoiceRow(r, opts, months, on_pick, assets=scene.app.assets,
                       gap=scene.px(10), font_size=theme.font_px("body", scene.s))


class NewMatchScene(MenuScene):
    def __init__(self, app):
        last = dict(app.settings.get("last_new_match") or {})
        self.opponent = last.get("opponent", "medium")
        self.rules_name = last.get("rules", "casual")
        if self.rules_name not in RULESETS:
            self.rules_name = "casual"
        preset = RULESETS[self.rules_name]
        self.months = last.get("months", preset.months)
        if self.months not in preset.months_offered:
            self.months = preset.months
        self.house: dict = valid_house_rules(self.rules_name, last.get("house"))
        self.names = list(valid_friend_names(app.settings.get("friend_names")) or FRIEND_NAMES)
        self.error: Optional[str] = None
        self.available = {lvl: level_available(lvl) for lvl, _, _ in OPPONENTS if lvl != "friend"}
        self.name_fields: list = []
        self.scroller = W.Scroller(keys=False, line=30)    # the scoring notes, when they overflow
        super().__init__(app)

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        self.panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(1240)), 0)
        self.panel.centerx = w // 2
        self.panel.y = self.px(140)
        self.panel.h = h - self.panel.y - self.px(140)
        opts = []
        for lvl, label, sub in OPPONENTS:
            ok = lvl == "friend" or self.available.get(lvl, False)
            opts.append(W.Choice(lvl, _(label), _(sub) if ok else _("Not built yet"), True))
        fs = theme.font_px("body", self.s)
        self.opp_row = W.ChoiceRow((0, 0, 1, 1), opts, self.opponent, self.set_opponent, assets=a, font_size=fs)
        self.name_fields = [
            W.TextField((0, 0, 1, 1), "" if self.names[i] == FRIEND_NAMES[i] else seat_label(self.names[i]),
                        lambda text, i=i: self.set_name(i, text),
                        max_len=MAX_NAME_LEN, clean=clean_name, placeholder=_(FRIEND_NAMES[i]),
                        on_next=lambda i=i: self._next_after_name(i), assets=a, font_size=fs)
            for i in range(2)]
        # the presets in two rows (three or four to a row)
        self.rules_cols = max(3, min(4, (len(RULESETS) + 1) // 2))
        self.rules_row = W.ChoiceRow((0, 0, 1, 1), [(n, rules_name(n)) for n in RULESETS], self.rules_name,
                                     self.set_rules, columns=self.rules_cols, gap=self.px(12), assets=a,
                                     font_size=fs)
        self.house_b = self.button((0, 0, self.px(250), self.px(50)), _("House rules…"),
                                   self.open_house_rules, style="ghost", hotkeys=(pygame.K_r,))
        self.months_rect = pygame.Rect(0, 0, 1, 1)
        self.months_row = None
        bw, bh = self.px(340), self.px(80)
        by = h - self.px(36) - bh
        self.start = self.button((0, by, bw, bh), _("Start match"), self.start_match, style="primary",
                                 hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        self.cancel = self.button((0, by, bw, bh), _("Back"), self.back, style="secondary")
        gap = self.px(24)
        self.cancel.rect.right = w // 2 - gap // 2
        self.start.rect.left = w // 2 + gap // 2
        self._place()

    def _place(self) -> None:
        """Put every widget in its place: the name fields only against a friend."""
        inner_w = self.panel.w - 2 * self.px(56)
        x = self.panel.x + self.px(56)
        y = self.panel.y + self.px(36)
        self.labels: list[tuple[str, int]] = []
        self.labels.append((N_("Opponent"), y))
        y += self.px(40)
        self.opp_row.rect = pygame.Rect(x, y, inner_w, self.px(84))
        y += self.px(84)
        friend = self.opponent == "friend"
        self.names_y = None
        cap = W.text_width(_("NAMES"), self.font("small", True)) + self.px(24)
        fh, fgap = self.px(52), self.px(16)
        fw = (inner_w - cap - fgap) // 2
        for i, f in enumerate(self.name_fields):
            f.rect = pygame.Rect(x + cap + i * (fw + fgap), y + self.px(14), fw, fh)
            if f.visible and not friend:
                f.commit()
            f.visible = friend
        if friend:
            self.names_y = y + self.px(14) + fh // 2
            y += self.px(14) + fh
        y += self.px(34)
        self.labels.append((N_("Rules"), y))
        y += self.px(40)
        lines = -(-len(RULESETS) // self.rules_cols)
        rh = lines * self.px(50) + (lines - 1) * self.px(12)
        self.rules_row.rect = pygame.Rect(x, y, inner_w, rh)
        y += rh + self.px(12)
        self.detail_y = y
        self.house_b.rect.topright = (x + inner_w, y - self.px(4))
        y += self.px(50)
        self.labels.append((N_("Length"), y))
        y += self.px(40)
        self.months_rect = pygame.Rect(x, y, inner_w, self.px(62))
        self._build_months()
        self.notes_top = y + self.px(62) + self.px(34)
        self._collect()

    def _build_months(self) -> None:
        self.months_row = months_row(self, self.rules_name, self.months_rect, self.months,
                                     self.set_months, old=self.months_row)
        self.months = self.months_row.selected

    def _collect(self) -> None:
        fields = self.name_fields if self.opponent == "friend" else []
        self.widgets = [self.opp_row, *fields, self.rules_row, self.house_b, self.months_row,
                        self.cancel, self.start]
        self.focus.set(self.widgets)

    # ---------------------------------------------------------- choices
    def _remember(self) -> None:
        last = {"opponent": self.opponent, "rules": self.rules_name, "months": self.months}
        if self.house:
            last["house"] = dict(self.house)
        self.app.settings["last_new_match"] = last
        self.app.save_settings()

    def set_opponent(self, value: str) -> None:
        self.opponent = value
        self._place()
        self._remember()

    def set_name(self, i: int, text: str) -> None:
        """Player ``i + 1``'s name, as typed (cleaned), kept for the next friend match."""
        self.names[i] = friend_names([text, text])[i]
        self.app.settings["friend_names"] = list(self.names)
        self.app.save_settings()

    def _next_after_name(self, i: int) -> None:
        """Enter in a name field: on to the next field, or from the last one to Start."""
        if i + 1 < len(self.name_fields):
            nxt = self.name_fields[i + 1]
            self.focus.focus(nxt)
            nxt.begin(select_all=True)
        else:
            self.focus.focus(self.start)

    def seat_names(self) -> tuple[str, str]:
        """The two names a friend match is seated with (what is being typed included)."""
        return friend_names([f.buffer if f.editing else f.text for f in self.name_fields]
                            if self.name_fields else self.names)

    def set_rules(self, name: str) -> None:
        if name != self.rules_name:
            self.house = {}    # house rules belong to the preset they were set on
            self.error = None
        self.rules_name = name
        preset = RULESETS[name]
        if self.months not in preset.months_offered:
            self.months = preset.months
        self._build_months()
        self._collect()
        self._remember()

    def set_months(self, m: int) -> None:
        self.months = m
        self._remember()

    # ---------------------------------------------------------- events
    def handle(self, event) -> bool:
        # a name being typed takes the keys first (no hotkey fires while typing), and a
        # click anywhere else first keeps what was typed
        editing = [f for f in self.name_fields if f.visible and (f.editing or f.focused)]
        if editing and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN):
            for f in editing:
                if f.handle(event):
                    self._focus_editing()
                    return True
        if self.scroller.handle(event):       # the wheel over the scoring notes
            return True
        consumed = super().handle(event)
        self._focus_editing()
        return consumed

    def _focus_editing(self) -> None:
        for f in self.name_fields:
            if f.editing and self.focus.current is not f and f in self.focus.widgets:
                self.focus.focus(f)

    # ---------------------------------------------------------- house rules
    def open_house_rules(self) -> None:
        self.app.open("house_rules", self.rules_name, self.house, on_done=self.set_house)

    def set_house(self, changes: dict) -> None:
        self.house = dict(changes)
        self.error = None
        self._remember()

    def chosen_rules(self):
        """The Rules the match would start with (ValueError if they are refused)."""
        return build_rules(self.rules_name, self.house)

    def start_match(self) -> None:
        for f in self.name_fields:
            f.commit()         # a name still being typed counts
        try:
            self.chosen_rules()
        except ValueError as exc:
            log.warning("the house rules were refused: %s", exc)
            self.error = str(exc).replace("invalid rules: ", "")     # technical: for the log, tests
            self.app.toast(_("These house rules cannot be played: {error}").format(error=rules_problem(exc)),
                           6.0, "warning")
            return
        self._remember()
        # a match saved and not finished is never replaced without asking
        if not self.app.read_only:
            saved = scene_class("unfinished").pending(self.app)
            if saved is not None:
                self.app.open("unfinished", saved, on_clear=self._start_now)
                return
        self._start_now()

    def _start_now(self) -> None:
        names = self.seat_names() if self.opponent == "friend" else None
        session = new_session(self.app, self.opponent, self.rules_name, self.months, house=self.house,
                              names=names)
        self.app.autosave(session)   # Continue works from the very first moment
        self.app.open("oyagime", session, mode="reset")

    # ---------------------------------------------------------- drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        self.draw_title(surface, _("New match"), self.px(34))
        W.draw_panel(surface, self.panel, s=self.s)
        head = self.font("small", True)
        for text, y in self.labels:
            W.draw_text(surface, _(text).upper(), head, theme.GOLD, (self.opp_row.rect.x, y))
        if self.names_y is not None:
            W.draw_text(surface, _("NAMES"), head, theme.GOLD, (self.opp_row.rect.x, self.names_y), "midleft")
        # the chosen preset in a sentence, and a note on an unbuilt level
        dr = W.draw_text(surface, preset_line(self.rules_name),
                         self.font("small"), theme.CREAM_DIM,
                         (self.rules_row.rect.x, self.detail_y))
        n = count_changes(self.house)
        if n or self.error:
            text = (_("·  {changes}").format(changes=changed_text(n)) if not self.error
                    else _("·  these house rules cannot be played"))
            room = self.house_b.rect.x - dr.right - self.px(40)
            font = self.font("small", True)
            W.draw_text(surface, W.ellipsize(text, font, max(10, room)), font,
                        theme.BAD if self.error else theme.GOLD_LIGHT, (dr.right + self.px(14), self.detail_y))
        if self.opponent != "friend" and not self.available.get(self.opponent, True):
            W.draw_text(surface, _("This CPU level is not available yet: the CPU will play random legal moves."),
                        self.font("small"), theme.BAD, (self.opp_row.rect.right, self.labels[0][1]),
                        "topright")
        m = self.months_row.rect
        n = self.months
        note = ngettext("{n} round, one per month", "{n} rounds, one per month", n).format(n=n)
        if self.house.get("months", 0) is None:
            note = _("No limit: house rules play to a target")
        if m.right + self.px(24) + W.text_width(note, self.font("small")) < self.panel.right - self.px(40):
            W.draw_text(surface, note, self.font("small"), theme.CREAM_DIM,
                        (m.right + self.px(24), m.centery), "midleft")
        self._draw_notes(surface)

    def scoring_notes(self) -> list[tuple[str, bool]]:
        """(sentence, about a house rule) for "Scoring in these rules": the notes on the
        knobs the house rules changed first, then the rest (not the match length, which
        the Length row shows)."""
        try:
            rules = self.chosen_rules()
        except ValueError:
            rules = RULESETS[self.rules_name]
        changed = set(self.house)
        first, rest = [], []
        for knobs, text, always in rule_note_items(rules):
            if changed.intersection(knobs):
                first.append((text, True))
            elif always and knobs != ("months",):
                rest.append((text, False))
        return first + rest

    def _draw_notes(self, surface: pygame.Surface) -> None:
        """How the chosen rules score, in a box that scrolls (its bar shows) when the notes
        are more than the panel has room for."""
        x = self.opp_row.rect.x
        width = self.opp_row.rect.w - self.px(24)       # room for the scroll bar
        y = self.notes_top
        bottom = self.panel.bottom - self.px(24)
        font = self.font("small")
        lh = font.get_linesize()
        self.notes_shown = []
        if y + self.px(40) + lh > bottom:
            self.scroller.viewport, self.scroller.content_height = pygame.Rect(x, y, width, 0), 0
            return
        W.draw_divider(surface, x, x + self.opp_row.rect.w, y - self.px(18), theme.GOLD_DARK)
        W.draw_text(surface, _("SCORING IN THESE RULES"), self.font("small", True), theme.GOLD, (x, y))
        y += self.px(40)
        notes = [(note, house, W.wrap_text(note, font, width - self.px(30))) for note, house in self.scoring_notes()]
        gap = self.px(4)
        view = pygame.Rect(x, y, width, bottom - y)
        sc = self.scroller
        sc.viewport = view
        sc.content_height = sum(lh * len(lines) + gap for _n, _h, lines in notes) - gap
        sc.scroll_to(sc.target, instant=not sc.animating)
        clip = surface.get_clip()
        surface.set_clip(view.clip(clip) if clip else view)
        y -= int(sc.offset)
        for note, house, lines in notes:
            if view.top <= y and y + lh * len(lines) <= view.bottom:
                self.notes_shown.append(note)      # wholly in view
            if y + lh * len(lines) > view.top and y < view.bottom:
                pygame.draw.circle(surface, theme.GOLD_LIGHT if house else theme.GOLD,
                                   (x + self.px(8), y + lh // 2), max(2, self.px(4)))
                for k, line in enumerate(lines):
                    W.draw_text(surface, line, font, theme.GOLD_LIGHT if house else theme.CREAM,
                                (x + self.px(30), y + k * lh), shadow=False)
            y += lh * len(lines) + gap
        surface.set_clip(clip)
        sc.draw_bar(surface)
