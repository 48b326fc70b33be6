"""Hostile JSON-RPC input to a real `codegraph serve --mcp`: every bad line gets an error response,
the server keeps serving, and stdout stays strict JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture
from tests.mcp.conftest import _kill_daemons


def strict(line: str) -> dict:
    def refuse(name):
        raise ValueError(f"non-strict JSON constant {name}")

    return json.loads(line, parse_constant=refuse)


def session(root, lines: list[str], env_extra: dict) -> list[dict]:
    env = {**os.environ, "CODEGRAPH_MCP_TOOLS": "all", **env_extra}
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t"}},
    }
    payload = (
        "\n".join(
            [
                json.dumps(init),
                *lines,
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": "last",
                        "method": "tools/call",
                        "params": {"name": "codegraph_status", "arguments": {}},
                    }
                ),
            ]
        )
        + "\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", "serve", "--mcp", "--path", str(root)],
        input=payload,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return [strict(line) for line in proc.stdout.splitlines()]


def test_bad_ids_deep_nesting_and_non_finite_numbers_get_errors_and_the_server_keeps_serving(
    tmp_path, runtime
):
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    deep = "[" * 5000 + "]" * 5000
    call = '"method":"tools/call","params":{"name":"codegraph_status","arguments":{}}'
    bad = [
        '{"jsonrpc":"2.0","id":[1],' + call + "}",
        '{"jsonrpc":"2.0","id":{"a":1},' + call + "}",
        '{"jsonrpc":"2.0","id":true,' + call + "}",
        '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":' + deep + "}}",
        '{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1e999,"method":"ping"}',
    ]
    same_value_ids = [
        '{"jsonrpc":"2.0","id":5,' + call + "}",
        '{"jsonrpc":"2.0","id":5.0,' + call + "}",
    ]
    try:
        for env in ({}, {"CODEGRAPH_NO_DAEMON": "1"}):
            replies = session(root, bad + same_value_ids, env)
            errors = [r for r in replies if "error" in r]
            assert len(errors) == len(bad), replies
            assert {r["error"]["code"] for r in errors} <= {-32600, -32700}
            ids = [r["id"] for r in replies if "result" in r]
            assert sorted(map(repr, ids)) == ["'last'", "0", "5", "5.0"]  # 5 and 5.0 each answered once
    finally:
        _kill_daemons(runtime, [root.resolve()])
