"""Overloads told apart by argument count, for languages whose methods share a name (C#, Scala).

A method's parameter range comes from its stored signature (``(a: Int, b: String = "")`` takes 1 or
2 arguments; ``(params object[] xs)`` / ``(xs: Int*)`` any number from 0). When a call's argument
count leaves exactly one overload, that one is the target; when it leaves several (or none), the
first overload in source order is kept with ``resolvedBy`` ``overload-guess``, so the edge says it
is a guess instead of picking one silently (issue 10).
"""

from __future__ import annotations

import functools

from codegraph.model import Node

CALLABLE = frozenset({"method", "function"})
_OPEN = "([{<"
_CLOSE = ")]}>"
# signatures whose range is kept: a call asks for every overload's range (cs-keepass: 7,649 readings of
# 375 signatures, a twentieth of its resolution profile)
SIGNATURE_MEMO = 65536


def split_params(signature: str) -> list[str]:
    """The top-level comma-separated items of the first parameter list of ``signature``."""
    if not signature or not signature.startswith("("):
        return []
    depth = 0
    item: list[str] = []
    items: list[str] = []
    for ch in signature[1:]:
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            items.append("".join(item).strip())
            item = []
        else:
            item.append(ch)
    last = "".join(item).strip()
    if last:
        items.append(last)
    return items


@functools.lru_cache(maxsize=SIGNATURE_MEMO)
def _param_list(signature: str | None) -> tuple[str, ...]:
    """:func:`split_params` of ``signature`` as a tuple, kept: a call that one overload fits compares
    parameter lists with every inherited one (Scala's library: 6k picks)."""
    return tuple(split_params(signature or ""))


@functools.lru_cache(maxsize=SIGNATURE_MEMO)
def param_range(signature: str | None) -> tuple[int, int | None]:
    """(fewest, most) arguments a callable with ``signature`` takes; most is None for varargs.
    ``this T x`` (a C# extension's receiver) and ``implicit`` lists are not arguments."""
    items = [p for p in split_params(signature or "") if not p.startswith("this ")]
    if items and items[0].startswith("implicit "):
        return 0, 0
    low, high = 0, 0
    for p in items:
        if p.startswith("params ") or p.rstrip().endswith("*"):
            return low, None
        high += 1
        if "=" not in p:
            low += 1
    return low, high


def fits(node: Node, arity: int) -> bool:
    low, high = param_range(node.signature)
    return low <= arity and (high is None or arity <= high)


def overloads(project, target: Node) -> list[Node]:
    """``target`` and the same-named callables of its type (or scope), in source order."""
    parent = project.parent.get(target.id)
    if parent is None:
        return [target]
    same = [n for n in project.children.get(parent, {}).get(target.name, ()) if n.kind in CALLABLE]
    if target not in same:
        same.append(target)
    return sorted(same, key=lambda n: (n.file_path, n.start_line))


def inherited(project, target: Node) -> list[Node]:
    """The same-named callables of the bases of ``target``'s type, nearest base first, each base's in
    source order (empty when ``target`` is not a member of a type with bases in the project)."""
    parent = project.parent.get(target.id)
    if parent is None:
        return []
    out: list[Node] = []
    for base in project.mro(parent)[1:]:
        same = [n for n in project.children.get(base, {}).get(target.name, ()) if n.kind in CALLABLE]
        out += sorted(same, key=lambda n: (n.file_path, n.start_line))
    return out


def pick(project, target: Node, how: str, arity: int | None) -> tuple[Node, str]:
    """The overload of ``target``'s name that a call with ``arity`` arguments means.

    A type's own overloads come first; those of its bases count too (C#: a derived class's
    ``F(string)`` does not hide the base's ``F(int, object)`` from a call ``F(1, null)``): when no own
    overload fits the count, the nearest inherited ones that fit are the candidates; when an own one
    and an inherited one with another parameter list both fit, the count does not decide and the own
    one is kept as a guess (an override, with the same parameter list, is no ambiguity)."""
    if target.kind not in CALLABLE:
        return target, how
    cands = overloads(project, target)
    if arity is not None:
        fitting = [n for n in cands if fits(n, arity)]
        above = [n for n in inherited(project, target) if fits(n, arity)]
        if not fitting and above:
            nearest = [n for n in above if project.parent.get(n.id) == project.parent.get(above[0].id)]
            return nearest[0], how if len(nearest) == 1 else "overload-guess"
        if len(fitting) == 1:
            own = _param_list(fitting[0].signature)
            hidden = any(_param_list(n.signature) != own for n in above)
            return fitting[0], "overload-guess" if hidden else how
        if fitting:
            return fitting[0], "overload-guess"
    if len(cands) == 1:
        return target, how
    return cands[0], "overload-guess"
