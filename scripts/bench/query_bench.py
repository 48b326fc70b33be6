#!/usr/bin/env python3
"""Query latency benchmark: explore and callers on one corpus, warm and in-process (issue 3).

Usage: python scripts/bench/query_bench.py [CORPUS] [--reps N] [--profile] [--json]
  CORPUS: a directory, or a name built by ../shared/corpora/build.sh (default: django-wheel).

Copies the corpus to a temporary directory, indexes it with ``index_project``, opens one Reader, runs
every question / symbol once to warm the caches, then times N repetitions of each (wall clock,
``time.perf_counter``). Prints p50/p95/max in milliseconds per operation, over all calls, and per
question. Goal (issue 3): explore p50 ≤ 150 ms on Django. ``--profile`` prints the top cProfile
entries of one explore pass instead of timing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpora import corpus_dir  # noqa: E402

from codegraph.index.indexer import index_project  # noqa: E402
from codegraph.paths import ProjectPaths  # noqa: E402
from codegraph.query import explore  # noqa: E402
from codegraph.query.relations import callers  # noqa: E402
from codegraph.render import render  # noqa: E402
from codegraph.store.reader import Reader  # noqa: E402

# Realistic agent questions about Django: named symbols, prose, and a mix.
QUESTIONS = [
    "how does QuerySet.filter build the WHERE clause",
    "how does the ORM turn a queryset into SQL",
    "where are middleware classes loaded and called for a request",
    "how does URL resolving find the view for a path",
    "how does Model.save decide between insert and update",
    "how are form fields validated and cleaned",
    "how does the template engine render a variable with filters",
    "where does authenticate check the user's password",
    "how are migrations applied by the migrate command",
    "how does the cache middleware decide whether to cache a response",
]
SYMBOLS = [
    "QuerySet.filter",
    "get_object_or_404",
    "Model.save",
    "reverse",
    "render_to_string",
    "authenticate",
    "Field.clean",
    "SQLCompiler.as_sql",
    "HttpResponse",
    "get_user_model",
]


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation between closest ranks."""
    xs = sorted(values)
    if len(xs) == 1:
        return xs[0]
    k = (len(xs) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def summary(ms: list[float]) -> dict:
    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 1),
        "p95": round(pct(ms, 0.95), 1),
        "max": round(max(ms), 1),
    }


def _explore(reader: Reader, q: str) -> None:
    render(explore.explore(reader, q))


def _callers(reader: Reader, s: str) -> None:
    render(callers(reader, s))


def timed(fn, reader: Reader, items: list[str], reps: int) -> tuple[list[float], dict[str, list[float]]]:
    for item in items:  # warm: page cache, SQLite cache, imports
        fn(reader, item)
    every, per = [], {item: [] for item in items}
    for _ in range(reps):
        for item in items:
            t0 = time.perf_counter()
            fn(reader, item)
            ms = (time.perf_counter() - t0) * 1000
            every.append(ms)
            per[item].append(ms)
    return every, per


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", default="django-wheel")
    ap.add_argument("--reps", type=int, default=5, help="repetitions of every question/symbol (default 5)")
    ap.add_argument("--profile", action="store_true", help="cProfile one explore pass instead of timing")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    src = corpus_dir(args.corpus)
    with tempfile.TemporaryDirectory(prefix="cg-qbench-") as tmp:
        root = Path(tmp) / src.name
        shutil.copytree(src, root, ignore=shutil.ignore_patterns(".codegraph"))
        t0 = time.perf_counter()
        index_project(ProjectPaths(root.resolve()))
        index_s = time.perf_counter() - t0
        with Reader(root) as reader:
            if args.profile:
                for q in QUESTIONS:
                    _explore(reader, q)
                prof = cProfile.Profile()
                prof.enable()
                for q in QUESTIONS:
                    _explore(reader, q)
                prof.disable()
                out = io.StringIO()
                pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(30)
                print(out.getvalue())
                return 0
            ex_all, ex_per = timed(_explore, reader, QUESTIONS, args.reps)
            ca_all, ca_per = timed(_callers, reader, SYMBOLS, args.reps)
            files = reader.file_count
    report = {
        "corpus": args.corpus,
        "files": files,
        "index_s": round(index_s, 1),
        "reps": args.reps,
        "explore": summary(ex_all),
        "callers": summary(ca_all),
        "explore_per_question": {q: summary(v) for q, v in ex_per.items()},
        "callers_per_symbol": {s: summary(v) for s, v in ca_per.items()},
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(
        f"# query_bench  corpus={args.corpus}  files={files}  index {report['index_s']} s  "
        f"reps={args.reps}  (warm, in-process, ms)"
    )
    for op in ("explore", "callers"):
        s = report[op]
        print(f"{op:8} p50 {s['p50']:7.1f}  p95 {s['p95']:7.1f}  max {s['max']:7.1f}  (n={s['n']})")
    print("\nexplore per question (p50 / p95):")
    for q, s in report["explore_per_question"].items():
        print(f"  {s['p50']:7.1f} {s['p95']:7.1f}  {q}")
    print("callers per symbol (p50 / p95):")
    for sym, s in report["callers_per_symbol"].items():
        print(f"  {s['p50']:7.1f} {s['p95']:7.1f}  {sym}")
    goal = report["explore"]["p50"] <= 150
    print(f"\ngoal explore p50 ≤ 150 ms: {'met' if goal else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
