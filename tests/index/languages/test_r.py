"""R over fixtures/repos/r (a package: R/ with functions and R6 classes, scripts/ that source()
each other, tests/testthat/) through the real indexer. Every expected edge below was read from
the fixture's source, not from the tool's output."""

from __future__ import annotations

import pytest

from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return index_fixture("r", tmp_path_factory.mktemp("r"))


def targets(g, file, line):
    return {(h.kind, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_assigned_functions_are_definitions_with_roxygen_docs(g):
    (fn,) = g.nodes("circle_area", "function")
    assert fn["signature"] == "circle_area <- function(r)" and fn["docstring"].startswith("Area of a circle")
    assert g.nodes("rect_area", "function")  # ``=`` assigns too
    assert g.nodes("main::summarise", "function")  # nested in main


def test_r6_classes_have_their_list_functions_as_methods_and_inherit(g):
    assert {
        r["qualified_name"] for r in g.db.execute("SELECT qualified_name FROM nodes WHERE kind = 'method'")
    } == {
        "Shape::initialize",
        "Shape::area",
        "Shape::describe",
        "Circle::area",
        "Circle::secret",
    }
    assert {(h.source, h.target) for h in g.edges("extends")} == {("Circle", "Shape")}  # inherit = Shape


def test_s4_set_class_and_set_generic_define_a_class_and_a_function(g):
    assert g.nodes("Account", "class") and g.nodes("deposit", "function")


def test_package_r_files_share_one_namespace(g):
    # geometry.R:11 check_positive(w) is defined in R/utils.R, never sourced
    assert targets(g, "R/geometry.R", 11) == {("calls", "check_positive", "R/utils.R")}
    # testthat files see the package too
    assert targets(g, "tests/testthat/test-geometry.R", 2) == {("calls", "circle_area", "R/geometry.R")}


def test_source_binds_the_sourced_files_names_relative_then_from_the_root(g):
    # report.R sources helpers.R (beside it) and R/shape.R (from the root)
    imports = {h.target_file for h in g.edges("imports") if h.source_file == "scripts/report.R"}
    assert imports == {"scripts/helpers.R", "R/shape.R"}
    # square(3) is helpers.R's square, not the package's R/geometry.R one
    assert targets(g, "scripts/report.R", 10) == {("calls", "square", "scripts/helpers.R")}


def test_self_calls_and_new_typed_variables_reach_r6_methods(g):
    assert targets(g, "R/shape.R", 12) == {("calls", "Shape::area", "R/shape.R")}  # self$area()
    assert targets(g, "scripts/report.R", 6) == {("instantiates", "Circle", "R/shape.R")}  # Circle$new
    assert targets(g, "scripts/report.R", 7) == {("calls", "Circle::area", "R/shape.R")}  # c1$area()


def test_unsourced_names_namespaced_calls_and_base_functions_stay_unresolved(g):
    assert targets(g, "scripts/report.R", 11) == set()  # rect_area: R/geometry.R is not sourced
    assert "rect_area" in g.unresolved("scripts/report.R", 11)
    assert targets(g, "scripts/report.R", 9) == set()  # stats::median(c(1, 2, 3))
    assert targets(g, "R/utils.R", 8) == set()  # shape$area(): shape's class is unknown
