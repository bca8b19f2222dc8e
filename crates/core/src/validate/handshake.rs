//! The `initialize` handshake: requests awaiting their answers, and the
//! client's capabilities, judged once their line is read.

use super::{At, Validator};
use crate::diag::Diagnostic;
use crate::rules::unit::Event;
use crate::rules::{cap, env, init, trace_format};
use crate::spec::capability::{self, CapabilityKeys};
use crate::spec::SpecChoice;
use serde_json::value::RawValue;

/// What an answer is read as the answer of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ReadAs {
    /// Its request, whose method is known.
    TheRequest,
    /// One reading of a request read several ways (a repeated `method`, or
    /// one of two requests in flight under one id): what the answer
    /// establishes is taken, but it is not judged for what that method's
    /// answer owes, since under another reading it owes nothing of the kind.
    OneReading,
    /// Its request by a guess: the answer's id paired with no request in
    /// flight, and one initialize awaits an answer. It negotiates as its
    /// request's would, but what it advertises is not known.
    Guessed,
}

/// Whether an `initialize` was answered successfully on the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Handshake {
    NotStarted,
    /// Every answer so far was an error; the last one came on `line`.
    Failed {
        line: u64,
    },
    Answered,
}

/// An `initialize` request awaiting its answer.
#[derive(Debug)]
pub(super) struct PendingInitialize {
    at: At,
    /// Its plan capability keys, in every reading of the request.
    keys: CapabilityKeys,
    /// The pointer to it inside its batch (`/2`), or empty.
    base: String,
    /// It has `params` (in every reading, or in none).
    params_given: bool,
    /// Some reading of it names a `protocolVersion`.
    names_version: bool,
    /// Some reading of its line calls another method.
    other_method: bool,
    /// Its line, up to `INITIALIZE_LINE_KEPT` bytes, for the snippets of
    /// diagnostics about its capabilities found when it is answered.
    bytes: Vec<u8>,
}

/// Most `initialize` requests awaiting an answer whose capabilities are
/// kept: a client sends one, or retries one; past this the oldest is
/// forgotten, and an answer to it cannot tell what the client advertised.
pub(super) const INITIALIZE_IN_FLIGHT_KEPT: usize = 4;

impl PendingInitialize {
    /// `diagnostics` about its capabilities (CAP-*), placed at its line
    /// and inside its batch, with a snippet of its line when that was kept.
    fn place(&self, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        for d in &mut diagnostics {
            d.line = self.at.0;
            d.pointer.insert_str(0, &self.base);
            if !self.bytes.is_empty() {
                d.snippet = Some(crate::text::snippet(&self.bytes, &d.pointer));
            }
        }
        diagnostics
    }
}

/// Most of the initialize request kept for snippets.
const INITIALIZE_LINE_KEPT: usize = 64 * 1024;

impl Validator {
    /// An `initialize` request (one reading of it, when its line repeats
    /// a member): its capability keys kept until it is answered.
    pub(super) fn initialize_requested(&mut self, params: Option<&RawValue>) {
        if let Some(repeat) = params.and_then(|p| self.first_repeat_in(p)) {
            self.emit(env::duplicate_member(
                &format!("/params{}", repeat.pointer),
                &repeat.key,
                "each value is a reading of the capabilities; where the readings disagree on the plan capability, the agent is not judged against it",
            ));
        }
        let keys = capability::read_capability_keys(params);
        let names_version = params
            .is_some_and(|p| !crate::trace::members_named(p.get(), "protocolVersion").is_empty());
        let at = (self.line, self.element);
        tell_units!(self, Event::InitializeRequested {
            request: at,
            params,
            every_method: &self.reading_methods,
        });
        if let Some(pending) = self.initializing.iter_mut().find(|p| p.at == at) {
            // Another reading of the same request (a repeated
            // member): every reading's capabilities count.
            pending.keys = pending.keys.merge(keys);
            pending.names_version |= names_version;
            return;
        }
        if self.initializing.len() == INITIALIZE_IN_FLIGHT_KEPT {
            let forgotten = self.initializing.remove(0);
            self.emit(
                Diagnostic::new(
                    &trace_format::LIMIT,
                    format!(
                        "more than {INITIALIZE_IN_FLIGHT_KEPT} initialize requests await their answers; \
                         the capabilities of the one on line {} are not kept, so its answer is not \
                         judged against them",
                        forgotten.at.0
                    ),
                )
                .hint("answer each initialize before the client sends another"),
            );
        }
        let other_method = !self.reading_methods.is_empty();
        self.initializing.push(PendingInitialize {
            at,
            keys,
            base: self.element_base.clone(),
            params_given: params.is_some(),
            names_version,
            other_method,
            bytes: Vec::new(),
        });
        if params.is_none() {
            // No reading has params: what they name is known already.
            tell_units!(self, Event::InitializeRead {
                params_given: false,
                names_version,
                other_method,
            });
        }
    }

