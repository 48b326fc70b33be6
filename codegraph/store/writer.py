"""All writes to the index. One transaction per index run: a reader sees the old index or the new one,
never half of each, and a crash (even kill -9) mid-run leaves the last committed index."""

from __future__ import annotations

import contextlib
import json
import marshal
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codegraph.store.db import rollback_journal, wal_journal

if TYPE_CHECKING:  # annotations only: a no-change sync imports this module but not the model (issue 12)
    from codegraph.model import Edge, FileExtraction, Node, Ref

_SEGMENT = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+")


def name_segments(name: str) -> set[str]:
    """Lower-case words of an identifier: ``getHTTPResponse_code`` → {get, http, response, code}.
    ``findall`` (the pattern has no group: whole matches) makes no match objects: a cold index of
    django-sdist splits 32,000 names, 0.25 → 0.11 s of CPU before its resolution starts."""
    return {s.lower() for s in _SEGMENT.findall(name) if len(s) > 1}


@dataclass(slots=True)
class ParsedFile:
    """A file whose extraction is new in this run (parsed, not taken from the cache)."""

    path: str
    size: int
    mtime_ns: int
    content_hash: str
    language: str
    data: bytes  # encoded extraction (cache row)
    extraction: FileExtraction
    interface: bytes  # encoded interface (cgpy_interface row)
    mentions: str | bytes  # encoded mentions (cgpy_mentions row: incremental.encode_mentions)


def now_ms() -> int:
    return int(time.time() * 1000)


def load_cache(conn: sqlite3.Connection) -> dict[str, tuple[int, int]]:
    """path → (size, mtime_ns) of every cached extraction (from ``idx_cgpy_extract_cache_stat``)."""
    return {r[0]: (r[1], r[2]) for r in conn.execute("SELECT path, size, mtime_ns FROM cgpy_extract_cache")}


def cached_hash(conn: sqlite3.Connection, path: str) -> str | None:
    """The content hash (sha256 hex) ``path``'s cached extraction was made from, or None without one."""
    row = conn.execute("SELECT content_hash FROM cgpy_extract_cache WHERE path = ?", (path,)).fetchone()
    return row[0] if row else None


def load_cached_data(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, bytes]:
    wanted = set(paths)
    return {r[0]: r[1] for r in conn.execute("SELECT path, data FROM cgpy_extract_cache") if r[0] in wanted}


def indexed_languages(conn: sqlite3.Connection) -> dict[str, str]:
    """path → language label of every indexed file (``files``)."""
    return dict(conn.execute("SELECT path, language FROM files"))


def set_metadata(conn: sqlite3.Connection, values: dict[str, object]) -> None:
    ts = now_ms()
    conn.executemany(
        "INSERT INTO project_metadata(key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        [(k, v if isinstance(v, str) else json.dumps(v), ts) for k, v in values.items()],
    )


def _node_row(n: Node, ts: int) -> tuple:
    return (
        n.id,
        n.kind,
        n.name,
        n.qualified_name,
        n.file_path,
        n.language,
        n.start_line,
        n.end_line,
        n.start_column,
        n.end_column,
        n.docstring,
        n.signature,
        n.visibility,
        int(n.is_exported),
        int(n.is_async),
        int(n.is_static),
        int(n.is_abstract),
        json.dumps(n.decorators) if n.decorators else None,
        json.dumps(n.type_parameters) if n.type_parameters else None,
        n.return_type,
        ts,
    )


_ESCAPE = json.encoder.encode_basestring_ascii  # the C string encoder json.dumps itself uses


def _meta_json(meta: dict | None) -> str | None:
    """``json.dumps(meta, separators=(",", ":"))``, byte for byte, for the resolver's flat metadata
    dicts (str/float/bool values) — a sync writes tens of thousands, and this is 5x faster."""
    if not meta:
        return None
    parts = []
    for key, value in meta.items():
        if isinstance(value, str):
            parts.append(f"{_ESCAPE(key)}:{_ESCAPE(value)}")
        elif isinstance(value, bool) or value is None or not isinstance(value, (int, float)):
            return json.dumps(meta, separators=(",", ":"))
        else:
            parts.append(f"{_ESCAPE(key)}:{value!r}")
    return "{" + ",".join(parts) + "}"


def _replace_edges(conn: sqlite3.Connection, edges: list[Edge]) -> None:
    """Make the edges table equal ``edges``, touching only rows that differ (a one-file edit changes
    a handful of edges; rewriting all of them was most of a sync's time)."""
    if conn.execute("SELECT 1 FROM edges LIMIT 1").fetchone() is None:
        _fill_edges(conn, edges)
        return
    wanted: dict[tuple, str | None] = {}
    for e in edges:
        wanted.setdefault(_edge_key(e), _meta_json(e.metadata))
    stale = []
    for row_id, source, target, kind, line, col, meta in conn.execute(
        "SELECT id, source, target, kind, IFNULL(line, -1), IFNULL(col, -1), metadata FROM edges"
    ):
        key = (source, target, kind, line, col)
        if key in wanted and wanted[key] == meta:
            del wanted[key]  # unchanged: keep the row
        else:
            stale.append((row_id,))
    conn.executemany("DELETE FROM edges WHERE id = ?", stale)
    conn.executemany(
        _EDGE_SQL,
        [
            (s, t, k, meta, None if line == -1 else line, None if col == -1 else col)
            for (s, t, k, line, col), meta in wanted.items()
        ],
    )


