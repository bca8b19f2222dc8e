//! The GitHub Action's shell steps (scripts/action/run.sh, called by
//! action.yml) run here as CI runs them: green on a conformant agent, red
//! on a broken one, SARIF valid against 2.1.0, JUnit a JUnit parser reads,
//! annotations on stdout.
#![cfg(unix)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_acp-plan");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct ActionRun {
    status: i32,
    stdout: String,
    sarif: Option<Value>,
    junit: Option<quick_junit::Report>,
    outputs: String,
}

/// `run.sh run` in a fresh directory with the action's inputs.
fn action(inputs: &[(&str, &str)]) -> ActionRun {
    let dir = tempfile::tempdir().unwrap();
    let outputs = dir.path().join("github_output");
    let mut command = Command::new("bash");
    command
        .arg(repo().join("scripts/action/run.sh"))
        .arg("run")
        .current_dir(dir.path())
        .env("ACP_PLAN_BIN", BIN)
        .env("GITHUB_OUTPUT", &outputs)
        .env_remove("INPUT_AGENT")
        .env_remove("INPUT_CLIENT")
        .env_remove("INPUT_TRACES");
    for (key, value) in inputs {
        command.env(key, value);
    }
    let output = command.output().unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.path().join(name)).ok();
    ActionRun {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
        sarif: read("acp-plan.sarif").map(|t| serde_json::from_str(&t).expect("SARIF is JSON")),
        junit: read("acp-plan.xml")
            .map(|t| quick_junit::Report::deserialize_from_str(&t).expect("JUnit parses")),
        outputs: read("github_output").unwrap_or_default(),
    }
}

