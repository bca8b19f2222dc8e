//! Our strict plan parser against JSON Schema: the official schema of
//! `agent-client-protocol-schema` (generated with schemars) for `v1` and `v2`,
//! and `corpus/schema/draft-2026-05.plan.schema.json` (written by this project
//! from the RFD) for the draft.
//!
//! Every plan-related `session/update` of the corpus is checked under the
//! revision its trace resolves to (the vector's `revision` for vectors), and
//! so is every single-step mutant of it (a member dropped, a value replaced,
//! an unknown member or a bad `_meta` added, `sessionUpdate` switched to
//! another plan kind), so that rejections are compared too, not only
//! acceptances. Agreement means:
//!
//! 1. whatever the parser accepts with no SHAPE error, the schema accepts;
//! 2. whatever the schema rejects, the parser reports at least one SHAPE error;
//! 3. where the parser rejects and the schema accepts, every SHAPE error is one
//!    of the [`KNOWN_DIFFERENCES`] (the places where the spec's prose is
//!    stricter than its schema), each with its reason.
//!
//! Run with `--nocapture` to see the counts.

use acp_plan_test_support::{corpus_files, repo_root};

use acp_plan_conformance::catalog::Severity;
use acp_plan_conformance::rules::shape::{parse_plan_update, PLAN_KINDS};
use acp_plan_conformance::{Config, Diagnostic, Limits, Revision, Validator};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Where the parser is deliberately stricter than the schema. One place, each
/// with the reason; a SHAPE error the schema does not share must be one of these.
const KNOWN_DIFFERENCES: &[KnownDifference] = &[
    KnownDifference {
        name: "custom root member",
        rule: "SHAPE-UNKNOWN-FIELD",
        revisions: &Revision::ALL,
        reason: "ACP Extensibility: implementations MUST NOT add custom fields at the root of a \
                 spec type (custom data goes under `_meta`); the schemas leave \
                 additionalProperties open so that older readers pass newer members.",
        applies: |_, _| true,
    },
    KnownDifference {
        name: "v2 unprefixed unknown plan type",
        rule: "SHAPE-PLAN-TYPE",
        revisions: &[Revision::V2Schema117, Revision::V2],
        reason: "v2: custom `type` values MUST start with `_`; unprefixed unknown values are \
                 reserved for ACP. The schema's `other` branch accepts any string so that \
                 older readers pass future ACP variants.",
        applies: is_unprefixed_string,
    },
    KnownDifference {
        name: "v2 unprefixed unknown priority",
        rule: "SHAPE-PRIORITY",
        revisions: &[Revision::V2Schema117, Revision::V2],
        reason: "v2: custom `priority` values MUST start with `_`; the schema's `other` \
                 branch accepts any string.",
        applies: is_unprefixed_string,
    },
    KnownDifference {
        name: "v2 unprefixed unknown status",
        rule: "SHAPE-STATUS",
        revisions: &[Revision::V2Schema117, Revision::V2],
        reason: "v2: custom `status` values MUST start with `_`; the schema's `other` branch \
                 accepts any string.",
        applies: is_unprefixed_string,
    },
    KnownDifference {
        name: "relative markdown path",
        rule: "SHAPE-MARKDOWN-PATH-ABSOLUTE",
        revisions: &[Revision::V1, Revision::V2],
        reason: "PlanMarkdown.path: \"A supplied path MUST be absolute.\" The schema types \
                 `path` as a plain string (v2: an AbsolutePath, also a plain string).",
        applies: |_, _| true,
    },
    KnownDifference {
        name: "`_meta` of v2 custom plan content",
        rule: "SHAPE-META",
        revisions: &[Revision::V2Schema117, Revision::V2],
        reason: "ACP Extensibility: `_meta` is an object or null on every type; the schema's \
                 `other` plan content describes only `type` and `planId`.",
        applies: is_custom_content_meta,
    },
];
// Not differences: an empty plan id is a SHAPE-PLAN-ID-EMPTY *warning* (the
// schema allows it too), and v2 `file.uri` absoluteness is checked by the
// schema's `format: uri`, which this test validates.

struct KnownDifference {
    name: &'static str,
    rule: &'static str,
    revisions: &'static [Revision],
    reason: &'static str,
    /// Whether this difference explains the diagnostic on this update.
    applies: fn(&Diagnostic, &Value) -> bool,
}

