"""The resolver's shortcuts (issue 12: resolution CPU) give the answers the long way gives: the star-import
filter against the include-graph walk, the per-file answer memo against resolving every reference, and
the paused collector leaves the process as it found it. Real extraction of real files, real resolution."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from codegraph.index.extract import extract
from codegraph.index.indexer import index_project
from codegraph.index.languages import language_for, module_for
from codegraph.index.resolve import _Project, resolve
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "repos"


def extractions(root: Path) -> list:
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        hit = language_for(rel)
        if hit is not None:
            out.append(extract(rel, path.read_bytes(), hit[0]))
    return out


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def edge_rows(root: Path, kind: str) -> set[tuple[str, str, int]]:
    reader = Reader(root)
    try:
        rows = reader.conn.execute(
            "SELECT s.qualified_name, t.qualified_name, e.line FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
            (kind,),
        ).fetchall()
        return {tuple(r) for r in rows}
    finally:
        reader.close()


def unresolved_names(root: Path) -> list[str]:
    reader = Reader(root)
    try:
        return sorted(r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs"))
    finally:
        reader.close()


@pytest.mark.parametrize("label", ["c", "cpp", "objc", "zig", "typescript", "python"])
def test_star_import_filter_answers_every_name_as_the_include_walk_does(label):
    files = extractions(FIXTURES / label)
    names = sorted(
        {n.name for f in files for n in f.nodes} | {r.name.split(".")[0] for f in files for r in f.refs}
    )
    fast = _Project(files)
    slow = _Project(files)
    slow._holders_ready = False  # as before the filter: every lookup walks the star imports
    for f in files:
        for name in names:
            assert fast.export_of(f.path, name) == slow.export_of(f.path, name), (f.path, name)


def test_a_name_only_headers_nobody_includes_declare_stays_unresolved(tmp_path):
    # main.c includes a.h, a.h includes b.h, which defines deep(); lonely() is defined by two headers
    # no file includes, so neither the includes nor the one-definition fallback can choose
    write(
        tmp_path,
        {
            "main.c": '#include "a.h"\nint main(void) { deep(1); lonely(); return 0; }\n',
            "a.h": '#include "b.h"\n',
            "b.h": "static inline int deep(int x) { return x; }\n",
            "x.h": "static inline void lonely(void) {}\n",
            "y.h": "static inline void lonely(void) {}\n",
        },
    )
    index_project(ProjectPaths(tmp_path), workers=1)
    assert ("main", "deep", 2) in edge_rows(tmp_path, "calls")
    assert "lonely" in unresolved_names(tmp_path)


def test_repeated_identical_calls_each_get_their_edge_at_their_line(tmp_path):
    # the per-file memo answers the second and third run() once, but every call site keeps its row
    write(
        tmp_path,
        {
            "jobs.py": "def run():\n    pass\n\n\ndef main():\n    run()\n    run()\n    missing()\n    missing()\n",
        },
    )
    index_project(ProjectPaths(tmp_path), workers=1)
    assert {(s, t, line) for s, t, line in edge_rows(tmp_path, "calls") if s == "main"} == {
        ("main", "run", 6),
        ("main", "run", 7),
    }
    assert unresolved_names(tmp_path).count("missing") == 2


def test_languages_whose_answer_depends_on_the_line_are_not_memoised():
    # PHP: what a variable holds depends on the line (instanceof narrowing, reassignment); Ruby too
    assert module_for("php").resolves_by_position
    assert module_for("ruby").resolves_by_position
    assert not module_for("python").resolves_by_position


def test_the_memo_gives_the_same_resolution_as_resolving_every_reference(monkeypatch):
    files = extractions(FIXTURES / "python") + extractions(FIXTURES / "go")
    fast = resolve(files)
    monkeypatch.setattr(type(module_for("python")), "resolves_by_position", True)
    monkeypatch.setattr(type(module_for("go")), "resolves_by_position", True)
    slow = resolve(files)
    assert fast.edges == slow.edges
    assert fast.unresolved == slow.unresolved
    assert fast.per_file == slow.per_file


def test_a_folded_resolution_streamed_to_a_sink_equals_the_held_one():
    # a big first index (issue 12) hands its files' locals/returns/closures over to the tables, and
    # drops each file's memoised answers and seen edges once its edges left for the sink
    labels = ("python", "typescript", "go", "java")
    held = resolve([fx for label in labels for fx in extractions(FIXTURES / label)])
    files = [fx for label in labels for fx in extractions(FIXTURES / label)]
    assert any(fx.locals for fx in files) and any(fx.returns for fx in files)
    edges, unresolved = [], []
    streamed = resolve(files, sink=lambda e, u: (edges.extend(e), unresolved.extend(u)), fold=True)
    assert not any(fx.locals or fx.returns or fx.closures for fx in files)
    assert streamed.edges == streamed.unresolved == []
    assert edges == held.edges
    assert unresolved == held.unresolved
    assert streamed.per_file == held.per_file


def test_a_functions_local_names_shadow_whether_few_or_many(tmp_path):
    # the tables keep a function's local names in a tuple, past LOCALS_TUPLE_MAX in a frozenset
    few = "\n".join(f"    v{i} = {i}" for i in range(2))
    many = "\n".join(f"    v{i} = {i}" for i in range(20))
    defs = "".join(f"def v{i}():\n    pass\n\n" for i in range(20))
    write(
        tmp_path,
        {
            "m.py": f"{defs}def few():\n{few}\n    v1()\n    v5()\n\ndef many():\n{many}\n    v1()\n    v15()\n"
        },
    )
    index_project(ProjectPaths(tmp_path))
    calls = {(src, dst) for src, dst, _ in edge_rows(tmp_path, "calls")}
    assert calls == {("few", "v5")}


@pytest.mark.parametrize("enabled", [True, False])
def test_resolution_leaves_the_garbage_collector_as_it_found_it(enabled):
    files = extractions(FIXTURES / "python")
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        resolve(files)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_resolution_leaves_no_cyclic_garbage():
    # the collector is paused while resolving: what it would have found must be nothing
    files = extractions(FIXTURES / "python") + extractions(FIXTURES / "c")
    gc.collect()
    resolve(files)
    assert gc.collect() == 0
