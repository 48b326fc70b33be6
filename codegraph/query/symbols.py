"""Turning a symbol argument (``filter``, ``QuerySet.filter``, ``QuerySet::filter``,
``django/db/models/query.py:QuerySet.filter``) into the definitions it names."""

from __future__ import annotations

import difflib

from codegraph.errors import InputEmpty, InputTooLong, SymbolNotFound
from codegraph.index.languages import language_for
from codegraph.model import Node
from codegraph.store.reader import Reader

MAX_TEXT = 10_000
MAX_PATH = 4_096
# Which definition of a name comes first: types before their members (a struct before a method of the
# same name, a class before its constructor), then callables, then values; a kind not listed comes last.
_KIND_RANK = {
    **dict.fromkeys(("class", "struct", "record", "object", "actor", "contract", "component", "type"), 0),
    **dict.fromkeys(("interface", "trait", "protocol", "mixin"), 1),
    **dict.fromkeys(("enum", "union"), 2),
    **dict.fromkeys(("type_alias", "typedef", "newtype"), 3),
    **dict.fromkeys(("module", "namespace", "package", "library"), 4),
    **dict.fromkeys(("extension", "impl"), 5),
    "function": 6,
    **dict.fromkeys(("method", "macro"), 7),
    **dict.fromkeys(("constructor", "signature", "modifier", "event"), 8),
    **dict.fromkeys(("constant", "enum_member", "enumerator"), 9),
    **dict.fromkeys(("property", "field"), 10),
    "variable": 11,
}
_UNRANKED = 12


def check_text(value: str | None, what: str, limit: int = MAX_TEXT, *, required: bool = False) -> str | None:
    """Bounds for every text argument (10,000 chars; 4,096 for paths); a ``required`` one (a question,
    a task, a search query) must hold more than whitespace.

    Raises:
        InputTooLong: over the bound.
        InputEmpty: ``required`` and empty.
    """
    if value is not None and len(value) > limit:
        raise InputTooLong(f"{what} is {len(value)} characters; the limit is {limit}.")
    if required and not (value or "").strip():
        raise InputEmpty(f"The {what} is empty: ask in words or name a symbol, a file or a folder.")
    return value


def find_symbols(
    reader: Reader, text: str, *, file: str | None = None, line: int | None = None, suggestions: bool = True
) -> list[Node]:
    """Definitions named by ``text``, optionally narrowed to a file (suffix match) and a line.

    Raises:
        SymbolNotFound: nothing matches; carries close names as suggestions (none when ``suggestions``
            is false: explore drops them, and computing them cost ~100 ms on Django, issue 16).
    """
    check_text(text, "symbol")
    check_text(file, "file", MAX_PATH)
    raw = text.strip()
    head = raw.split(":", 1)[0]
    if ":" in raw and "::" not in raw and ("/" in head or _is_source_name(reader, head)):
        file, raw = raw.split(":", 1)  # file-qualified: path/to/x.py:Name or x.py:Name
    parts = [p for p in raw.replace("::", ".").replace("#", ".").split(".") if p]
    if not parts:
        raise SymbolNotFound(text)
    name = parts[-1]
    candidates = reader.nodes_named(name)
    if not candidates:
        candidates = reader.nodes_named(name, ignore_case=True)
    qualifier = parts[:-1]
    if qualifier:
        # the qualifier as the enclosing scopes first (``Pt.Pt``: Pt's constructor), as the module
        # path only when no scope matches (``query.QuerySet``; ``Pt.Pt`` would name the class of Pt.java)
        narrowed = [n for n in candidates if _scopes_match(n, qualifier)] or [
            n for n in candidates if _qualifier_matches(n, qualifier)
        ]
        # a simple name that holds dots itself (a module ``Shop.Cart``): the qualifier's tail is part of it
        for k in range(len(parts) - 2, -1, -1):
            if narrowed:
                break
            dotted = ".".join(parts[k:])
            narrowed = [n for n in reader.nodes_named(dotted) if not k or _qualifier_matches(n, parts[:k])]
        if not narrowed:
            narrowed = _inherited(reader, qualifier, name)
        candidates = narrowed
    if file:
        f = file.strip().lstrip("./")
        elsewhere = candidates
        candidates = [
            n for n in candidates if n.file_path == f or n.file_path.endswith("/" + f) or f in n.file_path
        ]
        if elsewhere and not candidates:  # not "Did you mean: a?" for `a --file typo.py`
            raise SymbolNotFound(text, in_file=file, defined_in=sorted({n.file_path for n in elsewhere}))
    if line is not None and len(candidates) > 1:
        spanning = [n for n in candidates if n.start_line <= line <= n.end_line]
        if spanning:
            candidates = [min(spanning, key=lambda n: n.end_line - n.start_line)]
    if not candidates:
        raise SymbolNotFound(text, suggest(reader, name) if suggestions else None)
    return sorted(candidates, key=lambda n: (_KIND_RANK.get(n.kind, _UNRANKED), n.file_path, n.start_line))


