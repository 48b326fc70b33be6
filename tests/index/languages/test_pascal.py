"""Pascal over fixtures/repos/pascal (units with interface/implementation sections, classes whose
methods are implemented outside them, a program file and a test unit) through the real indexer.
Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import edges, imported_files, node, nodes, unresolved

SHAPES = "src/shapes.pas"


@pytest.fixture
def pas(indexed):
    return indexed("pascal")


def test_methods_implemented_outside_their_class_belong_to_it(pas):
    assert (SHAPES, "TShape::Describe") in nodes(pas, "method")
    # the declaration inside the class gives way to the implementation: one node per method
    assert [q for f, q in nodes(pas) if q == "TShape::Area"] == ["TShape::Area"]
    assert node(pas, "TShape::Area")["start_line"] == 41


def test_records_interfaces_and_multi_name_fields_are_symbols(pas):
    assert ("src/geo.pp", "TPoint") in nodes(pas, "struct")
    assert {("src/geo.pp", "TPoint::X"), ("src/geo.pp", "TPoint::Y")} <= nodes(pas, "field")
    assert (SHAPES, "IDrawable") in nodes(pas, "interface")
    assert node(pas, "Distance")["docstring"] == "The distance between two points."


def test_uses_resolves_units_by_name_and_the_unit_name_qualifies(pas):
    assert imported_files(pas, SHAPES) == {"src/geo.pp"}  # SysUtils is the RTL's
    assert imported_files(pas, "app.lpr") == {SHAPES, "src/registry.pas"}
    calls = edges(pas, "calls")
    assert ("TShape::Describe", "src/geo.pp:Distance") in calls  # Geo.Distance(…)
    assert ("TShape::Create", "src/geo.pp:MakePoint") in calls  # through `uses Geo`


def test_first_parent_extends_and_the_rest_implement(pas):
    assert ("TCircle", f"{SHAPES}:TShape") in edges(pas, "extends")
    assert ("TCircle", f"{SHAPES}:IDrawable") in edges(pas, "implements")


def test_bare_statements_self_and_inherited_reach_the_ancestors(pas):
    calls = edges(pas, "calls")
    assert ("TCircle::Draw", f"{SHAPES}:TShape::Describe") in calls  # `Describe;` and `Self.Describe;`
    assert ("TCircle::Area", f"{SHAPES}:TShape::Area") in calls  # inherited Area
    assert ("TCircle::Create", f"{SHAPES}:TShape::Create") in calls  # inherited Create(AName)
    assert ("TRegistry::Add", f"{SHAPES}:TShape::Describe") in calls  # FLast.Describe: a typed field


def test_typecasts_builtins_and_rtl_ancestors_stay_unresolved(pas):
    left = unresolved(pas)
    assert ("src/registry.pas", "TCircle") in left  # TCircle(C) is a cast, not a call
    assert {("src/geo.pp", "Sqrt"), (SHAPES, "WriteLn"), (SHAPES, "TObject")} <= left
    assert (SHAPES, "inherited.Create") in left  # TObject.Create is the RTL's


def test_identifiers_match_their_definitions_case_insensitively(pas):
    # tests/testshapes.pas: `c.describe;` is C.Describe (C: TCircle, inheriting TShape.Describe)
    assert ("RunTests", f"{SHAPES}:TShape::Describe") in edges(pas, "calls")
