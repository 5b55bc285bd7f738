"""koikoi.i18n: catalogs compiled by Babel and read by gettext, plurals, switching at run time, the OS language,
numbers and dates, the markers every module imports, and tools/catalog.py (coverage,
compile, the font's coverage of the Japanese catalog) and the --lang fallback."""

from __future__ import annotations

import datetime
import gettext as stdlib_gettext
import importlib.util
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi import i18n

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("koikoi_catalog_tool", ROOT / "tools" / "catalog.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


catalog_tool = _tool()

HEADER_JA = '''msgid ""
msgstr ""
"Language: ja\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"
"Content-Type: text/plain; charset=utf-8\\n"
'''


def write_po(root: Path, lang: str, body: str, header: str = HEADER_JA) -> Path:
    path = i18n.po_path(lang, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + "\n" + body, encoding="utf-8")
    return path


@pytest.fixture
def locale_root(tmp_path, monkeypatch):
    """A throwaway koikoi/locale: i18n reads catalogs from it; the language is restored."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n._catalogs.clear()
    yield tmp_path
    i18n._catalogs.clear()
    i18n.set_language("en")


@pytest.fixture
def english_after():
    yield
    i18n.set_language("en")


# ---------------------------------------------------------------- reading catalogs
def test_fuzzy_and_empty_entries_are_not_used(locale_root, english_after):
    write_po(locale_root, "ja", '''
#, fuzzy
msgid "Pine"
msgstr "松"

msgid "Plum"
msgstr ""

msgid "Cherry"
msgstr "桜"

#, fuzzy, python-brace-format
msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n}枚"
''')
    assert i18n.set_language("ja") == "ja"
    assert i18n._("Pine") == "Pine" and i18n._("Plum") == "Plum" and i18n._("Cherry") == "桜"
    assert i18n.ngettext("{n} card", "{n} cards", 3) == "{n} cards"
    st = i18n.completion("ja")
    assert (st["total"], st["translated"], st["fuzzy"], st["untranslated"]) == (4, 1, 2, 1)
    assert not i18n.is_complete("ja")
    assert i18n.available(complete_only=True) == ["en"]
    assert i18n.available() == ["en", "ja"]


@pytest.mark.parametrize("content", [
    b'msgid "a"\nmsgstr "b"\nbogus "x"\n',          # unknown keyword
    b"\xff\xfe not utf-8 \x80\x81",
    b'msgid "a"\n',                                  # no msgstr
    b'"stray"\n',                                    # a string outside an entry
])
def test_a_corrupt_catalog_is_logged_and_english_is_used(locale_root, english_after, caplog, content):
    path = i18n.po_path("ja", locale_root)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="koikoi.i18n"):
        assert i18n.set_language("ja") == "en"
        assert i18n._("Pine") == "Pine"
    assert "cannot be read" in caplog.text
    assert i18n.completion("ja") is None and "ja" not in i18n.available(complete_only=True)


def test_a_translation_with_an_unknown_placeholder_is_not_used(locale_root, english_after, caplog):
    write_po(locale_root, "ja", '''
msgid "{name} wins"
msgstr "{nom}の勝ち"

msgid "{name} loses"
msgstr "{name}の負け"

msgid "{name} draws"
msgstr "{name の引き分け"
''')
    with caplog.at_level(logging.WARNING, logger="koikoi.i18n"):
        i18n.set_language("ja")
    assert i18n._("{name} wins").format(name="A") == "A wins"       # not a KeyError
    assert i18n._("{name} loses").format(name="A") == "Aの負け"
    assert i18n._("{name} draws").format(name="A") == "A draws"
    assert "has a field its English lacks: {nom}" in caplog.text
    assert "has braces that do not pair" in caplog.text
    bad = {i18n.msgid(m) for m, _why in
           catalog_tool.placeholder_problems(i18n.read_po(i18n.po_path("ja", locale_root)))}
    assert bad == {"{name} wins", "{name} draws"}


# ---------------------------------------------------------------- plurals
def test_ngettext_in_english_and_japanese(english_after):
    i18n.set_language("en")
    assert i18n.ngettext("{n} mistake", "{n} mistakes", 1) == "{n} mistake"
    assert i18n.ngettext("{n} mistake", "{n} mistakes", 0) == "{n} mistakes"
    assert i18n._n is i18n.ngettext
    i18n.set_language("ja")
    assert i18n.language() == "ja"
    for n in (0, 1, 2, 21):                      # ja: one form for every n
        assert i18n.ngettext("{n} mistake", "{n} mistakes", n).format(n=n) == f"悪手{n}回"


# ---------------------------------------------------------------- switching, the markers
def test_switching_at_run_time_changes_every_marker(english_after):
    from koikoi import narration
    from koikoi.ui import table
    from koikoi.ui.scenes import review_panel
    assert narration._ is i18n._ and table._ is i18n._ and narration.N_ is i18n.N_
    assert narration._n is i18n.ngettext and review_panel._n is i18n.ngettext
    i18n.set_language("en")
    assert table._("Menu") == "Menu"              # English: the text itself
    assert narration.card_name("01-B") == "Crane (Matsu ni Tsuru)"
    assert narration.card_name("08-B", "english") == "Moon"
    i18n.set_language("ja")
    assert table._("Menu") == "メニュー"
    assert narration.card_name("08-B", "english") == "芒に月"
    assert narration.card_name("11-B", "english") == "柳に小野道風"
    assert narration.cards_text(["01-B", "03-B"], "english") == "松に鶴と桜に幕"
    assert review_panel.summary_text(type("RR", (), {"mistakes": 2, "inaccuracies": 1,
                                                     "points_lost": 3.25})()) == \
        "悪手2回、疑問手1回、約3.2点の損"
    i18n.set_language("en")
    assert table._("Menu") == "Menu" and narration.card_name("08-B", "english") == "Moon"


def test_set_language_accepts_locale_names_and_falls_back(english_after):
    assert i18n.set_language("ja_JP.UTF-8") == "ja"
    assert i18n.set_language("xx") == "en" and i18n._("Menu") == "Menu"
    assert i18n.set_language(None) == "en"
    assert i18n.set_language("C") == "en"


# ---------------------------------------------------------------- the OS language
@pytest.mark.parametrize("env,expect", [
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LC_ALL": "ja_JP.eucJP", "LANG": "en_US.UTF-8"}, "ja"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:ja", "LANG": "en_US"}, "ja"),          # fr has no catalog: the next one
    ({"LC_MESSAGES": "ja_JP", "LANG": "C"}, "ja"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "Japanese_Japan.932"}, "ja"),                  # what Windows' locale says
    ({}, "en"),
])
def test_resolve_system_from_the_environment(env, expect):
    assert i18n.resolve("system", complete_only=False, env=env) == expect


def test_resolve_offers_only_complete_catalogs_by_default():
    # the Japanese catalog is not complete yet: "system" on a Japanese desktop plays English
    if i18n.is_complete("ja"):
        pytest.skip("the Japanese catalog is complete")
    assert i18n.resolve("system", env={"LANG": "ja_JP.UTF-8"}) == "en"
    assert i18n.resolve("ja") == "en"
    assert i18n.resolve("ja", complete_only=False) == "ja"
    assert i18n.resolve("klingon", complete_only=False) == "en"
    assert i18n.available(complete_only=True) == ["en"]


def test_system_languages_reads_the_os_locale():
    langs = i18n.system_languages()              # the real OS: no crash, codes only
    assert all(isinstance(x, str) and 2 <= len(x) <= 3 for x in langs)


# ---------------------------------------------------------------- numbers and dates
@pytest.mark.parametrize("use_babel", [True, False])
def test_format_number_and_date(use_babel):
    if use_babel:
        pytest.importorskip("babel")
    d = datetime.date(2026, 12, 1)
    assert i18n.format_date(d, "ja", use_babel=use_babel) == "2026年12月1日"
    assert i18n.format_date(datetime.datetime(2026, 12, 1, 14, 5), "en", use_babel=use_babel) == \
        "December 1, 2026"
    for lang in ("en", "ja"):
        assert i18n.format_number(1234567.891, 2, lang, use_babel=use_babel) == "1,234,567.89"
        assert i18n.format_number(-1234.5, 0, lang, use_babel=use_babel) == "-1,234"   # half to even
        assert i18n.format_number(-0.04, 1, lang, use_babel=use_babel) == "0.0"
        assert i18n.format_number(7, 0, lang, use_babel=use_babel) == "7"
    assert i18n.format_number(float("nan"), 1, use_babel=use_babel) == "nan"


def test_format_follows_the_current_language(english_after):
    d = datetime.date(2027, 1, 9)
    i18n.set_language("ja")
    assert i18n.format_date(d) == "2027年1月9日"
    i18n.set_language("en")
    assert i18n.format_date(d) == "January 9, 2027"


# ---------------------------------------------------------------- tools/catalog.py
def test_compile_writes_what_stdlib_gettext_reads(locale_root, english_after):
    write_po(locale_root, "ja", '''
msgid "Pine"
msgstr "松"

msgctxt "menu"
msgid "Back"
msgstr "戻る"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n}枚"

#, fuzzy
msgid "Plum"
msgstr "梅"
''')
    assert catalog_tool.compile_all(locale_root) == {"ja": 3}
    mo = i18n.mo_path("ja", locale_root)
    with open(mo, "rb") as f:
        std = stdlib_gettext.GNUTranslations(f)
    assert std.gettext("Pine") == "松" and std.ngettext("{n} card", "{n} cards", 5) == "{n}枚"
    assert std.pgettext("menu", "Back") == "戻る" and std.gettext("Plum") == "Plum"
    assert std.info()["plural-forms"].startswith("nplurals=1")
    # the game reads the .mo (it was compiled from this very .po), counts included
    cat = i18n.load_catalog("ja", locale_root)
    assert cat.source == str(mo) and cat.stats["total"] == 4 and cat.stats["fuzzy"] == 1
    i18n.set_language("ja")
    assert i18n.pgettext("menu", "Back") == "戻る" and i18n.ngettext("{n} card", "{n} cards", 1) == "{n}枚"


def test_coverage_tool_prints_the_numbers():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "catalog.py"), "coverage", "--limit", "3"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    st = i18n.po_stats(i18n.read_po(i18n.po_path("ja")))
    assert (f"ja: total {st['total']}, translated {st['translated']}, fuzzy {st['fuzzy']}, "
            f"untranslated {st['untranslated']}, {st['percent']:.1f}% translated") in out.stdout
    assert st["translated"] > 150


def test_check_fails_on_strings_missing_untranslated_or_fuzzy(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(catalog_tool, "LOCALE", tmp_path)
    write_po(tmp_path, "ja", 'msgid "Menu"\nmsgstr "メニュー"\n\nmsgid "Back"\nmsgstr "戻る"\n')
    monkeypatch.setattr(catalog_tool, "code_messages", lambda: {(None, "Menu"), (None, "Back")})
    assert catalog_tool.cmd_check(["ja"]) == 0
    assert "ja: complete (2 strings)" in capsys.readouterr().out
    monkeypatch.setattr(catalog_tool, "code_messages", lambda: {(None, "Menu"), (None, "Back"), (None, "New")})
    assert catalog_tool.cmd_check(["ja"]) == 1
    assert "1 strings of the code are not in the catalog" in capsys.readouterr().out
    write_po(tmp_path, "ja", '#, fuzzy\nmsgid "Menu"\nmsgstr "メニュー"\n\nmsgid "Back"\nmsgstr ""\n')
    monkeypatch.setattr(catalog_tool, "code_messages", lambda: {(None, "Menu"), (None, "Back")})
    assert catalog_tool.cmd_check(["ja"]) == 1
    out = capsys.readouterr().out
    assert "1 untranslated, e.g. 'Back'" in out and "1 fuzzy, e.g. 'Menu'" in out


def test_the_japanese_catalog_names_only_placeholders_of_its_english():
    po = i18n.read_po(i18n.po_path("ja"))
    assert catalog_tool.placeholder_problems(po) == []


# ---------------------------------------------------------------- the font
def test_the_font_has_every_character_of_the_japanese_catalog():
    missing = catalog_tool.missing_glyphs("ja")
    assert not missing, "the UI font lacks " + "".join(missing) + \
        ": add them to KANJI in tools/make_font.py and run it (python tools/catalog.py glyphs)"


def test_the_glyph_check_finds_a_missing_character(tmp_path, monkeypatch):
    write_po(tmp_path, "ja", 'msgid "Gloom"\nmsgstr "鬱"\n\nmsgid "Pine"\nmsgstr "松"\n')
    monkeypatch.setattr(catalog_tool, "LOCALE", tmp_path)
    assert list(catalog_tool.missing_glyphs("ja")) == ["鬱"]
    # without fontTools the tool asks pygame-ce's freetype, and gets the same answer
    monkeypatch.setitem(sys.modules, "fontTools", None)
    monkeypatch.setitem(sys.modules, "fontTools.ttLib", None)
    assert list(catalog_tool.missing_glyphs("ja")) == ["鬱"]


# ---------------------------------------------------------------- --lang
def test_lang_flag_falls_back_to_english_while_the_catalog_is_incomplete(locale_root, capsys, english_after):
    from koikoi.__main__ import apply_language, parse_args
    # the real catalog is complete now: an incomplete one of the same language stands in
    write_po(locale_root, "ja", 'msgid "Menu"\nmsgstr "メニュー"\n\nmsgid "Back"\nmsgstr ""\n')
    assert parse_args(["--lang", "ja"]).lang == "ja"
    assert not i18n.is_complete("ja")
    pct = int(i18n.completion("ja")["percent"])
    assert pct == 50
    assert apply_language("ja") == "en" and i18n.language() == "en"
    err = capsys.readouterr().err
    assert err.strip() == (f"koikoi: the Japanese translation is not complete yet ({pct}% translated); "
                           "playing in English")
    assert apply_language("en") == "en" and capsys.readouterr().err == ""
    assert apply_language(None) == "en" and capsys.readouterr().err == ""   # no --lang: nothing said


def test_the_real_japanese_catalog_is_complete_so_lang_ja_plays_in_japanese(capsys, english_after):
    from koikoi.__main__ import apply_language
    assert i18n.is_complete("ja")
    assert apply_language("ja") == "ja" and i18n.language() == "ja"
    assert capsys.readouterr().err == ""


def test_lang_flag_uses_a_complete_catalog(locale_root, english_after, capsys):
    from koikoi.__main__ import apply_language
    write_po(locale_root, "ja", 'msgid "Menu"\nmsgstr "メニュー"\n')
    assert apply_language("ja") == "ja" and i18n._("Menu") == "メニュー"
    assert capsys.readouterr().err == ""
    assert i18n.available(complete_only=True) == ["en", "ja"]


def test_lang_flag_refuses_an_unknown_language(capsys):
    from koikoi.__main__ import parse_args
    with pytest.raises(SystemExit) as exc:
        parse_args(["--lang", "tlh"])
    assert exc.value.code == 2
    assert "unknown language 'tlh' (have: en, ja)" in capsys.readouterr().err
