"""The indexer on real files: cache reuse, deletions, renames, skips with reasons, crash safety."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codegraph.errors import RefusedRoot
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths, init_root
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture, git


def rows(root: Path, sql: str) -> list[tuple]:
    with Reader(root) as r:
        return [tuple(x) for x in r.conn.execute(sql)]


def test_unchanged_files_are_not_reparsed_and_an_edit_reparses_one(tmp_path):
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    first = index_project(paths, workers=1)
    assert first.parsed == 11 and first.reused == 0
    again = index_project(paths, workers=1)
    assert (again.parsed, again.reused, again.changed) == (0, 11, False)
    target = root / "shop" / "views.py"
    target.write_text(target.read_text() + "\n\ndef added():\n    return list_products(None)\n")
    third = index_project(paths, workers=1)
    assert (third.parsed, third.reused) == (1, 10)
    callers = rows(
        root,
        "SELECT s.name FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target "
        "WHERE t.name = 'list_products' AND e.kind = 'calls'",
    )
    assert callers == [("added",)]


def test_verify_hash_reparses_a_file_whose_mtime_was_restored(tmp_path):
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    target = root / "shop" / "sitemaps" / "__init__.py"
    st = target.stat()
    target.write_text(target.read_text().replace("return []", "return ()"))  # same size, new content
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert target.stat().st_size == st.st_size
    assert index_project(paths, workers=1).parsed == 0  # size+mtime equal: trusted by default
    assert index_project(paths, workers=1, verify_hash=True).parsed == 1


def test_deleted_and_renamed_files_leave_no_rows_behind(tmp_path):
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    (root / "shop" / "db" / "deletion.py").unlink()
    (root / "shop" / "views.py").rename(root / "shop" / "pages.py")
    summary = index_project(paths, workers=1)
    assert summary.removed == 2
    for table, column in (
        ("nodes", "file_path"),
        ("files", "path"),
        ("unresolved_refs", "file_path"),
        ("cgpy_extract_cache", "path"),
    ):
        left = rows(
            root, f"SELECT COUNT(*) FROM {table} WHERE {column} IN ('shop/db/deletion.py', 'shop/views.py')"
        )
        assert left == [(0,)], table
    dangling = rows(
        root,
        "SELECT COUNT(*) FROM edges WHERE source NOT IN (SELECT id FROM nodes) "
        "OR target NOT IN (SELECT id FROM nodes)",
    )
    assert dangling == [(0,)]
    assert rows(
        root, "SELECT COUNT(*) FROM nodes WHERE file_path = 'shop/pages.py' AND name = 'list_products'"
    ) == [(1,)]


def test_skipped_files_are_recorded_with_their_reason(tmp_path):
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "ok.py").write_text("def ok():\n    return 1\n")
    (root / "src" / "big.py").write_text("x = 1\n" * 300_000)
    (root / "src" / "blob.js").write_bytes(b"\x00\x01binary" * 10)
    (root / "src" / "lib.min.js").write_text("function a(){return 1}")
    (root / "src" / "bundle.js").write_text(("var a=1;" * 400 + "\n") * 5)
    (root / "src" / "latin1.py").write_bytes("def caf\xe9():\n    return 'na\xefve'\n".encode("latin-1"))
    summary = index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as r:
        skipped = r.skipped()
        assert skipped["src/big.py"].startswith("too large")
        assert skipped["src/blob.js"] == "binary"
        assert skipped["src/lib.min.js"] == "minified"
        assert skipped["src/bundle.js"] == "minified"
        assert set(r.indexed_paths()) == {"src/ok.py", "src/latin1.py"}
    assert summary.skipped == {"too large": 1, "binary": 1, "minified": 2}


def test_gitignored_and_default_ignored_directories_are_not_indexed_without_git(tmp_path):
    root = tmp_path / "repo"
    for rel in (
        "a.py",
        "gen/out.py",
        "sub/keep.py",
        "sub/drop.py",
        "node_modules/m/index.js",
        "sub/x/keep2.py",
    ):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("def f():\n    pass\n")
    (root / ".gitignore").write_text("gen/\n")
    (root / "sub" / ".gitignore").write_text("drop.py\n")
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as r:
        assert r.indexed_paths() == ["a.py", "sub/keep.py", "sub/x/keep2.py"]


def test_git_checkout_indexes_tracked_and_untracked_but_not_ignored_files(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".gitignore").write_text("secret_gen.py\n")
    (root / "tracked.py").write_text("def t():\n    pass\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "x")
    (root / "untracked.py").write_text("def u():\n    pass\n")
    (root / "secret_gen.py").write_text("def s():\n    pass\n")
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as r:
        assert r.indexed_paths() == ["tracked.py", "untracked.py"]
        assert r.metadata()["indexed_at_commit"] == git(root, "rev-parse", "HEAD").strip()


def test_symlinks_out_of_the_root_are_skipped_and_loops_survived(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.py").write_text("def leak():\n    pass\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "in.py").write_text("def inside():\n    pass\n")
    (root / "leak.py").symlink_to(outside / "leak.py")
    (root / "loop").symlink_to(root)
    (root / "dirlink").symlink_to(outside)
    index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as r:
        assert r.indexed_paths() == ["in.py"]
        assert r.skipped()["leak.py"] == "symlink outside root"


def test_a_dangling_symlink_is_said_to_dangle_and_one_leading_out_is_outside_the_root(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "in.py").write_text("def inside():\n    pass\n")
    (root / "gone.py").symlink_to(root / "missing.py")  # inside the root, target absent
    (root / "away.py").symlink_to("/nonexistent/x.py")
    summary = index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as r:
        assert r.indexed_paths() == ["in.py"]
        assert r.skipped()["gone.py"] == "dangling symlink"
        assert r.skipped()["away.py"] == "symlink outside root"
    assert "1 file (dangling symlink)" in summary.line() and "unreadable" not in summary.line()


def test_a_tracked_file_deleted_from_the_work_tree_is_not_counted_as_skipped(tmp_path):
    # git ls-files still lists it; the stat finds nothing: it is not there, so it is no skip
    root = tmp_path / "repo"
    root.mkdir()
    (root / "in.py").write_text("def inside():\n    pass\n")
    (root / "old.py").write_text("def old():\n    pass\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    (root / "old.py").unlink()
    summary = index_project(ProjectPaths(root.resolve()), workers=1)
    with Reader(root) as r:
        assert r.indexed_paths() == ["in.py"]
        assert "old.py" not in r.skipped()
    assert "skipped: none" in summary.line()


def test_a_file_deleted_after_discovery_is_skipped_as_deleted_during_indexing(tmp_path):
    from codegraph.index.indexer import _parse_one

    # the job discovery made for a file that was then deleted before a worker read it
    out = _parse_one((str(tmp_path), "late.py", 10, 0, "python", "python"))
    assert out[:2] == ("late.py", "deleted during indexing") and out[-1] is None


def test_codegraph_dir_gets_its_own_gitignore(tmp_path):
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    lines = (root / ".codegraph" / ".gitignore").read_text().splitlines()
    assert "*" in lines and "!.gitignore" in lines


def test_indexing_home_or_filesystem_root_is_refused_without_force(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    for path in ("/", str(tmp_path / "home"), str(tmp_path)):
        with pytest.raises(RefusedRoot):
            init_root(path)
    assert init_root(str(tmp_path), force=True).root == tmp_path.resolve()


def test_parallel_and_serial_indexing_produce_the_same_graph(tmp_path):
    root = copy_fixture("typescript", tmp_path)
    for i in range(60):
        (root / "src" / f"gen{i}.ts").write_text(
            f"import {{ map }} from './operators';\nexport function g{i}() {{ return map((v: number) => v); }}\n"
        )
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    serial = rows(root, "SELECT source, target, kind, line FROM edges ORDER BY 1, 2, 3, 4")
    index_project(paths, full=True, workers=2)
    assert rows(root, "SELECT source, target, kind, line FROM edges ORDER BY 1, 2, 3, 4") == serial


def test_kill_9_during_a_reindex_leaves_the_last_good_index(tmp_path):
    root = tmp_path / "big"
    root.mkdir()
    for i in range(1500):
        (root / f"m{i}.py").write_text(
            "".join(
                f"def f{i}_{j}(x):\n    return f{i}_{j - 1}(x)\n\n"
                if j
                else f"def f{i}_{j}(x):\n    return x\n\n"
                for j in range(40)
            )
        )
    paths = ProjectPaths(root.resolve())
    index_project(paths, workers=1)
    before = rows(root, "SELECT COUNT(*) FROM nodes") + rows(root, "SELECT COUNT(*) FROM edges")
    proc = subprocess.Popen(
        [sys.executable, "-m", "codegraph", "index", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(1.5)
    assert proc.poll() is None, "re-index finished before it could be killed; make the repo bigger"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    after = rows(root, "SELECT COUNT(*) FROM nodes") + rows(root, "SELECT COUNT(*) FROM edges")
    assert after == before
    assert index_project(paths, workers=1).files == 1500


def test_a_binary_or_minified_file_is_not_reread_until_it_changes(tmp_path):
    (tmp_path / "a.py").write_text("def a():\n    pass\n")
    (tmp_path / "lib.min.js").write_text("function a(){return 1}")
    paths = ProjectPaths(tmp_path.resolve())
    assert index_project(paths, workers=1).skipped == {"minified": 1}
    again = index_project(paths, workers=1)
    assert again.changed is False and again.skipped == {"minified": 1}
    (tmp_path / "lib.min.js").write_text("function b(){return 22}")
    assert index_project(paths, workers=1).changed is True


def test_a_cold_index_stores_each_files_interface_and_mentions_as_its_extraction_gives_them(tmp_path):
    """The workers encode the interface and mentions rows (not the parent): the rows must still be
    what the stored extraction gives."""
    import sqlite3

    from codegraph.index import cache, incremental
    from codegraph.index.indexer import PARALLEL_MIN_FILES
    from codegraph.index.languages import module_for

    root = copy_fixture("python", tmp_path)
    for i in range(PARALLEL_MIN_FILES):  # enough files for the worker pool
        (root / f"extra{i}.py").write_text(
            f"class E{i}(Exception):\n    def go(self):\n        return len([])\n"
        )
    index_project(ProjectPaths(root.resolve()), workers=2)
    conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    cached = dict(conn.execute("SELECT path, data FROM cgpy_extract_cache"))
    interfaces = dict(conn.execute("SELECT path, data FROM cgpy_interface"))
    mentions = dict(conn.execute("SELECT path, data FROM cgpy_mentions"))
    conn.close()
    assert len(cached) > PARALLEL_MIN_FILES and set(cached) == set(interfaces) == set(mentions)
    for path, data in cached.items():
        fx = cache.decode(data)
        assert interfaces[path] == cache.encode(incremental.interface(fx)), path
        found = incremental.mentions(fx, module_for(fx.language))
        assert incremental.decode_mentions(mentions[path]) == found, path
    assert "e0" in incremental.decode_mentions(mentions["extra0.py"])


def test_the_same_tree_gives_identical_rows_in_identical_order_with_one_or_two_workers(tmp_path):
    """Issue 11: deterministic index — ids, rowids and order, whatever the number of workers."""
    import shutil
    import sqlite3

    from codegraph.index.indexer import PARALLEL_MIN_FILES, index_project
    from codegraph.paths import ProjectPaths

    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    for i in range(PARALLEL_MIN_FILES + 20):  # enough files for the worker pool to be used
        (src / "pkg" / f"m{i}.py").write_text(
            f"from pkg.m{(i + 1) % 60} import f{(i + 1) % 60}\n\n\nclass C{i}:\n    def run(self):\n"
            f"        return f{(i + 1) % 60}()\n\n\ndef f{i}():\n    return C{i}().run()\n"
        )
    dumps = []
    for workers in (1, 2):
        root = tmp_path / f"w{workers}"
        shutil.copytree(src, root)
        index_project(ProjectPaths(root.resolve()), workers=workers)
        conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
        nodes = conn.execute(
            "SELECT rowid, id, kind, name, qualified_name, file_path, start_line FROM nodes ORDER BY rowid"
        ).fetchall()
        edges = conn.execute(
            "SELECT id, source, target, kind, metadata, line, col FROM edges ORDER BY id"
        ).fetchall()
        unresolved = conn.execute("SELECT * FROM unresolved_refs ORDER BY id").fetchall()
        conn.close()
        dumps.append((nodes, edges, unresolved))
    assert len(dumps[0][1]) > 200
    assert dumps[0] == dumps[1]


def test_index_json_reports_the_phase_split_of_the_run(tmp_path):
    """Issue 12: ``index --json`` gives wall seconds per phase (discover, parse, load, resolve, write)."""
    import json
    import subprocess
    import sys

    (tmp_path / "a.py").write_text("def f():\n    return g()\n\n\ndef g():\n    return 1\n")
    out = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out)
    assert set(data["phases"]) == {"discover", "parse", "load", "resolve", "write"}
    assert all(v >= 0 for v in data["phases"].values())
    assert sum(data["phases"].values()) <= data["seconds"] + 0.01


def test_a_header_a_module_reads_as_another_language_is_not_parsed_again_by_a_no_change_sync(tmp_path):
    """``.h`` maps to C by its extension, but a header that reads as C++ is indexed as cpp: an
    unchanged file stays cached (the stored label is the module's choice, not a remapping)."""
    (tmp_path / "shape.h").write_text(
        "namespace geo {\nclass Shape {\n public:\n  int area() const;\n};\n}\n"
    )
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    with Reader(paths) as reader:
        assert reader.file_record("shape.h")["language"] == "cpp"
    again = index_project(paths, workers=1)
    assert (again.parsed, again.changed) == (0, False)


def test_the_parent_compiles_each_query_before_forking_the_workers(tmp_path):
    """Forked workers inherit the compiled queries instead of compiling one each (issue 12)."""
    from codegraph.index import indexer
    from codegraph.index.discover import discover
    from codegraph.index.languages import query_for

    root = copy_fixture("python", tmp_path)
    for i in range(indexer.PARALLEL_MIN_FILES):  # enough files for the worker pool
        (root / f"extra{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    files = discover(root.resolve()).files
    query_for.cache_clear()
    parsed, skipped = indexer._parse_all(str(root.resolve()), files, 2, None)
    assert len(parsed) == len(files) and not skipped
    assert query_for.cache_info().currsize == 1  # python's, compiled here, not in the workers alone


def test_the_parent_keeps_worker_results_with_its_collector_paused_while_the_workers_collect(
    tmp_path, monkeypatch
):
    """Each file's rows join the parent's heap and stay till the write; collections walking them
    all cost the parent CPU the workers wanted. The workers still collect, and the parent's
    collector is running again after the parse."""
    import gc

    from codegraph.index import cache, extract, indexer
    from codegraph.index.discover import discover

    root = copy_fixture("python", tmp_path)
    for i in range(indexer.PARALLEL_MIN_FILES):  # enough files for the worker pool
        (root / f"extra{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    real_extract, real_from_rows = extract.extract, cache.from_rows
    parent_saw: list[bool] = []

    def extract_noting_the_collector(*args):
        fx = real_extract(*args)
        fx.errors.append(f"collector on: {gc.isenabled()}")
        return fx

    def from_rows_noting_the_collector(payload, **kw):
        parent_saw.append(gc.isenabled())
        return real_from_rows(payload, **kw)

    monkeypatch.setattr(extract, "extract", extract_noting_the_collector)
    monkeypatch.setattr(cache, "from_rows", from_rows_noting_the_collector)
    files = discover(root.resolve()).files
    assert gc.isenabled()
    parsed, _ = indexer._parse_all(str(root.resolve()), files, 2, None)
    assert len(parsed) == len(files) == len(parent_saw)
    assert {p.extraction.errors[-1] for p in parsed} == {"collector on: True"}  # in the workers
    assert set(parent_saw) == {False}
    assert gc.isenabled()
