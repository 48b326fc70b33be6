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


def test_squash_collapses_every_unicode_space_run_to_one_space_as_the_regex_did():
    import re
    import sys

    from codegraph.index.extract import squash

    spaces = "".join(chr(c) for c in range(sys.maxunicode + 1) if re.match(r"\s", chr(c)))
    assert len(spaces) > 20  # tab, newline… and Unicode's: no-break space, ideographic space
    value = f"{spaces}def f(a,{spaces}b){spaces}\u00a0x\u3000y{spaces}"
    assert squash(value, 10_000) == "def f(a, b) x y" == re.sub(r"\s+", " ", value).strip()
    assert squash("a" * 10 + "  b", 8) == "aaaaaaa…"
    assert squash("a\u200bb  c") == "a\u200bb c"  # a zero-width space is not a space to either
