//! Grammatical JSON whose meaning RFC 8259 leaves unpredictable: numbers
//! beyond the range of IEEE 754 doubles (`1e999`) and strings with an
//! unpaired UTF-16 surrogate escape (`"\ud800"`, what a JavaScript agent
//! writes when it cuts an emoji in half). serde_json refuses to build
//! either, so a payload holding one is found here, each at its pointer, and
//! rewritten into a readable one: an unpaired surrogate becomes U+FFFD (as
//! `\ufffd`, the same length) and a number beyond range the largest finite
//! double of its sign. The rules then judge the payload as read that way.

use crate::text::{member_pointer, shorten};

/// What was found, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpredictable {
    /// JSON pointer relative to the scanned value.
    pub pointer: String,
    /// Which of the two unpredictable things it is.
    pub kind: UnpredictableKind,
    /// The value as written (shortened).
    pub text: String,
}

/// The two kinds of grammatical JSON whose meaning RFC 8259 leaves to the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnpredictableKind {
    /// A number whose magnitude exceeds the largest finite double.
    NumberBeyondDouble,
    /// A `\uD800`-`\uDFFF` escape without its other half.
    UnpairedSurrogate,
}

/// The scan of one JSON value: what is unpredictable in it (at most
/// `limit` named, all counted) and the value rewritten readable, or `None`
/// when it holds nothing unpredictable (or is not JSON).
pub struct Scanned {
    /// What was found, in order, at most `limit` of them.
    pub found: Vec<Unpredictable>,
    /// How many were found in all, named or not (the report says how many it left out).
    pub total: usize,
    /// The value as the rules read it: surrogates as U+FFFD, numbers clamped to the largest
    /// finite double.
    pub readable: String,
}

/// Scan the (syntactically valid) JSON value `json`, and rewrite it
/// readable if it holds anything unpredictable.
pub fn scan(json: &str, limit: usize) -> Option<Scanned> {
    let (scanner, total) = Scanner::run(json, limit, true)?;
    let mut readable = scanner.out;
    readable.push_str(json.get(scanner.copied..)?);
    Some(Scanned {
        found: scanner.found,
        total,
        readable,
    })
}

/// What [`scan`] finds in `json` (at most `limit` named) and how many in
/// all, without the rewritten copy: for callers that only name them.
pub fn find(json: &str, limit: usize) -> Option<(Vec<Unpredictable>, usize)> {
    let (scanner, total) = Scanner::run(json, limit, false)?;
    Some((scanner.found, total))
}

/// Whether the JSON text `json` may hold what [`scan`] finds: a `\u`
/// escape of a surrogate, or a number a double may not hold (a positive
/// exponent of three digits or more, or a run of more than 200 digits:
/// below both, a number is under 10^299). A look at the bytes, so that
/// only such texts pay for the scan: strings are looked into only when the
/// bytes as a whole may hold such a number (a member name `"1e123"`).
pub fn may_hold_unpredictable(json: &[u8]) -> bool {
    let mut run = 0usize;
    let mut at = 0;
    // Most of a line is letters: eight bytes without a digit or a
    // backslash end any run of digits and hold nothing looked for (an
    // exponent needs a digit on either side).
    while let Some(word) = json.get(at..at + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        if has_digit_or_backslash(word) {
            for index in at..at + 8 {
                if let Some(found) = look_at(json, index, &mut run) {
                    return found || large_number_between_strings(json);
                }
            }
        } else {
            run = 0;
        }
        at += 8;
    }
    for index in at..json.len() {
        if let Some(found) = look_at(json, index, &mut run) {
            return found || large_number_between_strings(json);
        }
    }
    false
}

