#!/usr/bin/env bash
# A/B runs only: a PreToolUse hook that DENIES Read of source files and redirects the agent to
# codegraph_explore with the file's path. Compare with block-read-hook.sh (deny, no hint) and with the
# product's advisory hook (`codegraph-hook pre-tool-use`, never denies). Fails open on any error.
set -u
payload="$(cat)"
script="$(cat <<'PY'
import json, os, sys
SOURCE = {".py", ".js", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt", ".rb", ".php", ".c", ".h", ".cc",
          ".cpp", ".hpp", ".cs", ".swift", ".scala", ".lua", ".dart", ".zig", ".sh"}
payload = json.loads(sys.argv[1])
path = (payload.get("tool_input") or {}).get("file_path") or ""
if payload.get("tool_name") == "Read" and os.path.splitext(path)[1].lower() in SOURCE:
    rel = os.path.relpath(path, payload.get("cwd") or os.getcwd())
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": (
            f"Use the codegraph_explore tool instead of reading {rel}: ask it about the symbols you need "
            f"in {rel}; it returns their source with exact lines."
        ),
    }}))
PY
)"
python3 -c "$script" "$payload" 2>/dev/null || true
exit 0
