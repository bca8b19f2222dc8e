//! The `--format json` document, described by `schemas/report.schema.json`.

use super::{spec_label, totals, Run};
use crate::baseline::{EntryOutcome, Judgement};
use crate::catalog::Counts;
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use serde_json::{json, Value};

/// Version of the document's shape (`schema_version`). Members are only ever
/// added within a version; a removal or change of meaning bumps it. 2: the
/// verdict `incomplete`, severity `incomplete` and level `LIMIT` (the
/// checker's limits are no longer errors), `summary.incomplete`, `unchecked`.
pub(crate) const SCHEMA_VERSION: u64 = 2;

pub(crate) fn render(run: &Run<'_>) -> Value {
    let traces = run.traces;
    let diagnostics: Vec<Value> = traces
        .iter()
        .enumerate()
        .flat_map(|(index, t)| {
            t.diagnostics.iter().map(move |d| {
                let mut v = diagnostic(&t.name, d);
                v["baselined"] = Value::Bool(run.baselined(index, d).is_some());
                v
            })
        })
        .collect();
    let total = totals(traces);
    let shown = diagnostics.len() as u64;
    let summary = json!({
        "errors": total.errors,
        "warnings": total.warnings,
        "infos": total.infos,
        "incomplete": total.incomplete,
        "not_shown": total.total().saturating_sub(shown),
        "traces": traces.len(),
        "lines": traces.iter().map(|t| t.lines).sum::<u64>(),
        "messages": traces.iter().map(|t| t.messages).sum::<u64>(),
        "deny_warnings": run.options.deny_warnings,
        "incomplete_policy": if run.options.accept_incomplete { "warn" } else { "fail" },
    });
    let per_trace: Vec<Value> = traces
        .iter()
        .map(|t| {
            let mut v = json!({
                "file": t.name,
                "spec": t.revision.revision,
                "spec_release": t.revision.revision.release(),
                "spec_reason": t.revision.reason,
                "lines": t.lines,
                "messages": t.messages,
                "errors": t.counts.errors,
                "warnings": t.counts.warnings,
                "infos": t.counts.infos,
                "incomplete": t.counts.incomplete,
            });
            if run.options.show_state {
                v["state"] = t.state.to_json();
            }
            v
        })
        .collect();
    let mut document = json!({
        "schema_version": SCHEMA_VERSION,
        "mode": run.mode,
        "verdict": run.verdict(),
        "result": run.outcome(),
        "spec": spec_label(traces),
        "diagnostics": diagnostics,
        "summary": summary,
        "traces": per_trace,
        "unchecked": unchecked(run),
    });
    if let Some(baseline) = run.baseline {
        document["baseline"] = baseline_json(baseline);
    }
    document
}

/// What was not checked and why: the diagnostics of the checker's limits.
fn unchecked(run: &Run<'_>) -> Vec<Value> {
    run.traces
        .iter()
        .flat_map(|t| {
            t.diagnostics
                .iter()
                .filter(|d| d.severity() == Severity::Incomplete)
                .map(|d| unchecked_part(&t.name, d))
        })
        .collect()
}

/// The `unchecked` entry of a part the checker's limits left unchecked (a diagnostic of level
/// `LIMIT`): file, line, the limit's rule id and the reason.
pub fn unchecked_part(file: &str, d: &Diagnostic) -> Value {
    json!({"file": file, "line": d.line, "rule": d.rule.id, "reason": d.message})
}

/// The JSON object of one diagnostic in `file`, as the `diagnostics` array of
/// `schemas/report.schema.json` has it.
pub fn diagnostic(file: &str, d: &Diagnostic) -> Value {
    json!({
        "rule": d.rule.id,
        "severity": d.severity(),
        "level": d.rule.level,
        "basis": d.rule.basis,
        "file": file,
        "line": d.line,
        "pointer": d.pointer,
        "session": d.session,
        "plan": d.plan,
        "message": d.message,
        "hint": d.hint,
        "citation": super::sarif::citation_json(d.citation()),
    })
}

fn baseline_json(baseline: &Judgement) -> Value {
    json!({
        "file": baseline.file,
        "today": baseline.today.to_string(),
        "accepted": counts(baseline.baselined_total()),
        "entries": baseline.entries.iter().map(entry).collect::<Vec<_>>(),
    })
}

fn entry(outcome: &EntryOutcome) -> Value {
    let e = &outcome.entry;
    json!({
        "line": e.line,
        "rule": e.rule.id,
        "scope": e.scope.as_ref().map(|s| s.text.as_str()),
        "reason": e.reason,
        "expires": e.expires.map(|d| d.to_string()),
        "matched": outcome.matched,
        "status": outcome.status,
        "problem": outcome.problem(),
    })
}

fn counts(c: Counts) -> Value {
    json!({"errors": c.errors, "warnings": c.warnings, "infos": c.infos, "incomplete": c.incomplete})
}
