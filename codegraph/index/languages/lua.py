"""Lua (``.lua``) and Luau (``.luau``): one extractor and one resolver for both grammars.

A Lua module is a file that gives back a table: ``local M = {}`` … ``function M.f()`` …
``return M`` (or ``return setmetatable(M, mt)``, or ``return { f = f, sub = require("x.sub") }``).
``require("gears.table")`` maps dots to directories (``gears/table.lua`` or ``gears/table/init.lua``,
from the project root or, when that file is not there, the one file in the tree ending with that
path, as under a ``lua/`` folder); ``local t = require("a")`` binds ``t`` to that module's table.
Luau also requires by relative string (``require("./util")``) and by Roblox instance path
(``require(script.Parent.Util)``: the folder of the file, then names).

Top-level tables are containers: ``class`` when the file uses them as a metatable (``T.__index``,
``setmetatable(x, T)``, ``{ __index = T }``), else ``module``. ``function T.f()`` / ``function T:m()``
/ ``T.f = function() end`` / ``{ f = function() end }`` are their members (methods). Inside
``function T:m()``, ``self`` is ``T``; ``local o = setmetatable({}, T)`` and ``local o = T.new()``
give ``o`` the type ``T``. A metatable whose ``__index`` is another table (``setmetatable(T, {
__index = Base })``, ``local T = setmetatable({}, { __index = Base })``) makes ``Base`` a base of
``T`` (an ``extends`` edge): member lookups through ``self`` and typed locals fall back to it.

Resolution is Lua's own: a name is a local of the enclosing functions (a parameter or ``local``
shadows everything), else a ``require`` binding or a top-level name of the file, else, for a bare
call only, the one global function (``function f()`` without ``local``) of that name in the project.
A member call walks tables (``a.b.f``) from such a head; an unknown head (a global table such as
``string`` or ``client``) stays unresolved. Calling a table (its ``__call``) makes no edge.
Docs are the ``--`` comment lines right above a definition.
"""

from __future__ import annotations

import posixpath
import re
from typing import ClassVar

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import METHOD_CONTAINERS, LanguageModule, relative_file
from codegraph.model import Node

RETURNED = "<return>"  # exports key: the name (or dotted path) of the table a file gives back
# exports key prefix: a table field holding a module (``wibox.widget = require("wibox.widget")``,
# ``local widget = { base = require("wibox.widget.base") }``): FIELD + "wibox.widget" → the spec
FIELD = "<field>"
TABLE_KINDS = frozenset({"class", "module"})
FUNCTION_KINDS = frozenset({"function", "method"})
BUILTINS = frozenset(
    """
assert collectgarbage dofile error getmetatable ipairs load loadfile loadstring module next pairs pcall
print rawequal rawget rawlen rawset require select setfenv getfenv setmetatable tonumber tostring type
unpack xpcall
""".split()
)
LUAU_BUILTINS = BUILTINS | frozenset(
    """
typeof tick time wait spawn delay warn elapsedTime gcinfo settings UserSettings version
""".split()
)


def chain(node) -> list[str] | None:
    """``["a", "b", "c"]`` for ``a.b.c`` / ``a.b:c`` made of plain names, else None."""
    if node is None:
        return None
    if node.type == "identifier":
        return [text(node)]
    if node.type in ("dot_index_expression", "method_index_expression"):
        head = chain(node.child_by_field_name("table"))
        tail = node.child_by_field_name("field") or node.child_by_field_name("method")
        if head is None or tail is None or tail.type != "identifier":
            return None
        return [*head, text(tail)]
    return None


def _string_value(node) -> str | None:
    if node is not None and node.type == "string":
        content = node.child_by_field_name("content")
        return text(content) if content is not None else ""
    return None


