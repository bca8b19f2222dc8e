//! Hostile input against every limit of `Limits`: live state stays at the
//! limit however much more input arrives, each limit says so with a
//! diagnostic, and the verdict still counts everything. Also the repeated
//! member names the differential fuzzer found.

use acp_plan_conformance::trace::LineReader;
use acp_plan_conformance::{check_reader, Config, Diagnostic, Limits, Occupancy, Validator};
use std::io::{self, BufReader, Read};

/// Items fed past each limit: 2 000 times the limits below, so any growth
/// would show (a million costs a minute in a debug build).
const HOSTILE_ITEMS: u64 = 200_000;

fn small_limits() -> Limits {
    Limits {
        max_sessions: 100,
        max_plans_per_session: 100,
        max_entries_per_plan: 100,
        max_outstanding_requests: 100,
        max_diagnostics: 1_000,
        ..Limits::default()
    }
}

fn validator() -> Validator {
    Validator::new(Config {
        limits: small_limits(),
        ..Config::default()
    })
}

/// A v1 handshake with the plan capability, an agent that can load
/// sessions, and session `s`; returns the next line number.
fn handshake(validator: &mut Validator) -> u64 {
    let lines = [
        r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
        r#"{"jsonrpc":"2.0","id":"init","result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}"#,
        r#"{"jsonrpc":"2.0","id":"new","method":"session/new","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":"new","result":{"sessionId":"s"}}"#,
    ];
    for (i, line) in lines.iter().enumerate() {
        validator.push_record(i as u64 + 1, line.as_bytes());
    }
    assert_eq!(rules(&validator.take_diagnostics()), Vec::<&str>::new());
    lines.len() as u64 + 1
}

fn rules(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.rule.id).collect()
}

fn update(update: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#
    )
}

/// Feed `count` lines made by `line`: how many diagnostics of `rule` came
/// out, and the largest occupancy seen along the way.
fn feed(
    validator: &mut Validator,
    first_line: u64,
    count: u64,
    rule: &str,
    line: impl Fn(u64) -> String,
) -> (u64, Occupancy) {
    let mut hits = 0;
    let mut peak = Occupancy::default();
    for n in 0..count {
        validator.push_record(first_line + n, line(n).as_bytes());
        let found = validator.take_diagnostics();
        hits += found.iter().filter(|d| d.rule.id == rule).count() as u64;
        if n % 997 == 0 || n + 1 == count {
            let o = validator.occupancy();
            peak = Occupancy {
                sessions: peak.sessions.max(o.sessions),
                session_slots: peak.session_slots.max(o.session_slots),
                shown_sessions: peak.shown_sessions.max(o.shown_sessions),
                plans: peak.plans.max(o.plans),
                most_plans_in_a_session: peak
                    .most_plans_in_a_session
                    .max(o.most_plans_in_a_session),
                most_entries_in_a_plan: peak.most_entries_in_a_plan.max(o.most_entries_in_a_plan),
                outstanding_requests: [0, 1]
                    .map(|i| peak.outstanding_requests[i].max(o.outstanding_requests[i])),
                remembered_ids: peak.remembered_ids.max(o.remembered_ids),
                remembered_removals: peak.remembered_removals.max(o.remembered_removals),
                pending_diagnostics: peak.pending_diagnostics.max(o.pending_diagnostics),
                state_bytes: peak.state_bytes.max(o.state_bytes),
            };
        }
    }
    (hits, peak)
}

