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

use crate::rules::shape;
use crate::spec::messages::{LegacyPlan, Plan, PlanMessage, PlanRemoved, PlanUpdate};
use crate::spec::Revision;
use crate::state::Spare;
use crate::trace::NameHashes;
use std::borrow::Cow;

/// The [`Tokens`] of a byte string literal, both spacings made at compile
/// time.
macro_rules! tokens {
    ($compact:literal) => {{
        const COMPACT: &[u8] = $compact;
        const PYTHON: ([u8; 2 * COMPACT.len()], usize) =
            $crate::validate::skim::python_spacing(COMPACT);
        const PYTHON_TEXT: &[u8] = PYTHON.0.split_at(PYTHON.1).0;
        $crate::validate::skim::Tokens {
            compact: COMPACT,
            python: PYTHON_TEXT,
        }
    }};
}
pub(super) use tokens;

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
    /// The whole line, checked as UTF-8 (what [`Skimmer::typed_plan`] reads).
    pub line: &'a str,
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
/// The deepest nesting [`Skimmer::reads_plainly`] reads (within the
/// line limit); deeper lines get the exact look.
const MAX_PLAIN_DEPTH: usize = 128;

/// Reusable buffers for [`skim_update`], so a line costs no allocation.
#[derive(Default)]
pub struct Skimmer {
    /// Member names of the objects open, as byte ranges of the line.
    keys: Vec<(usize, usize)>,
    /// Where the typed members of the last plan update skimmed are.
    capture: PlanCapture,
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
        self.capture.clear();
        let mut skim = Skim::start(line, max_depth, &mut self.keys, &mut self.capture, true);
        // The structure first, on bytes: most lines that are not for this
        // path (requests, responses, plans) say so in their first bytes.
        let found = skim.found(framing)?;
        skim.whitespace();
        if skim.at != line.len() {
            return None;
        }
        let text = line_text(line)?;
        Some(SkimmedUpdate {
            direction: match found.direction {
                Some((start, end)) => Some(text.get(start..end)?),
                None => None,
            },
            session: text.get(found.session.0..found.session.1)?,
            kind: text.get(found.kind.0..found.kind.1)?,
            update: text.get(found.update.0..found.update.1)?,
            line: text,
        })
    }

    /// Whether `line` is one JSON value this read takes whole: no member
    /// name repeated or escaped, no half of a character, no number a double
    /// may not hold. `false` says nothing of the line: the exact look
    /// decides (see `Validator::whole_message`).
    pub fn reads_plainly(&mut self, line: &[u8], max_depth: usize) -> bool {
        self.capture.clear();
        let mut skim = Skim::start(line, max_depth, &mut self.keys, &mut self.capture, false);
        // Objects of any size, and nesting to the line limit: what a typed
        // read declines for its own sake, this look can still take.
        skim.max_depth = max_depth.min(MAX_PLAIN_DEPTH);
        skim.wide = true;
        skim.whitespace();
        if skim.value().is_none() {
            return false;
        }
        skim.whitespace();
        skim.at == line.len()
    }

    /// The plan message of the plan update [`Skimmer::skim_update`] just
    /// read (`line` is its [`SkimmedUpdate::line`]), typed in the same pass:
    /// what `rules::shape::parse_well_formed` gives for it under `revision`.
    /// `None` when the update is not one the one-pass read types (its
    /// `sessionUpdate` not first, a member or value it does not take); the
    /// caller then reads it as before. It decides nothing itself: the
    /// decisions are the well-formed read's own functions.
    pub fn typed_plan(
        &self,
        line: &str,
        revision: Revision,
        max_entries: usize,
    ) -> Option<PlanMessage> {
        self.typed_plan_into(line, revision, max_entries, &mut Spare::default())
    }

    /// [`Skimmer::typed_plan`], its texts, entries list and id read into
    /// the state's spare buffers.
    pub(crate) fn typed_plan_into(
        &self,
        line: &str,
        revision: Revision,
        max_entries: usize,
        spare: &mut Spare,
    ) -> Option<PlanMessage> {
        self.capture.typed_plan(line, revision, max_entries, spare)
    }
}

impl PlanCapture {
    /// See [`Skimmer::typed_plan`].
    fn typed_plan(
        &self,
        line: &str,
        revision: Revision,
        max_entries: usize,
        spare: &mut Spare,
    ) -> Option<PlanMessage> {
        let capture = self;
        if !capture.typed {
            return None;
        }
        let spelling = revision.spelling();
        let string = |span: Option<StringSpan>| string_value(line, span?);
        let meta = |span: Option<Span>| match span {
            Some((start, end)) => shape::plain_meta(line.get(start..end)?),
            None => Some(None),
        };
        let text = |text: Cow<'_, str>, spare: &mut Spare| match text {
            Cow::Borrowed(text) => spare.text(text),
            Cow::Owned(text) => text,
        };
        let entries = |spare: &mut Spare| {
            if capture.entries.len() > max_entries {
                return None;
            }
            // The state trims it to its length if it keeps it.
            let mut entries = spare.list(capture.entries.len());
            for entry in &capture.entries {
                entries.push(shape::plan_entry(
                    text(string(entry.content)?, spare),
                    &string(entry.priority)?,
                    &string(entry.status)?,
                    meta(entry.meta)?,
                    spelling,
                )?);
            }
            Some(entries)
        };
        let owned = |span: Option<StringSpan>, spare: &mut Spare| match span {
            Some(span) => string_value(line, span).map(|s| Some(text(s, spare))),
            None => Some(None),
        };
        match capture.kind? {
            PlanKind::Legacy => {
                if !capture.entries_seen {
                    return None;
                }
                Some(PlanMessage::Legacy(LegacyPlan {
                    entries: entries(spare)?,
                    meta: meta(capture.meta)?,
                }))
            }
            PlanKind::Update => {
                if !capture.plan_seen {
                    return None;
                }
                let type_name = string(capture.plan_type)?;
                let entries = capture.entries_seen.then(|| entries(spare));
                let content = shape::plan_content(
                    &type_name,
                    entries,
                    owned(capture.uri, spare)?,
                    owned(capture.content, spare)?,
                    spelling,
                )?;
                let id = shape::plan_id(
                    owned(capture.id, spare)?,
                    owned(capture.plan_id, spare)?,
                    spelling,
                )?;
                Some(PlanMessage::Update(PlanUpdate {
                    plan: Plan {
                        id,
                        content,
                        meta: meta(capture.plan_meta)?,
                    },
                    meta: meta(capture.meta)?,
                }))
            }
            PlanKind::Removed => {
                let plan_id = shape::plan_id(
                    owned(capture.id, spare)?,
                    owned(capture.plan_id, spare)?,
                    spelling,
                )?;
                Some(PlanMessage::Removed(PlanRemoved {
                    plan_id,
                    meta: meta(capture.meta)?,
                }))
            }
        }
    }
}

/// A string's value: its text, or its escapes decoded as serde_json decodes
/// them (an unpaired surrogate is `None`, as it fails serde_json's read).
fn string_value(line: &str, span: StringSpan) -> Option<Cow<'_, str>> {
    if span.escaped {
        let quoted = line.get(span.start.checked_sub(1)?..span.end + 1)?;
        serde_json::from_str::<String>(quoted).ok().map(Cow::Owned)
    } else {
        line.get(span.start..span.end).map(Cow::Borrowed)
    }
}

