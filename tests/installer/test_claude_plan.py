"""Claude plan details the golden files do not show."""

from __future__ import annotations

import json

from codegraph_installer import claude, targets
from codegraph_installer.paths import InstallPaths


def test_uninstall_takes_our_hook_out_of_a_group_shared_with_the_users_hook_and_keeps_theirs(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    project.mkdir()
    shared = {
        "matcher": "Read",
        "hooks": [
            {"type": "command", "command": "~/bin/log-reads.sh"},
            {"type": "command", "command": "/venv/bin/codegraph-hook pre-tool-use", "timeout": 5},
        ],
    }
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [shared]}}, indent=2))
    options = targets.make_options("claude", "user", command="/venv/bin/codegraph")
    targets.run("claude", "uninstall", InstallPaths(home, project), options)
    left = json.loads((home / ".claude" / "settings.json").read_text())
    assert left == {"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [shared["hooks"][0]]}]}}


def test_hook_commands_with_spaces_in_the_path_are_quoted_and_still_recognised():
    options = targets.make_options(
        "claude",
        "user",
        prewarm=True,
        command="/x/codegraph",
        hook_command="/Users/me/My Tools/bin/codegraph-hook",
    )
    group = claude.hook_group(options, "SessionStart")
    command = group["hooks"][0]["command"]
    assert command == "'/Users/me/My Tools/bin/codegraph-hook' session-start"
    assert claude.is_our_hook(group["hooks"][0])
    assert not claude.is_our_hook({"type": "command", "command": "echo codegraph-hook"})


def test_a_crlf_file_keeps_crlf_line_endings_and_round_trips(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (project / ".vscode").mkdir(parents=True)
    home.mkdir()
    original = (
        '{\r\n  // mine\r\n  "servers": {\r\n    "a": {"type": "stdio", "command": "a"}\r\n  }\r\n}\r\n'
    )
    target = project / ".vscode" / "mcp.json"
    target.write_bytes(original.encode())
    paths = InstallPaths(home, project)
    options = targets.make_options("vscode", "project", command="/venv/bin/codegraph")
    targets.run("vscode", "install", paths, options)
    installed = target.read_bytes().decode()
    assert installed.count("\n") == installed.count("\r\n") and '"codegraph"' in installed
    targets.run("vscode", "uninstall", paths, options)
    assert target.read_bytes().decode() == original


def test_no_auto_allow_writes_the_server_but_no_allow_rule_and_uninstall_leaves_nothing(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    paths = InstallPaths(home, project)
    options = targets.make_options(
        "claude", "user", command="/venv/bin/codegraph", auto_allow=False, prewarm=True
    )
    targets.run("claude", "install", paths, options)
    assert "codegraph" in json.loads((home / ".claude.json").read_text())["mcpServers"]
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert "permissions" not in settings and settings["hooks"]["SessionStart"]
    targets.run("claude", "uninstall", paths, options)
    assert not (home / ".claude" / "settings.json").exists()


def test_reinstalling_with_no_auto_allow_takes_back_the_rule_an_earlier_install_added(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    (home / ".claude").mkdir(parents=True)
    project.mkdir()
    (home / ".claude" / "settings.json").write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    paths = InstallPaths(home, project)
    targets.run(
        "claude", "install", paths, targets.make_options("claude", "user", command="/venv/bin/codegraph")
    )
    assert claude.ALLOW_RULE in (home / ".claude" / "settings.json").read_text()
    quiet = targets.make_options("claude", "user", command="/venv/bin/codegraph", auto_allow=False)
    targets.run("claude", "install", paths, quiet)
    assert json.loads((home / ".claude" / "settings.json").read_text()) == {
        "permissions": {"allow": ["Bash(ls)"]}
    }
