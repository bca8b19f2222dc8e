//! The throughput floor for `acp-plan check`: read a trace the way `check`
//! does (same buffer size, same bounded line reader) and parse each line into
//! a `serde_json::Value`, then drop it. Validation must be at least this fast
//! (see README, "Performance").
//!
//! Usage: `json_floor FILE`; prints lines, bytes and the number of lines that
//! were not JSON (so the compiler cannot skip the parse).
//!
//! It compiles the validator's own line reader from its source file instead
//! of linking the crate: the crate turns on serde_json's `preserve_order`,
//! which would make every `Value` here an index map, a slower floor than
//! serde_json as it comes (README, "Performance").

// Only `LineReader::next_line` is used here; the rest of the file serves the crate.
#[allow(dead_code)]
#[path = "../../../crates/core/src/trace/lines.rs"]
mod lines;

use lines::{LineReader, RawLine};
use std::fs::File;
use std::io::BufReader;
use std::process::ExitCode;

const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: json_floor FILE");
        return ExitCode::from(2);
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    // The same reader as `acp-plan check` (commands/check.rs), with the
    // default --max-line-bytes (trace::Limits).
    let mut lines = LineReader::new(BufReader::with_capacity(256 * 1024, file), MAX_LINE_BYTES);
    let (mut count, mut bytes, mut not_json) = (0u64, 0u64, 0u64);
    loop {
        match lines.next_line() {
            Ok(Some((_, RawLine::Bytes(line)))) => {
                count += 1;
                bytes += line.len() as u64 + 1;
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match serde_json::from_slice::<serde_json::Value>(line) {
                    Ok(value) => drop(std::hint::black_box(value)),
                    Err(_) => not_json += 1,
                }
            }
            Ok(Some((_, RawLine::TooLong { bytes: n }))) => {
                count += 1;
                bytes += n + 1;
            }
            Ok(None) => break,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!("lines {count} bytes {bytes} not_json {not_json}");
    ExitCode::SUCCESS
}
