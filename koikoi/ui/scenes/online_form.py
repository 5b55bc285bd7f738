"""What the Host, Join and Quick match screens share (``_NameMixin``): the name field,
the fields' keys, and the match being made.

``PREFS`` is read as ``OT.PREFS`` (the module's attribute, at the moment it is used):
the one dict of what the player typed, which tests replace on ``online_table``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ...engine import RULESETS
from ...narration import rules_name
from ...session import MAX_NAME_LEN, clean_name
from .. import theme
from .. import widgets as W
from ...i18n import _
from . import online_table as OT
from .online_table import default_name

if TYPE_CHECKING:
    from .online_table import OnlineMatch


class _NameMixin:
    """What the Host and Join screens share: the name field, the fields' keys, and the
    match being made (``self.match``, an ``OnlineMatch``)."""

    # ---------------------------------------------------------- the match being made
    leave_on_failure = True       # a failed attempt still leaves the room it made

    @property
    def busy(self) -> bool:
        """A match is being made (connecting, creating or joining, waiting)."""
        return self.match is not None and self.match.stage != "failed"

    def cancel(self) -> None:
        if self.match is not None:
            self.match.close()
        self.match = None
        self._collect()

    def back(self) -> None:
        if self.busy:
            self.cancel()
        else:
            self.app.pop()

    def update(self, dt: float) -> None:
        super().update(dt)
        m = self.match
        if m is not None and m.stage == "failed":
            self.error = self.stale_text(m) if m.stale else m.error
            m.close(leave=self.leave_on_failure and m.resuming is None, forget=m.stale)
            self.match = None
            self.failed(m)
            self._collect()

    def stale_text(self, m: OnlineMatch) -> str:
        return m.error or ""

    def failed(self, m: OnlineMatch) -> None:
        """After a failed attempt (the screen's own follow-up)."""

    @property
    def animating(self) -> bool:
        return super().animating or self.match is not None

    def on_quit(self) -> None:
        if self.match is not None:
            self.match.quit_keeping_seat()    # a room made or a seat taken is kept for the next run

    def _bottom_buttons(self, go_label: str, by: int, bw: int, bh: int) -> W.Button:
        """Back and the screen's own button side by side at ``by``, and Cancel (while a match
        is being made) centred in their place; the screen's button is returned."""
        w = self.size[0]
        go = self.button((0, by, bw, bh), go_label, self.start, style="primary",
                         hotkeys=(pygame.K_RETURN, pygame.K_KP_ENTER))
        self.back_b = self.button((0, by, bw, bh), _("Back"), self.back, style="secondary")
        self.cancel_b = self.button((0, by, bw, bh), _("Cancel"), self.cancel, style="secondary",
                                    hotkeys=(pygame.K_ESCAPE,))
        self.cancel_b.rect.centerx = w // 2
        gap = self.px(24)
        self.back_b.rect.right = w // 2 - gap // 2
        go.rect.left = w // 2 + gap // 2
        return go

    # ---------------------------------------------------------- the form's layout
    def _form_panel(self, top: int, width: int) -> int:
        """The form's panel (``self.panel``): ``width`` pixels wide at most (a margin kept),
        centred, from ``top`` down to above the row of buttons (``px(78)`` tall) at the bottom,
        whose top is returned."""
        w, h = self.size
        self.panel = pygame.Rect(0, top, min(w - self.px(80), width), 0)
        self.panel.centerx = w // 2
        by = h - self.px(30) - self.px(78)
        self.panel.h = by - self.px(24) - self.panel.y
        return by

    def _place_name_field(self, x: int, y: int, inner: int) -> int:
        """The name field under its label at ``y`` (made once, moved after): two fifths of the
        ``inner`` width at most; that width is returned."""
        name_w = min((inner - self.px(40)) * 2 // 5, self.px(440))
        self.name_field = getattr(self, "name_field", None) or self._name_field((0, 0, 1, 1))
        self.name_field.rect = pygame.Rect(x, y + self.px(36), name_w, self.px(56))
        return name_w

    def _made_server_field(self) -> W.TextField:
        """The match server's address field (made once, kept across layouts)."""
        return getattr(self, "server_field", None) or W.TextField(
            (0, 0, 1, 1), self.server_text, self._set_server, max_len=100, placeholder="play.example.org:8765",
            assets=self.app.assets, font_size=theme.font_px("body", self.s))

    def _rules_row(self, x: int, y: int, inner: int) -> W.ChoiceRow:
        """The rule sets to choose from, four a row."""
        return W.ChoiceRow((x, y, inner, self.px(50) * 2 + self.px(10)),
                           [(n, rules_name(n)) for n in RULESETS], self.rules_name, self.set_rules,
                           columns=4, gap=self.px(10), assets=self.app.assets,
                           font_size=theme.font_px("body", self.s))

    def _commit_name(self) -> str:
        """The name as typed, taken from the field and remembered for the next screen."""
        self.name_field.commit()
        name = self.typed_name()
        OT.PREFS["name"] = name
        return name

    def _name_field(self, rect) -> W.TextField:
        return W.TextField(rect, default_name(self.app), self._set_name, max_len=MAX_NAME_LEN, clean=clean_name,
                           placeholder=_("Your name"), assets=self.app.assets,
                           font_size=theme.font_px("body", self.s))

    def _set_name(self, text: str) -> None:
        OT.PREFS["name"] = text

    def typed_name(self) -> str:
        f = self.name_field
        try:
            return clean_name(f.buffer if f.editing else f.text)
        except ValueError:
            return default_name(self.app)

    def _fields(self) -> list:
        return [f for f in self.widgets if isinstance(f, W.TextField) and f.visible]

    def handle(self, event) -> bool:
        # a field being typed in takes the keys first (no hotkey fires while typing)
        editing = [f for f in self._fields() if f.editing or f.focused]
        if editing and event.type in (pygame.KEYDOWN, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN):
            for f in editing:
                if f.handle(event):
                    self._focus_editing()
                    return True
        used = super().handle(event)
        self._focus_editing()
        return used

    def _focus_editing(self) -> None:
        """The keyboard focus follows the field being typed in (a click moves it there)."""
        for f in self._fields():
            if f.editing and self.focus.current is not f and f in self.focus.widgets:
                self.focus.focus(f)
