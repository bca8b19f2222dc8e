//! Reading the client's plan capability keys and the negotiated version
//! from the `initialize` exchange, and choosing the revision.

use super::{Revision, RevisionChoice, SpecChoice};
use crate::trace::last_member;
use serde_json::value::RawValue;

/// What a capability key held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyValue {
    Absent,
    Null,
    Object,
    /// Present with another JSON type (named for messages).
    Other(&'static str),
}

impl KeyValue {
    fn of(raw: Option<&RawValue>) -> KeyValue {
        match raw.map(|r| r.get().as_bytes().first().copied()) {
            None => KeyValue::Absent,
            Some(Some(b'{')) => KeyValue::Object,
            Some(Some(b'n')) => KeyValue::Null,
            Some(Some(b't' | b'f')) => KeyValue::Other("a boolean"),
            Some(Some(b'"')) => KeyValue::Other("a string"),
            Some(Some(b'[')) => KeyValue::Other("an array"),
            Some(_) => KeyValue::Other("a number"),
        }
    }

    /// Present and not `null`.
    pub fn is_present(self) -> bool {
        !matches!(self, KeyValue::Absent | KeyValue::Null)
    }
}

/// The plan capability keys the client sent in `initialize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapabilityKeys {
    /// `clientCapabilities.plan` (v1 spelling).
    pub plan: KeyValue,
    /// `clientCapabilities.planCapabilities` (draft spelling).
    pub plan_capabilities: KeyValue,
    /// The `_meta` of each capability object, when it is neither an
    /// object nor null: (`plan`, `planCapabilities`).
    pub odd_meta: (Option<&'static str>, Option<&'static str>),
}

impl CapabilityKeys {
    pub const NONE: CapabilityKeys = CapabilityKeys {
        plan: KeyValue::Absent,
        plan_capabilities: KeyValue::Absent,
        odd_meta: (None, None),
    };

