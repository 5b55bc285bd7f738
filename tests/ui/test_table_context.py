"""The table's parts read the table through one ``TableContext``, never through the scene:
no module of ``koikoi/ui/table/`` names the round scene or reads a ``.scene`` attribute, and
a lesson or a puzzle changes the table through its ``TablePolicy``, not by overriding the
hooks the parts call."""

from __future__ import annotations

import ast
from pathlib import Path

from harness import make_app  # noqa: F401  (the tests' pygame set-up)

from koikoi.ui.scenes.lesson import LessonPolicy, LessonScene
from koikoi.ui.scenes.puzzle import PuzzlePolicy, PuzzleScene
from koikoi.ui.scenes.round import RoundScene
from koikoi.ui.table.context import TablePolicy

TABLE = Path(__file__).resolve().parents[2] / "koikoi" / "ui" / "table"


def test_no_part_of_the_table_reaches_into_the_scene():
    found = []
    for path in sorted(TABLE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "scene":
                found.append(f"{path.name}:{node.lineno} .scene")
            if isinstance(node, ast.ImportFrom) and "scenes" in (node.module or "").split("."):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
    assert found == []


def test_lessons_and_puzzles_vary_the_table_by_policy_not_by_hooks():
    hooks = ("gate_pick", "highlighted", "prompt_options", "shows_turn_log", "practice")
    for scene in (LessonScene, PuzzleScene):
        assert [h for h in hooks if h in vars(scene)] == [], scene.__name__
    for policy in (LessonPolicy, PuzzlePolicy):
        assert issubclass(policy, TablePolicy)
    assert "policy" in RoundScene.__init__.__code__.co_varnames
