"""What Java and Kotlin share: packages, imports, and how a name in a class body is resolved.

Both languages address a type as ``package.Type`` (``package.Outer.Inner`` when nested); a package
is every file that declares it, wherever the files sit, and its types (Kotlin: its top-level
functions too) are visible to each other without imports. The two languages see each other's
packages (one family, ``jvm``), as they do in a mixed Android module.

Resolution (``JvmLanguage.resolve_ref``), a wrong edge being worse than a missing one:

- a type name: the enclosing classes and the types nested in them (and in their bases) → single-type
  imports (Kotlin: also ``as`` aliases) → the file's own top-level types → the package's → on-demand
  imports (``a.b.*``) → a fully qualified name. Anything else (``String``, ``List``) is outside the
  project: no unique-name fallback.
- a bare call: (Kotlin: local functions →) methods of the enclosing classes, innermost first, with
  their bases → static imports (Kotlin: explicit imports, the file's and the package's top-level
  functions, on-demand imports) → (Kotlin: a type, i.e. a constructor call). Builtins only ever
  bind through those rules.
- ``recv.m()``: the receiver's type from ``this`` / ``super`` / ``Outer.this`` / ``this@Outer``, a
  local, parameter or field whose declaration states it (or whose initializer is a constructor or
  a call with a declared return type), a type name (a static call; Kotlin: companion and ``object``
  members), a chain of those; then ``m`` in that type or its bases. Kotlin extension functions
  match when the receiver's type (or, with an unknown receiver, an explicit import) says so. An
  untyped receiver never binds by name.
- overloads: candidates are filtered by argument count (varargs and Kotlin default values
  counted); when several remain in one class, or the nearest class's one fits and a base's with
  other parameter types fits too, the edge points at the nearest first with resolvedBy
  ``overload-guess`` and a lower confidence, never silently.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from codegraph.index.extract import MAX_DOCSTRING, squash, text
from codegraph.index.languages.base import LanguageModule
from codegraph.model import Node

TYPE_KINDS = frozenset({"class", "interface", "enum"})
CALLABLE_KINDS = frozenset({"method", "function"})
MAX_BASES = 32
MAX_CHAIN = 6
_GENERICS = re.compile(r"<[^<>]*>")


def strip_generics(name: str) -> str:
    """``Map<String, List<Foo>>`` → ``Map``; ``Foo?`` → ``Foo``."""
    prev = None
    while prev != name:
        prev, name = name, _GENERICS.sub("", name)
    return name.replace("?", "").replace(" ", "").strip()


def doc_comment(ts) -> str | None:
    """The ``/** … */`` block right before a declaration (annotations sit inside it), as text."""
    prev = ts.prev_sibling
    while prev is not None and prev.type in ("line_comment",) and not text(prev).startswith("/**"):
        prev = prev.prev_sibling
    if prev is None or prev.type not in ("block_comment", "multiline_comment"):
        # Kotlin puts a comment that precedes a declaration inside the previous node (import list…)
        prev = _last_leaf_comment(ts.prev_sibling)
        if prev is None:
            return None
    if prev.end_point[0] < ts.start_point[0] - 1:
        return None
    raw = text(prev)
    if not raw.startswith("/**"):
        return None
    raw = re.sub(r"^/\*\*|\*/$", "", raw)
    lines = [line.strip().lstrip("*").strip() for line in raw.splitlines()]
    return squash("\n".join(lines), MAX_DOCSTRING) or None


def _last_leaf_comment(node):
    while node is not None and node.child_count:
        last = node.children[-1]
        if last.type in ("block_comment", "multiline_comment"):
            return last
        node = last
    return None


@lru_cache(maxsize=65536)
def _params(signature: str) -> tuple[str, ...]:
    """The top-level parameters of ``(a, b = 1, vararg c)``, stripped; () when it is no list."""
    sig = signature.strip()
    if not sig.startswith("("):
        return ()
    depth = 0
    parts: list[str] = []
    cur: list[str] = []
    for ch in sig[1:]:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return tuple(p.strip() for p in parts if p.strip())


@lru_cache(maxsize=65536)
def param_range(signature: str | None) -> tuple[int, float] | None:
    """(fewest, most) arguments a parameter list ``(a, b = 1, vararg c)`` accepts; None unknown."""
    if signature is None or not signature.strip().startswith("("):
        return None
    parts = _params(signature)
    most: float = len(parts)
    fewest = len(parts)
    for p in parts:
        top = _top_level(p)
        if "..." in p or re.search(r"\bvararg\b", p):
            most = float("inf")
            fewest -= 1
        elif "=" in top:
            fewest -= 1
    return fewest, most


def param_types(signature: str | None) -> tuple[str, ...] | None:
    """The parameter types of a signature, names, modifiers and defaults left out: Java's
    ``(final int a, String... b)`` and Kotlin's ``(a: Int, vararg b: String = "")`` both give
    their types in order, so an override and its base compare equal; None when unknown."""
    if signature is None or not signature.strip().startswith("("):
        return None
    out = []
    for p in _params(signature):
        p = _MODIFIERS.sub(" ", p)
        colon = _top_index(p, ":")
        if colon is not None:  # Kotlin / Scala: name: Type = default
            p = p[colon + 1 :]
            eq = _top_index(p, "=")
            p = p if eq is None else p[:eq]
        else:  # Java: Type name
            p = _TRAILING_NAME.sub("", p.strip()) or p
        out.append("".join(p.split()))
    return tuple(out)


_MODIFIERS = re.compile(r"@[\w.]+(\([^)]*\))?|\b(final|vararg|val|var|implicit|using)\b")
_TRAILING_NAME = re.compile(r"\s*\b\w+\s*$")


def _top_index(param: str, char: str) -> int | None:
    """Where ``char`` first occurs outside brackets in ``param``, or None."""
    depth = 0
    for i, ch in enumerate(param):
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif ch == char and depth == 0:
            return i
    return None


def _top_level(param: str) -> str:
    out: list[str] = []
    depth = 0
    for ch in param:
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def split_chain(chain: str) -> list[str]:
    """``a.b().c`` → ``["a", "b()", "c"]`` (dots inside parentheses kept)."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in chain:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "." and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


