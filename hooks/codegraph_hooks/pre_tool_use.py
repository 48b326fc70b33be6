"""PreToolUse (narrow, advisory): when the agent Reads a source file the index holds, and it pays,
add a note that ``codegraph_explore`` can answer structure questions about it in one call.

It pays when the file is large (default > 300 lines) or the session already Read several indexed files
(default 3). Config, docs, lock files, unindexed and new files: nothing. Never ``deny``, never exit 2:
blocking made agents slower and they routed around it (issue 5).
"""

from __future__ import annotations

import os
import time
import zlib
from pathlib import Path

from codegraph_hooks import index_info

NOT_SOURCE = {
    ".md",
    ".mdx",
    ".rst",
    ".txt",
    ".json",
    ".jsonc",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".lock",
    ".xml",
    ".csv",
    ".tsv",
    ".env",
    ".properties",
    ".svg",
    ".html",
    ".css",
    ".sql",
    ".log",
}
NOT_SOURCE_NAMES = {
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "Cargo.lock",
    "go.sum",
    "uv.lock",
    "Gemfile.lock",
    "composer.lock",
    "Dockerfile",
    "Makefile",
}


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


class FileFacts:
    """What the hook learned about the target file: its path relative to the root, line count, a few
    symbols, and how many distinct indexed files this session had Read before it."""

    __slots__ = ("relative", "lines", "symbols", "earlier_reads")

    def __init__(self, relative: str, lines: int, symbols: tuple[str, ...], earlier_reads: int):
        self.relative, self.lines, self.symbols, self.earlier_reads = relative, lines, symbols, earlier_reads


def target_path(payload: dict) -> str | None:
    """The file a Read or Gemini's ``read_file`` (``file_path``) or Grep (``path``, when it names a file)
    is about."""
    tool = payload.get("tool_name")
    args = payload.get("tool_input") or {}
    if not isinstance(args, dict):
        return None
    if tool in ("Read", "read_file"):
        path = args.get("file_path")
    elif tool == "Grep":
        path = args.get("path")
    else:
        return None
    if not isinstance(path, str) or not path:
        return None
    if not os.path.isabs(path):
        path = os.path.join(payload.get("cwd") or os.getcwd(), path)
    return path


def looks_like_source(path: str) -> bool:
    name = os.path.basename(path)
    return name not in NOT_SOURCE_NAMES and os.path.splitext(name)[1].lower() not in NOT_SOURCE


def decide(
    payload: dict, facts: FileFacts | None, *, min_lines: int = 300, min_reads: int = 3
) -> dict | None:
    """Pure: the response for this tool call (None: print nothing)."""
    if facts is None:
        return None
    if facts.lines <= min_lines and facts.earlier_reads < min_reads:
        return None
    why = (
        f"{facts.lines} lines"
        if facts.lines > min_lines
        else f"{facts.earlier_reads + 1} indexed files read so far"
    )
    defines = f"; it defines {', '.join(facts.symbols)}" if facts.symbols else ""
    node = ""
    tools = os.environ.get("CODEGRAPH_MCP_TOOLS", "")
    if "node" in tools or tools.strip().lower() == "all":
        node = " or codegraph_node for one symbol's source"
    text = (
        f"codegraph: {facts.relative} is in the code index ({why}{defines}). For where things are defined, "
        f"what calls them or what a change affects, codegraph_explore (mention {facts.relative}){node} "
        "answers in one call with exact lines, usually cheaper than reading whole files."
    )
    # Gemini CLI runs this as an AfterTool hook (its BeforeTool cannot add context): echo its event name
    event = "AfterTool" if payload.get("hook_event_name") == "AfterTool" else "PreToolUse"
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


COUNTER_MAX_AGE = 2 * 86400  # seconds; older session counters are removed when a new session starts one


def _counter_file(session_id: str) -> Path:
    # Not tempfile/hashlib: their imports cost the hook ~15 ms on every call.
    tmp = os.environ.get("TMPDIR") or os.environ.get("TEMP") or "/tmp"
    folder = Path(tmp) / f"codegraph-hooks-{os.getuid() if hasattr(os, 'getuid') else 0}"
    folder.mkdir(mode=0o700, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in session_id)[:80] or "none"
    path = folder / f"{safe}-{zlib.crc32(session_id.encode()):08x}.reads"
    if not path.exists():
        _prune(folder)
    return path


def _prune(folder: Path) -> None:
    cutoff = time.time() - COUNTER_MAX_AGE
    for old in folder.glob("*.reads"):
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            pass


def record_read(session_id: str, key: str) -> int:
    """Add ``key`` to the session's set of Read files; returns how many distinct files were there before."""
    path = _counter_file(session_id)
    try:
        seen = set(path.read_text(encoding="utf-8").splitlines())
    except OSError:
        seen = set()
    earlier = len(seen - {key})
    if key not in seen:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(key + "\n")
    return earlier


def _count_lines(path: str) -> int:
    lines = 0
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            lines += chunk.count(b"\n")
    return lines


def gather(payload: dict) -> FileFacts | None:
    """I/O: the facts ``decide`` needs, or None when the call is not about an indexed source file."""
    path = target_path(payload)
    if path is None or not looks_like_source(path) or not os.path.isfile(path):
        return None
    root = index_info.find_root(os.path.dirname(path))
    if root is None:
        return None
    relative = Path(os.path.realpath(path)).relative_to(os.path.realpath(root)).as_posix()
    if not index_info.is_indexed(root, relative):
        return None
    earlier = record_read(str(payload.get("session_id") or "none"), f"{root}:{relative}")
    return FileFacts(relative, _count_lines(path), tuple(index_info.symbols(root, relative)), earlier)


def run(payload: dict) -> dict | None:
    return decide(
        payload,
        gather(payload),
        min_lines=_int_env("CODEGRAPH_HOOK_MIN_LINES", 300),
        min_reads=_int_env("CODEGRAPH_HOOK_MIN_READS", 3),
    )
