"""References → edges, over the whole project at once. Pure: no I/O.

Resolution order for a bare name (issue 2): enclosing function scopes → the file's import bindings
(following re-exports through index files) → a definition at the top of the same file → a unique
definition of that name in the project → otherwise no edge, and the reference stays unresolved.
Member calls resolve only when the receiver is known: ``self``/``this``/``super`` (the enclosing class
and its bases), an imported module or namespace, a class, or a variable whose type the file states
(``x = Foo()``, ``x: Foo``). A method is never linked just because some class has one of that name,
and builtins (``filter``, ``map``, ``len``…) never bind to project definitions unless imported or
shadowed: a wrong edge is worse than a missing one.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass, field

from codegraph.model import Edge, FileExtraction, Node, Ref

PY_BUILTINS = frozenset(
    """
abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex
delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help
hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord
pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type
vars zip __import__ Exception BaseException ValueError TypeError KeyError IndexError AttributeError
RuntimeError NotImplementedError StopIteration OSError IOError ImportError LookupError AssertionError
""".split()
)
JS_BUILTINS = frozenset(
    """
Array Boolean Date Error EvalError Function JSON Map Math Number Object Promise Proxy RangeError ReferenceError
Reflect RegExp Set String Symbol SyntaxError TypeError URIError WeakMap WeakSet BigInt parseInt parseFloat
isNaN isFinite setTimeout setInterval clearTimeout clearInterval queueMicrotask structuredClone fetch
console require encodeURIComponent decodeURIComponent encodeURI decodeURI escape unescape eval alert
Buffer process globalThis window document
""".split()
)
TS_EXTS = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
TYPE_TARGETS = frozenset({"class", "interface", "type_alias", "enum", "namespace"})
MAX_HOPS = 8
# Folders that hold importable packages without being one (src-layout and its cousins).
SOURCE_ROOTS = frozenset({"src", "lib", "python", "python-package"})


@dataclass
class Resolution:
    """Edges found (contains included) and the references left unresolved."""

    edges: list[Edge] = field(default_factory=list)
    unresolved: list[tuple[Ref, str, str]] = field(default_factory=list)  # (ref, file path, language)


class _Project:
    """Lookup tables over every file's extraction."""

    def __init__(self, files: list[FileExtraction]):
        self.files = {f.path: f for f in files}
        self.nodes: dict[str, Node] = {}
        self.parent: dict[str, str] = {}
        self.children: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
        self.top: dict[str, dict[str, list[Node]]] = {}
        self.global_by_name: dict[str, list[Node]] = defaultdict(list)
        self.py_modules: dict[str, str] = {}
        self.bindings: dict[str, dict[str, object]] = {}
        self.star: dict[str, list] = {}
        self.exports: dict[str, dict[str, str]] = {}
        self.types: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.bases: dict[str, list[str]] = defaultdict(list)
        self._suffixes: dict[str, list[str]] | None = None
        self._module_cache: dict[tuple[str, str], str | None] = {}
        self._scope_cache: dict[str, list[Node]] = {}
        self.returns: dict[str, list[str]] = defaultdict(list)
        self._returns_memo: dict[str, Node | None] = {}
        src_aliases: dict[str, str] = {}
        for f in files:
            file_id = f"file:{f.path}"
            top: dict[str, list[Node]] = defaultdict(list)
            for n in f.nodes:
                self.nodes[n.id] = n
            for parent, child in f.contains:
                self.parent[child] = parent
                node = self.nodes[child]
                if node.kind == "import":
                    continue
                self.children[parent][node.name].append(node)
                if parent == file_id:
                    top[node.name].append(node)
                    if node.kind in ("function", "class", "interface", "type_alias", "enum", "namespace"):
                        self.global_by_name[node.name].append(node)
            self.top[f.path] = top
            binds: dict[str, object] = {}
            stars = []
            for b in f.imports:
                if b.local == "*":
                    stars.append(b)
                elif b.local:
                    binds[b.local] = b
            self.bindings[f.path] = binds
            self.star[f.path] = stars
            self.exports[f.path] = dict(f.exports)
            for scope, var, type_name in f.assigned_types:
                self.types[scope][var].add(type_name)
            for fn_id, expr in f.returns:
                self.returns[fn_id].append(expr)
            if f.language == "python":
                mod = f.path[:-3] if f.path.endswith(".py") else f.path[:-4]
                if mod.endswith("/__init__"):
                    mod = mod[: -len("/__init__")]
                self.py_modules[mod.replace("/", ".")] = f.path
                head, _, rest = mod.partition("/")
                if head in SOURCE_ROOTS and rest:
                    # src-layout: src/flask/__init__.py is imported as `flask`
                    src_aliases.setdefault(rest.replace("/", "."), f.path)

        for alias, path in src_aliases.items():
            self.py_modules.setdefault(alias, path)

    # ------------------------------------------------------------ modules
    def python_module(self, from_path: str, spec: str) -> str | None:
        """File path of a Python module spec (``..a.b``, ``pkg.mod``) seen from ``from_path``."""
        if spec.startswith("."):
            dots = len(spec) - len(spec.lstrip("."))
            base = posixpath.dirname(from_path)
            for _ in range(dots - 1):
                base = posixpath.dirname(base)
            rest = spec[dots:]
            full = ".".join(p for p in (base.replace("/", "."), rest) if p)
            return self.py_modules.get(full)
        hit = self.py_modules.get(spec)
        if hit is not None or "." not in spec:
            return hit
        # src-layout and similar: a unique module whose dotted path ends with the spec
        if self._suffixes is None:
            self._suffixes = defaultdict(list)
            for module, path in self.py_modules.items():
                parts = module.split(".")
                for i in range(1, len(parts) - 1):
                    bucket = self._suffixes[".".join(parts[i:])]
                    if path not in bucket:
                        bucket.append(path)
        matches = self._suffixes.get(spec, ())
        return matches[0] if len(matches) == 1 else None

    def es_module(self, from_path: str, spec: str) -> str | None:
        if not spec.startswith("."):
            return None
        base = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), spec))
        stem = base
        for ext in (".js", ".jsx", ".mjs", ".cjs"):
            if base.endswith(ext):
                stem = base[: -len(ext)]
        candidates = [base] + [stem + e for e in TS_EXTS] + [f"{base}/index{e}" for e in TS_EXTS]
        for c in candidates:
            if c in self.files:
                return c
        return None

    def module_file(self, from_path: str, spec: str) -> str | None:
        key = (from_path, spec)
        if key not in self._module_cache:
            self._module_cache[key] = (
                self.python_module(from_path, spec)
                if self.files[from_path].language == "python"
                else self.es_module(from_path, spec)
            )
        return self._module_cache[key]

    # ------------------------------------------------------------ names
    def export_of(self, path: str, name: str, depth: int = 0) -> Node | str | None:
        """What ``name`` means when imported from file ``path``: a node, a file path (a submodule or a
        namespace), or None. Follows re-exports and star imports up to MAX_HOPS."""
        if depth > MAX_HOPS:
            return None
        local = self.exports[path].get(name)
        if local is not None and local != name:
            return (
                self.export_of(path, local, depth + 1)
                if local in self.top[path] or local in self.bindings[path]
                else None
            )
        hits = self.top[path].get(name)
        if hits:
            return hits[-1]
        binding = self.bindings[path].get(name)
        if binding is not None:
            target = self.binding_target(path, binding, depth + 1)
            if target is not None:
                return target
        if self.files[path].language == "python" and path.endswith("__init__.py"):
            sub = self.python_module(path, "." + name)
            if sub is not None:
                return sub
        for star in self.star[path]:
            mod = self.module_file(path, star.module)
            if mod is not None and mod != path:
                target = self.export_of(mod, name, depth + 1)
                if target is not None:
                    return target
        return None

    def binding_target(self, path: str, binding, depth: int = 0) -> Node | str | None:
        mod = self.module_file(path, binding.module)
        if binding.imported in ("*", ""):
            if mod is None and self.files[path].language == "python" and binding.module.startswith("."):
                return None
            return mod
        if mod is None:
            # ``from . import views`` where views is a module beside this file
            if self.files[path].language == "python":
                return self.python_module(
                    path,
                    binding.module.rstrip(".") + "." + binding.imported
                    if not binding.module.endswith(".")
                    else binding.module + binding.imported,
                )
            return None
        if binding.imported == "default":
            default = self.exports[mod].get("default")
            if default is None:
                return None
            return self.export_of(mod, default, depth + 1)
        return self.export_of(mod, binding.imported, depth + 1)

    def scopes(self, source_id: str) -> list[Node]:
        """Enclosing definitions of ``source_id`` from the innermost out (the node itself first)."""
        chain = self._scope_cache.get(source_id)
        if chain is None:
            chain = []
            sid = source_id
            while sid is not None and not sid.startswith("file:"):
                chain.append(self.nodes[sid])
                sid = self.parent.get(sid)
            self._scope_cache[source_id] = chain
        return chain

    def enclosing_class(self, source_id: str) -> Node | None:
        for n in self.scopes(source_id):
            if n.kind in ("class", "interface"):
                return n
        return None

    def lookup_bare(
        self,
        path: str,
        source_id: str,
        name: str,
        *,
        allow_unique: bool,
        wanted: frozenset[str] | None = None,
    ) -> tuple[Node | str | None, str]:
        """Resolve a bare identifier seen in ``path`` inside ``source_id``. Returns (target, how)."""
        for scope in self.scopes(source_id):
            if scope.kind in ("function", "method"):
                hits = self.children.get(scope.id, {}).get(name)
                if hits:
                    return hits[-1], "local"
        binding = self.bindings[path].get(name)
        if binding is not None:
            return self.binding_target(path, binding), "import"
        hits = self.top[path].get(name)
        if hits:
            return hits[-1], "local"
        for star in self.star[path]:
            mod = self.module_file(path, star.module)
            if mod is not None and mod != path:
                target = self.export_of(mod, name)
                if target is not None:
                    return target, "import"
        language = self.files[path].language
        builtins = PY_BUILTINS if language == "python" else JS_BUILTINS
        if not allow_unique or name in builtins:
            return None, ""
        same_family = language == "python"
        candidates = [
            n
            for n in self.global_by_name.get(name, ())
            if (n.language == "python") == same_family and (wanted is None or n.kind in wanted)
        ]
        if len(candidates) == 1:
            return candidates[0], "exact-match"
        return None, ""

    def member(self, class_id: str, name: str) -> Node | None:
        """``name`` defined in class ``class_id`` or (breadth-first) one of its bases in the project."""
        seen = set()
        queue = [class_id]
        while queue:
            cid = queue.pop(0)
            if cid in seen or len(seen) > 32:
                continue
            seen.add(cid)
            hits = self.children.get(cid, {}).get(name)
            if hits:
                return hits[-1]
            queue.extend(self.bases.get(cid, ()))
        return None

    def type_of(self, path: str, source_id: str, var: str) -> Node | None:
        """The class a variable holds, when the scope states exactly one type for it."""
        scope_ids = [n.id for n in self.scopes(source_id)] + [f"file:{path}"]
        if var.startswith(("self.", "this.")):
            cls = self.enclosing_class(source_id)
            scope_ids = [cls.id] if cls is not None else []
        for sid in scope_ids:
            names = self.types.get(sid, {}).get(var)
            if not names:
                continue
            if len(names) != 1:
                return None
            return self.class_of(path, source_id, next(iter(names)))
        return None

    def class_of(self, path: str, scope_id: str, expr: str) -> Node | None:
        """The class an expression names or produces: a type name (``Foo``, ``mod.Foo``), or a
        callee whose result it is (``Foo`` constructs a Foo; ``self._chain`` / ``make_query`` give
        what that function returns)."""
        if expr in ("self.__class__", "cls", "this.constructor"):
            return self.enclosing_class(scope_id)
        if expr.startswith(("self.", "this.")) and expr.count(".") == 1:
            cls = self.enclosing_class(scope_id)
            method = self.member(cls.id, expr.split(".", 1)[1]) if cls is not None else None
            return self.return_class(method) if method is not None else None
        target = self.resolve_dotted(path, scope_id, expr)
        if not isinstance(target, Node):
            return None
        if target.kind in TYPE_TARGETS:
            return target
        if target.kind in ("function", "method"):
            return self.return_class(target)
        return None

    def return_class(self, fn: Node) -> Node | None:
        """The one class every ``return`` of ``fn`` produces (or its return annotation names), else
        None. ``return self`` / ``self.__class__(...)`` give the enclosing class."""
        if fn.id in self._returns_memo:
            return self._returns_memo[fn.id]
        self._returns_memo[fn.id] = None  # recursion guard: a cycle resolves to unknown
        path = fn.file_path
        found: Node | None = None
        annotation = (fn.return_type or "").strip().strip("'\"").split("[")[0].split("<")[0].strip()
        if annotation in ("Self", "this"):
            found = self.enclosing_class(fn.id)
        elif annotation and annotation.replace(".", "").replace("_", "").isalnum():
            target = self.resolve_dotted(path, fn.id, annotation)
            found = target if isinstance(target, Node) and target.kind in TYPE_TARGETS else None
        else:
            classes = set()
            exprs = self.returns.get(fn.id, ())
            for expr in exprs:
                if expr == "self":
                    cls = self.enclosing_class(fn.id)
                elif expr.startswith("var:"):
                    cls = self.type_of(path, fn.id, expr[4:])
                elif expr.startswith("call:"):
                    cls = self.class_of(path, fn.id, expr[5:])
                else:
                    cls = None
                if cls is None:
                    classes = set()
                    break
                classes.add(cls.id)
            if len(classes) == 1:
                found = self.nodes[classes.pop()]
        self._returns_memo[fn.id] = found
        return found

    def resolve_dotted(self, path: str, source_id: str, dotted: str) -> Node | str | None:
        """``a.b.C`` where ``a`` is an import/module/class: walk the chain."""
        parts = dotted.split(".")
        # longest import binding that matches a prefix (``import os.path`` binds ``os.path``)
        for cut in range(len(parts), 0, -1):
            head = ".".join(parts[:cut])
            binding = self.bindings[path].get(head)
            if binding is not None:
                current = self.binding_target(path, binding)
                rest = parts[cut:]
                break
        else:
            current, _ = self.lookup_bare(path, source_id, parts[0], allow_unique=True, wanted=TYPE_TARGETS)
            rest = parts[1:]
        for part in rest:
            if current is None:
                return None
            if isinstance(current, str):
                current = self.export_of(current, part)
            elif current.kind in TYPE_TARGETS:
                current = self.member(current.id, part)
            else:
                return None
        return current


