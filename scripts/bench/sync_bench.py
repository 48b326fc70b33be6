#!/usr/bin/env python3
"""Freshness benchmark.

Usage: python scripts/bench/sync_bench.py [--edits N] [--debounce-ms MS]

1. Django wheel: with a watcher running (the daemon's watch mode, default 2 s debounce), append a new
   function to a file and poll the index until a query sees it; prints p50/p95 of edit → visible,
   once with a query arriving right after the edit (issue 12 goal p50 ≤ 0.5 s) and once without
   (goal ≤ debounce + 0.3 s).
2. Django sdist (2,847 files): cold `codegraph init` vs no-change `codegraph sync`, wall seconds
   (median of 3), and the ratio (goal ≤ 5 %).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpora import corpus_dir
from _measure import measure

REPO = Path(__file__).resolve().parents[2]


def edit_to_visible(edits: int, debounce_ms: float, query_at_once: bool = False) -> list[float]:
    """Seconds from appending a function to query.py until a query sees it. With ``query_at_once``
    the query arrives right after the edit and goes through ``before_answer`` (the daemon's path:
    it cuts the debounce short); otherwise the watcher syncs after its debounce on its own."""
    from codegraph.index.indexer import index_project
    from codegraph.index.watch import Watcher, before_answer, register
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    latencies = []
    with tempfile.TemporaryDirectory(prefix="cg-sync-") as tmp:
        root = Path(tmp) / "django"
        shutil.copytree(corpus_dir("django-wheel"), root)
        paths = ProjectPaths(root.resolve())
        index_project(paths)
        watcher = Watcher(paths, debounce=debounce_ms / 1000)
        watcher.start()
        watcher.wait_caught_up(30)
        register(paths.root, watcher, "bench")
        target = root / "django" / "db" / "models" / "query.py"
        try:
            for i in range(edits):
                name = f"bench_added_{i}"
                start = time.perf_counter()
                with open(target, "a") as fh:
                    fh.write(f"\n\ndef {name}():\n    return {i}\n")
                if query_at_once:
                    time.sleep(0.01)  # the inotify event reaches the watcher within ~1 ms
                    before_answer(paths.root)
                while True:
                    with Reader(paths) as reader:
                        if reader.nodes_named(name):
                            break
                    time.sleep(0.02)
                latencies.append(time.perf_counter() - start)
                time.sleep(0.3)
        finally:
            watcher.stop()
    return latencies


def nochange_ratio() -> tuple[float, float]:
    cold, warm = [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory(prefix="cg-sync-") as tmp:
            root = Path(tmp) / "django"
            shutil.copytree(corpus_dir("django-sdist"), root)
            cold.append(measure([sys.executable, "-m", "codegraph", "init", str(root)])[0])
            warm.append(measure([sys.executable, "-m", "codegraph", "sync", str(root)])[0])
    return statistics.median(cold), statistics.median(warm)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=7)
    ap.add_argument("--debounce-ms", type=float, default=2000)
    args = ap.parse_args()
    for at_once in (True, False):
        lat = sorted(edit_to_visible(args.edits, args.debounce_ms, query_at_once=at_once))
        p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
        how = "a query right after the edit" if at_once else "no query (the debounce decides)"
        print(
            f"django-wheel edit → visible, {how} ({args.edits} edits, debounce {args.debounce_ms:.0f} ms): "
            f"p50 {statistics.median(lat):.2f} s, p95 {p95:.2f} s"
        )
    cold, warm = nochange_ratio()
    print(f"django-sdist cold init {cold:.2f} s, no-change sync {warm:.2f} s: {warm / cold:.1%} of cold")


if __name__ == "__main__":
    main()
