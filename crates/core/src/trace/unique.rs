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
    duplicate_members(json, 1).pop()
}

/// The first `limit` repeats of a member name anywhere in `json`, in
/// document order (each repeat once per object). Text that is not JSON has
/// those found before the fault.
pub fn duplicate_members(json: &str, limit: usize) -> Vec<DuplicateMember> {
    let mut path = String::new();
    let mut found = Vec::new();
    if limit == 0 {
        return found;
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let _ = Walker(Scan {
        path: &mut path,
        found: &mut found,
        limit,
    })
    .deserialize(&mut de);
    found
}

/// Whether `json` is JSON every reader reads alike: no object repeats a
/// member name, every number fits a double, every string is Unicode. Walks
/// the value without building it (member names are remembered as 64-bit
/// hashes, so a rare collision only sends the value to the exact checks).
pub fn is_plain(json: &str) -> bool {
    struct Plain;
    impl Walk for Plain {
        fn array<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Walker(Plain))?.is_some() {}
            Ok(())
        }
        fn object<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
            let hasher = BuildHasherDefault::<DefaultHasher>::default();
            let mut seen: HashSet<u64> = HashSet::new();
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if !seen.insert(hasher.hash_one(key.as_ref())) {
                    return Err(A::Error::custom("repeated member name"));
                }
                map.next_value_seed(Walker(Plain))?;
            }
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(json);
    Walker(Plain).deserialize(&mut de).is_ok() && de.end().is_ok()
}

/// Readings of one value checked at most (see [`readings`]).
pub const MAX_READINGS: usize = 8;

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

/// The member names of the object `json`, in order, repeats included
/// (values are skipped, not built). Text that is not a JSON object has none.
pub fn member_names(json: &str) -> Vec<String> {
    object_members(json)
        .map(|members| members.into_iter().map(|(k, _)| k).collect())
        .unwrap_or_default()
}

/// The members of the object `json` in order, repeats included, with their
/// values raw; `None` for text that is not a JSON object.
pub fn object_members(json: &str) -> Option<Vec<(String, &RawValue)>> {
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, &'de RawValue)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::new();
            while let Some(name) = map.next_key::<String>()? {
                members.push((name, map.next_value::<&'de RawValue>()?));
            }
            Ok(members)
        }
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let members = de.deserialize_map(Members).ok()?;
    de.end().ok()?;
    Some(members)
}

/// The elements of the array `json`, raw; `None` for text that is not a
/// JSON array.
pub fn array_elements(json: &str) -> Option<Vec<&RawValue>> {
    if !json.trim_start().starts_with('[') {
        return None;
    }
    serde_json::from_str::<Vec<&RawValue>>(json).ok()
}

/// How many readings a value with repeated member names has: the most
/// times one name occurs in one object, anywhere in it (1 without repeats;
/// 0 for text that is not JSON).
pub fn reading_count(json: &str) -> usize {
    struct Count<'c>(&'c mut usize);
    impl Walk for Count<'_> {
        fn array<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq
                .next_element_seed(Walker(Count(&mut *self.0)))?
                .is_some()
            {}
            Ok(())
        }
        fn object<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen: std::collections::HashMap<String, usize> = Default::default();
            while let Some(key) = map.next_key::<String>()? {
                let n = seen.entry(key).or_default();
                *n += 1;
                *self.0 = (*self.0).max(*n);
                map.next_value_seed(Walker(Count(&mut *self.0)))?;
            }
            Ok(())
        }
    }
    let mut count = 1;
    let mut de = serde_json::Deserializer::from_str(json);
    match Walker(Count(&mut count)).deserialize(&mut de) {
        Ok(()) => count,
        Err(_) => 0,
    }
}

/// The distinct readings of a JSON value whose objects repeat member names
/// (see [`readings`]): what a checker that reads a value "under every
/// reading" reads, each text once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Readings {
    /// Each reading once, in order; the last keeps every repeated member's
    /// last value (what serde_json and JavaScript read).
    pub texts: Vec<String>,
    /// Whether every value of every repeated member is in one of `texts`
    /// (false for text that is not JSON, and for a value with more than
    /// [`MAX_READINGS`] readings): a value read only in part.
    pub complete: bool,
}

/// The readings of `json`, each a copy of the text with one value kept per
/// repeated member name, that hold between them every value of every
/// repeated member, wherever it is nested. Reading `j` keeps, for each
/// name of an object, the `j`-th of the readings of its values taken in
/// turn (the last one once they run out), and in each element of an array
/// its `j`-th reading likewise. So readings pair up the values of names
/// repeated side by side (`{"a":1,"a":2,"b":3,"b":4}` reads as `a` 1 with
/// `b` 3, then 2 with 4), and a repeat inside one value of a repeated
/// member is read in readings of its own. Text is copied as sent (strings
/// and numbers are not re-encoded; member names are written as JSON
/// strings), and parts without repeats are copied whole. At most
/// [`MAX_READINGS`]: beyond that, the first ones and the last.
pub fn readings(json: &str) -> Readings {
    let mut texts = Vec::new();
    let complete = each_reading(json, |text| texts.push(text.to_owned()));
    Readings { texts, complete }
}

