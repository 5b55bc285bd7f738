"""koikoi.storage: folders, atomic writes, settings validation, autosave and history."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from koikoi import storage as S
from koikoi.engine import RULESETS
from koikoi.storage import DEFAULT_SETTINGS, Storage, atomic_write_text, validate_settings
from koikoi.session import MatchSession, SeatConfig


def _session(seed=5, months=1, on_change=None):
    seats = (SeatConfig("cpu", "CPU A", "random"), SeatConfig("cpu", "CPU B", "random"))
    return MatchSession(RULESETS["casual"], seed=seed, months=months, seats=seats, on_change=on_change)


def _play(session, n=None):
    """Play n actions (None: to the end) with the seats' own CPUs."""
    k = 0
    while not session.state.is_over and (n is None or k < n):
        session.apply(session.cpu_move_now())
        k += 1
    return session


# ---------------------------------------------------------------- folders


def test_koikoi_home_overrides_every_folder(koikoi_home):
    assert S.config_dir() == koikoi_home / "config"
    assert S.data_dir() == koikoi_home / "data"
    assert S.log_dir() == koikoi_home / "logs"
    st = Storage()
    assert st.settings_path.parent == koikoi_home / "config"
    assert st.autosave_path.parent == koikoi_home / "data"


def test_root_argument_wins(tmp_path):
    st = Storage(tmp_path / "x")
    assert st.settings_path == tmp_path / "x" / "config" / "settings.json"


# ---------------------------------------------------------------- atomic writes


def test_atomic_write_replaces_whole_file(tmp_path):
    p = tmp_path / "a" / "f.json"
    atomic_write_text(p, "one")
    atomic_write_text(p, "two")
    assert p.read_text() == "two"
    assert sorted(x.name for x in p.parent.iterdir()) == ["f.json"]


