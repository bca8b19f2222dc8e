use crate::cli::TapArgs;
use crate::error::Error;

#[cfg(not(unix))]
pub fn run(_args: TapArgs) -> Result<u8, Error> {
    Err(Error::Usage(
        "acp-plan tap needs a Unix-like system (process groups, signals)".into(),
    ))
}

#[cfg(unix)]
pub fn run(args: TapArgs) -> Result<u8, Error> {
    use super::check::limits;
    use crate::error::TAP_PREFIX as PREFIX;
    use acp_plan_conformance::catalog::Severity;
    use acp_plan_conformance::diag::Diagnostic;
    use acp_plan_conformance::live::process::AgentCommand;
    use acp_plan_conformance::live::report::{render_tap, render_tap_summary};
    use acp_plan_conformance::live::tap::{self, DiagnosticSink, TapOptions};
    use acp_plan_conformance::report::{human::render_diagnostic, Format};
    use acp_plan_conformance::validate::Config;
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex};

    let agent = AgentCommand::from_words(&args.command)
        .ok_or_else(|| Error::Usage("no agent command after `--`".into()))?;
    // Lines on a shared stderr are marked as the tap's.
    // `--report PATH` (no format) takes what would go to stderr.
    let reports = super::open_reports(&args.report)?;
    let (sink, prefix): (Box<dyn Write + Send>, &str) = match reports.primary() {
        Some((path, file)) => {
            let file = file.try_clone().map_err(|source| Error::Create {
                path: path.to_owned(),
                source,
            })?;
            (Box::new(file), "")
        }
        None => (Box::new(io::stderr()), PREFIX),
    };
    let sink = Arc::new(Mutex::new(sink));
    let write = {
        let sink = Arc::clone(&sink);
        move |text: &str| {
            let mut marked = String::with_capacity(text.len());
            for line in text.lines() {
                marked.push_str(prefix);
                marked.push_str(line);
                marked.push('\n');
            }
            if let Ok(mut sink) = sink.lock() {
                let _ = sink.write_all(marked.as_bytes());
                let _ = sink.flush();
            }
        }
    };
    let options = args.report.options(None, None);
    let quiet = args.report.quiet;
    let format = args.report.format();
    let on_diagnostic: DiagnosticSink = match format {
        Format::Human => {
            let write = write.clone();
            Box::new(move |name: &str, d: &Diagnostic| {
                if quiet && d.severity() == Severity::Info {
                    return;
                }
                let mut text = String::new();
                render_diagnostic(&mut text, name, d, None);
                write(&text);
            })
        }
        // The other formats are one document, written at exit.
        Format::Json | Format::Junit | Format::Sarif | Format::Github => {
            Box::new(|_: &str, _: &Diagnostic| {})
        }
    };
    let name = args
        .trace
        .as_ref()
        .map_or_else(|| "tap".to_owned(), |p| p.display().to_string());
    let tap_options = TapOptions {
        agent,
        config: Config {
            spec: args.spec.spec,
            limits: limits(&args.limits),
        },
        trace: args.trace.clone(),
        backlog_bytes: args.max_backlog_bytes,
    };
    let end = tap::run(tap_options, &name, on_diagnostic).map_err(Error::Tap)?;
    match format {
        Format::Human => write(&render_tap_summary(&end.report, &end.session, options)),
        format => {
            // One document, unmarked so it stays parseable.
            if let Ok(mut sink) = sink.lock() {
                let text = render_tap(format, &end.report, &end.session, options);
                let _ = sink.write_all(text.as_bytes());
                let _ = sink.flush();
            }
        }
    }
    if let Some(e) = &end.trace_error {
        eprintln!("{PREFIX}warning: writing the trace failed: {e}");
    }
    // The tap's status is the agent's; a report it could not write is exit 2.
    super::finish_reports(reports, end.exit_code(), |format| {
        render_tap(format, &end.report, &end.session, options)
    })
}