class JvmIndex:
    """Per-project tables shared by Java and Kotlin: packages, types by qualified name, bases."""

    def __init__(self, project):
        self.project = project
        self.packages: dict[str, list[str]] = defaultdict(list)
        self.file_package: dict[str, str] = {}
        self.types: dict[str, Node] = {}
        self.pkg_types: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
        self.pkg_functions: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
        # Kotlin top-level properties (``val registry = Registry()``), package -> name -> nodes
        self.pkg_properties: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
        self.receivers: dict[str, str] = {}  # Kotlin extension function id -> receiver type text
        self._bases: dict[str, list[Node]] = {}
        self._base_refs: dict[str, dict[str, list]] = {}
        self._lineage: dict[str, list[Node]] = {}
        self._busy = 0
        self._type_cache: dict[tuple[str, str, str], Node | None] = {}

    def add(self, files) -> None:
        project = self.project
        for f in files:
            pkg = f.package or ""
            self.packages[pkg].append(f.path)
            self.file_package[f.path] = pkg
            for name, nodes in project.top[f.path].items():
                for n in nodes:
                    if n.kind in TYPE_KINDS:
                        self._add_type(f"{pkg}.{name}" if pkg else name, n)
                        self.pkg_types[pkg][name].append(n)
                    elif n.kind == "function":
                        self.pkg_functions[pkg][name].append(n)
                    elif n.kind in ("variable", "constant"):
                        self.pkg_properties[pkg][name].append(n)
            for n in f.nodes:
                if n.kind == "function":
                    rec = project.types.get(n.id, {}).get("<receiver>")
                    if rec and len(rec) == 1:
                        self.receivers[n.id] = next(iter(rec))

    def _add_type(self, fq: str, node: Node) -> None:
        """``node`` under ``fq`` and its nested types under ``fq.Inner``, outer first. A loop, not
        recursion: 2,000 nested classes (a generated file) exceeded Python's recursion limit."""
        stack = [(fq, node)]
        while stack:
            fq, node = stack.pop()
            self.types.setdefault(fq, node)
            nested = [
                (f"{fq}.{name}", k)
                for name, kids in self.project.children.get(node.id, {}).items()
                for k in kids
                if k.kind in TYPE_KINDS
            ]
            stack.extend(reversed(nested))


