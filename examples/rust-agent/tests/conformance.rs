//! The agent's own CI gate: the plan conformance suite, from `cargo test`.
#![cfg(unix)]

use acp_plan_conformance::live::{Scenario, ScenarioResult, Scenarios};
use std::process::Command;

const AGENT: &str = env!("CARGO_BIN_EXE_example-agent");

#[test]
fn the_agent_passes_every_plan_scenario() {
    let run = Scenarios::v1()
        .agent(Command::new(AGENT))
        .run()
        .expect("the agent starts");
    run.assert_conformant();
    assert_eq!(run.result(Scenario::Capability), Some(ScenarioResult::Pass));
    assert_eq!(
        run.result(Scenario::NoCapability),
        Some(ScenarioResult::Pass)
    );
}

#[test]
fn a_broken_agent_fails_the_gate_with_the_report() {
    let run = Scenarios::v1()
        .only(Scenario::NoCapability)
        .agent(Command::new(AGENT).arg("--broken"))
        .run()
        .expect("the agent starts");
    assert!(!run.is_conformant());
    let panic = std::panic::catch_unwind(|| run.assert_conformant()).unwrap_err();
    let message = panic.downcast_ref::<String>().expect("a formatted panic");
    assert!(message.contains("CAP-PLAN-OPS"), "{message}");
    assert!(message.contains("result: fail"), "{message}");
}

#[test]
fn a_baseline_accepts_known_failures_until_they_are_fixed() {
    use acp_plan_conformance::baseline;
    let accepted = baseline::parse(
        "acp-plan-baseline.toml",
        r#"
version = 1

[[expected]]
rule = "CAP-PLAN-OPS"
scope = "no-capability"
reason = "the capability check lands next release"
"#,
    )
    .expect("a valid baseline");
    let today = baseline::today_utc();
    let broken = Scenarios::v1()
        .only(Scenario::NoCapability)
        .baseline(accepted.clone(), today)
        .agent(Command::new(AGENT).arg("--broken"))
        .run()
        .expect("the agent starts");
    broken.assert_conformant();
    // Fixed: the entry matches nothing, so it must go.
    let fixed = Scenarios::v1()
        .only(Scenario::NoCapability)
        .baseline(accepted, today)
        .agent(Command::new(AGENT))
        .run()
        .expect("the agent starts");
    assert!(!fixed.is_conformant());
    assert!(fixed.human_report().contains("matches no failure"));
}

#[test]
fn recorded_traces_pass_too() {
    // A trace recorded from the agent (e.g. with `acp-plan tap --trace`).
    let checked = acp_plan_conformance::check_file(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/recorded.jsonl"
    ))
    .expect("the trace is readable");
    checked.assert_conformant();
    assert_eq!(checked.report().messages, 7);
}
