"""`status` and `doctor` say the same of files whose mtime changed but whose content did not (a new
user's report, 2026-12-01: after `touch *.go` status said "fresh", doctor "20 changed since")."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import copy_fixture


def cg(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "", "CODEX_HOME": ""}
    return subprocess.run(
        [sys.executable, "-m", "codegraph", *args], capture_output=True, text=True, env=env, timeout=120
    )


def _index_line(doctor_output: str) -> str:
    return next(
        line
        for line in doctor_output.splitlines()
        if line.strip().startswith(("ok", "--", "!!")) and "index:" in line
    )


def test_touched_files_are_fresh_in_status_and_doctor_and_an_edit_is_changed_in_both(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    root = copy_fixture("go", tmp_path)
    assert cg("init", str(root), home=home).returncode == 0
    later = time.time() + 30
    go_files = sorted(root.rglob("*.go"))
    for path in go_files:  # what `touch` does: a new mtime, the same bytes
        os.utime(path, (later, later))
    note = f"({len(go_files)} files touched: new mtime, same content)"
    status = cg("status", "-p", str(root), home=home).stdout
    assert f"fresh: no source file changed since the last index {note}" in status
    doctor = _index_line(cg("doctor", "--no-connect", "--path", str(root), home=home).stdout)
    assert doctor.strip().startswith("ok") and doctor.endswith(f", fresh {note}"), doctor
    (root / "main.go").write_text((root / "main.go").read_text() + "// edited\n")
    status = cg("status", "-p", str(root), home=home).stdout
    assert "stale: 0 added, 1 modified, 0 deleted" in status and "  modified: main.go" in status
    doctor = _index_line(cg("doctor", "--no-connect", "--path", str(root), home=home).stdout)
    assert doctor.endswith("1 changed since: main.go"), doctor
