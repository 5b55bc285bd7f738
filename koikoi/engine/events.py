"""What happened, as immutable records, and their JSON codec.

Every event is a NamedTuple whose last field ``type`` names it (so two kinds
of event with equal fields never compare equal). Cards are ids ("09-A").
The log holds hidden information (dealt hands, stock order, decks set with
``new_match(decks=...)``): show a seat only ``public_event(event, seat)``. A log read
back with ``events_from_json`` is checked field by field against _SCHEMA (below), so
only ValueError comes out of it. A field with a default (other than ``type``) was added
after logs were first written: ``events_to_json`` leaves it out while it holds its
default, and ``events_from_json`` reads it as the default when it is absent, so old logs
read unchanged and ordinary logs are written as before.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, NamedTuple, Optional

from .cards import IDS
from .knobs import MONTHS_MAX, _show
from .ruleset import Rules


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


DECKS_MAX = 256           # decks ``new_match`` may be given (and a log may record)


class MatchStarted(NamedTuple):
    rules: Rules
    seed: int
    months: Optional[int]
    decks: tuple = ()          # set decks for the first deals, each 48 ids in deal order (hidden)
    first_dealer: Optional[int] = None   # set: no oya-gime, this seat deals the first round
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
    reason: str                # four_of_a_month, four_pairs, three_of_a_month, lucky_hand
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

# Per event class, its fields that may be left out of a log: (name, default), ...
_OPTIONAL: dict = {cls: tuple((f, v) for f, v in cls._field_defaults.items() if f != "type")
                   for cls in EVENT_TYPES.values()}
_OMITTED = {cls: fields for cls, fields in _OPTIONAL.items() if fields}


@lru_cache(maxsize=64)
def _rules_dict(rules: Rules) -> dict:
    return rules.to_dict()


_SCALARS = frozenset((int, str, bool, type(None), float))


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if type(value) is tuple:      # the common case: cards, scores (a LedgerRow is a tuple too)
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if isinstance(value, Rules):
        # a copy of the rules' dict made once (asdict deep-copies every knob: the server
        # wrote three of them for each match it started)
        d = dict(_rules_dict(value))
        d["months_offered"] = list(d["months_offered"])
        return d
    if isinstance(value, LedgerRow):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def event_to_dict(event: NamedTuple) -> dict:
    """The event as a dict of JSON values; an optional field holding its default is left out."""
    out = {k: (v if type(v) in _SCALARS else _plain(v)) for k, v in zip(event._fields, event)}
    omitted = _OMITTED.get(type(event))
    if omitted:
        for f, default in omitted:
            if getattr(event, f) == default:
                del out[f]
    return out


# ---------------------------------------------------------------- reading a log
#
# A log comes from outside (a saved match, a file someone edited), so every field of every
# event is checked for its type and range before an event is built: what events_from_json
# returns is made only of the values the engine itself writes (ints that are not bools,
# card ids, short texts, tuples), and anything else is a ValueError. ``replay`` then
# checks that the rules reproduce the log; these checks only make sure that comparing and
# re-deriving the events never meets a value of the wrong type.
#
# A validator takes a JSON value and returns the event's value (lists become tuples), or
# _BAD. _SCHEMA: event class -> ((field, validator, what it must be), ...).

_BAD = object()
_BIG = 2 ** 53            # far above any score, award or round a match can reach
_SEED_MAX = 2 ** 256
_TEXT_MAX = 64            # reasons, yaku names, multiplier labels
_LIST_MAX = 64            # yaku and multipliers of one round
_CARD_IDS = frozenset(IDS)

Validator = Callable[[Any], Any]


def _seat(v: Any) -> Any:
    return v if type(v) is int and 0 <= v <= 1 else _BAD


def _optional(check: Validator) -> Validator:
    def valid(v: Any) -> Any:
        return None if v is None else check(v)
    return valid


def _whole(lo: int, hi: int) -> Validator:
    def valid(v: Any) -> Any:
        return v if type(v) is int and lo <= v <= hi else _BAD
    return valid


def _text(v: Any) -> Any:
    return v if type(v) is str and len(v) <= _TEXT_MAX else _BAD


def _flag(v: Any) -> Any:
    return v if type(v) is bool else _BAD


def _card(v: Any) -> Any:
    return v if type(v) is str and v in _CARD_IDS else _BAD


def _cards(v: Any) -> Any:
    """A list of card ids (at most the 48)."""
    if type(v) is not list and type(v) is not tuple or len(v) > 48:
        return _BAD
    for c in v:
        if type(c) is not str or c not in _CARD_IDS:
            return _BAD
    return tuple(v)


def _pair(check: Validator) -> Validator:
    """A list of two values, one per seat."""
    def valid(v: Any) -> Any:
        if type(v) is not list and type(v) is not tuple or len(v) != 2:
            return _BAD
        a, b = check(v[0]), check(v[1])
        return _BAD if a is _BAD or b is _BAD else (a, b)
    return valid


def _records(*checks: Validator) -> Validator:
    """A list (at most _LIST_MAX long) of lists whose items pass ``checks`` in turn."""
    n = len(checks)

    def valid(v: Any) -> Any:
        if type(v) is not list and type(v) is not tuple or len(v) > _LIST_MAX:
            return _BAD
        out = []
        for item in v:
            if type(item) is not list and type(item) is not tuple or len(item) != n:
                return _BAD
            rec = tuple(check(x) for check, x in zip(checks, item))
            if _BAD in rec:
                return _BAD
            out.append(rec)
        return tuple(out)
    return valid


def _decks(v: Any) -> Any:
    """A list of at most DECKS_MAX decks, each all 48 card ids once."""
    if type(v) is not list and type(v) is not tuple or len(v) > DECKS_MAX:
        return _BAD
    out = []
    for deck in v:
        deck = _cards(deck)
        if deck is _BAD or len(deck) != 48 or len(set(deck)) != 48:
            return _BAD
        out.append(deck)
    return tuple(out)


def _texts(v: Any) -> Any:
    """A short list of short texts (the names of lucky hands)."""
    if type(v) is not list and type(v) is not tuple or len(v) > 8:
        return _BAD
    return tuple(v) if all(_text(x) is not _BAD for x in v) else _BAD


def _rules(v: Any) -> Any:
    if not isinstance(v, dict):
        return _BAD
    return Rules.from_dict(v)  # raises ValueError naming the bad knobs


_round = _whole(1, _BIG)
_points = _whole(0, _BIG)
_score = _whole(-_BIG, _BIG)
_SEAT = (_seat, "a seat, 0 or 1")
_SEAT_OR_NONE = (_optional(_seat), "a seat, 0 or 1, or null")
_ROUND = (_round, f"a round number from 1 to {_BIG}")
_REASON = (_text, f"a text of at most {_TEXT_MAX} characters")
_CARD = (_card, "a card id such as \"09-A\"")
_CARDS = (_cards, "a list of at most 48 card ids")
_HANDS = (_pair(_cards), "two lists of card ids, one per seat")

_ROW_SCHEMA: tuple = (
    ("round",) + _ROUND,
    ("dealer",) + _SEAT,
    ("winner",) + _SEAT_OR_NONE,
    ("reason",) + _REASON,
    ("yaku", _records(_text, _points, _cards), "a list of [name, points, card ids]"),
    ("base", _points, f"a whole number from 0 to {_BIG}"),
    ("multipliers", _records(_text, _points), "a list of [label, factor]"),
    ("award", _points, f"a whole number from 0 to {_BIG}"),
    ("scores", _pair(_score), "two whole numbers, one per seat"),
    ("calls", _pair(_points), "two whole numbers >= 0, one per seat"),
)


def _row(v: Any) -> Any:
    if not isinstance(v, dict) or set(v) != set(LedgerRow._fields):
        raise ValueError("malformed ledger row: expected an object with the fields "
                         + ", ".join(LedgerRow._fields))
    return LedgerRow(*_checked(LedgerRow, _ROW_SCHEMA, v))


_SCHEMA: dict = {
    MatchStarted: (
        ("rules", _rules, "an object of rule knobs"),
        ("seed", _whole(-_SEED_MAX, _SEED_MAX), "a whole number (the match's seed)"),
        ("months", _optional(_whole(1, MONTHS_MAX)), f"a whole number from 1 to {MONTHS_MAX}, or null"),
        ("decks", _decks, f"a list of at most {DECKS_MAX} decks, each the 48 card ids once"),
        ("first_dealer",) + _SEAT_OR_NONE,
    ),
    OyagimeSpread: (("cards",) + _CARDS,),
    OyagimePicked: (("seat",) + _SEAT, ("index", _whole(0, 3), "0, 1, 2 or 3"), ("card",) + _CARD),
    OyagimeDecided: (("dealer",) + _SEAT_OR_NONE, ("cards",) + _CARDS, ("reason",) + _REASON),
    RoundDealt: (("round",) + _ROUND, ("dealer",) + _SEAT, ("hands",) + _HANDS,
                 ("field",) + _CARDS, ("stock",) + _CARDS),
    Misdeal: (("round",) + _ROUND, ("reason",) + _REASON, ("cards",) + _CARDS),
    FieldSwept: (("seat",) + _SEAT, ("cards",) + _CARDS, ("replacements",) + _CARDS),
    LuckyHand: (("seat",) + _SEAT, ("hands", _texts, "a list of lucky hand names"),
                ("points", _points, f"a whole number from 0 to {_BIG}"), ("cards",) + _CARDS),
    Played: (("seat",) + _SEAT, ("card",) + _CARD,
             ("target", _optional(_card), "a card id or null"), ("taken",) + _CARDS),
    Flipped: (("seat",) + _SEAT, ("card",) + _CARD,
              ("taken", _optional(_cards), "a list of card ids or null")),
    Chose: (("seat",) + _SEAT, ("card",) + _CARD, ("target",) + _CARD),
    YakuMade: (("seat",) + _SEAT, ("yaku", _records(_text, _points), "a list of [name, points]"),
               ("total", _points, f"a whole number from 0 to {_BIG}")),
    KoiKoiCalled: (("seat",) + _SEAT, ("calls", _points, f"a whole number from 0 to {_BIG}")),
    Stopped: (("seat",) + _SEAT, ("auto", _flag, "true or false")),
    Exhausted: (("round",) + _ROUND,),
    RoundEnded: (("row", _row, "a ledger row"), ("captured",) + _HANDS),
    MatchEnded: (("winner",) + _SEAT_OR_NONE, ("scores", _pair(_score), "two whole numbers, one per seat")),
}
assert all(tuple(f for f, _, _ in _SCHEMA[cls]) == cls._fields[:-1] for cls in EVENT_TYPES.values())
assert tuple(f for f, _, _ in _ROW_SCHEMA) == LedgerRow._fields


def _checked(cls: type, schema: tuple, data: dict) -> list:
    """The values of ``data``'s fields in ``schema`` order, each checked."""
    values = []
    for field, check, what in schema:
        v = check(data[field])
        if v is _BAD:
            raise ValueError(f"{cls.__name__}.{field} is {_show(data[field])}; expected {what}")
        values.append(v)
    return values


