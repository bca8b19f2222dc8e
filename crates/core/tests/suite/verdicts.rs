//! Verdicts on inputs that can be read more than one way (issue 11): one
//! party's fault, or the suite's own guess, never becomes an error for the
//! other party; and nothing (a repeat, a batch, an envelope fault) hides a
//! violation. Each test names the class it pins down.

use acp_plan_conformance::{check_reader, Config, SpecChoice, TraceReport};

fn check_with(config: Config, lines: &[&str]) -> TraceReport {
    let trace = lines.join("\n");
    check_reader("t", trace.as_bytes(), config).unwrap()
}

fn check(lines: &[&str]) -> TraceReport {
    check_with(Config::default(), lines)
}

/// `(rule, line, pointer)` of every diagnostic.
fn found(report: &TraceReport) -> Vec<(&'static str, u64, String)> {
    report
        .diagnostics
        .iter()
        .map(|d| (d.rule.id, d.line, d.pointer.clone()))
        .collect()
}

fn rules(report: &TraceReport) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.rule.id).collect()
}

fn initialize(capabilities: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":1,"clientCapabilities":{capabilities}}}}}"#
    )
}
const INIT_OK: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#;
const INIT_OK_V2: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2}}"#;
const NEW: &str =
    r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#;
const NEW_OK: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}"#;
const PLAN_UPDATE: &str = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"a"}}}}"#;

fn update(update: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#
    )
}

// ---- 2. The other party is judged only when every reading breaks a MUST.

