//! An agent as a child process in its own process group: its stdout as a
//! stream of lines, its stdin fed from a queue (so a stuck agent never blocks
//! the caller), a tail of its stderr for reports, and a kill that takes the
//! whole group down so nothing it started outlives it.

use crate::trace::{LineReader, RawLine};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How to start an agent.
#[derive(Clone, Debug, Default)]
pub struct AgentCommand {
    /// The program run, looked up in `PATH` as `std::process::Command` does.
    pub program: OsString,
    /// Its arguments, in order.
    pub args: Vec<OsString>,
    /// Working directory of the agent (default: ours).
    pub cwd: Option<PathBuf>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
}

impl AgentCommand {
    /// `CMD ARGS...` from a command line (the first word is the program).
    pub fn from_words(words: &[OsString]) -> Option<AgentCommand> {
        let (program, args) = words.split_first()?;
        Some(AgentCommand {
            program: program.clone(),
            args: args.to_vec(),
            ..AgentCommand::default()
        })
    }

    /// Resolve a relative program path with a directory in it (`./agent`,
    /// `bin/agent`) against `base`, so it means the same once the agent
    /// runs in another working directory. Bare names are left to `PATH`.
    pub fn anchor_program(&mut self, base: &std::path::Path) {
        let program = std::path::Path::new(&self.program);
        if program.is_relative() && program.components().count() > 1 {
            self.program = base.join(program).into_os_string();
        }
    }

    /// The command line for messages.
    pub fn display(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|w| w.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A `Command` that starts the agent as the leader of a new process group.
    pub(crate) fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args).process_group(0);
        if let Some(cwd) = &self.cwd {
            command.current_dir(cwd);
        }
        for (key, value) in &self.env {
            command.env(key, value);
        }
        command
    }
}

/// What the agent's stdout produced.
#[derive(Debug)]
pub(crate) enum AgentEvent {
    /// One line, without its newline (nor a trailing `\r`).
    Line(Vec<u8>),
    /// A line over the length limit; its bytes were skipped, not kept.
    TooLong {
        /// The line's length, counted while it was skipped.
        bytes: u64,
    },
    /// Stdout was closed (the agent exited, or closed it).
    Closed,
    /// Reading stdout failed (the error's text); nothing more is read.
    ReadFailed(String),
}

/// Bytes of stderr kept for reports.
const STDERR_TAIL_BYTES: usize = 16 * 1024;
/// Lines of stderr shown in reports.
const STDERR_TAIL_LINES: usize = 20;
/// Lines read ahead of the caller (each at most the line limit).
const LINES_AHEAD: usize = 16;

/// A running agent.
pub(crate) struct AgentProcess {
    child: Child,
    pgid: libc::pid_t,
    stdin: Option<Sender<Vec<u8>>>,
    events: Receiver<AgentEvent>,
    stderr_tail: Arc<Mutex<VecDeque<u8>>>,
    stderr_done: Receiver<()>,
    status: Option<ExitStatus>,
}

/// How the agent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProcessEnd {
    /// The exit status (after the kill when `killed`).
    pub status: ExitStatus,
    /// We had to kill it (it did not exit by itself in time).
    pub killed: bool,
}

impl ProcessEnd {
    /// One phrase for reports: the exit status or signal, or that the agent had to be killed.
    pub fn describe(&self) -> String {
        if self.killed {
            "still running; killed by acp-plan".to_owned()
        } else {
            describe_status(self.status)
        }
    }
}

pub(crate) fn describe_status(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        _ => "unknown exit status".into(),
    }
}

