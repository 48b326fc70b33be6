"""Adversarial inputs: install refuses clearly, and install + uninstall never lose what the user had."""

from __future__ import annotations

import json
import os
import pathlib
import stat

import pytest
from codegraph_installer import disk, targets
from codegraph_installer.paths import InstallPaths

from codegraph.errors import ConfigConflict, ConfigUnparsable, ConfigUnwritable
from tests.installer.conftest import COMMAND, HOOK_COMMAND
from tests.installer.test_refusals_and_cli import _invoke

FOREIGN = {"command": "mine", "args": ["custom"]}


def _run(home, project, target, action, **kw):
    paths = InstallPaths(home, project)
    options = targets.make_options(target, None, command=COMMAND, hook_command=HOOK_COMMAND, **kw)
    return targets.run(target, action, paths, options)


def _snapshot(root: pathlib.Path) -> dict[str, bytes]:
    """Every file under ``root`` except codegraph's own state (backups, install record)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".local/state/codegraph" not in p.as_posix()
    }


# --- 1. a user's own `codegraph` entry ---------------------------------------------------------------


JSON_FOREIGN = [
    ("claude", "home/.claude.json", "mcpServers"),
    ("cursor", "project/.cursor/mcp.json", "mcpServers"),
    ("gemini", "home/.gemini/settings.json", "mcpServers"),
    ("opencode", "home/.config/opencode/opencode.json", "mcp"),
    ("vscode", "project/.vscode/mcp.json", "servers"),
]


@pytest.mark.parametrize(("target", "rel", "key"), JSON_FOREIGN, ids=[t for t, _, _ in JSON_FOREIGN])
def test_install_refuses_a_codegraph_entry_it_did_not_write_naming_file_and_entry(target, rel, key, sandbox):
    home, project = sandbox
    config = home.parent / rel
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({key: {"codegraph": FOREIGN}}, indent=2) + "\n")
    before = _snapshot(home.parent)
    result = _invoke(home, project, "install", target, "-y")
    assert result.exit_code == ConfigConflict.exit_code
    assert f"{config}: {key}.codegraph already holds an entry codegraph did not write" in result.output
    assert '"command": "mine"' in result.output and "--replace" in result.output
    assert _snapshot(home.parent) == before
    assert not (home / ".local").exists()


def test_claude_install_refusal_writes_neither_file(sandbox):
    home, project = sandbox
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"codegraph": FOREIGN}}))
    with pytest.raises(ConfigConflict):
        _run(home, project, "claude", "install", prewarm=True)
    assert not (home / ".claude").exists()


def test_replace_overwrites_the_users_entry_and_uninstall_puts_it_back_keeping_the_file(sandbox):
    home, project = sandbox
    original = json.dumps({"mcpServers": {"codegraph": FOREIGN}}, indent=2) + "\n"
    (home / ".claude.json").write_text(original)
    result = _invoke(home, project, "install", "claude", "-y", "--replace")
    assert result.exit_code == 0, result.output
    assert json.loads((home / ".claude.json").read_text())["mcpServers"]["codegraph"]["args"][0] == "serve"
    assert "uninstall` puts it back" in result.output
    assert _invoke(home, project, "uninstall", "claude").exit_code == 0
    assert json.loads((home / ".claude.json").read_text()) == json.loads(original)
    assert not (home / ".claude" / "settings.json").exists()  # install created it: it goes


def test_uninstall_never_removes_a_foreign_entry_nor_the_file_holding_it(sandbox):
    home, project = sandbox
    text = json.dumps({"mcpServers": {"codegraph": FOREIGN}})
    (home / ".claude.json").write_text(text)
    outcome = _run(home, project, "claude", "uninstall")
    assert (home / ".claude.json").read_text() == text
    assert f"left mcpServers.codegraph in {home / '.claude.json'} as it is" in " ".join(outcome.plan.notes)


def test_codex_install_refuses_a_foreign_codegraph_table_and_replace_round_trips(sandbox):
    home, project = sandbox
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    original = '# mine\n[mcp_servers.codegraph]\ncommand = "mine"\nargs = ["custom"]\n'
    config.write_text(original)
    assert "codegraph did not write it" in _invoke(home, project, "uninstall", "codex").output
    result = _invoke(home, project, "install", "codex", "-y")
    assert result.exit_code == ConfigConflict.exit_code
    assert f"{config}: mcp_servers.codegraph already holds an entry" in result.output
    assert config.read_text() == original and not (home / ".local").exists()

    assert _invoke(home, project, "install", "codex", "--replace").exit_code == 0
    assert '"serve"' in config.read_text()
    assert _invoke(home, project, "uninstall", "codex").exit_code == 0
    assert (
        config.exists() and 'command = "mine"' in config.read_text() and '"serve"' not in config.read_text()
    )


# --- 4. Codex: a non-table value -----------------------------------------------------------------------


def test_codex_install_refuses_a_string_codegraph_value_and_replace_puts_it_back(sandbox):
    home, project = sandbox
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    original = '[mcp_servers]\ncodegraph = "str"\n'
    config.write_text(original)
    with pytest.raises(ConfigConflict, match='mcp_servers.codegraph already holds an entry .*"str"'):
        _run(home, project, "codex", "install")
    assert config.read_text() == original
    _run(home, project, "codex", "install", replace=True)
    assert "[mcp_servers.codegraph]" in config.read_text() and '"str"' not in config.read_text()
    _run(home, project, "codex", "uninstall")
    assert config.read_text() == original


# --- 2. files that existed as `{}`; containers that existed ---------------------------------------------


@pytest.mark.parametrize("empty", ["{}", "{}\n", "  {}  \n"])
def test_install_then_uninstall_keeps_files_that_existed_as_empty_objects(empty, sandbox):
    home, project = sandbox
    (home / ".claude").mkdir()
    for path in (home / ".claude.json", home / ".claude" / "settings.json"):
        path.write_text(empty)
    before = _snapshot(home)
    _run(home, project, "claude", "install", prewarm=True, redirect_reads=True)
    assert "codegraph" in (home / ".claude.json").read_text()
    _run(home, project, "claude", "uninstall")
    assert _snapshot(home) == before


def test_uninstall_keeps_containers_the_user_had_and_prunes_those_install_created(sandbox):
    home, project = sandbox
    (home / ".claude").mkdir()
    (home / ".claude.json").write_text('{"mcpServers": {}}\n')
    (home / ".claude" / "settings.json").write_text('{"permissions": {"deny": []}}\n')
    before = _snapshot(home)
    _run(home, project, "claude", "install", redirect_reads=True)
    _run(home, project, "claude", "uninstall")
    assert _snapshot(home) == before


def test_uninstall_still_deletes_files_install_created(sandbox):
    home, project = sandbox
    _run(home, project, "claude", "install", prewarm=True)
    _run(home, project, "claude", "uninstall")
    assert _snapshot(home) == {}


# --- 3. a rule the user had -------------------------------------------------------------------------------


def test_uninstall_keeps_an_allow_rule_the_user_had_before_install(sandbox):
    home, project = sandbox
    (home / ".claude").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text('{\n  "permissions": {\n    "allow": ["mcp__codegraph__*"]\n  }\n}\n')
    before = _snapshot(home)
    _run(home, project, "claude", "install")
    outcome = _run(home, project, "claude", "uninstall")
    assert _snapshot(home) == before
    assert any("kept permissions.allow 'mcp__codegraph__*'" in note for note in outcome.plan.notes)


def test_uninstall_removes_the_allow_rule_install_added_even_after_a_reinstall(sandbox):
    home, project = sandbox
    (home / ".claude").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    before = _snapshot(home)
    _run(home, project, "claude", "install")
    _run(home, project, "claude", "install", prewarm=True)  # a second install keeps the first's record
    _run(home, project, "claude", "uninstall")
    assert _snapshot(home) == before


def test_without_the_install_record_uninstall_removes_our_entries_and_keeps_files_and_rules(sandbox):
    home, project = sandbox
    _run(home, project, "claude", "install", prewarm=True)
    InstallPaths(home, project).install_state.unlink()
    _run(home, project, "claude", "uninstall")
    assert json.loads((home / ".claude.json").read_text()) == {"mcpServers": {}}
    left = json.loads((home / ".claude" / "settings.json").read_text())
    assert left == {"permissions": {"allow": ["mcp__codegraph__*"]}, "hooks": {"SessionStart": []}}


# --- 5. symlinks and read-only files -------------------------------------------------------------------------


def test_a_symlinked_config_is_written_through_the_link_and_the_link_stays(sandbox, tmp_path):
    home, project = sandbox
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "claude.json"
    real.write_text('{"theme": "dark"}\n')
    real.chmod(0o600)
    (home / ".claude.json").symlink_to(real)
    _run(home, project, "claude", "install")
    assert (home / ".claude.json").is_symlink() and os.readlink(home / ".claude.json") == str(real)
    assert "codegraph" in real.read_text() and stat.S_IMODE(real.stat().st_mode) == 0o600
    assert [p.name for p in dotfiles.iterdir()] == ["claude.json"]  # no temp file left beside it
    _run(home, project, "claude", "uninstall")
    assert (home / ".claude.json").is_symlink()
    assert real.read_text() == '{"theme": "dark"}\n'


def test_a_dangling_symlink_is_refused_and_left_as_it_is(sandbox, tmp_path):
    home, project = sandbox
    (home / ".claude.json").symlink_to(tmp_path / "gone" / "claude.json")
    result = _invoke(home, project, "install", "claude", "-y")
    assert result.exit_code == ConfigUnwritable.exit_code
    assert f"{home / '.claude.json'} is a symlink to {tmp_path / 'gone' / 'claude.json'}" in result.output
    assert "which does not exist" in result.output and "Traceback" not in result.output
    assert (home / ".claude.json").is_symlink() and not (tmp_path / "gone").exists()
    assert not (home / ".claude").exists() and not (home / ".local").exists()


@pytest.mark.parametrize("action", ["install", "uninstall"])
def test_a_read_only_config_is_refused_even_for_root_and_nothing_is_written(action, sandbox):
    home, project = sandbox
    config = home / ".claude.json"
    if action == "uninstall":
        _run(home, project, "claude", "install")
    else:
        config.write_text('{"theme": "dark"}\n')
    config.chmod(0o444)
    before = _snapshot(home)
    result = _invoke(home, project, action, "claude", *(["-y"] if action == "install" else []))
    assert result.exit_code == ConfigUnwritable.exit_code
    assert f"{config} is read-only (mode 0444)" in result.output and "chmod u+w" in result.output
    assert _snapshot(home) == before and stat.S_IMODE(config.stat().st_mode) == 0o444


# --- 6. invalid UTF-8, unwritable folders ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["install", "uninstall", "doctor"])
def test_invalid_utf8_is_refused_naming_the_file_without_a_traceback(command, sandbox):
    home, project = sandbox
    config = home / ".claude.json"
    config.write_bytes(b'{\n  "name": "caf\xe9"\n}\n')
    before = _snapshot(home)
    args = {"install": ["-y"], "uninstall": [], "doctor": ["--no-connect"]}[command]
    result = _invoke(home, project, command, "claude", *args)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{config}:2: not UTF-8 text" in result.output
    assert result.exit_code == (1 if command == "doctor" else ConfigUnparsable.exit_code)
    assert _snapshot(home) == before and not (home / ".local").exists()


def test_an_uncreatable_state_folder_is_reported_by_path_and_nothing_is_half_written(sandbox):
    home, project = sandbox
    (home / ".local").write_text("a file where a folder should be\n")
    (home / ".claude.json").write_text('{"theme": "dark"}\n')
    before = _snapshot(home)
    result = _invoke(home, project, "install", "claude", "-y")
    assert result.exit_code == ConfigUnwritable.exit_code
    assert f"cannot create folder {home / '.local' / 'state'}" in result.output
    assert "Traceback" not in result.output
    assert _snapshot(home) == before and not (home / ".claude").exists()


def test_a_permission_error_creating_a_folder_names_the_folder(sandbox, monkeypatch):
    home, project = sandbox
    real_mkdir = pathlib.Path.mkdir

    def mkdir(self, *args, **kwargs):
        if self == home / ".local":
            raise PermissionError(13, "Permission denied", str(self))
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "mkdir", mkdir)
    result = _invoke(home, project, "install", "claude", "-y")
    assert result.exit_code == ConfigUnwritable.exit_code
    assert f"cannot create folder {home / '.local'} (Permission denied)" in result.output
    assert _snapshot(home) == {} and list(home.iterdir()) == []


def test_a_failed_write_puts_back_the_files_already_written(sandbox, monkeypatch):
    home, project = sandbox
    (home / ".claude").mkdir()
    (home / ".claude.json").write_text('{"theme": "dark"}\n')
    (home / ".claude" / "settings.json").write_text('{"model": "x"}\n')
    before = _snapshot(home)
    real_write = disk._atomic_write

    def failing_write(path, text):
        if path.name == "settings.json":
            raise OSError(28, "No space left on device", str(path))
        real_write(path, text)

    monkeypatch.setattr(disk, "_atomic_write", failing_write)
    with pytest.raises(ConfigUnwritable, match="No space left on device"):
        _run(home, project, "claude", "install")
    assert _snapshot(home) == before


# --- 7. doctor --json -------------------------------------------------------------------------------------------


def test_doctor_json_prints_json_when_nothing_is_installed(sandbox):
    home, project = sandbox
    result = _invoke(home, project, "doctor", "--no-connect", "--json")
    assert result.exit_code == 1
    *agents, index = json.loads(result.output)
    assert {r["target"] for r in agents} == set(targets.TARGETS) and index["target"] == "index"
    assert all(not r["ok"] and any(c["name"] == "installed" for c in r["checks"]) for r in agents)
