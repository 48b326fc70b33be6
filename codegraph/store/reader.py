"""All reads of the index. The query layer talks to a :class:`Reader`, never to SQL."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from codegraph.model import Node
from codegraph.paths import ProjectPaths, find_root
from codegraph.store.db import connect_reader

_NODE_COLS = (
    "id, kind, name, qualified_name, file_path, language, start_line, end_line, start_column, end_column, "
    "docstring, signature, visibility, is_exported, is_async, is_static, is_abstract, decorators, "
    "type_parameters, return_type"
)
CALL_KINDS = ("calls", "instantiates")
_FTS_TOKEN = re.compile(r"[A-Za-z0-9_]+")


def _node(row) -> Node:
    return Node(
        id=row[0],
        kind=row[1],
        name=row[2],
        qualified_name=row[3],
        file_path=row[4],
        language=row[5],
        start_line=row[6],
        end_line=row[7],
        start_column=row[8],
        end_column=row[9],
        docstring=row[10],
        signature=row[11],
        visibility=row[12],
        is_exported=bool(row[13]),
        is_async=bool(row[14]),
        is_static=bool(row[15]),
        is_abstract=bool(row[16]),
        decorators=json.loads(row[17]) if row[17] else None,
        type_parameters=json.loads(row[18]) if row[18] else None,
        return_type=row[19],
    )


class EdgeRow(NamedTuple):
    """One edge as the query layer reads it: node ids, the kind (calls, instantiates, extends…) and
    the 1-based line of the reference (None for contains)."""

    source: str
    target: str
    kind: str
    line: int | None


class RelationRow(NamedTuple):
    """An edge with how sure the resolver was: ``confidence`` 0–1 and ``resolved_by`` (how it was
    resolved), None where the index does not say (the reference CLI's)."""

    source: str
    target: str
    kind: str
    line: int | None
    confidence: float | None
    resolved_by: str | None


class Reader:
    """Read-only view of one project's index.

    Raises (at construction):
        IndexMissing: no index at or above ``start``.
        IndexUnreadable: the database is not a readable index.
    """

    def __init__(self, start: str | Path | ProjectPaths | None = None):
        self.paths = start if isinstance(start, ProjectPaths) else find_root(start)
        self.root = self.paths.root
        self.conn: sqlite3.Connection = connect_reader(self.paths.db)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read inside sees one committed state of the index (a read transaction; WAL keeps it
        while a sync commits). Issue 12: a CLI answer read its symbols before a daemon's sync committed
        and the file records after, so it named the old symbol with the new edges and said nothing was
        stale. Nested use joins the outer snapshot."""
        if self.conn.in_transaction:
            yield
            return
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            if self.conn.in_transaction:
                self.conn.execute("COMMIT")  # nothing was written: ends the read transaction

    # ------------------------------------------------------------------ nodes
    def node(self, node_id: str) -> Node | None:
        row = self.conn.execute(f"SELECT {_NODE_COLS} FROM nodes WHERE id = ?", (node_id,)).fetchone()
        return _node(row) if row else None

    def nodes(self, ids: Iterable[str]) -> dict[str, Node]:
        ids = list(dict.fromkeys(ids))
        out: dict[str, Node] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            for row in self.conn.execute(
                f"SELECT {_NODE_COLS} FROM nodes WHERE id IN ({','.join('?' * len(chunk))})", chunk
            ):
                out[row[0]] = _node(row)
        return out

    def nodes_named(self, name: str, *, ignore_case: bool = False) -> list[Node]:
        """Symbols (not files or imports) whose simple name is ``name``."""
        sql = (
            f"SELECT {_NODE_COLS} FROM nodes WHERE {'lower(name) = lower(?)' if ignore_case else 'name = ?'} "
            "AND kind NOT IN ('file', 'import') ORDER BY file_path, start_line"
        )
        return [_node(r) for r in self.conn.execute(sql, (name,))]

    def file_symbols(self, path: str) -> list[Node]:
        """Symbols defined in one file, in source order (no file or import nodes)."""
        return [
            _node(r)
            for r in self.conn.execute(
                f"SELECT {_NODE_COLS} FROM nodes WHERE file_path = ? AND kind NOT IN ('file', 'import') "
                "ORDER BY start_line, start_column",
                (path,),
            )
        ]

    def file_kinds(self, path: str) -> set[str]:
        """The kinds of the symbols one file defines (no file or import nodes)."""
        return {
            r[0]
            for r in self.conn.execute(
                "SELECT DISTINCT kind FROM nodes WHERE file_path = ? AND kind NOT IN ('file', 'import')",
                (path,),
            )
        }

    def children(self, node_id: str) -> list[Node]:
        ids = [
            r[0]
            for r in self.conn.execute(
                "SELECT target FROM edges WHERE source = ? AND kind = 'contains'", (node_id,)
            )
        ]
        found = self.nodes(ids)
        return sorted(found.values(), key=lambda n: (n.start_line, n.start_column))

    def parent(self, node_id: str) -> Node | None:
        row = self.conn.execute(
            "SELECT source FROM edges WHERE target = ? AND kind = 'contains' LIMIT 1", (node_id,)
        ).fetchone()
        return self.node(row[0]) if row else None

    def names_with_segment(self, segments: Iterable[str]) -> list[str]:
        """Symbol names that contain one of ``segments`` (lower-case) as a camelCase/snake_case word:
        ``metadata`` → ``readMetadata``, ``ObjectMetadata``, ``metadata_for``."""
        segs = list(dict.fromkeys(segments))
        if not segs:
            return []
        try:
            marks = ",".join("?" * len(segs))
            return [
                r[0]
                for r in self.conn.execute(
                    f"SELECT DISTINCT name FROM name_segment_vocab WHERE segment IN ({marks}) ORDER BY name",
                    segs,
                )
            ]
        except sqlite3.OperationalError:  # an index without the vocabulary table
            return []

    def has_name_segment(self, segment: str) -> bool:
        """Whether some symbol's name holds ``segment`` (lower-case) as a camelCase/snake_case word,
        or is it (``db`` → ``get_db``, ``DbPool``, ``db``)."""
        try:
            row = self.conn.execute(
                "SELECT 1 FROM name_segment_vocab WHERE segment = ? LIMIT 1", (segment,)
            ).fetchone()
        except sqlite3.OperationalError:  # an index without the vocabulary table
            return False
        return row is not None

    def segments_from(self, prefix: str) -> list[str]:
        """Distinct camelCase/snake_case name words (lower-case) that start with ``prefix``."""
        try:
            return [
                r[0]
                for r in self.conn.execute(
                    "SELECT DISTINCT segment FROM name_segment_vocab WHERE segment >= ? AND segment < ?",
                    (prefix, prefix + "\uffff"),
                )
            ]
        except sqlite3.OperationalError:  # an index without the vocabulary table
            return []

    def symbol_rows_named(self, names: Iterable[str]) -> list[tuple[str, str, str, str, str]]:
        """(id, kind, name, qualified_name, file_path) of the symbols (not files or imports) whose
        simple name is one of ``names``: a light row for scoring many candidates at once."""
        names = list(dict.fromkeys(names))
        out: list[tuple[str, str, str, str, str]] = []
        for i in range(0, len(names), 400):
            chunk = names[i : i + 400]
            out.extend(
                tuple(r)
                for r in self.conn.execute(
                    "SELECT id, kind, name, qualified_name, file_path FROM nodes "
                    f"WHERE name IN ({','.join('?' * len(chunk))}) AND kind NOT IN ('file', 'import')",
                    chunk,
                )
            )
        return out

    def docstring_rows(self, words: Iterable[str], *, prefix: bool, limit: int = 400):
        """(id, kind, name, qualified_name, file_path) of symbols whose docstring holds one of
        ``words`` (as a prefix when ``prefix``), via the full-text index; at most ``limit`` rows."""
        tokens = [t for w in words for t in _FTS_TOKEN.findall(w)]
        if not tokens:
            return []
        star = "*" if prefix else ""
        match = " OR ".join(f'docstring : "{t}"{star}' for t in dict.fromkeys(tokens))
        try:
            return [
                tuple(r)
                for r in self.conn.execute(
                    "SELECT n.id, n.kind, n.name, n.qualified_name, n.file_path FROM nodes_fts "
                    "JOIN nodes n ON n.rowid = nodes_fts.rowid WHERE nodes_fts MATCH ? "
                    "AND n.kind NOT IN ('file', 'import') LIMIT ?",
                    (match, limit),
                )
            ]
        except sqlite3.OperationalError:
            return []

    def all_names(self) -> list[str]:
        return [
            r[0]
            for r in self.conn.execute("SELECT DISTINCT name FROM nodes WHERE kind NOT IN ('file', 'import')")
        ]

    def search(self, text: str, *, kind: str | None = None, limit: int = 20) -> list[tuple[Node, float]]:
        """Full-text search over names, qualified names, docstrings and signatures (FTS5, bm25).

        Returns (node, score) pairs, best first; a higher score is better."""
        tokens = _FTS_TOKEN.findall(text)
        if not tokens:
            return []
        match = " OR ".join(f'"{t}"*' for t in tokens[:32])
        sql = (
            f"SELECT {', '.join('n.' + c.strip() for c in _NODE_COLS.split(','))}, "
            "bm25(nodes_fts, 0, 10.0, 4.0, 1.0, 1.0) AS rank "
            "FROM nodes_fts JOIN nodes n ON n.rowid = nodes_fts.rowid WHERE nodes_fts MATCH ? "
            "AND n.kind NOT IN ('file', 'import')"
        )
        args: list = [match]
        if kind:
            sql += " AND n.kind = ?"
            args.append(kind)
        sql += " ORDER BY rank LIMIT ?"
        args.append(limit)
        try:
            rows = self.conn.execute(sql, args).fetchall()
        except sqlite3.OperationalError:
            return []
        return [(_node(r[:20]), -r[20]) for r in rows]

    # ------------------------------------------------------------------ edges
    def incoming(self, node_ids: Iterable[str], kinds: Iterable[str]) -> list[EdgeRow]:
        """Edges into ``node_ids`` of the given kinds, ordered by source and line."""
        return self._edges("target", node_ids, kinds)

    def outgoing(self, node_ids: Iterable[str], kinds: Iterable[str]) -> list[EdgeRow]:
        """Edges out of ``node_ids`` of the given kinds, ordered by source and line."""
        return self._edges("source", node_ids, kinds)

    def relations(self, column: str, node_ids: Iterable[str], kinds: Iterable[str]) -> list[RelationRow]:
        """Edges whose ``column`` ("source" or "target") is one of ``node_ids``, with how sure the
        resolver was (confidence 0–1 and resolvedBy; None in an index the reference CLI wrote)."""
        ids = list(node_ids)
        kinds = list(kinds)
        out = []
        kmarks = ",".join("?" * len(kinds))
        for i in range(0, len(ids), 400):
            chunk = ids[i : i + 400]
            out.extend(
                self.conn.execute(
                    "SELECT source, target, kind, line,"
                    " CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.confidence') END,"
                    " CASE WHEN json_valid(metadata) THEN json_extract(metadata, '$.resolvedBy') END FROM edges"
                    f" WHERE {column} IN ({','.join('?' * len(chunk))}) AND kind IN ({kmarks})"
                    " ORDER BY source, line",
                    [*chunk, *kinds],
                ).fetchall()
            )
        return [RelationRow(*r) for r in out]

    def _edges(self, column: str, node_ids: Iterable[str], kinds: Iterable[str]):
        ids = list(node_ids)
        kinds = list(kinds)
        out = []
        kmarks = ",".join("?" * len(kinds))
        for i in range(0, len(ids), 400):
            chunk = ids[i : i + 400]
            out.extend(
                self.conn.execute(
                    f"SELECT source, target, kind, line FROM edges WHERE {column} IN ({','.join('?' * len(chunk))}) "
                    f"AND kind IN ({kmarks}) ORDER BY source, line",
                    [*chunk, *kinds],
                ).fetchall()
            )
        return [EdgeRow(*r) for r in out]

    def dependents(self, path: str) -> list[str]:
        """Files (other than ``path``) with an edge into any symbol of ``path`` or into the file itself."""
        rows = self.conn.execute(
            "SELECT DISTINCT s.file_path FROM nodes t JOIN edges e ON e.target = t.id "
            "JOIN nodes s ON s.id = e.source WHERE t.file_path = ? AND e.kind != 'contains' "
            "AND s.file_path != ? ORDER BY s.file_path",
            (path, path),
        )
        return [r[0] for r in rows]

    def file_dependencies(self) -> list[tuple[str, str]]:
        """(dependent file, file it depends on) pairs: a symbol of the first (or the file itself) has an
        edge other than ``contains`` into the second. Self-pairs are left out."""
        return [
            tuple(r)
            for r in self.conn.execute(
                "SELECT DISTINCT s.file_path, t.file_path FROM edges e JOIN nodes s ON s.id = e.source "
                "JOIN nodes t ON t.id = e.target WHERE e.kind != 'contains' AND s.file_path != t.file_path"
            )
        ]

    # ------------------------------------------------------------------ files
    def indexed_paths(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT path FROM files ORDER BY path")]

    def files(self) -> list[sqlite3.Row]:
        return self.conn.execute(
            "SELECT path, language, size, modified_at, node_count, content_hash FROM files ORDER BY path"
        ).fetchall()

    def file_record(self, path: str) -> sqlite3.Row | None:
        return self.conn.execute(
            "SELECT path, language, size, modified_at, node_count, content_hash FROM files WHERE path = ?",
            (path,),
        ).fetchone()

    def skipped(self) -> dict[str, str]:
        try:
            return {r[0]: r[1] for r in self.conn.execute("SELECT path, reason FROM cgpy_skipped")}
        except sqlite3.OperationalError:  # an index written by the reference CLI has no such table
            return {}

    @cached_property
    def file_count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM files").fetchone()[0]

    def metadata(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM project_metadata")}

    def counts(self) -> dict[str, int]:
        one = lambda sql: self.conn.execute(sql).fetchone()[0]  # noqa: E731
        return {
            "files": one("SELECT COUNT(*) FROM files"),
            "nodes": one("SELECT COUNT(*) FROM nodes"),
            "edges": one("SELECT COUNT(*) FROM edges"),
            "unresolved": one("SELECT COUNT(*) FROM unresolved_refs"),
        }

    def unresolved_by_kind(self) -> dict[str, int]:
        """Unresolved references per reference kind (calls, imports, extends…), most first."""
        return {
            r[0]: r[1]
            for r in self.conn.execute(
                "SELECT reference_kind, COUNT(*) FROM unresolved_refs GROUP BY reference_kind ORDER BY 2 DESC, 1"
            )
        }

    def partial_files(self) -> dict[str, dict]:
        """Per language, the files indexed with syntax errors (extraction is partial there):
        ``{"count": n, "example": path}``."""
        out: dict[str, dict] = {}
        for language, path in self.conn.execute(
            "SELECT language, path FROM files WHERE errors IS NOT NULL AND errors != '' ORDER BY language, path"
        ):
            entry = out.setdefault(language, {"count": 0, "example": path})
            entry["count"] += 1
        return out

    def languages(self) -> dict[str, int]:
        return {
            r[0]: r[1]
            for r in self.conn.execute(
                "SELECT language, COUNT(*) FROM files GROUP BY language ORDER BY 2 DESC"
            )
        }
