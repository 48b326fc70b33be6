#!/usr/bin/env python3
"""Probe explore on plain-language questions (issue 15).

Reads ``prose_probes.json`` (or ``--probes FILE``): questions in plain words with the files that answer
them (found by reading the source), plus questions that name a symbol. For each corpus it copies the
code base to a temporary directory, indexes the copy with the real indexer, and runs explore on every
question in-process. Per question it prints whether an answer file's source is in the envelope
(hit@envelope), the rank of the first answer file among the envelope's source sections, the rendered
characters and the wall-clock latency (wall and CPU), and, for a question listing ``symbols``
(``path:qualified name``, read from the source), which of those bodies the envelope does not show;
then totals per split (tune / holdout) and for the symbol-naming questions. ``--cli`` also times
``codegraph explore QUESTION`` as a subprocess (the latency an agent's shell sees) and reports its
median.

A corpus is a name built by ../shared/corpora/build.sh (``django-wheel``, ``flask``…), a directory, or
``self@REV``: this repository as committed at REV (the README's first question is asked of it).
Everything but the latencies is deterministic: same build, same numbers.

Usage: probe_prose.py [--corpus NAME]... [--split tune|holdout|all] [--probes FILE] [--cli] [--json]
       [--keep DIR]   (index into DIR/<corpus> and reuse it on the next run)
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts" / "bench"))

from _corpora import corpus_dir  # noqa: E402

from codegraph.index.indexer import index_project  # noqa: E402
from codegraph.paths import ProjectPaths  # noqa: E402
from codegraph.query import explore  # noqa: E402
from codegraph.render import fit_envelope, render  # noqa: E402
from codegraph.store.reader import Reader  # noqa: E402

PROBES = Path(__file__).resolve().parent / "prose_probes.json"


def load_probes(path: Path, split: str, corpora: list[str]) -> list[dict]:
    """Questions of the chosen split (symbol questions always), as dicts with ``kind`` set to
    ``prose`` or ``symbol``; only the given corpora when any are named."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    items = [{**q, "kind": "prose"} for q in doc["questions"] if split == "all" or q.get("split") == split]
    items += [{**q, "kind": "symbol", "split": "symbol"} for q in doc.get("symbol_questions", [])]
    return [q for q in items if not corpora or q["corpus"] in corpora]


def prepare(corpus: str, work: Path) -> Path:
    """An indexed copy of the corpus under ``work`` (reused when it is already there). ``self@REV``
    is this repository as committed at REV (``git archive``): the README's own question, pinned."""
    root = work / Path(corpus.replace("@", "-")).name
    if not (root / ".codegraph").is_dir():
        if root.exists():
            shutil.rmtree(root)
        if corpus.startswith("self@"):
            tar = subprocess.run(
                ["git", "-C", str(REPO), "archive", corpus.split("@", 1)[1]], capture_output=True, check=True
            ).stdout
            root.mkdir(parents=True)
            with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
                archive.extractall(root, filter="data")
        else:
            shutil.copytree(corpus_dir(corpus), root, ignore=shutil.ignore_patterns(".codegraph"))
        index_project(ProjectPaths(root.resolve()), workers=1)
    return root


def symbols_missed(reader: Reader, result, wanted: list[str]) -> list[str]:
    """Of the ``path:qualified_name`` symbols a question expects, those whose whole body is not in
    the envelope's source."""
    spans = {sec.path: sec.spans for sec in result.sections}
    missed = []
    for spec in wanted:
        path, qualified = spec.split(":", 1)
        name = qualified.split("::")[-1]
        nodes = [n for n in reader.nodes_named(name) if n.file_path == path and n.qualified_name == qualified]
        if not any(
            sp.start <= n.start_line and n.end_line <= sp.end for n in nodes for sp in spans.get(path, ())
        ):
            missed.append(spec)
    return missed


def probe(reader: Reader, item: dict) -> dict:
    """One question: hit, rank of the first answer file among the envelope's sections, characters,
    latency (ms) and where the answer files stand in the file ranking."""
    start, cpu = time.perf_counter(), time.process_time()
    # what the agent sees: the envelope fitted to its budget (its sections, not those packed before)
    result = fit_envelope(explore.explore(reader, item["question"]))
    text = render(result)
    elapsed = (time.perf_counter() - start) * 1000
    cpu = (time.process_time() - cpu) * 1000
    shown = [s.path for s in result.sections]
    answers = set(item["answers"])
    rank = next((i + 1 for i, p in enumerate(shown) if p in answers), None)
    mentioned = any(fs.path in answers for fs in result.not_shown)
    wanted = item.get("symbols", [])
    return {
        "symbols": len(wanted),
        "symbols_missed": symbols_missed(reader, result, wanted),
        "corpus": item["corpus"],
        "kind": item["kind"],
        "split": item["split"],
        "question": item["question"],
        "hit": rank is not None,
        "rank": rank,
        "mentioned_only": rank is None and mentioned,
        "chars": len(text),
        "budget": result.budget,
        "ms": round(elapsed, 1),
        "cpu_ms": round(cpu, 1),
        "shown": shown,
    }


