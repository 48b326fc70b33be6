"""Elixir over fixtures/repos/elixir (a mix project: lib/shop/*.ex, a protocol and its defimpl, an
ExUnit test) through the real indexer. Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers, edges, kinds, rows, unresolved

CART = "lib/shop/cart.ex"
UTIL = "lib/shop/util.ex"
ITEM = "lib/shop/item.ex"


@pytest.fixture
def ex(indexed):
    return indexed("elixir")


def test_modules_nest_and_functions_belong_to_their_module(ex):
    item = kinds(ex, ITEM)
    assert item["Shop.Item"] == "module" and item["Shop.Item::Tag"] == "module"
    assert item["Shop.Item::Tag::label"] == "function"
    cart = kinds(ex, CART)
    assert cart["Shop.Sized"] == "protocol" and cart["Shop.Sized::size"] == "method"
    assert cart["Shop.Sized.Shop.Cart"] == "module"  # defimpl Shop.Sized, for: Shop.Cart


def test_clauses_are_one_function_and_defaults_widen_the_arity(ex):
    assert rows(ex, "SELECT start_line, end_line FROM nodes WHERE qualified_name = 'Shop.Util::clamp'") == [
        (5, 7)
    ]
    calls = edges(ex, "calls")
    assert ("Shop.Cart::total", f"{UTIL}:Shop.Util::round_price") in calls  # |> Util.round_price(): 1 of 1..2
    assert ("Shop.Cart::sample", f"{CART}:Shop.Cart::total") in calls  # __MODULE__.total(items)


def test_alias_import_and_nesting_resolve_remote_and_bare_calls(ex):
    calls = edges(ex, "calls")
    assert ("Shop.Cart::add", f"{UTIL}:Shop.Util::log") in calls  # alias Shop.Util, as: U; U.log
    assert ("Shop.Cart::add", f"{UTIL}:Shop.Util::clamp") in calls  # import Shop.Util, only: [clamp: 3]
    assert ("Shop.Item::tagged", f"{ITEM}:Shop.Item::Tag::label") in calls  # Tag nested in Shop.Item
    assert ("Shop.Cart::put", "lib/shop/store.ex:Shop.Store::save") in calls  # full name
    assert ("Shop.CartTest", f"{CART}:Shop.Cart::add") in calls  # alias Shop.Cart in the test


def test_only_a_nested_module_is_aliased_by_its_last_name(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    (tmp_path / "item.ex").write_text(
        "defmodule Shop.Item do\n  def a, do: Foo.go()\n  defmodule Tag do\n    def go, do: 1\n  end\n"
        "  def b, do: Tag.go()\nend\n"
    )
    (tmp_path / "item_foo.ex").write_text("defmodule Shop.Item.Foo do\n  def go, do: 2\nend\n")
    (tmp_path / "foo.ex").write_text("defmodule Foo do\n  def go, do: 3\nend\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        calls = edges(reader, "calls")
    assert ("Shop.Item::a", "foo.ex:Foo::go") in calls  # Shop.Item.Foo is defined elsewhere: not an alias
    assert ("Shop.Item::b", "item.ex:Shop.Item::Tag::go") in calls


def test_a_pipe_passes_one_more_argument(ex):
    assert ("Shop.Cart::sample", f"{CART}:Shop.Cart::describe") in edges(ex, "calls")  # items |> describe()


def test_structs_instantiate_their_module_and_head_patterns_reference_it(ex):
    assert ("Shop.Cart::sample", f"{ITEM}:Shop.Item") in edges(ex, "instantiates")  # %Item{...}
    assert ("Shop.Cart::add", f"{ITEM}:Shop.Item") in edges(ex, "references")  # def add(cart, %Item{})
    assert ("Shop.Item::line_total", f"{ITEM}:Shop.Item") in edges(ex, "references")  # %__MODULE__{}


def test_captures_reference_the_function(ex):
    assert ("Shop.Cart::total", f"{ITEM}:Shop.Item::line_total") in edges(
        ex, "references"
    )  # &Item.line_total/1


def test_behaviour_and_defimpl_are_implements_edges(ex):
    impl = edges(ex, "implements")
    assert ("Shop.Cart", "lib/shop/store.ex:Shop.Store") in impl
    assert ("Shop.Sized.Shop.Cart", f"{CART}:Shop.Sized") in impl


def test_kernel_erlang_modules_variables_and_unknown_functions_stay_unresolved(ex):
    missing = unresolved(ex)
    for name in ("length", "inspect", ":ets.new", "Util.missing", "Enum.map", "Logger.info"):
        assert (CART, name) in missing, name
    assert ("lib/shop/store.ex", "store.put") in missing
    assert not any(src.startswith("Shop.Store") for src, _ in edges(ex, "calls"))
    # module attributes are no calls
    assert not any(name in ("doc", "moduledoc", "behaviour", "callback") for _, name in missing)


def test_docs_signatures_and_visibility(ex):
    (row,) = rows(
        ex,
        "SELECT signature, docstring, is_exported FROM nodes WHERE qualified_name = 'Shop.Util::round_price'",
    )
    assert row == ("(p, digits \\\\ 2)", "Round a price to cents.", 1)
    assert rows(ex, "SELECT visibility FROM nodes WHERE qualified_name = 'Shop.Util::secret'") == [
        ("private",)
    ]
    assert rows(ex, "SELECT docstring FROM nodes WHERE qualified_name = 'Shop.Item'") == [
        ("One line of a cart.",)
    ]


def test_elixir_test_files_by_name():
    from codegraph.index.languages import is_test_path

    assert is_test_path("apps/shop/cart_test.exs") and not is_test_path("lib/cart.ex")


def test_every_operation_answers_on_the_elixir_fixture(ex, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    answers(
        ex.root,
        {
            "codegraph_search": ({"query": "clamp"}, UTIL),
            "codegraph_node": ({"symbol": "round_price"}, "def round_price(p, digits"),
            "codegraph_callers": ({"symbol": "clamp"}, "add"),
            "codegraph_callees": ({"symbol": "add"}, "clamp"),
            "codegraph_impact": ({"symbol": "log"}, "add"),
            "codegraph_trace": ({"from": "sample", "to": "round_price"}, "total"),
            "codegraph_files": ({"path": "lib"}, "cart.ex"),
            "codegraph_status": ({}, "elixir"),
            "codegraph_explore": ({"query": "round a price to cents"}, "round_price"),
        },
    )
