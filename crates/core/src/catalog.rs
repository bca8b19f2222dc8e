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
    /// The checker's own limit: part of the input was not checked. Not a
    /// violation by anyone; the result is incomplete.
    #[serde(rename = "LIMIT")]
    Limit,
}

impl Level {
    /// The severity of a diagnostic of this level.
    pub fn severity(self) -> Severity {
        match self {
            Level::Must => Severity::Error,
            Level::Should => Severity::Warning,
            Level::Info => Severity::Info,
            Level::Limit => Severity::Incomplete,
        }
    }

    /// The level as the catalog spells it (`MUST`, `SHOULD`, `INFO`, `LIMIT`).
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::Info => "INFO",
            Level::Limit => "LIMIT",
        }
    }
}

/// What a rule's level rests on: the cited text's own requirement, or the
/// suite's reading of what the text shows only by example.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The cited text states the requirement: an RFC 2119 keyword, a schema
    /// constraint, the suite's own documented format or limit, or (in a text
    /// without keywords, 010) a plain statement such as "can't have any loops".
    Text,
    /// The suite's reading of the cited text's examples: the text shows the
    /// form but states no requirement, so reports name the level the suite
    /// gives the rule ("suite's reading (error)"), never a keyword of the text.
    Reading,
}

impl Basis {
    /// The basis as the catalog spells it (`text`, `reading`).
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Text => "text",
            Basis::Reading => "reading",
        }
    }
}

/// Severity of a reported diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// A MUST broken: fails the run.
    Error,
    /// A SHOULD broken or a heuristic: fails only with `--deny-warnings`.
    Warning,
    /// Worth knowing; never fails the run.
    Info,
    /// Something was not checked (a [`Level::Limit`] rule): the result is
    /// incomplete. Fails the run unless incomplete results are accepted.
    Incomplete,
}

impl Severity {
    /// The severity as reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Incomplete => "incomplete",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a rule comes from: a document, a section, the sentence enforced,
/// and the suite's own note beside it.
#[derive(Debug, Serialize)]
pub struct Citation {
    /// The document's title (one of [`docs`]).
    pub document: &'static str,
    /// The section of the document that holds the sentence.
    pub section: &'static str,
    /// The document's own words, verbatim (Markdown markup and line breaks
    /// aside); `corpus/spec/excerpts/` holds the paragraph it comes from.
    /// Empty when the rule rests on a text the suite does not quote.
    pub text: &'static str,
    /// The suite's words: renames, dates, what the rule infers from the
    /// quotation. Never part of the quotation; empty when there is nothing to add.
    pub note: &'static str,
}

impl fmt::Display for Citation {
    /// The quotation only (notes are printed apart, see [`Citation::note`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            write!(f, "{}, {} (not quoted)", self.document, self.section)
        } else {
            write!(f, "{}, {}: \"{}\"", self.document, self.section, self.text)
        }
    }
}

/// The quotation of one revision whose document words the rule differently.
#[derive(Debug, Serialize)]
pub struct RevisionCitation {
    /// The revision whose document is quoted.
    pub revision: Revision,
    /// Its quotation.
    pub citation: Citation,
}

/// One rule of the catalog.
#[derive(Debug, Serialize)]
pub struct Rule {
    /// The rule's stable id, e.g. `SES-UNKNOWN-SESSION`.
    pub id: &'static str,
    /// How strongly the spec requires it (its severity follows).
    pub level: Level,
    /// Whether the citation states the level or the suite reads it from examples.
    pub basis: Basis,
    /// The revisions the rule is checked under.
    pub revisions: &'static [Revision],
    /// One line saying what the rule checks.
    pub summary: &'static str,
    /// The citation for every revision not listed in `revision_citations`.
    pub citation: Citation,
    /// Revisions whose own document words the rule differently.
    pub revision_citations: &'static [RevisionCitation],
}

impl Rule {
    /// The severity of this rule's diagnostics.
    pub fn severity(&self) -> Severity {
        self.level.severity()
    }

    /// The level as every report names it: the keyword (`MUST`) when the
    /// cited text states the rule; the suite's severity and "suite's reading"
    /// when it reads the rule from the text's examples.
    pub fn level_label(&self) -> String {
        match self.basis {
            Basis::Text => self.level.as_str().to_owned(),
            Basis::Reading => format!("{}, suite's reading", self.severity()),
        }
    }

    /// What backs the rule, as every report prints it before a quotation:
    /// `spec (MUST)`, or `suite's reading (error)`; with `revisions`, the
    /// revisions the quotation stands for (`spec (MUST, v1)`).
    pub fn backing(&self, revisions: Option<&str>) -> String {
        let (source, level) = match self.basis {
            Basis::Text => ("spec", self.level.as_str()),
            Basis::Reading => ("suite's reading", self.severity().as_str()),
        };
        match revisions {
            Some(revisions) => format!("{source} ({level}, {revisions})"),
            None => format!("{source} ({level})"),
        }
    }

