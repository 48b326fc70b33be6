"""Go: ``.go`` files.

A package is a directory: every file of it sees the others' top-level names without an import
(test files see the package, the package does not see its tests; an external ``foo_test`` package
is another package). Import paths name directories through the module path; methods belong to
their receiver type wherever in the package they are written; an embedded struct or interface
promotes its methods (an ``extends`` edge). Receivers, parameters and locals are typed by their
declarations (``c *Context``, ``x := &T{}``, ``var t T``, ``x := New()`` through its result type).
Docs are the ``//`` comments right above a declaration. Files outside the default build
(``//go:build`` constraints or ``_windows.go``-style names that linux/amd64 does not satisfy) are
indexed, but a file of the default build does not see their names.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import ELEMENT, HELD_BY, LanguageModule
from codegraph.model import Node

BUILTINS = frozenset(
    """
append cap clear close complex copy delete imag len make max min new panic print println real recover
bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string
uint uint8 uint16 uint32 uint64 uintptr any true false iota nil
""".split()
)
GOOS = frozenset(
    "aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris "
    "wasip1 windows zos".split()
)
GOARCH = frozenset(
    "386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 "
    "mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm".split()
)
# The build a reader assumes when nothing says otherwise: linux/amd64 with cgo, gc, any go1.N.
DEFAULT_TAGS = frozenset({"linux", "amd64", "unix", "gc", "cgo"})
GENERATED = re.compile(r"^// Code generated .* DO NOT EDIT\.$", re.MULTILINE)
PACKAGE_CLAUSE = re.compile(r"^package\b", re.MULTILINE)
BUILD_LINE = re.compile(r"^//go:build (.+)$", re.MULTILINE)
PLUS_BUILD = re.compile(r"^// \+build (.+)$", re.MULTILINE)
BUILD_SEP = "\n//go:build "  # joins the package name and its build constraint in FileExtraction.package


def type_name(node) -> str | None:
    """The named type a type expression stands for: ``*T`` / ``T[int]`` → ``T``, ``pkg.T`` →
    ``pkg.T``; None for slices, maps, channels, functions, literals and type parameters' sets."""
    while node is not None:
        t = node.type
        if t == "type_identifier":
            return text(node)
        if t == "qualified_type":
            pkg, name = node.child_by_field_name("package"), node.child_by_field_name("name")
            return f"{text(pkg)}.{text(name)}" if pkg is not None and name is not None else None
        if t in ("pointer_type", "parenthesized_type"):
            node = node.named_children[0] if node.named_child_count else None
        elif t == "generic_type":
            node = node.child_by_field_name("type")
        else:
            return None
    return None


def selector_name(node) -> str | None:
    """``a.b.C`` for an identifier or a chain of selectors over one, else None."""
    parts = []
    while node is not None:
        if node.type in ("identifier", "field_identifier", "package_identifier", "type_identifier"):
            parts.append(text(node))
            return ".".join(reversed(parts))
        if node.type != "selector_expression":
            return None
        parts.append(text(node.child_by_field_name("field")))
        node = node.child_by_field_name("operand")
    return None


def call_chain(node) -> str | None:
    """A receiver made of calls and selectors, with empty argument lists (``NewPool().Get()``,
    ``s.pool().conn``), or a composite literal as the type it makes (``(&repo.UserRepo{})`` →
    ``repo.UserRepo()``); None for anything else (an index, a generic call, a literal)."""
    t = node.type
    if t in ("identifier", "field_identifier", "package_identifier", "type_identifier"):
        return text(node)
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return call_chain(node.named_children[0])
    if t == "unary_expression" and text(node.child_by_field_name("operator") or node) == "&":
        operand = node.child_by_field_name("operand")
        return call_chain(operand) if operand is not None and operand.type == "composite_literal" else None
    if t == "composite_literal":
        name = type_name(node.child_by_field_name("type"))
        return f"{name}()" if name else None
    if t == "selector_expression":
        operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
        base = call_chain(operand) if operand is not None and field is not None else None
        return f"{base}.{text(field)}" if base else None
    if t == "call_expression":
        fn = node.child_by_field_name("function")
        base = call_chain(fn) if fn is not None and fn.type in ("identifier", "selector_expression") else None
        return f"{base}()" if base else None
    return None


