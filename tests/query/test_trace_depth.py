"""trace on a chain longer than its depth limit says the limit stopped it and how to raise it (issue 9:
it blamed untyped receivers)."""

from __future__ import annotations

import subprocess
import sys

from codegraph.index.indexer import index_project
from codegraph.paths import ProjectPaths
from codegraph.query.trace import trace
from codegraph.render import render
from codegraph.store.reader import Reader


def test_a_path_beyond_the_depth_limit_is_reported_as_the_limit_not_as_missing_calls(tmp_path):
    chain = (
        "".join(f"def f{i}():\n    return f{i + 1}()\n\n\n" for i in range(11)) + "def f11():\n    return 0\n"
    )
    (tmp_path / "chain.py").write_text(chain + "\n\ndef lone():\n    return 1\n")
    index_project(ProjectPaths(tmp_path.resolve()), workers=1)
    with Reader(tmp_path) as reader:
        limited = trace(reader, "f0", "f11")
        assert limited.path == [] and limited.depth_limited
        text = render(limited)
        assert text.startswith(
            "No call path from 'f0' to 'f11' within 8 calls: the search stopped at the depth"
        )
        assert "`--max-depth`" in text and "`maxDepth`" in text and "untyped" not in text
        assert len(trace(reader, "f0", "f11", max_depth=11).path) == 12
        exhausted = trace(reader, "f0", "lone", max_depth=12)  # every call followed: truly no path
        assert not exhausted.depth_limited and "untyped receivers" in render(exhausted)
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", "trace", "f0", "f11", "-p", str(tmp_path), "--max-depth", "12"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("f0 → f11 (11 hops):"), proc.stdout + proc.stderr
