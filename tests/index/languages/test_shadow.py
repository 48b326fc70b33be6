"""The shared shadowing walk (codegraph/index/languages/_shadow.py) over real Kotlin syntax trees."""

from __future__ import annotations

import pytest

from codegraph.index.languages import kotlin, parser_for
from codegraph.index.languages._shadow import shadowed

SOURCE = b"""fun draw(render: () -> Unit) {
    render()
    paint()
    val paint = { }
    paint()
}

fun other() {
    render()
    paint()
}
"""
# read from SOURCE: (line, called name) -> is the name bound around the call
EXPECTED = {
    (2, "render"): True,  # the parameter
    (3, "paint"): False,  # the local is declared after the call
    (5, "paint"): True,  # ... and before this one
    (9, "render"): False,  # another function: nothing binds it
    (10, "paint"): False,
}


def _calls(root) -> list:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            found.append(node)
        stack.extend(node.children)
    return sorted(found, key=lambda n: n.start_byte)


def _answers(calls, memo) -> dict[tuple[int, str], bool]:
    return {
        (c.start_point[0] + 1, c.children[0].text.decode()): shadowed(
            c,
            c.children[0].text.decode(),
            binders=kotlin.BINDERS,
            idents=kotlin.IDENTS,
            stop=kotlin.SCOPE_STOPS,
            memo=memo,
        )
        for c in calls
    }


@pytest.mark.parametrize("order", ["source order", "reversed"])
def test_a_memo_shared_by_the_calls_of_one_tree_gives_the_same_answers(order):
    calls = _calls(parser_for("kotlin").parse(SOURCE).root_node)
    if order == "reversed":  # the memo is filled from the later calls first
        calls.reverse()
    assert _answers(calls, None) == EXPECTED
    memo: dict = {}
    assert _answers(calls, memo) == EXPECTED
    assert memo  # the ancestors' declarations were kept
