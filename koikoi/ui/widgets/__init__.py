"""Small drawn widgets in the game's lacquer-and-gold style.

    from koikoi.ui import widgets as W
    W.draw_text(screen, "Koi-Koi?", font, theme.CREAM, rect.center, anchor="center")
    ok = W.Button(rect, "Continue", on_close, assets=app.assets, hotkeys=(pygame.K_RETURN,))
    ok.handle(event)   # in Scene.handle: True when the event was consumed
    ok.draw(screen)    # in Scene.draw

The package's modules, by responsibility (every name is re-exported here, so
``W.<name>`` is all a screen needs):

    core.py      bounded caches, small helpers (panels_below, tile_rects), ``Widget``, ``FocusGroup``
    text.py      render_text, draw_text, text_width, wrap_text, fit_font, ellipsize
    draw.py      rounded_surface, soft_shadow, draw_panel, draw_scrim, draw_divider,
                 draw_card, ``Panel``
    controls.py  ``Button``, ``Slider``, ``Toggle``
    choice.py    ``Choice``, ``ChoiceRow``
    scroll.py    ``Scroller``, layout_columns
    table.py     ``Table`` (with ``Column`` and ``Cell``): the scrolling tables of
                 the history, ledger, statistics and saved-matches screens

Conventions shared by every widget here:

* Geometry is in real window pixels: a widget gets a ``pygame.Rect`` and the
  scene moves it in ``resize`` (assign ``widget.rect``). Type and corner sizes
  follow the rect's height, so a widget laid out at any scale looks right.
* Fonts come from the ``Assets`` passed at construction (``assets=``); when
  none is passed the shared ``get_assets()`` instance is used. So ``draw``
  always takes just the target surface: ``draw(surface)``.
* ``handle(event) -> bool`` takes one pygame event and returns True if it was
  consumed. Mouse motion is never consumed (every widget may want to un-hover).
  A click fires on release inside the widget, after a press inside it.
* Widgets may be ``focused`` (keyboard): Enter/Space activates a focused
  button or toggle, Left/Right moves a focused slider or choice row. A
  ``FocusGroup`` moves the focus with Tab / Up / Down.
* Rendered text and widget bodies are cached (by size and state), so drawing
  every frame costs only blits.
"""

from __future__ import annotations

import sys
import types

from . import choice, controls, core, draw, scroll, table, text  # noqa: F401
from .choice import Choice, ChoiceRow
from .controls import _BUTTON_STYLES, Button, Slider, Toggle
from .core import (_ACTIVATE_KEYS, FocusGroup, Widget, _assets, _Cache, _is_click_down, _is_click_up,
                   _pixels, _play, _rect, panels_below, tile_rects)
from .draw import (_SHAPES, MASK_CACHE_PIXELS, SCRIM_ROWS, Panel, _rounded_alpha, _supersampled_mask,
                   opaque_inside, draw_card, draw_divider, draw_panel, draw_scrim, rounded_surface, soft_shadow)
from .scroll import Scroller, layout_columns
from .table import Cell, Column, Table
from .textfield import TextField  # noqa: F401
from .text import (_FITS, _FITS_LONG, _GLYPHS, _LONG_KEY, _SPACES, _STAND_INS, _TEXT, _TEXT_LONG,
                   MAX_TEXT_PX, MAX_WRAP_LINES, _clip_line, _drawable, _ellipsis_cut, _fit_chars,
                   _guess_chars, _has_glyph, _last_fit, _wrap_para, caps, displayable, draw_text, ellipsize,
                   cut_mark, cuts_shown, cuts_since, fit_font, fit_items, fit_size, more_text, note_cut, render_text, renote,
                   text_width, whole_of, wrap_text)

_PARTS = (core, text, draw, controls, choice, scroll, table)
_MISSING = object()


class _Widgets(types.ModuleType):
    """The package as a module whose names can still be set as when it was one
    file: ``monkeypatch.setattr(W, "MASK_CACHE_PIXELS", n)`` (or a spy on
    ``W.draw_text``) also sets the name in each part that holds the same object,
    so the code there sees it too."""

    def __setattr__(self, name: str, value) -> None:
        old = self.__dict__.get(name, _MISSING)
        super().__setattr__(name, value)
        if old is _MISSING or isinstance(old, types.ModuleType):
            return
        for part in _PARTS:
            if part.__dict__.get(name, _MISSING) is old:
                setattr(part, name, value)


sys.modules[__name__].__class__ = _Widgets

__all__ = [
    "draw_text", "render_text", "text_width", "wrap_text", "fit_font", "ellipsize",
    "rounded_surface", "soft_shadow", "draw_panel", "draw_scrim", "draw_divider", "draw_card",
    "Widget", "Button", "Panel", "Slider", "Toggle", "Choice", "ChoiceRow", "FocusGroup", "Scroller",
    "Table", "Column", "Cell", "panels_below", "tile_rects",
]
