"""C: the kv fixture (fixtures/repos/c) through the real indexer. Every expected edge below was
read from the fixture's source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.indexer import index_project
from codegraph.index.languages._cfamily_source import blank_macros, dead_code, looks_like_cpp
from codegraph.mcp.dispatch import call_tool
from codegraph.paths import ProjectPaths
from tests.index.languages.cfamily_helpers import Graph, index_fixture


@pytest.fixture(scope="module")
def g(tmp_path_factory):
    return index_fixture("c", tmp_path_factory.mktemp("c"))


def targets(g, file, line):
    return {(h.ref, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_call_through_a_header_prototype_reaches_the_definition_in_the_source_file(g):
    # main.c:24 kv_open(16) — declared in include/kv/store.h, defined in src/store.c
    assert targets(g, "src/main.c", 24) == {("kv_open", "kv_open", "src/store.c")}
    assert targets(g, "src/store.c", 22) == {("kv_bucket", "kv_bucket", "src/hash.c")}


def test_static_helper_binds_within_its_own_file_only(g):
    # hash.c:11 mix(...) is hash.c's static mix; store.c has another static mix
    assert targets(g, "src/hash.c", 11) == {("mix", "mix", "src/hash.c")}
    assert not [h for h in g.edges("calls") if h.target == "mix" and h.source_file != h.target_file]


def test_includes_resolve_relative_and_through_include_dirs_in_the_tree(g):
    imports = {(h.source_file, h.target_file) for h in g.edges("imports")}
    assert ("src/main.c", "include/kv/store.h") in imports  # "kv/store.h": include dir include/
    assert ("tests/test_store.c", "include/kv/store.h") in imports  # "../include/kv/store.h"
    assert ("src/store.c", "src/hash.h") in imports  # relative to the including file
    assert not [t for s, t in imports if t.endswith(("stdio.h", "stdlib.h"))]


def test_libc_calls_never_bind_to_project_definitions(g):
    assert g.calls_at("src/main.c", 29) == [h for h in g.calls_at("src/main.c", 29) if h.ref == "square"]
    assert "printf" in g.unresolved("src/main.c", 29)
    assert "sqrt" in g.unresolved("src/main.c", 29)
    assert "calloc" in g.unresolved("src/store.c", 30)


def test_a_platform_macro_renaming_a_libc_function_does_not_capture_its_calls(tmp_path):
    # curl's setup-vms.h: `#define getenv vms_getenv` applies only in VMS builds; getenv("X") in
    # every other build is libc's. A project's own object-like alias of a project function still binds.
    (tmp_path / "shim.h").write_text(
        "#ifdef __VMS\n#define getenv vms_getenv\n#endif\n#define run_alias run_impl\nint run_impl(void);\n"
    )
    (tmp_path / "main.c").write_text(
        '#include <stdlib.h>\n#include "shim.h"\nint main(void) {\n'
        '  const char *v = getenv("HOME");\n  return run_alias();\n}\n'
    )
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    assert g.calls_at("main.c", 4) == []
    assert "getenv" in g.unresolved("main.c", 4)
    assert [(h.ref, h.target, h.target_file) for h in g.calls_at("main.c", 5)] == [
        ("run_alias", "run_alias", "shim.h")
    ]


def test_calls_through_function_pointer_fields_stay_unresolved(g):
    # main.c:26 mem_ops.put(...) and store.c:71 s->ops->get(...) dispatch through kv_ops pointers
    assert g.calls_at("src/main.c", 26) == []
    assert "mem_ops.put" in g.unresolved("src/main.c", 26)
    assert g.calls_at("src/store.c", 71) == []


def test_function_declared_only_in_a_header_links_to_its_prototype(g):
    # kv_platform_sync has no definition in the tree: the edge goes to the declaration
    assert targets(g, "src/main.c", 30) == {("kv_platform_sync", "kv_platform_sync", "src/internal.h")}
    (proto,) = g.nodes("kv_platform_sync")
    assert proto["signature"] == "int kv_platform_sync(void);"


def test_function_like_macro_call_links_to_the_macro(g):
    assert targets(g, "src/store.c", 46) == {("KV_CHECK", "KV_CHECK", "include/kv/store.h")}
    (macro,) = g.nodes("KV_CHECK")
    assert macro["signature"] == "#define KV_CHECK(cond)"


def test_ifdef_splitting_an_if_else_keeps_the_definitions_around_it(g):
    # store.c:56-60 an #ifdef/#else pair each open the same if: without flattening, kv_put is lost
    names = {r["name"] for r in g.db.execute("SELECT name FROM nodes WHERE file_path = 'src/store.c'")}
    assert {"kv_put", "kv_get", "kv_count", "kv_fail", "find", "mix"} <= names
    assert targets(g, "src/store.c", 45) == {("find", "find", "src/store.c")}


def test_prototype_doc_comment_and_signature_are_kept(g):
    (proto,) = [n for n in g.nodes("kv_open") if n["file_path"] == "include/kv/store.h"]
    assert proto["docstring"] == "Create an empty store with room for `capacity` buckets."
    assert proto["signature"] == "kv_store *kv_open(size_t capacity);"
    (defn,) = [n for n in g.nodes("kv_open") if n["file_path"] == "src/store.c"]
    assert defn["signature"] == "kv_store *kv_open(size_t capacity)"


def test_structs_enums_and_typedefs_with_members(g):
    assert [n["kind"] for n in g.nodes("kv_entry")] == ["struct"]
    assert {
        n["qualified_name"] for n in g.db.execute("SELECT qualified_name FROM nodes WHERE kind='field'")
    } >= {
        "kv_entry::key",
        "kv_ops::put",
        "kv_store::buckets",
    }
    assert [n["kind"] for n in g.nodes("kv_status::KV_FULL")] == ["enum_member"]
    assert [n["kind"] for n in g.nodes("kv_store")] == ["type_alias", "struct"]


def test_static_functions_are_file_local(g):
    (helper,) = g.nodes("square")
    assert helper["is_static"] == 1 and helper["visibility"] == "private"


def test_a_header_without_cpp_syntax_is_c(g):
    assert g.language_of("include/kv/store.h") == "c"
    assert g.language_of("src/hash.h") == "c"


VM_C = b"""#define vmdispatch(x) switch (x)
#define vmcase(l) case l:
#define GET_OPCODE(i) ((i) & 0x7f)
static int step(int x) { return x + 1; }
static int halt(int x) { return x - 1; }

