//! INIT-*: the `initialize` exchange itself (the client's request, a second
//! one, and a version no revision the suite knows defines, or readings of
//! the answer that negotiate different versions).

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

/// An `initialize` request that names no `protocolVersion` in any reading.
pub const CLIENT_VERSION: Rule = Rule {
    id: "INIT-CLIENT-VERSION",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "An `initialize` request carries a `protocolVersion`",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Version Negotiation",
        text: "The initialize request MUST include the latest protocol version the Client supports.",
        note: "Which versions a client supports is not on the wire, but a request without any `protocolVersion` includes none (the schema's InitializeRequest requires the member).",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::INITIALIZATION_V2,
            section: "Version Negotiation",
            text: "The initialize request MUST include the latest protocol version the Client supports.",
            note: "Which versions a client supports is not on the wire, but a request without any `protocolVersion` includes none (the schema's InitializeRequest requires the member).",
        },
    }],
};

/// A second `initialize` whose capabilities differ from the first's: which
/// ones the agent acts on is not known (an ambiguity the client caused).
pub const CAPABILITIES_DIFFER: Rule = Rule {
    id: "INIT-CAPABILITIES-DIFFER",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A second `initialize` on the connection does not advertise other client capabilities than the first (which ones hold is ambiguous)",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Capabilities",
        text: "Therefore, Clients and Agents MUST treat all capabilities omitted in the initialize request as UNSUPPORTED.",
        note: "The text knows one initialize request per connection. With two that advertise differently, an agent may act on either, so the suite judges no agent on the capabilities where they disagree and says so once, against the client that sent the second.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::INITIALIZATION_V2,
            section: "Capabilities",
            text: "Therefore, Clients and Agents MUST treat all capabilities omitted in the initialize request as UNSUPPORTED.",
            note: "The text knows one initialize request per connection. With two that advertise differently, an agent may act on either, so the suite judges no agent on the capabilities where they disagree and says so once, against the client that sent the second.",
        },
    }],
};

/// The handshake negotiated no protocol version a revision of the suite
/// defines (or none), or its readings negotiate different versions: only
/// what holds under every revision is judged.
pub const VERSION_UNKNOWN: Rule = Rule {
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

pub const RULES: &[&Rule] = &[&CLIENT_VERSION, &CAPABILITIES_DIFFER, &VERSION_UNKNOWN];

/// Whether `rule` decides the same under every revision, so that it still
/// judges a trace whose revision is unknown: the JSON and JSON-RPC framing
/// (but batches, which v2 allows and v1 does not mention), the trace
/// format, the `initialize` exchange itself, and that it comes first.
pub fn holds_in_every_revision(rule: &Rule) -> bool {
    let family_reads_no_revision = ["ENV-", "TRACE-", "INIT-"]
        .iter()
        .any(|family| rule.id.starts_with(family));
    let batch = rule.id.starts_with("ENV-BATCH");
    (family_reads_no_revision && !batch && rule.revisions.len() == ALL_REVISIONS.len())
        || rule.id == super::ses::PROTOCOL_VERSION.id
        || rule.id == super::before_init::BEFORE_INIT.id
}

/// An `initialize` request (every reading of it) without `protocolVersion`.
pub fn no_client_version(params_given: bool) -> Diagnostic {
    let d = Diagnostic::new(
        &CLIENT_VERSION,
        "the initialize request has no `protocolVersion`",
    )
    .hint("send the latest protocol version the client supports, e.g. \"protocolVersion\": 1");
    if params_given {
        d.at("/params")
    } else {
        d
    }
}

/// A second `initialize` request whose `clientCapabilities` differ (by
/// JSON value) from those of the first, read on `first_line`.
pub fn capabilities_differ(first_line: u64) -> Diagnostic {
    Diagnostic::new(
        &CAPABILITIES_DIFFER,
        format!(
            "this initialize advertises other client capabilities than the one on line {first_line}: \
             an agent may act on either, so no agent is judged on the capabilities where they disagree"
        ),
    )
    .at("/params/clientCapabilities")
    .hint("send one initialize per connection, or repeat the same capabilities")
}

/// The revision is unknown: `why` names what the handshake said.
pub fn version_unknown(why: &str) -> Diagnostic {
    Diagnostic::new(
        &VERSION_UNKNOWN,
        format!(
            "{why}: only what every revision requires (JSON, JSON-RPC framing, the trace format, \
             the handshake) is checked from here on"
        ),
    )
    .hint("pass --spec with the revision the peers speak to check the rest")
}
