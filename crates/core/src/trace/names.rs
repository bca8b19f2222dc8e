//! The member names of one JSON object, counted without copying them.
//!
//! A name is kept as the place of its text in the value being read (two
//! 32-bit offsets), so an object of millions of tiny members costs a few
//! bytes a name, not a `String` each (bench/hostile.py's `repeat` and
//! `pairs`). Names are compared as decoded: `"a"` and `"\u0061"` are one.

use hashbrown::HashTable;
use std::borrow::Cow;
use std::hash::BuildHasher;

/// One distinct name: where its text (quotes included) is, and how many
/// times the object gave it so far.
#[derive(Clone, Copy)]
struct Name {
    start: u32,
    end: u32,
    given: u32,
}

/// A distinct name in the table: its number, and the low 32 bits of its
/// decoded text's hash. With the bits beside the number, neither a lookup
/// that meets another name's bucket nor the rehash of a growing table reads
/// the name or its text: in an object of millions of names both are rarely
/// in cache, and those reads were a sixth of the time of a check of
/// bench/hostile.py's `repeat` (1.6 million names).
#[derive(Clone, Copy)]
struct Slot {
    number: u32,
    hash: u32,
}

/// A name's hash for the table, from the 32 bits kept in its slot. The
/// multiply puts the 32 bits in the high bits, which the table's control
/// bytes use, and keeps the low bits, which place a name. Names whose 32
/// bits collide are told apart by their text.
fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Distinct names compared in place, by their hashes, before a table is
/// made: most objects have no more (an object nested a hundred deep is
/// a hundred small ones).
const IN_PLACE: usize = 8;

/// The distinct member names of one object, each with the times it was
/// given. Names are numbered from 0 in the order they first appear.
pub(crate) struct Names<'t> {
    /// The text every name is found in (any value that holds the object).
    text: &'t str,
    hasher: foldhash::fast::RandomState,
    /// The 32 bits of hash of the first [`IN_PLACE`] names, by number.
    first: [u32; IN_PLACE],
    /// Numbers into `names`, found by the decoded name's hash; made when
    /// there are more than [`IN_PLACE`] names.
    table: HashTable<Slot>,
    names: Vec<Name>,
}

