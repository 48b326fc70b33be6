"""The tree passes `ruff check`, `ruff format --check` and mypy (configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> str:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it comes with the test extra: pip install -e '.[test]')")
    return ruff


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=["check", "format"])
def test_ruff_passes_on_the_whole_tree(command):
    proc = subprocess.run(
        [_ruff(), *command, "--output-format", "concise", str(ROOT)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_passes_on_the_package_the_installer_and_the_hooks():
    """The type checker over codegraph/, installer/ and hooks/ (files and options: pyproject.toml's
    [tool.mypy])."""
    mypy = shutil.which("mypy") or str(Path(sys.executable).with_name("mypy"))
    if not Path(mypy).exists():
        pytest.skip("mypy is not installed (it comes with the test extra: pip install -e '.[test]')")
    proc = subprocess.run(
        [mypy, "--no-error-summary", "--hide-error-context"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    errors = [line for line in proc.stdout.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and errors == [], proc.stdout[-4000:] + proc.stderr[-2000:]
