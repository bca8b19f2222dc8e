//! Lines the validator's tests and the fast paths' properties share.

use proptest::prelude::prop;

/// An answered `initialize` (v1, with the plan capability) and an answered
/// `session/new` that opens session `s1`.
pub(super) const HANDSHAKE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}"#,
    "\n",
);

/// `lines` as a trace after `handshake`, and the same lines alone (before
/// any handshake): the two traces the fast paths' trace properties check.
pub(super) fn with_and_without_handshake(handshake: &str, lines: Vec<Vec<u8>>) -> [Vec<u8>; 2] {
    let mut tail = Vec::new();
    for line in lines {
        tail.extend_from_slice(&line);
        tail.push(b'\n');
    }
    let mut trace = handshake.as_bytes().to_vec();
    trace.extend_from_slice(&tail);
    [trace, tail]
}

/// `line` with `byte` inserted at `at` (`how` 0), put in place of the byte
/// there (1) or the byte there removed (2); an `at` past the end only
/// inserts.
pub(super) fn mutate(line: String, at: prop::sample::Index, byte: u8, how: u8) -> Vec<u8> {
    let mut bytes = line.into_bytes();
    let i = at.index(bytes.len() + 1);
    match how {
        0 => bytes.insert(i, byte),
        1 if i < bytes.len() => bytes[i] = byte,
        _ if i < bytes.len() => {
            bytes.remove(i);
        }
        _ => {}
    }
    bytes
}

/// `line` with whitespace before and after each punctuation byte
/// outside strings, taken from `spaces` in turn: the spacing of writers
/// other than the compact ones (Python's `json.dumps`, hand-written
/// traces).
pub(super) fn respace(line: &str, spaces: &[&str]) -> String {
    let mut spaces = spaces.iter().cycle();
    let (mut out, mut in_string, mut escaped) = (String::new(), false, false);
    for c in line.chars() {
        let punctuation = !in_string && matches!(c, '{' | '}' | '[' | ']' | ':' | ',');
        if punctuation {
            out.push_str(spaces.next().unwrap_or(&""));
        }
        out.push(c);
        if punctuation {
            out.push_str(spaces.next().unwrap_or(&""));
        }
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (_, false, '"') => in_string = !in_string,
            _ => {}
        }
    }
    out
}
