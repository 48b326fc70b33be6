#!/usr/bin/env python3
"""Resolution benchmark: precision and recall of call edges against hand-labelled call sites.

Usage: python scripts/bench/resolution_bench.py CORPUS [CORPUS ...] [--reference] [--json]
  CORPUS: a name with a labels file fixtures/labels/<CORPUS>.json, built by ../shared/corpora/build.sh
  (or pass --root DIR for a single corpus directory).

Labels (written by reading the code, never from the tool's output): each site is a call at
``file:line`` whose callee text is ``callee``, with the definition it must reach (``target``: file +
qualified name) or ``null`` when no edge may exist. A site counts as:
  true positive   an edge from that line with that callee reaches the labelled target;
  false positive  an edge reaches anything else (a wrong target, or any edge at a no-edge site);
  false negative  a labelled target is not reached.
precision = TP / (TP + FP); recall = TP / (sites with a target). Printed per corpus and per resolver;
with --reference the reference CLI's index of the same corpus is scored in the same run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LABELS = REPO / "fixtures" / "labels"
SHARED = REPO.parent / "shared"
CALL_KINDS = ("calls", "instantiates")


@dataclass
class Score:
    """Counts for one set of sites; ``wrong`` lists (site, targets found) for each false positive."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    positives: int = 0
    sites: int = 0
    wrong: list = field(default_factory=list)
    missed: list = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / self.positives if self.positives else 1.0

    def add(self, other: Score) -> None:
        for k in ("tp", "fp", "fn", "positives", "sites"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.wrong += other.wrong
        self.missed += other.missed


def load_labels(corpus: str) -> dict:
    """The labels file of a corpus, checked for shape.

    Raises:
        FileNotFoundError: no fixtures/labels/<corpus>.json.
        ValueError: a site lacks file, line or callee.
    """
    data = json.loads((LABELS / f"{corpus}.json").read_text())
    for i, site in enumerate(data["sites"]):
        missing = [k for k in ("file", "line", "callee") if k not in site]
        if missing or "target" not in site:
            raise ValueError(f"{corpus} site {i}: missing {missing or ['target']}")
    return data


def _edges_at(conn: sqlite3.Connection) -> dict[tuple[str, int], list[tuple[str | None, str, str, str]]]:
    """(source file, line) → [(refName, target file, target qualified name, target name)]."""
    out: dict = defaultdict(list)
    rows = conn.execute(
        "SELECT s.file_path, e.line, e.metadata, t.file_path, t.qualified_name, t.name FROM edges e"
        " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        f" WHERE e.kind IN ({','.join('?' * len(CALL_KINDS))})",
        CALL_KINDS,
    )
    for src_file, line, meta, t_file, t_qname, t_name in rows:
        try:
            ref = json.loads(meta).get("refName") if meta else None
        except ValueError:
            ref = None
        out[(src_file, line)].append((ref, t_file, t_qname, t_name))
    return out


def _same_callee(ref: str, callee: str) -> bool:
    """The edge's callee text names the labelled call. A receiver that is itself a call is written
    ``Foo().bar`` or ``<expr>.bar`` depending on the tool's version: both name the call ``bar``."""
    if ref == callee:
        return True
    loose = ("()" in ref or ref.startswith("<expr>")) and ("()" in callee or callee.startswith("<expr>"))
    return loose and ref.rsplit(".", 1)[-1] == callee.rsplit(".", 1)[-1]


def score(db: Path, labels: dict) -> dict[str, Score]:
    """Score an index against labelled sites. Returns {"all": Score, <resolver>: Score, ...}."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        at = _edges_at(conn)
    finally:
        conn.close()
    scores: dict[str, Score] = defaultdict(Score)
    for site in labels["sites"]:
        s = Score(sites=1)
        callee = site["callee"]
        tail = callee.rsplit(".", 1)[-1]
        found = [
            (t_file, t_qname)
            for ref, t_file, t_qname, t_name in at.get((site["file"], site["line"]), ())
            if (_same_callee(ref, callee) if ref is not None else t_name == tail)
        ]
        target = site["target"]
        if target is None:
            if found:
                s.fp = 1
                s.wrong.append((site, found))
        else:
            s.positives = 1
            want = (target["file"], target.get("qualified_name") or target["name"])
            if want in found:
                s.tp = 1
            else:
                s.fn = 1
                s.missed.append(site)
                if found:
                    s.fp = 1
                    s.wrong.append((site, found))
        scores["all"].add(s)
        scores[site.get("resolver") or "?"].add(s)
    return dict(scores)


def corpus_dir(name: str) -> Path:
    out = subprocess.run(
        ["bash", str(SHARED / "corpora" / "build.sh"), name], capture_output=True, text=True, check=True
    ).stdout.split()
    return Path(out[-1])


def index_copy(src: Path, dest: Path, reference: bool = False) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    if reference:
        subprocess.run(
            ["bash", str(SHARED / "reference" / "reference-cli.sh"), "init", str(dest)],
            check=True,
            capture_output=True,
        )
    else:
        from codegraph.index.indexer import index_project
        from codegraph.paths import ProjectPaths

        index_project(ProjectPaths(dest.resolve()))
    return dest / ".codegraph" / "codegraph.db"


def _line(tool: str, corpus: str, name: str, s: Score) -> str:
    return (
        f"{corpus:22} {tool:10} {name:18} sites {s.sites:4}  precision {s.precision:5.3f}"
        f"  recall {s.recall:5.3f}  (tp {s.tp}, fp {s.fp}, fn {s.fn})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("corpora", nargs="+")
    ap.add_argument("--root", type=Path, help="corpus directory (one corpus only)")
    ap.add_argument("--reference", action="store_true", help="score the reference CLI's index too")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--show", action="store_true", help="list every false positive and miss")
    args = ap.parse_args(argv)
    report = {}
    for corpus in args.corpora:
        labels = load_labels(corpus)
        src = args.root or corpus_dir(corpus)
        tools = ["codegraph"] + (["reference"] if args.reference else [])
        for tool in tools:
            with tempfile.TemporaryDirectory() as tmp:
                db = index_copy(src, Path(tmp) / corpus, reference=tool == "reference")
                result = score(db, labels)
            report[f"{corpus}/{tool}"] = {
                k: {
                    "precision": v.precision,
                    "recall": v.recall,
                    "tp": v.tp,
                    "fp": v.fp,
                    "fn": v.fn,
                    "sites": v.sites,
                }
                for k, v in result.items()
            }
            if not args.json:
                for name in ["all"] + sorted(k for k in result if k != "all"):
                    print(_line(tool, corpus, name, result[name]))
                if args.show:
                    for site, found in result["all"].wrong:
                        print(f"  WRONG {site['file']}:{site['line']} {site['callee']} -> {found}")
                    for site in result["all"].missed:
                        print(
                            f"  MISS  {site['file']}:{site['line']} {site['callee']} (want {site['target']})"
                        )
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
