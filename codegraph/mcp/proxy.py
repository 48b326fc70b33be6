"""``codegraph serve --mcp``: the process an agent spawns.

It answers the handshake itself from static data (:mod:`codegraph.mcp.protocol`) and sends tool calls
to the project's shared daemon (:mod:`codegraph.mcp.daemon`), starting it when none runs. Calls that
arrive while the daemon connects wait in a bounded queue and go out in order; when the daemon cannot
start, speaks another version, or dies, calls are answered in this process instead, including the
ones the dead daemon had not answered. ``CODEGRAPH_NO_DAEMON=1`` forces in-process mode.

Lifecycle (issue 4): exits on stdin EOF (after answering what is in flight, at most
``EOF_GRACE`` seconds, or ``CODEGRAPH_MCP_EOF_GRACE``), on SIGINT/SIGTERM, when the parent process
dies, and when no byte arrives
within ``CODEGRAPH_MCP_STARTUP_TIMEOUT`` seconds (default 60; 0 disables).

A call the daemon has not answered within ``CODEGRAPH_MCP_CALL_TIMEOUT`` seconds (default 300; 0
disables) gets an error result, so a wedged daemon cannot hang the client.

Only the standard library is imported before the first tool call; stdout carries JSON-RPC lines only
(:func:`main` moves fd 1 to stderr so a stray print cannot corrupt the stream).

Environment: ``CODEGRAPH_NO_DAEMON``, ``CODEGRAPH_MCP_STARTUP_TIMEOUT``, ``CODEGRAPH_MCP_CALL_TIMEOUT``,
``CODEGRAPH_DAEMON_START_TIMEOUT`` (seconds to wait for a new daemon, default 10), ``CODEGRAPH_MCP_TOOLS``
(which tools are listed and callable); the daemon reads ``CODEGRAPH_DAEMON_IDLE``; both read
``CODEGRAPH_RUNTIME_DIR`` and ``CODEGRAPH_MCP_HANDLER`` (see :mod:`codegraph.mcp.wire`).
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path

from codegraph.errors import IndexMissing
from codegraph.mcp import protocol, tools
from codegraph.paths import ProjectPaths, find_root

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs ~3 ms of the handshake
if TYPE_CHECKING:  # wire (socket, importlib) loads in the background threads, after the handshake
    import socket
    from typing import BinaryIO

    from codegraph.mcp import wire

CONNECTING, DAEMON, LOCAL = "connecting", "daemon", "local"
PENDING_MAX_CALLS = 32
PENDING_MAX_BYTES = 1 << 20
EOF_GRACE = 1.5
DEFAULT_STARTUP_TIMEOUT = 60.0
DEFAULT_DAEMON_START_TIMEOUT = 10.0
DEFAULT_CALL_TIMEOUT = 300.0
_CONNECT_AFTER = ("tools/list", "tools/call")


def _env_float(env: Mapping[str, str], key: str, default: float) -> float:
    try:
        return float(env.get(key, "") or default)
    except ValueError:
        return default


def _log(message: str) -> None:
    try:
        sys.stderr.write(f"codegraph-mcp[{os.getpid()}]: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _key(msg_id: object) -> tuple[str, str]:
    """A dict key that keeps ids apart that Python would merge (1 and 1.0, 1 and True)."""
    return type(msg_id).__name__, repr(msg_id)


class Proxy:
    """One MCP session over ``inp`` (binary, line-oriented) and ``write`` (takes one encoded line).

    Args:
        start: ``--path`` or the working directory; the project root is the nearest index above it.
        env: the environment to read settings from (tool set, no-daemon, timeouts).
        handler: tool-call handler for in-process answers; default :func:`wire.resolve_handler`.
        terminate: called with an exit code when a signal, parent death or the startup watchdog ends
            the session; default ``os._exit``.
        spawn: starts a daemon for a root; default :func:`codegraph.mcp.daemon.spawn`.
    """

    def __init__(
        self,
        start: Path,
        inp: BinaryIO,
        write: Callable[[bytes], None],
        *,
        env: Mapping[str, str] | None = None,
        handler: wire.Handler | None = None,
        terminate: Callable[[int], None] | None = None,
        spawn: Callable[[Path], object] | None = None,
    ):
        self.env = dict(os.environ if env is None else env)
        self.inp = inp
        self._raw_write = write
        self._handler = handler
        self._terminate = terminate or os._exit
        self._spawn = spawn
        try:
            self.paths: ProjectPaths | None = find_root(start)
            self.root = self.paths.root
        except IndexMissing:
            self.paths = None  # no index: every call gets the handler's fast "not indexed" answer
            self.root = Path(start).resolve()
        self._no_daemon = self.env.get("CODEGRAPH_NO_DAEMON", "") in ("1", "true")
        self.state = CONNECTING if self.paths is not None and not self._no_daemon else LOCAL
        self.enabled = set(tools.enabled_tool_names(self.env))
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._pending: deque[tuple[dict, int]] = deque()
        self._pending_bytes = 0
        self._inflight: dict[object, dict] = {}
        self._sent_at: dict[object, float] = {}
        self._sock: socket.socket = None  # type: ignore[assignment]  # set whenever state == DAEMON
        self._local_q: queue.Queue[dict] = queue.Queue()
        self._local_thread: threading.Thread | None = None
        self._outstanding = 0
        self._idle = threading.Condition(self._lock)
        self._got_bytes = False
        self._connector: threading.Thread | None = None
        self.daemon_info: dict | None = None

    # -- output ----------------------------------------------------------------------------------
    def _write(self, message: dict) -> None:
        data = protocol.encode(message)
        with self._write_lock:
            try:
                self._raw_write(data)
            except (BrokenPipeError, OSError):
                self._terminate(0)  # the client is gone

    def _answered(self) -> None:
        with self._lock:
            self._outstanding -= 1
            self._idle.notify_all()

    # -- main loop -------------------------------------------------------------------------------
    def run(self) -> int:
        """Serve until stdin closes. Returns the exit code."""
        self._start_watchdog()
        while True:
            try:
                line = protocol.read_line(self.inp)
            except protocol.LineTooLong as exc:
                self._got_bytes = True
                self._write(protocol.error(None, protocol.INVALID_REQUEST, str(exc)))
                continue
            if not line:
                break
            self._got_bytes = True
            method = self.handle_line(line)
            if self._connector is None and self.state == CONNECTING and method in _CONNECT_AFTER:
                # Only once tools/list is answered (or a call arrives), so connecting to or starting
                # the daemon never competes with the handshake for the interpreter.
                self._connector = threading.Thread(
                    target=self._connect, name="codegraph-connect", daemon=True
                )
                self._connector.start()
        with self._lock:  # stdin closed: answer what is in flight, briefly
            grace = _env_float(self.env, "CODEGRAPH_MCP_EOF_GRACE", EOF_GRACE)
            self._idle.wait_for(lambda: self._outstanding <= 0, timeout=grace)
        return 0

    def handle_line(self, line: bytes) -> str | None:
        """Answer or route one line. Returns its method (None when it has none)."""
        if not line.strip():
            return None
        try:
            message = protocol.parse(line)
        except ValueError:
            self._write(protocol.error(None, protocol.PARSE_ERROR, "Parse error: not JSON"))
            return None
        if not isinstance(message, dict):
            why = "batches are not supported" if isinstance(message, list) else "expected a JSON-RPC object"
            self._write(protocol.error(None, protocol.INVALID_REQUEST, f"Invalid request: {why}"))
            return None
        if "id" in message and not protocol.valid_id(message["id"]):
            self._write(
                protocol.error(
                    None, protocol.INVALID_REQUEST, "Invalid request: id must be a string, a number or null"
                )
            )
            return None
        try:
            response = protocol.answer_locally(message, self.env)
        except protocol.NotLocal:
            self.route_call(message, len(line))
            return "tools/call"
        if response is not None:
            self._write(response)
        method = message.get("method")
        return method if isinstance(method, str) else None

    # -- routing tool calls ----------------------------------------------------------------------
    def route_call(self, message: dict, size: int) -> None:
        params = message.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        if self.paths is None and not self._no_daemon:
            self._index_appeared()
        with self._lock:
            if self.state != LOCAL and self._id_in_flight_locked(message.get("id")):
                # Replies are matched by id: a second call under a live id would lose one of the two
                # replies in silence (adversarial pass 2026-12-01).
                import json

                self._write(
                    protocol.error(
                        message.get("id"),
                        protocol.INVALID_REQUEST,
                        f"Invalid request: id {json.dumps(message.get('id'))} is already used by a call in flight",
                    )
                )
                return
            self._outstanding += 1
            if name not in self.enabled or self.state == LOCAL:
                # Disabled tools go to the in-process handler, which explains what is enabled (issue 3).
                self._to_local(message)
            elif self.state == CONNECTING:
                if len(self._pending) >= PENDING_MAX_CALLS or self._pending_bytes + size > PENDING_MAX_BYTES:
                    self._outstanding -= 1
                    busy = True
                else:
                    self._pending.append((message, size))
                    self._pending_bytes += size
                    busy = False
                if busy:
                    self._write(self._busy(message))
            else:
                self._send_to_daemon(message)

    def _id_in_flight_locked(self, msg_id: object) -> bool:
        key = _key(msg_id)
        return key in self._inflight or any(_key(m.get("id")) == key for m, _ in self._pending)

    def _index_appeared(self) -> None:
        """A session that began without an index switches to the daemon once one exists (a
        background ``codegraph init`` started with the session finishes)."""
        try:
            paths = find_root(self.root)
        except IndexMissing:
            return
        with self._lock:
            if self.paths is not None or self.state != LOCAL:
                return
            self.paths, self.root, self.state = paths, paths.root, CONNECTING
        self._connector = threading.Thread(target=self._connect, name="codegraph-connect", daemon=True)
        self._connector.start()

    def _busy(self, message: dict) -> dict:
        return protocol.result(
            message.get("id"),
            protocol.text_result(
                f"codegraph is busy: its background server is still starting and {len(self._pending)} "
                "calls are already waiting. Retry this call in a few seconds.",
                is_error=True,
            ),
        )

    def _send_to_daemon(self, message: dict) -> None:
        """Caller holds ``_lock`` and state is DAEMON."""
        from codegraph.mcp import wire

        self._inflight[_key(message.get("id"))] = message
        self._sent_at[_key(message.get("id"))] = time.monotonic()
        try:
            wire.send(self._sock, message)
        except OSError:
            self._daemon_gone_locked("send failed")

    def _to_local(self, message: dict) -> None:
        """Caller holds ``_lock``."""
        if self._local_thread is None:
            self._local_thread = threading.Thread(
                target=self._local_worker, name="codegraph-local", daemon=True
            )
            self._local_thread.start()
        self._local_q.put(message)

    def _local_worker(self) -> None:
        from codegraph.mcp import wire

        while True:
            message = self._local_q.get()
            if self._handler is None:
                try:
                    self._handler = wire.resolve_handler()
                except Exception as exc:  # dispatch missing or broken: answer, never hang
                    response = protocol.result(
                        message.get("id"),
                        protocol.text_result(f"codegraph could not load its tools: {exc}", is_error=True),
                    )
                    self._write(response)
                    self._answered()
                    continue
            self._write(wire.run_handler(self._handler, message, self.root))
            self._answered()

    # -- the daemon connection -------------------------------------------------------------------
    def _connect(self) -> None:
        try:
            conn = self._open_daemon()
        except Exception as exc:  # whatever goes wrong, fall back to answering in-process
            _log(f"daemon unavailable ({exc}); answering in-process")
            conn = None
        if conn is None:
            with self._lock:
                self._go_local_locked()
            return
        sock, theirs, reader = conn
        with self._lock:
            self._sock, self.daemon_info, self.state = sock, theirs, DAEMON
            while self._pending:
                message, _ = self._pending.popleft()
                self._send_to_daemon(message)
            self._pending_bytes = 0
        self._read_daemon(reader)

    def _open_daemon(self):
        from codegraph.mcp import wire

        assert self.paths is not None
        try:
            return wire.connect_project(self.paths)
        except wire.VersionMismatch as exc:
            from codegraph.mcp import daemon

            pid = exc.theirs.get("pid")
            if not (isinstance(pid, int) and pid == daemon.read_pid(self.paths)):
                _log(f"a daemon of another version serves {self.root}; not using it")
                return None
            _log(f"stopping daemon {pid} of version {exc.theirs.get('version')!r}")
            os.kill(pid, signal.SIGTERM)
            if not wire.wait_until(lambda: not wire.pid_alive(pid), 3.0):
                return None
        except OSError:
            pass
        from codegraph.mcp.daemon import no_index

        missing = no_index(self.paths)
        if missing:  # e.g. `rm -rf .codegraph` under a session: a daemon would refuse, so start none
            _log(f"{missing}; not starting a daemon")
            return None
        if self._spawn is None:
            from codegraph.mcp.daemon import spawn

            self._spawn = spawn
        self._spawn(self.root)
        paths = self.paths

        def connected():
            try:
                return wire.connect_project(paths)
            except OSError:
                return None

        timeout = _env_float(self.env, "CODEGRAPH_DAEMON_START_TIMEOUT", DEFAULT_DAEMON_START_TIMEOUT)
        conn = wire.poll(connected, timeout, fine=0.5)
        if conn is None:
            _log(f"daemon did not start within its timeout; see {self.paths.daemon_log}")
        return conn

    def _read_daemon(self, reader) -> None:
        import json

        try:
            for line in reader:
                try:
                    response = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(response, dict):
                    continue
                with self._lock:
                    known = self._inflight.pop(_key(response.get("id")), None) is not None
                    self._sent_at.pop(_key(response.get("id")), None)
                if known:
                    self._write(response)
                    self._answered()
        except (OSError, ValueError):
            pass  # ValueError: close() closed the reader under us
        reader.close()
        with self._lock:
            self._daemon_gone_locked("connection closed")

    def _daemon_gone_locked(self, why: str) -> None:
        if self.state != DAEMON:
            return
        _log(f"daemon connection lost ({why}); answering in-process")
        try:
            self._sock.close()
        except OSError:
            pass
        self._go_local_locked()

    def _go_local_locked(self) -> None:
        """Switch to in-process mode; re-answer what the daemon held and flush the queue, in order."""
        self.state = LOCAL
        for message in list(self._inflight.values()):
            self._to_local(message)
        self._inflight.clear()
        self._sent_at.clear()
        while self._pending:
            self._to_local(self._pending.popleft()[0])
        self._pending_bytes = 0

    def _expire_calls(self, timeout: float) -> None:
        """Answer, with an error result, daemon calls older than ``timeout`` seconds."""
        now = time.monotonic()
        with self._lock:
            late_keys = [k for k, sent in self._sent_at.items() if now - sent > timeout]
            late = []
            for key in late_keys:
                message = self._inflight.pop(key, None)
                self._sent_at.pop(key, None)
                if message is not None:
                    late.append(message.get("id"))
        for msg_id in late:
            text = (
                f"codegraph did not answer within {timeout:g} s and gave up on this call. "
                "Retry, or ask more narrowly."
            )
            self._write(protocol.result(msg_id, protocol.text_result(text, is_error=True)))
            self._answered()

    # -- lifecycle -------------------------------------------------------------------------------
    def close(self) -> None:
        """Drop the daemon connection (the reader thread then ends). For embedders and tests; the
        process exit does this in ``serve --mcp``."""
        import socket

        with self._lock:
            sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._connector is not None:
            self._connector.join(5)

    def _start_watchdog(self) -> None:
        startup = _env_float(self.env, "CODEGRAPH_MCP_STARTUP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT)
        call_timeout = _env_float(self.env, "CODEGRAPH_MCP_CALL_TIMEOUT", DEFAULT_CALL_TIMEOUT)
        parent = os.getppid()
        began = time.monotonic()

        def watch() -> None:
            while True:
                time.sleep(0.2)
                if call_timeout > 0 and self._sent_at:
                    self._expire_calls(call_timeout)
                if parent != 1 and os.getppid() != parent:
                    _log("parent process died; exiting")
                    self._terminate(0)
                    return
                if startup > 0 and not self._got_bytes and time.monotonic() - began > startup:
                    _log(f"no input within {startup:g} s; exiting")
                    self._terminate(0)
                    return

        threading.Thread(target=watch, name="codegraph-watchdog", daemon=True).start()


def main(path: str | None = None) -> int:
    """Entry point of ``codegraph serve --mcp [--path ROOT]``."""
    out_fd = os.dup(1)
    os.dup2(2, 1)  # fd 1 now points at stderr: only this module writes the protocol stream
    sys.stdout = sys.stderr

    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(out_fd, view) :]

    def on_signal(_signum, _frame):
        os._exit(0)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    proxy = Proxy(Path(path or os.getcwd()), sys.stdin.buffer, write)
    code = proxy.run()
    os._exit(code)  # daemon threads may be blocked in reads; nothing is left to flush


def fast_entry(argv: list[str]) -> None:
    """Serve straight from the console script when ``argv`` (after ``serve``) is exactly ``--mcp``
    with an optional ``--path ROOT``, skipping click and the other command modules so the handshake
    stays fast. Returns (without serving) on anything else, for click to parse and report."""
    path = None
    rest = list(argv)
    if "--mcp" not in rest:
        return
    rest.remove("--mcp")
    if len(rest) == 2 and rest[0] == "--path":
        path = rest[1]
    elif len(rest) == 1 and rest[0].startswith("--path="):
        path = rest[0].split("=", 1)[1]
    elif rest:
        return
    if path is not None and not os.path.isdir(path):
        return  # click reports the bad path
    main(path)
