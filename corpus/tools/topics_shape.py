"""shape.json, enums.json, extensibility.json: SHAPE-* (the strict shape of
plan, plan_update, plan_removed and plan entries), the enums of each
revision (v2's open enums), `_meta` and custom members."""

from vectorlib import (
    Case, SESSION, MD_STEPS, PLAN_URI, PLAN_PATH, CWD, EXTENSIBILITY, RFD, PLAN_V1, SCHEMA_V2,
    entry, steps3, legacy, plan_update, items, markdown, file_plan, document_plan, custom_plan, removed, notification,
    plan_section,
)

UP = "/params/update"
PL = "/params/update/plan"


def containers(rev):
    """Where plan entries live in this revision: (name, builder, pointer)."""
    out = []
    if rev.legacy:
        out.append(("legacy", lambda entries: legacy(entries), UP))
    out.append(("items", lambda entries: items(rev, "plan-1", entries), PL))
    return out


class Cases:
    def __init__(self, rev):
        self.rev = rev
        self.cases = []

    def case(self, slug, description, **kw):
        c = Case(self.rev, slug, description, **kw)
        self.cases.append(c)
        return c

    def bad(self, slug, description, update, diagnostics, shown=False, before=(), **kw):
        """One update that breaks the rules in `diagnostics` [(rule, pointer)]."""
        c = self.case(slug, description, **kw)
        p = c.start()
        for u in before:
            c.update(SESSION, u)
        if before:
            c.snapshot()
        i = c.update(SESSION, update, shown=shown)
        for rule, pointer in diagnostics:
            c.expect(rule, i, pointer)
        if before:
            c.snapshot()
        c.end_turn(p)
        return c

    def good(self, slug, description, updates, near_miss, **kw):
        c = self.case(slug, description, near_miss=near_miss, **kw)
        p = c.start()
        for u in updates:
            c.update(SESSION, u)
        c.end_turn(p)
        return c


def without(d, key):
    d = dict(d)
    d.pop(key)
    return d