/// The value the diagnostic points at, inside the `update` object.
fn pointed<'a>(d: &Diagnostic, update: &'a Value) -> Option<&'a Value> {
    update.pointer(d.pointer.strip_prefix("/params/update")?)
}

fn is_unprefixed_string(d: &Diagnostic, update: &Value) -> bool {
    pointed(d, update)
        .and_then(Value::as_str)
        .is_some_and(|s| !s.starts_with('_'))
}

fn is_custom_content_meta(d: &Diagnostic, update: &Value) -> bool {
    d.pointer == "/params/update/plan/_meta"
        && update
            .pointer("/plan/type")
            .and_then(Value::as_str)
            // The schema's `other` branch takes every type but the known ones
            // (a `file` plan's bad `_meta` is rejected by both where file is known).
            .is_some_and(|t| !matches!(t, "items" | "markdown"))
}

struct Schemas {
    draft: jsonschema::Validator,
    v1_1_17: jsonschema::Validator,
    v1: jsonschema::Validator,
    v2_1_17: jsonschema::Validator,
    v2: jsonschema::Validator,
}

/// Generating and compiling the schemas is most of this test's time: once.
fn schemas() -> &'static Schemas {
    static SCHEMAS: std::sync::OnceLock<Schemas> = std::sync::OnceLock::new();
    SCHEMAS.get_or_init(Schemas::load)
}

impl Schemas {
    fn load() -> Schemas {
        // 1.15.1 has the plan shapes of schema 1.3.0 to 1.17.0.
        let v1_1_17 = schemars::schema_for!(agent_client_protocol_schema::v1::SessionUpdate);
        let v2_1_17 = schemars::schema_for!(agent_client_protocol_schema::v2::SessionUpdate);
        // Cargo takes one 1.x release of a crate per build: the newest is vendored.
        let v1: Value = serde_json::from_str(include_str!(
            "../../../corpus/schema/official/1.20.0/v1.SessionUpdate.schema.json"
        ))
        .expect("the 1.20.0 v1 schema is JSON");
        let v2: Value = serde_json::from_str(include_str!(
            "../../../corpus/schema/official/1.20.0/v2.SessionUpdate.schema.json"
        ))
        .expect("the 1.20.0 v2 schema is JSON");
        let draft: Value = serde_json::from_str(include_str!(
            "../../../corpus/schema/draft-2026-05.plan.schema.json"
        ))
        .expect("the draft schema is JSON");
        let value = |schema| serde_json::to_value(schema).expect("a schema is JSON");
        Schemas {
            draft: compile(&draft),
            v1_1_17: compile(&value(v1_1_17)),
            v1: compile(&v1),
            v2_1_17: compile(&value(v2_1_17)),
            v2: compile(&v2),
        }
    }

    fn get(&self, revision: Revision) -> &jsonschema::Validator {
        match revision {
            Revision::Draft202605 => &self.draft,
            Revision::V1Schema117 => &self.v1_1_17,
            Revision::V1 => &self.v1,
            Revision::V2Schema117 => &self.v2_1_17,
            Revision::V2 => &self.v2,
        }
    }
}

/// Formats are validated: v2 says `file.uri` is `format: uri` (absolute).
fn compile(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("schema compiles")
}

/// The `sessionUpdate` kinds of `revision` that the plan parser reads (the
/// legacy `plan` under v2 is CAP-LEGACY-V2's business, not a shape).
fn plan_kinds(revision: Revision) -> Vec<&'static str> {
    PLAN_KINDS
        .iter()
        .copied()
        .filter(|k| *k != "plan" || revision.spelling().legacy_plan)
        .collect()
}

/// The `update` of a plan-related `session/update` (a bare message or an
/// envelope around one).
fn plan_update_of(record: &Value, revision: Revision) -> Option<Value> {
    let message = match record.get("message") {
        Some(message) if record.get("direction").is_some() => message,
        _ => record,
    };
    if message.get("method")?.as_str()? != "session/update" {
        return None;
    }
    let update = message.get("params")?.get("update")?;
    let kind = update.get("sessionUpdate")?.as_str()?;
    plan_kinds(revision).contains(&kind).then(|| update.clone())
}

/// A plan update found in the corpus, with the revision it is checked under.
struct Sample {
    origin: String,
    revision: Revision,
    update: Value,
}