impl AgentProcess {
    /// Start the agent with piped stdin, stdout and stderr. Lines longer than
    /// `max_line_bytes` are reported as [`AgentEvent::TooLong`] without being
    /// buffered. Stderr is kept as a tail and, with `stderr_log`, copied there.
    pub fn spawn(
        agent: &AgentCommand,
        max_line_bytes: usize,
        stderr_log: Option<File>,
    ) -> io::Result<AgentProcess> {
        let mut child = agent
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let pgid = libc::pid_t::try_from(child.id())
            .map_err(|_| io::Error::other("process id out of range"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = signal_group(pgid, libc::SIGKILL);
            let _ = child.wait();
            return Err(io::Error::other(
                "the agent's standard streams were not piped",
            ));
        };

        let (stdin_tx, stdin_rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || {
            let mut stdin = stdin;
            for data in stdin_rx {
                if stdin.write_all(&data).and_then(|()| stdin.flush()).is_err() {
                    break;
                }
            }
            // Dropping `stdin` closes the pipe: the agent reads end of file.
        });

        let (event_tx, events) = mpsc::sync_channel(LINES_AHEAD);
        thread::spawn(move || read_lines(stdout, max_line_bytes, event_tx));

        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr_tail);
        thread::spawn(move || {
            read_stderr(stderr, &tail, stderr_log);
            let _ = done_tx.send(());
        });

        Ok(AgentProcess {
            child,
            pgid,
            stdin: Some(stdin_tx),
            events,
            stderr_tail,
            stderr_done,
            status: None,
        })
    }

    /// Queue bytes for the agent's stdin. False once stdin is closed.
    pub fn send(&self, bytes: Vec<u8>) -> bool {
        self.stdin.as_ref().is_some_and(|tx| tx.send(bytes).is_ok())
    }

    pub(crate) fn stdin_open(&self) -> bool {
        self.stdin.is_some()
    }

    /// Close the agent's stdin once what is queued has been written.
    pub(crate) fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next event, or `None` if nothing came before `deadline`.
    pub(crate) fn next_event(&self, deadline: Instant) -> Option<AgentEvent> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(AgentEvent::Closed),
        }
    }

    /// Wait up to `grace` for the agent to exit by itself.
    pub(crate) fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + grace;
        loop {
            if let Some(status) = self.status {
                return Some(status);
            }
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    return Some(status);
                }
                Ok(None) if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(5));
                }
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// Close stdin, give the agent `grace` to exit, then kill whatever is
    /// left of its process group (the agent itself, or children it left
    /// behind) and reap it.
    pub fn finish(&mut self, grace: Duration) -> ProcessEnd {
        self.close_stdin();
        let exited = self.wait_exit(grace);
        let status = self.kill_group();
        ProcessEnd {
            status,
            killed: exited.is_none(),
        }
    }

    /// Kill the whole process group now and reap the agent.
    pub(crate) fn kill_group(&mut self) -> ExitStatus {
        self.close_stdin();
        // The group outlives its leader while members remain, and its id is
        // not reused until the group is empty, so this is safe after the
        // leader has exited too.
        let _ = signal_group(self.pgid, libc::SIGKILL);
        if let Some(status) = self.status {
            return status;
        }
        match self.child.wait() {
            Ok(status) => {
                self.status = Some(status);
                status
            }
            Err(_) => ExitStatus::from_raw(libc::SIGKILL),
        }
    }

    /// The last lines of stderr. Waits up to `wait` for stderr to close so a
    /// message written just before an exit is not missed.
    pub fn stderr_tail(&self, wait: Duration) -> String {
        let _ = self.stderr_done.recv_timeout(wait);
        let bytes: Vec<u8> = match self.stderr_tail.lock() {
            Ok(tail) => tail.iter().copied().collect(),
            Err(_) => Vec::new(),
        };
        last_lines(&String::from_utf8_lossy(&bytes), STDERR_TAIL_LINES)
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        // Never leave an agent (or anything it started) behind.
        if self.status.is_none() {
            self.kill_group();
        } else {
            let _ = signal_group(self.pgid, libc::SIGKILL);
        }
    }
}

