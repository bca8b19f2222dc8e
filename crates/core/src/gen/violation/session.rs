//! `SES-*` and `ID-*`: messages about sessions and plans that do not exist.

use super::Kind;
use crate::catalog::Rule;
use crate::gen::legal::Legalizer;
use crate::gen::render::{Renderer, Tweaks};
use crate::gen::{session_name, Meta, OtherUpdate, PlanOp, PlanRef, SessionRef, SessionUpdate};
use crate::rules::{id, unknown_session};

/// `SES-UNKNOWN-SESSION`: an update for `ghost-N`, never established.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UnknownSession {
    /// `N` of the unknown session's id, `ghost-N`.
    pub ghost: u8,
    /// The update sent.
    pub update: SessionUpdate,
}

impl Kind for UnknownSession {
    fn rule(&self) -> &'static Rule {
        &unknown_session::UNKNOWN_SESSION
    }

    fn session(&self) -> Option<SessionRef> {
        None
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        // Not applied (the session is unknown), so only its form matters.
        let update = match self.update {
            SessionUpdate::Plan(op) => SessionUpdate::Plan(legal.plan_op_form(op)?),
            other => other,
        };
        Some(UnknownSession {
            ghost: self.ghost,
            update,
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let update = renderer.session_update(&self.update);
        renderer.push_update(out, &format!("ghost-{}", self.ghost), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == unknown_session::UNKNOWN_SESSION.id).then(|| UnknownSession {
            ghost: 0,
            update: SessionUpdate::Other(OtherUpdate::AgentMessageChunk {
                text: "lost".into(),
            }),
        })
    }
}

/// `ID-REMOVE-UNKNOWN` (a warning): `plan_removed` for a plan that is not
/// live in the session (never created, or already removed).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RemoveNotLive {
    /// The session the removal is sent on.
    pub session: SessionRef,
    /// The plan removed, which is not live there.
    pub plan: PlanRef,
}

impl Kind for RemoveNotLive {
    fn rule(&self) -> &'static Rule {
        &id::REMOVE_UNKNOWN
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        if !legal.keyed_allowed() {
            return None;
        }
        let session = legal.resolve(self.session)?;
        // The first plan id from `plan` on that is not live.
        let plan = (0..=u8::MAX)
            .map(|k| self.plan.wrapping_add(k))
            .find(|p| legal.is_live(session, *p) == Some(false))?;
        Some(RemoveNotLive { session, plan })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let op = PlanOp::Remove {
            plan: self.plan,
            meta: Meta::Absent,
        };
        let update = renderer.plan_op(&op, &Tweaks::default());
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == id::REMOVE_UNKNOWN.id).then_some(RemoveNotLive {
            session: 0,
            plan: 0,
        })
    }
}
