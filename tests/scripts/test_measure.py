"""The benchmarks' timed runs (scripts/bench/_measure.py)."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"
sys.path.insert(0, str(BENCH))

from _measure import measure  # noqa: E402


def test_a_timed_run_writes_and_uses_bytecode_though_this_machine_turns_it_off(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    probe = "import os, sys; print(os.environ.get('PYTHONDONTWRITEBYTECODE'), sys.dont_write_bytecode)"
    _, _, out = measure([sys.executable, "-c", probe])
    assert out.split() == ["None", "False"]
    _, _, out = measure(
        [sys.executable, "-c", probe], env={"PATH": "/usr/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    )
    assert out.split() == ["None", "False"]
