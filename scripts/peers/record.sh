#!/usr/bin/env bash
# Re-record the peer-agent plan traces in corpus/traces/ (opt-in; not run by CI).
#
# Usage: scripts/peers/record.sh [NAME...]
#   NAME is one of: claude-tasks-cap claude-tasks-no-cap claude-exitplan
#                   codex-update-plan codex-proposed-plan py-plan-ops py-no-cap
#   (default: all). Needs node/npm and python3; installs the agents into $PEERS (default
#   /tmp/peers) when missing (about 400 MB per npm agent). The fake model servers listen on
#   127.0.0.1 only. Raw drive.py logs stay in $PEERS/logs.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/corpus/traces"
PEERS="${PEERS:-/tmp/peers}"
WORKDIR=/tmp/work                  # cwd sent in session/new
ANTHROPIC_PORT="${ANTHROPIC_PORT:-18123}"
OPENAI_PORT="${OPENAI_PORT:-18124}"
CLAUDE_JS="$PEERS/npm-claude-agent-acp-0.101.0/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js"
CODEX_JS="$PEERS/npm-codex-acp-2.6.0/node_modules/@agentclientprotocol/codex-acp/dist/index.js"
CAPS_PLAN='{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":false,"plan":{}}'
CAPS_NOPLAN='{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":false}'

mkdir -p "$PEERS/logs" "$WORKDIR" "$OUT" /tmp/peers  # the fake servers log to /tmp/peers

install() {
  if [ ! -f "$CLAUDE_JS" ]; then
    npm install --prefix "$PEERS/npm-claude-agent-acp-0.101.0" --ignore-scripts @agentclientprotocol/claude-agent-acp@0.101.0
  fi
  if [ ! -f "$CODEX_JS" ]; then
    npm install --prefix "$PEERS/npm-codex-acp-2.6.0" --ignore-scripts @agentclientprotocol/codex-acp@2.6.0
  fi
  if [ ! -d "$PEERS/pip-python-sdk-0.12.1/acp" ]; then
    python3 -m pip install --target "$PEERS/pip-python-sdk-0.12.1" agent-client-protocol==0.12.1
  fi
}

. "$HERE/servers.sh"

convert() {  # convert NAME TRACE [--scrub FROM=TO ...]
  local name=$1 trace=$2; shift 2
  python3 "$HERE/log2trace.py" "$PEERS/logs/$name.log" "$OUT/$trace" "$@"
  echo "wrote $OUT/$trace ($(wc -l < "$OUT/$trace") lines)"
}

run_claude() {  # run_claude NAME SCRIPT CAPS TRACE
  local name=$1 script=$2 caps=$3 trace=$4 home="$PEERS/home-claude-$1"
  rm -rf "$home"; mkdir -p "$home"
  start_server fake_anthropic.py "$ANTHROPIC_PORT" "$script"
  HOME="$home" IS_SANDBOX=1 ANTHROPIC_BASE_URL="http://127.0.0.1:$ANTHROPIC_PORT" \
  ANTHROPIC_API_KEY=sk-ant-fake-offline ENABLE_TOOL_SEARCH=false CLAUDE_CODE_ENABLE_TODO_TOOLS=true \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
  CAPS="$caps" CWD="$WORKDIR" PROMPTS='["Make a plan with 3 steps and do them"]' T=90 \
  LOG="$PEERS/logs/$name.log" timeout 300 python3 "$HERE/drive.py" node "$CLAUDE_JS"
  stop_server
  convert "$name" "$trace" --scrub "$home=$WORKDIR"
}

run_codex() {  # run_codex NAME SCRIPT CAPS PROMPTS TRACE
  local name=$1 script=$2 caps=$3 prompts=$4 trace=$5 home="$PEERS/home-codex-$1"
  rm -rf "$home"; mkdir -p "$home/codex"
  sed "s#127.0.0.1:18124#127.0.0.1:$OPENAI_PORT#" "$HERE/codex-config.toml" > "$home/codex/config.toml"
  start_server fake_openai.py "$OPENAI_PORT" "$script"
  HOME="$home" CODEX_HOME="$home/codex" OPENAI_API_KEY=sk-fake-offline NO_BROWSER=1 \
  CAPS="$caps" CWD="$WORKDIR" PROMPTS="$prompts" T=90 \
  LOG="$PEERS/logs/$name.log" timeout 300 python3 "$HERE/drive.py" node "$CODEX_JS"
  stop_server
  convert "$name" "$trace" --scrub "$home=$WORKDIR"
}

run_py() {  # run_py NAME CAPS TRACE
  local name=$1 caps=$2 trace=$3
  PYTHONPATH="$PEERS/pip-python-sdk-0.12.1" CAPS="$caps" CWD="$WORKDIR" PROMPTS='["Make a plan"]' \
  LOG="$PEERS/logs/$name.log" timeout 120 python3 "$HERE/drive.py" python3 "$HERE/py_plan_agent.py"
  convert "$name" "$trace"
}

install
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(claude-tasks-cap claude-tasks-no-cap claude-exitplan codex-update-plan codex-proposed-plan py-plan-ops py-no-cap)
for n in "${names[@]}"; do
  case $n in
    claude-tasks-cap)    run_claude "$n" script_tasks.json "$CAPS_PLAN" claude-agent-acp-0.101-tasks-plan-cap.jsonl ;;
    claude-tasks-no-cap) run_claude "$n" script_tasks.json "$CAPS_NOPLAN" claude-agent-acp-0.101-tasks-no-cap.jsonl ;;
    claude-exitplan)     run_claude "$n" script_exitplan.json "$CAPS_PLAN" claude-agent-acp-0.101-exitplan.jsonl ;;
    codex-update-plan)   run_codex "$n" script_update_plan.json "$CAPS_PLAN" '["Make a plan with 3 steps and do them"]' codex-acp-2.6-update-plan.jsonl ;;
    codex-proposed-plan) run_codex "$n" script_proposed_plan.json "$CAPS_PLAN" '["/plan", "Fix the failing test"]' codex-acp-2.6-proposed-plan.jsonl ;;
    py-plan-ops)         run_py "$n" "$CAPS_PLAN" python-sdk-0.12-plan-ops.jsonl ;;
    py-no-cap)           run_py "$n" "$CAPS_NOPLAN" python-sdk-0.12-no-cap.jsonl ;;
    *) echo "unknown trace name: $n" >&2; exit 2 ;;
  esac
done
