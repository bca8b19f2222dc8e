//! A minimal conformant ACP agent for the tap benchmark (`tap_bench`): it
//! answers `initialize`, `session/new` and `session/prompt` at once, and
//! before each prompt's answer sends `--updates N` `session/update`
//! notifications (alternately a six-entry `plan_update` and a message chunk,
//! about 800 bytes each, like `acp-plan gen`'s benchmark traces).
//!
//! Usage: `echo_agent [--updates N] [--mb-per-s R]`. Every other request
//! gets `null`; notifications get nothing. With `--mb-per-s`, the updates
//! are paced to about R MB/s (a steady flood rather than as fast as the pipe
//! takes them).

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
}

fn main() -> ExitCode {
    let (updates, rate) = match parse_args() {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("echo_agent: {message}");
            return ExitCode::from(2);
        }
    };
    match serve(updates, rate) {
        Ok(()) => ExitCode::SUCCESS,
        // The client hung up; nothing to report.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("echo_agent: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--updates N` and `--mb-per-s R` (bytes per second), in any order.
fn parse_args() -> Result<(u64, Option<f64>), String> {
    let (mut updates, mut rate) = (0, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--updates" => updates = value.parse().map_err(|_| format!("bad count {value}"))?,
            "--mb-per-s" => {
                let mb: f64 = value.parse().map_err(|_| format!("bad rate {value}"))?;
                rate = (mb > 0.0).then_some(mb * 1e6);
            }
            _ => return Err("usage: echo_agent [--updates N] [--mb-per-s R]".into()),
        }
    }
    Ok((updates, rate))
}

fn serve(updates: u64, bytes_per_s: Option<f64>) -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let entry = format!(
        r#"{{"content":"{}","priority":"medium","status":"pending"}}"#,
        "x".repeat(100)
    );
    let entries = vec![entry; 6].join(",");
    let plan = format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"bench","update":{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":"plan-0","entries":[{entries}]}}}}}}}}"#
    );
    let chunk = format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"bench","update":{{"sessionUpdate":"agent_message_chunk","content":{{"type":"text","text":"{}"}}}}}}}}"#,
        "y".repeat(700)
    );
    for line in stdin.lines() {
        let line = line?;
        let Ok(incoming) = serde_json::from_str::<Incoming<'_>>(&line) else {
            continue;
        };
        let Some(id) = incoming.id.map(RawValue::get) else {
            continue;
        };
        let result = match incoming.method.as_deref() {
            Some("initialize") => r#"{"protocolVersion":1,"agentCapabilities":{}}"#,
            Some("session/new") => r#"{"sessionId":"bench"}"#,
            Some("session/prompt") => {
                let start = Instant::now();
                let mut sent = 0u64;
                for n in 0..updates {
                    let update = if n % 2 == 0 { &plan } else { &chunk };
                    out.write_all(update.as_bytes())?;
                    out.write_all(b"\n")?;
                    sent += update.len() as u64 + 1;
                    if let Some(rate) = bytes_per_s {
                        // Ahead of the pace: hand over what is written and wait.
                        let due = Duration::from_secs_f64(sent as f64 / rate);
                        if let Some(early) = due.checked_sub(start.elapsed()) {
                            out.flush()?;
                            std::thread::sleep(early);
                        }
                    }
                }
                r#"{"stopReason":"end_turn"}"#
            }
            _ => "null",
        };
        writeln!(out, r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)?;
        out.flush()?;
    }
    Ok(())
}
