"""Settings: animation speed, the CPU's pace, sound and music, fullscreen, card size,
names, month numbers on the cards, hints, the new-match defaults, the language; and the
pause menu.

The Language row sits on the title's line, at the panel's right edge: System (the OS
language, when translated) and every language whose catalog is complete, each in its
own tongue (``i18n.NATIVE_NAMES``: English, 日本語; only "System" is translated).
Choosing one switches the whole game at once (``app.set_language``).

Every change is applied and saved at once (``app.save_settings``); there is
no Apply button to forget.
"""

from __future__ import annotations

import copy

import pygame

from ... import i18n
from ...engine import RULESETS
from ...narration import rules_name
from ...storage import CARD_SCALES, DEFAULT_SETTINGS, LANGUAGES, NAME_STYLES, OPPONENTS
from .. import board, theme
from .. import widgets as W
from ...i18n import N_, _
from ..table import seat_label
from . import MenuScene
from .newmatch import OPPONENTS as OPP_LABELS
from .pause_menu import TablePauseMenu
from .rules_panel import Stepper


def speed_text(v: float) -> str:
    """The animation speed as a phrase: "Instant", "Normal", "Relaxed (0.5×)", "Fast (1.5×)"."""
    if v <= 0 or abs(v - 1.0) < 1e-6:
        return speed_name(v)
    return _("{speed} ({factor}×)").format(speed=speed_name(v), factor=f"{v:g}")


def speed_name(v: float) -> str:
    """The animation speed's word: Instant, Normal, Relaxed or Fast (in the current language)."""
    if v <= 0:
        return _("Instant")
    if abs(v - 1.0) < 1e-6:
        return _("Normal")
    if v < 1:
        return _("Relaxed")
    return _("Fast")


# (value, label) of the "hints" and "pace" settings (koikoi.storage.HINT_MODES, PACE_NAMES).
# The labels are English (N_), translated where they are shown.
HINT_CHOICES = (("auto", N_("Auto")), ("on", N_("On")), ("off", N_("Off")))
PACE_CHOICES = (("relaxed", N_("Relaxed")), ("normal", N_("Normal")), ("quick", N_("Quick")))
CARD_SIZE_LABELS = (N_("Small"), N_("Normal"), N_("Large"))
NAME_STYLE_LABELS = (N_("Both"), N_("English"), N_("Rōmaji"))


def language_choices() -> list:
    """(value, label) of the Language row: System, then each complete language in its own name."""
    have = i18n.available(complete_only=True)
    return [("system", _("System"))] + [(code, i18n.NATIVE_NAMES.get(code, code))
                                        for code in LANGUAGES if code != "system" and code in have]


def _translated(choices) -> list:
    """(value, label) pairs with each label in the current language."""
    return [(v, _(label)) for v, label in choices]