/// One byte of [`may_hold_unpredictable`]'s look (`run` counts the digits
/// in a row up to it): `Some(true)` at a surrogate escape, `Some(false)` at
/// what may be a number a double does not hold, strings and all.
#[inline]
fn look_at(json: &[u8], index: usize, run: &mut usize) -> Option<bool> {
    let byte = json.get(index).copied().unwrap_or_default();
    if byte.is_ascii_digit() {
        *run += 1;
        return (*run > LONGEST_DIGIT_RUN).then_some(false);
    }
    let digits_after = |from: usize| {
        let rest = json.get(from..).unwrap_or_default();
        rest.iter().take_while(|b| b.is_ascii_digit()).count()
    };
    let found = match byte {
        b'\\' => (json.get(index + 1) == Some(&b'u')
            && matches!(json.get(index + 2), Some(b'd' | b'D'))
            && matches!(
                json.get(index + 3),
                Some(b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
            ))
        .then_some(true),
        b'e' | b'E' if *run > 0 => {
            let sign = usize::from(json.get(index + 1) == Some(&b'+'));
            (digits_after(index + 1 + sign) >= 3).then_some(false)
        }
        _ => None,
    };
    *run = 0;
    found
}

/// Whether any of eight bytes may be an ASCII digit or a backslash (no
/// false negatives).
fn has_digit_or_backslash(word: u64) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // A digit is 0x30 + 0..=9: after the xor, a byte below 10.
    let digit = word ^ (ONES * 0x30);
    let backslash = word ^ (ONES * 0x5c);
    (digit.wrapping_sub(ONES * 10) & !digit | backslash.wrapping_sub(ONES) & !backslash) & HIGH != 0
}

/// Whether `json` may hold a number a double does not hold between its
/// strings, or a surrogate escape in them.
fn large_number_between_strings(json: &[u8]) -> bool {
    let mut inside = false;
    let mut between = 0;
    let mut escaped_until = 0;
    let mut run = 0;
    let mut outside = |text: &[u8]| {
        run = 0;
        (0..text.len()).any(|index| look_at(text, index, &mut run) == Some(false))
    };
    for at in memchr::memchr2_iter(b'"', b'\\', json) {
        if at < escaped_until {
            continue;
        }
        if json[at] == b'\\' {
            if look_at(json, at, &mut 0) == Some(true) {
                return true;
            }
            escaped_until = at + 2;
        } else if inside {
            inside = false;
            between = at + 1;
        } else if outside(json.get(between..at).unwrap_or_default()) {
            return true;
        } else {
            inside = true;
        }
    }
    !inside && outside(json.get(between..).unwrap_or_default())
}

/// Digits in a row below which a number with an exponent of two digits or
/// fewer stays within a double (see [`may_hold_unpredictable`]).
const LONGEST_DIGIT_RUN: usize = 200;

/// The value of the JSON string `json` (a string's text, quotes included):
/// an unpaired surrogate escape is read as U+FFFD, and then also said (the
/// first one found, for ENV-UNPAIRED-SURROGATE). `None` when `json` is not
/// a string, so that routing values (`method`, `sessionId`, ids) holding
/// half of a character are still read, the way the payload rules read them.
pub fn read_string(json: &str) -> Option<(String, Option<Unpredictable>)> {
    if let Ok(value) = serde_json::from_str::<String>(json) {
        return Some((value, None));
    }
    if !json.trim_start().starts_with('"') {
        return None;
    }
    let scanned = scan(json, 1)?;
    let value = serde_json::from_str::<String>(&scanned.readable).ok()?;
    Some((value, scanned.found.into_iter().next()))
}

/// Deepest nesting scanned (the line reader's limit is lower).
const MAX_DEPTH: usize = 256;

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Whether the text is rewritten (else only what is found is kept).
    rewrite: bool,
    /// The rewritten text up to `copied` (allocated at the first rewrite).
    out: String,
    copied: usize,
    found: Vec<Unpredictable>,
    total: usize,
    limit: usize,
}

impl<'a> Scanner<'a> {
    /// The scanner after reading `json` whole, and what it found in all;
    /// `None` when it found nothing (or `json` is not JSON).
    fn run(json: &'a str, limit: usize, rewrite: bool) -> Option<(Self, usize)> {
        let mut scanner = Scanner {
            bytes: json.as_bytes(),
            at: 0,
            rewrite,
            out: String::new(),
            copied: 0,
            found: Vec::new(),
            total: 0,
            limit,
        };
        let mut path = String::new();
        scanner.value(&mut path, 0)?;
        let total = scanner.total;
        (total > 0).then_some((scanner, total))
    }

