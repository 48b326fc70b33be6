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
