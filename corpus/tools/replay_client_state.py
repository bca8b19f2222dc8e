#!/usr/bin/env python3
"""Consume the test vectors from another language: a minimal client plan
store, checked against `expect.state` and `expect.steps`.

    python3 corpus/tools/replay_client_state.py [corpus/vectors]

The store below is what a client library keeps per session: the legacy plan
and the keyed plans. It trusts its input, so it is checked on the
conformant cases (exit status 1 if any state differs); on not_conformant
cases it only reports how many it happens to match, since a client must
also reject what the reference client rejects (see corpus/README.md).
Python 3.8+, standard library only.
"""

import glob
import json
import os
import sys

ID_KEY = {"draft-2026-05": "id", "v1-1.17": "planId", "v1": "planId", "v2-1.17": "planId", "v2": "planId"}
# Schema 1.20.0 (v1, v2): a markdown plan may name the file that holds it.
MARKDOWN_PATH = {"v1", "v2"}


class PlanStore:
    """What a client shows: per session, the legacy plan and keyed plans."""

    def __init__(self, id_key, markdown_path):
        self.id_key = id_key
        self.markdown_path = markdown_path
        self.sessions = {}
        self.loading = {}  # sessions loads opened and none has loaded yet: loads in flight
        self.unnamed = 0  # session/new or session/fork answers that named no session

    def adopt(self, session_id):
        """An update for a session nobody named: after an answer that named
        none, it is most likely that answer's session (as the reference
        client takes it)."""
        if session_id not in self.sessions and self.unnamed > 0:
            self.unnamed -= 1
            self.open(session_id)

    def open(self, session_id):
        self.sessions.setdefault(session_id, {"legacy": None, "plans": {}})

    def apply(self, session_id, update):
        session = self.sessions.get(session_id)
        if session is None:
            return  # not a session of this connection
        kind = update.get("sessionUpdate")
        if kind == "plan":
            session["legacy"] = [shown_entry(e) for e in update["entries"]]
        elif kind == "plan_update":
            plan = update["plan"]
            session["plans"][plan[self.id_key]] = shown_plan(plan, self.id_key, self.markdown_path)
        elif kind == "plan_removed":
            session["plans"].pop(update[self.id_key], None)

    def to_json(self):
        return {"sessions": self.sessions}


def shown_entry(entry):
    return {k: entry[k] for k in ("content", "priority", "status")}


def shown_plan(plan, id_key, markdown_path):
    kind = plan["type"]
    if kind == "items":
        return {"type": kind, "entries": [shown_entry(e) for e in plan["entries"]]}
    if kind == "file":
        return {"type": kind, "uri": plan["uri"]}
    if kind == "markdown":
        shown = {"type": kind, "content": plan["content"]}
        if markdown_path and plan.get("path") is not None:
            shown["path"] = plan["path"]
        return shown
    return {k: v for k, v in plan.items() if k not in (id_key, "_meta")}  # v2 custom type


def whole_characters(value):
    """Strings with unpaired surrogate escapes ("\\ud83d") read as U+FFFD,
    as the reference client reads them (Python would keep the half)."""
    if isinstance(value, str):
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, list):
        return [whole_characters(v) for v in value]
    if isinstance(value, Members):  # every value of a repeated member kept
        return Members([(whole_characters(k), whole_characters(v)) for k, vs in value.every.items() for v in vs])
    if isinstance(value, dict):
        return {whole_characters(k): whole_characters(v) for k, v in value.items()}
    return value


class Members(dict):
    """A JSON object as read: the last value of a repeated member (as
    Python and JavaScript read it), and in `every` each value of each name.
    RFC 8259 leaves a repeat's meaning open; where a response repeats
    `result`, the reference client opens every session any reading names."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.every = {}
        for name, value in pairs:
            self.every.setdefault(name, []).append(value)


def every_value(message, name):
    """Each value of member `name` of `message` (one unless repeated)."""
    every = getattr(message, "every", {})
    return every.get(name, [message[name]] if name in message else [])


def read_item(item):
    """The JSON-RPC messages of an item as the client's transport would read
    them: one, the messages of a batch, or none (a line that is not a
    message, or a trace-format record)."""
    if "message" in item:
        return [item["message"]]
    if "raw" in item or "raw_hex" in item:
        data = item["raw"].encode("utf-8") if "raw" in item else bytes.fromhex(item["raw_hex"])
        try:
            text = data.decode("utf-8")
            message = whole_characters(json.loads(text, object_pairs_hook=Members))
        except ValueError:  # not UTF-8, not JSON
            return []
        if isinstance(message, list):  # a JSON-RPC batch
            return [m for m in message if isinstance(m, dict)]
        return [message] if isinstance(message, dict) else []
    return []  # "record": the acp-plan trace format; clients skip it


def replay(group, case):
    """Feed a case to the store as the client: returns the states after each message."""
    store = PlanStore(ID_KEY[group["revision"]], group["revision"] in MARKDOWN_PATH)
    sent = {}  # the client's requests in flight: id -> (method, session it opened or closes)
    states = []
    for item in case["messages"]:
        try:
            receive(store, sent, item)
        except (KeyError, TypeError, AttributeError):
            pass  # a malformed message: ignore it rather than crash
        states.append(json.loads(json.dumps(store.to_json())))
    return states


def receive(store, sent, item):
    """One message through the client: its own requests are remembered (the
    client knows what it sent), the agent's responses and updates applied."""
    for message in read_item(item):
        receive_message(store, sent, item["direction"], message)


