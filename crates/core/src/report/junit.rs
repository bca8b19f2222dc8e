//! JUnit XML, as GitHub (test-report actions), GitLab (`artifacts:reports:junit`)
//! and Jenkins (`junit` step) read it.
//!
//! One `<testsuite>` per trace (or scenario), one `<testcase>` per rule that
//! applies to the trace's revision (plus any other rule it reported), named
//! by rule id, with `classname` and `file` set to the trace and `line` to the
//! first diagnostic. A test case:
//! - fails (`<failure>`, message and every location) when the rule reported
//!   errors, or warnings under `--deny-warnings`;
//! - is skipped (`<skipped>`, with the baseline's reason) when a baseline
//!   entry accepts its diagnostics;
//! - passes otherwise; warnings and infos it reported are in `<system-out>`.
//!
//! With a baseline, a last suite holds one test case per entry, failing
//! when the entry expired or matches no failure.

use super::{display_path, plural, Run, STDIN};
use crate::baseline::{EntryStatus, Judgement};
use crate::catalog::Rule;
use crate::diag::Diagnostic;
use crate::rules::{decided_by_one_trace, trace_rules};
use crate::validate::TraceReport;
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use std::fmt::Write;
use std::time::Duration;

/// Checks are not timed; some readers (test-report actions) expect a `time`
/// attribute anyway, so every element carries `time="0.000"`.
const UNTIMED: Duration = Duration::ZERO;

pub(crate) fn render(run: &Run<'_>) -> String {
    // Serializing to memory only fails on I/O errors, which a Vec never has.
    report(run).to_string().unwrap_or_default()
}

/// The JUnit model of `run`, for writers that add to it (the tap).
pub fn report(run: &Run<'_>) -> Report {
    let mut report = Report::new("acp-plan");
    report.set_time(UNTIMED);
    for (index, trace) in run.traces.iter().enumerate() {
        report.add_test_suite(trace_suite(run, index, trace));
    }
    if let Some(baseline) = run.baseline {
        report.add_test_suite(baseline_suite(baseline));
    }
    report
}

fn trace_suite(run: &Run<'_>, index: usize, trace: &TraceReport) -> TestSuite {
    let mut suite = TestSuite::new(trace.name.as_str());
    suite.set_time(UNTIMED);
    suite.add_property(Property::new("spec", trace.revision.revision.as_str()));
    suite.add_property(Property::new(
        "spec_release",
        trace.revision.revision.release(),
    ));
    suite.add_property(Property::new("spec_reason", trace.revision.reason.as_str()));
    let revision = trace.revision.revision;
    // Rules that compare connections (LOAD-*) are listed where they were reported only.
    let rules = trace_rules().filter(|r| {
        (r.applies_to(revision) && decided_by_one_trace(r)) || trace.by_rule.contains_key(r.id)
    });
    for rule in rules {
        suite.add_test_case(rule_case(run, index, trace, rule));
    }
    suite
}

fn rule_case(run: &Run<'_>, index: usize, trace: &TraceReport, rule: &'static Rule) -> TestCase {
    let count = trace.by_rule.get(rule.id).copied().unwrap_or(0);
    let shown: Vec<&Diagnostic> = trace
        .diagnostics
        .iter()
        .filter(|d| d.rule.id == rule.id)
        .collect();
    let mut listing = String::new();
    for d in &shown {
        describe(&mut listing, &trace.name, d);
    }
    let not_shown = count.saturating_sub(shown.len() as u64);
    if not_shown > 0 {
        let _ = writeln!(
            listing,
            "({not_shown} more not shown: raise --max-diagnostics)"
        );
    }
    if count > 0 {
        for line in rule.citation_lines(rule.citation_for(trace.revision.revision)) {
            let _ = writeln!(listing, "{line}");
        }
    }
    let severity = rule.severity();
    let counted = plural(count, severity.as_str(), &format!("{severity}s"));
    let headline = match shown.first() {
        Some(first) if count > 1 => format!("{counted}; first: {}", first.message),
        Some(first) => first.message.clone(),
        None => counted.clone(),
    };
    let baselined = run.baseline.and_then(|b| b.covering(index, rule.id));
    let status = if count == 0 {
        TestCaseStatus::success()
    } else if let Some(entry) = baselined {
        let mut status = TestCaseStatus::skipped();
        status
            .set_message(format!("baselined ({counted}): {}", entry.entry.reason))
            .set_type("baselined")
            .set_description(listing.as_str());
        status
    } else if run.fails(severity) {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_message(headline.as_str())
            .set_type(format!("{} {}", rule.level_label(), rule.id))
            .set_description(listing.as_str());
        status
    } else {
        TestCaseStatus::success()
    };
    let passed_with_output = count > 0 && matches!(status, TestCaseStatus::Success { .. });
    let mut case = TestCase::new(rule.id, status);
    case.set_time(UNTIMED);
    case.set_classname(trace.name.as_str());
    if trace.name != STDIN {
        case.extra
            .insert("file".into(), display_path(&trace.name).into());
        if let Some(first) = shown.first() {
            case.extra
                .insert("line".into(), first.line.to_string().into());
        }
    }
    if passed_with_output {
        case.set_system_out(listing);
    }
    case
}

/// `file:line: severity: message`, then context, hint.
fn describe(out: &mut String, file: &str, d: &Diagnostic) {
    let _ = writeln!(out, "{}:{}: {}: {}", file, d.line, d.severity(), d.message);
    if let Some(context) = d.context() {
        let _ = writeln!(out, "  {context}");
    }
    if let Some(hint) = &d.hint {
        let _ = writeln!(out, "  help: {hint}");
    }
}

pub(crate) fn baseline_suite(baseline: &Judgement) -> TestSuite {
    let mut suite = TestSuite::new(format!("baseline {}", baseline.file));
    suite.set_time(UNTIMED);
    suite.add_property(Property::new("today", baseline.today.to_string()));
    for outcome in &baseline.entries {
        let entry = &outcome.entry;
        let status = match outcome.status {
            EntryStatus::Used => TestCaseStatus::success(),
            EntryStatus::Expired | EntryStatus::Unused => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_message(outcome.problem().unwrap_or_default())
                    .set_type(format!("baseline entry {}", outcome.status))
                    .set_description(format!(
                        "{}:{}: reason: {}\n",
                        baseline.file, entry.line, entry.reason
                    ));
                status
            }
        };
        let mut case = TestCase::new(entry.describe(), status);
        case.set_time(UNTIMED);
        case.set_classname(format!("baseline {}", baseline.file));
        case.extra
            .insert("file".into(), display_path(&baseline.file).into());
        case.extra
            .insert("line".into(), entry.line.to_string().into());
        if outcome.status == EntryStatus::Used {
            case.set_system_out(format!(
                "accepts {}: {}\n",
                plural(outcome.matched, "diagnostic", "diagnostics"),
                entry.reason
            ));
        }
        suite.add_test_case(case);
    }
    suite
}
