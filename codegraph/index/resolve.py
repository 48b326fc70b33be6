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

import gc
import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol

from codegraph.index.languages.base import HELD_BY, PARAM_OF, LanguageModule
from codegraph.model import ELEMENT_USE, OWNER_SOURCE, Edge, FileExtraction, Node, Ref

TYPE_TARGETS = frozenset(
    {
        "class",
        "struct",
        "interface",
        "trait",
        "protocol",
        "type_alias",
        "enum",
        "union",
        "namespace",
        "module",
    }
)
CONSTRUCTIBLE = frozenset({"class", "struct"})
# A single-file component (.vue, .svelte, .astro) is a node too: using one in a template is an
# ``instantiates`` edge, and its script's definitions are the file's top-level names (issue 13).
COMPONENT = "component"
BARE_CALL_TARGETS = frozenset({"function"}) | CONSTRUCTIBLE
# Kinds a receiver like ``self``/``this`` can mean: the innermost enclosing type.
ENCLOSING_TYPES = frozenset({"class", "struct", "interface", "trait", "protocol", "enum", "union"})
MAX_HOPS = 8
MEMBER_MEMO_MAX = 50_000  # member answers a streamed first index keeps between files (forget_answers)
# What a member written outside its owner can belong to: a type, a JS constructor function
# (``Foo.prototype.bar = function``), or a module table (Lua ``function M.f()``).
OWNER_KINDS = ENCLOSING_TYPES | {"function", "module"}
VALUE_TARGETS = frozenset({"function", "method", "class"})
VALUE_KINDS = frozenset({"variable", "constant", "property", "field"})
PROPERTY_DECORATORS = frozenset({"property", "cached_property"})
# Edge confidence by how the target was found (default 0.9, the top tier: an import, a scope, a
# stated or inferred type). The lowest tier are guesses: the one definition of a bare name anywhere
# in the project ("exact-match"), one of several same-arity overloads ("overload-guess").
TOP_CONFIDENCE = 0.9
CONFIDENCE = {"exact-match": 0.5, "overload-guess": 0.5}
PACKAGE = "\0pkg:"  # prefix of a module handle that stands for several files (a Go package…)
MAX_PACKAGE_IMPORT_EDGES = 64
_TYPE_WORD = re.compile(r"[^\W\d]\w*")


@dataclass
class Resolution:
    """Edges found (contains included) and the references left unresolved."""

    edges: list[Edge] = field(default_factory=list)
    unresolved: list[tuple[Ref, str, str]] = field(default_factory=list)  # (ref, file path, language)
    # per language: {"unresolved": n, "likely_internal": m} — see likely_internal()
    unresolved_by_language: dict[str, dict[str, int]] = field(default_factory=dict)
    # per resolved file: (language, unresolved, likely internal, other files whose nodes are sources
    # of edges this file's references made — a member or ``extends`` written away from its type)
    per_file: dict[str, tuple[str, int, int, tuple[str, ...]]] = field(default_factory=dict)
    resolved_refs: int = 0  # references (imports included) this run resolved
    # manifests a language left out (LanguageModule.read_manifests), and why (unreadable, not parseable)
    manifest_problems: dict[str, str] = field(default_factory=dict)


# What resolving one file's references gave, in a form ``marshal`` carries: its edges as
# (source, target, kind, line, col, metadata), its unresolved references as indexes into its ``refs``,
# its ``Resolution.per_file`` row, and how many references it resolved.
FileResult = tuple[list[tuple], list[int], tuple[str, int, int, tuple[str, ...]], int]


class Share(Protocol):
    """How :func:`resolve` splits the files' references with a helper run over the same files, one
    chunk at a time, each taken by whichever run is free (``codegraph.index.fork``)."""

    def begin(self, helper: Callable[[], dict[str, FileResult]]) -> None:
        """Start the helper once the lookup tables are complete: ``helper`` is all it does (take
        chunks, resolve them, return their results). A helper that does not start is no error:
        this run then takes every chunk."""

    def take(self) -> list[int] | None:
        """The positions (in the files resolved) of the next chunk to resolve here; None: none left."""

    def gathered(self) -> dict[str, FileResult]:
        """Once no chunk is left: what the helper resolved (path → FileResult); a file missing from
        it (the helper failed) is resolved by this run."""


