"""`codegraph affected`: tests and callers a change touches, over a real index and real git (issue 14)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codegraph.errors import GitFailed
from codegraph.index.indexer import index_project
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from codegraph.query.affected import affected, changes_since
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture, git

VIEWS_TEST = "from shop.views import list_products\n\n\ndef test_list():\n    list_products(None)\n"
TREE_TEST = "from shop.utils.tree import Node\n\n\ndef test_node():\n    Node()\n"


@pytest.fixture
def repo(tmp_path) -> Path:
    """The python fixture plus two tests (one reaching views.py, one tree.py), committed and indexed."""
    root = copy_fixture("python", tmp_path).resolve()
    (root / "tests").mkdir()
    (root / "tests" / "test_views.py").write_text(VIEWS_TEST)
    (root / "tests" / "test_tree.py").write_text(TREE_TEST)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    index_project(ProjectPaths(root), workers=1)
    return root


def cg(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        timeout=120,
    )


def test_a_test_reaches_a_file_it_imports_only_transitively(repo):
    # test_views → views.py → db/query.py → db/sql/query.py → db/sql/where.py
    with Reader(repo) as r:
        result = affected(r, ["shop/db/sql/where.py"])
    assert result.changed == ["shop/db/sql/where.py"]
    assert result.tests == ["tests/test_views.py"]
    assert "shop/views.py" in result.files and "shop/db/sql/where.py" not in result.files


def test_a_file_no_test_depends_on_lists_no_test_and_a_changed_test_lists_itself(repo):
    with Reader(repo) as r:
        assert affected(r, ["shop/sitemaps/__init__.py"]).tests == []
        assert affected(r, ["tests/test_tree.py"]).tests == ["tests/test_tree.py"]
        both = affected(r, ["shop/utils/tree.py", "shop/views.py"])
    assert both.tests == ["tests/test_tree.py", "tests/test_views.py"]


def test_changed_symbols_come_with_their_callers(repo):
    with Reader(repo) as r:
        result = affected(r, ["shop/db/sql/where.py"])
    where = next(s for s in result.symbols if s.symbol == "WhereNode")
    assert [(c.file, c.line) for c in where.callers] == [("shop/db/sql/query.py", 7)]
    assert where.callers_total == 1


def test_paths_not_in_the_index_are_reported_not_dropped(repo):
    with Reader(repo) as r:
        result = affected(r, ["README.md", "./shop/views.py"])
    assert result.not_indexed == ["README.md"] and result.changed == ["shop/views.py"]


def test_since_uses_git_for_committed_unstaged_and_untracked_changes_and_narrows_to_lines(repo):
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    tree = repo / "shop/utils/tree.py"
    tree.write_text(tree.read_text() + "\n# touched\n")
    git(repo, "commit", "-qam", "touch tree")
    (repo / "shop/views.py").write_text((repo / "shop/views.py").read_text() + "\n")  # unstaged
    (repo / "shop/new.py").write_text("X = 1\n")  # untracked
    paths, lines = changes_since(repo, base)
    assert paths == ["shop/new.py", "shop/utils/tree.py", "shop/views.py"]
    assert "shop/new.py" not in lines and lines["shop/utils/tree.py"]
    with Reader(repo) as r:
        result = affected(r, paths, lines=lines, since=base)
    assert result.tests == ["tests/test_tree.py", "tests/test_views.py"]
    assert result.not_indexed == ["shop/new.py"]
    # a comment appended after every definition: no changed symbol, so no caller listed
    assert not [s for s in result.symbols if s.file == "shop/utils/tree.py"]


def test_since_with_an_unknown_revision_or_outside_git_is_one_clear_error(repo, tmp_path):
    with pytest.raises(GitFailed, match="unknown git revision 'nope'"):
        changes_since(repo, "nope")
    with pytest.raises(GitFailed, match="not a revision"):
        changes_since(repo, "--output=/tmp/x")
    bare = tmp_path / "bare"
    bare.mkdir()
    with pytest.raises(GitFailed, match="not a git repository"):
        changes_since(bare, "HEAD")


def test_cli_reads_files_from_args_stdin_and_git_and_prints_json(repo):
    proc = cg("affected", "shop/db/sql/where.py", "--json", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["tests"] == ["tests/test_views.py"]
    proc = cg("affected", "--stdin", "--json", cwd=repo / "shop", stdin="views.py\n\nutils/tree.py\n")
    data = json.loads(proc.stdout)
    assert data["changed"] == ["shop/utils/tree.py", "shop/views.py"]
    # no arguments: the uncommitted changes
    (repo / "shop/views.py").write_text((repo / "shop/views.py").read_text() + "\n")
    proc = cg("affected", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert "changed since HEAD (1 indexed): shop/views.py" in proc.stdout
    assert "tests affected (1):\n  tests/test_views.py" in proc.stdout
    bad = cg("affected", "--since", "nope", cwd=repo)
    assert bad.returncode == 2 and bad.stderr.strip() == f"codegraph: unknown git revision 'nope' in {repo}"
    assert "Traceback" not in bad.stderr


def test_mcp_tool_is_not_listed_by_default_and_answers_when_enabled(repo, monkeypatch):
    from codegraph.mcp.tools import list_tools

    assert "codegraph_affected" not in [t["name"] for t in list_tools({})]
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "explore,affected")
    result = call_tool("codegraph_affected", {"files": ["shop/db/sql/where.py"]}, default_root=repo)
    assert result["isError"] is False
    assert "tests affected (1):\n  tests/test_views.py" in result["content"][0]["text"]
    bad = call_tool("codegraph_affected", {"files": "shop/views.py"}, default_root=repo)
    assert bad["isError"] is True and bad["content"][0]["text"] == "'files' must be an array of strings."
    clean = call_tool("codegraph_affected", {}, default_root=repo)
    assert "No changed files since HEAD." in clean["content"][0]["text"]


def test_since_reads_the_diff_as_git_writes_it(tmp_path):
    # each of these misled the line-range reading of `git diff -U0` (issue 14 finding, stop 27): a
    # path with a space (git writes a tab after it), a path git quotes, an added line that reads as a
    # file header ("++ b/x.py" in a hunk is "+++ b/x.py"), and a CR inside a line
    root = tmp_path / "repo"
    root.mkdir()
    body = "".join(f"line{i} = {i}\n" for i in range(1, 21))
    names = ["with space.py", 'q"uote.py', "header.py", "cr.py"]
    for name in names:
        (root / name).write_bytes(body.encode())
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    base = git(root, "rev-parse", "HEAD").strip()
    lines = body.splitlines(keepends=True)

    def edit(name: str, at: dict[int, str]) -> None:
        (root / name).write_bytes("".join(at.get(i, line) for i, line in enumerate(lines, 1)).encode())

    edit("with space.py", {3: "line3 = 'three'\n"})
    edit('q"uote.py', {4: "line4 = 'four'\n"})
    edit("header.py", {2: "++ b/elsewhere.py\n", 15: "line15 = 'fifteen'\n"})
    edit("cr.py", {5: "x = 1\r@@ -1 +900,2 @@\n"})
    paths, ranges = changes_since(root, base)
    assert paths == sorted(names)
    assert ranges["with space.py"] == [(3, 3)]
    assert ranges['q"uote.py'] == [(4, 4)]
    assert ranges["header.py"] == [(2, 2), (15, 15)]
    assert "elsewhere.py" not in ranges
    assert ranges["cr.py"] == [(5, 5)]