def event_from_dict(data: Any) -> NamedTuple:
    """One event from its dict (as event_to_dict writes it). Raises ValueError if ``data``
    is not exactly such a dict, with every field of the right type (an optional field may
    be absent: it takes its default)."""
    if not isinstance(data, dict):
        raise ValueError(f"not an event: {_show(data)}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if type(kind) is str else None
    if cls is None:
        raise ValueError(f"unknown event type {_show(kind)}" if "type" in data
                         else f"not an event (no type): {_show(data)}")
    if len(data) != len(cls._fields) or not all(f in data for f in cls._fields):
        data = _with_defaults(cls, data)
    values = _checked(cls, _SCHEMA[cls], data)
    values.append(kind)
    return tuple.__new__(cls, values)


def _with_defaults(cls: type, data: dict) -> dict:
    """``data`` with the optional fields it leaves out set to their defaults; raises
    ValueError if it lacks a field that is not optional or has one ``cls`` does not."""
    optional = dict(_OPTIONAL[cls])
    fields = cls._fields
    if all(f in data or f in optional for f in fields) and all(k in fields for k in data):
        return {**optional, **data}
    missing = [f for f in fields if f not in data and f not in optional]
    extra = sorted(_show(k)[:_TEXT_MAX] for k in data if k not in fields)
    expected = ", ".join(f + " (optional)" if f in optional else f for f in fields)
    raise ValueError(f"event {data['type']!r} has the wrong fields (expected {expected}"
                     + (f"; missing {', '.join(missing)}" if missing else "")
                     + (f"; unexpected {', '.join(extra[:5])}" if extra else "") + ")")


def events_to_json(events) -> str:
    """The log as JSON text (one event per line inside a list, for readable diffs)."""
    body = ",\n".join(json.dumps(event_to_dict(e), ensure_ascii=False, separators=(",", ":"))
                      for e in events)
    return '{"format":%d,"events":[\n%s\n]}' % (FORMAT_VERSION, body)


def events_from_json(text: Any) -> tuple:
    """Parse a log written by events_to_json. Raises ValueError (and only ValueError) on
    anything malformed: not JSON, nested too deep, another format, or any event or field
    that is not exactly what the engine writes."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise ValueError(f"a match log is JSON text, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("the match log is nested too deeply to be a match log") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, an int of too many digits
        raise ValueError(f"the match log is not valid JSON: {str(exc)[:200]}") from None
    return events_from_data(data)


def events_from_data(data: Any) -> tuple:
    """``events_from_json`` of a log already parsed from JSON (a match file's "log"): the
    same checks, and ValueError (only) on anything that is not exactly what the engine writes."""
    if not isinstance(data, dict) or type(data.get("events")) is not list:
        raise ValueError("the match log has no event list")
    fmt = data.get("format")
    if type(fmt) is not int or fmt != FORMAT_VERSION:
        raise ValueError(f"the match log has format {_show(fmt)}; this version reads {FORMAT_VERSION}")
    out = []
    for i, d in enumerate(data["events"]):
        try:
            out.append(event_from_dict(d))
        except ValueError as exc:
            raise ValueError(f"event {i} of the match log: {exc}") from None
    return tuple(out)


def public_event(event: NamedTuple, seat: int) -> NamedTuple:
    """The event as ``seat`` may see it: hidden cards become None (the other seat's dealt
    hand, the stock, the face-down oya-gime spread, and every card of the decks a match was
    started with). The seed in MatchStarted is passed on as it is."""
    if isinstance(event, RoundDealt):
        hands = tuple(h if s == seat else (None,) * len(h) for s, h in enumerate(event.hands))
        return event._replace(hands=hands, stock=(None,) * len(event.stock))
    if isinstance(event, OyagimeSpread):
        return event._replace(cards=(None,) * len(event.cards))
    if isinstance(event, MatchStarted) and event.decks:
        return event._replace(decks=tuple((None,) * len(d) for d in event.decks))
    return event
