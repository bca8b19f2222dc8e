//! Reading the client's plan capability keys and the negotiated version
//! from the `initialize` exchange, and choosing the revision.

use super::{Revision, RevisionChoice, SpecChoice};
use serde_json::value::RawValue;

/// What a capability key held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyValue {
    /// The client did not send the key.
    Absent,
    /// The key is `null`, which does not advertise the capability.
    Null,
    /// An object: the key advertises the capability.
    Object,
    /// An array: the schema wants an object, but serde reads a struct from
    /// an array, so the official crate can take `[]` as an empty object.
    Array,
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
            Some(Some(b'[')) => KeyValue::Array,
            Some(_) => KeyValue::Other("a number"),
        }
    }

    /// Present and not `null`.
    pub fn is_present(self) -> bool {
        !matches!(self, KeyValue::Absent | KeyValue::Null)
    }

    /// Whether a reader can take this value as advertising the capability:
    /// `(some reader does, some reader does not)`.
    fn advertises(self) -> (bool, bool) {
        match self {
            KeyValue::Object => (true, false),
            KeyValue::Array => (true, true),
            KeyValue::Absent | KeyValue::Null | KeyValue::Other(_) => (false, true),
        }
    }
}

/// Every value a capability key can be read as: one without repeats; one
/// per value when the client repeats `plan` (or `clientCapabilities`), since
/// readers disagree on which one counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyReadings {
    /// The value the last-wins reading (serde_json, JavaScript) takes.
    pub last: KeyValue,
    /// The first value that is neither an object, null nor absent (for
    /// CAP-VALUE), if any reading has one.
    pub odd: Option<KeyValue>,
    /// Some reading advertises the capability.
    pub some_advertise: bool,
    /// Some reading does not.
    pub some_do_not: bool,
    /// The JSON type of the capability object's own `_meta` when some
    /// reading has one that is neither an object nor null (for CAP-META).
    pub odd_meta: Option<&'static str>,
}

impl KeyReadings {
    pub(crate) const ABSENT: KeyReadings = KeyReadings {
        last: KeyValue::Absent,
        odd: None,
        some_advertise: false,
        some_do_not: true,
        odd_meta: None,
    };

    fn of(values: &[KeyValue], odd_meta: Option<&'static str>) -> KeyReadings {
        let mut readings = KeyReadings {
            last: values.last().copied().unwrap_or(KeyValue::Absent),
            odd: None,
            some_advertise: false,
            some_do_not: values.is_empty(),
            odd_meta,
        };
        for value in values {
            let (yes, no) = value.advertises();
            readings.some_advertise |= yes;
            readings.some_do_not |= no;
            if readings.odd.is_none() && matches!(value, KeyValue::Array | KeyValue::Other(_)) {
                readings.odd = Some(*value);
            }
        }
        readings
    }

    /// The readings of both (two readings of one request).
    pub fn merge(self, other: KeyReadings) -> KeyReadings {
        KeyReadings {
            last: other.last,
            odd: self.odd.or(other.odd),
            some_advertise: self.some_advertise || other.some_advertise,
            some_do_not: self.some_do_not || other.some_do_not,
            odd_meta: self.odd_meta.or(other.odd_meta),
        }
    }

    /// Present and not `null` in some reading.
    pub fn is_present(self) -> bool {
        self.last.is_present() || self.odd.is_some() || self.some_advertise
    }
}

/// The plan capability keys the client sent in `initialize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapabilityKeys {
    /// `clientCapabilities.plan` (v1 spelling).
    pub plan: KeyReadings,
    /// `clientCapabilities.planCapabilities` (draft spelling).
    pub plan_capabilities: KeyReadings,
}

impl CapabilityKeys {
    pub(crate) const NONE: CapabilityKeys = CapabilityKeys {
        plan: KeyReadings::ABSENT,
        plan_capabilities: KeyReadings::ABSENT,
    };

