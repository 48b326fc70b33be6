"""Opening the index: WAL, a busy timeout, and the schema checked or created.

Every connection is its own; readers never share one with the writer, so a reader sees the last
committed index while a re-index runs (WAL snapshot isolation).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from codegraph.errors import IndexMissing, IndexUnreadable
from codegraph.store.schema import INDEXES, SCHEMA_VERSION, TABLES, TRIGGERS

BUSY_TIMEOUT_MS = 10_000


class NewerSchema(sqlite3.DatabaseError):
    """The index was written by a newer tool: never rebuilt over, never moved aside."""


def _now_ms() -> int:
    return int(time.time() * 1000)


def connect_writer(db: Path) -> sqlite3.Connection:
    """A read-write connection, creating the database and schema when absent.

    Raises:
        IndexUnreadable: the file is not SQLite, or its schema is newer than we understand.
    """
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA cache_size = -65536")
        _ensure_schema(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        corrupt = not isinstance(exc, NewerSchema) and any(
            m in str(exc) for m in ("malformed", "not a database", "file is encrypted")
        )
        raise IndexUnreadable(f"{db} is not a readable codegraph index: {exc}", corrupt=corrupt) from exc
    return conn


def rollback_journal(conn: sqlite3.Connection) -> bool:
    """Switch ``conn``'s database from WAL to a rollback journal (``DELETE``, fully synced) for a
    cold fill; returns False, leaving WAL, when another connection has the file open.

    A fill of an empty database in WAL writes every page twice: into the WAL, then into the file at
    the checkpoint. A rollback journal holds only the pages that existed before (a fresh index has
    a few), so the new pages are written once; a crash still rolls the whole transaction back.
    :func:`wal_journal` switches back after the commit.
    """
    conn.execute("PRAGMA busy_timeout = 0")  # a reader holding the file open: stay in WAL, at once
    try:
        mode = conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
    except sqlite3.OperationalError:
        return False
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if mode != "delete":
        return False
    conn.execute("PRAGMA synchronous = FULL")
    return True


def wal_journal(conn: sqlite3.Connection) -> None:
    """Back to the journal every connection expects (WAL, ``synchronous = NORMAL``)."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


def refused(db: Path) -> str | None:
    """Why this process may not open ``db`` (or its ``-wal``/``-shm``) for reading (``Permission
    denied``), or None. SQLite says only "unable to open database file", which read as damage: a
    query by a user who could not read another user's index moved it aside and rebuilt it."""
    for path in (db, db.with_name(f"{db.name}-wal"), db.with_name(f"{db.name}-shm")):
        try:
            with open(path, "rb"):
                pass
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"{exc.strerror or exc} ({path.name})"
    return None


