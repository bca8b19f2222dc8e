//! The `initialize` exchange's own rules: INIT-CLIENT-VERSION (the client's
//! request names a `protocolVersion`), INIT-CAPABILITIES-DIFFER (a second
//! request advertises what the first did) and SES-PROTOCOL-VERSION (a
//! successful answer names the version chosen). A unit ([`super::unit`]):
//! the engine keeps the requests awaiting their answers (what each reading
//! of them names) and negotiates the revision; the unit keeps the first
//! request's capabilities.
//!
//! INIT-VERSION-UNKNOWN stays with the engine: it acts on it (from then on
//! its one `emit` drops what a rule that not every revision holds says,
//! and the revision it reports gives the reason), so a unit would only
//! repeat the engine's own decision.

use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::capability::{VersionFault, MAX_PROTOCOL_VERSION};
use crate::spec::Revision;
use serde_json::value::RawValue;

pub(crate) const PROTOCOL_VERSION: Rule = Rule {
    id: "SES-PROTOCOL-VERSION",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A successful `initialize` result carries the chosen `protocolVersion`, an integer from 0 to 65535",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Initialization",
        text: "The Agent MUST respond with the chosen protocol version and the capabilities it supports.",
        note: "The protocol version is \"a single integer that identifies a MAJOR protocol version\"; the schema's ProtocolVersion is an integer from 0 to 65535 (uint16), so a value outside that range is no version a client can read. Without one no revision is known (INIT-VERSION-UNKNOWN).",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::INITIALIZATION_V2,
            section: "Initialization",
            text: "The Agent MUST respond with the chosen protocol version",
            note: "The protocol version is \"a single integer that identifies a MAJOR protocol version\"; the schema's ProtocolVersion is an integer from 0 to 65535 (uint16), so a value outside that range is no version a client can read. Without one no revision is known (INIT-VERSION-UNKNOWN).",
        },
    }],
};

