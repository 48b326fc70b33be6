#!/usr/bin/env python3
"""Draw the call sites to label for fixtures/labels/<corpus>.json: a seeded choice of files, then a window
of consecutive call sites in each (tree-sitter ``call`` / ``call_expression`` / ``new_expression`` nodes in
source order). It prints ``line<TAB>callee`` only; the targets come from reading the code.

Usage:
  draw_sites.py ROOT GLOB --seed 11 --files 9 --window 20
      random.Random(seed).shuffle(sorted files); files with fewer than 8 sites skipped; in each file
      the window starts at rng.randrange(n - window + 1).
  draw_sites.py ROOT GLOB --seed 11 --window 12 --stratum REGEX [--start REGEX]
      random.Random(seed).choice among files matching REGEX; the window starts at the first site on or
      after the first match (of --start, searched from there, when given).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

GRAMMAR = {".py": "python", ".ts": "typescript", ".js": "javascript", ".mjs": "javascript"}
MIN_SITES = 8


def call_sites(path: Path) -> list[tuple[int, str]]:
    """(1-based line, callee text) of every call in the file, in source order; ``new X`` for constructions."""
    from tree_sitter_language_pack import get_parser

    tree = get_parser(GRAMMAR[path.suffix]).parse(path.read_bytes())
    out, stack = [], [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type in ("call", "call_expression"):
            fn = n.child_by_field_name("function")
            out.append((n.start_byte, n.start_point[0] + 1, fn.text.decode() if fn is not None else "?"))
        elif n.type == "new_expression":
            c = n.child_by_field_name("constructor")
            out.append(
                (n.start_byte, n.start_point[0] + 1, "new " + (c.text.decode() if c is not None else "?"))
            )
        stack.extend(reversed(n.children))
    out.sort(key=lambda site: site[0])  # stable: a call on a call's result comes before the inner call
    return [(line, callee) for _, line, callee in out]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("glob")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--window", type=int, required=True)
    ap.add_argument("--files", type=int, default=1)
    ap.add_argument("--stratum", help="choose one file among those matching this regex")
    ap.add_argument("--start", help="with --stratum: the window starts at this regex's first match")
    args = ap.parse_args(argv)
    files = sorted(str(p.relative_to(args.root)) for p in args.root.glob(args.glob) if p.is_file())
    rng = random.Random(args.seed)
    if args.stratum:
        rx = re.compile(args.stratum, re.M)
        matching = [f for f in files if rx.search((args.root / f).read_text(errors="replace"))]
        if not matching:
            print(f"no file under {args.root} matches {args.stratum!r}", file=sys.stderr)
            return 2
        rel = rng.choice(matching)
        text = (args.root / rel).read_text(errors="replace")
        m = rx.search(text)
        if args.start:
            m = re.compile(args.start, re.M).search(text, m.start()) or m
        first = text[: m.start()].count("\n") + 1
        window = [s for s in call_sites(args.root / rel) if s[0] >= first][: args.window]
        print(f"### {rel}  ({len(matching)} files match; window from line {first})")
        for line, callee in window:
            print(f"{line}\t{callee[:90]}")
        return 0
    rng.shuffle(files)
    taken = 0
    for rel in files:
        sites = call_sites(args.root / rel)
        if len(sites) < MIN_SITES:
            continue
        start = rng.randrange(max(1, len(sites) - args.window + 1))
        window = sites[start : start + args.window]
        print(f"### {rel}  sites {len(sites)} window {start}..{start + len(window) - 1}")
        for line, callee in window:
            print(f"{line}\t{callee[:90]}")
        taken += 1
        if taken == args.files:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
