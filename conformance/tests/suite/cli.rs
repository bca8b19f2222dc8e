//! The `acp-plan` binary as users run it: exit statuses, the JSON document,
//! standard input, `--show-state`, `--deny-warnings`, usage errors, the rule
//! catalog, and hostile input. Runs from the repository root so that file
//! names in reports are repository-relative.

use crate::common;

use common::{acp_plan, acp_plan_with_stdin, status, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Output;

const BROKEN: &str = "corpus/examples/broken.jsonl";
const PLAN_OPS: &str = "corpus/traces/python-sdk-0.12-plan-ops.jsonl";

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// (rule, line) of every diagnostic of a JSON report, in report order.
fn rules_and_lines(document: &Value) -> Vec<(String, u64)> {
    document["diagnostics"]
        .as_array()
        .expect("diagnostics is an array")
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().expect("rule").to_owned(),
                d["line"].as_u64().expect("line"),
            )
        })
        .collect()
}

/// A scratch file for this test binary (cargo's per-target temporary dir).
fn scratch(name: &str, contents: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("write scratch trace");
    path
}

fn pairs(expected: &[(&str, u64)]) -> Vec<(String, u64)> {
    expected.iter().map(|(r, l)| (r.to_string(), *l)).collect()
}

/// A v1 handshake with the plan capability, establishing session `s1`.
const HANDSHAKE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}
{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}
{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}
"#;

/// What `scripts/interop.py` recorded for the real agents' transcripts it keeps:
/// per trace, the `--spec` to check it with and every diagnostic as
/// `[rule, severity, line]`, in report order.
const INTEROP_EXPECTED: &str = "corpus/traces/interop/expected.json";

/// `[rule, severity, line]` of every diagnostic of a JSON report, in report order.
fn rule_severity_lines(document: &Value) -> Vec<Value> {
    document["diagnostics"]
        .as_array()
        .expect("diagnostics is an array")
        .iter()
        .map(|d| serde_json::json!([d["rule"], d["severity"], d["line"]]))
        .collect()
}

/// Every trace recorded from a real agent is conformant, except the interop
/// transcripts with known violations, which keep exactly the diagnostics
/// recorded for them (a fixed false error or a new one both fail here).
#[test]
fn every_recorded_trace_is_conformant_or_keeps_its_known_diagnostics() {
    let text = std::fs::read_to_string(common::repo_root().join(INTEROP_EXPECTED))
        .expect("interop expectations");
    let expected: serde_json::Map<String, Value> =
        serde_json::from_str(&text).expect("expectations are a JSON object");
    let traces = common::corpus_files("corpus/traces", "jsonl");
    assert!(!traces.is_empty(), "no traces under corpus/traces");
    for name in expected.keys() {
        assert!(
            traces.contains(name),
            "{INTEROP_EXPECTED} names a missing trace {name}"
        );
    }
    for trace in &traces {
        let Some(known) = expected.get(trace.as_str()) else {
            let output = acp_plan(&["check", "--format", "json", trace]);
            let document = json(&output);
            assert_eq!(
                status(&output),
                0,
                "{trace}: {:?}",
                rules_and_lines(&document)
            );
            assert_eq!(document["verdict"], "conformant", "{trace}");
            assert_eq!(document["summary"]["errors"], 0, "{trace}");
            continue;
        };
        let spec = known["spec"].as_str().expect("spec");
        let output = acp_plan(&["check", "--format", "json", "--spec", spec, trace]);
        let document = json(&output);
        let diagnostics = rule_severity_lines(&document);
        assert_eq!(
            &Value::Array(diagnostics.clone()),
            &known["diagnostics"],
            "{trace} (--spec {spec})"
        );
        let errors = diagnostics.iter().any(|d| d[1] == "error");
        assert_eq!(status(&output), i32::from(errors), "{trace}");
    }
}

