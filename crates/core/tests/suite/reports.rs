//! Every report format on the bundled traces: snapshots (snapshots/reports/),
//! the JSON document against schemas/report.schema.json, SARIF against the
//! OASIS SARIF 2.1.0 schema, JUnit read back by a JUnit parser, and GitHub
//! workflow commands line by line.
//!
//! Traces are named repo-relative (`corpus/...`), so outputs do not depend on
//! where the repository is checked out.

use acp_plan_conformance::baseline::{self, Judgement};
use acp_plan_conformance::report::{self, Format, Outcome, ReportOptions, Run};
use acp_plan_conformance::{check_reader, Config, Severity, TraceReport};
use serde_json::{json, Value};
use std::fs;

use acp_plan_test_support::repo_root as repo;

/// Repo-relative names of the bundled traces, sorted.
fn bundled() -> Vec<String> {
    let mut names = Vec::new();
    for dir in ["corpus/traces", "corpus/examples"] {
        for entry in fs::read_dir(repo().join(dir)).expect("corpus directory") {
            let name = entry.expect("directory entry").file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".jsonl") {
                names.push(format!("{dir}/{name}"));
            }
        }
    }
    names.sort();
    assert!(names.len() >= 2, "bundled traces missing: {names:?}");
    names
}

fn check(name: &str) -> TraceReport {
    let bytes = fs::read(repo().join(name)).expect("bundled trace");
    check_reader(name, &bytes[..], Config::default()).expect("in-memory read")
}

fn check_all() -> Vec<TraceReport> {
    bundled().iter().map(|n| check(n)).collect()
}

fn options() -> ReportOptions {
    ReportOptions::default()
}

