//! rustc-style output.

use super::{plural, totals, verdict, ReportOptions};
use crate::diag::Diagnostic;
use crate::rules::Severity;
use crate::spec::messages::PlanContent;
use crate::state::ClientState;
use crate::validate::TraceReport;
use std::fmt::Write;

pub fn render(traces: &[TraceReport], options: ReportOptions) -> String {
    let mut out = String::new();
    for trace in traces {
        for d in &trace.diagnostics {
            if options.quiet && d.severity() == Severity::Info {
                continue;
            }
            render_diagnostic(&mut out, &trace.name, d);
        }
    }
    for trace in traces {
        let kept = trace.diagnostics.len() as u64;
        let found = trace.counts.errors + trace.counts.warnings + trace.counts.infos;
        let _ = writeln!(
            out,
            "{}: {}, {}; spec {} ({})",
            trace.name,
            plural(trace.lines, "line", "lines"),
            plural(trace.messages, "message", "messages"),
            trace.revision.revision,
            trace.revision.reason
        );
        let _ = writeln!(
            out,
            "  {}, {}, {}",
            plural(trace.counts.errors, "error", "errors"),
            plural(trace.counts.warnings, "warning", "warnings"),
            plural(trace.counts.infos, "info", "infos")
        );
        if found > kept {
            let _ = writeln!(
                out,
                "  ({} more not shown: raise --max-diagnostics)",
                found - kept
            );
        }
        if options.show_state {
            render_state(&mut out, &trace.state);
        }
    }
    let total = totals(traces);
    let _ = writeln!(
        out,
        "verdict: {} ({}, {}{})",
        verdict(traces, options).as_str(),
        plural(total.errors, "error", "errors"),
        plural(total.warnings, "warning", "warnings"),
        if options.deny_warnings {
            ", warnings denied"
        } else {
            ""
        }
    );
    out
}

pub(crate) fn render_diagnostic(out: &mut String, file: &str, d: &Diagnostic) {
    let _ = writeln!(out, "{}[{}]: {}", d.severity(), d.rule.id, d.message);
    let _ = writeln!(out, "  --> {}:{}", file, d.line);
    if let Some(snippet) = &d.snippet {
        let number = d.line.to_string();
        let pad = " ".repeat(number.len());
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{number} | {snippet}");
        let _ = writeln!(out, "{pad} |");
    }
    let mut context = Vec::new();
    if !d.pointer.is_empty() {
        context.push(format!("at {}", d.pointer));
    }
    if let Some(session) = &d.session {
        context.push(format!("session {session}"));
    }
    if let Some(plan) = &d.plan {
        context.push(format!("plan {plan}"));
    }
    if !context.is_empty() {
        let _ = writeln!(out, "   = {}", context.join(", "));
    }
    if let Some(hint) = &d.hint {
        let _ = writeln!(out, "   = help: {hint}");
    }
    let _ = writeln!(
        out,
        "   = spec ({}): {}",
        d.rule.level.as_str(),
        d.rule.citation
    );
    out.push('\n');
}

fn render_state(out: &mut String, state: &ClientState) {
    let _ = writeln!(out, "  state at end of trace:");
    if state.session_count() == 0 {
        let _ = writeln!(out, "    (no sessions)");
    }
    for (id, plans) in state.sessions() {
        let _ = writeln!(out, "    session {id}");
        match &plans.legacy {
            None => {
                let _ = writeln!(out, "      legacy plan: none");
            }
            Some(entries) => {
                let _ = writeln!(
                    out,
                    "      legacy plan: {}",
                    plural(entries.len() as u64, "entry", "entries")
                );
                for e in entries {
                    let _ = writeln!(
                        out,
                        "        [{}] ({}) {}",
                        e.status.as_str(),
                        e.priority.as_str(),
                        e.content
                    );
                }
            }
        }
        for (plan_id, view) in &plans.plans {
            match &view.content {
                PlanContent::Items { entries } => {
                    let _ = writeln!(
                        out,
                        "      plan {plan_id} (items): {}",
                        plural(entries.len() as u64, "entry", "entries")
                    );
                    for e in entries {
                        let _ = writeln!(
                            out,
                            "        [{}] ({}) {}",
                            e.status.as_str(),
                            e.priority.as_str(),
                            e.content
                        );
                    }
                }
                PlanContent::File { uri } => {
                    let _ = writeln!(out, "      plan {plan_id} (file): {uri}");
                }
                PlanContent::Markdown { content } => {
                    let _ = writeln!(
                        out,
                        "      plan {plan_id} (markdown): {:?}",
                        crate::diag::shorten(content, 60)
                    );
                }
                PlanContent::Custom { type_name, fields } => {
                    let _ = writeln!(
                        out,
                        "      plan {plan_id} ({type_name}): {} member(s)",
                        fields.len()
                    );
                }
            }
        }
    }
}
