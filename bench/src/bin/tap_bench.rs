//! What `acp-plan tap` adds to a connection: latency per round trip and
//! throughput, each against the same agent on a direct pipe, in one run.
//!
//! Usage:
//! `tap_bench --tap PATH/acp-plan --agent PATH/echo_agent [--round-trips N]
//!  [--blocks B] [--flood-updates M] [--flood-rounds R] [--paced-mb-per-s P]
//!  [--work-dir DIR] [--tap-option OPT]... [--strict]`
//!
//! - Latency: `session/prompt` requests sent one at a time (the next only
//!   after the answer), timed in this driver from before the write to after
//!   the answer's line is read. Direct and tapped connections alternate in
//!   `B` blocks so that load on a shared machine hits both alike. A round
//!   trip crosses the tap twice (request in, answer out).
//! - Throughput: one prompt whose answer the agent precedes with `M`
//!   `session/update` notifications (about 800 bytes each), `R` times.
//! - Paced flood: the same, with the agent pacing its updates to `P` MB/s
//!   (a steady flood rather than as fast as the pipe takes them). Target: the
//!   tap's checker checks every message (none skipped) at 200 MB/s or more.
//! - The tapped runs write the tap's JSON report to DIR; the driver reads it
//!   back to show that the checker checked every message (and kept up: a
//!   checker that falls behind reports `TRACE-LIMIT` errors).
//! - `--tap-option OPT` passes OPT to `acp-plan tap` (repeatable), e.g.
//!   `--tap-option --max-backlog-bytes=1073741824`.
//!
//! It prints the targets (median added latency under 100 us per message;
//! every message of a flood of at least 200 MB/s checked); `--strict` exits
//! 1 when one is missed (bench/README.md).

/// The target for the tap's median added latency per message.
const TARGET_ADDED_MICROS: f64 = 100.0;
/// The flood the tap's checker must keep up with, every message checked.
const TARGET_FLOOD_MB_PER_S: f64 = 200.0;

use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

struct Options {
    tap: PathBuf,
    agent: PathBuf,
    round_trips: usize,
    blocks: usize,
    flood_updates: u64,
    flood_rounds: usize,
    paced_mb_per_s: f64,
    work_dir: PathBuf,
    tap_options: Vec<String>,
    strict: bool,
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("tap_bench: {message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("tap_bench: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        tap: PathBuf::new(),
        agent: PathBuf::new(),
        round_trips: 20_000,
        blocks: 4,
        flood_updates: 200_000,
        flood_rounds: 3,
        paced_mb_per_s: 0.0,
        work_dir: std::env::temp_dir(),
        tap_options: Vec::new(),
        strict: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--strict" {
            options.strict = true;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<usize>()
                .map_err(|_| format!("bad {flag} {value}"))
        };
        match flag.as_str() {
            "--tap" => options.tap = value.clone().into(),
            "--agent" => options.agent = value.clone().into(),
            "--round-trips" => options.round_trips = number()?,
            "--blocks" => options.blocks = number()?.max(1),
            "--flood-updates" => options.flood_updates = number()? as u64,
            "--flood-rounds" => options.flood_rounds = number()?.max(1),
            "--paced-mb-per-s" => {
                options.paced_mb_per_s = value.parse().map_err(|_| format!("bad {flag} {value}"))?
            }
            "--work-dir" => options.work_dir = value.clone().into(),
            "--tap-option" => options.tap_options.push(value.clone()),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if options.tap.as_os_str().is_empty() || options.agent.as_os_str().is_empty() {
        return Err(
            "usage: tap_bench --tap PATH --agent PATH [--round-trips N] [--blocks B] \
                    [--flood-updates M] [--flood-rounds R] [--paced-mb-per-s P] [--work-dir DIR] [--tap-option OPT]... [--strict]"
                .into(),
        );
    }
    Ok(options)
}

/// A connection to the agent, direct or through the tap.
struct Connection {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    line: String,
    /// The tap's JSON report, for tapped connections.
    report: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Direct,
    Tapped,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Direct => "direct",
            Mode::Tapped => "tapped",
        }
    }
}

