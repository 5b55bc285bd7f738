"""Issue #15 for the menus: Settings descriptions whole and the preview card in its row,
the hints / pace settings, friend names on the New match screen, the house rules
explained (help line, units, dependent options disabled with their reason), every rules
summary following the house rules chosen, and the gallery's labels clear of the cards."""

from __future__ import annotations

import pygame
import pytest

from koikoi import storage as S
from koikoi.engine import RULESETS
from koikoi.engine.rules import HOUSE_ROWS, KNOBS, dependency_text, house_knobs, matters
from koikoi.session import MAX_NAME_LEN
from koikoi.storage import Storage
from koikoi.ui import hints
from koikoi.ui import widgets as W
from koikoi.ui.scenes import howto
from koikoi.ui.scenes.howto import HowToPlayScene, rule_notes
from koikoi.ui.scenes.newmatch import NewMatchScene, make_seats
from koikoi.ui.scenes.house_rules import HouseRulesScene
from koikoi.ui.scenes.rules_panel import (RulesPanelScene, Stepper, build_rules, format_value,
                                          help_text, idle_knobs)
from koikoi.ui.scenes.settings import HINT_CHOICES, PACE_CHOICES, SettingsScene
from koikoi.ui.scenes.title import TitleScene

from harness import DT, click, key, move, pill, post, spy_drawn, step

SIZES = [(1280, 720), (1920, 1080)]
AT_SIZES = [pytest.param(s, marks=pytest.mark.app(size=s), id=f"{s[0]}x{s[1]}") for s in SIZES]


def type_text(app, text: str) -> None:
    """Type ``text`` as a keyboard with text input would: a KEYDOWN and a TEXTINPUT each."""
    for ch in text:
        post(pygame.KEYDOWN, key=ord(ch.lower()) if ch.isascii() else 0, mod=0, unicode=ch, scancode=0)
        post(pygame.TEXTINPUT, text=ch)
    app.step(DT)


def drawn_texts(monkeypatch) -> list:
    """Every text W.draw_text draws from now on."""
    return spy_drawn(monkeypatch, rects=False)


# ---------------------------------------------------------------- settings


@pytest.mark.parametrize("size", AT_SIZES)
def test_every_settings_description_is_whole_and_inside_its_row(app, size, monkeypatch):
    assert app.size == size
    sc = SettingsScene(app)
    app.push(sc)
    assert len(sc.rows) == 12 and len(sc.texts) == len(sc.rows)
    for i, (name, text, widget) in enumerate(sc.rows):
        label, shown, font, lines, room = sc.row_text(i)
        assert shown == name, name
        assert W.text_width(name, label) <= widget.rect.x - sc.row_pos[i][0]
        assert " ".join(lines) == text, (name, lines)            # every word, none cut
        assert not any("…" in line for line in lines), (name, lines)
        assert all(W.text_width(line, font) <= room for line in lines), name
        row = sc.row_rect(i)
        cy, _, _, top = sc.texts[i]
        assert row.top <= top and top + len(lines) * font.get_linesize() <= row.bottom, name
        assert row.top <= widget.rect.top and widget.rect.bottom <= row.bottom, name
    seen = drawn_texts(monkeypatch)
    app.draw()
    assert seen and not any("…" in t for t in seen), [t for t in seen if "…" in t]
    for name, text, _ in sc.rows:
        assert name in seen and all(line in seen for line in sc.texts[sc.rows.index((name, text, _))][2])


@pytest.mark.parametrize("size", AT_SIZES)
@pytest.mark.parametrize("scale", S.CARD_SCALES)
def test_the_preview_card_stays_in_its_own_row(app, size, scale):
    app.settings["card_scale"] = scale
    sc = SettingsScene(app)
    app.push(sc)
    i = next(k for k, r in enumerate(sc.rows) if r[2] is sc.numbers)
    row, area, card = sc.row_rect(i), sc.preview_area(), sc.preview_rect()
    assert row.contains(area) and area.contains(card), (row, area, card)
    assert card.left > sc.numbers.rect.right + sc.px(60)           # clear of the switch and its "On"
    _, font, lines, _ = sc.texts[i]
    assert card.left > row.x + max(W.text_width(line, font) for line in lines)   # and of its description
    app.draw()


