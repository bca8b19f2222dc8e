#!/usr/bin/env bash
# Benchmarks of `acp-plan check` and `acp-plan tap` (bench/README.md).
#
#   bench/run.sh [--smoke] [--runs N] [--dir DIR] [--strict] [--baseline BIN]
#                [--shapes "plan chat tool many few"] [--sizes "100MB:100 1GB:1000"] [--no-build]
#   bench/run.sh --shapes "few many@300 many@1000 many@3000 many" ...
#   bench/run.sh --shapes "python real" ...
#   bench/run.sh --hostile [--dir DIR] [--strict]
#
# Full run (release build): for each shape of trace (plan-heavy, chat-heavy,
# tool-output-heavy, many-sessions, and a control: many-sessions' lines over
# 10 sessions, to tell its state's cache misses from its work) generates a 100 MB and a 1 GB trace with
# `acp-plan gen` into DIR (default /tmp/acp-plan-bench; never the repo), then
# times `check` against the floor (json_floor: `read_line` and a
# `serde_json::Value` per line, built with LTO and one codegen unit) and
# the client floor (the same, keeping each session's plans as a client must:
# no target, a reference for the state's cost), N runs each, alternated so
# that load on a shared machine hits them alike; peak
# memory of each run; then many files at once (the 100 MB traces in one
# `check` against one `check` per file); then the tap (tap_bench). Prints a
# summary with the targets; --strict exits 1 when one is missed.
#
# --baseline BIN: also time another build's `acp-plan check` (e.g. before an
# optimization) in the same runs, as the row "base", and its check of many
# files.
# --no-build: use the binaries already built (e.g. while sources change).
# many@N in --shapes: the many-sessions shape over N sessions instead of
# 10 000, with no target, like the control: what the ratio loses as the
# state outgrows the caches.
# python in --shapes: plan-heavy written as Python's json.dumps writes JSON
# (a space after each : and ,), held to the same target.
# real in --shapes: the real agents' traces of corpus/traces (all of them, in
# order, again and again up to the size), with no target: their own
# messages, each connection's handshake once every 18 lines or so, and the
# errors some of those agents make (check exits 1).
# --smoke: a debug build on tiny traces, to keep the benchmark from rotting
# (CI runs it); its numbers mean nothing.
# --hostile: peak memory of `check` on hostile shapes (bench/hostile.py:
# huge arrays of small numbers, deep-but-legal objects, millions of tiny
# members, many plans at the entry limit, lines of one huge string, a line
# whose repeated member gives it 8 readings, millions of members with one
# repeat or every name twice, a message or an envelope of millions of
# members, a batch of millions of elements, a v2 batch of hundreds of
# thousands of lifecycle-sensitive notifications), each
# line just under the default --max-line-bytes; target: peak RSS at most
# 4 x --max-line-bytes + 64 MB (issue 11). Three more shapes of small lines
# (thousands of requests in flight, loads failing oldest first) are there
# for their time.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full runs=3 dir=/tmp/acp-plan-bench strict=0 baseline=
shapes="plan chat tool many few" sizes= build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) mode=smoke ;;
    --hostile) mode=hostile ;;
    --runs) runs=$2; shift ;;
    --dir) dir=$2; shift ;;
    --strict) strict=1 ;;
    --baseline) baseline=$2; shift ;;
    --shapes) shapes=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --no-build) build=0 ;;
    *) echo "usage: $0 [--smoke | --hostile] [--runs N] [--dir DIR] [--strict] [--baseline BIN] [--shapes LIST] [--sizes LIST] [--no-build]" >&2; exit 2 ;;
  esac
  shift
done

if [ "$mode" = hostile ]; then
  mkdir -p "$dir"
  cargo build --quiet --release -p acp-plan --bin acp-plan
  cargo build --quiet --release -p acp-plan-bench --bins
  python3 bench/hostile.py "$dir"
  results="$dir/hostile-results.txt"
  : > "$results"
  for shape in numbers deep members entries content custom readings repeat pairs top envelope batch lifecycle halves chunks resumes cancels loads; do
    trace="$dir/hostile-$shape.jsonl"
    # Exit status 1 is expected where a shape goes over a limit.
    target/release/bench_run --out "$results" --label "$shape" -- \
      target/release/acp-plan check --quiet "$trace" > "$dir/hostile-$shape.txt" || true
    echo "$shape: $(wc -c < "$trace") bytes; $(tail -1 "$dir/hostile-$shape.txt")"
  done
  limit=$((4 * 16 * 1024 * 1024 + 64 * 1000 * 1000))
  awk -v limit="$limit" -v strict="$strict" '
    { over = $5 * 1024 > limit
      printf "%-9s peak %7.1f MB  %6.2f s%s\n", $1, $5 / 1024, $2, over ? "  OVER THE TARGET" : ""
      if (over) missed = missed " " $1 }
    END { printf "target: peak RSS at most %.1f MB (4 x --max-line-bytes + 64 MB): %s\n", limit / 1e6 / 1.048576, missed ? "missed by" missed : "met"
          if (strict && missed) { print "a target was missed"; exit 1 } }' "$results"
  exit 0
