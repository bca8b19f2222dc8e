#!/usr/bin/env bash
# Opt-in interop run (not part of CI): `acp-plan agent` against real agents from npm
# (claude-agent-acp 0.101.0, codex-acp 2.6.0) whose model APIs are scripted servers on
# 127.0.0.1 (scripts/peers/fake_*.py). Nothing leaves the machine once the agents are
# installed.
#
# Usage: scripts/interop.sh [RUN...]
#   RUN is one of: claude-tasks claude-exitplan codex-update-plan codex-update-plan-v2
#                  codex-proposed-plan codex-proposed-plan-no-cap   (default: all)
# Needs cargo, node/npm and python3. Installs the agents into $PEERS (default /tmp/peers)
# when missing (about 400 MB each); reuses them when present. Writes, per run, the JSON
# report ($OUT/RUN.json), incident details ($OUT/RUN.stderr), the transcripts and the agents'
# stderr ($OUT/RUN/), then prints one line per run and scenario. $OUT defaults to
# target/interop. Exit status: 0 when every run completed (whatever its verdict).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PEER_SCRIPTS="$HERE/peers"
PEERS="${PEERS:-/tmp/peers}"
OUT="${OUT:-$ROOT/target/interop}"
WORKDIR="${WORKDIR:-/tmp/acp-plan-interop-work}"   # the agents' cwd and the sessions' cwd
ANTHROPIC_PORT="${ANTHROPIC_PORT:-18133}"
OPENAI_PORT="${OPENAI_PORT:-18134}"
CLAUDE_JS="$PEERS/npm-claude/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"
CODEX_JS="$PEERS/npm-codex/node_modules/@agentclientprotocol/codex-acp/dist/index.js"

mkdir -p "$OUT" "$WORKDIR" /tmp/peers   # the fake servers log to /tmp/peers

install() {
  if [ ! -f "$CLAUDE_JS" ]; then
    npm install --prefix "$PEERS/npm-claude" --ignore-scripts @agentclientprotocol/claude-agent-acp@0.101.0
  fi
  if [ ! -f "$CODEX_JS" ]; then
    npm install --prefix "$PEERS/npm-codex" --ignore-scripts @agentclientprotocol/codex-acp@2.6.0
  fi
}

. "$PEER_SCRIPTS/servers.sh"

ACP="$ROOT/target/debug/acp-plan"
build() { (cd "$ROOT" && cargo build --quiet --bin acp-plan); }

agent() {  # agent RUN [acp-plan agent options...] -- AGENT...
  local run=$1; shift
  rm -rf "${OUT:?}/$run"
  set +e
  "$ACP" agent --format json --out "$OUT/$run" --cwd "$WORKDIR" --timeout 120s "$@" \
    > "$OUT/$run.json" 2> "$OUT/$run.stderr"
  local status=$?
  set -e
  echo "$run: acp-plan agent exited $status (report $OUT/$run.json, incidents $OUT/$run.stderr)"
}

claude_env() {  # claude_env HOME: --env options for claude-agent-acp
  printf '%s\n' --env "HOME=$1" --env IS_SANDBOX=1 \
    --env "ANTHROPIC_BASE_URL=http://127.0.0.1:$ANTHROPIC_PORT" --env ANTHROPIC_API_KEY=sk-ant-fake-offline \
    --env ENABLE_TOOL_SEARCH=false --env CLAUDE_CODE_ENABLE_TODO_TOOLS=true \
    --env CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 --env DISABLE_AUTOUPDATER=1
}

run_claude() {  # run_claude RUN SCRIPT [acp-plan agent options...]
  local run=$1 script=$2; shift 2
  local home="$OUT/home-$run"
  rm -rf "$home"; mkdir -p "$home"
  start_server fake_anthropic.py "$ANTHROPIC_PORT" "$script"
  local envs; mapfile -t envs < <(claude_env "$home")
  agent "$run" "${envs[@]}" "$@" -- node "$CLAUDE_JS"
  stop_server
}

run_codex() {  # run_codex RUN SCRIPT [acp-plan agent options...]
  local run=$1 script=$2; shift 2
  local home="$OUT/home-$run"
  rm -rf "$home"; mkdir -p "$home/codex"
  sed "s#127.0.0.1:18124#127.0.0.1:$OPENAI_PORT#" "$PEER_SCRIPTS/codex-config.toml" > "$home/codex/config.toml"
  start_server fake_openai.py "$OPENAI_PORT" "$script"
  agent "$run" --env "HOME=$home" --env "CODEX_HOME=$home/codex" --env OPENAI_API_KEY=sk-fake-offline \
    --env NO_BROWSER=1 "$@" -- node "$CODEX_JS"
  stop_server
}

summarize() {  # one line per run and scenario
  python3 - "$OUT" "$@" <<'EOF'
import json, os, sys
out, runs = sys.argv[1], sys.argv[2:]
for run in runs:
    path = os.path.join(out, run + ".json")
    try:
        doc = json.load(open(path))
    except Exception as e:
        print(f"{run:28} (no report: {e})"); continue
    for s in doc["scenarios"]:
        reason = s["reason"] if len(s["reason"]) <= 110 else s["reason"][:109] + "…"
        print(f"{run:28} {s['name']:20} {s['result']:14} e={s['errors']} w={s['warnings']} {reason}")
    print(f"{run:28} {'(run)':20} result {doc.get('result')}, verdict {doc['verdict']}")
EOF
}

install
build
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(claude-tasks claude-exitplan codex-update-plan codex-update-plan-v2 codex-proposed-plan codex-proposed-plan-no-cap)
for r in "${runs[@]}"; do
  case $r in
    # The fake Anthropic and update_plan servers pick their answer from the conversation
    # so far, so one server serves every scenario of a run.
    claude-tasks)         run_claude "$r" script_tasks.json ;;
    claude-exitplan)      run_claude "$r" script_exitplan.json ;;
    codex-update-plan)    run_codex "$r" script_update_plan.json ;;
    codex-update-plan-v2) run_codex "$r" script_update_plan.json --spec v2 ;;
    # The proposed-plan server counts requests per process: one scenario (plus load) per server.
    codex-proposed-plan)  run_codex "$r" script_proposed_plan.json --scenario load \
                            --prompt /plan --prompt 'Fix the failing test' ;;
    codex-proposed-plan-no-cap) run_codex "$r" script_proposed_plan.json --scenario no-capability \
                            --prompt /plan --prompt 'Fix the failing test' ;;
    *) echo "unknown run: $r" >&2; exit 2 ;;
  esac
done
summarize "${runs[@]}"
