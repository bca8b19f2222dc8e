//! Report writers. They read finished [`TraceReport`]s and never reach back
//! into validation.

pub mod dag;
pub mod dataflow;
pub mod human;
pub mod json;

use crate::validate::{Counts, TraceReport};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Conformant,
    NotConformant,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Conformant => "conformant",
            Verdict::NotConformant => "not conformant",
        }
    }
}

/// Options that change the verdict or what is shown.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReportOptions {
    pub deny_warnings: bool,
    pub show_state: bool,
    pub quiet: bool,
}

/// Totals over all traces.
pub fn totals(traces: &[TraceReport]) -> Counts {
    let mut total = Counts::default();
    for t in traces {
        total.errors += t.counts.errors;
        total.warnings += t.counts.warnings;
        total.infos += t.counts.infos;
    }
    total
}

pub fn verdict(traces: &[TraceReport], options: ReportOptions) -> Verdict {
    let total = totals(traces);
    if total.errors > 0 || (options.deny_warnings && total.warnings > 0) {
        Verdict::NotConformant
    } else {
        Verdict::Conformant
    }
}

/// The revision all traces were checked under, or "mixed".
pub fn spec_label(traces: &[TraceReport]) -> String {
    let mut revisions = traces.iter().map(|t| t.revision.revision);
    match revisions.next() {
        None => "none".into(),
        Some(first) if revisions.all(|r| r == first) => first.to_string(),
        Some(_) => "mixed".into(),
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
