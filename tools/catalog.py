#!/usr/bin/env python3
"""Maintain the game's translation catalogs (koikoi/locale), with Babel.

    python tools/catalog.py extract            every marked string -> koikoi/locale/koikoi.pot
    python tools/catalog.py init LANG          start koikoi/locale/LANG/LC_MESSAGES/koikoi.po
    python tools/catalog.py update             merge the .pot into every language's .po
    python tools/catalog.py compile            .po -> .mo beside it (fuzzy/empty left out)
    python tools/catalog.py coverage [--lang ja] [--limit 20]
                                               per language: total, translated, fuzzy,
                                               untranslated, %, the first untranslated ones
    python tools/catalog.py check [--lang ja]  exit 1 unless every string in the code is in the
                                               catalog and translated, nothing is fuzzy and every
                                               translation keeps the {placeholders} it may use
    python tools/catalog.py glyphs [--lang ja] characters of the translations the UI font lacks

Keywords extracted: _  N_  gettext  ngettext:1,2  _n:1,2  pgettext:1c,2  npgettext:1c,2,3
(babel.cfg says which files). Every command needs Babel (``pip install babel``; it
comes with ``pip install .[test]``). An installed game does not: its .mo files are
compiled when it is built (``BuildPy`` below is the setuptools build step that does it).

Adding a language: ``python tools/catalog.py extract && python tools/catalog.py init fr``,
translate koikoi/locale/fr/LC_MESSAGES/koikoi.po, then ``coverage`` / ``check``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import os
import re
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from koikoi import __version__, i18n  # noqa: E402

LOCALE = ROOT / "koikoi" / "locale"
POT = LOCALE / "koikoi.pot"
CFG = ROOT / "babel.cfg"
FONT_DIR = ROOT / "assets" / "fonts"
KEYWORDS = ["_", "N_", "gettext", "ngettext:1,2", "_n:1,2", "pgettext:1c,2", "npgettext:1c,2,3"]


class ToolError(Exception):
    """A problem to report in one line (exit status 2)."""


# ---------------------------------------------------------------- Babel
def _pybabel(*args: str) -> None:
    """pybabel ARGS, run in the repository root (so locations read koikoi/...)."""
    try:
        from babel.messages.frontend import CommandLineInterface
    except ImportError:
        raise ToolError("Babel is not installed: pip install babel") from None
    # Babel warns for each plural entry of the .pot that a one-form language (ja) cannot hold
    quiet = logging.getLogger("babel")
    level, here = quiet.level, os.getcwd()
    quiet.setLevel(logging.ERROR)
    os.chdir(ROOT)
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said):
            CommandLineInterface().run(["pybabel", "-q", *args])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise ToolError(f"pybabel {args[0]} failed ({exc.code})") from None
    finally:
        os.chdir(here)
        quiet.setLevel(level)
        for line in said.getvalue().splitlines():
            if not _BABEL_NOISE.match(line):
                print(line)


# what pybabel prints (on stdout) for each plural entry of the .pot in a one-form language
_BABEL_NOISE = re.compile(r"WARNING: (msg has more translations than num_plurals of catalog"
                          r"|Problem on line \d+: '')$")


def extract(out: Path = POT) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    kw: list = []
    for k in KEYWORDS:
        kw += ["-k", k]
    _pybabel("extract", "-F", str(CFG), *kw, "--add-comments=Translators:", "--sort-by-file",
             "--project=koikoi", f"--version={__version__}", "--copyright-holder=the Koi-Koi authors",
             "-o", str(out.resolve()), ".")
    return out


def init(lang: str) -> Path:
    if i18n.normalize(lang) != lang:
        raise ToolError(f"{lang!r} is not a language code such as ja or fr")
    po = i18n.po_path(lang, LOCALE)
    if po.exists():
        raise ToolError(f"{po} exists already: use update")
    if not POT.is_file():
        extract()
    _pybabel("init", "-i", str(POT), "-d", str(LOCALE), "-D", i18n.DOMAIN, "-l", lang)
    # pybabel marks a new catalog's header fuzzy; the header is ours, not a guess
    text = po.read_text(encoding="utf-8").replace("#, fuzzy\nmsgid \"\"", "msgid \"\"", 1)
    po.write_text(text, encoding="utf-8")
    return po


def languages() -> list:
    return [lang for lang in i18n.available() if lang != i18n.SOURCE_LANGUAGE]


def update() -> list:
    if not POT.is_file():
        extract()
    done = []
    for lang in languages():
        _pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", i18n.DOMAIN, "-l", lang,
                 "--ignore-obsolete")
        done.append(lang)
    return done


def code_messages() -> Optional[set]:
    """{(context, msgid)} of every marked string in the code now (None without Babel)."""
    try:
        import babel.messages  # noqa: F401
    except ImportError:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        pot = extract(Path(tmp) / "koikoi.pot")
        po = i18n.read_po(pot)
    return {(m.context, i18n.msgid(m)) for m in po if m.id}


# ---------------------------------------------------------------- compile
def compile_all(root: Path = LOCALE, out_root: Optional[Path] = None) -> dict:
    """Every language's .po -> its .mo (in ``out_root``, default beside the .po), by Babel:
    {lang: translations written}."""
    done = {}
    for src in sorted(root.glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po")):
        lang = src.parent.parent.name
        try:
            data = i18n.compile_po(i18n.read_file(src))
        except i18n.CatalogError as exc:
            raise ToolError(f"{src}: {exc}") from None
        out = i18n.mo_path(lang, out_root or root)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, out)
        done[lang] = len(i18n.from_mo(lang, data)[0].messages)
    return done


def placeholder_problems(po) -> list:
    """(message, why) for each translation that would break its English's ``.format()``."""
    out = []
    for m in po:
        if not m.id or not i18n.is_translated(m):
            continue
        english = (m.id,) if isinstance(m.id, str) else tuple(m.id)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for form in forms:
            why = i18n.placeholder_problem(english, form)
            if why:
                out.append((m, why))
                break
    return out


