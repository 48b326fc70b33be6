"""OCaml: ``.ml`` implementations and ``.mli`` interfaces (grammar ``ocaml_interface``, label
``ocaml_interface``, same family).

A file is a module named after it (``shape_util.ml`` is ``Shape_util``); ``module M = struct … end``
nests modules, ``module type S = sig … end`` is an ``interface``. Top-level ``let``/``let rec``
bindings are functions (with parameters, or ``function``/``fun`` bodies) or constants; ``type``
gives an ``enum`` (variants, constructors as members), a ``struct`` (records, fields as members)
or a ``type_alias``; ``external`` and ``.mli`` ``val`` declarations are functions; classes and
their methods. ``(** … *)`` docs; signatures are the parameters (or the declared type).
``open M`` / ``include M`` make M's names visible; ``module A = B`` aliases a module. A call
``f x`` (also ``x |> f``, ``f @@ x``) binds to a local (parameters, ``let … in``, match cases: no
edge), a definition of an enclosing module or the file, then the last ``open`` that has it;
``M.N.f x`` walks modules (nested, aliased, opened, or a file of that name, preferring the
caller's directory); a constructor instantiates its type; ``new c`` its class. ``Stdlib``
(``List.map``, ``print_endline``) stays unresolved unless the project defines it.
"""

from __future__ import annotations

import posixpath
from typing import ClassVar

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

STDLIB = frozenset(
    """abs failwith fst snd ignore invalid_arg max min not print_endline print_int print_newline
    print_string print_char print_float prerr_endline raise ref string_of_int int_of_string
    float_of_int int_of_float string_of_float incr decr succ pred exit""".split()
)
MODULE_KINDS = frozenset({"module", "interface"})


def module_name(path: str) -> str:
    """The module a file is: its stem, capitalised (``lib/shape_util.ml`` → ``Shape_util``)."""
    stem = posixpath.basename(path).split(".", 1)[0]
    return stem[:1].upper() + stem[1:]


def _doc(node) -> str | None:
    """The ``(** … *)`` comment right before a definition."""
    prev = node.prev_named_sibling
    if prev is None or prev.type != "comment" or not text(prev).startswith("(**"):
        return None
    if node.start_point[0] - prev.end_point[0] > 1:
        return None
    return squash(text(prev)[3:].removesuffix("*)").strip(), MAX_DOCSTRING) or None


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.named_children)


def _dotted(node) -> str:
    return text(node).replace(" ", "")


def _start_at(d: Def, node) -> None:
    """Start a definition where ``node`` starts (``let``/``type``/``class`` before its first binding)."""
    if node.start_byte < d.start:
        d.start, d.line, d.col = node.start_byte, node.start_point[0] + 1, node.start_point[1]


