"""Which files are source, and in which language.

The extension table is data; adding a language means a row here, a query file in ``queries/`` and,
when its imports need it, a small handler in ``extract.py``.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

# extension -> (our language label as stored in nodes.language, tree-sitter grammar name)
EXTENSIONS: dict[str, tuple[str, str]] = {
    ".py": ("python", "python"),
    ".pyi": ("python", "python"),
    ".ts": ("typescript", "typescript"),
    ".mts": ("typescript", "typescript"),
    ".cts": ("typescript", "typescript"),
    ".tsx": ("tsx", "tsx"),
    ".js": ("javascript", "javascript"),
    ".mjs": ("javascript", "javascript"),
    ".cjs": ("javascript", "javascript"),
    ".jsx": ("jsx", "javascript"),
}

GRAMMARS = sorted({grammar for _, grammar in EXTENSIONS.values()})
QUERY_DIR = Path(__file__).with_name("queries")


def language_for(path: str) -> tuple[str, str] | None:
    """``(language, grammar)`` for a file path, or None when it is not a source file we index."""
    name = path.rsplit("/", 1)[-1]
    if name.endswith(".d.ts"):
        return EXTENSIONS[".ts"]
    return EXTENSIONS.get(os.path.splitext(name)[1].lower())


@cache
def parser_for(grammar: str):
    """A tree-sitter parser for a bundled grammar (tree-sitter-language-pack 0.13.0: no network)."""
    from tree_sitter_language_pack import get_parser

    return get_parser(grammar)


@cache
def query_for(grammar: str):
    """The compiled capture query ``queries/<family>.scm`` for a grammar."""
    from tree_sitter import Query
    from tree_sitter_language_pack import get_language

    family = (
        "python"
        if grammar == "python"
        else ("typescript" if grammar in ("typescript", "tsx") else "javascript")
    )
    source = (QUERY_DIR / f"{family}.scm").read_text()
    return Query(get_language(grammar), source)
