"""Kotlin over fixtures/repos/kotlin (model, util, service packages and an App) through the real
indexer. Every expected edge below comes from reading the fixture's source: file:line is the call."""

from __future__ import annotations

import pytest

from codegraph.index.languages import module_for
from codegraph.mcp.dispatch import call_tool
from tests.index.languages import jvm_sites

SRC = "src/main/kotlin/com/acme/app/"


@pytest.fixture
def kotlin(indexed):
    return indexed("kotlin")


def target(reader, file: str, line: int, callee: str) -> tuple[str, str, int]:
    return jvm_sites.target(reader, SRC, file, line, callee)


def missing(reader, file: str, line: int, callee: str) -> bool:
    return jvm_sites.missing(reader, SRC, file, line, callee)


def test_a_call_to_a_class_name_is_a_constructor_call(kotlin):
    # import com.acme.app.model.* ; val c = Circle(radius)
    assert target(kotlin, "service/ShapeService.kt", 13, "Circle") == ("instantiates", "Circle", 6)
    # default argument of a constructor parameter, same package, no import
    assert target(kotlin, "service/ShapeService.kt", 9, "Registry") == ("instantiates", "Registry", 6)


def test_imported_and_same_package_top_level_functions(kotlin):
    assert target(kotlin, "service/ShapeService.kt", 27, "hypot") == ("calls", "hypot", 7)
    # sqrt(square(a) + square(b)): two calls on the line, both to the file's own square
    both = jvm_sites.sites(kotlin, SRC)[("util/Geometry.kt", 7, "square")]
    assert [(e["target"], e["line"]) for e in both] == [("square", 5), ("square", 5)]


def test_a_project_function_shadows_a_builtin_only_where_it_is_visible(kotlin):
    # util.check is in scope in its own package, kotlin.check everywhere else
    assert target(kotlin, "util/Extensions.kt", 9, "check") == ("calls", "check", 10)
    assert missing(kotlin, "service/ShapeService.kt", 38, "check")


def test_typed_properties_parameters_locals_and_constructor_results(kotlin):
    assert target(kotlin, "service/ShapeService.kt", 14, "registry.add")[1] == "Registry::add"
    assert target(kotlin, "service/ShapeService.kt", 16, "c.scaled")[1] == "Circle::scaled"
    assert target(kotlin, "service/ShapeService.kt", 29, "last.describe")[1] == "Shape::describe"
    assert target(kotlin, "service/ShapeService.kt", 43, "found.describe")[1] == "Shape::describe"
    assert target(kotlin, "App.kt", 16, "service.makeCircle")[1] == "ShapeService::makeCircle"


def test_a_for_loop_variable_takes_the_element_type_of_the_list(kotlin):
    # for (s in shapes) where shapes: List<Shape>
    assert target(kotlin, "service/ShapeService.kt", 22, "s.area")[1] == "Shape::area"


def test_it_in_a_foreach_lambda_is_an_element_of_the_list(kotlin):
    # circles: List<Circle>; circles.forEach { it.scaled(1.0) }
    assert target(kotlin, "service/ShapeService.kt", 48, "it.scaled")[1] == "Circle::scaled"


def test_companion_objects_objects_and_import_aliases(kotlin):
    assert target(kotlin, "service/ShapeService.kt", 33, "Circle.unit")[1] == "Circle::Companion::unit"
    # import com.acme.app.util.Units as U
    assert target(kotlin, "service/ShapeService.kt", 35, "U.cm")[1] == "Units::cm"
    assert target(kotlin, "App.kt", 21, "Color.RED.isRed")[1] == "Color::isRed"


def test_extension_functions_match_by_receiver(kotlin):
    # fun Shape.label() imported by name; shape: Shape
    assert target(kotlin, "service/ShapeService.kt", 31, "shape.label") == ("calls", "label", 6)


def test_inside_an_extension_function_bare_names_mean_the_receiver_members(kotlin):
    assert target(kotlin, "util/Extensions.kt", 14, "area") == ("calls", "Shape::area", 7)


def test_inherited_members_by_bare_name_and_overloads_by_argument_count(kotlin):
    assert target(kotlin, "model/Circle.kt", 12, "log") == ("calls", "BaseShape::log", 23)
    assert target(kotlin, "model/Shape.kt", 24, "log") == ("calls", "BaseShape::log", 19)


def test_extends_and_implements(kotlin):
    assert target(kotlin, "model/Circle.kt", 6, "BaseShape") == ("extends", "BaseShape", 16)
    assert target(kotlin, "model/Shape.kt", 16, "Shape") == ("implements", "Shape", 4)


def test_nested_class_shadows_kotlin_pair_and_inner_classes_see_the_outer_one(kotlin):
    assert target(kotlin, "App.kt", 17, "Pair") == ("instantiates", "App::Pair", 29)
    assert target(kotlin, "App.kt", 35, "this@App.print") == ("calls", "App::print", 24)
    # print("tick") inside `object : Runnable { ... }` is App.print, not kotlin.io.print
    assert target(kotlin, "App.kt", 11, "print") == ("calls", "App::print", 24)


def test_delegation_to_the_primary_constructor_makes_no_edge(kotlin):
    # constructor(diameter: Int) : this(diameter / 2.0): the primary constructor has no node
    assert missing(kotlin, "model/Circle.kt", 7, "this")


def test_builtins_and_untyped_receivers_stay_unresolved(kotlin):
    assert missing(kotlin, "App.kt", 25, "println")
    # task: Runnable and listener (an anonymous object): App.run must not be their target
    assert missing(kotlin, "service/ShapeService.kt", 52, "task.run")
    assert missing(kotlin, "App.kt", 19, "listener.run")


