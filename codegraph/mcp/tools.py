"""Static MCP tool definitions: names, descriptions, JSON schemas, annotations.

Data only, no heavy imports: the handshake proxy answers ``tools/list`` from this module before
tree-sitter or SQLite are loaded. Descriptions are written for the model that reads them.
"""

from __future__ import annotations

import os

from codegraph import bounds

MAX_TEXT = 10_000
MAX_PATH = 4_096
MAX_LINE_NUMBER = 1_000_000_000

READ_ONLY = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}

_PROJECT = {
    "type": "string",
    "maxLength": MAX_PATH,
    "description": "Absolute path of the project (any directory inside it). Default: the server's project.",
}
_SYMBOL = {
    "type": "string",
    "maxLength": MAX_TEXT,
    "description": "Symbol name: plain (`filter`), qualified (`QuerySet.filter`, `QuerySet::filter`) or "
    "file-qualified (`django/db/models/query.py:QuerySet.filter`).",
}
_FILE = {
    "type": "string",
    "maxLength": MAX_PATH,
    "description": "File path relative to the project root; a unique suffix or substring also works.",
}
_MIN_CONFIDENCE = {
    "type": "number",
    "minimum": 0,
    "maximum": 1,
    "description": "Leave out edges the resolver was less sure of (name-only matches are 0.5, the top tier 0.9).",
}
_RELATION_LIMIT = bounds.RELATION_LIMIT.schema("Maximum call sites per definition")


def _tool(name: str, description: str, properties: dict, required: list[str]) -> dict:
    return {
        "name": f"codegraph_{name}",
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {**properties, "projectPath": _PROJECT},
            "required": required,
            "additionalProperties": False,
        },
        "annotations": {"title": f"codegraph {name}", **READ_ONLY},
    }