#[test]
fn large_plans_keep_the_state_within_its_byte_budget() {
    // Plans of 100 entries of 1 KiB each (about 100 KiB a plan) under a
    // budget of 1 MiB: the ones past the budget are reported, not kept.
    let mut v = Validator::new(Config {
        limits: Limits {
            max_state_bytes: 1 << 20,
            ..small_limits()
        },
        ..Config::default()
    });
    let next = handshake(&mut v);
    let text = "x".repeat(1024);
    let (hits, peak) = feed(&mut v, next, 50, "TRACE-LIMIT", |n| {
        let entries: Vec<String> = (0..100)
            .map(|_| format!(r#"{{"content":"{text}","priority":"high","status":"pending"}}"#))
            .collect();
        update(&format!(
            r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":"p{n}","entries":[{}]}}}}"#,
            entries.join(",")
        ))
    });
    assert!(peak.state_bytes <= 1 << 20, "{}", peak.state_bytes);
    assert!(peak.state_bytes > 900_000, "{}", peak.state_bytes);
    assert_eq!(hits, 50 - 9, "one limit per plan that did not fit");
    // Replacing a plan with a smaller one is always possible.
    v.push_record(
        next + 50,
        update(
            r#"{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p0","entries":[]}}"#,
        )
        .as_bytes(),
    );
    assert!(v.take_diagnostics().is_empty());
    assert!(v.occupancy().state_bytes < peak.state_bytes);
}

#[test]
fn many_sessions_keep_the_session_limit() {
    let mut v = validator();
    let next = handshake(&mut v);
    let (hits, peak) = feed(&mut v, next, HOSTILE_ITEMS, "TRACE-LIMIT", |n| {
        format!(r#"{{"jsonrpc":"2.0","method":"session/load","params":{{"sessionId":"x{n}"}}}}"#)
    });
    assert_eq!(peak.sessions, 100);
    assert_eq!(peak.shown_sessions, 100);
    assert_eq!(hits, 1, "the session limit is reported once");
}

/// Loads that fail in the order they were sent forget sessions from the
/// front: the slots they leave are dropped in bulk, so memory stays near the
/// sessions shown, and the sessions that remain keep their order and plans.
#[test]
fn loads_failing_in_the_order_sent_keep_sessions_in_order() {
    let mut v = validator();
    let mut line = handshake(&mut v);
    let mut push = |v: &mut Validator, text: String| {
        v.push_record(line, text.as_bytes());
        line += 1;
    };
    let mut peak_slots = 0;
    let mut kept = vec!["s".to_owned()];
    for round in 0..20 {
        // 36 loads in flight (with what is kept, within the 100 sessions),
        // each replaying a plan; all but the last two fail, oldest first.
        for i in 0..36 {
            push(
                &mut v,
                format!(
                    r#"{{"jsonrpc":"2.0","id":"l{round}-{i}","method":"session/load","params":{{"sessionId":"r{round}-{i}"}}}}"#
                ),
            );
            push(
                &mut v,
                format!(
                    r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"r{round}-{i}","update":{{"sessionUpdate":"plan","entries":[{{"content":"{round}-{i}","priority":"low","status":"pending"}}]}}}}}}"#
                ),
            );
        }
        for i in 0..36 {
            let answer = if i < 34 {
                r#""error":{"code":-32002,"message":"not found"}"#
            } else {
                r#""result":{}"#
            };
            push(
                &mut v,
                format!(r#"{{"jsonrpc":"2.0","id":"l{round}-{i}",{answer}}}"#),
            );
            peak_slots = peak_slots.max(v.occupancy().session_slots);
        }
        kept.extend([format!("r{round}-34"), format!("r{round}-35")]);
        assert_eq!(
            rules(&v.take_diagnostics()),
            Vec::<&str>::new(),
            "round {round}"
        );
    }
    let shown: Vec<&str> = v.state().sessions().map(|(id, _)| id).collect();
    assert_eq!(shown, kept);
    for (id, plans) in v.state().sessions().skip(1) {
        let entries = plans.legacy.as_ref().expect("the replayed plan");
        assert_eq!(format!("r{}", entries[0].content), id);
    }
    let o = v.occupancy();
    assert_eq!((o.sessions, o.shown_sessions), (41, 41));
    // The same as a connection that only loaded what is left: the state,
    // and the bytes the validator counts for it session by session.
    let mut left = validator();
    let mut line = handshake(&mut left);
    for id in kept.iter().skip(1) {
        let round_i = &id[1..];
        for text in [
            format!(
                r#"{{"jsonrpc":"2.0","id":"l{round_i}","method":"session/load","params":{{"sessionId":"{id}"}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"{id}","update":{{"sessionUpdate":"plan","entries":[{{"content":"{round_i}","priority":"low","status":"pending"}}]}}}}}}"#
            ),
            format!(r#"{{"jsonrpc":"2.0","id":"l{round_i}","result":{{}}}}"#),
        ] {
            left.push_record(line, text.as_bytes());
            line += 1;
        }
    }
    // And so they stay: each session's plan replaced by one of another
    // size finds what that session held (its own track, not a neighbour's).
    for (v_line, (n, id)) in (1_000_000..).zip(kept.iter().enumerate().skip(1)) {
        let text = format!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"{id}","update":{{"sessionUpdate":"plan","entries":[{{"content":"{}","priority":"low","status":"pending"}}]}}}}}}"#,
            "x".repeat(n * 7)
        );
        left.push_record(line, text.as_bytes());
        v.push_record(v_line, text.as_bytes());
        line += 1;
    }
    assert_eq!(left.state(), v.state());
    assert_eq!(left.occupancy().state_bytes, v.occupancy().state_bytes);
    // At most 77 sessions were shown at once; the empty slots of forgotten
    // ones were dropped in bulk, not one by one, and never grew past the
    // bound.
    assert!(peak_slots > 77, "{peak_slots} slots");
    assert!(peak_slots <= 2 * 100 + 64, "{peak_slots} slots");
}

