"""Dart: ``.dart``.

A library is a file plus its ``part`` files, which share one scope (``part of``); ``import``
binds a whole library (``as p`` a prefix, else its names directly), ``export`` re-exports one.
``package:NAME/path`` imports are ``lib/path`` of that package: beside the ``pubspec.yaml`` whose
``name:`` is NAME, whatever its folder is called. A package no pubspec of the tree names is found the
way a tree without pubspecs finds them all, never inside a package a pubspec names otherwise: the
unique project file ending in ``lib/path`` (the package whose folder is NAME first). ``dart:``
libraries are outside the project.
Grammar traps (../shared/LANGUAGES.md): a body is the next sibling of its signature, and there is
no call node — a call is a ``selector(argument_part)`` after the callee's identifier and selectors.
A bare name inside a class means its member first; ``Foo(…)`` and ``new Foo(…)`` construct.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from typing import TYPE_CHECKING

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages._shadow import declared, shadowed
from codegraph.index.languages.base import LanguageModule, parsed_manifests, relative_file
from codegraph.model import Node

if TYPE_CHECKING:
    import tree_sitter

BUILTINS = frozenset(
    """
print identical identityHashCode assert Object String int double num bool List Map Set Iterable Iterator
Future Stream Duration DateTime Exception Error ArgumentError StateError UnsupportedError UnimplementedError
RangeError FormatException TypeError StringBuffer Uri Completer Timer Uint8List Int8List Uint16List Int32List
Uint32List Int64List Float32List Float64List ByteData ByteBuffer Function Symbol Type Null dynamic Zone
RegExp Match Runes Random Comparable Pattern Sink StreamController StreamSubscription Expando WeakReference
""".split()
)
TYPE_NODES = ("type_identifier", "identifier")
SELECTORS = ("unconditional_assignable_selector", "conditional_assignable_selector")
KINDS = {"class": "class", "mixin": "class", "enum": "enum", "extension": "class", "type_alias": "type_alias"}


def _last_ident(node) -> str | None:
    names = [c for c in node.named_children if c.type == "identifier"]
    return text(names[-1]) if names else None


def _type_name(node, stop=None) -> str | None:
    """The first type name among ``node``'s children before ``stop`` (``List<int> xs`` → ``List``)."""
    for c in node.named_children:
        if stop is not None and c.start_byte >= stop.start_byte:
            return None
        if c.type in TYPE_NODES:
            return text(c)
        if c.type in (
            "inferred_type",
            "void_type",
            "initialized_identifier_list",
            "static_final_declaration_list",
        ):
            return None
    return None


# what binds a name a call may mean (_shadow.shadowed): parameters, loop and catch variables, locals
BINDERS = frozenset(
    {
        "formal_parameter_list",
        "optional_formal_parameters",
        "formal_parameter",
        "for_loop_parts",
        "local_variable_declaration",
        "initialized_variable_definition",
        "catch_parameters",
    }
)
IDENTS = frozenset({"identifier"})
# what may precede a top-level variable list among the program's children: modifiers and its type
TOP_VARIABLE_PREFIX = frozenset(
    {
        "final_builtin",
        "const_builtin",
        "late",
        "external",
        "inferred_type",
        "type_identifier",
        "type_arguments",
        "nullable_type",
        ".",
        "annotation",
    }
)
STOPS = frozenset({"class_body", "extension_body", "enum_body", "program"})


def _params(node):
    """A Dart function body's parameters are in the signature before it."""
    if node.type != "function_body" or node.prev_named_sibling is None:
        return ()
    sig = node.prev_named_sibling
    if sig.type == "method_signature" and sig.named_child_count:
        sig = sig.named_children[0]
    lists = [c for c in sig.named_children if c.type == "formal_parameter_list"]
    return [n for lst in lists for n in declared(lst, BINDERS, IDENTS)]


