//! The language-agnostic test vectors of `corpus/vectors/<revision>/<topic>.json`
//! (format: `corpus/README.md`, schema: `corpus/vectors.schema.json`).
//!
//! - every vector file matches the schema;
//! - the vectors agree with themselves and with the rule catalog;
//! - every case, run through the validator and the reference client state,
//!   reports exactly what it expects and ends in the expected states;
//! - every rule has, in every revision it applies to, a case that triggers it
//!   alone and a near miss, and every revision has a conformant case for
//!   each update kind it allows.
//!
//! Every case is a test of its own, named `<revision>::<topic>::<case id>`
//! (`v1::shape::v1-shape-legacy-entries-missing`), so a failure names the
//! case and a filter runs a revision or a topic:
//! `cargo test -p acp-plan-conformance --test vectors -- v1::shape::`.
//! The checks over the whole corpus are the `meta::` tests. This file is its
//! own harness (`harness = false`, libtest-mimic), taking libtest's arguments.

use acp_plan_conformance::catalog::{Rule, Severity};
use acp_plan_conformance::rules;
use acp_plan_conformance::trace::LineReader;
use acp_plan_conformance::{
    Config, Diagnostic, Direction, Limits, Revision, SpecChoice, Validator,
};
use libtest_mimic::{Arguments, Failed, Trial};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

// ------------------------------------------------------------------ format

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Group {
    #[allow(dead_code)]
    description: String,
    revision: Revision,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    #[allow(dead_code)]
    description: String,
    citations: Vec<Citation>,
    #[serde(default)]
    near_miss: Vec<String>,
    #[serde(default)]
    limits: Option<LimitOverrides>,
    /// Run without `--spec` (the revision detected from the handshake), as
    /// the cases about what detection does need; otherwise with the file's
    /// revision given.
    #[serde(default)]
    detect: bool,
    messages: Vec<Item>,
    expect: Expect,
}

