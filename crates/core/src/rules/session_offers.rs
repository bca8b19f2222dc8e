//! SES-LOAD-NOT-ADVERTISED, SES-RESUME-NOT-ADVERTISED, SES-LOAD-V2: the
//! client calls only the session methods the agent's `initialize` answer
//! offers, and only those of the protocol version agreed on. A unit
//! ([`super::unit`]): it keeps what the last answer advertised and where,
//! and judges each client call against it.

use super::unit::{agreed, Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, Rule};
use crate::diag::Diagnostic;
use crate::spec::Revision;
use serde_json::value::RawValue;

pub(crate) const LOAD_NOT_ADVERTISED: Rule = Rule {
    id: "SES-LOAD-NOT-ADVERTISED",
    level: Level::Must,
    basis: Basis::Text,
    // v2 has no `session/load` (and no `loadSession`).
    revisions: &[Revision::Draft202605, Revision::V1Schema117, Revision::V1],
    summary: "No `session/load` when the agent's initialize answer did not advertise `agentCapabilities.loadSession: true`",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Loading Sessions",
        text: "If loadSession is false or not present, the Agent does not support loading sessions and Clients MUST NOT attempt to call session/load.",
        note: "Judged only when every reading of the answer says so: not when `loadSession` or `agentCapabilities` repeats with values that disagree, is not a boolean (or not an object), when the initialize answer was not read or not paired for certain, when initialize answers disagree, or when a line since the answer went unread.",
    },
    revision_citations: &[],
};


pub(crate) const RESUME_NOT_ADVERTISED: Rule = Rule {
    id: "SES-RESUME-NOT-ADVERTISED",
    level: Level::Must,
    basis: Basis::Text,
    // v2 makes session/resume a baseline method ("Required (no capability marker)").
    revisions: &[Revision::Draft202605, Revision::V1Schema117, Revision::V1],
    summary: "No `session/resume` when the agent's initialize answer did not advertise `agentCapabilities.sessionCapabilities.resume`",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Resuming Sessions",
        text: "If sessionCapabilities.resume is not present, the Agent does not support resuming sessions and Clients MUST NOT attempt to call session/resume.",
        note: "`null` counts as not present (the schema: \"Omitted or `null` both mean the agent does not advertise support\"). Judged only when every reading of the answer says so, as SES-LOAD-NOT-ADVERTISED is: not when a member repeats with values that disagree or is not of its type, when the initialize answer was not read or not paired for certain, when initialize answers disagree, or when a line since the answer went unread.",
    },
    revision_citations: &[],
};


pub(crate) const LOAD_IN_V2: Rule = Rule {
    id: "SES-LOAD-V2",
    level: Level::Must,
    basis: Basis::Text,
    revisions: crate::catalog::V2_ONLY,
    summary: "No `session/load` under protocol v2 (use `session/resume` with `replayFrom`)",
    citation: Citation {
        document: docs::INITIALIZATION_V2,
        section: "Protocol version",
        text: "Clients and Agents MUST agree on a protocol version and act according to its specification.",
        note: "v2 has no session/load (\"Migrating to v2\": session/load is \"Removed. Use session/resume with \"replayFrom\": { \"type\": \"start\" }\"), so a client that calls it under protocol v2 acts by another version's specification. Judged only when the revision is v2 for certain (an initialize was answered and no line went unread since the answer, with or without --spec) and every reading of the line's `method` is session/load. The agent that answers it, or replays for it, is not judged on that.",
    },
    revision_citations: &[],
};

/// What an agent's initialize answer says it supports, read over every
/// reading of its repeated members.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Offer {
    /// Every reading advertises it.
    Offered,
    /// Every reading leaves it out or sets it to `false`.
    NotOffered,
    /// The readings disagree, a value is not of its type, or no answer
    /// was read for certain: no client is judged on it.
    #[default]
    Unknown,
}

/// What an agent's initialize answer advertises of the session methods a
/// client may only call when offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Offers {
    /// `agentCapabilities.loadSession`.
    pub(crate) load: Offer,
    /// `agentCapabilities.sessionCapabilities.resume`.
    pub(crate) resume: Offer,
}

impl Offers {
    /// No answer read for certain: no client is judged.
    pub(crate) const UNKNOWN: Offers = Offers {
        load: Offer::Unknown,
        resume: Offer::Unknown,
    };
}

impl Default for Offers {
    fn default() -> Self {
        Offers::UNKNOWN
    }
}


