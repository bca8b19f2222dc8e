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
