"""The writer's fast metadata encoder writes exactly what json.dumps would."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codegraph.store.writer import _meta_json

values = st.one_of(st.text(), st.floats(allow_nan=False, allow_infinity=False), st.integers(), st.booleans())


@settings(suppress_health_check=[HealthCheck.too_slow])  # a loaded shared machine drew 6 inputs in 1.3 s
@given(st.dictionaries(st.text(), values, max_size=5))
def test_fast_metadata_json_equals_json_dumps(meta):
    expected = json.dumps(meta, separators=(",", ":")) if meta else None
    assert _meta_json(meta) == expected


def test_a_bulk_write_rebuilds_full_text_search_once_and_keeps_the_triggers(tmp_path):
    """Issue 10/12 speed: many new nodes build nodes_fts once at the end instead of a trigger per row;
    the triggers are back for the reference CLI and small syncs, and search stays exact."""
    import sqlite3

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import writer
    from codegraph.store.reader import Reader

    per_file = 100
    files = writer.BULK_FTS_ROWS // per_file + 5
    for i in range(files):
        (tmp_path / f"m{i}.py").write_text(
            "".join(f"def fn_{i}_{j}():\n    return {j}\n\n\n" for j in range(per_file))
        )
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)

    def fts_names(word):
        conn = sqlite3.connect(paths.db)
        try:
            return [r[0] for r in conn.execute("SELECT name FROM nodes_fts WHERE nodes_fts MATCH ?", (word,))]
        finally:
            conn.close()

    def index_names(db):
        c = sqlite3.connect(db)
        try:
            return sorted(c.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'"))
        finally:
            c.close()

    small = tmp_path.parent / f"{tmp_path.name}-small"
    small.mkdir()
    (small / "a.py").write_text("def a():\n    return b()\n\n\ndef b():\n    return 1\n")
    index_project(ProjectPaths(small.resolve()), workers=1)
    # the bulk path dropped and rebuilt the node / edge / unresolved-ref indexes: the same as a small write
    assert index_names(paths.db) == index_names(ProjectPaths(small.resolve()).db)
    conn = sqlite3.connect(paths.db)
    triggers = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
    fts_rows = conn.execute("SELECT COUNT(*) FROM nodes_fts").fetchone()[0]
    node_rows = conn.execute("SELECT COUNT(*) FROM nodes").fetchone()[0]
    conn.close()
    assert {"nodes_ai", "nodes_ad", "nodes_au"} <= set(triggers)
    assert fts_rows == node_rows > writer.BULK_FTS_ROWS
    assert fts_names("fn_3_7") == ["fn_3_7"]
    # a small sync goes through the triggers again: an added function is found, a removed one is gone
    (tmp_path / "m3.py").write_text("def brand_new_fn():\n    return 1\n")
    index_project(paths, workers=1)
    assert fts_names("brand_new_fn") == ["brand_new_fn"] and fts_names("fn_3_7") == []
    with Reader(tmp_path) as reader:
        assert [n.name for n, _ in reader.search("brand_new_fn")] == ["brand_new_fn"]


def _project(root, files=45):
    """A project big enough for the cold path (BULK_ROWS): classes, methods, calls across files,
    docstrings, an import that resolves and one that does not."""
    root.mkdir()
    for i in range(files):
        body = [
            f'"""Module {i}."""\n',
            "import os\n",
            f"from m{(i + 1) % files} import Thing{(i + 1) % files}\n\n",
        ]
        body.append(f'class Thing{i}:\n    """Thing number {i}."""\n\n')
        for j in range(8):
            body.append(
                f"    def act_{j}(self, x):\n        return self.act_{(j + 1) % 8}(x) + helper_{i}(x)\n\n"
            )
        body.append(
            f"\ndef helper_{i}(x):\n    return Thing{(i + 1) % files}().act_0(os.sep) + missing_{i}(x)\n"
        )
        (root / f"m{i}.py").write_text("".join(body))
        os.utime(root / f"m{i}.py", ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    return root


def _dump(db, fts_words):
    """Every table as a reader sees it (the FTS index by its answers, not its segment layout)."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        out = {"schema": sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))}
        tables = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        for table in tables:
            if table.startswith("nodes_fts") and table != "nodes_fts_docsize":
                continue
            try:
                out[table] = conn.execute(f'SELECT rowid, * FROM "{table}" ORDER BY rowid').fetchall()
            except sqlite3.OperationalError:  # WITHOUT ROWID
                out[table] = conn.execute(f'SELECT * FROM "{table}" ORDER BY 1, 2').fetchall()
        out["fts"] = {
            w: conn.execute(
                "SELECT rowid FROM nodes_fts WHERE nodes_fts MATCH ? ORDER BY rowid", (w,)
            ).fetchall()
            for w in fts_words
        }
        out["journal_mode"] = conn.execute("PRAGMA journal_mode").fetchone()
        return out
    finally:
        conn.close()