def shape(rev):
    s = Cases(rev)
    K, O = rev.id_key, rev.other_id_key
    ok = entry("Analyze the existing codebase structure", "high", "in_progress")

    # ---- entries and entries' members, for each container of entries
    for kind, make, base in containers(rev):
        what = "the legacy plan" if kind == "legacy" else "an items plan"
        e = f"{base}/entries"
        s.bad(f"shape-{kind}-entries-missing", f"{what} without `entries`.", without_entries(make([ok])), [("SHAPE-ENTRIES", base)])
        s.bad(f"shape-{kind}-entries-object", f"{what} whose `entries` is an object keyed by index.",
              replace_entries(make([ok]), {"0": ok}), [("SHAPE-ENTRIES", e)])
        s.bad(f"shape-{kind}-entries-null", f"{what} whose `entries` is null.", replace_entries(make([ok]), None), [("SHAPE-ENTRIES", e)])
        s.good(f"shape-{kind}-entries-empty", f"{what} with an empty list of entries: shown as an empty plan.",
               [make([])], ["SHAPE-ENTRIES", "SHAPE-ENTRY"])

        s.bad(f"shape-{kind}-entry-string", f"{what} whose entry is a bare string.",
              make(["Analyze the existing codebase structure"]), [("SHAPE-ENTRY", f"{e}/0")])
        s.bad(f"shape-{kind}-entry-content-missing", f"{what} whose entry has no `content`.",
              make([without(ok, "content")]), [("SHAPE-ENTRY", f"{e}/0")])
        s.bad(f"shape-{kind}-entry-content-number", f"{what} whose entry `content` is a number.",
              make([dict(ok, content=1)]), [("SHAPE-ENTRY", f"{e}/0/content")])
        s.bad(f"shape-{kind}-entry-content-null", f"{what} whose entry `content` is null.",
              make([dict(ok, content=None)]), [("SHAPE-ENTRY", f"{e}/0/content")])
        title = without(ok, "content")
        title["title"] = ok["content"]
        s.bad(f"shape-{kind}-entry-title-instead-of-content", f"{what} whose entry says `title` where `content` is required.",
              make([title]), [("SHAPE-UNKNOWN-FIELD", f"{e}/0/title"), ("SHAPE-ENTRY", f"{e}/0")])
        s.bad(f"shape-{kind}-one-bad-entry-rejects-the-update",
              f"One bad entry among three: the whole update is rejected (no entry is silently dropped) and the previous plan stays.",
              make(steps3("completed", "in_progress")[:1] + [dict(ok, content=5)] + steps3()[2:]),
              [("SHAPE-ENTRY", f"{e}/1/content")], before=[make(steps3("in_progress"))])
        s.good(f"shape-{kind}-entry-content-empty", f"{what} whose entry `content` is the empty string (a string).",
               [make([dict(ok, content="")])], ["SHAPE-ENTRY"])

        for slug, value, description in [("unknown", "urgent", "`urgent`, not a priority"), ("uppercase", "High", "`High` (values are lowercase)"),
                                         ("number", 1, "a number"), ("null", None, "null")]:
            s.bad(f"shape-{kind}-priority-{slug}", f"{what} whose entry priority is {description}.",
                  make([dict(ok, priority=value)]), [("SHAPE-PRIORITY", f"{e}/0/priority")])
        s.bad(f"shape-{kind}-priority-missing", f"{what} whose entry has no `priority`.",
              make([without(ok, "priority")]), [("SHAPE-PRIORITY", f"{e}/0")])
        s.good(f"shape-{kind}-priorities", f"{what} with each priority: high, medium, low.",
               [make([entry("Fix the crash", "high"), entry("Add tests", "medium"), entry("Update docs", "low")])], ["SHAPE-PRIORITY"])

        for slug, value, description in [("unknown", "done", "`done`, not a status"), ("hyphenated", "in-progress", "`in-progress` (the value is in_progress)"),
                                         ("number", 2, "a number"), ("null", None, "null")]:
            s.bad(f"shape-{kind}-status-{slug}", f"{what} whose entry status is {description}.",
                  make([dict(ok, status=value)]), [("SHAPE-STATUS", f"{e}/0/status")])
        s.bad(f"shape-{kind}-status-missing", f"{what} whose entry has no `status`.",
              make([without(ok, "status")]), [("SHAPE-STATUS", f"{e}/0")])
        s.good(f"shape-{kind}-statuses", f"{what} with each status: pending, in_progress, completed.",
               [make([entry("Fix the crash", "high", "completed"), entry("Add tests", "medium", "in_progress"),
                      entry("Update docs", "low", "pending")])], ["SHAPE-STATUS"])

        s.bad(f"shape-{kind}-every-bad-entry-reported", f"{what} with two bad entries: each is reported at its own pointer.",
              make([dict(ok, priority="urgent"), dict(ok, status="done"), ok]),
              [("SHAPE-PRIORITY", f"{e}/0/priority"), ("SHAPE-STATUS", f"{e}/1/status")])

    # ---- plan_update.plan
    plan1 = items(rev, "plan-1", [ok])
    s.bad("shape-plan-missing", "plan_update without `plan`.", {"sessionUpdate": "plan_update"}, [("SHAPE-PLAN", UP)])
    s.bad("shape-plan-string", "plan_update whose `plan` is markdown text instead of a plan object.",
          plan_update(MD_STEPS), [("SHAPE-PLAN", PL)])
    s.bad("shape-plan-null", "plan_update whose `plan` is null.", plan_update(None), [("SHAPE-PLAN", PL)])
    s.bad("shape-plan-array", "plan_update whose `plan` is an array of plans.", plan_update([plan1["plan"]]), [("SHAPE-PLAN", PL)])
    flat = {"sessionUpdate": "plan_update", "type": "items", K: "plan-1", "entries": [ok]}
    s.bad("shape-plan-update-flattened",
          "plan_update with the plan's members flattened into the update (as the legacy plan does) instead of under `plan`.",
          flat, [("SHAPE-UNKNOWN-FIELD", f"{UP}/type"), ("SHAPE-UNKNOWN-FIELD", f"{UP}/{K}"),
                 ("SHAPE-UNKNOWN-FIELD", f"{UP}/entries"), ("SHAPE-PLAN", UP)])
    s.good("shape-plan-object", "plan_update with its plan object.", [plan1], ["SHAPE-PLAN"], docs=[(RFD, "What we propose to do about it")])

    # ---- plan.type
    def typed(value):
        u = items(rev, "plan-1", [ok])
        if value is _MISSING:
            del u["plan"]["type"]
        else:
            u["plan"]["type"] = value
        return u

    s.bad("shape-plan-type-missing", "A plan without `type`.", typed(_MISSING), [("SHAPE-PLAN-TYPE", PL)])
    s.bad("shape-plan-type-number", "A plan whose `type` is a number.", typed(1), [("SHAPE-PLAN-TYPE", f"{PL}/type")])
    s.bad("shape-plan-type-null", "A plan whose `type` is null.", typed(None), [("SHAPE-PLAN-TYPE", f"{PL}/type")])
    s.bad("shape-plan-type-unknown", "A plan of type `checklist`, which no revision defines"
          + (" (v2: unprefixed unknown types are reserved for ACP)." if rev.open_enums else "."),
          typed("checklist"), [("SHAPE-PLAN-TYPE", f"{PL}/type")])
    s.bad("shape-plan-type-wrong-case", "A plan of type `Items` (types are lowercase).", typed("Items"), [("SHAPE-PLAN-TYPE", f"{PL}/type")])
    removal = plan_update({"type": "removed", K: "plan-1"})
    s.bad("shape-plan-type-removed", "Removal as a plan type (`type: removed`, an alternative the RFD rejected) instead of plan_removed.",
          removal, [("SHAPE-PLAN-TYPE", f"{PL}/type")], before=[plan1], docs=[(RFD, "Frequently asked questions")])
    if rev.has_file:
        s.good("shape-plan-types", "One plan of each type: items, markdown and file.",
               [plan1, markdown(rev, "notes", MD_STEPS), file_plan(rev, "design-doc", PLAN_URI)], ["SHAPE-PLAN-TYPE"])
    else:
        s.good("shape-plan-types", "One plan of each type of schema 1.20.0: items, and markdown with and without the path of its file.",
               [plan1, markdown(rev, "notes", MD_STEPS), document_plan(rev, "design-doc")], ["SHAPE-PLAN-TYPE"])
        gone = plan_update({"type": "file", K: "design-doc", "uri": PLAN_URI})
        s.bad("shape-plan-type-file-dropped",
              "A file plan, which schema 1.20.0 dropped"
              + (" (an unprefixed unknown type, reserved for ACP)" if rev.open_enums else " (its reader rejects the unknown variant)")
              + f": the release before ({rev.name}-1.17) accepted it.",
              gone, [("SHAPE-PLAN-TYPE", f"{PL}/type")], docs=[plan_section(rev, "markdown")])

    # ---- the plan id
    s.bad("shape-plan-id-missing", f"An items plan without `{K}`.", without_plan(items(rev, "plan-1", [ok]), K), [("SHAPE-PLAN-ID", PL)])
    other = markdown(rev, "notes", MD_STEPS)
    other["plan"] = rename(other["plan"], K, O)
    s.bad("shape-plan-id-other-revision-key", f"A markdown plan identified by `{O}`, another revision's spelling of `{K}`.",
          other, [("SHAPE-PLAN-ID", f"{PL}/{O}")])
    s.bad("shape-plan-id-number", f"A {'file' if rev.has_file else 'markdown'} plan whose `{K}` is a number.", document_plan(rev, 1),
          [("SHAPE-PLAN-ID", f"{PL}/{K}")])
    s.bad("shape-plan-id-null", f"An items plan whose `{K}` is null.", items(rev, None, [ok]), [("SHAPE-PLAN-ID", f"{PL}/{K}")])
    both = items(rev, "plan-1", [ok])
    both["plan"][O] = "plan-1"
    s.bad("shape-plan-id-both-keys", f"A plan with both `{K}` and `{O}`: `{O}` is not a member in {rev.name}; the plan is shown.",
          both, [("SHAPE-UNKNOWN-FIELD", f"{PL}/{O}")], shown=True)
    s.bad("shape-removed-id-missing", "plan_removed without an id; the plan stays.", {"sessionUpdate": "plan_removed"},
          [("SHAPE-PLAN-ID", UP)], before=[plan1])
    s.bad("shape-removed-id-other-revision-key", f"plan_removed with `{O}`, another revision's spelling; the plan stays.",
          {"sessionUpdate": "plan_removed", O: "plan-1"}, [("SHAPE-PLAN-ID", f"{UP}/{O}")], before=[plan1])
    s.bad("shape-removed-id-number", f"plan_removed whose `{K}` is a number.", removed(rev, 1), [("SHAPE-PLAN-ID", f"{UP}/{K}")])
    s.good("shape-plan-id-present", f"Plans and plan_removed carry `{K}` as a string.",
           [plan1, markdown(rev, "notes", MD_STEPS), removed(rev, "notes")], ["SHAPE-PLAN-ID"], docs=[plan_section(rev, "id")])

    c = s.bad("shape-plan-id-empty", f"An items plan whose `{K}` is the empty string: allowed by the schema, shown, and warned about.",
              items(rev, "", [ok]), [("SHAPE-PLAN-ID-EMPTY", f"{PL}/{K}")], shown=True)
    c = s.case("shape-removed-id-empty", "A plan with the empty id is shown and then removed; both messages are warned about.")
    p = c.start()
    c.expect("SHAPE-PLAN-ID-EMPTY", c.update(SESSION, items(rev, "", [ok])), f"{PL}/{K}")
    c.expect("SHAPE-PLAN-ID-EMPTY", c.update(SESSION, removed(rev, "")), f"{UP}/{K}")
    c.end_turn(p)
    s.good("shape-plan-id-zero", "A plan whose id is \"0\" (a non-empty string).", [items(rev, "0", [ok]), removed(rev, "0")],
           ["SHAPE-PLAN-ID-EMPTY", "SHAPE-PLAN-ID"])

    # ---- file plans
    if rev.has_file:
        s.bad("shape-file-uri-missing", "A file plan without `uri`.", without_plan(file_plan(rev, "design-doc", PLAN_URI), "uri"),
              [("SHAPE-FILE-URI", PL)])
        s.bad("shape-file-uri-number", "A file plan whose `uri` is a number.", file_plan(rev, "design-doc", 7), [("SHAPE-FILE-URI", f"{PL}/uri")])
        path = without_plan(file_plan(rev, "design-doc", PLAN_URI), "uri")
        path["plan"]["path"] = "/home/dev/project/PLAN.md"
        s.bad("shape-file-path-instead-of-uri", "A file plan that says `path` where `uri` is required.", path,
              [("SHAPE-UNKNOWN-FIELD", f"{PL}/path"), ("SHAPE-FILE-URI", PL)])
        near_uri = ["SHAPE-FILE-URI"] + (["SHAPE-FILE-URI-ABSOLUTE"] if rev.open_enums else [])
        s.good("shape-file-uri-https", "A file plan with an https URI.", [file_plan(rev, "design-doc", "https://example.com/plans/PLAN.md")], near_uri)
        s.good("shape-file-uri-file-scheme", "A file plan with a file URI, as in the docs.", [file_plan(rev, "design-doc", "file:///tmp/plan.md")],
               near_uri)
        s.good("shape-file-uri-windows-file-uri", "A file plan with a Windows file URI.",
               [file_plan(rev, "design-doc", "file:///C:/Users/dev/project/PLAN.md")], near_uri)
        relative = [("relative", "docs/PLAN.md", "a relative reference"), ("absolute-path", "/home/dev/project/PLAN.md", "an absolute path without a scheme"),
                    ("windows-path", "C:\\Users\\dev\\project\\PLAN.md", "a Windows path"), ("empty", "", "the empty string")]
        for slug, uri, description in relative:
            if rev.open_enums:
                s.bad(f"shape-file-uri-{slug}", f"A file plan whose `uri` is {description}: v2 requires absolute URIs.",
                      file_plan(rev, "design-doc", uri), [("SHAPE-FILE-URI-ABSOLUTE", f"{PL}/uri")])
            else:
                s.good(f"shape-file-uri-{slug}", f"A file plan whose `uri` is {description}: {rev.name} requires a string, not an absolute URI (v2 does).",
                       [file_plan(rev, "design-doc", uri)], ["SHAPE-FILE-URI"])

    # ---- markdown plans
    s.bad("shape-markdown-content-missing", "A markdown plan without `content`.", without_plan(markdown(rev, "notes", MD_STEPS), "content"),
          [("SHAPE-MARKDOWN-CONTENT", PL)])
    s.bad("shape-markdown-content-lines", "A markdown plan whose `content` is an array of lines.",
          markdown(rev, "notes", MD_STEPS.split("\n")), [("SHAPE-MARKDOWN-CONTENT", f"{PL}/content")])
    text = without_plan(markdown(rev, "notes", MD_STEPS), "content")
    text["plan"]["markdown"] = MD_STEPS
    s.bad("shape-markdown-text-instead-of-content", "A markdown plan that says `markdown` where `content` is required.", text,
          [("SHAPE-UNKNOWN-FIELD", f"{PL}/markdown"), ("SHAPE-MARKDOWN-CONTENT", PL)])
    s.good("shape-markdown-content-empty", "A markdown plan whose content is the empty string.", [markdown(rev, "notes", "")],
           ["SHAPE-MARKDOWN-CONTENT"])

    # ---- the path of a markdown plan's file (schema 1.20.0)
    at_path = lambda path: markdown(rev, "notes", MD_STEPS, path=path)  # noqa: E731
    path_docs = [plan_section(rev, "markdown")]
    if not rev.newest:
        s.bad("shape-markdown-path-before-schema-1-20", f"A markdown plan with `path`, which {rev.name} does not know (schema 1.20.0 added it).",
              at_path(PLAN_PATH), [("SHAPE-UNKNOWN-FIELD", f"{PL}/path")], shown=True)
    else:
        near_path = ["SHAPE-MARKDOWN-PATH", "SHAPE-MARKDOWN-PATH-ABSOLUTE", "SHAPE-UNKNOWN-FIELD"]
        for slug, path, description in [("posix", PLAN_PATH, "a POSIX absolute path"),
                                        ("windows", "C:\\Users\\dev\\project\\PLAN.md", "a Windows absolute path"),
                                        ("windows-forward-slashes", "C:/Users/dev/project/PLAN.md", "a Windows absolute path with forward slashes"),
                                        ("unc", "\\\\server\\share\\project\\PLAN.md", "a UNC path"),
                                        ("non-ascii", "/home/dév/projet/PLAN ü.md", "an absolute path with spaces and non-ASCII letters")]:
            s.good(f"shape-markdown-path-{slug}", f"A markdown plan whose `path` is {description}: absolute on some machine an Agent runs on.",
                   [at_path(path)], near_path, docs=path_docs)
        s.good("shape-markdown-path-null", "A markdown plan whose `path` is null: no file.", [at_path(None)], near_path, docs=path_docs)
        for slug, path, description in [("relative", "docs/PLAN.md", "a relative path"),
                                        ("dot-relative", "./PLAN.md", "a relative path from the current directory"),
                                        ("empty", "", "the empty string"),
                                        ("file-uri", PLAN_URI, "a file URI (`path` is not a URI)"),
                                        ("drive-relative", "C:PLAN.md", "relative to drive C's current directory"),
                                        ("root-relative-windows", "\\PLAN.md", "relative to the current drive's root")]:
            s.bad(f"shape-markdown-path-{slug}", f"A markdown plan whose `path` is {description}: a supplied path MUST be absolute; the plan is not shown.",
                  at_path(path), [("SHAPE-MARKDOWN-PATH-ABSOLUTE", f"{PL}/path")], docs=path_docs)
        for slug, value, description in [("number", 7, "a number"), ("object", {"uri": PLAN_URI}, "an object"),
                                         ("array", [PLAN_PATH], "an array"), ("bool", False, "false")]:
            s.bad(f"shape-markdown-path-{slug}", f"A markdown plan whose `path` is {description}, not a string or null.",
                  at_path(value), [("SHAPE-MARKDOWN-PATH", f"{PL}/path")], docs=path_docs)
        s.bad("shape-markdown-path-without-content", "A markdown plan with `path` but no `content`: `content` is the plan to display whether or not `path` is set.",
              without_plan(at_path(PLAN_PATH), "content"), [("SHAPE-MARKDOWN-CONTENT", PL)], docs=path_docs)
        uri_plan = markdown(rev, "notes", MD_STEPS, uri=PLAN_URI)
        s.bad("shape-markdown-uri-instead-of-path", "A markdown plan that says `uri` (the dropped file plan's member) where 1.20.0 has `path`.",
              uri_plan, [("SHAPE-UNKNOWN-FIELD", f"{PL}/uri")], shown=True, docs=path_docs)

    return (f"The shape of plan messages under {rev.name}: entries, plan_update.plan, the plan id `{K}`, file and markdown plans.", s.cases)


