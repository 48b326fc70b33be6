#!/usr/bin/env python3
"""Scale benchmark (issue 12): a cold index of a very large tree — completes? wall time, peak RSS of the
process tree, files accounted for, phase split.

Usage: python scripts/bench/scale_bench.py TARGET [--files N] [--keep]
  TARGET: ``monorepo`` (scripts/bench/monorepo.py, 100,000 files by default, generated once under
  $CODEGRAPH_CORPORA or ~/.cache/codegraph-corpora), ``linux`` (Debian's linux-source-6.1: the .deb is
  fetched with ``apt-get download`` and unpacked with ``dpkg -x`` there, never installed), or a directory.

The index is built in place (``.codegraph/`` under the tree, removed first unless --keep), since a copy
of 100,000 files costs more than the index. Prints one line per figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import measure
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target")
    ap.add_argument("--files", type=int, default=100_000, help="monorepo size")
    ap.add_argument("--keep", action="store_true", help="keep an existing .codegraph/ (a warm run)")
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
    wall, peak_mb, out = measure(CODEGRAPH + ["init", str(root), "--json"])
    summary = json.loads(out[out.find("{") :])
    skipped = sum(summary["skipped"].values())
    print(f"tree: {root}")
    print(f"cold index: {wall:.1f} s wall, peak RSS {peak_mb:.0f} MB (process tree)")
    print(
        f"files: {summary['files']} indexed + {skipped} skipped; nodes {summary['nodes']}, edges {summary['edges']}, "
        f"unresolved {summary['unresolved']}"
    )
    print("phases (s): " + "  ".join(f"{k} {v:.1f}" for k, v in summary["phases"].items()))


if __name__ == "__main__":
    main()
