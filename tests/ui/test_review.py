"""Practise and review: house rules, the rules panel, the replay viewer, the
statistics, the how-to page, the settings' new keys and conceding."""

from __future__ import annotations

import dataclasses

import pygame
import pytest

from koikoi.engine import DECK, RULESETS, action_of, replay
from koikoi.storage import Storage
from koikoi.ui.scenes.howto import HowToPlayScene
from koikoi.ui.scenes.ledger import MatchResultsScene
from koikoi.ui.scenes.newmatch import NewMatchScene
from koikoi.ui.scenes.replay import ReplayScene, position_key, position_of_state, round_steps
from koikoi.ui.scenes.house_rules import HouseRulesScene
from koikoi.ui.scenes.rules_panel import (GROUPS, RulesPanelScene, build_rules,
                                          differing_knobs, rules_rows)
from koikoi.ui.scenes.settings import ConfirmScene, PauseMenuScene, SettingsScene
from koikoi.ui.scenes.stats import StatsScene, table_rows
from koikoi.ui.scenes.title import TitleScene
from koikoi.session import MatchSession, SeatConfig

SIZES = ((1280, 720), (1920, 1080), (960, 540))


pytestmark = pytest.mark.app(seed=7)      # the `app` fixture: tests/ui/conftest.py


def session(seed=3, months=2, rules="casual", finish=True):
    from koikoi.ai import make_player
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "random"))
    s = MatchSession(RULESETS[rules], seed=seed, months=months, seats=seats)
    if finish:
        players = [make_player("random", seed=1), make_player("random", seed=2)]
        while not s.state.is_over:
            seat = s.state.to_move
            s.apply(players[seat].choose(s.view(seat), s.legal()))
    return s


def frames(app, n=3):
    for _ in range(n):
        app.step(1 / 60)


def at_sizes(app, scene):
    for size in SIZES:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app.on_window_resized()
        frames(app, 2)
        assert scene.size == app.size


