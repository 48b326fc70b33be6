"""Answering over a damaged index (issue 9): a query that fails with an SQLite error checks the file
(``PRAGMA quick_check``); when it is damaged, the file is moved aside, the index rebuilt and the query
run again. The CLI and the MCP server both read through :func:`read_repairing`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from codegraph.errors import IndexUnreadable
from codegraph.paths import ProjectPaths, find_root
from codegraph.store.db import damage, move_aside, refused
from codegraph.store.reader import Reader

T = TypeVar("T")


def read_repairing(
    start: str | Path | None, run: Callable[[Reader], T], *, on_wait=None
) -> tuple[T, str | None]:
    """``run(reader)`` over the index of the project at or above ``start``.

    Args:
        on_wait: passed to the index lock when a rebuild has to wait for another index run.

    Returns:
        ``(result, repaired)``: ``repaired`` is None, or one line saying the index was damaged, where
        the damaged file now is, and that it was rebuilt.

    Raises:
        IndexMissing: no index at or above ``start``.
        IndexUnreadable: the index can't be read and is not damaged (e.g. a newer schema), or an SQLite
            error that the integrity check does not explain (message on one line).
    """
    try:
        with Reader(start) as reader:
            return run(reader), None
    except (sqlite3.DatabaseError, IndexUnreadable) as exc:
        paths = find_root(start)
        reason = damage(paths.db)
        if reason is None:
            if (denied := refused(paths.db)) is not None:
                raise IndexUnreadable(f"cannot read the index {paths.db}: {denied}") from exc
            if isinstance(exc, IndexUnreadable):
                raise
            raise IndexUnreadable(f"{paths.db}: {exc}") from exc
    moved = rebuild(paths, on_wait=on_wait)
    note = f"The index was damaged ({reason}); it was rebuilt from the source files" + (
        f" and the damaged file kept as {moved.name}." if moved else " by another index run."
    )
    with Reader(paths) as reader:
        return run(reader), note


def rebuild(paths: ProjectPaths, *, on_wait=None) -> Path | None:
    """Move a damaged database aside and build the index again (under the index lock). Returns where
    the damaged file went (None: another run had repaired it meanwhile)."""
    from codegraph.index.background import index_lock
    from codegraph.index.indexer import index_project

    with index_lock(paths, on_wait=on_wait):
        if not damage(paths.db):
            return None
        moved = move_aside(paths.db)
        index_project(paths, full=True)
    return moved
