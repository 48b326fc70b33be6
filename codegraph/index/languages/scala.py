"""Scala: ``.scala`` and ``.sc`` (Scala 2 and 3 syntax).

A file's package comes from its ``package`` clauses; chained clauses (``package a.b`` then
``package c``) open every package of the chain, so the file sees the members of ``a.b`` and of
``a.b.c`` without imports, as Scala does; the root package ``scala`` is always open. Qualified names
are the nesting of definitions (``Order::total``), without the package. ``import a.b.C``,
``import a.b.{C => D, E}`` bind names; ``import a.b._`` opens a package; an import path that is not
a package is tried relative to the file's packages (``import scheduler.X`` inside ``scala.actors``).
``object`` declarations are classes with the signature ``object X``; an object and its companion
class share their members for lookups (``Order.parse`` and ``order.total`` both work), and a name
in type or constructor position means the class. ``new C(...)`` and ``C(...)`` of a class
instantiate it. A member access ``a.m`` without arguments is a call when ``m`` is a ``def`` (Scala's
parameterless methods) and a field read otherwise; ``a op b`` with an alphanumeric operator is the
call ``a.op(b)``. Parameterless defs and vals with a declared type type their name like a field.
Doc comments are the ``/** … */`` block before a definition.
"""

from __future__ import annotations

import re
from collections import defaultdict

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.extract import call_chain as chain_of_calls
from codegraph.index.languages import _overloads
from codegraph.index.languages._rules import resolver_rules
from codegraph.index.languages.base import METHOD_CONTAINERS, LanguageModule
from codegraph.model import Node

# Predef and the scala package: bare names that never bind to project definitions by name alone.
BUILTINS = frozenset(
    """
println print printf require assert assume synchronized classOf implicitly locally identity ??? Some None
Option List Seq Vector Map Set Array Nil Left Right Tuple2 Tuple3 BigDecimal BigInt Symbol StringBuilder
""".split()
)
ROOT_PACKAGE = "scala"  # always open (scala._ is imported implicitly)
_DOC_LINE = re.compile(r"^\s*\*+ ?", re.M)
MEMBER_PARENTS = frozenset({"template_body", "enum_body"})
NAMED_TYPES = frozenset({"class_definition", "object_definition", "trait_definition", "enum_definition"})
_TYPE_KINDS = {"class": "class", "object": "class", "trait": "trait", "enum": "enum"}  # capture → node kind


def type_name(node, src: bytes | None = None) -> str | None:
    """The name a type refers to (``List[Foo]`` → ``List``, ``a.B`` → ``a.B``); None for function,
    tuple, compound and other structural types. ``src``: the bytes the tree was parsed from (see
    :func:`codegraph.index.extract.text`)."""
    if node is None:
        return None
    t = node.type
    if t == "type_identifier":
        return text(node, src)
    if t == "generic_type":
        return type_name(node.child_by_field_name("type"), src)
    if t == "stable_type_identifier":
        return text(node, src).replace(" ", "")
    if t in ("annotated_type", "infix_type"):
        return None
    return None


def chain(node, src: bytes | None = None) -> str | None:
    """``a.b.c`` for a receiver made of names (``this``/``super`` included), else None. ``src``: as
    for :func:`type_name`."""
    t = node.type
    if t == "identifier":
        return text(node, src)
    if t == "field_expression":
        value = node.child_by_field_name("value")
        field = node.child_by_field_name("field")
        head = chain(value, src) if value is not None else None
        return f"{head}.{text(field, src)}" if head and field is not None else None
    if t == "generic_function":  # super[T], f[T]
        fn = node.child_by_field_name("function")
        return chain(fn, src) if fn is not None else None
    if t == "stable_identifier":
        return text(node, src).replace(" ", "")
    return None


def call_chain(node) -> str | None:
    """``p.get().prepare()`` (see :func:`codegraph.index.extract.call_chain`)."""
    return chain_of_calls(
        node,
        call="call_expression",
        member="field_expression",
        callee=lambda n: n.child_by_field_name("function"),
        receiver=lambda n: n.child_by_field_name("value"),
        name=lambda n: n.child_by_field_name("field"),
        plain=chain,
    )


def _parameterless(ts) -> bool:
    """Does the def take no value parameters (implicit clauses aside)?"""
    clauses = [c for c in ts.children_by_field_name("parameters") if c.type == "parameters"]
    return all(any(k.type == "implicit" for k in c.children) for c in clauses)


def _in_type_body(ts) -> bool:
    """Is ``ts`` a member of a named class, object, trait or enum (not of an anonymous ``new T { }``)?"""
    parent = ts.parent
    if parent is None:
        return False
    if parent.type in MEMBER_PARENTS:
        return parent.parent is not None and parent.parent.type in NAMED_TYPES
    return parent.type == "block" and _detached_owner(parent) is not None


