//! A diagnostic: one broken (or noteworthy) rule at one place of a trace.

use crate::catalog::{Citation, Rule, Severity};
use crate::spec::Revision;
use crate::text::shorten;

/// Longest session or plan id kept in a diagnostic; hostile ids can be huge.
const MAX_ID_CHARS: usize = 120;

/// One finding: a rule broken (or a limit hit) at a place in a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule the finding is about.
    pub rule: &'static Rule,
    /// 1-based line of the trace (or transcript) the message is on.
    pub line: u64,
    /// JSON pointer into the JSON-RPC message ("" is the whole message).
    pub pointer: String,
    /// The session the message belongs to, if any.
    pub session: Option<String>,
    /// The plan id the finding is about, if any.
    pub plan: Option<String>,
    /// What was found, for people.
    pub message: String,
    /// How to fix it, if the suite knows.
    pub hint: Option<String>,
    /// The offending line, shortened around the pointer, for human output.
    pub snippet: Option<String>,
    /// The revision the message was checked under: its document's words are
    /// the ones cited. `None` (plans of tool calls) cites the rule's general text.
    pub revision: Option<Revision>,
}

impl Diagnostic {
    /// Whether two diagnostics report the same thing at the same place (a
    /// message checked under several readings finds most things in each).
    pub fn same_finding(&self, other: &Diagnostic) -> bool {
        self.rule.id == other.rule.id
            && self.pointer == other.pointer
            && self.message == other.message
            && self.session == other.session
            && self.plan == other.plan
    }

    /// Cold, as are the builders below and `Validator::emit`: a conformant
    /// trace draws few diagnostics, and code that builds one, inlined into
    /// the paths every line takes, spread those paths over more of the
    /// instruction cache (bench/README.md, "Diagnostics out of the hot
    /// paths").
    #[cold]
    pub fn new(rule: &'static Rule, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            line: 0,
            pointer: String::new(),
            session: None,
            plan: None,
            message: message.into(),
            hint: None,
            snippet: None,
            revision: None,
        }
    }

    /// The citation in the words of the revision the message was checked under.
    pub fn citation(&self) -> &'static Citation {
        match self.revision {
            Some(revision) => self.rule.citation_for(revision),
            None => &self.rule.citation,
        }
    }

    /// Sets the JSON pointer of the offending member.
    #[cold]
    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = pointer.into();
        self
    }

    /// Adds a hint on how to fix it.
    #[cold]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Names the plan the finding is about.
    #[cold]
    pub fn plan(mut self, plan: &str) -> Self {
        self.set_plan(plan);
        self
    }

    /// Names the plan the finding is about, in place.
    pub fn set_plan(&mut self, plan: &str) {
        self.plan = Some(shorten(plan, MAX_ID_CHARS));
    }

    /// Names the session the message belongs to.
    #[cold]
    pub fn session(mut self, session: &str) -> Self {
        self.set_session(session);
        self
    }

    /// Names the session the message belongs to, in place.
    pub fn set_session(&mut self, session: &str) {
        self.session = Some(shorten(session, MAX_ID_CHARS));
    }

    /// The severity of the rule broken.
    pub fn severity(&self) -> Severity {
        self.rule.severity()
    }

    /// Where in the message, and which session and plan: "at /p, session s, plan p".
    pub fn context(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.pointer.is_empty() {
            parts.push(format!("at {}", self.pointer));
        }
        if let Some(session) = &self.session {
            parts.push(format!("session {session}"));
        }
        if let Some(plan) = &self.plan {
            parts.push(format!("plan {plan}"));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Cut the message and hint to [`MAX_TEXT_CHARS`]: a safety net for
    /// checkers whose messages quote input (paths, names) in many places.
    pub fn bound_texts(&mut self) {
        if self.message.chars().nth(MAX_TEXT_CHARS).is_some() {
            self.message = shorten(&self.message, MAX_TEXT_CHARS);
        }
        if let Some(hint) = &mut self.hint {
            if hint.chars().nth(MAX_TEXT_CHARS).is_some() {
                *hint = shorten(hint, MAX_TEXT_CHARS);
            }
        }
    }
}

/// Longest message or hint [`Diagnostic::bound_texts`] leaves.
pub const MAX_TEXT_CHARS: usize = 600;