impl Case {
    /// What `--spec` the case is run with in the file of `revision`.
    fn spec(&self, revision: Revision) -> SpecChoice {
        if self.detect {
            SpecChoice::Auto
        } else {
            SpecChoice::Fixed(revision)
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Citation {
    #[serde(default)]
    rule: Option<String>,
    document: String,
    section: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LimitOverrides {
    max_line_bytes: Option<usize>,
    max_depth: Option<usize>,
    max_sessions: Option<usize>,
    max_plans_per_session: Option<usize>,
    max_entries_per_plan: Option<usize>,
    max_outstanding_requests: Option<usize>,
    max_state_bytes: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Item {
    #[serde(default)]
    direction: Option<Direction>,
    #[serde(default)]
    message: Option<Value>,
    #[serde(default)]
    raw: Option<String>,
    #[serde(default)]
    raw_hex: Option<String>,
    #[serde(default)]
    record: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    verdict: String,
    errors: Vec<String>,
    warnings: Vec<String>,
    #[serde(default)]
    infos: Option<Vec<String>>,
    /// Rules of the checker's own limits (LIMIT); absent when none.
    #[serde(default)]
    incomplete: Vec<String>,
    diagnostics: Vec<ExpectedDiagnostic>,
    state: Value,
    #[serde(default)]
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectedDiagnostic {
    rule: String,
    message: u64,
    #[serde(default)]
    pointer: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    after: usize,
    state: Value,
}

struct VectorFile {
    /// Relative to the corpus, e.g. `vectors/v1/shape.json`.
    name: String,
    /// The file's stem, e.g. `shape`: the middle part of its cases' test names.
    topic: String,
    group: Group,
}

/// Every vector file as JSON (name relative to the corpus, e.g.
/// `vectors/v1/shape.json`), in a stable order.
fn load_json() -> Result<Vec<(String, Revision, Value)>, String> {
    let root = corpus().join("vectors");
    let read_dir = |dir: &Path| -> Result<Vec<PathBuf>, String> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        entries
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))
    };
    let dirs: BTreeSet<String> = read_dir(&root)?
        .iter()
        .map(|path| {
            path.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let expected: BTreeSet<String> = Revision::ALL
        .iter()
        .map(|r| r.as_str().to_owned())
        .collect();
    if dirs != expected {
        return Err(format!(
            "corpus/vectors holds one directory per revision: expected {expected:?}, found {dirs:?}"
        ));
    }
    let mut files = Vec::new();
    for revision in Revision::ALL {
        let mut paths = read_dir(&root.join(revision.as_str()))?;
        paths.sort();
        for path in paths {
            let name = format!(
                "vectors/{revision}/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            if !name.ends_with(".json") {
                return Err(format!("{name}: only .json files belong in corpus/vectors"));
            }
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read {name}: {e}"))?;
            let json: Value =
                serde_json::from_str(&text).map_err(|e| format!("{name}: not JSON: {e}"))?;
            files.push((name, revision, json));
        }
    }
    if files.is_empty() {
        return Err("no vector files found".to_owned());
    }
    Ok(files)
}

/// Every vector file, read as vector groups.
fn load() -> Result<Vec<VectorFile>, String> {
    load_json()?
        .into_iter()
        .map(|(name, revision, json)| {
            let group: Group = serde_json::from_value(json)
                .map_err(|e| format!("{name}: not a vector group: {e}"))?;
            if group.revision != revision {
                return Err(format!(
                    "{name}: the group's revision ({}) must match its directory",
                    group.revision
                ));
            }
            let topic = name
                .rsplit('/')
                .next()
                .and_then(|file| file.strip_suffix(".json"))
                .unwrap_or_default()
                .to_owned();
            Ok(VectorFile { name, topic, group })
        })
        .collect()
}

fn cases(files: &[VectorFile]) -> impl Iterator<Item = (&VectorFile, &Case)> {
    files
        .iter()
        .flat_map(|f| f.group.cases.iter().map(move |c| (f, c)))
}

fn rule(id: &str) -> Option<&'static Rule> {
    rules::find(id)
}

// ------------------------------------------------------------------ runner

/// What the validator did with one case.
struct Run {
    /// The revision the run ended under (the one given, or the one detected).
    revision: Revision,
    diagnostics: Vec<Diagnostic>,
    /// For each diagnostic, the message after which it was reported.
    reported_at: Vec<u64>,
    /// The reference client state after each message.
    states: Vec<Value>,
}

fn limits(overrides: Option<&LimitOverrides>) -> Limits {
    let mut limits = Limits::default();
    if let Some(o) = overrides {
        let set = |field: &mut usize, value: Option<usize>| {
            if let Some(v) = value {
                *field = v;
            }
        };
        set(&mut limits.max_line_bytes, o.max_line_bytes);
        set(&mut limits.max_depth, o.max_depth);
        set(&mut limits.max_sessions, o.max_sessions);
        set(&mut limits.max_plans_per_session, o.max_plans_per_session);
        set(&mut limits.max_entries_per_plan, o.max_entries_per_plan);
        set(
            &mut limits.max_outstanding_requests,
            o.max_outstanding_requests,
        );
        set(&mut limits.max_state_bytes, o.max_state_bytes);
    }
    limits
}

fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    if hex.len() % 2 != 0 {
        return Err(format!("odd number of hex digits: {hex}"));
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| format!("bad hex {hex}: {e}")))
        .collect()
}

fn run(revision: Revision, case: &Case) -> Result<Run, String> {
    run_fed(
        case.spec(revision),
        &case.messages,
        limits(case.limits.as_ref()),
        Feed::Messages,
    )
}

/// How a case's items reach the validator.
#[derive(Clone, Copy)]
enum Feed {
    /// Message items one by one, as live modes feed them (records as lines).
    Messages,
    /// Every item as a line of a trace file (an envelope for a message),
    /// framed and length-checked as `acp-plan check` reads it, so that
    /// `max_line_bytes` applies to all.
    TraceLines,
}

/// [`run`] with the revision (or detection), the checker's limits and the
/// feed given.
fn run_fed(spec: SpecChoice, messages: &[Item], limits: Limits, feed: Feed) -> Result<Run, String> {
    let config = Config {
        spec,
        limits: limits.clone(),
    };
    // As `acp-plan check` does: without --spec, the lines up to the
    // initialize answer are read ahead for the revision they belong to.
    let mut scout = Validator::new(config.clone());
    for (index, item) in messages.iter().enumerate() {
        if scout.revision_settled() {
            break;
        }
        feed_item(&mut scout, index as u64 + 1, item, feed, &limits)?;
        scout.take_diagnostics();
    }
    let mut validator = Validator::new(config).with_revision_of(&scout);
    let mut out = Run {
        revision: Revision::V1,
        diagnostics: Vec::new(),
        reported_at: Vec::new(),
        states: Vec::new(),
    };
    for (index, item) in messages.iter().enumerate() {
        let line = index as u64 + 1;
        feed_item(&mut validator, line, item, feed, &limits)?;
        let found = validator.take_diagnostics();
        out.reported_at
            .extend(std::iter::repeat_n(line, found.len()));
        out.diagnostics.extend(found);
        out.states.push(validator.state().to_json());
    }
    out.revision = validator.revision().revision;
    Ok(out)
}

/// Feed message `line` of a case (`item`) as `feed` says.
fn feed_item(
    validator: &mut Validator,
    line: u64,
    item: &Item,
    feed: Feed,
    limits: &Limits,
) -> Result<(), String> {
    let push_lines = |validator: &mut Validator, line: u64, text: &[u8]| -> Result<(), String> {
        let mut reader = LineReader::new(text, limits.max_line_bytes);
        while let Some((_, raw_line)) = reader.next_line().map_err(|e| e.to_string())? {
            validator.push_line(line, raw_line);
        }
        Ok(())
    };
    let message = match item {
        Item {
            message: Some(message),
            ..
        } => Some(serde_json::to_vec(message).map_err(|e| e.to_string())?),
        Item { raw: Some(raw), .. } => Some(raw.as_bytes().to_vec()),
        Item {
            raw_hex: Some(hex), ..
        } => Some(decode_hex(hex)?),
        _ => None,
    };
    match (message, item.direction, &item.record, feed) {
        (Some(message), Some(direction), _, Feed::Messages) => {
            validator.push_message(line, direction, &message);
        }
        (Some(message), Some(direction), _, Feed::TraceLines) => {
            let mut text = format!(r#"{{"direction":"{direction}","message":"#).into_bytes();
            text.extend_from_slice(&message);
            text.push(b'}');
            push_lines(validator, line, &text)?;
        }
        // A line of a trace file: framed, length-checked and read as
        // `acp-plan check` reads it.
        (None, None, Some(record), _) => push_lines(validator, line, record.as_bytes())?,
        _ => return Err(format!("message {line}: not a valid item")),
    }
    Ok(())
}

fn severity_of(id: &str) -> Option<Severity> {
    rule(id).map(|r| r.severity())
}

fn describe(d: &Diagnostic) -> String {
    format!(
        "  message {:>2}  {:<7} {:<24} {:<40} {}",
        d.line,
        d.severity().as_str(),
        d.rule.id,
        if d.pointer.is_empty() {
            "\"\"".to_owned()
        } else {
            d.pointer.clone()
        },
        d.message
    )
}

fn sorted(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let set: BTreeSet<String> = items.into_iter().collect();
    set.into_iter().collect()
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// Every way the validator's run differs from the case's expectations.
fn compare(case: &Case, run: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    let expect = &case.expect;
    let actual = |severity: Severity| {
        sorted(
            run.diagnostics
                .iter()
                .filter(|d| d.severity() == severity)
                .map(|d| d.rule.id.to_owned()),
        )
    };
    let mut sets = vec![
        ("errors", &expect.errors, actual(Severity::Error)),
        ("warnings", &expect.warnings, actual(Severity::Warning)),
        (
            "incomplete",
            &expect.incomplete,
            actual(Severity::Incomplete),
        ),
    ];
    if let Some(infos) = &expect.infos {
        sets.push(("infos", infos, actual(Severity::Info)));
    }
    for (what, expected, actual) in sets {
        let expected = sorted(expected.iter().cloned());
        if expected != actual {
            problems.push(format!(
                "{what}: expected {expected:?}, reported {actual:?}"
            ));
        }
    }
    let has = |severity| run.diagnostics.iter().any(|d| d.severity() == severity);
    let verdict = if has(Severity::Error) {
        "not_conformant"
    } else if has(Severity::Incomplete) {
        "incomplete"
    } else {
        "conformant"
    };
    if expect.verdict != verdict {
        problems.push(format!(
            "verdict: expected {}, got {verdict}",
            expect.verdict
        ));
    }

    // Diagnostics as a multiset of (rule, message), pointers where given.
    let mut unmatched: Vec<&Diagnostic> = run.diagnostics.iter().collect();
    let mut missing = Vec::new();
    for want in &expect.diagnostics {
        let found = unmatched.iter().position(|d| {
            d.rule.id == want.rule
                && d.line == want.message
                && want.pointer.as_ref().is_none_or(|p| *p == d.pointer)
        });
        match found {
            Some(i) => {
                unmatched.remove(i);
            }
            None => missing.push(format!(
                "{} at message {}{}",
                want.rule,
                want.message,
                want.pointer
                    .as_ref()
                    .map(|p| format!(" pointer {p:?}"))
                    .unwrap_or_default()
            )),
        }
    }
    if !missing.is_empty() {
        problems.push(format!("expected but not reported: {}", missing.join("; ")));
    }
    if !unmatched.is_empty() {
        let extra: Vec<String> = unmatched
            .iter()
            .map(|d| {
                format!(
                    "{} at message {} pointer {:?}",
                    d.rule.id, d.line, d.pointer
                )
            })
            .collect();
        problems.push(format!("reported but not expected: {}", extra.join("; ")));
    }

    for near in &case.near_miss {
        if run.diagnostics.iter().any(|d| d.rule.id == near) {
            problems.push(format!("near miss for {near}, but {near} was reported"));
        }
    }

    let last = run
        .states
        .last()
        .cloned()
        .unwrap_or_else(|| serde_json::json!({"sessions": {}}));
    if last != expect.state {
        problems.push(format!(
            "final state differs\n    expected: {}\n    actual:   {}",
            pretty(&expect.state).replace('\n', "\n    "),
            pretty(&last).replace('\n', "\n    ")
        ));
    }
    for step in &expect.steps {
        match run.states.get(step.after.wrapping_sub(1)) {
            Some(state) if *state == step.state => {}
            Some(state) => problems.push(format!(
                "state after message {} differs\n    expected: {}\n    actual:   {}",
                step.after,
                pretty(&step.state).replace('\n', "\n    "),
                pretty(state).replace('\n', "\n    ")
            )),
            None => problems.push(format!("step after message {} is out of range", step.after)),
        }
    }

    // Consumers may skip `record` items (they are this suite's trace
    // format), so a record must never change what the client shows.
    for (index, item) in case.messages.iter().enumerate() {
        if item.record.is_some() {
            let before = if index == 0 {
                serde_json::json!({"sessions": {}})
            } else {
                run.states[index - 1].clone()
            };
            if run.states[index] != before {
                problems.push(format!(
                    "message {} is a record but changed the state",
                    index + 1
                ));
            }
        }
    }
    problems
}

// ------------------------------------------------------------------ tests

fn vector_files_match_the_schema() -> Result<(), Failed> {
    let path = corpus().join("vectors.schema.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read corpus/vectors.schema.json: {e}"))?;
    let schema: Value = serde_json::from_str(&text)
        .map_err(|e| format!("corpus/vectors.schema.json is not JSON: {e}"))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| format!("corpus/vectors.schema.json is not a valid schema: {e}"))?;
    let mut failures = String::new();
    for (name, _, json) in load_json()? {
        for error in validator.iter_errors(&json).take(20) {
            let _ = writeln!(failures, "{name}: at {}: {error}", error.instance_path);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("vector files do not match corpus/vectors.schema.json:\n{failures}").into())
    }
}

fn vectors_agree_with_themselves_and_the_catalog(files: &[VectorFile]) -> Result<(), Failed> {
    let mut problems = Vec::new();
    let mut ids = BTreeMap::new();
    for (file, case) in cases(files) {
        let revision = file.group.revision;
        let mut problem =
            |text: String| problems.push(format!("{}: {}: {text}", file.name, case.id));
        if let Some(previous) = ids.insert(case.id.clone(), file.name.clone()) {
            problem(format!("id also used in {previous}"));
        }
        let prefix = match revision {
            Revision::Draft202605 => "draft-".to_owned(),
            other => format!("{other}-"),
        };
        if !case.id.starts_with(&prefix) {
            problem(format!("id does not start with {prefix}"));
        }
        let expect = &case.expect;
        let mut referenced: Vec<&String> = expect
            .diagnostics
            .iter()
            .map(|d| &d.rule)
            .chain(&case.near_miss)
            .chain(&expect.errors)
            .chain(&expect.warnings)
            .chain(expect.infos.iter().flatten())
            .collect();
        referenced.extend(case.citations.iter().filter_map(|c| c.rule.as_ref()));
        for id in referenced {
            match rule(id) {
                None => problem(format!("{id} is not in the rule catalog")),
                Some(r) if !r.applies_to(revision) => {
                    problem(format!("{id} does not apply to {revision}"))
                }
                Some(_) => {}
            }
        }
        for citation in &case.citations {
            if let Some(r) = citation.rule.as_deref().and_then(rule) {
                let cited = r.citation_for(revision);
                if cited.document != citation.document || cited.section != citation.section {
                    problem(format!(
                        "citation of {} says {:?} / {:?}; the catalog says {:?} / {:?}",
                        r.id, citation.document, citation.section, cited.document, cited.section
                    ));
                }
            }
        }
        // The rule sets are the diagnostics' rules, split by catalog severity.
        for (severity, listed) in [
            (Severity::Error, Some(&expect.errors)),
            (Severity::Warning, Some(&expect.warnings)),
            (Severity::Info, expect.infos.as_ref()),
            (Severity::Incomplete, Some(&expect.incomplete)),
        ] {
            let Some(listed) = listed else { continue };
            let from_diagnostics = sorted(
                expect
                    .diagnostics
                    .iter()
                    .filter(|d| severity_of(&d.rule) == Some(severity))
                    .map(|d| d.rule.clone()),
            );
            if sorted(listed.iter().cloned()) != from_diagnostics {
                problem(format!(
                    "{severity} rules {listed:?} are not those of the expected diagnostics {from_diagnostics:?}"
                ));
            }
        }
        let verdict = if !expect.errors.is_empty() {
            "not_conformant"
        } else if !expect.incomplete.is_empty() {
            "incomplete"
        } else {
            "conformant"
        };
        if expect.verdict != verdict {
            problem(format!(
                "verdict {} does not follow from errors {:?}",
                expect.verdict, expect.errors
            ));
        }
        let count = case.messages.len();
        for d in &expect.diagnostics {
            if d.message == 0 || d.message as usize > count {
                problem(format!("diagnostic at message {} of {count}", d.message));
            }
        }
        let mut previous = 0;
        for step in &expect.steps {
            if step.after <= previous || step.after > count {
                problem(format!(
                    "steps must be in increasing order within 1..={count}"
                ));
            }
            previous = step.after;
        }
        for near in &case.near_miss {
            if expect.diagnostics.iter().any(|d| d.rule == *near) {
                problem(format!("near miss for {near}, yet expects it"));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("inconsistent vectors:\n  {}", problems.join("\n  ")).into())
    }
}

/// One case, run through the validator and the reference client state.
fn case_passes(revision: Revision, case: &Case) -> Result<(), Failed> {
    let run = run(revision, case).map_err(|e| format!("could not run: {e}"))?;
    let mut problems = compare(case, &run);
    if problems.is_empty() {
        return Ok(());
    }
    problems.push(format!(
        "reported diagnostics:\n{}",
        if run.diagnostics.is_empty() {
            "  (none)".to_owned()
        } else {
            run.diagnostics
                .iter()
                .map(describe)
                .collect::<Vec<_>>()
                .join("\n")
        }
    ));
    Err(problems.join("\n").into())
}

/// The update kinds a revision allows, as `sessionUpdate` or
/// `plan_update/<type>` (`plan_update/_` for v2's custom types).
fn allowed_update_kinds(revision: Revision) -> Vec<String> {
    let spelling = revision.spelling();
    let mut kinds = Vec::new();
    if spelling.legacy_plan {
        kinds.push("plan".to_owned());
    }
    kinds.extend(
        spelling
            .plan_types
            .iter()
            .map(|t| format!("plan_update/{t}")),
    );
    if spelling.open_enums {
        kinds.push("plan_update/_".to_owned());
    }
    kinds.push("plan_removed".to_owned());
    kinds
}

fn update_kind(message: &Value) -> Option<String> {
    if message.get("method")?.as_str()? != "session/update" {
        return None;
    }
    let update = message.get("params")?.get("update")?;
    let kind = update.get("sessionUpdate")?.as_str()?;
    if kind != "plan_update" {
        return Some(kind.to_owned());
    }
    let plan_type = update.get("plan")?.get("type")?.as_str()?;
    Some(if plan_type.starts_with('_') {
        "plan_update/_".to_owned()
    } else {
        format!("plan_update/{plan_type}")
    })
}

fn every_rule_and_update_kind_is_covered_in_every_revision(
    files: &[VectorFile],
) -> Result<(), Failed> {
    let mut missing = Vec::new();
    // LOAD-REPLAY-MISSING compares two connections: no single trace (or vector) can trigger it.
    for rule in rules::single_trace_rules() {
        for &revision in rule.revisions {
            let in_revision = || cases(files).filter(|(f, _)| f.group.revision == revision);
            let triggers = in_revision()
                .filter(|(_, c)| c.expect.diagnostics.iter().any(|d| d.rule == rule.id))
                .count();
            let precise = in_revision().any(|(_, c)| {
                !c.expect.diagnostics.is_empty()
                    && c.expect.diagnostics.iter().all(|d| d.rule == rule.id)
            });
            let near_misses = in_revision()
                .filter(|(_, c)| c.near_miss.iter().any(|n| n == rule.id))
                .count();
            if triggers == 0 {
                missing.push(format!("{} ({revision}): no case triggers it", rule.id));
            } else if !precise {
                missing.push(format!(
                    "{} ({revision}): no case triggers it alone (every trigger reports other rules too)",
                    rule.id
                ));
            }
            if near_misses == 0 {
                missing.push(format!("{} ({revision}): no near miss", rule.id));
            }
        }
    }
    for revision in Revision::ALL {
        let seen: BTreeSet<String> = cases(files)
            .filter(|(f, c)| f.group.revision == revision && c.expect.verdict == "conformant")
            .flat_map(|(_, c)| c.messages.iter())
            .filter(|item| item.direction == Some(Direction::AgentToClient))
            .filter_map(|item| item.message.as_ref().and_then(update_kind))
            .collect();
        for kind in allowed_update_kinds(revision) {
            if !seen.contains(&kind) {
                missing.push(format!(
                    "{revision}: no conformant case sends a {kind} update"
                ));
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("the vectors do not cover:\n  {}", missing.join("\n  ")).into())
    }
}

/// How a message is written out again: the same JSON value, spelled
/// another way (or, with `added`, a member more in every object).
#[derive(Clone, Copy, Default)]
struct Spelling<'a> {
    /// Member text (e.g. `"a":0`) written first in every object, at every depth.
    added: Option<&'a str>,
    /// Every character of names and strings as a `\uXXXX` escape.
    escaped: bool,
    /// Members in the reverse order.
    reversed: bool,
    /// A space around every token.
    spaced: bool,
    /// Every integer with a fraction and an exponent (`7` as `7.0e0`): the
    /// same number.
    decimal: bool,
    /// Bare lines, as a wire capture holds them: no direction is given.
    bare: bool,
}

impl Spelling<'_> {
    fn write(&self, value: &Value, out: &mut String) {
        let gap = if self.spaced { " " } else { "" };
        match value {
            Value::Object(members) => {
                out.push('{');
                out.push_str(gap);
                let mut first = true;
                if let Some(added) = self.added {
                    out.push_str(added);
                    first = false;
                }
                let mut members: Vec<(&String, &Value)> = members.iter().collect();
                if self.reversed {
                    members.reverse();
                }
                for (name, value) in members {
                    if !first {
                        out.push_str(gap);
                        out.push(',');
                        out.push_str(gap);
                    }
                    first = false;
                    self.string(name, out);
                    out.push_str(gap);
                    out.push(':');
                    out.push_str(gap);
                    self.write(value, out);
                }
                out.push_str(gap);
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                out.push_str(gap);
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(gap);
                        out.push(',');
                        out.push_str(gap);
                    }
                    self.write(item, out);
                }
                out.push_str(gap);
                out.push(']');
            }
            Value::String(text) => self.string(text, out),
            Value::Number(n) if self.decimal && (n.is_i64() || n.is_u64()) => {
                let _ = write!(out, "{n}.0e0");
            }
            scalar => out.push_str(&scalar.to_string()),
        }
    }