def test_hints_and_pace_rows_are_saved_at_once_and_restored(app):
    sc = SettingsScene(app)
    app.push(sc)
    step(app)
    assert sc.hints.selected == "auto" and sc.pace.selected == "normal"
    click(app, pill(sc.hints, "on"))
    click(app, pill(sc.pace, "quick"))
    saved, warning = Storage().load_settings()
    assert warning is None and saved["hints"] == "on" and saved["pace"] == "quick"
    assert "hold Space or click to hurry the CPU" in dict((n, t) for n, t, _ in sc.rows)["CPU pace"]
    app.settings["friend_names"] = ["Ann", "Bo"]
    click(app, sc.reset_b)
    assert app.settings["hints"] == "auto" and app.settings["pace"] == "normal"
    assert app.settings["friend_names"] == ["Ann", "Bo"]          # names are not a preference
    assert app.settings["friend_names"] is not S.DEFAULT_SETTINGS["friend_names"]


# ---------------------------------------------------------------- the new keys
# (their validation in the settings file: tests/test_storage.py)


def test_the_pace_names_are_the_ones_storage_accepts():
    assert tuple(hints.PACES) == S.PACE_NAMES and S.DEFAULT_SETTINGS["pace"] in hints.PACES
    assert S.HINT_MODES == tuple(v for v, _ in HINT_CHOICES)
    assert S.PACE_NAMES == tuple(v for v, _ in PACE_CHOICES)


# ---------------------------------------------------------------- hints_enabled / pace_factor


@pytest.mark.parametrize("mode,level,hotseat,expected", [
    ("auto", "easy", False, True), ("auto", "medium", False, False), ("auto", "hard", False, False),
    ("auto", "random", False, False), ("auto", None, False, False), ("auto", "nonsense", False, False),
    ("auto", None, True, False), ("auto", "easy", True, False),
    ("on", "easy", False, True), ("on", "hard", False, True), ("on", None, False, True),
    ("on", None, True, False), ("on", "easy", True, False),
    ("off", "easy", False, False), ("off", "hard", False, False), ("off", None, True, False),
    (None, "easy", False, True), ("bogus", "easy", False, True), ("bogus", "hard", False, False),
    ([1], "easy", False, True),
])
def test_hints_enabled_truth_table(mode, level, hotseat, expected):
    settings = {} if mode is None else {"hints": mode}
    assert hints.hints_enabled(settings, level, hotseat) is expected


def test_hints_enabled_and_pace_factor_never_raise_on_odd_settings():
    for odd in (None, 3, "x", [], object()):
        assert hints.hints_enabled(odd, "easy", False) is True     # as "auto"
        assert hints.pace_factor(odd) == 1.0


@pytest.mark.parametrize("pace,factor", [("relaxed", 1.6), ("normal", 1.0), ("quick", 0.55),
                                         (None, 1.0), ("warp", 1.0), (2.0, 1.0), (["quick"], 1.0)])
def test_pace_factor_truth_table(pace, factor):
    settings = {} if pace is None else {"pace": pace}
    assert hints.pace_factor(settings) == factor
    assert hints.PACES["relaxed"] > hints.PACES["normal"] > hints.PACES["quick"] > 0


# ---------------------------------------------------------------- friend names


def friend_dialog(app) -> NewMatchScene:
    app.push(TitleScene(app))
    d = NewMatchScene(app)
    app.push(d)
    step(app)
    click(app, pill(d.opp_row, "friend"))
    assert d.opponent == "friend"
    return d


def test_name_fields_appear_only_against_a_friend(app):
    app.push(TitleScene(app))
    d = NewMatchScene(app)
    app.push(d)
    assert not any(f.visible for f in d.name_fields) and not set(d.name_fields) & set(d.widgets)
    click(app, pill(d.opp_row, "friend"))
    assert all(f.visible for f in d.name_fields) and set(d.name_fields) <= set(d.widgets)
    # the default names are placeholders, not text (issue 30, point 4)
    assert [f.text for f in d.name_fields] == ["", ""]
    assert [f.placeholder for f in d.name_fields] == ["Player 1", "Player 2"]
    # the fields sit between the opponents and the rules, over nothing else
    f1, f2 = (f.rect for f in d.name_fields)
    assert d.opp_row.rect.bottom < f1.top and f1.bottom < d.rules_row.rect.top and not f1.colliderect(f2)
    click(app, pill(d.opp_row, "easy"))
    assert not any(f.visible for f in d.name_fields)