/// Each distinct reading of `json` (see [`readings`]) handed to `read` in
/// turn, written one at a time: a hostile line costs one reading at a
/// time, not all of them (eight readings of 16 MB lines held together took
/// 261.5 MB on bench/hostile.py's `readings`). Returns whether every value
/// was read
/// ([`Readings::complete`]).
pub fn each_reading(json: &str, mut read: impl FnMut(&str)) -> bool {
    use std::hash::BuildHasher;
    let mut cut = false;
    let Some((shape, count)) = Shape::of(json, &mut cut) else {
        return false;
    };
    let mut complete = !cut;
    // A reading is known again by its hash, then compared with the earlier
    // one written anew: exact, without keeping the texts.
    let hasher = std::collections::hash_map::RandomState::new();
    let mut seen: Vec<(u64, usize)> = Vec::with_capacity(count);
    // Each as long as the text at most (a reading drops members): no
    // doubling past it.
    let mut text = String::with_capacity(json.len());
    let mut earlier = String::new();
    for j in 0..count {
        text.clear();
        if shape.write(j, &mut text).is_none() {
            complete = false;
            continue;
        }
        let hash = hasher.hash_one(&text);
        let again = seen.iter().any(|&(known, k)| {
            known == hash && {
                earlier.clear();
                earlier.reserve_exact(text.len());
                shape.write(k, &mut earlier).is_some() && earlier == text
            }
        });
        if !again {
            seen.push((hash, j));
            read(&text);
        }
    }
    complete
}

