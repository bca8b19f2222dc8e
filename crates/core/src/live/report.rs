//! Reports of live runs. Each scenario's transcript is a [`TraceReport`]
//! named after the scenario, rendered by `report::human` / `report::json`
//! exactly as `check` renders traces; the live modes add their results.
//!
//! JSON: the `check` document with `"mode": "agent" | "tap"` and, for
//! `agent`, `"scenarios": [{"name", "result", "reason", "transcript",
//! "errors", "warnings", "infos"}]`; `result` (the gate) follows the
//! scenario results, `verdict` the diagnostics.

use super::scenario::{ScenarioOutcome, ScenarioResult};
use crate::report::{self, human, Format, Mode, Outcome, ReportOptions, Run};
use crate::validate::TraceReport;
use serde_json::{json, Value};
use std::fmt::Write;

/// The gate of an agent run: it fails when a scenario failed, or when none
/// was exercised (unless that is allowed).
pub fn agent_outcome(outcomes: &[ScenarioOutcome], allow_unexercised: bool) -> Outcome {
    let failed = outcomes.iter().any(|o| o.result == ScenarioResult::Fail);
    let exercised = outcomes.iter().any(|o| o.result == ScenarioResult::Pass);
    if failed || !(exercised || allow_unexercised) {
        Outcome::Fail
    } else {
        Outcome::Pass
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

/// The report of `acp-plan agent` in `format`. Human and JSON add the
/// scenario results to what `check` shows; the other formats show the
/// transcripts' diagnostics as `check` would.
pub fn render_agent(
    format: Format,
    outcomes: &[ScenarioOutcome],
    options: ReportOptions,
    allow_unexercised: bool,
) -> String {
    let traces = traces(outcomes);
    let run = Run {
        mode: Mode::Agent,
        traces: &traces,
        baseline: None,
        options,
    };
    let gate = agent_outcome(outcomes, allow_unexercised);
    match format {
        Format::Human => {
            let mut out = human::render_diagnostics(&run);
            out.push_str(&human::render_summary(&run));
            out.push_str(&render_scenarios(outcomes));
            let count = |r: ScenarioResult| outcomes.iter().filter(|o| o.result == r).count();
            let _ = writeln!(
                out,
                "result: {} ({} passed, {} failed, {} not exercised{})",
                gate.as_str(),
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
        Format::Json => {
            let mut document = report::json::render(&run);
            document["result"] = json!(gate);
            document["scenarios"] = Value::Array(outcomes.iter().map(scenario_json).collect());
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Junit | Format::Sarif | Format::Github => report::render(format, &run),
    }
}

fn scenario_json(o: &ScenarioOutcome) -> Value {
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
}

/// The scenario table, the incidents and where the transcripts are.
fn render_scenarios(outcomes: &[ScenarioOutcome]) -> String {
    let mut out = String::new();
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
                    crate::jsonrpc::Direction::ClientToAgent => "->",
                    crate::jsonrpc::Direction::AgentToClient => "<-",
                };
                let _ = writeln!(out, "    {:>4} {arrow} {}", m.line, m.text);
            }
        }
    }
    out
}

/// The summary `acp-plan tap` writes at exit in human format (its
/// diagnostics were written as they were found).
pub fn render_tap_summary(report: &TraceReport, options: ReportOptions) -> String {
    human::render_summary(&tap_run(report, options))
}

/// The report `acp-plan tap` writes at exit in the other formats.
pub fn render_tap(format: Format, report: &TraceReport, options: ReportOptions) -> String {
    report::render(format, &tap_run(report, options))
}

fn tap_run(report: &TraceReport, options: ReportOptions) -> Run<'_> {
    Run {
        mode: Mode::Tap,
        traces: std::slice::from_ref(report),
        baseline: None,
        options,
    }
}