def _edge(source: str, target: Node, kind: str, ref: Ref, how: str, confidence: float) -> Edge:
    meta = {"confidence": confidence, "resolvedBy": how, "refName": ref.name}
    if kind != ref.kind:
        meta["refKind"] = ref.kind
    return Edge(source, target.id, kind, ref.line, ref.col, meta)


def resolve(files: list[FileExtraction]) -> Resolution:
    """Resolve every file's references against the whole project.

    Returns:
        A :class:`Resolution` with contains, imports, calls, instantiates, extends, implements and
        references edges, and the references that resolved to nothing in the project.
    """
    project = _Project(files)
    out = Resolution()
    edges = out.edges
    for f in files:
        for parent, child in f.contains:
            edges.append(Edge(parent, child, "contains"))
    # bases first: member lookups through inheritance need them
    for f in files:
        for ref in f.refs:
            if ref.kind in ("extends", "implements"):
                target = project.resolve_dotted(f.path, ref.source, ref.name)
                if isinstance(target, Node) and target.kind in TYPE_TARGETS and target.id != ref.source:
                    if ref.kind == "extends":
                        project.bases[ref.source].append(target.id)
                    edges.append(_edge(ref.source, target, ref.kind, ref, "import", 0.9))
                else:
                    out.unresolved.append((ref, f.path, f.language))
    seen: set[tuple[str, str, str]] = set()
    for f in files:
        file_id = f"file:{f.path}"
        for b in f.imports:
            mod = project.module_file(f.path, b.module)
            if mod is not None and (file_id, f"file:{mod}", "imports") not in seen:
                seen.add((file_id, f"file:{mod}", "imports"))
                edges.append(
                    Edge(
                        file_id,
                        f"file:{mod}",
                        "imports",
                        b.line,
                        b.col,
                        {"confidence": 0.9, "resolvedBy": "import", "refName": b.module},
                    )
                )
            if b.imported not in ("*", "", "default") or b.imported == "default":
                target = project.binding_target(f.path, b) if b.local else None
                if isinstance(target, Node) and (file_id, target.id, "imports") not in seen:
                    seen.add((file_id, target.id, "imports"))
                    edges.append(
                        Edge(
                            file_id,
                            target.id,
                            "imports",
                            b.line,
                            b.col,
                            {"confidence": 0.9, "resolvedBy": "import", "refName": b.imported},
                        )
                    )
        for ref in f.refs:
            if ref.kind in ("extends", "implements"):
                continue
            target, how = _resolve_ref(project, f.path, ref)
            if target is None:
                out.unresolved.append((ref, f.path, f.language))
                continue
            if ref.kind == "references":
                kind = "references"
            elif target.kind in TYPE_TARGETS:
                kind = "instantiates"
            else:
                kind = "calls"
            key = (ref.source, target.id, kind)
            if kind == "references" and key in seen:
                continue
            seen.add(key)
            edges.append(_edge(ref.source, target, kind, ref, how, 0.9 if how != "exact-match" else 0.8))
    return out


