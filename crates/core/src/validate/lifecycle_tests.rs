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
