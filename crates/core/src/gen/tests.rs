//! The generator against the validator: legal scenarios are conformant,
//! and every violation is reported as exactly its rule at its line.

use super::violation::{BadValue, Carrier, EnvelopeFault, KeyedOp, VersionFault};
use super::*;
use crate::validate::check_reader;

fn entry(content: &str, status: Status) -> Entry {
    Entry {
        content: content.into(),
        priority: Priority::High,
        status,
        meta: Meta::Object(1),
    }
}

fn update(session: SessionRef, plan: PlanOp) -> Op {
    Op::Update {
        session,
        update: SessionUpdate::Plan(plan),
    }
}

fn items(plan: PlanRef, entries: Vec<Entry>) -> PlanOp {
    PlanOp::Update {
        plan,
        content: Content::Items { entries },
        plan_meta: Meta::Null,
        meta: Meta::Absent,
    }
}

/// A busy legal connection: two sessions (one loaded with a replay),
/// interleaved plans of every type, other updates, requests both ways.
fn busy(revision: Revision, framing: Framing) -> Connection {
    let mut scenario = Connection::new(revision);
    scenario.framing = framing;
    scenario.ops = vec![
        Op::NewSession { session: 0 },
        Op::LoadSession {
            session: 1,
            replay: vec![
                SessionUpdate::Plan(items(3, vec![entry("old", Status::Completed)])),
                SessionUpdate::Other(OtherUpdate::AgentMessageChunk {
                    text: "welcome back".into(),
                }),
            ],
        },
        Op::Prompt { session: 0 },
        Op::Prompt { session: 1 },
        update(
            0,
            PlanOp::Legacy {
                entries: vec![entry("a", Status::Pending), entry("b", Status::Pending)],
                meta: Meta::Null,
            },
        ),
        update(
            0,
            items(
                1,
                vec![entry("a", Status::InProgress), entry("b", Status::Pending)],
            ),
        ),
        Op::AgentRequest {
            session: 0,
            kind: AgentRequestKind::Extension,
        },
        Op::AgentRequest {
            session: 1,
            kind: AgentRequestKind::Permission,
        },
        update(
            1,
            PlanOp::Update {
                plan: 1,
                content: Content::Markdown {
                    text: "# other session, same id\n\"quoted\" ü".into(),
                },
                plan_meta: Meta::Object(2),
                meta: Meta::Null,
            },
        ),
        Op::Update {
            session: 1,
            update: SessionUpdate::Other(OtherUpdate::Unknown { kind: 3 }),
        },
        Op::ClientResponse {
            session: 1,
            pick: 0,
            error: true,
        },
        update(
            0,
            PlanOp::Update {
                plan: 2,
                content: Content::File {
                    uri: FileUri::Relative(2),
                },
                plan_meta: Meta::Absent,
                meta: Meta::Absent,
            },
        ),
        update(
            0,
            PlanOp::Update {
                plan: 4,
                content: Content::Custom { name: 1, data: 9 },
                plan_meta: Meta::Absent,
                meta: Meta::Absent,
            },
        ),
        // A shorter list of known entries: padded into a full list.
        update(0, items(1, vec![entry("a", Status::Completed)])),
        update(
            0,
            PlanOp::Remove {
                plan: 2,
                meta: Meta::Object(3),
            },
        ),
        Op::Cancel { session: 0 },
        Op::ExtNotification { from_agent: true },
        Op::ClientResponse {
            session: 0,
            pick: 0,
            error: false,
        },
        Op::EndTurn {
            session: 0,
            stop: StopReason::Cancelled,
        },
        Op::Update {
            session: 1,
            update: SessionUpdate::Other(OtherUpdate::UsageUpdate { used: 10 }),
        },
    ];
    scenario.legalized()
}

fn check(scenario: &Connection) -> (Rendered, crate::TraceReport) {
    let rendered = scenario.render();
    let text = rendered.text();
    let report = check_reader("gen", text.as_bytes(), scenario.config()).unwrap();
    (rendered, report)
}

