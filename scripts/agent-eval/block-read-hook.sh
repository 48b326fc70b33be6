#!/usr/bin/env bash
# A/B runs only: a PreToolUse hook that DENIES Read of source files, with no hint where to go instead.
# The product's own hook never denies (issue 5: blocking made agents slower and they routed around it);
# this one exists to measure that. Reads the hook JSON on stdin; fails open on any error.
set -u
payload="$(cat)"
script="$(cat <<'PY'
import json, os, sys
SOURCE = {".py", ".js", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt", ".rb", ".php", ".c", ".h", ".cc",
          ".cpp", ".hpp", ".cs", ".swift", ".scala", ".lua", ".dart", ".zig", ".sh"}
payload = json.loads(sys.argv[1])
path = (payload.get("tool_input") or {}).get("file_path") or ""
if payload.get("tool_name") == "Read" and os.path.splitext(path)[1].lower() in SOURCE:
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "Reading source files is disabled in this run.",
    }}))
PY
)"
python3 -c "$script" "$payload" 2>/dev/null || true
exit 0
