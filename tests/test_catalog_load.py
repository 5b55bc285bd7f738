"""Catalogs are checked when they are loaded (issue 26, item 8): a translation whose
{fields} differ from its English's is not used (English, one log line), a catalog that
cannot be read of any kind (folder, FIFO, link, garbage) leaves the game in English with a
message, and --lang still accepts the language; the compiled .mo is read by the standard
library, a stale one gives way to its .po."""

from __future__ import annotations

import logging
import os
import sys

import pytest

from koikoi import i18n

HEADER = ('msgid ""\nmsgstr ""\n"Language: ja\\n"\n"Plural-Forms: nplurals=1; plural=0;\\n"\n'
          '"Content-Type: text/plain; charset=UTF-8\\n"\n\n')

# translations that crash or hang .format(n=...) of their English (names the English has)
BROKEN = {
    "{n} cards left": "{n.foo}枚",            # attribute
    "{n} cards taken": "{n:Z}枚",             # unknown format spec
    "{n} cards seen": "{n!z}枚",              # unknown conversion
    "{n} cards kept": "{n[0]}枚",             # index
    "{n} cards shown": "{n:>99999999}枚",     # a spec the English lacks: 100 MB per call
    "{n} cards passed": "{m}枚",              # a name the English lacks
    "{n} cards drawn": "{n枚",                # braces that do not pair
    "{} months": "{}{}か月",                  # one {} more than the English
}
GOOD = {"{n} cards": "{n}枚", "Pine": "松", "{english} ({japanese})": "{japanese}",
        "{pct:.0f}% done": "{pct:.0f}%完了"}


def po_text(entries: dict, plurals: dict = None) -> str:
    out = [HEADER]
    for k, v in entries.items():
        out.append(f'msgid "{k}"\nmsgstr "{v}"\n\n')
    for (one, many), v in (plurals or {}).items():
        out.append(f'msgid "{one}"\nmsgid_plural "{many}"\nmsgstr[0] "{v}"\n\n')
    return "".join(out)


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n._catalogs.clear()
    (tmp_path / "ja" / "LC_MESSAGES").mkdir(parents=True)
    yield tmp_path
    i18n._catalogs.clear()
    i18n.set_language("en")