#[test]
fn broken_example_fails_with_its_rules_at_their_lines() {
    let output = acp_plan(&["check", "--format", "json", BROKEN]);
    assert_eq!(status(&output), 1);
    let document = json(&output);
    assert_eq!(document["verdict"], "not_conformant");
    assert_eq!(
        rules_and_lines(&document),
        pairs(&[
            ("CAP-VALUE", 1),
            ("CAP-RENAMED", 1),
            ("CAP-PLAN-OPS", 5),
            ("SHAPE-PLAN-ID", 5),
            ("SHAPE-STATUS", 5),
            ("SES-UNKNOWN-SESSION", 6),
            ("ENV-JSON", 7),
            ("ENV-DUPLICATE-RESPONSE", 8),
        ])
    );
}

#[test]
fn json_document_has_the_documented_fields() {
    let output = acp_plan(&["check", "--format", "json", BROKEN]);
    let document = json(&output);
    assert!(matches!(
        document["verdict"].as_str(),
        Some("conformant" | "not_conformant")
    ));
    assert_eq!(document["spec"], "v1");
    let lines: Vec<&str> = include_str!("../../../corpus/examples/broken.jsonl")
        .lines()
        .collect();
    let diagnostics = document["diagnostics"].as_array().expect("array");
    assert!(!diagnostics.is_empty());
    let (mut errors, mut warnings, mut infos) = (0, 0, 0);
    for d in diagnostics {
        let object = d.as_object().expect("a diagnostic is an object");
        for field in [
            "rule", "severity", "file", "line", "pointer", "session", "plan", "message", "hint",
        ] {
            assert!(object.contains_key(field), "no `{field}` in {d}");
        }
        match d["severity"].as_str() {
            Some("error") => errors += 1,
            Some("warning") => warnings += 1,
            Some("info") => infos += 1,
            other => panic!("severity {other:?} in {d}"),
        }
        assert!(d["rule"].is_string());
        assert_eq!(d["file"], BROKEN);
        let line = d["line"].as_u64().expect("line is a number");
        assert!(line >= 1 && line as usize <= lines.len(), "line in {d}");
        assert!(d["message"].as_str().is_some_and(|m| !m.is_empty()));
        for nullable in ["session", "plan", "hint"] {
            assert!(
                d[nullable].is_string() || d[nullable].is_null(),
                "{nullable} in {d}"
            );
        }
        // The pointer points into the message on that line (bare trace).
        let pointer = d["pointer"].as_str().expect("pointer is a string");
        if let Ok(message) = serde_json::from_str::<Value>(lines[line as usize - 1]) {
            assert!(
                message.pointer(pointer).is_some(),
                "pointer {pointer:?} does not resolve in line {line}"
            );
        }
    }
    let summary = &document["summary"];
    assert_eq!(summary["errors"], errors);
    assert_eq!(summary["warnings"], warnings);
    assert_eq!(summary["infos"], infos);
    assert_eq!(summary["not_shown"], 0);
    assert_eq!(summary["traces"], 1);
    assert_eq!(summary["lines"], lines.len());
    assert_eq!(summary["deny_warnings"], false);
    assert!(summary["messages"].is_u64());
}

#[test]
fn deny_warnings_fails_a_warning_only_trace() {
    let trace = format!(
        "{HANDSHAKE}{}\n",
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"","content":"Plan"}}}}"#
    );
    let path = scratch("warning-only.jsonl", trace.as_bytes());
    let path = path.to_str().expect("UTF-8 temp path");

    let allowed = acp_plan(&["check", "--format", "json", path]);
    assert_eq!(status(&allowed), 0);
    let document = json(&allowed);
    assert_eq!(document["verdict"], "conformant");
    assert_eq!(
        rules_and_lines(&document),
        pairs(&[("SHAPE-PLAN-ID-EMPTY", 5)])
    );
    assert_eq!(document["diagnostics"][0]["severity"], "warning");

    let denied = acp_plan(&["check", "--deny-warnings", "--format", "json", path]);
    assert_eq!(status(&denied), 1);
    let document = json(&denied);
    assert_eq!(document["verdict"], "not_conformant");
    assert_eq!(document["summary"]["deny_warnings"], true);

    let human = acp_plan(&["check", "--deny-warnings", path]);
    assert_eq!(status(&human), 1);
    assert!(stdout(&human).contains("verdict: not conformant"));
}