def _detached_body(ts):
    """The ``{ … }`` the grammar left as the next sibling of a class, object or trait that has no
    body of its own (seen in Scala's library after some doc comments: 66 definitions), else None."""
    if ts.child_by_field_name("body") is not None:
        return None
    nxt = ts.next_sibling
    if (
        nxt is not None
        and nxt.type in ("block", "template_body")
        and nxt.start_point[0] <= ts.end_point[0] + 1
    ):
        return nxt
    return None


_TRIVIA = frozenset({"comment", "block_comment"})


def _last_token(ts):
    """The last leaf of ``ts`` that is code: no comment, nothing empty. An indented body
    (``def c(): Int =`` then ``foo()`` on the next line) ends, in the grammar, where the next
    definition starts; its text ends at this token."""
    node = ts
    while count := node.child_count:
        last = node.child(count - 1)  # from the end: no list of every child at each level
        while last is not None and (last.type in _TRIVIA or last.end_byte <= last.start_byte):
            last = last.prev_sibling
        if last is None:
            break
        node = last
    return node


def _detached_owner(block):
    prev = block.prev_sibling
    if prev is not None and prev.type in NAMED_TYPES and _detached_body(prev) == block:
        return prev
    return None


def _in_anonymous_class(ts) -> bool:
    parent = ts.parent
    return (
        parent is not None
        and parent.type == "template_body"
        and parent.parent is not None
        and parent.parent.type == "instance_expression"
    )


