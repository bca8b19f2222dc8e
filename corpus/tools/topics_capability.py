"""capability.json: which plan messages may be sent given the client's
capability (draft-2026-05: planCapabilities; v1: plan) and the revision
(v2: plan_update is baseline, the legacy plan is gone)."""

from vectorlib import (
    Case, SESSION, MD_STEPS, PLAN_URI, INITIALIZATION, SCHEMA_V2, PLAN_DRAFT, RFD,
    steps3, legacy, items, markdown, document_plan, removed,
)

CAP_POINTER = "/params/update/sessionUpdate"


def capability(rev):
    if rev.cap_key is None:
        return v2_capability(rev)
    cases = []
    key, other = rev.cap_key, rev.other_cap_key
    cap_pointer = f"/params/clientCapabilities/{key}"
    other_pointer = f"/params/clientCapabilities/{other}"

    def case(slug, description, **kw):
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    def without_capability(slug, description, plan_keys, update, extra=(), **kw):
        """A plan operation sent without the capability: CAP-PLAN-OPS, not shown."""
        c = case(slug, description, **kw)
        p = c.start(plan_keys)
        for rule, pointer in extra:
            c.expect(rule, 1, pointer)
        c.expect("CAP-PLAN-OPS", c.update(SESSION, update, shown=False), CAP_POINTER)
        c.end_turn(p)
        return c

    def legacy_only(slug, description, plan_keys, extra=(), **kw):
        """The agent falls back to the legacy plan: always allowed."""
        c = case(slug, description, **kw)
        p = c.start(plan_keys)
        for rule, pointer in extra:
            c.expect(rule, 1, pointer)
        c.update(SESSION, legacy(steps3("in_progress")))
        c.end_turn(p)
        return c

    plan1 = items(rev, "plan-1", steps3("in_progress"))

    # ---- absent
    without_capability("cap-absent-plan-update",
                       f"The client omits clientCapabilities.{key}; a plan_update (items) must not be sent.", {}, plan1)
    without_capability("cap-absent-plan-update-markdown",
                       "Without the capability, a markdown plan_update is not allowed either.", {}, markdown(rev, "plan-1", MD_STEPS))
    without_capability("cap-absent-plan-update-file",
                       "Without the capability, a file plan_update (schema 1.20.0: a markdown plan with its file's path) is not allowed either.",
                       {}, document_plan(rev, "design-doc"))
    without_capability("cap-absent-plan-removed",
                       "Without the capability, plan_removed must not be sent.", {}, removed(rev, "plan-1"))
    without_capability("cap-client-capabilities-absent",
                       "initialize without clientCapabilities at all: omitted capabilities are unsupported.", None, plan1,
                       docs=[(INITIALIZATION, "Capabilities")])
    cases[-1].items[0]["message"]["params"].pop("clientCapabilities")
    without_capability("cap-key-outside-client-capabilities",
                       f"`{key}` sent at the top of the initialize params instead of under clientCapabilities advertises nothing.",
                       {}, plan1)
    cases[-1].items[0]["message"]["params"][key] = {}
    legacy_only("cap-absent-falls-back-to-legacy",
                "Without the capability the agent falls back to the legacy plan update, as it must.", {},
                near_miss=["CAP-PLAN-OPS"])

    # ---- null
    without_capability("cap-null-plan-update",
                       f"clientCapabilities.{key} is null, which means not advertised.", {key: None}, plan1)
    legacy_only("cap-null-legacy", f"clientCapabilities.{key} is null (allowed: not advertised) and the agent sends the legacy plan.",
                {key: None}, near_miss=["CAP-VALUE", "CAP-PLAN-OPS"])

    # ---- not an object
    for slug, value, kind in [("true", True, "a boolean"), ("string", "enabled", "a string"),
                              ("array", [], "an array"), ("number", 1, "a number")]:
        legacy_only(f"cap-{slug}-value", f"clientCapabilities.{key} is {kind}: not a capability object, and not an advertisement.",
                    {key: value}, extra=[("CAP-VALUE", cap_pointer)])
    without_capability("cap-true-plan-update",
                       f"clientCapabilities.{key} is true, which advertises nothing, and the agent sends plan_update anyway.",
                       {key: True}, plan1, extra=[("CAP-VALUE", cap_pointer)])

    # ---- an initialize never answered, or answered with an error: the
    # client's capabilities are judged as sent, under the revision given
    c = case("cap-true-value-initialize-never-answered",
             f"clientCapabilities.{key} is true, and the trace ends before the agent answers the initialize: "
             "the client's request is judged as sent.")
    c.initialize({key: True}, answer=False)
    c.expect("CAP-VALUE", 1, cap_pointer)

    c = case("cap-true-value-initialize-answered-with-error",
             f"clientCapabilities.{key} is true in an initialize the agent refuses; the client retries with "
             f"`{key}: {{}}`. The refused request is judged as sent; the retry advertises plan operations.",
             near_miss=["CAP-PLAN-OPS"])
    first = c.initialize({key: True}, answer=False)
    c.expect("CAP-VALUE", 1, cap_pointer)
    c.a2c({"jsonrpc": "2.0", "id": first, "error": {"code": -32602, "message": "Invalid params"}})
    p = c.start()
    c.update(SESSION, plan1)
    c.end_turn(p)

    c = case("cap-other-revision-key-initialize-never-answered",
             f"The client spells the capability `{other}`, and the trace ends before the agent answers: "
             f"under {rev.name} that key advertises nothing, whatever the answer.")
    c.initialize({other: {}}, answer=False)
    c.expect("CAP-RENAMED", 1, other_pointer)

    # ---- two initialize requests: the agent may act on either's
    # capabilities, so it is judged only where they agree
    c = case("cap-two-initialize-in-flight",
             f"The client sends two initialize requests before either is answered, the first with `{key}: {{}}`, "
             f"the second with `{key}: true`. CAP-VALUE is the second's alone; the agent answers both and may act on "
             "either's capabilities, so its plan_update is not judged against them.",
             near_miss=["CAP-PLAN-OPS"])
    first = c.initialize({key: {}}, answer=False)
    second = c.initialize({key: True}, answer=False)
    c.expect("CAP-VALUE", 2, cap_pointer)
    c.expect("INIT-CAPABILITIES-DIFFER", 2, "/params/clientCapabilities")
    c.answer_initialize(first)
    c.answer_initialize(second)
    c.new_session()
    p = c.prompt()
    c.update(SESSION, plan1)
    c.end_turn(p)

    c = case("cap-second-initialize-withdraws-capability",
             f"After an initialize with `{key}: {{}}` the client initializes again without it, and the agent answers. "
             "An agent may keep the first capabilities or take the second's, so its plan_update is not judged against them "
             "(the client's second initialize is the ambiguity, said once).",
             near_miss=["CAP-PLAN-OPS"])
    p = c.start()
    again = c.initialize({}, answer=False)
    c.expect("INIT-CAPABILITIES-DIFFER", c.last, "/params/clientCapabilities")
    c.answer_initialize(again)
    c.update(SESSION, plan1)
    c.end_turn(p)

    c = case("cap-second-initialize-still-without-capability",
             f"Neither of two answered initialize requests advertises `{key}`: every reading forbids the plan_update.")
    p = c.start({})
    c.initialize({})
    c.expect("CAP-PLAN-OPS", c.update(SESSION, plan1, shown=False), CAP_POINTER)
    c.end_turn(p)

    # ---- the other revision's key
    legacy_only("cap-other-revision-key",
                f"The client spells the capability `{other}` (another revision's key), which advertises nothing under {rev.name}; the agent sends the legacy plan.",
                {other: {}}, extra=[("CAP-RENAMED", other_pointer)])
    without_capability("cap-other-revision-key-plan-update",
                       f"The client spells the capability `{other}`; plan_update is not allowed under {rev.name}.",
                       {other: {}}, plan1, extra=[("CAP-RENAMED", other_pointer)])
    c = case("cap-both-keys", f"The client sends both `{key}` and `{other}`: `{key}` advertises plan operations; `{other}` is noted.")
    p = c.start({key: {}, other: {}})
    c.expect("CAP-RENAMED", 1, other_pointer)
    c.update(SESSION, plan1)
    c.end_turn(p)

    c = case("cap-other-revision-key-null", f"`{other}: null` next to `{key}: {{}}` advertises nothing and misleads no one.",
             near_miss=["CAP-RENAMED"])
    p = c.start({key: {}, other: None})
    c.update(SESSION, plan1)
    c.end_turn(p)

    # ---- advertised
    c = case("cap-present-all-operations",
             f"With clientCapabilities.{key}: {{}} every plan operation is allowed, and the legacy plan stays allowed.",
             near_miss=["CAP-PLAN-OPS", "CAP-VALUE", "CAP-RENAMED"], docs=[(PLAN_DRAFT, "Plan Operations")])
    p = c.start()
    c.update(SESSION, legacy(steps3("in_progress")))
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    c.update(SESSION, markdown(rev, "notes", MD_STEPS))
    c.update(SESSION, document_plan(rev, "design-doc"))
    c.update(SESSION, removed(rev, "notes"))
    c.end_turn(p)

    c = case("cap-object-with-meta", f"clientCapabilities.{key} is an object with `_meta`: advertised.",
             near_miss=["CAP-VALUE", "CAP-META", "CAP-PLAN-OPS"])
    p = c.start({key: {"_meta": {"acme.dev/planViews": ["items", "markdown"]}}})
    c.update(SESSION, plan1)
    c.end_turn(p)

    c = case("cap-meta-null", f"clientCapabilities.{key}._meta is null (allowed): advertised.",
             near_miss=["CAP-META", "CAP-PLAN-OPS"])
    p = c.start({key: {"_meta": None}})
    c.update(SESSION, plan1)
    c.end_turn(p)

    for slug, value, kind in [("number", 5, "a number"), ("string", "views", "a string"), ("array", [], "an array")]:
        c = case(f"cap-meta-{slug}",
                 f"clientCapabilities.{key}._meta is {kind}: the schema allows an object or null. The capability "
                 "object is still there, so plan operations stay allowed.",
                 near_miss=["CAP-PLAN-OPS", "CAP-VALUE"])
        p = c.start({key: {"_meta": value}})
        c.expect("CAP-META", 1, f"{cap_pointer}/_meta")
        c.update(SESSION, plan1)
        c.end_turn(p)

    return (f"Capability gating under {rev.name}: plan_update and plan_removed only with clientCapabilities.{key} as an object; the legacy plan always.", cases)


