"""``codegraph serve --mcp`` with the real dispatch on real indexes built by ``codegraph init``:
a 3,000-file project, a project without an index, and concurrent calls from several proxies while
the index is rebuilt (issue 4)."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.mcp.helpers import CODEGRAPH


def _write_modules(root, count: int) -> None:
    """``count`` Python modules in packages of 100; each calls a helper of another module."""
    for i in range(count):
        package = root / f"pkg{i // 100}"
        package.mkdir(parents=True, exist_ok=True)
        j = (i * 7 + 3) % count
        (package / f"mod{i}.py").write_text(
            f"from pkg{j // 100}.mod{j} import helper_{j}\n\n\n"
            f"def helper_{i}(x):\n    return x + {i}\n\n\n"
            f"class Service{i}:\n    def run(self, x):\n        return helper_{j}(helper_{i}(x))\n"
        )


def _init(root, env) -> None:
    done = subprocess.run(
        [CODEGRAPH, "init", str(root)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture
def real_env(runtime) -> dict[str, str]:
    """Environment for a server that uses the real dispatch."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "CODEGRAPH_RUNTIME_DIR": str(runtime),
        "CODEGRAPH_DAEMON_IDLE": "60",
        "CODEGRAPH_MCP_TOOLS": "explore,callers,status",
    }


@pytest.fixture
def stop_daemons(runtime):
    yield
    from codegraph.mcp import service

    service.stop()


async def _session(cwd, env, body):
    params = StdioServerParameters(command=CODEGRAPH, args=["serve", "--mcp"], env=env, cwd=str(cwd))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                with anyio.fail_after(60):
                    return await body(session)


def _text(result) -> str:
    return "".join(c.text for c in result.content if c.type == "text")


def test_tools_are_listed_and_answered_on_a_3000_file_index(tmp_path, real_env, stop_daemons):
    root = tmp_path / "big"
    _write_modules(root, 3000)
    _init(root, real_env)

    async def body(session):
        began = time.monotonic()
        names = [t.name for t in (await session.list_tools()).tools]
        listed_in = time.monotonic() - began
        callers = await session.call_tool("codegraph_callers", {"symbol": "helper_10"})
        explore = await session.call_tool("codegraph_explore", {"query": "what does Service10.run call"})
        return names, listed_in, callers, explore

    names, listed_in, callers, explore = anyio.run(_session, root, real_env, body)
    assert names == ["codegraph_explore", "codegraph_callers", "codegraph_status"]
    assert listed_in < 1.0
    assert not callers.is_error and "Service10" in _text(callers)
    assert not explore.is_error and "helper_10" in _text(explore)


def test_a_project_without_an_index_gets_a_fast_helpful_answer(tmp_path, real_env, stop_daemons):
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "app.py").write_text("def main():\n    pass\n")

    async def body(session):
        began = time.monotonic()
        result = await session.call_tool("codegraph_explore", {"query": "where is main"})
        return result, time.monotonic() - began

    result, took = anyio.run(_session, plain, real_env, body)
    assert not result.is_error
    assert "codegraph init" in _text(result)
    assert took < 5


def test_eight_concurrent_calls_from_several_proxies_succeed_while_the_index_is_rebuilt(
    tmp_path, real_env, stop_daemons
):
    root = tmp_path / "busy"
    _write_modules(root, 400)
    _init(root, real_env)
    stop = threading.Event()
    rebuilds = []

    def rebuild():
        while not stop.is_set():
            done = subprocess.run(
                [CODEGRAPH, "index", str(root)], env=real_env, capture_output=True, timeout=120
            )
            rebuilds.append(done.returncode)

    writer = threading.Thread(target=rebuild)
    writer.start()
    results = []
    try:

        async def one_call(session, tool, arguments):
            results.append(await session.call_tool(tool, arguments))

        async def two_calls(session, k):
            # Two calls in flight per proxy, four proxies: eight concurrent calls, three times over.
            for n in range(3):
                symbol = f"helper_{(k * 13 + n) % 400}"
                async with anyio.create_task_group() as tg:
                    tg.start_soon(one_call, session, "codegraph_callers", {"symbol": symbol})
                    tg.start_soon(one_call, session, "codegraph_explore", {"query": f"what calls {symbol}"})

        async def proxies():
            async with anyio.create_task_group() as tg:
                for k in range(4):
                    tg.start_soon(lambda k=k: _session(root, real_env, lambda s: two_calls(s, k)))

        anyio.run(proxies)
    finally:
        stop.set()
        writer.join(120)
    assert rebuilds and all(code == 0 for code in rebuilds)
    assert len(results) == 24
    for result in results:
        text = _text(result)
        assert not result.is_error, text
        assert "locked" not in text and "internal error" not in text


def test_after_the_daemon_is_killed_the_same_session_keeps_answering_from_the_index(
    tmp_path, real_env, stop_daemons
):
    import signal

    from codegraph.mcp import daemon
    from codegraph.paths import ProjectPaths

    root = tmp_path / "small"
    _write_modules(root, 30)
    _init(root, real_env)

    async def body(session):
        before = await session.call_tool("codegraph_callers", {"symbol": "helper_3"})
        pid = daemon.read_pid(ProjectPaths(root))
        os.kill(pid, signal.SIGKILL)
        await anyio.sleep(0.2)
        after = await session.call_tool("codegraph_callers", {"symbol": "helper_3"})
        return before, after, pid

    before, after, pid = anyio.run(_session, root, real_env, body)
    assert pid and not before.is_error and not after.is_error
    assert _text(before) == _text(after) and "Service3" in _text(after)


def test_the_daemon_syncs_an_edit_made_while_it_serves(tmp_path, real_env, stop_daemons):
    root = tmp_path / "live"
    _write_modules(root, 20)
    _init(root, real_env)
    env = {**real_env, "CODEGRAPH_WATCH_DEBOUNCE_MS": "200"}

    async def body(session):
        before = _text(await session.call_tool("codegraph_callers", {"symbol": "helper_5"}))
        (root / "pkg0" / "late.py").write_text(
            "from pkg0.mod5 import helper_5\n\n\ndef newcomer():\n    return helper_5(1)\n"
        )
        for _ in range(100):  # up to 10 s: debounce, then an incremental sync
            await anyio.sleep(0.1)
            after = _text(await session.call_tool("codegraph_callers", {"symbol": "helper_5"}))
            if "newcomer" in after:
                return before, after
        return before, after

    before, after = anyio.run(_session, root, env, body)
    assert "newcomer" not in before
    assert "newcomer" in after
