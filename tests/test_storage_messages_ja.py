"""Storage and session warnings read in Japanese: no English fragment, key or error text.

The save problems of a session are English msgids the app translates when it shows
them; a reset setting is named by its Settings label; an unreadable file is described
by its kind (``BadFile.kind`` / ``reason``), its English ``str()`` kept for the log.
Translations not yet in the catalog are installed by the ``ja`` fixture.
"""

from __future__ import annotations

import json
import logging

import pytest

from koikoi import i18n
from koikoi import storage as storage_mod
from koikoi.engine import RULESETS
from koikoi.files import REASONS, BadFile, parse_json, read_json
from koikoi.session import MatchSession, SeatConfig
from koikoi.storage import DEFAULT_SETTINGS, SETTING_LABELS, Storage, problem_text, setting_names

# the new msgids of this change, as the catalog will have them
NEW = {
    "The match could not be saved (see the log).": "対戦を保存できませんでした（ログを確認してください）。",
    "Window size": "ウィンドウの大きさ",
    "New match choices": "新しい対戦の選択",
    "Friend match names": "友だち対戦の名前",
    "Online play": "オンライン対戦",
    "Lesson progress": "レッスンの記録",
    "the file could not be read": "ファイルを読み込めません",
    "the file is a link to outside the game's folder": "ゲームのフォルダーの外へのリンクです",
    "it is not a regular file": "通常のファイルではありません",
    "the file is too large": "ファイルが大きすぎます",
    "the file is not text": "ファイルがテキストではありません",
    "the file is not one the game wrote": "このゲームが書いたファイルではありません",
    "the file is damaged": "ファイルのデータが正しくありません",
    "the file is not a saved match": "保存された対戦のファイルではありません",
    "the file is not a settings file": "設定のファイルではありません",
    "it was saved by a newer version of the game": "新しいバージョンのゲームで保存されています",
    "the match in it is damaged": "中の対戦の記録が正しくありません",
    "the file is no longer there": "ファイルがもうありません",
    "The folder for the game's files is not a valid path: {path}.":
        "ゲームのファイルを置くフォルダーのパスが正しくありません：{path}。",
    "The folder for the game's files is too long a path ({count} characters; set {variable} to a "
    "shorter folder): {path}…": "ゲームのファイルを置くフォルダーのパスが長すぎます（{count}文字。"
                                "{variable} にもっと短いフォルダーを指定してください）：{path}…",
}


@pytest.fixture
def ja(monkeypatch):
    """Japanese: the real catalog plus this change's new entries."""
    real = i18n.catalog("ja")
    messages = dict(real.messages)
    messages.update({(None, k): v for k, v in NEW.items()})
    cat = i18n.Catalog("ja", messages, real.headers, source="test")
    monkeypatch.setattr(i18n, "_current", cat)
    yield cat
    monkeypatch.undo()
    i18n.set_language("en")


def has_latin_words(text: str) -> bool:
    """True if ``text`` holds an English word (file names and KOIKOI_HOME aside)."""
    import re
    text = re.sub(r"\S*\.(json|corrupt|backup)\S*", "", text)
    return re.search(r"[A-Za-z]{3,}", text) is not None


