"""Which directory `init`/`index` index (issue 9): an explicit PATH is the project root, a missing one is
refused and never created."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import git


def cg(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, timeout=120, cwd=cwd
    )


def test_init_refuses_a_missing_directory_and_creates_nothing(tmp_path):
    target = tmp_path / "typo" / "a" / "b"
    for command in ("init", "index"):
        proc = cg(command, str(target))
        assert proc.returncode == 2, proc.stderr
        assert (
            proc.stderr
            == f"codegraph: {target} does not exist; give the project's directory (it is never created).\n"
        )
    assert not (tmp_path / "typo").exists()
    (tmp_path / "file.py").write_text("x = 1\n")
    proc = cg("init", str(tmp_path / "file.py"))
    assert proc.returncode == 2 and "is a file" in proc.stderr
    assert not (tmp_path / ".codegraph").exists()


def test_init_of_a_repository_nested_in_an_indexed_project_indexes_it_on_its_own(tmp_path):
    outer = tmp_path / "outer"
    inner = outer / "libs" / "inner"
    inner.mkdir(parents=True)
    (outer / "o.py").write_text("def outer():\n    pass\n")
    (inner / "i.py").write_text("def inner():\n    pass\n")
    git(outer, "init", "-q")
    git(inner, "init", "-q")
    assert cg("init", str(outer)).returncode == 0
    proc = cg("init", str(inner))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("indexed: 1 file ("), proc.stderr
    assert (inner / ".codegraph" / "codegraph.db").is_file()
    assert "inner (function)  i.py:1" in cg("search", "inner", cwd=inner).stdout
    # queries still walk up to the nearest index, and init without PATH re-syncs the enclosing one
    assert "outer (function)  o.py:1" in cg("search", "outer", cwd=outer / "libs").stdout
    assert cg("init", cwd=outer / "libs").stderr.startswith("up to date: 1 file (")
    assert not (outer / "libs" / ".codegraph").exists()
