"""C++: the geo fixture (fixtures/repos/cpp) through the real indexer. Every expected edge below
was read from the fixture's source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages.cfamily import param_key, param_range
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from tests.index.languages.cfamily_helpers import Graph, index_fixture


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return index_fixture("cpp", tmp_path_factory.mktemp("cpp"))


def targets(g, file, line):
    return {(h.ref, h.target, h.target_file, h.target_line) for h in g.calls_at(file, line)}


def test_out_of_line_member_is_attached_to_its_class_in_the_header(g):
    (cls,) = g.nodes("geo::Canvas", "class")
    members = {
        (r["qualified_name"], r["file_path"])
        for r in g.db.execute(
            "SELECT n.qualified_name, n.file_path FROM edges e JOIN nodes n ON n.id = e.target"
            " WHERE e.kind = 'contains' AND e.source = ?",
            (cls["id"],),
        )
    }
    assert ("geo::Canvas::TotalArea", "src/canvas.cc") in members  # double Canvas::TotalArea() const {…}
    assert ("geo::Canvas::TotalArea", "src/canvas.h") in members  # the in-class declaration
    assert ("geo::Canvas::size", "src/canvas.h") in members  # defined in the class


def test_namespaces_prefix_qualified_names(g):
    assert [n["file_path"] for n in g.nodes("geo::util::Clamp")] == ["include/geo/shape.h", "src/shape.cc"]
    assert [n["kind"] for n in g.nodes("geo::Color::kRed")] == ["enum_member"]


def test_member_call_on_a_typed_local_reaches_the_definition(g):
    # main.cc:31 canvas.TotalArea() — Canvas canvas(&log);
    assert ("canvas.TotalArea", "geo::Canvas::TotalArea", "src/canvas.cc", 30) in targets(
        g, "src/main.cc", 31
    )


def test_member_call_on_a_field_uses_the_field_type(g):
    # canvas.cc:19 log_->Write(...) — Logger* log_ (canvas.h)
    assert ("log_.Write", "geo::Logger::Write", "src/logger.cc", 7) in targets(g, "src/canvas.cc", 19)
    # canvas.cc:31 origin_.Area() — Circle origin_
    assert targets(g, "src/canvas.cc", 31) == {("origin_.Area", "geo::Circle::Area", "src/shape.cc", 19)}


def test_range_for_variable_is_typed(g):
    # canvas.cc:32 for (const Shape* s : shapes_) total += s->Area();  → the pure virtual
    assert targets(g, "src/canvas.cc", 32) == {("s.Area", "geo::Shape::Area", "include/geo/shape.h", 15)}


def test_this_arrow_call_reaches_the_enclosing_class_member(g):
    # canvas.cc:23 this->Add(s) inside Add(Shape*, int): the one-argument overload
    assert targets(g, "src/canvas.cc", 23) == {("this.Add", "geo::Canvas::Add", "src/canvas.cc", 17)}


def test_overload_is_picked_by_argument_count(g):
    assert targets(g, "src/main.cc", 18) == {("canvas.Add", "geo::Canvas::Add", "src/canvas.cc", 17)}
    assert ("canvas.Add", "geo::Canvas::Add", "src/canvas.cc", 22) in targets(g, "src/main.cc", 19)


def test_overloads_with_the_same_argument_count_are_refused(g):
    # main.cc:20 canvas.Draw(1.5) and canvas.cc:28 Draw(static_cast<int>(x)): Draw(int) / Draw(double)
    assert g.calls_at("src/main.cc", 20) == []
    assert "canvas.Draw" in g.unresolved("src/main.cc", 20)
    assert g.calls_at("src/canvas.cc", 28) == []


def test_new_and_stack_construction_instantiate_the_class(g):
    inst = {(h.line, h.target) for h in g.edges("instantiates") if h.source_file == "src/main.cc"}
    assert inst >= {(16, "geo::Canvas"), (17, "geo::Circle"), (19, "geo::Rect")}
    # tests/canvas_test.cc:7 geo::Canvas canvas(&log); — namespace-qualified type
    assert ("geo.Canvas", "geo::Canvas") in {(h.ref, h.target) for h in g.calls_at("tests/canvas_test.cc", 7)}


def test_base_classes_become_extends_edges(g):
    ext = {(h.source, h.target) for h in g.edges("extends")}
    assert ext == {("geo::Circle", "geo::Shape"), ("geo::Rect", "geo::Shape")}


def test_qualified_calls_through_class_and_namespace(g):
    assert targets(g, "src/main.cc", 22) == {("Circle.Unit", "geo::Circle::Unit", "src/shape.cc", 23)}
    assert ("util.Clamp", "geo::util::Clamp", "src/shape.cc", 26) in targets(g, "src/main.cc", 28)
    assert targets(g, "src/main.cc", 30) == {("geo.util.Clamp", "geo::util::Clamp", "src/shape.cc", 26)}


def test_anonymous_namespace_helpers_bind_in_their_own_file(g):
    # canvas.cc and shape.cc each have their own geo::Square in an anonymous namespace
    assert targets(g, "src/canvas.cc", 26) >= {("Square", "geo::Square", "src/canvas.cc", 8)}
    assert targets(g, "src/shape.cc", 20) == {("Square", "geo::Square", "src/shape.cc", 9)}
    assert {n["visibility"] for n in g.nodes("geo::Square")} == {"private"}


def test_return_type_types_an_auto_local(g):
    # main.cc:24 auto fallback = MakeDefault();  → geo::Shape*  → Shape::Area
    assert targets(g, "src/main.cc", 25) == {("fallback.Area", "geo::Shape::Area", "include/geo/shape.h", 15)}


def test_untyped_receiver_and_unknown_function_stay_unresolved(g):
    # main.cc:26-27 auto plugin = LoadPlugin("x"); plugin->Area();  — LoadPlugin is declared nowhere
    assert g.calls_at("src/main.cc", 26) == [] and g.calls_at("src/main.cc", 27) == []
    assert "plugin.Area" in g.unresolved("src/main.cc", 27)


def test_std_library_calls_never_bind_to_project_members(g):
    # canvas.h:22 shapes_.size() is std::vector::size, not Canvas::size
    assert g.calls_at("src/canvas.h", 22) == []
    assert "std.make_unique" in g.unresolved("src/main.cc", 23)
    assert g.calls_at("src/canvas.cc", 18) == []  # shapes_.push_back


def test_export_macro_between_class_and_name_keeps_the_class(g):
    (shape,) = g.nodes("geo::Shape", "class")  # class GEO_EXPORT Shape {
    assert shape["docstring"] == "An abstract shape; every shape has an area and a name."
    (area,) = g.nodes("geo::Shape::Area")
    assert area["is_abstract"] == 1 and area["signature"] == "virtual double Area() const;"


def test_headers_with_cpp_syntax_are_cpp(g):
    assert g.language_of("src/canvas.h") == "cpp"
    assert g.language_of("include/geo/shape.h") == "cpp"


def test_parameter_counts_and_keys_from_signatures():
    assert param_range("void Add(Shape* s, int copies = 1)", "Add") == (1, 2)
    assert param_range("int printf(const char *fmt, ...)", "printf") == (1, None)
    assert param_range("int kv_platform_sync(void);", "kv_platform_sync") == (0, 0)
    assert param_key("void Canvas::Add(Shape* s)", "Add") == param_key("void Add(Shape* shape);", "Add")
    assert param_key("void Draw(int x)", "Draw") != param_key("void Draw(double x)", "Draw")


CASES = {
    "codegraph_search": ({"query": "Canvas"}, "geo::Canvas"),
    "codegraph_node": ({"symbol": "Canvas.TotalArea"}, "TotalArea"),
    "codegraph_callers": ({"symbol": "Logger.Write"}, "Add"),
    "codegraph_callees": ({"symbol": "Canvas.TotalArea"}, "Area"),
    "codegraph_impact": ({"symbol": "Shape"}, "Circle"),
    "codegraph_trace": ({"from": "main", "to": "Logger.Write"}, "Add"),
    "codegraph_files": ({"path": "src"}, "canvas.cc"),
    "codegraph_explore": ({"query": "how does the canvas compute the total area of its shapes"}, "TotalArea"),
    "codegraph_status": ({}, "cpp"),
    "codegraph_context": ({"task": "add a Triangle shape"}, "Shape"),
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_every_operation_answers_on_the_cpp_fixture(g, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = CASES[tool]
    result = call_tool(tool, args, default_root=g.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]


def test_a_cpp_header_named_h_is_a_cpp_file_in_the_files_table(g):
    langs = dict(g.db.execute("SELECT path, language FROM files").fetchall())
    assert langs["src/canvas.h"] == "cpp" and langs["include/geo/shape.h"] == "cpp"


def test_include_specs_resolve_from_a_root_inside_the_include_root():
    from codegraph.index.languages.cfamily import _Includes

    inc = _Includes(["base/config.h", "strings/str_cat.h", "strings/internal/config.h", "numeric/int128.cc"])
    # abseil indexed from absl/: "absl/base/config.h" is base/config.h
    assert inc.find("numeric/int128.cc", "absl/base/config.h", system=False) == "base/config.h"
    assert inc.find("strings/str_cat.h", "config.h", system=False) is None  # no config.h beside it…
    assert inc.find("strings/internal/x.h", "config.h", system=False) == "strings/internal/config.h"
    assert inc.find("numeric/int128.cc", "string", system=True) is None  # a standard header


def test_an_include_path_matches_whole_folder_and_file_names_only():
    from codegraph.index.languages.cfamily import _Includes

    inc = _Includes(["src/mybase/util.h", "lib/base/util.h", "lib/xutil.h", "include/linux/types.h"])
    assert inc.find("app/main.c", "base/util.h", system=False) == "lib/base/util.h"  # not mybase/
    assert inc.find("lib/main.c", "util.h", system=False) is None  # no util.h beside it: xutil.h is not one
    assert inc.find("lib/base/x.c", "util.h", system=False) == "lib/base/util.h"
    assert inc.find("include/linux/y.h", "linux/types.h", system=True) == "include/linux/types.h"


def test_declaration_macros_at_namespace_scope_are_blanked_but_calls_in_bodies_stay():
    from codegraph.index.languages._cfamily_source import blank_macros

    src = b'namespace absl {\nABSL_NAMESPACE_BEGIN\nABSL_FLAG(int, f, 1, "x");\nvoid g() {\n  EXPECT_EQ(a, b);\n}\n}\n'
    out = blank_macros(src, True)
    assert len(out) == len(src)
    assert b"ABSL_FLAG" not in out and b"ABSL_NAMESPACE_BEGIN" not in out
    assert b"EXPECT_EQ(a, b);" in out


LOCAL_CLASSES_CPP = b"""int helper(int x) { return x; }