/// The plan update kinds the one-pass read types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlanKind {
    Legacy,
    Update,
    Removed,
}

/// A string value's content, as a byte range of the line.
#[derive(Clone, Copy, Debug)]
struct StringSpan {
    start: usize,
    end: usize,
    escaped: bool,
}

/// An entry's members.
#[derive(Clone, Copy, Default)]
struct EntrySpans {
    content: Option<StringSpan>,
    priority: Option<StringSpan>,
    status: Option<StringSpan>,
    meta: Option<Span>,
}

/// Where the members of a plan update are, recorded while it is skimmed
/// (members of the kind's wire structure only, each of the right JSON
/// type; anything else clears `typed`). Reused from line to line.
#[derive(Default)]
pub(super) struct PlanCapture {
    /// `sessionUpdate` came first and named a plan kind, and every member
    /// since is one the typed read takes.
    typed: bool,
    kind: Option<PlanKind>,
    /// `_meta` of the update.
    meta: Option<Span>,
    /// `entries` (legacy) or `plan.entries` was there.
    entries_seen: bool,
    entries: Vec<EntrySpans>,
    plan_seen: bool,
    plan_type: Option<StringSpan>,
    id: Option<StringSpan>,
    plan_id: Option<StringSpan>,
    uri: Option<StringSpan>,
    content: Option<StringSpan>,
    plan_meta: Option<Span>,
}

impl PlanCapture {
    fn clear(&mut self) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.clear();
        *self = PlanCapture {
            entries,
            ..PlanCapture::default()
        };
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

/// What [`scan_bytes`] found in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bytes {
    /// A byte below 0x20.
    Control,
    /// Only bytes 0x20..=0x7f.
    Ascii,
    /// No control byte, and some byte above 0x7f (to be checked as UTF-8).
    NonAscii,
}

/// The line as text, if it has no control byte and is UTF-8: what both
/// one-pass reads ask of a line once its structure is read.
pub(super) fn line_text(line: &[u8]) -> Option<&str> {
    match scan_bytes(line) {
        Bytes::Control => None,
        // SAFETY: every byte is below 0x80, and ASCII is UTF-8 (the common
        // case; this saves a second pass over the line).
        Bytes::Ascii => Some(unsafe { std::str::from_utf8_unchecked(line) }),
        Bytes::NonAscii => std::str::from_utf8(line).ok(),
    }
}

/// Whether any byte is below 0x20, and whether all are ASCII, in one pass.
/// JSON forbids control bytes in strings; between tokens only tab, CR and
/// LF may appear, and lines written by a JSON serializer have none, so a
/// line with any goes to the exact path. On x86_64, sixteen bytes at a time
/// with SSE2: the least and the greatest byte of each place so far, three
/// instructions a block, then one look at the two.
#[cfg(target_arch = "x86_64")]
fn scan_bytes(line: &[u8]) -> Bytes {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8, _mm_set1_epi8,
        _mm_setzero_si128,
    };
    let Some(last) = line.last_chunk::<16>() else {
        return scan_bytes_by_blocks(line);
    };
    // SAFETY: these intrinsics only need SSE2, which x86_64 always has
    // (its target features include it), and read no memory.
    unsafe {
        let (mut least, mut greatest) = (_mm_set1_epi8(-1), _mm_setzero_si128());
        for block in line.chunks_exact(16) {
            let bytes = sse2_load(block.try_into().unwrap_or(&[b' '; 16]));
            least = _mm_min_epu8(least, bytes);
            greatest = _mm_max_epu8(greatest, bytes);
        }
        // The bytes after the last whole block: the line's last sixteen.
        let bytes = sse2_load(last);
        least = _mm_min_epu8(least, bytes);
        greatest = _mm_max_epu8(greatest, bytes);
        // A place whose least byte is at most 0x1f holds a control byte.
        let below = _mm_min_epu8(least, _mm_set1_epi8(0x1f));
        if _mm_movemask_epi8(_mm_cmpeq_epi8(below, least)) != 0 {
            Bytes::Control
        } else if _mm_movemask_epi8(greatest) != 0 {
            Bytes::NonAscii
        } else {
            Bytes::Ascii
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn scan_bytes(line: &[u8]) -> Bytes {
    scan_bytes_by_blocks(line)
}

/// [`scan_bytes`] without SSE2 (and for lines shorter than its blocks):
/// written to vectorize (no early exit within a block).
fn scan_bytes_by_blocks(line: &[u8]) -> Bytes {
    let mut high = 0u8;
    for block in line.chunks(64) {
        let (control, bits) = block.iter().fold((0u8, 0u8), |(control, bits), &b| {
            (control | u8::from(b < 0x20), bits | b)
        });
        if control != 0 {
            return Bytes::Control;
        }
        high |= bits;
    }
    if high < 0x80 {
        Bytes::Ascii
    } else {
        Bytes::NonAscii
    }
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

/// The `"` and the `\\` bytes of eight, each flagged by its high bit. Only
/// the lowest flag of each is sure to be true (a borrow only spreads upward),
/// which is all the two searches below read.
fn quotes_and_backslashes(word: u64) -> (u64, u64) {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let (quote, backslash) = (word ^ (ONES * 0x22), word ^ (ONES * 0x5c));
    (
        quote.wrapping_sub(ONES) & !quote & HIGH,
        backslash.wrapping_sub(ONES) & !backslash & HIGH,
    )
}

/// Where the first `"` of eight bytes is, when it comes before any `\\`.
fn quote_before_backslash(word: u64) -> Option<usize> {
    let (quotes, backslashes) = quotes_and_backslashes(word);
    (quotes != 0 && quotes.trailing_zeros() < backslashes.trailing_zeros())
        .then(|| quotes.trailing_zeros() as usize / 8)
}

/// Sixteen bytes in a vector register, from two words (one unaligned load
/// once compiled; no pointer to dereference).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sse2_load(block: &[u8; 16]) -> std::arch::x86_64::__m128i {
    let (low, high) = block.split_at(8);
    let word = |half: &[u8]| i64::from_le_bytes(half.try_into().unwrap_or_default());
    // SAFETY: this intrinsic only needs SSE2, which x86_64 always has (its
    // target features include it), and reads no memory.
    unsafe { std::arch::x86_64::_mm_set_epi64x(word(high), word(low)) }
}

/// A bit for each `"` or `\\` among sixteen bytes (SSE2, which every
/// x86_64 processor has).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn sse2_quotes_or_backslashes(chunk: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: these intrinsics only need SSE2, which x86_64 always has
    // (its target features include it), and read no memory.
    unsafe {
        let bytes = sse2_load(chunk);
        let quotes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'"' as i8));
        let backslashes = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\\' as i8));
        _mm_movemask_epi8(_mm_or_si128(quotes, backslashes)) as u32
    }
}

