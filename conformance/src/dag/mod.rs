//! Plans as DAGs of tool calls ("Acts of Emergence 010: Agent/Plan").
//!
//! There a plan is a list of tool calls `{"_tool": NAME, ...arguments,
//! "_outputPath": "†state.path"}`; an argument `"†<kind>.<path>"` reads a
//! Data message, and a call that reads a path depends on the calls that
//! write it. This module reads a plan file ([`plan`]), builds its
//! dependency graph ([`graph`]) against what is known before it runs
//! ([`data`], [`tools`]); `rules::dag` turns that into diagnostics.
//!
//! ```
//! use acp_plan_conformance::dag::{check_bytes, DagOptions};
//! let plan = r#"[{"_tool": "a", "_outputPath": "†state.x"},
//!                 {"_tool": "b", "x": "†state.x"}]"#.as_bytes();
//! let report = check_bytes(plan, &DagOptions::default());
//! assert_eq!(report.counts.errors, 0);
//! assert_eq!(report.waves(), [vec![0], vec![1]]);
//! ```

pub mod data;
pub mod graph;
pub mod plan;
pub mod reference;
pub mod span;
pub mod tools;

pub use data::KnownData;
pub use graph::{Graph, Schedule};
pub use plan::{Call, Plan, Shape};
pub use reference::{OutputPath, Reference};
pub use tools::ToolCatalog;

use crate::diag::Diagnostic;
use crate::validate::Counts;
use serde::Serialize;

/// What two calls writing the same State path means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteMode {
    /// State is immutable once written (companion essay 009 as of late 2025;
    /// the 010 seed says nothing of it): a second write is a warning.
    #[default]
    Immutable,
    /// Later revisions of essay 009: the last write wins (noted as info).
    LastWins,
}

impl WriteMode {
    pub fn as_str(self) -> &'static str {
        match self {
            WriteMode::Immutable => "immutable",
            WriteMode::LastWins => "last-wins",
        }
    }
}

/// Bounds that keep time and memory flat on hostile plans. Exceeding one
/// is a `DAG-LIMIT` error, and the graph checks are skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DagLimits {
    /// Largest plan file. The plan is held as a `serde_json::Value`, which
    /// can take ~16 times the bytes of dense JSON, so this bounds memory.
    /// (Nesting is bounded at 128 levels by serde_json.)
    pub max_bytes: usize,
    pub max_calls: usize,
    /// References in all arguments of all calls.
    pub max_references: usize,
    /// Segments of one reference path.
    pub max_path_segments: usize,
    /// Reader-writer pairs examined while building the graph.
    pub max_edges: usize,
    /// Diagnostics kept for the report; more are counted, not stored.
    pub max_diagnostics: usize,
}

impl Default for DagLimits {
    fn default() -> Self {
        DagLimits {
            max_bytes: 16 * 1024 * 1024,
            max_calls: 100_000,
            max_references: 1_000_000,
            max_path_segments: 64,
            max_edges: 2_000_000,
            max_diagnostics: 10_000,
        }
    }
}

/// Everything a check needs besides the plan.
#[derive(Debug, Default)]
pub struct DagOptions {
    pub writes: WriteMode,
    pub limits: DagLimits,
    /// `--input` / `--state`.
    pub data: KnownData,
    /// `--tools`: when set, calls must name these tools and fit their schemas.
    pub tools: Option<ToolCatalog>,
}

/// The outcome of checking one plan file.
#[derive(Debug)]
pub struct DagReport {
    pub name: String,
    pub plan: Plan,
    /// `None` when the plan could not be read completely (see the faults).
    pub graph: Option<Graph>,
    /// Kept diagnostics, sorted by line (at most `max_diagnostics`).
    pub diagnostics: Vec<Diagnostic>,
    pub counts: Counts,
    /// Diagnostics found beyond `max_diagnostics`.
    pub not_shown: u64,
    pub writes: WriteMode,
}

impl DagReport {
    /// The execution waves (call indexes), empty when there is no graph.
    pub fn waves(&self) -> Vec<Vec<usize>> {
        self.graph
            .as_ref()
            .map(|g| g.schedule.waves.clone())
            .unwrap_or_default()
    }

    /// Each reported cycle as its calls in order (call indexes).
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let Some(graph) = &self.graph else {
            return Vec::new();
        };
        graph
            .cycles
            .iter()
            .map(|c| {
                c.edges
                    .iter()
                    .filter_map(|&e| graph.edges.get(e).map(|edge| edge.from))
                    .collect()
            })
            .collect()
    }
}

/// Check a plan given as bytes. The single entry point for fuzzing: never
/// panics, whatever the bytes.
pub fn check_bytes(bytes: &[u8], options: &DagOptions) -> DagReport {
    check_named("<input>", bytes, options)
}

/// Check a plan file's bytes; `name` labels the report.
pub fn check_named(name: &str, bytes: &[u8], options: &DagOptions) -> DagReport {
    let plan = plan::read_plan(bytes, &options.limits);
    let mut found = crate::rules::dag::plan_faults(&plan);
    let mut graph = None;
    if plan.complete {
        let mut data = options.data.clone();
        data.merge(&plan.context);
        match graph::build(&plan, &data, options.limits.max_edges) {
            Ok(built) => {
                found.extend(crate::rules::dag::graph_findings(
                    &plan,
                    &built,
                    &data,
                    options.writes,
                ));
                graph = Some(built);
            }
            Err(too_many) => found.push(crate::rules::dag::too_many_edges(too_many)),
        }
    }
    if let Some(catalog) = &options.tools {
        found.extend(crate::rules::dag::tool_findings(&plan, catalog));
    }
    // Paths, tool names and kinds come from the plan and can be megabytes
    // long; no report should grow with them (the dag fuzz target found a
    // read kind quoted whole).
    for d in &mut found {
        d.bound_texts();
    }
    // Reading order: by line; the order found within a line.
    found.sort_by_key(|d| d.line);
    let mut counts = Counts::default();
    for d in &found {
        counts.add(d);
    }
    let kept = found.len().min(options.limits.max_diagnostics);
    let not_shown = (found.len() - kept) as u64;
    found.truncate(kept);
    DagReport {
        name: name.to_owned(),
        plan,
        graph,
        diagnostics: found,
        counts,
        not_shown,
        writes: options.writes,
    }
}
