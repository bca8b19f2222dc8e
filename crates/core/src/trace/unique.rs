//! Repeated member names inside a JSON value.
//!
//! serde_json keeps the last of two equal member names, the official ACP
//! crate rejects the object, and RFC 8259 leaves the outcome unpredictable.
//! The validator warns about repeats in the payloads it reads; it does not
//! check or apply a plan update with one, and elsewhere it reads the last
//! value, so that one party's repeat never makes it blame the other.

use super::names::{offset_in, NameHashes, Names};
use crate::text::pointer_token;
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::value::RawValue;
use std::fmt;

/// A member name that appears twice in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateMember {
    /// JSON pointer to the member, relative to the scanned value.
    pub pointer: String,
    /// The member name, decoded (escapes resolved, as a reader compares names).
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
    let mut path = Vec::new();
    let mut found = Vec::new();
    if limit == 0 {
        return found;
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let _ = Walker(Scan {
        json,
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
    struct Plain<'h>(&'h foldhash::fast::RandomState);
    impl Walk for Plain<'_> {
        fn array<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Walker(Plain(self.0)))?.is_some() {}
            Ok(())
        }
        fn object<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            // Names remembered as hashes: a collision only sends the value
            // to the exact checks.
            let mut seen = NameHashes::default();
            while let Some(hash) = map.next_key_seed(NameHash(self.0))? {
                if !seen.insert(hash) {
                    return Err(A::Error::custom("repeated member name"));
                }
                map.next_value_seed(Walker(Plain(self.0)))?;
            }
            if !seen.all_distinct() {
                return Err(A::Error::custom("repeated member name"));
            }
            Ok(())
        }
    }
    let hasher = foldhash::fast::RandomState::default();
    let mut de = serde_json::Deserializer::from_str(json);
    Walker(Plain(&hasher)).deserialize(&mut de).is_ok() && de.end().is_ok()
}

/// A member name's hash, taken from the text serde_json hands over (the
/// line's own, or its decoding of the escapes), never copied into a
/// `String` of its own (serde reads a `Cow<str>` that way).
struct NameHash<'h>(&'h foldhash::fast::RandomState);

impl<'de> DeserializeSeed<'de> for NameHash<'_> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for NameHash<'_> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<u64, E> {
        use std::hash::BuildHasher;
        Ok(self.0.hash_one(name))
    }
}

/// Readings of one value checked at most (see [`readings`]).
pub const MAX_READINGS: usize = 8;

/// Every member name the object `json` itself repeats, once each, in
/// order (members of its members are not looked at). Text that is not a
/// JSON object has none.
pub fn duplicate_keys(json: &str) -> Vec<DuplicateMember> {
    let text = json.trim();
    let mut repeated = Vec::new();
    let Some(mut names) = Names::new(text) else {
        return repeated;
    };
    let read = each_raw_member(text, |name, _| {
        if names.add(name)?.1 == 2 {
            let key = super::names::decode(name)?.into_owned();
            repeated.push(DuplicateMember {
                pointer: format!("/{}", pointer_token(&key)),
                key,
            });
        }
        Some(())
    });
    if read.is_none() {
        repeated.clear();
    }
    repeated
}

/// Whether the object `json` gives a member named one of `names` (at its
/// top level), without listing its names.
pub fn gives_member(json: &str, names: &[&str]) -> bool {
    let mut found = false;
    let _ = each_raw_member(json.trim(), |name, _| {
        found |= super::names::decode(name).is_some_and(|name| names.contains(&name.as_ref()));
        (!found).then_some(())
    });
    found
}

/// Hands each member of the object `json` to `each` in order, repeats
/// included: its name decoded and its value raw (values are skipped, not
/// built, and no list of members is made). Stops when `each` gives `None`;
/// `None` for text that is not one JSON object, or when stopped.
pub fn each_member<'a>(
    json: &'a str,
    mut each: impl FnMut(&str, &'a RawValue) -> Option<()>,
) -> Option<()> {
    each_raw_member(json.trim(), |name, value| {
        each(&super::names::decode(name)?, value)
    })
}

