//! Recorded traces as a test gate: [`check_file`] and
//! [`CheckedFile::assert_conformant`], for an implementer's `cargo test`.

use crate::report::{self, Format, Outcome, ReportOptions, Run};
use crate::validate::{check_reader, Config, TraceReport};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

/// Check the trace at `path` (bare JSON-RPC lines or envelopes) with the
/// default configuration: the revision detected from the handshake, the
/// default limits.
///
/// ```
/// # fn main() -> std::io::Result<()> {
/// # let dir = std::env::temp_dir().join(format!("acp-plan-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// # let path = dir.join("trace.jsonl");
/// # std::fs::write(&path, concat!(
/// #     r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#, "\n",
/// #     r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}"#, "\n",
/// # ))?;
/// let checked = acp_plan_conformance::check_file(&path)?;
/// checked.assert_conformant(); // panics with the human report
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok(())
/// # }
/// ```
pub fn check_file(path: impl AsRef<Path>) -> io::Result<CheckedFile> {
    check_file_with(path, Config::default())
}

/// [`check_file`] with a revision and limits of your choosing.
pub fn check_file_with(path: impl AsRef<Path>, config: Config) -> io::Result<CheckedFile> {
    let path = path.as_ref();
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display())))?;
    let name = path.display().to_string();
    let report = check_reader(&name, BufReader::new(file), config)?;
    Ok(CheckedFile {
        report,
        deny_warnings: false,
    })
}

/// A checked trace.
#[derive(Clone, Debug)]
pub struct CheckedFile {
    report: TraceReport,
    deny_warnings: bool,
}

impl CheckedFile {
    /// The diagnostics, counts and final client state.
    pub fn report(&self) -> &TraceReport {
        &self.report
    }

    /// Count warnings against conformance too (as `--deny-warnings`).
    pub fn deny_warnings(mut self, deny: bool) -> CheckedFile {
        self.deny_warnings = deny;
        self
    }

    /// Whether `acp-plan check` would exit 0 on this trace.
    pub fn is_conformant(&self) -> bool {
        self.run().outcome() == Outcome::Pass
    }

    /// The report `acp-plan check` prints.
    pub fn human_report(&self) -> String {
        report::render(Format::Human, &self.run())
    }

    /// Panic with the human report unless the trace [is conformant](Self::is_conformant).
    #[track_caller]
    pub fn assert_conformant(&self) {
        if !self.is_conformant() {
            panic!(
                "{} is not conformant (acp-plan-conformance {}):\n{}",
                self.report.name,
                env!("CARGO_PKG_VERSION"),
                self.human_report()
            );
        }
    }

    fn run(&self) -> Run<'_> {
        Run::new(
            std::slice::from_ref(&self.report),
            ReportOptions {
                deny_warnings: self.deny_warnings,
                // The gate fails closed on what the checker could not check.
                accept_incomplete: false,
                show_state: false,
                quiet: false,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_trace_fails_the_gate_with_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.jsonl");
        std::fs::write(
            &path,
            r#"{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#,
        )
        .unwrap();
        let checked = check_file(&path).unwrap();
        assert!(!checked.is_conformant());
        let panic = std::panic::catch_unwind(|| checked.assert_conformant()).unwrap_err();
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.contains("is not conformant"), "{message}");
        assert!(message.contains("SES-UPDATE-NOTIFICATION"), "{message}");
        assert!(check_file(dir.path().join("missing.jsonl")).is_err());
    }
}
