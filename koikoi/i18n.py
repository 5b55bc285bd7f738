"""The one translation module: every text a player reads goes through it.

    from koikoi.i18n import _, ngettext
    _("Settings")                                   "Settings" / "設定"
    ngettext("{n} card", "{n} cards", n).format(n=n)
    pgettext("menu", "Back")                        a msgid that needs a context
    set_language("ja"); language()                  switch at run time
    available()                                     ["en", "ja"]: languages with a catalog
    available(complete_only=True)                   only those fully translated (and "en")
    resolve("system")                               the OS language, if it has a catalog
    format_number(1234.5, 1); format_date(d)        "1,234.5"; "December 1, 2026" / "2026年12月1日"

Catalogs: ``koikoi/locale/<lang>/LC_MESSAGES/koikoi.po`` is the source (kept in git,
maintained with Babel by ``tools/catalog.py``); ``koikoi.mo`` beside it is compiled from
it by Babel when the game is installed (the setuptools build step), by the standalone
build and by ``tools/catalog.py compile``, and read with the standard library's
``gettext.GNUTranslations`` (which also reads the Plural-Forms formula, never with eval).
A source checkout without a current ``.mo`` has its ``.po`` compiled in memory with Babel
at the first use (about 50 ms).

Each call looks the current catalog up, so a screen laid out again after
``set_language`` shows the new language. A fuzzy or empty entry is not used (English
shows instead). Every translation is checked against its English: it may use only the
``{fields}`` its English has, exactly as written there (a field that would crash or hang
``.format()`` is refused); one that fails is not used and said in one log line. A catalog
that cannot be read (not a file, a FIFO, garbage, too big) is logged and English is used:
a bad file never stops the game.

English is the source language and needs no catalog. Numbers and dates use Babel when it
is installed and a built-in rule for English and Japanese otherwise.

No pygame, no writes.
"""

from __future__ import annotations

import datetime as _dt
import gettext as _gettext
import hashlib
import io
import locale as _locale
import logging
import os
import re
import stat
import string
import struct
import sys
import threading
from decimal import Decimal
from pathlib import Path
from typing import Callable, Optional, Union

log = logging.getLogger(__name__)

DOMAIN = "koikoi"
SOURCE_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

# The name each language goes by in its own tongue (the Settings row shows these).
NATIVE_NAMES = {"en": "English", "ja": "日本語"}

_MAX_CATALOG_BYTES = 8 * 1024 * 1024       # a catalog bigger than this is refused, not read


# ====================================================================== reading a catalog file
class CatalogError(ValueError):
    """A catalog file that cannot be used (with why)."""


def read_file(path: Union[str, Path]) -> bytes:
    """The bytes of a catalog file: a regular file (a link to one is followed), at most
    _MAX_CATALOG_BYTES. A folder, FIFO, device or dangling link raises CatalogError
    without blocking: the file is opened non-blocking and checked before it is read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise CatalogError(f"{path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CatalogError(f"{path} is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(_MAX_CATALOG_BYTES + 1)
    except OSError as exc:
        raise CatalogError(f"{path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > _MAX_CATALOG_BYTES:
        raise CatalogError(f"{path} is larger than {_MAX_CATALOG_BYTES} bytes")
    return data


# ====================================================================== the .po, with Babel
def read_po(source: Union[bytes, str, Path]):
    """A .po (its bytes or its path) -> Babel's Catalog; CatalogError when it cannot be read
    or Babel is not installed (Babel keeps the catalogs; an installed game reads the .mo)."""
    try:
        from babel.messages.pofile import read_po as babel_read_po  # optional dependency: a build reads the .mo
    except ImportError:
        raise CatalogError("reading a .po needs Babel (pip install babel), or compile it first: "
                           "python tools/catalog.py compile") from None
    data = read_file(source) if not isinstance(source, bytes) else source
    try:
        return babel_read_po(io.BytesIO(data), abort_invalid=True)
    except Exception as exc:      # Babel's PoFileError, UnicodeError, a bad Language header...
        raise CatalogError(f"not a readable .po: {exc}") from None


def msgid(message) -> str:
    """A Babel message's singular English."""
    return message.id if isinstance(message.id, str) else message.id[0]


def is_translated(message) -> bool:
    forms = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(forms) and all(forms) and not message.fuzzy


