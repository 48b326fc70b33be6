"""The handshake proxy's routing, in-process: queueing while the daemon starts, fallbacks, bounds.

The daemon here runs in a thread of the test process (same code as the detached one); the subprocess
tests in test_stdio_server.py cover the real spawn path.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import threading
import time

import pytest

from codegraph.mcp import daemon, protocol, proxy, wire
from codegraph.paths import ProjectPaths


def _handler(where, delay=0.0):
    def handle(name, arguments, *, default_root=None):
        if delay:
            time.sleep(delay)
        data = {"where": where, "tool": name, "arguments": arguments, "root": str(default_root)}
        # the transport forwards whatever a handler returns; this one tags it with where it ran
        return {**protocol.text_result(f"{name} from {where}", is_error=False), "structuredContent": data}

    return handle


class Session:
    """A proxy running in a thread, fed through a pipe; answers collected from its writes."""

    def __init__(self, root, *, env=None, spawn=None, handler=None):
        r, w = os.pipe()
        self._stdin = os.fdopen(w, "wb", buffering=0)
        self.answers: queue.Queue[dict] = queue.Queue()
        self.exit_codes: list[int] = []
        env = {"CODEGRAPH_DAEMON_START_TIMEOUT": "5", **(env or {})}
        self.proxy = proxy.Proxy(
            root,
            os.fdopen(r, "rb"),
            lambda data: self.answers.put(json.loads(data)),
            env=env,
            handler=handler or _handler("in-process"),
            terminate=self.exit_codes.append,
            spawn=spawn or (lambda _root: pytest.fail("no daemon should be spawned")),
        )
        self.thread = threading.Thread(target=self.proxy.run, daemon=True)
        self.thread.start()
        self.next_id = 1

    def send(self, method, params=None) -> int:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self._stdin.write((json.dumps(message) + "\n").encode())
        return self.next_id

    def call(self, query, tool="codegraph_explore") -> int:
        return self.send("tools/call", {"name": tool, "arguments": {"query": query}})

    def receive(self, count, timeout=5.0) -> list[dict]:
        got = []
        deadline = time.monotonic() + timeout
        while len(got) < count:
            got.append(self.answers.get(timeout=max(deadline - time.monotonic(), 0.01)))
        return got

    def close(self):
        self._stdin.close()
        self.thread.join(5)
        self.proxy.close()
        self.proxy.inp.close()


@pytest.fixture
def thread_daemon(project):
    """Start (on demand) a daemon for ``project`` in a thread; stop it at teardown."""
    started = []

    def start(handler=None, delay=0.0, root=None):
        def run():
            time.sleep(delay)
            d = daemon.Daemon(root or project, handler=handler or _handler("daemon"), idle=0)
            started.append(d)
            d.serve()

        threading.Thread(target=run, daemon=True).start()

    yield start
    for d in started:
        d.stop()
    time.sleep(0.6)


def test_calls_made_while_the_daemon_starts_are_queued_and_sent_to_it_in_order(project, monkeypatch):
    # The daemon answers concurrently (answers may come back in any order, matched by id), so the
    # order is checked where the daemon reads the requests.
    received = []
    original = daemon.Daemon._dispatch

    def recording(self, message, reply):
        received.append(message.get("id"))
        original(self, message, reply)

    monkeypatch.setattr(daemon.Daemon, "_dispatch", recording)
    started = []
    threads = []

    def spawn(_root):
        def run():
            time.sleep(0.4)
            started.append(daemon.Daemon(project, handler=_handler("daemon"), idle=0))
            started[-1].serve()

        threads.append(threading.Thread(target=run, daemon=True))
        threads[-1].start()

    s = Session(project, spawn=spawn)
    s.send("initialize", {"protocolVersion": "2025-11-25"})
    ids = [s.call(f"q{i}") for i in range(5)]
    answers = [a for a in s.receive(6) if a["id"] in ids]
    assert sorted(a["id"] for a in answers) == ids
    assert {a["result"]["structuredContent"]["where"] for a in answers} == {"daemon"}
    assert received == ids
    s.close()
    started[0].stop()
    threads[0].join(5)


def test_calls_over_the_queue_bound_get_a_clear_busy_answer(project, thread_daemon, monkeypatch):
    monkeypatch.setattr(proxy, "PENDING_MAX_CALLS", 2)
    s = Session(project, spawn=lambda _root: thread_daemon(delay=1.0))
    s.send("initialize", {})
    first, second, third = s.call("a"), s.call("b"), s.call("c")
    answers = {a["id"]: a for a in s.receive(4)}
    assert answers[third]["result"]["isError"] is True
    assert "busy" in answers[third]["result"]["content"][0]["text"]
    assert answers[first]["result"]["structuredContent"]["where"] == "daemon"
    assert answers[second]["result"]["structuredContent"]["where"] == "daemon"
    s.close()


def test_when_no_daemon_starts_queued_calls_are_answered_in_process(project):
    s = Session(project, env={"CODEGRAPH_DAEMON_START_TIMEOUT": "0.3"}, spawn=lambda _root: None)
    s.send("initialize", {})
    ids = [s.call("x"), s.call("y")]
    answers = [a for a in s.receive(3) if a["id"] in ids]
    assert [a["id"] for a in answers] == ids
    assert {a["result"]["structuredContent"]["where"] for a in answers} == {"in-process"}
    s.close()


def test_no_daemon_env_forces_in_process_answers(project):
    s = Session(project, env={"CODEGRAPH_NO_DAEMON": "1"})
    call = s.call("x")
    (answer,) = s.receive(1)
    assert answer["id"] == call and answer["result"]["structuredContent"]["where"] == "in-process"
    assert s.proxy.state == proxy.LOCAL
    s.close()


def test_a_project_without_an_index_is_answered_in_process_and_starts_no_daemon(no_index_dir):
    s = Session(no_index_dir)
    s.send("initialize", {})
    s.call("anything")
    answer = s.receive(2)[1]
    assert answer["result"]["structuredContent"]["root"] == str(no_index_dir)
    assert not ProjectPaths(no_index_dir).daemon_pid.exists()
    s.close()


def test_calls_to_tools_the_client_did_not_enable_are_answered_in_process(project, thread_daemon):
    s = Session(project, spawn=lambda _root: thread_daemon())
    s.send("initialize", {})
    s.receive(1)
    s.call("x")  # explore: enabled, goes to the daemon
    node = s.send("tools/call", {"name": "codegraph_node", "arguments": {"symbol": "main"}})
    answers = {a["id"]: a for a in s.receive(2)}
    assert answers[node]["result"]["structuredContent"]["where"] == "in-process"
    s.close()


def _fake_daemon(path, hello_reply, *, drop_after_request=False):
    """A socket server that answers the hello with ``hello_reply`` and, optionally, closes the
    connection as soon as a request arrives (a daemon dying mid-call)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(os.fspath(path))
    listener.listen(4)
    seen = []

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            reader = conn.makefile("rb")
            reader.readline()
            wire.send(conn, hello_reply)
            if drop_after_request:
                seen.append(reader.readline())
            else:
                reader.read()
            reader.close()  # a makefile() keeps the socket open until it is closed too
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener, seen


