//! `CAP-*`: plan messages the client's capabilities or revision rule out.

use super::{KeyedOp, Kind};
use crate::catalog::Rule;
use crate::gen::legal::Legalizer;
use crate::gen::render::{Renderer, Tweaks};
use crate::gen::{session_name, Entry, Meta, PlanOp, SessionRef};
use crate::rules::plan_operations;

/// `CAP-PLAN-OPS`: a keyed plan message although the client did not
/// advertise the capability (draft and v1 only; the legalized trace falls
/// back to the legacy `plan` elsewhere, as the spec requires).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PlanOpWithoutCapability {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// The keyed message sent.
    pub op: KeyedOp,
}

impl Kind for PlanOpWithoutCapability {
    fn rule(&self) -> &'static Rule {
        &plan_operations::PLAN_OPERATIONS
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        if !legal.capability_missing() {
            return None;
        }
        Some(PlanOpWithoutCapability {
            session: legal.resolve(self.session)?,
            op: self.op.legalize(legal),
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let update = renderer.plan_op(&self.op.plan_op(), &Tweaks::default());
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == plan_operations::PLAN_OPERATIONS.id).then(|| PlanOpWithoutCapability {
            session: 0,
            op: KeyedOp::placeholder(),
        })
    }
}

/// `CAP-LEGACY-V2`: a legacy `plan` under v2.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct LegacyInV2 {
    /// The session the update is sent on.
    pub session: SessionRef,
    /// The entries of the legacy `plan`.
    pub entries: Vec<Entry>,
}

impl Kind for LegacyInV2 {
    fn rule(&self) -> &'static Rule {
        &plan_operations::LEGACY_IN_V2
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        if legal.legacy_allowed() {
            return None;
        }
        Some(LegacyInV2 {
            session: legal.resolve(self.session)?,
            entries: legal.entries(self.entries),
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let op = PlanOp::Legacy {
            entries: self.entries.clone(),
            meta: Meta::Absent,
        };
        let update = renderer.plan_op(&op, &Tweaks::default());
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == plan_operations::LEGACY_IN_V2.id).then(|| LegacyInV2 {
            session: 0,
            entries: Vec::new(),
        })
    }
}