class _Project:
    """Lookup tables over every file's extraction. Language rules come from the language modules."""

    def __init__(
        self,
        files: list[FileExtraction],
        manifests: dict[str, str | None] | None = None,
        *,
        fold: bool = False,
        later: bool = False,
    ):
        """The tables over ``files`` (``fold``: see :func:`resolve`). With ``later``, they are left
        open: more files come with :meth:`add_files`, then :meth:`complete` (``manifests`` go there)."""
        self.files: dict[str, FileExtraction] = {}
        self.lang: dict[str, LanguageModule] = {}  # path -> LanguageModule
        self.nodes: dict[str, Node] = {}
        self.parent: dict[str, str] = {}
        self.children: dict[str, dict[str, list[Node]]] = defaultdict(lambda: defaultdict(list))
        self.top: dict[str, dict[str, list[Node]]] = {}
        self.global_by_name: dict[str, list[Node]] = defaultdict(list)
        self.bindings: dict[str, dict[str, object]] = {}
        self.star: dict[str, list] = {}
        self.exports: dict[str, dict[str, str]] = {}
        # scope id → variable → the distinct types stated for it, in the order met (a tuple: 48 bytes
        # for one where a set took 216, issue 12; LazyProject's are sets, read the same way)
        self.types: dict[str, dict[str, Collection[str]]] = defaultdict(lambda: defaultdict(tuple))
        # function id → the names local to it (only ever asked ``name in``, or walked): see _add_locals
        self.locals: dict[str, Collection[str]] = {}
        self.lexical: dict[str, str] = {}  # hoisted definition -> the function it is written in
        self.bases: dict[str, list[str]] = defaultdict(list)
        self.lang_state: dict[str, object] = {}
        # Types the project only extends (a Swift extension of an SDK class, a Rust impl for a std
        # type): (family, owner as written) → a container that is never an edge target itself, only
        # where typed receivers find those members; and member id → its container.
        self.foreign: dict[tuple[str, str], Node] = {}
        self.foreign_of: dict[str, Node] = {}
        self._type_names: set[str] | None = None
        self.packages: dict[str, list[str]] = {}
        self._dirs: dict[str, list[str]] | None = None
        self._module_cache: dict[tuple[str, str], str | None] = {}
        self._scope_cache: dict[str, list[Node]] = {}
        self._visible_cache: dict[str | frozenset[str], dict[str, list[Node]]] = {}  # see visible
        self.returns: dict[str, Sequence[str]] = {}  # function id → what it returns (see FileExtraction)
        self._returns_memo: dict[str, Node | None] = {}
        self._value_memo: dict[str, Node | None] = {}
        self._mro_memo: dict[str, list[str]] = {}
        # (class id, name) → the member's definitions (see member); on once the bases are complete:
        # a bare name inside a class asks its MRO (Scala's library: 49k lookups, ~12 classes each)
        self._member_memo: dict[tuple[str, str], list[Node] | None] | None = None
        self._bare_memo: dict[tuple, tuple[Node | str | None, str]] | None = None  # see lookup_bare
        self._stated_memo: dict[tuple[str, str], tuple[str, Collection[str]] | None] | None = None
        self._class_of_active: set[tuple[str, str]] = set()
        self._export_memo: dict[tuple[str, str], Node | str | None] = {}
        self._star_seen: set[str] | None = None
        # see _may_export: off while the languages' prepare may still add top-level names
        self._holders: dict[str, set[str]] | None = None
        self._holders_ready = False
        self._always_asked: dict[str, frozenset[str]] = {}  # see _package_members
        self._closure: dict[str, frozenset[str] | None] = {}
        # plain star walks (see _star_order): module → the files the walk checks, in order (None:
        # not plain); on only once owners are attached, since attach_owners moves top-level names
        self._star_orders: dict[str, list[str] | None] = {}
        self._star_files: dict[str, list[str] | None] = {}
        self._top_names: set[str] | None = None
        self._by_language: dict[str, list[FileExtraction]] = defaultdict(list)
        self._modules: dict[str, LanguageModule] = {}
        # one object for equal tuples of the tables (a method's locals ``("self", "value")``, a
        # variable's type, a function's returns repeat across files; issue 12), till complete()
        self._shared: dict[tuple, tuple] = {}
        # path → the child ids of a folded file's contains pairs, in order (each one's parent is its
        # ``parent`` entry, as resolve's contains edges read it)
        self.contained: dict[str, tuple[str, ...]] = {}
        self.add_files(files, fold=fold)
        if not later:
            self.complete(manifests)

    def add_files(self, files: list[FileExtraction], *, fold: bool = False) -> None:
        """Put ``files`` into the tables, before :meth:`complete` (a streamed first index adds each
        file as it is parsed, folding it: its locals, returns and closures are then never all held
        at once beside the tables, which were the peak of a 20,000-file monorepo's index; issue 12)."""
        from codegraph.index.languages import module_for

        by_language = self._by_language
        # the tables as locals: this loop runs over every file's interface on every sync
        modules = self._modules
        share = self._shared.setdefault
        nodes, parent_of, children = self.nodes, self.parent, self.children
        global_by_name, types, returns, locals_ = self.global_by_name, self.types, self.returns, self.locals
        for f in files:
            lang = modules.get(f.language)
            if lang is None:
                lang = modules[f.language] = module_for(f.language)
            path = f.path
            self.files[path] = f
            self.lang[path] = lang
            by_language[lang.label].append(f)
            file_id = f"file:{path}"
            top: dict[str, list[Node]] = defaultdict(list)
            for n in f.nodes:
                nodes[n.id] = n
            # a member written outside its type is never a top-level name, even when its owner does
            # not resolve (a Rust impl for a foreign type, a Swift extension of an SDK class)
            owned = {nid for nid, _ in f.owners}
            for parent, child in f.contains:
                parent_of[child] = parent
                node = nodes[child]
                if node.kind == "import":
                    continue
                name = node.name
                # each list made with its first node (88 -> 64 bytes: an appended-to empty list
                # reserves four slots, and most names hold one node; issue 12)
                kids = children[parent]
                hits = kids.get(name)
                if hits is None:
                    kids[name] = [node]
                else:
                    hits.append(node)
                if (
                    parent == file_id
                    or (
                        getattr(nodes.get(parent), "kind", None) == COMPONENT
                        and parent_of.get(parent) == file_id
                    )
                ) and child not in owned:
                    hits = top.get(name)
                    if hits is None:
                        top[name] = [node]
                    else:
                        hits.append(node)
                    if node.kind in TYPE_TARGETS or node.kind == "function":
                        hits = global_by_name.get(name)
                        if hits is None:
                            global_by_name[name] = [node]
                        else:
                            hits.append(node)
            self.top[path] = top
            binds: dict[str, object] = {}
            stars = []
            for b in f.imports:
                if b.local == "*":
                    stars.append(b)
                elif b.local:
                    binds[b.local] = b
            self.bindings[path] = binds
            self.star[path] = stars
            self.exports[path] = dict(f.exports)
            for scope, var, type_name in f.assigned_types:
                facts = types[scope]
                held = facts.get(var)
                if held is None:
                    facts[var] = share((type_name,), (type_name,))
                elif type_name not in held:
                    made = (*held, type_name)
                    facts[var] = share(made, made)
            for fn_id, expr in f.returns:
                had = returns.get(fn_id)
                made = (expr,) if had is None else (*had, expr)
                returns[fn_id] = share(made, made)
            if f.locals:
                _add_locals(locals_, f.locals, share)
            self.lexical.update(f.closures)
            if fold:  # the tables hold them now, and nothing else reads them
                f.returns, f.locals, f.closures = [], [], []
                if lang.lazy_resolution:  # its prepare reads paths alone: the contains edges' children
                    self.contained[path] = tuple(child for _, child in f.contains)  # 8 B, not 64
                    f.contains = []

    def complete(self, manifests: dict[str, str | None] | None) -> None:
        """Every file is in: read the manifests, let each language prepare its files."""
        from codegraph.index.languages import module_for

        by_language, self._by_language, self._shared = self._by_language, defaultdict(list), {}
        # manifests first: prepare and the module lookups may read what they declare
        self.manifest_problems: dict[str, str] = {}
        self.read_manifests([module_for(label) for label in sorted(by_language)], manifests)
        for label in sorted(by_language):
            module_for(label).prepare(self, by_language[label])
        self._holders_ready = True

    def read_manifests(self, modules: list[LanguageModule], manifests: dict[str, str | None] | None) -> None:
        """Hand each module the manifests it reads (path → text, None: unreadable) before its
        ``prepare``; what it could not use goes to ``manifest_problems``."""
        for lang in modules:
            if lang.manifests:
                mine = {
                    p: text
                    for p, text in sorted((manifests or {}).items())
                    if lang.reads_manifest(p.rsplit("/", 1)[-1])
                }
                self.manifest_problems.update(lang.read_manifests(self, mine))

    def by_qualified_name(self, keep: Callable[[Node], bool]) -> Mapping[str, list[Node]]:
        """qualified name → the project's nodes of that qualified name that ``keep`` accepts, in the
        order of ``nodes`` (a language's table of definitions: C's prototype → definition join).
        Built in one walk over every node; :class:`codegraph.index.lazy.LazyProject` fills it one
        qualified name at a time."""
        table: dict[str, list[Node]] = defaultdict(list)
        for n in self.nodes.values():
            if keep(n):
                table[n.qualified_name].append(n)
        return table

    # ------------------------------------------------------------ files and modules
    def files_in_dir(self, directory: str) -> list[str]:
        """Indexed files directly in ``directory`` (POSIX, relative; ``""`` is the root), sorted."""
        if self._dirs is None:
            self._dirs = defaultdict(list)
            for path in sorted(self.files):
                self._dirs[posixpath.dirname(path)].append(path)
        return self._dirs.get(directory, [])

    def package_handle(self, paths: list[str]) -> str | None:
        """A module handle for a module made of several files (one file: its path)."""
        paths = sorted(set(paths))
        if not paths:
            return None
        if len(paths) == 1:
            return paths[0]
        handle = PACKAGE + "\n".join(paths)
        self.packages.setdefault(handle, paths)
        return handle

    def module_file(self, from_path: str, spec: str) -> str | None:
        """The module handle (a file path, or a package handle) an import spec names from a file."""
        key = (from_path, spec)
        if key not in self._module_cache:
            hit = self.lang[from_path].resolve_module(self, from_path, spec)
            self._module_cache[key] = self.package_handle(hit) if isinstance(hit, list) else hit
        return self._module_cache[key]

    def module_paths(self, handle: str) -> list[str]:
        """The files a module handle stands for."""
        return self.packages.get(handle) or [handle]

    def _as_handle(self, hit) -> str | None:
        return self.package_handle(hit) if isinstance(hit, list) else hit

    # ------------------------------------------------------------ names
    def export_of(self, path: str, name: str, depth: int = 0) -> Node | str | None:
        """What ``name`` means when imported from module ``path`` (a file, or a package handle): a
        node, a module handle (a submodule or a namespace), or None. Follows re-exports and star
        imports up to MAX_HOPS. In a package, the name must mean one thing across its files.
        Top-level answers are memoised: C/C++ headers are star-imported by most files of a project
        (curl: every file includes curl_setup.h), and each lookup would walk the include graph."""
        if depth == 0:
            key = (path, name)
            if key not in self._export_memo and self._top_names is not None:
                order = self._star_order(path)
                if order is not None:
                    self._export_memo[key] = self._first_top(order, name)
            if key not in self._export_memo:
                if not self._may_export(path, name):
                    self._export_memo[key] = None
                    return None
                outer, self._star_seen = self._star_seen, set()
                try:
                    self._export_memo[key] = self._export_of(path, name, 0)
                finally:
                    self._star_seen = outer
            return self._export_memo[key]
        return self._export_of(path, name, depth)

    def _may_export(self, path: str, name: str) -> bool:
        """False when no module ``export_of(path, name)`` can reach names ``name`` at all: none of
        the files its star imports lead to (transitively, packages expanded) has ``name`` among its
        top-level names, bindings or exports, and none has a language whose ``package_member`` can
        answer an arbitrary name. Only those lookups give an answer, so the walk would find nothing.
        Measured on c-curl: 97 % of 74,871 lookups, each walking the include graph (6.8 of 8.6 s of
        resolution). Always True until the languages' ``prepare`` ran (it may add top-level names)."""
        if not self._holders_ready:
            return True
        closure = self._star_closure(path)
        if closure is None:
            return True
        found = self._holders_of(name)
        return found is not None and not found.isdisjoint(closure)

    def _holders_of(self, name: str) -> set[str] | None:
        """The files that have ``name`` among their top-level names, bindings or exports (None:
        none). Only once the languages' ``prepare`` ran (see :meth:`_may_export`)."""
        if self._holders is None:
            holders: dict[str, set[str]] = defaultdict(set)
            for tables in (self.top, self.bindings, self.exports):
                for file_path, names in tables.items():
                    for held in names:
                        holders[held].add(file_path)
            self._holders = holders
        return self._holders.get(name)

    def _package_members(self, handle: str, name: str) -> list[str]:
        """The files of package ``handle`` whose :meth:`_export_of` can answer ``name``: all of them,
        less (once the holders are known) each file with no such name, no star import and no
        submodules, whose answer is None (Scala's library: an import from a package asked each of
        its ~45 files, a third of the import edges' cost)."""
        members = self.packages[handle]
        if not self._holders_ready:
            return members
        always = self._always_asked.get(handle)
        if always is None:  # the files whose answer does not depend on holding the name
            always = frozenset(m for m in members if self.star[m] or _has_submodules(self.lang[m]))
            self._always_asked[handle] = always
        held = self._holders_of(name) or ()
        return [m for m in members if m in held or m in always]

    def _star_closure(self, path: str) -> frozenset[str] | None:
        """The files star imports lead to from ``path`` (itself included, packages expanded), or None
        when one of them is of a language whose ``package_member`` may answer any name."""
        if path in self._closure:
            return self._closure[path]
        seen: set[str] = set()
        stack = [path]
        found: frozenset[str] | None = None
        while stack:
            mod = stack.pop()
            if mod in seen:
                continue
            seen.add(mod)
            if mod in self.packages:
                stack.extend(self.packages[mod])
                continue
            if type(self.lang[mod]).package_member is not LanguageModule.package_member:
                break
            for star in self.star[mod]:
                target = self.module_file(mod, star.module)
                if target is not None and target != mod:
                    stack.append(target)
        else:
            found = frozenset(seen)
        self._closure[path] = found
        return found

    def _export_of(self, path: str, name: str, depth: int) -> Node | str | None:
        if depth > MAX_HOPS:
            return None
        if path in self.packages:
            found = {}
            for member in self._package_members(path, name):
                target = self.export_of(member, name, depth + 1)
                if target is not None:
                    found[target.id if isinstance(target, Node) else target] = target
            return next(iter(found.values())) if len(found) == 1 else None
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
        sub = self._as_handle(self.lang[path].package_member(self, path, name))
        if sub is not None:
            return sub
        seen = self._star_seen
        for star in self.star[path]:
            mod = self.module_file(path, star.module)
            if mod is not None and mod != path:
                if seen is not None:
                    if mod in seen:  # an include graph is a DAG: one visit per lookup is enough
                        continue
                    seen.add(mod)
                target = self.export_of(mod, name, depth + 1)
                if target is not None:
                    return target
        return None

    def _star_order(self, path: str) -> list[str] | None:
        """The files :meth:`_export_of` checks, in order, when it looks a name up in module ``path``
        and every module on the way is plain: a file with no re-exports, no import bindings and no
        submodules, whose star imports only lead to more such files (a C/C++ include graph). The
        walk is then the same for every name (depth-first, one visit per module, MAX_HOPS deep),
        so it is taken once per module instead of once per name. None when a module on the way is
        not plain (the per-name walk answers then). Issue 10: curl's files include curl_setup.h
        and its 40 headers, and the per-name walk was 6 of curl's 11 CPU seconds."""
        if path in self._star_orders:
            return self._star_orders[path]
        order: list[str] = []
        found = order if self._plain_walk(path, 0, order, set()) else None
        self._star_orders[path] = found
        return found

    def _plain_walk(self, p: str, depth: int, order: list[str], seen: set[str]) -> bool:
        """Append to ``order`` the modules :meth:`_star_order` walks from ``p``; False when one on
        the way is not plain. A method, not a nested recursive function: that would be a reference
        cycle per call, and resolution runs with the collector paused (:func:`paused_gc`)."""
        if depth > MAX_HOPS:
            return True
        if p in self.packages or self.exports[p] or self.bindings[p] or _has_submodules(self.lang[p]):
            return False
        order.append(p)
        for star in self.star[p]:
            mod = self.module_file(p, star.module)
            if mod is not None and mod != p and mod not in seen:
                seen.add(mod)
                if not self._plain_walk(mod, depth + 1, order, seen):
                    return False
        return True

    def _stars_of(self, path: str) -> list[str] | None:
        """The files a bare-name lookup in ``path`` checks through its star imports, in order, when
        every star-imported module is plain (:meth:`_star_order`): each module's walk in turn, a
        file met again left out (it missed the first time). None otherwise."""
        if path in self._star_files:
            return self._star_files[path]
        files: list[str] = []
        seen: set[str] = set()
        for star in self.star[path]:
            mod = self.module_file(path, star.module)
            if mod is None or mod == path:
                continue
            order = self._star_order(mod)
            if order is None:
                self._star_files[path] = None
                return None
            for p in order:
                if p not in seen:
                    seen.add(p)
                    files.append(p)
        self._star_files[path] = files
        return files

    def _first_top(self, order: list[str], name: str) -> Node | None:
        """The last top-level definition of ``name`` in the first file of ``order`` that has one."""
        if self._top_names is None or name not in self._top_names:
            return None
        for p in order:
            hits = self.top[p].get(name)
            if hits:
                return hits[-1]
        return None

    def binding_target(self, path: str, binding, depth: int = 0) -> Node | str | None:
        """What an import binding of file ``path`` names: a node, a module handle, or None."""
        mod = self.module_file(path, binding.module)
        if binding.imported in ("*", ""):
            return mod
        if mod is None:
            # e.g. Python ``from . import views`` where views is a module beside this file
            return self._as_handle(self.lang[path].import_fallback(self, path, binding))
        if binding.imported == "default":
            default = self.exports.get(mod, {}).get("default")
            if default is None:
                return None
            return self.export_of(mod, default, depth + 1)
        return self.export_of(mod, binding.imported, depth + 1)

    def attach_owners(self) -> None:
        """Move each definition written outside its type (``FileExtraction.owners``) into that type
        when the owner name resolves from the definition's file; otherwise it stays where it is."""
        for path, f in self.files.items():
            file_id = f"file:{path}"
            lang = self.lang[path]
            for nid, owner in f.owners:
                scope = self.parent.get(nid, file_id)
                target = self.resolve_dotted(path, scope if scope != nid else file_id, owner)
                if not isinstance(target, Node) or target.kind not in OWNER_KINDS:
                    if lang.foreign_owners and target is None and not self._declares_type(owner):
                        self._add_foreign(lang, owner, self.nodes[nid])
                    continue
                self.move_member(path, self.nodes[nid], target)
        self._scope_cache.clear()
        self._export_memo.clear()
        self._visible_cache.clear()
        self._top_names = {name for names in self.top.values() for name, hits in names.items() if hits}

    def move_member(self, path: str, node: Node, target: Node) -> None:
        """Move ``node``, a definition of ``path`` written outside its type, into ``target``."""
        old = self.parent.get(node.id)
        if old is not None:
            same = self.top[path].get(node.name, [])
            if node in same:
                same.remove(node)
                if not same:
                    del self.top[path][node.name]
            siblings = self.children[old].get(node.name, [])
            if node in siblings:
                siblings.remove(node)
        dict.__setitem__(self.parent, node.id, target.id)  # a plain store (LazyProject's fills on reads)
        self.children[target.id][node.name].append(node)

    def _declares_type(self, owner: str) -> bool:
        """Does the project declare a type of this (last) name anywhere, at any nesting?"""
        if self._type_names is None:
            self._type_names = {n.name for n in self.nodes.values() if n.kind in ENCLOSING_TYPES}
        return owner.rsplit(".", 1)[-1] in self._type_names

    def _add_foreign(self, lang, owner: str, node: Node) -> None:
        key = (lang.family, owner)
        box = self.foreign.get(key)
        if box is None:
            box = Node(
                id=f"foreign:{lang.family}:{owner}",
                kind="class",
                name=owner.rsplit(".", 1)[-1],
                qualified_name=owner,
                file_path="",
                language=lang.label,
                start_line=0,
                end_line=0,
            )
            self.foreign[key] = box
        self.children[box.id][node.name].append(node)
        self.foreign_of[node.id] = box

    def foreign_type(self, path: str, name: str) -> Node | None:
        """The container of the members a language's files add to a type the project does not
        declare (``extension AVCaptureDevice { … }``), by the type's name as written."""
        lang = self.lang[path]
        return self.foreign.get((lang.family, name)) if lang.foreign_owners else None

    def scopes(self, source_id: str) -> list[Node]:
        """Enclosing definitions of ``source_id`` from the innermost out (the node itself first)."""
        chain = self._scope_cache.get(source_id)
        if chain is None:
            chain = []
            sid: str | None = source_id
            while sid is not None and not sid.startswith("file:"):
                chain.append(self.nodes[sid])
                sid = self.lexical.get(sid) or self.parent.get(sid)
            self._scope_cache[source_id] = chain
        return chain

    def enclosing_class(self, source_id: str) -> Node | None:
        """The innermost type around ``source_id`` (what ``self``/``this`` means there)."""
        for n in self.scopes(source_id):
            if n.kind in ENCLOSING_TYPES:
                return n
            if n.id in self.foreign_of:
                return self.foreign_of[n.id]
        return None

    def visible(self, path: str) -> dict[str, list[Node]]:
        """Top-level names of the files ``path`` sees without an import (its language says which:
        the rest of a Go or Java package, a Swift module…), merged, in no particular order. Its own
        file's names are in it too: :meth:`lookup_bare` asks them first, so a name that reaches this
        view is not one of them. That lets the files that see the same files share one view (every
        Scala file sees the whole ``scala`` package: merging it per file cost a tenth of the
        resolution of Scala's library). Cached under the path and under the set of files."""
        merged = self._visible_cache.get(path)
        if merged is None:
            files = self.lang[path].visible_files(self, path)
            if not files:  # its own names alone: its table itself, not a copy kept per file (issue 12)
                merged = self._visible_cache[path] = self.top[path] if path in self.top else {}
                return merged
            seen = frozenset(files).union((path,))
            merged = self._visible_cache.get(seen)
            if merged is None:
                merged = defaultdict(list)
                for other in dict.fromkeys([*files, path]):  # the files of ``seen``, in a stable order
                    if other in self.top:
                        for name, nodes in self.top[other].items():
                            merged[name].extend(nodes)
                self._visible_cache[seen] = merged
            self._visible_cache[path] = merged
        return merged

    def lookup_bare(
        self,
        path: str,
        source_id: str,
        name: str,
        *,
        allow_unique: bool,
        wanted: frozenset[str] | None = None,
    ) -> tuple[Node | str | None, str]:
        """Resolve a bare identifier seen in ``path`` inside ``source_id``. Returns (target, how).
        Memoised once the bases are complete (outside a star-import walk, whose visited set the
        answer may depend on): a language's rules and the generic ones ask the same name again
        (Scala's library: 43k lookups, 20k distinct)."""
        memo = self._bare_memo
        if memo is None or self._star_seen is not None:
            return self._lookup_bare(path, source_id, name, allow_unique, wanted)
        key = (path, source_id, name, allow_unique, wanted)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = self._lookup_bare(path, source_id, name, allow_unique, wanted)
        return hit

    def _lookup_bare(
        self, path: str, source_id: str, name: str, allow_unique: bool, wanted: frozenset[str] | None
    ) -> tuple[Node | str | None, str]:
        lang = self.lang[path]
        for scope in self.scopes(source_id):
            if scope.kind in ("function", "method", "module"):  # a Rust ``mod m { .. }`` block scopes too
                hits = self.children.get(scope.id, {}).get(name)
                if hits:
                    return hits[-1], "local"
                if name in self.locals.get(scope.id, ()):
                    return None, ""  # a parameter or local variable shadows every definition
            elif lang.implicit_members and scope.kind in ENCLOSING_TYPES:
                # Java, C#, C++, Dart…: a bare name inside a type means its member (or a base's) first
                hit = self.member(scope.id, name)
                if hit is not None and hit.name == scope.name:
                    hit = None  # a constructor named after its type: the name means the type
                if hit is not None and (
                    wanted is None or hit.kind in wanted or (hit.kind == "method" and "function" in wanted)
                ):
                    return hit, "member"
        binding = self.bindings[path].get(name)
        if binding is not None:
            return self.binding_target(path, binding), "import"
        hits = self.top[path].get(name)
        if hits:
            return hits[-1], "local"
        files = self._stars_of(path) if self._top_names is not None else None
        if files is not None:
            first = self._first_top(files, name)
            if first is not None:
                return first, "import"
        else:
            for star in self.star[path]:
                mod = self.module_file(path, star.module)
                if mod is not None and mod != path:
                    target = self.export_of(mod, name)
                    if target is not None:
                        return target, "import"
        hits = self.visible(path).get(name)
        if hits:
            distinct = {n.id: n for n in hits if wanted is None or n.kind in wanted}
            if len(distinct) == 1:
                return next(iter(distinct.values())), "package"
            return None, ""
        if not allow_unique or not lang.unique_fallback or name in lang.builtins:
            return None, ""
        family = lang.family
        candidates = [
            n
            for n in self.global_by_name.get(name, ())
            if self.lang[n.file_path].family == family and (wanted is None or n.kind in wanted)
        ]
        if len(candidates) == 1:
            return candidates[0], "exact-match"
        return None, ""

    def member(self, class_id: str, name: str, ref: Ref | None = None) -> Node | None:
        """``name`` defined in class ``class_id`` or the first of its bases in the project that
        defines it, in method resolution order (an override in a subclass wins). For a call
        (``ref``), the language of the members found picks the one the call's arguments fit (or
        none: a Swift call whose labels fit no declaration is an SDK member's)."""
        memo = self._member_memo
        if memo is None:
            hits = self._member_hits(class_id, name)
        else:
            key = (class_id, name)
            if key in memo:
                hits = memo[key]
            else:
                hits = memo[key] = self._member_hits(class_id, name)
        if hits is None:
            return None
        if ref is not None:
            return self.lang[hits[-1].file_path].pick_overload(hits, ref)
        return hits[-1]

    def _member_hits(self, class_id: str, name: str) -> list[Node] | None:
        """The definitions of ``name`` in the first class of ``class_id``'s MRO that has one."""
        for cid in self.mro(self.dealias(class_id)):
            hits = self.children.get(cid, {}).get(name)
            if hits:
                return hits
        return None

    def dealias(self, type_id: str) -> str:
        """The type a type alias stands for (``type Store = Repo``, ``using Store = Repo;``,
        ``typealias Store = Repo``: the alias's ``return_type`` names it), through up to four
        aliases; the id itself for anything else or when the aliased name does not resolve."""
        node = self.nodes.get(type_id)
        for _ in range(4):
            if node is None or node.kind != "type_alias" or not node.return_type:
                break
            base = node.return_type.split("[", 1)[0].split("<", 1)[0].strip().replace("::", ".")
            if not base.replace(".", "").replace("_", "").isalnum():
                break
            target = self.resolve_dotted(node.file_path, node.id, base)
            if not isinstance(target, Node) or target.kind not in TYPE_TARGETS or target.id == node.id:
                break
            node = target
        return node.id if node is not None else type_id

    def bases_complete(self) -> None:
        """Forget orders and answers worked out while the bases were still being resolved; from now
        on the tables stay as they are, and member lookups are memoised."""
        self._mro_memo.clear()
        self._value_memo.clear()
        self._returns_memo.clear()
        self._member_memo = {}
        self._bare_memo = {}
        self._stated_memo = {}

    def forget_answers(self) -> None:
        """Drop the memoised bare-name answers and scope chains (both are worked out again, the same,
        when asked), and the member answers once there are MEMBER_MEMO_MAX of them (most are asked
        by one file only: 1.2 KB a synthetic monorepo file by the end of its resolution): a first
        index streamed to the store calls it after each file."""
        if self._bare_memo is not None:
            self._bare_memo.clear()
        if self._member_memo is not None and len(self._member_memo) > MEMBER_MEMO_MAX:
            self._member_memo.clear()
        self._scope_cache.clear()

    def mro(self, class_id: str) -> list[str]:
        """``class_id`` and its bases in the project, in C3 linearization order (Python's MRO; for
        single inheritance simply the chain up); breadth-first when the bases admit no C3 order."""
        memo = self._mro_memo.get(class_id)
        if memo is None:
            self._mro_memo[class_id] = [class_id]  # a cycle in the bases resolves to the class alone
            memo = self._c3(class_id) or self._breadth_first(class_id)
            self._mro_memo[class_id] = memo
        return memo

    def _c3(self, class_id: str) -> list[str] | None:
        bases = [b for b in self.bases.get(class_id, ()) if b != class_id]
        seqs = [list(self.mro(b)) for b in bases] + [list(bases)]
        out = [class_id]
        while any(seqs):
            for seq in seqs:
                head = seq[0] if seq else None
                if head is not None and not any(head in other[1:] for other in seqs):
                    break
            else:
                return None  # inconsistent hierarchy
            out.append(head)
            for seq in seqs:
                if seq and seq[0] == head:
                    del seq[0]
            if len(out) > 64:
                return None
        return out

    def _breadth_first(self, class_id: str) -> list[str]:
        order: list[str] = []
        queue = [class_id]
        while queue and len(order) <= 32:
            cid = queue.pop(0)
            if cid not in order:
                order.append(cid)
                queue.extend(self.bases.get(cid, ()))
        return order

    def type_of(self, path: str, source_id: str, var: str) -> Node | None:
        """The class a variable holds, when the scope states exactly one type for it."""
        lang = self.lang[path]
        # a type's own facts name its fields; a bare identifier means them only where members are
        # implicit (Java, C#…), not in Go or Python (a Go field named like a package must not
        # retype the package's name: `repo *repo.UserRepo`); Ruby's `@x` is a field by its spelling
        fields_bare = lang.implicit_members or not var.isidentifier()
        scope_ids = [n.id for n in self.scopes(source_id) if fields_bare or n.kind not in ENCLOSING_TYPES]
        scope_ids.append(f"file:{path}")
        if "." in var and var.split(".", 1)[0] in self.lang[path].self_names:
            cls = self.enclosing_class(source_id)
            scope_ids = [cls.id] if cls is not None else []
        for sid in scope_ids:
            names = self.types.get(sid, {}).get(var)
            if not names:
                continue
            if len(names) != 1:
                return self._agreed_type(path, source_id, names)
            return self.class_of(path, source_id, next(iter(names)))
        lang = self.lang[path]
        is_self = "." in var and var.split(".", 1)[0] in lang.self_names
        if is_self or (lang.implicit_members and "." not in var):
            cls = self.enclosing_class(source_id)
            if cls is not None:
                # a field a base class types (``self.repo = Repo()`` in an inherited ``__init__``)
                inherited = self._inherited_type(cls, var)
                if inherited is not None:
                    return inherited
                # a class attribute or ``@property`` of the class or a base (``self.objects``)
                attr = var.split(".", 1)[1] if is_self else var
                if "." not in attr:
                    held = self.member(cls.id, attr)
                    return self.value_type(held) if held is not None else None
        return None

    def _agreed_type(self, path: str, source_id: str, names: Collection[str]) -> Node | None:
        """Several facts for one variable where one is a callback's parameter typed by its callee
        (``PARAM_OF``): the class when they all name the same one (``source: Observable<T>`` and a
        callback's ``source`` typed Observable by ``operate``), else None."""
        if len(names) > 4 or not any(n.startswith(PARAM_OF) for n in names):
            return None
        found = [self.class_of(path, source_id, n) for n in sorted(names)]
        ids = {n.id if n is not None else None for n in found}
        return found[0] if len(ids) == 1 and None not in ids else None

    def _inherited_type(self, cls: Node, var: str) -> Node | None:
        """The type the nearest base of ``cls`` states for ``var``, resolved in that base's file."""
        memo = self._stated_memo
        if memo is None:
            stated = self._stated_in_bases(cls.id, var)
        else:
            key = (cls.id, var)
            if key in memo:
                stated = memo[key]
            else:
                stated = memo[key] = self._stated_in_bases(cls.id, var)
        if stated is None:
            return None
        base_id, names = stated
        base = self.nodes[base_id]
        return self.class_of(base.file_path, base_id, next(iter(names))) if len(names) == 1 else None

    def _stated_in_bases(self, class_id: str, var: str) -> tuple[str, Collection[str]] | None:
        """The nearest base of ``class_id`` (breadth-first, 32 at most) with type facts for ``var``,
        and those facts. Memoised once the bases are complete (Scala's library: 7k asks, most
        walking a deep hierarchy to find nothing)."""
        seen = {class_id}
        queue = list(self.bases.get(class_id, ()))
        while queue and len(seen) < 32:
            base_id = queue.pop(0)
            if base_id in seen:
                continue
            seen.add(base_id)
            names = self.types.get(base_id, {}).get(var)
            if names:
                return base_id, names
            queue.extend(self.bases.get(base_id, ()))
        return None

    def property_chain(self, path: str, source_id: str, recv: str) -> Node | None:
        """The type at the end of ``a.b.c`` where ``a`` is self, a typed variable or a type, and each
        next name is a field or property whose type its type declares (``X.shared.m()``,
        ``self.handle.shared.owned.m()``); None as soon as one step is unknown."""
        parts = recv.split(".")
        lang = self.lang[path]
        if parts[0] in lang.self_names:
            cur = self.enclosing_class(source_id)
        else:
            cur = self.type_of(path, source_id, parts[0])
            if cur is None:
                target = self.resolve_dotted(path, source_id, parts[0])
                cur = target if isinstance(target, Node) and target.kind in TYPE_TARGETS else None
        for part in parts[1:]:
            if cur is None or not cur.file_path:  # a foreign container declares no fields
                return None
            cur = self.field_type(cur, part)
        return cur

    def field_type(self, cls: Node, field_name: str) -> Node | None:
        """The type a field or attribute of ``cls`` (or of a base, in MRO order) holds, as the type
        states it: ``self.x = Foo()``, ``this.x = new Foo()``, ``root *node`` in a Go struct, a typed
        property; or what a ``@property`` returns. None when unknown or stated more than once."""
        for cid in self.mro(cls.id):
            owner = self.nodes.get(cid)
            if owner is None:
                continue
            lang = self.lang.get(owner.file_path)
            keys = [f"{s}.{field_name}" for s in sorted(lang.self_names | {"self"})] if lang else []
            for key in [*keys, field_name]:
                names = self.types.get(cid, {}).get(key)
                if names:
                    if len(names) != 1:
                        return None
                    return self.class_of(owner.file_path, cid, next(iter(names)))
            held = self.children.get(cid, {}).get(field_name)
            if held:
                return self.value_type(held[-1])
        return None

    def class_of(self, path: str, scope_id: str, expr: str) -> Node | None:
        """The class an expression names or produces: a type name (``Foo``, ``mod.Foo``), or a
        callee whose result it is (``Foo`` constructs a Foo; ``self._chain`` / ``make_query`` give
        what that function returns)."""
        lang = self.lang[path]
        if expr in lang.self_type_exprs:
            return self.enclosing_class(scope_id)
        if expr.startswith(PARAM_OF):
            return self._callback_param_type(path, scope_id, expr[len(PARAM_OF) :])
        if expr.startswith(HELD_BY):  # the value a chain of fields holds: fields only, no calls
            if (scope_id, expr) in self._class_of_active:
                return None  # n := n.next: a chain through its own variable is unknown
            self._class_of_active.add((scope_id, expr))
            try:
                return self.property_chain(path, scope_id, expr[len(HELD_BY) :])
            finally:
                self._class_of_active.discard((scope_id, expr))
        if "()." in expr:  # a local holding what a chain of calls returns (c := NewPool().Get())
            return self.chain_class(path, scope_id, expr + "()")
        if expr.count(".") == 1 and expr.split(".", 1)[0] in lang.self_names:
            cls = self.enclosing_class(scope_id)
            method = self.member(cls.id, expr.split(".", 1)[1]) if cls is not None else None
            return self.return_class(method) if method is not None else None
        if expr.count(".") == 1 and (scope_id, expr) not in self._class_of_active:
            # store.add where store is a typed local: what that method returns
            head, attr = expr.split(".")
            self._class_of_active.add((scope_id, expr))  # x = x.next() must not loop
            try:
                typed = self.type_of(path, scope_id, head)
            finally:
                self._class_of_active.discard((scope_id, expr))
            if typed is not None:
                method = self.member(typed.id, attr)
                return self.return_class(method) if method is not None and method.kind == "method" else None
        target = self.resolve_dotted(path, scope_id, expr)
        if target is None:
            return self.foreign_type(path, expr)
        if not isinstance(target, Node):
            return None
        if target.kind in TYPE_TARGETS:
            return target
        if target.kind in ("function", "method"):
            return self.return_class(target)
        return None

    def _callback_param_type(self, path: str, scope_id: str, spec: str) -> Node | None:
        """The class the callee's declared signature gives the j-th parameter of a callback passed
        as its i-th argument (``spec`` is ``callee:i:j``; see ``languages.base.PARAM_OF``): the
        callee is a function, or a class whose constructor takes the callback. None when the callee
        does not resolve or does not state exactly one type there."""
        callee, _, position = spec.partition(":")
        target = self.resolve_dotted(path, scope_id, callee)
        if isinstance(target, Node) and target.kind in CONSTRUCTIBLE:
            lang = self.lang.get(target.file_path)
            ctors = [self.member(target.id, c) for c in (lang.constructor_names if lang else ())]
            target = next((c for c in ctors if c is not None), None)
        if not isinstance(target, Node) or target.kind not in ("function", "method"):
            return None
        names = self.types.get(target.id, {}).get(PARAM_OF + position)
        if not names or len(names) != 1:
            return None
        found = self.class_of(target.file_path, target.id, next(iter(names)))
        return found if found is not None and found.kind in TYPE_TARGETS else None

    def chain_class(self, path: str, source_id: str, chain: str) -> Node | None:
        """The type a chain of calls and fields evaluates to, written with empty argument lists
        (``NewPool().Get()``, ``p.get().conn``, ``self.pool().get()``): the first call as
        :meth:`class_of` reads it, then each next member's result type (a method's declared or
        inferred return, a field's type); None as soon as a step is unknown."""
        key = (source_id, "chain:" + chain)
        if key in self._class_of_active:
            return None  # x := x.Next().Prev(): a chain through its own variable is unknown
        self._class_of_active.add(key)
        try:
            return self._chain_class(path, source_id, chain)
        finally:
            self._class_of_active.discard(key)

    def _chain_class(self, path: str, source_id: str, chain: str) -> Node | None:
        steps = chain.split(".")
        first = next((i for i, s in enumerate(steps) if s.endswith("()")), None)
        cores = [s.removesuffix("()") for s in steps]
        if first is None or any(not c or "(" in c or ")" in c for c in cores):
            return None
        head = ".".join(cores[: first + 1])
        cur = self.class_of(path, source_id, head)
        if cur is None and "." in head:  # self.repo.find(): a typed field's method
            owner = self.property_chain(path, source_id, head.rsplit(".", 1)[0])
            method = self.member(owner.id, head.rsplit(".", 1)[1]) if owner is not None else None
            cur = (
                self.return_class(method)
                if method is not None and method.kind in ("method", "function")
                else None
            )
        for step in steps[first + 1 :]:
            if cur is None or not cur.file_path:
                return None
            if step.endswith("()"):
                method = self.member(cur.id, step[:-2])
                cur = (
                    self.return_class(method)
                    if method is not None and method.kind in ("method", "function")
                    else None
                )
            else:
                cur = self.field_type(cur, step)
        return cur

    def return_class(self, fn: Node) -> Node | None:
        """The one class every ``return`` of ``fn`` produces (or its return annotation names), else
        None. ``return self`` / ``self.__class__(...)`` give the enclosing class."""
        if fn.id in self._returns_memo:
            return self._returns_memo[fn.id]
        self._returns_memo[fn.id] = None  # recursion guard: a cycle resolves to unknown
        path = fn.file_path
        found: Node | None = None
        annotation = (fn.return_type or "").strip().strip("'\"").split("[")[0].split("<")[0].strip()
        if annotation in self.lang[path].self_type_annotations:
            found = self.enclosing_class(fn.id)
        elif annotation and annotation.replace(".", "").replace("_", "").isalnum():
            target = self.resolve_dotted(path, fn.id, annotation)
            found = target if isinstance(target, Node) and target.kind in TYPE_TARGETS else None
        else:
            classes: set[str] = set()
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

    def resolve_dotted(
        self, path: str, source_id: str, dotted: str, ref: Ref | None = None
    ) -> Node | str | None:
        """``a.b.C`` where ``a`` is an import/module/class: walk the chain (``ref``: the call whose
        callee this is, for the last member's overloads)."""
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
            if current is None and rest:
                # a variable of another file of the package (Go's `fs = vfs.NameSpace{}` in
                # handlers.go, `fs.Bind(…)` in main.go): its value's type, below
                held, _ = self.lookup_bare(path, source_id, parts[0], allow_unique=False, wanted=VALUE_KINDS)
                current = held if isinstance(held, Node) and held.kind in VALUE_KINDS else None
            if current is None and rest and self.foreign:
                # a member of a type the project only extends (``DecodingError.typeMismatch``); the
                # container itself is never returned
                for cut in range(len(parts) - 1, 0, -1):
                    box = self.foreign_type(path, ".".join(parts[:cut]))
                    if box is not None:
                        current, rest = box, parts[cut:]
                        break
        for i, part in enumerate(rest):
            if current is None:
                return None
            if isinstance(current, str):
                current = self.export_of(current, part)
            elif current.kind in TYPE_TARGETS:
                current = self.member(current.id, part, ref if i == len(rest) - 1 else None)
            else:
                held = self.value_type(current)  # ``pre_save.connect``, ``Model.objects.filter``
                current = self.member(held.id, part) if held is not None else None
        return current

    def alias_target(self, node: Node) -> Node | str | None:
        """What a top-level variable that only renames another name (``const c = a``) stands for."""
        alias = self.exports.get(node.file_path, {}).get(node.name)
        if alias is None or alias == node.name or self.parent.get(node.id) != f"file:{node.file_path}":
            return None
        return self.export_of(node.file_path, alias, 1)

    def value_type(self, node: Node) -> Node | None:
        """The class a variable, attribute or property holds, from where it is assigned (``pre_save =
        Signal()``, ``objects = Manager()``, ``this.m = new M()`` in a constructor, ``repo: Repo``) or
        what a ``@property`` returns; None when that is not stated exactly once."""
        if node.id in self._value_memo:
            return self._value_memo[node.id]
        self._value_memo[node.id] = None  # recursion guard: ``x = x.copy()`` resolves to unknown
        found = self._value_type(node)
        self._value_memo[node.id] = found
        return found

    def _value_type(self, node: Node) -> Node | None:
        if node.kind in ("function", "method"):
            decorators = node.decorators or ()
            if any(d.rsplit(".", 1)[-1] in PROPERTY_DECORATORS for d in decorators):
                return self.return_class(node)
            return None
        if node.kind not in VALUE_KINDS:
            return None
        names = self.types.get(node.id, {}).get(node.name)
        owner = self.parent.get(node.id)
        if not names and owner == f"file:{node.file_path}":
            # a package-level variable whose type its file states (Go `var Default = &Registry{}`)
            names = self.types.get(owner, {}).get(node.name)
            if names:
                return self.class_of(node.file_path, owner, next(iter(names))) if len(names) == 1 else None
        if not names:
            lang = self.lang[node.file_path]
            if not owner:
                return None
            for self_name in sorted(lang.self_names):
                names = self.types.get(owner, {}).get(f"{self_name}.{node.name}")
                if names:
                    break
            else:
                return None
            scope = owner
        else:
            scope = node.id
        if len(names) != 1:
            return None
        return self.class_of(node.file_path, scope, next(iter(names)))


