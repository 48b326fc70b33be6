"""One repository holding every registered language's fixture repo side by side (issue 13's "done
when"): the real CLI indexes it, and ``codegraph status`` lists every language, with each file counted
under its own language."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from codegraph.index.languages import all_languages, language_for

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "repos"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_status_of_a_repository_mixing_every_language_lists_each_of_them(tmp_path):
    root = tmp_path / "polyglot"
    labels = sorted(lang.label for lang in all_languages())
    for label in labels:
        shutil.copytree(FIXTURES / label, root / label)
    expected = Counter(
        hit[0]
        for p in root.rglob("*")
        if p.is_file() and (hit := language_for(p.relative_to(root).as_posix())) is not None
    )
    assert set(expected) == set(labels), "every language's fixture holds a file of that language"

    init = _cli("init", ".", "--json", cwd=root)
    assert init.returncode == 0, init.stderr
    status = _cli("status", "--json", cwd=root)
    assert status.returncode == 0, status.stderr
    report = json.loads(status.stdout)
    languages = report["languages"]
    assert set(languages) == set(labels)
    # every file of a language is indexed or skipped with a reason (a PHP template with no <?php); the
    # count per language may move between C and C++, whose headers are told apart by their content
    skipped = sum(r["count"] for r in report["skipped"].values())
    assert sum(languages.values()) + skipped == sum(expected.values())
    assert report["added"] == [] and report["modified"] == []

    text = _cli("status", cwd=root).stdout
    assert all(label in text for label in labels)