fn render(format: Format, run: &Run<'_>) -> String {
    report::render(format, run).replace(env!("CARGO_PKG_VERSION"), "[version]")
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "../../../../snapshots/reports",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

/// A baseline that exercises every entry status on the bundled traces:
/// used (with a glob scope, and without scope), expired, and unused.
const BASELINE: &str = r#"version = 1

[[expected]]
rule = "CAP-PLAN-OPS"
scope = "corpus/examples/*.jsonl"
reason = "the example is broken on purpose"

[[expected]]
rule = "SHAPE-STATUS"
reason = "status values are being migrated"
expires = 2026-06-30

[[expected]]
rule = "ENV-JSON"
scope = "corpus/**"
reason = "truncated lines from an old recorder"
expires = 2026-05-31

[[expected]]
rule = "ENV-UTF8"
reason = "fixed long ago"
"#;

fn judged(traces: &[TraceReport]) -> Judgement {
    let baseline = baseline::parse("ci/acp-plan-baseline.toml", BASELINE).expect("valid baseline");
    let today = baseline::parse_date("2026-06-15").expect("date");
    baseline::judge(&baseline, traces, today)
}

const FORMATS: [(Format, &str); 5] = [
    (Format::Human, "human"),
    (Format::Json, "json"),
    (Format::Junit, "junit"),
    (Format::Sarif, "sarif"),
    (Format::Github, "github"),
];

#[test]
fn snapshots_of_every_format_on_the_bundled_traces() {
    let traces = check_all();
    let run = Run::new(&traces, options());
    for (format, name) in FORMATS {
        snapshot(&format!("check-{name}"), &render(format, &run));
    }
}

#[test]
fn snapshots_of_every_format_with_a_baseline() {
    // The hand-written examples are where a baseline has something to do.
    let traces: Vec<TraceReport> = bundled()
        .iter()
        .filter(|n| n.starts_with("corpus/examples/"))
        .map(|n| check(n))
        .collect();
    let judgement = judged(&traces);
    let run = Run::new(&traces, options()).with_baseline(Some(&judgement));
    for (format, name) in FORMATS {
        snapshot(&format!("baseline-{name}"), &render(format, &run));
    }
}

#[test]
fn the_baseline_fixture_exercises_every_status() {
    let traces = check_all();
    let judgement = judged(&traces);
    let statuses: Vec<&str> = judgement
        .entries
        .iter()
        .map(|e| e.status.as_str())
        .collect();
    assert_eq!(statuses, ["used", "used", "expired", "unused"]);
    let run = Run::new(&traces, options()).with_baseline(Some(&judgement));
    assert_eq!(run.outcome(), Outcome::Fail);
    // ENV-JSON's entry expired, so its error counts again; the others are accepted.
    let open = run.unbaselined();
    let env_json = traces
        .iter()
        .flat_map(|t| t.by_rule.get("ENV-JSON"))
        .sum::<u64>();
    assert!(env_json > 0, "the fixture relies on an ENV-JSON error");
    assert_eq!(open.errors, report::totals(&traces).errors - 2);
}

fn compile(schema_file: &str) -> jsonschema::Validator {
    let text = fs::read_to_string(repo().join("schemas").join(schema_file)).expect("schema file");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, document: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(document)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

fn json_document(run: &Run<'_>) -> Value {
    serde_json::from_str(&report::render(Format::Json, run)).expect("json output parses")
}

#[test]
fn json_reports_match_their_schema_on_every_bundled_trace() {
    let validator = compile("report.schema.json");
    let traces = check_all();
    for (index, trace) in traces.iter().enumerate() {
        let one = std::slice::from_ref(trace);
        for show_state in [false, true] {
            let run = Run::new(
                one,
                ReportOptions {
                    show_state,
                    ..options()
                },
            );
            let document = json_document(&run);
            assert_eq!(document["schema_version"], 2);
            assert_eq!(document["mode"], "check");
            assert_valid(&validator, &document, &trace.name);
        }
        let judgement = judged(one);
        let run = Run::new(one, options()).with_baseline(Some(&judgement));
        assert_valid(
            &validator,
            &json_document(&run),
            &format!("{index}: baseline"),
        );
    }
    let judgement = judged(&traces);
    let run = Run::new(&traces, options()).with_baseline(Some(&judgement));
    assert_valid(
        &validator,
        &json_document(&run),
        "all traces with a baseline",
    );
}

/// The check document plus what `agent` and `tap` add.
fn live_document(mode: &str) -> Value {
    let traces = vec![check("corpus/examples/broken.jsonl")];
    let mut document = json_document(&Run::new(&traces, options()));
    document["mode"] = json!(mode);
    document["scenarios"] = json!([
        {"name": "capability", "result": "fail", "reason": "CAP-PLAN-OPS reported",
         "transcript": "out/capability.jsonl", "errors": 7, "warnings": 1, "infos": 0},
        {"name": "load", "result": "not_exercised", "reason": null,
         "transcript": null, "errors": 0, "warnings": 0, "infos": 0},
    ]);
    document
}

#[test]
fn the_schema_covers_agent_and_tap_documents() {
    let validator = compile("report.schema.json");
    for mode in ["agent", "tap"] {
        assert_valid(&validator, &live_document(mode), mode);
    }
}

#[test]
fn the_schema_rejects_what_it_does_not_describe() {
    let validator = compile("report.schema.json");
    let mut bad = Vec::new();
    let mut doc = live_document("agent");
    doc["mode"] = json!("check");
    bad.push(("scenarios under mode check", doc));
    let mut doc = live_document("agent");
    doc["scenarios"][0]["result"] = json!("skipped");
    bad.push(("unknown scenario result", doc));
    let mut doc = live_document("tap");
    if let Some(s) = doc["scenarios"][1].as_object_mut() {
        s.remove("transcript");
    }
    bad.push(("scenario without transcript", doc));
    let mut doc = live_document("agent");
    doc["schema_version"] = json!(1);
    bad.push(("another schema version", doc));
    let mut doc = live_document("agent");
    doc["diagnostics"][0]["severity"] = json!("warning");
    bad.push(("severity that contradicts the level", doc));
    let mut doc = live_document("agent");
    doc["surprise"] = json!(true);
    bad.push(("undocumented member", doc));
    for (what, doc) in bad {
        assert!(!validator.is_valid(&doc), "accepted: {what}");
    }
}

fn sarif_document(run: &Run<'_>) -> Value {
    serde_json::from_str(&report::render(Format::Sarif, run)).expect("sarif output parses")
}

#[test]
fn sarif_matches_the_oasis_schema_on_every_bundled_trace() {
    let validator = compile("sarif-schema-2.1.0.json");
    let traces = check_all();
    for trace in &traces {
        let one = std::slice::from_ref(trace);
        assert_valid(
            &validator,
            &sarif_document(&Run::new(one, options())),
            &trace.name,
        );
    }
    let judgement = judged(&traces);
    let run = Run::new(&traces, options()).with_baseline(Some(&judgement));
    let document = sarif_document(&run);
    assert_valid(&validator, &document, "all traces with a baseline");
    let notifications = &document["runs"][0]["invocations"][0]["toolConfigurationNotifications"];
    assert_eq!(notifications.as_array().map(Vec::len), Some(2));
}

#[test]
fn sarif_results_point_at_the_trace_line_and_their_rule() {
    let traces = check_all();
    let judgement = judged(&traces);
    let run = Run::new(&traces, options()).with_baseline(Some(&judgement));
    let document = sarif_document(&run);
    let sarif_run = &document["runs"][0];
    let rules = sarif_run["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert_eq!(
        rules.len(),
        acp_plan_conformance::rules::trace_rules().count()
    );
    let results = sarif_run["results"].as_array().expect("results");
    let diagnostics: Vec<(&TraceReport, usize)> = traces
        .iter()
        .flat_map(|t| (0..t.diagnostics.len()).map(move |i| (t, i)))
        .collect();
    assert_eq!(results.len(), diagnostics.len());
    let mut suppressed = 0;
    for (result, (trace, i)) in results.iter().zip(diagnostics) {
        let d = &trace.diagnostics[i];
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], d.rule.id);
        assert_eq!(result["ruleId"], d.rule.id);
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], trace.name.as_str());
        assert_eq!(location["region"]["startLine"], d.line);
        assert!(result["message"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with(&d.message)));
        let level = match d.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
            // Not a finding: SARIF's kind `open` (could not decide).
            Severity::Incomplete => "none",
        };
        assert_eq!(result["level"], level);
        let kind = (d.severity() == Severity::Incomplete).then_some("open");
        assert_eq!(result["kind"].as_str(), kind);
        if result.get("suppressions").is_some() {
            suppressed += 1;
            assert_eq!(result["suppressions"][0]["status"], "accepted");
        }
    }
    let accepted = judgement.baselined_total();
    assert_eq!(suppressed, accepted.total());
}

