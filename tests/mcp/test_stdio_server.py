"""A real ``codegraph serve --mcp`` subprocess driven by the ``mcp`` SDK's stdio client and by raw
pipes: tool listing, calls through the daemon, the fallbacks, and the process lifecycle (issue 4).

Tool calls here go to the fake handler (tests/mcp/fake_handler.py), so these tests pin the transport;
test_end_to_end.py runs the real dispatch on a real index.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from codegraph.mcp import daemon, wire
from codegraph.paths import ProjectPaths
from tests.mcp.helpers import CODEGRAPH

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}


def _sdk(cwd, env, body):
    """Run ``await body(session)`` in an SDK client session against a fresh server process."""

    async def main():
        params = StdioServerParameters(command=CODEGRAPH, args=["serve", "--mcp"], env=env, cwd=str(cwd))
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    with anyio.fail_after(30):
                        return await body(session)

    return anyio.run(main)


def _structured(result) -> dict:
    assert not result.is_error, result
    return result.structured_content


def _spawn(cwd, env):
    return subprocess.Popen(
        [CODEGRAPH, "serve", "--mcp"],
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )


def _read_lines(proc, count, timeout=10.0) -> list[bytes]:
    lines, buf = [], b""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while len(lines) < count and sel.select(max(deadline - time.monotonic(), 0)):
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        buf += chunk
        *done, buf = buf.split(b"\n")
        lines.extend(done)
    sel.close()
    return lines


def _send(proc, *messages):
    for m in messages:
        proc.stdin.write((m if isinstance(m, bytes) else json.dumps(m).encode()) + b"\n")
    proc.stdin.flush()


def _finish(proc):
    if proc.stdin and not proc.stdin.closed:
        proc.stdin.close()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.stdout.close()


def test_the_sdk_client_lists_tools_when_no_index_exists(no_index_dir, server_env):
    async def body(session):
        return [t.name for t in (await session.list_tools()).tools]

    assert _sdk(no_index_dir, server_env, body) == ["codegraph_explore"]
    assert not ProjectPaths(no_index_dir).dir.exists()  # nothing started, nothing written


def test_the_sdk_client_lists_the_tools_chosen_by_codegraph_mcp_tools(no_index_dir, server_env):
    async def body(session):
        return [t.name for t in (await session.list_tools()).tools]

    env = {**server_env, "CODEGRAPH_MCP_TOOLS": "explore,node"}
    assert _sdk(no_index_dir, env, body) == ["codegraph_explore", "codegraph_node"]


def test_a_call_made_before_the_daemon_is_ready_is_answered_by_the_daemon(project, server_env):
    async def body(session):
        return _structured(await session.call_tool("codegraph_explore", {"query": "first"}))

    got = _sdk(project, server_env, body)
    assert got["where"] == "daemon" and got["root"] == str(project)
    assert got["pid"] == daemon.read_pid(ProjectPaths(project))


def test_killing_the_daemon_mid_call_still_yields_an_answer(project, server_env):
    async def body(session):
        first = _structured(await session.call_tool("codegraph_explore", {"query": "warm up"}))
        async with anyio.create_task_group() as tg:
            answers = []

            async def slow():
                answers.append(await session.call_tool("codegraph_explore", {"query": "sleep:20"}))

            tg.start_soon(slow)
            await anyio.sleep(0.5)
            os.kill(first["pid"], signal.SIGKILL)
        after = _structured(await session.call_tool("codegraph_explore", {"query": "after"}))
        return first, _structured(answers[0]), after

    first, interrupted, after = _sdk(project, server_env, body)
    assert first["where"] == "daemon"
    assert interrupted["where"] == "in-process" and interrupted["arguments"] == {"query": "sleep:20"}
    assert after["where"] == "in-process"


def test_a_second_proxy_reuses_the_daemon_the_first_one_started(project, server_env):
    async def body(session):
        return _structured(await session.call_tool("codegraph_explore", {"query": "who"}))["pid"]

    first = _sdk(project, server_env, body)
    second = _sdk(project, server_env, body)
    assert first == second and wire.pid_alive(first)


def test_no_daemon_env_answers_every_call_in_process(project, server_env):
    async def body(session):
        return _structured(await session.call_tool("codegraph_explore", {"query": "x"}))

    got = _sdk(project, {**server_env, "CODEGRAPH_NO_DAEMON": "1"}, body)
    assert got["where"] == "in-process"
    assert not ProjectPaths(project).daemon_pid.exists()


def test_closing_stdin_ends_the_proxy_within_two_seconds(project, server_env):
    proc = _spawn(project, server_env)
    _send(proc, INIT, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert len(_read_lines(proc, 2)) == 2
    proc.stdin.close()
    began = time.monotonic()
    proc.wait(2)
    assert time.monotonic() - began < 2
    _finish(proc)


def test_sigint_and_sigterm_end_the_proxy_at_once(no_index_dir, server_env):
    for sig in (signal.SIGINT, signal.SIGTERM):
        proc = _spawn(no_index_dir, server_env)
        _send(proc, INIT)
        assert _read_lines(proc, 1)
        proc.send_signal(sig)
        proc.wait(2)
        _finish(proc)


def test_the_startup_watchdog_ends_a_proxy_that_never_receives_a_byte(no_index_dir, server_env):
    proc = _spawn(no_index_dir, {**server_env, "CODEGRAPH_MCP_STARTUP_TIMEOUT": "0.5"})
    try:
        ended = proc.wait(3) is not None
    except subprocess.TimeoutExpired:
        ended = False
    out = proc.stdout.read() if ended else b""
    _finish(proc)
    assert ended, "the proxy was still running 3 s after a 0.5 s startup timeout"
    assert out == b"", "nothing may be written to stdout before a request"


def test_the_proxy_exits_when_its_parent_dies_even_with_stdin_open(no_index_dir, server_env):
    # sh starts the proxy in the background and exits: the proxy is orphaned while its stdin (a pipe
    # this test holds open) never reaches EOF.
    script = f"{CODEGRAPH} serve --mcp >/dev/null 2>&1 & echo $!; sleep 0.6"
    env = {**server_env, "CODEGRAPH_MCP_STARTUP_TIMEOUT": "0"}
    sh = subprocess.Popen(
        ["sh", "-c", script], cwd=no_index_dir, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        pid = int(sh.stdout.readline())
        sh.wait(5)
        assert wire.wait_until(lambda: _gone(pid), 3)
    finally:
        sh.stdin.close()
        sh.stdout.close()


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1].startswith("Z")
    except OSError:
        return True


def test_stdout_carries_only_json_rpc_lines(project, server_env):
    proc = _spawn(project, server_env)
    call = {"jsonrpc": "2.0", "id": 4, "method": "tools/call"}
    _send(
        proc,
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        b"garbage that is not json",
        {**call, "params": {"name": "codegraph_explore", "arguments": {"query": "a"}}},
        {**call, "id": 5, "params": {"name": "codegraph_node", "arguments": {"symbol": "b"}}},
        {"jsonrpc": "2.0", "id": 6, "method": "ping"},
        {"jsonrpc": "2.0", "id": 7, "method": "no/such/method"},
    )
    lines = _read_lines(proc, 7)
    _finish(proc)
    messages = [json.loads(line) for line in lines]
    assert all(m["jsonrpc"] == "2.0" for m in messages)
    assert sorted(m["id"] for m in messages if m["id"] is not None) == [1, 2, 4, 5, 6, 7]


def test_the_handshake_imports_nothing_heavy(project, server_env):
    code = (
        "import sys; sys.argv = ['codegraph', 'serve', '--mcp']\n"
        "from codegraph.cli.main import main\nmain()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        cwd=project,
        env={**server_env, "CODEGRAPH_NO_DAEMON": "1"},
        input=(
            json.dumps(INIT) + "\n" + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + "\n"
        ).encode(),
        capture_output=True,
        timeout=30,
    )
    assert len(proc.stdout.splitlines()) == 2
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}
    heavy = {"tree_sitter", "tree_sitter_language_pack", "mcp", "mcp_types", "pydantic", "anyio", "sqlite3"}
    heavy |= {"codegraph.index", "codegraph.store", "codegraph.query", "codegraph.mcp.dispatch"}
    assert not imported & heavy
    assert "codegraph.mcp.protocol" in imported


def test_a_daemon_of_an_older_version_is_replaced_by_one_of_this_version(project, server_env):
    old = (
        "import sys, codegraph; codegraph.__version__ = '0.0.1-old'\n"
        "from codegraph.mcp.daemon import main; sys.exit(main(sys.argv[1:]))\n"
    )
    launcher = [sys.executable, "-c", old, "--detach", str(project)]
    assert subprocess.run(launcher, env=server_env, timeout=10).returncode == 0
    paths = ProjectPaths(project)
    assert wire.wait_until(lambda: paths.daemon_socket.exists(), 10)
    older = daemon.read_pid(paths)

    async def body(session):
        return _structured(await session.call_tool("codegraph_explore", {"query": "x"}))

    got = _sdk(project, server_env, body)
    assert got["where"] == "daemon" and got["pid"] != older
    assert not wire.pid_alive(older)


def test_serve_path_option_serves_that_project_from_any_working_directory(project, no_index_dir, server_env):
    async def body(session):
        return _structured(await session.call_tool("codegraph_explore", {"query": "x"}))

    async def main():
        params = StdioServerParameters(
            command=CODEGRAPH,
            args=["serve", "--mcp", "--path", str(project)],
            env=server_env,
            cwd=str(no_index_dir),
        )
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await body(session)

    got = anyio.run(main)
    assert got["root"] == str(project) and got["where"] == "daemon"
