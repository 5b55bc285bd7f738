"""What happened, as immutable records, and their JSON codec.

Every event is a NamedTuple whose last field ``type`` names it (so two kinds
of event with equal fields never compare equal). Cards are ids ("09-A").
The log holds hidden information (dealt hands, stock order): show a seat only
``public_event(event, seat)``.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Optional

from .rules import Rules


class LedgerRow(NamedTuple):
    round: int                 # 1-based round (month) of the match
    dealer: int
    winner: Optional[int]      # seat that received the award, None for no game / draw
    reason: str                # stop, auto_stop, exhausted, lucky_hand, lucky_draw, field_four
    yaku: tuple                # ((name, points, card ids), ...)
    base: int
    multipliers: tuple         # ((label, factor), ...)
    award: int
    scores: tuple              # running match totals after this round
    calls: tuple               # Koi-Koi calls per seat this round


class MatchStarted(NamedTuple):
    rules: Rules
    seed: int
    months: Optional[int]
    type: str = "match_started"


class OyagimeSpread(NamedTuple):
    cards: tuple               # face down; seat 0 picks from the first two, seat 1 from the last two
    type: str = "oyagime_spread"


class OyagimePicked(NamedTuple):
    seat: int
    index: int
    card: str
    type: str = "oyagime_picked"


class OyagimeDecided(NamedTuple):
    dealer: Optional[int]      # None: a tie, redrawn
    cards: tuple               # (seat 0's card, seat 1's card)
    reason: str
    type: str = "oyagime_decided"


class RoundDealt(NamedTuple):
    round: int
    dealer: int
    hands: tuple               # (seat 0's 8 ids, seat 1's 8 ids)
    field: tuple
    stock: tuple               # top card first
    type: str = "round_dealt"


class Misdeal(NamedTuple):
    round: int
    reason: str                # four_of_a_month, four_pairs, lucky_hand
    cards: tuple
    type: str = "misdeal"


class FieldSwept(NamedTuple):
    seat: int
    cards: tuple               # the four of a month the dealer takes
    replacements: tuple        # stock cards laid in their place
    type: str = "field_swept"


class LuckyHand(NamedTuple):
    seat: int
    hands: tuple               # ("teshi",), ("kuttsuki",) or both
    points: int
    cards: tuple
    type: str = "lucky_hand"


class Played(NamedTuple):
    seat: int
    card: str
    target: Optional[str]      # the field card chosen when two matched
    taken: tuple               # field cards captured; () = the card joins the field
    type: str = "played"


class Flipped(NamedTuple):
    seat: int
    card: str
    taken: Optional[tuple]     # None: two field cards match, the seat must choose
    type: str = "flipped"


class Chose(NamedTuple):
    seat: int
    card: str                  # the stock card
    target: str
    type: str = "chose"


class YakuMade(NamedTuple):
    seat: int
    yaku: tuple                # ((name, points), ...): everything the seat now holds
    total: int
    type: str = "yaku_made"


class KoiKoiCalled(NamedTuple):
    seat: int
    calls: int
    type: str = "koikoi"


class Stopped(NamedTuple):
    seat: int
    auto: bool                 # True: ended by the rules (last turn, call limit), not chosen
    type: str = "stopped"


class Exhausted(NamedTuple):
    round: int
    type: str = "exhausted"


class RoundEnded(NamedTuple):
    row: LedgerRow
    captured: tuple            # both capture piles at the end of the round
    type: str = "round_ended"


class MatchEnded(NamedTuple):
    winner: Optional[int]
    scores: tuple
    type: str = "match_ended"


EVENT_TYPES = {
    cls._field_defaults["type"]: cls
    for cls in (MatchStarted, OyagimeSpread, OyagimePicked, OyagimeDecided, RoundDealt, Misdeal,
                FieldSwept, LuckyHand, Played, Flipped, Chose, YakuMade, KoiKoiCalled, Stopped,
                Exhausted, RoundEnded, MatchEnded)
}

FORMAT_VERSION = 1


def _plain(value: Any) -> Any:
    if isinstance(value, Rules):
        return value.to_dict()
    if isinstance(value, LedgerRow):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def event_to_dict(event: NamedTuple) -> dict:
    return {k: _plain(v) for k, v in event._asdict().items()}


def event_from_dict(data: dict) -> NamedTuple:
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError(f"not an event: {data!r:.80}")
    cls = EVENT_TYPES.get(data["type"])
    if cls is None:
        raise ValueError(f"unknown event type {data['type']!r}")
    expected = set(cls._fields)
    if set(data) != expected:
        raise ValueError(f"event {data['type']!r} has fields {sorted(data)}, expected {sorted(expected)}")
    values = {}
    for k, v in data.items():
        if k == "rules":
            values[k] = Rules.from_dict(v)
        elif k == "row":
            if not isinstance(v, dict) or set(v) != set(LedgerRow._fields):
                raise ValueError("malformed ledger row")
            values[k] = LedgerRow(**{rk: _tupled(rv) for rk, rv in v.items()})
        else:
            values[k] = _tupled(v)
    return cls(**values)


def events_to_json(events) -> str:
    """The log as JSON text (one event per line inside a list, for readable diffs)."""
    body = ",\n".join(json.dumps(event_to_dict(e), ensure_ascii=False, separators=(",", ":"))
                      for e in events)
    return '{"format":%d,"events":[\n%s\n]}' % (FORMAT_VERSION, body)


def events_from_json(text: str) -> tuple:
    """Parse a log written by events_to_json. Raises ValueError on anything malformed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the match log is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise ValueError("the match log has no event list")
    if data.get("format") != FORMAT_VERSION:
        raise ValueError(f"the match log has format {data.get('format')!r}; this version reads {FORMAT_VERSION}")
    return tuple(event_from_dict(d) for d in data["events"])


def public_event(event: NamedTuple, seat: int) -> NamedTuple:
    """The event as ``seat`` may see it: hidden cards become None."""
    if isinstance(event, RoundDealt):
        hands = tuple(h if s == seat else (None,) * len(h) for s, h in enumerate(event.hands))
        return event._replace(hands=hands, stock=(None,) * len(event.stock))
    if isinstance(event, OyagimeSpread):
        return event._replace(cards=(None,) * len(event.cards))
    return event
