"""scripts/bench/corpus_check.py on the small corpus of each language (issue 10, "Proven on real code"):
the index accounts for every file of the tree, shows the corpus's language, and the reference CLI reads
it with our counts and callers. Our side runs in-process (one index per corpus, ``workers=1``); the
real CLI path is run once, on the smallest corpus. Each check is shown to fail when what it checks is
broken."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import load_script

check = load_script("bench/corpus_check.py")
pytestmark = pytest.mark.needs_shared


@pytest.fixture(scope="module")
def reference_ready():
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: cannot install the reference CLI")
    probe = subprocess.run(
        ["bash", str(check.REFERENCE), "--version"], capture_output=True, text=True, timeout=600
    )
    if probe.returncode == 3:
        pytest.skip(f"npm could not install @colbymchenry/codegraph: {probe.stderr.strip()}")
    assert probe.returncode == 0, probe.stderr


def _copy(corpus: str, tmp_path: Path) -> Path:
    try:
        return check.copy_corpus(corpus, tmp_path)
    except check.CorpusError as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("corpus", check.SMALL)
def test_small_corpus_is_indexed_whole_and_read_by_the_reference_cli(corpus, tmp_path, reference_ready):
    outcome = check.check(corpus, check.InProcess(_copy(corpus, tmp_path)), check.load_labels(corpus))
    assert outcome.ok, outcome.line()
    assert outcome.figures["reference_counts"] == outcome.figures["counts"]
    assert "callers" in outcome.figures


def test_real_cli_path_passes_on_the_smallest_corpus(tmp_path, reference_ready):
    corpus = "dart-flet-charts"
    outcome = check.check(corpus, check.Cli(_copy(corpus, tmp_path)), check.load_labels(corpus))
    assert outcome.ok, outcome.line()


@dataclass
class Broken:
    """The in-process tool with one thing broken after indexing."""

    root: Path
    status_edit: object = None  # (status dict) -> None
    callers_drop: bool = False
    after_init: object = None  # (root) -> None

    def init(self):
        out = check.InProcess(self.root).init()
        if self.after_init:
            self.after_init(self.root)
        return out

    def query(self, *args):
        code, out, err = check.InProcess(self.root).query(*args)
        data = json.loads(out)
        if args[0] == "status" and self.status_edit:
            self.status_edit(data)
        if args[0] == "callers" and self.callers_drop and code == 0:
            for group in data["groups"]:
                group["sites"] = group["sites"][1:]
        return code, json.dumps(data), err


CORPUS = "dart-flet-charts"  # the smallest: 16 files


def _broken(tmp_path: Path, **kwargs):
    tool = Broken(_copy(CORPUS, tmp_path), **kwargs)
    return check.check(CORPUS, tool, check.load_labels(CORPUS))


def test_a_file_neither_indexed_nor_skipped_fails_the_check(tmp_path, reference_ready):
    # a Dart file written after the index was built: the index neither holds nor skips it
    outcome = _broken(tmp_path, after_init=lambda root: (root / "late.dart").write_text("void f() {}\n"))
    assert not outcome.ok
    assert any("neither indexed nor skipped" in p and "late.dart" in p for p in outcome.problems)


def test_counts_the_reference_does_not_read_fail_the_check(tmp_path, reference_ready):
    def one_more_node(status):
        status["counts"]["nodes"] += 1

    outcome = _broken(tmp_path, status_edit=one_more_node)
    assert any(p.startswith("reference reads") for p in outcome.problems), outcome.problems


def test_a_language_missing_from_status_fails_the_check(tmp_path, reference_ready):
    outcome = _broken(tmp_path, status_edit=lambda status: status["languages"].pop("dart"))
    assert any("lack dart" in p for p in outcome.problems), outcome.problems


def test_skip_reasons_status_does_not_show_fail_the_check(tmp_path, reference_ready):
    def hide(status):
        status["skipped"] = {}

    root = _copy(CORPUS, tmp_path)
    (root / "big.dart").write_text("// " + "x" * 1_100_000 + "\n")  # over the 1 MB limit: skipped
    outcome = check.check(CORPUS, Broken(root, status_edit=hide), check.load_labels(CORPUS))
    assert any(p.startswith("status shows skipped {}") for p in outcome.problems), outcome.problems


def test_a_caller_the_reference_sees_and_we_do_not_fails_the_check(tmp_path, reference_ready):
    outcome = _broken(tmp_path, callers_drop=True)
    assert any(p.startswith("callers ") and "only the reference" in p for p in outcome.problems), (
        outcome.problems
    )


def test_a_definition_calling_itself_is_no_caller_on_either_side(tmp_path, reference_ready):
    """The reference lists no definition as its own caller (a recursive ``f``; KeePass's
    ``Equals(object)``, whose ``Equals(obj as PwUuid)`` we resolve to itself): ours, read the same.
    kotlin-stripe's ``createError`` overloads calling each other stay callers (the small-corpus test)."""
    root = tmp_path / "rec"
    root.mkdir()
    (root / "a.py").write_text(
        "def f(n):\n    return f(n - 1)\n\n\ndef g():\n    return f(1)\n\n\ndef h():\n    f(2)\n"
    )
    site = {"file": "a.py", "callee": "f", "target": {"file": "a.py", "name": "f", "qualified_name": "f"}}
    labels = {"language": "python", "sites": [{**site, "line": 6}, {**site, "line": 10}]}
    outcome = check.check("rec", check.InProcess(root), labels)
    assert outcome.ok, outcome.line()
    assert outcome.figures["callers"] == "f (a.py): ours 2 + 0 by other kinds, reference 2"


def test_a_file_name_that_is_not_utf8_is_accounted_for_beside_a_gitignore(tmp_path):
    # git_ignored encoded the tree's names as strict UTF-8 (UnicodeEncodeError on caf\xe9.py), and the
    # index lists such a name skipped under its printable key (caf\\xe9.py), which account did not match
    import os

    from codegraph.index.discover import UNDECODABLE_NAME

    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / "a.log").write_text("x\n")
    (tmp_path / "ok.py").write_text("def f():\n    return 1\n")
    with open(os.path.join(os.fsencode(tmp_path), b"caf\xe9.py"), "wb") as fh:
        fh.write(b"def g():\n    return 2\n")
    assert check.git_ignored(tmp_path, check.tree_files(tmp_path)) == {"a.log"}
    found, unaccounted, _ = check.account(tmp_path, {"ok.py"}, {"caf\\xe9.py": UNDECODABLE_NAME}, set())
    assert unaccounted == []
    assert (found["indexed"], found["skipped"], found["gitignored"]) == (1, 1, 1)