TOOLS: list[dict] = [
    _tool(
        "explore",
        "Answer a question about this codebase in one call: finds the symbols the question names or "
        "describes, follows their callers and callees, and returns the current source of the most "
        "relevant code with line numbers (an envelope sized to the repository), plus the blast radius. "
        "Use it first for 'how does X work', 'where is Y handled', 'what calls Z'. The source shown is "
        "current and complete for the spans listed.",
        {
            "query": {
                "type": "string",
                "maxLength": MAX_TEXT,
                "description": "The question or task in plain words; name symbols when you know them.",
            },
            "maxChars": bounds.EXPLORE_BUDGET.schema(
                "Character budget for the envelope (default: sized to the repository)."
            ),
        },
        ["query"],
    ),
    _tool(
        "node",
        "Show one symbol (its source, who calls it, what it calls) or one file. File mode returns the "
        "file exactly as the Read tool would (`<n>\\t<line>`), with a header naming the files that "
        "depend on it; `offset`/`limit` page through large files; `symbolsOnly` returns the symbol map.",
        {
            "symbol": _SYMBOL,
            "file": _FILE,
            "line": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LINE_NUMBER,
                "description": "Narrow an ambiguous symbol to the definition that spans this line (1-based).",
            },
            "offset": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LINE_NUMBER,
                "description": "File mode: first line (1-based).",
            },
            "limit": bounds.FILE_VIEW_LINES.schema("File mode: number of lines"),
            "symbolsOnly": {"type": "boolean", "description": "File mode: list symbols instead of source."},
        },
        [],
    ),
    _tool(
        "search",
        "Find symbols by name or words (full-text over names, qualified names, signatures, docstrings).",
        {
            "query": {"type": "string", "maxLength": MAX_TEXT, "description": "Name or words to look for."},
            "kind": {
                "type": "string",
                "maxLength": MAX_TEXT,
                "description": "Only this node kind (function, method, class, …).",
            },
            "limit": bounds.SEARCH_LIMIT.schema("Maximum results"),
        },
        ["query"],
    ),
    _tool(
        "callers",
        "Who calls this symbol (calls and instantiations), grouped per definition when the name is ambiguous.",
        {"symbol": _SYMBOL, "file": _FILE, "limit": _RELATION_LIMIT, "minConfidence": _MIN_CONFIDENCE},
        ["symbol"],
    ),
    _tool(
        "callees",
        "What this symbol calls and instantiates, resolved to definitions in the project.",
        {"symbol": _SYMBOL, "file": _FILE, "limit": _RELATION_LIMIT, "minConfidence": _MIN_CONFIDENCE},
        ["symbol"],
    ),
    _tool(
        "impact",
        "Blast radius of changing a symbol: everything that reaches it through calls, instantiation, "
        "inheritance and references, by distance, with the files and tests affected.",
        {
            "symbol": _SYMBOL,
            "file": _FILE,
            "depth": bounds.IMPACT_DEPTH.schema("Hops"),
            "minConfidence": _MIN_CONFIDENCE,
        },
        ["symbol"],
    ),
    _tool(
        "trace",
        "How symbol A reaches symbol B: the shortest call path between them, with each hop's source line.",
        {
            "from": {**_SYMBOL, "description": "Start symbol."},
            "to": {**_SYMBOL, "description": "End symbol."},
            "maxDepth": bounds.TRACE_DEPTH.schema("Hops"),
        },
        ["from", "to"],
    ),
    _tool(
        "files",
        "List indexed files (optionally under a folder or matching a pattern) with language and symbol count.",
        {
            "path": {**_FILE, "description": "Folder or substring to filter by."},
            "limit": bounds.FILES_LIMIT.schema("Maximum files"),
        },
        [],
    ),
    _tool(
        "status",
        "Index health: files, symbols, edges, languages, last indexed time, and files changed since then.",
        {},
        [],
    ),
    _tool(
        "context",
        "Turn a task description (English or Chinese) into the symbols most relevant to it, ranked.",
        {
            "task": {"type": "string", "maxLength": MAX_TEXT, "description": "The task in plain words."},
            "limit": bounds.CONTEXT_LIMIT.schema("Maximum symbols"),
        },
        ["task"],
    ),
    _tool(
        "affected",
        "Before running tests: which test files depend (through imports and calls, transitively) on the "
        "changed files, which other files depend on them, and the changed symbols with their callers. "
        "Give `files` (paths relative to the project root), or `since` (a git revision: every file changed "
        "between it and the working tree, narrowed to the changed lines); with neither, the uncommitted "
        "changes (`since` HEAD). Run the listed tests rather than the whole suite.",
        {
            "files": {
                "type": "array",
                "items": {"type": "string", "maxLength": MAX_PATH},
                "maxItems": 10_000,
                "description": "Changed file paths, relative to the project root.",
            },
            "since": {
                "type": "string",
                "maxLength": MAX_TEXT,
                "description": "A git revision (`HEAD`, `origin/main`, a commit); its changes are added to `files`.",
            },
        },
        [],
    ),
]

TOOLS_BY_NAME = {t["name"]: t for t in TOOLS}
DEFAULT_ENABLED = ("codegraph_explore",)


def enabled_tool_names(env: dict[str, str] | None = None) -> list[str]:
    """Tool names to list: ``CODEGRAPH_MCP_TOOLS`` (comma-separated, short or prefixed names, ``all``)
    replaces the default set (explore only). Unknown names are ignored."""
    raw = (env if env is not None else os.environ).get("CODEGRAPH_MCP_TOOLS", "").strip()
    if not raw:
        return list(DEFAULT_ENABLED)
    if raw.lower() == "all":
        return [t["name"] for t in TOOLS]
    wanted = []
    for part in raw.split(","):
        part = part.strip()
        if not part:
            continue
        name = part if part.startswith("codegraph_") else f"codegraph_{part}"
        if name in TOOLS_BY_NAME and name not in wanted:
            wanted.append(name)
    return wanted or list(DEFAULT_ENABLED)


def list_tools(env: dict[str, str] | None = None) -> list[dict]:
    """The ``tools`` array of a ``tools/list`` answer."""
    return [TOOLS_BY_NAME[n] for n in enabled_tool_names(env)]
