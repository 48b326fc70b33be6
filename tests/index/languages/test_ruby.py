"""Ruby over fixtures/repos/ruby, indexed by the real indexer; every expectation comes from reading
the fixture's source (the comments say where)."""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages import is_test_path, language_for
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from codegraph.store.reader import Reader
from tests.conftest import copy_fixture


@pytest.fixture(scope="module")
def ruby(tmp_path_factory):
    root = copy_fixture("ruby", tmp_path_factory.mktemp("ruby")).resolve()
    index_project(ProjectPaths(root), workers=1)
    reader = Reader(root)
    yield reader, root
    reader.close()


def edges(reader, kind: str) -> set[tuple[str, str]]:
    rows = reader.conn.execute(
        "SELECT s.qualified_name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = ?",
        (kind,),
    )
    return {(a, b) for a, b in rows}


def calls_from(reader, qualified: str, kind: str = "calls") -> set[str]:
    return {t for s, t in edges(reader, kind) if s == qualified}


def unresolved(reader, qualified: str) -> set[str]:
    rows = reader.conn.execute(
        "SELECT u.reference_name FROM unresolved_refs u JOIN nodes n ON n.id = u.from_node_id"
        " WHERE n.qualified_name = ?",
        (qualified,),
    )
    return {r[0] for r in rows}


def test_modules_classes_and_methods_nest_by_qualified_name(ruby):
    reader, _ = ruby
    rows = dict(
        reader.conn.execute("SELECT qualified_name, kind FROM nodes WHERE language = 'ruby'").fetchall()
    )
    assert rows["Shapes::Circle"] == "class"
    assert rows["Shapes::Loggable"] == "module"
    assert rows["Shapes::Circle::from_hash"] == "method"  # inside `class << self`
    assert rows["Geometry::Point::x"] == "method"  # attr_reader :x
    assert rows["main"] == "function"  # a top-level def in examples/demo.rb
    statics = {
        r[0]
        for r in reader.conn.execute(
            "SELECT qualified_name FROM nodes WHERE language = 'ruby' AND is_static = 1"
        )
    }
    assert {"Shapes::Circle::unit", "Shapes::Circle::from_hash", "Geometry::Point::origin"} <= statics
    assert "Shapes::Circle::area" not in statics


def test_a_reopened_module_has_one_qualified_name_across_files(ruby):
    reader, _ = ruby
    files = {
        r[0]
        for r in reader.conn.execute(
            "SELECT file_path FROM nodes WHERE kind = 'module' AND qualified_name = 'Shapes'"
        )
    }
    assert {"lib/shapes.rb", "lib/shapes/circle.rb", "lib/shapes/registry.rb"} <= files


def test_constants_resolve_through_the_lexical_module_nesting(ruby):
    reader, _ = ruby
    # registry.rb, inside `module Shapes; class Registry`: Circle.new is Shapes::Circle
    assert {"Shapes::Circle", "Shapes::Square", "Geometry::Point"} <= calls_from(
        reader, "Shapes::Registry::defaults", "instantiates"
    )
    # circle.rb: `class Circle < Shape` inside module Shapes
    assert ("Shapes::Circle", "Shapes::Shape") in edges(reader, "extends")


def test_foo_new_instantiates_and_a_bare_new_in_a_singleton_method_builds_the_class(ruby):
    reader, _ = ruby
    assert calls_from(reader, "Shapes::registry", "instantiates") == {"Shapes::Registry"}
    assert calls_from(reader, "Shapes::Circle::unit", "instantiates") == {
        "Shapes::Circle"
    }  # def self.unit; new(1)
    assert calls_from(reader, "Shapes::Circle::scaled", "instantiates") == {
        "Shapes::Circle"
    }  # self.class.new


def test_bare_and_self_calls_go_to_the_class_and_its_ancestors(ruby):
    reader, _ = ruby
    # Shape#describe: log (include Loggable), name and area (Shape itself)
    assert calls_from(reader, "Shapes::Shape::describe") == {
        "Shapes::Loggable::log",
        "Shapes::Shape::name",
        "Shapes::Shape::area",
    }
    # Point#moved: x and y are attr_readers, the bare identifiers are calls
    assert calls_from(reader, "Geometry::Point::moved") == {"Geometry::Point::x", "Geometry::Point::y"}


