"""Library functions behind ``codegraph daemon start|list|stop``: find, start and stop the shared
per-project daemons. Each returns plain status dicts (pid, version, root, socket, started, uptime)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

from codegraph.errors import CodegraphError, IndexMissing
from codegraph.mcp import daemon, wire
from codegraph.paths import ProjectPaths, find_root


class DaemonStartFailed(CodegraphError):
    """The daemon did not answer within its start timeout (its log says why)."""


def project_root(path: Path) -> Path:
    """The root of the indexed project containing ``path`` (``path`` itself when none does)."""
    try:
        return find_root(path).root
    except IndexMissing:
        return path.resolve()


def status(root: Path) -> dict | None:
    """The status of the daemon serving ``root``, or None when none answers (or one of another
    version does)."""
    try:
        return wire.request(ProjectPaths(root), "daemon/status")
    except (OSError, ValueError, wire.VersionMismatch):
        return None


def summary(root: Path) -> dict | None:
    """What ``codegraph status`` says of the daemon serving ``root`` (pid, version, uptime, clients,
    watching, watch_note), or None when none answers."""
    info = status(root)
    if info is None:
        return None
    keep = ("pid", "version", "uptime", "clients", "watching", "watch_note")
    return {k: info[k] for k in keep if k in info}


def running(root: Path | None = None) -> list[dict]:
    """Daemons that answer, from the registry (stale entries are removed). ``root``: only the daemon
    of the project containing it."""
    wanted = project_root(root) if root is not None else None
    found: dict[int, dict] = {}
    registry = wire.runtime_dir()
    for entry in sorted(registry.glob("*.json")) if registry.is_dir() else []:
        try:
            info = json.loads(entry.read_text())
        except (OSError, ValueError):
            continue
        if wanted is not None and Path(info.get("root", "")) != wanted:
            continue
        live = status(Path(info["root"])) if info.get("root") else None
        pid = int(info.get("pid", 0) or 0)
        if live is None or live.get("pid") != pid:
            if not wire.pid_alive(pid):
                entry.unlink(missing_ok=True)
            elif pid not in found:
                # Alive but not answering this version's hello (an older codegraph, or busy):
                # still listed, so `daemon stop` can end it.
                found[pid] = {
                    **info,
                    "uptime": round(time.time() - info.get("started", time.time()), 1),
                    "answering": False,
                }
            if live is None:
                continue
        found[live["pid"]] = live
    if wanted is not None and not found:
        live = status(wanted)  # running but unregistered (its registry was not writable)
        if live:
            found[live["pid"]] = live
    return sorted(found.values(), key=lambda d: d["root"])


def start(root: Path, *, timeout: float = 10.0) -> dict:
    """Start the daemon for ``root`` unless one answers; wait until it does.

    Raises:
        DaemonStartFailed: nothing answered within ``timeout`` seconds.
        IndexMissing: the project has no index (a daemon would refuse to serve it).
    """
    root = root.resolve()
    info = status(root)
    if info:
        return info
    missing = daemon.no_index(ProjectPaths(root))
    if missing:
        raise IndexMissing(f"{missing}; no daemon started.")
    daemon.spawn(root)
    info = wire.poll(lambda: status(root) or None, timeout, fine=0.5)
    if info is None:
        raise DaemonStartFailed(
            f"The codegraph daemon for {root} did not start within {timeout:g} s; "
            f"see {ProjectPaths(root).daemon_log}."
        )
    return info


def stop(root: Path | None = None, *, timeout: float = 3.0) -> list[dict]:
    """Stop the daemons :func:`running` finds (asked politely, then SIGTERM, then SIGKILL).
    Returns the status of each one stopped."""
    stopped = []
    for info in running(root):
        pid = info["pid"]
        if pid == os.getpid():
            continue  # a daemon served from a thread of this process (tests, embedders): not ours to kill
        gone = lambda pid=pid: not wire.pid_alive(pid)  # noqa: E731 - a named predicate
        try:
            wire.request(Path(info["socket"]), "daemon/stop")
            asked = True
        except (OSError, ValueError, wire.VersionMismatch):
            asked = False  # it did not take the request: signal it at once
        if not (asked and wire.wait_until(gone, timeout)):
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    break
                if wire.wait_until(gone, timeout):
                    break
        stopped.append(info)
    return stopped


def freshen(root: Path, *, rescan: bool = False) -> tuple[bool, str | None]:
    """Ask the daemon serving ``root`` to sync the edits its watcher has seen before a CLI query
    answers (``daemon/fresh``; MCP calls do the same in-process, ``watch.before_answer``). Issue 12:
    right after an edit the CLI answered from the old graph while a daemon watched the project.
    ``rescan``: the caller saw the disk differ from a graph the daemon called current (its watcher's
    events were still on their way): the daemon walks the tree in that sync instead of waiting for
    them.

    Returns:
        ``(fresh, note)``: fresh is True when a watching daemon says the graph is current; note is the
        daemon's line when it could not make it so in time (None when no daemon answers, or it is
        current). The wait is the daemon's (``CODEGRAPH_CATCHUP_WAIT_MS``, twice: catch-up, then sync).
    """
    from codegraph.index.watch import catch_up_wait

    try:
        info = wire.request(
            ProjectPaths(root),
            "daemon/fresh",
            timeout=2 * catch_up_wait() + 2.0,
            params={"rescan": True} if rescan else None,
        )
    except (OSError, ValueError, wire.VersionMismatch):
        return False, None
    note = info.get("note")
    return info.get("fresh") is True, note if isinstance(note, str) else None