impl Connection {
    fn open(
        options: &Options,
        mode: Mode,
        updates: u64,
        mb_per_s: f64,
        label: &str,
    ) -> io::Result<Connection> {
        let agent = [
            options.agent.display().to_string(),
            "--updates".into(),
            updates.to_string(),
            "--mb-per-s".into(),
            mb_per_s.to_string(),
        ];
        let (mut command, report) = match mode {
            Mode::Direct => {
                let mut command = Command::new(&agent[0]);
                command.args(&agent[1..]);
                (command, None)
            }
            Mode::Tapped => {
                let report = options.work_dir.join(format!("tap-bench-{label}.json"));
                let mut command = Command::new(&options.tap);
                command
                    .args(["tap", "--format", "json", "--report"])
                    .arg(&report)
                    .args(&options.tap_options)
                    .arg("--")
                    .args(&agent);
                (command, Some(report))
            }
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io::Error::other("no pipes to the agent"));
        };
        let mut connection = Connection {
            child,
            stdin,
            stdout: BufReader::with_capacity(64 * 1024, stdout),
            next_id: 1,
            line: String::new(),
            report,
        };
        connection.call(
            "initialize",
            r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
        )?;
        connection.call("session/new", r#"{"cwd":"/tmp","mcpServers":[]}"#)?;
        Ok(connection)
    }

    /// Send a request and read up to its answer. Returns the time taken and
    /// the bytes read (the answer and any notifications before it).
    fn call(&mut self, method: &str, params: &str) -> io::Result<(Duration, u64)> {
        let id = self.next_id;
        self.next_id += 1;
        let request = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{method}\",\"params\":{params}}}\n"
        );
        let answer = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},");
        let start = Instant::now();
        self.stdin.write_all(request.as_bytes())?;
        self.stdin.flush()?;
        let mut bytes = 0u64;
        loop {
            self.line.clear();
            let n = self.stdout.read_line(&mut self.line)?;
            if n == 0 {
                return Err(io::Error::other("the agent closed its output"));
            }
            bytes += n as u64;
            if self.line.starts_with(&answer) {
                return Ok((start.elapsed(), bytes));
            }
        }
    }

    fn prompt(&mut self) -> io::Result<(Duration, u64)> {
        self.call(
            "session/prompt",
            r#"{"sessionId":"bench","prompt":[{"type":"text","text":"ping"}]}"#,
        )
    }

    /// Close the connection; for a tapped one, what its report says.
    fn close(self) -> io::Result<Option<TapReport>> {
        let Connection {
            mut child,
            stdin,
            report,
            ..
        } = self;
        drop(stdin);
        let status = child.wait()?;
        if !status.success() {
            return Err(io::Error::other(format!(
                "the connection ended with {status}"
            )));
        }
        let Some(report) = report else {
            return Ok(None);
        };
        let text = std::fs::read_to_string(&report)?;
        let document: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| io::Error::other(format!("{}: {e}", report.display())))?;
        let summary = &document["summary"];
        Ok(Some(TapReport {
            verdict: document["verdict"].as_str().unwrap_or("?").to_owned(),
            messages: summary["messages"].as_u64().unwrap_or(0),
            errors: summary["errors"].as_u64().unwrap_or(0),
            warnings: summary["warnings"].as_u64().unwrap_or(0),
        }))
    }
}

struct TapReport {
    verdict: String,
    messages: u64,
    errors: u64,
    warnings: u64,
}

impl TapReport {
    fn describe(&self) -> String {
        format!(
            "tap checked {} messages: {}, {} errors, {} warnings",
            self.messages, self.verdict, self.errors, self.warnings
        )
    }
}

/// Whether the target was met (always, unless `--strict`).
fn run(options: &Options) -> io::Result<bool> {
    let added_per_message = latency(options)?;
    throughput(options)?;
    let kept_up = paced_flood(options)?;
    let met = added_per_message < TARGET_ADDED_MICROS;
    println!(
        "target: median added latency per message {added_per_message:.1} us, under {TARGET_ADDED_MICROS} us: {}",
        if met { "met" } else { "missed" }
    );
    Ok((met && kept_up) || !options.strict)
}

