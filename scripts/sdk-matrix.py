#!/usr/bin/env python3
"""Leniency matrix of the official ACP SDKs (opt-in; not part of CI).

Feeds every plan-carrying `session/update` of corpus/vectors (every message whose
`sessionUpdate` is `plan`, `plan_update` or `plan_removed`), and every distinct one that real
agents sent in corpus/traces, to the official readers:

  rust      agent-client-protocol-schema 1.15.1 (`v1` module for draft-2026-05 and v1,
            `v2` module for v2), scripts/sdk-matrix/rust
  ts-*      @agentclientprotocol/sdk: the zod schemas of its four entrypoints (v1 stable,
            v1 unstable, v2 stable, v2 unstable), scripts/sdk-matrix/ts_read.mjs
  python    agent-client-protocol (PyPI): its pydantic SessionNotification (v1 types only),
            scripts/sdk-matrix/py_read.py

and records for each reader whether it rejects the message, accepts it unchanged, accepts it
with only null members normalised, or accepts it changed (entries dropped, members stripped,
values coerced), then compares that with the vector's verdict on that message. Writes
docs/sdk-matrix.json and docs/sdk-matrix.md.

Usage: scripts/sdk-matrix.py [--render | --check]
  --render   regenerate docs/sdk-matrix.md from docs/sdk-matrix.json only
  --check    exit 1 if docs/sdk-matrix.md is not what docs/sdk-matrix.json renders to (CI)
Needs cargo, node/npm, python3; installs the SDKs into $PEERS (default /tmp/peers) when missing.
A reader that cannot be installed or run is reported (and the document says so); the exit
status is then 1.
"""
import argparse
import collections
import datetime
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.environ.get("PEERS", "/tmp/peers")
VECTORS = os.path.join(ROOT, "corpus", "vectors")
RULES = os.path.join(ROOT, "corpus", "rules.json")
TRACES = os.path.join(ROOT, "corpus", "traces")
EXPECTED_TRACES = os.path.join(TRACES, "interop", "expected.json")
RESULTS = os.path.join(ROOT, "docs", "sdk-matrix.json")
DOC = os.path.join(ROOT, "docs", "sdk-matrix.md")
READERS_DIR = os.path.join(HERE, "sdk-matrix")

RUST_VERSION = "1.15.1"
TS_VERSION = "2.4.0"
PY_VERSION = "0.12.1"
TS_PREFIX = os.path.join(PEERS, "npm-typescript-sdk-%s" % TS_VERSION)
PY_PREFIX = os.path.join(PEERS, "pip-python-sdk-%s" % PY_VERSION)
RUST_TARGET = os.path.join(ROOT, "target", "sdk-matrix-rust")

PLAN_KINDS = ("plan", "plan_update", "plan_removed")
READERS = [  # (name, SDK and entrypoint, revisions it reads)
    ("rust", "Rust `agent-client-protocol-schema` %s (`v1` / `v2` modules, `unstable_plan_operations`)" % RUST_VERSION,
     ("draft-2026-05", "v1", "v2")),
    ("ts-v1-stable", "TypeScript `@agentclientprotocol/sdk` %s, `@agentclientprotocol/sdk` (v1 stable)" % TS_VERSION,
     ("draft-2026-05", "v1")),
    ("ts-v1-unstable", "TypeScript SDK %s, `/unstable` (v1 with unstable features)" % TS_VERSION, ("draft-2026-05", "v1")),
    ("ts-v2-stable", "TypeScript SDK %s, `/experimental/v2` (v2 stable features)" % TS_VERSION, ("v2",)),
    ("ts-v2-unstable", "TypeScript SDK %s, `/experimental/v2/unstable`" % TS_VERSION, ("v2",)),
    ("python", "Python `agent-client-protocol` %s (`acp.schema`, v1 types with Plan Operations; no v2 types)" % PY_VERSION,
     ("draft-2026-05", "v1")),
]

