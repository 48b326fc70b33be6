"""An indexed file whose source is gone or no longer text (issue 9): answers come from the index and say
why the source is missing, in the same words in every command; never a traceback, never raw bytes."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from codegraph.index.indexer import index_project
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture


def cg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    return root


def test_node_of_a_symbol_in_a_deleted_file_answers_from_the_index_and_says_the_file_is_gone(project):
    (project / "shop" / "db" / "deletion.py").unlink()
    proc = cg("node", "Collector.add", "-p", str(project))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout.startswith("Collector::add (method) shop/db/deletion.py:")
    assert "source not shown: shop/db/deletion.py — deleted since the last index" in proc.stdout
    assert "called by (" in proc.stdout
    out = call_tool("codegraph_node", {"symbol": "Collector.add"}, default_root=project)
    text = out["content"][0]["text"]
    assert out["isError"] is False and "deleted since the last index" in text, text
    view = cg("node", "--file", "shop/db/deletion.py", "-p", str(project))
    assert view.returncode == 4 and "shop/db/deletion.py: deleted since the last index" in view.stderr


def test_a_source_file_overwritten_with_random_bytes_is_named_not_printed(project):
    rng = random.Random(9)
    noise = bytes(rng.getrandbits(8) for _ in range(3000))
    (project / "shop" / "db" / "deletion.py").write_bytes(noise)
    proc = cg("explore", "Collector add", "-p", str(project))
    assert proc.returncode == 0, proc.stderr
    assert "### shop/db/deletion.py" not in proc.stdout and "\ufffd" not in proc.stdout
    assert "- shop/db/deletion.py — not text on disk (binary content)" in proc.stdout
    node = cg("node", "Collector.add", "-p", str(project))
    assert "source not shown: shop/db/deletion.py — not text on disk (binary content)" in node.stdout
    assert "\ufffd" not in node.stdout
