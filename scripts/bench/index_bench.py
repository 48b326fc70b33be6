#!/usr/bin/env python3
"""Index benchmark: codegraph vs the reference CLI on one corpus, in the same run.

Usage: python scripts/bench/index_bench.py CORPUS [--runs N] [--no-reference]
  CORPUS: a directory, or a name built by ../shared/corpora/build.sh (flask, django-wheel,
  django-sdist, rxjs, three, and the per-language ones: go-x-tools, java-guava, zig-std…).

For each tool: cold index of a fresh copy, no-change re-index, and re-index after one file of the
corpus's main language is edited (a line comment appended, in that language's syntax).
Prints wall seconds, peak RSS of the process tree (MB), files/nodes/edges, and ours/reference ratios
(median of --runs).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpora import corpus_dir
from _measure import measure

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from codegraph.index.languages import language_for, module_for  # noqa: E402

SHARED = REPO.parent / "shared"
CODEGRAPH = [sys.executable, "-m", "codegraph"]
REFERENCE = ["bash", str(SHARED / "reference" / "reference-cli.sh")]


def counts(root: Path) -> tuple[int, int, int]:
    conn = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    try:
        return tuple(
            conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("files", "nodes", "edges")
        )
    finally:
        conn.close()


def edit_one(root: Path) -> str:
    """Append a line comment to one file of the corpus's main language (the registered language with
    the most files; the middle one of them by path). Returns the file's path under ``root``."""
    by_label: dict[str, list[Path]] = {}
    for p in sorted(root.rglob("*")):
        if ".codegraph" in p.parts or "node_modules" in p.parts or not p.is_file():
            continue
        hit = language_for(p.relative_to(root).as_posix())
        if hit is not None:
            by_label.setdefault(hit[0], []).append(p)
    label, files = max(by_label.items(), key=lambda kv: len(kv[1]))
    target = files[len(files) // 2]
    with target.open("a", encoding="utf-8", errors="replace") as f:
        lang = module_for(label)
        f.write(f"\n{lang.line_comment} edited by index_bench{lang.comment_end}\n")
    return target.relative_to(root).as_posix()


def run_tool(tool: str, corpus: Path, runs: int) -> dict:
    init, sync = (
        (CODEGRAPH + ["init"], CODEGRAPH + ["sync"])
        if tool == "codegraph"
        else (REFERENCE + ["init"], REFERENCE + ["sync"])
    )
    results: dict[str, list[tuple[float, float]]] = {"cold": [], "nochange": [], "edit1": []}
    sizes = edited = None
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="cg-bench-") as tmp:
            root = Path(tmp) / "repo"
            shutil.copytree(corpus, root, symlinks=True)
            results["cold"].append(measure(init + [str(root)])[:2])
            sizes = counts(root)
            results["nochange"].append(measure(sync + [str(root)])[:2])
            edited = edit_one(root)
            results["edit1"].append(measure(sync + [str(root)])[:2])
    med = {
        k: (statistics.median(w for w, _ in v), statistics.median(m for _, m in v))
        for k, v in results.items()
    }
    return {"timing": med, "sizes": sizes, "edited": edited}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-reference", action="store_true")
    args = ap.parse_args()
    corpus = corpus_dir(args.corpus)
    tools = ["codegraph"] + ([] if args.no_reference else ["reference"])
    data = {t: run_tool(t, corpus, args.runs) for t in tools}
    print(f"corpus: {corpus}  (median of {args.runs} runs)")
    print(f"{'tool':<10} {'phase':<9} {'wall s':>8} {'peak MB':>8}   files / nodes / edges")
    for t in tools:
        f, n, e = data[t]["sizes"]
        for phase, (wall, mb) in data[t]["timing"].items():
            print(f"{t:<10} {phase:<9} {wall:>8.2f} {mb:>8.0f}   {f} / {n} / {e}")
    print(f"edit1 edits: {data['codegraph']['edited']}")
    ours = data["codegraph"]["timing"]
    print(f"no-change re-index / cold (codegraph): {ours['nochange'][0] / ours['cold'][0]:.1%}")
    if "reference" in data:
        ref = data["reference"]["timing"]
        for phase in ours:
            print(
                f"ratio ours/reference {phase:<9} wall {ours[phase][0] / ref[phase][0]:.2f}x   "
                f"peak RSS {ours[phase][1] / ref[phase][1]:.2f}x"
            )


if __name__ == "__main__":
    main()