#[test]
fn many_plans_keep_the_plan_limit() {
    let mut v = validator();
    let next = handshake(&mut v);
    let (hits, peak) = feed(&mut v, next, HOSTILE_ITEMS, "TRACE-LIMIT", |n| {
        update(&format!(
            r#"{{"sessionUpdate":"plan_update","plan":{{"type":"markdown","planId":"p{n}","content":""}}}}"#
        ))
    });
    assert_eq!(peak.most_plans_in_a_session, 100);
    assert_eq!(peak.plans, 100);
    assert_eq!(hits, HOSTILE_ITEMS - 100, "each untracked plan is reported");
}

#[test]
fn many_removed_plans_are_not_all_remembered() {
    let mut v = validator();
    let next = handshake(&mut v);
    let (hits, peak) = feed(&mut v, next, HOSTILE_ITEMS, "ID-REMOVE-UNKNOWN", |n| {
        let (kind, body) = if n % 2 == 0 {
            (
                "plan_update",
                r#","plan":{"type":"markdown","planId":"ID","content":""}"#,
            )
        } else {
            ("plan_removed", r#","planId":"ID""#)
        };
        update(&format!(
            r#"{{"sessionUpdate":"{kind}"{}}}"#,
            body.replace("ID", &format!("p{}", n / 2))
        ))
    });
    assert_eq!(hits, 0);
    assert_eq!(peak.plans, 1);
    assert_eq!(peak.remembered_removals, 1024);
}

#[test]
fn many_requests_keep_the_outstanding_limit() {
    let mut v = validator();
    let next = handshake(&mut v);
    let (hits, peak) = feed(&mut v, next, HOSTILE_ITEMS, "TRACE-LIMIT", |n| {
        // Alternate senders: both directions have their own limit.
        if n % 2 == 0 {
            format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"session/prompt","params":{{"sessionId":"s","prompt":[]}}}}"#
            )
        } else {
            format!(
                r#"{{"jsonrpc":"2.0","id":{n},"method":"fs/read_text_file","params":{{"sessionId":"s","path":"/x"}}}}"#
            )
        }
    });
    assert_eq!(peak.outstanding_requests, [100, 100]);
    assert_eq!(
        hits,
        HOSTILE_ITEMS - 200,
        "each untracked request is reported"
    );
}

#[test]
fn many_answered_requests_are_not_all_remembered() {
    let mut v = validator();
    let next = handshake(&mut v);
    let (hits, peak) = feed(&mut v, next, HOSTILE_ITEMS, "ENV-UNKNOWN-RESPONSE", |n| {
        if n % 2 == 0 {
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"session/cancel","params":{{"sessionId":"s"}}}}"#,
                n / 2
            )
        } else {
            format!(r#"{{"jsonrpc":"2.0","id":{},"result":null}}"#, n / 2)
        }
    });
    assert_eq!(hits, 0);
    assert_eq!(peak.outstanding_requests, [1, 0]);
    assert!(peak.remembered_ids <= 256, "{}", peak.remembered_ids);
}

#[test]
fn entries_over_the_limit_are_reported_and_not_shown() {
    let mut v = validator();
    let next = handshake(&mut v);
    let entry = r#"{"content":"x","priority":"low","status":"pending"}"#;
    let plan = |n: usize| {
        update(&format!(
            r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":"p","entries":[{}]}}}}"#,
            vec![entry; n].join(",")
        ))
    };
    v.push_record(next, plan(100).as_bytes());
    assert!(v.take_diagnostics().is_empty());
    v.push_record(next + 1, plan(101).as_bytes());
    let found = v.take_diagnostics();
    assert_eq!(rules(&found), ["TRACE-LIMIT"]);
    assert_eq!(found[0].pointer, "/params/update/plan/entries");
    assert_eq!(v.occupancy().most_entries_in_a_plan, 100);
}

