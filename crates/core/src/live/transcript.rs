//! Transcripts: the messages of one live connection, numbered as the
//! validator saw them, optionally written as an envelope trace that
//! `acp-plan check` re-checks with the same result.
//!
//! A message that parses as a JSON object is written as an envelope
//! `{"direction", "message", "time"}` with the message's bytes unchanged. A
//! line that does not (not UTF-8, not JSON, not an object, duplicate keys)
//! is written bare, as received, so `check` reports the same fault on the
//! same line. A line over the length limit was never buffered: it becomes a
//! blank line, which keeps the numbering (`check` skips blank lines, so it
//! does not repeat that line's `TRACE-LIMIT`).

use crate::jsonrpc::Direction;
use crate::trace::parse_message;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Messages remembered for incident reports.
const RECENT_MESSAGES: usize = 6;
/// Characters of each remembered message.
const RECENT_CHARS: usize = 300;

/// `shorten(String::from_utf8_lossy(bytes).trim_end(), max)` into `out`,
/// without a pass of the lossy decoder (byte by byte) over valid UTF-8 and
/// without counting characters when the text is ASCII up to the cut.
fn recent_text(bytes: &[u8], max: usize, out: &mut String) {
    out.clear();
    let lossy;
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => {
            lossy = String::from_utf8_lossy(bytes);
            &lossy
        }
    }
    .trim_end();
    let cut = match text.as_bytes().get(..=max) {
        // No more bytes, so no more characters, than `max`.
        None => None,
        Some(head) if head.is_ascii() => Some(max),
        Some(_) => text.char_indices().nth(max).map(|(cut, _)| cut),
    };
    match cut.and_then(|cut| text.get(..cut)) {
        Some(kept) => {
            out.push_str(kept);
            out.push('…');
        }
        None => out.push_str(text),
    }
}

/// One recent message, shortened, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentMessage {
    /// Its line in the transcript.
    pub line: u64,
    /// Who sent it.
    pub direction: Direction,
    /// The message, shortened.
    pub text: String,
}

/// The record of one live connection: numbers its lines as `check` of the
/// written transcript numbers them, writes the envelope trace when asked
/// to, and keeps the last messages for the report of a failure.
pub(crate) struct Transcript {
    file: Option<(PathBuf, BufWriter<File>)>,
    write_error: Option<io::Error>,
    lines: u64,
    max_depth: usize,
    recent: VecDeque<RecentMessage>,
}

impl Transcript {
    /// A transcript that only numbers lines and remembers recent messages.
    pub(crate) fn in_memory(max_depth: usize) -> Transcript {
        Transcript {
            file: None,
            write_error: None,
            lines: 0,
            max_depth,
            recent: VecDeque::new(),
        }
    }

    /// A transcript written to `path` (created or truncated).
    pub(crate) fn to_file(path: &Path, max_depth: usize) -> io::Result<Transcript> {
        let file = File::create(path)?;
        let mut transcript = Transcript::in_memory(max_depth);
        transcript.file = Some((path.to_owned(), BufWriter::new(file)));
        Ok(transcript)
    }

    /// Lines so far (the number of the last one).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Record one message line; returns its line number.
    pub fn record(&mut self, direction: Direction, bytes: &[u8]) -> u64 {
        self.lines += 1;
        // The oldest message's text is reused: the tap records every
        // message it checks, so this runs at the traffic's rate.
        let mut text = String::new();
        if self.recent.len() == RECENT_MESSAGES {
            if let Some(oldest) = self.recent.pop_front() {
                text = oldest.text;
            }
        }
        recent_text(bytes, RECENT_CHARS, &mut text);
        self.recent.push_back(RecentMessage {
            line: self.lines,
            direction,
            text,
        });
        // Only a transcript written to a file needs the envelope.
        if self.file.is_some() {
            let line = envelope_line(direction, bytes, self.max_depth);
            self.write(&line);
        }
        self.lines
    }

    /// Record a line whose bytes were not kept (over the length limit, or
    /// skipped by the tap); returns its line number.
    pub(crate) fn record_gap(&mut self) -> u64 {
        self.lines += 1;
        self.write(b"\n");
        self.lines
    }

    /// The last messages recorded, oldest first, shortened, for the report of a failure.
    pub fn recent(&self) -> impl Iterator<Item = &RecentMessage> {
        self.recent.iter()
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.write_error.is_some() {
            return;
        }
        if let Some((_, writer)) = &mut self.file {
            if let Err(e) = writer.write_all(bytes).and_then(|()| writer.flush()) {
                self.write_error = Some(e);
            }
        }
    }

