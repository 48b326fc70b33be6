"""Perl over fixtures/repos/perl (a lib/ of Shop:: packages, a script and a test) through the real
indexer. Every expected edge below was read from the fixture's source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.languages import is_test_path
from codegraph.mcp.dispatch import call_tool
from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def perl(tmp_path_factory):
    return index_fixture("perl", tmp_path_factory.mktemp("perl"))


def targets(g, file, line):
    return {(h.ref, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_use_maps_a_package_name_to_its_file_under_lib(perl):
    imports = {(h.source_file, h.target_file) for h in perl.edges("imports")}
    assert ("bin/shop.pl", "lib/Shop/Cart.pm") in imports  # use Shop::Cart;
    assert ("lib/Shop/Book.pm", "lib/Shop/Item.pm") in imports  # require Shop::Item;
    assert ("lib/Shop/Item.pm", "lib/Shop/Base.pm") in imports  # use parent 'Shop::Base';


def test_subs_are_methods_of_the_package_statement_before_them(perl):
    kinds = {r["qualified_name"]: r["kind"] for r in perl.db.execute("SELECT * FROM nodes")}
    assert kinds["Shop::Book"] == "module" and kinds["Shop::Book::init"] == "method"
    assert kinds["Shop::Book::Ebook::label"] == "method"  # a second package in the same file
    assert kinds["main"] == "function"  # a script's sub belongs to no package


def test_parent_isa_and_mojo_base_are_inheritance(perl):
    bases = {(h.source, h.target) for h in perl.edges("extends")}
    assert ("Shop::Item", "Shop::Base") in bases  # use parent 'Shop::Base'
    assert ("Shop::Book", "Shop::Item") in bases  # our @ISA = ('Shop::Item')
    assert ("Shop::Book::Ebook", "Shop::Book") in bases
    assert "Mojo::Base" in perl.unresolved("lib/Shop/Cart.pm", 2)  # -base: Mojo::Base is not here


def test_class_method_call_finds_the_constructor_through_the_bases(perl):
    # bin/shop.pl:10 Shop::Book->new: Book -> Item -> Base::new
    assert targets(perl, "bin/shop.pl", 10) == {("Shop::Book->new", "Shop::Base::new", "lib/Shop/Base.pm")}


def test_a_variable_from_new_calls_its_class_methods(perl):
    # bin/shop.pl:12 $cart->add($book) with my $cart = Shop::Cart->new
    assert targets(perl, "bin/shop.pl", 12) == {("$cart->add", "Shop::Cart::add", "lib/Shop/Cart.pm")}
    assert ("$book->describe", "Shop::Base::describe", "lib/Shop/Base.pm") in targets(perl, "bin/shop.pl", 14)
    assert targets(perl, "t/cart.t", 7) == {("$cart->total", "Shop::Cart::total", "lib/Shop/Cart.pm")}


def test_self_and_super_calls_follow_the_package_chain(perl):
    # lib/Shop/Book.pm:9 $self->SUPER::init(): Item has no init, Base does
    assert targets(perl, "lib/Shop/Book.pm", 9) == {
        ("$self->SUPER::init", "Shop::Base::init", "lib/Shop/Base.pm")
    }
    # :21 shift->SUPER::label() in Shop::Book::Ebook is Shop::Book's label
    assert targets(perl, "lib/Shop/Book.pm", 21) == {
        ("shift->SUPER::label", "Shop::Book::label", "lib/Shop/Book.pm")
    }
    # lib/Shop/Base.pm:18 $self->label: Base has no label (its subclasses do): no edge
    assert targets(perl, "lib/Shop/Base.pm", 18) == set()


def test_has_declares_accessors_that_self_calls_reach(perl):
    assert perl.nodes("Shop::Cart::items")[0]["kind"] == "property"
    assert targets(perl, "lib/Shop/Cart.pm", 9) == {("$self->items", "Shop::Cart::items", "lib/Shop/Cart.pm")}


def test_imported_and_qualified_function_calls(perl):
    # lib/Shop/Item.pm:12 fmt(...) from `use Shop::Util qw(fmt)`; Cart.pm:17 Shop::Util::round(...)
    assert ("fmt", "Shop::Util::fmt", "lib/Shop/Util.pm") in targets(perl, "lib/Shop/Item.pm", 12)
    assert targets(perl, "lib/Shop/Cart.pm", 17) == {
        ("Shop::Util::round", "Shop::Util::round", "lib/Shop/Util.pm")
    }
    assert targets(perl, "lib/Shop/Util.pm", 8) >= {("round", "Shop::Util::round", "lib/Shop/Util.pm")}


def test_builtins_unknown_subs_and_methods_stay_unresolved(perl):
    assert targets(perl, "bin/shop.pl", 15) == set()  # join(...) is Perl's, not Shop::Util::join
    assert "missing_helper" in perl.unresolved("bin/shop.pl", 16)
    assert "$cart->checkout" in perl.unresolved("bin/shop.pl", 17)  # Shop::Cart has no checkout
    assert "$_->price" in perl.unresolved("lib/Shop/Cart.pm", 16)  # an untyped receiver


def test_doc_comments_and_signatures_are_kept(perl):
    total = perl.nodes("Shop::Cart::total")[0]
    assert total["signature"] == "($self)" and total["docstring"] == "Sum of the item prices, rounded."


def test_dot_t_files_and_the_t_directory_are_tests():
    assert is_test_path("t/cart.t") and is_test_path("t/lib/Helper.pm")
    assert not is_test_path("lib/Shop/Cart.pm")


def test_has_with_a_list_declares_each_accessor_beside_the_others(perl):
    kinds = {r["qualified_name"]: r["kind"] for r in perl.db.execute("SELECT * FROM nodes")}
    assert kinds["Shop::Stock::sku"] == "property" and kinds["Shop::Stock::count"] == "property"
    # lib/Shop/Stock.pm:6 $self->count
    assert targets(perl, "lib/Shop/Stock.pm", 6) == {
        ("$self->count", "Shop::Stock::count", "lib/Shop/Stock.pm")
    }
    # :7 $_[0]->count: the invocant, not shifted off
    assert targets(perl, "lib/Shop/Stock.pm", 7) == {
        ("$_[0]->count", "Shop::Stock::count", "lib/Shop/Stock.pm")
    }


PERL_CASES = {
    "codegraph_search": ({"query": "Cart"}, "lib/Shop/Cart.pm"),
    "codegraph_node": ({"symbol": "Shop::Cart::total"}, "Sum of the item prices, rounded."),
    "codegraph_callers": ({"symbol": "Shop::Util::round"}, "total"),
    "codegraph_callees": ({"symbol": "main"}, "add"),
    "codegraph_impact": ({"symbol": "Shop::Base::init"}, "new"),
    "codegraph_trace": ({"from": "main", "to": "Shop::Util::round"}, "Shop::Util::fmt"),
    "codegraph_files": ({"path": "lib/Shop"}, "Cart.pm"),
    "codegraph_status": ({}, "perl"),
    "codegraph_context": ({"task": "round the cart total"}, "round"),
    "codegraph_explore": ({"query": "how is the total of a cart computed"}, "total"),
}


@pytest.mark.parametrize("tool", sorted(PERL_CASES))
def test_every_operation_answers_on_the_perl_fixture(perl, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = PERL_CASES[tool]
    result = call_tool(tool, args, default_root=perl.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]