def _inherited(reader: Reader, qualifier: list[str], name: str) -> list[Node]:
    """``Flask.route`` where ``route`` is defined on a base class (``Scaffold.route``): the member
    found by walking the class's extends edges breadth-first."""
    classes = [
        n
        for n in reader.nodes_named(qualifier[-1])
        if n.kind in ("class", "interface") and (len(qualifier) == 1 or _qualifier_matches(n, qualifier[:-1]))
    ]
    seen: set[str] = set()
    while classes:
        found = [m for c in classes for m in reader.children(c.id) if m.name == name]
        if found:
            return found
        seen.update(c.id for c in classes)
        bases = [
            e.target for e in reader.outgoing([c.id for c in classes], ("extends",)) if e.target not in seen
        ]
        classes = list(reader.nodes(bases).values())
    return []


def _scope_chain(node: Node) -> list[str]:
    return [p for scope in node.qualified_name.split("::")[:-1] for p in scope.split(".") if p]


def _scopes_match(node: Node, qualifier: list[str]) -> bool:
    """Does the stored qualified name's chain of enclosing scopes end with ``qualifier``? Both sides
    split on ``::`` and ``.`` alike: a stored scope may itself be dotted
    (``Newtonsoft.Json::JsonTextReader``, ``Shop.Cart::total``), and the looked-up name was split on both."""
    return _scope_chain(node)[-len(qualifier) :] == qualifier


def _qualifier_matches(node: Node, qualifier: list[str]) -> bool:
    """Do the enclosing scopes (:func:`_scopes_match`), or the module path and then the scopes, end
    with ``qualifier``?"""
    chain = _scope_chain(node)
    # module-qualified: django.db.models.query.QuerySet.filter → file path + class chain
    module = node.file_path.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__").split(".")
    return chain[-len(qualifier) :] == qualifier or (module + chain)[-len(qualifier) :] == qualifier


def suggest(reader: Reader, name: str, limit: int = 5) -> list[str]:
    """Close names that exist in the index (never used to answer, only to suggest)."""
    names = reader.all_names()
    lower = {n.lower(): n for n in names}
    close = difflib.get_close_matches(name.lower(), list(lower), n=limit, cutoff=0.75)
    picks = [lower[c] for c in close]
    if len(picks) < limit:
        picks += [n for n in names if name.lower() in n.lower() and n not in picks][: limit - len(picks)]
    return picks


def _is_source_name(reader: Reader, name: str) -> bool:
    """Is ``name`` a file name codegraph indexes, by the built-in map or the project's
    ``codegraph.json`` ``extensions`` (a config that cannot be used counts as none)?"""
    from codegraph.config import load_config
    from codegraph.errors import ConfigUnparsable

    if language_for(name) is not None:
        return True
    try:
        return language_for(name, load_config(reader.root).extensions) is not None
    except ConfigUnparsable:
        return False