def test_typed_friend_names_seat_the_match_and_are_remembered(app):
    d = friend_dialog(app)
    one, two = d.name_fields
    click(app, one)
    assert one.editing
    for _ in range(len("Player 1")):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "Ann r")                     # "r" is the House rules key: not while typing
    assert not isinstance(app.top, HouseRulesScene)
    key(app, pygame.K_BACKSPACE)
    key(app, pygame.K_BACKSPACE)
    key(app, pygame.K_RETURN, unicode="\r")     # Enter: on to the second name
    assert one.text == "Ann" and not one.editing and two.editing
    key(app, pygame.K_END)
    for _ in range(8):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "  Bo  ")
    key(app, pygame.K_TAB)                      # Tab: keep it and move on
    assert two.text == "Bo" and not two.editing  # cleaned: no spaces around
    assert app.settings["friend_names"] == ["Ann", "Bo"]
    assert Storage().load_settings()[0]["friend_names"] == ["Ann", "Bo"]
    click(app, d.start)
    session = app.top.session
    assert [s.name for s in session.seats] == ["Ann", "Bo"]
    assert all(s.kind == "human" for s in session.seats)
    # a fresh dialog offers them again
    d2 = NewMatchScene(app)
    assert [f.text for f in d2.name_fields] == ["Ann", "Bo"]


def test_friend_names_are_bounded_cleaned_and_escape_cancels(app):
    d = friend_dialog(app)
    one, two = d.name_fields
    click(app, one)
    type_text(app, "x" * 100)
    assert len(one.buffer) == MAX_NAME_LEN                  # never longer than a seat name may be
    key(app, pygame.K_ESCAPE)                               # Esc: the name as it was
    assert one.text == "" and not one.editing
    assert isinstance(app.top, NewMatchScene)               # and the dialog stays
    click(app, one)
    for _ in range(10):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "   ")
    key(app, pygame.K_RETURN, unicode="\r")                 # an empty name: the placeholder stands
    assert one.text == ""
    click(app, two)
    type_text(app, "\x07\x1bBo!")                           # control characters never go in
    assert two.buffer == "Bo!"
    click(app, d.start)                                      # a click elsewhere keeps what was typed
    assert [s.name for s in app.top.session.seats] == ["Player 1", "Bo!"]


def test_make_seats_cleans_friend_names():
    seats, _ = make_seats("friend", ["  Ann ", "y" * 99])
    assert [s.name for s in seats] == ["Ann", "Player 2"]
    seats, _ = make_seats("friend")
    assert [s.name for s in seats] == ["Player 1", "Player 2"]
    seats, used = make_seats("easy", ["Ann", "Bo"])          # names are for friend matches only
    assert seats[0].name == "You" and used == "easy"


# ---------------------------------------------------------------- house rules explained


@pytest.mark.parametrize("size", AT_SIZES)
def test_dependent_house_rules_are_disabled_with_their_reason(app, size):
    app.push(TitleScene(app))
    h = HouseRulesScene(app, "casual")
    app.push(h)
    step(app)
    # lucky hands off: their points matter only while they are on (or a dealer wins on four of a month)
    lp = h.controls["lucky_points"]
    assert not h.active("lucky_points") and not lp.enabled and not lp.visible
    assert lp not in [w for w in h.widgets if h.focus._ok(w)]
    before = lp.selected
    click(app, lp.rect.center)                                # not clickable
    assert lp.selected == before and "lucky_points" not in h.changes
    area = h.control_area(dict(h.rows)["lucky_points"])
    font, lines = h.reason_lines("lucky_points", area)
    assert " ".join(lines) == dependency_text("lucky_points") and "Lucky hands is On" in lines[0]
    assert all(W.text_width(line, font) <= area.w for line in lines)
    assert len(lines) * font.get_linesize() <= area.h
    # turning lucky hands on enables them
    h.controls["lucky_hands"].select("on")
    assert h.active("lucky_points") and lp.enabled and lp.visible
    # viewing off: the weather ruling changes nothing
    h.controls["viewing"].select("off")
    assert not h.controls["weather"].enabled
    _, reason = help_text(h.knob_values(), "weather")
    assert reason == dependency_text("weather") and "viewing yaku count" in reason
    # no Koi-Koi calls: the multiplier changes nothing
    h.controls["max_koikoi_calls"].step(-1)                   # Unlimited -> None (first yaku ends)
    assert h.values["max_koikoi_calls"] == 0
    assert not h.controls["koikoi_multiplier"].enabled
    step(app)