def held_path(node) -> str | None:
    """A value reached through fields and indexes from a name, as the resolver reads it after
    :data:`~codegraph.index.languages.base.HELD_BY`: ``e.trees[0].root`` → ``e.trees.[].root``
    (``[]``: the element of the slice, array or map before it); ``(*p).x`` and ``(x)`` read
    through. None for anything else (a call, a slice expression, a literal)."""
    t = node.type
    if t == "identifier":
        return text(node)
    if t == "parenthesized_expression" and node.named_child_count == 1:
        return held_path(node.named_children[0])
    if t == "unary_expression" and text(node.child_by_field_name("operator") or node) == "*":
        operand = node.child_by_field_name("operand")
        return held_path(operand) if operand is not None else None
    if t == "selector_expression":
        operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
        base = held_path(operand) if operand is not None and field is not None else None
        return f"{base}.{text(field)}" if base else None
    if t == "index_expression":
        operand = node.child_by_field_name("operand")
        base = held_path(operand) if operand is not None else None
        return f"{base}.{ELEMENT}" if base else None
    return None


def element_type(typ, type_params: frozenset[str] = frozenset()) -> str | None:
    """The named element type of ``[]T``, ``[N]*T`` or ``map[K]T``; None for anything else, a
    nested container, or one of the enclosing declaration's type parameters."""
    if typ is None or typ.type not in ("slice_type", "array_type", "map_type"):
        return None
    elem = type_name(typ.child_by_field_name("element") or typ.child_by_field_name("value"))
    return elem if elem and elem not in type_params else None


def _single_spec_span(spec):
    """``type T struct{…}`` spans from ``type``; a spec in a ``type ( … )`` group spans itself."""
    parent = spec.parent
    if parent is not None and parent.type in ("type_declaration", "const_declaration", "var_declaration"):
        if parent.named_child_count == 1:
            return parent
    return spec


def _walk_types(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.named_children)


def _calls_in(node):
    """Every call_expression under ``node`` (``node`` included)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "call_expression":
            yield n
        stack.extend(n.named_children)


def doc_comment(decl) -> str | None:
    """The ``//`` (or ``/* */``) comments ending on the line right above ``decl``."""
    lines: list[str] = []
    expect = decl.start_point[0] - 1
    prev = decl.prev_sibling
    while prev is not None and prev.type == "comment" and prev.end_point[0] == expect:
        raw = text(prev)
        if raw.startswith("//"):
            if raw.startswith(("//go:", "// +build", "//nolint")):
                break
            lines.append(raw[2:].strip())
        else:
            lines.append(raw[2:-2].strip())
        expect = prev.start_point[0] - 1
        prev = prev.prev_sibling
    return squash(" ".join(reversed(lines)), MAX_DOCSTRING) or None


