"""impact: the blast radius of changing a symbol (everything that reaches it, by distance)."""

from __future__ import annotations

from dataclasses import dataclass, field

from codegraph.index.languages import is_test_path
from codegraph.model import Node
from codegraph.query.relations import confident_enough, declared_definition, doubt, instantiations
from codegraph.query.symbols import find_symbols
from codegraph.store.reader import Reader

IMPACT_KINDS = ("calls", "instantiates", "extends", "implements", "references", "imports")


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
    named = find_symbols(reader, symbol, file=file)
    # a declaration joined to its definition (a C header prototype) is that definition: named once
    ids = {d.id for d in named}
    defs = [d for d in named if (t := declared_definition(reader, d)) is None or t.id not in ids] or named
    seen = ids
    frontier = list(seen)
    # a class is reached through its methods too
    for d in defs:
        if d.kind in ("class", "interface"):
            frontier += [c.id for c in reader.children(d.id)]
    by_depth: dict[int, list[Node]] = {}
    doubts: dict[str, str | None] = {}  # reached id -> doubt of the surest edge that reached it
    count = 0
    # a constructor is reached through the instantiations of its type too (relations.instantiations)
    constructed = [row for d in defs for row in instantiations(reader, d)]
    for level in range(1, depth + 1):
        nxt = []
        rows = reader.relations("target", frontier, IMPACT_KINDS) + (constructed if level == 1 else [])
        for source, _, _kind, _line, confidence, how in rows:
            if not confident_enough(confidence, min_confidence):
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
