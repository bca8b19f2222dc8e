//! Reports of `acp-plan dag`: the same diagnostics and verdict as `check`
//! (human and JSON), the dry run (waves of calls that can run in
//! parallel), and the data-flow graph (Mermaid, Graphviz DOT).

use crate::check::DagReport;
use crate::graph::{Branch, ReadFact, Resolution};
use crate::plan::Call;
use crate::reference::Join;
use acp_plan_conformance::catalog::Severity;
use acp_plan_conformance::report::{github, human, json, plural, sarif, ReportOptions, Verdict};
use serde_json::{json, Value};
use std::fmt::Write;

pub fn verdict(report: &DagReport, options: ReportOptions) -> Verdict {
    acp_plan_conformance::report::verdict_of(report.counts, options)
}

/// rustc-style diagnostics, the dry run if asked, a summary and the verdict.
pub fn render_human(report: &DagReport, options: ReportOptions, dry_run: bool) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        if options.quiet && d.severity() == Severity::Info {
            continue;
        }
        human::render_diagnostic(&mut out, &report.name, d, None);
    }
    if dry_run {
        out.push_str(&render_dry_run(report));
        out.push('\n');
    }
    let plan = &report.plan;
    let shape = plan.shape.map_or("unreadable plan", |s| s.describe());
    let _ = write!(
        out,
        "{}: {} with {}",
        report.name,
        shape,
        plural(plan.calls.len() as u64, "call", "calls")
    );
    match &report.graph {
        Some(graph) => {
            let _ = writeln!(
                out,
                ", {}, {}; writes {}",
                plural(graph.edges.len() as u64, "dependency", "dependencies"),
                plural(graph.schedule.waves.len() as u64, "wave", "waves"),
                report.writes.as_str()
            );
        }
        None => {
            let _ = writeln!(out, "; graph not checked");
        }
    }
    let c = report.counts;
    let _ = writeln!(
        out,
        "  {}, {}, {}",
        plural(c.errors, "error", "errors"),
        plural(c.warnings, "warning", "warnings"),
        plural(c.infos, "info", "infos")
    );
    if report.not_shown > 0 {
        let _ = writeln!(
            out,
            "  ({} more not shown: raise --max-diagnostics)",
            report.not_shown
        );
    }
    let _ = writeln!(
        out,
        "verdict: {} ({}, {}{}{})",
        verdict(report, options).as_str(),
        plural(c.errors, "error", "errors"),
        plural(c.warnings, "warning", "warnings"),
        human::incomplete_note(c.incomplete, options.accept_incomplete),
        if options.deny_warnings {
            ", warnings denied"
        } else {
            ""
        }
    );
    out
}

/// The execution order as waves; each call with what it reads (and from
/// whom) and what it writes.
pub fn render_dry_run(report: &DagReport) -> String {
    let mut out = String::new();
    let Some(graph) = &report.graph else {
        out.push_str("dry run: not available (the plan could not be read completely)\n");
        return out;
    };
    let calls = &report.plan.calls;
    let _ = writeln!(
        out,
        "dry run: {} in {} (the calls of a wave can run in parallel)",
        plural(calls.len() as u64, "call", "calls"),
        plural(graph.schedule.waves.len() as u64, "wave", "waves")
    );
    let facts = facts_by_call(report);
    for (number, wave) in graph.schedule.waves.iter().enumerate() {
        let _ = writeln!(out, "wave {}", number + 1);
        for call in wave.iter().filter_map(|&c| calls.get(c)) {
            render_call(&mut out, call, calls, facts.get(call.index), &graph.guards);
        }
    }
    if !graph.schedule.unscheduled.is_empty() {
        let _ = writeln!(out, "not scheduled (in a cycle, or after one)");
        for call in graph
            .schedule
            .unscheduled
            .iter()
            .filter_map(|&c| calls.get(c))
        {
            render_call(&mut out, call, calls, facts.get(call.index), &graph.guards);
        }
    }
    out
}

fn facts_by_call(report: &DagReport) -> Vec<Vec<&ReadFact>> {
    let mut by_call = vec![Vec::new(); report.plan.calls.len()];
    if let Some(graph) = &report.graph {
        for fact in &graph.reads {
            if let Some(slot) = by_call.get_mut(fact.call) {
                slot.push(fact);
            }
        }
    }
    by_call
}