def test_docs_signatures_and_kinds(kotlin):
    [label] = kotlin.nodes_named("label")
    assert (label.docstring, label.return_type) == ("The shape's name in brackets.", "String")
    kinds = {(n.qualified_name, n.kind) for n in kotlin.file_symbols(SRC + "model/Circle.kt")}
    assert {
        ("Circle", "class"),
        ("Circle::Companion", "class"),
        ("Circle::Companion::unit", "method"),
        ("Circle::radius", "property"),
        ("Circle::Circle", "method"),
    } <= kinds
    [units] = kotlin.nodes_named("Units")
    assert units.signature == "object Units"


def test_test_files_are_recognised(kotlin):
    lang = module_for("kotlin")
    assert lang.is_test_file("src/x/ShapeServiceTest.kt") and lang.is_test_file("app/src/androidTest/x/A.kt")
    assert not lang.is_test_file("src/main/kotlin/Latest.kt")


def test_the_operations_answer_on_the_kotlin_fixture(kotlin, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    expect = {
        "codegraph_search": ({"query": "Circle"}, "Circle"),
        "codegraph_node": ({"symbol": "Circle.scaled"}, "fun scaled(factor: Double): Circle"),
        "codegraph_callers": ({"symbol": "Circle.scaled"}, "makeCircle"),
        "codegraph_callees": ({"symbol": "ShapeService.makeCircle"}, "Registry::add"),
        "codegraph_impact": ({"symbol": "BaseShape"}, "Circle"),
        "codegraph_trace": ({"from": "App.run", "to": "Registry.add"}, "makeCircle"),
        "codegraph_files": ({"path": SRC + "model"}, "Circle.kt"),
        "codegraph_explore": ({"query": "how does the shape service make a circle"}, "makeCircle"),
        "codegraph_status": ({}, "kotlin"),
    }
    for tool, (args, needle) in expect.items():
        result = call_tool(tool, args, default_root=kotlin.root)
        text = result["content"][0]["text"]
        assert result["isError"] is False, (tool, text[:500])
        assert needle in text, (tool, text[:1500])


def test_sync_after_adding_an_extension_and_deleting_a_file_equals_a_full_index(tmp_path):
    jvm_sites.sync_equals_full(
        tmp_path,
        "kotlin",
        {
            SRC + "util/More.kt": "package com.acme.app.util\n\nimport com.acme.app.model.Shape\n\n"
            "fun Shape.twice(): Double = area() * 2\n",
            SRC + "util/Geometry.kt": "",
        },
    )


def _index_tmp(tmp_path, files: dict[str, str]):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader
    from tests.index.languages import fixture_graph

    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        return fixture_graph.edges(reader, "calls"), fixture_graph.unresolved(reader)


def test_a_top_level_property_of_another_file_types_its_uses_only_when_one_declaration_fits(tmp_path):
    reg = "class Registry {\n    fun add(o: Any) {}\n}\n"
    calls, unresolved = _index_tmp(
        tmp_path,
        {
            "src/a/A.kt": f"package a\n\n{reg}\nval registry = Registry()\n",
            "src/b/B.kt": f"package b\n\n{reg}\nval registry = Registry()\n",
            # two star-imported packages both declare `registry`: the call cannot tell which
            "src/app/Star.kt": "package app\n\nimport a.*\nimport b.*\n\nfun star() {\n    registry.add(1)\n}\n",
            # an explicit import names one of them
            "src/app/One.kt": "package app2\n\nimport a.*\nimport b.registry\n\nfun one() {\n    registry.add(1)\n}\n",
        },
    )
    assert not {c for c in calls if c[0] == "star"}
    assert ("src/app/Star.kt", "registry.add") in unresolved
    assert ("one", "src/b/B.kt:Registry::add") in calls


def test_several_closing_braces_on_one_line_keep_the_outer_class_and_the_columns():
    # The grammar wants a newline or `;` after a class's last member: balanced code closing four
    # bodies on one line put Outer in an ERROR node (Outer, Outer::x lost; Inner was top-level).
    from codegraph.index.extract import extract

    src = (
        'package p\n\nclass Outer {\n    val x = 1\n    class Inner {\n        fun f() { if (a) { b("}") }}}}\n'
        'class Next { fun n() { val s = "${x}}" }; fun m() {} }\n'
    )
    out = extract("A.kt", src.encode(), "kotlin")
    spans = {(n.qualified_name, n.start_line, n.start_column, n.end_line, n.end_column) for n in out.nodes}
    assert ("Outer", 3, 0, 6, 38) in spans
    assert ("Outer::x", 4, 4, 4, 13) in spans
    assert ("Outer::Inner", 5, 4, 6, 37) in spans
    assert ("Outer::Inner::f", 6, 8, 6, 36) in spans
    # the columns are the file's own, not those of the text with `;` inserted: m starts after `}; `
    assert ("Next::m", 7, 42, 7, 52) in spans
    assert [(r.name, r.line, r.col) for r in out.refs if r.name == "b"] == [("b", 6, 27)]
    assert not out.errors


def test_an_unbalanced_closing_brace_still_reports_the_syntax_error():
    from codegraph.index.extract import extract

    out = extract("B.kt", b"package p\n\nclass C {\n    fun f() {}\n}}\n\nfun after() {}\n", "kotlin")
    assert out.errors == ["syntax errors (partial extraction)"]
    assert {"C", "C::f", "after"} <= {n.qualified_name for n in out.nodes}
