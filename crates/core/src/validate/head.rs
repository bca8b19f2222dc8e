//! One pass over `session/update` params for the common case: `sessionId`,
//! `update.sessionUpdate`, and, when the update is about plans and starts
//! with `sessionUpdate` (as agents write it), the typed plan message read in
//! the same pass. Updates that are not about plans cost one scan.
//!
//! It reads the members and types that the validator's member-by-member read
//! (`Validator::read_update_params`) reads, and fails on anything that read
//! would remark on (a missing, `null`, repeated or mistyped `sessionId`,
//! `update` or `sessionUpdate`; params or an update that is not an object),
//! so that the exact read runs and names the fault.

use crate::rules::shape;
use crate::spec::messages::PlanMessage;
use crate::spec::Revision;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::fmt;

/// What the one pass found.
pub(super) struct Head<'a> {
    pub session: Cow<'a, str>,
    pub kind: Cow<'a, str>,
    pub plan: PlanRead,
}

/// The plan message, when the one pass read it.
pub(super) enum PlanRead {
    /// Not a plan update, or `sessionUpdate` was not its first member.
    NotRead,
    WellFormed(PlanMessage),
    /// Read, and not well-formed: the strict parser has something to say.
    Declined,
}

/// Read `params` (the text of an object) in one pass; `None` when anything
/// is amiss.
pub(super) fn read_head(params: &str, revision: Revision, max_entries: usize) -> Option<Head<'_>> {
    if !params.starts_with('{') {
        return None;
    }
    let mut deserializer = serde_json::Deserializer::from_str(params);
    let seed = ParamsSeed {
        revision,
        max_entries,
    };
    let (session, update) = seed.deserialize(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    let (kind, plan) = update?;
    Some(Head {
        session: session?,
        kind: kind?,
        plan,
    })
}

#[derive(Clone, Copy)]
struct ParamsSeed {
    revision: Revision,
    max_entries: usize,
}

/// `sessionId` and `update`, each `None` when absent or `null`.
type ParamsRead<'a> = (Option<Cow<'a, str>>, Option<UpdateRead<'a>>);

/// `sessionUpdate` (`None` when absent or `null`) and the plan message.
type UpdateRead<'a> = (Option<Cow<'a, str>>, PlanRead);

impl<'de> DeserializeSeed<'de> for ParamsSeed {
    type Value = ParamsRead<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ParamsSeed {
    type Value = ParamsRead<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("session/update params")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut session: Option<Option<Text<'de>>> = None;
        let mut update: Option<Option<UpdateRead<'de>>> = None;
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            match key.as_ref() {
                "sessionId" if session.is_some() => {
                    return Err(de::Error::duplicate_field("sessionId"))
                }
                "sessionId" => session = Some(map.next_value()?),
                "update" if update.is_some() => return Err(de::Error::duplicate_field("update")),
                "update" => update = Some(map.next_value_seed(UpdateSeed(self))?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok((session.flatten().map(|Text(s)| s), update.flatten()))
    }
}

/// The `update` member: `null`, or an object.
struct UpdateSeed(ParamsSeed);

impl<'de> DeserializeSeed<'de> for UpdateSeed {
    type Value = Option<UpdateRead<'de>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for UpdateSeed {
    type Value = Option<UpdateRead<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a session update object")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(UpdateVisitor(self.0)).map(Some)
    }
}

struct UpdateVisitor(ParamsSeed);

impl<'de> Visitor<'de> for UpdateVisitor {
    type Value = UpdateRead<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a session update object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let ParamsSeed {
            revision,
            max_entries,
        } = self.0;
        let mut kind: Option<Option<Text<'de>>> = None;
        let mut first = true;
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            if key != "sessionUpdate" {
                map.next_value::<IgnoredAny>()?;
                first = false;
                continue;
            }
            if kind.is_some() {
                return Err(de::Error::duplicate_field("sessionUpdate"));
            }
            let value = map.next_value::<Option<Text<'de>>>()?;
            if let (true, Some(Text(plan_kind))) = (first, &value) {
                if shape::PLAN_KINDS.contains(&plan_kind.as_ref()) {
                    let plan =
                        shape::parse_well_formed_rest(map, plan_kind, revision, max_entries)?;
                    let plan = plan.map_or(PlanRead::Declined, PlanRead::WellFormed);
                    return Ok((value.map(|Text(k)| k), plan));
                }
            }
            kind = Some(value);
            first = false;
        }
        Ok((kind.flatten().map(|Text(k)| k), PlanRead::NotRead))
    }
}

/// A string, borrowed from the input unless it has escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
        }
        d.deserialize_str(TextVisitor)
    }
}
