//! What CI users of `acp-plan` rely on: one run writing several reports
//! (`--report FORMAT=PATH` on check, agent, tap and dag), `check` on
//! directories, completions and the man page from the clap definitions,
//! and a `--version` that names the spec revisions.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_acp-plan");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn acp_plan(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The three machine formats of one run, checked for shape.
fn assert_reports(dir: &Path) {
    let sarif: Value = serde_json::from_str(&read(dir, "r.sarif")).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    quick_junit::Report::deserialize_from_str(&read(dir, "r.xml")).expect("JUnit parses");
    let json: Value = serde_json::from_str(&read(dir, "r.json")).unwrap();
    assert!(json.is_object());
}

const REPORTS: [&str; 6] = [
    "--report",
    "sarif=r.sarif",
    "--report",
    "junit=r.xml",
    "--report",
    "json=r.json",
];

#[test]
fn check_writes_every_report_even_when_it_fails_and_still_prints_the_human_one() {
    let dir = tempfile::tempdir().unwrap();
    let broken = repo().join("corpus/examples/broken.jsonl");
    let mut args = vec!["check"];
    args.extend(REPORTS);
    args.push(broken.to_str().unwrap());
    let out = acp_plan(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verdict: not conformant"));
    assert_reports(dir.path());
    let json: Value = serde_json::from_str(&read(dir.path(), "r.json")).unwrap();
    assert_eq!(json["verdict"], "not_conformant");
    // The same run in every file: the JSON's diagnostics are SARIF's results.
    let sarif: Value = serde_json::from_str(&read(dir.path(), "r.sarif")).unwrap();
    assert_eq!(
        sarif["runs"][0]["results"].as_array().unwrap().len(),
        json["diagnostics"].as_array().unwrap().len()
    );
}

#[test]
fn an_unwritable_report_is_exit_2_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("agent-ran");
    let agent = format!("touch {}", marker.display());
    let out = acp_plan(
        dir.path(),
        &[
            "agent",
            "--report",
            "junit=r.xml",
            "--report",
            "sarif=no/such/dir/r.sarif",
            "--",
            "sh",
            "-c",
            &agent,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/dir/r.sarif"));
    assert!(!marker.exists(), "the agent ran");
    let trace = repo().join("corpus/traces/python-sdk-0.12-plan-ops.jsonl");
    for command in ["check", "dag"] {
        let out = acp_plan(
            dir.path(),
            &[
                command,
                "--report",
                "json=no/such/r.json",
                trace.to_str().unwrap(),
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command} ran: {:?}", out.stdout);
    }
    let out = acp_plan(
        dir.path(),
        &["check", "--report", "sraif=x", trace.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn agent_and_tap_write_several_reports_from_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let script = repo().join("corpus/live/broken-cap.jsonl");
    let mut args = vec!["agent"];
    args.extend(REPORTS);
    args.extend([
        "--",
        BIN,
        "fake-agent",
        "--script",
        script.to_str().unwrap(),
    ]);
    let out = acp_plan(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("result: fail"));
    assert_reports(dir.path());
    let json: Value = serde_json::from_str(&read(dir.path(), "r.json")).unwrap();
    assert_eq!(json["mode"], "agent");
    assert_eq!(json["result"], "fail");

    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["tap"];
    args.extend(REPORTS);
    args.extend(["--report", "human.txt", "--", "sh", "-c", "exit 0"]);
    let out = acp_plan(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0));
    assert_reports(dir.path());
    let json: Value = serde_json::from_str(&read(dir.path(), "r.json")).unwrap();
    assert_eq!(json["session_end"]["agent"], "exit status 0");
    // A bare path takes what the tap writes to stderr otherwise.
    assert!(read(dir.path(), "human.txt").contains("session end:"));
}

#[test]
fn dag_writes_several_reports_from_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let plan = repo().join("corpus/dag/broken/cycle.json");
    let input = repo().join("corpus/dag/broken/cycle.input.json");
    let mut args = vec!["dag", "--input", input.to_str().unwrap()];
    args.extend(REPORTS);
    args.push(plan.to_str().unwrap());
    let out = acp_plan(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("DAG-CYCLE"));
    assert_reports(dir.path());
}

#[test]
fn check_reads_every_trace_below_a_directory_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("traces");
    std::fs::create_dir_all(traces.join("nested")).unwrap();
    let corpus = repo().join("corpus/traces");
    for (from, to) in [
        ("python-sdk-0.12-plan-ops.jsonl", "b.jsonl"),
        ("codex-acp-2.6-update-plan.jsonl", "nested/a.jsonl"),
        ("python-sdk-0.12-no-cap.jsonl", "a.jsonl"),
    ] {
        std::fs::copy(corpus.join(from), traces.join(to)).unwrap();
    }
    std::fs::write(traces.join("notes.md"), "not a trace").unwrap();
    let out = acp_plan(dir.path(), &["check", "--format", "json", "traces"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = document["traces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        ["traces/a.jsonl", "traces/b.jsonl", "traces/nested/a.jsonl"]
    );
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    let out = acp_plan(dir.path(), &["check", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no *.jsonl file"));
}

#[test]
fn completions_and_the_man_page_come_from_the_clap_definitions() {
    let dir = tempfile::tempdir().unwrap();
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef acp-plan"),
        ("fish", "complete -c acp-plan"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer"),
    ] {
        let out = acp_plan(dir.path(), &["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(marker), "{shell}: {marker}");
        // Every subcommand and the new options are completed.
        for word in ["check", "agent", "tap", "dag", "report"] {
            assert!(text.contains(word), "{shell} completes {word}");
        }
    }
    let out = acp_plan(dir.path(), &["man"]);
    assert_eq!(out.status.code(), Some(0));
    let roff = String::from_utf8(out.stdout).unwrap();
    assert!(roff.starts_with(".ie"), "{}", &roff[..80]);
    assert!(roff.contains(".TH acp-plan 1"));
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH SUBCOMMANDS"] {
        assert!(roff.contains(section), "{section}");
    }
    assert!(roff.contains("acp\\-plan\\-check(1)"));
    assert_eq!(
        acp_plan(dir.path(), &["completions", "tcsh"]).status.code(),
        Some(2)
    );
}

#[test]
fn version_names_the_spec_revisions() {
    let out = acp_plan(Path::new("."), &["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!("acp-plan {} ", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    for revision in acp_plan_conformance::Revision::ALL {
        assert!(text.contains(revision.as_str()), "{text}");
    }
}