class GoExtractor(Extractor):
    def run(self):
        """The driver's extraction, then methods whose receiver type is declared in this file are
        moved into it here (the resolver attaches the ones written in other files of the package).
        Doing it here also covers named non-struct types (``type HandlersChain []HandlerFunc``)
        and methods named like their type (``func (e *Error) Error() string``)."""
        out = super().run()
        types = {
            n.name: n.id
            for n in out.nodes
            if n.kind in ("struct", "interface", "type_alias") and "::" not in n.qualified_name
        }
        moved = {nid: types[owner] for nid, owner in out.owners if owner in types}
        if moved:
            out.contains = [(moved.get(child, parent), child) for parent, child in out.contains]
            out.owners = [(nid, owner) for nid, owner in out.owners if nid not in moved]
        return out

    def begin(self, root) -> None:
        head = self.source[: min(len(self.source), 4096)].decode("utf-8", "replace")
        package = None
        for c in root.named_children:
            if c.type == "package_clause":
                ident = next((n for n in c.named_children if n.type == "package_identifier"), None)
                package = text(ident) if ident is not None else None
                head = self.source[: c.start_byte].decode("utf-8", "replace")
                break
        if package is None:
            return
        m = BUILD_LINE.search(head)
        if m:
            self.out.package = package + BUILD_SEP + m.group(1).strip()
            return
        plus = PLUS_BUILD.findall(head)
        if plus:
            # old syntax: lines AND together, spaces are OR, commas AND
            expr = " && ".join(
                "(" + " || ".join(p.replace(",", " && ") for p in line.split()) + ")" for line in plus
            )
            self.out.package = package + BUILD_SEP + expr
            return
        self.out.package = package

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.function":
            d = self.add_def(ts, "function", ts.child_by_field_name("name"))
            if d is not None:
                self._signature_facts(ts)
        elif capture == "definition.method":
            self._method(ts)
        elif capture == "definition.type":
            self._type(ts)
        elif capture in ("definition.constant", "definition.variable"):
            self._package_values(ts, capture.split(".", 1)[1])
        elif capture == "import":
            self._import(ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.new":
            name = type_name(ts.child_by_field_name("type"))
            if name:
                self.call_ref(ts, name, "instantiates")
        elif capture == "local.assign":
            self._assign(ts)
        elif capture == "local.range":
            self._range(ts)
        elif capture == "local.function":
            self._param_facts(ts.child_by_field_name("parameters"), ts.child_by_field_name("body"))
        elif capture == "reference.type":
            self._type_ref(ts)

    # ------------------------------------------------------------ definitions
    def _method(self, ts) -> None:
        d = self.add_def(ts, "function", ts.child_by_field_name("name"))
        if d is None:
            return
        receiver = ts.child_by_field_name("receiver")
        param = (
            next((p for p in receiver.named_children if p.type == "parameter_declaration"), None)
            if receiver
            else None
        )
        owner = type_name(param.child_by_field_name("type")) if param is not None else None
        if owner and "." not in owner:
            d.owner = owner
        self._signature_facts(ts)
        self._param_facts(receiver, ts.child_by_field_name("body"))

    def _signature_facts(self, ts) -> None:
        body = ts.child_by_field_name("body")
        self._param_facts(ts.child_by_field_name("parameters"), body)
        result = ts.child_by_field_name("result")
        if result is not None and result.type == "parameter_list":
            first = next((p for p in result.named_children if p.type == "parameter_declaration"), None)
            result = first.child_by_field_name("type") if first is not None else None
        name = type_name(result)
        if name and body is not None:
            # the declared result type is what every return produces ("call:T" names a type)
            self.returns_fact(body, f"call:{name}")

    def _param_facts(self, params, body) -> None:
        if params is None or body is None:
            return
        for p in params.named_children:
            if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            for n in p.children_by_field_name("name"):
                self.local_name(body, text(n))  # a parameter shadows package names in the body
            tname = type_name(p.child_by_field_name("type"))
            if not tname or p.type == "variadic_parameter_declaration":
                continue
            for n in p.children_by_field_name("name"):
                self.type_fact(body, text(n), tname)

    def _type(self, ts) -> None:
        typ = ts.child_by_field_name("type")
        if ts.type == "type_alias":
            kind = "type_alias"
        elif typ is not None and typ.type == "struct_type":
            kind = "struct"
        elif typ is not None and typ.type == "interface_type":
            kind = "interface"
        else:
            kind = "type_alias"
        d = self.add_def(ts, kind, ts.child_by_field_name("name"), _single_spec_span(ts))
        if d is None or typ is None:
            return
        tparams = ts.child_by_field_name("type_parameters")
        bound = frozenset(
            text(n)
            for p in (tparams.named_children if tparams else ())
            for n in p.children_by_field_name("name")
        )
        elem = element_type(typ, bound)
        if elem:  # type methodTrees []methodTree: indexing or ranging over one gives a methodTree
            self.type_fact(typ, ELEMENT, elem)
        if kind == "struct":
            fields = next((c for c in typ.named_children if c.type == "field_declaration_list"), None)
            for f in fields.named_children if fields is not None else ():
                if f.type != "field_declaration":
                    continue
                ftype = f.child_by_field_name("type")
                tname = type_name(ftype)
                names = f.children_by_field_name("name")
                if not names:
                    if tname:  # embedding: the embedded type's methods are promoted
                        self.base_ref(d, "extends", tname, ftype)
                    continue
                for n in names:
                    self.add_def(f, "field", n)
                    if tname:  # a fact of the struct's scope (the list starts inside the struct)
                        self.type_fact(fields, text(n), tname)
        elif kind == "interface":
            for c in typ.named_children:
                if c.type == "method_elem":
                    self.add_def(c, "method", c.child_by_field_name("name"))
                elif c.type == "type_elem" and c.named_child_count == 1:
                    tname = type_name(c.named_children[0])
                    if tname:
                        self.base_ref(d, "extends", tname, c.named_children[0])

    def _package_values(self, decl, kind: str) -> None:
        specs = [c for c in decl.named_children if c.type in ("const_spec", "var_spec")]
        for lst in (c for c in decl.named_children if c.type in ("const_spec_list", "var_spec_list")):
            specs.extend(c for c in lst.named_children if c.type in ("const_spec", "var_spec"))
        for spec in specs:
            for n in spec.children_by_field_name("name"):
                if text(n) != "_":
                    self.add_def(spec, kind, n, _single_spec_span(spec))

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        return defs

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.is_exported = node.name[:1].isupper()
        if node.kind in ("function", "method") and ts.type in (
            "function_declaration",
            "method_declaration",
            "method_elem",
        ):
            params = ts.child_by_field_name("parameters")
            result = ts.child_by_field_name("result")
            sig = text(params) if params is not None else "()"
            if result is not None:
                sig += " " + text(result)
                node.return_type = squash(text(result), 120)
            node.signature = squash(sig)
            tparams = ts.child_by_field_name("type_parameters")
            if tparams is not None:
                node.type_parameters = [text(p) for p in tparams.named_children]
        outer = ts
        if ts.type in ("type_spec", "type_alias", "const_spec", "var_spec") and ts.parent is not None:
            if ts.parent.type in ("type_declaration", "const_declaration", "var_declaration"):
                if ts.parent.named_child_count == 1:
                    outer = ts.parent
        if ts.type == "type_alias":  # type Store = Repo: the alias has the aliased type's methods
            aliased = ts.child_by_field_name("type")
            if aliased is not None and aliased.type in ("type_identifier", "qualified_type"):
                node.return_type = text(aliased)
        if ts.type in ("type_spec", "type_alias"):
            tparams = ts.child_by_field_name("type_parameters")
            if tparams is not None:
                node.type_parameters = [text(p) for p in tparams.named_children]
        if node.kind in ("field", "property"):
            typ = ts.child_by_field_name("type")
            if typ is not None:
                node.signature = squash(text(typ))
        node.docstring = doc_comment(outer)

    # ------------------------------------------------------------ imports
    def _import(self, ts) -> None:
        path_node = ts.child_by_field_name("path")
        if path_node is None:
            return
        spec = text(path_node).strip('"`')
        if not spec:
            return
        alias = ts.child_by_field_name("name")
        nid = self.import_node(ts, spec)
        if alias is None:
            local = spec.rsplit("/", 1)[-1]
            # gopkg.in/yaml.v3 and example.com/mod/v2 are imported under their package's name
            if re.fullmatch(r"v\d+", local) and "/" in spec:
                local = spec.rsplit("/", 2)[-2]
            local = local.split(".", 1)[0] if spec.startswith("gopkg.in/") else local
            self.bind(ts, local.replace("-", "_"), spec, "*", node=nid)
        elif text(alias) == ".":
            self.bind(ts, "*", spec, "*", node=nid)
        elif text(alias) == "_":
            self.bind(ts, "", spec, "", node=nid)
        else:
            self.bind(ts, text(alias), spec, "*", node=nid)

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        if ts.type == "type_conversion_expression":  # pkg.F[int](x): a generic call
            name = type_name(ts.child_by_field_name("type"))
            if name:
                self.call_ref(ts, name)
            return
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        args = ts.child_by_field_name("arguments")
        for a in args.named_children if args is not None else ():
            # functions and method values passed as arguments: register("/", handle), sort(s.Less)
            passed = (
                text(a)
                if a.type == "identifier"
                else selector_name(a)
                if a.type == "selector_expression"
                else None
            )
            if passed and passed not in BUILTINS and passed != "_":
                self.call_ref(a, passed, "value")
        if fn.type in ("index_expression", "generic_type"):  # F[int](x), s.M[T](x)
            fn = fn.child_by_field_name("operand") or fn.child_by_field_name("type")
            if fn is None:
                return
        if fn.type == "identifier":
            name = text(fn)
            self.call_ref(ts, name)
            if name in ("new", "make"):
                args = ts.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_child_count else None
                tname = type_name(first) if first is not None else None
                if tname and name == "new":
                    self.call_ref(ts, tname, "instantiates")
            return
        if fn.type == "selector_expression":
            name = selector_name(fn)
            field = text(fn.child_by_field_name("field"))
            if name is not None:
                self.call_ref(ts, name)
                return
            operand = fn.child_by_field_name("operand")
            recv = call_chain(operand) if operand is not None else None
            held = held_path(operand) if operand is not None else None
            if recv and recv.endswith(")"):  # NewPool().Get().Run(), (&T{}).M()
                self.ref(ts, "calls", f"{recv}.{field}", recv)
            elif held:  # e.trees[0].root.getValue(): fields and elements of a typed name
                self.ref(ts, "calls", f"{held}.{field}", held)
            else:
                self.ref(ts, "calls", "<expr>." + field, "<expr>")

    def _assign(self, ts) -> None:
        if ts.type == "short_var_declaration":
            left = ts.child_by_field_name("left")
            right = ts.child_by_field_name("right")
            if left is None or right is None:
                return
            names = [c for c in left.named_children]
            values = [c for c in right.named_children]
            pairs = (
                zip(names, values, strict=True)
                if len(names) == len(values)
                else ([(names[0], values[0])] if len(values) == 1 else [])
            )
            called = {selector_name(c.child_by_field_name("function")) for c in _calls_in(right)}
            for n in names:
                # `stack := stack(3)`: the new variable's scope starts after the statement, so the
                # call is still the package function; the shadowing is function-wide, so skip it
                if n.type == "identifier" and text(n) != "_" and text(n) not in called:
                    self.local_name(ts, text(n))
            for n, v in pairs:
                if n.type == "identifier" and text(n) != "_":
                    tname = self._value_type(v)
                    if tname:
                        self.type_fact(ts, text(n), tname)
            return
        # var declarations (in functions: a local's type; at top level: the package variable's)
        specs = [c for c in ts.named_children if c.type == "var_spec"]
        for lst in (c for c in ts.named_children if c.type == "var_spec_list"):
            specs.extend(c for c in lst.named_children if c.type == "var_spec")
        for spec in specs:
            declared = type_name(spec.child_by_field_name("type"))
            names = spec.children_by_field_name("name")
            value = spec.child_by_field_name("value")
            values = value.named_children if value is not None else []
            in_function = ts.parent is None or ts.parent.type != "source_file"
            for i, n in enumerate(names):
                if in_function and text(n) != "_":
                    self.local_name(ts, text(n))
                tname = declared
                if tname is None and len(values) == len(names):
                    tname = self._value_type(values[i])
                if tname and text(n) != "_":
                    # a package variable's type is a fact of the file, not of the variable's own node
                    scope = ts.parent if ts.parent is not None and ts.parent.type == "source_file" else ts
                    self.type_fact(scope, text(n), tname)

    def _type_ref(self, ts) -> None:
        """A same-package type named in a signature, a field, a conversion or a declaration (a
        ``references`` edge). Not: the name being defined, a receiver (the method belongs to it), a
        composite literal's type (that instantiates), builtins, type parameters, ``pkg.T``."""
        name = text(ts)
        if name in BUILTINS:
            return
        parent = ts.parent
        if parent is None or parent.type == "qualified_type":
            return
        if parent.type in ("type_spec", "type_alias") and parent.child_by_field_name("name") == ts:
            return
        up = parent
        while up is not None and up.type in ("pointer_type", "generic_type", "type_elem", "type_arguments"):
            up = up.parent
        if up is not None and up.type in ("composite_literal", "interface_type"):
            return  # instantiates / an embedded interface (extends)
        if up is not None and up.type == "field_declaration" and up.child_by_field_name("name") is None:
            return  # an embedded struct (extends)
        if up is not None and up.type == "parameter_declaration" and up.parent is not None:
            owner = up.parent.parent
            if (
                owner is not None
                and owner.type == "method_declaration"
                and up.parent == owner.child_by_field_name("receiver")
            ):
                return
        node = ts.parent
        while node is not None:  # type parameters of the enclosing generic function or type
            if node.type in ("function_declaration", "method_declaration", "type_spec"):
                tparams = node.child_by_field_name("type_parameters")
                if tparams is not None and any(
                    text(n) == name for p in tparams.named_children for n in p.children_by_field_name("name")
                ):
                    return
                if node.type == "method_declaration":  # (s *Stack[T]) binds T
                    recv = node.child_by_field_name("receiver")
                    if recv is not None and any(
                        n.type == "type_identifier" and text(n) == name and n.parent.type == "type_elem"
                        for n in _walk_types(recv)
                    ):
                        return
            node = node.parent
        self.ref(ts, "references", name, None)

    def _range(self, ts) -> None:
        """``for _, x := range xs`` where ``xs`` is a parameter declared ``[]T`` / ``[]*T`` /
        ``map[K]T`` in the same function: ``x`` holds a ``T``. Over anything else reached through
        names, fields and indexes (``xs``, ``e.trees``, ``t[i].kids``): the element its type
        states (``type methodTrees []methodTree``), through :data:`HELD_BY`."""
        left, right = ts.child_by_field_name("left"), ts.child_by_field_name("right")
        for n in left.named_children if left is not None else ():
            if n.type == "identifier" and text(n) != "_":
                self.local_name(ts, text(n))
        if left is None or right is None or left.named_child_count != 2:
            return
        var = left.named_children[1]
        if var.type != "identifier" or text(var) == "_":
            return
        if right.type != "identifier":
            held = held_path(right)  # for _, tree := range e.trees: an element of a field's type
            if held:
                self.type_fact(ts, text(var), f"{HELD_BY}{held}.{ELEMENT}")
            return
        fn = ts.parent
        while fn is not None and fn.type not in (
            "function_declaration",
            "method_declaration",
            "func_literal",
        ):
            fn = fn.parent
        if fn is None:
            return
        want = text(right)
        decls = []
        params = fn.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            if any(text(n) == want for n in p.children_by_field_name("name")):
                decls.append(p.child_by_field_name("type"))
        elem = None
        for typ in decls:
            if typ is not None and typ.type in ("slice_type", "array_type", "map_type"):
                elem = element_type(typ)
        if elem:
            self.type_fact(ts, text(var), elem)
        else:  # a local, a receiver, a named-type parameter: its type's element, if it states one
            self.type_fact(ts, text(var), f"{HELD_BY}{want}.{ELEMENT}")

    def _value_type(self, v) -> str | None:
        """The type (or the callee whose result it is) a value expression produces, when written."""
        if v.type == "unary_expression" and v.child_by_field_name("operator") is not None:
            if text(v.child_by_field_name("operator")) == "&":
                v = v.child_by_field_name("operand")
        if v is None:
            return None
        if v.type == "composite_literal":
            return type_name(v.child_by_field_name("type"))
        if v.type == "type_assertion_expression":
            return type_name(v.child_by_field_name("type"))
        if v.type in ("selector_expression", "index_expression"):
            # t := engine.trees, root := t[i].root: what the fields and elements hold
            held = held_path(v)
            return HELD_BY + held if held else None
        if v.type == "call_expression":
            fn = v.child_by_field_name("function")
            if fn is not None and fn.type in ("index_expression",):
                fn = fn.child_by_field_name("operand")
            if fn is None:
                return None
            if fn.type == "identifier" and text(fn) == "new":
                args = v.child_by_field_name("arguments")
                return (
                    type_name(args.named_children[0]) if args is not None and args.named_child_count else None
                )
            named = selector_name(fn)
            if named is None and fn.type == "selector_expression":  # c := NewPool().Get()
                chained = call_chain(fn)
                return chained if chained and "()." in chained else None
            return named
        return None


# ---------------------------------------------------------------- build constraints
def _satisfied(expr: str, tags: frozenset[str]) -> bool:
    """Evaluate a ``//go:build`` expression (``!``, ``&&``, ``||``, parentheses) for ``tags``."""
    tokens = re.findall(r"!|&&|\|\||\(|\)|[\w.\-]+", expr)
    pos = 0

    def tag(t: str) -> bool:
        return t in tags or bool(re.fullmatch(r"go1\.\d+", t))

    def parse_or() -> bool:
        nonlocal pos
        value = parse_and()
        while pos < len(tokens) and tokens[pos] == "||":
            pos += 1
            value = parse_and() or value
        return value

    def parse_and() -> bool:
        nonlocal pos
        value = parse_not()
        while pos < len(tokens) and tokens[pos] == "&&":
            pos += 1
            value = parse_not() and value
        return value

    def parse_not() -> bool:
        nonlocal pos
        if pos < len(tokens) and tokens[pos] == "!":
            pos += 1
            return not parse_not()
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            value = parse_or()
            pos += 1  # ")"
            return value
        t = tokens[pos] if pos < len(tokens) else ""
        pos += 1
        return tag(t)

    try:
        return parse_or()
    except IndexError:  # unparsable: count it as part of the build
        return True


def _name_satisfied(path: str) -> bool:
    """``x_windows.go``, ``x_arm64.go``, ``x_linux_amd64.go``: file names that constrain the build."""
    stem = posixpath.basename(path)[:-3]
    if stem.endswith("_test"):
        stem = stem[:-5]
    parts = stem.split("_")
    if len(parts) >= 3 and parts[-2] in GOOS and parts[-1] in GOARCH:
        return parts[-2] in DEFAULT_TAGS and parts[-1] in DEFAULT_TAGS
    if len(parts) >= 2 and parts[-1] in GOOS:
        return parts[-1] in DEFAULT_TAGS
    if len(parts) >= 2 and parts[-1] in GOARCH:
        return parts[-1] in DEFAULT_TAGS
    return True


GO_MOD = "go.mod"
_MODULE = re.compile(r"^\s*module(?:\s*\(|\s+)\s*([^\s)]+)", re.M)


def module_directive(go_mod: str) -> str | None:
    """The module path a go.mod declares (``module example.com/m``, quoted or not, a comment after
    it, or the block form ``module ( … )``); None when it has no ``module`` line."""
    found = _MODULE.search(re.sub(r"//.*", "", go_mod))
    if found is None:
        return None
    return found.group(1).strip('"`') or None


class _Packages:
    """Per-project Go tables: package files by directory and the module paths that name them."""

    def __init__(self, files, declared: list[tuple[str, str]] | None = None):
        self.package: dict[str, str] = {}  # path -> package name
        self.default: dict[str, bool] = {}  # path -> in the default build
        self.constraint: dict[str, str] = {}
        self.by_dir: dict[str, list[str]] = defaultdict(list)
        for f in files:
            raw = f.package or ""
            name, _, expr = raw.partition(BUILD_SEP)
            self.package[f.path] = name
            self.constraint[f.path] = expr
            self.default[f.path] = _name_satisfied(f.path) and (not expr or _satisfied(expr, DEFAULT_TAGS))
            self.by_dir[posixpath.dirname(f.path)].append(f.path)
        # go.mod's module paths; inference only for trees no go.mod covers (a vendored copy, a corpus
        # shipped without its go.mod)
        declared = declared or []
        self.declared_roots = [root for _, root in declared]
        inferred = [(m, r) for m, r in self._infer_modules(files) if self._module_root(r) is None]
        self.modules = sorted([*declared, *inferred], key=lambda mr: -len(mr[0]))

    def _module_root(self, directory: str) -> str | None:
        """The deepest directory holding a go.mod at or above ``directory``; None when none does."""
        best = None
        for root in self.declared_roots:
            if not root or directory == root or directory.startswith(root + "/"):
                if best is None or len(root) > len(best):
                    best = root
        return best

    def package_files(self, directory: str) -> list[str]:
        """The non-test files of the importable package in ``directory``."""
        paths = [p for p in self.by_dir.get(directory, ()) if not p.endswith("_test.go")]
        names = {self.package[p] for p in paths if self.package[p] and self.package[p] != "main"}
        if len(names) > 1:  # e.g. a stray `package ignored` file: keep the majority package
            counts: defaultdict[str, int] = defaultdict(int)
            for p in paths:
                counts[self.package[p]] += 1
            names = {max(sorted(names), key=lambda n: counts[n])}
        return sorted(p for p in paths if self.package[p] in names)

    def _infer_modules(self, files) -> list[tuple[str, str]]:
        """(module path, project directory) pairs, longest module path first.

        go.mod is not source the indexer hands us, so the module path is inferred from the import
        paths themselves: ``github.com/gin-gonic/gin/render`` imported while ``render/`` holds a Go
        package says the module ``github.com/gin-gonic/gin`` lives at the project root. The pair
        that explains the most distinct import paths wins; a module path must look like one (a dot
        in its first element, or stdlib-free single names are never taken)."""
        dirs = {d for d, paths in self.by_dir.items() if self.package_files(d)}
        specs = set()
        for f in files:
            for b in f.imports:
                specs.add(b.module)
        votes: dict[tuple[str, str], set[str]] = defaultdict(set)
        for spec in specs:
            if "." not in spec.split("/", 1)[0]:
                continue  # stdlib (no domain): never a project package
            parts = spec.split("/")
            for d in dirs:
                dparts = d.split("/") if d else []
                # the longest common tail of spec and directory (at least one element, or the root)
                k = 0
                while k < len(dparts) and k < len(parts) - 1 and parts[-1 - k] == dparts[-1 - k]:
                    k += 1
                if k == 0 and d:
                    continue
                module = "/".join(parts[: len(parts) - k])
                root = "/".join(dparts[: len(dparts) - k])
                if "." in module.split("/", 1)[0]:
                    votes[(module, root)].add(spec)
        chosen: list[tuple[str, str]] = []
        taken_roots: set[str] = set()
        for (module, root), explained in sorted(votes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            if root in taken_roots or any(module == m or module.startswith(m + "/") for m, _ in chosen):
                continue
            if len(explained) < 2 and not any(s == module for s in explained):
                # one lone import explains it: only trust it when it names the module's root package
                continue
            chosen.append((module, root))
            taken_roots.add(root)
        chosen.sort(key=lambda mr: -len(mr[0]))
        return chosen

    def directory_of(self, spec: str) -> str | None:
        """The project directory an import path names: its module's root joined with the rest; None
        outside every module, or inside a nested module's tree (another go.mod: another module)."""
        for module, root in self.modules:
            if spec == module or spec.startswith(module + "/"):
                rest = spec[len(module) + 1 :] if spec != module else ""
                directory = posixpath.join(root, rest) if root and rest else (root or rest)
                owner = self._module_root(directory)
                return directory if owner is None or owner == root else None
        return None


class Go(LanguageModule):
    label = "go"
    grammar = "go"
    name = "Go"
    extracts = (
        "functions, methods (attached to their receiver type across the package's files), structs, interfaces"
        " and their methods, named types, fields, package constants/variables, doc comments, signatures"
    )
    resolution = (
        "packages are directories (module paths from go.mod, else inferred from the import paths),"
        " same-package names without"
        " import, typed receivers/params/locals/range values, declared result types, embedding promotes"
        " methods, default-build files (//go:build, _os_arch.go) preferred"
    )
    extensions = (".go",)
    manifests = (GO_MOD,)
    builtins = BUILTINS
    test_suffixes = ("_test.go",)
    # protoc and grpc-gateway output; everything else generated carries the banner
    generated_suffixes = (".pb.go", ".pb.gw.go")
    # A bare call is same-package, a dot import or a builtin: never another package's function.
    unique_fallback = False
    packages_are_directories = True
    extractor = GoExtractor

    def is_generated(self, path: str, head: str) -> bool:
        """Go's convention (https://go.dev/s/generatedcode): a ``// Code generated … DO NOT EDIT.``
        line before the package clause (as go/ast.IsGenerated reads it: the banner quoted in a later
        comment or string is not one); plus the usual generator file names."""
        if path.lower().endswith(self.generated_suffixes):
            return True
        before_package = PACKAGE_CLAUSE.split(head, maxsplit=1)[0]
        return bool(GENERATED.search(before_package))

    def is_test_file(self, path: str) -> bool:
        """``x_test.go``, and anything under a ``testdata/`` directory (the go tool ignores those:
        they hold test inputs, often deliberately invalid)."""
        return path.endswith("_test.go") or "/testdata/" in f"/{path}"

    def read_manifests(self, project, manifests: dict[str, str | None]) -> dict[str, str]:
        """Each go.mod's ``module`` directive: (module path, its directory) for ``prepare``; a go.mod
        that cannot be read or declares no module is left out, with the reason."""
        declared, problems = [], {}
        for path, body in manifests.items():
            module = module_directive(body) if body is not None else None
            if module is None:
                problems[path] = "unreadable (or not UTF-8)" if body is None else "no module directive"
                continue
            declared.append((module, posixpath.dirname(path)))
        project.lang_state[GO_MOD] = declared
        return problems

    def prepare(self, project, files) -> None:
        project.lang_state["go"] = _Packages(files, project.lang_state.get(GO_MOD, []))

    def project_wide(self, fx) -> frozenset[str]:
        """The module path is voted for by every file's domain-like import paths against the
        directories holding packages (``_Packages._infer_modules``)."""
        specs = {f"import:{b.module}" for b in fx.imports if "." in b.module.split("/", 1)[0]}
        name = (fx.package or "").partition(BUILD_SEP)[0]
        return frozenset({*specs, f"package:{posixpath.dirname(fx.path)}:{name}"})

    def resolve_module(self, project, from_path: str, spec: str) -> str | list[str] | None:
        pk: _Packages = project.lang_state["go"]
        directory = pk.directory_of(spec)
        if directory is None:
            return None
        paths = pk.package_files(directory)
        if not paths:
            return None
        if pk.default.get(from_path, True):
            paths = [p for p in paths if pk.default[p]] or paths
        return paths if len(paths) > 1 else paths[0]

    def visible_files(self, project, path: str) -> list[str]:
        pk: _Packages = project.lang_state["go"]
        directory = posixpath.dirname(path)
        name = pk.package.get(path)
        is_test = path.endswith("_test.go")
        out = []
        for other in pk.by_dir.get(directory, ()):
            if other == path:
                continue
            other_name = pk.package.get(other)
            if other_name != name:
                continue
            if other.endswith("_test.go") and not is_test:
                continue
            if pk.default.get(path, True):
                if not pk.default[other]:
                    continue
            elif not pk.default[other] and pk.constraint[other] != pk.constraint[path]:
                continue
            out.append(other)
        return out


LANGUAGES = (Go(),)