def _fill_edges(conn: sqlite3.Connection, edges: list[Edge]) -> None:
    """Fill the empty edges table without a diff; from BULK_ROWS on, its indexes are built once
    afterwards (the identity index's key is the one :func:`_edge_rows` deduplicates by, so rebuilding
    it cannot meet a duplicate)."""
    rows = _edge_rows(edges)
    indexes = _suspend_indexes(conn, "edges") if len(rows) >= BULK_ROWS else []
    conn.executemany(_EDGE_SQL, rows)
    for sql in indexes:
        conn.execute(sql)


def _suspend_indexes(conn: sqlite3.Connection, table: str) -> list[str]:
    """Drop ``table``'s own indexes (not the automatic ones); returns their SQL to recreate them."""
    rows = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
        (table,),
    ).fetchall()
    for name, _ in rows:
        conn.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in rows]


def _replace_unresolved(conn: sqlite3.Connection, unresolved: list[tuple[Ref, str, str]]) -> None:
    wanted = {(r.source, r.name, r.kind, r.line, r.col, path, lang) for r, path, lang in unresolved}
    stale = []
    for row_id, *key in conn.execute(
        "SELECT id, from_node_id, reference_name, reference_kind, line, col, "
        "file_path, language FROM unresolved_refs"
    ):
        key = tuple(key)
        if key in wanted:
            wanted.discard(key)
        else:
            stale.append((row_id,))
    conn.executemany("DELETE FROM unresolved_refs WHERE id = ?", stale)
    empty = conn.execute("SELECT 1 FROM unresolved_refs LIMIT 1").fetchone() is None
    indexes = _suspend_indexes(conn, "unresolved_refs") if empty and len(wanted) >= BULK_ROWS else []
    conn.executemany(_UNRESOLVED_SQL, [(*key, key[1].rsplit(".", 1)[-1]) for key in sorted(wanted)])
    for sql in indexes:
        conn.execute(sql)


def _delete_paths(conn: sqlite3.Connection, table: str, paths: list[str]) -> None:
    for i in range(0, len(paths), 500):
        chunk = paths[i : i + 500]
        conn.execute(f"DELETE FROM {table} WHERE path IN ({','.join('?' * len(chunk))})", chunk)


def _edge_key(e: Edge) -> tuple:
    return (
        e.source,
        e.target,
        e.kind,
        e.line if e.line is not None else -1,
        e.col if e.col is not None else -1,
    )


def _replace_edges_of(conn: sqlite3.Connection, paths: list[str], edges: list[Edge]) -> None:
    """Make the edges whose source is a node of ``paths`` (as the nodes table holds them now) equal
    ``edges``: reads only those rows (by ``idx_nodes_file_path`` and ``idx_edges_source_kind``)."""
    wanted: dict[tuple, str | None] = {}
    for e in edges:
        wanted.setdefault(_edge_key(e), _meta_json(e.metadata))
    stale = []
    for i in range(0, len(paths), 500):
        chunk = paths[i : i + 500]
        rows = conn.execute(
            "SELECT id, source, target, kind, IFNULL(line, -1), IFNULL(col, -1), metadata FROM edges "
            f"WHERE source IN (SELECT id FROM nodes WHERE file_path IN ({','.join('?' * len(chunk))}))",
            chunk,
        )
        for row_id, source, target, kind, line, col, meta in rows:
            key = (source, target, kind, line, col)
            if key in wanted and wanted[key] == meta:
                del wanted[key]
            else:
                stale.append((row_id,))
    conn.executemany("DELETE FROM edges WHERE id = ?", stale)
    # an edge whose key another file's row already holds (never expected: sources are per file)
    conn.executemany(
        "INSERT OR REPLACE INTO edges(source, target, kind, metadata, line, col) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (s, t, k, meta, None if line == -1 else line, None if col == -1 else col)
            for (s, t, k, line, col), meta in wanted.items()
        ],
    )