    fn string(&self, text: &str, out: &mut String) {
        if !self.escaped {
            out.push_str(&Value::from(text).to_string());
            return;
        }
        out.push('"');
        for unit in text.encode_utf16() {
            let _ = write!(out, "\\u{unit:04x}");
        }
        out.push('"');
    }
}

/// A case's messages written in `spelling`, run: the diagnostics (as
/// [`describe`] writes them) and the final state.
fn run_spelled(
    revision: Revision,
    case: &Case,
    spelling: Spelling<'_>,
) -> (Vec<Diagnostic>, Value) {
    let mut validator = Validator::new(Config {
        spec: case.spec(revision),
        limits: limits(case.limits.as_ref()),
    });
    for (index, item) in case.messages.iter().enumerate() {
        if let (Some(message), Some(direction)) = (&item.message, item.direction) {
            let mut text = String::new();
            spelling.write(message, &mut text);
            if spelling.bare {
                validator.push_record(index as u64 + 1, text.as_bytes());
            } else {
                validator.push_message(index as u64 + 1, direction, text.as_bytes());
            }
        }
    }
    (validator.take_diagnostics(), validator.state().to_json())
}

/// What was found and where (the message's number, the severity, the rule
/// and the pointer), not its wording: diagnostics quote values as sent, so
/// another spelling may word the same finding otherwise.
fn finding(d: &Diagnostic) -> String {
    let severity = d.severity().as_str();
    format!("message {} {severity} {} {}", d.line, d.rule.id, d.pointer)
}

