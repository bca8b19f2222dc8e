use super::{emit, finish_reports, open_reports, print, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT};
use crate::cli::{DagArgs, DagLimitArgs, GraphFormat, Writes};
use crate::error::{DagInputError, Error};
use acp_plan_conformance::report::{Format, Verdict};
use acp_plan_dag::{
    self as dag, dataflow, DagLimits, DagOptions, KnownData, ToolCatalog, WriteMode,
};
use serde_json::Value;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

pub fn run(args: DagArgs) -> Result<u8, Error> {
    let reports = open_reports(&args.report)?;
    let limits = limits(&args.limits);
    let options = options(&args, limits)?;
    let bytes =
        read_bounded(&args.file, options.limits.max_bytes).map_err(|source| Error::Read {
            path: args.file.clone(),
            source,
        })?;
    let name = display(&args.file);
    let report = dag::check_named(&name, &bytes, &options);
    let report_options = args.report.options(Some(&args.verdict), None);
    let render = |format: Format| match format {
        Format::Junit => dag::report::render_junit(&report, report_options),
        Format::Sarif => format!(
            "{}\n",
            serde_json::to_string_pretty(&dag::report::render_sarif(&report, report_options))
                .unwrap_or_default()
        ),
        Format::Github => dag::report::render_github(&report, report_options),
        Format::Human => dag::report::render_human(&report, report_options, args.dry_run),
        Format::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&dag::report::render_json(
                &report,
                report_options,
                args.dry_run
            ))
            .unwrap_or_default()
        ),
    };
    let text = render(args.report.format());
    match args.graph {
        // The graph alone on stdout, so it can be piped to a renderer.
        Some(format) => {
            print(&match format {
                GraphFormat::Mermaid => dataflow::mermaid(&report),
                GraphFormat::Dot => dataflow::dot(&report),
            });
            eprint!("{text}");
        }
        None => emit(&text, &reports)?,
    }
    let status = match dag::report::verdict(&report, report_options) {
        Verdict::Conformant => EXIT_CONFORMANT,
        Verdict::NotConformant => EXIT_NOT_CONFORMANT,
        Verdict::Incomplete if report_options.accept_incomplete => EXIT_CONFORMANT,
        Verdict::Incomplete => EXIT_NOT_CONFORMANT,
    };
    finish_reports(reports, status, render)
}

fn options(args: &DagArgs, limits: DagLimits) -> Result<DagOptions, Error> {
    let input_error = |flag: &'static str, path: &Path| {
        let path = path.to_owned();
        move |source: DagInputError| Error::DagInput { flag, path, source }
    };
    let mut data = KnownData::default();
    for (kind, path) in [("input", &args.input), ("state", &args.state)] {
        if let Some(path) = path {
            let document = read_json(path, limits.max_bytes).map_err(input_error(kind, path))?;
            data.add(kind, document)
                .map_err(|e| input_error(kind, path)(e.into()))?;
        }
    }
    let tools = match &args.tools {
        None => None,
        Some(path) => {
            let document = read_json(path, limits.max_bytes).map_err(input_error("tools", path))?;
            Some(
                ToolCatalog::from_json(&document)
                    .map_err(|e| input_error("tools", path)(e.into()))?,
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
fn read_json(path: &Path, max_bytes: usize) -> Result<Value, DagInputError> {
    let bytes = read_bounded(path, max_bytes).map_err(DagInputError::Read)?;
    if bytes.len() > max_bytes {
        return Err(DagInputError::TooLarge(max_bytes));
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    serde_json::from_slice(text).map_err(DagInputError::NotJson)
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