fi

if [ "$mode" = smoke ]; then
  profile=dev floor_profile=dev out=target/debug floor_out=target/debug runs=1
  # NAME:MEGABYTES
  sizes=${sizes:-"small:1 medium:4"}
  tap_args=(--round-trips 400 --blocks 2 --flood-updates 2000 --flood-rounds 1 --paced-mb-per-s 20)
else
  profile=release floor_profile=floor out=target/release floor_out=target/floor
  sizes=${sizes:-"100MB:100 1GB:1000"}
  tap_args=(--round-trips 20000 --blocks 4 --flood-updates 200000 --flood-rounds 3 --paced-mb-per-s 250)
fi
mkdir -p "$dir"
results="$dir/results.txt"
: > "$results"

# The shapes' `acp-plan gen` options: shape_options (bench/shapes.sh).
# shellcheck source=bench/shapes.sh
source bench/shapes.sh

# The real agents' traces joined, again and again, into $2 up to $1 bytes.
real_trace() {
  local want=$1 trace=$2 sources
  sources=$(find corpus/traces -name '*.jsonl' | LC_ALL=C sort)
  : > "$trace"
  # shellcheck disable=SC2086 # one path a line, no spaces
  while [ "$(wc -c < "$trace")" -lt "$want" ]; do cat $sources >> "$trace"; done
}

# The rows not part of many files: those with no target (few, many@N, real),
# and python, which would repeat plan-heavy's content.
is_control() { [ "$1" = few ] || [ "$1" = real ] || [ "$1" = python ] || [[ $1 == many@* ]]; }

echo "== build ($profile; the floor: $floor_profile)"
# Two builds, so that features do not mix: the binary as users get it, and
# the helpers (the floor among them) with serde_json as it comes.
if [ "$build" = 1 ]; then
  cargo build --quiet --profile "$profile" -p acp-plan --bin acp-plan
  cargo build --quiet --profile "$floor_profile" -p acp-plan-bench --bins
fi
acp="$out/acp-plan" json_floor="$floor_out/json_floor" client_floor="$floor_out/client_floor"
run() { "$floor_out/bench_run" --out "$results" --label "$@"; }

