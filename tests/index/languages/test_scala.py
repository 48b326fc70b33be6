"""Scala over fixtures/repos/scala (a shop: chained package clauses, a package object, selector and
wildcard imports with a rename, case classes with companions, a trait, overloads, parameterless defs)."""

from __future__ import annotations

import json

import pytest

from codegraph.index.extract import extract
from codegraph.index.languages import is_test_path
from codegraph.query.relations import callees, callers
from tests.index.languages import fixture_graph
from tests.index.languages.fixture_graph import answers


def caller_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callers(reader, symbol).groups for s in g.sites})


def callee_names(reader, symbol):
    return sorted({s.node.qualified_name for g in callees(reader, symbol).groups for s in g.sites})


def edges_of(reader, kind):
    return set(
        tuple(row)
        for row in reader.conn.execute(
            "SELECT s.qualified_name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
            " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
            (kind,),
        )
    )


def edges_at(reader, path, line):
    """(refName, kind, target qualified name, target line, resolvedBy) of the edges from ``path:line``."""
    rows = reader.conn.execute(
        "SELECT e.metadata, e.kind, t.qualified_name, t.start_line FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE s.file_path = ? AND e.line = ? AND e.kind != 'contains'",
        (path, line),
    ).fetchall()
    return sorted((json.loads(m)["refName"], k, t, tl, json.loads(m)["resolvedBy"]) for m, k, t, tl in rows)


def unresolved_names(reader):
    return {r[0] for r in reader.conn.execute("SELECT reference_name FROM unresolved_refs")}


MAIN = "src/main/scala/shop/app/Main.scala"
SERVICE = "src/main/scala/shop/service/OrderService.scala"
ORDER = "src/main/scala/shop/model/Order.scala"


@pytest.fixture
def scala(indexed):
    return indexed("scala")


def test_scala_definitions_nest_without_the_package_and_objects_are_classes():
    src = (
        b"package a.b\n\n/** A point. */\ncase class P(x: Int) {\n  def norm: Int = x\n}\n"
        b"object P {\n  def zero(): P = P(0)\n}\ntrait T { def f(): Unit }\n"
    )
    fx = extract("P.scala", src, "scala")
    got = {(n.kind, n.qualified_name, n.signature) for n in fx.nodes if n.kind not in ("file", "import")}
    assert got == {
        ("class", "P", "case class P(x: Int)"),
        ("method", "P::norm", None),
        ("class", "P", "object P"),
        ("method", "P::zero", "()"),
        ("trait", "T", None),
        ("method", "T::f", "()"),
    }
    assert fx.package == "a.b"
    assert next(n.docstring for n in fx.nodes if n.signature == "case class P(x: Int)") == "A point."


def test_scala_extends_every_parent_of_a_with_chain(scala):
    # class Customer(...) extends Named with Serializable: Named is in the project, Serializable not
    assert ("Customer", "Named") in edges_of(scala, "extends")
    assert "Serializable" in unresolved_names(scala)
    assert ("Open", "Status") in edges_of(scala, "extends")  # case object Open extends Status


def test_scala_selector_import_with_a_rename_and_a_wildcard_import(scala):
    # import shop.model.{Order, LineItem => Line, Status, Open}; `line: Line` is a LineItem
    imported = {t for s, t in edges_of(scala, "imports") if s == SERVICE}
    assert {"Order", "LineItem", "Status", "Open"} <= imported
    # import shop.util._ opens the package object: clamp(...)
    assert "clamp" in callee_names(scala, "OrderService.place")
    # import shop.model._ in Main
    assert ("Main::run", "Order::describe") in edges_of(scala, "calls")


def test_scala_same_package_files_need_no_import(scala):
    # Order.scala (package shop.model) uses Customer and LineItem from Customer.scala
    assert ("Order::add", "LineItem") in edges_of(scala, "instantiates")
    assert "Customer::displayName" in callee_names(scala, "Order.describe")


def test_scala_chained_package_clauses_open_the_outer_package(scala):
    # Repository.scala: `package shop` then `package service` sees object shop.Ids
    assert callee_names(scala, "InMemoryRepository.freshId") == ["Ids::next"]
    # OrderService.scala: one `package shop.service` clause does not
    assert callee_names(scala, "Audit.tag") == []
    assert "Ids.next" in unresolved_names(scala)


def test_scala_new_and_case_class_calls_instantiate(scala):
    made = edges_of(scala, "instantiates")
    assert ("Main::repo", "InMemoryRepository") in made  # new InMemoryRepository (no parentheses)
    assert ("Main::service", "OrderService") in made and ("Main::service", "Audit") in made
    assert ("Customer::Anonymous", "Customer") in made


def test_scala_companion_object_calls_reach_the_object_and_its_apply(scala):
    # Order("o-1") in Main: the companion's explicit apply(id), not the case class constructor
    # and .add("book", BigDecimal(12)) on what apply returns (an Order): add(sku, price) at line 17
    assert edges_at(scala, MAIN, 9) == [
        ("Order", "calls", "Order::apply", 25, "companion"),
        ("Order().add", "calls", "Order::add", 17, "return-type"),
    ]
    # Order(parts(0)) inside object Order
    assert ("Order::parse", "Order::apply") in edges_of(scala, "calls")
    # Customer.Anonymous is a val of the companion: a read, no edge
    assert not any(t.endswith("Anonymous") for _, t in edges_of(scala, "calls"))