fn differences(problems: &[String]) -> Result<(), Failed> {
    if problems.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = problems.iter().take(5).map(String::as_str).collect();
    Err(format!("{} differences:\n{}", problems.len(), shown.join("\n")).into())
}

/// A member named with half of a character (an unpaired surrogate escape,
/// legal JSON that serde_json will not decode) is read as U+FFFD, like a
/// value holding one: added to every object of every message of every case,
/// it changes nothing but ENV-UNPAIRED-SURROGATE warnings, against the same
/// run with the name spelled U+FFFD. Two such names, distinct or not, are one
/// repeated name, as a reader that replaces them sees it.
fn a_member_named_with_half_a_character_is_read_as_u_fffd(
    files: &[VectorFile],
) -> Result<(), Failed> {
    const PAIRS: [(&str, &str); 2] = [
        (r#""\ud800":0"#, r#""\ufffd":0"#),
        (
            r#""\ud83d":0,"x\udc00y":1,"\udc00":2"#,
            r#""\ufffd":0,"x\ufffdy":1,"\ufffd":2"#,
        ),
    ];
    let others = |diagnostics: &[Diagnostic]| -> Vec<String> {
        let others = diagnostics
            .iter()
            .filter(|d| d.rule.id != "ENV-UNPAIRED-SURROGATE");
        others.map(describe).collect()
    };
    let mut problems = Vec::new();
    let mut reported = 0;
    for (file, case) in cases(files) {
        let revision = file.group.revision;
        for (half, whole) in PAIRS {
            let with = |added| Spelling {
                added: Some(added),
                ..Spelling::default()
            };
            let (got, got_state) = run_spelled(revision, case, with(half));
            let (want, want_state) = run_spelled(revision, case, with(whole));
            reported += got.len() - others(&got).len();
            if others(&got) != others(&want) || got_state != want_state {
                problems.push(format!(
                    "{} with {half}:\n{}\n  with {whole}:\n{}",
                    case.id,
                    others(&got).join("\n"),
                    others(&want).join("\n")
                ));
            }
        }
    }
    if reported == 0 {
        problems.push("no run reported ENV-UNPAIRED-SURROGATE: the names were not added".into());
    }
    differences(&problems)
}

/// A message means what its JSON value is, however it is spelled: every
/// case's messages written with every name and string as `\u` escapes, with
/// members in the reverse order, with spaces between tokens, or with every
/// integer as a decimal with an exponent (`7.0e0`), report the same findings
/// (rule and place, in any order) and end in the same state.
fn every_spelling_of_a_message_is_read_alike(files: &[VectorFile]) -> Result<(), Failed> {
    let spellings = [
        (
            "escaped",
            Spelling {
                escaped: true,
                ..Spelling::default()
            },
        ),
        (
            "reversed",
            Spelling {
                reversed: true,
                ..Spelling::default()
            },
        ),
        (
            "spaced",
            Spelling {
                spaced: true,
                ..Spelling::default()
            },
        ),
        (
            "decimal",
            Spelling {
                decimal: true,
                ..Spelling::default()
            },
        ),
    ];
    let sorted_findings = |diagnostics: &[Diagnostic]| sorted(diagnostics.iter().map(finding));
    let mut problems = Vec::new();
    for (file, case) in cases(files) {
        let revision = file.group.revision;
        let (plain, plain_state) = run_spelled(revision, case, Spelling::default());
        for (name, spelling) in spellings {
            let (got, got_state) = run_spelled(revision, case, spelling);
            if sorted_findings(&got) != sorted_findings(&plain) || got_state != plain_state {
                problems.push(format!(
                    "{} {name}:\n{}\n  as written:\n{}",
                    case.id,
                    sorted_findings(&got).join("\n"),
                    sorted_findings(&plain).join("\n")
                ));
            }
        }
    }
    differences(&problems)
}

/// A line written by hand (a repeated member, an escape, a batch) means
/// what its JSON value is, however it is spaced or its member names are
/// escaped: every case's raw lines and trace records that are JSON, spaced
/// after every `,` and every other `:`, or with the first letter of every other
/// member name as a `\u` escape, report the same findings and end in the
/// same state. Every other: so that two equal values of a repeated member
/// come out spelled differently, which must not make two readings
/// (`"id":2,"id": 2` is one reading).
fn a_line_spaced_otherwise_is_read_alike(files: &[VectorFile]) -> Result<(), Failed> {
    let sorted_findings = |run: &Run| sorted(run.diagnostics.iter().map(finding));
    let mut problems = Vec::new();
    let mut rewritten = 0;
    for (file, case) in cases(files) {
        if case.limits.is_some() {
            continue;
        }
        let is_json = |text: &str| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
        if !case.messages.iter().any(|item| {
            item.raw
                .as_deref()
                .or(item.record.as_deref())
                .is_some_and(is_json)
        }) {
            continue;
        }
        let revision = file.group.revision;
        let limits = limits(None);
        let run_items =
            |items: &[Item]| run_fed(case.spec(revision), items, limits.clone(), Feed::Messages);
        let Ok(plain) = run_items(&case.messages) else {
            continue;
        };
        for (name, rewrite) in [
            ("spaced", Rewrite::Spaced),
            ("escaped names", Rewrite::EscapedNames),
        ] {
            let items: Vec<Item> = case
                .messages
                .iter()
                .map(|item| {
                    let redo = |text: &Option<String>| match text {
                        Some(text) if is_json(text) => Some(rewrite.apply(text)),
                        other => other.clone(),
                    };
                    Item {
                        direction: item.direction,
                        message: item.message.clone(),
                        raw: redo(&item.raw),
                        raw_hex: item.raw_hex.clone(),
                        record: redo(&item.record),
                    }
                })
                .collect();
            rewritten += 1;
            let got = match run_items(&items) {
                Ok(got) => got,
                Err(error) => {
                    problems.push(format!("{} {name}: {error}", case.id));
                    continue;
                }
            };
            if sorted_findings(&got) != sorted_findings(&plain)
                || got.states.last() != plain.states.last()
            {
                problems.push(format!(
                    "{} {name}:\n{}\n  as written:\n{}",
                    case.id,
                    sorted_findings(&got).join("\n"),
                    sorted_findings(&plain).join("\n")
                ));
            }
        }
    }
    if rewritten == 0 {
        problems.push("no case has a raw line to rewrite".into());
    }
    differences(&problems)
}

#[derive(Clone, Copy)]
enum Rewrite {
    /// A space after every `,` and every other `:` outside strings.
    Spaced,
    /// The first character of every other member name (or string that
    /// starts an array element), when ASCII, as a `\u00XX` escape.
    EscapedNames,
}

impl Rewrite {
    /// `text` (JSON) rewritten without changing its value.
    fn apply(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() * 2);
        let (mut in_string, mut escaped, mut name_next, mut name_start) =
            (false, false, false, false);
        // Which of the places a rewrite may apply to it applies to.
        let mut place = 0u64;
        for c in text.chars() {
            if in_string {
                if name_start && c.is_ascii() && c != '\\' && c != '"' {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                } else {
                    out.push(c);
                }
                name_start = false;
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                }
                continue;
            }
            out.push(c);
            match c {
                '"' => {
                    in_string = true;
                    place += u64::from(name_next);
                    name_start =
                        name_next && place % 2 == 0 && matches!(self, Rewrite::EscapedNames);
                    name_next = false;
                }
                // A string after either is a member name or an array
                // element: an escaped first letter keeps its value either way.
                '{' | ',' => name_next = true,
                c if c.is_whitespace() => {}
                _ => name_next = false,
            }
            // Colons only are counted: a member's text runs from its name
            // to the end of its value, so a colon's space is inside it.
            if matches!(self, Rewrite::Spaced) && c == ':' {
                place += 1;
                if place % 2 == 0 {
                    out.push(' ');
                }
            } else if matches!(self, Rewrite::Spaced) && c == ',' {
                out.push(' ');
            }
        }
        out
    }
}