class JvmLanguage(LanguageModule):
    """A JVM language: Java or Kotlin. Subclasses set the facts and ``constructor_calls_bare``."""

    family = "jvm"
    unique_fallback = False
    packages_are_directories = True
    constructor_calls_bare = False
    default_builtins: frozenset[str] = frozenset()

    # ------------------------------------------------------------ project tables
    def prepare(self, project, files) -> None:
        state = project.lang_state.get("jvm")
        if state is None:
            state = project.lang_state["jvm"] = JvmIndex(project)
        state.add(files)

    def _index(self, project) -> JvmIndex:
        return project.lang_state["jvm"]

    def resolve_module(self, project, from_path: str, spec: str) -> str | list[str] | None:
        """A package's files, or the file of a type (``a.b.C``, ``static a.b.C``)."""
        idx = self._index(project)
        spec = spec.removeprefix("static ")
        if spec in idx.packages:
            return list(idx.packages[spec])
        node = idx.types.get(spec)
        return node.file_path if node is not None else None

    def visible_files(self, project, path: str) -> list[str]:
        idx = self._index(project)
        return [p for p in idx.packages.get(idx.file_package.get(path, ""), ()) if p != path]

    def resolve_ref(self, project, path: str, ref) -> tuple[Node | None, str]:
        return _Resolver(self, project, path, ref.source).resolve(ref)


