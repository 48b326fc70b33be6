"""Extraction is a pure function of the bytes: the same file always gives the same result."""

from __future__ import annotations

from codegraph.index.extract import extract

REPEATED_IMPORTS = (
    b"from a import Query\n\n\nfrom b import QuerySet\n\n\ndef make():\n    return QuerySet().filter(a=1)\n\n\n"
    b"from b import QuerySet\n\n\ndef make():\n    return QuerySet().filter(a=1)\n"
)


def test_the_same_bytes_always_give_the_same_extraction_in_document_order():
    runs = [extract("pkg/m.py", REPEATED_IMPORTS, "python", "python") for _ in range(30)]
    assert all(r == runs[0] for r in runs)
    assert [(b.local, b.line) for b in runs[0].imports] == [("Query", 1), ("QuerySet", 4), ("QuerySet", 11)]


def test_a_type_fact_inside_a_same_line_duplicate_class_is_dropped_with_the_class():
    # the second `A` has the first one's node id, so it gets no node; its `this.y` fact used to
    # crash extraction (None.id) and with it the whole index run (found by mypy, issue 17)
    source = b"class A { m() { this.x = new Foo(); } } class A { n() { this.y = new Bar(); } }\n"
    fx = extract("a.js", source, "javascript", "javascript")
    assert [(var, type_name) for _, var, type_name in fx.assigned_types] == [("this.x", "Foo")]
