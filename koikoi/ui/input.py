"""Gestures (click, drag, keys) and how they become engine actions, in one place.

``Pointer`` turns raw mouse events into gestures: a press and a release less
than ``CLICK_SLOP`` pixels apart is a click, anything longer is a drag. The
functions below answer, from a seat's ``View`` alone, which action a drop or
a click means; the round scene then checks it with ``action in session.legal()``
before sending it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pygame

from ..engine import ChooseMatch, Play
from ..engine import card as card_of

CLICK_SLOP = 6  # pixels: a press that moves less than this is still a click


@dataclass
class Gesture:
    kind: str                       # "click", "drag_start", "drag", "drop", "cancel"
    pos: tuple[int, int]
    start: tuple[int, int]
    button: int = 1


class Pointer:
    """Press / move / release -> click, drag_start, drag, drop; right button -> cancel."""

    def __init__(self, slop: int = CLICK_SLOP):
        self.slop = slop
        self.pressed: Optional[tuple[int, int]] = None
        self.dragging = False
        self.pos = (0, 0)

    def reset(self) -> None:
        self.pressed = None
        self.dragging = False

    def feed(self, event: pygame.event.Event) -> list[Gesture]:
        out: list[Gesture] = []
        et = event.type
        if et == pygame.MOUSEBUTTONDOWN:
            pos = tuple(event.pos)
            self.pos = pos
            if event.button == 1:
                self.pressed = pos
                self.dragging = False
            elif event.button == 3:
                self.reset()
                out.append(Gesture("cancel", pos, pos, 3))
        elif et == pygame.MOUSEMOTION:
            pos = tuple(event.pos)
            self.pos = pos
            if self.pressed is not None:
                dx, dy = pos[0] - self.pressed[0], pos[1] - self.pressed[1]
                if not self.dragging and dx * dx + dy * dy >= self.slop * self.slop:
                    self.dragging = True
                    out.append(Gesture("drag_start", pos, self.pressed))
                if self.dragging:
                    out.append(Gesture("drag", pos, self.pressed))
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            pos = tuple(event.pos)
            self.pos = pos
            if self.pressed is not None:
                start = self.pressed
                dx, dy = pos[0] - start[0], pos[1] - start[1]
                if self.dragging or dx * dx + dy * dy >= self.slop * self.slop:
                    out.append(Gesture("drop", pos, start))
                else:
                    out.append(Gesture("click", pos, start))
            self.reset()
        return out


# ------------------------------------------------------------------ meaning
def field_matches(view, card_id: str) -> tuple[str, ...]:
    """Ids of the field cards of ``card_id``'s month."""
    month = card_of(card_id).month
    return tuple(c.id for c in view.field if c.month == month)


def play_for_drop(view, card_id: str, target: Optional[str], on_field: bool) -> Optional[Play]:
    """The Play meant by dropping (or clicking) hand card ``card_id`` onto the field.

    ``target`` is the field card under the pointer (None: an empty part of the field),
    ``on_field`` whether the pointer is over the field at all. None: it means
    nothing yet (off the field, or two cards match and neither was picked).
    """
    if not on_field and target is None:
        return None
    matches = field_matches(view, card_id)
    if len(matches) == 2:
        return Play(card_id, target) if target in matches else None
    if len(matches) in (1, 3):
        # any drop on the field works; a non-matching card under the pointer is just "the field"
        return Play(card_id)
    return Play(card_id)


def play_for_click(view, card_id: str, target: Optional[str], on_field: bool) -> Optional[Play]:
    """Clicking the field with ``card_id`` selected: stricter than a drop about cards.

    A click on a field card of another month while the selected card has matches is
    a mistake (None), not a request to lay the card down.
    """
    if not on_field and target is None:
        return None
    matches = field_matches(view, card_id)
    if target is not None and matches and target not in matches:
        return None
    return play_for_drop(view, card_id, target, on_field)


def choose_for_click(view, target: Optional[str]) -> Optional[ChooseMatch]:
    """The stock-stage choice meant by clicking ``target``."""
    if view.pending is None or target is None:
        return None
    if target in {c.id for c in view.choices}:
        return ChooseMatch(target)
    return None


def is_legal(action, legal) -> bool:
    return action is not None and legal is not None and action in legal


HAND_KEYS = {getattr(pygame, f"K_{i}"): i - 1 for i in range(1, 10)}
HAND_KEYS.update({getattr(pygame, f"K_KP{i}"): i - 1 for i in range(1, 10)})
CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
