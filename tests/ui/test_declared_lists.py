"""The screens list what is declared once: the house-rules editor and the rules panel
the knobs of koikoi/engine/rules.py, the new-match dialog and the settings the CPU
levels of koikoi/ai/players.py."""

from __future__ import annotations

import pytest

from koikoi import storage as S
from koikoi.ai import (CPU_LEVELS, LEVEL_INFO, LEVEL_LABELS, LEVEL_ORDER, LEVELS, OFFERED_LEVELS,
                       make_player)
from koikoi.engine import RULESETS
from koikoi.engine.rules import HOUSE_ROWS, KNOB_GROUPS, KNOBS, house_knobs
from koikoi.ui import widgets as W
from koikoi.ui.scenes import newmatch
from koikoi.ui.scenes.newmatch import NewMatchScene, make_seats
from koikoi.ui.scenes.house_rules import HouseRulesScene
from koikoi.ui.scenes.rules_panel import (GROUPS, HOUSE_KNOBS, KNOB_LABELS, RulesPanelScene,
                                          Stepper, format_value, rules_rows, short_value)
from koikoi.ui.scenes.settings import SettingsScene
from koikoi.ui.scenes.title import TitleScene


pytestmark = pytest.mark.app(seed=7)


@pytest.mark.parametrize("preset", list(RULESETS))
def test_the_house_rules_editor_offers_exactly_the_declared_values(app, preset):
    app.push(TitleScene(app))
    h = HouseRulesScene(app, preset)
    app.push(h)
    assert [k for k, _, _ in HOUSE_KNOBS] == [row for row, _ in HOUSE_ROWS] == [k for k, _ in h.rows]
    for row, knob in HOUSE_ROWS:
        ctrl = h.controls[row]
        house = knob.house
        if house.control == "toggle":
            assert isinstance(ctrl, W.Toggle)
        elif house.control == "choice":
            assert isinstance(ctrl, W.ChoiceRow)
            assert [o.value for o in ctrl.options] == list(house.values)
            assert [o.label for o in ctrl.options] == [short_value(row, v) for v in house.values]
        else:
            assert isinstance(ctrl, Stepper) and ctrl.values == list(house.values)
        assert KNOB_LABELS[row] == knob.label
        for v in house.values:      # every value offered makes playable rules
            if house_knobs(row, v).get("months", 0) is None:
                h.set_value("target_points", 50)
            h.set_value(row, v)
            assert h.error is None, (row, v, h.error)
            assert S.valid_house_rules(preset, h.changes) == h.changes
        h.reset()


def test_the_rules_panel_groups_every_shown_knob_as_declared(app):
    assert [title for title, _ in GROUPS] == list(KNOB_GROUPS)
    listed = {k: title for title, knobs in GROUPS for k in knobs}
    assert listed == {n: k.group for n, k in KNOBS.items() if k.shown}
    rules = RULESETS["kk-add-10"]
    for title, rows in rules_rows(rules):
        for k, label, value, _differs, _preset in rows:
            assert label == KNOBS[k].label and value == format_value(k, getattr(rules, k))
    app.push(TitleScene(app))
    app.push(RulesPanelScene(app, rules))
    app.step(1 / 60)


def test_cpu_levels_are_declared_once():
    assert LEVELS == tuple(lvl.name for lvl in CPU_LEVELS) and len(set(LEVELS)) == len(LEVELS)
    assert set(LEVEL_ORDER) == set(LEVELS) and LEVEL_ORDER[:len(OFFERED_LEVELS)] == tuple(
        lvl.name for lvl in OFFERED_LEVELS)
    assert LEVEL_LABELS["random"] == "CPU · Random" and LEVEL_LABELS["hard"] == "CPU · Hard"
    for lvl in CPU_LEVELS:
        assert lvl.label and lvl.blurb and lvl.seat_name and LEVEL_INFO[lvl.name] is lvl
        assert make_player(lvl.name, seed=1, simulations=4).level == lvl.name
    assert [lvl.name for lvl in CPU_LEVELS if lvl.hints] == ["easy"]   # Easy practice
    assert S.OPPONENTS == tuple(lvl.name for lvl in OFFERED_LEVELS) + ("friend",)
    # what the statistics screen will read instead of its own table (same words today)
    from koikoi.ui.scenes import stats
    assert all(stats.OPPONENT_LABELS[k] == v for k, v in LEVEL_LABELS.items())
    assert tuple(stats.OPPONENT_ORDER[:len(LEVEL_ORDER)]) == LEVEL_ORDER


def test_the_new_match_screen_shows_every_offered_level(app):
    app.push(TitleScene(app))
    d = NewMatchScene(app)
    app.push(d)
    shown = [(o.value, o.label, o.sublabel) for o in d.opp_row.options]
    assert shown == [(lvl.name, lvl.label, lvl.blurb) for lvl in OFFERED_LEVELS] + [
        ("friend", "Friend", "Same screen")]
    for lvl in OFFERED_LEVELS:
        seats, used = make_seats(lvl.name)
        assert used == lvl.name and seats[1].name == lvl.seat_name and seats[1].level == lvl.name
    seats, used = make_seats("friend")
    assert used == "" and all(s.kind == "human" for s in seats)


def test_an_unbuilt_level_is_seated_as_the_random_level(monkeypatch):
    monkeypatch.setattr(newmatch, "level_available", lambda level: level == "random")
    seats, used = make_seats("hard")
    assert used == "random" and seats[1].name == LEVEL_INFO["random"].seat_name == "CPU (Random)"


def test_the_settings_offer_every_new_match_opponent(app):
    app.push(TitleScene(app))
    s = SettingsScene(app)
    app.push(s)
    assert s.opponent.values == list(S.OPPONENTS)
    labels = {k: label for k, label, _ in newmatch.OPPONENTS}
    assert [s.opponent.fmt(v) for v in s.opponent.values] == [labels[v] for v in S.OPPONENTS]
