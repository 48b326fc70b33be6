"""Incremental resolution (issue 12): after each change a sync re-resolves only the files whose
references can answer differently, and its graph is exactly the one a fresh full index of the same
files builds — per language, through the hooks that widen lookups (a Go package, Java/C# classes
across files, Ruby classes reopened in several files, PHP namespaces, TS re-export barrels)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codegraph.index import incremental
from codegraph.index.indexer import index_project
from codegraph.model import FileExtraction, Node
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader


def full_graph(root: Path) -> dict[str, set]:
    """Every row an index holds that resolution decides, without row ids."""
    with Reader(root) as r:
        q = r.conn.execute
        return {
            "nodes": {tuple(x) for x in q("SELECT * FROM nodes")}
            and {
                tuple(x[:-1])
                for x in q("SELECT * FROM nodes")  # without updated_at
            },
            "edges": {
                tuple(x) for x in q("SELECT source, target, kind, metadata, line, col, provenance FROM edges")
            },
            "unresolved": {
                tuple(x)
                for x in q(
                    "SELECT from_node_id, reference_name, reference_kind, line, col, candidates, file_path, "
                    "language, status, name_tail FROM unresolved_refs"
                )
            },
            "counts": {
                tuple(x) for x in q("SELECT value FROM project_metadata WHERE key = 'cgpy_unresolved'")
            },
            "resolved": {tuple(x) for x in q("SELECT * FROM cgpy_resolved")},
            "fts": {tuple(x) for x in q("SELECT id, name FROM nodes_fts")},
        }


def fresh_graph(live: Path, tmp: Path) -> dict[str, set]:
    fresh = tmp / "fresh"
    if fresh.exists():
        shutil.rmtree(fresh)
    shutil.copytree(live, fresh, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(fresh.resolve()), workers=1)
    return full_graph(fresh)


def write(root: Path, files: dict[str, str | None]) -> None:
    for rel, text in files.items():
        path = root / rel
        if text is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        old = path.stat().st_mtime_ns if existed else 0
        path.write_text(text)
        if existed and path.stat().st_mtime_ns == old:  # same-size rewrite within the clock tick
            import os

            os.utime(path, ns=(old + 1_000_000_000, old + 1_000_000_000))


def run_steps(tmp_path: Path, start: dict[str, str], steps: list[tuple[dict, str]]) -> list[dict]:
    """Index ``start``, then apply each step's changes and sync; each sync must run the expected
    resolution ("incremental" or "full") and equal a fresh full index. Returns the summaries."""
    live = tmp_path / "live"
    live.mkdir()
    write(live, start)
    paths = ProjectPaths(live.resolve())
    index_project(paths, workers=1)
    summaries = []
    for changes, mode in steps:
        write(live, changes)
        summary = index_project(paths, workers=1)
        assert summary.resolution["mode"] == mode, (changes, summary.resolution)
        assert full_graph(live) == fresh_graph(live, tmp_path), changes
        summaries.append(summary.resolution)
    return summaries


def edge_names(root: Path, kind: str) -> set[tuple[str, str, str]]:
    with Reader(root) as r:
        return {
            tuple(x)
            for x in r.conn.execute(
                "SELECT s.name, t.name, t.file_path FROM edges e JOIN nodes s ON s.id = e.source "
                "JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
                (kind,),
            )
        }


PY = {
    "app/__init__.py": "",
    "app/base.py": "class Base:\n    def save(self):\n        return 1\n",
    "app/leaf.py": (
        "from app.base import Base\n\n\nclass Leaf(Base):\n    def grow(self):\n        return self.save()\n"
    ),
    "app/use.py": "from app.leaf import Leaf\n\n\ndef run():\n    return Leaf().save()\n",
    "app/other.py": "def unrelated():\n    return 2\n",
}


def test_python_base_class_rename_reaches_subclasses_and_their_users(tmp_path):
    # read from the code: Leaf(Base) finds save through Base; run() calls Leaf().save -> Base.save
    out = run_steps(
        tmp_path,
        PY,
        [
            ({"app/base.py": "class Root:\n    def save(self):\n        return 1\n"}, "incremental"),
            ({"app/base.py": "class Base:\n    def save(self):\n        return 1\n"}, "incremental"),
            ({"app/leaf.py": PY["app/leaf.py"] + "\n    def save(self):\n        return 3\n"}, "incremental"),
        ],
    )
    assert all(o["files"] < len(PY) for o in out)  # other.py never needed re-resolving
    live = tmp_path / "live"
    assert ("run", "save", "app/leaf.py") in edge_names(live, "calls")


def test_python_a_file_that_starts_and_stops_defining_a_called_name(tmp_path):
    start = {
        "a.py": "def caller():\n    return later()\n",
        "b.py": "def other():\n    return 1\n",
        "c.py": "def third():\n    return 3\n",
    }
    out = run_steps(
        tmp_path,
        start,
        [
            ({"b.py": "def other():\n    return 1\n\n\ndef later():\n    return 2\n"}, "incremental"),
            ({"b.py": "def other():\n    return 1\n"}, "incremental"),
            ({"d.py": "def later():\n    return 4\n"}, "incremental"),
            ({"d.py": None}, "incremental"),
        ],
    )
    assert out[0]["files"] == 2  # b.py and a.py, which calls the new name; not c.py


def test_python_an_appended_comment_re_resolves_only_its_file(tmp_path):
    out = run_steps(tmp_path, PY, [({"app/base.py": PY["app/base.py"] + "# edited\n"}, "incremental")])
    assert out[0]["files"] == 1


def test_python_renaming_a_re_exported_name(tmp_path):
    start = {
        "pkg/__init__.py": "from pkg.impl import helper as exported\n",
        "pkg/impl.py": "def helper():\n    return 1\n",
        "use.py": "from pkg import exported\n\n\ndef run():\n    return exported()\n",
        "lone.py": "def lone():\n    return 0\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            ({"pkg/impl.py": "def helper2():\n    return 1\n"}, "incremental"),
            ({"pkg/impl.py": "def helper():\n    return 1\n"}, "incremental"),
            ({"pkg/__init__.py": "from pkg.impl import helper as renamed\n"}, "incremental"),
        ],
    )


def test_go_same_package_calls_and_methods_written_away_from_their_type(tmp_path):
    start = {
        "go.mod": "module example.com/m\n",
        "pkg/a.go": "package pkg\n\nfunc Helper() int { return 1 }\n",
        "pkg/b.go": "package pkg\n\nfunc Use() int { return Helper() }\n",
        "pkg/t.go": "package pkg\n\ntype T struct{}\n",
        "pkg/m.go": "package pkg\n\nfunc (t *T) Run() int { return 1 }\n",
        "pkg/u.go": "package pkg\n\nfunc X() int {\n\tt := &T{}\n\treturn t.Run()\n}\n",
        "main.go": 'package main\n\nimport "example.com/m/pkg"\n\nfunc main() { pkg.Use() }\n',
        "other/o.go": "package other\n\nfunc Lone() int { return 0 }\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            ({"pkg/a.go": "package pkg\n\nfunc Helper2() int { return 1 }\n"}, "incremental"),
            ({"pkg/c.go": "package pkg\n\nfunc Helper() int { return 3 }\n"}, "incremental"),
            ({"pkg/t.go": "package pkg\n\ntype T2 struct{}\n"}, "incremental"),
            ({"pkg/t.go": "package pkg\n\ntype T struct{}\n"}, "incremental"),
            ({"pkg/m.go": None}, "incremental"),
            # a file of another package in pkg/ changes what the module-path vote sees: all re-resolved
            ({"pkg/c.go": "package other\n\nfunc Helper() int { return 3 }\n"}, "full"),
            ({"pkg/c.go": None}, "full"),
            # an import path no other file has may change the inferred module path of every import
            (
                {
                    "pkg/b.go": 'package pkg\n\nimport "example.com/m/other"\n\nfunc Use() int { return Helper() }\n'
                },
                "full",
            ),
            ({"pkg/b.go": "package pkg\n\nfunc Use() int { return Helper2() }\n"}, "full"),
            ({"pkg/b.go": "package pkg\n\nfunc Use() int { return Helper() }\n"}, "incremental"),
        ],
    )
    assert ("Use", "Helper", "pkg/a.go") not in edge_names(tmp_path / "live", "calls")


def test_java_classes_across_files(tmp_path):
    start = {
        "src/a/Base.java": "package a;\n\npublic class Base {\n    public void run() {}\n}\n",
        "src/a/Sub.java": "package a;\n\npublic class Sub extends Base {\n    void go() { run(); }\n}\n",
        "src/b/Main.java": "package b;\n\nimport a.Sub;\n\nclass Main {\n    void m() { new Sub().run(); }\n}\n",
        "src/c/Lone.java": "package c;\n\nclass Lone {\n    void z() {}\n}\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            (
                {"src/a/Base.java": "package a;\n\npublic class Base2 {\n    public void run() {}\n}\n"},
                "incremental",
            ),
            ({"src/a/Base.java": start["src/a/Base.java"]}, "incremental"),
            (
                {
                    "src/a/Sub.java": "package a;\n\npublic class Sub extends Base {\n    void go() { run(); }\n"
                    "    public void run() {}\n}\n"
                },
                "incremental",
            ),
        ],
    )


def test_csharp_classes_across_files_in_one_namespace(tmp_path):
    start = {
        "A.cs": "namespace N {\n    public class Base {\n        public void Run() {}\n    }\n}\n",
        "B.cs": "namespace N {\n    public class Sub : Base {\n        void Go() { Run(); }\n    }\n}\n",
        "C.cs": "using N;\n\nclass M {\n    void X() {\n        var s = new Sub();\n        s.Run();\n    }\n}\n",
        "D.cs": "namespace Other {\n    class Lone {\n        void Z() {}\n    }\n}\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            (
                {"A.cs": "namespace N {\n    public class Base {\n        public void Walk() {}\n    }\n}\n"},
                "incremental",
            ),
            ({"A.cs": start["A.cs"]}, "incremental"),
            ({"B.cs": start["B.cs"].replace("void Go", "public void Go")}, "incremental"),
            # C.cs's ``using N`` (a star import) reads a namespace whose files change: all re-resolved
            ({"A.cs": start["A.cs"].replace("namespace N", "namespace N2")}, "full"),
        ],
    )


def test_ruby_reopened_classes(tmp_path):
    start = {
        "a.rb": "class Foo\n  def bar\n    1\n  end\nend\n",
        "b.rb": "class Foo\n  def baz\n    bar\n  end\nend\n",
        "c.rb": "require_relative 'a'\n\ndef go\n  Foo.new.baz\nend\n",
        "d.rb": "def lone\n  0\nend\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            ({"a.rb": "class Foo\n  def other\n    1\n  end\nend\n"}, "incremental"),
            (
                {"b.rb": "class Foo\n  def baz\n    bar\n  end\n\n  def bar\n    2\n  end\nend\n"},
                "incremental",
            ),
            ({"a.rb": start["a.rb"]}, "incremental"),
        ],
    )


def test_php_namespaces(tmp_path):
    start = {
        "src/Base.php": "<?php\nnamespace App;\n\nclass Base {\n    function run() {}\n}\n",
        "src/Child.php": "<?php\nnamespace App\\Sub;\n\nuse App\\Base;\n\nclass Child extends Base {\n"
        "    function go() { $this->run(); }\n}\n",
        "src/Lone.php": "<?php\nnamespace Other;\n\nfunction lone() {}\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            (
                {"src/Base.php": start["src/Base.php"].replace("namespace App;", "namespace App2;")},
                "incremental",
            ),
            ({"src/Base.php": start["src/Base.php"]}, "incremental"),
            ({"src/Base.php": start["src/Base.php"].replace("function run", "function walk")}, "incremental"),
        ],
    )


def test_rust_a_crate_that_appears_and_disappears(tmp_path):
    # read from the code: b's ``use util_kit::helper`` names crate util_kit, the folder above its src/
    start = {
        "util-kit/src/lib.rs": "pub fn helper() -> i32 {\n    1\n}\n",
        "app/src/main.rs": "use util_kit::helper;\n\nfn main() {\n    helper();\n}\n",
        "lone/src/lib.rs": "pub fn lone() -> i32 {\n    0\n}\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            ({"util-kit/src/lib.rs": None}, "incremental"),
            ({"util-kit/src/lib.rs": start["util-kit/src/lib.rs"]}, "incremental"),
        ],
    )
    assert ("main", "helper", "util-kit/src/lib.rs") in edge_names(tmp_path / "live", "calls")


def test_rust_a_crate_named_by_its_cargo_toml_that_appears_and_disappears(tmp_path):
    # read from the code and the manifests: crates/util-dir/Cargo.toml names the crate fancy-util, so
    # the example's ``use fancy_util;`` imports its lib.rs, by a name neither a path nor a definition
    # spells. The crate root coming and going re-resolves the files mentioning the crate's names (the
    # example), not tools/build.rs, which mentions none (no file here but the root sits under a src/)
    start = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/util-dir"]\n',
        "crates/util-dir/Cargo.toml": '[package]\nname = "fancy-util"\nversion = "0.1.0"\n',
        "crates/util-dir/src/lib.rs": "pub fn go() -> i32 {\n    1\n}\n",
        "examples/demo.rs": "use fancy_util;\n\nfn main() {}\n",
        "tools/build.rs": "fn main() {\n    helper();\n}\n\nfn helper() {}\n",
    }
    gone, back = run_steps(
        tmp_path,
        start,
        [
            ({"crates/util-dir/src/lib.rs": None}, "incremental"),
            ({"crates/util-dir/src/lib.rs": start["crates/util-dir/src/lib.rs"]}, "incremental"),
        ],
    )
    assert gone["files"] == 1 and back["files"] == 2  # examples/demo.rs (and the root that came back)
    imports = edge_names(tmp_path / "live", "imports")
    assert ("demo.rs", "lib.rs", "crates/util-dir/src/lib.rs") in imports


def test_typescript_re_export_barrels(tmp_path):
    start = {
        "src/a.ts": "export function helper() {\n  return 1;\n}\n",
        "src/index.ts": "export * from './a';\nexport { helper as h } from './a';\n",
        "src/use.ts": "import { helper, h } from './index';\n\nexport function f() {\n  return helper() + h();\n}\n",
        "src/lone.ts": "export function lone() {\n  return 0;\n}\n",
    }
    run_steps(
        tmp_path,
        start,
        [
            ({"src/a.ts": "export function helper2() {\n  return 1;\n}\n"}, "incremental"),
            ({"src/b.ts": "export function helper() {\n  return 2;\n}\n"}, "incremental"),
            # a star re-export that changes can bring in any name: everything is re-resolved
            ({"src/index.ts": "export * from './a';\nexport * from './b';\n"}, "full"),
            ({"src/a.ts": start["src/a.ts"]}, "incremental"),
        ],
    )


def test_a_change_too_big_to_be_worth_it_resolves_everything(tmp_path):
    start = {f"m{i}.py": f"def f{i}():\n    return shared()\n" for i in range(60)}
    start["s.py"] = "def shared():\n    return 0\n"
    out = run_steps(tmp_path, start, [({"s.py": "def shared2():\n    return 0\n"}, "full")])
    assert "more than" in out[0]["reason"]


def test_the_index_json_says_which_resolution_ran(tmp_path):
    import json
    import subprocess
    import sys

    write(tmp_path, PY)
    cmd = [sys.executable, "-m", "codegraph"]
    first = json.loads(
        subprocess.run(
            [*cmd, "init", str(tmp_path), "--json"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert first["resolution"]["mode"] == "full" and first["resolution"]["reason"] == "a first index"
    write(tmp_path, {"app/other.py": "def unrelated():\n    return 3\n"})
    out = subprocess.run([*cmd, "sync", str(tmp_path), "--json"], capture_output=True, text=True, check=True)
    res = json.loads(out.stdout)["resolution"]
    assert res["mode"] == "incremental" and res["files"] == 1 and res["references"] >= 0


def _fx(path: str, nodes: list[Node], **kw) -> FileExtraction:
    return FileExtraction(path=path, language="python", nodes=nodes, **kw)


def _node(path: str, name: str, line: int, **kw) -> Node:
    return Node(f"function:{name}{line}", "function", name, name, path, "python", line, line + 1, **kw)


def test_plan_ignores_positions_no_lookup_reads_and_follows_derived_meanings():
    a_old = _fx("a.py", [_node("a.py", "make", 1, return_type="Baz")])
    a_new = _fx("a.py", [_node("a.py", "make", 1, return_type="Baz", docstring="now documented")])
    plan = incremental.plan(
        {"a.py": (a_old, a_new)}, {"a.py": frozenset()}, lambda p: a_new, lambda _: (), {}, 10
    )
    assert plan.files == {"a.py"} and plan.words == set()
    # Baz changes meaning: make (whose return names it) does too, so b.py, which mentions make, is in
    baz_old = _fx("z.py", [_node("z.py", "Baz", 1)])
    baz_new = _fx("z.py", [_node("z.py", "Baz", 2)])
    mentions = {
        "z.py": frozenset({"baz"}),
        "a.py": frozenset({"make", "baz"}),
        "b.py": frozenset({"make"}),
        "c.py": frozenset({"other"}),
    }
    by_path = {"z.py": baz_new, "a.py": a_new, "b.py": _fx("b.py", []), "c.py": _fx("c.py", [])}
    plan = incremental.plan({"z.py": (baz_old, baz_new)}, mentions, by_path.__getitem__, lambda _: (), {}, 10)
    assert plan.files == {"z.py", "a.py", "b.py"}


@pytest.mark.parametrize(
    "text,expected", [("getHTTP_code", {"gethttp_code"}), ("<<", {"<<"}), ("a.b::C", {"a", "b", "c"})]
)
def test_words_are_case_folded_identifier_runs_or_the_whole_symbol(text, expected):
    assert incremental.words(text) == expected


def test_many_changed_files_resolve_everything_without_planning(tmp_path):
    start = {f"m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(60)}
    out = run_steps(
        tmp_path, start, [({f"m{i}.py": f"def g{i}():\n    return {i}\n" for i in range(55)}, "full")]
    )
    assert out[0]["reason"] == "more than 50 files changed"


def test_an_index_without_resolution_records_falls_back_once_then_syncs_incrementally(tmp_path):
    import sqlite3

    write(tmp_path, PY)
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    conn = sqlite3.connect(paths.db)
    with conn:  # as an index written before these tables were filled
        conn.execute("DELETE FROM cgpy_resolved")
        conn.execute("DELETE FROM cgpy_mentions")
        conn.execute("DELETE FROM cgpy_interface")
    conn.close()
    write(tmp_path, {"app/other.py": "def unrelated():\n    return 3\n"})
    first = index_project(paths, workers=1).resolution
    assert first["mode"] == "full" and "no record" in first["reason"]
    write(tmp_path, {"app/other.py": "def unrelated():\n    return 4\n"})
    assert index_project(paths, workers=1).resolution["mode"] == "incremental"
    with Reader(tmp_path) as r:  # and the rows it lacked are back
        for table in ("cgpy_resolved", "cgpy_mentions", "cgpy_interface"):
            assert r.conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == len(PY), table


def test_an_incremental_sync_leaves_other_files_edge_rows_untouched(tmp_path):
    write(tmp_path, PY)
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)

    def rows() -> dict[tuple, int]:
        with Reader(tmp_path) as r:
            return {
                tuple(x[1:]): x[0]
                for x in r.conn.execute(
                    "SELECT e.id, e.source, e.target, e.kind, e.line FROM edges e JOIN nodes n ON n.id = e.source "
                    "WHERE n.file_path != 'app/other.py'"
                )
            }

    before = rows()
    write(
        tmp_path,
        {"app/other.py": "def unrelated():\n    return 3\n\n\ndef more():\n    return unrelated()\n"},
    )
    assert index_project(paths, workers=1).resolution == {"mode": "incremental", "files": 1, "references": 1}
    assert rows() == before


def test_the_interface_kept_for_other_files_lacks_only_their_own_references(tmp_path):
    from codegraph.index import cache

    write(tmp_path, PY)
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    with Reader(tmp_path) as r:
        full = cache.decode(
            r.conn.execute("SELECT data FROM cgpy_extract_cache WHERE path = 'app/leaf.py'").fetchone()[0]
        )
        part = cache.decode(
            r.conn.execute("SELECT data FROM cgpy_interface WHERE path = 'app/leaf.py'").fetchone()[0]
        )
    assert {r.kind for r in full.refs} > {"extends"}
    assert [r.kind for r in part.refs] == ["extends"]
    assert (part.nodes, part.imports, part.contains) == (full.nodes, full.imports, full.contains)


def _language_files(root: Path, label: str) -> list[Path]:
    from codegraph.index.languages import language_for

    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file()
        and ".codegraph" not in p.parts
        and (language_for(p.relative_to(root).as_posix()) or ("",))[0] == label
    )


def _labels() -> list[str]:
    from codegraph.index.languages import all_languages

    return sorted(lang.label for lang in all_languages())


@pytest.mark.parametrize("label", _labels())
def test_every_language_fixture_syncs_to_the_fresh_index_after_an_edit_a_copy_and_a_delete(tmp_path, label):
    from codegraph.index.languages import module_for
    from tests.conftest import FIXTURES

    live = tmp_path / "live"
    shutil.copytree(FIXTURES / "repos" / label, live)
    paths = ProjectPaths(live.resolve())
    index_project(paths, workers=1)
    files = _language_files(live, label)
    target, other = files[len(files) // 2], files[0]
    comment = module_for(label).line_comment
    with target.open("a") as fh:  # a comment: nothing another file looks up changes
        fh.write(f"\n{comment} edited\n")
    summary = index_project(paths, workers=1)
    assert summary.resolution["mode"] == "incremental" and summary.resolution["files"] >= 1
    assert full_graph(live) == fresh_graph(live, tmp_path)
    copy = other.with_name("copied_" + other.name)  # every definition of ``other`` now twice
    copy.write_bytes(other.read_bytes())
    index_project(paths, workers=1)
    assert full_graph(live) == fresh_graph(live, tmp_path)
    other.unlink()  # and then only in the copy
    index_project(paths, workers=1)
    assert full_graph(live) == fresh_graph(live, tmp_path)


def test_mentions_hold_each_word_once_however_often_a_string_repeats():
    from codegraph.model import Ref

    fx = _fx("pkg/m.py", [_node("pkg/m.py", "Run", 1)])
    fx.refs = [Ref("file:pkg/m.py", "calls", name, 1, 0) for name in ("a.b", "<<", "a.b", "<<", "Go")]
    assert incremental.mentions(fx) == {"pkg", "m", "py", "run", "a", "b", "<<", "go"}


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ({"alpha"}, True),  # the first word
        ({"omega"}, True),  # the last
        ({"sys"}, True),
        ({"sy", "ys", "sys_call_x"}, False),  # parts of a word, a longer word: no mention
        ({"nothing", "omega"}, True),
        (set(), False),
    ],
)
def test_mentions_any_answers_what_the_decoded_set_answers(words, expected):
    from codegraph.index.incremental import decode_mentions, encode_mentions, mentions_any

    data = encode_mentions(["alpha", "sys", "sys_call", "omega"])
    assert mentions_any(data, words) is expected
    assert (not decode_mentions(data).isdisjoint(words)) is expected
    assert mentions_any(encode_mentions([]), {"alpha"}) is False


def test_a_sync_plans_from_the_zlib_mentions_an_older_index_stored(tmp_path):
    """An index written before the mentions were stored as text (a zlib blob per file) plans the
    same files: SQLite's substring search passes those rows on, and they are decoded."""
    import sqlite3
    import zlib

    from codegraph.index.incremental import decode_mentions
    from codegraph.store.writer import mentioning
    from tests.conftest import FIXTURES

    live = tmp_path / "live"
    shutil.copytree(FIXTURES / "repos" / "python", live)
    paths = ProjectPaths(live.resolve())
    index_project(paths, workers=1)
    conn = sqlite3.connect(paths.db)
    rows = conn.execute("SELECT path, data FROM cgpy_mentions").fetchall()
    assert rows and all(isinstance(data, str) for _, data in rows)
    older = sorted(rows)[: len(rows) // 2]  # half the rows as an older index left them
    conn.executemany(
        "UPDATE cgpy_mentions SET data = ? WHERE path = ?",
        [(zlib.compress(data.encode(), 1), path) for path, data in older],
    )
    conn.commit()
    word = sorted(decode_mentions(older[0][1]))[0]
    hits = dict(mentioning(conn, {word}))
    assert older[0][0] in hits and all(path in hits for path, _ in older)  # the blobs, to be checked
    assert all(word in data for data in hits.values() if isinstance(data, str))  # as a substring at least
    conn.close()
    # a helper every file of the fixture's shop package mentions changes meaning
    target = live / "shop" / "utils" / "tree.py"
    write(
        live, {"shop/utils/tree.py": target.read_text() + "\n\ndef list_products(request):\n    return 1\n"}
    )
    summary = index_project(paths, workers=1)
    # the changed file and the files that mention the name, some of them through a zlib row
    assert summary.resolution["mode"] == "incremental" and summary.resolution["files"] >= 2, (
        summary.resolution
    )
    assert full_graph(live) == fresh_graph(live, tmp_path)


C_INCLUDES = {
    "a.h": "int helper(void);\n",
    "a.c": '#include "a.h"\nint helper(void) { return 1; }\n',
    "c.c": "int helper(void) { return 2; }\n",  # a second definition: the bare name is ambiguous
    "b.h": "int b_only(void);\n",
    "main.c": '#include "b.h"\nint main(void) { return helper(); }\n',
}


def _helper_target(root: Path) -> set[str]:
    with Reader(root) as r:
        return {
            row[0]
            for row in r.conn.execute(
                "SELECT t.file_path FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target "
                "WHERE s.name = 'main' AND e.kind = 'calls'"
            )
        }


def test_an_include_added_to_a_source_file_re_resolves_that_file_only(tmp_path):
    live = tmp_path / "live"
    write(live, C_INCLUDES)
    paths = ProjectPaths(live.resolve())
    index_project(paths, workers=1)
    assert _helper_target(live) == set()  # two definitions, neither prototype in sight
    write(live, {"main.c": '#include "b.h"\n#include "a.h"\nint main(void) { return helper(); }\n'})
    summary = index_project(paths, workers=1)
    # no file includes main.c: what it sees changed for it alone
    assert summary.resolution == {
        "mode": "incremental",
        "files": 1,
        "references": summary.resolution["references"],
    }
    assert _helper_target(live) == {"a.c"}  # the prototype a.h declares → its paired definition
    assert full_graph(live) == fresh_graph(live, tmp_path)


def test_an_include_added_to_a_header_re_resolves_the_files_that_include_it(tmp_path):
    live = tmp_path / "live"
    write(live, C_INCLUDES)
    paths = ProjectPaths(live.resolve())
    index_project(paths, workers=1)
    write(live, {"b.h": '#include "a.h"\nint b_only(void);\n'})  # main.c now sees a.h through b.h
    summary = index_project(paths, workers=1)
    assert summary.resolution["mode"] == "full" or summary.resolution["files"] >= 2, summary.resolution
    assert _helper_target(live) == {"a.c"}
    assert full_graph(live) == fresh_graph(live, tmp_path)


def test_a_name_left_only_to_an_import_node_leaves_the_vocabulary_as_a_fresh_index_has_it(tmp_path):
    """Found by the adversarial pass (stop 29): the vocabulary holds the names of symbols, not of
    file or import nodes, and a sync kept the rows of a deleted function whose name an import kept."""
    live = tmp_path / "live"
    write(
        live,
        {
            "a.py": "def json_tools():\n    return 1\n\n\ndef other():\n    return 2\n",
            "b.py": "import json_tools\nfrom a import other\n\n\ndef use():\n    return other()\n",
        },
    )
    paths = ProjectPaths(live.resolve())
    index_project(paths, workers=1)
    write(live, {"a.py": "def other():\n    return 2\n"})
    index_project(paths, workers=1)
    vocab = "SELECT segment, name FROM name_segment_vocab WHERE name = 'json_tools'"
    with Reader(live) as r:
        assert r.conn.execute(vocab).fetchall() == []
    fresh = tmp_path / "fresh"
    shutil.copytree(live, fresh, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(fresh.resolve()), workers=1)
    with Reader(live) as a, Reader(fresh) as b:
        rows = "SELECT segment, name FROM name_segment_vocab ORDER BY 1, 2"
        assert a.conn.execute(rows).fetchall() == b.conn.execute(rows).fetchall()
