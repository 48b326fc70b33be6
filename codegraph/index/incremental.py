"""Which files' references a change can re-answer (issue 12: incremental resolution). Pure: no I/O.

The resolver answers a reference by lookups keyed by names: a file's top-level names, a type's
members, import bindings, exports, the types a scope states, what a function returns, a class's
bases, a module by the words of its path. So a file's *facts* (everything in its extraction that
other files' lookups can read: all of it but its own non-hierarchy references and the positions no
lookup reads) each have *subjects*, the words under which a lookup finds them. When a fact appears,
disappears or changes, only lookups of its subjects can answer differently, and only a file whose
extraction *mentions* one of those words (anywhere: a reference, a receiver, a type, an import, its
own path) makes such a lookup.

An answer can also change second-hand: a fact of another file whose meaning is worked out from a
changed word (``def make() -> Baz`` when ``Baz`` changed) changes what its own subjects mean
(``make``). :func:`plan` follows that to a fixpoint over the files it re-resolves, so every file left
out neither mentions a word whose meaning changed nor reads a fact that does. Changes it cannot bound
by words (a star import or a package clause that changes, a file that stops being a language the
resolver knows) mean "everything": the caller resolves the whole project.

Words are case-folded runs of word characters (PHP's names are case-insensitive); a string with none
(an operator's name) is its own word.
"""

from __future__ import annotations

import posixpath
import re
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the model is imported where it is used: a no-change sync needs only manifest_change
    from codegraph.model import FileExtraction

EVERYTHING = None  # the subjects of a fact whose readers words cannot bound
_WORD = re.compile(r"\w+")
_SYMBOLS = re.compile(r"^[^\w\n]+$", re.MULTILINE)
HIERARCHY = frozenset({"extends", "implements"})


@lru_cache(maxsize=1 << 16)
def words(text: str | None) -> frozenset[str]:
    """Case-folded words of ``text``; the whole string (folded) when it has no word character.
    Cached: the same names recur across a file's facts and across files."""
    if not text:
        return frozenset()
    found = frozenset(w.lower() for w in _WORD.findall(text))
    return found or frozenset({text.lower()})


def name_words(path: str) -> frozenset[str]:
    """The words of ``path``'s file name without the extension (what an ``#include`` of it names,
    wherever it sits: ``cg_probe`` of ``kernel/cg_probe.c``)."""
    name = posixpath.basename(path)
    return words(name.rsplit(".", 1)[0] if "." in name[1:] else name)


def path_words(path: str) -> frozenset[str]:
    """The words a module lookup of ``path`` can be keyed by: its file name without the extension
    (``views`` of ``shop/views.py``) and its directory's name (``shop``: a package, a Go or Java
    directory, ``index.ts`` / ``__init__.py`` / ``mod.rs`` reached by their folder)."""
    return name_words(path) | words(posixpath.basename(posixpath.dirname(path)))


@dataclass(slots=True)
class Fact:
    key: tuple  # equal keys: the same fact (what an edit is compared by)
    subjects: frozenset[str] | None  # EVERYTHING (None), or the words its readers look up
    mentions: frozenset[str]  # the words its meaning is worked out from


