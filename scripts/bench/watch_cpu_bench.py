#!/usr/bin/env python3
"""What the watching daemon costs while the tree is only read.

Usage: python scripts/bench/watch_cpu_bench.py [--corpus DIR] [--runs N]

Copies the corpus (default ``~/.cache/codegraph-corpora/django-sdist``) into a temp dir, makes it a git
repository, indexes it and starts its daemon (watching, as in an agent session). Then, for ``grep -r``,
``find`` and ``git status`` over the tree, reads the daemon's CPU time (utime + stime of all its threads,
``/proc/PID/stat``) before the command and one second after it ends, and prints it as a percentage of
the command's own CPU time (from ``wait4``). Goal (issue 9): ≤ 5 %. Before watchdog's ``event_filter``
the daemon spent about as much CPU as a ``grep -r`` itself (0.68 s for a 0.67 s grep).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_CORPUS = Path.home() / ".cache" / "codegraph-corpora" / "django-sdist"
CODEGRAPH = [sys.executable, "-m", "codegraph"]
TICK = os.sysconf("SC_CLK_TCK")
SETTLE = 1.0  # seconds after a command for delivered events (and any debounce wake-up) to be handled


def cpu_seconds(pid: int) -> float:
    """utime + stime of a whole process (all threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def run_measured(cmd: list[str], cwd: Path) -> float:
    """Run ``cmd`` and return its own CPU seconds (user + system, children included by wait4)."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def wait_quiet(pid: int, quiet: float = 2.0, timeout: float = 300.0) -> None:
    """Wait until the daemon used no CPU for ``quiet`` seconds (its start-up catch-up is done)."""
    deadline = time.monotonic() + timeout
    last, since = cpu_seconds(pid), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = cpu_seconds(pid)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"corpus not found: {args.corpus} (build it with ../shared/corpora/build.sh django-sdist)")
    with tempfile.TemporaryDirectory(prefix="cg-watchcpu-") as tmp:
        root = Path(tmp) / "corpus"
        shutil.copytree(args.corpus, root, ignore=shutil.ignore_patterns(".codegraph"))
        env = {**os.environ, "CODEGRAPH_RUNTIME_DIR": str(Path(tmp) / "run")}
        env.pop("CODEGRAPH_NO_WATCH", None)
        git = ["git", "-c", "user.email=b@example.com", "-c", "user.name=b", "-C", str(root)]
        for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "corpus"]):
            subprocess.run(git + step, check=True, capture_output=True)
        subprocess.run(CODEGRAPH + ["init", str(root)], check=True, capture_output=True, env=env)
        started = subprocess.run(
            CODEGRAPH + ["daemon", "start", "--json", "--path", str(root)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        pid = int(json.loads(started.stdout)[0]["pid"])
        try:
            wait_quiet(pid)
            commands = {
                "grep -r": ["grep", "-r", "-c", "def ", "."],
                "find": ["find", ".", "-type", "f", "-newer", "setup.cfg"],
                "git status": ["git", "status", "--porcelain"],
            }
            files = sum(1 for _ in root.rglob("*") if _.is_file())
            print(f"corpus {args.corpus.name}: {files} files; daemon pid {pid}; median of {args.runs} runs")
            for label, cmd in commands.items():
                own, daemon = [], []
                for _ in range(args.runs):
                    before = cpu_seconds(pid)
                    own.append(run_measured(cmd, root))
                    time.sleep(SETTLE)
                    daemon.append(cpu_seconds(pid) - before)
                o, d = statistics.median(own), statistics.median(daemon)
                share = d / o if o else 0.0
                print(
                    f"  {label:<11} command CPU {o:6.3f} s   daemon CPU {d:6.3f} s   = {share:6.1%} (goal ≤ 5 %)"
                )
            idle = cpu_seconds(pid)
            time.sleep(SETTLE)
            print(f"  idle daemon over {SETTLE:.0f} s: {cpu_seconds(pid) - idle:.3f} s CPU")
        finally:
            subprocess.run(
                CODEGRAPH + ["daemon", "stop", "--path", str(root)], capture_output=True, env=env, timeout=60
            )


if __name__ == "__main__":
    main()
