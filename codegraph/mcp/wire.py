"""What the handshake proxy and the daemon say to each other over the daemon's Unix socket.

Newline-delimited JSON. The client opens with a hello naming its codegraph version and wire revision;
the daemon answers with its own hello (pid, root, start time). A client never uses a daemon whose hello
differs from its own (issue 4: "a mismatched daemon is never used"). After the hello the client sends
JSON-RPC ``tools/call`` requests unchanged and gets JSON-RPC responses back, in any order, matched by id;
``daemon/status``, ``daemon/stop`` and ``daemon/fresh`` (bring the graph up to date before a CLI
query) are the control requests.

Standard library only: the proxy imports this.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TypeVar

from codegraph import __version__

T = TypeVar("T")

WIRE_REVISION = 1
Handler = Callable[..., dict]


class VersionMismatch(Exception):
    """The daemon on the socket is a different codegraph version or wire revision."""

    def __init__(self, theirs: dict):
        self.theirs = theirs
        super().__init__(f"daemon speaks {theirs.get('version')!r}/wire {theirs.get('wire')!r}")


def hello(**extra: object) -> dict:
    return {"hello": "codegraph", "version": __version__, "wire": WIRE_REVISION, **extra}


def compatible(theirs: dict) -> bool:
    return (
        theirs.get("hello") == "codegraph"
        and theirs.get("version") == __version__
        and theirs.get("wire") == WIRE_REVISION
    )


def send(sock: socket.socket, message: dict) -> None:
    sock.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")


def connect(path: Path, *, timeout: float = 2.0) -> tuple[socket.socket, dict, BinaryIO]:
    """Connect to a daemon socket and exchange hellos.

    Returns:
        ``(sock, their_hello, reader)`` where ``reader`` is a binary file over the socket for
        ``readline``; the socket is left blocking with no timeout.

    Raises:
        OSError: nothing listens there (missing socket, refused, timed out).
        VersionMismatch: a daemon answered but is not this version; the socket is closed.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    reader = sock.makefile("rb")  # close both: the socket stays open until its makefile() is closed
    try:
        sock.settimeout(timeout)
        sock.connect(os.fspath(path))
        send(sock, hello(pid=os.getpid()))
        line = reader.readline()
        if not line:
            raise ConnectionResetError("daemon closed the connection during hello")
        theirs = json.loads(line)
    except (OSError, ValueError) as exc:
        reader.close()
        sock.close()
        if isinstance(exc, OSError):
            raise
        raise ConnectionResetError(f"daemon sent a malformed hello: {exc}") from exc
    if not isinstance(theirs, dict) or not compatible(theirs):
        reader.close()
        sock.close()
        raise VersionMismatch(theirs if isinstance(theirs, dict) else {})
    sock.settimeout(None)
    return sock, theirs, reader


def socket_paths(paths) -> list[Path]:
    """Where a project's daemon may listen, in the order it tries them: ``.codegraph/daemon.sock``
    (when short enough), then the short temp-dir path (too long, or no sockets on that filesystem)."""
    return list(dict.fromkeys((paths.daemon_socket, paths.daemon_socket_short)))


def connect_project(paths, *, timeout: float = 2.0) -> tuple[socket.socket, dict, BinaryIO]:
    """:func:`connect` to the daemon of a project (a ``ProjectPaths``), at either of its socket paths.

    Raises:
        OSError, VersionMismatch: as :func:`connect`.
    """
    last: OSError | None = None
    for path in socket_paths(paths):
        try:
            return connect(path, timeout=timeout)
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            last = exc
    assert last is not None
    raise last


def request(target, method: str, *, timeout: float = 2.0, params: dict | None = None) -> dict:
    """One control request (``daemon/status``, ``daemon/stop``, ``daemon/fresh``) on a fresh connection
    to ``target`` (a socket path, or a ``ProjectPaths``), with ``params`` when given.

    Raises:
        OSError, VersionMismatch: as :func:`connect`.
    """
    if isinstance(target, Path):
        sock, _, reader = connect(target, timeout=timeout)
    else:
        sock, _, reader = connect_project(target, timeout=timeout)
    try:
        sock.settimeout(timeout)
        message = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params:
            message["params"] = params
        send(sock, message)
        line = reader.readline()
        if not line:
            raise ConnectionResetError("daemon closed the connection")
        return json.loads(line).get("result") or {}
    finally:
        reader.close()
        sock.close()


def pid_alive(pid: int) -> bool:
    """See :func:`codegraph.paths.pid_alive` (a zombie counts as gone)."""
    from codegraph.paths import pid_alive as alive

    return alive(pid)


def runtime_dir() -> Path:
    """Where running daemons register themselves (one JSON file each) so ``daemon list`` finds them.

    ``CODEGRAPH_RUNTIME_DIR`` overrides it (tests); else ``$XDG_RUNTIME_DIR/codegraph``, else a per-user
    folder under the temp dir.
    """
    override = os.environ.get("CODEGRAPH_RUNTIME_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isdir(xdg):
        return Path(xdg) / "codegraph"
    import tempfile

    return Path(tempfile.gettempdir()) / f"codegraph-{os.getuid()}"


def resolve_handler() -> Handler:
    """The tool-call handler: ``codegraph.mcp.dispatch.call_tool`` unless ``CODEGRAPH_MCP_HANDLER``
    names another (``module:function``, used by tests and embedders). Imported on first use, never
    during the handshake."""
    spec = os.environ.get("CODEGRAPH_MCP_HANDLER", "codegraph.mcp.dispatch:call_tool")
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr or "call_tool")


def run_handler(handler: Handler, message: dict, default_root: Path | None) -> dict:
    """Run one JSON-RPC ``tools/call`` through ``handler``; always returns a JSON-RPC response.

    Bad params → -32602. A handler exception is an internal failure: a CallToolResult with
    ``isError`` true naming it (the handler itself turns recoverable conditions into success-shaped
    text, issue 3).
    """
    from codegraph.mcp import protocol

    msg_id = message.get("id")
    try:
        name, arguments = protocol.tool_call_params(message)
    except ValueError as exc:
        return protocol.error(msg_id, protocol.INVALID_PARAMS, str(exc))
    try:
        value = handler(name, arguments, default_root=default_root)
    except Exception as exc:  # the agent gets an answer whatever breaks; the log keeps the trace
        import logging

        logging.getLogger("codegraph.mcp").exception("tool %s failed", name)
        value = protocol.text_result(
            f"codegraph internal error in {name}: {type(exc).__name__}: {exc}", is_error=True
        )
    return protocol.result(msg_id, value)


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.02) -> bool:
    """Whether ``predicate`` became true within ``timeout`` seconds (polled every ``step``)."""
    return poll(lambda: True if predicate() else None, timeout, step) is not None


def poll(attempt: Callable[[], T | None], timeout: float, step: float = 0.02, fine: float = 0.0) -> T | None:
    """The first non-None result of ``attempt`` within ``timeout`` seconds, else None. For the first
    ``fine`` seconds it retries every 5 ms (a daemon usually listens within ~50 ms), then every ``step``."""
    began = time.monotonic()
    while True:
        got = attempt()
        if got is not None:
            return got
        waited = time.monotonic() - began
        if waited >= timeout:
            return None
        time.sleep(0.005 if waited < fine else step)
