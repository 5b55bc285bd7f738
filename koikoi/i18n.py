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

Catalogs live in ``koikoi/locale/<lang>/LC_MESSAGES/koikoi.po`` (the source,
kept in the repository and installed with the package) and, once
``tools/catalog.py compile`` has run, ``koikoi.mo`` next to it. The ``.mo`` is
used when it is at least as new as the ``.po``; otherwise the ``.po`` is read
directly, so a source checkout and an installed copy always have the catalog.

Each call looks the current catalog up, so a screen laid out again after
``set_language`` shows the new language. A fuzzy or empty entry is not used
(English shows instead); a catalog that cannot be read is logged once and
English is used: a bad file never stops the game.

English is the source language and needs no catalog. Plural forms come from
the catalog's ``Plural-Forms`` header, read by a small expression parser
(never ``eval``). Numbers and dates use Babel when it is installed and a
built-in rule for English and Japanese otherwise; Babel is a tool for
maintaining the catalogs, not something the game needs.

No pygame, no writes.
"""

from __future__ import annotations

import datetime as _dt
import locale as _locale
import logging
import os
import re
import string
import struct
import sys
import threading
from pathlib import Path
from typing import Callable, NamedTuple, Optional, Union

log = logging.getLogger(__name__)

DOMAIN = "koikoi"
SOURCE_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

# The name each language goes by in its own tongue (the Settings row shows these).
NATIVE_NAMES = {"en": "English", "ja": "日本語"}

_MAX_CATALOG_BYTES = 8 * 1024 * 1024       # a catalog bigger than this is refused, not read


# ====================================================================== plural forms
class PluralError(ValueError):
    """A Plural-Forms formula this module cannot read."""


_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(\|\||&&|==|!=|<=|>=|[-+*/%!<>?:()]))")
_BINARY = [("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%")]
_MAX_FORMULA = 400


def _tokens(text: str) -> list:
    if len(text) > _MAX_FORMULA:
        raise PluralError("plural formula too long")
    out, pos, text = [], 0, text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise PluralError(f"unexpected {text[pos:pos + 10]!r} in plural formula")
        num, var, op = m.groups()
        out.append(("num", int(num)) if num is not None else ("n", None) if var else ("op", op))
        pos = m.end()
    return out


def parse_plural(formula: str) -> Callable[[int], int]:
    """A C expression in ``n`` (gettext's plural formula) -> a function; no eval."""
    toks = _tokens(formula)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else ("end", None)

    def take(op=None):
        nonlocal pos
        tok = peek()
        if op is not None and tok != ("op", op):
            raise PluralError(f"expected {op!r} in plural formula")
        pos += 1
        return tok

    def ternary(depth=0):
        if depth > 40:
            raise PluralError("plural formula nested too deeply")
        cond = binary(0, depth)
        if peek() == ("op", "?"):
            take("?")
            yes = ternary(depth + 1)
            take(":")
            no = ternary(depth + 1)
            return lambda n, c=cond, a=yes, b=no: a(n) if c(n) else b(n)
        return cond

    def binary(level, depth):
        if level == len(_BINARY):
            return unary(depth)
        left = binary(level + 1, depth)
        while peek()[0] == "op" and peek()[1] in _BINARY[level]:
            op = take()[1]
            right = binary(level + 1, depth)
            left = _combine(op, left, right)
        return left

    def unary(depth):
        tok = peek()
        if tok == ("op", "!"):
            take()
            inner = unary(depth + 1)
            return lambda n, f=inner: int(not f(n))
        if tok == ("op", "-"):
            take()
            inner = unary(depth + 1)
            return lambda n, f=inner: -f(n)
        if tok == ("op", "("):
            take()
            inner = ternary(depth + 1)
            take(")")
            return inner
        if tok[0] == "num":
            take()
            return lambda n, v=tok[1]: v
        if tok[0] == "n":
            take()
            return lambda n: n
        raise PluralError("incomplete plural formula")

    fn = ternary()
    if pos != len(toks):
        raise PluralError("trailing text in plural formula")
    return fn


def _combine(op: str, a, b):
    if op == "||":
        return lambda n: int(bool(a(n)) or bool(b(n)))
    if op == "&&":
        return lambda n: int(bool(a(n)) and bool(b(n)))
    if op == "==":
        return lambda n: int(a(n) == b(n))
    if op == "!=":
        return lambda n: int(a(n) != b(n))
    if op == "<":
        return lambda n: int(a(n) < b(n))
    if op == ">":
        return lambda n: int(a(n) > b(n))
    if op == "<=":
        return lambda n: int(a(n) <= b(n))
    if op == ">=":
        return lambda n: int(a(n) >= b(n))
    if op == "+":
        return lambda n: a(n) + b(n)
    if op == "-":
        return lambda n: a(n) - b(n)
    if op == "*":
        return lambda n: a(n) * b(n)

    def div(n, rem=(op == "%")):
        x, y = a(n), b(n)
        if y == 0:
            return 0                     # a formula that divides by zero picks form 0
        q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)    # C truncates
        return x - q * y if rem else q
    return div


