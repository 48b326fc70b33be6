"""Counts printed with their noun agree in number (a new user's report, 2026-12-01: `init` printed
"2 secret file"; `status` said "1 files", "python 1 files")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def cg(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_init_and_status_say_1_file_and_2_files_with_the_skip_reason_beside_them(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    (tmp_path / ".ssh").mkdir()  # every file under .ssh is a secret (sensitive.SECRET_DIRS)
    (tmp_path / ".ssh" / "one.py").write_text("x = 1\n")
    (tmp_path / ".ssh" / "two.py").write_text("x = 2\n")
    init = cg("init", str(tmp_path))
    assert init.returncode == 0, init.stderr
    assert init.stderr.startswith("indexed: 1 file (1 parsed, 0 unchanged, 0 removed), ")
    assert "; skipped: 2 files (secret file); " in init.stderr
    status = cg("status", "-p", str(tmp_path)).stdout
    assert "index: 1 file, " in status and "languages: python 1 file\n" in status
    assert "skipped: 2 files (secret file), e.g. .ssh/one.py" in status
    files = cg("files", "-p", str(tmp_path)).stdout
    assert "a.py  (python, 1 symbol)" in files
