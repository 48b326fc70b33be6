"""explore's envelope packing: the source shown keeps the best-ranked files when the budget is tight.

Two small repos, written to a temporary directory and indexed with the real indexer:

- a shop whose order code calls into the stock and the payment modules, each called from six views
  with long paths and long calling lines, so the text around the source (blast radius, left-out
  names) runs far over explore's estimate of it and the renderer has to trim;
- a router whose top file's best span (the named ``find_handler``, ~6,000 characters) cannot fit a
  2,000-character envelope while its small ``clean_request_path`` can, next to a tree module whose
  six small methods the walk scores above that helper.

Expected by reading the repos: the shop question is about checkout.py, stock.py and gateway.py
(its words name their functions; the views only call them); the router question names find_handler,
defined in router.py."""

from __future__ import annotations

import textwrap

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query import explore
from codegraph.render import fit_envelope, render
from codegraph.store.reader import Reader

CHECKOUT = "shop/orders/checkout.py"
STOCK = "shop/inventory/stock.py"
GATEWAY = "shop/payments/gateway.py"
VIEWS = "shop/storefront_views_with_a_rather_long_directory_name/checkout_flows_for_every_kind_of_customer"
HELPERS = ["order_tax", "order_discount", "order_shipping", "order_rounding", "order_fee", "order_tip"]
SHOP_QUESTION = "how is an order placed, its stock reserved and its card charged"


def _shop() -> dict[str, str]:
    # each helper five lines from the next: separate spans, not one merged block
    helpers = "\n\n\n\n\n".join(
        f'def _{name}(cart):\n    """The order\'s {name.replace("_", " ")}."""\n'
        f"    return sum(item.price for item in cart) * {i + 2} / 100\n"
        for i, name in enumerate(HELPERS)
    )
    total = " + ".join(f"_{name}(cart)" for name in HELPERS)
    files = {
        CHECKOUT: textwrap.dedent(f'''
            """Placing an order: price the cart, reserve the stock, charge the card."""
            from shop.inventory.stock import reserve_stock
            from shop.payments.gateway import charge_card


            def place_order(cart, card):
                """Place an order: reserve its stock, then charge the card for its total."""
                total = _order_total(cart)
                reserve_stock(cart)
                return charge_card(card, total)


            def _order_total(cart):
                return {total}
            ''').lstrip()
        + "\n\n"
        + helpers
        + "\n" * 40  # over 80 lines: shown as spans, not whole
        + "# end\n",
        GATEWAY: textwrap.dedent('''
            """The card gateway."""


            def charge_card(card, amount):
                """Charge the card for the order's amount; raise when it is declined."""
                if amount <= 0:
                    raise ValueError("nothing to charge")
                receipt = {"card": card, "amount": amount}
                return receipt
            ''').lstrip()
        + "\n" * 80
        + "# end\n",
        STOCK: textwrap.dedent('''
            """Stock levels."""


            def reserve_stock(cart):
                """Reserve the stock of every item of an order's cart."""
                for item in cart:
                    item.reserved = True
                return cart
            ''').lstrip()
        + "\n" * 80
        + "# end\n",
    }
    req = "request_with_cart_and_card_and_more"  # long calling lines: the blast radius quotes them
    for i in range(6):
        files[f"{VIEWS}/customer_kind_{i}_checkout_view.py"] = textwrap.dedent(f"""
            from shop.orders.checkout import place_order
            from shop.payments.gateway import charge_card
            from shop.inventory.stock import reserve_stock


            def checkout_view_for_customer_kind_{i}_with_a_long_name({req}):
                reserved = reserve_stock({req}.cart_of_items_the_customer_chose_to_buy)
                charged = charge_card({req}.card, {req}.due)
                return place_order({req}.cart_of_items, {req}.card)
            """).lstrip()
    return files


