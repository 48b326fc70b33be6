"""F#: ``.fs`` and ``.fsx`` files (``.fsi`` signature files need the ``fsharp_signature`` grammar and
are not indexed yet).

A file declares a namespace (``namespace Acme.Shapes``) or is a top-level module (``module
Acme.Geo``, the file itself: its declarations are its top-level names). Nested ``module M =`` blocks
are modules; ``type`` definitions are unions (their cases enum members), records (structs, with
fields), enums, interfaces (only abstract members) or classes, with their members (``member
this.M(x)``, ``static member``, ``abstract M:``). Module-level ``let`` bindings are functions or
values; a ``let`` function inside a function is a nested function, other inner bindings and
parameters are locals. ``inherit B(x)`` gives ``extends``, ``interface I with`` ``implements``.
``open X`` brings in every name of the namespace or module ``X`` (the files declaring it);
files of one namespace see each other. A qualified name ``M.f`` tries ``M`` as a module seen from
here, then as a namespace-qualified module (``Geo.f`` inside ``namespace Acme`` or after ``open
Acme``). ``T(x)`` constructs a class, ``this.M()`` (whatever the member names its self
identifier) is the enclosing type's member, ``(s: Shape)`` and ``let b = Box(…)`` type their
variables. A union case or a record label is no call. F# compiles files in project order; that
order is not read here (a name defined in two files of a namespace stays unresolved).
"""

from __future__ import annotations

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

BUILTINS = frozenset(
    """printfn printf sprintf eprintfn failwith failwithf raise ignore id fst snd not int float string
    box unbox ref incr decr async task seq query nameof typeof typedefof sizeof isNull invalidArg
    invalidOp nullArg max min abs sqrt exp log round floor ceil List Seq Array Map Set Option String
    Math Console printf reraise defaultArg lock using hash compare""".split()
)
MODULE_LEVEL = ("module_defn", "named_module", "namespace", "file")
SELF = "this"


def _long(node) -> str | None:
    """``a.b.c`` of a ``long_identifier`` / ``long_identifier_or_op`` / ``identifier``."""
    if node is None:
        return None
    if node.type == "identifier":
        return text(node)
    if node.type in ("long_identifier_or_op", "long_identifier"):
        parts = [text(c) for c in node.named_children if c.type == "identifier"]
        if len(parts) == node.named_child_count and parts:
            return ".".join(parts)
        if node.named_child_count == 1:
            return _long(node.named_children[0])
    return None


def _type_of(node) -> str | None:
    """The named type of a ``simple_type`` (``Shape``, ``Acme.Shape``), else None."""
    if node is None or node.type != "simple_type" or node.named_child_count != 1:
        return None
    return _long(node.named_children[0])


def _doc(source: bytes, node) -> str | None:
    """``///`` lines right above a declaration, read from the source (the grammar files a comment
    after a type's last member inside that type, not before the next declaration)."""
    before = source[: node.start_byte].decode("utf-8", "replace")
    lines = before.splitlines()
    if lines and not before.endswith("\n"):
        lines.pop()  # the declaration's own line, up to where it starts (its indentation)
    out: list[str] = []
    while lines and lines[-1].strip().startswith("///"):
        out.insert(0, lines.pop().strip()[3:].strip())
    return squash(" ".join(out), MAX_DOCSTRING) or None


