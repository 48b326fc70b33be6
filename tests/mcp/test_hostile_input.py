"""Hostile JSON-RPC input to a real `codegraph serve --mcp`: every bad line gets an error response,
the server keeps serving, and stdout stays strict JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from tests.conftest import copy_fixture
from tests.mcp.conftest import _kill_daemons


def strict(line: str) -> dict:
    def refuse(name):
        raise ValueError(f"non-strict JSON constant {name}")

    return json.loads(line, parse_constant=refuse)


def session(root, lines: list[str], env_extra: dict) -> list[dict]:
    # the calls in flight at stdin's EOF get their replies for up to CODEGRAPH_MCP_EOF_GRACE seconds
    # (1.5 by default); a daemon started on a loaded 2-core machine can need more than that
    env = {**os.environ, "CODEGRAPH_MCP_TOOLS": "all", "CODEGRAPH_MCP_EOF_GRACE": "20", **env_extra}
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


def test_json_that_is_not_an_object_gets_an_invalid_request_error(tmp_path, runtime):
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    try:
        replies = session(root, ["null", "3", '"ping"', "true"], {"CODEGRAPH_NO_DAEMON": "1"})
    finally:
        _kill_daemons(runtime, [root.resolve()])
    errors = [r for r in replies if "error" in r]
    assert [(r["id"], r["error"]["code"]) for r in errors] == [(None, -32600)] * 4, replies
    assert replies[-1]["id"] == "last" and "result" in replies[-1]


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_an_over_long_line_is_refused_without_being_buffered_and_the_server_keeps_serving(tmp_path, runtime):
    """A 64 MiB line (the cap is 4 MiB) is read in bounded chunks and answered with an error; the
    proxy's peak memory stays far below the line's size; the next request is answered."""
    root = tmp_path / "plain"
    root.mkdir()
    env = {**os.environ, "CODEGRAPH_NO_DAEMON": "1"}
    with subprocess.Popen(
        [sys.executable, "-m", "codegraph", "serve", "--mcp", "--path", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    ) as proc:
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"')
        chunk = b"x" * (1 << 20)
        for _ in range(64):
            proc.stdin.write(chunk)
        proc.stdin.write(b'"}}\n{"jsonrpc":"2.0","id":"after","method":"ping"}\n')
        proc.stdin.flush()
        first, second = strict(proc.stdout.readline().decode()), strict(proc.stdout.readline().decode())
        peak = _peak_rss_mb(proc.pid)
        proc.stdin.close()
        stderr = proc.stderr.read()
    assert first["id"] is None and first["error"]["code"] == -32600
    assert "4 MiB" in first["error"]["message"]
    assert second == {"jsonrpc": "2.0", "id": "after", "result": {}}
    assert peak < 48, f"peak RSS {peak:.0f} MB while reading a 64 MiB line"
    assert b"Traceback" not in stderr


def test_two_calls_under_one_id_each_get_a_reply(tmp_path, runtime):
    # adversarial pass 2026-12-01: through the daemon, the second call with id 7 overwrote the first in
    # the in-flight table and one of the two replies was dropped in silence.
    root = copy_fixture("python", tmp_path)
    index_project(ProjectPaths(root.resolve()), workers=1)
    call = '"method":"tools/call","params":{"name":"codegraph_callers","arguments":{"symbol":"add_q"}}'
    try:
        for env in ({}, {"CODEGRAPH_NO_DAEMON": "1"}):
            replies = session(root, ['{"jsonrpc":"2.0","id":7,' + call + "}"] * 2, env)
            sevens = [r for r in replies if r.get("id") == 7]
            assert len(sevens) == 2, (env, replies)
            assert any("result" in r for r in sevens)
            for r in sevens:
                assert "result" in r or r["error"] == {
                    "code": -32600,
                    "message": "Invalid request: id 7 is already used by a call in flight",
                }
    finally:
        _kill_daemons(runtime, [root.resolve()])
