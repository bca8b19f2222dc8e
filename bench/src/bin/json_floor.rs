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

#[path = "../json_lines.rs"]
mod json_lines;

use std::process::ExitCode;

fn main() -> ExitCode {
    match json_lines::read_values("json_floor", |value| drop(std::hint::black_box(value))) {
        Ok(counts) => {
            println!("{counts}");
            ExitCode::SUCCESS
        }
        Err(status) => status,
    }
}
