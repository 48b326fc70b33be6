"""Tool calls → query functions → an MCP CallToolResult dict. The one dispatch table.

No MCP SDK import here: handlers are plain functions; the transport (proxy, daemon, in-process
server) calls :func:`call_tool`. Recoverable conditions (no index, unknown symbol, unknown file)
come back as success-shaped text that says why and what to do; ``isError`` is for refused paths,
bad arguments and internal failures.
"""

from __future__ import annotations

import logging
import math
import os
import re
from pathlib import Path

from codegraph.errors import CodegraphError, PathOutsideRoot
from codegraph.mcp.tools import MAX_PATH, MAX_TEXT, TOOLS_BY_NAME, enabled_tool_names

log = logging.getLogger("codegraph.mcp")


def _result(text: str, *, error: bool = False) -> dict:
    """A CallToolResult carrying the rendered text only.

    No ``structuredContent``: the MCP spec ties it to a declared ``outputSchema`` (no tool declares
    one), and Claude Code hands the model the compact JSON of ``structuredContent`` instead of the
    text when both are present (measured, FACTS.md / issue 9: a 20k-character explore envelope
    reached the model as 33 KB of ids, nulls and scores). ``--json`` on the CLI keeps the data form.
    """
    return {"content": [{"type": "text", "text": text}], "isError": error}


def _integer(key: str, spec: dict, value: object) -> int:
    """``value`` as an integer within the schema's ``minimum``/``maximum`` (a numeric string or an
    integral float is accepted; clients differ). Raises ValueError naming the range (issue 9: ``depth``
    1e9 and -5 were clamped silently while ``"deep"`` was refused)."""
    lo, hi = spec["minimum"], spec["maximum"]
    number: object = value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,12}\s*", value):
        number = int(value)
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int) or not lo <= number <= hi:
        raise ValueError(f"'{key}' must be an integer from {lo} to {hi}; got {value!r}.")
    return number


def _bool(args: dict, key: str) -> bool:
    value = args.get(key, False)
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return value.lower() in ("true", "1", "yes")
    if not isinstance(value, (bool, int)) or value not in (True, False, 0, 1):
        raise ValueError(f"'{key}' must be true or false")
    return bool(value)


def _handlers():
    from codegraph import bounds
    from codegraph.config import load_config
    from codegraph.query import explore
    from codegraph.query.files import files
    from codegraph.query.impact import impact
    from codegraph.query.node import node
    from codegraph.query.relations import callees, callers
    from codegraph.query.search import search
    from codegraph.query.trace import trace

    def node_or_file(r, a):
        if a.get("file") and not a.get("symbol"):
            from codegraph.query import file_view

            return file_view.file_view(
                r.root,
                r,
                file_view.FileViewRequest(
                    file=a["file"],
                    offset=a.get("offset"),
                    limit=a.get("limit"),
                    symbols_only=_bool(a, "symbolsOnly"),
                ),
            )
        if not a.get("symbol"):
            raise ValueError("codegraph_node needs 'symbol', or 'file' for the file view")
        return node(r, a["symbol"], file=a.get("file"), line=a.get("line"))

    def affected(r, a):
        from codegraph.query import affected as affected_mod

        files, lines, since = list(a.get("files") or []), None, a.get("since")
        if since is None and not files:
            since = "HEAD"
        if since is not None:
            changed, lines = affected_mod.changes_since(r.root, since)
            files += changed
        return affected_mod.affected(r, files, lines=lines, since=since)

    return {
        "codegraph_affected": affected,
        "codegraph_explore": lambda r, a: explore.explore(
            r,
            a["query"],
            max_chars=a.get("maxChars"),
            extra_vocab=load_config(r.root).vocabulary,
        ),
        "codegraph_node": node_or_file,
        "codegraph_search": lambda r, a: search(
            r, a["query"], kind=a.get("kind"), limit=a.get("limit", bounds.SEARCH_LIMIT.default)
        ),
        "codegraph_callers": lambda r, a: callers(
            r,
            a["symbol"],
            file=a.get("file"),
            limit=a.get("limit", bounds.RELATION_LIMIT.default),
            min_confidence=a.get("minConfidence"),
        ),
        "codegraph_callees": lambda r, a: callees(
            r,
            a["symbol"],
            file=a.get("file"),
            limit=a.get("limit", bounds.RELATION_LIMIT.default),
            min_confidence=a.get("minConfidence"),
        ),
        "codegraph_impact": lambda r, a: impact(
            r,
            a["symbol"],
            file=a.get("file"),
            depth=a.get("depth", bounds.IMPACT_DEPTH.default),
            min_confidence=a.get("minConfidence"),
        ),
        "codegraph_trace": lambda r, a: trace(
            r, a["from"], a["to"], max_depth=a.get("maxDepth", bounds.TRACE_DEPTH.default)
        ),
        "codegraph_files": lambda r, a: files(
            r, a.get("path"), limit=a.get("limit", bounds.FILES_LIMIT.default)
        ),
        "codegraph_status": lambda r, a: _status(r),
        "codegraph_context": lambda r, a: explore.context(
            r,
            a["task"],
            limit=a.get("limit", bounds.CONTEXT_LIMIT.default),
            extra_vocab=load_config(r.root).vocabulary,
        ),
    }