def po_stats(po) -> dict:
    """Counts for coverage: total, translated, fuzzy, untranslated, percent."""
    entries = [m for m in po if m.id]
    done = sum(1 for m in entries if is_translated(m))
    fuzzy = sum(1 for m in entries if m.fuzzy)
    total = len(entries)
    return {"total": total, "translated": done, "fuzzy": fuzzy,
            "untranslated": total - done - fuzzy,
            "percent": 100.0 if total == 0 else 100.0 * done / total}


# The compiled catalog carries the .po's counts and a hash of the .po it was made from in
# one entry of its own context (read back with the public pgettext), so an installed game
# knows how complete a language is without its .po, and a .mo older than an edited .po is seen.
INFO_CONTEXT, INFO_ID = "koikoi-catalog", "counts"


def compile_po(data: bytes) -> bytes:
    """A .po's bytes -> the .mo's (Babel's writer; fuzzy and empty entries left out)."""
    po = read_po(data)                   # (says so when Babel is missing)
    from babel.messages.mofile import write_mo   # optional dependency: as read_po's (which says if it is missing)
    st = po_stats(po)
    po.add(INFO_ID, context=INFO_CONTEXT,
           string=(f"total={st['total']} translated={st['translated']} fuzzy={st['fuzzy']} "
                   f"source={hashlib.sha256(data).hexdigest()}"))
    out = io.BytesIO()
    write_mo(out, po)
    return out.getvalue()


def _info(translations: _gettext.GNUTranslations) -> tuple[Optional[dict], Optional[str]]:
    """(counts, source hash) from a compiled catalog's info entry; (None, None) without one."""
    text = translations.pgettext(INFO_CONTEXT, INFO_ID)
    parts = dict(p.split("=", 1) for p in text.split() if "=" in p)
    try:
        total, done, fuzzy = (int(parts[k]) for k in ("total", "translated", "fuzzy"))
    except (KeyError, ValueError):
        return None, None
    if not 0 <= done <= total or not 0 <= fuzzy <= total - done:
        return None, None
    return ({"total": total, "translated": done, "fuzzy": fuzzy,
             "untranslated": total - done - fuzzy,
             "percent": 100.0 if total == 0 else 100.0 * done / total}, parts.get("source"))


# ====================================================================== placeholders
_FORMATTER = string.Formatter()


def fields(text: str) -> Optional[list]:
    """The replacement fields of a str.format template, each (name, conversion, spec) with the
    name as written (``n.foo``, ``n[0]``, or "" for ``{}``); None when it is not a template."""
    try:
        return [(f, c, s) for _t, f, s, c in _FORMATTER.parse(text) if f is not None]
    except ValueError:
        return None


def placeholder_problem(english: tuple, translation: str) -> Optional[str]:
    """Why ``translation`` cannot stand for ``english`` (its one form, or singular and
    plural) under ``.format()``; None when it can. Every field must be one its English has,
    exactly (no attribute, index, conversion or spec added: ``{n.foo}``, ``{n[0]}``,
    ``{n!z}``, ``{n:Z}``, ``{n:>99999999}``); ``{}`` fields must be the English's, in order.
    A translation may leave a named field out: the Japanese names of the cards say only
    the Japanese where the English adds it in brackets ("{english} ({japanese})")."""
    forms = [fields(e) for e in english]
    if any(f is None for f in forms):
        return None                      # the English is not a template: shown as it is
    got = fields(translation)
    if got is None:
        return "braces that do not pair"
    known = {f for form in forms for f in form}
    extra = sorted({"{" + n + ("!" + c if c else "") + (":" + s if s else "") + "}"
                    for n, c, s in got if (n, c, s) not in known})
    if extra:
        return "a field its English lacks: " + ", ".join(extra)
    auto = [f for f in got if not f[0]]
    if auto and all(auto != [f for f in form if not f[0]] for form in forms):
        return "{} fields other than its English's"
    return None


