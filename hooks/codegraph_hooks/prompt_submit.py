"""UserPromptSubmit (Claude Code) / BeforeAgent (Gemini CLI): when the prompt names code the index knows,
ask the project's running daemon for an explore envelope and hand it to the agent with the prompt (issue 16).

The agent then has the relevant current source before its first step instead of having to choose to call
codegraph. Rules:
- Nothing for prompts that name nothing in the index ("hi", "write a poem"): a prompt matches when an
  identifier-shaped token (``build_filter``, ``QuerySet``, ``Query.add_q``, ``query.py``) is a symbol name or
  file in the index, or when a plain word is a symbol name and the prompt is clearly about code ("how does
  save work", "where is X defined").
- Never starts an index or a daemon; talks only to a daemon already serving the project. The whole call is
  bounded (``CODEGRAPH_PROMPT_HOOK_WAIT`` seconds, default 1.5): a cold or busy daemon gives nothing.
- The envelope is capped (``CODEGRAPH_PROMPT_HOOK_MAX_CHARS``, default 12,000 characters, note included).
- Standard library plus codegraph's stdlib-only wire module; fails open; ``CODEGRAPH_NO_PROMPT_HOOK=1`` off.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from pathlib import Path

from codegraph_hooks import index_info

DEFAULT_WAIT = 1.5
DEFAULT_MAX_CHARS = 12_000
MIN_ENVELOPE = 1_000  # explore's smallest maxChars
NOTE = (
    "codegraph: the source below is the current code from the index for what this prompt names; it is "
    "complete for the spans shown (line numbers are exact), so those spans need no Read."
)
NO_MATCH_PREFIX = "No symbol in the index matches"

_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|#|/)[A-Za-z_$][A-Za-z0-9_$-]*)*")
_CAMEL = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2}[a-z]")
SOURCE_SUFFIXES = (
    ".py", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".go", ".rs", ".java", ".kt", ".kts", ".rb",
    ".php", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".scala", ".dart", ".zig", ".lua", ".sh",
)  # fmt: skip
# Words that say the prompt is about this code (a plain word then counts when it is a symbol's name).
CODE_CUES = frozenset(
    """
function functions method methods class classes module modules file files code codebase repo repository
call calls called caller callers callee callees define defined defines definition implement implemented
implementation implements refactor rename bug bugs fix crash error exception raise raises raised return
returns argument arguments parameter parameters signature test tests handle handled handles handler
where how why work works invoked used uses
""".split()
)
STOPWORDS = frozenset(
    """
