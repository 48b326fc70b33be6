"""Shared fixtures for the MCP transport tests: an isolated daemon registry, a project, and the env
that points spawned servers at the fake handler. Every daemon a test starts is stopped at teardown."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.mcp.helpers import HERE


def _kill_daemons(runtime: Path, roots: list[Path]) -> None:
    from codegraph.mcp import daemon, service, wire

    service.stop()
    pids = set()
    for root in roots:
        from codegraph.paths import ProjectPaths

        pid = daemon.read_pid(ProjectPaths(root))
        if pid:
            pids.add(pid)
    for entry in runtime.glob("*.json") if runtime.is_dir() else []:
        try:
            pids.add(int(entry.stem))
        except ValueError:
            pass
    for pid in pids:
        if pid != os.getpid() and wire.pid_alive(pid):
            os.kill(pid, signal.SIGKILL)
    time.sleep(0.05)


@pytest.fixture
def runtime(tmp_path, monkeypatch) -> Path:
    """A private daemon registry for this test (``CODEGRAPH_RUNTIME_DIR``)."""
    path = tmp_path / "run"
    monkeypatch.setenv("CODEGRAPH_RUNTIME_DIR", str(path))
    return path


@pytest.fixture
def project(tmp_path, runtime) -> Path:
    """A project root with an index file present (its content is the handler's business)."""
    root = tmp_path / "proj"
    (root / ".codegraph").mkdir(parents=True)
    (root / ".codegraph" / "codegraph.db").write_bytes(b"")
    (root / "app.py").write_text("def main():\n    return 1\n")
    yield root.resolve()
    _kill_daemons(runtime, [root.resolve()])


@pytest.fixture
def no_index_dir(tmp_path, runtime) -> Path:
    root = tmp_path / "plain"
    root.mkdir()
    (root / "app.py").write_text("print('hi')\n")
    yield root.resolve()
    _kill_daemons(runtime, [root.resolve()])


@pytest.fixture
def server_env(runtime) -> dict[str, str]:
    """Environment for a spawned ``codegraph serve --mcp``: the fake handler, the private registry,
    a short idle time so a leaked daemon would not linger."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONPATH": str(HERE),
        "CODEGRAPH_MCP_HANDLER": "fake_handler:call_tool",
        "CODEGRAPH_RUNTIME_DIR": str(runtime),
        "CODEGRAPH_DAEMON_IDLE": "60",
        "CODEGRAPH_NO_WATCH": "1",  # the fake projects' index is an empty file: nothing to sync
    }
