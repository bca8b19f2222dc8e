//! Bare lines through the session lifecycle that the corpus vectors cannot
//! hold: the vector format lets no bare line (a record) change what a
//! client shows, and these do (an answered session/close, a batch or a
//! session/resume that opens a session).

use super::*;
use crate::spec::Revision;

/// An initialize of `version` answered with `agent_capabilities`, and a
/// session/new answered with session `s1`, as bare lines.
fn handshake(version: u8, agent_capabilities: &str) -> String {
    format!(
        concat!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":{v},"clientCapabilities":{{}}}}}}"#,
            "\n",
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"protocolVersion":{v},"agentCapabilities":{caps}}}}}"#,
            "\n",
            r#"{{"jsonrpc":"2.0","id":2,"method":"session/new","params":{{"cwd":"/w","mcpServers":[]}}}}"#,
            "\n",
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"sessionId":"s1"}}}}"#,
            "\n",
        ),
        v = version,
        caps = agent_capabilities,
    )
}

fn check(revision: Revision, trace: &str) -> TraceReport {
    let config = Config {
        spec: crate::spec::SpecChoice::Fixed(revision),
        ..Config::default()
    };
    check_reader("t", trace.as_bytes(), config).unwrap()
}

fn rules(report: &TraceReport) -> Vec<(&'static str, u64, &str)> {
    let mut found: Vec<_> = (report.diagnostics.iter())
        .map(|d| (d.rule.id, d.line, d.pointer.as_str()))
        .collect();
    found.sort();
    found
}

fn version_of(revision: Revision) -> u8 {
    if revision.spelling().legacy_plan {
        1
    } else {
        2
    }
}

const CHUNK: &str =
    r#""update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}"#;

/// A bare session/close and its bare `{}` answer (paired by id) close the
/// session: it is shown no more, and a later update for it names no
/// session open on the connection. Its bare error answer leaves it open.
#[test]
fn a_bare_close_answer_closes_the_session() {
    for revision in [Revision::V1, Revision::V2] {
        for (answer, closed) in [
            (r#""result":{}"#, true),
            (r#""error":{"code":-32603,"message":"x"}"#, false),
        ] {
            let trace = format!(
                "{}{}\n{}\n{}\n",
                handshake(
                    version_of(revision),
                    r#"{"sessionCapabilities":{"close":{}}}"#
                ),
                r#"{"jsonrpc":"2.0","id":3,"method":"session/close","params":{"sessionId":"s1"}}"#,
                format_args!(r#"{{"jsonrpc":"2.0","id":3,{answer}}}"#),
                format_args!(
                    r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s1",{CHUNK}}}}}"#
                ),
            );
            let report = check(revision, &trace);
            assert_eq!(
                report.state.session("s1").is_none(),
                closed,
                "{revision:?} {answer}"
            );
            let expected = if closed {
                vec![("SES-UNKNOWN-SESSION", 7, "/params/sessionId")]
            } else {
                vec![]
            };
            assert_eq!(rules(&report), expected, "{revision:?} {answer}");
        }
    }
}

/// A bare batch of session/resume and a prompt for the session it resumes:
/// the prompt comes before the resume's answer (the client's breach), and
/// the plan update that follows may be the prompt's turn, not a replay.
#[test]
fn a_bare_batch_of_resume_and_prompt_is_the_clients_breach() {
    let plan = r#""update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"high","status":"pending"}]}}"#;
    let trace = format!(
        "{}{}\n{}\n{}\n{}\n",
        handshake(2, "{}"),
        r#"[{"jsonrpc":"2.0","id":3,"method":"session/resume","params":{"sessionId":"saved","cwd":"/w","mcpServers":[]}},{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"saved","prompt":[]}}]"#,
        format_args!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"saved",{plan}}}}}"#
        ),
        r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":4,"result":{}}"#,
    );
    let report = check(Revision::V2, &trace);
    assert_eq!(
        rules(&report),
        vec![
            ("ENV-BATCH-LIFECYCLE", 5, "/0/method"),
            ("ENV-BATCH-LIFECYCLE", 5, "/1/method"),
            ("SES-PROMPT-BEFORE-SETUP", 5, "/1/params/sessionId"),
        ]
    );
    assert!(report.state.session("saved").is_some());
}

/// A bare session/resume, placed by its method, after an initialize answer
/// that did not advertise `sessionCapabilities.resume` (v1): the client's
/// breach. With the capability advertised, nothing is said.
#[test]
fn a_bare_resume_is_judged_on_the_agents_offer() {
    for (capabilities, expected) in [
        (
            r#"{"loadSession":true}"#,
            vec![("SES-RESUME-NOT-ADVERTISED", 5, "/method")],
        ),
        (r#"{"sessionCapabilities":{"resume":{}}}"#, vec![]),
    ] {
        let trace = format!(
            "{}{}\n{}\n",
            handshake(1, capabilities),
            r#"{"jsonrpc":"2.0","id":3,"method":"session/resume","params":{"sessionId":"saved","cwd":"/w","mcpServers":[]}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        );
        let report = check(Revision::V1, &trace);
        assert_eq!(rules(&report), expected, "{capabilities}");
        assert!(report.state.session("saved").is_some());
    }
}

/// A bare session/update of `session` with `member` (a `"key":value` text
/// of `update`'s line) written twice, `first` then `second`.
fn update_twice(session: &str, update: &str, member: &str, first: &str, second: &str) -> String {
    let text = format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"{session}","update":{update}}}}}"#
    );
    assert_eq!(text.matches(member).count(), 1, "{member} in {text}");
    text.replacen(member, &format!("{first},{second}"), 1)
}