# ====================================================================== catalogs
class Catalog:
    """One language's translations: (context, msgid) -> text, or a tuple of plural forms."""

    def __init__(self, lang: str, messages: dict, headers: Optional[dict] = None,
                 stats: Optional[dict] = None, source: str = "",
                 plural: Optional[Callable[[int], int]] = None, problem: Optional[str] = None):
        self.lang = lang
        self.headers = headers or {}
        self.stats = stats                 # the .po's counts (None when none could be read)
        self.source = source
        self.problem = problem             # why the catalog could not be read, if it could not
        self.plural = plural or _english_plural
        self._reported = 0
        self.messages = {}
        for key, value in messages.items():
            why = None if not isinstance(value, str) else placeholder_problem((key[1],), value)
            if why is None:
                self.messages[key] = value   # plural forms: checked at first use (below)
            else:
                self._drop(key[1], why)
        self._plurals_checked: dict = {}

    def _drop(self, english: str, why: str) -> None:
        """One log line for a translation not used (English shows instead)."""
        self._reported += 1
        if self._reported <= _MAX_REPORTED:
            log.warning("catalog %s: the translation of %r has %s; English is used for it",
                        self.source or self.lang, english[:60], why)
        elif self._reported == _MAX_REPORTED + 1:
            log.warning("catalog %s: more translations with broken fields (English is used)",
                        self.source or self.lang)

    def gettext(self, text: str, context: Optional[str] = None) -> str:
        found = self.messages.get((context, text))
        return found if isinstance(found, str) else text

    def ngettext(self, singular: str, plural: str, n: int, context: Optional[str] = None) -> str:
        key = (context, singular)
        forms = self.messages.get(key)
        if isinstance(forms, tuple) and forms:
            ok = self._plurals_checked.get(key)
            if ok is None:
                why = next(filter(None, (placeholder_problem((singular, plural), f) for f in forms)),
                           None)
                if why is not None:
                    self._drop(singular, why)
                ok = self._plurals_checked[key] = why is None
            try:
                idx = int(self.plural(int(n)))
            except (ArithmeticError, TypeError, ValueError, RecursionError):
                idx = 0                  # a formula that fails (n/0) picks the first form
            if ok and 0 <= idx < len(forms) and forms[idx]:
                return forms[idx]
        return singular if n == 1 else plural


_MAX_REPORTED = 20


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


def from_mo(lang: str, data: bytes, source: str = "") -> tuple["Catalog", Optional[str]]:
    """A compiled catalog read by the standard library -> (Catalog, hash of its .po)."""
    try:
        translations = _gettext.GNUTranslations(io.BytesIO(data))
    except (OSError, ValueError, LookupError, struct.error, RecursionError, MemoryError) as exc:
        raise CatalogError(f"{source or 'the .mo'} is not a readable compiled catalog: {exc}") \
            from None
    stats, digest = _info(translations)
    messages: dict = {}
    for key, text in translations._catalog.items():     # the one table GNUTranslations fills
        orig, index = key if isinstance(key, tuple) else (key, None)
        context, _sep, msg = orig.rpartition("\x04")
        key = (context if _sep else None, msg)
        if not msg or key == (INFO_CONTEXT, INFO_ID):
            continue                     # the header and the counts
        if index is None:
            messages[key] = text
        else:
            old = messages.get(key)
            forms = list(old) if isinstance(old, tuple) else []
            forms[len(forms):index + 1] = [""] * (index + 1 - len(forms))
            forms[index] = text
            messages[key] = tuple(forms)
    return Catalog(lang, messages, translations.info(), stats, source,
                   translations.plural), digest


_ENGLISH = Catalog(SOURCE_LANGUAGE, {}, stats={"total": 0, "translated": 0, "fuzzy": 0,
                                               "untranslated": 0, "percent": 100.0})
_lock = threading.Lock()
_catalogs: dict = {}                  # lang -> Catalog (the bad ones too: English, logged once)
_current = _ENGLISH


def normalize(code: object) -> Optional[str]:
    """"ja_JP.UTF-8" / "ja-JP" / "Japanese_Japan" -> "ja"; None for nothing usable."""
    if not isinstance(code, str):
        return None
    code = code.strip()
    if not code or code.upper() in ("C", "POSIX") or code.startswith("C."):
        return None
    head = re.split(r"[_.@\-]", code, maxsplit=1)[0].lower()
    head = {"japanese": "ja", "english": "en", "jpn": "ja", "eng": "en"}.get(head, head)
    return head if re.fullmatch(r"[a-z]{2,3}", head) else None


