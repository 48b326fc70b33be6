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
    (project / "shop" / "big.py").write_text("".join(f"def big_{i}():\n    return {i}\n" for i in range(200)))
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


def _gemini_requests(gemini, world, prompt: str, api_class=FakeGeminiAPI, every=False) -> str:
    """The contents of the first agent request (all of them with ``every``) of a `gemini -p` run."""
    home, project = world["home"], world["project"]
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    with api_class() as api:
        env = {**claude_env(home), "GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": api.url}
        env["CODEGRAPH_BIN"] = "/bin/true"  # session-start's detached command: not under test here
        run = subprocess.run(
            [str(gemini), "-m", "gemini-2.5-pro", "-p", prompt],
            cwd=project, env=env, capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    agent = [r for r in api.requests if r.get("tools")]
    assert agent, f"gemini sent no agent request: {run.stderr[-1500:]}"
    return json.dumps([r.get("contents") for r in agent] if every else agent[0].get("contents"))


def test_gemini_before_agent_hook_appends_the_envelope_for_a_symbol_prompt_only(world):
    gemini = require("gemini")
    _install(world, "gemini", frontload=True)
    first = _gemini_requests(gemini, world, SYMBOL_PROMPT)
    assert SOURCE_LINE in first and "shop/db/query.py" in first
    assert SOURCE_LINE not in _gemini_requests(gemini, world, "write a poem")


def test_gemini_session_start_hook_line_reaches_the_model_and_uninstall_removes_every_hook(world):
    gemini = require("gemini")
    _install(world, "gemini", prewarm=True, frontload=True, redirect_reads=True)
    settings = world["home"] / ".gemini" / "settings.json"
    hooks = json.loads(settings.read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "BeforeAgent", "AfterTool"}
    first = _gemini_requests(gemini, world, "write a poem")
    assert "codegraph: index of" in first and SOURCE_LINE not in first
    options = targets.make_options(
        "gemini", "user", command=str(world["stub"]), prewarm=True, frontload=True, redirect_reads=True
    )
    targets.run("gemini", "uninstall", InstallPaths(world["home"], world["project"]), options)
    assert not settings.exists() or "codegraph-hook" not in settings.read_text()
    assert "codegraph: index of" not in _gemini_requests(gemini, world, "write a poem")


class ReadFileGeminiAPI(FakeGeminiAPI):
    """Answers the first agent request with a `read_file` call of shop/big.py, then "ok"."""

    def __init__(self):
        super().__init__()
        handler = self.server.RequestHandlerClass
        api = self
        plain = handler.do_POST

        def do_POST(self):
            if "enerateContent" not in self.path or "alt=sse" not in self.path or api.called:
                return plain(self)
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            request = json.loads(body or b"{}")
            if not request.get("tools"):
                api.requests.append(request)
                data = {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}]}
            else:
                api.called = True
                api.requests.append(request)
                call = {"functionCall": {"name": "read_file", "args": {"file_path": "shop/big.py"}}}
                data = {
                    "candidates": [{"content": {"role": "model", "parts": [call]}, "finishReason": "STOP"}],
                    "usageMetadata": {
                        "promptTokenCount": 10,
                        "candidatesTokenCount": 1,
                        "totalTokenCount": 11,
                    },
                }
            payload = f"data: {json.dumps(data)}\r\n\r\n".encode()
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        self.called = False
        handler.do_POST = do_POST


def test_gemini_after_tool_hook_appends_the_read_advice_to_the_read_file_result(world):
    gemini = require("gemini")
    _install(world, "gemini")  # the server only: the file is read, no advice
    every = _gemini_requests(gemini, world, "look at big.py", api_class=ReadFileGeminiAPI, every=True)
    assert "big_199" in every and "codegraph_explore (mention shop/big.py)" not in every
    _install(world, "gemini", redirect_reads=True)
    every = _gemini_requests(gemini, world, "look at big.py", api_class=ReadFileGeminiAPI, every=True)
    assert "big_199" in every and "codegraph_explore (mention shop/big.py)" in every
