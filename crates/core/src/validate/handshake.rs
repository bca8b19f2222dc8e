//! The `initialize` handshake: requests awaiting their answers, and the
//! client's capabilities, judged once their line is read.

use super::{At, Validator};
use crate::diag::Diagnostic;
use crate::rules::{cap, env, ses, trace_format};
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
        let at = (self.line, self.element);
        if let Some(pending) = self.initializing.iter_mut().find(|p| p.at == at) {
            // Another reading of the same request (a repeated
            // member): every reading's capabilities count.
            pending.keys = pending.keys.merge(keys);
        } else {
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
            self.initializing.push(PendingInitialize {
                at,
                keys,
                base: self.element_base.clone(),
                bytes: Vec::new(),
            });
        }
    }

    /// The answer to the `initialize` read at `request`: a successful one
    /// negotiates the revision and what the client advertised.
    pub(super) fn initialize_answered(
        &mut self,
        request: At,
        result: Option<&RawValue>,
        error: Option<&RawValue>,
        read_as: ReadAs,
    ) {
        if result.is_none() || error.is_some() {
            // A failed initialize changes nothing, but what SES-BEFORE-INIT
            // says of a later session message.
            self.initializing.retain(|p| p.at != request);
            if self.handshake != Handshake::Answered {
                self.handshake = Handshake::Failed { line: self.line };
            }
            return;
        }
        let request_line = request.0;
        let pending = (self.initializing.iter())
            .position(|p| p.at == request)
            .map(|index| self.initializing.remove(index));
        // An agent that answers two initializes differently, or an answer
        // read as one of several requests, leaves loadSession unknown.
        let offer = match (read_as, result) {
            (ReadAs::TheRequest, Some(result)) => ses::session_offers(result),
            _ => ses::Offers::UNKNOWN,
        };
        self.load_offer = if self.handshake == Handshake::Answered && offer != self.load_offer.0 {
            (ses::Offers::UNKNOWN, self.line)
        } else {
            (offer, self.line)
        };
        // A second initialize: the connection stays initialized
        // whatever its answer. One whose capabilities were not kept
        // changes nothing.
        if pending.is_none() && self.handshake == Handshake::Answered {
            return;
        }
        let keys = pending.as_ref().map_or(CapabilityKeys::NONE, |p| p.keys);
        self.warn_repeat(result.and_then(|r| self.first_repeat_in(r)), "/result");
        let negotiated = match capability::read_protocol_version(result) {
            Ok(version) => Some(version),
            Err(fault) => {
                if read_as == ReadAs::TheRequest {
                    self.emit(ses::no_protocol_version(fault));
                }
                None
            }
        };
        self.revision = capability::choose_revision(self.config.spec, keys, negotiated);
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
                self.initialize_answered(at, result, error, ReadAs::TheRequest);
                // Which request it answers is a guess.
                self.load_offer.0 = ses::Offers::UNKNOWN;
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