impl<'t> Names<'t> {
    /// Names found in `text`; `None` when `text` is too long for 32-bit
    /// offsets (4 GiB, far past any line limit).
    pub fn new(text: &'t str) -> Option<Names<'t>> {
        u32::try_from(text.len()).ok()?;
        Some(Names {
            text,
            hasher: foldhash::fast::RandomState::default(),
            first: [0; IN_PLACE],
            table: HashTable::new(),
            names: Vec::new(),
        })
    }

    /// Counts the member name `raw` (as sent, quotes included, a slice of
    /// this table's text): its number, and the times it has now been
    /// given. `None` when `raw` is not a JSON string inside the text.
    pub fn add(&mut self, raw: &str) -> Option<(u32, u32)> {
        let start = offset_in(self.text, raw)?;
        let end = start.checked_add(u32::try_from(raw.len()).ok()?)?;
        let decoded = decode(raw)?;
        // The low 32 bits of the hash, kept in the name's slot.
        let short = self.hasher.hash_one(decoded.as_ref()) as u32;
        let hash = spread(short);
        let (text, names) = (self.text, &self.names);
        let same_text = |number: u32| {
            names
                .get(number as usize)
                .and_then(|name| text.get(name.start as usize..name.end as usize))
                .and_then(decode)
                .is_some_and(|known| known == decoded)
        };
        let known = if self.names.len() <= IN_PLACE {
            (0..self.names.len() as u32).find(|number| {
                self.first.get(*number as usize) == Some(&short) && same_text(*number)
            })
        } else {
            self.table
                .find(hash, |slot| slot.hash == short && same_text(slot.number))
                .map(|slot| slot.number)
        };
        if let Some(number) = known {
            let name = self.names.get_mut(number as usize)?;
            name.given = name.given.saturating_add(1);
            return Some((number, name.given));
        }
        let number = u32::try_from(self.names.len()).ok()?;
        self.names.push(Name {
            start,
            end,
            given: 1,
        });
        if let Some(first) = self.first.get_mut(number as usize) {
            *first = short;
            return Some((number, 1));
        }
        let rehash = |slot: &Slot| spread(slot.hash);
        if self.table.is_empty() {
            for (number, &first) in (0..).zip(&self.first) {
                let slot = Slot {
                    number,
                    hash: first,
                };
                self.table.insert_unique(spread(first), slot, rehash);
            }
        }
        self.table.insert_unique(
            hash,
            Slot {
                number,
                hash: short,
            },
            rehash,
        );
        Some((number, 1))
    }

    /// How many times the name numbered `number` was given (0 for a number
    /// not given).
    pub fn given(&self, number: u32) -> u32 {
        self.names.get(number as usize).map_or(0, |name| name.given)
    }

    /// Distinct names.
    pub fn len(&self) -> usize {
        self.names.len()
    }
}

/// The hashes of one object's member names, to find a repeat where a
/// collision may pass for one (the caller then leaves the object to a
/// read that compares names). The first [`IN_PLACE`] are compared in
/// place; up to [`IN_TABLE`] go in a table, placed by their own bits; the
/// rest are looked up in the table and listed, and the list is sorted once
/// the object ends ([`NameHashes::all_distinct`]).
#[derive(Default)]
pub(crate) struct NameHashes {
    first: [u64; IN_PLACE],
    count: usize,
    table: HashTable<u64>,
    /// Hashes past the table's, not yet compared with one another.
    listed: Vec<u64>,
}

/// Hashes a table takes before the others are listed. Past the caches,
/// each insertion into a table of millions waits on memory; a list is
/// written in order and sorted once (bench/hostile.py's `repeat`: 1.6
/// million names). Repeats of a name among the first ones, the usual
/// mistake, are still found as they come.
const IN_TABLE: usize = 4096;

impl NameHashes {
    /// Adds `hash`; whether it was new, as far as is known yet: a hash
    /// listed past [`IN_TABLE`] is compared with the others listed only by
    /// [`NameHashes::all_distinct`].
    pub fn insert(&mut self, hash: u64) -> bool {
        if self.count < IN_PLACE {
            let (known, rest) = self.first.split_at_mut(self.count);
            if known.contains(&hash) {
                return false;
            }
            if let Some(slot) = rest.first_mut() {
                *slot = hash;
            }
            self.count += 1;
            return true;
        }
        if self.table.is_empty() {
            for known in self.first {
                self.table.insert_unique(known, known, |&known| known);
            }
        }
        if self.table.len() >= IN_TABLE {
            if self.table.find(hash, |&known| known == hash).is_some() {
                return false;
            }
            self.listed.push(hash);
            return true;
        }
        match self
            .table
            .entry(hash, |&known| known == hash, |&known| known)
        {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert(hash);
                true
            }
        }
    }

    /// Whether every hash added was new: what [`NameHashes::insert`] did
    /// not say yet, once the object has ended.
    pub fn all_distinct(&mut self) -> bool {
        self.listed.sort_unstable();
        !self.listed.windows(2).any(|pair| pair[0] == pair[1])
    }
}

/// Where `part`, a slice of `text`, starts in it (`None` for text from
/// elsewhere, or past 4 GiB).
pub(crate) fn offset_in(text: &str, part: &str) -> Option<u32> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    (start + part.len() <= text.len())
        .then(|| u32::try_from(start).ok())
        .flatten()
}

/// A JSON string as sent (quotes included), decoded: borrowed when it has
/// no escape. An unpaired surrogate escape is read as U+FFFD, the way the
/// suite reads one everywhere ([`super::interop`]), so that a name holding
/// half of a character is still a name (and `"\ud800"` and `"\udc00"` one
/// name, as a reader that replaces them sees it). `None` when `raw` is not
/// a JSON string.
pub(crate) fn decode(raw: &str) -> Option<Cow<'_, str>> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if memchr::memchr(b'\\', inner.as_bytes()).is_none() {
        return Some(Cow::Borrowed(inner));
    }
    super::interop::read_string(raw).map(|(name, _)| Cow::Owned(name))
}

