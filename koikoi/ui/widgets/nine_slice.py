"""Big shapes built from a small one: a rounded panel or a soft shadow is its
four corners, four edges that repeat one line, and a flat middle. Made whole,
a 1500x720 panel (its masks, the inset body, the border) took 40-90 ms, its
shadow (a blur scaled up to the full size) 15-45 ms: the frame that opened
History or Statistics. Stretched from a template a few corners wide, each
takes a fill and nine small copies.

``stretch(template, size, k)``: ``template`` (per-pixel alpha) is at least
``2 * k + 1`` px each way, its rows and columns from ``k`` to its size minus
``k`` all alike (a corner fits in a ``k``-square); the result is ``size`` with
the same ``k``-squares in its corners, the template's middle line repeated
along each edge and its middle pixel everywhere between: the same pixels as
the shape made whole at ``size`` (tests/test_trust_frames.py compares them).
"""

from __future__ import annotations

import pygame


def stretch(template: pygame.Surface, size: tuple[int, int], k: int) -> pygame.Surface:
    tw, th = template.get_size()
    w, h = size
    if w < 2 * k + 1 or h < 2 * k + 1 or tw < 2 * k + 1 or th < 2 * k + 1:
        raise ValueError(f"a {size} shape cannot be stretched from a {template.get_size()} template by {k}")
    mx, my = tw // 2, th // 2
    out = pygame.Surface(size, pygame.SRCALPHA)      # all (0, 0, 0, 0): MAX below copies exactly
    out.fill(template.get_at((mx, my)), pygame.Rect(k, k, w - 2 * k, h - 2 * k))

    def put(area: pygame.Rect, to: tuple[int, int], stretch_to=None) -> None:
        piece = template.subsurface(area)
        if stretch_to is not None:
            piece = pygame.transform.scale(piece, stretch_to)     # one line repeated: no filtering
        out.blit(piece, to, special_flags=pygame.BLEND_RGBA_MAX)

    inner_w, inner_h = w - 2 * k, h - 2 * k
    put(pygame.Rect(mx, 0, 1, k), (k, 0), (inner_w, k))                 # top edge
    put(pygame.Rect(mx, th - k, 1, k), (k, h - k), (inner_w, k))        # bottom edge
    put(pygame.Rect(0, my, k, 1), (0, k), (k, inner_h))                 # left edge
    put(pygame.Rect(tw - k, my, k, 1), (w - k, k), (k, inner_h))        # right edge
    put(pygame.Rect(0, 0, k, k), (0, 0))
    put(pygame.Rect(tw - k, 0, k, k), (w - k, 0))
    put(pygame.Rect(0, th - k, k, k), (0, h - k))
    put(pygame.Rect(tw - k, th - k, k, k), (w - k, h - k))
    return out


__all__ = ["stretch"]
