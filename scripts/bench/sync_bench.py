#!/usr/bin/env python3
"""Freshness benchmark.

Usage: python scripts/bench/sync_bench.py [--edits N] [--debounce-ms MS]

1. Django wheel: with a watcher running (the daemon's watch mode, default 2 s debounce), append a new
   function to a file and poll the index until a query sees it; prints p50/p95 of edit → visible
   (goal p50 ≤ 2.5 s including the debounce).
2. Django sdist (2,847 files): cold `codegraph init` vs no-change `codegraph sync`, wall seconds
   (median of 3), and the ratio (goal ≤ 5 %).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import measure  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO.parent / "shared" / "corpora" / "build.sh"


def corpus(name: str) -> Path:
    out = subprocess.run(["bash", str(BUILD), name], capture_output=True, text=True, check=True).stdout
    return Path(out.strip().splitlines()[-1])


def edit_to_visible(edits: int, debounce_ms: float) -> list[float]:
    from codegraph.index.indexer import index_project
    from codegraph.index.watch import Watcher
    from codegraph.paths import ProjectPaths
    from codegraph.store.reader import Reader

    latencies = []
    with tempfile.TemporaryDirectory(prefix="cg-sync-") as tmp:
        root = Path(tmp) / "django"
        shutil.copytree(corpus("django-wheel"), root)
        paths = ProjectPaths(root.resolve())
        index_project(paths)
        watcher = Watcher(paths, debounce=debounce_ms / 1000)
        watcher.start()
        watcher.wait_caught_up(30)
        target = root / "django" / "db" / "models" / "query.py"
        try:
            for i in range(edits):
                name = f"bench_added_{i}"
                start = time.perf_counter()
                with open(target, "a") as fh:
                    fh.write(f"\n\ndef {name}():\n    return {i}\n")
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
            shutil.copytree(corpus("django-sdist"), root)
            cold.append(measure([sys.executable, "-m", "codegraph", "init", str(root)])[0])
            warm.append(measure([sys.executable, "-m", "codegraph", "sync", str(root)])[0])
    return statistics.median(cold), statistics.median(warm)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=7)
    ap.add_argument("--debounce-ms", type=float, default=2000)
    args = ap.parse_args()
    lat = sorted(edit_to_visible(args.edits, args.debounce_ms))
    p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
    print(
        f"django-wheel edit → visible ({args.edits} edits, debounce {args.debounce_ms:.0f} ms): "
        f"p50 {statistics.median(lat):.2f} s, p95 {p95:.2f} s"
    )
    cold, warm = nochange_ratio()
    print(f"django-sdist cold init {cold:.2f} s, no-change sync {warm:.2f} s: {warm / cold:.1%} of cold")


if __name__ == "__main__":
    main()
