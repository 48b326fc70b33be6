#!/usr/bin/env python3
"""What a streamed first index holds when resolution starts (issue 12: the 100,000-file monorepo's
cold index peaks at 2.9 GB, most of it the parent's lookup tables): a cold index of a generated
monorepo in this process, stopped at ``resolve()`` to weigh what is held, by object type (every object
the collector tracks, and the strings and numbers they hold, each counted once, ``sys.getsizeof``) and
by table of the resolver's project (outer dict, inner dicts, the lists and tuples they hold), beside
the total ``tracemalloc`` traces.

Usage: python scripts/bench/tables_bench.py [--files N] [--top K]
  The monorepo (scripts/bench/monorepo.py, default 5,000 files) is generated in a temporary directory.
  Multiply by 100,000 / N for the full monorepo: the held bytes grow with the files.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import tracemalloc
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held_bench import TABLES  # the resolver's lookup tables
from monorepo import generate


def by_type(top: int) -> list[str]:
    """Bytes by object type: the tracked objects and the strings/numbers they refer to, once each."""
    size: Counter[str] = Counter()
    count: Counter[str] = Counter()
    seen: set[int] = set()
    for obj in gc.get_objects():
        for o in (obj, *gc.get_referents(obj)):
            if id(o) in seen or (o is not obj and type(o) not in (str, int, bytes, float)):
                continue
            seen.add(id(o))
            size[type(o).__name__] += sys.getsizeof(o)
            count[type(o).__name__] += 1
    total = sum(size.values())
    lines = [f"reachable by type: {total / 1e6:.1f} MB"]
    for name, n in size.most_common(top):
        lines.append(
            f"  {name:18s} {n / 1e6:7.1f} MB  {count[name]:9d} objects  {n / count[name]:5.0f} B each"
        )
    return lines


def by_table(project) -> list[str]:
    """Bytes per lookup table of the resolver's project (shared tuples counted in every table)."""
    lines = ["by table (outer dict / inner dicts / lists and tuples held):"]
    for name in TABLES:
        table = getattr(project, name, None)
        if not isinstance(table, dict):
            continue
        inner = held = entries = 0
        for value in table.values():
            values = value.values() if isinstance(value, dict) else (value,)
            if isinstance(value, dict):
                inner += sys.getsizeof(value)
                entries += len(value)
            held += sum(sys.getsizeof(v) for v in values if isinstance(v, (list, tuple, set, frozenset)))
        lines.append(
            f"  {name:15s} {len(table):8d} keys  {sys.getsizeof(table) / 1e6:5.1f} / {inner / 1e6:5.1f} "
            f"({entries} entries) / {held / 1e6:5.1f} MB"
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=5_000)
    ap.add_argument("--top", type=int, default=8, help="object types listed")
    args = ap.parse_args()
    from codegraph.index import indexer, resolve
    from codegraph.paths import ProjectPaths

    report: list[str] = []
    plain = resolve.resolve

    def weighed(*a, **kw):
        gc.collect()
        traced = sum(s.size for s in tracemalloc.take_snapshot().statistics("filename"))
        report.append(f"traced at resolve(): {traced / 1e6:.1f} MB")
        report.extend(by_type(args.top))
        if kw.get("project") is not None:
            report.extend(by_table(kw["project"]))
        return plain(*a, **kw)

    resolve.resolve = weighed  # type: ignore[assignment]  # the indexer imports it when it resolves
    with tempfile.TemporaryDirectory(prefix="cg-tables-") as tmp:
        root = Path(tmp) / "m"
        generate(root, args.files)
        tracemalloc.start(1)
        summary = indexer.index_project(ProjectPaths(root.resolve()), workers=2)
        tracemalloc.stop()
    streamed = args.files >= indexer.STREAM_MIN_FILES
    print(f"monorepo: {summary.files} files, {summary.nodes} nodes (a first index; streamed: {streamed})")
    print("\n".join(report))


if __name__ == "__main__":
    main()
