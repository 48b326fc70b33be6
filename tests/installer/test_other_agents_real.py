"""Codex, Gemini CLI and opencode (their npm CLIs, in a temporary HOME) read what install wrote.
Each skips with the reason when its npm package cannot be installed here (tests/agent_clients.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from codegraph_installer import targets
from codegraph_installer.paths import InstallPaths

from tests.agent_clients import require
from tests.installer.claude_harness import claude_env, write_stub_server

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "agent-configs"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def world(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    stub = write_stub_server(tmp_path / "bin", tmp_path / "calls.jsonl")
    return home, project, stub


def _install(agent, world, scope="user"):
    home, project, stub = world
    options = targets.make_options(agent, scope, command=str(stub))
    return targets.run(agent, "install", InstallPaths(home, project), options)


def _run(binary, world, *args) -> str:
    home, project, _ = world
    env = claude_env(home)
    proc = subprocess.run(
        [str(binary), *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return ANSI.sub("", proc.stdout + proc.stderr)


def test_codex_mcp_list_shows_our_server_enabled(world):
    codex = require("codex")
    _install("codex", world)
    listed = _run(codex, world, "mcp", "list")
    row = next(line for line in listed.splitlines() if line.startswith("codegraph "))
    assert str(world[2]) in row and "serve --mcp" in row and "enabled" in row


def test_codex_still_reads_a_hand_edited_config_after_install(world):
    codex = require("codex")
    home = world[0]
    shutil.copytree(FIXTURES / "codex" / "comments-and-tables" / "before" / "home", home, dirs_exist_ok=True)
    _install("codex", world)
    listed = _run(codex, world, "mcp", "list")
    assert re.search(r"^codegraph .*enabled", listed, re.M) and re.search(r"^docs .*enabled", listed, re.M)


def test_gemini_mcp_list_connects_in_a_trusted_folder_and_install_warns_when_untrusted(world):
    gemini = require("gemini")
    home, project, _ = world
    outcome = _install("gemini", world)
    assert any("untrusted folder" in note for note in outcome.plan.notes)
    assert "Disabled" in _run(gemini, world, "mcp", "list")
    (home / ".gemini" / "trustedFolders.json").write_text(f'{{"{project}": "TRUST_FOLDER"}}')
    listed = _run(gemini, world, "mcp", "list")
    assert re.search(r"codegraph: .* - Connected", listed), listed


def test_opencode_mcp_list_connects_to_a_jsonc_config_with_comments(world):
    opencode = require("opencode")
    project = world[1]
    shutil.copytree(
        FIXTURES / "opencode" / "project-jsonc" / "before" / "project", project, dirs_exist_ok=True
    )
    _install("opencode", world, scope="project")
    listed = _run(opencode, world, "mcp", "list")
    assert re.search(r"✓ codegraph\s+connected", listed), listed


class FakeGeminiAPI:
    """A loopback stand-in for the Gemini API: answers every generateContent call with "ok" and keeps
    each request body (FACTS.md: GOOGLE_GEMINI_BASE_URL + GEMINI_API_KEY run `gemini -p` offline)."""

    def __init__(self):
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.requests: list[dict] = []
        api = self
        reply = {
            "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 1, "totalTokenCount": 11},
        }

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                try:
                    api.requests.append(json.loads(body or b"{}"))
                except ValueError:
                    pass
                if "countTokens" in self.path:
                    data, kind = json.dumps({"totalTokens": 10}).encode(), "application/json"
                elif "alt=sse" in self.path:
                    data, kind = f"data: {json.dumps(reply)}\r\n\r\n".encode(), "text/event-stream"
                else:
                    data, kind = json.dumps(reply).encode(), "application/json"
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def _gemini_offered_tools(gemini, world) -> list[str]:
    """Function names the model was offered in a headless `gemini -p` run in the (trusted) project."""
    import json

    home, project, _ = world
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    settings = project / ".gemini" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    with FakeGeminiAPI() as api:
        env = {**claude_env(home), "GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": api.url}
        subprocess.run(
            [str(gemini), "-m", "gemini-2.5-pro", "-p", "hi"],
            cwd=project, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    names = []
    for body in api.requests:
        for tool in body.get("tools") or []:
            names += [f.get("name", "") for f in tool.get("functionDeclarations") or []]
    assert api.requests, "gemini sent no request to the fake API"
    return names


def test_gemini_headless_run_offers_codegraph_after_install_and_not_with_no_auto_allow(world, tmp_path):
    gemini = require("gemini")
    _install("gemini", world)
    assert any("codegraph_explore" in name for name in _gemini_offered_tools(gemini, world))
    home, project, stub = world
    options = targets.make_options("gemini", "user", command=str(stub), auto_allow=False)
    targets.run("gemini", "install", InstallPaths(home, project), options)
    assert not any("codegraph_explore" in name for name in _gemini_offered_tools(gemini, world))
