//! rustc-style output.

use super::{plural, totals, Outcome, Run};
use crate::baseline::{EntryOutcome, EntryStatus, Judgement};
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use crate::spec::messages::{PlanContent, PlanEntry};
use crate::state::ClientState;
use std::fmt::Write;

/// The whole rustc-style report of `run`: each diagnostic with its citation, the per-trace
/// verdicts, the client state when asked for, the baseline's judgement and the totals.
pub fn render(run: &Run<'_>) -> String {
    let mut out = render_diagnostics(run);
    out.push_str(&render_summary(run));
    out
}

/// The diagnostics, and the baseline entries that fail the run.
pub(crate) fn render_diagnostics(run: &Run<'_>) -> String {
    let options = run.options;
    let mut out = String::new();
    for (index, trace) in run.traces.iter().enumerate() {
        for d in &trace.diagnostics {
            if options.quiet && d.severity() == Severity::Info {
                continue;
            }
            let baselined = run.baselined(index, d).zip(run.baseline);
            render_diagnostic(&mut out, &trace.name, d, baselined);
        }
    }
    if let Some(baseline) = run.baseline {
        for entry in baseline.problems() {
            render_entry_problem(&mut out, &baseline.file, entry);
        }
    }
    out
}

/// Per trace: lines, messages, revision and counts (and, with
/// `--show-state`, what a client shows), without a verdict.
pub(crate) fn render_trace_summaries(run: &Run<'_>) -> String {
    let options = run.options;
    let mut out = String::new();
    for (index, trace) in run.traces.iter().enumerate() {
        let kept = trace.diagnostics.len() as u64;
        let found = trace.counts.total();
        let _ = writeln!(
            out,
            "{}: {}, {}; spec {} ({}; {})",
            trace.name,
            plural(trace.lines, "line", "lines"),
            plural(trace.messages, "message", "messages"),
            trace.revision.revision,
            trace.revision.revision.release(),
            trace.revision.reason
        );
        let accepted = run
            .baseline
            .map(|b| b.baselined_in(index))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}, {}, {}",
            with_baselined(
                plural(trace.counts.errors, "error", "errors"),
                accepted.errors
            ),
            with_baselined(
                plural(trace.counts.warnings, "warning", "warnings"),
                accepted.warnings
            ),
            with_baselined(plural(trace.counts.infos, "info", "infos"), accepted.infos)
        );
        if trace.counts.incomplete > 0 {
            let _ = writeln!(
                out,
                "  incomplete: {} (the checker's limits, not violations)",
                plural(
                    trace.counts.incomplete,
                    "part not checked",
                    "parts not checked"
                )
            );
        }
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
    out
}

/// Everything but the diagnostics: per trace counts, the verdict and the
/// baseline's result (the tap streams diagnostics as it finds them).
pub(crate) fn render_summary(run: &Run<'_>) -> String {
    let options = run.options;
    let mut out = render_trace_summaries(run);
    let total = totals(run.traces);
    let _ = writeln!(
        out,
        "verdict: {} ({}, {}{}{})",
        run.verdict().as_str(),
        plural(total.errors, "error", "errors"),
        plural(total.warnings, "warning", "warnings"),
        incomplete_note(total.incomplete, options.accept_incomplete),
        if options.deny_warnings {
            ", warnings denied"
        } else {
            ""
        }
    );
    if let Some(baseline) = run.baseline {
        let accepted = baseline.baselined_total();
        let open = run.unbaselined();
        let problems = baseline.problems().count() as u64;
        let mut why = Vec::new();
        if open.errors > 0 {
            why.push(format!(
                "{} not baselined",
                plural(open.errors, "error", "errors")
            ));
        }
        if options.deny_warnings && open.warnings > 0 {
            why.push(format!(
                "{} not baselined",
                plural(open.warnings, "warning", "warnings")
            ));
        }
        if problems > 0 {
            why.push(format!(
                "{} to remove or renew",
                plural(problems, "baseline entry", "baseline entries")
            ));
        }
        let used = baseline
            .entries
            .iter()
            .filter(|e| e.status == EntryStatus::Used)
            .count() as u64;
        let _ = writeln!(
            out,
            "baseline {}: {} used of {}; {} and {} accepted (expiry judged on {})",
            baseline.file,
            used,
            plural(baseline.entries.len() as u64, "entry", "entries"),
            plural(accepted.errors, "error", "errors"),
            plural(accepted.warnings, "warning", "warnings"),
            baseline.today
        );
        let _ = match run.outcome() {
            Outcome::Pass => writeln!(out, "result: pass"),
            Outcome::Fail => writeln!(out, "result: fail ({})", why.join(", ")),
        };
    }
    out
}