# Why readers and the suite disagree, by (reader family, cause key). A cause key is the suite's
# rules at the message (for messages the suite rejects) or the reader's change or error (for
# messages the suite accepts); see `cause_of`. Each judgement says who is right and why:
#   lenient   the SDK is lenient by design (salvages or ignores what it cannot use)
#   prose     a MUST in the spec's prose that no schema encodes; the suite is right
#   sdk-bug   the SDK is wrong: written up for upstream below
#   suite-bug the suite was wrong (fixed with a vector; the commit is named)
#   n/a       not a disagreement about this message (the reader has no type for the kind, or
#             the suite's error is about the conversation, which one message cannot show)
JUDGEMENTS = {
    "bad-entry-dropped": (
        "lenient by design; the suite is right",
        "An entry without `content`, or whose `priority` or `status` is not one of the "
        "revision's values, breaks the entry's required shape (a MUST for the agent). The SDKs "
        "skip such entries on purpose (the schema's `x-deserialize-skip-invalid-items`: "
        "serde_with `VecSkipError` in Rust, `vecSkipError` in TypeScript, `skip_invalid_items` "
        "in Python) so that one bad entry does not lose the whole plan. The client then shows a "
        "shorter plan and nobody learns that the agent is broken: the suite reports it. It "
        "happens with real agents: opencode 1.15.4's entry with status `blocked` "
        "(`opencode-1.15.4-custom-status-capability.jsonl:9`) vanishes in every SDK."),
    "entries-not-a-list": (
        "SDK bug (reported below); the suite is right",
        "`entries` is required and is an array. Given `null` or an object, the Rust crate and "
        "the TypeScript SDK read an empty list (the schema marks `entries` "
        "`x-deserialize-default-on-error`: Rust `DefaultOnError<VecSkipError<_>>`, TypeScript "
        "`requiredDefaultOnError(..., () => [])`), so the client *replaces its plan with an empty "
        "one*: a malformed update wipes what the user sees. Python rejects the update, which "
        "keeps the previous plan. The design choice is upstream's, but its effect on a list the "
        "client must replace is a bug; see the write-up."),
    "bad-meta-dropped": (
        "lenient by design; the suite is right",
        "`_meta` is an object or null on every type (ACP Extensibility). The SDKs drop a "
        "malformed `_meta` (`x-deserialize-default-on-error`), which loses only extension data."),
    "custom-root-member-stripped": (
        "prose rule no schema encodes; the suite is right",
        "ACP Extensibility: implementations MUST NOT add custom fields at the root of a spec "
        "type (custom data goes under `_meta`). The schemas leave additional properties open so "
        "that older readers pass newer members, so every SDK ignores them (strips them when "
        "re-serialising). Several vectors here are the other revision's spelling (`id` for "
        "`planId`, `planId` under the draft), which the suite names as a rename."),
    "v2-unprefixed-custom-value": (
        "prose rule no schema encodes; the suite is right",
        "v2: custom `type`, `priority` and `status` values MUST start with `_`; unprefixed "
        "unknown values are reserved for ACP. The v2 schema's `other` branches accept any string "
        "so that older readers pass future ACP values, and the SDKs follow the schema "
        "(TypeScript keeps them as custom values, Rust as `Other(String)`)."),
    "json-interop-limits": (
        "both readings are allowed; the suite is right to warn and not to err",
        "A number beyond the range of doubles and an unpaired surrogate escape are legal JSON, "
        "but RFC 8259 lets implementations limit the range of numbers (section 6) and calls the "
        "behaviour of software receiving unpaired surrogates unpredictable (section 8.2); no ACP "
        "MUST forbids them. The suite names them (warnings) and still checks the plan. The Rust "
        "crate (serde_json) rejects the whole notification, so a Rust client loses the plan; "
        "TypeScript reads 1e999 as `Infinity` and Python as `inf` (both written back as `null`, "
        "which is what the table shows). Agents should not send them; the warning says so."),
    "file-uri-not-absolute": (
        "SDK bug (reported below); the suite is right",
        "v2: a file plan's `uri` MUST be an absolute URI (the schema says `format: uri`, RFC "
        "3986). The Rust crate reads it as any string. The TypeScript v2 unstable entrypoint "
        "checks it with zod's `z.url()`, which is the WHATWG URL parser: it rejects relative "
        "references but accepts strings that are not RFC 3986 URIs at all, such as the Windows "
        "path `C:\\Users\\dev\\project\\PLAN.md` (backslashes; read as scheme `c:`) or a "
        "`file:` URI with a raw space."),
}