    /// The lines every report prints under a finding of this rule: what backs
    /// it with the quotation, then the suite's note (if any) apart from it.
    pub fn citation_lines(&self, citation: &Citation) -> Vec<String> {
        let mut lines = vec![format!("{}: {citation}", self.backing(None))];
        if !citation.note.is_empty() {
            lines.push(format!("note: {}", citation.note));
        }
        lines
    }

    /// Whether the rule is checked under `revision`.
    pub fn applies_to(&self, revision: Revision) -> bool {
        self.revisions.contains(&revision)
    }

    /// The citation in the words of `revision`'s own document.
    pub fn citation_for(&self, revision: Revision) -> &Citation {
        self.own_citation(revision)
            .map_or(&self.citation, |c| &c.citation)
    }

    /// The revision's own citation: the one written for it, else the one
    /// written for another release of the same protocol version (a release
    /// that did not reword the sentence is cited as the other one).
    fn own_citation(&self, revision: Revision) -> Option<&RevisionCitation> {
        let citations = self.revision_citations.iter();
        citations
            .clone()
            .find(|c| c.revision == revision)
            .or_else(|| citations.clone().find(|c| c.revision.same_line(revision)))
    }

    /// Every citation with the revisions it stands for (the first covers the
    /// rule's revisions that have no citation of their own).
    pub fn citations(&self) -> impl Iterator<Item = (Vec<Revision>, &Citation)> {
        let citing = move |owner: Option<Revision>| -> Vec<Revision> {
            self.revisions
                .iter()
                .copied()
                .filter(|r| self.own_citation(*r).map(|c| c.revision) == owner)
                .collect()
        };
        std::iter::once((citing(None), &self.citation)).chain(
            self.revision_citations
                .iter()
                .map(move |c| (citing(Some(c.revision)), &c.citation)),
        )
    }
}