/// What a successful initialize `result` advertises, over every reading of
/// its repeated members.
fn session_offers(result: &RawValue) -> Offers {
    Offers {
        load: capability_offer(
            result,
            &["agentCapabilities"],
            "loadSession",
            |value| match value {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
        ),
        // "Omitted or `null` both mean the agent does not advertise
        // support. Supplying `{}` means the agent supports resuming."
        resume: capability_offer(
            result,
            &["agentCapabilities", "sessionCapabilities"],
            "resume",
            object_or_null,
        ),
    }
}

/// A session capability's value: `{}` (any object) advertises it, `null`
/// does not; anything else is not of its type.
pub(crate) fn object_or_null(value: &str) -> Option<bool> {
    match value.as_bytes().first() {
        Some(b'{') => Some(true),
        _ if value == "null" => Some(false),
        _ => None,
    }
}

/// Whether `result` advertises the capability `leaf` under the objects
/// `path`: an object on the path left out or `null` (below the result)
/// leaves it out; `offered` reads the leaf's value (`None`: not of its
/// type). Every value of a repeated member is a reading; readings that
/// disagree, or any value not of its type, are [`Offer::Unknown`].
pub(crate) fn capability_offer(
    result: &RawValue,
    path: &[&str],
    leaf: &str,
    offered: fn(&str) -> Option<bool>,
) -> Offer {
    let (mut yes, mut no) = (false, false);
    let mut objects = vec![result];
    for name in path.iter().copied().chain(std::iter::once(leaf)) {
        let mut next = Vec::new();
        for object in objects {
            if !object.get().trim_start().starts_with('{') {
                return Offer::Unknown;
            }
            let values = crate::trace::members_named(object.get(), name);
            no |= values.is_empty();
            for value in values {
                let text = value.get().trim();
                if name == leaf {
                    match offered(text) {
                        Some(true) => yes = true,
                        Some(false) => no = true,
                        None => return Offer::Unknown,
                    }
                } else if text == "null" && name != "agentCapabilities" {
                    no = true;
                } else {
                    next.push(value);
                }
            }
        }
        objects = next;
    }
    match (yes, no) {
        (true, false) => Offer::Offered,
        (false, true) => Offer::NotOffered,
        _ => Offer::Unknown,
    }
}

/// A client's `session/load` after an initialize answer (on `answer_line`)
/// that did not advertise `loadSession`.
fn load_not_advertised(answer_line: u64) -> Diagnostic {
    Diagnostic::new(
        &LOAD_NOT_ADVERTISED,
        format!(
            "session/load, but the agent's initialize answer on line {answer_line} did not advertise `agentCapabilities.loadSession: true`"
        ),
    )
    .at("/method")
    .hint("call session/load only when the agent advertises loadSession; otherwise start a session with session/new")
}

/// A client's `session/load` under protocol v2, which removed it.
fn load_in_v2() -> Diagnostic {
    Diagnostic::new(
        &LOAD_IN_V2,
        "session/load under protocol v2, which removed it",
    )
    .at("/method")
    .hint("call session/resume with \"replayFrom\": {\"type\": \"start\"} to replay a session under v2")
}

/// A client's `session/resume` after an initialize answer (on
/// `answer_line`) that did not advertise `sessionCapabilities.resume`.
fn resume_not_advertised(answer_line: u64) -> Diagnostic {
    Diagnostic::new(
        &RESUME_NOT_ADVERTISED,
        format!(
            "session/resume, but the agent's initialize answer on line {answer_line} did not advertise `agentCapabilities.sessionCapabilities.resume`"
        ),
    )
    .at("/method")
    .hint("call session/resume only when the agent advertises sessionCapabilities.resume; otherwise start a session with session/new")
}


/// What the last `initialize` answer advertised (`T`: one capability's
/// [`Offer`], or several), and the line it was read on. Until an answer is
/// read, nothing is known and no client call is judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AnswerOffer<T> {
    pub(crate) offer: T,
    pub(crate) answer_line: u64,
}

impl<T: Copy + Default + PartialEq> AnswerOffer<T> {
    /// An `initialize` answer on `line` advertises `offer` (`T::default()`,
    /// unknown, when the answer is not read for certain). An agent that
    /// answers two initializes differently leaves it unknown: the client may
    /// act on either.
    pub(crate) fn answered(&mut self, offer: T, facts: &Facts, line: u64) {
        self.offer = if facts.initialized && offer != self.offer {
            T::default()
        } else {
            offer
        };
        self.answer_line = line;
    }

