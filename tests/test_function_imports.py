"""An ``import`` inside a function or method of koikoi/ says on its own line why it is not at
the top of its module (issue 29: function-level imports only where they have a reason).

Parsed with ``ast`` and ``tokenize`` (nothing is imported to find them). The reason is a
comment on the import's line (any line of a parenthesised one) holding one of these tags,
each followed by a colon and some words:

``# optional dependency: ...``
    a library the game runs without (Babel, psycopg, zeroconf, uvloop): the import is
    tried where it is used and its absence handled there.
``# platform: ...``
    a module of one operating system only (``ctypes.wintypes``, ``resource``) or asked for on
    one only.
``# start-up time: measured N ms ...``
    a module left out of the start of a command that does not need it; the comment names the
    figure it saves (``N ms``, measured with the process's CPU time) and, best, who skips it.
``# cycle: ...``
    an arrow tests/test_import_graph.py still allows (its ``ALLOWED``), with the file that has
    to drop it.
``# isolated: ...``
    code that must outlive a broken install: the crash report and ``koikoi --check`` import
    each thing inside the ``try`` (or the check) that reports its failure.

Several tags may share a comment with ``noqa`` (``# noqa: F401  isolated: ...``).
``PENDING`` lists the files of this session's other helpers that still have function-level
imports without a reason; it only shrinks: a file in it that has none left fails the test
until it is taken out.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "koikoi"

TAGS = ("optional dependency", "platform", "start-up time", "cycle", "isolated")
REASON = re.compile(r"(?:^|[\s#(])(" + "|".join(re.escape(t) for t in TAGS) + r"):\s*(\S.*)")
MEASURED = re.compile(r"\bmeasured\b.*?\d+(?:\.\d+)?\s*ms\b")

# files (relative to the repository) that still hold function-level imports without a reason;
# each is another helper's, who gives the reasons (or moves the imports) in their own branch
PENDING: set[str] = set()   # none left: every function-level import in koikoi/ says why


def comments(source: str) -> dict[int, str]:
    """line number -> the comment text on that line."""
    out: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def function_imports(source: str):
    """Every Import / ImportFrom node inside a function (at any depth), in source order."""
    found = []

    def walk(node, inside):
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            walk(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(ast.parse(source), False)
    return found


def reason(node, notes: dict[int, str]) -> str | None:
    """The problem with ``node``'s reason, or None if it gives a good one."""
    texts = [notes[n] for n in range(node.lineno, (node.end_lineno or node.lineno) + 1) if n in notes]
    for text in texts:
        m = REASON.search(text)
        if m is None:
            continue
        if m.group(1) == "start-up time" and not MEASURED.search(m.group(2)):
            return "says start-up time but not what was measured (measured N ms)"
        return None
    return "gives no reason (" + ", ".join(f"{t}:" for t in TAGS) + ")"


def unreasoned(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    notes = comments(source)
    lines = source.splitlines()
    out = []
    for node in function_imports(source):
        problem = reason(node, notes)
        if problem:
            out.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}: {lines[node.lineno - 1].strip()}  "
                       f"<- {problem}")
    return out


def every_file():
    return sorted(ROOT.rglob("*.py"))


def test_every_function_level_import_says_why():
    bad = [line for p in every_file() if str(p.relative_to(ROOT.parent)) not in PENDING
           for line in unreasoned(p)]
    assert not bad, "function-level imports without a reason:\n" + "\n".join(bad)


def test_pending_lists_only_files_that_still_need_it():
    """PENDING only shrinks: a file whose imports all say why (or that went) comes out."""
    done = sorted(f for f in PENDING if not (ROOT.parent / f).is_file() or not unreasoned(ROOT.parent / f))
    assert not done, f"take these out of PENDING: {done}"


def test_the_check_tells_a_reason_from_none():
    src = '''
import os                                   # module level: no reason needed

def a():
    import json

def b():
    import ctypes  # platform: Windows only

def c():
    from . import ui  # start-up time: the window only

def d():
    from . import ui  # start-up time: measured 180 ms, only the window needs it

class E:
    def f(self):
        def g():
            from babel import dates  # noqa: F401  optional dependency: plain formats without it
        from .x import (y,
                        z)  # cycle: x imports this module (test_import_graph ALLOWED)

def h():
    import json  # (optional) not a tag
'''
    notes = comments(src)
    got = {n.lineno: reason(n, notes) for n in function_imports(src)}
    assert [line for line, why in got.items() if why is None] == [8, 14, 19, 20]
    assert "no reason" in got[5] and "measured" in got[11] and "no reason" in got[24]