/// Every value of member `name` of the object `json`, in order (none for
/// text that is not a JSON object).
pub fn members_named<'a>(json: &'a str, name: &str) -> Vec<&'a RawValue> {
    let mut values = Vec::new();
    if each_member(json, |given, value| {
        if given == name {
            values.push(value);
        }
        Some(())
    })
    .is_none()
    {
        values.clear();
    }
    values
}

/// Hands each element of the array `json` to `each` in order, raw, without
/// a list of them. Stops when `each` gives `None`; `None` for text that is
/// not one JSON array, or when stopped.
pub fn each_element<'a>(json: &'a str, each: impl FnMut(&'a RawValue) -> Option<()>) -> Option<()> {
    let text = json.trim();
    if !text.starts_with('[') {
        return None;
    }
    each_raw_element(text, each)
}

/// The distinct readings of a JSON value whose objects repeat member names
/// (see [`readings`]): what a checker that reads a value "under every
/// reading" reads, each text once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Readings {
    /// Each distinct reading once, in order (of equal ones, the last);
    /// the last keeps every repeated member's last value (what serde_json
    /// and JavaScript read).
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
/// member is read in readings of its own. Text is copied as sent (names,
/// strings and numbers are not re-encoded, whitespace inside a member is
/// kept), and parts without repeats are copied whole. At most
/// [`MAX_READINGS`]: beyond that, the first ones and the last. Equal
/// readings are given once, at the place of the last of them, so the last
/// reading is always every last value.
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
pub fn each_reading(json: &str, read: impl FnMut(&str)) -> bool {
    let mut cut = false;
    let Some((shape, count)) = Shape::of(json, &mut cut) else {
        return false;
    };
    read_each(&shape, count, json.len(), cut, read)
}

/// [`each_reading`] of the object `json`'s top level only: each repeated
/// name's values in turn, every value copied as sent (repeats deeper down
/// are left for the layer that reads them). Whether every value was read;
/// `None` (and no reading) for text that is not a JSON object.
pub fn each_top_level_reading(json: &str, read: impl FnMut(&str)) -> Option<bool> {
    let mut cut = false;
    let text = json.trim();
    if !text.starts_with('{') {
        return None;
    }
    let (shape, count) = Composite::object(text, true, &mut cut)?;
    Some(read_each(&shape, count, json.len(), cut, read))
}

/// Hands each distinct reading of `shape` to `read` (see [`each_reading`]).
fn read_each(
    shape: &Shape<'_>,
    count: usize,
    longest: usize,
    cut: bool,
    mut read: impl FnMut(&str),
) -> bool {
    let mut complete = !cut;
    // Readings are told apart by the value they hold, not by their text:
    // `{"id":2,"id": 2}` is one reading (`super::value`). A reading is known
    // again by its value's hash, then compared with the other one written
    // anew: exact, without keeping the texts. Of equal readings the last is
    // the one read, so that the last read is still reading `count - 1`,
    // every last value (what serde_json keeps, and what the validator
    // applies): `{"c":[],"c":0,"c":[]}` reads `{"c":0}`, then `{"c":[]}`.
    let keys = std::collections::hash_map::RandomState::new();
    // Each as long as the text at most (a reading drops members): no
    // doubling past it.
    let mut text = String::with_capacity(longest);
    let mut later = String::new();
    let key = |text: &str| {
        // Not read by serde_json: only the same text is the same.
        super::value::value_hash(text, &keys).unwrap_or_else(|| {
            use std::hash::BuildHasher;
            keys.hash_one(text)
        })
    };
    let hashes: Vec<Option<u64>> = (0..count)
        .map(|j| {
            text.clear();
            shape.write(j, &mut text).map(|()| key(&text))
        })
        .collect();
    for (j, hash) in hashes.iter().enumerate() {
        let Some(hash) = hash else {
            complete = false;
            continue;
        };
        text.clear();
        if shape.write(j, &mut text).is_none() {
            complete = false;
            continue;
        }
        let read_later = hashes.iter().enumerate().skip(j + 1).any(|(k, known)| {
            *known == Some(*hash) && {
                later.clear();
                later.reserve_exact(text.len());
                shape.write(k, &mut later).is_some() && super::value::same_value(&text, &later)
            }
        });
        if !read_later {
            read(&text);
        }
    }
    complete
}

