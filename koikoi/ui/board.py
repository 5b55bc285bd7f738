"""Where every card of the round table sits, in real window pixels. No drawing.

``layout(size, table)`` reads a ``PublicTable`` (engine/table.py) or any
object shaped like a ``View`` (``hand``, ``field``, ``captured``,
``opponent_hand_count``, ``stock_count``, ``seat``; cards as ``Card`` or ids)
and answers a ``Layout`` of ``pygame.Rect``s: the hand slots, the field's
month slots, the stock, the flip spot, the four capture stacks per side and
the info panels. A ``PublicTable`` brings its field slots (one month each):
slot ``k`` always lies at board place ``SLOT_FILL_ORDER[k]``, so the layout is
a function of the table alone.

The table, seen from the seat at the bottom::

    +--------+----------------------------+---------------------+
    | theirs | their hand (face down)     | their captures x4   |
    | panel  |                            | their yaku line     |
    |        |      field: 6 columns x 2 rows of month slots    |
    | stock  |      (a month's cards overlap side by side)      |
    | + flip |                                                  |
    | mine   |                            | my yaku line        |
    | panel  | my hand                    | my captures x4      |
    +--------+----------------------------+---------------------+

Card height follows the window (about 17% of its height, limited by its
width), so the same code serves 1280x720 up to 2560x1440 and survives any
size down to a few pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from typing import Optional

import pygame

from ..engine import card as card_of
from ..engine.cards import Kind

CARD_RATIO = 216 / 348            # width / height of a card face
KIND_ORDER = (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.CHAFF)
KIND_WEIGHTS = (0.85, 1.0, 1.05, 1.45)  # share of the capture zone per stack
FIELD_COLUMNS = 6
FIELD_SLOTS = 12
# Slots fill from the middle columns outwards, top row first: a small field sits centred.
SLOT_FILL_ORDER = (2, 8, 3, 9, 1, 7, 4, 10, 0, 6, 5, 11)
MONTH_OVERLAP = 0.5               # each further card of a month is offset by this share of a card
FAN_RANK = {Kind.CHAFF: 0, Kind.RIBBON: 1, Kind.ANIMAL: 2, Kind.BRIGHT: 3}   # bottom to top


def _id(c) -> str:
    return c if isinstance(c, str) else c.id


def card_size(h: int) -> tuple[int, int]:
    return max(1, int(round(h * CARD_RATIO))), max(1, int(h))


@dataclass
class Layout:
    size: tuple[int, int]
    card_h: int
    card_w: int
    small_h: int                   # capture piles
    small_w: int
    back_h: int                    # the opponent's face-down hand
    back_w: int
    margin: int
    hand: dict = dc_field(default_factory=dict)        # id -> Rect (bottom seat)
    hand_order: list = dc_field(default_factory=list)
    opponent_hand: list = dc_field(default_factory=list)   # Rects, left to right
    field: dict = dc_field(default_factory=dict)       # id -> Rect
    field_order: list = dc_field(default_factory=list)  # draw order (bottom card first)
    covered: frozenset = frozenset()   # field cards partly under a later card of their month
    field_slots: list = dc_field(default_factory=list)  # 12 Rects (a slot's first card)
    slot_of_month: dict = dc_field(default_factory=dict)
    field_area: pygame.Rect = None
    field_grid: pygame.Rect = None     # the 6 x 2 slots, uncentred
    stock: pygame.Rect = None
    flip: pygame.Rect = None
    captured: tuple = ()           # per seat: id -> Rect
    captured_order: tuple = ()     # per seat: ids in draw order
    stacks: tuple = ()             # per seat: 4 Rects (brights, animals, ribbons, chaff zones)
    capture_zone: tuple = ()       # per seat: Rect
    yaku_line: tuple = ()          # per seat: Rect for the running yaku summary
    panel: tuple = ()              # per seat: info panel Rect
    hand_zone: pygame.Rect = None
    opponent_zone: pygame.Rect = None
    round_label: pygame.Rect = None
    seat: int = 0

    @property
    def bottom(self) -> int:
        return self.seat

    @property
    def top(self) -> int:
        return 1 - self.seat

    def card_rect(self, card_id: str) -> Optional[pygame.Rect]:
        """Where a visible card sits (hand, field or a capture pile)."""
        for d in (self.hand, self.field, *self.captured):
            r = d.get(card_id)
            if r is not None:
                return r
        return None

    def hand_at(self, pos) -> Optional[str]:
        """The hand card under ``pos`` (the topmost where they overlap)."""
        for cid in reversed(self.hand_order):
            if self.hand[cid].collidepoint(pos):
                return cid
        return None

    def field_at(self, pos) -> Optional[str]:
        for cid in reversed(self.field_order):
            if self.field[cid].collidepoint(pos):
                return cid
        return None

    def kind_badge(self, card_id: str) -> Optional[pygame.Rect]:
        """Where a covered field card shows its kind (光, 種, 短): the bottom left of the strip
        the next card leaves uncovered; None for a card on top or a plain."""
        r = self.field.get(card_id)
        if r is None or card_id not in self.covered or card_of(card_id).kind == Kind.CHAFF:
            return None
        side = max(6, int(self.card_w * 0.36))
        inset = max(1, int(self.card_w * 0.06))
        return pygame.Rect(r.x + inset, r.bottom - inset - side, side, side)

    def field_peek(self, pos, current: Optional[str] = None) -> Optional[str]:
        """The covered field card the pointer at ``pos`` raises to show whole: ``current`` while
        the pointer stays on it, else a covered card whose uncovered strip is under ``pos``."""
        if current in self.field and self.field[current].collidepoint(pos):
            return current
        cid = self.field_at(pos)
        return cid if cid in self.covered else None

    def on_field(self, pos) -> bool:
        return self.field_area.collidepoint(pos)


def month_slots(table) -> tuple:
    """The field as slots of one month each (tuples of ids, ``()`` for a free slot): a
    ``PublicTable``'s own, or for a View-shaped table its months in month order."""
    slots = getattr(table, "field_slots", None)
    if slots is not None:
        return tuple(slots)
    by_month: dict[int, list[str]] = {}
    for c in table.field:
        cid = _id(c)
        by_month.setdefault(card_of(cid).month, []).append(cid)
    return tuple(tuple(by_month[m]) for m in sorted(by_month))


