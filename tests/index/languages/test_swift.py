"""Swift over fixtures/repos/swift (a SwiftPM package: targets Shapes, App and ShapesTests), indexed by
the real indexer. Expectations come from reading the fixture's source."""

from __future__ import annotations

import pytest

from codegraph.index.languages import is_generated_path, is_test_path, language_for
from codegraph.mcp.dispatch import call_tool


def edges(reader, kind: str) -> set[tuple[str, str, str]]:
    """(source qualified name, target file, target qualified name) of every ``kind`` edge."""
    rows = reader.conn.execute(
        "SELECT s.qualified_name, t.file_path, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {tuple(r) for r in rows}


def unresolved(reader, path: str) -> set[str]:
    rows = reader.conn.execute("SELECT reference_name FROM unresolved_refs WHERE file_path = ?", (path,))
    return {r[0] for r in rows}


@pytest.fixture
def swift(indexed):
    return indexed("swift")


S = "Sources/Shapes/"


def test_files_of_a_target_see_each_other_without_imports(swift):
    calls = edges(swift, "calls")
    assert ("Report::line", "Sources/App/Report.swift", "format") in calls
    # main.swift builds Report, declared in Report.swift of the same target
    assert ("report", "Sources/App/Report.swift", "Report") in edges(swift, "instantiates")
    assert ("Circle::init", S + "Circle.swift", "clampRadius") in calls


def test_import_of_another_target_makes_its_types_visible(swift):
    inst = edges(swift, "instantiates")
    assert ("circle", S + "Circle.swift", "Circle") in inst
    assert ("square", S + "Square.swift", "RoundedSquare") in inst
    assert ("CircleTests::testGap", S + "Point.swift", "Point") in inst


def test_a_module_function_shadows_a_builtin_only_in_its_own_module(swift):
    calls = edges(swift, "calls")
    # App declares max(_:); main.swift (App) calls it, Circle.swift (Shapes) calls Swift's max
    assert ("Sources/App/main.swift", "Sources/App/Report.swift", "max") in calls
    assert not [c for c in calls if c[0] == "clampRadius"]
    assert {"max", "min"} <= unresolved(swift, S + "Circle.swift")


def test_extension_members_belong_to_the_extended_type(swift):
    (doubled,) = swift.nodes_named("doubled")
    assert (doubled.kind, doubled.qualified_name) == ("method", "Circle::doubled")
    parent = swift.parent(doubled.id)
    assert (parent.kind, parent.qualified_name, parent.file_path) == ("class", "Circle", S + "Circle.swift")
    # members added by an extension resolve like the type's own
    assert ("Report::line", S + "Circle+Named.swift", "Circle::summary") in edges(swift, "calls")


def test_declaration_kind_picks_class_struct_enum_actor_protocol(swift):
    kinds = {
        n.name: n.kind for n in swift.file_symbols(S + "Square.swift") + swift.file_symbols(S + "Point.swift")
    }
    assert kinds["Square"] == "class" and kinds["ShapeCounter"] == "class"  # an actor
    assert kinds["Point"] == "struct" and kinds["Style"] == "enum"
    assert {n.qualified_name for n in swift.nodes_named("outlined")} == {"Style::outlined"}
    assert [n.kind for n in swift.nodes_named("Shape")] == ["protocol"]


def test_inheritance_and_protocol_refinement(swift):
    ext = edges(swift, "extends")
    assert ("RoundedSquare", S + "Square.swift", "Square") in ext
    assert ("Named", S + "Shape.swift", "Shape") in ext


def test_super_and_self_calls_resolve_in_the_type(swift):
    calls = edges(swift, "calls")
    assert ("RoundedSquare::area", S + "Square.swift", "Square::area") in calls
    # implicit self: center.distance(to:) is self.center (a Point)
    assert ("Circle::gap", S + "Point.swift", "Point::distance") in calls


def test_typed_params_and_locals_pick_the_method(swift):
    calls = edges(swift, "calls")
    assert ("Report::line", S + "Circle+Named.swift", "Circle::summary") in calls  # circle: Circle
    assert ("CircleTests::testGap", S + "Circle.swift", "Circle::gap") in calls  # let a = Circle(...)
    assert (
        "CircleTests::testUnitArea",
        S + "Circle.swift",
        "Circle::area",
    ) in calls  # Circle.unit() -> Circle
    assert ("Sources/App/main.swift", S + "Circle.swift", "Circle::unit") in calls  # a static func


def test_argument_labels_pick_the_overload(swift):
    rows = swift.conn.execute(
        "SELECT s.qualified_name, t.qualified_name, t.start_line FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls' AND t.file_path = ?",
        (S + "Circle.swift",),
    ).fetchall()
    calls = {tuple(r) for r in rows}
    # resize(to:) (line 31) from resize(by:animated:) (line 35), not the enclosing overload
    assert ("Circle::resize", "Circle::resize", 31) in calls
    # convenience init(radius:) calls self.init(center:radius:), the designated init at line 9
    assert ("Circle::init", "Circle::init", 9) in calls
    # copy.resize(by: 1, animated: false) on a typed local in another file
    assert ("Circle::doubled", "Circle::resize", 35) in calls


def test_overloads_the_labels_do_not_decide_are_never_picked(swift):
    # log(_ value: Double) and log(_ value: String): log(radius) fits both
    assert not [c for c in edges(swift, "calls") if c[0] == "Circle::report"]
    assert "log" in unresolved(swift, S + "Circle.swift")


def test_calls_on_untyped_receivers_stay_unresolved(swift):
    assert {"$0.area", "mystery.spin", "makeAnything"} <= unresolved(
        swift, "Sources/App/Report.swift"
    ) | unresolved(swift, "Sources/App/main.swift")
    assert not [c for c in edges(swift, "calls") if c[0] == "Report::total"]


def test_doc_comments_signatures_and_visibility(swift):
    (gap,) = swift.nodes_named("gap")
    assert gap.docstring == "Distance between the edges of two circles."
    assert gap.signature == "(to other: Circle) -> Double"
    assert gap.return_type == "Double"
    assert gap.is_exported
    (compute,) = swift.nodes_named("clampRadius")
    assert not compute.is_exported


def test_swift_test_and_generated_file_rules():
    assert language_for("Sources/App/main.swift") == ("swift", "swift")
    assert is_test_path("Tests/ShapesTests/CircleTests.swift")
    assert is_test_path("ios/CameraSpec.swift")
    assert not is_test_path("ios/Requests.swift")
    assert is_generated_path("Gen/R.generated.swift", "")
    assert is_generated_path(
        "ios/Spec.swift", "/// This file was generated by nitrogen. DO NOT MODIFY THIS FILE."
    )


CASES = {
    "codegraph_search": ({"query": "Circle"}, "Circle"),
    "codegraph_node": ({"symbol": "Circle.gap"}, "distance"),
    "codegraph_callers": ({"symbol": "Circle.summary"}, "line"),
    "codegraph_callees": ({"symbol": "Circle.gap"}, "distance"),
    "codegraph_impact": ({"symbol": "Point.distance"}, "gap"),
    "codegraph_trace": ({"from": "Report.line", "to": "Circle.summary"}, "summary"),
    "codegraph_files": ({"path": "Sources/Shapes"}, "Circle.swift"),
    "codegraph_status": ({}, "swift"),
    "codegraph_explore": ({"query": "how is the gap between two circles computed"}, "gap"),
    "codegraph_context": ({"task": "resize a circle"}, "resize"),
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_every_operation_answers_on_the_swift_fixture(swift, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = CASES[tool]
    result = call_tool(tool, args, default_root=swift.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]


def test_extension_of_an_sdk_type_is_found_on_receivers_of_that_type(swift):
    # Shapes: extension String { func shouted() }; App: func title(_ text: String) { text.shouted() }
    (shouted,) = swift.nodes_named("shouted")
    assert (shouted.kind, shouted.qualified_name) == ("method", "String::shouted")
    assert ("Report::title", S + "Circle+Named.swift", "String::shouted") in edges(swift, "calls")


def test_a_conformance_declared_by_an_extension_in_another_file_implements(swift):
    # Circle+Named.swift: extension Circle: Named
    assert ("Circle", S + "Shape.swift", "Named") in edges(swift, "implements")


def test_an_sdk_extension_delegating_to_the_sdk_member_of_its_name_is_no_self_call(swift):
    # extension String { init(describing shape: Circle) { self.init(describing: ...) } }
    calls = edges(swift, "calls")
    assert not [c for c in calls if c[0] == "String::init" and c[2] == "String::init"]
    assert "self.init" in unresolved(swift, S + "Circle+Named.swift")


def test_calls_nested_hundreds_deep_extract_in_seconds_not_minutes():
    # the enclosing-type lookup walked up by node.parent, which tree-sitter answers by descending
    # from the root: 400 calls nested on separate lines took 3.7 s of CPU, 1,000 over a minute
    import time

    from codegraph.index.extract import extract

    n = 600
    src = (
        "func g(_ x: Int) -> Int { x }\nfunc f() -> Int { return " + "g(\n" * n + "1" + ")\n" * n + "}\n"
    ).encode()
    start = time.process_time()
    out = extract("Deep.swift", src, "swift")
    took = time.process_time() - start
    assert sum(1 for r in out.refs if r.kind == "calls" and r.name == "g") == n
    assert took < 6, f"{took:.1f} s of CPU"