a an and are as at be by can do does for from has have how i in is it its of on or the this that to was
what when where which who why will with you me my we our your please could would should about write
tell make give show explain help hi hello thanks thank yes no not new old all any some one two
""".split()
)


def _float_env(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def strong(token: str) -> bool:
    """Identifier-shaped: snake_case, camelCase/PascalCase with two humps, dotted/qualified, or a path."""
    return (
        "_" in token.strip("_")
        or any(sep in token for sep in (".", "::", "#", "/"))
        or bool(_CAMEL.search(token))
    )


def candidates(prompt: str) -> tuple[set[str], set[str], set[str], bool]:
    """``(strong names, weak names, file tokens, code cue?)`` from the prompt's words. Names are the last
    segment of qualified tokens (``Query.add_q`` → ``add_q`` and ``Query``)."""
    strong_names: set[str] = set()
    weak: set[str] = set()
    files: set[str] = set()
    words = set(re.findall(r"[a-z]+", prompt.lower()))
    cue = bool(words & CODE_CUES)
    for match in _IDENT.finditer(prompt[:20_000]):
        token = match.group(0).rstrip(".")
        if token.lower().endswith(SOURCE_SUFFIXES) and ("." in token):
            files.add(token)
            continue
        if strong(token):
            for part in re.split(r"\.|::|#|/", token):
                if len(part) >= 2:
                    strong_names.add(part)
        elif len(token) >= 4 and token.lower() not in STOPWORDS:
            weak.add(token)
    return strong_names, weak, files, cue


def _known(conn: sqlite3.Connection, names: set[str], kinds: tuple[str, ...] | None = None) -> set[str]:
    if not names:
        return set()
    names_list = sorted(names)[:200]
    sql = f"SELECT DISTINCT name FROM nodes WHERE name IN ({','.join('?' * len(names_list))})"
    args: list[str] = list(names_list)
    if kinds:
        sql += f" AND kind IN ({','.join('?' * len(kinds))})"
        args += list(kinds)
    return {row[0] for row in conn.execute(sql, args)}


def _known_files(conn: sqlite3.Connection, tokens: set[str]) -> set[str]:
    found = set()
    for token in sorted(tokens)[:20]:
        token = token.lstrip("./")
        row = conn.execute(
            "SELECT 1 FROM files WHERE path = ? OR path LIKE ? ESCAPE '\\' LIMIT 1",
            (token, "%/" + token.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")),
        ).fetchone()
        if row:
            found.add(token)
    return found


def matches(root: Path, prompt: str) -> list[str]:
    """What in the prompt the index knows (symbol names, files); empty: the hook adds nothing."""
    strong_names, weak, files, cue = candidates(prompt)
    if not (strong_names or files or (weak and cue)):
        return []
    conn = index_info.connect(root)
    try:
        found = _known(conn, strong_names) | _known_files(conn, files)
        if cue and weak:
            found |= _known(conn, weak, ("class", "function", "method", "interface", "struct", "trait"))
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    return sorted(found)


def ask_daemon(root: Path, query: str, max_chars: int, deadline: float) -> str | None:
    """The explore envelope from the daemon serving ``root``, or None (no daemon, another version, busy
    past ``deadline`` (a ``time.monotonic()`` value), an error result). Never starts anything."""
    folder = root / index_info.DIR_NAME
    if not (folder / "daemon.pid").exists():
        return None  # no daemon holds the lock: nothing to ask, and nothing to import
    from codegraph.mcp import wire

    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    try:
        near = folder / "daemon.sock"
        if near.exists():  # the usual place; codegraph.paths (dataclasses, hashlib…) only for the other
            sock, _, reader = wire.connect(near, timeout=remaining)
        else:
            from codegraph.paths import ProjectPaths

            sock, _, reader = wire.connect_project(ProjectPaths(root.resolve()), timeout=remaining)
    except (OSError, ValueError, wire.VersionMismatch):
        return None
    try:
        request = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "codegraph_explore",
                "arguments": {"query": query[:10_000], "maxChars": max(MIN_ENVELOPE, min(max_chars, 25_000))},
            },
        }
        wire.send(sock, request)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            sock.settimeout(remaining)
            line = reader.readline()
            if not line:
                return None
            message = json.loads(line)
            if isinstance(message, dict) and message.get("id") == 1:
                break
    except (OSError, ValueError):
        return None
    finally:
        reader.close()
        sock.close()
    result = message.get("result")
    if not isinstance(result, dict) or result.get("isError"):
        return None
    texts = [c.get("text", "") for c in result.get("content") or [] if isinstance(c, dict)]
    text = "\n".join(t for t in texts if isinstance(t, str)).strip()
    return text or None


def decide(envelope: str | None, event: str, *, max_chars: int = DEFAULT_MAX_CHARS) -> dict | None:
    """Pure: the hook's response for an explore ``envelope`` (None or a no-match answer: nothing).
    ``event`` is the client's event name (``UserPromptSubmit`` or ``BeforeAgent``)."""
    if not envelope or envelope.startswith(NO_MATCH_PREFIX) or NO_MATCH_PREFIX in envelope[:400]:
        return None
    text = f"{NOTE}\n\n{envelope}"
    if len(text) > max_chars:  # explore fits its budget; this is only a guard, cut at a line end
        cut = text.rfind("\n", 0, max_chars - 40)
        text = text[: cut if cut > 0 else max_chars - 40] + "\n… (cut at the prompt hook's size limit)"
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def run(payload: dict) -> dict | None:
    """Gather (index lookup, daemon call within the wait budget) and decide."""
    started = time.monotonic()
    if os.environ.get("CODEGRAPH_NO_PROMPT_HOOK") == "1":
        return None
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return None
    event = "BeforeAgent" if payload.get("hook_event_name") == "BeforeAgent" else "UserPromptSubmit"
    cwd = payload.get("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
    root = index_info.find_root(cwd)
    if root is None or not matches(root, prompt):
        return None
    max_chars = int(_float_env("CODEGRAPH_PROMPT_HOOK_MAX_CHARS", DEFAULT_MAX_CHARS))
    deadline = started + _float_env("CODEGRAPH_PROMPT_HOOK_WAIT", DEFAULT_WAIT)
    envelope = ask_daemon(root, prompt, max_chars - len(NOTE) - 2, deadline)
    return decide(envelope, event, max_chars=max_chars)
