#!/usr/bin/env bash
# A/B/C: the prompt hook (issue 16). Three arms on fresh copies of an indexed repo, all with codegraph from
# this checkout and a prewarmed daemon, interleaved:
#   nohook   codegraph MCP only
#   prompt   + the UserPromptSubmit hook (`codegraph-hook prompt-submit`: explore's envelope with the prompt)
#   advisory + the prompt hook and the PreToolUse Read advisory (`codegraph-hook pre-tool-use`)
#
# Usage: ab_prompt_hook.sh <indexed-repo> "<task>"
#        ab_prompt_hook.sh --settings ARM      print the --settings JSON an arm runs with, and exit
# Env:   RUNS (per arm, default 2, minimum 2)   CLAUDE (claude binary, default: claude on PATH)
#        OUT (results folder, default: ./ab-results/prompt-<timestamp>)
# Needs a real ANTHROPIC_API_KEY (or a logged-in claude). Compare wall-clock (duration), tool calls and
# Reads in the parse_run.py summaries it prints.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
bin="$repo_root/.venv/bin/codegraph"
hook="$repo_root/.venv/bin/codegraph-hook"

settings_for() {  # arm → the settings JSON (the same hook shape `codegraph install claude` writes)
  local prompt advisory
  prompt="{\"hooks\": [{\"type\": \"command\", \"command\": \"$hook prompt-submit\", \"timeout\": 5}]}"
  advisory="{\"matcher\": \"Read|Grep\", \"hooks\": [{\"type\": \"command\", \"command\": \"$hook pre-tool-use\", \"timeout\": 5}]}"
  case "$1" in
    nohook)   echo '{"permissions": {"allow": ["mcp__codegraph__*"]}}' ;;
    prompt)   echo "{\"permissions\": {\"allow\": [\"mcp__codegraph__*\"]}, \"hooks\": {\"UserPromptSubmit\": [$prompt]}}" ;;
    advisory) echo "{\"permissions\": {\"allow\": [\"mcp__codegraph__*\"]}, \"hooks\": {\"UserPromptSubmit\": [$prompt], \"PreToolUse\": [$advisory]}}" ;;
    *) echo "unknown arm $1 (nohook, prompt, advisory)" >&2; return 2 ;;
  esac
}

if [ "${1:-}" = "--settings" ]; then settings_for "${2:-}"; exit $?; fi
[ $# -ge 2 ] || { sed -n 2,13p "$0" >&2; exit 2; }
source_repo="$(cd "$1" && pwd)"; task="$2"
runs="${RUNS:-2}"; [ "$runs" -ge 2 ] || { echo "RUNS must be >= 2 (one run per arm says nothing)" >&2; exit 2; }
claude="${CLAUDE:-claude}"
out="${OUT:-$PWD/ab-results/prompt-$(date +%Y%m%dT%H%M%S)}"

if [ -n "${CLAUDECODE:-}" ]; then
  echo "Refusing to run inside a Claude Code session (nested runs share state and skew timings)." >&2
  exit 2
fi
[ -f "$source_repo/.codegraph/codegraph.db" ] || { echo "$source_repo has no .codegraph index" >&2; exit 2; }
[ -x "$bin" ] && [ -x "$hook" ] || { echo "no $bin / $hook: create the venv first (pip install -e .)" >&2; exit 2; }
mkdir -p "$out"

run_arm() {  # arm run-number
  local arm="$1" n="$2" work="$out/$1-$2"
  mkdir -p "$work"; cp -a "$source_repo/." "$work/repo"
  local copy="$work/repo"
  printf '{"mcpServers": {"codegraph": {"type": "stdio", "command": "%s", "args": ["serve", "--mcp"]}}}\n' \
    "$bin" > "$work/mcp.json"
  settings_for "$arm" > "$work/settings.json"
  "$bin" daemon start --path "$copy" >/dev/null 2>&1 || true   # every arm starts warm
  (cd "$copy" && "$claude" -p "$task" --output-format stream-json --verbose \
      --mcp-config "$work/mcp.json" --strict-mcp-config --settings "$work/settings.json" \
      > "$work/run.jsonl" 2> "$work/stderr.log") || true
  "$bin" daemon stop --path "$copy" >/dev/null 2>&1 || true
  echo "$work/run.jsonl"
}

streams=()
for n in $(seq 1 "$runs"); do   # interleave arms so drift over time hits all equally
  for arm in nohook prompt advisory; do streams+=("$(run_arm "$arm" "$n")"); done
done
python3 "$here/parse_run.py" "${streams[@]}"
python3 "$here/parse_run.py" "${streams[@]}" --json > "$out/summary.json"
echo "results: $out"
