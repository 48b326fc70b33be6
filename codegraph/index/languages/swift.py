"""Swift: ``.swift``.

A module is a target folder: ``Sources/<Target>/`` or ``Tests/<Target>/`` (SwiftPM); the project's
other Swift files make one module (a CocoaPods or Xcode target); every file of a module sees the
others' top-level names without an import, and ``import X`` makes module ``X``'s
names visible. ``class_declaration`` stands for class, struct, enum, actor and extension (its
``declaration_kind``); an extension's members belong to the extended type (``Type::member``) and, when
the type is declared in the same file, its conformances are that type's ``implements`` edges. A bare
call or receiver inside a type means ``self.`` when it names a member of that type declared in the
file and no local variable. Construction is a call to a type name (``Circle(radius: 2)``). Docs are
the ``///`` lines or ``/** */`` block above a declaration.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.extract import call_chain as chain_of_calls
from codegraph.index.languages._shadow import ancestors
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

BUILTINS = frozenset(
    """
print debugPrint dump min max abs zip stride fatalError precondition preconditionFailure assert
assertionFailure type swap repeatElement sequence withExtendedLifetime withUnsafePointer
withUnsafeMutablePointer numericCast unsafeBitCast String Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16
UInt32 UInt64 Double Float CGFloat Bool Character Array Dictionary Set Optional Result Error Any AnyObject
Void Never Data Date URL UUID NSObject DispatchQueue Task
""".split()
)
TYPE_KINDS = {"class": "class", "struct": "struct", "enum": "enum", "actor": "class"}
BODIES = ("class_body", "enum_class_body", "protocol_body")
DECLS = ("class_declaration", "protocol_declaration")
FUNCTION_NODES = ("function_declaration", "init_declaration", "protocol_function_declaration")
SCOPE_NODES = (
    *FUNCTION_NODES,
    "deinit_declaration",
    "subscript_declaration",
    "computed_property",
    "lambda_literal",
)


def _names(ts) -> list:
    return ts.children_by_field_name("name")


def type_name(node) -> str | None:
    """The type a type expression names, dotted (``Foo``, ``UIApplication.State``; ``Foo?`` → ``Foo``);
    None for arrays, dictionaries, tuples and functions."""
    while node is not None:
        t = node.type
        if t == "optional_type":
            node = node.child_by_field_name("wrapped")
        elif t == "user_type":
            parts = [text(c) for c in node.named_children if c.type == "type_identifier"]
            return ".".join(parts) or None
        elif t == "type_identifier":
            return text(node)
        else:
            return None
    return None


def call_chain(node) -> str | None:
    """``p.get().prepare()`` (see :func:`codegraph.index.extract.call_chain`)."""

    def suffix_name(n):
        suffix = n.child_by_field_name("suffix")
        name = suffix.child_by_field_name("suffix") if suffix is not None else None
        return name if name is not None and name.type == "simple_identifier" else None

    return chain_of_calls(
        node,
        call="call_expression",
        member="navigation_expression",
        callee=lambda n: n.named_children[0] if n.named_child_count else None,
        receiver=lambda n: n.child_by_field_name("target"),
        name=suffix_name,
        plain=_chain,
    )


def _chain(node) -> str | None:
    """A receiver chain (``self.a.b``, ``x``, ``manager!``), else None."""
    t = node.type
    if t == "simple_identifier":
        return text(node)
    if t == "self_expression":
        return "self"
    if t == "super_expression":
        return "super"
    if t == "postfix_expression":
        target = node.child_by_field_name("target")
        op = node.child_by_field_name("operation")
        if target is not None and op is not None and op.type == "bang":
            return _chain(target)
        return None
    if t == "navigation_expression":
        target = node.child_by_field_name("target")
        suffix = node.child_by_field_name("suffix")
        name = suffix.child_by_field_name("suffix") if suffix is not None else None
        head = _chain(target) if target is not None else None
        if head is None or name is None or name.type != "simple_identifier":
            return None
        return f"{head}.{text(name)}"
    return None


def _doc(ts) -> str | None:
    lines: list[str] = []
    prev = ts.prev_named_sibling
    while prev is not None and prev.type in ("comment", "multiline_comment"):
        raw = text(prev)
        if raw.startswith("///"):
            lines.append(raw[3:].strip())
        elif raw.startswith("/**"):
            body = raw[3:-2] if raw.endswith("*/") else raw[3:]
            lines.append(" ".join(s.strip().lstrip("*").strip() for s in body.splitlines()).strip())
        else:
            break
        if (
            prev.prev_named_sibling is not None
            and prev.prev_named_sibling.end_point[0] < prev.start_point[0] - 1
        ):
            break  # a blank line ends the doc block
        prev = prev.prev_named_sibling
    doc = " ".join(reversed(lines)).strip()
    return squash(doc, MAX_DOCSTRING) if doc else None


def _parents(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


class SwiftExtractor(Extractor):
    def __init__(self, path, source, lang):
        super().__init__(path, source, lang)
        self._members: dict[str, set[str]] = defaultdict(set)  # type name → member functions
        self._props: dict[str, set[str]] = defaultdict(set)  # type name → stored/computed properties
        self._types: dict[str, Def] = {}
        self._conformances: list[tuple[str, str, object]] = []  # (type, protocol, node) of extensions
        self._locals: dict[tuple[int, int], set[str]] = {}

    # ------------------------------------------------------------ context
    def _decl_of(self, ts):
        """The type declaration whose body holds ``ts`` directly, and its type name."""
        parent = ts.parent
        if parent is None or parent.type not in BODIES:
            return None, None
        decl = parent.parent
        if decl is None or decl.type not in DECLS:
            return None, None
        name = _names(decl)
        if not name:
            return decl, None
        return decl, type_name(name[0]) if name[0].type == "user_type" else text(name[0])

    def begin(self, root) -> None:
        self.tree_root = root  # _enclosing_type finds a node's ancestors from it

    def _enclosing_type(self, ts) -> str | None:
        # from the root down: node.parent costs the node's depth, so walking up from each of 1,000
        # nested calls took minutes (_shadow.ancestors)
        chain = ancestors(ts, self.tree_root) if getattr(self, "tree_root", None) is not None else None
        for p in chain if chain is not None else _parents(ts):
            if p.type in DECLS:
                name = _names(p)
                if not name:
                    return None
                return type_name(name[0]) if name[0].type == "user_type" else text(name[0])
        return None

    def _is_extension(self, decl) -> bool:
        kind = decl.child_by_field_name("declaration_kind") if decl is not None else None
        return kind is not None and text(kind) == "extension"

    # ------------------------------------------------------------ captures
    def handle(self, capture: str, ts) -> None:
        if capture == "definition.class":
            self._type(ts)
        elif capture == "definition.protocol":
            name = _names(ts)
            d = self.add_def(ts, "protocol", name[0] if name else None)
            if d is not None:
                self._types.setdefault(d.name, d)
                self._bases(d, ts, "extends")
        elif capture in ("definition.function", "definition.init"):
            self._function(ts, capture == "definition.init")
        elif capture == "definition.property":
            self._property(ts)
        elif capture == "definition.enum_member":
            for n in _names(ts):
                if n.type == "simple_identifier":
                    self.add_def(ts, "enum_member", n, n)
        elif capture == "definition.type_alias":
            name = _names(ts)
            self.add_def(ts, "type_alias", name[0] if name else None)
        elif capture == "import":
            self._import(ts)
        elif capture == "local.bind":
            self.local_name(ts, text(ts))  # func draw(render: () -> Void) { render() }
        elif capture == "reference.call":
            self._call(ts)

    def _type(self, ts) -> None:
        kind_node = ts.child_by_field_name("declaration_kind")
        kind = text(kind_node) if kind_node is not None else "class"
        names = _names(ts)
        if not names:
            return
        if kind == "extension":
            extended = type_name(names[0])
            if extended:
                for c in ts.children:
                    if c.type == "inheritance_specifier":
                        base = c.child_by_field_name("inherits_from")
                        bname = type_name(base) if base is not None else None
                        if bname:
                            self._conformances.append((extended, bname, base))
            return
        d = self.add_def(ts, TYPE_KINDS.get(kind, "class"), names[0])
        if d is None:
            return
        self._types.setdefault(d.name, d)
        self._owner(d, ts)
        self._bases(d, ts, "extends" if kind == "class" else "implements")

    def _bases(self, d: Def, ts, first: str) -> None:
        """A class's first listed type may be its superclass; the others (and every type a struct,
        enum or actor lists) are protocols it conforms to."""
        n = 0
        for c in ts.children:
            if c.type != "inheritance_specifier":
                continue
            base = c.child_by_field_name("inherits_from")
            bname = type_name(base) if base is not None else None
            if bname:
                self.base_ref(d, first if n == 0 else "implements", bname, base)
                n += 1

    def _owner(self, d: Def, ts) -> None:
        """Members written in an extension belong to the extended type."""
        decl, tname = self._decl_of(ts)
        if decl is not None and self._is_extension(decl) and tname:
            d.owner = tname

    def _function(self, ts, is_init: bool) -> None:
        if is_init:
            d = self.add_def(ts, "function", None, name="init")
        else:
            name = next((n for n in _names(ts) if n.type == "simple_identifier"), None)
            d = self.add_def(ts, "function", name)
        if d is None:
            return
        self._owner(d, ts)
        _, tname = self._decl_of(ts)
        if tname and not is_init:
            self._members[tname].add(d.name)
        body = ts.child_by_field_name("body")
        if body is None:
            return
        for p in ts.children:
            if p.type != "parameter":
                continue
            names = _names(p)
            pname = next((n for n in names if n.type == "simple_identifier"), None)
            ptype = next((n for n in names if n.type != "simple_identifier"), None)
            tname_p = type_name(ptype) if ptype is not None else None
            if pname is not None and tname_p:
                self.type_fact(body, text(pname), tname_p)

    def _property(self, ts) -> None:
        pattern = next((n for n in _names(ts) if n.type == "pattern"), None)
        ident = pattern.child_by_field_name("bound_identifier") if pattern is not None else None
        if ident is None:
            return
        name = text(ident)
        annotation = next((c for c in ts.children if c.type == "type_annotation"), None)
        typ = None
        if annotation is not None:
            t = _names(annotation)
            typ = type_name(t[0]) if t else None
        if typ is None:
            value = ts.child_by_field_name("value")
            if value is not None and value.type == "call_expression" and value.named_child_count:
                typ = _chain(value.named_children[0])
        parent = ts.parent
        if parent is not None and parent.type in BODIES:
            d = self.add_def(ts, "property", ident)
            if d is None:
                return
            self._owner(d, ts)
            _, tname = self._decl_of(ts)
            if tname:
                self._props[tname].add(name)
            if typ:
                self.type_fact(ts, "self." + name, typ)
        elif parent is not None and parent.type == "source_file":
            binding = next((c for c in ts.children if c.type == "value_binding_pattern"), None)
            is_let = binding is not None and text(binding).startswith("let")
            self.add_def(ts, "constant" if is_let else "variable", ident)
            if typ:
                self.type_fact(_FILE_SCOPE, name, typ)  # a global: a fact of the file, not of itself
        elif typ:
            self.type_fact(ts, name, typ)

    def filter_defs(self, defs: list[Def]) -> list[Def]:
        for tname, proto, node in self._conformances:
            d = self._types.get(tname)
            if d is not None:
                self.base_ref(d, "implements", proto, node)
            else:  # the type is declared in another file (or not in the project)
                self.owner_base_ref(tname, "implements", proto, node)
        # a func declared inside an extension's method is qualified by the extended type too
        by_node = {(d.ts.start_byte, d.ts.end_byte): d for d in defs}
        for d in defs:
            if d.owner is not None:
                continue
            p = d.ts.parent
            while p is not None and p.type not in DECLS:
                outer = by_node.get((p.start_byte, p.end_byte)) if p.type in FUNCTION_NODES else None
                if outer is not None and (outer.owner or outer.qualifier):
                    d.qualifier = outer.owner or outer.qualifier
                    break
                p = p.parent
        return defs

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        node.docstring = _doc(ts)
        if node.kind == "type_alias":  # typealias Store = Repo: the alias has Repo's members
            aliased = [c for c in ts.children_by_field_name("name") if c.type == "user_type"]
            if aliased and all(c.type == "type_identifier" for c in aliased[0].named_children):
                node.return_type = text(aliased[0])
        mods = next((c for c in ts.children if c.type == "modifiers"), None)
        decl = ts.parent.parent if ts.parent is not None and ts.parent.type in BODIES else None
        ext_mods = None
        if decl is not None and self._is_extension(decl):
            ext_mods = next((c for c in decl.children if c.type == "modifiers"), None)
        for m in (ext_mods, mods):
            for c in m.named_children if m is not None else ():
                if c.type == "visibility_modifier":
                    vis = text(c).split("(")[0]
                    node.visibility = vis
                    node.is_exported = vis in ("public", "open")
                elif c.type == "property_modifier" and text(c) in ("static", "class"):
                    node.is_static = True
        if ts.type in FUNCTION_NODES:
            params: list[str] = []
            for i, c in enumerate(ts.children):
                if c.type == "parameter":
                    params.append(squash(text(c), 80))
                elif params and ts.field_name_for_child(i) == "default_value":
                    params[-1] += " = " + squash(text(c), 40)
            sig = "(" + ", ".join(params) + ")"
            seen_arrow = False
            for c in ts.children:
                if c.type == "->":
                    seen_arrow = True
                elif seen_arrow and c.is_named:
                    node.return_type = squash(text(c), 120)
                    break
                elif c.type == "async":
                    node.is_async = True
            node.signature = sig + (f" -> {node.return_type}" if node.return_type else "")
            if ts.type == "protocol_function_declaration":
                node.is_abstract = True
        tp = next((c for c in ts.children if c.type == "type_parameters"), None)
        if tp is not None:
            names = [
                text(p.named_children[0])
                for p in tp.named_children
                if p.type == "type_parameter" and p.named_child_count
            ]
            node.type_parameters = names or None

    # ------------------------------------------------------------ imports
    def _import(self, ts) -> None:
        ident = next((c for c in ts.named_children if c.type == "identifier"), None)
        if ident is None:
            return
        parts = [text(c) for c in ident.named_children if c.type == "simple_identifier"]
        if not parts:
            return
        nid = self.import_node(ts, ".".join(parts))
        self.bind(ts, "*", parts[0], "*", node=nid)
        self.bind(ts, parts[0], parts[0], "*", node=nid)

    # ------------------------------------------------------------ references
    def _locals_of(self, ts) -> set[str]:
        """Names bound inside the functions and closures around ``ts`` (parameters, lets, vars,
        ``if let`` / ``guard let`` / ``for`` / ``case let`` bindings, closure parameters)."""
        names: set[str] = set()
        p = ts.parent
        while p is not None and p.type not in DECLS:
            if p.type in SCOPE_NODES:
                key = (p.start_byte, p.end_byte)
                cached = self._locals.get(key)
                if cached is None:
                    cached = set()
                    stack = [p]
                    while stack:
                        n = stack.pop()
                        if n.type == "parameter":
                            first = next((c for c in _names(n) if c.type == "simple_identifier"), None)
                            if first is not None:
                                cached.add(text(first))
                        elif n.type == "lambda_parameter":
                            nm = n.child_by_field_name("name")
                            cached.add(text(nm) if nm is not None else text(n))
                        for i, c in enumerate(n.children):
                            if n.field_name_for_child(i) == "bound_identifier":
                                cached.add(text(c))
                            if c.type not in DECLS:
                                stack.append(c)
                    self._locals[key] = cached
                names |= cached
            p = p.parent
        return names

    def _call(self, ts) -> None:
        if not ts.named_child_count:
            return
        callee = ts.named_children[0]
        t = callee.type
        self._passed(ts)
        if t == "simple_identifier":
            name = text(callee)
            owner = self._enclosing_type(ts)
            args = ",".join(_call_labels(ts))
            if owner and name in self._members.get(owner, ()) and name not in self._locals_of(ts):
                self.ref(ts, "calls", name, "self", args)  # implicit self
            else:
                self.ref(ts, "calls", name, None, args)
        elif t == "navigation_expression":
            suffix = callee.child_by_field_name("suffix")
            member = suffix.child_by_field_name("suffix") if suffix is not None else None
            target = callee.child_by_field_name("target")
            if member is None or target is None or member.type != "simple_identifier":
                return
            recv = _chain(target)
            if recv is None and target.type == "call_expression":
                chained = call_chain(target)  # p.get().prepare().run()
                if chained:
                    self.ref(ts, "calls", f"{chained}.{text(member)}", chained, ",".join(_call_labels(ts)))
                    return
            if recv is None:
                self.ref(ts, "calls", f"<expr>.{text(member)}", "<expr>")
                return
            name = f"{recv}.{text(member)}"
            head = recv.split(".", 1)[0]
            owner = self._enclosing_type(ts)
            args = ",".join(_call_labels(ts))
            if owner and head in self._props.get(owner, ()) and head not in self._locals_of(ts):
                self.ref(ts, "calls", name, "self." + recv, args)  # a property of self
            else:
                self.ref(ts, "calls", name, recv, args)

    def _passed(self, call) -> None:
        """Functions passed as arguments (``lines.forEach(show)``, ``sort(by: less)``): ``value``
        references, so impact finds the place that passes them; a local or parameter is data."""
        suffix = next((c for c in call.named_children if c.type == "call_suffix"), None)
        args = (
            next((c for c in suffix.named_children if c.type == "value_arguments"), None) if suffix else None
        )
        for a in args.named_children if args is not None else ():
            value = a.child_by_field_name("value") if a.type == "value_argument" else None
            if (
                value is not None
                and value.type == "simple_identifier"
                and text(value) not in self._locals_of(call)
            ):
                self.call_ref(value, text(value), "value")


class Swift(LanguageModule):
    label = "swift"
    constructor_names = ("init",)
    unlisted_constructors = True  # a struct's memberwise init, a class's default one
    grammar = "swift"
    name = "Swift"
    extracts = (
        "classes, structs, enums and cases, actors, protocols, extensions (members owned by the extended "
        "type), functions, inits, properties, type aliases, doc comments, signatures"
    )
    resolution = (
        "a module is a target folder (no imports inside it), import of other modules, self/implicit self, "
        "super, typed params, properties and locals, constructor calls"
    )
    extensions = (".swift",)
    builtins = BUILTINS
    self_names = frozenset({"self", "Self"})
    super_names = frozenset({"super"})
    self_type_annotations = frozenset({"Self"})
    unique_fallback = False
    foreign_owners = True
    generated_suffixes = (".generated.swift", ".pb.swift", ".grpc.swift")
    extractor = SwiftExtractor

    def pick_overload(self, candidates, ref):
        """The one declaration whose parameters the call's argument labels fit; None when none does
        (``DecodingError.dataCorrupted(ctx)`` is the SDK's case, not the extension's
        ``dataCorrupted(_:target:codingPath:)``) or several do (same labels, different types)."""
        if ref.args is None:
            return None
        labels = ref.args.split(",") if ref.args else []
        fits, exact = [], []
        for c in candidates:
            params = signature_params(c.signature)
            if params is None or _fits(params, labels):
                fits.append(c)
                if params is not None and len(params) == len(labels):
                    exact.append(c)
        if len(fits) == 1:
            return fits[0]
        # Swift ranks an overload that needs no default arguments above one that does
        return exact[0] if len(exact) == 1 else None

    def is_test_file(self, path: str) -> bool:
        name = path.rsplit("/", 1)[-1]
        return name.endswith(("Tests.swift", "Test.swift", "Spec.swift"))

    def prepare(self, project, files) -> None:
        modules: dict[str, list[str]] = defaultdict(list)
        by_name: dict[str, list[str]] = defaultdict(list)
        for f in files:
            modules[module_root(f.path)].append(f.path)
        for root in modules:
            by_name[posixpath.basename(root)].append(root)
        project.lang_state["swift"] = (modules, by_name)

    def module_names(self, path: str, manifests) -> frozenset[str]:
        """A module is imported by its target folder's name (``Sources/<T>``)."""
        return frozenset({posixpath.basename(module_root(path))} - {""})

    def visible_files(self, project, path: str) -> list[str]:
        modules, _ = project.lang_state["swift"]
        return modules.get(module_root(path), [])

    def resolve_module(self, project, from_path: str, spec: str) -> list[str] | None:
        modules, by_name = project.lang_state["swift"]
        roots = by_name.get(spec.split(".", 1)[0], [])
        paths = sorted(p for r in roots for p in modules[r])
        return paths or None


