"""koikoi.net.protocol and koikoi.net.rooms without a network: the action and event
codecs, the strict message schema, the room rules, the SQLite store."""

from __future__ import annotations

import json
import random

import pytest

from koikoi.engine import (RULESETS, ChooseMatch, KoiKoi, PickOyagime, Play, Stop, apply,
                           legal_actions, new_match, public_event, replay)
from koikoi.engine.events import FieldSwept, event_to_dict
from koikoi.net import protocol
from koikoi.engine.table import fold_all
from koikoi.net.protocol import (MAX_FRAME, ProtocolError, action_from_json, action_to_json,
                                 actions_text, canonical_text, encode, event_from_wire, event_text, log_id,
                                 new_room_code, new_token, normal_code, parse_client, record_id,
                                 record_log, spectator_event, wire_event)
from koikoi.net.rooms import Room, RoomStore, Seat, room_rules, room_session, token_hash

from net_helpers import cards_in, check_tracker_against_engine, hidden_after


def random_match(rules, seed, months=None, rng=None):
    rng = rng or random.Random(seed)
    s = new_match(rules, seed=seed, months=months)
    for _ in range(5000):
        legal = legal_actions(s)
        if legal is None:
            return s
        s = apply(s, rng.choice(legal))
    raise AssertionError("no end")


def test_actions_round_trip():
    for a in (Play("01-B"), Play("09-A", "09-P1"), ChooseMatch("03-B"), PickOyagime(3), KoiKoi(), Stop()):
        wire = json.loads(encode(action_to_json(a)))
        assert action_from_json(wire) == a


@pytest.mark.parametrize("bad", [
    None, 3, "stop", [], {}, {"kind": "dance"}, {"kind": 1}, {"kind": "play"},
    {"kind": "play", "card": "13-X"}, {"kind": "play", "card": "01-B", "target": 5},
    {"kind": "play", "card": "01-B", "extra": 1}, {"kind": "pick", "index": 4},
    {"kind": "pick", "index": True}, {"kind": "pick", "index": 1.0}, {"kind": "choose"},
    {"kind": "stop", "why": "no"}, {"kind": ["stop"]},
])
def test_malformed_actions_are_refused(bad):
    with pytest.raises(ProtocolError) as exc:
        action_from_json(bad)
    assert exc.value.code == "bad_action"


@pytest.mark.parametrize("preset", sorted(RULESETS))
def test_wire_events_hide_what_the_seat_may_not_see(preset):
    state = random_match(RULESETS[preset], seed=sum(map(ord, preset)), months=2)
    for seat in (0, 1, None):
        wire = [wire_event(e, seat) if seat is not None else spectator_event(e) for e in state.events]
        assert wire[0]["seed"] == 0 and "decks" not in wire[0]
        hidden = hidden_after(state.events, seat)
        for i, w in enumerate(wire):
            assert not cards_in(w) & hidden[i], (i, w)
        back = [event_from_wire(json.loads(json.dumps(w))) for w in wire]
        table_seat = 0 if seat is None else seat
        assert fold_all(back, table_seat).ledger == state.ledger
        if seat is not None:
            assert back[1:] == [public_event(e, seat) for e in state.events[1:]]
            assert fold_all(back, seat) == fold_all([public_event(e, seat) for e in state.events], seat)
        assert check_tracker_against_engine(state.events, seat) > 10


def test_event_from_wire_refuses_seeds_cards_and_garbage():
    state = random_match(RULESETS["casual"], seed=5, months=1)
    start = json.loads(json.dumps(wire_event(state.events[0], 0)))
    event_from_wire(start)
    with pytest.raises(ValueError):
        event_from_wire(dict(start, seed=12345))
    dealt = next(wire_event(e, 0) for e in state.events if e.type == "round_dealt")
    for bad in (dict(dealt, stock=["01-B"] + dealt["stock"][1:]), dict(dealt, hands=[[None]]),
                dict(dealt, hands=[["nope"], []]), dict(dealt, field=[None]), {"type": "oyagime_spread"},
                {"type": "oyagime_spread", "cards": ["01-B"]}, {"type": "x"}, [], "round_dealt"):
        with pytest.raises(ValueError):
            event_from_wire(bad)


def test_parse_client_accepts_each_message():
    ok = [
        {"type": "create", "name": " Aki ", "rules": {"preset": "casual"}, "months": 3, "spectators": True, "id": 1},
        {"type": "join", "room": "koi-4821", "name": "Haru", "id": "a"},
        {"type": "reconnect", "room": "KOI-4821", "token": new_token()},
        {"type": "watch", "room": "4821"},
        {"type": "act", "action": {"kind": "koikoi"}, "at": 7},
        {"type": "claim"}, {"type": "leave"}, {"type": "sync"}, {"type": "ping"},
    ]
    out = [parse_client(json.dumps(m)) for m in ok]
    assert out[0]["name"] == "Aki" and out[0]["id"] == 1
    assert out[1]["room"] == "KOI-4821" and out[3]["room"] == "KOI-4821"
    assert out[4]["action"] == KoiKoi()