def test_a_daemon_of_another_version_is_never_used(project):
    paths = ProjectPaths(project)
    listener, _ = _fake_daemon(paths.daemon_socket, {**wire.hello(pid=999_999_999), "version": "0.0.0-other"})
    try:
        s = Session(project, spawn=lambda _root: None, env={"CODEGRAPH_DAEMON_START_TIMEOUT": "0.3"})
        s.send("initialize", {})
        s.call("x")
        answer = s.receive(2)[1]
        assert answer["result"]["structuredContent"]["where"] == "in-process"
        s.close()
    finally:
        listener.close()


def test_calls_in_flight_when_the_daemon_connection_drops_are_answered_in_process(project):
    paths = ProjectPaths(project)
    listener, seen = _fake_daemon(paths.daemon_socket, wire.hello(pid=1), drop_after_request=True)
    try:
        s = Session(project)
        s.send("initialize", {})
        s.send("tools/list")
        s.receive(2)
        assert wire.wait_until(lambda: s.proxy.state == proxy.DAEMON, 3)
        call = s.call("x")
        (answer,) = s.receive(1)
        assert seen, "the call reached the daemon before it died"
        assert answer["id"] == call and answer["result"]["structuredContent"]["where"] == "in-process"
        s.close()
    finally:
        listener.close()


def test_closing_stdin_still_answers_the_call_in_flight(project):
    s = Session(project, env={"CODEGRAPH_NO_DAEMON": "1"}, handler=_handler("in-process", delay=0.3))
    call = s.call("x")
    s.close()
    (answer,) = s.receive(1, timeout=0.5)
    assert answer["id"] == call


def test_malformed_lines_get_parse_errors_and_the_session_continues(project):
    s = Session(project, env={"CODEGRAPH_NO_DAEMON": "1"})
    s._stdin.write(b"this is not json\n[1,2]\n\n")
    ping = s.send("ping")
    first, second, third = s.receive(3)
    assert first["error"]["code"] == protocol.PARSE_ERROR
    assert second["error"]["code"] == protocol.INVALID_REQUEST
    assert third == {"jsonrpc": "2.0", "id": ping, "result": {}}
    s.close()


def test_a_handler_exception_becomes_an_error_result_not_a_hang(project):
    def broken(name, arguments, *, default_root=None):
        raise RuntimeError("boom")

    s = Session(project, env={"CODEGRAPH_NO_DAEMON": "1"}, handler=broken)
    s.call("x")
    (answer,) = s.receive(1)
    assert answer["result"]["isError"] is True and "boom" in answer["result"]["content"][0]["text"]
    s.close()


def test_a_daemon_call_unanswered_past_the_call_timeout_gets_an_error_result(project, thread_daemon):
    s = Session(
        project,
        env={"CODEGRAPH_MCP_CALL_TIMEOUT": "0.5"},
        spawn=lambda _root: thread_daemon(handler=_handler("daemon", delay=3)),
    )
    s.send("initialize", {})
    call = s.call("slow")
    answer = s.receive(2, timeout=3)[1]
    assert answer["id"] == call and answer["result"]["isError"] is True
    assert "did not answer" in answer["result"]["content"][0]["text"]
    s.close()


def test_a_session_started_before_the_index_existed_moves_to_the_daemon_once_it_does(
    no_index_dir, thread_daemon
):
    s = Session(no_index_dir, spawn=lambda _root: thread_daemon(root=no_index_dir))
    s.send("initialize", {})
    s.call("before")
    before = s.receive(2)[1]
    (no_index_dir / ".codegraph").mkdir()
    (no_index_dir / ".codegraph" / "codegraph.db").write_bytes(b"")
    s.call("after")
    (after,) = s.receive(1)
    assert before["result"]["structuredContent"]["where"] == "in-process"
    assert after["result"]["structuredContent"]["where"] == "daemon"
    s.close()
