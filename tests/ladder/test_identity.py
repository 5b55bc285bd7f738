import os
import stat

import pytest

from koikoi.ladder import identity


def test_key_made_once_kept_private(tmp_path):
    key = identity.load_or_create_key(tmp_path)
    assert identity.valid_key(key)
    path = tmp_path / identity.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert identity.load_or_create_key(tmp_path) == key
    assert identity.new_key() != key


def test_default_folder_is_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    key = identity.load_or_create_key()
    assert (tmp_path / "data" / identity.KEY_FILE).read_text().strip() == key


def test_loose_permissions_tightened(tmp_path):
    key = identity.load_or_create_key(tmp_path)
    path = tmp_path / identity.KEY_FILE
    os.chmod(path, 0o644)
    assert identity.load_or_create_key(tmp_path) == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_unreadable_key_set_aside_not_deleted(tmp_path):
    path = tmp_path / identity.KEY_FILE
    path.write_bytes(b"\xff\xfe garbage")
    key = identity.load_or_create_key(tmp_path)
    assert identity.valid_key(key)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(identity.KEY_FILE + ".unreadable-")]
    assert len(aside) == 1 and aside[0].read_bytes() == b"\xff\xfe garbage"


def test_use_key_keeps_the_old_one(tmp_path):
    old = identity.load_or_create_key(tmp_path)
    other = identity.new_key()
    aside = identity.use_key("  " + other + "\n", tmp_path)
    assert identity.read_key(tmp_path) == other
    assert aside.read_text().strip() == old
    with pytest.raises(ValueError):
        identity.use_key("kk1_short", tmp_path)
    assert identity.read_key(tmp_path) == other


def test_hash_and_public_id():
    key = identity.new_key()
    h = identity.key_hash(key)
    assert len(h) == 64 and key not in h
    assert identity.player_id(h) == h[:16]
    with pytest.raises(ValueError):
        identity.key_hash("forged")


@pytest.mark.parametrize("name", ["Hanako", "花子", "  Taro  Yamada ", "Ｚ"])
def test_good_names(name):
    kept, refusal = identity.check_name(name)
    assert refusal is None and kept == " ".join(name.split())


@pytest.mark.parametrize("name, why", [
    ("", "empty"), ("   ", "empty"), ("x" * 21, "too long"), ("花" * 21, "too long"),
    ("a\x00b", "invisible"), ("bell\x07", "invisible"), ("tab\there", "invisible"),
    ("zero\u200bwidth", "invisible"), ("joiner\u200d", "invisible"), ("\ufeffbom", "invisible"),
    ("rtl\u202eevil", "invisible"), ("line\u2028sep", "invisible"), ("private\ue000", "invisible"),
    (None, "text"), (42, "text"), ("y" * 10000, "too long"),
])
def test_bad_names_refused(name, why):
    kept, refusal = identity.check_name(name)
    assert kept is None and why in refusal


def test_combining_marks_count_once():
    # "が" written as か + combining voiced mark: one character after NFC
    kept, refusal = identity.check_name("か\u3099" * 20)
    assert refusal is None and kept == "が" * 20


def test_refusals_are_translated():
    from koikoi import i18n
    ja = i18n.catalog("ja")
    for bad in ("", "x" * 99, "a\u200b", 3):
        _, refusal = identity.check_name(bad)
        assert ja.gettext(refusal) != refusal
    assert ja.gettext("That is not a player key.") != "That is not a player key."
