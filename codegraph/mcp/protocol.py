"""The parts of MCP the handshake answers itself, with the standard library only.

Newline-delimited JSON-RPC 2.0 over stdio. This module must stay import-light (json and the static tool
definitions): the process an agent spawns answers ``initialize`` and ``tools/list`` from here before
anything heavy loads (issue 4; importing the ``mcp`` SDK alone costs 0.4-0.8 s, see FACTS.md).
"""

from __future__ import annotations

import json

from codegraph import __version__
from codegraph.mcp import tools

# Oldest to newest. Claude Code sends 2025-11-25; the mcp 2.3 client offers the same.
SUPPORTED_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_VERSION = SUPPORTED_VERSIONS[-1]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

SERVER_INFO = {"name": "codegraph", "version": __version__}
INSTRUCTIONS = (
    "codegraph answers questions about this codebase from a local code graph. Call codegraph_explore "
    "first for 'how does X work' or 'where is Y handled'; its source excerpts are current."
)

# Methods answered with a fixed result (the lists we do not serve are empty, not missing).
_STATIC_RESULTS: dict[str, dict] = {
    "ping": {},
    "resources/list": {"resources": []},
    "resources/templates/list": {"resourceTemplates": []},
    "prompts/list": {"prompts": []},
    "logging/setLevel": {},
}


class NotLocal(Exception):
    """The message is a ``tools/call``: it goes to the daemon (or the in-process fallback)."""


def negotiate(client_version: object) -> str:
    """The protocol version to answer ``initialize`` with: the client's when we support it, else
    the newest we support (the client then decides whether to continue)."""
    return client_version if client_version in SUPPORTED_VERSIONS else LATEST_VERSION


def result(msg_id: object, value: dict) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "result": value}


def error(msg_id: object, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def encode(message: dict) -> bytes:
    """One JSON-RPC line: compact, ASCII-safe, no embedded newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"


def text_result(text: str, *, is_error: bool) -> dict:
    """A CallToolResult as a plain dict (text only: see ``dispatch._result`` on ``structuredContent``)."""
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


MAX_LINE = 4 << 20  # bytes in one request line; a tools/call never needs more (strings are ≤ 10,000 chars)
_DISCARD_CHUNK = 1 << 16


class LineTooLong(ValueError):
    """A line longer than :data:`MAX_LINE`; the rest of it has been read and dropped."""


def read_line(stream, limit: int = MAX_LINE) -> bytes:
    """Read one newline-terminated line from a binary stream, holding at most ``limit`` bytes of it.

    Returns:
        The line (b"" at end of input).

    Raises:
        LineTooLong: the line exceeds ``limit``; it was consumed in bounded chunks up to its newline,
            so the next call reads the next line (issue 9: a 1 GB line was buffered whole).
    """
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith(b"\n"):
        return line
    while True:
        chunk = stream.readline(_DISCARD_CHUNK)
        if not chunk or chunk.endswith(b"\n"):
            break
    raise LineTooLong(f"Invalid request: a line is limited to {limit >> 20} MiB")


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"number out of range: {text}")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def parse(line: bytes) -> dict | list | None:
    """Decode one line (strict JSON: no NaN/Infinity, no overflowing numbers, bounded nesting).
    Returns None for a blank line. Raises ValueError when it is not JSON."""
    line = line.strip()
    if not line:
        return None
    try:
        return json.loads(line, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def valid_id(msg_id: object) -> bool:
    """JSON-RPC 2.0: an id is a string, a number or null (never a bool, array or object)."""
    return (
        msg_id is None
        or isinstance(msg_id, str)
        or (isinstance(msg_id, (int, float)) and not isinstance(msg_id, bool))
    )


def answer_locally(message: dict, env: dict[str, str] | None = None) -> dict | None:
    """Answer one decoded message that needs no index.

    Returns:
        The response dict, or None when no response is due (notifications, responses from the client).

    Raises:
        NotLocal: the message is a ``tools/call`` request.
    """
    method = message.get("method")
    msg_id = message.get("id")
    is_request = "id" in message
    if not isinstance(method, str):
        if is_request and "result" not in message and "error" not in message:
            return error(msg_id, INVALID_REQUEST, "Invalid request: no method")
        return None  # a response to something we sent, or junk without an id
    if not is_request:
        return None  # notifications (initialized, cancelled, roots/list_changed…) get no response
    params = message.get("params") or {}
    if not isinstance(params, dict):
        return error(msg_id, INVALID_PARAMS, "params must be an object")
    if method == "initialize":
        return result(
            msg_id,
            {
                "protocolVersion": negotiate(params.get("protocolVersion")),
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": SERVER_INFO,
                "instructions": INSTRUCTIONS,
            },
        )
    if method == "tools/list":
        return result(msg_id, {"tools": tools.list_tools(env)})
    if method in _STATIC_RESULTS:
        return result(msg_id, dict(_STATIC_RESULTS[method]))
    if method == "tools/call":
        raise NotLocal(method)
    return error(msg_id, METHOD_NOT_FOUND, f"Method not found: {method}")


def tool_call_params(message: dict) -> tuple[str, dict]:
    """Name and arguments of a ``tools/call`` request.

    Raises:
        ValueError: the params are not a tool call (no string name, arguments not an object).
    """
    params = message.get("params") or {}
    name = params.get("name") if isinstance(params, dict) else None
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if not isinstance(name, str):
        raise ValueError("tools/call needs a string 'name'")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ValueError("tools/call 'arguments' must be an object")
    return name, arguments
