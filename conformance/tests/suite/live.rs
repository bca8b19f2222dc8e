//! End-to-end tests of the live modes over real pipes: the built binary
//! runs as the client (`agent`), the tap (`tap`) and the agent
//! (`fake-agent`, playing the scripts in corpus/live/).
#![cfg(unix)]

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_acp-plan");

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/live")
        .join(name)
}

fn fake_agent(script: &Path) -> Vec<String> {
    vec![
        BIN.into(),
        "fake-agent".into(),
        "--script".into(),
        script.display().to_string(),
    ]
}

/// `acp-plan agent --format json ARGS -- AGENT...`: exit status, document, stderr.
fn run_agent(args: &[&str], agent: &[String]) -> (i32, Value, String) {
    let output = Command::new(BIN)
        .arg("agent")
        .args(["--format", "json"])
        .args(args)
        .arg("--")
        .args(agent)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let document = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "agent output is not JSON ({e}): {}\nstderr: {stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    (output.status.code().unwrap_or(-1), document, stderr)
}

fn scenario<'a>(document: &'a Value, name: &str) -> &'a Value {
    document["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no scenario {name} in {document:#}"))
}

/// Rule ids of the diagnostics reported for one scenario's transcript.
fn rules_of(document: &Value, name: &str) -> BTreeSet<String> {
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"] == name)
        .map(|d| d["rule"].as_str().unwrap().to_owned())
        .collect()
}

const LIVE: [&str; 4] = [
    "no-capability",
    "capability",
    "capability-null",
    "other-revision-key",
];