    /// The JSON type of the capability object's `_meta` under `key`, when
    /// it is neither an object nor null.
    pub fn odd_meta(&self, key: &str) -> Option<&'static str> {
        match key {
            "plan" => self.odd_meta.0,
            "planCapabilities" => self.odd_meta.1,
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> KeyValue {
        match key {
            "plan" => self.plan,
            "planCapabilities" => self.plan_capabilities,
            _ => KeyValue::Absent,
        }
    }
}

/// Read the plan capability keys from `initialize` params. Params that do
/// not have the expected shape advertise nothing; a repeated member name
/// counts with its last value (the validator warns about the repeat).
pub fn read_capability_keys(params: Option<&RawValue>) -> CapabilityKeys {
    let Some(capabilities) = params.and_then(|p| last_member(p.get(), "clientCapabilities")) else {
        return CapabilityKeys::NONE;
    };
    let member = |name: &str| match capabilities.get().as_bytes().first() {
        Some(b'{') => last_member(capabilities.get(), name),
        _ => None,
    };
    let odd_meta = |name: &str| {
        let meta = member(name)
            .filter(|value| value.get().starts_with('{'))
            .and_then(|object| last_member(object.get(), "_meta"));
        match KeyValue::of(meta) {
            KeyValue::Other(kind) => Some(kind),
            KeyValue::Absent | KeyValue::Null | KeyValue::Object => None,
        }
    };
    CapabilityKeys {
        plan: KeyValue::of(member("plan")),
        plan_capabilities: KeyValue::of(member("planCapabilities")),
        odd_meta: (odd_meta("plan"), odd_meta("planCapabilities")),
    }
}

/// The `protocolVersion` of an `initialize` result, if it is an integer.
pub fn read_protocol_version(result: Option<&RawValue>) -> Option<u64> {
    let version = last_member(result?.get(), "protocolVersion")?;
    serde_json::from_str::<serde_json::Value>(version.get())
        .ok()?
        .as_u64()
}

/// Choose the revision once the handshake is known.
pub fn choose_revision(
    spec: SpecChoice,
    keys: CapabilityKeys,
    negotiated: Option<u64>,
) -> RevisionChoice {
    if let SpecChoice::Fixed(revision) = spec {
        return RevisionChoice {
            revision,
            reason: format!("--spec {revision}"),
        };
    }
    let version = match negotiated {
        Some(v) => format!("protocolVersion {v}"),
        None => "no integer protocolVersion".to_owned(),
    };
    if negotiated == Some(2) {
        return RevisionChoice {
            revision: Revision::V2,
            reason: "the agent negotiated protocolVersion 2".into(),
        };
    }
    if keys.plan_capabilities.is_present() && !keys.plan.is_present() {
        return RevisionChoice {
            revision: Revision::Draft202605,
            reason: format!(
                "{version} negotiated; the client spelled the capability `planCapabilities` (the draft-2026-05 key), not `plan`"
            ),
        };
    }
    let keys_said = match (keys.plan.is_present(), keys.plan_capabilities.is_present()) {
        (true, true) => {
            "the client sent both `plan` and `planCapabilities`, and `plan` is the v1 key"
        }
        (true, false) => "the client spelled the capability `plan`",
        _ => "the client advertised no plan capability key",
    };
    RevisionChoice {
        revision: Revision::V1,
        reason: format!("{version} negotiated; {keys_said}"),
    }
}

/// The revision before (or without) a handshake.
pub fn provisional_revision(spec: SpecChoice) -> RevisionChoice {
    match spec {
        SpecChoice::Fixed(revision) => RevisionChoice {
            revision,
            reason: format!("--spec {revision}"),
        },
        SpecChoice::Auto => RevisionChoice {
            revision: Revision::V1,
            reason: "no answered initialize in the trace; defaulting to v1".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(params: &str) -> CapabilityKeys {
        let raw: Box<RawValue> = serde_json::from_str(params).unwrap();
        read_capability_keys(Some(&raw))
    }

    #[test]
    fn reads_keys() {
        assert_eq!(
            keys(r#"{"clientCapabilities":{"plan":{}}}"#).plan,
            KeyValue::Object
        );
        assert_eq!(
            keys(r#"{"clientCapabilities":{"plan":null}}"#).plan,
            KeyValue::Null
        );
        assert_eq!(
            keys(r#"{"clientCapabilities":{"plan":true}}"#).plan,
            KeyValue::Other("a boolean")
        );
        assert_eq!(
            keys(r#"{"clientCapabilities":{"planCapabilities":{}}}"#).plan_capabilities,
            KeyValue::Object
        );
        assert_eq!(keys(r#"{"clientCapabilities":7}"#), CapabilityKeys::NONE);
        // Arrays are not read by position.
        assert_eq!(keys(r#"{"clientCapabilities":[{}]}"#), CapabilityKeys::NONE);
        assert_eq!(keys(r#"[{"plan":{}}]"#), CapabilityKeys::NONE);
        assert_eq!(keys(r#"{}"#), CapabilityKeys::NONE);
        // The capability object's own `_meta`, by its last value.
        let meta = |params: &str| keys(params).odd_meta("plan");
        assert_eq!(
            meta(r#"{"clientCapabilities":{"plan":{"_meta":5}}}"#),
            Some("a number")
        );
        assert_eq!(
            meta(r#"{"clientCapabilities":{"plan":{"_meta":[]}}}"#),
            Some("an array")
        );
        assert_eq!(
            meta(r#"{"clientCapabilities":{"plan":{"_meta":{}}}}"#),
            None
        );
        assert_eq!(
            meta(r#"{"clientCapabilities":{"plan":{"_meta":null}}}"#),
            None
        );
        assert_eq!(
            meta(r#"{"clientCapabilities":{"plan":[{"_meta":5}]}}"#),
            None
        );
    }

    #[test]
    fn detection() {
        let draft = CapabilityKeys {
            plan: KeyValue::Absent,
            plan_capabilities: KeyValue::Object,
            ..CapabilityKeys::NONE
        };
        assert_eq!(
            choose_revision(SpecChoice::Auto, draft, Some(1)).revision,
            Revision::Draft202605
        );
        assert_eq!(
            choose_revision(SpecChoice::Auto, draft, Some(2)).revision,
            Revision::V2
        );
        let both = CapabilityKeys {
            plan: KeyValue::Object,
            plan_capabilities: KeyValue::Object,
            ..CapabilityKeys::NONE
        };
        assert_eq!(
            choose_revision(SpecChoice::Auto, both, Some(1)).revision,
            Revision::V1
        );
        assert_eq!(
            choose_revision(SpecChoice::Auto, CapabilityKeys::NONE, None).revision,
            Revision::V1
        );
        assert_eq!(
            choose_revision(SpecChoice::Fixed(Revision::V2), draft, Some(1)).revision,
            Revision::V2
        );
    }

    #[test]
    fn protocol_version() {
        let raw: Box<RawValue> = serde_json::from_str(r#"{"protocolVersion":2}"#).unwrap();
        assert_eq!(read_protocol_version(Some(&raw)), Some(2));
        let raw: Box<RawValue> = serde_json::from_str(r#"{"protocolVersion":"1"}"#).unwrap();
        assert_eq!(read_protocol_version(Some(&raw)), None);
        let raw: Box<RawValue> = serde_json::from_str(r#"[2]"#).unwrap();
        assert_eq!(read_protocol_version(Some(&raw)), None);
    }
}
