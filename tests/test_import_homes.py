"""Names are imported from where they live (issue 29, point 6): the translation functions
from koikoi.i18n, not through koikoi.ui.table (which once re-exported them to 30 scenes) or
koikoi.narration. The engine alone keeps its own no-op marker ``N_`` (engine.cards): it is
pure and imports nothing of the game's."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "koikoi"
I18N = {"N_", "_", "_n", "ngettext", "pgettext"}


def _imported_from(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from X import name`` in ``path``, X made absolute."""
    package = path.relative_to(ROOT.parent).with_suffix("").parts
    package = package[:-1] if package[-1] != "__init__" else package[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out.extend((module, a.name) for a in node.names)
    return out


def test_translation_functions_come_from_i18n():
    wrong = sorted(f"{p.relative_to(ROOT.parent)}: {name} from {module}"
                   for p in ROOT.rglob("*.py") for module, name in _imported_from(p)
                   if name in I18N and module != "koikoi.i18n"
                   and not (module == "koikoi.engine.cards" and name == "N_"))
    assert not wrong, "import these from koikoi.i18n:\n" + "\n".join(wrong)


def test_the_check_sees_a_re_export():
    """The check itself: a scene importing ``_`` from the table package is found."""
    scene = ROOT / "ui" / "scenes" / "title.py"
    assert ("koikoi.i18n", "_") in _imported_from(scene)
    assert ("koikoi.ui.scenes", "MenuScene") in _imported_from(scene)    # from . import MenuScene