#[test]
fn conformant_scripts_pass_every_scenario() {
    let cases: &[(&str, &[&str], &[&str])] = &[
        (
            "conformant-legacy.jsonl",
            &[],
            &[
                "no-capability",
                "capability",
                "capability-null",
                "other-revision-key",
                "load",
            ],
        ),
        (
            "conformant-legacy.jsonl",
            &["--spec", "draft-2026-05"],
            &[
                "no-capability",
                "capability",
                "capability-null",
                "other-revision-key",
                "load",
            ],
        ),
        (
            "conformant-plan-ops.jsonl",
            &["--scenario", "capability", "--scenario", "load"],
            &["capability", "load"],
        ),
        (
            "conformant-v2.jsonl",
            &["--spec", "v2"],
            &["capability", "load"],
        ),
    ];
    for (script, args, expected) in cases {
        let (status, document, stderr) = run_agent(args, &fake_agent(&corpus(script)));
        let ran: Vec<&str> = document["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(&ran, expected, "{script} {args:?}");
        for name in *expected {
            let s = scenario(&document, name);
            assert_eq!(s["result"], "pass", "{script} {args:?}: {s}\n{stderr}");
            assert_eq!(s["errors"], 0, "{script} {args:?}: {s}");
            assert_eq!(s["transcript"], Value::Null);
        }
        assert_eq!(status, 0, "{script} {args:?}: {document:#}");
        assert_eq!(document["mode"], "agent");
        assert_eq!(document["verdict"], "conformant");
        assert_eq!(document["result"], "pass");
    }
}

#[test]
fn broken_scripts_fail_with_their_rule() {
    // (script, options, rule, scenarios that must fail with it)
    let cases: &[(&str, &[&str], &str, &[&str])] = &[
        (
            "broken-trace.jsonl",
            &["--max-depth", "16"],
            "TRACE-LIMIT",
            &LIVE,
        ),
        ("broken-env.jsonl", &[], "ENV-VERSION", &LIVE),
        (
            "broken-ses.jsonl",
            &["--deny-warnings"],
            "SES-UNKNOWN-SESSION",
            &LIVE,
        ),
        (
            "broken-cap.jsonl",
            &[],
            "CAP-PLAN-OPS",
            &["no-capability", "capability-null", "other-revision-key"],
        ),
        ("broken-shape.jsonl", &[], "SHAPE-STATUS", &LIVE),
        (
            "broken-id.jsonl",
            // The releases before schema 1.20.0 warn about the removal.
            &[
                "--spec",
                "v1-1.17",
                "--deny-warnings",
                "--scenario",
                "capability",
            ],
            "ID-REMOVE-UNKNOWN",
            &["capability"],
        ),
        (
            "broken-full.jsonl",
            &["--deny-warnings"],
            "FULL-DELTA",
            &LIVE,
        ),
        ("broken-load.jsonl", &[], "LOAD-REPLAY-STATE", &["load"]),
        (
            "broken-resume-v2.jsonl",
            &["--spec", "v2"],
            "LOAD-REPLAY-STATE",
            &["load"],
        ),
        (
            "load-replay-without-plans.jsonl",
            &["--deny-warnings"],
            "LOAD-REPLAY-MISSING",
            &["load"],
        ),
        (
            "load-replay-without-plans-v2.jsonl",
            &["--spec", "v2", "--deny-warnings"],
            "LOAD-REPLAY-MISSING",
            &["load"],
        ),
    ];
    for (script, args, rule, failing) in cases {
        let (status, document, _) = run_agent(args, &fake_agent(&corpus(script)));
        assert_eq!(status, 1, "{script}: {document:#}");
        // The checker's own limits make the result incomplete, not non-conformant.
        let verdict = if *rule == "TRACE-LIMIT" {
            "incomplete"
        } else {
            "not_conformant"
        };
        assert_eq!(document["verdict"], verdict);
        assert_eq!(document["result"], "fail");
        for s in document["scenarios"].as_array().unwrap() {
            let name = s["name"].as_str().unwrap();
            if failing.contains(&name) {
                assert_eq!(s["result"], "fail", "{script} {name}: {s}");
                assert!(
                    rules_of(&document, name).contains(*rule),
                    "{script} {name}: expected {rule} in {s}\n{document:#}"
                );
                assert!(s["reason"].as_str().unwrap().contains(rule), "{s}");
            } else {
                assert_ne!(s["result"], "fail", "{script} {name}: {s}");
            }
        }
    }
}

/// v2 has no `session/load`: `load` resumes with `replayFrom: {"type": "start"}`
/// and cites v2's own sentence about that replay.
#[test]
fn the_v2_load_scenario_resumes_from_the_start_and_cites_v2() {
    let (status, document, _) = run_agent(
        &["--spec", "v2", "--scenario", "load"],
        &fake_agent(&corpus("broken-resume-v2.jsonl")),
    );
    assert_eq!(status, 1, "{document:#}");
    let replay: Vec<&Value> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"] == "load" && d["rule"] == "LOAD-REPLAY-STATE")
        .collect();
    assert!(!replay.is_empty(), "{document:#}");
    for d in replay {
        assert_eq!(
            d["citation"]["document"], "ACP Session Setup (protocol v2)",
            "{d}"
        );
        assert!(d["citation"]["text"]
            .as_str()
            .unwrap()
            .starts_with("When replayFrom.type is \"start\""));
    }
    // An agent that answers protocol version 1 to a v2 client is not asked
    // for v2's session/resume.
    let dir = tempfile::tempdir().unwrap();
    let v1_answer: Vec<Value> = std::fs::read_to_string(corpus("conformant-v2.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|mut record| {
            if record["message"]["result"]["protocolVersion"] == 2 {
                record["message"]["result"]["protocolVersion"] = json!(1);
            }
            record
        })
        .collect();
    let script = write_script(dir.path(), "v1-answer.jsonl", &v1_answer);
    let (_, document, _) = run_agent(
        &["--spec", "v2", "--scenario", "load"],
        &fake_agent(&script),
    );
    let load = scenario(&document, "load");
    assert_eq!(load["result"], "not_exercised", "{load}");
    assert_eq!(load["transcript"], Value::Null);
    assert!(
        load["reason"]
            .as_str()
            .unwrap()
            .contains("did not answer protocol version 2"),
        "{load}"
    );
}

#[test]
fn warnings_fail_only_under_deny_warnings() {
    for (script, spec, scenario_name) in [
        ("broken-full.jsonl", "auto", "no-capability"),
        // ID-REMOVE-UNKNOWN: the releases before schema 1.20.0 only.
        ("broken-id.jsonl", "v1-1.17", "capability"),
        ("load-replay-without-plans.jsonl", "auto", "load"),
    ] {
        let (status, document, _) = run_agent(
            &["--spec", spec, "--scenario", scenario_name],
            &fake_agent(&corpus(script)),
        );
        let s = scenario(&document, scenario_name);
        assert_eq!(s["result"], "pass", "{script}: {s}");
        assert!(s["warnings"].as_u64().unwrap() >= 1, "{s}");
        assert_eq!(status, 0);
    }
}

/// What `check --format json` says about a transcript, and what `agent`
/// said about the same scenario, must agree.
#[test]
fn transcripts_recheck_with_the_same_result() {
    let cases: &[(&str, &[&str])] = &[
        ("conformant-legacy.jsonl", &[]),
        ("conformant-plan-ops.jsonl", &[]),
        ("broken-shape.jsonl", &[]),
        ("broken-cap.jsonl", &[]),
        ("broken-trace.jsonl", &["--max-depth", "16"]),
        ("broken-full.jsonl", &[]),
    ];
    let comparable = |d: &Value| {
        let mut d = d.clone();
        d.as_object_mut().unwrap().remove("file");
        d
    };
    for (script, limits) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().display().to_string();
        let mut args = vec!["--out", out.as_str()];
        args.extend_from_slice(limits);
        let (_, document, _) = run_agent(&args, &fake_agent(&corpus(script)));
        for s in document["scenarios"].as_array().unwrap() {
            let name = s["name"].as_str().unwrap();
            let Some(path) = s["transcript"].as_str() else {
                continue;
            };
            assert_eq!(Path::new(path), dir.path().join(format!("{name}.jsonl")));
            let trace = document["traces"]
                .as_array()
                .unwrap()
                .iter()
                .find(|t| t["file"] == name)
                .unwrap();
            let mut check = Command::new(BIN);
            check.args(["check", "--format", "json"]).args(*limits);
            if name == "other-revision-key" {
                // Detection would read the deliberately renamed key as the draft's.
                check.args(["--spec", trace["spec"].as_str().unwrap()]);
            }
            let output = check.arg(path).output().unwrap();
            let rechecked: Value = serde_json::from_slice(&output.stdout).unwrap();
            let expected: Vec<Value> = document["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["file"] == name)
                .map(comparable)
                .collect();
            // The client's own lines (the other revision's key, on purpose)
            // are left out of the agent's report, and counted apart.
            let own = s["suite_diagnostics"].as_u64().unwrap();
            let (suite, got): (Vec<Value>, Vec<Value>) = rechecked["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(comparable)
                .partition(|d| name == "other-revision-key" && d["rule"] == "CAP-RENAMED");
            assert_eq!(got, expected, "{script} {name}");
            assert_eq!(suite.len() as u64, own, "{script} {name}");
            let summary = &rechecked["traces"][0];
            for key in ["spec", "lines", "messages"] {
                assert_eq!(summary[key], trace[key], "{script} {name}: {key}");
            }
            let found = |t: &Value| {
                ["errors", "warnings", "infos"]
                    .iter()
                    .map(|k| t[*k].as_u64().unwrap())
                    .sum::<u64>()
            };
            assert_eq!(found(summary), found(trace) + own, "{script} {name}");
            assert!(summary["messages"].as_u64().unwrap() > 4, "{summary}");
        }
    }
}

fn write_script(dir: &Path, name: &str, lines: &[Value]) -> PathBuf {
    let path = dir.join(name);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn envelope(direction: &str, message: Value) -> Value {
    json!({"direction": direction, "message": message})
}

/// initialize, session/new and a prompt turn whose agent side is `turn`.
fn session_script(turn: &[Value]) -> Vec<Value> {
    let c = |m| envelope("client_to_agent", m);
    let a = |m| envelope("agent_to_client", m);
    let mut lines = vec![
        c(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}),
        ),
        a(json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": 1}})),
        c(
            json!({"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": "/", "mcpServers": []}}),
        ),
        a(json!({"jsonrpc": "2.0", "id": 2, "result": {"sessionId": "s"}})),
        c(
            json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": {"sessionId": "s", "prompt": []}}),
        ),
    ];
    lines.extend(turn.iter().cloned().map(a));
    lines.push(a(
        json!({"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "end_turn"}}),
    ));
    lines
}

/// The client messages of a transcript that answer the agent's request `id`.
fn answers_to(transcript: &Path, id: &Value) -> Vec<Value> {
    std::fs::read_to_string(transcript)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["direction"] == "client_to_agent" && &l["message"]["id"] == id)
        .map(|l| l["message"].clone())
        .collect()
}

#[test]
fn the_client_answers_agent_requests_as_configured() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(
        dir.path(),
        "requests.jsonl",
        &session_script(&[
            json!({"jsonrpc": "2.0", "id": "read", "method": "fs/read_text_file", "params": {"sessionId": "s", "path": "/etc/hostname"}}),
            json!({"jsonrpc": "2.0", "id": "ask", "method": "session/request_permission", "params": {"sessionId": "s", "toolCall": {"toolCallId": "t"}, "options": [
                {"optionId": "no", "name": "No", "kind": "reject_once"},
                {"optionId": "yes", "name": "Yes", "kind": "allow_once"}]}}),
            json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []}}}),
        ]),
    );
    for (permission, expected) in [
        ("allow", json!({"outcome": "selected", "optionId": "yes"})),
        ("reject", json!({"outcome": "selected", "optionId": "no"})),
        ("cancel", json!({"outcome": "cancelled"})),
        (
            "option:no",
            json!({"outcome": "selected", "optionId": "no"}),
        ),
    ] {
        let out = dir.path().join(permission.replace(':', "-"));
        let (status, document, _) = run_agent(
            &[
                "--scenario",
                "capability",
                "--permission",
                permission,
                "--out",
                out.to_str().unwrap(),
            ],
            &fake_agent(&script),
        );
        assert_eq!(status, 0, "{document:#}");
        let transcript = out.join("capability.jsonl");
        let read = answers_to(&transcript, &json!("read"));
        assert_eq!(read.len(), 1);
        assert_eq!(read[0]["error"]["code"], -32601, "{read:?}");
        let ask = answers_to(&transcript, &json!("ask"));
        assert_eq!(ask.len(), 1);
        assert_eq!(ask[0]["result"]["outcome"], expected, "{permission}");
    }
}

