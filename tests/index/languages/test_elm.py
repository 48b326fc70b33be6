"""Elm over fixtures/repos/elm (an application: src/Shape/*.elm, src/Main.elm, an elm-test suite)
through the real indexer. Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers, edges, kinds, rows, unresolved

AREA = "src/Shape/Area.elm"
UTIL = "src/Shape/Util.elm"


@pytest.fixture
def elm(indexed):
    return indexed("elm")


def test_a_module_holds_functions_values_types_constructors_and_aliases(elm):
    got = kinds(elm, AREA)
    assert got["Shape.Area"] == "module" and got["Shape.Area::area"] == "function"
    assert got["Shape.Area::origin"] == "constant"  # no arguments
    assert got["Shape.Area::Shape"] == "enum" and got["Shape.Area::Shape::Circle"] == "enum_member"
    assert got["Shape.Area::Point"] == "type_alias"


def test_exposed_and_aliased_imports_resolve_calls(elm):
    calls = edges(elm, "calls")
    assert ("Shape.Area::area", f"{UTIL}:Shape.Util::square") in calls  # exposing (square)
    assert ("Shape.Area::area", f"{UTIL}:Shape.Util::mul") in calls  # import ... as U; U.mul
    assert ("Main::main", f"{UTIL}:Shape.Util::clampTo") in calls  # Shape.Util.clampTo, full name
    assert ("AreaTests::suite", f"{AREA}:Shape.Area::area") in calls  # as A; A.area
    assert ("Shape.Util::square", f"{UTIL}:Shape.Util::mul") in calls  # same module


def test_constructors_instantiate_their_type_through_exposed_constructors(elm):
    made = edges(elm, "instantiates")
    assert ("Main::main", f"{AREA}:Shape.Area::Shape") in made  # Shape(..) exposes Circle
    assert ("Shape.Area::origin", f"{AREA}:Shape.Area::Point") in made  # record alias constructor
    assert ("AreaTests::suite", f"{AREA}:Shape.Area::Shape") in made  # A.Rect


def test_a_let_binding_shadows_the_imported_function_of_that_name(elm):
    # total's `let square s = area s`: List.map square never means Shape.Util.square
    assert not any(src == "Main::total" and dst.endswith("::square") for src, dst in edges(elm, "calls"))
    assert ("Main::total", f"{AREA}:Shape.Area::area") in edges(elm, "calls")


def test_default_and_package_imports_stay_unresolved(elm):
    missing = unresolved(elm)
    for name in ("List.map", "List.sum", "String.fromFloat", "text", "missing"):
        assert ("src/Main.elm", name) in missing, name
    assert (UTIL, "Basics.clamp") in missing


def test_annotations_and_docs(elm):
    (row,) = rows(elm, "SELECT signature, docstring FROM nodes WHERE qualified_name = 'Shape.Area::area'")
    assert row == ("Shape -> Float", "Area of a shape.")
    assert rows(
        elm, "SELECT docstring FROM nodes WHERE qualified_name = 'Shape.Util' AND kind = 'module'"
    ) == [("Number helpers.",)]


def test_every_operation_answers_on_the_elm_fixture(elm, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answers(
        elm.root,
        {
            "codegraph_search": ({"query": "square"}, UTIL),
            "codegraph_node": ({"symbol": "area"}, "area : Shape -> Float"),
            "codegraph_callers": ({"symbol": "mul"}, "square"),
            "codegraph_callees": ({"symbol": "area"}, "square"),
            "codegraph_impact": ({"symbol": "mul"}, "area"),
            "codegraph_trace": ({"from": "total", "to": "mul"}, "area"),
            "codegraph_files": ({"path": "src"}, "Area.elm"),
            "codegraph_status": ({}, "elm"),
            "codegraph_explore": ({"query": "area of a shape"}, "area"),
        },
    )