def receive_message(store, sent, direction, message):
    if direction == "client_to_agent":
        if "method" not in message:
            return
        params = message.get("params") or {}
        opened = None
        if message["method"] in ("session/load", "session/resume") and not isinstance(params.get("sessionId"), str):
            store.unnamed += 1  # the client named no session: an update may be for the one it meant
        elif message["method"] in ("session/load", "session/resume") and "id" in message:
            # Each value of a repeated `sessionId` is a session it may load.
            named = [s for s in every_value(params, "sessionId") if isinstance(s, str)]
            opened = []
            for session in dict.fromkeys(named):
                if session not in store.sessions:
                    store.loading[session] = 0
                if session in store.loading:  # not loaded yet: this load may be the one
                    store.loading[session] += 1
                    opened.append(session)
                store.open(session)  # replayed updates arrive before the answer
        elif message["method"] == "session/close" and isinstance(params.get("sessionId"), str):
            opened = params["sessionId"]  # the session it closes once answered
        if "id" in message:
            sent[json.dumps(message["id"])] = (message["method"], opened)
    elif "method" not in message and "id" in message:
        method, opened = sent.pop(json.dumps(message["id"]), (None, None))
        result = message.get("result")
        if method in ("session/new", "session/fork") and "error" not in message and "result" in message:
            # Every reading of a repeated `result` names a session it may be.
            named = [r.get("sessionId") for r in every_value(message, "result") if isinstance(r, dict)]
            named = [session for session in named if isinstance(session, str)]
            for session in dict.fromkeys(named):
                if session in store.sessions and session not in store.loading:
                    # An id reused (SES-SESSION-ID-REUSED): a new conversation, shown afresh.
                    del store.sessions[session]
                store.loading.pop(session, None)
                store.open(session)
            if not named:
                store.unnamed += 1
        if method == "session/close":
            if "error" not in message and "result" in message:
                store.sessions.pop(opened, None)  # closed: shown no more
        elif isinstance(opened, list):  # a load's sessions not loaded yet
            for session in (s for s in opened if s in store.loading):
                store.loading[session] -= 1
                if "error" not in message:
                    del store.loading[session]  # loaded, whatever its other loads say
                elif store.loading[session] == 0:
                    del store.loading[session]
                    store.sessions.pop(session, None)  # no load of it succeeded: never established
    elif message["method"] == "session/update":
        params = message["params"]
        store.adopt(params["sessionId"])
        store.apply(params["sessionId"], params["update"])


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "vectors")
    tally = {"conformant": [0, 0], "not_conformant": [0, 0], "incomplete": [0, 0]}
    skipped = 0
    mismatches = []
    for path in sorted(glob.glob(os.path.join(root, "*", "*.json"))):
        with open(path, encoding="utf-8") as f:
            group = json.load(f)
        for case in group["cases"]:
            if "limits" in case:
                skipped += 1  # about acp-plan's own input limits
                continue
            expect = case["expect"]
            states = replay(group, case)
            checks = [(len(states), expect["state"])] + [(s["after"], s["state"]) for s in expect.get("steps", [])]
            ok = all(states[after - 1] == state for after, state in checks)
            tally[expect["verdict"]][0] += ok
            tally[expect["verdict"]][1] += 1
            if not ok and expect["verdict"] == "conformant":
                mismatches.append(f"{case['id']} ({os.path.relpath(path, root)})")
    print(f"conformant cases: {tally['conformant'][0]}/{tally['conformant'][1]} states match")
    print(f"not_conformant cases: {tally['not_conformant'][0]}/{tally['not_conformant'][1]} states match "
          "(this store does not validate)")
    print(f"incomplete cases: {tally['incomplete'][0]}/{tally['incomplete'][1]} states match "
          "(the trace's revision is unknown to the checker)")
    print(f"skipped: {skipped} (checker limits)")
    for m in mismatches:
        print(f"MISMATCH {m}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
