//! Reports of live runs. Each scenario's transcript is a [`TraceReport`]
//! named after the scenario, rendered by `report::human` / `report::json`
//! exactly as `check` renders traces; the live modes add their results.
//!
//! JSON: the `check` document with `"mode": "agent" | "tap"` and, for
//! `agent`, `"scenarios": [{"name", "result", "reason", "transcript",
//! "errors", "warnings", "infos"}]`; `result` (the gate) follows the
//! scenario results, `verdict` the diagnostics.

use super::scenario::{Evidence, Scenario, ScenarioOutcome, ScenarioResult};
use super::SessionEnd;
use crate::baseline::{AsOf, EntryOutcome, Judgement};
use crate::catalog::{Rule, Severity};
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::report::{
    self, github, human, plural, sarif, Format, Mode, Outcome, ReportOptions, Run,
};
use crate::rules::trace_rules;
use crate::validate::TraceReport;
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::{json, Value};
use std::fmt::Write;
use std::time::Duration;

/// The gate of an agent run: it fails when a scenario failed, or when none
/// was exercised (unless that is allowed).
pub(crate) fn agent_outcome(outcomes: &[ScenarioOutcome], allow_unexercised: bool) -> Outcome {
    let failed = outcomes.iter().any(|o| o.result == ScenarioResult::Fail);
    let exercised = outcomes.iter().any(|o| o.result == ScenarioResult::Pass);
    if failed || !(exercised || allow_unexercised) {
        Outcome::Fail
    } else {
        Outcome::Pass
    }
}

/// The reports of the scenarios that checked a transcript, in order; each
/// is named after its scenario (what baseline scopes match).
pub fn traces(outcomes: &[ScenarioOutcome]) -> Vec<TraceReport> {
    outcomes.iter().filter_map(|o| o.report.clone()).collect()
}

/// The scenarios that checked a transcript, each with its number among
/// them: the trace index of a [`Run`] over [`traces`] and of a
/// [`Judgement`] over them.
fn checked(
    outcomes: &[ScenarioOutcome],
) -> impl Iterator<Item = (usize, &ScenarioOutcome, &TraceReport)> {
    outcomes
        .iter()
        .filter_map(|o| o.report.as_ref().map(|r| (o, r)))
        .enumerate()
        .map(|(index, (o, r))| (index, o, r))
}

/// A baseline applied to a whole agent run, its scopes matching scenario
/// names: what the reports mark as baselined, and which entries expired or
/// matched nothing (those fail the run).
pub fn judge_scenarios(baseline: &AsOf, outcomes: &[ScenarioOutcome]) -> Judgement {
    baseline.judge(&traces(outcomes))
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

/// An agent run as its reports show it.
#[derive(Clone, Copy, Debug)]
pub struct AgentReport<'a> {
    /// The agent's command line: the run's name (JUnit suite, SARIF run).
    pub agent: &'a str,
    /// The outcome of every scenario run, in order.
    pub outcomes: &'a [ScenarioOutcome],
    /// The format and what to show.
    pub options: ReportOptions,
    /// Whether a run where no scenario was exercised passes (`--allow-unexercised`).
    pub allow_unexercised: bool,
    /// The baseline applied (see [`judge_scenarios`]), if any.
    pub baseline: Option<&'a Judgement>,
}

