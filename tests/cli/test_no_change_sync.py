"""A `codegraph sync` that finds nothing changed stays a stat of the tree (issue 12: no-change sync
≤ 5 % of a cold index): it loads no grammar, no extractor, resolver, cache codec or model, and
outside git it spawns no process. Each test runs the real command in a fresh interpreter and reads
the modules it imported, so an import added to that path fails here instead of slowing every sync.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import copy_fixture, git

# The command as the console script runs it, in-process, writing the imported modules' names to the
# file named by the first argument when the interpreter exits (click ends the command with sys.exit).
_RUN_AND_LIST_MODULES = (
    "import atexit, json, sys\n"
    "out = sys.argv.pop(1)\n"
    "atexit.register(lambda: open(out, 'w').write(json.dumps(sorted(sys.modules))))\n"
    "sys.argv[0] = 'codegraph'\n"
    "from codegraph.cli.entry import main\n"
    "main()\n"
)
# what only parsing, resolving or writing needs
_NOT_ON_THE_NO_CHANGE_PATH = (
    "tree_sitter",
    "tree_sitter_language_pack",
    "codegraph.index.extract",
    "codegraph.index.resolve",
    "codegraph.index.cache",
    "codegraph.index.source",
    "codegraph.model",
    "codegraph.store.reader",
    "hashlib",
    "tempfile",
)


def _sync_modules(root: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess, set[str]]:
    listing = tmp_path / "modules.json"
    proc = subprocess.run(
        [sys.executable, "-c", _RUN_AND_LIST_MODULES, str(listing), "sync", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc, set(json.loads(listing.read_text()))


def _init(root: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(root)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr


def test_a_no_change_sync_outside_git_loads_no_parser_and_spawns_nothing(tmp_path):
    root = copy_fixture("python", tmp_path)
    _init(root)
    proc, modules = _sync_modules(root, tmp_path)
    assert json.loads(proc.stdout)["changed"] is False
    assert sorted(m for m in _NOT_ON_THE_NO_CHANGE_PATH if m in modules) == []
    assert "subprocess" not in modules  # nothing to ask git, nothing to start
    assert not [m for m in modules if m.startswith("codegraph.index.languages.") and m[26:] != "base"]


def test_a_no_change_sync_in_a_checkout_loads_no_parser(tmp_path):
    root = copy_fixture("python", tmp_path)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "fixture")
    _init(root)
    proc, modules = _sync_modules(root, tmp_path)
    assert json.loads(proc.stdout)["changed"] is False
    assert sorted(m for m in _NOT_ON_THE_NO_CHANGE_PATH if m in modules) == []


def test_the_sync_after_an_edit_still_parses_and_resolves_it(tmp_path):
    root = copy_fixture("python", tmp_path)
    _init(root)
    target = next(p for p in sorted(root.rglob("*.py")) if p.stat().st_size > 0)
    target.write_text(target.read_text() + "\n\ndef added_after_the_index():\n    return 1\n")
    proc, modules = _sync_modules(root, tmp_path)
    summary = json.loads(proc.stdout)
    assert summary["changed"] is True and summary["parsed"] == 1
    assert {"codegraph.index.extract", "codegraph.index.resolve", "codegraph.model"} <= modules
    search = subprocess.run(
        [sys.executable, "-m", "codegraph", "search", "added_after_the_index", "--path", str(root), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "added_after_the_index" in search.stdout, search.stderr