def test_an_assigned_local_is_not_a_call(ruby):
    reader, _ = ruby
    # Circle#radius_label: `area = @radius` makes area a local; `label` too
    assert calls_from(reader, "Shapes::Circle::radius_label") == set()
    assert unresolved(reader, "Shapes::Circle::radius_label") == set()


def test_super_calls_the_same_method_of_the_superclass(ruby):
    reader, _ = ruby
    assert calls_from(reader, "Shapes::Circle::initialize") >= {"Shapes::Shape::initialize"}
    assert calls_from(reader, "Shapes::Square::name") == {"Shapes::Shape::name"}


def test_extend_adds_module_methods_to_the_class_side(ruby):
    reader, _ = ruby
    # Shape `extend Describable`; Registry#report calls Shape.describe_all(@shapes)
    assert "Shapes::Describable::describe_all" in calls_from(reader, "Shapes::Registry::report")
    assert ("Shapes::Shape", "Shapes::Describable") in edges(reader, "implements")
    assert ("Shapes::Shape", "Shapes::Loggable") in edges(reader, "implements")


def test_locals_and_ivars_are_typed_by_constructors_and_returns(ruby):
    reader, _ = ruby
    # circle = Circle.new(...); circle.describe (inherited) — @unit = Circle.unit; @unit.scaled(2)
    assert {"Shapes::Shape::describe", "Shapes::Circle::scaled"} <= calls_from(
        reader, "Shapes::Registry::defaults"
    )
    # demo.rb: Shapes::Registry.new.defaults returns self; Circle.from_hash(...) returns new(...)
    assert calls_from(reader, "main") >= {
        "Shapes::Registry::defaults",
        "Shapes::Registry::total",
        "Shapes::Circle::from_hash",
        "Shapes::Shape::describe",
    }


def test_untyped_receivers_builtins_and_unknown_calls_stay_unresolved(ruby):
    reader, _ = ruby
    names = unresolved(reader, "Shapes::Registry::report")
    assert {"out.write", "missing_helper"} <= names
    assert "shape.area" in unresolved(reader, "Shapes::Registry::total")  # a block parameter
    assert {"raise"} == unresolved(reader, "Shapes::Shape::area")
    assert "format" in unresolved(reader, "Shapes::Shape::describe")  # Kernel#format, not a project def


def test_a_module_method_call_its_module_does_not_define_has_no_edge():
    # Helpers-style mixin: `get` is defined by the classes that include it, so no edge from the module
    from codegraph.index.extract import extract
    from codegraph.index.resolve import resolve

    src = (
        b"module Helpers\n  def ok?\n    status == 200\n  end\nend\n"
        b"class Response\n  include Helpers\n  def status; 200; end\nend\n"
    )
    files = [extract("lib/response.rb", src, "ruby")]
    res = resolve(files)
    calls = [e for e in res.edges if e.kind == "calls"]
    assert calls == []
    assert [r.name for r, _, _ in res.unresolved if r.kind == "calls"] == ["status"]


def test_require_and_require_relative_give_imports_edges(ruby):
    reader, _ = ruby
    rows = reader.conn.execute(
        "SELECT s.file_path, t.file_path FROM edges e JOIN nodes s ON s.id = e.source"
        " JOIN nodes t ON t.id = e.target WHERE e.kind = 'imports'"
    ).fetchall()
    files = {(a, b) for a, b in rows}
    assert ("lib/shapes.rb", "lib/shapes/circle.rb") in files  # require "shapes/circle" through lib/
    assert ("lib/shapes/shape.rb", "lib/geometry/point.rb") in files  # require_relative "../geometry/point"
    assert not any(b.endswith("json.rb") for _, b in files)  # require "json" is the stdlib


def test_ruby_file_rules():
    assert language_for("lib/tasks/db.rake") == ("ruby", "ruby")
    assert language_for("shapes.gemspec") == ("ruby", "ruby")
    assert is_test_path("spec/models/user_spec.rb")
    assert is_test_path("lib/foo_test.rb")
    assert not is_test_path("lib/shapes/circle.rb")


def test_docs_and_signatures_are_kept(ruby):
    reader, _ = ruby
    row = reader.conn.execute(
        "SELECT docstring, signature FROM nodes WHERE qualified_name = 'Shapes::Shape::describe'"
    ).fetchone()
    assert tuple(row) == ("One line about the shape.", "()")
    row = reader.conn.execute(
        "SELECT signature FROM nodes WHERE qualified_name = 'Shapes::Circle'"
    ).fetchone()
    assert row[0] == "< Shape"