class FSharpExtractor(Extractor):
    def begin(self, root) -> None:
        self._instances: list[tuple[int, int, str]] = []  # member ranges and their self identifier
        top = next((c for c in root.named_children if c.type not in ("line_comment", "block_comment")), None)
        if top is not None and top.type in ("namespace", "named_module"):
            name = top.child_by_field_name("name")
            if name is not None:
                self.out.package = text(name)

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.module":
            name = next((c for c in ts.named_children if c.type == "identifier"), None)
            self.add_def(ts, "module", name)
        elif capture == "definition.type":
            self._type(ts)
        elif capture == "definition.member":
            self._member(ts)
        elif capture == "definition.let":
            self._let(ts)
        elif capture == "definition.case":
            self.add_def(
                ts, "enum_member", next((c for c in ts.named_children if c.type == "identifier"), None)
            )
        elif capture == "definition.field":
            name = next((c for c in ts.named_children if c.type == "identifier"), None)
            if self.add_def(ts, "field", name) is not None:
                tname = _type_of(next((c for c in ts.named_children if c.type == "simple_type"), None))
                box = _ancestor(ts, "type_definition")
                if tname and box is not None:
                    self.type_fact(box, text(name), tname)
        elif capture == "import":
            spec = _long(next((c for c in ts.named_children if c.type == "long_identifier"), None))
            if spec:
                self.bind(ts, "*", spec, "*")
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "local.typed":
            pattern = ts.named_children[0] if ts.named_child_count else None
            name = _pattern_name(pattern)
            tname = _type_of(next((c for c in ts.named_children if c.type == "simple_type"), None))
            if name:
                self.local_name(ts, name)
                if tname:
                    self.type_fact(ts, name, tname)
        elif capture == "local.pattern":
            name = _pattern_name(ts)
            if name and name[:1].islower():  # an upper-case name in a pattern is a union case
                self.local_name(ts, name)
        elif capture == "local.args":
            for c in ts.named_children:
                name = _long(c)
                if name and "." not in name:
                    self.local_name(ts, name)

    # ------------------------------------------------------------ definitions
    def _type(self, ts) -> None:
        body = ts.named_children[0] if ts.named_child_count else None
        if body is None:
            return
        tname = next((c for c in body.named_children if c.type == "type_name"), None)
        name = tname.child_by_field_name("type_name") if tname is not None else None
        kinds = {
            "union_type_defn": "union",
            "record_type_defn": "struct",
            "enum_type_defn": "enum",
            "delegate_type_defn": "type_alias",
            "type_abbrev_defn": "type_alias",
            "type_extension": "class",
        }
        kind = kinds.get(body.type, "class")
        if body.type == "anon_type_defn":
            members = [n for n in _walk(body) if n.type == "member_defn"]
            has_ctor = any(c.type == "primary_constr_args" for c in body.named_children)
            if members and not has_ctor and all(_is_abstract(m) for m in members):
                kind = "interface"
        d = self.add_def(ts, kind, name)
        if d is None:
            return
        if body.type == "enum_type_defn":
            for case in _walk(body):
                if case.type == "enum_type_case":
                    self.add_def(
                        case,
                        "enum_member",
                        next((c for c in case.named_children if c.type == "identifier"), None),
                    )
        for n in _walk(body):
            if n.type == "class_inherits_decl":
                base = _type_of(next((c for c in n.named_children if c.type == "simple_type"), None))
                if base:
                    self.base_ref(d, "extends", base, n)
            elif n.type == "interface_implementation":
                iface = _type_of(next((c for c in n.named_children if c.type == "simple_type"), None))
                if iface:
                    self.base_ref(d, "implements", iface, n)
        ctor = next((c for c in body.named_children if c.type == "primary_constr_args"), None)
        if ctor is not None:
            for n in _walk(ctor):
                if n.type == "typed_pattern":
                    pname = _pattern_name(n.named_children[0] if n.named_child_count else None)
                    ptype = _type_of(next((c for c in n.named_children if c.type == "simple_type"), None))
                    if pname and ptype:
                        self.type_fact(ts, pname, ptype)

    def _member(self, ts) -> None:
        sig = next((c for c in ts.named_children if c.type == "member_signature"), None)
        if sig is not None:  # abstract M: int -> int
            self.add_def(
                ts, "function", next((c for c in sig.named_children if c.type == "identifier"), None)
            )
            return
        defn = next((c for c in ts.named_children if c.type == "method_or_prop_defn"), None)
        if defn is None:
            return
        name = defn.child_by_field_name("name")
        if name is None:
            return
        method = name.child_by_field_name("method")
        instance = name.child_by_field_name("instance")
        ident = (
            method
            if method is not None
            else next((c for c in name.named_children if c.type == "identifier"), None)
        )
        kind = "function" if defn.child_by_field_name("args") is not None else "variable"  # a property
        if self.add_def(ts, kind, ident) is not None and instance is not None:
            self._instances.append((ts.start_byte, ts.end_byte, text(instance)))

    def _let(self, ts) -> None:
        left = ts.named_children[0] if ts.named_child_count else None
        if left is None:
            return
        holder = (
            ts.parent.parent if ts.parent is not None and ts.parent.type == "declaration_expression" else None
        )
        module_level = holder is None or holder.type in MODULE_LEVEL
        if left.type == "function_declaration_left":
            name = next((c for c in left.named_children if c.type == "identifier"), None)
            if name is None:
                return
            if ts.parent is not None and ts.parent.type == "declaration_expression" and not module_level:
                self.local_name(ts.parent, text(name))
            self.add_def(ts, "function", name)
        elif left.type == "value_declaration_left":
            name = _pattern_name(left.named_children[0] if left.named_child_count else None)
            if not name:
                return
            if module_level:
                self.add_def(ts, "variable", None, name=name)
                made = self._constructed(ts.child_by_field_name("body"))
                if made:
                    scope = _ancestor(ts, "module_defn")
                    self.type_fact(scope if scope is not None else ts.parent, name, made)
            else:
                self.local_name(ts, name)
                made = self._constructed(ts.child_by_field_name("body"))
                if made:
                    self.type_fact(ts, name, made)

    @staticmethod
    def _constructed(body) -> str | None:
        """``Box(1.0, 2.0)`` / ``new Box()``: the callee whose result a value holds."""
        if body is None:
            return None
        if body.type == "application_expression" and body.named_child_count >= 1:
            head = _long(body.named_children[0])
            return head if head and head.split(".")[-1][:1].isupper() else None
        return None

    # ------------------------------------------------------------ references
    def _call(self, ts) -> None:
        fn = ts.named_children[0] if ts.named_child_count else None
        if fn is None or fn.type == "application_expression":
            return  # curried: `f a b` is one call, at its innermost application
        name = _long(fn)
        if name is None and fn.type == "dot_expression":
            field = fn.child_by_field_name("field")
            name = f"<expr>.{_long(field)}" if _long(field) else None
        if not name:
            return
        head = name.split(".", 1)[0]
        for start, end, instance in self._instances:
            if start <= ts.start_byte < end and head == instance and "." in name:
                name = SELF + name[len(head) :]
                break
        self.call_ref(ts, name)

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc(self.source, ts)
        if node.kind in ("function", "method"):
            if ts.type == "function_or_value_defn":
                left = ts.named_children[0]
                args = next((c for c in left.named_children if c.type == "argument_patterns"), None)
                node.signature = squash(text(args)) if args is not None else None
            elif ts.type == "member_defn":
                node.is_static = any(c.type == "static" or text(c) == "static" for c in ts.children[:2])
                node.is_abstract = _is_abstract(ts)
                defn = next((c for c in ts.named_children if c.type == "method_or_prop_defn"), None)
                args = defn.child_by_field_name("args") if defn is not None else None
                sig = next((c for c in ts.named_children if c.type == "member_signature"), None)
                if args is not None:
                    node.signature = squash(text(args))
                elif sig is not None:
                    node.signature = squash(text(sig).split(":", 1)[-1].strip())