int outer(int i) {
  struct Local {
    int twice(int v) { return helper(v) * 2; }
  };
  auto f = [](int k) {
    struct InLambda { int once(int v) { return helper(v); } };
    return InLambda().once(k);
  };
  Local l;
  return l.twice(i) + f(i);
}
"""


def test_member_functions_of_local_classes_stay_methods_inside_a_function(tmp_path):
    # a function definition nested in a function body is a macro misparse, but one in a local
    # class's body (also inside a lambda) is a real member function
    (tmp_path / "local.cpp").write_bytes(LOCAL_CLASSES_CPP)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    assert [n["kind"] for n in g.nodes("outer::Local::twice")] == ["method"]
    assert [n["kind"] for n in g.nodes("outer::InLambda::once")] == ["method"]
    assert targets(g, "local.cpp", 5) == {("helper", "helper", "local.cpp", 1)}
    assert {h.source for h in g.edges("calls") if h.line in (5, 8)} == {
        "outer::Local::twice",
        "outer::InLambda::once",
    }


def test_a_namespace_scope_variable_declared_in_an_included_header_types_calls_unless_shadowed(tmp_path):
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    files = {
        "types.h": (
            "class Registry {\npublic:\n    void add(int x) {}\n};\n\n"
            "class Other {\npublic:\n    void add(int x) {}\n};\n\nextern Registry g_registry;\n"
        ),
        "mixed.h": (  # the same name with another type in some builds
            '#include "types.h"\n\nclass Config {};\n\n'
            "#ifdef USE_OTHER\nextern Other g_registry;\n#else\nextern Registry g_registry;\n#endif\n"
        ),
        "main.cpp": (
            '#include "types.h"\n\nvoid direct() { g_registry.add(1); }\n'
            "void param(auto g_registry) { g_registry.add(1); }\n"
            "template <class T> void templ(T g_registry) { g_registry.add(1); }\n"
            "void local() {\n    auto g_registry = make();\n    g_registry.add(1);\n}\n"
        ),
        "both.cpp": '#include "mixed.h"\n\nvoid both() { g_registry.add(1); }\n',
    }
    for name, body in files.items():
        (tmp_path / name).write_text(body)
    index_project(ProjectPaths(tmp_path), workers=1)
    reader = Reader(tmp_path)
    try:
        got = {
            (s, t)
            for s, t in reader.conn.execute(
                "SELECT s.qualified_name, t.qualified_name FROM edges e JOIN nodes s ON s.id = e.source"
                " JOIN nodes t ON t.id = e.target WHERE e.kind = 'calls'"
            )
        }
    finally:
        reader.close()
    assert ("direct", "Registry::add") in got  # extern Registry g_registry; in types.h
    # a parameter or local of that name hides it; headers typing it differently: no guess
    assert not {(s, t) for s, t in got if s in ("param", "templ", "local", "both")}


GUARDED_NAMES_CPP = b"""namespace rnd {
class Dist {
 public:
  using result_type = int;
  result_type(min)() const { return 0; }
  static constexpr long (max)() { return 9; }
  int span() const { return (max)() - (min)(); }
};
}  // namespace rnd
"""


def test_a_method_named_in_parentheses_against_a_min_max_macro_is_a_member(tmp_path):
    # abseil's ``result_type(min)() const``: parentheses keep windows.h's min() macro away; the grammar
    # reads ``result_type`` as a call around the name, but the method is rnd::Dist::min
    (tmp_path / "dist.h").write_bytes(GUARDED_NAMES_CPP)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    methods = {(r["kind"], r["start_line"]) for r in g.nodes("rnd::Dist::min") + g.nodes("rnd::Dist::max")}
    assert methods == {("method", 5), ("method", 6)}
    assert {h.target for h in g.calls_at("dist.h", 7)} == {"rnd::Dist::min", "rnd::Dist::max"}


STD_SPECIALISATION_CPP = b"""#include <limits>
namespace big { class u128 {}; }
namespace std {
template <>
class numeric_limits<big::u128> {
 public:
  static constexpr big::u128 (max)() { return big::u128(); }
};
}  // namespace std
unsigned long top() { return std::numeric_limits<unsigned long>::max(); }
"""


def test_a_std_template_member_called_with_other_arguments_does_not_reach_the_projects_specialisation(
    tmp_path,
):
    # abseil's int128.h specialises std::numeric_limits<absl::uint128>; int128.cc:33 calls
    # std::numeric_limits<uint64_t>::max(), which is the standard library's
    (tmp_path / "big.h").write_bytes(STD_SPECIALISATION_CPP)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    assert [r["kind"] for r in g.nodes("std::numeric_limits::max")] == ["method"]
    assert g.calls_at("big.h", 10) == []
