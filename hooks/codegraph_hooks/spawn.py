"""Start a codegraph command fully detached from the agent.

An attached child stalled Claude Code's startup 20 s despite ``"timeout": 10`` (FACTS.md): the agent
waits for EOF on the hook's stdout, which a child holding that pipe never gives. So the child gets a new
session, /dev/null on stdin/stdout/stderr and no other inherited descriptors. ``os.posix_spawn`` is used
rather than subprocess so nothing waits on it or warns about it when the hook exits.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def codegraph_argv() -> list[str]:
    """How to run ``codegraph``: ``$CODEGRAPH_BIN``, else the console script next to this interpreter,
    else ``python -m codegraph``."""
    override = os.environ.get("CODEGRAPH_BIN")
    if override:
        return [override]
    script = Path(sys.executable).parent / "codegraph"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "codegraph"]


def _inherited_fds() -> list[int]:
    try:
        return sorted(int(name) for name in os.listdir("/proc/self/fd") if int(name) > 2)
    except OSError:
        return list(range(3, 256))


def spawn_detached(args: list[str], cwd: Path) -> int:
    """Start ``codegraph <args>`` in ``cwd``, detached. Returns the child's pid (never waited for).

    Raises:
        OSError: the executable cannot be started.
    """
    argv = codegraph_argv() + args
    actions: list[tuple] = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited_fds()]
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        executable = argv[0] if os.sep in argv[0] else _which(argv[0])
        return os.posix_spawn(executable, argv, dict(os.environ), file_actions=actions, setsid=True)
    finally:
        os.chdir(previous)


def _which(name: str) -> str:
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError(name)
