//! End-to-end tests of `acp-plan client`: the built binary plays the agent
//! to `acp-plan fake-client` (the reference client), conformant and with
//! each deliberate flaw, and must pass the one and fail each of the others
//! with the right rule or robustness finding.
#![cfg(unix)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_acp-plan");

/// `acp-plan client --format json ARGS -- acp-plan fake-client CLIENT_ARGS --agent {agent}`.
fn run_client(args: &[&str], client_args: &[&str]) -> (i32, Value) {
    let timeout: &[&str] = if args.contains(&"--timeout") {
        &[]
    } else {
        &["--timeout", "5s"]
    };
    let output = Command::new(BIN)
        .args(["client", "--format", "json"])
        .args(timeout)
        .args(args)
        .args(["--", BIN, "fake-client"])
        .args(client_args)
        .args(["--agent", "{agent}"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let document = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "client output is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().unwrap_or(-1), document)
}

fn scenario<'a>(document: &'a Value, name: &str) -> &'a Value {
    document["client_scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no scenario {name} in {document:#}"))
}

fn finding_ids(scenario: &Value) -> Vec<&str> {
    scenario["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect()
}

fn rules(document: &Value) -> Vec<&str> {
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect()
}

fn schema_valid(document: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(document)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{document:#}");
}

#[test]
fn the_reference_client_passes_every_scenario_under_v1_and_v2() {
    let (status, document) = run_client(&[], &[]);
    assert_eq!(status, 0, "{document:#}");
    schema_valid(&document);
    assert_eq!(document["mode"], "client");
    assert_eq!(document["result"], "pass");
    for name in [
        "legacy",
        "plan-operations",
        "edge-sizes",
        "terminal-escapes",
    ] {
        let s = scenario(&document, name);
        assert_eq!(s["result"], "pass", "{s:#}");
        assert_eq!(s["revision"], "v1");
        assert_eq!(s["plan_operations"], true);
        assert!(finding_ids(s).is_empty());
    }
    // The suite's own messages draw only the infos it draws on purpose
    // (ID-TYPE-CHANGE, ID-RECREATE); the removal of an id never sent is
    // legal since schema 1.20.0 ("Clients MUST ignore a removal for an
    // unknown ID").
    assert_eq!(
        scenario(&document, "plan-operations")["suite_diagnostics"],
        2
    );
    assert_eq!(scenario(&document, "legacy")["suite_diagnostics"], 0);

    let (status, document) = run_client(&[], &["--protocol-version", "2"]);
    assert_eq!(status, 0, "{document:#}");
    let legacy = scenario(&document, "legacy");
    assert_eq!(legacy["result"], "not_exercised");
    assert!(legacy["reason"]
        .as_str()
        .unwrap()
        .contains("no legacy plan"));
    for name in ["plan-operations", "edge-sizes", "terminal-escapes"] {
        let s = scenario(&document, name);
        assert_eq!(s["result"], "pass", "{s:#}");
        assert_eq!(s["revision"], "v2");
        // Under v2 too, only the deliberate diagnostics on the suite's side.
        let deliberate = if name == "plan-operations" { 2 } else { 0 };
        assert_eq!(s["suite_diagnostics"], deliberate, "{name}");
    }
}

#[test]
fn the_wrong_capability_spelling_draws_cap_renamed_and_no_plan_operations() {
    let (status, document) = run_client(&[], &["--flaw", "capability-spelling"]);
    // A SHOULD: a warning, which fails the gate only when warnings are denied.
    assert_eq!(status, 0, "{document:#}");
    assert!(rules(&document).iter().all(|r| *r == "CAP-RENAMED"));
    assert!(rules(&document).contains(&"CAP-RENAMED"));
    let ops = scenario(&document, "plan-operations");
    assert_eq!(ops["result"], "not_exercised");
    assert_eq!(ops["plan_operations"], false);
    let (status, document) = run_client(
        &["--deny-warnings", "--scenario", "legacy"],
        &["--flaw", "capability-spelling"],
    );
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(scenario(&document, "legacy")["result"], "fail");
}

#[test]
fn a_prompt_before_initialize_is_ses_before_init() {
    let (status, document) = run_client(&["--scenario", "legacy"], &["--flaw", "prompt-first"]);
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(rules(&document), ["SES-BEFORE-INIT"]);
    let legacy = scenario(&document, "legacy");
    assert_eq!(legacy["result"], "fail");
    assert!(finding_ids(legacy).is_empty());
}

#[test]
fn a_crash_on_a_legal_plan_is_robust_crash() {
    let (status, document) = run_client(&["--scenario", "legacy"], &["--flaw", "crash-on-plan"]);
    assert_eq!(status, 1, "{document:#}");
    schema_valid(&document);
    let legacy = scenario(&document, "legacy");
    assert_eq!(finding_ids(legacy), ["ROBUST-CRASH"]);
    assert!(
        legacy["evidence"]["client_end"]
            .as_str()
            .unwrap()
            .contains("signal 6"),
        "{legacy:#}"
    );
    // No conformance error is claimed for it.
    assert_eq!(legacy["errors"], 0);
}

#[test]
fn a_client_that_never_answers_the_permission_request_is_robust_hang() {
    let (status, document) = run_client(
        &["--scenario", "legacy", "--timeout", "1s"],
        &["--flaw", "hang"],
    );
    assert_eq!(status, 1, "{document:#}");
    let legacy = scenario(&document, "legacy");
    assert_eq!(finding_ids(legacy), ["ROBUST-HANG"]);
    assert!(legacy["findings"][0]["message"]
        .as_str()
        .unwrap()
        .contains("session/request_permission"));
}

#[test]
fn raw_escape_sequences_are_robust_terminal_escape_and_warn_can_pass_them() {
    let (status, document) = run_client(
        &["--scenario", "terminal-escapes"],
        &["--flaw", "raw-escapes"],
    );
    assert_eq!(status, 1, "{document:#}");
    let s = scenario(&document, "terminal-escapes");
    assert_eq!(
        finding_ids(s),
        ["ROBUST-TERMINAL-ESCAPE", "ROBUST-TERMINAL-ESCAPE"]
    );
    // Plain plans hold no probe: the flawed client passes them.
    let (status, _) = run_client(&["--scenario", "legacy"], &["--flaw", "raw-escapes"]);
    assert_eq!(status, 0);
    // --robustness warn reports the finding without failing the gate.
    let (status, document) = run_client(
        &["--scenario", "terminal-escapes", "--robustness", "warn"],
        &["--flaw", "raw-escapes"],
    );
    assert_eq!(status, 0, "{document:#}");
    let s = scenario(&document, "terminal-escapes");
    assert_eq!(s["result"], "pass");
    assert_eq!(finding_ids(s).len(), 2);
}

#[test]
fn transcripts_re_check_with_the_same_result_and_other_formats_render() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().display().to_string();
    let (status, _) = run_client(&["--scenario", "plan-operations", "--out", &out], &[]);
    assert_eq!(status, 0);
    let transcript = dir.path().join("plan-operations.jsonl");
    let check = Command::new(BIN)
        .args(["check", "--spec", "v1", "--format", "json"])
        .arg(&transcript)
        .output()
        .unwrap();
    let checked: Value = serde_json::from_slice(&check.stdout).unwrap();
    // The suite's deliberate diagnostics are there; nothing on the client's lines.
    let lines: Vec<u64> = checked["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["line"].as_u64().unwrap())
        .collect();
    let text = std::fs::read_to_string(&transcript).unwrap();
    for line in lines {
        let record = text.lines().nth(line as usize - 1).unwrap();
        assert!(record.contains("\"agent_to_client\""), "{record}");
    }
    assert!(dir.path().join("plan-operations.stdout.log").exists());
    for format in ["sarif", "junit", "github", "human"] {
        let output = Command::new(BIN)
            .args(["client", "--scenario", "legacy", "--format", format])
            .args(["--", BIN, "fake-client", "--flaw", "crash-on-plan"])
            .args(["--agent", "{agent}"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{format}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("ROBUST-CRASH"), "{format}: {text}");
    }
}

#[test]
fn a_command_without_the_placeholder_is_a_usage_error() {
    let output = Command::new(BIN)
        .args(["client", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("{agent}"));
    // A client that never starts its agent fails, with why.
    let output = Command::new(BIN)
        .args(["client", "--scenario", "legacy", "--format", "json"])
        .args(["--", "sh", "-c", "exit 0", "{agent}"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(scenario(&document, "legacy")["reason"]
        .as_str()
        .unwrap()
        .contains("without starting its agent"));
}

/// The messages the suite sent in a transcript, without their timestamps.
/// The suite's messages in a transcript or reproducer; a raw line (a
/// reproducer's `raw`) as its text, a JSON string.
fn suite_messages(transcript: &Path) -> Vec<Value> {
    std::fs::read_to_string(transcript)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["direction"] == "agent_to_client")
        .map(|e| e.get("raw").unwrap_or(&e["message"]).clone())
        .collect()
}

#[test]
fn fuzzing_with_a_seed_is_reproducible_and_its_reproducers_replay() {
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let mut documents = Vec::new();
    for dir in &dirs {
        let out = dir.path().display().to_string();
        let (status, document) = run_client(
            &["--fuzz", "3", "--seed", "11", "--out", &out],
            &["--flaw", "crash-on-plan"],
        );
        assert_eq!(status, 1, "{document:#}");
        schema_valid(&document);
        documents.push(document);
    }
    let results = |d: &Value| -> Vec<(String, String, Vec<String>)> {
        d["client_scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["name"].as_str().unwrap().to_owned(),
                    s["result"].as_str().unwrap().to_owned(),
                    finding_ids(s).iter().map(|id| id.to_string()).collect(),
                )
            })
            .collect()
    };
    assert_eq!(results(&documents[0]), results(&documents[1]));
    for i in 0..3 {
        let name = format!("fuzz-{i}.jsonl");
        assert_eq!(
            suite_messages(&dirs[0].path().join(&name)),
            suite_messages(&dirs[1].path().join(&name)),
            "{name}"
        );
    }
    // Every iteration crashes this client (each sends a plan); the
    // minimised reproducer keeps one plan message, and replaying it with
    // `fake-agent` crashes the client again.
    let first = scenario(&documents[0], "fuzz-0");
    assert_eq!(finding_ids(first), ["ROBUST-CRASH"]);
    let script = first["reproducer"].as_str().unwrap();
    let plans = suite_messages(Path::new(script))
        .iter()
        .filter(|m| match m {
            Value::String(raw) => raw.contains("\"sessionUpdate\":\"plan"),
            _ => m
                .pointer("/params/update/sessionUpdate")
                .and_then(Value::as_str)
                .is_some_and(|k| k.starts_with("plan")),
        })
        .count();
    assert_eq!(plans, 1, "{script}");
    let replay = Command::new(BIN)
        .args(["fake-client", "--flaw", "crash-on-plan", "--agent"])
        .arg(format!("{BIN} fake-agent --script {script}"))
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(replay.status.signal(), Some(6), "{replay:?}");
    // A conformant client replays it without crashing.
    let replay = Command::new(BIN)
        .args(["fake-client", "--agent"])
        .arg(format!("{BIN} fake-agent --script {script}"))
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{replay:?}");
}

#[test]
fn memory_past_the_bound_is_robust_memory() {
    if !Path::new("/proc/self/statm").exists() {
        return; // Memory is sampled from /proc (Linux) only.
    }
    // Any process holds more than 1 MiB resident.
    let (status, document) = run_client(&["--scenario", "legacy", "--max-memory", "1"], &[]);
    assert_eq!(status, 1, "{document:#}");
    let legacy = scenario(&document, "legacy");
    assert_eq!(finding_ids(legacy), ["ROBUST-MEMORY"]);
    assert_eq!(legacy["errors"], 0);
    let (status, _) = run_client(&["--scenario", "legacy"], &[]);
    assert_eq!(
        status, 0,
        "the default bound (2048 MiB) leaves the reference client alone"
    );
}

/// A baseline file accepting `rule` in the scenarios `scope` matches.
fn baseline_file(dir: &Path, rule: &str, scope: &str) -> String {
    let path = dir.join(format!("{rule}.toml"));
    std::fs::write(
        &path,
        format!("version = 1\n\n[[expected]]\nrule = \"{rule}\"\nscope = \"{scope}\"\nreason = \"known\"\n"),
    )
    .unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_baseline_turns_a_known_client_failure_into_a_pass_and_a_new_one_still_fails() {
    let dir = tempfile::tempdir().unwrap();
    // Known: the prompt before initialize in `legacy`.
    let known = baseline_file(dir.path(), "SES-BEFORE-INIT", "legacy");
    let (status, document) = run_client(
        &["--scenario", "legacy", "--baseline", &known],
        &["--flaw", "prompt-first"],
    );
    assert_eq!(status, 0, "{document:#}");
    schema_valid(&document);
    let legacy = scenario(&document, "legacy");
    assert_eq!(legacy["result"], "pass", "{legacy:#}");
    assert!(legacy["reason"]
        .as_str()
        .unwrap()
        .contains("baselined: SES-BEFORE-INIT ×1"));
    // The diagnostic is still reported, marked as baselined.
    assert_eq!(rules(&document), ["SES-BEFORE-INIT"]);
    assert_eq!(
        document["diagnostics"][0]["baselined"], true,
        "{document:#}"
    );

    // The same failure in a scenario the baseline does not cover is new: it fails.
    let (status, document) = run_client(
        &[
            "--scenario",
            "legacy",
            "--scenario",
            "edge-sizes",
            "--baseline",
            &known,
        ],
        &["--flaw", "prompt-first"],
    );
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(scenario(&document, "legacy")["result"], "pass");
    let edge = scenario(&document, "edge-sizes");
    assert_eq!(edge["result"], "fail");
    assert!(edge["reason"].as_str().unwrap().contains("SES-BEFORE-INIT"));

    // A baseline entry that matches nothing fails the run (stale), as for `agent`.
    let (status, document) = run_client(&["--scenario", "legacy", "--baseline", &known], &[]);
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(scenario(&document, "legacy")["result"], "pass");
}

#[test]
fn write_baseline_writes_the_baseline_that_makes_the_same_client_run_pass() {
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("client-baseline.toml");
    let written = written.to_str().unwrap();
    let args = ["--scenario", "legacy", "--deny-warnings"];
    let (status, _) = run_client(
        &[&args[..], &["--write-baseline", written]].concat(),
        &["--flaw", "capability-spelling"],
    );
    assert_eq!(status, 1);
    let text = std::fs::read_to_string(written).unwrap();
    assert!(text.contains("rule = \"CAP-RENAMED\""), "{text}");
    assert!(text.contains("scope = \"legacy\""), "{text}");
    let (status, document) = run_client(
        &[&args[..], &["--baseline", written]].concat(),
        &["--flaw", "capability-spelling"],
    );
    assert_eq!(status, 0, "{document:#}");
    // Robustness findings are not rules: a baseline cannot take them.
    let (status, _) = run_client(
        &["--scenario", "legacy", "--baseline", written],
        &["--flaw", "crash-on-plan"],
    );
    assert_eq!(status, 1);
}

#[test]
fn spec_pins_the_revision_the_suite_answers_as_and_judges_by() {
    for (spec, key, operations) in [
        ("draft-2026-05", "id", false),
        ("v1-1.17", "planId", true),
        ("v1", "planId", true),
        ("v2-1.17", "planId", true),
        ("v2", "planId", true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        let version = if spec.starts_with("v2") { "2" } else { "1" };
        let (status, document) = run_client(
            &["--spec", spec, "--out", out],
            &["--protocol-version", version],
        );
        assert_eq!(status, 0, "{spec}: {document:#}");
        let ops = scenario(&document, "plan-operations");
        assert_eq!(ops["revision"], spec);
        // The reference client advertises `plan`: under the draft that is
        // not its capability key (`planCapabilities`), so no plan operations.
        assert_eq!(ops["plan_operations"], operations, "{spec}");
        for s in document["client_scenarios"].as_array().unwrap() {
            // Only the deliberate infos (plan-operations: ID-TYPE-CHANGE,
            // ID-RECREATE) on the suite's side, whatever the revision.
            let deliberate = if s["name"] == "plan-operations" && operations {
                2
            } else {
                0
            };
            assert_eq!(s["suite_diagnostics"], deliberate, "{spec}: {s:#}");
        }
        if operations {
            let transcript =
                std::fs::read_to_string(dir.path().join("plan-operations.jsonl")).unwrap();
            assert!(
                transcript.contains(&format!("\"{key}\":\"plan-main\"")),
                "{spec}"
            );
            // A markdown plan's `path` exists only since schema 1.20.0.
            assert_eq!(
                transcript.contains("\"path\""),
                !spec.ends_with("1.17"),
                "{spec}"
            );
        }
    }
    // The draft's capability spelling gets its plan operations, with `id` keys.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (status, document) = run_client(
        &[
            "--spec",
            "draft-2026-05",
            "--deny-warnings",
            "--scenario",
            "plan-operations",
            "--out",
            out,
        ],
        &["--flaw", "capability-spelling"],
    );
    assert_eq!(status, 0, "{document:#}");
    assert_eq!(
        scenario(&document, "plan-operations")["plan_operations"],
        true
    );
    let transcript = std::fs::read_to_string(dir.path().join("plan-operations.jsonl")).unwrap();
    assert!(transcript.contains("\"id\":\"plan-main\""));
}

#[test]
fn a_client_that_loads_gets_the_plans_replayed_and_is_judged_after_the_replay() {
    // v1: `loadSession` is advertised only in `load`; v2: resume is baseline.
    for version in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        let (status, document) = run_client(
            &["--scenario", "load", "--scenario", "legacy", "--out", out],
            &["--load", "saved-1", "--protocol-version", version],
        );
        assert_eq!(status, 0, "v{version}: {document:#}");
        let load = scenario(&document, "load");
        assert_eq!(load["result"], "pass", "v{version}: {load:#}");
        // The suite's replay (and v2's replay_complete) draws nothing.
        assert_eq!(load["suite_diagnostics"], 0, "v{version}: {load:#}");
        let transcript = std::fs::read_to_string(dir.path().join("load.jsonl")).unwrap();
        let method = if version == "1" {
            "session/load"
        } else {
            "session/resume"
        };
        assert!(transcript.contains(method), "v{version}");
        if version == "1" {
            assert!(transcript.contains("\"loadSession\":true"));
            // Elsewhere the capability is not advertised, so the client creates a session.
            let legacy = std::fs::read_to_string(dir.path().join("legacy.jsonl")).unwrap();
            assert!(!legacy.contains("loadSession") && legacy.contains("session/new"));
        } else {
            assert!(transcript.contains("replay_complete"));
            // v2 as its schema spells it: the session methods advertised, no
            // `tool_call` update, a permission request with a title and a subject.
            assert!(transcript.contains("\"capabilities\":{\"session\":{}}"));
            assert!(transcript.contains("\"sessionUpdate\":\"tool_call_update\""));
            assert!(!transcript.contains("\"sessionUpdate\":\"tool_call\""));
            assert!(transcript.contains("\"subject\":{\"type\":\"tool_call\",\"toolCall\""));
        }
        // The replayed plans come before the load's answer, the turn's after the prompt.
        let replayed = transcript.find("in_progress").unwrap();
        let prompt = transcript.find("session/prompt").unwrap();
        assert!(replayed < prompt, "v{version}");
    }
    // A client that never loads leaves `load` not exercised; the run still passes.
    let (status, document) = run_client(&["--scenario", "load", "--scenario", "legacy"], &[]);
    assert_eq!(status, 0, "{document:#}");
    let load = scenario(&document, "load");
    assert_eq!(load["result"], "not_exercised");
    assert!(load["reason"]
        .as_str()
        .unwrap()
        .contains("did not call session/load"));
}

#[test]
fn a_load_the_agent_did_not_advertise_is_ses_load_not_advertised() {
    let (status, document) = run_client(
        &["--scenario", "legacy", "--scenario", "load"],
        &["--flaw", "load-without-capability"],
    );
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(rules(&document), ["SES-LOAD-NOT-ADVERTISED"]);
    assert_eq!(scenario(&document, "legacy")["result"], "fail");
    // Where the suite advertised loadSession the same load is conformant.
    assert_eq!(scenario(&document, "load")["result"], "pass");
}

#[test]
fn a_reproducer_replays_raw_lines_byte_for_byte() {
    // A legacy plan whose entry repeats `content`: no JSON value holds it,
    // so the script carries the line raw; the reference client (serde_json:
    // the last member wins) shows the second.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("raw.jsonl");
    let raw = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"S","update":{"sessionUpdate":"plan","entries":[{"content":"first","content":"second","priority":"high","status":"pending"}]}}}"#;
    let lines = [
        r#"{"direction":"client_to_agent","message":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}}"#.to_owned(),
        r#"{"direction":"agent_to_client","message":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}}"#.to_owned(),
        r#"{"direction":"client_to_agent","message":{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}}"#.to_owned(),
        r#"{"direction":"agent_to_client","message":{"jsonrpc":"2.0","id":2,"result":{"sessionId":"S"}}}"#.to_owned(),
        r#"{"direction":"client_to_agent","message":{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"S","prompt":[]}}}"#.to_owned(),
        serde_json::json!({"direction": "agent_to_client", "raw": raw}).to_string(),
        r#"{"direction":"agent_to_client","message":{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}}"#.to_owned(),
    ];
    std::fs::write(&script, lines.join("\n") + "\n").unwrap();
    let replay = Command::new(BIN)
        .args(["fake-client", "--agent"])
        .arg(format!("{BIN} fake-agent --script {}", script.display()))
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{replay:?}");
    let shown = String::from_utf8_lossy(&replay.stdout);
    assert!(shown.contains("[pending] second"), "{shown}");
    assert!(!shown.contains("first"), "{shown}");
}
