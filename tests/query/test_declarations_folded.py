"""A declaration the resolver joins to its definition (a C header prototype: every edge to it points at
the definition) is noted on the definition's answer, not listed as a second definition "called by 0"
(found on Lua: ``callers luaD_precall`` listed ldo.h's prototype). Real indexer, real files."""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.relations import callees, callers
from codegraph.render import render
from codegraph.store.reader import Reader

FILES = {
    # work: declared in the header, defined in work.c, called from main.c
    "work.h": "int work(int n);\nint orphan(void);\n",
    "work.c": '#include "work.h"\n\nint work(int n) {\n    return n + 1;\n}\n',
    # orphan: declared only, so the call's edge stays on the prototype
    "main.c": '#include "work.h"\n\nint main(void) {\n    return work(1) + orphan();\n}\n',
}


@pytest.fixture
def reader(tmp_path):
    for rel, text in FILES.items():
        (tmp_path / rel).write_text(text)
    paths = ProjectPaths(tmp_path.resolve())
    index_project(paths, workers=1)
    with Reader(paths) as r:
        yield r


def test_callers_of_a_function_with_a_header_prototype_answer_one_definition(reader):
    result = callers(reader, "work")
    assert [(g.definition.file_path, g.definition.start_line) for g in result.groups] == [("work.c", 3)]
    (group,) = result.groups
    assert [(p.file_path, p.start_line) for p in group.declarations] == [("work.h", 1)]
    assert [(s.node.name, s.line) for s in group.sites] == [("main", 4)]
    text = render(result)
    assert text.startswith("work (function) work.c:3-5 (declared at work.h:1) — called by 1:")
    assert "names 2 definitions" not in text and "called by 0" not in text


def test_callees_fold_the_prototype_too(reader):
    (group,) = callees(reader, "work").groups
    assert group.definition.file_path == "work.c"


def test_asking_in_the_header_answers_for_the_definition(reader):
    (group,) = callers(reader, "work", file="work.h").groups
    assert group.definition.file_path == "work.c" and [s.node.name for s in group.sites] == ["main"]


def test_a_prototype_with_no_definition_stays_the_answer_with_its_callers(reader):
    (group,) = callers(reader, "orphan").groups
    assert (group.definition.file_path, group.declarations) == ("work.h", [])
    assert [s.node.name for s in group.sites] == ["main"]


def test_impact_names_the_definition_once_and_still_reaches_its_callers(reader):
    """The blast radius of ``work`` named it twice, the header prototype beside the definition
    (fresh-install pass, stop 30: ``Blast radius of luaK_exp2anyreg (function), luaK_exp2anyreg
    (function)``)."""
    from codegraph.query.impact import impact

    result = impact(reader, "work")
    assert [(d.file_path, d.start_line) for d in result.definitions] == [("work.c", 3)]
    assert [n.name for n in result.by_depth[1]] == ["main"]
    assert render(result).startswith("Blast radius of work (function):")
