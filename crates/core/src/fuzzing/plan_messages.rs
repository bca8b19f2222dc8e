//! `plan_messages`: one `update` object through the strict plan parser of
//! every revision.
//!
//! Invariants: a rejected message is explained by an error; every diagnostic
//! points into the message; an accepted message written back in its
//! revision's spelling parses again to an equal message with no error; and
//! what one revision accepts its neighbours accept after respelling (the
//! draft and v1 differ only in names, v2 only adds to v1 except that file
//! URIs must be absolute).

use super::{
    check_diagnostic, check_pointer_in_message, ensure, readings_of, Broken, Checked, Written,
};
use crate::catalog::Severity;
use crate::rules::shape::{parse_plan_update_json, Parsed, PLAN_KINDS};
use crate::spec::messages::{PlanContent, PlanMessage};
use crate::spec::Revision;
use serde_json::{json, Value};

/// A small entry limit the fuzzer reaches (the default one is tried too).
const SMALL_ENTRY_LIMIT: usize = 3;

/// The `plan_messages` target: parses `data` (one `update` object) under every revision and two
/// entry limits, and checks that every rejection is explained by a rule and that an accepted
/// message re-serializes and parses back equal.
pub fn check(data: &[u8]) -> Checked {
    let Ok(text) = std::str::from_utf8(data) else {
        return Ok(());
    };
    let Ok(Value::Object(update)) = serde_json::from_str::<Value>(text) else {
        return Ok(());
    };
    let Some(kind) = update
        .get("sessionUpdate")
        .and_then(Value::as_str)
        .filter(|k| PLAN_KINDS.contains(k))
    else {
        return Ok(());
    };
    // What diagnostics may point into: a repeated member is checked under
    // each of its values, so every reading of the update, and the last
    // value of each member, which serde_json keeps.
    let mut documents: Vec<Value> = readings_of(text)
        .into_iter()
        .map(|reading| json!({"params": {"update": reading}}))
        .collect();
    documents.push(json!({"params": {"update": update}}));
    let written: Vec<Written> = Written::parse(text)
        .map(|update| {
            let update = Written::Object(vec![("update".to_owned(), update)]);
            Written::Object(vec![("params".to_owned(), update)])
        })
        .into_iter()
        .collect();
    let default_limit = crate::trace::Limits::default().max_entries_per_plan;
    for max_entries in [SMALL_ENTRY_LIMIT, default_limit] {
        for revision in Revision::ALL {
            check_revision(text, &documents, &written, kind, revision, max_entries)?;
        }
    }
    Ok(())
}

/// `text` is the update as sent, `documents` the messages its diagnostics
/// may point into and `written` the message as written (see [`check`]).
fn check_revision(
    text: &str,
    documents: &[Value],
    written: &[Written],
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Checked {
    let parsed = parse_plan_update_json(text, kind, revision, max_entries);
    for d in &parsed.diagnostics {
        check_diagnostic(d)?;
        check_pointer_in_message(d, documents, written)?;
        ensure!(
            d.pointer.starts_with("/params/update"),
            "{revision}: {} points outside the update: {}",
            d.rule.id,
            d.pointer
        );
    }
    let Some(message) = &parsed.message else {
        // An error, or the warning that the update was not checked
        // (a repeated member name, which RFC 8259 only discourages).
        ensure!(
            parsed
                .diagnostics
                .iter()
                .any(|d| d.severity() != Severity::Info),
            "{revision}: `{kind}` rejected without an error or warning: {:?}",
            rule_ids(&parsed)
        );
        return Ok(());
    };
    ensure!(
        message.kind() == kind,
        "{revision}: `{kind}` parsed as `{}`",
        message.kind()
    );
    let again = reparse(message, revision, max_entries)?;
    ensure!(
        errors(&again) == 0,
        "{revision}: the accepted message, written back, breaks {:?}",
        rule_ids(&again)
    );
    let spelled_again = again.message.as_ref();
    ensure!(
        spelled_again == Some(message),
        "{revision}: written back and parsed again, {message:?} became {spelled_again:?}"
    );
    if errors(&parsed) == 0 {
        for other in neighbours_accepting(message, revision) {
            let respelled = reparse(message, other, max_entries)?;
            ensure!(
                respelled.message.as_ref() == Some(message) && errors(&respelled) == 0,
                "accepted under {revision} but not under {other} after respelling: {:?}",
                rule_ids(&respelled)
            );
        }
    }
    Ok(())
}

/// Revisions that must accept, after respelling, a message `revision`
/// accepted without error.
fn neighbours_accepting(message: &PlanMessage, revision: Revision) -> Vec<Revision> {
    let content = match message {
        PlanMessage::Update(u) => Some(&u.plan.content),
        _ => None,
    };
    let file = matches!(content, Some(PlanContent::File { .. }));
    let relative_file = matches!(content, Some(PlanContent::File { uri })
        if !crate::rules::shape::is_absolute_uri(uri));
    let path = matches!(content, Some(PlanContent::Markdown { path: Some(_), .. }));
    // v2's open enums and `cancelled` have no v1 spelling.
    if revision.protocol_version() == 2 {
        return Vec::new();
    }
    Revision::ALL
        .into_iter()
        .filter(|other| *other != revision)
        .filter(|other| {
            let spelling = other.spelling();
            (!file || spelling.plan_types.contains(&"file"))
                && !(relative_file && spelling.absolute_file_uri)
                && (!path || spelling.markdown_path)
        })
        .collect()
}

/// Write `message` in `revision`'s spelling, as text, and parse it again.
fn reparse(
    message: &PlanMessage,
    revision: Revision,
    max_entries: usize,
) -> Result<Parsed, Broken> {
    let written = message.to_update_json(revision);
    ensure!(
        written.is_object(),
        "{revision}: to_update_json wrote {written:.200}, not an object"
    );
    Ok(parse_plan_update_json(
        &written.to_string(),
        message.kind(),
        revision,
        max_entries,
    ))
}

fn errors(parsed: &Parsed) -> usize {
    parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .count()
}

fn rule_ids(parsed: &Parsed) -> Vec<&'static str> {
    parsed.diagnostics.iter().map(|d| d.rule.id).collect()
}
