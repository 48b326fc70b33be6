"""How the files on disk differ from the index: new, changed and deleted files, and where a symbol of
a changed file is now (re-parsed from the current bytes, so no answer slices a changed file with old
line numbers). The query layer asks; the comparison lives here, beside discovery and extraction."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from codegraph.model import Node
from codegraph.paths import read_regular
from codegraph.store.reader import Reader


@dataclass
class Drift:
    """Paths relative to the root, sorted: on disk but not indexed (nor skipped), indexed but changed
    since, indexed but gone."""

    added: list[str]
    modified: list[str]
    deleted: list[str]
    # indexed files with a new size/mtime but the same content (``touch``): not changed, said so
    touched: list[str] = field(default_factory=list)


def disk_drift(reader: Reader) -> Drift:
    """What a sync would pick up: discovery (with the project's codegraph.json) against the index."""
    from codegraph.config import load_config
    from codegraph.index.discover import discover

    config = load_config(reader.root)
    found = discover(
        reader.root, exclude=config.exclude, include=config.include, extensions=config.extensions
    )
    indexed = {r["path"]: r for r in reader.files()}
    on_disk = {f.path for f in found.files}
    skipped = reader.skipped()
    # a file skipped after reading (binary, minified) is known, not new — unless it changed since
    added = sorted(p for p in on_disk - set(indexed) if p not in skipped)
    deleted = sorted(set(indexed) - on_disk)
    touched: list[str] = []
    modified = changed_files(reader, on_disk & set(indexed), indexed, touched=touched)
    return Drift(added, modified, deleted, touched)


def changed_files(
    reader: Reader, paths: Iterable[str], records: dict | None = None, *, touched: list[str] | None = None
) -> list[str]:
    """The indexed files among ``paths`` whose content differs from the index (size/mtime, then
    sha256), plus those deleted since. Sorted. ``records`` (path → files row) saves a query per path
    when the caller already holds them; ``touched``, when given, receives the paths whose size/mtime
    differ but whose content is the same (not changed: a sync re-reads nothing of them)."""
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
        elif touched is not None:
            touched.append(path)
    return out


def current_span(reader: Reader, node: Node) -> tuple[int, int] | None:
    """``node``'s (start_line, end_line) in the file as it is now: the indexed span when the file is
    unchanged, else the span of the same kind + qualified name in a fresh parse; None when the symbol
    is gone from the file."""
    if not changed_files(reader, [node.file_path]):
        return node.start_line, node.end_line
    from codegraph.index.extract import TooDeep, extract

    try:
        data = read_regular(reader.root / node.file_path)
    except OSError:
        return None
    # the language the file was indexed as (the project's codegraph.json may map its extension)
    try:
        fresh = extract(node.file_path, data, node.language)
    except (KeyError, TooDeep):  # a language this version does not know; a file edited past extraction
        return None
    for n in fresh.nodes:
        if n.kind == node.kind and n.qualified_name == node.qualified_name:
            return n.start_line, n.end_line
    return None
