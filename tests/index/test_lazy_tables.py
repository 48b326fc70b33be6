"""Lazily filled resolver tables (issue 12, ``codegraph.index.lazy``): an incremental sync that fills
its tables as lookups reach files writes exactly the rows a sync with the eager tables writes, after
random edits, adds, deletes and renames, on the fixture repos of the languages that allow it and on a
generated monorepo."""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.index import indexer
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.conftest import FIXTURES
from tests.index import test_sync_equals_full as sync_equals_full

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"

SNIPPETS = {
    ".py": [
        "def lonely_probe():\n    return 0\n",
        "def helper():\n    return 1\n",
        "class Base:\n    def run(self):\n        return helper()\n",
        "class Child(Base):\n    def go(self):\n        return self.run()\n",
        "from shop.views import list_products\n\n\ndef again():\n    return list_products(None)\n",
    ],
    ".ts": [
        "export function lonelyProbe() { return 0; }\n",
        "export function helper() { return 1; }\n",
        "export class Base { run() { return helper(); } }\n",
        "export class Child extends Base { go() { return this.run(); } }\n",
    ],
    ".js": [
        "export function helper() { return 1; }\n",
        "function Shape() {}\nShape.prototype.area = function () { return helper(); };\n",
    ],
    ".c": [
        "int lonely_probe(void) { return 0; }\n",
        "unsigned long kv_hash(const char *key);\n",
        "static int mix(int a, int b) { return a - b; }\n",
        'int use_hash(void) { return (int)kv_hash("x") + lonely_probe(); }\n',
        "size_t kv_bucket(const char *key, size_t nbuckets) { return 0; }\n",
    ],
    ".h": [
        "int lonely_probe(void);\n",
        "unsigned long kv_hash(const char *key);\n",
        "struct probe_pair { int a; int b; };\n",
    ],
}


def rows(root: Path) -> dict[str, list[tuple]]:
    """Every row of every table a sync writes (nodes, edges, unresolved references, files, metadata and
    the cgpy_ tables), sorted, without the columns that hold the time of writing."""
    conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'nodes_fts%' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        out: dict[str, list[tuple]] = {}
        for table in tables:
            columns = [c[1] for c in conn.execute(f"PRAGMA table_info({table})") if not c[1].endswith("_at")]
            out[table] = sorted(
                conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall(), key=repr
            )
        out["nodes_fts"] = sorted(conn.execute("SELECT * FROM nodes_fts").fetchall(), key=repr)
        return out
    finally:
        conn.close()


def mirror(source: Path, target: Path) -> None:
    """Make ``target``'s files those of ``source``, with the same bytes, sizes and mtimes."""
    wanted = {p.relative_to(source) for p in source.rglob("*") if p.is_file() and ".codegraph" not in p.parts}
    for p in list(target.rglob("*")):
        if p.is_file() and ".codegraph" not in p.parts and p.relative_to(target) not in wanted:
            p.unlink()
    for rel in wanted:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / rel, target / rel)


def apply(root: Path, op: tuple[str, int, int], counter: list[int], suffix: str) -> None:
    """An edit, delete or rename as the sync == full property test makes it; an add writes a new file
    of one snippet beside a picked one (not a copy: the monorepo's packages are many small files)."""
    files = sorted(p for p in root.rglob(f"*{suffix}") if ".codegraph" not in p.parts)
    kind, pick, arg = op
    snippets = SNIPPETS[suffix]
    if kind == "add" or not files:
        counter[0] += 1
        home = files[pick % len(files)].parent if files else root
        (home / f"new_{counter[0]}{suffix}").write_text(snippets[arg % len(snippets)])
        return
    sync_equals_full.apply(root, op, counter, suffix, snippets)


operation = st.one_of(
    st.tuples(st.just("edit"), st.integers(0, 400), st.integers(0, 5)),
    st.tuples(st.just("add"), st.integers(0, 400), st.integers(0, 5)),
    st.tuples(st.just("delete"), st.integers(0, 400), st.just(0)),
    st.tuples(st.just("rename"), st.integers(0, 400), st.integers(0, 1000)),
)


