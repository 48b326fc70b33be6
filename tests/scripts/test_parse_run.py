"""scripts/agent-eval/parse_run.py on a stream recorded from a real offline Claude Code run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "agent-eval" / "parse_run.py"
STREAM = REPO / "tests" / "installer" / "data" / "claude-stream-read-then-explore.jsonl"


def test_parse_run_counts_reads_codegraph_calls_hooks_turns_tokens_and_cost():
    out = subprocess.run(
        [sys.executable, SCRIPT, STREAM, "--json"], capture_output=True, text=True, check=True
    )
    summary = json.loads(out.stdout)
    assert summary["tool_calls"] == {"Read": 1, "mcp__codegraph__codegraph_explore": 1}
    assert (summary["reads"], summary["codegraph_calls"], summary["tool_calls_total"]) == (1, 1, 2)
    assert summary["codegraph_tools_exposed"] == ["mcp__codegraph__codegraph_explore"]
    assert summary["tools_exposed"] == 25
    assert summary["hooks_fired"] == {"SessionStart": 1}
    assert (summary["turns"], summary["duration_ms"], summary["cost_usd"]) == (3, 255, 0.003)
    assert (summary["input_tokens"], summary["output_tokens"], summary["permission_denials"]) == (300, 60, 0)


def test_parse_run_text_output_names_the_file_and_skips_garbage_lines(tmp_path):
    noisy = tmp_path / "run.jsonl"
    noisy.write_text("not json\n\n" + STREAM.read_text())
    out = subprocess.run([sys.executable, SCRIPT, noisy], capture_output=True, text=True, check=True).stdout
    assert out.startswith("run.jsonl:")
    assert "reads        1    codegraph calls 1" in out