/// The checker's limits are not the parties' violations: every case (that
/// sets no limits of its own) run again at each of a few tight limits
/// reports no error or warning against a party that the run within the
/// default limits does not (`TRACE-LIMIT` says what was not followed). A
/// request past the outstanding limit, or a plan update not applied, may be
/// what a later message relies on, so no rule may judge that message as if
/// it were not.
fn a_checker_limit_never_becomes_a_party_finding(files: &[VectorFile]) -> Result<(), Failed> {
    type Tighten = fn(&mut Limits);
    let tight: [(&str, Tighten); 8] = [
        ("--max-outstanding-requests 1", |l| {
            l.max_outstanding_requests = 1
        }),
        ("--max-sessions 1", |l| l.max_sessions = 1),
        ("--max-plans-per-session 1", |l| l.max_plans_per_session = 1),
        ("--max-entries-per-plan 1", |l| l.max_entries_per_plan = 1),
        ("--max-state-bytes 64", |l| l.max_state_bytes = 64),
        ("--max-depth 4", |l| l.max_depth = 4),
        ("--max-line-bytes 300", |l| l.max_line_bytes = 300),
        ("--max-line-bytes 600", |l| l.max_line_bytes = 600),
    ];
    let party_findings = |run: &Run| -> BTreeSet<String> {
        run.diagnostics
            .iter()
            .filter(|d| {
                d.rule.id != "TRACE-LIMIT"
                    && matches!(d.severity(), Severity::Error | Severity::Warning)
            })
            .map(finding)
            .collect()
    };
    let mut problems = Vec::new();
    for (file, case) in cases(files) {
        if case.limits.is_some() {
            continue;
        }
        let revision = file.group.revision;
        let within = party_findings(&run_fed(
            case.spec(revision),
            &case.messages,
            Limits::default(),
            Feed::TraceLines,
        )?);
        for (flag, tighten) in tight {
            let mut limits = Limits::default();
            tighten(&mut limits);
            let tightened = party_findings(&run_fed(
                case.spec(revision),
                &case.messages,
                limits,
                Feed::TraceLines,
            )?);
            let new: Vec<&String> = tightened.difference(&within).collect();
            if !new.is_empty() {
                problems.push(format!("{} at {flag}: {new:?}", case.id));
            }
        }
    }
    differences(&problems)
}