    fn ws(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn value(&mut self, path: &mut String, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.bytes.get(self.at)? {
            b'{' => {
                self.at += 1;
                self.ws();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    self.ws();
                    let mut key = String::new();
                    self.string(path, Some(&mut key))?;
                    self.ws();
                    (self.bytes.get(self.at) == Some(&b':')).then_some(())?;
                    self.at += 1;
                    let len = path.len();
                    let child = member_pointer(path, &key);
                    path.clear();
                    path.push_str(&child);
                    self.value(path, depth + 1)?;
                    path.truncate(len);
                    self.ws();
                    match *self.bytes.get(self.at)? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.at += 1;
                self.ws();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Some(());
                }
                let mut index = 0usize;
                loop {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&index.to_string());
                    self.value(path, depth + 1)?;
                    path.truncate(len);
                    index += 1;
                    self.ws();
                    match *self.bytes.get(self.at)? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string(path, None),
            b't' | b'f' | b'n' => {
                while self.bytes.get(self.at).is_some_and(u8::is_ascii_alphabetic) {
                    self.at += 1;
                }
                Some(())
            }
            _ => self.number(path),
        }
    }

    fn number(&mut self, path: &str) -> Option<()> {
        let start = self.at;
        while matches!(
            self.bytes.get(self.at),
            Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
        ) {
            self.at += 1;
        }
        let text = std::str::from_utf8(self.bytes.get(start..self.at)?).ok()?;
        if text.is_empty() {
            return None;
        }
        let value: f64 = text.parse().ok()?;
        if value.is_infinite() {
            let largest = if value < 0.0 {
                "-1.7976931348623157e308"
            } else {
                "1.7976931348623157e308"
            };
            self.replace(start, self.at, largest);
            self.note(path, UnpredictableKind::NumberBeyondDouble, text);
        }
        Some(())
    }

    /// A string at `self.at` (its opening quote), decoded into `decoded`
    /// if given (a member name, for pointers; a value's text is not kept),
    /// with unpaired surrogates as U+FFFD (found at `path` for values; a
    /// member name's pointer is its object's).
    fn string(&mut self, path: &str, mut decoded: Option<&mut String>) -> Option<()> {
        let bytes = self.bytes;
        (bytes.get(self.at) == Some(&b'"')).then_some(())?;
        let start = self.at;
        self.at += 1;
        let mut units: Vec<u16> = Vec::new();
        let mut surrogates = false;
        loop {
            match *bytes.get(self.at)? {
                b'"' => {
                    if let Some(decoded) = decoded.as_deref_mut() {
                        flush(&mut units, decoded);
                    }
                    self.at += 1;
                    break;
                }
                b'\\' => {
                    let escape = *bytes.get(self.at + 1)?;
                    if escape == b'u' {
                        let hex = std::str::from_utf8(bytes.get(self.at + 2..self.at + 6)?).ok()?;
                        let unit = u16::from_str_radix(hex, 16).ok()?;
                        surrogates |= (0xD800..=0xDFFF).contains(&unit);
                        if decoded.is_some() {
                            units.push(unit);
                        }
                        self.at += 6;
                        continue;
                    }
                    if let Some(decoded) = decoded.as_deref_mut() {
                        flush(&mut units, decoded);
                        decoded.push(match escape {
                            b'n' => '\n',
                            b't' => '\t',
                            b'r' => '\r',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            other => char::from(other),
                        });
                    }
                    self.at += 2;
                }
                _ => {
                    // Up to the next quote or backslash at once: ASCII bytes,
                    // so the run is whole characters of the text.
                    let rest = bytes.get(self.at..)?;
                    let run = memchr::memchr2(b'"', b'\\', rest)?;
                    if let Some(decoded) = decoded.as_deref_mut() {
                        flush(&mut units, decoded);
                        decoded.push_str(std::str::from_utf8(rest.get(..run)?).ok()?);
                    }
                    self.at += run;
                }
            }
        }
        // Only a string with a surrogate escape may hold half of a pair.
        if surrogates && self.unpaired(start) {
            // The whole string is not copied to be shortened.
            let raw = std::str::from_utf8(bytes.get(start..self.at)?).unwrap_or_default();
            self.note(path, UnpredictableKind::UnpairedSurrogate, raw);
        }
        Some(())
    }

    /// Rewrite the unpaired surrogate escapes of the string that starts at
    /// `start` and was just read; whether there were any.
    fn unpaired(&mut self, start: usize) -> bool {
        let end = self.at;
        let mut i = start + 1;
        let mut lone = false;
        let mut pending_high: Option<usize> = None;
        while i < end - 1 {
            if pending_high.is_none() && self.bytes[i] != b'\\' {
                // Nothing pending between escapes: on to the next one.
                match memchr::memchr(b'\\', &self.bytes[i..end - 1]) {
                    Some(skip) => i += skip,
                    None => break,
                }
            }
            if self.bytes[i] == b'\\' {
                if self.bytes.get(i + 1) == Some(&b'u') {
                    let unit = std::str::from_utf8(&self.bytes[i + 2..i + 6])
                        .ok()
                        .and_then(|h| u16::from_str_radix(h, 16).ok())
                        .unwrap_or(0);
                    match unit {
                        0xD800..=0xDBFF => {
                            if let Some(high) = pending_high.replace(i) {
                                self.replace(high, high + 6, "\\ufffd");
                                lone = true;
                            }
                        }
                        0xDC00..=0xDFFF => {
                            if pending_high.take().is_none() {
                                self.replace(i, i + 6, "\\ufffd");
                                lone = true;
                            }
                        }
                        _ => {
                            if let Some(high) = pending_high.take() {
                                self.replace(high, high + 6, "\\ufffd");
                                lone = true;
                            }
                        }
                    }
                    i += 6;
                    continue;
                }
                if let Some(high) = pending_high.take() {
                    self.replace(high, high + 6, "\\ufffd");
                    lone = true;
                }
                i += 2;
                continue;
            }
            if let Some(high) = pending_high.take() {
                self.replace(high, high + 6, "\\ufffd");
                lone = true;
            }
            i += 1;
        }
        if let Some(high) = pending_high {
            self.replace(high, high + 6, "\\ufffd");
            lone = true;
        }
        lone
    }

    /// Copy the text up to `from`, then `with` instead of `from..to`.
    fn replace(&mut self, from: usize, to: usize, with: &str) {
        if !self.rewrite || from < self.copied {
            return;
        }
        if self.out.capacity() == 0 {
            self.out.reserve(self.bytes.len());
        }
        if let Some(text) = self.bytes.get(self.copied..from) {
            self.out.push_str(&String::from_utf8_lossy(text));
        }
        self.out.push_str(with);
        self.copied = to;
    }

    fn note(&mut self, path: &str, kind: UnpredictableKind, text: &str) {
        self.total += 1;
        if self.found.len() < self.limit {
            self.found.push(Unpredictable {
                pointer: path.to_owned(),
                kind,
                text: shorten(text, 40),
            });
        }
    }
}

/// Decode collected UTF-16 escape units (unpaired ones as U+FFFD).
fn flush(units: &mut Vec<u16>, decoded: &mut String) {
    if units.is_empty() {
        return;
    }
    decoded.extend(char::decode_utf16(units.drain(..)).map(|c| c.unwrap_or('\u{fffd}')));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_read_lossily_and_the_half_character_is_said() {
        assert_eq!(read_string(r#""s1""#), Some(("s1".into(), None)));
        assert_eq!(read_string(r#""a\u0062""#), Some(("ab".into(), None)));
        let (value, found) = read_string(r#""s\ud800""#).unwrap();
        assert_eq!(value, "s\u{fffd}");
        let found = found.unwrap();
        assert_eq!(found.kind, UnpredictableKind::UnpairedSurrogate);
        assert_eq!(found.pointer, "");
        // An emoji written whole is one character, not a finding.
        assert_eq!(
            read_string(r#""\ud83d\ude00""#),
            Some(("\u{1f600}".into(), None))
        );
        assert_eq!(read_string("5"), None);
        assert_eq!(read_string("{}"), None);
    }

    /// Whatever the scan finds, the look at the bytes says may be there;
    /// what holds nothing of the kind mostly passes.
    #[test]
    fn the_look_at_the_bytes_misses_nothing_the_scan_finds() {
        let long = format!("{{\"n\":{}}}", "9".repeat(309));
        let short = format!("{{\"n\":{}}}", "9".repeat(200));
        for (json, may) in [
            (r#"{"a":"\ud800"}"#, true),
            (r#"{"a":"\uDC00x"}"#, true),
            (r#"{"a":"\ud83d\ude00"}"#, true),
            (r#"{"a":1e999}"#, true),
            (r#"{"a":-1E+400}"#, true),
            (r#"{"a":0.5e0400}"#, true),
            (long.as_str(), true),
            (
                r#"{"a":"\u00e9","b":1e99,"c":-2.5E-400,"d":"file100"}"#,
                false,
            ),
            (short.as_str(), false),
            (r#"{"a":"plain text, e100 and 1e2"}"#, false),
            (r#"{"1e123":"9e999"}"#, false),
            (r#"{"a":"x\"","b":1e400}"#, true),
            (r#"{"a":"x\\","b":1e400}"#, true),
        ] {
            assert_eq!(may_hold_unpredictable(json.as_bytes()), may, "{json}");
            if scan(json, 8).is_some() {
                assert!(may, "{json}");
            }
        }
        assert!(scan(&long, 8).is_some());
        assert!(scan(&short, 8).is_none());
    }

    #[test]
    fn eight_bytes_without_a_digit_or_a_backslash_are_known_as_such() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..100_000 {
            let bytes: [u8; 8] = std::array::from_fn(|_| match rng.u8(0..5) {
                0 => rng.u8(b'0'..=b'9'),
                1 => rng.u8(b'/'..=b':'),
                2 => rng.u8(b'['..=b']'),
                _ => rng.u8(..),
            });
            if bytes.iter().any(|b| b.is_ascii_digit() || *b == b'\\') {
                assert!(
                    has_digit_or_backslash(u64::from_le_bytes(bytes)),
                    "{bytes:?}"
                );
            }
        }
        assert!(!has_digit_or_backslash(u64::from_le_bytes(*b"abc/:[]h")));
    }

    #[test]
    fn finds_and_rewrites() {
        let s = scan(
            r#"{"a":[1,1e999,-1e400],"b":"x\ud800y","c":"\ud83d\ude00","d":"\udc00"}"#,
            8,
        )
        .expect("found");
        let pointers: Vec<(&str, UnpredictableKind)> = s
            .found
            .iter()
            .map(|f| (f.pointer.as_str(), f.kind))
            .collect();
        assert_eq!(
            pointers,
            [
                ("/a/1", UnpredictableKind::NumberBeyondDouble),
                ("/a/2", UnpredictableKind::NumberBeyondDouble),
                ("/b", UnpredictableKind::UnpairedSurrogate),
                ("/d", UnpredictableKind::UnpairedSurrogate),
            ]
        );
        let value: serde_json::Value = serde_json::from_str(&s.readable).expect("readable");
        assert_eq!(value["b"], "x\u{fffd}y");
        assert_eq!(value["c"], "\u{1f600}");
        assert_eq!(value["a"][1].as_f64(), Some(f64::MAX));
        assert_eq!(value["a"][2].as_f64(), Some(-f64::MAX));
        assert!(scan(r#"{"a":"\ud83d\ude00","b":1e300}"#, 8).is_none());
        // An escaped backslash before `u` is not an escape.
        assert!(scan(r#"{"a":"\\ud800"}"#, 8).is_none());
    }

    /// Finding without rewriting names the same values, at the same
    /// pointers (member names decoded, their own halves of a character
    /// read as U+FFFD), and counts the same.
    #[test]
    fn finding_without_rewriting_finds_the_same() {
        let long = format!(
            r#"{{"t":"{}\ud83d","u":"{}"}}"#,
            "x".repeat(5000),
            "y\n".repeat(900)
        );
        for json in [
            r#"{"a\u0062":"\ud800","c":[1e999,"\ud83d\ude00",{"d\ud800":"\udc00x"}]}"#,
            r#"{"a":"\ud800\ud800\ud800","b":"\\ud800","c":"\u00e9\ud83d"}"#,
            r#"["\ud83d\u0041",-1e400,"\"\ud800\"",{"\ud800":0}]"#,
            r#"{"plain":"text","n":1e300}"#,
            long.as_str(),
        ] {
            for limit in [0, 1, 8] {
                let scanned = scan(json, limit);
                let found = find(json, limit);
                assert_eq!(
                    found,
                    scanned.as_ref().map(|s| (s.found.clone(), s.total)),
                    "{json}"
                );
            }
        }
        let (found, total) =
            find(r#"{"a\u0062":{"c\ud800":"\udc00"},"d":["\ud800",1]}"#, 8).expect("found");
        let at: Vec<&str> = found.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(at, ["/ab", "/ab/c\u{fffd}", "/d/0"]);
        assert_eq!(total, 3);
        assert_eq!(found[2].text, r#""\ud800""#);
    }
}