impl AgentReport<'_> {
    /// The gate: `agent_outcome`, failed too by a baseline entry that
    /// expired or matches nothing.
    pub fn outcome(&self) -> Outcome {
        let stale = self.baseline.is_some_and(|b| b.problems().next().is_some());
        if stale {
            Outcome::Fail
        } else {
            agent_outcome(self.outcomes, self.allow_unexercised)
        }
    }

    /// The baseline entry that accepts `rule` in scenario `o`'s transcript.
    fn baselined(&self, o: &ScenarioOutcome, rule: &str) -> Option<&EntryOutcome> {
        let (index, _, _) = checked(self.outcomes).find(|(_, known, _)| std::ptr::eq(*known, o))?;
        self.baseline?.covering(index, rule)
    }

    fn count(&self, result: ScenarioResult) -> usize {
        self.outcomes.iter().filter(|o| o.result == result).count()
    }

    /// "fail (1 passed, 1 failed, 0 not exercised; 1 error, 0 warnings from the agent)".
    pub(crate) fn result_line(&self) -> String {
        let total = report::totals(&traces(self.outcomes));
        format!(
            "{} ({} passed, {} failed, {} not exercised{}; {}, {} from the agent{}{})",
            self.outcome().as_str(),
            self.count(ScenarioResult::Pass),
            self.count(ScenarioResult::Fail),
            self.count(ScenarioResult::NotExercised),
            if self.allow_unexercised {
                ", unexercised allowed"
            } else {
                ""
            },
            plural(total.errors, "error", "errors"),
            plural(total.warnings, "warning", "warnings"),
            if self.options.deny_warnings {
                ", warnings denied"
            } else {
                ""
            },
            self.baseline_note(),
        )
    }

    /// "; 1 error and 0 warnings baselined, 1 baseline entry expired or
    /// matching nothing" with a baseline, "" without.
    fn baseline_note(&self) -> String {
        let Some(baseline) = self.baseline else {
            return String::new();
        };
        let accepted = baseline.baselined_total();
        let stale = baseline.problems().count() as u64;
        let mut note = format!(
            "; {} and {} baselined",
            plural(accepted.errors, "error", "errors"),
            plural(accepted.warnings, "warning", "warnings"),
        );
        if stale > 0 {
            note += &format!(
                ", {} expired or matching nothing",
                plural(stale, "baseline entry", "baseline entries")
            );
        }
        note
    }
}

