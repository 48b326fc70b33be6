"""Zig over fixtures/repos/zig (a build.zig project: src/ with containers, aliases and a file struct)
through the real indexer. Every expected edge below was read off the fixture's source."""

from __future__ import annotations

import pytest

from tests.index.languages.fixture_graph import answers


def edges(reader, kind: str) -> set[tuple[str, str]]:
    """(source qualified name, target file:qualified name) of every ``kind`` edge."""
    rows = reader.conn.execute(
        "SELECT s.qualified_name, t.file_path, t.qualified_name FROM edges e"
        " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {(src, f"{path}:{dst}") for src, path, dst in rows}


def rows(reader, sql: str, *args) -> list[tuple]:
    return [tuple(r) for r in reader.conn.execute(sql, args)]


def unresolved(reader) -> set[tuple[str, str]]:
    return set(rows(reader, "SELECT file_path, reference_name FROM unresolved_refs"))


@pytest.fixture
def zig(indexed):
    return indexed("zig")


def test_import_binds_a_file_relative_to_the_importing_file(zig):
    imported = set(
        rows(
            zig,
            "SELECT t.file_path FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
            " WHERE e.kind = 'imports' AND s.file_path = 'src/shape.zig' AND t.kind = 'file'",
        )
    )
    assert imported == {("src/geo/point.zig",)}  # @import("geo/point.zig"); "std" is not a file here
    calls = edges(zig, "calls")
    assert ("main", "src/geo/point.zig:Point::init") in calls  # geo.Point.init(1, 2)
    assert ("main", "src/util.zig:clamp") in calls  # util.clamp(d, 0, 100)


def test_top_level_alias_is_a_binding_that_reaches_the_definition(zig):
    # shape.zig: const Point = point.Point; origin() returns Point.init(0, 0)
    assert ("origin", "src/geo/point.zig:Point::init") in edges(zig, "calls")
    # util.zig: pub const Counter = @import("Counter.zig"); main calls util.Counter.init(2)
    assert ("main", "src/Counter.zig:init") in edges(zig, "calls")
    # util.zig: const Pt = lib.geo.Point; where lib.zig re-exports the module geo/point.zig
    assert ("unit", "src/geo/point.zig:Point::init") in edges(zig, "calls")


def test_functions_in_containers_are_methods_of_struct_enum_and_union(zig):
    kinds = dict(rows(zig, "SELECT qualified_name, kind FROM nodes WHERE file_path = 'src/shape.zig'"))
    assert (
        kinds["Kind"] == "enum" and kinds["Kind::name"] == "method" and kinds["Kind::circle"] == "enum_member"
    )
    assert (
        kinds["Shape"] == "union" and kinds["Shape::area"] == "method" and kinds["Shape::circle"] == "field"
    )
    assert kinds["Handle"] == "struct" and kinds["ShapeError"] == "enum"  # opaque {}, error{...}


def test_a_type_function_is_a_generic_container_whose_members_see_each_other(zig):
    kinds = dict(rows(zig, "SELECT qualified_name, kind FROM nodes WHERE file_path = 'src/util.zig'"))
    assert (
        kinds["Stack"] == "struct" and kinds["Stack::push"] == "method" and kinds["Stack::items"] == "field"
    )
    assert ("Stack::push", "src/util.zig:Stack::grow") in edges(zig, "calls")  # bare grow() in the struct
    assert ("main", "src/util.zig:Stack") in edges(zig, "instantiates")  # util.Stack(u8){}


def test_params_declared_types_return_types_and_struct_literals_type_receivers(zig):
    calls = edges(zig, "calls")
    assert ("Point::shifted", "src/geo/point.zig:Point::translate") in calls  # self: *const Point
    assert ("main", "src/geo/point.zig:Point::shifted") in calls  # var q: geo.Point = ...
    assert ("main", "src/geo/point.zig:Point::dist2") in calls  # const p = geo.Point.init(...)
    assert ("main", "src/shape.zig:Shape::kind") in calls  # const s = Shape{ .circle = 2.0 }
    assert ("main", "src/shape.zig:Shape::area") in calls
    assert ('test "dist2"', "src/geo/point.zig:Point::dist2") in calls  # a test block is a symbol


def test_struct_literal_instantiates_its_type(zig):
    assert ("Point::init", "src/geo/point.zig:Point") in edges(zig, "instantiates")  # Point{ .x = x, ... }


def test_a_parameter_shadows_the_file_function_of_that_name(zig):
    assert not any(src == "twice" for src, _ in edges(zig, "calls"))  # clamp(clamp(v)) is the parameter
    assert ("src/util.zig", "clamp") in unresolved(zig)


def test_std_and_untyped_receivers_never_bind_to_project_names(zig):
    calls = edges(zig, "calls")
    assert not any(dst.endswith(":eql") for _, dst in calls)  # std.mem.eql, not util.eql
    missing = unresolved(zig)
    assert ("src/main.zig", "std.mem.eql") in missing
    assert ("src/main.zig", "allocator.alloc") in missing  # std's allocator
    assert ("src/main.zig", "stack.push") in missing  # var stack = util.Stack(u8){}: a call's result
    # a file struct has no node: calls on its instances stay unresolved rather than guessed
    assert ("src/main.zig", "c.bump") in missing


def test_signatures_docs_and_pub(zig):
    (row,) = rows(
        zig,
        "SELECT signature, docstring, is_exported, return_type FROM nodes WHERE qualified_name = 'Point::dist2'",
    )
    assert row == ("(self: Point, other: Point) i32", "Squared distance to another point.", 1, "i32")
    assert rows(zig, "SELECT is_exported FROM nodes WHERE qualified_name = 'Point::translate'") == [(0,)]
    assert rows(zig, "SELECT signature FROM nodes WHERE qualified_name = 'Stack'") == [
        ("(comptime T: type) type",)
    ]


def test_every_operation_answers_on_the_zig_fixture(zig, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    cases = {
        "codegraph_search": ({"query": "Point"}, "src/geo/point.zig"),
        "codegraph_node": ({"symbol": "Point.dist2"}, "pub fn dist2(self: Point, other: Point) i32"),
        "codegraph_callers": ({"symbol": "Point.init"}, "origin"),
        "codegraph_callees": ({"symbol": "main"}, "clamp"),
        "codegraph_impact": ({"symbol": "Point.translate"}, "shifted"),
        "codegraph_trace": ({"from": "main", "to": "Point.translate"}, "shifted"),
        "codegraph_files": ({"path": "src"}, "shape.zig"),
        "codegraph_status": ({}, "zig"),
        "codegraph_context": ({"task": "shift a point by an offset"}, "Point::shifted"),
        "codegraph_explore": ({"query": "squared distance between two points"}, "dist2"),
    }
    answers(zig.root, cases)


def test_zig_test_files_by_name():
    from codegraph.index.languages import is_test_path

    assert is_test_path("src/tests.zig") and is_test_path("lib/parser_test.zig")
    assert not is_test_path("src/testing.zig") and not is_test_path("src/main.zig")


def _index(tmp_path, files: dict[str, str]):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    return Reader(tmp_path)


def test_fields_of_named_containers_type_their_uses_and_anonymous_ones_state_nothing(tmp_path):
    files = {
        "src/Reader.zig": (
            "const Reader = @This();\n\nbuf: u8,\n\npub fn fill(r: *Reader) void {\n    _ = r;\n}\n\n"
            "pub fn Hashed(comptime H: type) type {\n    return struct {\n        in: *Reader,\n        hasher: H,\n\n"
            "        pub fn fill(h: *@This()) void {\n            h.in.fill();\n        }\n\n"
            "        pub fn peek(r: Reader) void {\n            r.fill();\n        }\n    };\n}\n\n"
            "pub const Stats = struct {\n    pub fn eql(s: Stats) bool {\n"
            "        _ = s;\n        return true;\n    }\n};\n\n"
            "pub const Job = struct {\n    stats: Stats,\n\n    pub fn run(j: *Job) void {\n"
            "        _ = j.stats.eql();\n    }\n};\n\n"
            'test "table" {\n    const want = Stats{};\n    for ([_]struct { want: u8 }{.{ .want = 1 }}) |c| {\n'
            "        _ = c;\n    }\n    _ = want.eql();\n}\n"
        ),
    }
    with _index(tmp_path, files) as reader:
        calls = edges(reader, "calls")
    assert ("Job::run", "src/Reader.zig:Stats::eql") in calls  # stats: Stats
    # h.in is a *Reader; at the top of Reader.zig, `const Reader = @This();` names the file's struct,
    # which is no container node: the call stays unresolved, and never means Hashed's own fill
    assert ("Hashed::fill", "src/Reader.zig:Hashed::fill") not in calls
    # the same outer alias for a parameter (r: Reader) inside Hashed's struct is not Hashed either
    assert ("Hashed::peek", "src/Reader.zig:Hashed::fill") not in calls
    # an anonymous struct's field (want: u8) says nothing about the test's local `want`
    assert ('test "table"', "src/Reader.zig:Stats::eql") in calls