/// A finding is reported when the line it names is read: every case fed
/// message by message, as `tap` and `agent` feed a live connection, reports
/// each diagnostic while reading its own line. A finding that waited for a
/// later line would come late in live modes, and never if the trace ended
/// first (an initialize never answered, say).
fn a_finding_is_reported_when_its_line_is_read(files: &[VectorFile]) -> Result<(), Failed> {
    let mut problems = Vec::new();
    for (file, case) in cases(files) {
        let run = run(file.group.revision, case)?;
        for (d, at) in run.diagnostics.iter().zip(&run.reported_at) {
            if d.line != *at {
                problems.push(format!(
                    "{}: {} reported after message {at}",
                    case.id,
                    finding(d)
                ));
            }
        }
    }
    differences(&problems)
}

/// Whether a client's `initialize` in the case gets no successful answer.
fn an_initialize_goes_unanswered(case: &Case) -> bool {
    let of = |direction: Direction, has: &str| -> Vec<&Value> {
        (case.messages.iter())
            .filter(|item| item.direction == Some(direction))
            .filter_map(|item| item.message.as_ref())
            .filter(|m| m.get(has).is_some() && (has != "result" || m.get("error").is_none()))
            .filter(|m| has != "method" || m["method"] == "initialize")
            .filter_map(|m| m.get("id"))
            .collect()
    };
    let answered = of(Direction::AgentToClient, "result");
    (of(Direction::ClientToAgent, "method").into_iter()).any(|id| !answered.contains(&id))
}