class ScalaExtractor(Extractor):
    slices_source = True  # one tree of the file's own bytes: node text is sliced from them

    def __init__(self, path: str, source: bytes, lang):
        super().__init__(path, source, lang)
        self._aliases: list[tuple[int, int, str]] = []  # (start, end, name) of `self =>` aliases of `this`

    def _call_ref(self, ts, name: str, recv: str | None, arity: int | None, kind: str = "calls") -> None:
        if arity is not None:
            self.call_arity(ts, name, arity)
        self.ref(ts, kind, name, self._dealias(ts.start_byte, recv))

    def _dealias(self, byte: int, recv: str | None) -> str | None:
        """``self.m()`` under a ``self =>`` alias of the enclosing template means ``this.m()``: the
        receiver becomes ``this`` (the reference keeps its written name)."""
        if not recv or not self._aliases:
            return recv
        head, dot, rest = recv.partition(".")
        for start, end, alias in reversed(self._aliases):
            if start <= byte < end and head == alias:
                return "this" + dot + rest
        return recv

    # ---------------------------------------------------------------- packages
    def begin(self, root) -> None:
        clauses = []
        node = root
        while node is not None:
            nxt = None
            for c in node.children:
                if c.type == "package_clause":
                    name = c.child_by_field_name("name")
                    if name is not None:
                        clauses.append(text(name, self.own_source).replace(" ", ""))
                    body = c.child_by_field_name("body")
                    if body is not None:
                        nxt = body
                elif c.type == "package_object":
                    name = c.child_by_field_name("name")
                    if name is not None:
                        self._package_object = text(name, self.own_source)
            node = nxt
        obj = getattr(self, "_package_object", None)
        if obj:
            clauses.append(obj)
        self.out.package = ";".join(clauses) if clauses else None

    # ---------------------------------------------------------------- captures
    def handle(self, capture: str, ts) -> None:
        handler = _HANDLERS.get(capture)
        if handler is not None:
            handler(self, ts)
        elif capture.startswith("definition."):
            self._definition(capture[len("definition.") :], ts)

    def _infix(self, ts) -> None:
        op = ts.child_by_field_name("operator")
        left = ts.child_by_field_name("left")
        recv = chain(left, self.own_source) if left is not None else None
        if op is not None and recv:
            self._call_ref(ts, f"{recv}.{text(op, self.own_source)}", recv, 1)

    def _self_alias(self, ts) -> None:  # sorts before the references
        name = next((c for c in ts.named_children if c.type == "identifier"), None)
        body = ts.parent
        if name is not None and text(name, self.own_source) != "this" and body is not None:
            self._aliases.append((body.start_byte, body.end_byte, text(name, self.own_source)))

    def _parameter(self, ts) -> None:
        name, tname = (
            ts.child_by_field_name("name"),
            type_name(ts.child_by_field_name("type"), self.own_source),
        )
        if name is not None:
            self.local_name(ts, text(name, self.own_source))
            if tname:
                self.type_fact(ts, text(name, self.own_source), tname)

    def _bind(self, ts) -> None:
        self.local_name(ts, text(ts, self.own_source))

    def _class_parameter(self, ts) -> None:
        name, tname = (
            ts.child_by_field_name("name"),
            type_name(ts.child_by_field_name("type"), self.own_source),
        )
        if name is not None and tname:
            self.type_fact(ts, text(name, self.own_source), tname)
            self.type_fact(ts, f"this.{text(name, self.own_source)}", tname)

    def add_def(
        self, ts, kind: str, name_node, span=None, *, name: str | None = None, end=None
    ) -> Def | None:
        """As :meth:`Extractor.add_def`, ending at the definition's last token (see :func:`_last_token`)."""
        d = super().add_def(ts, kind, name_node, span, name=name, end=end)
        if d is not None:
            last = _last_token(end if end is not None and end.end_byte >= ts.end_byte else ts)
            if last.end_byte < d.end:
                d.end, d.end_point = last.end_byte, last.end_point
        return d

    def _definition(self, what: str, ts) -> None:
        name = ts.child_by_field_name("name")
        kind = _TYPE_KINDS.get(what)
        if kind is not None:
            d = self.add_def(ts, kind, name, end=_detached_body(ts))
            if d is not None:
                self._bases(d, ts)
        elif what == "enum_member":
            self.add_def(ts, "enum_member", name)
        elif what == "type":
            self.add_def(ts, "type_alias", name)
        elif what == "function":
            if _in_anonymous_class(ts):
                return  # a method of `new T { ... }`: its calls count for the enclosing definition
            self.add_def(ts, "function", name)
            self._function_facts(ts)
        elif what == "value":
            self._value(ts)

    def _bases(self, d: Def, ts) -> None:
        ext = ts.child_by_field_name("extend")
        if ext is None:
            return
        # every parent (`extends A with B with C`) is a base: traits are mixed in, not implemented.
        # The `type:` field is also on the anonymous `with` tokens, so walk the named children.
        for c in ext.named_children:
            name = type_name(c, self.own_source) if c.type != "compound_type" else None
            if name:
                self.base_ref(d, "extends", name, c)

    def _function_facts(self, ts) -> None:
        name = ts.child_by_field_name("name")
        ret = type_name(ts.child_by_field_name("return_type"), self.own_source)
        # parameterless: no value parameter clause but implicit ones (`def newBuilder[A](implicit
        # ord: ClassTag[A]): Builder[A, CC[A]]`, called as `newBuilder[A].result()`); the field
        # `parameters` also names the type parameters
        if name is not None and ret and _parameterless(ts) and _in_type_body(ts):
            # `def scheduler: IScheduler` is read like a field: `scheduler.execute(...)`
            self.type_fact(ts.parent, text(name, self.own_source), ret)
            self.type_fact(ts.parent, f"this.{text(name, self.own_source)}", ret)
        body = ts.child_by_field_name("body")
        if body is not None and ret is None:
            produced = self._produced(body)
            if produced:
                self.returns_fact(body, produced)

    def _produced(self, expr) -> str | None:
        """What an expression's value is, for return-type inference: ``call:C`` for ``new C``/``C(...)``
        or a call of a qualified name, ``self`` for ``this``."""
        t = expr.type
        if t == "instance_expression" and not any(c.type == "template_body" for c in expr.children):
            ty = next((c for c in expr.named_children if c.type != "arguments"), None)
            name = type_name(ty, self.own_source)
            return f"call:{name}" if name else None
        if t == "call_expression":
            fn = expr.child_by_field_name("function")
            callee = chain(fn, self.own_source) if fn is not None and fn.type != "call_expression" else None
            if callee and "." not in callee and callee[:1].islower():
                return f"call:this.{callee}"  # a bare call of a method of the enclosing type
            return f"call:{callee}" if callee and not callee.startswith("super.") else None
        if t == "identifier" and text(expr, self.own_source) == "this":
            return "self"
        if t == "generic_function":  # `newBuilder[A]`: a parameterless method with type arguments
            fn = expr.child_by_field_name("function")
            callee = chain(fn, self.own_source) if fn is not None else None
            if callee and "." not in callee and callee[:1].islower():
                return f"call:this.{callee}"
        return None

    def _value(self, ts) -> None:
        name = ts.child_by_field_name("pattern") or ts.child_by_field_name("name")
        if name is None or name.type != "identifier":
            return
        declared = type_name(
            ts.child_by_field_name("type") or ts.child_by_field_name("return_type"), self.own_source
        )
        value = ts.child_by_field_name("value") or ts.child_by_field_name("body")
        vtype = declared
        if vtype is None and value is not None:
            produced = self._produced(value)
            vtype = produced[5:] if produced and produced.startswith("call:") else None
        member = _in_type_body(ts)
        top = ts.parent is not None and ts.parent.type == "compilation_unit"
        if member or top:
            self.add_def(ts, "variable", name)
            if vtype:
                anchor = ts.parent if member else ts
                self.type_fact(anchor, text(name, self.own_source), vtype)
                if member:
                    self.type_fact(anchor, f"this.{text(name, self.own_source)}", vtype)
        else:
            self.local_name(ts, text(name, self.own_source))
            if vtype:
                self.type_fact(ts, text(name, self.own_source), vtype)

    def _call(self, ts) -> None:
        fn = ts.child_by_field_name("function")
        if fn is None:
            return
        if fn.type == "generic_function":
            fn = fn.child_by_field_name("function") or fn
        args = ts.child_by_field_name("arguments")
        arity = None
        if args is not None:
            arity = 1 if args.type in ("block", "case_block") else args.named_child_count
        for a in args.named_children if args is not None and args.type == "arguments" else ():
            # methods passed as function values: lines.foreach(show) (`xs.map(Printer.print)` is a
            # field access, already a call reference)
            if a.type == "identifier" and text(a, self.own_source) not in ("this", "super"):
                self._call_ref(a, text(a, self.own_source), None, None, "value")
        t = fn.type
        if t == "identifier":
            name = text(fn, self.own_source)
            if name not in ("this", "super"):  # this(...) / super(...): constructor delegation
                self._call_ref(ts, name, None, arity)
        elif t == "field_expression":
            field = fn.child_by_field_name("field")
            value = fn.child_by_field_name("value")
            if field is None or value is None:
                return
            recv = chain(value, self.own_source)
            if recv is None and value.type == "call_expression":
                chained = call_chain(value)  # p.get().prepare().run()
                recv = chained if chained and "()" in chained else None
            if recv is None:
                self._call_ref(ts, f"<expr>.{text(field, self.own_source)}", "<expr>", arity)
            else:
                self._call_ref(ts, f"{recv}.{text(field, self.own_source)}", recv, arity)

    def _new(self, ts) -> None:
        if any(c.type == "template_body" for c in ts.children):
            return  # `new T { ... }`: an anonymous subclass
        ty = next((c for c in ts.named_children if c.type != "arguments"), None)
        name = type_name(ty, self.own_source)
        if name:
            args = next((c for c in ts.named_children if c.type == "arguments"), None)
            arity = args.named_child_count if args is not None else 0
            self._call_ref(ts, name, name.rsplit(".", 1)[0] if "." in name else None, arity, "instantiates")

    def _field_access(self, ts) -> None:
        parent = ts.parent
        if parent is None:
            return
        pt = parent.type
        if pt in ("field_expression", "generic_function"):
            return  # part of a longer chain or a call with type arguments
        if pt == "call_expression" and parent.child_by_field_name("function") == ts:
            return  # the callee of a call
        if pt == "assignment_expression" and parent.child_by_field_name("left") == ts:
            return  # `a.b = v` assigns
        if pt == "infix_expression" and parent.child_by_field_name("operator") == ts:
            return
        name = chain(ts, self.own_source)
        if name and "." in name:
            self.ref(ts, "calls", name, self._dealias(ts.start_byte, name.rsplit(".", 1)[0]))

    def _import(self, ts) -> None:
        path: list[str] = []
        tail = None
        for c in ts.named_children:
            if c.type == "identifier" and tail is None:
                path.append(text(c, self.own_source))
            elif c.type == "stable_identifier" and tail is None:
                path.extend(text(c, self.own_source).replace(" ", "").split("."))
            elif c.type in ("namespace_selectors", "namespace_wildcard", "as_renamed_identifier"):
                tail = c
        if not path:
            return
        spec = squash(text(ts, self.own_source))[len("import") :].strip()
        nid = self.import_node(ts, spec)
        if tail is None:
            if len(path) > 1:
                self.bind(ts, path[-1], ".".join(path[:-1]), path[-1], node=nid)
            return
        module = ".".join(path)
        if tail.type == "namespace_wildcard":
            # opens the package for visible_files; not a star binding (imports are not re-exported)
            self.bind(ts, "", module, "*", node=nid)
            return
        if tail.type == "as_renamed_identifier":  # Scala 3 `import a.b as c`
            return
        for sel in tail.named_children:
            if sel.type == "identifier":
                self.bind(ts, text(sel, self.own_source), module, text(sel, self.own_source), node=nid)
            elif sel.type in ("arrow_renamed_identifier", "as_renamed_identifier"):
                orig, alias = sel.child_by_field_name("name"), sel.child_by_field_name("alias")
                if orig is not None and alias is not None and alias.type == "identifier":
                    self.bind(ts, text(alias, self.own_source), module, text(orig, self.own_source), node=nid)
            elif sel.type == "namespace_wildcard":
                self.bind(ts, "", module, "*", node=nid)

    # ---------------------------------------------------------------- node details
    def function_details(self, node: Node, ts) -> None:
        """Nothing: :meth:`node_details` fills a def's fields in the same pass over its children
        (the generic reading looks for modifiers Scala's grammar does not put there)."""

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        t = ts.type
        words: set[str] = set()
        case = False
        clauses = []
        read: set[str] = set()  # the first `modifiers` and the first `access_modifier` count
        for c in ts.children:
            ct = c.type
            if (ct == "modifiers" or ct == "access_modifier") and ct not in read:
                read.add(ct)
                words |= set(text(c, self.own_source).replace("[", " ").split())
            elif ct == "parameters":
                clauses.append(c)
            elif ct == "case":
                case = True
        node.visibility = "private" if "private" in words else "protected" if "protected" in words else None
        node.is_exported = node.visibility is None
        node.is_abstract = "abstract" in words or t in ("function_declaration", "val_declaration")
        if t == "object_definition":
            node.signature = f"object {d.name}"
        elif t == "class_definition":
            params = ts.child_by_field_name("class_parameters")
            sig = squash(text(params, self.own_source)) if params is not None else ""
            node.signature = ("case class " + d.name + sig) if case else (sig or None)
        elif t == "type_definition":
            target = ts.child_by_field_name("type")
            if target is not None:
                node.return_type = squash(text(target, self.own_source), 120)
        elif t in ("val_definition", "var_definition", "val_declaration", "var_declaration"):
            typ = ts.child_by_field_name("type")
            if typ is not None:
                node.return_type = squash(text(typ, self.own_source), 120)
        elif node.kind in ("function", "method"):
            if clauses:
                node.signature = "".join(squash(text(p, self.own_source)) for p in clauses)
            else:  # `def size[A]: Int`: the `parameters` field names the type parameters
                params = ts.child_by_field_name("parameters")
                if params is not None:
                    sig = squash(text(params, self.own_source))
                    node.signature = sig if sig.startswith("(") else f"({sig})"
            ret = ts.child_by_field_name("return_type")
            if ret is not None:
                node.return_type = squash(text(ret, self.own_source).lstrip(":").strip(), 120)
        node.docstring = _doc_comment(ts, self.own_source)


