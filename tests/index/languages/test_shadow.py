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


def test_calls_nested_hundreds_deep_in_dart_extract_in_seconds_not_minutes():
    # tree-sitter finds a node's parent by descending from the root, so walking up from each of
    # 1,000 calls nested on separate lines (6 KB of Dart) took 90 s of CPU; 600 took about 20 s
    import time

    from codegraph.index.extract import extract

    n = 600
    src = ("int g(int x) => x;\nint f() => " + "g(\n" * n + "1" + ")\n" * n + ";\n").encode()
    start = time.process_time()
    out = extract("deep.dart", src, "dart")
    took = time.process_time() - start
    assert sum(1 for r in out.refs if r.kind == "calls" and r.name == "g") == n
    assert took < 6, f"{took:.1f} s of CPU"


def test_calls_nested_hundreds_deep_in_kotlin_extract_in_seconds_not_minutes():
    # the receiver-block check walked up by node.parent too: 1,000 nested calls took 67 s of CPU
    import time

    from codegraph.index.extract import extract

    n = 600
    src = ("fun g(x: Int) = x\nfun f() = " + "g(\n" * n + "1" + ")\n" * n + "\n").encode()
    start = time.process_time()
    out = extract("Deep.kt", src, "kotlin")
    took = time.process_time() - start
    assert sum(1 for r in out.refs if r.kind == "calls" and r.name == "g") == n
    assert took < 6, f"{took:.1f} s of CPU"