#[test]
fn legal_scenarios_are_conformant_in_every_revision_and_framing() {
    for revision in Revision::ALL {
        for framing in [Framing::Envelope, Framing::Bare] {
            let scenario = busy(revision, framing);
            let (rendered, report) = check(&scenario);
            assert_eq!(report.revision.revision, revision);
            assert!(rendered.expected.is_empty());
            if let Err(e) = rendered.compare(&report.diagnostics) {
                panic!("{revision} {framing:?}: {e}\n{}", rendered.text());
            }
            // Plans really landed: session 0 shows its keyed plans.
            let plans = report.state.session("sess-0").unwrap();
            assert!(plans.plans.contains_key("plan-1"), "{revision}");
            assert!(!plans.plans.contains_key("plan-2"), "{revision}");
        }
    }
}

#[test]
fn rendering_is_deterministic_and_spans_cover_the_ops() {
    let scenario = busy(Revision::V1, Framing::Envelope);
    let a = scenario.render();
    let b = scenario.render();
    assert_eq!(a.lines, b.lines);
    assert_eq!(a.spans.len(), scenario.ops.len());
    // The handshake is lines 1-2; spans are contiguous after it.
    let mut next = 3;
    for span in &a.spans {
        assert_eq!(span.start, next);
        next = span.end;
    }
    assert_eq!(next, a.lines.len() as u64 + 1);
    assert_eq!(a.op_at_line(3), Some(0));
    assert_eq!(a.op_at_line(1), None);
}

fn every_violation() -> Vec<Violation> {
    let entries = vec![entry("x", Status::Pending), entry("y", Status::Completed)];
    let mut all = vec![
        Violation::PlanOpWithoutCapability(PlanOpWithoutCapability {
            session: 0,
            op: KeyedOp::Remove { plan: 1 },
        }),
        Violation::LegacyInV2(LegacyInV2 {
            session: 1,
            entries: entries.clone(),
        }),
        Violation::WrongIdKey(WrongIdKey {
            session: 0,
            op: KeyedOp::Update {
                plan: 1,
                content: Content::Items {
                    entries: entries.clone(),
                },
            },
        }),
        Violation::WrongIdKey(WrongIdKey {
            session: 0,
            op: KeyedOp::Remove { plan: 1 },
        }),
        Violation::UnknownPlanType(UnknownPlanType {
            session: 0,
            plan: 7,
            name: 2,
            underscore: true,
        }),
        Violation::RelativeFileUri(RelativeFileUri {
            session: 0,
            plan: 7,
            file: 1,
        }),
        Violation::BadMeta(BadMeta {
            session: 1,
            op: items(8, entries.clone()),
        }),
        Violation::UnknownMember(UnknownMember {
            session: 0,
            op: PlanOp::Remove {
                plan: 1,
                meta: Meta::Absent,
            },
        }),
        Violation::UnknownSession(UnknownSession {
            ghost: 1,
            update: SessionUpdate::Plan(items(1, entries.clone())),
        }),
        Violation::RemoveNotLive(RemoveNotLive {
            session: 0,
            plan: 1,
        }),
        Violation::TruncatedJson(TruncatedJson { cut: 40 }),
        Violation::UnknownResponse(UnknownResponse {
            from_agent: false,
            stray: 3,
        }),
    ];
    for fault in [
        EnvelopeFault::BadDirection,
        EnvelopeFault::MissingMessage,
        EnvelopeFault::MessageNotObject,
        EnvelopeFault::MixedMembers,
    ] {
        all.push(Violation::BrokenEnvelope(BrokenEnvelope { fault }));
    }
    for fault in [
        VersionFault::Missing,
        VersionFault::OldVersion,
        VersionFault::Number,
    ] {
        all.push(Violation::WrongJsonRpcVersion(WrongJsonRpcVersion {
            session: 1,
            fault,
        }));
    }
    for carrier in [Carrier::Legacy, Carrier::Keyed(5)] {
        for field in MissingField::ALL {
            all.push(Violation::MissingField(MissingMember {
                session: 1,
                field,
                carrier,
                entries: entries.clone(),
                pick: 1,
            }));
        }
        for value in [
            BadValue::Unknown(1),
            BadValue::OtherRevision,
            BadValue::Custom(2),
        ] {
            all.push(Violation::BadStatus(BadStatus {
                session: 0,
                carrier,
                entries: entries.clone(),
                pick: 0,
                value,
            }));
            all.push(Violation::BadPriority(BadPriority {
                session: 0,
                carrier,
                entries: Vec::new(),
                pick: 3,
                value,
            }));
        }
    }
    all
}

