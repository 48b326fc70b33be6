"""A real MCP handshake against a configured server command, with the standard library only.

Newline-delimited JSON-RPC over stdio, as agents speak it: ``initialize``, then
``notifications/initialized``, then ``tools/list``. Anything that is not a JSON line on stdout is a
protocol break (stdout belongs to the protocol).
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

PROTOCOL_VERSION = "2025-06-18"


@dataclass
class Handshake:
    """``ok`` when tools/list answered with a list; ``tools`` their names; ``seconds`` spawn → answer;
    ``error`` what went wrong otherwise."""

    ok: bool
    tools: list[str] = field(default_factory=list)
    seconds: float = 0.0
    error: str = ""
    server: str = ""


def handshake(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 15.0
) -> Handshake:
    """Spawn ``argv`` in ``cwd`` and complete initialize → initialized → tools/list within ``timeout``."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as exc:
        return Handshake(False, error=f"cannot start {argv[0]}: {exc.strerror or exc}")
    result = Handshake(False, error="interrupted")
    try:
        result = _talk(proc, started, timeout)
        return result
    finally:
        _stop(proc, graceful=result.ok)


def _send(proc: subprocess.Popen, message: dict) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def _talk(proc: subprocess.Popen, started: float, timeout: float) -> Handshake:
    deadline = started + timeout
    init = {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "codegraph-doctor", "version": "1"},
    }
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
    except OSError:
        return Handshake(False, error="the server closed its input at once")
    reader = _Lines(proc)
    server = ""
    while True:
        message = reader.next(deadline)
        if isinstance(message, str):
            return Handshake(False, error=message, seconds=time.monotonic() - started)
        if message.get("id") == 1:
            if "error" in message:
                return Handshake(False, error=f"initialize failed: {message['error']}")
            info = (message.get("result") or {}).get("serverInfo") or {}
            server = f"{info.get('name', '?')} {info.get('version', '')}".strip()
            _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        elif message.get("id") == 2:
            tools = (message.get("result") or {}).get("tools")
            if not isinstance(tools, list):
                return Handshake(False, error=f"tools/list answered without a tools list: {message}")
            names = [t.get("name", "?") for t in tools if isinstance(t, dict)]
            return Handshake(True, names, time.monotonic() - started, server=server)


class _Lines:
    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.buffer = b""
        self.selector = selectors.DefaultSelector()
        assert proc.stdout is not None
        os.set_blocking(proc.stdout.fileno(), False)
        self.selector.register(proc.stdout, selectors.EVENT_READ)

    def next(self, deadline: float) -> dict | str:
        """The next JSON message, or an error text (timeout, exit, non-JSON output)."""
        assert self.proc.stdout is not None
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return "no answer before the timeout"
            if not self.selector.select(left):
                continue
            chunk = self.proc.stdout.read(65536)
            if not chunk:
                try:
                    code = self.proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    return "the server closed its stdout before answering"
                return f"the server exited (code {code}) before answering"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        if not line.strip():
            return self.next(deadline)
        try:
            message = json.loads(line)
        except ValueError:
            return f"the server printed a non-JSON line on stdout: {line[:120]!r}"
        return message if isinstance(message, dict) else f"unexpected message {line[:120]!r}"


def _stop(proc: subprocess.Popen, graceful: bool) -> None:
    """A healthy server exits on stdin EOF (given 3 s); a broken one is killed at once."""
    try:
        if proc.stdin:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=3 if graceful else 0.1)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout:
        proc.stdout.close()
