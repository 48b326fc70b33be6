"""Zig: ``.zig`` files (and ``build.zig``).

Every file is a struct; ``const x = @import("file.zig")`` binds a file relative to the importing one
(``@import("std")``, ``"builtin"``, ``"root"`` and build-system modules are outside the project).
Containers are ``const Name = struct|enum|union|opaque { … }``; their functions are methods, and a
function that returns ``struct { … }`` (``fn ArrayList(comptime T: type) type``) is a generic
container of that name. ``const A = b.C;`` at the top of a file is an alias, kept as an import
binding so that ``pub const X = mod.X;`` re-exports resolve through to the definition.
``const Self = @This();`` names the enclosing container. Parameters, ``const x: T`` and
``const x = T{…}`` / ``try T.init()`` type their variables. There is no inheritance in Zig.
Docs are ``///`` comments (``//!`` for the file). The grammar predates Zig 0.12 syntax in places
(destructuring, some multiline asm): those spots parse as ERROR and are skipped.
"""

from __future__ import annotations

import posixpath

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

THIS = "@This()"  # the type expression meaning "the enclosing container"
# Joins a module spec and member names: `const assert = std.debug.assert;` binds `assert` of
# "std:debug" (the `debug` member of the module std). Zig file names do not contain ':'.
MEMBER = ":"
# Modules the compiler provides that are no file of any project.
COMPILER_MODULES = frozenset({"builtin", "root"})
CONTAINER_KINDS = {"struct": "struct", "enum": "enum", "union": "union", "opaque": "struct"}
# Keywords before a declaration. Each test of a sibling token below asks its type first: an anonymous
# node's type is the token's own text (a missing one's text is empty, hence the text test after), and
# reading a type is a tenth of the cost of copying the text (zig-std: 800,000 tokens read).
_MODIFIERS = ("pub", "export", "extern", "inline")
_VISIBLE = ("pub", "export")


def _chain(suffix) -> list[str] | None:
    """``a.b.c`` of a SuffixExpr that is only an identifier and field accesses, else None."""
    parts: list[str] = []
    for c in suffix.named_children:
        if c.type == "IDENTIFIER" and not parts:
            parts.append(text(c))
        elif c.type == "FieldOrFnCall" and parts:
            f = c.child_by_field_name("field_access")
            if f is None:
                return None
            parts.append(text(f))
        else:
            return None
    return parts or None


def _import_spec(suffix) -> str | None:
    """The string of ``@import("…")`` when ``suffix`` starts with it."""
    kids = suffix.named_children
    if len(kids) >= 2 and kids[0].type == "BUILTINIDENTIFIER" and text(kids[0]) == "@import":
        args = kids[1]
        if args.type == "FnCallArguments":
            s = next((n for n in _walk(args) if n.type == "STRINGLITERALSINGLE"), None)
            if s is not None:
                return text(s)[1:-1]
    return None


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))


def _leading_identifier(node):
    """The IDENTIFIER that ``node``'s text starts with (an enum member ``red`` is ContainerField >
    ErrorUnionExpr > SuffixExpr > IDENTIFIER), down first children only, else None. A walk of the whole
    field made nested anonymous containers quadratic: 2,000 levels (22 KB) took 7 s and 1.8 GB."""
    while node is not None and node.type != "IDENTIFIER":
        node = node.named_children[0] if node.named_child_count else None
    return node


def _suffix_of(expr):
    """The SuffixExpr an ErrorUnionExpr wraps (without ``!``), else None."""
    if expr is not None and expr.type == "ErrorUnionExpr" and expr.named_child_count == 1:
        inner = expr.named_children[0]
        return inner if inner.type == "SuffixExpr" else None
    return None


