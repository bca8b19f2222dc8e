"""Building blocks for make_vectors.py: revisions, message builders, the
case builder with its reference client model, and the JSON writer.

The expectations of a vector are written by hand in make_vectors.py (which
rules fire, at which message, and whether a plan message is shown). The
state is computed here from those decisions by a deliberately small model of
a client's plan store, independent of the Rust validator; the Rust test then
checks the validator against both.
"""

import copy
import json
import os

CORPUS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

with open(os.path.join(CORPUS, "rules.json"), encoding="utf-8") as f:
    RULES = {rule["id"]: rule for rule in json.load(f)}

SEVERITY = {"MUST": "error", "SHOULD": "warning", "INFO": "info", "LIMIT": "incomplete"}


class Revision:
    def __init__(self, name, short, version, cap_key, id_key, legacy, open_enums, release):
        self.name = name
        self.short = short
        self.protocol_version = version
        # Key under clientCapabilities that advertises plan operations
        # (None: plan operations are baseline).
        self.cap_key = cap_key
        self.id_key = id_key
        self.legacy = legacy
        self.open_enums = open_enums
        # "draft", "1.17" (schema 1.3.0 to 1.17.0) or "1.20" (schema 1.20.0).
        self.release = release

    @property
    def newest(self):
        """Schema 1.20.0's text: no `file` plans, markdown `path`, unknown
        removals ignored by the client."""
        return self.release == "1.20"

    @property
    def has_file(self):
        return not self.newest

    @property
    def other_cap_key(self):
        return {"plan": "planCapabilities", "planCapabilities": "plan"}.get(self.cap_key)

    @property
    def other_id_key(self):
        return "planId" if self.id_key == "id" else "id"

    def __repr__(self):
        return self.name


DRAFT = Revision("draft-2026-05", "draft", 1, "planCapabilities", "id", True, False, "draft")
V1_117 = Revision("v1-1.17", "v1-1.17", 1, "plan", "planId", True, False, "1.17")
V1 = Revision("v1", "v1", 1, "plan", "planId", True, False, "1.20")
V2_117 = Revision("v2-1.17", "v2-1.17", 2, None, "planId", False, True, "1.17")
V2 = Revision("v2", "v2", 2, None, "planId", False, True, "1.20")
REVISIONS = [DRAFT, V1_117, V1, V2_117, V2]

# Documents cited besides the rules' own citations (the names follow the
# rule catalog's documents).
PLAN_V1 = "ACP Agent Plan (protocol v1)"
PLAN_DRAFT = "ACP Agent Plan with Plan Operations (draft-2026-05)"
RFD = "RFD Plan Operations Support"
SCHEMA_V1 = "ACP JSON Schema v1 (schema.unstable.json)"
SCHEMA_V2 = "ACP JSON Schema v2 (schema.unstable.json)"
SCHEMA_1_20_V1 = "ACP JSON Schema v1 (schema 1.20.0)"
SCHEMA_1_20_V2 = "ACP JSON Schema v2 (schema 1.20.0)"
JSONRPC = "JSON-RPC 2.0 Specification"
TRANSPORTS = "ACP Transports"
RFC8259 = "RFC 8259 (JSON)"
INITIALIZATION = "ACP Initialization"
SESSION_SETUP = "ACP Session Setup"
PROMPT_TURN = "ACP Prompt Turn"
EXTENSIBILITY = "ACP Extensibility"
SUITE = 'acp-plan-conformance trace format (docs/guide.md)'


def document_of(rev, document):
    """The revision's own page of a protocol document (the draft is protocol v1)."""
    v2 = rev.protocol_version == 2
    if document == PROMPT_TURN and v2:
        return "ACP Prompt Lifecycle (protocol v2)"
    if document in (TRANSPORTS, INITIALIZATION, SESSION_SETUP, PROMPT_TURN, EXTENSIBILITY):
        return f"{document} (protocol {'v2' if v2 else 'v1'})"
    return document


def citation_of(rule, rev):
    """A rule's citation in the words of the revision's own document (a
    release that did not reword it is cited as another release of its line)."""
    citations = RULES[rule].get("revision_citations", [])
    for c in citations:
        if c["revision"] == rev.name:
            return c["citation"]
    line = [r.name for r in REVISIONS if r.protocol_version == rev.protocol_version and r.cap_key == rev.cap_key]
    for c in citations:
        if c["revision"] in line:
            return c["citation"]
    return RULES[rule]["citation"]