#[test]
fn one_line_with_countless_faults_keeps_the_diagnostic_limit_and_counts_all() {
    // 5 000 entries that are not objects: 5 000 errors on one line, with
    // room for 1 000. The verdict must still count every one.
    let limits = Limits {
        max_entries_per_plan: 10_000,
        ..small_limits()
    };
    let mut v = Validator::new(Config {
        limits: limits.clone(),
        ..Config::default()
    });
    let next = handshake(&mut v);
    let line = update(&format!(
        r#"{{"sessionUpdate":"plan","entries":[{}]}}"#,
        vec!["7"; 5_000].join(",")
    ));
    v.push_record(next, line.as_bytes());
    assert_eq!(v.occupancy().pending_diagnostics, limits.max_diagnostics);
    assert_eq!(v.take_diagnostics().len(), limits.max_diagnostics);
    assert_eq!(v.take_not_kept().errors, 4_000);

    let trace = format!(
        "{}\n{}\n{}\n{}\n{line}\n",
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}"#,
    );
    let report = check_reader(
        "t",
        trace.as_bytes(),
        Config {
            limits,
            ..Config::default()
        },
    )
    .unwrap();
    assert_eq!(report.diagnostics.len(), 1_000);
    assert_eq!(report.counts.errors, 5_000);
}

#[test]
fn an_object_with_countless_unknown_members_names_a_few() {
    let mut v = validator();
    let next = handshake(&mut v);
    let members: Vec<String> = (0..100_000).map(|n| format!(r#""k{n}":0"#)).collect();
    let line = update(&format!(
        r#"{{"sessionUpdate":"plan","entries":[{{"content":"x","priority":"low","status":"pending",{}}}]}}"#,
        members.join(",")
    ));
    v.push_record(next, line.as_bytes());
    let found = v.take_diagnostics();
    assert_eq!(found.len(), 9, "{:?}", rules(&found));
    assert!(found.iter().all(|d| d.rule.id == "SHAPE-UNKNOWN-FIELD"));
    assert!(
        found[8].message.starts_with("99992 more members"),
        "{}",
        found[8].message
    );
}

#[test]
fn one_repeat_among_countless_members_is_found_and_every_reading_checked() {
    // bench/hostile.py's `repeat` and `pairs`, small: the repeat is named
    // where it is, and the update is applied as its last reading.
    let members: Vec<String> = (0..100_000).map(|n| format!(r#""{n:x}":0"#)).collect();
    for (repeats, last) in [
        (r#""k":"a","k":"b""#.to_owned(), "p1"),
        (members[..1000].join(","), "p2"),
    ] {
        let line = update(&format!(
            r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":"{last}","entries":[{{"content":"x","priority":"low","status":"pending","_meta":{{{},{repeats}}}}}]}}}}"#,
            members.join(",")
        ));
        let (found, state) = check(&[INIT, INIT_OK, NEW, NEW_OK, &line]);
        assert_eq!(found[0], "ENV-DUPLICATE-KEY", "{found:?}");
        assert!(found.iter().all(|r| *r == "ENV-DUPLICATE-KEY"), "{found:?}");
        assert_eq!(
            state["sessions"]["s"]["plans"][last]["entries"][0]["content"], "x",
            "applied: every reading is well-formed"
        );
    }
}

#[test]
fn a_batch_of_countless_elements_is_read_element_by_element() {
    let mut v = validator();
    let next = handshake(&mut v);
    let line = format!("[{}]", vec!["0"; 100_000].join(","));
    v.push_record(next, line.as_bytes());
    // Every element is a fault: the diagnostics kept stop at the limit,
    // the count does not, and the batch's note still heads them.
    let found = v.take_diagnostics();
    assert_eq!(found.len(), small_limits().max_diagnostics);
    assert_eq!(found[0].rule.id, "ENV-BATCH");
    assert!(found[1..].iter().all(|d| d.rule.id == "ENV-OBJECT"));
    let not_kept = v.take_not_kept();
    assert_eq!(
        found.len() as u64 + not_kept.total(),
        100_001,
        "one per element, and the batch under v1"
    );
}

/// `len` bytes of `x` without a newline, never held in memory at once.
struct Endless {
    left: u64,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.left as usize);
        buf[..n].fill(b'x');
        self.left -= n as u64;
        Ok(n)
    }
}

#[test]
fn a_huge_line_is_skipped_without_buffering_it() {
    let huge = 64 * 1024 * 1024;
    let max = 1024 * 1024;
    let mut lines = LineReader::new(BufReader::new(Endless { left: huge }), max);
    match lines.next_line().unwrap() {
        Some((1, acp_plan_conformance::trace::RawLine::TooLong { bytes })) => {
            assert_eq!(bytes, huge)
        }
        other => panic!("{other:?}"),
    }
    assert!(
        lines.buffer_capacity() <= 2 * max,
        "{}",
        lines.buffer_capacity()
    );

    let report = check_reader(
        "t",
        BufReader::new(Endless {
            left: 4 * max as u64,
        }),
        Config {
            limits: Limits {
                max_line_bytes: max,
                ..Limits::default()
            },
            ..Config::default()
        },
    )
    .unwrap();
    assert_eq!(rules(&report.diagnostics), ["TRACE-LIMIT"]);
}

#[test]
fn depth_is_limited_even_when_the_limit_is_raised_past_the_parser() {
    let deep = |levels: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"_x","params":{}1{}}}"#,
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    for (max_depth, levels, limited) in [(128, 127, false), (128, 128, true), (1_000, 200, true)] {
        let mut v = Validator::new(Config {
            limits: Limits {
                max_depth,
                ..Limits::default()
            },
            ..Config::default()
        });
        v.push_record(1, deep(levels).as_bytes());
        let found = v.take_diagnostics();
        assert_eq!(
            found.iter().any(|d| d.rule.id == "TRACE-LIMIT"),
            limited,
            "max_depth {max_depth}, {levels} levels: {:?}",
            rules(&found)
        );
        if limited {
            assert!(
                found[0].message.contains("deeper than 128"),
                "{}",
                found[0].message
            );
        }
    }
}

/// A trace, checked from line 1: the rules found and the final state.
fn check(lines: &[&str]) -> (Vec<&'static str>, serde_json::Value) {
    let trace = lines.join("\n");
    let report = check_reader("t", trace.as_bytes(), Config::default()).unwrap();
    (rules(&report.diagnostics), report.state.to_json())
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#;
const INIT_OK: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#;
const NEW: &str = r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}"#;
const NEW_OK: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}"#;

