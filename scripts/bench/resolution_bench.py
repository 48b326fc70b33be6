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

An edge belongs to a site when it starts on the site's line and its callee text matches: the same
dotted text (``self.x.save``), or the same last name when either side is not a plain dotted name
(``super().save``, a chain ``<chain>.filter``, ``a[i].f``, ``x?.f``; codegraph writes those as
``<expr>.f``, the reference as the text it saw), or the callee text with leading receivers dropped (the
reference stores ``self.f()`` as ``f``), or, with no callee text stored, the same target name.
``new Foo`` matches ``Foo``. A target may give the definition's ``line``: then a target of that name
defined on that line counts too, however the tool qualifies it. A site may list ``accept``: other
targets that are not wrong (an alias's own binding, say) but do not count as found. Resolver ``dynamic``
marks sites whose target only runtime knowledge gives (manager proxies, mixins, factories): the
``static`` row leaves them out. A labels file's ``config`` object is written into the corpus copy as its
``codegraph.json`` before indexing (an npm package's sources under ``dist/``: ``{"include": ["dist/"]}``).
"""

from __future__ import annotations

import argparse
import json
import re
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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpora import CorpusError, corpus_dir  # noqa: E402

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


def _edges_at(conn: sqlite3.Connection) -> dict[tuple[str, int], list[tuple[str | None, str, str, str, int]]]:
    """(source file, line) → [(refName, target file, target qualified name, target name, target line)]."""
    out: dict = defaultdict(list)
    rows = conn.execute(
        "SELECT s.file_path, e.line, e.metadata, t.file_path, t.qualified_name, t.name, t.start_line FROM edges e"
        " JOIN nodes s ON s.id = e.source JOIN nodes t ON t.id = e.target"
        f" WHERE e.kind IN ({','.join('?' * len(CALL_KINDS))})",
        CALL_KINDS,
    )
    for src_file, line, meta, t_file, t_qname, t_name, t_line in rows:
        try:
            ref = json.loads(meta).get("refName") if meta else None
        except ValueError:
            ref = None
        out[(src_file, line)].append((ref, t_file, t_qname, t_name, t_line))
    return out


# a Ruby method name may end in ? or ! (``other.serial?``); a TypeScript ``a!.b`` is no plain text
_PLAIN = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*[?!]?")
RUNTIME_ONLY = "dynamic"


def _tail(text: str) -> str:
    """The called name: the last identifier of a callee text (``new Foo`` → ``Foo``)."""
    text = text.removeprefix("new ").strip()
    names = re.findall(r"[A-Za-z_$][\w$]*", text.rsplit(".", 1)[-1])
    return names[-1] if names else text


def callee_matches(ref: str | None, callee: str, target_name: str, drops_receivers: bool = True) -> bool:
    """Whether an edge whose stored callee text is ``ref`` (None: not stored) is the call ``callee``.
    ``drops_receivers``: the tool may store ``x.f()`` as ``f`` (the reference does); codegraph stores
    the text as written, so there a bare ``f`` is another call on the line (Ruby ``serial? ==
    other.serial?``), never ``other.serial?``."""
    plain = callee.removeprefix("new ").strip()
    if ref is None:
        return target_name == _tail(callee)
    ref = ref.removeprefix("new ").strip()
    if ref == plain:
        return True
    if _tail(ref) != _tail(callee):
        return False
    if not (_PLAIN.fullmatch(ref) and _PLAIN.fullmatch(plain)):
        return True
    return drops_receivers and plain.endswith("." + ref)  # a dropped leading receiver (self.f → f)


def _key(target: dict) -> tuple[str, str, str, int | None]:
    qname = target.get("qualified_name") or target["name"]
    return (target["file"], qname, target.get("name") or qname.rsplit("::", 1)[-1], target.get("line"))


def _same(key: tuple, edge: tuple) -> bool:
    """A labelled target is the edge's target: same file and qualified name, or, when the label gives the
    definition's line (where tools may qualify a name differently, as object-literal members), same file,
    name and line."""
    if key[:2] == edge[:2]:
        return True
    return key[3] is not None and (key[0], key[2], key[3]) == (edge[0], edge[2], edge[3])


def score(db: Path, labels: dict, drops_receivers: bool = False) -> dict[str, Score]:
    """Score an index against labelled sites. Returns {"all": Score, "static": Score, <resolver>: Score, ...}
    ("static": every site but those of resolver ``dynamic``). ``drops_receivers``: True for the
    reference CLI's index (see :func:`callee_matches`)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        at = _edges_at(conn)
    finally:
        conn.close()
    scores: dict[str, Score] = defaultdict(Score)
    scores["all"], scores["static"] = Score(), Score()
    for site in labels["sites"]:
        s = Score(sites=1)
        callee = site["callee"]
        accept = [_key(a) for a in site.get("accept", ())]
        target = site["target"]
        want = _key(target) if target is not None else None
        found = []
        for ref, t_file, t_qname, t_name, t_line in at.get((site["file"], site["line"]), ()):
            if not callee_matches(ref, callee, t_name, drops_receivers):
                continue
            edge = (t_file, t_qname, t_name, t_line)
            if want is not None and _same(want, edge):
                found.append(want[:2])
            elif not any(_same(a, edge) for a in accept):
                found.append((t_file, t_qname))
        if target is None:
            if found:
                s.fp = 1
                s.wrong.append((site, found))
        else:
            s.positives = 1
            if want[:2] in found:
                s.tp = 1
            else:
                s.fn = 1
                s.missed.append(site)
                if found:
                    s.fp = 1
                    s.wrong.append((site, found))
        scores["all"].add(s)
        if site.get("resolver") != RUNTIME_ONLY:
            scores["static"].add(s)
        scores[site.get("resolver") or "?"].add(s)
    return dict(scores)


def write_config(root: Path, labels: dict) -> None:
    """A labels file's ``config`` (a ``codegraph.json`` object, e.g. ``{"include": ["dist/"]}`` for an
    npm package whose sources are its ``dist/``) written into the corpus copy before indexing."""
    if labels.get("config"):
        (root / "codegraph.json").write_text(json.dumps(labels["config"]))


def index_copy(src: Path, dest: Path, reference: bool = False, labels: dict | None = None) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    write_config(dest, labels or {})
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
        try:
            src = args.root or corpus_dir(corpus)
        except CorpusError as e:
            sys.exit(str(e))
        tools = ["codegraph"] + (["reference"] if args.reference else [])
        for tool in tools:
            with tempfile.TemporaryDirectory() as tmp:
                db = index_copy(src, Path(tmp) / corpus, reference=tool == "reference", labels=labels)
                result = score(db, labels, drops_receivers=tool == "reference")
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
                for name in ["all", "static"] + sorted(k for k in result if k not in ("all", "static")):
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
