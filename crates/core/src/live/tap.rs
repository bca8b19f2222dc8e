//! `acp-plan tap`: sit between a client and an agent, forward every byte
//! both ways unchanged, and check a copy of the traffic.
//!
//! Forwarding never waits for checking. Each forwarder reads a chunk,
//! offers a copy to a bounded queue without blocking, then writes the chunk
//! on. Offering the copy before writing keeps the copies in the order the
//! peers could see them (a request's copy is queued before the agent can
//! read it, so before any response). When the checker falls behind and the
//! queue is full, copies are dropped and counted: the checker skips to the
//! next whole line and reports a `TRACE-LIMIT` error for the gap. Memory is
//! bounded by the queue and the line limit, whatever the traffic.
//!
//! Stderr is the agent's own (inherited, not copied). SIGINT, SIGTERM and
//! SIGHUP are forwarded to the agent's process group, and the tap exits with
//! the agent's status (128 + N when a signal N ended it).

use super::process::{describe_status, signal_group, AgentCommand};
use super::transcript::Transcript;
use super::{SessionEnd, Unanswered};
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::rules::trace_format::LIMIT;
use crate::trace::RawLine;
use crate::validate::{Config, TraceReport, Validator};
use std::io::{self, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;

/// Bytes read (and copied) at a time.
pub(crate) const CHUNK_BYTES: usize = 64 * 1024;

/// Sees each diagnostic as it is found, with the connection's name.
pub type DiagnosticSink = Box<dyn FnMut(&str, &Diagnostic) + Send>;

/// What to run and where the results go.
pub struct TapOptions {
    /// The agent the tap starts and sits in front of.
    pub agent: AgentCommand,
    /// The checker's revision choice and limits.
    pub config: Config,
    /// Write the traffic as an envelope trace here.
    pub trace: Option<PathBuf>,
    /// Most bytes of copies waiting for the checker.
    pub backlog_bytes: usize,
}

/// How a tapped connection ended.
pub struct TapEnd {
    /// The agent's exit status, which the tap passes on.
    pub status: ExitStatus,
    /// The checker's report on the traffic both ways.
    pub report: TraceReport,
    /// How the session ended, beyond the rules.
    pub session: SessionEnd,
    /// Writing `--trace` failed.
    pub trace_error: Option<io::Error>,
}

impl TapEnd {
    /// The tap's own exit status: the agent's.
    pub fn exit_code(&self) -> u8 {
        exit_code(self.status)
    }
}

/// The exit code a shell would give for `status`: the code itself, or 128 plus the signal
/// number (1 when neither is known).
pub fn exit_code(status: ExitStatus) -> u8 {
    match (status.code(), status.signal()) {
        (Some(code), _) => u8::try_from(code & 0xff).unwrap_or(1),
        (None, Some(signal)) => u8::try_from((128 + signal) & 0xff).unwrap_or(1),
        _ => 1,
    }
}

/// A copy of forwarded traffic, for the checker.
#[derive(Debug)]
pub(crate) enum CopyEvent {
    /// Bytes forwarded in `direction`, as read (not cut at lines).
    Data {
        /// The direction the bytes travelled.
        direction: Direction,
        /// The bytes, as forwarded.
        bytes: Vec<u8>,
        /// Bytes of this direction dropped just before these.
        lost_before: u64,
    },
    /// No more traffic in `direction`. `cut_by_peer`: it ended because
    /// the receiving side stopped taking bytes, so a line being written
    /// then was cut by the receiver, not by its sender.
    Closed {
        /// The direction that ended.
        direction: Direction,
        /// Bytes of this direction dropped just before the end.
        lost_before: u64,
        /// Whether the receiving side stopped taking bytes (see above).
        cut_by_peer: bool,
    },
}

/// The copies waiting for the checker, bounded in bytes. (A bound in
/// chunks would not do: one read may bring 80 bytes or 64 KiB, so a queue
/// of N chunks holds anywhere from N small messages to N × 64 KiB.)
#[derive(Clone)]
pub struct CopyQueue {
    events: Sender<CopyEvent>,
    queued_bytes: Arc<AtomicUsize>,
    limit_bytes: usize,
    /// Newlines in the copies dropped: lines the checker never saw end.
    dropped_lines: Arc<AtomicU64>,
}

/// The checker's end of a [`CopyQueue`].
pub(crate) struct CopyReceiver {
    events: Receiver<CopyEvent>,
    queued_bytes: Arc<AtomicUsize>,
    dropped_lines: Arc<AtomicU64>,
}

/// A queue that holds at most `limit_bytes` of copied data (and always at
/// least one chunk, so a tiny limit still lets the checker see something).
pub(crate) fn copy_queue(limit_bytes: usize) -> (CopyQueue, CopyReceiver) {
    let (events, receiver) = mpsc::channel();
    let queued_bytes = Arc::new(AtomicUsize::new(0));
    let dropped_lines = Arc::new(AtomicU64::new(0));
    (
        CopyQueue {
            events,
            queued_bytes: Arc::clone(&queued_bytes),
            limit_bytes,
            dropped_lines: Arc::clone(&dropped_lines),
        },
        CopyReceiver {
            events: receiver,
            queued_bytes,
            dropped_lines,
        },
    )
}

impl CopyQueue {
    /// Queue a copy of `bytes` unless that would exceed the limit; never waits.
    fn offer(&self, direction: Direction, bytes: &[u8], lost_before: u64) -> bool {
        let size = bytes.len();
        let before = self.queued_bytes.fetch_add(size, Ordering::SeqCst);
        let over = before > 0 && before.saturating_add(size) > self.limit_bytes;
        let event = CopyEvent::Data {
            direction,
            bytes: bytes.to_vec(),
            lost_before,
        };
        if over || self.events.send(event).is_err() {
            self.queued_bytes.fetch_sub(size, Ordering::SeqCst);
            let lines = memchr::memchr_iter(b'\n', bytes).count() as u64;
            self.dropped_lines.fetch_add(lines, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Say that a direction is closed (not counted against the limit).
    pub fn close(&self, direction: Direction, lost_before: u64, cut_by_peer: bool) {
        let _ = self.events.send(CopyEvent::Closed {
            direction,
            lost_before,
            cut_by_peer,
        });
    }
}

impl CopyReceiver {
    /// The next copy, waiting for it; `None` once every sender is gone.
    pub(crate) fn recv(&self) -> Option<CopyEvent> {
        let event = self.events.recv().ok()?;
        self.release(&event);
        Some(event)
    }

    /// The copies queued now, without waiting (the tests' view of the queue).
    #[cfg(test)]
    fn drain(&self) -> Vec<CopyEvent> {
        let events: Vec<CopyEvent> = self.events.try_iter().collect();
        events.iter().for_each(|e| self.release(e));
        events
    }

    /// Newlines in the copies dropped so far.
    pub(crate) fn dropped_lines(&self) -> u64 {
        self.dropped_lines.load(Ordering::Relaxed)
    }

    fn release(&self, event: &CopyEvent) {
        if let CopyEvent::Data { bytes, .. } = event {
            self.queued_bytes.fetch_sub(bytes.len(), Ordering::SeqCst);
        }
    }
}

/// How forwarding in one direction ended.
#[derive(Debug, PartialEq, Eq)]
pub enum ForwardEnd {
    /// The source reached end of file.
    Eof,
    /// Reading the source failed.
    ReadFailed(io::ErrorKind),
    /// The destination stopped taking bytes (e.g. a closed pipe).
    WriteFailed(io::ErrorKind),
}

/// Forward everything from `from` to `to`, offering a copy of each chunk to
/// `copies` without ever waiting for it. Returns how forwarding ended and
/// the bytes whose copies were dropped since the last one delivered.
pub fn forward(
    from: &mut impl Read,
    to: &mut impl Write,
    direction: Direction,
    copies: &CopyQueue,
) -> (ForwardEnd, u64) {
    let mut buf = vec![0u8; CHUNK_BYTES];
    let mut lost: u64 = 0;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return (ForwardEnd::Eof, lost),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return (ForwardEnd::ReadFailed(e.kind()), lost),
        };
        let chunk = buf.get(..n).unwrap_or_default();
        if copies.offer(direction, chunk, lost) {
            lost = 0;
        } else {
            lost += n as u64;
        }
        if let Err(e) = to.write_all(chunk).and_then(|()| to.flush()) {
            return (ForwardEnd::WriteFailed(e.kind()), lost);
        }
    }
}

/// Run the agent behind the tap until it exits. `on_diagnostic` sees each
/// diagnostic as it is found (on the checker's thread), with the name the
/// report uses for the connection.
pub fn run(options: TapOptions, name: &str, on_diagnostic: DiagnosticSink) -> io::Result<TapEnd> {
    let transcript = match &options.trace {
        Some(path) => Transcript::to_file(path, options.config.limits.max_depth)?,
        None => Transcript::in_memory(options.config.limits.max_depth),
    };
    // Handlers first: a signal that arrives while the agent starts waits in
    // the queue instead of killing the tap and orphaning the agent.
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ])?;
    let mut child = options
        .agent
        .command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot start `{}`: {e}", options.agent.display()),
            )
        })?;
    let pgid = libc::pid_t::try_from(child.id()).unwrap_or(0);
    let signal_handle = signals.handle();
    thread::spawn(move || {
        for signal in signals.forever() {
            if pgid > 0 {
                let _ = signal_group(pgid, signal);
            }
        }
    });

    let (copy_tx, copy_rx) = copy_queue(options.backlog_bytes);
    let checker_name = name.to_owned();
    let config = options.config.clone();
    let checker = thread::spawn(move || {
        check_copies(copy_rx, config, transcript, checker_name, on_diagnostic)
    });

    if let Some(mut agent_stdin) = child.stdin.take() {
        let copies = copy_tx.clone();
        // Not joined: it may wait on our stdin forever after the agent exits.
        thread::spawn(move || {
            let (end, lost) = forward(
                &mut io::stdin().lock(),
                &mut agent_stdin,
                Direction::ClientToAgent,
                &copies,
            );
            drop(agent_stdin); // the agent reads end of file
            let cut_by_peer = matches!(end, ForwardEnd::WriteFailed(_));
            copies.close(Direction::ClientToAgent, lost, cut_by_peer);
        });
    }
    let mut lost = 0;
    let mut cut_by_client = false;
    if let Some(mut agent_stdout) = child.stdout.take() {
        let (end, dropped) = forward(
            &mut agent_stdout,
            &mut io::stdout().lock(),
            Direction::AgentToClient,
            &copy_tx,
        );
        lost = dropped;
        if let ForwardEnd::WriteFailed(_) = end {
            cut_by_client = true;
            // The client is gone: close the agent's stdout too, so it sees
            // the same broken pipe it would have seen without the tap.
            drop(agent_stdout);
        }
    }
    let status = child.wait()?;
    signal_handle.close();
    copy_tx.close(Direction::AgentToClient, lost, cut_by_client);
    drop(copy_tx);
    let (report, trace_error, mut session) = checker
        .join()
        .map_err(|_| io::Error::other("the checker thread panicked"))?;
    session.agent_end = describe_status(status);
    session.agent_failed = !status.success();
    Ok(TapEnd {
        status,
        report,
        session,
        trace_error,
    })
}