def test_a_cold_index_stores_exactly_what_the_row_by_row_write_stores(tmp_path, monkeypatch):
    """Issue 12 (the cold write): the one-pass fill of an empty index — rows without indexes, then the
    indexes and the full-text index built once, through a rollback journal — leaves every table, the
    schema and the full-text answers equal to the write that diffs and inserts row by row."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import db, writer

    monkeypatch.setattr(writer, "now_ms", lambda: 1_700_000_000_000)
    monkeypatch.setattr(db, "_now_ms", lambda: 1_700_000_000_000)
    cold = ProjectPaths(_project(tmp_path / "cold").resolve())
    summary = index_project(cold, workers=1)
    assert summary.nodes >= writer.BULK_ROWS and summary.edges >= writer.BULK_ROWS  # the cold path ran
    monkeypatch.setattr(writer, "BULK_ROWS", 10**9)  # every write goes the row-by-row way
    monkeypatch.setattr(writer, "BULK_FTS_ROWS", 10**9)
    slow = ProjectPaths(_project(tmp_path / "slow").resolve())
    index_project(slow, workers=1)
    words = ["Thing3", "act_2", "helper_7", "number"]
    fast, reference = _dump(cold.db, words), _dump(slow.db, words)
    assert fast["journal_mode"] == ("wal",)
    assert all(fast["fts"].values())
    assert fast == reference


def test_a_cold_index_killed_in_its_write_is_rolled_back_and_says_unfinished(tmp_path):
    """A kill -9 inside the cold write's transaction (rollback journal): the next open rolls it back,
    the index says ``indexing`` with no rows, is sound and in WAL again, and the next run completes."""
    import signal
    import sqlite3
    import subprocess
    import sys

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.db import connect_writer

    root = _project(tmp_path / "p")
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from codegraph.store import writer\n"
        "from codegraph.index.indexer import index_project\n"
        "from codegraph.paths import ProjectPaths\n"
        "def die(conn, *a, **k):\n"
        "    assert conn.execute('SELECT COUNT(*) FROM nodes').fetchone()[0] > 0\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "writer._finish = die\n"
        "index_project(ProjectPaths(Path(sys.argv[1])), workers=1)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(root.resolve())], capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    paths = ProjectPaths(root.resolve())
    assert os.path.exists(f"{paths.db}-journal")  # the hot journal of the killed transaction
    conn = connect_writer(paths.db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("SELECT COUNT(*) FROM nodes").fetchone() == (0,)
        state = conn.execute("SELECT value FROM project_metadata WHERE key = 'index_state'").fetchone()
        assert state == ("indexing",)
    finally:
        conn.close()
    summary = index_project(paths, workers=1)
    assert summary.nodes > 0
    check = sqlite3.connect(paths.db)
    assert check.execute("SELECT value FROM project_metadata WHERE key = 'index_state'").fetchone() == (
        "complete",
    )
    check.close()


def test_a_cold_index_with_a_reader_holding_the_file_open_stays_in_wal(tmp_path):
    """The rollback journal needs the file to itself; with another connection open the cold write
    keeps WAL (the reader is never blocked) and stores the same rows."""
    import sqlite3

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.db import connect_writer

    paths = ProjectPaths(_project(tmp_path / "p").resolve())
    connect_writer(paths.db).close()  # the empty index exists
    reader = sqlite3.connect(paths.db)
    try:
        assert reader.execute("SELECT COUNT(*) FROM nodes").fetchone() == (0,)
        summary = index_project(paths, workers=1)
        assert reader.execute("SELECT COUNT(*) FROM nodes").fetchone() == (summary.nodes,)
        assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        reader.close()


def test_a_cold_index_builds_its_node_indexes_while_it_resolves(tmp_path, monkeypatch):
    """Issue 12 (the idle core): a first index's node indexes and full-text index are built on a
    thread while the parent resolves: here the build waits until resolution has begun, which a
    write done after resolution would never see (it would time out)."""
    import threading

    from codegraph.index import resolve as resolve_module
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import writer

    resolving = threading.Event()
    builds = []
    real_resolve, real_indexes = resolve_module.resolve, writer._fill_indexes

    def resolve(*args, **kwargs):
        resolving.set()
        return real_resolve(*args, **kwargs)

    def fill_indexes(conn, indexes):
        builds.append((resolving.wait(timeout=60), threading.current_thread().name))
        real_indexes(conn, indexes)

    monkeypatch.setattr(resolve_module, "resolve", resolve)
    monkeypatch.setattr(writer, "_fill_indexes", fill_indexes)
    paths = ProjectPaths(_project(tmp_path / "p").resolve())
    summary = index_project(paths, workers=1)
    assert builds == [(True, "codegraph-first-write")]
    assert summary.nodes > 0
    assert not any(t.name == "codegraph-first-write" for t in threading.enumerate())  # joined
    # a sync has a previous index: it resolves first and writes after, with no thread
    (paths.root / "m1.py").write_text("def only():\n    return 1\n")
    index_project(paths, workers=1)
    assert len(builds) == 1


def test_a_cold_index_written_beside_resolution_equals_the_serial_cold_write(tmp_path, monkeypatch):
    """The threaded first write stores every table, the schema and the full-text answers exactly as
    the cold write done after resolution in one thread (``writer.write_index``)."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import db, writer

    monkeypatch.setattr(writer, "now_ms", lambda: 1_700_000_000_000)
    monkeypatch.setattr(db, "_now_ms", lambda: 1_700_000_000_000)
    threaded = ProjectPaths(_project(tmp_path / "threaded").resolve())
    index_project(threaded, workers=1)
    monkeypatch.setattr(writer, "begin_first", lambda *args: None)
    serial = ProjectPaths(_project(tmp_path / "serial").resolve())
    index_project(serial, workers=1)
    words = ["Thing3", "act_2", "helper_7", "number", "missing_4"]
    assert _dump(threaded.db, words) == _dump(serial.db, words)


