"""The card sprites on the table and the tweens that move them between poses.

A ``Pose`` is what the table shows at one moment: a ``PublicTable`` (the fold
of the public events shown so far) plus the two in-between places a card
passes through during a turn that no table records: resting on the field card
it is about to take (``onto``), and turned up at the flip spot (``flip``).
``Stage.show(pose)`` lays the pose out (``board.layout``) and tweens every
sprite from where it is to where the pose puts it; sprites are keyed by card
id (the other hand's backs by ``opp0..``), so a card keeps its sprite wherever
it goes.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional

import pygame

from ...engine.table import PublicTable
from ...engine.view import View
from .. import anim, board

# Layers, bottom to top.
L_FIELD, L_PILE, L_OPP, L_HAND, L_FLY, L_DRAG = range(6)

PLAY_TIME = 0.32        # a card flying to its spot (seconds at speed 1)
CAPTURE_TIME = 0.38
FLIP_TIME = 0.28


class Pose(NamedTuple):
    table: PublicTable
    onto: tuple = ()                 # ((card, field card it rests on), ...) before a capture
    flip: Optional[str] = None       # a stock card turned up, at the flip spot

    def shown(self, card: str) -> bool:
        """Whether ``card`` is face up somewhere in this pose."""
        t = self.table
        return (card in t.hand or card in t.field or card in t.captured[0] or card in t.captured[1]
                or card == self.flip or card == t.pending or any(c == card for c, _ in self.onto))

    def view(self) -> View:
        """The engine ``View`` of what this pose shows (``PublicTable.view``): a card resting
        on the field card it takes counts as on the field, a card at the flip spot as the
        stock card turned up, so a hint never counts a card the player sees as still to come."""
        t = self.table
        extra = tuple((c,) for c, _ in self.onto)
        if self.flip is not None and self.flip != t.pending:
            if t.pending is None:
                t = t._replace(pending=self.flip)
            else:
                extra += ((self.flip,),)
        if extra:
            t = t._replace(field_slots=t.field_slots + extra)
        return t.view()


class CardSprite:
    __slots__ = ("key", "cid", "face", "pos", "sx", "layer", "z", "visible", "flying", "pop",
                 "shake", "lift", "move", "flipping", "still")

    def __init__(self, key: str, cid: Optional[str], pos: tuple, face: bool):
        self.key = key
        self.cid = cid
        self.face = face
        self.pos = pos            # (centre x, centre y, height)
        self.sx = 1.0             # horizontal squash during a flip
        self.layer = L_FIELD
        self.z = 0
        self.visible = True
        self.flying = False
        self.pop = 0.0
        self.shake = 0.0
        self.lift = 0.0
        self.move: Optional[anim.Tween] = None
        self.flipping: Optional[anim.Tween] = None
        self.still = 0.0          # seconds at rest (baked into the table layer after a while)

    @property
    def busy(self) -> bool:
        return bool(self.move is not None or self.flipping is not None or self.shake or self.pop
                    or self.flying)


def center(r: pygame.Rect) -> tuple:
    return (r.centerx, r.centery, r.h)


def targets(lay: board.Layout, pose: Pose) -> dict:
    """key -> (centre x, centre y, height, layer, z, face up?, card id) for every card shown."""
    out = {}
    t = pose.table
    for z, cid in enumerate(lay.hand_order):
        out[cid] = (*center(lay.hand[cid]), L_HAND, z, True, cid)
    for z, r in enumerate(lay.opponent_hand):
        out[f"opp{z}"] = (*center(r), L_OPP, z, False, None)
    for z, cid in enumerate(lay.field_order):
        out[cid] = (*center(lay.field[cid]), L_FIELD, z, True, cid)
    for cid, under in pose.onto:
        r = lay.field.get(under) or lay.flip
        r = r.move(int(lay.card_w * 0.22), int(lay.card_h * 0.16))
        out[cid] = (*center(r), L_FIELD, 100, True, cid)
    flip = pose.flip or t.pending
    if flip is not None:
        out[flip] = (*center(lay.flip), L_FIELD, 200, True, flip)
    for s in (0, 1):
        for z, cid in enumerate(lay.captured_order[s]):
            out[cid] = (*center(lay.captured[s][cid]), L_PILE, z, True, cid)
    return out


class Stage:
    """The sprites, the current layout and the tweens between poses."""

    def __init__(self, timeline: anim.Timeline, fx: anim.Timeline):
        self.tl = timeline           # the game's animations, in order
        self.fx = fx                 # cosmetic touches that never block input
        self.sprites: dict[str, CardSprite] = {}
        self.lay: Optional[board.Layout] = None
        self.pose: Optional[Pose] = None
        self.drag: Optional[str] = None      # the sprite under the pointer, left alone
        self.peek: Optional[str] = None      # a covered field card the pointer raises whole
        self.peek_held = None                # a pointer position (a card just played) raising none

    def layout(self, size, pose: Pose, spread_month: Optional[int], card_scale: float) -> board.Layout:
        self.pose = pose
        self.lay = board.layout(size, pose.table, spread_month=spread_month, card_scale=card_scale)
        return self.lay

    def show(self, lay: board.Layout, *, instant: bool = False, fly=(), duration: float = PLAY_TIME,
             delays: Optional[dict] = None, flips=(), on_land: Optional[dict] = None,
             easing=anim.out_cubic, keep=(), timeline: Optional[anim.Timeline] = None) -> None:
        """Tween every sprite to its place in ``lay`` (the layout of ``self.pose``)."""
        want = targets(lay, self.pose)
        stock = center(lay.stock)
        delays = delays or {}
        on_land = on_land or {}
        instant = instant or self.tl.instant
        for key, (cx, cy, h, layer, z, face, cid) in want.items():
            sp = self.sprites.get(key)
            if sp is None:
                sp = CardSprite(key, cid, (cx, cy, h) if instant else stock, face if instant else False)
                self.sprites[key] = sp
            sp.cid = cid     # None for every card this seat may not see
            sp.layer, sp.z = layer, z
            end = (cx, cy, h)
            if instant:
                self.settle(sp, end, face)
                continue
            if key == self.drag:
                continue
            if sp.pos != end or key in fly:
                self.move(sp, end, duration if key in fly else duration * 0.8,
                          delay=delays.get(key, 0.0), easing=easing, fly=key in fly,
                          on_land=on_land.get(key), timeline=timeline)
            if sp.face != face:
                if key in flips:
                    self.flip(sp, face, delay=delays.get(key, 0.0) + duration * 0.2,
                              duration=min(FLIP_TIME, duration * 0.7))
                elif sp.flipping is None:
                    sp.face = face
        for key in list(self.sprites):
            if key not in want and key not in keep:
                del self.sprites[key]

    def settle(self, sp: CardSprite, end: tuple, face: bool) -> None:
        """``sp`` at ``end`` at once, face as given, nothing running on it."""
        self.stop(sp)
        sp.pos = end
        sp.flying = False
        if sp.flipping is not None:
            sp.flipping.done = True
            sp.flipping = None
        sp.sx = 1.0
        sp.face = face
        sp.visible = True

    def stop(self, sp: CardSprite) -> None:
        if sp.move is not None:
            sp.move.done = True
            sp.move = None

    def move(self, sp: CardSprite, end: tuple, duration: float, *, delay: float = 0.0,
             easing=anim.out_cubic, fly: bool = False, on_land: Optional[Callable] = None,
             timeline: Optional[anim.Timeline] = None) -> None:
        self.stop(sp)
        if fly:
            sp.flying = True

        def done(sp=sp, on_land=on_land):
            sp.flying = False
            sp.move = None
            if on_land is not None:
                on_land(sp)
        sp.move = (timeline or self.tl).tween(sp, sp.pos, end, duration, easing, done, attr="pos",
                                              delay=delay)

    def flip(self, sp: CardSprite, face: bool, *, delay: float = 0.0, duration: float = FLIP_TIME,
             on_start: Optional[Callable] = None) -> None:
        """A real flip: squash to nothing, swap the face, open out again."""
        start_face = sp.face

        def step(t, sp=sp):
            sp.sx = max(0.0, abs(1.0 - 2.0 * t))
            sp.face = start_face if t < 0.5 else face

        def done(sp=sp):
            sp.flipping = None
            sp.sx = 1.0
            sp.face = face
        if on_start is not None:
            self.tl.tween(None, 0, 1, 0.0, anim.linear, on_start, delay=delay)
        if sp.flipping is not None:
            sp.flipping.done = True
        sp.flipping = self.tl.tween(step, 0.0, 1.0, duration, anim.linear, done, delay=delay)

    def pop(self, sp: CardSprite) -> None:
        self.fx.tween(sp, 0.0, 1.0, 0.22, anim.pop, attr="pop")

    def shake(self, sp: Optional[CardSprite]) -> None:
        """An illegal gesture: a little side-to-side shake (never blocks input)."""
        if sp is not None:
            self.fx.tween(sp, 0.0, 1.0, 0.36, anim.shake, attr="shake")

    def quant_h(self, h: float) -> int:
        """A card height as drawn: one of the layout's sizes, else a multiple of a small step
        (so the card images cached per height stay few)."""
        lay = self.lay
        for s in (lay.card_h, lay.small_h, lay.back_h):
            if abs(h - s) < 1.0:
                return s
        q = max(2, lay.card_h // 24)
        return max(4, int(round(h / q)) * q)

    def sprite_rect(self, sp: CardSprite) -> pygame.Rect:
        """Where ``sp`` is drawn (its lift aside)."""
        h = self.quant_h(sp.pos[2])
        w = board.card_size(h)[0]
        return pygame.Rect(int(sp.pos[0] - w / 2), int(sp.pos[1] - h / 2), w, h)

    def draw_order(self) -> list:
        """The visible sprites, bottom first (a card in flight above everything at rest; the
        peeked field card above its month's others, under a card resting on one)."""
        peek = self.peek

        def order(sp):
            z = 99 if sp.key == peek and sp.layer == L_FIELD and sp.z < 99 and not sp.busy else sp.z
            return (L_FLY if sp.flying and sp.layer != L_DRAG else sp.layer, z)
        return sorted((sp for sp in self.sprites.values() if sp.visible), key=order)