def open_tables() -> _Project:
    """Empty lookup tables for :func:`resolve`'s ``project``, to fill with ``add_files`` as files
    are parsed and close with ``complete`` (a streamed first index, issue 12)."""
    return _Project([], later=True)


def _edge(source: str, target: Node, kind: str, ref: Ref, how: str, confidence: float) -> Edge:
    meta = {"confidence": confidence, "resolvedBy": how, "refName": ref.name}
    if kind != ref.kind:
        meta["refKind"] = ref.kind
    return Edge(source, target.id, kind, ref.line, ref.col, meta)


def _has_submodules(lang) -> bool:
    """Does the language answer :meth:`LanguageModule.package_member` (a module's submodules)?"""
    return type(lang).package_member is not LanguageModule.package_member


def resolve(
    files: list[FileExtraction],
    only: set[str] | None = None,
    manifests: dict[str, str | None] | None = None,
    project: _Project | None = None,
    *,
    refs_of: Callable[[FileExtraction], list[Ref]] | None = None,
    sink: Callable[[list[Edge], list[tuple[Ref, str, str]]], None] | None = None,
    fold: bool = False,
    share: Share | None = None,
) -> Resolution:
    """Resolve every file's references against the whole project.

    Args:
        files: every file of the project (lookups see all of them).
        manifests: path → text (None: unreadable) of the project's manifest files that languages
            declare (``LanguageModule.manifests``).
        only: resolve just these files' references (incremental resolution, issue 12: the files
            ``codegraph.index.incremental.plan`` found); None for all. The bases of every class are
            still resolved, since member lookups through inheritance need them.
        project: the lookup tables, when the caller built them (``codegraph.index.lazy``: ``files``
            are then the files to resolve, and the tables fill as lookups reach the others).
        refs_of: a file's references, when ``files`` hold only their ``extends``/``implements``
            ones (what every lookup table and language module reads): the rest are made one file
            at a time as it is resolved (issue 12: a 100,000-file first index held them all).
        sink: handed the edges and unresolved references as each step of each file makes them,
            in the order the lists would hold them; the Resolution's lists then stay empty (issue 12:
            the whole project's edges were the largest thing a big first index held).
        fold: the files' ``returns``, ``locals`` and ``closures`` are emptied once the lookup
            tables hold them, their ``contains`` once their contains edges are made and their
            ``assigned_types`` once they are resolved (a caller that keeps ``files`` for nothing
            else; issue 12: 4, 2 and 0.6 KB a synthetic monorepo file).
        share: once the lookup tables are complete, start a helper (``share.begin``), resolve the
            references file by file only for the chunks ``share.take`` hands out, and take the
            other files' results from ``share.gathered`` (issue 12: two processes resolve a cold
            index together). The Resolution is the one a run without it gives: the
            results go back in file order, and no lookup's answer depends on which files a run
            resolved before (see :func:`_resolve`). Not with ``sink`` or ``only``.

    Returns:
        A :class:`Resolution` with contains, imports, calls, instantiates, extends, implements and
        references edges, and the references that resolved to nothing in the project — of the
        files in ``only``.
    """
    with paused_gc():
        return _resolve(files, only, manifests, project, refs_of, sink, fold, share)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside the block (restored as it was after it). Building the
    lookup tables and the edges allocates hundreds of thousands of objects, and every collection of
    the oldest generation walks all of them, though they hold almost no cycles: on django-sdist the
    collector took 0.3 of 0.75 s CPU of an edit sync's resolution, and about 1 s of a cold one's.
    At the end the objects made in the block join the oldest generation unscanned (``freeze`` then
    ``unfreeze``: two list splices), so re-enabling does not start with one collection over all of
    them (0.7 s under the profiler after an edit sync). Cycles made in the block wait for the next
    full collection (none were found: ``gc.collect()`` right after a resolution collects 0)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def _resolve(
    files: list[FileExtraction],
    only: set[str] | None,
    manifests: dict[str, str | None] | None,
    project: _Project | None = None,
    refs_of: Callable[[FileExtraction], list[Ref]] | None = None,
    sink: Callable[[list[Edge], list[tuple[Ref, str, str]]], None] | None = None,
    fold: bool = False,
    share: Share | None = None,
) -> Resolution:
    """:func:`resolve`. With ``share``, the helper starts from this run's tables and memos as they
    are once the bases are complete, and each run then memoises its own lookups. A memoised answer
    is the one the lookup gives from scratch, except one worked out while a recursion guard was up
    (a cycle through ``return_class``, ``value_type``, ``mro``, ``class_of`` or ``chain_class``:
    ``x = x.next()``), which can depend on which lookup of the cycle came first. A run of every
    file in order has that dependence too (so does an incremental sync, which asks fewer files).
    Measured: the guards fired 202 times on django-wheel, 236 on django-sdist, 26 on go-x-tools,
    never on java-guava or scala-library; the graphs written with and without a helper were identical on django-wheel,
    django-sdist, java-guava, go-x-tools and scala-library (issue 12)."""
    if share is not None and (sink is not None or only is not None or refs_of is not None):
        raise ValueError("share resolves every file, with its references in memory, into lists")
    project = project if project is not None else _Project(files, manifests, fold=fold)
    project.attach_owners()
    out = Resolution(manifest_problems=dict(sorted(project.manifest_problems.items())))
    edges = out.edges
    chosen = files if only is None else [f for f in files if f.path in only]
    unresolved_of: dict[str, list[Ref]] = defaultdict(list)
    spans: list[tuple[str, int, int]] = []  # (path, first, end) of the edges each step made
    linked: dict[str, set[str]] = defaultdict(set)

    def emitted(path: str, begin: int) -> None:
        if len(edges) > begin:
            spans.append((path, begin, len(edges)))
        if sink is not None:  # the edges made so far leave now, with what they link
            _link(project, spans, edges, linked)
            spans.clear()
            sink(edges, out.unresolved)
            edges.clear()
            out.unresolved.clear()

    for f in chosen:
        begin = len(edges)
        for child in project.contained.pop(f.path, ()):
            edges.append(Edge(project.parent[child], child, "contains"))
        for parent, child in f.contains:
            edges.append(Edge(project.parent.get(child, parent), child, "contains"))
        if fold:  # the tables and these edges hold them now (2 KB a synthetic monorepo file)
            f.contains = []
        emitted(f.path, begin)
    # bases first: member lookups through inheritance need them
    implemented: dict[str, list[str]] = defaultdict(list)
    reached: dict[str, set[str]] = defaultdict(set)  # path → files its resolved references reach
    for f in files:
        keep = only is None or f.path in only
        begin = len(edges)
        for ref in f.refs:
            if ref.kind in ("extends", "implements"):
                if ref.source.startswith(OWNER_SOURCE):  # written away from its type
                    owner = project.resolve_dotted(f.path, f"file:{f.path}", ref.source[len(OWNER_SOURCE) :])
                    if not isinstance(owner, Node) or owner.kind not in ENCLOSING_TYPES:
                        continue
                    ref = replace(ref, source=owner.id)
                hit = project.lang[f.path].resolve_ref(project, f.path, ref)
                target = hit[0] if hit is not None else project.resolve_dotted(f.path, ref.source, ref.name)
                if isinstance(target, Node):
                    target = project.lang[target.file_path].canonical(project, target)
                if isinstance(target, Node) and target.kind in TYPE_TARGETS and target.id != ref.source:
                    if ref.kind == "extends":
                        project.bases[ref.source].append(target.id)
                    elif project.lang[f.path].implements_inherits:
                        implemented[ref.source].append(target.id)
                    src = project.nodes.get(ref.source)
                    kind = project.lang[f.path].inheritance_kind(src, target, ref.kind) if src else ref.kind
                    if kind != ref.kind:
                        ref = replace(ref, kind=kind)
                    if keep:
                        edges.append(_edge(ref.source, target, ref.kind, ref, "import", 0.9))
                        reached[f.path].add(target.file_path)
                elif keep:
                    out.unresolved.append((ref, f.path, f.language))
                    unresolved_of[f.path].append(ref)
        if keep:
            out.resolved_refs += sum(1 for r in f.refs if r.kind in ("extends", "implements"))
            emitted(f.path, begin)
    for implementor, traits in implemented.items():  # after every extended base
        project.bases[implementor].extend(t for t in traits if t not in project.bases[implementor])
    project.bases_complete()
    # The keys an edge of one file's step is kept once under: their sources are the file's own
    # nodes (a reference's innermost symbol, the file for an import), so no file's key is another's
    # and a file's edges do not depend on which files the run resolved before it (``share``).
    seen: set[tuple[str, str, str]] = set()
    counted: dict[str, int] = {}  # path → the references its step resolved

    def step(f: FileExtraction) -> None:
        begin = len(edges)
        file_id = f"file:{f.path}"
        refs = f.refs if refs_of is None else refs_of(f)
        count = len(f.imports) + sum(1 for r in refs if r.kind not in ("extends", "implements"))
        out.resolved_refs += count
        counted[f.path] = count
        lang = project.lang[f.path]
        # one answer per distinct call of a file: a quarter of references repeat one (same source,
        # name, receiver, arguments; django-sdist 28 %, c-curl 51 %), and only PHP and Ruby read
        # the position. The answer: (target or None, how, whether a None counts as unresolved).
        answers: dict[tuple, tuple[Node | None, str, bool]] | None = None if lang.resolves_by_position else {}
        for ref in refs:
            if ref.kind in ("extends", "implements"):
                continue
            call = (ref.source, ref.kind, ref.name, ref.receiver, ref.arity, ref.args)
            answer = answers.get(call) if answers is not None else None
            if answer is None:
                answer = _answer(project, lang, f.path, ref)
                if answers is not None:
                    answers[call] = answer
            target, how, reported = answer
            if target is None:
                if reported:
                    out.unresolved.append((ref, f.path, f.language))
                    unresolved_of[f.path].append(ref)
                continue
            if ref.kind in ("references", "value"):
                kind = "references"
            elif target.kind in TYPE_TARGETS or target.kind == COMPONENT or ref.args == ELEMENT_USE:
                kind = "instantiates"
            else:
                kind = "calls"
            key = (ref.source, target.id, kind)
            if kind == "references" and key in seen:
                continue
            seen.add(key)
            edges.append(_edge(ref.source, target, kind, ref, how, CONFIDENCE.get(how, TOP_CONFIDENCE)))
            reached[f.path].add(target.file_path)
        used = _Used(project, f, reached[f.path])
        for b in f.imports:
            mod = project.module_file(f.path, b.module)
            bound = project.binding_target(f.path, b) if b.local and b.imported not in ("*", "") else None
            for dep in _imported_files(project, mod, b, bound, used):
                if (file_id, f"file:{dep}", "imports") not in seen:
                    seen.add((file_id, f"file:{dep}", "imports"))
                    edges.append(
                        Edge(
                            file_id,
                            f"file:{dep}",
                            "imports",
                            b.line,
                            b.col,
                            {"confidence": 0.9, "resolvedBy": "import", "refName": b.module},
                        )
                    )
            if b.imported not in ("*", ""):
                if isinstance(bound, Node) and (file_id, bound.id, "imports") not in seen:
                    seen.add((file_id, bound.id, "imports"))
                    edges.append(
                        Edge(
                            file_id,
                            bound.id,
                            "imports",
                            b.line,
                            b.col,
                            {"confidence": 0.9, "resolvedBy": "import", "refName": b.imported},
                        )
                    )
        emitted(f.path, begin)
        if sink is not None:  # its unresolved references are all known now (bases came first)
            _count_unresolved(project, out, f, unresolved_of.pop(f.path, ()), linked.pop(f.path, ()))
            # nothing held for one file's edges is asked again (their sources and the import edges'
            # are this file's nodes), and the answers kept for its lookups mostly are not: a big
            # first index lets them go (issue 12: 14 of the 22 KB a file resolution added)
            seen.clear()
            reached.pop(f.path, None)
            project.forget_answers()
        if fold:  # the types table holds them; only this file's _Used read them as written
            f.assigned_types = []

    if share is None:
        for f in chosen:
            step(f)
    else:
        return _shared(project, out, chosen, step, share, (unresolved_of, spans, linked, counted))
    _link(project, spans, edges, linked)
    for f in chosen if sink is None else ():
        _count_unresolved(project, out, f, unresolved_of.get(f.path, ()), linked.get(f.path, ()))
    return out