#[test]
fn each_violation_is_reported_as_its_rule_at_its_line() {
    let mut injected = std::collections::BTreeSet::new();
    for revision in Revision::ALL {
        for capability in [Capability::Object, Capability::Omitted] {
            for framing in [Framing::Envelope, Framing::Bare] {
                for violation in every_violation() {
                    let mut scenario = busy(revision, framing);
                    scenario.capability = capability;
                    // In the middle, where plans are live in both sessions.
                    let at = scenario.ops.len() / 2;
                    scenario.ops.insert(at, Op::Violation(violation.clone()));
                    scenario.legalize();
                    let (rendered, report) = check(&scenario);
                    let kept = scenario.has_violations();
                    assert_eq!(rendered.expected.len(), usize::from(kept));
                    if let Some(expected) = rendered.expected.first() {
                        assert_eq!(expected.rule.id, violation.rule().id);
                        injected.insert(expected.rule.id);
                    }
                    if let Err(e) = rendered.compare(&report.diagnostics) {
                        panic!(
                            "{revision} {capability:?} {framing:?} {violation:?}: {e}\n{}",
                            rendered.text()
                        );
                    }
                }
            }
        }
    }
    // Every kind found a context to show itself in.
    for rule in Violation::injectable_rules() {
        assert!(injected.contains(rule), "{rule} was never injected");
    }
}

#[test]
fn every_injectable_rule_has_a_placeholder_violation() {
    let rules = Violation::injectable_rules();
    for id in [
        "CAP-PLAN-OPS",
        "SHAPE-PLAN-ID",
        "SHAPE-ENTRY",
        "SHAPE-STATUS",
        "SES-UNKNOWN-SESSION",
        "TRACE-RECORD",
        "ENV-JSON",
        "ID-REMOVE-UNKNOWN",
    ] {
        assert!(rules.contains(&id), "{id} missing from {rules:?}");
    }
    for id in &rules {
        let v = Violation::for_rule(id).unwrap();
        assert_eq!(v.rule().id, *id);
    }
    assert!(Violation::for_rule("FULL-DELTA").is_none());
}

#[test]
fn splitting_keeps_each_sessions_ops() {
    let scenario = busy(Revision::V2, Framing::Envelope);
    let parts = scenario.split_by_session();
    assert_eq!(parts.len(), 2);
    let total: usize = parts.iter().map(|(_, part, _)| part.ops.len()).sum();
    let sessionless = scenario
        .ops
        .iter()
        .filter(|op| Connection::session_of(op).is_none())
        .count();
    assert_eq!(total + sessionless, scenario.ops.len());
    for (session, part, indices) in parts {
        assert!(matches!(
            part.ops.first(),
            Some(Op::NewSession { session: s } | Op::LoadSession { session: s, .. }) if *s == session
        ));
        for (op, index) in part.ops.iter().zip(indices) {
            assert_eq!(Some(op), scenario.ops.get(index));
        }
    }
}

mod synthetic_traces {
    use super::*;

    fn generate(params: &SyntheticParams, seed: u64) -> (Vec<u8>, SyntheticSummary) {
        let mut out = Vec::new();
        let summary = synthetic(params, seed, &mut out).unwrap();
        (out, summary)
    }

    fn config(params: &SyntheticParams) -> Config {
        Config {
            spec: if params.needs_pinned_spec() {
                SpecChoice::Fixed(params.revision)
            } else {
                SpecChoice::Auto
            },
            ..Config::default()
        }
    }

