//! Snapshots of the human report for every fixture under `corpus/docs/`
//! (the JSON examples of the spec documents, see `corpus/docs/README.md`).
//!
//! A spec change that alters a verdict, a message or the reference state shows
//! up as a diff of `snapshots/docs/<revision>/<fixture>.snap`. A new fixture
//! needs no code: it gets a snapshot (review it with `cargo insta review`) and
//! must be listed in the README with its expected verdict.

use acp_plan_test_support::{corpus_files, repo_root};

use acp_plan_conformance::catalog::Severity;
use acp_plan_conformance::report::{self, ReportOptions, Verdict};
use acp_plan_conformance::{check_reader, Config, TraceReport};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;

const DOCS: &str = "corpus/docs";

fn fixtures() -> Vec<String> {
    corpus_files(DOCS, "jsonl")
}

/// Check a fixture as `acp-plan check` does, named by its repository-relative
/// path so that reports do not depend on where the repository is.
fn check(fixture: &str) -> TraceReport {
    let file = File::open(repo_root().join(fixture)).expect("fixture is readable");
    check_reader(fixture, BufReader::new(file), Config::default()).expect("fixture is readable")
}

/// `v1/plan-operations-items.jsonl` → (`v1`, `plan-operations-items`).
fn revision_and_name(fixture: &str) -> (String, String) {
    let inside = fixture
        .strip_prefix(&format!("{DOCS}/"))
        .expect("fixture under corpus/docs");
    let (revision, file) = inside
        .split_once('/')
        .unwrap_or_else(|| panic!("{fixture}: fixtures live in corpus/docs/<revision>/"));
    assert!(
        !file.contains('/'),
        "{fixture}: fixtures live directly in corpus/docs/<revision>/"
    );
    let name = file.strip_suffix(".jsonl").expect("a .jsonl fixture");
    (revision.to_owned(), name.to_owned())
}

#[test]
fn human_report_of_every_docs_fixture() {
    let fixtures = fixtures();
    assert!(!fixtures.is_empty(), "no fixtures under {DOCS}");
    for fixture in &fixtures {
        let (revision, name) = revision_and_name(fixture);
        let report = check(fixture);
        let options = ReportOptions {
            show_state: true,
            ..ReportOptions::default()
        };
        let traces = std::slice::from_ref(&report);
        let human = report::human::render(&report::Run::new(traces, options));
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(format!("../../../../snapshots/docs/{revision}"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_description(format!("acp-plan check --show-state {fixture}"));
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!(name, human));
    }
}

#[test]
fn every_snapshot_has_its_fixture() {
    let fixtures = fixtures();
    for snap in corpus_files("snapshots/docs", "snap") {
        let fixture = snap
            .replacen("snapshots/docs/", &format!("{DOCS}/"), 1)
            .replace(".snap", ".jsonl");
        assert!(
            fixtures.contains(&fixture),
            "{snap} is left over: {fixture} does not exist (delete the snapshot)"
        );
    }
}

#[test]
fn fixture_wrappers_are_clean_and_resolve_to_their_directory_revision() {
    for fixture in fixtures() {
        let (revision, _) = revision_and_name(&fixture);
        let report = check(&fixture);
        assert_eq!(
            report.revision.revision.as_str(),
            revision,
            "{fixture}: the handshake must select the directory's revision ({})",
            report.revision.reason
        );
        // The initialize / session/new around the example must not be what
        // the verdict is about.
        let wrapper_faults: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| {
                ["ENV-", "TRACE-", "SES-"]
                    .iter()
                    .any(|p| d.rule.id.starts_with(p))
            })
            .map(|d| format!("{} at line {}: {}", d.rule.id, d.line, d.message))
            .collect();
        assert!(wrapper_faults.is_empty(), "{fixture}: {wrapper_faults:?}");
        assert!(
            report.state.session("sess_abc123def456").is_some(),
            "{fixture}: session/new must establish sess_abc123def456"
        );
    }
}

/// The README's table: fixture (relative to corpus/docs) → expected verdict.
fn readme_verdicts() -> BTreeMap<String, String> {
    let readme = std::fs::read_to_string(repo_root().join(DOCS).join("README.md"))
        .expect("corpus/docs/README.md");
    let mut rows = BTreeMap::new();
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `fixture` | source | section | verdict |
        let [_, first, _, _, verdict, _] = cells.as_slice() else {
            continue;
        };
        let Some(fixture) = first
            .strip_prefix('`')
            .and_then(|f| f.strip_suffix(".jsonl`"))
        else {
            continue;
        };
        let previous = rows.insert(format!("{fixture}.jsonl"), (*verdict).to_owned());
        assert!(previous.is_none(), "README lists {fixture} twice");
    }
    rows
}

#[test]
fn readme_lists_every_fixture_with_its_verdict() {
    let listed = readme_verdicts();
    let fixtures = fixtures();
    for fixture in &fixtures {
        let inside = &fixture[DOCS.len() + 1..];
        let expected = listed
            .get(inside)
            .unwrap_or_else(|| panic!("corpus/docs/README.md does not list {inside}"));
        let report = check(fixture);
        let verdict = report::verdict(std::slice::from_ref(&report), ReportOptions::default());
        let mut errors: Vec<&str> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity() == Severity::Error)
            .map(|d| d.rule.id)
            .collect();
        errors.dedup();
        let actual = match verdict {
            Verdict::Conformant => "conformant".to_owned(),
            Verdict::NotConformant => format!("not conformant: {}", errors.join(", ")),
            Verdict::Incomplete => "incomplete".to_owned(),
        };
        assert_eq!(
            &actual, expected,
            "{fixture}: verdict differs from the README"
        );
    }
    for listed in listed.keys() {
        assert!(
            fixtures.contains(&format!("{DOCS}/{listed}")),
            "README lists {listed}, which does not exist"
        );
    }
}
