"""The replay viewer: one round of a finished match, step by step, all cards face up.

    ReplayScene(app, session_or_state, round_no)

The steps come from the match's event log (``round_steps``): the deal, then
one step per player action (a play with its stock turn, a choice of the stock
card's match, a Koi-Koi call, a stop), then the round's result. A step's table
is the public-table fold the round table uses (``engine.table.tables``) at the
step's last event: the field, piles, stock, calls and yaku from the viewing
seat's table, each hand from its own seat's table (the replay shows both hands,
and one seat's fold holds only its own). So each step's position equals
``replay(events[:k])`` at the event index ``k`` where the next player's action
begins (a test checks it). The step's words are ``koikoi.narration``'s
sentences of the viewing seat's public events, cards by name in the player's
name style. Keys: Right/Left (or Space/Backspace) step, Home/End jump, a click
on a turn marker jumps there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import pygame

from ... import narration as N
from ...engine import DECK, MONTH_NAMES, PRESET_LABELS, Kind, action_of, card, public_event
from ...engine import yaku as Y
from ...engine.events import (Chose, FieldSwept, Flipped, KoiKoiCalled, Played, RoundDealt, RoundEnded,
                              Stopped, YakuMade)
from ...engine.table import PublicTable, fold_all, tables
from .. import theme
from .. import widgets as W
from ..hints import style_of
from . import MenuScene
from ...engine.phase import SeatKind

KIND_ORDER = (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.CHAFF)


@dataclass
class Position:
    """The table after one step of a round, and what happened in that step."""

    start: int                      # the step's first event index in the log
    end: int                        # one past its last event (the next step's start)
    kind: str                       # deal, play, choose, koikoi, stop, end
    seat: Optional[int]             # who acted (None: the deal, the result)
    hands: tuple                    # (seat 0's ids, seat 1's ids), deck order, each from its own table
    field: tuple                    # the field's cards in slot order (PublicTable.field)
    captured: tuple                 # (seat 0's ids, seat 1's ids), in capture order
    stock_count: int
    pending: Optional[str]          # a stock card waiting for its choice
    calls: tuple
    yaku: tuple                     # per seat, the (name, points) last announced
    lines: list = field(default_factory=list)      # the step in words (narration's sentences)
    touched: frozenset = frozenset()               # the cards that moved in this step
    row: object = None                             # the LedgerRow, on the result step
    made_yaku: bool = False
    tones: list = field(default_factory=list)      # per line: "", "yaku" or "koikoi" (its colour)
    table: Optional[PublicTable] = None            # the viewing seat's table after the step


def round_bounds(events, round_no: int) -> tuple[int, int]:
    """(index of the round's final deal, index of its RoundEnded) in the log."""
    start = end = None
    for i, e in enumerate(events):
        if isinstance(e, RoundDealt) and e.round == round_no:
            start = i                      # the last deal of the round counts (misdeals redeal)
        elif isinstance(e, RoundEnded) and e.row.round == round_no:
            end = i
            break
    if start is None or end is None:
        raise ValueError(f"round {round_no} is not complete in this log")
    return start, end


def _round_tables(events: tuple, seat: int, s: int, e: int) -> list[PublicTable]:
    """``seat``'s table after each event ``s..e`` of the log (index k - s), folded from
    its public events."""
    public = [public_event(x, seat) for x in events[:e + 1]]
    return list(tables(public[s:], seat, fold_all(public[:s], seat)))


def _moved(ev) -> tuple:
    """The cards an event moves (they get a ring on that step)."""
    if isinstance(ev, Played):
        return (ev.card,) + tuple(ev.taken)
    if isinstance(ev, Flipped):
        return (ev.card,) + tuple(ev.taken or ())
    if isinstance(ev, Chose):
        return (ev.card, ev.target)
    if isinstance(ev, FieldSwept):
        return tuple(ev.cards)
    return ()


def round_steps(events, round_no: int, names=("You", "CPU"), *, you: Optional[int] = 0,
                style: str = "both") -> list[Position]:
    """Every step of round ``round_no``. ``you``: the seat that reads as "You" and whose
    public events are told and folded for the shared table (None, a friend match: seat
    0's); ``style``: the name style of the words."""
    events = tuple(events)
    s, e = round_bounds(events, round_no)
    viewer = you if you in (0, 1) else 0
    own = [_round_tables(events, seat, s, e) for seat in (0, 1)]
    actions = [k for k in range(s + 1, e) if action_of(events[k]) is not None]
    starts = [s] + actions + [e, e + 1]
    out: list[Position] = []
    for a, b in zip(starts, starts[1:]):
        kind, seat = "deal", None
        turn: list[str] = []               # the play and its stock turn: one paragraph
        lines: list[str] = []
        tones: list[str] = []
        touched: set = set()
        row = None
        made = False
        for ev in events[a:b]:
            touched.update(_moved(ev))
            text = N.sentence(public_event(ev, viewer), names, seat=viewer, style=style, you=you)
            tone = ""
            if isinstance(ev, Played):
                kind, seat = "play", ev.seat
            elif isinstance(ev, Chose):
                kind, seat = "choose", ev.seat
            elif isinstance(ev, YakuMade):
                made, tone = True, "yaku"
            elif isinstance(ev, KoiKoiCalled):
                kind, seat, tone = "koikoi", ev.seat, "koikoi"
            elif isinstance(ev, Stopped) and not ev.auto:
                kind, seat = "stop", ev.seat
            elif isinstance(ev, RoundEnded):
                kind, row = "end", ev.row
                tone = "yaku" if ev.row.winner is not None else ""
            if not text:
                continue
            if isinstance(ev, (Played, Flipped, Chose)):
                turn.append(text)
            else:
                lines.append(text)
                tones.append(tone)
        if turn:
            lines.insert(0, " ".join(turn))
            tones.insert(0, "")
        t = own[viewer][b - 1 - s]
        hands = (own[0][b - 1 - s].hand, own[1][b - 1 - s].hand)
        out.append(Position(a, b, kind, seat, hands, t.field, t.captured, t.stock_count, t.pending,
                            t.calls, t.yaku, lines, frozenset(touched), row, made, tones, t))
    return out


def description_lines(p: Position, wrap, room: int, fits) -> list[tuple[str, int]]:
    """(text, index into p.lines) of the step's words wrapped (``wrap``) into ``room`` lines.
    When they do not fit, the plain lines (the play and its stock turn) are cut short first,
    at a word, ending in "…" (``fits(text)``: it is not too wide), so the coloured ones (yaku,
    Koi-Koi, the result) stay; beyond that the last lines are left out."""
    wrapped = [list(wrap(line)) or [""] for line in p.lines]
    over = sum(map(len, wrapped)) - room
    for k in reversed(range(len(wrapped))):
        if over <= 0:
            break
        tone = p.tones[k] if k < len(p.tones) else ""
        parts = wrapped[k]
        if tone or len(parts) < 2:
            continue
        n = max(1, len(parts) - over)
        over -= len(parts) - n
        words = parts[n - 1].split()
        while len(words) > 1 and not fits(" ".join(words) + " …"):
            words.pop()
        wrapped[k] = parts[:n - 1] + [" ".join(words) + " …"]
    out = [(part, k) for k, parts in enumerate(wrapped) for part in parts]
    return out[:room]


def result_text(row, names, style: str = "both", you: Optional[int] = None) -> str:
    """The round's result in words (``narration.round_result``)."""
    return N.round_result(row, names, style=style, you=you)


def position_of_state(state) -> tuple:
    """(hands, field, captured) of an engine State as sorted id tuples (tests compare these)."""
    from ...engine.cards import ids_of
    return (tuple(tuple(sorted(ids_of(m))) for m in state.hands), tuple(sorted(ids_of(state.field))),
            tuple(tuple(sorted(ids_of(m))) for m in state.captured))


def position_key(p: Position) -> tuple:
    return (tuple(tuple(sorted(h)) for h in p.hands), tuple(sorted(p.field)),
            tuple(tuple(sorted(c)) for c in p.captured))


def _sorted_ids(ids) -> list:
    order = {c.id: c.index for c in DECK}
    return sorted(ids, key=order.__getitem__)


class ReplayScene(MenuScene):
    intro_time = 0.25

    def __init__(self, app, session_or_state, round_no: int):
        from .ledger import _as_session
        self.session = _as_session(session_or_state)
        self.state = self.session.state
        seats = self.session.seats
        self.names = tuple(s.name for s in seats)
        self.round_no = round_no
        humans = [i for i, s in enumerate(seats) if getattr(s, "kind", None) == SeatKind.HUMAN]
        self.you: Optional[int] = humans[0] if len(humans) == 1 else None   # None: a friend match
        self.style = style_of(app.settings)
        self.steps = round_steps(self.state.events, round_no, self.names, you=self.you, style=self.style)
        self.index = 0
        self.hover_marker: Optional[int] = None
        super().__init__(app)

    # ---------------------------------------------------------- navigation
    @property
    def position(self) -> Position:
        return self.steps[self.index]

    def go(self, i: int) -> None:
        i = max(0, min(len(self.steps) - 1, int(i)))
        if i != self.index:
            self.index = i
            self.app.play("snap", 0.4)
        self._sync_buttons()

    def forward(self) -> None:
        self.go(self.index + 1)

    def backward(self) -> None:
        self.go(self.index - 1)

    def first(self) -> None:
        self.go(0)

    def last(self) -> None:
        self.go(len(self.steps) - 1)

    def _sync_buttons(self) -> None:
        if hasattr(self, "prev_b"):
            self.prev_b.enabled = self.home_b.enabled = self.index > 0
            self.next_b.enabled = self.end_b.enabled = self.index < len(self.steps) - 1

    # ---------------------------------------------------------- layout
    def layout(self) -> None:
        w, h = self.size
        pad = self.px(36)
        self.header_h = self.px(150)
        bh = self.px(64)
        self.controls_y = h - pad // 2 - bh
        self.markers_rect = pygame.Rect(0, 0, 0, self.px(40))
        self.desc_rect = pygame.Rect(pad, 0, w - 2 * pad, self.px(118))
        self.desc_rect.bottom = self.controls_y - self.px(16)
        self.markers_rect = pygame.Rect(pad + self.px(20), self.desc_rect.y - self.px(48),
                                        w - 2 * pad - self.px(40), self.px(36))
        top = self.header_h
        bottom = self.markers_rect.y - self.px(14)
        side_w = int((w - 2 * pad) * 0.31)
        self.side = pygame.Rect(w - pad - side_w, top, side_w, bottom - top)
        self.table = pygame.Rect(pad, top, self.side.x - pad - self.px(24), bottom - top)
        # four card rows in the table: their hand, two field rows, your hand
        gaps = self.px(26) * 3 + self.px(40)
        ch = (self.table.h - gaps) // 4
        cw = int(ch * 216 / 348)
        max_cw = (self.table.w - self.px(200)) // 9
        if cw > max_cw:
            cw = max_cw
            ch = int(cw * 348 / 216)
        self.card_h, self.card_w = ch, cw
        # buttons
        bw = self.px(170)
        gap = self.px(14)
        self.home_b = self.button((0, self.controls_y, self.px(110), bh), "|◀", self.first, style="secondary",
                                  hotkeys=(pygame.K_HOME,), font_size=theme.font_px("body", self.s))
        self.prev_b = self.button((0, self.controls_y, bw, bh), "◀  Back", self.backward, style="secondary",
                                  hotkeys=(pygame.K_LEFT, pygame.K_BACKSPACE))
        self.next_b = self.button((0, self.controls_y, bw, bh), "Next  ▶", self.forward, style="primary",
                                  hotkeys=(pygame.K_RIGHT, pygame.K_SPACE))
        self.end_b = self.button((0, self.controls_y, self.px(110), bh), "▶|", self.last, style="secondary",
                                 hotkeys=(pygame.K_END,), font_size=theme.font_px("body", self.s))
        self.close_b = self.button((0, self.controls_y, self.px(220), bh), "Close", self.back, style="ghost")
        row = [self.home_b, self.prev_b, self.next_b, self.end_b]
        total = sum(b.rect.w for b in row) + gap * (len(row) - 1)
        x = w // 2 - total // 2
        for b in row:
            b.rect.x = x
            x += b.rect.w + gap
        self.close_b.rect.right = w - pad
        self.widgets = row + [self.close_b]
        self.focus.set(self.widgets)
        self.focus.vertical_keys = False
        self._sync_buttons()

    # ---------------------------------------------------------- input
    def _marker_rects(self) -> list[pygame.Rect]:
        n = len(self.steps)
        r = self.markers_rect
        step = min(self.px(40), r.w / max(1, n))
        total = step * n
        x0 = r.centerx - total / 2
        size = max(self.px(10), int(min(step * 0.7, r.h * 0.7)))
        return [pygame.Rect(int(x0 + i * step + (step - size) / 2), r.centery - size // 2, size, size)
                for i in range(n)]

    def _marker_at(self, pos) -> Optional[int]:
        if not self.markers_rect.inflate(0, self.px(10)).collidepoint(pos):
            return None
        rects = self._marker_rects()
        best = min(range(len(rects)), key=lambda i: abs(rects[i].centerx - pos[0]))
        return best if abs(rects[best].centerx - pos[0]) <= max(rects[0].w, self.px(20)) else None

    def handle(self, event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.hover_marker = self._marker_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            i = self._marker_at(event.pos)
            if i is not None:
                self.go(i)
                return True
        elif event.type == pygame.MOUSEWHEEL:
            self.go(self.index - event.y)
            return True
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            self.go(self.index + (5 if event.key == pygame.K_PAGEDOWN else -5))
            return True
        return super().handle(event)

    # ---------------------------------------------------------- drawing
    def _card(self, surface, cid, h, pos, *, touched=False) -> pygame.Rect:
        numbers = bool(self.app.settings.get("month_numbers", True))
        img = self.app.assets.card(cid, h, month_number=numbers)
        r = W.draw_card(surface, img, pos, shadow=True)
        if touched:
            ring = r.inflate(self.px(8), self.px(8))
            surface.blit(W.rounded_surface(ring.size, self.px(10), (0, 0, 0, 0), border=theme.GOLD_LIGHT,
                                           border_width=max(2, self.px(4))), ring.topleft)
        return r

    def _row_of_cards(self, surface, ids, y, x0, width, touched) -> None:
        ids = list(ids)
        if not ids:
            return
        cw, ch = self.card_w, self.card_h
        step = min(cw + self.px(12), (width - cw) / max(1, len(ids) - 1)) if len(ids) > 1 else 0
        total = cw + step * (len(ids) - 1)
        x = x0 + (width - total) / 2
        for i, cid in enumerate(ids):
            self._card(surface, cid, ch, (int(x + i * step), y), touched=cid in touched)

    def draw_content(self, surface: pygame.Surface) -> None:
        w, h = self.size
        p = self.position
        st = self.state
        # header
        cx = w // 2
        W.draw_text(surface, "REPLAY", self.font("small", True), theme.GOLD, (cx, self.px(18)), "midtop")
        title = f"Round {self.round_no}  ·  {MONTH_NAMES[(self.round_no - 1) % 12]}"
        r = W.draw_text(surface, title, self.font("h2", True), theme.GOLD_LIGHT, (cx, self.px(44)), "midtop")
        rules = PRESET_LABELS.get(st.rules.name, st.rules.name).split(" (")[0]
        sub = f"{self.names[0]} vs {self.names[1]}  ·  {rules}  ·  step {self.index + 1} of {len(self.steps)}"
        W.draw_text(surface, sub, self.font("small"), theme.CREAM_DIM, (cx, r.bottom + self.px(4)), "midtop")
        # the table
        t = self.table
        W.draw_panel(surface, t, fill=theme.PANEL_SOFT, s=self.s)
        small, tiny = self.font("small", True), self.font("tiny")
        ch, cw = self.card_h, self.card_w
        label_w = self.px(210)
        inner_x = t.x + label_w
        inner_w = t.right - self.px(20) - inner_x
        ys = [t.y + self.px(20)]
        ys.append(ys[0] + ch + self.px(26))
        ys.append(ys[1] + ch + self.px(14))
        ys.append(t.bottom - self.px(20) - ch)
        for seat, y in ((1, ys[0]), (0, ys[3])):
            color = theme.SEAT_COLORS[seat]
            name = W.ellipsize(self.names[seat], small, label_w - self.px(30))
            W.draw_text(surface, name, small, color, (t.x + self.px(24), y + ch // 2 - self.px(10)), "midleft")
            dealer = "dealer" if getattr(st.ledger[self.round_no - 1], "dealer", None) == seat else ""
            info = "  ".join(x for x in (dealer, f"{len(p.hands[seat])} in hand") if x)
            W.draw_text(surface, info, tiny, theme.CREAM_DIM, (t.x + self.px(24), y + ch // 2 + self.px(14)),
                        "midleft", shadow=False)
            self._row_of_cards(surface, _sorted_ids(p.hands[seat]), y, inner_x, inner_w, p.touched)
        # the stock beside the field
        back = self.app.assets.back(ch)
        sx, sy = t.x + self.px(24), ys[1] + (ys[2] - ys[1]) // 2
        if p.stock_count:
            for k in range(min(3, p.stock_count)):
                surface.blit(back, (sx + k * 2, sy - k * 2))
        W.draw_text(surface, f"Stock {p.stock_count}", tiny, theme.CREAM,
                    (sx + cw // 2, sy + ch + self.px(6)), "midtop", shadow=False)
        if p.pending:
            self._card(surface, p.pending, ch, (sx + cw + self.px(16), sy), touched=True)
        # the field in two rows, by month
        fld = _sorted_ids(p.field)
        half = (len(fld) + 1) // 2
        field_x = inner_x + (cw + self.px(30) if p.pending else 0)
        field_w = inner_w - (field_x - inner_x)
        self._row_of_cards(surface, fld[:half], ys[1], field_x, field_w, p.touched)
        self._row_of_cards(surface, fld[half:], ys[2], field_x, field_w, p.touched)
        if not fld:
            W.draw_text(surface, "The field is empty", self.font("small"), theme.CREAM_DIM,
                        (field_x + field_w // 2, (ys[1] + ys[2] + ch) // 2), "center")
        # the result over the field on the last step
        if p.kind == "end" and p.row is not None:
            self._draw_result_banner(surface, p, pygame.Rect(inner_x, ys[1], inner_w, ys[2] + ch - ys[1]))
        # the capture piles
        self._draw_piles(surface, p)
        # the markers
        self._draw_markers(surface)
        # the description
        d = self.desc_rect
        W.draw_panel(surface, d, fill=theme.PANEL, s=self.s)
        font = self.font("body")
        bold = self.font("body", True)
        y = d.y + self.px(14)
        room = max(1, (d.h - self.px(20)) // font.get_linesize())
        width = d.w - self.px(60)
        lines = description_lines(p, lambda text: W.wrap_text(text, font, width), room,
                                  lambda text: W.text_width(text, font) <= width)
        for text, k in lines:
            color = theme.CREAM
            f = font
            tone = p.tones[k] if k < len(p.tones) else ""
            if tone == "yaku":
                color, f = theme.GOLD_LIGHT, bold
            elif tone == "koikoi":
                color, f = theme.LACQUER_LIGHT, bold
            W.draw_text(surface, text, f, color, (d.x + self.px(30), y), shadow=False)
            y += font.get_linesize()
        if self.index < len(self.steps) - 1:
            W.draw_text(surface, "← → to step  ·  Home / End  ·  click a marker", self.font("tiny"), theme.MUTED,
                        (d.right - self.px(20), d.bottom - self.px(10)), "bottomright", shadow=False)

    def _draw_result_banner(self, surface, p: Position, area: pygame.Rect) -> None:
        row = p.row
        big = self.font("h2", True)
        if row.winner is None:
            head = "Draw" if row.reason == "lucky_draw" else "No game"
            color = theme.CREAM
        else:
            who = self.names[row.winner]
            head = f"{who} win{'' if who.lower() == 'you' else 's'} {row.award} point{'s' if row.award != 1 else ''}"
            color = theme.SEAT_COLORS[row.winner]
        style = self.style
        sub = ", ".join(f"{Y.label(n, style, short=True)} {pts}" for n, pts, _ in row.yaku) or "Both hands are empty"
        small = self.font("small")
        w = max(W.text_width(head, big), W.text_width(sub, small)) + self.px(80)
        box = pygame.Rect(0, 0, min(area.w, w), big.get_linesize() + small.get_linesize() + self.px(44))
        box.center = area.center
        W.draw_panel(surface, box, fill=theme.PANEL_STRONG, border=theme.GOLD_LIGHT, s=self.s)
        r = W.draw_text(surface, head, big, color, (box.centerx, box.y + self.px(18)), "midtop")
        W.draw_text(surface, W.ellipsize(sub, small, box.w - self.px(30)), small, theme.GOLD_LIGHT,
                    (box.centerx, r.bottom + self.px(6)), "midtop")

    def _draw_piles(self, surface, p: Position) -> None:
        sd = self.side
        half = (sd.h - self.px(16)) // 2
        for seat, y in ((1, sd.y), (0, sd.y + half + self.px(16))):
            box = pygame.Rect(sd.x, y, sd.w, half)
            W.draw_panel(surface, box, fill=theme.PANEL, s=self.s,
                         border=theme.SEAT_COLORS[seat] if p.seat == seat else theme.GOLD_DARK)
            head = self.font("small", True)
            tiny = self.font("tiny")
            x = box.x + self.px(20)
            r = W.draw_text(surface, W.ellipsize(self.names[seat], head, box.w // 2), head, theme.SEAT_COLORS[seat],
                            (x, box.y + self.px(12)))
            if p.calls[seat]:
                tag = f"Koi-Koi ×{p.calls[seat]}" if p.calls[seat] > 1 else "Koi-Koi"
                W.draw_text(surface, tag, self.font("tiny", True), theme.LACQUER_LIGHT,
                            (box.right - self.px(20), r.centery), "midright")
            yk = p.yaku[seat]
            style = self.style
            ytext = ", ".join(f"{Y.label(n, style, short=True)} {pt}" for n, pt in yk) if yk else "No yaku yet"
            ty = r.bottom + self.px(4)
            W.draw_text(surface, W.ellipsize(ytext, tiny, box.w - self.px(40)), tiny,
                        theme.GOLD_LIGHT if yk else theme.CREAM_DIM, (x, ty), shadow=False)
            # cards by kind: two rows (brights + animals, ribbons + chaff)
            area = pygame.Rect(x, ty + tiny.get_linesize() + self.px(8), box.w - self.px(40), 0)
            area.h = box.bottom - self.px(12) - area.y
            ph = min(int((area.h - self.px(8)) / 2), int(self.card_h * 0.8))
            pw = int(ph * 216 / 348)
            groups = {k: [] for k in KIND_ORDER}
            for cid in _sorted_ids(p.captured[seat]):
                groups[card(cid).kind].append(cid)
            for row_i, kinds in enumerate(((Kind.BRIGHT, Kind.ANIMAL), (Kind.RIBBON, Kind.CHAFF))):
                ids_a, ids_b = groups[kinds[0]], groups[kinds[1]]
                n = len(ids_a) + len(ids_b)
                if not n:
                    continue
                gap = self.px(14) if ids_a and ids_b else 0
                step = min(pw + self.px(6), (area.w - gap - pw * (2 if ids_a and ids_b else 1)) / max(1, n - 2 if ids_a and ids_b else n - 1))
                step = max(self.px(6), step)
                cx = area.x
                cy = area.y + row_i * (ph + self.px(8))
                for grp in (ids_a, ids_b):
                    for j, cid in enumerate(grp):
                        self._card(surface, cid, ph, (int(cx), cy), touched=cid in p.touched)
                        cx += step if j < len(grp) - 1 else pw
                    if grp:
                        cx += gap
            if not p.captured[seat]:
                W.draw_text(surface, "Nothing captured yet", tiny, theme.CREAM_DIM, area.center, "center",
                            shadow=False)

    def _draw_markers(self, surface) -> None:
        rects = self._marker_rects()
        r = self.markers_rect
        if rects:
            W.draw_divider(surface, rects[0].centerx, rects[-1].centerx, r.centery, theme.GOLD_DARK,
                           max(1, self.px(2)))
        for i, (rr, step) in enumerate(zip(rects, self.steps)):
            if step.kind == "koikoi":
                color = theme.LACQUER_LIGHT
            elif step.kind in ("end", "stop") or step.made_yaku:
                color = theme.GOLD_LIGHT
            elif step.seat is not None:
                color = theme.SEAT_COLORS[step.seat]
            else:
                color = theme.CREAM
            cur = i == self.index
            size = rr.inflate(self.px(8), self.px(8)) if cur else rr
            if i == self.hover_marker and not cur:
                size = rr.inflate(self.px(4), self.px(4))
            fill = color if cur or i < self.index else theme.darken(color, 0.55)
            surface.blit(W.rounded_surface(size.size, size.w // 2, fill,
                                           border=theme.CREAM if cur else theme.darken(color, 0.2),
                                           border_width=max(1, self.px(2))), size.topleft)
            if step.kind == "koikoi" and (cur or i == self.hover_marker):
                W.draw_text(surface, "Koi-Koi", self.font("tiny", True), theme.LACQUER_LIGHT,
                            (size.centerx, size.y - self.px(4)), "midbottom")


__all__ = ["ReplayScene", "Position", "round_steps", "round_bounds", "position_key", "position_of_state",
           "result_text"]
