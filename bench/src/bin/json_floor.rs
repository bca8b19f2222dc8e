//! The throughput floor for `acp-plan check`: the plainest fast way to parse
//! a JSON Lines file in Rust, built as one builds a fast tool (release,
//! `lto = true`, `codegen-units = 1`: `bench/run.sh` builds it with the
//! `floor` profile). Each line is read with `BufRead::read_line` into a
//! reused `String` and parsed with `serde_json::from_str::<Value>`, and the
//! value is dropped: nothing is kept. `check` must be at least twice as fast
//! (see bench/README.md).
//!
//! Usage: `json_floor FILE`; prints lines, bytes and the number of lines that
//! were not JSON (so the compiler cannot skip the parse).
//!
//! serde_json as it comes: this package does not depend on the validator,
//! which turns on `preserve_order` (a slower `Value`, an easier floor).

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;

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
    let mut reader = BufReader::with_capacity(256 * 1024, file);
    let mut line = String::new();
    let (mut count, mut bytes, mut not_json) = (0u64, 0u64, 0u64);
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(n) => {
                count += 1;
                bytes += n as u64;
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<serde_json::Value>(&line) {
                    Ok(value) => drop(std::hint::black_box(value)),
                    Err(_) => not_json += 1,
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!("lines {count} bytes {bytes} not_json {not_json}");
    ExitCode::SUCCESS
}
