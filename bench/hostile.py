#!/usr/bin/env python3
"""Write hostile traces for `bench/run.sh --hostile` (issue 11: memory is
bounded in bytes, whatever the shape): each line stays under the default
--max-line-bytes (16 MiB), so every one is read and checked.

    python3 bench/hostile.py DIR [--line-bytes N]

Shapes (one file each, deterministic):
  numbers  4 plan updates whose entry `_meta` is an array of millions of small numbers
  deep     4 plan updates whose `_meta` holds many objects nested 100 deep
  members  4 plan updates whose `_meta` has millions of tiny members
  entries  200 plans at the entry limit (10 000 entries each)
  content  8 markdown plans of a whole line each (over the state byte budget)
  custom   4 v2 plans of a custom type whose own member is an array of millions of small numbers
  readings 4 plan updates whose entry text fills the line and whose `_meta` repeats a member 8
           times: 8 readings, each a copy of the line
  repeat   1 plan update whose `_meta` has millions of tiny members and one repeated member
  pairs    1 plan update whose `_meta` has millions of tiny members, each name given twice
  top      1 plan update whose message has millions of tiny members beside its own, and repeats `jsonrpc`
  envelope 1 plan update whose envelope has millions of tiny members beside its own
  batch    1 batch of millions of elements, each `0`
  lifecycle v2: 1 batch of hundreds of thousands of `session/new` notifications (each a warning
           that must not be held as one)
  halves   4 plan updates whose entry text fills the line and ends with half of a character
  chunks   4 text chunks (no rule reads them) that fill the line, with half of a character every 4 KB

and two of small lines, for time rather than memory (a line must not cost
in proportion to the requests in flight):
  resumes  v2: 9 000 session/resume requests without a replay left unanswered, then 200 000 plan updates
  cancels  v1: 9 000 session/prompt requests left unanswered, then 300 000 session/cancel notifications
  loads    v1: 20 rounds of 9 000 session/load requests of new sessions, then their failures, oldest first
"""

import json
import os
import sys

