"""Claude Code (npm ``@anthropic-ai/claude-code``, native binary) connects to ``codegraph serve --mcp``:
``claude mcp list`` spawns the server and performs a real handshake (FACTS.md; its exit code is
always 0, so the text is parsed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.mcp.helpers import CODEGRAPH

NPM_DIR = Path(os.environ.get("CODEGRAPH_TEST_NPM", Path.home() / ".cache" / "codegraph-test-npm"))
BINARY = NPM_DIR / "node_modules" / "@anthropic-ai" / "claude-code-linux-x64" / "claude"


@pytest.fixture(scope="session")
def claude() -> Path:
    """The native Claude Code binary, installed into a reused cache dir on first use."""
    if not BINARY.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed, so @anthropic-ai/claude-code cannot be installed")
        NPM_DIR.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--silent", "--prefix", str(NPM_DIR), "@anthropic-ai/claude-code"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0 or not BINARY.exists():
            pytest.skip(f"npm could not install @anthropic-ai/claude-code: {done.stderr.strip()[-300:]}")
    return BINARY


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
