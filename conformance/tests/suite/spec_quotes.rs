//! Quotations are the spec's own words: every citation's `text` stands
//! verbatim in the excerpt of its document (`corpus/spec/excerpts/`), or, for
//! the suite's own documents, in the README. The suite's notes are apart.

use crate::common;

use acp_plan_conformance::catalog::{docs, Citation, Level, Rule};
use acp_plan_dag::rules::every_rule as catalog;
use common::excerpts::{self, quoted_in, rendered, Excerpt};
use std::collections::BTreeMap;

/// The suite's own documents: the README and the manual under `docs/`, except
/// the generated rule reference (it repeats the quotations).
fn readme_prose() -> Excerpt {
    let root = common::repo_root();
    let mut files = vec!["README.md".to_owned()];
    files.extend(
        common::corpus_files("docs", "md")
            .into_iter()
            .filter(|f| !f.ends_with("docs/rules.md")),
    );
    let mut prose = String::new();
    for file in &files {
        let text = std::fs::read_to_string(root.join(file)).expect("readable doc");
        let text = match (
            text.find("<!-- rules:start -->"),
            text.find("<!-- rules:end -->"),
        ) {
            (Some(start), Some(end)) => format!("{}\n{}", &text[..start], &text[end..]),
            _ => text,
        };
        prose.push_str(&text);
        prose.push('\n');
    }
    Excerpt {
        file: files.join(", "),
        document: "the suite's docs".into(),
        header: BTreeMap::new(),
        rendered: rendered(&prose),
    }
}

fn is_suite_document(document: &str) -> bool {
    document == docs::SUITE || document == docs::SUITE_DAG
}

/// Every citation of the catalog with a label naming rule and revisions.
fn citations() -> Vec<(String, &'static Rule, &'static Citation)> {
    let mut out = Vec::new();
    for rule in catalog() {
        for (revisions, citation) in rule.citations() {
            let label = format!("{} {:?}", rule.id, revisions);
            out.push((label, rule, citation));
        }
    }
    out
}

#[test]
fn every_quotation_is_verbatim_in_its_excerpt() {
    let excerpts = excerpts::load();
    let readme = readme_prose();
    let mut wrong = Vec::new();
    for (label, rule, c) in citations() {
        if c.text.is_empty() {
            // Nothing quoted: say why, and never for an error.
            if c.note.is_empty() || rule.level == Level::Must {
                wrong.push(format!(
                    "{label}: quotes nothing, which only a non-error rule with a note may do"
                ));
            }
            continue;
        }
        let source = if is_suite_document(c.document) {
            &readme
        } else {
            match excerpts.get(c.document) {
                Some(e) => e,
                None => {
                    wrong.push(format!(
                        "{label}: no excerpt of {:?} under {}",
                        c.document,
                        excerpts::EXCERPTS
                    ));
                    continue;
                }
            }
        };
        if !quoted_in(source, c.text) {
            wrong.push(format!("{label}: not in {}: {:?}", source.file, c.text));
        }
        if c.note.contains(c.text) {
            wrong.push(format!("{label}: the note repeats the quotation"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} citations are not verbatim:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The check can fail: a quotation with one word changed, one word dropped or
/// one word inserted is not found.
#[test]
fn an_altered_quotation_is_not_found() {
    let excerpts = excerpts::load();
    let readme = readme_prose();
    let mut checked = 0;
    for (label, _, c) in citations() {
        let words: Vec<&str> = c.text.split_whitespace().collect();
        if words.len() < 2 {
            continue;
        }
        let source = if is_suite_document(c.document) {
            &readme
        } else {
            &excerpts[c.document]
        };
        let last = words.len() - 1;
        let changed = format!("{} quux", words[..last].join(" "));
        let mut inserted = words.clone();
        inserted.insert(1, "MUST");
        let alterations = [
            changed,
            format!("{} {}", words[0], words[2.min(last)..].join(" ")),
            inserted.join(" "),
        ];
        for altered in alterations {
            if rendered(&altered) == rendered(c.text) {
                continue;
            }
            assert!(
                !quoted_in(source, &altered),
                "{label}: altered quotation still found: {altered:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} alterations were tried");
}

#[test]
fn every_document_has_an_excerpt_with_its_source() {
    let excerpts = excerpts::load();
    for (_, _, c) in citations() {
        if is_suite_document(c.document) || c.text.is_empty() {
            continue;
        }
        let e = &excerpts[c.document];
        assert!(
            e.header["source"].starts_with("http") || e.header["source"].contains("seed"),
            "{}: source",
            e.file
        );
        assert!(
            e.header["retrieved"].starts_with("20"),
            "{}: retrieval date",
            e.file
        );
    }
}

#[test]
fn rendering_drops_markup_not_words() {
    assert_eq!(
        rendered("<ParamField path=\"entries\" type=\"PlanEntry[]\" required>\n  An array of [plan entries](#plan-entries) to be\n  done\n</ParamField>"),
        "entries PlanEntry[] required An array of plan entries to be done"
    );
    assert_eq!(
        rendered("Agents **MUST NOT** send `plan_update`."),
        "Agents MUST NOT send plan_update."
    );
    assert_eq!(rendered("- `high`\n  * `low`\n  • x"), "high low x");
    assert_eq!(
        rendered("\"required\": [\"a\", \"b\"]"),
        "\"required\": [\"a\", \"b\"]"
    );
    assert_eq!(rendered("see [1] and [x](y)."), "see [1] and x.");
}
