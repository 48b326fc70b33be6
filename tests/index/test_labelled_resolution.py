"""Call edges against call sites labelled by reading real code (fixtures/labels/*.json).

Labels of tier "small" (small real corpora and fixture repos) run here; every labels file runs in
``scripts/bench/resolution_bench.py``. Corpora come from ../shared/corpora/build.sh; a labels file
for a fixture repo names it as ``"corpus": "fixture:<name>"``.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO.parent / "shared" / "corpora" / "build.sh"
_spec = importlib.util.spec_from_file_location(
    "resolution_bench", REPO / "scripts" / "bench" / "resolution_bench.py"
)
bench = importlib.util.module_from_spec(_spec)
sys.modules["resolution_bench"] = bench  # dataclasses look their module up there
_spec.loader.exec_module(bench)

SMALL = sorted(
    p.stem
    for p in (REPO / "fixtures" / "labels").glob("*.json")
    if json.loads(p.read_text()).get("tier") == "small"
)
MIN_PRECISION = 0.98
MIN_RECALL = 0.7


def _source(corpus: str) -> Path:
    if corpus.startswith("fixture:"):
        return REPO / "fixtures" / "repos" / corpus.split(":", 1)[1]
    if not BUILD.is_file():
        pytest.skip(f"{BUILD} not found (../shared is missing)")
    proc = subprocess.run(["bash", str(BUILD), corpus], capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        pytest.skip(f"corpus {corpus} could not be built: {proc.stderr.strip()[-300:]}")
    return Path(proc.stdout.split()[-1])


@pytest.mark.parametrize("labels_name", SMALL)
def test_labelled_call_sites_resolve_with_high_precision_and_recall(labels_name, tmp_path):
    labels = bench.load_labels(labels_name)
    root = tmp_path / "repo"
    shutil.copytree(_source(labels["corpus"]), root, symlinks=True)
    index_project(ProjectPaths(root.resolve()), workers=1)
    result = bench.score(root / ".codegraph" / "codegraph.db", labels)["all"]
    wrong = [(s["file"], s["line"], s["callee"], found) for s, found in result.wrong]
    assert result.sites >= 30, f"{labels_name}: only {result.sites} labelled sites"
    assert result.precision >= MIN_PRECISION, wrong
    assert result.recall >= MIN_RECALL, [(s["file"], s["line"], s["callee"]) for s in result.missed]


def test_scoring_counts_wrong_missing_and_forbidden_edges(tmp_path):
    """The scorer itself, on a two-file repo whose edges are known by construction."""
    (tmp_path / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return f()\n")
    (tmp_path / "b.py").write_text("from a import f\n\n\ndef h():\n    f()\n    len([])\n    print(1)\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    labels = {
        "sites": [
            {"file": "a.py", "line": 6, "callee": "f", "target": {"file": "a.py", "qualified_name": "f"}},
            {"file": "b.py", "line": 5, "callee": "f", "target": {"file": "b.py", "qualified_name": "f"}},
            {"file": "b.py", "line": 6, "callee": "len", "target": None},
            {"file": "b.py", "line": 7, "callee": "print", "target": {"file": "a.py", "qualified_name": "g"}},
        ]
    }
    s = bench.score(tmp_path / ".codegraph" / "codegraph.db", labels)["all"]
    # site 1 right; site 2 reaches a.py:f although the label (wrongly) says b.py: a wrong edge and a
    # miss; site 3 correctly has no edge; site 4 has no edge: a miss
    assert (s.tp, s.fp, s.fn, s.positives) == (1, 1, 2, 3)
    assert s.precision == 0.5 and s.recall == pytest.approx(1 / 3)