impl PartialEq for Rule {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Rule {}

/// Every revision.
pub const ALL_REVISIONS: &[Revision] = &Revision::ALL;
/// The revisions whose plan operations are gated by a client capability.
pub const WITH_CAPABILITY: &[Revision] =
    &[Revision::Draft202605, Revision::V1Schema117, Revision::V1];
/// The v2 revisions.
pub const V2_ONLY: &[Revision] = &[Revision::V2Schema117, Revision::V2];
/// The revisions that still know `file` plans (schema 1.20.0 dropped them).
pub const WITH_FILE_PLANS: &[Revision] = &[
    Revision::Draft202605,
    Revision::V1Schema117,
    Revision::V2Schema117,
];
/// The revisions whose `markdown` plans may carry `path` (schema 1.20.0).
pub const WITH_MARKDOWN_PATH: &[Revision] = &[Revision::V1, Revision::V2];

/// Documents that citations name; `corpus/spec/excerpts/` holds the quoted
/// paragraphs of each (the suite's own README aside).
pub mod docs {
    /// Cites "ACP Agent Plan (protocol v1)".
    pub const PLAN_V1: &str = "ACP Agent Plan (protocol v1)";
    /// Cites "ACP Agent Plan with Plan Operations (draft-2026-05)".
    pub const PLAN_DRAFT: &str = "ACP Agent Plan with Plan Operations (draft-2026-05)";
    /// Cites "ACP Agent Plan (protocol v1, unstable Plan Operations)".
    pub const PLAN_V1_OPS: &str = "ACP Agent Plan (protocol v1, unstable Plan Operations)";
    /// Cites "ACP Agent Plan (protocol v2)".
    pub const PLAN_V2: &str = "ACP Agent Plan (protocol v2)";
    /// Cites "ACP Agent Plan (protocol v2, unstable schema)".
    pub const PLAN_V2_UNSTABLE: &str = "ACP Agent Plan (protocol v2, unstable schema)";
    /// Cites "RFD Plan Operations Support".
    pub const RFD: &str = "RFD Plan Operations Support";
    /// Cites "ACP JSON Schema v1 (schema.unstable.json)".
    pub const SCHEMA_V1: &str = "ACP JSON Schema v1 (schema.unstable.json)";
    /// Cites "ACP JSON Schema v2 (schema.unstable.json)".
    pub const SCHEMA_V2: &str = "ACP JSON Schema v2 (schema.unstable.json)";
    /// Cites "ACP JSON Schema v1 (schema 1.20.0)".
    pub const SCHEMA_1_20_V1: &str = "ACP JSON Schema v1 (schema 1.20.0)";
    /// Cites "ACP JSON Schema v2 (schema 1.20.0)".
    pub const SCHEMA_1_20_V2: &str = "ACP JSON Schema v2 (schema 1.20.0)";
    /// Cites "JSON-RPC 2.0 Specification".
    pub const JSONRPC: &str = "JSON-RPC 2.0 Specification";
    /// Cites "RFC 8259 (JSON)".
    pub const RFC8259: &str = "RFC 8259 (JSON)";
    /// Cites "ACP Transports (protocol v1)".
    pub const TRANSPORTS_V1: &str = "ACP Transports (protocol v1)";
    /// Cites "ACP Transports (protocol v2)".
    pub const TRANSPORTS_V2: &str = "ACP Transports (protocol v2)";
    /// Cites "ACP Initialization (protocol v1)".
    pub const INITIALIZATION_V1: &str = "ACP Initialization (protocol v1)";
    /// Cites "ACP Initialization (protocol v2)".
    pub const INITIALIZATION_V2: &str = "ACP Initialization (protocol v2)";
    /// Cites "ACP Session Setup (protocol v1)".
    pub const SESSION_SETUP_V1: &str = "ACP Session Setup (protocol v1)";
    /// Cites "ACP Session Setup (protocol v2)".
    pub const SESSION_SETUP_V2: &str = "ACP Session Setup (protocol v2)";
    /// Cites "ACP Prompt Turn (protocol v1)".
    pub const PROMPT_TURN_V1: &str = "ACP Prompt Turn (protocol v1)";
    /// Cites "ACP Prompt Lifecycle (protocol v2)".
    pub const PROMPT_LIFECYCLE_V2: &str = "ACP Prompt Lifecycle (protocol v2)";
    /// Cites "ACP Extensibility (protocol v1)".
    pub const EXTENSIBILITY_V1: &str = "ACP Extensibility (protocol v1)";
    /// Cites "ACP Extensibility (protocol v2)".
    pub const EXTENSIBILITY_V2: &str = "ACP Extensibility (protocol v2)";
    /// Cites "ACP Migrating to v2".
    pub const MIGRATION_V2: &str = "ACP Migrating to v2";
    /// Cites "acp-plan-conformance trace format (docs/guide.md)".
    pub const SUITE: &str = "acp-plan-conformance trace format (docs/guide.md)";
    /// Cites "acp-plan-conformance plan files (docs/dag.md)".
    pub const SUITE_DAG: &str = "acp-plan-conformance plan files (docs/dag.md)";
    /// Cites "Acts of Emergence 010: Agent/Plan".
    pub const EMERGENCE_PLAN: &str = "Acts of Emergence 010: Agent/Plan";
    /// Cites "Acts of Emergence 009: Agent/State (companion essay, not a seed)".
    pub const EMERGENCE_STATE: &str =
        "Acts of Emergence 009: Agent/State (companion essay, not a seed)";
}

/// Diagnostics by severity (all of them, kept or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Errors (MUST broken).
    pub errors: u64,
    /// Warnings (SHOULD broken, heuristics).
    pub warnings: u64,
    /// Infos.
    pub infos: u64,
    /// Diagnostics saying something was not checked (the checker's limits).
    pub incomplete: u64,
}

impl Counts {
    /// Every diagnostic counted, whatever its severity (the incomplete
    /// ones too: a kept TRACE-LIMIT is one of the diagnostics a report shows).
    pub fn total(&self) -> u64 {
        self.errors + self.warnings + self.infos + self.incomplete
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Counts) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.incomplete += other.incomplete;
    }

    /// Count one diagnostic of `severity`.
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
            Severity::Incomplete => self.incomplete += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUOTED: Citation = Citation {
        document: "D",
        section: "S",
        text: "T",
        note: "N",
    };

    fn rule(level: Level, basis: Basis) -> Rule {
        Rule {
            id: "X-Y",
            level,
            basis,
            revisions: ALL_REVISIONS,
            summary: "",
            citation: QUOTED,
            revision_citations: &[],
        }
    }

    #[test]
    fn a_reading_names_the_suites_severity_never_a_keyword_of_the_text() {
        let stated = rule(Level::Must, Basis::Text);
        assert_eq!(stated.level_label(), "MUST");
        assert_eq!(stated.backing(Some("v1")), "spec (MUST, v1)");
        assert_eq!(
            stated.citation_lines(&QUOTED),
            ["spec (MUST): D, S: \"T\"", "note: N"]
        );
        let read = rule(Level::Must, Basis::Reading);
        assert_eq!(read.level_label(), "error, suite's reading");
        assert_eq!(read.backing(None), "suite's reading (error)");
        assert_eq!(
            read.citation_lines(&QUOTED)[0],
            "suite's reading (error): D, S: \"T\""
        );
        let warning = rule(Level::Should, Basis::Reading);
        assert_eq!(warning.backing(None), "suite's reading (warning)");
        let unnoted = Citation { note: "", ..QUOTED };
        assert_eq!(stated.citation_lines(&unnoted).len(), 1);
    }
}