def _shared(
    project: _Project,
    out: Resolution,
    chosen: list[FileExtraction],
    step: Callable[[FileExtraction], None],
    share: Share,
    state: tuple,
) -> Resolution:
    """The file-by-file half of :func:`_resolve` with ``share``: start the helper, ``step`` each
    chunk ``share.take`` hands out, then put the helper's results and this run's together in file
    order, stepping the files neither resolved."""
    unresolved_of, spans, linked, counted = state
    edges, unresolved = out.edges, out.unresolved
    mine: dict[str, tuple[int, int, int, int]] = {}  # path → its step's slices of edges, unresolved

    def run(files: Iterable[FileExtraction]) -> None:
        for f in files:
            e, u = len(edges), len(unresolved)
            step(f)
            mine[f.path] = (e, len(edges), u, len(unresolved))

    def chunks() -> Iterator[FileExtraction]:
        while (chunk := share.take()) is not None:
            yield from (chosen[i] for i in chunk)

    def helper() -> dict[str, FileResult]:
        run(chunks())
        _link(project, spans, edges, linked)
        results = {}
        for f in chosen:
            if f.path in mine:
                _count_unresolved(project, out, f, unresolved_of.get(f.path, ()), linked.get(f.path, ()))
                e0, e1, u0, u1 = mine[f.path]
                at = {id(r): i for i, r in enumerate(f.refs)}
                results[f.path] = (
                    [(x.source, x.target, x.kind, x.line, x.col, x.metadata) for x in edges[e0:e1]],
                    [at[id(r)] for r, _, _ in unresolved[u0:u1]],
                    out.per_file[f.path],
                    counted[f.path],
                )
        return results

    share.begin(helper)
    run(chunks())
    others = share.gathered()
    run(f for f in chosen if f.path not in mine and f.path not in others)
    _link(project, spans, edges, linked)
    for f in chosen:
        if f.path in mine:
            _count_unresolved(project, out, f, unresolved_of.get(f.path, ()), linked.get(f.path, ()))
    # file order: the edges and unresolved references of every file's step, its row, its counts
    first = min((s[0] for s in mine.values()), default=len(edges))
    first_unresolved = min((s[2] for s in mine.values()), default=len(unresolved))
    merged = Resolution(
        edges=edges[:first],
        unresolved=unresolved[:first_unresolved],
        resolved_refs=out.resolved_refs,
        manifest_problems=out.manifest_problems,
    )
    for f in chosen:
        if f.path in mine:
            e0, e1, u0, u1 = mine[f.path]
            merged.edges.extend(edges[e0:e1])
            merged.unresolved.extend(unresolved[u0:u1])
            row = out.per_file[f.path]
        else:
            their_edges, their_unresolved, row, count = others[f.path]
            merged.edges.extend(Edge(*t) for t in their_edges)
            merged.unresolved.extend((f.refs[i], f.path, f.language) for i in their_unresolved)
            merged.resolved_refs += count
        merged.per_file[f.path] = row
        if row[1]:
            counts = merged.unresolved_by_language.setdefault(row[0], {"unresolved": 0, "likely_internal": 0})
            counts["unresolved"] += row[1]
            counts["likely_internal"] += row[2]
    return merged


