"""Run a command and measure wall seconds and the peak RSS of its whole process tree (Linux /proc)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path


def _tree_rss_kb(pid: int) -> int:
    total, stack, seen = 0, [pid], set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
                    break
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                stack.extend(int(c) for c in children)
        except (OSError, ValueError):
            continue
    return total


def timed_env(env: dict | None = None) -> dict:
    """``env`` (default: this process's) without ``PYTHONDONTWRITEBYTECODE``: an installed copy runs
    from bytecode, and with it set every timed run re-compiled the modules changed since the last
    bytecode was written (FACTS.md: it is set on this machine; 0.1-0.2 s of a 0.4 s sync, issue 12)."""
    out = dict(os.environ if env is None else env)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


class CapExceeded(RuntimeError):
    """The process tree's RSS passed ``cap_mb``: it was killed. ``output`` is what it printed till then."""

    def __init__(self, cap_mb: float, wall: float, output: str) -> None:
        super().__init__(f"killed at {wall:.1f} s: the process tree passed {cap_mb:.0f} MB")
        self.cap_mb, self.wall, self.output = cap_mb, wall, output


def measure(
    cmd: list[str], *, cwd: str | None = None, env: dict | None = None, cap_mb: float | None = None
) -> tuple[float, float, str]:
    """Returns (wall seconds, peak tree RSS in MB, combined output), run with :func:`timed_env`.
    Raises on a non-zero exit; with ``cap_mb``, :class:`CapExceeded` once the tree's RSS passes it (the
    whole process group is killed: a bad run dies early instead of taking the shared machine's memory)."""
    env = timed_env(env)
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True
    )
    peak = 0
    capped = False
    done = threading.Event()

    def poll() -> None:
        nonlocal peak, capped
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            if cap_mb is not None and peak > cap_mb * 1024 and not capped:
                capped = True
                os.killpg(proc.pid, signal.SIGKILL)
            time.sleep(0.01)

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    t.join()
    text = out.decode(errors="replace")
    if capped:
        raise CapExceeded(cap_mb, wall, text)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd} exited {proc.returncode}: {text[-2000:]}")
    return wall, peak / 1024, text
