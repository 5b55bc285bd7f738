"""Text: rendering (cached, with a soft shadow), measuring, wrapping,
fitting a font and cutting with an ellipsis, bounded for text of any length."""

from __future__ import annotations

import operator
import re
import weakref
from itertools import accumulate
from typing import Callable

import pygame

from ...i18n import SOURCE_LANGUAGE, language, ngettext
from .core import _Cache, _assets
from .phrases import MAX_PARSED, is_japanese, wrap_pieces

_TEXT = _Cache(1500, 4_000_000)
# rendered texts longer than _LONG_KEY characters (hostile names): a few, so
# their long keys cannot add up
_TEXT_LONG = _Cache(32, 4_000_000)


# ------------------------------------------------------------------ text


# Bounds that keep text fitting and drawing cheap for text of any length (a
# seat name of 20,000 characters took 42 s to draw one frame, issue #13).
# No glyph of the game's fonts is narrower than 1 px from 5 px type up (only
# the zero-width format characters are), so more than `width` characters can
# never fit in `width` px: each helper first clips its text to twice that, plus
# some slack (_fit_chars), and measures only the clipped text.
#
# Nothing is drawn wider than this (no screen is), and the text drawn is first
# clipped to as many characters: a 1 MB name made a 11,000,000 px wide surface.
MAX_TEXT_PX = 16384
# wrap_text makes at most this many lines (more than a 4K screen holds in the
# smallest type); a text that needs more ends its last line with "…".
MAX_WRAP_LINES = 200
# Cache keys with a text longer than this go to small separate caches, so
# hostile long texts cannot fill the main caches with big keys.
_LONG_KEY = 256


def _fit_chars(width) -> int:
    """More characters than this can never fit in ``width`` px (see above)."""
    return 2 * max(0, int(width)) + 64


def _guess_chars(font: pygame.font.Font, width) -> int:
    """A first guess of how many characters fill ``width`` px (about half an em each)."""
    return int(max(0, width)) // max(1, font.get_height() // 2)


def _last_fit(ok: Callable[[int], bool], lo: int, hi: int, guess: int) -> int:
    """The largest ``n`` in ``[lo, hi]`` with ``ok(n)``, ``ok(lo)`` being taken as
    true without asking. ``ok`` must be monotone (true up to some ``n``, false
    after), as the width of a growing prefix is. Gallops from ``guess``, so a
    close guess costs a few calls and a bad one about twice log2(hi - lo)."""
    if hi <= lo:
        return lo
    n = min(max(guess, lo + 1), hi)
    step = 1
    if ok(n):
        lo = n
        while lo < hi:
            n = min(hi, lo + step)
            if not ok(n):
                hi = n - 1
                break
            lo, step = n, step * 2
    else:
        hi = n - 1
        while lo < hi:
            n = max(lo + 1, hi + 1 - step)
            if ok(n):
                lo = n
                break
            hi, step = n - 1, step * 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


# Stand-ins for characters a font may lack: the bundled font is a subset (it has
# the macrons of romaji such as "Gokō"), and pygame's default font is the fallback.
_STAND_INS = {"ō": "o", "Ō": "O", "ū": "u", "Ū": "U", "ā": "a", "Ā": "A", "ī": "i", "ē": "e",
              "▾": "▼", "▴": "▲", "✓": "•", "✔": "•"}
# font -> {character: has a real glyph}; weak, so a closed App's fonts can go.
# Only the stand-ins' characters are ever asked about, so each dict stays small.
_GLYPHS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _has_glyph(font: pygame.font.Font, ch: str) -> bool:
    known = _GLYPHS.setdefault(font, {})
    if ch not in known:
        try:
            missing = pygame.image.tobytes(font.render("\uffff", True, (255, 255, 255)), "RGBA")
            known[ch] = pygame.image.tobytes(font.render(ch, True, (255, 255, 255)), "RGBA") != missing
        except (pygame.error, ValueError):
            known[ch] = True
    return known[ch]


def displayable(text: str, font: pygame.font.Font) -> str:
    """``text`` with characters the font cannot draw replaced by close stand-ins."""
    if text.isascii():
        return text
    # a dozen substring scans and one translate, not a Python loop per character
    table = {ord(ch): sub for ch, sub in _STAND_INS.items() if ch in text and not _has_glyph(font, ch)}
    return text.translate(table) if table else text


