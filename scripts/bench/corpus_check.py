#!/usr/bin/env python3
"""Corpus check: codegraph indexes a real code base whole, and the reference CLI reads that index.

Usage: python scripts/bench/corpus_check.py CORPUS [CORPUS ...] [--all-medium]
  CORPUS: a name built by ../shared/corpora/build.sh (go-x-tools, java-guava…) with a labels file
  fixtures/labels/<CORPUS>.json (its ``language`` and labelled call sites are used).

Issue 10, "Proven on real code". Per corpus, on a fresh copy in a temp dir:
  1. ``python -m codegraph init DIR`` and ``python -m codegraph status -p DIR --json`` exit 0, and
     neither prints "Traceback" (stdout or stderr).
  2. Every file under the tree is accounted for. Each file (``.codegraph/`` aside) is, in this order:
       indexed      listed by ``codegraph files --json``;
       skipped      in the index's skip list (``Reader.skipped``: the paths behind status's
                    ``skipped`` counts; a directory entry ``dist/`` covers the files under it),
                    whose reason status shows: status's counts per reason must equal that list's;
       manifest     a file a language's resolution reads (``go.mod``, ``Cargo.toml``…; those read are
                    in status's metadata ``cgpy_manifests``);
       gitignored   ignored by the tree's ``.gitignore`` files, as ``git check-ignore --no-index``
                    says (git is the oracle, not codegraph's own matcher);
       ignored dir  under a directory name discovery always leaves out (``node_modules``, ``.cache``…;
                    ``codegraph.index.discover.DEFAULT_IGNORED_DIRS`` minus the build-output names,
                    which are recorded as skipped when pruned);
       not source   a name no language claims (``language_for`` and ``unsupported_language`` both
                    None, not a manifest): README, Makefile, .json…;
       secret       an unsupported-language name that is a secret file (dropped without a record).
     Status cannot account for the last four: outside git, discovery leaves them out without a
     record, so status neither counts nor names them; the check works them out from the rules and
     prints how many fell in each. A file in none of these is unaccounted: FAIL. An indexed file
     that git calls ignored is a FAIL too.
  3. The corpus's language (the labels file's ``language``) is among status's ``languages``.
  4. The reference CLI (``../shared/reference/reference-cli.sh``) reads our index: its ``status -j``
     fileCount / nodeCount / edgeCount equal ours and its state is ``complete``; its ``callers NAME
     -f FILE -p DIR -j`` gives the same (caller name, file) set as ours. The symbol is, of the
     ``TARGETS_TRIED`` labelled targets with the most labelled call sites, the one our ``codegraph
     callers --json`` answers with the most callers (two at least), at most ``CALLERS_LIMIT`` sites
     per definition (both tools cut a longer answer short, each its own way: zig-std's ``assert``
     has 2,313). Ours counts ``calls`` and
     ``instantiates`` edges; the reference also walks ``references``, ``imports`` and ``navigates``
     (tests/store/test_reference_interop.py), so its set must equal ours plus the sources of those
     edges into the same definitions. The reference lists no definition as its own caller (a
     recursive ``f``; KeePass's ``Equals(object)``, whose ``Equals(obj as PwUuid)`` we resolve to
     itself), so neither side counts those; an overload calling another is a caller on both sides.
Prints one line per corpus (PASS/FAIL and the figures) and the problems under a FAIL; exits 1 when
any corpus fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpora import CorpusError, corpus_dir

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
LABELS = REPO / "fixtures" / "labels"
REFERENCE = REPO.parent / "shared" / "reference" / "reference-cli.sh"
MEDIUM = (
    "go-x-tools",
    "java-guava",
    "kotlin-rn-android",
    "cs-keepass",
    "c-curl",
    "cpp-abseil",
    "php-laravel",
    "rust-tokio",
    "ruby-activerecord",
    "zig-std",
    "swift-vision-camera",
    "scala-library",
    "dart-thrift",  # no medium Dart corpus exists: the larger of the two small ones
    "django-wheel",
)
SMALL = (
    "go-gin",
    "java-jsoup",
    "kotlin-stripe",
    "cs-jsonnet",
    "c-lua",
    "cpp-leveldb",
    "php-symfony-console",
    "rust-regex",
    "ruby-rack",
    "zig-pydust",
    "swift-capacitor",
    "scala-actors",
    "dart-flet-charts",
)
# the edge kinds the reference's `callers` walks beyond ours (calls, instantiates): see the interop test
REFERENCE_ONLY_KINDS = ("references", "imports", "navigates")
TARGETS_TRIED = 8  # labelled targets asked of our callers; the one with the most callers is compared
CALLERS_LIMIT = 500  # the most `codegraph callers --limit` takes (codegraph/bounds.py)
TIMEOUT_S = 1800


class Tool(Protocol):
    """Our side of the check: build the index of ``root``, then answer status / files / callers as the
    CLI's ``--json`` does. :class:`Cli` runs the real CLI; the test drives the library in-process."""

    root: Path

    def init(self) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) of building the index."""
        ...

    def query(self, *args: str) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) of ``codegraph ARGS -p ROOT --json``."""
        ...


