#!/usr/bin/env bash
# Opt-in interop run (not part of CI): every real ACP agent of scripts/interop.py, installed
# from npm/PyPI into $PEERS (default /tmp/peers), driven by `acp-plan agent` against scripted
# model servers on 127.0.0.1; regenerates docs/interop.md, docs/interop.json and the kept
# transcripts in corpus/traces/interop/. See scripts/README.md.
#
# Usage: scripts/interop.sh [ROW...]   (scripts/interop.sh --list for the rows)
exec python3 "$(dirname "${BASH_SOURCE[0]}")/interop.py" "$@"
