use super::{print, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT, EXIT_USAGE};
use crate::cli::{DagArgs, DagLimitArgs, Format, GraphFormat, Writes};
use crate::dag::{self, DagLimits, DagOptions, KnownData, ToolCatalog, WriteMode};
use crate::report::{self, ReportOptions, Verdict};
use serde_json::Value;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

pub fn run(args: DagArgs) -> u8 {
    let limits = limits(&args.limits);
    let options = match options(&args, limits) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE;
        }
    };
    let (name, bytes) = match read_bounded(&args.file, options.limits.max_bytes) {
        Ok(bytes) => (display(&args.file), bytes),
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", args.file.display());
            return EXIT_USAGE;
        }
    };
    let report = dag::check_named(&name, &bytes, &options);
    let report_options = ReportOptions {
        deny_warnings: args.deny_warnings,
        accept_incomplete: args.incomplete == crate::cli::IncompletePolicy::Warn,
        show_state: false,
        quiet: args.quiet,
    };
    let text = match args.format {
        Format::Junit | Format::Sarif | Format::Github => {
            // Those writers report traces rule by rule; plans need their own mapping.
            eprintln!("error: acp-plan dag writes --format human or json");
            return EXIT_USAGE;
        }
        Format::Human => report::dag::render_human(&report, report_options, args.dry_run),
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&report::dag::render_json(
                &report,
                report_options,
                args.dry_run
            ))
            .unwrap_or_default()
        ),
    };
    match args.graph {
        // The graph alone on stdout, so it can be piped to a renderer.
        Some(format) => {
            print(&match format {
                GraphFormat::Mermaid => report::dataflow::mermaid(&report),
                GraphFormat::Dot => report::dataflow::dot(&report),
            });
            eprint!("{text}");
        }
        None => print(&text),
    }
    match report::dag::verdict(&report, report_options) {
        Verdict::Conformant => EXIT_CONFORMANT,
        Verdict::NotConformant => EXIT_NOT_CONFORMANT,
        Verdict::Incomplete if report_options.accept_incomplete => EXIT_CONFORMANT,
        Verdict::Incomplete => EXIT_NOT_CONFORMANT,
    }
}

fn options(args: &DagArgs, limits: DagLimits) -> Result<DagOptions, String> {
    let mut data = KnownData::default();
    for (kind, path) in [("input", &args.input), ("state", &args.state)] {
        if let Some(path) = path {
            let document = read_json(path, limits.max_bytes)
                .map_err(|e| format!("--{kind} {}: {e}", path.display()))?;
            data.add(kind, document)
                .map_err(|e| format!("--{kind} {}: {e}", path.display()))?;
        }
    }
    let tools = match &args.tools {
        None => None,
        Some(path) => {
            let document = read_json(path, limits.max_bytes)
                .map_err(|e| format!("--tools {}: {e}", path.display()))?;
            Some(
                ToolCatalog::from_json(&document)
                    .map_err(|e| format!("--tools {}: {e}", path.display()))?,
            )
        }
    };
    Ok(DagOptions {
        writes: match args.writes {
            Writes::Immutable => WriteMode::Immutable,
            Writes::LastWins => WriteMode::LastWins,
        },
        limits,
        data,
        tools,
    })
}

/// A data or tools file: small JSON the user vouches for; a bad one is a
/// usage error, not a finding about the plan.
fn read_json(path: &Path, max_bytes: usize) -> Result<Value, String> {
    let bytes = read_bounded(path, max_bytes).map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() > max_bytes {
        return Err(format!("larger than --max-bytes ({max_bytes})"));
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    serde_json::from_slice(text).map_err(|e| format!("not JSON: {e}"))
}

/// At most `max_bytes + 1` bytes, so an oversized file is detected
/// without being buffered whole.
fn read_bounded(path: &Path, max_bytes: usize) -> io::Result<Vec<u8>> {
    let limit = (max_bytes as u64).saturating_add(1);
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)?;
    } else {
        File::open(path)?.take(limit).read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

fn display(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

fn limits(args: &DagLimitArgs) -> DagLimits {
    DagLimits {
        max_bytes: args.max_bytes,
        max_calls: args.max_calls,
        max_references: args.max_references,
        max_path_segments: args.max_path_segments,
        max_edges: args.max_edges,
        max_diagnostics: args.max_diagnostics,
    }
}
