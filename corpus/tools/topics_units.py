"""units.json: rules decided by units (crates/core/src/rules/unit.rs), red-team
cases and near misses for each: SES-CLOSE-NOT-ADVERTISED, a client's
session/close when the agent's initialize answer did not advertise
`sessionCapabilities.close` (a warning: the schema says only "Only available
if ...", no MUST). v1 revisions only: in v2 `agentCapabilities.session: {}`
advertises session/close among the baseline session methods.

Bare lines are records (no direction; placed by method or paired by id). The
vector format lets no record change what a client shows, so a bare close is
answered with an error (the session stays shown); a close that succeeds is
enveloped."""

from vectorlib import Case, SESSION, SCHEMA_1_20_V2 as SCHEMA_V2, line, RULES


def units(rev):
    cases = []
    v2 = rev.protocol_version == 2
    rule = "SES-CLOSE-NOT-ADVERTISED"
    # v1: the rule's citation (or the near miss's) names the schema's words.
    docs = [(SCHEMA_V2, "SessionCapabilities")] if v2 else []

    def case(slug, description, **kw):
        kw["near_miss"] = [r for r in kw.get("near_miss", []) if rev.name in RULES[r]["revisions"]]
        kw.setdefault("docs", docs)
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def bare(c, message):
        """`message` as a bare line of the trace (a record: no direction)."""
        return c.record(line(message))

    def initialize(c, capabilities, raw_capabilities=None, bare_lines=False):
        """initialize, answered with `capabilities` as agentCapabilities (None:
        left out; `raw_capabilities`: their text, for a repeated member). Its
        answer's line."""
        params = {"protocolVersion": rev.protocol_version, "clientCapabilities": c.capabilities(),
                  "clientInfo": {"name": "vector-client", "version": "1.0.0"}}
        if bare_lines:
            message = c.client_message("initialize", params)
            bare(c, message)
            id = message["id"]
        else:
            id = c.client_request("initialize", params)
        result = {"protocolVersion": rev.protocol_version, "agentInfo": {"name": "vector-agent", "version": "1.0.0"},
                  "authMethods": []}
        if capabilities is not None:
            result["agentCapabilities"] = capabilities
        answer = {"jsonrpc": "2.0", "id": id, "result": result}
        if raw_capabilities is not None:
            result["agentCapabilities"] = "@@"
            text = line(answer).replace('"@@"', raw_capabilities)
            return c.record(text) if bare_lines else c.raw("agent_to_client", text)
        return bare(c, answer) if bare_lines else c.a2c(answer)

    def close(c, bare_lines=False):
        """A session/close of the session, and its answer: an error for a bare
        close (\"Method not found\", as an agent without the method answers),
        success otherwise. The close request's line."""
        message = c.client_message("session/close", {"sessionId": SESSION})
        if bare_lines:
            at = bare(c, message)
            bare(c, {"jsonrpc": "2.0", "id": message["id"],
                     "error": {"code": -32601, "message": "Method not found"}})
            return at
        at = c.c2a(message)
        c.agent_result(message["id"], {})
        c.close(SESSION)
        return at

    # ---- SES-BEFORE-INIT (a unit on the client's calls): every reading of a
    # repeated `method` must be a session method for the client to be judged.
    def before_init_line(c, methods, bare_lines):
        """A client request sent first, whose `method` is given once per
        entry of `methods`; its params fit initialize and session/new alike."""
        message = c.client_message("@@", {"protocolVersion": rev.protocol_version, "clientCapabilities": {},
                                          "cwd": "/home/user/project", "mcpServers": []})
        text = line(message).replace('"method":"@@"', ",".join('"method":"%s"' % m for m in methods))
        return c.record(text) if bare_lines else c.raw("client_to_agent", text)

    for bare_lines in (False, True):
        tail = "-bare" if bare_lines else ""
        c = case("ses-before-init-method-may-be-initialize" + tail,
                 "The client's first line gives `method` twice, `initialize` then `session/new`"
                 + (" (a bare line)" if bare_lines else "") + ": one reading is the initialize itself, so the "
                 "client is not judged on \"Before a Session can be created, Clients MUST initialize the "
                 "connection\" (the repeat is said once).",
                 near_miss=["SES-BEFORE-INIT"], docs=[])
        c.expect("ENV-DUPLICATE-KEY", before_init_line(c, ["initialize", "session/new"], bare_lines), "/method")

        c = case("ses-before-init-every-reading-a-session-method" + tail,
                 "Near miss of the one above: `method` given twice, `session/new` then `session/prompt`, before "
                 "any initialize" + (" (a bare line)" if bare_lines else "") + ": every reading is a session "
                 "method sent before the connection was initialized.",
                 docs=[])
        at = before_init_line(c, ["session/new", "session/prompt"], bare_lines)
        c.expect("ENV-DUPLICATE-KEY", at, "/method")
        # One for each reading: each names its own method.
        c.expect("SES-BEFORE-INIT", at, "/method")
        c.expect("SES-BEFORE-INIT", at, "/method")

    if v2:
        c = case("ses-close-baseline",
                 "v2: the agent's initialize answer gives `session: {}` and no close capability; session/close is "
                 "one of \"the baseline session methods\", so the client's call is allowed.")
        initialize(c, {"session": {}})
        c.new_session()
        close(c)

        c = case("ses-close-baseline-bare",
                 "v2, bare lines: session/close after an initialize answer without any close capability; a baseline "
                 "method, so nothing is judged (the agent answers with an error).",
                 near_miss=["TRACE-DIRECTION"])
        initialize(c, {"session": {}}, bare_lines=True)
        c.new_session()
        close(c, bare_lines=True)
        return ("Units: SES-CLOSE-NOT-ADVERTISED (v2: session/close is a baseline method).", cases)

    # ---- violations: every way of leaving the capability out, enveloped and bare
    for slug, capabilities, how in [
        ("absent", {"loadSession": True, "sessionCapabilities": {"resume": {}}},
         "gives `sessionCapabilities` without `close`"),
        ("null", {"sessionCapabilities": {"resume": {}, "close": None}}, "sets `sessionCapabilities.close` to null"),
        ("no-session-capabilities", {"loadSession": True}, "has no `sessionCapabilities`"),
        ("session-capabilities-null", {"sessionCapabilities": None}, "sets `sessionCapabilities` to null"),
        ("no-agent-capabilities", None, "has no `agentCapabilities`"),
    ]:
        for bare_lines in (False, True):
            c = case(f"ses-close-not-advertised-{slug}" + ("-bare" if bare_lines else ""),
                     f"The agent's initialize answer {how}; the client calls session/close anyway"
                     + (" (initialize, the close and their answers as bare lines)" if bare_lines else "")
                     + ": a warning to the client (\"Only available if the Agent supports the "
                     "`sessionCapabilities.close` capability\"; no MUST).",
                     near_miss=["TRACE-DIRECTION"] if bare_lines else [])
            initialize(c, capabilities, bare_lines=bare_lines)
            c.new_session()
            c.expect(rule, close(c, bare_lines), "/method")

    # ---- near misses
    for bare_lines in (False, True):
        tail = "-bare" if bare_lines else ""
        c = case("ses-close-advertised" + tail,
                 "Near miss: the agent's initialize answer advertises `sessionCapabilities.close: {}`"
                 + (" (bare lines)" if bare_lines else "") + "; the client's session/close is allowed.",
                 near_miss=[rule] + (["TRACE-DIRECTION"] if bare_lines else []))
        initialize(c, {"sessionCapabilities": {"close": {}}}, bare_lines=bare_lines)
        c.new_session()
        close(c, bare_lines)

        c = case("ses-close-advertised-ambiguously" + tail,
                 "Near miss: the initialize answer gives `sessionCapabilities.close` twice, {} and null. One reading "
                 "advertises closing, so the client's session/close is not judged (the repeat is said once).",
                 near_miss=[rule])
        answer = initialize(c, None, '{"sessionCapabilities":{"close":{},"close":null}}', bare_lines=bare_lines)
        c.expect("ENV-DUPLICATE-KEY", answer, "/result/agentCapabilities/sessionCapabilities/close")
        c.new_session()
        close(c, bare_lines)

    c = case("ses-close-advertised-with-meta",
             "Near miss: `sessionCapabilities.close` is an object with `_meta`: advertised (\"Supplying `{}` means "
             "the agent supports closing sessions\").",
             near_miss=[rule])
    initialize(c, {"sessionCapabilities": {"close": {"_meta": {"vector": True}}}})
    c.new_session()
    close(c)

    c = case("ses-close-advertised-not-an-object",
             "Near miss: `sessionCapabilities.close` is `true`, not the object the schema defines: the answer "
             "cannot be read as leaving closing out, so the client is not judged.",
             near_miss=[rule])
    initialize(c, {"sessionCapabilities": {"close": True}})
    c.new_session()
    close(c)

    c = case("ses-close-advertised-by-a-second-initialize",
             "Near miss: the first initialize answer leaves `sessionCapabilities.close` out, a second one "
             "advertises it; the answers disagree, so the client's session/close is not judged.",
             near_miss=[rule])
    initialize(c, {})
    initialize(c, {"sessionCapabilities": {"close": {}}})
    c.new_session()
    close(c)

    c = case("ses-close-not-advertised-by-either-initialize",
             "Two initialize answers, neither advertising `sessionCapabilities.close`: they agree, so the "
             "client's session/close is judged against the later one.")
    initialize(c, {"loadSession": True})
    initialize(c, {"sessionCapabilities": {"resume": {}}})
    c.new_session()
    c.expect(rule, close(c), "/method")

    c = case("ses-close-after-an-unreadable-line",
             "Near miss: after an initialize answer without `sessionCapabilities.close`, a line that is no JSON "
             "may have been another initialize answer, so the client's session/close is not judged.",
             near_miss=[rule])
    initialize(c, {})
    c.new_session()
    c.expect("ENV-JSON", c.raw("agent_to_client", '{"jsonrpc":"2.0","id":9,"result":{"protocolVersion":1'))
    close(c)

    c = case("ses-close-method-read-two-ways",
             "Near miss: the client's line gives `method` twice, session/close and session/cancel, after an answer "
             "without `sessionCapabilities.close`: one reading does not close, so the client is not judged on the "
             "capability (the repeat is said once).",
             near_miss=[rule])
    initialize(c, {})
    c.new_session()
    text = line({"jsonrpc": "2.0", "method": "@@", "params": {"sessionId": SESSION}})
    text = text.replace('"method":"@@"', '"method":"session/close","method":"session/cancel"')
    c.expect("ENV-DUPLICATE-KEY", c.raw("client_to_agent", text), "/method")

    return ("Units: SES-CLOSE-NOT-ADVERTISED, a client's session/close the agent did not advertise (a warning), "
            "enveloped and bare, with near misses.", cases)