@pytest.mark.parametrize("raw, code", [
    (b"\x00\x01", "binary"), ("", "bad_json"), ("nope", "bad_json"), ("[]", "bad_message"),
    ("{}", "bad_type"), ('{"type": "dance"}', "bad_type"), ('{"type": 3}', "bad_type"),
    ('{"type": "ping", "id": -1}', "bad_id"), ('{"type": "ping", "id": 1.5}', "bad_id"),
    ('{"type": "ping", "id": "' + "x" * 40 + '"}', "bad_id"),
    ('{"type": "ping", "x": 1}', "bad_field"), ('{"type": "join", "room": "KOI-1234"}', "bad_field"),
    ('{"type": "join", "room": "KOI-1", "name": "x"}', "bad_room"),
    ('{"type": "join", "room": ["KOI-1234"], "name": "x"}', "bad_room"),
    ('{"type": "join", "room": "KOI-1234", "name": ""}', "bad_name"),
    ('{"type": "join", "room": "KOI-1234", "name": "a\\u0007b"}', "bad_name"),
    ('{"type": "join", "room": "KOI-1234", "name": "' + "n" * 41 + '"}', "bad_name"),
    ('{"type": "reconnect", "room": "KOI-1234", "token": "short"}', "bad_token"),
    ('{"type": "create", "name": "a", "rules": "casual"}', "bad_rules"),
    ('{"type": "create", "name": "a", "rules": {"preset": "casual", "house": {"weather": [1]}}}', "bad_rules"),
    ('{"type": "create", "name": "a", "rules": {"preset": "casual"}, "months": 0}', "bad_rules"),
    ('{"type": "create", "name": "a", "rules": {"preset": "casual"}, "spectators": 1}', "bad_field"),
    ('{"type": "act", "action": {"kind": "stop"}, "at": -1}', "bad_field"),
    ('{"type": "act", "action": {"kind": "stop"}, "at": true}', "bad_field"),
    ('{"type": "act"}', "bad_field"), ('{"type": "ping", "id": NaN}', "bad_json"),
    ('{"type": "ping", "id": ' + "9" * 5000 + '}', "bad_json"),
    ("[" * 100 + "]" * 100, "too_deep"), ('{"type": "ping", "id": ' + "[" * 7 + "]" * 7 + "}", "too_deep"),
    ("x" * (MAX_FRAME + 1), "too_big"), ("\u00e9" * (MAX_FRAME // 2 + 1), "too_big"),
])
def test_parse_client_refuses(raw, code):
    with pytest.raises(ProtocolError) as exc:
        parse_client(raw)
    assert exc.value.code == code
    assert len(exc.value.message) < 200


def test_parse_client_never_raises_anything_else():
    rng = random.Random(19)
    pieces = ['{', '}', '[', ']', '"type"', '"act"', '"create"', ':', ',', '"action"', '{"kind":"play"}',
              '1', '-1', 'true', 'null', '"\\ud800"', '"KOI-1234"', '1e999', '"\\u0000"']
    for _ in range(3000):
        raw = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 30)))
        try:
            parse_client(raw)
        except ProtocolError:
            pass


def test_codes_and_tokens():
    codes = {new_room_code() for _ in range(200)}
    assert all(normal_code(c) == c and len(c) == 8 for c in codes)
    assert normal_code(" koi-0042 ") == "KOI-0042" and normal_code("0042") == "KOI-0042"
    assert normal_code("KOI-42") is None and normal_code(42) is None
    t = new_token()
    assert len(t) >= 32 and Seat("a", token_hash(t)).token_ok(t) and not Seat("a", token_hash(t)).token_ok(t + "x")


def test_room_rules_follow_the_house_rules_editor():
    rules, months, house = room_rules("casual", {}, "preset")
    assert rules == RULESETS["casual"] and months == 6 and house == {}
    rules, months, house = room_rules("casual", {"weather": True, "viewing": "on"}, 3)
    assert rules.weather and months == 3 and house == {"weather": True}     # a no-op knob is dropped
    rules, months, house = room_rules("nintendo", {"months": None, "target_points": 50}, None)
    assert months is None and rules.target_points == 50
    for preset, h, m in [("nope", {}, 3), ("casual", {"weather": "yes"}, 3), ("casual", {"name": "x"}, 3),
                         ("casual", {"goko": 99}, 3), ("casual", {}, 5), ("casual", {}, None),
                         ("casual", {"months": None}, None)]:
        with pytest.raises(ValueError):
            room_rules(preset, h, m)