/// The report of `acp-plan agent` in `format`: the scenario results and
/// the agent's diagnostics (never those on the client's own messages).
pub fn render_agent(format: Format, agent: &AgentReport<'_>) -> String {
    let traces = traces(agent.outcomes);
    let run = Run {
        mode: Mode::Agent,
        traces: &traces,
        baseline: agent.baseline,
        options: agent.options,
    };
    match format {
        Format::Human => {
            // The outcome is stated once, at the end: no verdict line before
            // the scenarios.
            let mut out = human::render_diagnostics(&run);
            out.push_str(&human::render_trace_summaries(&run));
            out.push_str(&render_scenarios(agent.outcomes));
            let _ = writeln!(out, "result: {}", agent.result_line());
            out
        }
        Format::Json => {
            let mut document = report::json::render(&run);
            document["result"] = json!(agent.outcome());
            document["scenarios"] =
                Value::Array(agent.outcomes.iter().map(scenario_json).collect());
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Junit => agent_junit(agent),
        Format::Sarif => {
            let mut text =
                serde_json::to_string_pretty(&agent_sarif(agent, &run)).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Github => agent_github(agent),
    }
}

fn scenario_json(o: &ScenarioOutcome) -> Value {
    let counts = o.report.as_ref().map(|r| r.counts).unwrap_or_default();
    let evidence = o.evidence.as_ref().map(|e| {
        json!({
            "agent_end": e.agent_end,
            "stderr_tail": e.stderr_tail,
            "recent": e.recent.iter().map(|m| json!({
                "line": m.line,
                "direction": direction_name(m.direction),
                "text": m.text,
            })).collect::<Vec<_>>(),
        })
    });
    json!({
        "name": o.scenario.name(),
        "result": o.result.as_str(),
        "reason": o.reason,
        "transcript": o.transcript.as_ref().map(|p| p.display().to_string()),
        "errors": counts.errors,
        "warnings": counts.warnings,
        "infos": counts.infos,
        "incident": o.incident,
        "evidence": evidence,
        "suite_diagnostics": o.own_diagnostics.len(),
    })
}

fn direction_name(direction: Direction) -> &'static str {
    match direction {
        Direction::ClientToAgent => "client_to_agent",
        Direction::AgentToClient => "agent_to_client",
    }
}

/// The scenario table, what a reader of each failed scenario needs, the
/// client's own diagnostics left out, and where the transcripts are.
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

/// Each failed scenario: what happened, how the agent ended, its last
/// stderr lines and the last messages exchanged.
pub fn render_incidents(outcomes: &[ScenarioOutcome]) -> String {
    let mut out = String::new();
    for o in outcomes.iter().filter(|o| o.result == ScenarioResult::Fail) {
        let _ = writeln!(out, "{}: {}", o.scenario, o.reason);
        out.push_str(&indent(&evidence_text(o), "  "));
    }
    out
}

fn indent(text: &str, prefix: &str) -> String {
    text.lines().map(|l| format!("{prefix}{l}\n")).collect()
}

/// How the agent ended, the stderr tail and the last messages, one item a
/// line (bounded: the tail and the messages are).
pub(crate) fn evidence_text(o: &ScenarioOutcome) -> String {
    match &o.evidence {
        Some(evidence) => evidence_lines(evidence, "agent"),
        None => String::new(),
    }
}

/// How the `process` (the agent, or the client under test) ended, the
/// stderr tail and the last messages, one item a line.
pub(crate) fn evidence_lines(evidence: &Evidence, process: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{process}: {}", evidence.agent_end);
    if evidence.stderr_tail.is_empty() {
        let _ = writeln!(out, "stderr: (nothing)");
    } else {
        let _ = writeln!(out, "stderr (last lines):");
        for line in evidence.stderr_tail.lines() {
            let _ = writeln!(out, "  | {line}");
        }
    }
    if !evidence.recent.is_empty() {
        let _ = writeln!(out, "last messages:");
        for m in &evidence.recent {
            let arrow = match m.direction {
                Direction::ClientToAgent => "->",
                Direction::AgentToClient => "<-",
            };
            let _ = writeln!(out, "  {:>4} {arrow} {}", m.line, m.text);
        }
    }
    out
}

/// The transcript line a failed scenario points at: the agent's first
/// failing diagnostic, else the last message exchanged (0: none).
fn scenario_line(agent: &AgentReport<'_>, o: &ScenarioOutcome) -> u64 {
    let failing = o.report.as_ref().and_then(|r| {
        r.diagnostics
            .iter()
            .find(|d| fails(d.severity(), agent.options) && agent.baselined(o, d.rule.id).is_none())
    });
    match failing {
        Some(d) => d.line,
        None => o
            .evidence
            .as_ref()
            .and_then(|e| e.recent.last())
            .map_or(0, |m| m.line),
    }
}

/// Whether a diagnostic of `severity` fails the run: as `check` judges it.
fn fails(severity: Severity, options: ReportOptions) -> bool {
    Run::new(&[], options).fails(severity)
}

/// Where a scenario's diagnostics point: its transcript, when written.
fn transcript_file(o: &ScenarioOutcome) -> Option<String> {
    o.transcript.as_ref().map(|p| p.display().to_string())
}

/// Checks are not timed (as in `report::junit`).
const UNTIMED: Duration = Duration::ZERO;

/// JUnit: one test suite for the agent run; a test case per scenario
/// (failed with the evidence, passed, or skipped with why it was not
/// exercised) and one per rule over all scenarios.
fn agent_junit(agent: &AgentReport<'_>) -> String {
    let name = format!("acp-plan agent: {}", agent.agent);
    let mut suite = TestSuite::new(name.as_str());
    suite.set_time(UNTIMED);
    if let Some(spec) = agent
        .outcomes
        .iter()
        .find_map(|o| o.report.as_ref())
        .map(|r| r.revision.revision)
    {
        suite.add_property(Property::new("spec", spec.as_str()));
    }
    suite.add_property(Property::new("result", agent.outcome().as_str()));
    for o in agent.outcomes {
        let status = match o.result {
            ScenarioResult::Pass => TestCaseStatus::success(),
            ScenarioResult::NotExercised => {
                let mut status = TestCaseStatus::skipped();
                status
                    .set_message(format!("not exercised: {}", o.reason))
                    .set_type("not exercised");
                status
            }
            ScenarioResult::Fail => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_message(o.reason.as_str())
                    .set_type("scenario failed")
                    .set_description(scenario_failure_text(agent, o));
                status
            }
        };
        let mut case = TestCase::new(format!("scenario {}", o.scenario), status);
        case.set_time(UNTIMED);
        case.set_classname(name.as_str());
        if let Some(file) = transcript_file(o) {
            case.extra.insert("file".into(), file.into());
            let line = scenario_line(agent, o);
            if line > 0 && o.result == ScenarioResult::Fail {
                case.extra.insert("line".into(), line.to_string().into());
            }
        }
        if o.result == ScenarioResult::Pass {
            case.set_system_out(format!("{}\n", o.reason));
        }
        suite.add_test_case(case);
    }
    for rule in agent_rules(agent.outcomes) {
        suite.add_test_case(rule_case(agent, &name, rule));
    }
    let mut report = Report::new("acp-plan");
    report.set_time(UNTIMED);
    report.add_test_suite(suite);
    if let Some(baseline) = agent.baseline {
        report.add_test_suite(report::junit::baseline_suite(baseline));
    }
    report.to_string().unwrap_or_default()
}

