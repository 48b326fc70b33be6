"""C#: ``.cs``.

Namespaces are not nodes: a block namespace (``namespace A.B { … }``) and a file-scoped one
(``namespace A.B;``, whose declarations are its siblings in the tree) both qualify the types in them,
so ``Newtonsoft.Json.Linq::JTokenWriter::WriteStartObject`` reads the same either way. A file sees
without ``using`` the types of its own namespace and of the enclosing ones; ``using A.B;`` imports a
namespace (every file declaring it is visible; the ``imports`` edges go to the ones the file uses),
``using X = A.B.C;`` one type. The parts of a ``partial`` class
in several files are one class for member lookups. Bare calls mean members of the enclosing types
(C# has no free functions) or local functions. Conditional-compilation lines are blanked before
parsing, keeping the first branch of each ``#if`` (the grammar cannot parse an ``#if`` that splits a
base list or a member list; measured on Json.NET: 27 of 193 files had ERROR nodes, 0 after).
Doc comments are the ``///`` lines before a declaration.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.extract import call_chain as chain_of_calls
from codegraph.index.languages import _overloads
from codegraph.index.languages._rules import resolver_rules
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

# Types and members of the .NET base library that a bare or qualified name must never bind to in the
# project unless the project defines them where the file can see them (C# has no global fallback).
BUILTINS = frozenset(
    """
nameof typeof sizeof default checked unchecked stackalloc
""".split()
)
DIRECTIVE = re.compile(
    rb"^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*"
    rb"(if|elif|else|endif|region|endregion|pragma|nullable|define|undef|line|error|warning)\b"
)
TYPE_KINDS = {
    "class_declaration": "class",
    "record_declaration": "class",
    "struct_declaration": "struct",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "delegate_declaration": "type_alias",
}
VISIBILITY = ("public", "private", "protected", "internal")
PREDEFINED = frozenset(
    """bool byte sbyte char decimal double float int uint long ulong short ushort object string void dynamic var
    nint nuint""".split()
)
INTERFACE_NAME = re.compile(r"^I[A-Z]")
_XML_TAG = re.compile(r"<[^>]+>")
# a record, a partial type, or a type declared with a parameter list (a primary constructor):
# ``record Rec(``, ``class Cart<T>(`` — not a ``new()`` constraint, which follows ``where``
_IMPLICIT_CONSTRUCTOR = re.compile(r"\brecord\b|\bpartial\b|\b(?:class|struct)\s+\w+\s*(?:<[^>{]*>)?\s*\(")
# C# keywords for System types (an extension on `this String s` also serves `string`).
_ALIASES = {
    "String": "string",
    "Int32": "int",
    "Int64": "long",
    "Boolean": "bool",
    "Double": "double",
    "Object": "object",
}
_GENERATED_SUFFIXES = (".designer.cs", ".g.cs", ".g.i.cs", ".generated.cs")


def blank_preprocessor(source: bytes) -> bytes:
    """``source`` with every preprocessor line and every ``#elif`` / ``#else`` branch replaced by
    spaces (newlines kept, so byte offsets, lines and columns do not move): the code of the first
    branch of each ``#if`` stays, as if its condition held."""
    if b"#" not in source:
        return source
    out = []
    dropping: list[bool] = []  # per open #if: is the current branch dropped?
    for line in source.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        m = DIRECTIVE.match(body)
        if m:
            kw = m.group(1)
            if kw == b"if":
                dropping.append(False)
            elif kw in (b"elif", b"else"):
                if dropping:
                    dropping[-1] = True
            elif kw == b"endif" and dropping:
                dropping.pop()
            keep = 3 if body.startswith(b"\xef\xbb\xbf") else 0
            out.append(body[:keep] + b" " * (len(body) - keep) + line[len(body) :])
        elif any(dropping):
            out.append(b" " * len(body) + line[len(body) :])
        else:
            out.append(line)
    return b"".join(out)