    /// Flush and close; the path written, or the first write error.
    pub fn finish(mut self) -> io::Result<Option<PathBuf>> {
        if let Some(e) = self.write_error.take() {
            return Err(e);
        }
        match self.file.take() {
            None => Ok(None),
            Some((path, mut writer)) => {
                writer.flush()?;
                Ok(Some(path))
            }
        }
    }
}

/// One transcript line (with its newline) for a message.
pub(crate) fn envelope_line(direction: Direction, bytes: &[u8], max_depth: usize) -> Vec<u8> {
    let mut line = Vec::with_capacity(bytes.len() + 96);
    // The envelope adds one level of nesting around the message.
    if parse_message(bytes, max_depth.saturating_sub(1)).is_ok() {
        line.extend_from_slice(b"{\"direction\":\"");
        line.extend_from_slice(direction.as_str().as_bytes());
        line.extend_from_slice(b"\",\"message\":");
        line.extend_from_slice(bytes);
        line.extend_from_slice(b",\"time\":\"");
        line.extend_from_slice(now_rfc3339().as_bytes());
        line.extend_from_slice(b"\"}");
    } else {
        line.extend_from_slice(bytes);
    }
    line.push(b'\n');
    line
}

fn now_rfc3339() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::shorten;
    use crate::trace::{parse_record, Record};
    use proptest::prelude::*;

    proptest! {
        /// The recent message's text is what `shorten` makes of the lossy
        /// decoding, whatever the bytes (invalid UTF-8, multi-byte and
        /// whitespace characters around the cut, trailing whitespace).
        #[test]
        fn recent_text_is_the_shortened_lossy_text(
            parts in prop::collection::vec(prop::sample::select(vec![
                "a", "é", "😀", " ", "\u{3000}", "\n", "\u{85}",
                "\u{ff}", "\u{80}",
            ]), 0..40),
            raw in prop::collection::vec(prop::sample::select(vec![
                b'a', b' ', 0x80, 0xc3, 0xe3, 0xf0, 0xff,
            ]), 0..6),
            at in any::<prop::sample::Index>(),
            max in 0..12usize,
            reused in ".{0,8}",
        ) {
            let mut bytes = parts.concat().into_bytes();
            // Raw bytes (maybe invalid UTF-8) inserted anywhere.
            let i = at.index(bytes.len() + 1);
            bytes.splice(i..i, raw);
            let mut out = reused;
            recent_text(&bytes, max, &mut out);
            prop_assert_eq!(out, shorten(String::from_utf8_lossy(&bytes).trim_end(), max));
        }
    }

    #[test]
    fn long_lines_are_cut_after_their_first_characters() {
        let mut out = String::new();
        recent_text(&[b'x'; 1000], RECENT_CHARS, &mut out);
        assert_eq!(out, format!("{}…", "x".repeat(RECENT_CHARS)));
        recent_text("é".repeat(400).as_bytes(), RECENT_CHARS, &mut out);
        assert_eq!(out, format!("{}…", "é".repeat(RECENT_CHARS)));
        recent_text(b"short \n", RECENT_CHARS, &mut out);
        assert_eq!(out, "short");
    }

    #[test]
    fn objects_are_wrapped_and_faults_written_as_received() {
        let message = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let line = envelope_line(Direction::AgentToClient, message, 128);
        match parse_record(line.trim_ascii_end(), 128).unwrap() {
            Record::Envelope {
                direction, message, ..
            } => {
                assert_eq!(direction, "agent_to_client");
                assert_eq!(message.id.unwrap().get(), "1");
            }
            other => panic!("{other:?}"),
        }
        for raw in [&b"not json"[..], b"[1]", b"\xff", br#"{"id":1,"id":2}"#] {
            let line = envelope_line(Direction::AgentToClient, raw, 128);
            assert_eq!(&line[..line.len() - 1], raw);
        }
    }

    #[test]
    fn envelopes_stay_within_the_depth_limit() {
        // Four levels of nesting: fine bare under a limit of 4, but an
        // envelope would make it five.
        let deep = br#"{"a":{"b":{"c":[]}}}"#;
        assert!(parse_message(deep, 4).is_ok());
        let line = envelope_line(Direction::ClientToAgent, deep, 4);
        assert_eq!(&line[..line.len() - 1], deep);
    }

    #[test]
    fn numbering_and_recent_messages() {
        let mut t = Transcript::in_memory(128);
        assert_eq!(t.record(Direction::ClientToAgent, b"{}"), 1);
        assert_eq!(t.record_gap(), 2);
        for _ in 0..10 {
            t.record(Direction::AgentToClient, b"{}");
        }
        assert_eq!(t.lines(), 12);
        let recent: Vec<u64> = t.recent().map(|m| m.line).collect();
        assert_eq!(recent, [7, 8, 9, 10, 11, 12]);
    }
}