/// Where a reading is written.
trait Sink {
    fn push_str(&mut self, text: &str);
}

impl Sink for String {
    fn push_str(&mut self, text: &str) {
        String::push_str(self, text);
    }
}

/// A value whose readings are counted, read once: what is the same in every
/// reading is kept as a place in the text, and each reading is written from
/// it on its own, so that a line costs its readings and no more.
enum Shape<'a> {
    /// The same in every reading (no repeat inside).
    Whole(&'a str),
    Composite(Box<Composite<'a>>),
}

/// `Piece::group` of a member (or element) in every reading.
const EVERY: u32 = u32::MAX;

/// An object or array with a repeat inside: its members (or elements) in
/// order, a run of those the same in every reading kept as one piece.
/// Offsets are into `text`, 32 bits each: a hostile object of a million
/// members repeating one name costs its varying members and no more.
struct Composite<'a> {
    text: &'a str,
    object: bool,
    pieces: Vec<Piece>,
    /// The pieces whose value has readings of its own, in order.
    nested: Vec<Nested<'a>>,
    /// Each repeated member name, by `Piece::group`.
    groups: Vec<Group>,
}

/// Members or elements as sent, from a member's name (or an element's
/// value) to the end of the last value: one varying member, or a run of
/// them in every reading.
#[derive(Clone, Copy)]
struct Piece {
    start: u32,
    end: u32,
    /// The repeated name this member gives, or [`EVERY`].
    group: u32,
    /// Its place among the members giving that name (0 for the first).
    nth: u32,
}

struct Nested<'a> {
    /// The piece (one member or element) whose value this is.
    piece: u32,
    /// Where the value starts (after the member's name and colon).
    value: u32,
    shape: Shape<'a>,
    /// Its readings.
    count: usize,
}

/// The members giving one repeated name.
#[derive(Clone, Copy)]
struct Group {
    members: u32,
    /// Their readings taken in turn (before the cap).
    total: usize,
}

/// What reading `j` keeps of one repeated name while it is being found.
#[derive(Clone, Copy)]
enum Choice {
    /// The `place`-th of its members' readings taken in turn, not found yet.
    Place(usize),
    /// The last reading of its last member.
    Last,
    /// This member (by `nth`), with this reading of its value.
    Member(u32, usize),
}

impl<'a> Shape<'a> {
    /// `json` and how many readings it has (at most [`MAX_READINGS`];
    /// `cut` is set when it has more). `None` for text that is not JSON.
    fn of(json: &'a str, cut: &mut bool) -> Option<(Shape<'a>, usize)> {
        let text = json.trim();
        match text.as_bytes().first() {
            Some(b'{' | b'[') => Shape::of_value(text, cut),
            _ => {
                serde_json::from_str::<IgnoredAny>(text).ok()?;
                Some((Shape::Whole(text), 1))
            }
        }
    }

    /// [`Shape::of`] a value that serde_json has read as one (a member's or
    /// an element's raw text), so it is JSON and has no whitespace around.
    fn of_value(text: &'a str, cut: &mut bool) -> Option<(Shape<'a>, usize)> {
        match text.as_bytes().first() {
            Some(b'{') => Composite::object(text, false, cut),
            Some(b'[') => Composite::array(text, cut),
            _ => Some((Shape::Whole(text), 1)),
        }
    }

    /// Reading `j` (see [`readings`]) written to `out`.
    fn write(&self, j: usize, out: &mut impl Sink) -> Option<()> {
        match self {
            Shape::Whole(text) => out.push_str(text),
            Shape::Composite(composite) => composite.write(j, out)?,
        }
        Some(())
    }
}