def type_name(children) -> str | None:
    """The named type a type expression (a run of sibling nodes) stands for: ``*const T``, ``?*T``,
    ``E!T`` and ``!T`` give ``T``; ``mod.T`` stays dotted; ``@This()`` is :data:`THIS`. Slices,
    arrays, many-pointers, builtin types and calls (``ArrayList(u8)``) give None."""
    for c in children:
        if c.type == "PrefixTypeOp":
            start = c.named_children[0] if c.named_child_count else None
            if start is not None and start.type in ("SliceTypeStart", "ArrayTypeStart"):
                return None
            if start is not None and start.type == "PtrTypeStart" and text(start) != "*":
                return None
            continue
        if c.type == "ErrorUnionExpr":
            if c.child_by_field_name("exception") is not None:  # E!T: the payload after the `!`
                kids = list(c.children)
                bang = next(
                    i for i, k in enumerate(kids) if k.type == "!" and not k.is_named and text(k) == "!"
                )
                return type_name([k for k in kids[bang + 1 :] if k.is_named])
            suffix = _suffix_of(c)
            if suffix is None:
                return None
            kids = suffix.named_children
            if len(kids) == 2 and kids[0].type == "BUILTINIDENTIFIER" and text(kids[0]) == "@This":
                return THIS
            parts = _chain(suffix)
            return ".".join(parts) if parts else None
        if c.type in ("ParamType",):
            return type_name(c.named_children)
        return None
    return None


def _doc(node) -> str | None:
    """The ``///`` doc comment right before a declaration (the grammar puts it, and ``pub``, before)."""
    prev = node.prev_sibling
    while prev is not None and prev.type in _MODIFIERS and not prev.is_named and text(prev) in _MODIFIERS:
        prev = prev.prev_sibling
    if prev is None or prev.type != "doc_comment":
        return None
    lines = [ln.strip()[3:].strip() for ln in text(prev).splitlines() if ln.strip().startswith("///")]
    return squash(" ".join(lines), MAX_DOCSTRING) or None


def _start(decl):
    """Where a declaration starts: its ``pub`` / ``export`` keyword (a sibling before the Decl)."""
    prev = decl.prev_sibling
    if prev is not None and prev.type in _VISIBLE and not prev.is_named and text(prev) in _VISIBLE:
        return prev
    return decl


def _is_pub(node) -> bool:
    prev = node.prev_sibling
    return prev is not None and prev.type == "pub" and not prev.is_named and text(prev) == "pub"


def _returned_container(block):
    """The ContainerDecl a type function's body returns (``return struct { … };``), else None."""
    if block is None or block.type != "Block":
        return None
    for stmt in block.named_children:
        if stmt.type != "Statement" or stmt.named_child_count != 1:
            continue
        assign = stmt.named_children[0]
        if assign.type != "AssignExpr" or not assign.children:
            continue
        first = assign.children[0]
        if first.type != "return" or text(first) != "return":  # the type first, as for _MODIFIERS
            continue
        suffix = _suffix_of(assign.named_children[0] if assign.named_child_count else None)
        if (
            suffix is not None
            and suffix.named_child_count == 1
            and suffix.named_children[0].type == "ContainerDecl"
        ):
            return suffix.named_children[0]
    return None


