"""The menus in another language: title, settings, the pause menu and confirm, saved
matches, history and statistics follow the current catalog, and English stays as it was.

A throwaway catalog (a few of the menus' msgids) is written to a temporary locale folder,
so these tests do not depend on how complete the shipped Japanese catalog is."""

from __future__ import annotations

import pytest

from koikoi import i18n
from koikoi.session import MatchSession, SeatConfig
from koikoi.engine import RULESETS
from koikoi.engine.phase import SeatKind

HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n')

ENTRIES = {
    "New match": "新しい対戦",
    "Quit": "終了",
    "Settings": "設定",
    "Statistics": "統計",
    "Cancel": "キャンセル",
    "Animation speed": "アニメーション速度",
    "Relaxed": "ゆっくり",
    "{speed} ({factor}×)": "{speed}（{factor}×）",
    "Resume": "続ける",
    "Concede the match": "投了する",
    "You": "あなた",
    "Month {n} of {total}": "{n}/{total}か月目",
    "{when} · {first} {first_score} – {second_score} {second}":
        "{when} · {first} {first_score} – {second_score} {second}",
    "Date": "日時",
    "Rules": "ルール",
    "No finished matches yet.": "終わった対戦はまだありません。",
}
PLURALS = {("{n} kept for later", "{n} kept for later"): "{n}つの対戦を保存中"}


def _po() -> str:
    out = [HEADER]
    for k, v in ENTRIES.items():
        out.append(f'msgid "{k}"\nmsgstr "{v}"\n\n')
    for (one, many), v in PLURALS.items():
        out.append(f'msgid "{one}"\nmsgid_plural "{many}"\nmsgstr[0] "{v}"\n\n')
    return "".join(out)


@pytest.fixture
def ja(tmp_path, monkeypatch):
    """Japanese from the throwaway catalog while the test runs; English after it."""
    path = i18n.po_path("ja", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(_po(), encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n._catalogs.clear()
    assert i18n.set_language("ja") == "ja"
    yield
    i18n._catalogs.clear()
    i18n.set_language("en")


def _labels(scene) -> list[str]:
    return [getattr(w, "label", None) for w in scene.widgets]


def _session(months=6):
    seats = (SeatConfig(SeatKind.HUMAN, "You"), SeatConfig(SeatKind.CPU, "CPU (Easy)", "random"))
    return MatchSession(RULESETS["casual"], seed=3, months=months, seats=seats)


def test_the_title_follows_the_language_and_quit_stays_the_danger_button(app, ja):
    from koikoi.ui.scenes.title import TitleScene
    scene = TitleScene(app)
    labels = _labels(scene)
    assert "新しい対戦" in labels and "設定" in labels and "統計" in labels and "New match" not in labels
    quit_b = next(w for w in scene.widgets if getattr(w, "label", None) == "終了")
    assert quit_b.style == "danger"
    assert all(w.style != "danger" for w in scene.widgets if w is not quit_b)
    i18n.set_language("en")           # a screen laid out again after a switch is in English
    scene.layout()
    assert {"New match", "Settings", "Quit"} <= set(_labels(scene))


def test_settings_rows_and_the_speed_words_are_translated_but_values_are_not(app, ja):
    from koikoi.ui.scenes.settings import HINT_CHOICES, SettingsScene, speed_text
    scene = SettingsScene(app)
    assert scene.rows[0][0] == "アニメーション速度"
    assert scene.rows[1][0] == "CPU pace"            # not in this catalog: English shows
    assert speed_text(0.5) == "ゆっくり（0.5×）"
    assert [v for v, _label in HINT_CHOICES] == ["auto", "on", "off"]
    assert scene.hints.selected == app.settings.get("hints", "auto")


def test_the_pause_menu_leaves_out_concede_by_action_not_by_label(app, ja):
    from koikoi.ui.scenes.settings import PauseMenuScene
    scene = PauseMenuScene(app)       # no match below: no rules panel, no concede
    labels = _labels(scene)
    assert "続ける" in labels and "投了する" not in labels and "Concede the match" not in labels
    assert all(getattr(w, "on_click", None) != scene.concede for w in scene.widgets)


def test_confirm_says_cancel_in_the_language_unless_told_otherwise(app, ja):
    from koikoi.ui.scenes.settings import ConfirmScene
    assert ConfirmScene(app, "T", "A question.", "Yes", lambda: None).no_b.label == "キャンセル"
    assert ConfirmScene(app, "T", "A question.", "Yes", lambda: None, no_label="No").no_b.label == "No"


def test_a_saved_match_summary_names_the_games_own_seats_in_the_language(ja):
    from koikoi.ui.scenes.saved import match_summary, seat_label
    text = match_summary(_session())
    assert text.startswith("1/6か月目 · あなた 0 – 0 ")
    assert seat_label("Player 7") == "Player 7"      # a typed name is never translated
    i18n.set_language("en")
    assert match_summary(_session()) == "Month 1 of 6 · You 0 – 0 CPU (Easy)"


def test_table_column_titles_are_translated_where_drawn(app, ja, monkeypatch):
    import koikoi.ui.widgets.table as T
    from koikoi.ui.scenes.history import COLUMNS, HistoryScene
    drawn = []
    real = T.draw_text
    monkeypatch.setattr(T, "draw_text", lambda surface, text, *a, **kw: drawn.append(text) or real(
        surface, text, *a, **kw))
    from koikoi.ui import widgets as W
    table = W.Table(COLUMNS, [{"date": "1 Dec 2026, 10:00", "opponent": "CPU (Easy)", "rules": "Casual",
                               "rounds": "6", "score": "3 – 1", "result": "Won"}], cells=dict,
                    assets=app.assets)
    table.place((0, 0, 1200, 400), s=1.0, row_h=60, header_h=50)
    table.draw(app.screen)
    assert COLUMNS[0].title == "Date"                # declared in English, drawn translated
    assert "日時" in drawn and "ルール" in drawn and "DATE" not in drawn
    assert "Opponent" in drawn      # not in this catalog: English, and capitals are English typography only
    drawn.clear()
    scene = HistoryScene(app)                         # no match yet: the empty message, translated
    scene.draw(app.screen)
    assert "終わった対戦はまだありません。" in drawn and "No finished matches yet." not in drawn