impl<'a> Composite<'a> {
    /// The object `text`; with `shallow`, its members' values are kept as
    /// sent (the top level's readings, repeats deeper down left for the
    /// layer that reads them).
    fn object(text: &'a str, shallow: bool, cut: &mut bool) -> Option<(Shape<'a>, usize)> {
        let mut names = Names::new(text)?;
        // Each member: its name's number, where the name starts and where
        // the value ends.
        let mut members: Vec<(u32, u32, u32)> = Vec::new();
        // The members whose value has readings of its own (`piece` is the
        // member's index until the pieces are laid out).
        let mut nested: Vec<Nested<'a>> = Vec::new();
        let mut repeats = false;
        each_raw_member(text, |name, value| {
            let value = value.get();
            let (number, given) = names.add(name)?;
            repeats |= given > 1;
            let (shape, count) = if shallow {
                (Shape::Whole(value), 1)
            } else {
                Shape::of_value(value, cut)?
            };
            let start = offset_in(text, name)?;
            let value_start = offset_in(text, value)?;
            let end = value_start.checked_add(u32::try_from(value.len()).ok()?)?;
            if count > 1 {
                let piece = u32::try_from(members.len()).ok()?;
                nested.push(Nested {
                    piece,
                    value: value_start,
                    shape,
                    count,
                });
            }
            members.push((number, start, end));
            Some(())
        })?;
        if !repeats && nested.is_empty() {
            return Some((Shape::Whole(text), 1));
        }
        // Lay out the pieces: a run of members in every reading is one.
        let nested_at = |nested: &[Nested<'_>], cursor: usize, member: usize| {
            nested
                .get(cursor)
                .filter(|n| n.piece as usize == member)
                .map(|n| n.count)
        };
        let mut count_pieces = 0usize;
        let (mut in_run, mut cursor) = (false, 0usize);
        for (member, &(number, _, _)) in members.iter().enumerate() {
            let inner = nested_at(&nested, cursor, member);
            cursor += usize::from(inner.is_some());
            if names.given(number) > 1 || inner.is_some() {
                count_pieces += 1;
                in_run = false;
            } else if !in_run {
                count_pieces += 1;
                in_run = true;
            }
        }
        let mut pieces: Vec<Piece> = Vec::with_capacity(count_pieces);
        let mut groups: Vec<Group> = Vec::new();
        let mut group_of: Vec<u32> = vec![EVERY; names.len()];
        let (mut in_run, mut cursor) = (false, 0usize);
        let mut count = 1;
        for (member, &(number, start, end)) in members.iter().enumerate() {
            let inner = nested_at(&nested, cursor, member);
            if names.given(number) <= 1 && inner.is_none() {
                extend_run(&mut pieces, &mut in_run, start, end);
                continue;
            }
            in_run = false;
            let readings = inner.unwrap_or(1);
            let (group, nth) = if names.given(number) > 1 {
                let slot = group_of.get_mut(number as usize)?;
                if *slot == EVERY {
                    *slot = u32::try_from(groups.len()).ok()?;
                    groups.push(Group {
                        members: 0,
                        total: 0,
                    });
                }
                let group = groups.get_mut(*slot as usize)?;
                let nth = group.members;
                group.members += 1;
                group.total += readings;
                (*slot, nth)
            } else {
                count = count.max(readings);
                (EVERY, 0)
            };
            if inner.is_some() {
                nested.get_mut(cursor)?.piece = u32::try_from(pieces.len()).ok()?;
                cursor += 1;
            }
            pieces.push(Piece {
                start,
                end,
                group,
                nth,
            });
        }
        drop((names, members, group_of));
        for group in &groups {
            *cut |= group.total > MAX_READINGS;
            count = count.max(group.total.min(MAX_READINGS));
        }
        let composite = Composite {
            text,
            object: true,
            pieces,
            nested,
            groups,
        };
        Some((Shape::Composite(Box::new(composite)), count))
    }

    fn array(text: &'a str, cut: &mut bool) -> Option<(Shape<'a>, usize)> {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut nested: Vec<Nested<'a>> = Vec::new();
        let mut in_run = false;
        each_raw_element(text, |element| {
            let element = element.get();
            let (shape, count) = Shape::of_value(element, cut)?;
            let start = offset_in(text, element)?;
            let end = start.checked_add(u32::try_from(element.len()).ok()?)?;
            if count == 1 {
                extend_run(&mut pieces, &mut in_run, start, end);
                return Some(());
            }
            in_run = false;
            nested.push(Nested {
                piece: u32::try_from(pieces.len()).ok()?,
                value: start,
                shape,
                count,
            });
            pieces.push(Piece {
                start,
                end,
                group: EVERY,
                nth: 0,
            });
            Some(())
        })?;
        if nested.is_empty() {
            return Some((Shape::Whole(text), 1));
        }
        pieces.shrink_to_fit();
        let count = nested.iter().map(|n| n.count).max().unwrap_or(1);
        let composite = Composite {
            text,
            object: false,
            pieces,
            nested,
            groups: Vec::new(),
        };
        Some((Shape::Composite(Box::new(composite)), count))
    }

