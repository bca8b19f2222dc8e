//! The README's rule table is `acp-plan rules --format markdown`, between
//! marker comments. This test fails when they differ; run it with
//! `UPDATE_README=1` to rewrite the table in place.

use acp_plan_conformance::report::reference::{markdown, README_END, README_START};
use std::path::Path;

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
    let wanted = format!("\n{}", markdown());
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
         UPDATE_README=1 cargo test -p acp-plan-conformance --test rule_reference\n\n\
         (or paste the output of `cargo run --bin acp-plan -- rules --format markdown` \
         between {README_START} and {README_END})."
    );
}