def plan_section(rev, what):
    """Where a revision defines a part of plan operations: the draft's docs
    page, or the schema definitions of v1 and v2."""
    if rev is DRAFT:
        return PLAN_DRAFT, {"items": "Item-Based Plans", "markdown": "Markdown Plans", "file": "File Plans",
                            "removed": "Removing Plans", "id": "Plan Operations"}[what]
    if rev.newest:
        doc = SCHEMA_1_20_V1 if rev.protocol_version == 1 else SCHEMA_1_20_V2
    else:
        doc = SCHEMA_V1 if rev.protocol_version == 1 else SCHEMA_V2
    return doc, {"items": "PlanItems", "markdown": "PlanMarkdown", "file": "PlanFile", "removed": "PlanRemoved",
                 "id": "PlanId"}[what]


SESSION = "sess_abc123def456"
SESSION_2 = "sess_7f3e9a01c2b4"
SESSION_SAVED = "sess_saved_0424"
CWD = "/home/dev/project"

# ---------------------------------------------------------------- messages


def entry(content, priority="high", status="pending", **extra):
    e = {"content": content, "priority": priority, "status": status}
    e.update(extra)
    return e


def steps3(s1="pending", s2="pending", s3="pending"):
    """The three entries of the docs' example plan, with the given statuses."""
    return [
        entry("Analyze the existing codebase structure", "high", s1),
        entry("Identify components that need refactoring", "high", s2),
        entry("Create unit tests for critical functions", "medium", s3),
    ]


def legacy(entries, **extra):
    u = {"sessionUpdate": "plan", "entries": entries}
    u.update(extra)
    return u


def plan_update(plan, **extra):
    u = {"sessionUpdate": "plan_update", "plan": plan}
    u.update(extra)
    return u


def items(rev, plan_id, entries, **plan_extra):
    plan = {"type": "items", rev.id_key: plan_id, "entries": entries}
    plan.update(plan_extra)
    return plan_update(plan)


def markdown(rev, plan_id, content, **plan_extra):
    plan = {"type": "markdown", rev.id_key: plan_id, "content": content}
    plan.update(plan_extra)
    return plan_update(plan)


def file_plan(rev, plan_id, uri, **plan_extra):
    assert rev.has_file, f"{rev} has no file plans: use document_plan"
    plan = {"type": "file", rev.id_key: plan_id, "uri": uri}
    plan.update(plan_extra)
    return plan_update(plan)


def document_plan(rev, plan_id, **plan_extra):
    """A plan kept in a file: a `file` plan where the revision has them, else
    (schema 1.20.0) a markdown plan with the `path` of its file."""
    if rev.has_file:
        return file_plan(rev, plan_id, PLAN_URI, **plan_extra)
    return markdown(rev, plan_id, MD_STEPS, path=PLAN_PATH, **plan_extra)


def custom_plan(rev, plan_id, type_name, **fields):
    plan = {"type": type_name, rev.id_key: plan_id}
    plan.update(fields)
    return plan_update(plan)


def removed(rev, plan_id, **extra):
    u = {"sessionUpdate": "plan_removed", rev.id_key: plan_id}
    u.update(extra)
    return u


def entries_plan(rev, entries, plan_id="plan-1"):
    """A plan of entries in the revision's baseline form: the legacy `plan`
    where it exists, an `items` plan in v2."""
    return legacy(entries) if rev.legacy else items(rev, plan_id, entries)


def entries_pointer(rev):
    return "/params/update/entries" if rev.legacy else "/params/update/plan/entries"


def chunk(text):
    return {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}


def notification(method, params):
    return {"jsonrpc": "2.0", "method": method, "params": params}


def session_update(session, update):
    return notification("session/update", {"sessionId": session, "update": update})