    /// Reading `j`: for each repeated name, the `j`-th of the readings of
    /// its values taken in turn (the last once they run out; past the cap,
    /// the last stands in the cap's last place); every other member, and
    /// each element, with its value's `j`-th reading likewise.
    fn write(&self, j: usize, out: &mut impl Sink) -> Option<()> {
        let chosen = self.choose(j)?;
        let (open, close) = if self.object { ("{", "}") } else { ("[", "]") };
        out.push_str(open);
        let mut nested = self.nested.iter().peekable();
        let mut first = true;
        for (index, piece) in self.pieces.iter().enumerate() {
            let inner = nested.next_if(|n| n.piece as usize == index);
            let reading = if piece.group == EVERY {
                inner.map_or(0, |n| j.min(n.count - 1))
            } else {
                match chosen.get(piece.group as usize)? {
                    Choice::Member(nth, reading) if *nth == piece.nth => *reading,
                    _ => continue,
                }
            };
            if !first {
                out.push_str(",");
            }
            first = false;
            match inner {
                None => out.push_str(self.text.get(piece.start as usize..piece.end as usize)?),
                Some(n) => {
                    out.push_str(self.text.get(piece.start as usize..n.value as usize)?);
                    n.shape.write(reading, out)?;
                }
            }
        }
        out.push_str(close);
        Some(())
    }

    /// Which member of each repeated name reading `j` keeps, and which of
    /// its value's readings.
    fn choose(&self, j: usize) -> Option<Vec<Choice>> {
        let mut walk = false;
        let mut chosen: Vec<Choice> = self
            .groups
            .iter()
            .map(|group| {
                let places = group.total.min(MAX_READINGS);
                let place = j.min(places - 1);
                let simple = group.total == group.members as usize;
                match (place == places - 1, simple) {
                    (true, true) => Choice::Member(group.members - 1, 0),
                    (false, true) => Choice::Member(place as u32, 0),
                    (true, false) => {
                        walk = true;
                        Choice::Last
                    }
                    (false, false) => {
                        walk = true;
                        Choice::Place(place)
                    }
                }
            })
            .collect();
        if !walk {
            return Some(chosen);
        }
        // Some repeated name has a value with readings of its own: its
        // members' readings are counted in turn.
        let mut before = vec![0usize; self.groups.len()];
        let mut nested = self.nested.iter().peekable();
        for (index, piece) in self.pieces.iter().enumerate() {
            let inner = nested.next_if(|n| n.piece as usize == index);
            if piece.group == EVERY {
                continue;
            }
            let readings = inner.map_or(1, |n| n.count);
            let group = piece.group as usize;
            let members = self.groups.get(group)?.members;
            let choice = chosen.get_mut(group)?;
            let seen = before.get_mut(group)?;
            match *choice {
                Choice::Last if piece.nth == members - 1 => {
                    *choice = Choice::Member(piece.nth, readings - 1);
                }
                Choice::Place(place) if place < *seen + readings => {
                    *choice = Choice::Member(piece.nth, place - *seen);
                }
                _ => {}
            }
            *seen += readings;
        }
        Some(chosen)
    }
}

/// A member or element the same in every reading, from `start` to `end`:
/// the end of the run before it when there is one (`in_run`), else a run
/// of its own.
fn extend_run(pieces: &mut Vec<Piece>, in_run: &mut bool, start: u32, end: u32) {
    match pieces.last_mut() {
        Some(last) if *in_run => last.end = end,
        _ => {
            pieces.push(Piece {
                start,
                end,
                group: EVERY,
                nth: 0,
            });
            *in_run = true;
        }
    }
}

