//! CAP-*: what may be sent given the client's capabilities and the revision.

use crate::catalog::{
    docs, Basis, Citation, Level, RevisionCitation, Rule, WITH_CAPABILITY,
};
use crate::diag::Diagnostic;
use crate::spec::capability::{CapabilityKeys, KeyValue};
use crate::spec::{list_revisions, Revision, ALL_CAPABILITY_KEYS};

/// A plan capability that is neither an object nor null, against the client.
pub const VALUE: Rule = Rule {
    id: "CAP-VALUE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: WITH_CAPABILITY,
    summary: "The plan capability is an object (or null / omitted for \"not supported\")",
    citation: Citation {
        document: docs::RFD,
        section: "Client Capabilities",
        text: "planCapabilities: PlanCapabilities? = null",
        note: "PlanCapabilities is an object (\"When present ({}), signals the client supports the plan_update and plan_removed session update types.\"); null or omitted advertises nothing.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "ClientCapabilities.plan",
                text: "Optional. Omitted or `null` both mean the Client does not advertise support. Supplying `{}` means the Client can receive both update types.",
                note: "The schema allows PlanCapabilities (an object) or null.",
            },
        },
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::SCHEMA_V1,
                section: "ClientCapabilities.plan",
                text: "Optional. Omitted or null both mean the client does not advertise support.",
                note: "The schema allows PlanCapabilities (an object) or null.",
            },
        },
    ],
};

/// A plan capability whose `_meta` is neither an object nor null.
pub const META: Rule = Rule {
    id: "CAP-META",
    level: Level::Must,
    basis: Basis::Text,
    revisions: WITH_CAPABILITY,
    summary: "The plan capability object's own `_meta` is an object or null",
    citation: Citation {
        document: docs::SCHEMA_V1,
        section: "PlanCapabilities, property _meta",
        text: "\"type\": [\"object\", \"null\"]",
        note: "The type of PlanCapabilities._meta (under draft-2026-05 the same object is spelled planCapabilities). A client that sends another type does not send a valid ACP message.",
    },
    revision_citations: &[],
};

/// The capability under another revision's key: a warning, as it
/// advertises nothing under this one.
pub const RENAMED: Rule = Rule {
    id: "CAP-RENAMED",
    level: Level::Should,
    basis: Basis::Text,
    revisions: WITH_CAPABILITY,
    summary: "The client spells the capability as its revision does (another revision's key advertises nothing)",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Capabilities",
        text: "The introduction of new capabilities is not considered a breaking change. Therefore, Clients and Agents MUST treat all capabilities omitted in the initialize request as UNSUPPORTED.",
        note: "The key was renamed planCapabilities → plan on 2026-06-05 (schema 0.13.6): a key of another revision advertises nothing, which is probably not what the client meant.",
    },
    revision_citations: &[],
};

/// The CAP-* rules, in catalog order.
/// CAP-PLAN-OPS and CAP-LEGACY-V2 are decided by the `plan_operations` unit,
/// which the catalog lists after these.
pub const RULES: &[&Rule] = &[&VALUE, &META, &RENAMED];

/// Whether the client advertised plan operations under `revision`, in
/// every reading of its `initialize`, and the diagnostics its capability
/// keys deserve (pointing into the initialize request).
pub(crate) fn read_advertisement(
    keys: &CapabilityKeys,
    revision: Revision,
) -> (Advertised, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let Some(key) = revision.spelling().capability_key else {
        // v2: plan operations are baseline; the keys mean nothing.
        return (Advertised::Yes, out);
    };
    let readings = keys.get(key);
    let advertised = match (readings.some_advertise, readings.some_do_not) {
        (true, false) => Advertised::Yes,
        (false, _) => Advertised::No,
        (true, true) => Advertised::Ambiguous,
    };
    match readings.odd {
        Some(KeyValue::Array) => out.push(
            Diagnostic::new(
                &VALUE,
                format!("clientCapabilities.{key} is an array; it must be an object ({{}}) or null. Readers disagree on what it advertises (serde-based agents, the official Rust crate among them, read an array as an empty object), so the agent's plan operations are not judged against it"),
            )
            .at(format!("/params/clientCapabilities/{key}"))
            .hint(format!("send \"{key}\": {{}} to advertise plan operations, or omit it")),
        ),
        Some(KeyValue::Other(kind)) => out.push(
            Diagnostic::new(
                &VALUE,
                format!("clientCapabilities.{key} is {kind}; it must be an object ({{}}) or null, and does not advertise plan operations"),
            )
            .at(format!("/params/clientCapabilities/{key}"))
            .hint(format!("send \"{key}\": {{}} to advertise plan operations, or omit it")),
        ),
        _ => {}
    }
    if let Some(kind) = readings.odd_meta {
        // Readers that default a bad `_meta` (the official crate) still see
        // the capability: the advertisement stands, the client is at fault.
        out.push(
            Diagnostic::new(
                &META,
                format!("clientCapabilities.{key}._meta is {kind}; it must be an object or null"),
            )
            .at(format!("/params/clientCapabilities/{key}/_meta"))
            .hint("put extension data in an object (\"_meta\": {...}), or omit `_meta`"),
        );
    }
    for other in ALL_CAPABILITY_KEYS.iter().filter(|k| **k != key) {
        if keys.get(other).is_present() {
            let users = list_revisions(&Revision::using_capability_key(other));
            out.push(
                Diagnostic::new(
                    &RENAMED,
                    format!(
                        "clientCapabilities.{other} is the {users} spelling; under {revision} the capability is `{key}`, so `{other}` advertises nothing"
                    ),
                )
                .at(format!("/params/clientCapabilities/{other}"))
                .hint(format!("rename `{other}` to `{key}` (or check with --spec if the trace is {users})")),
            );
        }
    }
    (advertised, out)
}

/// Whether the client advertised the plan capability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advertised {
    /// Every reading advertises it (v2: always, plan operations being baseline).
    Yes,
    /// No reading advertises it.
    No,
    /// Some reading of the client's `initialize` advertises it and another
    /// does not (a repeated member, an array): the client's fault, reported
    /// at the initialize request; the agent is not judged on it.
    Ambiguous,
}
