//! Text helpers every layer uses: shortening, snippets, JSON pointer tokens,
//! JSON type names. A leaf: it imports nothing of the crate.

/// Widest snippet of a line shown in a report.
const SNIPPET_CHARS: usize = 140;

/// A window of `line` that shows the member `pointer` names, at most
/// `SNIPPET_CHARS` characters, with `…` where it was cut.
pub fn snippet(line: &[u8], pointer: &str) -> String {
    // Most lines are UTF-8: checked at `from_utf8`'s speed, not the
    // lossy decoder's (the text is the same).
    let text = match std::str::from_utf8(line) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(line),
    };
    let text = text.trim_end();
    // One pass to find the focus, the rest within the window: lines can be
    // megabytes long and carry many diagnostics.
    if text.chars().nth(SNIPPET_CHARS).is_none() {
        return text.to_owned();
    }
    // Centre on the last pointer token that appears as a quoted key.
    let focus = pointer
        .rsplit('/')
        .filter(|t| !t.is_empty() && !t.bytes().all(|b| b.is_ascii_digit()))
        .find_map(|t| {
            let key = format!("\"{}\"", unescape_pointer_token(t));
            text.rfind(&key)
        })
        .unwrap_or(0);
    // A third of the window before the focus.
    let start = text
        .get(..focus)
        .and_then(|before| before.char_indices().rev().nth(SNIPPET_CHARS / 3 - 1))
        .map_or(0, |(i, _)| i);
    let window = text.get(start..).unwrap_or_default();
    let end = window
        .char_indices()
        .nth(SNIPPET_CHARS)
        .map_or(window.len(), |(i, _)| i);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(window.get(..end).unwrap_or_default());
    if end < window.len() {
        out.push('…');
    }
    out
}

/// The JSON type of a value, as messages name it ("an object", "a number").
pub fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The JSON type of a raw (valid) JSON value, named as [`json_type`] does.
pub(crate) fn json_type_of_raw(raw: &str) -> &'static str {
    match raw.trim_start().as_bytes().first() {
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        Some(b'"') => "a string",
        Some(b'[') => "an array",
        Some(b'{') => "an object",
        _ => "a number",
    }
}

/// Cut `text` to at most `max` characters, marking the cut.
pub fn shorten(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

/// Escape one JSON pointer reference token (RFC 6901).
pub fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The member name one JSON pointer reference token stands for (RFC 6901:
/// `~1` before `~0`, the inverse of [`pointer_token`]).
pub(crate) fn unescape_pointer_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Longest member name a pointer repeats; reports stay small whatever the input.
const MAX_POINTER_KEY_CHARS: usize = 120;

/// Pointer to member `key` of the object at `parent`, or to `parent` itself
/// when the name is too long to repeat (a pointer cannot be shortened and
/// still point somewhere).
pub(crate) fn member_pointer(parent: &str, key: &str) -> String {
    if key.chars().count() > MAX_POINTER_KEY_CHARS {
        return parent.to_owned();
    }
    format!("{parent}/{}", pointer_token(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_cuts_on_char_boundaries() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("ééééé", 2), "éé…");
    }

    #[test]
    fn snippets_centre_on_the_pointer() {
        let short = br#"{"a":1}"#;
        assert_eq!(snippet(short, "/a"), r#"{"a":1}"#);
        let long = format!(
            r#"{{"pad":"{}","target":"here","tail":"{}"}}"#,
            "x".repeat(300),
            "y".repeat(300)
        );
        let s = snippet(long.as_bytes(), "/target");
        assert!(s.contains(r#""target":"here""#), "{s}");
        assert!(s.starts_with('…') && s.ends_with('…'));
    }

    /// The plain statement of what a snippet is, counting characters from
    /// the start (quadratic, so not what the checker runs).
    fn reference_snippet(line: &[u8], pointer: &str) -> String {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end();
        let chars: Vec<char> = text.chars().collect();
        if chars.len() <= SNIPPET_CHARS {
            return text.to_owned();
        }
        let focus = pointer
            .rsplit('/')
            .filter(|t| !t.is_empty() && !t.bytes().all(|b| b.is_ascii_digit()))
            .find_map(|t| text.rfind(&format!("\"{}\"", unescape_pointer_token(t))))
            .unwrap_or(0);
        let start = text[..focus]
            .chars()
            .count()
            .saturating_sub(SNIPPET_CHARS / 3);
        let end = (start + SNIPPET_CHARS).min(chars.len());
        let mut out: String = if start > 0 {
            "…".into()
        } else {
            String::new()
        };
        out.extend(&chars[start..end]);
        if end < chars.len() {
            out.push('…');
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn snippets_match_the_reference(
            pad in "[a-zé\"{}:, ]{0,200}",
            tail in "[a-zé\"{}:, ]{0,200}",
            key in "[a-z]{1,3}",
            bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
        ) {
            let line = format!("{pad}\"{key}\":1{tail}");
            let pointer = format!("/x/{key}");
            proptest::prop_assert_eq!(snippet(line.as_bytes(), &pointer), reference_snippet(line.as_bytes(), &pointer));
            proptest::prop_assert_eq!(snippet(&bytes, &pointer), reference_snippet(&bytes, &pointer));
        }
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(pointer_token("a/b~c"), "a~1b~0c");
        assert_eq!(unescape_pointer_token("a~1b~0c"), "a/b~c");
        // `~01` is `~1` unescaped, not `/`.
        assert_eq!(unescape_pointer_token("~01"), "~1");
    }

    #[test]
    fn member_pointers_never_repeat_huge_names() {
        assert_eq!(member_pointer("/params", "a/b"), "/params/a~1b");
        assert_eq!(member_pointer("/params", &"k".repeat(100_000)), "/params");
    }
}