/// Hands each member of the object `text` to `each`: its name as sent
/// (quotes included, a slice of `text`) and its value. `None` for text
/// that is not one JSON object, or when `each` gives `None`.
fn each_raw_member<'a>(
    text: &'a str,
    each: impl FnMut(&'a str, &'a RawValue) -> Option<()>,
) -> Option<()> {
    struct Members<F>(F);
    impl<'de, F: FnMut(&'de str, &'de RawValue) -> Option<()>> Visitor<'de> for Members<F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
            while let Some(name) = map.next_key::<&'de RawValue>()? {
                let value = map.next_value::<&'de RawValue>()?;
                (self.0)(name.get(), value).ok_or_else(|| A::Error::custom("stopped"))?;
            }
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Members(each)).ok()?;
    de.end().ok()
}

/// Hands each element of the array `text` to `each` (a slice of `text`).
/// `None` for text that is not one JSON array, or when `each` gives `None`.
fn each_raw_element<'a>(text: &'a str, each: impl FnMut(&'a RawValue) -> Option<()>) -> Option<()> {
    struct Elements<F>(F);
    impl<'de, F: FnMut(&'de RawValue) -> Option<()>> Visitor<'de> for Elements<F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
            while let Some(element) = seq.next_element::<&'de RawValue>()? {
                (self.0)(element).ok_or_else(|| A::Error::custom("stopped"))?;
            }
            Ok(())
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_seq(Elements(each)).ok()?;
    de.end().ok()
}

/// The value of member `key` of the object `json`; when the name repeats,
/// the last one (as serde_json's maps and JavaScript read it). `None` for a
/// missing member or text that is not a JSON object.
pub fn last_member<'a>(json: &'a str, key: &str) -> Option<&'a RawValue> {
    let mut last = None;
    each_member(json, |name, value| {
        if name == key {
            last = Some(value);
        }
        Some(())
    })?;
    last
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
/// Names are counted in place ([`Names`]): a hostile object of millions of
/// members costs a few bytes a name, and a name is decoded only to report
/// its repeat.
struct Scan<'s> {
    json: &'s str,
    path: &'s mut Vec<Step>,
    found: &'s mut Vec<DuplicateMember>,
    limit: usize,
}

/// One step of the path to a value: a member name (where it is in the
/// scanned text, as sent) or an element's index.
enum Step {
    Name(usize, usize),
    Index(usize),
}

impl Scan<'_> {
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for step in self.path.iter() {
            pointer.push('/');
            match step {
                Step::Name(start, end) => {
                    let raw = self.json.get(*start..*end).unwrap_or_default();
                    let name = super::names::decode(raw).unwrap_or_default();
                    pointer.push_str(&pointer_token(&name));
                }
                Step::Index(index) => pointer.push_str(&index.to_string()),
            }
        }
        pointer
    }

    fn inner(&mut self) -> Scan<'_> {
        Scan {
            json: self.json,
            path: &mut *self.path,
            found: &mut *self.found,
            limit: self.limit,
        }
    }
}