# capture name → its handler: one dictionary look-up per captured node (47k on Scala's library). On
# the class, not the instance: bound methods in an instance's dictionary would make each extractor
# a reference cycle that keeps its syntax tree alive until the collector runs
_HANDLERS = {
    "reference.call": ScalaExtractor._call,
    "reference.new": ScalaExtractor._new,
    "reference.field": ScalaExtractor._field_access,
    "reference.infix": ScalaExtractor._infix,
    "import": ScalaExtractor._import,
    "alias.self": ScalaExtractor._self_alias,
    "local.parameter": ScalaExtractor._parameter,
    "local.bind": ScalaExtractor._bind,
    "local.class_parameter": ScalaExtractor._class_parameter,
}


def _doc_comment(ts, src: bytes | None = None) -> str | None:
    """The ``/** … */`` block right before a definition, without its comment markers."""
    prev = ts.prev_named_sibling
    if prev is None or prev.type != "block_comment":
        return None
    raw = text(prev, src)
    if not raw.startswith("/**"):
        return None
    body = _DOC_LINE.sub("", raw[3:-2] if raw.endswith("*/") else raw[3:])
    return squash(body, MAX_DOCSTRING) or None


class Scala(LanguageModule):
    label = "scala"
    constructor_names = ("this",)  # auxiliary constructors; the primary one is the class itself
    unlisted_constructors = True
    grammar = "scala"
    name = "Scala"
    extensions = (".scala", ".sc")
    extracts = (
        "classes, case classes, objects, traits, enums, type aliases, defs, vals/vars, /** */ docs; "
        "package clauses qualify files"
    )
    resolution = (
        "packages (chained clauses) and imports (selectors, renames, wildcards, relative), companion objects, "
        "implicit this, super, parameterless defs, infix calls, typed vals/params, new"
    )
    builtins = BUILTINS
    self_names = frozenset({"this"})
    super_names = frozenset({"super"})
    method_containers = METHOD_CONTAINERS
    implicit_members = True
    unique_fallback = False  # a name comes from the package, an import or the root package
    packages_are_directories = True
    test_suffixes = ("test.scala", "spec.scala", "suite.scala", "tests.scala")
    extractor = ScalaExtractor

    def is_test_file(self, path: str) -> bool:
        """``FooTest.scala``, ``FooSpec.scala``, ``FooSuite.scala`` (case-sensitive: ``Contest.scala`` is not)."""
        return path.rsplit("/", 1)[-1].endswith(("Test.scala", "Spec.scala", "Suite.scala", "Tests.scala"))

    def prepare(self, project, files) -> None:
        packages: dict[str, list[str]] = defaultdict(list)
        opened: dict[str, list[str]] = {}
        for f in files:
            chain_ = [p for p in (f.package or "").split(";") if p]
            full, seen = "", []
            for part in chain_:
                full = f"{full}.{part}" if full else part
                seen.append(full)
            opened[f.path] = seen
            if seen:
                packages[seen[-1]].append(f.path)
            else:
                packages[""].append(f.path)
        state = _Packages(dict(packages), opened)
        project.lang_state["scala"] = state
        for f in files:
            state.imported[f.path] = {b.local: f"{b.module}.{b.imported}" for b in f.imports if b.local}
        for f in files:
            state.wildcards[f.path] = [
                hit
                for b in f.imports
                if not b.local
                for hit in [state.package_named(f.path, b.module)]
                if hit is not None
            ]
            _pair_companions(project, f, state.companions, state.companion_names)

    def resolve_module(self, project, from_path: str, spec: str):
        state: _Packages = project.lang_state["scala"]
        name = state.package_named(from_path, spec)
        return list(state.packages[name]) if name is not None else None

    def visible_files(self, project, path: str) -> list[str]:
        state: _Packages = project.lang_state["scala"]
        return state.visible(path)

    def import_fallback(self, project, path: str, binding) -> Node | None:
        """``import shop.Aliases.Store``: a member of an object (its type alias, val, def or nested
        type), the object found as a top-level definition of a project package (a class's name
        stands for its companion object here: an import path is a term). None when the path does
        not lead through an object."""
        state: _Packages = project.lang_state["scala"]
        parts = binding.module.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            pkg = state.package_named(path, ".".join(parts[:cut]))
            if pkg is None:
                continue
            found = {n.id: n for _, n in state.package_top(project, pkg).get(parts[cut], ())}
            current = _term(state, next(iter(found.values()))) if len(found) == 1 else None
            for part in parts[cut + 1 :]:
                nested: list[Node] = project.children.get(current.id, {}).get(part, []) if current else []
                current = _term(state, nested[0]) if len(nested) == 1 else None
            return project.member(current.id, binding.imported) if current is not None else None
        return None

    _busy = False

    def resolve_ref(self, project, path: str, ref):
        """Calls and constructions: ``Companion.m()`` and ``Companion(...)`` (``apply``) mean the
        companion object, not the class the name stands for; then the generic rules; then the
        overload the argument count names."""
        if Scala._busy:  # the generic rules asking this hook again, from inside it
            return None
        rules = resolver_rules()
        if ref.kind in ("extends", "implements") and ref.receiver is None:
            Scala._busy = True
            try:
                found = project.resolve_dotted(path, ref.source, ref.name)
            finally:
                Scala._busy = False
            if found is None:
                base = _innermost_package(project, path, ref.source, ref.name, rules.TYPE_TARGETS)
                return (base, "package") if base is not None else None
            return None
        if ref.kind not in ("calls", "instantiates"):
            return None

        Scala._busy = True
        try:
            hit = _companion(project, path, ref) if ref.kind == "calls" else None
            target, how = hit if hit is not None else rules._resolve_ref(project, path, ref)
        finally:
            Scala._busy = False
        if target is None and ref.receiver is None and "." not in ref.name:
            found = _innermost_package(project, path, ref.source, ref.name, rules.BARE_CALL_TARGETS)
            if found is not None:
                return _overloads.pick(project, found, "package", ref.arity)
        if target is None:
            hit = None
            if ref.kind == "calls":
                hit = _through_alias(project, path, ref) or _through_members(project, path, ref)
            return hit if hit is not None else (None, "")
        return _overloads.pick(project, target, how, ref.arity)


