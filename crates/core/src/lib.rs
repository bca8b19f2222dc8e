//! acp-plan-conformance: a conformance suite for the plan messages of the
//! Agent Client Protocol.
//!
//! Data flows one way: bytes ([`trace`]) → JSON-RPC frames with a direction
//! ([`jsonrpc`]) → typed plan messages for a revision ([`spec`],
//! [`rules::shape`]) → validator state ([`validate`], [`state`]) →
//! diagnostics ([`diag`]) → reports ([`report`]). Every layer may read the
//! leaf text helpers ([`text`]) and, above [`spec`], the rule vocabulary
//! ([`catalog`]); `tests/layers.rs` keeps the imports one way.
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
pub use jsonrpc::Direction;
pub use spec::{Revision, RevisionChoice, SpecChoice};
pub use state::{ClientState, SessionPlans};
pub use trace::Limits;
pub use validate::{check_reader, Config, Occupancy, TraceReport, Validator};
