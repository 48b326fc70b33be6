"""Python: ``.py`` and ``.pyi``.

Modules are dotted paths (``pkg/mod.py`` → ``pkg.mod``, ``pkg/__init__.py`` → ``pkg``); packages
under ``src/``, ``lib/``, ``python/`` also import by their name without that folder (src-layout).
Relative imports count leading dots. Receivers ``self`` and ``cls`` mean the enclosing class;
``super()`` its bases. Docstrings are the first string of a body; decorators are kept.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict

from codegraph.index.encoding import pep263_encoding
from codegraph.index.extract import CONSTANT_NAME, MAX_DOCSTRING, Def, Extractor, dotted, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

BUILTINS = frozenset(
    """
abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex
delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help
hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord
pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type
vars zip __import__ Exception BaseException ValueError TypeError KeyError IndexError AttributeError
RuntimeError NotImplementedError StopIteration OSError IOError ImportError LookupError AssertionError
""".split()
)
# Folders that hold importable packages without being one (src-layout and its cousins).
SOURCE_ROOTS = frozenset({"src", "lib", "python", "python-package"})


# A dotted name written with nothing but ASCII names and dots (``a``, ``self.b.c``), none of them a
# literal that the grammar gives its own node type (``True``/``False``/``None``)
_PLAIN_DOTTED = re.compile(
    rb"(?!(?:True|False|None)(?:\.|$))[A-Za-z_]\w*(?:\.(?!(?:True|False|None)(?:\.|$))[A-Za-z_]\w*)*"
)
_plain = _PLAIN_DOTTED.fullmatch


def _dotted(node, src: bytes) -> str | None:
    """:func:`~codegraph.index.extract.dotted` of an identifier or attribute chain, read as the
    node's own bytes when they are a plain dotted name and its subtree has no syntax error: such
    bytes parse only as that chain (any space, comment, call, subscript or literal fails the pattern),
    and the walk would join the same names with the same dots. One slice and one match instead of
    two field lookups and a text copy per link (django-sdist: 300,000 calls, the most costly helper
    of the extraction)."""
    t = node.type
    if t == "identifier" or t == "attribute":
        raw = src[node.start_byte : node.end_byte]
        if _plain(raw) is not None and not node.has_error:
            return raw.decode()
    return dotted(node, src)


def _decorated(ts):
    """The ``decorated_definition`` around a class or function, else ``ts`` itself (one ``parent``
    call: tree-sitter finds a parent by walking down from the root, ~0.9 µs a node here)."""
    parent = ts.parent
    return parent if parent is not None and parent.type == "decorated_definition" else ts


class PythonExtractor(Extractor):
    slices_source = True  # one tree of the file's own bytes

    def handle(self, capture: str, ts) -> None:
        src = self.source
        if capture == "call":  # the most frequent capture first
            fn = ts.child_by_field_name("function")
            if fn is None:
                return
            self._passed_values(ts.child_by_field_name("arguments"))
            if fn.type == "identifier":
                self.ref(ts, "calls", text(fn, src), None)
            elif fn.type == "attribute":
                name = _dotted(fn, src)
                if name is None:
                    tail = text(fn.child_by_field_name("attribute"), src)
                    obj = fn.child_by_field_name("object")
                    inner = dotted(obj.child_by_field_name("function"), src) if obj.type == "call" else None
                    if inner and "()" not in inner:  # UserRepo().save(): a method of what the call returns
                        self.ref(ts, "calls", f"{inner}().{tail}", f"{inner}()")
                    else:
                        self.ref(ts, "calls", f"<expr>.{tail}", "<expr>")
                else:
                    self.ref(ts, "calls", name, name.rsplit(".", 1)[0])
        elif capture == "class":
            d = self.add_def(ts, "class", ts.child_by_field_name("name"), _decorated(ts))
            bases = ts.child_by_field_name("superclasses")
            if d is not None and bases is not None:
                for b in bases.named_children:
                    name = _dotted(b, src)
                    if name:
                        self.base_ref(d, "extends", name, b)
        elif capture == "function":
            self.add_def(ts, "function", ts.child_by_field_name("name"), _decorated(ts))
            self._parameter_types(ts)
        elif capture == "import":
            self._import(ts)
        elif capture == "assign":
            self._assign(ts)
        elif capture == "return":
            self.returned_expr(ts)
        elif capture == "params":
            for p in ts.named_children:
                if p.type.endswith("default_parameter"):
                    p = p.child_by_field_name("name")
                elif p.type == "typed_parameter":  # the name, not the names in its annotation
                    p = p.named_children[0] if p.named_child_count else None
                if p is not None and p.type in (
                    "identifier",
                    "list_splat_pattern",
                    "dictionary_splat_pattern",
                ):
                    self.local_pattern(p)
        elif capture == "target":
            self.local_pattern(ts)

    def _passed_values(self, args) -> None:
        """Functions passed as values (``partial(f, 1)``, ``signal.connect(handler)``, ``key=fn``):
        ``value`` references, so impact finds the place that passes them."""
        if args is None or args.type != "argument_list":
            return
        for a in args.named_children:
            if a.type == "keyword_argument":
                a = a.child_by_field_name("value")
            if a is not None and a.type in ("identifier", "attribute"):
                name = _dotted(a, self.source)
                if name:
                    self.call_ref(a, name, "value")

    def _parameter_types(self, ts) -> None:
        params = ts.child_by_field_name("parameters")
        body = ts.child_by_field_name("body")
        if params is None or body is None:
            return
        for p in params.named_children:
            if p.type not in ("typed_parameter", "typed_default_parameter"):
                continue
            ident = p.named_children[0] if p.type == "typed_parameter" else p.child_by_field_name("name")
            typ = p.child_by_field_name("type")
            tname = (
                _dotted(typ.named_child(0), self.source)
                if typ is not None and typ.named_child_count
                else None
            )
            if ident is not None and ident.type == "identifier" and tname:
                self.type_fact(body, text(ident, self.source), tname)

    def node_details(self, node: Node, d: Def) -> None:
        ts = d.ts
        src = self.source
        # a class or function starts before its own node when decorated (its span, see handle); a
        # variable's span is its own node
        if d.start != ts.start_byte:
            parent = ts.parent
            decorators = [squash(text(c, src)[1:], 120) for c in parent.children if c.type == "decorator"]
            node.decorators = decorators or None
        if node.kind in ("function", "method"):
            node.docstring = _docstring(ts.child_by_field_name("body"), src)
            if node.decorators:
                node.is_static = "staticmethod" in node.decorators
                node.is_abstract = (
                    "abc.abstractmethod" in node.decorators or "abstractmethod" in node.decorators
                )
            if node.name.startswith("_") and not node.name.endswith("__"):
                node.visibility = "private"
        elif node.kind == "class":
            node.docstring = _docstring(ts.child_by_field_name("body"), src)

    def _assign(self, ts) -> None:
        left = ts.child_by_field_name("left")
        right = ts.child_by_field_name("right")
        parent = ts.parent
        if parent is not None and parent.type == "expression_statement":
            parent = parent.parent
        if left is None:
            return
        self.local_pattern(left)  # kept only inside a function (see Extractor.local_name)
        if right is not None and right.type in ("boolean_operator", "conditional_expression"):
            # ``self.q = query or sql.Query(model)``: the constructor call among the operands
            right = next((c for c in right.named_children if c.type == "call"), right)
        if right is not None and right.type == "call":
            fn = right.child_by_field_name("function")
            callee = _dotted(fn, self.source) if fn is not None else None
            target = _dotted(left, self.source) if left.type in ("identifier", "attribute") else None
            if callee and target and (left.type == "identifier" or target.startswith("self.")):
                self.type_fact(ts, target, callee)
        if left.type != "identifier" or parent is None:
            return
        at_module = parent.type == "module"
        in_class = (
            parent.type == "block" and parent.parent is not None and parent.parent.type == "class_definition"
        )
        if not (at_module or in_class):
            return
        name = text(left, self.source)
        self.add_def(ts, "constant" if CONSTANT_NAME.match(name) else "variable", left, name=name)
        alias = _alias_of(right, self.source) if at_module else None
        if alias and alias != name:  # path = partial(_path, ...), lazy_thing = thing: calls mean it
            self.out.exports.append((name, alias))

    def _import(self, ts) -> None:
        src = self.source
        if ts.type == "import_statement":
            module = None
            items = []
            for n in ts.children_by_field_name("name"):
                if n.type == "aliased_import":
                    mod = text(n.child_by_field_name("name"), src)
                    items.append((text(n.child_by_field_name("alias"), src), mod, "*"))
                else:
                    mod = text(n, src)
                    items.append((mod, mod, "*"))
                module = module or mod
        else:
            mod_node = ts.child_by_field_name("module_name")
            module = text(mod_node, src) if mod_node is not None else ""
            items = []
            for n in ts.children_by_field_name("name"):
                if n.type == "aliased_import":
                    items.append(
                        (
                            text(n.child_by_field_name("alias"), src),
                            module,
                            text(n.child_by_field_name("name"), src),
                        )
                    )
                else:
                    items.append((text(n, src), module, text(n, src)))
            if any(c.type == "wildcard_import" for c in ts.children):
                items.append(("*", module, "*"))
        if not module:
            return
        nid = self.import_node(ts, module)
        for local, mod, imported in items:
            self.bind(ts, local, mod, imported, node=nid)


def _alias_of(right, src: bytes) -> str | None:
    """The name a module-level assignment only renames: ``x = y`` or ``x = partial(y, …)``."""
    if right is None:
        return None
    if right.type == "identifier":
        return text(right, src)
    if right.type == "call":
        fn = right.child_by_field_name("function")
        args = right.child_by_field_name("arguments")
        if fn is not None and _dotted(fn, src) in ("partial", "functools.partial") and args is not None:
            first = next((a for a in args.named_children if a.type != "comment"), None)
            if first is not None and first.type == "identifier":
                return text(first, src)
    return None


def _docstring(body, src: bytes) -> str | None:
    if body is None or body.named_child_count == 0:
        return None
    first = body.named_child(0)
    if first.type == "expression_statement" and first.named_child_count:
        first = first.named_child(0)
    if first.type != "string":
        return None
    raw = text(first, src).lstrip("rRbBuU")
    for q in ('"""', "'''", '"', "'"):
        if raw.startswith(q) and raw.endswith(q) and len(raw) >= 2 * len(q):
            raw = raw[len(q) : -len(q)]
            break
    return squash(raw, MAX_DOCSTRING) or None


