"""Point reads of the last index for a sync that resolves lazily (issue 12): which file holds a node,
which files define a name, one file's interface. Every answer is about the index as the last run left
it: the caller overlays what this run changed."""

from __future__ import annotations

import sqlite3


class ProjectIndex:
    """Lookups by key into the stored index, each one query by an indexed column."""

    def __init__(self, conn: sqlite3.Connection):
        self._conn = conn

    def file_of(self, node_id: str) -> str | None:
        """The file that held node ``node_id`` (the primary key), or None when no file did."""
        row = self._conn.execute("SELECT file_path FROM nodes WHERE id = ?", (node_id,)).fetchone()
        return row[0] if row else None

    def files_naming(self, name: str) -> list[str]:
        """The files with a node named ``name`` (any kind, any nesting: a superset of the files
        defining it at the top), by ``idx_nodes_name``."""
        return self._files_where("name", name)

    def files_qualifying(self, qualified_name: str) -> list[str]:
        """The files with a node of qualified name ``qualified_name`` (any kind), by
        ``idx_nodes_qualified_name``."""
        return self._files_where("qualified_name", qualified_name)

    def _files_where(self, column: str, value: str) -> list[str]:
        sql = f"SELECT DISTINCT file_path FROM nodes WHERE {column} = ?"  # column: one of the two above
        return [r[0] for r in self._conn.execute(sql, (value,))]

    def interface(self, path: str) -> bytes | None:
        """The encoded interface row (``cgpy_interface``) of ``path``, or None when it has none."""
        row = self._conn.execute("SELECT data FROM cgpy_interface WHERE path = ?", (path,)).fetchone()
        return row[0] if row else None

    def interface_count(self) -> int:
        return self._conn.execute("SELECT COUNT(*) FROM cgpy_interface").fetchone()[0]

    def mention_paths(self) -> set[str]:
        """The paths that have recorded mentions (``cgpy_mentions``), without reading them."""
        return {r[0] for r in self._conn.execute("SELECT path FROM cgpy_mentions")}