/// A value whose readings are counted, read once: the parts without repeats
/// are kept whole (as text), and each reading is written from it on its
/// own, so that a line costs its readings and no more.
enum Shape<'a> {
    Whole(&'a str),
    Array(Vec<(Shape<'a>, usize)>),
    Object(Box<ObjectShape<'a>>),
}

struct ObjectShape<'a> {
    /// Each member: its name, its value and the value's reading count.
    members: Vec<(String, Shape<'a>, usize)>,
    /// Each repeated name's members, in order, and their readings taken in
    /// turn (before the cap). A name given once is in every reading, with
    /// its value's `j`-th reading: no list of its own (a hostile object of
    /// a million names and one repeat would pay one per name).
    repeated: Vec<(Vec<usize>, usize)>,
}

impl<'a> Shape<'a> {
    /// `json` and how many readings it has (at most [`MAX_READINGS`];
    /// `cut` is set when it has more). `None` for text that is not JSON.
    fn of(json: &'a str, cut: &mut bool) -> Option<(Shape<'a>, usize)> {
        let text = json.trim();
        match reading_count(text) {
            0 => return None,
            1 => return Some((Shape::Whole(text), 1)),
            _ => {}
        }
        match text.as_bytes().first() {
            Some(b'{') => {
                let members = object_members(text)?
                    .into_iter()
                    .map(|(name, value)| {
                        let (value, count) = Shape::of(value.get(), cut)?;
                        Some((name, value, count))
                    })
                    .collect::<Option<Vec<_>>>()?;
                let mut given: std::collections::HashMap<&str, usize> = Default::default();
                for (name, _, _) in &members {
                    *given.entry(name).or_default() += 1;
                }
                let mut index: std::collections::HashMap<&str, usize> = Default::default();
                let mut repeated: Vec<(Vec<usize>, usize)> = Vec::new();
                let mut count = 1;
                for (member, (name, _, readings)) in members.iter().enumerate() {
                    if given.get(name.as_str()).is_some_and(|&n| n > 1) {
                        let at = *index.entry(name).or_insert_with(|| {
                            repeated.push((Vec::new(), 0));
                            repeated.len() - 1
                        });
                        let (taken, total) = repeated.get_mut(at)?;
                        taken.push(member);
                        *total += readings;
                    } else {
                        count = count.max(*readings);
                    }
                }
                drop((given, index));
                for (_, total) in &repeated {
                    *cut |= *total > MAX_READINGS;
                    count = count.max((*total).min(MAX_READINGS));
                }
                let shape = ObjectShape { members, repeated };
                Some((Shape::Object(Box::new(shape)), count))
            }
            Some(b'[') => {
                let elements = array_elements(text)?
                    .into_iter()
                    .map(|element| Shape::of(element.get(), cut))
                    .collect::<Option<Vec<_>>>()?;
                let count = elements.iter().map(|(_, count)| *count).max().unwrap_or(1);
                Some((Shape::Array(elements), count))
            }
            _ => Some((Shape::Whole(text), 1)),
        }
    }

    /// Reading `j` (see [`readings`]) written to `out`: for each name of an
    /// object, the `j`-th of the readings of its values in turn (the last
    /// once they run out; past the cap, the last stands in the cap's last
    /// place); in an array, each element's `j`-th reading likewise.
    fn write(&self, j: usize, out: &mut String) -> Option<()> {
        match self {
            Shape::Whole(text) => out.push_str(text),
            Shape::Array(elements) => {
                out.push('[');
                for (i, (element, count)) in elements.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    element.write(j.min(count - 1), out)?;
                }
                out.push(']');
            }
            Shape::Object(object) => {
                let ObjectShape { members, repeated } = &**object;
                // Names given once: in every reading.
                let mut kept: Vec<Option<usize>> = members
                    .iter()
                    .map(|(_, _, count)| Some(j.min(count - 1)))
                    .collect();
                for (taken, _) in repeated {
                    for &member in taken {
                        *kept.get_mut(member)? = None;
                    }
                }
                for (taken, total) in repeated {
                    let places = (*total).min(MAX_READINGS);
                    let place = j.min(places - 1);
                    let (member, reading) = if place == places - 1 {
                        // The last place: every last value.
                        let &member = taken.last()?;
                        (member, members.get(member)?.2 - 1)
                    } else {
                        let mut before = 0;
                        let mut found = None;
                        for &member in taken {
                            let count = members.get(member)?.2;
                            if place < before + count {
                                found = Some((member, place - before));
                                break;
                            }
                            before += count;
                        }
                        found?
                    };
                    *kept.get_mut(member)? = Some(reading);
                }
                out.push('{');
                let mut first = true;
                for ((name, value, _), reading) in members.iter().zip(kept) {
                    let Some(reading) = reading else {
                        continue;
                    };
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&serde_json::to_string(name).ok()?);
                    out.push(':');
                    value.write(reading, out)?;
                }
                out.push('}');
            }
        }
        Some(())
    }
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

/// What a walk over a JSON value does in arrays and objects. Scalars are
/// skipped; [`Walker`] turns a walk into the serde visitor (and seed, for
/// elements and member values), so each walk writes only what it does.
trait Walk: Sized {
    fn array<'de, A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error>;
    fn object<'de, A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error>;
}

/// Reads any JSON value without building it, handing arrays and objects to
/// the walk.
struct Walker<W>(W);

impl<'de, W: Walk> DeserializeSeed<'de> for Walker<W> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, W: Walk> Visitor<'de> for Walker<W> {
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

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.0.array(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        self.0.object(map)
    }
}

/// Walks a value without building it, keeping the path for the report.
struct Scan<'s> {
    path: &'s mut String,
    found: &'s mut Vec<DuplicateMember>,
    limit: usize,
}

