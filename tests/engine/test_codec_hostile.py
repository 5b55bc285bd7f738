"""Hostile input to the match-log codec (issue #13).

``events_from_json`` and ``replay(events_from_json(...))`` must raise ValueError
(ReplayError is one) and nothing else, whatever the text: any JSON value at any
depth, alone or put into any field of a real log. ``Rules`` read from a log
refuse wrong types and absurd sizes the same way.
"""

from __future__ import annotations

import copy
import json
from dataclasses import fields, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koikoi.engine import (RULESETS, ReplayError, Rules, apply, events_from_json, events_to_json,
                           legal_actions, new_match, replay)
from koikoi.engine import events as E
from koikoi.engine.cards import IDS
from koikoi.engine.rules import CHOICES, HOUSE_ROWS, KNOBS, POINTS_MAX, house_knobs

_POINT_KNOBS = tuple(n for n, k in KNOBS.items()
                     if k.kind == "number" and k.bounds == (0, POINTS_MAX) and not k.optional)


def _played(preset: str, seed: int, months: int) -> tuple:
    """The events of a whole match, every seat taking legal_actions(state)[0]."""
    s = new_match(RULESETS[preset], seed=seed, months=months)
    while not s.is_over:
        s = apply(s, legal_actions(s)[0])
    return s.events


EVENTS = _played("kk-add-10", 3, 2)
LOG = json.loads(events_to_json(EVENTS))
LOG_TEXT = events_to_json(EVENTS)


def _index(kind: str) -> int:
    return next(i for i, e in enumerate(LOG["events"]) if e["type"] == kind)


def _with(path: tuple, value) -> str:
    """The real log with the value at ``path`` (keys and indices from the document's root)
    replaced by ``value``."""
    doc = copy.deepcopy(LOG)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return json.dumps(doc)


def _only_value_errors(text) -> None:
    """events_from_json(text) and replay of what it returns raise nothing but ValueError."""
    try:
        events = events_from_json(text)
    except ValueError:
        return
    try:
        replay(events)
    except ValueError:   # ReplayError among them
        pass


def test_the_real_log_reads_back_and_replays():
    assert {"match_started", "played", "flipped", "round_ended", "match_ended"} <= {
        e["type"] for e in LOG["events"]}
    assert events_from_json(LOG_TEXT) == EVENTS
    assert replay(events_from_json(LOG_TEXT)).events == EVENTS


# ---------------------------------------------------------------- arbitrary JSON

json_leaves = (st.none() | st.booleans() | st.integers()
               | st.sampled_from([0, 1, 2, -1, 2 ** 53, 2 ** 63, 10 ** 100, -10 ** 100, 10 ** 4000])
               | st.floats(allow_nan=True, allow_infinity=True)
               | st.text(max_size=20) | st.sampled_from(IDS) | st.sampled_from(sorted(E.EVENT_TYPES)))
json_values = st.recursive(
    json_leaves,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=12), children, max_size=6),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_document_raises_only_value_error(value):
    _only_value_errors(json.dumps(value))
    _only_value_errors(json.dumps({"format": 1, "events": value}))
    _only_value_errors(json.dumps({"format": 1, "events": [value]}))


@st.composite
def event_shaped(draw):
    """A dict with the fields of some kind of event (or nearly), each any JSON value."""
    kind = draw(st.sampled_from(sorted(E.EVENT_TYPES)))
    doc = {f: draw(json_values) for f in E.EVENT_TYPES[kind]._fields}
    doc["type"] = draw(st.just(kind) | json_values)
    if kind == "round_ended" and draw(st.booleans()):
        doc["row"] = {f: draw(json_values) for f in E.LedgerRow._fields}
    return doc


@settings(max_examples=400, deadline=None)
@given(st.lists(event_shaped(), min_size=1, max_size=3))
def test_any_values_in_event_shaped_objects_raise_only_value_error(docs):
    _only_value_errors(json.dumps({"format": 1, "events": docs}))
    _only_value_errors(json.dumps({"format": 1, "events": LOG["events"][:1] + docs}))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_text_raises_only_value_error(text):
    _only_value_errors(text)