def enums(rev):
    s = Cases(rev)
    ok = entry("Analyze the existing codebase structure", "high", "in_progress")
    for kind, make, base in containers(rev):
        what = "the legacy plan" if kind == "legacy" else "an items plan"
        e = f"{base}/entries/0"
        values = [("status-cancelled", "status", "cancelled", "`cancelled`, which v2 added"),
                  ("status-custom", "status", "_blocked", "the custom value `_blocked`"),
                  ("priority-custom", "priority", "_critical", "the custom value `_critical`")]
        for slug, member, value, description in values:
            rule = "SHAPE-STATUS" if member == "status" else "SHAPE-PRIORITY"
            update = make([dict(ok, **{member: value})])
            if rev.open_enums:
                s.good(f"enum-{kind}-{slug}", f"{what} whose entry {member} is {description}: allowed in v2.", [update], [rule],
                       docs=[(SCHEMA_V2, "PlanEntryStatus" if member == "status" else "PlanEntryPriority")])
            else:
                s.bad(f"enum-{kind}-{slug}", f"{what} whose entry {member} is {description}: not a value of {rev.name}.",
                      update, [(rule, f"{e}/{member}")])
        if rev.open_enums:
            s.bad(f"enum-{kind}-status-unprefixed-custom",
                  f"{what} whose entry status is `blocked`: custom values must start with `_` (unprefixed ones are reserved for ACP).",
                  make([dict(ok, status="blocked")]), [("SHAPE-STATUS", f"{e}/status")])
            s.bad(f"enum-{kind}-priority-unprefixed-custom",
                  f"{what} whose entry priority is `critical`: custom values must start with `_`.",
                  make([dict(ok, priority="critical")]), [("SHAPE-PRIORITY", f"{e}/priority")])
            c = s.case(f"enum-{kind}-cancelled-progress",
                       f"{what} in which a task is cancelled and the rest completes; every update is a full list.",
                       docs=[(SCHEMA_V2, "PlanEntryStatus")], near_miss=["SHAPE-STATUS", "FULL-DELTA"])
            p = c.start()
            for statuses in [("in_progress", "pending", "pending"), ("completed", "cancelled", "in_progress"),
                             ("completed", "cancelled", "completed")]:
                c.update(SESSION, make(steps3(*statuses)))
                c.snapshot()
            c.end_turn(p)

    diagram = {"nodes": [{"id": "parse", "label": "Parse"}, {"id": "check", "label": "Type-check"}],
               "edges": [["parse", "check"]]}
    custom = custom_plan(rev, "flow", "_acme_diagram", **diagram)
    if rev.open_enums:
        s.good("enum-plan-type-custom", "A plan of the custom type `_acme_diagram` with its own members: shown with everything but the id and `_meta`.",
               [custom], ["SHAPE-PLAN-TYPE", "SHAPE-UNKNOWN-FIELD"], docs=[(SCHEMA_V2, "PlanUpdateContent")])
        c = s.case("enum-plan-type-custom-lifecycle",
                   "A custom plan is updated, carries `_meta`, and is removed like any plan.",
                   near_miss=["SHAPE-PLAN-TYPE", "ID-REMOVE-UNKNOWN"], docs=[(SCHEMA_V2, "PlanUpdateContent")])
        p = c.start()
        c.update(SESSION, custom_plan(rev, "flow", "_acme_diagram", nodes=[]))
        c.snapshot()
        c.update(SESSION, custom_plan(rev, "flow", "_acme_diagram", _meta={"acme.dev/layout": "left-right"}, **diagram))
        c.snapshot()
        c.update(SESSION, removed(rev, "flow"))
        c.end_turn(p)
        s.good("enum-plan-type-custom-only-id", "A custom plan with nothing but its type and id.",
               [custom_plan(rev, "marker", "_acme_marker")], ["SHAPE-PLAN-TYPE"])
        s.bad("enum-plan-type-unprefixed-custom", "A plan of type `diagram`: custom types must start with `_`.",
              custom_plan(rev, "flow", "diagram", **diagram), [("SHAPE-PLAN-TYPE", f"{PL}/type")])
        s.bad("enum-plan-type-custom-without-id", "A custom plan without `planId`: every plan carries its id.",
              without_plan(custom, rev.id_key), [("SHAPE-PLAN-ID", PL)])
    else:
        s.bad("enum-plan-type-custom", f"A plan of the custom type `_acme_diagram`: {rev.name} knows {'items, file and markdown' if rev.has_file else 'items and markdown'} only.",
              custom, [("SHAPE-PLAN-TYPE", f"{PL}/type")])
        s.good("enum-known-values", f"Every status and priority of {rev.name}, in one items plan.",
               [items(rev, "plan-1", [entry("a", "high", "pending"), entry("b", "medium", "in_progress"), entry("c", "low", "completed")])],
               ["SHAPE-STATUS", "SHAPE-PRIORITY"], docs=[(PLAN_V1, "Plan Entries")])
    return (f"The enums of {rev.name}: entry priority and status, and plan types"
            + (" (open: `_`-prefixed custom values, `cancelled`)." if rev.open_enums else " (closed: no `cancelled`, no custom values)."), s.cases)


