use super::{print, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT, EXIT_USAGE};
use crate::cli::{CheckArgs, Format, LimitArgs};
use crate::report::{self, ReportOptions, Verdict};
use crate::trace::Limits;
use crate::validate::{check_reader, Config, TraceReport};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

pub fn run(args: CheckArgs) -> u8 {
    let config = Config {
        spec: args.spec,
        limits: limits(&args.limits),
    };
    let mut traces = Vec::new();
    let mut io_failed = false;
    for path in &args.files {
        match check_path(path, config.clone()) {
            Ok(report) => traces.push(report),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                io_failed = true;
            }
        }
    }
    if traces.is_empty() {
        // Nothing was checked: a report would only print a "conformant" verdict.
        return EXIT_USAGE;
    }
    let options = ReportOptions {
        deny_warnings: args.deny_warnings,
        show_state: args.show_state,
        quiet: args.quiet,
    };
    match args.format {
        Format::Human => print(&report::human::render(&traces, options)),
        Format::Json => {
            let document = report::json::render(&traces, options);
            print(&format!(
                "{}\n",
                serde_json::to_string_pretty(&document).unwrap_or_default()
            ));
        }
    }
    if io_failed {
        EXIT_USAGE
    } else if report::verdict(&traces, options) == Verdict::Conformant {
        EXIT_CONFORMANT
    } else {
        EXIT_NOT_CONFORMANT
    }
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

fn limits(args: &LimitArgs) -> Limits {
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