#[test]
fn usage_errors_exit_2_and_say_why_on_stderr() {
    let unknown_option = acp_plan(&["check", "--frobnicate", BROKEN]);
    assert_eq!(status(&unknown_option), 2);
    assert!(stderr(&unknown_option).contains("unexpected argument '--frobnicate'"));
    assert!(stdout(&unknown_option).is_empty());

    let bad_spec = acp_plan(&["check", "--spec", "v3", BROKEN]);
    assert_eq!(status(&bad_spec), 2);
    let message = stderr(&bad_spec);
    assert!(
        message.contains("unknown revision `v3`")
            && message.contains("draft-2026-05, v1-1.17, v1, v2-1.17, v2"),
        "{message}"
    );

    let no_file = acp_plan(&["check"]);
    assert_eq!(status(&no_file), 2);
    assert!(stderr(&no_file).contains("<FILE>"));

    let missing = acp_plan(&["check", "no/such/trace.jsonl"]);
    assert_eq!(status(&missing), 2);
    assert!(stderr(&missing).contains("cannot read no/such/trace.jsonl"));
    assert!(
        stdout(&missing).is_empty(),
        "nothing was checked, so no verdict: {}",
        stdout(&missing)
    );

    // A readable conformant trace does not hide an unreadable one.
    let partly = acp_plan(&["check", PLAN_OPS, "no/such/trace.jsonl"]);
    assert_eq!(status(&partly), 2);
    assert!(stderr(&partly).contains("cannot read no/such/trace.jsonl"));
}

#[test]
fn dash_reads_standard_input() {
    let conformant = std::fs::read(common::repo_root().join(PLAN_OPS)).expect("trace");
    let output = acp_plan_with_stdin(&["check", "-"], &conformant);
    assert_eq!(status(&output), 0);
    assert!(
        stdout(&output).contains("<stdin>: 10 lines"),
        "{}",
        stdout(&output)
    );

    let broken = std::fs::read(common::repo_root().join(BROKEN)).expect("trace");
    let from_stdin = json(&acp_plan_with_stdin(
        &["check", "--format", "json", "-"],
        &broken,
    ));
    let from_file = json(&acp_plan(&["check", "--format", "json", BROKEN]));
    assert_eq!(from_stdin["diagnostics"][0]["file"], "<stdin>");
    assert_eq!(rules_and_lines(&from_stdin), rules_and_lines(&from_file));
}