#[test]
fn a_plan_update_repeating_a_member_is_warned_about_and_checked_under_each_value() {
    // Found by the differential fuzzer: serde_json keeps the last `content`,
    // the official crate rejects the update. Both readings are well-formed,
    // so the last one (what serde_json and JavaScript keep) is shown.
    let (found, state) = check(&[
        INIT,
        INIT_OK,
        NEW,
        NEW_OK,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"a","content":"b"}}}}"#,
    ]);
    assert_eq!(found, ["ENV-DUPLICATE-KEY"]);
    assert_eq!(state["sessions"]["s"]["plans"]["p"]["content"], "b");
}

#[test]
fn a_repeated_session_id_or_capability_is_warned_about_and_every_value_read() {
    let (found, state) = check(&[
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":null,"plan":{}}}}"#,
        INIT_OK,
        NEW,
        r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"x","sessionId":"s"}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"a"}}}}"#,
    ]);
    // No CAP-PLAN-OPS, no SES-UNKNOWN-SESSION: one party's repeat does not
    // make the suite blame the other.
    assert_eq!(found, ["ENV-DUPLICATE-KEY", "ENV-DUPLICATE-KEY"]);
    assert_eq!(state["sessions"]["s"]["plans"]["p"]["content"], "a");
}

#[test]
fn a_line_repeating_a_member_and_then_not_json_is_not_json() {
    // Found by the frame fuzzer: the repeat was reported (a warning) and
    // the broken JSON after it was not (an error).
    let (found, _) = check(&[r#"{"jsonrpc":"2.0","method":"a","method":"b","#]);
    assert_eq!(found, ["ENV-JSON"]);
}

#[test]
fn a_number_beyond_f64_in_a_plan_is_named_not_a_crash() {
    // Found through the frame fuzzer: JSON numbers have no range, serde_json
    // values do. The number is named (RFC 8259 calls its meaning
    // unpredictable), read as the largest double, and the plan is applied.
    let (found, state) = check(&[
        INIT,
        INIT_OK,
        NEW,
        NEW_OK,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"a","_meta":{"n":1e400}}}}}"#,
    ]);
    assert_eq!(found, ["ENV-NUMBER-RANGE"]);
    assert_eq!(state["sessions"]["s"]["plans"]["p"]["content"], "a");
}
