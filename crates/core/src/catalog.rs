//! The catalog's vocabulary: what a rule is (id, level, revisions,
//! citation), how severe its diagnostics are, and how they are counted.
//! Every layer that names or counts rules reads these types from here; the
//! rules themselves are declared in their family files (`rules::*`).

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

/// Diagnostics by severity (all of them, kept or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
}

impl Counts {
    pub fn merge(&mut self, other: Counts) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
    }

    /// Count one diagnostic of `severity`.
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
    }
}