/// An `initialize` request that names no `protocolVersion` in any reading.
pub(crate) const CLIENT_VERSION: Rule = Rule {
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
pub(crate) const CAPABILITIES_DIFFER: Rule = Rule {
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

/// A successful initialize result without a protocolVersion the suite can
/// read.
fn no_protocol_version(fault: VersionFault<'_>) -> Diagnostic {
    let what = match fault {
        VersionFault::Missing => {
            return Diagnostic::new(
                &PROTOCOL_VERSION,
                "the initialize result has no `protocolVersion`",
            )
            .at("/result")
            .hint("answer with the protocol version chosen, e.g. \"protocolVersion\": 1");
        }
        VersionFault::NotANumber(kind) => format!("is {kind}, not an integer"),
        VersionFault::NotAnInteger(text) => {
            format!("is {}, not an integer", crate::text::shorten(text, 40))
        }
        VersionFault::OutOfRange(text) => format!(
            "is {}, beyond the range of protocol versions (integers from 0 to {MAX_PROTOCOL_VERSION})",
            crate::text::shorten(text, 40)
        ),
    };
    Diagnostic::new(
        &PROTOCOL_VERSION,
        format!("the initialize result's `protocolVersion` {what}"),
    )
    .at("/result/protocolVersion")
    .hint("answer with the protocol version chosen, e.g. \"protocolVersion\": 1")
}

/// An `initialize` request (every reading of it) without `protocolVersion`.
fn no_client_version(params_given: bool) -> Diagnostic {
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
fn capabilities_differ(first_line: u64) -> Diagnostic {
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

/// Where a request was read: its line, and its batch element + 1 (0
/// outside a batch).
type At = (u64, u32);

/// The `clientCapabilities` of the first `initialize` request on the
/// connection, as sent, and where it was read: a later request that
/// advertises another JSON value is INIT-CAPABILITIES-DIFFER, said once.
#[derive(Debug, Default)]
enum FirstCapabilities {
    #[default]
    None,
    /// The text of its `clientCapabilities` (`{}` when it sent none).
    Kept { at: At, text: String },
    /// Too large to keep, or the difference already said.
    Done,
}

/// Most bytes of `clientCapabilities` kept to compare with a second
/// `initialize`'s.
const CAPABILITIES_KEPT_BYTES: usize = 64 * 1024;

/// The unit of INIT-CLIENT-VERSION, INIT-CAPABILITIES-DIFFER and
/// SES-PROTOCOL-VERSION.
#[derive(Debug, Default)]
pub(crate) struct InitializeExchange {
    first_capabilities: FirstCapabilities,
}

impl Unit for InitializeExchange {
    const RULES: &'static [&'static Rule] =
        &[&CLIENT_VERSION, &CAPABILITIES_DIFFER, &PROTOCOL_VERSION];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::InitializeRequested {
                request,
                params,
                every_method,
            } => {
                // Said when the request is read (live modes report each
                // line's findings as it comes): the agent may act on either.
                if let Some(first_line) = self.compare_capabilities(request, params, every_method, facts) {
                    self.first_capabilities = FirstCapabilities::Done;
                    out.say(capabilities_differ(first_line));
                }
            }
            // Every reading names no version (under one that calls
            // another method, nothing is owed).
            Event::InitializeRead {
                params_given,
                names_version: false,
                other_method: false,
            } => out.say(no_client_version(params_given)),
            Event::InitializeFailed { request } => {
                // A failed initialize changes nothing: the next one's
                // capabilities are the first the agent may act on.
                if matches!(self.first_capabilities, FirstCapabilities::Kept { at, .. } if at == request) {
                    self.first_capabilities = FirstCapabilities::None;
                }
            }
            Event::InitializeVersions {
                versions,
                one_reading,
            } => {
                // Every reading names no version it can be read as; not
                // judged for one reading of a request read several ways.
                let negotiated = versions.iter().any(Result::is_ok);
                if let (false, false, Some(Err(fault))) = (negotiated, one_reading, versions.first()) {
                    out.say(no_protocol_version(*fault));
                }
            }
            _ => {}
        }
    }
}

impl InitializeExchange {
    /// The `clientCapabilities` of an `initialize` request read at `at`,
    /// compared by JSON value with the first request's. Not after a line
    /// the checker's limits kept it from reading, which may have been an
    /// initialize itself, nor when the line's readings call different
    /// methods. The line of the first request when they differ.
    fn compare_capabilities(
        &mut self,
        at: At,
        params: Option<&RawValue>,
        every_method: &[String],
        facts: &Facts,
    ) -> Option<u64> {
        if matches!(self.first_capabilities, FirstCapabilities::Done) || facts.lost_at > 0 {
            return None;
        }
        // The last value, as serde_json and JavaScript read a repeat (the
        // repeat itself is ENV-DUPLICATE-KEY's); none or null advertise
        // nothing, as `{}` does.
        let text = (params
            .and_then(|p| crate::trace::members_named(p.get(), "clientCapabilities").pop()))
        .map(RawValue::get)
        .filter(|text| *text != "null")
        .unwrap_or("{}");
        if text.len() > CAPABILITIES_KEPT_BYTES {
            self.first_capabilities = FirstCapabilities::Done;
            return None;
        }
        match &self.first_capabilities {
            FirstCapabilities::None => {
                self.first_capabilities = FirstCapabilities::Kept {
                    at,
                    text: text.to_owned(),
                }
            }
            // Another reading of the first request.
            FirstCapabilities::Kept { at: first, .. } if *first == at => {}
            FirstCapabilities::Kept {
                at: first,
                text: kept,
            } => {
                if every_method.is_empty() && !crate::trace::same_json_value(kept, text) {
                    return Some(first.0);
                }
            }
            FirstCapabilities::Done => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, raw, said};
    use super::*;

    fn requested<'a>(line: u64, params: Option<&'a RawValue>) -> Event<'a> {
        Event::InitializeRequested {
            request: (line, 0),
            params,
            every_method: &[],
        }
    }

    fn read(params_given: bool, names_version: bool, other_method: bool) -> Event<'static> {
        Event::InitializeRead {
            params_given,
            names_version,
            other_method,
        }
    }

    fn fresh() -> Facts {
        facts(Revision::V1, false)
    }

    #[test]
    fn a_request_without_a_version_in_any_reading_is_the_clients_breach() {
        let mut unit = InitializeExchange::default();
        let events = [
            // No params, or params without a version.
            (read(false, false, false), fresh()),
            (read(true, false, false), fresh()),
            // Some reading names a version, or calls another method.
            (read(true, true, false), fresh()),
            (read(true, false, true), fresh()),
            (read(false, false, true), fresh()),
        ];
        assert_eq!(
            said(&mut unit, &events),
            ["INIT-CLIENT-VERSION", "INIT-CLIENT-VERSION"]
        );
        let mut out = Emit::default();
        unit.on(&read(true, false, false), &fresh(), &mut out);
        unit.on(&read(false, false, false), &fresh(), &mut out);
        let found = out.take();
        // The engine places them at the request; the pointer is the unit's.
        let pointers: Vec<_> = found.iter().map(|d| (d.line, d.pointer.as_str())).collect();
        assert_eq!(pointers, [(0, "/params"), (0, "")]);
    }

    #[test]
    fn a_second_request_with_other_capabilities_is_said_once() {
        let first = raw(r#"{"protocolVersion":1,"clientCapabilities":{"fs":{}}}"#);
        let same = raw(r#"{"protocolVersion":1,"clientCapabilities": { "fs" : {} }}"#);
        let other = raw(r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#);
        let mut unit = InitializeExchange::default();
        let events = [
            (requested(1, Some(&first)), fresh()),
            (requested(2, Some(&same)), fresh()),
            (requested(3, Some(&other)), fresh()),
            (requested(4, Some(&first)), fresh()),
        ];
        assert_eq!(said(&mut unit, &events), ["INIT-CAPABILITIES-DIFFER"]);
        let mut out = Emit::default();
        let mut unit = InitializeExchange::default();
        unit.on(&requested(1, Some(&first)), &fresh(), &mut out);
        unit.on(&requested(5, None), &fresh(), &mut out);
        let found = out.take();
        assert_eq!(found[0].pointer, "/params/clientCapabilities");
        assert!(found[0].message.contains("line 1"), "{}", found[0].message);
    }

    #[test]
    fn other_capabilities_are_not_judged_after_a_failed_first_or_a_lost_line() {
        let first = raw(r#"{"clientCapabilities":{"fs":{}}}"#);
        let other = raw(r#"{"clientCapabilities":{"plan":{}}}"#);
        let failed = Event::InitializeFailed { request: (1, 0) };
        let mut unit = InitializeExchange::default();
        let events = [
            (requested(1, Some(&first)), fresh()),
            (failed, fresh()),
            (requested(2, Some(&other)), fresh()),
        ];
        assert!(said(&mut unit, &events).is_empty());
        let mut lost = fresh();
        lost.lost_at = 1;
        let mut unit = InitializeExchange::default();
        let events = [
            (requested(1, Some(&first)), fresh()),
            (requested(2, Some(&other)), lost),
        ];
        assert!(said(&mut unit, &events).is_empty());
    }

    #[test]
    fn an_answer_without_a_readable_version_is_the_agents_breach_in_every_reading() {
        let versions = |versions, one_reading| Event::InitializeVersions {
            versions,
            one_reading,
        };
        let missing = [Err(VersionFault::Missing)];
        let split = [Err(VersionFault::Missing), Ok(1)];
        let ok = [Ok(1)];
        let mut unit = InitializeExchange::default();
        let events = [
            (versions(&missing, false), fresh()),
            // Another reading names a version.
            (versions(&split, false), fresh()),
            // One reading of a request read several ways.
            (versions(&missing, true), fresh()),
            (versions(&ok, false), fresh()),
        ];
        assert_eq!(said(&mut unit, &events), ["SES-PROTOCOL-VERSION"]);
        let out_of_range = [Err(VersionFault::OutOfRange("70000"))];
        let mut out = Emit::default();
        unit.on(&versions(&out_of_range, false), &fresh(), &mut out);
        let found = out.take();
        assert_eq!(found[0].pointer, "/result/protocolVersion");
        assert!(found[0].message.contains("70000"), "{}", found[0].message);
    }
}
