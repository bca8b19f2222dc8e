"""readings2.json: one message read more than one way, judged once (issue 43,
the last readings). A response that repeats `result`, `error` or `id` is one
response: paired once, never a duplicate of itself, and judged on what every
reading says (the version and session capabilities it negotiates, the
session it opens); a repeated `id` that names two requests answers neither
for certain. Bare lines are records (placed by what they carry, paired by
id); lines that would open a session stay enveloped (see lifecycle.json)."""

from vectorlib import (
    Case, SESSION, SESSION_2, SESSION_SAVED, CWD, INITIALIZATION, JSONRPC, RFC8259, SESSION_SETUP,
    steps3, legacy, items, chunk, session_update, line, RULES,
)


def twice(message, member, first, second):
    """`message` as one line with `member` (a `"key":value` text that occurs
    once in it) written twice: `first`, then `second`."""
    text = line(message)
    assert text.count(member) == 1, (member, text)
    return text.replace(member, first + "," + second, 1)


def readings2(rev):
    cases = []
    own = rev.protocol_version
    other = 2 if own == 1 else 1

    def case(slug, description, **kw):
        kw["near_miss"] = [r for r in kw.get("near_miss", []) if rev.name in RULES[r]["revisions"]]
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def send(c, bare, text):
        """The agent's line `text`, bare (a record) or in an envelope."""
        return c.record(text) if bare else c.raw("agent_to_client", text)

    def initialize_request(c, capabilities=None):
        return c.client_request("initialize", {
            "protocolVersion": own,
            "clientCapabilities": {} if capabilities is None else capabilities,
            "clientInfo": {"name": "vector-client", "version": "1.0.0"}})

    def init_result(version, **capabilities):
        return {"protocolVersion": version, "agentCapabilities": {"loadSession": True, **capabilities},
                "authMethods": []}

    def repeated_results(c, bare, id, first, second):
        """The agent's answer to `id` giving `result` twice: `first`, then `second`."""
        text = twice({"jsonrpc": "2.0", "id": id, "result": 0}, '"result":0',
                     '"result":' + line(first), '"result":' + line(second))
        return send(c, bare, text)

    def split_the_revisions(c):
        """A legacy `plan` (v2: CAP-LEGACY-V2) and a `plan_update` without the
        plan capability (v1 and the draft: CAP-PLAN-OPS): each breaks some
        revision's rules and not another's."""
        c.update(SESSION, legacy(steps3()))
        c.a2c(session_update(SESSION, items(rev, "plan-1", steps3("in_progress"))))

    for bare in (False, True):
        how = "bare" if bare else "enveloped"
        where = "a bare line (a record, paired by its id)" if bare else "an envelope"

        # ---- a repeated `result`: one response, paired once
        c = case(f"repeat-result-prompt-answer-{how}",
                 f"The prompt's answer gives `result` twice with different stop reasons, in {where}: one response "
                 "to one request, paired once; the repeat is named against the agent, never a duplicate response.",
                 near_miss=["ENV-DUPLICATE-RESPONSE", "ENV-UNKNOWN-RESPONSE", "TRACE-DIRECTION"],
                 docs=[(RFC8259, "4. Objects"), (JSONRPC, "5. Response object")])
        p = c.start()
        c.update(SESSION, chunk("Working."))
        repeated_results(c, bare, p, {"stopReason": "end_turn"}, {"stopReason": "cancelled"})
        c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
        p = c.prompt()
        c.end_turn(p)

        c = case(f"repeat-result-initialize-versions-disagree-{how}",
                 f"The initialize answer gives `result` twice, negotiating protocolVersion {own} and then {other}, "
                 f"in {where}: paired once, its readings negotiate different versions, so the revision is unknown "
                 "(the check incomplete) and updates that one revision allows and another forbids are judged by none.",
                 detect=True,
                 near_miss=["ENV-DUPLICATE-RESPONSE", "CAP-PLAN-OPS", "CAP-LEGACY-V2", "SES-PROTOCOL-VERSION"],
                 docs=[(INITIALIZATION, "Protocol version"), (RFC8259, "4. Objects")])
        init = initialize_request(c)
        repeated_results(c, bare, init, init_result(own), init_result(other))
        c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
        c.expect("INIT-VERSION-UNKNOWN", c.last, "/result")
        c.new_session()
        p = c.prompt()
        split_the_revisions(c)
        c.end_turn(p)

        c = case(f"repeat-result-initialize-one-version-{how}",
                 f"The initialize answer gives `result` twice, both negotiating protocolVersion {own} (they differ "
                 f"only in agentInfo), in {where}: one version, so the revision is known and judges.",
                 detect=True, near_miss=["ENV-DUPLICATE-RESPONSE", "INIT-VERSION-UNKNOWN", "SES-PROTOCOL-VERSION"],
                 docs=[(INITIALIZATION, "Protocol version"), (RFC8259, "4. Objects")])
        init = initialize_request(c)
        first = {**init_result(own), "agentInfo": {"name": "vector-agent", "version": "1.0.0"}}
        second = {**init_result(own), "agentInfo": {"name": "vector-agent", "version": "1.0.1"}}
        repeated_results(c, bare, init, first, second)
        c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
        c.new_session()
        p = c.prompt()
        if rev.legacy:
            c.update(SESSION, legacy(steps3()))
        else:
            c.expect("CAP-LEGACY-V2", c.a2c(session_update(SESSION, legacy(steps3()))),
                     "/params/update/sessionUpdate")
        c.end_turn(p)

        c = case(f"repeat-error-initialize-{how}",
                 f"The initialize answer gives `error` twice, in {where}: one failed answer, paired once; the client "
                 "initializes again before its session.",
                 near_miss=["ENV-DUPLICATE-RESPONSE", "SES-BEFORE-INIT"],
                 docs=[(RFC8259, "4. Objects"), (JSONRPC, "5. Response object")])
        init = initialize_request(c, c.capabilities())
        text = twice({"jsonrpc": "2.0", "id": init, "error": 0}, '"error":0',
                     '"error":{"code":-32603,"message":"Internal error"}',
                     '"error":{"code":-32600,"message":"Invalid request"}')
        send(c, bare, text)
        c.expect("ENV-DUPLICATE-KEY", c.last, "/error")
        c.initialize()
        c.new_session()
        p = c.prompt()
        c.end_turn(p)

        if rev.legacy:
            c = case(f"repeat-result-initialize-load-offer-disagrees-{how}",
                     f"The initialize answer gives `result` twice, one with loadSession true and one with false, in "
                     f"{where}: whether the agent offered session/load is unknown, so the client's load is not "
                     "judged against the offer.",
                     near_miss=["SES-LOAD-NOT-ADVERTISED", "ENV-DUPLICATE-RESPONSE"],
                     docs=[(INITIALIZATION, "Agent capabilities"), (RFC8259, "4. Objects")])
            init = initialize_request(c, c.capabilities())
            repeated_results(c, bare, init, init_result(own), init_result(own, loadSession=False))
            c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
            load = c.client_request("session/load", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
            c.agent_result(load, {})
            c.open(SESSION_SAVED)

            c = case(f"repeat-result-initialize-load-never-offered-{how}",
                     f"The initialize answer gives `result` twice, both with loadSession false, in {where}: every "
                     "reading withholds session/load, so the client's load breaks the MUST.",
                     near_miss=["ENV-DUPLICATE-RESPONSE"],
                     docs=[(INITIALIZATION, "Agent capabilities"), (RFC8259, "4. Objects")])
            init = initialize_request(c, c.capabilities())
            repeated_results(c, bare, init, init_result(own, loadSession=False),
                             {**init_result(own, loadSession=False), "authMethods": [{"id": "x", "name": "X"}]})
            c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
            load = c.client_request("session/load", {"sessionId": SESSION_SAVED, "cwd": CWD, "mcpServers": []})
            c.expect("SES-LOAD-NOT-ADVERTISED", c.last, "/method")
            c.agent_result(load, {})
            c.open(SESSION_SAVED)

        # ---- a repeated `id`: two requests, neither answered for certain
        c = case(f"repeat-id-two-prompts-{how}",
                 f"Two prompts in flight; the agent's answer gives `id` twice, naming both, in {where}: it may answer "
                 "either, so the later answer to the second is no duplicate response.",
                 near_miss=["ENV-DUPLICATE-RESPONSE", "ENV-UNKNOWN-RESPONSE", "TRACE-DIRECTION"],
                 docs=[(RFC8259, "4. Objects"), (JSONRPC, "5. Response object")])
        c.initialize()
        c.new_session(SESSION)
        c.new_session(SESSION_2)
        first = c.prompt(SESSION)
        second = c.prompt(SESSION_2)
        text = twice({"jsonrpc": "2.0", "id": 0, "result": {"stopReason": "end_turn"}}, '"id":0',
                     f'"id":{first}', f'"id":{second}')
        send(c, bare, text)
        c.expect("ENV-DUPLICATE-KEY", c.last, "/id")
        c.end_turn(second)

        c = case(f"repeat-id-one-names-no-request-{how}",
                 f"The prompt's answer gives `id` twice, once its own and once an id no request has, in {where}: "
                 "one reading answers the prompt, so no reading's unknown id is an error.",
                 near_miss=["ENV-UNKNOWN-RESPONSE", "ENV-DUPLICATE-RESPONSE", "TRACE-DIRECTION"],
                 docs=[(RFC8259, "4. Objects"), (JSONRPC, "5. Response object")])
        p = c.start()
        text = twice({"jsonrpc": "2.0", "id": 0, "result": {"stopReason": "end_turn"}}, '"id":0',
                     f'"id":{p}', '"id":9999')
        send(c, bare, text)
        c.expect("ENV-DUPLICATE-KEY", c.last, "/id")

        if not bare:
            c = case("repeat-id-both-name-no-request-enveloped",
                     "A response gives `id` twice, neither naming a request in flight: every reading answers no "
                     "request, so the unknown response is said once.",
                     docs=[(RFC8259, "4. Objects"), (JSONRPC, "5. Response object")])
            p = c.start()
            text = twice({"jsonrpc": "2.0", "id": 0, "result": {"stopReason": "end_turn"}}, '"id":0',
                         '"id":9998', '"id":9999')
            send(c, bare, text)
            c.expect("ENV-DUPLICATE-KEY", c.last, "/id")
            c.expect("ENV-UNKNOWN-RESPONSE", c.last, "/id")
            c.end_turn(p)

    # ---- a repeated `result` of session/new: each reading opens its session
    c = case("repeat-result-session-new-two-sessions",
             "session/new answered with `result` twice, naming two sessions: one response, paired once; either may "
             "be the session, so the agent's updates for either are its own.",
             near_miss=["ENV-DUPLICATE-RESPONSE", "SES-UNKNOWN-SESSION", "SES-SESSION-ID-REUSED"],
             docs=[(SESSION_SETUP, "Session ID"), (RFC8259, "4. Objects")])
    c.initialize()
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    repeated_results(c, False, new, {"sessionId": SESSION}, {"sessionId": SESSION_2})
    c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
    c.open(SESSION)
    c.open(SESSION_2)
    p = c.prompt(SESSION)
    c.update(SESSION, chunk("Working."))
    c.end_turn(p)
    p = c.prompt(SESSION_2)
    c.update(SESSION_2, chunk("Working."))
    c.end_turn(p)

    c = case("repeat-result-session-new-reuses-in-one-reading",
             "A second session/new answered with `result` twice: one reading gives the first session's id again, "
             "the other a fresh one. Not every reading reuses an id, so no reuse is judged.",
             near_miss=["SES-SESSION-ID-REUSED", "ENV-DUPLICATE-RESPONSE"],
             docs=[(SESSION_SETUP, "Session ID"), (RFC8259, "4. Objects")])
    c.initialize()
    c.new_session(SESSION)
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    repeated_results(c, False, new, {"sessionId": SESSION}, {"sessionId": SESSION_2})
    c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
    c.open(SESSION_2)
    p = c.prompt(SESSION_2)
    c.end_turn(p)

    c = case("repeat-result-session-new-reuses-in-every-reading",
             "A second session/new answered with `result` twice, both readings giving the first session's id again: "
             "every reading breaks \"a unique Session ID\".",
             near_miss=["ENV-DUPLICATE-RESPONSE"],
             docs=[(SESSION_SETUP, "Session ID"), (RFC8259, "4. Objects")])
    c.initialize()
    c.new_session(SESSION)
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    repeated_results(c, False, new, {"sessionId": SESSION}, {"sessionId": SESSION, "_meta": {"acme.dev/n": 2}})
    c.expect("ENV-DUPLICATE-KEY", c.last, "/result")
    c.expect("SES-SESSION-ID-REUSED", c.last, "/result/sessionId")

    # ---- one session/update read more than one way changes the state once
    idle = {"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"}

    def update_twice(c, bare, session, member, first, second, update=None):
        """An agent session/update of `session` with `member` written twice."""
        text = twice(session_update(session, idle if update is None else update), member, first, second)
        return send(c, bare, text)

    def cancelled_v2_turn(c, session):
        """v2: a prompt of `session`, answered, then the client's cancel:
        the turn runs until an idle state_update."""
        p = c.prompt(session)
        c.agent_result(p, {})
        c.c2a({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": session}})

    if not rev.legacy:
        for bare in (False, True):
            how = "bare" if bare else "enveloped"
            where = "a bare line" if bare else "an envelope"
            c = case(f"update-readings-idle-of-two-sessions-{how}",
                     f"Two cancelled v2 turns; an idle state_update gives `sessionId` twice, once each session, in "
                     f"{where}: either turn may have ended, so neither is taken as ended, and a plan update of "
                     "either after it is no late update of a cancelled turn.",
                     near_miss=["SES-UPDATE-AFTER-CANCEL", "SES-UNKNOWN-SESSION"],
                     docs=[(RFC8259, "4. Objects")])
            c.initialize()
            c.new_session(SESSION)
            c.new_session(SESSION_2)
            cancelled_v2_turn(c, SESSION)
            cancelled_v2_turn(c, SESSION_2)
            update_twice(c, bare, SESSION, f'"sessionId":"{SESSION}"', f'"sessionId":"{SESSION}"',
                         f'"sessionId":"{SESSION_2}"')
            c.expect("ENV-DUPLICATE-KEY", c.last, "/params/sessionId")
            c.update(SESSION, items(rev, "plan-1", steps3("completed")))
            c.update(SESSION_2, items(rev, "plan-1", steps3("completed")))

            c = case(f"update-readings-idle-in-every-reading-{how}",
                     f"Near miss of the one above: a cancelled v2 turn ended by a state_update whose `update` is given "
                     f"twice, both idle (one with `_meta`), in {where}: every reading ends the turn, once, so a plan "
                     "update after it is a late update of the cancelled turn.",
                     docs=[(RFC8259, "4. Objects")])
            c.initialize()
            c.new_session(SESSION)
            cancelled_v2_turn(c, SESSION)
            update_twice(c, bare, SESSION, '"update":' + line(idle), '"update":' + line(idle),
                         '"update":' + line({**idle, "_meta": {"acme.dev/n": 1}}))
            c.expect("ENV-DUPLICATE-KEY", c.last, "/params/update")
            u = c.update(SESSION, items(rev, "plan-1", steps3("completed")))
            c.expect("SES-UPDATE-AFTER-CANCEL", u, "/params/update/sessionUpdate")

            c = case(f"update-readings-idle-in-one-reading-{how}",
                     f"A cancelled v2 turn and a session/update whose `sessionUpdate` is given twice, `state_update` "
                     f"(idle) then `agent_message_chunk`, in {where}: one reading ends the turn, the other does not, "
                     "so the turn is not taken as ended.",
                     near_miss=["SES-UPDATE-AFTER-CANCEL"], docs=[(RFC8259, "4. Objects")])
            c.initialize()
            c.new_session(SESSION)
            cancelled_v2_turn(c, SESSION)
            both = {**idle, "content": {"type": "text", "text": "Stopping."}}
            update_twice(c, bare, SESSION, '"sessionUpdate":"state_update"', '"sessionUpdate":"state_update"',
                         '"sessionUpdate":"agent_message_chunk"', update=both)
            c.expect("ENV-DUPLICATE-KEY", c.last, "/params/update/sessionUpdate")
            c.update(SESSION, items(rev, "plan-1", steps3("completed")))

            c = case(f"update-readings-state-idle-in-one-value-{how}",
                     f"A cancelled v2 turn and a state_update whose `state` is given twice, `running` then `idle`, in "
                     f"{where}: one reading ends the turn, the other does not, so the turn is not taken as ended.",
                     near_miss=["SES-UPDATE-AFTER-CANCEL"], docs=[(RFC8259, "4. Objects")])
            c.initialize()
            c.new_session(SESSION)
            cancelled_v2_turn(c, SESSION)
            update_twice(c, bare, SESSION, '"state":"idle"', '"state":"running"', '"state":"idle"')
            c.expect("ENV-DUPLICATE-KEY", c.last, "/params/update/state")
            c.update(SESSION, items(rev, "plan-1", steps3("completed")))

            c = case(f"update-readings-state-idle-in-every-value-{how}",
                     f"Near miss of the one above: `state` given twice, `idle` and `\\u0069dle` (the same value), in "
                     f"{where}: every reading ends the turn, so a plan update after it is a late update of the "
                     "cancelled turn.",
                     docs=[(RFC8259, "4. Objects")])
            c.initialize()
            c.new_session(SESSION)
            cancelled_v2_turn(c, SESSION)
            update_twice(c, bare, SESSION, '"state":"idle"', '"state":"idle"', '"state":"\\u0069dle"')
            c.expect("ENV-DUPLICATE-KEY", c.last, "/params/update/state")
            u = c.update(SESSION, items(rev, "plan-1", steps3("completed")))
            c.expect("SES-UPDATE-AFTER-CANCEL", u, "/params/update/sessionUpdate")

    # ---- a rule only one reading of a repeated member breaks is no error
    for bare in (False, True):
        how = "bare" if bare else "enveloped"
        where = "a bare line" if bare else "an envelope"
        c = case(f"repeat-jsonrpc-one-reading-wrong-{how}",
                 f"An agent's session/update gives `jsonrpc` twice, \"2.0\" then \"1.0\", in {where}: only one "
                 "reading breaks \"MUST be exactly \\\"2.0\\\"\", so ENV-VERSION is not reported (the repeat is).",
                 near_miss=["ENV-VERSION"], docs=[(RFC8259, "4. Objects")])
        c.initialize()
        c.new_session(SESSION)
        text = twice(session_update(SESSION, chunk("Working.")), '"jsonrpc":"2.0"', '"jsonrpc":"2.0"', '"jsonrpc":"1.0"')
        c.expect("ENV-DUPLICATE-KEY", send(c, bare, text), "/jsonrpc")

        c = case(f"repeat-jsonrpc-every-reading-wrong-{how}",
                 f"Near miss of the one above: `jsonrpc` given twice, \"1.0\" then \"3.0\", in {where}: every reading "
                 "breaks the rule, so ENV-VERSION is reported, once.",
                 docs=[(RFC8259, "4. Objects")])
        c.initialize()
        c.new_session(SESSION)
        text = twice(session_update(SESSION, chunk("Working.")), '"jsonrpc":"2.0"', '"jsonrpc":"1.0"', '"jsonrpc":"3.0"')
        at = send(c, bare, text)
        c.expect("ENV-DUPLICATE-KEY", at, "/jsonrpc")
        c.expect("ENV-VERSION", at, "/jsonrpc")

        # A setup that asks for a replay (v2: session/resume from the start;
        # else session/load) one reading of a repeated `id` answers: the
        # session may be set up, so a prompt of it is not judged as before
        # its setup (found by the property tests).
        setup_docs = [(RFC8259, "4. Objects"), (SESSION_SETUP, "Resuming Sessions" if own == 2 else "Loading Sessions")]

        def set_up(c, session=SESSION_SAVED):
            params = {"sessionId": session, "cwd": CWD, "mcpServers": []}
            if own == 2:
                params["replayFrom"] = {"type": "start"}
            id = c.client_request("session/resume" if own == 2 else "session/load", params)
            c.open(session)
            if rev.name == "v2":
                # Release 1.20.0: the marker that ends the replay.
                c.update(session, {"sessionUpdate": "replay_complete"})
            return id

        c = case(f"repeat-id-may-answer-the-setup-{how}",
                 f"The agent's answer to the request that sets a session up gives `id` twice, its own and an id no request has, in "
                 f"{where}: under one reading the session is set up, so the client's prompt after it is not judged "
                 "as sent before setup.",
                 near_miss=["SES-PROMPT-BEFORE-SETUP", "ENV-UNKNOWN-RESPONSE"],
                 docs=setup_docs)
        c.initialize()
        r = set_up(c)
        send(c, bare, twice({"jsonrpc": "2.0", "id": 0, "result": {}}, '"id":0', f'"id":{r}', '"id":9999'))
        c.expect("ENV-DUPLICATE-KEY", c.last, "/id")
        p = c.prompt(SESSION_SAVED)
        c.update(SESSION_SAVED, chunk("Working."))
        c.end_turn(p)

        c = case(f"repeat-id-may-answer-either-setup-{how}",
                 f"Two sessions set up (replays asked for); the agent's answer gives `id` twice, naming both requests, in {where}: "
                 "either session may be set up, so a prompt of either is not judged as sent before setup.",
                 near_miss=["SES-PROMPT-BEFORE-SETUP", "ENV-DUPLICATE-RESPONSE"],
                 docs=setup_docs)
        c.initialize()
        first = set_up(c)
        second = set_up(c, SESSION_2)
        send(c, bare, twice({"jsonrpc": "2.0", "id": 0, "result": {}}, '"id":0', f'"id":{first}', f'"id":{second}'))
        c.expect("ENV-DUPLICATE-KEY", c.last, "/id")
        p = c.prompt(SESSION_SAVED)
        c.update(SESSION_SAVED, chunk("Working."))
        c.end_turn(p)
        c.agent_result(second, {})

        c = case(f"repeat-id-answers-no-setup-{how}",
                 f"Near miss of the two above: the answer gives `id` twice, naming a prompt in flight and an id no "
                 f"request has, in {where}: no reading answers the request that sets a session up, so the prompt of it "
                 "is sent before setup under every reading.",
                 near_miss=["ENV-UNKNOWN-RESPONSE"],
                 docs=setup_docs)
        c.initialize()
        c.new_session(SESSION)
        busy = c.prompt(SESSION)
        r = set_up(c)
        send(c, bare, twice({"jsonrpc": "2.0", "id": 0, "result": {"stopReason": "end_turn"}}, '"id":0',
                            f'"id":{busy}', '"id":9999'))
        c.expect("ENV-DUPLICATE-KEY", c.last, "/id")
        p = c.prompt(SESSION_SAVED)
        c.expect("SES-PROMPT-BEFORE-SETUP", c.last, "/params/sessionId")
        c.agent_result(r, {})
        c.end_turn(p)

        if rev.name == "v2":
            # v2 (release 1.20.0): a session/resume whose `sessionId` is
            # given twice asks for a replay of either session; the marker of
            # either may end it (found by the property tests).
            def resume_twice(c):
                params = {"sessionId": "@@", "cwd": CWD, "mcpServers": [], "replayFrom": {"type": "start"}}
                message = c.client_message("session/resume", params)
                id = message["id"]
                text = line(message)
                text = text.replace('"sessionId":"@@"', f'"sessionId":"{SESSION_SAVED}","sessionId":"{SESSION_2}"')
                c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", text), "/params/sessionId")
                c.open(SESSION_SAVED)
                c.open(SESSION_2)
                return id

            c = case(f"repeat-session-id-resume-marker-of-either-{how}",
                     f"The client's session/resume from the start gives `sessionId` twice; the agent's replay_complete "
                     f"names the first, then it answers, in {where}: under one reading that marker ends the replay, "
                     "so neither the marker nor the answer is judged as out of place or owed.",
                     near_miss=["SES-REPLAY-COMPLETE"],
                     docs=[(RFC8259, "4. Objects"), (SESSION_SETUP, "Resuming Sessions")])
            c.initialize()
            r = resume_twice(c)
            send(c, bare, line(session_update(SESSION_SAVED, {"sessionUpdate": "replay_complete"})))
            send(c, bare, line({"jsonrpc": "2.0", "id": r, "result": {}}))

            c = case(f"repeat-session-id-resume-marker-of-neither-{how}",
                     f"Near miss of the one above: the replay_complete names a third session, in {where}: no reading "
                     "of the resume asked for its replay, so the marker is out of place under every reading.",
                     docs=[(RFC8259, "4. Objects"), (SESSION_SETUP, "Resuming Sessions")])
            c.initialize()
            c.new_session(SESSION)
            r = resume_twice(c)
            at = send(c, bare, line(session_update(SESSION, {"sessionUpdate": "replay_complete"})))
            c.expect("SES-REPLAY-COMPLETE", at, "/params/update/sessionUpdate")
            send(c, bare, line(session_update(SESSION_2, {"sessionUpdate": "replay_complete"})))
            send(c, bare, line({"jsonrpc": "2.0", "id": r, "result": {}}))

        c = case(f"client-line-may-be-session-update-{how}",
                 f"The client writes `method` twice, `session/cancel` then `session/update`, in {where}: one reading "
                 "is a cancel, so SES-UPDATE-NOTIFICATION (a client's session/update) is not reported.",
                 near_miss=["SES-UPDATE-NOTIFICATION"], docs=[(RFC8259, "4. Objects")])
        c.initialize()
        c.new_session(SESSION)
        text = line({"jsonrpc": "2.0", "method": "@@", "params": {"sessionId": SESSION, "update": chunk("x")}})
        text = text.replace('"method":"@@"', '"method":"session/cancel","method":"session/update"')
        at = c.record(text) if bare else c.raw("client_to_agent", text)
        c.expect("ENV-DUPLICATE-KEY", at, "/method")

    c = case("update-readings-of-two-unnamed-sessions",
             "Two session/new answers without a session id (the agent's SES-NEW-SESSION-ID), then an update whose "
             "`sessionId` is given twice with two new ids: one message is one of the unnamed sessions, whichever "
             "reading holds, so an update for a third id is the other one, not an unknown session.",
             near_miss=["SES-UNKNOWN-SESSION"], docs=[(SESSION_SETUP, "Session ID"), (RFC8259, "4. Objects")])
    c.initialize()
    for _ in range(2):
        new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
        c.agent_result(new, {})
        c.expect("SES-NEW-SESSION-ID", c.last, "/result")
    text = twice(session_update(SESSION, chunk("Working.")), f'"sessionId":"{SESSION}"',
                 f'"sessionId":"{SESSION}"', f'"sessionId":"{SESSION_2}"')
    c.raw("agent_to_client", text)
    c.expect("ENV-DUPLICATE-KEY", c.last, "/params/sessionId")
    c.open(SESSION)
    c.open(SESSION_2)
    c.open(SESSION_SAVED)
    c.update(SESSION_SAVED, chunk("Working too."))

    c = case("update-readings-of-one-unnamed-session-and-a-third",
             "Near miss of the one above: one session/new answer without a session id, an update whose `sessionId` "
             "is given twice, then an update for a third id: the one unnamed session is taken, and the third id "
             "names no session.",
             docs=[(SESSION_SETUP, "Session ID"), (RFC8259, "4. Objects")])
    c.initialize()
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": []})
    c.agent_result(new, {})
    c.expect("SES-NEW-SESSION-ID", c.last, "/result")
    text = twice(session_update(SESSION, chunk("Working.")), f'"sessionId":"{SESSION}"',
                 f'"sessionId":"{SESSION}"', f'"sessionId":"{SESSION_2}"')
    c.raw("agent_to_client", text)
    c.expect("ENV-DUPLICATE-KEY", c.last, "/params/sessionId")
    c.open(SESSION)
    c.open(SESSION_2)
    u = c.update(SESSION_SAVED, chunk("Working too."), shown=False)
    c.expect("SES-UNKNOWN-SESSION", u, "/params/sessionId")

    return ("Readings (2): one message read more than one way is one event: a response that repeats `result`, "
            "`error` or `id` is paired once and judged on what every reading says; a session/update read more "
            "than one way changes the state once.", cases)
