//! The `dag` fuzz target's invariants: bytes through the tool-call plan
//! checker ([`crate::check_bytes`]) and every view of its report (the other
//! targets' are in `acp_plan_conformance::fuzzing`).
//!
//! Invariants, under both write modes: every diagnostic is of a `DAG-*`
//! rule, keeps the `acp_plan_conformance::fuzzing::check_bounds` bounds
//! and its line is a line of the input;
//! the counts add up to the kept and the unshown diagnostics, and the
//! verdict agrees with the error count; the graph's edges join calls that
//! exist; the schedule places every call once (or leaves it unscheduled,
//! exactly when there is a cycle) after every call it reads from; each
//! reported cycle is a closed walk over edges; and the human, JSON, dry-run,
//! Mermaid and DOT views render (JSON as an object).

use crate::check::{check_bytes, DagReport};
use crate::dataflow;
use crate::options::{DagOptions, WriteMode};
use crate::report as views;
use acp_plan_conformance::catalog::Severity;
use acp_plan_conformance::fuzzing::{check_bounds, Broken, Checked};
use acp_plan_conformance::report::{ReportOptions, Verdict};

/// `Err(Broken)` with a formatted message unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(Broken(format!($($arg)+)));
        }
    };
}

pub fn check(data: &[u8]) -> Checked {
    for writes in [WriteMode::Immutable, WriteMode::LastWins] {
        let options = DagOptions {
            writes,
            ..DagOptions::default()
        };
        check_report(data, &check_bytes(data, &options))?;
    }
    Ok(())
}

fn check_report(data: &[u8], report: &DagReport) -> Checked {
    let lines = data.split(|&b| b == b'\n').count() as u64;
    for d in &report.diagnostics {
        ensure!(
            crate::rules::RULES.contains(&d.rule),
            "diagnostic rule {} is not a DAG rule",
            d.rule.id
        );
        check_bounds(d)?;
        ensure!(
            d.line >= 1 && d.line <= lines,
            "{} on line {} of a {lines}-line plan",
            d.rule.id,
            d.line
        );
    }
    let c = report.counts;
    ensure!(
        c.total() == report.diagnostics.len() as u64 + report.not_shown,
        "counts {c:?} for {} kept and {} unshown diagnostics",
        report.diagnostics.len(),
        report.not_shown
    );
    let kept_errors = report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .count() as u64;
    ensure!(
        kept_errors <= c.errors && (report.not_shown > 0 || kept_errors == c.errors),
        "{kept_errors} errors kept, {} counted",
        c.errors
    );
    let said = views::verdict(report, ReportOptions::default());
    ensure!(
        (said == Verdict::NotConformant) == (c.errors > 0),
        "verdict {said:?} with {} errors",
        c.errors
    );
    if let Some(graph) = &report.graph {
        let n = report.plan.calls.len();
        for edge in &graph.edges {
            ensure!(
                edge.from < n && edge.to < n,
                "edge {edge:?} between calls of a {n}-call plan"
            );
        }
        let mut wave_of = vec![None; n];
        for (w, wave) in graph.schedule.waves.iter().enumerate() {
            for &call in wave {
                let slot = wave_of.get_mut(call);
                ensure!(
                    matches!(slot, Some(None)),
                    "call {call} scheduled twice or out of range"
                );
                if let Some(slot) = slot {
                    *slot = Some(w);
                }
            }
        }
        for &call in &graph.schedule.unscheduled {
            ensure!(
                matches!(wave_of.get(call), Some(None)),
                "call {call} both scheduled and unscheduled"
            );
        }
        let placed = wave_of.iter().filter(|w| w.is_some()).count();
        ensure!(
            placed + graph.schedule.unscheduled.len() == n,
            "{placed} calls scheduled and {} not, of {n}",
            graph.schedule.unscheduled.len()
        );
        ensure!(
            graph.cycles.is_empty() == graph.schedule.unscheduled.is_empty(),
            "{} cycles but {} unscheduled calls",
            graph.cycles.len(),
            graph.schedule.unscheduled.len()
        );
        for edge in &graph.edges {
            if let (Some(Some(from)), Some(Some(to))) =
                (wave_of.get(edge.from), wave_of.get(edge.to))
            {
                ensure!(
                    from < to,
                    "call {} (wave {to}) reads from call {} (wave {from})",
                    edge.to,
                    edge.from
                );
            }
        }
        for cycle in &graph.cycles {
            let walk: Vec<_> = cycle
                .edges
                .iter()
                .filter_map(|&e| graph.edges.get(e))
                .collect();
            ensure!(
                !walk.is_empty() && walk.len() == cycle.edges.len(),
                "cycle {:?} names missing edges",
                cycle.edges
            );
            for (i, edge) in walk.iter().enumerate() {
                let next = walk[(i + 1) % walk.len()];
                ensure!(
                    edge.to == next.from,
                    "cycle {:?} is not a closed walk",
                    cycle.edges
                );
            }
        }
    }
    let options = ReportOptions::default();
    for dry_run in [false, true] {
        let _ = views::render_human(report, options, dry_run);
        let json = views::render_json(report, options, dry_run);
        ensure!(json.is_object(), "the JSON report is not an object");
    }
    let _ = views::render_dry_run(report);
    let _ = dataflow::mermaid(report);
    let _ = dataflow::dot(report);
    Ok(())
}