#[test]
fn a_repeated_plan_capability_does_not_make_the_agent_wrong() {
    let init = initialize(r#"{"plan":{},"plan":null}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(
        found(&report),
        [(
            "ENV-DUPLICATE-KEY",
            1,
            "/params/clientCapabilities/plan".into()
        )]
    );
    // Absent in every reading: the agent is wrong.
    let init = initialize(r#"{"plan":null,"plan":null}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(rules(&report), ["ENV-DUPLICATE-KEY", "CAP-PLAN-OPS"]);
}

#[test]
fn an_array_for_the_plan_capability_is_the_clients_error_only() {
    // The differential fuzzer's input: serde (the official crate) reads
    // `[]` as an empty object, the schema does not.
    let init = initialize(r#"{"f(s":{},"fs":{},"plan":[]}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(
        found(&report),
        [("CAP-VALUE", 1, "/params/clientCapabilities/plan".into())]
    );
    // `true` advertises nothing for any reader: the agent is wrong.
    let init = initialize(r#"{"plan":true}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(rules(&report), ["CAP-VALUE", "CAP-PLAN-OPS"]);
}

#[test]
fn a_repeated_id_in_initialize_still_initializes() {
    let init = r#"{"jsonrpc":"2.0","id":0,"id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#;
    let report = check(&[init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(found(&report), [("ENV-DUPLICATE-KEY", 1, "/id".into())]);
    assert_eq!(report.state.session("s").unwrap().plans.len(), 1);
    // Two different ids: either reading may be answered.
    let init = r#"{"jsonrpc":"2.0","id":0,"id":9,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#;
    let report = check(&[init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(found(&report), [("ENV-DUPLICATE-KEY", 1, "/id".into())]);
}

#[test]
fn an_ambiguous_bare_response_judges_no_one() {
    // The client's session/new and the agent's fs request both use id 1;
    // the agent's fs request is older, so the old guess paired the
    // session/new result with it and the session was never established.
    let init = initialize(r#"{"plan":{}}"#);
    let lines = [
        init.as_str(),
        INIT_OK,
        r#"{"jsonrpc":"2.0","id":1,"method":"fs/read_text_file","params":{"sessionId":"x","path":"/a"}}"#,
        NEW,
        NEW_OK,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":"text"}}"#,
        PLAN_UPDATE,
    ];
    let report = check(&lines);
    assert_eq!(found(&report), [("TRACE-DIRECTION", 5, "/id".into())]);
    assert_eq!(report.state.session("s").unwrap().plans.len(), 1);
}

#[test]
fn a_bare_response_is_judged_against_the_party_its_result_names() {
    let init = initialize(r#"{"plan":{}}"#);
    let prompt = r#"{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}"#;
    // A permission outcome is only ever the client's: it answers no request
    // of the agent's, and the agent's answer that follows is its first.
    let stray = r#"{"jsonrpc":"2.0","id":2,"result":{"outcome":{"outcome":"cancelled"}}}"#;
    let end = r#"{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}"#;
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, prompt, stray, end]);
    assert_eq!(found(&report), [("ENV-UNKNOWN-RESPONSE", 6, "/id".into())]);
    assert!(report.diagnostics[0]
        .message
        .starts_with("the client answered"));
    // A session id is only ever the agent's: the agent answered twice.
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, NEW_OK]);
    assert_eq!(
        found(&report),
        [("ENV-DUPLICATE-RESPONSE", 5, "/id".into())]
    );
    // An empty result names no one: either the agent answered twice or
    // the client answered nothing, so neither is judged.
    let ok = r#"{"jsonrpc":"2.0","id":2,"result":{}}"#;
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, prompt, ok, ok]);
    assert_eq!(found(&report), [("TRACE-DIRECTION", 7, "/id".into())]);
}

#[test]
fn a_byte_order_mark_is_named_and_what_follows_it_read() {
    let init = initialize(r#"{"plan":{}}"#);
    // Before a message: its sender's, and the message still read.
    let marked = format!("\u{feff}{PLAN_UPDATE}");
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &marked]);
    assert_eq!(found(&report), [("ENV-BOM", 5, "".into())]);
    assert_eq!(report.state.session("s").unwrap().plans.len(), 1);
    // At the start of the file, the file's writer may have put it there as
    // well as the sender: the ambiguity, against no party.
    let marked = format!("\u{feff}{init}");
    let report = check(&[&marked, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(found(&report), [("TRACE-BOM", 1, "".into())]);
    assert_eq!(report.state.session("s").unwrap().plans.len(), 1);
    // Alone on its line (a file that starts with one, then a newline):
    // named, and the rest is a blank line, not a JSON fault.
    let report = check(&["\u{feff}", &init, INIT_OK, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(found(&report), [("TRACE-BOM", 1, "".into())]);
}

#[test]
fn a_null_request_id_is_paired_with_its_null_response() {
    let init = r#"{"jsonrpc":"2.0","id":null,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#;
    let ok = r#"{"jsonrpc":"2.0","id":null,"result":{"protocolVersion":1}}"#;
    let report = check(&[init, ok, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(found(&report), []);
    assert_eq!(report.state.session("s").unwrap().plans.len(), 1);
}

#[test]
fn a_failed_second_initialize_leaves_the_connection_initialized() {
    let init = initialize(r#"{"plan":{}}"#);
    let again = r#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#;
    let failed =
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"already initialized"}}"#;
    let report = check(&[&init, INIT_OK, again, failed, NEW, NEW_OK, PLAN_UPDATE]);
    // Sent, it advertised otherwise: the client's ambiguity, said as read.
    assert_eq!(
        found(&report),
        [(
            "INIT-CAPABILITIES-DIFFER",
            3,
            "/params/clientCapabilities".into()
        )]
    );
    assert_eq!(report.state.session("s").unwrap().plans.len(), 1);
    // A successful one that withdraws the capability: the spec does not
    // say whether the agent keeps the first capabilities or takes these,
    // so its plan operations are not judged against them; the client's
    // second initialize is the ambiguity, said once.
    let ok = r#"{"jsonrpc":"2.0","id":5,"result":{"protocolVersion":1}}"#;
    let report = check(&[&init, INIT_OK, again, ok, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(
        found(&report),
        [(
            "INIT-CAPABILITIES-DIFFER",
            3,
            "/params/clientCapabilities".into()
        )]
    );
    // Where both initialize requests agree, the agent is judged.
    let without = initialize("{}");
    let report = check(&[&without, INIT_OK, again, ok, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(rules(&report), ["CAP-PLAN-OPS"]);
}

#[test]
fn a_repeated_session_id_in_a_result_establishes_every_value() {
    let init = initialize(r#"{"plan":{}}"#);
    let new_ok = r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s","sessionId":"t"}}"#;
    let report = check(&[&init, INIT_OK, NEW, new_ok, PLAN_UPDATE]);
    assert_eq!(
        found(&report),
        [("ENV-DUPLICATE-KEY", 4, "/result/sessionId".into())]
    );
}

/// A session/new whose `method` repeats with another value may be a
/// session/new or not. Its answer without a usable session id is the
/// agent's error only under the first reading, and the agent's update for a
/// session nobody named only under the second: neither is judged, and the
/// client's repeat is said once (found by the `stream` fuzz target). The
/// order of the values does not matter, nor whether the answer's direction
/// is written (an enveloped answer took a fast path that read only the
/// first value).
#[test]
fn a_session_new_read_two_ways_answered_without_a_session_id_blames_only_the_repeat() {
    let init = initialize(r#"{"plan":{}}"#);
    let orders = [
        r#""method":"session/new","method":"session/prompt""#,
        r#""method":"session/prompt","method":"session/new""#,
    ];
    let answers = [
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":7}}"#,
    ];
    for methods in orders {
        let new = format!(
            r#"{{"jsonrpc":"2.0","id":1,{methods},"params":{{"cwd":"/w","mcpServers":[]}}}}"#
        );
        for answer in answers {
            let enveloped = format!(r#"{{"direction":"agent_to_client","message":{answer}}}"#);
            for answer in [answer, &enveloped] {
                let report = check(&[&init, INIT_OK, &new, answer, PLAN_UPDATE]);
                assert_eq!(
                    found(&report),
                    [("ENV-DUPLICATE-KEY", 3, "/method".into())],
                    "{methods} {answer}"
                );
                // Read as a session/new, the answer opened the session the
                // update is taken as.
                assert!(report.state.session("s").is_some(), "{methods} {answer}");
            }
        }
    }
    // Read as a session/new or a session/fork, every reading owes a
    // `sessionId`: the agent's error, once.
    let new_or_fork = r#"{"jsonrpc":"2.0","id":1,"method":"session/new","method":"session/fork","params":{"sessionId":"f","cwd":"/w","mcpServers":[]}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    let report = check(&[&init, INIT_OK, new_or_fork, answer, PLAN_UPDATE]);
    assert_eq!(
        found(&report),
        [
            ("ENV-DUPLICATE-KEY", 3, "/method".into()),
            ("SES-NEW-SESSION-ID", 4, "/result".into()),
        ]
    );
    // Read plainly, the same answers are the agent's error, once.
    for answer in [
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":7}}"#,
    ] {
        let report = check(&[&init, INIT_OK, NEW, answer, PLAN_UPDATE]);
        assert_eq!(rules(&report), ["SES-NEW-SESSION-ID"], "{answer}");
    }
}

/// Two requests in flight under one id, one each way: a bare answer may be
/// the session/new's (without a session id: a session nobody named) or the
/// fs read's. The agent's update for a session nobody named is not judged.
#[test]
fn an_answer_that_may_be_a_session_new_s_opens_an_unnamed_session() {
    let init = initialize(r#"{"plan":{},"fs":{"readTextFile":true}}"#);
    let new =
        r#"{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#;
    let read = r#"{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{"sessionId":"s","path":"/w/a"}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":5,"result":{}}"#;
    let report = check(&[&init, INIT_OK, new, read, answer, PLAN_UPDATE]);
    assert_eq!(rules(&report), ["TRACE-DIRECTION"]);
    assert!(report.state.session("s").is_some());
}

/// An initialize whose `method` repeats with another value: its answer's
/// unreadable `protocolVersion` is the agent's error only under the
/// initialize reading, so it is not judged, while the answer still
/// completes the handshake (with no revision known, as for a plain one:
/// INIT-VERSION-UNKNOWN). The client's repeat is said once; SES-BEFORE-INIT,
/// which the session/prompt reading alone would break, is not (one reading
/// is the initialize itself).
#[test]
fn an_initialize_read_two_ways_is_not_judged_on_its_answer() {
    let ambiguous = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","method":"session/prompt","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"one"}}"#;
    let report = check(&[ambiguous, answer, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(
        found(&report),
        [
            ("ENV-DUPLICATE-KEY", 1, "/method".into()),
            ("INIT-VERSION-UNKNOWN", 2, "/result".into()),
        ]
    );
    assert!(report.state.session("s").is_some());
    // Read plainly, the same answer is the agent's error.
    let plain = initialize(r#"{"plan":{}}"#);
    let report = check(&[&plain, answer, NEW, NEW_OK, PLAN_UPDATE]);
    assert_eq!(
        rules(&report),
        ["SES-PROTOCOL-VERSION", "INIT-VERSION-UNKNOWN"]
    );
}

// ---- 3. Nothing hides a violation.

#[test]
fn a_batch_is_noted_under_v1_and_each_message_is_checked() {
    // No capability: the plan_update inside the batch is CAP-PLAN-OPS; the
    // session/new inside a batch is tracked.
    let init = initialize("{}");
    let batch = format!("[{NEW}]");
    let answers = format!("[{NEW_OK},{PLAN_UPDATE}]");
    let report = check(&[&init, INIT_OK, &batch, &answers]);
    assert_eq!(
        found(&report),
        [
            ("ENV-BATCH", 3, "".into()),
            ("ENV-BATCH", 4, "".into()),
            ("CAP-PLAN-OPS", 4, "/1/params/update/sessionUpdate".into()),
        ]
    );
    assert!(report.state.session("s").is_some());
}

#[test]
fn a_batch_is_legal_under_v2_and_only_an_empty_one_is_an_error() {
    let init = initialize("{}");
    let plan = update(
        r#"{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"high","status":"bogus"}]}}"#,
    );
    let batch = format!("[{NEW_OK},{plan}]");
    let report = check(&[&init, INIT_OK_V2, NEW, &batch, "[]"]);
    assert_eq!(
        found(&report),
        [
            (
                "SHAPE-STATUS",
                4,
                "/1/params/update/plan/entries/0/status".into()
            ),
            ("ENV-BATCH-EMPTY", 5, "".into()),
        ]
    );
    assert_eq!(report.revision.revision.to_string(), "v2");
}

#[test]
fn a_batch_element_that_is_not_an_object_is_reported_at_its_index() {
    let report = check(&["[1]"]);
    assert_eq!(
        found(&report),
        [("ENV-BATCH", 1, "".into()), ("ENV-OBJECT", 1, "/0".into())]
    );
}

#[test]
fn a_batch_in_an_envelope_is_a_batch() {
    let init = initialize("{}");
    let batch = format!(r#"{{"direction":"agent_to_client","message":[{PLAN_UPDATE}]}}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &batch]);
    assert_eq!(rules(&report), ["ENV-BATCH", "CAP-PLAN-OPS"]);
}

#[test]
fn every_value_of_a_repeated_plan_member_is_checked() {
    let init = initialize(r#"{"plan":{}}"#);
    let cases = [
        // A status given twice, once bogus.
        (
            r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"bogus","status":"pending"}]}"#,
            vec!["ENV-DUPLICATE-KEY", "SHAPE-STATUS"],
        ),
        // Entries given twice, once null.
        (
            r#"{"sessionUpdate":"plan","entries":[],"entries":null}"#,
            vec!["ENV-DUPLICATE-KEY", "SHAPE-ENTRIES"],
        ),
        // A repeat inside `_meta` does not switch off the other checks.
        (
            r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"urgent","status":"pending","_meta":{"k":1,"k":2}}]}"#,
            vec!["ENV-DUPLICATE-KEY", "SHAPE-PRIORITY"],
        ),
        // A bogus status repeated inside the first of two `entries`: no
        // reading that pairs values by their rank holds it (the second
        // `status` with the first `entries`), but one of its own does.
        (
            r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending","status":"bogus"}],"entries":[{"content":"a","priority":"high","status":"pending"}]}"#,
            vec!["ENV-DUPLICATE-KEY", "ENV-DUPLICATE-KEY", "SHAPE-STATUS"],
        ),
    ];
    for (body, expected) in cases {
        let line = update(body);
        let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
        assert_eq!(rules(&report), expected, "{body}");
        // A reading is broken: nothing is shown.
        assert_eq!(report.state.session("s").unwrap().legacy, None, "{body}");
    }
}

#[test]
fn the_last_value_of_a_repeated_member_is_applied_even_when_an_earlier_one_equals_it() {
    // Readings are checked once per distinct text: the first and third
    // readings here are the same text. The one applied must still be every
    // last value (what serde_json and JavaScript keep): no entries, not the
    // middle reading's one entry.
    let init = initialize(r#"{"plan":{}}"#);
    let body = r#"{"sessionUpdate":"plan","entries":[],"entries":[{"content":"a","priority":"high","status":"pending"}],"entries":[]}"#;
    let line = update(body);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(rules(&report), ["ENV-DUPLICATE-KEY"]);
    let shown = report.state.session("s").unwrap().legacy.as_ref();
    assert_eq!(shown.map(Vec::len), Some(0));
}

#[test]
fn an_update_with_more_readings_than_are_read_is_a_limit_and_not_applied() {
    let init = initialize(r#"{"plan":{}}"#);
    let statuses: Vec<String> = (0..10)
        .map(|i| format!(r#""status":"{}""#, ["pending", "completed"][i % 2]))
        .collect();
    let body = format!(
        r#"{{"sessionUpdate":"plan","entries":[{{"content":"a","priority":"high",{}}}]}}"#,
        statuses.join(",")
    );
    let line = update(&body);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(
        found(&report),
        [
            (
                "ENV-DUPLICATE-KEY",
                5,
                "/params/update/entries/0/status".into()
            ),
            ("TRACE-LIMIT", 5, "/params/update".into()),
        ]
    );
    assert_eq!(report.state.session("s").unwrap().legacy, None);
}

#[test]
fn a_repeated_identical_method_does_not_switch_off_the_capability_rule() {
    let init = initialize("{}");
    let line = PLAN_UPDATE.replace(
        r#""method":"session/update","#,
        r#""method":"session/update","method":"session/update","#,
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(
        found(&report),
        [
            ("ENV-DUPLICATE-KEY", 5, "/method".into()),
            ("CAP-PLAN-OPS", 5, "/params/update/sessionUpdate".into()),
        ]
    );
}

#[test]
fn a_message_repeating_a_name_past_the_readings_read_says_so_and_reads_the_last() {
    // `method` ten times, the last one real: past the readings read, the
    // one of every last value is still read (the capability rule fires),
    // and the values left unread are a limit of the checker.
    let init = initialize("{}");
    let others = r#""method":"x","#.repeat(9);
    let line = PLAN_UPDATE.replace(
        r#""method":"session/update","#,
        &format!(r#"{others}"method":"session/update","#),
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    let rules = rules(&report);
    assert!(rules.contains(&"CAP-PLAN-OPS"), "{rules:?}");
    assert!(rules.contains(&"TRACE-LIMIT"), "{rules:?}");
    assert_eq!(rules[0], "ENV-DUPLICATE-KEY");
}

#[test]
fn a_repeated_session_update_kind_is_checked_under_each() {
    let init = initialize("{}");
    let line = update(
        r#"{"sessionUpdate":"agent_message_chunk","sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"a"}}"#,
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(rules(&report), ["ENV-DUPLICATE-KEY", "CAP-PLAN-OPS"]);
}

/// An envelope's faults are said and its message still checked, also when
/// the message repeats a member and is read apart from its envelope (once
/// per reading).
#[test]
fn envelope_faults_are_reported_and_the_message_still_checked() {
    let init = initialize("{}");
    let repeated = PLAN_UPDATE.replace(
        r#""method":"session/update","#,
        r#""method":"session/update","method":"session/update","#,
    );
    let cases = [
        (PLAN_UPDATE.to_owned(), vec!["TRACE-RECORD", "CAP-PLAN-OPS"]),
        (
            repeated,
            vec!["TRACE-RECORD", "ENV-DUPLICATE-KEY", "CAP-PLAN-OPS"],
        ),
    ];
    for (message, each_line) in cases {
        let odd_time = format!(r#"{{"direction":"agent_to_client","time":5,"message":{message}}}"#);
        let extra = format!(r#"{{"direction":"agent_to_client","message":{message},"seq":7}}"#);
        let report = check(&[&init, INIT_OK, NEW, NEW_OK, &odd_time, &extra]);
        assert_eq!(
            rules(&report),
            [each_line.clone(), each_line].concat(),
            "{message}"
        );
    }
}

#[test]
fn strings_are_compared_by_value() {
    let init = initialize(r#"{"plan":{}}"#);
    let escaped = r#"{"jsonrpc":"2\u002e0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"a"}}}}"#;
    let enveloped = format!(r#"{{"direction":"agent\u005fto_client","message":{PLAN_UPDATE}}}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, escaped, &enveloped]);
    assert_eq!(found(&report), []);
}

#[test]
fn protocol_version_2_0_is_the_integer_2() {
    let init = initialize("{}");
    let ok = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2.0}}"#;
    let report = check_with(
        Config {
            spec: SpecChoice::Auto,
            ..Config::default()
        },
        &[&init, ok, NEW, NEW_OK, PLAN_UPDATE],
    );
    assert_eq!(report.revision.revision.to_string(), "v2");
    assert_eq!(found(&report), []);
}

// ---- 4. Legal JSON gets a precise answer, never TRACE-LIMIT.

#[test]
fn numbers_beyond_doubles_are_named_and_the_plan_still_checked() {
    let init = initialize(r#"{"plan":{}}"#);
    // In `_meta`: a warning, and the plan is shown.
    let line = update(
        r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending","_meta":{"n":[1,1e999]}}]}"#,
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(
        found(&report),
        [(
            "ENV-NUMBER-RANGE",
            5,
            "/params/update/entries/0/_meta/n/1".into()
        )]
    );
    assert_eq!(
        report
            .state
            .session("s")
            .unwrap()
            .legacy
            .as_ref()
            .map(Vec::len),
        Some(1)
    );
    // As a priority: the priority rule, not TRACE-LIMIT.
    let line = update(
        r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":1e999,"status":"pending"}]}"#,
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(rules(&report), ["ENV-NUMBER-RANGE", "SHAPE-PRIORITY"]);
}

#[test]
fn an_emoji_cut_in_half_is_named_and_read_as_a_replacement_character() {
    let init = initialize(r#"{"plan":{}}"#);
    let line = update(
        r#"{"sessionUpdate":"plan","entries":[{"content":"ship it \ud83d","priority":"high","status":"pending"}]}"#,
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(
        found(&report),
        [(
            "ENV-UNPAIRED-SURROGATE",
            5,
            "/params/update/entries/0/content".into()
        )]
    );
    let shown = report.state.session("s").unwrap().legacy.clone().unwrap();
    assert_eq!(shown[0].content, "ship it \u{fffd}");
}

#[test]
fn what_no_rule_reads_is_named_at_its_pointer_in_a_batch_too() {
    let init = initialize("{}");
    let chunk = update(
        r#"{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\ud83d"}}"#,
    );
    let tool = update(
        r#"{"sessionUpdate":"tool_call_update","toolCallId":"c","rawOutput":{"n":[1,-1e400]}}"#,
    );
    let batch = format!("[{chunk},{tool}]");
    let report = check(&[&init, INIT_OK_V2, NEW, NEW_OK, &chunk, &batch]);
    assert_eq!(
        found(&report),
        [
            (
                "ENV-UNPAIRED-SURROGATE",
                5,
                "/params/update/content/text".into()
            ),
            (
                "ENV-UNPAIRED-SURROGATE",
                6,
                "/0/params/update/content/text".into()
            ),
            (
                "ENV-NUMBER-RANGE",
                6,
                "/1/params/update/rawOutput/n/1".into()
            ),
        ]
    );
    // The session its params name, as the rules that read it say; inside
    // a batch, each element names its own, so none is given.
    let sessions: Vec<Option<&str>> = (report.diagnostics.iter())
        .map(|d| d.session.as_deref())
        .collect();
    assert_eq!(sessions, [Some("s"), None, None]);
}

#[test]
fn an_envelope_is_the_trace_files_and_its_own_values_are_not_a_partys() {
    let init = initialize("{}");
    let chunk = update(
        r#"{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\udc00"}}"#,
    );
    let line = format!(r#"{{"direction":"agent_to_client","time":1e999,"message":{chunk}}}"#);
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &line]);
    assert_eq!(
        found(&report),
        [
            ("TRACE-RECORD", 5, "".into()),
            (
                "ENV-UNPAIRED-SURROGATE",
                5,
                "/params/update/content/text".into()
            ),
        ]
    );
}

#[test]
fn a_value_a_rule_named_is_not_named_again_even_past_the_diagnostics_kept() {
    let init = initialize(r#"{"plan":{}}"#);
    let plan = update(
        r#"{"sessionUpdate":"plan","entries":[{"content":"\ud83d","priority":"high","status":"pending"}]}"#,
    );
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &plan]);
    assert_eq!(
        found(&report),
        [(
            "ENV-UNPAIRED-SURROGATE",
            5,
            "/params/update/entries/0/content".into()
        )]
    );
    // With none kept, the one finding is still counted once.
    let mut config = Config::default();
    config.limits.max_diagnostics = 0;
    let report = check_with(config, &[&init, INIT_OK, NEW, NEW_OK, &plan]);
    assert_eq!(report.counts.warnings, 1);
}

#[test]
fn a_message_full_of_halves_of_characters_names_a_few_and_says_there_are_more() {
    let init = initialize("{}");
    let texts: Vec<String> = (0..20).map(|i| format!(r#""{i}\ud83d""#)).collect();
    let tool = update(&format!(
        r#"{{"sessionUpdate":"tool_call_update","toolCallId":"c","rawOutput":[{}]}}"#,
        texts.join(",")
    ));
    let report = check(&[&init, INIT_OK, NEW, NEW_OK, &tool]);
    let named: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(
        named,
        (0..8)
            .map(|i| format!("/params/update/rawOutput/{i}"))
            .collect::<Vec<_>>()
    );
    assert!(report.diagnostics[7].message.contains("more like it"));
    assert!(!report.diagnostics[6].message.contains("more like it"));
}