def metrics(size: tuple[int, int]) -> tuple[int, int]:
    """(card height, margin) for a window size."""
    w, h = max(1, int(size[0])), max(1, int(size[1]))
    card_h = int(min(h * 0.182, w * 0.099))
    return max(8, card_h), max(2, int(round(h * 0.022)))


def scaled_card_h(size: tuple[int, int], card_scale: float = 1.0) -> int:
    """The card height for a window ``size`` times the ``card_scale`` setting (0.85 / 1.0 / 1.15),
    held down so that a full field of twelve months and both hands still fit."""
    W, H = max(1, int(size[0])), max(1, int(size[1]))
    ch, m = metrics((W, H))
    try:
        k = float(card_scale)
    except (TypeError, ValueError):
        k = 1.0
    if not 0.5 <= k <= 1.5:
        k = 1.0
    if k == 1.0:
        return ch
    want = int(ch * k)
    # width: the left column, then six field columns of (card + two overlaps) and their gaps
    left_w = int(W * 0.15)
    play_w = W - 3 * m - left_w
    by_width = int((play_w - 12) / 12 / CARD_RATIO)
    by_height = int((H - 2 * m) / 4.45)
    return max(8, min(want, max(ch, by_width) if k > 1 else want, max(ch, by_height) if k > 1 else want))


