"""The game's own seat names ("You", "CPU (Easy)", "Player 1", "Player 2", stored in English)
read in the current language wherever a screen shows them (seat_label), a typed name as it
is; and the raw English of an error is no longer the sentence a Japanese player reads."""

from __future__ import annotations

from types import SimpleNamespace

import pygame
import pytest

from koikoi import i18n
from koikoi.engine import RULESETS
from koikoi.engine.events import KoiKoiCalled, OyagimeDecided, Stopped
from koikoi.session import MatchSession, SeatConfig

FRIENDS = (SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2"))
VS_CPU = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "easy"))

JA_PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"

msgid "You"
msgstr "あなた"

msgid "CPU (Easy)"
msgstr "CPU（やさしい）"

msgid "Player 1"
msgstr "プレイヤー1"

msgid "Player 2"
msgstr "プレイヤー2"

msgid "August"
msgstr "8月"

msgid "October"
msgstr "10月"

msgid "{winner} comes before {loser}: {name} deals first."
msgstr "{winner}は{loser}より早い月：{name}が親です。"

msgid "{name}: turn up one of your cards."
msgstr "{name}：自分の札を一枚めくってください。"

msgid "{name} is choosing…"
msgstr "{name}が選んでいます…"

msgid "{name} calls Koi-Koi!"
msgstr "{name}の「こいこい」！"

msgid "{name} wins the round"
msgstr "この局は{name}の勝ち"

msgid "{name} stops!"
msgstr "{name}の勝負！"

msgid "{name}'s turn"
msgstr "{name}の番です"

msgid "{first} vs {second}"
msgstr "{first} 対 {second}"

msgid "{name} conceded"
msgstr "{name}の投了"

msgid "{name} won"
msgstr "{name}の勝ち"

msgid "The match ends now as a loss for {who}. It is kept in the match history, marked conceded."
msgstr "{who}の負けとして対戦を終えます。"

msgid "round {n} is not complete in this log"
msgstr "このログには第{n}局が最後までありません"

msgid "This round cannot be reviewed: {problem}"
msgstr "この局は振り返れません：{problem}"

msgid "That match could not be opened: its file is no longer there."
msgstr "その対戦を開けませんでした：ファイルが見つかりません。"

