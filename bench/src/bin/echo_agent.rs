//! A minimal conformant ACP agent for the tap benchmark (`tap_bench`): it
//! answers `initialize`, `session/new` and `session/prompt` at once, and
//! before each prompt's answer sends `--updates N` `session/update`
//! notifications (alternately a six-entry `plan_update` and a message chunk,
//! about 800 bytes each, like `acp-plan gen`'s benchmark traces).
//!
//! Usage: `echo_agent [--updates N]`. Every other request gets `null`;
//! notifications get nothing.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
}

fn main() -> ExitCode {
    let updates = match parse_args() {
        Ok(updates) => updates,
        Err(message) => {
            eprintln!("echo_agent: {message}");
            return ExitCode::from(2);
        }
    };
    match serve(updates) {
        Ok(()) => ExitCode::SUCCESS,
        // The client hung up; nothing to report.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("echo_agent: {e}");
            ExitCode::from(1)
        }
    }
}

fn parse_args() -> Result<u64, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(0),
        [flag, n] if flag == "--updates" => n.parse().map_err(|_| format!("bad count {n}")),
        _ => Err("usage: echo_agent [--updates N]".into()),
    }
}

fn serve(updates: u64) -> io::Result<()> {
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
                for n in 0..updates {
                    let update = if n % 2 == 0 { &plan } else { &chunk };
                    out.write_all(update.as_bytes())?;
                    out.write_all(b"\n")?;
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