#[test]
fn nothing_exercised_fails_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let script = write_script(dir.path(), "quiet.jsonl", &session_script(&[]));
    let (status, document, _) = run_agent(&[], &fake_agent(&script));
    assert_eq!(status, 1);
    // Nothing was wrong with what the agent sent; the gate fails all the same.
    assert_eq!(document["verdict"], "conformant");
    assert_eq!(document["result"], "fail");
    for s in document["scenarios"].as_array().unwrap() {
        assert_eq!(s["result"], "not_exercised", "{s}");
    }
    let load = scenario(&document, "load");
    assert_eq!(load["transcript"], Value::Null);
    assert!(load["reason"].as_str().unwrap().contains("loadSession"));
    let (status, document, _) = run_agent(&["--allow-unexercised"], &fake_agent(&script));
    assert_eq!(status, 0);
    assert_eq!(document["result"], "pass");
}

#[test]
fn usage_problems_exit_2() {
    let status = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(
        status(&[
            "agent",
            "--spec",
            "v2",
            "--scenario",
            "no-capability",
            "--",
            "true"
        ]),
        Some(2)
    );
    assert_eq!(
        status(&["agent", "--scenario", "nope", "--", "true"]),
        Some(2)
    );
    assert_eq!(status(&["agent"]), Some(2));
    assert_eq!(
        status(&["agent", "--", "/nonexistent/acp-agent-binary"]),
        Some(2)
    );
    assert_eq!(
        status(&["fake-agent", "--script", "/nonexistent/script.jsonl"]),
        Some(2)
    );
    assert_eq!(
        status(&["tap", "--", "/nonexistent/acp-agent-binary"]),
        Some(2)
    );
}

fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

