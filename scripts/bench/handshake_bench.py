#!/usr/bin/env python3
"""Spawn → tools/list latency of ``codegraph serve --mcp``, cold and warm, beside the reference CLI.

Usage: handshake_bench.py [PROJECT] [--runs 20] [--no-reference] [--codegraph PATH]

Each run spawns the server, sends ``initialize``, ``notifications/initialized`` and ``tools/list`` the
way an agent does, and times spawn → initialize answer and spawn → tools/list answer; then one
``tools/call`` (``codegraph_explore``) is timed from send to answer. "cold" stops the project's daemon
before every run (so the spawned proxy starts one); "warm" leaves it up. The reference CLI
(``/work/shared/reference/reference-cli.sh serve --mcp``) runs the same way on its own copy of the
project, indexed by itself. PROJECT defaults to a small generated Python package. Prints p50/p95 in
milliseconds (issue 4 goal: p50 ≤ 60 ms spawn → tools/list).
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REFERENCE = Path("/work/shared/reference/reference-cli.sh")
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}
QUESTION = "how does the greeter format a name"


def _send(proc: subprocess.Popen, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def _await(proc: subprocess.Popen, buf: bytearray, msg_id: int, timeout: float) -> dict | None:
    """Read stdout until the response with ``msg_id`` arrives (other lines skipped)."""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.perf_counter() + timeout
    try:
        while True:
            while b"\n" in buf:
                line, _, rest = bytes(buf).partition(b"\n")
                buf[:] = rest
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") == msg_id:
                    return message
            left = deadline - time.perf_counter()
            if left <= 0 or not sel.select(left):
                return None
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            buf += chunk
    finally:
        sel.close()


def one_run(command: list[str], cwd: Path, env: dict, call_tool: str | None) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    buf = bytearray()
    out: dict = {}
    try:
        _send(proc, INIT)
        if _await(proc, buf, 1, 30) is None:
            return out
        out["initialize"] = time.perf_counter() - t0
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        listed = _await(proc, buf, 2, 30)
        if listed is None:
            return out
        out["tools/list"] = time.perf_counter() - t0
        if call_tool:
            t1 = time.perf_counter()
            _send(
                proc,
                {
                    "jsonrpc": "2.0",
                    "id": 3,
                    "method": "tools/call",
                    "params": {"name": call_tool, "arguments": {"query": QUESTION}},
                },
            )
            if _await(proc, buf, 3, 60) is not None:
                out["tools/call"] = time.perf_counter() - t1
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    return out


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def _stop_our_daemon(codegraph: str, project: Path, env: dict) -> None:
    subprocess.run([codegraph, "daemon", "stop", str(project)], env=env, capture_output=True, timeout=30)


def _stop_reference_daemon(project: Path) -> None:
    pid_file = project / ".codegraph" / "daemon.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.03)


def series(label, runs, command, cwd, env, call_tool, before=None) -> tuple[str, dict[str, list[float]]]:
    got: dict[str, list[float]] = {"initialize": [], "tools/list": [], "tools/call": []}
    for _ in range(runs):
        if before:
            before()
        result = one_run(command, cwd, env, call_tool)
        for key, value in result.items():
            got[key].append(value * 1000)
    return label, got


def make_project(where: Path) -> Path:
    pkg = where / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "greeter.py").write_text(
        'class Greeter:\n    """Says hello."""\n\n    def greet(self, name):\n        return fmt(name)\n\n\n'
        'def fmt(n):\n    return "hi " + n\n'
    )
    (pkg / "main.py").write_text(
        "from pkg.greeter import Greeter\n\n\ndef main():\n    return Greeter().greet('x')\n"
    )
    subprocess.run(["git", "init", "-q"], cwd=where, check=True)
    return where


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("project", nargs="?", help="project to serve (default: a small generated package)")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--no-reference", action="store_true")
    here = str(Path(sys.executable).parent / "codegraph")
    ap.add_argument("--codegraph", default=shutil.which("codegraph") or here)
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="cg-handshake-"))
    ours = work / "ours"
    if args.project:
        shutil.copytree(args.project, ours, symlinks=True, ignore=shutil.ignore_patterns(".codegraph"))
    else:
        make_project(ours)
    env = dict(os.environ)
    env.setdefault("CODEGRAPH_RUNTIME_DIR", str(work / "run"))
    init = subprocess.run([args.codegraph, "init", str(ours)], env=env, capture_output=True, text=True)
    if init.returncode != 0:
        print(f"codegraph init failed ({init.returncode}): {init.stderr.strip()[-300:]}", file=sys.stderr)
    cmd = [args.codegraph, "serve", "--mcp"]
    rows = []
    try:
        rows.append(
            series(
                "codegraph cold",
                args.runs,
                cmd,
                ours,
                env,
                "codegraph_explore",
                before=lambda: _stop_our_daemon(args.codegraph, ours, env),
            )
        )
        one_run(cmd, ours, env, "codegraph_explore")  # leaves the daemon up
        rows.append(series("codegraph warm", args.runs, cmd, ours, env, "codegraph_explore"))
        no_daemon = dict(env, CODEGRAPH_NO_DAEMON="1")
        rows.append(series("codegraph in-process", args.runs, cmd, ours, no_daemon, "codegraph_explore"))
    finally:
        _stop_our_daemon(args.codegraph, ours, env)

    if not args.no_reference and REFERENCE.exists():
        theirs = work / "reference"
        shutil.copytree(ours, theirs, symlinks=True, ignore=shutil.ignore_patterns(".codegraph"))
        ref_init = subprocess.run([str(REFERENCE), "init", str(theirs)], capture_output=True, text=True)
        if ref_init.returncode != 0:
            print(f"reference init failed: {ref_init.stderr.strip()[-300:]}", file=sys.stderr)
        else:
            ref_cmd = [str(REFERENCE), "serve", "--mcp"]
            try:
                rows.append(
                    series(
                        "reference cold",
                        args.runs,
                        ref_cmd,
                        theirs,
                        dict(os.environ),
                        "codegraph_explore",
                        before=lambda: _stop_reference_daemon(theirs),
                    )
                )
                one_run(ref_cmd, theirs, dict(os.environ), "codegraph_explore")
                rows.append(
                    series(
                        "reference warm", args.runs, ref_cmd, theirs, dict(os.environ), "codegraph_explore"
                    )
                )
            finally:
                _stop_reference_daemon(theirs)

    print(f"spawn → answer in ms, {args.runs} runs each, p50 / p95; tools/call: first call, send → answer")
    print(f"{'':22} {'initialize':>17} {'tools/list':>17} {'tools/call':>17}")
    for label, got in rows:
        cells = []
        for key in ("initialize", "tools/list", "tools/call"):
            vals = got[key]
            cells.append(f"{_pct(vals, 50):7.1f} / {_pct(vals, 95):7.1f}" if vals else f"{'—':>17}")
        missing = args.runs - len(got["tools/list"])
        note = f"  ({missing} runs got no tools/list)" if missing else ""
        print(f"{label:22} " + " ".join(f"{c:>17}" for c in cells) + note)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
