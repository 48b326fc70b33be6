"""`codegraph uninit`: .codegraph/ and codegraph's git hook lines go, the user's own hook lines and
files stay; it asks first (a real pty), --yes skips the question, no terminal and no --yes refuses."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from codegraph_installer.githooks import BEGIN, install_git_hooks

from tests.conftest import copy_fixture, git


def cg(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=cwd, input=stdin,
        timeout=120,
    )  # fmt: skip


@pytest.fixture
def project(tmp_path) -> Path:
    root = copy_fixture("python", tmp_path).resolve()
    git(root, "init", "-q")
    hooks = root / ".git" / "hooks"
    (hooks / "post-commit").write_text("#!/bin/sh\necho user-hook\n")
    (hooks / "post-commit").chmod(0o755)
    install_git_hooks(root, "codegraph sync --background .")
    assert cg("init", str(root), cwd=root).returncode == 0
    return root


def test_yes_removes_the_index_and_our_hook_lines_and_keeps_the_users(project):
    proc = cg("uninit", "--yes", cwd=project / "shop")  # from a subfolder: the project above is found
    assert proc.returncode == 0, proc.stderr
    assert not (project / ".codegraph").exists()
    hooks = project / ".git" / "hooks"
    assert (hooks / "post-commit").read_text() == "#!/bin/sh\necho user-hook\n"
    assert not (hooks / "post-merge").exists() and not (hooks / "post-checkout").exists()
    assert (project / "shop" / "views.py").is_file()
    assert f"codegraph uninit: codegraph removed from {project}" in proc.stdout
    again = cg("uninit", "--yes", "--json", cwd=project)
    assert again.returncode == 0 and json.loads(again.stdout)["index"] is None


def test_without_a_terminal_or_yes_nothing_is_removed(project):
    proc = cg("uninit", "--json", cwd=project)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "codegraph: not removing anything without a confirmation: pass --yes"
    assert json.loads(proc.stdout)["error"] == "UninitRefused"
    assert (project / ".codegraph" / "codegraph.db").is_file()
    assert BEGIN in (project / ".git" / "hooks" / "post-merge").read_text()


def _answer_in_pty(project: Path, answer: bytes) -> tuple[int, str]:
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(project)
        os.execv(sys.executable, [sys.executable, "-m", "codegraph", "uninit"])
    out = b""
    end = time.monotonic() + 60
    while b"[y/N]" not in out and time.monotonic() < end:
        if select.select([fd], [], [], 0.1)[0]:
            out += os.read(fd, 65536)
    os.write(fd, answer)
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def test_on_a_terminal_it_lists_what_goes_and_asks_first(project):
    code, out = _answer_in_pty(project, b"n\n")
    assert code == 2 and "would remove" in out and str(project / ".codegraph") in out, out
    assert (project / ".codegraph").is_dir()
    code, out = _answer_in_pty(project, b"y\n")
    assert code == 0, out
    assert not (project / ".codegraph").exists()


def test_a_folder_without_codegraph_has_nothing_to_remove(tmp_path):
    proc = cg("uninit", "--yes", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0
    assert "nothing to remove" in proc.stdout