def test_translations_with_fields_their_english_lacks_fall_back_to_english(root, caplog):
    i18n.po_path("ja", root).write_text(po_text({**BROKEN, **GOOD}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="koikoi.i18n"):
        assert i18n.set_language("ja") == "ja"
        for english in BROKEN:
            assert i18n._(english) == english
            assert i18n._(english).format(3, n=3).startswith("3")
    for english in BROKEN:                         # one log line for each, naming it
        assert sum(repr(english) in r.getMessage() for r in caplog.records) == 1, english
    assert i18n._("{n} cards").format(n=3) == "3枚" and i18n._("Pine") == "松"
    assert i18n._("{english} ({japanese})").format(english="Pine", japanese="松") == "松"
    assert i18n._("{pct:.0f}% done").format(pct=41.6) == "42%完了"


def test_a_plural_translation_with_a_broken_field_falls_back_to_english(root, caplog):
    i18n.po_path("ja", root).write_text(po_text({}, {
        ("{n} point", "{n} points"): "{n:>99999999}点", ("{n} round", "{n} rounds"): "{n}局",
        ("One card", "{n} cards"): "{n}枚"}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="koikoi.i18n"):
        i18n.set_language("ja")
        for _ in range(3):
            assert i18n.ngettext("{n} point", "{n} points", 5).format(n=5) == "5 points"
    assert sum("'{n} point'" in r.getMessage() for r in caplog.records) == 1
    assert i18n.ngettext("{n} round", "{n} rounds", 2).format(n=2) == "2局"
    assert i18n.ngettext("One card", "{n} cards", 1).format(n=1) == "1枚"


def _fifo(path):
    os.mkfifo(path)


def _folder(path):
    path.mkdir()


def _dangling_link(path):
    path.symlink_to(path.parent / "nowhere.po")


def _link_to_folder(path):
    path.symlink_to(path.parent)


def _link_to_device(path):
    path.symlink_to("/dev/zero")


def _garbage(path):
    path.write_bytes(b"\xff\xfe\x00garbage\x80" * 100)


def _too_big(path):
    path.write_bytes(b"#" * (i18n._MAX_CATALOG_BYTES + 10))


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and links as POSIX makes them")
@pytest.mark.parametrize("make", [_fifo, _folder, _dangling_link, _link_to_folder, _link_to_device,
                                  _garbage, _too_big])
@pytest.mark.parametrize("which", ["po", "mo"])
def test_an_unreadable_catalog_plays_english_and_lang_still_starts(root, make, which, caplog, capsys):
    from koikoi.__main__ import apply_language, parse_args
    make(i18n.po_path("ja", root) if which == "po" else i18n.mo_path("ja", root))
    assert parse_args(["--lang", "ja"]).lang == "ja"          # not "unknown language"
    with caplog.at_level(logging.ERROR, logger="koikoi.i18n"):
        assert apply_language("ja") == "en"
    assert i18n.language() == "en" and i18n._("Pine") == "Pine"
    assert "playing in English" in capsys.readouterr().err
    assert "the ja catalog cannot be read" in caplog.text
    assert i18n.catalog("ja").problem
    assert i18n.available() == ["en", "ja"] and i18n.available(complete_only=True) == ["en"]


def test_a_broken_mo_gives_way_to_its_po(root, caplog):
    i18n.po_path("ja", root).write_text(po_text(GOOD), encoding="utf-8")
    i18n.mo_path("ja", root).write_bytes(b"\xde\x12\x04\x95" + b"\xff" * 40)
    assert i18n.set_language("ja") == "ja" and i18n._("Pine") == "松"


def compiled(entries: dict) -> bytes:
    return i18n.compile_po(po_text(entries).encode("utf-8"))


def test_the_compiled_mo_is_read_and_a_stale_one_gives_way_to_the_po(root):
    po, mo = i18n.po_path("ja", root), i18n.mo_path("ja", root)
    po.write_text(po_text({"Pine": "松", "Plum": "梅"}), encoding="utf-8")
    mo.write_bytes(i18n.compile_po(po.read_bytes()))
    cat = i18n.load_catalog("ja", root)
    assert cat.source == str(mo) and cat.gettext("Plum") == "梅"
    assert cat.stats["total"] == 2 and cat.stats["translated"] == 2
    po.write_text(po_text({"Pine": "松", "Plum": "紅梅"}), encoding="utf-8")    # edited since
    cat = i18n.load_catalog("ja", root)
    assert cat.source == str(po) and cat.gettext("Plum") == "紅梅"


def test_an_installed_copy_reads_its_mo_without_babel(root, monkeypatch):
    mo = i18n.mo_path("ja", root)
    mo.write_bytes(compiled({"Pine": "松", "{n} cards taken": "{n:Z}枚"}))
    for name in ("babel", "babel.messages", "babel.messages.pofile", "babel.messages.mofile"):
        monkeypatch.setitem(sys.modules, name, None)
    cat = i18n.load_catalog("ja", root)
    assert cat.gettext("Pine") == "松" and cat.gettext("{n} cards taken") == "{n} cards taken"
    assert cat.stats["total"] == 2 and cat.problem is None
    mo.unlink()                              # a .po alone needs Babel: English, and why
    i18n.po_path("ja", root).write_text(po_text(GOOD), encoding="utf-8")
    cat = i18n.load_catalog("ja", root)
    assert cat.gettext("Pine") == "Pine" and "Babel" in cat.problem


@pytest.mark.parametrize("rule", ["nplurals=1; plural=__import__('os').system('x');",
                                  "nplurals=2; plural=n/0;", "nplurals=2; plural=" + "(" * 300 + "n"
                                  + ")" * 300 + ";"])
def test_a_hostile_plural_formula_never_runs_or_crashes(root, rule):
    text = po_text({"Pine": "松"}, {("{n} card", "{n} cards"): "{n}枚"})
    text = text.replace("nplurals=1; plural=0;", rule)
    i18n.po_path("ja", root).write_text(text, encoding="utf-8")
    i18n.set_language("ja")
    for n in (0, 1, 2):
        assert i18n.ngettext("{n} card", "{n} cards", n).format(n=n) in (f"{n}枚", f"{n} card",
                                                                        f"{n} cards")


def test_the_shipped_catalog_passes_the_check_at_load(caplog):
    i18n._catalogs.clear()
    with caplog.at_level(logging.WARNING, logger="koikoi.i18n"):
        cat = i18n.catalog("ja")
    assert cat.problem is None and caplog.text == ""
    assert len(cat.messages) == cat.stats["translated"] == cat.stats["total"]


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs as POSIX makes them")
def test_an_unreadable_po_beside_its_compiled_mo_leaves_the_mo_in_use(root, caplog):
    mo = i18n.mo_path("ja", root)
    mo.write_bytes(compiled({"Pine": "松"}))
    os.mkfifo(i18n.po_path("ja", root))
    with caplog.at_level(logging.WARNING, logger="koikoi.i18n"):
        assert i18n.set_language("ja") == "ja" and i18n._("Pine") == "松"
    assert "is not a regular file; the compiled koikoi.mo is used" in caplog.text
