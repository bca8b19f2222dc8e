#!/usr/bin/env python3
"""Drive an ACP agent over stdio and log every line (adapted from shared/peers/drive.py).

Sends initialize (client capabilities from env CAPS), session/new (cwd from env CWD) and one
session/prompt per entry of env PROMPTS (a JSON list); answers permission requests with the first
option. Log lines: '>> ' client to agent, '<< ' agent to client, 'STDERR ', 'EOF', 'TIMEOUT'.
Changes from the reference: after the last prompt it keeps reading for DRAIN seconds (default 2)
so late notifications are logged, and agent requests received while draining are answered too.
"""
import json, subprocess, sys, threading, queue, time, os

cmd = sys.argv[1:]
log = open(os.environ.get("LOG", "/dev/stdout"), "w")
lock = threading.Lock()
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
q = queue.Queue()


def write(s):
    with lock:
        log.write(s)
        log.flush()


def rd():
    for line in p.stdout:
        q.put(line)
    q.put(None)


def rderr():
    for line in p.stderr:
        write("STDERR " + line)


threading.Thread(target=rd, daemon=True).start()
threading.Thread(target=rderr, daemon=True).start()


def send(obj):
    s = json.dumps(obj)
    write(">> " + s + "\n")
    p.stdin.write(s + "\n")
    p.stdin.flush()


def handle(m):
    """Answer a request from the agent."""
    meth = m["method"]
    if meth == "session/request_permission":
        opt = m["params"]["options"][0]["optionId"]
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"outcome": {"outcome": "selected", "optionId": opt}}})
    elif meth == "fs/read_text_file":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"content": "hello\n"}})
    elif meth == "fs/write_text_file":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "Method not found"}})


def wait_for(id_, timeout=30):
    """Read until the response to id_ (or timeout); id_ None means read for the whole timeout."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            line = q.get(timeout=0.2)
        except queue.Empty:
            continue
        if line is None:
            write("EOF\n")
            return None
        write("<< " + line.rstrip("\n") + "\n")
        try:
            m = json.loads(line)
        except Exception:
            continue
        if "method" in m and "id" in m:
            handle(m)
        elif id_ is not None and m.get("id") == id_ and "method" not in m:
            return m
    if id_ is not None:
        write("TIMEOUT waiting for id %s\n" % id_)
    return None


caps = json.loads(os.environ.get("CAPS", '{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":false,"plan":{}}'))
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1, "clientCapabilities": caps, "clientInfo": {"name": "probe", "version": "0.0.1"}}})
wait_for(1)
send({"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": os.environ.get("CWD", "/tmp"), "mcpServers": []}})
r = wait_for(2)
sid = (r or {}).get("result", {}).get("sessionId", "x")
prompts = json.loads(os.environ["PROMPTS"]) if "PROMPTS" in os.environ else [os.environ.get("PROMPT", "Make a plan with 3 steps and do them")]
for i, text in enumerate(prompts):
    send({"jsonrpc": "2.0", "id": 3 + i, "method": "session/prompt", "params": {"sessionId": sid, "prompt": [{"type": "text", "text": text}]}})
    wait_for(3 + i, float(os.environ.get("T", "60")))
wait_for(None, float(os.environ.get("DRAIN", "2")))
p.stdin.close()
try:
    p.wait(timeout=5)
except Exception:
    p.kill()