LOCALS_TUPLE_MAX = 8  # a function's local names are kept in a tuple up to this many, else a frozenset


def _add_locals(
    table: dict[str, Collection[str]],
    pairs: list[tuple[str, str]],
    share: Callable[[tuple, tuple], tuple] = lambda made, _: made,
) -> None:
    """Add one file's (function id, local name) pairs to ``table``: per function its distinct names,
    in a tuple (most functions have a handful; a set of any size under five takes 216 bytes, a tuple
    of three 64 — issue 12: the sets were 7 of the 46 KB a synthetic monorepo file held while it
    resolved), or a frozenset past LOCALS_TUPLE_MAX, so that ``in`` stays cheap. ``share(t, t)``
    gives the tuple to keep for ``t`` (an equal one already kept: ``dict.setdefault``)."""
    grouped: dict[str, dict[str, None]] = {}
    for fn_id, name in pairs:
        names = grouped.get(fn_id)
        if names is None:
            names = grouped[fn_id] = dict.fromkeys(table.get(fn_id, ()))
        names[name] = None
    for fn_id, names in grouped.items():
        if len(names) <= LOCALS_TUPLE_MAX:
            made = tuple(names)
            table[fn_id] = share(made, made)
        else:
            table[fn_id] = frozenset(names)


def _link(project: _Project, spans: list[tuple[str, int, int]], edges: list[Edge], linked) -> None:
    """Add to ``linked`` (path → other files) the files whose nodes are sources of the edges
    ``spans`` (path, first, end) mark in ``edges``."""
    for path, begin, end in spans:
        for e in edges[begin:end]:
            source = project.nodes.get(e.source)
            other = source.file_path if source is not None else e.source.removeprefix("file:")
            if other != path:
                linked[path].add(other)