def click(app, widget):
    pos = widget.rect.center if hasattr(widget, "rect") else widget
    app.dispatch(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.dispatch(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    frames(app, 1)


def key(app, k, mod=0):
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    frames(app, 1)


# ---------------------------------------------------------------- house rules


def test_house_rules_make_the_match_rules_and_are_remembered(app):
    app.push(TitleScene(app))
    app.push(NewMatchScene(app))
    d = app.top
    d.set_rules("nintendo")
    click(app, d.house_b)
    h = app.top
    assert isinstance(h, HouseRulesScene)
    at_sizes(app, h)
    h.controls["weather"].set(True)             # a toggle
    h.controls["oya_ken"].step(1)               # a stepper: 0 -> 1
    h.controls["field_four_of_month"].select("dealer_sweeps")   # a choice row
    h.controls["sake_cup"].select("chaff")
    assert h.changes == {"weather": True, "oya_ken": 1, "field_four_of_month": "dealer_sweeps",
                         "sake_cup_is_animal": False}
    frames(app)
    click(app, h.done_b)
    assert app.top is d
    assert d.house == h.changes
    expected = dataclasses.replace(RULESETS["nintendo"], **d.house)
    assert d.chosen_rules() == expected
    # remembered with the last choice, and offered again by a fresh dialog
    saved = Storage().load_settings()[0]["last_new_match"]
    assert saved["rules"] == "nintendo" and saved["house"] == d.house
    d2 = NewMatchScene(app)
    assert d2.house == d.house
    # the match starts with them
    d.start_match()
    from koikoi.ui.scenes.oyagime import OyagimeScene
    assert isinstance(app.top, OyagimeScene)
    assert app.top.session.rules == expected
    assert app.top.session.rules.name == "nintendo"


def test_house_rules_reset_to_preset_and_switching_preset_clears_them(app):
    h = HouseRulesScene(app, "classic", {"weather": True, "seven_plus_double": True})
    app.push(h)
    frames(app)
    assert len(h.changes) == 2
    click(app, h.reset_b)
    assert h.changes == {}
    d = NewMatchScene(app)
    d.set_house({"weather": True})
    d.set_rules("yakuza")
    assert d.house == {}


def test_invalid_house_rules_are_shown_and_never_started(app):
    app.push(NewMatchScene(app))
    d = app.top
    d.set_rules("casual")
    h = HouseRulesScene(app, "casual", {}, on_done=d.set_house)
    app.push(h)
    h.set_value("months", None)                # no month limit, no target, total scoring: never ends
    assert h.error and "months=None" in h.error
    frames(app)                                # the message is drawn
    click(app, h.done_b)
    assert app.top is h                         # refused: the editor stays open
    h.set_value("target_points", 50)           # a target makes it playable
    assert h.error is None
    click(app, h.done_b)
    assert d.house == {"months": None, "target_points": 50}
    assert d.chosen_rules().months is None
    # a bad combination that reached the dialog some other way does not start
    d.house = {"lucky_points": -3}
    d.start_match()
    assert app.top is d and d.error
    with pytest.raises(ValueError):
        build_rules("casual", {"lucky_points": -3})


def test_a_no_limit_match_starts_and_plays_to_its_target(app):
    app.push(NewMatchScene(app))
    d = app.top
    d.set_house({"months": None, "target_points": 50})
    d.start_match()
    st = app.top.session.state
    assert st.months is None and st.rules.target_points == 50


# ---------------------------------------------------------------- rules panel


def test_rules_panel_lists_every_knob_and_marks_the_differing_ones(app):
    rules = build_rules("kk-add-10", {"weather": True, "oya_ken": 6})
    assert differing_knobs(rules) == ["weather", "oya_ken"]
    listed = [k for _, rows in rules_rows(rules) for k, *_ in rows]
    assert sorted(listed) == sorted(f.name for f in dataclasses.fields(rules) if f.name != "name")
    panel = RulesPanelScene(app, rules, 6)
    assert panel.differing == ["weather", "oya_ken"]
    app.push(TitleScene(app))
    app.push(panel)
    at_sizes(app, panel)
    assert not differing_knobs(RULESETS["classic"])
    assert len(GROUPS) >= 5
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, TitleScene)


def test_pause_menu_opens_the_rules_of_this_match(app):
    s = session(finish=False)
    from koikoi.ui.scenes.oyagime import open_round
    s.apply(s.legal()[0])
    s.apply(s.legal()[0])
    app.push(TitleScene(app))
    open_round(app, s, replace=True)
    frames(app)
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, PauseMenuScene)
    btn = next(b for b in app.top.widgets if b.label == "Rules of this match")
    click(app, btn)
    assert isinstance(app.top, RulesPanelScene) and app.top.rules == s.rules


def test_concede_files_the_match_as_conceded_and_clears_the_autosave(app):
    s = session(finish=False)
    s.on_change = app.autosave
    s.apply(s.legal()[0])
    s.apply(s.legal()[0])
    assert app.storage.has_autosave()
    from koikoi.ui.scenes.oyagime import open_round
    app.push(TitleScene(app))
    open_round(app, s, replace=True)
    frames(app)
    app.open_pause_menu()
    frames(app)
    btn = next(b for b in app.top.widgets if b.label == "Concede the match")
    click(app, btn)
    assert isinstance(app.top, ConfirmScene)
    click(app, app.top.yes_b)
    assert isinstance(app.top, TitleScene)
    assert not app.storage.has_autosave()
    [m] = app.storage.list_finished()
    assert m.conceded == 0 and m.winner == 1
    # the history shows it, and its ledger says so
    from koikoi.ui.scenes.history import HistoryScene, result_text
    assert result_text(m)[0] == "Conceded"
    hs = HistoryScene(app)
    app.push(hs)
    hs.open(0)
    assert isinstance(app.top, MatchResultsScene) and app.top.conceded == 0
    frames(app)


# ---------------------------------------------------------------- replay


