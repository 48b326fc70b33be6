"""The resolver's project tables filled as lookups reach them, for a one-file edit (issue 12).

An incremental sync re-resolves a few files, but the eager :class:`~codegraph.index.resolve._Project`
decodes every file's interface and builds every table first: on the 10,000-file monorepo 4.5 of an
edit sync's 6 CPU seconds, growing with the project. :class:`LazyProject` starts from the files to
re-resolve and the paths and languages of all others; a file's interface is decoded and put into the
tables the first time a lookup reaches a key of that file:

- a path (its top-level names, import bindings, star imports, exports);
- a node id (nodes, parents, members, typed names, returns, locals, closures): the file that holds
  it comes from the stored ``nodes`` table (the changed files are in the tables from the start, so an
  id the table still gives to a changed file is simply not found);
- a name asked of the whole project (the unique-definition fallback): the files with a node of that
  name (``idx_nodes_name``) plus the changed files, all filled, their definitions listed in path order;
- a class's bases: the extends/implements references of the class's file, resolved when a method
  resolution order first asks (the files to re-resolve keep theirs in the resolver's base step).

Tables whose eager form is a walk over every file answer from a superset: every name may be held at
the top of some file (the walks those sets cut short give the same answer without them). Definitions
written outside their type (``FileExtraction.owners``) are moved by the eager rule over just the files
that have them (metadata ``cgpy_owner_files``). What the lazy tables cannot answer raises
:class:`LazyUnavailable` and the sync resolves eagerly instead: an extends written away from its type
(``cgpy_owner_bases``), a member of a type the project does not declare, a walk over a whole table.

The files of a language without ``lazy_resolution`` (its ``prepare`` reads every file of it: Go
packages, Java packages, C++ namespaces) are all filled before any lookup, and its ``prepare`` gets
them as the eager tables' gets them; the others are filled as lookups reach them (a Python project with
a few shell scripts, the Linux kernel's C beside its 35 C++ files). When those languages hold half the
project or more, the sync resolves eagerly: the lazy tables would read most files anyway.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import NamedTuple, cast

from codegraph.index.resolve import COMPONENT, ENCLOSING_TYPES, OWNER_KINDS, TYPE_TARGETS, Node, _Project
from codegraph.model import OWNER_SOURCE, FileExtraction
from codegraph.store.project_index import ProjectIndex

HIERARCHY = ("extends", "implements")


class LazyUnavailable(Exception):
    """A lookup reached a table the lazy project cannot fill; resolve eagerly instead."""


class _Everything:
    """A set that holds every name (a superset of the project's top-level names)."""

    def __contains__(self, name: object) -> bool:
        return True


class _PathOnly(NamedTuple):
    """What a ``lazy_resolution`` language's ``prepare`` may read of a file: its path."""

    path: str


class _Filled(dict):
    """A table whose reads first put the file owning the key into the project (``ensure``)."""

    def __init__(self, ensure: Callable[[str], None], factory: Callable[[], object] | None = None):
        super().__init__()
        self._ensure = ensure
        self._factory = factory

    def __getitem__(self, key):
        self._ensure(key)
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            if self._factory is None:
                raise
            value = self._factory()
            dict.__setitem__(self, key, value)
            return value

    def get(self, key, default=None):
        self._ensure(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        self._ensure(key)
        return dict.__contains__(self, key)

    def _whole(self, *args):
        raise LazyUnavailable("a walk over a whole lazily filled table")

    items = values = keys = __iter__ = __len__ = _whole  # type: ignore[assignment]


class _Files(Mapping):
    """path → extraction of every project file; an extraction is loaded when first read."""

    def __init__(self, project: LazyProject):
        self._project = project

    def __getitem__(self, path: str) -> FileExtraction:
        self._project._ensure_path(path)
        return self._project._loaded[path]

    def __contains__(self, path: object) -> bool:
        return path in self._project._langs

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._project._langs))

    def __len__(self) -> int:
        return len(self._project._langs)


class _FilledOnAsk(dict):
    """A table whose answer for a key is worked out (``fill``) the first time it is asked for: the
    top-level definitions of a name across the project, the nodes of a qualified name."""

    def __init__(self, fill: Callable[[str], list[Node]]):
        super().__init__()
        self._fill = fill

    def get(self, key, default=None):
        if not dict.__contains__(self, key):
            dict.__setitem__(self, key, self._fill(key))
        return dict.get(self, key) or default

    def __getitem__(self, key):
        return self.get(key, [])