class ZigExtractor(Extractor):
    def begin(self, root) -> None:
        self._root = root
        self._seen: set[tuple[int, int, str]] = set()
        # container ranges whose `const X = @This();` alias names them: (start, end, alias)
        self._this_aliases: list[tuple[int, int, str]] = []
        at = self.source.find(b"@This()")
        while at != -1:
            node = root.descendant_for_byte_range(at, at + 5)
            while node is not None and node.type not in ("VarDecl", "Block", "ContainerDecl", "source_file"):
                node = node.parent
            if node is not None and node.type == "VarDecl":
                suffix = _suffix_of(self._value(node))
                name = node.child_by_field_name("variable_type_function")
                if (
                    suffix is not None
                    and suffix.start_byte == at
                    and suffix.named_child_count == 2
                    and name is not None
                ):
                    box = self._container_around(node)
                    span = (box.start_byte, box.end_byte) if box is not None else (0, len(self.source) + 1)
                    self._this_aliases.append((*span, text(name)))
            at = self.source.find(b"@This()", at + 7)

    @staticmethod
    def _container_around(node):
        p = node.parent
        while p is not None and p.type != "ContainerDecl":
            p = p.parent
        return p

    @staticmethod
    def _value(vardecl):
        """The initialiser of a VarDecl (the node after ``=``)."""
        seen_eq = False
        for c in vardecl.children:
            if seen_eq and c.is_named:
                return c
            if c.type == "=" and not c.is_named and text(c) == "=":
                seen_eq = True
        return None

    @staticmethod
    def _declared_type(vardecl):
        """The nodes of ``const x: T = …``'s (or a field ``x: T = …``'s) type, between ``:`` and ``=``."""
        out, inside = [], False
        for c in vardecl.children:
            if c.type == ":" and not c.is_named and text(c) == ":":
                inside = True
            elif c.type == "=" and not c.is_named and text(c) == "=":
                break
            elif inside and c.is_named:
                out.append(c)
        return out

    def _type(self, children, at) -> str | None:
        """type_name, with the container's ``@This()`` alias (``Self``) turned into :data:`THIS`:
        only the innermost container's own alias. An outer one (``const Reader = @This();`` at the
        top of Reader.zig, used in a nested ``struct { in: *Reader }``) names another type than
        the one around ``at``, so it stays a plain name (which then resolves to nothing)."""
        name = type_name(children)
        if name and "." not in name:
            node = self._root.descendant_for_byte_range(at, at) if self._root is not None else None
            box = node if node is not None and node.type == "ContainerDecl" else None
            box = box or (self._container_around(node) if node is not None else None)
            span = (box.start_byte, box.end_byte) if box is not None else (0, len(self.source) + 1)
            for start, end, alias in self._this_aliases:
                if alias == name and (start, end) == span:
                    return THIS
        return name

    # ------------------------------------------------------------ dispatch
    def handle(self, capture: str, ts) -> None:
        key = (ts.start_byte, ts.end_byte, capture)
        if key in self._seen:
            return
        self._seen.add(key)
        if capture == "definition.function":
            self._function(ts)
        elif capture == "definition.constant":
            self._decl(ts)
        elif capture == "definition.field":
            name = ts.child_by_field_name("field_member")
            if name is None:  # an enum member: `red,`
                ident = _leading_identifier(ts)
                if ident is not None and text(ident) == text(ts).rstrip(",").split("=")[0].strip():
                    self.add_def(ts, "enum_member", ident)
                return
            self.add_def(ts, "field", name)
            tname = self._type(self._declared_type(ts), ts.start_byte)  # clock: types.Clock = …
            box = self._container_around(ts)
            # only a named container's fields: those of an anonymous ``struct { acc: U }`` (a tuple
            # type in a test table) would otherwise be stated in the enclosing function's scope
            if tname and box is not None and _named_container(box):
                self.type_fact(box, text(name), tname)
                self._type_ref(ts, tname, _outer_params(ts))
        elif capture == "definition.test":
            s = next((c for c in ts.named_children if c.type == "STRINGLITERALSINGLE"), None)
            ident = next((c for c in ts.named_children if c.type == "IDENTIFIER"), None)
            label = text(s) if s is not None else (text(ident) if ident is not None else '""')
            self.add_def(ts, "function", None, name=f"test {label}")
        elif capture == "import":
            spec = _import_spec(ts)
            decl = ts.parent.parent if ts.parent is not None and ts.parent.parent is not None else None
            if spec and not (decl is not None and decl.type == "VarDecl" and decl.parent.type == "Decl"):
                self.import_node(ts, spec)
        elif capture == "reference.call":
            self._calls(ts)
        elif capture == "reference.new":
            self._literal(ts)
        elif capture == "local.assign":
            self._local(ts)
        elif capture == "local.payload":  # |x|, |*x, i|: capture variables of if/while/for/switch
            for n in ts.named_children:
                if n.type == "IDENTIFIER":
                    self.local_name(ts, text(n))

    # ------------------------------------------------------------ definitions
    def _function(self, decl) -> None:
        proto = next((c for c in decl.named_children if c.type == "FnProto"), None)
        body = next((c for c in decl.named_children if c.type == "Block"), None)
        if proto is None:
            return
        name = proto.child_by_field_name("function")
        container = _returned_container(body)
        kind = "function"
        if container is not None and self._returns_type(proto):
            ctype = next((c for c in container.named_children if c.type == "ContainerDeclType"), None)
            kind = CONTAINER_KINDS.get(text(ctype).split("(")[0] if ctype is not None else "struct", "struct")
        d = self.add_def(decl, kind, name, _start(decl), end=decl)
        if d is None:
            return
        params = next((c for c in proto.named_children if c.type == "ParamDeclList"), None)
        scope = body if body is not None else decl
        pnames = _param_names(params) | _outer_params(decl)
        for p in params.named_children if params is not None else ():
            pname = p.child_by_field_name("parameter")
            ptype = next((c for c in p.named_children if c.type == "ParamType"), None)
            if pname is not None:
                self.local_name(scope, text(pname))  # a parameter shadows file names in the body
            if pname is not None and ptype is not None:
                tname = self._type(ptype.named_children, decl.start_byte)
                if tname:
                    self.type_fact(scope, text(pname), tname)
                    self._type_ref(ptype, tname, pnames)
        ret = self._return_type(proto)
        if ret:
            self._type_ref(proto, ret, pnames)
        if kind == "function" and body is not None:
            if ret:
                self.returns_fact(body, "self" if ret == THIS else f"call:{ret}")

    def _type_ref(self, at, tname: str, skip) -> None:
        """A type named by a parameter, a return type or a field (``p: Point``): a ``references``
        edge. Only plain names (aliases included); not ``@This()``/Self, nor comptime parameters."""
        if "." not in tname and tname != THIS and tname not in skip:
            self.ref(at, "references", tname, None)

    def _return_nodes(self, proto) -> list:
        out, after = [], False
        for c in proto.children:
            if c.type == "ParamDeclList":
                after = True
            elif after and c.is_named and c.type in ("ErrorUnionExpr", "PrefixTypeOp"):
                out.append(c)
        return out

    def _returns_type(self, proto) -> bool:
        nodes = self._return_nodes(proto)
        return len(nodes) == 1 and text(nodes[0]) == "type"

    def _return_type(self, proto) -> str | None:
        return self._type(self._return_nodes(proto), proto.start_byte)

    def _decl(self, decl) -> None:
        vardecl = next((c for c in decl.named_children if c.type == "VarDecl"), None)
        if vardecl is None:
            return
        name = vardecl.child_by_field_name("variable_type_function")
        if name is None:
            return
        value = self._value(vardecl)
        suffix = _suffix_of(value)
        top_level = decl.parent is not None and decl.parent.type == "source_file"
        if suffix is not None:
            kids = suffix.named_children
            if len(kids) == 1 and kids[0].type == "ContainerDecl":
                ctype = next((c for c in kids[0].named_children if c.type == "ContainerDeclType"), None)
                word = text(ctype).split("(")[0].strip() if ctype is not None else "struct"
                self.add_def(decl, CONTAINER_KINDS.get(word, "struct"), name, _start(decl), end=decl)
                return
            if len(kids) == 1 and kids[0].type == "ErrorSetDecl":
                self.add_def(decl, "enum", name, _start(decl), end=decl)
                return
            if len(kids) == 2 and kids[0].type == "BUILTINIDENTIFIER" and text(kids[0]) == "@This":
                return  # `const Self = @This();`: an alias of the container, not a symbol
            spec = _import_spec(suffix)
            if spec is not None:
                rest = [
                    text(c.child_by_field_name("field_access"))
                    for c in kids[2:]
                    if c.type == "FieldOrFnCall" and c.child_by_field_name("field_access") is not None
                ]
                if len(rest) == len(kids) - 2:
                    if top_level:  # @import("x.zig").A.B binds B of the module spec "x.zig:A"
                        module = MEMBER.join([spec, *rest[:-1]])
                        self.bind(decl, text(name), module, rest[-1] if rest else "*", reexport=_is_pub(decl))
                    else:
                        self.import_node(decl, spec)
                    return
            parts = _chain(suffix)
            if top_level and parts is not None and len(parts) >= 2:
                # `const Point = point.Point;` / `pub const decref = builtins.decref;`: an alias
                # through another binding of this file; resolved once every Decl is known
                self._aliases.append((decl, text(name), parts))
                return
        kind = (
            "variable"
            if any(c.type == "var" and not c.is_named and text(c) == "var" for c in vardecl.children)
            else "constant"
        )
        self.add_def(decl, kind, name, _start(decl), end=decl)
        declared = self._type(self._declared_type(vardecl), decl.start_byte)
        tname = declared or (self._value_type(value, decl.start_byte) if value is not None else None)
        if tname:
            box = self._container_around(decl)
            # a file-level one is a fact of its own node (``pub var registry = Registry{};``, used as
            # ``types.registry.add()`` from an importing file); the file's first bytes may lie inside
            # its first declaration, so the file node is no scope to state it in
            self.type_fact(box if box is not None else decl, text(name), tname)

    _aliases: list

    def run(self):
        self._aliases = []
        out = super().run()
        return out

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        """Aliases whose head is an import binding of this file (directly or through another alias)
        become bindings; ``const m = a.b.c;`` binds ``c`` of the module spec ``<a's module>:b``. The
        rest (heads that are not bindings: locals, C imports…) are plain constants."""
        bound = {b.local: b for b in self.out.imports}
        pending = list(self._aliases)
        while pending:
            left = []
            for decl, local, parts in pending:
                head = bound.get(parts[0])
                if head is None:
                    left.append((decl, local, parts))
                    continue
                members = ([] if head.imported == "*" else [head.imported]) + parts[1:-1]
                module = MEMBER.join([head.module, *members])
                self.bind(decl, local, module, parts[-1], reexport=_is_pub(decl))
                bound[local] = self.out.imports[-1]
            if len(left) == len(pending):
                break
            pending = left
        for decl, local, _parts in pending:
            d = Def(decl, "constant", local, _start(decl))
            d.end, d.end_point = decl.end_byte, decl.end_point
            defs.append(d)
        return defs

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc(ts)
        node.is_exported = _is_pub(ts)
        if ts.type == "Decl":
            proto = next((c for c in ts.named_children if c.type == "FnProto"), None)
            if proto is not None:
                params = next((c for c in proto.named_children if c.type == "ParamDeclList"), None)
                ret = self._return_nodes(proto)
                sig = text(params) if params is not None else "()"
                if ret:
                    sig += " " + " ".join(text(r) for r in ret)
                    node.return_type = squash(" ".join(text(r) for r in ret), 120)
                node.signature = squash(sig)
                node.is_static = False
        elif ts.type == "ContainerField":
            node.signature = squash(text(ts).rstrip(","))

    # ------------------------------------------------------------ references
    def _calls(self, suffix) -> None:
        """Every call in one suffix chain: ``f(x)``, ``a.b.f(x)``; after the first call (or an index,
        ``.?``, ``.*``) the chain is an expression and later calls get an ``<expr>`` receiver."""
        kids = suffix.named_children
        if not kids:
            return
        head = kids[0]
        parts: list[str] | None
        if head.type == "IDENTIFIER":
            parts = [text(head)]
        else:
            parts = None  # a builtin (@import(…), @as…), a literal, a parenthesised expression
        i = 1
        chain: str | None = None  # p.get().prepare(): what the calls so far return, as written
        while i < len(kids):
            c = kids[i]
            for args in [c] if c.type == "FnCallArguments" else c.named_children:
                if args.type == "FnCallArguments":
                    self._passed(args)
            if c.type == "FnCallArguments":
                if parts is not None and i == 1:
                    self.call_ref(suffix, parts[0])
                    chain = f"{parts[0]}()"
                else:
                    chain = None
                parts = None
            elif c.type == "FieldOrFnCall":
                call = c.child_by_field_name("function_call")
                field = c.child_by_field_name("field_access")
                if call is not None:
                    if parts is not None:
                        self.call_ref(suffix, ".".join([*parts, text(call)]))
                        chain = ".".join([*parts, text(call)]) + "()"
                    elif chain is not None:
                        self.ref(c, "calls", f"{chain}.{text(call)}", chain)
                        chain = f"{chain}.{text(call)}()"
                    else:
                        self.ref(c, "calls", "<expr>." + text(call), "<expr>")
                    parts = None
                elif field is not None and parts is not None:
                    parts.append(text(field))
                elif field is not None and chain is not None:
                    chain = f"{chain}.{text(field)}"
                else:
                    chain = None
            else:
                parts = chain = None
            i += 1

    def _passed(self, args) -> None:
        """Functions passed as arguments (``std.mem.sort(u32, xs, {}, lessThan)``): ``value``
        references, so impact finds the place that passes them; a parameter or local is data."""
        for a in args.named_children:
            suffix = a.named_children[0] if a.type == "ErrorUnionExpr" and a.named_child_count == 1 else None
            kids = suffix.named_children if suffix is not None and suffix.type == "SuffixExpr" else []
            if len(kids) == 1 and kids[0].type == "IDENTIFIER":
                self.call_ref(kids[0], text(kids[0]), "value")

    def _literal(self, init) -> None:
        """``T{ … }``: the type is the InitList's previous sibling (``.{ … }`` has none)."""
        prev = init.prev_named_sibling if hasattr(init, "prev_named_sibling") else None
        if prev is None or prev.type != "ErrorUnionExpr":
            return
        name = type_name([prev])
        if name and name != THIS:
            self.call_ref(prev, name, "instantiates")

    def _value_type(self, value, at) -> str | None:
        """The type (or the callee whose result it is) an initialiser produces, when written."""
        if value is None:
            return None
        if value.type == "UnaryExpr":
            op = value.child_by_field_name("operator")
            if op is not None and text(op) == "try":
                value = value.child_by_field_name("left")
        suffix = _suffix_of(value)
        if suffix is None:
            return None
        nxt = value.next_named_sibling
        if nxt is not None and nxt.type == "InitList":
            return self._type([value], at)
        kids = suffix.named_children
        if len(kids) >= 2 and kids[-1].type == "FieldOrFnCall":
            call = kids[-1].child_by_field_name("function_call")
            parts = _chain_prefix(kids[:-1])
            if call is not None and parts is not None:
                return ".".join([*parts, text(call)])
        if len(kids) == 2 and kids[0].type == "IDENTIFIER" and kids[1].type == "FnCallArguments":
            return text(kids[0])
        return None

    def _local(self, vardecl) -> None:
        name = vardecl.child_by_field_name("variable_type_function")
        if name is None:
            return
        self.local_name(vardecl, text(name))
        declared = self._type(self._declared_type(vardecl), vardecl.start_byte)
        tname = declared or self._value_type(self._value(vardecl), vardecl.start_byte)
        if tname:
            self.type_fact(vardecl, text(name), tname)