def test_scala_overloads_are_told_apart_by_argument_count(scala):
    # place(order: Order) at line 9, place(id: String, line: Line) at line 17
    assert edges_at(scala, MAIN, 10) == [
        ("service.place", "calls", "OrderService::place", 9, "type-inference")
    ]
    assert ("place", "calls", "OrderService::place", 9, "member") in edges_at(scala, SERVICE, 17)
    assert ("place", "calls", "OrderService::place", 9, "member") in edges_at(scala, SERVICE, 20)
    # add(sku, price) delegates to add(item) (line 12)
    assert ("add", "calls", "Order::add", 12, "member") in edges_at(scala, ORDER, 17)


def test_scala_parameterless_defs_are_calls_and_vals_are_reads(scala):
    # `checked.total` (def total: BigDecimal) and `repo.size` (def size: Int) are calls
    assert "Order::total" in callee_names(scala, "OrderService.place")
    assert callee_names(scala, "OrderService.count") == ["Repository::size"]
    # `order.id` is a case-class field: no edge
    assert "order.id" in unresolved_names(scala)


def test_scala_typed_vals_params_and_inferred_locals_type_their_receivers(scala):
    place = callee_names(scala, "OrderService.place")
    assert {"Repository::save", "Audit::record", "Pricing::withTax", "OrderService::validate"} <= set(place)
    # val checked = validate(order): validate returns Order
    assert ("OrderService::place", "Order::total") in edges_of(scala, "calls")
    assert ("Main::again", "OrderService::reorder") in edges_of(scala, "calls")  # val service = new ...


def test_scala_super_calls_reach_the_parent(scala):
    assert ("Customer::displayName", "Named::displayName") in edges_of(scala, "calls")


def test_scala_a_self_alias_means_this(scala):
    # trait Named { self => ... self.displayName }
    assert callee_names(scala, "Named.greeting") == ["Named::displayName"]


def test_scala_builtins_stdlib_and_unknown_receivers_stay_unresolved(scala):
    unresolved = unresolved_names(scala)
    assert {"println", "require", "math.max", "Console.println", "helpers.lookup", "BigDecimal"} <= unresolved
    # math.max must not reach Pricing.max; parts(0) indexes a local val
    assert caller_names(scala, "Pricing.max") == []
    assert "parts" in unresolved and not any(t == "parts" for _, t in edges_of(scala, "calls"))


def test_scala_test_files_by_name():
    assert is_test_path("src/main/scala/shop/OrderSpec.scala")
    assert is_test_path("core/src/shop/OrderServiceTest.scala")
    assert not is_test_path("src/main/scala/shop/Contest.scala")