def _count_unresolved(project: _Project, out: Resolution, f: FileExtraction, refs, linked) -> None:
    """``f``'s row of ``out.per_file`` and its share of ``out.unresolved_by_language``: counted per
    file (the store keeps one row per distinct reference of a file), so that the totals of an
    incremental run are the sums of the files' counts a full run would give."""
    unresolved = likely = 0
    counted = set()
    for ref in refs:
        site = (ref.source, ref.name, ref.kind, ref.line, ref.col)
        if site in counted:
            continue
        counted.add(site)
        unresolved += 1
        likely += likely_internal(project, f.path, ref)
    out.per_file[f.path] = (f.language, unresolved, likely, tuple(sorted(linked)))
    if unresolved:
        counts = out.unresolved_by_language.setdefault(f.language, {"unresolved": 0, "likely_internal": 0})
        counts["unresolved"] += unresolved
        counts["likely_internal"] += likely


def likely_internal(project: _Project, path: str, ref: Ref) -> bool:
    """Does an unresolved call look like it should reach project code? A bare name that no import,
    local or builtin explains, or a member called through ``self``/``this`` — not ``x.map()`` on an
    unknown receiver, nor a name imported from a package outside the project (issue 11)."""
    if ref.kind not in ("calls", "instantiates"):
        return False
    lang = project.lang[path]
    if ref.receiver is None:
        if ref.name in lang.builtins or ref.name in project.bindings[path]:
            return False
        if any(project.module_file(path, star.module) is None for star in project.star[path]):
            return False  # a wildcard import from outside the project may define it
        return not any(ref.name in project.locals.get(s.id, ()) for s in project.scopes(ref.source))
    return ref.receiver in lang.self_names and "." not in ref.name[len(ref.receiver) + 1 :]