def _innermost_package(project, path: str, source: str, name: str, wanted) -> Node | None:
    """A bare name the merged package view leaves ambiguous, looked up package by package from the
    innermost open one out (``package scala; package math``: scala.math's ``Ordering`` trait before
    the ``scala`` package object's ``type Ordering``, as Scala's precedence rules say). The first
    package that defines the name decides, and only with one definition there that no wildcard
    import contradicts; a parameter or local of that name shadows all of them."""
    if any(name in project.locals.get(s.id, ()) for s in project.scopes(source)):
        return None
    state: _Packages = project.lang_state["scala"]

    def defined(pkg: str) -> dict[str, Node]:
        return {
            n.id: n
            for f, n in state.package_top(project, pkg).get(name, ())
            if f != path and n.kind in wanted
        }

    for pkg in reversed(state.opened.get(path, ())):
        found = defined(pkg)
        if not found:
            continue
        if len(found) != 1:
            return None
        node = next(iter(found.values()))
        others = {nid for w in state.wildcards.get(path, ()) for nid in defined(w)}
        return node if others <= {node.id} else None
    return None


def _pair_companions(project, f, companions: dict[str, Node], names: set[str]) -> None:
    """A class (or trait) and its companion object declared side by side: the name means the class
    (in type and constructor position), so the object leaves the name tables. Their members stay
    apart: an instance call never reaches the object's methods. (``Companion.m()`` then stays
    unresolved: telling the type from the term needs the reference's context.)"""
    by_parent: dict[tuple[str, str], list[Node]] = defaultdict(list)
    file_id = f"file:{f.path}"
    for parent, child in f.contains:
        node = project.nodes[child]
        if node.kind in ("class", "trait"):
            by_parent[(parent, node.name)].append(node)
    for (parent, name), nodes in by_parent.items():
        objects = [n for n in nodes if (n.signature or "").startswith("object ")]
        types = [n for n in nodes if n not in objects]
        if len(objects) != 1 or len(types) != 1:
            continue
        obj = objects[0]
        companions[types[0].id] = obj
        names.add(name)
        # `Companion.Inner` in type position (`extends FlatHashTable.HashUtils[A]`): the object's
        # nested types are reachable through the name, which now means the class
        members = project.children[types[0].id]
        for member, hits in project.children.get(obj.id, {}).items():
            for h in hits:
                if h.kind in ("class", "trait", "type_alias", "enum") and h not in members[member]:
                    members[member].append(h)
        lists = [project.children[parent].get(name), project.global_by_name.get(name)]
        if parent == file_id:
            lists.append(project.top[f.path].get(name))
        for hits in lists:
            if hits and obj in hits:
                hits.remove(obj)