def _router() -> dict[str, str]:
    table = "".join(
        f"    if path == '/route/number/{i}/of/the/long/table':\n        return segments, 'handler_{i}'\n"
        for i in range(120)
    )
    methods = "\n".join(
        f"    def match_{name}(self, segments):\n"
        f'        """Whether the segments match this node\'s {name}."""\n'
        f"        return [s for s in segments if s.startswith(self.{name}_prefix)]\n"
        for name in ["segment", "wildcard", "param", "catch_all", "prefix", "suffix"]
    )
    files = {
        "web/router.py": textwrap.dedent('''
            """Finding the handler of a request path."""
            from web.tree import Node


            def find_handler(root, path):
                """The handler registered for a request path: the tree walk, then the fixed table."""
                node = Node(root)
                segments = path.split("/")
                if node.match_segment(segments) or node.match_wildcard(segments) or node.match_param(segments):
                    return node.match_catch_all(segments) or node.match_prefix(segments) or node.match_suffix(segments)
            ''').lstrip()
        + table
        + textwrap.dedent('''
                return segments, None


            def clean_request_path(path):
                """A request path without its trailing slash."""
                return path.rstrip("/")
            '''),
        "web/tree.py": '"""The routing tree."""\n\n\nclass Node:\n'
        + "    def __init__(self, root):\n        self.root = root\n\n"
        + methods
        + "\n" * 60
        + "# end\n",
    }
    files.update({f"web/other{i}.py": f"def unrelated_{i}(x):\n    return x + {i}\n" for i in range(8)})
    return files


def _indexed(tmp_path_factory, name: str, files: dict[str, str]):
    root = tmp_path_factory.mktemp(name)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    index_project(ProjectPaths(root.resolve()), workers=1)
    return Reader(root)


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    with _indexed(tmp_path_factory, "shop", _shop()) as reader:
        yield reader


@pytest.fixture(scope="module")
def router(tmp_path_factory):
    with _indexed(tmp_path_factory, "router", _router()) as reader:
        yield reader


def _within(spans, start: int, end: int) -> bool:
    return any(sp.start <= start and end <= sp.end for sp in spans)


@pytest.mark.parametrize("budget", [4500, 5600])
def test_fitting_an_estimate_miss_keeps_every_top_file_and_trims_the_last_chosen_spans(shop, budget):
    # 4,500: the old fit dropped every section (the blast radius and the list of views stayed);
    # 5,600: it dropped gateway.py, ranked 3rd, while checkout.py kept its six small helpers
    packed = explore.explore(shop, SHOP_QUESTION, max_chars=budget)
    fitted = fit_envelope(packed)
    text = render(packed)
    assert len(text) <= budget
    assert [fs.path for fs in explore.rank(shop, SHOP_QUESTION).files[:3]] == [CHECKOUT, STOCK, GATEWAY]
    assert [sec.path for sec in fitted.sections][:3] == [CHECKOUT, STOCK, GATEWAY]
    assert fitted.trimmed, "the estimate of the text around the source was enough: nothing exercised"
    # what went is what the packer chose last: every span taken out was chosen after every span kept
    kept = [sp.order for sec in fitted.sections for sp in sec.spans]
    gone = [sp.order for spans in fitted.trimmed.values() for sp in spans]
    assert min(gone) > max(kept)
    # and it is named under "Left out", with its lines, for codegraph_node
    left_out = text.split("## Left out")[1]
    for path, spans in fitted.trimmed.items():
        for sp in spans:
            assert f"{sp.label.replace('::', '.')} (lines {sp.start}-{sp.end})" in left_out, (path, sp)


def test_a_trimmed_section_keeps_the_numbered_lines_of_the_spans_it_still_shows(shop):
    fitted = fit_envelope(explore.explore(shop, SHOP_QUESTION, max_chars=5600))
    source = (shop.root / CHECKOUT).read_text(encoding="utf-8").split("\n")
    checkout = fitted.sections[0]
    assert checkout.path == CHECKOUT and CHECKOUT in fitted.trimmed
    expected = explore.SPAN_GAP.join(
        "\n".join(f"{i}\t{source[i - 1]}" for i in range(sp.start, sp.end + 1)) for sp in checkout.spans
    )
    assert checkout.text == expected


