//! Whether two JSON texts hold the same value, however they are spelled:
//! whitespace, escapes, member order, and a number written with a fraction
//! or an exponent (`2`, `2.0`, `2e0`) do not make another value. Readings of
//! a message are told apart by this, not by their text, so that
//! `"id":2,"id": 2` is one reading, not two.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};

/// A hash of the value `json` holds, equal for equal values (see the module
/// docs); `None` for text serde_json does not read (not JSON, an unpaired
/// surrogate escape, a number beyond doubles, nesting past its limit):
/// such a text is only the same as itself.
pub(super) fn value_hash(json: &str, keys: &RandomState) -> Option<u64> {
    let mut de = serde_json::Deserializer::from_str(json);
    let hash = Hashing(keys).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(hash)
}

/// Whether `a` and `b` hold the same value: equal texts, or texts that
/// serde_json reads to equal values (numbers compared as numbers).
pub(super) fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (
        serde_json::from_str::<Value>(a),
        serde_json::from_str::<Value>(b),
    ) {
        (Ok(a), Ok(b)) => equal(&a, &b),
        _ => false,
    }
}

fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => number_key(a) == number_key(b),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| equal(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(name, value)| b.get(name).is_some_and(|other| equal(value, other)))
        }
        _ => a == b,
    }
}

/// A number as one key whatever its spelling: an integral value within the
/// range doubles hold exactly is that integer; any other is its double.
#[derive(Hash, PartialEq, Eq)]
enum NumberKey {
    Integer(i128),
    Double(u64),
}

fn number_key(n: &serde_json::Number) -> NumberKey {
    if let Some(i) = n.as_i64() {
        return NumberKey::Integer(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return NumberKey::Integer(i128::from(u));
    }
    double_key(n.as_f64().unwrap_or(f64::NAN))
}

fn double_key(f: f64) -> NumberKey {
    /// 2^53: every integer below it is a double exactly.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if f.is_finite() && f.fract() == 0.0 && f.abs() < EXACT {
        // In range, so the cast is exact.
        return NumberKey::Integer(f as i128);
    }
    NumberKey::Double(f.to_bits())
}

/// Hashes a value as it is read, without building it. An object's members
/// are combined by a sum, so that their order does not count.
struct Hashing<'k>(&'k RandomState);

impl Hashing<'_> {
    fn of(&self, tag: u8, what: impl Hash) -> u64 {
        let mut hasher = self.0.build_hasher();
        tag.hash(&mut hasher);
        what.hash(&mut hasher);
        hasher.finish()
    }
}

impl<'de> DeserializeSeed<'de> for Hashing<'_> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Hashing<'_> {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<u64, E> {
        Ok(self.of(1, b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<u64, E> {
        Ok(self.of(2, NumberKey::Integer(i128::from(i))))
    }
    fn visit_u64<E>(self, u: u64) -> Result<u64, E> {
        Ok(self.of(2, NumberKey::Integer(i128::from(u))))
    }
    fn visit_f64<E>(self, f: f64) -> Result<u64, E> {
        Ok(self.of(2, double_key(f)))
    }
    fn visit_str<E>(self, s: &str) -> Result<u64, E> {
        Ok(self.of(3, s))
    }
    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(self.of(4, ()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut hasher = self.0.build_hasher();
        5u8.hash(&mut hasher);
        while let Some(element) = seq.next_element_seed(Hashing(self.0))? {
            element.hash(&mut hasher);
        }
        Ok(hasher.finish())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let mut sum = 0u64;
        let mut count = 0u64;
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let value = map.next_value_seed(Hashing(self.0))?;
            sum = sum.wrapping_add(self.of(6, (&*name, value)));
            count += 1;
        }
        Ok(self.of(7, (sum, count)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        let keys = RandomState::new();
        let hashes = value_hash(a, &keys) == value_hash(b, &keys);
        let exact = same_value(a, b);
        assert!(!exact || hashes, "equal values hash alike: {a} {b}");
        exact
    }

    #[test]
    fn spelling_does_not_make_another_value() {
        assert!(same(r#"{"id":2}"#, r#"{ "id" : 2 }"#));
        assert!(same(r#"{"id":2}"#, r#"{"\u0069d":2.0e0}"#));
        assert!(same(
            r#"{"a":1,"b":[1,"x"]}"#,
            r#"{"b":[1,"\u0078"],"a":1}"#
        ));
        assert!(same("-0", "0"));
        assert!(!same(r#"{"id":2}"#, r#"{"id":"2"}"#));
        assert!(!same("[1,2]", "[2,1]"));
        assert!(!same(r#"{"a":1}"#, r#"{"a":1,"b":null}"#));
        assert!(!same("0.5", "1"));
        // serde_json does not read half a character: only the same text.
        assert_eq!(value_hash(r#""\ud800""#, &RandomState::new()), None);
        assert!(same(r#""\ud800""#, r#""\ud800""#));
        assert!(!same(r#""\ud800""#, r#""\udc00""#));
    }
}
