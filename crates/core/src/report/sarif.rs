//! SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps, IDE viewers).
//!
//! One run; `tool.driver.rules` is the whole catalog (id, name, descriptions,
//! help with the spec citation, default level from MUST/SHOULD/INFO). Each
//! diagnostic is a result at the trace file (a repository-relative URI) and
//! line. A baselined diagnostic carries an external, accepted suppression
//! with the baseline's reason; baseline entries that expired or match
//! nothing are error notifications of the invocation, at the baseline file.
//!
//! Written with serde_json: we use a small part of the format, and a test
//! validates the output against the OASIS schema (schemas/).

use super::{display_path, spec_label, spec_release_label, Run, STDIN};
use crate::baseline::EntryOutcome;
use crate::catalog::{Citation, Level, Rule};
use crate::diag::Diagnostic;
use crate::rules::trace_rules;
use crate::spec::list_revisions;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// The SARIF version the documents follow (`version`).
pub const SARIF_VERSION: &str = "2.1.0";
/// The schema the documents name (`$schema`): SARIF 2.1.0 with its errata.
pub const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";
/// Relative artifact URIs are relative to the checked-out repository.
const SOURCE_ROOT: &str = "%SRCROOT%";

/// Mark result `r` as accepted by baseline entry `entry` of `run`: an
/// external, accepted suppression with the entry's reason, at the entry.
pub(crate) fn suppress(r: &mut Value, run: &Run<'_>, entry: &EntryOutcome) {
    r["suppressions"] = json!([{
        "kind": "external",
        "status": "accepted",
        "justification": entry.entry.reason,
        "location": location(
            run.baseline.map(|b| b.file.as_str()).unwrap_or_default(),
            entry.entry.line
        ),
    }]);
}

pub(crate) fn render(run: &Run<'_>) -> Value {
    let rules: Vec<&'static Rule> = trace_rules().collect();
    let mut results = Vec::new();
    for (index, trace) in run.traces.iter().enumerate() {
        for d in &trace.diagnostics {
            let rule_index = rules.iter().position(|r| r.id == d.rule.id);
            let mut r = result(&trace.name, d, rule_index);
            if let Some(entry) = run.baselined(index, d) {
                suppress(&mut r, run, entry);
            }
            results.push(r);
        }
    }
    let mut invocation = json!({ "executionSuccessful": true });
    if let Some(baseline) = run.baseline {
        let notifications: Vec<Value> = baseline
            .problems()
            .map(|entry| {
                json!({
                    "descriptor": { "id": format!("baseline-{}", entry.status) },
                    "level": "error",
                    "message": { "text": format!(
                        "{} (reason: {})",
                        entry.problem().unwrap_or_default(),
                        entry.entry.reason
                    ) },
                    "locations": [location(&baseline.file, entry.entry.line)],
                })
            })
            .collect();
        if !notifications.is_empty() {
            invocation["toolConfigurationNotifications"] = Value::Array(notifications);
        }
    }
    json!({
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": { "driver": {
                "name": "acp-plan",
                "fullName": "acp-plan-conformance (Agent Client Protocol plan messages)",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| rule(r)).collect::<Vec<_>>(),
            }},
            "invocations": [invocation],
            "results": results,
            "properties": {
                "verdict": run.verdict(),
                "result": run.outcome(),
                "spec": spec_label(run.traces),
                "specRelease": spec_release_label(run.traces),
            },
        }],
    })
}

pub(crate) fn level(level: Level) -> &'static str {
    match level {
        Level::Must => "error",
        Level::Should => "warning",
        Level::Info => "note",
        // Not a finding about the input; results say `kind: open` (see `result`).
        Level::Limit => "none",
    }
}

/// The rule's metadata: what code scanning shows next to an alert. Every
/// revision's quotation, each with the suite's note apart from it.
pub fn rule(rule: &Rule) -> Value {
    let spec = format!("{}: {}", capitalized(&rule.backing(None)), rule.citation);
    let revisions = list_revisions(rule.revisions);
    let family = rule.id.split('-').next().unwrap_or(rule.id).to_lowercase();
    let mut text = format!("{}\n", rule.summary);
    let mut markdown = format!("{}\n", rule.summary);
    for (for_revisions, citation) in rule.citations() {
        if for_revisions.is_empty() {
            continue;
        }
        let backing = capitalized(&rule.backing(Some(&list_revisions(&for_revisions))));
        let _ = write!(text, "\n{backing}: {citation}");
        let _ = write!(
            markdown,
            "\n**{backing}**: {}, {}:\n\n",
            citation.document, citation.section
        );
        if !citation.text.is_empty() {
            let _ = writeln!(markdown, "> {}\n", citation.text);
        }
        if !citation.note.is_empty() {
            let _ = write!(text, "\nNote: {}", citation.note);
            let _ = writeln!(markdown, "Note: {}", citation.note);
        }
    }
    let _ = write!(text, "\n\nApplies to: {revisions}.");
    let _ = write!(markdown, "\nApplies to: {revisions}.");
    json!({
        "id": rule.id,
        "name": pascal_case(rule.id),
        "shortDescription": { "text": rule.summary },
        "fullDescription": { "text": format!("{}. {spec}", rule.summary.trim_end_matches('.')) },
        "help": { "text": text, "markdown": markdown },
        "defaultConfiguration": { "level": level(rule.level) },
        "properties": {
            "tags": ["acp", "plan", family],
            "level": rule.level,
            "basis": rule.basis,
            "revisions": rule.revisions,
        },
    })
}