/// The rules that apply to any scenario's revision (and any reported).
fn agent_rules(outcomes: &[ScenarioOutcome]) -> Vec<&'static Rule> {
    let reports: Vec<&TraceReport> = outcomes.iter().filter_map(|o| o.report.as_ref()).collect();
    trace_rules()
        .filter(|r| {
            reports
                .iter()
                .any(|t| r.applies_to(t.revision.revision) || t.by_rule.contains_key(r.id))
        })
        .collect()
}

fn rule_case(agent: &AgentReport<'_>, classname: &str, rule: &'static Rule) -> TestCase {
    let mut listing = String::new();
    // Diagnostics no baseline entry accepts, and those one does (with why).
    let mut count = 0;
    let mut accepted = 0;
    let mut reasons: Vec<&str> = Vec::new();
    let mut first: Option<(&ScenarioOutcome, &Diagnostic)> = None;
    let mut first_open: Option<(&ScenarioOutcome, &Diagnostic)> = None;
    for (index, o, trace) in checked(agent.outcomes) {
        let reported = trace.by_rule.get(rule.id).copied().unwrap_or(0);
        let entry = agent.baseline.and_then(|b| b.covering(index, rule.id));
        match entry {
            Some(entry) if reported > 0 => {
                accepted += reported;
                if !reasons.contains(&entry.entry.reason.as_str()) {
                    reasons.push(&entry.entry.reason);
                }
            }
            _ => count += reported,
        }
        for d in trace.diagnostics.iter().filter(|d| d.rule.id == rule.id) {
            first.get_or_insert((o, d));
            if entry.is_none() {
                first_open.get_or_insert((o, d));
            }
            let place = transcript_file(o).unwrap_or_else(|| o.scenario.name().to_owned());
            let _ = writeln!(
                listing,
                "{} ({}):{}: {}: {}{}",
                place,
                o.scenario,
                d.line,
                d.severity(),
                d.message,
                if entry.is_some() { " (baselined)" } else { "" }
            );
        }
    }
    if count + accepted > 0 {
        for line in rule.citation_lines(&rule.citation) {
            let _ = writeln!(listing, "{line}");
        }
    }
    let severity = rule.severity();
    let fails = fails(severity, agent.options);
    let counted = |n| plural(n, severity.as_str(), &format!("{severity}s"));
    let status = if count > 0 && fails {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        let headline = match first_open {
            Some((o, d)) => format!("{}; first in {}: {}", counted(count), o.scenario, d.message),
            None => counted(count),
        };
        status
            .set_message(headline)
            .set_type(format!("{} {}", rule.level_label(), rule.id))
            .set_description(listing.as_str());
        status
    } else if accepted > 0 {
        let mut status = TestCaseStatus::skipped();
        status
            .set_message(format!(
                "baselined ({}): {}",
                counted(accepted),
                reasons.join("; ")
            ))
            .set_type("baselined")
            .set_description(listing.as_str());
        status
    } else {
        TestCaseStatus::success()
    };
    let passed_with_output =
        count + accepted > 0 && matches!(status, TestCaseStatus::Success { .. });
    // A failure points at what fails it, not at a baselined diagnostic.
    let shown = if count > 0 && fails {
        first_open.or(first)
    } else {
        first
    };
    let mut case = TestCase::new(rule.id, status);
    case.set_time(UNTIMED);
    case.set_classname(classname);
    if let Some((o, d)) = shown {
        if let Some(file) = transcript_file(o) {
            case.extra.insert("file".into(), file.into());
            case.extra.insert("line".into(), d.line.to_string().into());
        }
    }
    if passed_with_output {
        case.set_system_out(listing);
    }
    case
}

