//! The `acp-plan` binary end to end: exit statuses of every format, and the
//! baseline workflow (write, pass, ratchet, expire), run from the repository
//! root as CI would.

use crate::common;

use common::{acp_plan, status, stderr, stdout};
use std::path::{Path, PathBuf};

const BROKEN: &str = "corpus/examples/broken.jsonl";
const CLEAN: &str = "corpus/traces/python-sdk-0.12-plan-ops.jsonl";

/// A directory of this test's own under Cargo's scratch space for
/// integration tests (inside `target/`), emptied first: a run leaves
/// nothing in the system's temporary directory.
fn scratch(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-reports-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

#[test]
fn every_format_exits_0_when_conformant_and_1_when_not() {
    for format in ["human", "json", "junit", "sarif", "github"] {
        let broken = acp_plan(&["check", "--format", format, BROKEN]);
        assert_eq!(status(&broken), 1, "{format}: {}", stderr(&broken));
        assert!(!broken.stdout.is_empty(), "{format} printed nothing");
        let clean = acp_plan(&["check", "--format", format, CLEAN]);
        assert_eq!(status(&clean), 0, "{format}: {}", stderr(&clean));
    }
    let bad_format = acp_plan(&["check", "--format", "xml", CLEAN]);
    assert_eq!(status(&bad_format), 2);
}

#[test]
fn a_written_baseline_makes_the_run_pass_until_the_problems_are_fixed() {
    let dir = scratch("ratchet");
    let baseline = dir.join("baseline.toml");
    let write = acp_plan(&["baseline", "write", "--output", path(&baseline), BROKEN]);
    assert_eq!(status(&write), 0, "{}", stderr(&write));
    assert!(
        write.stdout.is_empty(),
        "--output writes the file, not stdout"
    );
    let text = std::fs::read_to_string(&baseline).expect("baseline written");
    assert!(text.contains("rule = \"CAP-PLAN-OPS\""), "{text}");
    assert!(text.contains(&format!("scope = \"{BROKEN}\"")), "{text}");

    // Every failure is accepted: exit 0, and the report says so.
    let pass = acp_plan(&["check", "--baseline", path(&baseline), BROKEN]);
    assert_eq!(status(&pass), 0, "{}", stdout(&pass));
    assert!(stdout(&pass).contains("(baselined)"));
    assert!(stdout(&pass).contains("result: pass"));

    // The same baseline against a trace without those failures: every entry
    // is stale and fails the run, so fixed problems leave the baseline.
    let fixed = acp_plan(&["check", "--baseline", path(&baseline), CLEAN]);
    assert_eq!(status(&fixed), 1);
    assert!(
        stdout(&fixed).contains("matches no failure"),
        "{}",
        stdout(&fixed)
    );

    // Warnings are only written when the run denies them.
    let denied = acp_plan(&[
        "check",
        "--deny-warnings",
        "--baseline",
        path(&baseline),
        BROKEN,
    ]);
    assert_eq!(
        status(&denied),
        1,
        "CAP-RENAMED is a warning left out of the baseline"
    );
    let strict = dir.join("strict.toml");
    let write = acp_plan(&[
        "baseline",
        "write",
        "--deny-warnings",
        "-o",
        path(&strict),
        BROKEN,
    ]);
    assert_eq!(status(&write), 0);
    let denied = acp_plan(&[
        "check",
        "--deny-warnings",
        "--baseline",
        path(&strict),
        BROKEN,
    ]);
    assert_eq!(status(&denied), 0, "{}", stdout(&denied));
}

#[test]
fn baseline_entries_expire_after_their_last_day() {
    let dir = scratch("expiry");
    let baseline = dir.join("baseline.toml");
    let write = acp_plan(&[
        "baseline",
        "write",
        "--expires",
        "2026-03-31",
        "--reason",
        "tracked in issue 42",
        "-o",
        path(&baseline),
        BROKEN,
    ]);
    assert_eq!(status(&write), 0, "{}", stderr(&write));
    let text = std::fs::read_to_string(&baseline).expect("baseline written");
    assert!(text.contains("expires = 2026-03-31"), "{text}");
    assert!(text.contains("reason = \"tracked in issue 42\""), "{text}");
    let check = |today: &str| {
        acp_plan(&[
            "check",
            "--format",
            "json",
            "--baseline",
            path(&baseline),
            "--today",
            today,
            BROKEN,
        ])
    };
    let last_day = check("2026-03-31");
    assert_eq!(status(&last_day), 0, "{}", stdout(&last_day));
    let after = check("2026-04-01");
    assert_eq!(status(&after), 1);
    let document: serde_json::Value = serde_json::from_slice(&after.stdout).expect("json");
    assert_eq!(document["result"], "fail");
    assert_eq!(document["baseline"]["today"], "2026-04-01");
    let statuses: Vec<&str> = document["baseline"]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter_map(|e| e["status"].as_str())
        .collect();
    assert!(!statuses.is_empty());
    assert!(statuses.iter().all(|s| *s == "expired"), "{statuses:?}");
}

#[test]
fn baselines_that_cannot_be_used_are_usage_errors() {
    let dir = scratch("usage");
    let unknown = dir.join("unknown.toml");
    std::fs::write(
        &unknown,
        "version = 1\n\n[[expected]]\nrule = \"CAP-TYPO\"\nreason = \"r\"\n",
    )
    .expect("write");
    let out = acp_plan(&["check", "--baseline", path(&unknown), BROKEN]);
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).contains("unknown.toml:3: unknown rule `CAP-TYPO`"),
        "{}",
        stderr(&out)
    );
    let missing = acp_plan(&["check", "--baseline", path(&dir.join("nope.toml")), BROKEN]);
    assert_eq!(status(&missing), 2);
    let no_baseline = acp_plan(&["check", "--today", "2026-01-01", BROKEN]);
    assert_eq!(status(&no_baseline), 2, "--today needs --baseline");
    let bad_date = acp_plan(&["baseline", "write", "--expires", "next week", BROKEN]);
    assert_eq!(status(&bad_date), 2);
    let unreadable = acp_plan(&["baseline", "write", "corpus/does-not-exist.jsonl"]);
    assert_eq!(status(&unreadable), 2);
}

#[test]
fn baseline_write_to_stdout_round_trips() {
    let dir = scratch("stdout");
    let write = acp_plan(&["baseline", "write", BROKEN, CLEAN]);
    assert_eq!(status(&write), 0);
    let baseline = dir.join("from-stdout.toml");
    std::fs::write(&baseline, &write.stdout).expect("write");
    let out = acp_plan(&["check", "--baseline", path(&baseline), BROKEN, CLEAN]);
    assert_eq!(status(&out), 0, "{}", stdout(&out));
    let nothing = acp_plan(&["baseline", "write", CLEAN]);
    assert!(stdout(&nothing).contains("Nothing to accept"));
    std::fs::write(&baseline, &nothing.stdout).expect("write");
    let out = acp_plan(&["check", "--baseline", path(&baseline), CLEAN]);
    assert_eq!(status(&out), 0, "an empty baseline is valid");
}

#[test]
fn rules_markdown_is_the_library_reference() {
    let out = acp_plan(&["rules", "--format", "markdown"]);
    assert_eq!(status(&out), 0);
    assert_eq!(
        stdout(&out),
        acp_plan_conformance::report::reference::markdown(acp_plan_dag::every_rule())
    );
}
