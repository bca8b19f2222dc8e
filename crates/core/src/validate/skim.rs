//! The commonest line in a trace, read in one pass without serde: a
//! `session/update` notification. No rule reads an update that is not about
//! plans (message chunks, tool calls with their output, usage) beyond its
//! session and kind, and a plan update is read from its `update` object.
//!
//! [`Skimmer::skim_update`] validates the whole line as JSON exactly as
//! serde_json does for a value it skips (strings may hold any escape
//! serde_json skips, numbers follow RFC 8259, one value per line), finds the
//! ends of strings with `memchr` instead of a byte loop, and returns the
//! session, the kind and the `update` object's text. It is conservative:
//! anything it is not sure the exact path would accept without a word (a
//! byte below 0x20 anywhere, an escape in a member name or in a value it
//! reads, a repeated member in any object, a member the exact path would
//! read or remark on, deep nesting, many members in one object) makes it
//! return `None`, and the line goes down the exact path (`parse_record` and
//! the validator's member-by-member reads), which names every fault. It
//! decides from the first members whether a line can be an update at all,
//! so requests and responses cost a few bytes of scanning. Property tests
//! check that whatever it accepts, the exact path reads alike and says
//! nothing about, and that a validator gives the same verdict with and
//! without it.

/// What a skimmed line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkimmedUpdate<'a> {
    /// The envelope's `direction` (`client_to_agent` or `agent_to_client`),
    /// `None` for a bare message.
    pub direction: Option<&'a str>,
    /// `params.sessionId`, without escapes.
    pub session: &'a str,
    /// `params.update.sessionUpdate`, without escapes.
    pub kind: &'a str,
    /// `params.update`, the object's text.
    pub update: &'a str,
}

/// Whether a line may be an envelope (a recorded trace) or only a bare
/// message (live traffic, whose direction is known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkimFraming {
    Record,
    Message,
}

/// The deepest nesting skimmed; deeper lines (never seen in real traces) go
/// to the exact path.
pub(super) const MAX_SKIM_DEPTH: usize = 64;
/// Most members of one object skimmed (repeats are looked for pairwise).
const MAX_SKIM_MEMBERS: usize = 32;

/// Reusable buffers for [`skim_update`], so a line costs no allocation.
#[derive(Default)]
pub struct Skimmer {
    /// Member names of the objects open, as byte ranges of the line.
    keys: Vec<(usize, usize)>,
}

impl Skimmer {
    /// Read `line` in one pass if it is a well-formed `session/update`
    /// notification that is not about plans; `None` otherwise (then the
    /// exact path reads it).
    pub fn skim_update<'a>(
        &mut self,
        line: &'a [u8],
        max_depth: usize,
        framing: SkimFraming,
    ) -> Option<SkimmedUpdate<'a>> {
        self.keys.clear();
        let mut skim = Skim {
            bytes: line,
            at: 0,
            depth: 0,
            max_depth: max_depth.min(MAX_SKIM_DEPTH),
            keys: &mut self.keys,
        };
        // The structure first, on bytes: most lines that are not for this
        // path (requests, responses, plans) say so in their first bytes.
        let found = skim.line(framing)?;
        skim.whitespace();
        if skim.at != line.len() || has_control_byte(line) {
            return None;
        }
        let text = std::str::from_utf8(line).ok()?;
        Some(SkimmedUpdate {
            direction: match found.direction {
                Some((start, end)) => Some(text.get(start..end)?),
                None => None,
            },
            session: text.get(found.session.0..found.session.1)?,
            kind: text.get(found.kind.0..found.kind.1)?,
            update: text.get(found.update.0..found.update.1)?,
        })
    }
}

/// One-off [`Skimmer::skim_update`] (tests and fuzzing).
pub fn skim_update(
    line: &[u8],
    max_depth: usize,
    framing: SkimFraming,
) -> Option<SkimmedUpdate<'_>> {
    Skimmer::default().skim_update(line, max_depth, framing)
}