def po_path(lang: str, root: Optional[Path] = None) -> Path:
    return (root or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, root: Optional[Path] = None) -> Path:
    return (root or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def load_catalog(lang: str, root: Optional[Path] = None) -> Catalog:
    """The catalog of ``lang``; English (with the reason logged once, and in ``.problem``)
    when it cannot be read.

    The compiled ``koikoi.mo`` (built at install time, by ``tools/catalog.py compile`` and
    by the standalone build) is read with the standard library's GNUTranslations. Where
    there is none, or it was compiled from another ``.po`` than the one beside it (a source
    checkout), the ``.po`` is compiled in memory with Babel: nothing is written.
    """
    if lang == SOURCE_LANGUAGE:
        return _ENGLISH
    po, mo = po_path(lang, root), mo_path(lang, root)
    problems: list = []
    po_data = None
    if os.path.lexists(po):
        try:
            po_data = read_file(po)
        except CatalogError as exc:
            problems.append(str(exc))
    if os.path.lexists(mo):
        try:
            cat, digest = from_mo(lang, read_file(mo), str(mo))
            if po_data is None or digest == hashlib.sha256(po_data).hexdigest():
                if problems:
                    log.warning("%s; the compiled %s is used", problems[0], mo.name)
                return cat
            try:
                return from_mo(lang, compile_po(po_data), str(po))[0]
            except CatalogError as exc:
                log.warning("%s was compiled from another %s, which cannot be compiled now "
                            "(%s): the compiled one is used", mo, po.name, exc)
                return cat
        except CatalogError as exc:
            problems.append(str(exc))
    if po_data is not None:
        try:
            return from_mo(lang, compile_po(po_data), str(po))[0]
        except CatalogError as exc:
            problems.append(f"{po}: {exc}")
    why = "; ".join(problems) or f"no {lang} catalog in {po.parent}"
    log.error("the %s catalog cannot be read (%s); using English", lang, why)
    return Catalog(lang, {}, source="", stats=None, problem=why)


def catalog(lang: str) -> Catalog:
    """The cached catalog of ``lang`` (read once)."""
    with _lock:
        found = _catalogs.get(lang)
        if found is None:
            found = _catalogs[lang] = load_catalog(lang)
        return found


def reload() -> None:
    """Forget the cached catalogs (after an edit of a .po, or in tests)."""
    global _current
    with _lock:
        _catalogs.clear()
    lang = _current.lang
    _current = _ENGLISH
    set_language(lang)


def available(complete_only: bool = False, root: Optional[Path] = None) -> list:
    """English and the languages with a catalog on disk (only complete ones if asked)."""
    out = [SOURCE_LANGUAGE]
    base = root or LOCALE_DIR
    try:
        names = sorted(p.name for p in base.iterdir())
    except OSError:
        names = []
    for lang in names:
        if lang == SOURCE_LANGUAGE or normalize(lang) != lang:
            continue
        if not (os.path.lexists(po_path(lang, base)) or os.path.lexists(mo_path(lang, base))):
            continue               # (a catalog that is there but unreadable is offered: it falls back)
        if complete_only and not is_complete(lang, root):
            continue
        out.append(lang)
    return out


def completion(lang: str, root: Optional[Path] = None) -> Optional[dict]:
    """The .po's counts (total, translated, fuzzy, untranslated, percent); None if unreadable."""
    if lang == SOURCE_LANGUAGE:
        return dict(_ENGLISH.stats)
    cat = catalog(lang) if root is None else load_catalog(lang, root)
    if cat.stats is None:
        return None
    return dict(cat.stats)


def is_complete(lang: str, root: Optional[Path] = None) -> bool:
    """Every entry translated, none fuzzy (a language without a readable .po is not)."""
    st = completion(lang, root)
    return bool(st) and st["total"] > 0 and st["translated"] == st["total"]


def set_language(code: Optional[str]) -> str:
    """Switch every later ``_()`` to ``code`` ("ja", "en", "ja_JP.UTF-8"); returns the one used."""
    global _current
    lang = normalize(code) or SOURCE_LANGUAGE
    cat = catalog(lang)
    if lang != SOURCE_LANGUAGE and cat.stats is None and not cat.messages:
        lang, cat = SOURCE_LANGUAGE, _ENGLISH
    _current = cat
    return lang


def language() -> str:
    """The language ``_()`` translates to now."""
    return _current.lang


def system_languages(env: Optional[dict] = None) -> list:
    """The OS's preferred languages, best first ("ja", "en", ...), from env and locale."""
    env = os.environ if env is None else env
    found: list = []

    def add(code):
        lang = normalize(code)
        if lang and lang not in found:
            found.append(lang)

    for code in (env.get("LANGUAGE") or "").split(":"):
        add(code)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        add(env.get(var))
        if env.get(var):
            break                       # LC_ALL overrides the others, as POSIX says
    if env is os.environ:
        if sys.platform == "win32":
            try:
                import ctypes          # platform: Windows only
                lcid = ctypes.windll.kernel32.GetUserDefaultUILanguage()   # type: ignore[attr-defined]
                add(_locale.windows_locale.get(lcid))
            except (AttributeError, OSError, ValueError):
                pass
        try:
            add(_locale.getlocale(_locale.LC_MESSAGES if hasattr(_locale, "LC_MESSAGES")
                                  else _locale.LC_CTYPE)[0])
            add(_locale.getlocale()[0])
        except (ValueError, TypeError):
            pass
    return found


def resolve(setting: Optional[str], complete_only: bool = True, env: Optional[dict] = None) -> str:
    """A language setting ("system", "en", "ja") -> the language to play in.

    "system" takes the first OS language that has a catalog; an explicit code
    is used when it has one. Only complete catalogs count unless
    ``complete_only`` is False. Anything else is English.
    """
    choices = available(complete_only)
    if setting is None or str(setting).strip().lower() in ("", "system", "auto"):
        for lang in system_languages(env):
            if lang in choices:
                return lang
        return SOURCE_LANGUAGE
    lang = normalize(setting)
    return lang if lang in choices else SOURCE_LANGUAGE


# ====================================================================== the functions
def _(text: str) -> str:
    """``text`` in the current language (itself when there is no translation)."""
    return _current.gettext(text)


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    """The template for ``n`` in the current language's plural rule."""
    return _current.ngettext(singular, plural, n)


_n = ngettext


def pgettext(context: str, text: str) -> str:
    """``text`` where the same English needs different words in different places."""
    return _current.gettext(text, context)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n, context)


