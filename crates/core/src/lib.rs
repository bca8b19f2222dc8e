//! acp-plan-conformance: a conformance suite for the plan messages of the
//! Agent Client Protocol (ACP): the legacy `plan` update, Plan Operations
//! (`plan_update`, `plan_removed`) and the client capability that gates
//! them, judged by the newest official schema release (`v1` and `v2`:
//! schema 1.20.0) with the earlier texts selectable (`draft-2026-05`,
//! `v1-1.17`, `v2-1.17`). Every error is
//! backed by a MUST of the spec, cited verbatim.
//!
//! # Gate an agent from `cargo test`
//!
//! Run your agent through the live scenarios (the suite plays a conformant
//! client; each scenario starts a fresh agent process):
//!
//! ```no_run
//! # #[cfg(unix)]
//! # fn main() -> std::io::Result<()> {
//! use acp_plan_conformance::live::Scenarios;
//! use std::process::Command;
//!
//! // In an integration test: env!("CARGO_BIN_EXE_my-agent").
//! let run = Scenarios::v1()
//!     .agent(Command::new("target/debug/my-agent").arg("--stdio"))
//!     .run()?;
//! run.assert_conformant(); // panics with the human report
//! # Ok(())
//! # }
//! # #[cfg(not(unix))]
//! # fn main() {}
//! ```
//!
//! or check traces you recorded ([`check_file`]):
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("acp-plan-crate-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! # let path = dir.join("recorded.jsonl");
//! # std::fs::write(&path, concat!(
//! #     r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#, "\n",
//! #     r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{}}}"#, "\n",
//! # ))?;
//! let checked = acp_plan_conformance::check_file(&path)?;
//! assert!(checked.is_conformant());
//! checked.assert_conformant();
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! The workspace's `examples/rust-agent` is a tiny agent whose own tests
//! gate on the suite exactly this way.
//!
//! # Entry points
//!
//! - Check recorded traces: [`check_file`] (and [`check_file_with`], a
//!   [`CheckedFile`] to assert on), [`check_reader`] for any reader,
//!   [`check_paths`] for many files at once, all giving a [`TraceReport`]
//!   of [`Diagnostic`]s; [`Validator`] to feed messages one at a time, as
//!   a live harness sees them. [`Config`] chooses the revision
//!   ([`SpecChoice`]) and the [`Limits`] that bound memory on hostile input.
//! - The rule catalog: every [`Rule`] with its id, [`Level`], revisions
//!   and the spec's words ([`catalog`]); [`rules::trace_rules`] lists them
//!   and [`rules::find`] looks one up by id.
//! - The reference client state a conformant client would show
//!   ([`ClientState`], read-only, from [`TraceReport::state`]).
//! - Live gates: [`live::Scenarios`] runs an agent through the scenarios.
//! - Accepted failures: [`baseline`] files, judged against reports.
//! - Reports in every format of `acp-plan`: [`report::render`].
//!
//! # How it works
//!
//! Data flows one way: bytes (trace framing) → JSON-RPC frames with a
//! [`Direction`] → typed plan messages for a [`Revision`] ([`spec`]) →
//! validator state ([`Validator`], [`state`]) → diagnostics ([`diag`]) →
//! reports ([`report`]). The live modes ([`live`]) feed the same validator
//! from a running agent. `tests/suite/layers.rs` keeps the imports one way.
//!
//! The `acp-plan` command lives in the `acp-plan` package (`conformance/`),
//! the checker of tool-call plans in `acp-plan-dag` (`crates/dag/`). They
//! build on internals that the `cli` feature makes public (the generator,
//! the trace reader, the live tap, relay and fake peers, the report files);
//! the `fuzzing` feature adds the invariants of the fuzz targets. Neither is
//! a stable API.
//!
//! ```
//! use acp_plan_conformance::{check_reader, Config};
//! let trace = br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#;
//! let report = check_reader("example", &trace[..], Config::default()).unwrap();
//! assert_eq!(report.diagnostics[0].rule.id, "SES-UNKNOWN-SESSION");
//! ```

#![deny(missing_docs)]

/// Declares a module that is public with the `cli` feature, for the
/// `acp-plan` command and the workspace's other crates that are built from
/// the suite's parts, and crate-private without it. Such modules are
/// internals, not a stable API, but they are documented for their
/// maintainers like the rest (`missing_docs` holds with the feature on);
/// without the feature the parts only the command calls are unused.
macro_rules! cli_module {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        #[cfg(feature = "cli")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "cli"))]
        #[allow(dead_code, unused_imports)]
        pub(crate) mod $name;
    };
}

pub mod baseline;
pub mod catalog;
pub mod diag;
pub mod live;
pub mod report;
pub mod rules;
pub mod spec;
pub mod state;

mod gate;
cli_module!(gen);
cli_module!(jsonrpc);
cli_module!(text);
cli_module!(trace);
cli_module!(validate);
// Documented in the module itself: an outer doc here would make rustdoc
// resolve the module doc's links from the crate root.
#[cfg(feature = "fuzzing")]
pub mod fuzzing;

pub use catalog::{Counts, Level, Rule, Severity};
pub use diag::Diagnostic;
pub use gate::{check_file, check_file_with, CheckedFile};
pub use jsonrpc::Direction;
pub use spec::{Revision, RevisionChoice, SpecChoice};
pub use state::{ClientState, SessionPlans};
pub use trace::Limits;
pub use validate::{check_paths, check_reader, Config, Occupancy, TraceReport, Validator};
