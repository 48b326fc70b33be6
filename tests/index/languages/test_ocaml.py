"""OCaml over fixtures/repos/ocaml (a dune project: lib/*.ml with an .mli, bin/main.ml, a test) and
fixtures/repos/ocaml_interface (.mli beside its .ml) through the real indexer. Every expected edge
below was read off the fixtures' source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers, edges, kinds, rows, unresolved

SHAPE = "lib/shape.ml"
UTIL = "lib/util.ml"
MAIN = "bin/main.ml"


@pytest.fixture
def ml(indexed):
    return indexed("ocaml")


def test_files_are_modules_holding_lets_types_modules_and_classes(ml):
    got = kinds(ml, SHAPE)
    assert got["area"] == "function" and got["Table"] == "module" and got["Table::unit"] == "constant"
    assert got["t"] == "enum" and got["t::Circle"] == "enum_member"
    assert got["point"] == "struct" and got["point::x"] == "field"
    assert got["counter"] == "class" and got["counter::incr"] == "method"
    assert kinds(ml, UTIL)["mul"] == "function"  # `let square … and mul …`: a sibling, not nested


def test_interface_vals_are_declarations_with_their_types(ml):
    assert rows(
        ml, "SELECT language, signature FROM nodes WHERE file_path = 'lib/util.mli' AND name = 'mul'"
    ) == [("ocaml_interface", "float -> float -> float")]


def test_qualified_calls_walk_file_nested_and_aliased_modules(ml):
    calls = edges(ml, "calls")
    assert (MAIN, f"{SHAPE}:area") in calls  # Shape.area
    assert (MAIN, f"{SHAPE}:Table::total") in calls  # Shape.Table.total
    assert (MAIN, f"{SHAPE}:Table::describe") in calls  # Shape.T.describe, module T = Table
    assert ("area", f"{UTIL}:mul") in calls  # Util.mul
    assert (MAIN, f"{UTIL}:clamp_to") in calls  # … |> ignore


def test_open_and_enclosing_modules_resolve_bare_calls(ml):
    calls = edges(ml, "calls")
    assert ("area", f"{UTIL}:square") in calls  # open Util
    assert ("Table::describe", f"{SHAPE}:area") in calls  # the file around module Table
    assert ("count", f"{SHAPE}:count") in calls  # let rec
    assert ("test_area", f"{SHAPE}:area") in calls  # open Shape in the test


def test_constructors_instantiate_their_type_and_new_its_class(ml):
    made = edges(ml, "instantiates")
    assert ("Table::unit", f"{SHAPE}:t") in made and (MAIN, f"{SHAPE}:t") in made  # Shape.Rect (…)
    assert ("make", f"{SHAPE}:counter") in made


def test_local_lets_shadow_and_stdlib_stays_unresolved(ml):
    assert not any(dst.endswith(":square") for src, dst in edges(ml, "calls") if src == MAIN)
    missing = unresolved(ml)
    for name in ("List.map", "print_endline", "missing", "Geo.Shape.Circle"):
        assert (MAIN, name) in missing, name
    assert (UTIL, "Float.max") in missing


def test_docs_and_signatures(ml):
    assert rows(ml, "SELECT docstring FROM nodes WHERE file_path = ? AND name = 'area'", SHAPE) == [
        ("Area of a shape.",)
    ]
    assert rows(ml, "SELECT signature FROM nodes WHERE file_path = ? AND name = 'clamp_to'", UTIL) == [
        ("lo hi v",)
    ]


def test_an_interface_beside_its_implementation(indexed):
    mli = indexed("ocaml_interface")
    got = kinds(mli, "src/stack.mli")
    assert got["push"] == "function" and got["empty"] == "constant" and got["Ops::size"] == "function"
    assert rows(mli, "SELECT docstring FROM nodes WHERE file_path = 'src/stack.mli' AND name = 'push'") == [
        ("Push a value.",)
    ]


def test_ocaml_test_files_by_name():
    from codegraph.index.languages import is_test_path

    assert is_test_path("lib/test_shape.ml") and is_test_path("lib/shape_test.ml")
    assert not is_test_path("lib/shape.ml")


def test_every_operation_answers_on_the_ocaml_fixture(ml, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answers(
        ml.root,
        {
            "codegraph_search": ({"query": "clamp_to"}, UTIL),
            "codegraph_node": ({"symbol": "area"}, "let area = function"),
            "codegraph_callers": ({"symbol": "area"}, "describe"),
            "codegraph_callees": ({"symbol": "area"}, "square"),
            "codegraph_impact": ({"symbol": "mul"}, "area"),
            "codegraph_trace": ({"from": "describe", "to": "mul"}, "area"),
            "codegraph_files": ({"path": "lib"}, "shape.ml"),
            "codegraph_status": ({}, "ocaml"),
            "codegraph_explore": ({"query": "area of a shape"}, "area"),
        },
    )
