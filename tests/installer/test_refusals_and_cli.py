"""Unparsable or non-object configs are refused untouched; the CLI prints statuses and diffs."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from codegraph_installer import targets
from codegraph_installer.paths import InstallPaths

from codegraph.cli import install_cmds
from codegraph.cli.main import _Group
from codegraph.errors import ConfigUnparsable
from tests.installer.conftest import COMMAND, FIXTURES, HOOK_COMMAND

REFUSED = sorted((FIXTURES / "refused").iterdir())


@click.group(cls=_Group)  # the real group's error mapping, without the lead's unfinished modules
def cli():
    pass


for _command in install_cmds.COMMANDS:
    cli.add_command(_command)


def _invoke(home: Path, project: Path, *args: str):
    env = {"HOME": str(home), "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "CODEX_HOME": ""}
    return CliRunner().invoke(cli, [*args, "--path", str(project)], env=env)


@pytest.mark.parametrize("case", REFUSED, ids=lambda p: p.name)
def test_unparsable_config_is_refused_naming_file_and_line_and_left_untouched(case, tmp_path):
    shutil.copytree(case, tmp_path, dirs_exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (tmp_path / "project").mkdir(exist_ok=True)
    spec = json.loads((case / "case.json").read_text())
    broken = tmp_path / spec["file"]
    before = broken.read_bytes()
    paths = InstallPaths(tmp_path / "home", tmp_path / "project")
    options = targets.make_options(spec["target"], None, command=COMMAND, hook_command=HOOK_COMMAND)
    with pytest.raises(ConfigUnparsable) as caught:
        targets.run(spec["target"], "install", paths, options)
    assert f"{broken}:{spec['line']}" in str(caught.value)
    assert broken.read_bytes() == before
    assert not (tmp_path / "home" / ".local").exists()  # no backup either: nothing was written


def test_cli_refusal_exits_nonzero_with_the_message(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir(parents=True)
    shutil.copytree(FIXTURES / "refused" / "claude-broken-json" / "home", home)
    before = (home / ".claude.json").read_bytes()
    result = _invoke(home, project, "install", "claude")
    assert result.exit_code == ConfigUnparsable.exit_code
    assert f"{home / '.claude.json'}:6:" in result.output
    assert (home / ".claude.json").read_bytes() == before
    assert not (home / ".claude").exists()


def test_cli_install_twice_reports_unchanged_the_second_time(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    first = _invoke(home, project, "install", "claude", "--prewarm", "--redirect-reads")
    assert first.exit_code == 0, first.output
    assert "create" in first.output and str(home / ".claude.json") in first.output
    snapshot = (home / ".claude.json").read_bytes(), (home / ".claude" / "settings.json").read_bytes()
    second = _invoke(home, project, "install", "claude", "--prewarm", "--redirect-reads")
    assert "unchanged" in second.output
    assert snapshot == (
        (home / ".claude.json").read_bytes(),
        (home / ".claude" / "settings.json").read_bytes(),
    )


def test_cli_dry_run_prints_a_unified_diff_and_writes_nothing(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    result = _invoke(home, project, "install", "codex", "--dry-run")
    assert result.exit_code == 0
    assert "+++ " + str(home / ".codex" / "config.toml") in result.output
    assert "+[mcp_servers.codegraph]" in result.output
    assert not (home / ".codex").exists()


def test_cli_json_output_lists_files_and_statuses(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    result = _invoke(home, project, "install", "vscode", "--json")
    data = json.loads(result.output)
    assert data["written"] is True
    (change,) = data["files"]
    assert (change["path"], change["status"]) == (str(project / ".vscode" / "mcp.json"), "create")
    assert '+    "codegraph": {' in change["diff"]


@pytest.mark.parametrize(
    ("agent", "flag", "why"),
    [
        ("codex", "--prewarm", "hooks engine (hooks.json"),
        ("opencode", "--frontload", "JavaScript plugins"),
        ("cursor", "--redirect-reads", "no hook mechanism"),
    ],
)
def test_hook_flags_are_rejected_for_agents_without_hooks_saying_why_and_writing_nothing(
    tmp_path, agent, flag, why
):
    result = _invoke(tmp_path, tmp_path, "install", agent, flag)
    assert result.exit_code == 2
    assert "hooks for claude and gemini only" in result.output and why in result.output
    assert "Nothing was written" in result.output and "Traceback" not in result.output
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_uninstall_leaves_a_foreign_server_named_codegraph_alone(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    text = '{"mcpServers": {"codegraph": {"command": "npx", "args": ["@colbymchenry/codegraph"]}}}\n'
    (home / ".claude.json").write_text(text)
    _invoke(home, project, "uninstall", "claude")
    assert (home / ".claude.json").read_text() == text


def test_new_files_get_the_umask_mode_and_existing_files_keep_theirs(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    (home / ".claude.json").write_text("{}\n")
    (home / ".claude.json").chmod(0o600)
    _invoke(home, project, "install", "claude")
    assert (home / ".claude.json").stat().st_mode & 0o777 == 0o600
    created = home / ".claude" / "settings.json"
    mask = os.umask(0)
    os.umask(mask)
    assert created.stat().st_mode & 0o777 == 0o666 & ~mask


def test_uninstall_removes_the_agent_folder_its_deleted_file_left_empty(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    _invoke(home, project, "install", "vscode")
    assert (project / ".vscode" / "mcp.json").exists()
    _invoke(home, project, "uninstall", "vscode")
    assert list(project.iterdir()) == []


def test_doctor_without_a_target_reports_only_installed_agents_and_fails_when_there_are_none(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    empty = _invoke(home, project, "doctor", "--no-connect")
    assert empty.exit_code == 1 and "not installed for any agent" in empty.output
    _invoke(home, project, "install", "gemini")
    report = _invoke(home, project, "doctor", "--no-connect", "--json")
    assert [r["target"] for r in json.loads(report.output)] == ["gemini"]


def test_the_codegraph_console_script_has_install_uninstall_and_doctor(tmp_path):
    import subprocess
    import sys

    codegraph = Path(sys.executable).parent / "codegraph"
    env = {**os.environ, "HOME": str(tmp_path)}
    for command in ("install", "uninstall", "doctor"):
        result = subprocess.run(
            [codegraph, command, "--help"], capture_output=True, text=True, env=env, timeout=60
        )
        assert result.returncode == 0 and "--path" in result.stdout
    result = subprocess.run(
        [codegraph, "install", "opencode", "--dry-run", "--path", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0 and '"type": "local"' in result.stdout


def test_uninstall_without_scope_removes_codegraph_from_every_scope(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    for scope in ("user", "local", "project"):
        assert _invoke(home, project, "install", "claude", "--scope", scope).exit_code == 0
    result = _invoke(home, project, "uninstall", "claude", "--json")
    assert [o["scope"] for o in json.loads(result.output)] == ["user", "project", "local"]
    left = (home / ".claude.json").read_text()
    assert "codegraph" not in left and not (project / ".mcp.json").exists()
    assert not (home / ".claude" / "settings.json").exists() and not (project / ".claude").exists()


def test_uninstall_labels_each_scope_says_what_it_changed_and_accepts_yes(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    assert _invoke(home, project, "install", "claude", "-y", "--prewarm").exit_code == 0
    result = _invoke(home, project, "uninstall", "claude", "-y")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "user scope:"
    assert f"  deleted  {home / '.claude.json'}" in lines
    assert f"  deleted  {home / '.claude' / 'settings.json'}" in lines
    assert any(line.startswith("  backup   ") for line in lines)
    assert "project scope: nothing of codegraph's to remove" in lines
    assert "local scope: nothing of codegraph's to remove" in lines
    assert lines[-1] == "codegraph uninstall claude: removed from the user scope"
    assert "unchanged" not in result.output
    again = _invoke(home, project, "uninstall", "claude", "--yes")
    assert again.output.splitlines()[-1] == "codegraph uninstall claude: nothing to remove in any scope"
    dry = _invoke(home, project, "install", "claude", "--dry-run")
    assert f"  would create  {home / '.claude.json'}" in dry.output.splitlines()


def test_doctor_before_any_install_still_checks_the_index_and_names_what_to_install(tmp_path):
    from tests.hooks.conftest import make_index

    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".gemini").mkdir(parents=True)  # Gemini CLI has been used here, nothing else
    project.mkdir()
    make_index(project, {"a.py": "x = 1\n"})
    result = _invoke(home, project, "doctor", "--no-connect")
    lines = result.output.splitlines()
    assert lines[0] == (
        "codegraph is not installed for any agent here; run `codegraph install gemini` "
        "(agents found in your home: gemini)"
    )
    assert lines[1] == "index:" and lines[2].startswith("    ok  index: 1 file,")
    report = json.loads(_invoke(home, project, "doctor", "--no-connect", "--json").output)
    assert report[-1]["target"] == "index" and report[-1]["checks"][0]["ok"] is True