fn with_baselined(counted: String, baselined: u64) -> String {
    if baselined == 0 {
        counted
    } else {
        format!("{counted} ({baselined} baselined)")
    }
}

fn render_entry_problem(out: &mut String, file: &str, entry: &EntryOutcome) {
    let headline = match entry.status {
        EntryStatus::Used => return,
        EntryStatus::Expired => format!(
            "baseline entry expired on {}: {}",
            entry
                .entry
                .expires
                .map(|d| d.to_string())
                .unwrap_or_default(),
            entry.entry.describe()
        ),
        EntryStatus::Unused => {
            format!(
                "baseline entry matches no failure: {}",
                entry.entry.describe()
            )
        }
    };
    let _ = writeln!(out, "error[baseline]: {headline}");
    let _ = writeln!(out, "  --> {}:{}", file, entry.entry.line);
    let _ = writeln!(out, "   = reason: {}", entry.entry.reason);
    let help = match entry.status {
        EntryStatus::Expired => {
            "fix what it covered (no longer baselined, it fails the run again) or extend `expires`"
        }
        _ => "the problem is gone: remove the entry so it cannot come back unnoticed",
    };
    let _ = writeln!(out, "   = help: {help}");
    out.push('\n');
}

/// ", 2 parts not checked" (and whether that is accepted), or nothing.
pub fn incomplete_note(incomplete: u64, accepted: bool) -> String {
    if incomplete == 0 {
        return String::new();
    }
    format!(
        ", {}{}",
        plural(incomplete, "part not checked", "parts not checked"),
        if accepted {
            " (accepted: --incomplete warn)"
        } else {
            ""
        }
    )
}

/// One diagnostic, rustc-style, as `check` prints it.
pub fn render_diagnostic(
    out: &mut String,
    file: &str,
    d: &Diagnostic,
    baselined: Option<(&EntryOutcome, &Judgement)>,
) {
    let mark = if baselined.is_some() {
        " (baselined)"
    } else {
        ""
    };
    let _ = writeln!(out, "{}[{}]{mark}: {}", d.severity(), d.rule.id, d.message);
    let _ = writeln!(out, "  --> {}:{}", file, d.line);
    if let Some(snippet) = &d.snippet {
        let number = d.line.to_string();
        let pad = " ".repeat(number.len());
        let _ = writeln!(out, "{pad} |");
        let _ = writeln!(out, "{number} | {snippet}");
        let _ = writeln!(out, "{pad} |");
    }
    if let Some(context) = d.context() {
        let _ = writeln!(out, "   = {context}");
    }
    if let Some(hint) = &d.hint {
        let _ = writeln!(out, "   = help: {hint}");
    }
    for line in d.rule.citation_lines(d.citation()) {
        let _ = writeln!(out, "   = {line}");
    }
    if let Some((entry, baseline)) = baselined {
        let _ = writeln!(
            out,
            "   = baselined by {}:{}: {}",
            baseline.file, entry.entry.line, entry.entry.reason
        );
    }
    out.push('\n');
}

fn render_entries(out: &mut String, entries: &[PlanEntry]) {
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
                render_entries(out, entries);
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
                    render_entries(out, entries);
                }
                PlanContent::File { uri } => {
                    let _ = writeln!(out, "      plan {plan_id} (file): {uri}");
                }
                PlanContent::Markdown { content, path } => {
                    let _ = writeln!(
                        out,
                        "      plan {plan_id} (markdown): {:?}",
                        crate::text::shorten(content, 60)
                    );
                    if let Some(path) = path {
                        let _ = writeln!(out, "        file: {path}");
                    }
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
