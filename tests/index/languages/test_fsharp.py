"""F# over fixtures/repos/fsharp (a top-level module, a namespace over two files with types and a
nested module, a script and a test module) through the real indexer. Every expected edge below was
read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import edges, imported_files, node, nodes, unresolved

TYPES = "src/Shapes/Types.fs"
OPS = "src/Shapes/Ops.fs"
GEO = "src/Shapes/Geo.fs"


@pytest.fixture
def fs(indexed):
    return indexed("fsharp")


def test_types_members_modules_and_lets_are_symbols(fs):
    assert (TYPES, "Shape") in nodes(fs, "union")
    assert (TYPES, "Shape::Circle") in nodes(fs, "enum_member")
    assert (TYPES, "Point::X") in nodes(fs, "field")
    assert (TYPES, "IArea") in nodes(fs, "interface")
    assert (TYPES, "Box::Scale") in nodes(fs, "method")
    assert (TYPES, "Base::Name") in nodes(fs, "property")
    assert (OPS, "Ops::grow::helper") in nodes(fs, "function")  # a let function inside a function
    assert (GEO, "distance") in nodes(fs, "function")  # `module Acme.Geo`: the file is the module
    assert node(fs, "Box")["docstring"] == "A box, built from its sides."


def test_inherit_extends_and_interface_with_implements(fs):
    assert ("Box", f"{TYPES}:Base") in edges(fs, "extends")
    assert ("Box", f"{TYPES}:IArea") in edges(fs, "implements")


def test_open_brings_in_a_namespace_or_a_top_level_module(fs):
    # `open Acme.Shapes` links the namespace's files the script uses: Ops.fs (Ops.total), not
    # Types.fs, whose union cases (`Circle 1.0`) stay unresolved (see below)
    assert imported_files(fs, "src/App.fsx") == {GEO, OPS}
    calls = edges(fs, "calls")
    assert ("d", f"{GEO}:distance") in calls  # open Acme.Geo; distance 1.0 4.0
    assert ("t", f"{OPS}:Ops::total") in calls  # open Acme.Shapes; Ops.total
    # `Geo.distance` inside namespace Acme.Shapes after `open Acme`: the module Acme.Geo
    assert ("Ops::grow", f"{GEO}:distance") in calls


def test_self_identifier_typed_parameters_and_constructed_values(fs):
    calls = edges(fs, "calls")
    assert ("Box::Twice", f"{TYPES}:Box::Scale") in calls  # member self.Twice() = self.Scale(2.0)
    assert ("Ops::describe", f"{TYPES}:Base::Describe") in calls  # (b: Box), inherited member
    assert ("Ops::twice", f"{TYPES}:Box::Twice") in calls  # let made = Box(…); made.Twice()
    assert ("Ops::made", f"{TYPES}:Box") in edges(fs, "instantiates")
    assert ("Ops::grow", f"{OPS}:Ops::grow::helper") in calls


def test_builtins_union_cases_and_unknown_modules_stay_unresolved(fs):
    left = unresolved(fs)
    assert {(OPS, "List.sumBy"), (OPS, "printfn"), (GEO, "abs"), (OPS, "Missing.call")} <= left
    assert ("src/App.fsx", "Circle") in left  # a union case, not a function