@dataclass
class Cli:
    """The real CLI, ``python -m codegraph`` of this interpreter, as subprocesses."""

    root: Path

    def _run(self, args: list[str]) -> tuple[int, str, str]:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        proc = subprocess.run(
            [sys.executable, "-m", "codegraph", *args],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env=env,
            cwd=self.root,
        )
        return proc.returncode, proc.stdout, proc.stderr

    def init(self) -> tuple[int, str, str]:
        return self._run(["init", str(self.root)])

    def query(self, *args: str) -> tuple[int, str, str]:
        return self._run([*args, "-p", str(self.root), "--json"])


@dataclass
class InProcess:
    """The library in this process, for a test: one index built with ``workers=1``, and the same
    queries the CLI runs, answered as their ``--json`` (``render.to_data``); the CLI around them is
    what :class:`Cli` adds."""

    root: Path

    def init(self) -> tuple[int, str, str]:
        from codegraph.index.indexer import index_project
        from codegraph.paths import ProjectPaths

        index_project(ProjectPaths(self.root.resolve()), workers=1)
        return 0, "", ""

    def query(self, *args: str) -> tuple[int, str, str]:
        from codegraph.errors import SymbolNotFound
        from codegraph.query.files import files
        from codegraph.query.relations import callers
        from codegraph.query.status import status
        from codegraph.render import to_data
        from codegraph.store.reader import Reader

        op, *rest = args
        symbol = rest.pop(0) if rest and not rest[0].startswith("--") else None
        opts = dict(zip(rest[::2], rest[1::2], strict=True))  # the queries above pass "--name value" pairs
        with Reader(self.root) as reader:
            try:
                if op == "status":
                    result = status(reader)
                elif op == "files":
                    result = files(reader, None, limit=int(opts["--limit"]))
                elif op == "callers":
                    limit = int(opts["--limit"])
                    result = callers(reader, symbol or "", file=opts["--file"], limit=limit)
                else:
                    raise ValueError(f"no such query here: {op}")
            except SymbolNotFound as exc:
                return 4, json.dumps({"error": "SymbolNotFound", "message": str(exc)}), ""
            return 0, json.dumps(to_data(result)), ""


@dataclass
class Outcome:
    corpus: str
    problems: list[str] = field(default_factory=list)
    figures: dict[str, object] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def line(self) -> str:
        f = self.figures
        parts = [f"{'PASS' if self.ok else 'FAIL'} {self.corpus:20}"]
        if "tree" in f:
            parts.append(f"tree {f['tree']} files: {f['accounted']}")
        if "counts" in f:
            parts.append(
                f"ours {f['counts']} (files/nodes/edges), reference {f.get('reference_counts', '-')}"
            )
        if "languages" in f:
            parts.append(f"languages {f['languages']}")
        if "callers" in f:
            parts.append(f"callers {f['callers']}")
        if "seconds" in f:
            parts.append(f"{f['seconds']:.1f}s")
        text = parts[0] + " " + "; ".join(parts[1:])
        return text + "".join(f"\n    - {p}" for p in self.problems)