class _Resolver:
    """Resolution of one reference (see the module docstring for the rules)."""

    def __init__(self, lang: JvmLanguage, project, path: str, source: str):
        self.lang = lang
        self.project = project
        self.idx: JvmIndex = project.lang_state["jvm"]
        self.path = path
        self.source = source
        self.own_only: str | None = None

    # ------------------------------------------------------------ entry
    def resolve(self, ref) -> tuple[Node | None, str]:
        kind, name = ref.kind, ref.name
        if kind in ("extends", "implements"):
            self.own_only = self.source
            t = self._type_named(self.path, self.source, name)
            return (t, "import") if t is not None and t.id != self.source else (None, "")
        if kind == "instantiates":
            t = self.type_named(self.path, self.source, name)
            return (t, "import") if t is not None else (None, "")
        arity = ref.arity
        recv = ref.receiver
        if recv is None:
            if name in ("this", "super") and kind == "calls":
                return self.delegation(name, arity)
            return self.bare(name, arity, want_type=kind != "references")
        if recv.startswith("<"):
            return None, ""
        method = name.rsplit(".", 1)[-1]
        return self.member_call(recv, method, arity)

    # ------------------------------------------------------------ scopes
    def scopes(self, source: str | None = None) -> list[Node]:
        return self.project.scopes(source or self.source)

    def enclosing_types(self, source: str | None = None, path: str | None = None) -> list[Node]:
        """Types around ``source``, innermost first; a method of an anonymous class puts the type it
        extends first when that type is in the project."""
        out = []
        path = path or self.path
        for n in self.scopes(source):
            if n.kind in TYPE_KINDS:
                out.append(n)
            elif n.kind in CALLABLE_KINDS:
                facts = self.project.types.get(n.id, {})
                for marker in ("<anon>", "<receiver>"):  # an anonymous class's base; an extension's receiver
                    hit = facts.get(marker)
                    if hit and len(hit) == 1:
                        t = self.type_named(path, self.project.parent.get(n.id, n.id), next(iter(hit)))
                        if t is not None:
                            out.append(t)
        return out

    def bases(self, node: Node) -> list[Node]:
        """Direct supertypes in the project (extends and implements), in source order."""
        cached = self.idx._bases.get(node.id)
        if cached is not None:
            return cached
        self.idx._bases[node.id] = []  # cycle guard
        self.idx._busy += 1
        out = []
        refs = self.idx._base_refs.get(node.file_path)
        if refs is None:
            refs = self.idx._base_refs[node.file_path] = defaultdict(list)
            f = self.project.files.get(node.file_path)
            for r in f.refs if f is not None else ():
                if r.kind in ("extends", "implements"):
                    refs[r.source].append(r)
        resolver = _Resolver(self.project.lang[node.file_path], self.project, node.file_path, node.id)
        resolver.own_only = node.id  # the class's own clause: its inherited members are not in scope yet
        for r in refs.get(node.id, ()):
            t = resolver._type_named(node.file_path, node.id, r.name)
            if t is not None and t.id != node.id:
                out.append(t)
        self.idx._bases[node.id] = out
        self.idx._busy -= 1
        return out

    def lineage(self, node: Node) -> list[Node]:
        """``node`` and its supertypes, breadth-first (superclass chain before interfaces)."""
        cached = self.idx._lineage.get(node.id)
        if cached is not None:
            return cached
        seen: set[str] = set()
        out: list[Node] = []
        queue = [node]
        while queue and len(out) < MAX_BASES:
            n = queue.pop(0)
            if n.id in seen:
                continue
            seen.add(n.id)
            out.append(n)
            queue.extend(self.bases(n))
        if not self.idx._busy:  # not while some class's bases are half known
            self.idx._lineage[node.id] = out
        return out

    def companion(self, node: Node) -> Node | None:
        for kids in self.project.children.get(node.id, {}).values():
            for k in kids:
                if k.kind == "class" and (k.signature or "").startswith("companion object"):
                    return k
        return None

    # ------------------------------------------------------------ types
    def type_named(self, path: str, source: str, name: str) -> Node | None:
        key = (path, source, name)
        cache = self.idx._type_cache
        if key in cache:
            return cache[key]
        cache[key] = None
        found = self._type_named(path, source, name)
        cache[key] = found
        return found

    def _type_named(self, path: str, source: str, name: str) -> Node | None:
        name = strip_generics(name)
        if not name or name == "?":
            return None
        parts = name.split(".")
        cur = self.simple_type(path, source, parts[0])
        rest = parts[1:]
        if cur is None:
            for cut in range(len(parts), 0, -1):
                hit = self.idx.types.get(".".join(parts[:cut]))
                if hit is not None:
                    cur, rest = hit, parts[cut:]
                    break
        for part in rest:
            if cur is None:
                return None
            cur = self.nested(cur, part)
        return cur

    def nested(self, node: Node, name: str) -> Node | None:
        for t in self.lineage(node) if node.id != self.own_only else [node]:
            for k in self.project.children.get(t.id, {}).get(name, ()):
                if k.kind in TYPE_KINDS:
                    return k
        return None

    def simple_type(self, path: str, source: str, name: str) -> Node | None:
        project, idx = self.project, self.idx
        src = source if not source.startswith("file:") else None
        if src is not None:
            for t in self.enclosing_types(src, path):
                if t.name == name:
                    return t
                hit = self.nested(t, name)
                if hit is not None:
                    return hit
        b = project.bindings[path].get(name)
        if b is not None and not b.module.startswith("static "):
            hit = idx.types.get(f"{b.module}.{b.imported}")
            if hit is not None:
                return hit
            # Kotlin: import a.b.f binds a function, not a type
        for n in project.top[path].get(name, ()):
            if n.kind in TYPE_KINDS:
                return n
        pkg = idx.file_package.get(path, "")
        hits = [n for n in idx.pkg_types.get(pkg, {}).get(name, ()) if n.file_path != path]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            return None
        found = []
        for star in project.star[path]:
            module = star.module
            if module.startswith("static "):
                owner = idx.types.get(module[7:])
                hit = self.nested(owner, name) if owner is not None else None
            else:
                hit = idx.types.get(f"{module}.{name}")
                if hit is None and module in idx.types:
                    hit = self.nested(idx.types[module], name)
            if hit is not None and hit not in found:
                found.append(hit)
        return found[0] if len(found) == 1 else None

    # ------------------------------------------------------------ values
    def var_facts(self, source: str, var: str) -> set[str] | None:
        """What the nearest scope around ``source`` states about ``var`` (locals, parameters, then
        fields of the enclosing classes and their bases, then the file's top level)."""
        types = self.project.types
        for n in self.scopes(source):
            if n.kind in TYPE_KINDS:
                for t in self.lineage(n):
                    facts = types.get(t.id, {}).get(var)
                    if facts:
                        return facts
            else:
                facts = types.get(n.id, {}).get(var)
                if facts:
                    return facts
        facts = types.get(f"file:{self.path}", {}).get(var)
        return facts or None

    def fact_type(self, path: str, scope: str, fact: str, depth: int) -> Node | None:
        if fact.startswith("T:"):
            return self.type_named(path, scope, fact[2:])
        if fact.startswith("E:"):
            return self.chain_type(fact[2:], depth + 1, source=scope)[0]
        if fact.startswith("I:"):  # an element of an iterable (Kotlin for loops)
            facts = self.var_facts(scope, fact[2:])
            if facts and len(facts) == 1:
                inner = next(iter(facts))
                if inner.startswith("T:") and "<" in inner:
                    args = inner[inner.index("<") + 1 : inner.rindex(">")]
                    if "," not in args:
                        return self.type_named(path, scope, args.strip())
        return None

    def chain_type(self, chain: str, depth: int = 0, source: str | None = None) -> tuple[Node | None, str]:
        """The type an expression chain evaluates to, and ``static`` when it names a type (so
        ``Foo.bar()`` is a static call) or ``super`` for the bases of the enclosing class."""
        if depth > MAX_CHAIN:
            return None, ""
        source = source or self.source
        parts = split_chain(chain)
        head = parts[0]
        mode = ""
        cur: Node | None = None
        rest = parts[1:]
        if head in self.lang.self_names:
            types = self.enclosing_types(source)
            cur = types[0] if types else None
        elif head in self.lang.super_names:
            types = self.enclosing_types(source)
            if not types:
                return None, ""
            bases = self.bases(types[0])
            cur, mode = (types[0], "super") if bases else (None, "")
        elif head.startswith("this@"):
            label = head[5:]
            cur = next((t for t in self.enclosing_types(source) if t.name == label), None)
        elif head.startswith("new "):
            cur = self.type_named(self.path, source, head[4:-2])
        elif head.endswith("()"):
            target, _ = _Resolver(self.lang, self.project, self.path, source).bare(
                head[:-2], None, want_type=True
            )
            cur = self.result_type(target, depth)
        else:
            facts = self.var_facts(source, head)
            if facts:
                if len(facts) != 1:
                    return None, ""
                fact = next(iter(facts))
                scope = self._fact_scope(source, head)
                cur = self.fact_type(
                    self.project.nodes[scope].file_path if scope in self.project.nodes else self.path,
                    scope,
                    fact,
                    depth,
                )
            elif (props := self.package_property(head)) is not None:
                if len(props) != 1:
                    return None, ""
                prop = props[0]
                facts = self.project.types.get(f"file:{prop.file_path}", {}).get(prop.name)
                if not facts or len(facts) != 1:
                    return None, ""
                scope = f"file:{prop.file_path}"
                there = _Resolver(self.project.lang[prop.file_path], self.project, prop.file_path, scope)
                cur = there.fact_type(prop.file_path, scope, next(iter(facts)), depth)
            else:
                cur = self.type_named(self.path, source, head)
                if cur is not None:
                    mode = "static"
                else:
                    for cut in range(len(parts), 1, -1):
                        hit = self.idx.types.get(".".join(parts[:cut]))
                        if hit is not None:
                            cur, rest, mode = hit, parts[cut:], "static"
                            break
        for part in rest:
            if cur is None:
                return None, ""
            if part == "this":  # Outer.this
                mode = ""
                continue
            if part.endswith("()"):
                cands = self.methods(cur, part[:-2], static=mode == "static")
                target, _ = self.pick(cands, None)
                cur, mode = self.result_type(target, depth), ""
                continue
            field_type = self.field_type(cur, part, depth)
            if field_type is not None:
                cur, mode = field_type, ""
                continue
            nested = self.nested(cur, part)
            if nested is not None:
                cur, mode = nested, "static"
                continue
            if cur.kind == "enum" and any(
                k.kind == "enum_member" for k in self.project.children.get(cur.id, {}).get(part, ())
            ):
                mode = ""  # Color.RED is a Color
                continue
            return None, ""
        return cur, mode

    def package_property(self, name: str) -> list[Node] | None:
        """Kotlin: the top-level properties ``name`` may mean where no local, member or property of
        this file does: an explicit import of it, else this package's, else star-imported packages'
        (Kotlin's order). None when no property has that name (or an import binds it to something
        else); the caller reads a type off exactly one."""
        idx, project = self.idx, self.project
        if not self.lang.constructor_calls_bare or not idx.pkg_properties or name in project.top[self.path]:
            return None
        b = project.bindings[self.path].get(name)
        if b is not None:
            return idx.pkg_properties.get(b.module, {}).get(b.imported) or None
        pkg = idx.file_package.get(self.path, "")
        same = [n for n in idx.pkg_properties.get(pkg, {}).get(name, ()) if n.file_path != self.path]
        if same:
            return same
        stars = [
            n for s in project.star[self.path] for n in idx.pkg_properties.get(s.module, {}).get(name, ())
        ]
        return stars or None

    def _fact_scope(self, source: str, var: str) -> str:
        types = self.project.types
        for n in self.scopes(source):
            if n.kind in TYPE_KINDS:
                for t in self.lineage(n):
                    if types.get(t.id, {}).get(var):
                        return t.id
            elif types.get(n.id, {}).get(var):
                return n.id
        return f"file:{self.path}"

    def field_type(self, owner: Node, name: str, depth: int) -> Node | None:
        types = self.project.types
        for t in self.lineage(owner):
            facts = types.get(t.id, {}).get(name)
            if facts:
                if len(facts) != 1:
                    return None
                return self.fact_type(t.file_path, t.id, next(iter(facts)), depth)
        comp = self.companion(owner) if owner.kind != "object" else None
        if comp is not None:
            facts = types.get(comp.id, {}).get(name)
            if facts and len(facts) == 1:
                return self.fact_type(comp.file_path, comp.id, next(iter(facts)), depth)
        return None

    def result_type(self, target: Node | None, depth: int) -> Node | None:
        """The type a call to ``target`` produces: a class (a constructor call), or the declared
        return type of a method, read where the method is declared."""
        if target is None:
            return None
        if target.kind in TYPE_KINDS:
            return target
        ret = target.return_type
        if depth > MAX_CHAIN:
            return None
        if not ret:  # Kotlin `fun f() = expr`: the type of the expression
            facts = self.project.types.get(target.id, {}).get("<return>")
            if facts and len(facts) == 1:
                fact = next(iter(facts))
                sub = _Resolver(
                    self.project.lang[target.file_path], self.project, target.file_path, target.id
                )
                return sub.fact_type(target.file_path, target.id, fact, depth + 1)
            return None
        if target.name == self._owner_name(target) and target.kind == "method":
            return None
        return self.type_named(target.file_path, target.id, ret)

    def _owner_name(self, node: Node) -> str | None:
        parent = self.project.parent.get(node.id)
        return self.project.nodes[parent].name if parent in self.project.nodes else None

    # ------------------------------------------------------------ members
    def methods(self, owner: Node, name: str, *, static: bool = False) -> list[Node]:
        """Callables named ``name`` in ``owner`` and its supertypes, most derived first; for a
        type named as a receiver (a static call), its companion object's too."""
        out = []
        for t in self.lineage(owner):
            if name == t.name:
                continue  # constructors are reached through `new`, `this(…)` / `super(…)` or the class
            for k in self.project.children.get(t.id, {}).get(name, ()):
                if k.kind in CALLABLE_KINDS:
                    out.append(k)
        if not out:
            comp = self.companion(owner)
            if comp is not None:
                out = self.methods(comp, name)
        return out

    def pick(self, cands: list[Node], arity: int | None) -> tuple[Node | None, str]:
        """One callable of ``cands`` for a call with ``arity`` arguments (see module docstring)."""
        if not cands:
            return None, ""
        if arity is not None:
            fitting = []
            for c in cands:
                rng = param_range(c.signature)
                if rng is None or rng[0] <= arity <= rng[1]:
                    fitting.append(c)
        else:
            fitting = list(cands)
        if not fitting:
            return None, ""
        owner = self.project.parent.get(fitting[0].id)
        first = [c for c in fitting if self.project.parent.get(c.id) == owner]
        if len(first) == 1:
            # a base's overload the count also fits, with other parameter types, is as visible
            # as the derived type's own (an override, with the same types, is no ambiguity)
            mine = param_types(first[0].signature)
            if mine is not None and all(param_types(c.signature) == mine for c in fitting[1:]):
                return first[0], ""
            if len(fitting) == 1:
                return first[0], ""
        return first[0], "overload-guess"

    def delegation(self, which: str, arity: int | None) -> tuple[Node | None, str]:
        types = self.enclosing_types()
        if not types:
            return None, ""
        cls = types[0]
        if which == "super":
            supers = [b for b in self.bases(cls) if b.kind == "class"]
            if not supers:
                return None, ""
            cls = supers[0]
        cands = [
            k
            for k in self.project.children.get(cls.id, {}).get(cls.name, ())
            if k.kind in CALLABLE_KINDS and k.id != self.source
        ]
        if not cands:
            return None, ""
        primary = param_range(cls.signature) if self.lang.constructor_calls_bare else None
        if primary is not None and (arity is None or primary[0] <= arity <= primary[1]):
            return None, ""  # Kotlin: the primary constructor (no node of its own) may be the one
        target, how = self.pick(cands, arity)
        return target, how or "self"

    def bare(self, name: str, arity: int | None, *, want_type: bool) -> tuple[Node | None, str]:
        project = self.project
        kotlin = self.lang.constructor_calls_bare
        for n in self.scopes():
            if n.kind not in CALLABLE_KINDS:
                continue
            if kotlin:
                local = [k for k in project.children.get(n.id, {}).get(name, ()) if k.kind == "function"]
                if local:
                    target, how = self.pick(local, arity)
                    return target, how or "local"
            if name in project.locals.get(n.id, ()):
                return None, ""  # a called parameter or local (`render: () -> Unit`) hides every definition
        member: tuple[Node | None, str] | None = None
        for t in self.enclosing_types():
            cands = self.methods(t, name)
            if cands:
                member = self.pick(cands, arity)
                break
        imported = self.imported_function(name, arity)
        if member is not None:
            if imported is not None and imported[0] is not None and member[0] is not None and kotlin:
                return None, ""  # a member and an explicit import of that name: the argument types decide
            return member[0], member[1] or "scope"
        if imported is not None:
            return imported
        if kotlin:
            hit = self.package_function(name, arity)
            if hit is not None:
                return hit
            if want_type and name[:1].isupper():
                named = self.type_named(self.path, self.source, name)
                if named is not None and named.kind in ("class", "enum"):
                    return named, "import"
        return None, ""

    def imported_function(self, name: str, arity: int | None) -> tuple[Node | None, str] | None:
        """A bare name bound by an import: a Java static import, a Kotlin function import."""
        project, idx = self.project, self.idx
        b = project.bindings[self.path].get(name)
        if b is not None:
            module = b.module.removeprefix("static ")
            owner = idx.types.get(module)
            if owner is not None:
                cands = self.methods(owner, b.imported, static=True)
                if cands:
                    target, how = self.pick(cands, arity)
                    return target, how or "import"
            funcs = idx.pkg_functions.get(module, {}).get(b.imported, [])
            if funcs:
                target, how = self.pick(funcs, arity)
                return target, how or "import"
            return None  # a type (a Kotlin constructor call), or something outside the project
        for star in project.star[self.path]:
            if star.module.startswith("static "):
                owner = idx.types.get(star.module[7:])
                if owner is not None:
                    cands = self.methods(owner, name, static=True)
                    if cands:
                        target, how = self.pick(cands, arity)
                        return target, how or "import"
        return None

    def package_function(self, name: str, arity: int | None) -> tuple[Node | None, str] | None:
        """Kotlin: a top-level function of this file, of its package, or of a star-imported one."""
        project, idx = self.project, self.idx
        own = [n for n in project.top[self.path].get(name, ()) if n.kind == "function"]
        if own:
            target, how = self.pick(own, arity)
            return target, how or "local"
        pkg = idx.file_package.get(self.path, "")
        same = [n for n in idx.pkg_functions.get(pkg, {}).get(name, ()) if n.file_path != self.path]
        same = [n for n in same if n.id not in idx.receivers]
        if same:
            target, how = self.pick(same, arity)
            return target, how or "package"
        for star in project.star[self.path]:
            funcs = [
                n for n in idx.pkg_functions.get(star.module, {}).get(name, ()) if n.id not in idx.receivers
            ]
            if funcs:
                target, how = self.pick(funcs, arity)
                return target, how or "import"
        return None

    def member_call(self, recv: str, method: str, arity: int | None) -> tuple[Node | None, str]:
        cur, mode = self.chain_type(recv)
        if cur is not None:
            if mode == "super":
                cands = []
                for b in self.bases(cur):
                    cands = self.methods(b, method)
                    if cands:
                        break
                target, how = self.pick(cands, arity)
                return target, how or "super"
            cands = self.methods(cur, method, static=mode == "static")
            if cands:
                target, how = self.pick(cands, arity)
                head = split_chain(recv)[0]
                if how:
                    return target, how
                if head in self.lang.self_names or head.startswith("this@"):
                    return target, "self"
                return target, "qualified" if mode == "static" else "type-inference"
        ext = self.extension(cur, method, arity)
        if ext is not None:
            return ext
        return None, ""

    def extension(
        self, recv_type: Node | None, name: str, arity: int | None
    ) -> tuple[Node | None, str] | None:
        """A Kotlin extension function ``fun T.name()`` that applies to the receiver."""
        if not self.idx.receivers:
            return None
        project, idx = self.project, self.idx
        pool: list[tuple[Node, str]] = []
        b = project.bindings[self.path].get(name)
        if b is not None:
            pool += [(n, "import") for n in idx.pkg_functions.get(b.module, {}).get(b.imported, ())]
        if recv_type is not None:
            pkg = idx.file_package.get(self.path, "")
            pool += [(n, "package") for n in idx.pkg_functions.get(pkg, {}).get(name, ())]
            for star in project.star[self.path]:
                pool += [(n, "import") for n in idx.pkg_functions.get(star.module, {}).get(name, ())]
        fits = []
        for n, how in pool:
            rec = idx.receivers.get(n.id)
            if rec is None:
                continue
            if recv_type is None:
                if how == "import":
                    fits.append((n, how))
                continue
            t = self.type_named(n.file_path, n.id, rec)
            if t is not None and t.id in {x.id for x in self.lineage(recv_type)}:
                fits.append((n, how))
        if not fits:
            return None
        target, how = self.pick([n for n, _ in fits], arity)
        return target, how or fits[0][1]
