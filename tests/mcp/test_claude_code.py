"""Claude Code (npm ``@anthropic-ai/claude-code``, native binary) connects to ``codegraph serve --mcp``:
``claude mcp list`` spawns the server and performs a real handshake (FACTS.md; its exit code is
always 0, so the text is parsed)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.agent_clients import require
from tests.mcp.helpers import CODEGRAPH


@pytest.fixture(scope="session")
def claude() -> Path:
    """The native Claude Code binary (tests/agent_clients.py installs it on first use)."""
    return require("claude")


def test_claude_mcp_list_reports_codegraph_connected(claude, tmp_path, runtime):
    home = tmp_path / "home"
    home.mkdir()
    server = {"type": "stdio", "command": CODEGRAPH, "args": ["serve", "--mcp"], "env": {}}
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"codegraph": server}}))
    project = tmp_path / "repo"
    project.mkdir()
    (project / "app.py").write_text("def main():\n    return 1\n")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "CODEGRAPH_RUNTIME_DIR": str(runtime)}
    subprocess.run([CODEGRAPH, "init", str(project)], env=env, capture_output=True, check=True, timeout=60)
    try:
        done = subprocess.run(
            [str(claude), "mcp", "list"], cwd=project, env=env, capture_output=True, text=True, timeout=120
        )
    finally:
        from codegraph.mcp import service

        service.stop()  # the proxy Claude spawned started the project's daemon
    lines = [line for line in done.stdout.splitlines() if line.startswith("codegraph:")]
    assert lines, done.stdout + done.stderr
    assert "Connected" in lines[0] and "Failed" not in lines[0], lines[0]
