"""The wire protocol between ``koikoi serve`` and its clients: JSON text frames.

Every frame is one JSON object with a ``type``. A client's frame may carry an
``id`` (an int 0..2**31-1 or a short text); the server's answer to it carries
the same value as ``re``. Cards are ids ("09-A"); a card a seat may not see is
``null``.

Client -> server (``parse_client``, strict: unknown fields or types are refused)

    create     {name, rules: {preset, house?}, months?, spectators?}
               a new room; the creator takes seat 0. ``house``: house-rule changes
               (knob -> value) that the house-rules editor offers
               (``koikoi.storage.valid_house_rules``); ``months`` one of the
               rules' ``months_offered`` (default the preset's), or null when the
               house rules set ``months`` to null (played to a target).
    join       {room, name}        take the free seat 1 of a room
    reconnect  {room, token}       take back one's seat (the token from ``joined``)
    watch      {room, name?}       watch a room whose host allowed spectators
    act        {action, at?}       play; ``at``: the number of events the client
                                   has seen (refused as stale if the log moved on)
    claim      {}                  win by forfeit: the other seat dropped for
                                   ``claim_after`` seconds, or left
    leave      {}                  leave the room (the token still works)
    sync       {have?}             send me the events from ``have`` on (the number the
                                   client holds; left out: 0, the whole list)
    record     {}                  send me the match record again (a seated player of an
                                   ended match)
    ping       {}

    The quick-match ladder's messages (identify, queue, unqueue, board, profile and
    their answers: docs/ladder.md, koikoi.ladder.service) are read by the ladder itself
    when the server runs one (``koikoi serve``); without one they are ``bad_type``.

    action: {"kind": "play", "card": id, "target": id|null}
          | {"kind": "choose", "target": id} | {"kind": "pick", "index": 0..3}
          | {"kind": "koikoi"} | {"kind": "stop"}

Server -> client

    hello      {server: "koikoi", protocol, limits: {max_frame, rate, burst}}
    joined     {re, room, role: "player"|"spectator", seat: 0|1|null, token?,
                names: [n0|null, n1|null], preset, house, rules: {every knob},
                months, spectators, status, claim_after}
               ``token`` only to the player who created or joined (keep it secret)
    events     {re?, start, events: [...], total, to_move, legal: [action, ...]}
               the events ``start`` .. ``total-1`` as this connection may see them
               (``start`` 0: fold from scratch); ``legal``: the actions open to this
               seat now (empty when it is not to move or the match is not playing)
    room       {status, names}     the room's status changed (a seat was taken, ...)
    presence   {seat, name, state: "empty"|"connected"|"dropped"|"left", since, gone,
                claim_in}          ``since``: server time (Unix seconds) of the change;
                                   ``gone``: seconds since it dropped or left (0 otherwise);
                                   ``claim_in``: seconds until the other seat may claim
                                   (0: now; null: no claim possible). Sent on every change,
                                   and again when a claim becomes possible.
    over       {winner, reason: "played"|"forfeit", scores, conceded}
    record     {re?, room, match_id, seat, names, reason, winner, conceded, scores, log}
               the whole match, hidden cards and seed included, once it has ended (played
               out or claimed), to each seated player: right after ``over``, again on
               ``reconnect`` to an ended room and on ``record``; never while it is live,
               never to a spectator. ``log`` is ``events_to_json``'s object; ``match_id``
               is ``record_id(log)`` (both players file it under the same id). The client
               checks it against what it was sent (``koikoi.net.client.check_record``).
    left       {re}                the answer to ``leave`` (the server then closes)
    pong       {re}
    error      {re, code, message}    nothing changed; ``re`` is the request's id whenever
                                   the frame could be read that far (null otherwise)

Room status: ``open`` (waiting for seat 1), ``playing``, ``over``, ``closed``
(the host left before anyone joined), ``expired``.

Events are ``event_to_dict(public_event(e, seat))`` with MatchStarted's
``seed`` set to 0 and its set ``decks`` dropped (the seed would deal every card
again: ``wire_event``); a spectator gets them with both hands hidden
(``spectator_event``). ``event_from_wire`` reads them back, checked field by
field like ``events_from_json`` (hidden cards stay None).
"""