/// The failure text of a scenario: why, then the evidence.
fn scenario_failure_text(agent: &AgentReport<'_>, o: &ScenarioOutcome) -> String {
    let mut text = format!("{}\n", o.reason);
    if let Some(incident) = &o.incident {
        if !o.reason.starts_with(incident.as_str()) {
            let _ = writeln!(text, "incident: {incident}");
        }
    }
    if let Some(file) = transcript_file(o) {
        let line = scenario_line(agent, o);
        let _ = writeln!(text, "transcript: {file}:{line}");
    }
    text.push_str(&evidence_text(o));
    text
}

/// The id under which SARIF reports a failed scenario.
fn scenario_rule_id(scenario: Scenario) -> String {
    format!("scenario/{}", scenario.name())
}

/// SARIF: the rule catalog plus one rule per scenario as the driver's
/// rules; the agent's diagnostics and one result per failed scenario (at
/// its transcript line, when the transcript was written).
fn agent_sarif(agent: &AgentReport<'_>, run: &Run<'_>) -> Value {
    let mut document = report::sarif::render(run);
    let rules: Vec<&'static Rule> = trace_rules().collect();
    let mut results = Vec::new();
    for (trace_index, o, trace) in checked(agent.outcomes) {
        for d in &trace.diagnostics {
            let index = rules.iter().position(|r| r.id == d.rule.id);
            let mut r = match transcript_file(o) {
                Some(file) => sarif::result(&file, d, index),
                None => sarif::result(report::STDIN, d, index),
            };
            r["properties"]["scenario"] = Value::from(o.scenario.name());
            if let Some(entry) = run.baselined(trace_index, d) {
                sarif::suppress(&mut r, run, entry);
            }
            results.push(r);
        }
    }
    let mut driver_rules: Vec<Value> = rules.iter().map(|r| sarif::rule(r)).collect();
    for (i, scenario) in Scenario::ALL.into_iter().enumerate() {
        driver_rules.push(json!({
            "id": scenario_rule_id(scenario),
            "name": format!("Scenario{}", scenario.name().split('-').map(|w| {
                let mut c = w.chars();
                c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
            }).collect::<String>()),
            "shortDescription": { "text": format!("acp-plan agent scenario `{}`: {}", scenario.name(), scenario.describe()) },
            "help": { "text": "The scenario failed: the agent broke a rule (see the results of the rules), timed out, crashed, wrote something other than JSON-RPC, or failed a setup request. The result carries the last messages exchanged and the tail of the agent's stderr." },
            "defaultConfiguration": { "level": "error" },
            "properties": { "tags": ["acp", "plan", "scenario"] },
        }));
        for o in agent
            .outcomes
            .iter()
            .filter(|o| o.scenario == scenario && o.result == ScenarioResult::Fail)
        {
            let mut r = json!({
                "ruleId": scenario_rule_id(scenario),
                "ruleIndex": rules.len() + i,
                "level": "error",
                "message": { "text": scenario_failure_text(agent, o) },
                "properties": { "scenario": scenario.name() },
            });
            let line = scenario_line(agent, o);
            match transcript_file(o) {
                Some(file) => r["locations"] = json!([sarif::location(&file, line)]),
                None => r["properties"]["line"] = Value::from(line),
            }
            results.push(r);
        }
    }
    if let Some(run) = document["runs"].get_mut(0) {
        run["tool"]["driver"]["rules"] = Value::Array(driver_rules);
        run["results"] = Value::Array(results);
        run["properties"]["result"] = json!(agent.outcome());
        run["properties"]["agent"] = Value::from(agent.agent);
    }
    document
}

