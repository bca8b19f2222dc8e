use super::EXIT_USAGE;
use crate::cli::TapArgs;

#[cfg(not(unix))]
pub fn run(_args: TapArgs) -> u8 {
    eprintln!("error: acp-plan tap needs a Unix-like system (process groups, signals)");
    EXIT_USAGE
}

#[cfg(unix)]
pub fn run(args: TapArgs) -> u8 {
    use super::check::limits;
    use crate::cli::Format;
    use crate::diag::Diagnostic;
    use crate::live::process::AgentCommand;
    use crate::live::report::{render_tap, render_tap_summary};
    use crate::live::tap::{self, DiagnosticSink, TapOptions};
    use crate::report::{human::render_diagnostic, ReportOptions};
    use crate::rules::Severity;
    use crate::validate::Config;
    use std::fs::File;
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex};

    /// Lines on a shared stderr are marked as the tap's.
    const PREFIX: &str = "[acp-plan tap] ";

    let Some(agent) = AgentCommand::from_words(&args.command) else {
        eprintln!("error: no agent command after `--`");
        return EXIT_USAGE;
    };
    let (sink, prefix): (Box<dyn Write + Send>, &str) = match &args.report {
        Some(path) => match File::create(path) {
            Ok(file) => (Box::new(file), ""),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return EXIT_USAGE;
            }
        },
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
    let options = ReportOptions {
        deny_warnings: false,
        accept_incomplete: false,
        show_state: false,
        quiet: args.quiet,
    };
    let on_diagnostic: DiagnosticSink = match args.format {
        Format::Human => {
            let write = write.clone();
            Box::new(move |name: &str, d: &Diagnostic| {
                if args.quiet && d.severity() == Severity::Info {
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
            spec: args.spec,
            limits: limits(&args.limits),
        },
        trace: args.trace.clone(),
        backlog_bytes: args.max_backlog_bytes,
    };
    let end = match tap::run(tap_options, &name, on_diagnostic) {
        Ok(end) => end,
        Err(e) => {
            eprintln!("{PREFIX}error: {e}");
            return EXIT_USAGE;
        }
    };
    match args.format {
        Format::Human => write(&render_tap_summary(&end.report, options)),
        format => {
            // One document, unmarked so it stays parseable.
            if let Ok(mut sink) = sink.lock() {
                let _ = sink.write_all(render_tap(format, &end.report, options).as_bytes());
                let _ = sink.flush();
            }
        }
    }
    if let Some(e) = &end.trace_error {
        eprintln!("{PREFIX}warning: writing the trace failed: {e}");
    }
    end.exit_code()
}
