"""Stand-in for `codegraph serve --mcp` in Claude Code tests (stdlib JSON-RPC over stdio): lists
codegraph_explore and answers calls, logging each call to the file named by LOG (set by the writer)."""

import json
import sys

LOG = globals().get("LOG", "/dev/null")
TOOL = {
    "name": "codegraph_explore",
    "description": "Explore the code graph.",
    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
}
ANSWER = "STUB-EXPLORE-ANSWER Engine is defined in pkg/big.py:1"
EMPTY = {
    "resources/list": "resources",
    "prompts/list": "prompts",
    "resources/templates/list": "resourceTemplates",
}


def answer(msg):
    method = msg.get("method")
    if method == "initialize":
        version = msg.get("params", {}).get("protocolVersion", "2025-06-18")
        info = {"name": "codegraph-stub", "version": "0"}
        return {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        with open(LOG, "a") as handle:
            handle.write(json.dumps(msg["params"]) + "\n")
        return {"content": [{"type": "text", "text": ANSWER}]}
    if method in EMPTY:
        return {EMPTY[method]: []}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = answer(msg)
    if result is None:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "unknown method"}}
    else:
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
