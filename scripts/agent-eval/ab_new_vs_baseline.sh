#!/usr/bin/env bash
# A/B: the same task on fresh copies of an indexed repo, arm "new" (codegraph from this checkout) vs
# arm "baseline" (codegraph built from BASELINE_REF, or no codegraph at all when no ref is given).
#
# Usage: ab_new_vs_baseline.sh <indexed-repo> "<task>" [baseline-ref]
# Env:   RUNS (per arm, default 2, minimum 2)   CLAUDE (claude binary, default: claude on PATH)
#        HOOK_SETTINGS (a settings file passed with --settings to both arms, e.g. hook-settings.json)
#        OUT (results folder, default: ./ab-results/<timestamp>)
# Needs a real ANTHROPIC_API_KEY (or a logged-in claude). Prints parse_run.py summaries per run.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
[ $# -ge 2 ] || { sed -n 2,9p "$0" >&2; exit 2; }
source_repo="$(cd "$1" && pwd)"; task="$2"; baseline_ref="${3:-}"
runs="${RUNS:-2}"; [ "$runs" -ge 2 ] || { echo "RUNS must be >= 2 (one run per arm says nothing)" >&2; exit 2; }
claude="${CLAUDE:-claude}"
out="${OUT:-$PWD/ab-results/$(date +%Y%m%dT%H%M%S)}"
export CODEGRAPH_EVAL_DIR="$here"

if [ -n "${CLAUDECODE:-}" ]; then
  echo "Refusing to run inside a Claude Code session (nested runs share state and skew timings)." >&2
  exit 2
fi
[ -f "$source_repo/.codegraph/codegraph.db" ] || { echo "$source_repo has no .codegraph index" >&2; exit 2; }
mkdir -p "$out"

# codegraph executables per arm
new_bin="$repo_root/.venv/bin/codegraph"
[ -x "$new_bin" ] || { echo "no $new_bin: create the venv first (pip install -e .)" >&2; exit 2; }
baseline_bin=""
if [ -n "$baseline_ref" ]; then
  base_tree="$out/baseline-src"
  git -C "$repo_root" worktree add --detach "$base_tree" "$baseline_ref" >/dev/null
  python3 -m venv "$base_tree/.venv"
  "$base_tree/.venv/bin/pip" install -q -e "$base_tree"
  baseline_bin="$base_tree/.venv/bin/codegraph"
fi

run_arm() {  # arm-name codegraph-binary-or-empty run-number
  local arm="$1" bin="$2" n="$3"
  local work="$out/$arm-$n"
  cp -a "$source_repo" "$work/"  2>/dev/null || { mkdir -p "$work"; cp -a "$source_repo/." "$work/repo"; }
  local copy="$work/repo"; [ -d "$copy" ] || copy="$work/$(basename "$source_repo")"
  local cfg="$work/mcp.json"
  if [ -n "$bin" ]; then
    printf '{"mcpServers": {"codegraph": {"type": "stdio", "command": "%s", "args": ["serve", "--mcp"]}}}\n' \
      "$bin" > "$cfg"
    "$bin" daemon start --path "$copy" >/dev/null 2>&1 || true   # prewarm: both arms start warm
  else
    echo '{"mcpServers": {}}' > "$cfg"
  fi
  local settings=()
  [ -n "${HOOK_SETTINGS:-}" ] && settings=(--settings "$HOOK_SETTINGS")
  (cd "$copy" && "$claude" -p "$task" --output-format stream-json --verbose \
      --mcp-config "$cfg" --strict-mcp-config --allowedTools "mcp__codegraph__*" "${settings[@]}" \
      > "$work/run.jsonl" 2> "$work/stderr.log") || true
  [ -n "$bin" ] && "$bin" daemon stop "$copy" >/dev/null 2>&1 || true
  echo "$work/run.jsonl"
}

streams=()
for n in $(seq 1 "$runs"); do   # interleave arms so drift over time hits both equally
  streams+=("$(run_arm new "$new_bin" "$n")")
  streams+=("$(run_arm baseline "$baseline_bin" "$n")")
done
python3 "$here/parse_run.py" "${streams[@]}"
python3 "$here/parse_run.py" "${streams[@]}" --json > "$out/summary.json"
echo "results: $out"
if [ -n "$baseline_ref" ]; then git -C "$repo_root" worktree remove --force "$out/baseline-src" || true; fi