def _assert_unfinished_and_empty(paths, state):
    import sqlite3

    conn = sqlite3.connect(paths.db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        for table in ("nodes", "files", "edges", "cgpy_extract_cache", "cgpy_mentions", "name_segment_vocab"):
            assert conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,), table
        assert conn.execute("SELECT COUNT(*) FROM nodes_fts WHERE nodes_fts MATCH 'Thing3'").fetchone() == (
            0,
        )
        found = conn.execute("SELECT value FROM project_metadata WHERE key = 'index_state'").fetchone()
        assert found == (state,)
        triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert {"nodes_ai", "nodes_ad", "nodes_au"} <= triggers
    finally:
        conn.close()


def test_a_cold_index_whose_resolution_fails_rolls_the_early_rows_back(tmp_path, monkeypatch):
    """Resolution raising while the thread writes: the error reaches the caller, the thread's rows are
    rolled back (nothing half-written looks like an index), the state says failed, and the next run
    completes."""
    import pytest

    from codegraph.index import resolve as resolve_module
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths

    real = resolve_module.resolve

    def broken(*args, **kwargs):
        raise RuntimeError("resolution broke")

    monkeypatch.setattr(resolve_module, "resolve", broken)
    paths = ProjectPaths(_project(tmp_path / "p").resolve())
    with pytest.raises(RuntimeError, match="resolution broke"):
        index_project(paths, workers=1)
    _assert_unfinished_and_empty(paths, "failed")
    monkeypatch.setattr(resolve_module, "resolve", real)
    assert index_project(paths, workers=1).nodes > 0