/// Detection agrees with the revision given: every case whose handshake
/// makes `--spec auto` choose the case's own revision reports the same
/// findings as with that revision given. The capability findings are made
/// when the initialize is answered instead of when it is read, at the same
/// line. Cases with an initialize never answered successfully are left out:
/// without `--spec`, no revision judges its capabilities; so are cases whose
/// handshake names no version a revision defines (INIT-VERSION-UNKNOWN).
fn detection_agrees_with_the_revision_given(files: &[VectorFile]) -> Result<(), Failed> {
    let findings = |run: &Run| sorted(run.diagnostics.iter().map(finding));
    let (mut compared, mut problems) = (0, Vec::new());
    for (file, case) in cases(files) {
        if an_initialize_goes_unanswered(case) {
            continue;
        }
        let limits = limits(case.limits.as_ref());
        let detected = run_fed(SpecChoice::Auto, &case.messages, limits, Feed::Messages)?;
        let revision = file.group.revision;
        // A handshake that names no version a revision defines leaves only
        // what every revision requires: that is detection's own finding.
        let unknown = (detected.diagnostics.iter()).any(|d| d.rule.id == "INIT-VERSION-UNKNOWN");
        if detected.revision != revision || unknown {
            continue;
        }
        compared += 1;
        let given = run(revision, case)?;
        if findings(&detected) != findings(&given) {
            problems.push(format!(
                "{}: detected {:?}, given {:?}",
                case.id,
                findings(&detected),
                findings(&given)
            ));
        }
    }
    // Most cases' handshakes name their revision: a check that compared
    // few would prove little.
    if compared < 600 {
        problems.push(format!("only {compared} cases detected their own revision"));
    }
    differences(&problems)
}

/// A request sent twice is judged as once: every case whose client sends
/// an `initialize`, `session/new`, `session/fork`, `session/load`,
/// `session/resume` or `session/prompt` is run again with each such request
/// sent a second time at once under a new id, and each answer to it sent
/// twice too. The lines of the case report what they report alone: what
/// the suite tracks of requests in flight keeps both, and a copy never
/// speaks for the original (keeping only one `initialize` in flight
/// fails it, for one). Requests of a kind that disagree are the vectors'
/// own cases (`cap-two-initialize-in-flight`, `ses-two-loads-one-fails`).
/// So are v2 cases with a `replay_complete`: it is owed once per
/// session/resume with a cursor, so a copy of the request owes one more
/// (`ses-replay-complete-once-per-resume`). So are cases that expect
/// LOAD-REPLAY-STATE: with two replays of a session in flight, either's
/// updates may be the other's, so neither is judged.
fn a_request_sent_twice_is_judged_as_once(files: &[VectorFile]) -> Result<(), Failed> {
    const METHODS: [&str; 6] = [
        "initialize",
        "session/new",
        "session/fork",
        "session/load",
        "session/resume",
        "session/prompt",
    ];
    let again = |id: &Value| match id {
        Value::Number(n) => n.as_u64().map(|n| Value::from(n + 1_000_000)),
        Value::String(s) => Some(Value::from(format!("{s}~again"))),
        _ => None,
    };
    let mut problems = Vec::new();
    let mut compared = 0;
    for (file, case) in cases(files) {
        if case.limits.is_some() || case.messages.iter().any(|item| item.message.is_none()) {
            continue;
        }
        let marks_a_replay = |item: &Item| {
            item.message
                .as_ref()
                .and_then(|m| m.pointer("/params/update/sessionUpdate"))
                == Some(&Value::from("replay_complete"))
        };
        let judges_a_replay = case
            .expect
            .diagnostics
            .iter()
            .any(|d| d.rule == "LOAD-REPLAY-STATE");
        if case.messages.iter().any(marks_a_replay) || judges_a_replay {
            continue;
        }
        // What is fed, and for each its message number in the case and
        // whether it is a copy.
        let (mut fed, mut origin) = (Vec::new(), Vec::new());
        // Ids of the requests sent twice, by the JSON of the first id.
        let mut copied: BTreeMap<String, Value> = BTreeMap::new();
        for (index, item) in case.messages.iter().enumerate() {
            let (Some(direction), Some(message)) = (item.direction, &item.message) else {
                continue;
            };
            let item = |message: Value| Item {
                direction: Some(direction),
                message: Some(message),
                raw: None,
                raw_hex: None,
                record: None,
            };
            fed.push(item(message.clone()));
            origin.push((index + 1, false));
            let method = message.get("method").and_then(Value::as_str);
            let id = message.get("id");
            let copy_id = match (direction, method, id) {
                (Direction::ClientToAgent, Some(method), Some(id)) if METHODS.contains(&method) => {
                    again(id).inspect(|new| {
                        copied.insert(id.to_string(), new.clone());
                    })
                }
                // An answer: the first one to each request sent twice.
                (Direction::AgentToClient, None, Some(id)) => copied.remove(&id.to_string()),
                _ => None,
            };
            if let Some(copy_id) = copy_id {
                let mut copy = message.clone();
                copy["id"] = copy_id;
                fed.push(item(copy));
                origin.push((index + 1, true));
            }
        }
        if fed.len() == case.messages.len() {
            continue;
        }
        compared += 1;
        let revision = file.group.revision;
        let alone = sorted(run(revision, case)?.diagnostics.iter().map(finding));
        let spec = case.spec(revision);
        let run = run_fed(spec, &fed, Limits::default(), Feed::Messages)?;
        let twice = sorted(run.diagnostics.into_iter().filter_map(|mut d| {
            let &(line, copy) = origin.get(usize::try_from(d.line).ok()?.checked_sub(1)?)?;
            d.line = line as u64;
            (!copy).then(|| finding(&d))
        }));
        if twice != alone {
            problems.push(format!(
                "{}: sent twice {twice:?}, alone {alone:?}",
                case.id
            ));
        }
    }
    if compared < 600 {
        problems.push(format!("only {compared} cases send such a request"));
    }
    differences(&problems)
}

