"""Running the real Claude Code binary offline (found or installed by :mod:`tests.agent_clients`): a fake
Messages API on 127.0.0.1 that scripts tool calls, and a tiny stand-in MCP server.

Facts relied on (shared/FACTS.md): ``claude mcp list`` exits 0 whatever happens (parse its text);
``ANTHROPIC_BASE_URL`` + a fake key make ``claude -p`` run a full agent loop offline.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def claude_env(home: Path, base_url: str | None = None) -> dict[str, str]:
    """The environment for an offline Claude Code run in a temporary HOME."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "HTTP", "http"))}
    env = {
        **keep,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "NO_PROXY": "127.0.0.1,localhost",
    }
    if base_url:
        env["ANTHROPIC_API_KEY"] = "sk-ant-fake-offline-test"
        env["ANTHROPIC_BASE_URL"] = base_url
    return env


# ------------------------------------------------------------------------------------- stand-in MCP server

STUB_SERVER = Path(__file__).with_name("stub_mcp_server.py")


def write_stub_server(folder: Path, call_log: Path) -> Path:
    """An executable named ``codegraph`` (so the installer recognises its entry) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "codegraph"
    script.write_text(f"#!{sys.executable}\nLOG = {str(call_log)!r}\n" + STUB_SERVER.read_text())
    script.chmod(0o755)
    return script


# ------------------------------------------------------------------------------------- fake Messages API


def _sse(events: list[tuple[str, dict]]) -> bytes:
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


def _message_events(block: dict, stop_reason: str) -> list[tuple[str, dict]]:
    start_block = dict(block)
    delta: dict
    if block["type"] == "tool_use":
        start_block["input"] = {}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
    else:
        start_block["text"] = ""
        delta = {"type": "text_delta", "text": block["text"]}
    message = {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 1},
    }
    return [
        ("message_start", {"type": "message_start", "message": message}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start_block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 20},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]


class FakeMessagesAPI:
    """Scripts one agent loop: a ``tool_use`` per entry of ``script`` (name, input), one per turn, then a
    final text. Requests that carry no tools (titles, summaries) get a plain text answer. Every request
    body is kept in ``requests``."""

    def __init__(self, script: list[tuple[str, dict]]):
        self.script = script
        self.requests: list[dict] = []
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_HEAD(self):
                self.send_response(200)
                self.end_headers()

            def do_GET(self):
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.startswith("/v1/messages") or self.path.startswith(
                    "/v1/messages/count_tokens"
                ):
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps({"input_tokens": 100}).encode())
                    return
                api.requests.append(body)
                block, stop = api.answer(body)
                if body.get("stream"):
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    self.wfile.write(_sse(_message_events(block, stop)))
                else:
                    payload = {
                        "id": "msg_fake",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-sonnet-4-5",
                        "content": [block],
                        "stop_reason": stop,
                        "stop_sequence": None,
                        "usage": {"input_tokens": 100, "output_tokens": 20},
                    }
                    data = json.dumps(payload).encode()
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(self, body: dict) -> tuple[dict, str]:
        tool_names = {t.get("name") for t in body.get("tools") or []}
        if "Read" not in tool_names:
            return {"type": "text", "text": "ok"}, "end_turn"
        done = sum(
            1
            for m in body.get("messages", [])
            if m.get("role") == "user" and isinstance(m.get("content"), list)
            for c in m["content"]
            if isinstance(c, dict) and c.get("type") == "tool_result"
        )
        if done < len(self.script):
            name, args = self.script[done]
            return {"type": "tool_use", "id": f"toolu_fake_{done}", "name": name, "input": args}, "tool_use"
        return {"type": "text", "text": "All done."}, "end_turn"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