def test_each_replay_step_equals_the_replay_of_the_log_prefix():
    checked = 0
    for seed in range(4):
        for rules in ("casual", "kk-add-10"):
            s = session(seed=seed, months=2, rules=rules)
            ev = s.state.events
            for row in s.state.ledger:
                steps = round_steps(ev, row.round)
                assert steps[0].kind == "deal" and steps[-1].kind == "end"
                assert steps[-1].row == row
                assert all(len(h) == 8 for h in steps[0].hands)
                for p in steps:
                    if p.end < len(ev) and action_of(ev[p.end]) is not None:
                        st = replay(ev[:p.end])
                        assert position_of_state(st) == position_key(p)
                        assert st.stock_count == p.stock_count
                        checked += 1
    assert checked > 50


def test_replay_positions_are_the_public_table_fold():
    """Each step's table is the round table's fold (engine.table) at the step's end: the
    shared table from the viewing seat's public events, each hand from its own seat's."""
    import re
    from koikoi.engine import public_event
    from koikoi.engine.table import fold_all
    card_id = re.compile(r"\d\d-[A-Z]")
    checked = 0
    for seed in range(3):
        for rules in ("casual", "kk-add-10"):
            s = session(seed=seed, months=2, rules=rules)
            ev = s.state.events
            for row in s.state.ledger:
                for you in (0, 1, None):
                    viewer = 0 if you is None else you
                    for style in ("both", "english", "romaji"):
                        steps = round_steps(ev, row.round, ("You", "CPU"), you=you, style=style)
                        for p in steps:
                            assert not any(card_id.search(line) for line in p.lines), p.lines
                            assert len(p.tones) == len(p.lines) and all(p.lines)
                    for p in steps:
                        t = fold_all([public_event(e, viewer) for e in ev[:p.end]], viewer)
                        assert p.table == t
                        assert (p.field, p.captured, p.stock_count, p.pending, p.calls, p.yaku) == \
                            (t.field, t.captured, t.stock_count, t.pending, t.calls, t.yaku)
                        for seat in (0, 1):
                            own = fold_all([public_event(e, seat) for e in ev[:p.end]], seat)
                            assert p.hands[seat] == own.hand
                        checked += 1
    assert checked > 100


def test_the_replay_tells_the_human_seat_as_you_in_the_name_style(app):
    s = session(seed=5, months=2)
    app.settings["name_style"] = "english"
    sc = ReplayScene(app, s, 1)
    assert sc.you == 0 and sc.style == "english"
    text = " ".join(line for p in sc.steps for line in p.lines)
    assert "You played " in text and "CPU (Easy) played " in text
    assert "(Matsu" not in text and "Kasu)" not in text      # English names only
    assert sc.steps[-1].tones[-1] == ("yaku" if sc.steps[-1].row.winner is not None else "")


def test_replay_words_that_overflow_cut_the_play_before_the_yaku():
    from koikoi.ui.scenes.replay import Position, description_lines
    p = Position(0, 1, "play", 0, ((), ()), (), ((), ()), 0, None, (0, 0), ((), ()),
                 lines=["one two three four five six", "You have Kasu (1): 1 point."], tones=["", "yaku"])

    def wrap(text):       # three words a line
        words = text.split()
        return [" ".join(words[i:i + 3]) for i in range(0, len(words), 3)]
    yaku = [("You have Kasu", 1), ("(1): 1 point.", 1)]
    assert description_lines(p, wrap, 4, lambda t: True) == [("one two three", 0), ("four five six", 0)] + yaku
    # one line short: the play is cut (at a word that fits, with "…"), the yaku stays whole
    assert description_lines(p, wrap, 3, lambda t: True) == [("one two three …", 0)] + yaku
    assert description_lines(p, wrap, 3, lambda t: len(t) <= 10) == [("one two …", 0)] + yaku
    # shorter still: the last lines are left out
    assert description_lines(p, wrap, 2, lambda t: True) == [("one two three …", 0), yaku[0]]


