#!/usr/bin/env python3
"""Scale benchmark (issue 12): a cold index of a very large tree — completes? wall time, peak RSS of the
process tree, files accounted for, phase split.

Usage: python scripts/bench/scale_bench.py TARGET [--files N] [--keep] [--cap-mb MB] [--no-edit] [--edit-runs N]
  TARGET: ``monorepo`` (scripts/bench/monorepo.py, 100,000 files by default, generated once under
  $CODEGRAPH_CORPORA or ~/.cache/codegraph-corpora), ``linux`` (Debian's linux-source-6.1: the .deb is
  fetched with ``apt-get download`` and unpacked with ``dpkg -x`` there, never installed), or a directory.

The index is built in place (``.codegraph/`` under the tree, removed first unless --keep), since a copy
of 100,000 files costs more than the index. Prints one line per figure. The cold index runs
``index_project`` in a child process (what ``codegraph init`` runs) that prints its phase and parse progress
as it goes, so with ``--cap-mb`` a run killed when the tree's RSS passes the cap says how far it got. Then one
file (the middle one of the indexed paths) gets a new function, ``codegraph sync --json`` is timed (wall, peak
RSS, which resolution and resolver tables it used), and the file is put back as it was, ``--edit-runs``
rounds (median). Then the same edits go through what the daemon's watcher runs, in one process: its
first sync as the daemon starts, then one sync per edit told which file changed (see ``watcher_child``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import CapExceeded, measure
from monorepo import generate

DEST = Path(os.environ.get("CODEGRAPH_CORPORA", Path.home() / ".cache" / "codegraph-corpora"))
CODEGRAPH = [sys.executable, "-m", "codegraph"]


def monorepo(files: int) -> Path:
    out = DEST / f"monorepo-{files}"
    if not (out / ".complete").exists():
        shutil.rmtree(out, ignore_errors=True)
        generate(out, files)
        (out / ".complete").write_text("")
    return out


def linux() -> Path:
    out = DEST / "linux-6.1"
    if (out / ".complete").exists():
        return next(p for p in out.iterdir() if p.is_dir())
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="cg-linux-") as tmp:
        subprocess.run(["apt-get", "download", "linux-source-6.1"], cwd=tmp, check=True, capture_output=True)
        deb = next(Path(tmp).glob("linux-source-6.1_*.deb"))
        subprocess.run(["dpkg", "-x", str(deb), str(Path(tmp) / "x")], check=True)
        tarball = next((Path(tmp) / "x" / "usr" / "src").glob("linux-source-6.1.tar.*"))
        out.mkdir(parents=True)
        with tarfile.open(tarball) as tar:
            tar.extractall(out, filter="data")
    tree = next(p for p in out.iterdir() if p.is_dir())
    _drop_debian_ignore(tree / ".gitignore")
    (out / ".complete").write_text("")
    return tree


def _drop_debian_ignore(gitignore: Path) -> None:
    """Debian's packaging appends ``/*`` + ``!/debian/`` to the kernel's top-level .gitignore (ignore
    everything at the top level but debian/), so the tree as shipped hides every source file from git and
    from codegraph alike. Cut that block to get upstream's rules back."""
    lines = gitignore.read_text().splitlines(keepends=True)
    if "/*\n" in lines:
        cut = lines.index("/*\n")
        while cut > 0 and lines[cut - 1].startswith("#"):
            cut -= 1
        gitignore.write_text("".join(lines[:cut]))


PROGRESS_SECONDS = 2.0
# what the one-file edit appends, by extension: a new top-level function (a definition, so the sync
# plans the files that could now resolve to it); other files get a comment
# (ROUND: the round's number, so each round's edit is a new name)
EDIT_TEXT = {
    ".py": "\n\ndef scale_bench_editROUND():\n    return 1\n",
    ".ts": "\nexport function scaleBenchEditROUND(): number {\n  return 1;\n}\n",
    ".c": "\nint scale_bench_editROUND(void)\n{\n\treturn 1;\n}\n",
}


def child(root: str) -> None:
    """The cold index (``codegraph init``'s ``index_project``), printing the phase and the parse
    progress every PROGRESS_SECONDS on stdout, then the summary as JSON."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths

    last = [0.0]

    def phase(name: str, count: int | None) -> None:
        print(f"phase: {name} {'' if count is None else count} (this process: {_rss()})", flush=True)

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_SECONDS or done == total:
            last[0] = now
            print(f"parsed: {done}/{total}", flush=True)

    summary = index_project(ProjectPaths(Path(root)), progress=progress, phase=phase, check=True)
    print(f"phase: done (this process: {_rss()})", flush=True)
    print(json.dumps(dataclasses.asdict(summary)), flush=True)


def _rss() -> str:
    """This process's RSS now and its peak so far (/proc: VmRSS, VmHWM)."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return f"{found.get('VmRSS', 0):.0f} MB, peak {found.get('VmHWM', 0):.0f} MB"