def _answer(project: _Project, lang, path: str, ref: Ref) -> tuple[Node | None, str, bool]:
    """What one reference of ``path`` resolves to, as (target, how, counted): target None when
    nothing fits, and then ``counted`` says whether it is an unresolved reference (an argument
    that names no project function is just data)."""
    # resolved as the language reads it (Pascal: case-insensitive); recorded as written
    lookup = lang.rewrite_ref(project, path, ref)
    target, how = _resolve_ref(project, path, lookup)
    if target is None:
        return None, "", ref.kind != "value"
    target = project.lang[target.file_path].canonical(project, target)
    target = lang.choose_overload(project, lookup, target)
    if target is None:
        return None, "", True
    return target, how, True


def _resolve_ref(project: _Project, path: str, ref: Ref) -> tuple[Node | None, str]:
    if ref.kind == "value":  # a function or class passed as a value
        target, how = _resolve_call(project, path, ref)
        if target is None or target.kind not in VALUE_TARGETS or how == "exact-match":
            return None, ""  # only a name the file binds: a stray argument never guesses
        return target, how
    return _resolve_call(project, path, ref)


def _resolve_call(project: _Project, path: str, ref: Ref) -> tuple[Node | None, str]:
    hit = project.lang[path].resolve_ref(project, path, ref)
    if hit is not None:
        return hit
    name = ref.name
    if ref.kind == "references":
        target, how = project.lookup_bare(path, ref.source, name, allow_unique=True, wanted=TYPE_TARGETS)
        return (target, how) if isinstance(target, Node) and target.kind in TYPE_TARGETS else (None, "")
    if ref.receiver is None and name in project.lang[path].super_names:
        # super(...): the nearest base's constructor, where that is what it calls (JS; Python's
        # super() is the bases' proxy, no call of a constructor)
        cls = project.enclosing_class(ref.source) if project.lang[path].super_calls_constructor else None
        for base in project.mro(cls.id)[1:] if cls is not None else ():
            for ctor in project.lang[path].constructor_names:
                hits = project.children.get(base, {}).get(ctor)
                if hits:
                    return hits[-1], "super"
        return None, ""
    if ref.receiver is None:
        target, how = project.lookup_bare(path, ref.source, name, allow_unique=True, wanted=BARE_CALL_TARGETS)
        if isinstance(target, Node) and target.kind in VALUE_KINDS:
            aliased = project.alias_target(target)  # const c = a; c()
            if aliased is not None:
                target, how = aliased, "alias"
            elif how == "import":  # an imported callable value (vec4 = new ConvertType(), _ = gettext_lazy)
                return target, how
        if isinstance(target, Node) and (target.kind in BARE_CALL_TARGETS or target.kind == "method"):
            return target, how
        return None, ""
    recv = ref.receiver
    method = name.rsplit(".", 1)[-1]
    lang = project.lang[path]
    if recv in lang.self_names:
        cls = project.enclosing_class(ref.source)
        if cls is None:
            return None, ""
        target = project.member(cls.id, method, ref)
        if target is not None and target.id == ref.source and target.id in project.foreign_of:
            # an extension method of an SDK type calling the SDK's own member of that name
            # (``self.init(...)`` in a convenience init, ``addConnection(c)`` wrapping the original)
            return None, ""
        return (
            (target, "self")
            if target is not None and target.kind in ("method", "function", "property") and _callable(target)
            else (None, "")
        )
    if recv in lang.super_names:
        cls = project.enclosing_class(ref.source)
        if cls is None:
            return None, ""
        for base in project.bases.get(cls.id, ()):
            target = project.member(base, method, ref)
            if target is not None and _callable(target):
                return target, "super"
        return None, ""
    if recv.endswith("()") and "(" not in recv[:-2]:
        # UserRepo().save(): the class the call constructs or the function returns
        made = project.class_of(path, ref.source, recv[:-2])
        if made is None and "." in recv[:-2]:
            # self.0.s().go_t(), self.inner.s().go_t(): a typed field's method, then its result type
            # (found on rust-regex: every Regex::* → ExecNoSyncStr::* edge was dropped)
            made = project.chain_class(path, ref.source, recv)
        target = project.member(made.id, method) if made is not None else None
        return (target, "return-type") if target is not None and _callable(target) else (None, "")
    if "()." in recv and not recv.startswith("<"):
        # pool.get().prepare().run(): each call's declared or inferred result type in turn
        made = project.chain_class(path, ref.source, recv)
        target = project.member(made.id, method, ref) if made is not None else None
        return (target, "return-type") if target is not None and _callable(target) else (None, "")
    if recv.startswith("<"):
        return None, ""
    head = recv.split(".", 1)[0]
    if head in lang.self_names:
        typed = project.type_of(path, ref.source, recv)
    else:
        typed = project.type_of(path, ref.source, recv) if "." not in recv else None
    if typed is None and "." in recv:  # tree.root.getValue(), self.repo.conn.execute()
        typed = project.property_chain(path, ref.source, recv)
    if typed is not None:
        target = project.member(typed.id, method, ref)
        return (target, "type-inference") if target is not None and _callable(target) else (None, "")
    if head in lang.self_names:
        return None, ""
    target = project.resolve_dotted(path, ref.source, name, ref)
    if isinstance(target, Node) and _callable(target):
        return target, "import" if head in project.bindings[path] else "qualified"
    return None, ""


