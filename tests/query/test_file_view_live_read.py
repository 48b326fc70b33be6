"""The file view against the real Read tool: Claude Code runs offline (`claude -p` against a fake
Messages API that asks it to Read each file), and every tool_result it sends back is compared with the
file view's body. Claude Code comes from tests/agent_clients.py (or CODEGRAPH_CLAUDE_BIN).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from codegraph.model import Node
from codegraph.query.file_view import FileViewRequest, file_view
from tests.agent_clients import require

FILES: dict[str, bytes] = {
    "trail.py": b"def f():\n    return 1\n",
    "notrail.py": b"a\nb",
    "crlf.py": b"x = 1\r\ny = 2\r\n",
    "mixed.py": b"a\r\nb\nc\rd\r\n\r\n",
    "bom.py": b"\xef\xbb\xbfimport os\n",
    "tabs.go": b"func f() {\n\treturn\t1\n}\n",
    "badutf8.py": b"ok\n\xc3\x28 \xe2\x82 \xf0\x9f\x98\n",
    "surrogates.py": b"\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 \xff\n\x00nul\x01\n",
    "bom_crlf.py": b"\xef\xbb\xbf\xef\xbb\xbfa\r\n\r\r\n",
    "crcrlf.py": b"a\nb\r\r\nc\r\r\r\n\r\r\nd",
    "barecr.py": b"import os\r\rdef f():\r    return 1\r",
    "crend.py": b"a\nb\r\r",
    "crcrcr.py": b"a\r\r\r",
    "crlfcr.py": b"a\r\n\r",
    "cr.py": b"\r",
    "u2028.py": "a\u2028b\x85c\x0cd\n".encode(),
    "unicode.py": "s = 'é€😀'\n".encode(),
    "blank.py": b"\n\n# c\n\n",
    "big.py": "".join(f"v{i} = {i}\n" for i in range(1, 2301)).encode(),
}
# (file, offset, limit); None means Read's own default.
CALLS = [(name, None, None) for name in FILES if name != "big.py"] + [
    ("big.py", None, 2000),
    ("big.py", 1999, 5),
    ("big.py", 2290, None),
    ("trail.py", 2, 1),
    ("barecr.py", 2, None),
    ("trail.py", 9, None),
]


class FakeMessagesApi(BaseHTTPRequestHandler):
    """Streams one assistant turn of Read tool_uses, records the tool_results that come back."""

    calls: list[dict] = []
    results: dict[str, object] = {}

    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        if "count_tokens" in self.path:
            return self._send("application/json", b'{"input_tokens": 1}')
        blocks = [
            b for m in req.get("messages", []) if isinstance(m.get("content"), list) for b in m["content"]
        ]
        for b in blocks:
            if b.get("type") == "tool_result":
                type(self).results[b["tool_use_id"]] = b.get("content")
        wants_reads = any(t.get("name") == "Read" for t in req.get("tools", [])) and not any(
            b.get("type") == "tool_result" for b in blocks
        )
        message = {"id": "msg", "type": "message", "role": "assistant", "model": req.get("model", "m")}
        message |= {"content": [], "stop_reason": None, "stop_sequence": None}
        message["usage"] = {"input_tokens": 1, "output_tokens": 1}
        events = [("message_start", {"type": "message_start", "message": message})]
        if wants_reads:
            for i, call in enumerate(self.calls):
                events += [
                    ("content_block_start", {"type": "content_block_start", "index": i, "content_block": {
                        "type": "tool_use", "id": f"toolu_{i:03d}", "name": "Read", "input": {}}}),
                    ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {
                        "type": "input_json_delta", "partial_json": json.dumps(call)}}),
                    ("content_block_stop", {"type": "content_block_stop", "index": i}),
                ]  # fmt: skip
        else:
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": "done"}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ]  # fmt: skip
        stop = "tool_use" if wants_reads else "end_turn"
        events += [
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 1}}),
            ("message_stop", {"type": "message_stop"}),
        ]  # fmt: skip
        body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)
        self._send("text/event-stream", body.encode())

    def _send(self, ctype: str, body: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Reader:
    def __init__(self, paths):
        self.paths = list(paths)

    def indexed_paths(self) -> list[str]:
        return self.paths

    def file_symbols(self, path: str) -> list[Node]:
        return []

    def dependents(self, path: str) -> list[str]:
        return []


@pytest.fixture(scope="module")
def read_outputs(tmp_path_factory):
    claude = os.environ.get("CODEGRAPH_CLAUDE_BIN") or str(require("claude"))  # looked up now, not at import
    base = tmp_path_factory.mktemp("live_read")
    root, home = base / "proj", base / "home"
    root.mkdir()
    home.mkdir()
    for name, data in FILES.items():
        (root / name).write_bytes(data)
    calls = []
    for name, offset, limit in CALLS:
        call: dict = {"file_path": str(root / name)}
        if offset is not None:
            call["offset"] = offset
        if limit is not None:
            call["limit"] = limit
        calls.append(call)
    FakeMessagesApi.calls, FakeMessagesApi.results = calls, {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeMessagesApi)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "ANTHROPIC_API_KEY": "sk-ant-fake",
        "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}",
    }
    try:
        subprocess.run(
            [claude, "-p", "read these files", "--allowedTools", "Read", "--max-turns", "3"],
            cwd=root, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    results = dict(FakeMessagesApi.results)
    if len(results) < len(CALLS):
        pytest.skip(f"Claude Code returned {len(results)} of {len(CALLS)} Read results in this environment")
    return root, results


@pytest.mark.parametrize("index", range(len(CALLS)), ids=[f"{n}@{o}+{lim}" for n, o, lim in CALLS])
def test_body_is_byte_for_byte_what_claude_codes_read_returned(read_outputs, index):
    root, results = read_outputs
    name, offset, limit = CALLS[index]
    read_text = results[f"toolu_{index:03d}"]
    assert isinstance(read_text, str)
    result = file_view(root, Reader(FILES), FileViewRequest(file=name, offset=offset, limit=limit))
    if "<system-reminder>Warning" in read_text and "shorter than the provided offset" in read_text:
        assert result.body == "" and result.notice
    else:
        assert result.body == read_text