class OCamlExtractor(Extractor):
    def begin(self, root) -> None:
        self.details: dict[int, dict] = {}

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.value":
            for binding in ts.named_children:
                if binding.type == "let_binding":
                    self._let(ts, binding)
        elif capture == "definition.val":
            name = next((c for c in ts.named_children if c.type == "value_name"), None)
            typ = ts.child_by_field_name("type")
            kind = "function" if typ is not None and typ.type == "function_type" else "constant"
            self._def(ts, kind, name, squash(text(typ)) if typ is not None else None)
        elif capture == "definition.external":
            name = next((c for c in ts.named_children if c.type == "value_name"), None)
            typ = ts.child_by_field_name("type")
            self._def(ts, "function", name, squash(text(typ)) if typ is not None else None)
        elif capture == "definition.module":
            for binding in ts.named_children:
                if binding.type != "module_binding":
                    continue
                name = next((c for c in binding.named_children if c.type == "module_name"), None)
                body = binding.child_by_field_name("body")
                if name is not None and body is not None and body.type == "module_path":
                    self.bind(ts, text(name), _dotted(body), "*")  # module A = B: an alias
                    continue
                self._def(ts, "module", name, None, span_end=binding)
        elif capture == "definition.module_type":
            name = next((c for c in ts.named_children if c.type == "module_type_name"), None)
            self._def(ts, "interface", name, None)
        elif capture == "definition.type":
            for binding in ts.named_children:
                if binding.type == "type_binding":
                    self._type(ts, binding)
        elif capture == "definition.class":
            for binding in ts.named_children:
                name = next((c for c in binding.named_children if c.type == "class_name"), None)
                d = self._def(binding, "class", name, None, doc_at=self._doc_node(ts, binding))
                body = binding.child_by_field_name("body")
                for m in body.named_children if d is not None and body is not None else ():
                    if m.type == "method_definition":
                        mname = next((c for c in m.named_children if c.type == "method_name"), None)
                        self._def(m, "function", mname, None)
        elif capture == "import":
            module = ts.child_by_field_name("module")
            if module is not None:
                self.bind(ts, "*", _dotted(module), "*")
        elif capture == "reference.call":
            fn = ts.child_by_field_name("function")
            if fn is not None:
                self._callee(ts, fn)
        elif capture == "reference.infix":
            op = ts.child_by_field_name("operator")
            side = {"|>": "right", "@@": "left"}.get(text(op) if op is not None else "")
            target = ts.child_by_field_name(side) if side else None
            if target is not None and target.type == "value_path":
                self._callee(ts, target)
        elif capture == "reference.new":
            cls = next((c for c in ts.named_children if c.type == "class_path"), None)
            if cls is not None:
                self.call_ref(ts, _dotted(cls), "instantiates")
        elif capture == "local.patterns":
            for n in _walk(ts):
                if n.type in ("value_pattern", "value_name"):
                    self.local_name(ts, text(n))

    def _callee(self, at, fn) -> None:
        if fn.type == "value_path":
            self.call_ref(at, _dotted(fn))
        elif fn.type == "constructor_path":
            self.call_ref(at, _dotted(fn), "instantiates")

    def _def(self, ts, kind: str, name_node, signature: str | None, span_end=None, doc_at=None) -> Def | None:
        d = self.add_def(ts, kind, name_node, end=span_end)
        if d is not None:
            _start_at(d, doc_at or ts)
            self.details[id(d)] = {"signature": signature, "doc": _doc(doc_at or ts)}
        return d

    @staticmethod
    def _doc_node(definition, binding):
        """Where a binding's doc comment is: before its definition for the first binding
        (``type a = … and b = …``), else before the binding itself."""
        return definition if binding == definition.named_children[0] else binding

    def _let(self, definition, binding) -> None:
        pattern = binding.child_by_field_name("pattern")
        if pattern is None or pattern.type != "value_name":
            return  # let () = …, let (a, b) = …
        params = [c for c in binding.named_children if c.type == "parameter"]
        body = binding.child_by_field_name("body")
        is_fn = bool(params) or (body is not None and body.type in ("function_expression", "fun_expression"))
        span = self._doc_node(definition, binding)
        d = self.add_def(binding, "function" if is_fn else "constant", pattern)
        if d is not None:
            _start_at(d, span)
            sig = " ".join(text(p) for p in params) if params else None
            self.details[id(d)] = {"signature": squash(sig) if sig else None, "doc": _doc(span)}

    def _type(self, definition, binding) -> None:
        name = binding.child_by_field_name("name")
        body = binding.child_by_field_name("body")
        doc_at = self._doc_node(definition, binding)
        sig = squash(text(binding))
        if body is not None and body.type == "variant_declaration":
            d = self._def(binding, "enum", name, sig, doc_at=doc_at)
            for ctor in body.named_children if d is not None else ():
                cname = next((c for c in ctor.named_children if c.type == "constructor_name"), None)
                if cname is not None:
                    self.add_def(ctor, "enum_member", cname)
        elif body is not None and body.type == "record_declaration":
            d = self._def(binding, "struct", name, sig, doc_at=doc_at)
            for field in body.named_children if d is not None else ():
                fname = next((c for c in field.named_children if c.type == "field_name"), None)
                if fname is not None:
                    self.add_def(field, "field", fname)
        else:
            self._def(binding, "type_alias", name, sig, doc_at=doc_at)

    def node_details(self, node: Node, d: Def) -> None:
        info = self.details.get(id(d), {})
        node.docstring = info.get("doc")
        node.signature = info.get("signature")
        node.is_exported = True

    def function_details(self, node: Node, ts) -> None:
        """Signatures come from :meth:`node_details` (parameters or the declared type)."""