def report(lang: str, code: Optional[set] = None) -> dict:
    src = i18n.po_path(lang, LOCALE)
    po = i18n.read_po(src)
    st = i18n.po_stats(po)
    entries = [m for m in po if m.id]
    have = {(m.context, i18n.msgid(m)) for m in entries}
    st["missing"] = sorted(code - have, key=lambda k: k[1]) if code is not None else None
    st["obsolete"] = sorted(have - code, key=lambda k: k[1]) if code is not None else None
    st["untranslated_list"] = [m for m in entries if not i18n.is_translated(m) and not m.fuzzy]
    st["fuzzy_list"] = [m for m in entries if m.fuzzy]
    st["placeholders"] = placeholder_problems(po)
    return st


def _short(text: str, width: int = 70) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[:width - 1] + "…"


def cmd_coverage(langs: list, limit: int) -> int:
    code = code_messages()
    if code is None:
        print("(Babel is not installed: strings in the code are not compared)")
    else:
        print(f"strings marked in the code: {len(code)}")
    for lang in langs:
        st = report(lang, code)
        line = (f"{lang}: total {st['total']}, translated {st['translated']}, fuzzy {st['fuzzy']}, "
                f"untranslated {st['untranslated']}, {st['percent']:.1f}% translated")
        if code is not None:
            line += f"; missing from the catalog {len(st['missing'])}"
        print(line)
        for m in st["untranslated_list"][:limit]:
            print(f"  untranslated: {_short(i18n.msgid(m))}")
        if len(st["untranslated_list"]) > limit:
            print(f"  ... and {len(st['untranslated_list']) - limit} more untranslated")
        for m in st["fuzzy_list"][:limit]:
            print(f"  fuzzy: {_short(i18n.msgid(m))}")
        for ctx, msgid in (st["missing"] or [])[:limit]:
            print(f"  missing: {_short(msgid)}")
    return 0


def cmd_check(langs: list) -> int:
    code = code_messages()
    if code is None:
        raise ToolError("check needs Babel to read the code: pip install babel")
    bad = 0
    for lang in langs:
        st = report(lang, code)
        problems = []
        if st["missing"]:
            problems.append(f"{len(st['missing'])} strings of the code are not in the catalog "
                            f"(run update), e.g. {_short(st['missing'][0][1], 50)!r}")
        if st["untranslated"]:
            problems.append(f"{st['untranslated']} untranslated, "
                            f"e.g. {_short(i18n.msgid(st['untranslated_list'][0]), 50)!r}")
        if st["fuzzy"]:
            problems.append(f"{st['fuzzy']} fuzzy, e.g. {_short(i18n.msgid(st['fuzzy_list'][0]), 50)!r}")
        for m, why in st["placeholders"]:
            problems.append(f"line {m.lineno}: {why} in the translation of {_short(i18n.msgid(m), 50)!r}")
        if problems:
            bad += 1
            print(f"{lang}: NOT complete ({st['percent']:.1f}% translated)")
            for p in problems:
                print(f"  {p}")
        else:
            print(f"{lang}: complete ({st['total']} strings)")
    return 1 if bad else 0


# ---------------------------------------------------------------- glyphs
def font_paths() -> list:
    return sorted(FONT_DIR.glob("KoiKoiSans-*.otf"))


