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
        ("conformant-v2.jsonl", &["--spec", "v2"], &["capability"]),
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
        ("broken-ses.jsonl", &[], "SES-UNKNOWN-SESSION", &LIVE),
        (
            "broken-cap.jsonl",
            &[],
            "CAP-PLAN-OPS",
            &["no-capability", "capability-null", "other-revision-key"],
        ),
        ("broken-shape.jsonl", &[], "SHAPE-STATUS", &LIVE),
        (
            "broken-id.jsonl",
            &["--deny-warnings", "--scenario", "capability"],
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
            "load-replay-without-plans.jsonl",
            &["--deny-warnings"],
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

#[test]
fn warnings_fail_only_under_deny_warnings() {
    for (script, scenario_name) in [
        ("broken-full.jsonl", "no-capability"),
        ("broken-id.jsonl", "capability"),
        ("load-replay-without-plans.jsonl", "load"),
    ] {
        let (status, document, _) =
            run_agent(&["--scenario", scenario_name], &fake_agent(&corpus(script)));
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
            let got: Vec<Value> = rechecked["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(comparable)
                .collect();
            assert_eq!(got, expected, "{script} {name}");
            let summary = &rechecked["traces"][0];
            for key in ["spec", "lines", "messages", "errors", "warnings", "infos"] {
                assert_eq!(summary[key], trace[key], "{script} {name}: {key}");
            }
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
        "verdict: not conformant (1 error, 0 warnings)",
        "result: fail (1 passed, 1 failed, 0 not exercised)",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
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