class OCaml(LanguageModule):
    label = "ocaml"
    grammar = "ocaml"
    name = "OCaml"
    extracts = (
        "files as modules, nested modules, module types, let/let rec functions and values, types (variants"
        " with constructors, records with fields, aliases), externals, classes and methods, (** docs *)"
    )
    resolution = (
        "locals shadow; enclosing modules and the file, then open/include; M.N.f through nested, aliased and"
        " opened modules and file modules (same directory first); constructors instantiate their type;"
        " Stdlib stays unresolved"
    )
    extensions: ClassVar[tuple[str, ...]] = (".ml",)
    family = "ocaml"
    builtins = STDLIB
    line_comment = "(*"
    unique_fallback = False
    test_prefixes: ClassVar[tuple[str, ...]] = ("test_",)
    test_suffixes: ClassVar[tuple[str, ...]] = ("_test.ml", "_tests.ml")
    extractor = OCamlExtractor

    def prepare(self, project, files) -> None:
        by_module: dict[str, list[str]] = {}
        for path, f in project.files.items():
            if OCaml.label == f.language:  # not the .mli module (a subclass with its own label)
                by_module.setdefault(module_name(path), []).append(path)
        project.lang_state["ocaml"] = by_module

    def _file_module(self, project, from_path: str, name: str) -> str | None:
        paths = project.lang_state["ocaml"].get(name, [])
        if len(paths) == 1:
            return paths[0]
        here = [p for p in paths if posixpath.dirname(p) == posixpath.dirname(from_path)]
        return here[0] if len(here) == 1 else None

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """``open A`` → the file ``a.ml`` (``open A.B`` → A's file; B is found inside it)."""
        return self._file_module(project, from_path, spec.split(".", 1)[0])

    # ------------------------------------------------------------ lookups
    @staticmethod
    def _members(project, container) -> dict[str, list[Node]]:
        """Names defined in a module: a file path (its top level) or a module node."""
        if isinstance(container, str):
            return project.top.get(container, {})
        return project.children.get(container.id, {})

    def _find(self, project, container, name: str) -> Node | None:
        hits = [n for n in self._members(project, container).get(name, ()) if n.kind != "import"]
        if hits:
            return hits[-1]  # a later definition shadows an earlier one
        if name[:1].isupper():  # a constructor: its type
            for nodes in self._members(project, container).values():
                for n in nodes:
                    if n.kind == "enum" and name in project.children.get(n.id, {}):
                        return n
        return None

    def _module(self, project, path: str, source: str, parts: list[str], depth: int = 0):
        """The module (a file path or a module node) ``A.B`` names at ``source``; opened modules
        are searched only at ``depth`` 0 (an ``open`` names its module without other opens)."""
        if depth > 4:
            return None
        head, rest = parts[0], parts[1:]
        current: Node | str | None = None  # a module node, or a file path (its top level)
        for scope in [*project.scopes(source), None]:
            container = scope if scope is not None and scope.kind in MODULE_KINDS else None
            if scope is not None and container is None:
                continue
            hit = self._find(project, container if container is not None else path, head)
            if hit is not None and hit.kind in MODULE_KINDS:
                current = hit
                break
        if current is None:
            binding = project.bindings[path].get(head)
            if binding is not None and binding.local != "*":
                current = self._module(project, path, f"file:{path}", binding.module.split("."), depth + 1)
        if current is None and depth == 0:
            for opened in reversed(self._opened(project, path, source)):
                hit = self._find(project, opened, head)
                if hit is not None and hit.kind in MODULE_KINDS:
                    current = hit
                    break
        if current is None:
            current = self._file_module(project, path, head)
        for part in rest:
            if current is None:
                return None
            hit = self._find(project, current, part)
            if hit is None and isinstance(current, str):  # `module T = Table` in that file
                alias = project.bindings.get(current, {}).get(part)
                if alias is not None and alias.local != "*":
                    hit = self._module(
                        project, current, f"file:{current}", alias.module.split("."), depth + 1
                    )
                    current = hit
                    continue
            current = hit if hit is not None and hit.kind in MODULE_KINDS else None
        return current

    def _opened(self, project, path: str, source: str) -> list:
        out = []
        for star in project.star.get(path, ()):
            mod = (
                self._module(project, path, f"file:{path}", star.module.split("."), 1)
                if star.module
                else None
            )
            if mod is not None and mod != path:
                out.append(mod)
        return out

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str]:
        parts = ref.name.split(".")
        if ref.receiver is None:
            if ref.kind == "calls" and any(
                ref.name in project.locals.get(s.id, ()) for s in project.scopes(ref.source)
            ):
                return None, ""
            for scope in project.scopes(ref.source):
                if scope.kind in MODULE_KINDS:
                    hit = self._find(project, scope, ref.name)
                    if hit is not None:
                        return hit, "local"
            hit = self._find(project, path, ref.name)
            if hit is not None:
                return hit, "local"
            for opened in reversed(self._opened(project, path, ref.source)):
                hit = self._find(project, opened, ref.name)
                if hit is not None:
                    return hit, "import"
            return None, ""
        module = self._module(project, path, ref.source, parts[:-1])
        hit = self._find(project, module, parts[-1]) if module is not None else None
        return (hit, "qualified") if hit is not None else (None, "")


class OCamlInterface(OCaml):
    label = "ocaml_interface"
    grammar = "ocaml_interface"
    name = "OCaml interface"
    extracts = "val declarations (with their types), modules and module types, types, externals, (** docs *)"
    resolution = "declarations only (no calls); open/include link the interface to the modules it names"
    extensions = (".mli",)
    test_prefixes = ()
    test_suffixes = ()

    def prepare(self, project, files) -> None:
        if "ocaml" not in project.lang_state:
            OCaml.prepare(self, project, files)


LANGUAGES = (OCaml(), OCamlInterface())
