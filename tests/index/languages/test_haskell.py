"""Haskell over fixtures/repos/haskell (a cabal package: src/Geo/*.hs, app/Main.hs, an hspec test)
through the real indexer. Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers, edges, kinds, rows, unresolved

SHAPE = "src/Geo/Shape.hs"
UTIL = "src/Geo/Util.hs"


@pytest.fixture
def hs(indexed):
    return indexed("haskell")


def test_data_newtype_synonyms_classes_and_instances(hs):
    got = kinds(hs, SHAPE)
    assert got["Shape"] == "enum" and got["Shape::Circle"] == "enum_member"
    assert got["Point"] == "struct" and got["Point::px"] == "field"  # one record constructor
    assert got["Name"] == "struct" and got["Name::MkName"] == "enum_member"
    assert got["Table"] == "type_alias"
    assert got["Sized"] == "interface" and got["Sized::size"] == "method"
    assert got["Shape::size"] == "method"  # instance Sized Shape: a method of Shape


def test_equations_are_one_function_with_its_type_signature(hs):
    (row,) = rows(hs, "SELECT start_line, end_line, signature, docstring FROM nodes WHERE name = 'area'")
    assert row == (32, 36, "Shape -> Double", "Area of a shape.")
    assert rows(hs, "SELECT start_line, end_line FROM nodes WHERE qualified_name = 'Shape::size'") == [
        (28, 29)
    ]


def test_instance_is_an_implements_edge_from_the_type_to_the_class(hs):
    assert ("Shape", f"{SHAPE}:Sized") in edges(hs, "implements")


def test_import_lists_whole_modules_and_qualified_aliases_resolve_calls(hs):
    calls = edges(hs, "calls")
    assert ("area", f"{UTIL}:square") in calls  # import Geo.Util (square, mul)
    assert ("main", f"{UTIL}:clampTo") in calls  # import qualified Geo.Util as U; U.clampTo
    assert ("main", f"{SHAPE}:area") in calls  # import Geo.Shape (everything)
    assert ("main", f"{SHAPE}:Sized::size") in calls  # a class method
    assert ("Shape::size", f"{SHAPE}:countSides") in calls  # same module


def test_constructors_instantiate_their_type_but_patterns_do_not(hs):
    made = edges(hs, "instantiates")
    assert ("main", f"{SHAPE}:Shape") in made  # [Circle 2.0, Rect 1 2]; and Shape (..) in the test
    assert ("origin", f"{SHAPE}:Point") in made
    assert ("area", f"{SHAPE}:Shape") not in made  # area (Circle r) = ... only matches


def test_let_and_where_bindings_shadow_project_functions(hs):
    assert not any(src == "main" and dst.endswith(":square") for src, dst in edges(hs, "calls"))
    assert (SHAPE, "helper") in unresolved(hs)  # where helper x = ...: local, no edge


def test_prelude_and_packages_stay_unresolved(hs):
    missing = unresolved(hs)
    for name in ("map", "print", "sum", "missing"):
        assert ("app/Main.hs", name) in missing, name
    assert (SHAPE, "M.fromList") in missing and ("test/ShapeSpec.hs", "hspec") in missing


def test_every_operation_answers_on_the_haskell_fixture(hs, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answers(
        hs.root,
        {
            "codegraph_search": ({"query": "square"}, UTIL),
            "codegraph_node": ({"symbol": "area"}, "area :: Shape -> Double"),
            "codegraph_callers": ({"symbol": "mul"}, "square"),
            "codegraph_callees": ({"symbol": "area"}, "square"),
            "codegraph_impact": ({"symbol": "mul"}, "area"),
            "codegraph_trace": ({"from": "main", "to": "mul"}, "main"),
            "codegraph_files": ({"path": "src"}, "Shape.hs"),
            "codegraph_status": ({}, "haskell"),
            "codegraph_explore": ({"query": "area of a shape"}, "area"),
        },
    )