def _middle_file(root: Path) -> str:
    with sqlite3.connect(root / ".codegraph" / "codegraph.db") as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM files").fetchone()
        (rel,) = conn.execute(
            "SELECT path FROM files ORDER BY path LIMIT 1 OFFSET ?", (count // 2,)
        ).fetchone()
    return rel


@contextlib.contextmanager
def _edited(root: Path, rel: str, round_: int) -> Iterator[None]:
    """``rel`` with a new function appended (named per round), put back as it was afterwards."""
    target = root / rel
    before = target.read_bytes()
    stat = target.stat()
    text = EDIT_TEXT.get(target.suffix, "\n/* scale_bench edit ROUND */\n").replace("ROUND", str(round_))
    try:
        target.write_bytes(before + text.encode())
        yield
    finally:
        target.write_bytes(before)
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def edit_sync(root: Path, runs: int) -> None:
    """Append a function to the middle indexed file, time ``codegraph sync --json``, put the file back
    (and sync it back, untimed); ``runs`` rounds, median."""
    rel = _middle_file(root)
    walls, peaks = [], []
    for round_ in range(runs):
        with _edited(root, rel, round_):
            wall, peak_mb, out = measure(CODEGRAPH + ["sync", str(root), "--json"])
        measure(CODEGRAPH + ["sync", str(root)])
        walls.append(wall)
        peaks.append(peak_mb)
    summary = json.loads(out[out.find("{") :])
    print(
        f"one-edit sync, CLI ({rel}): {statistics.median(walls):.2f} s wall (median of "
        f"{', '.join(f'{w:.2f}' for w in walls)}), peak RSS {max(peaks):.0f} MB; "
        f"resolution {summary['resolution'].get('mode')} ({summary['resolution'].get('files')} files), "
        f"tables {summary['tables'].get('path')}"
    )


def watcher_child(root: str, rel: str, runs: int) -> None:
    """What the daemon's watcher runs (``codegraph.index.watch``): a first sync as the daemon starts
    (``index_project(memo=True)``), then after each edit ``index_project(memo=True, changed={rel})``,
    timed in this process (the watchdog event's latency is not in it: sync_bench.py measures edit →
    visible through the real daemon); prints JSON."""
    from codegraph.index.indexer import index_project
    from codegraph.paths import ProjectPaths

    paths = ProjectPaths(Path(root))
    clock = time.perf_counter()
    index_project(paths, memo=True)
    start = time.perf_counter() - clock
    start_rss = _rss()
    syncs = []
    for round_ in range(runs):
        with _edited(Path(root), rel, round_):
            clock = time.perf_counter()
            summary = index_project(paths, memo=True, changed={rel})
            syncs.append(time.perf_counter() - clock)
        index_project(paths, memo=True, changed={rel})
    print(json.dumps({"start": start, "start_rss": start_rss, "syncs": syncs, "mode": summary.resolution}))


def watcher_sync(root: Path, runs: int) -> None:
    rel = _middle_file(root)
    wall, peak_mb, out = measure([sys.executable, __file__, "--watcher-child", str(root), rel, str(runs)])
    found = json.loads(out.splitlines()[-1])
    print(
        f"one-edit sync, daemon's watcher ({rel}): {statistics.median(found['syncs']):.2f} s (median of "
        f"{', '.join(f'{w:.2f}' for w in found['syncs'])}); its first sync as the daemon starts "
        f"{found['start']:.1f} s ({found['start_rss']}); peak RSS {peak_mb:.0f} MB; "
        f"resolution {found['mode'].get('mode')} ({found['mode'].get('files')} files)"
    )


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
        return
    if sys.argv[1:2] == ["--watcher-child"]:
        watcher_child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target")
    ap.add_argument("--files", type=int, default=100_000, help="monorepo size")
    ap.add_argument("--keep", action="store_true", help="keep an existing .codegraph/ (a warm run)")
    ap.add_argument(
        "--cap-mb", type=float, help="kill the cold index once its process tree's RSS passes this"
    )
    ap.add_argument("--no-edit", action="store_true", help="skip the one-file edit syncs")
    ap.add_argument("--edit-runs", type=int, default=3, help="rounds of each one-file edit sync")
    args = ap.parse_args()
    if args.target == "monorepo":
        root = monorepo(args.files)
    elif args.target == "linux":
        root = linux()
    elif Path(args.target).is_dir():
        root = Path(args.target).resolve()
    else:
        ap.error(f"{args.target}: not monorepo, linux or a directory")
    if not args.keep:
        shutil.rmtree(root / ".codegraph", ignore_errors=True)
    print(f"tree: {root}")
    try:
        wall, peak_mb, out = measure([sys.executable, __file__, "--child", str(root)], cap_mb=args.cap_mb)
    except CapExceeded as exc:
        lines = exc.output.splitlines()
        phases = [line for line in lines if line.startswith("phase: ")]
        parsed = [line for line in lines if line.startswith("parsed: ")]
        print(
            f"cold index: {exc}; last {phases[-1] if phases else 'phase: none'}, "
            f"{parsed[-1] if parsed else 'parsed: none'}"
        )
        sys.exit(1)
    summary = json.loads(out.splitlines()[-1])
    skipped = sum(summary["skipped"].values())
    print(
        "parent RSS at each phase: "
        + "; ".join(line[7:] for line in out.splitlines() if line.startswith("phase: "))
    )
    print(f"cold index: {wall:.1f} s wall, peak RSS {peak_mb:.0f} MB (process tree)")
    print(
        f"files: {summary['files']} indexed + {skipped} skipped; nodes {summary['nodes']}, edges {summary['edges']}, "
        f"unresolved {summary['unresolved']}"
    )
    print("phases (s): " + "  ".join(f"{k} {v:.1f}" for k, v in summary["phases"].items()))
    if not args.no_edit:
        edit_sync(root, args.edit_runs)
        watcher_sync(root, args.edit_runs)


if __name__ == "__main__":
    main()
