"""``codegraph-hook session-start|pre-tool-use|prompt-submit``: read the agent's JSON on stdin, print at most one
JSON object, exit 0. Any error → no output, exit 0 (fail open): a hook must never cost the agent a
tool call."""

from __future__ import annotations

import json
import sys

# An agent's hook payload is a few KiB (a tool name, its input, a session id, paths). Reading stdin
# without a bound made `codegraph-hook pre-tool-use < /dev/zero` spin until killed.
MAX_PAYLOAD = 4 * 1024 * 1024


def read_payload(stream=None) -> object:
    """The JSON on ``stream`` (default stdin; ``{}`` when empty). Reads at most ``MAX_PAYLOAD`` bytes.

    Raises:
        ValueError: more than ``MAX_PAYLOAD`` bytes, not UTF-8, or not JSON (the caller fails open).
    """
    stream = sys.stdin if stream is None else stream
    source = getattr(stream, "buffer", stream)
    data = source.read(MAX_PAYLOAD + 1)
    if len(data) > MAX_PAYLOAD:
        raise ValueError(f"hook payload over {MAX_PAYLOAD} bytes")
    return json.loads(data or "{}")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        payload = read_payload()
        if not isinstance(payload, dict) or not args:
            return 0
        if args[0] == "session-start":
            from codegraph_hooks.session_start import run
        elif args[0] == "pre-tool-use":
            from codegraph_hooks.pre_tool_use import run
        elif args[0] == "prompt-submit":
            from codegraph_hooks.prompt_submit import run
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