def _outer_params(node) -> set[str]:
    """Parameters of the type functions around ``node`` (the comptime ``T`` of ``fn List(comptime T:
    type) type``, used as ``v: T`` inside): names of no project definition."""
    names: set[str] = set()
    outer = node.parent
    while outer is not None:
        if outer.type == "Decl":
            fn = next((c for c in outer.named_children if c.type == "FnProto"), None)
            if fn is not None:
                names |= _param_names(next((c for c in fn.named_children if c.type == "ParamDeclList"), None))
        outer = outer.parent
    return names


def _named_container(box) -> bool:
    """Is ``box`` (a ContainerDecl) a definition: ``const Name = struct { … };`` at container level,
    or the ``return struct { … };`` of a type function? Not an anonymous one inside an expression."""
    suffix = box.parent
    if suffix is None or suffix.type != "SuffixExpr" or suffix.named_child_count != 1:
        return False
    expr = suffix.parent
    holder = expr.parent if expr is not None and expr.type == "ErrorUnionExpr" else None
    if holder is None:
        return False
    if holder.type == "VarDecl":
        return holder.parent is not None and holder.parent.type == "Decl"
    if holder.type != "AssignExpr" or not holder.children or text(holder.children[0]) != "return":
        return False
    stmt = holder.parent
    block = stmt.parent if stmt is not None else None
    decl = block.parent if block is not None else None
    if decl is None or decl.type != "Decl" or not any(c.type == "FnProto" for c in decl.named_children):
        return False
    returned = _returned_container(block)
    return returned is not None and (returned.start_byte, returned.end_byte) == (box.start_byte, box.end_byte)