from __future__ import annotations

import json
import re
import secrets
from functools import lru_cache
from typing import Any, NamedTuple, Optional

from ..engine import (ChooseMatch, KoiKoi, PickOyagime, Play, Stop)
from ..engine.cards import IDS
from ..engine.events import FORMAT_VERSION as LOG_FORMAT
from ..engine.events import (MatchStarted, OyagimeSpread, RoundDealt, event_from_dict,
                             event_to_dict, events_to_json, public_event)
from ..engine.fast import shared_events
from ..engine.legal import shared_actions
from ..files import BadFile, parse_json, too_deep
from ..session import canonical_json, clean_name, legacy_id, text_id

try:
    from orjson import OPT_SORT_KEYS as _SORT_KEYS
    from orjson import dumps as _orjson_dumps
    from orjson import loads as _orjson_loads
except ImportError:                 # optional: json encodes the same text, slower
    _orjson_dumps = _orjson_loads = None

PROTOCOL_VERSION = 1
MAX_FRAME = 16 * 1024            # bytes of one client frame (the server's websockets max_size)
MAX_DEPTH = 6                    # nesting of a client frame: {"rules": {"house": {...}}} is 3
SERVER_MAX_FRAME = 8 * 1024 * 1024   # what a client accepts from the server (a whole long log)
SERVER_MAX_DEPTH = 12
NAME_MAX = 40
ID_MAX = 32                      # characters of a text request id
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
CODE_RE = re.compile(r"KOI-[0-9]{4,8}")
CODE_DIGITS = 4
_CARD_IDS = frozenset(IDS)
_ID_INT_MAX = 2 ** 31 - 1
# What no text from a client may hold: C0/C1 control characters, and lone surrogates (they
# cannot be encoded as UTF-8: echoed back or written to SQLite they would fail there).
_UNSAFE_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def clean_text(value: str) -> bool:
    """True if ``value`` holds no control character and no lone surrogate."""
    return _UNSAFE_TEXT.search(value) is None


