//! Ids as maps hold them: short ones in the map's own bucket.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// Bytes of an id held in place: a UUID (36 bytes, the session ids of the
/// claude and codex traces in `corpus/traces`) and a little more.
const INLINE: usize = 38;

/// A session's or a plan's id as the client state and the validator key
/// their maps by. Up to 38 bytes are held in place, so that a map
/// finds the id by comparing it in its own bucket: with thousands of
/// sessions, an id behind a pointer is rarely in cache, and comparing it was
/// one more wait on memory for every message. `SmolStr` holds 23 bytes in
/// place, which real agents' UUIDs do not fit. A longer id is shared, and
/// compared behind its pointer. Hashes, compares and borrows as its `str`,
/// so maps keyed by it are looked up with a `&str`.
#[derive(Clone)]
pub struct Key(Repr);

#[derive(Clone)]
enum Repr {
    /// `len` bytes of `bytes`, whole characters of a `str`.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Shared(Arc<str>),
}

impl Key {
    /// The key of plan id `id`.
    pub fn new(id: &str) -> Key {
        let mut bytes = [0; INLINE];
        match (bytes.get_mut(..id.len()), u8::try_from(id.len())) {
            (Some(place), Ok(len)) => {
                place.copy_from_slice(id.as_bytes());
                Key(Repr::Inline { len, bytes })
            }
            _ => Key(Repr::Shared(Arc::from(id))),
        }
    }

    /// The plan id.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let bytes = bytes.get(..usize::from(*len)).unwrap_or_default();
                // SAFETY: `Key::new` copied these bytes from a `str`, whole,
                // and nothing changes them after.
                unsafe { std::str::from_utf8_unchecked(bytes) }
            }
            Repr::Shared(id) => id,
        }
    }
}

impl From<&str> for Key {
    fn from(id: &str) -> Key {
        Key::new(id)
    }
}

impl From<String> for Key {
    fn from(id: String) -> Key {
        match id.len() <= INLINE {
            true => Key::new(&id),
            false => Key(Repr::Shared(Arc::from(id))),
        }
    }
}

impl Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

/// As its `str`, as [`Borrow`] requires of a map's key.
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Key {}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Ids in place and shared read back, compare, hash and are found as
    /// their `str`, whatever their length or characters.
    #[test]
    fn keys_are_their_str() {
        let long = "x".repeat(INLINE + 1);
        let ids = [
            "",
            "s1",
            "01a207ad-a71d-7dc3-8ca9-7a85132e50aa",
            "é√ü🙂 in place",
            &"y".repeat(INLINE),
            &long,
            "🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂",
        ];
        let mut map = HashMap::new();
        for (n, id) in ids.iter().enumerate() {
            let key = Key::new(id);
            assert_eq!(key.as_str(), *id);
            assert_eq!(Key::from(id.to_string()), key);
            assert_eq!(key, *id);
            assert_eq!(format!("{key}"), *id);
            assert_eq!(format!("{key:?}"), format!("{id:?}"));
            let in_place = matches!(key.0, Repr::Inline { .. });
            assert_eq!(in_place, id.len() <= INLINE, "{id}");
            map.insert(key, n);
        }
        for (n, id) in ids.iter().enumerate() {
            assert_eq!(map.get(*id), Some(&n), "{id}");
        }
        assert_eq!(map.get("s2"), None);
        assert_ne!(Key::new("s1"), Key::new("s2"));
        assert_eq!(std::mem::size_of::<Key>(), 40);
    }
}
