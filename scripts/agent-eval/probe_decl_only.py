#!/usr/bin/env python3
"""Probe explore's ranking on the declaration-only fixture (issue 3).

Copies ``fixtures/repos/ambient-decls-ts`` (or ``--fixture NAME``) to a temporary directory, indexes it
with the real indexer, runs a fixed set of flow questions and type-naming questions, and prints, per
question, each ranked file's rank, score, penalty (rank multiplier, with its reasons) and share of the
envelope (characters of that file's source section / characters of the rendered envelope).

``--variant strip-banner`` removes generated banners ("Code generated … DO NOT EDIT") from the copy
before indexing: the generated declaration file then counts as hand-written (×0.5, not ×0.3).

Same build, same numbers: nothing printed depends on the temporary path, the clock or hash order.

Usage: probe_decl_only.py [--variant none|strip-banner] [--fixture NAME] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # runnable from a checkout without installing
    sys.path.insert(0, str(REPO))

from codegraph.index.indexer import index_project  # noqa: E402
from codegraph.index.languages.base import GENERATED_BANNER  # noqa: E402
from codegraph.paths import ProjectPaths  # noqa: E402
from codegraph.query import explore  # noqa: E402
from codegraph.render import render  # noqa: E402
from codegraph.store.reader import Reader  # noqa: E402

FIXTURES = REPO / "fixtures" / "repos"

# Flow questions in plain words (no identifiers), then questions that name a declared type.
QUERIES: dict[str, list[str]] = {
    "ambient-decls-ts": [
        "how does a file upload get streamed to storage and queued",
        "where is upload metadata recorded",
        "what happens when the upload route receives a file",
        "how is an upload queued for processing",
        "how is upload telemetry reported",
        "what does UploadMetadata contain",
        "which fields does UploadApiRequest carry",
        "how is ObjectMetadata filled in",
    ],
    "displacement-ts": [
        "how are records validated and enriched in the pipeline",
        "where are records parsed and written",
        "how are records validated in the pipeline",
        "how does validateRecords work",
        "what does StageResult hold",
    ],
}


def strip_banners(root: Path) -> list[str]:
    """Remove generated-banner lines from the head of every source file under ``root``; returns the
    relative paths changed (sorted)."""
    changed = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix not in (".ts", ".tsx", ".js", ".py"):
            continue
        lines = path.read_text(encoding="utf-8").split("\n")
        head = [i for i, ln in enumerate(lines[:10]) if GENERATED_BANNER.search(ln)]
        if head:
            kept = [ln for i, ln in enumerate(lines) if i not in head]
            while kept and not kept[0].strip():
                kept.pop(0)
            path.write_text("\n".join(kept), encoding="utf-8")
            changed.append(path.relative_to(root).as_posix())
    return changed


def build(fixture: str, variant: str, dest: Path) -> Path:
    """Copy the fixture into ``dest``, apply the variant, index it; returns the project root."""
    root = dest / fixture
    shutil.copytree(FIXTURES / fixture, root)
    if variant == "strip-banner":
        strip_banners(root)
    index_project(ProjectPaths(root.resolve()), workers=1)
    return root


def probe(reader: Reader, question: str) -> dict:
    """One question's files: rank, score, graph, terms, penalty, reasons, envelope share."""
    result = explore.explore(reader, question)
    ranking = explore.rank(reader, question)
    text = render(result)
    shown = {s.path: len(s.text) for s in result.sections}
    files = [
        {
            "rank": i + 1,
            "path": fs.path,
            "score": round(fs.score, 4),
            "graph": round(fs.graph, 4),
            "terms": round(fs.terms, 4),
            "penalty": fs.penalty,
            "reasons": fs.reasons,
            "share": round(shown.get(fs.path, 0) / len(text), 3) if text else 0.0,
        }
        for i, fs in enumerate(ranking.files)
    ]
    return {"question": question, "envelope_chars": len(text), "budget": result.budget, "files": files}


def run(fixture: str = "ambient-decls-ts", variant: str = "none") -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="cg-probe-") as tmp:
        root = build(fixture, variant, Path(tmp))
        with Reader(root) as reader:
            return [probe(reader, q) for q in QUERIES[fixture]]


def format_text(results: list[dict], fixture: str, variant: str) -> str:
    out = [f"# probe_decl_only  fixture={fixture}  variant={variant}"]
    for r in results:
        out.append(f"\n## {r['question']}   (envelope {r['envelope_chars']} of {r['budget']} chars)")
        out.append(f"{'rank':>4}  {'score':>7}  {'penalty':>7}  {'share':>6}  path  [reasons]")
        for f in r["files"]:
            reasons = f"  [{'; '.join(f['reasons'])}]" if f["reasons"] else ""
            out.append(
                f"{f['rank']:>4}  {f['score']:>7.4f}  {f['penalty']:>7.2f}  {f['share']:>6.1%}  "
                f"{f['path']}{reasons}"
            )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=("none", "strip-banner"), default="none")
    ap.add_argument("--fixture", choices=sorted(QUERIES), default="ambient-decls-ts")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of text")
    args = ap.parse_args(argv)
    results = run(args.fixture, args.variant)
    if args.json:
        print(json.dumps({"fixture": args.fixture, "variant": args.variant, "queries": results}, indent=1))
    else:
        print(format_text(results, args.fixture, args.variant))
    return 0


if __name__ == "__main__":
    sys.exit(main())