def font_coverage(path: Path):
    """A test ``has(ch) -> bool`` for one font file (fontTools if installed, else pygame-ce)."""
    try:
        from fontTools.ttLib import TTFont
        cmap = TTFont(str(path), lazy=True).getBestCmap()
        return lambda ch: ord(ch) in cmap
    except ImportError:
        pass
    # pygame.font's metrics() measure the .notdef box for a missing character (the fonts
    # keep its outline), so ask pygame.freetype, whose get_metrics() says None
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype
    pygame.freetype.init()
    font = pygame.freetype.Font(str(path), 20)
    return lambda ch: font.get_metrics(ch)[0] is not None


def catalog_text(lang: str) -> dict:
    """{character: [msgid, ...]} over the translated strings of ``lang``."""
    po = i18n.read_po(i18n.po_path(lang, LOCALE))
    chars: dict = {}
    for m in po:
        if not m.id or not i18n.is_translated(m):
            continue
        for s in (m.string if isinstance(m.string, tuple) else (m.string,)):
            for ch in s:
                if unicodedata.category(ch)[0] in ("C", "Z") and ch != "\u3000":
                    continue          # line breaks and spaces: nothing to draw
                chars.setdefault(ch, []).append(i18n.msgid(m))
    return chars


def missing_glyphs(lang: str = "ja", fonts: Optional[list] = None) -> dict:
    """{character: [msgid, ...]} of what some UI font cannot draw."""
    fonts = fonts if fonts is not None else font_paths()
    if not fonts:
        raise ToolError(f"no KoiKoiSans-*.otf in {FONT_DIR}")
    tests = [font_coverage(p) for p in fonts]
    return {ch: ids for ch, ids in sorted(catalog_text(lang).items()) if not all(t(ch) for t in tests)}


def cmd_glyphs(langs: list) -> int:
    bad = 0
    for lang in langs:
        missing = missing_glyphs(lang)
        used = len(catalog_text(lang))
        if not missing:
            print(f"{lang}: the font has all {used} characters the translations use")
            continue
        bad += 1
        print(f"{lang}: the font lacks {len(missing)} of {used} characters: "
              + "".join(missing))
        for ch, ids in missing.items():
            print(f"  {ch} U+{ord(ch):04X} in {_short(ids[0], 50)!r}")
        print("  add them to KANJI in tools/make_font.py and run python tools/make_font.py")
    return 1 if bad else 0


# ---------------------------------------------------------------- main
def main(argv: Optional[list] = None) -> int:
    p = argparse.ArgumentParser(prog="tools/catalog.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("extract")
    pi = sub.add_parser("init")
    pi.add_argument("lang")
    sub.add_parser("update")
    sub.add_parser("compile")
    for name in ("coverage", "check", "glyphs"):
        sp = sub.add_parser(name)
        sp.add_argument("--lang", action="append", help="one language (default: all)")
        if name == "coverage":
            sp.add_argument("--limit", type=int, default=20, help="untranslated strings listed")
    args = p.parse_args(argv)
    try:
        if args.cmd == "extract":
            print(f"wrote {extract().relative_to(ROOT)}")
            return 0
        if args.cmd == "init":
            print(f"wrote {init(args.lang).relative_to(ROOT)}")
            return 0
        if args.cmd == "update":
            print("updated: " + (", ".join(update()) or "no languages"))
            return 0
        if args.cmd == "compile":
            for lang, n in compile_all().items():
                print(f"{lang}: {n} translations -> {i18n.mo_path(lang, LOCALE).relative_to(ROOT)}")
            return 0
        langs = args.lang or languages()
        for lang in langs:
            if not i18n.po_path(lang, LOCALE).is_file():
                raise ToolError(f"no catalog for {lang!r} in {LOCALE} (have: {', '.join(languages())})")
        if args.cmd == "coverage":
            return cmd_coverage(langs, max(0, args.limit))
        if args.cmd == "check":
            return cmd_check(langs)
        return cmd_glyphs(langs)
    except (ToolError, i18n.CatalogError, OSError) as exc:
        print(f"catalog: {exc}", file=sys.stderr)
        return 2


# ---------------------------------------------------------------- the install-time build step
try:
    from setuptools.command.build_py import build_py as _build_py
except ImportError:             # running the tool needs no setuptools
    _build_py = object


class BuildPy(_build_py):
    """setuptools' build_py that also compiles each .po into the package being built
    (pyproject.toml names it as the build_py command: ``pip install .`` gets the .mo)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):    # an editable install reads the .po
            self.compiled = compile_all(LOCALE, Path(self.build_lib) / "koikoi" / "locale")
            for lang, n in self.compiled.items():
                print(f"compiled the {lang} catalog: {n} translations")

    def get_outputs(self, include_bytecode: bool = True) -> list:
        out = super().get_outputs(include_bytecode)
        if not getattr(self, "editable_mode", False):
            base = Path(self.build_lib) / "koikoi" / "locale"
            out += [str(i18n.mo_path(p.parent.parent.name, base))
                    for p in LOCALE.glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po")]
        return out


if __name__ == "__main__":
    sys.exit(main())
