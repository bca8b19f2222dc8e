"""session.json: SES-* (initialize first, established sessions, the shape of
session/update), session/load replay, resume and fork, interleaved sessions."""

from vectorlib import (
    Case, SESSION, SESSION_2, SESSION_SAVED, CWD, MD_STEPS, SESSION_SETUP, RFD,
    entry, steps3, legacy, items, markdown, removed, entries_plan, chunk, notification, session_update,
)


def session(rev):
    cases = []

    def case(slug, description, **kw):
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    plan = entries_plan(rev, steps3())

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

    c = case("ses-update-before-initialize",
             "The agent sends a session/update before initialize is answered, for a session that does not exist yet.")
    init = c.initialize(answer=False)
    c.update(SESSION, chunk("Starting up."), shown=False)
    c.expect("SES-BEFORE-INIT", c.last, "/method")
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
    c.a2c({"jsonrpc": "2.0", "id": new, "error": {"code": -32603, "message": "Internal error"}})
    c.expect("SES-UNKNOWN-SESSION", c.update(SESSION, plan, shown=False), "/params/sessionId")

    c = case("ses-retry-after-failed-session-new",
             "A failed session/new establishes nothing; the retry's result does.",
             near_miss=["SES-UNKNOWN-SESSION"])
    c.initialize()
    new = c.new_session(answer=False)
    c.a2c({"jsonrpc": "2.0", "id": new, "error": {"code": -32603, "message": "Internal error"}})
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
    load = c.client_request("session/load", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
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

    c = case("ses-unknown-session-after-failed-load",
             "session/load fails (the agent cannot find the session), so it establishes nothing; a later update for it is for an unknown session.",
             docs=[(SESSION_SETUP, "Loading Sessions")])
    c.initialize()
    load = c.client_request("session/load", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
    c.a2c({"jsonrpc": "2.0", "id": load, "error": {"code": -32002, "message": "Resource not found"}})
    c.expect("SES-UNKNOWN-SESSION", c.update(SESSION_SAVED, plan, shown=False), "/params/sessionId")

    c = case("ses-resume-establishes-session",
             "session/resume names the session in its params; updates for it afterwards are for an established session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Session ID")])
    c.initialize()
    resume = c.client_request("session/resume", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
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

    return ("Sessions: initialize first, updates only for established sessions (session/new, load, resume, fork), the shape of session/update params, interleaved sessions.", cases)