def test_the_help_line_explains_the_row_under_the_mouse_or_the_focus(app):
    app.push(TitleScene(app))
    h = HouseRulesScene(app, "casual")
    app.push(h)
    step(app)
    row = dict(h.rows)["oya_ken"]
    move(app, (row.x + 10, row.centery))
    assert h.help_row() == "oya_ken"
    text, reason = help_text(h.knob_values(), "oya_ken")
    assert text.startswith(KNOBS["oya_ken"].label) and KNOBS["oya_ken"].explanation in text and not reason
    lines = h.help_lines(text, reason)
    assert " ".join(line for line, _, _ in lines) == text
    assert all(W.text_width(line, font) <= h.help_rect.w for line, font, _ in lines)
    # the keyboard: Tab moves the focus, and the help follows it
    key(app, pygame.K_TAB)
    focused = next(k for k, c in h.controls.items() if c is h.focus.current)
    assert h.help_row() == focused
    # every house row has an explanation that fits the help area at this size
    for name, knob in HOUSE_ROWS:
        text, reason = help_text(h.knob_values(), name)
        assert knob.explanation and knob.explanation in text
        got = " ".join(line for line, _, _ in h.help_lines(text, reason))
        assert "…" not in got, name


def test_values_read_with_their_units(app):
    assert format_value("oya_ken", 1) == "1 point" and format_value("oya_ken", 6) == "6 points"
    assert format_value("oya_ken", 0) == "Off"
    assert format_value("lucky_points", 12) == "12 points"
    assert format_value("starting_points", 50) == "50 points"
    assert format_value("months", 6) == "6 months" and format_value("months", 1) == "1 month"
    assert format_value("target_points", None) == "Off"
    h = HouseRulesScene(app, "casual")
    app.push(h)
    st = h.controls["oya_ken"]
    assert isinstance(st, Stepper)
    st.step(1)
    assert st.fmt(st.selected) == "1 point"


def test_the_rules_panel_greys_what_changes_nothing_and_explains_on_hover(app):
    rules = build_rules("casual", {"weather": True})           # running total, lucky hands off
    idle = idle_knobs(rules)
    assert {"starting_points", "lucky_points", "lucky_both_hands_points", "lucky_both_players"} <= set(idle)
    assert "weather" not in idle and "oya_ken" not in idle
    panel = RulesPanelScene(app, rules, 6)
    app.push(TitleScene(app))
    app.push(panel)
    step(app)
    r = next(rr for rr, k in panel._hits if k == "starting_points")
    vp = panel.scroller.viewport
    panel.scroller.reveal(r.y, r.h)
    step(app, 0.5)
    off = int(panel.scroller.offset)
    move(app, (vp.x + r.centerx, vp.y + r.centery - off))
    assert panel.hovered_knob() == "starting_points"
    text, reason = help_text(rules, "starting_points")
    assert KNOBS["starting_points"].explanation in text
    assert reason == "Only when Scoring is Zero-sum stakes."
    lines = panel.help_lines(text, reason)
    assert " ".join(line for line, _, _ in lines) == f"{text} {reason}"
    assert all(W.text_width(line, font) <= panel.help_rect.w for line, font, _ in lines)
    step(app)


# ---------------------------------------------------------------- summaries follow the house rules


def test_the_new_match_summary_changes_with_a_house_rule(app):
    app.push(TitleScene(app))
    d = NewMatchScene(app)
    app.push(d)
    d.set_rules("casual")
    step(app)
    plain = d.scoring_notes()
    assert not any(house for _, house in plain)
    for row, value, words in (("oya_ken", 6, "6 points"), ("weather", True, "Weather ruling"),
                              ("seven_plus_double", False, "not doubled"), ("field_four_pairs", "redeal",
                                                                          "dealt again"),
                              ("lucky_hands", "misdeal", "misdeal")):
        d.set_house({row: value})
        notes = d.scoring_notes()
        assert notes != plain, row
        first, house = notes[0]
        assert house and words in first, (row, first)            # the house rule first, marked
        step(app)
        assert d.notes_shown and d.notes_shown[0] == first        # and drawn, at the top
    # the panel and the rules behind them are the same
    d.set_house({"oya_ken": 6})
    assert d.chosen_rules().oya_ken == 6


