//! Reports of `acp-plan client`: the client's diagnostics as `check`
//! renders them (each scenario's transcript is a trace named after it),
//! then the scenario results and the robustness findings, which are a
//! category of their own (ids `ROBUST-*`, no spec rule, no MUST).
//!
//! JSON: the `check` document with `"mode": "client"` and
//! `"client_scenarios": [{"name", "result", "reason", "revision",
//! "plan_operations", "findings": [{"id", "message"}], "transcript",
//! "reproducer", "errors", "warnings", "infos", "suite_diagnostics",
//! "evidence"}]`; `result` is the gate.

use super::client_gate::ClientOutcome;
use super::report::evidence_lines;
use super::scenario::ScenarioResult;
use crate::baseline::{AsOf, Judgement};
use crate::report::{self, github, human, sarif, Format, Mode, Outcome, ReportOptions, Run};
use crate::validate::TraceReport;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::{json, Value};
use std::fmt::Write;

/// A client run as its reports show it.
#[derive(Clone, Copy, Debug)]
pub struct ClientReport<'a> {
    /// The client's command line: the run's name.
    pub client: &'a str,
    /// The outcome of every scenario run, in order.
    pub outcomes: &'a [ClientOutcome],
    /// The format and what to show.
    pub options: ReportOptions,
    /// The baseline applied (see [`judge_client_scenarios`]), if any.
    pub baseline: Option<&'a Judgement>,
}

/// The run-wide judgement of `baseline` over the scenarios' reports: which
/// entries matched, which expired or matched nothing (a stale entry fails
/// the run, as for `agent`).
pub fn judge_client_scenarios(baseline: &AsOf, outcomes: &[ClientOutcome]) -> Judgement {
    baseline.judge(&client_traces(outcomes))
}

/// The scenarios' reports (each named after its scenario), in order: the
/// traces a baseline is judged over and written from.
pub fn client_traces(outcomes: &[ClientOutcome]) -> Vec<TraceReport> {
    outcomes.iter().filter_map(|o| o.report.clone()).collect()
}

impl ClientReport<'_> {
    /// The gate: fails when a scenario failed or none was exercised, or a
    /// baseline entry expired or matches nothing.
    pub fn outcome(&self) -> Outcome {
        if self.baseline.is_some_and(|b| b.problems().next().is_some()) {
            return Outcome::Fail;
        }
        let failed = self
            .outcomes
            .iter()
            .any(|o| o.result == ScenarioResult::Fail);
        let exercised = self
            .outcomes
            .iter()
            .any(|o| o.result == ScenarioResult::Pass);
        if failed || !exercised {
            Outcome::Fail
        } else {
            Outcome::Pass
        }
    }

    fn traces(&self) -> Vec<TraceReport> {
        client_traces(self.outcomes)
    }

    fn findings(&self) -> usize {
        self.outcomes.iter().map(|o| o.findings.len()).sum()
    }

    /// "fail (2 passed, 1 failed, 0 not exercised; 0 errors, 1 warning from the client; 1 robustness finding)".
    pub(crate) fn result_line(&self) -> String {
        let count = |r: ScenarioResult| self.outcomes.iter().filter(|o| o.result == r).count();
        let total = report::totals(&self.traces());
        format!(
            "{} ({} passed, {} failed, {} not exercised; {}, {} from the client; {})",
            self.outcome().as_str(),
            count(ScenarioResult::Pass),
            count(ScenarioResult::Fail),
            count(ScenarioResult::NotExercised),
            report::plural(total.errors, "error", "errors"),
            report::plural(total.warnings, "warning", "warnings"),
            report::plural(
                self.findings() as u64,
                "robustness finding",
                "robustness findings"
            ),
        )
    }
}

/// One line per scenario as it finishes, for progress on stderr.
pub fn progress_line(outcome: &ClientOutcome) -> String {
    format!(
        "acp-plan client: {}: {} ({})",
        outcome.name,
        outcome.result.label(),
        outcome.reason
    )
}

