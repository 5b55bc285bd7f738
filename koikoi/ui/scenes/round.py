"""The round table: where a match is played.

The scene keeps its own *displayed* table (``TableModel``), which lags the
engine while animations run: every new public event becomes queued steps on
an animation ``Timeline`` (deal, play, flip, capture, banners) and each step
changes the displayed table and tweens the cards to their new ``board``
positions. When the queue is empty the displayed table equals
``session.view(seat)`` (checked, and resynchronised if not). Gestures become
engine actions only at rest, and only if ``action in session.legal()``.
"""

from __future__ import annotations

import logging
from typing import Optional

import pygame

from ...ai import hints_on
from ...engine import ChooseMatch, Play
from ...engine import card as card_of
from ...engine import yaku as Y
from ...engine.cards import ID_TO_INDEX, Kind
from ...engine.events import (Chose, Exhausted, FieldSwept, Flipped, KoiKoiCalled, LuckyHand,
                              MatchEnded, Misdeal, OyagimeDecided, OyagimePicked, OyagimeSpread,
                              Played, RoundDealt, RoundEnded, Stopped, YakuMade)
from ...engine.actions import PickOyagime
from .. import anim, board, hints, theme
from .. import input as gestures
from .. import widgets as W
from ..scene import Scene
from ..tooltip import HoverTimer, draw_tooltip

log = logging.getLogger("koikoi.round")

# Layers, bottom to top.
L_FIELD, L_PILE, L_OPP, L_HAND, L_FLY, L_DRAG = range(6)

PLAY_TIME = 0.32        # a card flying to its spot (seconds at speed 1)
CAPTURE_TIME = 0.38
FLIP_TIME = 0.28
DEAL_STEP = 0.085
CPU_PAUSE = 0.55        # a short pause before each CPU action, so it reads
CPU_DECIDE_PAUSE = 1.0
BAKE_AFTER = 0.25       # a card at rest this long is drawn into the cached table layer


def _mask(ids) -> int:
    m = 0
    for i in ids:
        m |= 1 << ID_TO_INDEX[i]
    return m


