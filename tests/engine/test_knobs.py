"""Every Rules knob is declared once, with its metadata (koikoi/engine/rules.py), and the
validation, the house-rule offers and the saved house rules all follow that declaration."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from koikoi import storage as S
from koikoi.engine import RULESETS, Rules
from koikoi.engine.rules import (CHOICES, HOUSE_ROWS, JOINT_ROWS, KNOB_GROUPS, KNOBS, ROW_OF, House, Knob,
                                 When, dependency_text, house_knobs, house_offers, house_value, knob_info,
                                 match_rules, matters)

KINDS = ("number", "choice", "toggle", "text", "lengths")
# so that months=None is a playable match on every preset
ENDS = {"target_points": 50}


def _outside(knob: Knob) -> list:
    """Values the declaration does not allow."""
    if knob.kind == "choice":
        return ["galaxy", knob.values[0].upper(), "", None, 1, True, [knob.values[0]]]
    if knob.kind == "toggle":
        return [0, 1, None, "true", "yes"]
    if knob.kind == "number":
        lo, hi = knob.bounds
        return [lo - 1, hi + 1, True, float(lo), str(lo)] + ([] if knob.optional else [None])
    if knob.kind == "text":
        return ["", "x" * (knob.bounds[1] + 1), None, 5]
    return [None, [1], (0,), (knob.bounds[1] + 1,), (True,)]


def test_every_rules_field_has_its_metadata():
    assert [f.name for f in dataclasses.fields(Rules)] == list(KNOBS)
    for f in dataclasses.fields(Rules):
        knob = f.metadata["knob"]
        assert isinstance(knob, Knob), f.name
        assert knob.label and knob.group and knob.explanation.endswith("."), f.name
        assert knob.kind in KINDS, f.name
        if knob.shown:
            assert knob.group in KNOB_GROUPS, f.name
        if knob.kind == "choice":
            assert len(knob.values) >= 2 and len(set(knob.values)) == len(knob.values), f.name
            assert all(len(c) in (2, 3) and all(isinstance(w, str) and w for w in c) for c in knob.choices)
        else:
            assert not knob.choices, f.name
        if knob.kind in ("number", "text", "lengths"):
            lo, hi = knob.bounds
            assert type(lo) is int and type(hi) is int and 0 <= lo < hi, f.name
        assert knob.problem(f.name, f.default) is None, f.name   # the default is allowed
    labels = [k.label for k in KNOBS.values()] + [k.label for k in JOINT_ROWS.values()]
    assert len(set(labels)) == len(labels)
    assert list(CHOICES) == [n for n, k in KNOBS.items() if k.kind == "choice"]


def test_the_metadata_is_plain_data():
    def plain(v) -> bool:
        if isinstance(v, (Knob, House, When)):
            return all(plain(getattr(v, f.name)) for f in dataclasses.fields(v))
        if isinstance(v, tuple):
            return all(plain(x) for x in v)
        return v is None or isinstance(v, (str, int, bool))
    for name in [*KNOBS, *JOINT_ROWS]:
        assert plain(knob_info(name)), name
        hash(knob_info(name))


@pytest.mark.parametrize("name", list(KNOBS))
def test_validation_follows_the_declaration(name):
    knob = KNOBS[name]
    base = replace(RULESETS["casual"], **ENDS)
    allowed = {"choice": list(knob.values), "toggle": [False, True],
               "number": list(knob.bounds) + ([None] if knob.optional else []),
               "text": ["x", "x" * knob.bounds[1]] if knob.kind == "text" else [],
               "lengths": [(), (knob.bounds[0], knob.bounds[1])] if knob.kind == "lengths" else []}[knob.kind]
    for v in allowed:
        assert getattr(replace(base, **{name: v}), name) == v
    for v in _outside(knob):
        with pytest.raises(ValueError, match=rf"invalid rules: {name}="):
            replace(base, **{name: v})


def test_dependencies_name_real_knobs_and_values():
    for name in [*KNOBS, *JOINT_ROWS]:
        for w in knob_info(name).depends:
            assert isinstance(w, When) and w.knob in KNOBS and w.knob != name, name
            other = KNOBS[w.knob]
            assert w.values or w.unless, name
            for v in w.values + w.unless:
                assert other.problem(w.knob, v) is None, (name, w)
        assert bool(dependency_text(name)) == bool(knob_info(name).depends)
    casual = RULESETS["casual"]
    # the examples of the issue: lucky-hand points with lucky hands on; starting points with zero-sum
    assert not matters(casual, "lucky_points") and matters(replace(casual, lucky_hands="on"), "lucky_points")
    assert not matters(replace(casual, lucky_hands="misdeal"), "lucky_points")
    assert matters(replace(casual, field_four_of_month="dealer_wins"), "lucky_points")
    assert not matters(casual, "starting_points") and matters(replace(casual, scoring_mode="zero_sum"),
                                                              "starting_points")
    assert not matters(casual, "akatan_aotan") and matters(RULESETS["nintendo"], "akatan_aotan")
    assert matters(casual, "weather") and not matters(RULESETS["yakuza"], "weather")
    assert not matters(replace(casual, max_koikoi_calls=0), "koikoi_multiplier")
    assert matters(casual, "goko")
    assert dependency_text("lucky_points") == ("Only when Lucky hands is On, or when Four of a month "
                                               "in the field is Dealer wins.")
    assert dependency_text("starting_points") == "Only when Scoring is Zero-sum stakes."


def test_house_rows_are_declared_once_in_order():
    rows = [row for row, _ in HOUSE_ROWS]
    assert [k.house.row for _, k in HOUSE_ROWS] == list(range(1, len(rows) + 1))
    assert len(set(rows)) == len(rows)
    for row, knob in HOUSE_ROWS:
        h = knob.house
        assert h.control in ("toggle", "choice", "step"), row
        if h.control == "toggle":
            assert h.values == (False, True) and knob.kind == "toggle", row
        if h.control == "choice" or knob.kind == "choice":
            assert set(h.values) <= set(knob.values), row
        assert h.settable and len(set(map(repr, h.values))) == len(h.values), row
    for row, joint in JOINT_ROWS.items():
        assert row not in KNOBS and [v for v, _ in joint.sets] == list(joint.values)
        covered = {k for _, pairs in joint.sets for k, _ in pairs}
        assert all(KNOBS[k].kind == "toggle" and KNOBS[k].house is None and ROW_OF[k] == row for k in covered)


@pytest.mark.parametrize("preset", list(RULESETS))
def test_every_offered_house_rule_validates_and_is_kept(preset):
    rules = RULESETS[preset]
    for row, knob in HOUSE_ROWS:
        for v in knob.house.values:
            changes = house_knobs(row, v)
            extra = dict(ENDS) if changes.get("months", 0) is None else {}
            made = replace(rules, **changes, **extra)          # the Rules accept it
            assert house_value(made, row) == v or v == knob.house.keep
            wanted = {k: x for k, x in {**changes, **extra}.items() if getattr(rules, k) != x}
            assert S.valid_house_rules(preset, {**changes, **extra}) == wanted, (row, v)
            # and a match of these house rules is built with them (engine.rules.match_rules)
            no_limit = changes.get("months", 0) is None
            assert match_rules(preset, {**changes, **extra}) == (
                made, None if no_limit else rules.months, wanted), (row, v)


@pytest.mark.parametrize("preset", list(RULESETS))
def test_values_the_editor_does_not_offer_are_refused(preset):
    offers = house_offers()
    rules = RULESETS[preset]
    for name, knob in KNOBS.items():
        tries = _outside(knob)
        if name not in offers:     # not a house rule: even an allowed value is dropped
            tries.append(getattr(replace(rules, **{name: _other_value(name, rules)}), name))
        elif knob.kind == "number":
            lo, hi = knob.bounds
            tries += [v for v in (lo, hi, 7) if v not in offers[name]]
        for v in tries:
            assert name not in S.valid_house_rules(preset, {**ENDS, name: v}), (name, v)
    assert S.valid_house_rules(preset, {"sake_cup_is_chaff": False, "sake_cup_is_animal": False}) == {}


def _other_value(name: str, rules: Rules):
    knob = KNOBS[name]
    now = getattr(rules, name)
    if knob.kind == "choice":
        return next(v for v in knob.values if v != now)
    if knob.kind == "toggle":
        return not now
    if knob.kind == "text":
        return now + "x"
    if knob.kind == "lengths":
        return (1, 2)
    return knob.bounds[0] if now != knob.bounds[0] else knob.bounds[0] + 1
