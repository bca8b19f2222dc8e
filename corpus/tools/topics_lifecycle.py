"""lifecycle.json: the session lifecycle read whole (issue 43, part B): bare
variants of close and failed initialize, prompts batched with the resume that
sets their session up, the client's MUSTs on session capabilities, what an
answered session/close ends, and FULL-DELTA across a same-connection replay.

A bare line gives no direction: it is a `record` (the trace format's bare
message, placed by its method or paired by its id). The vector format lets no
record change what a client shows (consumers other than acp-plan skip them),
so lines that open or close a session stay enveloped here; the bare lines that
do (an answered session/close, a batch or a session/resume that opens a
session) are tested in crates/core/src/validate/lifecycle_tests.rs."""

from vectorlib import (
    Case, SESSION, SESSION_2, SESSION_SAVED, CWD, SESSION_SETUP, PROMPT_TURN, V2,
    steps3, entries_plan, chunk, notification, line, session_update, RULES,
)


def lifecycle(rev):
    cases = []
    v2 = rev.protocol_version == 2

    def case(slug, description, **kw):
        kw["near_miss"] = [r for r in kw.get("near_miss", []) if rev.name in RULES[r]["revisions"]]
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def bare(c, message):
        """`message` as a bare line of the trace (a record: no direction)."""
        return c.record(line(message))

    def request(c, method, params):
        """The client's next request as a bare line: its id."""
        message = c.client_message(method, params)
        bare(c, message)
        return message["id"]

    def result(c, id, value):
        return bare(c, {"jsonrpc": "2.0", "id": id, "result": value})

    def error(c, id, code=-32603, message="Internal error"):
        return bare(c, {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})

    def initialize_bare(c, answer=True):
        id = request(c, "initialize", {"protocolVersion": rev.protocol_version,
                                       "clientCapabilities": c.capabilities(),
                                       "clientInfo": {"name": "vector-client", "version": "1.0.0"}})
        if answer:
            result(c, id, {"protocolVersion": rev.protocol_version,
                           "agentCapabilities": {"loadSession": True},
                           "agentInfo": {"name": "vector-agent", "version": "1.0.0"}, "authMethods": []})
        return id

    # ---- bare variants of ses-session-new-after-failed/retried-initialize
    c = case("ses-session-new-after-failed-initialize-bare",
             "A bare trace: the agent answers initialize with an error and the client sends session/new anyway; "
             "the error answer pairs with the initialize by its id, so the connection is not initialized.")
    init = initialize_bare(c, answer=False)
    error(c, init)
    request(c, "session/new", {"cwd": CWD, "mcpServers": []})
    c.expect("SES-BEFORE-INIT", c.last, "/method")

    c = case("ses-session-new-after-retried-initialize-bare",
             "A bare trace: initialize fails, the client initializes again and waits for the successful answer "
             "before session/new.",
             near_miss=["SES-BEFORE-INIT", "TRACE-DIRECTION"])
    init = initialize_bare(c, answer=False)
    error(c, init)
    initialize_bare(c)
    c.new_session()
    p = request(c, "session/prompt", {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Hello"}]})
    result(c, p, {"stopReason": "end_turn"})

    # ---- bare variants of ses-close-*
    c = case("ses-close-failed-keeps-session-bare",
             "session/close and its error answer as bare lines: the session stays open and shown, and its updates "
             "are its own.",
             near_miss=["SES-UNKNOWN-SESSION", "TRACE-DIRECTION"], docs=[(SESSION_SETUP, "Session ID")])
    c.initialize()
    c.new_session()
    p = c.prompt()
    c.update(SESSION, entries_plan(rev, steps3("completed", "in_progress")))
    c.end_turn(p)
    close = request(c, "session/close", {"sessionId": SESSION})
    error(c, close)
    c.update(SESSION, chunk("Still here."))

    # ---- a prompt batched with the session/resume that sets its session up
    def resume_message(c, session=SESSION_SAVED, replay=False):
        params = {"sessionId": session, "cwd": CWD, "mcpServers": []}
        if replay:
            params["replayFrom"] = {"type": "start"}
        return c.client_message("session/resume", params)

    def prompt_message(c, session=SESSION_SAVED):
        return c.client_message("session/prompt", {"sessionId": session, "prompt": [{"type": "text", "text": "Continue"}]})

    def end_prompt(c, p, session=SESSION_SAVED):
        """The end of prompt `p`'s turn: v1 the answer; v2 the answer, then the idle state_update."""
        if v2:
            c.agent_result(p, {})
            return c.update(session, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"})
        return c.end_turn(p)

    def batch_notes(c, index, *lifecycle):
        """What a batch says besides the rule under test: v1 notes the batch, v2 warns at each
        lifecycle-sensitive member (`lifecycle`: their positions)."""
        if v2:
            for at in lifecycle:
                c.expect("ENV-BATCH-LIFECYCLE", index, f"/{at}/method")
        else:
            c.expect("ENV-BATCH", index, "")

    c = case("ses-prompt-batched-with-resume",
             "The client sends session/resume and a session/prompt for the session it resumes in one batch: the "
             "prompt comes before the resume's answer, the client's breach of session setup; the plan "
             "update that follows may be the prompt's turn, so the agent is not judged on it as a replay.",
             near_miss=["SES-RESUME-REPLAY"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    resume = resume_message(c)
    prompt = prompt_message(c)
    text = "[" + line(resume) + "," + line(prompt) + "]"
    at = c.raw("client_to_agent", text)
    batch_notes(c, at, 0, 1)
    c.expect("SES-PROMPT-BEFORE-SETUP", at, "/1/params/sessionId")
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    c.agent_result(resume["id"], {})
    end_prompt(c, prompt["id"])

    c = case("ses-prompt-batched-after-resume-answered",
             "Near miss: the client sends its prompt in a batch once its session/resume is answered: the session is "
             "set up.",
             near_miss=["SES-PROMPT-BEFORE-SETUP", "SES-RESUME-REPLAY"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    resume = resume_message(c)
    c.c2a(resume)
    c.open(SESSION_SAVED)
    c.agent_result(resume["id"], {})
    prompt = prompt_message(c)
    at = c.raw("client_to_agent", "[" + line(prompt) + "]")
    batch_notes(c, at, 0)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
    end_prompt(c, prompt["id"])

    c = case("ses-prompt-batched-with-resume-of-another-session",
             "Near miss: the batch resumes one session and prompts another, created on this connection and set up.",
             near_miss=["SES-PROMPT-BEFORE-SETUP"], docs=[(PROMPT_TURN, "Prompt Turn")])
    c.initialize()
    c.new_session(SESSION)
    resume = resume_message(c)
    prompt = prompt_message(c, SESSION)
    at = c.raw("client_to_agent", "[" + line(resume) + "," + line(prompt) + "]")
    batch_notes(c, at, 0, 1)
    c.open(SESSION_SAVED)
    c.agent_result(resume["id"], {})
    c.update(SESSION, entries_plan(rev, steps3("in_progress")))
    end_prompt(c, prompt["id"], SESSION)

    # ---- SES-RESUME-NOT-ADVERTISED: session/resume the agent did not offer (v1: v2 makes it baseline)
    def initialize_offering(c, capabilities, raw_capabilities=None):
        """initialize, answered with `capabilities` as agentCapabilities (None: left out;
        `raw_capabilities`: their text, for a repeated member)."""
        id = c.client_request("initialize", {"protocolVersion": rev.protocol_version,
                                             "clientCapabilities": c.capabilities(),
                                             "clientInfo": {"name": "vector-client", "version": "1.0.0"}})
        result = {"protocolVersion": rev.protocol_version, "agentInfo": {"name": "vector-agent", "version": "1.0.0"},
                  "authMethods": []}
        if raw_capabilities is not None:
            result["agentCapabilities"] = "@@"
            text = line({"jsonrpc": "2.0", "id": id, "result": result}).replace('"@@"', raw_capabilities)
            return c.raw("agent_to_client", text)
        if capabilities is not None:
            result["agentCapabilities"] = capabilities
        return c.agent_result(id, result)

    def resumed(c):
        """A session/resume of the saved session, answered, and a turn of it."""
        resume = c.client_request("session/resume", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
        at = c.last
        c.open(SESSION_SAVED)
        c.agent_result(resume, {})
        p = c.prompt(SESSION_SAVED, "Continue")
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        end_prompt(c, p)
        return at

    for slug, capabilities, how in [
        ("absent", {"loadSession": False, "sessionCapabilities": {}}, "gives `sessionCapabilities` without `resume`"),
        ("null", {"sessionCapabilities": {"resume": None}}, "sets `sessionCapabilities.resume` to null"),
        ("no-session-capabilities", {"loadSession": True}, "has no `sessionCapabilities`"),
        ("session-capabilities-null", {"sessionCapabilities": None}, "sets `sessionCapabilities` to null"),
        ("no-agent-capabilities", None, "has no `agentCapabilities`"),
    ]:
        if v2:
            break
        c = case(f"ses-resume-not-advertised-{slug}",
                 f"The agent's initialize answer {how}; the client calls session/resume anyway: the client's breach.",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        initialize_offering(c, capabilities)
        c.expect("SES-RESUME-NOT-ADVERTISED", resumed(c), "/method")

    c = case("ses-resume-advertised",
             "Near miss: the agent's initialize answer advertises `sessionCapabilities.resume: {}`"
             + (" (v2: session/resume is a baseline method, advertised or not)" if v2 else "")
             + "; the client's session/resume is allowed.",
             near_miss=["SES-RESUME-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Resuming Sessions")])
    initialize_offering(c, {"sessionCapabilities": {"resume": {}}})
    resumed(c)

    if v2:
        c = case("ses-resume-baseline",
                 "v2: the agent's initialize answer gives no `sessionCapabilities.resume`; session/resume is a "
                 "baseline method (\"Required (no capability marker)\"), so the client's call is allowed.",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        initialize_offering(c, {"loadSession": False})
        resumed(c)
    else:
        c = case("ses-resume-advertised-ambiguously",
                 "Near miss: the initialize answer gives `sessionCapabilities.resume` twice, {} and null. One reading "
                 "advertises resuming, so the client's session/resume is not judged (the repeat is said once).",
                 near_miss=["SES-RESUME-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        answer = initialize_offering(c, None, '{"sessionCapabilities":{"resume":{},"resume":null}}')
        c.expect("ENV-DUPLICATE-KEY", answer, "/result/agentCapabilities/sessionCapabilities/resume")
        resumed(c)

        c = case("ses-resume-advertised-not-an-object",
                 "Near miss: `sessionCapabilities.resume` is `true`, not the object the schema defines: the answer "
                 "cannot be read as leaving resuming out, so the client is not judged.",
                 near_miss=["SES-RESUME-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        initialize_offering(c, {"sessionCapabilities": {"resume": True}})
        resumed(c)

        c = case("ses-resume-advertised-by-a-second-initialize",
                 "Near miss: the first initialize answer leaves `sessionCapabilities.resume` out, a second one "
                 "advertises it; the answers disagree, so the client's session/resume is not judged.",
                 near_miss=["SES-RESUME-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        initialize_offering(c, {})
        initialize_offering(c, {"sessionCapabilities": {"resume": {}}})
        resumed(c)

    # ---- an answered session/close ends what the suite knew of the session's turns
    def close(c, session=SESSION_SAVED, fails=False):
        id = c.client_request("session/close", {"sessionId": session})
        if fails:
            c.a2c({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "Internal error"}})
        else:
            c.agent_result(id, {})
            c.close(session)
        return id

    def resume(c, session=SESSION_SAVED, answer=True):
        id = c.client_request("session/resume", {"sessionId": session, "cwd": CWD, "mcpServers": []})
        c.open(session)
        if answer:
            c.agent_result(id, {})
        return id

    if v2:
        for fails in (False, True):
            c = case("ses-close-ends-the-running-turn" + ("-failed" if fails else ""),
                     "v2: a prompt is accepted and its turn runs; the client closes the session"
                     + (" and the close fails: the turn may still run, so a plan update before the next resume's answer "
                        "may be the turn's, not a replay." if fails else
                        " (\"the agent MUST cancel any ongoing work\") and resumes it: a plan update before the resume's "
                        "answer belongs to no running turn, so it can only be history."),
                     near_miss=["SES-RESUME-REPLAY"] if fails else [], docs=[(SESSION_SETUP, "Resuming Sessions")])
            c.initialize()
            resume(c)
            p = c.prompt(SESSION_SAVED, "Continue")
            c.agent_result(p, {})
            close(c, fails=fails)
            again = resume(c, answer=False)
            u = c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
            if not fails:
                c.expect("SES-RESUME-REPLAY", u, "/params/update/sessionUpdate")
            c.agent_result(again, {})

    def cancelled_turn(c, p):
        c.c2a(notification("session/cancel", {"sessionId": SESSION_SAVED}))
        if v2:
            c.agent_result(p, {})
            return c.update(SESSION_SAVED, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"})
        return c.end_turn(p, "cancelled")

    for fails in (False, True):
        c = case("ses-close-ends-a-cancelled-turn" + ("-failed" if fails else ""),
                 "The client cancels a turn, which ends; it then closes the session"
                 + (", the close fails, and a plan update comes before any prompt: still a late update of the "
                    "cancelled turn (an info)." if fails else
                    " and resumes it: a plan update before the next prompt is no late update of the cancelled turn, "
                    "which ended with the closed session."),
                 near_miss=[] if fails else ["SES-UPDATE-AFTER-CANCEL"], docs=[(PROMPT_TURN, "Cancellation")])
        c.initialize()
        resume(c)
        p = c.prompt(SESSION_SAVED, "Continue")
        cancelled_turn(c, p)
        close(c, fails=fails)
        if not fails:
            resume(c)
        u = c.update(SESSION_SAVED, entries_plan(rev, steps3("completed")))
        if fails:
            c.expect("SES-UPDATE-AFTER-CANCEL", u, "/params/update/sessionUpdate")

    def load(c, session=SESSION_SAVED):
        """A replaying request (v2: session/resume from the start; else session/load), answered."""
        if v2:
            params = {"sessionId": session, "cwd": CWD, "mcpServers": [], "replayFrom": {"type": "start"}}
            id = c.client_request("session/resume", params)
        else:
            id = c.client_request("session/load", {"sessionId": session, "cwd": CWD, "mcpServers": []})
        c.open(session)
        return id

    def answer_load(c, id, session=SESSION_SAVED):
        if rev is V2:
            c.update(session, {"sessionUpdate": "replay_complete"})
        return c.agent_result(id, {})

    c = case("ses-close-ends-the-replay-window",
             "The agent replays the session and answers; the client closes the session and resumes it (no replay): a "
             "plan update before the next prompt is no late replay, the replay having ended with the closed session.",
             near_miss=["SES-REPLAY-AFTER-ANSWER"],
             docs=[(SESSION_SETUP, "Resuming Sessions" if v2 else "Loading Sessions")])
    c.initialize()
    l = load(c)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("in_progress")))
    answer_load(c, l)
    close(c)
    resume(c)
    c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))

    # ---- SES-SESSION-ID-REUSED: a close ends the exemption of its own session only
    c = case("ses-session-id-reused-after-another-session-closed",
             "The client closes one session; a later session/new is answered with the id of another session, still "
             "open: not unique (the close of another session does not excuse it).",
             docs=[(SESSION_SETUP, "Creating a Session")])
    c.initialize()
    c.new_session(SESSION)
    c.new_session(SESSION_2)
    close(c, SESSION)
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    c.agent_result(new, {"sessionId": SESSION_2})
    c.expect("SES-SESSION-ID-REUSED", c.last, "/result/sessionId")
    c.sessions[SESSION_2] = {"legacy": None, "plans": {}}

    c = case("ses-session-id-of-a-session-being-closed",
             "Near miss: a session/new is answered with the id of a session whose session/close is in flight: the "
             "agent may have closed it already, and the text does not say whether a closed session's id stays taken.",
             near_miss=["SES-SESSION-ID-REUSED"], docs=[(SESSION_SETUP, "Creating a Session")])
    c.initialize()
    c.new_session(SESSION)
    closing = c.client_request("session/close", {"sessionId": SESSION})
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    c.agent_result(new, {"sessionId": SESSION})
    c.agent_result(closing, {})
    c.close(SESSION)

    # ---- FULL-DELTA: its memory does not span a replay
    # Each update carries every entry it keeps with a new status and leaves an
    # unfinished one out: shaped like a delta, which FULL-DELTA remembers.
    first = steps3()
    second = steps3("completed", "in_progress")[:2]
    for bare_replay in (False, True):
        tail = "-bare" if bare_replay else ""
        c = case("full-delta-not-across-a-replay" + tail,
                 "The live session's plan drops an entry; then the client asks"
                 + (" (in a bare line)" if bare_replay else "")
                 + " for a replay of the same session on this connection, which restates the older list, entry and "
                 "all, and then the newer one: a faithful replay, not a delta.",
                 near_miss=["FULL-DELTA"], docs=[(SESSION_SETUP, "Resuming Sessions" if v2 else "Loading Sessions")])
        p = c.start()
        c.update(SESSION, entries_plan(rev, first))
        c.update(SESSION, entries_plan(rev, second))
        end_prompt(c, p, SESSION)
        if bare_replay:
            params = {"sessionId": SESSION, "cwd": CWD, "mcpServers": []}
            if v2:
                params["replayFrom"] = {"type": "start"}
            l = request(c, "session/resume" if v2 else "session/load", params)
        else:
            l = load(c, SESSION)
        c.update(SESSION, entries_plan(rev, first))
        c.update(SESSION, entries_plan(rev, second))
        if bare_replay:
            if rev is V2:
                c.update(SESSION, {"sessionUpdate": "replay_complete"})
            result(c, l, {})
        else:
            answer_load(c, l, SESSION)

    c = case("full-delta-restated-without-a-replay",
             "The plan drops an entry and a later update of the next turn restates it unchanged, with no replay "
             "between: the drop looks like a delta (a warning).")
    p = c.start()
    c.update(SESSION, entries_plan(rev, first))
    c.update(SESSION, entries_plan(rev, second))
    end_prompt(c, p, SESSION)
    p = c.prompt(SESSION, "Continue")
    c.expect("FULL-DELTA", c.update(SESSION, entries_plan(rev, steps3("completed", "in_progress"))),
             "/params/update/entries/2" if rev.legacy else "/params/update/plan/entries/2")
    end_prompt(c, p, SESSION)

    # ---- SES-LOAD-V2: v2 removed session/load ("Use session/resume with replayFrom")
    def load_message(c, session=SESSION_SAVED):
        return c.client_message("session/load", {"sessionId": session, "cwd": CWD, "mcpServers": []})

    def replayed_load(c, at, id, session=SESSION_SAVED):
        """The agent answers the load at `at` as a load: it replays a plan, then answers (not judged)."""
        c.open(session)
        c.update(session, entries_plan(rev, steps3("completed", "in_progress")))
        c.agent_result(id, {})
        p = c.prompt(session, "Continue")
        c.update(session, entries_plan(rev, steps3("completed", "completed", "in_progress")))
        end_prompt(c, p, session)

    if v2:
        c = case("ses-load-v2",
                 "v2: the client calls session/load, which v2 removed (\"Use session/resume with replayFrom\"): the "
                 "client's breach. The agent that answers it and replays the session is not judged on that.",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        loading = load_message(c)
        at = c.c2a(loading)
        c.expect("SES-LOAD-V2", at, "/method")
        replayed_load(c, at, loading["id"])

        c = case("ses-load-v2-bare",
                 "v2, a bare trace line: the client's session/load of the session it already shows (the agent "
                 "restates its plan and answers): the client's breach, by its method alone.",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        p = c.start()
        c.update(SESSION, entries_plan(rev, steps3("in_progress")))
        end_prompt(c, p, SESSION)
        loading = load_message(c, SESSION)
        at = bare(c, loading)
        c.expect("SES-LOAD-V2", at, "/method")
        c.update(SESSION, entries_plan(rev, steps3("in_progress")))
        result(c, loading["id"], {})

        c = case("ses-load-v2-method-escaped",
                 "v2: the client writes `method` twice, \"session/load\" and \"session\\/load\" (the same value): one "
                 "reading, a session/load (the repeat is said once).",
                 docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        loading = load_message(c)
        text = line(loading).replace('"method":"session/load"', '"method":"session/load","method":"session\\/load"')
        at = c.raw("client_to_agent", text)
        c.expect("ENV-DUPLICATE-KEY", at, "/method")
        c.expect("SES-LOAD-V2", at, "/method")
        replayed_load(c, at, loading["id"])

        c = case("ses-load-v2-method-repeated",
                 "Near miss, v2: the client writes `method` twice, \"session/load\" then \"session/resume\" (with "
                 "replayFrom): one reading is v2's own replay, so the client is not judged on the removed method "
                 "(the repeat is said once).",
                 near_miss=["SES-LOAD-V2"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        message = c.client_message("session/resume", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": [],
                                                      "replayFrom": {"type": "start"}})
        text = line(message).replace('"method":"session/resume"', '"method":"session/load","method":"session/resume"')
        at = c.raw("client_to_agent", text)
        c.expect("ENV-DUPLICATE-KEY", at, "/method")
        c.open(SESSION_SAVED)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        answer_load(c, message["id"])

        c = case("ses-load-v2-resume-replay-from",
                 "Near miss, v2: the client replays the session as v2 says, session/resume with "
                 "`\"replayFrom\": {\"type\": \"start\"}`.",
                 near_miss=["SES-LOAD-V2"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        l = load(c)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        answer_load(c, l)

        c = case("ses-load-v2-after-an-unread-line",
                 "Near miss, v2: a line the suite cannot read comes after the initialize answer (it may have been "
                 "another initialize answer, of another version), then the client's session/load: the revision is "
                 "not v2 for certain, so the client is not judged.",
                 near_miss=["SES-LOAD-V2"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        c.expect("ENV-JSON", c.raw("agent_to_client", '{"jsonrpc":"2.0","id":'), "")
        loading = load_message(c)
        at = c.c2a(loading)
        replayed_load(c, at, loading["id"])
    else:
        c = case("ses-load-v1-advertised",
                 "Near miss: the agent advertises `loadSession: true` and the client calls session/load, as v1 "
                 "allows (only v2 removed it).",
                 near_miss=["SES-LOAD-V2", "SES-LOAD-NOT-ADVERTISED"], docs=[(SESSION_SETUP, "Loading Sessions")])
        c.initialize()
        l = load(c)
        c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
        answer_load(c, l)

    # ---- a replay_complete whose members repeat: counted once per message
    if rev is V2:
        def resume_from_start(c):
            l = load(c)
            c.update(SESSION_SAVED, entries_plan(rev, steps3("completed", "in_progress")))
            return l

        marker = '{"sessionUpdate":"replay_complete","sessionUpdate":"replay_complete"}'
        escaped = '{"sessionUpdate":"replay_complete","sessionUpdate":"replay_\\u0063omplete"}'
        for slug, update, how in [
            ("repeated", marker, "`sessionUpdate` written twice with the same value"),
            ("repeated-escaped", escaped, "`sessionUpdate` written twice, once with an escape (the same value)"),
        ]:
            for bare_marker in (False, True):
                tail = "-bare" if bare_marker else ""
                c = case(f"ses-replay-complete-{slug}{tail}",
                         f"Near miss, v2: the replay ends with one replay_complete whose {how}"
                         + (", as a bare line" if bare_marker else "")
                         + ": one reading, one marker, not a second one (the repeat is said once).",
                         near_miss=["SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
                c.initialize()
                l = resume_from_start(c)
                text = line(session_update(SESSION_SAVED, {"sessionUpdate": "@@"})).replace('{"sessionUpdate":"@@"}', update)
                at = c.record(text) if bare_marker else c.raw("agent_to_client", text)
                c.expect("ENV-DUPLICATE-KEY", at, "/params/update/sessionUpdate")
                c.agent_result(l, {})

        c = case("ses-replay-complete-repeated-update",
                 "Near miss, v2: the marker's `update` is written twice, each a replay_complete with a different "
                 "`_meta`: two readings, both the same session's marker, so one marker.",
                 near_miss=["SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        l = resume_from_start(c)
        text = line(session_update(SESSION_SAVED, "@@")).replace(
            '"update":"@@"',
            '"update":{"sessionUpdate":"replay_complete","_meta":{"n":1}},'
            '"update":{"sessionUpdate":"replay_complete","_meta":{"n":2}}')
        at = c.raw("agent_to_client", text)
        c.expect("ENV-DUPLICATE-KEY", at, "/params/update")
        c.agent_result(l, {})

        c = case("ses-replay-complete-maybe",
                 "Near miss, v2: `sessionUpdate` is written twice, replay_complete and agent_message_chunk: the "
                 "agent may or may not have ended the replay, so neither a missing marker nor a second one is "
                 "judged (the repeat is said once).",
                 near_miss=["SES-REPLAY-COMPLETE"], docs=[(SESSION_SETUP, "Resuming Sessions")])
        c.initialize()
        l = resume_from_start(c)
        text = line(session_update(SESSION_SAVED, {"sessionUpdate": "@@", "content": {"type": "text", "text": "x"}}))
        text = text.replace('"sessionUpdate":"@@"', '"sessionUpdate":"replay_complete","sessionUpdate":"agent_message_chunk"')
        at = c.raw("agent_to_client", text)
        c.expect("ENV-DUPLICATE-KEY", at, "/params/update/sessionUpdate")
        c.agent_result(l, {})

        for bare_marker in (False, True):
            tail = "-bare" if bare_marker else ""
            c = case("ses-replay-complete-repeated-then-again" + tail,
                     "v2: one replay_complete with `sessionUpdate` written twice (one marker), then a second "
                     "replay_complete" + (" as a bare line" if bare_marker else "") + " before the answer: exactly once "
                     "is due, so the second is the agent's breach.",
                     docs=[(SESSION_SETUP, "Resuming Sessions")])
            c.initialize()
            l = resume_from_start(c)
            text = line(session_update(SESSION_SAVED, {"sessionUpdate": "@@"})).replace('{"sessionUpdate":"@@"}', marker)
            at = c.raw("agent_to_client", text)
            c.expect("ENV-DUPLICATE-KEY", at, "/params/update/sessionUpdate")
            again = line(session_update(SESSION_SAVED, {"sessionUpdate": "replay_complete"}))
            at = c.record(again) if bare_marker else c.raw("agent_to_client", again)
            c.expect("SES-REPLAY-COMPLETE", at, "/params/update/sessionUpdate")
            c.agent_result(l, {})

    return ("Lifecycle: bare variants of close and failed initialize, prompts batched with session setup, "
            "session capabilities, what a close ends, FULL-DELTA across a replay.", cases)
