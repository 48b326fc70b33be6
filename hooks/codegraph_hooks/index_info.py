"""Read-only facts about a project's index, with the standard library only (sqlite3, os).

Hooks run on every tool call: no tree-sitter, no codegraph core imports, one read-only SQLite
connection (``mode=ro`` URI) with a short busy timeout, so a re-index in progress never blocks them.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

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
    conn = sqlite3.connect(f"file:{quote(str(db))}?mode=ro", uri=True, timeout=0.2)
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


@dataclass
class IndexState:
    """Index facts for the session-start line. ``changed`` lists indexed files whose size or mtime differ
    on disk (or are gone), capped; ``age`` is seconds since the index was written."""

    root: Path
    files: int = 0
    changed: list[str] = field(default_factory=list)
    age: float = 0.0
    indexing: bool = False


def index_state(root: Path, cap: int = 20) -> IndexState:
    """Stat every indexed file against the size and mtime stored at index time (≈10 µs a file)."""
    state = IndexState(root, age=max(0.0, time.time() - index_mtime(root)))
    state.indexing = (root / DIR_NAME / "index.lock").exists()
    written = time.time() - state.age
    conn = connect(root)
    try:
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


SYMBOL_KINDS = {"class", "function", "method", "interface", "struct", "enum", "trait", "type", "module"}


def symbols(root: Path, relative: str, limit: int = 8) -> list[str]:
    """A few symbol names defined in the file (best effort: empty when the nodes table differs)."""
    try:
        with connect(root) as conn:
            rows = conn.execute(
                "SELECT name, kind FROM nodes WHERE file_path = ? LIMIT 400", (relative,)
            ).fetchall()
        conn.close()
    except sqlite3.Error:
        return []
    names: list[str] = []
    for name, kind in rows:
        if str(kind).lower() in SYMBOL_KINDS and name and name not in names:
            names.append(str(name))
        if len(names) >= limit:
            break
    return names
