"""trace: the shortest call path from one symbol to another."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from codegraph import bounds
from codegraph.model import Node
from codegraph.query.relations import Site
from codegraph.query.symbols import find_symbols
from codegraph.store.reader import CALL_KINDS, Reader

MAX_TRACE_DEPTH = bounds.TRACE_DEPTH.high  # the bound trace accepts (CLI --max-depth, MCP maxDepth)


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
    targets = find_symbols(reader, end)
    result = trace_nodes(reader, sources, targets, max_depth=max_depth)
    result.start, result.end = start, end
    if not result.path and not _reverse:
        reverse = trace(reader, end, start, max_depth=max_depth, _reverse=True)
        result.reverse_exists = bool(reverse.path)
    return result


def trace_nodes(reader: Reader, sources: list[Node], ends: list[Node], *, max_depth: int = 8) -> TraceResult:
    """:func:`trace` between definitions already found (no name lookup, no reverse search): what
    explore uses, so a name it read from the index is never looked up again as text."""
    start = ", ".join(n.qualified_name for n in sources)
    end = ", ".join(n.qualified_name for n in ends)
    targets = {n.id for n in ends}
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
    return TraceResult(start, end, path, len(parent), max_depth=max_depth, depth_limited=limited and not path)
