"""`codegraph node PATH` (a file path where a symbol goes) and `node --file` for a file that is gone
(a new user's report, 2026-12-01: "No symbol named 'gin.go'", and "indexes source files only" for a
file removed since)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import copy_fixture


def cg(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_node_given_an_indexed_file_path_shows_the_file_view_as_file_would(tmp_path):
    root = copy_fixture("go", tmp_path)
    assert cg("init", str(root)).returncode == 0
    for arg in ("main.go", "store/helpers.go", "helpers.go"):  # exact, and a suffix on a "/" boundary
        proc = cg("node", arg, "-p", str(root))
        want = cg("node", "--file", arg, "-p", str(root))
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == want.stdout and want.returncode == 0
    text = cg("node", "store/helpers.go", "-p", str(root)).stdout
    assert text.startswith("store/helpers.go · ") and "4\tfunc clampBonus(n int) int {" in text
    symbols = cg("node", "helpers.go", "--symbols-only", "-p", str(root)).stdout
    assert "\nfunction clampBonus" in symbols or "\tfunction clampBonus" in symbols


def test_node_with_a_symbol_name_still_shows_the_symbol_and_a_non_path_stays_not_found(tmp_path):
    root = copy_fixture("go", tmp_path)
    assert cg("init", str(root)).returncode == 0
    proc = cg("node", "clampBonus", "-p", str(root))
    assert proc.returncode == 0 and proc.stdout.startswith("clampBonus (function) store/helpers.go:4-")
    missing = cg("node", "nothing.go", "-p", str(root))
    assert missing.returncode == 4 and "No symbol named 'nothing.go'" in missing.stderr
    # a substring of a path is not a path (--file would take it): only whole path segments count
    part = cg("node", "ore/helpers.go", "-p", str(root))
    assert part.returncode == 4 and "No symbol named 'ore/helpers.go'" in part.stderr


def test_node_file_of_a_removed_file_says_no_such_file_before_and_after_sync(tmp_path):
    root = copy_fixture("go", tmp_path)
    assert cg("init", str(root)).returncode == 0
    (root / "store" / "helpers.go").unlink()
    before = cg("node", "--file", "store/helpers.go", "-p", str(root))
    assert before.returncode != 0 and "store/helpers.go: deleted since the last index" in before.stderr
    assert cg("sync", str(root)).returncode == 0
    after = cg("node", "--file", "store/helpers.go", "-p", str(root))
    assert after.returncode != 0
    assert "store/helpers.go: no such file in the project" in after.stderr
    assert "indexes source files only" not in after.stderr