/// SARIF's descriptions are sentences: "Spec (MUST): …", "Suite's reading (error): …".
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A citation as data: the quotation and the suite's note in members of their own.
pub(crate) fn citation_json(citation: &Citation) -> Value {
    json!({
        "document": citation.document,
        "section": citation.section,
        "text": citation.text,
        "note": citation.note,
    })
}

/// The SARIF result of diagnostic `d` in `file`: `ruleIndex` into the run's rules when given, a
/// location unless the input was standard input (then the line is a property), and `kind: open`
/// for a part left unchecked.
pub fn result(file: &str, d: &Diagnostic, rule_index: Option<usize>) -> Value {
    let mut text = d.message.clone();
    if let Some(hint) = &d.hint {
        text.push_str("\nHelp: ");
        text.push_str(hint);
    }
    let mut properties = Map::new();
    if !d.pointer.is_empty() {
        properties.insert("pointer".into(), Value::from(d.pointer.as_str()));
    }
    if let Some(session) = &d.session {
        properties.insert("session".into(), Value::from(session.as_str()));
    }
    if let Some(plan) = &d.plan {
        properties.insert("plan".into(), Value::from(plan.as_str()));
    }
    properties.insert("citation".into(), citation_json(d.citation()));
    let mut r = json!({
        "ruleId": d.rule.id,
        "level": level(d.rule.level),
        "message": { "text": text },
    });
    if d.rule.level == Level::Limit {
        // SARIF's "could not decide pass or fail": this part was not checked.
        r["kind"] = Value::from("open");
    }
    if let Some(index) = rule_index {
        r["ruleIndex"] = Value::from(index);
    }
    if file == STDIN {
        properties.insert("line".into(), Value::from(d.line));
    } else {
        r["locations"] = json!([location(file, d.line)]);
    }
    if !properties.is_empty() {
        r["properties"] = Value::Object(properties);
    }
    r
}

pub(crate) fn location(file: &str, line: u64) -> Value {
    let uri = artifact_uri(file);
    let mut artifact = json!({ "uri": uri });
    if !uri.starts_with("file:") {
        artifact["uriBaseId"] = Value::from(SOURCE_ROOT);
    }
    let mut physical = json!({ "artifactLocation": artifact });
    if line > 0 {
        physical["region"] = json!({ "startLine": line });
    }
    json!({ "physicalLocation": physical })
}

/// A trace path as a URI reference: relative paths stay relative (to the
/// repository root, where CI runs), absolute ones become `file:` URIs.
pub(crate) fn artifact_uri(path: &str) -> String {
    let path = display_path(path);
    let drive = path.len() >= 3
        && path.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && path.get(1..3) == Some(":/");
    if path.starts_with('/') {
        format!("file://{}", percent_encode(&path))
    } else if drive {
        format!("file:///{}", percent_encode(&path))
    } else {
        let encoded = percent_encode(&path);
        // A colon in the first segment would read as a scheme.
        let first = encoded.split('/').next().unwrap_or_default();
        if first.contains(':') {
            format!("./{encoded}")
        } else {
            encoded
        }
    }
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `CAP-PLAN-OPS` → `CapPlanOps` (SARIF's `name` is an identifier-like word).
fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|part| {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) => {
                    first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
                }
                None => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_references_or_file_uris() {
        assert_eq!(artifact_uri("corpus/a b.jsonl"), "corpus/a%20b.jsonl");
        assert_eq!(artifact_uri("./x/%.jsonl"), "x/%25.jsonl");
        assert_eq!(artifact_uri("/tmp/t#1.jsonl"), "file:///tmp/t%231.jsonl");
        assert_eq!(artifact_uri(r"C:\t\x.jsonl"), "file:///C:/t/x.jsonl");
        assert_eq!(artifact_uri("a:b/x.jsonl"), "./a:b/x.jsonl");
        assert_eq!(artifact_uri("é.jsonl"), "%C3%A9.jsonl");
    }

    #[test]
    fn names_are_pascal_case() {
        assert_eq!(pascal_case("CAP-PLAN-OPS"), "CapPlanOps");
        assert_eq!(pascal_case("ENV-UTF8"), "EnvUtf8");
    }
}
