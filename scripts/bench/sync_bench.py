#!/usr/bin/env python3
"""Freshness benchmark.

Usage: python scripts/bench/sync_bench.py [--edits N] [--debounce-ms MS] [--runs N] [--no-reference]
                                          [--no-daemon] [--corpora NAME,...]

1. Django wheel: with a watcher running (the daemon's watch mode, default 2 s debounce), append a new
   function to a file and poll the index until a query sees it; prints p50/p95 of edit → visible,
   once with a query arriving right after the edit (issue 12 goal p50 ≤ 0.5 s) and once without
   (goal ≤ debounce + 0.3 s).
2. Django wheel and sdist, from the CLI, for codegraph and the reference CLI in the same run: cold
   ``init``, no-change ``sync`` and ``sync`` after one edit (index_bench's: a line comment appended to
   the middle file of the main language), wall seconds (median of --runs), as ratios: no-change / cold
   (goal ≤ 5 %), edit / cold (goal ≤ 10 %), ours / reference (goal for the edit ≤ 0.5x); and which
   resolution our edit sync ran (``sync --json``); CPU seconds beside the wall ones (the machine is
   shared).

To compare two checkouts, run this script with each one's Python in turn (its ``codegraph`` is the one
measured), a few rounds, and take the medians.
"""

from __future__ import annotations

import argparse
import json
import resource
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


def _run(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds (user + sys of the process and its children), output) of ``cmd``.
    CPU seconds are what a shared machine does not inflate much (load 5-12 here, issue 12)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, _, out = measure(cmd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, out


def cli_syncs(corpus: str, tool: str, runs: int) -> dict[str, object]:
    """Median wall and CPU seconds of cold init, no-change sync and one-edit sync of ``corpus`` by
    ``tool`` ("codegraph": the checkout of the Python running this script; or "reference"), and
    (ours) the resolution the edit sync reported. Keys: ``cold``, ``nochange``, ``edit1`` (wall) and
    the same with ``_cpu``."""
    from index_bench import CODEGRAPH, REFERENCE, edit_one

    base = CODEGRAPH if tool == "codegraph" else REFERENCE
    times: dict[str, list[float]] = {k: [] for k in ("cold", "nochange", "edit1")}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    resolution = None
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="cg-sync-") as tmp:
            root = Path(tmp) / "corpus"
            shutil.copytree(corpus_dir(corpus), root)
            json_flag = ["--json"] if tool == "codegraph" else []
            out = ""
            for key in times:
                if key == "edit1":
                    edit_one(root)
                args = ["init", str(root)] if key == "cold" else ["sync", str(root)]
                seconds, cpu_seconds, out = _run([*base, *args, *(json_flag if key == "edit1" else [])])
                times[key].append(seconds)
                cpu[key].append(cpu_seconds)
            if tool == "codegraph":
                resolution = json.loads(out[out.index("{") : out.rindex("}") + 1]).get("resolution")
    return {
        **{k: statistics.median(v) for k, v in times.items()},
        **{f"{k}_cpu": statistics.median(v) for k, v in cpu.items()},
        "resolution": resolution,
    }


def report_cli(corpus: str, runs: int, reference: bool) -> None:
    ours = cli_syncs(corpus, "codegraph", runs)
    ref = cli_syncs(corpus, "reference", runs) if reference else None
    for name, row in (("codegraph", ours), ("reference", ref)):
        if row is None:
            continue
        print(
            f"{corpus} {name}: cold {row['cold']:.2f} s, no-change sync {row['nochange']:.2f} s "
            f"({row['nochange'] / row['cold']:.1%} of cold), one-edit sync {row['edit1']:.2f} s "
            f"({row['edit1'] / row['cold']:.1%} of cold)  [median of {runs}]; CPU s: cold "
            f"{row['cold_cpu']:.2f}, no-change {row['nochange_cpu']:.2f} "
            f"({row['nochange_cpu'] / row['cold_cpu']:.1%}), one-edit {row['edit1_cpu']:.2f} "
            f"({row['edit1_cpu'] / row['cold_cpu']:.1%})"
        )
    print(f"{corpus} codegraph edit sync resolution: {ours['resolution']}")
    if ref is not None:
        print(
            f"{corpus} ours/reference: cold {ours['cold'] / ref['cold']:.2f}x, no-change "
            f"{ours['nochange'] / ref['nochange']:.2f}x, one-edit sync {ours['edit1'] / ref['edit1']:.2f}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=7)
    ap.add_argument("--debounce-ms", type=float, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--no-daemon", action="store_true", help="skip the watcher's edit → visible part")
    ap.add_argument("--corpora", default="django-wheel,django-sdist")
    args = ap.parse_args()
    for at_once in (True, False) if not args.no_daemon else ():
        lat = sorted(edit_to_visible(args.edits, args.debounce_ms, query_at_once=at_once))
        p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
        how = "a query right after the edit" if at_once else "no query (the debounce decides)"
        print(
            f"django-wheel edit → visible, {how} ({args.edits} edits, debounce {args.debounce_ms:.0f} ms): "
            f"p50 {statistics.median(lat):.2f} s, p95 {p95:.2f} s",
            flush=True,
        )
    for corpus in [c for c in args.corpora.split(",") if c]:
        report_cli(corpus, args.runs, not args.no_reference)


if __name__ == "__main__":
    main()