def damage(db: Path) -> str | None:
    """What is wrong with the database file ``db`` as SQLite sees it, or None when it is sound.

    Runs ``PRAGMA quick_check`` (≈1.5 ms per MB, measured on a 170 MB index: 0.25 s); a file that does
    not open as SQLite at all is damaged too. A sound file of a newer schema is not damage. Returns the
    first problem SQLite reports, on one line.
    """
    if not db.is_file() or refused(db) is not None:
        return None  # a file this user may not read is not evidence of damage: it is left alone
    try:
        conn = sqlite3.connect(f"file:{quote(os.fsencode(db))}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc) or "readonly" in str(exc):
            return None  # not evidence of damage
        return str(exc)
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        conn.close()
    first = rows[0][0] if rows else "ok"
    if first == "ok":
        return None
    lines = [ln.strip() for ln in str(first).splitlines() if ln.strip() and not ln.startswith("***")]
    return lines[0] if lines else str(first).strip()


def _file_facts(db: Path) -> list[int] | None:
    try:
        st = os.stat(db)
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def known_sound(db: Path) -> bool:
    """Whether ``db`` is, byte for byte, a file known to be sound: the one a ``quick_check`` passed
    or a sound file's writer left (:func:`record_sound`), or absent (it will be created).

    A ``quick_check`` of Django's 46 MB index took 0.1 s, a third of a no-change ``sync`` (issue 12).
    Any write to the file since changes its ctime, which no program can set back (``utime`` sets it to
    now), so damage written into it (issue 9's case) is not mistaken for the sound file — unless it
    is written within the same timestamp tick (a few ms) as the record; a query that reads damage
    finds it then (``codegraph.index.repair``).
    """
    facts = _file_facts(db)
    if facts is None:
        return True
    try:
        return json.loads(_sound_record(db).read_text()) == facts
    except (OSError, ValueError):
        return False


def record_sound(db: Path) -> None:
    """Remember ``db`` as it is now as sound (after a passing ``quick_check``, or after writing it when
    it was known sound before); a failure to write the record only costs the next check."""
    facts = _file_facts(db)
    record = _sound_record(db)
    with contextlib.suppress(OSError, ValueError):
        if json.loads(record.read_text()) == facts:  # a no-change sync: the record stands (issue 12)
            return
    tmp = record.with_name(f"{record.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(facts))
        os.replace(tmp, record)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _sound_record(db: Path) -> Path:
    return db.with_name(f"{db.name}.sound")


def move_aside(db: Path) -> Path:
    """Rename a corrupt database (and its -wal/-shm) out of the way; returns the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = db.with_name(f"{db.name}.corrupt-{stamp}")
    n = 1
    while target.exists():  # two in one second: never replace an earlier damaged file
        n += 1
        target = db.with_name(f"{db.name}.corrupt-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(db) + suffix)
        if src.exists():
            os.replace(src, Path(str(target) + suffix))
    return target


def connect_reader(db: Path) -> sqlite3.Connection:
    """A read-only connection to an existing index.

    Raises:
        IndexMissing: no database file.
        IndexUnreadable: not SQLite, or no ``nodes`` table, or a newer schema.
    """
    if not db.is_file():
        raise IndexMissing(f"No index at {db}. Run `codegraph init` in the project first.")
    uri = f"file:{quote(os.fsencode(db))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        version = _schema_version(conn)
    except sqlite3.OperationalError as exc:
        conn.close()
        if os.access(db.parent, os.W_OK):
            raise IndexUnreadable(f"{db} is not a readable codegraph index: {exc}") from exc
        # a WAL database in a read-only folder cannot get its -shm file: read it as an immutable snapshot
        conn = sqlite3.connect(
            f"file:{quote(os.fsencode(db))}?immutable=1",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
        )
        try:
            version = _schema_version(conn)
        except sqlite3.DatabaseError as exc2:
            conn.close()
            raise IndexUnreadable(f"{db} is not a readable codegraph index: {exc2}") from exc2
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise IndexUnreadable(
            f"{db} is not a readable codegraph index: {exc} (`codegraph index` rebuilds it)"
        ) from exc
    if version is None:
        conn.close()
        raise IndexUnreadable(f"{db} has no codegraph schema; run `codegraph index` to rebuild it.")
    if version > SCHEMA_VERSION:
        conn.close()
        raise IndexUnreadable(
            f"{db} uses schema version {version}, newer than this codegraph understands ({SCHEMA_VERSION})."
        )
    conn.row_factory = sqlite3.Row
    return conn


def _schema_version(conn: sqlite3.Connection) -> int | None:
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_versions'").fetchone()
    if not has:
        return None
    row = conn.execute("SELECT MAX(version) FROM schema_versions").fetchone()
    return row[0] if row and row[0] is not None else None


def _ensure_schema(conn: sqlite3.Connection) -> None:
    version = _schema_version(conn)
    if version is not None and version > SCHEMA_VERSION:
        raise NewerSchema(f"schema version {version} is newer than supported ({SCHEMA_VERSION})")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for script in (TABLES, INDEXES, TRIGGERS):
            for statement in _statements(script):
                conn.execute(statement)
        columns = {r[1] for r in conn.execute("PRAGMA table_info(cgpy_skipped)")}
        for column in ("size", "mtime_ns"):  # added after the first release of the table
            if column not in columns:
                conn.execute(f"ALTER TABLE cgpy_skipped ADD COLUMN {column} INTEGER")
        if version is None:
            now = _now_ms()
            conn.execute("INSERT OR IGNORE INTO schema_versions VALUES (1, ?, 'Initial schema')", (now,))
            conn.execute(
                "INSERT OR IGNORE INTO schema_versions VALUES (?, ?, 'Initial schema includes all migrations')",
                (SCHEMA_VERSION, now),
            )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """Split a DDL script into whole statements (trigger bodies hold inner semicolons)."""
    out, buf = [], []
    for line in script.strip().splitlines():
        buf.append(line)
        joined = "\n".join(buf).strip()
        if joined.endswith(";") and sqlite3.complete_statement(joined):
            out.append(joined)
            buf = []
    return out


def unresolved_by_language(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """Per language ``{"unresolved": n, "likely_internal": m}`` as the last index run recorded them
    (metadata ``cgpy_unresolved``); {} when absent or unreadable."""
    row = conn.execute("SELECT value FROM project_metadata WHERE key = 'cgpy_unresolved'").fetchone()
    try:
        value = json.loads(row[0]) if row and row[0] else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