def v2_capability(rev):
    cases = []

    def case(slug, description, **kw):
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c

    gating = [
        ("cap-absent", "No plan capability key: plan operations are baseline in v2.", {}),
        ("cap-plan-null", "clientCapabilities.plan is null: irrelevant in v2.", {"plan": None}),
        ("cap-plan-object", "clientCapabilities.plan: {} (the v1 key) gates nothing in v2.", {"plan": {}}),
        ("cap-plan-non-object", "clientCapabilities.plan is true: v2's ClientCapabilities has no plan member, so no plan rule reads it (the rest of ClientCapabilities is outside these rules).", {"plan": True}),
        ("cap-draft-key", "clientCapabilities.planCapabilities: {} (the draft key) gates nothing in v2.", {"planCapabilities": {}}),
    ]
    for slug, description, keys in gating:
        c = case(slug, description, near_miss=["CAP-LEGACY-V2"], docs=[(SCHEMA_V2, "SessionUpdate")])
        p = c.start(keys)
        c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
        c.update(SESSION, markdown(rev, "notes", MD_STEPS))
        c.update(SESSION, removed(rev, "notes"))
        c.end_turn(p)

    c = case("cap-legacy-plan", "The legacy `plan` update does not exist in v2; it is not shown.")
    p = c.start()
    c.expect("CAP-LEGACY-V2", c.update(SESSION, legacy(steps3("in_progress")), shown=False), CAP_POINTER)
    c.end_turn(p)

    c = case("cap-legacy-plan-next-to-items",
             "A v1-style agent sends the legacy plan next to the items plan; only the items plan is shown.")
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    c.expect("CAP-LEGACY-V2", c.update(SESSION, legacy(steps3("in_progress")), shown=False), CAP_POINTER)
    c.end_turn(p)

    c = case("cap-items-instead-of-legacy", "The same entries as an items plan_update, as v2 requires.",
             near_miss=["CAP-LEGACY-V2"], docs=[(RFD, "What we propose to do about it")])
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    c.end_turn(p)

    return ("Capability gating under v2: plan_update and plan_removed are baseline (no capability); the legacy plan update is gone.", cases)