# Write-ups of SDK bugs, ready to be reported upstream (class → (SDK, title, text)).
UPSTREAM = {
    "entries-not-a-list": [
        ("agent-client-protocol-schema 1.15.1 (Rust) and @agentclientprotocol/sdk 2.4.0 (TypeScript)",
         "A `plan` / `plan_update` items update with `entries: null` (or an object) reads as an empty plan",
         "Input: `{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan\",\"entries\":null}}` "
         "(vectors `v1-shape-legacy-entries-null`, `v1-shape-items-entries-null`, "
         "`v1-shape-legacy-entries-object`). Observed: Rust `SessionNotification` and TypeScript "
         "`zSessionNotification` return `entries: []`. Expected: an error, as for a missing "
         "`entries` (TypeScript already rejects a missing one) and as the Python SDK does. Why "
         "it matters: the client must replace its plan with every update, so the salvaged "
         "value erases the plan the user sees; skipping the bad notification keeps it. "
         "The default comes from the schema's `x-deserialize-default-on-error` on `entries` "
         "(Rust `DefaultOnError<VecSkipError<_>>`); it suits optional members such as `_meta`, "
         "not a required list whose empty value has a meaning of its own."),
    ],
    "file-uri-not-absolute": [
        ("@agentclientprotocol/sdk 2.4.0, `/experimental/v2/unstable`",
         "`PlanFile.uri` accepts strings that are not RFC 3986 URIs",
         "`zPlanFile.uri` is `z.url()`, i.e. WHATWG `new URL()`. It accepts "
         "`C:\\Users\\dev\\project\\PLAN.md` (vector `v2-shape-file-uri-windows-path`) and "
         "`file:///a b`, which the schema's `format: uri` (RFC 3986) and the v2 rule \"MUST be "
         "absolute\" reject. A client that trusts the type then resolves a Windows path as a "
         "URL with scheme `c:`. Suggest checking with an RFC 3986 parser (the suite uses "
         "`fluent-uri`, the parser the Rust `jsonschema` crate uses for `format: uri`)."),
        ("agent-client-protocol-schema 1.15.1 (Rust), `v2` module",
         "`PlanFile.uri` is not checked against the schema's `format: uri`",
         "Relative references (`docs/PLAN.md`), absolute paths (`/home/dev/project/PLAN.md`), "
         "Windows paths and the empty string all read as valid v2 file plans (vectors "
         "`v2-shape-file-uri-*`), though v2 says the URI MUST be absolute and the generated "
         "schema says `format: uri`. A `Url`-typed field (or a checked newtype) would reject them."),
    ],
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- samples

def rule_levels():
    return {r["id"]: r["level"] for r in json.load(open(RULES))}


def samples():
    """Every plan-carrying session/update of the vectors, with the suite's verdict on it."""
    levels = rule_levels()
    out, skipped = [], collections.Counter()
    for revision in sorted(os.listdir(VECTORS)):
        folder = os.path.join(VECTORS, revision)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            group = json.load(open(os.path.join(folder, name)))
            for case in group.get("cases", []):
                if case.get("limits"):
                    skipped["TRACE-LIMIT case (about the acp-plan checker's own limits)"] += 1
                    continue
                case_revision = case.get("revision", group.get("revision", revision))
                diags = collections.defaultdict(list)
                for d in case.get("expect", {}).get("diagnostics", []):
                    diags[d.get("message")].append(d["rule"])
                for n, item in enumerate(case.get("messages", []), start=1):
                    if item.get("direction") != "agent_to_client":
                        continue
                    if "message" in item:
                        # ASCII escapes: some vectors hold lone surrogates, which no UTF-8
                        # pipe can carry as characters.
                        line = json.dumps(item["message"], separators=(",", ":"))
                    elif "raw" in item:
                        line = item["raw"]
                    else:
                        continue  # raw_hex (not UTF-8) and trace records: no reader reads them
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        skipped["not JSON"] += 1
                        continue
                    if not isinstance(msg, dict) or msg.get("method") != "session/update":
                        continue
                    params = msg.get("params")
                    update = params.get("update") if isinstance(params, dict) else None
                    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
                    if kind not in PLAN_KINDS:
                        continue
                    rules = sorted(set(diags.get(n, [])))
                    errors = [r for r in rules if levels.get(r) == "MUST"]
                    plan = update.get("plan") if kind == "plan_update" else None
                    out.append({
                        "id": "%s#%d" % (case["id"], n), "case": case["id"], "message": n,
                        "file": "%s/%s" % (revision, name), "revision": case_revision,
                        "kind": kind + (" %s" % plan.get("type") if isinstance(plan, dict) and isinstance(plan.get("type"), str) else ""),
                        "line": line, "rules": rules, "errors": errors,
                        "verdict": verdict(rules, errors),
                    })
    return out, skipped


def trace_samples():
    """The distinct plan messages real agents sent (corpus/traces: the recorded traces and the
    interop transcripts), with what `acp-plan check` reports on their lines
    (corpus/traces/interop/expected.json; the other recorded traces are conformant)."""
    levels = rule_levels()
    try:
        expected = json.load(open(EXPECTED_TRACES))
    except (OSError, ValueError):
        expected = {}
    out, seen = [], {}
    folders = [TRACES, os.path.join(TRACES, "interop")]
    for folder in folders:
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if not name.endswith(".jsonl"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), ROOT)
            known = expected.get(rel, {"spec": "auto", "diagnostics": []})
            revision = "v2" if known["spec"] == "v2" else "v1"
            by_line = collections.defaultdict(list)
            for rule, _, line in known["diagnostics"]:
                by_line[line].append(rule)
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as fh:
                for n, text in enumerate(fh, start=1):
                    try:
                        record = json.loads(text)
                    except ValueError:
                        continue
                    msg = record.get("message", record) if isinstance(record, dict) else None
                    if not isinstance(msg, dict) or msg.get("method") != "session/update":
                        continue
                    update = (msg.get("params") or {}).get("update")
                    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
                    if kind not in PLAN_KINDS:
                        continue
                    line = json.dumps(msg, separators=(",", ":"))
                    key = (revision, json.dumps(update, sort_keys=True))
                    if key in seen:  # the same message in several scenarios: read it once
                        seen[key]["occurrences"] += 1
                        continue
                    rules = sorted(set(by_line.get(n, [])))
                    errors = [r for r in rules if levels.get(r) == "MUST"]
                    plan = update.get("plan") if kind == "plan_update" else None
                    sample = {
                        "id": "%s:%d" % (name, n), "revision": revision, "source": "trace",
                        "kind": kind + (" %s" % plan.get("type") if isinstance(plan, dict) and isinstance(plan.get("type"), str) else ""),
                        "line": line, "rules": rules, "errors": errors, "verdict": verdict(rules, errors),
                        "occurrences": 1,
                    }
                    seen[key] = sample
                    out.append(sample)
    return out