HEAD = [
    {"direction": "client_to_agent", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": 1, "clientCapabilities": {"plan": {}}}}},
    {"direction": "agent_to_client", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": 1}}},
    {"direction": "client_to_agent", "message": {"jsonrpc": "2.0", "id": 2, "method": "session/new",
     "params": {"cwd": "/w", "mcpServers": []}}},
    {"direction": "agent_to_client", "message": {"jsonrpc": "2.0", "id": 2, "result": {"sessionId": "s"}}},
]


# A v2 connection (custom plan types are v2 only).
HEAD_V2 = [
    {"direction": "client_to_agent", "message": {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": 2, "clientCapabilities": {}}}},
    {"direction": "agent_to_client", "message": {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": 2}}},
] + HEAD[2:]


def update(plan_update):
    return ('{"direction":"agent_to_client","message":{"jsonrpc":"2.0","method":"session/update",'
            '"params":{"sessionId":"s","update":' + plan_update + '}}}')


def items(plan_id, entries_json):
    return update('{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"%s","entries":%s}}'
                  % (plan_id, entries_json))


def entry_with_meta(meta_json):
    return '[{"content":"a","priority":"high","status":"pending","_meta":%s}]' % meta_json


def write(path, lines, head=HEAD):
    with open(path, "w", encoding="utf-8") as f:
        for m in head:
            f.write(json.dumps(m, separators=(",", ":")) + "\n")
        for line in lines:
            f.write(line + "\n")


def main():
    out = sys.argv[1]
    budget = 16 * 1024 * 1024 - 4096
    if "--line-bytes" in sys.argv:
        budget = int(sys.argv[sys.argv.index("--line-bytes") + 1]) - 4096
    os.makedirs(out, exist_ok=True)

    n = (budget - 16) // 2
    numbers = '{"a":[' + ",".join(["0"] * n) + "]}"
    write(os.path.join(out, "hostile-numbers.jsonl"), [items("p%d" % i, entry_with_meta(numbers)) for i in range(4)])

    depth = 100
    nest = '{"a":' * depth + "0" + "}" * depth
    deep = '{"d":[' + ",".join([nest] * (budget // (len(nest) + 1))) + "]}"
    write(os.path.join(out, "hostile-deep.jsonl"), [items("p%d" % i, entry_with_meta(deep)) for i in range(4)])

    members = []
    size = 2
    i = 0
    while size < budget:
        member = '"%x":0' % i
        members.append(member)
        size += len(member) + 1
        i += 1
    tiny = "{" + ",".join(members[:-1]) + "}"
    write(os.path.join(out, "hostile-members.jsonl"), [items("p%d" % i, entry_with_meta(tiny)) for i in range(4)])
    once_more = "{" + ",".join(members[:-3]) + ',"k":0,"k":1}'
    write(os.path.join(out, "hostile-repeat.jsonl"), [items("p", entry_with_meta(once_more))])
    twice = "{" + ",".join(m + "," + m for m in members[:len(members) // 2 - 1]) + "}"
    write(os.path.join(out, "hostile-pairs.jsonl"), [items("p", entry_with_meta(twice))])
    plan = '{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[]}}'
    top = ('{"direction":"agent_to_client","message":{"jsonrpc":"2.0","method":"session/update",'
           '"params":{"sessionId":"s","update":%s},%s,"jsonrpc":"2.0"}}' % (plan, ",".join(members[:-12])))
    write(os.path.join(out, "hostile-top.jsonl"), [top])
    envelope = ('{"direction":"agent_to_client","message":{"jsonrpc":"2.0","method":"session/update",'
                '"params":{"sessionId":"s","update":%s}},%s}' % (plan, ",".join(members[:-12])))
    write(os.path.join(out, "hostile-envelope.jsonl"), [envelope])
    batch = '{"direction":"agent_to_client","message":[' + ",".join(["0"] * ((budget - 64) // 2)) + "]}"
    write(os.path.join(out, "hostile-batch.jsonl"), [batch])
    element = '{"method":"session/new"}'
    lifecycle = ('{"direction":"client_to_agent","message":['
                 + ",".join([element] * ((budget - 64) // (len(element) + 1))) + "]}")
    write(os.path.join(out, "hostile-lifecycle.jsonl"), [lifecycle], HEAD_V2[:2])

    entries = "[" + ",".join('{"content":"step %d","priority":"low","status":"pending"}' % k for k in range(10000)) + "]"
    write(os.path.join(out, "hostile-entries.jsonl"), [items("p%d" % i, entries) for i in range(200)])

    text = "x" * (budget - 200)
    markdown = [update('{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m%d","content":"%s"}}'
                       % (i, text)) for i in range(8)]
    write(os.path.join(out, "hostile-content.jsonl"), markdown)

    custom = [update('{"sessionUpdate":"plan_update","plan":{"type":"_acme","planId":"c%d","data":[%s]}}'
                     % (i, ",".join(["0"] * ((budget - 200) // 2)))) for i in range(4)]
    write(os.path.join(out, "hostile-custom.jsonl"), custom, HEAD_V2)

    half = "x" * (budget - 400) + "\\ud83d"
    halves = [items("h%d" % i, '[{"content":"%s","priority":"high","status":"pending"}]' % half) for i in range(4)]
    write(os.path.join(out, "hostile-halves.jsonl"), halves)
    cut = ("x" * 4090 + "\\ud83d") * ((budget - 400) // 4096)
    chunks = [update('{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"%s"}}' % cut)
              for _ in range(4)]
    write(os.path.join(out, "hostile-chunks.jsonl"), chunks)

    repeated = "{" + ",".join('"k":%d' % k for k in range(8)) + "}"
    readings = [items("r%d" % i, '[{"content":"%s","priority":"high","status":"pending","_meta":%s}]'
                      % ("x" * (budget - 400), repeated)) for i in range(4)]
    write(os.path.join(out, "hostile-readings.jsonl"), readings)

    # Requests in flight for session "t" (opened here), lines about session "s".
    other = [
        {"direction": "client_to_agent", "message": {"jsonrpc": "2.0", "id": 3, "method": "session/new",
         "params": {"cwd": "/w", "mcpServers": []}}},
        {"direction": "agent_to_client", "message": {"jsonrpc": "2.0", "id": 3, "result": {"sessionId": "t"}}},
    ]

    def request(i, method, params):
        return json.dumps({"direction": "client_to_agent", "message": {
            "jsonrpc": "2.0", "id": 100 + i, "method": method, "params": params}}, separators=(",", ":"))

    step = '[{"content":"a","priority":"high","status":"pending"}]'
    resumes = [request(i, "session/resume", {"sessionId": "t", "cwd": "/w", "mcpServers": []}) for i in range(9000)]
    write(os.path.join(out, "hostile-resumes.jsonl"), resumes + [items("p", step)] * 200000, HEAD_V2 + other)

    prompts = [request(i, "session/prompt", {"sessionId": "t", "prompt": [{"type": "text", "text": "x"}]})
               for i in range(9000)]
    cancel = ('{"direction":"client_to_agent","message":{"jsonrpc":"2.0","method":"session/cancel",'
              '"params":{"sessionId":"s"}}}')
    write(os.path.join(out, "hostile-cancels.jsonl"), prompts + [cancel] * 300000, HEAD + other)

    loads = []
    for r in range(20):
        ids = range(100 + r * 9000, 100 + (r + 1) * 9000)
        loads += [request(i, "session/load", {"sessionId": "L%d" % i, "cwd": "/w", "mcpServers": []}) for i in ids]
        loads += [json.dumps({"direction": "agent_to_client", "message": {
            "jsonrpc": "2.0", "id": 100 + i, "error": {"code": -32002, "message": "not found"}}},
            separators=(",", ":")) for i in ids]
    write(os.path.join(out, "hostile-loads.jsonl"), loads)


if __name__ == "__main__":
    main()
