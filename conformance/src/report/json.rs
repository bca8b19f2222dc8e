//! The `--format json` document.

use super::{spec_label, totals, verdict, ReportOptions};
use crate::diag::Diagnostic;
use crate::validate::TraceReport;
use serde_json::{json, Value};

pub fn render(traces: &[TraceReport], options: ReportOptions) -> Value {
    let diagnostics: Vec<Value> = traces
        .iter()
        .flat_map(|t| t.diagnostics.iter().map(move |d| diagnostic(&t.name, d)))
        .collect();
    let total = totals(traces);
    let shown = diagnostics.len() as u64;
    let summary = json!({
        "errors": total.errors,
        "warnings": total.warnings,
        "infos": total.infos,
        "not_shown": (total.errors + total.warnings + total.infos).saturating_sub(shown),
        "traces": traces.len(),
        "lines": traces.iter().map(|t| t.lines).sum::<u64>(),
        "messages": traces.iter().map(|t| t.messages).sum::<u64>(),
        "deny_warnings": options.deny_warnings,
    });
    let per_trace: Vec<Value> = traces
        .iter()
        .map(|t| {
            let mut v = json!({
                "file": t.name,
                "spec": t.revision.revision,
                "spec_reason": t.revision.reason,
                "lines": t.lines,
                "messages": t.messages,
                "errors": t.counts.errors,
                "warnings": t.counts.warnings,
                "infos": t.counts.infos,
            });
            if options.show_state {
                v["state"] = t.state.to_json();
            }
            v
        })
        .collect();
    json!({
        "verdict": verdict(traces, options),
        "spec": spec_label(traces),
        "diagnostics": diagnostics,
        "summary": summary,
        "traces": per_trace,
    })
}

pub fn diagnostic(file: &str, d: &Diagnostic) -> Value {
    json!({
        "rule": d.rule.id,
        "severity": d.severity(),
        "level": d.rule.level,
        "file": file,
        "line": d.line,
        "pointer": d.pointer,
        "session": d.session,
        "plan": d.plan,
        "message": d.message,
        "hint": d.hint,
    })
}