def _ran(code: int, out: str, err: str, what: str, problems: list[str], scan_stdout: bool = True) -> bool:
    """Whether a command exited 0 without a traceback; says what went wrong in ``problems``.
    ``scan_stdout=False``: stdout is JSON that quotes source (a docstring may say "Traceback")."""
    said = (err or out).strip()[-300:]
    if code != 0:
        problems.append(f"{what} exited {code}: {said}")
    if "Traceback" in err or (scan_stdout and "Traceback" in out):
        problems.append(f"{what} printed a traceback: {said}")
    return code == 0


def _json(
    code: int, out: str, err: str, what: str, problems: list[str], scan_stdout: bool = True
) -> dict | None:
    if not _ran(code, out, err, what, problems, scan_stdout):
        return None
    try:
        return json.loads(out)
    except ValueError:
        problems.append(f"{what} printed no JSON: {out[:200]!r}")
        return None


def tree_files(root: Path) -> list[str]:
    """Every file under ``root`` (POSIX paths relative to it; symlinks count as files, directory
    symlinks are not followed), ``.codegraph/`` left out: the index's own directory."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else f"{rel_dir}/"
        if not prefix:
            dirnames[:] = [d for d in dirnames if d != ".codegraph"]
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        dirnames[:] = [d for d in dirnames if d not in links]
        out.extend(prefix + name for name in [*filenames, *links])
    return sorted(out)


def git_ignored(root: Path, paths: list[str]) -> set[str]:
    """The ``paths`` that the ``.gitignore`` files under ``root`` ignore, as git itself says (a scratch
    git directory outside the tree; no global excludes file). Empty when the tree has no .gitignore."""
    if not any(p == ".gitignore" or p.endswith("/.gitignore") for p in paths):
        return set()
    with tempfile.TemporaryDirectory() as scratch:
        gitdir = Path(scratch) / "g"
        subprocess.run(["git", "init", "-q", "--bare", str(gitdir)], check=True)
        proc = subprocess.run(
            ["git", "-c", "core.excludesFile=/dev/null", f"--git-dir={gitdir}", f"--work-tree={root}"]
            + ["check-ignore", "--no-index", "--stdin", "-z"],
            input="\0".join(paths).encode("utf-8", "surrogateescape"),  # names that are not UTF-8 too
            capture_output=True,
            cwd=root,
        )
    if proc.returncode not in (0, 1):  # 1: nothing ignored
        raise RuntimeError(f"git check-ignore failed: {proc.stderr.decode(errors='replace')}")
    return {p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p}


def account(
    root: Path, indexed: set[str], skipped: dict[str, str], manifests: set[str]
) -> tuple[Counter, list[str], list[str]]:
    """Each file under ``root`` put in the first category that holds it (see the module docstring).

    Returns:
        (files per category, unaccounted paths, indexed paths that git calls ignored).
    """
    from codegraph.index.discover import BUILD_OUTPUT_DIRS, DEFAULT_IGNORED_DIRS, printable_path
    from codegraph.index.languages import is_manifest, language_for, unsupported_language
    from codegraph.index.sensitive import is_secret

    always_ignored = DEFAULT_IGNORED_DIRS - BUILD_OUTPUT_DIRS
    skipped_dirs = tuple(p for p in skipped if p.endswith("/"))
    files = tree_files(root)
    ignored = git_ignored(root, files)
    found: Counter = Counter()
    unaccounted: list[str] = []
    for rel in files:
        name = rel.rsplit("/", 1)[-1]
        key = printable_path(rel)  # how the index lists a name that is not UTF-8 (caf\xe9.py)
        if rel in indexed:
            found["indexed"] += 1
        elif key in skipped or key.startswith(skipped_dirs):
            found["skipped"] += 1
        elif is_manifest(name):
            found["manifest"] += 1
        elif rel in ignored:
            found["gitignored"] += 1
        elif not always_ignored.isdisjoint(rel.split("/")[:-1]):
            found["ignored dir"] += 1
        elif language_for(name) is None and unsupported_language(name) is None:
            found["not source"] += 1
        elif language_for(name) is None and is_secret(rel):
            found["secret"] += 1
        else:
            unaccounted.append(rel)
    found["manifests read"] = len(manifests)
    return found, unaccounted, sorted(indexed & ignored)


def labelled_targets(labels: dict) -> list[tuple[str, str]]:
    """(name, file) of each labelled target, the most labelled call sites first (then by name)."""
    sites: Counter = Counter()
    for site in labels["sites"]:
        target = site.get("target")
        if target:
            sites[(target["name"], target["file"])] += 1
    return sorted(sites, key=lambda t: (-sites[t], t))


def reference(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run(["bash", str(REFERENCE), *args], capture_output=True, text=True, timeout=TIMEOUT_S)
    return proc.returncode, proc.stdout, proc.stderr


def _ours_callers(tool: Tool, name: str, file: str, problems: list[str]) -> tuple[set, list[str]] | None:
    """((caller name, file) set, the definitions' ids) of ``codegraph callers NAME --file FILE``,
    leaving out a definition's calls to itself (as the reference does); None when
    there is no such symbol or a definition has more call sites than one answer lists."""
    code, out, err = tool.query("callers", name, "--file", file, "--limit", str(CALLERS_LIMIT))
    if code != 0 and "SymbolNotFound" in out:
        return None
    data = _json(code, out, err, f"codegraph callers {name}", problems, scan_stdout=False)
    if data is None:
        return None
    ids = [group["definition"]["id"] for group in data["groups"]]
    seen = set()
    for group in data["groups"]:
        if group.get("total", 0) > CALLERS_LIMIT:  # cut short on both sides, differently: not comparable
            return None
        seen |= {
            (s["node"]["name"], s["node"]["file_path"])
            for s in group["sites"]
            if s["node"]["id"] != group["definition"]["id"]
        }
    return seen, ids


def check_callers(tool: Tool, labels: dict, outcome: Outcome) -> None:
    """Step 4's callers comparison (see the module docstring): of the ``TARGETS_TRIED`` most labelled
    targets, the one our callers answers with the most callers (two at least)."""
    from codegraph.store.reader import Reader

    best = None
    for name, file in labelled_targets(labels)[:TARGETS_TRIED]:
        got = _ours_callers(tool, name, file, outcome.problems)
        if got is not None and len(got[0]) >= 2 and (best is None or len(got[0]) > len(best[2])):
            best = (name, file, *got)
    if best is None:
        outcome.problems.append("no labelled target has two or more callers in our index: nothing to compare")
        return
    name, file, ours, ids = best
    with Reader(tool.root) as reader:
        rows = reader.relations("target", ids, REFERENCE_ONLY_KINDS)
        nodes = reader.nodes(r.source for r in rows)
    extra = {
        (nodes[r.source].name, nodes[r.source].file_path)
        for r in rows
        if r.source in nodes and r.source != r.target
    }
    code, out, err = reference(
        "callers", name, "-f", file, "-p", str(tool.root), "-j", "-l", str(CALLERS_LIMIT)
    )
    data = _json(code, out, err, f"reference callers {name}", outcome.problems, scan_stdout=False)
    if data is None:
        return
    theirs = {(c["name"], c["filePath"]) for d in data.get("definitions", []) for c in d["callers"]}
    outcome.figures["callers"] = (
        f"{name} ({file}): ours {len(ours)} + {len(extra - ours)} by other kinds, reference {len(theirs)}"
    )
    if theirs != ours | extra:
        outcome.problems.append(
            f"callers {name} ({file}): only the reference: {sorted(theirs - ours - extra)[:5]}; "
            f"only ours: {sorted((ours | extra) - theirs)[:5]}"
        )


def check(corpus: str, tool: Tool, labels: dict) -> Outcome:
    """Steps 1-4 of the module docstring on ``tool.root``, a fresh copy of ``corpus``."""
    from codegraph.store.reader import Reader

    outcome = Outcome(corpus)
    problems = outcome.problems
    started = time.perf_counter()
    code, out, err = tool.init()
    _ran(code, out, err, "codegraph init", problems)
    status = _json(*tool.query("status"), "codegraph status", problems)
    files = _json(*tool.query("files", "--limit", "100000"), "codegraph files", problems)
    if status is None or files is None:
        return outcome
    counts = status["counts"]
    outcome.figures["counts"] = f"{counts['files']}/{counts['nodes']}/{counts['edges']}"
    outcome.figures["languages"] = ",".join(f"{k}:{v}" for k, v in status["languages"].items())
    indexed = {f["path"] for f in files["files"]}
    if len(indexed) != counts["files"] or files["total"] != counts["files"]:
        problems.append(
            f"files lists {len(indexed)} of {files['total']} files, status counts {counts['files']}"
        )
    with Reader(tool.root) as reader:
        skipped = reader.skipped()
    by_reason = Counter(why.split(" (", 1)[0] for why in skipped.values())
    shown = {why: entry["count"] for why, entry in status["skipped"].items()}
    if shown != dict(by_reason):
        problems.append(f"status shows skipped {shown}, the index holds {dict(by_reason)}")
    manifests = set(json.loads(status["metadata"].get("cgpy_manifests") or "{}"))
    found, unaccounted, indexed_ignored = account(tool.root, indexed, skipped, manifests)
    outcome.figures["tree"] = sum(v for k, v in found.items() if k != "manifests read") + len(unaccounted)
    reasons = ", ".join(f"{why} {n}" for why, n in sorted(by_reason.items()))
    outcome.figures["accounted"] = (
        ", ".join(f"{k} {v}" for k, v in found.items() if v and k != "skipped")
        + (f", skipped {found['skipped']} ({reasons})" if found["skipped"] else "")
        + (f", UNACCOUNTED {len(unaccounted)}" if unaccounted else "")
    )
    if unaccounted:
        problems.append(
            f"{len(unaccounted)} files neither indexed nor skipped nor excluded: {unaccounted[:8]}"
        )
    if indexed_ignored:
        problems.append(f"{len(indexed_ignored)} indexed files are .gitignore'd: {indexed_ignored[:8]}")
    if labels["language"] not in status["languages"]:
        problems.append(f"status's languages {sorted(status['languages'])} lack {labels['language']}")

    ref = _json(*reference("status", str(tool.root), "-j"), "reference status", problems)
    if ref is not None:
        theirs = f"{ref['fileCount']}/{ref['nodeCount']}/{ref['edgeCount']}"
        outcome.figures["reference_counts"] = theirs
        if theirs != outcome.figures["counts"]:
            problems.append(f"reference reads {theirs} files/nodes/edges, ours {outcome.figures['counts']}")
        if ref.get("index", {}).get("state") != "complete":
            problems.append(f"reference says the index is {ref.get('index', {}).get('state')!r}")
    check_callers(tool, labels, outcome)
    outcome.figures["seconds"] = time.perf_counter() - started
    return outcome


def copy_corpus(corpus: str, into: Path) -> Path:
    """A fresh copy of ``corpus`` under ``into`` (symlinks kept as symlinks)."""
    dest = into / corpus
    shutil.copytree(corpus_dir(corpus), dest, symlinks=True)
    return dest


def load_labels(corpus: str) -> dict:
    return json.loads((LABELS / f"{corpus}.json").read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("corpora", nargs="*")
    ap.add_argument("--all-medium", action="store_true", help=f"every medium corpus: {' '.join(MEDIUM)}")
    args = ap.parse_args(argv)
    corpora = [*args.corpora, *(MEDIUM if args.all_medium else ())]
    if not corpora:
        ap.error("name a corpus or give --all-medium")
    failed = 0
    for corpus in corpora:
        try:
            labels = load_labels(corpus)
        except FileNotFoundError:
            print(f"FAIL {corpus:20} no labels file fixtures/labels/{corpus}.json")
            failed += 1
            continue
        with tempfile.TemporaryDirectory(prefix="corpus-check-") as tmp:
            try:
                root = copy_corpus(corpus, Path(tmp))
            except CorpusError as exc:
                print(f"FAIL {corpus:20} {exc}")
                failed += 1
                continue
            outcome = check(corpus, Cli(root), labels)
        print(outcome.line(), flush=True)
        failed += not outcome.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
