"""``codegraph-hook session-start|pre-tool-use``: read the agent's JSON on stdin, print at most one
JSON object, exit 0. Any error → no output, exit 0 (fail open): a hook must never cost the agent a
tool call."""

from __future__ import annotations

import json
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        payload = json.loads(sys.stdin.read() or "{}")
        if not isinstance(payload, dict) or not args:
            return 0
        if args[0] == "session-start":
            from codegraph_hooks.session_start import run
        elif args[0] == "pre-tool-use":
            from codegraph_hooks.pre_tool_use import run
        else:
            return 0
        response = run(payload)
        if response is not None:
            sys.stdout.write(json.dumps(response) + "\n")
            sys.stdout.flush()
    except Exception:  # fail open, whatever happened
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