def verdict(rules, errors):
    if "ENV-DUPLICATE-KEY" in rules:
        return "ambiguous"  # a repeated member: the suite neither accepts nor applies the update
    # SHAPE-* is the plan payload; SES-UPDATE-PARAMS the notification's own params (a missing
    # or non-string sessionId), which a reader of the notification judges too.
    if any(r.startswith("SHAPE-") or r == "SES-UPDATE-PARAMS" for r in errors):
        return "invalid"
    return "valid"


# --------------------------------------------------------------------------- readers

def sh(cmd, **kw):
    log("$ " + " ".join(cmd))
    return subprocess.run(cmd, **kw)


def prepare():
    """Install and build the readers. Returns {reader family: problem} for those that failed."""
    problems = {}
    if not os.path.exists(os.path.join(TS_PREFIX, "node_modules", "@agentclientprotocol", "sdk", "package.json")):
        p = sh(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", TS_PREFIX,
                "@agentclientprotocol/sdk@%s" % TS_VERSION], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            problems["ts"] = "npm install failed: " + p.stdout.strip()[-300:]
    if not os.path.isdir(os.path.join(PY_PREFIX, "acp")):
        p = sh([sys.executable, "-m", "pip", "install", "--quiet", "--target", PY_PREFIX,
                "agent-client-protocol==%s" % PY_VERSION], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            problems["python"] = "pip install failed: " + p.stdout.strip()[-300:]
    p = sh(["cargo", "build", "--release", "--quiet", "--manifest-path", os.path.join(READERS_DIR, "rust", "Cargo.toml")],
           env=dict(os.environ, CARGO_TARGET_DIR=RUST_TARGET), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        problems["rust"] = "cargo build failed: " + p.stdout.strip()[-300:]
    return problems


def run_reader(cmd, items, env=None):
    text = "".join(json.dumps(i) + "\n" for i in items)
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, env=env)
    if p.returncode:
        raise RuntimeError("%s exited %d: %s" % (cmd[0], p.returncode, p.stderr.strip()[-300:]))
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def probes():
    """For every revision and plan kind, a message that misses a member the kind requires.
    A reader that has a type for the kind rejects it; one that accepts it has no type for the
    kind (v2 readers pass unknown kinds through as custom variants; others may ignore them)."""
    out = []
    for revision in ("draft-2026-05", "v1", "v2"):
        key = "id" if revision == "draft-2026-05" else "planId"
        for kind, update in [
            ("plan", {"sessionUpdate": "plan"}),
            ("plan_update", {"sessionUpdate": "plan_update"}),
            ("plan_update items", {"sessionUpdate": "plan_update", "plan": {"type": "items", key: "p"}}),
            ("plan_update file", {"sessionUpdate": "plan_update", "plan": {"type": "file", key: "p"}}),
            ("plan_update markdown", {"sessionUpdate": "plan_update", "plan": {"type": "markdown", key: "p"}}),
            ("plan_removed", {"sessionUpdate": "plan_removed"}),
        ]:
            msg = {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": update}}
            out.append({"id": "probe:%s:%s" % (revision, kind), "revision": revision, "kind": kind,
                        "line": json.dumps(msg, separators=(",", ":"))})
    return out


def read_all(items, problems):
    """{(sample id, reader): answer}"""
    answers = {}
    if "rust" not in problems:
        rust_items = []
        for s in items:
            try:
                params = json.dumps(json.loads(s["line"])["params"])
            except (ValueError, KeyError):
                continue
            # Raw lines: serde reads the params text as sent (repeated members included).
            if s["line"] != json.dumps(json.loads(s["line"]), separators=(",", ":")):
                params = raw_params(s["line"]) or params
            rust_items.append({"id": s["id"], "revision": s["revision"], "params": params})
        binary = os.path.join(RUST_TARGET, "release", "sdk-matrix-rust")
        for a in run_reader([binary], rust_items):
            answers[(a["id"], "rust")] = a
    ts_py = [{"id": s["id"], "revision": s["revision"], "line": s["line"]} for s in items]
    if "ts" not in problems:
        env = dict(os.environ, ACP_SDK_NODE_MODULES=os.path.join(TS_PREFIX, "node_modules"))
        for a in run_reader(["node", os.path.join(READERS_DIR, "ts_read.mjs")], ts_py, env):
            answers[(a["id"], a["reader"])] = a
    if "python" not in problems:
        env = dict(os.environ, PYTHONPATH=PY_PREFIX)
        v1 = [i for i in ts_py if i["revision"] != "v2"]
        for a in run_reader([sys.executable, os.path.join(READERS_DIR, "py_read.py")], v1, env):
            answers[(a["id"], "python")] = a
    return answers


def raw_params(line):
    """The text of the top-level `params` value of a raw JSON line, as written."""
    decoder = json.JSONDecoder()
    key = line.find('"params"')
    if key < 0:
        return None
    colon = line.find(":", key + len('"params"'))
    start = colon + 1
    while start < len(line) and line[start] in " \t":
        start += 1
    try:
        _, end = decoder.raw_decode(line, start)
    except ValueError:
        return None
    return line[start:end]


# --------------------------------------------------------------------------- comparing

def same(a, b):
    """Equal as JSON (1 and 1.0 equal, true and 1 not)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def changes(a, b, path=""):
    """What the reader changed, as (kind, JSON pointer) pairs."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in a.items():
            p = "%s/%s" % (path, k)
            if k not in b:
                yield ("null member dropped" if v is None else "member stripped"), p
            else:
                yield from changes(v, b[k], p)
        for k, v in b.items():
            if k not in a:
                yield ("null member added" if v is None else "member added"), "%s/%s" % (path, k)
    elif isinstance(a, list) and isinstance(b, list):
        if len(b) < len(a):
            yield "entries dropped (%d of %d)" % (len(a) - len(b), len(a)), path
        elif len(b) > len(a):
            yield "items added", path
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                yield from changes(x, y, "%s/%d" % (path, i))
    elif not same(a, b):
        if a is None or b is None:
            yield "null replaced" if a is None else "value replaced by null", path
        elif type(a) is not type(b):
            yield "value coerced (%s → %s)" % (json_type(a), json_type(b)), path
        else:
            yield "value replaced", path


def json_type(v):
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(v), "number")


NORMALISATIONS = ("null member dropped", "null member added")


def outcome(sample, answer):
    if answer is None:
        return "not read", []
    if "error" in answer:
        return "rejects", []
    original = json.loads(sample["line"]).get("params")
    diffs = sorted(set(changes(original, answer.get("read"))))
    if not diffs:
        return "unchanged", []
    if all(k in NORMALISATIONS for k, _ in diffs):
        return "normalises nulls", diffs
    return "changes", [d for d in diffs if d[0] not in NORMALISATIONS]


def agreement(verdict, result):
    if verdict == "ambiguous":
        return "n/a"
    accepted = result in ("unchanged", "normalises nulls")
    if verdict == "valid":
        return "agree" if accepted else ("stricter" if result == "rejects" else "alters valid")
    return "agree" if result == "rejects" else ("accepts invalid" if accepted else "repairs invalid")


def family(reader):
    return "ts" if reader.startswith("ts-") else reader


ENTRY_RULES = {"SHAPE-ENTRY", "SHAPE-PRIORITY", "SHAPE-STATUS"}
# Legal JSON that RFC 8259 calls unpredictable between implementations.
JSON_LIMIT_RULES = {"ENV-NUMBER-RANGE", "ENV-UNPAIRED-SURROGATE"}
V2_OPEN_ENUM_RULES = {"SHAPE-PLAN-TYPE", "SHAPE-PRIORITY", "SHAPE-STATUS"}


def cause_of(sample, result, diffs, answer):
    """The cause class of a disagreement (a key of JUDGEMENTS), or a descriptive key for
    one that no class covers yet (shown as unjudged)."""
    rules = {r for r in sample["errors"] if r.startswith("SHAPE-") or r == "SES-UPDATE-PARAMS"}
    kinds = {k for k, _ in diffs}
    if sample["verdict"] == "valid" and JSON_LIMIT_RULES & set(sample["rules"]):
        return "json-interop-limits"
    accepted = result != "changes"
    if sample["verdict"] == "invalid":
        if "SHAPE-FILE-URI-ABSOLUTE" in rules:
            return "file-uri-not-absolute"
        if sample["revision"] == "v2" and accepted and rules <= V2_OPEN_ENUM_RULES:
            return "v2-unprefixed-custom-value"
        if "SHAPE-ENTRIES" in rules:
            return "entries-not-a-list"
        if rules & ENTRY_RULES and any(k.startswith("entries dropped") for k in kinds):
            return "bad-entry-dropped"
        if rules == {"SHAPE-META"} and kinds <= {"member stripped", "value replaced by null"}:
            return "bad-meta-dropped"
        if rules == {"SHAPE-UNKNOWN-FIELD"} and kinds == {"member stripped"}:
            return "custom-root-member-stripped"
        return "unclassified: %s; reader %s" % (
            ", ".join(sorted(rules)), "; ".join(change_kinds(diffs)) or "accepts it as sent")
    if result == "rejects":
        return "unclassified: reader rejects a valid message: " + generalise(answer.get("error", ""))
    return "unclassified: reader alters a valid message: " + "; ".join(change_kinds(diffs))


def change_kinds(diffs):
    """What a reader changed, without counts or entry numbers."""
    return sorted({"%s at %s" % (re.sub(r" \(\d+ of \d+\)", "", k), generic(p)) for k, p in diffs})


def generic(pointer):
    """/update/entries/3/_meta → /update/entries/*/_meta"""
    return "/".join("*" if part.isdigit() else part for part in pointer.split("/"))


def generalise(error):
    error = re.sub(r"line \d+ column \d+", "line L column C", error)
    error = re.sub(r"\b\d+\b", "N", error)
    error = re.sub(r'"[^"]{0,80}"', '"…"', error)
    error = re.sub(r"`[^`]{0,80}`", "`…`", error)
    return error[:160]


# --------------------------------------------------------------------------- the run

def measure():
    items, skipped = samples()
    log("%d plan-carrying messages in the vectors (%s)" % (
        len(items), ", ".join("%d skipped: %s" % (n, k) for k, n in skipped.items()) or "none skipped"))
    traced = trace_samples()
    log("%d distinct plan messages in the real agents' traces" % len(traced))
    items += traced
    problems = prepare()
    for fam, problem in problems.items():
        log("COULD NOT RUN %s: %s" % (fam, problem))
    answers = read_all(items + probes(), problems)
    # A reader has no type for a kind (of a revision) when it accepts the kind's probe, or
    # when it rejects every message of the kind that the suite finds valid (the draft's `id`
    # spelling read with v1 types): its answers say nothing about leniency then.
    unsupported = collections.defaultdict(set)
    for reader, _, revisions in READERS:
        for probe in probes():
            a = answers.get((probe["id"], reader))
            if probe["revision"] in revisions and a is not None and "error" not in a:
                unsupported[reader].add((probe["revision"], probe["kind"]))
        by_kind = collections.defaultdict(list)
        for s in items:
            if s.get("source") != "trace" and s["revision"] in revisions and s["verdict"] == "valid" \
                    and not s["errors"]:
                a = answers.get((s["id"], reader))
                if a is not None:
                    by_kind[(s["revision"], s["kind"])].append("error" in a)
        for (revision, kind), rejected in by_kind.items():
            if rejected and all(rejected):
                unsupported[reader].add((revision, kind))
    rows, ambiguous = [], []
    outcomes = collections.defaultdict(dict)
    for s in items:
        for reader, _, revisions in READERS:
            if s["revision"] not in revisions:
                continue
            fam = family(reader)
            answer = answers.get((s["id"], reader))
            if fam in problems:
                result, diffs, agree = "not run", [], "n/a"
            elif (s["revision"], s["kind"]) in unsupported[reader] or \
                    (s["revision"], s["kind"].split()[0]) in unsupported[reader]:
                result, diffs, agree = "no type", [], "n/a"
            else:
                result, diffs = outcome(s, answer)
                agree = agreement(s["verdict"], result)
            outcomes[s["id"]][reader] = result
            if s["verdict"] == "ambiguous" and result not in ("no type", "not run"):
                row = {"sample": s["id"], "reader": reader, "result": result,
                       "changes": ["%s at %s" % d for d in diffs]}
                if answer and "error" in answer:
                    row["error"] = answer["error"][:200]
                ambiguous.append(row)
            if agree not in ("agree", "n/a"):
                row = {"sample": s["id"], "reader": reader, "result": result, "agreement": agree,
                       "cause": cause_of(s, result, diffs, answer or {}),
                       "changes": ["%s at %s" % d for d in diffs]}
                if answer and "error" in answer:
                    row["error"] = answer["error"][:200]
                rows.append(row)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "readers": [{"name": r, "description": d, "revisions": list(v)} for r, d, v in READERS],
        "problems": problems,
        "unsupported": {r: sorted("%s %s" % k for k in v) for r, v in unsupported.items()},
        "skipped": dict(skipped),
        "samples": [dict({k: s[k] for k in ("id", "revision", "kind", "rules", "errors", "verdict")
                          if k in s}, source=s.get("source", "vector"), outcomes=outcomes[s["id"]])
                    for s in items],
        "disagreements": rows,
        "ambiguous": ambiguous,
        "node": subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip(),
        "python": sys.version.split()[0],
    }