/// Plan updates of a trace, each under the revision the validator has chosen
/// by the time it reads that line.
fn trace_samples(file: &str) -> Vec<Sample> {
    let bytes = std::fs::read(repo_root().join(file)).expect("trace is readable");
    let mut validator = Validator::new(Config::default());
    let mut samples = Vec::new();
    for (index, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let line_no = index as u64 + 1;
        validator.push_record(line_no, line);
        validator.take_diagnostics();
        let revision = validator.revision().revision;
        let Ok(record) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if let Some(update) = plan_update_of(&record, revision) {
            // The earlier release reads the same message too.
            for revision in std::iter::once(revision).chain(revision.earlier_release()) {
                samples.push(Sample {
                    origin: format!("{file}:{line_no}"),
                    revision,
                    update: update.clone(),
                });
            }
        }
    }
    samples
}

/// Plan updates of a vector group (`cases[].messages[]`, envelopes), under
/// the group's (or the case's) `revision`. Files in another shape are skipped:
/// the vectors have their own schema test.
fn vector_samples(file: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(repo_root().join(file)).expect("readable");
    let Ok(group) = serde_json::from_str::<Value>(&text) else {
        eprintln!("{file}: not JSON, skipped");
        return Vec::new();
    };
    let group_revision = group.get("revision").and_then(Value::as_str);
    let mut samples = Vec::new();
    let cases = group.get("cases").and_then(Value::as_array);
    for (index, case) in cases.into_iter().flatten().enumerate() {
        let case_revision = case.get("revision").and_then(Value::as_str);
        let Some(revision) = case_revision
            .or(group_revision)
            .and_then(|r| r.parse::<Revision>().ok())
        else {
            eprintln!("{file}: case {index} has no known revision, skipped");
            continue;
        };
        let id = case
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| index.to_string(), str::to_owned);
        let messages = case.get("messages").and_then(Value::as_array);
        for (m, record) in messages.into_iter().flatten().enumerate() {
            if let Some(update) = plan_update_of(record, revision) {
                samples.push(Sample {
                    origin: format!("{file} case {id} message {m}"),
                    revision,
                    update,
                });
            }
        }
    }
    samples
}

fn corpus_samples() -> Vec<Sample> {
    let mut samples = Vec::new();
    for dir in ["corpus/traces", "corpus/docs", "corpus/examples"] {
        for file in corpus_files(dir, "jsonl") {
            samples.extend(trace_samples(&file));
        }
    }
    for file in corpus_files("corpus/vectors", "json") {
        samples.extend(vector_samples(&file));
    }
    samples
}

/// Every single-step mutant of `update`, with a label saying what changed.
fn mutants(update: &Value, revision: Revision) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let kind = update.get("sessionUpdate").and_then(Value::as_str);
    for other in plan_kinds(revision) {
        if Some(other) != kind {
            let mut m = update.clone();
            m["sessionUpdate"] = json!(other);
            out.push((format!("sessionUpdate → {other:?}"), m));
        }
    }
    let replacements = [
        json!(null),
        json!(7),
        json!(true),
        json!(""),
        json!("_custom"),
        json!("unknown"),
        json!([]),
        json!({}),
    ];
    let mut paths = Vec::new();
    collect_paths(update, String::new(), &mut paths);
    for path in &paths {
        let node = update.pointer(path).expect("collected path");
        if !path.is_empty() && path != "/sessionUpdate" {
            for replacement in &replacements {
                if replacement != node {
                    let mut m = update.clone();
                    *m.pointer_mut(path).expect("path") = replacement.clone();
                    out.push((format!("{path} → {replacement}"), m));
                }
            }
        }
        if let Value::Object(object) = node {
            for key in object.keys() {
                if path.is_empty() && key == "sessionUpdate" {
                    continue;
                }
                let mut m = update.clone();
                if let Some(Value::Object(o)) = m.pointer_mut(path) {
                    o.remove(key);
                }
                out.push((format!("drop {path}/{key}"), m));
                let renamed = match key.as_str() {
                    "id" => Some("planId"),
                    "planId" => Some("id"),
                    _ => None,
                };
                if let Some(renamed) = renamed {
                    let mut m = update.clone();
                    if let Some(Value::Object(o)) = m.pointer_mut(path) {
                        let value = o.remove(key).expect("key exists");
                        o.insert(renamed.to_owned(), value);
                    }
                    out.push((format!("rename {path}/{key} → {renamed}"), m));
                }
            }
            for (label, key, value) in [
                ("add", "extraMember", json!(1)),
                ("set", "_meta", json!(7)),
                ("set", "_meta", json!(null)),
            ] {
                let mut m = update.clone();
                if let Some(Value::Object(o)) = m.pointer_mut(path) {
                    o.insert(key.to_owned(), value.clone());
                }
                out.push((format!("{label} {path}/{key} = {value}"), m));
            }
        }
    }
    out
}

