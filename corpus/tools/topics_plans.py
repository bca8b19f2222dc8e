"""identity.json, replacement.json, updates.json: plan identity per session
(ID-*), full-list replacement (FULL-*), and every update kind of a revision
next to updates and methods that are not about plans."""

from vectorlib import (
    Case, SESSION, SESSION_2, MD_STEPS, PLAN_URI, PLAN_V1, PLAN_DRAFT, RFD, PROMPT_TURN, EXTENSIBILITY,
    SCHEMA_V2, entry, steps3, legacy, items, markdown, file_plan, document_plan, custom_plan, removed, chunk, notification,
    plan_section,
)

MULTIPLE_PLANS = (RFD, "Multiple Plans")
REMOVAL = (RFD, "Plan Removal")
UPDATING = (PLAN_V1, "Updating Plans")


def new_case(cases, rev):
    def case(slug, description, **kw):
        c = Case(rev, slug, description, **kw)
        cases.append(c)
        return c
    return case


def identity(rev):
    cases = []
    case = new_case(cases, rev)
    plan1 = items(rev, "plan-1", steps3("in_progress"))

    c = case("id-remove-never-created", "plan_removed for an id that was never created in the session: nothing to remove.")
    p = c.start()
    c.update(SESSION, plan1)
    c.expect_if_applies("ID-REMOVE-UNKNOWN", c.update(SESSION, removed(rev, "plan-9")))
    c.end_turn(p)

    c = case("id-remove-twice", "A plan removed twice: the second plan_removed names a plan that is no longer shown.")
    p = c.start()
    c.update(SESSION, plan1)
    c.snapshot()
    c.update(SESSION, removed(rev, "plan-1"))
    c.snapshot()
    c.expect_if_applies("ID-REMOVE-UNKNOWN", c.update(SESSION, removed(rev, "plan-1")))
    c.snapshot()
    c.end_turn(p)

    c = case("id-remove-from-other-session",
             "Plan ids are scoped to a session: removing plan-1 in the second session does not touch plan-1 of the first.",
             docs=[MULTIPLE_PLANS])
    c.initialize()
    c.new_session(SESSION)
    c.new_session(SESSION_2)
    p = c.prompt(SESSION)
    c.update(SESSION, plan1)
    c.expect_if_applies("ID-REMOVE-UNKNOWN", c.update(SESSION_2, removed(rev, "plan-1")))
    c.snapshot()
    c.end_turn(p)

    c = case("id-remove-after-rejected-update",
             "A plan_update that breaks the shape is not shown, so a later plan_removed for its id names no plan.")
    p = c.start()
    c.expect("SHAPE-STATUS", c.update(SESSION, items(rev, "plan-1", [entry("Analyze", "high", "started")]), shown=False),
             "/params/update/plan/entries/0/status")
    c.expect_if_applies("ID-REMOVE-UNKNOWN", c.update(SESSION, removed(rev, "plan-1")))
    c.end_turn(p)

    c = case("id-remove-live-plan", "plan_removed for a plan the session shows dismisses it.",
             near_miss=["ID-REMOVE-UNKNOWN"], docs=[REMOVAL])
    p = c.start()
    c.update(SESSION, plan1)
    c.update(SESSION, markdown(rev, "notes", MD_STEPS))
    c.snapshot()
    c.update(SESSION, removed(rev, "plan-1"))
    c.snapshot()
    c.end_turn(p)

    c = case("id-recreate-after-removal", "An id used again after its plan was removed creates a new plan (allowed; noted).")
    p = c.start()
    c.update(SESSION, plan1)
    c.update(SESSION, removed(rev, "plan-1"))
    c.snapshot()
    c.expect("ID-RECREATE", c.update(SESSION, items(rev, "plan-1", [entry("Start over with a smaller change", "high")])))
    c.snapshot()
    c.end_turn(p)

    c = case("id-recreate-with-other-type",
             "A removed items plan comes back as a markdown plan: a re-creation, not a type change.",
             near_miss=["ID-TYPE-CHANGE"])
    p = c.start()
    c.update(SESSION, plan1)
    c.update(SESSION, removed(rev, "plan-1"))
    c.expect("ID-RECREATE", c.update(SESSION, markdown(rev, "plan-1", MD_STEPS)))
    c.snapshot()
    c.end_turn(p)

    c = case("id-update-without-removal", "Successive updates of one plan id replace its content; nothing is re-created.",
             near_miss=["ID-RECREATE", "ID-TYPE-CHANGE"], docs=[MULTIPLE_PLANS])
    p = c.start()
    for statuses in [("in_progress",), ("completed", "in_progress"), ("completed", "completed", "in_progress")]:
        c.update(SESSION, items(rev, "plan-1", steps3(*statuses)))
        c.snapshot()
    c.end_turn(p)

    c = case("id-recreate-in-other-session",
             "plan-1 is removed in one session and created in another: ids are per session, so nothing is re-created.",
             near_miss=["ID-RECREATE", "ID-REMOVE-UNKNOWN"], docs=[MULTIPLE_PLANS])
    c.initialize()
    c.new_session(SESSION)
    c.new_session(SESSION_2)
    p = c.prompt(SESSION)
    c.update(SESSION, plan1)
    c.update(SESSION, removed(rev, "plan-1"))
    c.update(SESSION_2, plan1)
    c.snapshot()
    c.end_turn(p)

    c = case("id-type-change-items-to-markdown",
             "A plan changes from items to markdown: the update replaces its content (allowed; noted).")
    p = c.start()
    c.update(SESSION, plan1)
    c.snapshot()
    c.expect("ID-TYPE-CHANGE", c.update(SESSION, markdown(rev, "plan-1", MD_STEPS)))
    c.snapshot()
    c.end_turn(p)

    if rev.has_file:
        c = case("id-type-change-markdown-to-file", "A markdown plan becomes a file plan once it is written to disk.")
        p = c.start()
        c.update(SESSION, markdown(rev, "design-doc", MD_STEPS))
        c.expect("ID-TYPE-CHANGE", c.update(SESSION, file_plan(rev, "design-doc", PLAN_URI)))
        c.snapshot()
        c.end_turn(p)
    else:
        c = case("id-markdown-gains-path", "A markdown plan names its file once it is written to disk: the same type, replaced whole.",
                 near_miss=["ID-TYPE-CHANGE"], docs=[plan_section(rev, "markdown")])
        p = c.start()
        c.update(SESSION, markdown(rev, "design-doc", MD_STEPS))
        c.snapshot()
        c.update(SESSION, document_plan(rev, "design-doc"))
        c.snapshot()
        c.update(SESSION, markdown(rev, "design-doc", MD_STEPS + "\n- [x] Written"))
        c.snapshot()
        c.end_turn(p)
        c = case("id-remove-unknown-ignored",
                 "plan_removed for ids the session does not show (never created, already removed): the client ignores them, "
                 "and schema 1.20.0 asks nothing more of the agent.",
                 near_miss=["ID-RECREATE"], docs=[plan_section(rev, "removed")])
        p = c.start()
        c.update(SESSION, plan1)
        c.update(SESSION, removed(rev, "plan-9"))
        c.snapshot()
        c.update(SESSION, removed(rev, "plan-1"))
        c.update(SESSION, removed(rev, "plan-1"))
        c.snapshot()
        c.end_turn(p)

    if rev.open_enums:
        c = case("id-type-change-custom-to-items", "A custom `_acme_diagram` plan becomes an items plan.")
        p = c.start()
        c.update(SESSION, custom_plan(rev, "flow", "_acme_diagram", nodes=["parse", "check"]))
        c.expect("ID-TYPE-CHANGE", c.update(SESSION, items(rev, "flow", steps3())))
        c.snapshot()
        c.end_turn(p)

    c = case("id-concurrent-plans-of-different-types",
             "Plans of different types live side by side; each update replaces only its own plan, each removal dismisses only its own.",
             near_miss=["ID-TYPE-CHANGE", "ID-REMOVE-UNKNOWN", "ID-RECREATE"], docs=[MULTIPLE_PLANS])
    p = c.start()
    c.update(SESSION, items(rev, "strategy", [entry("Split the parser into lexer and parser", "high", "in_progress"),
                                              entry("Keep the public API", "medium")]))
    c.update(SESSION, items(rev, "checklist", steps3("in_progress")))
    c.update(SESSION, markdown(rev, "notes", "## Notes\nThe lexer is hand-written."))
    c.update(SESSION, document_plan(rev, "design-doc"))
    if rev.open_enums:
        c.update(SESSION, custom_plan(rev, "flow", "_acme_diagram", nodes=["lex", "parse"]))
    c.snapshot()
    c.update(SESSION, items(rev, "checklist", steps3("completed", "in_progress")))
    c.snapshot()
    c.update(SESSION, removed(rev, "notes"))
    c.snapshot()
    c.update(SESSION, markdown(rev, "notes-2", "## Notes\nLexer done."))
    c.update(SESSION, items(rev, "strategy", [entry("Split the parser into lexer and parser", "high", "completed"),
                                              entry("Keep the public API", "medium", "completed")]))
    c.snapshot()
    c.end_turn(p)

    c = case("id-same-id-in-two-sessions",
             "Two sessions use plan-1 for plans of different types; neither affects the other.",
             near_miss=["ID-TYPE-CHANGE", "ID-RECREATE"], docs=[MULTIPLE_PLANS])
    c.initialize()
    c.new_session(SESSION)
    c.new_session(SESSION_2)
    p1 = c.prompt(SESSION)
    p2 = c.prompt(SESSION_2, "Write the changelog")
    c.update(SESSION, plan1)
    c.update(SESSION_2, markdown(rev, "plan-1", "## Changelog\n- [ ] Collect PRs"))
    c.update(SESSION, items(rev, "plan-1", steps3("completed", "in_progress")))
    c.snapshot()
    c.update(SESSION_2, removed(rev, "plan-1"))
    c.snapshot()
    c.end_turn(p2)
    c.end_turn(p1)

    c = case("id-case-and-unicode", "Ids are compared exactly: `Plan-1` and `plan-1` are two plans; ids may hold any characters.",
             near_miss=["ID-TYPE-CHANGE", "ID-REMOVE-UNKNOWN"], docs=[MULTIPLE_PLANS])
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3()))
    c.update(SESSION, markdown(rev, "Plan-1", MD_STEPS))
    c.update(SESSION, markdown(rev, "計画/β 1", "## 計画"))
    c.update(SESSION, removed(rev, "計画/β 1"))
    c.snapshot()
    c.end_turn(p)

    c = case("id-many-plans", "Twelve plans in one session, then half of them removed.",
             near_miss=["ID-REMOVE-UNKNOWN"], docs=[MULTIPLE_PLANS])
    p = c.start()
    for n in range(1, 13):
        if n % 2:
            c.update(SESSION, items(rev, f"task-{n:02}", [entry(f"Step {n}", "low")]))
        else:
            c.update(SESSION, markdown(rev, f"task-{n:02}", f"## Step {n}"))
    for n in range(1, 13, 2):
        c.update(SESSION, removed(rev, f"task-{n + 1:02}"))
    c.snapshot()
    c.end_turn(p)

    if rev.legacy:
        c = case("id-removal-leaves-legacy-plan",
                 "plan_removed dismisses a keyed plan only; the legacy plan of the session stays.",
                 near_miss=["ID-REMOVE-UNKNOWN"], docs=[REMOVAL])
        p = c.start()
        c.update(SESSION, legacy(steps3("in_progress")))
        c.update(SESSION, plan1)
        c.update(SESSION, removed(rev, "plan-1"))
        c.snapshot()
        c.end_turn(p)

    return (f"Plan identity under {rev.name}: ids (`{rev.id_key}`) are per session; removal of plans that are not shown, re-creation, type changes.", cases)


