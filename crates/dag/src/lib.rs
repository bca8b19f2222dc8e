//! acp-plan-dag: plans as DAGs of tool calls ("Acts of Emergence 010:
//! Agent/ToolPlan"), the checker behind `acp-plan dag`.
//!
//! There a plan is a list of tool calls `{"_tool": NAME, ...arguments,
//! "_outputPath": "†state.path"}`; an argument `"†<kind>.<path>"` reads a
//! Data message, and a call that reads a path depends on the calls that
//! write it. This crate reads a plan file ([`plan`]), builds its
//! dependency graph ([`graph`]) against what is known before it runs
//! ([`data`], [`tools`]); [`rules`] turns that into diagnostics, and
//! [`report`] and [`dataflow`] show them. It shares the catalog types,
//! diagnostics and report options with the trace validator
//! (`acp_plan_conformance`), and is the only crate that needs `jsonschema`
//! (for `--tools`).
//!
//! ```
//! use acp_plan_dag::{check_bytes, DagOptions};
//! let plan = r#"[{"_tool": "a", "_outputPath": "†state.x"},
//!                 {"_tool": "b", "x": "†state.x"}]"#.as_bytes();
//! let report = check_bytes(plan, &DagOptions::default());
//! assert_eq!(report.counts.errors, 0);
//! assert_eq!(report.waves(), [vec![0], vec![1]]);
//! ```

pub mod check;
pub mod data;
pub mod dataflow;
pub mod fuzzing;
pub mod graph;
pub mod options;
pub mod plan;
pub mod reference;
pub mod report;
pub mod rules;
pub mod span;
pub mod tools;

pub use check::{check_bytes, check_named, DagReport};
pub use data::KnownData;
pub use graph::{Graph, Schedule};
pub use options::{DagLimits, DagOptions, WriteMode};
pub use plan::{Call, Shape, ToolPlan};
pub use reference::{OutputPath, Reference};
pub use rules::every_rule;
pub use tools::ToolCatalog;