def signature_params(signature: str | None) -> list[tuple[str, bool, bool]] | None:
    """(argument label, has a default, variadic) of each parameter in a signature this module
    wrote (``(_ a: Int, to b: Int = 1, _ xs: Any...) -> T``); None when there is none."""
    if not signature or not signature.startswith("("):
        return None
    depth, start, parts = 0, 1, []
    for i, ch in enumerate(signature):
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
            if depth == 0:
                parts.append(signature[start:i])
                break
        elif ch == "," and depth == 1:
            parts.append(signature[start:i])
            start = i + 1
    out = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        head, _, rest = part.partition(":")
        names = head.split()
        out.append((names[0] if names else "_", " = " in rest, rest.split(" = ")[0].strip().endswith("...")))
    return out


def _call_labels(ts) -> list[str]:
    """A call's argument labels (``_`` for an unlabelled argument; a trailing closure counts)."""
    labels: list[str] = []
    suffix = next((c for c in ts.named_children if c.type == "call_suffix"), None)
    if suffix is None:
        return labels
    for c in suffix.named_children:
        if c.type == "value_arguments":
            for a in c.named_children:
                if a.type == "value_argument":
                    lab = a.child_by_field_name("name")
                    labels.append(text(lab).rstrip(":") if lab is not None else "_")
        elif c.type == "lambda_literal":
            labels.append("{")
    return labels


