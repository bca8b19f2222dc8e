//! The rule catalog: every check the suite makes, with its id, level,
//! revisions and the spec sentence it enforces.
//!
//! One file per family. Each file declares its rules as constants next to the
//! code that decides them, and lists them in its `RULES`; [`catalog`] is the
//! union. Lower layers (trace, jsonrpc, spec) only describe what they saw; the
//! decision that something breaks a rule is made here.

pub mod cap;
pub mod dag;
pub mod env;
pub mod full;
pub mod id;
pub mod load;
pub mod ses;
pub mod shape;
pub mod trace;

use crate::spec::Revision;
use serde::Serialize;
use std::fmt;

/// How strongly the spec requires what the rule checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Level {
    /// A MUST or MUST NOT: breaking it is an error.
    #[serde(rename = "MUST")]
    Must,
    /// A SHOULD, or a heuristic: a warning.
    #[serde(rename = "SHOULD")]
    Should,
    /// Allowed, but worth knowing: an info.
    #[serde(rename = "INFO")]
    Info,
}

impl Level {
    pub fn severity(self) -> Severity {
        match self {
            Level::Must => Severity::Error,
            Level::Should => Severity::Warning,
            Level::Info => Severity::Info,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::Info => "INFO",
        }
    }
}

/// Severity of a reported diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a rule comes from: a document, a section, and the sentence enforced.
#[derive(Debug, Serialize)]
pub struct Citation {
    pub document: &'static str,
    pub section: &'static str,
    pub text: &'static str,
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}: \"{}\"", self.document, self.section, self.text)
    }
}

/// One rule of the catalog.
#[derive(Debug, Serialize)]
pub struct Rule {
    pub id: &'static str,
    pub level: Level,
    pub revisions: &'static [Revision],
    pub summary: &'static str,
    pub citation: Citation,
}

impl Rule {
    pub fn severity(&self) -> Severity {
        self.level.severity()
    }

    pub fn applies_to(&self, revision: Revision) -> bool {
        self.revisions.contains(&revision)
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Rule {}

pub const ALL_REVISIONS: &[Revision] = &Revision::ALL;
pub const WITH_CAPABILITY: &[Revision] = &[Revision::Draft202605, Revision::V1];
pub const V2_ONLY: &[Revision] = &[Revision::V2];

/// Documents that citations name.
pub mod docs {
    pub const PLAN_V1: &str = "ACP Agent Plan (protocol v1)";
    pub const PLAN_DRAFT: &str = "ACP Agent Plan with Plan Operations (draft-2026-05)";
    pub const RFD: &str = "RFD Plan Operations Support";
    pub const SCHEMA_V1: &str =
        "ACP JSON Schema v1 (schema.unstable.json, agent-client-protocol-schema 1.15)";
    pub const SCHEMA_V2: &str = "ACP JSON Schema v2 (schema.json / schema.unstable.json)";
    pub const JSONRPC: &str = "JSON-RPC 2.0 Specification";
    pub const RFC8259: &str = "RFC 8259 (JSON)";
    pub const TRANSPORTS: &str = "ACP Transports";
    pub const INITIALIZATION: &str = "ACP Initialization";
    pub const SESSION_SETUP: &str = "ACP Session Setup";
    pub const PROMPT_TURN: &str = "ACP Prompt Turn";
    pub const EXTENSIBILITY: &str = "ACP Extensibility";
    pub const SUITE: &str = "acp-plan-conformance trace format (docs/guide.md)";
    pub const EMERGENCE_PLAN: &str = "Acts of Emergence 010: Agent/Plan";
    pub const SUITE_DAG: &str = "acp-plan-conformance plan files (docs/dag.md)";
}

/// The families that judge ACP message traces (`check`, `agent`, `tap`).
const TRACE_FAMILIES: [&[&Rule]; 8] = [
    trace::RULES,
    env::RULES,
    ses::RULES,
    cap::RULES,
    shape::RULES,
    id::RULES,
    full::RULES,
    load::RULES,
];

/// Every rule, family by family, in a stable order.
pub fn catalog() -> impl Iterator<Item = &'static Rule> {
    TRACE_FAMILIES
        .into_iter()
        .chain([dag::RULES])
        .flatten()
        .copied()
}

/// The rules that judge ACP message traces: the catalog without `DAG-*`,
/// which judge plans of tool calls (`acp-plan dag`).
pub fn trace_rules() -> impl Iterator<Item = &'static Rule> {
    TRACE_FAMILIES.into_iter().flatten().copied()
}

/// The trace rules one trace can trigger on its own: all but `LOAD-*`,
/// which compare a live session with its replay on another connection (only
/// `acp-plan agent` decides them).
pub fn single_trace_rules() -> impl Iterator<Item = &'static Rule> {
    trace_rules().filter(|r| decided_by_one_trace(r))
}

/// Whether one trace is enough to decide `rule` (see [`single_trace_rules`]).
pub fn decided_by_one_trace(rule: &Rule) -> bool {
    !load::RULES.contains(&rule)
}

/// Look a rule up by id.
pub fn find(id: &str) -> Option<&'static Rule> {
    catalog().find(|r| r.id == id)
}
