"""Issue 30, point 7 (the screens' wording, not the lessons'): the rules panel names the
length the match is played at, the ledger's line says how many house rules changed, the
weather note names the viewing yaku as House rules does, a round opened from the ledger
offers Close, and the Koi-Koi bonus at the prompt is no yaku row with a NEW badge."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from harness import session_where, spy_drawn, step

from koikoi import i18n
from koikoi.engine import PRESET_DESCRIPTIONS, RULESETS
from koikoi.engine.events import RoundEnded
from koikoi.ui.scenes.rules_panel import KNOB_LABELS
from koikoi.session import SeatConfig

pytestmark = pytest.mark.app(anim_speed=0.0, muted=True)
EASY = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "easy"))


def spy(monkeypatch) -> list:
    return spy_drawn(monkeypatch, rects=False)


@pytest.mark.parametrize("lang, kept, short", [("en", "Casual (6 months, stacking yaku)", "Casual (3 months)"),
                                               ("ja", "カジュアル（6か月", "カジュアル（全3か月）")])
def test_the_rules_panel_names_the_length_played(app, monkeypatch, lang, kept, short):
    i18n.set_language(lang)
    try:
        drawn = spy(monkeypatch)
        app.open("rules_panel", RULESETS["casual"], 3)
        step(app)
        assert any(short in t for t in drawn) and not any(kept in t for t in drawn), drawn[:6]
        described = i18n._(PRESET_DESCRIPTIONS["casual"])
        assert not any(described[:12] in t for t in drawn)   # "Six months, ..." is not said either
        app.pop()
        drawn.clear()
        app.open("rules_panel", RULESETS["casual"], 6)
        step(app)
        assert any(kept in t for t in drawn)
        assert any(described[:12] in t for t in drawn)
    finally:
        i18n.set_language("en")


def test_the_ledgers_rules_line_says_how_many_house_rules_changed():
    from koikoi.ui.scenes.ledger import rules_line
    casual = RULESETS["casual"]
    house = replace(casual, weather=not casual.weather, hanami_zake=3)
    st = SimpleNamespace(rules=house, months=casual.months, ledger=(1,) * 6)
    assert rules_line(st).endswith("  ·  2 house rules changed"), rules_line(st)
    st = SimpleNamespace(rules=replace(casual, months=3), months=3, ledger=(1, 2, 3))
    assert rules_line(st) == "Casual  ·  3 rounds"         # the length alone is said by the rounds


def test_the_weather_note_names_the_viewing_yaku_as_house_rules_does():
    from koikoi.ui.scenes.rule_notes import rule_note_items
    rules = replace(RULESETS["nintendo"], weather=True)
    notes = [text for knobs, text, _a in rule_note_items(rules) if "weather" in knobs]
    assert notes and KNOB_LABELS["hanami_zake"] in notes[0] and "Flower Viewing" not in notes[0]


def test_a_round_opened_from_the_ledger_offers_close(app):
    from koikoi.ui.scenes.ledger import MatchResultsScene
    from koikoi.ui.scenes.results import RoundResultsScene
    s = session_where(lambda s: len(s.state.ledger) >= 1, seats=EASY, rules="casual", max_steps=200)
    ledger = MatchResultsScene(app, s)
    app.push(ledger)
    step(app)
    ledger.open_row(0)
    step(app)
    assert isinstance(app.top, RoundResultsScene) and app.top.ok.label == "Close"
    after_a_round = RoundResultsScene(app, s, RoundEnded(s.state.ledger[0], ((), ())))
    assert after_a_round.ok.label == "Continue"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_koikoi_bonus_is_said_under_the_yaku_not_as_a_new_one(app, monkeypatch, lang):
    from koikoi.ui.scenes import prompt as P
    s = session_where(lambda s: s.state.phase_name == "decide" and s.state.to_move == 0
                      and any(n == "koikoi_bonus" for n, _p, _i in s.view(0).award(0).yaku),
                      rules="koikoi-japan", seats=EASY, seeds=range(1, 600), max_steps=120)
    i18n.set_language(lang)
    try:
        drawn = spy(monkeypatch)
        scene = P.KoiKoiPromptScene(app, s, 0, on_choice=lambda c: None, practice=False)
        app.push(scene)
        step(app, 0.3)
        bonus = next(p for n, p, _i in s.view(0).award(0).yaku if n == "koikoi_bonus")
        line = i18n.ngettext("+ {points} point of Koi-Koi bonus for your own calls",
                             "+ {points} points of Koi-Koi bonus for your own calls", bonus).format(points=bonus)
        assert line in drawn
        from koikoi.engine import yaku as Y
        rows = [n for n, _p, _i in s.view(0).award(0).yaku if n != "koikoi_bonus"]
        assert i18n._(Y.info("koikoi_bonus").english) not in drawn       # no row of its own
        pts = [t for t in drawn if t.isdigit()]
        assert len(pts) == min(4, len(rows))              # one points figure a yaku row
        made = [n for n, _p, _i in s.view(0).award(0).yaku if n != "koikoi_bonus" and n not in scene.before]
        assert drawn.count(i18n._("NEW")) == len(made[:4])
    finally:
        i18n.set_language("en")