    /// The answer to the `initialize` read at `request`, read as each of
    /// `replies` (one, unless the response repeats `result` or `error`): a
    /// successful one negotiates the revision and what the client
    /// advertised. Readings that negotiate different versions, or offer
    /// different session capabilities, leave them unknown.
    pub(super) fn initialize_answered(
        &mut self,
        request: At,
        replies: &[super::calls::Reply<'_>],
        read_as: ReadAs,
    ) {
        // The readings that succeed (a repeated `result` or `error` gives
        // readings of one kind).
        let results: Vec<&RawValue> = (replies.iter())
            .filter(|(_, error)| error.is_none())
            .filter_map(|(result, _)| *result)
            .collect();
        let Some(&result) = results.first() else {
            // A failed initialize changes nothing, but what SES-BEFORE-INIT
            // says of a later session message; the next initialize's
            // capabilities are the first the agent may act on.
            self.initializing.retain(|p| p.at != request);
            tell_units!(self, Event::InitializeFailed { request });
            if self.handshake != Handshake::Answered {
                self.handshake = Handshake::Failed { line: self.line };
            }
            return;
        };
        let request_line = request.0;
        let pending = (self.initializing.iter())
            .position(|p| p.at == request)
            .map(|index| self.initializing.remove(index));
        // What the answer advertises is known only when it is read as its
        // request's for certain, and every reading of it succeeds: units
        // read each reading, and readings that offer otherwise leave the
        // offer unknown.
        let certain = read_as == ReadAs::TheRequest && results.len() == replies.len();
        tell_units!(self, Event::InitializeAnswered {
            results: if certain { &results[..] } else { &[] },
            line: self.line,
        });
        // A second initialize: the connection stays initialized
        // whatever its answer. One whose capabilities were not kept
        // changes nothing.
        if pending.is_none() && self.handshake == Handshake::Answered {
            return;
        }
        let keys = pending.as_ref().map_or(CapabilityKeys::NONE, |p| p.keys);
        self.warn_repeat(self.first_repeat_in(result), "/result");
        let versions: Vec<_> = (results.iter())
            .map(|r| capability::read_protocol_version(Some(r)))
            .collect();
        let negotiated = versions.iter().find_map(|v| v.as_ref().ok().copied());
        tell_units!(self, Event::InitializeVersions {
            versions: &versions,
            one_reading: read_as == ReadAs::OneReading,
        });
        // Each value of a repeated `protocolVersion`, and each reading of a
        // repeated `result`, is a reading; where they negotiate different
        // versions, no one revision is this answer's.
        let results_disagree = versions
            .iter()
            .any(|v| v.as_ref().ok() != negotiated.as_ref());
        let disagree = results_disagree
            || results
                .iter()
                .any(|r| capability::protocol_versions_disagree(Some(r)));
        let reading = negotiated.filter(|_| !disagree);
        self.revision = capability::choose_revision(self.config.spec, keys, reading);
        let pointer = if results_disagree {
            "/result"
        } else {
            "/result/protocolVersion"
        };
        self.settle_unknown_revision(negotiated, disagree.then_some(pointer), Some(result));
        let (advertised, diagnostics) = cap::read_advertisement(&keys, self.revision.revision);
        let renegotiated = self.handshake == Handshake::Answered;
        self.handshake = Handshake::Answered;
        let Some(pending) = pending else {
            // What the client advertised is not known.
            self.plan_capability = cap::Advertised::Ambiguous;
            return;
        };
        // An agent may take the capabilities of the latest answered
        // initialize, or keep those of the first (or, of two in
        // flight, of the one it handled last): where they disagree,
        // it is not judged on them.
        self.plan_capability = if renegotiated && advertised != self.plan_capability {
            cap::Advertised::Ambiguous
        } else {
            advertised
        };
        // Under a given revision they were judged when the request's
        // line was read, unless that is this line.
        if self.config.spec == SpecChoice::Auto || request_line == self.line {
            for d in pending.place(diagnostics) {
                self.emit(d);
            }
        }
    }

    /// Whether the revision just chosen is a text of the version `negotiated`
    /// by the answer `result`: under `--spec auto`, a version no revision
    /// defines (or none), or readings of the answer that disagree on the
    /// version (`disagree`: where, a repeated `protocolVersion` or a
    /// repeated `result`), leave only the rules that decide alike under
    /// every revision (INIT-VERSION-UNKNOWN, said once on the connection).
    /// A revision given by `--spec` is the user's choice, and judges all.
    fn settle_unknown_revision(
        &mut self,
        negotiated: Option<u64>,
        disagree: Option<&'static str>,
        result: Option<&RawValue>,
    ) {
        let unknown = self.config.spec == SpecChoice::Auto
            && (disagree.is_some() || !capability::is_known_version(negotiated));
        if unknown && disagree.is_some() {
            self.revision.reason = "the initialize answer's readings negotiate different protocol \
                                    versions; only what every revision requires is checked"
                .to_owned();
        }
        if unknown && !self.revision_unknown_said {
            self.revision_unknown_said = true;
            let (why, pointer) = match (negotiated, disagree) {
                (_, Some(pointer)) => (
                    format!(
                        "the initialize answer can be read more than one way (the agent repeats `{}`), and \
                         its readings negotiate different protocol versions, so no one revision is the handshake's",
                        pointer.rsplit('/').next().unwrap_or_default()
                    ),
                    pointer,
                ),
                (Some(version), None) => (
                    format!("the initialize answer negotiates protocolVersion {version}, which no revision the suite knows defines"),
                    "/result/protocolVersion",
                ),
                (None, None) => (
                    "the initialize answer names no protocol version the suite can read".to_owned(),
                    if result.is_some() { "/result" } else { "" },
                ),
            };
            self.emit(init::version_unknown(&why).at(pointer));
        }
        self.revision_unknown = unknown;
    }

    /// An answer to a request the suite could not track, read as the
    /// answer of an `initialize` (see [`Validator::untracked_answer`]).
    pub(super) fn untracked_initialize_answer(
        &mut self,
        result: Option<&RawValue>,
        error: Option<&RawValue>,
    ) {
        let version = match error {
            None => capability::read_protocol_version(result).ok(),
            Some(_) => None,
        };
        let awaiting = match self.initializing.as_slice() {
            [] => None,
            // Of several, which one it answers is not known: an `At` of
            // none of them, so what the client advertised is not known.
            [one] => Some(one.at),
            _ => Some((0, 0)),
        };
        match (self.handshake, awaiting, version) {
            (_, Some(at), Some(_)) => {
                // Which request it answers is a guess: it negotiates, but
                // what it advertises is not known.
                self.initialize_answered(at, &[(result, error)], ReadAs::Guessed);
            }
            // The initialize itself may be a line not read: the revision is
            // the one its answer names, and what the client advertised is
            // not known, so no agent is judged on the capability.
            (Handshake::NotStarted | Handshake::Failed { .. }, None, Some(version))
                if self.lost_at > 0 =>
            {
                let mut choice = capability::choose_revision(
                    self.config.spec,
                    CapabilityKeys::NONE,
                    Some(version),
                );
                if self.config.spec == SpecChoice::Auto {
                    choice.reason = format!(
                        "protocolVersion {version} negotiated; the initialize request was not read (a checker limit)"
                    );
                }
                self.revision = choice;
                let disagree = capability::protocol_versions_disagree(result)
                    .then_some("/result/protocolVersion");
                self.settle_unknown_revision(Some(version), disagree, result);
                self.plan_capability = cap::Advertised::Ambiguous;
                self.handshake = Handshake::Answered;
            }
            _ => {}
        }
    }

    /// What an initialize request of the line just read needs once every
    /// reading of the line is read.
    #[cold]
    pub(super) fn initialize_read(&mut self, bytes: &[u8]) {
        let line = self.line;
        // Every reading of the line's requests with params was read: the
        // units' findings on each are placed at it, as its capabilities'.
        let mut found = Vec::new();
        for pending in (self.initializing.iter()).filter(|p| p.at.0 == line && p.params_given) {
            let read = Event::InitializeRead {
                params_given: true,
                names_version: pending.names_version,
                other_method: pending.other_method,
            };
            found.extend(pending.place(units_found!(self, read)));
        }
        for d in found {
            self.emit(d);
        }
        match self.config.spec {
            // With the revision given, the client's capabilities are judged
            // as sent, every reading of the line read: an initialize that is
            // never answered, or answered with an error, is judged too.
            SpecChoice::Fixed(revision) => {
                let found: Vec<Diagnostic> = (self.initializing.iter())
                    .filter(|p| p.at.0 == line)
                    .flat_map(|p| p.place(cap::read_advertisement(&p.keys, revision).1))
                    .collect();
                for d in found {
                    self.emit(d);
                }
            }
            // Otherwise the revision is the one its answer negotiates.
            SpecChoice::Auto => {
                for pending in self.initializing.iter_mut().filter(|p| p.at.0 == line) {
                    pending.bytes = bytes[..bytes.len().min(INITIALIZE_LINE_KEPT)].to_vec();
                }
            }
        }
    }
}