impl Walk for Scan<'_> {
    fn array<'de, A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            self.path.push(Step::Index(index));
            let more = seq.next_element_seed(Walker(self.inner()))?;
            self.path.pop();
            if more.is_none() {
                break;
            }
            index += 1;
        }
        Ok(())
    }

    fn object<'de, A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut names = Names::new(self.json).ok_or_else(|| A::Error::custom("text past 4 GiB"))?;
        while let Some(name) = map.next_key::<&'de RawValue>()? {
            let raw = name.get();
            let (_, given) = names
                .add(raw)
                .ok_or_else(|| A::Error::custom("a name outside the text"))?;
            let start = offset_in(self.json, raw)
                .ok_or_else(|| A::Error::custom("a name outside the text"))?
                as usize;
            self.path.push(Step::Name(start, start + raw.len()));
            // Reported once per object, at its first repeat.
            if given == 2 {
                let key = super::names::decode(raw).unwrap_or_default().into_owned();
                self.found.push(DuplicateMember {
                    pointer: self.pointer(),
                    key,
                });
                if self.found.len() >= self.limit {
                    return Err(A::Error::custom("enough repeats found"));
                }
            }
            map.next_value_seed(Walker(self.inner()))?;
            self.path.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;
    use std::collections::HashSet;

    /// Objects past the hashes a table takes: a repeat anywhere is found,
    /// as the exact read finds it.
    #[test]
    fn a_repeat_among_thousands_of_members_is_found() {
        let object = |names: &[String]| {
            let members: Vec<String> = names.iter().map(|n| format!("\"{n}\":0")).collect();
            format!("{{{}}}", members.join(","))
        };
        let names: Vec<String> = (0..20_000).map(|i| format!("m{i}")).collect();
        assert!(is_plain(&object(&names)));
        for (earlier, later) in [(3, 7), (3, 15_000), (12_000, 15_000)] {
            let mut repeated = names.clone();
            repeated[later] = names[earlier].clone();
            let text = object(&repeated);
            assert!(!is_plain(&text), "{earlier} {later}");
            assert!(first_duplicate_member(&text).is_some(), "{earlier} {later}");
        }
    }

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

        /// The quick walk and the exact one agree on repeats: a value is
        /// plain exactly when no object in it repeats a name.
        #[test]
        fn a_value_is_plain_when_nothing_repeats(tree in tree()) {
            let (mut leaves, mut text) = (0, String::new());
            write(&tree, &mut leaves, &mut text);
            prop_assert_eq!(is_plain(&text), first_duplicate_member(&text).is_none(), "{}", text);
        }

        /// The same for objects large enough to need the table: names
        /// from a wider set, some spelled with an escape (`"\u006e1"` is
        /// `"n1"`), at either end of the first few.
        #[test]
        fn a_large_object_is_plain_when_nothing_repeats(
            names in prop::collection::vec((0u8..48, any::<bool>()), 0..40)
        ) {
            let members: Vec<String> = names
                .iter()
                .map(|(n, escaped)| {
                    let name = if *escaped { format!("\\u006e{n}") } else { format!("n{n}") };
                    format!("\"{name}\":{{\"a\":{n}}}")
                })
                .collect();
            let text = format!("{{{}}}", members.join(","));
            prop_assert_eq!(is_plain(&text), first_duplicate_member(&text).is_none(), "{}", text);
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
        // Members are copied as sent, names and whitespace included; the
        // separators between them are the reading's own.
        assert_eq!(
            readings(r#"{ "a" : 1 , "\u0062" : [ 1 ] , "a" : 2 }"#).texts,
            [
                r#"{"a" : 1,"\u0062" : [ 1 ]}"#,
                r#"{"\u0062" : [ 1 ],"a" : 2}"#
            ]
        );
        // Equal readings are given once, at the place of the last.
        assert_eq!(
            readings(r#"{"c":[],"c":0,"c":[]}"#).texts,
            [r#"{"c":0}"#, r#"{"c":[]}"#]
        );
        // Equal by value, not by text: one reading, however each is spelled.
        assert_eq!(
            readings(r#"{"id":2,"id": 2.0e0,"m":"x","m":"\u0078"}"#).texts,
            [r#"{"id": 2.0e0,"m":"\u0078"}"#]
        );
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
    fn members_and_elements_are_read_in_order_without_a_list() {
        let json = r#" {"method":"a","id":1,"\u006dethod":"b","x":{"method":"c"}} "#;
        let named: Vec<&str> = members_named(json, "method")
            .into_iter()
            .map(RawValue::get)
            .collect();
        assert_eq!(named, [r#""a""#, r#""b""#], "decoded, top level only");
        assert!(members_named(r#"{"method":"a""#, "method").is_empty());
        assert!(gives_member(json, &["id", "z"]));
        assert!(!gives_member(json, &["z"]));
        // Stopping early reads no further.
        let mut seen = Vec::new();
        let stopped = each_member(json, |name, _| {
            seen.push(name.to_owned());
            (seen.len() < 2).then_some(())
        });
        assert_eq!((stopped, seen), (None, vec!["method".into(), "id".into()]));
        let mut elements = Vec::new();
        assert_eq!(
            each_element("[1, {\"a\":2} ,[]]", |e| {
                elements.push(e.get().to_owned());
                Some(())
            }),
            Some(())
        );
        assert_eq!(elements, ["1", r#"{"a":2}"#, "[]"]);
        assert_eq!(each_element(r#"{"a":1}"#, |_| Some(())), None);
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