def _through_alias(project, path: str, ref) -> tuple[Node, str] | None:
    """A member call on a value whose declared type is a type alias (``num: Numeric[T]`` with the
    package object's ``type Numeric[T] = scala.math.Numeric[T]``): the member of the aliased type."""
    recv = ref.receiver
    if not recv or recv.startswith("<"):
        return None
    typed = project.type_of(path, ref.source, recv)
    seen = 0
    while typed is not None and typed.kind == "type_alias" and typed.return_type and seen < 4:
        typed = resolve_type(project, typed.file_path, typed.id, typed.return_type)
        seen += 1
    if typed is None or typed.kind == "type_alias":
        return None
    member = project.member(typed.id, ref.name.rsplit(".", 1)[-1])
    if member is None or member.kind not in ("method", "function"):
        return None
    return _overloads.pick(project, member, "type-alias", ref.arity)


def _through_members(project, path: str, ref) -> tuple[Node, str] | None:
    """``a.b.m()``: the member ``m`` of the declared type of ``a``'s val or parameterless def ``b``
    (``parent.serializer.readObject(...)`` with ``val serializer: JavaSerializer``)."""
    recv = ref.receiver
    if not recv or "." not in recv or recv.startswith("<"):
        return None
    head, *rest = recv.split(".")
    current = project.type_of(path, ref.source, head)
    if current is None:
        current = _object_named(project, path, ref.source, head)
    for part in rest:
        member = project.member(current.id, part) if current is not None else None
        if member is None:
            return None
        if member.return_type:
            current = resolve_type(project, member.file_path, member.id, member.return_type)
        else:  # `val default = new Registry`: the type its initializer states
            current = project.value_type(member)
    target = project.member(current.id, ref.name.rsplit(".", 1)[-1]) if current is not None else None
    if target is None or target.kind not in ("method", "function"):
        return None
    return _overloads.pick(project, target, "member-type", ref.arity)