def replacement(rev):
    cases = []
    case = new_case(cases, rev)
    containers = ([("legacy", lambda e: legacy(e))] if rev.legacy else []) + [("items", lambda e: items(rev, "plan-1", e))]

    for kind, make in containers:
        what = "legacy plan" if kind == "legacy" else "items plan"

        pointer = "/params/update/entries" if kind == "legacy" else "/params/update/plan/entries"

        def sequence(slug, description, lists, delta_at=(), near_miss=(), docs=(UPDATING,)):
            """`delta_at`: {update index: index of the first entry back unchanged}."""
            c = case(slug, description, near_miss=near_miss, docs=list(docs))
            p = c.start()
            for n, entries in enumerate(lists):
                i = c.update(SESSION, make(entries))
                if n in dict(delta_at):
                    c.expect("FULL-DELTA", i, f"{pointer}/{dict(delta_at)[n]}")
                c.snapshot()
            c.end_turn(p)

        a, b, cc, d = ("Analyze the existing codebase structure", "Identify components that need refactoring",
                       "Create unit tests for critical functions", "Update the documentation")
        sequence(f"full-{kind}-delta",
                 f"The {what} is followed by an update that carries only the entry that changed; the next update brings back the two left out, unchanged: the update that left them out was a delta. The client replaces the plan with what it got each time.",
                 [steps3(), [entry(a, "high", "in_progress")], steps3("completed")], delta_at=[(2, 1)])
        sequence(f"full-{kind}-delta-two-changed",
                 f"An update of the {what} carries the two entries that changed; two unfinished entries vanish, and one of them comes back unchanged later (the other never does: one is enough).",
                 [[entry(a, "high", "in_progress"), entry(b), entry(cc, "medium"), entry(d, "low")],
                  [entry(a, "high", "completed"), entry(b, "high", "in_progress")],
                  [entry(a, "high", "completed"), entry(b, "high", "completed"), entry(d, "low")]], delta_at=[(2, 2)])
        sequence(f"full-{kind}-deltas-in-a-row",
                 f"Updates of the {what} carry only what changed, one after the other; the entry left out first comes back unchanged in the last.",
                 [steps3(), [entry(a, "high", "in_progress")], [entry(a, "high", "completed")],
                  [entry(b, "high", "in_progress")], [entry(b, "high", "completed")],
                  steps3("completed", "completed")], delta_at=[(5, 2)])
        sequence(f"full-{kind}-replan",
                 f"A replan of the {what}: the first task is done, the second starts, the third is dropped for good (the agent may remove entries). It has the shape of a delta, but nothing left out ever comes back.",
                 [steps3("in_progress"), [entry(a, "high", "completed"), entry(b, "high", "in_progress")],
                  [entry(a, "high", "completed"), entry(b, "high", "completed")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-replan-at-the-end",
                 f"The last update of the {what} has the shape of a delta (it carries only changed entries, an unfinished one vanishes) and the trace ends: nothing proves a delta.",
                 [steps3("in_progress"), [entry(a, "high", "completed"), entry(b, "high", "in_progress")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-comes-back-changed",
                 f"An entry dropped from the {what} comes back later with another status: a replan, not a delta.",
                 [steps3("in_progress"), [entry(a, "high", "completed"), entry(b, "high", "in_progress")],
                  [entry(a, "high", "completed"), entry(b, "high", "completed"), entry(cc, "medium", "in_progress")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-full-list-in-between",
                 f"An entry dropped from the {what} comes back unchanged, but only after a full list (it repeats an entry unchanged) that left it out: the agent re-added it.",
                 [steps3("in_progress"), [entry(a, "high", "completed"), entry(b, "high", "in_progress")],
                  [entry(a, "high", "completed"), entry(b, "high", "completed")],
                  [entry(a, "high", "completed"), entry(b, "high", "completed"), entry(cc, "medium")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-twin-sent-as-often",
                 f"Three tasks of the {what} share a text; one update carries only a pending one (two vanish), the next a completed one, the last a pending one again. The text is never sent fewer times than in the update before, so nothing was left out and the pending task's return proves no delta.",
                 [[entry(a, "high", "in_progress"), entry(a, "high", "completed"), entry(a, "high", "in_progress")],
                  [entry(a)], [entry(a, "high", "completed")], [entry(a)]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-progress", f"The {what} is sent in full on every update as its tasks progress.",
                 [steps3(), steps3("in_progress"), steps3("completed", "in_progress"), steps3("completed", "completed", "completed")],
                 near_miss=["FULL-DELTA"])
        sequence(f"full-{kind}-drop-finished",
                 f"A full update of the {what} that leaves out a finished entry (the agent may remove entries).",
                 [[entry(a, "high", "completed"), entry(b, "high", "in_progress"), entry(cc, "medium")],
                  [entry(b, "high", "completed"), entry(cc, "medium", "in_progress")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-drop-deleted-task",
                 f"A task is deleted: the next {what} lists the others unchanged (as real agents do).",
                 [[entry(a, "high", "completed"), entry(b, "high", "in_progress"), entry(cc, "medium")],
                  [entry(a, "high", "completed"), entry(b, "high", "in_progress")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-repeat", f"The same {what} sent twice (agents may repeat a plan).",
                 [steps3("in_progress"), steps3("in_progress")], near_miss=["FULL-DELTA"])
        sequence(f"full-{kind}-emptied", f"The {what} is replaced by an empty list: the client shows an empty plan.",
                 [steps3("in_progress"), []], near_miss=["FULL-DELTA"])
        sequence(f"full-{kind}-new-plan", f"The {what} is replaced by a different plan altogether.",
                 [steps3("in_progress"), [entry("Roll back the refactoring", "high", "in_progress")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])
        sequence(f"full-{kind}-grows", f"Entries are added to the {what} as the agent discovers work.",
                 [[entry(a, "high", "in_progress")], [entry(a, "high", "completed"), entry(b)],
                  [entry(a, "high", "completed"), entry(b, "high", "in_progress"), entry(cc, "medium"), entry(d, "low")]],
                 near_miss=["FULL-DELTA"], docs=[UPDATING, (PLAN_V1, "Dynamic Planning")])

    c = case("full-delta-names-its-plan",
             "Two items plans; a delta-shaped update of one is warned about for that plan only, and the other plan is untouched.",
             docs=[UPDATING, MULTIPLE_PLANS])
    p = c.start()
    c.update(SESSION, items(rev, "backend", steps3()))
    c.update(SESSION, items(rev, "frontend", [entry("Build the form", "high", "in_progress"), entry("Style the form", "low")]))
    c.snapshot()
    c.update(SESSION, items(rev, "backend", [entry("Analyze the existing codebase structure", "high", "in_progress")]))
    c.snapshot()
    c.update(SESSION, items(rev, "frontend", [entry("Build the form", "high", "completed"), entry("Style the form", "low")]))
    c.expect("FULL-DELTA", c.update(SESSION, items(rev, "backend", steps3("completed"))), "/params/update/plan/entries/1")
    c.snapshot()
    c.end_turn(p)

    c = case("full-delta-forgotten-on-removal",
             "An items plan loses two unfinished entries in a delta-shaped update, is removed, and is created again with them unchanged (ID-RECREATE, an info): removal forgot what was left out.",
             near_miss=["FULL-DELTA"], docs=[UPDATING, REMOVAL])
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3()))
    c.update(SESSION, items(rev, "plan-1", [entry("Analyze the existing codebase structure", "high", "in_progress")]))
    c.update(SESSION, removed(rev, "plan-1"))
    c.expect("ID-RECREATE", c.update(SESSION, items(rev, "plan-1", steps3("in_progress"))))
    c.snapshot()
    c.end_turn(p)

    c = case("full-delta-per-plan",
             "An entry left out of one items plan shows up unchanged in another plan: what is left out is remembered per plan, so this is no evidence.",
             near_miss=["FULL-DELTA"], docs=[UPDATING, MULTIPLE_PLANS])
    p = c.start()
    c.update(SESSION, items(rev, "backend", steps3()))
    c.update(SESSION, items(rev, "backend", [entry("Analyze the existing codebase structure", "high", "in_progress")]))
    c.update(SESSION, items(rev, "frontend", steps3()[1:]))
    c.snapshot()
    c.end_turn(p)

    if rev.legacy:
        c = case("full-legacy-and-keyed-coexist",
                 "The legacy plan and keyed plans live side by side in one session: a legacy update replaces only the legacy plan, a plan_update only its keyed plan, and plan_removed never touches the legacy plan.",
                 near_miss=["FULL-DELTA", "ID-REMOVE-UNKNOWN"], docs=[UPDATING, (PLAN_DRAFT, "Plan Operations")])
        p = c.start()
        c.update(SESSION, legacy(steps3()))
        c.update(SESSION, items(rev, "plan-1", [entry("Write the design doc", "high", "in_progress")]))
        c.update(SESSION, markdown(rev, "notes", MD_STEPS))
        c.snapshot()
        c.update(SESSION, legacy(steps3("in_progress")))
        c.snapshot()
        c.update(SESSION, items(rev, "plan-1", [entry("Write the design doc", "high", "completed")]))
        c.snapshot()
        c.update(SESSION, removed(rev, "notes"))
        c.update(SESSION, legacy([]))
        c.snapshot()
        c.end_turn(p)

    return (f"Full-list replacement under {rev.name}: every update replaces its plan wholesale; FULL-DELTA warns (heuristically) when entries an update left out come back unchanged, which shows that update was a delta.", cases)


def updates(rev):
    cases = []
    case = new_case(cases, rev)
    K = rev.id_key

    def kind(slug, description, updates, docs):
        c = case(slug, description, docs=docs)
        p = c.start()
        for u in updates:
            c.update(SESSION, u)
            c.snapshot()
        c.end_turn(p)

    if rev.legacy:
        kind("kind-legacy-plan", "The legacy plan update of the docs, then its progress.",
             [legacy(steps3()), legacy(steps3("completed", "in_progress"))], [(PLAN_V1, "Creating Plans"), UPDATING])
    kind("kind-plan-update-items", "An items plan_update, as in the docs.",
         [items(rev, "plan-1", [entry("Analyze the existing codebase structure", "high", "pending")])], [plan_section(rev, "items")])
    kind("kind-plan-update-markdown", "A markdown plan_update, as in the docs.",
         [markdown(rev, "implementation-plan", MD_STEPS)], [plan_section(rev, "markdown")])
    if rev.has_file:
        kind("kind-plan-update-file", "A file plan_update, as in the docs.",
             [file_plan(rev, "design-doc", "file:///tmp/plan.md")], [plan_section(rev, "file")])
    else:
        kind("kind-plan-update-markdown-path", "A markdown plan_update that names the file holding the plan.",
             [markdown(rev, "design-doc", MD_STEPS, path="/tmp/plan.md")], [plan_section(rev, "markdown")])
    kind("kind-plan-removed", "plan_removed dismisses the plan it names, as in the docs.",
         [items(rev, "plan-1", steps3()), removed(rev, "plan-1")], [plan_section(rev, "removed")])
    if rev.open_enums:
        kind("kind-plan-update-custom", "A plan_update of a `_`-prefixed custom type.",
             [custom_plan(rev, "flow", "_acme_diagram", nodes=["lex", "parse"], edges=[["lex", "parse"]])],
             [(SCHEMA_V2, "PlanUpdateContent")])

    others = [
        chunk("I'll start by reading the parser."),
        {"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "The lexer is the bottleneck."}},
        {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "Refactor the parser and add tests"}},
        {"sessionUpdate": "tool_call", "toolCallId": "call_001", "title": "Reading src/parser.rs", "kind": "read", "status": "pending",
         "locations": [{"path": "/home/dev/project/src/parser.rs"}]},
        {"sessionUpdate": "tool_call_update", "toolCallId": "call_001", "status": "completed",
         "content": [{"type": "content", "content": {"type": "text", "text": "fn parse() {}"}}]},
        {"sessionUpdate": "available_commands_update", "availableCommands": [{"name": "plan", "description": "Plan before acting"}]},
        {"sessionUpdate": "current_mode_update", "currentModeId": "architect"},
        {"sessionUpdate": "usage_update", "used": 12000, "size": 200000},
        {"sessionUpdate": "session_info_update", "title": "Parser refactor"},
        {"sessionUpdate": "_acme_progress", "percent": 40},
    ]
    c = case("non-plan-updates",
             "Session updates that are not about plans, including kinds newer than this suite and a custom one, are never errors and leave plans alone.",
             docs=[(PROMPT_TURN, "3. Agent reports output"), (EXTENSIBILITY, "Extension Methods")])
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    for u in others:
        c.update(SESSION, u, shown=False)
    c.snapshot()
    c.update(SESSION, items(rev, "plan-1", steps3("completed", "in_progress")))
    c.end_turn(p)

    c = case("requests-between-plan-updates",
             "The agent asks for permission, reads a file and runs a terminal command between plan updates; plans are unaffected.",
             docs=[(PROMPT_TURN, "3. Agent reports output")])
    p = c.start()
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    r = c.agent_request("session/request_permission", {
        "sessionId": SESSION,
        "toolCall": {"toolCallId": "call_002", "title": "Edit src/parser.rs", "kind": "edit", "status": "pending"},
        "options": [{"optionId": "allow-once", "name": "Allow once", "kind": "allow_once"}]})
    c.client_result(r, {"outcome": {"outcome": "selected", "optionId": "allow-once"}})
    r = c.agent_request("fs/read_text_file", {"sessionId": SESSION, "path": "/home/dev/project/src/parser.rs"})
    c.client_result(r, {"content": "fn parse() {}\n"})
    r = c.agent_request("terminal/create", {"sessionId": SESSION, "command": "cargo", "args": ["test"]})
    c.client_result(r, {"terminalId": "term_1"})
    c.update(SESSION, items(rev, "plan-1", steps3("completed", "in_progress")))
    c.snapshot()
    c.end_turn(p)

    c = case("extension-methods", "`_`-prefixed extension requests and notifications in both directions are never errors.",
             docs=[(EXTENSIBILITY, "Extension Methods")])
    p = c.start()
    c.a2c(notification("_acme/telemetry", {"sessionId": SESSION, "tokens": 1200}))
    r = c.client_request("_acme/ping", {})
    c.agent_result(r, {"pong": True})
    r = c.agent_request("_zed/open_file", {"path": "/home/dev/project/PLAN.md"})
    c.client_result(r, None)
    c.update(SESSION, items(rev, "plan-1", steps3("in_progress")))
    c.end_turn(p)

    return (f"Every plan update kind of {rev.name} in a conformant session, next to updates and methods that are not about plans.", cases)
