"""What `status` and the queries say about an index that never finished, a sync that was interrupted,
and a run going now (a new user's report, 2026-12-01: "state: indexing" with nothing running, and
"No symbol named…" from an index that had never been written)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from codegraph.index import background
from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture


def cg(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def _interrupt_at_parsing(paths: ProjectPaths) -> None:
    """A real index run stopped the way Ctrl-C stops it: KeyboardInterrupt as parsing starts."""

    def phase(name: str, _count) -> None:
        if name == "parsing":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        index_project(paths, workers=1, phase=phase)


def _state(root: Path) -> str:
    conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    try:
        return conn.execute("SELECT value FROM project_metadata WHERE key = 'index_state'").fetchone()[0]
    finally:
        conn.close()


def test_an_interrupted_first_index_is_called_unfinished_and_queries_say_so_not_no_symbol(tmp_path):
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    paths.dir.mkdir()
    _interrupt_at_parsing(paths)
    assert _state(root) == "indexing"  # what the stopped run leaves: the flag, no index
    status = cg("status", "-p", str(root))
    assert status.returncode == 0, status.stderr
    assert "state: unfinished" in status.stdout
    assert "state: indexing" not in status.stdout and "codegraph ?" not in status.stdout
    assert "no index run is going now; run `codegraph sync` to finish it" in status.stdout
    assert "stale:" not in status.stdout  # not 11 "added" files: the sync it asks for indexes them
    line = "codegraph: the index is unfinished: the last run was interrupted; run `codegraph sync`\n"
    for args in (("callers", "add_q"), ("explore", "how are queries built"), ("node", "Query")):
        proc = cg(*args, "-p", str(root))
        assert (proc.returncode, proc.stderr, proc.stdout) == (3, line, ""), args
    data = json.loads(cg("search", "add_q", "-p", str(root), "--json").stdout)
    assert data["error"] == "IndexUnfinished" and data["exit_code"] == 3
    assert cg("sync", str(root)).returncode == 0
    assert "QuerySet::filter" in cg("callers", "add_q", "-p", str(root)).stdout


def test_an_interrupted_sync_of_a_complete_index_is_not_called_indexing(tmp_path):
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    (root / "shop" / "views.py").write_text("def changed():\n    pass\n")
    _interrupt_at_parsing(ProjectPaths(root.resolve()))
    assert _state(root) == "indexing"
    out = cg("status", "-p", str(root)).stdout
    assert "state: interrupted (the last sync did not finish; the last complete index answers)" in out
    assert "state: indexing" not in out and "written by codegraph (python)" in out
    assert "run `codegraph sync`" in out and "modified: shop/views.py" in out
    proc = cg("callers", "add_q", "-p", str(root))  # the last complete index still answers
    assert proc.returncode == 0 and "QuerySet::filter" in proc.stdout


def test_status_while_a_run_holds_the_lock_shows_progress_and_no_sync_advice(tmp_path):
    root = copy_fixture("python", tmp_path)
    assert cg("init", str(root)).returncode == 0
    (root / "shop" / "new.py").write_text("def n():\n    pass\n")
    paths = ProjectPaths(root.resolve())
    assert background.try_lock(paths)  # this test process is the live run holding the lock
    try:
        background.progress_writer(paths)(3, 12)
        out = cg("status", "-p", str(root)).stdout
    finally:
        background.release_lock(paths)
    assert "state: indexing (3/12) — answers come from the last complete index" in out
    assert "run `codegraph sync`" not in out and "added:" not in out and "stale:" not in out
    after = cg("status", "-p", str(root)).stdout  # the lock released: the change is stale again
    assert "added: shop/new.py" in after and "state: complete" in after


def test_a_query_during_the_first_run_says_it_is_still_going(tmp_path):
    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    paths.dir.mkdir()
    _interrupt_at_parsing(paths)
    assert background.try_lock(paths)
    try:
        proc = cg("callers", "add_q", "-p", str(root))
        status = cg("status", "-p", str(root)).stdout
    finally:
        background.release_lock(paths)
    assert proc.returncode == 3
    assert "the first index run (pid" in proc.stderr and "is still going" in proc.stderr
    assert "state: indexing — the first index, none complete yet" in status


def test_the_mcp_tools_say_unfinished_too(tmp_path):
    from codegraph.mcp.dispatch import call_tool

    root = copy_fixture("python", tmp_path)
    paths = ProjectPaths(root.resolve())
    paths.dir.mkdir()
    _interrupt_at_parsing(paths)
    answer = call_tool("codegraph_explore", {"query": "how are queries built"}, default_root=root)
    text = answer["content"][0]["text"]
    assert "the index is unfinished: the last run was interrupted; run `codegraph sync`" in text
    assert "No symbol" not in text