class ProtocolError(ValueError):
    """A frame that is not a valid message. ``code`` is the error code sent back."""

    def __init__(self, code: str, message: str, re: Any = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.re = re            # the request's id, when it could be read


def _short(value: Any, n: int = 40) -> str:
    """A value named in an error message: short, never raising."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= n else text[: n - 1] + "…"


def new_room_code(digits: int = CODE_DIGITS) -> str:
    return "KOI-" + "".join(secrets.choice("0123456789") for _ in range(digits))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def normal_code(value: Any) -> Optional[str]:
    """A room code as typed ("koi-4821", " KOI-4821 ", "4821") in its canonical form, or None."""
    if type(value) is not str or len(value) > 16:
        return None
    text = value.strip().upper()
    if text.isdigit():
        text = "KOI-" + text
    return text if CODE_RE.fullmatch(text) else None


# ------------------------------------------------------------------ actions

def action_to_json(action) -> dict:
    """An engine action as its wire form."""
    if isinstance(action, Play):
        return {"kind": "play", "card": action.card, "target": action.target}
    if isinstance(action, ChooseMatch):
        return {"kind": "choose", "target": action.target}
    if isinstance(action, PickOyagime):
        return {"kind": "pick", "index": action.index}
    if isinstance(action, KoiKoi):
        return {"kind": "koikoi"}
    if isinstance(action, Stop):
        return {"kind": "stop"}
    raise TypeError(f"not an action: {type(action).__name__}")


# id -> its text (None until first asked) of each action legal_actions hands out: kept for
# good, since those instances are never freed (an id here is always the same action).
_ACTION_TEXTS: dict = dict.fromkeys(map(id, shared_actions()))


def actions_text(actions) -> str:
    """``encode([action_to_json(a) for a in actions])``, each of legal_actions' own
    instances encoded once for good."""
    texts = _ACTION_TEXTS
    out = []
    for a in actions:
        key = id(a)
        text = texts.get(key)
        if text is None:
            text = encode(action_to_json(a))
            if key in texts:
                texts[key] = text
        out.append(text)
    return "[" + ",".join(out) + "]"


_ACTION_FIELDS = {"play": {"card", "target"}, "choose": {"target"}, "pick": {"index"},
                  "koikoi": set(), "stop": set()}


def action_from_json(data: Any):
    """The engine action of a wire form; ProtocolError("bad_action") if malformed
    (whether it is legal is the engine's question)."""
    if type(data) is not dict:
        raise ProtocolError("bad_action", "an action is an object such as {\"kind\": \"stop\"}")
    kind = data.get("kind")
    if type(kind) is not str or kind not in _ACTION_FIELDS:
        raise ProtocolError("bad_action", f"unknown action kind {_short(kind)} "
                                          f"(play, choose, pick, koikoi, stop)")
    allowed = _ACTION_FIELDS[kind]
    extra = [k for k in data if k != "kind" and k not in allowed]
    if extra:
        raise ProtocolError("bad_action", f"a {kind} action has no field {_short(extra[0])}")

    def card(field: str, optional: bool = False) -> Optional[str]:
        v = data.get(field)
        if v is None and optional:
            return None
        if type(v) is not str or v not in _CARD_IDS:
            raise ProtocolError("bad_action", f"{kind}.{field} must be a card id such as \"09-A\"")
        return v
    if kind == "play":
        return Play(card("card"), card("target", optional=True))
    if kind == "choose":
        return ChooseMatch(card("target"))
    if kind == "pick":
        index = data.get("index")
        if type(index) is not int or not 0 <= index <= 3:
            raise ProtocolError("bad_action", "pick.index must be 0, 1, 2 or 3")
        return PickOyagime(index)
    return KoiKoi() if kind == "koikoi" else Stop()


# ------------------------------------------------------------------ events

def _hide_seed(event: NamedTuple) -> NamedTuple:
    if isinstance(event, MatchStarted):
        # The seed deals every card again; set decks are cards too (the server sets none).
        return event._replace(seed=0, decks=())
    return event


# The events every viewer sees whole (a card played, a yaku, a score): their JSON text is
# the same for each seat, a spectator and the server's own log.
_PRIVATE = (RoundDealt, OyagimeSpread, MatchStarted)
_TEXTS: dict = {}                # id(event) -> (event, its text): the last events encoded
_TEXTS_MAX = 256
# The engine's shared events (most of a match's plays and flips are one of these ~1,400
# instances): id -> [text, canonical text], each encoded on first use and kept for good
# (they are never freed, so an id here is always the same event).
_SHARED: dict = {id(e): [None, None] for e in shared_events()}


def is_public(event: NamedTuple) -> bool:
    """True if every viewer sees ``event`` whole: its ``event_text`` is what each is sent."""
    return not isinstance(event, _PRIVATE)


def event_text(event: NamedTuple) -> str:
    """The whole event as compact JSON (``encode(event_to_dict(event))``), encoded once for
    all who need it: the room store writing it, and for a public event each viewer."""
    key = id(event)
    shared = _SHARED.get(key)
    if shared is not None:
        text = shared[0]
        if text is None:
            text = shared[0] = encode(event_to_dict(event))
        return text
    hit = _TEXTS.get(key)
    if hit is not None and hit[0] is event:
        return hit[1]
    text = encode(event_to_dict(event))
    if len(_TEXTS) >= _TEXTS_MAX:
        _TEXTS.clear()
    _TEXTS[key] = (event, text)
    return text


def canonical_text(event: NamedTuple) -> str:
    """The event as ``session.legacy_id`` writes it inside a log (keys sorted, compact):
    orjson's text where it writes the same (every event but MatchStarted, whose rules
    may hold a float, which the two write differently), json's otherwise."""
    shared = _SHARED.get(id(event))
    if shared is not None and shared[1] is not None:
        return shared[1]
    d = event_to_dict(event)
    text = None
    if _orjson_dumps is not None and type(event) is not MatchStarted:
        try:
            text = _orjson_dumps(d, option=_SORT_KEYS).decode()
        except TypeError:               # an int over 64 bits: json's
            pass
    if text is None:
        text = canonical_json(d)
    if shared is not None:
        shared[1] = text
    return text


def log_id(events) -> str:
    """``record_id(record_log(events))``, from each event's canonical text (the shared
    events' kept): the SHA-256 of ``{"events":[...],"format":N}``, keys sorted."""
    return text_id('{"events":[' + ",".join(map(canonical_text, events)) + '],"format":%d}' % LOG_FORMAT)


@lru_cache(maxsize=64)
def rules_dict(rules) -> dict:
    """``rules.to_dict()`` made once per set of rules (a shared dict: read it, never change it)."""
    return rules.to_dict()


def wire_event(event: NamedTuple, seat: int) -> dict:
    """``event`` as ``seat`` may see it, as a JSON object: ``public_event`` (the other
    hand, the stock and the face-down oya-gime cards become null) and no seed."""
    return event_to_dict(_hide_seed(public_event(event, seat)))


def spectator_event(event: NamedTuple) -> dict:
    """``event`` as a spectator may see it: what lies face up on the table, no hand at all
    (both dealt hands are null; a played card shows when it is played)."""
    e = public_event(event, 0)
    if isinstance(e, RoundDealt):
        e = e._replace(hands=tuple((None,) * len(h) for h in e.hands))
    return event_to_dict(_hide_seed(e))


def _cards_or_hidden(v: Any, what: str, *, hidden_only: bool = False) -> tuple:
    if type(v) is not list or len(v) > 48:
        raise ValueError(f"{what} is not a list of cards")
    for c in v:
        if c is None:
            continue
        if hidden_only or type(c) is not str or c not in _CARD_IDS:
            raise ValueError(f"{what} holds {_short(c)}")
    return tuple(v)


def event_from_wire(data: Any) -> NamedTuple:
    """One event from the server, checked (ValueError if malformed). Hidden cards stay
    None; everything else is what ``event_from_dict`` accepts."""
    if type(data) is not dict:
        raise ValueError(f"not an event: {_short(data)}")
    kind = data.get("type")
    if kind == RoundDealt._field_defaults["type"]:
        hands, stock = data.get("hands"), data.get("stock")
        if type(hands) is not list or len(hands) != 2:
            raise ValueError("round_dealt.hands is not two hands")
        hands = tuple(_cards_or_hidden(h, "round_dealt.hands") for h in hands)
        stock = _cards_or_hidden(stock, "round_dealt.stock", hidden_only=True)
        shown = dict(data, hands=[[c for c in h if c is not None] for h in hands], stock=[])
        return event_from_dict(shown)._replace(hands=hands, stock=stock)
    if kind == OyagimeSpread._field_defaults["type"]:
        if set(data) != {"type", "cards"}:
            raise ValueError("oyagime_spread has the wrong fields")
        cards = _cards_or_hidden(data["cards"], "oyagime_spread.cards", hidden_only=True)
        if len(cards) > 4:
            raise ValueError("oyagime_spread has more than four cards")
        return OyagimeSpread(cards)
    event = event_from_dict(data)
    if isinstance(event, MatchStarted) and (event.seed != 0 or event.decks):
        raise ValueError("match_started carries a seed or decks")
    return event


# ------------------------------------------------------------------ the record of an ended match

def record_log(events) -> dict:
    """The whole log as ``events_to_json`` writes it, as a JSON object (the ``log`` of a
    ``record`` message and of a filed match)."""
    return json.loads(events_to_json(events))


def record_id(log: dict) -> str:
    """The match id both players file an online match under: 16 hex digits of the
    SHA-256 of the canonical log (``session.legacy_id``), so each side can check it."""
    return legacy_id(log)


def record_text(code: str, names, events, result: Optional[dict]) -> str:
    """The ``record`` message of an ended match, encoded, less its ``type`` and ``seat``
    (``frames.record`` puts them in front for each seat): room, match_id, names, reason,
    winner, conceded, scores, log (``record_log``'s object): each event's ``event_text``,
    and its canonical text for the id (``log_id``)."""
    r = result or {}
    head = encode({"room": code, "match_id": log_id(events),
                   "names": list(names), "reason": r.get("reason", "played"), "winner": r.get("winner"),
                   "conceded": r.get("conceded"), "scores": r.get("scores")})
    return f'{head[:-1]},"log":{{"format":{LOG_FORMAT:d},"events":[{",".join(map(event_text, events))}]}}}}'


# ------------------------------------------------------------------ frames

_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def encode(message: dict) -> str:
    """A frame's JSON text: compact, UTF-8 as is (the same text from orjson, several times
    faster, where it is installed: json's for what orjson does not take, such as an
    integer over 64 bits or a key that is not text). No frame holds NaN: json refuses it,
    orjson writes null."""
    if _orjson_dumps is not None:
        try:
            return _orjson_dumps(message).decode()
        except TypeError:
            pass
    return _ENCODE(message)


# orjson reads an integer over 64 bits as a float, json as the integer: such a frame (or
# any with a run of 19 digits, in a string too) is read by json
_LONG_DIGITS = re.compile(r"[0-9]{19}").search


def frame_object(raw: Any, max_bytes: int = MAX_FRAME, max_depth: int = MAX_DEPTH, *,
                 fast: bool = False) -> dict:
    """A client frame read as far as a JSON object (ProtocolError if it is not one): the
    server looks at its ``type`` (a quick-match ladder's own?) before ``check_client``.
    ``fast`` (the server's frames): read by orjson where it is installed, if the frame is
    no deeper than ``max_depth``, has no run of 19 digits (an integer over 64 bits: a float
    to orjson) and orjson takes it; anything else (a lone surrogate, bad JSON) is read as
    before, by ``files.parse_json``, which answers the same value or says what is wrong. ``check_client`` checks the value
    either way."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raise ProtocolError("binary", "binary frames are not accepted: send JSON text")
    if type(raw) is not str:
        raise ProtocolError("bad_frame", "not a text frame")
    if len(raw) > max_bytes or (len(raw) * 4 > max_bytes and len(raw.encode("utf-8", "surrogatepass")) > max_bytes):
        raise ProtocolError("too_big", f"a frame is at most {max_bytes} bytes")
    if fast and _orjson_loads is not None and not too_deep(raw, max_depth) and not _LONG_DIGITS(raw):
        try:
            data = _orjson_loads(raw)
        except ValueError:          # orjson.JSONDecodeError: read again below, as ever
            data = None
        if type(data) is dict:
            return data
    try:
        data = parse_json(raw, max_depth=max_depth)
    except BadFile as exc:
        text = str(exc)
        code = "too_deep" if "deeper" in text else "bad_json"
        raise ProtocolError(code, "the frame " + text) from None
    if type(data) is not dict:
        raise ProtocolError("bad_message", "a message is a JSON object with a \"type\"")
    return data


def _name(v: Any) -> str:
    try:
        return clean_name(v)
    except ValueError as exc:
        raise ProtocolError("bad_name", str(exc)) from None


def _code(v: Any) -> str:
    code = normal_code(v)
    if code is None:
        raise ProtocolError("bad_room", "a room code looks like KOI-4821")
    return code


def _token(v: Any) -> str:
    if type(v) is not str or not TOKEN_RE.fullmatch(v):
        raise ProtocolError("bad_token", "that is not a seat token")
    return v


def _flag(v: Any) -> bool:
    if type(v) is not bool:
        raise ProtocolError("bad_field", "expected true or false")
    return v


def _months(v: Any) -> Optional[int]:
    if v is None:
        return None
    if type(v) is not int or not 1 <= v <= 120:
        raise ProtocolError("bad_rules", "months must be a whole number from 1 to 120, or null")
    return v


def _count(v: Any) -> int:
    if type(v) is not int or not 0 <= v <= 2 ** 31:
        raise ProtocolError("bad_field", "expected a whole number >= 0")
    return v


_SCALAR = (type(None), bool, int, str)


def _rules_choice(v: Any) -> dict:
    """{"preset": name, "house": {knob: value}}: the shape only (the server checks the values)."""
    if type(v) is not dict or not set(v) <= {"preset", "house"} or "preset" not in v:
        raise ProtocolError("bad_rules", "rules is {\"preset\": name, \"house\": {knob: value}}")
    preset, house = v["preset"], v.get("house", {})
    if type(preset) is not str or len(preset) > 40 or not clean_text(preset):
        raise ProtocolError("bad_rules", "rules.preset must be a preset name")
    if type(house) is not dict or len(house) > 64:
        raise ProtocolError("bad_rules", "rules.house must be an object of at most 64 knobs")
    for k, x in house.items():
        if (len(k) > 40 or not clean_text(k) or type(x) not in _SCALAR
                or (type(x) is str and (len(x) > 40 or not clean_text(x)))):
            raise ProtocolError("bad_rules", f"house rule {_short(k)} has a value of the wrong kind")
    return {"preset": preset, "house": dict(house)}


# type -> {field: (check, required)}
_CLIENT: dict = {
    "create": {"name": (_name, True), "rules": (_rules_choice, True), "months": (_months, False),
               "spectators": (_flag, False)},
    "join": {"room": (_code, True), "name": (_name, True)},
    "reconnect": {"room": (_code, True), "token": (_token, True)},
    "watch": {"room": (_code, True), "name": (_name, False)},
    "act": {"action": (action_from_json, True), "at": (_count, False)},
    "sync": {"have": (_count, False)},
    "claim": {}, "leave": {}, "record": {}, "ping": {},
}
CLIENT_TYPES = tuple(_CLIENT)


def request_id(data: Any) -> Any:
    """The ``id`` of a client message (a dict) if it is a valid one, else None."""
    rid = data.get("id") if type(data) is dict else None
    if (type(rid) is int and 0 <= rid <= _ID_INT_MAX) or (
            type(rid) is str and len(rid) <= ID_MAX and clean_text(rid)):
        return rid
    return None


def peek_id(raw: Any, *, max_bytes: int = MAX_FRAME, max_depth: int = MAX_DEPTH) -> Any:
    """The valid ``id`` of a frame not otherwise read (one refused for the rate), or None."""
    try:
        return request_id(frame_object(raw, max_bytes, max_depth, fast=True))
    except ProtocolError:
        return None


def parse_client(raw: Any, *, max_bytes: int = MAX_FRAME, max_depth: int = MAX_DEPTH) -> dict:
    """A client frame as a checked message: {"type", "id" (or None), field: clean value}.
    ``act`` carries the engine action under "action". Raises ProtocolError, and only that,
    for anything at all (the message names the first problem; it never echoes much); its
    ``re`` is the frame's id when that was valid."""
    return check_client(frame_object(raw, max_bytes, max_depth))


def check_client(data: dict) -> dict:
    """``parse_client`` of a frame already read as a JSON object (``frame_object``)."""
    rid = request_id(data)
    try:
        return _checked(data, rid)
    except ProtocolError as exc:
        exc.re = rid
        raise


def _checked(data: dict, rid: Any) -> dict:
    kind = data.get("type")
    if type(kind) is not str or kind not in _CLIENT:
        raise ProtocolError("bad_type", f"unknown message type {_short(kind, 24)} "
                                        f"({', '.join(CLIENT_TYPES)})")
    if data.get("id") is not None and rid is None:
        raise ProtocolError("bad_id", f"id is a whole number 0..{_ID_INT_MAX} or a text of "
                                      f"at most {ID_MAX} characters, without control characters")
    spec = _CLIENT[kind]
    out: dict = {"type": kind, "id": rid}
    for k in data:
        if k not in spec and k not in ("type", "id"):
            raise ProtocolError("bad_field", f"a {kind} message has no field {_short(k, 24)}", )
    for field, (check, required) in spec.items():
        if field not in data:
            if required:
                raise ProtocolError("bad_field", f"a {kind} message needs {field}")
            continue
        try:
            out[field] = check(data[field])
        except ProtocolError as exc:
            if exc.code == "bad_field":
                raise ProtocolError("bad_field", f"{kind}.{field}: {exc.message}") from None
            raise
    return out


def parse_server(raw: Any) -> dict:
    """A server frame as a dict with a text ``type`` (ProtocolError if it is not one)."""
    data = frame_object(raw, SERVER_MAX_FRAME, SERVER_MAX_DEPTH)
    if type(data.get("type")) is not str:
        raise ProtocolError("bad_message", "a server message without a type")
    return data
