"""Japanese line breaking by phrase: BudouX finds the phrases, kinsoku keeps marks in place.

Japanese has no spaces, so a line cut by characters breaks inside words ("勝負しま" /
"しょう。"). ``pieces(para)`` splits a paragraph into the units a line may break between:
BudouX's phrases (its default Japanese model), split again after spaces (the Latin words
of a mixed text), with no break inside a game word BudouX does not know ("こいこい"), before a
mark that never starts a line (。、」… kinsoku) or after one that never ends it (「（…).
``wrap_pieces`` lays the pieces on lines no wider than a width; a piece wider than a line
by itself is cut by characters (kinsoku kept).

    pieces("勝負しましょう。こいこいしましょう。")   ("勝負しましょう。", "こいこいしましょう。")
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Callable, Optional

log = logging.getLogger(__name__)

# Characters a line never starts with (closing marks, small kana marks) and never ends with
# (opening marks): Japanese kinsoku.
NO_LINE_START = frozenset("。、，．・：；？！」』）］｝〕〉》】ー…‥ゝゞヽヾ々,.:;!?)]}")
NO_LINE_END = frozenset("「『（［｛〔〈《【([{")
# Game words that stay on one line though BudouX's model may break them.
WHOLE_WORDS = ("こいこい", "コイコイ")
# A paragraph longer than this is not parsed (hostile text): it wraps by characters.
MAX_PARSED = 600

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff9f]")


def is_japanese(text: str) -> bool:
    """Whether ``text`` holds any kana or kanji (it then breaks by phrase)."""
    return not text.isascii() and _JAPANESE.search(text) is not None


@lru_cache(maxsize=1)
def _parser():
    try:
        import budoux  # optional dependency: without it (or its model) Japanese breaks by character
        return budoux.load_default_japanese_parser()
    except Exception as exc:    # noqa: BLE001 - any failure: break by characters, as before
        log.warning("BudouX is not available (%s): Japanese lines break by character", exc)
        return None


@lru_cache(maxsize=4096)
def pieces(para: str) -> tuple:
    """The units of ``para`` a line may break between (their join is ``para``)."""
    if not para:
        return ()
    parser = _parser() if len(para) <= MAX_PARSED else None
    bounds: set = set()
    if parser is not None:
        at = 0
        for chunk in parser.parse(para)[:-1]:
            at += len(chunk)
            bounds.add(at)
    for m in re.finditer(" +", para):          # a break before and after every run of spaces
        bounds.update((m.start(), m.end()))
    for word in WHOLE_WORDS:
        for m in re.finditer(word, para):
            bounds.difference_update(range(m.start() + 1, m.end()))
    n = len(para)
    keep = sorted(b for b in bounds if 0 < b < n and para[b] not in NO_LINE_START
                  and para[b - 1] not in NO_LINE_END
                  and not (para[b - 1].isascii() and para[b - 1].isalnum()
                           and para[b].isascii() and para[b].isalnum()))
    out = []
    prev = 0
    for b in keep:
        out.append(para[prev:b])
        prev = b
    out.append(para[prev:])
    return tuple(out)


def _cut_chars(text: str, fits: Callable[[str], bool]) -> int:
    """How many characters of ``text`` (at least 1) go on a line: the most that fit, moved
    back so the rest does not start with a closing mark."""
    lo, hi = 1, len(text)
    while lo < hi:                  # the longest prefix that fits
        mid = (lo + hi + 1) // 2
        if fits(text[:mid]):
            lo = mid
        else:
            hi = mid - 1
    cut = lo
    while cut > 1 and cut < len(text) and text[cut] in NO_LINE_START:
        cut -= 1
    return cut


def wrap_pieces(para: str, fits: Callable[[str], bool], lines: list, cap: int,
                clip: Optional[Callable[[str], str]] = None) -> None:
    """Append the lines of ``para`` (broken between ``pieces``) to ``lines``; ``fits(line)``
    says whether a line fits; stops past ``cap`` lines."""
    line = ""
    for piece in pieces(para):
        trial = line + piece
        if not line or fits(trial.rstrip(" ")):
            line = trial if line else piece.lstrip(" ")
        else:
            lines.append(line.rstrip(" "))
            if len(lines) > cap:
                return
            line = piece.lstrip(" ")
        while line and not fits(line.rstrip(" ")):     # a piece wider than a line: by characters
            cut = _cut_chars(line, fits)
            lines.append(line[:cut])
            if len(lines) > cap:
                return
            line = line[cut:].lstrip(" ")
    lines.append(line.rstrip(" "))


__all__ = ["pieces", "wrap_pieces", "is_japanese", "NO_LINE_START", "NO_LINE_END"]