def facts(fx: FileExtraction, self_names: Iterable[str] = (), includes: bool = False) -> list[Fact]:
    """The facts of one file's extraction that lookups from other files can read.

    Left out, because no lookup reads them (``codegraph/index/resolve.py`` and the language modules
    were read for this): node end positions, start columns and docstrings; import and reference
    positions; the file's non-hierarchy references (only its own resolution reads them); its locals
    and closures (only scopes inside the file consult them)."""
    from codegraph.model import OWNER_SOURCE

    skip = {s.lower() for s in self_names}
    name_of = {n.id: n.name for n in fx.nodes}
    # import statements are nodes no lookup finds by name (the resolver reads them as bindings)
    unnamed = {n.id for n in fx.nodes if n.kind == "import"}
    out: list[Fact] = []

    def add(key: tuple, subjects, *strings: str | None) -> None:
        mention = frozenset().union(*map(words, strings))
        out.append(Fact(key, None if subjects is None else frozenset(subjects - skip), mention))

    for n in fx.nodes:
        if n.kind == "file":
            # ``includes``: the language's ``file_includes`` (a file looked up by its name alone)
            add(
                ("n", n.id, n.kind, n.name, n.qualified_name, n.language),
                name_words(fx.path) if includes else path_words(fx.path),
            )
            continue
        key = (
            "n",
            n.id,
            n.kind,
            n.name,
            n.qualified_name,
            n.language,
            n.start_line,
            n.signature,
            n.visibility,
            n.is_exported,
            n.is_async,
            n.is_static,
            n.is_abstract,
            tuple(n.decorators or ()),
            tuple(n.type_parameters or ()),
            n.return_type,
        )
        add(
            key,
            frozenset() if n.id in unnamed else words(n.name),
            n.name,
            n.qualified_name,
            n.signature,
            n.return_type,
            *(n.decorators or ()),
            *(n.type_parameters or ()),
        )
    subjects: frozenset[str] | None  # None: EVERYTHING
    for parent, child in fx.contains:
        subjects = frozenset() if child in unnamed else words(name_of.get(child))
        add(("c", parent, child), subjects, name_of.get(parent), name_of.get(child))
    for b in fx.imports:
        # a star or bare import can bring in any name: its readers are not bounded by words
        subjects = EVERYTHING if b.local in ("*", "") else words(b.local)
        add(("i", b.local, b.module, b.imported, b.reexport), subjects, b.local, b.module, b.imported)
    for name, local in fx.exports:
        add(("e", name, local), words(name), name, local)
    for scope, var, type_name in fx.assigned_types:
        add(("t", scope, var, type_name), words(var) | words(name_of.get(scope)), var, type_name)
    for fn_id, expr in fx.returns:
        add(("r", fn_id, expr), words(name_of.get(fn_id)), expr)
    for nid, owner_name in fx.owners:
        add(("o", nid, owner_name), words(name_of.get(nid)) | words(owner_name), name_of.get(nid), owner_name)
    for r in fx.refs:
        if r.kind not in HIERARCHY:
            continue
        owner = r.source[len(OWNER_SOURCE) :] if r.source.startswith(OWNER_SOURCE) else name_of.get(r.source)
        add(
            ("x", r.source, r.kind, r.name, r.receiver, r.arity, r.args),
            words(owner),
            owner,
            r.name,
            r.receiver,
        )
    if fx.package is not None:
        # a file moving between packages changes what every one of its names means to both
        everything = set(path_words(fx.path)) | words(fx.package)
        for n in fx.nodes:
            everything |= words(n.name)
        add(("p", fx.package), everything, fx.package)
    return out


def mentions(fx: FileExtraction, lang=None) -> frozenset[str]:
    """Every word a file's resolution can look up: the words of every string of its extraction and
    of its own path (relative imports are resolved from its directory); with its language module
    ``lang``, the constructor names a bare ``super(…)`` call looks up in the bases. Same words as
    :func:`words` of each string (one scan of them all: a cold index computes this for every file)."""
    strings: list[str] = [fx.path.replace("/", "\n"), fx.package or ""]
    add = strings.append
    if (
        lang is not None
        and lang.super_calls_constructor
        and any(r.receiver is None and r.name in lang.super_names for r in fx.refs)
    ):
        strings.extend(lang.constructor_names)
    for n in fx.nodes:
        add(n.name)
        add(n.qualified_name)
        if n.signature:
            add(n.signature)
        if n.return_type:
            add(n.return_type)
        if n.decorators:
            strings.extend(n.decorators)
        if n.type_parameters:
            strings.extend(n.type_parameters)
    for r in fx.refs:
        add(r.name)
        if r.receiver:
            add(r.receiver)
        if r.args:
            add(r.args)
    for b in fx.imports:
        add(b.local)
        add(b.module)
        add(b.imported)
    for exported, local in fx.exports:
        add(exported)
        add(local)
    for _, named in (*fx.owners, *fx.returns, *fx.locals):
        add(named)
    for _, var, type_name in fx.assigned_types:
        add(var)
        add(type_name)
    # each string once (names repeat): both patterns match within a line, so the found set is the same
    text = "\n".join(dict.fromkeys(strings)).lower()
    found = set(_WORD.findall(text))
    found.update(_SYMBOLS.findall(text))  # a string with no word character is its own word
    found.discard("")
    return frozenset(found)


