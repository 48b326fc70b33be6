"""Is an answer still true of the files on disk? Files edited since the last index are named in a
banner, and a symbol in such a file is re-located by re-parsing the current bytes, so no answer
slices a changed file with old line numbers."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable

from codegraph.model import Node
from codegraph.paths import quote_path, read_regular
from codegraph.store.reader import Reader


def changed_files(reader: Reader, paths: Iterable[str], records: dict | None = None) -> list[str]:
    """The indexed files among ``paths`` whose content differs from the index (size/mtime, then
    sha256), plus those deleted since. Sorted. ``records`` (path → files row) saves a query per path
    when the caller already holds them."""
    out = []
    for path in sorted(set(paths)):
        record = records[path] if records is not None else reader.file_record(path)
        if record is None:
            continue
        try:
            st = os.stat(reader.root / path)
        except OSError:
            out.append(path)
            continue
        if st.st_size == record["size"] and abs(st.st_mtime_ns / 1e6 - record["modified_at"]) <= 1:
            continue
        try:
            digest = hashlib.sha256(read_regular(reader.root / path)).hexdigest()
        except OSError:
            digest = ""
        if digest != record["content_hash"]:
            out.append(path)
    return out


def current_span(reader: Reader, node: Node) -> tuple[int, int] | None:
    """``node``'s (start_line, end_line) in the file as it is now: the indexed span when the file is
    unchanged, else the span of the same kind + qualified name in a fresh parse; None when the symbol
    is gone from the file."""
    if not changed_files(reader, [node.file_path]):
        return node.start_line, node.end_line
    from codegraph.index.extract import extract

    try:
        data = read_regular(reader.root / node.file_path)
    except OSError:
        return None
    # the language the file was indexed as (the project's codegraph.json may map its extension)
    try:
        fresh = extract(node.file_path, data, node.language)
    except KeyError:  # indexed by a version that knew a language this one does not
        return None
    for n in fresh.nodes:
        if n.kind == node.kind and n.qualified_name == node.qualified_name:
            return n.start_line, n.end_line
    return None


def cited_paths(data) -> set[str]:
    """Every ``file_path`` / ``path`` string inside a result's data (see ``render.to_data``)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key in ("file_path", "path") and isinstance(value, str):
                    found.add(value)
                elif isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(x for x in item if isinstance(x, (dict, list)))
    return found


def banner(changed: list[str]) -> str:
    """One line naming the files an answer cites that changed since the last index."""
    names = ", ".join(map(quote_path, changed[:8])) + (
        f" (+{len(changed) - 8} more)" if len(changed) > 8 else ""
    )
    return (
        f"Note: changed on disk since the last index: {names}. Spans shown from these files were re-read "
        "from disk; their callers/callees are as of the last index (run `codegraph sync`). The rest is fresh."
    )