echo "== check throughput and peak memory ($runs runs each, floor and check alternated)"
first_traces=()
for shape in $shapes; do
  read -r -a options <<< "$(shape_options "$shape")"
  # Messages for a size: from a probe's bytes per message.
  if [ "$shape" != real ]; then
    probe="$dir/probe-$shape.jsonl"
    "$acp" gen --seed 1 "${options[@]}" --messages 20000 -o "$probe"
    probe_bytes=$(wc -c < "$probe")
    rm -f "$probe"
  fi
  for spec in $sizes; do
    size=${spec%%:*} megabytes=${spec#*:}
    name="$shape-$size"
    trace="$dir/bench-$name.jsonl"
    if [ "$shape" = real ]; then
      real_trace $(( megabytes * 1000000 )) "$trace"
    else
      messages=$(( megabytes * 1000000 * 20000 / probe_bytes ))
      "$acp" gen --seed 1 "${options[@]}" --messages "$messages" -o "$trace"
    fi
    bytes=$(wc -c < "$trace") lines=$(wc -l < "$trace")
    echo "$name: $trace, $bytes bytes, $lines lines"
    echo "size $name $bytes $lines" >> "$results"
    for i in $(seq "$runs"); do
      run "floor:$name" -- "$json_floor" "$trace" > /dev/null
      run "client:$name" -- "$client_floor" "$trace" > /dev/null
      # Generated traces are conformant by construction: exit status 0 (the
      # real agents' errors make it 1, which the summary expects).
      run "check:$name" -- "$acp" check --quiet "$trace" > "$dir/check-$name.txt" || [ "$shape" = real ]
      if [ -n "$baseline" ]; then
        run "base:$name" -- "$baseline" check --quiet "$trace" > /dev/null || [ "$shape" = real ]
      fi
    done
    # Memory is live state plus the diagnostics kept for the report (at most
    # --max-diagnostics, default 10 000; these traces carry ID-RECREATE
    # infos). With few kept, what is left must not grow with length.
    run "lean:$name" -- "$acp" check --quiet --max-diagnostics 100 "$trace" > /dev/null || [ "$shape" = real ]
    echo "$name: check found $(grep -o '[0-9]* errors, [0-9]* warnings, [0-9]* infos' "$dir/check-$name.txt")"
    # Only the first size of each shape with a target is kept (for many
    # files): disk is finite.
    if [ "$spec" != "${sizes%% *}" ] || is_control "$shape"; then rm -f "$trace"; fi
  done
  # Many files: the four shapes with targets (the controls would repeat one).
  is_control "$shape" || first_traces+=("$dir/bench-$shape-${sizes%%:*}.jsonl")
done

# Not when --shapes names controls only: a check of no file reads stdin.
if [ ${#first_traces[@]} -gt 0 ]; then
  echo "== many files: ${#first_traces[@]} traces in one check against one check per file ($runs runs each)"
  for i in $(seq "$runs"); do
    start=$(date +%s.%N)
    for trace in "${first_traces[@]}"; do
      "$acp" check --quiet "$trace" > /dev/null
    done
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "files-sequential %.3f\n", b - a }' >> "$results"
    run "files:all" -- "$acp" check --quiet "${first_traces[@]}" > "$dir/check-files.txt"
    if [ -n "$baseline" ]; then
      run "files:base" -- "$baseline" check --quiet "${first_traces[@]}" > /dev/null
    fi
  done
fi

awk -v strict="$strict" -v cores="$(nproc)" '
  $1 == "size" { bytes[$2] = $3; lines[$2] = $4; order[++n] = $2; next }
  $1 == "files-sequential" { if (!seq || $2 < seq) seq = $2; next }
  {
    split($1, key, ":"); tool = key[1]; name = key[2]
    # The real agents make errors: check exits 1 on them.
    expected = (name ~ /^real-/ && (tool == "check" || tool == "base" || tool == "lean")) ? 1 : 0
    if ($6 != expected) { printf "%s exited with status %s\n", $1, $6; failed = 1 }
    k = tool ":" name; cpu = $3 + $4
    if (!(k in wall) || $2 < wall[k]) wall[k] = $2
    if (!(k in mincpu) || cpu < mincpu[k]) mincpu[k] = cpu
    if ($5 > rss[k]) rss[k] = $5
  }
  END {
    printf "\n%-16s %-6s %9s %9s %11s %10s %9s\n", "trace", "tool", "best s", "MB/s", "lines/s", "CPU s", "peak MB"
    for (i = 1; i <= n; i++) {
      s = order[i]
      for (t = 1; t <= 5; t++) {
        tool = (t == 1) ? "floor" : (t == 2) ? "client" : (t == 3) ? "check" : (t == 4) ? "base" : "lean"; k = tool ":" s
        if (!(k in wall)) continue
        printf "%-16s %-6s %9.3f %9.1f %11.0f %10.3f %9.1f\n", s, tool, wall[k], bytes[s] / 1e6 / wall[k], lines[s] / wall[k], mincpu[k], rss[k] / 1024
      }
    }
    printf "\n"
    for (i = 1; i <= n; i++) {
      s = order[i]
      ratio = wall["floor:" s] / wall["check:" s]; cpuratio = mincpu["floor:" s] / mincpu["check:" s]
      control = (s ~ /^few-/ || s ~ /^many@/ || s ~ /^real-/)
      over = (s ~ /^few-/) ? "10" : substr(s, 6, index(s, "-") - 6)
      label = (s ~ /^real-/) ? "the real agents\47 traces joined, no target" : control ? "control: many-sessions over " over " sessions, no target" : "target: at least 1.5x"
      printf "%-16s check/floor: %.2fx by best wall time, %.2fx by CPU time (%s)", s, ratio, cpuratio, label
      printf "; check/client floor %.2fx by CPU time", mincpu["client:" s] / mincpu["check:" s]
      if (("base:" s) in wall)
        printf "; base/floor %.2fx, %.2fx", wall["floor:" s] / wall["base:" s], mincpu["floor:" s] / mincpu["base:" s]
      printf "\n"
      if (ratio < 1.5 && !control) missed = 1
    }
    printf "\npeak memory of check (default --max-diagnostics, then 100), by length:\n"
    for (i = 1; i <= n; i++) {
      s = order[i]
      printf "%-16s %.1f MB, %.1f MB\n", s, rss["check:" s] / 1024, rss["lean:" s] / 1024
      if (rss["check:" s] / 1024 >= 64) missed = 1
    }
    if (seq) {
      printf "\nmany files on %d cores: one check per file %.3f s, one check of all %.3f s: %.2fx", cores, seq, wall["files:all"], seq / wall["files:all"]
      if ("files:base" in wall)
        printf "; base: one check of all %.3f s, %.2fx", wall["files:base"], seq / wall["files:base"]
      printf "\n"
    }
    if (failed) exit 2
    if (strict && missed) { print "a target was missed"; exit 1 }
  }' "$results"

echo
echo "== tap: added latency and throughput"
strict_flag=()
[ "$strict" = 1 ] && strict_flag=(--strict)
"$floor_out/tap_bench" --tap "$acp" --agent "$floor_out/echo_agent" --work-dir "$dir" \
  "${tap_args[@]}" "${strict_flag[@]}"
