"""versions.json: the initialize exchange itself. A protocol version no
revision defines (or none) leaves only what every revision requires
(INIT-VERSION-UNKNOWN, the check incomplete); an initialize request without
protocolVersion (INIT-CLIENT-VERSION); a second initialize that advertises
otherwise (INIT-CAPABILITIES-DIFFER, the ambiguity said once); a repeated
protocolVersion, each value a reading (answers whose readings negotiate
different revisions leave the revision unknown); a byte order
mark at the start of a trace file (TRACE-BOM on a bare trace, nothing before
an envelope)."""

from vectorlib import (
    Case, SESSION, INITIALIZATION, JSONRPC, RFC8259,
    steps3, entry, legacy, items, chunk, notification, session_update, line, RULES,
)

VERSION = "/result/protocolVersion"


def versions(rev):
    cases = []

    def case(slug, description, **kw):
        kw["near_miss"] = [r for r in kw.get("near_miss", []) if rev.name in RULES[r]["revisions"]]
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def initialize_request(c, version, capabilities=None, params=None):
        """An initialize request with `version` (None: no protocolVersion)."""
        if params is None:
            params = {}
            if version is not None:
                params["protocolVersion"] = version
            params["clientCapabilities"] = c.capabilities() if capabilities is None else capabilities
            params["clientInfo"] = {"name": "vector-client", "version": "1.0.0"}
        return c.client_request("initialize", params)

    def answer(c, id, version):
        """The agent's initialize answer with `version` (None: no protocolVersion)."""
        result = {"agentCapabilities": {"loadSession": True}, "authMethods": []}
        if version is not None:
            result = {"protocolVersion": version, **result}
        return c.agent_result(id, result)

    def session_and_prompt(c):
        c.new_session(SESSION)
        return c.prompt(SESSION)

    def updates_that_split_the_revisions(c):
        """A legacy `plan` update (v2: CAP-LEGACY-V2) and a `plan_update`
        without the plan capability (v1 and the draft: CAP-PLAN-OPS): each
        breaks the rules of some revision and not of another. The client
        state is v1's, the revision shown (the suite's state, not a verdict)."""
        c.update(SESSION, legacy(steps3()))
        c.a2c(session_update(SESSION, items(rev, "plan-1", steps3("in_progress"))))

    # ---- INIT-VERSION-UNKNOWN
    for version, slug in [(3, "3"), (0, "0"), (65535, "65535")]:
        c = case(f"init-version-{slug}-agreed",
                 f"Both sides agree on protocolVersion {version}, which no revision defines: the revision is unknown, "
                 "the check incomplete, and updates that one revision allows and another forbids are judged by none.",
                 detect=True, near_miss=["CAP-PLAN-OPS", "CAP-LEGACY-V2", "SES-PROTOCOL-VERSION"],
                 docs=[(INITIALIZATION, "Protocol version")])
        init = initialize_request(c, version, capabilities={})
        answer(c, init, version)
        c.expect("INIT-VERSION-UNKNOWN", c.last, VERSION)
        p = session_and_prompt(c)
        updates_that_split_the_revisions(c)
        c.end_turn(p)

    c = case("init-version-missing-in-answer",
             "The initialize answer has no protocolVersion: the agent's SES-PROTOCOL-VERSION, and no revision is known, "
             "so updates that split the revisions are judged by none.",
             detect=True, near_miss=["CAP-PLAN-OPS", "CAP-LEGACY-V2"])
    init = initialize_request(c, rev.protocol_version, capabilities={})
    answer(c, init, None)
    c.expect("SES-PROTOCOL-VERSION", c.last, "/result")
    c.expect("INIT-VERSION-UNKNOWN", c.last, "/result")
    p = session_and_prompt(c)
    updates_that_split_the_revisions(c)
    c.end_turn(p)

    c = case("init-version-3-framing-still-judged",
             "Under protocolVersion 3 what every revision requires still holds: a line that is not JSON is ENV-JSON, "
             "a response to no request is ENV-UNKNOWN-RESPONSE.",
             detect=True, docs=[(JSONRPC, "5. Response object")])
    init = initialize_request(c, 3)
    answer(c, init, 3)
    c.expect("INIT-VERSION-UNKNOWN", c.last, VERSION)
    p = session_and_prompt(c)
    c.expect("ENV-JSON", c.raw("agent_to_client", '{"jsonrpc":"2.0","method":"session/update"'), "")
    c.expect("ENV-UNKNOWN-RESPONSE", c.agent_result(9999, {}), "/id")
    c.end_turn(p)

    c = case("init-version-3-with-spec-given",
             "protocolVersion 3 with the revision given (--spec): the user's choice wins, every rule of that revision "
             "judges, and nothing is incomplete.",
             near_miss=["INIT-VERSION-UNKNOWN"], docs=[(INITIALIZATION, "Protocol version")])
    init = initialize_request(c, 3, capabilities={})
    answer(c, init, 3)
    p = session_and_prompt(c)
    if rev.legacy:
        c.update(SESSION, legacy(steps3()))
    else:
        c.expect("CAP-LEGACY-V2", c.a2c(session_update(SESSION, legacy(steps3()))), "/params/update/sessionUpdate")
    c.end_turn(p)

    c = case("init-version-own-detected",
             "The revision's own protocolVersion, detected without --spec: the revision is known, nothing is incomplete.",
             detect=True, near_miss=["INIT-VERSION-UNKNOWN"], docs=[(INITIALIZATION, "Protocol version")])
    p = c.start()
    c.update(SESSION, legacy(steps3()) if rev.legacy else items(rev, "plan-1", steps3()))
    c.end_turn(p)

    # ---- a repeated protocolVersion: each value is a reading
    own = rev.protocol_version
    other = 2 if own == 1 else 1

    def repeated_answer(c, id, first, second):
        """The agent's initialize answer giving `protocolVersion` twice, as
        written (`first` then `second`)."""
        text = line({"jsonrpc": "2.0", "id": id,
                     "result": {"protocolVersion": 0, "agentCapabilities": {"loadSession": True}, "authMethods": []}})
        text = text.replace('"protocolVersion":0', f'"protocolVersion":{first},"protocolVersion":{second}', 1)
        return c.raw("agent_to_client", text)

    def revision_judges(c):
        """An update the revision judges: a legacy `plan` is v2's CAP-LEGACY-V2."""
        if rev.legacy:
            c.update(SESSION, legacy(steps3()))
        else:
            c.expect("CAP-LEGACY-V2", c.a2c(session_update(SESSION, legacy(steps3()))), "/params/update/sessionUpdate")

    for first, second, slug, why in [
        (own, other, "own-then-other", f"{own} then {other}"),
        (other, own, "other-then-own", f"{other} then {own}"),
        (own, 3, "own-then-unknown", f"{own} then 3, a version no revision defines"),
        (own, '"' + str(own) + '"', "own-then-a-string", f"{own} then the string \"{own}\", which names no version"),
    ]:
        c = case(f"init-version-repeated-{slug}",
                 f"The initialize answer gives protocolVersion twice ({why}): each value is a reading, and the "
                 "readings negotiate different revisions, so the revision is unknown (the check incomplete); the "
                 "repeat is named once against the agent, and updates that one revision allows and another forbids "
                 "are judged by none.",
                 detect=True, near_miss=["CAP-PLAN-OPS", "CAP-LEGACY-V2", "SES-PROTOCOL-VERSION"],
                 docs=[(INITIALIZATION, "Protocol version"), (RFC8259, "4. Objects")])
        init = initialize_request(c, own, capabilities={})
        repeated_answer(c, init, first, second)
        c.expect("ENV-DUPLICATE-KEY", c.last, VERSION)
        c.expect("INIT-VERSION-UNKNOWN", c.last, VERSION)
        p = session_and_prompt(c)
        updates_that_split_the_revisions(c)
        c.end_turn(p)

    c = case("init-version-repeated-one-value-spelled-otherwise",
             f"The initialize answer gives protocolVersion twice with one JSON value ({own} and {own}.0): one reading, "
             "so the revision is known and judges; only the repeat is named.",
             detect=True, near_miss=["INIT-VERSION-UNKNOWN", "SES-PROTOCOL-VERSION"],
             docs=[(INITIALIZATION, "Protocol version"), (RFC8259, "4. Objects")])
    init = initialize_request(c, own, capabilities={})
    repeated_answer(c, init, own, f"{own}.0")
    c.expect("ENV-DUPLICATE-KEY", c.last, VERSION)
    p = session_and_prompt(c)
    revision_judges(c)
    c.end_turn(p)

    c = case("init-version-repeated-with-spec-given",
             f"The initialize answer gives protocolVersion twice ({other} then {own}) and the revision is given "
             "(--spec): the user's choice wins, every rule of that revision judges, and nothing is incomplete.",
             near_miss=["INIT-VERSION-UNKNOWN", "SES-PROTOCOL-VERSION"],
             docs=[(INITIALIZATION, "Protocol version"), (RFC8259, "4. Objects")])
    init = initialize_request(c, own, capabilities={})
    repeated_answer(c, init, other, own)
    c.expect("ENV-DUPLICATE-KEY", c.last, VERSION)
    p = session_and_prompt(c)
    revision_judges(c)
    c.end_turn(p)

    # ---- lines before the initialize answer belong to the trace's revision
    c = case("init-batch-before-the-answer-detected",
             "Without --spec, an initialize sent in a batch before any answer is judged by the revision its answer "
             "names: v2's lifecycle warning, v1's batch info, never the other revision's.",
             detect=True, near_miss=["ENV-BATCH"] if rev.protocol_version == 2 else ["ENV-BATCH-LIFECYCLE"],
             docs=[(JSONRPC, "6. Batch")])
    request = c.client_message("initialize", {"protocolVersion": rev.protocol_version,
                                              "clientCapabilities": c.capabilities()})
    c.raw("client_to_agent", "[" + line(request) + "]")
    c.expect_if_applies("ENV-BATCH", c.last, "")
    c.expect_if_applies("ENV-BATCH-LIFECYCLE", c.last, "/0/method")
    c.answer_initialize(request["id"])
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-batch-before-an-answer-of-version-3",
             "Without --spec, a batch before an answer that negotiates protocolVersion 3: v1 notes batches, v2 warns "
             "of a batched initialize; under no known revision neither is said.",
             detect=True, near_miss=["ENV-BATCH", "ENV-BATCH-LIFECYCLE"], docs=[(JSONRPC, "6. Batch")])
    request = c.client_message("initialize", {"protocolVersion": 3, "clientCapabilities": {}})
    c.raw("client_to_agent", "[" + line(request) + "]")
    answer(c, request["id"], 3)
    c.expect("INIT-VERSION-UNKNOWN", c.last, VERSION)

    # ---- INIT-CLIENT-VERSION
    c = case("init-client-version-missing",
             "An initialize request without protocolVersion: the client's error (the request must include the latest "
             "version it supports); the agent's answer names one, and the trace is judged by it.")
    init = initialize_request(c, None)
    c.expect("INIT-CLIENT-VERSION", c.last, "/params")
    c.answer_initialize(init)
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-client-version-no-params",
             "An initialize request without params: no protocolVersion either.")
    request = c.client_message("initialize", {})
    del request["params"]
    c.expect("INIT-CLIENT-VERSION", c.c2a(request), "")
    c.answer_initialize(request["id"])
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-client-version-missing-in-a-batch",
             "An initialize request without protocolVersion inside a batch: the error points into the batch.",
             docs=[(JSONRPC, "6. Batch")])
    request = c.client_message("initialize", {"clientCapabilities": c.capabilities()})
    c.raw("client_to_agent", "[" + line(request) + "]")
    c.expect("INIT-CLIENT-VERSION", c.last, "/0/params")
    c.expect_if_applies("ENV-BATCH", c.last, "")
    c.expect_if_applies("ENV-BATCH-LIFECYCLE", c.last, "/0/method")
    c.answer_initialize(request["id"])
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-client-version-in-one-reading",
             "protocolVersion in one reading of a repeated params: some reading includes a version, so the client is "
             "not judged on it (only the repeat is named).",
             near_miss=["INIT-CLIENT-VERSION"], docs=[(RFC8259, "4. Objects")])
    request = c.client_message("initialize", {"protocolVersion": rev.protocol_version})
    text = line(request)
    without = '"params":{"clientInfo":{"name":"vector-client","version":"1.0.0"}}'
    text = text.replace('"params":', without + ',"params":', 1)
    c.raw("client_to_agent", text)
    c.expect("ENV-DUPLICATE-KEY", c.last, "/params")
    c.answer_initialize(request["id"])
    p = session_and_prompt(c)
    c.end_turn(p)

    for second, slug, why in [(other, "differ", f"{own} then {other}"), ("null", "null", f"{own} then null")]:
        c = case(f"init-client-version-repeated-{slug}",
                 f"The initialize request gives protocolVersion twice ({why}): every reading includes the member, so "
                 "INIT-CLIENT-VERSION judges none of them; only the repeat is named, against the client. The agent's "
                 "answer names one version, and the trace is judged by it.",
                 detect=True, near_miss=["INIT-CLIENT-VERSION", "INIT-VERSION-UNKNOWN"],
                 docs=[(INITIALIZATION, "Version Negotiation"), (RFC8259, "4. Objects")])
        request = c.client_message("initialize", {"protocolVersion": own, "clientCapabilities": {}})
        text = line(request).replace(f'"protocolVersion":{own}', f'"protocolVersion":{own},"protocolVersion":{second}', 1)
        c.raw("client_to_agent", text)
        c.expect("ENV-DUPLICATE-KEY", c.last, "/params/protocolVersion")
        answer(c, request["id"], own)
        p = session_and_prompt(c)
        revision_judges(c)
        c.end_turn(p)

    c = case("init-client-version-a-string",
             "protocolVersion sent as a string: the request includes a version (of the wrong type); "
             "INIT-CLIENT-VERSION is about its absence.",
             near_miss=["INIT-CLIENT-VERSION"], docs=[(INITIALIZATION, "Version Negotiation")])
    init = initialize_request(c, str(rev.protocol_version))
    c.answer_initialize(init)
    p = session_and_prompt(c)
    c.end_turn(p)

    # ---- INIT-CAPABILITIES-DIFFER
    other = {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False}
    c = case("init-second-initialize-other-capabilities",
             "A second initialize advertises other client capabilities than the first: which ones the agent acts on "
             "is ambiguous, said once against the client.")
    c.initialize()
    second = initialize_request(c, rev.protocol_version, capabilities=other)
    c.expect("INIT-CAPABILITIES-DIFFER", c.last, "/params/clientCapabilities")
    c.answer_initialize(second)
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-third-initialize-said-once",
             "Three initialize requests, each advertising otherwise: the ambiguity is said once, at the second.")
    c.initialize()
    second = initialize_request(c, rev.protocol_version, capabilities=other)
    c.expect("INIT-CAPABILITIES-DIFFER", c.last, "/params/clientCapabilities")
    c.answer_initialize(second)
    third = initialize_request(c, rev.protocol_version, capabilities={})
    c.answer_initialize(third)
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-second-initialize-same-capabilities-spelled-otherwise",
             "A second initialize whose capabilities are the first's JSON value spelled otherwise (member order, "
             "spaces, an escaped name): the same capabilities, nothing to say.",
             near_miss=["INIT-CAPABILITIES-DIFFER"], docs=[(INITIALIZATION, "Capabilities")])
    c.initialize()
    request = c.client_message("initialize", {"protocolVersion": rev.protocol_version, "clientCapabilities": {}})
    caps = c.capabilities()
    spelled = "{ " + ", ".join(f'{line(k).replace("f", chr(92) + "u0066", 1)} : {line(v)}'
                                for k, v in reversed(list(caps.items()))) + " }"
    text = line(request).replace('"clientCapabilities":{}', '"clientCapabilities":' + spelled, 1)
    c.raw("client_to_agent", text)
    c.answer_initialize(request["id"])
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-second-initialize-other-capabilities-refused",
             "A second initialize that advertises otherwise, refused by the agent: the client sent it, and an agent "
             "may have acted on it, so the ambiguity is said when the request is read.")
    c.initialize()
    second = initialize_request(c, rev.protocol_version, capabilities=other)
    c.expect("INIT-CAPABILITIES-DIFFER", c.last, "/params/clientCapabilities")
    c.a2c({"jsonrpc": "2.0", "id": second, "error": {"code": -32600, "message": "already initialized"}})
    p = session_and_prompt(c)
    c.end_turn(p)

    c = case("init-second-initialize-same-capabilities",
             "A client that retries initialize with the same capabilities: nothing to say.",
             near_miss=["INIT-CAPABILITIES-DIFFER"], docs=[(INITIALIZATION, "Capabilities")])
    c.initialize()
    c.initialize()
    p = session_and_prompt(c)
    c.end_turn(p)

    # ---- TRACE-BOM
    c = case("trace-bom-at-the-start-of-a-bare-trace",
             "A bare trace whose first line starts with a byte order mark: whatever wrote the file or the first "
             "message's sender put it there, so the ambiguity is said once, against no party; the rest is checked.",
             near_miss=["ENV-BOM", "TRACE-RECORD"], docs=[(RFC8259, "8.1. Character Encoding")])
    c.expect("TRACE-BOM", c.record("\ufeff" + line(notification("_acme.dev/hello", {}))), "")
    p = c.start()
    c.update(SESSION, legacy([entry("Read the code")]) if rev.legacy else items(rev, "plan-1", steps3()))
    c.end_turn(p)

    c = case("trace-bom-before-the-first-envelope",
             "An envelope trace whose first line starts with a byte order mark: the recorder's, not a message's, "
             "and the trace reads fine: nothing to say.",
             near_miss=["ENV-BOM", "TRACE-RECORD", "TRACE-BOM"], docs=[(RFC8259, "8.1. Character Encoding")])
    c.record("\ufeff" + line({"direction": "agent_to_client", "message": notification("_acme.dev/hello", {})}))
    p = c.start()
    c.a2c(session_update(SESSION, chunk("Reading files.")))
    c.end_turn(p)

    return ("Versions: the initialize exchange itself. A version no revision defines leaves only what every "
            "revision requires (incomplete); a client's initialize without a version; a second initialize that "
            "advertises otherwise; a byte order mark at the start of the file.", cases)
