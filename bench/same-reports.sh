#!/usr/bin/env bash
# Fast paths agree with the exact path: two builds of `acp-plan` (e.g. before
# and after an optimization) must print byte-identical
# `check --format json --show-state` reports, and exit alike, on
#   - every trace in corpus/ (real agents' traces, examples, docs),
#   - generated traces of the benchmark's four shapes, enveloped and bare,
#     in every revision, clean and with each injectable violation,
#   - the same traces with bytes mutated line by line (escapes, quotes,
#     brackets, control and invalid UTF-8 bytes, repeated members),
#   - the generated traces spaced as Python's json.dumps writes JSON, and
#     some mutated ones with odd whitespace around the punctuation.
#
#   bench/same-reports.sh BEFORE/acp-plan AFTER/acp-plan [--dir DIR] [--all]
#
# Needs python3 (for the mutations). Exits 1 on the first difference and
# shows it; with --all, shows every difference (a change meant to alter
# some reports lists each one) and exits 1 at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: $0 BEFORE AFTER [--dir DIR]" >&2; exit 2; }
before=$1 after=$2; shift 2
dir=/tmp/acp-plan-same-reports
all=false
while [ $# -gt 0 ]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --all) all=true; shift ;;
    *) echo "$0: unknown option $1" >&2; exit 2 ;;
  esac
done
command -v python3 > /dev/null || { echo "$0: needs python3" >&2; exit 2; }
rm -rf "$dir"; mkdir -p "$dir/traces"

compared=0 different=0
compare() { # FILE [OPTIONS...]
  local file=$1; shift
  local a b sa=0 sb=0
  compared=$((compared + 1))
  a=$("$before" check --format json --show-state "$@" "$file" 2>&1) || sa=$?
  b=$("$after" check --format json --show-state "$@" "$file" 2>&1) || sb=$?
  if [ "$a" != "$b" ] || [ "$sa" != "$sb" ]; then
    echo "DIFFERENT: $file $* (exit $sa vs $sb)"
    diff <(echo "$a") <(echo "$b") | head -40 || true
    $all || exit 1
    different=$((different + 1))
  fi
}

while IFS= read -r file; do compare "$file"; done < <(find corpus -name '*.jsonl' | sort)

shapes=(
  "--sessions 8 --plans 2 --entries 6 --payload-bytes 120"
  "--non-plan-share 0.95 --chunk-bytes 3000"
  "--non-plan-share 0.9 --tool-output-bytes 6000"
  "--sessions 300 --entries 4 --turn-length 2"
)
n=0
for spec in draft-2026-05 v1-1.17 v1 v2-1.17 v2; do
  for framing in "" --bare; do
    for shape in "${shapes[@]}"; do
      n=$((n + 1))
      # shellcheck disable=SC2086
      "$after" gen --seed "$n" --spec "$spec" $framing $shape --messages 400 \
        -o "$dir/traces/gen-$n.jsonl" 2> /dev/null
    done
    for rule in $("$after" gen --inject list); do
      n=$((n + 1))
      # shellcheck disable=SC2086
      "$after" gen --seed "$n" --spec "$spec" $framing --messages 60 --inject "$rule" \
        -o "$dir/traces/inject-$n.jsonl" 2> /dev/null || rm -f "$dir/traces/inject-$n.jsonl"
    done
  done
done

# Mutations: in every generated trace, some lines get a byte inserted,
# replaced or removed, a member repeated, or an escape spelled out.
python3 - "$dir/traces" <<'EOF'
import os, random, sys
folder = sys.argv[1]
alphabet = [b'"', b'\\', b'\\u', b'\\ud800', b'{', b'}', b'[', b']', b',', b':', b'0', b'-',
            b'.', b'e', b' ', b'\t', b'\x00', b'\x1f', b'\x7f', b'\x80', b'\xc3', b'\xff',
            b'[' * 130, b'"sessionUpdate":"x",', b'"sessionId":"s",']
for name in sorted(os.listdir(folder)):
    rng = random.Random(name)
    lines = open(os.path.join(folder, name), 'rb').read().split(b'\n')
    for copy in range(3):
        out = []
        for line in lines:
            if line and rng.random() < 0.15:
                i = rng.randrange(len(line) + 1)
                how = rng.randrange(5)
                piece = rng.choice(alphabet)
                if how == 0:
                    line = line[:i] + piece + line[i:]
                elif how == 1:
                    line = line[:i] + piece + line[i + 1:]
                elif how == 2:
                    line = line[:i] + line[i + 1:]
                elif how == 3:
                    # Repeat the member that starts at a `,"` (a duplicate at any depth).
                    j = line.find(b',"', i)
                    k = line.find(b',', j + 1) if j >= 0 else -1
                    if j >= 0 and k > j:
                        line = line[:k] + line[j:k] + line[k:]
                else:
                    line = line.replace(b'"s', b'"\\u0073', 1)
            out.append(line)
        open(os.path.join(folder, f'mutated-{copy}-{name}'), 'wb').write(b'\n'.join(out))

# Spacing: every generated trace as Python's json.dumps spaces it (a space
# after each `:` and `,` outside strings), and the first mutated copies with
# odd whitespace (tabs, spaces before punctuation) there.
def spaced(line, rng):
    out, in_string, escaped = bytearray(), False, False
    for byte in line:
        c = bytes([byte])
        punctuation = not in_string and c in b'{}[]:,'
        if punctuation and rng:
            out += rng.choice([b'', b'', b' ', b'\t', b'  '])
        out += c
        if punctuation and (rng or c in b':,'):
            out += rng.choice([b'', b' ', b' \t']) if rng else b' '
        if in_string and escaped:
            escaped = False
        elif in_string and c == b'\\':
            escaped = True
        elif c == b'"':
            in_string = not in_string
    return bytes(out)
for name in sorted(os.listdir(folder)):
    odd = name.startswith('mutated-0-')
    if not (odd or name.startswith(('gen-', 'inject-'))):
        continue
    rng = random.Random(name) if odd else None
    lines = open(os.path.join(folder, name), 'rb').read().split(b'\n')
    out = b'\n'.join(spaced(line, rng) for line in lines)
    open(os.path.join(folder, f'spaced-{name}'), 'wb').write(out)
EOF

for file in "$dir"/traces/*.jsonl; do compare "$file"; done
# Some with the revision pinned.
for spec in draft-2026-05 v1-1.17 v1 v2-1.17 v2; do
  for file in "$dir"/traces/mutated-0-gen-*.jsonl; do compare "$file" --spec "$spec"; done
done
if [ "$different" -gt 0 ]; then
  echo "same reports: $different of $compared runs differ"
  exit 1
fi
echo "same reports: $compared runs compared, all byte-identical (exit status too)"
