"""One round of a finished match, step by step, as the replay viewer shows it: the model, with
no pygame (the viewer is koikoi/ui/scenes/replay.py; the ledger and the round results find a
round's bounds and say why a replay cannot open through this module too).

The steps come from the match's event log (``round_steps``): the deal, then one step per
player action (a play with its stock turn, a choice of the stock card's match, a Koi-Koi
call, a stop), then the round's result. A step's table is the public-table fold the round
table uses (``engine.table.tables``) at the step's last event: the field, piles, stock, calls
and yaku from the viewing seat's table, each hand from its own seat's table (the replay shows
both hands, and one seat's fold holds only its own). So each step's position equals
``replay(events[:k])`` at the event index ``k`` where the next player's action begins (a test
checks it). The step's words are ``koikoi.narration``'s sentences of the viewing seat's public
events, cards by name in the player's name style.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import narration as N
from .engine import DECK, Kind, action_of, public_event
from .engine.cards import ids_of
from .engine.endings import ending
from .engine.events import (Chose, FieldSwept, Flipped, KoiKoiCalled, MatchStarted, Played, RoundDealt, RoundEnded,
                            Stopped, YakuMade)
from .engine.rules import Rules
from .engine.table import PublicTable, fold_all, tables
from .i18n import _

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


class RoundIncomplete(ValueError):
    """A round the log does not hold from its deal to its result (the message stays English,
    for logs; ``problem_text`` gives the player's words)."""

    def __init__(self, round_no: int):
        super().__init__(f"round {round_no} is not complete in this log")
        self.round_no = round_no


def problem_text(exc: BaseException) -> str:
    """Why a replay cannot open, in the current language (a problem this module does not
    name reads as the exception's own text)."""
    if isinstance(exc, RoundIncomplete):
        return _("round {n} is not complete in this log").format(n=exc.round_no)
    return str(exc)


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
        raise RoundIncomplete(round_no)
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
    rules = next((x.rules for x in events if isinstance(x, MatchStarted)), None) or Rules()
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
            if isinstance(ev, RoundEnded):     # why it ended: the rule and the card (engine.endings)
                lines.append(N.why_ended(ending(ev.row, rules, events[s:e + 1]), names, style=style, you=you))
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
    return (tuple(tuple(sorted(ids_of(m))) for m in state.hands), tuple(sorted(ids_of(state.field))),
            tuple(tuple(sorted(ids_of(m))) for m in state.captured))


def position_key(p: Position) -> tuple:
    return (tuple(tuple(sorted(h)) for h in p.hands), tuple(sorted(p.field)),
            tuple(tuple(sorted(c)) for c in p.captured))


_DECK_ORDER = {c.id: c.index for c in DECK}


def sorted_ids(ids) -> list:
    """Card ids in deck order (month, then kind)."""
    return sorted(ids, key=_DECK_ORDER.__getitem__)



# ---------------------------------------------------------------- a round's review, step by step

def round_decisions(result, seats, round_no: int) -> dict:
    """Event index -> the reviewed decision (``review.analysis``) of one of ``seats`` made in
    round ``round_no`` of a review's ``result``."""
    seats = set(seats)
    return {d.index: d for rr in result.rounds if rr.round == round_no and rr.seat in seats
            for d in rr.decisions}


def verdicts(steps: list[Position], decisions: dict) -> dict:
    """Step index -> the verdict of the reviewed decision made at that step (what the turn
    markers show)."""
    return {i: d.verdict for i, st in enumerate(steps) if (d := decisions.get(st.start)) is not None}


def error_steps(steps: list[Position], decisions: dict) -> list[int]:
    """The indices of the steps whose reviewed decision is a mistake or an inaccuracy."""
    return [i for i, st in enumerate(steps) if (d := decisions.get(st.start)) is not None and d.is_error]


__all__ = ["Position", "RoundIncomplete", "problem_text", "round_bounds", "round_steps", "description_lines",
           "result_text", "position_of_state", "position_key", "sorted_ids", "KIND_ORDER",
           "round_decisions", "verdicts", "error_steps"]
