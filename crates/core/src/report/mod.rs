//! Report writers. They read a finished [`Run`] (traces, and the baseline
//! applied to them) and never reach back into validation.

cli_module!(files);
cli_module!(github);
cli_module!(human);
cli_module!(json);
cli_module!(junit);
cli_module!(reference);
cli_module!(sarif);

use crate::baseline::{EntryOutcome, Judgement};
use crate::catalog::Counts;
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use crate::spec::Revision;
use crate::validate::TraceReport;
use serde::Serialize;

/// The report formats (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// rustc-style diagnostics and a summary.
    Human,
    /// One JSON document (schemas/report.schema.json).
    Json,
    /// JUnit XML: a test suite per trace, a test case per rule.
    Junit,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

/// What the suite concludes about a run, before any baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// No error found (and no warning, with `--deny-warnings`).
    Conformant,
    /// At least one error (or warning, with `--deny-warnings`).
    NotConformant,
    /// No error found, but part of the input was not checked (the checker's
    /// limits): the suite cannot call it conformant.
    Incomplete,
}

impl Verdict {
    /// The verdict as reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Conformant => "conformant",
            Verdict::NotConformant => "not conformant",
            Verdict::Incomplete => "incomplete",
        }
    }
}

/// Whether the run passes the gate (exit status 0) or fails it (1). Without
/// a baseline it follows the verdict; with one, baselined failures pass and
/// baseline entries that expired or match nothing fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The run passes (exit status 0).
    Pass,
    /// The run fails (exit status 1).
    Fail,
}

impl Outcome {
    /// The outcome as reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
        }
    }
}

/// Which subcommand produced the run (the JSON document's `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// `acp-plan check`: recorded traces.
    #[default]
    Check,
    /// `acp-plan agent`: an agent driven through scenarios.
    Agent,
    /// `acp-plan tap`: a watched client-agent connection.
    Tap,
    /// `acp-plan client`: a client under test.
    Client,
}

/// Options that change the verdict or what is shown.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReportOptions {
    /// Fail the run on warnings too (`--deny-warnings`).
    pub deny_warnings: bool,
    /// Pass a run whose only problem is input the checker could not check
    /// (`--incomplete warn`); by default such a run fails closed.
    pub accept_incomplete: bool,
    /// Show the reference client state in human reports (`--show-state`).
    pub show_state: bool,
    /// Show only failing traces and the summary (`--quiet`).
    pub quiet: bool,
}

/// Everything a report shows: the traces (or scenario transcripts) of one
/// invocation and the baseline applied to them.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    /// Which subcommand produced the run.
    pub mode: Mode,
    /// The reports of the run's traces (or scenario transcripts).
    pub traces: &'a [TraceReport],
    /// The baseline applied to them, if any.
    pub baseline: Option<&'a Judgement>,
    /// The options that change the verdict or what is shown.
    pub options: ReportOptions,
}

impl<'a> Run<'a> {
    /// A `check` run of `traces`, without a baseline.
    pub fn new(traces: &'a [TraceReport], options: ReportOptions) -> Self {
        Run {
            mode: Mode::Check,
            traces,
            baseline: None,
            options,
        }
    }

    /// The run with `baseline` applied.
    pub fn with_baseline(mut self, baseline: Option<&'a Judgement>) -> Self {
        self.baseline = baseline;
        self
    }

    /// Conformance of the traces, baseline or not.
    pub fn verdict(&self) -> Verdict {
        verdict(self.traces, self.options)
    }

    /// The gate: what the exit status says.
    pub fn outcome(&self) -> Outcome {
        let open = self.unbaselined();
        let failing = open.errors > 0
            || (self.options.deny_warnings && open.warnings > 0)
            || (!self.options.accept_incomplete && open.incomplete > 0);
        let stale = self.baseline.is_some_and(|b| b.problems().next().is_some());
        if failing || stale {
            Outcome::Fail
        } else {
            Outcome::Pass
        }
    }

    /// The baseline entry that accepts diagnostic `d` of trace number `trace`.
    pub fn baselined(&self, trace: usize, d: &Diagnostic) -> Option<&'a EntryOutcome> {
        self.baseline?.covering(trace, d.rule.id)
    }

    /// Diagnostics over all traces that no baseline entry accepts.
    pub fn unbaselined(&self) -> Counts {
        let total = totals(self.traces);
        let accepted = self
            .baseline
            .map(Judgement::baselined_total)
            .unwrap_or_default();
        Counts {
            errors: total.errors.saturating_sub(accepted.errors),
            warnings: total.warnings.saturating_sub(accepted.warnings),
            infos: total.infos.saturating_sub(accepted.infos),
            incomplete: total.incomplete.saturating_sub(accepted.incomplete),
        }
    }

    /// Whether a diagnostic of this severity fails the run (when not baselined).
    pub fn fails(&self, severity: Severity) -> bool {
        match severity {
            Severity::Error => true,
            Severity::Warning => self.options.deny_warnings,
            Severity::Info => false,
            Severity::Incomplete => !self.options.accept_incomplete,
        }
    }
}

/// Render `run` in `format`.
pub fn render(format: Format, run: &Run<'_>) -> String {
    match format {
        Format::Human => human::render(run),
        Format::Json => {
            let document = json::render(run);
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Junit => junit::render(run),
        Format::Sarif => {
            let document = sarif::render(run);
            let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Github => github::render(run),
    }
}

/// Totals over all traces.
pub fn totals(traces: &[TraceReport]) -> Counts {
    let mut total = Counts::default();
    for t in traces {
        total.errors += t.counts.errors;
        total.warnings += t.counts.warnings;
        total.infos += t.counts.infos;
        total.incomplete += t.counts.incomplete;
    }
    total
}

/// The verdict on `traces` as a whole.
pub fn verdict(traces: &[TraceReport], options: ReportOptions) -> Verdict {
    verdict_of(totals(traces), options)
}

/// Errors (and warnings when denied) make a verdict of non-conformance; with
/// none, anything left unchecked makes it incomplete.
pub fn verdict_of(counts: Counts, options: ReportOptions) -> Verdict {
    if counts.errors > 0 || (options.deny_warnings && counts.warnings > 0) {
        Verdict::NotConformant
    } else if counts.incomplete > 0 {
        Verdict::Incomplete
    } else {
        Verdict::Conformant
    }
}

/// The revision all traces were checked under, or "mixed".
pub(crate) fn spec_label(traces: &[TraceReport]) -> String {
    shared_revision_label(traces, |r| r.to_string())
}

/// Which text [`spec_label`]'s revision is, or `mixed` / `none`.
pub(crate) fn spec_release_label(traces: &[TraceReport]) -> String {
    shared_revision_label(traces, |r| r.release().to_owned())
}

/// `label` of the revision every trace was checked under; `none` without
/// traces, `mixed` when they differ.
fn shared_revision_label(traces: &[TraceReport], label: impl Fn(Revision) -> String) -> String {
    let mut revisions = traces.iter().map(|t| t.revision.revision);
    match revisions.next() {
        None => "none".into(),
        Some(first) if revisions.all(|r| r == first) => label(first),
        Some(_) => "mixed".into(),
    }
}

/// `1 error`, `2 errors`.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The trace name as a report shows it: `/` separators, no leading `./`.
fn display_path(name: &str) -> String {
    crate::baseline::scope_name(name)
}

/// Name of the trace read from standard input (it has no file to point at).
pub(crate) const STDIN: &str = "<stdin>";
