//! Our strict plan parser against JSON Schema: the official schema of each
//! `agent-client-protocol-schema` release a revision is judged by (vendored
//! under `corpus/schema/official/<release>/` by `scripts/spec-sync`; nothing
//! is generated at test time), and `corpus/schema/draft-2026-05.plan.schema.json`
//! (written by this project from the RFD) for the draft.
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
//!    of the [`KNOWN_DIFFERENCES`] of that schema (the places where the spec's
//!    prose is stricter than its schema), each with its reason.
//!
//! A release vendored but read by no revision fails
//! `every_vendored_release_is_read_or_awaited`, with the plan-related
//! definitions that changed since the release the suite judges by: a new
//! upstream release is a failing test with a readable diff, never silent drift.
//!
//! Run with `--nocapture` to see the counts.

use acp_plan_test_support::{corpus_files, repo_root};

use acp_plan_conformance::catalog::Severity;
use acp_plan_conformance::rules::shape::{parse_plan_update, PLAN_KINDS};
use acp_plan_conformance::{Config, Diagnostic, Limits, Revision, Validator};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The schema a revision is judged by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SchemaSource {
    /// `corpus/schema/official/<release>/<file>`, written by `scripts/spec-sync`
    /// from the published crate.
    Official {
        release: &'static str,
        file: &'static str,
    },
    /// A schema this project wrote (`corpus/schema/<file>`), where no official
    /// one was published.
    Project { file: &'static str },
}

impl SchemaSource {
    /// The name known differences are listed under: `<release>/<file>`, or the file.
    fn key(self) -> String {
        match self {
            SchemaSource::Official { release, file } => format!("{release}/{file}"),
            SchemaSource::Project { file } => file.to_owned(),
        }
    }

    fn path(self) -> String {
        match self {
            SchemaSource::Official { release, file } => {
                format!("corpus/schema/official/{release}/{file}")
            }
            SchemaSource::Project { file } => format!("corpus/schema/{file}"),
        }
    }
}

/// The schema each revision is judged by. The release-keyed revisions of issue 42
/// (`v1`/`v2` = 1.20.0, `v1-1.17`/`v2-1.17` = 1.17.0) are not in the library yet:
/// until they are, `v1` and `v2` are the 1.17.0 shapes and read 1.17.0's schemas.
/// Plan Operations are unstable in 1.17.0 (v1: all of them; v2: `file`,
/// `markdown`, `plan_removed`), hence its `schema.unstable.json`.
fn schema_source(revision: Revision) -> SchemaSource {
    match revision {
        Revision::Draft202605 => SchemaSource::Project {
            file: "draft-2026-05.plan.schema.json",
        },
        // Plan operations are unstable up to 1.17.0.
        Revision::V1Schema117 => SchemaSource::Official {
            release: "1.17.0",
            file: "v1/schema.unstable.json",
        },
        Revision::V2Schema117 => SchemaSource::Official {
            release: "1.17.0",
            file: "v2/schema.unstable.json",
        },
        // ... and stable in 1.20.0 (v2 markdown and plan_removed too).
        Revision::V1 => SchemaSource::Official {
            release: "1.20.0",
            file: "v1/schema.json",
        },
        Revision::V2 => SchemaSource::Official {
            release: "1.20.0",
            file: "v2/schema.json",
        },
    }
}

/// Vendored releases that no revision reads yet, each with the reason. A release
/// vendored and neither read nor listed here fails the test.
const AWAITED_RELEASES: &[(&str, &str)] = &[];

/// Where the parser is deliberately stricter than a schema. One place, each
/// with the reason and the schemas (`SchemaSource::key`) it applies to: a new
/// release starts with none, and each is carried over after review. A SHAPE
/// error the schema does not share must be one of these.
const KNOWN_DIFFERENCES: &[KnownDifference] = &[
    KnownDifference {
        name: "custom root member",
        rule: "SHAPE-UNKNOWN-FIELD",
        schemas: &[
            "draft-2026-05.plan.schema.json",
            "1.17.0/v1/schema.unstable.json",
            "1.17.0/v2/schema.unstable.json",
            "1.20.0/v1/schema.json",
            "1.20.0/v2/schema.json",
        ],
        reason: "ACP Extensibility: implementations MUST NOT add custom fields at the root of a \
                 spec type (custom data goes under `_meta`); the schemas leave \
                 additionalProperties open so that older readers pass newer members.",
        applies: |_, _| true,
    },
    KnownDifference {
        name: "v2 unprefixed unknown plan type",
        rule: "SHAPE-PLAN-TYPE",
        schemas: &["1.17.0/v2/schema.unstable.json", "1.20.0/v2/schema.json"],
        reason: "v2: custom `type` values MUST start with `_`; unprefixed unknown values are \
                 reserved for ACP. The schema's `other` branch accepts any string so that \
                 older readers pass future ACP variants.",
        applies: is_unprefixed_string,
    },
    KnownDifference {
        name: "v2 unprefixed unknown priority",
        rule: "SHAPE-PRIORITY",
        schemas: &["1.17.0/v2/schema.unstable.json", "1.20.0/v2/schema.json"],
        reason: "v2: custom `priority` values MUST start with `_`; the schema's `other` \
                 branch accepts any string.",
        applies: is_unprefixed_string,
    },
    KnownDifference {
        name: "v2 unprefixed unknown status",
        rule: "SHAPE-STATUS",
        schemas: &["1.17.0/v2/schema.unstable.json", "1.20.0/v2/schema.json"],
        reason: "v2: custom `status` values MUST start with `_`; the schema's `other` branch \
                 accepts any string.",
        applies: is_unprefixed_string,
    },
    KnownDifference {
        name: "relative markdown path",
        rule: "SHAPE-MARKDOWN-PATH-ABSOLUTE",
        schemas: &["1.20.0/v1/schema.json", "1.20.0/v2/schema.json"],
        reason: "PlanMarkdown.path: \"A supplied path MUST be absolute.\" The schema types \
                 `path` as a plain string (v2: an AbsolutePath, also a plain string).",
        applies: |_, _| true,
    },
    KnownDifference {
        name: "`_meta` of v2 custom plan content",
        rule: "SHAPE-META",
        schemas: &["1.17.0/v2/schema.unstable.json", "1.20.0/v2/schema.json"],
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
    /// `SchemaSource::key`s of the schemas the parser is stricter than here.
    schemas: &'static [&'static str],
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

/// A JSON file of the repository (a vendored or project schema, a release record).
fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(repo_root().join(path))
        .unwrap_or_else(|e| panic!("{path}: {e} (scripts/spec-sync vendors official releases)"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// A validator of the `update` object of a `session/update`: the project's
/// schema is that already; an official one names every message, so its
/// `$defs/SessionUpdate` becomes the root (the other definitions kept for its
/// references).
fn session_update_validator(source: SchemaSource) -> jsonschema::Validator {
    let schema = read_json(&source.path());
    match source {
        SchemaSource::Project { .. } => compile(&schema),
        SchemaSource::Official { .. } => {
            let defs = schema.get("$defs").cloned().unwrap_or_default();
            assert!(
                defs.get("SessionUpdate").is_some(),
                "{} has no $defs/SessionUpdate",
                source.path()
            );
            compile(&json!({
                "$schema": schema.get("$schema").cloned().unwrap_or(Value::Null),
                "$ref": "#/$defs/SessionUpdate",
                "$defs": defs,
            }))
        }
    }
}

struct Schemas {
    by_revision: BTreeMap<Revision, jsonschema::Validator>,
}

/// Compiling the schemas is most of this test's time: once.
fn schemas() -> &'static Schemas {
    static SCHEMAS: std::sync::OnceLock<Schemas> = std::sync::OnceLock::new();
    SCHEMAS.get_or_init(|| Schemas {
        by_revision: Revision::ALL
            .into_iter()
            .map(|r| (r, session_update_validator(schema_source(r))))
            .collect(),
    })
}

impl Schemas {
    fn get(&self, revision: Revision) -> &jsonschema::Validator {
        &self.by_revision[&revision]
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
                let schema_key = schema_source(revision).key();
                match KNOWN_DIFFERENCES.iter().find(|k| {
                    k.rule == d.rule.id
                        && k.schemas.contains(&schema_key.as_str())
                        && (k.applies)(d, update)
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
                        "{} [{} by {}] ({label}):\n      update: {shown}\n      {why}",
                        sample.origin,
                        sample.revision,
                        schema_source(sample.revision).key()
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
            "  {:<14} by {:<32} corpus {:>4}  mutants {:>5}  both accept {:>5}  both reject {:>5}  parser stricter {:>4}  disagreements {}",
            revision.as_str(),
            schema_source(*revision).key(),
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
    let observed: BTreeSet<(String, &str)> = tallies
        .iter()
        .flat_map(|(revision, t)| {
            let key = schema_source(*revision).key();
            t.stricter.keys().map(move |name| (key.clone(), *name))
        })
        .collect();
    for known in KNOWN_DIFFERENCES {
        for schema in known.schemas {
            assert!(
                observed.contains(&((*schema).to_owned(), known.name)),
                "known difference {:?} ({}) never occurred under {schema}: remove it from that \
                 schema's list, or add a corpus message that shows it. Reason given: {}",
                known.name,
                known.rule,
                known.reason
            );
        }
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
    // v2 file URIs: absolute (RFC 3986) on both sides; a Windows path is not one.
    // v2 file plans before schema 1.20.0.
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

/// Every method of every vendored schema (v1 and v2, stable and unstable)
/// is in the suite's method table with the direction its `x-side` gives;
/// a method either side handles has no direction. A release with a new
/// method fails here until the table knows it.
#[test]
fn the_method_table_knows_every_method_of_each_vendored_schema() {
    use acp_plan_conformance::jsonrpc::{Direction, METHODS};
    fn sides(value: &Value, out: &mut BTreeMap<String, BTreeSet<String>>) {
        match value {
            Value::Object(map) => {
                if let (Some(Value::String(method)), Some(Value::String(side))) =
                    (map.get("x-method"), map.get("x-side"))
                {
                    out.entry(method.clone()).or_default().insert(side.clone());
                }
                map.values().for_each(|v| sides(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| sides(v, out)),
            _ => {}
        }
    }
    let mut wrong = Vec::new();
    let mut seen = 0;
    for release in vendored_releases() {
        for file in [
            "v1/schema.json",
            "v1/schema.unstable.json",
            "v2/schema.json",
            "v2/schema.unstable.json",
        ] {
            let path = repo_root().join(format!("corpus/schema/official/{release}/{file}"));
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let schema: Value = serde_json::from_str(&text).expect("a vendored schema is JSON");
            let mut methods = BTreeMap::new();
            sides(&schema, &mut methods);
            assert!(!methods.is_empty(), "{release}/{file}: no x-method");
            for (method, handled_by) in methods {
                seen += 1;
                // x-side names the side that handles the call.
                let expected = match handled_by.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                    ["agent"] => Some(Direction::ClientToAgent),
                    ["client"] => Some(Direction::AgentToClient),
                    _ => None,
                };
                match METHODS.iter().find(|(known, _)| *known == method) {
                    None => wrong.push(format!("{release}/{file}: {method} is not in the table")),
                    Some((_, direction)) if *direction != expected => wrong.push(format!(
                        "{release}/{file}: {method} is {direction:?} in the table, {expected:?} in the schema"
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    assert!(seen > 0, "no vendored schema was read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The releases vendored under `corpus/schema/official/`, oldest first.
fn vendored_releases() -> Vec<String> {
    let dir = repo_root().join("corpus/schema/official");
    let mut releases: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus/schema/official is readable")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            path.join("release.json")
                .is_file()
                .then(|| path.file_name()?.to_str().map(str::to_owned))?
        })
        .collect();
    releases.sort_by_key(|r| release_number(r));
    releases
}

fn release_number(release: &str) -> Vec<u64> {
    release.split('.').filter_map(|n| n.parse().ok()).collect()
}

/// The plan-related `$defs` of one schema file of a release.
fn plan_defs(release: &str, file: &str) -> BTreeMap<String, Value> {
    let schema = read_json(&format!("corpus/schema/official/{release}/{file}"));
    let defs = schema.get("$defs").and_then(Value::as_object);
    defs.into_iter()
        .flatten()
        .filter(|(name, _)| {
            [
                "Plan",
                "SessionUpdate",
                "ClientCapabilities",
                "ReplayComplete",
            ]
            .iter()
            .any(|part| name.contains(part))
        })
        .map(|(name, def)| (name.clone(), def.clone()))
        .collect()
}

/// What changed in the plan-related definitions from `before` to `after`:
/// one line per schema member that differs (a pointer under `$defs`, then the
/// value in each release), so that a changed sentence of a description shows
/// as that sentence, not as the whole definition.
fn plan_defs_diff(before: &str, after: &str) -> String {
    let mut lines = Vec::new();
    for file in [
        "v1/schema.json",
        "v1/schema.unstable.json",
        "v2/schema.json",
        "v2/schema.unstable.json",
    ] {
        let old = Value::Object(plan_defs(before, file).into_iter().collect());
        let new = Value::Object(plan_defs(after, file).into_iter().collect());
        let mut changes = Vec::new();
        diff_values(&old, &new, String::new(), &mut changes);
        for (pointer, a, b) in changes {
            lines.push(format!(
                "  {file} $defs{pointer}\n    {before}: {a}\n    {after}: {b}"
            ));
        }
    }
    if lines.is_empty() {
        return "  (no plan-related definition changed)\n".to_owned();
    }
    lines.join("\n") + "\n"
}

/// The members where `a` and `b` differ, as deep as both have them: a value
/// only on one side is shown whole, so is an array that changed length.
fn diff_values(a: &Value, b: &Value, pointer: String, out: &mut Vec<(String, String, String)>) {
    let shown = |v: Option<&Value>| v.map_or_else(|| "(none)".to_owned(), Value::to_string);
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let child = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (x.get(key), y.get(key)) {
                    (Some(p), Some(q)) => diff_values(p, q, child, out),
                    (p, q) => out.push((child, shown(p), shown(q))),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (index, (p, q)) in x.iter().zip(y).enumerate() {
                diff_values(p, q, format!("{pointer}/{index}"), out);
            }
        }
        _ if a != b => out.push((pointer, shown(Some(a)), shown(Some(b)))),
        _ => {}
    }
}

/// Every vendored release is read by a revision or awaited with a reason, and
/// every release a revision reads is vendored, with its record.
#[test]
fn every_vendored_release_is_read_or_awaited() {
    let vendored = vendored_releases();
    let read: BTreeSet<&str> = Revision::ALL
        .into_iter()
        .filter_map(|r| match schema_source(r) {
            SchemaSource::Official { release, .. } => Some(release),
            SchemaSource::Project { .. } => None,
        })
        .collect();
    let newest_read = read
        .iter()
        .max_by_key(|r| release_number(r))
        .copied()
        .expect("a revision reads an official release");
    for release in &vendored {
        let record = read_json(&format!("corpus/schema/official/{release}/release.json"));
        assert_eq!(record["release"], json!(release), "{release}/release.json");
        for field in ["published", "upstreamCommit"] {
            assert!(
                record[field].as_str().is_some_and(|v| !v.is_empty()),
                "{release}/release.json records no {field}"
            );
        }
        let awaited = AWAITED_RELEASES.iter().find(|(r, _)| r == release);
        assert!(
            !(read.contains(release.as_str()) && awaited.is_some()),
            "{release} is read by a revision and still listed in AWAITED_RELEASES: remove it there"
        );
        if let Some((_, reason)) = awaited {
            println!(
                "{release} awaited ({reason}); plan-related changes since {newest_read}:\n{}",
                plan_defs_diff(newest_read, release)
            );
        } else {
            assert!(
                read.contains(release.as_str()),
                "release {release} is vendored but no revision reads it. Plan-related definitions \
                 changed since {newest_read}, the newest release the suite judges by:\n{}\
                 Review them (CONTRIBUTING.md, \"When the spec moves\"), then map the revisions \
                 that are to read {release} in schema_source(), or list it in AWAITED_RELEASES \
                 with the reason.",
                plan_defs_diff(newest_read, release)
            );
        }
    }
    for release in read {
        assert!(
            vendored.iter().any(|v| v == release),
            "{release} is read by a revision but not vendored: scripts/spec-sync {release}"
        );
    }
    for (release, _) in AWAITED_RELEASES {
        assert!(
            vendored.iter().any(|v| v == release),
            "{release} is awaited but not vendored: scripts/spec-sync {release}"
        );
    }
}

/// The diff a new release fails with names what changed, and nothing else.
#[test]
fn release_diff_names_changed_plan_definitions() {
    let same = plan_defs_diff("1.17.0", "1.17.0");
    assert_eq!(same, "  (no plan-related definition changed)\n");
    let moved = plan_defs_diff("1.17.0", "1.20.0");
    // 1.20.0 dropped the `file` plan type and gave `markdown` a `path`.
    assert!(
        moved.contains("v1/schema.unstable.json $defs/PlanFile\n    1.17.0: {"),
        "{moved}"
    );
    assert!(
        moved.contains(
            "v1/schema.unstable.json $defs/PlanMarkdown/properties/path\n    1.17.0: (none)"
        ),
        "{moved}"
    );
    // A changed sentence shows as the member that holds it.
    assert!(
        moved.contains("$defs/PlanRemoved/properties/planId/description\n"),
        "{moved}"
    );
    assert!(moved.contains("Clients MUST ignore a removal for an unknown ID."));
}