/// JSON pointers of every node (the root is "").
fn collect_paths(value: &Value, path: String, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let token = key.replace('~', "~0").replace('/', "~1");
                collect_paths(child, format!("{path}/{token}"), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_paths(child, format!("{path}/{index}"), out);
            }
        }
        _ => {}
    }
    out.push(path);
}

#[derive(Debug)]
enum Outcome {
    BothAccept,
    BothReject,
    /// The parser rejects, the schema accepts, and every SHAPE error is a
    /// known difference (their names).
    Stricter(Vec<&'static str>),
    Disagreement(String),
}

/// Compare the parser (under `revision`) with `schema` on one update.
fn compare(schema: &jsonschema::Validator, revision: Revision, update: &Value) -> Outcome {
    let Some(object) = update.as_object() else {
        return Outcome::Disagreement("not an object".into());
    };
    let kind = object
        .get("sessionUpdate")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let parsed = parse_plan_update(
        object,
        kind,
        revision,
        Limits::default().max_entries_per_plan,
    );
    let shape_errors: Vec<&Diagnostic> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.rule.id.starts_with("SHAPE-") && d.severity() == Severity::Error)
        .collect();
    match (shape_errors.is_empty(), schema.is_valid(update)) {
        (true, true) => Outcome::BothAccept,
        (false, false) => Outcome::BothReject,
        (true, false) => {
            let schema_errors: Vec<String> = schema
                .iter_errors(update)
                .take(3)
                .map(|e| format!("at {:?}: {e}", e.instance_path.as_str()))
                .collect();
            Outcome::Disagreement(format!(
                "the schema rejects what the parser accepts:\n      schema: {}",
                schema_errors.join("\n              ")
            ))
        }
        (false, true) => {
            let mut explained = Vec::new();
            for d in &shape_errors {
                match KNOWN_DIFFERENCES.iter().find(|k| {
                    k.rule == d.rule.id && k.revisions.contains(&revision) && (k.applies)(d, update)
                }) {
                    Some(known) => explained.push(known.name),
                    None => {
                        let ours: Vec<String> = shape_errors
                            .iter()
                            .map(|d| format!("{} at {}: {}", d.rule.id, d.pointer, d.message))
                            .collect();
                        return Outcome::Disagreement(format!(
                            "the parser rejects what the schema accepts, and no known difference explains it:\n      parser: {}",
                            ours.join("\n              ")
                        ));
                    }
                }
            }
            explained.sort_unstable();
            explained.dedup();
            Outcome::Stricter(explained)
        }
    }
}

#[derive(Default)]
struct Tally {
    corpus_messages: usize,
    mutants: usize,
    both_accept: usize,
    both_reject: usize,
    stricter: BTreeMap<&'static str, usize>,
    disagreements: usize,
}