def interface(fx: FileExtraction) -> FileExtraction:
    """``fx`` without the references only its own resolution reads (all but extends/implements):
    what resolving *other* files needs of it, about two thirds of its encoded size (django-sdist:
    6.6 of 10.2 MB) and half its decoding time."""
    return replace(fx, refs=[r for r in fx.refs if r.kind in HIERARCHY])


Mentions = str | bytes  # a cgpy_mentions row: the words newline-joined (zlib of them before stop 29)


def encode_mentions(found: Iterable[str]) -> str:
    """The ``cgpy_mentions`` row of a file's mentions: its words, sorted, newline-joined, as text
    (SQLite finds a word in every file's row without Python decoding each: :func:`mentions_any`)."""
    return "\n".join(sorted(found))


def _mentions_text(data: Mentions) -> str:
    return data if isinstance(data, str) else zlib.decompress(data).decode()  # a row of an older index


def decode_mentions(data: Mentions) -> frozenset[str]:
    text = _mentions_text(data)
    return frozenset(text.split("\n")) if text else frozenset()


def mentions_any(data: Mentions, words: Iterable[str]) -> bool:
    """Does the encoded mentions ``data`` hold one of ``words``? (What ``decode_mentions(data)``
    answers with ``isdisjoint``, without building the set: on the Linux kernel's 56,123 files 0.9
    against 2.6 s.)"""
    text = "\n" + _mentions_text(data) + "\n"
    return any("\n" + w + "\n" in text for w in words)


@dataclass
class Plan:
    """The outcome of :func:`plan`: ``files`` to re-resolve (None: all of them) and why."""

    files: set[str] | None
    reason: str = ""
    words: set[str] = field(default_factory=set)  # the words whose meaning may have changed


def manifest_change(before: dict[str, str], after: dict[str, str]) -> str:
    """Why a resolution must be complete because of the project's manifests (the files languages
    read besides sources, ``LanguageModule.manifests``: path → digest of its bytes, before and
    after), or "" when none changed. Any
    file's imports may read a manifest, so a changed, added or removed one re-resolves everything."""
    for path in sorted(before.keys() | after.keys()):
        if path not in before:
            return f"manifest {path} was added"
        if path not in after:
            return f"manifest {path} was removed"
        if before[path] != after[path]:
            return f"manifest {path} changed"
    return ""


def _lookup_words(path: str, versions, includes: bool, module_names) -> set[str]:
    """The words a lookup of ``path`` as a module can be keyed by, before and after the change
    (``versions``: its extractions, None where absent). ``includes``: its language's
    ``file_includes``, where an include names the file, not its directory (every file including
    linux/kernel.h mentions "kernel")."""
    found = set(name_words(path) if includes else path_words(path))
    for fx in versions:
        for name in module_names(fx) if fx is not None else ():
            found |= words(name)
    return found


def _facts(fx: FileExtraction, self_names, file_includes) -> list[Fact]:
    return facts(fx, self_names(fx.language), file_includes(fx.language))


