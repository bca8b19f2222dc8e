#!/usr/bin/env python3
"""Convert a drive.py log into an envelope trace (newline-delimited JSON).

Usage: log2trace.py LOG [OUT] [--scrub FROM=TO ...]

Each '>> ' line becomes {"direction": "client_to_agent", "message": ...} and each '<< ' line
{"direction": "agent_to_client", "message": ...}, in log order. Everything else (STDERR, EOF,
TIMEOUT lines, and agent stdout lines that are not a JSON-RPC object) is dropped; dropped agent
stdout lines are counted on stderr. --scrub replaces FROM with TO inside every JSON string
(keys and values) after parsing, so the output stays valid JSON. OUT defaults to stdout.
"""
import json
import sys


def scrub(value, pairs):
    if isinstance(value, str):
        for a, b in pairs:
            value = value.replace(a, b)
        return value
    if isinstance(value, list):
        return [scrub(v, pairs) for v in value]
    if isinstance(value, dict):
        return {scrub(k, pairs): scrub(v, pairs) for k, v in value.items()}
    return value


def convert(lines, pairs):
    out, dropped = [], 0
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith(">> "):
            direction = "client_to_agent"
        elif line.startswith("<< "):
            direction = "agent_to_client"
        else:
            continue
        try:
            msg = json.loads(line[3:])
        except ValueError:
            dropped += 1
            continue
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
            dropped += 1
            continue
        out.append({"direction": direction, "message": scrub(msg, pairs)})
    return out, dropped


def main(argv):
    pairs, pos = [], []
    it = iter(argv)
    for a in it:
        if a == "--scrub":
            f, _, t = next(it).partition("=")
            pairs.append((f, t))
        else:
            pos.append(a)
    if not pos or len(pos) > 2:
        sys.exit(__doc__)
    with open(pos[0], encoding="utf-8") as fh:
        envs, dropped = convert(fh, pairs)
    text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in envs)
    if len(pos) == 2:
        with open(pos[1], "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    if dropped:
        print("log2trace: dropped %d non-JSON-RPC agent stdout line(s)" % dropped, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
