#!/usr/bin/env python3
"""Summarise one Claude Code run recorded with ``claude -p --output-format stream-json --verbose``.

Prints tool calls by name, Reads, codegraph calls, tools exposed, hooks fired, permission denials,
turns, duration, tokens and cost — as text, or one JSON object with ``--json``. Standard library only,
so it runs anywhere the stream was recorded.

Usage: parse_run.py RUN.jsonl [RUN2.jsonl ...] [--json]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

CODEGRAPH_PREFIX = "mcp__codegraph__"


def parse(lines) -> dict:
    """The summary of one stream (an iterable of JSON lines; blank and non-JSON lines are skipped)."""
    tools: Counter[str] = Counter()
    hooks: Counter[str] = Counter()
    summary: dict = {
        "tool_calls": {},
        "tool_calls_total": 0,
        "reads": 0,
        "codegraph_calls": 0,
        "tools_exposed": 0,
        "codegraph_tools_exposed": [],
        "mcp_servers": {},
        "hooks_fired": {},
        "tool_errors": 0,
        "permission_denials": 0,
        "turns": None,
        "duration_ms": None,
        "input_tokens": 0,
        "output_tokens": 0,
        "cache_read_tokens": 0,
        "cache_creation_tokens": 0,
        "cost_usd": None,
        "result": None,
        "is_error": None,
    }
    for raw in lines:
        raw = raw.strip()
        if not raw:
            continue
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        kind, sub = event.get("type"), event.get("subtype")
        if kind == "system" and sub == "init":
            exposed = event.get("tools") or []
            summary["tools_exposed"] = len(exposed)
            summary["codegraph_tools_exposed"] = [t for t in exposed if t.startswith(CODEGRAPH_PREFIX)]
            summary["mcp_servers"] = {s.get("name"): s.get("status") for s in event.get("mcp_servers") or []}
        elif kind == "system" and sub == "hook_response":
            hooks[event.get("hook_event") or event.get("hook_name") or "?"] += 1
        elif kind == "assistant":
            for block in (event.get("message") or {}).get("content") or []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    tools[block.get("name", "?")] += 1
        elif kind == "user":
            for block in (event.get("message") or {}).get("content") or []:
                if isinstance(block, dict) and block.get("type") == "tool_result" and block.get("is_error"):
                    summary["tool_errors"] += 1
        elif kind == "result":
            usage = event.get("usage") or {}
            summary.update(
                turns=event.get("num_turns"),
                duration_ms=event.get("duration_ms"),
                input_tokens=usage.get("input_tokens", 0),
                output_tokens=usage.get("output_tokens", 0),
                cache_read_tokens=usage.get("cache_read_input_tokens", 0),
                cache_creation_tokens=usage.get("cache_creation_input_tokens", 0),
                cost_usd=event.get("total_cost_usd"),
                permission_denials=len(event.get("permission_denials") or []),
                result=event.get("result"),
                is_error=event.get("is_error"),
            )
    summary["tool_calls"] = dict(tools.most_common())
    summary["tool_calls_total"] = sum(tools.values())
    summary["reads"] = tools.get("Read", 0)
    summary["codegraph_calls"] = sum(n for name, n in tools.items() if name.startswith(CODEGRAPH_PREFIX))
    summary["hooks_fired"] = dict(hooks)
    return summary


def render(name: str, s: dict) -> str:
    calls = ", ".join(f"{k}×{v}" for k, v in s["tool_calls"].items()) or "none"
    exposed = ", ".join(s["codegraph_tools_exposed"]) or "none"
    tokens = f"in {s['input_tokens']} / out {s['output_tokens']} / cache read {s['cache_read_tokens']}"
    return "\n".join(
        [
            f"{name}:",
            f"  tool calls   {s['tool_calls_total']} ({calls})",
            f"  reads        {s['reads']}    codegraph calls {s['codegraph_calls']}",
            f"  exposed      {s['tools_exposed']} tools, codegraph: {exposed}",
            f"  hooks fired  {s['hooks_fired'] or 'none'}    denials {s['permission_denials']}    "
            f"errors {s['tool_errors']}",
            f"  turns        {s['turns']}    duration {s['duration_ms']} ms    cost ${s['cost_usd']}",
            f"  tokens       {tokens}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    as_json = "--json" in args
    files = [a for a in args if a != "--json"]
    if not files:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    results = {}
    for name in files:
        with open(name, encoding="utf-8") as handle:
            results[name] = parse(handle)
    if as_json:
        print(json.dumps(results if len(results) > 1 else results[files[0]], indent=2))
    else:
        print("\n".join(render(Path(n).name, s) for n, s in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
