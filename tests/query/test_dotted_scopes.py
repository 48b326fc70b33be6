"""Names whose stored scope holds dots (a C# namespace, an Elixir module): the names codegraph prints
are accepted back, and explore answers a question naming two of them."""

from __future__ import annotations

from codegraph.query import explore
from codegraph.query.node import node
from codegraph.query.relations import callers
from codegraph.query.symbols import find_symbols
from codegraph.render import render


def test_a_name_printed_with_a_dotted_namespace_is_found_again(indexed):
    reader = indexed("csharp")
    (cls,) = [n for n in find_symbols(reader, "TransferService") if n.kind == "class"]
    assert cls.qualified_name == "Ledger.Core.Services::TransferService"
    assert find_symbols(reader, cls.qualified_name)[0].id == cls.id
    (method,) = find_symbols(reader, "Ledger.Core.Services::TransferService::Transfer")
    assert method.name == "Transfer" and method.file_path.endswith("TransferService.cs")
    assert find_symbols(reader, "Ledger.Core.Services.TransferService.Transfer") == [method]


def test_a_file_qualified_dotted_namespace_name_is_found(indexed):
    reader = indexed("csharp")
    (method,) = find_symbols(reader, "TransferService.cs:Ledger.Core.Services.TransferService.Transfer")
    assert method.name == "Transfer"


def test_node_and_callers_accept_an_elixir_module_function_as_printed(indexed):
    reader = indexed("elixir")
    result = node(reader, "Shop.Cart::total")
    assert result.definition.file_path == "lib/shop/cart.ex" and result.definition.name == "total"
    (module,) = find_symbols(reader, "Shop.Cart")
    assert module.name == "Shop.Cart" and module.file_path == "lib/shop/cart.ex"
    assert node(reader, "Shop.Item::line_total").definition.file_path == "lib/shop/item.ex"
    assert callers(reader, "Shop.Util::round_price")  # Shop.Cart.total calls it (cart.ex line 26)


def test_explore_naming_two_dotted_scope_symbols_answers_instead_of_failing(indexed):
    reader = indexed("elixir")
    result = explore.explore(reader, "how does Cart.total use Item.line_total")
    text = render(result)
    assert "lib/shop/cart.ex" in {s.path for s in result.sections}
    # total passes &Item.line_total/1 to Enum.map: a function reference, not a call edge, so no path
    assert result.flow == [] and "## Flow" in text and "no call path" in text


def test_explore_naming_two_csharp_methods_traces_the_call_between_them(indexed):
    reader = indexed("csharp")
    result = explore.explore(reader, "how does TransferService.Transfer reach Guard.NotNull or Math.Clamp")
    names = [n.qualified_name for n, _ in result.flow]
    assert names[0] == "Ledger.Core.Services::TransferService::Transfer"
    assert names[-1] == "Ledger.Core.Util::Math::Clamp"