def _resolve_ref(project: _Project, path: str, ref: Ref) -> tuple[Node | None, str]:
    name = ref.name
    if ref.kind == "references":
        target, how = project.lookup_bare(path, ref.source, name, allow_unique=True, wanted=TYPE_TARGETS)
        return (target, how) if isinstance(target, Node) and target.kind in TYPE_TARGETS else (None, "")
    if ref.receiver is None:
        target, how = project.lookup_bare(
            path, ref.source, name, allow_unique=True, wanted=frozenset({"function", "class"})
        )
        if isinstance(target, Node) and target.kind in ("function", "method", "class"):
            return target, how
        return None, ""
    recv = ref.receiver
    method = name.rsplit(".", 1)[-1]
    if recv in ("self", "this", "cls"):
        cls = project.enclosing_class(ref.source)
        if cls is None:
            return None, ""
        target = project.member(cls.id, method)
        return (
            (target, "self")
            if target is not None and target.kind in ("method", "function", "property") and _callable(target)
            else (None, "")
        )
    if recv in ("super()", "super"):
        cls = project.enclosing_class(ref.source)
        if cls is None:
            return None, ""
        for base in project.bases.get(cls.id, ()):
            target = project.member(base, method)
            if target is not None and _callable(target):
                return target, "super"
        return None, ""
    if recv.startswith("<"):
        return None, ""
    head = recv.split(".", 1)[0]
    if head in ("self", "this"):
        typed = project.type_of(path, ref.source, recv)
    else:
        typed = project.type_of(path, ref.source, recv) if "." not in recv else None
    if typed is not None:
        target = project.member(typed.id, method)
        return (target, "type-inference") if target is not None and _callable(target) else (None, "")
    if head in ("self", "this"):
        return None, ""
    target = project.resolve_dotted(path, ref.source, name)
    if isinstance(target, Node) and _callable(target):
        return target, "import" if head in project.bindings[path] else "qualified"
    return None, ""


def _callable(node: Node) -> bool:
    return node.kind in ("function", "method", "class") or (
        node.kind == "property" and node.signature is not None
    )