#[test]
fn junit_reads_back_with_one_case_per_applicable_rule() {
    let traces = check_all();
    for deny_warnings in [false, true] {
        let opts = ReportOptions {
            deny_warnings,
            ..options()
        };
        let run = Run::new(&traces, opts);
        let xml = report::render(Format::Junit, &run);
        let parsed = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit");
        assert_eq!(parsed.test_suites.len(), traces.len());
        for (suite, trace) in parsed.test_suites.iter().zip(&traces) {
            assert_eq!(suite.name.as_str(), trace.name);
            let applicable = acp_plan_conformance::rules::single_trace_rules()
                .filter(|r| r.applies_to(trace.revision.revision))
                .count();
            assert_eq!(suite.test_cases.len(), applicable);
            let failing_rules = trace
                .by_rule
                .keys()
                .filter(|id| {
                    acp_plan_conformance::rules::find(id).is_some_and(|r| {
                        r.severity() == Severity::Error
                            || (deny_warnings && r.severity() == Severity::Warning)
                    })
                })
                .count();
            assert_eq!(suite.failures, failing_rules, "{}", trace.name);
        }
    }
}

#[test]
fn junit_marks_baselined_rules_skipped_and_stale_entries_failed() {
    let traces = check_all();
    let judgement = judged(&traces);
    let run = Run::new(&traces, options()).with_baseline(Some(&judgement));
    let xml = report::render(Format::Junit, &run);
    let parsed = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit");
    let baseline_suite = parsed.test_suites.last().expect("baseline suite");
    assert_eq!(baseline_suite.test_cases.len(), judgement.entries.len());
    assert_eq!(baseline_suite.failures, 2);
    let skipped: usize = parsed.test_suites.iter().map(|s| s.skipped).sum();
    let covered: usize = traces
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.by_rule
                .keys()
                .filter(|id| judgement.covering(i, id).is_some())
                .count()
        })
        .sum();
    assert!(covered > 0);
    assert_eq!(skipped, covered);
}

