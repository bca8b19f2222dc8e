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
//! # How it works
//!
//! Data flows one way: bytes ([`trace`]) → JSON-RPC frames with a direction
//! ([`jsonrpc`]) → typed plan messages for a revision ([`spec`],
//! [`rules::shape`]) → validator state ([`validate`], [`state`]) →
//! diagnostics ([`diag`]) → reports ([`report`]). The live modes
//! ([`live`]) feed the same validator from a running agent. Every layer may
//! read the leaf text helpers ([`text`]) and, above [`spec`], the rule
//! vocabulary ([`catalog`]); `tests/suite/layers.rs` keeps the imports one way.
//!
//! The `acp-plan` command lives in the `acp-plan` package (`conformance/`),
//! the checker of tool-call plans in `acp-plan-dag` (`crates/dag/`).
//!
//! ```
//! use acp_plan_conformance::{check_reader, Config};
//! let trace = br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#;
//! let report = check_reader("example", &trace[..], Config::default()).unwrap();
//! assert_eq!(report.diagnostics[0].rule.id, "SES-UNKNOWN-SESSION");
//! ```

pub mod baseline;
pub mod catalog;
pub mod diag;
pub mod fuzzing;
pub mod gate;
pub mod gen;
pub mod jsonrpc;
pub mod live;
pub mod report;
pub mod rules;
pub mod spec;
pub mod state;
pub mod text;
pub mod trace;
pub mod validate;

pub use catalog::{Counts, Level, Rule, Severity};
pub use diag::Diagnostic;
pub use gate::{check_file, check_file_with, CheckedFile};
pub use jsonrpc::Direction;
pub use spec::{Revision, RevisionChoice, SpecChoice};
pub use state::{ClientState, SessionPlans};
pub use trace::Limits;
pub use validate::{check_reader, Config, Occupancy, TraceReport, Validator};