def _param_names(params) -> set[str]:
    names = set()
    for p in params.named_children if params is not None else ():
        n = p.child_by_field_name("parameter")
        if n is not None:
            names.add(text(n))
    return names


def _chain_prefix(kids) -> list[str] | None:
    parts: list[str] = []
    for c in kids:
        if c.type == "IDENTIFIER" and not parts:
            parts.append(text(c))
        elif c.type == "FieldOrFnCall" and parts and c.child_by_field_name("field_access") is not None:
            parts.append(text(c.child_by_field_name("field_access")))
        else:
            return None
    return parts or None


class Zig(LanguageModule):
    label = "zig"
    grammar = "zig"
    name = "Zig"
    extracts = (
        "functions, struct/enum/union/opaque containers and their methods and fields, type functions"
        " (fn F(comptime T: type) type) as generic containers, error sets, tests, doc comments, signatures"
    )
    resolution = (
        '@import("file.zig") bindings relative to the file, top-level aliases (pub const X = mod.X) as'
        " re-exports, @This()/Self, typed params/locals/struct literals, declared return types"
    )
    extensions = (".zig",)
    self_type_exprs = frozenset({THIS})
    self_type_annotations = frozenset({THIS, "Self"})
    # container-level declarations are in scope in the container's functions (`new()` in a method)
    implicit_members = True
    # `x.zig` files are imported by path only; a bare name is this file's or a container's
    unique_fallback = False
    extractor = ZigExtractor

    def is_test_file(self, path: str) -> bool:
        """Zig tests are ``test`` blocks inside ordinary files; whole test files are named
        ``test.zig`` / ``tests.zig`` or ``*_test.zig`` (directories ``test/``, ``tests/`` are generic)."""
        name = path.rsplit("/", 1)[-1]
        return name in ("test.zig", "tests.zig") or name.endswith(("_test.zig", "_tests.zig"))

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """``@import("a/b.zig")`` relative to the importing file; a module name (``std``) is the
        project's root ``std.zig`` when there is one (indexing the standard library itself), else
        outside the project (``builtin`` and ``root`` always are). ``spec:member…`` is a member of
        a module that is itself a module (``std:debug`` → ``debug.zig``)."""
        base, *members = spec.split(MEMBER)
        if base.endswith(".zig"):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), base))
        elif base in COMPILER_MODULES or not base:
            return None
        else:
            target = f"{base}.zig"
        if target not in project.files:
            return None
        active = project.lang_state.setdefault("zig", set())
        for member in members:
            key = (target, member)
            if key in active:  # an alias cycle
                return None
            active.add(key)
            try:
                found = project.export_of(target, member)
            finally:
                active.discard(key)
            if not isinstance(found, str):
                return None
            target = found
        return target


LANGUAGES = (Zig(),)
