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


def _tool_result_texts(requests: list[dict]) -> dict[str, str]:
    """tool_use id → the text of the tool_result Claude Code sent the model for it (last request wins)."""
    found: dict[str, str] = {}
    for body in requests:
        for message in body.get("messages", []):
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    content = block.get("content")
                    if isinstance(content, list):
                        content = "\n".join(c.get("text", "") for c in content if isinstance(c, dict))
                    found[block["tool_use_id"]] = content
    return found


def test_the_model_receives_the_readable_text_of_every_tool_and_explore_within_its_budget(
    claude, tmp_path, runtime, monkeypatch
):
    """Claude Code forwards a result's ``structuredContent`` instead of its text when both are present
    (FACTS.md, issue 9): the tool_result the model gets must be exactly the rendered envelope."""
    from codegraph.mcp.dispatch import call_tool
    from tests.conftest import copy_fixture
    from tests.installer.claude_harness import FakeMessagesAPI, claude_env

    project = copy_fixture("python", tmp_path).resolve()
    home = tmp_path / "home"
    home.mkdir()
    server_env = {"CODEGRAPH_MCP_TOOLS": "all", "CODEGRAPH_RUNTIME_DIR": str(runtime)}
    server = {"type": "stdio", "command": CODEGRAPH, "args": ["serve", "--mcp"], "env": server_env}
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"codegraph": server}}))
    subprocess.run([CODEGRAPH, "init", str(project)], capture_output=True, check=True, timeout=120)
    calls = [
        ("codegraph_explore", {"query": "how does QuerySet.filter build the WHERE clause", "maxChars": 3000}),
        ("codegraph_node", {"symbol": "Query.add_q"}),
        ("codegraph_callers", {"symbol": "Query.build_filter"}),
        ("codegraph_node", {"file": "shop/db/sql/query.py"}),
        ("codegraph_search", {"query": "filter"}),
        ("codegraph_callees", {"symbol": "QuerySet.filter"}),
        ("codegraph_impact", {"symbol": "Query.build_filter"}),
        ("codegraph_trace", {"from": "QuerySet.get", "to": "Query.build_filter"}),
        ("codegraph_files", {}),
        ("codegraph_context", {"task": "filter a query set"}),
        ("codegraph_status", {}),
    ]
    script = [(f"mcp__codegraph__{name}", args) for name, args in calls]
    try:
        with FakeMessagesAPI(script) as api:
            run = subprocess.run(
                [str(claude), "-p", "how is the WHERE clause built?", "--allowedTools", "mcp__codegraph__*"],
                cwd=project,
                env={**claude_env(home, api.url), "CODEGRAPH_RUNTIME_DIR": str(runtime)},
                capture_output=True,
                text=True,
                timeout=180,
                stdin=subprocess.DEVNULL,
            )
    finally:
        from codegraph.mcp import service

        service.stop()  # the proxy Claude spawned started the project's daemon
    received = _tool_result_texts(api.requests)
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    assert len(received) == len(calls), run.stdout[-2000:] + run.stderr[-2000:]
    for number, (name, args) in enumerate(calls):
        rendered = call_tool(name, args, default_root=project)["content"][0]["text"]
        got = received[f"toolu_fake_{number}"]
        if (
            name == "codegraph_status"
        ):  # live state: the session's daemon (stopped since) and its HOME's agents
            assert "\ndaemon: pid " in got and "\nagents: claude (user)\n" in got, got
            live = ("daemon: ", "agents: ")
            got, rendered = (
                "\n".join(ln for ln in text.split("\n") if not ln.startswith(live))
                for text in (got, rendered)
            )
        assert got == rendered, name
    assert len(received["toolu_fake_0"]) <= 3000