/// A line being put together from copies of one direction.
#[derive(Default)]
struct LineAssembler {
    buf: Vec<u8>,
    /// Bytes of the current line, kept or not.
    length: u64,
    /// The current line's start was lost: drop bytes up to its end.
    skipping: bool,
}

/// A piece of traffic the checker acts on.
#[derive(Debug, PartialEq, Eq)]
enum Piece<'a> {
    Line(&'a [u8]),
    TooLong(u64),
    /// The rest of a line whose start was dropped.
    Skipped,
}

impl LineAssembler {
    /// Feed bytes; `emit` gets every line they complete.
    fn push(&mut self, mut data: &[u8], max: usize, emit: &mut dyn FnMut(Piece<'_>)) {
        while !data.is_empty() {
            let (part, complete, rest) = match memchr::memchr(b'\n', data) {
                Some(i) => (&data[..i], true, &data[i + 1..]),
                None => (data, false, &data[data.len()..]),
            };
            data = rest;
            if complete && self.length == 0 && !self.skipping && part.len() <= max {
                // A whole line in this chunk: handed out from it, not copied.
                emit(Piece::Line(part.strip_suffix(b"\r").unwrap_or(part)));
                continue;
            }
            self.length += part.len() as u64;
            if !self.skipping && self.length <= max as u64 {
                self.buf.extend_from_slice(part);
            } else {
                self.buf = Vec::new();
            }
            if complete {
                self.end_line(max, emit);
            }
        }
    }

    /// Bytes before the next ones were dropped: the current line is lost.
    fn gap(&mut self) {
        self.buf = Vec::new();
        self.length = 0;
        self.skipping = true;
    }

    /// End of traffic: a last line without a newline is still a line.
    fn finish(&mut self, max: usize, emit: &mut dyn FnMut(Piece<'_>)) {
        if self.length > 0 || !self.buf.is_empty() {
            self.end_line(max, emit);
        }
    }

    fn end_line(&mut self, max: usize, emit: &mut dyn FnMut(Piece<'_>)) {
        if self.skipping {
            emit(Piece::Skipped);
        } else if self.length > max as u64 {
            emit(Piece::TooLong(self.length));
        } else {
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
            emit(Piece::Line(&self.buf));
        }
        self.buf.clear();
        self.length = 0;
        self.skipping = false;
    }
}

/// The checker: assemble lines per direction, validate them in arrival
/// order, write the trace. Ends when the agent's side is closed.
fn check_copies(
    copies: CopyReceiver,
    config: Config,
    mut transcript: Transcript,
    name: String,
    mut on_diagnostic: DiagnosticSink,
) -> (TraceReport, Option<io::Error>, SessionEnd) {
    let mut session = SessionEnd::default();
    let mut skipped_pieces: u64 = 0;
    let max_line = config.limits.max_line_bytes;
    let max_kept = config.limits.max_diagnostics;
    let mut validator = Validator::new(config);
    let mut assemblers = [LineAssembler::default(), LineAssembler::default()];
    let mut report = super::new_report(&name, &validator);
    let mut report_found = |found: Vec<Diagnostic>| {
        for d in found {
            on_diagnostic(&name, &d);
            report.add(d, max_kept);
        }
    };
    let handle = |direction: Direction,
                  piece: Piece<'_>,
                  validator: &mut Validator,
                  transcript: &mut Transcript|
     -> Vec<Diagnostic> {
        match piece {
            Piece::Line(bytes) => {
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return Vec::new();
                }
                let line = transcript.record(direction, bytes);
                validator.push_message(line, direction, bytes);
            }
            Piece::TooLong(bytes) => {
                let line = transcript.record_gap();
                validator.push_line(line, RawLine::TooLong { bytes });
            }
            Piece::Skipped => {}
        }
        validator.take_diagnostics()
    };
    let mut closed = [false, false];
    while let Some(event) = copies.recv() {
        let (direction, bytes, lost_before, last, cut_by_peer) = match event {
            CopyEvent::Data {
                direction,
                bytes,
                lost_before,
            } => (direction, bytes, lost_before, false, false),
            CopyEvent::Closed {
                direction,
                lost_before,
                cut_by_peer,
            } => (direction, Vec::new(), lost_before, true, cut_by_peer),
        };
        let side = usize::from(direction == Direction::AgentToClient);
        let Some(assembler) = assemblers.get_mut(side) else {
            continue;
        };
        if lost_before > 0 {
            session.skipped_bytes += lost_before;
            assembler.gap();
            let line = transcript.record_gap();
            report_found(vec![Diagnostic {
                line,
                ..Diagnostic::new(
                    &LIMIT,
                    format!(
                        "the checker fell behind and skipped {lost_before} bytes of {direction} traffic (forwarded unchanged, not checked)"
                    ),
                )
                .hint("checking resumes at the next whole line; diagnostics right after a gap may follow from it. Raise --max-backlog-bytes")
            }]);
        }
        if last {
            if assembler.length > 0 {
                session.cut_lines.push((direction, assembler.length));
            }
            if session.first_closed.is_none() {
                session.first_closed = Some(direction);
            }
        }
        let mut check = |piece: Piece<'_>| {
            skipped_pieces += u64::from(matches!(piece, Piece::Skipped));
            if cut_by_peer && is_cut(&piece) {
                report_found(vec![cut_line(direction, &mut transcript)]);
                return;
            }
            let found = handle(direction, piece, &mut validator, &mut transcript);
            report_found(found);
        };
        if last {
            assembler.finish(max_line, &mut check);
        } else {
            assembler.push(&bytes, max_line, &mut check);
        }
        if last {
            if let Some(c) = closed.get_mut(side) {
                *c = true;
            }
            if direction == Direction::AgentToClient {
                break;
            }
        }
    }
    // The client's last line may still be open when the agent exits.
    if !closed[0] {
        if assemblers[0].length > 0 {
            session
                .cut_lines
                .push((Direction::ClientToAgent, assemblers[0].length));
        }
        assemblers[0].finish(max_line, &mut |piece| {
            let found = handle(
                Direction::ClientToAgent,
                piece,
                &mut validator,
                &mut transcript,
            );
            report_found(found);
        });
    }
    super::finish_report(&mut report, &validator, transcript.lines());
    session.skipped_lines = copies.dropped_lines() + skipped_pieces;
    for direction in [Direction::ClientToAgent, Direction::AgentToClient] {
        for (id, method, line) in validator.unanswered(direction) {
            session.unanswered.push(Unanswered {
                direction,
                id,
                method,
                line,
            });
        }
    }
    (report, transcript.finish().err(), session)
}

/// A last line without its newline that stops short of a complete JSON
/// value: the connection closed while it was being written.
fn is_cut(piece: &Piece<'_>) -> bool {
    match piece {
        Piece::Line(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => {
                serde_json::from_str::<serde::de::IgnoredAny>(text).is_err_and(|e| e.is_eof())
            }
            // Cut inside a character.
            Err(e) => e.error_len().is_none(),
        },
        _ => false,
    }
}

/// A line cut by the other side closing the connection is not its sender's
/// fault: the suite says it could not check it.
fn cut_line(direction: Direction, transcript: &mut Transcript) -> Diagnostic {
    let line = transcript.record_gap();
    Diagnostic {
        line,
        ..Diagnostic::new(
            &LIMIT,
            format!(
                "the {} stopped reading while the {} was writing a line; the cut line was not checked",
                direction.opposite().sender(),
                direction.sender()
            ),
        )
        .hint("a message cut because its receiver closed the connection is not its sender's error")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assemble(chunks: &[&[u8]], max: usize, gap_before: Option<usize>) -> Vec<OwnedPieceDebug> {
        let mut a = LineAssembler::default();
        let mut out = Vec::new();
        for (i, chunk) in chunks.iter().enumerate() {
            if gap_before == Some(i) {
                a.gap();
            }
            a.push(chunk, max, &mut |p| out.push(debug(p)));
        }
        a.finish(max, &mut |p| out.push(debug(p)));
        out
    }

    #[derive(Debug, PartialEq, Eq)]
    enum OwnedPieceDebug {
        Line(String),
        TooLong(u64),
        Skipped,
    }

    fn debug(p: Piece<'_>) -> OwnedPieceDebug {
        match p {
            Piece::Line(b) => OwnedPieceDebug::Line(String::from_utf8_lossy(b).into_owned()),
            Piece::TooLong(n) => OwnedPieceDebug::TooLong(n),
            Piece::Skipped => OwnedPieceDebug::Skipped,
        }
    }

    use OwnedPieceDebug::{Line, Skipped, TooLong};

    #[test]
    fn lines_across_chunks() {
        assert_eq!(
            assemble(&[b"ab", b"c\r\nde", b"f\n\nlast"], 10, None),
            [
                Line("abc".into()),
                Line("def".into()),
                Line("".into()),
                Line("last".into())
            ]
        );
    }

    #[test]
    fn long_lines_are_counted_not_kept() {
        assert_eq!(
            assemble(&[b"0123", b"456789\nok"], 5, None),
            [TooLong(10), Line("ok".into())]
        );
    }

    #[test]
    fn a_gap_drops_the_line_it_cuts() {
        // "second" lost its start: the rest of it is skipped, not checked.
        assert_eq!(
            assemble(&[b"first\nsec", b"ond\nthird\n"], 100, Some(1)),
            [Line("first".into()), Skipped, Line("third".into())]
        );
    }

    /// A reader that yields its data in fixed-size pieces.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.len().min(self.1).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn forwarding_never_waits_for_a_stalled_checker() {
        let data: Vec<u8> = (0..4_000_000u32).map(|i| (i % 251) as u8).collect();
        // Room for one 10 000-byte copy, and nobody reading copies.
        let (tx, rx) = copy_queue(10_000);
        let mut out = Vec::new();
        let (end, lost) = forward(
            &mut Trickle(&data, 10_000),
            &mut out,
            Direction::AgentToClient,
            &tx,
        );
        assert_eq!(end, ForwardEnd::Eof);
        assert_eq!(out, data, "every byte forwarded, in order");
        let mut queued = rx.drain().into_iter();
        let first = queued.next().unwrap();
        assert!(queued.next().is_none(), "only one copy fits");
        let CopyEvent::Data {
            bytes, lost_before, ..
        } = first
        else {
            panic!("{first:?}")
        };
        assert_eq!(lost_before, 0);
        assert_eq!(bytes.len() as u64 + lost, data.len() as u64);
    }

    /// A reader that empties the copy queue before its second read, as a
    /// checker catching up would.
    struct CatchUp<'a> {
        chunks: Vec<&'a [u8]>,
        reads: usize,
        copies: &'a CopyReceiver,
        drained: Vec<CopyEvent>,
    }
    impl Read for CatchUp<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.reads == 1 {
                self.drained.extend(self.copies.drain());
            }
            let Some(chunk) = self.chunks.get(self.reads) else {
                return Ok(0);
            };
            self.reads += 1;
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    #[test]
    fn dropped_copies_are_reported_on_the_next_delivered_one() {
        let (tx, rx) = copy_queue(4);
        // The queue is full when forwarding starts.
        assert!(tx.offer(Direction::ClientToAgent, b"full", 0));
        let mut reader = CatchUp {
            chunks: vec![b"abc\nd", b"ef\n"],
            reads: 0,
            copies: &rx,
            drained: Vec::new(),
        };
        let mut out = Vec::new();
        let (end, lost) = forward(&mut reader, &mut out, Direction::ClientToAgent, &tx);
        assert_eq!((end, lost), (ForwardEnd::Eof, 0));
        assert_eq!(out, b"abc\ndef\n");
        assert_eq!(
            reader.drained.len(),
            1,
            "only the copy that filled the queue"
        );
        match rx.drain().into_iter().next().unwrap() {
            CopyEvent::Data {
                bytes, lost_before, ..
            } => assert_eq!((bytes.as_slice(), lost_before), (&b"ef\n"[..], 5)),
            other => panic!("{other:?}"),
        }
    }

