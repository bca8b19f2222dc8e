//! INIT-*: the `initialize` exchange itself. Here INIT-VERSION-UNKNOWN (a
//! version no revision the suite knows defines, or readings of the answer
//! that negotiate different versions), which the engine decides and acts
//! on; the client's request and a second one are judged by the unit
//! `rules/initialize.rs`.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

/// The handshake negotiated no protocol version a revision of the suite
/// defines (or none), or its readings negotiate different versions: only
/// what holds under every revision is judged.
pub(crate) const VERSION_UNKNOWN: Rule = Rule {
    id: "INIT-VERSION-UNKNOWN",
    level: Level::Limit,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "The handshake names no one protocol version the suite has a revision for (a version no revision defines, none, or readings that negotiate different versions); only what every revision requires is checked",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Protocol version",
        text: "Clients and Agents MUST agree on a protocol version and act according to its specification.",
        note: VERSION_UNKNOWN_NOTE,
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::INITIALIZATION_V2,
            section: "Protocol version",
            text: "Clients and Agents MUST agree on a protocol version and act according to its specification.",
            note: VERSION_UNKNOWN_NOTE,
        },
    }],
};

/// INIT-VERSION-UNKNOWN's note: both causes, beside the quotation.
const VERSION_UNKNOWN_NOTE: &str = "Which specification the peers act by is known only from the version they agreed on. The suite does not know it when the initialize answer negotiates a version no revision of the suite defines, names none, or can be read more than one way (a repeated `protocolVersion`, or a repeated `result`) with readings that negotiate different versions: it then checks only what every revision requires, so it cannot call the trace conformant. The checker's own limit, not a violation by either party (an answer without a protocolVersion is also the agent's SES-PROTOCOL-VERSION; a repeat is ENV-DUPLICATE-KEY, against the agent). `--spec` names the revision and lifts the limit.";

/// This file's INIT-* rules; the `initialize` unit's follow them in the catalog.
pub const RULES: &[&Rule] = &[&VERSION_UNKNOWN];

/// Whether `rule` decides the same under every revision, so that it still
/// judges a trace whose revision is unknown: the JSON and JSON-RPC framing
/// (but batches, which v2 allows and v1 does not mention), the trace
/// format, the `initialize` exchange itself, and that it comes first.
pub(crate) fn holds_in_every_revision(rule: &Rule) -> bool {
    let family_reads_no_revision = ["ENV-", "TRACE-", "INIT-"]
        .iter()
        .any(|family| rule.id.starts_with(family));
    let batch = rule.id.starts_with("ENV-BATCH");
    (family_reads_no_revision && !batch && rule.revisions.len() == ALL_REVISIONS.len())
        || rule.id == super::initialize::PROTOCOL_VERSION.id
        || rule.id == super::before_init::BEFORE_INIT.id
}

/// The revision is unknown: `why` names what the handshake said.
pub(crate) fn version_unknown(why: &str) -> Diagnostic {
    Diagnostic::new(
        &VERSION_UNKNOWN,
        format!(
            "{why}: only what every revision requires (JSON, JSON-RPC framing, the trace format, \
             the handshake) is checked from here on"
        ),
    )
    .hint("pass --spec with the revision the peers speak to check the rest")
}
