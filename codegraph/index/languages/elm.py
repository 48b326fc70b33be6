"""Elm: ``.elm`` files.

A module is a file with a header (``module Shape.Area exposing (..)``): the file holds one
``module`` node, and its top-level values (``function`` with arguments, ``constant`` without),
custom types (``enum``, constructors as ``enum_member``), type aliases and ports. Type annotations
give signatures, ``{-| … -}`` docs. ``import A.B as C exposing (f, T(..))`` binds ``C`` (or
``A.B``) to the module and the exposed names; ``exposing (..)`` exposes everything. A call
``f x`` binds to a local pattern name (no edge), this module's ``f``, then an exposed import;
``C.f x`` to module ``A.B``'s ``f``; a constructor ``Circle r`` instantiates its type. Modules
map to files through their headers (``src/A/B.elm`` by convention). Elm's default imports
(``List``, ``Maybe``, ``Basics``…) are no project files: their functions stay unresolved.
"""

from __future__ import annotations

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

# Basics and the default imports' exposed functions (elm/core): never project definitions.
DEFAULT_EXPOSED = frozenset(
    """abs acos always asin atan atan2 ceiling clamp compare cos degrees e floor fromPolar identity
    isInfinite isNaN logBase max min modBy negate never not pi radians remainderBy round sin sqrt tan
    toFloat toPolar truncate turns xor""".split()
)


def _doc(node) -> str | None:
    """The ``{-| … -}`` comment before a declaration (or before its type annotation)."""
    prev = node.prev_named_sibling
    if prev is not None and prev.type in ("type_annotation", "port_annotation"):
        prev = prev.prev_named_sibling
    if prev is None or prev.type != "block_comment" or not text(prev).startswith("{-|"):
        return None
    return squash(text(prev)[3:].removesuffix("-}").strip(), MAX_DOCSTRING) or None


def _qid_parts(qid) -> list[str]:
    return [
        text(c) for c in qid.named_children if c.type in ("upper_case_identifier", "lower_case_identifier")
    ]


class ElmExtractor(Extractor):
    def begin(self, root) -> None:
        self.module_def: Def | None = None
        self.sigs: dict[int, str] = {}
        header = root.child_by_field_name("moduleDeclaration")
        name = header.child_by_field_name("name") if header is not None else None
        if name is not None:
            self.module_def = self.add_def(root, "module", None, name=text(name))
        self.annotations: dict[str, str] = {}
        for c in root.named_children:
            if c.type == "type_annotation":
                n, t = c.child_by_field_name("name"), c.child_by_field_name("typeExpression")
                if n is not None and t is not None:
                    self.annotations[text(n)] = squash(text(t))

    def handle(self, capture: str, ts) -> None:
        if capture == "definition.value":
            left = ts.child_by_field_name("functionDeclarationLeft")
            ident = left.named_children[0] if left is not None and left.named_child_count else None
            if ident is None or ident.type != "lower_case_identifier":
                return
            params = list(left.named_children[1:])
            prev = ts.prev_named_sibling  # the type annotation belongs to the definition's span
            span = prev if prev is not None and prev.type == "type_annotation" else ts
            d = self.add_def(ts, "function" if params else "constant", ident, span, end=ts)
            if d is not None:
                sig = self.annotations.get(d.name)
                self.sigs[id(d)] = sig or " ".join(text(p) for p in params)
        elif capture == "definition.type":
            d = self.add_def(ts, "enum", ts.child_by_field_name("name"))
            for variant in ts.children_by_field_name("unionVariant"):
                self.add_def(variant, "enum_member", variant.child_by_field_name("name"))
            if d is not None:
                self.sigs[id(d)] = squash(text(ts))
        elif capture == "definition.alias":
            d = self.add_def(ts, "type_alias", ts.child_by_field_name("name"))
            if d is not None:
                self.sigs[id(d)] = squash(text(ts))
        elif capture == "definition.port":
            d = self.add_def(ts, "function", ts.child_by_field_name("name"))
            t = ts.child_by_field_name("typeExpression")
            if d is not None and t is not None:
                self.sigs[id(d)] = squash(text(t))
        elif capture == "import":
            self._import(ts)
        elif capture == "reference.call":
            target = ts.child_by_field_name("target")
            name = target.child_by_field_name("name") if target is not None else None
            if name is None:
                return
            parts = _qid_parts(name)
            if parts:
                self.call_ref(ts, ".".join(parts))
        elif capture in ("local.pattern", "local.let"):
            self.local_name(ts, text(ts))  # inside the top-level function around it

    def _import(self, clause) -> None:
        name = clause.child_by_field_name("moduleName")
        if name is None:
            return
        module = text(name)
        nid = self.import_node(clause, module)
        alias = clause.child_by_field_name("asClause")
        alias_name = alias.child_by_field_name("name") if alias is not None else None
        self.bind(clause, text(alias_name) if alias_name is not None else module, module, "*", node=nid)
        exposing = clause.child_by_field_name("exposing")
        if exposing is None:
            return
        if exposing.child_by_field_name("doubleDot") is not None:
            self.bind(clause, "*", module, "*", node=nid)
            return
        for item in exposing.named_children:
            if item.type == "exposed_value":
                self.bind(clause, text(item), module, text(item), node=nid)
            elif item.type == "exposed_type":
                tname = next((c for c in item.named_children if c.type == "upper_case_identifier"), None)
                if tname is None:
                    continue
                self.bind(clause, text(tname), module, text(tname), node=nid)
                if any(c.type == "exposed_union_constructors" for c in item.named_children):
                    # T(..): its constructors are bare names here; "T(..)" marks them for the resolver
                    self.bind(clause, f"{text(tname)}(..)", module, text(tname), node=nid)

    def node_details(self, node: Node, d: Def) -> None:
        node.docstring = _doc(d.ts) if d.kind != "module" else _module_doc(d.ts)
        node.signature = self.sigs.get(id(d)) or None
        node.is_exported = True

    def function_details(self, node: Node, ts) -> None:
        """Signatures come from the type annotations (:meth:`node_details`)."""


