"""Does a parameter, local, loop, catch or pattern binding hide a called name? (issue 11)

``fun draw(render: () -> Unit) { render() }`` calls the parameter, not the project's top-level
``render``. A language's extractor asks :func:`shadowed` for a bare call and, when the name is
bound around the call, marks it local to the function (``Extractor.local_name``) so the resolver
leaves it unresolved rather than bind it to a project definition.

The walk goes up from the call through its ancestors to the first node of a ``stop`` type (a type
body, the file). At each ancestor, the children written before the one the call is in may declare
the name: a parameter list, a local declaration, a loop header, a lambda's or a catch clause's
parameters, a pattern. What a child declares is read generically: identifiers in its name-like
positions: its identifier children and those of its children that are binder nodes themselves
(a parameter list holds parameters, a declaration holds declarators), never its value, type or
body (fields such as ``value`` and ``type`` are skipped). Type names are ``type_identifier`` in
these grammars, so they are not taken for bindings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

SKIP_FIELDS = frozenset(
    {"value", "type", "body", "right", "default_value", "return_type", "result", "condition", "function"}
)
MAX_DEPTH = 6


def declared(node, binders: frozenset[str], idents: frozenset[str], depth: int = 0) -> Iterator[str]:
    """Names a declaration-like ``node`` binds (only when its type is in ``binders``, or below one)."""
    if depth > MAX_DEPTH:
        return
    if node.type in idents:
        if depth:
            yield node.text.decode("utf-8", "replace")
        return
    if depth == 0 and node.type not in binders:
        return
    for i, child in enumerate(node.children):
        if not child.is_named or (child.type not in binders and child.type not in idents):
            continue
        if node.field_name_for_child(i) in SKIP_FIELDS:
            continue
        yield from declared(child, binders, idents, depth + 1)


def shadowed(
    call,
    name: str,
    *,
    binders: frozenset[str],
    idents: frozenset[str],
    stop: frozenset[str],
    header: Callable[[object], Iterator[str]] | None = None,
    memo: dict[tuple[int, int, int], list[tuple[int, frozenset[str]]]] | None = None,
    root=None,
) -> bool:
    """Is ``name`` bound between the syntax node ``call`` and the first ancestor of a ``stop``
    type (declarations written before the call's branch; parameters and loop/lambda/catch
    headers precede the body they bind in)? ``header(node)`` adds names a node's own header
    binds that are not among its children (a Dart body's signature is its previous sibling).

    ``memo``, one dict per syntax tree, keeps what each ancestor's binder children declare (their
    starts and names): the calls of one function body walk the same ancestors, and reading a big
    block's children again for each call was a tenth of Kotlin's extraction (kotlin-rn-android).

    ``root``, the tree's root node, lets the ancestors be found from the top down: tree-sitter finds a
    node's ``parent`` by descending from the root, so walking up ``d`` levels cost ``d²`` steps (a
    Dart file of 1,000 calls nested on separate lines took 90 s of CPU to extract)."""
    chain = ancestors(call, root) if root is not None else None
    if chain is None:
        chain = []
        node = call.parent
        while node is not None and node.type not in stop:
            chain.append(node)
            node = node.parent
    child = call
    for node in chain:
        if node.type in stop:
            break
        if memo is None:
            for c in node.children:
                if c.start_byte >= child.start_byte:
                    break
                if c.is_named and c.type in binders and name in declared(c, binders, idents):
                    return True
        else:
            key = (node.id, node.start_byte, node.end_byte)
            bound = memo.get(key)
            if bound is None:
                bound = memo[key] = [
                    (c.start_byte, frozenset(declared(c, binders, idents)))
                    for c in node.children
                    if c.is_named and c.type in binders
                ]
            before = child.start_byte
            for start, names in bound:  # children are in source order: the rest start later
                if start >= before:
                    break
                if name in names:
                    return True
        if header is not None and name in header(node):
            return True
        child = node
    return False


def ancestors(node, root) -> list | None:
    """The ancestors of ``node``, nearest first, found by descending from ``root`` (each step costs
    the children of one node, where ``node.parent`` costs the depth); None when ``node`` is not
    below ``root``."""
    path = []
    current = root
    while current != node:
        path.append(current)
        current = current.child_with_descendant(node)
        if current is None:
            return None
    path.reverse()
    return path