/// Whether `pid` is gone (or a zombie nobody has reaped yet).
fn is_dead(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn a_hung_agent_times_out_and_its_whole_group_dies() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("child.pid");
    // The agent starts a long-lived child, then never answers.
    let agent = sh(&format!(
        "sleep 600 & echo $! > {}; echo agent-is-up >&2; exec sleep 600",
        pidfile.display()
    ));
    let started = Instant::now();
    let (status, document, stderr) =
        run_agent(&["--scenario", "no-capability", "--timeout", "1s"], &agent);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(status, 1);
    let s = scenario(&document, "no-capability");
    assert_eq!(s["result"], "fail");
    let reason = s["reason"].as_str().unwrap();
    assert!(
        reason.contains("timed out") && reason.contains("initialize"),
        "{reason}"
    );
    assert!(
        stderr.contains("agent-is-up"),
        "stderr tail missing: {stderr}"
    );
    assert!(
        stderr.contains("initialize"),
        "last messages missing: {stderr}"
    );
    let child: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Killing is asynchronous; the guard only bounds a failure.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !is_dead(child) {
        assert!(Instant::now() < deadline, "orphan {child} survived the run");
        thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn crashes_and_garbage_are_reported_with_the_stderr_tail() {
    let (status, document, stderr) = run_agent(
        &["--scenario", "capability"],
        &sh("echo 'fatal: no model configured' >&2; exit 3"),
    );
    assert_eq!(status, 1);
    let reason = scenario(&document, "capability")["reason"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(reason.contains("closed its stdout"), "{reason}");
    assert!(stderr.contains("fatal: no model configured"), "{stderr}");
    assert!(stderr.contains("exit status 3"), "{stderr}");

    let (status, document, stderr) = run_agent(
        &["--scenario", "capability"],
        &sh("echo 'log line' >&2; echo 'Starting agent v1.0...'; exec cat > /dev/null"),
    );
    assert_eq!(status, 1);
    let s = scenario(&document, "capability");
    assert!(
        s["reason"].as_str().unwrap().contains("not a JSON object"),
        "{s}"
    );
    assert!(rules_of(&document, "capability").contains("ENV-JSON"));
    assert!(
        stderr.contains("log line") && stderr.contains("Starting agent"),
        "{stderr}"
    );
}

#[test]
fn the_runner_and_the_tap_see_the_same_messages() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("tap.jsonl");
    let report = dir.path().join("tap-report.txt");
    let mut agent = vec![
        BIN.to_owned(),
        "tap".into(),
        "--trace".into(),
        trace.display().to_string(),
        "--report".into(),
        report.display().to_string(),
        "--".into(),
    ];
    agent.extend(fake_agent(&corpus("conformant-legacy.jsonl")));
    let out = dir.path().join("out");
    let (status, document, _) = run_agent(
        &[
            "--scenario",
            "no-capability",
            "--out",
            out.to_str().unwrap(),
        ],
        &agent,
    );
    assert_eq!(status, 0, "{document:#}");
    let messages = |path: &Path| -> Vec<(Value, Value)> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|l| (l["direction"].clone(), l["message"].clone()))
            .collect()
    };
    let runner = messages(&out.join("no-capability.jsonl"));
    assert!(runner.len() > 8);
    assert_eq!(messages(&trace), runner);
    let report = std::fs::read_to_string(&report).unwrap();
    assert!(report.contains("verdict: conformant"), "{report}");
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Megabytes of traffic: JSON-RPC lines (some over 1 MB), random bytes
/// (newlines, invalid UTF-8), empty lines, and no newline at the end.
fn random_traffic(rng: &mut Rng) -> Vec<u8> {
    let mut data = Vec::new();
    let plan = |text: String| json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": [{"content": text, "priority": "high", "status": "pending"}]}}});
    for i in 0..300 {
        let letters = |rng: &mut Rng, n: u64| -> String {
            (0..n)
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect()
        };
        if i % 60 == 0 {
            // A line over 1 MB.
            let n = 1_100_000 + rng.below(200_000);
            let text = letters(rng, n);
            data.extend(plan(text).to_string().into_bytes());
            data.push(b'\n');
            continue;
        }
        match rng.below(4) {
            0 => {
                let n = rng.below(4000);
                let text = letters(rng, n);
                data.extend(plan(text).to_string().into_bytes());
                data.push(b'\n');
            }
            1 => data.extend((0..rng.below(20_000)).map(|_| rng.next() as u8)),
            2 => data.extend(b"\n\r\n"),
            _ => {
                data.extend(format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"result\":{{}}}}\n").bytes())
            }
        }
    }
    data.extend(b"{\"unterminated\": tru");
    data
}

/// Feed `input` to `tap ARGS -- AGENT` in random-sized writes; return its
/// stdout, exit status and the report file's text.
fn through_tap(
    tap_args: &[&str],
    agent: &[String],
    input: Vec<u8>,
    seed: u64,
) -> (Vec<u8>, Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.txt");
    let mut child = Command::new(BIN)
        .arg("tap")
        .arg("--report")
        .arg(&report)
        .args(tap_args)
        .arg("--")
        .args(agent)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let mut rng = Rng(seed);
        let mut rest = &input[..];
        while !rest.is_empty() {
            let n = (1 + rng.below(100_000) as usize).min(rest.len());
            if stdin.write_all(&rest[..n]).is_err() {
                break;
            }
            rest = &rest[n..];
        }
    });
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    writer.join().unwrap();
    let output = child.wait_with_output().unwrap();
    let report = std::fs::read_to_string(&report).unwrap_or_default();
    (stdout, output, report)
}

#[test]
fn the_tap_is_byte_exact_on_large_random_traffic() {
    for (seed, backlog) in [(0x9E37_79B9_7F4A_7C15, "16777216"), (42, "1")] {
        let traffic = random_traffic(&mut Rng(seed));
        assert!(traffic.len() > 4_000_000, "{}", traffic.len());
        let (stdout, output, report) = through_tap(
            &["--max-backlog-bytes", backlog],
            &["cat".to_owned()],
            traffic.clone(),
            seed,
        );
        assert_eq!(output.status.code(), Some(0), "{report}");
        assert_eq!(stdout.len(), traffic.len(), "backlog {backlog}");
        assert!(stdout == traffic, "bytes differ (backlog {backlog})");
        assert!(report.contains("verdict:"), "summary missing: {report}");
    }
}

