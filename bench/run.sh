#!/usr/bin/env bash
# Benchmarks of `acp-plan check` and `acp-plan tap` (README, "Performance").
#
#   bench/run.sh [--smoke] [--runs N] [--dir DIR] [--strict] [--baseline BIN]
#
# Full run (release build): generates a 100 MB and a 1 GB trace with
# `acp-plan gen` into DIR (default /tmp/acp-plan-bench; never the repo), then
# for each: `check` against the floor (json_floor: every line parsed into a
# serde_json::Value and dropped, read the same way), N runs each, alternated
# so that load on a shared machine hits both alike; peak memory of each run;
# then the tap's added latency and throughput (tap_bench). Prints a summary
# with the targets; --strict exits 1 when one is missed.
#
# --baseline BIN: also time another build's `acp-plan check` (e.g. before an
# optimization) in the same runs, as the row "base".
# --smoke: a debug build on tiny traces, to keep the benchmark from rotting
# (CI runs it); its numbers mean nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full runs=3 dir=/tmp/acp-plan-bench strict=0 baseline=
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) mode=smoke ;;
    --runs) runs=$2; shift ;;
    --dir) dir=$2; shift ;;
    --strict) strict=1 ;;
    --baseline) baseline=$2; shift ;;
    *) echo "usage: $0 [--smoke] [--runs N] [--dir DIR] [--strict] [--baseline BIN]" >&2; exit 2 ;;
  esac
  shift
done

if [ "$mode" = smoke ]; then
  profile=dev out=target/debug runs=1
  sizes="small:1000 medium:10000"
  tap_args=(--round-trips 400 --blocks 2 --flood-updates 2000 --flood-rounds 1)
else
  profile=release out=target/release
  # About 798 bytes per message with the options below: 100.6 MB and 1.006 GB.
  sizes="100MB:126000 1GB:1260000"
  tap_args=(--round-trips 20000 --blocks 4 --flood-updates 200000 --flood-rounds 3)
fi
mkdir -p "$dir"
results="$dir/results.txt"
: > "$results"

echo "== build ($profile)"
# Two builds, so that features do not mix: the binary as users get it, and
# the helpers (the floor among them) with serde_json as it comes.
cargo build --quiet --profile "$profile" -p acp-plan --bin acp-plan
cargo build --quiet --profile "$profile" -p acp-plan-bench --bins
acp="$out/acp-plan"
run() { "$out/bench_run" --out "$results" --label "$@"; }

echo "== check throughput and peak memory ($runs runs each, floor and check alternated)"
for spec in $sizes; do
  name=${spec%%:*} messages=${spec#*:}
  trace="$dir/bench-$name.jsonl"
  # Deterministic: the same options and seed always write the same bytes.
  "$acp" gen --seed 1 --sessions 8 --plans 2 --entries 6 --non-plan-share 0.5 \
    --payload-bytes 120 --messages "$messages" -o "$trace"
  bytes=$(wc -c < "$trace") lines=$(wc -l < "$trace")
  echo "$name: $trace, $bytes bytes, $lines lines"
  echo "size $name $bytes $lines" >> "$results"
  for i in $(seq "$runs"); do
    run "floor:$name" -- "$out/json_floor" "$trace" > /dev/null
    # Generated traces are conformant by construction: exit status 0.
    run "check:$name" -- "$acp" check --quiet "$trace" > "$dir/check-$name.txt"
    if [ -n "$baseline" ]; then
      run "base:$name" -- "$baseline" check --quiet "$trace" > /dev/null
    fi
  done
  # Memory is live state plus the diagnostics kept for the report (at most
  # --max-diagnostics, default 10 000; these traces carry ID-RECREATE infos).
  # With few kept, what is left is flat whatever the length.
  run "lean:$name" -- "$acp" check --quiet --max-diagnostics 100 "$trace" > /dev/null
  echo "$name: check found $(grep -o '[0-9]* errors, [0-9]* warnings, [0-9]* infos' "$dir/check-$name.txt")"
done

awk -v strict="$strict" '
  $1 == "size" { bytes[$2] = $3; lines[$2] = $4; order[++n] = $2; next }
  {
    split($1, key, ":"); tool = key[1]; size = key[2]
    if ($6 != 0) { printf "%s exited with status %s\n", $1, $6; failed = 1 }
    k = tool ":" size; cpu = $3 + $4
    if (!(k in wall) || $2 < wall[k]) wall[k] = $2
    if (!(k in mincpu) || cpu < mincpu[k]) mincpu[k] = cpu
    if ($5 > rss[k]) rss[k] = $5
  }
  END {
    printf "\n%-6s %-6s %9s %9s %11s %10s %9s\n", "trace", "tool", "best s", "MB/s", "lines/s", "CPU s", "peak MB"
    for (i = 1; i <= n; i++) {
      s = order[i]
      for (t = 1; t <= 3; t++) {
        tool = (t == 1) ? "floor" : (t == 2) ? "check" : "base"; k = tool ":" s
        if (!(k in wall)) continue
        printf "%-6s %-6s %9.3f %9.1f %11.0f %10.3f %9.1f\n", s, tool, wall[k], bytes[s] / 1e6 / wall[k], lines[s] / wall[k], mincpu[k], rss[k] / 1024
      }
      ratio = wall["floor:" s] / wall["check:" s]; cpuratio = mincpu["floor:" s] / mincpu["check:" s]
      printf "%-6s check/floor throughput: %.2fx by best wall time, %.2fx by CPU time (target: at least 1x)\n", s, ratio, cpuratio
      if (ratio < 1) missed = 1
      printf "%-6s check --max-diagnostics 100: %.3f s, peak %.1f MB\n", s, wall["lean:" s], rss["lean:" s] / 1024
      if (("base:" s) in wall)
        printf "%-6s base/floor throughput: %.2fx by best wall time, %.2fx by CPU time\n", s, wall["floor:" s] / wall["base:" s], mincpu["floor:" s] / mincpu["base:" s]
      last = s
    }
    printf "peak memory of check: %s %.1f MB, %s %.1f MB (target: under 64 MB on 1 GB); with --max-diagnostics 100: %.1f MB, %.1f MB (not growing with length)\n", order[1], rss["check:" order[1]] / 1024, last, rss["check:" last] / 1024, rss["lean:" order[1]] / 1024, rss["lean:" last] / 1024
    if (("base:" last) in rss)
      printf "peak memory of base: %s %.1f MB, %s %.1f MB\n", order[1], rss["base:" order[1]] / 1024, last, rss["base:" last] / 1024
    if (rss["check:" last] / 1024 >= 64) missed = 1
    if (failed) exit 2
    if (strict && missed) { print "a target was missed"; exit 1 }
  }' "$results"

echo
echo "== tap: added latency and throughput"
strict_flag=()
[ "$strict" = 1 ] && strict_flag=(--strict)
"$out/tap_bench" --tap "$acp" --agent "$out/echo_agent" --work-dir "$dir" \
  "${tap_args[@]}" "${strict_flag[@]}"
