"""Haskell: ``.hs`` files.

A module is a file (``module Geo.Shape (…) where``; its name is the file's package). Top-level
functions (equations merged, the type signature as signature, ``-- |`` Haddock docs), values,
``data`` (a ``struct`` with one constructor, else an ``enum`` whose constructors are members),
``newtype``, ``type`` synonyms, ``class`` (an ``interface`` whose signatures are methods) and
``instance C T`` (an ``implements`` edge from ``T`` to ``C``; its functions are ``T``'s methods).
Imports: ``import qualified A.B as M`` binds ``M``; ``import A.B (f, g)`` binds ``f`` and ``g``;
``import A.B`` / ``hiding (…)`` make every name of ``A.B`` visible; ``A.B.f`` always works. A call
``f x`` (or ``f $ x``) binds to a local name (no edge: patterns, ``where``, ``let``, do-binds),
this module's ``f`` or class method, then an import; ``M.f x`` to module ``A.B``'s ``f``; a
constructor ``Circle r`` instantiates its type. Prelude and packages stay unresolved.
"""

from __future__ import annotations

from codegraph.index.extract import MAX_DOCSTRING, Def, Extractor, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

PRELUDE = frozenset(
    """abs all and any append concat concatMap const curry cycle div drop dropWhile either elem error
    even filter flip floor fmap foldl foldr fromIntegral fst getLine head id init interact iterate
    last length lines lookup map mapM mapM_ max maximum min minimum mod negate not notElem null odd or
    otherwise pure print product putStr putStrLn read readFile repeat replicate return reverse round
    show snd span splitAt sqrt sum tail take takeWhile toEnum truncate uncurry undefined unlines
    until unwords unzip words writeFile zip zip3 zipWith sequence sequence_ traverse mempty mappend
    seq""".split()
)


def _doc(node) -> str | None:
    """The ``-- |`` Haddock comment before a declaration (or before its signature)."""
    prev = node.prev_named_sibling
    if prev is not None and prev.type == "signature":
        prev = prev.prev_named_sibling
    if prev is None and node.parent is not None and node.parent.type == "declarations":
        # a comment right after the imports is parsed as the imports' last child
        block = node.parent.prev_named_sibling
        prev = block.named_children[-1] if block is not None and block.named_child_count else None
    if prev is None or prev.type != "haddock":
        return None
    lines = [ln.strip().lstrip("-").strip().removeprefix("|").strip() for ln in text(prev).splitlines()]
    return squash(" ".join(ln for ln in lines if ln), MAX_DOCSTRING) or None


def _name(node, field: str = "name") -> str | None:
    n = node.child_by_field_name(field)
    return text(n) if n is not None else None