#[test]
fn the_tap_survives_the_agent_dying_mid_line() {
    let partial = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","upd"#;
    let (stdout, output, report) = through_tap(
        &[],
        &sh(&format!("printf '%s' '{partial}'; kill -9 $$")),
        Vec::new(),
        1,
    );
    assert_eq!(stdout, partial.as_bytes());
    assert_eq!(output.status.code(), Some(128 + 9));
    assert!(report.contains("ENV-JSON"), "{report}");
    let (_, output, _) = through_tap(&[], &sh("exit 7"), Vec::new(), 1);
    assert_eq!(output.status.code(), Some(7));
}

#[test]
fn the_tap_passes_stderr_through_and_forwards_signals() {
    let mut child = Command::new(BIN)
        .args(["tap", "--"])
        .args(sh(
            "trap 'echo got-term; echo bye >&2; exit 42' TERM; echo ready; while :; do sleep 0.05; done",
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut ready = [0u8; 6];
    stdout.read_exact(&mut ready).unwrap();
    assert_eq!(&ready, b"ready\n");
    let tap = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: sending a signal to our own child.
    assert_eq!(unsafe { libc::kill(tap, libc::SIGTERM) }, 0);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(rest, "got-term\n");
    assert_eq!(output.status.code(), Some(42));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bye"), "{stderr}");
    assert!(stderr.contains("[acp-plan tap] verdict:"), "{stderr}");
}

#[test]
fn the_tap_writes_a_trace_that_check_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.jsonl");
    let report = dir.path().join("report.json");
    let mut tap = Command::new(BIN)
        .args(["tap", "--format", "json", "--trace"])
        .arg(&trace)
        .arg("--report")
        .arg(&report)
        .arg("--")
        .args(fake_agent(&corpus("conformant-legacy.jsonl")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = tap.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(tap.stdout.take().unwrap());
    // A client that waits for each response, as the protocol wants.
    for request in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}"#,
    ] {
        writeln!(stdin, "{request}").unwrap();
        let mut response = String::new();
        std::io::BufRead::read_line(&mut stdout, &mut response).unwrap();
        let response: Value = serde_json::from_str(&response).unwrap();
        assert!(response.get("result").is_some(), "{response}");
    }
    drop(stdin);
    assert_eq!(tap.wait().unwrap().code(), Some(0));
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(document["mode"], "tap");
    assert_eq!(document["verdict"], "conformant", "{document:#}");
    assert_eq!(document["summary"]["messages"], 4);
    let check = Command::new(BIN)
        .args(["check", "--format", "json"])
        .arg(&trace)
        .output()
        .unwrap();
    let rechecked: Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(rechecked["summary"], document["summary"]);
    assert_eq!(rechecked["verdict"], "conformant");
}

#[test]
fn the_human_report_shows_diagnostics_results_and_the_gate() {
    let output = Command::new(BIN)
        .args([
            "agent",
            "--scenario",
            "no-capability",
            "--scenario",
            "capability",
            "--",
        ])
        .args(fake_agent(&corpus("broken-cap.jsonl")))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "error[CAP-PLAN-OPS]: `plan_update` sent, but the client did not advertise clientCapabilities.plan",
        "  --> no-capability:",
        "scenarios:",
        "  no-capability        fail           1 error from the agent: CAP-PLAN-OPS ×1",
        "  capability           pass           checked 1 plan message(s): plan_update ×1",
        "no-capability: 1 error from the agent: CAP-PLAN-OPS ×1\n  agent: exit status 0\n",
        "  last messages:\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // The outcome is stated once, at the end.
    assert!(!text.contains("verdict:"), "{text}");
    assert_eq!(text.matches("result:").count(), 1, "{text}");
    assert!(
        text.ends_with(
            "result: fail (1 passed, 1 failed, 0 not exercised; 1 error, 0 warnings from the agent)\n"
        ),
        "{text}"
    );
}

#[test]
fn agent_and_tap_documents_follow_the_report_schema() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/report.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    let assert_valid = |document: &Value, what: &str| {
        let errors: Vec<String> = validator
            .iter_errors(document)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(
            errors.is_empty(),
            "{what}:\n{}\n{document:#}",
            errors.join("\n")
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // Passing, failing and not-exercised scenarios, transcripts written or not.
    for (script, args) in [
        (
            "conformant-legacy.jsonl",
            vec!["--out", out.to_str().unwrap()],
        ),
        ("broken-cap.jsonl", vec!["--show-state"]),
        ("broken-load.jsonl", vec![]),
        (
            "broken-cap.jsonl",
            vec!["--baseline", "../corpus/live/baselines/broken-cap.toml"],
        ),
    ] {
        let (_, document, _) = run_agent(&args, &fake_agent(&corpus(script)));
        assert_eq!(document["mode"], "agent");
        assert_valid(&document, script);
    }
    let (_, document, _) = run_agent(&["--timeout", "200ms"], &sh("exec sleep 600"));
    assert_valid(&document, "a hung agent");

    let report = dir.path().join("tap.json");
    let output = Command::new(BIN)
        .args(["tap", "--format", "json", "--report"])
        .arg(&report)
        .arg("--")
        .args(sh(
            "printf '{\"jsonrpc\":\"2.0\",\"method\":\"session/update\"}\\n'",
        ))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(document["mode"], "tap");
    assert_valid(&document, "tap");
}

/// A baseline accepts failures by scenario: a scenario whose only failures
/// it accepts passes (its diagnostics still reported, marked baselined, in
/// every format), and an entry that matches nothing fails the run.
#[test]
fn a_baseline_accepts_an_agents_failures_by_scenario() {
    let baseline =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/live/baselines/broken-cap.toml");
    let baseline = baseline.to_str().unwrap();
    let agent = fake_agent(&corpus("broken-cap.jsonl"));
    // broken-cap fails these three scenarios with CAP-PLAN-OPS; the
    // baseline accepts it in two of them (one by a glob).
    let (status, document, _) = run_agent(&["--baseline", baseline], &agent);
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(scenario(&document, "no-capability")["result"], "pass");
    assert!(scenario(&document, "no-capability")["reason"]
        .as_str()
        .unwrap()
        .ends_with("; baselined: CAP-PLAN-OPS ×1"));
    assert_eq!(scenario(&document, "capability-null")["result"], "pass");
    assert_eq!(scenario(&document, "other-revision-key")["result"], "fail");
    let marks: Vec<(String, bool)> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["baselined"] == true,
            )
        })
        .collect();
    assert_eq!(
        marks,
        [
            ("no-capability".to_owned(), true),
            ("capability-null".to_owned(), true),
            ("other-revision-key".to_owned(), false),
        ]
    );
    assert_eq!(document["baseline"]["accepted"]["errors"], 2);

    // Without the scenario it does not accept, the run passes.
    let only = [
        "--baseline",
        baseline,
        "--scenario",
        "no-capability",
        "--scenario",
        "capability-null",
        "--scenario",
        "capability",
    ];
    let (status, document, _) = run_agent(&only, &agent);
    assert_eq!(status, 0, "{document:#}");
    assert_eq!(document["result"], "pass");
    // Conformance is a fact about the agent; the gate is what the baseline allows.
    assert_eq!(document["verdict"], "not_conformant");

    // An entry that covers nothing (the agent was fixed, or its scenario did
    // not run) fails the run, in every format.
    let one = ["--baseline", baseline, "--scenario", "no-capability"];
    let (status, document, _) = run_agent(&one, &agent);
    assert_eq!(status, 1, "{document:#}");
    assert_eq!(scenario(&document, "no-capability")["result"], "pass");
    assert_eq!(document["baseline"]["entries"][1]["status"], "unused");
    let (status, text) = agent_output("human", &one, &agent);
    assert_eq!(status, 1);
    assert!(
        text.contains(
            "error[baseline]: baseline entry matches no failure: CAP-PLAN-OPS in capability-*"
        ),
        "{text}"
    );
    assert!(text.contains("error[CAP-PLAN-OPS] (baselined)"), "{text}");
    assert!(text.ends_with("result: fail (1 passed, 0 failed, 0 not exercised; 1 error, 0 warnings from the agent; 1 error and 0 warnings baselined, 1 baseline entry expired or matching nothing)\n"), "{text}");
    let (status, text) = agent_output("github", &one, &agent);
    assert_eq!(status, 1);
    assert!(
        text.contains("::notice title=CAP-PLAN-OPS (baselined) (no-capability)::"),
        "{text}"
    );
    assert!(text.contains("title=acp-plan baseline::baseline entry for CAP-PLAN-OPS in capability-* matches no failure"), "{text}");
    assert!(!text.contains("::error title=CAP-PLAN-OPS"), "{text}");

    let (status, xml) = agent_output("junit", &one, &agent);
    assert_eq!(status, 1);
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit");
    use quick_junit::TestCaseStatus as S;
    let case = |suite: usize, name: &str| {
        report.test_suites[suite]
            .test_cases
            .iter()
            .find(|c| c.name.as_str() == name)
            .unwrap_or_else(|| panic!("no case {name} in {xml}"))
            .status
            .clone()
    };
    assert!(
        matches!(case(0, "scenario no-capability"), S::Success { .. }),
        "{xml}"
    );
    let S::Skipped { message, .. } = case(0, "CAP-PLAN-OPS") else {
        panic!("CAP-PLAN-OPS should be skipped as baselined: {xml}");
    };
    assert_eq!(
        message.as_deref(),
        Some("baselined (1 error): the capability check lands in the next release")
    );
    assert_eq!(report.test_suites.len(), 2, "{xml}");
    assert!(
        report.test_suites[1].name.as_str().starts_with("baseline "),
        "{xml}"
    );
    assert!(
        matches!(case(1, "CAP-PLAN-OPS in no-capability"), S::Success { .. }),
        "{xml}"
    );
    assert!(
        matches!(
            case(1, "CAP-PLAN-OPS in capability-*"),
            S::NonSuccess { .. }
        ),
        "{xml}"
    );

    let (status, text) = agent_output("sarif", &one, &agent);
    assert_eq!(status, 1);
    let document: Value = serde_json::from_str(&text).unwrap();
    assert_valid_sarif(&document);
    let run = &document["runs"][0];
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "CAP-PLAN-OPS");
    assert_eq!(result["suppressions"][0]["status"], "accepted");
    assert_eq!(
        run["invocations"][0]["toolConfigurationNotifications"][0]["descriptor"]["id"],
        "baseline-unused"
    );
    assert_eq!(run["properties"]["result"], "fail");

    // A baseline that cannot be used is a usage error before anything runs.
    let (status, _) = agent_output("json", &["--baseline", "no-such-baseline.toml"], &agent);
    assert_eq!(status, 2);
}