OPERATIONS = {
    "codegraph_search": ({"query": "Circle"}, "Circle"),
    "codegraph_node": ({"symbol": "Circle.scaled"}, "def scaled"),
    "codegraph_callers": ({"symbol": "Shape.describe"}, "Registry::defaults"),
    "codegraph_callees": ({"symbol": "Registry.defaults"}, "Shapes::Circle::scaled"),
    "codegraph_impact": ({"symbol": "Shapes::Shape", "depth": 2}, "Circle"),
    "codegraph_trace": ({"from": "Registry.defaults", "to": "Loggable.log"}, "Shape::describe"),
    "codegraph_files": ({"path": "lib/shapes"}, "circle.rb"),
    "codegraph_explore": ({"query": "how does a circle compute its area"}, "def area"),
    "codegraph_status": ({}, "ruby"),
    "codegraph_context": ({"task": "change how shapes are described"}, "describe"),
}


@pytest.mark.parametrize("tool", sorted(OPERATIONS))
def test_every_operation_answers_on_the_ruby_fixture(ruby, tool, monkeypatch):
    _, root = ruby
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = OPERATIONS[tool]
    result = call_tool(tool, args, default_root=root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert "No symbol named" not in text, text[:300]
    assert expected in text, text[:1500]


def test_a_constant_holding_an_instance_types_calls_on_it(ruby):
    reader, _ = ruby
    # registry.rb: DEFAULT = Circle.new(1); def default_area; DEFAULT.area; end
    assert calls_from(reader, "Shapes::Registry::default_area") == {"Shapes::Circle::area"}


def test_a_local_is_typed_by_the_assignments_above_each_use(ruby):
    reader, _ = ruby
    # item = Circle.new(1); item.area (line 46: Circle#area); item = Square.new(2); item.area (refused)
    rows = reader.conn.execute(
        "SELECT e.line, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        " WHERE s.qualified_name = 'Shapes::Registry::reuse' AND e.kind = 'calls'"
    ).fetchall()
    assert {(line, target) for line, target in rows} == {(46, "Shapes::Circle::area")}
    assert "item.area" in unresolved(reader, "Shapes::Registry::reuse")


def test_new_in_an_inherited_class_method_builds_the_receivers_class():
    from codegraph.index.extract import extract
    from codegraph.index.resolve import resolve

    src = (
        b"class Base\n  def self.build\n    new\n  end\n  def hello; end\nend\n"
        b"class Child < Base\n  def hello; end\nend\n"
        b"def run\n  Child.build.hello\n  Base.build.hello\nend\n"
    )
    fx = extract("lib/a.rb", src, "ruby")
    names = {n.id: n.qualified_name for n in fx.nodes}
    calls = {(e.line, names[e.target]) for e in resolve([fx]).edges if e.kind == "calls"}
    assert (11, "Child::hello") in calls
    assert (12, "Base::hello") in calls
    assert (11, "Base::build") in calls  # the class method is inherited


def test_aliases_and_method_objects_reach_the_method_they_name_and_nothing_else():
    from codegraph.index.extract import extract
    from codegraph.index.resolve import resolve

    src = (
        b"class Base\n  def save; end\nend\n"  # 1-3
        b"class Repo < Base\n  alias store save\n  alias_method :lost, :missing\n"  # 4-6
        b"  class << self\n    def make; end\n    alias build make\n  end\n"  # 7-10
        b"  def run\n    store\n    lost\n    Repo.build\n    [1].each(&method(:save))\n"  # 11-15
        b"    [1].each(&method(:missing))\n  end\nend\n"  # 16-18
    )
    fx = extract("lib/a.rb", src, "ruby")
    names = {n.id: n.qualified_name for n in fx.nodes}
    result = resolve([fx])
    got = {(e.kind, e.line, names[e.target]) for e in result.edges if names[e.source] == "Repo::run"}
    # `alias store save` in Repo finds save up the chain; `class << self` aliases a singleton method
    assert ("calls", 12, "Base::save") in got
    assert ("calls", 14, "Repo::make") in got
    assert ("references", 15, "Base::save") in got
    # an alias of a method nobody defines, and method(:missing), give no edge
    assert not {e for e in got if e[1] in (13, 16)}
