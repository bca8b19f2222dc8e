#!/usr/bin/env bash
# The shell steps of the GitHub Action (action.yml at the repository root).
# They live here, not inline in the YAML, so that tests run them locally
# (conformance/tests/suite/action.rs) against fake-agent scripts and corpus traces.
#
#   run.sh version   print `version=X.Y.Z` (the cache key of the install)
#   run.sh install   cargo install acp-plan from the action's own checkout,
#                    unless the cached one is that version
#   run.sh run       run `agent` or `check` from the INPUT_* variables, write
#                    SARIF and JUnit, print the annotations; exit status is
#                    acp-plan's (0 pass, 1 not conformant, 2 usage or I/O)
#
# Inputs (environment): INPUT_AGENT (an agent command line), INPUT_CLIENT (a
# client command line holding {agent}) or INPUT_TRACES (files, directories or
# globs, space-separated); INPUT_SPEC (auto);
# INPUT_BASELINE (accepted failures: scopes are trace paths with `traces`,
# scenario names with `agent` and `client`); INPUT_SARIF, INPUT_JUNIT (report paths);
# INPUT_TRANSCRIPTS (where agent transcripts go); INPUT_ARGS (more options).
# ACP_PLAN_BIN uses that binary instead of the installed one (tests).
set -euo pipefail

action_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

version() {
  sed -n 's/^version = "\(.*\)"$/\1/p' "$action_root/conformance/Cargo.toml" | head -n 1
}

install_root() {
  printf '%s\n' "${ACP_PLAN_INSTALL_ROOT:-$HOME/.acp-plan/$(version)}"
}

cmd_version() {
  echo "version=$(version)"
  echo "root=$(install_root)"
}

cmd_install() {
  local root want
  root="$(install_root)"
  want="$(version)"
  if [ -x "$root/bin/acp-plan" ] && "$root/bin/acp-plan" --version | grep -q " $want\b"; then
    echo "acp-plan $want: cached in $root"
  else
    local flags=(--locked --path "$action_root/conformance" --root "$root")
    # CI of this repository reuses its debug build; users get a release build.
    [ "${ACP_PLAN_INSTALL_DEBUG:-}" = 1 ] && flags+=(--debug)
    cargo install "${flags[@]}"
  fi
  if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$root/bin" >>"$GITHUB_PATH"
  fi
  "$root/bin/acp-plan" --version
}

output() {  # output NAME VALUE: a step output when run by GitHub Actions
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "$1=$2" >>"$GITHUB_OUTPUT"
  fi
}

cmd_run() {
  # The version this action installed, before any other acp-plan on PATH.
  local bin="${ACP_PLAN_BIN:-}"
  if [ -z "$bin" ]; then
    bin="$(install_root)/bin/acp-plan"
    [ -x "$bin" ] || bin="$(command -v acp-plan || true)"
  fi
  if [ -z "$bin" ]; then
    echo "::error title=acp-plan::acp-plan is not installed (run.sh install)"
    return 2
  fi
  local agent="${INPUT_AGENT:-}" traces="${INPUT_TRACES:-}"
  local spec="${INPUT_SPEC:-auto}" baseline="${INPUT_BASELINE:-}"
  local sarif="${INPUT_SARIF:-acp-plan.sarif}" junit="${INPUT_JUNIT:-acp-plan.xml}"
  local transcripts="${INPUT_TRANSCRIPTS:-acp-plan-transcripts}"
  local client="${INPUT_CLIENT:-}"
  local given=0
  for input in "$agent" "$client" "$traces"; do [ -n "$input" ] && given=$((given + 1)); done
  if [ "$given" -gt 1 ]; then
    echo "::error title=acp-plan::give one of \`agent\`, \`client\` or \`traces\`, not several"
    return 2
  fi
  if [ "$given" -eq 0 ]; then
    echo "::error title=acp-plan::give \`agent\` (a command line), \`client\` (a client's command line with {agent}) or \`traces\` (recorded traces)"
    return 2
  fi
  local extra=()
  if [ -n "${INPUT_ARGS:-}" ]; then
    # The workflow's own text, split as the shell splits words.
    eval "extra=(${INPUT_ARGS})"
  fi
  local annotations
  annotations="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/acp-plan-annotations.XXXXXX")"
  local reports=(--report "sarif=$sarif" --report "junit=$junit" --report "github=$annotations")
  local status=0
  local with_baseline=()
  [ -n "$baseline" ] && with_baseline=(--baseline "$baseline")
  if [ -n "$client" ]; then
    local words=()
    eval "words=(${client})"
    "$bin" client --spec "$spec" --out "$transcripts" "${with_baseline[@]}" "${reports[@]}" "${extra[@]}" -- "${words[@]}" || status=$?
  elif [ -n "$agent" ]; then
    local words=()
    eval "words=(${agent})"
    "$bin" agent --spec "$spec" --out "$transcripts" "${with_baseline[@]}" "${reports[@]}" "${extra[@]}" -- "${words[@]}" || status=$?
  else
    local files=() patterns=() pattern
    # Split on whitespace first (no globbing), then expand each pattern.
    read -r -a patterns <<<"$traces"
    shopt -s nullglob globstar
    for pattern in "${patterns[@]}"; do
      # shellcheck disable=SC2206 # the pattern is meant to glob
      local matched=($pattern)
      if [ ${#matched[@]} -eq 0 ]; then
        echo "::error title=acp-plan::no trace matches \`$pattern\`"
        rm -f "$annotations"
        return 2
      fi
      files+=("${matched[@]}")
    done
    shopt -u nullglob globstar
    "$bin" check --spec "$spec" "${with_baseline[@]}" "${reports[@]}" "${extra[@]}" -- "${files[@]}" || status=$?
  fi
  # Workflow commands only work on stdout: the annotations go there last.
  cat "$annotations"
  rm -f "$annotations"
  if [ "$status" -eq 0 ]; then output result pass; else output result fail; fi
  [ -f "$sarif" ] && output sarif "$sarif"
  [ -f "$junit" ] && output junit "$junit"
  return "$status"
}

case "${1:-}" in
  version) cmd_version ;;
  install) cmd_install ;;
  run) cmd_run ;;
  *)
    echo "usage: $0 version|install|run" >&2
    exit 2
    ;;
esac