def a_session(store=None) -> MatchSession:
    return MatchSession(RULESETS["casual"], seed=3, months=3, store=store,
                        seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random")))


# ---------------------------------------------------------------- 1. save problems


class FailingStore:
    def __init__(self, mode):
        self.mode = mode

    def save_autosave(self, session):
        if self.mode == "raise":
            raise RuntimeError("disk on fire")
        # "history": the autosave is written (the finished state kept), only filing fails
        return self.mode == "history"

    def file_match(self, session, **kwargs):
        return None

    def clear_autosave(self, match_id):
        pass


class Reports:
    """The part of App that _session_changed uses: what it would toast."""

    def __init__(self):
        self.shown = []

    def _report(self, what, ok, message):
        if not ok:
            self.shown.append((what, message))


@pytest.mark.parametrize("mode, finish, english, japanese", [
    ("false", False, "The match could not be autosaved (see the log).",
     "対戦を自動保存できませんでした（ログを確認してください）。"),
    ("false", True, "The match could not be saved (see the log).",
     "対戦を保存できませんでした（ログを確認してください）。"),
    ("raise", False, "The match could not be saved (see the log).",
     "対戦を保存できませんでした（ログを確認してください）。"),
    ("history", True, "The finished match could not be saved to the history.",
     "終わった対戦を履歴に保存できませんでした。"),
])
def test_a_save_problem_is_shown_in_japanese(ja, mode, finish, english, japanese):
    from koikoi.ui.app import App
    s = a_session(FailingStore(mode))
    if finish:
        while not s.state.is_over:
            s.apply(s.legal()[0])
    else:
        s.apply(s.legal()[0])
    what, message = s.save_problem
    assert message == english                    # the session keeps the English msgid
    shown = Reports()
    App._session_changed(shown, s)
    assert shown.shown == [(what, japanese)]


def test_a_save_problem_in_english_reads_as_before():
    from koikoi.ui.app import App
    s = a_session(FailingStore("raise"))
    s.apply(s.legal()[0])
    shown = Reports()
    App._session_changed(shown, s)
    assert shown.shown == [("autosave", "The match could not be saved (see the log).")]


# ---------------------------------------------------------------- 2. reset settings


def test_every_setting_has_a_label_and_the_settings_rows_share_theirs():
    from koikoi.ui.scenes.settings import SettingsScene
    assert set(SETTING_LABELS) == set(DEFAULT_SETTINGS)
    rows = {name for name, _text in SettingsScene.TEXTS} | {"Language"}
    shared = {"anim_speed", "pace", "volume", "music_volume", "muted", "fullscreen", "card_scale",
              "name_style", "month_numbers", "hints", "language"}
    assert {SETTING_LABELS[k] for k in shared} <= rows


def test_reset_settings_are_named_by_their_japanese_labels(ja):
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text(json.dumps({"anim_speed": 9, "name_style": "klingon", "pace": "warp",
                                            "window_size": "huge"}))
    _s, warning = st.load_settings()
    assert "アニメーション速度、名前の表記、CPUの速さ、ウィンドウの大きさ" in warning, warning
    assert warning.startswith("一部の設定が正しくなかったため標準に戻しました：")
    assert not has_latin_words(warning.replace("CPU", "")), warning


def test_reset_settings_in_english_are_named_as_on_the_settings_screen():
    assert setting_names(["anim_speed", "name_style"]) == "Animation speed, Names"


# ---------------------------------------------------------------- 3. unreadable files


@pytest.mark.parametrize("content, kind", [
    (b"{not json", "not_json"),
    (b"\xff\xfe\x00garbage", "not_text"),
    (b"[" * 100 + b"]" * 100, "too_deep"),
    (b'{"a": NaN}', "not_json"),
])
def test_bad_files_have_a_kind_and_keep_their_english(tmp_path, content, kind):
    p = tmp_path / "x.json"
    p.write_bytes(content)
    with pytest.raises(BadFile) as err:
        read_json(p, max_bytes=1 << 20, root=tmp_path)
    assert err.value.kind == kind
    assert err.value.reason == REASONS[kind]
    old = {"not_json": "is not valid JSON (", "not_text": "is not UTF-8 text",
           "too_deep": "nests deeper than"}[kind]
    assert str(err.value).startswith(old)


def test_too_large_a_folder_and_a_link_out_have_their_kinds(tmp_path):
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 100 + "1]")
    with pytest.raises(BadFile) as err:
        read_json(big, max_bytes=50, root=tmp_path)
    assert err.value.kind == "too_large" and str(err.value).startswith("is too large (")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(BadFile) as err:
        read_json(tmp_path / "dir.json", max_bytes=50, root=tmp_path)
    assert err.value.kind == "not_a_file" and str(err.value) == "is not a regular file (a folder)"
    outside = tmp_path.parent / "outside.json"
    outside.write_text("{}")
    (tmp_path / "link.json").symlink_to(outside)
    with pytest.raises(BadFile) as err:
        read_json(tmp_path / "link.json", max_bytes=50, root=tmp_path)
    assert err.value.kind == "outside_link"


def test_a_bad_file_made_without_a_kind_is_unreadable():
    assert BadFile("odd").kind == "unreadable" and str(BadFile("odd")) == "odd"
    assert BadFile("odd", "no such kind").kind == "unreadable"
    with pytest.raises(BadFile) as err:
        parse_json("{")
    assert err.value.kind == "not_json"


