//! The floors' read (`json_floor`, `client_floor`): the file named by the
//! first argument, line by line with `BufRead::read_line` into a reused
//! `String`, each line that is not blank parsed with
//! `serde_json::from_str::<Value>` and handed over.

use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::process::ExitCode;

/// What was read.
pub struct Counts {
    pub lines: u64,
    pub bytes: u64,
    pub not_json: u64,
}

impl std::fmt::Display for Counts {
    /// What the floors print, so that the compiler cannot skip the parse.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Counts {
            lines,
            bytes,
            not_json,
        } = self;
        write!(f, "lines {lines} bytes {bytes} not_json {not_json}")
    }
}

/// Reads the file named by the first argument and gives `each` every
/// line's value; on a usage or read error, says so and returns the exit
/// status.
pub fn read_values(program: &str, mut each: impl FnMut(Value)) -> Result<Counts, ExitCode> {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: {program} FILE");
        return Err(ExitCode::from(2));
    };
    let file = File::open(&path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.to_string_lossy());
        ExitCode::from(2)
    })?;
    let mut reader = BufReader::with_capacity(256 * 1024, file);
    let mut line = String::new();
    let mut counts = Counts {
        lines: 0,
        bytes: 0,
        not_json: 0,
    };
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return Ok(counts),
            Ok(n) => {
                counts.lines += 1;
                counts.bytes += n as u64;
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(&line) {
                    Ok(value) => each(value),
                    Err(_) => counts.not_json += 1,
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                return Err(ExitCode::from(2));
            }
        }
    }
}
