"""node (symbol mode): one definition with its source, members, callers and callees."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from codegraph.errors import SourceUnavailable, SymbolNotFound
from codegraph.index import source as source_file
from codegraph.model import CONTAINER_KINDS, Node
from codegraph.paths import quote_path
from codegraph.query.file_view import split_lines
from codegraph.query.relations import Site, incoming_calls
from codegraph.query.symbols import find_symbols
from codegraph.store.reader import CALL_KINDS, Reader

NODE_RELATED_LIMIT = 12


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
    text: str | None  # None when the source cannot be read; ``note`` then says why
    note: str | None
    try:
        text = source_file.read_text(reader.root, d.file_path, d.language)
    except SourceUnavailable as exc:  # answer from the index and say why the source is missing
        text, source = None, ""
        note = (
            f"source not shown: {quote_path(exc.path)} — {exc.reason}; the rest is as of the last index (lines "
            f"{d.start_line}-{d.end_line}; `codegraph sync` updates it)"
        )
    if text is not None:
        note = None
        lines = split_lines(text)  # the lines the file view shows
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
    incoming = incoming_calls(reader, d)  # a constructor: the instantiations of its type too
    outgoing = reader.outgoing([d.id], CALL_KINDS)
    found = reader.nodes(
        [e.source for e in incoming[:NODE_RELATED_LIMIT]] + [e.target for e in outgoing[:NODE_RELATED_LIMIT]]
    )
    callers = [
        Site(found[e.source], e.line, e.kind, e.confidence, e.resolved_by)
        for e in incoming[:NODE_RELATED_LIMIT]
        if e.source in found
    ]
    callees = [
        Site(found[e.target], e.line, e.kind) for e in outgoing[:NODE_RELATED_LIMIT] if e.target in found
    ]
    return NodeResult(d, source, members, callers, callees, len(incoming), len(outgoing), defs[1:], note)
