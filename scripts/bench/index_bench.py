#!/usr/bin/env python3
"""Index benchmark: codegraph vs the reference CLI on one corpus, in the same run.

Usage: python scripts/bench/index_bench.py CORPUS [--runs N] [--no-reference] [--cold-only] [--also DIR]
  CORPUS: a directory, or a name built by ../shared/corpora/build.sh (flask, django-wheel,
  django-sdist, rxjs, three, and the per-language ones: go-x-tools, java-guava, zig-std…).

For each tool: cold index of a fresh copy, no-change re-index, and re-index after one file of the
corpus's main language is edited (a line comment appended, in that language's syntax); with
``--cold-only`` the cold index alone. The tools take turns in every round (``--also DIR`` adds
another codegraph checkout, e.g. the code before a change), and ratios are medians of the
per-round ratios: the reference CLI's time moves ±30 % between runs on a shared machine.
Prints wall seconds, peak RSS of the process tree (MB), files/nodes/edges, and ours/reference ratios
(median of --runs); then codegraph's cold phase split (``init --json``) beside the parse-only floor:
tree-sitter parsing the same files (read, decoded as the indexer does, parsed, nothing extracted) with
the indexer's worker count and chunking, and ours / floor (issue 12).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpora import corpus_dir
from _measure import measure

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from codegraph.index.discover import discover  # noqa: E402
from codegraph.index.indexer import PARALLEL_MIN_FILES, PARSE_CHUNK  # noqa: E402
from codegraph.index.languages import language_for, module_for, parser_for  # noqa: E402
from codegraph.index.source import source_utf8  # noqa: E402
from codegraph.paths import read_regular  # noqa: E402

SHARED = REPO.parent / "shared"
CODEGRAPH = [sys.executable, "-m", "codegraph"]
REFERENCE = ["bash", str(SHARED / "reference" / "reference-cli.sh")]


def _parse_only(job: tuple[str, str, str, str]) -> int:
    """Floor worker: read, decode and parse one file; returns its byte count (nothing else crosses)."""
    root, path, language, grammar = job
    try:
        data = read_regular(os.path.join(root, path))
    except OSError:
        return 0
    text = source_utf8(data, language)
    parser_for(grammar).parse(text)
    return len(data)


def parse_floor(root: Path, workers: int | None = None) -> dict:
    """The parse-only floor of a cold index of ``root``: the files discovery keeps, parsed by tree-sitter
    in a fork pool of the indexer's size and chunking (one process below PARALLEL_MIN_FILES files, as
    the indexer does). Discovery is not timed. Returns ``{"files", "bytes", "seconds", "workers"}``."""
    found = discover(root)
    jobs = [(str(root), f.path, f.language, f.grammar) for f in found.files]
    workers = workers or os.cpu_count() or 1
    for _, _, _, grammar in jobs:  # load each grammar before forking, as the indexer's parent has
        parser_for(grammar)
    start = time.perf_counter()
    if len(jobs) < PARALLEL_MIN_FILES or workers <= 1:
        sizes = list(map(_parse_only, jobs))
        workers = 1
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            sizes = list(pool.imap_unordered(_parse_only, jobs, chunksize=PARSE_CHUNK))
    return {
        "files": len(jobs),
        "bytes": sum(sizes),
        "seconds": time.perf_counter() - start,
        "workers": workers,
    }


def phases_of(output: str) -> dict[str, float]:
    """The phase split from ``codegraph init --json`` output (the JSON object is the whole of stdout)."""
    start = output.find("{")
    return json.loads(output[start:])["phases"] if start != -1 else {}


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


def tool_commands(tool: str) -> tuple[list[str], list[str], dict | None]:
    """(init command, sync command, environment) of ``tool``: ``codegraph`` (this checkout),
    ``reference``, or ``codegraph@DIR`` (the checkout in DIR, first on PYTHONPATH: a branch or the
    code before a change, timed side by side)."""
    if tool == "reference":
        return REFERENCE + ["init"], REFERENCE + ["sync"], None
    env = None
    if tool.startswith("codegraph@"):
        env = {**os.environ, "PYTHONPATH": tool.split("@", 1)[1]}
    return CODEGRAPH + ["init", "--json"], CODEGRAPH + ["sync"], env


def one_run(tool: str, corpus: Path, cold_only: bool) -> dict:
    """One cold index of a fresh copy of ``corpus`` by ``tool`` (then, unless ``cold_only``, a
    no-change sync and a one-file-edit sync). Returns the timings, sizes, phases and floor."""
    init, sync, env = tool_commands(tool)
    ours = tool != "reference"
    out: dict = {"timing": {}}
    with tempfile.TemporaryDirectory(prefix="cg-bench-") as tmp:
        root = Path(tmp) / "repo"
        shutil.copytree(corpus, root, symlinks=True)
        if ours:
            out["floor"] = parse_floor(root)
        wall, mb, text = measure(init + [str(root)], cwd=tmp, env=env)
        out["timing"]["cold"] = (wall, mb)
        if ours:
            out["phases"] = phases_of(text)
        out["sizes"] = counts(root)
        if not cold_only:
            out["timing"]["nochange"] = measure(sync + [str(root)], cwd=tmp, env=env)[:2]
            out["edited"] = edit_one(root)
            out["timing"]["edit1"] = measure(sync + [str(root)], cwd=tmp, env=env)[:2]
    return out


def run_tools(tools: list[str], corpus: Path, runs: int, cold_only: bool = False) -> dict[str, dict]:
    """``runs`` rounds, each running every tool once in turn (the machine's load moves during a
    bench: interleaved, the tools meet the same load). Per tool: median timings, the phase split
    and floor, and ``ratios``: each timing over the reference's of the same round, medians."""
    rounds = [{t: one_run(t, corpus, cold_only) for t in tools} for _ in range(runs)]
    data = {}
    for t in tools:
        mine = [r[t] for r in rounds]
        timing = {
            k: (
                statistics.median(m["timing"][k][0] for m in mine),
                statistics.median(m["timing"][k][1] for m in mine),
            )
            for k in mine[0]["timing"]
        }
        entry: dict = {"timing": timing, "sizes": mine[-1]["sizes"], "edited": mine[-1].get("edited")}
        if "phases" in mine[0]:
            entry["phases"] = {
                k: statistics.median(m["phases"].get(k, 0.0) for m in mine) for k in mine[0]["phases"]
            }
            floors = [m["floor"] for m in mine]
            entry["floor"] = floors[len(floors) // 2] | {
                "seconds": statistics.median(f["seconds"] for f in floors)
            }
            entry["floor_ratio"] = statistics.median(
                m["timing"]["cold"][0] / m["floor"]["seconds"] for m in mine
            )
        if "reference" in tools and t != "reference":
            entry["ratios"] = {
                k: statistics.median(r[t]["timing"][k][0] / r["reference"]["timing"][k][0] for r in rounds)
                for k in timing
            }
        data[t] = entry
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--cold-only", action="store_true", help="time cold indexes only (no syncs)")
    ap.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="DIR",
        help="also time the codegraph checkout in DIR, side by side (repeatable)",
    )
    args = ap.parse_args()
    corpus = corpus_dir(args.corpus)
    tools = ["codegraph"] + [f"codegraph@{Path(d).resolve()}" for d in args.also]
    tools += [] if args.no_reference else ["reference"]
    data = run_tools(tools, corpus, args.runs, args.cold_only)
    print(f"corpus: {corpus}  (median of {args.runs} interleaved runs)")
    width = max(10, *map(len, tools))
    print(f"{'tool':<{width}} {'phase':<9} {'wall s':>8} {'peak MB':>8}   files / nodes / edges")
    for t in tools:
        f, n, e = data[t]["sizes"]
        for phase, (wall, mb) in data[t]["timing"].items():
            print(f"{t:<{width}} {phase:<9} {wall:>8.2f} {mb:>8.0f}   {f} / {n} / {e}")
    if data["codegraph"]["edited"]:
        print(f"edit1 edits: {data['codegraph']['edited']}")
    for t in tools:
        if t == "reference":
            continue
        ours = data[t]["timing"]
        floor = data[t]["floor"]
        split = data[t]["phases"]
        print(f"[{t}] cold phases (s): " + "  ".join(f"{k} {v:.2f}" for k, v in split.items()))
        print(
            f"[{t}] parse-only floor: {floor['seconds']:.2f} s for {floor['files']} files, "
            f"{floor['bytes'] / 1e6:.1f} MB, {floor['workers']} workers;  ours/floor: cold wall "
            f"{data[t]['floor_ratio']:.2f}x, phases total {sum(split.values()) / floor['seconds']:.2f}x, "
            f"parse phase {split.get('parse', 0.0) / floor['seconds']:.2f}x"
        )
        if "nochange" in ours:
            print(f"[{t}] no-change re-index / cold: {ours['nochange'][0] / ours['cold'][0]:.1%}")
        if "reference" in data:
            ref = data["reference"]["timing"]
            for phase in ours:
                print(
                    f"[{t}] ratio ours/reference {phase:<9} wall {data[t]['ratios'][phase]:.2f}x (median of "
                    f"per-round ratios)   peak RSS {ours[phase][1] / ref[phase][1]:.2f}x"
                )


if __name__ == "__main__":
    main()
