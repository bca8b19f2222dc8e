use super::{print, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT, EXIT_USAGE};
use crate::baseline;
use crate::cli::{CheckArgs, LimitArgs};
use crate::report::{self, Outcome, ReportOptions, Run};
use crate::trace::Limits;
use crate::validate::{check_reader, Config, TraceReport};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

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
        accept_incomplete: args.incomplete == crate::cli::IncompletePolicy::Warn,
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

/// Check every file; unreadable ones are reported on stderr and flagged.
pub(super) fn check_all(files: &[PathBuf], config: &Config) -> (Vec<TraceReport>, bool) {
    let mut traces = Vec::new();
    let mut io_failed = false;
    for path in files {
        match check_path(path, config.clone()) {
            Ok(report) => traces.push(report),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                io_failed = true;
            }
        }
    }
    (traces, io_failed)
}

fn check_path(path: &Path, config: Config) -> io::Result<TraceReport> {
    if path.as_os_str() == "-" {
        return check_reader("<stdin>", io::stdin().lock(), config);
    }
    let file = File::open(path)?;
    check_reader(
        &path.display().to_string(),
        BufReader::with_capacity(256 * 1024, file),
        config,
    )
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