def _object_named(project, path: str, source: str, name: str) -> Node | None:
    """The object a receiver name means (``Registry.default``: in term position a class's name is
    its companion object), unless a parameter or local of that name is in scope."""
    if any(name in project.locals.get(s.id, ()) for s in project.scopes(source)):
        return None
    target, _ = project.lookup_bare(
        path, source, name, allow_unique=False, wanted=resolver_rules().TYPE_TARGETS
    )
    return _term(project.lang_state["scala"], target) if isinstance(target, Node) else None


def resolve_type(project, path: str, scope_id: str, written: str) -> Node | None:
    """The definition a written type names: as the file sees it, else as a fully qualified name
    (``scala.math.Numeric[T]``: package ``scala.math``, then its definition ``Numeric``)."""
    base = written.split("[", 1)[0].strip()
    if not base or not base.replace(".", "").replace("_", "").isalnum():
        return None
    hit = project.resolve_dotted(path, scope_id, base)
    if isinstance(hit, Node):
        return hit
    state: _Packages = project.lang_state["scala"]
    parts = base.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        pkg = ".".join(parts[:cut])
        if not state.packages.get(pkg):
            continue
        found = {n.id: n for _, n in state.package_top(project, pkg).get(parts[cut], ())}
        current = next(iter(found.values())) if len(found) == 1 else None
        for part in parts[cut + 1 :]:
            current = project.member(current.id, part) if current is not None else None
        return current
    return None


def _is_object(node: Node) -> bool:
    return (node.signature or "").startswith("object ")


def _term(state: _Packages, node: Node) -> Node | None:
    """The object a name means in term position (a path, a receiver): the object itself, or the
    companion object of the class of that name; None for anything else."""
    if _is_object(node):
        return node
    return state.companions.get(node.id)