    #[test]
    fn same_seed_same_bytes_other_seed_other_bytes() {
        let params = SyntheticParams::default();
        let (a, summary) = generate(&params, 7);
        let (b, _) = generate(&params, 7);
        let (c, _) = generate(&params, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(summary.bytes, a.len() as u64);
        assert_eq!(
            summary.lines,
            a.iter().filter(|b| **b == b'\n').count() as u64
        );
    }

    #[test]
    fn synthetic_traces_are_conformant_in_every_revision() {
        for revision in Revision::ALL {
            for framing in [Framing::Envelope, Framing::Bare] {
                let params = SyntheticParams {
                    revision,
                    framing,
                    sessions: 5,
                    messages: 400,
                    plans: 3,
                    entries: 5,
                    non_plan_share: 0.3,
                    payload_bytes: 64,
                    ..SyntheticParams::default()
                };
                let (trace, summary) = generate(&params, 42);
                let report = check_reader("synthetic", &trace[..], config(&params)).unwrap();
                assert_eq!(report.revision.revision, revision);
                let bad: Vec<_> = report
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity() != crate::Severity::Info)
                    .map(|d| (d.rule.id, d.line, d.message.clone()))
                    .collect();
                assert!(bad.is_empty(), "{revision} {framing:?}: {bad:?}");
                assert!(summary.expected.is_empty());
                assert_eq!(report.state.session_count(), 5);
                // Plans were shown (keyed, or legacy where keyed ones are not allowed).
                let shown = report
                    .state
                    .sessions()
                    .any(|(_, s)| !s.plans.is_empty() || s.legacy.is_some());
                assert!(shown, "{revision}");
            }
        }
    }