class Python(LanguageModule):
    label = "python"
    constructor_names = ("__init__",)
    instance_factories = frozenset({"__new__"})
    line_comment = "#"
    grammar = "python"
    name = "Python"
    extracts = "classes, functions, methods, module/class variables, decorators, docstrings, signatures"
    resolution = (
        "imports (relative, src-layout, re-exports), self/cls/super() through bases, typed and inferred locals, "
        "return types"
    )
    extensions = (".py", ".pyi")
    builtins = BUILTINS
    lazy_resolution = True  # prepare reads only the paths (its module table)
    self_names = frozenset({"self", "cls"})
    super_names = frozenset({"super()", "super"})
    self_type_exprs = frozenset({"self.__class__", "cls"})
    self_type_annotations = frozenset({"Self"})
    test_prefixes = ("test_",)
    test_suffixes = ("_test.py",)
    generated_suffixes = ("_pb2.py", "_pb2_grpc.py")
    extractor = PythonExtractor

    def declared_encoding(self, data: bytes) -> str | None:
        """The PEP 263 coding cookie on line 1 or 2, if any."""
        return pep263_encoding(data)

    def prepare(self, project, files) -> None:
        modules: dict[str, str] = {}
        src_aliases: dict[str, str] = {}
        for f in files:
            mod = f.path[:-3] if f.path.endswith(".py") else f.path[:-4]
            if mod.endswith("/__init__"):
                mod = mod[: -len("/__init__")]
            modules[mod.replace("/", ".")] = f.path
            head, _, rest = mod.partition("/")
            if head in SOURCE_ROOTS and rest:
                # src-layout: src/flask/__init__.py is imported as `flask`
                src_aliases.setdefault(rest.replace("/", "."), f.path)
        for alias, path in src_aliases.items():
            modules.setdefault(alias, path)
        project.lang_state["python"] = _Modules(modules)

    def resolve_module(self, project, from_path: str, spec: str) -> str | None:
        """File path of a module spec (``..a.b``, ``pkg.mod``) seen from ``from_path``."""
        mods: _Modules = project.lang_state["python"]
        if spec.startswith("."):
            dots = len(spec) - len(spec.lstrip("."))
            base = posixpath.dirname(from_path)
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            rest = spec[dots:]
            full = ".".join(p for p in (base.replace("/", "."), rest) if p)
            return mods.modules.get(full)
        hit = mods.modules.get(spec)
        if hit is not None or "." not in spec:
            return hit
        # src-layout and similar: a unique module whose dotted path ends with the spec
        matches = mods.suffixes().get(spec, ())
        return matches[0] if len(matches) == 1 else None

    def package_member(self, project, path: str, name: str) -> str | None:
        if not path.endswith("__init__.py"):
            return None
        return self.resolve_module(project, path, "." + name)

    def import_fallback(self, project, path: str, binding) -> str | None:
        if binding.imported in ("*", ""):
            return None
        module = binding.module
        spec = (
            module + binding.imported if module.endswith(".") else module.rstrip(".") + "." + binding.imported
        )
        return self.resolve_module(project, path, spec)


class _Modules:
    """Dotted module name → file, and (lazily) dotted suffix → files for src-layout lookups."""

    def __init__(self, modules: dict[str, str]):
        self.modules = modules
        self._suffixes: dict[str, list[str]] | None = None

    def suffixes(self) -> dict[str, list[str]]:
        if self._suffixes is None:
            self._suffixes = defaultdict(list)
            for module, path in self.modules.items():
                parts = module.split(".")
                for i in range(1, len(parts) - 1):
                    bucket = self._suffixes[".".join(parts[i:])]
                    if path not in bucket:
                        bucket.append(path)
        return self._suffixes


LANGUAGES = (Python(),)
