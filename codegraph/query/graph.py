"""callers, callees, impact and trace: walks over call/instantiation/inheritance edges."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from codegraph import bounds
from codegraph.index.languages import is_test_path
from codegraph.model import Node
from codegraph.query.symbols import find_symbols
from codegraph.store.reader import CALL_KINDS, Reader

MAX_TRACE_DEPTH = bounds.TRACE_DEPTH.high  # the bound trace accepts (CLI --max-depth, MCP maxDepth)
IMPACT_KINDS = ("calls", "instantiates", "extends", "implements", "references", "imports")


TOP_CONFIDENCE = 0.9  # the resolver's top tier; below it an answer says how sure it is
GUESSES = {
    "exact-match": "name-only match: the one definition of that name in the project",
    "overload-guess": "one of several overloads that fit the call",
}


@dataclass
class Site:
    """One related symbol and where the relation sits (the call line, 1-based), with the edge's
    confidence (0–1; None when the index does not say) and how the resolver found it."""

    node: Node
    line: int | None
    kind: str
    confidence: float | None = None
    resolved_by: str | None = None

    @property
    def doubt(self) -> str | None:
        """Why this edge is below the top tier, or None when it is not."""
        return doubt(self.confidence, self.resolved_by)


def doubt(confidence: float | None, resolved_by: str | None) -> str | None:
    """``"confidence 0.5: name-only match: …"`` for an edge below the top tier, else None."""
    if confidence is None or confidence >= TOP_CONFIDENCE:
        return None
    why = GUESSES.get(resolved_by or "", resolved_by or "lower-confidence rule")
    return f"confidence {confidence:.1f}: {why}"


def _keep(confidence: float | None, min_confidence: float | None) -> bool:
    return min_confidence is None or confidence is None or confidence >= min_confidence


@dataclass
class Group:
    """Answers for one definition of an ambiguous name."""

    definition: Node
    sites: list[Site] = field(default_factory=list)
    total: int = 0


@dataclass
class RelationResult:
    """callers / callees: one group per matching definition."""

    operation: str
    symbol: str
    groups: list[Group]


def _related(
    reader: Reader, op: str, symbol: str, file: str | None, limit: int, min_confidence: float | None
) -> RelationResult:
    defs = find_symbols(reader, symbol, file=file)
    groups = []
    for d in defs:
        column = "target" if op == "callers" else "source"
        other = [
            (e.source if op == "callers" else e.target, e.line, e.kind, e.confidence, e.resolved_by)
            for e in reader.relations(column, [d.id], CALL_KINDS)
            if _keep(e.confidence, min_confidence)
        ]
        found = reader.nodes(o[0] for o in other)
        sites = [Site(found[o[0]], *o[1:]) for o in other if o[0] in found]
        sites.sort(key=lambda s: (s.node.file_path, s.line or 0))
        groups.append(Group(d, sites[:limit], len(sites)))
    return RelationResult(op, symbol, groups)


def callers(
    reader: Reader,
    symbol: str,
    *,
    file: str | None = None,
    limit: int = 50,
    min_confidence: float | None = None,
) -> RelationResult:
    """Who calls or instantiates ``symbol``; one group per definition when the name is ambiguous.
    ``min_confidence`` (0–1) drops edges the resolver was less sure of.

    Raises:
        SymbolNotFound: with close names as suggestions.
    """
    return _related(reader, "callers", symbol, file, limit, min_confidence)


def callees(
    reader: Reader,
    symbol: str,
    *,
    file: str | None = None,
    limit: int = 50,
    min_confidence: float | None = None,
) -> RelationResult:
    """What ``symbol`` calls or instantiates, resolved to project definitions (``min_confidence``
    as for :func:`callers`)."""
    return _related(reader, "callees", symbol, file, limit, min_confidence)


@dataclass
class ImpactResult:
    """Blast radius: symbols that reach the definitions, by distance (1 = direct). ``doubtful`` maps
    a reached symbol's id to why it is uncertain, when every edge that reached it was below the top
    confidence tier (a name-only match, an overload guess)."""

    symbol: str
    definitions: list[Node]
    by_depth: dict[int, list[Node]]
    files: list[str]
    tests: list[str]
    doubtful: dict[str, str] = field(default_factory=dict)


def impact(
    reader: Reader,
    symbol: str,
    *,
    file: str | None = None,
    depth: int = 3,
    limit: int = 200,
    min_confidence: float | None = None,
) -> ImpactResult:
    """Everything that reaches ``symbol`` through calls, instantiation, inheritance, references and
    imports, breadth-first up to ``depth`` hops. Methods of a class count as the class. Edges below
    ``min_confidence`` (0–1) are not followed."""
    defs = find_symbols(reader, symbol, file=file)
    seen = {d.id for d in defs}
    frontier = list(seen)
    # a class is reached through its methods too
    for d in defs:
        if d.kind in ("class", "interface"):
            frontier += [c.id for c in reader.children(d.id)]
    by_depth: dict[int, list[Node]] = {}
    doubts: dict[str, str | None] = {}  # reached id -> doubt of the surest edge that reached it
    count = 0
    for level in range(1, depth + 1):
        nxt = []
        for source, _, _kind, _line, confidence, how in reader.relations("target", frontier, IMPACT_KINDS):
            if not _keep(confidence, min_confidence):
                continue
            why = doubt(confidence, how)
            if source not in seen:
                seen.add(source)
                nxt.append(source)
                doubts[source] = why
            elif source in doubts and doubts[source] is not None and why is None:
                doubts[source] = None
        if not nxt:
            break
        found = reader.nodes(nxt)
        level_nodes = sorted(found.values(), key=lambda n: (n.file_path, n.start_line))
        by_depth[level] = level_nodes[: max(0, limit - count)]
        count += len(by_depth[level])
        frontier = [n for n in nxt if not n.startswith("file:")]
        if count >= limit:
            break
    files = sorted({n.file_path for nodes in by_depth.values() for n in nodes})
    shown = {n.id for nodes in by_depth.values() for n in nodes}
    return ImpactResult(
        symbol,
        defs,
        by_depth,
        [f for f in files if not is_test_path(f)],
        [f for f in files if is_test_path(f)],
        {nid: why for nid, why in doubts.items() if why and nid in shown},
    )


@dataclass
class TraceResult:
    """A call path from ``start`` to ``end`` (each hop: node and the call line), or none found."""

    start: str
    end: str
    path: list[Site]
    searched: int
    reverse_exists: bool = False  # no path found, but END reaches START
    max_depth: int = 8
    depth_limited: bool = False  # no path found, and the search stopped at max_depth with calls left


def trace(reader: Reader, start: str, end: str, *, max_depth: int = 8, _reverse: bool = False) -> TraceResult:
    """Shortest call path from any definition of ``start`` to any definition of ``end`` (BFS over
    calls/instantiates, following methods of instantiated classes)."""
    sources = find_symbols(reader, start)
    targets = {n.id for n in find_symbols(reader, end)}
    parent: dict[str, tuple[str | None, int | None, str]] = {s.id: (None, None, "start") for s in sources}
    queue = deque((s.id, 0) for s in sources)
    hit = next((s.id for s in sources if s.id in targets), None)
    limited = False
    while queue and hit is None:
        nid, dist = queue.popleft()
        if dist >= max_depth:
            limited = limited or any(e.target not in parent for e in reader.outgoing([nid], CALL_KINDS))
            continue
        for _, target, kind, line in reader.outgoing([nid], CALL_KINDS):
            if target in parent:
                continue
            parent[target] = (nid, line, kind)
            if target in targets:
                hit = target
                break
            queue.append((target, dist + 1))
    path: list[Site] = []
    if hit is not None:
        chain = []
        cur: str | None = hit
        while cur is not None:
            prev, line, kind = parent[cur]
            chain.append((cur, line, kind))
            cur = prev
        chain.reverse()
        found = reader.nodes(c[0] for c in chain)
        path = [Site(found[c[0]], c[1], c[2]) for c in chain]
    result = TraceResult(
        start, end, path, len(parent), max_depth=max_depth, depth_limited=limited and not path
    )
    if not path and not _reverse:
        reverse = trace(reader, end, start, max_depth=max_depth, _reverse=True)
        result.reverse_exists = bool(reverse.path)
    return result
