//! Reports of live runs. Each scenario's transcript is a [`TraceReport`]
//! named after the scenario, rendered by `report::human` / `report::json`
//! exactly as `check` renders traces; the live modes add their results.
//!
//! JSON: the `check` document plus `"mode": "agent" | "tap"` and, for
//! `agent`, `"scenarios": [{"name", "result", "reason", "transcript",
//! "errors", "warnings", "infos"}]`. `verdict` is the run's verdict.

use super::scenario::{ScenarioOutcome, ScenarioResult};
use crate::report::{self, ReportOptions, Verdict};
use crate::validate::TraceReport;
use serde_json::{json, Value};
use std::fmt::Write;

/// A run fails when a scenario failed, or when none was exercised (unless
/// that is allowed).
pub fn run_verdict(outcomes: &[ScenarioOutcome], allow_unexercised: bool) -> Verdict {
    let failed = outcomes.iter().any(|o| o.result == ScenarioResult::Fail);
    let exercised = outcomes.iter().any(|o| o.result == ScenarioResult::Pass);
    if failed || !(exercised || allow_unexercised) {
        Verdict::NotConformant
    } else {
        Verdict::Conformant
    }
}

fn traces(outcomes: &[ScenarioOutcome]) -> Vec<TraceReport> {
    outcomes.iter().filter_map(|o| o.report.clone()).collect()
}

/// One line per scenario as it finishes, for progress on stderr.
pub fn progress_line(outcome: &ScenarioOutcome) -> String {
    format!(
        "acp-plan agent: {}: {} ({})",
        outcome.scenario,
        outcome.result.label(),
        outcome.reason
    )
}

/// The human report of `acp-plan agent`.
pub fn render_agent_human(
    outcomes: &[ScenarioOutcome],
    options: ReportOptions,
    allow_unexercised: bool,
) -> String {
    let traces = traces(outcomes);
    let mut out = report::human::render_diagnostics(&traces, options);
    out.push_str(&report::human::render_trace_summaries(&traces, options));
    let _ = writeln!(out, "scenarios:");
    for o in outcomes {
        let _ = writeln!(
            out,
            "  {:<20} {:<14} {}",
            o.scenario.name(),
            o.result.label(),
            o.reason
        );
    }
    out.push_str(&render_incidents(outcomes));
    let written: Vec<&ScenarioOutcome> =
        outcomes.iter().filter(|o| o.transcript.is_some()).collect();
    if !written.is_empty() {
        let _ = writeln!(out, "transcripts (re-check with `acp-plan check`):");
        for o in written {
            if let Some(path) = &o.transcript {
                let spec = o
                    .fixed_spec
                    .map(|r| format!(" (with --spec {r})"))
                    .unwrap_or_default();
                let _ = writeln!(out, "  {}{spec}", path.display());
            }
        }
    }
    let count = |r: ScenarioResult| outcomes.iter().filter(|o| o.result == r).count();
    let _ = writeln!(
        out,
        "verdict: {} ({} passed, {} failed, {} not exercised{})",
        run_verdict(outcomes, allow_unexercised).as_str(),
        count(ScenarioResult::Pass),
        count(ScenarioResult::Fail),
        count(ScenarioResult::NotExercised),
        if allow_unexercised {
            ", unexercised allowed"
        } else {
            ""
        }
    );
    out
}

/// What went wrong outside the rules, scenario by scenario: what happened,
/// how the agent ended, its last stderr lines and the last messages.
pub fn render_incidents(outcomes: &[ScenarioOutcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        let Some(incident) = &o.incident else {
            continue;
        };
        let _ = writeln!(out, "{}: {}", o.scenario, incident.what);
        let _ = writeln!(out, "  agent: {}", incident.agent_end);
        if incident.stderr_tail.is_empty() {
            let _ = writeln!(out, "  stderr: (nothing)");
        } else {
            let _ = writeln!(out, "  stderr (last lines):");
            for line in incident.stderr_tail.lines() {
                let _ = writeln!(out, "    | {line}");
            }
        }
        if !incident.recent.is_empty() {
            let _ = writeln!(out, "  last messages:");
            for m in &incident.recent {
                let arrow = match m.direction {
                    crate::Direction::ClientToAgent => "->",
                    crate::Direction::AgentToClient => "<-",
                };
                let _ = writeln!(out, "    {:>4} {arrow} {}", m.line, m.text);
            }
        }
    }
    out
}

/// The JSON document of `acp-plan agent`.
pub fn render_agent_json(
    outcomes: &[ScenarioOutcome],
    options: ReportOptions,
    allow_unexercised: bool,
) -> Value {
    let mut document = report::json::render(&traces(outcomes), options);
    document["mode"] = json!("agent");
    document["verdict"] = json!(run_verdict(outcomes, allow_unexercised));
    let scenarios: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            let counts = o.report.as_ref().map(|r| r.counts).unwrap_or_default();
            json!({
                "name": o.scenario.name(),
                "result": o.result.as_str(),
                "reason": o.reason,
                "transcript": o.transcript.as_ref().map(|p| p.display().to_string()),
                "errors": counts.errors,
                "warnings": counts.warnings,
                "infos": counts.infos,
            })
        })
        .collect();
    document["scenarios"] = Value::Array(scenarios);
    document
}

/// The summary `acp-plan tap` writes at exit.
pub fn render_tap_summary(report: &TraceReport, options: ReportOptions) -> String {
    let traces = std::slice::from_ref(report);
    let mut out = report::human::render_trace_summaries(traces, options);
    out.push_str(&report::human::render_verdict(traces, options));
    out
}

/// The JSON document of `acp-plan tap`.
pub fn render_tap_json(report: &TraceReport, options: ReportOptions) -> Value {
    let mut document = report::json::render(std::slice::from_ref(report), options);
    document["mode"] = json!("tap");
    document
}
