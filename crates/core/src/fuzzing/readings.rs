//! Readings: a trace rewritten in ways that change how (or whether) readers
//! agree on it, and what the verdict may do in response.
//!
//! - Repeating a member with its own value changes nothing but one
//!   `ENV-DUPLICATE-KEY` warning on that line.
//! - Repeating a member with another member's value never gives the other
//!   party a new error: new errors are only on lines of the party that
//!   repeated (the verdict may blame whoever caused the ambiguity).
//! - Escaping characters of strings (`"a"` as `"\u0061"`) changes nothing.
//!
//! Used by the `stream` fuzz target and by `tests/suite/properties.rs`. Traces are
//! envelopes (the direction of every line is then known).

use super::{ensure, Checked};
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use crate::validate::{check_reader, Config, TraceReport};
use serde_json::Value;

/// How one trace line is rewritten.
#[derive(Clone, Copy, Debug)]
pub enum Rewrite {
    /// Write every string as it is (the baseline the others compare with).
    Plain,
    /// Write the `choice`-th object member of the message (document order,
    /// any depth; modulo their number) twice; the second time with the value
    /// of the `other`-th member when `other` is given.
    Repeat {
        /// Which member to repeat, counted over every object member of the message (modulo
        /// their number).
        choice: usize,
        /// Which member's value the repeat takes; `None` repeats the same value.
        other: Option<usize>,
    },
    /// Write characters of strings (keys and values) as `\u` escapes, those
    /// picked by `seed`.
    Escape {
        /// Picks the characters to escape (same seed, same escapes).
        seed: u64,
    },
}

/// An envelope line with its message rewritten, or `None` when the line is
/// not an envelope whose message is an object (or has no member to repeat).
pub(crate) fn rewrite_line(line: &str, rewrite: Rewrite) -> Option<String> {
    let Value::Object(mut envelope) = serde_json::from_str::<Value>(line).ok()? else {
        return None;
    };
    let message = envelope.remove("message")?;
    if !message.is_object() {
        return None;
    }
    let mut members = Vec::new();
    collect_members(&message, &mut members);
    let mut writer = Writer {
        out: String::new(),
        next_member: 0,
        repeat: None,
        escape: None,
        strings: 0,
    };
    match rewrite {
        Rewrite::Plain => {}
        Rewrite::Repeat { choice, other } => {
            if members.is_empty() {
                return None;
            }
            let second = other.map(|o| members[o % members.len()].clone());
            writer.repeat = Some((choice % members.len(), second));
        }
        Rewrite::Escape { seed } => writer.escape = Some(seed),
    }
    writer.out.push('{');
    for (index, (key, value)) in envelope.iter().enumerate() {
        if index > 0 {
            writer.out.push(',');
        }
        writer.string(key);
        writer.out.push(':');
        writer.plain(value);
    }
    writer.out.push_str(",\"message\":");
    writer.value(&message);
    writer.out.push('}');
    Some(writer.out)
}

/// Every member value of every object in `value`, in document order.
fn collect_members(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::Object(members) => {
            for (_, v) in members {
                out.push(v.clone());
                collect_members(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_members(v, out)),
        _ => {}
    }
}

struct Writer {
    out: String,
    next_member: usize,
    repeat: Option<(usize, Option<Value>)>,
    escape: Option<u64>,
    strings: u64,
}

impl Writer {
    /// Write `value` without counting its members (envelope members).
    fn plain(&mut self, value: &Value) {
        self.out.push_str(&value.to_string());
    }

    fn value(&mut self, value: &Value) {
        match value {
            Value::Object(members) => {
                self.out.push('{');
                for (index, (key, v)) in members.iter().enumerate() {
                    if index > 0 {
                        self.out.push(',');
                    }
                    let this = self.next_member;
                    self.next_member += 1;
                    self.string(key);
                    self.out.push(':');
                    self.value(v);
                    if let Some((chosen, second)) = &self.repeat {
                        if *chosen == this {
                            let second = second.clone().unwrap_or_else(|| v.clone());
                            self.out.push(',');
                            self.string(key);
                            self.out.push(':');
                            // Not counted: the repeat is not a member to choose.
                            let saved = self.repeat.take();
                            self.value_uncounted(&second);
                            self.repeat = saved;
                        }
                    }
                }
                self.out.push('}');
            }
            Value::Array(items) => {
                self.out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        self.out.push(',');
                    }
                    self.value(item);
                }
                self.out.push(']');
            }
            Value::String(s) => self.string(s),
            other => self.plain(other),
        }
    }

    fn value_uncounted(&mut self, value: &Value) {
        let next = self.next_member;
        self.value(value);
        self.next_member = next;
    }

    fn string(&mut self, text: &str) {
        let Some(seed) = self.escape else {
            self.out
                .push_str(&serde_json::to_string(text).unwrap_or_default());
            return;
        };
        self.strings += 1;
        self.out.push('"');
        for (index, c) in text.chars().enumerate() {
            let pick = mix(seed ^ self.strings.wrapping_mul(0x9E37_79B9) ^ index as u64) % 3 == 0;
            if pick || c == '"' || c == '\\' || c.is_control() {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    self.out.push_str(&format!("\\u{unit:04x}"));
                }
            } else {
                self.out.push(c);
            }
        }
        self.out.push('"');
    }
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x
}

