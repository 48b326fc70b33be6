"""callers and callees: the call and instantiation edges into or out of a symbol, with how sure
the resolver was of each."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from codegraph.index.languages import registry
from codegraph.model import Node
from codegraph.query.symbols import find_symbols
from codegraph.store.reader import CALL_KINDS, Reader, RelationRow

TOP_CONFIDENCE = 0.9  # the resolver's top tier; below it an answer says how sure it is


GUESSES = {
    "exact-match": "name-only match: the one definition of that name in the project",
    "overload-guess": "one of several overloads that fit the call",
    "constructor-guess": "an instantiation of its type, which another of its constructors may build: "
    "the arguments pick which one runs",
}
# the confidence of an instantiation counted as a call of one of several constructors (see instantiations)
CONSTRUCTOR_GUESS = 0.5
# the kinds of type an instantiation builds by running a constructor
CONSTRUCTED_KINDS = frozenset({"class", "struct"})


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


def confident_enough(confidence: float | None, min_confidence: float | None) -> bool:
    return min_confidence is None or confidence is None or confidence >= min_confidence


@dataclass
class Group:
    """Answers for one definition of an ambiguous name."""

    definition: Node
    sites: list[Site] = field(default_factory=list)
    total: int = 0
    declarations: list[Node] = field(default_factory=list)  # prototypes joined to this definition


@dataclass
class RelationResult:
    """callers / callees: one group per matching definition."""

    operation: str
    symbol: str
    groups: list[Group]


def _related(
    reader: Reader, op: str, symbol: str, file: str | None, limit: int, min_confidence: float | None
) -> RelationResult:
    from codegraph.index.drift import current_span

    defs = find_symbols(reader, symbol, file=file)
    groups: list[Group] = []
    by_id: dict[str, Group] = {}
    for d in defs:
        span = current_span(reader, d)  # the span in the file as it is now, as the banner says (issue 12)
        if span is not None and span != (d.start_line, d.end_line):
            d = replace(d, start_line=span[0], end_line=span[1])
        sites = _sites(reader, op, d, min_confidence)
        held = sites or (min_confidence is not None and _sites(reader, op, d, None))
        target = None if held else declared_definition(reader, d)
        if target is None:
            group = by_id.setdefault(d.id, Group(d))
            group.definition, group.sites, group.total = d, sites[:limit], len(sites)
            groups.append(group)
            continue
        # a declaration the resolver joins to its definition (C: a header prototype; its edges point
        # at the definition): noted on the definition's group, not a second definition "called by 0".
        # A definition the search left out (``--file x.h``) is answered for in its place.
        home = by_id.get(target.id)
        if home is None:
            home = by_id[target.id] = Group(target)
            if target not in defs:
                found = _sites(reader, op, target, min_confidence)
                home.sites, home.total = found[:limit], len(found)
                groups.append(home)
        home.declarations.append(d)
    return RelationResult(op, symbol, groups)


def instantiations(reader: Reader, d: Node) -> list[RelationRow]:
    """When ``d`` is a constructor of its type (by its language's rule, ``LanguageModule.constructors``):
    the ``instantiates`` edges into the type, as edges into ``d``, since an instantiation runs it
    (``new Point(3)``, ``Point(3)``; the graph points them at the type). A type its language reopens
    (a Ruby class declared in several places) counts as one. When the type has more
    constructors than ``d``, or one the index holds no node of (a Kotlin primary constructor, C++'s
    implicit copy constructor), or its declaration cannot be read as it is now, which one runs is the
    arguments' choice (or not known): each comes at confidence
    CONSTRUCTOR_GUESS, resolved by ``constructor-guess``. [] for any other node, or when no
    instantiation reaches the type."""
    module = registry().by_label.get(d.language)
    if module is None or d.kind not in ("method", "function"):
        return []
    if d.name not in module.constructor_names and not (
        module.constructors_named_like_type and d.qualified_name.endswith(f"{d.name}::{d.name}")
    ):
        return []
    owner = reader.parent(d.id)
    if owner is None or owner.kind not in CONSTRUCTED_KINDS:
        return []
    owners = [owner]
    if module.reopened_types:
        owners += [
            n
            for n in reader.nodes_named(owner.name)
            if n.id != owner.id
            and (n.qualified_name, n.language, n.kind) == (owner.qualified_name, owner.language, owner.kind)
        ]
    constructors: list[Node] = []
    certain = True
    for o in owners:
        header = _header(reader, o)
        found, sure = module.constructors(o, reader.children(o.id), header or "")
        constructors += found
        certain = certain and sure and header is not None
    if d.id not in {c.id for c in constructors}:
        return []
    rows = reader.relations("target", [o.id for o in owners], ("instantiates",))
    if certain and len(constructors) == 1:
        return [r._replace(target=d.id) for r in rows]
    return [
        r._replace(
            target=d.id,
            confidence=min(r.confidence, CONSTRUCTOR_GUESS)
            if r.confidence is not None
            else CONSTRUCTOR_GUESS,
            resolved_by="constructor-guess",
        )
        for r in rows
    ]


HEADER_LINES = 8  # lines of a type's declaration read for its header (up to its body's brace)


def _header(reader: Reader, owner: Node) -> str | None:
    """The declaration of type ``owner`` up to its body (``public record Pt(int x, int y)``), from
    the file as it is now (where the type is now, when the file changed since the index); None when
    it cannot be read or the type is gone from it."""
    from codegraph.errors import CodegraphError
    from codegraph.index import source as source_file
    from codegraph.index.drift import current_span

    span = current_span(reader, owner)
    if span is None:
        return None
    try:
        text = source_file.read_text(reader.root, owner.file_path, owner.language)
    except CodegraphError:
        return None
    lines = text.splitlines()[span[0] - 1 : span[0] - 1 + HEADER_LINES]
    return "\n".join(lines).split("{", 1)[0]


def incoming_calls(reader: Reader, d: Node) -> list[RelationRow]:
    """The calls and instantiations into ``d``, with the instantiations of its type when it is a
    constructor (:func:`instantiations`), one edge per (caller, line, kind); by caller and line."""
    rows = reader.relations("target", [d.id], CALL_KINDS)
    held = {(r.source, r.line) for r in rows}
    rows += [r for r in instantiations(reader, d) if (r.source, r.line) not in held]
    rows.sort(key=lambda r: (r.source, r.line or 0))
    return rows


def _sites(reader: Reader, op: str, d: Node, min_confidence: float | None) -> list[Site]:
    found_rows = (
        incoming_calls(reader, d) if op == "callers" else reader.relations("source", [d.id], CALL_KINDS)
    )
    other = [
        (e.source if op == "callers" else e.target, e.line, e.kind, e.confidence, e.resolved_by)
        for e in found_rows
        if confident_enough(e.confidence, min_confidence)
    ]
    found = reader.nodes(o[0] for o in other)
    sites = [Site(found[o[0]], *o[1:]) for o in other if o[0] in found]
    sites.sort(key=lambda s: (s.node.file_path, s.line or 0))
    return sites


def declared_definition(reader: Reader, d: Node) -> Node | None:
    """The definition the declaration ``d`` stands for, by its language's rule, or None."""
    module = registry().by_label.get(d.language)
    target = module.declaration_of(d, reader.nodes_named(d.name)) if module is not None else None
    return target if target is not None and target.id != d.id else None


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
