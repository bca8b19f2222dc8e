//! CAP-PLAN-OPS and CAP-LEGACY-V2: which plan updates an agent may send,
//! given the revision and what the client's `initialize` advertised. A unit
//! ([`super::unit`]) on [`Event::PlanUpdate`].
//!
//! The same decision is the engine's too: a plan update these rules forbid
//! is not applied to the client state (a legacy `plan` under v2 is not even
//! read). So the decision is one predicate, [`gate`], which the engine calls
//! to apply or not and the unit calls to say why; the advertisement stays an
//! engine fact ([`Facts::plan_capability`], read with CAP-VALUE, CAP-META
//! and CAP-RENAMED in `rules/cap.rs`).

use super::cap::Advertised;
use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{
    docs, Basis, Citation, Level, RevisionCitation, Rule, V2_ONLY, WITH_CAPABILITY,
};
use crate::diag::Diagnostic;
use crate::spec::Revision;

/// `plan_update` or `plan_removed` to a client that did not advertise plans,
/// against the agent.
pub(crate) const PLAN_OPERATIONS: Rule = Rule {
    id: "CAP-PLAN-OPS",
    level: Level::Must,
    basis: Basis::Text,
    revisions: WITH_CAPABILITY,
    summary: "No `plan_update` or `plan_removed` unless the client advertised the plan capability",
    citation: Citation {
        document: docs::PLAN_DRAFT,
        section: "Plan Operations",
        text: "Agents MUST NOT send plan_update or plan_removed unless the Client advertised planCapabilities. If the Client omits planCapabilities, the Agent MUST fall back to the existing plan update.",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1_OPS,
                section: "Plan Operations",
                text: "Agents MUST NOT send plan_update or plan_removed unless the Client advertised plan. If the Client omits plan, the Agent MUST fall back to the existing plan update.",
                note: "The capability key was renamed planCapabilities → plan on 2026-06-05 (schema 0.13.6).",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "SessionUpdate plan_update and plan_removed",
                text: "Replaces the plan with this ID. Agents MUST NOT send this update unless the Client advertised `plan`.",
                note: "plan_removed: \"Removes the plan with this ID. Agents MUST NOT send this update unless the Client advertised `plan`.\" Plan operations are stable since schema 1.20.0.",
            },
        },
    ],
};

/// A legacy `plan` update under protocol v2, against the agent.
pub(crate) const LEGACY_IN_V2: Rule = Rule {
    id: "CAP-LEGACY-V2",
    level: Level::Must,
    basis: Basis::Text,
    revisions: V2_ONLY,
    summary: "No legacy `plan` update under protocol v2 (use `plan_update` items)",
    citation: Citation {
        document: docs::INITIALIZATION_V2,
        section: "Protocol version",
        text: "Clients and Agents MUST agree on a protocol version and act according to its specification.",
        note: "v2 has no plan session update (\"Migrating to v2\": plan is \"Replaced by plan_update with a planId and a type discriminator\"), so an agent that sends one under protocol v2 acts by another version's specification.",
    },
    revision_citations: &[],
};

/// What the revision and the client's advertisement let an agent send as a
/// plan update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gate {
    /// It may be sent (and is applied, if it is well formed).
    Open,
    /// A legacy `plan` update under a revision without one
    /// (CAP-LEGACY-V2): not read further.
    LegacyInV2,
    /// `plan_update` or `plan_removed` that the client did not advertise
    /// (CAP-PLAN-OPS): checked, not applied.
    WithoutCapability,
}

/// Whether a plan update of `kind` (one of the plan kinds) may be sent under
/// `revision`, to a client whose `initialize` advertised `capability`;
/// `initialized`: an `initialize` was answered successfully (before that,
/// nothing was advertised yet, and SES-BEFORE-INIT judges the update). Only
/// when no reading of the client's `initialize` advertises the capability
/// is the agent at fault ([`Advertised::Ambiguous`] is the client's).
pub(crate) fn gate(
    kind: &str,
    revision: Revision,
    capability: Advertised,
    initialized: bool,
) -> Gate {
    if kind == "plan" {
        if revision.spelling().legacy_plan {
            Gate::Open
        } else {
            Gate::LegacyInV2
        }
    } else if capability == Advertised::No && initialized {
        Gate::WithoutCapability
    } else {
        Gate::Open
    }
}