#[test]
fn parser_and_json_schemas_agree_on_every_corpus_message() {
    let schemas = schemas();
    let samples = corpus_samples();
    let mut tallies: BTreeMap<Revision, Tally> = BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut seen: HashSet<(Revision, String)> = HashSet::new();
    for sample in &samples {
        let tally = tallies.entry(sample.revision).or_default();
        let mut checks = vec![("as recorded".to_owned(), sample.update.clone())];
        checks.extend(mutants(&sample.update, sample.revision));
        for (index, (label, update)) in checks.into_iter().enumerate() {
            // Corpora repeat messages: check each distinct one once.
            if !seen.insert((sample.revision, update.to_string())) {
                continue;
            }
            if index == 0 {
                tally.corpus_messages += 1;
            } else {
                tally.mutants += 1;
            }
            match compare(schemas.get(sample.revision), sample.revision, &update) {
                Outcome::BothAccept => tally.both_accept += 1,
                Outcome::BothReject => tally.both_reject += 1,
                Outcome::Stricter(names) => {
                    for name in names {
                        *tally.stricter.entry(name).or_default() += 1;
                    }
                }
                Outcome::Disagreement(why) => {
                    tally.disagreements += 1;
                    let full = update.to_string();
                    let mut shown: String = full.chars().take(400).collect();
                    if shown.len() < full.len() {
                        shown.push('…');
                    }
                    disagreements.push(format!(
                        "{} [{}] ({label}):\n      update: {shown}\n      {why}",
                        sample.origin, sample.revision
                    ));
                }
            }
        }
    }

    println!(
        "schema agreement (distinct messages; mutants are single-step changes of corpus messages):"
    );
    for (revision, t) in &tallies {
        println!(
            "  {:<14} corpus {:>4}  mutants {:>5}  both accept {:>5}  both reject {:>5}  parser stricter {:>4}  disagreements {}",
            revision.as_str(),
            t.corpus_messages,
            t.mutants,
            t.both_accept,
            t.both_reject,
            t.stricter.values().sum::<usize>(),
            t.disagreements
        );
        for (name, count) in &t.stricter {
            println!("      stricter by known difference: {name}: {count}");
        }
    }

    assert!(
        disagreements.is_empty(),
        "{} disagreement(s) between the strict parser and the JSON Schema:\n  {}",
        disagreements.len(),
        disagreements.join("\n  ")
    );
    for revision in Revision::ALL {
        assert!(
            tallies
                .get(&revision)
                .is_some_and(|t| t.corpus_messages > 0),
            "no plan message of {revision} in the corpus: the walk found nothing to compare"
        );
    }
    let observed: BTreeSet<&str> = tallies
        .values()
        .flat_map(|t| t.stricter.keys().copied())
        .collect();
    for known in KNOWN_DIFFERENCES {
        assert!(
            observed.contains(known.name),
            "known difference {:?} ({}) never occurred: remove it, or add a corpus message that shows it. Reason given: {}",
            known.name,
            known.rule,
            known.reason
        );
    }
}

/// The comparison itself tells each outcome apart, disagreements included.
#[test]
fn comparison_detects_each_outcome() {
    let v1 = schemas().get(Revision::V1);
    let draft_schema = schemas().get(Revision::Draft202605);
    let good = json!({"sessionUpdate": "plan_removed", "planId": "p"});
    assert!(matches!(
        compare(v1, Revision::V1, &good),
        Outcome::BothAccept
    ));
    let bad = json!({"sessionUpdate": "plan_removed"});
    assert!(matches!(
        compare(v1, Revision::V1, &bad),
        Outcome::BothReject
    ));
    let extra = json!({"sessionUpdate": "plan_removed", "planId": "p", "note": 1});
    assert!(matches!(
        compare(v1, Revision::V1, &extra),
        Outcome::Stricter(ref names) if names == &["custom root member"]
    ));
    // The draft's `id` passes the draft schema and fails the v1 one.
    let draft = json!({"sessionUpdate": "plan_removed", "id": "p"});
    assert!(matches!(
        compare(draft_schema, Revision::Draft202605, &draft),
        Outcome::BothAccept
    ));
    assert!(matches!(
        compare(v1, Revision::V1, &draft),
        Outcome::BothReject
    ));
    // v2 file URIs (before schema 1.20.0): absolute (RFC 3986) on both sides;
    // a Windows path is not one.
    let v2 = schemas().get(Revision::V2Schema117);
    let file = |uri: &str| json!({"sessionUpdate": "plan_update", "plan": {"type": "file", "planId": "p", "uri": uri}});
    assert!(matches!(
        compare(v2, Revision::V2Schema117, &file("file:///tmp/plan.md")),
        Outcome::BothAccept
    ));
    for not_absolute in ["plan.md", "C:\\plans\\plan.md", "file:///tmp/a b.md"] {
        assert!(
            matches!(
                compare(v2, Revision::V2Schema117, &file(not_absolute)),
                Outcome::BothReject
            ),
            "{not_absolute}"
        );
    }
    // Stand-in schemas that disagree with the parser on purpose.
    let too_strict = compile(&json!({"required": ["somethingElse"]}));
    assert!(matches!(
        compare(&too_strict, Revision::Draft202605, &draft),
        Outcome::Disagreement(_)
    ));
    let too_lax = compile(&json!({}));
    let bad_status = json!({"sessionUpdate": "plan", "entries": [
        {"content": "a", "priority": "high", "status": "done"}]});
    assert!(matches!(
        compare(&too_lax, Revision::Draft202605, &bad_status),
        Outcome::Disagreement(_)
    ));
}