/// Many files are checked on every core (the calling thread among the
/// workers, unless it reads standard input); either way the report is in
/// argument order and the same as with the file itself in place of `-`.
#[test]
fn many_files_report_in_argument_order_with_stdin_among_them() {
    const FULL: &str = "corpus/live/broken-full.jsonl";
    const SES: &str = "corpus/live/broken-ses.jsonl";
    let trace = std::fs::read(common::repo_root().join(FULL)).expect("trace");
    let args = ["check", "--format", "json", "--show-state", BROKEN];
    let with_stdin = acp_plan_with_stdin(&[&args[..], &["-", PLAN_OPS, SES]].concat(), &trace);
    let all_files = acp_plan(&[&args[..], &[FULL, PLAN_OPS, SES]].concat());
    assert_eq!(status(&with_stdin), 1);
    assert_eq!(status(&all_files), 1);
    let named = stdout(&with_stdin).replace("\"<stdin>\"", &format!("\"{FULL}\""));
    assert_eq!(named, stdout(&all_files));
    // In argument order: the first diagnostic of each trace comes after the
    // previous trace's.
    let files: Vec<String> = json(&all_files)["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["file"].as_str().expect("file").to_owned())
        .collect();
    let mut order = files.clone();
    order.dedup();
    assert_eq!(order, [BROKEN, FULL, SES], "{files:?}");
}

#[test]
fn show_state_prints_the_final_client_state() {
    let human = acp_plan(&["check", "--show-state", PLAN_OPS]);
    assert_eq!(status(&human), 0);
    let text = stdout(&human);
    let expected = "  state at end of trace:
    session s1
      legacy plan: 2 entries
        [in_progress] (high) Inspect
        [pending] (medium) Fix
      plan p2 (markdown): \"# Plan\"
";
    assert!(text.contains(expected), "{text}");

    let output = acp_plan(&["check", "--show-state", "--format", "json", PLAN_OPS]);
    let document = json(&output);
    // p1 (items) was created and then removed; p2 (markdown) is live.
    assert_eq!(
        document["traces"][0]["state"],
        serde_json::json!({"sessions": {"s1": {
            "legacy": [
                {"content": "Inspect", "priority": "high", "status": "in_progress"},
                {"content": "Fix", "priority": "medium", "status": "pending"}
            ],
            "plans": {"p2": {"type": "markdown", "content": "# Plan"}}
        }}})
    );
    let without = json(&acp_plan(&["check", "--format", "json", PLAN_OPS]));
    assert!(without["traces"][0].get("state").is_none());
    // Of many files, each one's state (a check that shows none drops each
    // on its worker).
    let args = [
        "check",
        "--show-state",
        "--format",
        "json",
        PLAN_OPS,
        BROKEN,
        PLAN_OPS,
    ];
    let many = json(&acp_plan(&args));
    assert_eq!(many["traces"][2]["state"], document["traces"][0]["state"]);
    assert_eq!(many["traces"][0]["state"], document["traces"][0]["state"]);
    assert!(many["traces"][1]["state"]["sessions"].is_object());
}

/// `^[A-Z]+(-[A-Z0-9]+)+$`
fn is_rule_id(id: &str) -> bool {
    let mut parts = id.split('-');
    let first_ok = parts
        .next()
        .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_uppercase()));
    let rest: Vec<&str> = parts.collect();
    first_ok
        && !rest.is_empty()
        && rest.iter().all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

#[test]
fn rule_id_pattern() {
    assert!(is_rule_id("SHAPE-PLAN-ID"));
    assert!(is_rule_id("ENV-UTF8"));
    for bad in [
        "SHAPE",
        "shape-x",
        "SHAPE-",
        "-X",
        "SHAPE--X",
        "SHAPE-X_Y",
        "1X-Y",
    ] {
        assert!(!is_rule_id(bad), "{bad}");
    }
}

#[test]
fn rules_json_lists_every_rule_once_with_its_fields() {
    let output = acp_plan(&["rules", "--format", "json"]);
    assert_eq!(status(&output), 0);
    let document = json(&output);
    let rules = document.as_array().expect("a list of rules");
    assert!(!rules.is_empty());
    let mut ids = BTreeSet::new();
    for rule in rules {
        let id = rule["id"].as_str().expect("id is a string");
        assert!(is_rule_id(id), "rule id {id:?}");
        assert!(ids.insert(id.to_owned()), "rule id {id} appears twice");
        assert!(
            matches!(
                rule["level"].as_str(),
                Some("MUST" | "SHOULD" | "INFO" | "LIMIT")
            ),
            "{id}: level {}",
            rule["level"]
        );
        let revisions = rule["revisions"].as_array().expect("revisions");
        assert!(!revisions.is_empty(), "{id}: no revisions");
        for revision in revisions {
            assert!(
                matches!(
                    revision.as_str(),
                    Some("draft-2026-05" | "v1-1.17" | "v1" | "v2-1.17" | "v2")
                ),
                "{id}: revision {revision}"
            );
        }
        assert!(rule["summary"].as_str().is_some_and(|s| !s.is_empty()));
        let mut citations = vec![&rule["citation"]];
        for by_revision in rule["revision_citations"]
            .as_array()
            .expect("revision_citations")
        {
            assert!(
                revisions.contains(&by_revision["revision"]),
                "{id}: {by_revision}"
            );
            citations.push(&by_revision["citation"]);
        }
        for citation in citations {
            for field in ["document", "section"] {
                assert!(
                    citation[field].as_str().is_some_and(|s| !s.is_empty()),
                    "{id}: citation.{field}"
                );
            }
            // A quotation, or the suite's note saying why there is none.
            let text = citation["text"].as_str().expect("text is a string");
            let note = citation["note"].as_str().expect("note is a string");
            assert!(
                !text.is_empty() || !note.is_empty(),
                "{id}: neither text nor note"
            );
        }
    }
    // The human catalog shows the same rules.
    let human = stdout(&acp_plan(&["rules"]));
    for id in &ids {
        assert!(
            human
                .lines()
                .any(|l| l.split_whitespace().next() == Some(id)),
            "{id} missing from `acp-plan rules`"
        );
    }
}