class LazyProject(_Project):
    """:class:`_Project` over ``fresh`` (full extractions, in the tables from the start) and the rest
    of the project's files (``languages``: path → label), loaded through ``load`` when reached.

    Args:
        fresh: the files to re-resolve, and every changed file: path → extraction.
        languages: path → language label of every file of the project after the change.
        load: path → the interface of an unchanged file (raises :class:`LazyUnavailable` without one).
        index: the stored index of the last run (node → file, name → files).
        owner_files: files with definitions written outside their type.
        owner_bases: files with an extends or implements written away from its type (a Rust
            ``impl Trait for Type``): allowed only in languages filled up front, none of whose
            files is to be re-resolved (their bases are then all worked out when the bases open).
        manifests: as :func:`codegraph.index.resolve.resolve`.
    """

    def __init__(
        self,
        fresh: dict[str, FileExtraction],
        languages: dict[str, str],
        load: Callable[[str], FileExtraction],
        index: ProjectIndex,
        owner_files: set[str],
        manifests: dict[str, str | None] | None = None,
        owner_bases: set[str] | frozenset[str] = frozenset(),
    ):
        from codegraph.index.languages import module_for

        super().__init__([], None)  # every attribute of the eager project, empty
        modules = {label: module_for(label) for label in set(languages.values())}
        eager = {label for label, lang in modules.items() if not lang.lazy_resolution}
        loaded_first = sorted(path for path, label in languages.items() if label in eager)
        if eager and 2 * len(loaded_first) >= len(languages):
            # most files would be read up front: the eager tables cost no more
            raise LazyUnavailable(f"{', '.join(sorted(eager))} resolve only eagerly")
        # the files whose bases are worked out when the bases open, in one pass as the eager tables'
        # (an extends written away from its type adds to another file's type)
        based = {languages[p] for p in owner_bases if p in languages}
        self._based_first = sorted(p for p, label in languages.items() if label in based)
        if owner_bases and (based - eager or set(self._based_first) & set(fresh)):
            raise LazyUnavailable(f"{min(owner_bases)}: an extends written away from its type")
        self._langs = languages
        self._load = load
        self._index = index
        self._fresh = sorted(fresh)
        self._loaded: dict[str, FileExtraction] = {}
        self._ingested: set[str] = set()
        self._settled: set[str] = set()  # node ids whose file was looked for
        self._global_of: dict[str, dict[str, list[Node]]] = {}
        self._owner_files = sorted(p for p in owner_files | set(fresh) if p in languages)
        self._bases_open = False  # the eager project has no bases while owners are attached
        self._bases_asked: set[str] = set()
        self._bases_done: set[str] = set(fresh)  # the resolver's base step does these
        self.files = _Files(self)  # type: ignore[assignment]
        self.lang = {path: modules[label] for path, label in languages.items()}
        by_path = self._ensure_path
        by_id = self._ensure_id
        self.nodes = _Filled(by_id)
        self.parent = _Filled(by_id)
        self.children = _Filled(by_id, lambda: defaultdict(list))
        self.types = _Filled(by_id, lambda: defaultdict(set))
        self.returns = _Filled(by_id, list)
        self.locals = _Filled(by_id, set)
        self.lexical = _Filled(by_id)
        self.top = _Filled(by_path)
        self.bindings = _Filled(by_path)
        self.star = _Filled(by_path)
        self.exports = _Filled(by_path)
        self.global_by_name = _FilledOnAsk(self._defining)  # type: ignore[assignment]
        self.bases = _Filled(self._ensure_bases, list)
        for path, fx in sorted(fresh.items()):
            self._loaded[path] = fx
            self._ingest(path)
        for path in loaded_first:  # a language without lazy_resolution: its prepare reads every file
            self._ensure_path(path)
        self.read_manifests([modules[label] for label in sorted(modules)], manifests)
        of_label: dict[str, list[str]] = {label: [] for label in modules}
        for path, label in languages.items():
            of_label[label].append(path)
        for label in sorted(modules):
            mine = sorted(of_label[label])
            if label in eager:
                modules[label].prepare(self, [self._loaded[p] for p in mine])
            else:  # lazy_resolution: its prepare reads .path only
                modules[label].prepare(self, [_PathOnly(p) for p in mine])  # type: ignore[misc]
        self._holders_ready = True

    # ------------------------------------------------------------ filling
    def _ensure_path(self, path: str) -> None:
        if path not in self._ingested and path in self._langs:
            self._loaded[path] = self._load(path)
            self._ingest(path)

    def _ensure_id(self, node_id: str) -> None:
        if dict.__contains__(self.nodes, node_id) or node_id in self._settled:
            return
        self._settled.add(node_id)
        if node_id.startswith("file:"):
            self._ensure_path(node_id[len("file:") :])
        elif not node_id.startswith("foreign:"):
            path = self._index.file_of(node_id)
            if path is not None:
                self._ensure_path(path)

    def _ingest(self, path: str) -> None:
        """Put one file into the tables, as the eager project's constructor does for each file."""
        self._ingested.add(path)
        f = self._loaded[path]
        nodes, parent_of, children = self.nodes, self.parent, self.children
        file_id = f"file:{path}"
        top: dict[str, list[Node]] = defaultdict(list)
        mine: dict[str, list[Node]] = defaultdict(list)
        for n in f.nodes:
            dict.__setitem__(nodes, n.id, n)
        owned = {nid for nid, _ in f.owners}
        for parent, child in f.contains:
            dict.__setitem__(parent_of, child, parent)
            node = dict.__getitem__(nodes, child)
            if node.kind == "import":
                continue
            name = node.name
            members = dict.get(children, parent)
            if members is None:
                members = defaultdict(list)
                dict.__setitem__(children, parent, members)
            members[name].append(node)
            if (
                parent == file_id
                or (
                    getattr(dict.get(nodes, parent), "kind", None) == COMPONENT
                    and dict.get(parent_of, parent) == file_id
                )
            ) and child not in owned:
                top[name].append(node)
                if node.kind in TYPE_TARGETS or node.kind == "function":
                    mine[name].append(node)
        dict.__setitem__(self.top, path, top)
        self._global_of[path] = mine
        binds: dict[str, object] = {}
        stars = []
        for b in f.imports:
            if b.local == "*":
                stars.append(b)
            elif b.local:
                binds[b.local] = b
        dict.__setitem__(self.bindings, path, binds)
        dict.__setitem__(self.star, path, stars)
        dict.__setitem__(self.exports, path, dict(f.exports))
        for scope, var, type_name in f.assigned_types:
            typed = dict.get(self.types, scope)
            if typed is None:
                typed = defaultdict(set)
                dict.__setitem__(self.types, scope, typed)
            cast(set[str], typed[var]).add(type_name)  # this table's are sets
        for fn_id, expr in f.returns:
            if dict.__contains__(self.returns, fn_id):
                cast(list[str], dict.__getitem__(self.returns, fn_id)).append(expr)  # this table's are lists
            else:
                dict.__setitem__(self.returns, fn_id, [expr])
        for fn_id, local in f.locals:
            if dict.__contains__(self.locals, fn_id):
                cast(set[str], dict.__getitem__(self.locals, fn_id)).add(local)  # this table's are sets
            else:
                dict.__setitem__(self.locals, fn_id, {local})
        for hoisted, fn_id in f.closures:
            dict.__setitem__(self.lexical, hoisted, fn_id)

    def _defining(self, name: str) -> list[Node]:
        """The eager ``global_by_name[name]``: every file that may define ``name`` filled, in path order."""
        paths = sorted({p for p in self._index.files_naming(name) if p in self._langs}.union(self._fresh))
        found: list[Node] = []
        for path in paths:
            self._ensure_path(path)
            found.extend(self._global_of[path].get(name, ()))
        return found

    def by_qualified_name(self, keep: Callable[[Node], bool]) -> _FilledOnAsk:  # type: ignore[override]
        return _FilledOnAsk(lambda qualified_name: self._qualifying(qualified_name, keep))

    def _qualifying(self, qualified_name: str, keep: Callable[[Node], bool]) -> list[Node]:
        """The eager ``by_qualified_name(keep)[qualified_name]``: every file that may hold a node of
        that qualified name filled, its nodes in file order, the files in path order."""
        held = {p for p in self._index.files_qualifying(qualified_name) if p in self._langs}
        nodes = self.nodes
        found: list[Node] = []
        for path in sorted(held.union(self._fresh)):
            self._ensure_path(path)
            for n in self._loaded[path].nodes:
                # the node the table holds for that id (a later file's, when two files made one id)
                if n.qualified_name == qualified_name and dict.get(nodes, n.id) is n and keep(n):
                    found.append(n)
        return found

    def _ensure_bases(self, class_id: str) -> None:
        """Resolve the extends/implements of the file of ``class_id`` the first time its bases are read."""
        if not self._bases_open or class_id in self._bases_asked:
            return
        self._bases_asked.add(class_id)
        node = self.nodes.get(class_id)
        if node is None or node.file_path in self._bases_done:
            return
        self._bases_done.add(node.file_path)
        self._bases_over([self.files[node.file_path]], frozenset())

    def _bases_over(self, files: list[FileExtraction], owned_by: set[str] | frozenset[str]) -> None:
        """The eager base step over ``files`` (path order), whose edges are not re-made: only
        ``bases`` is filled, every implemented trait after every extended base, as there. An extends
        written away from its type may name a type of a file in ``owned_by`` only."""
        implemented: dict[str, list[str]] = defaultdict(list)
        for f in files:
            self._file_bases_into(f, owned_by, implemented)
        for implementor, traits in implemented.items():
            known = self._bases_of(implementor)
            known.extend(t for t in traits if t not in known)

    def _file_bases_into(
        self, f: FileExtraction, owned_by: set[str] | frozenset[str], implemented: dict[str, list[str]]
    ) -> None:
        lang = self.lang[f.path]
        for ref in f.refs:
            if ref.kind not in HIERARCHY:
                continue
            if ref.source.startswith(OWNER_SOURCE):
                owner = self.resolve_dotted(f.path, f"file:{f.path}", ref.source[len(OWNER_SOURCE) :])
                if not isinstance(owner, Node) or owner.kind not in ENCLOSING_TYPES:
                    continue
                if owner.file_path not in owned_by:
                    raise LazyUnavailable(f"{f.path}: an extends written away from its type")
                ref = replace(ref, source=owner.id)
            hit = lang.resolve_ref(self, f.path, ref)
            target = hit[0] if hit is not None else self.resolve_dotted(f.path, ref.source, ref.name)
            if isinstance(target, Node):
                target = self.lang[target.file_path].canonical(self, target)
            if isinstance(target, Node) and target.kind in TYPE_TARGETS and target.id != ref.source:
                if ref.kind == "extends":
                    self._bases_of(ref.source).append(target.id)
                elif lang.implements_inherits:
                    implemented[ref.source].append(target.id)

    def _bases_of(self, class_id: str) -> list[str]:
        found = dict.get(self.bases, class_id)
        if found is None:
            found = []
            dict.__setitem__(self.bases, class_id, found)
        return found

    # ------------------------------------------------------------ the eager walks, bounded
    def attach_owners(self) -> None:
        """The eager rule over the files that have owners; every name may then be held at the top."""
        for path in self._owner_files:
            f = self.files[path]
            if not f.owners:
                continue
            file_id = f"file:{path}"
            lang = self.lang[path]
            for nid, owner in f.owners:
                scope = self.parent.get(nid, file_id)
                target = self.resolve_dotted(path, scope if scope != nid else file_id, owner)
                if not isinstance(target, Node) or target.kind not in OWNER_KINDS:
                    if lang.foreign_owners and target is None:
                        raise LazyUnavailable(f"{path}: a member of a type the project does not declare")
                    continue
                self.move_member(path, self.nodes[nid], target)
        self._scope_cache.clear()
        self._export_memo.clear()
        self._visible_cache.clear()
        self._top_names = _Everything()  # type: ignore[assignment]
        self._bases_open = True
        self._bases_done.update(self._based_first)  # being worked out: as the eager base step's
        self._bases_over([self.files[p] for p in self._based_first], set(self._based_first))

    def _may_export(self, path: str, name: str) -> bool:
        return True  # the eager answer without the shortcut: the walk finds what the holders allow

    def _package_members(self, handle: str, name: str) -> list[str]:
        return self.packages[handle]  # every file: the holders know only the files filled so far

    def _declares_type(self, owner: str) -> bool:
        raise LazyUnavailable("a member of a type the project does not declare")
