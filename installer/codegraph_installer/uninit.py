"""``codegraph uninit``: take codegraph out of one project — its daemon stopped, the git hooks it added
removed (our marked block only; a hook that held nothing else is deleted, a user's own lines stay), and
``.codegraph/`` deleted (issue 14). :func:`plan` says what would go; :func:`apply` does it."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from codegraph.errors import CodegraphError
from codegraph.paths import DIR_NAME
from codegraph_installer.disk import read_text
from codegraph_installer.githooks import BEGIN, HOOK_NAMES, hooks_folder, uninstall_git_hooks


class UninitRefused(CodegraphError):
    """``uninit`` left the project alone: an index run is going, or no confirmation was given."""

    exit_code = 2


@dataclass
class UninitResult:
    """``index``: the ``.codegraph`` folder (None when there was none); ``hooks``: hook files that held
    codegraph's block (``delete``: only ours, removed; ``update``: our block cut out); ``daemons``: pids
    of the daemons stopped. ``done`` is False for a plan."""

    root: str
    index: str | None
    hooks: list[dict] = field(default_factory=list)
    daemons: list[int] = field(default_factory=list)
    done: bool = False

    @property
    def empty(self) -> bool:
        return self.index is None and not self.hooks


def _root(path: str | os.PathLike[str] | None) -> Path:
    """The project: the nearest folder at or above ``path`` with ``.codegraph/``, else ``path``."""
    start = Path(path or os.getcwd()).resolve()
    for folder in (start, *start.parents):
        if (folder / DIR_NAME).is_dir():
            return folder
    return start


def _our_hooks(root: Path) -> list[dict]:
    try:
        folder = hooks_folder(root)
    except (subprocess.CalledProcessError, FileNotFoundError):  # not a git repository, or no git
        return []
    hooks = []
    for name in HOOK_NAMES:
        text = read_text(folder / name)
        if text is not None and BEGIN in text:
            hooks.append({"path": str(folder / name), "status": "pending"})
    return hooks


def plan(path: str | os.PathLike[str] | None = None) -> UninitResult:
    """What :func:`apply` would remove for the project at or above ``path`` (nothing is touched)."""
    root = _root(path)
    index = root / DIR_NAME
    return UninitResult(str(root), str(index) if index.is_dir() else None, _our_hooks(root))


def apply(path: str | os.PathLike[str] | None = None) -> UninitResult:
    """Stop the project's daemon, remove codegraph's git hook blocks and delete ``.codegraph/``.

    Raises:
        UninitRefused: an index run holds the project's lock (its pid is named).
        OSError: ``.codegraph`` could not be deleted (permissions); the hooks are already clean then.
    """
    from codegraph.index.background import lock_holder
    from codegraph.paths import ProjectPaths

    result = plan(path)
    root = Path(result.root)
    if result.index is not None:
        holder = lock_holder(ProjectPaths(root))
        if holder is not None:
            raise UninitRefused(
                f"an index run is going in {root} (pid {holder.get('pid')}); let it finish or stop it first"
            )
        from codegraph.mcp import service

        result.daemons = [d["pid"] for d in service.stop(root)]
    if result.hooks:
        changes = uninstall_git_hooks(root).changes
        result.hooks = [{"path": str(c.path), "status": c.status} for c in changes if c.status != "unchanged"]
    if result.index is not None:
        index = Path(result.index)
        if index.is_symlink():
            index.unlink()
        else:
            shutil.rmtree(index)
    result.done = True
    return result