def line(message):
    """A message as one line on the wire."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


MD_STEPS = "## Steps\n- [ ] Refactor module\n- [ ] Add tests"
PLAN_URI = "file:///home/dev/project/PLAN.md"
PLAN_PATH = "/home/dev/project/PLAN.md"

# ---------------------------------------------------------------- the model


def shown_entry(e):
    """An entry as a client shows it (no `_meta`)."""
    return {"content": e["content"], "priority": e["priority"], "status": e["status"]}


def shown_plan(rev, plan):
    """A keyed plan as a client shows it: its type and content, no id or `_meta`."""
    kind = plan["type"]
    if kind == "items":
        return {"type": "items", "entries": [shown_entry(e) for e in plan["entries"]]}
    if kind == "file":
        return {"type": "file", "uri": plan["uri"]}
    if kind == "markdown":
        view = {"type": "markdown", "content": plan["content"]}
        if plan.get("path") is not None and rev.newest:
            view["path"] = plan["path"]
        return view
    # A v2 custom type: everything it carries but the id and `_meta`.
    view = {"type": kind}
    view.update({k: v for k, v in plan.items() if k not in ("type", rev.id_key, "_meta")})
    return view


class Case:
    """One vector. Messages are numbered from 1 in the order added."""

    def __init__(self, rev, slug, description, docs=(), near_miss=(), limits=None, detect=False):
        self.rev = rev
        self.detect = detect
        self.id = f"{rev.short}-{slug}"
        self.description = description
        self.docs = list(docs)
        self.near_miss = list(near_miss)
        self.limits = limits
        self.items = []
        self.diagnostics = []
        self.steps = []
        self.sessions = {}
        self._client_ids = 0
        self._agent_ids = -1

    # -- raw items
    def send(self, direction, message):
        self.items.append({"direction": direction, "message": message})
        return len(self.items)

    def c2a(self, message):
        return self.send("client_to_agent", message)

    def a2c(self, message):
        return self.send("agent_to_client", message)

    def raw(self, direction, text):
        assert "\n" not in text
        self.items.append({"direction": direction, "raw": text})
        return len(self.items)

    def raw_hex(self, direction, data):
        self.items.append({"direction": direction, "raw_hex": data.hex()})
        return len(self.items)

    def record(self, text):
        """A line in the suite's trace format. Records never carry plan
        messages, so consumers that skip them still reach the same state."""
        assert "\n" not in text
        self.items.append({"record": text})
        return len(self.items)

    @property
    def last(self):
        return len(self.items)

    # -- JSON-RPC
    def client_message(self, method, params):
        """A request with the client's next id, not sent: for a line the case
        writes itself (inside a batch, with a repeated member or an escape)."""
        self._client_ids += 1
        return {"jsonrpc": "2.0", "id": self._client_ids, "method": method, "params": params}

    def client_request(self, method, params, id=None):
        if id is None:
            message = self.client_message(method, params)
        else:
            message = {"jsonrpc": "2.0", "id": id, "method": method, "params": params}
        self.c2a(message)
        return message["id"]

    def agent_request(self, method, params, id=None):
        if id is None:
            self._agent_ids += 1
            id = self._agent_ids
        self.a2c({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        return id

    def agent_result(self, id, result):
        return self.a2c({"jsonrpc": "2.0", "id": id, "result": result})

    def client_result(self, id, result):
        return self.c2a({"jsonrpc": "2.0", "id": id, "result": result})

    # -- ACP
    def capabilities(self, plan_keys=None):
        caps = {"fs": {"readTextFile": True, "writeTextFile": True}, "terminal": True}
        if plan_keys is None:
            plan_keys = {self.rev.cap_key: {}} if self.rev.cap_key else {}
        caps.update(plan_keys)
        return caps

    def initialize(self, plan_keys=None, answer=True, client_capabilities=None, extra_params=None):
        """initialize with the revision's capability spelling (or `plan_keys`,
        a dict of keys to put under clientCapabilities), and its answer."""
        version = self.rev.protocol_version
        params = {"protocolVersion": version}
        if client_capabilities is None:
            params["clientCapabilities"] = self.capabilities(plan_keys)
        elif client_capabilities != "absent":
            params["clientCapabilities"] = client_capabilities
        params["clientInfo"] = {"name": "vector-client", "title": "Vector Client", "version": "1.0.0"}
        if extra_params:
            params.update(extra_params)
        id = self.client_request("initialize", params)
        if answer:
            self.answer_initialize(id)
        return id

    def answer_initialize(self, id):
        version = self.rev.protocol_version
        capabilities = {
            "loadSession": True,
            "promptCapabilities": {"image": False, "audio": False, "embeddedContext": True},
        }
        if version == 1:
            # v1 offers session/resume and session/close only by capability
            # (v2: baseline methods).
            capabilities["sessionCapabilities"] = {"resume": {}, "close": {}}
        return self.agent_result(
            id,
            {
                "protocolVersion": version,
                "agentCapabilities": capabilities,
                "agentInfo": {"name": "vector-agent", "version": "1.0.0"},
                "authMethods": [],
            },
        )

    def new_session(self, session=SESSION, answer=True):
        id = self.client_request("session/new", {"cwd": CWD, "mcpServers": []})
        if answer:
            self.agent_result(id, {"sessionId": session})
            self.open(session)
        return id

    def open(self, session):
        self.sessions.setdefault(session, {"legacy": None, "plans": {}})

    def close(self, session):
        """The client no longer shows a session whose session/close was answered."""
        self.sessions.pop(session, None)

    def prompt(self, session=SESSION, text="Refactor the parser and add tests"):
        return self.client_request(
            "session/prompt", {"sessionId": session, "prompt": [{"type": "text", "text": text}]}
        )

    def end_turn(self, id, reason="end_turn"):
        return self.agent_result(id, {"stopReason": reason})

    def start(self, plan_keys=None, session=SESSION):
        """initialize, session/new and a prompt: returns the prompt's id."""
        self.initialize(plan_keys)
        self.new_session(session)
        return self.prompt(session)

    def update(self, session, update, shown=True):
        """An agent session/update. `shown`: whether a conformant client
        applies it (a decision of the case's author, spelled out per case)."""
        index = self.a2c(session_update(session, update))
        if shown:
            self.apply(session, update)
        return index

    def apply(self, session, update):
        plans = self.sessions[session]
        kind = update["sessionUpdate"]
        if kind == "plan":
            plans["legacy"] = [shown_entry(e) for e in update["entries"]]
        elif kind == "plan_update":
            plan = update["plan"]
            plans["plans"][plan[self.rev.id_key]] = shown_plan(self.rev, plan)
        elif kind == "plan_removed":
            plans["plans"].pop(update[self.rev.id_key], None)
        # Other kinds are not about plans: nothing to show.

    # -- expectations
    def expect(self, rule, message, pointer=None):
        assert rule in RULES, rule
        assert 1 <= message <= len(self.items), (self.id, message)
        d = {"rule": rule, "message": message}
        if pointer is not None:
            d["pointer"] = pointer
        self.diagnostics.append(d)

    def expect_if_applies(self, rule, message, pointer=None):
        """`rule` where the revision has it. Where a release dropped it (schema
        1.20.0: "Clients MUST ignore a removal for an unknown ID"), the same
        message is conformant."""
        assert rule in RULES, rule
        if self.rev.name in RULES[rule]["revisions"]:
            self.expect(rule, message, pointer)
        elif rule == "ID-REMOVE-UNKNOWN" and plan_section(self.rev, "removed") not in self.docs:
            self.docs.append(plan_section(self.rev, "removed"))

    def snapshot(self):
        """Record the expected state after the last message so far."""
        self.steps.append({"after": len(self.items), "state": self.state()})

    def state(self):
        return {"sessions": copy.deepcopy(self.sessions)}

    def build(self):
        rules = {d["rule"] for d in self.diagnostics}
        by_severity = {"error": [], "warning": [], "info": [], "incomplete": []}
        for rule in sorted(rules):
            by_severity[SEVERITY[RULES[rule]["level"]]].append(rule)
        for rule in rules:
            assert self.rev.name in RULES[rule]["revisions"], (self.id, rule)
        # A near miss of a rule the revision does not have says nothing.
        for rule in self.near_miss:
            assert rule in RULES, (self.id, rule)
        self.near_miss = [r for r in self.near_miss if self.rev.name in RULES[r]["revisions"]]
        overlap = rules & set(self.near_miss)
        assert not overlap, (self.id, overlap)
        citations = []
        for rule in sorted(rules) + sorted(set(self.near_miss) - rules):
            c = citation_of(rule, self.rev)
            citations.append({"rule": rule, "document": c["document"], "section": c["section"]})
        for document, section in self.docs:
            citations.append({"document": document_of(self.rev, document), "section": section})
        assert citations, f"{self.id}: cite the spec"
        case = {"id": self.id, "description": self.description, "citations": citations}
        if self.near_miss:
            case["near_miss"] = sorted(self.near_miss)
        if self.limits:
            case["limits"] = self.limits
        if self.detect:
            case["detect"] = True
        case["messages"] = self.items
        verdict = "not_conformant" if by_severity["error"] else "incomplete" if by_severity["incomplete"] else "conformant"
        expect = {
            "verdict": verdict,
            "errors": by_severity["error"],
            "warnings": by_severity["warning"],
            "infos": by_severity["info"],
            "diagnostics": sorted(self.diagnostics, key=lambda d: (d["message"], d["rule"], d.get("pointer", ""))),
            "state": self.state(),
        }
        if by_severity["incomplete"]:
            expect["incomplete"] = by_severity["incomplete"]
        if self.steps:
            expect["steps"] = self.steps
        case["expect"] = expect
        return case


# ---------------------------------------------------------------- writing

WIDTH = 100


def render(value, indent=0, one_line=False):
    """JSON with 2-space indentation; containers that fit in WIDTH columns,
    and every message item, stay on one line."""
    flat = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if one_line or not isinstance(value, (dict, list)) or len(flat) + indent <= WIDTH or not value or _is_leaf(value):
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        inner = [render(v, indent + 2, one_line=_is_item(v)) for v in value]
        return "[\n" + ",\n".join(pad + v for v in inner) + "\n" + " " * indent + "]"
    inner = [json.dumps(k, ensure_ascii=False) + ": " + render(v, indent + 2) for k, v in value.items()]
    return "{\n" + ",\n".join(pad + v for v in inner) + "\n" + " " * indent + "}"


def _is_leaf(v):
    """An object of scalars (a plan entry, a citation, a diagnostic)."""
    return isinstance(v, dict) and all(not isinstance(x, (dict, list)) for x in v.values())


def _is_item(v):
    """A message item of a case: always one line, like a trace."""
    return isinstance(v, dict) and ("record" in v or ("direction" in v and ("message" in v or "raw" in v or "raw_hex" in v)))