fn assert_valid_sarif(document: &Value) {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("schemas/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(document)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

fn fake_agent(script: &str) -> String {
    format!(
        "{BIN} fake-agent --script {}",
        repo().join("corpus/live").join(script).display()
    )
}

fn failures(report: &quick_junit::Report) -> usize {
    report.test_suites.iter().map(|s| s.failures).sum()
}

#[test]
fn a_conformant_agent_is_green() {
    let run = action(&[("INPUT_AGENT", &fake_agent("conformant-legacy.jsonl"))]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert!(run.stdout.contains("result: pass"), "{}", run.stdout);
    assert_valid_sarif(run.sarif.as_ref().expect("SARIF written"));
    let junit = run.junit.expect("JUnit written");
    assert_eq!(failures(&junit), 0);
    assert!(junit.tests > 5, "scenario and rule cases");
    assert!(run.outputs.contains("result=pass\n"), "{}", run.outputs);
    assert!(
        run.outputs.contains("sarif=acp-plan.sarif\n"),
        "{}",
        run.outputs
    );
}

#[test]
fn a_broken_agent_is_red_with_every_report() {
    let run = action(&[("INPUT_AGENT", &fake_agent("broken-cap.jsonl"))]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    let sarif = run.sarif.expect("SARIF written though the run failed");
    assert_valid_sarif(&sarif);
    assert!(sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["ruleId"] == "CAP-PLAN-OPS"));
    assert!(failures(&run.junit.expect("JUnit written")) > 0);
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("::error file=acp-plan-transcripts/no-capability.jsonl,line=7,")),
        "{}",
        run.stdout
    );
    assert!(run.outputs.contains("result=fail\n"), "{}", run.outputs);
}

/// The example of the action's documentation: a live agent gated with a
/// baseline. Its failures are still reported, as accepted, and the job is
/// green; an entry that matches nothing turns it red.
#[test]
fn a_baseline_makes_a_broken_agent_green_until_it_goes_stale() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("acp-plan-baseline.toml");
    std::fs::write(
        &baseline,
        "version = 1\n\n[[expected]]\nrule = \"CAP-PLAN-OPS\"\nreason = \"the capability check lands next release\"\n",
    )
    .unwrap();
    let baseline = baseline.display().to_string();
    let agent = fake_agent("broken-cap.jsonl");
    let run = action(&[("INPUT_AGENT", &agent), ("INPUT_BASELINE", &baseline)]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert!(run.outputs.contains("result=pass\n"), "{}", run.outputs);
    let sarif = run.sarif.expect("SARIF written");
    assert_valid_sarif(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let accepted: Vec<&Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "CAP-PLAN-OPS")
        .collect();
    assert_eq!(accepted.len(), 3, "{sarif:#}");
    assert!(accepted
        .iter()
        .all(|r| r["suppressions"][0]["status"] == "accepted"));
    assert_eq!(failures(&run.junit.expect("JUnit written")), 0);
    assert!(
        run.stdout.lines().any(|l| l.starts_with(
            "::notice file=acp-plan-transcripts/no-capability.jsonl,line=7,title=CAP-PLAN-OPS (baselined)"
        )),
        "{}",
        run.stdout
    );

    // The agent fixed (a conformant script): the entry covers nothing.
    let fixed = fake_agent("conformant-legacy.jsonl");
    let run = action(&[("INPUT_AGENT", &fixed), ("INPUT_BASELINE", &baseline)]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("title=acp-plan baseline::"),
        "{}",
        run.stdout
    );
    assert!(run.outputs.contains("result=fail\n"), "{}", run.outputs);
}

#[test]
fn recorded_traces_are_checked_with_a_glob_or_a_directory() {
    let traces = repo().join("corpus/traces");
    let run = action(&[("INPUT_TRACES", &format!("{}/*.jsonl", traces.display()))]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert_valid_sarif(run.sarif.as_ref().unwrap());
    let suites = run.junit.unwrap().test_suites.len();
    assert!(suites > 1, "a suite per trace");
    // A directory: every *.jsonl below it (corpus/traces/ also holds the
    // interop transcripts, some broken on purpose, so copy the top level).
    let dir = tempfile::tempdir().unwrap();
    let copied = dir.path().join("recorded");
    std::fs::create_dir_all(copied.join("nested")).unwrap();
    for (i, entry) in std::fs::read_dir(&traces).unwrap().enumerate() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let to = if i % 2 == 0 {
                copied.join("nested")
            } else {
                copied.clone()
            };
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
    let run = action(&[("INPUT_TRACES", &copied.display().to_string())]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert_eq!(run.junit.unwrap().test_suites.len(), suites);

    let broken = repo().join("corpus/examples/broken.jsonl");
    let run = action(&[("INPUT_TRACES", &broken.display().to_string())]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert_valid_sarif(run.sarif.as_ref().unwrap());
    assert!(run.stdout.contains("::error file="), "{}", run.stdout);
}

#[test]
fn a_client_is_gated_too() {
    let client = |flaw: &str| format!("{BIN} fake-client {flaw} --agent {{agent}}");
    let run = action(&[("INPUT_CLIENT", &client(""))]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert_valid_sarif(run.sarif.as_ref().expect("SARIF written"));
    assert_eq!(failures(&run.junit.expect("JUnit written")), 0);
    let run = action(&[("INPUT_CLIENT", &client("--flaw raw-escapes"))]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("::error title=ROBUST-TERMINAL-ESCAPE::"),
        "{}",
        run.stdout
    );
    let sarif = run.sarif.expect("SARIF written though the run failed");
    assert_valid_sarif(&sarif);
    assert!(sarif.to_string().contains("ROBUST-TERMINAL-ESCAPE"));
    let run = action(&[("INPUT_CLIENT", &client("")), ("INPUT_AGENT", "x")]);
    assert_eq!(run.status, 2, "{}", run.stdout);
}

/// The `baseline` input applies to `client` as to `agent`: scopes are
/// scenario names.
#[test]
fn a_baseline_accepts_a_known_client_failure() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("client-baseline.toml");
    std::fs::write(
        &baseline,
        "version = 1\n\n[[expected]]\nrule = \"SES-BEFORE-INIT\"\nreason = \"the handshake fix lands next release\"\n",
    )
    .unwrap();
    let baseline = baseline.display().to_string();
    let client = format!("{BIN} fake-client --flaw prompt-first --agent {{agent}}");
    let run = action(&[("INPUT_CLIENT", &client)]);
    assert_eq!(run.status, 1, "{}", run.stdout);
    let run = action(&[("INPUT_CLIENT", &client), ("INPUT_BASELINE", &baseline)]);
    assert_eq!(run.status, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("SES-BEFORE-INIT (baselined)"),
        "{}",
        run.stdout
    );
}

#[test]
fn bad_inputs_are_usage_errors() {
    let run = action(&[]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    let run = action(&[("INPUT_AGENT", "x"), ("INPUT_TRACES", "y")]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    let run = action(&[("INPUT_TRACES", "no/such/*.jsonl")]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stdout.contains("no trace matches"), "{}", run.stdout);
}

#[test]
fn the_action_runs_the_script_with_every_input_it_declares() {
    let yaml = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    let script = std::fs::read_to_string(repo().join("scripts/action/run.sh")).unwrap();
    assert!(yaml.contains("using: composite"));
    for step in ["version", "install", "run"] {
        assert!(
            yaml.contains(&format!(
                "\"$GITHUB_ACTION_PATH/scripts/action/run.sh\" {step}"
            )),
            "{step}"
        );
    }
    // Each input reaches the script as INPUT_<NAME> and the script reads it.
    for input in [
        "agent",
        "client",
        "traces",
        "spec",
        "baseline",
        "sarif",
        "junit",
        "transcripts",
        "args",
    ] {
        let variable = format!("INPUT_{}", input.to_uppercase());
        assert!(yaml.contains(&format!("  {input}:\n")), "input {input}");
        assert!(
            yaml.contains(&format!("{variable}: ${{{{ inputs.{input} }}}}")),
            "{variable} in action.yml"
        );
        assert!(
            script.contains(&format!("${{{variable}:-")),
            "{variable} in run.sh"
        );
    }
}
