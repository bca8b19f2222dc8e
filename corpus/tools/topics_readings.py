"""readings.json: messages that readers can read more than one way (a
repeated member, an array where an object is due, a batch, an escaped
string) and frames that are odd but legal. One party's fault never becomes
an error for the other; nothing hides a violation: every reading is checked.
"""

from vectorlib import (
    Case, SESSION, SESSION_2, CWD, JSONRPC, RFC8259, TRANSPORTS, PROMPT_TURN,
    steps3, entry, legacy, items, markdown, chunk, notification, session_update, line,
)

CAP_POINTER = "/params/update/sessionUpdate"


def repeat(message, member, first, second):
    """`message` as one line with `member` (a "key":value text that occurs
    once in it) written twice: first as `first`, then as `second`."""
    text = line(message)
    assert text.count(member) == 1, (member, text)
    return text.replace(member, first + "," + second)


def readings(rev):
    cases = []

    def case(slug, description, **kw):
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def plan_of(entries, plan_id="plan-1"):
        """The revision's full-list plan update."""
        return legacy(entries) if rev.legacy else items(rev, plan_id, entries)

    def entries_at(index, member):
        base = "/params/update/entries" if rev.legacy else "/params/update/plan/entries"
        return f"{base}/{index}/{member}"

    # ---- batches
    batch_update = plan_of(steps3("in_progress"))
    if rev.cap_key is not None:
        c = case("batch-plan-update-without-capability",
                 "A plan_update inside a batch, without the capability: the batch is noted and its messages are still checked.",
                 docs=[(JSONRPC, "6. Batch")])
        p = c.start({})
        update = items(rev, "plan-1", steps3("in_progress"))
        c.expect("ENV-BATCH", c.raw("agent_to_client", "[" + line(session_update(SESSION, chunk("Planning."))) + ","
                                    + line(session_update(SESSION, update)) + "]"), "")
        c.expect("CAP-PLAN-OPS", c.last, "/1" + CAP_POINTER)
        c.end_turn(p)

        c = case("batch-session-new",
                 "session/new sent and answered inside batches is tracked: the plan the agent sends for the session is shown.",
                 docs=[(JSONRPC, "6. Batch")])
        c.initialize()
        new = {"jsonrpc": "2.0", "id": 1, "method": "session/new", "params": {"cwd": "/home/dev/project", "mcpServers": []}}
        c.expect("ENV-BATCH", c.raw("client_to_agent", "[" + line(new) + "]"), "")
        answer = {"jsonrpc": "2.0", "id": 1, "result": {"sessionId": SESSION}}
        c.expect("ENV-BATCH", c.raw("agent_to_client", "[" + line(answer) + "," + line(session_update(SESSION, batch_update)) + "]"), "")
        c.open(SESSION)
        c.apply(SESSION, batch_update)

        c = case("batch-two-prompts-cancel-one",
                 "Two prompts for two sessions in one batch are two turns: the client cancels the first, its turn ends, and a plan update for that session after the end is still noticed.",
                 docs=[(JSONRPC, "6. Batch"), (PROMPT_TURN, "Cancellation")])
        c.initialize()
        c.new_session(SESSION)
        c.new_session(SESSION_2)
        first = c.client_message("session/prompt",
                                 {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Refactor the parser"}]})
        second = c.client_message("session/prompt",
                                  {"sessionId": SESSION_2, "prompt": [{"type": "text", "text": "Add the tests"}]})
        c.expect("ENV-BATCH", c.raw("client_to_agent", "[" + line(first) + "," + line(second) + "]"), "")
        c.c2a(notification("session/cancel", {"sessionId": SESSION}))
        c.end_turn(first["id"], "cancelled")
        c.expect("SES-UPDATE-AFTER-CANCEL", c.update(SESSION, batch_update), "/params/update/sessionUpdate")
        c.end_turn(second["id"])

        c = case("batch-empty", "An empty batch: JSON-RPC 2.0 calls it invalid; the revision's transport does not mention batches.")
        p = c.start()
        c.expect("ENV-BATCH", c.raw("agent_to_client", "[]"), "")
        c.end_turn(p)
    else:
        c = case("batch-legal", "Protocol v2 allows batches: each message in one is checked and applied.",
                 near_miss=["ENV-BATCH-EMPTY", "ENV-BATCH-LIFECYCLE"], docs=[(TRANSPORTS, "Batches (protocol v2)")])
        p = c.start()
        c.raw("agent_to_client", "[" + line(session_update(SESSION, chunk("Planning."))) + ","
              + line(session_update(SESSION, batch_update)) + "]")
        c.apply(SESSION, batch_update)
        c.end_turn(p)

        c = case("batch-lifecycle-prompt",
                 "\"Clients and agents SHOULD NOT batch lifecycle-sensitive messages such as ... session/prompt\": the client sends its prompt inside a batch; the prompt is still tracked and the plan shown.",
                 docs=[(TRANSPORTS, "Batches (protocol v2)")])
        c.initialize()
        c.new_session()
        prompt = c.client_message("session/prompt",
                                  {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Refactor the parser"}]})
        c.expect("ENV-BATCH-LIFECYCLE", c.raw("client_to_agent", "[" + line(prompt) + "]"), "/0/method")
        c.update(SESSION, batch_update)
        c.end_turn(prompt["id"])

        c = case("batch-lifecycle-session-new",
                 "session/new batched with a read-only session/list: only the lifecycle-sensitive message is reported, at its index in the batch.",
                 docs=[(TRANSPORTS, "Batches (protocol v2)")])
        c.initialize()
        listing = c.client_message("session/list", {})
        new = c.client_message("session/new", {"cwd": CWD, "mcpServers": []})
        c.expect("ENV-BATCH-LIFECYCLE", c.raw("client_to_agent", "[" + line(listing) + "," + line(new) + "]"), "/1/method")
        c.raw("agent_to_client", "[" + line({"jsonrpc": "2.0", "id": listing["id"], "result": {"sessions": []}}) + ","
              + line({"jsonrpc": "2.0", "id": new["id"], "result": {"sessionId": SESSION}}) + "]")
        c.open(SESSION)
        p = c.prompt()
        c.update(SESSION, batch_update)
        c.end_turn(p)

        c = case("batch-not-lifecycle",
                 "A client batch of a read-only session/list, answered with an array: no lifecycle-sensitive message is batched.",
                 near_miss=["ENV-BATCH-LIFECYCLE"], docs=[(TRANSPORTS, "Batches (protocol v2)")])
        c.initialize()
        c.new_session()
        listing = c.client_message("session/list", {})
        c.raw("client_to_agent", "[" + line(listing) + "]")
        c.raw("agent_to_client", "[" + line({"jsonrpc": "2.0", "id": listing["id"], "result": {"sessions": []}}) + "]")
        p = c.prompt()
        c.update(SESSION, batch_update)
        c.end_turn(p)

        c = case("batch-violation-inside", "A bad status inside a batch is found, at its index in the batch.")
        p = c.start()
        bad = items(rev, "plan-1", [entry("Analyze the existing codebase structure", "high", "blocked")])
        c.expect("SHAPE-STATUS", c.raw("agent_to_client", "[" + line(session_update(SESSION, bad)) + "]"),
                 "/0" + entries_at(0, "status"))
        c.end_turn(p)

        c = case("batch-empty", "\"The batch MUST be an array with at least one value\": an empty array is not a batch.",
                 docs=[(TRANSPORTS, "Batches (protocol v2)")])
        p = c.start()
        c.expect("ENV-BATCH-EMPTY", c.raw("agent_to_client", "[]"), "")
        c.end_turn(p)

    # ---- repeated members: every value is checked
    c = case("repeat-status-one-bogus",
             "An entry's `status` given twice, once with a value no revision knows: readers that keep the first see a bad status.",
             docs=[(RFC8259, "4. Objects")])
    p = c.start()
    good = plan_of(steps3("in_progress"))
    text = repeat(session_update(SESSION, good), '"status":"in_progress"', '"status":"bogus"', '"status":"in_progress"')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), entries_at(0, "status"))
    c.expect("SHAPE-STATUS", c.last, entries_at(0, "status"))
    c.end_turn(p)

    c = case("repeat-entries-one-null", "`entries` given twice, once as null.", docs=[(RFC8259, "4. Objects")])
    p = c.start()
    empty = plan_of([])
    text = repeat(session_update(SESSION, empty), '"entries":[]', '"entries":[]', '"entries":null')
    pointer = "/params/update/entries" if rev.legacy else "/params/update/plan/entries"
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), pointer)
    c.expect("SHAPE-ENTRIES", c.last, pointer)
    c.end_turn(p)

    c = case("repeat-in-meta-keeps-other-checks",
             "A repeated key inside an entry's `_meta` does not switch off the check of its priority.",
             docs=[(RFC8259, "4. Objects")])
    p = c.start()
    meta_entry = entry("Analyze the existing codebase structure", "urgent", "pending", _meta={"acme.dev/k": 1})
    update = plan_of([meta_entry])
    text = repeat(session_update(SESSION, update), '"acme.dev/k":1', '"acme.dev/k":1', '"acme.dev/k":2')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), entries_at(0, "_meta") + "/acme.dev~1k")
    c.expect("SHAPE-PRIORITY", c.last, entries_at(0, "priority"))
    c.end_turn(p)

    c = case("repeat-both-readings-well-formed",
             "A markdown plan's `content` given twice, both strings: each reading is well-formed, and the last one (what serde_json and JavaScript keep) is shown.",
             docs=[(RFC8259, "4. Objects")])
    p = c.start()
    first = markdown(rev, "plan-md", "## Steps")
    second = markdown(rev, "plan-md", "## Steps (revised)")
    text = repeat(session_update(SESSION, first), '"content":"## Steps"', '"content":"## Steps"', '"content":"## Steps (revised)"')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/params/update/plan/content")
    c.apply(SESSION, second)
    c.end_turn(p)

    c = case("repeat-last-value-equals-the-first",
             "A markdown plan's `content` given three times, the last equal to the first: the plan shown keeps every last value (what serde_json and JavaScript keep), the first text again, although equal readings are checked once.",
             docs=[(RFC8259, "4. Objects")])
    p = c.start()
    first = markdown(rev, "plan-md", "## Steps")
    text = repeat(session_update(SESSION, first), '"content":"## Steps"', '"content":"## Steps"',
                  '"content":"## Steps (revised)","content":"## Steps"')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/params/update/plan/content")
    c.apply(SESSION, first)
    c.end_turn(p)

    if rev.cap_key is not None:
        c = case("repeat-method-past-the-readings-read",
                 "`method` given ten times, the last `session/update`: past 8 readings the one of every last value is still read, so the capability rule is judged, and the values not read are the checker's limit.")
        p = c.start({})
        update = items(rev, "plan-1", steps3())
        text = repeat(session_update(SESSION, update), '"method":"session/update"',
                      ",".join(['"method":"x"'] * 9), '"method":"session/update"')
        c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/method")
        c.expect("CAP-PLAN-OPS", c.last, CAP_POINTER)
        c.expect("TRACE-LIMIT", c.last, "")
        c.end_turn(p)

        c = case("repeat-identical-method-keeps-capability-rule",
                 "`method` repeated with the same value: the message has one reading, and it breaks the capability rule.")
        p = c.start({})
        update = items(rev, "plan-1", steps3())
        text = repeat(session_update(SESSION, update), '"method":"session/update"', '"method":"session/update"', '"method":"session/update"')
        c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/method")
        c.expect("CAP-PLAN-OPS", c.last, CAP_POINTER)
        c.end_turn(p)

        key = rev.cap_key
        c = case("repeat-capability-advertised-in-one-reading",
                 f"The client repeats `{key}`, once {{}} and once null: one reading advertises plan operations, so the agent's plan_update is not judged on it.",
                 near_miss=["CAP-PLAN-OPS"], docs=[(RFC8259, "4. Objects")])
        caps = c.capabilities()
        init = c.client_message("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": caps})
        c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", repeat(init, f'"{key}":{{}}', f'"{key}":{{}}', f'"{key}":null')),
                 f"/params/clientCapabilities/{key}")
        c.answer_initialize(init["id"])
        c.new_session()
        p = c.prompt()
        c.update(SESSION, items(rev, "plan-1", steps3()))
        c.end_turn(p)

        c = case("repeat-capability-absent-in-every-reading",
                 f"The client repeats `{key}`, null both times: no reading advertises plan operations.",
                 docs=[(RFC8259, "4. Objects")])
        init = c.client_message("initialize", {"protocolVersion": rev.protocol_version,
                                                "clientCapabilities": c.capabilities({key: None})})
        c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", repeat(init, f'"{key}":null', f'"{key}":null', f'"{key}":null')),
                 f"/params/clientCapabilities/{key}")
        c.answer_initialize(init["id"])
        c.new_session()
        p = c.prompt()
        c.expect("CAP-PLAN-OPS", c.update(SESSION, items(rev, "plan-1", steps3()), shown=False), CAP_POINTER)
        c.end_turn(p)

        c = case("capability-empty-array",
                 f"`{key}: []`: the schema wants an object (CAP-VALUE, the client's error), but serde-based agents read an array as an empty object, so the agent's plan_update is not judged on it.",
                 near_miss=["CAP-PLAN-OPS"])
        p = c.start({key: []})
        c.expect("CAP-VALUE", 1, f"/params/clientCapabilities/{key}")
        c.update(SESSION, items(rev, "plan-1", steps3()))
        c.end_turn(p)

    c = case("repeat-request-id-in-initialize",
             "The client writes `id` twice in its initialize (same value): the connection is still initialized.",
             near_miss=["SES-BEFORE-INIT", "ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "4. Objects")])
    init = c.client_message("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": c.capabilities()})
    c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", repeat(init, '"id":1', '"id":1', '"id":1')), "/id")
    c.answer_initialize(init["id"])
    c.new_session()
    p = c.prompt()
    c.update(SESSION, plan_of(steps3()))
    c.end_turn(p)

    # One value spelled twice is one reading, not two: readings are told
    # apart by JSON value (spacing, escapes, number spelling), not by text.
    for bare in (False, True):
        tail = "-bare" if bare else ""

        def send(c, direction, text):
            """`text` as an enveloped message, or (bare) as a bare trace line."""
            return c.record(text) if bare else c.raw(direction, text)

        c = case("repeat-answer-id-same-value-spelled-twice" + tail,
                 "The agent writes the `id` of its session/prompt answer twice with one value"
                 + (", in a bare trace" if bare else ", `n` then ` n` (spaced otherwise)") + ": one answer, not two, so no duplicate response.",
                 near_miss=["ENV-DUPLICATE-RESPONSE", "ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "4. Objects")])
        p = c.start()
        c.update(SESSION, plan_of(steps3()))
        answer = {"jsonrpc": "2.0", "id": p, "result": {"stopReason": "end_turn"}}
        c.expect("ENV-DUPLICATE-KEY", send(c, "agent_to_client", repeat(answer, f'"id":{p}', f'"id":{p}', f'"id":{p}' if bare else f'"id": {p}')), "/id")

        c = case("repeat-answer-id-different-values" + tail,
                 "Near miss of the one above: the agent writes the `id` of its session/prompt answer as `n` and `n+1`"
                 + (", in a bare trace" if bare else "") + ": two readings, one answers the prompt, the other nothing. "
                 "Not every reading answers no request, so no unknown response is an error; the repeat is named.",
                 near_miss=["ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "4. Objects")])
        p = c.start()
        c.update(SESSION, plan_of(steps3()))
        answer = {"jsonrpc": "2.0", "id": p, "result": {"stopReason": "end_turn"}}
        c.expect("ENV-DUPLICATE-KEY", send(c, "agent_to_client", repeat(answer, f'"id":{p}', f'"id":{p}', f'"id":{p + 1}')), "/id")

        c = case("repeat-version-same-value-escaped-and-decimal" + tail,
                 "The client writes `protocolVersion` twice with one value, once as `"
                 + str(rev.protocol_version) + "` and once as `" + str(rev.protocol_version) + ".0e0`, and its method once escaped"
                 + (", in a bare trace" if bare else "") + ": one initialize, read once, so each finding about it is said once.",
                 docs=[(RFC8259, "4. Objects")])
        init = c.client_message("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": c.capabilities({})})
        text = repeat(init, f'"protocolVersion":{rev.protocol_version}', f'"protocolVersion":{rev.protocol_version}',
                      f'"protocolVersion":{rev.protocol_version}.0e0')
        text = text.replace('"method":"initialize"', '"method":"initialize","\u006dethod":"initi\u0061lize"')
        first = send(c, "client_to_agent", text)
        c.expect("ENV-DUPLICATE-KEY", first, "/method")
        c.expect("ENV-DUPLICATE-KEY", first, "/params/protocolVersion")
        c.answer_initialize(init["id"])
        c.new_session()
        p = c.prompt()
        if rev.cap_key is not None:
            c.expect("CAP-PLAN-OPS", c.update(SESSION, items(rev, "plan-1", steps3()), shown=False), CAP_POINTER)
        else:
            c.update(SESSION, plan_of(steps3()))
        c.end_turn(p)

    c = case("repeat-method-in-session-new-answered-without-session-id",
             "The client writes `method` twice, `session/prompt` then `session/new`, so the request may be a session/new or not. The agent's answer names no session (the agent's error only if it is a session/new), and its plan update for a session nobody named is taken as that session's (an error only if it is not): the agent is judged on neither. A reader that keeps the last value reads a session/new answered without a session id, and shows the plan as the reference client does.",
             near_miss=["SES-NEW-SESSION-ID", "SES-UNKNOWN-SESSION"], docs=[(RFC8259, "4. Objects")])
    c.initialize()
    new = c.client_message("session/new", {"cwd": CWD, "mcpServers": []})
    c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", repeat(new, '"method":"session/new"', '"method":"session/prompt"', '"method":"session/new"')), "/method")
    c.agent_result(new["id"], {})
    c.open(SESSION)
    c.update(SESSION, plan_of(steps3()))

    c = case("repeat-method-as-session-new-and-session-fork-answered-without-session-id",
             "The client writes `method` twice, `session/new` then `session/fork`: either way the answer owes a `sessionId`, so an answer without one is the agent's error, once.",
             docs=[(RFC8259, "4. Objects")])
    c.initialize()
    new = c.client_message("session/new", {"cwd": CWD, "mcpServers": []})
    c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", repeat(new, '"method":"session/new"', '"method":"session/new"', '"method":"session/fork"')), "/method")
    c.expect("SES-NEW-SESSION-ID", c.agent_result(new["id"], {}), "/result")

    c = case("repeat-method-in-initialize-answered-with-unreadable-version",
             "The client writes `method` twice in its first request, `initialize` then `session/prompt`. One reading is the initialize itself, so SES-BEFORE-INIT, which every reading would have to break, is not reported (the repeat is, once). The agent's answer gives `protocolVersion` as a string, its error only if the request is an initialize, so it is not judged, and under that reading the answer still completes the handshake: the session the client then opens shows its plan.",
             near_miss=["SES-PROTOCOL-VERSION", "SES-BEFORE-INIT"], docs=[(RFC8259, "4. Objects")])
    init = c.client_message("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": c.capabilities()})
    first = c.raw("client_to_agent", repeat(init, '"method":"initialize"', '"method":"initialize"', '"method":"session/prompt"'))
    c.expect("ENV-DUPLICATE-KEY", first, "/method")
    c.agent_result(init["id"], {"protocolVersion": "one"})
    c.new_session()
    c.update(SESSION, plan_of(steps3()))

    # ---- grammatical JSON whose meaning RFC 8259 leaves open: named, then read one way
    c = case("number-beyond-double-in-meta",
             "A number beyond the range of doubles (1e999) in an entry's `_meta`: named, read as the largest double, and the plan is shown.",
             docs=[(RFC8259, "6. Numbers")])
    p = c.start()
    update = plan_of([entry("Analyze the existing codebase structure", "high", "pending", _meta={"acme.dev/score": 7})])
    text = line(session_update(SESSION, update)).replace('"acme.dev/score":7', '"acme.dev/score":1e999')
    c.expect("ENV-NUMBER-RANGE", c.raw("agent_to_client", text), entries_at(0, "_meta") + "/acme.dev~1score")
    c.apply(SESSION, update)
    c.end_turn(p)

    c = case("number-beyond-double-as-priority",
             "`\"priority\": 1e999` is a number, not one of the priorities: SHAPE-PRIORITY (not a checker limit).")
    p = c.start()
    update = plan_of([entry("Analyze the existing codebase structure", "high", "pending")])
    text = line(session_update(SESSION, update)).replace('"priority":"high"', '"priority":1e999')
    c.expect("ENV-NUMBER-RANGE", c.raw("agent_to_client", text), entries_at(0, "priority"))
    c.expect("SHAPE-PRIORITY", c.last, entries_at(0, "priority"))
    c.end_turn(p)

    for slug, spelled, how in [("number-beyond-double-as-request-id", "1e999", "1e999"),
                               ("number-beyond-double-as-request-id-in-digits", "1" + "0" * 400, "a 1 and 400 zeros")]:
        c = case(slug,
                 f"A prompt's id is {how}, and its answer's too: a number, so not ENV-ID; named on both lines, read as the largest double, and the answer pairs with the prompt.",
                 docs=[(RFC8259, "6. Numbers")], near_miss=["ENV-ID", "ENV-UNKNOWN-RESPONSE"])
        c.initialize()
        c.new_session()
        prompt = {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Refactor the parser and add tests"}]}
        c.expect("ENV-NUMBER-RANGE", c.raw("client_to_agent", line({"jsonrpc": "2.0", "id": 1e300, "method": "session/prompt", "params": prompt}).replace("1e+300", spelled)), "/id")
        c.update(SESSION, plan_of(steps3()))
        c.expect("ENV-NUMBER-RANGE", c.raw("agent_to_client", line({"jsonrpc": "2.0", "id": 1e300, "result": {"stopReason": "end_turn"}}).replace("1e+300", spelled)), "/id")

    c = case("number-within-double", "1e300 is within the range of doubles.", near_miss=["ENV-NUMBER-RANGE"])
    p = c.start()
    update = plan_of([entry("Analyze the existing codebase structure", "high", "pending", _meta={"acme.dev/score": 1e300})])
    c.update(SESSION, update)
    c.end_turn(p)

    c = case("unpaired-surrogate-in-content",
             "An entry's content ends with half of an emoji (\\ud83d, as JavaScript cuts strings by UTF-16 units): named, read as U+FFFD, and the plan is shown.",
             docs=[(RFC8259, "8.2. Unicode Characters")])
    p = c.start()
    written = plan_of([entry("Ship it @@", "high", "pending")])
    shown = plan_of([entry("Ship it \ufffd", "high", "pending")])
    text = line(session_update(SESSION, written)).replace("@@", "\\ud83d")
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("agent_to_client", text), entries_at(0, "content"))
    c.apply(SESSION, shown)
    c.end_turn(p)

    c = case("surrogate-pair-in-content", "A whole emoji written as a surrogate pair of escapes.",
             near_miss=["ENV-UNPAIRED-SURROGATE"])
    p = c.start()
    written = plan_of([entry("Ship it @@", "high", "pending")])
    shown = plan_of([entry("Ship it \U0001F680", "high", "pending")])
    text = line(session_update(SESSION, written)).replace("@@", "\\ud83d\\ude80")
    c.raw("agent_to_client", text)
    c.apply(SESSION, shown)
    c.end_turn(p)

    def permission_request(title, option_id):
        """The agent's request (id 0) to run tool call `call_1`, written by hand so that it can
        be spelled oddly."""
        return {"jsonrpc": "2.0", "id": 0, "method": "session/request_permission",
                "params": {"sessionId": SESSION, "toolCall": {"toolCallId": "call_1", "title": title},
                           "options": [{"optionId": option_id, "name": "Allow", "kind": "allow_once"}]}}

    # What no rule reads is named too: a reader that refuses such a value (the Rust crate's
    # serde_json) loses the whole message, whatever member holds it.
    c = case("unpaired-surrogate-in-message-text",
             "A streamed text chunk ends with half of an emoji, cut where a JavaScript agent cuts a string: named at its pointer though no rule reads the text, and the plan that follows is shown.",
             docs=[(RFC8259, "8.2. Unicode Characters")])
    p = c.start()
    text = line(session_update(SESSION, chunk("Done @@"))).replace("@@", "\\ud83d")
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("agent_to_client", text), "/params/update/content/text")
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("number-beyond-double-in-tool-output",
             "A tool call's `rawOutput` holds a number beyond the range of doubles: named at its pointer though no rule reads tool output.",
             docs=[(RFC8259, "6. Numbers")])
    p = c.start()
    tool = {"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed",
            "rawOutput": {"files": 3, "bytes": 7}}
    text = line(session_update(SESSION, tool)).replace('"bytes":7', '"bytes":1e999')
    c.expect("ENV-NUMBER-RANGE", c.raw("agent_to_client", text), "/params/update/rawOutput/bytes")
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("unpaired-surrogate-in-a-permission-request-and-its-answer",
             "The agent asks permission for a tool call whose title ends with half of an emoji, and the client's answer names an option the same way: each is named at its pointer, and the answer pairs with the request.",
             near_miss=["ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "8.2. Unicode Characters")])
    p = c.start()
    text = line(permission_request("Edit @@", "allow @@")).replace("@@", "\\ud83d")
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("agent_to_client", text), "/params/toolCall/title")
    c.expect("ENV-UNPAIRED-SURROGATE", c.last, "/params/options/0/optionId")
    answer = {"jsonrpc": "2.0", "id": 0, "result": {"outcome": {"outcome": "selected", "optionId": "allow @@"}}}
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("client_to_agent", line(answer).replace("@@", "\\ud83d")),
             "/result/outcome/optionId")
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("repeated-member-in-message-text",
             "A streamed text chunk gives its `text` twice: named at the repeat though no rule reads the chunk (a reader that rejects repeats loses the message), and the plan that follows is shown.",
             docs=[(RFC8259, "4. Objects")])
    p = c.start()
    text = line(session_update(SESSION, chunk("Done"))).replace('"text":"Done"', '"text":"Done","text":"Done."')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/params/update/content/text")
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("repeated-member-in-a-permission-request",
             "The agent asks permission for a tool call whose `title` is given twice: named at the repeat, and the client's answer pairs with the request.",
             near_miss=["ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "4. Objects")])
    p = c.start()
    text = line(permission_request("Edit", "allow")).replace('"title":"Edit"', '"title":"Edit","title":"Edit parser.py"')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/params/toolCall/title")
    c.client_result(0, {"outcome": {"outcome": "selected", "optionId": "allow"}})
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("whole-characters-and-large-numbers-in-message-text",
             "A text chunk with an emoji written as a pair of escapes, and tool output with 1e300 and -1e-400: grammatical JSON every reader agrees on, so nothing is named.",
             near_miss=["ENV-UNPAIRED-SURROGATE", "ENV-NUMBER-RANGE"])
    p = c.start()
    c.raw("agent_to_client", line(session_update(SESSION, chunk("Done @@"))).replace("@@", "\\ud83d\\ude80"))
    tool = {"sessionUpdate": "tool_call_update", "toolCallId": "call_1", "status": "completed",
            "rawOutput": {"big": 7, "tiny": 8}}
    c.raw("agent_to_client", line(session_update(SESSION, tool)).replace('"big":7', '"big":1e300').replace('"tiny":8', '"tiny":-1e-400'))
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    # Half of a character in the strings that route a message: read as U+FFFD, so the message
    # still reaches its session or request and is checked there.
    c = case("unpaired-surrogate-in-session-id",
             "The agent names its session with half of an emoji (\\ud83d); the client and the agent keep using it: each message is named, the session is read as `sess \ufffd`, and its plan update is checked and shown.",
             near_miss=["SES-UNKNOWN-SESSION", "SES-UPDATE-PARAMS", "SES-NEW-SESSION-ID"],
             docs=[(RFC8259, "8.2. Unicode Characters")])
    c.initialize()
    asked = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    half = "sess @@"
    read = "sess \ufffd"
    c.expect("ENV-UNPAIRED-SURROGATE",
             c.raw("agent_to_client", line({"jsonrpc": "2.0", "id": asked, "result": {"sessionId": half}}).replace("@@", "\\ud83d")),
             "/result/sessionId")
    c.open(read)
    prompt = c.client_message("session/prompt",
                              {"sessionId": half, "prompt": [{"type": "text", "text": "Refactor the parser"}]})
    p = prompt["id"]
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("client_to_agent", line(prompt).replace("@@", "\\ud83d")), "/params/sessionId")
    update = plan_of(steps3("in_progress"))
    c.expect("ENV-UNPAIRED-SURROGATE",
             c.raw("agent_to_client", line(session_update(half, update)).replace("@@", "\\ud83d")), "/params/sessionId")
    c.apply(read, update)
    c.end_turn(p)

    c = case("unpaired-surrogate-in-method",
             "The agent sends an extension request whose method ends with half of an emoji: named, read as U+FFFD, and the client's answer pairs with it.",
             near_miss=["ENV-METHOD", "ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "8.2. Unicode Characters")])
    p = c.start()
    ask = {"jsonrpc": "2.0", "id": 0, "method": "_acme.dev/ping @@", "params": {}}
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("agent_to_client", line(ask).replace("@@", "\\ud83d")), "/method")
    c.client_result(0, {})
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("unpaired-surrogate-in-request-id",
             "The client's prompt has a string id ending with half of an emoji; the agent answers with the same id: both are named, and the answer pairs with the prompt.",
             near_miss=["ENV-ID", "ENV-UNKNOWN-RESPONSE"], docs=[(RFC8259, "8.2. Unicode Characters")])
    c.initialize()
    c.new_session()
    prompt = {"jsonrpc": "2.0", "id": "turn @@", "method": "session/prompt",
              "params": {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Refactor the parser"}]}}
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("client_to_agent", line(prompt).replace("@@", "\\ud83d")), "/id")
    c.update(SESSION, plan_of(steps3("in_progress")))
    answer = {"jsonrpc": "2.0", "id": "turn @@", "result": {"stopReason": "end_turn"}}
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("agent_to_client", line(answer).replace("@@", "\\ud83d")), "/id")

    # Half of a character in member names: names are read as values are (U+FFFD), so such a
    # member is a member like any other, wherever it is.
    c = case("unpaired-surrogate-in-member-names",
             "Half of an emoji in member names of the message, its params, the update and a `_meta` key: the names are read as U+FFFD, each is named at its object, and the plan is checked and shown.",
             near_miss=["ENV-JSON", "SES-UPDATE-PARAMS", "SHAPE-UNKNOWN-FIELD"],
             docs=[(RFC8259, "8.2. Unicode Characters")])
    p = c.start()
    update = plan_of(steps3("in_progress"))
    update["_meta"] = {"acme.dev/@@": True}
    message = session_update(SESSION, update)
    message = {"@@": 0, **message, "params": {"@@": 0, **message["params"]}}
    c.expect("ENV-UNPAIRED-SURROGATE", c.raw("agent_to_client", line(message).replace("@@", "\\ud83d")),
             "/params/update/_meta")
    c.expect("ENV-UNPAIRED-SURROGATE", c.last, "")
    c.expect("ENV-UNPAIRED-SURROGATE", c.last, "/params")
    c.apply(SESSION, update)
    c.end_turn(p)

    c = case("unpaired-surrogate-beside-a-repeat",
             "An update's `_meta` repeats a name and holds another with half of an emoji, and its entry's priority is not one of the priorities: all three are named, the update being read past that name, not stopped at it.",
             docs=[(RFC8259, "8.2. Unicode Characters")])
    p = c.start()
    update = plan_of([entry("Analyze the existing codebase structure", "urgent", "pending")])
    update["_meta"] = {"acme.dev/a": 1, "acme.dev/b": 2, "acme.dev/@@": 3}
    text = line(session_update(SESSION, update)).replace('"acme.dev/b"', '"acme.dev/a"').replace("@@", "\\udc00")
    meta = "/params/update/_meta"
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), meta + "/acme.dev~1a")
    c.expect("ENV-UNPAIRED-SURROGATE", c.last, meta)
    c.expect("SHAPE-PRIORITY", c.last, entries_at(0, "priority"))
    c.end_turn(p)

    # ---- odd but legal frames
    c = case("null-request-id",
             "A request with \"id\": null (allowed, discouraged) is answered with id null: the answer pairs with it.",
             near_miss=["SES-BEFORE-INIT", "ENV-UNKNOWN-RESPONSE"], docs=[(JSONRPC, "4. Request object")])
    c.initialize(answer=False)
    c.items[-1]["message"]["id"] = None
    c.answer_initialize(None)
    c.new_session()
    p = c.prompt()
    c.update(SESSION, plan_of(steps3()))
    c.end_turn(p)

    c = case("second-initialize-fails",
             "A second initialize that fails leaves the connection initialized.",
             near_miss=["SES-BEFORE-INIT"])
    p = c.start()
    again = c.client_request("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": c.capabilities()})
    c.a2c({"jsonrpc": "2.0", "id": again, "error": {"code": -32600, "message": "already initialized"}})
    c.update(SESSION, plan_of(steps3("in_progress")))
    c.end_turn(p)

    c = case("escaped-jsonrpc-version",
             "`\"jsonrpc\": \"2\\u002e0\"` is the string \"2.0\": strings are compared by value.",
             near_miss=["ENV-VERSION"], docs=[(JSONRPC, "4. Request object")])
    p = c.start()
    update = plan_of(steps3("in_progress"))
    text = line(session_update(SESSION, update)).replace('"jsonrpc":"2.0"', '"jsonrpc":"2\\u002e0"', 1)
    c.raw("agent_to_client", text)
    c.apply(SESSION, update)
    c.end_turn(p)

    c = case("escaped-envelope-direction",
             "An envelope whose direction is written with an escape (\"agent\\u005fto_client\") is that direction.",
             near_miss=["TRACE-RECORD"])
    p = c.start()
    c.record('{"direction":"agent\\u005fto_client","message":' + line(session_update(SESSION, chunk("Reading files."))) + "}")
    c.end_turn(p)

    c = case("envelope-time-not-string",
             "An envelope whose `time` is a number breaks the trace format; its message is still checked (here: a bad `jsonrpc`).")
    p = c.start()
    odd = session_update(SESSION, chunk("Reading files."))
    odd["jsonrpc"] = "1.0"
    c.expect("TRACE-RECORD", c.record(line({"direction": "agent_to_client", "time": 1751362200, "message": odd})), "")
    c.expect("ENV-VERSION", c.last, "/jsonrpc")
    c.end_turn(p)

    c = case("envelope-unknown-member",
             "An envelope with a member the trace format does not define; its message is still checked.")
    p = c.start()
    c.expect("TRACE-RECORD", c.record(line({"direction": "agent_to_client", "seq": 7, "message": odd})), "")
    c.expect("ENV-VERSION", c.last, "/jsonrpc")
    c.end_turn(p)

    return ("Readings: messages readers can read more than one way (repeated members, batches, escapes, "
            "odd but legal frames). Errors only where every reading breaks a rule; every reading is checked.", cases)