msgid "That match could not be opened: its file could not be read."
msgstr "その対戦を開けませんでした：ファイルを読み込めません。"
'''


@pytest.fixture
def japanese(tmp_path, monkeypatch):
    d = tmp_path / "locale" / "ja" / "LC_MESSAGES"
    d.mkdir(parents=True)
    (d / "koikoi.po").write_text(JA_PO, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    i18n._catalogs.clear()
    i18n.set_language("ja")
    yield
    i18n.set_language("en")
    i18n._catalogs.clear()


def no_raw_names(text: str) -> bool:
    return not any(n in text for n in ("Player 1", "Player 2", "CPU (Easy)", "You"))


def past_oyagime(seats, seed=5):
    s = MatchSession(RULESETS["classic"], seed=seed, seats=seats)
    while s.state.phase_name == "oyagime":
        s.apply(s.legal()[0])
    return s


# ---------------------------------------------------------------- oya-gime
def test_verdict_names_the_cpu_in_japanese(japanese):
    from koikoi.ui.scenes.oyagime import verdict_text
    s = MatchSession(RULESETS["classic"], seed=5, seats=VS_CPU)
    text = verdict_text(s, OyagimeDecided(1, ("10-P1", "08-P1"), "earlier_month"))
    assert text == "8月は10月より早い月：CPU（やさしい）が親です。"


def test_verdict_keeps_a_typed_name(japanese):
    from koikoi.ui.scenes.oyagime import verdict_text
    s = MatchSession(RULESETS["classic"], seed=5,
                     seats=(SeatConfig("human", "Aki"), SeatConfig("human", "Haru")))
    text = verdict_text(s, OyagimeDecided(1, ("10-P1", "08-P1"), "earlier_month"))
    assert text.endswith("Haruが親です。")


def test_oyagime_prompt_and_labels_of_a_friend_match(app, japanese, monkeypatch):
    from koikoi.ui.scenes.oyagime import OyagimeScene
    s = MatchSession(RULESETS["classic"], seed=5, seats=FRIENDS)
    scene = OyagimeScene(app, s)
    app.push(scene)
    from harness import wait_for
    assert wait_for(app, lambda: scene.picking_seat is not None)
    seat = scene.picking_seat
    text, _hint = scene._prompt()
    assert text == f"プレイヤー{seat + 1}：自分の札を一枚めくってください。"
    from harness import spy_drawn
    drawn = spy_drawn(monkeypatch, rects=False)
    scene.draw_content(pygame.Surface(scene.size))
    assert "プレイヤー1" in drawn and "プレイヤー2" in drawn
    assert "Player 1" not in drawn and "Player 2" not in drawn


# ---------------------------------------------------------------- the round table
def test_round_scene_name_is_the_seat_label(app, japanese):
    from koikoi.ui.scenes.round import RoundScene
    scene = RoundScene(app, past_oyagime(FRIENDS))
    assert (scene.name(0), scene.name(1)) == ("プレイヤー1", "プレイヤー2")
    scene = RoundScene(app, past_oyagime((SeatConfig("human", "Aki"), SeatConfig("human", "Player 2"))))
    assert (scene.name(0), scene.name(1)) == ("Aki", "プレイヤー2")


def test_round_scene_name_in_english_is_unchanged(app):
    from koikoi.ui.scenes.round import RoundScene
    scene = RoundScene(app, past_oyagime(VS_CPU))
    assert (scene.name(0), scene.name(1)) == ("You", "CPU (Easy)")


def test_table_banners_name_the_cpu_in_japanese(app, japanese, monkeypatch):
    from koikoi.ui.scenes.round import RoundScene
    scene = RoundScene(app, past_oyagime(VS_CPU))
    app.push(scene)
    shown = []
    monkeypatch.setattr(scene, "banner_now", lambda title, sub, *a, **kw: shown.append((title, sub)))
    scene.director._announce_event(KoiKoiCalled(1, 1), scene.table)
    scene.director._announce_event(Stopped(1, True), scene.table)
    scene.director._announce_event(Stopped(1, False), scene.table)
    titles = [t for t, _s in shown]
    assert titles == ["CPU（やさしい）の「こいこい」！", "この局はCPU（やさしい）の勝ち", "CPU（やさしい）の勝負！"]


def test_friend_curtain_and_last_turn_in_japanese(app, japanese):
    from harness import click, human_move, new_match_table, wait_for
    from koikoi.ui.scenes.curtain import CurtainScene
    app.settings["anim_speed"] = 0
    s, scene = new_match_table(app, seed=9, seats=FRIENDS)
    curtains = []
    for _ in range(8):
        wait_for(app, lambda: scene.my_turn() or scene.overlay is not None)
        if isinstance(scene.overlay, CurtainScene):
            curtains.append(scene.overlay.title)
            click(app, (10, 10))
            continue
        if scene.overlay is not None:
            break
        human_move(app, s, scene)
    assert curtains and all(t in ("プレイヤー1の番です", "プレイヤー2の番です") for t in curtains)
    assert scene.last_turn_text and scene.last_turn_text.startswith(("プレイヤー1 ", "プレイヤー2 "))
    assert not any("Player 1" in b or "Player 2" in b for b in scene.banner_log)


# ---------------------------------------------------------------- history
def _friend_row(**kw):
    base = dict(opponent="Friend", players=("Player 1", "Player 2"), winner=1, conceded=None,
                unfinished=False, online_seat=None, scores=(3, 9), finished_at="2026-01-02T10:00:00",
                rules="classic", rounds=6, path="x.json")
    base.update(kw)
    return SimpleNamespace(**base)


def test_history_friend_row_in_japanese(japanese):
    from koikoi.ui.scenes.history import history_cells, result_text
    cells = history_cells(_friend_row())
    assert cells["opponent"] == "プレイヤー1 対 プレイヤー2"
    assert result_text(_friend_row())[0] == "プレイヤー2の勝ち"
    assert result_text(_friend_row(conceded=1, winner=0))[0] == "プレイヤー2の投了"


def test_history_typed_names_stay(japanese):
    from koikoi.ui.scenes.history import history_cells, result_text
    row = _friend_row(players=("Aki", "Haru"))
    assert history_cells(row)["opponent"] == "Aki 対 Haru"
    assert result_text(row)[0] == "Haruの勝ち"


def test_history_english_is_unchanged():
    from koikoi.ui.scenes.history import history_cells, result_text
    assert history_cells(_friend_row())["opponent"] == "Player 1 vs Player 2"
    assert result_text(_friend_row(conceded=1, winner=0))[0] == "Player 2 conceded"


def _open_with(path, problem):
    from koikoi.ui.scenes.history import HistoryScene
    toasts = []

    def load_finished(p):
        raise ValueError(problem)
    stub = SimpleNamespace(
        matches=[_friend_row(path=path)],
        app=SimpleNamespace(storage=SimpleNamespace(load_finished=load_finished),
                            toast=lambda text, *a, **kw: toasts.append(text),
                            open=lambda *a, **kw: pytest.fail("opened")))
    HistoryScene.open(stub, 0)
    return toasts


def test_history_open_failure_is_a_translated_sentence(japanese, tmp_path, caplog):
    gone = tmp_path / "gone.json"
    with caplog.at_level("WARNING"):
        assert _open_with(gone, "gone.json is no longer there") == [
            "その対戦を開けませんでした：ファイルが見つかりません。"]
    assert "gone.json is no longer there" in caplog.text          # the raw reason, in the log
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert _open_with(bad, "bad.json is not valid JSON (line 1)") == [
        "その対戦を開けませんでした：ファイルを読み込めません。"]


def test_history_open_failure_in_english(tmp_path):
    toasts = _open_with(tmp_path / "gone.json", "gone.json is no longer there")
    assert toasts == ["That match could not be opened: its file is no longer there."]


# ---------------------------------------------------------------- concede
def test_concede_dialog_names_the_friend_in_japanese(app, japanese):
    from koikoi.ui.scenes.round import RoundScene
    from koikoi.ui.scenes.settings import ConfirmScene, PauseMenuScene
    s = past_oyagime(FRIENDS)
    app.push(RoundScene(app, s))
    pause = PauseMenuScene(app)
    app.push(pause)
    pause.concede()
    assert isinstance(app.top, ConfirmScene)
    seat = pause.conceding_seat(s)
    assert app.top.text == f"プレイヤー{seat + 1}の負けとして対戦を終えます。"


# ---------------------------------------------------------------- lessons
def test_lesson_seats_keep_the_english_names(japanese):
    from koikoi import lessons as L
    from koikoi.ui.scenes.lesson import Script, lesson_session
    lesson = next(e.lesson for e in L.load_all(lang="en") if e.lesson is not None)
    s = lesson_session(lesson, Script(lesson))
    assert [seat.name for seat in s.seats] == ["You", "CPU"]


# ---------------------------------------------------------------- results
def test_round_results_review_problem_is_translated(japanese):
    from koikoi.ui.scenes.replay import RoundIncomplete
    from koikoi.ui.scenes.results import RoundResultsScene
    toasts = []

    def open_(*a, **kw):
        raise RoundIncomplete(3)
    stub = SimpleNamespace(done_revealing=True, session=None, row=SimpleNamespace(round=3),
                           app=SimpleNamespace(open=open_, toast=lambda text, *a, **kw: toasts.append(text)))
    RoundResultsScene.review_round(stub)
    assert toasts == ["この局は振り返れません：このログには第3局が最後までありません"]