def _module_doc(root) -> str | None:
    header = root.child_by_field_name("moduleDeclaration")
    nxt = header.next_named_sibling if header is not None else None
    if nxt is not None and nxt.type == "block_comment" and text(nxt).startswith("{-|"):
        return squash(text(nxt)[3:].removesuffix("-}").strip(), MAX_DOCSTRING) or None
    return None


class Elm(LanguageModule):
    label = "elm"
    grammar = "elm"
    name = "Elm"
    extracts = (
        "modules (file headers), top-level functions and values with their type annotations, custom types"
        " and constructors, type aliases, ports, doc comments, imports (as / exposing)"
    )
    resolution = (
        "bare calls: local patterns shadow, then this module, then exposed imports; M.f through import"
        " aliases and module names; constructors instantiate their type; default imports stay unresolved"
    )
    extensions = (".elm",)
    builtins = DEFAULT_EXPOSED
    line_comment = "--"
    unique_fallback = False
    test_suffixes = ("tests.elm", "test.elm")
    extractor = ElmExtractor

    def prepare(self, project, files) -> None:
        modules: dict[str, list[str]] = {}
        module_node: dict[str, Node] = {}
        for f in files:
            for n in f.nodes:
                if n.kind == "module":
                    modules.setdefault(n.name, []).append(f.path)
                    module_node[f.path] = n
                    break
        project.lang_state["elm"] = {
            "modules": {m: paths[0] for m, paths in modules.items() if len(paths) == 1},
            "module_node": module_node,
        }

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        return project.lang_state["elm"]["modules"].get(spec)

    def _members(self, project, path: str) -> dict[str, list[Node]]:
        module = project.lang_state["elm"]["module_node"].get(path)
        return project.children.get(module.id, {}) if module is not None else project.top.get(path, {})

    def _in_module(self, project, path: str | None, name: str) -> Node | None:
        """``name`` defined at the top of module file ``path``: a value, or a constructor's type."""
        if path is None:
            return None
        members = self._members(project, path)
        hits = [n for n in members.get(name, ()) if n.kind != "import"]
        if hits:
            return hits[0]
        if name[:1].isupper():  # a constructor: its custom type
            for nodes in members.values():
                for n in nodes:
                    if n.kind == "enum" and name in project.children.get(n.id, {}):
                        return n
        return None

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str]:
        state = project.lang_state["elm"]
        if ref.receiver is None:
            if any(ref.name in project.locals.get(s.id, ()) for s in project.scopes(ref.source)):
                return None, ""
            hit = self._in_module(project, path, ref.name)
            if hit is not None:
                return hit, "local"
            binds = project.bindings[path]
            binding = binds.get(ref.name)
            if binding is not None and binding.imported != "*":
                hit = self._in_module(project, state["modules"].get(binding.module), binding.imported)
                return (hit, "import") if hit is not None else (None, "")
            if ref.name[:1].isupper():  # a constructor exposed through T(..)
                for local, b in binds.items():
                    if local.endswith("(..)"):
                        hit = self._in_module(project, state["modules"].get(b.module), ref.name)
                        if hit is not None and hit.name == b.imported:
                            return hit, "import"
            found = {}
            for star in project.star.get(path, ()):
                hit = self._in_module(project, state["modules"].get(star.module), ref.name)
                if hit is not None:
                    found[hit.id] = hit
            return (next(iter(found.values())), "import") if len(found) == 1 else (None, "")
        binding = project.bindings[path].get(ref.receiver)
        module = binding.module if binding is not None and binding.imported == "*" else ref.receiver
        hit = self._in_module(project, state["modules"].get(module), ref.name[len(ref.receiver) + 1 :])
        return (hit, "qualified") if hit is not None else (None, "")


LANGUAGES = (Elm(),)