def _monorepo(out: Path) -> None:
    spec = importlib.util.spec_from_file_location("monorepo", BENCH / "monorepo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.generate(out, files=60, seed=5, per_package=10)


def _fixture(name: str):
    return lambda out: shutil.copytree(FIXTURES / "repos" / name, out)


# a language without lazy_resolution beside lazy ones: its files are filled up front (the kernel's
# 35 C++ files among 55,000 C files; a Python project's shell scripts)
MIXED = {
    "c+cpp": (
        "c",
        {
            "lib/extra.cpp": '#include "../src/hash.h"\n'
            "namespace kv { int twice(int x) { return x * 2; }\n"
            'int hashed() { return (int)kv_hash("k") + twice(1); } }\n',
            "lib/extra.hpp": "namespace kv { int twice(int x); }\n",
        },
    ),
    # an impl written away from its type (``cgpy_owner_bases``): Rust's bases are all worked out
    # when the bases open
    "python+rust": (
        "python",
        {
            "rust/Cargo.toml": '[package]\nname = "shapes"\nversion = "0.1.0"\n',
            "rust/src/lib.rs": "pub mod shape;\npub mod impls;\n",
            "rust/src/shape.rs": "pub struct Circle { pub r: f64 }\n"
            "pub trait Area { fn area(&self) -> f64 { 0.0 } }\n",
            "rust/src/impls.rs": "use crate::shape::{Area, Circle};\nimpl Area for Circle {}\n"
            "pub fn total(c: &Circle) -> f64 { c.area() }\n",
        },
    ),
    "python+bash": (
        "python",
        {
            "scripts/run.sh": "helper() {\n  echo hi\n}\nmain() {\n  helper\n}\nmain\n",
            "scripts/other.sh": "source ./run.sh\nhelper\n",
        },
    ),
}


def _mixed(name: str):
    fixture, extra = MIXED[name]

    def make(out: Path) -> None:
        shutil.copytree(FIXTURES / "repos" / fixture, out)
        for rel, text in extra.items():
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_text(text)

    return make


PROJECTS = {
    "python": (_fixture("python"), ".py"),
    "typescript": (_fixture("typescript"), ".ts"),
    "javascript": (_fixture("javascript"), ".js"),
    "monorepo-py": (_monorepo, ".py"),
    "monorepo-ts": (_monorepo, ".ts"),
    "c": (_fixture("c"), ".c"),
    "c-headers": (_fixture("c"), ".h"),
    "c+cpp": (_mixed("c+cpp"), ".c"),
    "python+bash": (_mixed("python+bash"), ".py"),
    "python+rust": (_mixed("python+rust"), ".py"),
}


@pytest.mark.parametrize("project", sorted(PROJECTS))
def test_a_sync_with_lazy_tables_writes_the_rows_of_one_with_eager_tables(project, monkeypatch):
    make, suffix = PROJECTS[project]
    paths_taken: Counter = Counter()

    @settings(
        max_examples=8,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(steps=st.lists(st.lists(operation, min_size=1, max_size=3), min_size=1, max_size=3))
    def check(steps):
        with tempfile.TemporaryDirectory() as tmp:
            lazy, eager = Path(tmp) / "lazy", Path(tmp) / "eager"
            make(lazy)
            eager.mkdir()
            mirror(lazy, eager)
            index_project(ProjectPaths(lazy.resolve()), workers=1)
            index_project(ProjectPaths(eager.resolve()), workers=1)
            counter = [0]
            for batch in steps:
                for op in batch:
                    apply(lazy, op, counter, suffix)
                mirror(lazy, eager)
                done = index_project(ProjectPaths(lazy.resolve()), workers=1)
                paths_taken[done.tables.get("path"), done.tables.get("reason")] += 1
                with monkeypatch.context() as m:
                    m.setattr(indexer, "LAZY_TABLES", False)
                    index_project(ProjectPaths(eager.resolve()), workers=1)
                assert rows(lazy) == rows(eager), (steps, done.tables, done.resolution)

    check()
    assert any(path == "lazy" for path, _ in paths_taken), (
        paths_taken
    )  # the lazy path ran, not only the eager one


def test_sync_json_says_the_lazy_tables_ran_and_why_not_when_they_did_not(tmp_path, monkeypatch):
    shutil.copytree(FIXTURES / "repos" / "python", tmp_path / "p")
    paths = ProjectPaths((tmp_path / "p").resolve())
    first = index_project(paths, workers=1)
    assert first.tables == {"path": "eager", "reason": "a first index"}
    target = sorted((tmp_path / "p").rglob("*.py"))[0]
    target.write_text(target.read_text() + "\n\ndef probe_one():\n    return 1\n")
    assert index_project(paths, workers=1).tables == {"path": "lazy"}
    target.write_text(target.read_text() + "\n\ndef probe_two():\n    return 2\n")
    monkeypatch.setattr(indexer, "LAZY_TABLES", False)
    assert index_project(paths, workers=1).tables == {"path": "eager", "reason": "lazy tables are off"}


def test_a_language_without_lazy_resolution_keeps_the_eager_tables(tmp_path):
    shutil.copytree(FIXTURES / "repos" / "go", tmp_path / "g")
    paths = ProjectPaths((tmp_path / "g").resolve())
    index_project(paths, workers=1)
    target = sorted((tmp_path / "g").rglob("*.go"))[0]
    target.write_text(target.read_text() + "\n\nfunc ProbeOne() int { return 1 }\n")
    summary = index_project(paths, workers=1)
    assert summary.tables["path"] == "eager" and "resolve only eagerly" in summary.tables["reason"]


def test_an_index_without_recorded_owner_files_syncs_eagerly_once_then_lazily(tmp_path):
    shutil.copytree(FIXTURES / "repos" / "python", tmp_path / "p")
    paths = ProjectPaths((tmp_path / "p").resolve())
    index_project(paths, workers=1)
    conn = sqlite3.connect(paths.db)
    conn.execute("DELETE FROM project_metadata WHERE key = 'cgpy_owner_files'")
    conn.commit()
    conn.close()
    target = sorted((tmp_path / "p").rglob("*.py"))[0]
    target.write_text(target.read_text() + "\n\ndef probe_one():\n    return 1\n")
    assert index_project(paths, workers=1).tables == {
        "path": "eager",
        "reason": "the index does not record which files have owners",
    }
    target.write_text(target.read_text() + "\n\ndef probe_two():\n    return 2\n")
    assert index_project(paths, workers=1).tables == {"path": "lazy"}


SCRIPTED = {
    "python": [
        {
            "shop/lz_a.py": "def solo_target():\n    return 1\n\n\nclass Base:\n    def run(self):\n        return 1\n"
        },
        # a bare name no import binds: the one definition of it in the project (lz_a.py, not yet read)
        {"shop/lz_b.py": "def caller():\n    return solo_target()\n"},
        # a base class in a file this sync does not re-resolve, its method reached through self
        {
            "shop/lz_c.py": "from shop.lz_a import Base\n\n\nclass Kid(Base):\n"
            "    def go(self):\n        return self.run()\n"
        },
        # an inherited method through a class whose file is not re-resolved (another folder: every
        # file mentions its own folder's name), its bases read lazily
        {"extra/lz_d.py": "from shop.lz_c import Kid\n\n\ndef use():\n    k = Kid()\n    return k.run()\n"},
        # the same facts again: only this file is re-resolved, Kid's file and its bases are not
        {"extra/lz_d.py": "from shop.lz_c import Kid\n\n\ndef use():\n    k = Kid()\n    return k.run()\n\n"},
        {
            "shop/lz_a.py": "def solo_target():\n    return 22\n\n\n"
            "class Base:\n    def run(self):\n        return 22\n"
        },
    ],
    "typescript": [
        {
            "src/lz_a.ts": "export class Base { run() { return 1; } }\nexport function soloTarget() { return 1; }\n"
        },
        {
            "src/lz_b.ts": "import { Base } from './lz_a';\n"
            "export class Kid extends Base { go() { return this.run(); } }\n"
        },
        {
            "other/lz_c.ts": "import { Kid } from '../src/lz_b';\nexport function use() { return new Kid().run(); }\n"
        },
        {
            "other/lz_c.ts": "import { Kid } from '../src/lz_b';\nexport function use() { return new Kid().run(); }\n\n"
        },
    ],
    "c": [
        # a prototype in a header this sync does not read, its definition in a .c file it does not
        # read either: found by its qualified name
        {"src/lz_b.c": '#include "hash.h"\nint lz_caller(void) { return (int)kv_hash("k"); }\n'},
        # a second definition of the prototype's name, in no file paired with the header
        {"tests/lz_c.c": "unsigned long kv_hash(const char *key) { return 0; }\n"},
        {"src/lz_b.c": '#include "hash.h"\nint lz_caller(void) { return (int)kv_hash("k") + 1; }\n'},
        # a file-local (static) function of another file is no candidate
        {
            "src/lz_d.c": '#include "hash.h"\nint lz_other(void) { return mix(1, 2) + (int)kv_bucket("a", 2); }\n'
        },
    ],
    "javascript": [
        {"lz_a.js": "function Shape() {}\nShape.prototype.area = function () { return 1; };\n"},
        {"lz_b.js": "function Shape2() {}\nShape2.prototype.area = function () { return soloArea(); };\n"},
        {"lz_c.js": "function soloArea() { return 2; }\n"},
        # a member written away from its type, the type in a file this sync does not read in full
        {"lz_a.js": "export function Shape() {}\nShape.prototype.area = function () { return 1; };\n"},
        {
            "other/lz_d.js": "import { Shape } from '../lz_a';\n"
            "Shape.prototype.perimeter = function () { return 2; };\n"
        },
        {
            "other/lz_d.js": "import { Shape } from '../lz_a';\n"
            "Shape.prototype.perimeter = function () { return 22; };\n"
        },
    ],
}


# files the scripted edits change, there before the first index: adding or dropping an #include makes
# the next sync a full resolution (a star import changed)
SCRIPTED_SETUP = {
    "c": {
        "src/lz_b.c": '#include "hash.h"\nint lz_caller(void) { return 0; }\n',
        "src/lz_d.c": '#include "hash.h"\nint lz_other(void) { return 0; }\n',
    },
}


@pytest.mark.parametrize("language", sorted(SCRIPTED))
def test_lazy_tables_answer_unique_names_bases_and_owners_in_unread_files_as_eager_ones(
    language, tmp_path, monkeypatch
):
    lazy, eager = tmp_path / "lazy", tmp_path / "eager"
    shutil.copytree(FIXTURES / "repos" / language, lazy)
    for rel, text in SCRIPTED_SETUP.get(language, {}).items():
        (lazy / rel).write_text(text)
    eager.mkdir()
    mirror(lazy, eager)
    index_project(ProjectPaths(lazy.resolve()), workers=1)
    index_project(ProjectPaths(eager.resolve()), workers=1)
    for step in SCRIPTED[language]:
        for rel, text in step.items():
            (lazy / rel).parent.mkdir(parents=True, exist_ok=True)
            (lazy / rel).write_text(text)
        mirror(lazy, eager)
        done = index_project(ProjectPaths(lazy.resolve()), workers=1)
        assert done.tables == {"path": "lazy"}, done.tables
        with monkeypatch.context() as m:
            m.setattr(indexer, "LAZY_TABLES", False)
            index_project(ProjectPaths(eager.resolve()), workers=1)
        assert rows(lazy) == rows(eager), step


def test_an_impl_away_from_its_type_keeps_a_sync_lazy_unless_its_language_is_re_resolved(tmp_path):
    root = tmp_path / "p"
    _mixed("python+rust")(root)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    target = sorted(root.rglob("*.py"))[0]
    target.write_text(target.read_text() + "\n\ndef probe_one():\n    return 1\n")
    assert index_project(paths, workers=1).tables == {"path": "lazy"}
    impls = root / "rust" / "src" / "impls.rs"
    impls.write_text(impls.read_text() + "\npub fn probe_two() -> i32 { 2 }\n")
    done = index_project(paths, workers=1)
    assert done.tables == {
        "path": "eager",
        "reason": "rust/src/impls.rs: an extends written away from its type",
    }


def test_a_project_mostly_of_languages_without_lazy_resolution_stays_eager(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "repos" / "go", root)
    (root / "tool.py").write_text("def probe():\n    return 1\n")  # one lazy file beside the Go ones
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    (root / "tool.py").write_text("def probe():\n    return 2\n")
    done = index_project(paths, workers=1)
    assert done.tables["path"] == "eager" and "go resolve only eagerly" in done.tables["reason"]
