#!/usr/bin/env python3
"""Loopback fake of the OpenAI Chat Completions API (streaming SSE or plain JSON) for qwen-code.

usage: fake_openai_chat.py PORT SCRIPT.json

SCRIPT is a list of model turns for each prompt turn: {"tool": NAME, "args": {...}} (one tool
call) or {"text": "..."} (a plain answer; ends the prompt turn). The position in the script is
the number of role "tool" messages after the last role "user" message, so every session/prompt
starts the script again. Tool call ids are unique per request (agents drop repeated provider ids).
Requests without the scripted tool in `tools` (titles, summaries, classifiers) get a short text.
Log: $FAKE_LOG_DIR/fake_openai_chat.log (default /tmp/peers).
"""
import json, os, sys, itertools, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1]); SCRIPT = json.load(open(sys.argv[2]))
LOGDIR = os.environ.get("FAKE_LOG_DIR", "/tmp/peers"); os.makedirs(LOGDIR, exist_ok=True)
LOG = open(os.path.join(LOGDIR, "fake_openai_chat.log"), "a"); ctr = itertools.count(1)
SCRIPT_TOOLS = {s["tool"] for s in SCRIPT if "tool" in s}


def position(messages):
    n = 0
    for m in messages or []:
        if m.get("role") == "user":
            n = 0
        elif m.get("role") == "tool":
            n += 1
    return n


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def _json(self, obj, code=200):
        d = json.dumps(obj).encode()
        self.send_response(code); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(d))); self.end_headers(); self.wfile.write(d)

    def do_GET(self):
        LOG.write("GET %s\n" % self.path); LOG.flush()
        if self.path.rstrip("/").endswith("/models"):
            return self._json({"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "fake"}]})
        self._json({}, 404)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length", 0)))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        n = next(ctr)
        tools = [(t.get("function") or {}).get("name") or t.get("name") for t in (body.get("tools") or [])]
        msgs = body.get("messages") or []
        pos = position(msgs)
        last = msgs[-1] if msgs else {}
        last_text = last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
        # qwen-code side requests that reuse the main tool list (follow-up suggestions) get plain text
        side = last.get("role") == "user" and "SUGGESTION MODE" in (last_text or "")
        scripted = bool(SCRIPT_TOOLS & set(tools)) and not side
        LOG.write("POST %s model=%s stream=%s tools=%d scripted=%s pos=%d names=%s\n" % (
            self.path, body.get("model"), body.get("stream"), len(tools), scripted, pos, ",".join(map(str, tools)))); LOG.flush()
        if os.environ.get("FAKE_DUMP"):
            json.dump(body, open(os.path.join(LOGDIR, "fake_openai_chat_last_%s.json" % ("main" if len(tools) > 8 else "side")), "w"), indent=1)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self._json({"error": {"message": "not faked: %s" % self.path}}, 404)
        model = body.get("model", "fake-model")
        if scripted and pos < len(SCRIPT) and "tool" in SCRIPT[pos]:
            step = SCRIPT[pos]
            call = {"id": "call_fake_%d" % n, "type": "function",
                    "function": {"name": step["tool"], "arguments": json.dumps(step["args"])}}
            message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        else:
            if scripted:
                text = SCRIPT[pos]["text"] if pos < len(SCRIPT) else "All done."
            else:
                text = "" if side else "Fake title"
            message, finish = {"role": "assistant", "content": text}, "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        cid, created = "chatcmpl-fake-%d" % n, int(time.time())
        if not body.get("stream"):
            return self._json({"id": cid, "object": "chat.completion", "created": created, "model": model,
                               "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage})
        chunks = []
        def chunk(delta, fr=None, **extra):
            c = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                 "choices": [{"index": 0, "delta": delta, "finish_reason": fr}]}
            c.update(extra); chunks.append(c)
        if finish == "tool_calls":
            tc = message["tool_calls"][0]
            chunk({"role": "assistant", "content": None,
                   "tool_calls": [{"index": 0, "id": tc["id"], "type": "function",
                                   "function": {"name": tc["function"]["name"], "arguments": ""}}]})
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": tc["function"]["arguments"]}}]})
        else:
            chunk({"role": "assistant", "content": message["content"]})
        chunk({}, finish)
        chunks.append({"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                       "choices": [], "usage": usage})
        data = ("".join("data: %s\n\n" % json.dumps(c) for c in chunks) + "data: [DONE]\n\n").encode()
        self.send_response(200); self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data))); self.end_headers(); self.wfile.write(data)


ThreadingHTTPServer(("127.0.0.1", PORT), H).serve_forever()