def test_atomic_write_failure_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    tmp_path = tmp_path / "w"
    p = tmp_path / "f.json"
    atomic_write_text(p, "old content")

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(S.os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write_text(p, "new content that never lands")
    assert p.read_text() == "old content"
    assert [x.name for x in tmp_path.iterdir()] == ["f.json"]


def test_atomic_write_failure_during_fsync(tmp_path, monkeypatch):
    tmp_path = tmp_path / "w"
    tmp_path.mkdir()
    p = tmp_path / "f.json"
    monkeypatch.setattr(S.os, "fsync", lambda fd: (_ for _ in ()).throw(OSError("io error")))
    with pytest.raises(OSError):
        atomic_write_text(p, "x" * 10000)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- settings


def test_settings_defaults_when_missing():
    settings, warning = Storage().load_settings()
    assert settings == DEFAULT_SETTINGS and warning is None


def test_settings_round_trip():
    st = Storage()
    s, _ = st.load_settings()
    s.update(anim_speed=0.0, volume=0.25, muted=True, month_numbers=False,
             last_new_match={"opponent": "hard", "rules": "classic", "months": 3})
    assert st.save_settings(s)
    back, warning = Storage().load_settings()
    assert warning is None
    assert back == s


def test_settings_bad_values_reset_and_unknown_dropped():
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text(json.dumps({
        "anim_speed": 9, "volume": "loud", "muted": 1, "month_numbers": False, "mystery": 3,
        "last_new_match": {"opponent": "god", "rules": "casual", "months": 6},
    }))
    s, warning = st.load_settings()
    assert s["anim_speed"] == DEFAULT_SETTINGS["anim_speed"]
    assert s["volume"] == DEFAULT_SETTINGS["volume"]
    assert s["muted"] is False and s["month_numbers"] is False
    assert "mystery" not in s
    assert s["last_new_match"] == DEFAULT_SETTINGS["last_new_match"]
    assert warning and "Animation speed" in warning


def test_settings_months_outside_the_preset_fall_back_to_its_default():
    clean, reset = validate_settings({"last_new_match": {"opponent": "easy", "rules": "nintendo", "months": 1}})
    assert clean["last_new_match"]["months"] == RULESETS["nintendo"].months
    assert reset == []


@pytest.mark.parametrize("junk", [b"{not json", b"[1, 2]", b"\xff\xfe\x00garbage", b""])
def test_corrupt_settings_moved_aside(junk):
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_bytes(junk)
    s, warning = st.load_settings()
    assert s == DEFAULT_SETTINGS
    assert warning and "could not be read" in warning
    assert not st.settings_path.exists()
    aside = list(st.settings_path.parent.glob("settings.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == junk
    # the next start is clean: no message twice
    assert Storage().load_settings()[1] is None


# ---------------------------------------------------------------- autosave


def test_autosave_round_trip_is_identical():
    st = Storage()
    session = _play(_session(seed=11, months=3), 25)
    assert st.save_autosave(session)
    back = st.load_autosave()
    assert back is not None and st.last_warning is None
    assert back.state == session.state
    assert back.seats == session.seats


def test_autosave_corrupt_json_refused_and_moved_aside():
    st = Storage()
    st.autosave_path.parent.mkdir(parents=True)
    st.autosave_path.write_text("{oops")
    assert st.load_autosave() is None
    assert st.last_warning and "could not be restored" in st.last_warning
    assert not st.autosave_path.exists()
    assert len(list(st.autosave_path.parent.glob("autosave.json.corrupt-*"))) == 1


def test_autosave_that_fails_replay_is_refused():
    st = Storage()
    session = _play(_session(seed=3, months=3), 12)
    data = json.loads(session.to_json())
    events = data["log"]["events"]
    played = next(e for e in events if e["type"] == "played")
    played["card"] = "12-P3" if played["card"] != "12-P3" else "01-B"     # tamper with a move
    st.autosave_path.parent.mkdir(parents=True)
    st.autosave_path.write_text(json.dumps(data))
    assert st.load_autosave() is None
    assert "could not be restored" in st.last_warning
    assert list(st.autosave_path.parent.glob("autosave.json.corrupt-*"))


def test_autosave_of_a_finished_match_goes_to_history():
    st = Storage()
    session = _play(_session(seed=8, months=1))
    st.save_autosave(session)
    assert st.load_autosave() is None and st.last_warning is None
    assert not st.autosave_path.exists()
    assert len(st.list_finished()) == 1


def test_unbuilt_cpu_level_loads_as_random(monkeypatch):
    st = Storage()
    session = _play(_session(seed=4, months=1), 3)
    data = json.loads(session.to_json())
    data["seats"][1]["level"] = "hard"
    st.autosave_path.parent.mkdir(parents=True)
    st.autosave_path.write_text(json.dumps(data))
    monkeypatch.setattr(S, "level_available", lambda level: level in ("random", None))
    back = st.load_autosave()
    assert back is not None
    assert back.seats[1].level == "random" and back.seats[1].name == "CPU B"


def test_clear_autosave_is_idempotent_and_only_clears_its_own_match():
    st = Storage()
    st.clear_autosave("0" * 16)
    session = _session()
    st.save_autosave(session)
    st.clear_autosave("f" * 16)               # another match's id: the autosave stays
    assert st.has_autosave()
    assert Storage().load_autosave().id == session.id
    fresh = Storage()                         # a new process that has not read the file yet
    fresh.clear_autosave("f" * 16)
    assert fresh.has_autosave()
    fresh.clear_autosave(session.id)
    fresh.clear_autosave(session.id)
    assert not fresh.has_autosave()


# ---------------------------------------------------------------- history


def test_finished_matches_listed_newest_first_and_loadable():
    st = Storage()
    paths = []
    for seed in (1, 2, 3):
        s = _play(_session(seed=seed, months=1))
        paths.append(st.save_finished(s))
    assert len(set(paths)) == 3 and all(p.exists() for p in paths)
    listed = st.list_finished()
    assert len(listed) == 3
    assert [m.path.name for m in listed] == sorted((m.path.name for m in listed), reverse=True)
    m = listed[0]
    assert m.players == ("CPU A", "CPU B") and m.rules == "casual" and m.rounds == 1
    back = st.load_finished(m.path)
    assert back.state.is_over and back.state.scores == m.scores


def test_unreadable_history_files_are_skipped():
    st = Storage()
    st.save_finished(_play(_session(seed=1, months=1)))
    (st.history_dir / "match-99999999-000000.json").write_text("nope")
    assert len(st.list_finished()) == 1
    with pytest.raises(ValueError):
        st.load_finished(st.history_dir / "match-99999999-000000.json")


def test_no_pickle_anywhere():
    src = Path(S.__file__).read_text()
    assert "pickle" not in src.replace("never pickle", "")
    assert os.path.basename(S.__file__) == "storage.py"


# ---------------------------------------------------------------- new settings keys, backups, house rules


def test_new_settings_keys_round_trip():
    st = Storage()
    s, _ = st.load_settings()
    assert s["card_scale"] == 1.0 and s["name_style"] == "both"
    s.update(card_scale=0.85, name_style="english", music_volume=0.3,
             last_new_match={"opponent": "easy", "rules": "yakuza", "months": 3,
                             "house": {"weather": True, "oya_ken": 6}})
    assert st.save_settings(s)
    back, warning = Storage().load_settings()
    assert warning is None and back == s


@pytest.mark.parametrize("key,bad", [("card_scale", 2.0), ("card_scale", "big"), ("card_scale", True),
                                     ("name_style", "klingon"), ("name_style", 3),
                                     ("language", "tlh"), ("language", "JA"), ("language", None),
                                     ("language", ["ja"])])
def test_wrong_new_values_reset_key_by_key(key, bad):
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text(json.dumps({key: bad, "volume": 0.3}))
    s, warning = st.load_settings()
    assert s[key] == DEFAULT_SETTINGS[key]
    assert s["volume"] == 0.3                      # the good value next to it is kept
    assert warning and S.setting_name(key) in warning
    # the file as it was is kept beside it
    copies = list(st.settings_path.parent.glob("settings.json.backup-*"))
    assert len(copies) == 1 and json.loads(copies[0].read_text())[key] == bad


def test_settings_from_a_newer_version_keep_unknown_keys_in_a_backup():
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    data = {"volume": 0.4, "card_scale": 1.15, "hologram_mode": {"on": True}, "version": 9}
    st.settings_path.write_text(json.dumps(data))
    s, warning = st.load_settings()
    assert s["volume"] == 0.4 and s["card_scale"] == 1.15
    assert "hologram_mode" not in s and "version" not in s
    assert warning and "newer version" in warning
    [copy] = st.settings_path.parent.glob("settings.json.backup-*")
    assert json.loads(copy.read_text()) == data
    # saving writes only what this version knows; the backup is untouched
    assert st.save_settings(s)
    assert "hologram_mode" not in json.loads(st.settings_path.read_text())
    assert json.loads(copy.read_text()) == data
    assert Storage().load_settings()[1] is None


def test_unreadable_settings_file_is_moved_aside(monkeypatch):
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text("{}")
    real = os.open

    def boom(path, *a, **k):
        if str(path).endswith("settings.json"):
            raise PermissionError(13, "denied")
        return real(path, *a, **k)
    monkeypatch.setattr(os, "open", boom)
    s, warning = st.load_settings()
    assert s == DEFAULT_SETTINGS and warning and "could not be read" in warning
    assert list(st.settings_path.parent.glob("settings.json.corrupt-*"))


def test_house_rules_in_the_settings_are_validated_knob_by_knob():
    house = {"weather": True, "oya_ken": -1, "nonsense": 3, "months": 5, "lucky_points": 12,
             "name": "evil", "koikoi_multiplier": "galaxy", "target_points": 50, "months_offered": [1]}
    assert S.valid_house_rules("casual", house) == {"weather": True, "lucky_points": 12, "target_points": 50}
    assert S.valid_house_rules("casual", {"months": None}) == {}      # refused: a match that never ends
    assert S.valid_house_rules("casual", {"months": None, "target_points": 50}) == {
        "months": None, "target_points": 50}
    assert S.valid_house_rules("nope", {"weather": True}) == {}
    assert S.valid_house_rules("casual", "weather") == {}
    clean, reset = validate_settings({"last_new_match": {"opponent": "easy", "rules": "casual", "months": 6,
                                                         "house": {"weather": "yes"}}})
    assert clean["last_new_match"] == {"opponent": "easy", "rules": "casual", "months": 6}
    assert reset == []


def test_corrupt_autosave_moved_aside_with_a_timestamp():
    st = Storage()
    st.autosave_path.parent.mkdir(parents=True)
    st.autosave_path.write_text('{"format": 1, "seats": [], "log": 7}')
    session, warning = st.load_autosave_checked()
    assert session is None and warning and "could not be restored" in warning
    assert not st.autosave_path.exists()
    [aside] = st.autosave_path.parent.glob("autosave.json.corrupt-*")
    assert aside.name.split("corrupt-")[1][:8].isdigit()


def test_a_conceded_match_is_filed_and_listed():
    st = Storage()
    s = _play(_session(seed=4, months=3), 10)
    st.save_autosave(s)
    path = st.save_conceded(s, 0)
    assert path is not None and not st.has_autosave()
    [m] = st.list_finished()
    assert m.conceded == 0 and m.winner == 1 and m.rounds == len(s.state.ledger)
    back = st.load_finished(m.path)
    assert not back.state.is_over and back.state.events == s.state.events
    # a finished match is listed without a concession
    st.save_finished(_play(_session(seed=5, months=1)))
    assert sorted(str(m.conceded) for m in st.list_finished()) == ["0", "None"]


# ---------------------------------------------------------------- hints, pace, friend names (issue #15)


def test_hints_pace_and_friend_names_default_and_round_trip():
    st = Storage()
    s, _ = st.load_settings()
    assert s["hints"] == "auto" and s["pace"] == "normal" and s["friend_names"] == ["Player 1", "Player 2"]
    s.update(hints="off", pace="relaxed", friend_names=["Ann", "Bō"])
    assert st.save_settings(s)
    back, warning = Storage().load_settings()
    assert warning is None and back == s


@pytest.mark.parametrize("key,bad", [("hints", "sometimes"), ("hints", 1), ("hints", ["on"]), ("hints", None),
                                     ("pace", "ludicrous"), ("pace", 0.5), ("pace", {"a": 1}),
                                     ("friend_names", "Ann"), ("friend_names", ["Ann"]),
                                     ("friend_names", ["a", "b", "c"]), ("friend_names", None),
                                     ("friend_names", {"0": "Ann"})])
def test_bad_hints_pace_and_friend_names_fall_back(key, bad):
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text(json.dumps({key: bad, "volume": 0.3}))
    s, warning = st.load_settings()
    assert s[key] == DEFAULT_SETTINGS[key]
    assert s["volume"] == 0.3
    assert warning
    clean, reset = validate_settings({key: bad})
    assert clean[key] == DEFAULT_SETTINGS[key] and reset == [key]


def test_each_friend_name_is_cleaned_or_falls_back_on_its_own():
    assert S.HINT_MODES == ("auto", "on", "off") and S.PACE_NAMES == ("relaxed", "normal", "quick")
    for mode in S.HINT_MODES:
        assert validate_settings({"hints": mode}) == ({**validate_settings({})[0], "hints": mode}, [])
    for pace in S.PACE_NAMES:
        assert validate_settings({"pace": pace})[0]["pace"] == pace
    clean, reset = validate_settings({"friend_names": ["Ann", "Bo"]})
    assert clean["friend_names"] == ["Ann", "Bo"] and not reset
    clean, reset = validate_settings({"friend_names": ["  Ann  ", "x" * 41]})   # 40 characters at most
    assert clean["friend_names"] == ["Ann", "Player 2"] and reset == ["friend_names"]
    clean, _ = validate_settings({"friend_names": ["a\x07b", 7]})
    assert clean["friend_names"] == ["Player 1", "Player 2"]
    clean, _ = validate_settings({"friend_names": ["x" * 40, "   "]})
    assert clean["friend_names"] == ["x" * 40, "Player 2"]
    assert S.valid_friend_names(["x" * 10 ** 6, "Bo"]) == ["Player 1", "Bo"]


def test_the_online_fields_are_remembered_and_checked(tmp_path):
    from koikoi.storage import Storage, valid_online
    st = Storage(tmp_path)
    settings, _ = st.load_settings()
    settings["online"] = {"name": "Haru", "address": "192.168.1.20:8765", "code": "KOI-4821", "lan": True,
                          "where": "server", "server": "wss://koikoi.example:443"}
    assert st.save_settings(settings)
    again, problem = st.load_settings()
    assert again["online"] == settings["online"] and problem is None
    # field by field: a bad one falls back to its default, the rest is kept
    assert valid_online({"name": "", "address": "x" * 500, "code": "KOI\n1", "lan": "yes", "where": "moon",
                         "server": 7}) == \
        {"name": None, "address": "", "code": "", "lan": False, "where": "here", "server": ""}
    assert valid_online({"name": "Aki", "lan": True})["name"] == "Aki"
    assert valid_online([]) is None
    settings["online"] = "nonsense"
    assert st.save_settings(settings)
    again, _ = st.load_settings()
    assert again["online"] == {"name": None, "address": "", "code": "", "lan": False, "where": "here", "server": ""}


# ---------------------------------------------------------------- the language setting


def test_the_language_setting_is_system_by_default_and_round_trips():
    assert DEFAULT_SETTINGS["language"] == "system" and S.LANGUAGES == ("system", "en", "ja")
    st = Storage()
    assert st.saved_language() == "system"              # no file yet
    for code in S.LANGUAGES:
        s, _w = st.load_settings()
        s["language"] = code
        assert st.save_settings(s)
        back, warning = Storage().load_settings()
        assert warning is None and back["language"] == code
        assert Storage().saved_language() == code


def test_saved_language_reads_without_touching_a_bad_file():
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text("{not json")
    assert st.saved_language() == "system"
    assert st.settings_path.read_text() == "{not json"     # load_settings moves it aside, this does not
    st.settings_path.write_text(json.dumps({"language": "xx", "volume": 0.3}))
    assert st.saved_language() == "system"
    assert list(st.settings_path.parent.glob("settings.json.*")) == []


def test_storage_warnings_follow_the_language(tmp_path, monkeypatch):
    from koikoi import i18n
    d = tmp_path / "ja" / "LC_MESSAGES"
    d.mkdir(parents=True)
    (d / "koikoi.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
        'msgid "Some settings were invalid and were reset: {names}. The old file was kept as {file}."\n'
        'msgstr "一部の設定を元に戻しました：{names}（{file}）"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n._catalogs.clear()
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text(json.dumps({"pace": "warp"}))
    try:
        assert i18n.set_language("ja") == "ja"
        _s, warning = st.load_settings()
    finally:
        i18n.set_language("en")
        i18n._catalogs.clear()
    assert warning.startswith("一部の設定を元に戻しました：CPU pace（settings.json.backup-"), warning