/// Send `signal` to every process of the group `pgid`.
pub(crate) fn signal_group(pgid: libc::pid_t, signal: libc::c_int) -> io::Result<()> {
    // SAFETY: killpg takes plain integers and has no memory-safety
    // preconditions; `pgid` is a group this process created.
    if unsafe { libc::killpg(pgid, signal) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

pub(crate) fn read_lines<R: Read>(
    stdout: R,
    max_line_bytes: usize,
    events: SyncSender<AgentEvent>,
) {
    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, stdout), max_line_bytes);
    loop {
        let event = match lines.next_line() {
            Ok(Some((_, RawLine::Bytes(bytes)))) => AgentEvent::Line(bytes.to_vec()),
            Ok(Some((_, RawLine::TooLong { bytes }))) => AgentEvent::TooLong { bytes },
            Ok(None) => AgentEvent::Closed,
            Err(e) => AgentEvent::ReadFailed(e.to_string()),
        };
        let last = matches!(event, AgentEvent::Closed | AgentEvent::ReadFailed(_));
        if events.send(event).is_err() || last {
            return;
        }
    }
}

fn read_stderr<R: Read>(mut stderr: R, tail: &Mutex<VecDeque<u8>>, mut log: Option<File>) {
    let mut buf = [0u8; 8192];
    loop {
        let n = match stderr.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        let chunk = &buf[..n];
        if let Some(file) = &mut log {
            if file.write_all(chunk).is_err() {
                log = None;
            }
        }
        if let Ok(mut tail) = tail.lock() {
            tail.extend(chunk);
            let excess = tail.len().saturating_sub(STDERR_TAIL_BYTES);
            tail.drain(..excess);
        }
    }
}

/// The last `n` non-empty lines of `text`.
pub(crate) fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> AgentCommand {
        AgentCommand {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            ..AgentCommand::default()
        }
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(30)
    }

    #[test]
    fn lines_stderr_and_exit_status() {
        let mut agent = AgentProcess::spawn(
            &sh("read x; echo \"got $x\"; printf 'a\\r\\nno-newline'; echo oops >&2; exit 3"),
            1024,
            None,
        )
        .unwrap();
        assert!(agent.send(b"hello\n".to_vec()));
        let mut lines = Vec::new();
        loop {
            match agent.next_event(far()).unwrap() {
                AgentEvent::Line(line) => lines.push(String::from_utf8(line).unwrap()),
                AgentEvent::Closed => break,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(lines, ["got hello", "a", "no-newline"]);
        let end = agent.finish(Duration::from_secs(10));
        assert_eq!(end.status.code(), Some(3));
        assert!(!end.killed);
        assert_eq!(agent.stderr_tail(Duration::from_secs(10)), "oops");
    }

    #[test]
    fn long_lines_are_not_buffered() {
        let agent = AgentProcess::spawn(
            &sh("head -c 5000 /dev/zero | tr '\\0' x; echo; echo ok"),
            100,
            None,
        )
        .unwrap();
        assert!(matches!(
            agent.next_event(far()),
            Some(AgentEvent::TooLong { bytes: 5000 })
        ));
        assert!(matches!(agent.next_event(far()), Some(AgentEvent::Line(l)) if l == b"ok"));
    }

    #[test]
    fn a_silent_agent_times_out_and_is_killed() {
        let mut agent = AgentProcess::spawn(&sh("exec sleep 60"), 100, None).unwrap();
        assert!(agent
            .next_event(Instant::now() + Duration::from_millis(50))
            .is_none());
        let end = agent.finish(Duration::from_millis(50));
        assert!(end.killed);
        assert_eq!(end.status.signal(), Some(libc::SIGKILL));
    }

    #[test]
    fn relative_programs_are_anchored() {
        let mut agent = AgentCommand::from_words(&["./bin/agent".into()]).unwrap();
        agent.anchor_program(std::path::Path::new("/work"));
        assert_eq!(agent.program, "/work/./bin/agent");
        let mut agent = AgentCommand::from_words(&["node".into(), "x.js".into()]).unwrap();
        agent.anchor_program(std::path::Path::new("/work"));
        assert_eq!(agent.program, "node");
    }

    #[test]
    fn last_lines_keeps_the_end() {
        assert_eq!(last_lines("a\n\nb\nc\n", 2), "b\nc");
        assert_eq!(last_lines("", 2), "");
    }
}