fn snapshot(name: &str, command: &[&str], text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../../snapshots/cli");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(format!("acp-plan {}", command.join(" ")));
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn snapshot_of_the_broken_example_report() {
    let command = ["check", BROKEN];
    let output = acp_plan(&command);
    assert_eq!(status(&output), 1);
    snapshot("check-broken", &command, &stdout(&output));
}

#[test]
fn snapshot_of_the_rule_catalog() {
    let output = acp_plan(&["rules"]);
    assert_eq!(status(&output), 0);
    snapshot("rules", &["rules"], &stdout(&output));
}

/// Each line breaks the input in one hostile way; checking goes on after
/// each one, and the report stays small.
#[test]
fn hostile_input_gets_located_diagnostics_and_no_panic() {
    let huge_id = "i".repeat(1024 * 1024);
    let mut trace = HANDSHAKE.as_bytes().to_vec();
    let mut push = |line: &[u8]| {
        trace.extend_from_slice(line);
        trace.push(b'\n');
    };
    // 5: a 1 MiB session id never established, and 6: the removal of a
    // 1 MiB plan id never created (before any line the limits skip: such a
    // line may have opened the session or created the plan). Read by the
    // release before schema 1.20.0, which warns about that removal.
    push(format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"{huge_id}","update":{{"sessionUpdate":"agent_message_chunk","content":{{"type":"text","text":"x"}}}}}}}}"#).as_bytes());
    push(format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s1","update":{{"sessionUpdate":"plan_removed","planId":"{huge_id}"}}}}}}"#).as_bytes());
    // 7: a 20 MB line, over --max-line-bytes.
    let mut long = br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":""#.to_vec();
    long.extend(std::iter::repeat_n(b'x', 20 * 1024 * 1024));
    long.extend_from_slice(br#"","priority":"high","status":"pending"}]}}}"#);
    push(&long);
    // 8: not UTF-8.
    push(b"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s1\",\"update\":{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"caf\xe9\",\"priority\":\"high\",\"status\":\"pending\"}]}}}");
    // 9: 10 000 levels of nesting.
    let mut deep =
        br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":"#
            .to_vec();
    deep.extend(std::iter::repeat_n(b'[', 10_000));
    deep.extend(std::iter::repeat_n(b']', 10_000));
    deep.extend_from_slice(b"}}}");
    push(&deep);
    // 10: an object as request id.
    push(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}"#);
    // 11, 12: a 1 MiB request id, reused while in flight.
    let prompt = format!(
        r#"{{"jsonrpc":"2.0","id":"{huge_id}","method":"session/prompt","params":{{"sessionId":"s1","prompt":[]}}}}"#
    );
    push(prompt.as_bytes());
    push(prompt.as_bytes());
    // 13: a 1 MiB unknown member name.
    push(format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s1","update":{{"sessionUpdate":"plan","entries":[],"{huge_id}":1}}}}}}"#).as_bytes());
    // 14: checking went on: an ordinary shape error.
    push(br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"done"}]}}}"#);
    let path = scratch("hostile.jsonl", &trace);
    let path = path.to_str().expect("UTF-8 temp path");
    // 2 MiB: the 20 MB line is over the limit, the 1 MiB ids are checked.
    let limit = "--max-line-bytes=2097152";
    let spec = "--spec=v1-1.17";

    let output = acp_plan(&["check", limit, spec, "--format", "json", path]);
    assert_eq!(status(&output), 1);
    let document = json(&output);
    assert_eq!(
        rules_and_lines(&document),
        pairs(&[
            ("SES-UNKNOWN-SESSION", 5),
            ("ID-REMOVE-UNKNOWN", 6),
            ("TRACE-LIMIT", 7),
            ("ENV-UTF8", 8),
            ("TRACE-LIMIT", 9),
            ("ENV-ID", 10),
            ("ENV-ID-REUSE", 12),
            ("SHAPE-UNKNOWN-FIELD", 13),
            ("SHAPE-STATUS", 14),
        ])
    );
    assert!(
        output.stdout.len() < 64 * 1024,
        "the JSON report repeats hostile input: {} bytes",
        output.stdout.len()
    );
    let human = acp_plan(&["check", limit, spec, path]);
    assert_eq!(status(&human), 1);
    assert!(
        human.stdout.len() < 64 * 1024,
        "the human report repeats hostile input: {} bytes",
        human.stdout.len()
    );
}