/// `agent --write-baseline` writes the baseline that makes the same run
/// pass: one entry per failing rule and scenario, scoped by scenario name.
#[test]
fn agent_writes_the_baseline_that_makes_its_run_pass() {
    let dir = tempfile::tempdir().unwrap();
    let written = dir.path().join("acp-plan-baseline.toml");
    let written = written.to_str().unwrap();
    let agent = fake_agent(&corpus("broken-cap.jsonl"));
    let (status, _, _) = run_agent(&["--write-baseline", written], &agent);
    assert_eq!(status, 1, "the run itself still fails");
    let text = std::fs::read_to_string(written).unwrap();
    let scopes: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("scope = "))
        .collect();
    assert_eq!(
        scopes,
        [
            "\"no-capability\"",
            "\"capability-null\"",
            "\"other-revision-key\""
        ],
        "{text}"
    );
    assert_eq!(text.matches("rule = \"CAP-PLAN-OPS\"").count(), 3, "{text}");
    let (status, document, _) = run_agent(&["--baseline", written], &agent);
    assert_eq!(status, 0, "{document:#}");
    assert_eq!(document["baseline"]["accepted"]["errors"], 3);
    // A conformant agent: nothing to accept, and a valid, empty baseline.
    let clean = fake_agent(&corpus("conformant-legacy.jsonl"));
    let (status, _, _) = run_agent(&["--write-baseline", written], &clean);
    assert_eq!(status, 0);
    let text = std::fs::read_to_string(written).unwrap();
    assert!(text.contains("# Nothing to accept"), "{text}");
    let (status, _, _) = run_agent(&["--baseline", written], &clean);
    assert_eq!(status, 0);
    // A path that cannot be written is a usage error before anything runs.
    let (status, _) = agent_output(
        "json",
        &["--write-baseline", "/nonexistent-dir/baseline.toml"],
        &agent,
    );
    assert_eq!(status, 2);
}

