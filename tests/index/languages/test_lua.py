"""Lua and Luau over fixtures/repos/lua (a shapes package with module tables, a metatable class and
a global helper) and fixtures/repos/luau (a Roblox-style package) through the real indexer. Every
expected edge below was read from the fixtures' source, not from the tool's output."""

from __future__ import annotations

import pytest

from codegraph.index.languages import is_test_path
from codegraph.mcp.dispatch import call_tool
from tests.index.languages.cfamily_helpers import index_fixture


@pytest.fixture(scope="module")
def lua(tmp_path_factory):
    return index_fixture("lua", tmp_path_factory.mktemp("lua"))


@pytest.fixture(scope="module")
def luau(tmp_path_factory):
    return index_fixture("luau", tmp_path_factory.mktemp("luau"))


def targets(g, file, line):
    return {(h.ref, h.target, h.target_file) for h in g.calls_at(file, line)}


def test_require_maps_dots_to_directories_and_init_files(lua):
    imports = {(h.source_file, h.target_file) for h in lua.edges("imports")}
    assert ("main.lua", "util/strings.lua") in imports  # require("util.strings")
    assert ("main.lua", "shapes/init.lua") in imports  # require("shapes") -> shapes/init.lua
    assert ("shapes/init.lua", "shapes/rect.lua") in imports  # a field of the returned table


def test_member_call_reaches_the_function_of_the_table_the_module_returns(lua):
    # main.lua:14 strings.pad(...): util/strings.lua's `local M = {}` ... `return M`
    assert ("strings.pad", "M::pad", "util/strings.lua") in targets(lua, "main.lua", 14)
    # main.lua:26 strings.join(all): `M.join = function(list)` is a member too
    assert targets(lua, "main.lua", 26) == {("strings.join", "M::join", "util/strings.lua")}


def test_a_field_of_a_returned_table_is_the_module_it_requires(lua):
    # main.lua:21 shapes.rect.new(3, 4): shapes/init.lua returns { rect = require("shapes.rect") }
    assert targets(lua, "main.lua", 21) == {("shapes.rect.new", "rect::new", "shapes/rect.lua")}


def test_functions_written_on_a_table_are_its_methods(lua):
    kinds = {r["qualified_name"]: r["kind"] for r in lua.db.execute("SELECT * FROM nodes")}
    assert kinds["Circle"] == "class"  # Circle.__index = Circle
    assert kinds["M"] == "module" and kinds["M::pad"] == "method" and kinds["trim"] == "function"
    assert kinds["rect::mt"] == "module"  # local rect = { mt = {} }


def test_self_in_a_colon_method_is_the_table_it_is_written_on(lua):
    # shapes/circle.lua:19 self:area() in Circle:describe
    assert ("self.area", "Circle::area", "shapes/circle.lua") in targets(lua, "shapes/circle.lua", 19)


def test_a_local_from_a_constructor_calls_the_methods_of_its_table(lua):
    # main.lua:22 r:area() with local r = shapes.rect.new(3, 4)
    assert ("r.area", "rect::area", "shapes/rect.lua") in targets(lua, "main.lua", 22)


def test_a_global_function_binds_a_bare_call_in_another_file(lua):
    # main.lua:22 log(...) is globals.lua's `function log(msg)` (no local)
    assert ("log", "log", "globals.lua") in targets(lua, "main.lua", 22)


def test_builtins_and_unknown_names_stay_unresolved(lua):
    # main.lua:25 tostring(c): the builtin, not util/strings.lua's M.tostring
    assert targets(lua, "main.lua", 25) == set()
    assert "tostring" in lua.unresolved("main.lua", 25)
    # shapes/rect.lua:14 scale(...) is defined nowhere; main.lua:14 s:describe() has an untyped s
    assert "scale" in lua.unresolved("shapes/rect.lua", 14)
    assert ("s.describe", "Circle::describe", "shapes/circle.lua") not in targets(lua, "main.lua", 14)


def test_a_local_function_does_not_leak_into_other_files(lua):
    # util/strings.lua:10 trim(s) is its local trim
    assert targets(lua, "util/strings.lua", 10) == {("trim", "trim", "util/strings.lua")}


def test_doc_comments_and_signatures_are_kept(lua):
    row = lua.nodes("M::pad")[0]
    assert row["signature"] == "(s, n)" and row["docstring"] == "Pad s to n characters."
    assert lua.nodes("lines")[0]["docstring"].startswith("One line per shape.")