/// Whether any byte is below 0x20. JSON forbids them in strings; between
/// tokens only tab, CR and LF may appear, and lines written by a JSON
/// serializer have none, so a line with any goes to the exact path. Written
/// to vectorize (no early exit within a block).
pub(super) fn has_control_byte(line: &[u8]) -> bool {
    line.chunks(64)
        .any(|block| block.iter().fold(0u8, |acc, &b| acc | u8::from(b < 0x20)) != 0)
}

/// A byte range of the line.
pub(super) type Span = (usize, usize);

/// What the `params` of an update hold.
#[derive(Clone, Copy)]
struct ParamsRead {
    session: Span,
    kind: Span,
    update: Span,
}

/// The first `"` or `\\` in `bytes`. Most strings (member names, enum
/// values) end within a few bytes, where eight bytes at a time beat setting
/// up a vector search; longer ones go to `memchr`.
fn quote_or_backslash(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let mut at = 0;
    while at < 16 {
        let Some(word) = bytes.get(at..at + 8) else {
            break;
        };
        let word = u64::from_le_bytes(word.try_into().ok()?);
        let (quote, backslash) = (word ^ (ONES * 0x22), word ^ (ONES * 0x5c));
        // A zero byte in either: the lowest flagged byte is always a true
        // one (a borrow only spreads upward).
        let zero =
            (quote.wrapping_sub(ONES) & !quote | backslash.wrapping_sub(ONES) & !backslash) & HIGH;
        if zero != 0 {
            return Some(at + zero.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    memchr::memchr2(b'"', b'\\', bytes.get(at..)?).map(|found| at + found)
}

/// The members of a JSON-RPC message seen so far.
#[derive(Default)]
struct MessageRead {
    jsonrpc: bool,
    method: bool,
    params: Option<ParamsRead>,
}

/// What [`Skim::line`] found, as ranges of the line.
struct Found {
    direction: Option<Span>,
    session: Span,
    kind: Span,
    update: Span,
}

pub(super) struct Skim<'a, 'k> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
    pub(super) depth: usize,
    pub(super) max_depth: usize,
    pub(super) keys: &'k mut Vec<(usize, usize)>,
}

impl<'a> Skim<'a, '_> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    pub(super) fn whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.peek() {
            self.at += 1;
        }
    }

    /// The text of a span.
    pub(super) fn get(&self, (start, end): Span) -> &'a [u8] {
        self.bytes.get(start..end).unwrap_or_default()
    }

    /// The top-level object: an envelope or a bare message.
    fn line(&mut self, framing: SkimFraming) -> Option<Found> {
        self.whitespace();
        let mut message = MessageRead::default();
        let (mut direction, mut inner, mut time) = (None, None, false);
        let record = framing == SkimFraming::Record;
        self.object(|skim, key| match key {
            b"direction" if record && direction.is_none() => {
                let value = skim.plain_string()?;
                match skim.get(value) {
                    b"client_to_agent" | b"agent_to_client" => direction = Some(value),
                    _ => return None,
                }
                Some(())
            }
            b"message" if record && inner.is_none() => {
                let mut read = MessageRead::default();
                skim.object(|skim, key| skim.message_member(key, &mut read))?;
                inner = Some(read);
                Some(())
            }
            // A `time` that is not a string is remarked on: not for here.
            b"time" if record && !time => {
                time = true;
                skim.string().map(drop)
            }
            _ => skim.message_member(key, &mut message),
        })?;
        let bare = message.jsonrpc || message.method || message.params.is_some();
        let (direction, message) = match (direction, inner) {
            (None, None) if !time => (None, message),
            (Some(direction), Some(inner)) if !bare => (Some(direction), inner),
            _ => return None,
        };
        match message {
            MessageRead {
                jsonrpc: true,
                method: true,
                params: Some(params),
            } => Some(Found {
                direction,
                session: params.session,
                kind: params.kind,
                update: params.update,
            }),
            _ => None,
        }
    }

    /// A member of a JSON-RPC message: only those of a `session/update`
    /// notification, each once.
    fn message_member(&mut self, key: &[u8], read: &mut MessageRead) -> Option<()> {
        match key {
            b"jsonrpc" if !read.jsonrpc => {
                let value = self.plain_string()?;
                read.jsonrpc = self.get(value) == b"2.0";
                read.jsonrpc.then_some(())
            }
            b"method" if !read.method => {
                let value = self.plain_string()?;
                read.method = self.get(value) == b"session/update";
                read.method.then_some(())
            }
            b"params" if read.params.is_none() => {
                read.params = Some(self.params()?);
                Some(())
            }
            _ => None,
        }
    }

    /// `{"sessionId": ..., "update": {...}}`, nothing else.
    fn params(&mut self) -> Option<ParamsRead> {
        let (mut session, mut update) = (None, None);
        self.object(|skim, key| match key {
            b"sessionId" if session.is_none() => {
                session = Some(skim.plain_string()?);
                Some(())
            }
            b"update" if update.is_none() => {
                let start = skim.at;
                let kind = skim.update()?;
                update = Some((kind, (start, skim.at)));
                Some(())
            }
            _ => None,
        })?;
        let (kind, update) = update?;
        Some(ParamsRead {
            session: session?,
            kind,
            update,
        })
    }

    /// The update object, skimmed whole: its `sessionUpdate`.
    fn update(&mut self) -> Option<Span> {
        let mut kind = None;
        self.object(|skim, key| {
            if key != b"sessionUpdate" {
                return skim.value();
            }
            kind = Some(skim.plain_string()?);
            Some(())
        })?;
        kind
    }

    /// An object whose members `member` reads (it gets each name without
    /// escapes; repeated names fail).
    pub(super) fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.depth += 1;
        if self.depth > self.max_depth {
            return None;
        }
        let first_key = self.keys.len();
        self.whitespace();
        if self.eat(b'}').is_none() {
            loop {
                self.whitespace();
                let (start, end, escaped) = self.string()?;
                let name = self.bytes.get(start..end)?;
                if escaped
                    || self.keys.len() - first_key >= MAX_SKIM_MEMBERS
                    || self.keys[first_key..]
                        .iter()
                        .any(|&(s, e)| self.bytes.get(s..e) == Some(name))
                {
                    return None;
                }
                self.keys.push((start, end));
                self.whitespace();
                self.eat(b':')?;
                self.whitespace();
                member(self, name)?;
                self.whitespace();
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.keys.truncate(first_key);
        self.depth -= 1;
        Some(())
    }

    fn array(&mut self) -> Option<()> {
        self.eat(b'[')?;
        self.depth += 1;
        if self.depth > self.max_depth {
            return None;
        }
        self.whitespace();
        if self.eat(b']').is_none() {
            loop {
                self.whitespace();
                self.value()?;
                self.whitespace();
                match self.peek()? {
                    b',' => self.at += 1,
                    b']' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// Any JSON value, validated and skipped.
    pub(super) fn value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' => self.object(|skim, _| skim.value()),
            b'[' => self.array(),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    pub(super) fn number(&mut self) -> Option<()> {
        let _ = self.eat(b'-');
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.eat(b'.').is_some() {
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
        }
        Some(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
    }

    /// A string with no escapes: its content's span.
    pub(super) fn plain_string(&mut self) -> Option<Span> {
        match self.string()? {
            (start, end, false) => Some((start, end)),
            _ => None,
        }
    }

    /// A string: the span of its content and whether it has escapes. Control
    /// bytes are looked for in the whole line once it is skimmed, so only
    /// quotes and backslashes stop the search here.
    pub(super) fn string(&mut self) -> Option<(usize, usize, bool)> {
        self.eat(b'"')?;
        let start = self.at;
        let mut escaped = false;
        loop {
            let rest = self.bytes.get(self.at..)?;
            self.at += quote_or_backslash(rest)?;
            if self.eat(b'"').is_some() {
                return Some((start, self.at - 1, escaped));
            }
            // A backslash: the escapes serde_json accepts when it skips a
            // string (any four hex digits after `\u`, surrogates or not).
            escaped = true;
            self.at += 1;
            match self.peek()? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 1,
                b'u' => {
                    let hex = self.bytes.get(self.at + 1..self.at + 5)?;
                    if !hex.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    self.at += 5;
                }
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skim(line: &str) -> Option<(Option<&str>, &str, &str)> {
        skim_update(line.as_bytes(), 128, SkimFraming::Record)
            .map(|u| (u.direction, u.session, u.kind))
    }

    #[test]
    fn reads_bare_and_enveloped_updates() {
        let bare = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a\"b\\c\u00e9"}}}}"#;
        assert_eq!(skim(bare), Some((None, "s", "agent_message_chunk")));
        let envelope =
            format!(r#" {{"direction":"agent_to_client","message":{bare},"time":"t"}} "#);
        assert_eq!(
            skim(&envelope),
            Some((Some("agent_to_client"), "s", "agent_message_chunk"))
        );
        assert_eq!(
            skim_update(envelope.as_bytes(), 128, SkimFraming::Message),
            None
        );
        let numbers = r#"{"jsonrpc":"2.0","method":"session/update","params":{"update":{"n":[0,-1,1.5,2e10,3E-2,-0.0e+1,true,false,null,{},[]],"sessionUpdate":"usage_update"},"sessionId":"s"}}"#;
        assert_eq!(skim(numbers), Some((None, "s", "usage_update")));
        let plan = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update": {"sessionUpdate":"plan","entries":[]} }}"#;
        let read = skim_update(plan.as_bytes(), 128, SkimFraming::Message).unwrap();
        assert_eq!(
            (read.kind, read.update),
            ("plan", r#"{"sessionUpdate":"plan","entries":[]}"#)
        );
    }

    #[test]
    fn finds_the_first_quote_or_backslash() {
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..20_000 {
            let len = rng.usize(0..40);
            let bytes: Vec<u8> = (0..len)
                .map(|_| match rng.u8(0..8) {
                    0 => b'"',
                    1 => b'\\',
                    2 => 0x80 | rng.u8(..),
                    _ => rng.u8(..),
                })
                .collect();
            let expected = bytes.iter().position(|&b| b == b'"' || b == b'\\');
            assert_eq!(quote_or_backslash(&bytes), expected, "{bytes:?}");
        }
    }

    #[test]
    fn declines_what_the_exact_path_must_see() {
        let declined = [
            // Requests, responses, other methods.
            r#"{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}"#,
            // Escapes in names or in the values read.
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"\u0073","update":{"sessionUpdate":"x"}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x","\u0061":1}}}"#,
            // Repeats, at any depth.
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x","a":{"b":1,"b":2}}}}"#,
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}"#,
            // Not JSON, or not quite.
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x","a":01}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x","a":1.}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x","a":"\x"}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x","a":[1,]}}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}} x"#,
            "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"x\",\"a\":\"\t\"}}}",
            // Envelope faults.
            r#"{"direction":"up","message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}}"#,
            r#"{"direction":"agent_to_client","jsonrpc":"2.0","message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}}"#,
            r#"{"direction":"agent_to_client","time":1,"message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}}"#,
            r#"{"direction":"agent_to_client","other":1,"message":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"x"}}}}"#,
        ];
        for line in declined {
            assert_eq!(skim(line), None, "{line}");
        }
        assert_eq!(
            skim_update(b"{\"a\":\"\xff\"}", 128, SkimFraming::Record),
            None
        );
        let deep = format!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"x","a":{}{}}}}}}}"#,
            "[".repeat(10),
            "]".repeat(10)
        );
        assert!(skim(&deep).is_some());
        assert_eq!(skim_update(deep.as_bytes(), 8, SkimFraming::Record), None);
    }

    // -----------------------------------------------------------------------
    // The fast path agrees with the exact path.

    use crate::jsonrpc::{classify, Frame};
    use crate::rules::shape;
    use crate::spec::Revision;
    use crate::trace::{parse_record, Record};
    use crate::validate::head::{read_head, PlanRead};
    use crate::validate::{Config, Validator};
    use proptest::prelude::*;

    /// JSON text of any value, with the spellings that trip readers: every
    /// escape (lone surrogates too), numbers of every form, nesting,
    /// repeated members, non-ASCII text.
    fn json_value() -> impl Strategy<Value = String> {
        let string = prop::collection::vec(
            prop::sample::select(vec![
                "a",
                "plan",
                " ",
                "\\\"",
                "\\\\",
                "\\/",
                "\\b",
                "\\f",
                "\\n",
                "\\r",
                "\\t",
                "\\u0041",
                "\\ud800",
                "\\udc00\\ud800",
                "\\uDFFF",
                "é",
                "😀",
                "\u{7f}",
            ]),
            0..6,
        )
        .prop_map(|parts| format!("\"{}\"", parts.concat()));
        let number = prop::sample::select(vec![
            "0",
            "-0",
            "1",
            "-12",
            "3.25",
            "1e5",
            "1E+2",
            "-2.5e-3",
            "18446744073709551616",
            "1e400",
            "0.0",
        ])
        .prop_map(str::to_owned);
        let leaf = prop_oneof![
            string.clone(),
            number,
            prop::sample::select(vec!["true", "false", "null"]).prop_map(str::to_owned),
        ];
        leaf.prop_recursive(5, 40, 4, move |inner| {
            let key = prop::sample::select(vec![
                "a",
                "b",
                "c",
                "d",
                "e",
                "f",
                "g",
                "text",
                "type",
                "sessionUpdate",
                "x",
                "y",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec((key, inner), 0..4).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(k, v)| format!("\"{k}\":{v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    /// A `session/update` line, bare or in an envelope, with members in any
    /// order and now and then one that the fast path must not take.
    fn update_line() -> impl Strategy<Value = String> {
        let kind = prop::sample::select(vec![
            "\"agent_message_chunk\"",
            "\"tool_call\"",
            "\"plan\"",
            "\"plan_update\"",
            "\"plan_removed\"",
            "\"pl\\u0061n\"",
            "\"x\"",
            "1",
            "null",
        ]);
        let session = prop_oneof![
            6 => Just("\"s1\""),
            1 => prop::sample::select(vec!["\"s\\u0031\"", "\"\"", "null", "7"]),
        ];
        let plan_member = prop::sample::select(vec![
            "\"entries\":[]",
            "\"entries\":[{\"content\":\"a\",\"priority\":\"high\",\"status\":\"pending\"}]",
            "\"entries\":[{\"content\":\"a\\u00e9\",\"priority\":\"low\",\"status\":\"done\"}]",
            "\"plan\":{\"type\":\"items\",\"planId\":\"p\",\"entries\":[]}",
            "\"plan\":{\"type\":\"markdown\",\"planId\":\"p\",\"markdown\":\"# a\"}",
            "\"planId\":\"p\"",
            "\"_meta\":{\"a\":1}",
        ]);
        let update = (
            kind,
            prop::collection::vec(json_value(), 0..3),
            prop::collection::vec(plan_member, 0..3),
            any::<bool>(),
        )
            .prop_map(|(kind, values, plan, first)| {
                let mut members: Vec<String> = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("\"m{i}\":{v}"))
                    .collect();
                if !plan.is_empty() {
                    members = plan.iter().map(|m| (*m).to_owned()).collect();
                }
                let kind = format!("\"sessionUpdate\":{kind}");
                if first {
                    members.insert(0, kind);
                } else {
                    members.push(kind);
                }
                format!("{{{}}}", members.join(","))
            });
        let params = (session, update, any::<bool>()).prop_map(|(s, u, swap)| {
            if swap {
                format!("{{\"update\":{u},\"sessionId\":{s}}}")
            } else {
                format!("{{\"sessionId\":{s},\"update\":{u}}}")
            }
        });
        let method = prop_oneof![
            8 => Just("\"session/update\""),
            1 => prop::sample::select(vec!["\"session/updat\\u0065\"", "\"session/prompt\""]),
        ];
        let extra = prop_oneof![
            6 => Just(""),
            1 => prop::sample::select(vec![",\"id\":1", ",\"jsonrpc\":\"2.0\"", ",\"_meta\":{}"]),
        ];
        let message = (method, params, extra).prop_map(|(m, p, e)| {
            format!("{{\"jsonrpc\":\"2.0\",\"method\":{m},\"params\":{p}{e}}}")
        });
        let direction = prop_oneof![
            3 => Just(None),
            3 => Just(Some("\"agent_to_client\"")),
            1 => Just(Some("\"client_to_agent\"")),
            1 => Just(Some("\"up\"")),
        ];
        let time = prop::sample::select(vec![
            "",
            ",\"time\":\"2026-01-01T00:00:00Z\"",
            ",\"time\":1",
        ]);
        (message, direction, time, any::<bool>()).prop_map(|(message, direction, time, first)| {
            match direction {
                None => message,
                Some(d) if first => format!("{{\"direction\":{d},\"message\":{message}{time}}}"),
                Some(d) => format!("{{\"message\":{message},\"direction\":{d}{time}}}"),
            }
        })
    }

    /// A line with one byte changed, inserted or removed.
    fn mutated_line() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop::sample::select(vec![
            b'"', b'\\', b'u', b'{', b'}', b'[', b']', b',', b':', b'0', b'-', b'.', b'e', b' ',
            b'\t', 0, 0x1f, 0x7f, 0x80, 0xc3, 0xff, b'a',
        ]);
        (update_line(), any::<prop::sample::Index>(), byte, 0..3u8).prop_map(
            |(line, at, byte, how)| {
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
            },
        )
    }

    /// Whatever the fast path accepts, the exact path reads the same way
    /// and finds nothing to say about.
    fn agrees_with_exact_path(line: &[u8], framing: SkimFraming) -> Result<(), TestCaseError> {
        let Some(skimmed) = skim_update(line, 128, framing) else {
            return Ok(());
        };
        prop_assert!(serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok());
        let (direction, object) = match framing {
            SkimFraming::Record => match parse_record(line, 128) {
                Ok(Record::Bare(object)) => (None, object),
                Ok(Record::Envelope {
                    direction, message, ..
                }) => (Some(direction), message),
                Err(fault) => return Err(TestCaseError::fail(format!("{fault:?}"))),
            },
            SkimFraming::Message => match crate::trace::parse_message(line, 128) {
                Ok(object) => (None, object),
                Err(fault) => return Err(TestCaseError::fail(format!("{fault:?}"))),
            },
        };
        prop_assert_eq!(direction, skimmed.direction);
        let (frame, faults) = classify(&object);
        prop_assert!(faults.is_empty(), "{:?}", faults);
        let Some(Frame::Notification { method, params }) = frame else {
            return Err(TestCaseError::fail("not a notification"));
        };
        prop_assert_eq!(method, "session/update");
        let params = params.ok_or_else(|| TestCaseError::fail("no params"))?;
        for revision in Revision::ALL {
            // The one-pass read may decline a plan update it cannot type (the
            // member-by-member read below then takes it); anything else it reads.
            let Some(head) = read_head(params.get(), revision, 100) else {
                prop_assert!(shape::PLAN_KINDS.contains(&skimmed.kind));
                continue;
            };
            prop_assert_eq!(head.session.as_ref(), skimmed.session);
            prop_assert_eq!(head.kind.as_ref(), skimmed.kind);
            // The plan message the validator reads from the skimmed update
            // is the one the one-pass read gives.
            let typed = shape::parse_well_formed(skimmed.update, skimmed.kind, revision, 100);
            match head.plan {
                PlanRead::WellFormed(message) => prop_assert_eq!(Some(*message), typed),
                PlanRead::Declined => prop_assert_eq!(None, typed),
                PlanRead::NotRead => {}
            }
        }
        let mut validator = Validator::new(Config::default());
        let exact = validator.read_update_params(Some(params));
        prop_assert!(validator.take_diagnostics().is_empty());
        let exact = exact.ok_or_else(|| TestCaseError::fail("the exact read failed"))?;
        prop_assert_eq!(exact.session.as_ref(), skimmed.session);
        prop_assert_eq!(exact.kind.as_ref(), skimmed.kind);
        prop_assert_eq!(exact.update.map(|u| u.get()), Some(skimmed.update));
        Ok(())
    }

    /// The same trace through a validator with and without the fast path:
    /// the same diagnostics, state and counts.
    fn same_verdict(trace: &[u8]) -> Result<(), TestCaseError> {
        let mut fast = Validator::new(Config::default());
        let mut exact = Validator::new(Config::default()).exact_only();
        for (i, line) in trace.split(|&b| b == b'\n').enumerate() {
            let n = i as u64 + 1;
            fast.push_record(n, line);
            exact.push_record(n, line);
            prop_assert_eq!(fast.take_diagnostics(), exact.take_diagnostics());
            let direction = if i % 2 == 0 {
                crate::jsonrpc::Direction::AgentToClient
            } else {
                crate::jsonrpc::Direction::ClientToAgent
            };
            fast.push_message(n, direction, line);
            exact.push_message(n, direction, line);
            prop_assert_eq!(fast.take_diagnostics(), exact.take_diagnostics());
        }
        prop_assert_eq!(fast.messages(), exact.messages());
        prop_assert_eq!(fast.state(), exact.state());
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn generated_lines_read_alike(line in update_line()) {
            agrees_with_exact_path(line.as_bytes(), SkimFraming::Record)?;
            agrees_with_exact_path(line.as_bytes(), SkimFraming::Message)?;
        }

        #[test]
        fn mutated_lines_read_alike(line in mutated_line()) {
            agrees_with_exact_path(&line, SkimFraming::Record)?;
            agrees_with_exact_path(&line, SkimFraming::Message)?;
        }

        #[test]
        fn traces_get_the_same_verdict(lines in prop::collection::vec(prop_oneof![
            update_line().prop_map(String::into_bytes),
            mutated_line(),
        ], 1..12)) {
            let mut trace = HANDSHAKE.as_bytes().to_vec();
            for line in lines {
                trace.extend_from_slice(&line);
                trace.push(b'\n');
            }
            same_verdict(&trace)?;
            // Before the handshake too.
            let tail = trace.get(HANDSHAKE.len()..).unwrap_or_default().to_vec();
            same_verdict(&tail)?;
        }
    }

    /// The properties above are not vacuous: the fast path takes many of
    /// the generated lines (plans among them) and declines many.
    #[test]
    fn generated_lines_are_taken_and_declined() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut taken, mut plans, mut declined) = (0, 0, 0);
        for _ in 0..2000 {
            let line = update_line().new_tree(&mut runner).unwrap().current();
            match skim_update(line.as_bytes(), 128, SkimFraming::Record) {
                Some(read) if shape::PLAN_KINDS.contains(&read.kind) => plans += 1,
                Some(_) => taken += 1,
                None => declined += 1,
            }
        }
        assert!(
            taken > 100 && plans > 100 && declined > 400,
            "{taken} {plans} {declined}"
        );
    }

    const HANDSHAKE: &str = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}"#,
        "\n",
    );

    #[test]
    fn synthetic_shapes_get_the_same_verdict() {
        use crate::gen::{synthetic, SyntheticParams};
        let shapes = [
            SyntheticParams {
                messages: 300,
                ..SyntheticParams::default()
            },
            SyntheticParams {
                messages: 300,
                chunk_bytes: Some(500),
                ..SyntheticParams::default()
            },
            SyntheticParams {
                messages: 300,
                tool_output_bytes: 800,
                ..SyntheticParams::default()
            },
            SyntheticParams {
                messages: 300,
                sessions: 50,
                turn_length: 2,
                ..SyntheticParams::default()
            },
        ];
        for params in shapes {
            for framing in [crate::gen::Framing::Envelope, crate::gen::Framing::Bare] {
                let params = SyntheticParams {
                    framing,
                    ..params.clone()
                };
                let mut trace = Vec::new();
                synthetic(&params, 9, &mut trace).unwrap();
                same_verdict(&trace).unwrap();
            }
        }
    }
}
