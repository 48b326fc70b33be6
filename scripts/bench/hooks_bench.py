#!/usr/bin/env python3
"""Wall time of the agent hooks as an agent runs them: spawn ``codegraph-hook EVENT``, feed the JSON
payload on stdin, wait for exit. Prints p50/p95 against the budgets (pre-tool-use 100 ms, session-start
1 s; issue 5).

It builds a throwaway project with N indexed files (the columns the hooks read), then times:
- pre-tool-use on a large indexed file (advice printed: the slowest path),
- pre-tool-use on a config file (the common no-output path),
- session-start with a fresh index (stats every indexed file; the detached command is /bin/true).

With ``--project PATH`` (a project indexed by ``codegraph index``) it times the same three cases on that
real index instead: the largest indexed file, a config file, session-start in the project.

Usage: hooks_bench.py [--files 3000] [--runs 30] [--project PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_MS = {"pre-tool-use": 100, "session-start": 1000}


def build_project(root: Path, files: int) -> None:
    (root / ".git").mkdir(parents=True)
    (root / ".codegraph").mkdir()
    db = sqlite3.connect(root / ".codegraph" / "codegraph.db")
    db.execute("CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, modified_at REAL)")
    db.execute("CREATE TABLE nodes (id INTEGER PRIMARY KEY, file_path TEXT, name TEXT, kind TEXT)")
    for i in range(files):
        rel = f"pkg{i % 50}/mod{i}.py"
        path = root / rel
        path.parent.mkdir(exist_ok=True)
        lines = 600 if i == 0 else 20
        path.write_text("".join(f"def f{j}():\n    return {j}\n" for j in range(lines // 2)))
        st = path.stat()
        db.execute("INSERT INTO files VALUES (?, ?, ?)", (rel, st.st_size, st.st_mtime))
        db.execute("INSERT INTO nodes (file_path, name, kind) VALUES (?, ?, 'function')", (rel, f"f{i}"))
    db.commit()
    db.close()
    (root / "package.json").write_text("{}\n")


def real_targets(root: Path) -> tuple[Path, Path, int]:
    """The largest indexed file, a non-source file and the file count of a real index."""
    db = sqlite3.connect(f"file:{root / '.codegraph' / 'codegraph.db'}?mode=ro", uri=True)
    count = db.execute("SELECT COUNT(*) FROM files").fetchone()[0]
    (largest,) = db.execute("SELECT path FROM files ORDER BY size DESC LIMIT 1").fetchone()
    db.close()
    config = next(
        (p for p in (root / "setup.cfg", root / "pyproject.toml", root / "package.json") if p.exists()),
        root / "README.md",
    )
    return root / largest, config, count


def time_hook(hook: str, event: str, payload: dict, runs: int, env: dict) -> list[float]:
    data = json.dumps(payload)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([hook, event], input=data, capture_output=True, text=True, env=env, check=True)
        times.append((time.perf_counter() - started) * 1000)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--project", type=Path, help="an already indexed project to measure instead")
    args = parser.parse_args()
    hook = str(Path(sys.executable).parent / "codegraph-hook")
    with tempfile.TemporaryDirectory(prefix="hooks-bench-") as tmp:
        if args.project:
            root = args.project.resolve()
            big, config, count = real_targets(root)
        else:
            root = Path(tmp) / "proj"
            build_project(root, args.files)
            big, config, count = root / "pkg0/mod0.py", root / "package.json", args.files
        env = {**os.environ, "CODEGRAPH_BIN": "/bin/true", "TMPDIR": tmp}

        def read(path: Path) -> dict:
            return {"session_id": "b", "tool_name": "Read", "tool_input": {"file_path": str(path)}}

        cases = [
            ("pre-tool-use", f"largest indexed Read ({big.name})", read(big)),
            ("pre-tool-use", f"config Read ({config.name}, silent)", read(config)),
            ("session-start", f"index of {count} files", {"session_id": "b", "cwd": str(root)}),
        ]
        print(f"codegraph-hook wall time, {args.runs} runs each ({hook})")
        failed = False
        for event, label, payload in cases:
            times = time_hook(hook, event, payload, args.runs, env)
            p50, p95 = statistics.median(times), percentile(times, 0.95)
            ok = p95 <= BUDGET_MS[event]
            failed |= not ok
            print(
                f"  {event:<14} {label:<34} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  "
                f"budget {BUDGET_MS[event]} ms {'ok' if ok else 'OVER'}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