def _plural_header(value: str) -> tuple[int, Callable[[int], int]]:
    """``nplurals=2; plural=(n != 1);`` -> (2, function)."""
    m = re.fullmatch(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*", value)
    if not m:
        raise PluralError(f"bad Plural-Forms header {value[:60]!r}")
    count = int(m.group(1))
    if not 1 <= count <= 6:
        raise PluralError(f"nplurals={count} is out of range")
    return count, parse_plural(m.group(2))


def _english_plural(n: int) -> int:
    return 0 if n == 1 else 1


# ====================================================================== .po reader
class PoError(ValueError):
    """A .po file that is not a well-formed catalog (with the line it failed on)."""


class Entry(NamedTuple):
    msgid: str
    msgid_plural: Optional[str]
    msgstr: tuple              # one string, or one per plural form
    context: Optional[str]
    fuzzy: bool
    lineno: int

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr) and not self.fuzzy


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v", "'": "'", "?": "?"}
_OCTAL = re.compile(r"[0-7]{1,3}")
_HEX = re.compile(r"[0-9a-fA-F]{1,2}")


def _unquote(text: str, lineno: int) -> str:
    """The body of one ``"..."`` line, escapes decoded; strict about everything else."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"line {lineno}: expected a quoted string")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == '"':
            raise PoError(f"line {lineno}: unescaped quote inside a string")
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(body):
            raise PoError(f"line {lineno}: a string ends in a backslash")
        e = body[i + 1]
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 2
        elif e in "01234567":
            m = _OCTAL.match(body, i + 1)
            out.append(chr(int(m.group(), 8)))
            i = m.end()
        elif e == "x" and _HEX.match(body, i + 2):
            m = _HEX.match(body, i + 2)
            out.append(chr(int(m.group(), 16)))
            i = m.end()
        else:
            raise PoError(f"line {lineno}: unknown escape \\{e}")
    return "".join(out)


_KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')


class PoFile(NamedTuple):
    headers: dict
    entries: list              # Entry, the header excluded, obsolete (#~) entries excluded

    def stats(self) -> dict:
        """Counts for coverage: total, translated, fuzzy, untranslated."""
        fuzzy = sum(1 for e in self.entries if e.fuzzy)
        done = sum(1 for e in self.entries if e.translated)
        total = len(self.entries)
        return {"total": total, "translated": done, "fuzzy": fuzzy,
                "untranslated": total - done - fuzzy,
                "percent": 100.0 if total == 0 else 100.0 * done / total}


def parse_po(text: str) -> PoFile:
    """Read a .po catalog; raises PoError on anything malformed (never guesses)."""
    entries: list = []
    headers: dict = {}
    seen: set = set()
    cur: dict = {}
    field: Optional[str] = None
    flags: set = set()
    start = 0

    def finish(lineno: int) -> None:
        nonlocal cur, field, flags
        if not cur:
            if flags:
                flags = set()
            return
        if "msgid" not in cur:
            raise PoError(f"line {start}: an entry without msgid")
        plural = cur.get("msgid_plural")
        strs = cur.get("msgstr")
        forms = cur.get("forms", {})
        if plural is None:
            if forms:
                raise PoError(f"line {start}: msgstr[n] without msgid_plural")
            if strs is None:
                raise PoError(f"line {start}: msgid without msgstr")
            msgstr = (strs,)
        else:
            if strs is not None:
                raise PoError(f"line {start}: plural entry with a plain msgstr")
            if not forms or sorted(forms) != list(range(len(forms))):
                raise PoError(f"line {start}: plural entry needs msgstr[0], msgstr[1], ...")
            msgstr = tuple(forms[i] for i in range(len(forms)))
        key = (cur.get("msgctxt"), cur["msgid"])
        if key in seen:
            raise PoError(f"line {start}: duplicate msgid {cur['msgid'][:40]!r}")
        seen.add(key)
        entry = Entry(cur["msgid"], plural, msgstr, cur.get("msgctxt"), "fuzzy" in flags, start)
        if entry.msgid == "" and entry.context is None:
            headers.update(_parse_headers(msgstr[0]))
        else:
            entries.append(entry)
        cur, field, flags = {}, None, set()

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            finish(lineno)
            continue
        if line.startswith("#"):
            if cur and ("msgstr" in cur or cur.get("forms")):
                finish(lineno)         # comments start the next entry
            if line.startswith("#,"):
                flags.update(f.strip() for f in line[2:].split(","))
            continue                   # #~ obsolete, #: refs, #. notes, #| previous: not used
        if line.startswith('"'):
            if field is None:
                raise PoError(f"line {lineno}: a string outside an entry")
            value = _unquote(line, lineno)
            if field.startswith("msgstr["):
                idx = int(field[7:-1])
                cur["forms"][idx] += value
            else:
                cur[field] += value
            continue
        m = _KEYWORD.match(line)
        if not m:
            raise PoError(f"line {lineno}: cannot read {line[:40]!r}")
        kw, idx, rest = m.group(1), m.group(2), m.group(3)
        if kw in ("msgctxt", "msgid") and cur and ("msgstr" in cur or cur.get("forms")):
            finish(lineno)             # no blank line between entries is still fine
        if not cur:
            start = lineno
        value = _unquote(rest, lineno)
        if kw == "msgctxt":
            if cur:
                raise PoError(f"line {lineno}: msgctxt must come first")
            cur["msgctxt"] = value
        elif kw == "msgid":
            if "msgid" in cur:
                raise PoError(f"line {lineno}: msgid twice")
            cur["msgid"] = value
        elif kw == "msgid_plural":
            if "msgid" not in cur or "msgid_plural" in cur or "msgstr" in cur:
                raise PoError(f"line {lineno}: misplaced msgid_plural")
            cur["msgid_plural"] = value
        elif idx is None:
            if "msgid" not in cur or "msgstr" in cur:
                raise PoError(f"line {lineno}: misplaced msgstr")
            cur["msgstr"] = value
        else:
            n = int(idx)
            forms = cur.setdefault("forms", {})
            if "msgid" not in cur or n in forms or n > 9:
                raise PoError(f"line {lineno}: misplaced msgstr[{n}]")
            forms[n] = value
            kw = f"msgstr[{n}]"
        field = kw
    finish(-1)
    return PoFile(headers, entries)


def _parse_headers(text: str) -> dict:
    out = {}
    for line in text.split("\n"):
        if ":" in line:
            k, v = line.split(":", 1)
            out[k.strip()] = v.strip()
    return out


def read_po(path: Union[str, Path]) -> PoFile:
    """parse_po of a file (UTF-8, size-limited)."""
    data = _read_limited(Path(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PoError(f"not UTF-8 at byte {exc.start}") from None
    return parse_po(text.lstrip("\ufeff"))


def _read_limited(path: Path) -> bytes:
    with open(path, "rb") as f:
        data = f.read(_MAX_CATALOG_BYTES + 1)
    if len(data) > _MAX_CATALOG_BYTES:
        raise PoError(f"larger than {_MAX_CATALOG_BYTES} bytes")
    return data


# ====================================================================== .mo reader
def read_mo(path: Union[str, Path]) -> tuple[dict, dict, dict]:
    """A GNU .mo file -> (headers, {(context, msgid): msgstr or tuple of forms},
    {(context, msgid): msgid_plural})."""
    data = _read_limited(Path(path))
    if len(data) < 28:
        raise PoError("too short for a .mo file")
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if end is None:
        raise PoError("not a .mo file (bad magic number)")
    _rev, count, orig_at, trans_at = struct.unpack(end + "4I", data[4:20])
    if count > 200000 or orig_at + 8 * count > len(data) or trans_at + 8 * count > len(data):
        raise PoError("corrupt .mo tables")
    messages: dict = {}
    headers: dict = {}
    plurals: dict = {}
    for i in range(count):
        olen, ooff = struct.unpack(end + "2I", data[orig_at + 8 * i: orig_at + 8 * i + 8])
        tlen, toff = struct.unpack(end + "2I", data[trans_at + 8 * i: trans_at + 8 * i + 8])
        if ooff + olen > len(data) or toff + tlen > len(data):
            raise PoError("corrupt .mo string offsets")
        try:
            orig = data[ooff:ooff + olen].decode("utf-8")
            trans = data[toff:toff + tlen].decode("utf-8")
        except UnicodeDecodeError:
            raise PoError("a .mo string is not UTF-8") from None
        context = None
        if "\x04" in orig:
            context, orig = orig.split("\x04", 1)
        if orig == "" and context is None:
            headers = _parse_headers(trans)
            continue
        msgid = orig.split("\x00")[0]
        forms = tuple(trans.split("\x00"))
        if "\x00" in orig:
            messages[(context, msgid)] = forms
            plurals[(context, msgid)] = orig.split("\x00", 1)[1]
        elif forms and forms[0]:
            messages[(context, msgid)] = forms[0]
    return headers, messages, plurals


# ====================================================================== catalogs
def _fields(text: str) -> Optional[set]:
    """The {names} a str.format template uses; None when it is not a valid template."""
    try:
        return {f.split(".")[0].split("[")[0] for _t, f, _s, _c in _FORMATTER.parse(text)
                if f is not None}
    except ValueError:
        return None


def _safe_messages(messages: dict, plurals: dict, source: str) -> dict:
    """Drop translations that would break ``.format()`` of their English: a {name} neither
    English form has, or braces that do not pair (a template's English has ``{``)."""
    out, dropped = {}, []
    for key, value in messages.items():
        msgid = key[1]
        english = _fields(msgid)
        if english is None or "{" not in msgid + plurals.get(key, ""):
            out[key] = value           # not a template: the text is shown as it is
            continue
        english |= _fields(plurals.get(key, "")) or set()
        forms = value if isinstance(value, tuple) else (value,)
        if all((_fields(f) is not None and _fields(f) <= english) for f in forms):
            out[key] = value
        else:
            dropped.append(msgid)
    if dropped:
        log.warning("catalog %s: %d translations name placeholders their English lacks "
                    "(English used for them), e.g. %r", source, len(dropped), dropped[0][:60])
    return out


_FORMATTER = string.Formatter()


class Catalog:
    """One language's translations."""

    def __init__(self, lang: str, messages: dict, headers: Optional[dict] = None,
                 stats: Optional[dict] = None, source: str = "", plurals: Optional[dict] = None):
        self.lang = lang
        # (context, msgid) -> str, or a tuple of forms for a plural entry
        self.messages = _safe_messages(messages, plurals or {}, source)
        self.headers = headers or {}
        self.stats = stats                 # from the .po (None when only a .mo was read)
        self.source = source
        self.nplurals, self.plural = 2, _english_plural
        rule = self.headers.get("Plural-Forms")
        if rule:
            try:
                self.nplurals, self.plural = _plural_header(rule)
            except PluralError as exc:
                log.warning("catalog %s: %s; using the English plural rule", source, exc)

    @classmethod
    def from_po(cls, lang: str, po: PoFile, source: str = "") -> "Catalog":
        messages, plurals = {}, {}
        for e in po.entries:
            if not e.translated:
                continue               # fuzzy or empty: English shows instead
            messages[(e.context, e.msgid)] = e.msgstr if e.msgid_plural is not None else e.msgstr[0]
            if e.msgid_plural is not None:
                plurals[(e.context, e.msgid)] = e.msgid_plural
        return cls(lang, messages, po.headers, po.stats(), source, plurals)

    def gettext(self, text: str, context: Optional[str] = None) -> str:
        found = self.messages.get((context, text))
        return found if isinstance(found, str) else text

    def ngettext(self, singular: str, plural: str, n: int, context: Optional[str] = None) -> str:
        forms = self.messages.get((context, singular))
        if isinstance(forms, tuple) and forms:
            try:
                idx = int(self.plural(int(n)))
            except (ArithmeticError, TypeError, ValueError, RecursionError):
                idx = 0
            if 0 <= idx < len(forms) and forms[idx]:
                return forms[idx]
        return singular if n == 1 else plural


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
    """The catalog of ``lang`` read from disk; English (and one log line) when it cannot be."""
    if lang == SOURCE_LANGUAGE:
        return _ENGLISH
    po, mo = po_path(lang, root), mo_path(lang, root)
    try:
        po_time = po.stat().st_mtime if po.is_file() else None
        mo_time = mo.stat().st_mtime if mo.is_file() else None
        stats = None
        if po_time is not None:
            pofile = read_po(po)
            if mo_time is None or mo_time < po_time:
                return Catalog.from_po(lang, pofile, str(po))
            stats = pofile.stats()
        if mo_time is not None:
            headers, messages, plurals = read_mo(mo)
            return Catalog(lang, messages, headers, stats, str(mo), plurals)
        log.warning("no %s catalog in %s; using English", lang, po.parent)
    except (OSError, PoError, PluralError, ValueError, struct.error) as exc:
        log.error("the %s catalog cannot be read (%s): %s; using English", lang, po.parent, exc)
    return Catalog(lang, {}, source="", stats=None)


def catalog(lang: str) -> Catalog:
    """The cached catalog of ``lang`` (read once)."""
    with _lock:
        found = _catalogs.get(lang)
        if found is None:
            found = _catalogs[lang] = load_catalog(lang)
        return found


def reload() -> None:
    """Forget the cached catalogs (after ``tools/catalog.py compile``, or in tests)."""
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
        names = sorted(p.name for p in base.iterdir() if p.is_dir())
    except OSError:
        names = []
    for lang in names:
        if lang == SOURCE_LANGUAGE or normalize(lang) != lang:
            continue
        if not (po_path(lang, base).is_file() or mo_path(lang, base).is_file()):
            continue
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
                import ctypes
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
        import babel.dates
        import babel.numbers
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
            from decimal import Decimal
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