def require_spec(call) -> str | None:
    """The module of ``require("a.b")`` / ``require "a.b"`` / Luau ``require(script.Parent.X)``."""
    name = call.child_by_field_name("name")
    if name is None or name.type != "identifier" or text(name) != "require":
        return None
    args = call.child_by_field_name("arguments")
    if args is None:
        return None
    if args.type == "string":
        return _string_value(args)
    kids = args.named_children
    if len(kids) != 1:
        return None
    value = _string_value(kids[0])
    if value is not None:
        return value
    parts = chain(kids[0])
    return ".".join(parts) if parts and parts[0] in ("script", "game") else None


def _pairs(assign):
    """(target, value) pairs of an assignment statement, by position."""
    targets = next((c for c in assign.named_children if c.type == "variable_list"), None)
    values = next((c for c in assign.named_children if c.type == "expression_list"), None)
    tnodes = [c for c in targets.named_children if c.type != "attribute"] if targets is not None else []
    vnodes = values.named_children if values is not None else []
    return [(t, vnodes[i] if i < len(vnodes) else None) for i, t in enumerate(tnodes)]


def _doc(stmt) -> str | None:
    """The ``--`` comment lines right above a statement (no blank line between)."""
    lines = []
    prev, line = stmt.prev_sibling, stmt.start_point[0]
    while prev is not None and prev.type == "comment" and prev.end_point[0] >= line - 1:
        body = text(prev)
        if body.startswith("--[["):
            body = body[4:].rsplit("]]", 1)[0]
        if not body.startswith("--!"):  # Luau directives (--!strict)
            lines.append(body.lstrip("-").strip())
        line = prev.start_point[0]
        prev = prev.prev_sibling
    doc = " ".join(ln for ln in reversed(lines) if ln and set(ln) != {"-"})
    return squash(doc, MAX_DOCSTRING) or None


def _statement(node):
    """The statement a definition is written as (``local`` included)."""
    parent = node.parent
    return parent if parent is not None and parent.type == "variable_declaration" else node


