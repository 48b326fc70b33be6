"""The prompt hook with the real clients, offline (issue 16): Claude Code and Gemini CLI in a temporary
HOME, a real index of fixtures/repos/python with its daemon running, the hook that ``codegraph install
--frontload`` wrote, and a loopback fake model API that keeps every request body."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from codegraph_hooks.prompt_submit import NOTE
from codegraph_installer import targets
from codegraph_installer.paths import InstallPaths

from codegraph.index.indexer import index_project
from codegraph.mcp import service, wire
from codegraph.paths import ProjectPaths
from tests.agent_clients import require
from tests.conftest import copy_fixture
from tests.installer.claude_harness import FakeMessagesAPI, claude_env, write_stub_server
from tests.installer.test_other_agents_real import FakeGeminiAPI

SYMBOL_PROMPT = "Why does QuerySet.filter return a new QuerySet?"
SOURCE_LINE = "def filter(self, *args, **kwargs):"


@pytest.fixture
def world(tmp_path, monkeypatch):
    """A temp HOME, an indexed git project served by a real daemon, a stand-in MCP server."""
    runtime = tmp_path / "run"
    monkeypatch.setenv("CODEGRAPH_RUNTIME_DIR", str(runtime))
    home = tmp_path / "home"
    home.mkdir()
    project = copy_fixture("python", tmp_path).resolve()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    index_project(ProjectPaths(project), workers=1)
    daemon = subprocess.Popen(
        [sys.executable, "-m", "codegraph.mcp.daemon", str(project)],
        env={**os.environ, "CODEGRAPH_DAEMON_IDLE": "120", "CODEGRAPH_NO_WATCH": "1"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert wire.wait_until(lambda: service.status(project) is not None, 15)
    stub = write_stub_server(tmp_path / "bin", tmp_path / "calls.jsonl")
    yield {"home": home, "project": project, "stub": stub}
    daemon.terminate()
    daemon.wait(10)


def _install(world, agent, **flags):
    options = targets.make_options(agent, "user", command=str(world["stub"]), **flags)
    return targets.run(agent, "install", InstallPaths(world["home"], world["project"]), options)


def _claude_first_request(claude_bin, world, prompt: str) -> str:
    with FakeMessagesAPI([]) as api:
        run = subprocess.run(
            [str(claude_bin), "-p", prompt],
            cwd=world["project"],
            env=claude_env(world["home"], api.url),
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    bodies = [r for r in api.requests if r.get("tools")]
    assert bodies, "claude sent no agent request"
    return json.dumps(bodies[0]["messages"])


def test_claude_first_request_carries_the_envelope_for_a_symbol_prompt_and_nothing_otherwise(world):
    claude_bin = require("claude")
    _install(world, "claude", frontload=True)
    first = _claude_first_request(claude_bin, world, SYMBOL_PROMPT)
    assert json.dumps(NOTE)[1:-1] in first and SOURCE_LINE in first and "shop/db/query.py" in first
    unrelated = _claude_first_request(claude_bin, world, "write a poem")
    assert "codegraph" not in unrelated and SOURCE_LINE not in unrelated


def test_claude_uninstall_removes_the_prompt_hook_and_the_envelope_stops(world):
    claude_bin = require("claude")
    _install(world, "claude", frontload=True)
    options = targets.make_options("claude", "user", command=str(world["stub"]), frontload=True)
    targets.run("claude", "uninstall", InstallPaths(world["home"], world["project"]), options)
    settings = world["home"] / ".claude" / "settings.json"
    assert not settings.exists() or "prompt-submit" not in settings.read_text()  # install created it
    assert SOURCE_LINE not in _claude_first_request(claude_bin, world, SYMBOL_PROMPT)


def _gemini_requests(gemini, world, prompt: str) -> str:
    home, project = world["home"], world["project"]
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    with FakeGeminiAPI() as api:
        env = {**claude_env(home), "GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": api.url}
        run = subprocess.run(
            [str(gemini), "-m", "gemini-2.5-pro", "-p", prompt],
            cwd=project, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    agent = [r for r in api.requests if r.get("tools")]
    assert agent, f"gemini sent no agent request: {run.stderr[-1500:]}"
    return json.dumps(agent[0].get("contents"))


def test_gemini_before_agent_hook_appends_the_envelope_for_a_symbol_prompt_only(world):
    gemini = require("gemini")
    _install(world, "gemini", frontload=True)
    first = _gemini_requests(gemini, world, SYMBOL_PROMPT)
    assert SOURCE_LINE in first and "shop/db/query.py" in first
    assert SOURCE_LINE not in _gemini_requests(gemini, world, "write a poem")
