"""The progress display of init/index/sync, through a real pseudo-terminal (issue 14): phases, N/M,
rate and ETA on a terminal, redrawn a few times a second rather than per file; nothing of it in a pipe
or with --json."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codegraph.cli.progress import TerminalProgress

FILES = 1500
# each file's body: enough that parsing spans several 0.2 s frames even on an idle machine (with one
# function a file, 1,500 files parsed in 0.17 s on 2026-12-02 and no frame came before the end)
FILLER = "".join(
    f"\n\ndef g{k}(a, b):\n    c = a * {k} + b\n    return [c, a, b][{k} % 3]\n" for k in range(12)
)


@pytest.fixture
def many(tmp_path) -> Path:
    root = tmp_path / "many"
    (root / "pkg").mkdir(parents=True)
    for i in range(FILES):
        (root / "pkg" / f"m{i:04}.py").write_text(
            f"from pkg.m{(i + 1) % FILES:04} import f{(i + 1) % FILES}\n\n\n"
            f"def f{i}(x):\n    return f{(i + 1) % FILES}(x) + {i}\n" + FILLER
        )
    return root


def run_in_pty(*args: str, cwd: Path) -> tuple[int, str]:
    """Run ``codegraph ARGS`` with stdin, stdout and stderr on a fresh pty; return (exit code, output)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "codegraph", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
        close_fds=True,
    )
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed its side
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    return proc.wait(timeout=30), b"".join(chunks).decode("utf-8", "replace")


def test_a_terminal_shows_phases_counts_rate_and_eta_redrawn_a_few_times_a_second(many):
    started = time.monotonic()
    code, out = run_in_pty("index", str(many), "--max-bytes", "100000", cwd=many)
    elapsed = time.monotonic() - started
    assert code == 0, out
    assert "discovering files" in out and "resolving" in out and "writing" in out
    draws = re.findall(r"parsing\s+\[[#-]*\]\s+(\d+)/(\d+)", out)
    assert draws, out
    assert all(int(total) == FILES for _, total in draws)
    assert re.search(r"\d+/1500  [\d,]+ files/s, ETA \d+s", out), out  # a frame before the end
    assert "\x1b[?25h" in out  # the cursor click hid is shown again
    # the bar is redrawn on a timer (0.2 s), not per file: 1,500 files give far fewer frames
    assert len(draws) <= elapsed / 0.2 + 3, (len(draws), elapsed)
    assert f"indexed: {FILES} files" in out  # the summary line still comes last
    last = out.rstrip().splitlines()[-1]
    assert re.sub(r"\r|\x1b\[[?0-9;]*[A-Za-z]", "", last).startswith("indexed:"), repr(last)


def test_no_progress_with_json_on_a_terminal(many):
    code, out = run_in_pty("init", str(many), "--json", cwd=many)
    assert code == 0, out
    assert "parsing" not in out and "discovering" not in out and "\x1b[K" not in out
    assert f'"files": {FILES}' in out


def test_no_progress_when_stdout_is_not_a_terminal(many):
    proc = subprocess.run(
        [sys.executable, "-m", "codegraph", "init", str(many)], capture_output=True, text=True, timeout=180
    )
    assert proc.returncode == 0, proc.stderr
    assert "parsing" not in proc.stderr and "\r" not in proc.stderr and "\x1b" not in proc.stderr
    assert proc.stderr.startswith(f"indexed: {FILES} files")


def test_progress_redraw_is_throttled_in_process():
    class Tty:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

        def isatty(self):
            return True

    tty = Tty()
    assert TerminalProgress.__module__ == "codegraph.cli.progress"
    shown = TerminalProgress(tty, interval=3600)  # one interval never elapses in this test
    shown.phase("parsing", 1000)
    for done in range(1, 1001):
        shown.progress(done, 1000)
    shown.close()
    frames = re.findall(r"(\d+)/1000", tty.text)
    assert frames[-1] == "1000" and len(frames) <= 3, frames
