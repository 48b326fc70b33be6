"""prompt-submit: the explore envelope from a running daemon for prompts that name indexed code; nothing
for other prompts, no daemon, a busy daemon, or the opt-out (issue 16). Real index, real daemon process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from codegraph_hooks import prompt_submit

from codegraph.index.indexer import index_project
from codegraph.mcp import service, wire
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture
from tests.hooks.conftest import HOOK

MCP_TESTS = Path(__file__).resolve().parents[1] / "mcp"


def _start_daemon(root: Path, runtime: Path, **env) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "codegraph.mcp.daemon", str(root)],
        env={
            **os.environ,
            "CODEGRAPH_RUNTIME_DIR": str(runtime),
            "CODEGRAPH_DAEMON_IDLE": "60",
            "CODEGRAPH_NO_WATCH": "1",
            **env,
        },
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert wire.wait_until(lambda: service.status(root) is not None, 15), "daemon never answered"
    return proc


@pytest.fixture
def shop(tmp_path, monkeypatch):
    runtime = tmp_path / "run"
    monkeypatch.setenv("CODEGRAPH_RUNTIME_DIR", str(runtime))
    root = copy_fixture("python", tmp_path).resolve()
    index_project(ProjectPaths(root), workers=1)
    return root, runtime


@pytest.fixture
def served(shop):
    root, runtime = shop
    proc = _start_daemon(root, runtime)
    yield root
    proc.terminate()
    proc.wait(10)


def _hook(
    root: Path, prompt: str, event: str | None = None, **env
) -> tuple[subprocess.CompletedProcess, float]:
    payload = {"prompt": prompt, "cwd": str(root), "session_id": "s1"}
    if event:
        payload["hook_event_name"] = event
    started = time.monotonic()
    result = subprocess.run(
        [HOOK, "prompt-submit"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=30,
        # the daemon's answer may take longer than the 1.5 s default on a loaded machine; the tests of
        # the budget itself give their own CODEGRAPH_PROMPT_HOOK_WAIT
        env={**os.environ, "CODEGRAPH_PROMPT_HOOK_WAIT": "20", **env},
    )
    return result, time.monotonic() - started


def test_a_prompt_naming_a_project_symbol_gets_the_envelope_with_the_current_and_complete_note(served):
    result, _ = _hook(served, "Why does QuerySet.filter return a new QuerySet?")
    assert result.returncode == 0
    [line] = result.stdout.splitlines()
    out = json.loads(line)["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit"
    text = out["additionalContext"]
    assert text.splitlines()[0] == prompt_submit.NOTE
    assert "current" in text.splitlines()[0] and "complete for the spans shown" in text.splitlines()[0]
    assert "shop/db/query.py" in text and "def filter(self, *args, **kwargs):" in text
    assert len(text) <= prompt_submit.DEFAULT_MAX_CHARS


@pytest.mark.parametrize("prompt", ["hi", "write a poem", "Write a poem about the sea", "thanks!", "   "])
def test_prompts_that_name_nothing_in_the_index_add_nothing(served, prompt):
    result, _ = _hook(served, prompt)
    assert (result.returncode, result.stdout) == (0, "")


def test_a_plain_word_counts_only_when_the_prompt_is_about_code(served):
    assert _hook(served, "add it to my shopping list")[0].stdout == ""
    assert "def add(self, objs)" in _hook(served, "how does the Collector add method work")[0].stdout
    assert "active_only" in _hook(served, "where is active_only defined?")[0].stdout


def test_gemini_before_agent_gets_its_own_event_name(served):
    result, _ = _hook(served, "what calls active_only", event="BeforeAgent")
    assert json.loads(result.stdout)["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"


def test_the_envelope_is_capped_by_the_configured_size(served):
    result, _ = _hook(served, "how does QuerySet.filter work", CODEGRAPH_PROMPT_HOOK_MAX_CHARS="1500")
    text = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert 0 < len(text) <= 1500


def test_opt_out_variable_turns_the_hook_off(served):
    result, _ = _hook(served, "how does QuerySet.filter work", CODEGRAPH_NO_PROMPT_HOOK="1")
    assert (result.returncode, result.stdout) == (0, "")


def test_without_a_running_daemon_it_adds_nothing_at_once_and_starts_nothing(shop):
    root, runtime = shop
    result, took = _hook(root, "how does QuerySet.filter work", CODEGRAPH_PROMPT_HOOK_WAIT="1.5")
    assert (result.returncode, result.stdout) == (0, "")
    assert took < 1.5
    time.sleep(0.3)
    assert service.status(root) is None and not (root / ".codegraph" / "daemon.pid").exists()


def test_a_daemon_busy_past_the_budget_gives_nothing_within_the_budget(shop):
    root, runtime = shop
    # the fake handler sleeps on `sleep:SECONDS` queries inside a daemon
    proc = _start_daemon(
        root, runtime, PYTHONPATH=str(MCP_TESTS), CODEGRAPH_MCP_HANDLER="fake_handler:call_tool"
    )
    try:
        result, took = _hook(root, "sleep:5 in QuerySet.filter", CODEGRAPH_PROMPT_HOOK_WAIT="0.5")
        assert (result.returncode, result.stdout) == (0, "")
        assert took < 1.5, took
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_hook_process_never_imports_tree_sitter_or_the_mcp_sdk(served):
    probe = (
        "import sys\n"
        "sys.argv = ['codegraph-hook', 'prompt-submit']\n"
        "from codegraph_hooks.main import main\n"
        "main()\n"
        "heavy = [m for m in sys.modules\n"
        "         if m.split('.')[0] in ('tree_sitter', 'tree_sitter_language_pack', 'mcp', 'watchdog')\n"
        "         or m.startswith(('codegraph.query', 'codegraph.store', 'codegraph.index'))]\n"
        "sys.stderr.write(repr(heavy))\n"
    )
    result = subprocess.run(
        [HOOK.parent / "python", "-c", probe],
        input=json.dumps({"prompt": "how does QuerySet.filter work", "cwd": str(served)}),
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "CODEGRAPH_PROMPT_HOOK_WAIT": "20"},
    )
    assert result.returncode == 0 and result.stderr == "[]"
    assert "def filter" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_bad_payloads_and_a_corrupt_index_fail_open(shop):
    root, _ = shop
    for payload in ("not json", "[]", json.dumps({"prompt": 3, "cwd": str(root)})):
        result = subprocess.run([HOOK, "prompt-submit"], input=payload, capture_output=True, text=True)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    (root / ".codegraph" / "codegraph.db").write_bytes(b"garbage" * 100)
    result, _ = _hook(root, "how does QuerySet.filter work")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_decide_drops_explore_s_no_match_answer_and_cuts_an_oversized_envelope():
    assert prompt_submit.decide(None, "UserPromptSubmit") is None
    assert prompt_submit.decide("No symbol in the index matches the question's names", "X") is None
    big = "\n".join(f"{i}\tline" for i in range(5000))
    text = prompt_submit.decide(big, "UserPromptSubmit", max_chars=3000)["hookSpecificOutput"][
        "additionalContext"
    ]
    assert len(text) <= 3000 and text.endswith("size limit)")


def test_candidates_split_identifier_shaped_tokens_from_plain_words():
    strong, weak, files, cue = prompt_submit.candidates(
        "Does Query.add_q in sql/query.py call WhereNode? fix it"
    )
    assert {"Query", "add_q", "WhereNode"} <= strong and "sql/query.py" in files and cue
    assert prompt_submit.candidates("write a poem") == (set(), {"poem"}, set(), False)
