"""session.json: SES-* (initialize first, established sessions, the shape of
session/update), session/load replay, resume and fork, interleaved sessions."""

from vectorlib import (
    Case, SESSION, SESSION_2, SESSION_SAVED, CWD, MD_STEPS, SESSION_SETUP, RFD, PROMPT_TURN, V2,
    entry, steps3, legacy, items, markdown, removed, entries_plan, chunk, notification, session_update,
    line, RULES,
)


def session(rev):
    cases = []

    def case(slug, description, **kw):
        # A near miss only where the rule applies (SES-REPLAY-AFTER-ANSWER
        # is not a v2 rule since release 1.20.0's replay_complete).
        kw["near_miss"] = [r for r in kw.get("near_miss", []) if rev.name in RULES[r]["revisions"]]
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    plan = entries_plan(rev, steps3())

    def send_load(c):
        """A session/load of the saved session: the request's id. v2 removed session/load, so there the call is
        the client's breach (SES-LOAD-V2); the agent, answering and replaying as for a load, is not judged on it."""
        id = c.client_request("session/load", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
        if rev.protocol_version == 2:
            c.expect("SES-LOAD-V2", c.last, "/method")
        return id

    def send_resume(c, replay=False):
        """A session/resume of the saved session (with `replay`, from the start): the request's id."""
        params = {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []}
        if replay:
            params["replayFrom"] = {"type": "start"}
        return c.client_request("session/resume", params)

    def send_replaying(c):
        """The request that asks for a replay: v2's session/resume from the start, else session/load."""
        return send_resume(c, replay=True) if rev.protocol_version == 2 else send_load(c)

    def replay_complete(c, session=SESSION_SAVED):
        """v2 (release 1.20.0): the marker that ends a replay session/resume asked for."""
        return c.update(session, {"sessionUpdate": "replay_complete"})

    def answer_replay(c, id, session=SESSION_SAVED):
        """The agent's successful answer to a replaying request, after v2's replay_complete."""
        if rev is V2:
            replay_complete(c, session)
        return c.agent_result(id, {})

    def answer_error(c, id, code=-32002, message="Resource not found"):
        """The agent's error answer to request `id`."""
        c.a2c({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})

    # ---- SES-BEFORE-INIT
    c = case("ses-session-new-before-initialize-answered",
             "The client sends session/new before the agent has answered initialize.")
    init = c.initialize(answer=False)
    new = c.new_session(answer=False)
    c.expect("SES-BEFORE-INIT", c.last, "/method")
    c.answer_initialize(init)
    c.agent_result(new, {"sessionId": SESSION})
    c.open(SESSION)
    p = c.prompt()
    c.update(SESSION, plan)
    c.end_turn(p)

    c = case("ses-session-new-after-failed-initialize",
             "The agent answers initialize with an error and the client sends session/new anyway: the connection is not initialized.")
    init = c.initialize(answer=False)
    answer_error(c, init, -32603, "Internal error")
    new = c.new_session(answer=False)
    c.expect("SES-BEFORE-INIT", c.last, "/method")

    c = case("ses-session-new-after-retried-initialize",
             "initialize fails, the client initializes again and waits for the successful answer before session/new.",
             near_miss=["SES-BEFORE-INIT"])
    init = c.initialize(answer=False)
    answer_error(c, init, -32603, "Internal error")
    p = c.start()
    c.update(SESSION, plan)
    c.end_turn(p)

    c = case("ses-update-before-initialize",
             "The agent sends a session/update before initialize is answered, for a session that does not exist yet: an unknown session (SES-BEFORE-INIT is the client's MUST, not the agent's).",
             near_miss=["SES-BEFORE-INIT"])
    init = c.initialize(answer=False)
    c.update(SESSION, chunk("Starting up."), shown=False)
    c.expect("SES-UNKNOWN-SESSION", c.last, "/params/sessionId")
    c.answer_initialize(init)
    c.new_session()

    c = case("ses-session-new-after-initialize-answered",
             "session/new right after the initialize response, the earliest legal moment.",
             near_miss=["SES-BEFORE-INIT"])
    p = c.start()
    c.update(SESSION, plan)
    c.end_turn(p)

    # ---- SES-UNKNOWN-SESSION
    c = case("ses-unknown-session", "A plan update for a session id that was never established on this connection is not shown.")
    p = c.start()
    c.expect("SES-UNKNOWN-SESSION", c.update("sess_0000unknown", plan, shown=False), "/params/sessionId")
    c.end_turn(p)

    c = case("ses-unknown-session-after-failed-session-new",
             "session/new fails with an error, so no session is established; an update for the id the agent meant to create is for an unknown session.")
    c.initialize()
    new = c.new_session(answer=False)
    answer_error(c, new, -32603, "Internal error")
    c.expect("SES-UNKNOWN-SESSION", c.update(SESSION, plan, shown=False), "/params/sessionId")

    c = case("ses-retry-after-failed-session-new",
             "A failed session/new establishes nothing; the retry's result does.",
             near_miss=["SES-UNKNOWN-SESSION"])
    c.initialize()
    new = c.new_session(answer=False)
    answer_error(c, new, -32603, "Internal error")
    c.new_session()
    p = c.prompt()
    c.update(SESSION, plan)
    c.end_turn(p)

    # ---- session/load replay, resume, fork
    c = case("ses-load-replays-plans",
             "session/load: the agent replays the conversation, plans included, as session/update notifications before it answers; the loaded session is established by the request's sessionId.",
             near_miss=["SES-UNKNOWN-SESSION"],
             docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    load = send_load(c)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, {"sessionUpdate": "user_message_chunk",
                             "content": {"type": "text", "text": "Refactor the parser and add tests"}})
    c.update(SESSION_SAVED, chunk("Here is my plan."))
    if rev.legacy:
        c.update(SESSION_SAVED, legacy(steps3("completed", "in_progress")))
    c.update(SESSION_SAVED, items(rev, "plan-1", steps3("completed", "in_progress")))
    c.update(SESSION_SAVED, markdown(rev, "notes", MD_STEPS))
    c.update(SESSION_SAVED, removed(rev, "notes"))
    c.snapshot()
    c.agent_result(load, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, items(rev, "plan-1", steps3("completed", "completed", "in_progress")))
    c.snapshot()
    c.end_turn(p)

    # ---- session/close: an answered close ends what the client shows
    def closed_session(c, fails=False):
        p = c.start()
        c.update(SESSION, items(rev, "plan-1", steps3("completed", "in_progress")))
        c.end_turn(p)
        close = c.client_request("session/close", {"sessionId": SESSION})
        c.snapshot()  # still shown while the close is in flight
        if fails:
            answer_error(c, close, -32603, "Internal error")
        else:
            c.agent_result(close, {})
            c.close(SESSION)
        c.snapshot()

    c = case("ses-close-answered-forgets-session",
             "The agent answers session/close: the client shows the session no more.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Session ID")])
    closed_session(c)

    c = case("ses-close-failed-keeps-session",
             "session/close answered with an error: the session stays open and shown, and its updates are its own.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Session ID")])
    closed_session(c, fails=True)
    c.update(SESSION, chunk("Still here."))

    c = case("ses-update-after-close",
             "An update for a session whose session/close was answered names no session open on this connection.",
             docs=[(SESSION_SETUP, "Session ID")])
    closed_session(c)
    c.expect("SES-UNKNOWN-SESSION", c.update(SESSION, chunk("One more thing."), shown=False), "/params/sessionId")

    c = case("ses-unknown-session-after-failed-load",
             "session/load fails (the agent cannot find the session), so it establishes nothing; a later update for it is for an unknown session.",
             docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    load = send_load(c)
    answer_error(c, load)
    c.expect("SES-UNKNOWN-SESSION", c.update(SESSION_SAVED, plan, shown=False), "/params/sessionId")

    c = case("ses-failed-load-establishes-nothing",
             "session/load fails (the agent cannot find the session): the client shows no session for it, "
             "and the connection goes on with a new session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    load = send_load(c)
    answer_error(c, load)
    c.snapshot()
    c.new_session()
    p = c.prompt()
    c.update(SESSION, plan)
    c.end_turn(p)

    c = case("ses-two-loads-one-fails",
             "Two session/load requests for one session are in flight; the first fails and the second succeeds: "
             "the session is loaded, and its updates are for an established session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    first = send_load(c)
    second = send_load(c)
    answer_error(c, first, -32603, "Internal error")
    c.open(SESSION_SAVED)
    c.agent_result(second, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, plan)
    c.end_turn(p)

    c = case("ses-unknown-session-after-two-failed-loads",
             "Two session/load requests for one session are in flight and both fail: nothing is established, and a "
             "later update for it is for an unknown session.",
             docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    first = send_load(c)
    second = send_load(c)
    answer_error(c, second)
    answer_error(c, first)
    c.expect("SES-UNKNOWN-SESSION", c.update(SESSION_SAVED, plan, shown=False), "/params/sessionId")

    c = case("ses-new-session-outlives-a-failed-load",
             "A session/load is in flight when a session/new is answered with the same sessionId, and then the load "
             "fails: the session/new answer established the session, so the failed load takes nothing back and later "
             "updates are for an established session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    load = send_load(c)
    c.new_session(SESSION_SAVED)
    answer_error(c, load)
    c.snapshot()
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, plan)
    c.end_turn(p)

    c = case("ses-resume-establishes-session",
             "session/resume names the session in its params; updates for it afterwards are for an established session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Session ID")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.agent_result(resume, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.end_turn(p)

    c = case("ses-fork-establishes-session",
             "session/fork answers with a new sessionId, which is established like one from session/new; the forked session starts without plans.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Session ID")])
    p = c.start()
    c.update(SESSION, entries_plan(rev, steps3("in_progress")))
    c.end_turn(p)
    fork = c.client_request("session/fork", {"sessionId": SESSION, "cwd": CWD, "mcpServers": []})
    c.agent_result(fork, {"sessionId": SESSION_2})
    c.open(SESSION_2)
    p = c.prompt(SESSION_2, "Try another approach")
    c.update(SESSION_2, entries_plan(rev, [entry("Rewrite the parser with a generator", "high", "in_progress")]))
    c.snapshot()
    c.end_turn(p)

    # ---- SES-UPDATE-PARAMS
    def bad_params(slug, description, params, pointer, omit_params=False):
        c = case(slug, description)
        p = c.start()
        m = {"jsonrpc": "2.0", "method": "session/update"}
        if not omit_params:
            m["params"] = params
        c.expect("SES-UPDATE-PARAMS", c.a2c(m), pointer)
        c.end_turn(p)

    bad_params("ses-update-params-missing-update", "session/update params without `update`.", {"sessionId": SESSION}, "/params")
    bad_params("ses-update-params-missing-session-id", "session/update params without `sessionId`.", {"update": plan}, "/params")
    bad_params("ses-update-params-session-id-number", "`sessionId` is a number.", {"sessionId": 1, "update": plan}, "/params/sessionId")
    bad_params("ses-update-params-update-string", "`update` is a string.", {"sessionId": SESSION, "update": "plan"}, "/params/update")
    without_kind = dict(plan)
    del without_kind["sessionUpdate"]
    bad_params("ses-update-params-missing-session-update", "`update` has no `sessionUpdate` discriminator.",
               {"sessionId": SESSION, "update": without_kind}, "/params/update")
    numbered = dict(plan)
    numbered["sessionUpdate"] = 7
    bad_params("ses-update-params-session-update-number", "`sessionUpdate` is a number.",
               {"sessionId": SESSION, "update": numbered}, "/params/update")
    bad_params("ses-update-params-positional", "Params by position (an array): ACP's SessionNotification is an object.",
               [SESSION, plan], "/params")
    bad_params("ses-update-params-absent", "session/update without params.", None, "/params", omit_params=True)

    c = case("ses-update-params-with-meta",
             "session/update params with `_meta` next to sessionId and update.", near_miss=["SES-UPDATE-PARAMS"])
    p = c.start()
    c.a2c(notification("session/update", {"sessionId": SESSION, "update": plan,
                                           "_meta": {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}))
    c.apply(SESSION, plan)
    c.end_turn(p)

    # ---- SES-UPDATE-NOTIFICATION
    c = case("ses-update-as-request", "session/update sent as a request, with an id.")
    p = c.start()
    m = session_update(SESSION, chunk("Reading files."))
    m["id"] = 0
    c.expect("SES-UPDATE-NOTIFICATION", c.a2c(m), "/id")
    c.end_turn(p)

    c = case("ses-update-from-client", "The client sends session/update to the agent.")
    p = c.start()
    c.expect("SES-UPDATE-NOTIFICATION", c.c2a(session_update(SESSION, chunk("Hello from the client."))), "/method")
    c.end_turn(p)

    c = case("ses-update-notification-after-request",
             "The agent's permission request carries an id; its session/update notifications do not.",
             near_miss=["SES-UPDATE-NOTIFICATION"])
    p = c.start()
    r = c.agent_request("session/request_permission", {
        "sessionId": SESSION,
        "toolCall": {"toolCallId": "call_001", "title": "Edit src/parser.rs", "kind": "edit", "status": "pending"},
        "options": [{"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"}],
    })
    c.client_result(r, {"outcome": {"outcome": "selected", "optionId": "allow-once"}})
    c.update(SESSION, chunk("Editing src/parser.rs."))
    c.end_turn(p)

    # ---- interleaved sessions
    c = case("ses-interleaved-sessions",
             "Two sessions with prompts in flight at once; updates alternate between them, use the same plan id, and each session shows only its own plans.",
             docs=[(RFD, "Multiple Plans"), (SESSION_SETUP, "Session ID")])
    c.initialize()
    c.new_session(SESSION)
    c.new_session(SESSION_2)
    p1 = c.prompt(SESSION, "Refactor the parser")
    p2 = c.prompt(SESSION_2, "Write the changelog")
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    c.update(SESSION_2, items(rev, "plan-1", [entry("Collect merged pull requests", "medium", "in_progress")]))
    c.update(SESSION, chunk("Reading the parser."))
    c.snapshot()
    c.update(SESSION_2, items(rev, "plan-1", [entry("Collect merged pull requests", "medium", "completed"),
                                              entry("Write CHANGELOG.md", "medium", "in_progress")]))
    c.update(SESSION, items(rev, "plan-1", steps3("completed", "in_progress")))
    if rev.legacy:
        c.update(SESSION_2, legacy([entry("Publish the release notes", "low", "pending")]))
    c.snapshot()
    c.update(SESSION_2, removed(rev, "plan-1"))
    c.snapshot()
    c.end_turn(p2)
    c.end_turn(p1)

    # ---- SES-PROTOCOL-VERSION
    c = case("ses-initialize-result-without-protocol-version",
             "The agent answers initialize without `protocolVersion`: the revision is a guess (checked as v1).")
    init = c.initialize(answer=False)
    c.expect("SES-PROTOCOL-VERSION", c.agent_result(init, {"agentCapabilities": {"loadSession": False}}), "/result")
    c.new_session()

    c = case("ses-initialize-protocol-version-string",
             "The agent answers `\"protocolVersion\": \"1\"`, a string: not the integer the schema defines.")
    init = c.initialize(answer=False)
    c.expect("SES-PROTOCOL-VERSION", c.agent_result(init, {"protocolVersion": str(rev.protocol_version)}), "/result/protocolVersion")
    c.new_session()

    c = case("ses-initialize-protocol-version-beyond-uint16",
             "The agent answers `\"protocolVersion\": 65536`: an integer, but beyond the schema's ProtocolVersion (0 to 65535, a uint16), so no version a client can read.")
    init = c.initialize(answer=False)
    c.expect("SES-PROTOCOL-VERSION", c.agent_result(init, {"protocolVersion": 65536}), "/result/protocolVersion")
    c.new_session()

    c = case("ses-initialize-protocol-version-negative",
             "The agent answers `\"protocolVersion\": -1`: an integer below the schema's range.")
    init = c.initialize(answer=False)
    c.expect("SES-PROTOCOL-VERSION", c.agent_result(init, {"protocolVersion": -1}), "/result/protocolVersion")
    c.new_session()

    c = case("ses-initialize-protocol-version-repeated-one-valid",
             "The agent's initialize answer repeats `protocolVersion`: the chosen version, then 65536. The repeat is ENV-DUPLICATE-KEY; one reading carries a valid version, so SES-PROTOCOL-VERSION is not an error against the agent.",
             near_miss=["SES-PROTOCOL-VERSION"])
    init = c.initialize(answer=False)
    answer = {"jsonrpc": "2.0", "id": init, "result": {"protocolVersion": rev.protocol_version, "agentCapabilities": {}}}
    text = line(answer).replace('"agentCapabilities"', '"protocolVersion":65536,"agentCapabilities"')
    c.expect("ENV-DUPLICATE-KEY", c.raw("agent_to_client", text), "/result/protocolVersion")
    c.new_session()

    c = case("ses-initialize-protocol-version-integer",
             "The agent answers with the integer protocolVersion it chose.", near_miss=["SES-PROTOCOL-VERSION"])
    p = c.start()
    c.update(SESSION, plan)
    c.end_turn(p)

    # ---- SES-NEW-SESSION-ID
    c = case("ses-new-session-result-without-session-id",
             "session/new succeeds without a `sessionId`: that answer is the fault, not the agent's later updates for the session it meant.",
             near_miss=["SES-UNKNOWN-SESSION"])
    c.initialize()
    new = c.new_session(answer=False)
    c.expect("SES-NEW-SESSION-ID", c.agent_result(new, {}), "/result")
    c.open(SESSION)
    p = c.prompt()
    c.update(SESSION, plan)
    c.end_turn(p)

    c = case("ses-new-session-id-number",
             "session/new answers a number as `sessionId`.")
    c.initialize()
    new = c.new_session(answer=False)
    c.expect("SES-NEW-SESSION-ID", c.agent_result(new, {"sessionId": 7}), "/result/sessionId")

    c = case("ses-new-session-id-string",
             "session/new answers the new session's id as a string.", near_miss=["SES-NEW-SESSION-ID"])
    p = c.start()
    c.update(SESSION, plan)
    c.end_turn(p)

    # ---- SES-RESUME-REPLAY
    c = case("ses-resume-plan-before-answer",
             "session/resume asks for no replay, but the agent sends the session's plan before it answers.",
             docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.expect("SES-RESUME-REPLAY", c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress"))), "/params/update/sessionUpdate")
    c.agent_result(resume, {})

    c = case("ses-resume-plan-after-answer",
             "session/resume is answered first; the plan comes with the next prompt.",
             near_miss=["SES-RESUME-REPLAY"], docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, chunk("Reconnected."))
    c.agent_result(resume, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.end_turn(p)

    c = case("ses-resume-while-a-replay-of-the-session-is-in-flight",
             "A session/resume that asks for no replay and a "
             + ("session/resume from the start" if rev.protocol_version == 2 else "session/load")
             + " of the same session are both in flight: a plan update before the answers may be the replay that "
             "was asked for, so no agent is judged on it.",
             near_miss=["SES-RESUME-REPLAY"], docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    resume = send_resume(c)
    load = send_replaying(c)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    answer_replay(c, load)
    c.agent_result(resume, {})

    # A running turn is not a replay: an update that may belong to a turn of
    # the session still running is not judged as history.
    def end_prompt(c, p, session=SESSION_SAVED):
        """The end of prompt `p`'s turn: v1 the answer; v2 the answer, then the idle state_update."""
        if rev.protocol_version == 2:
            c.agent_result(p, {})
            return c.update(session, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"})
        return c.end_turn(p)

    c = case("ses-resume-while-a-prompt-is-in-flight",
             "The session runs a prompt when the client sends session/resume again (no replay); a plan update before "
             "the resume's answer may be that turn's, so it is not judged as a replay.",
             near_miss=["SES-RESUME-REPLAY"], docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.agent_result(resume, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    again = send_resume(c)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.agent_result(again, {})
    end_prompt(c, p)

    c = case("ses-resume-after-the-turn-ended",
             "Near miss of the one above: the turn has ended"
             + (" (the idle state_update)" if rev.protocol_version == 2 else " (the prompt is answered)")
             + " when the client sends session/resume again; a plan update before the resume's answer can only be history.",
             docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.agent_result(resume, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    end_prompt(c, p)
    again = send_resume(c)
    c.expect("SES-RESUME-REPLAY", c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress"))), "/params/update/sessionUpdate")
    c.agent_result(again, {})

    c = case("ses-resume-retried-answered-once-then-prompt",
             "The client sends session/resume twice; the agent answers the second only, and the client prompts: the "
             "session is set up, and the turn's plan update is not a replay for the resume left unanswered.",
             near_miss=["SES-RESUME-REPLAY", "SES-PROMPT-BEFORE-SETUP"], docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    send_resume(c)
    second = send_resume(c)
    c.open(SESSION_SAVED)
    c.agent_result(second, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    end_prompt(c, p)

    if rev.protocol_version == 2:
        c = case("ses-resume-while-a-v2-turn-runs-after-its-prompt-was-answered",
                 "v2: a prompt is accepted (answered) and its turn runs until the idle state_update; a session/resume "
                 "sent meanwhile is followed by the turn's plan update, not a replay.",
                 near_miss=["SES-RESUME-REPLAY"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = send_resume(c)
        c.open(SESSION_SAVED)
        c.agent_result(resume, {})
        p = c.prompt(SESSION_SAVED, "Continue")
        c.agent_result(p, {})
        again = send_resume(c)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        c.agent_result(again, {})
        c.update(SESSION_SAVED, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"})

    c = case("ses-resume-answered-ambiguously-closes-its-window",
             "The client's session/resume and the agent's fs/read_text_file share one id, and a bare response with that id "
             "may answer either: whichever it answers, the resume's window may be closed, so a plan update after the "
             "next turn is not judged as a replay.",
             near_miss=["SES-RESUME-REPLAY"], docs=[(SESSION_SETUP, "Resuming Sessions")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.record(line({"jsonrpc": "2.0", "id": resume, "method": "fs/read_text_file",
                   "params": {"sessionId": SESSION_SAVED, "path": "/work/PLAN.md"}}))
    c.expect("TRACE-DIRECTION", c.record(line({"jsonrpc": "2.0", "id": resume, "result": {}})), "/id")
    p = c.prompt(SESSION_SAVED, "Continue")
    end_prompt(c, p)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))

    # ---- SES-PROMPT-BEFORE-SETUP: the client prompts before the resume is answered
    c = case("ses-prompt-before-resume-answered",
             "The client prompts before the agent answered its session/resume: the client's breach of session setup; "
             "the plan update that follows may be the prompt's turn, so the agent is not judged on it.",
             near_miss=["SES-RESUME-REPLAY"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    p = c.prompt(SESSION_SAVED, "Continue")
    c.expect("SES-PROMPT-BEFORE-SETUP", c.last, "/params/sessionId")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.agent_result(resume, {})
    end_prompt(c, p)

    c = case("ses-prompt-before-load-answered",
             "The client prompts before the agent answered the "
             + ("session/resume from the start" if rev.protocol_version == 2 else "session/load") + " that sets the session up.",
             docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    load = send_replaying(c)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("in_progress")))
    p = c.prompt(SESSION_SAVED, "Continue")
    c.expect("SES-PROMPT-BEFORE-SETUP", c.last, "/params/sessionId")
    answer_replay(c, load)
    end_prompt(c, p)

    c = case("ses-prompt-after-a-resume-answer-with-a-garbled-id",
             "The agent answers session/resume under an id no request has (its error); that may have been the resume's "
             "answer, so the client's prompt after it is not judged as sent before setup.",
             near_miss=["SES-PROMPT-BEFORE-SETUP"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.expect("ENV-UNKNOWN-RESPONSE", c.agent_result(f"{resume}-garbled", {}), "/id")
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    end_prompt(c, p)

    c = case("ses-prompt-after-resume-answered",
             "Near miss: the client prompts once the session/resume is answered.",
             near_miss=["SES-PROMPT-BEFORE-SETUP"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    resume = send_resume(c)
    c.open(SESSION_SAVED)
    c.agent_result(resume, {})
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    end_prompt(c, p)

    c = case("ses-prompt-on-live-session-while-it-is-resumed",
             "Near miss: the session was created on this connection (session/new) and is set up; a prompt while a "
             "session/resume of it is in flight prompts a session that is set up.",
             near_miss=["SES-PROMPT-BEFORE-SETUP"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    c.new_session(SESSION)
    resume = c.client_request("session/resume", {"sessionId": SESSION, "cwd": CWD, "mcpServers": []})
    p = c.prompt(SESSION)
    c.agent_result(resume, {})
    c.update(SESSION, entries_plan(rev, steps3("completed", "in_progress")))
    end_prompt(c, p, SESSION)

    # ---- the client's malformed session/load is not the agent's unknown session
    c = case("ses-load-without-session-id",
             "The client's " + ("session/resume from the start" if rev.protocol_version == 2 else "session/load")
             + " names no sessionId; the agent replays the session it meant: the agent is not judged for an unknown session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Resuming Sessions" if rev.protocol_version == 2 else "Loading Sessions")])
    c.initialize()
    params = {"cwd": CWD, "mcpServers": []}
    if rev.protocol_version == 2:
        params["replayFrom"] = {"type": "start"}
    load = c.client_request("session/resume" if rev.protocol_version == 2 else "session/load", params)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("in_progress")))
    c.agent_result(load, {})

    if rev.protocol_version == 2:
        c = case("ses-resume-replay-from-start",
                 "v2: session/resume with replayFrom {\"type\": \"start\"} replays plans before the answer, as asked.",
                 near_miss=["SES-RESUME-REPLAY", "SES-REPLAY-AFTER-ANSWER"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = send_resume(c, replay=True)
        c.open(SESSION_SAVED)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        answer_replay(c, resume)
        p = c.prompt(SESSION_SAVED, "Continue")
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "completed")))
        c.end_turn(p)

    # ---- SES-REPLAY-COMPLETE (v2, release 1.20.0)
    if rev is V2:
        def resume_with(c, replay_from):
            params = {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": [], "replayFrom": replay_from}
            return c.client_request("session/resume", params)

        c = case("ses-replay-complete-missing",
                 "v2: the agent replays from the start and answers session/resume without replay_complete first.",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = send_resume(c, replay=True)
        c.open(SESSION_SAVED)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        c.expect("SES-REPLAY-COMPLETE", c.agent_result(resume, {}), "/result")

        c = case("ses-replay-complete-then-live-plan",
                 "v2: replay_complete ends the replay; the plan updates after it (before and after the answer) are live, "
                 "neither history nor a late replay.",
                 near_miss=["SES-REPLAY-COMPLETE", "SES-REPLAY-AFTER-ANSWER"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = send_resume(c, replay=True)
        c.open(SESSION_SAVED)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        replay_complete(c)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "completed")))
        c.agent_result(resume, {})
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "completed", "in_progress")))

        c = case("ses-replay-complete-empty-replay",
                 "v2: a replay with nothing to replay still ends with replay_complete before the answer.",
                 near_miss=["SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = resume_with(c, {"type": "start"})
        c.open(SESSION_SAVED)
        replay_complete(c)
        c.agent_result(resume, {})

        c = case("ses-replay-complete-failed-resume",
                 "v2: a resume with a cursor that fails owes no replay_complete (\"MUST NOT send it ... when it cannot finish the replay\").",
                 near_miss=["SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = send_resume(c, replay=True)
        answer_error(c, resume)

        for replay_from, slug in ((None, "null"), ("absent", "absent")):
            c = case(f"ses-replay-complete-without-cursor-{slug}",
                     "v2: replay_complete for a session/resume whose replayFrom is "
                     + ("null" if replay_from is None else "omitted") + ": no replay was asked for, so no marker is due.",
                     docs=[(SESSION_SETUP, "Resuming Sessions")])
            c.initialize()
            resume = resume_with(c, None) if replay_from is None else send_resume(c)
            c.open(SESSION_SAVED)
            c.expect("SES-REPLAY-COMPLETE", replay_complete(c), "/params/update/sessionUpdate")
            c.agent_result(resume, {})

        c = case("ses-replay-complete-twice",
                 "v2: two replay_complete for one session/resume with a cursor: exactly once is due.",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        resume = send_resume(c, replay=True)
        c.open(SESSION_SAVED)
        replay_complete(c)
        c.expect("SES-REPLAY-COMPLETE", replay_complete(c), "/params/update/sessionUpdate")
        c.agent_result(resume, {})

        c = case("ses-replay-complete-once-per-resume",
                 "v2: two session/resume with a cursor of one session in flight, one replay_complete each.",
                 near_miss=["SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        first = send_resume(c, replay=True)
        second = send_resume(c, replay=True)
        c.open(SESSION_SAVED)
        replay_complete(c)
        replay_complete(c)
        c.agent_result(first, {})
        c.agent_result(second, {})

        c = case("ses-replay-from-given-twice-start-and-null",
                 "v2: the client writes replayFrom twice, {\"type\": \"start\"} then null: one reading asks for a replay, "
                 "the other forbids it. The agent replays without replay_complete: no reading's rule breaks in every reading, "
                 "so neither SES-RESUME-REPLAY nor SES-REPLAY-COMPLETE is an error.",
                 near_miss=["SES-RESUME-REPLAY", "SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        message = c.client_message("session/resume", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": [],
                                                      "replayFrom": {"type": "start"}})
        text = line(message).replace('"replayFrom":{"type":"start"}', '"replayFrom":{"type":"start"},"replayFrom":null')
        c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", text), "/params/replayFrom")
        c.open(SESSION_SAVED)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        c.agent_result(message["id"], {})

    # ---- SES-REPLAY-AFTER-ANSWER
    c = case("ses-replay-plan-after-answer",
             "v2: the replay is answered without replay_complete (an error), then a plan update comes before any prompt."
             if rev is V2 else
             "The replay is answered, then a plan update comes before any prompt: not part of the replay (an info: history sent too late, or a new plan).",
             docs=[(SESSION_SETUP, "Resuming Sessions" if rev.protocol_version == 2 else "Loading Sessions")])
    c.initialize()
    load = send_replaying(c)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, chunk("Here is my plan."))
    if rev is V2:
        # Release 1.20.0: an answer without replay_complete is an error of
        # its own, and what follows the answer is not judged as the replay.
        c.expect("SES-REPLAY-COMPLETE", c.agent_result(load, {}), "/result")
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    else:
        c.agent_result(load, {})
        c.expect("SES-REPLAY-AFTER-ANSWER",
                 c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress"))), "/params/update/sessionUpdate")

    c = case("ses-replay-plan-after-next-prompt",
             "The replay is answered; the next plan update comes with the next prompt: a new turn, not the replay.",
             near_miss=["SES-REPLAY-AFTER-ANSWER"],
             docs=[(SESSION_SETUP, "Resuming Sessions" if rev.protocol_version == 2 else "Loading Sessions")])
    c.initialize()
    load = send_replaying(c)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("in_progress")))
    answer_replay(c, load)
    p = c.prompt(SESSION_SAVED, "Continue")
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.end_turn(p)

    c = case("ses-replay-plan-while-another-load-is-in-flight",
             "Two loads of one session are in flight; the first is answered, and a plan update comes before the second's "
             "answer: it may be the second load's replay, so it is not after the replay.",
             near_miss=["SES-REPLAY-AFTER-ANSWER"],
             docs=[(SESSION_SETUP, "Resuming Sessions" if rev.protocol_version == 2 else "Loading Sessions")])
    c.initialize()
    loads = []
    for _ in range(2):
        loads.append(send_replaying(c))
    c.open(SESSION_SAVED)
    answer_replay(c, loads[0])
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    answer_replay(c, loads[1])

    # ---- SES-UPDATE-AFTER-CANCEL
    def cancelled_turn(c, p):
        c.c2a(notification("session/cancel", {"sessionId": SESSION}))
        if rev.protocol_version == 2:
            c.agent_result(p, {})
            return c.update(SESSION, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"})
        return c.end_turn(p, "cancelled")

    c = case("ses-plan-after-cancelled-turn",
             "The client cancels; the turn ends (v2: the idle state_update) and then a plan update arrives before any new prompt: a late update of the turn, or background work (an info).",
             docs=[(PROMPT_TURN, "Cancellation")])
    p = c.start()
    c.update(SESSION, entries_plan(rev, steps3("in_progress")))
    cancelled_turn(c, p)
    c.expect("SES-UPDATE-AFTER-CANCEL", c.update(SESSION, entries_plan(rev, steps3("completed"))), "/params/update/sessionUpdate")

    c = case("ses-plan-after-cancel-before-turn-end",
             "After session/cancel the agent sends its last plan update before it ends the turn, as the spec asks; the next prompt starts a new turn.",
             near_miss=["SES-UPDATE-AFTER-CANCEL"], docs=[(PROMPT_TURN, "Cancellation")])
    p = c.start()
    c.update(SESSION, entries_plan(rev, steps3("in_progress")))
    c.c2a(notification("session/cancel", {"sessionId": SESSION}))
    c.update(SESSION, entries_plan(rev, steps3("completed")))
    if rev.protocol_version == 2:
        c.agent_result(p, {})
        c.update(SESSION, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"})
    else:
        c.end_turn(p, "cancelled")
    p = c.prompt(SESSION, "Try again")
    c.update(SESSION, entries_plan(rev, steps3("completed", "in_progress")))
    c.end_turn(p)

    if rev.protocol_version == 2:
        c = case("ses-stray-cancel-while-idle",
                 "v2: the client cancels a session that is idle (its turn ended); the cancel cancels nothing, so the next "
                 "turn is not a cancelled one and a plan update after it ends is not late.",
                 near_miss=["SES-UPDATE-AFTER-CANCEL"], docs=[(PROMPT_TURN, "Cancellation")])
        p = c.start()
        end_prompt(c, p, SESSION)
        c.c2a(notification("session/cancel", {"sessionId": SESSION}))
        p = c.prompt(SESSION, "Try again")
        c.update(SESSION, entries_plan(rev, steps3("in_progress")))
        end_prompt(c, p, SESSION)
        c.update(SESSION, entries_plan(rev, steps3("completed")))
    else:
        c = case("ses-state-update-does-not-end-a-turn",
                 "A state_update (v2's, no update of this revision) after session/cancel does not end the turn: the "
                 "session/prompt answer does, so the plan update before that answer is in time.",
                 near_miss=["SES-UPDATE-AFTER-CANCEL"], docs=[(PROMPT_TURN, "Cancellation")])
        p = c.start()
        c.c2a(notification("session/cancel", {"sessionId": SESSION}))
        c.update(SESSION, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"})
        c.update(SESSION, entries_plan(rev, steps3("completed")))
        c.end_turn(p, "cancelled")

    # ---- SES-LOAD-NOT-ADVERTISED: session/load the agent did not offer (v1 only: v2 has no session/load)
    if rev.protocol_version != 2:
        def initialize_offering(c, capabilities):
            """initialize, answered with `capabilities` as agentCapabilities (None: left out)."""
            id = c.client_request("initialize", {"protocolVersion": 1, "clientCapabilities": c.capabilities(),
                                                 "clientInfo": {"name": "vector-client", "version": "1.0.0"}})
            result = {"protocolVersion": 1, "agentInfo": {"name": "vector-agent", "version": "1.0.0"}, "authMethods": []}
            if capabilities is not None:
                result["agentCapabilities"] = capabilities
            c.agent_result(id, result)

        for slug, capabilities, how in [
            ("false", {"loadSession": False}, "sets `loadSession` to false"),
            ("absent", {"promptCapabilities": {"image": False}}, "leaves `loadSession` out"),
            ("no-agent-capabilities", None, "has no `agentCapabilities`"),
        ]:
            c = case(f"ses-load-not-advertised-{slug}",
                     f"The agent's initialize answer {how}; the client calls session/load anyway: the client's breach.",
                     docs=[(SESSION_SETUP, "Loading Sessions")])
            initialize_offering(c, capabilities)
            load = send_load(c)
            c.expect("SES-LOAD-NOT-ADVERTISED", c.last, "/method")
            c.open(SESSION_SAVED)
            c.agent_result(load, {})

        c = case("ses-load-advertised",
                 "Near miss: the agent's initialize answer sets `loadSession` to true; the client's session/load is allowed.",
                 near_miss=["SES-LOAD-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Loading Sessions")])
        initialize_offering(c, {"loadSession": True})
        load = send_load(c)
        c.open(SESSION_SAVED)
        c.agent_result(load, {})

        c = case("ses-load-advertised-ambiguously",
                 "Near miss: the initialize answer gives `loadSession` twice, true and false. One reading advertises "
                 "loading, so the client's session/load is not judged (the repeat is said once).",
                 near_miss=["SES-LOAD-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Loading Sessions")])
        init = c.client_request("initialize", {"protocolVersion": 1, "clientCapabilities": c.capabilities(),
                                               "clientInfo": {"name": "vector-client", "version": "1.0.0"}})
        c.raw("agent_to_client", '{"jsonrpc":"2.0","id":%d,"result":{"protocolVersion":1,'
              '"agentCapabilities":{"loadSession":true,"loadSession":false},"authMethods":[]}}' % init)
        c.expect("ENV-DUPLICATE-KEY", c.last, "/result/agentCapabilities/loadSession")
        load = send_load(c)
        c.open(SESSION_SAVED)
        c.agent_result(load, {})

        c = case("ses-load-advertised-by-a-second-initialize",
                 "Near miss: the first initialize answer leaves `loadSession` out, a second one sets it to true; the "
                 "answers disagree, so the client's session/load is not judged.",
                 near_miss=["SES-LOAD-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Loading Sessions")])
        initialize_offering(c, {})
        initialize_offering(c, {"loadSession": True})
        load = send_load(c)
        c.open(SESSION_SAVED)
        c.agent_result(load, {})

        c = case("ses-load-advertised-not-a-boolean",
                 "Near miss: `loadSession` is the string \"false\", no boolean: the answer cannot be read as leaving "
                 "loading out, so the client is not judged.",
                 near_miss=["SES-LOAD-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Loading Sessions")])
        initialize_offering(c, {"loadSession": "false"})
        load = send_load(c)
        c.open(SESSION_SAVED)
        c.agent_result(load, {})

    # ---- SES-SESSION-ID-REUSED: a session/new answered with an id the connection already has
    c = case("ses-session-id-reused-by-new",
             "Two session/new requests answered with the same session id: the agent's breach of a unique Session ID. "
             "The client shows the second conversation afresh, not merged with the first one's plan.",
             docs=[(SESSION_SETUP, "Creating a Session")])
    p = c.start()
    c.update(SESSION, plan)
    end_prompt(c, p, SESSION)
    second = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    c.agent_result(second, {"sessionId": SESSION})
    c.expect("SES-SESSION-ID-REUSED", c.last, "/result/sessionId")
    c.sessions[SESSION] = {"legacy": None, "plans": {}}
    c.snapshot()

    c = case("ses-session-id-of-a-loaded-session",
             "A session/new answered with the id of a session "
             + ("resumed" if rev.protocol_version == 2 else "loaded") + " earlier on the connection: not unique.",
             docs=[(SESSION_SETUP, "Creating a Session")])
    c.initialize()
    setup = send_resume(c) if rev.protocol_version == 2 else send_load(c)
    c.open(SESSION_SAVED)
    c.agent_result(setup, {})
    second = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    c.agent_result(second, {"sessionId": SESSION_SAVED})
    c.expect("SES-SESSION-ID-REUSED", c.last, "/result/sessionId")

    c = case("ses-session-id-distinct",
             "Near miss: two session/new requests answered with different session ids.",
             near_miss=["SES-SESSION-ID-REUSED"], docs=[(SESSION_SETUP, "Creating a Session")])
    c.initialize()
    c.new_session(SESSION)
    c.new_session(SESSION_2)

    c = case("ses-session-id-after-close",
             "Near miss: the client closes its session, and a later session/new is answered with the closed "
             "session's id: the suite does not judge reuse after a close.",
             near_miss=["SES-SESSION-ID-REUSED"], docs=[(SESSION_SETUP, "Creating a Session")])
    c.initialize()
    c.new_session(SESSION)
    close = c.client_request("session/close", {"sessionId": SESSION})
    c.agent_result(close, {})
    second = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    c.agent_result(second, {"sessionId": SESSION})

    c = case("ses-session-id-of-a-load-in-flight",
             "Near miss: session/new is answered with the id of a session whose "
             + ("resume" if rev.protocol_version == 2 else "load") + " is still in flight, and that request then fails: "
             "the id was never established before, so it is not reused.",
             near_miss=["SES-SESSION-ID-REUSED"], docs=[(SESSION_SETUP, "Creating a Session")])
    c.initialize()
    setup = send_resume(c) if rev.protocol_version == 2 else send_load(c)
    c.new_session(SESSION_SAVED)
    c.a2c({"jsonrpc": "2.0", "id": setup, "error": {"code": -32002, "message": "Resource not found"}})

    return ("Sessions: initialize first, updates only for established sessions (session/new, load, resume, fork), the shape of session/update params, interleaved sessions.", cases)
