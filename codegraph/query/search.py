"""search: symbols by name or words (full-text over names, qualified names, signatures, docstrings)."""

from __future__ import annotations

from dataclasses import dataclass

from codegraph.model import Node
from codegraph.query.symbols import check_text
from codegraph.store.reader import Reader


@dataclass
class SearchResult:
    query: str
    hits: list[tuple[Node, float]]


def search(reader: Reader, query: str, *, kind: str | None = None, limit: int = 20) -> SearchResult:
    """Symbols matching ``query``: exact names first, then full-text matches (bm25)."""
    check_text(query, "query", required=True)
    exact = [(n, 1000.0) for n in reader.nodes_named(query.strip())] if query.strip().isidentifier() else []
    if kind:
        exact = [h for h in exact if h[0].kind == kind]
    seen = {n.id for n, _ in exact}
    hits = exact + [h for h in reader.search(query, kind=kind, limit=limit) if h[0].id not in seen]
    return SearchResult(query, hits[:limit])