class HaskellExtractor(Extractor):
    def begin(self, root) -> None:
        self.sigs: dict[str, str] = {}
        self.details: dict[int, dict] = {}
        self.last_fun: tuple[Def, str, object] | None = None  # (definition, name, its last equation)
        header = next((c for c in root.named_children if c.type == "header"), None)
        module = header.child_by_field_name("module") if header is not None else None
        self.out.package = text(module) if module is not None else None

    def handle(self, capture: str, ts) -> None:
        if capture == "signature":
            name, sig = _name(ts), ts.child_by_field_name("type")
            if name and sig is not None:
                self.sigs[name] = squash(text(sig))
        elif capture in ("definition.function", "definition.value"):
            name = _name(ts)
            if name is None:
                return
            last = self.last_fun
            if last is not None and last[1] == name and ts.prev_named_sibling == last[2]:
                last[0].end, last[0].end_point = ts.end_byte, ts.end_point
                self.last_fun = (last[0], name, ts)
                return
            prev = ts.prev_named_sibling
            span = prev if prev is not None and prev.type == "signature" and _name(prev) == name else ts
            kind = "function" if capture == "definition.function" else "constant"
            d = self.add_def(ts, kind, None, span, name=name, end=ts)
            # d is None for an empty (zero-width, MISSING) name in broken code: nothing to extend
            self.last_fun = (d, name, ts) if d is not None else None
            self.details[id(d)] = {"doc": _doc(ts)}
        elif capture == "definition.data":
            self._data(ts)
        elif capture == "definition.newtype":
            d = self.add_def(ts, "struct", ts.child_by_field_name("name"))
            ctor = ts.child_by_field_name("constructor")
            cname = _name(ctor) if ctor is not None else None
            if d is not None and cname and cname != d.name:
                self.add_def(ctor, "enum_member", None, name=cname)
            self._type_details(d, ts)
        elif capture == "definition.type":
            self._type_details(self.add_def(ts, "type_alias", ts.child_by_field_name("name")), ts)
        elif capture == "definition.class":
            d = self.add_def(ts, "interface", ts.child_by_field_name("name"))
            self._type_details(d, ts)
            body = ts.child_by_field_name("declarations")
            for decl in body.named_children if body is not None else ():
                if decl.type == "signature":
                    m = self.add_def(decl, "function", decl.child_by_field_name("name"))
                    sig = decl.child_by_field_name("type")
                    if m is not None:
                        self.details[id(m)] = {"signature": squash(text(sig)) if sig is not None else None}
        elif capture == "definition.instance":
            self._instance(ts)
        elif capture == "import":
            self._import(ts)
        elif capture == "reference.call":
            fn = ts.child_by_field_name("function")
            if fn is not None and fn.type != "apply" and not _in_pattern(ts):
                self._callee(ts, fn)
        elif capture == "reference.infix":
            op = ts.child_by_field_name("operator")
            left = ts.child_by_field_name("left_operand")
            if op is not None and text(op) == "$" and left is not None:
                self._callee(ts, left)
        elif capture == "local.patterns":
            for n in _walk(ts):
                if n.type == "variable":
                    self.local_name(ts, text(n))
        elif capture == "local.name":
            self.local_name(ts, text(ts))

    def _callee(self, at, fn) -> None:
        if fn.type in ("variable", "constructor"):
            self.call_ref(at, text(fn))
        elif fn.type == "qualified":
            mod, ident = fn.child_by_field_name("module"), fn.child_by_field_name("id")
            if mod is not None and ident is not None:
                self.call_ref(at, f"{text(mod).rstrip('.')}.{text(ident)}")

    def _data(self, ts) -> None:
        ctors = ts.child_by_field_name("constructors")
        items = (
            [c for c in ctors.named_children if c.type in ("data_constructor", "gadt_constructor")]
            if ctors
            else []
        )
        d = self.add_def(ts, "struct" if len(items) <= 1 else "enum", ts.child_by_field_name("name"))
        if d is None:
            return
        self._type_details(d, ts)
        for item in items:
            inner = item.child_by_field_name("constructor") or item
            cname = _name(inner)
            if cname and (cname != d.name or len(items) > 1):
                self.add_def(inner, "enum_member", None, name=cname)
            fields = inner.child_by_field_name("fields")
            for f in fields.named_children if fields is not None else ():
                fname = f.child_by_field_name("name")
                if f.type == "field" and fname is not None:
                    self.add_def(f, "field", None, name=text(fname))

    def _instance(self, ts) -> None:
        cls = _name(ts)
        pats = ts.child_by_field_name("patterns")
        target = (
            next((c for c in pats.named_children if c.type == "name"), None) if pats is not None else None
        )
        if cls is None or target is None:
            return
        self.owner_base_ref(text(target), "implements", cls, ts)
        body = ts.child_by_field_name("declarations")
        methods: dict[str, Def] = {}
        for decl in body.named_children if body is not None else ():
            name = _name(decl)
            if decl.type not in ("function", "bind") or not name:
                continue
            if name in methods:  # the next equation of the same method
                methods[name].end, methods[name].end_point = decl.end_byte, decl.end_point
                continue
            m = self.add_def(decl, "function", None, name=name)
            assert m is not None  # add_def returns None only for an empty name, skipped above
            m.owner = text(target)
            methods[name] = m

    def _type_details(self, d: Def | None, ts) -> None:
        if d is not None:
            self.details[id(d)] = {"doc": _doc(ts), "signature": squash(text(ts).split(" where", 1)[0])}

    def _import(self, ts) -> None:
        module_node = ts.child_by_field_name("module")
        if module_node is None:
            return
        module = text(module_node)
        words = {text(c) for c in ts.children if not c.is_named}
        qualified = "qualified" in words
        alias = ts.child_by_field_name("alias")
        names = ts.child_by_field_name("names")
        hiding = "hiding" in words
        nid = self.import_node(ts, module)
        self.bind(ts, module, module, "*", node=nid)
        if alias is not None:
            self.bind(ts, text(alias), module, "*", node=nid)
        if qualified:
            return
        if names is not None and not hiding:
            for item in names.named_children:
                var = item.named_children[0] if item.named_child_count else None
                if var is not None:
                    self.bind(ts, text(var), module, text(var), node=nid)
                    if "(..)" in text(item).replace(" ", ""):  # T(..): its constructors too
                        self.bind(ts, f"{text(var)}(..)", module, text(var), node=nid)
        else:
            self.bind(ts, "*", module, "*", node=nid)

    def node_details(self, node: Node, d: Def) -> None:
        info = self.details.get(id(d), {})
        node.docstring = info.get("doc")
        own = d.kind in ("function", "constant") and d.owner is None
        node.signature = info.get("signature") or (self.sigs.get(d.name) if own else None)
        node.is_exported = True

    def function_details(self, node: Node, ts) -> None:
        """Signatures come from the type signatures (:meth:`node_details`)."""