def _replace_unresolved_of(
    conn: sqlite3.Connection, paths: list[str], unresolved: list[tuple[Ref, str, str]]
) -> None:
    """Make the unresolved references of ``paths`` equal ``unresolved`` (by ``idx_unresolved_file_path``)."""
    wanted = {(r.source, r.name, r.kind, r.line, r.col, path, lang) for r, path, lang in unresolved}
    stale = []
    for i in range(0, len(paths), 500):
        chunk = paths[i : i + 500]
        for row_id, *key in conn.execute(
            "SELECT id, from_node_id, reference_name, reference_kind, line, col, file_path, language "
            f"FROM unresolved_refs WHERE file_path IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            key = tuple(key)
            if key in wanted:
                wanted.discard(key)
            else:
                stale.append((row_id,))
    conn.executemany("DELETE FROM unresolved_refs WHERE id = ?", stale)
    conn.executemany(_UNRESOLVED_SQL, [(*key, key[1].rsplit(".", 1)[-1]) for key in sorted(wanted)])


def load_mentions(conn: sqlite3.Connection) -> dict[str, str | bytes]:
    """path → encoded mentions of every file (``cgpy_mentions``)."""
    return dict(conn.execute("SELECT path, data FROM cgpy_mentions"))


MENTION_WORDS_PER_QUERY = 200  # words one :func:`mentioning` statement looks for


def mentioning(conn: sqlite3.Connection, words: set[str]) -> Iterator[tuple[str, str | bytes]]:
    """(path, encoded mentions) of the ``cgpy_mentions`` rows that may mention one of ``words``:
    every row holding one as a substring, and every row of the older zlib encoding (issue 12: SQLite
    scans 100,000 files' rows in 0.1 s, where decoding each in Python took 0.75 s). The caller
    checks each row's words (:func:`codegraph.index.incremental.mentions_any`)."""
    ordered = sorted(words)
    seen: set[str] = set()
    for i in range(0, len(ordered), MENTION_WORDS_PER_QUERY):
        batch = ordered[i : i + MENTION_WORDS_PER_QUERY]
        found = " OR ".join(["instr(data, ?) > 0"] * len(batch))
        for path, data in conn.execute(
            f"SELECT path, data FROM cgpy_mentions WHERE typeof(data) != 'text' OR {found}", batch
        ):
            if path not in seen:
                seen.add(path)
                yield path, data


def load_interfaces(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, bytes]:
    """path → encoded interface (``cgpy_interface``) of those of ``paths`` that have one."""
    wanted = set(paths)
    return {
        path: data for path, data in conn.execute("SELECT path, data FROM cgpy_interface") if path in wanted
    }


def resolved_links(conn: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """path → linked files of each file the last runs resolved that has any (``cgpy_resolved``)."""
    rows = conn.execute("SELECT path, linked FROM cgpy_resolved WHERE linked IS NOT NULL AND linked != ''")
    return {path: tuple(json.loads(linked)) for path, linked in rows}


def all_resolved(conn: sqlite3.Connection) -> bool:
    """Whether every indexed file has a ``cgpy_resolved`` row (what its last resolution left)."""
    missing = "SELECT 1 FROM files WHERE NOT EXISTS (SELECT 1 FROM cgpy_resolved r WHERE r.path = files.path)"
    return conn.execute(f"{missing} LIMIT 1").fetchone() is None


def load_cached_rows(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, bytes]:
    """path → cached extraction data of just ``paths`` (by the primary key)."""
    paths = sorted(set(paths))
    out: dict[str, bytes] = {}
    for i in range(0, len(paths), 500):
        chunk = paths[i : i + 500]
        out.update(
            conn.execute(
                f"SELECT path, data FROM cgpy_extract_cache WHERE path IN ({','.join('?' * len(chunk))})",
                chunk,
            )
        )
    return out


BULK_FTS_ROWS = 5_000  # new nodes from which full-text rows are rebuilt once instead of by triggers
# Rows from which a write into an empty table (a cold index) builds its indexes, and for nodes the
# full-text rows, once afterwards: measured on flask (2,558 nodes, 4,274 edges), write_index 0.35 ->
# 0.27 s against 5,000 rows (median of 3); the fixtures' few rows keep the per-row path.
BULK_ROWS = 500


def _suspend_fts_triggers(conn: sqlite3.Connection) -> list[str]:
    """Drop the triggers that keep ``nodes_fts`` in step with ``nodes``; returns their SQL to restore."""
    rows = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'nodes' ORDER BY name"
    ).fetchall()
    for name, _ in rows:
        conn.execute(f'DROP TRIGGER "{name}"')
    return [sql for _, sql in rows]


def write_index(
    conn: sqlite3.Connection,
    *,
    parsed: list[ParsedFile],
    removed: Iterable[str],
    edges: list[Edge],
    unresolved: list[tuple[Ref, str, str]],
    skipped: dict[str, str],
    metadata: dict[str, object],
    skip_stats: dict[str, tuple[int, int]] | None = None,
    resolved: Iterable[str] | None = None,
    per_file: dict[str, tuple[str, int, int, tuple[str, ...]]] | None = None,
    mentions: dict[str, str | bytes] | None = None,
    interfaces: dict[str, bytes] | None = None,
) -> None:
    """Replace the rows of changed and removed files and the edges and unresolved references, in
    one transaction.

    Args:
        resolved: the files whose references ``edges`` and ``unresolved`` hold (an incremental
            resolution, issue 12): only the rows those files and the removed ones made are diffed.
            None: ``edges`` and ``unresolved`` are the whole project's.
        per_file: ``Resolution.per_file`` of the same files: their unresolved counts (summed into
            the ``cgpy_unresolved`` metadata) and linked files.
        mentions: path → encoded :func:`codegraph.index.incremental.mentions` of parsed files.
        interfaces: path → encoded :func:`codegraph.index.incremental.interface` of parsed files.
    """
    ts = now_ms()
    new_nodes = sum(len(p.extraction.nodes) for p in parsed)
    if resolved is None and new_nodes >= BULK_ROWS and _empty(conn):
        journal = rollback_journal(conn)
        try:
            _write_first(
                conn,
                ts,
                parsed,
                edges,
                unresolved,
                skipped,
                metadata,
                skip_stats,
                per_file,
                mentions,
                interfaces,
            )
        except BaseException:
            if journal:  # the first error is the one to report (a removed folder fails this too)
                with contextlib.suppress(sqlite3.Error):
                    wal_journal(conn)
            raise
        if journal:
            wal_journal(conn)
        return
    _write_changes(
        conn,
        ts,
        parsed,
        list(removed),
        edges,
        unresolved,
        skipped,
        metadata,
        skip_stats,
        resolved,
        per_file,
        mentions,
        interfaces,
    )


def _write_changes(
    conn,
    ts,
    parsed,
    removed,
    edges,
    unresolved,
    skipped,
    metadata,
    skip_stats,
    resolved,
    per_file,
    mentions,
    interfaces,
) -> None:
    """:func:`write_index` into an index that has rows: each table diffed, or the rows of changed files
    replaced."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if resolved is None:
            _replace_edges(conn, edges)
            _replace_unresolved(conn, unresolved)
            conn.execute("DELETE FROM cgpy_resolved")
        else:
            # before the nodes of changed files are replaced: their old ids find their old edges
            made_by = sorted(set(resolved) | set(removed))
            _replace_edges_of(conn, made_by, edges)
            _replace_unresolved_of(conn, made_by, unresolved)
            _delete_paths(conn, "cgpy_resolved", made_by)
        # Many new nodes (a big sync): full-text rows are built once at the end instead of by a trigger
        # per row (measured on go/x/tools, 20,817 nodes: 2.76 s with the triggers, 0.38 s dropped +
        # rebuilt). The triggers come back in the same transaction, so the file the reference CLI reads
        # always has them.
        new_nodes = sum(len(p.extraction.nodes) for p in parsed)
        filling = conn.execute("SELECT 1 FROM nodes LIMIT 1").fetchone() is None and new_nodes >= BULK_ROWS
        triggers = _suspend_fts_triggers(conn) if new_nodes >= BULK_FTS_ROWS or filling else []
        stale = list(removed) + [p.path for p in parsed]
        stale_names: set[str] = set()  # the names a deleted node had: the vocabulary rows that may go
        for i in range(0, len(stale), 500):
            chunk = stale[i : i + 500]
            marks = ",".join("?" * len(chunk))
            stale_names.update(
                r[0]
                for r in conn.execute(f"SELECT DISTINCT name FROM nodes WHERE file_path IN ({marks})", chunk)
            )
            conn.execute(f"DELETE FROM nodes WHERE file_path IN ({marks})", chunk)
            conn.execute(f"DELETE FROM files WHERE path IN ({marks})", chunk)
            conn.execute(f"DELETE FROM cgpy_extract_cache WHERE path IN ({marks})", chunk)
        # Filling an empty nodes table: its seven secondary indexes are built once after the rows
        # instead of updated per row, in the same transaction.
        node_indexes = _suspend_indexes(conn, "nodes") if filling else []
        _insert_files(conn, parsed, ts)
        for sql in node_indexes:
            conn.execute(sql)
        _delete_paths(conn, "cgpy_interface", stale)
        _delete_paths(conn, "cgpy_mentions", stale)
        _insert_blobs(conn, interfaces, mentions, per_file)
        conn.executemany(_VOCAB_SQL, _vocab_rows(parsed))
        _prune_vocab(conn, stale_names)
        _finish(conn, skipped, skip_stats, metadata)
        if triggers:
            conn.execute("INSERT INTO nodes_fts(nodes_fts) VALUES ('rebuild')")
            for sql in triggers:
                conn.execute(sql)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _write_first(
    conn, ts, parsed, edges, unresolved, skipped, metadata, skip_stats, per_file, mentions, interfaces
) -> None:
    """:func:`write_index` into an empty index (a cold index): each table's rows built in one pass and
    inserted without its indexes or the full-text triggers, which are built once afterwards, in the
    same transaction (nothing to diff, nothing to delete)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        triggers, indexes = _fill_files(conn, ts, parsed, mentions, interfaces)
        _fill_indexes(conn, indexes)
        _fill_resolution(
            conn,
            _edge_rows(edges),
            _unresolved_rows(unresolved),
            skipped,
            metadata,
            skip_stats,
            per_file,
            triggers,
        )
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _fill_files(conn, ts, parsed, mentions, interfaces) -> tuple[list[str], list[str]]:
    """The first half of :func:`_write_first`, inside its transaction: the rows that need no
    resolution (nodes, files, extraction cache, interface, mentions, name vocabulary), inserted with
    the nodes' indexes and the full-text triggers dropped. Returns the SQL of both, for
    :func:`_fill_indexes` and :func:`_fill_resolution` to restore."""
    triggers = _suspend_fts_triggers(conn)
    indexes = _suspend_indexes(conn, "nodes")
    _add_files(conn, ts, parsed, mentions, interfaces)
    return triggers, indexes


def _add_files(conn, ts, parsed, mentions, interfaces) -> None:
    """:func:`_fill_files`'s rows of ``parsed`` (one batch of a fill whose batches come in path order)."""
    _insert_files(conn, parsed, ts)
    _insert_blobs(conn, interfaces, mentions, None)
    conn.executemany(_VOCAB_SQL, _vocab_rows(parsed))


def _fill_indexes(conn, indexes: list[str]) -> None:
    """The nodes' indexes, the vocabulary pruned, the full-text index built: a few long statements,
    each of which SQLite runs without the GIL (so a thread can do them while Python resolves)."""
    for sql in indexes:
        conn.execute(sql)
    conn.execute(_VOCAB_PRUNE_SQL)  # a node id two files made: the first one's name may be gone
    conn.execute("INSERT INTO nodes_fts(nodes_fts) VALUES ('rebuild')")


def _fill_resolution(
    conn, edge_rows, unresolved_rows, skipped, metadata, skip_stats, per_file, triggers, spilled=None
) -> None:
    """The second half of :func:`_write_first`: the edges and unresolved references (rows as
    :func:`_edge_rows` and :func:`_unresolved_rows` make them; any iterable; or, with ``spilled``, a
    :class:`_Spill`'s) and the per-file resolution rows with their indexes, the skipped files and
    metadata, the full-text triggers back; then the commit."""
    for table in ("edges", "unresolved_refs"):
        indexes = _suspend_indexes(conn, table)
        if spilled is not None:
            spilled.insert(conn, table)
        elif table == "edges":
            conn.executemany(_EDGE_SQL, edge_rows)
        else:
            conn.executemany(_UNRESOLVED_SQL, unresolved_rows)
        for sql in indexes:
            try:
                conn.execute(sql)
            except sqlite3.IntegrityError:  # spilled edges of one identity: keep the first, as _edge_rows
                if spilled is None or table != "edges":
                    raise
                _drop_later_duplicates(conn)
                conn.execute(sql)
    _insert_blobs(conn, None, None, per_file)
    _finish(conn, skipped, skip_stats, metadata)
    for sql in triggers:
        conn.execute(sql)
    conn.execute("COMMIT")


def _drop_later_duplicates(conn: sqlite3.Connection) -> None:
    """Keep the first edge of each identity (``idx_edges_identity``'s key) and number the rest from
    1 again, in order: the rows :func:`_edge_rows` would have given."""
    conn.execute(
        "DELETE FROM edges WHERE id NOT IN (SELECT MIN(id) FROM edges "
        "GROUP BY source, target, kind, IFNULL(line, -1), IFNULL(col, -1))"
    )
    conn.execute(
        "CREATE TEMP TABLE cg_kept AS SELECT source, target, kind, metadata, line, col FROM edges ORDER BY id"
    )
    conn.execute("DELETE FROM edges")
    conn.execute("UPDATE sqlite_sequence SET seq = 0 WHERE name = 'edges'")
    conn.execute(
        "INSERT INTO edges(source, target, kind, metadata, line, col) "
        "SELECT source, target, kind, metadata, line, col FROM cg_kept ORDER BY rowid"
    )
    conn.execute("DROP TABLE cg_kept")


SPILL_ROWS = 20_000  # rows a _Spill gathers before it writes them to its file


class _Spill:
    """The edges and unresolved references of a resolution, as rows, in a temporary file (marshal
    chunks) instead of in memory (issue 12): :meth:`take` is ``resolve``'s sink; :meth:`insert` puts
    them into the tables in the order the lists would have had, unresolved ones sorted and distinct."""

    def __init__(self) -> None:
        import tempfile  # here: a sync that writes nothing need not import it (issue 12)

        self._file = tempfile.TemporaryFile(prefix="codegraph-spill-")
        self._edges: list[tuple] = []
        self._unresolved: list[tuple] = []

    def take(self, edges: list[Edge], unresolved: list[tuple[Ref, str, str]]) -> None:
        self._edges.extend((e.source, e.target, e.kind, _meta_json(e.metadata), e.line, e.col) for e in edges)
        self._unresolved.extend(
            (r.source, r.name, r.kind, r.line, r.col, path, lang, r.name.rsplit(".", 1)[-1])
            for r, path, lang in unresolved
        )
        if len(self._edges) + len(self._unresolved) >= SPILL_ROWS:
            self._write()

    def _write(self) -> None:
        marshal.dump((self._edges, self._unresolved), self._file)
        self._edges, self._unresolved = [], []

    def _chunks(self):
        self._write()
        self._file.seek(0)
        while True:
            try:
                yield marshal.load(self._file)
            except EOFError:
                return

    def insert(self, conn: sqlite3.Connection, table: str) -> None:
        if table == "edges":
            for edges, _ in self._chunks():
                conn.executemany(_EDGE_SQL, edges)
            return
        conn.execute("CREATE TEMP TABLE cg_unresolved(s, n, k, l, c, p, g, t)")
        for _, unresolved in self._chunks():
            conn.executemany("INSERT INTO cg_unresolved VALUES (?, ?, ?, ?, ?, ?, ?, ?)", unresolved)
        # SQLite's order of text (bytes of UTF-8) is Python's of str (code points): _unresolved_rows'
        conn.execute(
            "INSERT INTO unresolved_refs(from_node_id, reference_name, reference_kind, line, col, file_path, "
            "language, status, name_tail) SELECT DISTINCT s, n, k, l, c, p, g, 'failed', t FROM cg_unresolved "
            "ORDER BY s, n, k, l, c, p, g"
        )
        conn.execute("DROP TABLE cg_unresolved")

    def close(self) -> None:
        self._file.close()


class FirstWrite:
    """A cold index's write, begun before the caller resolves (issue 12): on django-sdist the write
    took 6.3 s after a 3.3 s resolution, both on one core while the other idled. The rows that need
    no resolution are inserted at once (:func:`_fill_files`); the nodes' indexes and the full-text
    index are then built on a thread (:func:`_fill_indexes`) while the caller resolves; :meth:`finish`
    waits for it and adds the resolution's rows (:func:`_fill_resolution`). One transaction, as
    :func:`_write_first`: a crash or :meth:`abort` leaves the index as it was (empty, ``index_state``
    unfinished), and the rows equal :func:`write_index`'s.

    Only statements that run long without the GIL go to the thread: the row inserts bind each row
    with the GIL held and give it up for each step, and beside a busy Python thread each such step
    waits out the interpreter's switch interval (inserting on the thread made go/x/tools' resolve +
    write slower, 17.7 → 23.9 s on a loaded machine). The connection belongs to the thread until
    :meth:`finish` or :meth:`abort`: the caller must not use it meanwhile.
    """

    def __init__(self, conn: sqlite3.Connection, *, spill: bool = False) -> None:
        """Begin the transaction, the nodes' indexes and the full-text triggers dropped; rows come
        with :meth:`add`, then :meth:`build_indexes`. ``spill``: SQLite's sorts (the index builds)
        and temporary tables go to files, not memory, till :meth:`finish` or :meth:`abort` (a very
        large index: the sorter of 3 million nodes' or 8 million edges' keys otherwise stays in RAM)."""
        self._conn = conn
        self._journal = rollback_journal(conn)
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._ts = now_ms()
        self._spill = spill
        self._spilled: _Spill | None = None
        try:
            if spill:
                conn.execute("PRAGMA temp_store = FILE")
            conn.execute("BEGIN IMMEDIATE")
            self._triggers = _suspend_fts_triggers(conn)
            self._indexes = _suspend_indexes(conn, "nodes")
        except BaseException:
            self._rollback()
            raise

    def add(
        self, parsed: list[ParsedFile], mentions: dict[str, str | bytes], interfaces: dict[str, bytes]
    ) -> None:
        """Insert the rows of ``parsed`` that need no resolution (as :func:`_fill_files`); calls
        must come in path order, so the rows are the ones a single call with every file makes.

        Raises:
            sqlite3.Error: the transaction is rolled back.
        """
        try:
            _add_files(self._conn, self._ts, parsed, mentions, interfaces)
        except BaseException:
            self._rollback()
            raise

    def sink(self) -> Callable[[list[Edge], list[tuple[Ref, str, str]]], None]:
        """A ``resolve`` sink that keeps the edges and unresolved references in a temporary file
        till :meth:`finish` (which then writes those, not its arguments')."""
        if self._spilled is None:
            self._spilled = _Spill()
        return self._spilled.take

    def build_indexes(self) -> None:
        """Start the thread that builds the nodes' indexes and the full-text index (every file added)."""
        self._thread = threading.Thread(
            target=self._run, args=(self._indexes,), name="codegraph-first-write", daemon=True
        )
        self._thread.start()

    def _run(self, indexes: list[str]) -> None:
        try:
            _fill_indexes(self._conn, indexes)
        except BaseException as exc:  # handed to finish(), which raises it in the caller's thread
            self._error = exc

    def finish(
        self,
        *,
        edges: list[Edge],
        unresolved: list[tuple[Ref, str, str]],
        skipped: dict[str, str],
        metadata: dict[str, object],
        skip_stats: dict[str, tuple[int, int]] | None = None,
        per_file: dict[str, tuple[str, int, int, tuple[str, ...]]] | None = None,
    ) -> None:
        """Write the resolution's rows and commit (the arguments as :func:`write_index`'s).

        Raises:
            sqlite3.Error: the thread's or this half's failure; the transaction is rolled back.
        """
        try:
            # built while the thread may still be inside SQLite (its index and full-text builds hold
            # no GIL): django-sdist's 175k edge rows take 0.4 s of CPU, its 100k unresolved rows 0.4 s
            edge_rows, unresolved_rows = _edge_rows(edges), _unresolved_rows(unresolved)
            if self._spilled is not None and (edge_rows or unresolved_rows):
                raise ValueError("rows both given and spilled")
        finally:
            if self._thread is not None:
                self._thread.join()
        try:
            if self._error is not None:
                raise self._error
            _fill_resolution(
                self._conn,
                edge_rows,
                unresolved_rows,
                skipped,
                metadata,
                skip_stats,
                per_file,
                self._triggers,
                self._spilled,
            )
        except BaseException:
            self._rollback()
            raise
        if self._journal:
            wal_journal(self._conn)
        self._unspill()

    def abort(self) -> None:
        """Stop the thread's statement, wait for it, roll back (the resolution failed or was
        interrupted); the connection is the caller's again."""
        if self._thread is not None:
            if self._thread.is_alive():
                self._conn.interrupt()
            self._thread.join()
        self._rollback()

    def _rollback(self) -> None:
        if self._conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
        if self._journal:  # the first error is the one to report (a removed folder fails this too)
            with contextlib.suppress(sqlite3.Error):
                wal_journal(self._conn)
            self._journal = False
        self._unspill()

    def _unspill(self) -> None:
        if self._spilled is not None:
            self._spilled.close()
            self._spilled = None
        if self._spill:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("PRAGMA temp_store = MEMORY")  # connect_writer's setting
            self._spill = False


def begin_first(
    conn: sqlite3.Connection, parsed: list[ParsedFile], mentions, interfaces
) -> FirstWrite | None:
    """A :class:`FirstWrite` when :func:`write_index` would fill an empty index (a first index of at
    least BULK_ROWS nodes), else None (write with :func:`write_index` after resolving)."""
    if sum(len(p.extraction.nodes) for p in parsed) < BULK_ROWS or not _empty(conn):
        return None
    first = FirstWrite(conn)
    first.add(parsed, mentions, interfaces)
    first.build_indexes()
    return first


def begin_streamed(conn: sqlite3.Connection) -> FirstWrite | None:
    """A :class:`FirstWrite` to :meth:`~FirstWrite.add` files to as they are parsed (issue 12: a
    100,000-file first index held every file's rows and blobs till the write), spilling SQLite's
    sorts to files; None when the index is not empty."""
    return FirstWrite(conn, spill=True) if _empty(conn) else None


_EDGE_SQL = "INSERT INTO edges(source, target, kind, metadata, line, col) VALUES (?, ?, ?, ?, ?, ?)"
_UNRESOLVED_SQL = (
    "INSERT INTO unresolved_refs(from_node_id, reference_name, reference_kind, line, col, file_path, "
    "language, status, name_tail) VALUES (?, ?, ?, ?, ?, ?, ?, 'failed', ?)"
)
_VOCAB_SQL = "INSERT OR IGNORE INTO name_segment_vocab(segment, name) VALUES (?, ?)"
# the node kinds whose names have no vocabulary rows (_vocab_rows): a name only they hold is gone
_UNNAMED_KINDS = ("file", "import")
_SYMBOL_KINDS_SQL = f"kind NOT IN {_UNNAMED_KINDS!r}"
_VOCAB_PRUNE_SQL = (
    f"DELETE FROM name_segment_vocab WHERE name NOT IN (SELECT name FROM nodes WHERE {_SYMBOL_KINDS_SQL})"
)


def _edge_rows(edges: list[Edge]) -> list[tuple]:
    """Rows of the first edge of each identity (``idx_edges_identity``'s key), in order."""
    seen: set[tuple] = set()
    rows = []
    for e in edges:
        key = _edge_key(e)
        if key not in seen:
            seen.add(key)
            rows.append((e.source, e.target, e.kind, _meta_json(e.metadata), e.line, e.col))
    return rows


def _unresolved_rows(unresolved: list[tuple[Ref, str, str]]) -> list[tuple]:
    """Rows of the distinct unresolved references, sorted (their ids follow that order)."""
    wanted = {(r.source, r.name, r.kind, r.line, r.col, path, lang) for r, path, lang in unresolved}
    return [(*key, key[1].rsplit(".", 1)[-1]) for key in sorted(wanted)]


def _prune_vocab(conn: sqlite3.Connection, names: set[str]) -> None:
    """Drop the vocabulary rows of those of ``names`` that no node but a file or import node has any
    more (``_VOCAB_PRUNE_SQL`` for a sync: only a deleted node's name can have gone, and its rows are
    found by their key; the whole-table statement took 7.8 s of a one-file sync of the Linux kernel,
    issue 12)."""
    held = f"SELECT 1 FROM nodes WHERE name = ? AND {_SYMBOL_KINDS_SQL} LIMIT 1"
    gone = sorted(n for n in names if conn.execute(held, (n,)).fetchone() is None)
    conn.executemany(
        "DELETE FROM name_segment_vocab WHERE segment = ? AND name = ?",
        [(segment, name) for name in gone for segment in sorted(name_segments(name))],
    )


def _vocab_rows(parsed: list[ParsedFile]) -> list[tuple[str, str]]:
    names = {n.name for p in parsed for n in p.extraction.nodes if n.kind not in _UNNAMED_KINDS}
    return [(seg, name) for name in names for seg in name_segments(name)]


def _insert_files(conn: sqlite3.Connection, parsed: list[ParsedFile], ts: int) -> None:
    """The nodes, ``files`` and extraction-cache rows of ``parsed`` (in order: node rowids follow it)."""
    conn.executemany(
        f"INSERT OR REPLACE INTO nodes VALUES ({','.join('?' * 21)})",
        [_node_row(n, ts) for p in parsed for n in p.extraction.nodes],
    )
    conn.executemany(
        "INSERT INTO files(path, content_hash, language, size, modified_at, indexed_at, node_count, errors, "
        "generated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
        [
            (
                p.path,
                p.content_hash,
                p.language,
                p.size,
                p.mtime_ns / 1e6,
                ts,
                len(p.extraction.nodes) - 1,
                json.dumps(p.extraction.errors) if p.extraction.errors else None,
            )
            for p in parsed
        ],
    )
    conn.executemany(
        "INSERT INTO cgpy_extract_cache VALUES (?, ?, ?, ?, ?)",
        [(p.path, p.size, p.mtime_ns, p.content_hash, p.data) for p in parsed],
    )


def _insert_blobs(conn: sqlite3.Connection, interfaces, mentions, per_file) -> None:
    """The ``cgpy_interface``, ``cgpy_mentions`` and ``cgpy_resolved`` rows (their old rows deleted)."""
    conn.executemany(
        "INSERT OR REPLACE INTO cgpy_interface(path, data) VALUES (?, ?)", sorted((interfaces or {}).items())
    )
    conn.executemany("INSERT INTO cgpy_mentions(path, data) VALUES (?, ?)", sorted((mentions or {}).items()))
    conn.executemany(
        "INSERT INTO cgpy_resolved(path, language, unresolved, likely_internal, linked) VALUES (?, ?, ?, ?, ?)",
        [
            (path, language, n, likely, json.dumps(list(linked)) if linked else None)
            for path, (language, n, likely, linked) in sorted((per_file or {}).items())
        ],
    )


def _finish(conn: sqlite3.Connection, skipped, skip_stats, metadata: dict[str, object]) -> None:
    """The skipped files and the metadata, with the unresolved totals summed from ``cgpy_resolved``."""
    totals: dict[str, dict[str, int]] = {}
    for language, n, likely in conn.execute(
        "SELECT language, SUM(unresolved), SUM(likely_internal) FROM cgpy_resolved "
        "GROUP BY language HAVING SUM(unresolved) > 0 ORDER BY language"
    ):
        totals[language] = {"unresolved": n, "likely_internal": likely}
    conn.execute("DELETE FROM cgpy_skipped")
    conn.executemany(
        "INSERT INTO cgpy_skipped(path, reason, size, mtime_ns) VALUES (?, ?, ?, ?)",
        [
            (path, reason, *(skip_stats or {}).get(path, (None, None)))
            for path, reason in sorted(skipped.items())
        ],
    )
    set_metadata(conn, {**metadata, "cgpy_unresolved": totals})


_FILLED = (
    "nodes",
    "edges",
    "unresolved_refs",
    "files",
    "cgpy_extract_cache",
    "cgpy_interface",
    "cgpy_mentions",
    "cgpy_resolved",
    "name_segment_vocab",
)


def _empty(conn: sqlite3.Connection) -> bool:
    """Whether every table :func:`_write_first` fills without deleting first is empty (a first index)."""
    found = conn.execute(" UNION ALL ".join(f"SELECT 1 FROM (SELECT 1 FROM {t} LIMIT 1)" for t in _FILLED))
    return found.fetchone() is None