impl Walk for Scan<'_> {
    fn array<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let len = self.path.len();
        let mut index = 0usize;
        loop {
            self.path.truncate(len);
            self.path.push('/');
            self.path.push_str(&index.to_string());
            let more = seq.next_element_seed(Walker(Scan {
                path: &mut *self.path,
                found: &mut *self.found,
                limit: self.limit,
            }))?;
            if more.is_none() {
                break;
            }
            index += 1;
        }
        self.path.truncate(len);
        Ok(())
    }

    fn object<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let len = self.path.len();
        let mut seen = HashSet::new();
        let mut repeated: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            self.path.truncate(len);
            self.path.push('/');
            self.path.push_str(&pointer_token(&key));
            if !seen.insert(key.clone()) && !repeated.contains(&key) {
                self.found.push(DuplicateMember {
                    pointer: self.path.clone(),
                    key: key.clone(),
                });
                repeated.push(key);
                if self.found.len() >= self.limit {
                    return Err(A::Error::custom("enough repeats found"));
                }
            }
            map.next_value_seed(Walker(Scan {
                path: &mut *self.path,
                found: &mut *self.found,
                limit: self.limit,
            }))?;
        }
        self.path.truncate(len);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// JSON whose objects draw member names from three, so that they
    /// repeat, at any depth; its leaves are numbered apart when written.
    #[derive(Clone, Debug)]
    enum Tree {
        Leaf,
        Array(Vec<Tree>),
        Object(Vec<(u8, Tree)>),
    }

    fn tree() -> impl Strategy<Value = Tree> {
        Just(Tree::Leaf).prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Tree::Array),
                prop::collection::vec((0u8..3, inner), 0..6).prop_map(Tree::Object),
            ]
        })
    }

    fn write(tree: &Tree, leaves: &mut u64, out: &mut String) {
        match tree {
            Tree::Leaf => {
                out.push_str(&leaves.to_string());
                *leaves += 1;
            }
            Tree::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, leaves, out);
                }
                out.push(']');
            }
            Tree::Object(members) => {
                out.push('{');
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&format!("\"{}\":", ["a", "b", "c"][*name as usize]));
                    write(value, leaves, out);
                }
                out.push('}');
            }
        }
    }

    fn numbers(value: &Value, out: &mut HashSet<u64>) {
        match value {
            Value::Number(n) => {
                out.extend(n.as_u64());
            }
            Value::Array(items) => items.iter().for_each(|v| numbers(v, out)),
            Value::Object(members) => members.values().for_each(|v| numbers(v, out)),
            _ => {}
        }
    }

    proptest! {
        /// Every value of every repeated member is in one reading (each
        /// leaf is a number of its own), no reading repeats a name, and
        /// the last is what serde_json reads.
        #[test]
        fn readings_hold_every_value_and_end_with_the_last(tree in tree()) {
            let (mut leaves, mut text) = (0, String::new());
            write(&tree, &mut leaves, &mut text);
            let read = readings(&text);
            prop_assert!(!read.texts.is_empty());
            let mut seen = HashSet::new();
            for reading in &read.texts {
                prop_assert_eq!(first_duplicate_member(reading), None);
                numbers(&serde_json::from_str(reading).unwrap(), &mut seen);
            }
            if read.complete {
                prop_assert_eq!(seen.len() as u64, leaves, "{}", text);
            } else {
                prop_assert!(read.texts.len() <= MAX_READINGS);
            }
            let last: Value = serde_json::from_str(read.texts.last().unwrap()).unwrap();
            let serde: Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(last, serde);
        }
    }

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
    fn readings_are_each_distinct_text_once_up_to_the_cap() {
        // Two names repeat, one three times: three readings, each value of
        // each repeated name in one of them, where it stands in the text
        // (the shorter repeat keeps its last value from the second on).
        let json = r#"{"a":1,"b":{"c":2,"c":3},"a":4,"a":5}"#;
        assert_eq!(
            readings(json),
            Readings {
                texts: vec![
                    r#"{"a":1,"b":{"c":2}}"#.into(),
                    r#"{"b":{"c":3},"a":4}"#.into(),
                    r#"{"b":{"c":3},"a":5}"#.into(),
                ],
                complete: true,
            }
        );
        // Repeats deep in an array element the same in every reading of
        // the outer object: readings that come out the same are kept once.
        let same = r#"{"x":[{"y":1,"y":1}],"z":2}"#;
        assert_eq!(readings(same).texts, [r#"{"x":[{"y":1}],"z":2}"#]);
        // Without repeats, the one reading is the text.
        assert_eq!(readings(" [1, 2] ").texts, ["[1, 2]"]);
        // At most MAX_READINGS.
        let many = format!(
            "{{{}}}",
            (0..20)
                .map(|i| format!(r#""k":{i}"#))
                .collect::<Vec<_>>()
                .join(",")
        );
        // At most MAX_READINGS: the first ones and the last (every last
        // value, what serde_json keeps), and not read whole.
        let capped = readings(&many);
        assert_eq!(capped.texts.len(), MAX_READINGS);
        assert_eq!(capped.texts[MAX_READINGS - 2], r#"{"k":6}"#);
        assert_eq!(capped.texts[MAX_READINGS - 1], r#"{"k":19}"#);
        assert!(!capped.complete);
        // Not JSON: no reading, and not read whole.
        assert_eq!(readings("{\"a\":"), Readings::default());
    }

    /// A repeat inside one value of a repeated member is read in readings
    /// of its own: every value of every repeated member is in one reading.
    #[test]
    fn repeats_inside_values_of_a_repeated_member_are_each_read() {
        let json = r#"{"e":[{"s":"a","s":"b"}],"e":[{"s":"c"}],"p":1,"p":2}"#;
        assert_eq!(
            readings(json),
            Readings {
                texts: vec![
                    r#"{"e":[{"s":"a"}],"p":1}"#.into(),
                    r#"{"e":[{"s":"b"}],"p":2}"#.into(),
                    r#"{"e":[{"s":"c"}],"p":2}"#.into(),
                ],
                complete: true,
            }
        );
        // Nested two deep, each value of each level in turn.
        let deep = r#"{"c":"a","c":{"x":1,"x":{"s":1,"s":2}},"c":"b"}"#;
        assert_eq!(
            readings(deep).texts,
            [
                r#"{"c":"a"}"#,
                r#"{"c":{"x":1}}"#,
                r#"{"c":{"x":{"s":1}}}"#,
                r#"{"c":{"x":{"s":2}}}"#,
                r#"{"c":"b"}"#,
            ]
        );
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