/// The members named `fields` of the object `d` reads, each as its raw
/// value (by the field's place), the other members skipped. A name is read
/// as [`decode`] reads it, so that a member named with half of a character
/// is skipped like any other instead of failing the object (a derived
/// `Deserialize` fails on it: serde_json will not decode the name). A field
/// given twice fails the read, as a derived one does; so does anything but
/// an object (a derived struct would also read an array).
pub(crate) fn read_fields<'de, D: serde::Deserializer<'de>, const N: usize>(
    d: D,
    fields: &'static [&'static str; N],
) -> Result<[Option<&'de serde_json::value::RawValue>; N], D::Error> {
    use serde::de::{Error, IgnoredAny, MapAccess, Visitor};
    use serde_json::value::RawValue;
    struct Fields<const N: usize>(&'static [&'static str; N]);
    impl<'de, const N: usize> Visitor<'de> for Fields<N> {
        type Value = [Option<&'de RawValue>; N];
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut slots = [None; N];
            while let Some(raw) = map.next_key::<&'de RawValue>()? {
                let name = decode(raw.get())
                    .ok_or_else(|| A::Error::custom("a member name that is not a string"))?;
                let Some(at) = self.0.iter().position(|field| *field == name) else {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                };
                // `at` is a place in `fields`, and there are as many slots.
                if slots[at].is_some() {
                    return Err(A::Error::duplicate_field(self.0[at]));
                }
                slots[at] = Some(map.next_value::<&'de RawValue>()?);
            }
            Ok(slots)
        }
    }
    d.deserialize_map(Fields(fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw_names(text: &str) -> Vec<&str> {
        // Every quoted name before a colon, in a flat object of numbers.
        let mut out = Vec::new();
        let mut rest = text;
        let mut at = 0;
        while let Some(open) = rest.find('"') {
            let close = open + 1 + rest[open + 1..].find("\":").unwrap();
            out.push(&text[at + open..at + close + 1]);
            at += close + 1;
            rest = &text[at..];
        }
        out
    }

    #[test]
    fn names_are_counted_as_decoded() {
        let text = r#"{"a":1,"b":2,"\u0061":3,"a\/b":4,"a/b":5,"a":6}"#;
        let mut names = Names::new(text).unwrap();
        let counted: Vec<(u32, u32)> = raw_names(text)
            .into_iter()
            .map(|raw| names.add(raw).unwrap())
            .collect();
        assert_eq!(counted, [(0, 1), (1, 1), (0, 2), (2, 1), (2, 2), (0, 3)]);
        assert_eq!(names.len(), 3);
        assert_eq!((names.given(0), names.given(1), names.given(7)), (3, 1, 0));
    }

    #[test]
    fn half_a_character_is_read_as_u_fffd() {
        // Legal JSON serde_json will not decode: the name is still a name.
        assert_eq!(decode(r#""a\ud800b""#).as_deref(), Some("a\u{fffd}b"));
        assert_eq!(decode(r#""\udc00""#).as_deref(), Some("\u{fffd}"));
        assert_eq!(decode(r#""\ud83d\ude00""#).as_deref(), Some("\u{1f600}"));
        assert_eq!(decode("0"), None);
        let text = r#"{"\ud800":1,"\udc00":2,"\ufffd":3}"#;
        let mut names = Names::new(text).unwrap();
        let counted: Vec<(u32, u32)> = raw_names(text)
            .into_iter()
            .map(|raw| names.add(raw).unwrap())
            .collect();
        assert_eq!(counted, [(0, 1), (0, 2), (0, 3)], "one name, as replaced");
    }

    #[test]
    fn fields_are_read_past_any_name() {
        let read = |text: &'static str| {
            read_fields(&mut serde_json::Deserializer::from_str(text), &["a", "b"])
                .map(|slots| slots.map(|slot| slot.map(|raw| raw.get())))
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            read(r#"{"\ud800":[1],"\u0062":2,"c":{"a":0},"a":null}"#),
            Ok([Some("null"), Some("2")])
        );
        assert_eq!(read("{}"), Ok([None, None]));
        let repeated = read(r#"{"a":1,"b":2,"\u0061":3}"#).unwrap_err();
        assert!(repeated.starts_with("duplicate field `a`"), "{repeated}");
    }

    #[test]
    fn text_from_elsewhere_is_refused() {
        let text = r#"{"a":1}"#;
        let mut names = Names::new(text).unwrap();
        let elsewhere = String::from("\"a\"");
        assert_eq!(names.add(&elsewhere), None);
        assert_eq!(names.add(&text[1..3]), None, "not a whole string");
        assert_eq!(names.add(&text[1..4]), Some((0, 1)));
    }

    proptest::proptest! {
        /// Numbers and counts as a plain map of decoded names gives them,
        /// before the table is made (the first eight names), when it is
        /// made and after; some names are spelled with an escape.
        #[test]
        fn names_are_counted_as_a_map_counts_them(
            given in proptest::collection::vec((0u8..24, proptest::bool::ANY), 0..60)
        ) {
            let members: Vec<String> = given
                .iter()
                .map(|(n, escaped)| match escaped {
                    true => format!("\"\\u006e{n}\":0"),
                    false => format!("\"n{n}\":0"),
                })
                .collect();
            let text = format!("{{{}}}", members.join(","));
            let mut names = Names::new(&text).unwrap();
            let mut expected: std::collections::HashMap<u8, (u32, u32)> = Default::default();
            for ((n, _), raw) in given.iter().zip(raw_names(&text)) {
                let next = expected.len() as u32;
                let entry = expected.entry(*n).or_insert((next, 0));
                entry.1 += 1;
                proptest::prop_assert_eq!(names.add(raw), Some(*entry), "{}", text);
            }
            proptest::prop_assert_eq!(names.len(), expected.len());
        }
    }

    #[test]
    fn many_names_each_once() {
        let text: String = format!(
            "{{{}}}",
            (0..50_000)
                .map(|i| format!("\"{i:x}\":0"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut names = Names::new(&text).unwrap();
        for raw in raw_names(&text) {
            assert_eq!(names.add(raw).unwrap().1, 1);
        }
        assert_eq!(names.len(), 50_000);
    }

    /// A repeat is found as it comes among the first hashes and of them;
    /// between two hashes past the table's, once the object ends.
    #[test]
    fn name_hashes_find_every_repeat() {
        let hash = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let count = 3 * IN_TABLE as u64;
        let repeat_at = |earlier: u64, later: u64| {
            let mut hashes = NameHashes::default();
            let new: Vec<bool> = (0..count)
                .map(|i| hashes.insert(hash(if i == later { earlier } else { i })))
                .collect();
            (new, hashes.all_distinct())
        };
        // No repeat.
        let mut hashes = NameHashes::default();
        assert!((0..count).all(|i| hashes.insert(hash(i))));
        assert!(hashes.all_distinct());
        // In place, in the table, and a late hash repeating an early one:
        // found as they come.
        for (earlier, later) in [(2, 5), (100, 200), (100, 2 * IN_TABLE as u64)] {
            let (new, distinct) = repeat_at(earlier, later);
            let refused: Vec<usize> = (0..new.len()).filter(|&i| !new[i]).collect();
            assert_eq!(refused, [later as usize], "{earlier} {later}");
            assert!(distinct, "{earlier} {later}");
        }
        // Two late hashes: found at the end.
        let (new, distinct) = repeat_at(IN_TABLE as u64 + 10, 2 * IN_TABLE as u64);
        assert!(new.iter().all(|&new| new));
        assert!(!distinct);
    }

    /// Names whose kept 32 bits of hash are the same are told apart by
    /// their text. Among 400 000 names some 19 pairs share them (the test
    /// checks that some do: e^-19 of runs, about one in 10^8, would have
    /// none and fail).
    #[test]
    fn names_whose_hashes_collide_are_told_apart() {
        const N: usize = 400_000;
        let text: String = format!(
            "{{{}}}",
            (0..2 * N)
                .map(|i| format!("\"{:x}\":0", i % N))
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut names = Names::new(&text).unwrap();
        let raws = raw_names(&text);
        for (i, raw) in raws.iter().enumerate() {
            assert_eq!(
                names.add(raw).unwrap(),
                ((i % N) as u32, 1 + (i / N) as u32)
            );
        }
        assert_eq!(names.len(), N);
        let shorts: std::collections::HashSet<u32> =
            names.table.iter().map(|slot| slot.hash).collect();
        assert_eq!(names.table.len(), N);
        assert!(shorts.len() < N, "no two names shared their 32 bits");
    }
}
