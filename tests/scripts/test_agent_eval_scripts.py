"""scripts/agent-eval: the A/B-only deny hooks and the A/B driver's guards."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

EVAL = Path(__file__).resolve().parents[2] / "scripts" / "agent-eval"


def _hook(name: str, payload: dict | str) -> subprocess.CompletedProcess:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(["bash", EVAL / name], input=data, capture_output=True, text=True, timeout=20)


@pytest.mark.parametrize("name", ["block-read-hook.sh", "redirect-read-hook.sh"])
def test_deny_hooks_deny_source_reads_and_ignore_docs_and_garbage(name):
    read = {"tool_name": "Read", "tool_input": {"file_path": "/r/pkg/a.py"}, "cwd": "/r"}
    decision = json.loads(_hook(name, read).stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    doc = {"tool_name": "Read", "tool_input": {"file_path": "/r/README.md"}, "cwd": "/r"}
    for payload in (doc, "not json"):
        result = _hook(name, payload)
        assert (result.returncode, result.stdout) == (0, "")


def test_redirect_hook_names_codegraph_explore_and_the_relative_path():
    read = {"tool_name": "Read", "tool_input": {"file_path": "/r/pkg/a.py"}, "cwd": "/r"}
    reason = json.loads(_hook("redirect-read-hook.sh", read).stdout)["hookSpecificOutput"][
        "permissionDecisionReason"
    ]
    assert "codegraph_explore" in reason and "pkg/a.py" in reason


def test_hook_settings_use_the_current_hook_shape():
    settings = json.loads((EVAL / "hook-settings.json").read_text())
    (group,) = settings["hooks"]["PreToolUse"]
    assert group["matcher"] == "Read"
    assert group["hooks"][0]["type"] == "command" and isinstance(group["hooks"][0]["timeout"], int)


def test_ab_script_refuses_nested_runs_and_one_run_per_arm(tmp_path):
    script = EVAL / "ab_new_vs_baseline.sh"
    env = {**os.environ, "CLAUDECODE": "1"}
    nested = subprocess.run(["bash", script, str(tmp_path), "task"], env=env, capture_output=True, text=True)
    assert nested.returncode == 2 and "inside a Claude Code session" in nested.stderr
    env = {k: v for k, v in os.environ.items() if k != "CLAUDECODE"} | {"RUNS": "1"}
    single = subprocess.run(["bash", script, str(tmp_path), "task"], env=env, capture_output=True, text=True)
    assert single.returncode == 2 and "RUNS must be >= 2" in single.stderr


def _arm_settings(arm: str) -> dict:
    result = subprocess.run(
        ["bash", EVAL / "ab_prompt_hook.sh", "--settings", arm], capture_output=True, text=True, timeout=20
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_prompt_hook_ab_arms_wire_no_hook_the_prompt_hook_and_prompt_hook_plus_read_advisory():
    assert "hooks" not in _arm_settings("nohook")
    prompt = _arm_settings("prompt")["hooks"]
    assert list(prompt) == ["UserPromptSubmit"]
    (group,) = prompt["UserPromptSubmit"]
    assert "matcher" not in group and group["hooks"][0]["command"].endswith("codegraph-hook prompt-submit")
    advisory = _arm_settings("advisory")["hooks"]
    assert set(advisory) == {"UserPromptSubmit", "PreToolUse"}
    assert advisory["PreToolUse"][0]["hooks"][0]["command"].endswith("codegraph-hook pre-tool-use")
    for arm in ("nohook", "prompt", "advisory"):
        assert _arm_settings(arm)["permissions"]["allow"] == ["mcp__codegraph__*"]


def test_prompt_hook_ab_script_refuses_nested_runs_one_run_per_arm_and_unknown_arms(tmp_path):
    script = EVAL / "ab_prompt_hook.sh"
    env = {**os.environ, "CLAUDECODE": "1"}
    nested = subprocess.run(["bash", script, str(tmp_path), "task"], env=env, capture_output=True, text=True)
    assert nested.returncode == 2 and "inside a Claude Code session" in nested.stderr
    env = {k: v for k, v in os.environ.items() if k != "CLAUDECODE"} | {"RUNS": "1"}
    single = subprocess.run(["bash", script, str(tmp_path), "task"], env=env, capture_output=True, text=True)
    assert single.returncode == 2 and "RUNS must be >= 2" in single.stderr
    unknown = subprocess.run(["bash", script, "--settings", "x"], capture_output=True, text=True)
    assert unknown.returncode == 2 and "unknown arm" in unknown.stderr
