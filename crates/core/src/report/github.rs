//! GitHub Actions workflow commands: one annotation per diagnostic
//! (`::error file=...,line=...,title=RULE::message`), shown on the run and,
//! for files in the repository, on the pull request's diff.
//!
//! Errors are `::error`, warnings `::warning`, infos `::notice` (left out
//! under `--quiet`); a baselined diagnostic is a `::notice` whatever its
//! severity, so it stays visible without turning the check red. Baseline
//! entries that expired or match nothing are `::error`s on the baseline file.

use super::{display_path, plural, totals, Outcome, Run, STDIN};
use crate::baseline::Judgement;
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use std::fmt::Write;

pub(crate) fn render(run: &Run<'_>) -> String {
    let mut out = String::new();
    for (index, trace) in run.traces.iter().enumerate() {
        for d in &trace.diagnostics {
            let baselined = run.baselined(index, d);
            if run.options.quiet && d.severity() == Severity::Info && baselined.is_none() {
                continue;
            }
            let (command, title) = match (baselined, d.severity()) {
                (Some(_), _) => ("notice", format!("{} (baselined)", d.rule.id)),
                (None, Severity::Error) => ("error", d.rule.id.to_owned()),
                (None, Severity::Warning) => ("warning", d.rule.id.to_owned()),
                (None, Severity::Info) => ("notice", d.rule.id.to_owned()),
                (None, Severity::Incomplete) if run.fails(Severity::Incomplete) => {
                    ("error", format!("{} (not checked)", d.rule.id))
                }
                (None, Severity::Incomplete) => ("warning", format!("{} (not checked)", d.rule.id)),
            };
            let mut body = body(d);
            if let Some(entry) = baselined {
                let _ = write!(body, "\nbaselined: {}", entry.entry.reason);
            }
            let file = (trace.name != STDIN).then(|| display_path(&trace.name));
            annotate(&mut out, command, file.as_deref(), d.line, &title, &body);
        }
    }
    if let Some(baseline) = run.baseline {
        annotate_baseline_problems(&mut out, baseline);
    }
    let total = totals(run.traces);
    let _ = write!(
        out,
        "acp-plan: {} ({}, {})",
        run.verdict().as_str(),
        plural(total.errors, "error", "errors"),
        plural(total.warnings, "warning", "warnings"),
    );
    if run.baseline.is_some() {
        let _ = write!(
            out,
            "; with the baseline: {}",
            match run.outcome() {
                Outcome::Pass => "pass",
                Outcome::Fail => "fail",
            }
        );
    }
    out.push('\n');
    out
}

/// An `::error` on the baseline file for each entry that expired or
/// matches nothing.
pub(crate) fn annotate_baseline_problems(out: &mut String, baseline: &Judgement) {
    for entry in baseline.problems() {
        let body = format!(
            "{}\nreason: {}",
            entry.problem().unwrap_or_default(),
            entry.entry.reason
        );
        annotate(
            out,
            "error",
            Some(&display_path(&baseline.file)),
            entry.entry.line,
            "acp-plan baseline",
            &body,
        );
    }
}

/// Message, place, hint and spec citation, one per line.
pub fn body(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    if let Some(context) = d.context() {
        let _ = write!(text, "\n{context}");
    }
    if let Some(hint) = &d.hint {
        let _ = write!(text, "\nhelp: {hint}");
    }
    for line in d.rule.citation_lines(d.citation()) {
        let _ = write!(text, "\n{line}");
    }
    text
}

/// Append one workflow command to `out`: `::command file=…,line=…,title=…::message`, with the
/// properties and the message escaped as `@actions/core` does. No `file` gives an annotation on
/// the run only; `line` 0 leaves the line out.
pub fn annotate(
    out: &mut String,
    command: &str,
    file: Option<&str>,
    line: u64,
    title: &str,
    message: &str,
) {
    let mut properties = Vec::new();
    if let Some(file) = file {
        properties.push(format!("file={}", escape_property(file)));
        if line > 0 {
            properties.push(format!("line={line}"));
        }
    }
    properties.push(format!("title={}", escape_property(title)));
    let _ = writeln!(
        out,
        "::{command} {}::{}",
        properties.join(","),
        escape_data(message)
    );
}

/// Escaping of a command's message, as in `@actions/core` (`escapeData`).
pub(crate) fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of a command property, as in `@actions/core` (`escapeProperty`).
pub(crate) fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_and_properties_escape_like_actions_core() {
        assert_eq!(escape_data("50% a\r\nb:c,d"), "50%25 a%0D%0Ab:c,d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    proptest::proptest! {
        #[test]
        fn escaping_is_one_line_and_reversible(text in ".*") {
            let data = escape_data(&text);
            proptest::prop_assert!(!data.contains(['\r', '\n']));
            let property = escape_property(&text);
            proptest::prop_assert!(!property.contains([':', ',', '\r', '\n']));
            let back = property
                .replace("%2C", ",")
                .replace("%3A", ":")
                .replace("%0A", "\n")
                .replace("%0D", "\r")
                .replace("%25", "%");
            proptest::prop_assert_eq!(back, text);
        }
    }

    #[test]
    fn a_message_cannot_start_another_command() {
        let mut out = String::new();
        annotate(
            &mut out,
            "error",
            Some("dir,x/a:b.jsonl"),
            3,
            "R",
            "line one\n::error::injected",
        );
        assert_eq!(
            out,
            "::error file=dir%2Cx/a%3Ab.jsonl,line=3,title=R::line one%0A::error::injected\n"
        );
        assert_eq!(out.lines().count(), 1);
    }
}
