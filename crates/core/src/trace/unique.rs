//! Repeated member names inside a JSON value.
//!
//! serde_json keeps the last of two equal member names, the official ACP
//! crate rejects the object, and RFC 8259 leaves the outcome unpredictable.
//! The validator warns about repeats in the payloads it reads; it does not
//! check or apply a plan update with one, and elsewhere it reads the last
//! value, so that one party's repeat never makes it blame the other.

use crate::text::pointer_token;
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::value::RawValue;
use std::collections::HashSet;
use std::fmt;

/// A member name that appears twice in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateMember {
    /// JSON pointer to the member, relative to the scanned value.
    pub pointer: String,
    pub key: String,
}

/// The first repeated member name anywhere in `json`, if any. Text that is
/// not JSON has none.
pub fn first_duplicate_member(json: &str) -> Option<DuplicateMember> {
    let mut path = String::new();
    let mut found = None;
    let mut de = serde_json::Deserializer::from_str(json);
    let _ = Scan {
        path: &mut path,
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

/// Every member name the object `json` itself repeats, once each, in
/// order (members of its members are not looked at). Text that is not a
/// JSON object has none.
pub fn duplicate_keys(json: &str) -> Vec<DuplicateMember> {
    #[derive(Default)]
    struct Keys(Vec<String>);
    impl<'de> serde::Deserialize<'de> for Keys {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct KeysVisitor;
            impl<'de> Visitor<'de> for KeysVisitor {
                type Value = Keys;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                    let mut keys = Vec::new();
                    while let Some(key) = map.next_key::<String>()? {
                        map.next_value::<IgnoredAny>()?;
                        keys.push(key);
                    }
                    Ok(Keys(keys))
                }
            }
            d.deserialize_map(KeysVisitor)
        }
    }
    let Keys(keys) = serde_json::from_str(json).unwrap_or_default();
    let mut seen = HashSet::new();
    let mut reported = HashSet::new();
    let mut repeated = Vec::new();
    for key in keys {
        if !seen.insert(key.clone()) && reported.insert(key.clone()) {
            repeated.push(DuplicateMember {
                pointer: format!("/{}", pointer_token(&key)),
                key,
            });
        }
    }
    repeated
}

/// The value of member `key` of the object `json`; when the name repeats,
/// the last one (as serde_json's maps and JavaScript read it). `None` for a
/// missing member or text that is not a JSON object.
pub fn last_member<'a>(json: &'a str, key: &str) -> Option<&'a RawValue> {
    struct Last<'k>(&'k str);
    impl<'de, 'k> DeserializeSeed<'de> for Last<'k> {
        type Value = Option<&'de RawValue>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_map(self)
        }
    }
    impl<'de, 'k> Visitor<'de> for Last<'k> {
        type Value = Option<&'de RawValue>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut last = None;
            while let Some(name) = map.next_key::<String>()? {
                if name == self.0 {
                    last = Some(map.next_value::<&'de RawValue>()?);
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(last)
        }
    }
    let mut de = serde_json::Deserializer::from_str(json);
    Last(key).deserialize(&mut de).ok().flatten()
}

/// Walks a value without building it, keeping the path for the report.
struct Scan<'s> {
    path: &'s mut String,
    found: &'s mut Option<DuplicateMember>,
}

impl<'de> DeserializeSeed<'de> for Scan<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scan<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let len = self.path.len();
        let mut index = 0usize;
        loop {
            self.path.truncate(len);
            self.path.push('/');
            self.path.push_str(&index.to_string());
            let more = seq.next_element_seed(Scan {
                path: &mut *self.path,
                found: &mut *self.found,
            })?;
            if more.is_none() {
                break;
            }
            index += 1;
        }
        self.path.truncate(len);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let len = self.path.len();
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            self.path.truncate(len);
            self.path.push('/');
            self.path.push_str(&pointer_token(&key));
            if !seen.insert(key.clone()) {
                *self.found = Some(DuplicateMember {
                    pointer: self.path.clone(),
                    key,
                });
                return Err(A::Error::custom("duplicate member"));
            }
            map.next_value_seed(Scan {
                path: &mut *self.path,
                found: &mut *self.found,
            })?;
        }
        self.path.truncate(len);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_repeats_at_any_depth() {
        assert_eq!(first_duplicate_member(r#"{"a":1,"b":[{"c":1}]}"#), None);
        assert_eq!(
            first_duplicate_member(r#"{"a":1,"b":[{},{"c":1,"c":2}]}"#),
            Some(DuplicateMember {
                pointer: "/b/1/c".into(),
                key: "c".into()
            })
        );
        // Escapes are decoded before names are compared.
        assert_eq!(
            first_duplicate_member(r#"{"a/b":1,"a\/b":2}"#).map(|d| d.pointer),
            Some("/a~1b".into())
        );
        assert_eq!(first_duplicate_member("not json"), None);
    }

    #[test]
    fn last_member_wins() {
        let json = r#"{"a":1,"b":{"c":2},"a":"x"}"#;
        assert_eq!(last_member(json, "a").map(RawValue::get), Some(r#""x""#));
        assert_eq!(
            last_member(json, "b").map(RawValue::get),
            Some(r#"{"c":2}"#)
        );
        assert!(last_member(json, "c").is_none());
        assert_eq!(
            last_member(r#"{"\u0061":1}"#, "a").map(RawValue::get),
            Some("1")
        );
        assert!(last_member("[1]", "a").is_none());
    }

    #[test]
    fn shallow_scan_lists_each_repeated_key_once() {
        assert!(duplicate_keys(r#"{"a":{"x":1,"x":2}}"#).is_empty());
        let keys: Vec<String> = duplicate_keys(r#"{"a":{},"b":2,"a":1,"b":3,"a":4}"#)
            .into_iter()
            .map(|d| d.key)
            .collect();
        assert_eq!(keys, ["a", "b"]);
        assert!(duplicate_keys("[1,1]").is_empty());
    }
}