@pytest.mark.parametrize("size", AT_SIZES)
def test_the_new_match_summary_shows_house_rules_with_the_name_fields_too(app, size):
    d = friend_dialog(app)
    d.set_house({"weather": True, "oya_ken": 6, "must_play_match": True})
    step(app)
    assert len(d.notes_shown) >= 2 and all(any(n == t for t, h in d.scoring_notes() if h)
                                            for n in d.notes_shown[:2])


def test_every_house_row_value_changes_the_notes():
    for preset in RULESETS.values():
        for row, knob in HOUSE_ROWS:
            for value in knob.house.settable:
                changes = {k: v for k, v in house_knobs(row, value).items() if getattr(preset, k) != v}
                if not changes:
                    continue
                if changes.get("months", 0) is None:
                    changes["target_points"] = 50
                try:
                    rules = build_rules(preset.name, changes)
                except ValueError:
                    continue
                if not matters(rules, row if row in KNOBS else next(iter(changes))):
                    continue
                notes = rule_notes(rules, changed=changes)
                assert notes != rule_notes(preset, changed=changes), (preset.name, row, value)


def test_howto_from_a_match_explains_its_house_rules(app):
    rules = build_rules("casual", {"oya_ken": 6, "viewing": "off"})
    sc = HowToPlayScene(app, rules.name, rules=rules)
    app.push(sc)
    step(app)
    assert sc.shown_rules() == rules
    texts = [op[1] for _, op in sc._ops if op[0] == "text"]
    assert any("house rules" in t for t in texts)
    assert any("Oya-ken" in t for t in texts)
    names = [r[0] for r in howto.yaku_rows(sc.shown_rules())]
    assert "hanami_zake" not in names
    sc.choice.select("classic")                                 # another preset: its own rules
    assert sc.shown_rules() == RULESETS["classic"]


# ---------------------------------------------------------------- how to play gallery


@pytest.mark.parametrize("size", AT_SIZES + [pytest.param(s, marks=pytest.mark.app(size=s), id=f"{s[0]}x{s[1]}")
                                   for s in ((1024, 768), (800, 600))])
def test_gallery_labels_never_run_under_the_cards(app, size):
    sc = HowToPlayScene(app, "casual")
    app.push(sc)
    ops = sc._build()
    cards = [pygame.Rect(op[3][0], op[3][1], int(op[2] * 216 / 348), op[2]) for _, op in ops if op[0] == "card"]
    texts = []
    for _, op in ops:
        if op[0] in ("text", "ctext"):
            w = W.text_width(op[1], op[2])
            x = op[4][0] - w // 2 if op[0] == "ctext" else op[4][0]
            texts.append((op[1], pygame.Rect(x, op[4][1], w, op[2].get_height())))
    gallery_end = max(c.bottom for c in cards[:48])
    for text, r in texts:
        if r.top > gallery_end:
            break
        for c in cards[:48]:
            assert not r.colliderect(c), (size, text, r, c)


def test_name_fields_type_over_their_placeholder_select_all_and_replace_after_tab(app):
    """Issue 30, point 4: typing into an untouched field gives "Hanako", not "Player 1Hanako";
    Ctrl+A selects everything and typing replaces it; a field reached with Tab (or Enter
    from the one before) is selected whole, so typing replaces it, not appends."""
    d = friend_dialog(app)
    one, two = d.name_fields
    click(app, one)
    type_text(app, "Hanako")
    assert one.buffer == "Hanako"
    key(app, pygame.K_a, mod=pygame.KMOD_CTRL)
    assert one.selection == (0, 6)
    type_text(app, "Ann")
    assert one.buffer == "Ann"
    key(app, pygame.K_LEFT, mod=pygame.KMOD_SHIFT)
    key(app, pygame.K_BACKSPACE)                       # Shift+Left selected the "n": it goes
    assert one.buffer == "An"
    key(app, pygame.K_RETURN, unicode="\r")            # on to the second field, selected whole
    assert one.text == "An" and two.editing
    type_text(app, "Bo")
    key(app, pygame.K_TAB)
    assert two.text == "Bo"
    d.focus.focus(one)                                 # back with the keyboard: typing replaces
    type_text(app, "Cy")
    key(app, pygame.K_TAB)
    assert one.text == "Cy"
    assert [f.placeholder for f in d.name_fields] == ["Player 1", "Player 2"]