def test_a_cold_index_whose_early_write_fails_reports_that_error(tmp_path, monkeypatch):
    """The thread's own failure (here the nodes insert) is raised in the caller once resolution is
    done (as any write error: the index named, SQLite's words), with the transaction rolled back."""
    import sqlite3

    import pytest

    from codegraph.errors import IndexUnreadable
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import writer

    def full_disk(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(writer, "_insert_files", full_disk)
    paths = ProjectPaths(_project(tmp_path / "p").resolve())
    with pytest.raises(IndexUnreadable, match="codegraph.db: database or disk is full"):
        index_project(paths, workers=1)
    _assert_unfinished_and_empty(paths, "failed")


def test_a_cold_index_killed_while_resolving_leaves_no_rows_of_its_early_write(tmp_path):
    """kill -9 while the parent resolves, after the rows that need no resolution and the thread's
    indexes were written: the next open rolls the transaction back; the index says ``indexing``
    with no rows, and the next run completes."""
    import signal
    import subprocess
    import sys

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths

    root = _project(tmp_path / "p")
    script = (
        "import os, signal, sys, threading\n"
        "from pathlib import Path\n"
        "from codegraph.index import resolve\n"
        "from codegraph.index.indexer import index_project\n"
        "from codegraph.paths import ProjectPaths\n"
        "def die(*a, **k):\n"
        "    for t in threading.enumerate():\n"
        "        if t.name == 'codegraph-first-write':\n"
        "            t.join()\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "resolve.resolve = die\n"
        "index_project(ProjectPaths(Path(sys.argv[1])), workers=1)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(root.resolve())], capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    paths = ProjectPaths(root.resolve())
    assert os.path.exists(f"{paths.db}-journal")  # the hot journal of the killed transaction
    from codegraph.store.db import connect_writer

    connect_writer(paths.db).close()  # the first open rolls the hot journal back and goes back to WAL
    _assert_unfinished_and_empty(paths, "indexing")
    assert index_project(paths, workers=1).nodes > 0


def test_a_streamed_first_index_equals_the_one_written_after_the_parse(tmp_path, monkeypatch):
    """Issue 12 (bounded memory): a first index that writes each file's rows as it is parsed (in
    small batches, through two parse workers), keeps the other references aside till resolution and
    spills the edges and unresolved references to a file stores every table, the schema and the
    full-text answers exactly as the first index that holds everything till the write."""
    from codegraph.index import indexer
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store import db, writer

    monkeypatch.setattr(writer, "now_ms", lambda: 1_700_000_000_000)
    monkeypatch.setattr(db, "_now_ms", lambda: 1_700_000_000_000)
    held = ProjectPaths(_project(tmp_path / "held").resolve())
    index_project(held, workers=2)
    monkeypatch.setattr(indexer, "STREAM_MIN_FILES", 1)
    monkeypatch.setattr(indexer, "STREAM_BATCH", 4)
    monkeypatch.setattr(writer, "SPILL_ROWS", 7)
    spilled: list[int] = []
    take = writer._Spill.take
    monkeypatch.setattr(writer._Spill, "take", lambda self, e, u: (spilled.append(len(e)), take(self, e, u)))
    streamed = ProjectPaths(_project(tmp_path / "streamed").resolve())
    summary = index_project(streamed, workers=2)
    assert sum(spilled) == summary.edges > 0  # the streamed path ran (no duplicate edges here)
    words = ["Thing3", "act_2", "helper_7", "number", "missing_4"]
    assert _dump(streamed.db, words) == _dump(held.db, words)


def test_spilled_edges_of_one_identity_keep_the_first_as_a_held_write_does(tmp_path):
    """Edges spilled to a file are deduplicated when the identity index is built: the first of each
    key stays and the ids run from 1 in order, as when the write is handed the whole list."""
    from codegraph.model import Edge
    from codegraph.store import writer
    from codegraph.store.db import connect_writer

    edges = [
        Edge("a", "b", "calls", 1, 2, {"resolvedBy": "first"}),
        Edge("a", "c", "calls", 3, 4),
        Edge("a", "b", "calls", 1, 2, {"resolvedBy": "second"}),
        Edge("c", "a", "references", None, None),
    ]
    rows = {}
    for name, spill in (("held", False), ("spilled", True)):
        conn = connect_writer(tmp_path / name / "codegraph.db")
        first = writer.FirstWrite(conn, spill=spill)
        first.build_indexes()
        if spill:
            sink = first.sink()
            sink(edges[:2], [])
            sink(edges[2:], [])
        first.finish(edges=[] if spill else edges, unresolved=[], skipped={}, metadata={})
        rows[name] = conn.execute(
            "SELECT id, source, target, kind, metadata, line, col FROM edges ORDER BY id"
        ).fetchall()
        conn.close()
    assert rows["spilled"] == rows["held"]
    assert [r[0] for r in rows["held"]] == [1, 2, 3]