def render(doc):
    lines = [
        "# Leniency matrix: what the official SDKs do with plan messages",
        "",
        "Generated by `scripts/sdk-matrix.py` (see [scripts/README.md](../scripts/README.md)) from "
        "[sdk-matrix.json](sdk-matrix.json); do not edit by hand. Run: %s (node %s, python %s)." % (
            doc["date"], doc["node"], doc["python"]),
        "",
        "Every plan-carrying `session/update` of [`corpus/vectors`](../corpus/vectors) (%d messages) is read "
        "by each official reader the way an SDK-based client reads an incoming notification, and "
        "what the reader returns is compared with what was sent:" % len(
            [x for x in doc["samples"] if x.get("source", "vector") == "vector"]),
        "",
        "- **rejects**: the reader fails (the client drops the notification or errors);",
        "- **unchanged**: it returns exactly what was sent;",
        "- **normalises nulls**: it only drops or adds members whose value is `null`;",
        "- **changes**: it returns something else (entries dropped, members stripped, values coerced);",
        "- **no type**: the entrypoint has no type for this update kind (it rejects every valid "
        "message of the kind), so its answer says nothing about leniency.",
        "",
        "The vector's verdict on the message is **valid** (no `SHAPE-*` error there), **invalid** "
        "(at least one `SHAPE-*` error) or **ambiguous** (a repeated member: `ENV-DUPLICATE-KEY`; "
        "the suite neither accepts nor applies it). Errors about the conversation (`CAP-*`, `SES-*`, "
        "`ID-*`) are not a reader's business and count as valid here. A reader **agrees** when it "
        "accepts (unchanged or normalising nulls) what is valid and rejects what is invalid.",
        "",
        "## Readers",
        "",
    ]
    for r in doc["readers"]:
        line = "- `%s`: %s; reads %s." % (r["name"], r["description"], ", ".join(r["revisions"]))
        if doc["unsupported"].get(r["name"]):
            line += " No type for: %s." % ", ".join(doc["unsupported"][r["name"]])
        lines.append(line)
    for fam, problem in doc["problems"].items():
        lines.append("- **could not run `%s`**: %s" % (fam, problem))
    if doc["skipped"]:
        lines.append("- Skipped messages: %s." % ", ".join("%d %s" % (n, k) for k, n in doc["skipped"].items()))
    lines += ["", "## Counts per revision and reader", "",
              "| revision | reader | messages | rejects | unchanged | normalises nulls | changes | no type | agree | disagree |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    counts = collections.OrderedDict()
    vector_samples = [s for s in doc["samples"] if s.get("source", "vector") == "vector"]
    for s in vector_samples:
        for reader, result in s["outcomes"].items():
            c = counts.setdefault((s["revision"], reader), collections.Counter())
            c["messages"] += 1
            c[result] += 1
            c["n/a" if result in ("no type", "not run") else agreement(s["verdict"], result)] += 1
    for (revision, reader), c in sorted(counts.items(), key=lambda kv: (kv[0][0], [r["name"] for r in doc["readers"]].index(kv[0][1]))):
        disagree = c["messages"] - c["agree"] - c["n/a"]
        lines.append("| %s | `%s` | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            revision, reader, c["messages"], c["rejects"], c["unchanged"], c["normalises nulls"], c["changes"],
            c["no type"], c["agree"], disagree))
    lines += ["", "Verdicts of the vectors: %s." % ", ".join(
        "%s %d" % (k, n) for k, n in sorted(collections.Counter(s["verdict"] for s in vector_samples).items())), ""]
    traced = [s for s in doc["samples"] if s.get("source") == "trace"]
    if traced:
        lines += ["## Real agents' plan messages", "",
                  "The %d distinct plan messages that real agents sent in `corpus/traces/` (the recorded "
                  "traces and the [interop](interop.md) transcripts; a message repeated across "
                  "scenarios is read once), through the same readers. Verdicts: %s." % (
                      len(traced), ", ".join("%s %d" % (k, n) for k, n in sorted(
                          collections.Counter(s["verdict"] for s in traced).items()))), "",
                  "| reader | messages | rejects | unchanged | normalises nulls | changes | no type |",
                  "|---|---|---|---|---|---|---|"]
        per_reader = collections.OrderedDict((r["name"], collections.Counter()) for r in doc["readers"])
        for s in traced:
            for reader, result in s["outcomes"].items():
                per_reader[reader]["messages"] += 1
                per_reader[reader][result] += 1
        for reader, c in per_reader.items():
            if c["messages"]:
                lines.append("| `%s` | %d | %d | %d | %d | %d | %d |" % (
                    reader, c["messages"], c["rejects"], c["unchanged"], c["normalises nulls"],
                    c["changes"], c["no type"]))
        lines += ["", "Where a reader and the suite disagree on one of them, the message is listed under "
                  "its cause below (ids `TRACE:LINE`).", ""]
    # Disagreements grouped by cause, across readers.
    groups = collections.OrderedDict()
    for row in doc["disagreements"]:
        groups.setdefault(row["cause"], []).append(row)
    lines += ["## Disagreements by cause", "",
              "Each cause: who is right and why, then what each reader does and on which vectors "
              "(the message number follows `#`; `corpus/vectors/<revision>/*.json` has them by id).", ""]
    unjudged = 0
    for cause, rows in sorted(groups.items(), key=lambda kv: (kv[0].startswith("unclassified"), -len(kv[1]))):
        j = JUDGEMENTS.get(cause)
        unjudged += not j
        lines.append("### %s" % md(cause))
        lines.append("")
        lines.append("**%s.** %s" % ((j[0][0].upper() + j[0][1:]), md(j[1])) if j else "**Unjudged.**")
        lines.append("")
        lines.append("| reader | messages | outcome | what it does | vectors |")
        lines.append("|---|---|---|---|---|")
        by_reader = collections.OrderedDict()
        for r in rows:
            by_reader.setdefault(r["reader"], []).append(r)
        for reader in [r["name"] for r in doc["readers"] if r["name"] in by_reader]:
            rs = by_reader[reader]
            outcomes = sorted({r["agreement"] for r in rs})
            does = sorted({c for r in rs for c in r["changes"]}) or sorted(
                {"rejects: " + r["error"][:80] for r in rs if r.get("error")}) or ["accepts it as sent"]
            # Real agents' messages (TRACE:LINE) first: they show the cause is not hypothetical.
            cases = sorted({r["sample"] for r in rs}, key=lambda c: (".jsonl:" not in c, c))
            shown = ", ".join("`%s`" % c for c in cases[:4]) + (" and %d more" % (len(cases) - 4) if len(cases) > 4 else "")
            lines.append("| `%s` | %d | %s | %s | %s |" % (
                reader, len(rs), ", ".join(outcomes), md("; ".join(does[:4]) + (" …" if len(does) > 4 else "")), shown))
        lines.append("")
    if unjudged:
        lines += ["%d cause(s) above are not judged yet." % unjudged, ""]
    if doc.get("ambiguous"):
        lines += ["## Repeated members (ambiguous messages)", "",
                  "A plan update with a member repeated inside one object has two readings. The "
                  "suite reports `ENV-DUPLICATE-KEY`, checks every reading and applies neither, "
                  "because readers do not agree on which value wins: compared here with the last "
                  "value (what Python's and JavaScript's JSON parsers keep), \"unchanged\" means "
                  "the reader kept the last one.", "",
                  "| vector | reader | outcome | what it does |", "|---|---|---|---|"]
        for r in doc["ambiguous"]:
            does = "; ".join(r["changes"]) or ("rejects: " + r["error"][:100] if r.get("error") else "keeps the last value")
            lines.append("| `%s` | `%s` | %s | %s |" % (r["sample"], r["reader"], r["result"], md(does)))
        lines.append("")
    reports = [(cause, item) for cause in groups for item in UPSTREAM.get(cause, [])]
    lines += ["## SDK bugs to report upstream", ""]
    if not reports:
        lines += ["None found in this run.", ""]
    for n, (cause, (sdk, title, text)) in enumerate(reports, start=1):
        lines += ["### %d. %s: %s" % (n, sdk, title), "", md(text), ""]
    text = "\n".join(lines) + "\n"
    # A reader may name a member by a name with an unpaired surrogate (the
    # vectors have such names): written as its escape, as JSON would.
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def compact(doc):
    """The results document, one sample or result per line (a readable diff when re-run)."""
    parts = []
    for key, value in doc.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            body = ",\n  ".join(json.dumps(v, separators=(",", ":")) for v in value)
            parts.append('"%s": [\n  %s\n ]' % (key, body))
        else:
            parts.append('"%s": %s' % (key, json.dumps(value)))
    return "{\n " + ",\n ".join(parts) + "\n}\n"


def md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--render", action="store_true")
    ap.add_argument("--check", action="store_true")
    opts = ap.parse_args()
    if opts.check:
        text = render(json.load(open(RESULTS)))
        try:
            same = open(DOC, encoding="utf-8").read() == text
        except OSError:
            same = False
        if not same:
            log("docs/sdk-matrix.md is not what docs/sdk-matrix.json renders to: run scripts/sdk-matrix.py --render")
        return 0 if same else 1
    if opts.render:
        doc = json.load(open(RESULTS))
    else:
        doc = measure()
        os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
        with open(RESULTS, "w") as fh:
            fh.write(compact(doc))
    with open(DOC, "w") as fh:
        fh.write(render(doc))
    log("wrote %s and %s" % (os.path.relpath(RESULTS, ROOT), os.path.relpath(DOC, ROOT)))
    return 1 if doc["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