def _is_abstract(member) -> bool:
    return any(not c.is_named and text(c) == "abstract" for c in member.children)


def _pattern_name(node) -> str | None:
    """The plain name a pattern binds (``x``, ``(x: T)``), else None."""
    while node is not None and node.type in ("paren_pattern", "typed_pattern") and node.named_child_count:
        node = node.named_children[0]
    if node is None:
        return None
    if node.type == "identifier_pattern" and node.named_child_count == 1:
        return _long(node.named_children[0])
    return _long(node) if node.type in ("long_identifier_or_op", "identifier") else None


def _ancestor(node, kind: str):
    p = node.parent
    while p is not None and p.type != kind:
        p = p.parent
    return p


def _walk(node):
    """Descendants of a type body, not entering nested type definitions or expressions."""
    stack = list(reversed(node.named_children))
    while stack:
        n = stack.pop()
        yield n
        if n.type in ("type_extension_elements", "interface_implementation", "enum_type_cases", "block"):
            stack.extend(reversed(n.named_children))


class FSharp(LanguageModule):
    label = "fsharp"
    grammar = "fsharp"
    name = "F#"
    extracts = (
        "namespaces and top-level modules (per file), nested modules, unions with their cases, records"
        " with fields, enums, classes and interfaces with members, let functions and values, /// docs"
    )
    resolution = (
        "open X (the files declaring namespace/module X), same namespace across files, M.f through"
        " modules and namespace-qualified modules, T(x) constructs, this.M(), typed patterns and values"
    )
    extensions = (".fs", ".fsx")
    builtins = BUILTINS
    self_names = frozenset({SELF})
    implicit_members = False  # members are reached through the self identifier (`this.M()`)
    unique_fallback = False
    test_suffixes = ("tests.fs", "test.fs")  # OpsTests.fs, the usual Expecto / xUnit naming
    extractor = FSharpExtractor

    def prepare(self, project, files) -> None:
        packages: dict[str, list[str]] = {}
        for f in files:
            if f.package:
                packages.setdefault(f.package, []).append(f.path)
        project.lang_state["fsharp"] = {"packages": packages, "of": {f.path: f.package for f in files}}

    def _state(self, project) -> dict:
        return project.lang_state.get("fsharp", {"packages": {}, "of": {}})

    def resolve_module(self, project, from_path: str, spec: str):
        """The files declaring namespace (or top-level module) ``spec``."""
        return self._state(project)["packages"].get(spec) or None

    def visible_files(self, project, path: str) -> list[str]:
        """The other files of this file's namespace."""
        package = self._state(project)["of"].get(path)
        return self._state(project)["packages"].get(package, []) if package else []

    def resolve_ref(self, project, path: str, ref):
        """``M.f`` where ``M`` is a namespace-qualified module: tried as ``<ns>.M`` for this file's
        namespace (and its parents) and every opened namespace. Otherwise the generic rules."""
        if (
            ref.kind != "calls"
            or ref.receiver is None
            or ref.receiver == SELF
            or ref.receiver.startswith("<")
        ):
            return None
        head = ref.receiver.split(".", 1)[0]
        local, _ = project.lookup_bare(path, ref.source, head, allow_unique=False)
        if local is not None or any(head in project.locals.get(s.id, ()) for s in project.scopes(ref.source)):
            return None  # a module, type or variable in scope: the generic rules
        state = self._state(project)
        package = state["of"].get(path) or ""
        prefixes = []
        parts = package.split(".") if package else []
        for i in range(len(parts), 0, -1):
            prefixes.append(".".join(parts[:i]))
        prefixes += [b.module for b in project.star.get(path, [])]
        prefixes.append("")
        for prefix in prefixes:
            module = f"{prefix}.{ref.receiver}" if prefix else ref.receiver
            files = state["packages"].get(module)
            if files:
                handle = project.package_handle(files)
                found = project.export_of(handle, ref.name.rsplit(".", 1)[-1])
                if isinstance(found, Node) and found.kind in ("function", "method", "class", "struct"):
                    return found, "import"
                return None, ""
        return None


LANGUAGES = (FSharp(),)