def plan(
    changed: dict[str, tuple[FileExtraction | None, FileExtraction | None]],
    mentions_of: Mapping[str, frozenset[str]],
    extraction: Callable[[str], FileExtraction],
    self_names: Callable[[str], Iterable[str]],
    linked: dict[str, set[str]],
    max_files: int,
    project_wide: Callable[[FileExtraction], frozenset[str]] = lambda fx: frozenset(),
    module_names: Callable[[FileExtraction], frozenset[str]] = lambda fx: frozenset(),
    file_includes: Callable[[str], bool] = lambda label: False,
) -> Plan:
    """The files whose references can resolve differently after ``changed``.

    Args:
        changed: path → (extraction before, extraction after); None for a file added or removed.
        mentions_of: path → :func:`mentions` of every file of the project after the change (read
            only when a word changed: a mapping may decode them as they are asked).
        extraction: path → the file's extraction after the change (for facts of re-resolved files).
        self_names: language label → its receivers meaning the enclosing type (never a subject).
        linked: path → files whose edges rows share sources with it (a member or ``extends`` written
            away from its type): re-resolving one means re-resolving the others.
        max_files: more files than this → re-resolve everything (``files`` None).
        project_wide: a file's part in an inference over the whole project (its language's
            ``project_wide``): a change to the project's union of those re-resolves everything.
        module_names: names its language also looks a file up by as a module (``module_names``).
        file_includes: language label → its ``file_includes``: a file of it added, removed or with
            a changed star import makes the words of its file name (and module names) subjects,
            without its directory's, instead of re-resolving everything for the star import.

    Returns:
        A :class:`Plan`; ``files`` includes every changed file still in the project.

    A ``mentions_of`` with a ``mentioning(words)`` method (path set of the files mentioning one of
    ``words``) is asked that instead of each file's set.
    """
    gone: set[str] = set()
    came: set[str] = set()
    for old, new in changed.values():
        wide_before = project_wide(old) if old is not None else frozenset()
        wide_after = project_wide(new) if new is not None else frozenset()
        gone |= wide_before - wide_after
        came |= wide_after - wide_before
    if gone or came:
        others: set[str] = set()
        for path in mentions_of:
            if path not in changed:
                others |= project_wide(extraction(path))
        after_all = others.union(*(project_wide(n) for _, n in changed.values() if n is not None))
        if (came - others) or (gone - after_all):
            return Plan(None, "a project-wide inference reads a changed import or package")
    subjects: set[str] = set()
    for path, (old, new) in changed.items():
        before = {f.key: f for f in _facts(old, self_names, file_includes)} if old is not None else {}
        after = {f.key: f for f in _facts(new, self_names, file_includes)} if new is not None else {}
        label = (new or old).language  # type: ignore[union-attr]  # one of them is there
        if (old is None) != (new is None) or (
            old is not None and new is not None and old.language != new.language
        ):
            subjects |= _lookup_words(path, (old, new), file_includes(label), module_names)
        for key in before.keys() ^ after.keys():
            fact = before.get(key) or after[key]
            if fact.subjects is EVERYTHING:
                if not (key[0] == "i" and key[1] == "*" and file_includes(label)):
                    return Plan(None, f"{path}: a star or bare import changed")
                # what the file sees changed: the files that include it read that, and name it
                subjects |= _lookup_words(path, (old, new), True, module_names)
                continue
            subjects |= fact.subjects
    files = {p for p, (_, new) in changed.items() if new is not None}
    examined: set[str] = set()
    searched: set[str] = set()  # the subjects every file's mentions were searched for
    mentioning = getattr(mentions_of, "mentioning", None)
    while True:
        grown = False
        # no changed word: no file's mentions need reading (an edit inside a body, a comment); a
        # file that mentions a subject searched for before is in ``files`` already
        fresh = subjects - searched
        searched |= fresh
        if fresh and mentioning is not None:
            files |= mentioning(fresh)
        for path, said in mentions_of.items() if fresh and mentioning is None else ():
            if path not in files and not said.isdisjoint(fresh):
                files.add(path)
        # transitively: a file linked in here brings the files linked to it (a method written away
        # from its type links the type's file, and that file the other files adding to the type)
        todo = [*files, *(p for p, (_, new) in changed.items() if new is None)]
        while todo:
            for other in linked.get(todo.pop(), ()):
                if other not in files and other in mentions_of:
                    files.add(other)
                    todo.append(other)
        if len(files) > max_files:
            return Plan(None, f"more than {max_files} files to re-resolve", subjects)
        # what the re-resolved files state from a changed word changes meaning in turn
        for path in sorted(files - examined):
            examined.add(path)
            fx = extraction(path)
            for fact in _facts(fx, self_names, file_includes):
                if fact.mentions.isdisjoint(subjects):
                    continue
                if fact.subjects is EVERYTHING:
                    return Plan(None, f"{path}: a star import reads a changed name", subjects)
                if not fact.subjects <= subjects:
                    subjects |= fact.subjects
                    grown = True
        if not grown and examined >= files:
            return Plan(files, "", subjects)
