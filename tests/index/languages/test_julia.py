"""Julia over fixtures/repos/julia (a package: src/Shapes.jl including types.jl, area.jl and a
Report submodule; test/runtests.jl) through the real indexer. Every expected edge below was read
from the fixture's source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.languages.julia import param_range
from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return index_fixture("julia", tmp_path_factory.mktemp("julia"))


def targets(g, file, line):
    return {(h.kind, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_modules_structs_abstract_types_and_both_function_forms_are_definitions(g):
    assert g.nodes("Shapes", "module") and g.nodes("Report", "module")
    (circle,) = g.nodes("Circle", "struct")
    assert circle["signature"] == "struct Circle <: AbstractShape" and circle["docstring"].startswith(
        "A circle"
    )
    assert g.nodes("Circle::r", "field")
    (abstract,) = g.nodes("AbstractShape", "class")
    assert abstract["is_abstract"]
    assert g.nodes("Shapes::describe", "function")[0]["signature"] == "describe(s::AbstractShape)"
    assert len(g.nodes("area", "function")) == 2  # short form, two methods
    assert g.nodes("Report::@loud", "function")
    assert g.nodes("Shapes::Base.show", "function")  # a method added to Base.show


def test_supertypes_are_extends_edges(g):
    assert {(h.source, h.target) for h in g.edges("extends")} == {
        ("Circle", "AbstractShape"),
        ("Square", "AbstractShape"),
    }


def test_included_files_share_the_including_modules_namespace(g):
    imports = {h.target_file for h in g.edges("imports") if h.source_file == "src/Shapes.jl"}
    assert {"src/types.jl", "src/area.jl", "src/Report.jl"} <= imports
    # area.jl:8 Square(…) is types.jl's struct: both are included by Shapes.jl
    assert targets(g, "src/area.jl", 8) == {("instantiates", "Square", "src/types.jl")}


def test_using_a_project_module_binds_its_names(g):
    # Shapes.jl:22 banner(label) via ``using .Report: banner``
    assert targets(g, "src/Shapes.jl", 22) == {("calls", "Report::banner", "src/Report.jl")}
    # runtests.jl: ``using Shapes``; Circle(2.0) and Shapes.describe(c)
    assert targets(g, "test/runtests.jl", 5) == {("instantiates", "Circle", "src/types.jl")}
    assert ("calls", "Shapes::describe", "src/Shapes.jl") in targets(g, "test/runtests.jl", 7)


def test_multiple_dispatch_binds_only_when_one_method_fits_the_argument_count(g):
    assert targets(g, "src/area.jl", 9) == {("calls", "scaled", "src/area.jl")}  # scaled(s, 2): 2 args
    assert [h.target_line for h in g.calls_at("src/area.jl", 9)] == [8]
    # area(s) and shapename(s): two one-argument methods each — dispatch is on runtime types
    assert targets(g, "src/Shapes.jl", 20) == set() and "area" in g.unresolved("src/Shapes.jl", 20)
    assert targets(g, "src/Shapes.jl", 21) == set()
    assert targets(g, "test/runtests.jl", 6) == set()


def test_base_functions_and_unknown_names_stay_unresolved(g):
    assert targets(g, "src/Report.jl", 5) == set()  # uppercase(text)
    assert "total" in g.unresolved("test/runtests.jl", 8)


def test_parameter_ranges_count_defaults_varargs_and_stop_at_keywords():
    assert param_range("f(a, b=2, c...; d=1)") == (1, None)
    assert param_range("g(x::Int, y)") == (2, 2)
    assert param_range("h(; k=1)") == (0, 0)
