"""`codegraph install` with no target finds the agents on the machine (command on PATH, config folder in
the home) and installs for each after one question; `codegraph uninstall` with no target removes
codegraph from every agent it is installed for. Real config files in a temporary HOME, the real CLI."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tomlkit

CLAUDE_JSON = {"numStartups": 7, "mcpServers": {"other": {"command": "/bin/other", "args": []}}}
CODEX_TOML = '# my codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "/bin/other"\n'


@pytest.fixture
def machine(tmp_path):
    """A HOME where Claude (~/.claude.json) and Codex (~/.codex/) were used, and a `gemini` command on
    PATH; Cursor, opencode and VS Code are absent."""
    home, project, bin_dir = tmp_path / "home", tmp_path / "project", tmp_path / "bin"
    for d in (home, project, bin_dir):
        d.mkdir()
    (home / ".claude.json").write_text(json.dumps(CLAUDE_JSON, indent=2) + "\n")
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(CODEX_TOML)
    gemini = bin_dir / "gemini"
    gemini.write_text("#!/bin/sh\nexit 0\n")
    gemini.chmod(0o755)
    env = {
        "HOME": str(home),
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "LANG": "C.UTF-8",
    }
    return home, project, env


def cg(env: dict, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=cwd, env=env,
        timeout=120,
    )  # fmt: skip


def test_install_without_target_installs_for_each_agent_found_and_uninstall_removes_them_all(machine):
    home, project, env = machine
    proc = cg(env, project, "install", "--yes", "--json")
    assert proc.returncode == 0, proc.stderr
    outcomes = json.loads(proc.stdout)
    assert [o["target"] for o in outcomes] == ["claude", "codex", "gemini"]
    claude = json.loads((home / ".claude.json").read_text())
    assert claude["numStartups"] == 7 and set(claude["mcpServers"]) == {"other", "codegraph"}
    codex = tomlkit.parse((home / ".codex" / "config.toml").read_text())
    assert "codegraph" in codex["mcp_servers"] and codex["model"] == "o3"
    assert "# my codex settings" in (home / ".codex" / "config.toml").read_text()
    assert "codegraph" in json.loads((home / ".gemini" / "settings.json").read_text())["mcpServers"]
    assert not (home / ".cursor").exists() and not (home / ".config" / "opencode").exists()

    text = cg(env, project, "uninstall", "--yes")
    assert text.returncode == 0, text.stderr
    last = text.stdout.strip().splitlines()[-1]
    assert last.startswith("codegraph uninstall: removed from claude (user), codex (user), gemini (user)"), (
        last
    )
    assert json.loads((home / ".claude.json").read_text()) == CLAUDE_JSON
    assert (home / ".codex" / "config.toml").read_text() == CODEX_TOML
    again = cg(env, project, "uninstall", "--yes")
    assert again.stdout.strip() == "codegraph uninstall: codegraph is not installed for any agent here"


def test_all_installs_for_every_supported_agent(machine):
    home, project, env = machine
    proc = cg(env, project, "install", "--all", "--yes", "--json")
    assert proc.returncode == 0, proc.stderr
    outcomes = json.loads(proc.stdout)
    assert all(o["written"] and all(Path(f["path"]).is_file() for f in o["files"]) for o in outcomes)
    assert [o["target"] for o in outcomes] == [
        "claude", "codex", "cursor", "gemini", "opencode", "vscode",
    ]  # fmt: skip


def test_one_refused_config_does_not_stop_the_others(machine):
    home, project, env = machine
    (home / ".claude.json").write_text("{ not json")
    proc = cg(env, project, "install", "--yes")
    assert proc.returncode == 6
    assert "codegraph install claude: refused:" in proc.stderr and "Traceback" not in proc.stderr
    assert "codegraph install codex: installed in the user scope" in proc.stdout
    assert (home / ".claude.json").read_text() == "{ not json"


def test_no_agent_found_names_the_choices(tmp_path):
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    proc = cg(env, tmp_path, "install", "--yes")
    assert proc.returncode == 2
    assert "no agent found on this machine" in proc.stderr and "--all" in proc.stderr


def test_on_a_terminal_it_lists_the_agents_and_asks_once(machine):
    home, project, env = machine
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(project)
        os.execve(sys.executable, [sys.executable, "-m", "codegraph", "install"], env)
    out, end = b"", time.monotonic() + 60
    while b"[Y/n]" not in out and time.monotonic() < end:
        if select.select([fd], [], [], 0.1)[0]:
            out += os.read(fd, 65536)
    os.write(fd, b"n\n")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    text = out.decode()
    assert "claude" in text and "codex" in text and "`gemini` on PATH" in text and "cursor" not in text
    assert text.count("[Y/n]") == 1
    assert os.waitstatus_to_exitcode(status) == 2
    assert json.loads((home / ".claude.json").read_text()) == CLAUDE_JSON  # nothing written
