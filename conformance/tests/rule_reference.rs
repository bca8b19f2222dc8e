//! The files generated from the rule catalog: the README's rule table is
//! `acp-plan rules --format markdown`, between marker comments (run with
//! `UPDATE_README=1` to rewrite it in place), and `corpus/rules.json` is
//! `acp-plan rules --format json`.

use acp_plan_conformance::catalog::Rule;
use acp_plan_conformance::report::reference::{markdown, README_END, README_START};
use serde_json::Value;
use std::path::Path;

#[test]
fn rules_json_is_the_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rules.json");
    let text = std::fs::read_to_string(&path).expect("corpus/rules.json");
    let committed: Value = serde_json::from_str(&text).expect("corpus/rules.json is JSON");
    let catalog: Vec<&Rule> = acp_plan_dag::every_rule().collect();
    let current = serde_json::to_value(&catalog).expect("the catalog serializes");
    assert!(
        committed == current,
        "corpus/rules.json is stale; regenerate it with\n  cargo run --bin acp-plan -- rules --format json > corpus/rules.json"
    );
}

#[test]
fn readme_rule_table_is_generated_from_the_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let start = readme
        .find(README_START)
        .unwrap_or_else(|| panic!("README.md lacks the line {README_START}"));
    let end = readme
        .find(README_END)
        .unwrap_or_else(|| panic!("README.md lacks the line {README_END}"));
    assert!(start < end, "{README_START} must come before {README_END}");
    let body_start = start + README_START.len();
    let current = &readme[body_start..end];
    let wanted = format!("\n{}", markdown(acp_plan_dag::every_rule()));
    if current == wanted {
        return;
    }
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{wanted}{}", &readme[..body_start], &readme[end..]);
        std::fs::write(&path, updated).expect("write README.md");
        return;
    }
    panic!(
        "README.md's rule table differs from the rule catalog.\n\
         Regenerate it with:\n\n    \
         UPDATE_README=1 cargo test -p acp-plan --test rule_reference\n\n\
         (or paste the output of `cargo run --bin acp-plan -- rules --format markdown` \
         between {README_START} and {README_END})."
    );
}