def _fits(params: list[tuple[str, bool, bool]], labels: list[str]) -> bool:
    """Do a call's argument labels fit a declaration's parameters (defaults may be left out, a
    variadic takes the unlabelled arguments after it, a trailing closure fills the last one)?"""
    i = 0
    for label, has_default, variadic in params:
        if i < len(labels) and (labels[i] == label or (labels[i] == "{" and i == len(labels) - 1)):
            i += 1
            while variadic and i < len(labels) and labels[i] == "_":
                i += 1
        elif not has_default and not variadic:
            return False
    return i == len(labels)


class _FileScope:
    """A position before every definition: type facts placed here belong to the file."""

    start_byte = -1


_FILE_SCOPE = _FileScope()


def module_root(path: str) -> str:
    """The folder of a file's module: ``Sources/<T>`` / ``Tests/<T>`` (SwiftPM targets); every other
    Swift file of the project is one module (a CocoaPods / Xcode target lists its sources in a podspec
    or project file we do not read: VisionCamera's pod is ``ios/`` plus ``nitrogen/generated/``)."""
    parts = path.split("/")
    for i, p in enumerate(parts[:-2]):
        if p in ("Sources", "Tests"):
            return "/".join(parts[: i + 2])
    return ""


LANGUAGES = (Swift(),)