def N_(text: str) -> str:
    """Marks a table entry for extraction; it is translated where it is used (``_(entry)``)."""
    return text


# ====================================================================== numbers and dates
_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December")


def _babel():
    try:
        import babel.dates        # optional dependency: without Babel the plain formats below are used
        import babel.numbers      # optional dependency: as babel.dates
        return babel
    except ImportError:
        return None


def _babel_locale(lang: str) -> str:
    return {"en": "en_US", "ja": "ja_JP"}.get(lang, lang)


def format_number(x: Union[int, float], digits: int = 0, lang: Optional[str] = None,
                  use_babel: bool = True) -> str:
    """``x`` with ``digits`` decimals and the language's grouping: "1,234.5"."""
    lang = lang or language()
    digits = max(0, min(int(digits), 12))
    try:
        value = float(x)
    except (TypeError, ValueError):
        return str(x)
    if value != value or value in (float("inf"), float("-inf")):
        return str(x)
    value = round(value, digits) + 0.0        # half to even, as both paths below; never "-0"
    babel = _babel() if use_babel else None
    if babel is not None:
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        try:
            return babel.numbers.format_decimal(Decimal(repr(value)), format=pattern,
                                                locale=_babel_locale(lang))
        except (ValueError, LookupError, ArithmeticError, babel.core.UnknownLocaleError):
            pass
    return f"{value:,.{digits}f}"


def format_date(d: Union[_dt.date, _dt.datetime], lang: Optional[str] = None,
                use_babel: bool = True) -> str:
    """A calendar date in the language's long form: "December 1, 2026" / "2026年12月1日"."""
    lang = lang or language()
    if isinstance(d, _dt.datetime):
        d = d.date()
    babel = _babel() if use_babel else None
    if babel is not None:
        try:
            return babel.dates.format_date(d, format="long", locale=_babel_locale(lang))
        except (ValueError, LookupError, babel.core.UnknownLocaleError):
            pass
    if lang == "ja":
        return f"{d.year}年{d.month}月{d.day}日"
    return f"{_MONTHS_EN[d.month - 1]} {d.day}, {d.year}"