def _status(reader):
    """``status`` with the daemon serving the project and the agents codegraph is installed for."""
    from codegraph_installer.targets import installed_for

    from codegraph.mcp import service
    from codegraph.query.status import status

    return status(reader, daemon=service.summary(reader.root), agents=installed_for(reader.root))


_HANDLERS = None


def call_tool(name: str, arguments: dict | None, *, default_root: Path | None) -> dict:
    """Run one tool call.

    Args:
        name: tool name (``codegraph_<operation>``).
        arguments: the call's arguments; ``projectPath`` overrides ``default_root``.
        default_root: the server's project directory (None: the working directory).

    Returns:
        ``{"content": [{"type": "text", "text": …}], "isError": bool}``.
    """
    global _HANDLERS
    from codegraph.errors import SymbolNotFound
    from codegraph.index.background import read_progress
    from codegraph.index.drift import changed_files
    from codegraph.index.repair import read_repairing
    from codegraph.index.watch import before_answer
    from codegraph.query.freshness import banner, cited_paths, miss_note
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
        if value is not None and spec.get("type") == "integer":
            try:
                arguments[key] = _integer(key, spec, value)
            except ValueError as exc:
                return _result(str(exc), error=True)
            continue
        if value is not None and spec.get("type") == "array":
            items = spec["items"]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                return _result(f"'{key}' must be an array of strings.", error=True)
            if len(value) > spec["maxItems"]:
                return _result(
                    f"'{key}' has {len(value)} items; the limit is {spec['maxItems']}.", error=True
                )
            longest = max((len(v) for v in value), default=0)
            if longest > items["maxLength"]:
                return _result(
                    f"an item of '{key}' is {longest} characters; the limit is {items['maxLength']}.",
                    error=True,
                )
            continue
        if value is not None and spec.get("type") == "number":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            if not ok or not spec.get("minimum", -math.inf) <= value <= spec.get("maximum", math.inf):
                return _result(
                    f"'{key}' must be a number from {spec.get('minimum')} to {spec.get('maximum')}; got {value!r}.",
                    error=True,
                )
            continue
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

    def answer(reader) -> str:
        note = before_answer(reader.root)
        with reader.snapshot():  # one committed state, though the watcher's sync commits meanwhile
            return _answer(reader, note)

    def _answer(reader, note: str | None) -> str:
        if name != "codegraph_status":
            from codegraph.query.status import check_finished

            check_finished(reader)  # IndexUnfinished: "unfinished", not "no symbol" from an empty index
        try:
            result = _HANDLERS[name](reader, arguments)
        except SymbolNotFound as exc:
            exc.add_index_note(miss_note(reader, exc.name))  # a miss says when the index is behind
            if note:
                exc.add_index_note(note)
            raise
        text = render(result)
        changed = changed_files(reader, cited_paths(to_data(result))) if name != "codegraph_status" else []
        if changed:
            text = banner(changed, syncing=read_progress(reader.paths) is not None) + "\n\n" + text
        if note:
            text = note + "\n\n" + text
        return text

    try:
        text, repaired = read_repairing(start, answer)
        if repaired:
            text = repaired + "\n\n" + text
        from codegraph.update_check import notice

        line = notice()  # a newer codegraph: one line, once per version (issue 14)
        if line:
            text = text + "\n\n" + line
        return _result(text)
    except PathOutsideRoot as exc:
        return _result(str(exc), error=True)
    except CodegraphError as exc:
        if exc.recoverable:
            return _result(_recovery_text(exc, start))
        return _result(str(exc), error=True)
    except ValueError as exc:
        return _result(str(exc), error=True)
    except Exception as exc:
        log.exception("tool %s failed", name)
        return _result(f"codegraph internal error in {name}: {type(exc).__name__}: {exc}", error=True)


def _recovery_text(exc: CodegraphError, start) -> str:
    from codegraph.errors import IndexMissing

    if isinstance(exc, IndexMissing):
        from codegraph.paths import refused_root

        if refused_root(Path(start).resolve()):
            return (
                f"No codegraph index: this session runs in {start}, the user's home directory (or above it), not in a "
                "project, so there is no code graph to answer from. Read the files directly; for codegraph, "
                "the user opens the agent in a project folder (or indexes this one with `codegraph init "
                f"{start} --force`)."
            )
        return (
            f"{exc} The project at {start} has no codegraph index yet, so this question can't be answered "
            "from the graph. Ask the user to run `codegraph init` there (it takes seconds for most repos); "
            "meanwhile read the files directly."
        )
    return str(exc)
