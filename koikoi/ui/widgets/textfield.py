"""``TextField``: one line of text the player types (a name), bounded in length.

    field = TextField(rect, "Player 1", on_change=keep, max_len=40, clean=clean_name,
                      on_next=lambda: focus.move(1), assets=app.assets)

Click it to edit with the caret where it was clicked; reached with the keyboard
(focused, then Enter or just typing) it edits with all its text selected, so what
is typed replaces it, as in any desktop toolkit. While editing it takes every key:
typed text (pygame ``TEXTINPUT``) replaces the selection or goes in at the caret,
Backspace / Delete remove the selection or a character, Left / Right / Home / End
move the caret (with Shift they extend the selection), Ctrl+A selects everything;
Enter commits and calls ``on_next()``, Tab commits and lets the focus move on,
Escape puts back the text as it was. A click elsewhere commits.

A ``placeholder`` (a default such as "Player 1") is drawn dimmed while the field is
empty; it is never text, so typing starts from nothing and an empty field commits as
empty (its owner reads that as the default). On commit the text goes through ``clean``
(a function that returns the cleaned text or raises ValueError, e.g.
``koikoi.session.clean_name``); a refused text (an empty one, with no placeholder)
puts back the text as it was. ``on_change(text)`` runs when the
committed text changed. Control characters are never typed in, and at most
``max_len`` characters are kept.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from .. import theme
from .core import Widget, _is_click_down
from .draw import rounded_surface
from . import text as _text   # looked up at each call, so a spy on W.draw_text sees these too


def _printable(text: str) -> str:
    """``text`` without control characters (what a name may not hold)."""
    return "".join(c for c in text if not (ord(c) < 32 or 0x7f <= ord(c) < 0xa0))


class TextField(Widget):
    """A one-line text box; see the module's docstring."""

    def __init__(self, rect, text: str = "", on_change: Optional[Callable[[str], Any]] = None, *,
                 max_len: int = 40, clean: Optional[Callable[[str], str]] = None,
                 on_next: Optional[Callable[[], Any]] = None, placeholder: str = "",
                 enabled: bool = True, assets=None, font_size: Optional[int] = None):
        super().__init__(rect, enabled=enabled, assets=assets)
        self.max_len = max(1, int(max_len))
        self.text = _printable(str(text))[:self.max_len]
        self.on_change = on_change
        self.clean = clean
        self.on_next = on_next
        self.placeholder = placeholder
        self.font_size = font_size
        self.editing = False
        self.buffer = self.text
        self.caret = len(self.buffer)
        self.anchor = self.caret      # the selection: between anchor and caret (none when equal)

    @property
    def selection(self) -> tuple[int, int]:
        """(start, end) of the selected text in the buffer (equal: nothing selected)."""
        return min(self.anchor, self.caret), max(self.anchor, self.caret)

    def select_all(self) -> None:
        self.anchor, self.caret = 0, len(self.buffer)

    def _delete_selection(self) -> bool:
        a, b = self.selection
        if a == b:
            return False
        self.buffer = self.buffer[:a] + self.buffer[b:]
        self.caret = self.anchor = a
        return True

    # ---------------------------------------------------------- editing
    def begin(self, caret: Optional[int] = None, select_all: bool = False) -> None:
        """Start editing (the caret at the end, or at ``caret``; ``select_all``: every
        character selected, as a field reached with the keyboard is)."""
        if not self.enabled or not self.visible:
            return
        if not self.editing:
            self.editing = True
            self.buffer = self.text
            try:
                pygame.key.start_text_input()
                pygame.key.set_text_input_rect(self.rect)
            except (pygame.error, AttributeError):   # no text input on this display
                pass
        self.caret = len(self.buffer) if caret is None else max(0, min(len(self.buffer), caret))
        self.anchor = 0 if select_all else self.caret

    def _end(self) -> None:
        # text input stays on: pygame has it on from the start, and other screens read
        # TEXTINPUT too (the "?" of the keyboard help)
        self.editing = False

    def commit(self) -> None:
        """Stop editing and keep the typed text (cleaned), or the old text if refused."""
        if not self.editing:
            return
        self._end()
        new = self.buffer
        if not new.strip() and self.placeholder:    # emptied: the placeholder (the default) stands
            new = ""
        elif self.clean is not None:
            try:
                new = self.clean(new)
            except ValueError:
                new = self.text
        new = _printable(new)[:self.max_len]
        if not new and not self.placeholder:
            new = self.text
        changed = new != self.text
        self.text = self.buffer = new
        self.caret = self.anchor = len(new)
        if changed and self.on_change is not None:
            self.on_change(new)

    def cancel(self) -> None:
        """Stop editing and put back the text as it was."""
        if self.editing:
            self._end()
        self.buffer = self.text
        self.caret = self.anchor = len(self.text)

    def set_text(self, text: str) -> None:
        """Show ``text`` (no ``on_change``); ends any editing."""
        self.cancel()
        self.text = self.buffer = _printable(str(text))[:self.max_len]
        self.caret = self.anchor = len(self.text)

    def insert(self, text: str) -> None:
        """Type ``text`` over the selection or at the caret (control characters dropped, cut
        to ``max_len``)."""
        if _printable(text):
            self._delete_selection()
        text = _printable(text)[:max(0, self.max_len - len(self.buffer))]
        if text:
            self.buffer = self.buffer[:self.caret] + text + self.buffer[self.caret:]
            self.caret += len(text)
        self.anchor = self.caret

    def _caret_at(self, x: int) -> int:
        """The caret position nearest the window x ``x``."""
        font = self._font()
        left = self._inner().x - self._scroll(font)
        best, best_d = 0, None
        for i in range(len(self.buffer) + 1):
            d = abs(left + _text.text_width(self.buffer[:i], font) - x)
            if best_d is None or d < best_d:
                best, best_d = i, d
        return best

    # ---------------------------------------------------------- events
    def handle(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            if self.editing:
                self.commit()
            return False
        self._track_hover(event)
        if _is_click_down(event):
            if self.rect.collidepoint(event.pos):
                if self.enabled:
                    if not self.editing:
                        self.begin()
                    self.caret = self.anchor = self._caret_at(event.pos[0])
                return True
            if self.editing:
                self.commit()        # a click elsewhere keeps what was typed
            return False
        if event.type == pygame.MOUSEBUTTONUP and self.rect.collidepoint(event.pos):
            return self.enabled
        if not self.enabled:
            return False
        if event.type == pygame.TEXTINPUT and (self.editing or self.focused):
            if not self.editing:
                self.begin(select_all=True)     # typing into a field reached with Tab replaces it
            self.insert(event.text)
            return True
        if event.type != pygame.KEYDOWN or not (self.editing or self.focused):
            return False
        key = event.key
        if not self.editing:
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.begin(select_all=True)
                return True
            # a printable key starts typing (its TEXTINPUT follows); it is no hotkey here
            return bool(getattr(event, "unicode", "")) and _printable(event.unicode) != "" \
                and key not in (pygame.K_ESCAPE, pygame.K_TAB)
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.commit()
            if self.on_next is not None:
                self.on_next()
            return True
        if key == pygame.K_TAB:
            self.commit()
            return False             # the focus group moves on
        if key == pygame.K_ESCAPE:
            self.cancel()
            return True
        mods = getattr(event, "mod", 0)
        if key == pygame.K_a and mods & (pygame.KMOD_CTRL | pygame.KMOD_META):
            self.select_all()
        elif key == pygame.K_BACKSPACE:
            if not self._delete_selection() and self.caret > 0:
                self.buffer = self.buffer[:self.caret - 1] + self.buffer[self.caret:]
                self.caret = self.anchor = self.caret - 1
        elif key == pygame.K_DELETE:
            if not self._delete_selection():
                self.buffer = self.buffer[:self.caret] + self.buffer[self.caret + 1:]
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_HOME, pygame.K_END):
            a, b = self.selection
            if key == pygame.K_LEFT:
                caret = self.caret - 1 if (a == b or mods & pygame.KMOD_SHIFT) else a
            elif key == pygame.K_RIGHT:
                caret = self.caret + 1 if (a == b or mods & pygame.KMOD_SHIFT) else b
            else:
                caret = 0 if key == pygame.K_HOME else len(self.buffer)
            self.caret = max(0, min(len(self.buffer), caret))
            if not mods & pygame.KMOD_SHIFT:
                self.anchor = self.caret
        return True                  # every other key is typing, not a hotkey

    # ---------------------------------------------------------- drawing
    def _font(self) -> pygame.font.Font:
        return self._a.font(self.font_size or max(10, int(self.rect.h * 0.46)))

    def _inner(self) -> pygame.Rect:
        pad = max(4, self.rect.h // 4)
        return self.rect.inflate(-2 * pad, 0)

    def _scroll(self, font) -> int:
        """How far the text is shifted left so that the caret stays in the box."""
        if not self.editing:
            return 0
        inner = self._inner()
        return max(0, _text.text_width(self.buffer[:self.caret], font) - inner.w + 2)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        r = self.rect
        radius = max(3, r.h // 4)
        if not self.enabled:
            border = (90, 80, 64)
        elif self.editing:
            border = theme.GOLD_LIGHT
        elif self.hovered or self.focused:
            border = theme.GOLD
        else:
            border = theme.GOLD_DARK
        fill = (18, 20, 20, 235) if self.editing else (30, 30, 28, 220)
        surface.blit(rounded_surface(r.size, radius, fill, border=border,
                                     border_width=max(1, r.h // 26) + (1 if self.editing else 0)), r.topleft)
        font = self._font()
        inner = self._inner()
        text = self.buffer if self.editing else self.text
        prev = surface.get_clip()
        surface.set_clip(inner.clip(prev) if prev else inner)
        x = inner.x - self._scroll(font)
        a, b = self.selection
        if self.editing and a != b:
            sx = x + _text.text_width(self.buffer[:a], font)
            ex = x + _text.text_width(self.buffer[:b], font)
            h = font.get_height()
            surface.fill(theme.GOLD_DARK, pygame.Rect(sx, r.centery - h // 2, max(1, ex - sx), h))
        if text:
            color = theme.CREAM if self.enabled else theme.MUTED
            _text.draw_text(surface, text, font, color, (x, r.centery), "midleft", shadow=False)
        elif self.placeholder:
            _text.draw_text(surface, self.placeholder, font, theme.MUTED, (x, r.centery), "midleft", shadow=False)
        if self.editing:
            cx = x + _text.text_width(self.buffer[:self.caret], font)
            h = font.get_height()
            pygame.draw.line(surface, theme.GOLD_LIGHT, (cx, r.centery - h // 2), (cx, r.centery + h // 2 - 1),
                             max(1, r.h // 30))
        surface.set_clip(prev)


__all__ = ["TextField"]
