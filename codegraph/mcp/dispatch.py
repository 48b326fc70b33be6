"""Tool calls → query functions → an MCP CallToolResult dict. The one dispatch table.

No MCP SDK import here: handlers are plain functions; the transport (proxy, daemon, in-process
server) calls :func:`call_tool`. Recoverable conditions (no index, unknown symbol, unknown file)
come back as success-shaped text that says why and what to do; ``isError`` is for refused paths,
bad arguments and internal failures.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from codegraph.errors import CodegraphError, PathOutsideRoot
from codegraph.mcp.tools import MAX_PATH, MAX_TEXT, TOOLS_BY_NAME, enabled_tool_names

log = logging.getLogger("codegraph.mcp")


def _result(text: str, data: dict | None = None, *, error: bool = False) -> dict:
    out: dict = {"content": [{"type": "text", "text": text}], "isError": error}
    if data is not None:
        out["structuredContent"] = data
    return out


def _int(args: dict, key: str, default: int | None, lo: int, hi: int) -> int | None:
    value = args.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"'{key}' must be an integer")
    try:
        value = int(value)
    except (ValueError, OverflowError):
        raise ValueError(f"'{key}' must be an integer between {lo} and {hi}") from None
    return max(lo, min(hi, value))


def _bool(args: dict, key: str) -> bool:
    value = args.get(key, False)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.lower() in ("true", "1", "yes")
    if not isinstance(value, (bool, int)) or value not in (True, False, 0, 1):
        raise ValueError(f"'{key}' must be true or false")
    return bool(value)


def _handlers():
    from codegraph.config import load_config
    from codegraph.query import basic, explore, graph

    def node(r, a):
        if a.get("file") and not a.get("symbol"):
            from codegraph.query import file_view

            return file_view.file_view(
                r.root,
                r,
                file_view.FileViewRequest(
                    file=a["file"],
                    offset=_int(a, "offset", None, 1, 10**9),
                    limit=_int(a, "limit", None, 1, 100000),
                    symbols_only=_bool(a, "symbolsOnly"),
                ),
            )
        if not a.get("symbol"):
            raise ValueError("codegraph_node needs 'symbol', or 'file' for the file view")
        return basic.node(r, a["symbol"], file=a.get("file"), line=_int(a, "line", None, 1, 10**9))

    return {
        "codegraph_explore": lambda r, a: explore.explore(
            r,
            a["query"],
            max_chars=_int(a, "maxChars", None, 1000, 25000),
            extra_vocab=load_config(r.root).vocabulary,
        ),
        "codegraph_node": node,
        "codegraph_search": lambda r, a: basic.search(
            r, a["query"], kind=a.get("kind"), limit=_int(a, "limit", 20, 1, 500)
        ),
        "codegraph_callers": lambda r, a: graph.callers(
            r, a["symbol"], file=a.get("file"), limit=_int(a, "limit", 20, 1, 500)
        ),
        "codegraph_callees": lambda r, a: graph.callees(
            r, a["symbol"], file=a.get("file"), limit=_int(a, "limit", 20, 1, 500)
        ),
        "codegraph_impact": lambda r, a: graph.impact(
            r, a["symbol"], file=a.get("file"), depth=_int(a, "depth", 3, 1, 10)
        ),
        "codegraph_trace": lambda r, a: graph.trace(
            r, a["from"], a["to"], max_depth=_int(a, "maxDepth", 8, 1, 12)
        ),
        "codegraph_files": lambda r, a: basic.files(r, a.get("path"), limit=_int(a, "limit", 200, 1, 500)),
        "codegraph_status": lambda r, a: basic.status(r),
        "codegraph_context": lambda r, a: explore.context(
            r, a["task"], limit=_int(a, "limit", 20, 1, 500), extra_vocab=load_config(r.root).vocabulary
        ),
    }


_HANDLERS = None


def call_tool(name: str, arguments: dict | None, *, default_root: Path | None) -> dict:
    """Run one tool call.

    Args:
        name: tool name (``codegraph_<operation>``).
        arguments: the call's arguments; ``projectPath`` overrides ``default_root``.
        default_root: the server's project directory (None: the working directory).

    Returns:
        ``{"content": [{"type": "text", "text": …}], "structuredContent": {…}, "isError": bool}``.
    """
    global _HANDLERS
    from codegraph.index.repair import read_repairing
    from codegraph.index.watch import before_answer
    from codegraph.query.freshness import banner, changed_files, cited_paths
    from codegraph.render import render, to_data

    arguments = dict(arguments or {})
    tool = TOOLS_BY_NAME.get(name)
    if tool is None:
        return _result(f"Unknown tool '{name}'. Available: {', '.join(enabled_tool_names())}.", error=True)
    if name not in enabled_tool_names():
        return _result(
            f"The tool '{name}' is not enabled on this server. Enabled: {', '.join(enabled_tool_names())}. "
            "Set CODEGRAPH_MCP_TOOLS (e.g. 'explore,node,callers' or 'all') in the server's environment to "
            "enable more.",
            error=True,
        )
    schema = tool["inputSchema"]
    unknown = sorted(set(arguments) - set(schema["properties"]))
    if unknown:
        return _result(f"Unknown argument(s) for {name}: {', '.join(unknown)}.", error=True)
    missing = [k for k in schema.get("required", []) if not arguments.get(k)]
    if missing:
        return _result(f"{name} needs: {', '.join(missing)}.", error=True)
    for key, spec in schema["properties"].items():
        value = arguments.get(key)
        bound = spec.get("maxLength", MAX_TEXT)  # every string is bounded, declared or not (issue 3)
        if isinstance(value, str) and len(value) > bound:
            return _result(f"'{key}' is {len(value)} characters; the limit is {bound}.", error=True)
        if value is not None and spec.get("type") == "string" and not isinstance(value, str):
            return _result(f"'{key}' must be a string.", error=True)
    project = arguments.pop("projectPath", None)
    if project is not None and (len(project) > MAX_PATH or not os.path.isabs(project)):
        return _result("'projectPath' must be an absolute path (at most 4,096 characters).", error=True)
    start = project or default_root or os.getcwd()
    if _HANDLERS is None:
        _HANDLERS = _handlers()

    def answer(reader) -> tuple[str, dict]:
        note = before_answer(reader.root)
        result = _HANDLERS[name](reader, arguments)
        data = to_data(result)
        text = render(result)
        changed = changed_files(reader, cited_paths(data)) if name != "codegraph_status" else []
        if changed:
            text = banner(changed) + "\n\n" + text
            data = {**data, "staleFiles": changed}
        if note:
            text = note + "\n\n" + text
            data = {**data, "autoSync": note}
        return text, data

    try:
        (text, data), repaired = read_repairing(start, answer)
        if repaired:
            text = repaired + "\n\n" + text
            data = {**data, "repaired": repaired}
        return _result(text, data)
    except PathOutsideRoot as exc:
        return _result(str(exc), error=True)
    except CodegraphError as exc:
        if exc.recoverable:
            return _result(_recovery_text(exc, start), {"error": type(exc).__name__, "message": str(exc)})
        return _result(str(exc), {"error": type(exc).__name__, "message": str(exc)}, error=True)
    except ValueError as exc:
        return _result(str(exc), error=True)
    except Exception as exc:  # noqa: BLE001 - the agent gets an answer, the log gets the trace
        log.exception("tool %s failed", name)
        return _result(f"codegraph internal error in {name}: {type(exc).__name__}: {exc}", error=True)


def _recovery_text(exc: CodegraphError, start) -> str:
    from codegraph.errors import IndexMissing

    if isinstance(exc, IndexMissing):
        return (
            f"{exc} The project at {start} has no codegraph index yet, so this question can't be answered "
            "from the graph. Ask the user to run `codegraph init` there (it takes seconds for most repos); "
            "meanwhile read the files directly."
        )
    return str(exc)
