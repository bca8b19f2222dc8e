use super::{emit, finish_reports, open_reports, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT};
use crate::cli::{CheckArgs, LimitArgs};
use crate::error::{self, Error};
use acp_plan_conformance::report::{self, Outcome, Run};
use acp_plan_conformance::state::ClientState;
use acp_plan_conformance::trace::Limits;
use acp_plan_conformance::validate::{check_paths_then, default_jobs, Config, TraceReport};
use std::path::PathBuf;

pub fn run(args: CheckArgs) -> Result<u8, Error> {
    let reports = open_reports(&args.report)?;
    let files = acp_plan_conformance::trace::discover::expand(&args.files)
        .map_err(|e| Error::Usage(e.to_string()))?;
    // A baseline that cannot be used is a usage error: fail before checking.
    let baseline = super::load_baseline(&args.baseline)?;
    let config = Config {
        spec: args.spec.spec,
        limits: limits(&args.limits),
    };
    let (traces, unread) = check_all(&files, &config, args.state.show_state);
    if traces.is_empty() {
        // Nothing was checked: a report would only print a "conformant" verdict.
        return Err(Error::Unread(unread));
    }
    let options = args.report.options(Some(&args.verdict), Some(&args.state));
    let judgement = baseline.map(|b| b.judge(&traces));
    let run = Run::new(&traces, options).with_baseline(judgement.as_ref());
    emit(&report::render(args.report.format(), &run), &reports)?;
    let status = if run.outcome() == Outcome::Pass {
        EXIT_CONFORMANT
    } else {
        EXIT_NOT_CONFORMANT
    };
    finish_reports(reports, status, |format| report::render(format, &run))?;
    if unread > 0 {
        Err(Error::Unread(unread))
    } else {
        Ok(status)
    }
}

/// Check every file, on every core; unreadable ones are reported on stderr
/// (in argument order) and counted. Without `keep_states`, each file's
/// client state is dropped on its worker as soon as the file is checked:
/// a report that does not show the states needs none, and many files then
/// hold one state per worker, not one per file. A lone file keeps its
/// state.
pub(super) fn check_all(
    files: &[PathBuf],
    config: &Config,
    keep_states: bool,
) -> (Vec<TraceReport>, usize) {
    let mut traces = Vec::new();
    let mut unread = 0;
    let drop_states = !keep_states && files.len() > 1;
    let shed = |mut report: TraceReport| {
        if drop_states {
            report.state = ClientState::new();
        }
        report
    };
    let results = check_paths_then(files, config, default_jobs(), shed);
    for (path, result) in files.iter().zip(results) {
        match result {
            Ok(report) => traces.push(report),
            Err(source) => {
                error::print(&Error::Read {
                    path: path.clone(),
                    source,
                });
                unread += 1;
            }
        }
    }
    (traces, unread)
}

pub(super) fn limits(args: &LimitArgs) -> Limits {
    Limits {
        max_line_bytes: args.max_line_bytes,
        max_depth: args.max_depth,
        max_sessions: args.max_sessions,
        max_plans_per_session: args.max_plans_per_session,
        max_entries_per_plan: args.max_entries_per_plan,
        max_outstanding_requests: args.max_outstanding_requests,
        max_diagnostics: args.max_diagnostics,
        max_state_bytes: args.max_state_bytes,
    }
}
