"""No import cycle in koikoi/: every ``import`` of a project module, at module level or inside a
function, parsed with ``ast`` (nothing is imported to find them), is an arrow of one graph, and
that graph has no cycle.

An arrow goes to the module an import names (``from ..engine.rules import Rules`` is
koikoi.ui.scenes.x -> koikoi.engine.rules; ``from . import widgets`` -> the module widgets, if
it is one, else the package). Imports under ``if TYPE_CHECKING:`` never run, and those under
``if __name__ == "__main__":`` run only in the program's own ``__main__`` module (which nothing
imports back): both are left out.

The cycles that are left are broken here by ``ALLOWED``: arrows that may still close a
cycle, each with the file that has to drop it. The list only shrinks: an arrow in it that no
longer exists, or no longer closes a cycle, fails the test until it is taken out.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "koikoi"

# importer -> imported: the file that owns the arrow (and has to drop it)
ALLOWED: dict[tuple[str, str], str] = {
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _never_imported(node: ast.If) -> bool:
    """``if TYPE_CHECKING:`` or ``if __name__ == "__main__":``."""
    t = node.test
    if (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
            (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"):
        return True
    return (isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__"
            and len(t.comparators) == 1 and isinstance(t.comparators[0], ast.Constant)
            and t.comparators[0].value == "__main__")


def _imports(tree: ast.AST):
    """Every Import / ImportFrom node that runs when the module is imported (not under ``if
    TYPE_CHECKING:`` or ``if __name__ == "__main__":``), with whether it sits inside a function."""
    def walk(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _never_imported(child):
                for other in child.orelse:
                    yield from walk_one(other, in_function)
                continue
            yield from walk_one(child, in_function)

    def walk_one(child, in_function):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function
        yield from walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                  ast.Lambda)))
    yield from walk(tree, False)


@functools.cache
def import_graph() -> dict[str, dict[str, list[str]]]:
    """module -> {imported module: ["path:line (function)", ...]} for the project's own modules
    (read once per test run; the tests only read it)."""
    files = {module_name(p): p for p in ROOT.rglob("*.py")}
    packages = {m for m, p in files.items() if p.name == "__init__.py"}
    graph: dict[str, dict[str, list[str]]] = {m: {} for m in files}
    for mod, path in files.items():
        package = mod if mod in packages else mod.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, in_function in _imports(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                for a in node.names:
                    sub = f"{stem}.{a.name}"
                    targets.append(sub if sub in files else stem)
            for t in targets:
                while t and t not in files:           # ``import koikoi.x.y`` of a name inside x
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    where = f"{path.relative_to(ROOT.parent)}:{node.lineno}" + (" (in a function)" if in_function
                                                                               else "")
                    seen = graph[mod].setdefault(t, [])
                    if where not in seen:
                        seen.append(where)
    return graph


def cycles(graph: dict) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def describe(graph: dict, comp: list[str]) -> str:
    inside = set(comp)
    lines = [" <-> ".join(comp)]
    for m in comp:
        for t, where in sorted(graph[m].items()):
            if t in inside:
                lines.append(f"    {m} -> {t}  ({', '.join(where)})")
    return "\n".join(lines)


def without(graph: dict, arrows) -> dict:
    return {m: {t: w for t, w in ts.items() if (m, t) not in arrows} for m, ts in graph.items()}


def test_the_import_graph_is_read():
    graph = import_graph()
    assert "koikoi.engine.match" in graph and "koikoi.engine.state" in graph["koikoi.engine.match"]
    assert any(t.startswith("koikoi.engine") for t in graph["koikoi.ui.scenes.replay"])


def test_no_import_cycle_beyond_the_allowed_arrows():
    graph = import_graph()
    left = cycles(without(graph, ALLOWED))
    assert not left, "import cycles:\n" + "\n".join(describe(graph, c) for c in left)


def test_every_allowed_arrow_still_closes_a_cycle():
    """The allow-list only shrinks: an arrow that went, or no longer closes a cycle, comes out."""
    graph = import_graph()
    for arrow, owner in ALLOWED.items():
        m, t = arrow
        assert t in graph.get(m, {}), f"{m} -> {t} is gone: take it out of ALLOWED ({owner})"
        rest = without(graph, set(ALLOWED) - {arrow})
        assert any(m in c and t in c for c in cycles(rest)), \
            f"{m} -> {t} no longer closes a cycle: take it out of ALLOWED ({owner})"


def _reach(graph: dict, start: str) -> set:
    seen, todo = {start}, [start]
    while todo:
        for t in graph[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def _imports_pygame(module: str) -> bool:
    path = ROOT.parent / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any((isinstance(n, ast.Import) and any(a.name.split(".")[0] == "pygame" for a in n.names))
               or (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "pygame")
               for n, _ in _imports(tree))


def test_the_models_reach_no_ui_and_no_pygame():
    """The engine and the replay model import nothing of the UI, and nothing they import
    imports pygame (koikoi/replay.py left ui/scenes for this)."""
    graph = import_graph()
    for model in ["koikoi.replay", *(m for m in graph if m.startswith("koikoi.engine"))]:
        reached = _reach(graph, model)
        assert not [m for m in reached if m.startswith("koikoi.ui")], model
        assert not [m for m in reached if _imports_pygame(m)], model
    assert _imports_pygame("koikoi.ui.scenes.replay")


def test_cycles_are_found():
    graph = {"a": {"b": ["a.py:1"]}, "b": {"c": ["b.py:1"]}, "c": {"a": ["c.py:1 (in a function)"]}, "d": {"a": []}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles(without(graph, {("c", "a")})) == []
