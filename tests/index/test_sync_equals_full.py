"""Incremental correctness: after any sequence of edits, adds, deletes and renames, `sync` produces
exactly the graph a fresh full index of the same files produces."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.conftest import FIXTURES

SNIPPETS = [
    "def helper():\n    return 1\n",
    "from shop.db.query import QuerySet\n\n\ndef make():\n    return QuerySet().filter(a=1)\n",
    "class Sitemap:\n    def items(self):\n        return helper()\n",
    "from shop.utils.tree import Node\n\n\nclass Leaf(Node):\n    def grow(self):\n        self.add(1, 'AND')\n",
    "def list_products(request):\n    return make()\n",
    "import shop.views as v\n\n\ndef again():\n    return v.list_products(None)\n",
]


def graph(root: Path) -> tuple[set, set, set]:
    with Reader(root) as r:
        nodes = {
            tuple(x)
            for x in r.conn.execute(
                "SELECT id, kind, name, qualified_name, file_path, start_line, end_line, signature FROM nodes"
            )
        }
        edges = {
            tuple(x) for x in r.conn.execute("SELECT source, target, kind, line, col, metadata FROM edges")
        }
        unresolved = {
            tuple(x)
            for x in r.conn.execute(
                "SELECT from_node_id, reference_name, reference_kind, line, col FROM unresolved_refs"
            )
        }
    return nodes, edges, unresolved


operation = st.one_of(
    st.tuples(st.just("edit"), st.integers(0, 20), st.integers(0, len(SNIPPETS) - 1)),
    st.tuples(st.just("add"), st.integers(0, 20), st.integers(0, len(SNIPPETS) - 1)),
    st.tuples(st.just("delete"), st.integers(0, 20), st.just(0)),
    st.tuples(st.just("rename"), st.integers(0, 20), st.integers(0, 1000)),
)


def apply(root: Path, op: tuple[str, int, int], counter: list[int]) -> None:
    files = sorted(p for p in root.rglob("*.py") if ".codegraph" not in p.parts)
    kind, pick, arg = op
    if kind == "add":
        counter[0] += 1
        (root / "shop" / f"new_{counter[0]}.py").write_text(SNIPPETS[arg])
        return
    if not files:
        return
    target = files[pick % len(files)]
    if kind == "edit":
        target.write_text(target.read_text() + "\n\n" + SNIPPETS[arg])
        st_ = target.stat()
        os.utime(target, ns=(st_.st_atime_ns, st_.st_mtime_ns + 1_000_000_000))
    elif kind == "delete":
        target.unlink()
    else:
        target.rename(target.with_name(f"moved_{arg}_{target.name}"))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.lists(operation, min_size=1, max_size=4), min_size=1, max_size=3))
def test_sync_after_random_changes_equals_a_fresh_full_index(steps):
    with tempfile.TemporaryDirectory() as tmp:
        live = Path(tmp) / "live"
        shutil.copytree(FIXTURES / "repos" / "python", live)
        paths = ProjectPaths(live.resolve())
        index_project(paths, workers=1)
        counter = [0]
        for batch in steps:
            for op in batch:
                apply(live, op, counter)
            index_project(paths, workers=1)
        fresh = Path(tmp) / "fresh"
        shutil.copytree(live, fresh, ignore=shutil.ignore_patterns(".codegraph"))
        # same relative paths, so ids match; a fresh index must equal the incrementally synced one
        index_project(ProjectPaths(fresh.resolve()), workers=1)
        assert graph(live) == graph(fresh)


def test_a_new_definition_takes_over_previously_unresolved_references(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.py").write_text("def caller():\n    return later_defined()\n")
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    with Reader(root) as r:
        assert (
            r.conn.execute(
                "SELECT COUNT(*) FROM unresolved_refs WHERE reference_name = 'later_defined'"
            ).fetchone()[0]
            == 1
        )
    (root / "b.py").write_text("def later_defined():\n    return 2\n")
    summary = index_project(paths, workers=1)
    assert summary.parsed == 1  # a.py was not re-parsed, yet its call now resolves
    with Reader(root) as r:
        rows = r.conn.execute(
            "SELECT s.name, t.file_path FROM edges e JOIN nodes s ON s.id = e.source "
            "JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls'"
        ).fetchall()
        assert [tuple(x) for x in rows] == [("caller", "b.py")]
    (root / "b.py").unlink()
    index_project(paths, workers=1)
    with Reader(root) as r:
        assert r.conn.execute("SELECT COUNT(*) FROM edges WHERE kind = 'calls'").fetchone()[0] == 0
        assert (
            r.conn.execute(
                "SELECT COUNT(*) FROM unresolved_refs WHERE reference_name = 'later_defined'"
            ).fetchone()[0]
            == 1
        )
