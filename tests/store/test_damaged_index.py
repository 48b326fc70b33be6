"""A database damaged in the middle (random bytes over some of its pages, issue 9): every command says so
in one line, keeps the damaged file aside and answers from a rebuilt index, never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture


def cg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, timeout=120
    )


def damage(db: Path, names: tuple[str, ...]) -> None:
    """Overwrite the root page of each named table or index with random bytes."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    marks = ",".join("?" * len(names))
    roots = [r[0] for r in conn.execute(f"SELECT rootpage FROM sqlite_master WHERE name IN ({marks})", names)]
    conn.close()
    assert len(roots) == len(names)
    with db.open("r+b") as fh:
        for page in roots:
            fh.seek(size * (page - 1))
            fh.write(os.urandom(size))


@pytest.fixture
def project(tmp_path) -> Path:
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    return root


TABLES = ("nodes", "edges", "files")


@pytest.mark.parametrize(
    "args, expect",
    [
        (("explore", "Collector add"), "Collector"),
        (("context", "delete collector"), "Collector"),
        (("node", "--file", "shop/db/deletion.py"), "class Collector"),
        (("node", "Collector.add"), "def add"),
    ],
    ids=["explore", "context", "node --file", "node"],
)
def test_a_query_over_a_damaged_index_says_so_rebuilds_and_answers(project, args, expect):
    damage(project / ".codegraph" / "codegraph.db", TABLES)
    proc = cg(*args, "-p", str(project))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("codegraph: The index was damaged ("), proc.stderr
    kept = sorted(p.name for p in (project / ".codegraph").glob("codegraph.db.corrupt-*[0-9]"))
    assert kept and kept[0] in lines[0]
    assert expect in proc.stdout
    assert json.loads(cg("status", "-p", str(project), "--json").stdout)["counts"]["files"] == 11


def test_sync_finds_damage_it_would_not_read_and_rebuilds(project):
    # the search indexes: a no-change sync never reads them, explore and search do
    damage(project / ".codegraph" / "codegraph.db", ("nodes_fts_idx", "idx_nodes_name"))
    proc = cg("sync", str(project))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "up to date" not in proc.stderr
    assert (
        "codegraph.db was damaged (" in proc.stderr and "rebuilt the index; indexed: 11 files" in proc.stderr
    )
    assert list((project / ".codegraph").glob("codegraph.db.corrupt-*[0-9]"))
    assert "Collector" in cg("search", "Collector", "-p", str(project)).stdout
    assert cg("sync", str(project)).stderr.startswith("up to date: 11 files")


def test_the_mcp_tools_answer_over_a_damaged_index_and_say_it_was_rebuilt(project, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    damage(project / ".codegraph" / "codegraph.db", TABLES)
    out = call_tool("codegraph_explore", {"query": "Collector add"}, default_root=project)
    text = out["content"][0]["text"]
    assert out["isError"] is False, text
    assert text.startswith("The index was damaged (") and "Collector" in text
    again = call_tool("codegraph_node", {"file": "shop/db/deletion.py"}, default_root=project)
    assert again["isError"] is False and "class Collector" in again["content"][0]["text"]
    assert len(list((project / ".codegraph").glob("codegraph.db.corrupt-*[0-9]"))) == 1
