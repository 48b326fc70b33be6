"""Index orchestration: discover → extract (cached per file, in worker processes) → resolve → store.

An unchanged file (same size and mtime; with ``verify_hash`` the same sha256) is not re-read or
re-parsed: its extraction comes from the cache. Name resolution is global (a new definition can take
over references in other files), so after a change ``codegraph.index.incremental`` works out which
files' references can answer differently and only those are re-resolved, against the whole project
(issue 12); a change too big for that, or one it cannot bound, re-resolves everything. When nothing
changed at all, resolution would reproduce the stored edges exactly, so the run stops after the
comparison.
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import itertools
import json
import marshal
import os
import sqlite3
import stat
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial

from codegraph import __version__
from codegraph.config import load_config
from codegraph.errors import IndexLost, IndexUnreadable, ProjectDirMissing, ProjectDirUnusable
from codegraph.index import incremental
from codegraph.index.discover import (
    DEFAULT_MAX_BYTES,
    RACY_COARSE_NS,
    RACY_NS,
    Discovery,
    SourceFile,
    content_skip_reason,
    discover,
    load_listings,
    outside_git,
    restat,
    save_listings,
)
from codegraph.paths import GITIGNORE_TEXT, ProjectPaths, plural, quote_path, read_regular, skip_count
from codegraph.store import writer
from codegraph.store.db import (
    connect_writer,
    damage,
    known_sound,
    move_aside,
    record_sound,
    refused,
    unresolved_by_language,
)
from codegraph.store.schema import CACHE_VERSION, EXTRACTION_VERSION

PARALLEL_MIN_FILES = 40
PARSE_CHUNK = 8  # files a worker takes at a time
# A first index of this many files writes each file's rows as it is parsed instead of holding them
# till the write (issue 12); a smaller one writes them after the parse, as django's figures were measured
STREAM_MIN_FILES = 5_000
CONTENT_SKIPS = frozenset({"binary", "minified"})  # reasons that hold until the file changes
# Decoded extractions kept by long-lived processes (the daemon's watcher): path → (size, mtime_ns,
# extraction). An extraction is a pure function of a file's bytes, so an entry stays valid as long as
# size and mtime match the cache row being reused.
_MEMO: dict[str, tuple[int, int, object]] = {}
_MENTIONS: dict[str, tuple[int, int, frozenset[str]]] = {}  # the same, for incremental.mentions
# The last discovery of each root in this process, with the rules it applied (memo runs only): a
# sync told which files alone changed since re-stats them instead (``index_project(changed=…)``).
_DISCOVERED: dict[str, tuple[tuple, Discovery]] = {}
# Past this many files the daemon keeps no decoded extractions or mentions (issue 12): on a
# 100,000-file monorepo, decoding them all as it started took 162 s and 4.6 GB, and a sync with
# lazy tables and the mentions searched in SQL needs none of them.
MEMO_MAX_FILES = 10_000
# An incremental sync re-resolves at most this share of the files (or this many); beyond, resolving
# everything costs about the same and needs no bookkeeping.
INCREMENTAL_MAX_SHARE = 0.5
INCREMENTAL_MIN_FILES = 50
# An incremental sync fills the resolver's tables as lookups reach files (codegraph.index.lazy) when
# every language present allows it; off, it decodes every file's interface first (the eager tables).
LAZY_TABLES = True
# A full resolution of at least this many files (and fewer than STREAM_MIN_FILES: a forked helper
# copies the parent's heap page by page as reference counts change, past the memory budget of a
# 100,000-file index) is shared with a forked helper process (codegraph.index.fork, issue 12).
# Below it the fork and the merge cost about what the helper saves.
FORK_MIN_FILES = 400
# ... and only when the parse workers just got more than one core between them (their CPU seconds
# per second of the pool's life): on a machine whose other work leaves this process tree about one
# core, the helper only takes the parent's share. Measured 18:13 under load 7-8 on 2 cores (the
# kernel's autogroups share the CPU per session): workers 0.33 cores, and a forked resolve + write
# of django-sdist took 13.3 s against 7.1 s alone; quiet, 2 workers parse ~1.7x as fast as one.
FORK_MIN_CORES = 1.25


@dataclass
class IndexSummary:
    """What one index run did. Times are seconds."""

    root: str
    files: int = 0
    parsed: int = 0
    reused: int = 0
    removed: int = 0
    nodes: int = 0
    edges: int = 0
    unresolved: int = 0
    unresolved_likely_internal: int = 0
    # wall seconds per phase of this run: discover, parse (read + extract, in workers), load (cached
    # extractions of unchanged files), resolve, write (one transaction)
    phases: dict[str, float] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)  # reason → skipped entries (files, folders)
    skipped_folders: dict[str, int] = field(default_factory=dict)  # reason → how many are folders
    seconds: float = 0.0
    changed: bool = True
    repaired: str | None = None  # a damaged database was moved aside and the index rebuilt
    # which resolution ran (issue 12): {"mode": "incremental" | "full", "files": files re-resolved,
    # "references": references resolved, "reason": why a sync resolved everything, "helper_files":
    # how many of the files a forked helper resolved, when one did (codegraph.index.fork)}
    resolution: dict[str, object] = field(default_factory=dict)
    # manifest path → why it was not read (a truncated tsconfig.json…): resolution went on without it
    manifest_problems: dict[str, str] = field(default_factory=dict)
    # the resolver's lookup tables of an incremental sync (issue 12): {"path": "lazy"} (filled as
    # lookups reach files, codegraph.index.lazy) or {"path": "eager", "reason": why not lazy}
    tables: dict[str, str] = field(default_factory=dict)
    # the .gitignore rules that left out the most entries, "`PATTERN` in DIR/.gitignore" → directories
    # and files of an indexed kind (at most IGNORED_SHOWN, most first; Discovery.ignored)
    ignored: dict[str, int] = field(default_factory=dict)

    def warnings(self) -> list[str]:
        """One line per manifest the run could not read (a silent ``@lib/*`` that stops resolving
        was only visible in ``codegraph status`` before), and one when nothing was indexed."""
        lines = [
            f"warning: {path} not read ({why}): resolution goes on without it"
            for path, why in sorted(self.manifest_problems.items())
        ]
        if self.files == 0:
            reason = empty_reason(self.root, self.ignored, self.skipped, self.skipped_folders)
            lines.append(f"warning: {reason}")
        return lines

    def line(self) -> str:
        skipped = _skips(self.skipped, self.skipped_folders) or "none"
        verb = "indexed" if self.changed else "up to date"
        return (f"{self.repaired}; " if self.repaired else "") + (
            f"{verb}: {plural(self.files, 'file')} ({self.parsed} parsed, {self.reused} unchanged, "
            f"{self.removed} removed), {plural(self.nodes, 'node')}, {plural(self.edges, 'edge')}, "
            f"{plural(self.unresolved, 'unresolved reference')} "
            f"({self.unresolved_likely_internal} likely internal); "
            f"skipped: {skipped}; {self.seconds:.2f}s"
        )


IGNORED_SHOWN = 10  # .gitignore rules a summary and the index's metadata name


def top_ignored(ignored: dict[str, int]) -> dict[str, int]:
    """The IGNORED_SHOWN rules of ``ignored`` (``Discovery.ignored``) that left out the most entries."""
    return dict(sorted(ignored.items(), key=lambda item: (-item[1], item[0]))[:IGNORED_SHOWN])


def skip_reasons(skipped: Mapping[str, str]) -> dict[str, dict]:
    """Skipped path → reason, tallied by reason (its text before `` (``): ``{"count": entries,
    "example": the first path, "folders": how many entries are folders}``, ``folders`` only when
    some are (a build output or vendored folder left out whole, an unreadable one)."""
    reasons: dict[str, dict] = {}
    for path, why in sorted(skipped.items()):
        entry = reasons.setdefault(why.split(" (", 1)[0], {"count": 0, "example": path})
        entry["count"] += 1
        if path.endswith("/"):
            entry["folders"] = entry.get("folders", 0) + 1
    return reasons


def _skips(skipped: dict[str, int], folders: dict[str, int]) -> str:
    """``"1 file (secret file), 2 folders (ignored directory)"``: each reason's skipped entries."""
    return ", ".join(f"{skip_count(n, folders.get(why, 0))} ({why})" for why, n in sorted(skipped.items()))


def empty_reason(
    root: str,
    ignored: dict[str, int],
    skipped: dict[str, int] | None = None,
    folders: dict[str, int] | None = None,
) -> str:
    """Why an index holds no file (a silent empty graph is a bug): the .gitignore rules that left
    entries out (a Debian source package's ``/*`` ignores the whole tree), else the reasons the files
    found were skipped (``skipped``: reason → skipped entries, ``folders`` how many of them are
    folders, as ``IndexSummary.skipped`` and ``skipped_folders``), else that no file of an indexed
    language is there. ``ignored`` as :func:`top_ignored` gives it."""
    where = f"nothing indexed under {quote_path(root)}"
    if ignored:
        rules = ", ".join(
            f"{rule} ({plural(n, 'directory or file', 'directories or files')})"
            for rule, n in ignored.items()
        )
        return (
            f"{where}: .gitignore rules leave every source file out: {rules}. To index them: outside "
            'git, list them under "include" in codegraph.json ({"include": ["DIR/"]}); in a git '
            "checkout, track them (`git add -f`) or change the rule"
        )
    if skipped:
        why = _skips(skipped, folders or {})
        return f"{where}: every file found was skipped: {why} (`codegraph status` names them)"
    return f"{where}: no file of an indexed language there"


def _parse_one(job: tuple[str, str, int, int, str, str]) -> tuple:
    """Worker: read, hash and extract one file, and do every per-file step of the rest of the run
    that needs nothing but the extraction (its cache row, its interface row, its mentions), so the
    parent, which would do them one file after another, only stores them. Returns (path, skip
    reason, size, mtime, parsed): ``parsed`` is None for a skipped file, else (hash, extraction as
    :func:`cache.rows`, cache row, interface row, encoded mentions)."""
    import hashlib

    from codegraph.index import cache
    from codegraph.index.extract import TooDeep, extract
    from codegraph.index.languages import module_for
    from codegraph.index.source import source_utf8

    root, path, size, mtime_ns, language, grammar = job
    try:
        data = read_regular(os.path.join(root, path))
    except FileNotFoundError:  # discovered, then deleted before its turn came: not "unreadable"
        return path, "deleted during indexing", size, mtime_ns, None
    except OSError as exc:
        return path, f"unreadable ({exc.strerror or exc})", size, mtime_ns, None
    text = source_utf8(data, language)
    reason = content_skip_reason(path, text) or module_for(language).accepts(path, text)
    if reason:
        return path, reason, size, mtime_ns, None
    digest = hashlib.sha256(data).hexdigest()  # of the bytes on disk: freshness checks compare those
    try:
        fx = extract(path, text, language, grammar)
    except TooDeep as exc:  # one file's shape: the others are indexed, this one says why it is not
        return path, exc.reason, size, mtime_ns, None
    rows = cache.rows(fx)
    stored, interface = cache.encode_with_interface(rows, incremental.HIERARCHY)  # incremental.interface
    mentions = incremental.encode_mentions(incremental.mentions(fx, module_for(fx.language)))
    return path, None, len(data), mtime_ns, (digest, rows, stored, interface, mentions)


# Files the daemon's watcher parsed while it waited out its debounce (issue 12: at the end of the wait
# only resolution and the write are left): (root, path) → (stat facts when read, language, grammar,
# ``_parse_one`` result). A sync uses an entry only when the file's stat facts are still the ones it
# was read with (see :func:`preparse`); every sync empties the root's entries.
_PREPARSED: dict[tuple[str, str], tuple[tuple[int, int, int, int], str, str, tuple]] = {}


def _stat_facts(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def preparse(root: str, path: str, language: str, grammar: str) -> bool:
    """Parse one file ahead of the sync that will need it (the watcher calls it during its debounce)
    and keep the result for that sync. Returns whether a result was kept.

    Kept only when it can be trusted without reading the file again: a regular file whose inode,
    size, mtime and ctime are the same before and after the read, and whose last change is older than
    ``discover.RACY_NS`` (2 s where timestamps are whole seconds): a write in the same timestamp tick
    after the read would leave all four unchanged, a later one changes ctime, which cannot be set
    back. The sync compares the four facts again before using the result, so a write after this read
    (one of the same size and mtime included) is parsed anew.
    """
    full = os.path.join(root, path)
    try:
        before = os.lstat(full)
    except OSError:
        return False
    changed = max(before.st_mtime_ns, before.st_ctime_ns)
    racy = RACY_COARSE_NS if changed % 1_000_000_000 == 0 else RACY_NS  # as for directory listings
    if not stat.S_ISREG(before.st_mode) or time.time_ns() - changed <= racy:
        return False
    result = _parse_one((root, path, before.st_size, before.st_mtime_ns, language, grammar))
    try:
        after = os.lstat(full)
    except OSError:
        return False
    facts = _stat_facts(before)
    if _stat_facts(after) != facts or result[2] != before.st_size or str(result[1]).startswith("unreadable"):
        return False
    _PREPARSED[(root, path)] = (facts, language, grammar, result)
    return True


def drop_preparsed(root: str, path: str | None = None) -> None:
    """Forget a pre-parsed result (the file changed again), or with no ``path`` all of ``root``'s (its
    watcher stopped)."""
    if path is not None:
        _PREPARSED.pop((root, path), None)
        return
    for key in list(_PREPARSED):  # a copy: the watcher's event thread may drop entries meanwhile
        if key[0] == root:
            _PREPARSED.pop(key, None)


def _take_preparsed(root: str, files: list[SourceFile]) -> tuple[list[tuple], list[SourceFile]]:
    """The pre-parsed results still valid for ``files`` and the files left to parse; empties the
    root's entries."""
    if not _PREPARSED:
        return [], files
    ready: list[tuple] = []
    rest: list[SourceFile] = []
    for f in files:
        entry = _PREPARSED.get((root, f.path))
        if (
            entry is not None
            and entry[0][1:3] == (f.size, f.mtime_ns)
            and entry[1:3] == (f.language, f.grammar)
        ):
            try:
                now = _stat_facts(os.lstat(os.path.join(root, f.path)))
            except OSError:
                now = None
            if now == entry[0]:
                ready.append(entry[3])
                continue
        rest.append(f)
    drop_preparsed(root)
    return ready, rest


def _hash_file(path: str) -> str:
    import hashlib  # hashlib, subprocess and signal are imported where used: a no-change sync needs none

    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _git_head(root) -> str | None:
    import subprocess

    if outside_git(root):
        return None
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.decode().strip() if proc.returncode == 0 else None


def ensure_codegraph_dir(paths: ProjectPaths) -> None:
    """Create ``.codegraph/`` with its own ``.gitignore`` (everything but itself ignored).

    Raises:
        ProjectDirMissing: the project root is not a directory (it is never created).
        ProjectDirUnusable: a file stands where the folder should, or it cannot be written.
    """
    if not paths.root.is_dir():
        raise ProjectDirMissing(f"{paths.root} is not a directory; give the project's directory.")
    if paths.dir.exists() and not paths.dir.is_dir():
        raise ProjectDirUnusable(f"{paths.dir} exists and is not a directory; move it away to index here.")
    try:
        paths.dir.mkdir(exist_ok=True)
        gi = paths.dir / ".gitignore"
        if not gi.exists():
            gi.write_text(GITIGNORE_TEXT)
    except OSError as exc:
        raise ProjectDirUnusable(f"cannot write {paths.dir}: {exc.strerror or exc}") from exc
    if not os.access(paths.dir, os.W_OK):
        raise ProjectDirUnusable(f"cannot write {paths.dir}: permission denied")


def index_project(
    paths: ProjectPaths,
    *,
    full: bool = False,
    verify_hash: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    memo: bool = False,
    check: bool = False,
    phase: Callable[[str, int | None], None] | None = None,
    changed: Iterable[str] | None = None,
) -> IndexSummary:
    """Build or update the index of ``paths.root``.

    A damaged database (SQLite errors that ``PRAGMA quick_check`` confirms, issue 9) is moved aside
    (``codegraph.db.corrupt-<time>``) and the index rebuilt from scratch; ``summary.repaired`` says so.

    Args:
        full: ignore the extraction cache and re-parse every file.
        verify_hash: treat a file as unchanged only when its sha256 matches too (not just size+mtime).
        max_bytes: files larger than this are skipped with a reason.
        workers: parser processes (default: all cores); 1 parses in this process.
        progress: called with (files parsed, files to parse) as parsing advances.
        phase: called with (phase, files it covers or None) as the run enters ``discovering``,
            ``parsing``, ``resolving`` and ``writing`` (issue 14: the terminal progress display).
        memo: keep this run's discovery, and for a project of at most MEMO_MAX_FILES files its
            decoded extractions and mentions, in this process for the next run (the daemon's watcher).
        changed: with ``memo``, the caller (the daemon's watcher) knows that since this process's
            last run nothing changed on disk but the contents of these files (relative paths): their
            stat is read again instead of walking the tree (``discover.restat``; it walks when it
            cannot tell).
        check: verify the database before answering "up to date" unless it is known sound (see
            ``store.db.known_sound``; ``quick_check``: ≈0.25 s for a
            170 MB index, so for commands a person runs, not for the watcher's syncs).

    Returns:
        An :class:`IndexSummary`.

    Raises:
        IndexUnreadable: the existing database can't be used and is not damaged (a newer schema).
    """
    index_once = partial(
        _index_once,
        paths,
        verify_hash=verify_hash,
        max_bytes=max_bytes,
        workers=workers,
        progress=progress,
        memo=memo,
        phase=phase or (lambda name, count: None),
        changed=changed,
    )
    try:
        return index_once(full=full, check=check)
    except (sqlite3.DatabaseError, IndexUnreadable) as exc:
        reason = damage(paths.db)
        if reason is None:
            if (denied := refused(paths.db)) is not None:
                raise IndexUnreadable(f"cannot read the index {paths.db}: {denied}") from exc
            if isinstance(exc, IndexUnreadable):
                raise
            raise IndexUnreadable(f"{paths.db}: {exc}") from exc
    moved = move_aside(paths.db)
    summary = index_once(full=True, check=False)
    summary.repaired = (
        f"{paths.db.name} was damaged ({reason}); kept it as {moved.name} and rebuilt the index"
    )
    return summary


def _index_once(
    paths: ProjectPaths,
    *,
    full: bool,
    verify_hash: bool,
    max_bytes: int,
    workers: int | None,
    progress: Callable[[int, int], None] | None,
    memo: bool,
    check: bool,
    phase: Callable[[str, int | None], None],
    changed: Iterable[str] | None = None,
) -> IndexSummary:
    started = time.perf_counter()
    ensure_codegraph_dir(paths)
    root = paths.root
    config = load_config(root)
    phase("discovering", None)
    rules = (config.exclude, config.include, sorted((config.extensions or {}).items()), max_bytes)
    known = _DISCOVERED.get(str(root)) if memo and changed is not None and not full else None
    found = restat(known[1], root, set(changed or ()), max_bytes) if known and known[0] == rules else None
    if found is None:
        listed = {} if full else load_listings(paths.listings, keep=memo)  # a rebuild reads every directory
        found = discover(
            root,
            max_bytes=max_bytes,
            exclude=config.exclude,
            include=config.include,
            extensions=config.extensions,
            listings=listed,
            names=paths.names,
        )
        if found.relisted or found.listings.keys() != listed.keys():
            save_listings(paths.listings, found.listings)
    if memo:
        _DISCOVERED[str(root)] = (rules, found)
    kept = memo and _keeps_extractions(len(found.files))  # this run's extractions stay decoded
    summary_phases = {"discover": time.perf_counter() - started}
    manifests = _read_manifests(root, found.manifests, max_bytes)
    sound = known_sound(paths.db)  # unchanged since a check passed or a sound file was written
    conn = connect_writer(paths.db)
    identity = _identity(paths.db)
    record = False  # the file this run leaves is sound: remember it, so the next check can be skipped
    try:
        if full:  # a rebuild may not touch the damaged pages: never write over damage unseen
            _verify(conn)
            sound = True
        cache_version = conn.execute(
            "SELECT value FROM project_metadata WHERE key = 'cgpy_cache_version'"
        ).fetchone()
        stale_cache = cache_version is None or cache_version[0] != CACHE_VERSION
        cached = {} if full or stale_cache else writer.load_cache(conn)
        previous = writer.indexed_languages(conn)  # path → language
        # a file whose language a codegraph.json ``extensions`` edit changed is parsed again. Compared
        # as the mapping decides it, not with the stored label: a module may pick the label from the
        # content (a C++ header among .h files), and such a file is unchanged
        remapped = _remapped(conn, config.extensions)
        current = {f.path: f for f in found.files}
        to_parse: list[SourceFile] = []
        reuse: list[str] = []
        prev_skips = {
            r[0]: (r[1], r[2], r[3])
            for r in conn.execute("SELECT path, reason, size, mtime_ns FROM cgpy_skipped")
        }
        content_skips: dict[str, str] = {}  # binary/minified last time and unchanged since: not re-read
        for f in found.files:
            hit = cached.get(f.path)
            prev = prev_skips.get(f.path)
            if hit is not None and hit[0] == f.size and hit[1] == f.mtime_ns and not remapped(f.path):
                if verify_hash and _hash_file(str(root / f.path)) != writer.cached_hash(conn, f.path):
                    to_parse.append(f)
                else:
                    reuse.append(f.path)
            elif (
                not full
                and prev is not None
                and prev[0] in CONTENT_SKIPS
                and (prev[1], prev[2]) == (f.size, f.mtime_ns)
            ):
                content_skips[f.path] = prev[0]
            else:
                to_parse.append(f)
        known_skipped = {**found.skipped, **content_skips}
        reuse_set = set(reuse)
        removed = sorted(previous.keys() - current.keys())
        summary = IndexSummary(
            root=str(root),
            files=len(current),
            removed=len(removed),
            phases=summary_phases,
            ignored=top_ignored(found.ignored),
        )
        previous_skipped = {path: row[0] for path, row in prev_skips.items()}
        manifest_reason = incremental.manifest_change(_stored_manifests(conn), manifests.digests)
        # only a run that completed writes the version (an interrupted first run leaves index_state)
        ever_written = conn.execute(
            "SELECT 1 FROM project_metadata WHERE key = 'indexed_with_version'"
        ).fetchone()
        if (
            ever_written is not None  # a first run writes, even of an empty project
            and not to_parse
            and not removed
            and not full
            and previous_skipped == known_skipped
            and not manifest_reason
        ):
            if check and not sound:
                _verify(conn)
                sound = True
            summary.changed = False
            state = conn.execute("SELECT value FROM project_metadata WHERE key = 'index_state'").fetchone()
            if state is not None and state[0] != "complete":
                # an interrupted run never committed: what is stored matches the disk again
                writer.set_metadata(conn, {"index_state": "complete"})
            summary.reused = summary.files = len(reuse_set)
            summary.manifest_problems = _stored_manifest_problems(conn)  # the manifests are unchanged
            if not summary.files and _stored_json(conn, "cgpy_ignored") != summary.ignored:
                writer.set_metadata(conn, {"cgpy_ignored": summary.ignored})  # a rule changed, no file
            _fill_counts(conn, summary, known_skipped)
            if kept:  # warm the in-process memo now, so the first edit's sync skips decoding
                from codegraph.index import cache  # (here: the codec and the model are not needed else)

                stats = {f.path: (f.size, f.mtime_ns) for f in found.files}
                for path, data in writer.load_cached_data(
                    conn, [p for p in reuse_set if _MEMO.get(p, (None, None))[:2] != stats[p]]
                ).items():
                    _MEMO[path] = (*stats[path], cache.decode(data))
                cold = [p for p in reuse_set if _MENTIONS.get(p, (None, None))[:2] != stats[p]]
                for path, said in writer.load_mentions(conn).items() if cold else ():
                    if path in stats and path in cold:
                        _MENTIONS[path] = (*stats[path], incremental.decode_mentions(said))
            _check_still_there(paths, identity)
            summary.seconds = time.perf_counter() - started
            record = sound
            return summary
        writer.set_metadata(conn, {"index_state": "indexing"})
        try:
            _update(
                conn,
                root,
                summary,
                to_parse,
                reuse_set,
                removed,
                known_skipped,
                previous,
                workers,
                progress,
                {f.path: (f.size, f.mtime_ns) for f in found.files},
                kept,
                phase,
                manifests,
                manifest_reason,
            )
        except Exception:
            # the folder removed mid-write fails the write (a rollback journal cannot be created): say so
            _check_still_there(paths, identity)
            writer.set_metadata(conn, {"index_state": "failed"})  # the last complete index stays readable
            raise
        record = sound
    finally:
        conn.close()
        if record:  # after the close: its checkpoint is part of the file as left
            record_sound(paths.db)
    _check_still_there(paths, identity)
    summary.seconds = time.perf_counter() - started
    return summary


@dataclass
class Manifests:
    """The project's manifest files (``LanguageModule.manifests``) as this run read them: path →
    text (None: unreadable or not UTF-8), path → sha256 of the bytes (what a sync compares; for
    one too large to read, its size and mtime) and path → why one was not read (too large: it is
    not among ``texts``, and the resolution's ``manifest_problems`` list it)."""

    texts: dict[str, str | None] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)


def _read_manifests(root, found: dict[str, tuple[int, int]], max_bytes: int) -> Manifests:
    """Read the manifests discovery ``found`` (path → (size, mtime_ns); size -1: not stat-able),
    each one larger than ``max_bytes`` left unread, with the reason."""
    out = Manifests()
    if found:
        import hashlib
    for rel in sorted(found):
        size, mtime_ns = found[rel]
        if size > max_bytes:
            out.digests[rel] = f"too large {size} {mtime_ns}"
            out.problems[rel] = f"too large ({size} bytes > {max_bytes}): not read"
            continue
        try:
            data = read_regular(root / rel)
        except OSError:
            out.texts[rel], out.digests[rel] = None, "unreadable"
            continue
        out.digests[rel] = hashlib.sha256(data).hexdigest()
        try:
            out.texts[rel] = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            out.texts[rel] = None
    return out


def _with_unread(resolution, manifests: Manifests) -> None:
    """Add the manifests this run did not read (too large) to ``resolution.manifest_problems``,
    kept sorted by path."""
    if manifests.problems:
        found = {**resolution.manifest_problems, **manifests.problems}
        resolution.manifest_problems = dict(sorted(found.items()))


def _stored_manifests(conn) -> dict[str, str]:
    """The manifest digests the last index recorded (none recorded: an index from before them)."""
    stored = _stored_json(conn, "cgpy_manifests")
    return stored if isinstance(stored, dict) else {}


def _stored_json(conn, key: str) -> object:
    """The metadata value of ``key`` decoded from JSON; None when it is missing or not JSON."""
    row = conn.execute("SELECT value FROM project_metadata WHERE key = ?", (key,)).fetchone()
    try:
        return json.loads(row[0]) if row is not None else None
    except (TypeError, ValueError):
        return None


def _stored_manifest_problems(conn) -> dict[str, str]:
    """The manifests the last index could not read, path → why (metadata ``cgpy_manifest_problems``)."""
    stored = _stored_json(conn, "cgpy_manifest_problems")
    return {str(k): str(v) for k, v in stored.items()} if isinstance(stored, dict) else {}


def _remapped(conn, extensions: dict[str, str] | None) -> Callable[[str], bool]:
    """Whether a path's language under the project's ``extensions`` differs from the mapping the last
    index used (metadata ``cgpy_extensions``; none recorded: the built-in map)."""
    from codegraph.index.languages import language_for

    row = conn.execute("SELECT value FROM project_metadata WHERE key = 'cgpy_extensions'").fetchone()
    try:
        before = json.loads(row[0]) if row else {}
    except ValueError:
        before = {}
    now = dict(extensions or {})
    if not isinstance(before, dict) or before == now:
        return lambda path: before != now
    return lambda path: language_for(path, before) != language_for(path, now)


def _identity(db) -> tuple[int, int] | None:
    try:
        st = os.stat(db)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _check_still_there(paths: ProjectPaths, identity: tuple[int, int] | None) -> None:
    """Raises IndexLost when the database this run wrote is no longer the one on disk (``rm -rf
    .codegraph`` during a run, issue 9: it reported success with nothing saved)."""
    if _identity(paths.db) != identity:
        raise IndexLost(
            f"{paths.dir} was removed or replaced while indexing, so this run's index is gone; "
            f"run `codegraph init {paths.root}` again"
        )


def _verify(conn: sqlite3.Connection) -> None:
    """Raises sqlite3.DatabaseError when ``PRAGMA quick_check`` finds the database damaged."""
    problem = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
    if problem != "ok":
        raise sqlite3.DatabaseError(problem)


def _update(
    conn,
    root,
    summary,
    to_parse,
    reuse_set,
    removed,
    found_skipped,
    previous,
    workers,
    progress,
    all_stats: dict[str, tuple[int, int]],
    memo: bool,
    phase: Callable[[str, int | None], None],
    manifests: Manifests,
    manifest_reason: str,
) -> None:
    """Parse what changed, re-resolve what it can change (or everything), write it in one transaction."""
    from codegraph.index import cache
    from codegraph.index.resolve import paused_gc, resolve  # here: a no-change sync never resolves (issue 12)

    stats = all_stats if memo else None
    phase("parsing", len(to_parse))
    clock = time.perf_counter()
    # a large first index writes each file's rows as it is parsed (issue 12); the daemon's memo keeps
    # every extraction anyway, and reads the parsed files' mentions
    write = (
        writer.begin_streamed(conn)
        if not previous and not reuse_set and not memo and len(to_parse) >= STREAM_MIN_FILES
        else None
    )
    stream = _Streamed(write) if write is not None else None
    pooled: list[os.times_result] = []
    try:
        parsed, skipped = _parse_all(str(root), to_parse, workers, progress, stream, pooled)
    except BaseException:
        if write is not None:
            write.abort()
        raise
    summary.phases["parse"] = time.perf_counter() - clock
    cores = _worker_cores(pooled[0]) if pooled else 0.0
    clock = time.perf_counter()
    skipped = {**found_skipped, **skipped}
    if previous and not manifest_reason and LAZY_TABLES:
        from codegraph.index.lazy import LazyUnavailable

        try:
            _update_lazy(
                conn,
                root,
                summary,
                (parsed, skipped, removed, previous, reuse_set),
                (all_stats, memo, len(to_parse) + len(reuse_set) + len(found_skipped)),
                phase,
                manifests,
            )
            return
        except LazyUnavailable as exc:
            summary.tables = {"path": "eager", "reason": str(exc)}
        clock = time.perf_counter()
    if not summary.tables:
        why = "a first index" if not previous else manifest_reason or "lazy tables are off"
        summary.tables = {"path": "eager", "reason": why}
    extractions = [p.extraction for p in parsed]
    need = set(reuse_set)
    if stats is not None:
        for path in list(need):
            hit = _MEMO.get(path)
            if hit is not None and hit[:2] == stats[path]:
                extractions.append(hit[2])
                need.discard(path)
    partial: set[str] = set()  # files read without their own references (see incremental.interface)
    backfill: set[str] = set()  # files whose interface row is missing (an index from before them)
    if need and previous:
        blobs = writer.load_interfaces(conn, need)
        if len(blobs) == len(need):
            with paused_gc():  # thousands of decoded interfaces, no cycles: see resolve.paused_gc
                extractions.extend(cache.decode(data) for data in blobs.values())
            partial, need = set(need), set()
        else:
            backfill = need - set(blobs)
    if need:
        for path, data in writer.load_cached_data(conn, need).items():
            fx = cache.decode(data)
            extractions.append(fx)
            if stats is not None:
                _MEMO[path] = (*stats[path], fx)
    if stats is not None:
        for p in parsed:
            _MEMO[p.path] = (p.size, p.mtime_ns, p.extraction)
        for path in set(_MEMO) - set(stats):
            del _MEMO[path]
    extractions.sort(key=lambda fx: fx.path)
    removed_all = removed + [p for p in skipped if p in previous]
    new_mentions = {p.path: p.mentions for p in parsed}
    # decoded only when something reads them: a first index plans nothing
    parsed_mentions = (
        {p.path: _remember_mentions(p.path, incremental.decode_mentions(p.mentions), stats) for p in parsed}
        if previous or stats is not None
        else {}
    )
    phase("resolving", len(extractions))
    summary.phases["load"] = time.perf_counter() - clock
    clock = time.perf_counter()
    # a first index writes what needs no resolution now and builds its indexes on a thread while this
    # one resolves (issue 12: on django-sdist one core idled through resolve and write, 9.6 s); nothing
    # was reused, so no interface is backfilled
    first: writer.FirstWrite | None = write
    # a full resolution is shared with a forked helper (codegraph.index.fork); a first index inserts
    # its files' rows once the helper is forked (that starts a thread, and the helper resolves
    # meanwhile), else before resolving, as without a helper
    split = (
        write is None and not memo and (workers is None or workers > 1) and _may_fork(len(extractions), cores)
    )
    begun: list[writer.FirstWrite | None] = []
    if write is not None:
        write.build_indexes()
    elif not previous and not reuse_set and not split:
        first = writer.begin_first(conn, parsed, new_mentions, _interfaces(parsed))
    share = None
    if split:
        share = _share(
            len(extractions),
            (lambda: begun.append(writer.begin_first(conn, parsed, new_mentions, _interfaces(parsed))))
            if not previous and not reuse_set
            else None,
        )
    try:
        with paused_gc():
            only, why = (
                (None, manifest_reason)
                if manifest_reason and previous
                else _plan(
                    conn,
                    parsed,
                    removed_all,
                    previous,
                    [fx.path for fx in extractions],
                    {fx.path: fx for fx in extractions}.__getitem__,
                    stats,
                    parsed_mentions,
                    new_mentions,
                    partial,
                    manifests.texts,
                )
            )
        complete = partial if only is None else partial & only
        if complete:  # the files to re-resolve need their own references after all
            full = writer.load_cached_rows(conn, complete)
            extractions = [cache.decode(full[fx.path]) if fx.path in complete else fx for fx in extractions]
            if stats is not None:
                for fx in extractions:
                    if fx.path in complete:
                        _MEMO[fx.path] = (*stats[fx.path], fx)
        if stream is not None:  # a first index: every file, in the order of ``extractions``
            stream.project.complete(manifests.texts)
        with share if share is not None and only is None else contextlib.nullcontext():
            resolution = resolve(
                extractions,
                only=only,
                manifests=manifests.texts,
                project=stream.project if stream is not None else None,
                refs_of=stream.refs_of if stream is not None else None,
                sink=write.sink() if write is not None else None,
                fold=stream is not None,
                share=share if only is None else None,
            )
            _with_unread(resolution, manifests)
        if stream is not None:
            stream.close()
        if begun:
            first = begun[0]
        summary.resolution = {
            "mode": "full" if only is None else "incremental",
            "files": len(extractions) if only is None else len(only),
            "references": resolution.resolved_refs,
            **({"reason": why} if only is None else {}),
            # the files a forked helper resolved (codegraph.index.fork), when one did
            **({"helper_files": share.helped} if share is not None and share.helped else {}),
        }
        summary.manifest_problems = dict(resolution.manifest_problems)
        summary.phases["resolve"] = time.perf_counter() - clock
        clock = time.perf_counter()
        owners: dict[str, list[str]] = {"cgpy_owner_files": [], "cgpy_owner_bases": []}
        for fx in extractions:
            for key, held in zip(owners, _owner_facts(fx), strict=True):
                if held:
                    owners[key].append(fx.path)
        metadata = {
            **_metadata(
                root,
                len(to_parse) + len(reuse_set) + len(found_skipped),
                manifests,
                resolution,
                summary.ignored,
            ),
            **owners,
        }
        phase("writing", len(extractions))
        if first is not None:
            first.finish(
                edges=resolution.edges,
                unresolved=resolution.unresolved,
                skipped=skipped,
                skip_stats=all_stats,
                metadata=metadata,
                per_file=resolution.per_file,
            )
        else:
            interfaces = _interfaces(parsed)
            interfaces.update(
                (fx.path, cache.encode(incremental.interface(fx)))
                for fx in extractions
                if fx.path in backfill
            )
            _write_resolved(
                conn,
                parsed,
                removed_all,
                resolution,
                only,
                skipped,
                all_stats,
                metadata,
                new_mentions,
                interfaces,
            )
    except BaseException:
        if first is None and begun:
            first = begun[0]
        if first is not None:
            first.abort()
        raise
    summary.phases["write"] = time.perf_counter() - clock
    summary.parsed = len(parsed)
    summary.reused = len(reuse_set)
    _fill_counts(conn, summary, skipped)
    summary.files = summary.parsed + summary.reused


def _keeps_extractions(files: int) -> bool:
    """Whether a memo run over ``files`` files keeps their extractions (else the ones kept go)."""
    if files <= MEMO_MAX_FILES:
        return True
    _MEMO.clear()
    _MENTIONS.clear()
    return False


def _may_fork(files: int, cores: float) -> bool:
    """Whether a full resolution of ``files`` files, after a parse whose workers got ``cores``
    cores, is shared with a forked helper (FORK_MIN_FILES, FORK_MIN_CORES)."""
    from codegraph.index import fork

    return FORK_MIN_FILES <= files < STREAM_MIN_FILES and cores >= FORK_MIN_CORES and fork.available()


def _worker_cores(before: os.times_result) -> float:
    """The CPU seconds per second that child processes reaped since ``before`` (the parse pool's
    start) used: about how many cores the parse workers got between them."""
    after = os.times()
    elapsed = after.elapsed - before.elapsed
    used = after.children_user + after.children_system - before.children_user - before.children_system
    return used / elapsed if elapsed > 0 else 0.0


def _share(files: int, meanwhile: Callable[[], None] | None):
    """A ``resolve`` share with a forked helper (``codegraph.index.fork``) over ``files`` files;
    ``meanwhile`` runs in this process once the helper is forked."""
    from codegraph.index import fork

    return fork.Forked(files, meanwhile)


def _interfaces(parsed: list[writer.ParsedFile]) -> dict[str, bytes]:
    return {p.path: p.interface for p in parsed}


def _write_resolved(
    conn, parsed, removed, resolution, resolved, skipped, skip_stats, metadata, mentions, interfaces
) -> None:
    """``writer.write_index`` of a run that resolved ``resolved`` (None: every file)."""
    writer.write_index(
        conn,
        parsed=parsed,
        removed=removed,
        edges=resolution.edges,
        unresolved=resolution.unresolved,
        skipped=skipped,
        skip_stats=skip_stats,
        metadata=metadata,
        resolved=resolved,
        per_file=resolution.per_file,
        mentions=mentions,
        interfaces=interfaces,
    )


def _metadata(
    root, discovered: int, manifests: Manifests, resolution, ignored: dict[str, int]
) -> dict[str, object]:
    """The metadata every run that resolves writes (``discovered``: files found, skipped included;
    ``ignored``: :func:`top_ignored` of the walk)."""
    head = _git_head(root)
    return {
        "index_state": "complete",
        "indexed_with_version": __version__,
        "indexed_with_extraction_version": str(EXTRACTION_VERSION),
        "indexed_at_commit": head or "",
        "indexed_dirty_paths": {"commit": head, "paths": []},
        "index_files_discovered": str(discovered),
        "index_files_accounted": str(discovered),
        "cgpy_indexed_by": f"codegraph (python) {__version__}",
        "cgpy_cache_version": CACHE_VERSION,
        "cgpy_extensions": dict(load_config(root).extensions or {}),  # see _remapped
        "cgpy_manifests": manifests.digests,  # see incremental.manifest_change
        "cgpy_manifest_problems": resolution.manifest_problems,  # status lists them
        "cgpy_ignored": ignored,  # status says why an index holds no file
    }


def _owner_facts(fx) -> tuple[bool, bool]:
    """Whether a file has definitions written outside their type (metadata ``cgpy_owner_files``) and
    extends/implements written away from their type (``cgpy_owner_bases``): what a lazy sync
    (``codegraph.index.lazy``) must know of every file without reading it."""
    from codegraph.model import OWNER_SOURCE

    return bool(fx.owners), any(
        r.kind in incremental.HIERARCHY and r.source.startswith(OWNER_SOURCE) for r in fx.refs
    )


def _stored_paths(conn, key: str) -> set[str] | None:
    row = conn.execute("SELECT value FROM project_metadata WHERE key = ?", (key,)).fetchone()
    try:
        stored = json.loads(row[0]) if row else None
    except ValueError:
        stored = None
    return set(stored) if isinstance(stored, list) else None


def _update_lazy(conn, root, summary, change: tuple, run: tuple, phase, manifests: Manifests) -> None:
    """The incremental sync with lookup tables filled as lookups reach files (``codegraph.index.lazy``):
    plan, resolve the planned files, write, without decoding every file's interface.

    Raises:
        LazyUnavailable: before anything is written, when the lazy tables cannot give the eager
            answer (the caller resolves eagerly then).
    """
    from codegraph.index import cache
    from codegraph.index.lazy import LazyProject, LazyUnavailable
    from codegraph.index.resolve import paused_gc, resolve
    from codegraph.store.project_index import ProjectIndex

    parsed, skipped, removed, previous, reuse_set = change
    all_stats, memo, discovered = run
    stats = all_stats if memo else None
    clock = time.perf_counter()
    removed_all = removed + [p for p in skipped if p in previous]
    gone = set(removed_all) | {p.path for p in parsed}
    owner_files, owner_bases = (
        _stored_paths(conn, "cgpy_owner_files"),
        _stored_paths(conn, "cgpy_owner_bases"),
    )
    if owner_files is None or owner_bases is None:
        raise LazyUnavailable("the index does not record which files have owners")
    owner_files -= gone
    owner_bases -= gone
    for p in parsed:
        has_owners, has_bases = _owner_facts(p.extraction)
        if has_owners:
            owner_files.add(p.path)
        if has_bases:
            owner_bases.add(p.path)
    index = ProjectIndex(conn)
    languages = {path: label for path, label in previous.items() if path not in gone}
    if set(languages) != set(reuse_set):
        raise LazyUnavailable("the indexed files are not the unchanged ones")
    languages.update((p.path, p.language) for p in parsed)
    fresh = {p.path: p.extraction for p in parsed}
    interfaces: dict[str, object] = {}

    def interface(path: str):
        fx = interfaces.get(path)
        if fx is None:
            hit = _MEMO.get(path) if stats is not None else None
            if hit is not None and stats is not None and hit[:2] == stats[path]:
                fx = hit[2]
            else:
                data = index.interface(path)
                if data is None:
                    raise LazyUnavailable(f"{path} has no interface row")
                fx = cache.decode(data)
            interfaces[path] = fx
        return fx

    new_mentions = {p.path: p.mentions for p in parsed}
    parsed_mentions = {
        p.path: _remember_mentions(p.path, incremental.decode_mentions(p.mentions), stats) for p in parsed
    }
    summary.phases["load"] = time.perf_counter() - clock
    clock = time.perf_counter()
    with paused_gc():
        only, why = _plan(
            conn,
            parsed,
            removed_all,
            previous,
            sorted(languages),
            lambda path: fresh[path] if path in fresh else interface(path),
            stats,
            parsed_mentions,
            new_mentions,
            set(reuse_set),
            manifests.texts,
        )
    if only is None:
        raise LazyUnavailable(f"a full resolution ({why})")
    phase("resolving", len(only))
    need = sorted(only - set(fresh))
    for path in need:
        hit = _MEMO.get(path) if stats is not None else None
        if hit is not None and stats is not None and hit[:2] == stats[path]:
            fresh[path] = hit[2]
    full = writer.load_cached_rows(conn, [p for p in need if p not in fresh])
    for path in need:
        if path not in fresh:
            if path not in full:
                raise LazyUnavailable(f"{path} has no cached extraction")
            fresh[path] = cache.decode(full[path])
            if stats is not None:
                _MEMO[path] = (*stats[path], fresh[path])
    if stats is not None:
        for p in parsed:
            _MEMO[p.path] = (p.size, p.mtime_ns, p.extraction)
        for path in set(_MEMO) - set(stats):
            del _MEMO[path]
    project = LazyProject(fresh, languages, interface, index, owner_files, manifests.texts, owner_bases)
    resolution = resolve([fresh[p] for p in sorted(only)], manifests=manifests.texts, project=project)
    _with_unread(resolution, manifests)
    summary.resolution = {"mode": "incremental", "files": len(only), "references": resolution.resolved_refs}
    summary.tables = {"path": "lazy"}
    summary.manifest_problems = dict(resolution.manifest_problems)
    summary.phases["resolve"] = time.perf_counter() - clock
    clock = time.perf_counter()
    metadata = {
        **_metadata(root, discovered, manifests, resolution, summary.ignored),
        "cgpy_owner_files": sorted(owner_files),
        "cgpy_owner_bases": sorted(owner_bases),
    }
    phase("writing", len(only))
    _write_resolved(
        conn,
        parsed,
        removed_all,
        resolution,
        only,
        skipped,
        all_stats,
        metadata,
        new_mentions,
        _interfaces(parsed),
    )
    summary.phases["write"] = time.perf_counter() - clock
    summary.parsed = len(parsed)
    summary.reused = len(reuse_set)
    _fill_counts(conn, summary, skipped)
    summary.files = summary.parsed + summary.reused


def _mentions(fx, stats: dict[str, tuple[int, int]] | None) -> frozenset[str]:
    from codegraph.index.languages import module_for

    return _remember_mentions(fx.path, incremental.mentions(fx, module_for(fx.language)), stats)


def _remember_mentions(
    path: str, found: frozenset[str], stats: dict[str, tuple[int, int]] | None
) -> frozenset[str]:
    if stats is not None and path in stats:
        _MENTIONS[path] = (*stats[path], found)
    return found


def _plan(
    conn,
    parsed,
    removed,
    previous,
    paths,
    extraction,
    stats,
    parsed_mentions,
    new_mentions,
    partial,
    manifests,
) -> tuple[set[str] | None, str]:
    """The files to re-resolve (issue 12, ``codegraph.index.incremental``), or None and why all.
    ``paths``: every file of the project after the change, sorted; ``extraction``: path → its
    extraction (an interface will do); ``manifests``: path → text of the project's manifests (the
    names a language's ``module_names`` reads from them). Mentions missing from the index (one
    written before they were recorded) are added to ``new_mentions``, so the next sync can be
    incremental."""
    from codegraph.index import cache
    from codegraph.index.languages import module_for
    from codegraph.store.project_index import ProjectIndex

    if not previous:
        return None, "a first index"
    max_files = max(INCREMENTAL_MIN_FILES, int(len(paths) * INCREMENTAL_MAX_SHARE))
    if len(parsed) + len(removed) > max_files:  # a rebuild, a new cache version, a branch switch
        return None, f"more than {max_files} files changed"
    mentions_of = _Mentions(conn, paths, stats)
    need = []
    for path in paths:
        hit = _MENTIONS.get(path) if stats is not None else None
        if path in parsed_mentions:
            mentions_of.known[path] = parsed_mentions[path]
        elif hit is not None and hit[:2] == stats[path]:
            mentions_of.known[path] = hit[2]
        else:
            need.append(path)
    if need:
        recorded = ProjectIndex(conn).mention_paths()
        for path in need:
            if path in recorded:
                continue  # decoded if the plan reads it
            if path in partial:  # read without its references: its mentions cannot be worked out
                return None, f"{path} has no recorded mentions"
            mentions_of.known[path] = _mentions(extraction(path), stats)
            new_mentions[path] = incremental.encode_mentions(mentions_of.known[path])
    if stats is not None:
        for path in set(_MENTIONS) - set(stats):
            del _MENTIONS[path]
    if not writer.all_resolved(conn):
        return None, "the index has no record of what each file resolved"
    changed_old = [p.path for p in parsed if p.path in previous] + list(removed)
    old = {path: cache.decode(data) for path, data in writer.load_cached_rows(conn, changed_old).items()}
    if len(old) != len(changed_old):
        return None, "a changed file's previous extraction is not cached"
    changed = {p.path: (old.get(p.path), p.extraction) for p in parsed}
    changed.update({path: (old[path], None) for path in removed})
    linked: dict[str, set[str]] = {}
    for path, others in writer.resolved_links(conn).items():
        for other in others:
            linked.setdefault(path, set()).add(other)
            linked.setdefault(other, set()).add(path)
    found = incremental.plan(
        changed,
        mentions_of,
        extraction,
        lambda label: module_for(label).self_names,
        linked,
        max_files=max_files,
        project_wide=lambda fx: module_for(fx.language).project_wide(fx),
        module_names=lambda fx: module_for(fx.language).module_names(fx.path, manifests),
        file_includes=lambda label: module_for(label).file_includes,
    )
    return found.files, found.reason


class _Mentions(Mapping):
    """path → mentions of every file of the project, each stored one decoded when first read: a
    change of no word's meaning (an edit inside a body) plans without reading any (issue 12: 10,000
    files' mentions were a third of a one-edit sync's CPU with lazy tables)."""

    def __init__(self, conn, paths: list[str], stats: dict[str, tuple[int, int]] | None):
        self.known: dict[str, frozenset[str]] = {}
        self._conn = conn
        self._paths = paths
        self._members = set(paths)
        self._stats = stats
        self._blobs: dict[str, str | bytes] | None = None

    def __getitem__(self, path: str) -> frozenset[str]:
        found = self.known.get(path)
        if found is None:
            if path not in self._members:
                raise KeyError(path)
            if self._blobs is None:
                self._blobs = writer.load_mentions(self._conn)
            found = self.known[path] = incremental.decode_mentions(self._blobs[path])
            if self._stats is not None:
                _MENTIONS[path] = (*self._stats[path], found)
        return found

    def mentioning(self, words: set[str]) -> set[str]:
        """The files whose mentions hold one of ``words``. A stored file's are searched by SQLite
        (:func:`writer.mentioning`) and checked in their encoded form, not decoded, except in the
        daemon, which keeps them decoded for its next sync."""
        if self._stats is not None:
            return {path for path in self._paths if not self[path].isdisjoint(words)}
        found = {path for path, said in self.known.items() if not said.isdisjoint(words)}
        for path, data in writer.mentioning(self._conn, words):
            if path in self._members and path not in self.known and incremental.mentions_any(data, words):
                found.add(path)
        return found

    def __contains__(self, path: object) -> bool:
        return path in self._members

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def _fill_counts(conn, summary: IndexSummary, skipped: dict[str, str]) -> None:
    summary.nodes = conn.execute("SELECT COUNT(*) FROM nodes").fetchone()[0]
    summary.edges = conn.execute("SELECT COUNT(*) FROM edges").fetchone()[0]
    summary.unresolved = conn.execute("SELECT COUNT(*) FROM unresolved_refs").fetchone()[0]
    by_language = unresolved_by_language(conn)
    summary.unresolved_likely_internal = sum(v.get("likely_internal", 0) for v in by_language.values())
    reasons = skip_reasons(skipped)
    summary.skipped = {why: entry["count"] for why, entry in reasons.items()}
    summary.skipped_folders = {why: entry["folders"] for why, entry in reasons.items() if "folders" in entry}


def _worker_start(parent: int) -> None:
    """Pool worker set-up (issue 9): Ctrl-C is the parent's to handle — workers that took it printed
    KeyboardInterrupt tracebacks and the pool respawned them while the parent waited; and a worker
    dies with its parent instead of writing into the pipe a ``kill -9`` closed (BrokenPipe tracebacks)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent around the fork
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a write to a closed pipe ends the worker quietly
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(0)
    gc.enable()  # a worker the pool forks again while the parent's collector is paused (_keep_results)


def _load_before_fork(files: list[SourceFile]) -> None:
    """Load each grammar and compile each query the workers will use, once, in the parent: forked
    workers inherit them instead of each doing it again (per worker: 0.05 s to import the language
    pack, 0.05 s for Scala's or Zig's query, measured here)."""
    from codegraph.index.languages import parser_for, query_for

    for grammar in {f.grammar for f in files}:
        parser_for(grammar)
    for label in {f.language for f in files}:
        query_for(label)


def _parse_all(
    root: str,
    files: list[SourceFile],
    workers: int | None,
    progress,
    stream: _Streamed | None = None,
    pooled: list[os.times_result] | None = None,
) -> tuple[list, dict[str, str]]:
    """Parse ``files``: the parsed files sorted by path, and path → skip reason. With ``stream`` (a
    first index, issue 12) each file's rows go into the write transaction as results arrive, in path
    order, and the parsed files come back without their blobs (see :class:`_Streamed`). ``pooled``
    gets ``os.times()`` as the worker pool starts, when there is one (see :func:`_worker_cores`)."""
    from codegraph.index.resolve import paused_gc  # imported by the _update that called this anyway

    ready, files = _take_preparsed(root, files)
    if stream is not None:  # results in path order: the rows' order is the one a single write gives
        files = sorted(files, key=lambda f: f.path)
        ready.sort(key=lambda r: r[0])
    jobs = [(root, f.path, f.size, f.mtime_ns, f.language, f.grammar) for f in files]
    total = len(ready) + len(jobs)
    parsed: list[writer.ParsedFile] = []
    skipped: dict[str, str] = {}
    workers = workers or os.cpu_count() or 1
    results: Iterator[tuple]
    if len(jobs) < PARALLEL_MIN_FILES or workers <= 1 or sys.platform == "win32":
        results = map(_parse_one, jobs)
        pool = None
    else:
        # fork: workers inherit loaded grammars (FACTS.md: ~1.7x on 2 cores vs 1.4x with spawn)
        # SIGINT stays blocked while the workers are forked, so a Ctrl-C before a worker has set it to
        # ignored reaches only this process (it is delivered when the mask is restored)
        import signal

        from codegraph.index.pool import fork_pool  # here: a sync that parses a few files never needs it

        _load_before_fork(files)
        if pooled is not None:
            pooled.append(os.times())
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            pool = fork_pool(workers, _worker_start, (os.getpid(),))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        mapped = pool.imap if stream is not None else pool.imap_unordered
        results = mapped(_parse_one, jobs, chunksize=PARSE_CHUNK)
    if ready:
        results = (
            heapq.merge(ready, results, key=lambda r: r[0])
            if stream is not None
            else itertools.chain(ready, results)
        )
    finished = False
    try:
        with paused_gc():  # after the fork (workers keep collecting): see _keep_results
            _keep_results(results, total, parsed if stream is None else stream, skipped, progress)
            if stream is not None:
                stream.flush()
                parsed = stream.parsed
        finished = True
    finally:
        if pool is not None:
            if finished:
                pool.close()
                pool.join()
            else:  # Ctrl-C or an error: drop the queued files instead of parsing them all first
                from codegraph.index.pool import stop_pool

                stop_pool(pool)
    if stream is None:
        # workers finish in any order: sort, so the same tree always gives the same rows in the same order
        parsed.sort(key=lambda p: p.path)
    return parsed, skipped


STREAM_BATCH = 256  # parsed files whose rows a streamed first index inserts at a time


class _Streamed:
    """The parsed-files list of a streamed first index: each file appended is kept in ``parsed``
    without its cache, interface and mentions blobs, which go into the write transaction in batches
    of STREAM_BATCH (issue 12: the blobs were ~30 % of what a 10,000-file index held till the write)
    and its nodes without their docstrings (written with the rows; resolution never reads them),
    and with only its ``extends``/``implements`` references (what the lookup tables read): the rest
    wait, compressed, in a temporary file till ``resolve`` reaches the file (:meth:`refs_of`; 14 of
    the 34 KB a synthetic monorepo file's extraction held, measured with ``sys.getsizeof`` over 2,000
    files; held in memory, compressed, they were still 2 KB a file, 40 MB at 20,000 files). ``refs``:
    path → (offset, length) of the file's references there."""

    def __init__(self, write: writer.FirstWrite) -> None:
        import tempfile

        from codegraph.index.resolve import open_tables

        self.write = write
        # the resolver's lookup tables, each file put in (and folded) as it comes (issue 12)
        self.project = open_tables()
        self.parsed: list[writer.ParsedFile] = []
        self._batch: list[writer.ParsedFile] = []
        self.refs: dict[str, tuple[int, int]] = {}
        self._spill = tempfile.TemporaryFile(prefix="codegraph-refs-")
        self._end = 0

    def extraction(self, path: str, rows: tuple):
        """The extraction of a worker's ``rows``, its other references kept aside."""
        from codegraph.index import cache

        blob = zlib.compress(marshal.dumps(rows[4]), 1)
        self._spill.write(blob)
        self.refs[path] = (self._end, len(blob))
        self._end += len(blob)
        fx = cache.from_rows(cache.with_refs_of(rows, incremental.HIERARCHY), ids_shared=True)
        self.project.add_files([fx], fold=True)
        return fx

    def refs_of(self, fx) -> list:
        """Every reference of ``fx`` (each file's once: they are dropped as they are handed out)."""
        from codegraph.index import cache

        offset, length = self.refs.pop(fx.path)
        self._spill.seek(offset)  # every write came before (the parse is over)
        blob = self._spill.read(length)
        return cache.refs_from_rows(marshal.loads(zlib.decompress(blob)))

    def close(self) -> None:
        """Resolution is over: the spilled references and the lookup tables go (kept through the
        write, the tables made it the peak of a 20,000-file monorepo's index: 746 MB)."""
        self._spill.close()
        del self.project

    def append(self, p: writer.ParsedFile) -> None:
        self._batch.append(p)
        if len(self._batch) >= STREAM_BATCH:
            self.flush()

    def flush(self) -> None:
        batch = self._batch
        if not batch:
            return
        self.write.add(batch, {p.path: p.mentions for p in batch}, _interfaces(batch))
        for p in batch:
            p.data = p.interface = p.mentions = b""
            for n in p.extraction.nodes:  # stored now, and no lookup reads them (a line past 256
                n.docstring = None  # is an int object of its own: 32 B a node on the Linux kernel)
                n.end_line = n.end_column = 0
        self.parsed.extend(batch)
        self._batch = []


def _keep_results(
    results: Iterator[tuple],
    total: int,
    parsed,
    skipped: dict[str, str],
    progress,
) -> None:
    """Turn each worker result into a :class:`writer.ParsedFile` (or a skip reason), as they come,
    appended to ``parsed`` (a list or a :class:`_Streamed`, which makes the extraction).
    Run with the collector paused: every file's nodes and references join the heap and stay there
    till the write, and each collection of the oldest generation walked all of them (django-wheel,
    cold, two interleaved rounds: the parent's CPU during the parse 0.66 and 0.75 s, paused 0.55 and
    0.57 s)."""
    from codegraph.index import cache

    streamed = isinstance(parsed, _Streamed)
    for done, (path, reason, size, mtime_ns, out) in enumerate(results, 1):
        if reason:
            skipped[path] = reason
        else:
            digest, rows, data, interface, mentions = out
            fx = parsed.extraction(path, rows) if streamed else cache.from_rows(rows, ids_shared=True)
            # the extraction's label, not the extension's: a C++ header named .h is cpp
            parsed.append(
                writer.ParsedFile(path, size, mtime_ns, digest, fx.language, data, fx, interface, mentions)
            )
        if progress is not None:
            progress(done, total)