/// What the checker could not check makes the result incomplete: exit 1 by
/// default (CI fails closed), 0 with `--incomplete warn`; the JSON report
/// says which line was not checked and why.
#[test]
fn limits_make_the_result_incomplete_not_non_conformant() {
    let deep = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"_x\",\"params\":{}1{}}}",
        "[".repeat(40),
        "]".repeat(40)
    );
    let trace = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}"#,
        deep.as_str(),
    ]
    .join("\n");
    let path = scratch("incomplete.jsonl", trace.as_bytes());
    let path = path.to_str().expect("UTF-8 temp path");
    let failing = acp_plan(&["check", "--max-depth", "16", "--format", "json", path]);
    assert_eq!(status(&failing), 1);
    let document = json(&failing);
    assert_eq!(document["verdict"], "incomplete");
    assert_eq!(document["result"], "fail");
    assert_eq!(document["summary"]["errors"], 0);
    assert_eq!(document["summary"]["incomplete"], 1);
    assert_eq!(document["unchecked"][0]["line"], 3);
    assert_eq!(document["unchecked"][0]["rule"], "TRACE-LIMIT");
    let warned = acp_plan(&["check", "--max-depth", "16", "--incomplete", "warn", path]);
    assert_eq!(status(&warned), 0);
    let text = String::from_utf8_lossy(&warned.stdout).into_owned();
    assert!(text.contains("incomplete[TRACE-LIMIT]"), "{text}");
    assert!(text.contains("verdict: incomplete"), "{text}");
}

/// A kept `TRACE-LIMIT` is one of the diagnostics shown: "not shown" counts
/// every severity, the incomplete ones too (it left them out, and undercounted
/// by the number of parts not checked that were kept).
#[test]
fn not_shown_counts_incomplete_diagnostics_too() {
    let mut trace = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"_x\",\"params\":\"{}\"}}\n",
        "a".repeat(3000)
    );
    trace.push_str(
        &std::fs::read_to_string(common::repo_root().join(BROKEN)).expect("the broken example"),
    );
    let limits = ["--max-line-bytes=2000", "--max-diagnostics=2"];

    let output = acp_plan_with_stdin(
        &[&["check", "--format", "json"], &limits[..], &["-"]].concat(),
        trace.as_bytes(),
    );
    assert_eq!(status(&output), 1, "{}", stderr(&output));
    let document = json(&output);
    let summary = &document["summary"];
    let shown = document["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .len() as u64;
    assert_eq!(shown, 2);
    assert_eq!(document["diagnostics"][0]["rule"], "TRACE-LIMIT");
    let total: u64 = ["errors", "warnings", "infos", "incomplete"]
        .iter()
        .map(|k| summary[k].as_u64().expect("a count"))
        .sum();
    assert_eq!(summary["incomplete"], 1);
    assert!(total > shown, "{summary}");
    assert_eq!(
        summary["not_shown"].as_u64(),
        Some(total - shown),
        "{summary}"
    );

    let output = acp_plan_with_stdin(
        &[&["check"], &limits[..], &["-"]].concat(),
        trace.as_bytes(),
    );
    let text = stdout(&output);
    let expected = format!(
        "({} more not shown: raise --max-diagnostics)",
        total - shown
    );
    assert!(text.contains(&expected), "{text}");
}
