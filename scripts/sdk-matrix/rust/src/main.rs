//! Reads `session/update` params the way an SDK-based client does and prints what it kept.
//!
//! Input (stdin), one JSON object per line: `{"id": ..., "revision": "draft-2026-05" | "v1" |
//! "v2", "params": "<the params object as the exact text on the wire>"}`.
//! Output (stdout), one line each: `{"id": ..., "read": <the value re-serialised>}` or
//! `{"id": ..., "error": "<serde's message>"}`. The draft has no types of its own: the crate's
//! `v1` module is what a draft-era client reads with.

use agent_client_protocol_schema::{v1, v2};
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

fn read(revision: &str, params: &str) -> Result<Value, String> {
    let value = if revision == "v2" {
        let n: v2::UpdateSessionNotification =
            serde_json::from_str(params).map_err(|e| e.to_string())?;
        serde_json::to_value(&n)
    } else {
        let n: v1::SessionNotification = serde_json::from_str(params).map_err(|e| e.to_string())?;
        serde_json::to_value(&n)
    };
    value.map_err(|e| e.to_string())
}

fn main() -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let item: Value = serde_json::from_str(&line).map_err(io::Error::other)?;
        let revision = item["revision"].as_str().unwrap_or("v1");
        let params = item["params"].as_str().unwrap_or("");
        let answer = match read(revision, params) {
            Ok(value) => json!({"id": item["id"], "read": value}),
            Err(error) => json!({"id": item["id"], "error": error}),
        };
        writeln!(out, "{answer}")?;
    }
    Ok(())
}
