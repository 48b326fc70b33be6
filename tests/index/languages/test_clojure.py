"""Clojure over fixtures/repos/clojure (namespaces under src/ with a protocol, records, a
multimethod, a .cljc utility namespace and a clojure.test namespace) through the real indexer.
Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import edges, imported_files, node, nodes, unresolved

CORE = "src/acme/shapes/core.clj"
GEO = "src/acme/geo.clj"
UTIL = "src/acme/util.cljc"
TEST = "test/acme/shapes_test.clj"


@pytest.fixture
def clj(indexed):
    return indexed("clojure")


def test_defs_protocols_records_and_methods_are_symbols(clj):
    assert {(GEO, "distance"), (GEO, "square"), (UTIL, "unless")} <= nodes(clj, "function")
    assert (CORE, "Shape") in nodes(clj, "interface")
    assert (CORE, "Shape::area") in nodes(clj, "method")
    assert (CORE, "Circle::area") in nodes(clj, "method")
    assert (CORE, "draw :circle") in nodes(clj, "function")  # a defmethod
    assert node(clj, "distance")["docstring"] == "The distance between two numbers on a line."
    assert not node(clj, "square")["is_exported"]  # defn-


def test_records_implement_their_protocols(clj):
    assert ("Circle", f"{CORE}:Shape") in edges(clj, "implements")
    assert ("Square", f"{CORE}:Shape") in edges(clj, "implements")


def test_require_as_refer_and_refer_all_resolve_by_namespace(clj):
    assert imported_files(clj, CORE) == {GEO, UTIL}  # clojure.string is not in the project
    calls = edges(clj, "calls")
    assert ("spread", f"{GEO}:distance") in calls  # geo/distance
    assert ("describe", f"{UTIL}:clamp") in calls  # :refer [clamp]
    assert ("describe-works", f"{UTIL}:clamp") in calls  # :refer :all
    assert ("unknown", f"{GEO}:hypot") in calls  # acme.geo/hypot, fully qualified
    assert ("describe-works", f"{CORE}:describe") in calls  # core/describe


def test_protocol_methods_records_and_locals(clj):
    calls = edges(clj, "calls")
    assert ("describe", f"{CORE}:Shape::area") in calls  # (area shape): the protocol's method
    assert ("describe-works", f"{CORE}:Shape::area") in calls  # core/area
    inst = edges(clj, "instantiates")
    assert ("unit-circle", f"{CORE}:Circle") in inst  # ->Circle
    assert ("draw :circle", f"{CORE}:Circle") in inst  # map->Circle
    assert ("describe-works", f"{CORE}:Circle") in inst  # core/->Circle
    # a method implementation's head is no call of the protocol method
    assert ("Circle::area", f"{CORE}:Shape::area") not in calls
    # `describe` is let-bound inside spread: the local, not the top-level defn
    assert ("spread", f"{CORE}:describe") not in calls


def test_core_functions_and_unknown_names_stay_unresolved(clj):
    left = unresolved(clj)
    assert {(CORE, "missing-fn"), (CORE, "str.upper-case"), (TEST, "is")} <= left
    assert (UTIL, "max") not in left  # clojure.core and special forms are not even references