/// A bare trace is read as its envelopes say: every case's messages
/// written as bare lines report the same findings (rule and place, in any
/// order) and end in the same state, apart from what only a direction can
/// tell. A `TRACE-DIRECTION` warning says where the suite could not place a
/// message, and a client's `session/update` (`SES-UPDATE-NOTIFICATION`)
/// reads as an agent's without one.
fn a_bare_trace_is_read_as_its_envelopes_say(files: &[VectorFile]) -> Result<(), Failed> {
    let findings = |diagnostics: &[Diagnostic]| {
        sorted(
            diagnostics
                .iter()
                .filter(|d| d.rule.id != "TRACE-DIRECTION")
                .map(finding),
        )
    };
    let client_update = |case: &Case| {
        case.messages.iter().any(|item| {
            item.direction == Some(Direction::ClientToAgent)
                && item.message.as_ref().and_then(|m| m.get("method"))
                    == Some(&Value::from("session/update"))
        })
    };
    let mut problems = Vec::new();
    let mut compared = 0;
    for (file, case) in cases(files) {
        if client_update(case) || case.messages.iter().any(|item| item.message.is_none()) {
            continue;
        }
        compared += 1;
        let revision = file.group.revision;
        let (enveloped, enveloped_state) = run_spelled(revision, case, Spelling::default());
        let bare = Spelling {
            bare: true,
            ..Spelling::default()
        };
        let (got, got_state) = run_spelled(revision, case, bare);
        if findings(&got) != findings(&enveloped) || got_state != enveloped_state {
            problems.push(format!(
                "{} bare:\n{}\n  enveloped:\n{}",
                case.id,
                findings(&got).join("\n"),
                findings(&enveloped).join("\n")
            ));
        }
    }
    if compared < 600 {
        problems.push(format!("only {compared} cases compared"));
    }
    differences(&problems)
}

// ------------------------------------------------------------------ harness

/// A check over the whole corpus, which needs its files read as vector groups.
type CorpusCheck = fn(&[VectorFile]) -> Result<(), Failed>;

const CORPUS_CHECKS: [(&str, CorpusCheck); 10] = [
    (
        "meta::vectors_agree_with_themselves_and_the_catalog",
        vectors_agree_with_themselves_and_the_catalog,
    ),
    (
        "meta::every_rule_and_update_kind_is_covered_in_every_revision",
        every_rule_and_update_kind_is_covered_in_every_revision,
    ),
    (
        "meta::a_member_named_with_half_a_character_is_read_as_u_fffd",
        a_member_named_with_half_a_character_is_read_as_u_fffd,
    ),
    (
        "meta::a_finding_is_reported_when_its_line_is_read",
        a_finding_is_reported_when_its_line_is_read,
    ),
    (
        "meta::detection_agrees_with_the_revision_given",
        detection_agrees_with_the_revision_given,
    ),
    (
        "meta::a_request_sent_twice_is_judged_as_once",
        a_request_sent_twice_is_judged_as_once,
    ),
    (
        "meta::every_spelling_of_a_message_is_read_alike",
        every_spelling_of_a_message_is_read_alike,
    ),
    (
        "meta::a_line_spaced_otherwise_is_read_alike",
        a_line_spaced_otherwise_is_read_alike,
    ),
    (
        "meta::a_checker_limit_never_becomes_a_party_finding",
        a_checker_limit_never_becomes_a_party_finding,
    ),
    (
        "meta::a_bare_trace_is_read_as_its_envelopes_say",
        a_bare_trace_is_read_as_its_envelopes_say,
    ),
];

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let mut trials = vec![Trial::test(
        "meta::vector_files_match_the_schema",
        vector_files_match_the_schema,
    )];
    match load() {
        Ok(files) => {
            let files = Arc::new(files);
            for (name, check) in CORPUS_CHECKS {
                let files = Arc::clone(&files);
                trials.push(Trial::test(name, move || check(&files)));
            }
            for (file_index, file) in files.iter().enumerate() {
                let revision = file.group.revision;
                for (case_index, case) in file.group.cases.iter().enumerate() {
                    let name = format!("{}::{}::{}", revision.as_str(), file.topic, case.id);
                    let files = Arc::clone(&files);
                    trials.push(Trial::test(name, move || {
                        case_passes(revision, &files[file_index].group.cases[case_index])
                    }));
                }
            }
        }
        // Without the groups there are no cases to name: the corpus checks
        // fail with the reason, so the run fails.
        Err(error) => {
            for (name, _) in CORPUS_CHECKS {
                let error = error.clone();
                trials.push(Trial::test(name, move || Err(error.into())));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit_code()
}