/// Measures latency; returns the median added per message, in microseconds.
fn latency(options: &Options) -> io::Result<f64> {
    let per_block = (options.round_trips / options.blocks).max(1);
    let warmup = (per_block / 10).clamp(10, 500);
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut reports = Vec::new();
    for block in 0..options.blocks {
        for mode in [Mode::Direct, Mode::Tapped] {
            let label = format!("latency-{block}");
            let mut connection = Connection::open(options, mode, 0, 0.0, &label)?;
            for _ in 0..warmup {
                connection.prompt()?;
            }
            let slot = &mut times[usize::from(mode == Mode::Tapped)];
            for _ in 0..per_block {
                slot.push(connection.prompt()?.0);
            }
            if let Some(report) = connection.close()? {
                reports.push(report);
            }
        }
    }
    let [mut direct, mut tapped] = times;
    direct.sort();
    tapped.sort();
    let (d50, d99) = (percentile(&direct, 50), percentile(&direct, 99));
    let (t50, t99) = (percentile(&tapped, 50), percentile(&tapped, 99));
    println!(
        "latency: {} round trips each, in {} alternating blocks (after {warmup} warm-up round trips per block)",
        direct.len(),
        options.blocks
    );
    println!(
        "  direct round trip   median {:>8.1} us   p99 {:>8.1} us",
        micros(d50),
        micros(d99)
    );
    println!(
        "  tapped round trip   median {:>8.1} us   p99 {:>8.1} us",
        micros(t50),
        micros(t99)
    );
    let added50 = micros(t50) - micros(d50);
    let added99 = micros(t99) - micros(d99);
    println!("  added by the tap    median {added50:>8.1} us   p99 {added99:>8.1} us   (per round trip = 2 messages)");
    println!(
        "  added per message   median {:>8.1} us   p99 {:>8.1} us",
        added50 / 2.0,
        added99 / 2.0
    );
    for report in &reports {
        println!("  {}", report.describe());
    }
    Ok(added50 / 2.0)
}

fn throughput(options: &Options) -> io::Result<()> {
    println!(
        "throughput: {} rounds of one prompt answered after {} session/update notifications",
        options.flood_rounds, options.flood_updates
    );
    let mut best = [0f64; 2];
    for round in 0..options.flood_rounds {
        for mode in [Mode::Direct, Mode::Tapped] {
            let label = format!("throughput-{round}");
            let mut connection =
                Connection::open(options, mode, options.flood_updates, 0.0, &label)?;
            let (elapsed, bytes) = connection.prompt()?;
            let report = connection.close()?;
            let seconds = elapsed.as_secs_f64().max(1e-9);
            let mb_per_s = bytes as f64 / 1e6 / seconds;
            let messages_per_s = (options.flood_updates + 1) as f64 / seconds;
            let slot = &mut best[usize::from(mode == Mode::Tapped)];
            *slot = slot.max(mb_per_s);
            println!(
                "  round {round} {:<6} {:>8.1} MB/s {:>10.0} messages/s ({:.1} MB in {:.3} s){}",
                mode.name(),
                mb_per_s,
                messages_per_s,
                bytes as f64 / 1e6,
                seconds,
                report
                    .map(|r| format!("; {}", r.describe()))
                    .unwrap_or_default()
            );
        }
    }
    println!(
        "  best: direct {:.1} MB/s, tapped {:.1} MB/s ({:.0}% of direct)",
        best[0],
        best[1],
        100.0 * best[1] / best[0].max(1e-9)
    );
    Ok(())
}

/// A flood paced to `--paced-mb-per-s` through the tap, `--flood-rounds`
/// times: whether its checker checked every message each time, at a rate
/// of at least the target.
fn paced_flood(options: &Options) -> io::Result<bool> {
    if options.paced_mb_per_s <= 0.0 {
        return Ok(true);
    }
    println!(
        "paced flood: {} rounds of {} session/update notifications paced to {} MB/s through the tap",
        options.flood_rounds, options.flood_updates, options.paced_mb_per_s
    );
    // initialize, session/new and session/prompt, each answered, and the updates.
    let expected = options.flood_updates + 6;
    let mut all_met = true;
    for round in 0..options.flood_rounds {
        let label = format!("paced-{round}");
        let mut connection = Connection::open(
            options,
            Mode::Tapped,
            options.flood_updates,
            options.paced_mb_per_s,
            &label,
        )?;
        let (elapsed, bytes) = connection.prompt()?;
        let report = connection.close()?;
        let mb_per_s = bytes as f64 / 1e6 / elapsed.as_secs_f64().max(1e-9);
        let checked = report.as_ref().map_or(0, |r| r.messages);
        let clean = report.as_ref().is_some_and(|r| r.errors == 0);
        let met = checked == expected && clean && mb_per_s >= TARGET_FLOOD_MB_PER_S;
        all_met &= met;
        println!(
            "  round {round} {mb_per_s:>8.1} MB/s ({:.1} MB in {:.3} s); {}; every one of {expected} checked: {}",
            bytes as f64 / 1e6,
            elapsed.as_secs_f64(),
            report.map(|r| r.describe()).unwrap_or_default(),
            if checked == expected && clean { "yes" } else { "NO" }
        );
    }
    println!(
        "target: every message of a flood of at least {TARGET_FLOOD_MB_PER_S} MB/s checked: {}",
        if all_met { "met" } else { "missed" }
    );
    Ok(all_met)
}

/// The `p`th percentile of sorted samples (nearest rank).
fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted[(rank - 1).min(sorted.len() - 1)]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
