#!/usr/bin/env python3
"""Added latency of the prompt hook (``codegraph-hook prompt-submit``) as an agent runs it: spawn, feed the
UserPromptSubmit JSON on stdin, wait for exit. Issue 16's goal on Django with a warm daemon: p50 ≤ 150 ms,
p95 ≤ 400 ms; with a cold daemon it must give nothing within its wait budget rather than block.

Cases, on a project indexed by ``codegraph index`` (``--project``; copy the corpus to /tmp first):
- warm: the project's daemon running and warmed by one call; 20 prompts that name Django symbols
  (each must get an envelope) and 5 that name nothing (each must get nothing);
- cold, no daemon: the same symbol prompts with no daemon running (nothing, at once);
- cold, starting: a daemon spawned just before each call (its handler still loading): nothing or an
  envelope, but never longer than the wait budget.

Usage: prompt_hook_bench.py --project /tmp/django [--hook PATH] [--wait 1.5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOAL_MS = {"p50": 150, "p95": 400}
SYMBOL_PROMPTS = [
    "How does QuerySet.filter build its WHERE clause?",
    "Why does Query.add_q sometimes promote joins?",
    "What calls ModelAdmin.get_queryset?",
    "Where is build_filter defined and what does it return?",
    "Explain how Model.save decides between insert and update",
    "How does the CsrfViewMiddleware check the token?",
    "What does resolve_expression do on F expressions?",
    "Fix the bug in QuerySet.bulk_create when ignore_conflicts is set",
    "How does URLResolver.resolve match nested patterns?",
    "What does the get_or_create method of QuerySet do on IntegrityError?",
    "Where is SessionMiddleware.process_response setting the cookie?",
    "How does Template.render use the Context?",
    "Refactor ManyToManyField.contribute_to_class",
    "How does the Paginator class compute num_pages?",
    "Where does the test Client build a WSGIRequest?",
    "How is select_related turned into joins by the SQLCompiler?",
    "What calls send_mail?",
    "How does the ModelForm metaclass collect fields_for_model?",
    "Explain the Atomic context manager in transaction.py",
    "How does HttpResponseRedirect validate allowed schemes?",
]
PLAIN_PROMPTS = ["hi", "write a poem", "thanks, that's all", "Write a haiku about autumn", "what time is it?"]


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


def run_hook(hook: str, project: Path, prompt: str, env: dict) -> tuple[float, int]:
    """Wall time in ms and the length of additionalContext (0: nothing printed)."""
    payload = json.dumps({"prompt": prompt, "cwd": str(project), "session_id": "bench"})
    start = time.perf_counter()
    proc = subprocess.run([hook, "prompt-submit"], input=payload, capture_output=True, text=True, env=env)
    ms = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"hook exited {proc.returncode}: {proc.stderr[-400:]}")
    out = proc.stdout.strip()
    return ms, len(json.loads(out)["hookSpecificOutput"]["additionalContext"]) if out else 0


def codegraph(hook: str, *args: str) -> None:
    subprocess.run([str(Path(hook).with_name("codegraph")), *args], capture_output=True, timeout=60)


def summary(label: str, rows: list[tuple[float, int]]) -> dict:
    times = [ms for ms, _ in rows]
    return {
        "case": label,
        "n": len(rows),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "max_ms": round(max(times), 1),
        "with_envelope": sum(1 for _, n in rows if n),
        "max_chars": max(n for _, n in rows),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", required=True, type=Path)
    ap.add_argument("--hook", default=str(Path(sys.executable).with_name("codegraph-hook")))
    ap.add_argument("--wait", type=float, default=1.5, help="CODEGRAPH_PROMPT_HOOK_WAIT for the runs")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    project = args.project.resolve()
    if not (project / ".codegraph" / "codegraph.db").is_file():
        print(f"{project} has no index: run `codegraph index {project}` first", file=sys.stderr)
        return 2
    env = {**os.environ, "CODEGRAPH_PROMPT_HOOK_WAIT": str(args.wait)}
    env.pop("CODEGRAPH_NO_PROMPT_HOOK", None)
    results = []

    codegraph(args.hook, "daemon", "start", "--path", str(project))
    run_hook(args.hook, project, SYMBOL_PROMPTS[0], env)  # warm: handler loaded, caches filled
    results.append(
        summary("warm, symbol prompts", [run_hook(args.hook, project, p, env) for p in SYMBOL_PROMPTS])
    )
    results.append(
        summary("warm, plain prompts", [run_hook(args.hook, project, p, env) for p in PLAIN_PROMPTS])
    )

    codegraph(args.hook, "daemon", "stop", "--path", str(project))
    time.sleep(0.5)
    rows = [run_hook(args.hook, project, p, env) for p in SYMBOL_PROMPTS[:5]]
    results.append(summary("cold, no daemon", rows))

    rows = []
    for prompt in SYMBOL_PROMPTS[:5]:
        codegraph(args.hook, "daemon", "stop", "--path", str(project))
        spawn = [
            str(Path(args.hook).with_name("python")),
            "-c",
            "from codegraph.mcp.daemon import main; main()",
        ]
        subprocess.run([*spawn, "--detach", str(project)], capture_output=True, timeout=30)
        time.sleep(0.05)  # listening, handler still importing
        rows.append(run_hook(args.hook, project, prompt, env))
    codegraph(args.hook, "daemon", "stop", "--path", str(project))
    results.append(summary("cold, daemon starting", rows))

    if args.json:
        print(json.dumps({"wait_s": args.wait, "goal_ms": GOAL_MS, "results": results}, indent=2))
    else:
        print(f"prompt hook on {project} (wait budget {args.wait} s; goal warm p50 ≤ 150 ms, p95 ≤ 400 ms)")
        for r in results:
            print(
                f"  {r['case']:<22} n={r['n']:<3} p50 {r['p50_ms']:>7.1f} ms  p95 {r['p95_ms']:>7.1f} ms  "
                f"max {r['max_ms']:>7.1f} ms  envelopes {r['with_envelope']}/{r['n']}  max {r['max_chars']} chars"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
