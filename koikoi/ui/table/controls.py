"""Gestures and keys on the table: each becomes an intent, then an engine action.

The player's hand is chosen from, and the field aimed at, by mouse (click to
select then click a field card, or drag a card onto the field) or by keyboard
(1-8 or arrows to select, Enter to play, arrows to pick which of two matching
cards to take). Every such gesture becomes an ``Intent``; ``action_for``
turns it into the ``Play`` / ``ChooseMatch`` it means on the displayed table,
and the scene's ``send`` applies it only if it is in ``session.legal()``: the
one place where input meets the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional

import pygame

from ...engine import ChooseMatch, Phase, Play
from ...engine import card as card_of
from .. import input as gestures
from .stage import L_DRAG

if TYPE_CHECKING:  # pragma: no cover
    from .context import TableContext


class Intent(NamedTuple):
    """What a gesture asks for, before it is an action."""

    kind: str                      # "drop" (a hand card let go), "click" (the field clicked
                                   # with a card selected), "key" (Enter), "choose" (stock stage)
    card: Optional[str] = None     # the hand card, for drop / click / key
    target: Optional[str] = None   # the field card aimed at (None: an empty part of the field)
    on_field: bool = True          # whether the pointer was over the field at all


def field_matches(table, card_id: str) -> tuple:
    """Ids of the field cards of ``card_id``'s month (``table``: a PublicTable or a View)."""
    month = card_of(card_id).month
    out = []
    for c in table.field:
        cid = c if isinstance(c, str) else c.id
        if card_of(cid).month == month:
            out.append(cid)
    return tuple(out)


def action_for(intent: Intent, table):
    """The action ``intent`` means on ``table``, or None if it means nothing yet (off the
    field, two cards match and neither was picked, a click on a card of another month)."""
    if intent.kind == "choose":
        pending = getattr(table, "pending", None)
        if pending is None or intent.target is None:
            return None
        choices = {c if isinstance(c, str) else c.id for c in table.choices}
        return ChooseMatch(intent.target) if intent.target in choices else None
    card = intent.card
    if card is None or (not intent.on_field and intent.target is None):
        return None
    matches = field_matches(table, card)
    if intent.kind == "click" and intent.target is not None and matches \
            and intent.target not in matches:
        return None     # a click on a card of another month is a slip, not "lay it down"
    if len(matches) == 2:
        return Play(card, intent.target) if intent.target in matches else None
    return Play(card)   # one or three match: any drop on the field takes them; none: it lies


