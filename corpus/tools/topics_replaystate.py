"""replaystate.json: LOAD-REPLAY-STATE decided by `check` (issue 43, class 2):
a session created on this connection, replayed on it again (session/load;
v2 session/resume with `replayFrom: {"type": "start"}`). The client keeps
what it showed, so the replay must leave it showing the same plans: a replay
ending on an older list, or removing a plan, is the agent's breach. Near
misses: a faithful replay, no plans before or after, a failed load, a prompt
in flight during the replay, a session the trace did not see live from its
start, and (v2) a cursor other than the start.

Bare load and answer lines are records (they change nothing a client shows);
the updates stay enveloped, as in lifecycle.json's bare replays."""

from vectorlib import (
    Case, SESSION, CWD, SESSION_SETUP, V2,
    steps3, entries_plan, markdown, removed, chunk, line, RULES,
)


def replaystate(rev):
    cases = []
    v2 = rev.protocol_version == 2
    section = "Resuming Sessions" if v2 else "Loading Sessions"
    answer_pointer = None

    def case(slug, description, **kw):
        kw["near_miss"] = [r for r in kw.get("near_miss", []) if rev.name in RULES[r]["revisions"]]
        kw.setdefault("docs", [(SESSION_SETUP, section)])
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def end_prompt(c, p, session=SESSION):
        """The end of prompt `p`'s turn: v1 the answer; v2 the answer, then the idle state_update."""
        if v2:
            c.agent_result(p, {})
            return c.update(session, {"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"})
        return c.end_turn(p)

    def load_params(session=SESSION, cursor=None):
        params = {"sessionId": session, "cwd": CWD, "mcpServers": []}
        if v2:
            params["replayFrom"] = cursor or {"type": "start"}
        return params

    def load(c, bare=False, session=SESSION, cursor=None):
        """The replaying request (v2: session/resume from the start; else session/load)."""
        method = "session/resume" if v2 else "session/load"
        if bare:
            message = c.client_message(method, load_params(session, cursor))
            c.record(line(message))
            return message["id"]
        return c.client_request(method, load_params(session, cursor))

    def answer(c, id, bare=False, session=SESSION, error=False):
        """The end of the replay: v2 (schema 1.20.0) its replay_complete, then the answer."""
        if rev is V2 and not error:
            c.update(session, {"sessionUpdate": "replay_complete"})
        if error:
            message = {"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": "Internal error"}}
        else:
            message = {"jsonrpc": "2.0", "id": id, "result": {}}
        if bare:
            return c.record(line(message))
        return c.a2c(message)

    older = steps3("in_progress")
    newer = steps3("completed", "in_progress")

    def live(c):
        """A session created on this connection, whose turn shows an entries plan twice and a markdown plan."""
        p = c.start()
        c.update(SESSION, entries_plan(rev, older))
        c.update(SESSION, entries_plan(rev, newer))
        c.update(SESSION, markdown(rev, "notes", "Parser first, then tests."))
        end_prompt(c, p)

    for bare in (False, True):
        tail = "-bare" if bare else ""
        how = " (the request and its answer as bare lines)" if bare else ""

        c = case("load-replay-state-faithful" + tail,
                 f"Near miss: the session is replayed on its own connection{how}; the replay restates every plan "
                 "update in order and ends where the live session did.",
                 near_miss=["LOAD-REPLAY-STATE"])
        live(c)
        l = load(c, bare)
        c.update(SESSION, entries_plan(rev, older))
        c.update(SESSION, entries_plan(rev, newer))
        c.update(SESSION, markdown(rev, "notes", "Parser first, then tests."))
        answer(c, l, bare)

        c = case("load-replay-state-older-list" + tail,
                 f"The session is replayed on its own connection{how}; the replay stops at the older list of "
                 "entries, so the client ends showing a plan the live session had replaced.")
        live(c)
        l = load(c, bare)
        c.update(SESSION, entries_plan(rev, older))
        c.update(SESSION, markdown(rev, "notes", "Parser first, then tests."))
        a = answer(c, l, bare)
        c.expect("LOAD-REPLAY-STATE", a)

    c = case("load-replay-state-removes-plan",
             "The session is replayed on its own connection; the replay restates the markdown plan and then "
             "removes it, which the live session never did.")
    live(c)
    l = load(c)
    c.update(SESSION, entries_plan(rev, older))
    c.update(SESSION, entries_plan(rev, newer))
    c.update(SESSION, markdown(rev, "notes", "Parser first, then tests."))
    c.update(SESSION, removed(rev, "notes"))
    a = answer(c, l)
    c.expect("LOAD-REPLAY-STATE", a)

    c = case("load-replay-state-no-plans",
             "Near miss: a session that never showed a plan is replayed on its own connection; the replay shows "
             "none either.",
             near_miss=["LOAD-REPLAY-STATE"])
    p = c.start()
    c.update(SESSION, chunk("Nothing to plan."))
    end_prompt(c, p)
    l = load(c)
    c.update(SESSION, chunk("Nothing to plan."))
    answer(c, l)

    c = case("load-replay-state-failed-load",
             "Near miss: the replay stops at the older list, but the load fails: no replay was promised.",
             near_miss=["LOAD-REPLAY-STATE"])
    live(c)
    l = load(c)
    c.update(SESSION, entries_plan(rev, older))
    answer(c, l, error=True)

    c = case("load-replay-state-prompt-during-replay",
             "Near miss: the client prompts the session while its replay is in flight; the older list may be the "
             "new turn's, so the replay is not judged.",
             near_miss=["LOAD-REPLAY-STATE"])
    live(c)
    l = load(c)
    p = c.prompt(SESSION, "Continue")
    c.update(SESSION, entries_plan(rev, older))
    answer(c, l)
    end_prompt(c, p)

    c = case("load-replay-state-session-not-born-here",
             "Near miss: the session was loaded, not created, on this connection: what it showed may be an "
             "incomplete earlier replay, so a second replay that ends elsewhere is not judged.",
             near_miss=["LOAD-REPLAY-STATE"])
    c.initialize()
    l = load(c)
    c.open(SESSION)
    c.update(SESSION, entries_plan(rev, newer))
    answer(c, l)
    p = c.prompt(SESSION, "Continue")
    c.update(SESSION, markdown(rev, "notes", "Parser first, then tests."))
    end_prompt(c, p)
    l = load(c)
    c.update(SESSION, entries_plan(rev, older))
    answer(c, l)

    if v2:
        c = case("load-replay-state-other-cursor",
                 "Near miss: session/resume with a custom replay cursor replays part of the conversation: a replay "
                 "that restates only the older list is not judged against the whole.",
                 near_miss=["LOAD-REPLAY-STATE"])
        live(c)
        l = load(c, cursor={"type": "_after", "entry": "turn-1"})
        c.update(SESSION, entries_plan(rev, older))
        answer(c, l)

    return ("LOAD-REPLAY-STATE within one trace: a session created on the connection and replayed on it again.",
            cases)
