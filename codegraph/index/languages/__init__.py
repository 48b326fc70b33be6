"""The language registry: which files are source, in which language, and each language's module.

Every module in this package that defines a ``LANGUAGES`` tuple of
:class:`~codegraph.index.languages.base.LanguageModule` instances is registered when the registry is
first used; adding a language is adding a module (and its ``queries/<label>.scm``). See README.md in
this folder.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from codegraph.index.languages.base import LanguageModule

if TYPE_CHECKING:
    from tree_sitter_language_pack import SupportedLanguage

QUERY_DIR = Path(__file__).resolve().parent.parent / "queries"


class Registry:
    """The registered languages, by label and by extension."""

    def __init__(self, modules: list[LanguageModule]):
        self.by_label: dict[str, LanguageModule] = {}
        self.by_extension: dict[str, LanguageModule] = {}
        for lang in modules:
            if lang.label in self.by_label:
                raise ValueError(f"language {lang.label!r} registered twice")
            self.by_label[lang.label] = lang
            for ext in lang.extensions:
                if ext in self.by_extension:
                    other = self.by_extension[ext].label
                    raise ValueError(f"extension {ext} claimed by {other} and {lang.label}")
                self.by_extension[ext] = lang

    def for_path(self, path: str) -> LanguageModule | None:
        """The language of a file path: the longest registered suffix wins (``.d.ts`` over ``.ts``)."""
        name = path.rsplit("/", 1)[-1].lower()
        dot = name.find(".", 1)
        while dot != -1:
            hit = self.by_extension.get(name[dot:])
            if hit is not None:
                return hit
            dot = name.find(".", dot + 1)
        return None


@cache
def registry() -> Registry:
    """Import every language module of this package once and register its ``LANGUAGES``."""
    import pkgutil  # here: a no-change sync asks the registry nothing (discover.NameTable)

    found: list[LanguageModule] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "LANGUAGES", ()))
    return Registry(found)


def overrides(extensions: Mapping[str, str] | None) -> Registry:
    """The registry with a project's ``codegraph.json`` ``extensions`` (``{".inc": "php"}``, keys
    lower case) over the built-in extension map; the registry itself when there are none.

    Raises:
        ConfigUnparsable: a value is no registered language's label (the message names the key and
            lists the labels).
    """
    if not extensions:
        return registry()
    return _overridden(tuple(sorted(extensions.items())))


@cache
def _overridden(items: tuple[tuple[str, str], ...]) -> Registry:
    from codegraph.errors import ConfigUnparsable

    base = registry()
    for ext, label in items:
        if label not in base.by_label:
            known = ", ".join(sorted(base.by_label))
            raise ConfigUnparsable(
                f"codegraph.json: 'extensions' maps {ext!r} to {label!r}, which is no language label"
                f" (known: {known})"
            )
    mapped = copy.copy(base)
    mapped.by_extension = {**base.by_extension, **{ext: base.by_label[label] for ext, label in items}}
    return mapped


def all_languages() -> list[LanguageModule]:
    """Every registered language, sorted by label."""
    return sorted(registry().by_label.values(), key=lambda lang: lang.label)


@cache
def is_manifest(name: str) -> bool:
    """Does some language's resolution read files named ``name`` (``LanguageModule.manifests``)?"""
    return any(lang.reads_manifest(name) for lang in registry().by_label.values() if lang.manifests)


@cache
def names_package(name: str) -> bool:
    """Is a file named ``name`` source of a language whose packages are directories
    (``LanguageModule.packages_are_directories``), by the built-in extension map?"""
    lang = registry().for_path(name)
    return lang is not None and lang.packages_are_directories


def module_for(label: str) -> LanguageModule:
    """The language module of a ``nodes.language`` label.

    Raises:
        KeyError: no such language is registered.
    """
    return registry().by_label[label]


def language_for(path: str, extensions: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """``(language label, grammar)`` for a file path, or None when it is not a source file we index.
    ``extensions``: the project's ``codegraph.json`` map, over the built-in one (see :func:`overrides`,
    which raises ConfigUnparsable for an unknown label)."""
    lang = overrides(extensions).for_path(path)
    return (lang.label, lang.grammar) if lang is not None else None


def unsupported_language(path: str, extensions: Mapping[str, str] | None = None) -> str | None:
    """The name of the language a source file is in when no module supports it yet (``a.lua`` →
    ``Lua``), else None (also when the project's ``extensions`` map it to a language)."""
    from codegraph.index.languages._unsupported import NOT_YET

    if overrides(extensions).for_path(path) is not None:
        return None
    name = path.rsplit("/", 1)[-1].lower()
    dot = name.rfind(".")
    return NOT_YET.get(name[dot:]) if dot > 0 else None


def is_test_path(path: str) -> bool:
    """Is ``path`` a test file: under a ``tests/``, ``test/`` or ``__tests__/`` directory, or named
    so by its language's rules (``test_x.py``, ``x_test.go``, ``x.spec.ts``…)?"""
    p = "/" + path.lower()
    if "/tests/" in p or "/test/" in p or "/__tests__/" in p:
        return True
    lang = registry().for_path(path)
    return lang is not None and lang.is_test_file(path)


def is_generated_path(path: str, head: str) -> bool:
    """Is the file generated, by its language's name rules or a banner in ``head``?"""
    lang = registry().for_path(path)
    if lang is not None:
        return lang.is_generated(path, head)
    from codegraph.index.languages.base import GENERATED_BANNER

    return bool(GENERATED_BANNER.search(head))


def _pack_name(grammar: str) -> SupportedLanguage:
    """``grammar`` as the pack's ``Literal`` of grammar names."""
    # A module's grammar is a plain str class attribute; tests/index/test_language_contract.py
    # compiles every registered module's query against its grammar, so each is one of the names.
    return cast("SupportedLanguage", grammar)


@cache
def parser_for(grammar: str):
    """A tree-sitter parser for a bundled grammar (tree-sitter-language-pack 0.13.0: no network)."""
    from tree_sitter_language_pack import get_parser

    return get_parser(_pack_name(grammar))


@cache
def query_for(label: str):
    """The compiled capture query of a language (``queries/<its query file>``)."""
    from tree_sitter import Query
    from tree_sitter_language_pack import get_language

    lang = module_for(label)
    source = "\n".join((QUERY_DIR / name).read_text() for name in (lang.query, *lang.query_parts))
    return Query(get_language(_pack_name(lang.grammar)), source)


def extension_table() -> dict[str, str]:
    """Extension → language label, for status output and the README table."""
    return {ext: lang.label for ext, lang in sorted(registry().by_extension.items())}


__all__ = [
    "LanguageModule",
    "Registry",
    "all_languages",
    "extension_table",
    "is_generated_path",
    "is_test_path",
    "language_for",
    "module_for",
    "overrides",
    "parser_for",
    "query_for",
    "registry",
    "unsupported_language",
]