class Controls:
    """The player's selection on the table and what their gestures and keys do."""

    def __init__(self, ctx: "TableContext", combo_rects: dict):
        self.ctx = ctx
        self.pointer = ctx.pointer
        self.combo_rects = combo_rects    # seat -> the Rect of its combo preview (the hud's)
        self.drag_offset = (0, 0)

    def _forward(name):
        return property(lambda self: getattr(self.ctx.pick, name),
                        lambda self, value: setattr(self.ctx.pick, name, value))
    selected = _forward("selected")
    target_cursor = _forward("target_cursor")
    hover = _forward("hover")
    del _forward

    @property
    def drag(self) -> Optional[str]:
        return self.ctx.stage.drag

    @drag.setter
    def drag(self, key: Optional[str]) -> None:
        self.ctx.stage.drag = key

    def clear(self) -> None:
        self.selected = self.target_cursor = self.drag = self.hover = None

    def reset_pointer(self) -> None:
        self.pointer.reset()
        self.drag = None

    def _phase(self):
        return self.ctx.session.phase

    def _act(self, intent: Intent) -> bool:
        """The one way input reaches the engine: intent -> action -> legal? -> applied."""
        action = action_for(intent, self.ctx.table)
        return action is not None and self.ctx.send(action)

    def _shake(self, card: Optional[str]) -> None:
        if card is not None:
            self.ctx.stage.shake(self.ctx.stage.sprites.get(card))

    # ------------------------------------------------------------------ the mouse
    def hover_at(self, pos) -> None:
        lay = self.ctx.lay
        if lay is not None and self.drag is None:
            self.hover = lay.hand_at(pos)

    def gesture(self, g: gestures.Gesture) -> bool:
        ctx = self.ctx
        lay = ctx.lay
        if g.kind == "click" and self.drag is None:
            for seat, rect in list(self.combo_rects.items()):
                if rect.collidepoint(g.pos) and rect.collidepoint(g.start):
                    ctx.command("inspector", seat)
                    return True
        phase = self._phase()
        if g.kind in ("drop", "click"):
            ctx.tip.hold(self.pointer.pos)            # no tooltip nor raised card over the
            ctx.stage.peek_held = self.pointer.pos    # field until the pointer moves again
        if g.kind == "cancel":
            if phase == Phase.CHOOSE:
                return True   # the stock choice cannot be cancelled
            had = self.selected is not None or self.drag is not None
            self.cancel()
            return had
        if g.kind == "drag_start":
            ctx.tip.hide()
            if phase == Phase.CHOOSE:
                return self._pick_up(ctx.table.pending, g, need_rect=True)
            cid = lay.hand_at(g.start)
            if cid is not None and ctx.my_turn() and phase == Phase.PLAY:
                if not ctx.policy.gate_pick(cid):
                    self._shake(cid)
                    return True
                self.selected = cid
                return self._pick_up(cid, g)
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

    def _pick_up(self, cid: Optional[str], g: gestures.Gesture, need_rect: bool = False) -> bool:
        ctx = self.ctx
        sp = ctx.stage.sprites.get(cid) if cid is not None else None
        if sp is None or not ctx.my_turn():
            return False
        if need_rect and not ctx.stage.sprite_rect(sp).collidepoint(g.start):
            return False
        self.drag = cid
        self.target_cursor = None
        ctx.stage.stop(sp)
        self.drag_offset = (g.start[0] - sp.pos[0], g.start[1] - sp.pos[1])
        sp.layer = L_DRAG
        sp.lift = 0.0
        self._drag_to(g.pos)
        return True

    def _drag_to(self, pos) -> None:
        sp = self.ctx.stage.sprites.get(self.drag)
        if sp is not None:
            sp.pos = (pos[0] - self.drag_offset[0], pos[1] - self.drag_offset[1], sp.pos[2])

    def _snap_back(self) -> None:
        self.ctx.relayout(None, duration=0.22, timeline=self.ctx.fx)

    def _drop(self, pos) -> bool:
        ctx, lay = self.ctx, self.ctx.lay
        cid, self.drag = self.drag, None
        target = lay.field_at(pos)
        if self._phase() == Phase.CHOOSE:
            if self._act(Intent("choose", target=target)):
                return True
            self._snap_back()                       # back to the flip spot
            if lay.on_field(pos):
                self._shake(cid)
            return True
        on_field = lay.on_field(pos) and lay.hand_at(pos) is None
        intent = Intent("drop", cid, target, on_field)
        if self._act(intent):
            return True
        self._snap_back()
        if on_field or target is not None:
            if len(field_matches(ctx.table, cid)) == 2:
                self.selected = cid         # two match: ask which, by outlining them
            else:
                self._shake(cid)
                self.selected = None
        else:
            self.selected = None
        return True

    def _click(self, pos) -> bool:
        ctx, lay = self.ctx, self.ctx.lay
        phase = self._phase()
        if phase == Phase.CHOOSE:
            if not ctx.my_turn():
                return False
            if self._act(Intent("choose", target=lay.field_at(pos))):
                return True
            if lay.on_field(pos) or lay.flip.collidepoint(pos):
                self._shake(ctx.table.pending)
            return True
        if phase != Phase.PLAY:
            return False
        hand_card = lay.hand_at(pos)
        if hand_card is not None:
            if not ctx.my_turn() or (self.selected != hand_card and not ctx.policy.gate_pick(hand_card)):
                self._shake(hand_card)
                return True
            self.target_cursor = None
            self.selected = None if self.selected == hand_card else hand_card
            if self.selected:
                ctx.sound("click")
            return True
        if self.selected is None or not ctx.my_turn():
            return False
        target = lay.field_at(pos)
        on_field = lay.on_field(pos)
        if target is None and not on_field:
            return False
        if self._act(Intent("click", self.selected, target, on_field)):
            return True
        self._shake(self.selected)
        return True

    def cancel(self) -> None:
        if self.drag is not None:
            self.drag = None
            self.ctx.relayout(None, duration=0.2, timeline=self.ctx.fx)
        self.selected = None
        self.target_cursor = None

    # ------------------------------------------------------------------ the keyboard
    def key(self, event) -> bool:
        ctx = self.ctx
        key = event.key
        phase = self._phase()
        plain = not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT)
        if key == pygame.K_p and plain:
            ctx.command("pause")
            return True
        if key == pygame.K_F1:
            ctx.command("keys")
            return True
        if key == pygame.K_c and plain:
            # C: your combos; Shift+C: the other side's
            ctx.command("inspector", 1 - ctx.seat if event.mod & pygame.KMOD_SHIFT else ctx.seat)
            return True
        if key == pygame.K_ESCAPE:
            ctx.tip.hide()
            if phase == Phase.CHOOSE:
                if self.target_cursor is not None:
                    self.target_cursor = None
                    return True
                return False  # the stock choice cannot be cancelled: Esc only pauses
            if self.selected is not None or self.drag is not None or self.target_cursor is not None:
                self.cancel()
                return True
            return False   # the app may pause
        if not ctx.my_turn():
            return False
        if phase == Phase.CHOOSE:
            return self._choose_key(key)
        if phase == Phase.PLAY:
            return self._play_key(key)
        return False

    def _step(self, ids: list, current, d: int):
        """The id after (d=1) or before (d=-1) ``current`` in ``ids``, wrapping round."""
        if current in ids:
            return ids[(ids.index(current) + d) % len(ids)]
        return ids[0] if d > 0 else ids[-1]

    def _choose_key(self, key) -> bool:
        ids = list(self.ctx.table.choices)
        if not ids:
            return False
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.target_cursor = self._step(ids, self.target_cursor, 1 if key == pygame.K_RIGHT else -1)
            return True
        if key in gestures.CONFIRM_KEYS:
            if self.target_cursor not in ids:
                self.target_cursor = ids[0]
                return True
            return self._act(Intent("choose", target=self.target_cursor)) or True
        return False

    def _play_key(self, key) -> bool:
        ctx = self.ctx
        hand = list(ctx.lay.hand_order)
        if not hand:
            return False
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            d = 1 if key == pygame.K_RIGHT else -1
            if self.target_cursor is not None and self.selected:
                ms = list(field_matches(ctx.table, self.selected))
                if self.target_cursor in ms:
                    self.target_cursor = self._step(ms, self.target_cursor, d)
                    return True
            self.selected = self._step(hand, self.selected, d)
            self.target_cursor = None
            return True
        if key in gestures.HAND_KEYS:
            i = gestures.HAND_KEYS[key]
            if i < len(hand):
                if not ctx.policy.gate_pick(hand[i]):
                    self._shake(hand[i])
                    return True
                self.selected = hand[i]
                self.target_cursor = None
                return True
            return False
        if key in gestures.CONFIRM_KEYS and self.selected in hand:
            ms = field_matches(ctx.table, self.selected)
            if len(ms) == 2 and self.target_cursor not in ms:
                self.target_cursor = ms[0]   # ask first: outline the card it would take
                return True
            target = self.target_cursor if len(ms) == 2 else None
            if not self._act(Intent("key", self.selected, target)):
                self._shake(self.selected)
            return True
        return False