def type_name(node) -> str | None:
    """The simple name a declared type refers to (``List<Foo>`` → ``List``, ``Foo?`` → ``Foo``,
    ``A.B.Foo`` → ``Foo``, ``string`` → ``string``); None for arrays, tuples, pointers, ``var``
    and ``dynamic``."""
    if node is None:
        return None
    t = node.type
    if t == "predefined_type":
        name = text(node)
        return name if name not in ("void", "var", "dynamic", "object") else None
    if t == "identifier":
        name = text(node)
        return None if name in PREDEFINED and name != "string" else name
    if t == "generic_name":
        return text(node.named_children[0]) if node.named_child_count else None
    if t == "qualified_name":
        return type_name(node.child_by_field_name("name"))
    if t == "nullable_type":
        return type_name(
            node.child_by_field_name("type") or (node.named_children[0] if node.named_child_count else None)
        )
    if t == "alias_qualified_name":
        return type_name(node.child_by_field_name("name"))
    return None


def chain(node) -> str | None:
    """``a.b.c`` for a receiver made of names (``this``/``base`` included), else None."""
    t = node.type
    if t == "identifier":
        return text(node)
    if t in ("this", "base"):
        return t
    if t == "predefined_type":
        return text(node)
    if t == "generic_name":
        return text(node.named_children[0]) if node.named_child_count else None
    if t == "member_access_expression":
        left = node.child_by_field_name("expression")
        name = node.child_by_field_name("name")
        head = chain(left) if left is not None else None
        tail = chain(name) if name is not None else None
        return f"{head}.{tail}" if head and tail else None
    if t == "qualified_name":
        return text(node).replace(" ", "")
    if t == "alias_qualified_name":
        return chain(node.child_by_field_name("name"))
    return None


def call_chain(node) -> str | None:
    """``p.Get().Prepare()`` (see :func:`codegraph.index.extract.call_chain`)."""

    def member_name(n):
        name = n.child_by_field_name("name")
        return name if name is not None and name.type == "identifier" else None

    return chain_of_calls(
        node,
        call="invocation_expression",
        member="member_access_expression",
        callee=lambda n: n.child_by_field_name("function"),
        receiver=lambda n: n.child_by_field_name("expression"),
        name=member_name,
        plain=chain,
    )


def _modifiers(ts) -> set[str]:
    return {text(c) for c in ts.children if c.type == "modifier"}


