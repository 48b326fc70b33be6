"""`codegraph status` says what matters (issue 14): languages with file counts, skipped files by reason
with an example path, unresolved references by kind, the daemon and its watcher, the installed agents."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_fixture


def cg(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "CODEX_HOME": ""}
    env.pop("CODEGRAPH_NO_WATCH", None)
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    root = copy_fixture("python", tmp_path).resolve()
    (root / "blob.py").write_bytes(b"\x00" * 100)
    (root / "zblob.py").write_bytes(b"\x00" * 100)
    (root / "big.py").write_text("x = 1\n" * 400)
    assert cg("init", str(root), "--max-bytes", "2000", cwd=root, home=home).returncode == 0
    return root, home


def test_status_lists_languages_skips_with_an_example_unresolved_by_kind_and_no_daemon(project):
    root, home = project
    proc = cg("status", cwd=root, home=home)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "languages: python 11 files" in text
    assert "skipped: 2 files (binary), e.g. blob.py" in text, text
    assert "skipped: 1 file (too large), e.g. big.py" in text, text
    assert "unresolved: 9 calls" in text  # the fixture's calls into builtins / untyped receivers
    assert "daemon: not running" in text
    assert "agents: codegraph is not installed for any agent" in text
    data = json.loads(cg("status", "--json", cwd=root, home=home).stdout)
    assert data["skipped"]["binary"] == {"count": 2, "example": "blob.py"}
    assert data["unresolved_kinds"] == {"calls": 9} and data["daemon"] is None and data["agents"] == []


def test_status_names_the_running_daemon_its_watcher_and_the_installed_agents(project):
    root, home = project
    assert cg("install", "claude", "--yes", "--path", str(root), cwd=root, home=home).returncode == 0
    assert cg("daemon", "start", str(root), cwd=root, home=home).returncode == 0
    try:
        data = json.loads(cg("status", "--json", cwd=root, home=home).stdout)
        text = cg("status", cwd=root, home=home).stdout
    finally:
        cg("daemon", "stop", str(root), cwd=root, home=home)
    assert data["agents"] == [{"target": "claude", "scope": "user", "config": str(home / ".claude.json")}]
    assert data["daemon"]["pid"] > 0 and isinstance(data["daemon"]["watching"], bool)
    assert "agents: claude (user)" in text
    assert f"daemon: pid {data['daemon']['pid']}" in text
    assert ("watching for edits" in text) == data["daemon"]["watching"]


def test_status_says_which_files_were_parsed_with_syntax_errors(tmp_path):
    """A file whose syntax tree holds errors is indexed partially; status says so per language, with an
    example, instead of leaving its missing symbols unexplained."""
    home = tmp_path / "home"
    home.mkdir()
    root = tmp_path / "repo"
    root.mkdir()
    (root / "good.py").write_text("def f():\n    return 1\n")
    (root / "broken.py").write_text("def g(:\n    return 2\n\ndef h():\n    return 3\n")
    assert cg("init", str(root), cwd=root, home=home).returncode == 0
    report = json.loads(cg("status", "--json", cwd=root, home=home).stdout)
    assert report["partial"] == {"python": {"count": 1, "example": "broken.py"}}
    text = cg("status", cwd=root, home=home).stdout
    assert "parsed with syntax errors" in text and "python 1 (e.g. broken.py)" in text