def extensibility(rev):
    s = Cases(rev)
    K = rev.id_key
    ok = entry("Analyze the existing codebase structure", "high", "in_progress")
    plan1 = items(rev, "plan-1", [ok])

    # ---- _meta
    s.bad("meta-update-string", "plan_update whose `_meta` is a string: reported; the plan is still shown.",
          dict(plan1, _meta="trace-1"), [("SHAPE-META", f"{UP}/_meta")], shown=True)
    s.bad("meta-plan-array", "A plan whose `_meta` is an array: reported; the plan is still shown.",
          items(rev, "plan-1", [ok], _meta=[]), [("SHAPE-META", f"{PL}/_meta")], shown=True)
    s.bad("meta-entry-number", "An entry whose `_meta` is a number: reported; the plan is still shown.",
          items(rev, "plan-1", [dict(ok, _meta=7)]), [("SHAPE-META", f"{PL}/entries/0/_meta")], shown=True)
    s.bad("meta-removed-boolean", "plan_removed whose `_meta` is true: reported; the plan is still removed.",
          removed(rev, "plan-1", _meta=True), [("SHAPE-META", f"{UP}/_meta")], shown=True, before=[plan1])
    if rev.legacy:
        s.bad("meta-legacy-string", "The legacy plan whose `_meta` is a string: reported; the plan is still shown.",
              legacy([ok], _meta="trace-1"), [("SHAPE-META", f"{UP}/_meta")], shown=True)

    c = s.case("meta-objects-everywhere",
               "`_meta` objects on every message and type: initialize, capabilities, session/new, prompt, session/update params, updates, plans, entries, plan_removed. Clients do not show them.",
               near_miss=["SHAPE-META", "SHAPE-UNKNOWN-FIELD"], docs=[(EXTENSIBILITY, "The _meta field")])
    meta = {"acme.dev/trace": "t-42"}
    caps = {"_meta": {"acme.dev/planViews": ["items"]}}
    keys = {rev.cap_key: {"_meta": {"acme.dev/planViews": ["items"]}}} if rev.cap_key else {}
    keys["_meta"] = meta
    c.initialize(keys, extra_params={"_meta": meta})
    new = c.client_request("session/new", {"cwd": CWD, "mcpServers": [], "_meta": meta})
    c.agent_result(new, {"sessionId": SESSION, "_meta": meta})
    c.open(SESSION)
    p = c.client_request("session/prompt", {"sessionId": SESSION, "prompt": [{"type": "text", "text": "Refactor the parser"}], "_meta": meta})
    updates = []
    if rev.legacy:
        updates.append(legacy([dict(ok, _meta=meta)], _meta=meta))
    updates.append(dict(items(rev, "plan-1", [dict(ok, _meta=meta)], _meta=meta), _meta=meta))
    updates.append(dict(markdown(rev, "notes", MD_STEPS, _meta=meta), _meta=meta))
    updates.append(dict(document_plan(rev, "design-doc", _meta=meta), _meta=meta))
    updates.append(removed(rev, "notes", _meta=meta))
    for u in updates:
        c.a2c(notification("session/update", {"sessionId": SESSION, "update": u, "_meta": meta}))
        c.apply(SESSION, u)
    c.agent_result(p, {"stopReason": "end_turn", "_meta": meta})
    del caps

    c = s.case("meta-null-everywhere", "`_meta: null` on updates, plans, entries and plan_removed (the schema allows null).",
               near_miss=["SHAPE-META"], docs=[(EXTENSIBILITY, "The _meta field")])
    p = c.start()
    if rev.legacy:
        c.update(SESSION, legacy([dict(ok, _meta=None)], _meta=None))
    c.update(SESSION, dict(items(rev, "plan-1", [dict(ok, _meta=None)], _meta=None), _meta=None))
    c.update(SESSION, removed(rev, "plan-1", _meta=None))
    c.end_turn(p)

    # ---- custom root members
    s.bad("unknown-field-plan-title", "A plan with a `title` member: custom data belongs under `_meta`; the plan is shown without it.",
          items(rev, "plan-1", [ok], title="Parser refactor"), [("SHAPE-UNKNOWN-FIELD", f"{PL}/title")], shown=True)
    s.bad("unknown-field-entry-active-form", "An entry with an `activeForm` member (a coding agent's todo field) at its root.",
          items(rev, "plan-1", [dict(ok, activeForm="Analyzing the existing codebase structure")]),
          [("SHAPE-UNKNOWN-FIELD", f"{PL}/entries/0/activeForm")], shown=True)
    s.bad("unknown-field-update", "plan_update with a `planTitle` member next to `plan`.",
          dict(plan1, planTitle="Parser refactor"), [("SHAPE-UNKNOWN-FIELD", f"{UP}/planTitle")], shown=True)
    s.bad("unknown-field-removed", "plan_removed with a `reason` member: plan_removed carries only the id and `_meta`; the plan is removed.",
          removed(rev, "plan-1", reason="superseded"), [("SHAPE-UNKNOWN-FIELD", f"{UP}/reason")], shown=True, before=[plan1])
    if rev.legacy:
        s.bad("unknown-field-legacy-plan-id", f"The legacy plan with a `{K}` member: only plan_update plans have ids.",
              legacy([ok], **{K: "plan-1"}), [("SHAPE-UNKNOWN-FIELD", f"{UP}/{K}")], shown=True)
    s.good("unknown-field-under-meta", "The same custom data under `_meta`, where it belongs.",
           [items(rev, "plan-1", [dict(ok, _meta={"activeForm": "Analyzing the existing codebase structure"})],
                  _meta={"title": "Parser refactor"}),
            removed(rev, "plan-1", _meta={"reason": "superseded"})],
           ["SHAPE-UNKNOWN-FIELD"], docs=[(EXTENSIBILITY, "The _meta field")])
    return ("Extensibility: `_meta` (an object or null) on every plan type, and no custom members at their roots.", s.cases)


class _Missing:
    pass


_MISSING = _Missing()


def without_entries(update):
    update = dict(update)
    if "plan" in update:
        update["plan"] = without(update["plan"], "entries")
    else:
        del update["entries"]
    return update


def replace_entries(update, value):
    update = dict(update)
    if "plan" in update:
        update["plan"] = dict(update["plan"], entries=value)
    else:
        update["entries"] = value
    return update


def without_plan(update, key):
    return dict(update, plan=without(update["plan"], key))


def rename(d, old, new):
    return {(new if k == old else k): v for k, v in d.items()}