/// A `kind` update (`plan_update`, `plan_removed`) of `session` that
/// CAP-PLAN-OPS forbids under `revision`, whose key the message names.
fn operations_without_capability(kind: &str, revision: Revision, session: &str) -> Diagnostic {
    let key = revision.spelling().capability_key.unwrap_or("plan");
    Diagnostic::new(
        &PLAN_OPERATIONS,
        format!("`{kind}` sent, but the client did not advertise clientCapabilities.{key} in initialize"),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("without the capability, send the legacy `plan` update instead")
}

/// A legacy `plan` update of `session` under protocol v2.
fn legacy_in_v2(session: &str) -> Diagnostic {
    Diagnostic::new(&LEGACY_IN_V2, "legacy `plan` update under protocol v2")
        .at("/params/update/sessionUpdate")
        .session(session)
        .hint("send `plan_update` with an `items` plan instead")
}

/// The unit of CAP-PLAN-OPS and CAP-LEGACY-V2. It keeps no state: what it
/// reads (the revision, the advertisement, the handshake) are the engine's
/// facts, which the engine needs itself to apply an update or not.
#[derive(Debug, Default)]
pub(crate) struct PlanOperations;

impl Unit for PlanOperations {
    const RULES: &'static [&'static Rule] = &[&PLAN_OPERATIONS, &LEGACY_IN_V2];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        let Event::PlanUpdate { session, kind, .. } = *event else {
            return;
        };
        match gate(kind, facts.revision, facts.plan_capability, facts.initialized) {
            Gate::Open => {}
            Gate::LegacyInV2 => out.say(legacy_in_v2(session)),
            Gate::WithoutCapability => {
                out.say(operations_without_capability(kind, facts.revision, session))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;
    use crate::catalog::ALL_REVISIONS;

    fn update(kind: &str) -> Event<'_> {
        Event::PlanUpdate {
            session: "s",
            kind,
            quiet_resume: None,
        }
    }

    fn with(revision: Revision, capability: Advertised, initialized: bool) -> Facts {
        Facts {
            plan_capability: capability,
            ..facts(revision, initialized)
        }
    }

    /// Revisions with a capability key (v1, draft), and those without (v2).
    fn keyed(revision: Revision) -> bool {
        revision.spelling().capability_key.is_some()
    }

    #[test]
    fn plan_operations_unadvertised_after_the_handshake_are_the_agents_breach() {
        for &revision in ALL_REVISIONS.iter().filter(|r| keyed(**r)) {
            let no = with(revision, Advertised::No, true);
            let events = [(update("plan_update"), no), (update("plan_removed"), no)];
            assert_eq!(
                said(&mut PlanOperations, &events),
                ["CAP-PLAN-OPS", "CAP-PLAN-OPS"],
                "{revision}"
            );
            let mut out = Emit::default();
            PlanOperations.on(&update("plan_removed"), &no, &mut out);
            let d = out.take().remove(0);
            let key = revision.spelling().capability_key.unwrap_or_default();
            assert!(d.message.starts_with("`plan_removed` sent"), "{}", d.message);
            assert!(d.message.contains(&format!("clientCapabilities.{key} ")), "{}", d.message);
            assert_eq!(d.session.as_deref(), Some("s"));
            assert_eq!(d.pointer, "/params/update/sessionUpdate");
        }
    }

    #[test]
    fn advertised_ambiguous_before_the_handshake_or_legacy_is_no_finding() {
        for &revision in ALL_REVISIONS.iter().filter(|r| keyed(**r)) {
            let events = [
                (update("plan_update"), with(revision, Advertised::Yes, true)),
                // Some reading advertises it: the client's fault, not the agent's.
                (update("plan_update"), with(revision, Advertised::Ambiguous, true)),
                // Before an initialize is answered nothing is advertised yet.
                (update("plan_removed"), with(revision, Advertised::No, false)),
                // The fallback the rule asks for.
                (update("plan"), with(revision, Advertised::No, true)),
            ];
            assert!(said(&mut PlanOperations, &events).is_empty(), "{revision}");
        }
    }

    #[test]
    fn a_legacy_plan_under_v2_is_the_agents_breach_whatever_was_advertised() {
        for &revision in ALL_REVISIONS.iter().filter(|r| !keyed(**r)) {
            // What the engine reads under v2: the capability is baseline
            // once an initialize is answered.
            for (capability, initialized) in
                [(Advertised::Yes, true), (Advertised::Ambiguous, true), (Advertised::No, false)]
            {
                let facts = with(revision, capability, initialized);
                let events = [(update("plan"), facts), (update("plan_update"), facts)];
                assert_eq!(said(&mut PlanOperations, &events), ["CAP-LEGACY-V2"], "{revision}");
            }
            let mut out = Emit::default();
            PlanOperations.on(&update("plan"), &with(revision, Advertised::Yes, true), &mut out);
            let d = out.take().remove(0);
            assert_eq!(d.message, "legacy `plan` update under protocol v2");
            assert_eq!(d.session.as_deref(), Some("s"));
        }
    }

    #[test]
    fn the_gate_is_what_the_unit_says() {
        // The engine applies an update only through the gate: a breach is
        // never applied, and every update the unit is silent on is.
        for &revision in ALL_REVISIONS {
            for capability in [Advertised::Yes, Advertised::No, Advertised::Ambiguous] {
                for initialized in [false, true] {
                    for kind in ["plan", "plan_update", "plan_removed"] {
                        let facts = with(revision, capability, initialized);
                        let said = said(&mut PlanOperations, &[(update(kind), facts)]);
                        let open = gate(kind, revision, capability, initialized) == Gate::Open;
                        assert_eq!(said.is_empty(), open, "{revision} {capability:?} {kind}");
                    }
                }
            }
        }
    }

    #[test]
    fn other_events_are_no_finding() {
        let no = with(Revision::V1, Advertised::No, true);
        let events = [
            (Event::SessionClosed { session: "s" }, no),
            (Event::Prompt { session: "s", setup_in_flight: None }, no),
        ];
        assert!(said(&mut PlanOperations, &events).is_empty());
    }
}
