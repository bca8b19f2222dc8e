//! The coverage matrix (`docs/spec-coverage.md`), as test262 and WPT keep
//! one: every normative sentence of the texts the suite checks against
//! (`corpus/spec/normative.json`), the rules that test it and their vectors,
//! or why a message stream cannot show it. The document is generated here and
//! must match; `UPDATE_COVERAGE=1` rewrites it.
//!
//! The checks keep the data honest: each sentence is verbatim in its excerpt;
//! each names rules of the catalog or a reason; no sentence of an excerpt with
//! an RFC 2119 keyword is left out; every rule rests on a listed sentence; every
//! error-level rule whose basis is the text rests on a MUST, MUST NOT or
//! REQUIRED sentence (in 010, which has no keywords, on a plain statement), and
//! one whose basis is the suite's reading on the examples it reads, and on no
//! sentence that would state it.

use crate::common;

use acp_plan_conformance::catalog::{docs, Basis, Level, Rule};
use acp_plan_dag::rules::every_rule;
use common::excerpts::{self, quoted_in, rendered};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const NORMATIVE: &str = "corpus/spec/normative.json";
const MATRIX: &str = "docs/spec-coverage.md";
const REVISIONS: [&str; 5] = ["draft-2026-05", "v1-1.17", "v1", "v2-1.17", "v2"];
/// RFC 2119 keywords whose sentences must all be listed.
const KEYWORDS: [&str; 5] = ["MUST", "SHOULD", "REQUIRED", "MAY", "OPTIONAL"];

struct Sentence {
    document: String,
    section: String,
    level: String,
    party: String,
    text: String,
    rules: Vec<String>,
    untestable: Option<String>,
}