def test_replay_navigation_and_both_hands_face_up(app, monkeypatch):
    s = session(seed=5, months=2)
    sc = ReplayScene(app, s, 1)
    app.push(sc)
    frames(app)
    n = len(sc.steps)
    assert sc.index == 0
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert sc.index == 2
    key(app, pygame.K_LEFT)
    assert sc.index == 1
    key(app, pygame.K_END)
    assert sc.index == n - 1
    key(app, pygame.K_RIGHT)
    assert sc.index == n - 1            # stays at the end
    key(app, pygame.K_HOME)
    assert sc.index == 0
    click(app, sc.next_b)
    assert sc.index == 1
    click(app, sc.prev_b)
    assert sc.index == 0
    # jump with a turn marker
    target = n // 2
    click(app, sc._marker_rects()[target].center)
    assert sc.index == target
    sc.go(3)
    assert sc.position is sc.steps[3]
    # every card of both hands is drawn face up (through assets.card, never a back)
    drawn = []
    real = app.assets.card

    def spy(cid, h, **kw):
        drawn.append(cid)
        return real(cid, h, **kw)
    monkeypatch.setattr(app.assets, "card", spy)
    sc.go(0)
    app.draw()
    for hand in sc.position.hands:
        assert set(hand) <= set(drawn)
    assert set(sc.position.field) <= set(drawn)
    at_sizes(app, sc)
    key(app, pygame.K_ESCAPE)
    assert app.top is not sc


def test_ledger_replay_button_opens_the_round(app):
    s = session(seed=2, months=2)
    led = MatchResultsScene(app, s, from_history=True)
    app.push(led)
    frames(app)
    x = next(x + cw // 2 for k, _h, x, cw, _a in led.cols if k == "replay")
    y = led.scroller.viewport.y + led.row_h // 2
    click(app, (x, y))
    assert isinstance(app.top, ReplayScene) and app.top.round_no == 1
    app.pop()
    btn = next(b for b in led.widgets if b.label == "Rules of this match")
    click(app, btn)
    assert isinstance(app.top, RulesPanelScene)


# ---------------------------------------------------------------- statistics


def test_stats_empty_state(app):
    sc = StatsScene(app)
    assert sc.empty
    app.push(TitleScene(app))
    app.push(sc)
    at_sizes(app, sc)
    assert any(getattr(w, "label", "") == "New match" for w in sc.widgets)


def test_stats_from_history(app):
    for seed in range(3):
        app.storage.save_finished(session(seed=seed, months=2))
    sc = StatsScene(app)
    assert not sc.empty and sc.stats.overall.matches == 3
    rows = table_rows(sc.stats)
    assert rows and rows[0]["played"] == "3"
    tiles = dict((label, big) for label, big, _ in sc.tiles())
    assert tiles["Matches"] == "3"
    app.push(sc)
    at_sizes(app, sc)


def test_title_has_statistics(app):
    t = TitleScene(app)
    app.push(t)
    frames(app)
    btn = next(b for b in t.widgets if b.label == "Statistics")
    click(app, btn)
    assert isinstance(app.top, StatsScene)


# ---------------------------------------------------------------- how to play


def test_howto_draws_all_48_cards_for_every_preset(app):
    for name in RULESETS:
        sc = HowToPlayScene(app, name)
        sc._build()
        assert {c.id for c in DECK} <= sc.cards_drawn, name
    sc = HowToPlayScene(app, "tournament")
    app.push(sc)
    at_sizes(app, sc)
    sc.choice.select("classic")
    frames(app)
    assert sc.rules_name == "classic" and sc.scroller.content_height > sc.scroller.viewport.h


# ---------------------------------------------------------------- settings


def test_settings_new_keys_are_saved_at_once(app):
    sc = SettingsScene(app)
    app.push(sc)
    at_sizes(app, sc)
    sc.card_size.select(1.15)
    sc.names.select("romaji")
    sc.opponent.step(1)
    sc.rules.step(1)
    sc.music.set(0.25)
    saved, warning = Storage().load_settings()
    assert warning is None
    assert saved["card_scale"] == 1.15 and saved["name_style"] == "romaji"
    assert saved["music_volume"] == 0.25
    assert saved["last_new_match"]["opponent"] == sc.opponent.selected
    assert saved["last_new_match"]["rules"] == sc.rules.selected
    click(app, sc.reset_b)
    assert app.settings["card_scale"] == 1.0 and app.settings["name_style"] == "both"