def test_busted_specs_are_test_files():
    assert is_test_path("spec/circle_spec.lua") and is_test_path("lua/x/foo_spec.lua")
    assert not is_test_path("shapes/circle.lua")


def test_luau_requires_by_instance_path_and_by_relative_string(luau):
    imports = {(h.source_file, h.target_file) for h in luau.edges("imports")}
    assert ("src/Bank/init.luau", "src/Account.luau") in imports  # require(script.Parent.Account)
    assert ("src/Bank/init.luau", "src/Bank/Ledger.luau") in imports  # require(script.Ledger)
    assert ("src/init.luau", "src/Bank/init.luau") in imports  # require(script.Bank)
    assert ("src/Account.luau", "src/Format.luau") in imports  # require("./Format")


def test_luau_typed_class_calls_resolve_through_the_constructor(luau):
    got = targets(luau, "src/Bank/init.luau", 13) | targets(luau, "src/Bank/init.luau", 14)
    assert ("Account.new", "Account::new", "src/Account.luau") in got
    assert ("acct.deposit", "Account::deposit", "src/Account.luau") in got
    assert luau.nodes("Account::new")[0]["return_type"] == "Account"
    assert luau.language_of("src/Account.luau") == "luau"


def test_luau_type_aliases_are_symbols_and_builtins_stay_unresolved(luau):
    assert luau.nodes("Money")[0]["kind"] == "type_alias"
    assert "warn" in luau.unresolved("src/Bank/Ledger.luau", 7)
    assert "task.wait" in luau.unresolved("src/Bank/init.luau", 17)


def test_require_of_a_field_a_field_holding_a_module_and_a_nested_returned_table(lua):
    # extras.lua:7 pad(...) with local pad = require("util.strings").pad
    assert targets(lua, "extras.lua", 7) == {("pad", "M::pad", "util/strings.lua")}
    # extras.lua:6 ui.text.pad: ui/init.lua sets ui.text = require("util.strings")
    assert targets(lua, "extras.lua", 6) == {("ui.text.pad", "M::pad", "util/strings.lua")}
    # extras.lua:8 geometry.rect.area: ui/geometry.lua returns lib.geometry
    assert targets(lua, "extras.lua", 8) == {
        ("geometry.rect.area", "lib.geometry.rect::area", "ui/geometry.lua")
    }


LUA_CASES = {
    "codegraph_search": ({"query": "Circle"}, "shapes/circle.lua"),
    "codegraph_node": ({"symbol": "M.pad"}, "Pad s to n characters."),
    "codegraph_callers": ({"symbol": "M.format_number"}, "describe"),
    "codegraph_callees": ({"symbol": "report.run"}, "lines"),
    "codegraph_impact": ({"symbol": "M.format_number"}, "describe"),
    "codegraph_trace": ({"from": "report.run", "to": "trim"}, "pad"),
    "codegraph_files": ({"path": "shapes"}, "circle.lua"),
    "codegraph_status": ({}, "lua"),
    "codegraph_context": ({"task": "pad a string to a width"}, "pad"),
    "codegraph_explore": ({"query": "how is the area of a circle computed"}, "area"),
}


@pytest.mark.parametrize("tool", sorted(LUA_CASES))
def test_every_operation_answers_on_the_lua_fixture(lua, tool, monkeypatch):
    monkeypatch.setenv("CODEGRAPH_MCP_TOOLS", "all")
    args, expected = LUA_CASES[tool]
    result = call_tool(tool, args, default_root=lua.root)
    text = result["content"][0]["text"]
    assert result["isError"] is False, text[:500]
    assert expected in text, text[:1500]


def test_a_metatable_index_is_inheritance_that_member_lookups_follow(lua):
    bases = {(h.source, h.target) for h in lua.edges("extends")}
    # shapes/square.lua: local square = setmetatable({}, { __index = rect }); setmetatable(Ring, { __index = Circle })
    assert bases == {("square", "rect"), ("Ring", "Circle")}
    # :12 self:area() in square:describe is rect's area; :20 Ring.new(r) is Circle.new
    assert targets(lua, "shapes/square.lua", 12) == {("self.area", "rect::area", "shapes/rect.lua")}
    assert targets(lua, "shapes/square.lua", 20) == {("Ring.new", "Circle::new", "shapes/circle.lua")}
    # :21 ring:describe() with local ring = Ring.new(r): Ring has no describe, Circle does
    assert targets(lua, "shapes/square.lua", 21) == {
        ("ring.describe", "Circle::describe", "shapes/circle.lua")
    }