def test_store_round_trip_and_refuses_a_tampered_log(tmp_path):
    rules, months, house = room_rules("casual", {"weather": True}, 1)
    state = new_match(rules, seed=99, months=months)
    room = Room("KOI-1234", "casual", house, rules, months, True, room_session(state), 1.0)
    room.seats[0] = Seat("Aki", token_hash("t" * 20), 1.0)
    store = RoomStore(tmp_path)
    store.create(room)
    room.seats[1] = Seat("Haru", token_hash("u" * 20), 2.0)
    store.add_seat(room, 1, "playing")
    rng = random.Random(3)
    for _ in range(6):
        move = room.session.prepare(rng.choice(legal_actions(room.state)))
        store.append(room, move.start, move.events, "playing", None)
        room.session.commit(move)
    store.close()
    store = RoomStore(tmp_path)
    (back,) = store.load()
    assert back.state == room.state == replay(room.state.events)
    assert back.code == "KOI-1234" and back.house == {"weather": True} and back.spectators
    assert [s.name for s in back.seats] == ["Aki", "Haru"] and back.seats[1].token_ok("u" * 20)
    idx, text = next((i, t) for i, t in store.db.execute("SELECT idx, event FROM events ORDER BY idx")
                     if json.loads(t)["type"] == "played")
    e = json.loads(text)
    e["card"] = next(c for c in ("01-B", "02-A", "03-B") if c != e["card"])
    store.db.execute("UPDATE events SET event = ? WHERE idx = ?", (json.dumps(e), idx))
    assert store.load() == []          # a log that does not replay is not resumed
    store.close()


def test_an_unreadable_room_store_is_set_aside_not_deleted(tmp_path):
    (tmp_path / "rooms.sqlite3").write_bytes(b"this is no database" * 100)
    store = RoomStore(tmp_path)
    try:
        aside = [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
        assert len(aside) == 1 and aside[0].startswith("rooms.sqlite3.corrupt-")
        kept = next(p for p in tmp_path.iterdir() if p.name.startswith("rooms.sqlite3.corrupt-"))
        assert kept.read_bytes() == b"this is no database" * 100
        assert store.db.execute("PRAGMA user_version").fetchone() is not None   # a fresh store
    finally:
        store.close()


def test_a_frame_is_the_same_text_whichever_encoder_makes_it():
    """``encode`` (orjson where installed) writes exactly json's compact text for every
    event as each viewer sees it, and falls back to json for what orjson does not take."""
    def as_json(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for preset in sorted(RULESETS):
        state = new_match(RULESETS[preset], seed=11)
        rng = random.Random(preset)
        while not state.is_over and len(state.events) < 200:
            state = apply(state, rng.choice(legal_actions(state)))
        for e in state.events:
            for value in (event_to_dict(e), wire_event(e, 0), wire_event(e, 1)):
                assert encode(value) == as_json(value)
    for value in ({"re": 2 ** 70}, {1: "an int key"}, {"t": ("a", None)}, {"at": 1796184776.270759,
                                                                            "name": "名前"}):
        assert encode(value) == as_json(value)


@pytest.mark.parametrize("orjson", [True, False])
def test_a_logs_id_is_the_hash_of_its_canonical_text(monkeypatch, orjson):
    """``log_id`` (the record's match id, built from each event's kept canonical text) is
    ``record_id(record_log(events))`` (json's sorted text, which the client checks), and
    ``event_text`` is ``encode(event_to_dict(e))``, for every event of whole matches of
    every preset, with orjson and without (a fresh cache each way), asked twice (the
    engine's shared events from the kept texts the second time), for a seed over 64 bits."""
    monkeypatch.setattr(protocol, "_SHARED", {k: [None, None] for k in protocol._SHARED})
    monkeypatch.setattr(protocol, "_TEXTS", {})
    if not orjson:
        monkeypatch.setattr(protocol, "_orjson_dumps", None)

    def sorted_json(value):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    kinds = set()
    for preset in sorted(RULESETS):
        for seed in (3, 2 ** 80 + 5):
            events = random_match(RULESETS[preset], seed).events
            events += (FieldSwept(0, ("01-B", "01-RP", "01-P1", "01-P2"), ("02-A", "02-RP", "02-P1", "02-P2")),)
            for _ in range(2):
                for e in events:
                    kinds.add(type(e).__name__)
                    assert canonical_text(e) == sorted_json(event_to_dict(e)), e
                    assert event_text(e) == encode(event_to_dict(e)), e
                assert log_id(events) == record_id(record_log(events))
    assert {"MatchStarted", "RoundDealt", "Played", "Flipped", "Chose", "YakuMade", "KoiKoiCalled",
            "Stopped", "RoundEnded", "MatchEnded", "FieldSwept"} <= kinds


def test_the_legal_actions_text_is_their_wire_form_encoded():
    """``actions_text`` (legal_actions' own instances encoded once for good) writes what
    encoding each action's wire form writes, at every turn of whole matches of every
    preset, and for actions built elsewhere (not kept: another object may take their id)."""
    for preset in sorted(RULESETS):
        state = new_match(RULESETS[preset], seed=5)
        rng = random.Random(preset)
        while not state.is_over:
            legal = legal_actions(state)
            for _ in range(2):
                assert actions_text(legal) == encode([action_to_json(a) for a in legal])
            state = apply(state, rng.choice(legal))
    built = [Play("01-B"), Play("02-A", "02-RP"), ChooseMatch("03-B"), PickOyagime(2), KoiKoi(), Stop()]
    assert actions_text(built) == encode([action_to_json(a) for a in built])
    assert actions_text(()) == "[]"
    kept = len([t for t in protocol._ACTION_TEXTS.values() if t is not None])
    actions_text([Play("01-B")])
    assert len([t for t in protocol._ACTION_TEXTS.values() if t is not None]) == kept
