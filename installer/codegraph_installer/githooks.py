"""Git hooks that keep the index fresh after checkout, merge, commit and rewrite, and worktree facts.

Library calls only (issue 5): ``install_git_hooks(root, command)``, ``uninstall_git_hooks(root)``,
``detect_worktree(path)``. The hooks folder is whatever git itself uses — ``git rev-parse --git-path
hooks`` honours ``core.hooksPath`` and linked worktrees; for husky (``core.hooksPath = .husky/_``, whose
files husky regenerates) the user-owned ``.husky/<hook>`` scripts are edited instead. Our lines sit
between marker lines, appended to an existing hook without touching its lines, and run detached so a
git command never waits for or fails because of codegraph.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from codegraph_installer.disk import read_text

HOOK_NAMES = ("post-checkout", "post-merge", "post-commit", "post-rewrite")
BEGIN = "# >>> codegraph: keep the code index fresh (codegraph uninstall removes this) >>>"
END = "# <<< codegraph <<<"
SHEBANG = "#!/bin/sh\n"


@dataclass
class HookChange:
    path: Path
    status: str  # create, update, unchanged, delete
    note: str = ""


@dataclass
class GitHooksResult:
    folder: Path
    changes: list[HookChange] = field(default_factory=list)


def _git(root: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def hooks_folder(root: Path) -> Path:
    """The folder git runs hooks from for ``root`` (husky's generated ``_`` folder → its parent)."""
    folder = Path(_git(root, "rev-parse", "--git-path", "hooks"))
    if not folder.is_absolute():
        folder = (root / folder).resolve()
    if folder.name == "_" and folder.parent.name == ".husky":
        return folder.parent
    return folder


def _block(command: str) -> str:
    return f"{BEGIN}\n( {command} ) </dev/null >/dev/null 2>&1 &\n{END}\n"


def _strip_block(text: str) -> str | None:
    """``text`` without our block (and the blank line we put before it); None when there is none."""
    start = text.find(BEGIN)
    if start < 0:
        return None
    end = text.find(END, start)
    end = len(text) if end < 0 else end + len(END)
    if text[end : end + 1] == "\n":
        end += 1
    if text[max(0, start - 2) : start] == "\n\n":
        start -= 1
    return text[:start] + text[end:]


def install_git_hooks(root: str | os.PathLike[str], command: str) -> GitHooksResult:
    """Add ``command`` (a shell command line, run detached) to the four hooks of the repo at ``root``.

    Re-running with the same command changes nothing; a different command replaces our block.

    Raises:
        subprocess.CalledProcessError: ``root`` is not inside a git repository.
    """
    root = Path(root).resolve()
    folder = hooks_folder(root)
    result = GitHooksResult(folder)
    block = _block(command)
    folder.mkdir(parents=True, exist_ok=True)
    for name in HOOK_NAMES:
        path = folder / name
        text = read_text(path)
        if text is None:
            new, status = SHEBANG + block, "create"
        elif block in text:
            result.changes.append(HookChange(path, "unchanged"))
            continue
        else:
            base = _strip_block(text)
            base = text if base is None else base
            sep = "" if base.endswith("\n") else "\n"
            new, status = base + sep + "\n" + block, "update"
        note = ""
        if text and any(line.strip().startswith("exit") for line in text.splitlines()[-3:]):
            note = "the hook exits before reaching codegraph's lines; move them above the exit"
        path.write_text(new, encoding="utf-8", newline="")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        result.changes.append(HookChange(path, status, note))
    return result


def uninstall_git_hooks(root: str | os.PathLike[str]) -> GitHooksResult:
    """Remove our block from each hook; a hook file that only held our block is deleted."""
    root = Path(root).resolve()
    folder = hooks_folder(root)
    result = GitHooksResult(folder)
    for name in HOOK_NAMES:
        path = folder / name
        text = read_text(path)
        if text is None:
            continue
        base = _strip_block(text)
        if base is None:
            result.changes.append(HookChange(path, "unchanged"))
        elif base.strip() in ("", SHEBANG.strip()):
            path.unlink()
            result.changes.append(HookChange(path, "delete"))
        else:
            path.write_text(base, encoding="utf-8", newline="")
            result.changes.append(HookChange(path, "update"))
    return result


def refresh_command(codegraph: str, root: Path) -> str:
    """The usual hook command: a background index of ``root``."""
    return f"{shlex.quote(codegraph)} index --background {shlex.quote(str(root))}"


@dataclass(frozen=True)
class Worktree:
    """Where a path sits in git: its checkout (``toplevel``), the main checkout (None for a bare repo),
    the shared git dir, whether it is a linked worktree, the index found at or above the path, and
    whether that index belongs to this checkout (an index found in the main checkout or a parent folder
    describes other files)."""

    toplevel: Path
    main_checkout: Path | None
    git_common_dir: Path
    is_linked: bool
    index_root: Path | None
    index_is_own: bool


def detect_worktree(path: str | os.PathLike[str]) -> Worktree:
    """Worktree facts for ``path``.

    Raises:
        subprocess.CalledProcessError: ``path`` is not inside a git work tree.
    """
    from codegraph_hooks.index_info import find_root

    path = Path(path).resolve()
    top, git_dir, common = _git(
        path, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"
    ).splitlines()
    toplevel, git_dir_path, common_dir = Path(top), Path(git_dir).resolve(), Path(common).resolve()
    main = common_dir.parent if common_dir.name == ".git" else None
    index_root = find_root(path)
    return Worktree(
        toplevel=toplevel,
        main_checkout=main,
        git_common_dir=common_dir,
        is_linked=git_dir_path != common_dir,
        index_root=index_root,
        index_is_own=index_root is not None and index_root.resolve() == toplevel.resolve(),
    )
