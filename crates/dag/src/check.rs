//! One check of one plan file: read it, build its graph, decide the rules,
//! and bound what the report keeps.

use crate::graph::{self, Graph};
use crate::options::{DagOptions, WriteMode};
use crate::plan::{self, ToolPlan};
use crate::rules;
use acp_plan_conformance::catalog::Counts;
use acp_plan_conformance::diag::Diagnostic;

/// The outcome of checking one plan file.
#[derive(Debug)]
pub struct DagReport {
    pub name: String,
    pub plan: ToolPlan,
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
    let mut found = rules::plan_faults(&plan);
    let mut graph = None;
    if plan.complete {
        let mut data = options.data.clone();
        data.merge(&plan.context);
        match graph::build(&plan, &data, options.limits.max_edges) {
            Ok(built) => {
                found.extend(rules::graph_findings(&plan, &built, &data, options.writes));
                graph = Some(built);
            }
            Err(too_many) => found.push(rules::too_many_edges(too_many)),
        }
    }
    if let Some(catalog) = &options.tools {
        found.extend(rules::tool_findings(&plan, catalog));
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
        counts.add(d.severity());
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