    /// The agent's last, unfinished line: its own fault when it stopped
    /// writing, not when the client stopped reading.
    fn cut_line_rules(cut_by_peer: bool) -> Vec<&'static str> {
        let (tx, rx) = copy_queue(1 << 20);
        let partial =
            br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","upd"#;
        assert!(tx.offer(Direction::AgentToClient, partial, 0));
        tx.close(Direction::ClientToAgent, 0, false);
        tx.close(Direction::AgentToClient, 0, cut_by_peer);
        drop(tx);
        let (report, _, _) = check_copies(
            rx,
            Config::default(),
            Transcript::in_memory(128),
            "t".into(),
            Box::new(|_, _| {}),
        );
        report.diagnostics.iter().map(|d| d.rule.id).collect()
    }

    #[test]
    fn a_line_cut_by_the_reader_is_not_the_writers_fault() {
        assert_eq!(cut_line_rules(true), ["TRACE-LIMIT"]);
        assert_eq!(cut_line_rules(false), ["ENV-JSON"]);
    }

    #[test]
    fn the_backlog_is_counted_in_bytes_not_chunks() {
        let (tx, rx) = copy_queue(1000);
        // Many small messages fit where a chunk count would have cut them off.
        for _ in 0..100 {
            assert!(tx.offer(Direction::ClientToAgent, b"0123456789", 0));
        }
        assert!(
            !tx.offer(Direction::ClientToAgent, b"x", 0),
            "1000 bytes queued: full"
        );
        assert_eq!(rx.drain().len(), 100);
        assert!(
            tx.offer(Direction::ClientToAgent, &[b'y'; 1000], 0),
            "room again once read"
        );
        // An empty queue takes one oversized chunk rather than starve the checker.
        let (big, _rx) = copy_queue(10);
        assert!(big.offer(Direction::AgentToClient, &[0; 64], 0));
        assert!(!big.offer(Direction::AgentToClient, &[0; 1], 0));
    }

    #[test]
    fn exit_codes_follow_the_agent() {
        assert_eq!(exit_code(ExitStatus::from_raw(7 << 8)), 7);
        assert_eq!(exit_code(ExitStatus::from_raw(libc::SIGTERM)), 128 + 15);
    }
}
