"""The package's layers point one way (issue 17). Every ``codegraph`` import in the source, at module
level or inside a function, is read from the syntax tree; an import from a lower layer to a higher one,
or a cycle between modules of different layers, fails with the offending file and line.

Layers, lowest first (a module may import its own layer and those below):
  base   codegraph/{errors,paths,model,config,bounds,update_check,__init__}.py
  store  codegraph/store/      (the SQLite schema, reader, writer)
  index  codegraph/index/      (discovery, extraction, resolution, sync, the watcher, source on disk)
  query  codegraph/query/      (the operations)
  render codegraph/render.py   (text and JSON of results)
  entry  codegraph/mcp/, codegraph/cli/, codegraph/__main__.py (and the installer and hooks packages)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "codegraph"
ORDER = ["base", "store", "index", "query", "render", "entry"]


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if parts[0] != "codegraph":
        return "entry"  # codegraph_installer, codegraph_hooks
    head = parts[1] if len(parts) > 1 else ""
    return {
        "store": "store",
        "index": "index",
        "query": "query",
        "render": "render",
        "mcp": "entry",
        "cli": "entry",
        "__main__": "entry",
    }.get(head, "base")


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:`` (annotations only, never executed)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def _imports(path: Path) -> list[tuple[str, int]]:
    """(imported module, line) for every import of codegraph, codegraph_installer or codegraph_hooks
    that runs (at module level or inside a function; not those only a type checker reads)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found = []
    skip = _type_checking_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            # ``from codegraph.query import explore`` imports the module codegraph.query.explore
            found += [
                (f"{target}.{a.name}", node.lineno) for a in node.names if _is_module(f"{target}.{a.name}")
            ]
    return [
        (m, line)
        for m, line in found
        if m.split(".")[0] in ("codegraph", "codegraph_installer", "codegraph_hooks")
    ]


def _is_module(name: str) -> bool:
    parts = name.split(".")
    if parts[0] != "codegraph":
        return False
    rel = PACKAGE.parent.joinpath(*parts)
    return rel.with_suffix(".py").is_file() or (rel / "__init__.py").is_file()


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_layer_table_covers_every_module():
    assert SOURCES and {layer(_module(p)) for p in SOURCES} == set(ORDER)


def test_no_module_imports_from_a_higher_layer():
    upward = []
    for path in SOURCES:
        mine = ORDER.index(layer(_module(path)))
        for target, line in _imports(path):
            if ORDER.index(layer(target)) > mine:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target} ({layer(target)})")
    assert upward == []


def test_no_import_cycle_between_modules():
    graph: dict[str, set[str]] = {}
    for path in SOURCES:
        graph[_module(path)] = {t for t, _ in _imports(path) if _is_module(t)} - {_module(path)}
    cycles = _cycles(graph)
    assert cycles == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ],
)
def test_the_cycle_finder_finds_a_two_module_cycle_and_nothing_in_a_chain(graph, expected):
    assert _cycles(graph) == expected
