"""A stand-in tool handler for transport tests (``CODEGRAPH_MCP_HANDLER=fake_handler:call_tool``).

It echoes what it got and which process answered. A query of the form ``sleep:SECONDS`` sleeps
first, but only inside a daemon, so a test can kill the daemon mid-call and see the proxy answer.
"""

from __future__ import annotations

import os
import time


def call_tool(name: str, arguments: dict, *, default_root=None) -> dict:
    from codegraph.mcp import daemon

    query = str(arguments.get("query", ""))
    if query.startswith("sleep:") and daemon.IN_DAEMON:
        time.sleep(float(query.split(":", 1)[1]))
    where = "daemon" if daemon.IN_DAEMON else "in-process"
    data = {
        "tool": name,
        "arguments": arguments,
        "pid": os.getpid(),
        "where": where,
        "root": str(default_root),
    }
    return {
        "content": [{"type": "text", "text": f"{name} answered {where}"}],
        "structuredContent": data,
        "isError": False,
    }