    /// The benchmark's shapes (bench/run.sh): long chat chunks, nested tool
    /// output, many sessions with short turns.
    #[test]
    fn synthetic_shapes_are_conformant() {
        let shapes = [
            SyntheticParams {
                chunk_bytes: Some(3000),
                non_plan_share: 0.95,
                ..SyntheticParams::default()
            },
            SyntheticParams {
                tool_output_bytes: 4000,
                non_plan_share: 0.9,
                ..SyntheticParams::default()
            },
            SyntheticParams {
                sessions: 300,
                turn_length: 2,
                messages: 3000,
                ..SyntheticParams::default()
            },
        ];
        for params in shapes {
            let (trace, _) = generate(&params, 5);
            let report = check_reader("synthetic", &trace[..], config(&params)).unwrap();
            let bad: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|d| d.severity() != crate::Severity::Info)
                .map(|d| (d.rule.id, d.line, d.message.clone()))
                .collect();
            assert!(bad.is_empty(), "{params:?}: {bad:?}");
            assert_eq!(report.state.session_count(), usize::from(params.sessions));
            let text = String::from_utf8(trace).unwrap();
            if let Some(bytes) = params.chunk_bytes {
                // Prose: its line breaks are escapes on the wire.
                assert!(text.contains("\\n"));
                let longest = text.lines().map(str::len).max().unwrap_or(0);
                assert!(longest > bytes, "chunks of {bytes} bytes");
            }
            if params.tool_output_bytes > 0 {
                let line = text.lines().find(|l| l.contains("rawOutput")).unwrap();
                assert!(line.len() > params.tool_output_bytes, "{line}");
                let value: serde_json::Value = serde_json::from_str(line).unwrap();
                assert!(value
                    .pointer("/message/params/update/rawOutput/files/0/matches/0/text")
                    .is_some());
            }
        }
    }

    #[test]
    fn injected_violations_are_reported_where_announced() {
        for revision in Revision::ALL {
            let inject: Vec<Violation> = Violation::injectable_rules()
                .into_iter()
                .filter_map(Violation::for_rule)
                .collect();
            for (v, spacing) in inject
                .into_iter()
                .flat_map(|v| [(v.clone(), Spacing::Compact), (v, Spacing::Python)])
            {
                let params = SyntheticParams {
                    revision,
                    inject: vec![v.clone(), v.clone()],
                    spacing,
                    ..SyntheticParams::default()
                };
                if params.check().is_err() {
                    // e.g. CAP-LEGACY-V2 outside v2: refused up front.
                    continue;
                }
                let (trace, summary) = generate(&params, 3);
                assert_eq!(summary.expected.len(), 2, "{revision} {v:?}");
                let report = check_reader("synthetic", &trace[..], config(&params)).unwrap();
                let rendered = Rendered {
                    expected: summary.expected.clone(),
                    ..Rendered::default()
                };
                if let Err(e) = rendered.compare(&report.diagnostics) {
                    panic!("{revision} {v:?} {spacing:?}: {e}");
                }
            }
        }
    }

    /// Python's spacing changes the whitespace between tokens and nothing
    /// else: each line reads as the same value, and the trace has as many.
    #[test]
    fn python_spacing_writes_the_same_values() {
        let compact = SyntheticParams {
            messages: 300,
            tool_output_bytes: 300,
            ..SyntheticParams::default()
        };
        let python = SyntheticParams {
            spacing: Spacing::Python,
            ..compact.clone()
        };
        let ((compact, _), (python, summary)) = (generate(&compact, 4), generate(&python, 4));
        let (compact, python) = (
            String::from_utf8(compact).unwrap(),
            String::from_utf8(python).unwrap(),
        );
        assert_eq!(compact.lines().count(), python.lines().count());
        assert_eq!(summary.bytes, python.len() as u64);
        for (a, b) in compact.lines().zip(python.lines()) {
            let read = |line: &str| serde_json::from_str::<serde_json::Value>(line).unwrap();
            assert_eq!(read(a), read(b));
            assert!(b.len() > a.len() && b.contains(r#"{"direction": "#), "{b}");
        }
        assert_eq!(
            Spacing::Python.apply(r#"{"a":[1,{"b":"x, y:\"z\\"}],"c":"\\"}"#),
            r#"{"a": [1, {"b": "x, y:\"z\\"}], "c": "\\"}"#
        );
    }

    #[test]
    fn impossible_injections_are_refused() {
        let params = SyntheticParams {
            revision: Revision::V1,
            inject: vec![Violation::for_rule("CAP-LEGACY-V2").unwrap()],
            ..SyntheticParams::default()
        };
        assert!(matches!(
            synthetic(&params, 1, Vec::new()),
            Err(synthetic::SyntheticError::CannotInject { .. })
        ));
        let params = SyntheticParams {
            non_plan_share: 1.5,
            ..SyntheticParams::default()
        };
        assert!(params.check().is_err());
        let params = SyntheticParams {
            turn_length: 0,
            ..SyntheticParams::default()
        };
        assert!(params.check().is_err());
    }
}

/// The fuzz target's path: bytes → `Arbitrary` scenario → legalize →
/// render → check → exactly the injected diagnostics.
#[cfg(feature = "arbitrary")]
#[test]
fn arbitrary_scenarios_are_reported_exactly_as_injected() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut rng = fastrand::Rng::with_seed(11);
    let (mut checked, mut ops, mut injected) = (0, 0, 0);
    for _ in 0..2000 {
        // Short inputs: a long one mostly turns into one long string.
        let len = rng.usize(0..400);
        let bytes: Vec<u8> = (0..len).map(|_| rng.u8(..)).collect();
        // Ops drawn until the bytes run out (a derived `Vec` stops on the
        // first odd "keep going" byte, about one element on random input).
        let mut u = Unstructured::new(&bytes);
        let Ok(mut scenario) = Connection::arbitrary(&mut u) else {
            continue;
        };
        while let Ok(op) = Op::arbitrary(&mut u) {
            scenario.ops.push(op);
            if u.is_empty() {
                break;
            }
        }
        let scenario = scenario.legalized();
        assert_eq!(scenario.clone().legalized(), scenario, "idempotent");
        let (rendered, report) = check(&scenario);
        if let Err(e) = rendered.compare(&report.diagnostics) {
            panic!("{e}\n{}", rendered.text());
        }
        checked += 1;
        ops += scenario.ops.len();
        injected += rendered.expected.len();
    }
    eprintln!("{checked} scenarios, {ops} ops, {injected} violations");
    assert!(checked > 1500 && ops > 4000 && injected > 300);
}
