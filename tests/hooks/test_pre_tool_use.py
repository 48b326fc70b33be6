"""pre-tool-use: advice only for Reads of indexed source files, only when it pays; never blocks."""

from __future__ import annotations

import json
import os
import subprocess

from codegraph_hooks import pre_tool_use

from tests.hooks.conftest import HOOK


def _read(project, rel, session="s1"):
    return {
        "session_id": session,
        "cwd": str(project),
        "tool_name": "Read",
        "tool_input": {"file_path": str(project / rel)},
        "hook_event_name": "PreToolUse",
    }


def test_reading_a_large_indexed_file_suggests_codegraph_explore_with_its_path_and_symbols(project):
    response = pre_tool_use.run(_read(project, "pkg/big.py"))
    context = response["hookSpecificOutput"]["additionalContext"]
    assert response["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert "codegraph_explore" in context and "pkg/big.py" in context
    assert "Engine" in context and "400 lines" in context
    assert "os" not in context.split("defines")[1].split(")")[0]  # imports are not symbols worth naming
    assert "permissionDecision" not in json.dumps(response)


def test_small_files_get_advice_only_after_three_other_indexed_reads_in_the_session(project):
    answers = [pre_tool_use.run(_read(project, f"pkg/{n}.py")) for n in "abcd"]
    assert answers[:3] == [None, None, None]
    assert "4 indexed files read so far" in answers[3]["hookSpecificOutput"]["additionalContext"]
    assert pre_tool_use.run(_read(project, "pkg/a.py", session="other")) is None


def test_rereading_the_same_small_file_does_not_count_as_several_files(project):
    answers = [pre_tool_use.run(_read(project, "pkg/a.py")) for _ in range(5)]
    assert answers == [None] * 5


def test_config_unindexed_and_new_files_get_no_output(project):
    (project / "pkg" / "new.py").write_text("def fresh():\n    pass\n" * 400)
    (project / "README.md").write_text("# readme\n" * 500)
    for rel in ("settings.json", "pkg/new.py", "README.md", "pkg/missing.py"):
        assert pre_tool_use.run(_read(project, rel)) is None


def test_other_tools_and_files_outside_any_index_get_no_output(project, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("a = 1\n" * 1000)
    assert pre_tool_use.run({"tool_name": "Bash", "tool_input": {"command": "cat x"}}) is None
    assert pre_tool_use.run(_read(tmp_path, "elsewhere.py")) is None


def test_decide_is_silent_below_both_thresholds():
    facts = pre_tool_use.FileFacts("a.py", lines=10, symbols=(), earlier_reads=1)
    assert pre_tool_use.decide({}, facts) is None
    assert pre_tool_use.decide({}, facts, min_lines=5) is not None


def test_hook_process_prints_one_json_object_exits_zero_and_never_imports_tree_sitter(project):
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['codegraph-hook', 'pre-tool-use']\n"
        "from codegraph_hooks.main import main\n"
        "main()\n"
        "heavy = [m for m in sys.modules\n"
        "         if m.split('.')[0] in ('tree_sitter', 'tree_sitter_language_pack', 'mcp')]\n"
        "sys.stderr.write(repr(heavy))\n"
    )
    result = subprocess.run(
        [HOOK.parent / "python", "-c", probe],
        input=json.dumps(_read(project, "pkg/big.py")),
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert result.returncode == 0
    assert result.stderr == "[]"
    lines = result.stdout.splitlines()
    assert (
        len(lines) == 1
        and "codegraph_explore" in json.loads(lines[0])["hookSpecificOutput"]["additionalContext"]
    )


def test_hook_fails_open_on_bad_input_and_on_a_corrupt_index(project):
    (project / ".codegraph" / "codegraph.db").write_bytes(b"not a database at all" * 100)
    for stdin in ("{not json", json.dumps(_read(project, "pkg/big.py")), "[]", ""):
        result = subprocess.run(
            [HOOK, "pre-tool-use"], input=stdin, capture_output=True, text=True, timeout=20
        )
        assert (result.returncode, result.stdout) == (0, "")
    result = subprocess.run([HOOK, "no-such-event"], input="{}", capture_output=True, text=True, timeout=20)
    assert (result.returncode, result.stdout) == (0, "")


def test_a_new_session_prunes_counters_older_than_two_days(project, private_tmp):
    pre_tool_use.run(_read(project, "pkg/a.py", session="old"))
    (counter,) = private_tmp.glob("codegraph-hooks-*/*.reads")
    os.utime(counter, (1, 1))
    pre_tool_use.run(_read(project, "pkg/a.py", session="new"))
    assert not counter.exists()
    assert len(list(private_tmp.glob("codegraph-hooks-*/*.reads"))) == 1


def test_gemini_after_tool_read_file_gets_the_same_advice_under_its_own_event_name(project):
    """Gemini CLI's contract (issue 16): AfterTool on `read_file`, `file_path` relative to the cwd,
    `hookSpecificOutput.additionalContext` appended to the tool result."""
    payload = {
        "session_id": "g1",
        "cwd": str(project),
        "hook_event_name": "AfterTool",
        "tool_name": "read_file",
        "tool_input": {"file_path": "pkg/big.py"},
        "tool_response": {"llmContent": "..."},
    }
    out = pre_tool_use.run(payload)["hookSpecificOutput"]
    assert out["hookEventName"] == "AfterTool" and "codegraph_explore" in out["additionalContext"]
    assert pre_tool_use.run({**payload, "tool_name": "grep_search", "tool_input": {"pattern": "x"}}) is None
