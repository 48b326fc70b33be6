"""Read-only facts about a project's index, with the standard library only (sqlite3, os).

Hooks run on every tool call: no tree-sitter, no codegraph core imports, one read-only SQLite
connection (``mode=ro`` URI) with a short busy timeout, so a re-index in progress never blocks them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

DIR_NAME = ".codegraph"
DB_NAME = "codegraph.db"


def find_root(start: str | os.PathLike[str]) -> Path | None:
    """The nearest directory at or above ``start`` holding ``.codegraph/codegraph.db``, or None."""
    here = Path(os.path.abspath(start))
    for candidate in (here, *here.parents):
        if (candidate / DIR_NAME / DB_NAME).is_file():
            return candidate
    return None


def connect(root: Path) -> sqlite3.Connection:
    """A read-only connection to the root's index (raises sqlite3.Error when it cannot open)."""
    db = root / DIR_NAME / DB_NAME
    uri_path = str(db).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    conn = sqlite3.connect(f"file:{uri_path}?mode=ro", uri=True, timeout=0.2)
    conn.execute("PRAGMA query_only = 1")
    return conn


def index_mtime(root: Path) -> float:
    """When the index was last written (the database or its WAL, whichever is newer)."""
    base = root / DIR_NAME / DB_NAME
    times = []
    for path in (base, base.with_name(DB_NAME + "-wal")):
        try:
            times.append(path.stat().st_mtime)
        except OSError:
            pass
    return max(times, default=0.0)


def _seconds(value) -> float | None:
    """A stored modification time as seconds: accepts seconds, milliseconds or nanoseconds."""
    if not isinstance(value, (int, float)):
        return None
    value = float(value)
    if value > 1e17:
        return value / 1e9
    if value > 1e11:
        return value / 1e3
    return value


class IndexState:
    """Index facts for the session-start line. ``changed`` lists indexed files whose size or mtime differ
    on disk (or are gone), capped; ``age`` is seconds since the index last changed. (A plain class, not a
    dataclass: importing dataclasses costs the hook ~5 ms on every call.)"""

    __slots__ = ("root", "files", "changed", "age", "indexing", "progress")

    def __init__(
        self,
        root: Path,
        files: int = 0,
        changed: list[str] | None = None,
        age: float = 0.0,
        indexing: bool = False,
        progress: str = "",
    ):
        self.root = root
        self.files = files
        self.changed = changed or []
        self.age = age
        self.indexing = indexing
        self.progress = progress  # "done/total" of a running background index, when it says


def running_index(root: Path) -> tuple[bool, str]:
    """Whether a live index run holds ``.codegraph/index.lock`` (``{"pid", ...}``; a dead pid is a stale
    lock) and its progress ``"done/total"`` from ``index.progress`` when present."""
    folder = root / DIR_NAME
    try:
        pid = int(json.loads((folder / "index.lock").read_text())["pid"])
        os.kill(pid, 0)
    except PermissionError:
        pass  # alive, someone else's
    except (OSError, ValueError, KeyError, TypeError):
        return False, ""
    try:
        progress = json.loads((folder / "index.progress").read_text())
        return True, f"{int(progress['done'])}/{int(progress['total'])}"
    except (OSError, ValueError, KeyError, TypeError):
        return True, ""


def last_changed(conn: sqlite3.Connection) -> float | None:
    """When the index's content last changed (seconds since the epoch), from what the writer stores:
    the newest ``project_metadata.updated_at`` (every write that changes the index sets it) or
    ``files.indexed_at``. None when neither table says (then the file's mtime is all there is).

    Not the database file's mtime: a no-change sync, or any connection opened while none was (the
    daemon's), leaves a fresh ``-wal`` file, and the line said "updated just now" (issue 9)."""
    newest = None
    for sql in ("SELECT MAX(updated_at) FROM project_metadata", "SELECT MAX(indexed_at) FROM files"):
        try:
            value = _seconds(conn.execute(sql).fetchone()[0])
        except sqlite3.Error:
            continue
        if value is not None and (newest is None or value > newest):
            newest = value
    return newest


def index_state(root: Path, cap: int = 20) -> IndexState:
    """Stat every indexed file against the size and mtime stored at index time (≈10 µs a file)."""
    written = index_mtime(root)
    state = IndexState(root, age=max(0.0, time.time() - written))
    state.indexing, state.progress = running_index(root)
    conn = connect(root)
    try:
        changed_at = last_changed(conn)
        if changed_at is not None:
            state.age = max(0.0, time.time() - changed_at)
        try:
            rows = conn.execute("SELECT path, size, modified_at FROM files").fetchall()
        except sqlite3.OperationalError:
            rows = [(p, None, None) for (p,) in conn.execute("SELECT path FROM files")]
    except sqlite3.Error:
        rows = []  # no files table yet: an index being created
    finally:
        conn.close()
    state.files = len(rows)
    for path, size, modified in rows:
        try:
            st = os.stat(root / path)
        except OSError:
            state.changed.append(path)
        else:
            mtime = _seconds(modified)
            if mtime is None:
                stale = st.st_mtime > written
            else:
                stale = abs(st.st_mtime - mtime) > 1.0 or (isinstance(size, int) and size != st.st_size)
            if stale:
                state.changed.append(path)
        if len(state.changed) >= cap:
            break
    return state


def is_indexed(root: Path, relative: str) -> bool:
    conn = connect(root)
    try:
        return conn.execute("SELECT 1 FROM files WHERE path = ?", (relative,)).fetchone() is not None
    finally:
        conn.close()


# Types first, then functions, then methods: the names that best say what a file is about.
SYMBOL_RANK = {
    "class": 0,
    "interface": 0,
    "struct": 0,
    "enum": 0,
    "trait": 0,
    "type": 0,
    "type_alias": 0,
    "module": 0,
    "function": 1,
    "method": 2,
}


def symbols(root: Path, relative: str, limit: int = 8) -> list[str]:
    """Up to ``limit`` symbol names defined in the file, types first (best effort: empty when the nodes
    table differs)."""
    try:
        conn = connect(root)
        try:
            rows = conn.execute(
                "SELECT name, kind FROM nodes WHERE file_path = ? LIMIT 2000", (relative,)
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []
    ranked = sorted(
        (SYMBOL_RANK[str(kind).lower()], i, str(name))
        for i, (name, kind) in enumerate(rows)
        if name and str(kind).lower() in SYMBOL_RANK
    )
    names: list[str] = []
    for _, _, name in ranked:
        if name not in names:
            names.append(name)
        if len(names) >= limit:
            break
    return names