# ---------------------------------------------------------------------- model
class TableModel:
    """The table as currently shown (shaped like a View for ``board.layout``)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.hand: list[str] = []
        self.opp = 0
        self.field: list[str] = []
        self.slots: dict[int, int] = {}
        self.captured: list[list[str]] = [[], []]
        self.stock = 0
        self.flip: Optional[str] = None
        self.onto: dict[str, str] = {}        # a card resting on a field card before the capture
        self.oyagime: list = []               # [(key, card id or None)] while drawing for dealer
        self.scores = (0, 0)
        self.calls = (0, 0)
        self.round = 1
        self.dealer: Optional[int] = None
        self.turn: Optional[int] = None

    @property
    def opponent_hand_count(self) -> int:
        return self.opp

    @property
    def stock_count(self) -> int:
        return self.stock

    def sort_hand(self) -> None:
        self.hand.sort(key=ID_TO_INDEX.__getitem__)

    def place_field(self) -> None:
        self.slots = board.assign_slots(self.slots, self.field + list(self.onto.values()))

    def sync(self, v) -> None:
        self.seat = v.seat
        self.hand = [c.id for c in v.hand]
        self.opp = v.opponent_hand_count
        self.field = [c.id for c in v.field]
        self.captured = [[c.id for c in v.captured[0]], [c.id for c in v.captured[1]]]
        self.stock = v.stock_count
        self.flip = v.pending.id if v.pending is not None else None
        self.onto = {}
        self.scores = tuple(v.scores)
        self.calls = tuple(v.calls)
        self.round = v.round
        self.dealer = v.dealer
        self.turn = v.to_move
        self.oyagime = self._oyagime_of(v)
        if self.oyagime:
            self.stock = 48 - len(self.oyagime)
        self.place_field()

    @staticmethod
    def _oyagime_of(v) -> list:
        """The face-down cards drawn for dealer, with those already turned up."""
        if v.phase != "oyagime":
            return []
        picked = {i: c.id for _, i, c in v.oyagime_picks}
        n = v.oyagime_face_down + len(picked)
        return [(f"oya{i}", picked.get(i)) for i in range(n)]

    def differs(self, v) -> bool:
        if v.phase == "oyagime":
            return self.oyagime != self._oyagime_of(v)
        return (set(self.hand) != {c.id for c in v.hand}
                or self.opp != v.opponent_hand_count
                or set(self.field) != {c.id for c in v.field}
                or any(set(self.captured[s]) != {c.id for c in v.captured[s]} for s in (0, 1))
                or self.stock != v.stock_count
                or self.flip != (v.pending.id if v.pending is not None else None)
                or bool(self.onto))


class _Shown:
    """The displayed table as the few View fields the hints read (it lags the engine while
    animations run, so a hint never runs ahead of what the player has seen)."""

    def __init__(self, scene):
        m = scene.model
        self.seat = scene.me
        self.rules = scene.session.rules
        self.field_mask = _mask(m.field) | _mask(m.onto)
        self.captured_masks = (_mask(m.captured[0]), _mask(m.captured[1]))
        seen = _mask(m.hand) | self.field_mask | self.captured_masks[0] | self.captured_masks[1]
        if m.flip is not None:
            seen |= _mask([m.flip])
        self.unseen_mask = ((1 << 48) - 1) & ~seen


# ---------------------------------------------------------------------- sprites
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
        self.still = 0.0          # seconds at rest (a card is baked into the table layer after a while)


def _center(r: pygame.Rect) -> tuple:
    return (r.centerx, r.centery, r.h)


class Banner:
    """A centred announcement that fades in, holds and fades out (pre-rendered once)."""

    def __init__(self, image: pygame.Surface, life: float):
        self.image = image
        self.life = life
        self.t = 0.0

    @property
    def alpha(self) -> int:
        fade = min(0.25, self.life / 4)
        if self.t < fade:
            return int(255 * self.t / fade)
        if self.t > self.life - fade:
            return int(255 * max(0.0, (self.life - self.t) / fade))
        return 255


# ---------------------------------------------------------------------- scene
class RoundScene(Scene):
    opaque = True

    def __init__(self, app, session):
        super().__init__(app)
        self.session = session
        self.assets = app.assets
        self.tl = anim.Timeline(self._speed())      # the game's animations, in order
        self.fx = anim.Timeline(self._speed())      # cosmetic touches that never block input
        hs = session.human_seats
        if session.is_hotseat:
            to_move = session.state.to_move
            self.me = to_move if to_move is not None else 0
        else:
            self.me = hs[0] if hs else 0
        self.model = TableModel(self.me)
        self.sprites: dict[str, CardSprite] = {}
        self.banner: Optional[Banner] = None
        self.pointer = gestures.Pointer()
        self.selected: Optional[str] = None
        self.target_cursor: Optional[str] = None
        self.drag: Optional[str] = None
        self.drag_offset = (0, 0)
        self.hover: Optional[str] = None
        self.stock_extra = 0            # cards still drawn on the stock during a deal
        self.cpu_action = None
        self.cpu_wait = 0.0
        self.overlay = None             # the prompt / results / curtain we pushed
        self.resyncs = 0                # displayed table had to be corrected (a bug if > 0)
        self.applied: list = []         # actions this scene sent (tests read it)
        self.banner_log: list = []      # titles of the banners shown, in order
        self.closed = False
        self._yaku_cache: dict = {}
        self._squash: dict = {}
        self._shadow_cache: dict = {}
        self.lay: Optional[board.Layout] = None
        self._spread: Optional[int] = None
        self.tip = HoverTimer()          # Easy practice: the card tooltip
        self.combo_rects: dict = {}      # seat -> Rect of its clickable combo preview
        self._hint_key = None
        self._hint_ids: frozenset = frozenset()
        self.inspector = None            # the open combo inspector, if any
        self.last_turn_text: Optional[str] = None   # friend matches: what the other player just did
        self.size = tuple(app.size)
        self._metrics(self.size)
        self._start()
        self.animating = True

    # ------------------------------------------------------------------ setup
    def _speed(self) -> float:
        try:
            return float(self.app.settings.get("anim_speed", 1.0))
        except (AttributeError, TypeError, ValueError):
            return 1.0

    def practice(self) -> bool:
        """Practice hints: on against a CPU level that has them (Easy; never in friend matches)."""
        try:
            s = self.session
            if s.is_hotseat:
                return False
            other = s.seats[1 - self.me]
            return other.kind == "cpu" and hints_on(other.level)
        except (AttributeError, IndexError):
            return False

    def name_style(self) -> str:
        return hints.style_of(getattr(self.app, "settings", {}))

    def _card_scale(self) -> float:
        try:
            return float(self.app.settings.get("card_scale", 1.0))
        except (AttributeError, TypeError, ValueError):
            return 1.0

    def _month_numbers(self) -> bool:
        try:
            return bool(self.app.settings.get("month_numbers", True))
        except AttributeError:
            return True

    def _start(self) -> None:
        """Pick up the match where it is: animate the latest deal, or show the table as is."""
        st = self.session.state
        events = st.events
        last_deal = None
        for i in range(len(events) - 1, -1, -1):
            if isinstance(events[i], RoundDealt):
                last_deal = i
                break
            if isinstance(events[i], (Played, OyagimeSpread)):
                break
        v = self.session.view(self.me)
        self.model.sync(v)
        if last_deal is not None:
            scores = None
            for e in events[:last_deal]:
                if isinstance(e, RoundEnded):
                    scores = e.row.scores
            if scores is None:
                start = st.rules.starting_points if st.rules.scoring_mode == "zero_sum" else 0
                scores = (start, start)
            self.model.scores = tuple(scores)
            self.model.hand, self.model.field, self.model.opp = [], [], 0
            self.model.captured, self.model.stock = [[], []], 48
            self.model.slots = {}
            self.shown = last_deal
        else:
            self.shown = len(events)
        self._relayout(instant=True)
        self._pending_curtain = None
        if self.session.is_hotseat and last_deal is None and v.phase not in ("oyagime", "over"):
            self._pending_curtain = self.session.state.to_move   # pushed on the first update

    def enter(self) -> None:
        """Uncovered (a pause menu or an overlay closed): no stale tooltip; a new card size applies."""
        self.tip.hide()
        if self.lay is not None and getattr(self, "_scale_used", 1.0) != self._card_scale():
            self._metrics(self.size)
            self._relayout(instant=True)

    def exit(self) -> None:
        """Off the stack (the next round, the title): the window-sized layers go now,
        16 MB at 1920x1080. The scene itself is freed only when the garbage collector
        gets to its reference cycles, which in a long match took several rounds; were
        it shown again, ``draw`` would make them anew."""
        self._bg = self._bg_sig = None
        self._layer = self._layer_sig = None
        self._shadow_cache.clear()
        self._squash.clear()
        self._yaku_cache.clear()

    def resize(self, size) -> None:
        self.size = tuple(size)
        self._metrics(self.size)
        self._relayout(instant=True)

    def _metrics(self, size) -> None:
        self.s = theme.scale(size)
        ch, _ = board.metrics(size)
        f = self.assets.font
        self.f_small = f(max(9, int(ch * 0.13)))
        self.f_body = f(max(10, int(ch * 0.155)))
        self.f_bold = f(max(10, int(ch * 0.16)), True)
        self.f_score = f(max(12, int(ch * 0.3)), True)
        self.f_big = f(max(14, int(ch * 0.42)), True)
        self.f_banner_sub = f(max(11, int(ch * 0.2)))
        self._squash.clear()
        self._shadow_cache.clear()
        self._bg = None
        self._bg_sig = None
        self._layer = None
        self._layer_sig = None

    # ------------------------------------------------------------------ layout -> sprites
    def _targets(self, lay: board.Layout) -> dict:
        """key -> (centre x, centre y, height, layer, z, face up?, card id)."""
        out = {}
        m = self.model
        for z, cid in enumerate(lay.hand_order):
            out[cid] = (*_center(lay.hand[cid]), L_HAND, z, True, cid)
        for z, r in enumerate(lay.opponent_hand):
            out[f"opp{z}"] = (*_center(r), L_OPP, z, False, None)
        for z, cid in enumerate(lay.field_order):
            out[cid] = (*_center(lay.field[cid]), L_FIELD, z, True, cid)
        for cid, under in m.onto.items():
            r = lay.field.get(under)
            if r is None:
                r = lay.flip
            r = r.move(int(lay.card_w * 0.22), int(lay.card_h * 0.16))
            out[cid] = (*_center(r), L_FIELD, 100, True, cid)
        if m.flip is not None:
            out[m.flip] = (*_center(lay.flip), L_FIELD, 200, True, m.flip)
        for s in (0, 1):
            for z, cid in enumerate(lay.captured_order[s]):
                out[cid] = (*_center(lay.captured[s][cid]), L_PILE, z, True, cid)
        for k, (key, cid) in enumerate(m.oyagime):
            r = lay.field_slots[(2, 3, 8, 9)[k % 4]]
            out[key] = (*_center(r), L_FIELD, k, cid is not None, cid)
        return out

    def _relayout(self, *, instant: bool = False, fly=(), duration: float = PLAY_TIME,
                  delays: Optional[dict] = None, flips=(), on_land: Optional[dict] = None,
                  easing=anim.out_cubic, keep=(), timeline: Optional[anim.Timeline] = None) -> board.Layout:
        m = self.model
        m.place_field()
        self._spread = self._spread_month()
        self._scale_used = self._card_scale()
        lay = board.layout(self.size, m, slots=m.slots, spread_month=self._spread,
                           card_scale=self._scale_used)
        self.lay = lay
        targets = self._targets(lay)
        stock_pos = _center(lay.stock)
        for key, (cx, cy, h, layer, z, face, cid) in targets.items():
            sp = self.sprites.get(key)
            if sp is None:
                sp = CardSprite(key, cid, stock_pos if not instant else (cx, cy, h), face if instant else False)
                self.sprites[key] = sp
            sp.cid = cid     # None for every card this seat may not see
            sp.layer, sp.z = layer, z
            end = (cx, cy, h)
            if instant or self.tl.instant:
                self._stop_move(sp)
                sp.pos = end
                sp.flying = False
                if sp.flipping is not None:
                    sp.flipping.done = True
                    sp.flipping = None
                sp.sx = 1.0
                sp.face = face
                sp.visible = True
                continue
            if key == self.drag:
                continue
            if sp.pos != end or key in fly:
                self._move(sp, end, duration if key in fly else duration * 0.8,
                           delay=(delays or {}).get(key, 0.0), easing=easing,
                           fly=key in fly, on_land=(on_land or {}).get(key), timeline=timeline)
            if sp.face != face:
                if key in flips:
                    self._flip(sp, face, delay=(delays or {}).get(key, 0.0) + duration * 0.2,
                               duration=min(FLIP_TIME, duration * 0.7))
                elif sp.flipping is None:
                    sp.face = face
        for key in list(self.sprites):
            if key not in targets and key not in keep:
                del self.sprites[key]
        if self.drag is None:
            self.hover = lay.hand_at(self.pointer.pos)
        return lay

    def _stop_move(self, sp: CardSprite) -> None:
        if sp.move is not None:
            sp.move.done = True
            sp.move = None

    def _move(self, sp: CardSprite, end: tuple, duration: float, *, delay: float = 0.0,
              easing=anim.out_cubic, fly: bool = False, on_land=None,
              timeline: Optional[anim.Timeline] = None) -> None:
        self._stop_move(sp)
        if fly:
            sp.flying = True

        def done(sp=sp, on_land=on_land):
            sp.flying = False
            sp.move = None
            if on_land is not None:
                on_land(sp)
        sp.move = (timeline or self.tl).tween(sp, sp.pos, end, duration, easing, done, attr="pos", delay=delay)

    def _flip(self, sp: CardSprite, face: bool, *, delay: float = 0.0, duration: float = FLIP_TIME,
              sound: bool = False) -> None:
        """A real flip: squash to nothing, swap the face, open out again."""
        start_face = sp.face

        def step(t, sp=sp):
            sp.sx = max(0.0, abs(1.0 - 2.0 * t))
            sp.face = start_face if t < 0.5 else face

        def done(sp=sp):
            sp.flipping = None
            sp.sx = 1.0
            sp.face = face
        if sound:
            self.tl.tween(None, 0, 1, 0.0, anim.linear, lambda: self._sound("flip"), delay=delay)
        if sp.flipping is not None:
            sp.flipping.done = True
        sp.flipping = self.tl.tween(step, 0.0, 1.0, duration, anim.linear, done, delay=delay)

    def _pop(self, sp: CardSprite) -> None:
        self.fx.tween(sp, 0.0, 1.0, 0.22, anim.pop, attr="pop")

    def _shake(self, sp: Optional[CardSprite]) -> None:
        """An illegal gesture: a little side-to-side shake (never blocks input)."""
        if sp is not None:
            self.fx.tween(sp, 0.0, 1.0, 0.36, anim.shake, attr="shake")

    def _sound(self, name: str) -> None:
        try:
            self.assets.play(name)
        except Exception:  # never let a sound break the table
            log.debug("sound %s failed", name, exc_info=True)

    # ------------------------------------------------------------------ events -> steps
    def _pump(self) -> bool:
        """Queue animations for events not shown yet; True if there were any."""
        events = self.session.state.events
        if self.shown >= len(events):
            return False
        new = self.session.public_events(self.me, self.shown)
        start = self.shown
        self.shown = len(events)
        for k, e in enumerate(new):
            self._queue(e, start + k)
        return True

    def _queue(self, e, index: int) -> None:
        tl = self.tl
        if isinstance(e, RoundDealt):
            tl.then(lambda e=e, i=index: self._step_deal(e, i))
        elif isinstance(e, Played):
            tl.then(lambda e=e: self._step_play(e))
            if e.taken:
                tl.then(lambda e=e: self._step_capture(e.seat, e.card, e.taken))
        elif isinstance(e, Flipped):
            tl.then(lambda e=e: self._step_flip(e))
            if e.taken is not None:
                tl.then(lambda e=e: self._step_flip_land(e))
                if e.taken:
                    tl.then(lambda e=e: self._step_capture(e.seat, e.card, e.taken))
        elif isinstance(e, Chose):
            tl.then(lambda e=e: self._step_onto(e.card, e.target, from_flip=True))
            tl.then(lambda e=e: self._step_capture(e.seat, e.card, (e.target,)))
        elif isinstance(e, YakuMade):
            tl.then(lambda e=e: self._step_yaku(e))
        elif isinstance(e, KoiKoiCalled):
            tl.then(lambda e=e: self._step_koikoi(e))
        elif isinstance(e, Stopped):
            tl.then(lambda e=e: self._step_stopped(e))
        elif isinstance(e, Exhausted):
            tl.then(lambda: self._announce("No game", "流局  Both hands are empty", "stop", 1.0))
        elif isinstance(e, Misdeal):
            tl.then(lambda e=e: self._step_misdeal(e))
        elif isinstance(e, FieldSwept):
            tl.then(lambda e=e: self._step_swept(e))
        elif isinstance(e, LuckyHand):
            tl.then(lambda e=e: self._step_lucky(e))
        elif isinstance(e, RoundEnded):
            tl.then(lambda e=e: self._step_round_ended(e))
        elif isinstance(e, MatchEnded):
            tl.then(lambda e=e: self._step_match_ended(e))
        elif isinstance(e, OyagimeSpread):
            tl.then(lambda e=e: self._step_oyagime_spread(e))
        elif isinstance(e, OyagimePicked):
            tl.then(lambda e=e: self._step_oyagime_pick(e))
        elif isinstance(e, OyagimeDecided):
            tl.then(lambda e=e: self._step_oyagime_decided(e))

    def name(self, seat: int) -> str:
        try:
            return self.session.seats[seat].name
        except (AttributeError, IndexError):
            return f"Player {seat + 1}"

    # -- dealing
    def _gather(self) -> float:
        """Every card on the table goes back to the stock (face down)."""
        lay = self.lay
        if not self.sprites:
            return 0.0
        end = _center(lay.stock)
        for k, sp in enumerate(list(self.sprites.values())):
            self._move(sp, end, 0.3, delay=k * 0.006, easing=anim.in_out_sine, fly=True)
            if sp.face:
                self._flip(sp, False, duration=0.2)
        self._sound("shuffle")

        def clear():
            self.sprites.clear()
            return 0.0
        self.tl.steps.appendleft(clear)
        return 0.42

    def _step_deal(self, e: RoundDealt, index: int) -> float:
        if self.session.is_hotseat and e.dealer != self.me and self.overlay is None:
            # the dealer sees their hand dealt: pass the device first
            self.tl.steps.appendleft(lambda e=e, i=index: self._step_deal(e, i))
            self._curtain(e.dealer, then_resync=False)
            return 0.0
        if self.sprites:
            self.tl.steps.appendleft(lambda e=e, i=index: self._step_deal(e, i))
            waited = self._gather()
            return waited
        m = self.model
        if self.session.is_hotseat:
            e = self.session.public_events(self.me, index)[0]
        m.seat = self.me
        m.hand = [c for c in e.hands[self.me] if c is not None]
        m.sort_hand()
        m.opp = len(e.hands[1 - self.me])
        m.field = list(e.field)
        m.slots = {}
        m.captured = [[], []]
        m.flip = None
        m.onto = {}
        m.oyagime = []
        m.stock = len(e.stock)
        m.round = e.round
        m.dealer = e.dealer
        m.turn = e.dealer
        m.calls = (0, 0)
        self.selected = self.target_cursor = None
        self._yaku_cache.clear()
        self.stock_extra = 16 + len(e.field)
        self._relayout(instant=False, duration=0.0)
        for sp in self.sprites.values():   # everything waits on the stock, hidden
            self._stop_move(sp)
            sp.pos = _center(self.lay.stock)
            sp.visible = False
            sp.face = False
        self._sound("shuffle")
        # Packets of two: the other seat, the field, the dealer; four times.
        other = 1 - e.dealer
        hand_keys = {self.me: list(self.lay.hand_order),
                     1 - self.me: [f"opp{i}" for i in range(len(self.lay.opponent_hand))]}
        field_keys = list(m.field)
        order = []
        for r in range(4):
            for who in ("other", "field", "dealer"):
                keys = (hand_keys[other] if who == "other" else hand_keys[e.dealer] if who == "dealer"
                        else field_keys)[2 * r:2 * r + 2]
                if keys:
                    order.append(keys)
        extra = hand_keys[other][8:] + field_keys[8:] + hand_keys[e.dealer][8:]
        if extra:
            order.append(extra)
        targets = self._targets(self.lay)

        def packet(keys):
            for key in keys:
                sp = self.sprites.get(key)
                if sp is None:
                    continue
                sp.visible = True
                cx, cy, h, layer, z, face, cid = targets[key]
                self._move(sp, (cx, cy, h), 0.34, easing=anim.out_cubic, fly=True)
                if face:
                    self._flip(sp, True, delay=0.12, duration=0.22)
            self.stock_extra = max(0, self.stock_extra - len(keys))
            self._sound("deal")
            return DEAL_STEP * 1.6
        for keys in reversed(order):
            self.tl.steps.appendleft(lambda keys=keys: packet(keys))
        return 0.15

    def _step_misdeal(self, e: Misdeal) -> float:
        why = {"four_of_a_month": "Four cards of one month on the field",
               "four_pairs": "Four pairs on the field",
               "lucky_hand": "A lucky hand was dealt"}.get(e.reason, e.reason)
        return self._announce("Misdeal", f"{why}: redeal", "shuffle", 1.2, cards=e.cards)

    def _step_swept(self, e: FieldSwept) -> float:
        m = self.model
        for c in e.cards:
            if c in m.field:
                m.field.remove(c)
        m.captured[e.seat].extend(e.cards)
        self._relayout(fly=set(e.cards), duration=CAPTURE_TIME)
        self._sound("capture")

        def replace():
            m.field.extend(e.replacements)
            m.stock -= len(e.replacements)
            self._relayout(fly=set(e.replacements), flips=set(e.replacements), duration=PLAY_TIME)
            self._sound("flip")
            return PLAY_TIME + 0.1
        self.tl.steps.appendleft(replace)
        self._show_banner("Field sweep", f"{self.name(e.seat)} takes the four of a month", 1.4, cards=e.cards)
        return CAPTURE_TIME + 0.2

    def _step_lucky(self, e: LuckyHand) -> float:
        names = " + ".join(f"{y.kanji} {y.romaji}" for y in map(Y.info, e.hands))
        return self._announce(names, f"{self.name(e.seat)}: a lucky hand, {e.points} points", "yaku", 1.8,
                              cards=e.cards)

    # -- a turn
    def _take_from_hand(self, seat: int, cid: str) -> Optional[CardSprite]:
        m = self.model
        if seat == self.me:
            if cid in m.hand:
                m.hand.remove(cid)
            if self.selected == cid:
                self.selected = None
            self.target_cursor = None
            if self.drag == cid:
                self.drag = None
            return self.sprites.get(cid)
        # the opponent's card: the last back in their hand turns into it
        if m.opp > 0:
            key = f"opp{m.opp - 1}"
            back = self.sprites.pop(key, None)
            m.opp -= 1
            if back is not None:
                sp = CardSprite(cid, cid, back.pos, False)
                self.sprites[cid] = sp
                return sp
        return None

    def _step_play(self, e: Played) -> float:
        m = self.model
        m.turn = e.seat
        sp = self._take_from_hand(e.seat, e.card)
        if e.taken:
            under = e.target if e.target else e.taken[0]
            m.onto[e.card] = under
        else:
            m.field.append(e.card)
        flips = {e.card} if sp is not None and not sp.face else set()

        def land(sp):
            self._sound("snap")
            self._pop(sp)
        self._relayout(fly={e.card}, flips=flips, on_land={e.card: land}, duration=PLAY_TIME)
        return PLAY_TIME + (0.16 if e.taken else 0.04)

    def _step_capture(self, seat: int, cid: str, taken) -> float:
        m = self.model
        m.onto.pop(cid, None)
        if m.flip == cid:
            m.flip = None
        for t in taken:
            if t in m.field:
                m.field.remove(t)
        if cid in m.field:
            m.field.remove(cid)
        m.captured[seat].extend([cid, *taken])
        moving = [cid, *taken]
        delays = {k: i * 0.04 for i, k in enumerate(moving)}
        first = {moving[0]: lambda sp: self._sound("capture")}
        self._relayout(fly=set(moving), delays=delays, duration=CAPTURE_TIME, on_land=first,
                       easing=anim.in_out_cubic)
        return CAPTURE_TIME + 0.04 * len(moving) + 0.04

    def _step_flip(self, e: Flipped) -> float:
        m = self.model
        m.turn = e.seat
        m.stock = max(0, m.stock - 1)
        m.flip = e.card
        lay = self._relayout(duration=0.0)
        sp = self.sprites[e.card]
        sp.pos = _center(lay.stock)
        sp.face = False
        sp.flying = True
        self._move(sp, _center(lay.flip), 0.22, easing=anim.out_cubic, fly=True)
        self._flip(sp, True, delay=0.2, duration=FLIP_TIME, sound=True)
        return 0.22 + FLIP_TIME + (0.12 if e.taken else 0.05)

    def _step_flip_land(self, e: Flipped) -> float:
        if e.taken:
            return self._step_onto(e.card, e.taken[0], from_flip=True)
        m = self.model
        m.flip = None
        m.field.append(e.card)

        def land(sp):
            self._sound("snap")
            self._pop(sp)
        self._relayout(fly={e.card}, on_land={e.card: land}, duration=PLAY_TIME)
        return PLAY_TIME + 0.04

    def _step_onto(self, cid: str, under: str, from_flip: bool = False) -> float:
        m = self.model
        if m.flip == cid:
            m.flip = None
        m.onto[cid] = under

        def land(sp):
            self._sound("snap")
            self._pop(sp)
        self._relayout(fly={cid}, on_land={cid: land}, duration=PLAY_TIME)
        return PLAY_TIME + 0.16

    # -- announcements
    def _step_yaku(self, e: YakuMade) -> float:
        who = "You" if self._you(e.seat) else self.name(e.seat)
        lines = [f"{Y.info(n).kanji}  {Y.info(n).romaji}  {p}" for n, p in e.yaku]
        self._sound("yaku")
        self._show_banner("  ·  ".join(lines) if len(lines) <= 2 else f"{len(lines)} yaku · {e.total} points",
                          f"{who}: {e.total} point{'s' if e.total != 1 else ''}", 2.0, big=True)
        return 0.7

    def _you(self, seat: int) -> bool:
        return seat == self.me and not self.session.is_hotseat and self.session.seats[seat].kind == "human"

    def _step_koikoi(self, e: KoiKoiCalled) -> float:
        calls = list(self.model.calls)
        calls[e.seat] = e.calls
        self.model.calls = tuple(calls)
        title = "You call Koi-Koi!" if self._you(e.seat) else f"{self.name(e.seat)} calls Koi-Koi!"
        times = "" if e.calls == 1 else f" (call {e.calls})"
        return self._announce(title, f"こいこい — the round goes on{times}", "koikoi", 1.1,
                              color=theme.LACQUER_LIGHT)

    def _step_stopped(self, e: Stopped) -> float:
        if e.auto:
            title = f"{'You win' if self._you(e.seat) else self.name(e.seat) + ' wins'} the round"
            sub = "勝負 Shōbu: the rules end the round here"
        else:
            title = "You stop!" if self._you(e.seat) else f"{self.name(e.seat)} stops!"
            sub = "勝負 Shōbu: the round ends and scores"
        return self._announce(title, sub, "stop", 1.0)

    def _announce(self, title: str, sub: str, sound: Optional[str], wait: float, *, cards=(),
                  color=None) -> float:
        if sound:
            self._sound(sound)
        self._show_banner(title, sub, wait + 0.8, cards=cards, color=color)
        return wait

    def _show_banner(self, title: str, sub: str, life: float, *, cards=(), big: bool = False,
                     color=None) -> None:
        ch = self.lay.card_h if self.lay else 100
        tf = self.f_big if not big else self.assets.font(max(14, int(ch * 0.34)), True)
        title_img = W.render_text(title, tf, color or theme.GOLD_LIGHT)
        sub_img = W.render_text(sub, self.f_banner_sub, theme.CREAM)
        thumbs = []
        if cards:
            th = max(8, int(ch * 0.62))
            thumbs = [self.assets.card(c, th, month_number=self._month_numbers()) for c in cards if c]
        pad = max(6, int(ch * 0.16))
        tw = sum(t.get_width() for t in thumbs) + max(0, len(thumbs) - 1) * pad // 2
        w = max(title_img.get_width(), sub_img.get_width(), tw) + pad * 4
        h = title_img.get_height() + sub_img.get_height() + pad * 2 + (thumbs[0].get_height() + pad if thumbs else 0)
        w = min(w, self.size[0] - 8)
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        surf.blit(W.rounded_surface((w, h), max(4, pad), (40, 10, 14, 236), bottom=(18, 6, 8, 236),
                                    border=theme.GOLD, border_width=max(1, int(ch / 60))), (0, 0))
        y = pad
        surf.blit(title_img, title_img.get_rect(midtop=(w // 2, y)))
        y += title_img.get_height()
        surf.blit(sub_img, sub_img.get_rect(midtop=(w // 2, y)))
        y += sub_img.get_height() + pad // 2
        x = (w - tw) // 2
        for t in thumbs:
            surf.blit(t, (x, y))
            x += t.get_width() + pad // 2
        self.banner = Banner(surf, life)
        self.banner_log.append(title)

    # -- the end of a round
    def _step_round_ended(self, e: RoundEnded) -> float:
        self.model.scores = tuple(e.row.scores)
        self.model.turn = None

        def show():
            self.tl.hold()
            self._push_results(e)
            return 0.0
        self.tl.steps.appendleft(show)
        return 0.5

    def _push_results(self, e: RoundEnded) -> None:
        self.banner = None
        def closed():
            if self.overlay is not scene:
                return   # closed twice
            self._pop_overlay(scene)
            self.tl.release()
        self._results_close = closed
        try:
            from .results import RoundResultsScene
            scene = RoundResultsScene(self.app, self.session, e, on_close=closed)
        except ImportError:
            from .prompt import RoundSummaryScene
            scene = RoundSummaryScene(self.app, self.session, e, on_close=closed)
        self._push_overlay(scene)

    def _step_match_ended(self, e: MatchEnded) -> float:
        self.closed = True
        try:
            from .ledger import MatchResultsScene
        except ImportError:
            from .prompt import MatchSummaryScene as MatchResultsScene
        self.app.replace(MatchResultsScene(self.app, self.session))
        return 0.0

    # -- oya-gime (who deals first), when the match starts on this table
    def _step_oyagime_spread(self, e: OyagimeSpread) -> float:
        self.model.oyagime = [(f"oya{i}", None) for i in range(len(e.cards))]
        self.model.stock = 48 - len(e.cards)
        self._relayout(fly={k for k, _ in self.model.oyagime})
        return PLAY_TIME

    def _step_oyagime_pick(self, e: OyagimePicked) -> float:
        m = self.model
        m.oyagime = [(k, e.card if i == e.index else c) for i, (k, c) in enumerate(m.oyagime)]
        key = m.oyagime[e.index][0]
        sp = self.sprites.get(key)
        if sp is not None:
            sp.cid = e.card
            self._flip(sp, True, sound=True)
        return FLIP_TIME + 0.3

    def _step_oyagime_decided(self, e: OyagimeDecided) -> float:
        if e.dealer is None:
            return self._announce("Same month", "Draw again", None, 1.2)
        who = "You deal" if e.dealer == self.me and not self.session.is_hotseat else f"{self.name(e.dealer)} deals"
        return self._announce("親 Oya", f"{who} first: the earlier month deals", "click", 1.4)

    # ------------------------------------------------------------------ overlays
    def _push_overlay(self, scene) -> None:
        self.overlay = scene
        self.pointer.reset()
        self.drag = None
        self.app.push(scene)

    def _pop_overlay(self, scene) -> None:
        """Remove ``scene`` if it is still stacked (the overlay may have closed itself)."""
        if self.overlay is scene:
            self.overlay = None
        stack = getattr(self.app, "scenes", None)
        if stack is not None and scene in stack:
            remove = getattr(self.app, "remove", None)
            if remove is not None:
                remove(scene)
            elif stack[-1] is scene:
                self.app.pop()

    def _curtain(self, seat: Optional[int], then_resync: bool = True) -> None:
        if seat is None:
            return
        from .curtain import CurtainScene
        self.tl.hold()

        prev = self.me

        def ready():
            self._pop_overlay(scene)
            self.tl.release()
            self._switch_seat(seat, resync=then_resync)
            if then_resync and prev != seat:
                self._replay_last_turn(prev)
        scene = CurtainScene(self.app, f"{self.name(seat)}'s turn", "Pass the device, then click when ready",
                             on_ready=ready)
        self._push_overlay(scene)

    def _switch_seat(self, seat: int, resync: bool = True) -> None:
        self.me = seat
        self.model.seat = seat
        self.selected = self.target_cursor = self.drag = self.hover = None
        if resync:
            self.model.sync(self.session.view(seat))
            self.sprites.clear()
            self.shown = len(self.session.state.events)
        else:
            # a new deal follows: clear the table (the other seat's hand is never shown)
            m = self.model
            m.hand, m.opp, m.field, m.captured = [], 0, [], [[], []]
            m.flip, m.onto, m.slots = None, {}, {}
            self.sprites.clear()
        self._yaku_cache.clear()
        self._relayout(instant=True)

    # -- friend matches: the player taking the device sees the other's last turn
    _TURN_EVENTS = (Played, Flipped, Chose, YakuMade, KoiKoiCalled)

    def last_turn(self, seat: int) -> Optional[int]:
        """Index of the Played event that began ``seat``'s latest turn, if nothing but that
        turn has happened since (no deal, no round end)."""
        events = self.session.state.events
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            if not isinstance(e, self._TURN_EVENTS) or getattr(e, "seat", seat) != seat:
                return None
            if isinstance(e, Played):
                return i
        return None

    def turn_summary(self, seat: int, start: int) -> tuple[str, list]:
        """"played Crane and took Pine; turned up Geese" and the cards involved."""
        def called(cid):
            c = card_of(cid)
            return c.name if c.kind != Kind.CHAFF or c.name == "Lightning" else f"a {c.name} plain"
        parts, cards = [], []
        for e in self.session.state.events[start:]:
            if isinstance(e, Played):
                cards.append(e.card)
                text = f"played {called(e.card)}"
                if e.taken:
                    text += " and took " + " and ".join(called(t) for t in e.taken)
                    cards.extend(e.taken)
                parts.append(text)
            elif isinstance(e, Flipped):
                cards.append(e.card)
                text = f"turned up {called(e.card)}"
                if e.taken:
                    text += ", taking " + " and ".join(called(t) for t in e.taken)
                    cards.extend(e.taken)
                parts.append(text)
            elif isinstance(e, Chose):
                parts.append(f"took {called(e.target)} with it")
                cards.append(e.target)
            elif isinstance(e, KoiKoiCalled):
                parts.append("called Koi-Koi")
        return "; ".join(parts), cards

    def _replay_last_turn(self, seat: int) -> None:
        """After the curtain: replay ``seat``'s last turn on the new player's table, with a banner
        "Player 1 played X and took Y". Falls back to the banner alone."""
        start = self.last_turn(seat)
        if start is None:
            return
        text, cards = self.turn_summary(seat, start)
        self.last_turn_text = f"{self.name(seat)} {text}"
        try:
            from ...engine import replay as replay_events
            from ...engine import view as view_of
            before = replay_events(self.session.state.events[:start])
            self.model.sync(view_of(before, self.me))
            self.sprites.clear()
            self.shown = start
            self._relayout(instant=True)
        except Exception:   # the banner still tells what happened
            log.exception("could not replay the last turn")
        title = f"{self.name(seat)}'s last turn"
        sub = W.ellipsize(text[:1].upper() + text[1:], self.f_banner_sub, max(40, self.size[0] - 80))
        self._show_banner(title, sub, 2.2, cards=cards[:6])
        self.tl.then_wait(1.3)      # a moment to read the banner before the cards move

    def _prompt(self) -> None:
        from .prompt import KoiKoiPromptScene

        def choice(action):
            self._pop_overlay(scene)
            self._send(action)
        scene = KoiKoiPromptScene(self.app, self.session, self.me, choice)
        self._push_overlay(scene)

    # ------------------------------------------------------------------ acting
    def _send(self, action) -> bool:
        """Apply ``action`` if it is legal now; True if it was applied."""
        legal = self.session.legal()
        if not gestures.is_legal(action, legal):
            return False
        self.session.apply(action)
        self.applied.append(action)
        self.selected = self.target_cursor = None
        self.cpu_action, self.cpu_wait = None, 0.0
        self._pump()
        return True

    def at_rest(self) -> bool:
        """Nothing moving or queued, every event shown, no overlay of ours open."""
        return (not self.tl.busy and self.overlay is None and not self.closed
                and self.shown >= len(self.session.state.events))

    def my_turn(self) -> bool:
        st = self.session.state
        return (self.at_rest() and st.to_move == self.me
                and self.session.seats[self.me].kind == "human")

    def view(self):
        return self.session.view(self.me)

    # ------------------------------------------------------------------ update
    def update(self, dt: float) -> None:
        if self._pending_curtain is not None and self.overlay is None:
            seat, self._pending_curtain = self._pending_curtain, None
            self._curtain(seat)
            return
        self.tl.speed = self.fx.speed = self._speed()
        self.tl.update(dt)
        self.fx.update(dt)
        if self.banner is not None:
            self.banner.t += dt * max(0.5, self.tl.speed if self.tl.speed > 0 else 2.0)
            if self.banner.t >= self.banner.life:
                self.banner = None
        if not self.tl.busy and self.overlay is None and not self.closed:
            if not self._pump():
                self._rest(dt)
        if self.lay is not None and self._spread_month() != self._spread:
            self._relayout(duration=0.2, timeline=self.fx)   # never blocks a click
        self._update_lifts(dt)
        self._update_tooltip(dt)
        for sp in self.sprites.values():
            if (sp.move is not None or sp.flipping is not None or sp.shake or sp.pop or sp.flying
                    or sp.key == self.drag):
                sp.still = 0.0
            else:
                sp.still += dt
        self.animating = bool(self.tl.busy or self.fx.busy or self.banner or self.drag or self.cpu_thinking()
                              or self._lifts_moving)

    # ------------------------------------------------------------------ practice
    def face_card_at(self, pos) -> Optional[CardSprite]:
        """The face-up card drawn topmost under ``pos``; None over a face-down card or nothing.

        Face-down sprites are never described: one on top hides whatever lies below it.
        """
        if self.lay is None:
            return None
        sprites = sorted((sp for sp in self.sprites.values() if sp.visible),
                         key=lambda sp: (L_FLY if sp.flying and sp.layer != L_DRAG else sp.layer, sp.z))
        for sp in reversed(sprites):
            if self._sprite_rect(sp).move(0, -int(sp.lift)).collidepoint(pos):
                if sp.face and sp.cid is not None and sp.sx > 0.5:
                    return sp
                return None
        return None

    def _update_tooltip(self, dt: float) -> None:
        enabled = (self.practice() and self.drag is None and self.overlay is None
                   and getattr(self.app, "top", self) is self)
        sp = self.face_card_at(self.pointer.pos) if enabled else None
        if sp is None:
            self.tip.update(dt, None, None, self.pointer.pos, False)
        else:
            self.tip.update(dt, sp.key, sp.cid, self.pointer.pos, True)

    def hint_glow(self) -> frozenset:
        """Easy practice: the hand cards that would capture now (cached per state)."""
        key = (len(self.session.state.events), self.me)
        if key != self._hint_key:
            self._hint_key = key
            try:
                self._hint_ids = hints.capturing_cards(self.view())
            except Exception:   # a hint must never break the table
                log.exception("hint failed")
                self._hint_ids = frozenset()
        return self._hint_ids

    def _spread_month(self) -> Optional[int]:
        """The month whose two field cards the player is choosing between (laid apart)."""
        if getattr(self, "tl", None) is None or self.tl.busy or self.session.state.to_move != self.me:
            return None
        phase = self._phase()
        if phase == "choose_match" and self.model.flip is not None:
            return card_of(self.model.flip).month
        cid = self.drag or self.selected
        if phase == "play" and cid is not None:
            month = card_of(cid).month
            if sum(1 for c in self.model.field if card_of(c).month == month) == 2:
                return month
        return None

    def cpu_thinking(self) -> bool:
        return self.at_rest() and self.session.is_cpu_turn()

    def _rest(self, dt: float) -> None:
        v = self.view()
        if self.model.differs(v):
            self.resyncs += 1
            log.warning("displayed table differs from the view; resynchronising")
            self.model.sync(v)
            self._relayout()
        self.model.turn = v.to_move
        self.model.calls = tuple(v.calls)
        if v.phase == "over":
            return
        seat = v.to_move
        if seat is None:
            return
        if self.session.is_cpu_turn():
            if self.cpu_action is None:
                self.session.start_cpu()
                try:
                    self.cpu_action = self.session.poll_cpu()
                except RuntimeError:
                    # a broken CPU must not freeze the table: it plays its first legal move
                    log.exception("the CPU player failed; playing its first legal action")
                    legal = self.session.legal()
                    self.cpu_action = legal[0] if legal else None
            self.cpu_wait += dt * (self.tl.speed if self.tl.speed > 0 else 100.0)
            pause = CPU_DECIDE_PAUSE if v.phase == "decide" else CPU_PAUSE
            if self.cpu_action is not None and self.cpu_wait >= pause:
                action, self.cpu_action = self.cpu_action, None
                if not self._send(action):
                    log.warning("the CPU chose an illegal action %r", action)
            return
        if self.session.is_hotseat and seat != self.me:
            self._curtain(seat)
            return
        if seat == self.me and v.phase == "decide":
            self._prompt()

    _lifts_moving = False

    def _update_lifts(self, dt: float) -> None:
        """Ease hand cards up under the pointer and when selected; everything else down."""
        lay = self.lay
        if lay is None:
            return
        k = min(1.0, dt * 18.0)
        moving = False
        target_lift = lay.card_h * 0.12
        in_hand = lay.hand
        for key, sp in self.sprites.items():
            if key in in_hand and key != self.drag:
                want = (target_lift if key == self.selected else
                        target_lift * 0.45 if key == self.hover else 0.0)
            else:
                want = 0.0
            if sp.lift == want:
                continue
            if abs(sp.lift - want) > 0.3 and key != self.drag:
                sp.lift += (want - sp.lift) * k
                moving = True
            else:
                sp.lift = want
        self._lifts_moving = moving

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            try:
                return self._key(event)
            except (ValueError, KeyError, IndexError, AttributeError, TypeError):
                # mashing keys mid-animation must never take the table down
                log.exception("key %r ignored", getattr(event, "key", None))
                return True
        if event.type == getattr(pygame, "WINDOWLEAVE", -1):
            self.pointer.pos = (-10000, -10000)
            self.hover = None
            self.tip.hide()
            return False
        if event.type == pygame.MOUSEMOTION:
            self._hover_at(event.pos)
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            return False
        used = False
        for g in self.pointer.feed(event):
            used = self._gesture(g) or used
        return used or event.type != pygame.MOUSEMOTION

    def _hover_at(self, pos) -> None:
        lay = self.lay
        if lay is None or self.drag is not None:
            return
        cid = lay.hand_at(pos)
        self.hover = cid

    def _phase(self) -> str:
        return self.session.state.phase_name

    def _gesture(self, g: gestures.Gesture) -> bool:
        lay = self.lay
        if g.kind == "click" and self.drag is None:
            for seat, rect in list(self.combo_rects.items()):
                if rect.collidepoint(g.pos) and rect.collidepoint(g.start):
                    self.open_inspector(seat)
                    return True
        if g.kind == "cancel":
            if self._phase() == "choose_match":
                return True   # the stock choice cannot be cancelled
            had = self.selected is not None or self.drag is not None
            self._cancel()
            return had
        phase = self._phase()
        if g.kind == "drag_start" and phase == "choose_match":
            return self._drag_flip(g)
        if g.kind == "drag_start":
            self.tip.hide()
            cid = lay.hand_at(g.start)
            if cid is not None and self.my_turn() and phase == "play":
                sp = self.sprites.get(cid)
                if sp is None:
                    return False
                self.drag = cid
                self.selected = cid
                self.target_cursor = None
                self._stop_move(sp)
                self.drag_offset = (g.start[0] - sp.pos[0], g.start[1] - sp.pos[1])
                sp.layer = L_DRAG
                sp.lift = 0.0
                self._drag_to(g.pos)
                return True
            return False
        if g.kind == "drag":
            if self.drag is not None:
                self._drag_to(g.pos)
                return True
            return False
        if g.kind == "drop":
            if self.drag is None:
                return self._click(g.pos)   # a sloppy click off a hand card
            return self._drop(g.pos)
        if g.kind == "click":
            return self._click(g.pos)
        return False

    def _drag_to(self, pos) -> None:
        sp = self.sprites.get(self.drag)
        if sp is not None:
            sp.pos = (pos[0] - self.drag_offset[0], pos[1] - self.drag_offset[1], sp.pos[2])

    def _drag_flip(self, g: gestures.Gesture) -> bool:
        """Pick up the turned stock card to drop it on the field card it should take."""
        flip = self.model.flip
        sp = self.sprites.get(flip) if flip is not None else None
        if sp is None or not self.my_turn() or not self._sprite_rect(sp).collidepoint(g.start):
            return False
        self.tip.hide()
        self.drag = flip
        self.target_cursor = None
        self._stop_move(sp)
        self.drag_offset = (g.start[0] - sp.pos[0], g.start[1] - sp.pos[1])
        sp.layer = L_DRAG
        self._drag_to(g.pos)
        return True

    def _drop(self, pos) -> bool:
        if self._phase() == "choose_match":
            cid, self.drag = self.drag, None
            action = gestures.choose_for_click(self.view(), self.lay.field_at(pos))
            if action is not None and self._send(action):
                return True
            self._relayout(duration=0.22, timeline=self.fx)          # back to the flip spot
            if self.lay.on_field(pos):
                self._shake(self.sprites.get(cid))
            return True
        cid, self.drag = self.drag, None
        lay = self.lay
        v = self.view()
        target = lay.field_at(pos)
        on_field = lay.on_field(pos) and lay.hand_at(pos) is None
        action = gestures.play_for_drop(v, cid, target, on_field)
        if action is not None and self._send(action):
            return True
        sp = self.sprites.get(cid)
        matches = gestures.field_matches(v, cid)
        self._relayout(duration=0.22, timeline=self.fx)          # snap back
        if on_field or target is not None:
            if len(matches) == 2 and action is None:
                self.selected = cid         # two match: ask which, by outlining them
            else:
                self._shake(sp)
                self.selected = None
        else:
            self.selected = None
        return True

    def _click(self, pos) -> bool:
        lay = self.lay
        phase = self._phase()
        v = self.view()
        if phase == "choose_match":
            if not self.my_turn():
                return False
            target = lay.field_at(pos)
            action = gestures.choose_for_click(v, target)
            if action is not None and self._send(action):
                return True
            if lay.on_field(pos) or lay.flip.collidepoint(pos):
                self._shake(self.sprites.get(v.pending.id) if v.pending else None)
            return True
        if phase == "oyagime":
            return self._click_oyagime(pos)
        if phase != "play":
            return False
        hand_card = lay.hand_at(pos)
        if hand_card is not None:
            if not self.my_turn():
                self._shake(self.sprites.get(hand_card))
                return True
            self.target_cursor = None
            self.selected = None if self.selected == hand_card else hand_card
            if self.selected:
                self._sound("click")
            return True
        if self.selected is None or not self.my_turn():
            return False
        target = lay.field_at(pos)
        on_field = lay.on_field(pos)
        if target is None and not on_field:
            return False
        action = gestures.play_for_click(v, self.selected, target, on_field)
        if action is not None and self._send(action):
            return True
        self._shake(self.sprites.get(self.selected))
        return True

    def _click_oyagime(self, pos) -> bool:
        if not self.my_turn():
            return False
        for k, (key, cid) in enumerate(self.model.oyagime):
            sp = self.sprites.get(key)
            if sp is None or cid is not None:
                continue
            if self._sprite_rect(sp).collidepoint(pos):
                return self._send(PickOyagime(k))
        return False

    def _cancel(self) -> None:
        if self.drag is not None:
            self.drag = None
            self._relayout(duration=0.2, timeline=self.fx)
        self.selected = None
        self.target_cursor = None

    def pause(self) -> None:
        """P, or Esc with nothing selected: the app's pause menu over the table."""
        self.tip.hide()
        if self.drag is not None:
            self._cancel()
        self.pointer.reset()
        opener = getattr(self.app, "open_pause_menu", None)
        if opener is not None:
            opener()

    def open_inspector(self, seat: int) -> None:
        """The combo inspector for ``seat`` (an overlay; the table waits under it)."""
        from .inspector import InspectorScene
        self.tip.hide()
        if self.drag is not None:
            self._cancel()
        self.pointer.reset()

        def closed():
            if self.inspector is scene:
                self.inspector = None
            self._pop_overlay(scene)
        scene = InspectorScene(self.app, self.session, self.me, seat, practice=self.practice(),
                               title=self.combo_title(seat), on_close=closed,
                               you=seat == self.me and not self.session.is_hotseat)
        self.inspector = scene
        self.app.push(scene)

    def _key(self, event) -> bool:
        key = event.key
        phase = self._phase()
        if key == pygame.K_p and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            self.pause()
            return True
        if key == pygame.K_c and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            # C: your combos; Shift+C: the other side's
            self.open_inspector(1 - self.me if event.mod & pygame.KMOD_SHIFT else self.me)
            return True
        if key == pygame.K_ESCAPE:
            self.tip.hide()
            if phase == "choose_match" and self.target_cursor is not None:
                self.target_cursor = None
                return True
            if phase == "choose_match":
                return False  # the stock choice cannot be cancelled: Esc only pauses
            if self.selected is not None or self.drag is not None or self.target_cursor is not None:
                self._cancel()
                return True
            return False   # the app may pause
        if not self.my_turn():
            return False
        v = self.view()
        if phase == "choose_match":
            ids = [c.id for c in v.choices]
            if key in (pygame.K_LEFT, pygame.K_RIGHT) and ids:
                d = 1 if key == pygame.K_RIGHT else -1
                i = ids.index(self.target_cursor) if self.target_cursor in ids else (-1 if d > 0 else 0)
                self.target_cursor = ids[(i + d) % len(ids)]
                return True
            if key in gestures.CONFIRM_KEYS and ids:
                if self.target_cursor not in ids:
                    self.target_cursor = ids[0]
                    return True
                return self._send(ChooseMatch(self.target_cursor)) or True
            return False
        if phase == "oyagime":
            if key in gestures.CONFIRM_KEYS:
                for k, (_, cid) in enumerate(self.model.oyagime):
                    if cid is None and self._send(PickOyagime(k)):
                        return True
            return False
        if phase != "play":
            return False
        hand = list(self.lay.hand_order)
        if not hand:
            return False
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            d = 1 if key == pygame.K_RIGHT else -1
            if self.target_cursor is not None and self.selected:
                ms = list(gestures.field_matches(v, self.selected))
                if self.target_cursor in ms:
                    self.target_cursor = ms[(ms.index(self.target_cursor) + d) % len(ms)]
                    return True
            if self.selected in hand:
                i = (hand.index(self.selected) + d) % len(hand)
            else:
                i = 0 if d > 0 else len(hand) - 1
            self.selected = hand[i]
            self.target_cursor = None
            return True
        if key in gestures.HAND_KEYS:
            i = gestures.HAND_KEYS[key]
            if i < len(hand):
                self.selected = hand[i]
                self.target_cursor = None
                return True
            return False
        if key in gestures.CONFIRM_KEYS and self.selected in hand:
            ms = gestures.field_matches(v, self.selected)
            if len(ms) == 2:
                if self.target_cursor not in ms:
                    self.target_cursor = ms[0]   # ask first: outline the card it would take
                    return True
                action = Play(self.selected, self.target_cursor)
            else:
                action = Play(self.selected)
            if not self._send(action):
                self._shake(self.sprites.get(self.selected))
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def _card_image(self, sp: CardSprite, h: int) -> pygame.Surface:
        if sp.face and sp.cid is not None:
            img = self.assets.card(sp.cid, h, month_number=self._month_numbers())
        else:
            img = self.assets.back(h)
        if sp.sx < 0.985:
            step = max(1, int(round(sp.sx * 12)))
            key = (sp.cid if sp.face else None, h, step, self._month_numbers())
            sq = self._squash.get(key)
            if sq is None:
                if len(self._squash) > 400:
                    self._squash.clear()
                sq = pygame.transform.smoothscale(img, (max(1, img.get_width() * step // 12), img.get_height()))
                self._squash[key] = sq
            img = sq
        return img

    def _quant_h(self, h: float) -> int:
        lay = self.lay
        for s in (lay.card_h, lay.small_h, lay.back_h):
            if abs(h - s) < 1.0:
                return s
        q = max(2, lay.card_h // 24)
        return max(4, int(round(h / q)) * q)

    def _sprite_rect(self, sp: CardSprite) -> pygame.Rect:
        h = self._quant_h(sp.pos[2])
        w = board.card_size(h)[0]
        return pygame.Rect(int(sp.pos[0] - w / 2), int(sp.pos[1] - h / 2), w, h)

    def _shadow(self, size, lifted: bool) -> tuple:
        key = (size, lifted)
        got = self._shadow_cache.get(key)
        if got is None:
            spread = max(2, size[1] // (9 if lifted else 16))
            img = W.soft_shadow(size, max(2, size[1] // 30), spread=spread, alpha=150 if lifted else 115)
            off = (-spread + spread // (1 if lifted else 3), -spread + spread // (1 if lifted else 2))
            got = (img, off)
            self._shadow_cache[key] = got
        return got

    def draw(self, surface: pygame.Surface) -> None:
        lay = self.lay
        if lay is None or surface.get_size() != self.size:
            self.resize(surface.get_size())
            lay = self.lay
        sprites, glow, outline, strong = self._draw_list()
        # Cards at rest are baked into a cached layer with the felt, the panels and the stock;
        # each frame draws only what moves or glows, and whatever lies over those (so overlaps
        # keep their order).
        static, dynamic, over = [], [], []
        for sp in sprites:
            h = sp.pos[2]
            pad = h * 0.22 + sp.lift
            r = pygame.Rect(int(sp.pos[0] - h * 0.31 - pad), int(sp.pos[1] - h / 2 - pad),
                            int(h * 0.62 + 2 * pad), int(h + 2 * pad))
            if (sp.still < BAKE_AFTER or sp.flying or sp.move is not None or sp.flipping is not None
                    or sp.lift or sp.shake or sp.pop or sp.sx != 1.0 or sp.key in glow
                    or sp.key in outline or sp.layer == L_DRAG or r.collidelist(over) >= 0):
                dynamic.append(sp)
                over.append(r)
            else:
                static.append(sp)
        bg = self._background(lay)
        sig = (id(bg), self._bg_sig, self.model.stock + self.stock_extra,
               tuple((sp.key, sp.pos, sp.face, sp.cid) for sp in static))
        if self._layer_sig != sig or self._layer is None or self._layer.get_size() != self.size:
            if self._layer is None or self._layer.get_size() != self.size:
                self._layer = pygame.Surface(self.size)
                try:
                    self._layer = self._layer.convert()
                except pygame.error:
                    pass
            layer_surf = self._layer
            layer_surf.blit(bg, (0, 0))
            self._draw_stock(layer_surf, lay)
            for sp in static:
                self._blit_sprite(layer_surf, lay, sp, glow, outline, strong)
            self._layer_sig = sig
        surface.blit(self._layer, (0, 0))
        for sp in dynamic:
            self._blit_sprite(surface, lay, sp, glow, outline, strong)
        self._draw_status(surface, lay)
        if self.banner is not None:
            b = self.banner
            img = b.image
            img.set_alpha(b.alpha)
            r = img.get_rect(center=lay.field_area.center)
            surface.blit(img, r)
        self._draw_combo_hover(surface)
        if getattr(self.app, "top", self) is self and self.practice():
            draw_tooltip(surface, self.assets, self.tip, self.name_style())

    def _background(self, lay) -> pygame.Surface:
        """Felt, field bed, panels and pile summaries: drawn once per change, one blit a frame."""
        m = self.model
        sig = (self.size, id(lay), m.turn, m.dealer, m.scores, m.calls, m.round, self._phase(),
               tuple(len(c) for c in m.captured), tuple(m.field), self.me, self.name_style(), m.opp)
        if self._bg_sig != sig or self._bg is None:
            bg = self._bg if self._bg is not None and self._bg.get_size() == self.size else None
            if bg is None:
                bg = pygame.Surface(self.size)
                try:
                    bg = bg.convert()
                except pygame.error:
                    pass
            bg.blit(self.assets.table(self.size), (0, 0))
            self._draw_field_bed(bg, lay)
            self._draw_hud(bg, lay)
            self._bg, self._bg_sig = bg, sig
        return self._bg

    def _draw_field_bed(self, surface, lay) -> None:
        pad = lay.card_h // 7
        a = lay.field_grid.inflate(2 * pad, 2 * pad)
        a = a.clip(pygame.Rect(lay.field_area.x, 0, self.size[0] - lay.margin - lay.field_area.x, self.size[1]))
        surface.blit(W.rounded_surface(a.size, max(4, lay.card_h // 8), (0, 0, 0, 30)), a.topleft)
        fl = lay.flip.inflate(4, 4)
        surface.blit(W.rounded_surface(fl.size, max(3, lay.card_h // 16), (0, 0, 0, 40),
                                       border=(255, 240, 200, 40), border_width=1), fl.topleft)

    def _draw_stock(self, surface, lay) -> None:
        n = self.model.stock + self.stock_extra
        r = lay.stock
        if n > 0:
            layers = min(5, (n + 5) // 6)
            step = max(1, lay.card_h // 90)
            back = self.assets.back(lay.card_h)
            sh, off = self._shadow(r.size, False)
            surface.blit(sh, (r.x + off[0], r.y + off[1]))
            for k in range(layers):
                surface.blit(back, (r.x - k * step, r.y - k * step))
        W.draw_text(surface, str(n), self.f_bold, theme.CREAM, (r.centerx, r.bottom + lay.card_h * 0.05),
                    "midtop")

    def _draw_list(self) -> tuple:
        """The visible sprites in draw order, and which of them glow or are outlined."""
        sprites = sorted((sp for sp in self.sprites.values() if sp.visible),
                         key=lambda sp: (L_FLY if sp.flying and sp.layer != L_DRAG else sp.layer, sp.z))
        v_phase = self._phase()
        glow_ids: set = set()
        outline_ids: set = set()
        strong: Optional[str] = None
        resting = not self.tl.busy
        easy = self.practice()
        if resting and self.session.state.to_move == self.me and self.overlay is None:
            if v_phase == "play" and easy and self.my_turn():
                glow_ids.update(c for c in self.hint_glow() if c != self.drag)
            if v_phase == "play" and self.selected is not None:
                # the selection outline: every difficulty; the month's glow: Easy only
                outline_ids.add(self.selected)
                ms = [c for c in self.model.field if card_of(c).month == card_of(self.selected).month]
                if easy:
                    glow_ids.update(ms)
                outline_ids.update(ms)
                strong = self.target_cursor
            elif v_phase == "choose_match" and self.model.flip is not None:
                outline_ids.add(self.model.flip)
                ms = [c for c in self.model.field if card_of(c).month == card_of(self.model.flip).month]
                if easy:
                    glow_ids.update(ms)
                outline_ids.update(ms)
                strong = self.target_cursor
        if self.drag is not None and easy:
            ms = [c for c in self.model.field if card_of(c).month == card_of(self.drag).month and c != self.drag]
            glow_ids.update(ms)
        return sprites, glow_ids, outline_ids, strong

    def _blit_sprite(self, surface, lay, sp: CardSprite, glow_ids, outline_ids, strong) -> None:
        h = sp.pos[2]
        if sp.pop:
            h = h * (1.0 + 0.07 * sp.pop)
        hq = self._quant_h(h)
        img = self._card_image(sp, hq)
        w = img.get_width()
        x = sp.pos[0] - w / 2 + sp.shake * lay.card_w * 0.09
        y = sp.pos[1] - hq / 2 - sp.lift
        lifted = sp.flying or sp.layer == L_DRAG or sp.lift > 1
        centre = (int(x + w / 2), int(y + hq / 2))
        if sp.key in glow_ids and sp.face:
            g = self.assets.glow(hq)
            surface.blit(g, g.get_rect(center=centre))
        sh, off = self._shadow((w, hq), lifted)
        surface.blit(sh, (int(x) + off[0], int(y) + off[1]))
        surface.blit(img, (int(x), int(y)))
        if sp.key in outline_ids and sp.face:
            sel = self.assets.select(hq)
            surface.blit(sel, sel.get_rect(center=centre))
            if sp.key == strong:
                surface.blit(sel, sel.get_rect(center=centre))

    # -- heads-up display
    def _yaku_of(self, seat: int) -> tuple:
        pile = tuple(self.model.captured[seat])
        key = (seat, pile, tuple(self.model.field))
        got = self._yaku_cache.get(key)
        if got is None:
            try:
                from ...engine.scoring import yaku_points
                got = yaku_points(_mask(pile), self.session.rules, _mask(self.model.field))
            except Exception:  # pragma: no cover - the engine's own preview instead
                got = self.session.view(seat).yaku(seat)
            if len(self._yaku_cache) > 64:
                self._yaku_cache.clear()
            self._yaku_cache[key] = got
        return got

    def _near_of(self, seat: int) -> list:
        """Easy practice: yaku one card from ``seat``'s displayed pile (cached per table)."""
        m = self.model
        key = ("near", seat, tuple(m.captured[0]), tuple(m.captured[1]), tuple(m.field), tuple(m.hand), m.flip)
        got = self._yaku_cache.get(key)
        if got is None:
            try:
                got = [x for x in hints.near_misses(_Shown(self), seat, max_away=1) if x.away == 1]
            except Exception:   # a hint must never break the table
                log.exception("near misses failed")
                got = []
            if len(self._yaku_cache) > 64:
                self._yaku_cache.clear()
            self._yaku_cache[key] = got
        return got

    def _draw_hud(self, surface, lay) -> None:
        m = self.model
        for seat in (0, 1):
            self._draw_panel(surface, lay, seat)
            # the running yaku summary with each capture pile
            line = lay.yaku_line[seat]
            yaku = self._yaku_of(seat)
            if yaku:
                total = sum(p for _, p in yaku)
                text = "  ·  ".join(f"{Y.info(n).kanji} {p}" for n, p in yaku)
                text = f"{text}   = {total} pt{'s' if total != 1 else ''}"
                font = self.f_body
                text = W.ellipsize(text, font, line.w)
                W.draw_text(surface, text, font, theme.GOLD_LIGHT, (line.right, line.centery), "midright")
            else:
                n = len(m.captured[seat])
                label = f"{n} captured" if n else "No captures yet"
                W.draw_text(surface, label, self.f_small, theme.CREAM_DIM, (line.right, line.centery), "midright")
            # kind labels under/over each stack when empty
            for kind_i, rect in enumerate(lay.stacks[seat]):
                count = sum(1 for c in m.captured[seat] if card_of(c).kind == board.KIND_ORDER[kind_i])
                if count == 0:
                    ph = pygame.Rect(rect.x, rect.y, lay.small_w, lay.small_h)
                    surface.blit(W.rounded_surface(ph.size, max(2, lay.small_h // 14), (0, 0, 0, 36),
                                                   border=(255, 240, 200, 40), border_width=1), ph.topleft)
                    label = ("光", "種", "短", "カス")[kind_i]
                    W.draw_text(surface, label, self.f_small, (255, 240, 200, 110), ph.center, "center",
                                shadow=False)
                else:
                    zone = rect
                    last = lay.captured[seat]
                    ids = [c for c in lay.captured_order[seat] if card_of(c).kind == board.KIND_ORDER[kind_i]]
                    if ids and ids[-1] in last:
                        r = last[ids[-1]]
                        badge = str(count)
                        W.draw_text(surface, badge, self.f_small, theme.CREAM,
                                    (r.right + 3, zone.bottom if seat == lay.bottom else zone.bottom), "bottomleft")
        # the month of the match, over the stock
        v = self.session.state
        months = v.months
        label = f"Month {m.round} / {months}" if months else f"Round {m.round}"
        if self.session.rules.target_points:
            label += f" · to {self.session.rules.target_points}"
        rl = lay.round_label
        W.draw_text(surface, label, self.f_bold, theme.GOLD_LIGHT, (rl.centerx, rl.bottom), "midbottom")

    def combo_title(self, seat: int) -> str:
        """"YOUR COMBOS", "CPU COMBOS", or the friend's name in a friend match."""
        if self.session.is_hotseat:
            return f"{self.name(seat).upper()} COMBOS"
        if seat == self.me and self.session.seats[seat].kind == "human":
            return "YOUR COMBOS"
        if self.session.seats[seat].kind == "cpu":
            return "CPU COMBOS"
        return f"{self.name(seat).upper()} COMBOS"

    def _draw_panel(self, surface, lay, seat: int) -> None:
        m = self.model
        r = lay.panel[seat]
        self.combo_rects.pop(seat, None)
        if r.h < 20 or r.w < 20:
            return
        active = m.turn == seat
        W.draw_panel(surface, r, fill=theme.PANEL_SOFT if not active else (30, 22, 10, 210),
                     border=theme.GOLD_LIGHT if active else theme.GOLD_DARK, s=self.s,
                     border_width=max(1, int(self.s * (3 if active else 1.5))))
        pad = max(4, int(lay.card_h * 0.08))
        x, y = r.x + pad, r.y + pad
        name = self.name(seat)
        color = theme.SEAT_COLORS[0 if seat == lay.bottom else 1]
        nr = W.draw_text(surface, W.ellipsize(name, self.f_bold, r.w - 2 * pad - lay.card_h // 3), self.f_bold,
                         color, (x, y))
        if m.dealer == seat:
            br = pygame.Rect(0, 0, int(self.f_bold.get_height() * 1.15), self.f_bold.get_height())
            br.midright = (r.right - pad, nr.centery)
            surface.blit(W.rounded_surface(br.size, br.h // 4, theme.LACQUER, border=theme.GOLD_LIGHT,
                                           border_width=1), br.topleft)
            W.draw_text(surface, "親", self.f_small, theme.CREAM, br.center, "center", shadow=False)
        y = nr.bottom + pad // 3
        sr = W.draw_text(surface, str(m.scores[seat]), self.f_score, theme.CREAM, (x, y))
        W.draw_text(surface, "pts", self.f_small, theme.CREAM_DIM, (sr.right + pad // 2, sr.bottom - pad // 3),
                    "bottomleft")
        # Koi-Koi calls share the score's row, at the right
        calls = m.calls[seat]
        if calls:
            W.draw_text(surface, f"こいこい ×{calls}", self.f_bold, theme.LACQUER_LIGHT,
                        (r.right - pad, sr.bottom - pad // 3), "bottomright")
        else:
            W.draw_text(surface, "こいこい ×0", self.f_small, theme.MUTED, (r.right - pad, sr.bottom - pad // 3),
                        "bottomright")
        y = sr.bottom + pad // 2
        # the status line at the bottom
        status_h = self.f_small.get_linesize() + pad
        phase = self._phase()
        status = None
        if active:
            if self.session.seats[seat].kind == "cpu":
                msg = "thinking…"
            elif phase == "decide":
                msg = "deciding…"
            elif phase == "choose_match":
                msg = "choosing a card"
            else:
                msg = "to play"
            status = (f"▶ {msg}", theme.GOLD_LIGHT)
        elif seat != lay.bottom:
            status = (f"{m.opp} in hand", theme.CREAM_DIM)
        # the combo preview: a small clickable box (the inspector has the full names)
        box_bottom = r.bottom - (status_h if status else pad)
        lh = self.f_small.get_linesize()
        if box_bottom - y < lh * 2 + pad and status is not None and not active:
            status = None                    # the backs show the count anyway: room for the combos
            box_bottom = r.bottom - pad
        if lh + pad // 2 <= box_bottom - y < lh * 2 + pad:
            # one line only: "CPU COMBOS  Sankō 5  ›"
            box = pygame.Rect(x - pad // 2, y, r.w - pad, lh + pad // 2)
            surface.blit(W.rounded_surface(box.size, max(3, pad // 2), (0, 0, 0, 60),
                                           border=(*theme.GOLD_DARK, 200), border_width=1), box.topleft)
            self.combo_rects[seat] = box
            yaku = self._yaku_of(seat)
            style = self.name_style()
            tr = W.draw_text(surface, self.combo_title(seat), self.f_small, theme.GOLD, (box.x + pad // 2, box.centery),
                             "midleft")
            rest = "  ·  ".join(f"{Y.label(n, style, short=True)} {p}" for n, p in yaku) or "—"
            W.draw_text(surface, W.ellipsize(rest, self.f_small, box.right - pad * 2 - tr.right), self.f_small,
                        theme.CREAM, (tr.right + pad // 2, box.centery), "midleft")
            W.draw_text(surface, "›", self.f_bold, theme.GOLD, (box.right - pad // 2, box.centery), "midright")
        elif box_bottom - y >= lh * 2 + pad:
            box = pygame.Rect(x - pad // 2, y, r.w - pad, box_bottom - y)
            surface.blit(W.rounded_surface(box.size, max(3, pad // 2), (0, 0, 0, 60),
                                           border=(*theme.GOLD_DARK, 200), border_width=1), box.topleft)
            self.combo_rects[seat] = box
            ix, iy = box.x + pad // 2, box.y + pad // 3
            W.draw_text(surface, W.ellipsize(self.combo_title(seat), self.f_small, box.w - pad * 2),
                        self.f_small, theme.GOLD, (ix, iy))
            W.draw_text(surface, "›", self.f_bold, theme.GOLD, (box.right - pad // 2, iy + lh // 2), "midright")
            iy += lh
            yaku = self._yaku_of(seat)
            style = self.name_style()
            pw = self.f_small.size("99")[0]
            if not yaku:
                W.draw_text(surface, "—", self.f_small, theme.CREAM_DIM, (ix, iy))
            rows = max(1, (box.bottom - pad // 4 - iy) // lh)
            for i, (n, p) in enumerate(yaku):
                if i == rows - 1 and len(yaku) > rows:
                    # the last line that fits: the rest, side by side
                    rest = "  ·  ".join(f"{Y.label(n2, style, short=True)} {p2}" for n2, p2 in yaku[i:])
                    W.draw_text(surface, W.ellipsize(rest, self.f_small, box.w - pad), self.f_small,
                                theme.CREAM, (ix, iy))
                    iy += lh                 # the line is taken: nothing more is drawn over it
                    break
                label = Y.label(n, style, short=True)
                W.draw_text(surface, W.ellipsize(label, self.f_small, box.w - pad * 2 - pw), self.f_small,
                            theme.CREAM, (ix, iy))
                W.draw_text(surface, str(p), self.f_small, theme.GOLD_LIGHT, (box.right - pad // 2, iy), "topright")
                iy += lh
            if not yaku:
                iy += lh
            # Easy practice: the yaku one card away, while there is room
            if self.practice() and iy + lh <= box.bottom - pad // 4:
                for miss in self._near_of(seat):
                    if iy + lh > box.bottom - pad // 4:
                        break
                    label = f"1 away: {Y.label(miss.name, style, short=True)}"
                    W.draw_text(surface, W.ellipsize(label, self.f_small, box.w - pad), self.f_small,
                                theme.CREAM_DIM, (ix, iy))
                    iy += lh
        if status is not None:
            W.draw_text(surface, status[0], self.f_small, status[1], (x, r.bottom - pad), "bottomleft")

    def _draw_combo_hover(self, surface) -> None:
        """A gold outline on the combo preview under the pointer: it can be clicked."""
        if getattr(self.app, "top", self) is not self or self.drag is not None:
            return
        for seat, rect in self.combo_rects.items():
            if rect.collidepoint(self.pointer.pos):
                pygame.draw.rect(surface, theme.GOLD_LIGHT, rect, max(1, int(self.s * 2.5)),
                                 border_radius=max(3, rect.h // 12))

    def _draw_status(self, surface, lay) -> None:
        """One line of guidance for the seat at the bottom, above its hand."""
        if not self.my_turn():
            return
        phase = self._phase()
        if phase == "play" and self.drag is not None:
            ms = gestures.field_matches(self.view(), self.drag)
            msg = ("Drop it on the card you want to take" if len(ms) == 2 else
                   "Drop it on the field to capture" if ms else "Drop it on the field to lay it down")
        elif phase == "play":
            if self.selected is not None:
                ms = gestures.field_matches(self.view(), self.selected)
                if len(ms) == 2:
                    msg = "Two cards match: click the one to take"
                elif ms:
                    msg = "Click a matching card to capture (right-click or Esc cancels)"
                else:
                    msg = "No match: click the field to lay it down"
            else:
                msg = "Your turn: drag a card onto the field, or click to select it"
        elif phase == "choose_match":
            msg = ("Drop it on the card you want to take" if self.drag is not None else
                   "The stock card matches two: click the one to take, or drag the card onto it")
        elif phase == "oyagime":
            msg = "Draw for dealer: click one of the face-down cards"
        else:
            return
        hz = lay.hand_zone
        y = hz.y - lay.card_h * 0.2
        W.draw_text(surface, msg, self.f_body, theme.CREAM, (hz.centerx, int(y)), "midbottom")