fn report(lines: &[String]) -> Result<TraceReport, super::Broken> {
    let trace = lines.join("\n");
    check_reader("t", trace.as_bytes(), Config::default())
        .map_err(|e| super::Broken(format!("reading from memory failed: {e}")))
}

fn findings(report: &TraceReport) -> Vec<(&'static str, u64, String)> {
    let mut found: Vec<_> = report
        .diagnostics
        .iter()
        .map(|d| (d.rule.id, d.line, d.pointer.clone()))
        .collect();
    found.sort();
    found
}

fn errors(report: &TraceReport) -> Vec<&Diagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .collect()
}

/// The direction of each envelope line (`None` for other lines).
fn directions(lines: &[String]) -> Vec<Option<String>> {
    lines
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l)
                .ok()?
                .get("direction")?
                .as_str()
                .map(str::to_owned)
        })
        .collect()
}

/// The invariants above for one trace (envelope lines), one line to
/// rewrite (`line`, modulo the number of lines) and the rewrite choices.
pub fn check(trace: &str, line: usize, choice: usize, other: usize, seed: u64) -> Checked {
    let original: Vec<&str> = trace.lines().collect();
    if original.is_empty() {
        return Ok(());
    }
    let Some(plain) = original
        .iter()
        .map(|l| rewrite_line(l, Rewrite::Plain))
        .collect::<Option<Vec<String>>>()
    else {
        return Ok(()); // not all envelopes
    };
    let target = line % plain.len();
    let base = report(&plain)?;
    let rewritten = |rewrite: Rewrite| -> Option<Vec<String>> {
        let mut lines = plain.clone();
        lines[target] = rewrite_line(original[target], rewrite)?;
        Some(lines)
    };
    let target_line = target as u64 + 1;

    // The same value twice: one warning more, nothing else.
    if let Some(lines) = rewritten(Rewrite::Repeat {
        choice,
        other: None,
    }) {
        let repeated = report(&lines)?;
        let mut expected = findings(&base);
        let mut got = findings(&repeated);

        got.retain(|(rule, l, _)| !(*rule == "ENV-DUPLICATE-KEY" && *l == target_line));
        expected.retain(|(rule, l, _)| !(*rule == "ENV-DUPLICATE-KEY" && *l == target_line));
        ensure!(
            got == expected,
            "repeating a member of line {target_line} with its own value changed the findings:\n  before: {expected:?}\n  after:  {got:?}\n  line: {}",
            crate::text::shorten(&lines[target], 300)
        );
        ensure!(
            repeated.state == base.state,
            "repeating a member of line {target_line} with its own value changed the state"
        );
    }

    // Another value: new errors only against the party that repeated.
    if let Some(lines) = rewritten(Rewrite::Repeat {
        choice,
        other: Some(other),
    }) {
        let repeated = report(&lines)?;
        let sides = directions(&lines);
        let sender = sides[target].clone();
        let before: Vec<(&str, u64)> = errors(&base).iter().map(|d| (d.rule.id, d.line)).collect();
        for d in errors(&repeated) {
            if before.contains(&(d.rule.id, d.line)) {
                continue;
            }
            let side = sides.get(d.line as usize - 1).cloned().flatten();
            ensure!(
                side == sender,
                "repeating a member of line {target_line} ({sender:?}) with another value gave the other party an error: {} on line {} ({side:?}): {}\n  line: {}",
                d.rule.id,
                d.line,
                d.message,
                crate::text::shorten(&lines[target], 300)
            );
        }
    }

    // Escapes: strings are compared by value.
    if let Some(lines) = rewritten(Rewrite::Escape { seed }) {
        let escaped = report(&lines)?;
        ensure!(
            findings(&escaped) == findings(&base),
            "escaping strings of line {target_line} changed the findings:\n  before: {:?}\n  after:  {:?}\n  line: {}",
            findings(&base),
            findings(&escaped),
            crate::text::shorten(&lines[target], 300)
        );
        ensure!(
            escaped.state == base.state,
            "escaping strings of line {target_line} changed the state"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites() {
        let line = r#"{"direction":"agent_to_client","message":{"a":{"b":1},"c":"é"}}"#;
        assert_eq!(
            rewrite_line(
                line,
                Rewrite::Repeat {
                    choice: 1,
                    other: None
                }
            )
            .unwrap(),
            r#"{"direction":"agent_to_client","message":{"a":{"b":1,"b":1},"c":"é"}}"#
        );
        assert_eq!(
            rewrite_line(
                line,
                Rewrite::Repeat {
                    choice: 0,
                    other: Some(2)
                }
            )
            .unwrap(),
            r#"{"direction":"agent_to_client","message":{"a":{"b":1},"a":"é","c":"é"}}"#
        );
        let escaped = rewrite_line(line, Rewrite::Escape { seed: 7 }).unwrap();
        let read: Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(read, serde_json::from_str::<Value>(line).unwrap());
        assert!(rewrite_line("[1]", Rewrite::Plain).is_none());
    }
}