def cli_latency(root: Path, questions: list[str]) -> tuple[list[float], list[float]]:
    """Seconds of ``codegraph explore Q`` run as a subprocess in ``root``, per question: wall clock,
    and CPU (user + system of the child, which a loaded machine inflates far less)."""
    exe = shutil.which("codegraph") or sys.executable
    prefix = [exe] if exe != sys.executable else [sys.executable, "-m", "codegraph"]
    # bytecode may be written (as an installed wheel has it): PYTHONDONTWRITEBYTECODE would make
    # every run recompile codegraph's modules, which no installed copy does
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([*prefix, "explore", questions[0]], cwd=root, capture_output=True, env=env, check=False)
    wall, cpu = [], []
    for q in questions:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([*prefix, "explore", q], cwd=root, capture_output=True, env=env, check=False)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def totals(rows: list[dict]) -> dict:
    n = len(rows)
    if not n:
        return {"n": 0}
    with_symbols = [r for r in rows if r["symbols"]]
    return {
        "n": n,
        "symbol_hits": f"{sum(not r['symbols_missed'] for r in with_symbols)}/{len(with_symbols)}",
        "hit": round(sum(r["hit"] for r in rows) / n, 3),
        "rank1": round(sum(r["rank"] == 1 for r in rows) / n, 3),
        "max_chars": max(r["chars"] for r in rows),
        "median_ms": round(statistics.median(r["ms"] for r in rows), 1),
        "median_cpu_ms": round(statistics.median(r["cpu_ms"] for r in rows), 1),
    }


def run(items: list[dict], work: Path, *, cli: bool = False) -> dict:
    rows, cli_s = [], {}
    for corpus in dict.fromkeys(q["corpus"] for q in items):
        root = prepare(corpus, work)
        mine = [q for q in items if q["corpus"] == corpus]
        with Reader(root) as reader:
            explore.explore(reader, mine[0]["question"])  # warm the caches once
            rows += [probe(reader, q) for q in mine]
        if cli:
            wall, cpu = cli_latency(root, [q["question"] for q in mine])
            cli_s[corpus] = {
                "wall": round(statistics.median(wall), 3),
                "cpu": round(statistics.median(cpu), 3),
                "load": round(os.getloadavg()[0], 1),
            }
    groups = {name: totals([r for r in rows if r["split"] == name]) for name in ("tune", "holdout", "symbol")}
    groups["prose"] = totals([r for r in rows if r["kind"] == "prose"])
    return {"rows": rows, "totals": groups, "cli_median_s": cli_s}


def format_text(report: dict) -> str:
    out = [f"{'hit':>3} {'rank':>4} {'chars':>6} {'ms':>6}  corpus  question"]
    for r in report["rows"]:
        mark = "yes" if r["hit"] else ("(m)" if r["mentioned_only"] else "no")
        out.append(
            f"{mark:>3} {r['rank'] or '-':>4} {r['chars']:>6} {r['ms']:>6.0f}  "
            f"{r['corpus']}  [{r['split']}] {r['question']}"
            + (f"  (body not shown: {', '.join(r['symbols_missed'])})" if r["symbols_missed"] else "")
        )
    out.append("\n(m): an answer file is only named under 'Left out', its source not shown")
    for name, t in report["totals"].items():
        if t.get("n"):
            symbols = f"  expected bodies shown {t['symbol_hits']}" if t["symbol_hits"] != "0/0" else ""
            out.append(
                f"{name:>8}: n={t['n']}  hit@envelope {t['hit']:.0%}  rank1 {t['rank1']:.0%}{symbols}  "
                f"max chars {t['max_chars']}  median {t['median_ms']} ms, {t['median_cpu_ms']} ms CPU (in-process)"
            )
    for corpus, s in report["cli_median_s"].items():
        out.append(
            f"CLI median latency {corpus}: {s['wall']:.3f} s wall, {s['cpu']:.3f} s CPU "
            f"(load average {s['load']} on {os.cpu_count()} CPUs)"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", default=[], help="only this corpus (repeatable)")
    ap.add_argument("--split", choices=("tune", "holdout", "all"), default="all")
    ap.add_argument("--probes", type=Path, default=PROBES)
    ap.add_argument("--cli", action="store_true", help="also time `codegraph explore` subprocesses")
    ap.add_argument("--keep", type=Path, help="index into this directory and reuse it next time")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of text")
    args = ap.parse_args(argv)
    try:
        items = load_probes(args.probes, args.split, args.corpus)
    except (OSError, ValueError, KeyError) as exc:
        print(f"probe_prose: cannot read {args.probes}: {exc}", file=sys.stderr)
        return 2
    if not items:
        print("probe_prose: no question matches the chosen corpus and split", file=sys.stderr)
        return 2
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        report = run(items, args.keep, cli=args.cli)
    else:
        with tempfile.TemporaryDirectory(prefix="cg-prose-") as tmp:
            report = run(items, Path(tmp), cli=args.cli)
    print(json.dumps(report, indent=1) if args.json else format_text(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
