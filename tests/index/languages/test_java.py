"""Java over fixtures/repos/java (a shop: model, util, service packages) through the real indexer.

Every expected edge below comes from reading the fixture's source: file:line is the call site."""

from __future__ import annotations

import pytest

from codegraph.index import source
from codegraph.index.languages import is_generated_path, module_for
from codegraph.mcp.dispatch import call_tool
from tests.index.languages import fixture_graph, jvm_sites

SRC = "src/main/java/com/acme/shop/"


@pytest.fixture
def java(indexed):
    return indexed("java")


def target(reader, file: str, line: int, callee: str) -> tuple[str, str, int]:
    return jvm_sites.target(reader, SRC, file, line, callee)


def sites(reader):
    return jvm_sites.sites(reader, SRC)


def unresolved(reader):
    return jvm_sites.unresolved(reader, SRC)


def test_single_type_import_binds_the_class_of_that_package(java):
    assert target(java, "Main.java", 29, "ShapeService") == ("instantiates", "ShapeService", 13)


def test_wildcard_import_makes_the_package_types_visible(java):
    assert target(java, "service/ShapeService.java", 18, "Circle") == ("instantiates", "Circle", 4)


def test_same_package_types_need_no_import(java):
    # Registry is package-private in com.acme.shop.service; ShapeService does not import it
    assert target(java, "service/ShapeService.java", 14, "Registry") == ("instantiates", "Registry", 9)


def test_static_imports_bind_bare_calls_to_the_member(java):
    assert target(java, "service/ShapeService.java", 33, "hypot") == ("calls", "Geometry::hypot", 16)


def test_typed_fields_locals_and_loop_variables_give_the_receiver(java):
    assert target(java, "service/ShapeService.java", 19, "registry.add")[1] == "Registry::add"
    assert target(java, "service/ShapeService.java", 21, "c.scaled")[1] == "Circle::scaled"
    assert target(java, "service/ShapeService.java", 27, "s.area")[1] == "Shape::area"
    # a field typed by an interface reaches its default method
    assert target(java, "service/ShapeService.java", 41, "last.describe")[1] == "Shape::describe"


def test_var_local_takes_the_declared_return_type_of_its_initializer(java):
    # var found = registry.find(name); Registry.find returns Shape
    assert target(java, "service/ShapeService.java", 51, "found.describe")[1] == "Shape::describe"


def test_chained_call_uses_the_declared_return_type(java):
    # Color.parse("red") returns Color, whose hex() is called
    assert target(java, "Main.java", 31, "<expr>.hex")[1] == "Color::hex"


def test_this_and_super_constructor_calls_pick_the_overload_by_argument_count(java):
    # Circle(double) delegates to Circle(String, double) at line 11
    assert target(java, "model/Circle.java", 8, "this") == ("calls", "Circle::Circle", 11)
    assert target(java, "model/Circle.java", 12, "super") == ("calls", "BaseShape::BaseShape", 13)


def test_inherited_methods_are_visible_by_bare_name_and_chosen_by_arity(java):
    assert target(java, "model/Circle.java", 14, "log") == ("calls", "BaseShape::log", 22)
    assert target(java, "model/Circle.java", 23, "log") == ("calls", "BaseShape::log", 26)


def test_overloads_arity_cannot_tell_apart_are_flagged_not_chosen_silently(java):
    # square(double) and square(long) both take one argument
    [edge] = sites(java)[("service/ShapeService.java", 37, "square")]
    assert edge["target"] == "Geometry::square"
    assert edge["resolvedBy"] == "overload-guess" and edge["confidence"] < 0.9


def test_extends_and_implements_reach_project_types_only(java):
    assert target(java, "model/Circle.java", 4, "BaseShape") == ("extends", "BaseShape", 9)
    assert target(java, "model/BaseShape.java", 9, "Shape") == ("implements", "Shape", 4)
    assert ("model/Shape.java", 4, "Comparable") in unresolved(java)


def test_nested_records_and_anonymous_classes_see_the_enclosing_class(java):
    assert target(java, "Main.java", 36, "Pair") == ("instantiates", "Main::Pair", 12)
    assert target(java, "Main.java", 37, "p.joined")[1] == "Main::Pair::joined"
    # print("tick") inside new Runnable() { ... } is Main.print
    assert target(java, "Main.java", 41, "print") == ("calls", "Main::print", 48)


def test_jdk_names_never_bind_to_project_namesakes(java):
    # Main imports java.util.Objects; ShapeService imports the project's com.acme.shop.util.Objects
    assert ("Main.java", 14, "Objects.requireNonNull") not in sites(java)
    assert ("Main.java", 14, "Objects.requireNonNull") in unresolved(java)
    assert (
        target(java, "service/ShapeService.java", 50, "Objects.requireNonNull")[1]
        == "Objects::requireNonNull"
    )
    for site in [
        ("Main.java", 49, "System.out.println"),
        ("service/ShapeService.java", 62, "String.valueOf"),
    ]:
        assert site in unresolved(java)


