"""An index that holds no file says why (principle 7: a silent empty answer is a bug). Found on Debian's
linux-source-6.1: its top-level ``.gitignore`` ends with ``/*`` and ``!/debian/``, so outside git the
walk, honouring it as git does, left all 55,000 C files out, and ``codegraph init`` said "indexed: 0
files … skipped: none". Real CLI subprocesses over real trees; outside git (no ``.git``)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from codegraph.index.discover import discover
from tests.conftest import git
from tests.mcp.helpers import CODEGRAPH


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "CODEGRAPH_NO_UPDATE_CHECK": "1"}
    return subprocess.run([CODEGRAPH, *args], cwd=root, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture
def debian_tree(tmp_path):
    """A Debian source package's shape: C sources in kernel/ and lib/, a .gitignore ignoring the top level."""
    root = tmp_path / "linux-source"
    for rel in ("kernel/fork.c", "lib/sort.c"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("int helper(void) { return 1; }\n")
    (root / "debian").mkdir()
    (root / "debian" / "rules.py").write_text("def build():\n    pass\n")
    (root / ".gitignore").write_text("*.o\n/*\n!/debian/\n")
    return root


def test_the_walk_counts_what_each_gitignore_rule_left_out(debian_tree):
    found = discover(debian_tree)
    assert [f.path for f in found.files] == ["debian/rules.py"]  # as git would: /* but !/debian/
    assert found.ignored == {"`/*` in .gitignore": 2}  # kernel/ and lib/


def test_an_index_of_nothing_names_the_rule_and_the_way_out(debian_tree):
    (debian_tree / "debian" / "rules.py").unlink()
    done = _cli(debian_tree, "init", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ignored"] == {"`/*` in .gitignore": 2}
    assert "nothing indexed under" in done.stderr
    assert "`/*` in .gitignore (2 directories or files)" in done.stderr
    assert '"include" in codegraph.json' in done.stderr
    status = _cli(debian_tree, "status")
    assert "why empty: nothing indexed under" in status.stdout
    assert "`/*` in .gitignore (2 directories or files)" in status.stdout
    # the way out it names: codegraph.json include wins over the .gitignore rule
    (debian_tree / "codegraph.json").write_text(json.dumps({"include": ["kernel/"]}))
    synced = _cli(debian_tree, "sync")
    assert synced.returncode == 0, synced.stderr
    assert "indexed: 1 file" in synced.stderr and "nothing indexed" not in synced.stderr
    callers = _cli(debian_tree, "search", "helper")
    assert "kernel/fork.c" in callers.stdout
    assert "why empty" not in _cli(debian_tree, "status").stdout


def test_in_a_git_checkout_the_rule_is_named_too(debian_tree):
    # git lists no ignored untracked file: without asking git which rule ignores them, the tree read
    # as one "with no file of an indexed language" (fresh-install finding, stop 28)
    (debian_tree / "debian" / "rules.py").unlink()
    git(debian_tree, "init", "-q")
    git(debian_tree, "add", "-f", ".gitignore")
    git(debian_tree, "commit", "-qm", "packaging")
    done = _cli(debian_tree, "init", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ignored"] == {"`/*` in .gitignore": 2}
    assert "no file of an indexed language" not in done.stderr
    assert "`git add -f`" in done.stderr
    git(debian_tree, "add", "-f", "kernel/fork.c")  # the way out it names
    synced = _cli(debian_tree, "sync")
    assert "indexed: 1 file" in synced.stderr, synced.stderr
    assert "why empty" not in _cli(debian_tree, "status").stdout


def test_a_rule_changed_without_a_file_changing_is_what_status_says(debian_tree):
    (debian_tree / "debian" / "rules.py").unlink()
    assert _cli(debian_tree, "init").returncode == 0
    (debian_tree / ".gitignore").write_text("*\n")  # another rule, the same (empty) set of files
    synced = _cli(debian_tree, "sync")
    assert "up to date" in synced.stderr
    status = _cli(debian_tree, "status").stdout
    assert "`*` in .gitignore" in status and "`/*`" not in status


def test_an_index_of_a_tree_without_source_says_so(tmp_path):
    root = tmp_path / "docs-only"
    root.mkdir()
    (root / "notes.txt").write_text("nothing to parse\n")
    done = _cli(root, "init")
    assert done.returncode == 0, done.stderr
    assert "no file of an indexed language there" in done.stderr
    assert "no file of an indexed language there" in _cli(root, "status").stdout


def test_an_index_with_files_adds_no_such_line(tmp_path):
    root = tmp_path / "app"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    pass\n")
    (root / ".gitignore").write_text("build/\n")
    done = _cli(root, "init")
    assert done.returncode == 0, done.stderr
    assert "nothing indexed" not in done.stderr
    assert "why empty" not in _cli(root, "status").stdout


def test_every_file_skipped_names_the_reason(tmp_path):
    root = tmp_path / "excluded"
    root.mkdir()
    (root / "app.py").write_text("def main():\n    pass\n")
    (root / "codegraph.json").write_text(json.dumps({"exclude": ["*.py"]}))
    done = _cli(root, "init")
    assert "every file found was skipped: 1 file (excluded by codegraph.json)" in done.stderr
    assert "no file of an indexed language" not in done.stderr
    assert "excluded by codegraph.json" in _cli(root, "status").stdout


def test_a_rule_above_the_project_is_named_from_the_project(tmp_path):
    outer = tmp_path / "outer"
    (outer / "proj" / "src").mkdir(parents=True)
    (outer / "proj" / "src" / "a.py").write_text("x = 1\n")
    (outer / ".gitignore").write_text("proj/\n")
    git(outer, "init", "-q")
    done = _cli(outer / "proj", "init")
    assert "`proj/` in ../.gitignore" in done.stderr, done.stderr
