"""File names that would break line-oriented output are quoted as git quotes them (issue 9: a newline in
a name split one answer line in two)."""

from __future__ import annotations

import subprocess
import sys

from codegraph.paths import quote_path
from tests.conftest import git

NAMES = ["evil\nname.py", "tab\there.py", 'q"uote.py', "back\\slash.py", "bell\a.py", "del\x7f.py", "café.py"]


def test_names_are_quoted_exactly_as_git_quotes_them(tmp_path):
    git(tmp_path, "init", "-q")
    for name in NAMES:
        (tmp_path / name).write_text("x = 1\n")
    listed = git(tmp_path, "-c", "core.quotePath=false", "ls-files", "-o").splitlines()
    assert sorted(listed) == sorted(quote_path(n) for n in NAMES)
    assert quote_path("plain/dir/a.py") == "plain/dir/a.py"


def test_a_newline_in_a_file_name_keeps_each_answer_on_its_lines(tmp_path):
    (tmp_path / "evil\nname.py").write_text("def nl_func():\n    pass\n")
    (tmp_path / "ok.py").write_text("def other():\n    pass\n")

    def cg(*args: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(tmp_path)], check=True, capture_output=True
    )
    assert cg("files", "-p", str(tmp_path)).splitlines() == [
        '"evil\\nname.py"  (python, 1 symbol)',
        "ok.py  (python, 1 symbol)",
    ]
    assert cg("search", "nl_func", "-p", str(tmp_path)).splitlines() == [
        'nl_func (function)  "evil\\nname.py":1  ()'
    ]
    assert '### "evil\\nname.py" (whole file)' in cg("explore", "nl_func", "-p", str(tmp_path)).splitlines()
    (tmp_path / "evil\nname.py").write_text("def nl_func():\n    return 1\n")
    assert '  modified: "evil\\nname.py"' in cg("status", "-p", str(tmp_path)).splitlines()


def test_a_newline_in_the_project_root_keeps_status_on_its_lines(tmp_path):
    # adversarial pass 2026-12-01: `status` printed "root: /tmp/nl" and "dir" on two lines.
    root = tmp_path / "nl\ndir"
    root.mkdir()
    (root / "q.py").write_text("def q():\n    pass\n")

    def cg(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=root, timeout=60
        )

    assert cg("init", ".").returncode == 0
    lines = cg("status").stdout.splitlines()
    assert lines[0] == f"root: {quote_path(str(root))}" and lines[1].startswith("index: 1 file,"), lines