def _companion(project, path: str, ref) -> tuple[Node | None, str] | None:
    """What a call through an object's name means, or None to leave it to the generic rules."""
    rules = resolver_rules()
    state: _Packages = project.lang_state["scala"]
    companions = state.companions
    recv = ref.receiver
    if recv is None:  # `X(...)`: X.apply(...) when X is an object or has one with an apply
        # the generic rule's own lookup (allow_unique is moot: Scala has no unique fallback), so
        # the answer is worked out once
        target, _ = project.lookup_bare(
            path, ref.source, ref.name, allow_unique=True, wanted=rules.BARE_CALL_TARGETS
        )
        if not isinstance(target, Node) or target.kind != "class":
            return None
        obj = target if _is_object(target) else companions.get(target.id)
        if obj is None:
            return None
        apply = project.member(obj.id, "apply")
        if apply is None:
            return (None, "") if obj is target else None  # a case class's own constructor
        picked, how = _overloads.pick(project, apply, "companion", ref.arity)
        if (
            how == "overload-guess"
            and obj is not target
            and (target.signature or "").startswith("case class")
        ):
            return None  # no explicit apply fits: the case class's synthesized one constructs it
        return picked, how
    if "." in recv or recv in ("this", "super") or recv.startswith("<"):
        return None
    # the name first: most receivers are values that name no class (asking the type of each one
    # first cost a tenth of Scala's library's resolve phase), and most names are no companion's
    # class: only an import can give a class another name
    if recv not in state.companion_names and recv not in project.bindings[path]:
        return None
    target, _ = project.lookup_bare(path, ref.source, recv, allow_unique=False, wanted=rules.TYPE_TARGETS)
    if not isinstance(target, Node) or target.id not in companions:
        return None
    if project.type_of(path, ref.source, recv) is not None:
        return None  # a typed value: an instance call
    member = project.member(companions[target.id].id, ref.name.rsplit(".", 1)[-1])
    if member is None or member.kind not in ("method", "function"):
        return None, ""  # no such member of the object (a val read, or not in the project)
    return member, "companion"


class _Packages:
    """Package name → files, each file's open packages, and the packages its wildcards open."""

    def __init__(self, packages: dict[str, list[str]], opened: dict[str, list[str]]):
        self.packages = packages
        self.opened = opened
        self.wildcards: dict[str, list[str]] = {}
        self.companions: dict[str, Node] = {}  # class or trait id -> its companion object
        self.companion_names: set[str] = set()  # the names of the classes and traits in companions
        self.imported: dict[str, dict[str, str]] = {}  # file -> local name -> imported dotted path
        self._visible: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}  # see visible
        self._tops: dict[str, dict[str, list[tuple[str, Node]]]] = {}

    def package_top(self, project, pkg: str) -> dict[str, list[tuple[str, Node]]]:
        """The top-level definitions of a package's files by name, each with its file, in file order.
        Built on first use, during resolution: the name tables no longer change then (the companion
        pairing of ``prepare`` is done). One table per package instead of a walk over the package's
        files for each name: ``_innermost_package`` asked 4k times on Scala's library (0.1 s)."""
        table = self._tops.get(pkg)
        if table is None:
            table = self._tops[pkg] = defaultdict(list)
            for f in self.packages.get(pkg, ()):
                for name, nodes in project.top.get(f, {}).items():
                    table[name].extend((f, n) for n in nodes)
        return table

    def package_named(self, from_path: str, spec: str) -> str | None:
        """The project package an import path names from a file: absolute, else relative to the
        file's open packages (innermost first)."""
        if spec in self.packages:
            return spec
        for outer in reversed(self.opened.get(from_path, ())):
            full = f"{outer}.{spec}"
            if full in self.packages:
                return full
        head, dot, rest = spec.partition(".")
        named = self.imported.get(from_path, {}).get(head)
        if (
            named is not None and named != spec
        ):  # `import scala.collection.immutable` then `import immutable.X`
            hit = self.package_named(from_path, named + dot + rest)
            if hit is not None:
                return hit
        return None

    def visible(self, path: str) -> list[str]:
        """The files of the packages ``path`` opens, of those its wildcards open, and of the root
        package (and of the empty package, for a file without a package clause), in that order; the
        file itself among them (the resolver skips its names). One list per set of packages, shared
        by the files that open the same ones."""
        opened = tuple(self.opened.get(path, ()))
        key = (opened, tuple(self.wildcards.get(path, ())))
        hit = self._visible.get(key)
        if hit is None:
            seen: dict[str, None] = {}
            for pkg in [*reversed(opened), *key[1], ROOT_PACKAGE, *(() if opened else ("",))]:
                for p in self.packages.get(pkg, ()):
                    seen.setdefault(p, None)
            hit = self._visible[key] = list(seen)
        return hit


LANGUAGES = (Scala(),)
