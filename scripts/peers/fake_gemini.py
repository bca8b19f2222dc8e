#!/usr/bin/env python3
"""Loopback fake of the Gemini API (generativelanguage v1beta) for gemini-cli.

usage: fake_gemini.py PORT SCRIPT.json

SCRIPT is a list of model turns for each prompt turn: each item is either
  {"tool": NAME, "args": {...}}   (one functionCall), or
  {"text": "..."}                 (a plain answer; ends the prompt turn).
The position in the script is the number of functionResponse parts the request carries after
the last user text message, so every session/prompt starts the script again.
Requests without tools (side calls such as next-speaker checks, titles, routing) get a short
text or JSON answer. Log: $FAKE_LOG_DIR/fake_gemini.log (default /tmp/peers).
"""
import json, os, sys, itertools, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1]); SCRIPT = json.load(open(sys.argv[2]))
LOGDIR = os.environ.get("FAKE_LOG_DIR", "/tmp/peers"); os.makedirs(LOGDIR, exist_ok=True)
LOG = open(os.path.join(LOGDIR, "fake_gemini.log"), "a"); ctr = itertools.count(1)


def position(contents):
    """functionResponse parts after the last user message that carries text."""
    n = 0
    for c in contents or []:
        parts = c.get("parts") or []
        if c.get("role", "user") == "user" and any("text" in p for p in parts) and not any("functionResponse" in p for p in parts):
            n = 0
        n += sum(1 for p in parts if "functionResponse" in p)
    return n


def tool_names(body):
    names = []
    for t in body.get("tools") or []:
        for fd in t.get("functionDeclarations") or []:
            names.append(fd.get("name"))
    return names


def response(parts, model):
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": model, "responseId": "fake-%d" % next(ctr)}


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
        if "/models" in self.path:
            return self._json({"models": [{"name": "models/gemini-2.5-flash", "supportedGenerationMethods": ["generateContent"]}]})
        self._json({}, 404)

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length", 0)))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        model = path.rsplit("/", 1)[-1].split(":")[0]
        if ":countTokens" in path:
            LOG.write("POST %s\n" % self.path); LOG.flush()
            return self._json({"totalTokens": 10})
        if ":embedContent" in path or ":batchEmbedContents" in path:
            LOG.write("POST %s\n" % self.path); LOG.flush()
            return self._json({"embedding": {"values": [0.0] * 8}})
        tools = tool_names(body)
        pos = position(body.get("contents"))
        gc = body.get("generationConfig") or {}
        LOG.write("POST %s tools=%d has_write_todos=%s pos=%d mime=%s\n" % (
            self.path, len(tools), "write_todos" in tools, pos, gc.get("responseMimeType"))); LOG.flush()
        if tools and pos < len(SCRIPT):
            step = SCRIPT[pos]
            if "tool" in step:
                parts = [{"functionCall": {"name": step["tool"], "args": step["args"]}}]
            else:
                parts = [{"text": step["text"]}]
        elif tools:
            parts = [{"text": "All done."}]
        elif gc.get("responseMimeType") == "application/json":
            # side calls that want JSON (next-speaker check, routing, loop detection...)
            parts = [{"text": json.dumps({"reasoning": "fake", "next_speaker": "user", "model_choice": "flash",
                                          "is_loop": False, "confidence": 0.0})}]
        else:
            parts = [{"text": "Fake title"}]
        obj = response(parts, model)
        if ":streamGenerateContent" in path:
            data = ("data: %s\r\n\r\n" % json.dumps(obj)).encode()
            self.send_response(200); self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(data))); self.end_headers(); self.wfile.write(data)
        else:
            self._json(obj)


ThreadingHTTPServer(("127.0.0.1", PORT), H).serve_forever()