def test_every_operation_answers_on_the_scala_fixture(scala, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    root = scala.root
    cases = {
        "codegraph_search": ({"query": "OrderService"}, "src/main/scala/shop/service/OrderService.scala"),
        "codegraph_node": ({"symbol": "Order.parse"}, "(line: String)"),
        "codegraph_callers": ({"symbol": "Order.apply"}, "parse"),
        "codegraph_callees": ({"symbol": "OrderService.place"}, "withTax"),
        "codegraph_impact": ({"symbol": "Pricing.withTax"}, "place"),
        "codegraph_trace": ({"from": "Main.run", "to": "Customer.displayName"}, "describe"),
        "codegraph_files": ({"path": "src/main/scala/shop"}, "Pricing.scala"),
        "codegraph_explore": ({"query": "how is an order placed and priced with tax"}, "withTax"),
        "codegraph_status": ({}, "scala"),
    }
    answers(root, cases)


def test_scala_sync_after_editing_a_companion_equals_a_full_index(tmp_path):
    import os
    import shutil

    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.conftest import FIXTURES

    def graph(root):
        with Reader(root) as r:
            return (
                set(r.conn.execute("SELECT id, kind, qualified_name, start_line FROM nodes")),
                set(r.conn.execute("SELECT source, target, kind, line, col FROM edges")),
                set(r.conn.execute("SELECT from_node_id, reference_name, line FROM unresolved_refs")),
            )

    live = tmp_path / "live"
    shutil.copytree(FIXTURES / "repos" / "scala", live)
    index_project(ProjectPaths(live.resolve()), workers=1)
    order = live / ORDER
    # the companion's explicit apply goes away: Order("o-1") now constructs the case class
    order.write_text(order.read_text().replace("def apply(id: String)", "def named(id: String)"))
    st = order.stat()
    os.utime(order, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    index_project(ProjectPaths(live.resolve()), workers=1)
    fresh = tmp_path / "fresh"
    shutil.copytree(live, fresh, ignore=shutil.ignore_patterns(".codegraph"))
    index_project(ProjectPaths(fresh.resolve()), workers=1)
    assert graph(live) == graph(fresh)
    with Reader(live) as r:
        assert edges_at(r, MAIN, 9) == [  # via shop.model._; .add on the Order it makes
            ("Order", "instantiates", "Order", 6, "package"),
            ("Order().add", "calls", "Order::add", 17, "return-type"),
        ]


def _index_files(tmp_path, files: dict[str, str]):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    return Reader(tmp_path)


def test_scala_a_bare_name_means_the_innermost_open_package_before_an_outer_alias(tmp_path):
    """scala-library: in ``package scala; package math``, ``extends Ordering[T]`` is scala.math's
    trait, not the ``scala`` package object's ``type Ordering``; its ``min`` is then inherited."""
    with _index_files(
        tmp_path,
        {
            "scala/package.scala": "package object scala {\n  type Ordering[T] = scala.math.Ordering[T]\n}\n",
            "scala/math/Ordering.scala": (
                "package scala\npackage math\n\ntrait Ordering[T] {\n  def min(x: T, y: T): T = x\n}\n"
            ),
            "scala/math/Numeric.scala": (
                "package scala\npackage math\n\ntrait Numeric[T] extends Ordering[T] {\n  def zero: T\n}\n"
            ),
            "scala/runtime/Proxy.scala": (
                "package scala\npackage runtime\n\nimport scala.math.Numeric\n\ntrait Proxy[T] {\n"
                "  protected implicit def num: Numeric[T]\n  def least(a: T, b: T): T = num.min(a, b)\n}\n"
            ),
        },
    ) as reader:
        assert fixture_graph.edges(reader, "extends") == {("Numeric", "scala/math/Ordering.scala:Ordering")}
        assert callee_names(reader, "Proxy.least") == ["Ordering::min"]


def test_scala_a_def_with_only_implicit_parameters_types_its_uses_like_a_field(tmp_path):
    """scala-library's ``def newBuilder[A](implicit ord: ClassTag[A]): Builder[A, CC[A]]``, used as
    ``newBuilder[A].result()`` and ``val b = newBuilder[A]; b.result()``."""
    with _index_files(
        tmp_path,
        {
            "shop/Builder.scala": "package shop\n\ntrait Builder[A] {\n  def result(): List[A]\n}\n",
            "shop/Companion.scala": (
                "package shop\n\nabstract class Companion {\n  def newBuilder[A](implicit n: Int): Builder[A]\n\n"
                "  def empty[A]: List[A] = newBuilder[A].result()\n\n  def one[A](a: A): List[A] = {\n"
                "    val b = newBuilder[A]\n    b.result()\n  }\n}\n"
            ),
        },
    ) as reader:
        assert "Builder::result" in callee_names(reader, "Companion.empty")
        assert "Builder::result" in callee_names(reader, "Companion.one")


def test_scala_an_import_of_an_object_member_binds_it_and_a_class_member_import_binds_nothing(tmp_path):
    """``import shop.Aliases.Store`` names the object's type alias (and through it ``Repo``);
    ``import shop.Box.Inner`` of a class without a companion object is no legal import path, so
    ``i.save()`` on an ``Inner`` stays unresolved; ``Registry.default`` is the companion object's val."""
    with _index_files(
        tmp_path,
        {
            "shop/Repo.scala": (
                "package shop\n\nclass Repo {\n  def save(): Unit = ()\n}\n\n"
                "object Aliases {\n  type Store = Repo\n}\n\n"
                "class Box {\n  type Inner = Repo\n}\n\nclass Registry {\n  def add(o: Any): Unit = ()\n}\n\n"
                "object Registry {\n  val default = new Registry\n  val unknown = make()\n  def make(): Any = 1\n}\n"
            ),
            "app/App.scala": (
                "package app\n\nimport shop.Aliases.Store\nimport shop.Box.Inner\nimport shop.Registry\n\n"
                "object App {\n"
                "  def run(s: Store): Unit = s.save()\n  def box(i: Inner): Unit = i.save()\n"
                "  def reg(): Unit = Registry.default.add(1)\n  def unk(): Unit = Registry.unknown.add(1)\n}\n"
            ),
        },
    ) as reader:
        calls = fixture_graph.edges(reader, "calls")
        assert ("App::run", "shop/Repo.scala:Repo::save") in calls
        assert ("App::reg", "shop/Repo.scala:Registry::add") in calls
        assert not {c for c in calls if c[0] in ("App::box", "App::unk")}


def test_a_def_whose_body_is_on_the_next_line_ends_at_its_last_token_not_at_the_next_def():
    # the grammar's indented body runs to the next token (``def d``): A::c was 6-8, the def ends at 7
    src = (
        b"object A {\n  def b(): Int = 1\n\n  /** C. */\n  def c(): Int =\n    foo()\n"
        b"  // trailing note\n\n  def d(): Int =\n    2\n}\n\nval top: Int =\n  3\n\n// end\n"
    )
    fx = extract("A.scala", src, "scala")
    spans = {n.qualified_name: (n.start_line, n.end_line) for n in fx.nodes if n.kind != "file"}
    assert spans["A::b"] == (2, 2)
    assert spans["A::c"] == (5, 6)
    assert spans["A::d"] == (9, 10)
    assert spans["A"] == (1, 11)
    assert spans["top"] == (13, 14)