fn render_call(
    out: &mut String,
    call: &Call,
    calls: &[Call],
    facts: Option<&Vec<&ReadFact>>,
    all_guards: &[Vec<Branch>],
) {
    let _ = writeln!(out, "  {} (line {})", call.label(), call.place.line);
    let guards = all_guards
        .get(call.index)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for branch in guards {
        let Some(choice) = calls.get(branch.choice) else {
            continue;
        };
        let Some(target) = choice
            .output
            .as_ref()
            .and_then(|o| o.targets.get(branch.target))
        else {
            continue;
        };
        let _ = writeln!(
            out,
            "      only if {} writes {target} (skipped on the other branch)",
            choice.label()
        );
    }
    let facts = facts.map(Vec::as_slice).unwrap_or_default();
    if facts.is_empty() {
        let _ = writeln!(out, "      reads  (nothing)");
    }
    for (i, fact) in facts.iter().enumerate() {
        let Some(read) = call.reads.get(fact.read) else {
            continue;
        };
        let _ = writeln!(
            out,
            "      {} {}  {}",
            if i == 0 { "reads " } else { "      " },
            read.reference,
            source(fact, calls, all_guards)
        );
    }
    let _ = writeln!(out, "      writes {}", writes(call));
}

fn source(fact: &ReadFact, calls: &[Call], guards: &[Vec<Branch>]) -> String {
    match fact.resolution {
        Resolution::Written { .. } => {
            let writers: Vec<String> = fact
                .writers
                .iter()
                .filter_map(|&w| calls.get(w).map(Call::label))
                .collect();
            // Writers on different branches of one choice: only one runs,
            // so the read waits for whichever does, not for all.
            let one_runs = fact.writers.len() > 1
                && fact.writers.iter().enumerate().all(|(i, &a)| {
                    fact.writers[i + 1..]
                        .iter()
                        .all(|&b| crate::graph::exclusive(guards, a, b))
                });
            if one_runs {
                format!(
                    "← {} (one branch runs: whichever does)",
                    writers.join(" or ")
                )
            } else {
                format!("← {}", writers.join(", "))
            }
        }
        Resolution::Known => "(given)".into(),
        Resolution::Unchecked => "(not checked)".into(),
        Resolution::Dangling => "(nobody writes it)".into(),
    }
}

fn writes(call: &Call) -> String {
    let Some(output) = &call.output else {
        return "(nothing)".into();
    };
    let paths: Vec<String> = output.targets.iter().map(|t| t.to_string()).collect();
    match output.join {
        Join::Any if paths.len() > 1 => format!("one of {}", paths.join(", ")),
        Join::All if paths.len() > 1 => format!("all of {}", paths.join(", ")),
        _ => paths.join(", "),
    }
}

/// The `--format json` document.
pub fn render_json(report: &DagReport, options: ReportOptions, dry_run: bool) -> Value {
    let diagnostics: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| json::diagnostic(&report.name, d))
        .collect();
    let c = report.counts;
    let mut document = json!({
        "verdict": verdict(report, options),
        "file": report.name,
        "shape": report.plan.shape,
        "writes": report.writes,
        "diagnostics": diagnostics,
        "summary": {
            "errors": c.errors,
            "warnings": c.warnings,
            "infos": c.infos,
            "incomplete": c.incomplete,
            "not_shown": report.not_shown,
            "calls": report.plan.calls.len(),
            "dependencies": report.graph.as_ref().map(|g| g.edges.len()),
            "waves": report.graph.as_ref().map(|g| g.schedule.waves.len()),
            "deny_warnings": options.deny_warnings,
            "incomplete_policy": if options.accept_incomplete { "warn" } else { "fail" },
        },
        "unchecked": report
            .diagnostics
            .iter()
            .filter(|d| d.severity() == Severity::Incomplete)
            .map(|d| json::unchecked_part(&report.name, d))
            .collect::<Vec<_>>(),
    });
    if dry_run {
        document["dry_run"] = dry_run_json(report);
    }
    document
}

fn dry_run_json(report: &DagReport) -> Value {
    let Some(graph) = &report.graph else {
        return Value::Null;
    };
    let calls = &report.plan.calls;
    let facts = facts_by_call(report);
    let call_json = |c: usize| -> Option<Value> {
        let call = calls.get(c)?;
        let reads: Vec<Value> = facts
            .get(c)
            .into_iter()
            .flatten()
            .filter_map(|fact| {
                let read = call.reads.get(fact.read)?;
                let (source, from): (&str, Vec<usize>) = match fact.resolution {
                    Resolution::Written { .. } => {
                        ("calls", fact.writers.iter().map(|w| w + 1).collect())
                    }
                    Resolution::Known => ("given", Vec::new()),
                    Resolution::Unchecked => ("not_checked", Vec::new()),
                    Resolution::Dangling => ("nobody", Vec::new()),
                };
                Some(json!({
                    "path": read.reference.to_string(),
                    "pointer": read.pointer,
                    "source": source,
                    "from": from,
                }))
            })
            .collect();
        let writes = call.output.as_ref().map(|o| {
            json!({
                "join": match o.join { Join::Single => "one", Join::Any => "any", Join::All => "all" },
                "paths": o.targets.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
            })
        });
        Some(json!({
            "call": c + 1,
            "tool": call.tool,
            "line": call.place.line,
            "pointer": call.place.pointer,
            "reads": reads,
            "writes": writes,
        }))
    };
    let waves: Vec<Vec<Value>> = graph
        .schedule
        .waves
        .iter()
        .map(|wave| wave.iter().filter_map(|&c| call_json(c)).collect())
        .collect();
    let unscheduled: Vec<Value> = graph
        .schedule
        .unscheduled
        .iter()
        .filter_map(|&c| call_json(c))
        .collect();
    json!({"waves": waves, "unscheduled": unscheduled})
}