/// The report of `acp-plan client` in `format`.
pub fn render_client(format: Format, client: &ClientReport<'_>) -> String {
    let traces = client.traces();
    let run = Run {
        mode: Mode::Client,
        traces: &traces,
        baseline: client.baseline,
        options: client.options,
    };
    match format {
        Format::Human => {
            let mut out = human::render_diagnostics(&run);
            out.push_str(&human::render_trace_summaries(&run));
            out.push_str(&render_scenarios(client.outcomes));
            let _ = writeln!(out, "result: {}", client.result_line());
            out
        }
        Format::Json => {
            let mut document = report::json::render(&run);
            document["result"] = json!(client.outcome());
            document["client_scenarios"] =
                Value::Array(client.outcomes.iter().map(scenario_json).collect());
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Junit => client_junit(client),
        Format::Sarif => {
            let mut document = sarif::render(&run);
            if let Some(results) = document
                .pointer_mut("/runs/0/results")
                .and_then(Value::as_array_mut)
            {
                for o in client.outcomes {
                    for f in &o.findings {
                        let file = o
                            .transcript
                            .as_ref()
                            .map(|p| p.display().to_string())
                            .unwrap_or_else(|| o.name.clone());
                        results.push(json!({
                            "ruleId": f.kind.id(),
                            "level": "error",
                            "message": {"text": format!("{} ({}): {}", f.kind.summary(), o.name, f.message)},
                            "locations": [sarif::location(&file, 1)],
                        }));
                    }
                }
            }
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Github => {
            let mut out = github::render(&run);
            for o in client.outcomes {
                for f in &o.findings {
                    let _ = writeln!(
                        out,
                        "::error title={}::{}",
                        github::escape_property(f.kind.id()),
                        github::escape_data(&format!("{}: {}", o.name, f.message))
                    );
                }
                if o.result == ScenarioResult::Fail && o.findings.is_empty() {
                    let _ = writeln!(
                        out,
                        "::error title=acp-plan client {}::{}",
                        github::escape_property(&o.name),
                        github::escape_data(&o.reason)
                    );
                }
            }
            let _ = writeln!(out, "acp-plan client: {}", client.result_line());
            out
        }
    }
}

fn scenario_json(o: &ClientOutcome) -> Value {
    let counts = o.client_counts();
    json!({
        "name": o.name,
        "result": o.result.as_str(),
        "reason": o.reason,
        "revision": o.negotiated.map(|n| n.revision.as_str()),
        "plan_operations": o.negotiated.map(|n| n.plan_operations),
        "findings": o.findings.iter().map(|f| json!({
            "id": f.kind.id(),
            "message": f.message,
        })).collect::<Vec<_>>(),
        "transcript": o.transcript.as_ref().map(|p| p.display().to_string()),
        "reproducer": o.reproducer.as_ref().map(|p| p.display().to_string()),
        "errors": counts.errors,
        "warnings": counts.warnings,
        "infos": counts.infos,
        "suite_diagnostics": o.suite_diagnostics.len(),
        "evidence": {
            "client_end": o.evidence.agent_end,
            "stderr_tail": o.evidence.stderr_tail,
        },
    })
}

/// The scenario table, each failed scenario's evidence, the findings and
/// where the transcripts and reproducers are.
fn render_scenarios(outcomes: &[ClientOutcome]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "client scenarios:");
    for o in outcomes {
        let _ = writeln!(
            out,
            "  {:<20} {:<14} {}",
            o.name,
            o.result.label(),
            o.reason
        );
    }
    for o in outcomes.iter().filter(|o| o.result == ScenarioResult::Fail) {
        let _ = writeln!(out, "{}:", o.name);
        for f in &o.findings {
            let _ = writeln!(
                out,
                "  {}: {} ({})",
                f.kind.id(),
                f.message,
                f.kind.summary()
            );
        }
        for line in evidence_text_of(o).lines() {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(path) = &o.reproducer {
            let _ = writeln!(
                out,
                "  reproducer: acp-plan fake-agent --script {}",
                path.display()
            );
        }
    }
    let written: Vec<&ClientOutcome> = outcomes.iter().filter(|o| o.transcript.is_some()).collect();
    if !written.is_empty() {
        let _ = writeln!(out, "transcripts (re-check with `acp-plan check`):");
        for o in written {
            if let Some(path) = &o.transcript {
                let _ = writeln!(out, "  {}", path.display());
            }
        }
    }
    out
}

fn evidence_text_of(o: &ClientOutcome) -> String {
    evidence_lines(&o.evidence, "client")
}

/// JUnit: a test case per scenario (failed with its findings and evidence).
fn client_junit(client: &ClientReport<'_>) -> String {
    let name = format!("acp-plan client: {}", client.client);
    let mut suite = TestSuite::new(name.as_str());
    for o in client.outcomes {
        let status = match o.result {
            ScenarioResult::Pass => TestCaseStatus::success(),
            ScenarioResult::NotExercised => {
                let mut status = TestCaseStatus::skipped();
                status.set_message(format!("not exercised: {}", o.reason));
                status
            }
            ScenarioResult::Fail => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                let kind = match o.findings.first() {
                    Some(f) => f.kind.id().to_owned(),
                    None => "scenario failed".to_owned(),
                };
                status
                    .set_message(o.reason.as_str())
                    .set_type(kind)
                    .set_description(evidence_text_of(o));
                status
            }
        };
        let mut case = TestCase::new(format!("scenario {}", o.name), status);
        case.set_classname(name.as_str());
        if let Some(path) = &o.transcript {
            case.extra
                .insert("file".into(), path.display().to_string().into());
        }
        suite.add_test_case(case);
    }
    let mut report = Report::new("acp-plan");
    report.add_test_suite(suite);
    report.to_string().unwrap_or_default()
}