const IDLE: &str = r#"{"sessionUpdate":"state_update","state":"idle","stopReason":"cancelled"}"#;

/// A v2 prompt of `s1` answered, then cancelled: the turn runs until an
/// idle state_update.
fn cancelled_v2_turn() -> String {
    format!(
        "{}{}\n{}\n{}\n",
        handshake(2, "{}"),
        r#"{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
        r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}"#,
    )
}

const PLAN_OF_S1: &str = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[]}}}}"#;

/// Mutation found in `update_body` with `apply=false`: a v2 idle
/// state_update ended the turn in every reading read. A session/update
/// whose readings disagree on ending the turn (one idle state_update, one
/// text chunk) ends none; readings that all end it end it once.
#[test]
fn readings_of_one_update_end_a_turn_only_together() {
    let disagree = update_twice(
        "s1",
        r#"{"sessionUpdate":"state_update","state":"idle","stopReason":"cancelled","content":{"type":"text","text":"x"}}"#,
        r#""sessionUpdate":"state_update""#,
        r#""sessionUpdate":"state_update""#,
        r#""sessionUpdate":"agent_message_chunk""#,
    );
    let trace = format!("{}{disagree}\n{PLAN_OF_S1}\n", cancelled_v2_turn());
    let report = check(Revision::V2, &trace);
    assert_eq!(
        rules(&report),
        vec![("ENV-DUPLICATE-KEY", 8, "/params/update/sessionUpdate")]
    );
    let agree = update_twice(
        "s1",
        IDLE,
        &format!(r#""update":{IDLE}"#),
        &format!(r#""update":{IDLE}"#),
        &format!(r#""update":{}"#, IDLE.replace('}', r#","_meta":{}}"#)),
    );
    let trace = format!("{}{agree}\n{PLAN_OF_S1}\n", cancelled_v2_turn());
    let report = check(Revision::V2, &trace);
    assert_eq!(
        rules(&report),
        vec![
            ("ENV-DUPLICATE-KEY", 8, "/params/update"),
            ("SES-UPDATE-AFTER-CANCEL", 9, "/params/update/sessionUpdate"),
        ]
    );
}

/// Mutation found in `update_body` with `apply=false`: each reading took
/// a session that a session/new answer left unnamed. One message takes
/// one, whichever session its readings name: with two unnamed, an update
/// for a third id is the other one.
#[test]
fn readings_of_one_update_take_one_unnamed_session() {
    for (unnamed, expected) in [
        (2, vec![("ENV-DUPLICATE-KEY", 9, "/params/sessionId")]),
        (
            1,
            vec![
                ("ENV-DUPLICATE-KEY", 9, "/params/sessionId"),
                ("SES-UNKNOWN-SESSION", 10, "/params/sessionId"),
            ],
        ),
    ] {
        let mut trace = handshake(1, "{}");
        for id in 3..3 + unnamed {
            trace += &format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"session/new\",\"params\":{{\"cwd\":\"/w\",\"mcpServers\":[]}}}}\n{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}\n"
            );
        }
        if unnamed == 1 {
            // The lines keep their numbers.
            trace += "\n\n";
        }
        trace += &update_twice(
            "a",
            &CHUNK[9..],
            r#""sessionId":"a""#,
            r#""sessionId":"a""#,
            r#""sessionId":"b""#,
        );
        trace += "\n";
        trace += &format!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"c",{CHUNK}}}}}"#
        );
        trace += "\n";
        let report = check(Revision::V1, &trace);
        let found: Vec<_> = (rules(&report).into_iter())
            .filter(|(rule, _, _)| *rule != "SES-NEW-SESSION-ID")
            .collect();
        assert_eq!(found, expected, "{unnamed} unnamed");
        assert!(report.state.session("a").is_some() && report.state.session("b").is_some());
    }
}

/// Mutation found in `update_session` with `apply=false`: after a line the
/// checker could not read, each reading opened the session it names. Only
/// the reading applied (the last) opens its session.
#[test]
fn after_a_lost_line_readings_open_only_the_session_applied() {
    let trace = format!(
        "{}{}\n{}\n",
        handshake(1, "{}"),
        format_args!(
            r#"{{"jsonrpc":"2.0","method":"_x","params":{{"pad":"{}"}}}}"#,
            "x".repeat(600)
        ),
        update_twice(
            "a",
            &CHUNK[9..],
            r#""sessionId":"a""#,
            r#""sessionId":"a""#,
            r#""sessionId":"b""#,
        ),
    );
    let config = Config {
        spec: crate::spec::SpecChoice::Fixed(Revision::V1),
        limits: crate::trace::Limits {
            max_line_bytes: 512,
            ..crate::trace::Limits::default()
        },
    };
    let report = check_reader("t", trace.as_bytes(), config).unwrap();
    assert_eq!(
        rules(&report),
        vec![
            ("ENV-DUPLICATE-KEY", 6, "/params/sessionId"),
            ("TRACE-LIMIT", 5, ""),
        ]
    );
    assert!(report.state.session("b").is_some());
    assert!(report.state.session("a").is_none());
}