class CSharpExtractor(Extractor):
    def __init__(self, path: str, source: bytes, lang):
        super().__init__(path, blank_preprocessor(source), lang)
        self._namespaces: list[tuple[int, int, str]] = []  # (start byte, end byte, dotted name)
        self._arity: dict[tuple[int, int, str], int] = {}

    def run(self):
        out = super().run()
        out.refs = _without_local_values(out)
        for r in out.refs:
            r.arity = self._arity.get((r.line, r.col, r.name))
        return out

    def _call_ref(self, ts, name: str, recv: str | None, kind: str = "calls") -> None:
        args = ts.child_by_field_name("arguments")
        if args is not None:
            self._arity[(ts.start_point[0] + 1, ts.start_point[1], name[:200])] = sum(
                1 for a in args.named_children if a.type == "argument"
            )
        self.ref(ts, kind, name, recv)

    # ---------------------------------------------------------------- namespaces
    def begin(self, root) -> None:
        self._collect_namespaces(root, "")
        names = [ns for _, _, ns in self._namespaces]
        self.out.package = names[0] if names else None

    def _collect_namespaces(self, node, outer: str) -> None:
        end = node.end_byte
        for c in node.children:
            if c.type == "namespace_declaration":
                name = c.child_by_field_name("name")
                full = ".".join(
                    p for p in (outer, text(name).replace(" ", "") if name is not None else "") if p
                )
                self._namespaces.append((c.start_byte, c.end_byte, full))
                body = c.child_by_field_name("body")
                if body is not None:
                    self._collect_namespaces(body, full)
            elif c.type == "file_scoped_namespace_declaration":
                name = c.child_by_field_name("name")
                full = ".".join(
                    p for p in (outer, text(name).replace(" ", "") if name is not None else "") if p
                )
                # the declarations after `namespace A.B;` are its siblings: it spans the rest of the file
                self._namespaces.append((c.start_byte, end, full))

    def _namespace_at(self, byte: int) -> str | None:
        best = None
        for start, end, name in self._namespaces:
            if start <= byte < end and (best is None or start >= best[0]):
                best = (start, name)
        return best[1] if best else None

    def add_def(self, ts, kind, name_node, span=None, *, name=None):
        d = super().add_def(ts, kind, name_node, span, name=name)
        if d is not None:
            d.qualifier = self._namespace_at(ts.start_byte)
        return d

    # ---------------------------------------------------------------- captures
    def handle(self, capture: str, ts) -> None:
        if capture.startswith("definition."):
            self._definition(capture[len("definition.") :], ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.new":
            name = chain(ts.child_by_field_name("type"))
            if name and name.split(".", 1)[0] not in PREDEFINED:
                self._call_ref(ts, name, name.rsplit(".", 1)[0] if "." in name else None, "instantiates")
        elif capture == "import":
            self._using(ts)
        elif capture.startswith("local."):
            self._local(capture, ts)

    def _definition(self, what: str, ts) -> None:
        if what in ("class", "record", "struct", "interface", "enum", "delegate"):
            kind = TYPE_KINDS[ts.type]
            if ts.type == "record_declaration" and any(c.type == "struct" for c in ts.children):
                kind = "struct"
            d = self.add_def(ts, kind, ts.child_by_field_name("name"))
            if d is not None:
                self._bases(d, ts, kind)
                self._member_types(ts)
        elif what in ("method", "constructor"):
            self.add_def(ts, "method", ts.child_by_field_name("name"))
        elif what == "function":
            self.add_def(ts, "function", ts.child_by_field_name("name"))
        elif what == "property":
            self.add_def(ts, "property", ts.child_by_field_name("name"))
        elif what == "field":
            decl = next((c for c in ts.named_children if c.type == "variable_declaration"), None)
            if decl is None:
                return
            for v in decl.named_children:
                if v.type == "variable_declarator":
                    self.add_def(ts, "field", v.child_by_field_name("name"), v)
        elif what == "enum_member":
            self.add_def(ts, "enum_member", ts.child_by_field_name("name"))

    def _bases(self, d: Def, ts, kind: str) -> None:
        bases = next((c for c in ts.children if c.type == "base_list"), None)
        if bases is None:
            return
        first = True
        for b in bases.named_children:
            if b.type == "argument_list":  # record primary-constructor base arguments
                continue
            name = chain(b) if b.type != "generic_name" else text(b.named_children[0])
            if not name:
                continue
            simple = name.rsplit(".", 1)[-1]
            # The grammar does not tell the base class from interfaces: an interface extends its
            # bases; a class's first base is its superclass unless it is named like an interface.
            if kind == "interface" or (kind == "class" and first and not INTERFACE_NAME.match(simple)):
                self.base_ref(d, "extends", name, b)
            else:
                self.base_ref(d, "implements", name, b)
            first = False

    def _member_types(self, ts) -> None:
        """Declared types of the fields and properties of a type: facts of the type's scope, for
        ``_field.M()`` and ``this.Prop.M()``."""
        body = ts.child_by_field_name("body")
        if body is None:
            params = next((c for c in ts.children if c.type == "parameter_list"), None)
            if params is None:
                return
            body = params
        anchor = body  # a byte inside the type and outside its members
        for m in body.named_children if body.type == "declaration_list" else ():
            if m.type in ("field_declaration", "event_field_declaration"):
                decl = next((c for c in m.named_children if c.type == "variable_declaration"), None)
                if decl is None:
                    continue
                tname = self._declared(decl)
                for v in decl.named_children:
                    if v.type == "variable_declarator":
                        name = v.child_by_field_name("name")
                        vt = tname or self._initialised(v)
                        if name is not None and vt:
                            self.type_fact(anchor, text(name), vt)
                            self.type_fact(anchor, f"this.{text(name)}", vt)
            elif m.type == "property_declaration":
                name = m.child_by_field_name("name")
                tname = type_name(m.child_by_field_name("type"))
                if name is not None and tname:
                    self.type_fact(anchor, text(name), tname)
                    self.type_fact(anchor, f"this.{text(name)}", tname)
        if ts.type == "record_declaration":
            params = next((c for c in ts.children if c.type == "parameter_list"), None)
            for p in params.named_children if params is not None else ():
                if p.type == "parameter":
                    name, tname = p.child_by_field_name("name"), type_name(p.child_by_field_name("type"))
                    if name is not None and tname:
                        self.type_fact(anchor, text(name), tname)

    def _declared(self, decl) -> str | None:
        return type_name(decl.child_by_field_name("type"))

    def _initialised(self, declarator) -> str | None:
        """The type an initialiser gives (``new Foo()``, ``(Foo)x``, ``x as Foo``) or the callee
        whose result it is (``Foo.Create()``), for ``var`` declarations."""
        value = next(
            (c for c in declarator.named_children if c != declarator.child_by_field_name("name")), None
        )
        if value is None:
            return None
        t = value.type
        if t == "object_creation_expression":
            return type_name(value.child_by_field_name("type"))
        if t == "cast_expression":
            return type_name(value.child_by_field_name("type"))
        if t == "as_expression":
            return type_name(value.child_by_field_name("right"))
        if t == "invocation_expression":
            fn = value.child_by_field_name("function")
            callee = chain(fn) if fn is not None else None
            if callee and not callee.startswith(("this.", "base.")) and "." in callee:
                return callee
        return None

    def _local(self, capture: str, ts) -> None:
        if capture == "local.parameter":
            name, tname = ts.child_by_field_name("name"), type_name(ts.child_by_field_name("type"))
            if name is not None:
                self.local_name(ts, text(name))
                if tname:
                    self.type_fact(ts, text(name), tname)
        elif capture == "local.variable":
            decl = (
                ts
                if ts.type == "variable_declaration"
                else next((c for c in ts.named_children if c.type == "variable_declaration"), None)
            )
            if decl is None:
                return
            tname = self._declared(decl)
            for v in decl.named_children:
                if v.type == "variable_declarator":
                    name = v.child_by_field_name("name")
                    if name is None:
                        continue
                    self.local_name(ts, text(name))
                    vt = tname or self._initialised(v)
                    if vt:
                        self.type_fact(ts, text(name), vt)
        elif capture in ("local.foreach", "local.out"):
            name = ts.child_by_field_name("left" if capture == "local.foreach" else "name")
            tname = type_name(ts.child_by_field_name("type"))
            if name is not None and name.type == "identifier":
                self.local_name(ts, text(name))
                if tname:
                    self.type_fact(ts, text(name), tname)

    def _call(self, ts) -> None:
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        args = ts.child_by_field_name("arguments")
        for a in args.named_children if args is not None else ():
            # method groups passed as delegates: lines.ForEach(Show), list.Sort(Comparer.Compare)
            value = a.named_children[-1] if a.type == "argument" and a.named_child_count else None
            passed = (
                chain(value)
                if value is not None and value.type in ("identifier", "member_access_expression")
                else None
            )
            if passed and passed.split(".", 1)[0] not in ("this", "base"):
                self._call_ref(value, passed, passed.rsplit(".", 1)[0] if "." in passed else None, "value")
        t = fn.type
        if t == "identifier":
            name = text(fn)
            if name not in BUILTINS:
                self._call_ref(ts, name, None)
        elif t == "generic_name":
            self._call_ref(ts, text(fn.named_children[0]), None)
        elif t == "member_access_expression":
            name_node = fn.child_by_field_name("name")
            tail = chain(name_node) if name_node is not None else None
            if not tail:
                return
            head = fn.child_by_field_name("expression")
            recv = chain(head) if head is not None else None
            if recv is None and head is not None and head.type == "invocation_expression":
                chained = call_chain(head)  # p.Get().Prepare().Run()
                recv = chained if chained and "()" in chained else None
            if recv is None:
                self._call_ref(ts, f"<expr>.{tail}", "<expr>")
            else:
                self._call_ref(ts, f"{recv}.{tail}", recv)
        elif t == "conditional_access_expression":
            cond = fn.child_by_field_name("condition")
            binding = next((c for c in fn.named_children if c.type == "member_binding_expression"), None)
            if cond is None or binding is None:
                return
            tail = chain(binding.child_by_field_name("name"))
            recv = chain(cond)
            if tail:
                recv = recv or "<expr>"
                self._call_ref(ts, f"{recv}.{tail}", recv)

    def _using(self, ts) -> None:
        alias = ts.child_by_field_name("name")
        target = next(
            (c for c in ts.named_children if c.type in ("qualified_name", "identifier") and c != alias), None
        )
        if target is None:
            return
        spec = text(target).replace(" ", "")
        nid = self.import_node(ts, spec)
        if any(c.type == "static" for c in ts.children):
            return  # `using static A.B.C;`: members of a class; not followed
        if alias is not None:
            module, _, imported = spec.rpartition(".")
            self.bind(ts, text(alias), module, imported, node=nid)
        else:
            # Not a star binding: a using is not re-exported to the files that import this one's
            # namespace. visible_files reads it (module = the namespace) and adds that namespace's files.
            self.bind(ts, "", spec, "*", node=nid)

    # ---------------------------------------------------------------- node details
    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        mods = _modifiers(ts)
        vis = next((v for v in VISIBILITY if v in mods), None)
        node.visibility = vis
        node.is_exported = vis == "public"
        node.is_static = "static" in mods
        node.is_abstract = "abstract" in mods
        node.is_async = "async" in mods
        if ts.type in (
            "method_declaration",
            "constructor_declaration",
            "local_function_statement",
            "delegate_declaration",
        ):
            params = ts.child_by_field_name("parameters")
            if params is not None:
                node.signature = squash(text(params))
            ret = ts.child_by_field_name("returns") or ts.child_by_field_name("type")
            if ret is not None:
                node.return_type = squash(text(ret), 120)
        elif ts.type == "property_declaration":
            typ = ts.child_by_field_name("type")
            if typ is not None:
                node.return_type = squash(text(typ), 120)
        elif ts.type in ("field_declaration", "event_field_declaration"):
            decl = next((c for c in ts.named_children if c.type == "variable_declaration"), None)
            typ = decl.child_by_field_name("type") if decl is not None else None
            if typ is not None:
                node.return_type = squash(text(typ), 120)
        tparams = next((c for c in ts.children if c.type == "type_parameter_list"), None)
        if tparams is not None:
            node.type_parameters = [
                text(p) for p in tparams.named_children if p.type == "type_parameter"
            ] or None
        node.docstring = _doc_comment(ts)


def _without_local_values(out) -> list:
    """``out.refs`` without the arguments that name a parameter or local of the function they are
    passed in (``Add(key, value)``): a method group passed as a delegate is written like them, but
    the resolver's scope walk stops at such a local with no edge, whatever the other files hold,
    so those references only cost. cs-keepass: 13,840 of its 22,053 argument references (a quarter
    of all references); the 50 ``references`` edges the others give stay."""
    locals_: dict[str, set[str]] = defaultdict(set)
    for fn, name in out.locals:
        locals_[fn].add(name)
    if not locals_:
        return out.refs
    kind = {n.id: n.kind for n in out.nodes}
    names = {n.id: n.name for n in out.nodes}
    up = dict(out.closures)
    inner: dict[str, set[str]] = defaultdict(set)  # definitions nested in a function, by name
    for parent, child in out.contains:
        up.setdefault(child, parent)
        if kind.get(child) != "import":
            inner[parent].add(names[child])

    def shadowed(source: str, name: str) -> bool:
        # the resolver's bare-name walk (resolve._Project.lookup_bare) over the function scopes
        scope: str | None = source
        while scope is not None and kind.get(scope) in ("function", "method"):
            if name in inner.get(scope, ()):
                return False
            if name in locals_.get(scope, ()):
                return True
            scope = up.get(scope)
        return False

    return [
        r for r in out.refs if r.kind != "value" or r.receiver is not None or not shadowed(r.source, r.name)
    ]


def _doc_comment(ts) -> str | None:
    """The ``///`` lines right before a declaration, XML tags removed."""
    lines = []
    prev = ts.prev_named_sibling
    while prev is not None and prev.type == "comment":
        raw = text(prev)
        if not raw.startswith("///"):
            break
        lines.append(raw[3:].strip())
        prev = prev.prev_named_sibling
    if not lines:
        return None
    doc = _XML_TAG.sub(" ", " ".join(reversed(lines)))
    return squash(doc, MAX_DOCSTRING) or None


class CSharp(LanguageModule):
    label = "csharp"
    constructors_named_like_type = True
    grammar = "csharp"
    name = "C#"
    extensions = (".cs",)
    extracts = (
        "classes, records, structs, interfaces, enums, delegates, methods, constructors, local functions, "
        "properties, fields, /// docs; namespaces qualify names"
    )
    resolution = (
        "namespaces (own and enclosing) and using / using aliases, partial classes across files, implicit this, "
        "base, typed fields/properties/params/locals, new; overloads by argument count, the base's included "
        "(a guess when the count does not decide)"
    )
    builtins = BUILTINS
    self_names = frozenset({"this"})
    super_names = frozenset({"base"})
    implicit_members = True
    unique_fallback = False  # a type is visible through its namespace or a using, never by name alone
    generated_suffixes = _GENERATED_SUFFIXES
    extractor = CSharpExtractor

    def implicit_constructor(self, owner: Node, header: str, members: list[Node]) -> bool:
        """A struct's parameterless constructor, a record's copy (and primary) one and a primary
        constructor (``class Cart(int n)``, C# 12) are no member of the type; a partial class may
        declare constructors in its other parts."""
        return owner.kind == "struct" or _IMPLICIT_CONSTRUCTOR.search(header) is not None

    def is_test_file(self, path: str) -> bool:
        """``FooTests.cs`` / ``FooTest.cs``, or anything under a ``*.Tests`` / ``*.UnitTests`` project folder."""
        parts = path.split("/")
        if any(p.endswith((".Tests", ".Test", ".UnitTests", ".IntegrationTests")) for p in parts[:-1]):
            return True
        return parts[-1].endswith(("Tests.cs", "Test.cs"))

    def prepare(self, project, files) -> None:
        by_namespace: dict[str, list[str]] = defaultdict(list)
        of_file: dict[str, set[str]] = defaultdict(set)
        parts: dict[str, list[Node]] = defaultdict(list)
        for f in files:
            file_id = f"file:{f.path}"
            for parent, child in f.contains:
                node = project.nodes[child]
                if parent != file_id or node.kind == "import":
                    continue
                ns = node.qualified_name[: -len(node.name) - 2] if node.qualified_name != node.name else ""
                of_file[f.path].add(ns)
                if f.path not in by_namespace[ns]:
                    by_namespace[ns].append(f.path)
                if node.kind in ("class", "struct", "interface"):
                    parts[node.qualified_name].append(node)
        usings = {f.path: [b.module for b in f.imports if not b.local] for f in files}
        state = _Namespaces(dict(by_namespace), dict(of_file), usings)
        project.lang_state["csharp"] = state
        for f in files:
            for n in f.nodes:
                if n.kind == "method" and (n.signature or "").startswith("(this "):
                    first = _overloads.split_params(n.signature)[0][len("this ") :]
                    this_type = _simple_type(first.rsplit(" ", 1)[0]) if " " in first else None
                    if this_type:
                        state.extensions[n.name].append((n, _ALIASES.get(this_type, this_type)))
        for nodes in parts.values():
            if len(nodes) > 1:
                _merge_partial(project, nodes)

    def resolve_module(self, project, from_path: str, spec: str):
        ns: _Namespaces = project.lang_state["csharp"]
        files = ns.files.get(spec)
        return list(files) if files else None

    def visible_files(self, project, path: str) -> list[str]:
        ns: _Namespaces = project.lang_state["csharp"]
        return ns.visible(path)

    _busy = False

    def resolve_ref(self, project, path: str, ref):
        """Calls: the generic rules, then the overload the argument count names; a member call the
        receiver's type does not answer may be an extension method (a ``this T`` parameter of a
        static method in a namespace the file sees, whose T is the receiver's declared type)."""
        if ref.kind != "calls" or self._busy:
            return None
        CSharp._busy = True
        try:
            target, how = resolver_rules()._resolve_ref(project, path, ref)
        finally:
            CSharp._busy = False
        if target is not None:
            return _overloads.pick(project, target, how, ref.arity)
        recv = ref.receiver
        if recv and not recv.startswith("<") and recv not in self.self_names | self.super_names:
            hit = _through_members(project, path, ref) or _extension(project, path, ref)
            if hit is not None:
                return hit
        return None, ""


def _declared_type(project, path: str, source_id: str, expr: str, depth: int = 0) -> str | None:
    """The simple type name the code declares for ``expr``: a parameter, local, field or property
    (``x``, ``this.x``), or a member of one (``a.B`` through ``a``'s project type), else None."""
    head, _, rest = expr.partition(".")
    if head == "this" and rest:
        head, _, rest = rest.partition(".")
    name = None
    scope_ids = [n.id for n in project.scopes(source_id)]
    for sid in scope_ids:
        names = project.types.get(sid, {}).get(head)
        if names:
            name = next(iter(names)) if len(names) == 1 else None
            break
    if name is not None and "." in name and depth < 3:
        # `var x = a.M()`: the declared return type of M on a's type
        recv, _, method = name.rpartition(".")
        recv_type = _declared_type(project, path, source_id, recv, depth + 1)
        cls = project.class_of(path, source_id, recv_type) if recv_type else None
        member = project.member(cls.id, method) if cls is not None else None
        name = _simple_type(member.return_type) if member is not None and member.return_type else None
    for part in rest.split(".") if rest else ():
        if name is None:
            return None
        cls = project.class_of(path, source_id, name)
        member = project.member(cls.id, part) if cls is not None else None
        if member is None or not member.return_type:
            return None
        name = _simple_type(member.return_type)
    return name


def _simple_type(text_: str) -> str:
    return text_.split("<", 1)[0].rstrip("?").rsplit(".", 1)[-1].strip()


def _through_members(project, path: str, ref) -> tuple[Node, str] | None:
    """``a.B.M()``: the member ``M`` of the declared type of ``a``'s field or property ``B``; and
    ``x.M()`` after ``var x = a.N()``: the member of what ``N`` is declared to return."""
    recv_type = _declared_type(project, path, ref.source, ref.receiver)
    cls = project.class_of(path, ref.source, recv_type) if recv_type else None
    target = project.member(cls.id, ref.name.rsplit(".", 1)[-1]) if cls is not None else None
    if target is None or target.kind not in ("method", "function"):
        return None
    return _overloads.pick(project, target, "member-type", ref.arity)


def _extension(project, path: str, ref) -> tuple[Node, str] | None:
    """An extension method a member call on a receiver of a known declared type means."""
    state: _Namespaces = project.lang_state["csharp"]
    method = ref.name.rsplit(".", 1)[-1]
    cands = state.extensions.get(method)
    if not cands:
        return None
    recv_type = _declared_type(project, path, ref.source, ref.receiver)
    if recv_type is None:
        return None
    seen = set(state.visible(path)) | {path}
    aliases = {recv_type, _ALIASES.get(recv_type, recv_type)}
    fitting = [n for n, this_type in cands if n.file_path in seen and this_type in aliases]
    if not fitting:
        return None
    if len({project.parent.get(n.id) for n in fitting}) != 1:
        return None  # the same extension name on that type in two classes: the imports decide, not us
    return _overloads.pick(project, fitting[0], "extension", ref.arity)


def _merge_partial(project, nodes: list[Node]) -> None:
    """One class in several files (``partial``): the part in ``Name.cs`` (else the first by path)
    stands for the class in name lookups, and all parts share one member table and one list of
    bases, so each part sees the members of the others and ``base`` means the real bases."""
    nodes = sorted(
        nodes, key=lambda n: (posixpath.basename(n.file_path) != f"{n.name}.cs", n.file_path, n.start_line)
    )
    primary = nodes[0]
    members = project.children[primary.id]
    bases = project.bases[primary.id]
    for other in nodes[1:]:
        top = project.top.get(other.file_path, {})
        same = top.get(other.name, [])
        if other in same:
            same.remove(other)
            if not same:
                del top[other.name]
        glob = project.global_by_name.get(other.name, [])
        if other in glob:
            glob.remove(other)
        for name, hits in project.children.get(other.id, {}).items():
            members[name].extend(h for h in hits if h not in members[name])
        bases.extend(b for b in project.bases.get(other.id, ()) if b not in bases)
        project.children[other.id] = members
        project.bases[other.id] = bases


class _Namespaces:
    def __init__(
        self, files: dict[str, list[str]], of_file: dict[str, set[str]], usings: dict[str, list[str]]
    ):
        self.files = files
        self.of_file = of_file
        self.usings = usings
        self.extensions: dict[str, list[tuple[Node, str]]] = defaultdict(list)
        self._visible: dict[str, list[str]] = {}

    def visible(self, path: str) -> list[str]:
        hit = self._visible.get(path)
        if hit is None:
            seen: dict[str, None] = {}
            for ns in sorted(self.of_file.get(path, ())):
                parts = ns.split(".") if ns else []
                for i in range(len(parts), -1, -1):
                    for p in self.files.get(".".join(parts[:i]), ()):
                        seen.setdefault(p, None)
            for ns in self.usings.get(path, ()):
                for p in self.files.get(ns, ()):
                    seen.setdefault(p, None)
            hit = self._visible[path] = [p for p in seen if p != path]
        return hit


LANGUAGES = (CSharp(),)