def _drawable(text: str, font: pygame.font.Font) -> str:
    """``text`` as it can be rendered: "" for text of no width (pygame refuses
    it: "Text has zero width"), cut to at most ``MAX_TEXT_PX`` px."""
    w = font.size(text)[0]
    if w <= 0:
        return ""
    if w <= MAX_TEXT_PX:
        return text
    n = _last_fit(lambda k: font.size(text[:k])[0] <= MAX_TEXT_PX, 0, len(text) - 1,
                  len(text) * MAX_TEXT_PX // w)
    return text[:n]


def render_text(text: str, font: pygame.font.Font, color, *, shadow: bool = True) -> pygame.Surface:
    """``text`` rendered (anti-aliased, with a soft drop shadow), cached.

    At most ``MAX_TEXT_PX`` px of it are drawn (no screen shows more)."""
    color = tuple(color)
    text = displayable(text[:MAX_TEXT_PX], font)

    def make() -> pygame.Surface:
        line = _drawable(text, font)
        if len(color) == 4 and color[3] < 255:
            fg = font.render(line, True, color[:3])
            fg.set_alpha(color[3])
            fg = fg.convert_alpha() if pygame.display.get_surface() else fg
        else:
            fg = font.render(line, True, color[:3])
        if not shadow:
            return fg
        off = max(1, font.get_height() // 18)
        sh = font.render(line, True, (0, 0, 0))
        out = pygame.Surface((fg.get_width() + off, fg.get_height() + off), pygame.SRCALPHA)
        sh.set_alpha(150 if len(color) < 4 else color[3] * 150 // 255)
        out.blit(sh, (off, off))
        out.blit(fg, (0, 0))
        return out

    cache = _TEXT if len(text) <= _LONG_KEY else _TEXT_LONG
    return cache.get_or((font, text, color, shadow), make)



def draw_text(surface: pygame.Surface, text: str, font: pygame.font.Font, color, pos,
              anchor: str = "topleft", shadow: bool = True) -> pygame.Rect:
    """Draw one line of ``text`` with its ``anchor`` point ("topleft", "center",
    "midtop", "topright", "midleft", "bottomright", ...) at ``pos``.

    Returns the rectangle drawn (the text itself, without the shadow offset).
    """
    img = render_text(text, font, color, shadow=shadow)
    off = max(1, font.get_height() // 18) if shadow else 0
    r = pygame.Rect(0, 0, img.get_width() - off, img.get_height() - off)
    setattr(r, anchor, (int(pos[0]), int(pos[1])))
    surface.blit(img, r.topleft)
    if text.endswith("…") and text in _WHOLE and _on_window(surface):
        note_cut(r, _WHOLE[text])
    return r


def _on_window(surface: pygame.Surface) -> bool:
    """Whether ``surface`` is the frame being drawn or a layer of its size blitted over it."""
    size = _FRAME["size"]
    return size is not None and surface.get_size() == size


def text_width(text: str, font: pygame.font.Font) -> int:
    """The width of ``text`` in ``font`` (at most ``MAX_TEXT_PX``, as drawn)."""
    return min(MAX_TEXT_PX, font.size(displayable(text[:MAX_TEXT_PX], font))[0])


_SPACES = re.compile(" +")
# Characters a line never starts with (Japanese kinsoku: closing marks and small kana marks).
from .phrases import NO_LINE_START  # noqa: E402 - one kinsoku set for both wrappers


def caps(text: str) -> str:
    """A heading in capitals ("HARU COMBOS") in English only: in a language without
    letter case the Latin in it is a name or a code, kept as it is written."""
    return text.upper() if language() == SOURCE_LANGUAGE else text


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _latin_whole(text: str, k: int, cut: int, j: int, fits) -> int:
    """The cut ``k + cut`` of the unspaced run ``text[k:j]``, moved back to the start of a
    Latin word it falls in when that word follows Japanese and fits a line by itself
    ("…出す。CPUより" is cut before "CPU", not after its "C"); a number keeps its counter
    ("1枚" is not cut after the 1)."""
    c = k + cut
    if c >= j or not _latin(text[c - 1]):
        return cut
    if not (_latin(text[c]) or (text[c - 1].isdigit() and not text[c].isascii())):
        return cut
    b = c - 1
    while b > k and _latin(text[b - 1]):
        b -= 1
    if b == k or text[b - 1].isascii():
        return cut
    e = c
    while e < j and _latin(text[e]):
        e += 1
    return b - k if fits(b, e) else cut


def _clip_line(line: str, limit: int) -> str:
    # a word too wide for its line is kept whole (as ever), up to some characters
    limit = max(limit, 512)
    return line if len(line) <= limit else line[:limit] + "…"


def _wrap_para(para: str, font: pygame.font.Font, width, limit: int, lines: list, cap: int) -> None:
    """Append the lines of one paragraph to ``lines``, stopping past ``cap`` lines.

    The lines are what the word-by-word rule has always made: words are added
    to a line while it fits; the word that does not fit starts the next line,
    whole; only a word that starts an empty line (the paragraph's first, or one
    after a space that did not fit) is cut by characters when it is too wide.
    The line being made is always a slice ``para[ls:le]``, so each step
    measures one slice, found by galloping over the candidate ends."""
    size = font.size
    m = len(para)
    ls = le = 0           # the line being made: para[ls:le]
    i = 0                 # where the next word starts, when the line is empty
    cut = words = 0       # the last cut and the last line's word count: guesses for the next
    chars = _guess_chars(font, width)     # and the last line's length
    while True:
        if ls == le:
            # an empty line: spaces (empty words) add nothing to it
            if i < m and para[i] == " ":
                i = _SPACES.match(para, i).end()
            j = para.find(" ", i)
            if j < 0:
                j = m
            k = i
            while j - k > 1 and (j - k > limit or size(para[k:j])[0] > width):
                hi = min(j - k - 1, limit)
                cut = _last_fit(lambda c: size(para[k:k + c])[0] <= width, 1, hi,
                                cut or _guess_chars(font, width))
                # no line starts with a closing mark (。、」…): its last character goes along
                while cut > 1 and k + cut < j and para[k + cut] in NO_LINE_START:
                    cut -= 1
                cut = _latin_whole(para, k, cut, j, lambda a, b: size(para[a:b])[0] <= width)
                lines.append(para[k:k + cut])
                if len(lines) > cap:
                    return
                k += cut
            ls, le = k, j
            if le >= m:
                break
        # a line with words: add the next words while the line fits. The
        # candidate ends are the spaces (and the end) in a window after the
        # line, widened only while every end in it fits.
        start = le + 1
        far = min(m, ls + limit)      # no longer line can fit
        span = 2 * chars + 64
        while True:
            stop = min(far, start + span)
            parts = para[start:stop + 1].split(" ")
            ends = list(map(operator.add, accumulate(map(len, parts)), range(start, start + len(parts))))
            if ends and ends[-1] > stop:
                ends.pop()            # that word goes on past the window
            words = _last_fit(lambda t: size(para[ls:ends[t - 1]])[0] <= width, 0, len(ends), words or 1)
            if words < len(ends) or stop >= far:
                break
            span *= 4
        if words:
            le = ends[words - 1]
            if le >= m:
                break
        # the next word does not fit: it starts the next line, whole
        lines.append(_clip_line(para[ls:le], limit))
        chars = le - ls
        if len(lines) > cap:
            return
        ls = le + 1
        le = para.find(" ", ls)
        if le < 0:
            le = m
        if le > ls and (le - ls > limit or size(para[ls:le])[0] > width):
            # a word wider than a line (a run of Japanese, say) starts an empty line: cut there
            i = le = ls
            continue
        if le >= m:
            break
        i = le + 1
    lines.append(_clip_line(para[ls:le], limit))


def wrap_text(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (words kept whole when
    possible; blank lines in ``text`` are kept as paragraph breaks).

    At most ``MAX_WRAP_LINES`` lines are made; a text that needs more ends the
    last of them with "…". The work is bounded for text of any length."""
    limit = _fit_chars(width)
    lines: list[str] = []
    n = len(text)
    pos = 0
    while pos <= n and len(lines) <= MAX_WRAP_LINES:
        end = text.find("\n", pos)
        if end < 0:
            end = n
        para = text[pos:end]
        pos = end + 1
        if not para.strip():
            lines.append("")
        elif len(para) <= MAX_PARSED and is_japanese(para):   # by phrase (BudouX), kinsoku kept
            wrap_pieces(para, lambda line: font.size(line)[0] <= width, lines, MAX_WRAP_LINES)
        else:
            _wrap_para(para, font, width, limit, lines, MAX_WRAP_LINES)
    if len(lines) > MAX_WRAP_LINES:
        del lines[MAX_WRAP_LINES:]
        lines[-1] = _ellipsis_cut(lines[-1], font, width, len(lines[-1]))
    return lines


def fit_font(assets, text: str, width: int, size: int, *, bold: bool = False,
             minimum: int = 10) -> pygame.font.Font:
    """The largest font of at most ``size`` px in which ``text`` fits ``width``."""
    return _assets(assets).font(fit_size(assets, text, width, size, bold=bold, minimum=minimum), bold)


def fit_size(assets, text: str, width: int, size: int, *, bold: bool = False, minimum: int = 10) -> int:
    """The px size of ``fit_font``: a row of labels set alike takes the least of theirs."""
    a = _assets(assets)
    text = text[:_fit_chars(width) + 1]     # a longer text fits at no size
    fits = _FITS if len(text) <= _LONG_KEY else _FITS_LONG
    key = (id(a), text, int(width), int(size), bool(bold), minimum)
    found = fits.get(key)
    if found is not None and found[0]() is a:
        return found[1]
    size = max(minimum, int(size))
    text = displayable(text, a.font(size, bold))
    font = a.font(size, bold)
    while size > minimum and font.size(text)[0] > width:
        size = max(minimum, int(size * 0.92))
        font = a.font(size, bold)
    if len(fits) > (4000 if fits is _FITS else 64):
        fits.clear()
    fits[key] = (weakref.ref(a), size)
    return size


# (id(assets), text, width, size, bold, minimum) -> (weak ref to the Assets, fitted size).
# Weak, so the cache never keeps an old App's fonts and card images alive.
_FITS: dict = {}
_FITS_LONG: dict = {}     # the same for texts longer than _LONG_KEY, kept to a few


def _ellipsis_cut(text: str, font: pygame.font.Font, width, guess: int) -> str:
    """The longest prefix of ``text`` (at most ``_fit_chars(width)`` characters)
    that fits ``width`` with "…" after it, and the "…"; just "…" if none does.
    The cut text is remembered with its whole (``whole_of``), for the hover."""
    n = _last_fit(lambda k: font.size(text[:k] + "…")[0] <= width, 0,
                  min(len(text), _fit_chars(width)), guess)
    cut = text[:n] + "…"
    if cut != text:
        if len(_WHOLE) > 2048:
            _WHOLE.clear()
        _WHOLE[cut] = text[:MAX_TEXT_PX]
    return cut


# The one text rule: a text that does not fit is cut with "…" and its whole shows on hover.
# _WHOLE: a cut text -> the text it was cut from (the last cuts made); _SHOWN: (rect, whole)
# of every cut text drawn on the window this frame, which the app reads for its hover tip.
_WHOLE: dict = {}
_SHOWN: list = []


def whole_of(text: str):
    """The whole text that ``text`` (a cut one) was cut from; None for a text not cut."""
    return _WHOLE.get(text)


def note_cut(rect, whole: str) -> None:
    """Text in ``rect`` (window coordinates) shows only part of ``whole`` (lines left out,
    a list cut short): hovering it shows ``whole``."""
    if len(_SHOWN) < 512:
        _SHOWN.append((pygame.Rect(rect), whole))


def cut_mark() -> int:
    """A mark in this frame's cut texts, for ``cuts_since``."""
    return len(_SHOWN)


def cuts_since(mark: int) -> list:
    """The cut texts noted since ``mark``: what a cached layer must note again each frame
    it is shown without being drawn again (``renote``)."""
    return list(_SHOWN[mark:])


def renote(cuts) -> None:
    """Note again the ``cuts_since`` of a cached layer shown this frame."""
    for rect, whole in cuts:
        note_cut(rect, whole)


def more_text(n: int) -> str:
    """"+3 more": the mark of a list cut short."""
    return ngettext("+{n} more", "+{n} more", n).format(n=n)


def fit_items(items, font: pygame.font.Font, width: int, sep: str = "  ·  ",
              none_fit: str = "") -> tuple[str, int]:
    """As many whole ``items`` joined by ``sep`` as fit ``width`` with, when some are left
    out, "+N more" after them; (the line, how many were left out). When not even the first
    fits beside the mark: ``none_fit`` if given (a count, say: nothing cut in two), else
    the first cut with "…"."""
    items = list(items)
    whole = sep.join(items)
    if not items or text_width(whole, font) <= width:
        return whole, 0
    for k in range(len(items) - 1, 0, -1):
        line = sep.join(items[:k]) + sep + more_text(len(items) - k)
        if text_width(line, font) <= width:
            return line, len(items) - k
    if none_fit:
        return none_fit, len(items)
    more = sep + more_text(len(items) - 1) if len(items) > 1 else ""
    room = width - text_width(more, font)
    return ellipsize(items[0], font, max(1, room)) + more, len(items) - 1


def cuts_shown() -> list:
    """(rect, whole text) of the cut texts drawn on the window since ``new_frame``."""
    return list(_SHOWN)


_FRAME = {"size": None}    # the size of the frame being drawn (set by ``new_frame``)


def new_frame(size=None) -> None:
    """A new frame of ``size`` (the app's drawing surface) starts: no cut text shown yet."""
    _SHOWN.clear()
    _FRAME["size"] = tuple(size) if size else None


def ellipsize(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``width``.

    Only the first ``_fit_chars(width)`` characters are measured, so text of
    any length costs about as much as a short one (some 10 ``font.size`` calls)."""
    if len(text) <= _fit_chars(width):
        full = font.size(text)[0]
        if full <= width:
            return text
        guess = len(text) * int(max(0, width)) // max(1, full)
    else:
        guess = _guess_chars(font, width)
    return _ellipsis_cut(text, font, width, guess)
