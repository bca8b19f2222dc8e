//! What a check needs besides the plan: the meaning of a second write, the
//! limits, the data known before the plan runs and the tools it may call.

use crate::data::KnownData;
use crate::tools::ToolCatalog;
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
