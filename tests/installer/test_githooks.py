"""Git hooks between markers (core.hooksPath, husky, worktrees honoured) and worktree detection,
against real git repositories."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest
from codegraph_installer.githooks import HOOK_NAMES, detect_worktree, install_git_hooks, uninstall_git_hooks


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    return subprocess.run(
        ["git", "-C", str(cwd), *args], capture_output=True, text=True, check=True, env=env
    ).stdout


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "a.py").write_text("x = 1\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "one")
    return root


def test_hooks_are_created_executable_and_run_the_command_after_a_commit(repo, tmp_path):
    marker = tmp_path / "ran"
    result = install_git_hooks(repo, f"touch {marker}")
    assert [c.status for c in result.changes] == ["create"] * 4
    assert result.folder == repo / ".git" / "hooks"
    for name in HOOK_NAMES:
        assert os.access(result.folder / name, os.X_OK)
    (repo / "a.py").write_text("x = 2\n")
    git(repo, "commit", "-qam", "two")
    deadline = time.monotonic() + 5
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marker.exists()


def test_existing_hooks_keep_their_lines_reinstall_is_unchanged_and_uninstall_restores_bytes(repo):
    existing = repo / ".git" / "hooks" / "post-merge"
    original = "#!/bin/sh\n# team hook\nnpm install --silent\n"
    existing.write_text(original)
    install_git_hooks(repo, "codegraph index --background .")
    text = existing.read_text()
    assert text.startswith(original) and "codegraph index --background ." in text
    again = install_git_hooks(repo, "codegraph index --background .")
    assert [c.status for c in again.changes] == ["unchanged"] * 4
    install_git_hooks(repo, "/new/codegraph index --background .")  # a new command replaces our block
    assert existing.read_text().count("codegraph: keep the code index fresh") == 1
    uninstall_git_hooks(repo)
    assert existing.read_text() == original
    assert not (repo / ".git" / "hooks" / "post-commit").exists()


def test_core_hooks_path_is_honoured_and_husky_user_scripts_are_edited(repo):
    git(repo, "config", "core.hooksPath", ".githooks")
    assert install_git_hooks(repo, "true").folder == repo / ".githooks"
    uninstall_git_hooks(repo)
    (repo / ".husky" / "_").mkdir(parents=True)
    git(repo, "config", "core.hooksPath", ".husky/_")
    assert install_git_hooks(repo, "true").folder == repo / ".husky"
    assert (repo / ".husky" / "post-checkout").exists() and not (
        repo / ".husky" / "_" / "post-checkout"
    ).exists()


def test_a_hook_that_exits_early_is_reported(repo):
    (repo / ".git" / "hooks" / "post-commit").write_text("#!/bin/sh\nrun-things\nexit 0\n")
    changes = {c.path.name: c for c in install_git_hooks(repo, "true").changes}
    assert "exits before" in changes["post-commit"].note


def test_detect_worktree_tells_main_checkout_linked_worktree_and_whose_index_it_is(repo, tmp_path):
    (repo / ".codegraph").mkdir()
    (repo / ".codegraph" / "codegraph.db").write_bytes(b"")
    main = detect_worktree(repo)
    assert (main.toplevel, main.main_checkout, main.is_linked, main.index_is_own) == (repo, repo, False, True)
    linked_path = tmp_path / "feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(linked_path))
    linked = detect_worktree(linked_path)
    assert linked.toplevel == linked_path and linked.main_checkout == repo and linked.is_linked
    assert linked.git_common_dir == repo / ".git"
    assert linked.index_root is None and not linked.index_is_own
    nested = repo / "wt"
    git(repo, "worktree", "add", "-q", "-b", "nested", str(nested))
    inside = detect_worktree(nested)
    assert inside.index_root == repo and not inside.index_is_own  # the parent's index describes other files