/// GitHub annotations: the agent's diagnostics, one `::error` per failed
/// scenario with the evidence, and the result line.
fn agent_github(agent: &AgentReport<'_>) -> String {
    let mut out = String::new();
    for (index, o, trace) in checked(agent.outcomes) {
        let file = transcript_file(o);
        for d in &trace.diagnostics {
            // Baselined: a notice whatever the severity, as `check` has it.
            let baselined = agent.baseline.and_then(|b| b.covering(index, d.rule.id));
            if agent.options.quiet && d.severity() == Severity::Info && baselined.is_none() {
                continue;
            }
            let command = match baselined {
                Some(_) => "notice",
                None if fails(d.severity(), agent.options) => "error",
                None if d.severity() == Severity::Warning => "warning",
                None => "notice",
            };
            let mark = if baselined.is_some() {
                " (baselined)"
            } else {
                ""
            };
            let title = format!("{}{mark} ({})", d.rule.id, o.scenario);
            let mut body = github::body(d);
            if let Some(entry) = baselined {
                let _ = write!(body, "\nbaselined: {}", entry.entry.reason);
            }
            github::annotate(&mut out, command, file.as_deref(), d.line, &title, &body);
        }
    }
    if let Some(baseline) = agent.baseline {
        github::annotate_baseline_problems(&mut out, baseline);
    }
    for o in agent
        .outcomes
        .iter()
        .filter(|o| o.result == ScenarioResult::Fail)
    {
        github::annotate(
            &mut out,
            "error",
            transcript_file(o).as_deref(),
            scenario_line(agent, o),
            &format!("acp-plan agent: scenario {} failed", o.scenario),
            &scenario_failure_text(agent, o),
        );
    }
    let _ = writeln!(out, "acp-plan agent: {}", agent.result_line());
    out
}

/// The summary `acp-plan tap` writes at exit in human format (its
/// diagnostics were written as they were found): the trace's counts, how
/// the session ended, then the verdict.
pub fn render_tap_summary(
    report: &TraceReport,
    session: &SessionEnd,
    options: ReportOptions,
) -> String {
    let run = tap_run(report, options);
    let counts = human::render_trace_summaries(&run);
    let full = human::render_summary(&run);
    let mut out = counts.clone();
    let _ = writeln!(out, "session end:");
    for line in session.describe() {
        let _ = writeln!(out, "  {line}");
    }
    out.push_str(full.get(counts.len()..).unwrap_or_default());
    out
}

/// The report `acp-plan tap` writes at exit in the other formats, each
/// saying how the session ended.
pub fn render_tap(
    format: Format,
    report: &TraceReport,
    session: &SessionEnd,
    options: ReportOptions,
) -> String {
    let run = tap_run(report, options);
    let pretty = |document: &Value| {
        let mut text = serde_json::to_string_pretty(document).unwrap_or_default();
        text.push('\n');
        text
    };
    match format {
        Format::Human => {
            let mut out = human::render_diagnostics(&run);
            out.push_str(&render_tap_summary(report, session, options));
            out
        }
        Format::Json => {
            let mut document = report::json::render(&run);
            document["session_end"] = session.to_json();
            pretty(&document)
        }
        Format::Sarif => {
            let mut document = sarif::render(&run);
            let level = if session.abnormal() {
                "warning"
            } else {
                "note"
            };
            let notifications: Vec<Value> = session
                .describe()
                .into_iter()
                .map(|text| {
                    json!({
                        "descriptor": { "id": "session-end" },
                        "level": level,
                        "message": { "text": text },
                    })
                })
                .collect();
            if let Some(run) = document["runs"].get_mut(0) {
                run["invocations"][0]["toolExecutionNotifications"] = Value::Array(notifications);
                run["properties"]["session_end"] = session.to_json();
            }
            pretty(&document)
        }
        Format::Junit => {
            let mut junit = report::junit::report(&run);
            if let Some(suite) = junit.test_suites.first_mut() {
                suite.add_property(Property::new("agent", session.agent_end.as_str()));
                let mut text = String::from("session end:\n");
                for line in session.describe() {
                    let _ = writeln!(text, "  {line}");
                }
                suite.set_system_out(text);
            }
            junit.to_string().unwrap_or_default()
        }
        Format::Github => {
            let mut out = github::render(&run);
            github::annotate(
                &mut out,
                if session.abnormal() {
                    "warning"
                } else {
                    "notice"
                },
                None,
                0,
                "acp-plan tap: session end",
                &session.describe().join("\n"),
            );
            out
        }
    }
}

fn tap_run(report: &TraceReport, options: ReportOptions) -> Run<'_> {
    Run {
        mode: Mode::Tap,
        traces: std::slice::from_ref(report),
        baseline: None,
        options,
    }
}