int run(int i) {
  int r = 0;
  for (;;) {
    vmdispatch (GET_OPCODE(i)) {
      vmcase(1) {
        r = step(r);
        break;
      }
      default:
        r = halt(r);
    }
  }
  return r;
}
"""


def test_a_macro_misparsed_as_a_nested_function_makes_no_node_and_its_calls_stay_with_the_function(
    tmp_path,
):
    # Lua's lvm.c: ``vmdispatch (GET_OPCODE(i)) {`` (a switch) parses as a function definition
    # inside luaV_execute; C has no nested functions, so lines 10-17 belong to run
    (tmp_path / "vm.c").write_bytes(VM_C)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    names = {r[0] for r in g.db.execute("SELECT qualified_name FROM nodes WHERE kind != 'file'")}
    assert names == {"vmdispatch", "vmcase", "GET_OPCODE", "step", "halt", "run"}
    assert targets(g, "vm.c", 12) == {("step", "step", "vm.c")}
    assert targets(g, "vm.c", 16) == {("halt", "halt", "vm.c")}
    assert {h.source for h in g.edges("calls")} == {"run"}


WRAPPED_H = b"""#define NAMED(n) n
#define API extern
API int NAMED(open_store)(int size);
"""
WRAPPED_C = b"""#include "api.h"
int NAMED(open_store)(int size) { return size; }
static int *NAMED(helper)(void) { return 0; }
int use(void) {
  return open_store(1) + *helper();
}
"""


def test_a_function_whose_name_is_wrapped_in_a_macro_call_is_that_name(tmp_path):
    # ``int X(foo)(void)``: C has no function returning a function, so the inner "call" is a macro
    # around the name (the parenthesised ``int (foo)(void)`` already was ``foo``)
    (tmp_path / "api.h").write_bytes(WRAPPED_H)
    (tmp_path / "api.c").write_bytes(WRAPPED_C)
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    functions = {(r[0], r[1], r[2]) for r in g.db.execute(
        "SELECT name, file_path, start_line FROM nodes WHERE kind = 'function'")}  # fmt: skip
    assert functions == {
        ("NAMED", "api.h", 1),
        ("open_store", "api.h", 3),
        ("open_store", "api.c", 2),
        ("helper", "api.c", 3),
        ("use", "api.c", 4),
    }
    assert targets(g, "api.c", 5) == {("open_store", "open_store", "api.c"), ("helper", "helper", "api.c")}


def test_a_name_behind_two_macro_calls_makes_no_node(tmp_path):
    # ``int F(a)(b)(void)``: which of a and b is the name depends on what F(a) expands to; it was
    # named ``b``, confidently. One wrapper (``int M(c)(void)``) is still ``c``
    (tmp_path / "m.c").write_bytes(b"int F(a)(b)(void) { return 1; }\nint M(c)(void) { return 2; }\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    g = Graph(tmp_path.resolve())
    names = {r[0] for r in g.db.execute("SELECT name FROM nodes WHERE kind = 'function'")}
    assert names == {"c"}


def test_macro_clean_ups_keep_every_offset():
    src = b"LUA_API int lua_f (lua_State *L);\n#if 0\nbroken(\n#endif\nint g(void) { return f(1); }\n"
    out = dead_code(blank_macros(src, False), False)
    assert len(out) == len(src) and out.count(b"\n") == src.count(b"\n")
    assert out.startswith(b"        int lua_f")
    assert b"broken" not in out and b"int g(void)" in out
    assert blank_macros(b"FILE *f = fopen(p, m);\n", False) == b"FILE *f = fopen(p, m);\n"


def test_macro_blanking_reaches_the_first_line_adjacent_attributes_and_every_prototype():
    # the scans try their patterns only where a quick hint matches: byte 0 has no newline before it,
    # two attributes share one blank-separated run, two prototypes sit on consecutive lines
    src = (
        b"LUA_API int f(void);\n"
        b"void g(void) A_ATTR B_ATTR;\n"
        b"lua_Alloc (lua_getallocf) (lua_State *L);\n"
        b"lua_Alloc (lua_other) (lua_State *L);\n"
    )
    assert blank_macros(src, False) == (
        b"        int f(void);\n"
        b"void g(void)              ;\n"
        b"lua_Alloc  lua_getallocf  (lua_State *L);\n"
        b"lua_Alloc  lua_other  (lua_State *L);\n"
    )
    cls = b"class FOO_EXPORT A {\n};\nstruct BAR_API B final {};\n"
    assert blank_macros(cls, True) == b"class            A {\n};\nstruct         B final {};\n"


def test_cpp_sniffing_ignores_comments_strings_and_extern_c():
    assert not looks_like_cpp(b'#ifdef __cplusplus\nextern "C" {\n#endif\n/* class A { */\nint f(void);\n')
    assert looks_like_cpp(b"namespace a {\nint f();\n}\n")
    assert looks_like_cpp(b"class Foo : public Bar {\n public:\n};\n")


CASES = {
    "codegraph_search": ({"query": "kv_put"}, "kv_put"),
    "codegraph_node": ({"symbol": "kv_get"}, "kv_get"),
    "codegraph_callers": ({"symbol": "kv_bucket"}, "find"),
    "codegraph_callees": ({"symbol": "kv_put"}, "kv_bucket"),
    "codegraph_impact": ({"symbol": "kv_hash"}, "kv_bucket"),
    "codegraph_trace": ({"from": "main", "to": "kv_hash"}, "kv_bucket"),
    "codegraph_files": ({"path": "src"}, "store.c"),
    "codegraph_explore": ({"query": "how does kv_put find the bucket for a key"}, "kv_bucket"),
    "codegraph_status": ({}, "c"),
    "codegraph_context": ({"task": "change how keys are hashed"}, "hash"),
}


@pytest.mark.parametrize("tool", sorted(CASES))
def test_every_operation_answers_on_the_c_fixture(g, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = CASES[tool]
    result = call_tool(tool, args, default_root=g.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]


def test_a_function_like_macro_calls_what_its_body_calls(g):
    # include/kv/store.h:15 #define KV_CHECK(cond) ((cond) ? 0 : kv_fail(#cond)); kv_fail is declared at
    # store.h:44 and defined in src/store.c
    assert targets(g, "include/kv/store.h", 15) == {("kv_fail", "kv_fail", "src/store.c")}
    assert [h.source for h in g.edges("calls") if h.target == "kv_fail"] == ["KV_CHECK"]


MACROS = b"""\
int step(int x);
int helper(int x);
#define APPLY(f, x) f(x) + s.step(x) + p->step(x) + prefix_ ## step(x) + #helper
#define GC(L, pre) \\
\t{ if (L > 0) { pre; step(L); } \\
\t  helper(L); } /* step(comment) */
#define NAMED(x) puts("helper(x)")
"""


def test_macro_body_calls_skip_parameters_members_pasted_names_strings_and_comments(tmp_path):
    from codegraph.index.extract import extract

    fx = extract("m.h", MACROS, "c", "c")
    by_id = {n.id: n.name for n in fx.nodes}
    calls = sorted((by_id.get(r.source), r.name, r.line, r.col) for r in fx.refs if r.kind == "calls")
    # APPLY: f is its parameter, .step/->step members, prefix_ ## step pasted, #helper stringised
    # GC: step at line 5 column 21 (after "\t{ if (L > 0) { pre; "), helper at 6:3; the comment's step is not code
    # NAMED: only puts; the string's helper(x) is not code
    assert calls == [("GC", "helper", 6, 3), ("GC", "step", 5, 21), ("NAMED", "puts", 7, 17)]
