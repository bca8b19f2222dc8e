#!/usr/bin/env python3
"""How the official Python SDK (PyPI `agent-client-protocol`) reads plan messages, for
scripts/sdk-matrix.py: `acp.schema.SessionNotification` (the pydantic model its client router
validates `session/update` params with), dumped back by alias with only the members it set.

Usage: PYTHONPATH=DIR python3 py_read.py < items.jsonl
Input, one line each: {"id", "revision", "line": "<the JSON-RPC message as on the wire>"}.
Output, one line each: {"id", "reader": "python", "read": ...} or {"id", "reader", "error"}.
The SDK has v1 types only (with Plan Operations), so v2 items are read with them too and
marked as such by the caller.
"""
import json
import sys

from acp.schema import SessionNotification
from pydantic import ValidationError

for text in sys.stdin:
    if not text.strip():
        continue
    item = json.loads(text)
    answer = {"id": item["id"], "reader": "python"}
    try:
        params = json.loads(item["line"])["params"]
        read = SessionNotification.model_validate(params)
        answer["read"] = read.model_dump(mode="json", by_alias=True, exclude_unset=True)
    except ValidationError as e:
        answer["error"] = "; ".join("%s: %s" % (".".join(map(str, err["loc"])) or "(root)", err["msg"])
                                    for err in e.errors()[:6])
    except (ValueError, KeyError, TypeError) as e:
        answer["error"] = "not read: %s" % e
    print(json.dumps(answer), flush=True)  # ASCII: vectors hold lone surrogates
