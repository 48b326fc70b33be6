"""One index run at a time per project, in the foreground or in a detached background process.

The lock is ``.codegraph/index.lock``, created exclusively (O_EXCL) and holding ``{"pid", "started"}``;
a lock whose pid is dead is stale and cleared. A background run writes its progress to
``.codegraph/index.progress`` (JSON: phase, done, total, started, pid) for ``status`` to show. A second
request while one runs joins it instead of starting another.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass

from codegraph.errors import IndexBusy
from codegraph.paths import ProjectPaths, pid_alive

BACKGROUND_THRESHOLD = int(os.environ.get("CODEGRAPH_BACKGROUND_THRESHOLD", "1000"))


def lock_holder(paths: ProjectPaths) -> dict | None:
    """The live index run holding the lock (``{"pid", "started"}``), or None (stale locks are cleared)."""
    try:
        data = json.loads(paths.index_lock.read_text())
        pid = int(data["pid"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        # half-written by a process that died between create and write: stale unless very new
        with contextlib.suppress(OSError):
            if time.time() - paths.index_lock.stat().st_mtime > 5:
                paths.index_lock.unlink()
        return None
    if pid_alive(pid):
        return data
    with contextlib.suppress(OSError):
        paths.index_lock.unlink()
    return None


def try_lock(paths: ProjectPaths) -> bool:
    """Take the index lock for this process; False when another live run holds it.

    The lock appears whole or not at all: its content is written to a file of this process and
    hard-linked into place (so a Ctrl-C at any moment never leaves a half-written lock).

    Raises:
        ProjectDirUnusable: ``.codegraph`` is not a writable directory.
    """
    from codegraph.index.indexer import ensure_codegraph_dir

    ensure_codegraph_dir(paths)
    mine = paths.dir / f"index.lock.{os.getpid()}"
    try:
        mine.write_text(json.dumps({"pid": os.getpid(), "started": time.time()}))
        for _ in range(2):
            try:
                _link_or_create(mine, paths.index_lock)
                return True
            except FileExistsError:
                if lock_holder(paths) is not None:
                    return False
                # a stale lock was cleared: try once more
        return False
    finally:
        with contextlib.suppress(OSError):
            mine.unlink()


def _link_or_create(source, lock) -> None:
    """Hard-link ``source`` to ``lock`` (FileExistsError when taken); where the filesystem has no hard
    links, create ``lock`` exclusively and copy the content in."""
    try:
        os.link(source, lock)
    except FileExistsError:
        raise
    except OSError:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w") as fh:
            fh.write(source.read_text())


def release_lock(paths: ProjectPaths) -> None:
    with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
        data = json.loads(paths.index_lock.read_text())
        if int(data.get("pid", -1)) == os.getpid():
            paths.index_lock.unlink()
    with contextlib.suppress(OSError):
        paths.dir.joinpath("index.progress").unlink()


@contextlib.contextmanager
def index_lock(paths: ProjectPaths, *, wait_seconds: float = 600.0, on_wait=None) -> Iterator[None]:
    """Hold the lock for a foreground run, waiting for a running one to finish first.

    Args:
        on_wait: called once, with the holder (``{"pid", "started"}``) and ``wait_seconds``, when the
            lock is taken and this call starts waiting (a command should say what it waits for, issue 9).

    Raises:
        IndexBusy: another run still holds the lock after ``wait_seconds``.
    """
    deadline = time.monotonic() + wait_seconds
    told = False
    try:
        while not try_lock(paths):
            holder = lock_holder(paths) or {}
            if not told and on_wait is not None and holder:
                on_wait(holder, wait_seconds)
                told = True
            if time.monotonic() > deadline:
                raise IndexBusy(
                    f"another index run (pid {holder.get('pid')}) still holds {paths.index_lock} after "
                    f"{wait_seconds:g} s; try again when it has finished"
                )
            time.sleep(0.2)
        yield
    finally:
        release_lock(paths)  # ours only (it checks the pid), also after a Ctrl-C while taking it


def progress_writer(paths: ProjectPaths):
    """A progress callback that writes ``index.progress`` at most every 0.3 s."""
    target = paths.dir / "index.progress"
    started = time.time()
    last = [0.0]

    def write(done: int, total: int) -> None:
        now = time.monotonic()
        if done != total and now - last[0] < 0.3:
            return
        last[0] = now
        tmp = target.with_suffix(".tmp")
        tmp.write_text(
            json.dumps(
                {"phase": "parsing", "done": done, "total": total, "started": started, "pid": os.getpid()}
            )
        )
        os.replace(tmp, target)

    return write


def read_progress(paths: ProjectPaths) -> dict | None:
    """The running index's progress, or None when no run is live."""
    holder = lock_holder(paths)
    if holder is None:
        return None
    try:
        data = json.loads((paths.dir / "index.progress").read_text())
    except (OSError, ValueError):
        data = {"phase": "starting"}
    return {**data, "pid": holder["pid"], "started": holder.get("started")}


@dataclass
class BackgroundStart:
    """``joined`` is True when a run was already going (its pid is given)."""

    pid: int
    joined: bool


def start_background(paths: ProjectPaths, command: str = "sync") -> BackgroundStart:
    """Start ``codegraph <command> ROOT`` detached (new session, stdio to /dev/null, no inherited
    fds), or join the run already holding the lock."""
    holder = lock_holder(paths)
    if holder is not None:
        return BackgroundStart(int(holder["pid"]), True)
    paths.dir.mkdir(parents=True, exist_ok=True)
    pid = spawn_detached(
        [sys.executable, "-m", "codegraph", command, str(paths.root), "--background-child"],
        cwd=str(paths.root),
    )
    return BackgroundStart(pid, False)


_LAUNCHER = (
    "import subprocess, sys\n"
    "p = subprocess.Popen(sys.argv[2:], cwd=sys.argv[1], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,\n"
    "                     stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)\n"
    "print(p.pid)\n"
)


def spawn_detached(argv: list[str], *, cwd: str) -> int:
    """Start ``argv`` fully detached (new session, stdio on /dev/null, no inherited fds) through a
    short-lived launcher, so the process is re-parented to init and never becomes our zombie.
    Returns its pid."""
    import subprocess  # here: a foreground sync imports this module for its lock only

    out = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, cwd, *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    return int(out.stdout.strip())
