"""framing.json: TRACE-* (the suite's trace format and limits) and ENV-*
(newline-delimited UTF-8 JSON-RPC 2.0), with the revision's handshake."""

import json

from vectorlib import (
    Case, SESSION, SESSION_SAVED, CWD, JSONRPC, RFC8259,
    steps3, entry, entries_plan, entries_pointer, chunk, notification, session_update, line,
    items, markdown, removed,
)


def framing(rev):
    cases = []

    def case(slug, description, **kw):
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def chunk_line(text="Looking at the parser first."):
        return line(session_update(SESSION, chunk(text)))

    # ---- TRACE-RECORD: envelopes of the trace format
    c = case("trace-record-bad-direction",
             "An envelope whose direction is neither client_to_agent nor agent_to_client is not a record the suite can read.")
    p = c.start()
    c.expect("TRACE-RECORD", c.record(line({"direction": "agent", "message": session_update(SESSION, chunk("Reading files."))})), "")
    c.end_turn(p)

    c = case("trace-record-missing-message", "An envelope without `message`.")
    p = c.start()
    c.expect("TRACE-RECORD", c.record(line({"direction": "agent_to_client", "time": "2026-07-01T09:30:00Z"})), "")
    c.end_turn(p)

    c = case("trace-record-mixed-members",
             "A line that mixes envelope members with JSON-RPC members is neither an envelope nor a message.")
    p = c.start()
    mixed = {"direction": "agent_to_client"}
    mixed.update(session_update(SESSION, chunk("Reading files.")))
    c.expect("TRACE-RECORD", c.record(line(mixed)), "")
    c.end_turn(p)

    c = case("trace-record-message-not-object", "An envelope whose `message` is a string (a double-encoded message).")
    p = c.start()
    c.expect("TRACE-RECORD", c.record(line({"direction": "agent_to_client", "message": chunk_line()})), "")
    c.end_turn(p)

    c = case("trace-record-envelope-with-time",
             "A well-formed envelope with the optional `time` string is read like any message.",
             near_miss=["TRACE-RECORD"])
    p = c.start()
    c.record(line({"direction": "agent_to_client", "time": "2026-07-01T09:30:00.125Z",
                         "message": session_update(SESSION, chunk("Reading files."))}))
    c.end_turn(p)

    c = case("trace-record-bare-message",
             "A bare JSON-RPC message whose method tells its direction (session/update: agent to client) needs no envelope.",
             near_miss=["TRACE-RECORD", "TRACE-DIRECTION"])
    p = c.start()
    c.record(chunk_line())
    c.end_turn(p)

    # ---- TRACE-LIMIT: the checker's limits (cases carry `limits`)
    c = case("trace-limit-entries",
             "A plan with more entries than the checker's limit (here 2) is reported and not applied.",
             limits={"max_entries_per_plan": 2})
    p = c.start()
    c.expect("TRACE-LIMIT", c.update(SESSION, entries_plan(rev, steps3()), shown=False), entries_pointer(rev))
    c.end_turn(p)

    c = case("trace-limit-entries-at-limit",
             "A plan with exactly as many entries as the limit is checked and applied.",
             limits={"max_entries_per_plan": 3}, near_miss=["TRACE-LIMIT"])
    p = c.start()
    c.update(SESSION, entries_plan(rev, steps3()))
    c.end_turn(p)

    c = case("trace-limit-state-bytes",
             "A plan whose entries would take the client state over the checker's byte budget (here 64 bytes) is reported and not applied.",
             limits={"max_state_bytes": 64})
    p = c.start()
    c.expect("TRACE-LIMIT", c.update(SESSION, entries_plan(rev, steps3()), shown=False), "")
    c.end_turn(p)

    c = case("trace-limit-state-bytes-within",
             "The same plan within a byte budget of 4096 is applied.",
             limits={"max_state_bytes": 4096}, near_miss=["TRACE-LIMIT"])
    p = c.start()
    c.update(SESSION, entries_plan(rev, steps3()))
    c.end_turn(p)

    # A request past --max-outstanding-requests is not tracked, so its
    # answer cannot be paired: what the answer may have done is taken as
    # done, so the limit never becomes a party's error.
    c = case("trace-limit-untracked-session-new",
             "Two session/new in flight with room to track one (--max-outstanding-requests 1): the second is not tracked, and the session its answer names is taken as opened, so its plan is no SES-UNKNOWN-SESSION.",
             limits={"max_outstanding_requests": 1}, near_miss=["SES-UNKNOWN-SESSION"])
    c.initialize()
    first = c.new_session(answer=False)
    second = c.new_session(answer=False)
    c.expect("TRACE-LIMIT", c.last, "")
    c.agent_result(first, {"sessionId": SESSION})
    c.open(SESSION)
    c.agent_result(second, {"sessionId": SESSION_SAVED})
    c.open(SESSION_SAVED)
    p = c.prompt(SESSION_SAVED)
    c.update(SESSION_SAVED, entries_plan(rev, steps3()))
    c.end_turn(p)

    c = case("trace-limit-untracked-quiet-resume",
             "A session/resume that asks for no replay, past --max-outstanding-requests (1, taken by a prompt in flight): its answer cannot be paired, so a plan for the session after that answer is no SES-RESUME-REPLAY.",
             limits={"max_outstanding_requests": 1}, near_miss=["SES-RESUME-REPLAY"])
    p = c.start()
    resume = c.client_request("session/resume", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
    c.expect("TRACE-LIMIT", c.last, "")
    c.open(SESSION_SAVED)
    c.agent_result(resume, {})
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.end_turn(p)

    # A plan update not applied at a limit may be what a later removal or
    # update of the same plan relies on.
    c = case("trace-limit-removal-of-an-untracked-plan",
             "A second plan past --max-plans-per-session (1) is not tracked; its removal names a plan live for the agent, so it is no ID-REMOVE-UNKNOWN.",
             limits={"max_plans_per_session": 1}, near_miss=["ID-REMOVE-UNKNOWN"])
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3()))
    c.expect("TRACE-LIMIT", c.update(SESSION, markdown(rev, "plan-2", "# Notes"), shown=False), "")
    c.update(SESSION, removed(rev, "plan-2"))
    c.end_turn(p)

    c = case("trace-limit-state-bytes-still-judged",
             "A plan update too large for --max-state-bytes (here 400) is not applied, but what it breaks is still said: it changes the plan's type (ID-TYPE-CHANGE). The next update is not compared with the older plan still shown (no second ID-TYPE-CHANGE).",
             limits={"max_state_bytes": 400})
    p = c.start()
    c.update(SESSION, markdown(rev, "plan-1", "# Plan"))
    big = c.update(SESSION, items(rev, "plan-1", steps3()), shown=False)
    c.expect("ID-TYPE-CHANGE", big, "")
    c.expect("TRACE-LIMIT", big, "")
    c.update(SESSION, items(rev, "plan-1", [entry("Ship")]))
    c.end_turn(p)

    c = case("trace-limit-line-too-long",
             "A trace line longer than the checker's limit (here 256 bytes) is skipped unchecked.",
             limits={"max_line_bytes": 256})
    p = c.start()
    c.expect("TRACE-LIMIT", c.record(chunk_line("I will now go through every module of the parser. " * 6)), "")
    c.end_turn(p)

    # A line the limits keep the checker from reading may have been any
    # message: no rule judges a later line as if it were known absent.
    c = case("trace-limit-request-line-too-long",
             "A prompt longer than --max-line-bytes (here 700) is skipped unchecked; its answer then pairs with no request the suite read, which proves nothing: no ENV-UNKNOWN-RESPONSE.",
             limits={"max_line_bytes": 700}, near_miss=["ENV-UNKNOWN-RESPONSE"])
    c.initialize()
    c.new_session()
    prompt = c.client_message("session/prompt", {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Refactor the parser. " * 40}]})
    c.expect("TRACE-LIMIT", c.record(line({"direction": "client_to_agent", "message": prompt})), "")
    c.update(SESSION, entries_plan(rev, steps3()))
    c.end_turn(prompt["id"])

    c = case("trace-limit-initialize-too-deep",
             "An initialize nested deeper than --max-depth (here 8, in its `_meta`) is skipped unchecked: the session requests after it are no SES-BEFORE-INIT, the revision is the one its answer names, and what the client advertised is not known, so no plan update is judged against the capability.",
             limits={"max_depth": 8}, near_miss=["SES-BEFORE-INIT"])
    deep = {"level": 10}
    for level in range(9, 0, -1):
        deep = {"level": level, "next": deep}
    init = c.client_message("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": c.capabilities({}), "_meta": {"acme.dev/tree": deep}})
    c.expect("TRACE-LIMIT", c.record(line({"direction": "client_to_agent", "message": init})), "")
    c.answer_initialize(init["id"])
    c.new_session()
    p = c.prompt()
    c.update(SESSION, items(rev, "plan-1", steps3()))
    c.end_turn(p)

    c = case("trace-limit-depth",
             "A message nested deeper than the checker's limit (here 16 levels) is skipped unchecked.",
             limits={"max_depth": 16})
    p = c.start()
    deep = {"level": 20}
    for level in range(19, 0, -1):
        deep = {"level": level, "next": deep}
    update = chunk("Reading files.")
    update["_meta"] = {"acme.dev/tree": deep}
    c.expect("TRACE-LIMIT", c.update(SESSION, update, shown=False), "")
    c.end_turn(p)

    # ---- TRACE-DIRECTION: bare messages that cannot be placed
    c = case("trace-direction-unplaced-request",
             "A bare request with an extension method does not say who sent it; the suite warns instead of guessing.")
    p = c.start()
    ext = {"jsonrpc": "2.0", "id": "ext-1", "method": "_acme/index_status", "params": {"sessionId": SESSION}}
    c.expect("TRACE-DIRECTION", c.record(line(ext)), "/method")
    c.client_result("ext-1", {"ready": True})
    c.end_turn(p)

    c = case("trace-direction-enveloped-request",
             "The same extension request in an envelope: its direction is known.",
             near_miss=["TRACE-DIRECTION"])
    p = c.start()
    c.record(line({"direction": "agent_to_client", "message": ext}))
    c.client_result("ext-1", {"ready": True})
    c.end_turn(p)

    # Every method of the revision's schema says its direction (the
    # official schemas' x-side), so a bare call of one is placed.
    if rev.protocol_version == 2:
        calls = [("auth/login", {"methodId": "agent"}), ("auth/logout", {})]
        crossing = [("tool_call/cancel", {"sessionId": SESSION, "toolCallId": "call_001"})]
    else:
        calls = [("authenticate", {"methodId": "agent"}), ("logout", {})]
        crossing = []
    c = case("trace-direction-bare-auth-calls",
             "Bare authentication calls of the revision (v2's auth/login and auth/logout, v1's authenticate and logout) and their answers: the method says the client sent them.",
             near_miss=["TRACE-DIRECTION"])
    p = c.start()
    c.end_turn(p)
    for n, (method, params) in enumerate(calls + crossing):
        c.record(line({"jsonrpc": "2.0", "id": f"call-{n}", "method": method, "params": params}))
        c.record(line({"jsonrpc": "2.0", "id": f"call-{n}", "result": {}}))

    c = case("trace-direction-bare-both-ways",
             "A bare mcp/message request: the schema lets either side send it, so the method does not say who did.")
    p = c.start()
    c.end_turn(p)
    mcp = {"jsonrpc": "2.0", "id": "mcp-1", "method": "mcp/message", "params": {"sessionId": SESSION}}
    c.expect("TRACE-DIRECTION", c.record(line(mcp)), "/method")

    def permission_then_cancel(c, bare):
        """Prompt id 3 from the client and a permission request with id 3
        from the agent are in flight together; the user cancels."""
        p = c.start()
        assert p == 3
        c.agent_request("session/request_permission", {
            "sessionId": SESSION,
            "toolCall": {"toolCallId": "call_001", "title": "Edit src/parser.rs", "kind": "edit", "status": "pending"},
            "options": [{"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"},
                        {"optionId": "reject-once", "name": "Reject", "kind": "reject_once"}],
        }, id=3)
        c.c2a(notification("session/cancel", {"sessionId": SESSION}))
        answer = {"jsonrpc": "2.0", "id": 3, "result": {"outcome": {"outcome": "cancelled"}}}
        end = {"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "cancelled"}}
        if bare:
            return c.record(line(answer)), c.record(line(end))
        return c.c2a(answer), c.a2c(end)

    c = case("trace-direction-ambiguous-response",
             "Request id 3 is in flight in both directions; a bare response with id 3 cannot be placed (the suite assumes it answers the older request).")
    first, _ = permission_then_cancel(c, bare=True)
    c.expect("TRACE-DIRECTION", first, "/id")

    c = case("ids-in-flight-in-both-directions",
             "Each side numbers its own requests: the client's prompt and the agent's permission request both use id 3, and each is answered once.",
             near_miss=["TRACE-DIRECTION", "ENV-DUPLICATE-RESPONSE", "ENV-UNKNOWN-RESPONSE", "ENV-ID-REUSE"],
             docs=[(JSONRPC, "5. Response object")])
    permission_then_cancel(c, bare=False)

    # ---- ENV-UTF8
    def chunk_bytes(text_bytes):
        return (b'{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"' + SESSION.encode()
                + b'","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"'
                + text_bytes + b'"}}}}')

    c = case("env-utf8-latin1-byte", "A message encoded in Latin-1 (the byte 0xE9 for \"é\") is not UTF-8.")
    p = c.start()
    c.expect("ENV-UTF8", c.raw_hex("agent_to_client", chunk_bytes(b"Updated the caf\xe9 module.")), "")
    c.end_turn(p)

    c = case("env-utf8-multibyte", "The same message in UTF-8 (0xC3 0xA9 for \"é\", and a four-byte emoji).",
             near_miss=["ENV-UTF8"])
    p = c.start()
    c.raw_hex("agent_to_client", chunk_bytes("Updated the café module ✅ 🚀.".encode("utf-8")))
    c.end_turn(p)

    # ---- ENV-JSON
    plan_line = line(session_update(SESSION, entries_plan(rev, steps3())))

    c = case("env-json-truncated", "A plan update cut off in the middle is not JSON; it is not applied.")
    p = c.start()
    c.expect("ENV-JSON", c.raw("agent_to_client", plan_line[: len(plan_line) // 2]), "")
    c.end_turn(p)

    c = case("env-json-embedded-newline",
             "A message pretty-printed over two lines: neither line is a JSON value (messages MUST NOT contain embedded newlines).")
    p = c.start()
    cut = plan_line.index('"update"')
    c.expect("ENV-JSON", c.raw("agent_to_client", plan_line[:cut]), "")
    c.expect("ENV-JSON", c.raw("agent_to_client", plan_line[cut:]), "")
    c.end_turn(p)

    # ---- ENV-BOM
    c = case("env-bom-plan-update",
             "A plan update that starts with a UTF-8 byte order mark (as .NET writes by default): named, and what follows is read, checked and shown.",
             docs=[(RFC8259, "8.1. Character Encoding")])
    p = c.start()
    c.expect("ENV-BOM", c.raw_hex("agent_to_client", b"\xef\xbb\xbf" + plan_line.encode()), "")
    c.apply(SESSION, entries_plan(rev, steps3()))
    c.end_turn(p)

    c = case("env-bom-inside-a-string",
             "U+FEFF inside an entry's text (a zero-width no-break space) is a character like any other.",
             near_miss=["ENV-BOM", "ENV-JSON"], docs=[(RFC8259, "8.1. Character Encoding")])
    p = c.start()
    update = entries_plan(rev, [entry("\ufeffAnalyze the existing codebase structure", "high", "pending")])
    c.update(SESSION, update)
    c.end_turn(p)

    c = case("env-bom-at-the-start-of-a-bare-trace",
             "A bare trace whose first line starts with a byte order mark: the file's writer may have put it there as well as the sender, so the ambiguity is said once (TRACE-BOM), against no party.",
             near_miss=["ENV-BOM", "TRACE-RECORD"])
    c.expect("TRACE-BOM", c.record("\ufeff" + line(notification("_acme.dev/hello", {}))), "")
    p = c.start()
    c.end_turn(p)

    c = case("env-bom-before-an-envelope",
             "A trace line whose envelope follows a byte order mark: the trace file's fault (TRACE-RECORD), not the message's; the message is still checked.",
             near_miss=["ENV-BOM"])
    p = c.start()
    c.expect("TRACE-RECORD", c.record("\ufeff" + line({"direction": "agent_to_client",
                                                             "message": session_update(SESSION, chunk("Reading files."))})), "")
    c.end_turn(p)

    c = case("env-json-complete-line", "The complete plan update on one line, sent as raw bytes, is read and applied.",
             near_miss=["ENV-JSON", "ENV-OBJECT", "ENV-UTF8"])
    p = c.start()
    c.raw("agent_to_client", plan_line)
    c.apply(SESSION, entries_plan(rev, steps3()))
    c.end_turn(p)

    # ---- ENV-OBJECT
    c = case("env-object-double-encoded", "A message written as a JSON string (encoded twice) is JSON but not a JSON-RPC object.")
    p = c.start()
    c.expect("ENV-OBJECT", c.raw("agent_to_client", json.dumps(plan_line)), "")
    c.end_turn(p)

    c = case("env-object-number", "A line holding a bare number.")
    p = c.start()
    c.expect("ENV-OBJECT", c.raw("agent_to_client", "42"), "")
    c.end_turn(p)

    # ---- ENV-BATCH (v2 allows batches: see readings.json)
    if rev.cap_key is not None:
        c = case("env-batch", "A JSON-RPC batch (an array of messages) on one line, which this revision's transport does not mention: noted, and each message is checked.")
        p = c.start()
        c.expect("ENV-BATCH", c.raw("agent_to_client", "[" + chunk_line("Step one.") + "," + chunk_line("Step two.") + "]"), "")
        c.end_turn(p)

    c = case("env-batch-split", "The same two messages on two lines.",
             near_miss=["ENV-BATCH"] if rev.cap_key is not None else ["ENV-BATCH-EMPTY"])
    p = c.start()
    c.raw("agent_to_client", chunk_line("Step one."))
    c.raw("agent_to_client", chunk_line("Step two."))
    c.end_turn(p)

    # ---- ENV-DUPLICATE-KEY
    c = case("env-duplicate-key", "A message with the member `jsonrpc` twice (readers disagree on which one counts); it is checked under each value.")
    p = c.start()
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", '{"jsonrpc":"2.0","jsonrpc":"2.0",' + chunk_line()[len('{"jsonrpc":"2.0",'):]), "/jsonrpc")
    c.end_turn(p)

    c = case("env-duplicate-key-other-levels",
             "The same member name at different levels of nesting is not a duplicate.", near_miss=["ENV-DUPLICATE-KEY"])
    p = c.start()
    update = chunk("Reading files.")
    update["_meta"] = {"jsonrpc": "2.0", "method": "traced"}
    c.raw("agent_to_client", line(session_update(SESSION, update)))
    c.end_turn(p)

    # ---- ENV-VERSION
    def versioned(version):
        m = session_update(SESSION, chunk("Reading files."))
        if version is None:
            del m["jsonrpc"]
        else:
            m["jsonrpc"] = version
        return m

    c = case("env-version-1-0", "`jsonrpc` is \"1.0\".")
    p = c.start()
    c.expect("ENV-VERSION", c.a2c(versioned("1.0")), "/jsonrpc")
    c.end_turn(p)

    c = case("env-version-missing", "A notification without the `jsonrpc` member.")
    p = c.start()
    c.expect("ENV-VERSION", c.a2c(versioned(None)), "/jsonrpc")
    c.end_turn(p)

    c = case("env-version-number", "`jsonrpc` is the number 2.0, not the string \"2.0\".")
    p = c.start()
    c.expect("ENV-VERSION", c.a2c(versioned(2.0)), "/jsonrpc")
    c.end_turn(p)

    c = case("env-version-2-0", "`jsonrpc` is exactly \"2.0\".", near_miss=["ENV-VERSION"])
    p = c.start()
    c.a2c(versioned("2.0"))
    c.end_turn(p)

    # ---- ENV-METHOD
    read_params = {"sessionId": SESSION, "path": "/home/dev/project/src/parser.rs"}

    c = case("env-method-missing", "A request with an id and params but no `method` (nor result or error).")
    p = c.start()
    c.expect("ENV-METHOD", c.a2c({"jsonrpc": "2.0", "id": 0, "params": read_params}), "")
    c.end_turn(p)

    c = case("env-method-not-string", "`method` is an array.")
    p = c.start()
    c.expect("ENV-METHOD", c.a2c({"jsonrpc": "2.0", "id": 0, "method": ["fs/read_text_file"], "params": read_params}), "/method")
    c.end_turn(p)

    c = case("env-method-present", "The agent's fs/read_text_file request, answered by the client.", near_miss=["ENV-METHOD"])
    p = c.start()
    r = c.agent_request("fs/read_text_file", read_params)
    c.client_result(r, {"content": "fn parse() {}\n"})
    c.end_turn(p)

    # ---- ENV-ID
    mode_params = {"sessionId": SESSION, "modeId": "architect"}
    invalid_request = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}

    c = case("env-id-object", "A request id that is an object; the agent answers with id null (Invalid Request).")
    p = c.start()
    c.expect("ENV-ID", c.c2a({"jsonrpc": "2.0", "id": {"seq": 4}, "method": "session/set_mode", "params": mode_params}), "/id")
    c.a2c(invalid_request)
    c.end_turn(p)

    c = case("env-id-boolean", "A request id that is a boolean.")
    p = c.start()
    c.expect("ENV-ID", c.c2a({"jsonrpc": "2.0", "id": True, "method": "session/set_mode", "params": mode_params}), "/id")
    c.a2c(invalid_request)
    c.end_turn(p)

    c = case("env-id-string", "A string request id, answered with the same string.", near_miss=["ENV-ID", "ENV-UNKNOWN-RESPONSE"])
    p = c.start()
    c.client_request("session/set_mode", mode_params, id="set-mode-1")
    c.agent_result("set-mode-1", {})
    c.end_turn(p)

    # ---- ENV-PARAMS
    c = case("env-params-string", "session/cancel with the session id as a bare string instead of a params object.")
    p = c.start()
    c.expect("ENV-PARAMS", c.c2a({"jsonrpc": "2.0", "method": "session/cancel", "params": SESSION}), "/params")
    c.end_turn(p, "cancelled")

    c = case("env-params-object", "session/cancel with its params object.", near_miss=["ENV-PARAMS"])
    p = c.start()
    c.c2a(notification("session/cancel", {"sessionId": SESSION}))
    c.end_turn(p, "cancelled")

    # ---- ENV-RESULT-ERROR
    c = case("env-result-and-error", "A response with both `result` and `error`.")
    p = c.start()
    c.expect("ENV-RESULT-ERROR", c.a2c({"jsonrpc": "2.0", "id": p, "result": {"stopReason": "end_turn"},
                                         "error": {"code": -32603, "message": "Internal error"}}), "")

    c = case("env-response-without-id", "A response without an `id` member.")
    p = c.start()
    c.expect("ENV-RESULT-ERROR", c.a2c({"jsonrpc": "2.0", "result": {"stopReason": "end_turn"}}), "/id")

    c = case("env-error-response", "A prompt that fails: the response carries only `error`.", near_miss=["ENV-RESULT-ERROR"])
    p = c.start()
    c.a2c({"jsonrpc": "2.0", "id": p, "error": {"code": -32603, "message": "Internal error", "data": {"reason": "model unavailable"}}})

    # ---- ENV-UNKNOWN-RESPONSE
    c = case("env-unknown-response", "The agent answers request id 42, which the client never sent.")
    p = c.start()
    c.expect("ENV-UNKNOWN-RESPONSE", c.agent_result(42, {}), "/id")
    c.end_turn(p)

    c = case("env-unknown-response-own-id",
             "The client sends a response with the id of its own prompt: only the agent may answer it, and the agent has no request 3 in flight.")
    p = c.start()
    c.expect("ENV-UNKNOWN-RESPONSE", c.client_result(p, {"outcome": {"outcome": "cancelled"}}), "/id")
    c.end_turn(p)

    c = case("env-null-id-response",
             "An error response with id null answers a request whose id could not be read; it answers no request and is not an unknown response.",
             near_miss=["ENV-UNKNOWN-RESPONSE"])
    p = c.start()
    c.a2c({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
    c.end_turn(p)

    c = case("env-response-id-written-as-float",
             "The agent answers request id 3 with id 3.0: the same JSON number, so it answers the prompt.",
             near_miss=["ENV-UNKNOWN-RESPONSE"], docs=[(JSONRPC, "5. Response object")])
    p = c.start()
    c.a2c({"jsonrpc": "2.0", "id": float(p), "result": {"stopReason": "end_turn"}})

    # ---- ENV-DUPLICATE-RESPONSE
    c = case("env-duplicate-response", "The agent answers the prompt twice.")
    p = c.start()
    c.end_turn(p)
    c.expect("ENV-DUPLICATE-RESPONSE", c.end_turn(p), "/id")

    # ---- ENV-ID-REUSE
    c = case("env-id-reuse", "The client reuses id 3 for session/set_mode while its prompt with id 3 still awaits its response.")
    p = c.start()
    c.client_request("session/set_mode", mode_params, id=p)
    c.expect("ENV-ID-REUSE", c.last, "/id")
    c.agent_result(p, {})

    c = case("env-id-reused-after-answer", "Id 3 is used again after its prompt was answered.",
             near_miss=["ENV-ID-REUSE", "ENV-DUPLICATE-RESPONSE"])
    p = c.start()
    c.end_turn(p)
    c.client_request("session/set_mode", mode_params, id=p)
    c.agent_result(p, {})

    return ("Framing: the suite's trace records and limits (TRACE-*), and newline-delimited UTF-8 JSON-RPC 2.0 (ENV-*).", cases)