/// `acp-plan agent --format FORMAT ARGS -- AGENT...`: exit status and stdout.
fn agent_output(format: &str, args: &[&str], agent: &[String]) -> (i32, String) {
    let output = Command::new(BIN)
        .args(["agent", "--format", format])
        .args(args)
        .arg("--")
        .args(agent)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn sarif_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::options().build(&schema).unwrap()
}

/// Every schema error of a SARIF document, each at its place.
fn assert_valid_sarif(document: &Value) {
    let errors: Vec<String> = sarif_validator()
        .iter_errors(document)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn agent_junit_has_a_suite_per_run_and_a_case_per_scenario_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (status, xml) = agent_output(
        "junit",
        &["--out", out],
        &fake_agent(&corpus("broken-cap.jsonl")),
    );
    assert_eq!(status, 1);
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("well-formed JUnit");
    assert_eq!(report.test_suites.len(), 1, "{xml}");
    let suite = &report.test_suites[0];
    assert!(suite.name.as_str().starts_with("acp-plan agent: "), "{xml}");
    let case = |name: &str| {
        suite
            .test_cases
            .iter()
            .find(|c| c.name.as_str() == name)
            .unwrap_or_else(|| panic!("no case {name} in {xml}"))
    };
    use quick_junit::TestCaseStatus as S;
    let failed = case("scenario no-capability");
    let S::NonSuccess { description, .. } = &failed.status else {
        panic!("no-capability should fail: {xml}");
    };
    let description = description.as_deref().unwrap_or_default();
    for expected in [
        "CAP-PLAN-OPS ×1",
        "no-capability.jsonl:7",
        "agent: exit status 0",
        "last messages:",
        "plan_update",
    ] {
        assert!(
            description.contains(expected),
            "{expected:?} in {description}"
        );
    }
    assert!(matches!(
        case("scenario capability").status,
        S::Success { .. }
    ));
    let S::Skipped { message, .. } = &case("scenario load").status else {
        panic!("load should be skipped: {xml}");
    };
    assert!(message
        .as_deref()
        .unwrap_or_default()
        .contains("loadSession"));
    assert!(matches!(case("CAP-PLAN-OPS").status, S::NonSuccess { .. }));
    assert!(matches!(case("SHAPE-STATUS").status, S::Success { .. }));
    // The scenario's own capability key is no finding against the agent.
    assert!(matches!(case("CAP-RENAMED").status, S::Success { .. }));
}

#[test]
fn agent_sarif_reports_failed_scenarios_at_the_transcript_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (status, text) = agent_output(
        "sarif",
        &["--out", out],
        &fake_agent(&corpus("broken-cap.jsonl")),
    );
    assert_eq!(status, 1);
    let document: Value = serde_json::from_str(&text).unwrap();
    assert_valid_sarif(&document);
    let run = &document["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    let scenario_results: Vec<&Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "scenario/no-capability")
        .collect();
    assert_eq!(scenario_results.len(), 1, "{run:#}");
    let r = scenario_results[0];
    assert_eq!(
        rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
        r["ruleId"]
    );
    let location = &r["locations"][0]["physicalLocation"];
    assert!(location["artifactLocation"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("/no-capability.jsonl"));
    assert_eq!(location["region"]["startLine"], 7);
    assert!(r["message"]["text"]
        .as_str()
        .unwrap()
        .contains("last messages:"));
    // Every rule result points at its rule; no CAP-RENAMED from the client's key.
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        assert_ne!(id, "CAP-RENAMED");
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"], id);
    }
    assert_eq!(run["properties"]["result"], "fail");
}

#[test]
fn agent_github_annotates_each_failed_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (status, text) = agent_output(
        "github",
        &[
            "--out",
            out,
            "--scenario",
            "no-capability",
            "--scenario",
            "capability",
        ],
        &fake_agent(&corpus("broken-cap.jsonl")),
    );
    assert_eq!(status, 1);
    let scenario_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("title=acp-plan agent%3A scenario"))
        .collect();
    assert_eq!(scenario_lines.len(), 1, "{text}");
    assert!(scenario_lines[0].starts_with("::error file="), "{text}");
    assert!(
        scenario_lines[0].contains("no-capability.jsonl,line=7,"),
        "{text}"
    );
    assert!(scenario_lines[0].contains("%0Alast messages:%0A"), "{text}");
    assert!(text.contains("::error file="), "{text}");
    assert!(
        text.lines()
            .all(|l| l.starts_with("::") || l.starts_with("acp-plan agent: ")),
        "{text}"
    );
    assert!(text.ends_with("acp-plan agent: fail (1 passed, 1 failed, 0 not exercised; 1 error, 0 warnings from the agent)\n"), "{text}");
}