def layout(size: tuple[int, int], table, spread_month: Optional[int] = None,
           card_scale: float = 1.0) -> Layout:
    """Every card rect for ``table`` (a View or anything shaped like one) at window ``size``.

    ``spread_month``: lay that month's field cards side by side without overlap (while the
    player chooses between them). ``card_scale``: the player's card size setting.
    """
    W, H = max(1, int(size[0])), max(1, int(size[1]))
    ch, m = metrics((W, H))
    ch = scaled_card_h((W, H), card_scale)
    cw = card_size(ch)[0]
    sh = max(6, int(ch * 0.6))
    sw = card_size(sh)[0]
    bh = max(6, int(ch * 0.72))
    bw = card_size(bh)[0]
    gap = max(2, int(ch * 0.1))
    seat = getattr(table, "seat", 0)
    lay = Layout((W, H), ch, cw, sh, sw, bh, bw, m, seat=seat)

    # ---- columns
    left_w = max(int(W * 0.15), int(cw * 2.45))
    left = pygame.Rect(m, m, left_w, H - 2 * m)
    x0 = left.right + m
    x1 = W - m
    play_w = max(1, x1 - x0)
    cap_w = max(4 * sw, int(play_w * 0.37))

    # ---- rows
    line_h = max(8, int(ch * 0.16))
    top_h = max(bh, sh + line_h + gap // 2)
    lift = int(ch * 0.14)
    top_end = m + top_h + gap
    bottom_start = H - m - ch - lift - gap
    row_gap = max(2, int(ch * 0.16))
    field_h = 2 * ch + row_gap
    avail = bottom_start - top_end
    fy = top_end + max(0, (avail - field_h) // 2)

    # ---- field: 6 columns x 2 rows of month slots, centred in the play area
    step = max(1, int(cw * MONTH_OVERLAP))
    slot_w = cw + 2 * step
    col_gap = max(2, int(cw * 0.3))
    fw = FIELD_COLUMNS * slot_w + (FIELD_COLUMNS - 1) * col_gap
    if fw > play_w:  # narrow window: squeeze the gaps, then the overlap
        col_gap = max(1, (play_w - FIELD_COLUMNS * slot_w) // (FIELD_COLUMNS - 1))
        fw = FIELD_COLUMNS * slot_w + (FIELD_COLUMNS - 1) * col_gap
    fx = x0 + (play_w - fw) // 2
    slots = month_slots(table)
    if len(slots) > FIELD_SLOTS:  # not a real table (twelve months at most): fold the rest in
        slots = slots[:FIELD_SLOTS - 1] + (tuple(c for s in slots[FIELD_SLOTS - 1:] for c in s),)
    place = {k: SLOT_FILL_ORDER[k] for k, cards in enumerate(slots) if cards}
    lay.slot_of_month = {card_of(cards[0]).month: place[k] for k, cards in enumerate(slots) if cards}
    # Centre the columns in use (half a column at a time): a small field sits in the middle.
    cols = {s % FIELD_COLUMNS for s in place.values()}
    shift = 0
    if cols:
        shift = int((FIELD_COLUMNS - 1 - min(cols) - max(cols)) / 2 * (slot_w + col_gap))
    lay.field_slots = []
    for s in range(FIELD_SLOTS):
        row, col = divmod(s, FIELD_COLUMNS)
        lay.field_slots.append(pygame.Rect(fx + shift + col * (slot_w + col_gap), fy + row * (ch + row_gap), cw, ch))
    lay.field_grid = pygame.Rect(fx, fy, fw, field_h)
    pad = max(2, int(ch * 0.12))
    lay.field_area = pygame.Rect(min(fx, x0) - pad, top_end - pad,
                                 max(fw, play_w) + 2 * pad, max(field_h, avail) + 2 * pad)
    lay.field_area = lay.field_area.clip(pygame.Rect(x0 - pad, 0, play_w + 2 * pad, H))

    covered: set = set()
    for k in sorted(place, key=place.get):
        # A month's cards fan left to right, the plainest underneath: a Bright, an animal
        # or a ribbon is drawn over a chaff, never under it.
        cards = sorted(slots[k], key=lambda c: FAN_RANK[card_of(c).kind])
        base = lay.field_slots[place[k]]
        month = card_of(cards[0]).month
        mstep = cw + max(2, int(cw * 0.08)) if month == spread_month and len(cards) == 2 else step
        for i, cid in enumerate(cards):
            lay.field[cid] = base.move(i * mstep, 0)
            lay.field_order.append(cid)
        if mstep < cw:
            covered.update(cards[:-1])
    lay.covered = frozenset(covered)

    # ---- stock and flip spot, in the left column, level with the field's middle
    mid = fy + field_h // 2
    pair_w = 2 * cw + gap * 2
    sx = left.x + max(0, (left.w - pair_w) // 2)
    lay.stock = pygame.Rect(sx, mid - ch // 2, cw, ch)
    lay.flip = pygame.Rect(sx + cw + gap * 2, mid - ch // 2, cw, ch)
    lay.round_label = pygame.Rect(left.x, lay.stock.y - line_h * 2 - gap, left.w, line_h * 2)

    # ---- panels: theirs at the top left, mine at the bottom left
    top_panel = pygame.Rect(left.x, m, left.w, max(8, lay.round_label.y - gap - m))
    bot_y = lay.stock.bottom + gap + line_h + gap
    bottom_panel = pygame.Rect(left.x, bot_y, left.w, max(8, H - m - bot_y))

    # ---- the capture zones at the right of each hand
    cap_x = x1 - cap_w
    top_cap = pygame.Rect(cap_x, m, cap_w, sh)
    bot_cap = pygame.Rect(cap_x, H - m - sh, cap_w, sh)
    top_line = pygame.Rect(cap_x, top_cap.bottom + gap // 2, cap_w, line_h)
    bot_line = pygame.Rect(cap_x, bot_cap.y - gap // 2 - line_h, cap_w, line_h)

    # ---- hands
    hand_zone = pygame.Rect(x0, H - m - ch, max(cw, cap_x - gap - x0), ch)
    opp_zone = pygame.Rect(x0, m, max(bw, cap_x - gap - x0), bh)
    lay.hand_zone, lay.opponent_zone = hand_zone, opp_zone
    hand_ids = [_id(c) for c in table.hand]
    n = len(hand_ids)
    if n:
        hgap = max(2, int(cw * 0.09))
        hstep = cw + hgap if n == 1 else min(cw + hgap, (hand_zone.w - cw) / (n - 1))
        total = cw + hstep * (n - 1)
        hx = hand_zone.x + (hand_zone.w - total) / 2
        for k, cid in enumerate(hand_ids):
            lay.hand[cid] = pygame.Rect(int(hx + k * hstep), hand_zone.y, cw, ch)
            lay.hand_order.append(cid)
    k_opp = int(getattr(table, "opponent_hand_count", 0))
    if k_opp:
        ostep = bw * 0.62 if k_opp == 1 else min(bw * 0.62, (opp_zone.w - bw) / (k_opp - 1))
        total = bw + ostep * (k_opp - 1)
        ox = opp_zone.x + (opp_zone.w - total) / 2
        lay.opponent_hand = [pygame.Rect(int(ox + k * ostep), opp_zone.y, bw, bh) for k in range(k_opp)]

    # ---- capture stacks, grouped by kind
    caps, orders, stacks = [{}, {}], [[], []], [[], []]
    zones = {seat: bot_cap, 1 - seat: top_cap}
    wsum = sum(KIND_WEIGHTS)
    sgap = max(2, int(sw * 0.25))
    for s in (0, 1):
        zone = zones[s]
        usable = zone.w - sgap * 3
        x = zone.x
        pile = [card_of(_id(c)) for c in table.captured[s]]
        for kind, weight in zip(KIND_ORDER, KIND_WEIGHTS):
            zw = max(sw, int(usable * weight / wsum))
            rect = pygame.Rect(x, zone.y, zw, sh)
            stacks[s].append(rect)
            group = [c.id for c in pile if c.kind == kind]
            if group:
                room = max(sw, zw - int(sw * 0.4))     # leave room for the count beside the stack
                gstep = sw * 0.5 if len(group) == 1 else min(sw * 0.5, (room - sw) / (len(group) - 1))
                for k, cid in enumerate(group):
                    caps[s][cid] = pygame.Rect(int(x + k * gstep), zone.y, sw, sh)
                    orders[s].append(cid)
            x += zw + sgap
    lay.captured = tuple(caps)
    lay.captured_order = tuple(orders)
    lay.stacks = tuple(stacks)
    lay.capture_zone = (zones[0], zones[1])
    lines = {seat: bot_line, 1 - seat: top_line}
    lay.yaku_line = (lines[0], lines[1])
    panels = {seat: bottom_panel, 1 - seat: top_panel}
    lay.panel = (panels[0], panels[1])
    return lay