class DartExtractor(Extractor):
    def handle(self, capture: str, ts) -> None:
        if capture.startswith("definition."):
            self._definition(capture[11:], ts)
        elif capture == "reference.call":
            self._call(ts)
        elif capture == "reference.cascade":
            self._cascade(ts)
        elif capture == "reference.new":
            name = next((text(c) for c in ts.named_children if c.type in TYPE_NODES), None)
            if name:
                self.ref(ts, "instantiates", name, None)
        elif capture == "import":
            self._import(ts)
        elif capture == "import.part_of":
            target = ts.named_children[-1] if ts.named_child_count else None
            if target is not None:
                self.out.package = "part of " + text(target).strip("'\"")
        elif capture == "local":
            self._local(ts)
        elif capture == "parameters":
            self._parameters(ts)
        elif capture == "return":
            self.returned_expr(ts)

    # ------------------------------------------------------------ definitions
    def _definition(self, what: str, ts) -> None:
        if what in KINDS:
            name = ts.child_by_field_name("name")
            if name is None:  # mixin_declaration names its identifier without a field
                name = next((c for c in ts.named_children if c.type in TYPE_NODES), None)
            d = self.add_def(ts, KINDS[what], name)
            if d is not None and what != "type_alias":
                self._bases(d, ts)
        elif what == "enum_member":
            self.add_def(ts, "enum_member", ts.child_by_field_name("name"))
        elif what == "function":
            self._function(ts, ts, "function")
        elif what == "method":
            inner = ts.named_children[0] if ts.named_child_count else None
            if inner is not None:
                self._function(inner, ts, "function")
        elif what == "member":
            self._member(ts)
        elif what == "top_variables":
            self._top_variables(ts)

    def _function(self, sig, outer, kind: str) -> None:
        """A signature (function, getter, setter, constructor, factory, operator) whose body is the
        next sibling of ``outer``."""
        body = outer.next_sibling
        if body is not None and body.type != "function_body":
            body = None
        t = sig.type
        if t in (
            "constructor_signature",
            "factory_constructor_signature",
            "redirecting_factory_constructor_signature",
        ):
            idents = [c for c in sig.children if c.type == "identifier"]
            if not idents:
                return
            name_node = idents[-1]
            d = self.add_def(sig, kind, name_node, outer, end=body)
        elif t == "operator_signature":
            op = next((c for c in sig.named_children if c.type != "formal_parameter_list"), None)
            d = self.add_def(
                sig, kind, None, outer, name=f"operator {text(op)}" if op is not None else None, end=body
            )
        else:
            d = self.add_def(sig, kind, sig.child_by_field_name("name"), outer, end=body)
        if d is not None and body is not None:
            self._body_of[id(d)] = body

    def _member(self, decl) -> None:
        """A ``declaration`` in a class body: an abstract method / getter, a redirecting constructor,
        or fields (with their types as facts of the class)."""
        first = decl.named_children[0] if decl.named_child_count else None
        if first is None:
            return
        if first.type in (
            "function_signature",
            "getter_signature",
            "setter_signature",
            "constructor_signature",
            "factory_constructor_signature",
            "redirecting_factory_constructor_signature",
            "operator_signature",
        ):
            self._function(first, decl, "function")
            return
        type_name = _type_name(decl)
        for lst in decl.named_children:
            if lst.type not in ("initialized_identifier_list", "static_final_declaration_list"):
                continue
            for item in lst.named_children:
                ident = next((c for c in item.named_children if c.type == "identifier"), None)
                if ident is None:
                    continue
                self.add_def(item, "property", ident, decl)
                fact = type_name or self._constructed(item, skip=ident)
                if fact:
                    # a field is reached as `this.x` and, inside the class, as bare `x`
                    self.type_fact(decl.parent, f"this.{text(ident)}", fact)
                    self.type_fact(decl.parent, text(ident), fact)

    def _top_variables(self, lst) -> None:
        """``final registry = Registry();`` at the top of a library: a variable node (``const``: a
        constant) with its declared type, else the class its initialiser constructs, as a fact an
        importing library reads (``registry.add(this)``). The modifiers and the type are the list's
        preceding siblings, back to the previous declaration."""
        prefix = []
        n = lst.prev_sibling
        while n is not None and n.type in TOP_VARIABLE_PREFIX:
            prefix.append(n)
            n = n.prev_sibling
        const = any(p.type == "const_builtin" for p in prefix)
        # `p.Foo x`: the type as written, prefix included (its type arguments left out)
        type_name = "".join(text(p) for p in reversed(prefix) if p.type in ("type_identifier", ".")) or None
        for item in lst.named_children:
            ident = next((c for c in item.named_children if c.type == "identifier"), None)
            if ident is None:
                continue
            d = self.add_def(item, "constant" if const else "variable", ident)
            fact = type_name or self._constructed(item, skip=ident)
            if d is not None and fact:
                self.type_fact(item, text(ident), fact)

    def _bases(self, d: Def, ts) -> None:
        for c in ts.named_children:
            if c.type == "superclass":
                for t in c.named_children:
                    if t.type in TYPE_NODES:
                        self.base_ref(d, "extends", text(t), t)
                    elif t.type == "mixins":
                        for m in t.named_children:
                            if m.type in TYPE_NODES:
                                self.base_ref(d, "extends", text(m), m)
            elif c.type == "interfaces":
                for t in c.named_children:
                    if t.type in TYPE_NODES:
                        self.base_ref(d, "implements", text(t), t)
        if ts.type == "extension_declaration":
            on = ts.child_by_field_name("class")
            if on is not None and on.type in TYPE_NODES:
                self.base_ref(d, "extends", text(on), on)

    def node_details(self, node: Node, d: Def) -> None:
        node.docstring = _doc(
            d.ts if d.ts.parent is None or d.ts.parent.type != "method_signature" else d.ts.parent
        )
        if node.docstring is None and d.ts.parent is not None and d.ts.parent.type == "declaration":
            node.docstring = _doc(d.ts.parent)
        body = self._body_of.get(id(d))
        if body is not None and any(c.type == "async" for c in body.children):
            node.is_async = True
        if node.name.startswith("_"):
            node.visibility = "private"
        sig = d.ts
        params = next((c for c in sig.named_children if c.type == "formal_parameter_list"), None)
        if params is not None:
            node.signature = squash(text(params))
        if sig.type in ("factory_constructor_signature", "constructor_signature"):
            # `factory C.fromDetails(…)` and `C.named(…)` produce a C (issue 11: `var e =
            # C.fromDetails(…); e.toMap()` on dart-flet-charts)
            idents = [c for c in sig.children if c.type == "identifier"]
            if len(idents) > 1:
                node.return_type = text(idents[0])
        if sig.type in ("function_signature", "getter_signature"):
            ret = sig.named_children[0] if sig.named_child_count else None
            if (
                ret is not None
                and ret != sig.child_by_field_name("name")
                and ret.type in (*TYPE_NODES, "void_type")
            ):
                node.return_type = text(ret)

    # ------------------------------------------------------------ references
    def _call(self, sel) -> None:
        """``selector(argument_part)``: the callee is what precedes it among its siblings."""
        self._passed(sel)
        parts: list[str] = []
        n = sel.prev_sibling
        broken = False
        while n is not None:
            t = n.type
            if t == "selector":
                inner = n.named_children[0] if n.named_child_count else None
                if inner is not None and inner.type in SELECTORS:
                    name = _last_ident(inner)
                    if name is None:
                        return
                    parts.append(name)
                elif inner is not None and inner.type == "type_arguments":
                    pass  # Foo<int>.bar()
                elif inner is not None and inner.type == "argument_part" and parts:
                    parts.append("()")  # p.get().prepare(): the result of a call, typed by its return
                else:
                    broken = True  # an index, a `!`, a call's result called
                    break
            elif t in SELECTORS:  # super.x(...): the selector follows `super` directly
                name = _last_ident(n)
                if name is None:
                    return
                parts.append(name)
            elif t in ("identifier", "type_identifier", "this", "super"):
                parts.append(text(n))
                break
            else:
                broken = True
                break
            n = n.prev_sibling
        if not parts:
            return
        if broken or n is None or parts[-1] == "()":
            self.ref(sel, "calls", f"<expr>.{parts[0]}", "<expr>")
            return
        dotted = ".".join(reversed(parts)).replace(".()", "()")
        if len(parts) == 1 and shadowed(
            sel,
            parts[0],
            binders=BINDERS,
            idents=IDENTS,
            stop=STOPS,
            header=_params,
            memo=self.shadow_memo,
            root=self.shadow_root,
        ):
            self.local_name(sel, parts[0])  # void draw(void Function() render) { render(); }
        self.call_ref(sel, dotted)

    def _passed(self, sel) -> None:
        """Functions and tear-offs passed as arguments (``lines.forEach(show)``, ``f(p.print)``,
        ``painter: getPainter``): ``value`` references, so impact finds the place that passes them."""
        part = sel.named_children[0] if sel.named_child_count else None
        args = (
            part.named_children[0]
            if part is not None and part.type == "argument_part" and part.named_child_count
            else None
        )
        for a in args.named_children if args is not None and args.type == "arguments" else ():
            kids = [c for c in a.named_children if c.type != "label"]
            if not kids or kids[0].type != "identifier":
                continue
            names = [text(kids[0])]
            for k in kids[1:]:
                step = k.named_children[0] if k.type == "selector" and k.named_child_count else None
                if step is None or step.type != "unconditional_assignable_selector":
                    names = []
                    break
                last = _last_ident(step)
                if last is None:
                    names = []
                    break
                names.append(last)
            if names:
                self.call_ref(kids[0], ".".join(names), "value")

    def _cascade(self, ts) -> None:
        """``x..foo()``: a call of ``foo`` on the cascade's target."""
        sel = next((c for c in ts.named_children if c.type == "cascade_selector"), None)
        if sel is None or not any(c.type == "argument_part" for c in ts.named_children):
            return
        name = _last_ident(sel)
        if name is None:
            return
        target = (
            ts.parent.named_children[0] if ts.parent is not None and ts.parent.named_child_count else None
        )
        if target is not None and target.type in ("identifier", "this") and target.end_byte <= ts.start_byte:
            self.call_ref(ts, f"{text(target)}.{name}")
        else:
            self.ref(ts, "calls", f"<expr>.{name}", "<expr>")

    def _constructed(self, item, skip=None) -> str | None:
        """The class a variable's initialiser constructs or a function's result it holds:
        ``Foo(…)``, ``new Foo(…)``, ``const Foo(…)``, ``make(…)``."""
        kids = [
            c
            for c in item.named_children
            if c is not skip and c.type not in ("inferred_type", "final_builtin")
        ]
        for i, c in enumerate(kids):
            if c.type in ("new_expression", "const_object_expression"):
                return next((text(t) for t in c.named_children if t.type in TYPE_NODES), None)
            if c.type in TYPE_NODES and i + 1 < len(kids) and kids[i + 1].type == "selector":
                # Foo(…), Foo.named(…), store.get(…): `.name` selectors, then one argument list
                parts = [text(c)]
                for sel in kids[i + 1 : -1]:
                    step = sel.named_children[0] if sel.type == "selector" and sel.named_child_count else None
                    name = step.named_children[-1] if step is not None and step.named_child_count else None
                    if step is None or step.type != "unconditional_assignable_selector" or name is None:
                        return None
                    parts.append(text(name))
                last = kids[-1]
                if (
                    last.type == "selector"
                    and last.named_child_count
                    and last.named_children[0].type == "argument_part"
                ):
                    return ".".join(parts)
                return None
        return None

    def _local(self, ts) -> None:
        for item in ts.named_children:
            if item.type != "initialized_variable_definition":
                continue
            name = item.child_by_field_name("name")
            if name is None:
                continue
            fact = _type_name(item, stop=name) or self._constructed(item, skip=name)
            if fact:
                self.type_fact(ts, text(name), fact)

    def _parameters(self, ts) -> None:
        body = ts.parent.next_sibling if ts.parent is not None else None
        if (
            ts.parent is not None
            and ts.parent.parent is not None
            and ts.parent.parent.type == "method_signature"
        ):
            body = ts.parent.parent.next_sibling
        if body is None or body.type != "function_body":
            return
        for p in _formal_parameters(ts):
            name = p.child_by_field_name("name")
            type_name = _type_name(p, stop=name)
            if name is not None and type_name:
                self.type_fact(body, text(name), type_name)

    def _import(self, ts) -> None:
        uri = _uri(ts)
        if uri is None:
            return
        if ts.type == "library_import":
            spec = ts.named_children[0] if ts.named_child_count else ts
            prefix = next((c for c in spec.named_children if c.type == "identifier"), None)
            # `import 'x.dart' as p` binds p; a plain import brings the library's names in
            self.bind(ts, text(prefix) if prefix is not None else "*", uri, "*")
        else:  # export 'x.dart'; part 'x.dart': the names become this library's
            self.bind(ts, "*", uri, "*", reexport=True)

    def run(self):
        self._body_of: dict[int, tree_sitter.Node] = {}
        self.shadow_memo: dict = {}  # _shadow.shadowed's, for this tree
        self.shadow_root = None
        return super().run()

    def begin(self, root) -> None:
        self.shadow_root = root  # _shadow.shadowed finds a call's ancestors from it