def test_the_top_file_gets_its_best_span_that_fits_when_its_best_does_not(router):
    # find_handler (~6,000 characters) cannot fit; the first pass gives router.py the best span of
    # it that does, clean_request_path, before tree.py's methods (scored higher) take the room
    question = "how does find_handler match a request path"
    ranked = explore.rank(router, question)
    assert ranked.files[0].path == "web/router.py"
    packed = explore.explore(router, question, max_chars=2000)
    sections = {sec.path: sec.spans for sec in packed.sections}
    handler = next(n for n in router.nodes_named("find_handler") if n.file_path == "web/router.py")
    helper = next(n for n in router.nodes_named("clean_request_path") if n.file_path == "web/router.py")
    assert packed.sections[0].path == "web/router.py"
    assert _within(sections["web/router.py"], helper.start_line, helper.end_line)
    assert not _within(sections["web/router.py"], handler.start_line, handler.end_line)
    # the span too big for what was left is left out, not cut, and named under "Left out" when the
    # budget has room for that list (at 2,000 the fit trims the list before a top file's only span)
    assert [n.qualified_name for n in packed.left_out["web/router.py"]][0] == "find_handler"
    assert [sec.path for sec in fit_envelope(packed).sections] == ["web/router.py", "web/tree.py"]
    roomier = explore.explore(router, question, max_chars=3000)
    assert not _within(roomier.sections[0].spans, handler.start_line, handler.end_line)
    assert "- more in web/router.py: find_handler(root, path) (line 5)" in render(roomier)


def test_two_calls_on_one_line_are_one_blast_radius_site(tmp_path):
    # a line comparing two calls of the same function (the self repo's
    # ``assert fast.export_of(...) == slow.export_of(...)``) was listed twice under its caller
    (tmp_path / "calc.py").write_text(
        'def price_total(items):\n    """Sum the price of the items."""\n    return sum(items)\n'
    )
    (tmp_path / "check.py").write_text(
        "from calc import price_total\n\n\n"
        "def compare_price_totals(a, b):\n"
        "    return price_total(a) == price_total(b)\n"
    )
    index_project(ProjectPaths(tmp_path))
    with Reader(tmp_path) as reader:
        result = explore.explore(reader, "how is the price total of the items summed")
    sites = {seed.name: sites for seed, sites, _ in result.blast}
    assert [(n.name, line) for n, line in sites["price_total"]] == [("compare_price_totals", 5)]


def test_blast_radius_lists_callers_outside_tests_first_and_counts_the_rest(tmp_path):
    # explore took the first three incoming edges as stored: on the self repo ``resolve`` showed three
    # tests/ sites while its real callers (indexer.py ``_update``, ``_update_lazy``) were left out
    (tmp_path / "calc.py").write_text(
        'def price_total(items):\n    """Sum the price of the items."""\n    return sum(items)\n'
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_calc.py").write_text(
        "from calc import price_total\n\n\n"
        + "".join(f"def test_total_{i}():\n    assert price_total([{i}]) == {i}\n\n\n" for i in range(4))
    )
    (tmp_path / "zshop").mkdir()
    (tmp_path / "zshop" / "checkout.py").write_text(
        "from calc import price_total\n\n\ndef checkout_price(cart):\n    return price_total(cart)\n"
    )
    index_project(ProjectPaths(tmp_path))
    with Reader(tmp_path) as reader:
        result = explore.explore(reader, "how is the price total of the items summed")
    seed, sites, tests = next(b for b in result.blast if b[0].name == "price_total")
    assert [(n.name, n.file_path, line) for n, line in sites] == [
        ("checkout_price", "zshop/checkout.py", 5),
        ("test_total_0", "tests/test_calc.py", 5),
        ("test_total_1", "tests/test_calc.py", 9),
    ]
    assert tests == ["tests/test_calc.py"]
    assert "called from (3 of 5 call sites; all: `codegraph callers price_total`)" in render(result)