    /// Whether a rule on which methods the client may call judges a call:
    /// an initialize was answered, no line since that answer went unread
    /// or unpaired (it may have been another initialize's answer), and
    /// every reading of the line calls the same method.
    pub(crate) fn judges(&self, facts: &Facts, readings_agree: bool) -> bool {
        facts.initialized && facts.unknown_since() < self.answer_line && readings_agree
    }
}

/// The unit of SES-LOAD-NOT-ADVERTISED, SES-RESUME-NOT-ADVERTISED and
/// SES-LOAD-V2.
#[derive(Debug, Default)]
pub(crate) struct SessionOffers {
    /// `loadSession` and `sessionCapabilities.resume`, judged together: an
    /// answer that differs from the last in either leaves both unknown.
    offers: AnswerOffer<Offers>,
}

impl Unit for SessionOffers {
    const RULES: &'static [&'static Rule] =
        &[&LOAD_NOT_ADVERTISED, &RESUME_NOT_ADVERTISED, &LOAD_IN_V2];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::InitializeAnswered { results, line } => {
                let offers = agreed(results, session_offers);
                self.offers.answered(offers, facts, line);
            }
            Event::ClientCall {
                method,
                every_method,
            } => {
                if !self.offers.judges(facts, every_method.is_empty()) {
                    return;
                }
                let revision = facts.revision;
                let (offers, answer_line) = (self.offers.offer, self.offers.answer_line);
                match method {
                    "session/load" => {
                        if offers.load == Offer::NotOffered
                            && applies(&LOAD_NOT_ADVERTISED, revision)
                        {
                            out.say(load_not_advertised(answer_line));
                        }
                        // The rule rests on the version the two sides agreed
                        // on, so it too waits for an answered initialize with
                        // no line unread since (it may have been another
                        // answer, of another version), even under --spec.
                        if applies(&LOAD_IN_V2, revision) {
                            out.say(load_in_v2());
                        }
                    }
                    "session/resume"
                        if offers.resume == Offer::NotOffered
                            && applies(&RESUME_NOT_ADVERTISED, revision) =>
                    {
                        out.say(resume_not_advertised(answer_line));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// Whether `rule` is one of `revision`'s.
pub(crate) fn applies(rule: &Rule, revision: Revision) -> bool {
    rule.revisions.contains(&revision)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The facts of a connection under `revision`, initialized or not, with
    /// nothing lost.
    pub(crate) fn facts(revision: Revision, initialized: bool) -> Facts {
        Facts {
            revision,
            initialized,
            initialize_failed_at: None,
            lost_at: 0,
            garbled_at: 0,
            request_limit: 100,
            state_limit: 1 << 20,
            plan_capability: crate::rules::cap::Advertised::No,
        }
    }

    pub(crate) fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).expect("JSON")
    }

    /// The rule ids `unit` says on `events` (each told with its facts).
    pub(crate) fn said<U: Unit>(unit: &mut U, events: &[(Event<'_>, Facts)]) -> Vec<&'static str> {
        let mut out = Emit::default();
        for (event, facts) in events {
            unit.on(event, facts, &mut out);
        }
        out.take().iter().map(|d| d.rule.id).collect()
    }

    fn call(method: &str) -> Event<'_> {
        Event::ClientCall {
            method,
            every_method: &[],
        }
    }

    #[test]
    fn a_load_the_answer_left_out_is_the_clients_breach_in_v1_only() {
        let answer = raw(r#"{"protocolVersion":1,"agentCapabilities":{"loadSession":false}}"#);
        let answer = [&*answer];
        let answered = Event::InitializeAnswered {
            results: &answer,
            line: 2,
        };
        let mut unit = SessionOffers::default();
        let v1 = [
            (answered, facts(Revision::V1, false)),
            (call("session/load"), facts(Revision::V1, true)),
            (call("session/resume"), facts(Revision::V1, true)),
        ];
        assert_eq!(
            said(&mut unit, &v1),
            ["SES-LOAD-NOT-ADVERTISED", "SES-RESUME-NOT-ADVERTISED"]
        );
        // v2 has no session/load at all, and resume is a baseline method.
        let mut unit = SessionOffers::default();
        let v2 = [
            (answered, facts(Revision::V2, false)),
            (call("session/load"), facts(Revision::V2, true)),
            (call("session/resume"), facts(Revision::V2, true)),
        ];
        assert_eq!(said(&mut unit, &v2), ["SES-LOAD-V2"]);
    }

    #[test]
    fn an_advertised_load_is_allowed() {
        let answer = raw(
            r#"{"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}}}}"#,
        );
        let answer = [&*answer];
        let mut unit = SessionOffers::default();
        let events = [
            (
                Event::InitializeAnswered {
                    results: &answer,
                    line: 2,
                },
                facts(Revision::V1, false),
            ),
            (call("session/load"), facts(Revision::V1, true)),
            (call("session/resume"), facts(Revision::V1, true)),
        ];
        assert!(said(&mut unit, &events).is_empty());
    }

    #[test]
    fn nothing_is_judged_without_a_certain_answer_or_when_readings_differ() {
        let answer = raw(r#"{"agentCapabilities":{}}"#);
        let answer = [&*answer];
        let answered = Event::InitializeAnswered {
            results: &answer,
            line: 2,
        };
        let initialized = facts(Revision::V1, true);
        // No answer yet.
        assert!(said(&mut SessionOffers::default(), &[(call("session/load"), initialized)]).is_empty());
        // An answer read as one of several requests' says nothing.
        let uncertain = Event::InitializeAnswered {
            results: &[],
            line: 2,
        };
        let events = [(uncertain, facts(Revision::V1, false)), (call("session/load"), initialized)];
        assert!(said(&mut SessionOffers::default(), &events).is_empty());
        // A line since the answer went unread: it may have been another answer.
        let lost = Facts {
            lost_at: 3,
            ..initialized
        };
        let events = [(answered, facts(Revision::V1, false)), (call("session/load"), lost)];
        assert!(said(&mut SessionOffers::default(), &events).is_empty());
        // A line unread before the answer does not count.
        let lost_before = Facts {
            garbled_at: 1,
            ..initialized
        };
        let events = [(answered, facts(Revision::V1, false)), (call("session/load"), lost_before)];
        assert_eq!(
            said(&mut SessionOffers::default(), &events),
            ["SES-LOAD-NOT-ADVERTISED"]
        );
        // Another reading of the line calls another method.
        let methods = ["session/load".to_owned(), "session/new".to_owned()];
        let split = Event::ClientCall {
            method: "session/load",
            every_method: &methods,
        };
        let events = [(answered, facts(Revision::V1, false)), (split, initialized)];
        assert!(said(&mut SessionOffers::default(), &events).is_empty());
    }

    #[test]
    fn two_answers_that_disagree_leave_the_offer_unknown() {
        let without = raw(r#"{"agentCapabilities":{"loadSession":false}}"#);
        let without = [&*without];
        let with = raw(r#"{"agentCapabilities":{"loadSession":true}}"#);
        let with = [&*with];
        let events = [
            (
                Event::InitializeAnswered {
                    results: &without,
                    line: 2,
                },
                facts(Revision::V1, false),
            ),
            (
                Event::InitializeAnswered {
                    results: &with,
                    line: 4,
                },
                facts(Revision::V1, true),
            ),
            (call("session/load"), facts(Revision::V1, true)),
        ];
        assert!(said(&mut SessionOffers::default(), &events).is_empty());
        // Two that agree keep it, and the later answer's line is cited.
        let mut unit = SessionOffers::default();
        let mut out = Emit::default();
        for line in [2, 4] {
            let answered = Event::InitializeAnswered {
                results: &without,
                line,
            };
            unit.on(&answered, &facts(Revision::V1, line > 2), &mut out);
        }
        unit.on(&call("session/load"), &facts(Revision::V1, true), &mut out);
        let found = out.take();
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains("line 4"), "{}", found[0].message);
    }

    #[test]
    fn offers_are_read_over_every_reading_of_the_answer() {
        let read = |text: &str| session_offers(&raw(text));
        assert_eq!(read(r#"{"agentCapabilities":{"loadSession":true}}"#).load, Offer::Offered);
        assert_eq!(read(r#"{}"#).load, Offer::NotOffered);
        assert_eq!(
            read(r#"{"agentCapabilities":{"loadSession":true,"loadSession":false}}"#).load,
            Offer::Unknown
        );
        assert_eq!(read(r#"{"agentCapabilities":{"loadSession":1}}"#).load, Offer::Unknown);
        assert_eq!(read(r#"{"agentCapabilities":null}"#).load, Offer::Unknown);
        let resume = |text: &str| read(text).resume;
        assert_eq!(
            resume(r#"{"agentCapabilities":{"sessionCapabilities":{"resume":{}}}}"#),
            Offer::Offered
        );
        assert_eq!(
            resume(r#"{"agentCapabilities":{"sessionCapabilities":null}}"#),
            Offer::NotOffered
        );
        assert_eq!(
            resume(r#"{"agentCapabilities":{"sessionCapabilities":{"resume":true}}}"#),
            Offer::Unknown
        );
    }
}
