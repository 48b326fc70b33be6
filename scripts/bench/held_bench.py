#!/usr/bin/env python3
"""What a streamed first index holds per file till resolution (issue 12), by part, node kind, folder
and file: a sample of a tree's files is parsed in this process (``indexer._parse_one``, what a worker
runs) and each result is kept as :class:`indexer._Streamed` keeps it (references compressed apart,
docstrings dropped). Sizes are ``sys.getsizeof`` summed over the objects reachable from each part,
every object counted once (interned names shared by many files count where first met).

Usage: python scripts/bench/held_bench.py TREE [--files N] [--under PREFIX] [--depth D] [--seed S]

Measured on Linux 6.1 (1,500 files, seed 1): 42.7 KB a file, 31.2 KB of it nodes (72 a file, ~430 B
each: the Node object 192 B, its id 90 B, line numbers, names, signature).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

from codegraph.index import indexer
from codegraph.index.discover import discover
from codegraph.index.resolve import open_tables

PARTS = (
    "nodes",
    "contains",
    "refs",
    "imports",
    "errors",
    "assigned_types",
    "exports",
    "returns",
    "owners",
    "locals",
    "closures",
)
TABLES = (
    "nodes",
    "parent",
    "children",
    "top",
    "global_by_name",
    "bindings",
    "types",
    "returns",
    "locals",
    "lexical",
)


class _Sizer:
    """Deep ``sys.getsizeof``, each object once across calls."""

    def __init__(self) -> None:
        self.seen = {id(x) for x in (None, True, False, "", 0)}

    def __call__(self, obj) -> int:
        if id(obj) in self.seen:
            return 0
        self.seen.add(id(obj))
        size = sys.getsizeof(obj)
        if isinstance(obj, (list, tuple, set, frozenset)):
            size += sum(map(self, obj))
        elif isinstance(obj, dict):
            size += sum(self(k) + self(v) for k, v in obj.items())
        elif hasattr(obj, "__slots__"):
            size += sum(self(getattr(obj, a, None)) for a in obj.__slots__)
        return size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", type=Path)
    ap.add_argument("--files", type=int, default=1500, help="sample size")
    ap.add_argument("--under", default="", help="only files whose path starts with this")
    ap.add_argument("--depth", type=int, default=3, help="folder levels the per-folder table groups by")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    root = args.tree.resolve()
    files = [f for f in discover(root).files if f.path.startswith(args.under)]
    random.seed(args.seed)
    sample = random.sample(files, min(args.files, len(files)))
    streamed = indexer._Streamed.__new__(indexer._Streamed)  # only its extraction step: no write
    streamed.refs = {}
    streamed._spill = tempfile.TemporaryFile()
    streamed._end = 0
    streamed.project = open_tables()  # filled (and the extractions folded) as files come
    size = _Sizer()
    parts: Counter[str] = Counter()
    folders: Counter[str] = Counter()
    in_folder: Counter[str] = Counter()
    per_file = []
    spilled = [0]
    held = []
    for f in sample:
        path, reason, length, _, out = indexer._parse_one(
            (str(root), f.path, f.size, f.mtime_ns, f.language, f.grammar)
        )
        if reason:
            continue
        rows = out[1]
        fx = streamed.extraction(path, rows)
        for n in fx.nodes:
            n.docstring = None
        held.append(fx)
        spilled[0] += streamed.refs[path][1]  # its compressed references, in a temporary file
        total = 0
        for part in PARTS:
            got = size(getattr(fx, part))
            parts[part] += got
            total += got
        folder = "/".join(path.split("/")[: args.depth])
        folders[folder] += total
        in_folder[folder] += 1
        per_file.append((total, path, len(fx.nodes), len(rows[4]), length))
    if not per_file:
        sys.exit("no file parsed")
    for table in TABLES:  # what the lookup tables add (the nodes counted above)
        parts[f"tables: {table}"] += size(getattr(streamed.project, table))
    kinds: Counter[str] = Counter()
    kind_nodes: Counter[str] = Counter()
    size = _Sizer()
    for fx in held:
        for n in fx.nodes:
            kinds[n.kind] += size(n)
            kind_nodes[n.kind] += 1
    count = len(per_file)
    total = sum(parts.values())
    nodes = sum(kind_nodes.values())
    print(f"tree: {root}; {count} files parsed of {len(sample)} sampled ({len(files)} in the tree)")
    print(
        f"held: {total / 1e6:.1f} MB, {total / count / 1e3:.1f} KB a file, {nodes / count:.0f} nodes a file"
        f" (and {spilled[0] / count / 1e3:.1f} KB a file of compressed references in a temporary file)"
    )
    for part, got in parts.most_common():
        print(f"  {part:18} {got / 1e6:8.2f} MB {got / count / 1e3:7.1f} KB a file")
    print("node kinds (each node with what only it holds):")
    for kind, got in kinds.most_common(12):
        n = kind_nodes[kind]
        print(f"  {kind:15} {n:8} nodes {got / 1e6:8.2f} MB {got / n:6.0f} B a node")
    print(f"folders (first {args.depth} levels), by what their files hold:")
    for folder, got in folders.most_common(20):
        n = in_folder[folder]
        print(f"  {folder:45} {n:5} files {got / 1e6:7.2f} MB {got / n / 1e3:7.1f} KB a file")
    print("files holding most:")
    for got, path, n, refs, length in sorted(per_file, reverse=True)[:15]:
        print(f"  {got / 1e3:8.0f} KB {n:6} nodes {refs:6} refs {length / 1e3:6.0f} KB source  {path}")


if __name__ == "__main__":
    main()
