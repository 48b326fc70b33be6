#!/usr/bin/env python3
"""Synthetic monorepo generator for the scale benchmark (issue 12: a 100,000-file cold index in bounded memory).

Usage: python scripts/bench/monorepo.py OUT [--files N] [--seed S] [--per-package K]

Writes ``N`` source files (default 100,000) into ``OUT`` in packages of ``K`` files, half of them Python
(``OUT/py/<pkg>/mod_NNN.py``, importable with ``OUT/py`` on ``sys.path``) and half TypeScript
(``OUT/ts/<pkg>/src/mod_NNN.ts``, relative imports). Every module defines classes with methods and
functions (about 100-200 lines, like an ordinary library module), imports a few modules of its own package
and of earlier packages, and calls what it imports. Imports point only backwards (earlier package, or an
earlier module of the same package), so no cycle exists and every Python module imports cleanly.
The same ``--seed`` and sizes give the same tree, byte for byte.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

WORDS = (
    "account audit batch buffer cache channel client codec config cursor digest event filter frame graph "
    "handler index job ledger lease loader merge metric node order parser payload policy queue record "
    "report request route sample schema session shard signal snapshot stream task token tracker vector "
    "window worker"
).split()
VERBS = (
    "build check collect compute emit encode fetch flush load merge parse read render scan sort split update "
    "validate write"
).split()


def _camel(words: list[str]) -> str:
    return "".join(w.capitalize() for w in words)


class _Module:
    """Names one module defines, chosen before any text is written (so importers can use them)."""

    def __init__(self, rng: random.Random, index: int) -> None:
        self.index = index
        self.classes = [
            (
                _camel(rng.sample(WORDS, 2)) + f"{index}x{i}",
                [f"{rng.choice(VERBS)}_{m}" for m in range(rng.randint(3, 6))],
            )
            for i in range(rng.randint(2, 3))
        ]
        self.functions = [
            f"{rng.choice(VERBS)}_{rng.choice(WORDS)}_{index}_{i}" for i in range(rng.randint(3, 6))
        ]


def _plan(rng: random.Random, files: int, per_package: int) -> list[tuple[str, int, list[_Module]]]:
    """(language, package number, modules) for every package, Python and TypeScript alternating."""
    packages = []
    made = 0
    number = 0
    while made < files:
        count = min(per_package, files - made)
        language = "py" if number % 2 == 0 else "ts"
        modules = count - 1 if language == "py" else count  # a Python package's __init__.py is a file too
        packages.append((language, number, [_Module(rng, i) for i in range(modules)]))
        made += count
        number += 1
    return packages


def _imports(rng: random.Random, packages, p: int, m: int) -> list[tuple[int, int]]:
    """(package, module) pairs module ``m`` of package ``p`` imports: earlier modules of its own package and
    modules of earlier packages of the same language."""
    language = packages[p][0]
    chosen = set()
    if m > 0:
        for _ in range(rng.randint(1, 2)):
            chosen.add((p, rng.randrange(m)))
    earlier = [q for q in range(max(0, p - 12), p) if packages[q][0] == language]
    for _ in range(rng.randint(1, 3) if earlier else 0):
        q = rng.choice(earlier)
        chosen.add((q, rng.randrange(len(packages[q][2]))))
    return sorted(chosen)


def _python(rng: random.Random, packages, p: int, m: int) -> str:
    mod = packages[p][2][m]
    deps = _imports(rng, packages, p, m)
    out = [
        f'"""Module {m} of package pkg_{p:05d}: {" ".join(rng.sample(WORDS, 5))}."""',
        "",
        "from __future__ import annotations",
        "",
    ]
    out.append("import json")
    for q, n in deps:
        dep = packages[q][2][n]
        out.append(f"from pkg_{q:05d}.mod_{n:03d} import {dep.classes[0][0]}, {dep.functions[0]}")
    out += ["", f"LIMIT_{m} = {rng.randint(10, 1000)}", ""]
    for name in mod.functions:
        arg = rng.choice(WORDS)
        out += [
            "",
            f"def {name}({arg}, limit=LIMIT_{m}):",
            f'    """{name.replace("_", " ").capitalize()} for a {arg}."""',
        ]
        out.append(f"    values = [{arg}] if not isinstance({arg}, list) else list({arg})")
        if deps:
            q, n = rng.choice(deps)
            out.append(f"    values.extend({packages[q][2][n].functions[0]}(values[:1], limit))")
        out += [
            "    total = 0",
            "    for value in values[:limit]:",
            "        total += len(json.dumps(value, default=str))",
            "    return [total]",
        ]
    for cls, methods in mod.classes:
        base = ""
        if deps and rng.random() < 0.3:
            q, n = rng.choice(deps)
            base = f"({packages[q][2][n].classes[0][0]})"
        out += ["", "", f"class {cls}{base}:", f'    """A {" ".join(rng.sample(WORDS, 3))} holder."""', ""]
        out += [
            "    def __init__(self, name, size=0):",
            "        self.name = name",
            "        self.size = size",
            "        self.items = []",
        ]
        for i, meth in enumerate(methods):
            out += [
                "",
                f"    def {meth}(self, value):",
                f'        """{meth.replace("_", " ").capitalize()}."""',
            ]
            out.append("        self.items.append(value)")
            if i > 0:
                out.append(f"        self.{methods[i - 1]}(value)")
            if deps and rng.random() < 0.5:
                q, n = rng.choice(deps)
                dep_cls, dep_methods = packages[q][2][n].classes[0]
                out.append(f"        helper = {dep_cls}(self.name)")
                out.append(f"        helper.{dep_methods[0]}(value)")
            out.append(f"        return {rng.choice(mod.functions)}(self.items)")
    return "\n".join(out) + "\n"


def _typescript(rng: random.Random, packages, p: int, m: int) -> str:
    mod = packages[p][2][m]
    deps = _imports(rng, packages, p, m)
    out = [f"/** Module {m} of package ts_{p:05d}: {' '.join(rng.sample(WORDS, 5))}. */", ""]
    for q, n in deps:
        dep = packages[q][2][n]
        where = f"./mod_{n:03d}" if q == p else f"../../ts_{q:05d}/src/mod_{n:03d}"
        out.append(f"import {{ {dep.classes[0][0]}, {dep.functions[0]} }} from '{where}';")
    out += ["", f"export const LIMIT_{m} = {rng.randint(10, 1000)};", ""]
    out += [f"export interface Shape{m} {{", "  name: string;", "  size: number;", "}", ""]
    for name in mod.functions:
        arg = rng.choice(WORDS)
        out += [
            f"/** {name} for a {arg}. */",
            f"export function {name}({arg}: unknown[], limit: number = LIMIT_{m}): number[] {{",
        ]
        out.append(f"  const values: unknown[] = [...{arg}];")
        if deps:
            q, n = rng.choice(deps)
            out.append(f"  values.push(...{packages[q][2][n].functions[0]}(values.slice(0, 1), limit));")
        out += [
            "  let total = 0;",
            "  for (const value of values.slice(0, limit)) {",
            "    total += JSON.stringify(value).length;",
            "  }",
            "  return [total];",
            "}",
            "",
        ]
    for cls, methods in mod.classes:
        base = ""
        if deps and rng.random() < 0.3:
            q, n = rng.choice(deps)
            base = f" extends {packages[q][2][n].classes[0][0]}"
        out += [
            f"/** A {' '.join(rng.sample(WORDS, 3))} holder. */",
            f"export class {cls}{base} implements Shape{m} {{",
        ]
        out += [
            "  items: unknown[] = [];",
            "  size = 0;",
            "",
            "  constructor(public name: string) {",
            "    " + ("super(name);" if base else "this.name = name;"),
            "  }",
        ]
        for i, meth in enumerate(methods):
            out += ["", f"  {meth}(value: unknown): number[] {{", "    this.items.push(value);"]
            if i > 0:
                out.append(f"    this.{methods[i - 1]}(value);")
            if deps and rng.random() < 0.5:
                q, n = rng.choice(deps)
                dep_cls, dep_methods = packages[q][2][n].classes[0]
                out.append(f"    const helper = new {dep_cls}(this.name);")
                out.append(f"    helper.{dep_methods[0]}(value);")
            out.append(f"    return {rng.choice(mod.functions)}(this.items);")
            out.append("  }")
        out += ["}", ""]
    return "\n".join(out)


def generate(out: Path, files: int = 100_000, seed: int = 12, per_package: int = 50) -> int:
    """Write the monorepo under ``out``; returns the number of source files written."""
    rng = random.Random(seed)
    packages = _plan(rng, files, per_package)
    written = 0
    for p, (language, _, modules) in enumerate(packages):
        folder = out / "py" / f"pkg_{p:05d}" if language == "py" else out / "ts" / f"ts_{p:05d}" / "src"
        folder.mkdir(parents=True, exist_ok=True)
        if language == "py":
            (folder / "__init__.py").write_text(f'"""Package {p}."""\n')
            written += 1
        for m in range(len(modules)):
            text = _python(rng, packages, p, m) if language == "py" else _typescript(rng, packages, p, m)
            (folder / f"mod_{m:03d}.{language}").write_text(text)
            written += 1
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--files", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--per-package", type=int, default=50)
    args = ap.parse_args()
    if args.files < 1 or args.per_package < 1:
        ap.error("--files and --per-package must be at least 1")
    if args.out.exists() and any(args.out.iterdir()):
        ap.error(f"{args.out} is not empty; give a new directory")
    n = generate(args.out, args.files, args.seed, args.per_package)
    print(f"wrote {n} source files to {args.out}")


if __name__ == "__main__":
    main()
