//! `structured`: fuzzer bytes read as an `arbitrary` sequence of protocol
//! operations ([`crate::gen::Connection`]), made legal in context, rendered
//! into a trace with the violations the generator injected known in advance.
//!
//! Invariants: legalizing is idempotent; the validator reports exactly the
//! injected errors and warnings, each at its line (infos are allowed
//! behaviour and not compared); and the rendered trace keeps every
//! [`super::stream`] invariant.
//!
//! Needs the crate feature `arbitrary`.

use super::{ensure, Broken, Checked};
use crate::gen::{Connection, Op};
use crate::validate::check_reader;
use arbitrary::{Arbitrary, Unstructured};

/// The scenario `data` describes: the derived `Connection`, then ops drawn
/// until the bytes run out (a derived `Vec` stops at the first odd
/// "continue" byte, about one element on mutated input).
pub fn scenario(data: &[u8]) -> Option<Connection> {
    let mut u = Unstructured::new(data);
    let mut scenario = Connection::arbitrary(&mut u).ok()?;
    while !u.is_empty() {
        match Op::arbitrary(&mut u) {
            Ok(op) => scenario.ops.push(op),
            Err(_) => break,
        }
    }
    Some(scenario)
}

/// The `structured` target: legalizes the scenario `data` describes, checks
/// that legalizing again changes nothing, renders it and checks that the
/// validator reports exactly the injected errors and warnings, each at its
/// line, and that the trace keeps the `stream` invariants.
pub fn check(data: &[u8]) -> Checked {
    let Some(scenario) = scenario(data) else {
        return Ok(());
    };
    let scenario = scenario.legalized();
    ensure!(
        scenario.clone().legalized() == scenario,
        "legalizing twice changed the scenario: {scenario:?}"
    );
    let rendered = scenario.render();
    let text = rendered.text();
    let report = check_reader("structured", text.as_bytes(), scenario.config())
        .map_err(|e| Broken(format!("check_reader failed on memory: {e}")))?;
    if let Err(difference) = rendered.compare(&report.diagnostics) {
        return Err(Broken(format!(
            "the validator did not report exactly the injected violations: {difference}\n{text}"
        )));
    }
    super::stream::check_with(text.as_bytes(), scenario.config())
}