#[test]
fn github_output_is_one_command_per_diagnostic() {
    let traces = check_all();
    let text = report::render(Format::Github, &Run::new(&traces, options()));
    let lines: Vec<&str> = text.lines().collect();
    let (summary, commands) = lines.split_last().expect("summary line");
    assert!(summary.starts_with("acp-plan: "), "{summary}");
    let total = report::totals(&traces);
    let count = |kind: &str| {
        commands
            .iter()
            .filter(|l| l.starts_with(&format!("::{kind} file=")))
            .count() as u64
    };
    assert_eq!(count("error"), total.errors);
    assert_eq!(count("warning"), total.warnings);
    assert_eq!(count("notice"), total.infos);
    // Every diagnostic is one command, a part not checked too.
    assert_eq!(commands.len() as u64, total.total());
}

#[test]
fn every_format_agrees_with_the_gate() {
    let traces = check_all();
    let clean: Vec<TraceReport> = check_all()
        .into_iter()
        .filter(|t| t.counts.errors == 0)
        .collect();
    assert!(!clean.is_empty() && clean.len() < traces.len());
    for (set, expected) in [(&traces, "fail"), (&clean, "pass")] {
        let run = Run::new(set, options());
        assert_eq!(run.outcome().as_str(), expected);
        assert_eq!(json_document(&run)["result"], expected);
        assert_eq!(
            sarif_document(&run)["runs"][0]["properties"]["result"],
            expected
        );
        let xml = report::render(Format::Junit, &run);
        let parsed = quick_junit::Report::deserialize_from_str(&xml).expect("JUnit");
        assert_eq!(parsed.failures == 0, expected == "pass");
    }
}

/// Ids and methods come from the trace: markup, control characters and
/// newlines in them must not break any format.
#[test]
fn hostile_text_in_traces_cannot_break_a_format() {
    // JSON-escaped: the session id holds ESC, BEL, CR and LF once parsed.
    let nasty = r#"s\u001b[31m<x a=\"1\">]]>&\r\n::error::boom,%0A\u0007"#;
    let trace = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":1,\"clientCapabilities\":{{}}}}}}\n\
         {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"protocolVersion\":1}}}}\n\
         {{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{{\"sessionId\":\"{nasty}\",\"update\":{{\"sessionUpdate\":\"plan\",\"entries\":[]}}}}}}\n\
         {{\"jsonrpc\":\"1.0\",\"method\":\"x\"}}\n"
    );
    let name = "odd dir/a,b:c%.jsonl";
    let report = check_reader(name, trace.as_bytes(), Config::default()).expect("read");
    assert!(report.counts.errors > 0, "{:?}", report.diagnostics);
    assert!(report
        .diagnostics
        .iter()
        .any(|d| d.session.as_deref().is_some_and(|s| s.contains('\u{1b}'))));
    let traces = [report];
    let run = Run::new(&traces, options());

    let xml = report::render(Format::Junit, &run);
    let parsed = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit");
    assert_eq!(parsed.test_suites[0].name.as_str(), name);
    assert!(parsed.failures > 0);

    let validator = compile("sarif-schema-2.1.0.json");
    let sarif = sarif_document(&run);
    assert_valid(&validator, &sarif, "hostile SARIF");
    assert_eq!(
        sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"],
        "odd%20dir/a,b:c%25.jsonl"
    );

    let github = report::render(Format::Github, &run);
    let total = report::totals(&traces);
    assert_eq!(github.lines().count() as u64, total.total() + 1, "{github}");
    for line in github.lines() {
        assert!(!line.contains('\r'));
        if let Some(rest) = line.strip_prefix("::") {
            let (properties, _) = rest.split_once("::").expect("command, then message");
            assert!(
                properties.contains("file=odd dir/a%2Cb%3Ac%25.jsonl"),
                "{line}"
            );
        }
    }

    let validator = compile("report.schema.json");
    assert_valid(&validator, &json_document(&run), "hostile JSON");
}