def _imported_files(project: _Project, mod: str | None, binding, target, used: _Used) -> list[str]:
    """The files an import statement makes its file depend on: the module's file; for a package
    (several files), all of them for a side-effect import (each file's initialisers run) or in a
    language with ``whole_package_imports``, the ones the file uses for another whole-package
    import, else the file defining the name. Linking every file of the package said nothing of
    what the file uses and cost the most of all: a C# ``using N;`` linked its file to each file of
    namespace N, 21,978 of cs-keepass's 56,376 edges (Program.cs alone 321); 2,487 remain."""
    if mod is None:
        return []
    paths = project.module_paths(mod)
    if len(paths) == 1:
        return paths
    if binding.imported == "" or (binding.imported == "*" and used.whole_packages):
        return paths[:MAX_PACKAGE_IMPORT_EDGES]
    if binding.imported == "*":
        return [p for p in paths if p in used]
    return [target.file_path] if isinstance(target, Node) else []


class _Used:
    """The files one file uses: those its resolved references reach, and those defining a type
    named where it declares something (a parameter, local, field or return type: C# ``Account
    Find(string id);`` in an interface calls nothing but depends on ``Account``)."""

    def __init__(self, project: _Project, f: FileExtraction, reached: set[str]):
        self.project, self.f, self.reached = project, f, reached
        self.whole_packages = project.lang[f.path].whole_package_imports
        self._named: set[str] | None = None

    def __contains__(self, path: str) -> bool:
        if path in self.reached:
            return True
        if self._named is None:
            f = self.f
            strings = [t for _, _, t in f.assigned_types]
            strings += [s for n in f.nodes if n.kind != "import" for s in (n.signature, n.return_type) if s]
            self._named = {w for s in strings for w in _TYPE_WORD.findall(s)}
        named = self._named
        for name, hits in self.project.top[path].items():  # a file's few names, not the hundreds named
            if name in named and any(n.kind in TYPE_TARGETS for n in hits):
                return True
        return False


def _callable(node: Node) -> bool:
    return node.kind in ("function", "method", "class", "struct") or (
        node.kind == "property" and node.signature is not None
    )