def test_external_receivers_never_bind_by_method_name(java):
    # r is a java.lang.Runnable: Main.run must not be its target
    assert ("Main.java", 44, "r.run") not in sites(java)
    assert ("Main.java", 44, "r.run") in unresolved(java)
    assert ("service/ShapeService.java", 61, "names.add") in unresolved(java)


def test_javadoc_signatures_and_modifiers_are_kept(java):
    [describe] = [n for n in java.nodes_named("describe") if n.language == "java"]
    assert describe.docstring == "A one-line description."
    [scaled] = java.nodes_named("scaled")
    assert (scaled.signature, scaled.return_type, scaled.visibility) == (
        "(double factor)",
        "Circle",
        "public",
    )
    [base] = [n for n in java.nodes_named("BaseShape") if n.kind == "class"]
    assert base.is_abstract and base.docstring.startswith("Shared state of every shape")
    kinds = {(n.qualified_name, n.kind) for n in java.file_symbols(SRC + "model/Color.java")}
    assert {
        ("Color", "enum"),
        ("Color::RED", "enum_member"),
        ("Color::hex", "field"),
        ("Color::hex", "method"),
    } <= kinds


def test_test_files_and_generated_files_are_recognised(java):
    lang = module_for("java")
    assert lang.is_test_file("src/x/ShapeServiceTest.java") and lang.is_test_file("TestShapes.java")
    assert not lang.is_test_file("src/x/Latest.java") and not lang.is_test_file("Testament.java")
    generated = {
        p for p in java.indexed_paths() if is_generated_path(p, source.read_text(java.root, p)[:600])
    }
    assert generated == {SRC + "R.java"}


def test_the_operations_answer_on_the_java_fixture(java, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    root = java.root
    expect = {
        "codegraph_search": ({"query": "Circle"}, "Circle"),
        "codegraph_node": ({"symbol": "Circle.scaled"}, "public Circle scaled(double factor)"),
        "codegraph_callers": ({"symbol": "Circle.scaled"}, "makeCircle"),
        "codegraph_callees": ({"symbol": "ShapeService.makeCircle"}, "Registry::add"),
        "codegraph_impact": ({"symbol": "BaseShape"}, "Circle"),
        "codegraph_trace": ({"from": "Main.run", "to": "Registry.add"}, "makeCircle"),
        "codegraph_files": ({"path": SRC + "model"}, "Circle.java"),
        "codegraph_explore": ({"query": "how does the shape service make a circle"}, "makeCircle"),
        "codegraph_status": ({}, "java"),
    }
    for tool, (args, needle) in expect.items():
        result = call_tool(tool, args, default_root=root)
        text = result["content"][0]["text"]
        assert result["isError"] is False, (tool, text[:500])
        assert needle in text, (tool, text[:1500])


def test_sync_after_adding_a_package_class_and_deleting_another_equals_a_full_index(tmp_path):
    jvm_sites.sync_equals_full(
        tmp_path,
        "java",
        {
            SRC + "service/Audit.java": "package com.acme.shop.service;\n\nclass Audit {\n"
            "    void record(Registry r) {\n        r.add(null);\n        new ShapeService().count();\n    }\n}\n",
            SRC + "util/Objects.java": "",
        },
    )


def test_java_a_derived_method_does_not_hide_the_base_overloads_its_call_fits(tmp_path):
    # Java overloads across a hierarchy: B's own f(String) and A's f(int, Object) are both visible
    # in B. Read from the snippet: f(1, null) is A.f (only it takes two), f("x") B's own f, g(2) the
    # override B.g (same parameter list: no ambiguity), h(3) fits both B.h(String) and A.h(int) by
    # count, so it is a guess, not a confident edge to B.h

    (tmp_path / "A.java").write_text(
        "package n;\n"
        "public class A {\n"
        "  protected void f(int a, Object b) { }\n"
        "  protected void g(int a) { }\n"
        "  protected void h(int a) { }\n"
        "}\n"
    )
    (tmp_path / "B.java").write_text(
        "package n;\n"
        "public class B extends A {\n"
        '  private void f(String s) { f(1, null); f("x"); }\n'
        "  @Override protected void g(int a) { g(2); }\n"
        "  private void h(String s) { h(3); }\n"
        "}\n"
    )
    calls = fixture_graph.calls_with_how(tmp_path)
    assert [(line, target) for line, target, _ in calls] == [
        (3, "A::f"),
        (3, "B::f"),
        (4, "B::g"),
        (5, "B::h"),
    ]
    how = {(line, target): by for line, target, by in calls}
    assert how[(3, "A::f")] != "overload-guess" and how[(3, "B::f")] != "overload-guess"
    assert how[(4, "B::g")] != "overload-guess"
    assert how[(5, "B::h")] == "overload-guess"