def test_an_unreadable_autosave_says_why_in_japanese(ja, caplog):
    st = Storage()
    st.autosave_path.parent.mkdir(parents=True)
    st.autosave_path.write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="koikoi.storage"):
        session, warning = st.load_autosave_checked()
    assert session is None
    assert warning.startswith("保存された対戦を再開できませんでした（ファイルのデータが正しくありません）。"), warning
    assert "JSON" not in warning and "Expecting" not in warning
    assert "is not valid JSON" in caplog.text          # the English stays in the log


@pytest.mark.parametrize("data, kind", [
    ({"format": 99, "id": "0123456789abcdef", "seats": [], "log": {}}, "newer_version"),
    ([1, 2, 3], "not_a_match"),
    ({"hello": "world"}, "not_a_match"),
    ({"format": 0}, "not_a_match"),
    ({"format": 2, "id": "0123456789abcdef", "seats": "two", "log": {}}, "damaged_match"),
])
def test_a_saved_match_that_cannot_be_used_says_why(ja, data, kind):
    st = Storage()
    st.saved_dir.mkdir(parents=True)
    (st.saved_dir / "match-0123456789abcdef.json").write_text(json.dumps(data))
    matches, problems = st.list_saved()
    assert matches == [] and len(problems) == 1
    assert f"（{NEW[REASONS[kind]]}）" in problems[0], problems[0]
    assert not has_latin_words(problems[0]), problems[0]


def test_an_autosave_of_a_newer_version_says_so_in_english():
    st = Storage()
    st.autosave_path.parent.mkdir(parents=True)
    st.autosave_path.write_text(json.dumps({"format": 7, "id": "0123456789abcdef"}))
    _session, warning = st.load_autosave_checked()
    assert "(it was saved by a newer version of the game)" in warning, warning


def test_problem_text_of_any_other_error_is_a_translated_phrase(ja):
    assert problem_text(ValueError("replay failed: card 3 is not in the hand")) == \
        "中の対戦の記録が正しくありません"
    assert problem_text(BadFile("is too large (9 bytes)", "too_large")) == "ファイルが大きすぎます"


def test_load_finished_raises_a_bad_file_with_a_reason(ja):
    st = Storage()
    st.history_dir.mkdir(parents=True)
    p = st.history_dir / "match-20260101-000000-0123456789abcdef.json"
    p.write_text("nope")
    with pytest.raises(BadFile) as err:
        st.load_finished(p)
    assert str(err.value).startswith(p.name + " is not valid JSON")   # the log's English
    assert err.value.reason == "ファイルのデータが正しくありません"
    with pytest.raises(BadFile) as err:
        st.load_finished(st.history_dir / "match-gone.json")
    assert err.value.kind == "missing" and err.value.reason == "ファイルがもうありません"


def test_a_path_too_long_is_told_in_japanese(ja, tmp_path):
    folder = tmp_path / ("x" * 300)          # longer than a file name may be
    text = storage_mod.path_problem(folder)
    assert text.startswith("ゲームのファイルを置くフォルダーのパスが長すぎます（"), text
    assert "KOIKOI_HOME" in text and "too long" not in text


def test_a_path_too_long_reads_as_before_in_english(tmp_path):
    folder = tmp_path / ("x" * 300)
    n = len(str(folder))
    assert storage_mod.path_problem(folder) == (
        f"The folder for the game's files is too long a path ({n:,} characters; "
        f"set KOIKOI_HOME to a shorter folder): {str(folder)[:60]}…")


def test_a_path_with_a_nul_is_told_in_japanese(ja, tmp_path):
    text = storage_mod.path_problem(tmp_path / "a\0b")
    assert text.startswith("ゲームのファイルを置くフォルダーのパスが正しくありません："), text


def test_the_sentences_that_need_no_new_entry_are_in_the_catalog():
    real = i18n.catalog("ja")
    for msgid in ("The match could not be autosaved (see the log).",
                  "The finished match could not be saved to the history.",
                  "Animation speed", "Names", "CPU pace", ", "):
        assert (None, msgid) in real.messages, msgid