def _formal_parameters(params):
    for c in params.named_children:
        if c.type == "formal_parameter":
            yield c
        elif c.type == "optional_formal_parameters":
            yield from (p for p in c.named_children if p.type == "formal_parameter")


def _uri(ts) -> str | None:
    stack = [ts]
    while stack:
        n = stack.pop()
        if n.type == "uri":
            return text(n).strip().strip("'\"")
        stack.extend(reversed(n.named_children))
    return None


def _doc(node) -> str | None:
    """``///`` lines (or a ``/** */`` block) right before ``node``."""
    lines: list[str] = []
    prev = node.prev_sibling
    while prev is not None and prev.type in ("documentation_comment", "comment"):
        raw = text(prev)
        if not (raw.startswith("///") or raw.startswith("/**")):
            break
        lines.append(raw)
        prev = prev.prev_sibling
    if not lines:
        return None
    body = []
    for raw in reversed(lines):
        for line in raw.splitlines():
            body.append(line.strip().lstrip("/").lstrip("*").strip())
    return squash("\n".join(body).strip("/* "), MAX_DOCSTRING) or None


PUBSPEC = "pubspec.yaml"


def pubspec_name(body: str) -> str | None:
    """The package name a pubspec.yaml's text declares (its top-level ``name:``); None without one.

    Raises:
        Exception: ``yaml.YAMLError`` when the text is not YAML; also what building its values
            raises (``ValueError`` for a timestamp like ``2020-13-45``, ``RecursionError`` for
            nesting too deep).
    """
    import yaml  # here, not at the top: 11 ms of every run that loads the registry (-X importtime)

    doc = yaml.safe_load(body)
    name = doc.get("name") if isinstance(doc, dict) else None
    return name if isinstance(name, str) and name else None