def _paths(node, prefix: tuple):
    """Every path into ``node`` (itself included)."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_value_in_any_field_of_a_real_log_raises_only_value_error(data):
    k = data.draw(st.integers(0, len(LOG["events"]) - 1), label="event")
    # Below the event: a field, or anything inside one (a card of a hand, a knob of the rules).
    paths = [p for p in _paths(LOG["events"][k], ("events", k)) if len(p) > 2]
    path = data.draw(st.sampled_from(paths), label="path")
    value = data.draw(json_values, label="value")
    _only_value_errors(_with(path, value))
    # and the same field missing, or an extra one beside it
    doc = copy.deepcopy(LOG)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if isinstance(node, dict):
        del node[path[-1]]
        _only_value_errors(json.dumps(doc))
        node[path[-1] + "_extra" if isinstance(path[-1], str) else "extra"] = value
        _only_value_errors(json.dumps(doc))
    else:
        node.append(value)
        _only_value_errors(json.dumps(doc))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_value_as_a_rules_knob_raises_only_value_error(data):
    knob = data.draw(st.sampled_from([f.name for f in fields(Rules)]), label="knob")
    value = data.draw(json_values, label="value")
    _only_value_errors(_with(("events", 0, "rules", knob), value))
    try:
        Rules.from_dict({**RULESETS["casual"].to_dict(), knob: value})
    except ValueError:
        pass


# ---------------------------------------------------------------- explicit cases

def test_deep_nesting_is_a_value_error():
    for text in ("[" * 200_000 + "]" * 200_000,
                 '{"a":' * 200_000 + "1" + "}" * 200_000,
                 '{"format":1,"events":[' + "[" * 200_000 + "]" * 200_000 + "]}"):
        with pytest.raises(ValueError, match="nested too deeply"):
            events_from_json(text)
    # as deep as json itself manages, inside a field: refused, and the message is short
    deep = "[" * 900 + "]" * 900
    text = LOG_TEXT.replace('"seat":0', '"seat":' + deep, 1)
    with pytest.raises(ValueError) as err:
        events_from_json(text)
    assert len(str(err.value)) < 300


def test_not_json_text_is_a_value_error():
    for text in (None, 5, 1.5, ["{}"], {"format": 1}, b"\xff\xfe\x00", "1" * 5000):
        with pytest.raises(ValueError):
            events_from_json(text)


@pytest.mark.parametrize("fmt", [True, 1.0, "1", None, [1], {"v": 1}, 2, 0])
def test_format_must_be_exactly_the_int_1(fmt):
    with pytest.raises(ValueError, match="format"):
        events_from_json(_with(("format",), fmt))


def test_format_1_is_read():
    assert events_from_json(_with(("format",), 1)) == EVENTS


@pytest.mark.parametrize("kind", [{}, {"a": 1}, [], ["played"], 1, True, None, "Played", "played "])
def test_an_unhashable_or_unknown_event_type_is_a_value_error(kind):
    with pytest.raises(ValueError, match="event type"):
        events_from_json(_with(("events", _index("played"), "type"), kind))


@pytest.mark.parametrize("rules", [[], [["name", "x"]], 5, 0, "nintendo", None, True, 1.5])
def test_rules_that_are_not_an_object_are_a_value_error(rules):
    with pytest.raises(ValueError):
        events_from_json(_with(("events", 0, "rules"), rules))


@pytest.mark.parametrize("name", [5, {}, {"a": "b"}, [], ["casual"], None, True, "", "x" * 41, "x" * 10_000])
def test_a_rules_name_that_is_not_a_short_text_is_a_value_error(name):
    with pytest.raises(ValueError, match="invalid rules: name="):
        events_from_json(_with(("events", 0, "rules", "name"), name))
    with pytest.raises(ValueError, match="invalid rules: name=") as err:
        Rules.from_dict({**RULESETS["casual"].to_dict(), "name": name})
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("seat", [2, -1, True, False, 1.0, "0", None, [0]])
def test_a_bad_seat_is_a_value_error(seat):
    for kind in ("oyagime_picked", "played", "flipped"):
        with pytest.raises(ValueError, match="seat"):
            events_from_json(_with(("events", _index(kind), "seat"), seat))
    with pytest.raises(ValueError, match="dealer"):
        events_from_json(_with(("events", _index("round_dealt"), "dealer"), seat))


@pytest.mark.parametrize("card", ["13-X", "09-a", "9-A", "", "09-A ", 9, None, ["09-A"], {"id": "09-A"}, True])
def test_a_card_that_is_not_one_of_the_48_is_a_value_error(card):
    k = _index("played")
    with pytest.raises(ValueError, match="card"):
        events_from_json(_with(("events", k, "card"), card))
    with pytest.raises(ValueError):
        events_from_json(_with(("events", _index("round_dealt"), "hands", 1, 3), card))
    with pytest.raises(ValueError):
        events_from_json(_with(("events", _index("round_dealt"), "stock", 0), card))
    with pytest.raises(ValueError):
        events_from_json(_with(("events", _index("oyagime_spread"), "cards", 2), card))


def test_a_card_tuple_that_is_not_a_list_is_a_value_error():
    k = _index("round_dealt")
    for bad in ("01-B", {"0": "01-B"}, 5, None, [IDS[0]] * 49, [[IDS[0]]]):
        with pytest.raises(ValueError):
            events_from_json(_with(("events", k, "field"), bad))
    for bad in ([], [[]], [[], [], []], "ab", None):
        with pytest.raises(ValueError, match="hands"):
            events_from_json(_with(("events", k, "hands"), bad))


_BAD_ROW_VALUES = {
    "round": ["1", 1.0, True, 0, -1, None, [], 2 ** 60],
    "dealer": ["0", 0.0, True, 2, -1, None, []],
    "winner": ["0", 0.0, True, 2, -1, [], {}],
    "reason": [None, 1, True, [], {}, ["stop"], "x" * 65],
    "yaku": [None, 1, "goko", {}, [["goko"]], [["goko", 10]], [["goko", "10", []]], [["goko", 10, ["13-X"]]],
             [[1, 10, []]], [["goko", True, []]], [["goko", 10, "01-B"]], [{"name": "goko"}]],
    "base": ["1", 1.5, True, -1, None, [], 2 ** 60],
    "multipliers": [None, 2, {}, [["x2"]], [["x2", "2"]], [[2, 2]], [["x2", 2.0]], [["x2", 2, 3]]],
    "award": ["1", 1.5, True, -1, None, [], 2 ** 60, float("nan"), float("inf")],
    "scores": [None, 0, "0,0", [0], [0, 0, 0], [0, "0"], [0, 1.5], [True, 0], {"0": 0, "1": 0}],
    "calls": [None, 0, [0], [0, -1], [0, True], [0, 0.0], [[0], 0]],
}


@pytest.mark.parametrize("field,bad", [(f, v) for f, vs in _BAD_ROW_VALUES.items() for v in vs])
def test_round_ended_row_fields_of_the_wrong_type_are_a_value_error(field, bad):
    with pytest.raises(ValueError, match=rf"LedgerRow\.{field} is"):
        events_from_json(_with(("events", _index("round_ended"), "row", field), bad))


@pytest.mark.parametrize("row", [None, "row", 5, [], [1, 0, None], {}])
def test_a_round_ended_row_that_is_not_an_object_is_a_value_error(row):
    with pytest.raises(ValueError, match="row"):
        events_from_json(_with(("events", _index("round_ended"), "row"), row))


def test_other_wrongly_typed_fields_are_value_errors():
    cases = [
        (("events", 0, "seed"), "3"), (("events", 0, "seed"), 3.0), (("events", 0, "seed"), True),
        (("events", 0, "seed"), 2 ** 300), (("events", 0, "months"), []), (("events", 0, "months"), True),
        (("events", 0, "months"), 0), (("events", 0, "months"), 121),
        (("events", _index("oyagime_picked"), "index"), 4), (("events", _index("oyagime_picked"), "index"), True),
        (("events", _index("oyagime_picked"), "index"), 1.5), (("events", _index("oyagime_picked"), "index"), []),
        (("events", _index("played"), "target"), []), (("events", _index("played"), "target"), "13-X"),
        (("events", _index("played"), "taken"), None), (("events", _index("flipped"), "taken"), "01-B"),
        (("events", _index("round_ended"), "captured"), [[], [], []]),
        (("events", _index("match_ended"), "scores"), [0]), (("events", _index("match_ended"), "winner"), 2),
    ]
    for path, bad in cases:
        with pytest.raises(ValueError):
            events_from_json(_with(path, bad))


def _sample_events() -> list:
    """One event of every kind, with the values the engine writes."""
    row = E.LedgerRow(3, 1, 0, "stop", (("akatan", 5, ("01-RP", "02-RP", "03-RP")),), 5,
                      (("7 points or more", 2),), 10, (10, 0), (1, 0))
    return [
        E.MatchStarted(RULESETS["yakuza"], 12345, None),
        E.MatchStarted(RULESETS["nintendo"], -7, 3),
        E.OyagimeSpread(IDS[:4]),
        E.OyagimePicked(1, 3, "09-A"),
        E.OyagimeDecided(None, ("01-B", "01-RP"), "same_month_redraw"),
        E.OyagimeDecided(0, ("01-B", "02-A"), "earlier_month"),
        E.RoundDealt(1, 0, (IDS[:8], IDS[8:16]), IDS[16:24], IDS[24:]),
        E.Misdeal(2, "four_of_a_month", IDS[:4]),
        E.FieldSwept(1, IDS[:4], IDS[24:28]),
        E.LuckyHand(0, ("teshi", "kuttsuki"), 6, IDS[:8]),
        E.Played(0, "01-B", None, ()),
        E.Played(1, "01-B", "01-P1", ("01-P1",)),
        E.Flipped(0, "02-A", None),
        E.Flipped(0, "02-A", ("02-P2",)),
        E.Chose(1, "03-B", "03-P1"),
        E.YakuMade(0, (("akatan", 5), ("tane", 1)), 6),
        E.KoiKoiCalled(1, 2),
        E.Stopped(0, True),
        E.Stopped(1, False),
        E.Exhausted(4),
        E.RoundEnded(row, (IDS[:10], ())),
        E.RoundEnded(row._replace(winner=None, yaku=(), multipliers=(), award=0), ((), ())),
        E.MatchEnded(None, (0, 0)),
        E.MatchEnded(1, (3, 40)),
    ]


def test_every_kind_of_event_reads_back_as_written():
    events = _sample_events()
    assert {type(e) for e in events} == set(E.EVENT_TYPES.values())
    assert events_from_json(events_to_json(events)) == tuple(events)


def test_a_missing_or_extra_field_is_a_value_error():
    k = _index("played")
    doc = copy.deepcopy(LOG)
    del doc["events"][k]["target"]
    with pytest.raises(ValueError, match="fields"):
        events_from_json(json.dumps(doc))
    doc = copy.deepcopy(LOG)
    doc["events"][k]["extra"] = 1
    with pytest.raises(ValueError, match="fields"):
        events_from_json(json.dumps(doc))


def test_event_from_dict_rejects_non_dicts():
    for bad in (None, [], "played", 5, [("type", "played")]):
        with pytest.raises(ValueError):
            E.event_from_dict(bad)


def test_a_log_whose_events_parse_but_do_not_follow_is_a_replay_error():
    k = _index("played")
    other = next(c for c in IDS if c != LOG["events"][k]["card"])
    with pytest.raises(ReplayError):
        replay(events_from_json(_with(("events", k, "card"), other)))
    with pytest.raises(ReplayError):
        replay(events_from_json(_with(("events", 0, "seed"), 4)))


# ---------------------------------------------------------------- Rules from a log

@pytest.mark.parametrize("data", [[], [["name", "x"]], 5, "casual", None, True, ("name",)])
def test_rules_from_a_non_dict_is_a_value_error(data):
    with pytest.raises(ValueError, match="invalid rules"):
        Rules.from_dict(data)


def test_rules_from_dict_with_non_text_keys_is_a_value_error():
    with pytest.raises(ValueError, match="unknown rule knobs"):
        Rules.from_dict({1: 2, None: 3, "name": "x"})


@pytest.mark.parametrize("knob", _POINT_KNOBS)
def test_point_knobs_are_whole_numbers_from_0_to_10000(knob):
    base = RULESETS["casual"]
    assert getattr(replace(base, **{knob: 0}), knob) == 0
    assert getattr(replace(base, **{knob: 10_000}), knob) == 10_000
    for bad in (-1, 10_001, 10 ** 100, True, False, 1.0, "5", None, [5]):
        with pytest.raises(ValueError, match=rf"invalid rules: {knob}="):
            replace(base, **{knob: bad})


@pytest.mark.parametrize("knob,good,bad", [
    ("months", [None, 1, 12, 120], [0, 121, True, False, 1.0, "12", [12]]),
    ("target_points", [None, 1, 50, 100, 100_000], [0, 100_001, True, 50.0, "50", [50]]),
    ("max_koikoi_calls", [None, 0, 1, 100], [-1, 101, True, False, 1.0, "1", [1]]),
    ("starting_points", [1, 50, 100_000], [0, 100_001, True, 50.0, None, "50"]),
])
def test_number_knobs_refuse_bools_and_absurd_sizes(knob, good, bad):
    base = replace(RULESETS["casual"], target_points=100)   # so months=None is allowed
    for v in good:
        assert getattr(replace(base, **{knob: v}), knob) == v
    for v in bad:
        with pytest.raises(ValueError, match=rf"invalid rules: {knob}="):
            replace(base, **{knob: v})
        with pytest.raises(ValueError, match=rf"invalid rules: {knob}="):
            Rules.from_dict({**base.to_dict(), knob: v})


def test_months_offered_is_a_tuple_of_month_counts():
    base = RULESETS["casual"]
    assert Rules.from_dict({**base.to_dict(), "months_offered": [3, 120]}).months_offered == (3, 120)
    for bad in ((True,), (1, True), (0,), (121,), (1.0,), ("12",), ((1,),), [1, 2], 5, "12", None,
                tuple(range(1, 122))):
        with pytest.raises(ValueError, match="invalid rules: months_offered="):
            replace(base, months_offered=bad)
    for bad in (5, "12", None, [True], [[1]], {"a": 1}):
        with pytest.raises(ValueError, match="invalid rules: months_offered="):
            Rules.from_dict({**base.to_dict(), "months_offered": bad})


@pytest.mark.parametrize("knob", sorted(CHOICES))
def test_wrongly_typed_choice_knobs_are_value_errors(knob):
    base = RULESETS["casual"]
    for bad in (["on"], [CHOICES[knob][0]], {"a": 1}, 1, True, None, "x" * 10_000):
        with pytest.raises(ValueError, match=rf"invalid rules: {knob}=") as err:
            Rules.from_dict({**base.to_dict(), knob: bad})
        assert len(str(err.value)) < 300


def test_every_preset_and_every_value_the_game_offers_passes():
    for name, preset in RULESETS.items():
        assert preset.name == name and 1 <= len(name) <= 40
        assert Rules.from_dict(json.loads(json.dumps(preset.to_dict()))) == preset
        for months in preset.months_offered:
            assert replace(preset, months=months).months == months
        # every value the house-rules editor offers (HOUSE_ROWS, declared with each knob)
        for row, knob in HOUSE_ROWS:
            for v in knob.house.settable:
                changes = house_knobs(row, v)
                if changes.get("months", 0) is None:
                    changes["target_points"] = 50
                made = replace(preset, **changes)
                assert all(getattr(made, k) == x for k, x in changes.items())
        assert replace(preset, months=None, target_points=50).months is None
        assert replace(preset, scoring_mode="zero_sum", months=None).months is None
    assert Rules().name == "custom"