/// The first `"` or `\\` in `bytes`. Most strings (member names, enum
/// values, a plan entry's text) end within a few dozen bytes, where sixteen
/// bytes at a time (eight without SSE2) beat setting up `memchr`'s vector
/// search; longer ones go to `memchr`.
fn quote_or_backslash(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    #[cfg(target_arch = "x86_64")]
    while at < 64 {
        let Some(chunk) = bytes.get(at..).and_then(|rest| rest.first_chunk::<16>()) else {
            break;
        };
        let found = sse2_quotes_or_backslashes(chunk);
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize);
        }
        at += 16;
    }
    while at < 16 {
        let Some(word) = bytes.get(at..at + 8) else {
            break;
        };
        let (quotes, backslashes) =
            quotes_and_backslashes(u64::from_le_bytes(word.try_into().ok()?));
        let either = quotes | backslashes;
        if either != 0 {
            return Some(at + either.trailing_zeros() as usize / 8);
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
#[derive(Debug, PartialEq, Eq)]
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
    pub(super) capture: &'k mut PlanCapture,
    /// Whether the compact forms are tried first (tests compare the reads
    /// with and without them).
    pub(super) compact: bool,
    /// Whether an object may have more than [`MAX_SKIM_MEMBERS`] members
    /// (their names then looked for by hash).
    pub(super) wide: bool,
}

impl<'a, 'k> Skim<'a, 'k> {
    /// A read of `line` from its start, within `max_depth` (and the
    /// skim's own depth), with `keys` emptied (`capture` is the caller's
    /// to empty: a read that types no plan leaves it alone).
    pub(super) fn start(
        line: &'a [u8],
        max_depth: usize,
        keys: &'k mut Vec<(usize, usize)>,
        capture: &'k mut PlanCapture,
        compact: bool,
    ) -> Self {
        keys.clear();
        Skim {
            bytes: line,
            at: 0,
            depth: 0,
            max_depth: max_depth.min(MAX_SKIM_DEPTH),
            keys,
            capture,
            compact,
            wide: false,
        }
    }
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

    /// The line's structure: the compact form, else the general read.
    fn found(&mut self, framing: SkimFraming) -> Option<Found> {
        if self.compact {
            if let Some(found) = self.compact_line(framing) {
                return Some(found);
            }
            self.restart();
        }
        self.line(framing)
    }

    /// Back to the line's start, nothing read.
    pub(super) fn restart(&mut self) {
        self.at = 0;
        self.depth = 0;
        self.keys.clear();
        self.capture.clear();
    }

    /// An update as recorders and agents write it, with its members in the
    /// usual order: `{"direction":…,"message":{"jsonrpc":"2.0","method":
    /// "session/update","params":{"sessionId":…,"update":{…}}}}`, the
    /// envelope's `time` last if there, or the bare message; with or
    /// without whitespace between the tokens ([`Skim::tokens`]).
    /// These members are distinct by construction, so only the update
    /// object is searched for repeats. Anything else returns `None` (the
    /// caller restarts and [`Skim::line`] reads it); whatever this accepts,
    /// `line` accepts with the same result.
    fn compact_line(&mut self, framing: SkimFraming) -> Option<Found> {
        let direction = self.usual_envelope_head(framing)?;
        self.tokens(tokens!(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":"
        ))?;
        let session = self.plain_string()?;
        self.tokens(tokens!(b",\"update\":"))?;
        // The objects the update is in: the envelope, the message and the
        // params (its own depth is checked as it is read).
        self.depth = 2 + usize::from(direction.is_some());
        let start = self.at;
        let kind = self.update()?;
        let update = (start, self.at);
        // The params' closing brace, then the message's and the envelope's.
        self.tokens(tokens!(b"}"))?;
        self.usual_line_end(direction.is_some())?;
        self.depth = 0;
        Some(Found {
            direction,
            session,
            kind,
            update,
        })
    }

    /// The start of an envelope in its usual form, `{"direction":"…",
    /// "message":` (whitespace or not), where the framing has envelopes:
    /// `Some(None)` for a line that does not start so (a bare message, with
    /// nothing read), `Some(Some(direction))` once read, and `None` for an
    /// envelope that starts so but goes on otherwise.
    pub(super) fn usual_envelope_head(&mut self, framing: SkimFraming) -> Option<Option<Span>> {
        if framing != SkimFraming::Record || self.tokens(tokens!(b"{\"direction\":")).is_none() {
            return Some(None);
        }
        let start = self.at + 1;
        if self.literal(b"\"agent_to_client\"").is_none() {
            self.literal(b"\"client_to_agent\"")?;
        }
        let direction = (start, self.at - 1);
        self.tokens(tokens!(b",\"message\":"))?;
        Some(Some(direction))
    }

    /// The end of a line in its usual form after its message's last member:
    /// the message's closing brace, then, in an envelope, its `time` if
    /// there and its closing brace; no whitespace after the last brace (the
    /// line's end is the caller's, as after the general read).
    pub(super) fn usual_line_end(&mut self, enveloped: bool) -> Option<()> {
        self.whitespace();
        self.eat(b'}')?;
        if enveloped {
            self.whitespace();
            if self.eat(b',').is_some() {
                self.tokens(tokens!(b"\"time\":"))?;
                self.string()?;
                self.whitespace();
            }
            self.eat(b'}')?;
        }
        Some(())
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

    /// The update object, skimmed whole: its `sessionUpdate`. A plan
    /// update whose `sessionUpdate` comes first (as every serializer seen
    /// writes it) has its members recorded for [`Skimmer::typed_plan`].
    fn update(&mut self) -> Option<Span> {
        let (mut kind, mut first) = (None, true);
        self.object(|skim, key| {
            let is_first = std::mem::replace(&mut first, false);
            if key != b"sessionUpdate" {
                return if skim.capture.typed {
                    skim.plan_member(key)
                } else {
                    skim.value()
                };
            }
            let span = skim.plain_string()?;
            if is_first {
                skim.capture.kind = match skim.get(span) {
                    b"plan" => Some(PlanKind::Legacy),
                    b"plan_update" => Some(PlanKind::Update),
                    b"plan_removed" => Some(PlanKind::Removed),
                    _ => None,
                };
                skim.capture.typed = skim.capture.kind.is_some();
            }
            kind = Some(span);
            Some(())
        })?;
        kind
    }

    /// A member of a plan update, recorded if its kind's structure has it.
    fn plan_member(&mut self, key: &[u8]) -> Option<()> {
        match (self.capture.kind, key) {
            (_, b"_meta") => self.capture.meta = self.captured_meta()?,
            (Some(PlanKind::Legacy), b"entries") => self.captured_entries()?,
            (Some(PlanKind::Update), b"plan") => self.captured_plan()?,
            (Some(PlanKind::Removed), b"id") => self.capture.id = self.captured_string()?,
            (Some(PlanKind::Removed), b"planId") => {
                self.capture.plan_id = self.captured_string()?;
            }
            _ => return self.untyped_value(),
        }
        Some(())
    }

    /// A value the typed read does not take: skimmed, and the typed read
    /// given up.
    fn untyped_value(&mut self) -> Option<()> {
        self.capture.typed = false;
        self.value()
    }

    /// A string for the typed read (any other value gives it up).
    fn captured_string(&mut self) -> Option<Option<StringSpan>> {
        if self.peek()? != b'"' {
            self.untyped_value()?;
            return Some(None);
        }
        let (start, end, escaped) = self.string()?;
        Some(Some(StringSpan {
            start,
            end,
            escaped,
        }))
    }

    /// `_meta`: an object or `null` (anything else gives the typed read up).
    fn captured_meta(&mut self) -> Option<Option<Span>> {
        let start = self.at;
        if !matches!(self.peek()?, b'{' | b'n') {
            self.untyped_value()?;
            return Some(None);
        }
        self.value()?;
        Some(Some((start, self.at)))
    }

    /// `entries`: an array of entry objects.
    fn captured_entries(&mut self) -> Option<()> {
        if self.peek()? != b'[' {
            return self.untyped_value();
        }
        self.capture.entries_seen = true;
        self.array(|skim| {
            if skim.peek()? != b'{' {
                return skim.untyped_value();
            }
            if let Some(entry) = skim.compact.then(|| skim.compact_entry()).flatten() {
                skim.capture.entries.push(entry);
                return Some(());
            }
            let mut entry = EntrySpans::default();
            skim.object(|skim, key| {
                match key {
                    b"content" => entry.content = skim.captured_string()?,
                    b"priority" => entry.priority = skim.captured_string()?,
                    b"status" => entry.status = skim.captured_string()?,
                    b"_meta" => entry.meta = skim.captured_meta()?,
                    _ => return skim.untyped_value(),
                }
                Some(())
            })?;
            if skim.capture.typed {
                skim.capture.entries.push(entry);
            }
            Some(())
        })
    }

    /// An entry as serializers write it, `{"content":"…","priority":"…",
    /// "status":"…"}` (whitespace or not): its three distinct members need
    /// no search for repeats. Anything else (another order, `_meta`,
    /// a value that is not a string) leaves the position as it was and
    /// returns `None`, for [`Skim::object`] to read; so does an entry
    /// deeper than the limit, which it declines. A string's own faults
    /// are the line's (`None` there too, and the object read finds them).
    fn compact_entry(&mut self) -> Option<EntrySpans> {
        let start = self.at;
        let entry = self.compact_entry_members();
        if entry.is_none() {
            self.at = start;
        }
        entry
    }

    fn compact_entry_members(&mut self) -> Option<EntrySpans> {
        if self.depth + 1 > self.max_depth {
            return None;
        }
        self.tokens(tokens!(b"{\"content\":"))?;
        let content = self.captured_string_only()?;
        self.tokens(tokens!(b",\"priority\":"))?;
        let priority = self.captured_string_only()?;
        self.tokens(tokens!(b",\"status\":"))?;
        let status = self.captured_string_only()?;
        self.tokens(tokens!(b"}"))?;
        Some(EntrySpans {
            content: Some(content),
            priority: Some(priority),
            status: Some(status),
            meta: None,
        })
    }

    /// A string value, or `None` for anything else (nothing skimmed).
    fn captured_string_only(&mut self) -> Option<StringSpan> {
        if self.peek()? != b'"' {
            return None;
        }
        let (start, end, escaped) = self.string()?;
        Some(StringSpan {
            start,
            end,
            escaped,
        })
    }

    /// `plan_update`'s `plan`: every member any plan type may carry (which
    /// may appear together is the well-formed read's decision).
    fn captured_plan(&mut self) -> Option<()> {
        if self.peek()? != b'{' {
            return self.untyped_value();
        }
        self.capture.plan_seen = true;
        self.object(|skim, key| {
            match key {
                b"type" => skim.capture.plan_type = skim.captured_string()?,
                b"id" => skim.capture.id = skim.captured_string()?,
                b"planId" => skim.capture.plan_id = skim.captured_string()?,
                b"entries" => skim.captured_entries()?,
                b"uri" => skim.capture.uri = skim.captured_string()?,
                b"content" => skim.capture.content = skim.captured_string()?,
                b"_meta" => skim.capture.plan_meta = skim.captured_meta()?,
                _ => return skim.untyped_value(),
            }
            Some(())
        })
    }

    /// An object whose members `member` reads (it gets each name without
    /// escapes; repeated names fail).
    pub(super) fn object(
        &mut self,
        member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.object_named(Self::new_name, member)
    }

    /// The name at `start..end` of the object whose names start at
    /// `first_key`, kept if it is new; `None` if it repeats one, or the
    /// object has more than [`MAX_SKIM_MEMBERS`] (compared pairwise).
    fn new_name(&mut self, first_key: usize, (start, end): Span) -> Option<()> {
        let name = self.bytes.get(start..end)?;
        if self.keys.len() - first_key >= MAX_SKIM_MEMBERS
            || (self.keys[first_key..].iter()).any(|&(s, e)| self.bytes.get(s..e) == Some(name))
        {
            return None;
        }
        self.keys.push((start, end));
        Some(())
    }

    /// An object of any size whose members are values (the plain read):
    /// its names compared by their hashes. Equal hashes are taken for a
    /// repeat: a name that only collides costs the exact look, nothing
    /// more.
    ///
    /// The names are hashed as sent (an escaped name is declined before),
    /// with a seed of its own, as `trace::is_plain` does: with a fixed one
    /// a trace could choose names whose hashes pile up in one place of the
    /// table.
    #[inline(never)]
    fn wide_object(&mut self) -> Option<()> {
        use std::hash::BuildHasher;
        let hasher = foldhash::fast::RandomState::default();
        let mut names = NameHashes::default();
        let new_name = |skim: &mut Self, _, (start, end): Span| {
            names
                .insert(hasher.hash_one(skim.bytes.get(start..end)?))
                .then_some(())
        };
        self.object_named(new_name, |skim, _| skim.value())?;
        names.all_distinct().then_some(())
    }

    /// An object whose names `new_name` takes (given where the object's
    /// names start in `keys`, and the name's span, without escapes) and
    /// whose members `member` reads.
    fn object_named(
        &mut self,
        mut new_name: impl FnMut(&mut Self, usize, Span) -> Option<()>,
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
                if escaped {
                    return None;
                }
                new_name(self, first_key, (start, end))?;
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

    /// An array whose elements `element` reads.
    fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        self.depth += 1;
        if self.depth > self.max_depth {
            return None;
        }
        self.whitespace();
        if self.eat(b']').is_none() {
            loop {
                self.whitespace();
                element(self)?;
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
            b'{' if self.wide => self.wide_object(),
            b'{' => self.object(|skim, _| skim.value()),
            b'[' => self.array(Self::value),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => None,
        }
    }

    #[inline(always)]
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// The JSON tokens of `pattern` (punctuation, and strings without
    /// escapes or punctuation), with the whitespace JSON allows before,
    /// between and after them: `{"a":` also matches `{ "a" : `. Byte for
    /// byte first as written, then as Python's `json.dumps` writes it (a
    /// space after each `:` and `,`), then any other way. All or nothing:
    /// on a mismatch the position is where it was.
    #[inline(always)]
    pub(super) fn tokens(&mut self, pattern: Tokens) -> Option<()> {
        if self.literal(pattern.compact).is_some() || self.literal(pattern.python).is_some() {
            // Whitespace is below b'!': one compare for the common case.
            if self.peek().is_some_and(|b| b <= b' ') {
                self.whitespace();
            }
            return Some(());
        }
        let start = self.at;
        let matched = self.spaced_tokens(pattern.compact);
        if matched.is_none() {
            self.at = start;
        }
        matched
    }

    /// [`Skim::tokens`] for a line that is not the pattern byte for byte:
    /// runs of equal bytes, with whitespace between them where the pattern
    /// is outside its strings (between two tokens, since it has no other
    /// values). Most lines that are not for the caller (requests,
    /// responses) fail at the end of the first run.
    #[cold]
    #[inline(never)]
    fn spaced_tokens(&mut self, pattern: &[u8]) -> Option<()> {
        let mut matched = 0;
        loop {
            let rest = self.bytes.get(self.at..)?;
            let same = common_prefix(rest, pattern.get(matched..)?);
            self.at += same;
            matched += same;
            if matched == pattern.len() {
                self.whitespace();
                return Some(());
            }
            let quotes = pattern.get(..matched)?.iter().filter(|&&b| b == b'"');
            let in_string = quotes.count() % 2 == 1;
            if in_string || !matches!(rest.get(same)?, b' ' | b'\t' | b'\r' | b'\n') {
                return None;
            }
            self.whitespace();
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, when a double
    /// surely holds it: one that may not goes to the exact path, which names
    /// it (ENV-NUMBER-RANGE). See `interop::may_hold_unpredictable`.
    pub(super) fn number(&mut self) -> Option<()> {
        let _ = self.eat(b'-');
        let whole = self.at;
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.at - whole > MAX_SKIM_NUMBER_DIGITS {
            return None;
        }
        if self.eat(b'.').is_some() {
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            let grows = self.peek() != Some(b'-');
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if !self.peek()?.is_ascii_digit() {
                return None;
            }
            let exponent = self.at;
            self.digits();
            if grows && self.at - exponent > 2 {
                return None;
            }
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
    #[inline]
    pub(super) fn string(&mut self) -> Option<(usize, usize, bool)> {
        // Most strings (member names, enum values, ids) end within sixteen
        // bytes (eight without SSE2) and have no escape: read here, inline,
        // without the general loop.
        let start = self.at + 1;
        if self.peek() == Some(b'"') {
            #[cfg(target_arch = "x86_64")]
            if let Some(chunk) = self
                .bytes
                .get(start..)
                .and_then(|rest| rest.first_chunk::<16>())
            {
                let found = sse2_quotes_or_backslashes(chunk);
                let end = found.trailing_zeros() as usize;
                if found == 0 {
                    // Neither byte in these sixteen: on from there.
                    self.at = start + 16;
                    return self.rest_of_string(start);
                }
                if chunk.get(end) == Some(&b'"') {
                    self.at = start + end + 1;
                    return Some((start, start + end, false));
                }
                return self.any_string();
            }
            if let Some(&word) = self
                .bytes
                .get(start..)
                .and_then(|rest| rest.first_chunk::<8>())
            {
                if let Some(end) = quote_before_backslash(u64::from_le_bytes(word)) {
                    self.at = start + end + 1;
                    return Some((start, start + end, false));
                }
            }
        }
        self.any_string()
    }

    /// [`Skim::string`] in general: long strings and escapes.
    fn any_string(&mut self) -> Option<(usize, usize, bool)> {
        self.eat(b'"')?;
        self.rest_of_string(self.at)
    }

    /// The rest of the string whose content starts at `start`, from the
    /// current position (no byte between is a `"` or a `\\`).
    #[inline(never)]
    fn rest_of_string(&mut self, start: usize) -> Option<(usize, usize, bool)> {
        let mut escaped = false;
        loop {
            let rest = self.bytes.get(self.at..)?;
            // After an escape the string is likely long text with more of
            // them: straight to the vector search.
            self.at += if escaped {
                memchr::memchr2(b'"', b'\\', rest)?
            } else {
                quote_or_backslash(rest)?
            };
            if self.eat(b'"').is_some() {
                return Some((start, self.at - 1, escaped));
            }
            // A backslash: the escapes serde_json accepts when it skips a
            // string (any four hex digits after `\u`), but half of a
            // character goes to the exact path, which names it
            // (ENV-UNPAIRED-SURROGATE).
            escaped = true;
            self.at += 1;
            match self.peek()? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at += 1,
                b'u' => self.unicode_escape()?,
                _ => return None,
            }
        }
    }

    /// A `\u` escape (at its `u`): a whole character, or a surrogate
    /// pair; `None` for half of one.
    #[cold]
    #[inline(never)]
    fn unicode_escape(&mut self) -> Option<()> {
        let unit = hex_unit(self.bytes.get(self.at + 1..self.at + 5)?)?;
        self.at += 5;
        if (0xD800..0xDC00).contains(&unit) {
            let low = (self.bytes.get(self.at..self.at + 2) == Some(b"\\u"))
                .then(|| hex_unit(self.bytes.get(self.at + 2..self.at + 6)?))
                .flatten()?;
            if !(0xDC00..0xE000).contains(&low) {
                return None;
            }
            self.at += 6;
        } else if (0xDC00..0xE000).contains(&unit) {
            return None;
        }
        Some(())
    }
}

/// A run of JSON tokens for [`Skim::tokens`], written without whitespace,
/// and the same with Python's spacing (made by [`tokens!`]).
#[derive(Clone, Copy)]
pub(super) struct Tokens {
    pub(super) compact: &'static [u8],
    pub(super) python: &'static [u8],
}

/// `compact` with a space after each `:` and `,` outside its strings, in the
/// first bytes of the array (the count is the second value).
pub(super) const fn python_spacing<const N: usize>(compact: &[u8]) -> ([u8; N], usize) {
    let (mut spaced, mut length, mut at, mut in_string) = ([0; N], 0, 0, false);
    while at < compact.len() {
        let byte = compact[at];
        spaced[length] = byte;
        length += 1;
        if byte == b'"' {
            in_string = !in_string;
        } else if !in_string && (byte == b':' || byte == b',') {
            spaced[length] = b' ';
            length += 1;
        }
        at += 1;
    }
    (spaced, length)
}

/// How many bytes `a` and `b` have in common from their start, compared
/// eight at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut same = 0;
    while let (Some(x), Some(y)) = (
        a.get(same..).and_then(|a| a.first_chunk::<8>()),
        b.get(same..).and_then(|b| b.first_chunk::<8>()),
    ) {
        let differ = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if differ != 0 {
            return same + differ.trailing_zeros() as usize / 8;
        }
        same += 8;
    }
    same + (a.get(same..).unwrap_or_default().iter())
        .zip(b.get(same..).unwrap_or_default())
        .take_while(|(x, y)| x == y)
        .count()
}

/// The code unit of a `\u` escape's four hex digits.
fn hex_unit(hex: &[u8]) -> Option<u16> {
    let hex: &[u8; 4] = hex.try_into().ok()?;
    hex.iter().try_fold(0u16, |unit, &b| {
        let digit = char::from(b).to_digit(16)?;
        Some(unit << 4 | u16::try_from(digit).ok()?)
    })
}

/// Digits of a number's whole part past which the exact path reads it
/// (with an exponent of two digits, a double surely holds up to 200).
const MAX_SKIM_NUMBER_DIGITS: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::test_lines::{mutate, respace, with_and_without_handshake, HANDSHAKE};

    /// Every word of eight bytes over quotes, backslashes and bytes near
    /// them (0x21, 0x5d, 0xa2 and 0xdc differ from them in one bit or by
    /// one): the word trick finds what a byte-by-byte scan finds.
    #[test]
    fn quote_before_backslash_is_a_scan_of_eight_bytes() {
        let alphabet = [b'"', b'\\', b'!', b']', 0xa2, 0xdc];
        for mut n in 0..alphabet.len().pow(8) {
            let mut word = [0u8; 8];
            for byte in &mut word {
                *byte = alphabet[n % alphabet.len()];
                n /= alphabet.len();
            }
            let scan = word
                .iter()
                .position(|&b| b == b'"' || b == b'\\')
                .filter(|&at| word[at] == b'"');
            assert_eq!(
                quote_before_backslash(u64::from_le_bytes(word)),
                scan,
                "{word:?}"
            );
        }
    }

    /// The search for the end of a string finds what a byte-by-byte scan
    /// finds, whichever of its sixteen-byte, eight-byte and `memchr` steps
    /// it is in: every length to 100, with a quote, a backslash or a byte
    /// one bit or one step from them at every place, alone or before a
    /// quote further on.
    #[test]
    fn quote_or_backslash_is_a_scan() {
        for length in 0..100 {
            for byte in [b'"', b'\\', b'!', b']', 0xa2, 0xdc] {
                for at in 0..length {
                    for later in [None, Some((at + 1..length).len() / 2 + at)] {
                        let mut bytes = vec![b'a'; length];
                        bytes[at] = byte;
                        if let Some(later) = later.filter(|&later| later > at) {
                            bytes[later] = b'"';
                        }
                        let scan = bytes.iter().position(|&b| b == b'"' || b == b'\\');
                        assert_eq!(quote_or_backslash(&bytes), scan, "{bytes:?}");
                    }
                }
            }
        }
    }

    /// The inline read of short strings ([`Skim::string`]) ends where the
    /// general one ([`Skim::any_string`]) does, whatever the string's length
    /// (across the sixteen bytes it reads), and wherever a quote or a backslash
    /// comes in it, however many bytes follow the string in the line.
    #[test]
    fn short_strings_read_as_the_general_read() {
        for length in 0..24 {
            for special in [None, Some(b'"'), Some(b'\\')] {
                for at in 0..length.max(1) {
                    for tail in [&b""[..], b"x", b"\",:1,\"b\":[1,2,3,4,5,6,7,8,9]}"] {
                        let mut line = vec![b'"'];
                        line.extend((0..length).map(|i| match special {
                            Some(byte) if i == at => byte,
                            _ => b'a' + (i % 26) as u8,
                        }));
                        line.push(b'"');
                        line.extend_from_slice(tail);
                        let read = |general: bool| {
                            let (mut keys, mut capture) = (Vec::new(), PlanCapture::default());
                            let mut skim = Skim::start(&line, 64, &mut keys, &mut capture, true);
                            let found = if general {
                                skim.any_string()
                            } else {
                                skim.string()
                            };
                            (found, skim.at)
                        };
                        assert_eq!(
                            read(false),
                            read(true),
                            "{:?}",
                            String::from_utf8_lossy(&line)
                        );
                    }
                }
            }
        }
    }

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
    fn scans_bytes_for_control_and_non_ascii() {
        let mut rng = fastrand::Rng::with_seed(5);
        for _ in 0..20_000 {
            let len = rng.usize(0..200);
            let bytes: Vec<u8> = (0..len)
                .map(|_| match rng.u8(0..40) {
                    0 => rng.u8(..0x20),
                    1 => rng.u8(0x80..),
                    _ => rng.u8(0x20..0x80),
                })
                .collect();
            let expected = if bytes.iter().any(|&b| b < 0x20) {
                Bytes::Control
            } else if bytes.is_ascii() {
                Bytes::Ascii
            } else {
                Bytes::NonAscii
            };
            assert_eq!(scan_bytes(&bytes), expected, "{bytes:?}");
        }
        // One byte at every place of every length to 80, around the bounds
        // of both classes: in a whole block or in the last, overlapping one.
        for len in 0..80 {
            for at in 0..len {
                for byte in [0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = byte;
                    let expected = match byte {
                        0x00..=0x1f => Bytes::Control,
                        0x20..=0x7f => Bytes::Ascii,
                        _ => Bytes::NonAscii,
                    };
                    assert_eq!(scan_bytes(&bytes), expected, "{bytes:?}");
                }
            }
        }
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
    fn python_spacing_spaces_punctuation_outside_strings() {
        let spaced = tokens!(b"{\"a\":\"b,c:\",\"d\":[");
        assert_eq!(spaced.compact, br#"{"a":"b,c:","d":["#);
        assert_eq!(spaced.python, br#"{"a": "b,c:", "d": ["#);
    }

    /// Whitespace between the tokens of a pattern, never inside a string.
    #[test]
    fn tokens_take_whitespace_between_tokens_only() {
        let read = |line: &str| {
            let (mut keys, mut capture) = (Vec::new(), PlanCapture::default());
            let mut skim = Skim::start(line.as_bytes(), 64, &mut keys, &mut capture, true);
            let matched = skim.tokens(tokens!(b",\"content\":{"));
            (matched.is_some(), skim.at)
        };
        for (line, at) in [
            (r#","content":{x"#, 12),
            (r#", "content": {x"#, 14),
            (" ,\t\"content\"\r\n: { x", 18),
            (r#" , "content" :  {  "#, 19),
        ] {
            assert_eq!(read(line), (true, at), "{line:?}");
        }
        for line in [
            r#","content" x"#,
            r#", "con tent": {"#,
            r#", " content": {"#,
            r#", "content ": {"#,
            r#",, "content": {"#,
            r#", "content": "#,
            "",
        ] {
            assert_eq!(read(line), (false, 0), "{line:?}");
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
        // What RFC 8259 calls unpredictable, anywhere: the exact path names
        // it. A whole character, or a number a double holds, is read on.
        let update = |value: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"x","a":{value}}}}}}}"#
            )
        };
        let long = "9".repeat(201);
        for value in [
            r#""\ud83d""#,
            r#""\ud83dx""#,
            r#""\ud83d\u0041""#,
            r#""\ude00\ud83d""#,
            r#"["\uDFFF"]"#,
            "1e999",
            "-1E+400",
            "0.5e100",
            &long,
        ] {
            assert_eq!(skim(&update(value)), None, "{value}");
        }
        let short = "9".repeat(200);
        for value in [
            r#""\ud83d\ude00""#,
            r#""\uD83D\uDE00 \u00e9""#,
            "1e99",
            "-1.5E-400",
            &short,
        ] {
            assert!(skim(&update(value)).is_some(), "{value}");
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
                "\\ud83d\\ude00",
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
            "-1E+0309",
            "1e300",
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

    /// Plan updates as agents write them (`sessionUpdate` first), each
    /// member now and then spelled or typed otherwise: strings with
    /// escapes (lone surrogates too), custom and unknown values, `null`s,
    /// missing, extra and misplaced members, `_meta` of every type.
    fn plan_update_object() -> impl Strategy<Value = String> {
        use prop::sample::select;
        let text = select(vec![
            "\"a\"",
            "\"step 1: run the tests\"",
            "\"a\\\"b\\n\\u00e9\\/\"",
            "\"\\ud800\"",
            "\"\"",
            "\"é😀\"",
            "null",
            "1",
        ]);
        let priority = select(vec![
            "\"high\"",
            "\"medium\"",
            "\"low\"",
            "\"_p\"",
            "\"urgent\"",
            "\"hi\\u0067h\"",
            "null",
        ]);
        let status = select(vec![
            "\"pending\"",
            "\"in_progress\"",
            "\"completed\"",
            "\"cancelled\"",
            "\"_s\"",
            "\"done\"",
            "\"pendin\\u0067\"",
        ]);
        let meta = select(vec![
            "{}",
            "{\"a\":[1,2.5,{\"b\":null}]}",
            "null",
            "1",
            "\"m\"",
            "[]",
            "{\"n\":1e400}",
            "{\"s\":\"\\ud800\"}",
        ]);
        let entry = (
            text.clone(),
            priority,
            status,
            prop::option::weighted(0.2, meta.clone()),
            0..10u8,
        )
            .prop_map(|(content, priority, status, meta, how)| {
                let mut members = vec![
                    format!("\"content\":{content}"),
                    format!("\"priority\":{priority}"),
                    format!("\"status\":{status}"),
                ];
                if let Some(meta) = meta {
                    members.push(format!("\"_meta\":{meta}"));
                }
                match how {
                    0 => drop(members.remove(0)),
                    1 => members.push("\"x\":1".into()),
                    2 => members.reverse(),
                    _ => {}
                }
                format!("{{{}}}", members.join(","))
            });
        let entries = prop_oneof![
            12 => prop::collection::vec(entry, 0..4).prop_map(|e| format!("[{}]", e.join(","))),
            1 => select(vec!["null", "[1]", "{}", "[[]]"]).prop_map(str::to_owned),
        ];
        let id = prop_oneof![
            6 => select(vec!["\"p\"", "\"plan-0\""]),
            1 => select(vec!["\"\"", "\"p\\u0031\"", "null", "1"]),
        ];
        let id_key = select(vec!["planId", "id"]);
        let uri = select(vec![
            "\"file:///w/plan.md\"",
            "\"plan.md\"",
            "\"file:\\/\\/\\/a\"",
            "\"http://x y\"",
        ]);
        let plan_type = prop_oneof![
            6 => select(vec!["\"items\"", "\"markdown\"", "\"file\""]),
            1 => select(vec!["\"_custom\"", "\"item\\u0073\"", "null"]),
        ];
        let plan = (
            plan_type,
            id_key.clone(),
            id.clone(),
            prop::option::weighted(0.1, id.clone()),
            entries.clone(),
            uri,
            text,
            prop::option::weighted(0.2, meta.clone()),
            0..12u8,
        )
            .prop_map(
                |(plan_type, key, id, other, entries, uri, content, meta, how)| {
                    let mut members =
                        vec![format!("\"type\":{plan_type}"), format!("\"{key}\":{id}")];
                    if let Some(other) = other {
                        let other_key = if key == "id" { "planId" } else { "id" };
                        members.push(format!("\"{other_key}\":{other}"));
                    }
                    match (plan_type, how) {
                        (_, 0) => members.push(format!("\"entries\":{entries},\"uri\":{uri}")),
                        (_, 1) => members.push("\"markdown\":\"# a\"".into()),
                        ("\"markdown\"", _) => members.push(format!("\"content\":{content}")),
                        ("\"file\"", _) => members.push(format!("\"uri\":{uri}")),
                        _ => members.push(format!("\"entries\":{entries}")),
                    }
                    if let Some(meta) = meta {
                        members.push(format!("\"_meta\":{meta}"));
                    }
                    if how == 2 {
                        members.reverse();
                    }
                    format!("{{{}}}", members.join(","))
                },
            );
        let body = prop_oneof![
            2 => entries.prop_map(|e| ("\"plan\"", format!("\"entries\":{e}"))),
            4 => plan.prop_map(|p| ("\"plan_update\"", format!("\"plan\":{p}"))),
            2 => (id_key, id).prop_map(|(k, id)| ("\"plan_removed\"", format!("\"{k}\":{id}"))),
        ];
        (body, prop::option::weighted(0.2, meta), 0..12u8).prop_map(|((kind, body), meta, how)| {
            let mut members = vec![format!("\"sessionUpdate\":{kind}"), body];
            if let Some(meta) = meta {
                members.push(format!("\"_meta\":{meta}"));
            }
            match how {
                // Not first: the one-pass read leaves it to the text read.
                0 => members.rotate_left(1),
                1 => members.push("\"extra\":[]".into()),
                2 => members.push("\"plan\":{}".into()),
                3 => members.push("\"entries\":[]".into()),
                _ => {}
            }
            format!("{{{}}}", members.join(","))
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
        let update = prop_oneof![2 => update, 1 => plan_update_object()];
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
        (update_line(), any::<prop::sample::Index>(), byte, 0..3u8)
            .prop_map(|(line, at, byte, how)| mutate(line, at, byte, how))
    }

    /// An update line spaced as [`respace`] does.
    fn spaced_line() -> impl Strategy<Value = Vec<u8>> {
        let space = prop::sample::select(vec!["", "", " ", " ", "  ", "\t", "\r", " \t"]);
        (update_line(), prop::collection::vec(space, 1..8))
            .prop_map(|(line, spaces)| respace(&line, &spaces).into_bytes())
    }

    /// Whatever the fast path accepts, the exact path reads the same way
    /// and finds nothing to say about.
    fn agrees_with_exact_path(line: &[u8], framing: SkimFraming) -> Result<(), TestCaseError> {
        let mut skimmer = Skimmer::default();
        let Some(skimmed) = skimmer.skim_update(line, 128, framing) else {
            return Ok(());
        };
        // The plan message typed in the same pass is the one the
        // well-formed read gives (which tests in `rules::shape` hold to the
        // strict parser); when it types none, the validator reads the
        // update's text as before.
        for revision in Revision::ALL {
            for max_entries in [1, 100] {
                if let Some(typed) = skimmer.typed_plan(skimmed.line, revision, max_entries) {
                    let read = shape::parse_well_formed(
                        skimmed.update,
                        skimmed.kind,
                        revision,
                        max_entries,
                    );
                    prop_assert_eq!(Some(typed), read, "{:?}", revision);
                }
            }
        }
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
                PlanRead::WellFormed(message) => prop_assert_eq!(Some(message), typed),
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

    /// The compact forms (a whole update line, an entry) read a line as
    /// the general read does: the same structure, the same end, the same
    /// typed plan. Returns whether the compact line form took it.
    fn compact_agrees(
        line: &[u8],
        framing: SkimFraming,
        max_depth: usize,
    ) -> Result<bool, TestCaseError> {
        let read = |compact: bool| {
            let (mut keys, mut capture) = (Vec::new(), PlanCapture::default());
            let mut skim = Skim {
                bytes: line,
                at: 0,
                depth: 0,
                max_depth,
                keys: &mut keys,
                capture: &mut capture,
                compact,
                wide: false,
            };
            let found = if compact {
                skim.compact_line(framing)
            } else {
                skim.line(framing)
            };
            let at = skim.at;
            let text = String::from_utf8_lossy(line).into_owned();
            let typed: Vec<_> = Revision::ALL
                .into_iter()
                .map(|revision| capture.typed_plan(&text, revision, 100, &mut Spare::default()))
                .collect();
            (found, at, typed)
        };
        let (compact, at, typed) = read(true);
        let Some(compact) = compact else {
            return Ok(false);
        };
        let (general, general_at, general_typed) = read(false);
        prop_assert_eq!(Some(compact), general);
        prop_assert_eq!(at, general_at);
        prop_assert_eq!(typed, general_typed);
        Ok(true)
    }

    /// Objects of up to 80 members (past the pairwise compare), each name
    /// new or, now and then, an earlier one again (so that a repeat may
    /// come past the first 32), now and then escaped, values of every kind;
    /// now and then one inside another.
    fn wide_object() -> impl Strategy<Value = String> {
        // Most values plain, names rarely escaped: anything the read
        // declines for its own sake hides what comes after it.
        let value = prop_oneof![8 => Just("[1]".to_owned()), 1 => json_value()];
        let member = (
            prop::bool::weighted(0.03),
            any::<prop::sample::Index>(),
            0u8..200,
            value,
        );
        (prop::collection::vec(member, 0..80), any::<bool>()).prop_map(|(members, nested)| {
            let members: Vec<String> = (members.iter().enumerate())
                .map(|(i, (again, earlier, form, value))| {
                    let n = if *again && i > 0 { earlier.index(i) } else { i };
                    let name = if *form == 0 {
                        format!("\\u006e{n}")
                    } else {
                        format!("n{n}")
                    };
                    format!("\"{name}\":{value}")
                })
                .collect();
            let object = format!("{{{}}}", members.join(","));
            match nested {
                true => format!("{{\"a\":[{object}],\"b\":{object}}}"),
                false => object,
            }
        })
    }

    /// The plain read takes large objects, and declines a repeat wherever
    /// it is, an escaped name, and nesting past its depth.
    #[test]
    fn the_plain_read_takes_large_objects_and_declines_repeats() {
        let object = |names: &[usize]| {
            let members: Vec<String> = names.iter().map(|n| format!("\"k{n}\":[{n}]")).collect();
            format!("{{{}}}", members.join(","))
        };
        let plain = |text: &str| Skimmer::default().reads_plainly(text.as_bytes(), 128);
        // Past the 4 096 hashes a table takes, too (`NameHashes`).
        let distinct: Vec<usize> = (0..10_000).collect();
        assert!(plain(&object(&distinct)));
        for (repeat, of) in [
            (5, 2),
            (40, 0),
            (40, 3),
            (40, 35),
            (199, 150),
            (9_000, 3),
            (9_000, 5_000),
            (9_999, 9_998),
        ] {
            let mut names = distinct.clone();
            names[repeat] = of;
            assert!(!plain(&object(&names)), "{repeat} repeats {of}");
        }
        let escaped = object(&distinct).replace("\"k150\"", "\"\\u006b150\"");
        assert!(!plain(&escaped));
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        assert!(plain(&nested(100)));
        assert!(!plain(&nested(129)));
        assert!(!Skimmer::default().reads_plainly(nested(100).as_bytes(), 64));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// What the plain read takes holds nothing the exact look names:
        /// no member repeated, in objects of any size, and nothing
        /// unpredictable.
        #[test]
        fn what_reads_plainly_holds_nothing_to_name(
            value in prop_oneof![json_value(), wide_object()]
        ) {
            if Skimmer::default().reads_plainly(value.as_bytes(), 128) {
                prop_assert!(crate::trace::duplicate_members(&value, 1).is_empty(), "{}", value);
                prop_assert!(crate::trace::interop::find(&value, 1).is_none(), "{}", value);
                prop_assert!(serde_json::from_str::<serde::de::IgnoredAny>(&value).is_ok());
            }
        }

        /// The look at the bytes that spares most lines the scan misses
        /// nothing the scan finds.
        #[test]
        fn the_look_at_the_bytes_misses_no_unpredictable_value(value in json_value()) {
            if crate::trace::interop::scan(&value, 1).is_some() {
                prop_assert!(crate::trace::interop::may_hold_unpredictable(value.as_bytes()));
            }
        }

        #[test]
        fn compact_forms_read_as_the_general_read(line in prop_oneof![
            update_line().prop_map(String::into_bytes),
            mutated_line(),
            spaced_line(),
        ], max_depth in prop::sample::select(vec![3usize, 4, 5, 64])) {
            compact_agrees(&line, SkimFraming::Record, max_depth)?;
            compact_agrees(&line, SkimFraming::Message, max_depth)?;
        }

        #[test]
        fn generated_lines_read_alike(line in update_line()) {
            agrees_with_exact_path(line.as_bytes(), SkimFraming::Record)?;
            agrees_with_exact_path(line.as_bytes(), SkimFraming::Message)?;
        }

        #[test]
        fn spaced_lines_read_alike(line in spaced_line()) {
            agrees_with_exact_path(&line, SkimFraming::Record)?;
            agrees_with_exact_path(&line, SkimFraming::Message)?;
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
            spaced_line(),
        ], 1..12)) {
            for trace in with_and_without_handshake(HANDSHAKE, lines) {
                same_verdict(&trace)?;
            }
        }
    }

    /// The properties above are not vacuous: the fast path takes many of
    /// the generated lines (plans among them) and declines many.
    #[test]
    fn generated_lines_are_taken_and_declined() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut taken, mut plans, mut declined) = (0, 0, 0);
        // Plan updates typed in the pass, and well-formed ones left to the
        // text read, under some revision.
        let (mut typed, mut untyped, mut compact, mut spaced) = (0, 0, 0, 0);
        let mut skimmer = Skimmer::default();
        for _ in 0..2000 {
            let line = update_line().new_tree(&mut runner).unwrap().current();
            compact +=
                usize::from(compact_agrees(line.as_bytes(), SkimFraming::Record, 64).unwrap());
            // As Python writes it, and with odd spaces and tabs around the
            // punctuation.
            for spaces in [&[""] as &[&str], &[" "], &["", " ", "\t ", ""]] {
                let line = respace(&line, spaces).replace("{ ", "{").replace("[ ", "[");
                spaced +=
                    usize::from(compact_agrees(line.as_bytes(), SkimFraming::Record, 64).unwrap());
            }
            match skimmer.skim_update(line.as_bytes(), 128, SkimFraming::Record) {
                Some(read) if shape::PLAN_KINDS.contains(&read.kind) => {
                    plans += 1;
                    let by_revision = Revision::ALL.map(|revision| {
                        let fast = skimmer.typed_plan(read.line, revision, 100).is_some();
                        let text = shape::parse_well_formed(read.update, read.kind, revision, 100);
                        (fast, text.is_some())
                    });
                    typed += usize::from(by_revision.iter().any(|&(fast, _)| fast));
                    untyped += usize::from(by_revision.iter().any(|&(fast, text)| text && !fast));
                }
                Some(_) => taken += 1,
                None => declined += 1,
            }
        }
        assert!(
            taken > 100
                && plans > 100
                && declined > 400
                && typed > 80
                && untyped > 10
                && compact > 100
                && spaced > 3 * 100,
            "{taken} {plans} {declined} {typed} {untyped} {compact} {spaced}"
        );
    }

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
            SyntheticParams {
                messages: 300,
                spacing: crate::gen::Spacing::Python,
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