class SettingsScene(MenuScene):
    """Two columns of settings: the table and sound on the left, the cards and the
    new-match defaults on the right. Each change is saved at once.

    Every row has a name and a description; the description wraps under the name
    (two lines where the row is tall enough) and is never cut."""

    def __init__(self, app):
        self.rows: list[tuple[str, str, W.Widget]] = []
        super().__init__(app)

    # ---------------------------------------------------------- layout
    # (name, description) of each row, the left column top down, then the right; English
    # (N_), translated in ``layout`` (``self.rows``) and ``_describe``.
    TEXTS = (
        (N_("Animation speed"), N_("How fast the cards move; Instant skips it.")),
        (N_("CPU pace"), N_("How long the CPU's turns take; hold Space or click to hurry the CPU.")),
        (N_("Sound effects"), N_("The volume of card sounds.")),
        (N_("Music"), N_("The volume of the music.")),
        (N_("Mute"), N_("Silence every sound.")),
        (N_("Fullscreen"), N_("Also F11 at any time.")),
        (N_("Card size"), N_("The cards on the table.")),
        (N_("Names"), N_("Of cards and yaku: English, rōmaji or both.")),
        (N_("Month numbers"), N_("The month in a corner of every card.")),
        (N_("Hints"), N_("Glowing matches and card tooltips. Auto: against CPU · Easy only.")),
        (N_("Default opponent"), N_("Who a new match starts against.")),
        (N_("Default rules"), N_("The rule set a new match starts with.")),
    )

    def layout(self) -> None:
        w, h = self.size
        a = self.app.assets
        st = self.app.settings
        last = st.get("last_new_match") or DEFAULT_SETTINGS["last_new_match"]
        self.panel = pygame.Rect(0, 0, min(w - self.px(80), self.px(1760)), 0)
        self.panel.centerx = w // 2
        self.panel.y = self.px(130)
        per_col = self.per_col = (len(self.TEXTS) + 1) // 2
        self.row_h = self.px(100)
        head_h = self.px(64)
        self.panel.h = head_h + self.row_h * per_col + self.px(30)
        bh = self.px(76)
        space = h - self.panel.y - self.px(30) - bh - self.px(30)
        if self.panel.h > space:   # small window: tighter rows
            self.row_h = max(self.px(56), (space - head_h - self.px(30)) // per_col)
            self.panel.h = head_h + self.row_h * per_col + self.px(30)
        total = self.panel.h + self.px(30) + bh
        self.panel.y = max(self.px(130), (h - total) // 2 + self.px(30))
        gap = self.px(70)
        col_w = (self.panel.w - 2 * self.px(48) - gap) // 2
        self.col_x = [self.panel.x + self.px(48), self.panel.x + self.px(48) + col_w + gap]
        self.col_w = col_w
        self.head_y = self.panel.y + self.px(24)
        top = self.top = self.panel.y + head_h + self.px(6)
        sl_h, tg_h, ch_h = self.px(40), self.px(44), self.px(52)
        self.ctrl_off = ctrl_off = int(col_w * 0.47)
        value_w = self.px(120)
        # each row: its name and control on one line, the description under both, the
        # whole centred in the row
        self.row_pos = [(self.col_x[i // per_col], top + (i % per_col) * self.row_h + self.row_h // 2)
                        for i in range(len(self.TEXTS))]
        self.top_h = max(ch_h, tg_h, self.font("body", True).get_linesize())
        self.texts = [self._describe(i) for i in range(len(self.TEXTS))]

        def place(col, i):
            x = self.col_x[col] + ctrl_off
            return x, self.texts[col * per_col + i][0]

        def slider(col, i, value, fn, **kw):
            x, cy = place(col, i)
            return W.Slider((x, cy - sl_h // 2, self.col_x[col] + col_w - value_w - x, sl_h), value, fn,
                            assets=a, **kw)

        def toggle(col, i, value, fn):
            x, cy = place(col, i)
            return W.Toggle((x, cy - tg_h // 2, int(tg_h * 1.9), tg_h), value, fn, assets=a)

        def choice(col, i, options, value, fn):
            x, cy = place(col, i)
            return W.ChoiceRow((x, cy - ch_h // 2, self.col_x[col] + col_w - x, ch_h), options, value, fn,
                               assets=a, gap=self.px(8), font_size=theme.font_px("small", self.s))

        def stepper(col, i, values, value, fn, fmt):
            x, cy = place(col, i)
            return Stepper((x, cy - ch_h // 2, self.col_x[col] + col_w - x, ch_h), values, value, fn,
                           fmt=fmt, assets=a)

        self.speed = slider(0, 0, st["anim_speed"], self.set_speed, minimum=0.0, maximum=2.0, step=0.25,
                            marks=(0.0, 1.0, 2.0))
        self.pace = choice(0, 1, _translated(PACE_CHOICES), st.get("pace", "normal"), self.set_pace)
        self.volume = slider(0, 2, st["volume"], self.set_volume, minimum=0.0, maximum=1.0, step=0.05,
                             on_release=lambda v: self.app.play("capture"))
        self.music = slider(0, 3, st.get("music_volume", 0.5), self.set_music, minimum=0.0, maximum=1.0,
                            step=0.05)
        self.mute = toggle(0, 4, st["muted"], self.set_muted)
        self.full = toggle(0, 5, self.app.fullscreen, self.set_fullscreen)
        self.card_size = choice(1, 0, _translated(zip(CARD_SCALES, CARD_SIZE_LABELS)),
                                st.get("card_scale", 1.0), self.set_card_scale)
        self.names = choice(1, 1, _translated(zip(NAME_STYLES, NAME_STYLE_LABELS)),
                            st.get("name_style", "both"), self.set_name_style)
        self.numbers = toggle(1, 2, st["month_numbers"], self.set_numbers)
        self.hints = choice(1, 3, _translated(HINT_CHOICES), st.get("hints", "auto"), self.set_hints)
        opp_names = {k: _(label) for k, label, _blurb in OPP_LABELS}
        self.opponent = stepper(1, 4, OPPONENTS, last.get("opponent", "medium"), self.set_default_opponent,
                                lambda v: opp_names.get(v, v))
        self.rules = stepper(1, 5, list(RULESETS), last.get("rules", "casual"), self.set_default_rules,
                             rules_name)
        controls = (self.speed, self.pace, self.volume, self.music, self.mute, self.full,
                    self.card_size, self.names, self.numbers, self.hints, self.opponent, self.rules)
        self.rows = [(_(name), _(text), wdg) for (name, text), wdg in zip(self.TEXTS, controls)]
        self.layout_language(ch_h)
        bw = self.px(300)
        by = self.panel.bottom + self.px(30)
        gap = self.px(24)
        self.reset_b = self.button((0, by, bw, bh), _("Restore defaults"), self.restore, style="ghost")
        self.back_b = self.button((0, by, bw, bh), _("Back"), self.back, style="primary",
                                  hotkeys=(pygame.K_BACKSPACE,))
        self.reset_b.rect.right = w // 2 - gap // 2
        self.back_b.rect.left = w // 2 + gap // 2
        self.widgets = [r[2] for r in self.rows] + [self.language, self.reset_b, self.back_b]
        self.focus.set(self.widgets)

    def title_y(self) -> int:
        return max(self.px(20), self.panel.y - self.px(116))

    def layout_language(self, ch_h: int) -> None:
        """The Language row: its name and choices on the title's line, right-aligned with
        the panel, clear of the centred title (narrower pills where the window is)."""
        title = self.font("h1", True)
        cy = self.title_y() + title.get_linesize() // 2
        title_right = self.size[0] // 2 + W.text_width(_("Settings"), title) // 2
        label = self.font("body", True)
        self.language_label = _("Language")
        choices = language_choices()
        current = self.app.settings.get("language", "system")
        if current not in [v for v, _label in choices]:
            current = "system"
        gap = self.px(16)
        room = self.panel.right - title_right - self.px(40) - W.text_width(self.language_label, label) - gap
        w = max(self.px(60) * len(choices), min(self.px(150) * len(choices), room))
        h = min(ch_h, self.px(48))
        self.language = W.ChoiceRow((self.panel.right - w, cy - h // 2, w, h), choices, current,
                                    self.set_language, assets=self.app.assets, gap=self.px(8),
                                    font_size=theme.font_px("small", self.s))
        self.language_pos = (self.language.rect.x - gap, cy)

    def _describe(self, i: int) -> tuple[int, pygame.font.Font, list[str], int]:
        """(the y of the name line's middle, description font, description lines, their top y)
        of row ``i``. The description runs the column's width under the name and the control,
        in the small type, wrapped to the lines the row holds, or in the tiny type where the
        small one needs more; only in a window too small for either is its last line cut."""
        text = _(self.TEXTS[i][1])
        room = self.col_w
        free = self.row_h - self.top_h - self.px(8)
        fonts = [self.font("small"), self.font("tiny")]
        font, lines = fonts[0], W.wrap_text(text, fonts[0], room)
        for f in fonts:
            wrapped = W.wrap_text(text, f, room)
            if len(wrapped) * f.get_linesize() <= free:
                font, lines = f, wrapped
                break
        else:
            font = fonts[-1]
            fit = max(1, free // font.get_linesize())
            lines = W.wrap_text(text, font, room)
            if len(lines) > fit:
                lines = lines[:fit]
                lines[-1] = W.ellipsize(lines[-1] + " …", font, room)
        block = self.top_h + self.px(2) + len(lines) * font.get_linesize()
        row_top = self.row_pos[i][1] - self.row_h // 2
        y0 = row_top + max(self.px(4), (self.row_h - block) // 2)
        return y0 + self.top_h // 2, font, lines, y0 + self.top_h + self.px(2)

    def row_rect(self, i: int) -> pygame.Rect:
        """Row ``i``'s area (between its dividers)."""
        x, cy = self.row_pos[i]
        return pygame.Rect(x, cy - self.row_h // 2, self.col_w, self.row_h)

    def row_text(self, i: int) -> tuple[pygame.font.Font, str, pygame.font.Font, list[str], int]:
        """(name font, name as drawn, description font, description lines, their width room)."""
        name = self.rows[i][0]
        label = self.font("body", True)
        room = self.rows[i][2].rect.x - self.row_pos[i][0] - self.px(16)
        font, lines = self.texts[i][1:3]
        return label, W.ellipsize(name, label, room), font, lines, self.col_w

    # ---------------------------------------------------------- changes
    def _save(self) -> None:
        self.app.save_settings()

    def set_speed(self, v: float) -> None:
        self.app.settings["anim_speed"] = float(v)
        self._save()

    def set_pace(self, v: str) -> None:
        self.app.settings["pace"] = v
        self._save()

    def set_hints(self, v: str) -> None:
        self.app.settings["hints"] = v
        self._save()

    def set_volume(self, v: float) -> None:
        self.app.settings["volume"] = float(v)
        if v > 0 and self.app.settings.get("muted"):
            self.app.settings["muted"] = False
            self.mute.set(False, notify=False)
        self._save()
        if not self.volume.dragging:   # keys and the wheel: preview each step
            self.app.play("snap", 0.8)

    def set_music(self, v: float) -> None:
        self.app.settings["music_volume"] = float(v)
        self._save()

    def set_muted(self, on: bool) -> None:
        self.app.settings["muted"] = bool(on)
        self._save()
        if not on:
            self.app.play("click")

    def set_numbers(self, on: bool) -> None:
        self.app.settings["month_numbers"] = bool(on)
        self._save()

    def set_card_scale(self, v: float) -> None:
        self.app.settings["card_scale"] = float(v)
        self._save()

    def set_name_style(self, v: str) -> None:
        self.app.settings["name_style"] = v
        self._save()

    def set_language(self, code: str) -> None:
        self.app.set_language(code)       # saves, and lays out every screen again (this one too)

    def _last(self) -> dict:
        last = dict(self.app.settings.get("last_new_match") or DEFAULT_SETTINGS["last_new_match"])
        return last

    def set_default_opponent(self, v: str) -> None:
        last = self._last()
        last["opponent"] = v
        self.app.settings["last_new_match"] = last
        self._save()

    def set_default_rules(self, name: str) -> None:
        last = self._last()
        if last.get("rules") != name:
            last.pop("house", None)   # house rules belong to their preset
        last["rules"] = name
        if last.get("months") not in RULESETS[name].months_offered:
            last["months"] = RULESETS[name].months
        self.app.settings["last_new_match"] = last
        self._save()

    def set_fullscreen(self, on: bool) -> None:
        self.app.set_fullscreen(bool(on))
        self.app.settings["fullscreen"] = self.app.fullscreen
        self._save()

    def restore(self) -> None:
        keep = {k: self.app.settings.get(k) for k in ("last_new_match", "window_size", "friend_names")}
        fresh = copy.deepcopy(DEFAULT_SETTINGS)
        fresh.update({k: v for k, v in keep.items() if v is not None or k == "window_size"})
        self.app.settings.clear()
        self.app.settings.update(fresh)
        if self.app.fullscreen:
            self.app.set_fullscreen(False)
        self.app.set_language(fresh["language"])    # saves; every screen laid out again

    def resize(self, size) -> None:
        super().resize(size)
        self.full.set(self.app.fullscreen, notify=False)

    # ---------------------------------------------------------- drawing
    def preview_area(self) -> pygame.Rect:
        """Where the preview card is drawn: the month-number row, right of its switch and
        of its description, inside the row's dividers."""
        i = next(k for k, r in enumerate(self.rows) if r[2] is self.numbers)
        row = self.row_rect(i)
        font, lines = self.texts[i][1:3]
        pad = max(2, self.px(6))
        left = max(self.numbers.rect.right + self.px(90),
                   row.x + max((W.text_width(line, font) for line in lines), default=0) + self.px(20))
        return pygame.Rect(left, row.y + pad, max(1, row.right - left), max(1, row.h - 2 * pad))

    def preview_rect(self) -> pygame.Rect:
        """What shows of the preview card: its top, with the month number, at the size the
        table draws cards at in this window with the chosen card size (a whole card would
        have to be too small to read in the row), inside ``preview_area``."""
        area = self.preview_area()
        try:
            scale = float(self.app.settings.get("card_scale", 1.0))
        except (TypeError, ValueError):
            scale = 1.0
        ch = board.scaled_card_h(self.size, scale)
        card = pygame.Rect(0, 0, board.card_size(ch)[0], ch)
        card.topright = (area.right - self.px(10), area.y + max(2, self.px(4)))
        self._preview_h, self._preview_card = ch, card
        return card.clip(area)

    def draw_content(self, surface: pygame.Surface) -> None:
        self.draw_title(surface, _("Settings"), self.title_y())
        W.draw_text(surface, self.language_label, self.font("body", True), theme.CREAM, self.language_pos,
                    "midright")
        W.draw_panel(surface, self.panel, s=self.s)
        value = self.font("small", True)
        head = self.font("small", True)
        for c, title in enumerate((_("TABLE AND SOUND"), _("CARDS AND NEW MATCHES"))):
            x = self.col_x[c]
            W.draw_text(surface, title, head, theme.GOLD, (x, self.head_y), shadow=False)
            W.draw_divider(surface, x, x + self.col_w, self.head_y + head.get_linesize() + self.px(6),
                           theme.GOLD, max(1, self.px(2)))
        for i, ((name, text, widget), (x, _y)) in enumerate(zip(self.rows, self.row_pos)):
            row = self.row_rect(i)
            if i % self.per_col:
                W.draw_divider(surface, x, x + self.col_w, row.y, theme.with_alpha(theme.GOLD_DARK, 200))
            cy, font, lines, y = self.texts[i]
            label, shown = self.row_text(i)[:2]
            W.draw_text(surface, shown, label, theme.CREAM, (x, cy), "midleft")
            for line in lines:
                W.draw_text(surface, line, font, theme.CREAM_DIM, (x, y), shadow=False)
                y += font.get_linesize()
            vx = x + self.col_w
            if widget is self.speed:
                W.draw_text(surface, speed_name(self.speed.value), value, theme.GOLD_LIGHT,
                            (vx, cy), "midright")
            elif widget in (self.volume, self.music):
                pct = (_("Muted") if self.app.settings.get("muted")
                       else _("{percent}%").format(percent=int(round(widget.value * 100))))
                W.draw_text(surface, pct, value, theme.GOLD_LIGHT, (vx, cy), "midright")
            elif isinstance(widget, W.Toggle):
                W.draw_text(surface, _("On") if widget.value else _("Off"), value,
                            theme.GOLD_LIGHT if widget.value else theme.CREAM_DIM,
                            (widget.rect.right + self.px(22), cy), "midleft")
        # a preview card beside the month-number switch, at the chosen card size, in its own row
        r = self.preview_rect()
        img = self.app.assets.card("08-B", self._preview_h,
                                   month_number=bool(self.app.settings.get("month_numbers", True)))
        prev = surface.get_clip()
        surface.set_clip(r.clip(prev))
        surface.blit(img, self._preview_card.topleft)
        surface.set_clip(prev)


class PauseMenuScene(TablePauseMenu):
    """The in-game menu (Escape on the table): resume, the rules of this match,
    how to play, settings, concede, or leave.

    The match is saved after every action, so leaving loses nothing: the
    title screen offers Continue. Conceding (after a confirmation) files the
    match as played so far in the history, marked conceded, as a loss for the
    conceding seat, and removes the autosave.
    """

    def match_rules(self):
        session = self._session()
        return None if session is None else (session.rules, session.months)

    def leave_buttons(self) -> list:
        return [(_("Save and leave to title"), self.to_title, "secondary", ()),
                (_("Concede the match"), self.concede, "danger", ())]

    def shown(self, labels: list) -> list:
        session = self._session()
        if session is None or session.is_over:     # no match below, or it is over
            labels = [lb for lb in labels if lb[1] not in (self.rules_panel, self.concede)]
        return labels

    def enter(self) -> None:
        self.layout()   # the buttons depend on the match below (none: no rules, no concede)
        super().enter()

    def conceding_seat(self, session) -> int:
        """The human conceding: the only human seat, or (two people) the one to move."""
        humans = session.human_seats
        if len(humans) == 1:
            return humans[0]
        to_move = session.to_move
        return to_move if to_move in (0, 1) else 0

    def concede(self) -> None:
        session = self._session()
        if session is None or session.is_over:
            return
        seat = self.conceding_seat(session)
        name = session.seats[seat].name
        if name.lower() == "you":
            text = _("The match ends now as a loss for you. It is kept in the match history, marked conceded.")
        else:
            text = _("The match ends now as a loss for {who}. It is kept in the match history, "
                     "marked conceded.").format(who=seat_label(name))
        self.app.push(ConfirmScene(
            self.app, _("Concede the match?"), text, _("Concede"), lambda: self.do_concede(seat)))

    def do_concede(self, seat: int) -> None:
        session = self._session()
        if session is None:
            return
        session.on_change = None          # nothing more is autosaved
        session.store = None
        if self.app.storage.save_conceded(session, seat) is None:
            self.app.toast(_("The conceded match could not be saved to the history."), 5.0, "warning")
        self.app.open("title", mode="reset")

    def _session(self):
        for scene in reversed(self.app.scenes):
            s = getattr(scene, "session", None)
            if s is not None:
                return s
        return None

    def to_title(self) -> None:
        session = self._session()
        if session is not None and not session.is_over:
            self.app.storage.save_autosave(session)
        self.app.open("title", mode="reset")


class ConfirmScene(MenuScene):
    """A yes / no question over the scene below: ``on_yes()`` runs after it closes."""

    opaque = False
    intro_time = 0.15

    def __init__(self, app, title: str, text: str, yes_label: str, on_yes, *, no_label: str = ""):
        # the texts come translated; no "no" label: Cancel, in the current language
        self.title, self.text, self.yes_label = title, text, yes_label
        self.no_label = no_label or _("Cancel")
        self.on_yes = on_yes
        super().__init__(app)

    def layout(self) -> None:
        w = self.size[0]
        bw, bh, gap, by = self.dialog_panel(860, 380)
        self.no_b = self.button((0, by, bw, bh), self.no_label, self.back, style="secondary",
                                hotkeys=(pygame.K_n,))
        self.yes_b = self.button((0, by, bw, bh), self.yes_label, self.yes, style="danger",
                                 hotkeys=(pygame.K_y,))
        self.no_b.rect.right = w // 2 - gap // 2
        self.yes_b.rect.left = w // 2 + gap // 2
        self.widgets = [self.no_b, self.yes_b]
        self.focus.set(self.widgets)
        self.focus.focus(self.no_b)

    def yes(self) -> None:
        self.app.pop()
        self.on_yes()

    def handle(self, event) -> bool:
        super().handle(event)
        return True   # modal

    def draw(self, surface: pygame.Surface) -> None:
        W.draw_scrim(surface, (0, 0, 0, int(120 * self.intro)))
        W.draw_panel(surface, self.panel, fill=theme.PANEL_STRONG, border=theme.LACQUER_LIGHT, s=self.s)
        cx = self.panel.centerx
        r = W.draw_text(surface, self.title, self.font("h2", True), theme.GOLD_LIGHT,
                        (cx, self.panel.y + self.px(34)), "midtop")
        font = self.font("body")
        y = r.bottom + self.px(22)
        for line in W.wrap_text(self.text, font, self.panel.w - self.px(100)):
            W.draw_text(surface, line, font, theme.CREAM, (cx, y), "midtop")
            y += font.get_linesize()
        for wdg in self.widgets:
            wdg.draw(surface)