def _in_pattern(node) -> bool:
    """Is ``node`` part of a pattern (``area (Circle r) = …``), where a constructor only matches?"""
    p = node.parent
    while p is not None and p.type not in ("match", "declarations", "exp"):
        if p.type == "patterns" or (p.type == "bind" and p.child_by_field_name("pattern") is not None):
            return True
        p = p.parent
    return False


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.named_children)


class Haskell(LanguageModule):
    label = "haskell"
    grammar = "haskell"
    name = "Haskell"
    extracts = (
        "module header, functions (equations merged) with type signatures and Haddock docs, data (struct or"
        " enum with constructors, record fields), newtype, type synonyms, classes with their methods,"
        " instances (methods of the type, implements the class), imports"
    )
    resolution = (
        "local patterns/where/let shadow; this module's functions and class methods, then imports (explicit"
        " lists, whole modules, qualified as); M.f through aliases and module names; constructors"
        " instantiate their type; Prelude stays unresolved"
    )
    extensions = (".hs",)
    builtins = PRELUDE
    line_comment = "--"
    unique_fallback = False
    test_suffixes = ("spec.hs", "test.hs")
    extractor = HaskellExtractor

    def prepare(self, project, files) -> None:
        modules: dict[str, list[str]] = {}
        for f in files:
            if f.package:
                modules.setdefault(f.package, []).append(f.path)
        project.lang_state["haskell"] = {m: p[0] for m, p in modules.items() if len(p) == 1}

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        return project.lang_state["haskell"].get(spec)

    @staticmethod
    def _in_module(project, path: str | None, name: str) -> Node | None:
        """``name`` at the top of module file ``path``: a function, value or type; a class method; a
        constructor's type."""
        if path is None:
            return None
        top = project.top.get(path, {})
        hits = top.get(name)
        if hits:
            return hits[0]
        for nodes in top.values():
            for n in nodes:
                if n.kind in ("interface", "enum", "struct"):
                    member = project.children.get(n.id, {}).get(name)
                    if member:
                        if member[0].kind == "enum_member":
                            return n  # a constructor: its type
                        if n.kind == "interface":
                            return member[0]  # a class method
        return None

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str]:
        modules = project.lang_state["haskell"]
        if ref.kind in ("extends", "implements"):
            hit = self._in_module(project, path, ref.name)
            if hit is None:
                binding = project.bindings[path].get(ref.name)
                if binding is not None and binding.imported != "*":
                    hit = self._in_module(project, modules.get(binding.module), binding.imported)
            return (hit, "import") if hit is not None and hit.kind == "interface" else (None, "")
        if ref.receiver is None:
            if any(ref.name in project.locals.get(s.id, ()) for s in project.scopes(ref.source)):
                return None, ""
            hit = self._in_module(project, path, ref.name)
            if hit is not None:
                return hit, "local"
            binds = project.bindings[path]
            binding = binds.get(ref.name)
            if binding is not None and binding.imported != "*":
                hit = self._in_module(project, modules.get(binding.module), binding.imported)
                return (hit, "import") if hit is not None else (None, "")
            if ref.name[:1].isupper():  # a constructor imported with its type: T(..)
                for local, b in binds.items():
                    if local.endswith("(..)"):
                        hit = self._in_module(project, modules.get(b.module), ref.name)
                        if hit is not None and hit.name == b.imported:
                            return hit, "import"
            found = {}
            for star in project.star.get(path, ()):
                hit = self._in_module(project, modules.get(star.module), ref.name)
                if hit is not None:
                    found[hit.id] = hit
            return (next(iter(found.values())), "import") if len(found) == 1 else (None, "")
        binding = project.bindings[path].get(ref.receiver)
        module = binding.module if binding is not None else ref.receiver
        hit = self._in_module(project, modules.get(module), ref.name[len(ref.receiver) + 1 :])
        return (hit, "qualified") if hit is not None else (None, "")


LANGUAGES = (Haskell(),)