class LuaExtractor(Extractor):
    def begin(self, root) -> None:
        self._classes = self._metatables()
        self._seen: set[int] = set()

    def _metatables(self) -> set[str]:
        """Names the file uses as a metatable: ``T.__index``, ``setmetatable(x, T)``, ``__index = T``."""
        src = self.source.decode("utf-8", "replace")
        found = set(re.findall(r"\b([A-Za-z_]\w*)\.__index\b", src))
        found |= set(
            re.findall(r"setmetatable\s*\([^,()]*(?:\([^()]*\))?[^,()]*,\s*([A-Za-z_]\w*)\s*\)", src)
        )
        found |= set(re.findall(r"__index\s*=\s*([A-Za-z_]\w*)\b", src))
        return found

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.function":
            self._function_declaration(ts)
        elif capture == "definition.type":
            name = ts.child_by_field_name("name")
            d = self.add_def(ts, "type_alias", name)
            if d is not None:
                d.hoist = False
        elif capture == "assign":
            self._assignment(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "return":
            self._module_return(ts)
        elif capture == "local.name":
            self.local_name(ts, text(ts))
        elif capture == "local.names":
            for c in ts.named_children:
                if c.type == "identifier":
                    self.local_name(ts, text(c))

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """A Luau ``export type T = typeof(setmetatable(…, T))`` beside a table ``T`` is that table's
        instance type: the table's node stands for both (types and values are separate namespaces,
        and a second top-level ``T`` would hide the table from ``function T.f()``)."""
        tables = {d.name for d in defs if d.kind in TABLE_KINDS}
        return [d for d in defs if not (d.kind == "type_alias" and d.name in tables)]

    # ------------------------------------------------------------ definitions
    def _top_level(self, stmt) -> bool:
        parent = stmt.parent
        return parent is not None and parent.type == "chunk"

    def _function_declaration(self, ts) -> None:
        name = ts.child_by_field_name("name")
        parts = chain(name)
        if not parts:
            return
        d = self.add_def(ts, "function", None, name=parts[-1])
        if d is None:
            return
        if len(parts) > 1 and parts[0] != "self":
            d.owner = ".".join(parts[:-1])
        self._params(ts)

    def _params(self, fn) -> None:
        params = fn.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            ident = (
                p
                if p.type == "identifier"
                else next((c for c in p.named_children if c.type == "identifier"), None)
            )
            if ident is not None:
                self.local_name(fn, text(ident))

    def _table(self, stmt, name_node, name: str, value, owner: str | None = None) -> Def | None:
        kind = "class" if name in self._classes and owner is None else "module"
        d = self.add_def(stmt, kind, name_node, name=name)
        if d is None:
            return None
        d.owner = owner
        self._fields(value, f"{owner}.{name}" if owner else name)
        return d

    def _index_base(self, mt) -> str | None:
        """The table a metatable makes lookups fall back to: ``{ __index = Base }``, or a class
        ``Base`` used as the metatable itself (``Base.__index = Base`` in this file)."""
        if mt is None:
            return None
        if mt.type == "table_constructor":
            for field in mt.named_children:
                key, value = field.child_by_field_name("name"), field.child_by_field_name("value")
                if field.type == "field" and key is not None and text(key) == "__index":
                    parts = chain(value)
                    return ".".join(parts) if parts else None
            return None
        parts = chain(mt)
        return parts[0] if parts and len(parts) == 1 and parts[0] in self._classes else None

    def _inherit(self, d, mt, at) -> None:
        base = self._index_base(mt)
        if d is not None and base and base != d.name:
            self.base_ref(d, "extends", base, at)

    def _fields(self, table, path: str) -> None:
        """``{ f = function() end, sub = { … }, m = require("m") }``: members of the table ``path``, a
        nested table's members right after it. A stack, not recursion: 2,000 nested tables (a data
        file) exceeded Python's recursion limit."""
        stack = [(iter(table.named_children), path)]
        while stack:
            fields, path = stack[-1]
            field = next(fields, None)
            if field is None:
                stack.pop()
                continue
            if field.type != "field":
                continue
            key, value = field.child_by_field_name("name"), field.child_by_field_name("value")
            if key is None or key.type != "identifier" or value is None:
                continue
            if value.type == "function_definition":
                if self.add_def(field, "function", key) is not None:
                    self._params(value)
            elif value.type == "table_constructor":
                self.add_def(field, "module", key)
                stack.append((iter(value.named_children), f"{path}.{text(key)}"))
            elif value.type == "function_call" and (spec := require_spec(value)) is not None:
                self.out.exports.append((f"{FIELD}{path}.{text(key)}", spec))

    def _assignment(self, ts) -> None:
        stmt = _statement(ts)
        is_local = stmt is not ts
        top = self._top_level(stmt)
        for target, value in _pairs(ts):
            parts = chain(target)
            if not parts:
                continue
            name = parts[-1]
            vtype = value.type if value is not None else None
            if vtype == "function_call":
                spec = require_spec(value)
                if spec is not None and len(parts) == 1:
                    if is_local and not top:
                        self.local_name(ts, name)
                    self.bind(stmt, name, spec, "*")
                    continue
                if spec is not None and top and parts[0] != "self":
                    self.out.exports.append((FIELD + ".".join(parts), spec))  # _call binds it
                    continue
            if vtype == "dot_index_expression" and len(parts) == 1:
                inner, field = value.child_by_field_name("table"), value.child_by_field_name("field")
                spec = require_spec(inner) if inner is not None and inner.type == "function_call" else None
                if spec is not None and field is not None:
                    if is_local and not top:
                        self.local_name(ts, name)
                    self.bind(stmt, name, spec, text(field))  # local x = require("a").b
                    continue
            if vtype == "function_definition":
                d = self.add_def(stmt, "function", None, name=name)
                if d is not None:
                    if len(parts) > 1 and parts[0] != "self":
                        d.owner = ".".join(parts[:-1])
                    self._params(value)
                continue
            if len(parts) == 1 and is_local and not top:
                self.local_name(ts, name)
            if vtype == "table_constructor" and top:
                self._table(stmt, None, name, value, ".".join(parts[:-1]) or None)
                continue
            if vtype == "function_call" and top and len(parts) == 1:
                table = self._setmetatable_table(value)
                if table is not None:  # local M = setmetatable({ … }, mt)
                    args = value.child_by_field_name("arguments").named_children
                    d = self._table(stmt, None, name, table)
                    self._inherit(d, args[1] if len(args) > 1 else None, stmt)
                    continue
            if top and len(parts) == 1 and is_local:
                self.add_def(stmt, "variable", None, name=name)
            held = self._value_type(value)
            if held:
                self.type_fact(ts, ".".join(parts), held)

    @staticmethod
    def _setmetatable_table(call):
        name = call.child_by_field_name("name")
        args = call.child_by_field_name("arguments")
        if name is None or text(name) != "setmetatable" or args is None or not args.named_children:
            return None
        first = args.named_children[0]
        return first if first.type == "table_constructor" else None

    def _value_type(self, value) -> str | None:
        """What a value's type is written as: ``setmetatable(x, T)`` → ``T``; ``T.new(…)`` /
        ``a.T.new(…)`` → the callee (its owner is the type when it is a constructor)."""
        if value is None or value.type != "function_call":
            return None
        name = value.child_by_field_name("name")
        args = value.child_by_field_name("arguments")
        if name is not None and text(name) == "setmetatable" and args is not None:
            kids = args.named_children
            parts = chain(kids[1]) if len(kids) == 2 else None
            return ".".join(parts) if parts else None
        parts = chain(name)
        return ".".join(parts) if parts and len(parts) > 1 and name.type == "dot_index_expression" else None

    def _module_return(self, ts) -> None:
        exprs = next((c for c in ts.named_children if c.type == "expression_list"), None)
        value = exprs.named_children[0] if exprs is not None and exprs.named_children else None
        if value is None:
            return
        if value.type == "function_call":
            name = value.child_by_field_name("name")
            args = value.child_by_field_name("arguments")
            if name is not None and text(name) == "setmetatable" and args is not None and args.named_children:
                value = args.named_children[0]
        if value.type in ("identifier", "dot_index_expression") and (parts := chain(value)):
            self.out.exports.append((RETURNED, ".".join(parts)))
        elif value.type == "table_constructor":  # return { f = f, sub = require("x.sub") }
            for field in value.named_children:
                key, val = field.child_by_field_name("name"), field.child_by_field_name("value")
                if field.type != "field" or key is None or key.type != "identifier" or val is None:
                    continue
                if val.type == "identifier":
                    self.out.exports.append((text(key), text(val)))
                elif val.type == "function_call" and (spec := require_spec(val)) is not None:
                    self.bind(field, text(key), spec, "*", reexport=True)
                elif val.type == "function_definition":
                    if self.add_def(field, "function", key) is not None:
                        self._params(val)

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        stmt = _statement(ts) if ts.type != "field" else ts
        node.docstring = _doc(stmt)
        fn = ts
        if ts.type in ("assignment_statement", "variable_declaration", "field"):
            fn = self._value_of(ts, d.name)
        if node.kind in FUNCTION_KINDS and fn is not None:
            params = fn.child_by_field_name("parameters")
            node.signature = squash(text(params)) if params is not None else "()"
            ret = self._luau_return(fn)
            if ret is not None:
                node.return_type = squash(text(ret), 120)
        if d.owner is not None:
            node.is_exported = True
        elif ts.type == "function_declaration":
            node.is_exported = not any(c.type == "local" for c in ts.children)
        elif ts.type == "field":
            node.is_exported = True
        elif node.kind in TABLE_KINDS:
            node.is_exported = (RETURNED, d.name) in self.out.exports or _statement(ts) is ts

    @staticmethod
    def _value_of(stmt, name: str):
        if stmt.type == "field":
            return stmt.child_by_field_name("value")
        assign = (
            stmt
            if stmt.type == "assignment_statement"
            else next((c for c in stmt.named_children if c.type == "assignment_statement"), None)
        )
        for target, value in _pairs(assign) if assign is not None else ():
            parts = chain(target)
            if parts and parts[-1] == name:
                return value
        return None

    @staticmethod
    def _luau_return(fn):
        """Luau: the type after the parameter list (``function f(): T``)."""
        after = False
        for c in fn.children:
            if c.type == "parameters":
                after = True
            elif after and c.is_named and c.type != "block":
                return c
            elif c.type == "block":
                break
        return None

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        spec = require_spec(ts)
        callee = ts.child_by_field_name("name")
        if callee is not None and text(callee) == "setmetatable" and ts.parent is not None:
            args = ts.child_by_field_name("arguments")
            kids = args.named_children if args is not None else []
            if ts.parent.type == "chunk" and len(kids) == 2 and kids[0].type == "identifier":
                # setmetatable(Derived, { __index = Base }) at the top of the file
                table = next(
                    (
                        d
                        for d in self.defs
                        if d.name == text(kids[0]) and d.kind in TABLE_KINDS and d.owner is None
                    ),
                    None,
                )
                self._inherit(table, kids[1], ts)
        if spec is not None:
            if not self._bound(ts):
                self.bind(ts, "", spec, "")  # require("x") for its effect (or into a field)
            return
        name = ts.child_by_field_name("name")
        parts = chain(name)
        if parts:
            self.call_ref(ts, ".".join(parts))
        elif name is not None and name.type == "method_index_expression":
            method = name.child_by_field_name("method")
            if method is not None:
                self.ref(ts, "calls", "<expr>." + text(method), "<expr>")

    @staticmethod
    def _bound(call) -> bool:
        """Is this ``require`` a binding made elsewhere: ``local x = require("a")`` (or ``…).b``),
        or a field of the table the file returns (``return { sub = require("a.sub") }``)?"""
        p = call.parent
        if p is not None and p.type == "dot_index_expression":
            p = p.parent
        if p is not None and p.type == "expression_list" and p.parent is not None:
            if p.parent.type == "assignment_statement":
                pairs = _pairs(p.parent)
                return any(
                    v is not None and (v.id == call.id or v.id == call.parent.id) and t.type == "identifier"
                    for t, v in pairs
                )
            return False
        if p is not None and p.type == "field" and p.parent is not None:
            ret = p.parent.parent.parent if p.parent.parent is not None else None
            return ret is not None and ret.type == "return_statement" and ret.parent.type == "chunk"
        return False


class Lua(LanguageModule):
    label = "lua"
    grammar = "lua"
    name = "Lua"
    extracts = (
        "functions (global, local, M.f, M:m, M.f = function), module/class tables and their members,"
        " require bindings, calls, metatable __index inheritance, doc comments, signatures"
    )
    resolution = (
        'require("a.b") → a/b.lua or a/b/init.lua and the table the file returns; locals and'
        " parameters shadow; self in M:m; setmetatable/T.new typed locals; a bare call → the one global"
        " function of that name"
    )
    extensions: ClassVar[tuple[str, ...]] = (".lua",)
    builtins = BUILTINS
    self_names = frozenset({"self"})
    method_containers = METHOD_CONTAINERS | {"module"}
    unique_fallback = False
    line_comment = "--"
    extractor = LuaExtractor
    suffixes: ClassVar[tuple[str, ...]] = (".lua",)

    def is_test_file(self, path: str) -> bool:
        """busted specs (``*_spec.lua`` under ``spec/``), ``*_test.lua``, ``test_*.lua``."""
        name = path.rsplit("/", 1)[-1]
        stem = name.rsplit(".", 1)[0]
        return (
            stem.endswith(("_spec", "_test")) or stem.startswith("test_") or ("/" + path).find("/spec/") != -1
        )

    def prepare(self, project, files) -> None:
        tails: dict[str, list[str]] = {}
        globals_: dict[str, list[Node]] = {}
        for f in files:
            path = f.path
            stem, dot, ext = path.rpartition(".")
            if "." + ext not in self.suffixes:
                continue
            parts = stem.split("/")
            if parts[-1] == "init":
                parts = parts[:-1]
            for i in range(len(parts)):
                tails.setdefault(".".join(parts[i:]), []).append(path)
            for n in f.nodes:
                if n.kind == "function" and n.is_exported and project.parent.get(n.id) == f"file:{path}":
                    globals_.setdefault(n.name, []).append(n)
        project.lang_state[self.label] = {"tails": tails, "globals": globals_}

    def resolve_module(self, project, from_path: str, spec: str):
        if spec.startswith(("script.", "game.")) or spec == "script":
            return self._instance_path(project, from_path, spec)
        state = project.lang_state.get(self.label, {})
        if spec.startswith(("./", "../", "@self/")):
            base = relative_file(from_path, spec.replace("@self/", "./", 1))
            return self._file_of(project, base)
        if "/" in spec:
            return self._file_of(project, spec)
        hit = self._file_of(project, spec.replace(".", "/"))
        if hit is not None:
            return hit
        paths = state.get("tails", {}).get(spec, [])
        return paths[0] if len(paths) == 1 else None

    def _file_of(self, project, base: str) -> str | None:
        for ext in self.suffixes:
            for cand in (base + ext, base + "/init" + ext):
                if cand in project.files:
                    return cand
        return None

    def _instance_path(self, project, from_path: str, spec: str) -> str | None:
        """Roblox ``script.Parent.X``: ``script`` is the file (an ``init`` file is its folder)."""
        parts = spec.split(".")
        if parts[0] != "script":
            return None
        stem = from_path.rsplit(".", 1)[0]
        here = posixpath.dirname(stem) if stem.endswith("/init") or stem == "init" else stem
        for part in parts[1:]:
            if part == "Parent":
                here = posixpath.dirname(here)
            else:
                here = posixpath.join(here, part) if here else part
        return self._file_of(project, here)

    # ------------------------------------------------------------ resolution
    def resolve_ref(self, project, path: str, ref):
        if ref.kind == "extends":  # a metatable's __index table
            parts = ref.name.split(".")
            cur, how = self._head(project, path, ref.source, parts[0], False)
            for part in parts[1:]:
                cur = self._member(project, cur, part)
            if isinstance(cur, str):  # a module: the table it returns
                cur = self._returned(project, cur)
            return (cur, how) if isinstance(cur, Node) and cur.kind in TABLE_KINDS else (None, "")
        if ref.kind != "calls":
            return None, ""
        parts = ref.name.split(".")
        if parts[0].startswith("<"):
            return None, ""
        cur, how = self._head(project, path, ref.source, parts[0], len(parts) == 1)
        for part in parts[1:]:
            cur = self._member(project, cur, part)
            if cur is None:
                return None, ""
        if isinstance(cur, Node) and cur.kind in FUNCTION_KINDS:
            return cur, how
        return None, ""

    def _head(self, project, path: str, source: str, name: str, bare: bool):
        for scope in project.scopes(source):
            if scope.kind not in FUNCTION_KINDS:
                continue
            hits = project.children.get(scope.id, {}).get(name)
            if hits:
                return hits[-1], "local"
            types = project.types.get(scope.id, {}).get(name)
            if types:
                return (
                    self._type(project, path, scope.id, next(iter(types))) if len(types) == 1 else None
                ), ("type-inference")
            if name in project.locals.get(scope.id, ()):
                return None, ""
            if name == "self" and scope.kind == "method":
                owner = project.nodes.get(project.parent.get(scope.id, ""))
                return (owner if owner is not None and owner.kind in TABLE_KINDS else None), "self"
        if name == "self":
            return None, ""
        binding = project.bindings[path].get(name)
        if binding is not None:
            mod = project.module_file(path, binding.module)
            if mod is None or binding.imported in ("*", ""):
                return mod, "import"
            return self._member(project, mod, binding.imported), "import"
        hits = [n for n in project.top[path].get(name, ()) if n.kind != "type_alias"]  # Luau types
        if hits and hits[-1].kind == "variable":  # local obj = T.new() at the top of the file
            types = project.types.get(hits[-1].id, {}).get(name, ())
            held = self._type(project, path, f"file:{path}", next(iter(types))) if len(types) == 1 else None
            return held, "type-inference"
        if hits:
            return hits[-1], "local"
        if bare and name not in self.builtins:
            found = project.lang_state.get(self.label, {}).get("globals", {}).get(name, [])
            if len(found) == 1:
                return found[0], "exact-match"
        return None, ""

    def _member(self, project, cur, name: str):
        if isinstance(cur, str):  # a module file: the table it returns, or its returned fields
            table = self._returned(project, cur)
            if table is None:
                return project.export_of(cur, name)
            cur = table
        if isinstance(cur, Node) and cur.kind in TABLE_KINDS:
            hit = project.member(cur.id, name)
            if hit is None:  # a field holding a module: `wibox.widget = require("wibox.widget")`
                dotted = cur.qualified_name.replace("::", ".")
                spec = project.exports.get(cur.file_path, {}).get(f"{FIELD}{dotted}.{name}")
                return project.module_file(cur.file_path, spec) if spec else None
            return hit
        return None

    @staticmethod
    def _returned(project, path: str) -> Node | None:
        """The table a module file gives back (``return M``, ``return M.sub``)."""
        name = project.exports.get(path, {}).get(RETURNED)
        parts = name.split(".") if name else []
        hits = (
            [n for n in project.top.get(path, {}).get(parts[0], ()) if n.kind in TABLE_KINDS] if parts else ()
        )
        cur = hits[-1] if hits else None
        for part in parts[1:]:
            cur = project.member(cur.id, part) if cur is not None else None
        return cur if cur is not None and cur.kind in TABLE_KINDS else None

    def _type(self, project, path: str, scope: str, expr: str) -> Node | None:
        """The table a typed local holds: ``T`` itself, or the owner of the ``T.new`` it came from."""
        parts = expr.split(".")
        cur, _ = self._head(project, path, scope, parts[0], False)
        for part in parts[1:-1]:
            cur = self._member(project, cur, part)
        holder = self._returned(project, cur) if isinstance(cur, str) else cur
        if len(parts) > 1:
            cur = self._member(project, cur, parts[-1])
        elif isinstance(cur, str):  # setmetatable(o, Mod) with Mod a required module
            cur = self._returned(project, cur)
        if isinstance(cur, Node) and cur.kind in TABLE_KINDS:
            return cur
        if isinstance(holder, Node) and holder.kind in TABLE_KINDS and isinstance(cur, Node):
            if cur.kind == "method" and cur.name in ("new", "create"):
                return holder  # Derived.new() makes a Derived, also when new is Base's
        if isinstance(cur, Node) and cur.kind == "method" and cur.name in ("new", "create"):
            owner = project.nodes.get(project.parent.get(cur.id, ""))
            return owner if owner is not None and owner.kind in TABLE_KINDS else None
        return None


class Luau(Lua):
    label = "luau"
    grammar = "luau"
    query = "lua.scm"
    query_parts = ("luau.scm",)
    name = "Luau"
    extracts = Lua.extracts + ", type aliases"
    resolution = (
        'as Lua, plus require("./x") relative to the file and Roblox require(script.Parent.X) instance paths'
    )
    extensions = (".luau",)
    builtins = LUAU_BUILTINS
    suffixes = (".luau", ".lua")


LANGUAGES = (Lua(), Luau())
