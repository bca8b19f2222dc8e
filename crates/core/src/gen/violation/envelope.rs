//! `TRACE-RECORD` and `ENV-*`: broken records and JSON-RPC envelopes.

use super::Kind;
use crate::catalog::Rule;
use crate::gen::legal::Legalizer;
use crate::gen::render::{notification, other_update, response, Renderer};
use crate::gen::{session_name, OtherUpdate, SessionRef};
use crate::jsonrpc::Direction;
use crate::rules::{env, trace_format};
use serde_json::json;

/// `TRACE-RECORD`: a broken envelope.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BrokenEnvelope {
    /// What is wrong with the envelope.
    pub fault: EnvelopeFault,
}

/// The ways [`BrokenEnvelope`] breaks an envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum EnvelopeFault {
    /// `"direction": "sideways"`
    BadDirection,
    /// No `message`.
    MissingMessage,
    /// `"message": "{...}"` (the message encoded twice)
    MessageNotObject,
    /// JSON-RPC members next to `direction` and `message`.
    MixedMembers,
}

impl Kind for BrokenEnvelope {
    fn rule(&self) -> &'static Rule {
        &trace_format::RECORD
    }

    fn session(&self) -> Option<SessionRef> {
        None
    }

    fn legalize(self, _: &mut Legalizer) -> Option<Self> {
        Some(self)
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let message = notification("_acme/status", json!({"status": "broken envelope"}));
        let direction = Direction::AgentToClient.as_str();
        let line = match self.fault {
            EnvelopeFault::BadDirection => json!({"direction": "sideways", "message": message}),
            EnvelopeFault::MissingMessage => json!({"direction": direction}),
            // A message encoded twice (an array would be a batch).
            EnvelopeFault::MessageNotObject => {
                json!({"direction": direction, "message": message.to_string()})
            }
            EnvelopeFault::MixedMembers => {
                json!({"direction": direction, "jsonrpc": "2.0", "message": message})
            }
        };
        renderer.push_record(out, line.to_string());
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == trace_format::RECORD.id).then_some(BrokenEnvelope {
            fault: EnvelopeFault::BadDirection,
        })
    }
}

/// `ENV-JSON`: a message cut short (at `cut` modulo its length, never at 0).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TruncatedJson {
    /// Where the message is cut (modulo its length).
    pub cut: u16,
}

impl Kind for TruncatedJson {
    fn rule(&self) -> &'static Rule {
        &env::JSON
    }

    fn session(&self) -> Option<SessionRef> {
        None
    }

    fn legalize(self, _: &mut Legalizer) -> Option<Self> {
        Some(self)
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let chunk = other_update(
            &OtherUpdate::AgentMessageChunk {
                text: "this line is cut short".into(),
            },
            0,
        );
        let params = json!({"sessionId": session_name(0), "update": chunk});
        let full = notification("session/update", params);
        let mut line = renderer.framed(Direction::AgentToClient, full);
        // ASCII only, so any cut is on a character boundary; never at 0 (a
        // blank line is skipped) nor at the end.
        let at = 1 + usize::from(self.cut) % (line.len() - 1);
        line.truncate(at);
        renderer.push_record(out, line);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == env::JSON.id).then_some(TruncatedJson { cut: 17 })
    }
}

/// `ENV-VERSION`: an `agent_message_chunk` with a bad `jsonrpc`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct WrongJsonRpcVersion {
    /// The session of the `agent_message_chunk`.
    pub session: SessionRef,
    /// What is wrong with `jsonrpc`.
    pub fault: VersionFault,
}

/// The ways [`WrongJsonRpcVersion`] gets `jsonrpc` wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum VersionFault {
    /// No `jsonrpc` member.
    Missing,
    /// `"1.0"`
    OldVersion,
    /// `2.0` as a number.
    Number,
}

impl Kind for WrongJsonRpcVersion {
    fn rule(&self) -> &'static Rule {
        &env::VERSION
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        Some(WrongJsonRpcVersion {
            session: legal.resolve(self.session)?,
            fault: self.fault,
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let chunk = other_update(
            &OtherUpdate::AgentMessageChunk {
                text: "old protocol".into(),
            },
            0,
        );
        let mut message = match self.fault {
            VersionFault::Missing => json!({}),
            VersionFault::OldVersion => json!({"jsonrpc": "1.0"}),
            VersionFault::Number => json!({"jsonrpc": 2.0}),
        };
        message["method"] = "session/update".into();
        message["params"] = json!({"sessionId": session_name(self.session), "update": chunk});
        renderer.push(out, Direction::AgentToClient, message);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == env::VERSION.id).then_some(WrongJsonRpcVersion {
            session: 0,
            fault: VersionFault::OldVersion,
        })
    }
}

/// `ENV-UNKNOWN-RESPONSE`: a response to a request id nobody sent.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UnknownResponse {
    /// Sent by the agent (else by the client).
    pub from_agent: bool,
    /// `N` of its id, `stray-N`.
    pub stray: u8,
}

impl Kind for UnknownResponse {
    fn rule(&self) -> &'static Rule {
        &env::UNKNOWN_RESPONSE
    }

    fn session(&self) -> Option<SessionRef> {
        None
    }

    fn legalize(self, _: &mut Legalizer) -> Option<Self> {
        Some(self)
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let direction = if self.from_agent {
            Direction::AgentToClient
        } else {
            Direction::ClientToAgent
        };
        let id = format!("stray-{}", self.stray).into();
        renderer.push(out, direction, response(&id, json!({})));
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == env::UNKNOWN_RESPONSE.id).then_some(UnknownResponse {
            from_agent: true,
            stray: 0,
        })
    }
}