/// Whether a diagnostic of `severity` fails the plan.
fn fails(severity: Severity, options: ReportOptions) -> bool {
    // As `check` judges it (one definition of what fails a run).
    acp_plan_conformance::report::Run::new(&[], options).fails(severity)
}

/// `--format junit`: a test suite for the plan file, a test case per
/// `DAG-*` rule (failed with every location, or passed; warnings and infos
/// that do not fail are in `<system-out>`).
pub fn render_junit(report: &DagReport, options: ReportOptions) -> String {
    use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
    let untimed = std::time::Duration::ZERO;
    let mut suite = TestSuite::new(report.name.as_str());
    suite.set_time(untimed);
    suite.add_property(Property::new("writes", report.writes.as_str()));
    for rule in crate::rules::RULES.iter().copied() {
        let found: Vec<&acp_plan_conformance::diag::Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule.id == rule.id)
            .collect();
        let mut listing = String::new();
        for d in &found {
            let _ = writeln!(
                listing,
                "{}:{}: {}: {}",
                report.name,
                d.line,
                d.severity(),
                d.message
            );
            if let Some(hint) = &d.hint {
                let _ = writeln!(listing, "  help: {hint}");
            }
        }
        if !found.is_empty() {
            for line in rule.citation_lines(&rule.citation) {
                let _ = writeln!(listing, "{line}");
            }
        }
        let failing = !found.is_empty() && fails(rule.severity(), options);
        let status = match found.first() {
            Some(first) if failing => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                let headline = if found.len() > 1 {
                    format!(
                        "{}; first: {}",
                        plural(found.len() as u64, "diagnostic", "diagnostics"),
                        first.message
                    )
                } else {
                    first.message.clone()
                };
                status
                    .set_message(headline)
                    .set_type(format!("{} {}", rule.level_label(), rule.id))
                    .set_description(listing.as_str());
                status
            }
            _ => TestCaseStatus::success(),
        };
        let mut case = TestCase::new(rule.id, status);
        case.set_time(untimed);
        case.set_classname(report.name.as_str());
        case.extra
            .insert("file".into(), report.name.as_str().into());
        if let Some(first) = found.first() {
            case.extra
                .insert("line".into(), first.line.to_string().into());
        }
        if !found.is_empty() && !failing {
            case.set_system_out(listing);
        }
        suite.add_test_case(case);
    }
    let mut junit = Report::new("acp-plan dag");
    junit.set_time(untimed);
    junit.add_test_suite(suite);
    junit.to_string().unwrap_or_default()
}

/// `--format sarif`: the `DAG-*` rules as the driver's rules, each
/// diagnostic a result at the call's line in the plan file.
pub fn render_sarif(report: &DagReport, options: ReportOptions) -> Value {
    let rules = crate::rules::RULES;
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let index = rules.iter().position(|r| r.id == d.rule.id);
            sarif::result(&report.name, d, index)
        })
        .collect();
    json!({
        "$schema": sarif::SARIF_SCHEMA,
        "version": sarif::SARIF_VERSION,
        "runs": [{
            "tool": { "driver": {
                "name": "acp-plan",
                "fullName": "acp-plan dag (plans of tool calls, Acts of Emergence 010)",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| sarif::rule(r)).collect::<Vec<_>>(),
            }},
            "invocations": [{ "executionSuccessful": true }],
            "results": results,
            "properties": {
                "verdict": verdict(report, options),
                "writes": report.writes,
                "not_shown": report.not_shown,
            },
        }],
    })
}

/// `--format github`: an annotation per diagnostic at the call's line,
/// then the verdict.
pub fn render_github(report: &DagReport, options: ReportOptions) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let severity = d.severity();
        if options.quiet && severity == Severity::Info {
            continue;
        }
        let command = if fails(severity, options) {
            "error"
        } else if severity == Severity::Warning {
            "warning"
        } else {
            "notice"
        };
        github::annotate(
            &mut out,
            command,
            Some(&report.name),
            d.line,
            d.rule.id,
            &github::body(d),
        );
    }
    let c = report.counts;
    let _ = writeln!(
        out,
        "acp-plan dag: {} ({}, {})",
        verdict(report, options).as_str(),
        plural(c.errors, "error", "errors"),
        plural(c.warnings, "warning", "warnings")
    );
    out
}