#[test]
fn the_suites_own_capability_key_is_no_finding_against_the_agent() {
    let (status, document, _) = run_agent(
        &["--scenario", "other-revision-key"],
        &fake_agent(&corpus("conformant-legacy.jsonl")),
    );
    assert_eq!(status, 0, "{document:#}");
    assert!(
        rules_of(&document, "other-revision-key").is_empty(),
        "{document:#}"
    );
    let s = scenario(&document, "other-revision-key");
    assert_eq!(s["suite_diagnostics"], 1, "{s}");
    assert!(
        s["reason"]
            .as_str()
            .unwrap()
            .contains("on purpose, left out"),
        "{s}"
    );
    assert_eq!(document["summary"]["warnings"], 0, "{document:#}");
}

#[test]
fn every_failed_scenario_carries_the_last_messages_and_stderr() {
    // A rule failure, not an incident: the evidence is there all the same.
    let (_, document, _) = run_agent(
        &["--scenario", "no-capability"],
        &fake_agent(&corpus("broken-cap.jsonl")),
    );
    let s = scenario(&document, "no-capability");
    assert_eq!(s["result"], "fail");
    assert_eq!(s["incident"], Value::Null);
    let recent = s["evidence"]["recent"].as_array().unwrap();
    assert!(!recent.is_empty() && recent.len() <= 6, "{s}");
    assert_eq!(s["evidence"]["agent_end"], "exit status 0");
    // A crash: the incident and the stderr tail, bounded to its last lines.
    let (_, document, _) = run_agent(
        &["--scenario", "capability"],
        &sh("for i in $(seq 1 100); do echo \"noise $i\" >&2; done; exit 3"),
    );
    let s = scenario(&document, "capability");
    assert!(
        s["incident"]
            .as_str()
            .unwrap()
            .contains("closed its stdout"),
        "{s}"
    );
    let tail = s["evidence"]["stderr_tail"].as_str().unwrap();
    assert!(
        tail.contains("noise 100") && !tail.contains("noise 1\n"),
        "{tail}"
    );
    assert!(tail.lines().count() <= 20, "{tail}");
    assert_eq!(s["evidence"]["agent_end"], "exit status 3");
}

#[test]
fn the_tap_report_says_how_the_session_ended() {
    // The agent answers `initialize`, then dies mid-line during the prompt
    // turn while the client's side is still open.
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("tap.json");
    let agent = sh(
        r#"read a; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}'; read b; printf '{"jsonrpc":"2.0","method":"session/upd'; kill -9 $$"#,
    );
    let mut child = Command::new(BIN)
        .args(["tap", "--format", "json", "--report"])
        .arg(&report)
        .arg("--")
        .args(agent)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1,\"clientCapabilities\":{}}}\n")
        .unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\n") {
        assert_eq!(
            stdout.read(&mut byte).unwrap(),
            1,
            "the agent answers initialize"
        );
        seen.push(byte[0]);
    }
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"s\",\"prompt\":[]}}\n")
        .unwrap();
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(128 + 9));
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let end = &document["session_end"];
    assert_eq!(end["agent"], "killed by signal 9", "{end}");
    assert_eq!(end["agent_failed"], true);
    assert_eq!(end["first_closed"], "agent", "{end}");
    assert_eq!(
        end["unanswered"],
        json!([{"from": "client", "id": "2", "method": "session/prompt", "line": 3}]),
        "{end}"
    );
    assert_eq!(
        end["cut_lines"],
        json!([{"from": "agent", "bytes": 38}]),
        "{end}"
    );
    assert_eq!(end["skipped_lines"], 0);

    // The human summary says the same before the verdict.
    let (_, _, human) = through_tap(
        &[],
        &sh("read a; exit 3"),
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n".to_vec(),
        1,
    );
    let session = human.find("session end:\n").expect(&human);
    let verdict = human.find("verdict:").expect(&human);
    assert!(session < verdict, "{human}");
    for expected in [
        "  agent: exit status 3\n",
        "  requests left unanswered: `initialize` (id 1, line 1) from the client\n",
    ] {
        assert!(human.contains(expected), "{expected:?} in {human}");
    }
    // SARIF carries it as notifications of the run, and stays valid.
    let (_, _, sarif) = through_tap(
        &["--format", "sarif"],
        &sh("read a; exit 3"),
        b"{}\n".to_vec(),
        1,
    );
    let document: Value = serde_json::from_str(&sarif).unwrap();
    assert!(sarif_validator().is_valid(&document), "{document:#}");
    let notes = &document["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(
        notes[0]["message"]["text"], "agent: exit status 3",
        "{notes}"
    );
    assert_eq!(notes[0]["level"], "warning", "{notes}");
}

#[test]
fn the_tap_counts_what_the_checker_skipped() {
    let traffic = random_traffic(&mut Rng(7));
    let (_, output, report) = through_tap(
        &["--max-backlog-bytes", "1", "--format", "json"],
        &["cat".to_owned()],
        traffic,
        7,
    );
    assert_eq!(output.status.code(), Some(0));
    let document: Value = serde_json::from_str(&report).unwrap();
    let end = &document["session_end"];
    let gaps = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["message"].as_str().unwrap().contains("fell behind"))
        .count();
    // Whether the checker falls behind depends on scheduling; when it does,
    // the end of session says how much it skipped.
    if gaps > 0 {
        assert!(end["skipped_lines"].as_u64().unwrap() > 0, "{end}");
        assert!(end["skipped_bytes"].as_u64().unwrap() > 0, "{end}");
    } else {
        assert_eq!(end["skipped_bytes"], 0, "{end}");
    }
}
