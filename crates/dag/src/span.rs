//! Byte offsets of values in a JSON text, for line numbers in diagnostics.
//!
//! serde_json gives no spans. The crates that do (json-spanned-value,
//! jsonc-parser) would mean a second full parser or a different value type
//! for the whole pipeline; all we need is where each call object starts.
//! So the document is first validated by serde_json, and this scanner only
//! walks that (known good) text: it skips strings and nested containers and
//! never allocates per byte. On text that is not valid JSON it returns
//! `None`; it never panics or recurses.

/// One step of a path into the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// 1-based line numbers for byte offsets, counted forward from the last
/// offset asked (offsets of calls come in order), so memory stays flat
/// however many lines the text has.
#[derive(Debug)]
pub struct LineCounter<'t> {
    text: &'t [u8],
    offset: usize,
    line: u64,
}

impl<'t> LineCounter<'t> {
    pub fn new(text: &'t [u8]) -> Self {
        LineCounter {
            text,
            offset: 0,
            line: 1,
        }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&mut self, offset: usize) -> u64 {
        if offset < self.offset {
            self.offset = 0;
            self.line = 1;
        }
        let end = offset.min(self.text.len());
        let newlines = self
            .text
            .get(self.offset..end)
            .map_or(0, |skipped| skipped.iter().filter(|&&b| b == b'\n').count());
        self.line += newlines as u64;
        self.offset = end;
        self.line
    }
}

/// Offset of the value reached by following `path` from the root. With
/// duplicate keys the last one wins, as in serde_json.
pub fn locate(text: &[u8], path: &[Step<'_>]) -> Option<usize> {
    let mut at = skip_ws(text, 0);
    for step in path {
        at = match *step {
            Step::Key(key) => member(text, at, key)?,
            Step::Index(index) => elements(text, at)?.get(index).copied()?,
        };
    }
    Some(at)
}

/// Offsets of the elements of the array that starts at `at`.
pub fn elements(text: &[u8], at: usize) -> Option<Vec<usize>> {
    if text.get(at) != Some(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = skip_ws(text, at + 1);
    if text.get(i) == Some(&b']') {
        return Some(out);
    }
    loop {
        out.push(i);
        i = skip_ws(text, skip_value(text, i)?);
        match text.get(i)? {
            b',' => i = skip_ws(text, i + 1),
            b']' => return Some(out),
            _ => return None,
        }
    }
}

/// Offset of the value of member `key` in the object that starts at `at`.
fn member(text: &[u8], at: usize, key: &str) -> Option<usize> {
    if text.get(at) != Some(&b'{') {
        return None;
    }
    let mut found = None;
    let mut i = skip_ws(text, at + 1);
    if text.get(i) == Some(&b'}') {
        return None;
    }
    loop {
        let key_end = skip_string(text, i)?;
        let raw_key = text.get(i..key_end)?;
        i = skip_ws(text, key_end);
        if text.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(text, i + 1);
        if key_matches(raw_key, key) {
            found = Some(i);
        }
        i = skip_ws(text, skip_value(text, i)?);
        match text.get(i)? {
            b',' => i = skip_ws(text, i + 1),
            b'}' => return found,
            _ => return None,
        }
    }
}

/// Whether the quoted JSON string `raw` spells `key` (escapes decoded).
fn key_matches(raw: &[u8], key: &str) -> bool {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    if !inner.contains(&b'\\') {
        return inner == key.as_bytes();
    }
    serde_json::from_slice::<String>(raw).is_ok_and(|decoded| decoded == key)
}

fn skip_ws(text: &[u8], mut i: usize) -> usize {
    while matches!(text.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// End (exclusive) of the string that starts at `at`.
fn skip_string(text: &[u8], at: usize) -> Option<usize> {
    if text.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        match text.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// End (exclusive) of the value that starts at `at`. Iterative: nesting
/// depth costs a counter, not stack.
pub fn skip_value(text: &[u8], at: usize) -> Option<usize> {
    match text.get(at)? {
        b'"' => skip_string(text, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match text.get(i)? {
                    b'"' => {
                        i = skip_string(text, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while let Some(b) = text.get(i) {
                if matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_elements_of_nested_arrays() {
        let text = br#"{"output": {"calls": [9]}, "calls": [ {"a": "]}\"["}, [1, {"b": 2}], 3 ]}"#;
        let calls = locate(text, &[Step::Key("calls")]).unwrap();
        let starts = elements(text, calls).unwrap();
        let values: Vec<_> = starts
            .iter()
            .map(|&s| std::str::from_utf8(&text[s..skip_value(text, s).unwrap()]).unwrap())
            .collect();
        assert_eq!(values, [r#"{"a": "]}\"["}"#, r#"[1, {"b": 2}]"#, "3"]);
    }

    #[test]
    fn last_duplicate_key_wins_and_escaped_keys_match() {
        let text = br#"{"plan": [1], "\u0070lan": [2, 3]}"#;
        let at = locate(text, &[Step::Key("plan")]).unwrap();
        assert_eq!(elements(text, at).unwrap().len(), 2);
    }

    #[test]
    fn indexes_into_arrays_and_counts_lines() {
        let text =
            b"[\n {\"type\": \"state\"},\n {\"type\": \"plan\",\n  \"plan\": [\n   {}\n  ]}\n]";
        let at = locate(text, &[Step::Index(1), Step::Key("plan")]).unwrap();
        let first = elements(text, at).unwrap()[0];
        let mut lines = LineCounter::new(text);
        assert_eq!(lines.line_of(first), 5);
        assert_eq!(lines.line_of(0), 1, "going back restarts");
        assert_eq!(
            lines.line_of(usize::MAX),
            7,
            "past the end is the last line"
        );
    }

    #[test]
    fn broken_text_gives_none() {
        assert_eq!(
            locate(b"{\"calls\": [1,", &[Step::Key("calls")])
                .and_then(|at| elements(b"{\"calls\": [1,", at)),
            None
        );
        assert_eq!(locate(b"\"unterminated", &[Step::Key("x")]), None);
        assert_eq!(locate(b"", &[Step::Index(0)]), None);
    }
}
