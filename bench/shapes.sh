# The benchmark's shapes of trace, sourced by bench/run.sh (which times them).
#
# shape_options SHAPE: the shape's `acp-plan gen` options (deterministic: the same
# options and seed always write the same bytes).
shape_options() {
  case "$1" in
    # Today's trace: half of the updates about plans, ~800 bytes a message.
    plan) echo "--sessions 8 --plans 2 --entries 6 --non-plan-share 0.5 --payload-bytes 120" ;;
    # Long agent_message_chunk text (prose with line breaks), few plans.
    chat) echo "--sessions 8 --plans 2 --entries 6 --non-plan-share 0.95 --payload-bytes 120 --chunk-bytes 3000" ;;
    # tool_call updates carrying ~6 KB of nested rawOutput.
    tool) echo "--sessions 8 --plans 2 --entries 6 --non-plan-share 0.9 --payload-bytes 120 --tool-output-bytes 6000" ;;
    # 10 000 sessions (the default --max-sessions), short turns, small messages.
    many) echo "--sessions 10000 --plans 2 --entries 4 --non-plan-share 0.5 --payload-bytes 40 --turn-length 2" ;;
    # A control, with no target: the many-sessions shape over 10 sessions, whose
    # state stays in cache. What many-sessions costs beyond it is memory.
    few) echo "--sessions 10 --plans 2 --entries 4 --non-plan-share 0.5 --payload-bytes 40 --turn-length 2" ;;
    # Points between the two (bench/run.sh --shapes many@N).
    many@*) echo "--sessions ${1#many@} --plans 2 --entries 4 --non-plan-share 0.5 --payload-bytes 40 --turn-length 2" ;;
    # Plan-heavy as Python's json.dumps writes it (a space after each : and ,).
    python) echo "$(shape_options plan) --spacing python" ;;
    # Not generated: bench/run.sh's real_trace.
    real) echo "" ;;
    *) echo "unknown shape $1" >&2; exit 2 ;;
  esac
}
