"""search, files, status and node (symbol mode): direct lookups."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from codegraph.errors import SourceUnavailable, SymbolNotFound
from codegraph.index import source as source_file
from codegraph.model import CONTAINER_KINDS, Node
from codegraph.paths import quote_path
from codegraph.query.graph import Site
from codegraph.query.symbols import MAX_PATH, check_text, find_symbols
from codegraph.store.reader import CALL_KINDS, Reader, unresolved_by_language

NODE_RELATED_LIMIT = 12


@dataclass
class SearchResult:
    query: str
    hits: list[tuple[Node, float]]


def search(reader: Reader, query: str, *, kind: str | None = None, limit: int = 20) -> SearchResult:
    """Symbols matching ``query``: exact names first, then full-text matches (bm25)."""
    check_text(query, "query")
    exact = [(n, 1000.0) for n in reader.nodes_named(query.strip())] if query.strip().isidentifier() else []
    if kind:
        exact = [h for h in exact if h[0].kind == kind]
    seen = {n.id for n, _ in exact}
    hits = exact + [h for h in reader.search(query, kind=kind, limit=limit) if h[0].id not in seen]
    return SearchResult(query, hits[:limit])


@dataclass
class FilesResult:
    filter: str | None
    files: list[dict]
    total: int
    skipped: dict[str, str] = field(default_factory=dict)


def files(reader: Reader, path: str | None = None, *, limit: int = 200) -> FilesResult:
    """Indexed files (language, symbol count), optionally under a folder or matching a substring;
    skipped files that match are listed with their reason."""
    check_text(path, "path", MAX_PATH)
    want = (path or "").strip().strip("/")
    rows = [
        dict(path=r["path"], language=r["language"], symbols=r["node_count"], size=r["size"])
        for r in reader.files()
        if not want or r["path"].startswith(want + "/") or want in r["path"]
    ]
    skipped = {p: why for p, why in reader.skipped().items() if not want or want in p}
    return FilesResult(path, rows[:limit], len(rows), dict(list(skipped.items())[:50]))


@dataclass
class StatusResult:
    root: str
    counts: dict[str, int]
    languages: dict[str, int]
    metadata: dict[str, str]
    added: list[str]
    modified: list[str]
    deleted: list[str]
    skipped: dict[str, dict]  # reason → {"count", "example"} (an example path per reason)
    running: dict | None = None  # a live index run: {"phase", "done", "total", "pid", "started"}
    # per language: {"unresolved": n, "likely_internal": m} (unresolved calls that look project-internal)
    unresolved: dict[str, dict[str, int]] = field(default_factory=dict)
    unresolved_kinds: dict[str, int] = field(default_factory=dict)  # reference kind → unresolved refs
    daemon: dict | None = None  # the daemon serving this project: pid, uptime, clients, watching, watch_note
    agents: list[dict] = field(default_factory=list)  # [{"target", "scope", "config"}] codegraph is in


def status(reader: Reader, *, daemon: dict | None = None, agents: list[dict] | None = None) -> StatusResult:
    """Index health plus what changed on disk since the last index (size/mtime, then hash).
    ``daemon`` (its pid, version, uptime, clients, watcher) and ``agents`` (``{"target", "scope",
    "config"}`` codegraph is installed for) come from the caller, which runs above this layer
    (:func:`codegraph.mcp.service.summary`, :func:`codegraph_installer.targets.installed_for`)."""
    from codegraph.index.drift import disk_drift

    drift = disk_drift(reader)
    skipped = reader.skipped()
    reasons: dict[str, dict] = {}
    for path, why in sorted(skipped.items()):
        entry = reasons.setdefault(why.split(" (", 1)[0], {"count": 0, "example": path})
        entry["count"] += 1
    from codegraph.index.background import read_progress

    return StatusResult(
        str(reader.root),
        reader.counts(),
        reader.languages(),
        reader.metadata(),
        drift.added,
        drift.modified,
        drift.deleted,
        reasons,
        read_progress(reader.paths),
        unresolved_by_language(reader.conn),
        reader.unresolved_by_kind(),
        daemon,
        agents or [],
    )


@dataclass
class NodeResult:
    """One definition: its source lines, members (for containers), callers and callees (≤12 each)."""

    definition: Node
    source: str
    members: list[Node]
    callers: list[Site]
    callees: list[Site]
    callers_total: int
    callees_total: int
    others: list[Node]  # other definitions of the same name, not shown
    note: str | None = None  # why ``source`` is empty (the file is gone, unreadable or not text)


def node(reader: Reader, symbol: str, *, file: str | None = None, line: int | None = None) -> NodeResult:
    """The definition of ``symbol`` (narrowed by ``file``/``line`` when ambiguous) with context.

    Raises:
        SymbolNotFound: with close names as suggestions.
    """
    from codegraph.index.drift import current_span

    defs = find_symbols(reader, symbol, file=file, line=line)
    d = defs[0]
    members = reader.children(d.id) if d.kind in CONTAINER_KINDS else []
    try:
        text = source_file.read_text(reader.root, d.file_path)
    except SourceUnavailable as exc:  # answer from the index and say why the source is missing
        text, source = None, ""
        note = (
            f"source not shown: {quote_path(exc.path)} — {exc.reason}; the rest is as of the last index (lines "
            f"{d.start_line}-{d.end_line}; `codegraph sync` updates it)"
        )
    if text is not None:
        note = None
        lines = text.split("\n")
        span = current_span(reader, d)
        if span is None:
            raise SymbolNotFound(
                symbol,
                [
                    f"{d.qualified_name} was in {d.file_path} at the last index but is no longer "
                    "there; run `codegraph sync`"
                ],
            )
        if span != (d.start_line, d.end_line):
            d = dataclasses.replace(d, start_line=span[0], end_line=span[1])
        body = lines[d.start_line - 1 : d.end_line]
        if members and len(body) > 80:
            # a large container: its outline (members) says more than 80 lines of the top of it
            body = body[:40]
        source = "\n".join(f"{d.start_line + i}\t{ln}" for i, ln in enumerate(body))
    incoming = reader.incoming([d.id], CALL_KINDS)
    outgoing = reader.outgoing([d.id], CALL_KINDS)
    found = reader.nodes(
        [e.source for e in incoming[:NODE_RELATED_LIMIT]] + [e.target for e in outgoing[:NODE_RELATED_LIMIT]]
    )
    callers = [
        Site(found[e.source], e.line, e.kind) for e in incoming[:NODE_RELATED_LIMIT] if e.source in found
    ]
    callees = [
        Site(found[e.target], e.line, e.kind) for e in outgoing[:NODE_RELATED_LIMIT] if e.target in found
    ]
    return NodeResult(d, source, members, callers, callees, len(incoming), len(outgoing), defs[1:], note)
