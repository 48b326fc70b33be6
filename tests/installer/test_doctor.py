"""doctor: a real stdio handshake with the configured command, hooks validity, trust, index state."""

from __future__ import annotations

import json
import sys

import pytest
from codegraph_installer import targets
from codegraph_installer.doctor import doctor
from codegraph_installer.handshake import handshake
from codegraph_installer.paths import InstallPaths, console_script

from tests.hooks.conftest import make_index
from tests.installer.claude_harness import write_stub_server


@pytest.fixture
def paths(tmp_path):
    home, project = tmp_path / "home", tmp_path / "proj"
    home.mkdir()
    project.mkdir()
    return InstallPaths(home, project)


def _checks(report):
    return {c.name: c for c in report.checks}


def test_doctor_completes_a_handshake_and_validates_installed_hooks(paths, tmp_path):
    stub = write_stub_server(tmp_path / "bin", tmp_path / "calls.jsonl")
    hook = console_script("codegraph-hook")
    options = targets.make_options(
        "claude", "user", prewarm=True, redirect_reads=True, command=str(stub), hook_command=hook
    )
    targets.run("claude", "install", paths, options)
    make_index(paths.project, {"a.py": "x = 1\n"})
    report = doctor("claude", paths)
    checks = _checks(report)
    assert report.ok, report.to_json()
    assert (
        checks["handshake (user)"].ok and "1 tools (codegraph_explore)" in checks["handshake (user)"].detail
    )
    assert checks["hook SessionStart"].ok and checks["hook PreToolUse"].ok
    assert checks["auto-allow"].ok
    assert checks["index"].detail.startswith("1 file,")
    assert "has not yet trusted" in checks["folder trust"].detail


def test_doctor_fails_a_server_that_prints_non_json_on_stdout(paths, tmp_path):
    noisy = tmp_path / "codegraph"
    noisy.write_text(f"#!{sys.executable}\nprint('Starting codegraph...')\nimport time; time.sleep(5)\n")
    noisy.chmod(0o755)
    targets.run("cursor", "install", paths, targets.make_options("cursor", "project", command=str(noisy)))
    check = _checks(doctor("cursor", paths, timeout=5))["handshake (project)"]
    assert check.ok is False and "non-JSON line" in check.detail


def test_doctor_reports_a_missing_entry_and_a_hook_whose_executable_is_gone(paths):
    options = targets.make_options(
        "claude", "user", prewarm=True, command="/nowhere/codegraph", hook_command="/nowhere/codegraph-hook"
    )
    targets.run("claude", "install", paths, options)
    report = doctor("claude", paths, timeout=5)
    checks = _checks(report)
    assert not report.ok
    assert checks["handshake (user)"].ok is False and "cannot start" in checks["handshake (user)"].detail
    assert (
        checks["hook SessionStart"].ok is False and "not an executable" in checks["hook SessionStart"].detail
    )
    assert _checks(doctor("codex", paths))["installed"].ok is False


def test_doctor_reports_an_unparsable_config_with_file_and_line(paths):
    paths.claude_json.write_text('{\n  "mcpServers": {,}\n}\n')
    check = _checks(doctor("claude", paths))["config (user)"]
    assert check.ok is False and f"{paths.claude_json}:2:" in check.detail


def test_real_codegraph_server_completes_the_doctor_handshake(paths):
    command = console_script("codegraph")
    probe = handshake([command, "serve", "--mcp"], paths.project, timeout=10)
    if not probe.ok:
        pytest.skip(f"`codegraph serve --mcp` does not handshake in this tree yet (issue 4): {probe.error}")
    assert "codegraph_explore" in probe.tools
    assert probe.seconds < 2.0


def test_doctor_gemini_says_in_words_whether_the_folder_is_trusted_and_whether_calls_are_auto_allowed(paths):
    targets.run("gemini", "install", paths, targets.make_options("gemini", "user", command="/x/codegraph"))
    trust_file = paths.gemini_trusted_folders
    checks = _checks(doctor("gemini", paths, connect=False))
    assert checks["folder trust"].ok is None
    assert checks["folder trust"].detail.startswith(f"Gemini CLI has no trust rule for {paths.project}")
    assert checks["auto-allow"].ok and '"trust": true' in checks["auto-allow"].detail
    trust_file.write_text(json.dumps({str(paths.project): "TRUST_FOLDER"}))
    checks = _checks(doctor("gemini", paths, connect=False))
    assert checks["folder trust"].ok is True
    assert checks["folder trust"].detail == f"Gemini CLI trusts {paths.project} ({trust_file})"
    trust_file.write_text(json.dumps({str(paths.project): "DO_NOT_TRUST"}))
    checks = _checks(doctor("gemini", paths, connect=False))
    assert checks["folder trust"].ok is False and "does not trust" in checks["folder trust"].detail
    options = targets.make_options("gemini", "user", command="/x/codegraph", auto_allow=False)
    targets.run("gemini", "install", paths, options)
    checks = _checks(doctor("gemini", paths, connect=False))
    assert checks["auto-allow"].ok is None and "gemini -p" in checks["auto-allow"].detail