fn sentences() -> Vec<Sentence> {
    let text = std::fs::read_to_string(common::repo_root().join(NORMATIVE)).expect(NORMATIVE);
    let json: Value = serde_json::from_str(&text).expect("normative.json is JSON");
    let field = |s: &Value, k: &str| s[k].as_str().map(str::to_owned);
    json["sentences"]
        .as_array()
        .expect("a list of sentences")
        .iter()
        .map(|s| Sentence {
            document: field(s, "document").expect("document"),
            section: field(s, "section").expect("section"),
            level: field(s, "level").expect("level"),
            party: field(s, "party").expect("party"),
            text: field(s, "text").expect("text"),
            rules: s["rules"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
            untestable: field(s, "untestable"),
        })
        .collect()
}

/// Vector cases by rule and revision: (cases that report the rule, near misses).
type VectorIndex = BTreeMap<String, BTreeMap<&'static str, (Vec<String>, Vec<String>)>>;

fn vectors() -> VectorIndex {
    let mut index = VectorIndex::new();
    for revision in REVISIONS {
        for file in common::corpus_files(&format!("corpus/vectors/{revision}"), "json") {
            let text =
                std::fs::read_to_string(common::repo_root().join(&file)).expect("vector file");
            let json: Value = serde_json::from_str(&text).expect("vector file is JSON");
            for case in json["cases"].as_array().into_iter().flatten() {
                let id = case["id"].as_str().unwrap_or_default().to_owned();
                let reported: BTreeSet<&str> = case["expect"]["diagnostics"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|d| d["rule"].as_str())
                    .collect();
                for rule in reported {
                    let entry = index
                        .entry(rule.to_owned())
                        .or_default()
                        .entry(revision)
                        .or_default();
                    entry.0.push(id.clone());
                }
                for rule in case["near_miss"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    let entry = index
                        .entry(rule.to_owned())
                        .or_default()
                        .entry(revision)
                        .or_default();
                    entry.1.push(id.clone());
                }
            }
        }
    }
    index
}

/// Plans of tool calls: the `corpus/dag` files whose snapshot reports the rule.
fn dag_cases(rule: &str) -> Vec<String> {
    let mut found = Vec::new();
    for file in common::corpus_files("snapshots/dag", "snap") {
        let text = std::fs::read_to_string(common::repo_root().join(&file)).unwrap_or_default();
        if text.contains(&format!("[{rule}]")) {
            let name = file
                .rsplit('/')
                .next()
                .unwrap_or(&file)
                .trim_end_matches(".snap");
            found.push(name.to_owned());
        }
    }
    found
}

fn is_error_bearing(level: &str) -> bool {
    level.starts_with("MUST") || level.starts_with("REQUIRED")
}

/// A sentence that states a requirement: a MUST, MUST NOT or REQUIRED, or a
/// plain statement of 010, which uses no RFC 2119 keywords ("The flowchart
/// can't have any loops").
fn states_a_requirement(s: &Sentence) -> bool {
    is_error_bearing(&s.level) || (s.document == docs::EMERGENCE_PLAN && s.level == "descriptive")
}

/// Rules the suite states in its own documents (trace format, plan files) or
/// that rest on a text it does not quote: they need no sentence of a spec.
fn on_the_suites_terms(rule: &Rule) -> bool {
    rule.citation.document.starts_with("acp-plan-conformance") || rule.citation.text.is_empty()
}

#[test]
fn every_sentence_is_verbatim_and_accounted_for() {
    let excerpts = excerpts::load();
    let rules: BTreeSet<&str> = every_rule().map(|r| r.id).collect();
    let mut wrong = Vec::new();
    for s in sentences() {
        match excerpts.get(&s.document) {
            None => wrong.push(format!("no excerpt of {:?}", s.document)),
            Some(e) if !quoted_in(e, &s.text) => {
                wrong.push(format!("not verbatim in {}: {:?}", e.file, s.text))
            }
            Some(_) => {}
        }
        if s.rules.is_empty() && s.untestable.as_deref().is_none_or(str::is_empty) {
            wrong.push(format!("neither rules nor a reason: {:?}", s.text));
        }
        for r in &s.rules {
            if !rules.contains(r.as_str()) {
                wrong.push(format!("{r} is not a rule (in {:?})", s.text));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// No sentence with an RFC 2119 keyword is missing from the list: every
/// keyword of every prose excerpt lies inside a listed sentence. (The schema
/// excerpts are JSON, and 010 uses no keywords.)
#[test]
fn no_keyword_sentence_is_unaccounted_for() {
    let excerpts = excerpts::load();
    let sentences = sentences();
    let mut missing = Vec::new();
    for (document, excerpt) in &excerpts {
        if document.contains("JSON Schema") {
            continue;
        }
        let text = &excerpt.rendered;
        let covered: Vec<(usize, usize)> = sentences
            .iter()
            .filter(|s| &s.document == document)
            .flat_map(|s| {
                let needle = rendered(&s.text);
                text.match_indices(&needle)
                    .map(|(at, m)| (at, at + m.len()))
                    .collect::<Vec<_>>()
            })
            .collect();
        for keyword in KEYWORDS {
            for (at, _) in text.match_indices(keyword) {
                let word_start = at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric();
                let end = at + keyword.len();
                let word_end = end == text.len() || !text.as_bytes()[end].is_ascii_alphanumeric();
                if !(word_start && word_end) {
                    continue;
                }
                if !covered.iter().any(|&(a, b)| a <= at && end <= b) {
                    let from = text[..at]
                        .char_indices()
                        .rev()
                        .nth(60)
                        .map_or(0, |(i, _)| i);
                    let to = text[end..]
                        .char_indices()
                        .nth(60)
                        .map_or(text.len(), |(i, _)| end + i);
                    missing.push(format!("{document}: …{}…", &text[from..to]));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} keyword sentences are not in {NORMATIVE}:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_rule_rests_on_a_listed_sentence_and_every_error_on_a_must_or_says_it_is_a_reading() {
    let sentences = sentences();
    let mut wrong = Vec::new();
    for rule in every_rule() {
        if on_the_suites_terms(rule) {
            continue;
        }
        let resting: Vec<&Sentence> = sentences
            .iter()
            .filter(|s| s.rules.iter().any(|r| r == rule.id))
            .collect();
        if resting.is_empty() {
            wrong.push(format!("{}: no sentence of {NORMATIVE} lists it", rule.id));
        }
        if rule.level != Level::Must {
            continue;
        }
        let stated = resting.iter().any(|s| states_a_requirement(s));
        match rule.basis {
            Basis::Text if !stated => wrong.push(format!(
                "{}: an error-level rule without a MUST, MUST NOT or REQUIRED sentence (or a statement of 010); if the text only shows it by example, its basis is Basis::Reading",
                rule.id
            )),
            Basis::Reading if !resting.iter().any(|s| s.level == "example") => wrong.push(
                format!("{}: the suite's reading of no example listed", rule.id),
            ),
            Basis::Reading if resting.iter().any(|s| is_error_bearing(&s.level)) => wrong.push(
                format!("{}: rests on a MUST sentence but says it is the suite's reading", rule.id),
            ),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_coverage_matrix_is_generated_from_the_data() {
    let text = matrix();
    let path = common::repo_root().join(MATRIX);
    if std::env::var_os("UPDATE_COVERAGE").is_some() {
        std::fs::write(&path, &text).expect("write docs/spec-coverage.md");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == text,
        "{MATRIX} is out of date: run UPDATE_COVERAGE=1 cargo test -p acp-plan --test suite -- spec_coverage::"
    );
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn vector_summary(index: &VectorIndex, rule: &str) -> String {
    if rule.starts_with("DAG-") {
        let cases = dag_cases(rule);
        return if cases.is_empty() {
            "unit tests".to_owned()
        } else {
            format!("dag: {}", cases.join(", "))
        };
    }
    let Some(by_revision) = index.get(rule) else {
        return "agent scenarios (live)".to_owned();
    };
    REVISIONS
        .iter()
        .filter_map(|r| {
            by_revision
                .get(r)
                .map(|(hit, near)| format!("{r} {}+{}", hit.len(), near.len()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn matrix() -> String {
    let sentences = sentences();
    let index = vectors();
    let rules: Vec<&'static Rule> = every_rule().collect();
    let mut out = String::new();
    out.push_str("# Spec coverage\n\n");
    out.push_str("<!-- Generated by conformance/tests/suite/spec_coverage.rs from corpus/spec/normative.json, the rule catalog and corpus/vectors; UPDATE_COVERAGE=1 cargo test -p acp-plan --test suite -- spec_coverage:: rewrites it. Do not edit by hand. -->\n\n");
    let tested = sentences.iter().filter(|s| !s.rules.is_empty()).count();
    let reasons = sentences.iter().filter(|s| s.rules.is_empty()).count();
    let _ = writeln!(
        out,
        "Every normative sentence of the texts the suite checks against (the plan pages of each revision, the Plan Operations RFD, the parts of Initialization, Session Setup, Prompt Turn, Extensibility and Transports that bear on plan messages, JSON-RPC 2.0, RFC 8259 and Acts of Emergence 010), quoted verbatim from `corpus/spec/excerpts/`: {} sentences, {tested} tested by rules, {reasons} not testable from a message stream (the reason is given), none unaccounted for (a test checks every RFC 2119 keyword of the excerpts).\n",
        sentences.len()
    );
    out.push_str("Vectors: `revision hits+near misses` counts the cases of `corpus/vectors/<revision>/` that report the rule and those that come close without breaking it; `dag:` names the `corpus/dag` examples whose report shows the rule.\n\n");
    let mut documents: Vec<&str> = Vec::new();
    for s in &sentences {
        if !documents.contains(&s.document.as_str()) {
            documents.push(&s.document);
        }
    }
    for document in documents {
        let _ = writeln!(out, "## {document}\n");
        out.push_str("| Section | Level | Party | Sentence | Rules | Vectors, or why not testable |\n|---|---|---|---|---|---|\n");
        for s in sentences.iter().filter(|s| s.document == document) {
            let evidence = if s.rules.is_empty() {
                s.untestable.clone().unwrap_or_default()
            } else {
                s.rules
                    .iter()
                    .map(|r| format!("{r}: {}", vector_summary(&index, r)))
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            let rule_links = s
                .rules
                .iter()
                .map(|r| format!("[`{r}`](rules.md#{})", r.to_lowercase()))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&s.section),
                cell(&s.level),
                cell(&s.party),
                cell(&s.text),
                rule_links,
                cell(&evidence)
            );
        }
        out.push('\n');
    }
    out.push_str("## Rules and what they rest on\n\n| Rule | Level | Sentences | Vectors |\n|---|---|---|---|\n");
    for rule in rules {
        let resting = sentences
            .iter()
            .filter(|s| s.rules.iter().any(|r| r == rule.id))
            .count();
        let basis = if resting > 0 {
            format!("{resting}")
        } else if rule.citation.text.is_empty() {
            format!("none quoted: {}", rule.citation.document)
        } else {
            format!("the suite's own terms: {}", rule.citation.document)
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            rule.id,
            rule.level_label(),
            cell(&basis),
            cell(&vector_summary(&index, rule.id))
        );
    }
    out
}