class _Packages:
    """The packages the tree's pubspec.yaml files declare: name → the folders declaring it (one,
    unless two pubspecs claim the same name), and every such folder."""

    def __init__(self, declared: dict[str, list[str]]):
        self.by_name = declared
        self.roots = sorted({d for dirs in declared.values() for d in dirs})
        self.everything_declared = "" in self.roots
        self._tails: dict[str, list[str]] | None = None

    def ending_in(self, files, tail: str) -> list[str]:
        """The paths among ``files`` that are ``tail`` (``lib/…``) or end in ``/`` + ``tail``, in
        the order of ``files``: from a table of every path's ``lib/…`` tails, built on first use (a
        scan of every file per import was quadratic: 6.9 s of resolution for 3,000 files that each
        import two packages from outside the tree)."""
        if self._tails is None:
            tails: dict[str, list[str]] = defaultdict(list)
            for path in files:
                parts = path.split("/")
                for i in range(len(parts) - 1):
                    if parts[i] == "lib":
                        tails["/".join(parts[i:])].append(path)
            self._tails = tails
        return self._tails.get(tail, [])

    def declared_file(self, path: str) -> bool:
        """Is ``path`` inside a folder a pubspec names (so a package of another name is not there)?"""
        return any(not root or path.startswith(root + "/") for root in self.roots)


