"""The real Claude Code binary (npm @anthropic-ai/claude-code) in a temporary HOME, fully offline:
it reads what ``codegraph install claude`` wrote, connects, fires both hooks and lets codegraph calls
through without a prompt. Network only to 127.0.0.1 (a fake Messages API)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from codegraph_installer import targets
from codegraph_installer.handshake import handshake
from codegraph_installer.paths import InstallPaths, console_script

from tests.agent_clients import require
from tests.hooks.conftest import make_index
from tests.installer.claude_harness import FakeMessagesAPI, claude_env, write_stub_server

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "agent-eval"))
import parse_run  # noqa: E402


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    return require("claude")


@pytest.fixture
def world(tmp_path):
    """A temp HOME, a git project with a small index, a stand-in codegraph server and its call log."""
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    big = "".join(f"def f{i}():\n    return {i}\n" for i in range(200))
    make_index(project, {"pkg/big.py": big}, [("pkg/big.py", "Engine", "class")])
    calls = tmp_path / "calls.jsonl"
    stub = write_stub_server(tmp_path / "bin", calls)
    return {"home": home, "project": project, "stub": stub, "calls": calls, "tmp": tmp_path}


def _install(world, scope="user", command=None, **flags):
    options = targets.make_options("claude", scope, command=str(command or world["stub"]), **flags)
    return targets.run("claude", "install", InstallPaths(world["home"], world["project"]), options)


def _claude(claude_bin, world, *args, base_url=None, timeout=120):
    env = claude_env(world["home"], base_url)
    env["CODEGRAPH_BIN"] = "/bin/true"  # the session-start hook's detached command: not under test here
    return subprocess.run(
        [str(claude_bin), *args],
        cwd=world["project"],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def _server_line(output: str) -> str:
    return next((line for line in output.splitlines() if line.startswith("codegraph:")), "")


@pytest.mark.parametrize("scope", ["user", "local", "project"])
def test_claude_mcp_list_shows_codegraph_connected_for_each_scope(claude_bin, world, scope):
    _install(world, scope)
    listed = _claude(claude_bin, world, "mcp", "list", timeout=60)
    assert "✔ Connected" in _server_line(listed.stdout), listed.stdout + listed.stderr


def test_claude_mcp_list_shows_the_real_codegraph_server_connected(claude_bin, world):
    command = console_script("codegraph")
    probe = handshake([command, "serve", "--mcp"], world["project"], timeout=10)
    if not probe.ok:
        pytest.skip(f"`codegraph serve --mcp` does not handshake in this tree yet (issue 4): {probe.error}")
    _install(world, "user", command=command)
    try:
        listed = _claude(claude_bin, world, "mcp", "list", timeout=60)
    finally:
        stop = [command, "daemon", "stop", "--path", str(world["project"])]
        subprocess.run(stop, capture_output=True, timeout=30)
    assert "✔ Connected" in _server_line(listed.stdout), listed.stdout


def test_offline_run_fires_both_hooks_and_the_allow_rule_lets_explore_through(claude_bin, world):
    _install(world, "user", prewarm=True, redirect_reads=True)
    big = world["project"] / "pkg" / "big.py"
    script = [
        ("Read", {"file_path": str(big)}),
        ("mcp__codegraph__codegraph_explore", {"query": "Where is Engine?"}),
    ]
    with FakeMessagesAPI(script) as api:
        run = _claude(
            claude_bin,
            world,
            "-p",
            "Where is Engine defined?",
            "--output-format",
            "stream-json",
            "--verbose",
            base_url=api.url,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    summary = parse_run.parse(run.stdout.splitlines())
    assert summary["tool_calls"] == {"Read": 1, "mcp__codegraph__codegraph_explore": 1}
    assert (summary["reads"], summary["codegraph_calls"], summary["permission_denials"]) == (1, 1, 0)
    assert summary["mcp_servers"] == {"codegraph": "connected"}
    assert summary["hooks_fired"].get("SessionStart") == 1
    bodies = [json.dumps(r) for r in api.requests if r.get("tools")]
    assert "codegraph: index of 1 file," in bodies[0]  # session-start line reached the model
    assert "codegraph_explore (mention pkg/big.py)" in bodies[1]  # pre-tool-use advice after the Read
    assert "STUB-EXPLORE-ANSWER" in bodies[2]  # the MCP call ran without a prompt
    assert json.loads(world["calls"].read_text())["name"] == "codegraph_explore"


def test_without_the_allow_rule_the_same_call_is_denied(claude_bin, world):
    _install(world, "user")
    settings = world["home"] / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace("mcp__codegraph__*", "Bash(true)"))
    script = [("mcp__codegraph__codegraph_explore", {"query": "Where is Engine?"})]
    with FakeMessagesAPI(script) as api:
        run = _claude(
            claude_bin,
            world,
            "-p",
            "Where is Engine?",
            "--output-format",
            "stream-json",
            "--verbose",
            base_url=api.url,
        )
    summary = parse_run.parse(run.stdout.splitlines())
    assert summary["permission_denials"] == 1
    assert not world["calls"].exists()


def test_uninstall_after_claude_ran_keeps_claudes_own_state_and_removes_only_codegraph(claude_bin, world):
    _install(world, "user", prewarm=True, redirect_reads=True)
    _claude(claude_bin, world, "mcp", "list", timeout=60)
    state_before = json.loads((world["home"] / ".claude.json").read_text())
    options = targets.make_options("claude", "user", command=str(world["stub"]))
    targets.run("claude", "uninstall", InstallPaths(world["home"], world["project"]), options)
    state_after = json.loads((world["home"] / ".claude.json").read_text())
    state_before.pop("mcpServers")
    assert state_after == state_before
    listed = _claude(claude_bin, world, "mcp", "list", timeout=60)
    assert "codegraph" not in listed.stdout
    assert not (world["home"] / ".claude" / "settings.json").exists()


@pytest.fixture
def real_world(world):
    """``world`` indexed by the real ``codegraph index``, with its daemon stopped afterwards."""
    codegraph = console_script("codegraph")
    probe = handshake([codegraph, "serve", "--mcp"], world["project"], timeout=10)
    if not probe.ok:
        pytest.skip(f"`codegraph serve --mcp` does not handshake in this tree yet (issue 4): {probe.error}")
    shutil.rmtree(world["project"] / ".codegraph")  # the hand-made index of `world`: use the real indexer
    source = "".join(f"def f{i}():\n    return {i}\n" for i in range(200))
    (world["project"] / "pkg" / "big.py").write_text(
        source + "class Engine:\n    def run(self):\n        return f1()\n"
    )
    subprocess.run([codegraph, "index", str(world["project"])], check=True, capture_output=True, timeout=120)
    world["codegraph"] = codegraph
    yield world
    subprocess.run(
        [codegraph, "daemon", "stop", "--path", str(world["project"])], capture_output=True, timeout=30
    )


def test_offline_run_with_the_real_server_index_and_daemon_answers_explore(claude_bin, real_world):
    world = real_world
    _install(world, "user", command=world["codegraph"], prewarm=True, redirect_reads=True)
    big = world["project"] / "pkg" / "big.py"
    explore = (
        "mcp__codegraph__codegraph_explore",
        {"query": "Where is Engine defined and what does run call?"},
    )
    with FakeMessagesAPI([("Read", {"file_path": str(big)}), explore]) as api:
        env = claude_env(world["home"], api.url)  # no CODEGRAPH_BIN: session-start starts the real daemon
        run = subprocess.run(
            [str(claude_bin), "-p", "Where is Engine?", "--output-format", "stream-json", "--verbose"],
            cwd=world["project"],
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            stdin=subprocess.DEVNULL,
        )
    summary = parse_run.parse(run.stdout.splitlines())
    assert (summary["reads"], summary["codegraph_calls"], summary["permission_denials"]) == (1, 1, 0)
    assert summary["mcp_servers"] == {"codegraph": "connected"}
    bodies = [json.dumps(r) for r in api.requests if r.get("tools")]
    assert "it defines Engine" in bodies[1]  # pre-tool-use read the real index's nodes
    answer = bodies[2].split("toolu_fake_1", 1)[1]
    assert "Engine" in answer and "pkg/big.py" in answer
    listed = subprocess.run(
        [world["codegraph"], "daemon", "list", "--path", str(world["project"])],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (
        listed.stdout.startswith("pid ") and str(world["project"]) in listed.stdout
    )  # prewarmed by the hook


def _claude_doctor(claude_bin, world) -> str:
    """``claude doctor`` needs a TTY (FACTS.md): run it in a detached tmux session and read the pane."""
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed (claude doctor needs a TTY)")
    env = claude_env(world["home"])
    session = f"cgdoctor{os.getpid()}{time.monotonic_ns() % 100000}"
    command = f"cd {shlex.quote(str(world['project']))} && {shlex.quote(str(claude_bin))} doctor; sleep 60"
    subprocess.run(
        [tmux, "new-session", "-d", "-s", session, "-x", "200", "-y", "150", command], env=env, check=True
    )
    try:
        deadline = time.monotonic() + 45
        pane = ""
        while time.monotonic() < deadline:
            pane = subprocess.run(
                [tmux, "capture-pane", "-p", "-S", "-", "-t", session], capture_output=True, text=True
            ).stdout
            if "Enter to close" in pane:
                return pane
            time.sleep(0.5)
        raise AssertionError(f"claude doctor did not finish:\n{pane}")
    finally:
        subprocess.run([tmux, "kill-session", "-t", session], capture_output=True)


@pytest.mark.parametrize("scope", ["user", "local"])
def test_claude_doctor_finds_no_invalid_settings_after_install_with_every_hook(claude_bin, world, scope):
    _install(world, scope, prewarm=True, redirect_reads=True, frontload=True)  # UserPromptSubmit: no matcher
    pane = _claude_doctor(claude_bin, world)
    assert "Diagnostics" in pane
    assert "Invalid settings" not in pane, pane


def test_claude_doctor_does_flag_a_hook_with_a_wrongly_typed_timeout(claude_bin, world):
    _install(world, "user", prewarm=True)
    settings = world["home"] / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace('"timeout": 10', '"timeout": "ten"'))
    assert "Invalid settings" in _claude_doctor(claude_bin, world)  # the check above can fail
