"""Run a command and measure wall seconds and the peak RSS of its whole process tree (Linux /proc)."""

from __future__ import annotations

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


def measure(cmd: list[str], *, cwd: str | None = None, env: dict | None = None) -> tuple[float, float, str]:
    """Returns (wall seconds, peak tree RSS in MB, combined output). Raises on a non-zero exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    peak = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            time.sleep(0.01)

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    t.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd} exited {proc.returncode}: {out.decode(errors='replace')[-2000:]}")
    return wall, peak / 1024, out.decode(errors="replace")
