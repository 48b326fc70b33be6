"""Erlang over fixtures/repos/erlang (a rebar3 app: src/ modules, include/shop.hrl, an eunit test)
through the real indexer. Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers, edges, kinds, rows, unresolved

CART = "src/shop_cart.erl"


@pytest.fixture
def erl(indexed):
    return indexed("erlang")


def test_a_module_is_a_file_holding_its_functions_records_and_macros(erl):
    assert kinds(erl, CART)["shop_cart"] == "module"
    assert kinds(erl, CART)["shop_cart::add"] == "function"
    header = kinds(erl, "include/shop.hrl")
    assert header == {"include/shop.hrl": "file", "item": "struct", "MAX_QTY": "constant"}


def test_clauses_of_one_function_are_one_node_and_arities_are_different_functions(erl):
    spans = rows(erl, "SELECT start_line, end_line FROM nodes WHERE qualified_name = 'shop_util::clamp'")
    assert spans == [(6, 8)]  # three clauses
    totals = rows(
        erl, "SELECT start_line, signature FROM nodes WHERE qualified_name = 'shop_cart::total' ORDER BY 1"
    )
    assert totals == [(21, "(Cart)"), (25, "(Cart, Fee)")]


def test_local_calls_bind_by_name_and_arity(erl):
    calls = edges(erl, "calls")
    assert ("shop_cart::total", f"{CART}:shop_cart::total") in calls  # total/1 calls total/2
    got = rows(
        erl,
        "SELECT t.start_line FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE e.kind = 'calls' AND s.qualified_name = 'shop_cart::total' AND s.start_line = 21",
    )
    assert got == [(25,)]
    assert ("shop_util::round_price", "src/shop_util.erl:shop_util::round_price") in calls


def test_remote_calls_reach_the_named_modules_function_of_that_arity(erl):
    calls = edges(erl, "calls")
    assert ("shop_cart::add", "src/shop_util.erl:shop_util::log") in calls  # shop_util:log("added")
    round_price = rows(
        erl,
        "SELECT t.signature FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE e.kind = 'calls' AND s.qualified_name = 'shop_cart::total' AND t.name = 'round_price'",
    )
    assert round_price == [("(P)",)]  # shop_util:round_price(Sum + ...) has one argument
    assert ("shop_cart::sample", f"{CART}:shop_cart::total") in calls  # ?MODULE:total(Items)
    assert ("shop_cart_tests::total_test", f"{CART}:shop_cart::add") in calls


def test_imported_functions_bind_through_the_import_attribute(erl):
    assert ("shop_cart::add", "src/shop_util.erl:shop_util::clamp") in edges(erl, "calls")


def test_bifs_stdlib_and_variable_modules_stay_unresolved(erl):
    missing = unresolved(erl)
    for name in ("length", "lists:sum", "lists:map", "Store:save", "self", "shop_util:missing"):
        assert (CART, name) in missing, name
    assert not any(dst.endswith(("::length", "::sum", "::map")) for _, dst in edges(erl, "calls"))


def test_fun_values_reference_the_function(erl):
    assert ("shop_cart::sample", f"{CART}:shop_cart::line") in edges(erl, "references")  # fun line/1


def test_records_come_from_included_headers_and_patterns_only_reference_them(erl):
    assert ("shop_cart::sample", "include/shop.hrl:item") in edges(erl, "instantiates")
    assert ("shop_cart::line", "include/shop.hrl:item") in edges(erl, "references")  # line(#item{..})
    assert ("shop_cart::line", "include/shop.hrl:item") not in edges(erl, "instantiates")
    included = rows(
        erl,
        "SELECT s.file_path FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE e.kind = 'imports' AND t.file_path = 'include/shop.hrl' ORDER BY 1",
    )
    assert included == [(CART,), ("test/shop_cart_tests.erl",)]


def test_behaviour_is_an_implements_edge_to_the_behaviour_module(erl):
    assert ("shop_cart", "src/shop_store.erl:shop_store") in edges(erl, "implements")


def test_spec_signature_edoc_and_export_flag(erl):
    (row,) = rows(
        erl, "SELECT signature, docstring, is_exported FROM nodes WHERE qualified_name = 'shop_cart::add'"
    )
    assert row == ("(list(), #item{}) -> list()", "Add an item, clamping its quantity.", 1)
    assert rows(erl, "SELECT is_exported FROM nodes WHERE qualified_name = 'shop_cart::line'") == [(0,)]
    assert rows(erl, "SELECT is_abstract FROM nodes WHERE qualified_name = 'shop_store::put'") == [(1,)]


def test_erlang_test_files_by_name():
    from codegraph.index.languages import is_test_path

    assert is_test_path("src/cart_SUITE.erl") and is_test_path("src/cart_tests.erl")
    assert not is_test_path("src/cart.erl")


def test_every_operation_answers_on_the_erlang_fixture(erl, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answers(
        erl.root,
        {
            "codegraph_search": ({"query": "clamp"}, "src/shop_util.erl"),
            "codegraph_node": ({"symbol": "add"}, "add(Cart, Item = #item{qty = Q})"),
            "codegraph_callers": ({"symbol": "clamp"}, "add"),
            "codegraph_callees": ({"symbol": "add"}, "clamp"),
            "codegraph_impact": ({"symbol": "log"}, "add"),
            "codegraph_trace": ({"from": "total_test", "to": "clamp"}, "add"),
            "codegraph_files": ({"path": "src"}, "shop_cart.erl"),
            "codegraph_status": ({}, "erlang"),
            "codegraph_explore": ({"query": "clamp the quantity of an item"}, "add"),
        },
    )
