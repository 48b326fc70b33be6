"""search, files, status and node (symbol mode): direct lookups."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from codegraph.errors import SourceUnavailable, SymbolNotFound
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


def status(reader: Reader) -> StatusResult:
    """Index health plus what changed on disk since the last index (size/mtime, then hash)."""
    from codegraph.config import load_config
    from codegraph.index.discover import discover
    from codegraph.query.freshness import changed_files

    config = load_config(reader.root)
    found = discover(
        reader.root, exclude=config.exclude, include=config.include, extensions=config.extensions
    )
    indexed = {r["path"]: r for r in reader.files()}
    on_disk = {f.path for f in found.files}
    skipped = reader.skipped()
    # a file skipped after reading (binary, minified) is known, not new — unless it changed since
    added = sorted(p for p in on_disk - set(indexed) if p not in skipped)
    deleted = sorted(set(indexed) - on_disk)
    modified = changed_files(reader, on_disk & set(indexed), indexed)
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
        added,
        modified,
        deleted,
        reasons,
        read_progress(reader.paths),
        unresolved_by_language(reader.conn),
        reader.unresolved_by_kind(),
        _daemon(reader.root),
        installed_agents(reader.root),
    )


def _daemon(root) -> dict | None:
    from codegraph.mcp import service

    info = service.status(root)
    if info is None:
        return None
    keep = ("pid", "version", "uptime", "clients", "watching", "watch_note")
    return {k: info[k] for k in keep if k in info}


def installed_agents(project) -> list[dict]:
    """Agents and scopes whose config holds codegraph's server entry (for this project where the scope
    is per project), from the installer's own plans: what `codegraph uninstall` would remove. Configs
    that don't parse are left out (``codegraph doctor`` reports them)."""
    try:
        from codegraph_installer import targets
        from codegraph_installer.paths import InstallPaths
    except ImportError:  # pragma: no cover - the wheel ships the installer; a bare checkout may not
        return []
    from codegraph.errors import CodegraphError

    paths = InstallPaths.current(project)
    found = []
    for name in targets.TARGETS:
        for scope in targets.scopes(name):
            try:
                plan = targets.plan(name, "uninstall", paths, targets.make_options(name, scope))
            except (CodegraphError, ValueError, OSError):
                continue
            if plan.changed:
                config = next((str(f.path) for f in plan.files if f.status != "unchanged"), None)
                found.append({"target": name, "scope": scope, "config": config})
    return found


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
    from codegraph.query.freshness import current_span

    defs = find_symbols(reader, symbol, file=file, line=line)
    d = defs[0]
    members = reader.children(d.id) if d.kind in CONTAINER_KINDS else []
    try:
        text = reader.read_source(d.file_path)
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
        [e[0] for e in incoming[:NODE_RELATED_LIMIT]] + [e[1] for e in outgoing[:NODE_RELATED_LIMIT]]
    )
    callers = [Site(found[e[0]], e[3], e[2]) for e in incoming[:NODE_RELATED_LIMIT] if e[0] in found]
    callees = [Site(found[e[1]], e[3], e[2]) for e in outgoing[:NODE_RELATED_LIMIT] if e[1] in found]
    return NodeResult(d, source, members, callers, callees, len(incoming), len(outgoing), defs[1:], note)
