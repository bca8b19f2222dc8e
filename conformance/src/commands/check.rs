use super::{print, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT, EXIT_USAGE};
use crate::baseline;
use crate::cli::{CheckArgs, LimitArgs};
use crate::report::{self, Outcome, ReportOptions, Run};
use crate::trace::Limits;
use crate::validate::{check_paths, default_jobs, Config, TraceReport};
use std::path::PathBuf;

pub fn run(args: CheckArgs) -> u8 {
    // A baseline that cannot be used is a usage error: fail before checking.
    let baseline = match args.baseline.as_deref().map(baseline::load).transpose() {
        Ok(baseline) => baseline,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let config = Config {
        spec: args.spec,
        limits: limits(&args.limits),
    };
    let (traces, io_failed) = check_all(&args.files, &config);
    if traces.is_empty() {
        // Nothing was checked: a report would only print a "conformant" verdict.
        return EXIT_USAGE;
    }
    let options = ReportOptions {
        deny_warnings: args.deny_warnings,
        show_state: args.show_state,
        quiet: args.quiet,
    };
    let today = args.today.unwrap_or_else(baseline::today_utc);
    let judgement = baseline.map(|b| baseline::judge(&b, &traces, today));
    let run = Run::new(&traces, options).with_baseline(judgement.as_ref());
    print(&report::render(args.format, &run));
    if io_failed {
        EXIT_USAGE
    } else if run.outcome() == Outcome::Pass {
        EXIT_CONFORMANT
    } else {
        EXIT_NOT_CONFORMANT
    }
}

/// Check every file, on every core; unreadable ones are reported on stderr
/// (in argument order) and flagged.
pub(super) fn check_all(files: &[PathBuf], config: &Config) -> (Vec<TraceReport>, bool) {
    let mut traces = Vec::new();
    let mut io_failed = false;
    for (path, result) in files.iter().zip(check_paths(files, config, default_jobs())) {
        match result {
            Ok(report) => traces.push(report),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                io_failed = true;
            }
        }
    }
    (traces, io_failed)
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
    }
}