    /// The readings of both (two readings of one request).
    pub fn merge(self, other: CapabilityKeys) -> CapabilityKeys {
        CapabilityKeys {
            plan: self.plan.merge(other.plan),
            plan_capabilities: self.plan_capabilities.merge(other.plan_capabilities),
        }
    }

    /// The readings of the key named as on the wire (`"plan"` or `"planCapabilities"`); any
    /// other name reads as absent.
    pub fn get(&self, key: &str) -> KeyReadings {
        match key {
            "plan" => self.plan,
            "planCapabilities" => self.plan_capabilities,
            _ => KeyReadings::ABSENT,
        }
    }
}

/// Read the plan capability keys from `initialize` params, under every
/// reading: a repeated `clientCapabilities` or capability key contributes
/// each of its values. Params that do not have the expected shape
/// advertise nothing.
pub(crate) fn read_capability_keys(params: Option<&RawValue>) -> CapabilityKeys {
    let Some(params) = params else {
        return CapabilityKeys::NONE;
    };
    let capabilities = all_members(params.get(), "clientCapabilities");
    let key = |name: &str| {
        let mut values = Vec::new();
        let mut odd_meta = None;
        for object in &capabilities {
            if !object.get().starts_with('{') {
                values.push(KeyValue::Absent);
                continue;
            }
            let found = all_members(object.get(), name);
            if found.is_empty() {
                values.push(KeyValue::Absent);
            }
            for raw in found {
                if raw.get().starts_with('{') && odd_meta.is_none() {
                    odd_meta = all_members(raw.get(), "_meta")
                        .into_iter()
                        .find_map(|meta| match KeyValue::of(Some(meta)) {
                            KeyValue::Absent | KeyValue::Null | KeyValue::Object => None,
                            KeyValue::Array => Some("an array"),
                            KeyValue::Other(kind) => Some(kind),
                        });
                }
                values.push(KeyValue::of(Some(raw)));
            }
        }
        KeyReadings::of(&values, odd_meta)
    };
    CapabilityKeys {
        plan: key("plan"),
        plan_capabilities: key("planCapabilities"),
    }
}

/// Every value of member `name` of the object `json`, in order.
fn all_members<'a>(json: &'a str, name: &str) -> Vec<&'a RawValue> {
    crate::trace::members_named(json, name)
}

/// Why an `initialize` result carries no protocol version the suite can
/// read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionFault<'a> {
    /// No `protocolVersion` member.
    Missing,
    /// A value of another JSON type, named ("a string").
    NotANumber(&'static str),
    /// A number with a fractional part, as written.
    NotAnInteger(&'a str),
    /// An integer outside the schema's `ProtocolVersion` (0 to 65535), as
    /// written.
    OutOfRange(&'a str),
}

/// The largest protocol version: the schema types `ProtocolVersion` as
/// `uint16`.
pub(crate) const MAX_PROTOCOL_VERSION: u64 = 65_535;

/// The `protocolVersion` of an `initialize` result: an integer as JSON
/// Schema counts them (by value: `2.0` and `2e0` are the integer 2) within
/// the schema's range, 0 to 65535. A repeated member is read under each of
/// its values, the last first: a fault is returned only when every value
/// has one (the last value's), since no reading may judge the agent that
/// another reading clears (the repeat is ENV-DUPLICATE-KEY's).
pub(crate) fn read_protocol_version(result: Option<&RawValue>) -> Result<u64, VersionFault<'_>> {
    let values = result.map_or_else(Vec::new, |r| all_members(r.get(), "protocolVersion"));
    let mut fault = VersionFault::Missing;
    for value in values.iter().rev() {
        match protocol_version(value.get()) {
            Ok(version) => return Ok(version),
            Err(found) if fault == VersionFault::Missing => fault = found,
            Err(_) => {}
        }
    }
    Err(fault)
}

/// Whether the values of a repeated `protocolVersion` in an `initialize`
/// result negotiate different versions (read as [`read_protocol_version`]
/// reads each, so `2` and `2.0` are one; a value that names no version
/// differs from one that does): each value is a reading, so no one
/// revision is the handshake's.
pub(crate) fn protocol_versions_disagree(result: Option<&RawValue>) -> bool {
    let values = result.map_or_else(Vec::new, |r| all_members(r.get(), "protocolVersion"));
    let mut readings = values.iter().map(|v| protocol_version(v.get()).ok());
    let first = readings.next();
    readings.any(|version| Some(version) != first)
}

/// One `protocolVersion` value, as [`read_protocol_version`] reads it.
fn protocol_version(text: &str) -> Result<u64, VersionFault<'_>> {
    if !matches!(text.as_bytes().first(), Some(b'-' | b'0'..=b'9')) {
        return Err(VersionFault::NotANumber(crate::text::json_type_of_raw(
            text,
        )));
    }
    // Every JSON number parses; one beyond the range of doubles as infinity.
    let value: f64 = text.parse().map_err(|_| VersionFault::NotAnInteger(text))?;
    if value.is_finite() && value.fract() != 0.0 {
        return Err(VersionFault::NotAnInteger(text));
    }
    if !(0.0..=MAX_PROTOCOL_VERSION as f64).contains(&value) {
        return Err(VersionFault::OutOfRange(text));
    }
    Ok(value as u64)
}