class Dart(LanguageModule):
    label = "dart"
    constructors_named_like_type = True  # the unnamed one; a named one (Ep.zero()) is called by name
    unlisted_constructors = True  # a const or factory constructor the index holds no node of
    grammar = "dart"
    name = "Dart"
    extensions = (".dart",)
    extracts = (
        "classes, mixins, enums, extensions, typedefs, functions, methods, getters/setters, constructors, "
        "fields, top-level variables, /// docs"
    )
    resolution = (
        "relative and package: imports (lib/ of the package pubspec.yaml names), export/part re-exports,"
        " part-of libraries share scope, implicit this, typed/constructed locals and fields"
    )
    manifests = (PUBSPEC,)
    builtins = BUILTINS
    self_names = frozenset({"this"})
    super_names = frozenset({"super"})
    implicit_members = True
    test_suffixes = ("_test.dart",)
    generated_suffixes = (
        ".g.dart",
        ".freezed.dart",
        ".pb.dart",
        ".pbenum.dart",
        ".pbjson.dart",
        ".mocks.dart",
    )
    extractor = DartExtractor

    def read_manifests(self, project, manifests: dict[str, str | None]) -> dict[str, str]:
        """Each pubspec.yaml's ``name:`` by its folder, for ``resolve_module``; one that cannot be
        read, is not YAML or names no package is left out with the reason (its package is then
        found as in a tree without pubspecs)."""
        declared: dict[str, list[str]] = {}
        problems: dict[str, str] = {}
        # YAMLError; also ValueError (a date like 2020-13-45), RecursionError
        read = parsed_manifests(manifests, lambda _, body: pubspec_name(body), problems, errors=(Exception,))
        for path, name in read:
            if name is None:
                problems[path] = "no name: field"
                continue
            declared.setdefault(name, []).append(posixpath.dirname(path))
        project.lang_state[PUBSPEC] = _Packages(declared)
        return problems

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        if spec.startswith("dart:"):
            return None
        if spec.startswith("package:"):
            package, _, rest = spec[len("package:") :].partition("/")
            tail = posixpath.normpath(f"lib/{rest}")
            if not tail.startswith("lib/"):  # dot segments climbing out of lib/: no file of the package
                return None
            packages: _Packages = project.lang_state.setdefault(PUBSPEC, _Packages({}))
            roots = packages.by_name.get(package)
            if roots:  # the package's own lib/, or nothing: never a same-named file elsewhere
                hits = [posixpath.join(root, tail) if root else tail for root in roots]
                hits = [p for p in hits if p in project.files]
                return hits[0] if len(hits) == 1 else None
            if packages.everything_declared:  # a pubspec at the root: a package it does not name is outside
                return None
            hits = [p for p in packages.ending_in(project.files, tail) if not packages.declared_file(p)]
            if len(hits) > 1:  # several packages in the tree: the one whose folder is the package name
                hits = [p for p in hits if posixpath.basename(p[: -len(tail)].rstrip("/")) == package]
            return hits[0] if len(hits) == 1 else None
        path = relative_file(from_path, spec)
        return path if path in project.files else None

    def prepare(self, project, files) -> None:
        """Libraries and their parts: each member of a library sees the others' names."""
        groups: dict[str, list[str]] = {}
        for f in files:
            parts = [
                self.resolve_module(project, f.path, b.module)
                for b in f.imports
                if b.reexport and (project.nodes[b.node].signature or "").startswith("part ")
            ]
            parts = [p for p in parts if p is not None]
            if parts:
                group = [f.path, *parts]
                for member in group:
                    groups[member] = group
        project.lang_state["dart"] = groups

    def visible_files(self, project, path: str) -> list[str]:
        return project.lang_state["dart"].get(path, [])


LANGUAGES = (Dart(),)