/// Choose the revision once the handshake is known.
pub(crate) fn choose_revision(
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
        None => "no protocol version".to_owned(),
    };
    if !is_known_version(negotiated) {
        // Shown as v1, but judged only by what every revision requires
        // (the validator's INIT-VERSION-UNKNOWN).
        return RevisionChoice {
            revision: Revision::V1,
            reason: format!(
                "{version} negotiated, which no revision the suite knows defines; only what every revision requires is checked"
            ),
        };
    }
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

/// Whether a revision of the suite is a text of protocol version
/// `negotiated` (`None`: the answer named none).
pub(crate) fn is_known_version(negotiated: Option<u64>) -> bool {
    negotiated.is_some_and(|version| {
        Revision::ALL
            .iter()
            .any(|r| r.protocol_version() == version)
    })
}

/// The revision before (or without) a handshake.
pub(crate) fn provisional_revision(spec: SpecChoice) -> RevisionChoice {
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
            keys(r#"{"clientCapabilities":{"plan":{}}}"#).plan.last,
            KeyValue::Object
        );
        assert_eq!(
            keys(r#"{"clientCapabilities":{"plan":null}}"#).plan.last,
            KeyValue::Null
        );
        assert_eq!(
            keys(r#"{"clientCapabilities":{"plan":true}}"#).plan.last,
            KeyValue::Other("a boolean")
        );
        assert_eq!(
            keys(r#"{"clientCapabilities":{"planCapabilities":{}}}"#)
                .plan_capabilities
                .last,
            KeyValue::Object
        );
        assert_eq!(keys(r#"{"clientCapabilities":7}"#), CapabilityKeys::NONE);
        // Arrays are not read by position.
        assert_eq!(keys(r#"{"clientCapabilities":[{}]}"#), CapabilityKeys::NONE);
        assert_eq!(keys(r#"[{"plan":{}}]"#), CapabilityKeys::NONE);
        assert_eq!(keys(r#"{}"#), CapabilityKeys::NONE);
        // The capability object's own `_meta`, in any reading.
        let meta = |params: &str| keys(params).plan.odd_meta;
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
        assert_eq!(
            meta(r#"{"clientCapabilities":{"plan":{"_meta":{},"_meta":"x"}}}"#),
            Some("a string")
        );
    }

    #[test]
    fn every_reading_is_kept() {
        // A repeat: one reading advertises, the other does not.
        let plan = keys(r#"{"clientCapabilities":{"plan":{},"plan":null}}"#).plan;
        assert!(plan.some_advertise && plan.some_do_not);
        assert_eq!(plan.last, KeyValue::Null);
        let plan =
            keys(r#"{"clientCapabilities":{"plan":{}},"clientCapabilities":{"fs":{}}}"#).plan;
        assert!(plan.some_advertise && plan.some_do_not);
        // An array: serde reads it as an (empty) object, the schema does not.
        let plan = keys(r#"{"clientCapabilities":{"fs":{},"plan":[]}}"#).plan;
        assert!(plan.some_advertise && plan.some_do_not);
        assert_eq!(plan.odd, Some(KeyValue::Array));
        // Identical repeats agree.
        let plan = keys(r#"{"clientCapabilities":{"plan":{},"plan":{}}}"#).plan;
        assert!(plan.some_advertise && !plan.some_do_not);
        let plan = keys(r#"{"clientCapabilities":{"plan":true}}"#).plan;
        assert!(!plan.some_advertise && plan.some_do_not);
    }

    #[test]
    fn detection() {
        let draft = CapabilityKeys {
            plan: KeyReadings::ABSENT,
            plan_capabilities: KeyReadings::of(&[KeyValue::Object], None),
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
            plan: KeyReadings::of(&[KeyValue::Object], None),
            plan_capabilities: KeyReadings::of(&[KeyValue::Object], None),
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
    fn repeated_protocol_versions_disagree_by_what_they_negotiate() {
        let disagree = |result: &str| {
            let raw: Box<RawValue> = serde_json::from_str(result).unwrap();
            protocol_versions_disagree(Some(&raw))
        };
        assert!(disagree(r#"{"protocolVersion":1,"protocolVersion":2}"#));
        assert!(disagree(r#"{"protocolVersion":2,"protocolVersion":3}"#));
        assert!(disagree(r#"{"protocolVersion":1,"protocolVersion":"1"}"#));
        // One JSON value, spelled twice: one reading.
        assert!(!disagree(
            r#"{"protocolVersion":2,"protocolVersion":2.0e0}"#
        ));
        assert!(!disagree(r#"{"protocolVersion":1}"#));
        assert!(!disagree(r#"{}"#));
        assert!(!protocol_versions_disagree(None));
    }

    #[test]
    fn protocol_version() {
        let read = |result: &str| {
            let raw: Box<RawValue> = serde_json::from_str(result).unwrap();
            read_protocol_version(Some(&raw)).map_err(|f| format!("{f:?}"))
        };
        assert_eq!(read(r#"{"protocolVersion":2}"#), Ok(2));
        assert_eq!(
            read(r#"{"protocolVersion":"1"}"#),
            Err("NotANumber(\"a string\")".into())
        );
        assert_eq!(
            read(r#"{"protocolVersion":null}"#),
            Err("NotANumber(\"null\")".into())
        );
        assert_eq!(read(r#"{}"#), Err("Missing".into()));
        // A repeat: the agent is judged only when no value is a version.
        assert_eq!(
            read(r#"{"protocolVersion":1,"protocolVersion":70000}"#),
            Ok(1)
        );
        assert_eq!(read(r#"{"protocolVersion":2,"protocolVersion":1}"#), Ok(1));
        assert_eq!(
            read(r#"{"protocolVersion":"1","protocolVersion":70000}"#),
            Err(format!("OutOfRange({:?})", "70000"))
        );
        assert_eq!(read(r#"[2]"#), Err("Missing".into()));
        assert_eq!(read_protocol_version(None), Err(VersionFault::Missing));
        for (text, version) in [
            ("2.0", Ok(2)),
            ("2e0", Ok(2)),
            ("-0", Ok(0)),
            ("65535", Ok(65_535)),
            ("6.5535e4", Ok(65_535)),
            ("2.5", Err(format!("NotAnInteger({text:?})", text = "2.5"))),
            ("-1", Err(format!("OutOfRange({:?})", "-1"))),
            ("65536", Err(format!("OutOfRange({:?})", "65536"))),
            ("1e400", Err(format!("OutOfRange({:?})", "1e400"))),
            ("-1e400", Err(format!("OutOfRange({:?})", "-1e400"))),
        ] {
            assert_eq!(
                read(&format!(r#"{{"protocolVersion":{text}}}"#)),
                version,
                "{text}"
            );
        }
    }
}
