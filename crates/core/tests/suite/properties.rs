//! Property tests of the validator, on traces written by the shared
//! generator (`acp_plan_conformance::gen`).
//!
//! - conformant traces (random sessions, capability choices per revision,
//!   random legal plan operations, interleaving, other updates) produce no
//!   error and no warning;
//! - each mutation operator injects exactly one violation, reported as
//!   exactly its rule at its line;
//! - the reference state (`ClientState`) agrees with a deliberately simple
//!   oracle after every operation;
//! - typed plan messages round-trip through `to_update_json` and the strict
//!   parser in every revision;
//! - splitting a trace's sessions into separate traces changes no session's
//!   diagnostics;
//! - readings (issue 11): repeating a random member of a random message
//!   with its own value adds one warning and changes nothing else; with
//!   another value it gives no new error to the other party; escaping
//!   random characters of strings changes nothing; cutting a trace into
//!   JSON-RPC batches checks every message as before.
//!
//! Every block runs the workspace's one case count (`PROPTEST_CASES`, set
//! in `.cargo/config.toml`); set the variable to run more (e.g.
//! `PROPTEST_CASES=5000 cargo test -p acp-plan-conformance --test suite -- properties::`).
//! Failing inputs are saved to `proptest-regressions/properties.txt` and
//! replayed first on every run: commit that file.

use acp_plan_conformance::gen::{
    self, AgentRequestKind, Capability, Connection, Content, Entry, FileUri, Framing, Meta, Op,
    OtherUpdate, PlanOp, Priority, Rendered, SessionUpdate, Status, StopReason, Violation,
};
use acp_plan_conformance::rules::shape::parse_plan_update;
use acp_plan_conformance::spec::messages as typed;
use acp_plan_conformance::{check_reader, Diagnostic, Revision, Severity, TraceReport, Validator};
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::FileFailurePersistence;
use serde_json::{json, Value};

/// The workspace's case count (`PROPTEST_CASES`); failures persist to
/// `crates/core/proptest-regressions/properties.txt`.
fn config() -> ProptestConfig {
    let cases = ProptestConfig::default().cases;
    ProptestConfig {
        cases,
        // Some mutations do not fit some scenarios (`CAP-LEGACY-V2` needs
        // v2): about a quarter are rejected, so the budget grows with cases.
        max_global_rejects: cases.saturating_mul(2).max(1024),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/properties.txt",
        ))),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Strategies for the generator's operation model.

fn revision() -> impl Strategy<Value = Revision> {
    prop::sample::select(Revision::ALL.to_vec())
}

fn capability() -> impl Strategy<Value = Capability> {
    prop_oneof![
        4 => Just(Capability::Object),
        1 => Just(Capability::ObjectWithMeta),
        1 => Just(Capability::Null),
        1 => Just(Capability::Omitted),
    ]
}

fn framing() -> impl Strategy<Value = Framing> {
    prop_oneof![3 => Just(Framing::Envelope), 1 => Just(Framing::Bare)]
}

/// Texts that collide often (entries are matched by content) and some that
/// need escaping.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["a", "b", "c", "write tests", ""]).prop_map(String::from),
        1 => "[a-c\"\\\\é😀 \n]{0,6}",
        1 => "\\PC{0,12}",
    ]
}

fn meta() -> impl Strategy<Value = Meta> {
    prop_oneof![
        3 => Just(Meta::Absent),
        1 => Just(Meta::Null),
        1 => any::<u8>().prop_map(Meta::Object),
    ]
}

fn entry() -> impl Strategy<Value = Entry> {
    let priority = prop_oneof![
        Just(Priority::High),
        Just(Priority::Medium),
        Just(Priority::Low),
        (0u8..3).prop_map(Priority::Custom),
    ];
    let status = prop_oneof![
        Just(Status::Pending),
        Just(Status::InProgress),
        Just(Status::Completed),
        Just(Status::Cancelled),
        (0u8..3).prop_map(Status::Custom),
    ];
    (text(), priority, status, meta()).prop_map(|(content, priority, status, meta)| Entry {
        content,
        priority,
        status,
        meta,
    })
}

fn entries() -> impl Strategy<Value = Vec<Entry>> {
    prop::collection::vec(entry(), 0..5)
}

fn content() -> impl Strategy<Value = Content> {
    prop_oneof![
        4 => entries().prop_map(|entries| Content::Items { entries }),
        1 => prop_oneof![
            (0u8..4).prop_map(FileUri::Absolute),
            (0u8..4).prop_map(FileUri::Relative)
        ]
        .prop_map(|uri| Content::File { uri }),
        1 => text().prop_map(|text| Content::Markdown { text }),
        1 => (0u8..3, any::<u32>()).prop_map(|(name, data)| Content::Custom { name, data }),
    ]
}

/// Few plan ids, so updates, removals and re-creations meet.
fn plan_ref() -> impl Strategy<Value = u8> {
    0u8..4
}

fn plan_op() -> impl Strategy<Value = PlanOp> {
    prop_oneof![
        2 => (entries(), meta()).prop_map(|(entries, meta)| PlanOp::Legacy { entries, meta }),
        5 => (plan_ref(), content(), meta(), meta()).prop_map(|(plan, content, plan_meta, meta)| {
            PlanOp::Update { plan, content, plan_meta, meta }
        }),
        2 => (plan_ref(), meta()).prop_map(|(plan, meta)| PlanOp::Remove { plan, meta }),
    ]
}

fn other_update() -> impl Strategy<Value = OtherUpdate> {
    prop_oneof![
        text().prop_map(|text| OtherUpdate::AgentMessageChunk { text }),
        any::<u8>().prop_map(|call| OtherUpdate::ToolCall { call }),
        any::<u32>().prop_map(|used| OtherUpdate::UsageUpdate { used }),
        (0u8..3).prop_map(|kind| OtherUpdate::Unknown { kind }),
    ]
}

fn session_update() -> impl Strategy<Value = SessionUpdate> {
    prop_oneof![
        3 => plan_op().prop_map(SessionUpdate::Plan),
        1 => other_update().prop_map(SessionUpdate::Other),
    ]
}

/// A session selector; legalizing resolves it against the open sessions.
fn session() -> impl Strategy<Value = u16> {
    0u16..4
}

/// Ops without violations.
fn legal_op() -> impl Strategy<Value = Op> {
    let stop = prop_oneof![
        Just(StopReason::EndTurn),
        Just(StopReason::Cancelled),
        Just(StopReason::MaxTokens)
    ];
    let kind = prop_oneof![
        Just(AgentRequestKind::Permission),
        Just(AgentRequestKind::ReadTextFile),
        Just(AgentRequestKind::Extension)
    ];
    prop_oneof![
        2 => Just(Op::NewSession { session: 0 }),
        1 => prop::collection::vec(session_update(), 0..4)
            .prop_map(|replay| Op::LoadSession { session: 0, replay }),
        12 => (session(), session_update()).prop_map(|(session, update)| Op::Update { session, update }),
        1 => session().prop_map(|session| Op::Prompt { session }),
        1 => (session(), stop).prop_map(|(session, stop)| Op::EndTurn { session, stop }),
        1 => session().prop_map(|session| Op::Cancel { session }),
        1 => (session(), kind).prop_map(|(session, kind)| Op::AgentRequest { session, kind }),
        1 => (session(), any::<u8>(), any::<bool>())
            .prop_map(|(session, pick, error)| Op::ClientResponse { session, pick, error }),
        1 => any::<bool>().prop_map(|from_agent| Op::ExtNotification { from_agent }),
    ]
}

/// A legal scenario: at least one session first, then random ops.
fn scenario() -> impl Strategy<Value = Connection> {
    (
        revision(),
        capability(),
        framing(),
        prop::collection::vec(legal_op(), 0..40),
    )
        .prop_map(|(revision, capability, framing, ops)| {
            let mut scenario = Connection::new(revision);
            scenario.capability = capability;
            scenario.framing = framing;
            scenario.ops = std::iter::once(Op::NewSession { session: 0 })
                .chain(ops)
                .collect();
            scenario.legalized()
        })
}

// ---------------------------------------------------------------------------
// Helpers.

fn check(scenario: &Connection) -> (Rendered, TraceReport) {
    let rendered = scenario.render();
    let report = check_reader("prop", rendered.text().as_bytes(), scenario.config())
        .expect("reading from memory");
    (rendered, report)
}

fn describe(rendered: &Rendered, diagnostics: &[Diagnostic]) -> String {
    let mut text = String::new();
    for d in diagnostics {
        text.push_str(&format!(
            "  {} {} line {}: {}\n",
            d.severity(),
            d.rule.id,
            d.line,
            d.message
        ));
    }
    for (i, line) in rendered.lines.iter().enumerate() {
        text.push_str(&format!("{:>4} {line}\n", i + 1));
    }
    text
}

// ---------------------------------------------------------------------------
// 1. Conformant traces are conformant.

proptest! {
    #![proptest_config(config())]

    /// No error and no warning. (Infos may appear: `ID-RECREATE` and
    /// `ID-TYPE-CHANGE` note allowed behaviour.)
    #[test]
    fn generated_conformant_traces_produce_no_error_or_warning(scenario in scenario()) {
        prop_assert!(!scenario.has_violations());
        let (rendered, report) = check(&scenario);
        prop_assert_eq!(report.revision.revision, scenario.revision);
        let flagged: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity() != Severity::Info)
            .collect();
        prop_assert!(
            flagged.is_empty(),
            "{}",
            describe(&rendered, &report.diagnostics)
        );
    }

    /// Legalizing a legal scenario changes nothing (the fuzz target and
    /// the split property rely on it).
    #[test]
    fn legalizing_is_idempotent(scenario in scenario()) {
        prop_assert_eq!(scenario.clone().legalized(), scenario);
    }
}

// ---------------------------------------------------------------------------
// 2. Mutation operators: one violation each, reported exactly.

/// One mutation of a legal scenario.
#[derive(Clone, Debug)]
enum Mutation {
    /// The client stops advertising the capability (draft and v1; a v2
    /// scenario is moved to v1 first): the first keyed plan op stays keyed
    /// (breaking `CAP-PLAN-OPS`), the rest fall back to the legacy `plan`,
    /// as the spec requires.
    DropCapability,
    /// Insert this violation before op `at` (modulo the length).
    Insert { at: usize, violation: Violation },
}

fn carrier() -> impl Strategy<Value = gen::Carrier> {
    use gen::Carrier;
    prop_oneof![Just(Carrier::Legacy), plan_ref().prop_map(Carrier::Keyed)]
}

fn bad_value() -> impl Strategy<Value = gen::BadValue> {
    use gen::BadValue;
    prop_oneof![
        (0u8..3).prop_map(BadValue::Unknown),
        Just(BadValue::OtherRevision),
        (0u8..3).prop_map(BadValue::Custom),
    ]
}

fn keyed_op() -> impl Strategy<Value = gen::KeyedOp> {
    use gen::KeyedOp;
    prop_oneof![
        (plan_ref(), content()).prop_map(|(plan, content)| KeyedOp::Update { plan, content }),
        plan_ref().prop_map(|plan| KeyedOp::Remove { plan }),
    ]
}

/// The operators (rename the id key, remove a required field, an
/// invalid enum value, an unknown session, a broken envelope, removal of
/// an unknown id) and the generator's other kinds.
fn violation() -> impl Strategy<Value = Violation> {
    use gen::{EnvelopeFault, VersionFault};
    let missing = prop::sample::select(gen::MissingField::ALL.to_vec());
    let envelope = prop_oneof![
        Just(EnvelopeFault::BadDirection),
        Just(EnvelopeFault::MissingMessage),
        Just(EnvelopeFault::MessageNotObject),
        Just(EnvelopeFault::MixedMembers),
    ];
    let version = prop_oneof![
        Just(VersionFault::Missing),
        Just(VersionFault::OldVersion),
        Just(VersionFault::Number),
    ];
    prop_oneof![
        1 => (session(), keyed_op()).prop_map(|(session, op)| Violation::WrongIdKey(gen::WrongIdKey { session, op })),
        // Eleven fields behind one operator: weighted up so each gets cases.
        4 => (session(), missing, carrier(), entries(), any::<u8>()).prop_map(
            |(session, field, carrier, entries, pick)| Violation::MissingField(gen::MissingMember {
                session,
                field,
                carrier,
                entries,
                pick
            })
        ),
        1 => (session(), carrier(), entries(), any::<u8>(), bad_value()).prop_map(
            |(session, carrier, entries, pick, value)| Violation::BadStatus(gen::BadStatus {
                session,
                carrier,
                entries,
                pick,
                value
            })
        ),
        1 => (session(), carrier(), entries(), any::<u8>(), bad_value()).prop_map(
            |(session, carrier, entries, pick, value)| Violation::BadPriority(gen::BadPriority {
                session,
                carrier,
                entries,
                pick,
                value
            })
        ),
        1 => (any::<u8>(), session_update())
            .prop_map(|(ghost, update)| Violation::UnknownSession(gen::UnknownSession { ghost, update })),
        1 => envelope.prop_map(|fault| Violation::BrokenEnvelope(gen::BrokenEnvelope { fault })),
        1 => (session(), plan_ref())
            .prop_map(|(session, plan)| Violation::RemoveNotLive(gen::RemoveNotLive { session, plan })),
        1 => (session(), plan_ref(), any::<u8>(), any::<bool>()).prop_map(
            |(session, plan, name, underscore)| Violation::UnknownPlanType(gen::UnknownPlanType {
                session,
                plan,
                name,
                underscore
            })
        ),
        1 => (session(), plan_ref(), any::<u8>()).prop_map(|(session, plan, file)| {
            Violation::RelativeFileUri(gen::RelativeFileUri {
                session,
                plan,
                file,
            })
        }),
        1 => (session(), entries())
            .prop_map(|(session, entries)| Violation::LegacyInV2(gen::LegacyInV2 { session, entries })),
        1 => (session(), keyed_op())
            .prop_map(|(session, op)| Violation::PlanOpWithoutCapability(gen::PlanOpWithoutCapability { session, op })),
        1 => (session(), plan_op()).prop_map(|(session, op)| Violation::BadMeta(gen::BadMeta { session, op })),
        1 => (session(), plan_op()).prop_map(|(session, op)| Violation::UnknownMember(gen::UnknownMember { session, op })),
        1 => any::<u16>().prop_map(|cut| Violation::TruncatedJson(gen::TruncatedJson { cut })),
        1 => (session(), version)
            .prop_map(|(session, fault)| Violation::WrongJsonRpcVersion(gen::WrongJsonRpcVersion { session, fault })),
        1 => (any::<bool>(), any::<u8>())
            .prop_map(|(from_agent, stray)| Violation::UnknownResponse(gen::UnknownResponse { from_agent, stray })),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => Just(Mutation::DropCapability),
        6 => (any::<usize>(), violation()).prop_map(|(at, violation)| Mutation::Insert { at, violation }),
    ]
}

/// Apply `mutation`; `None` when the scenario's context cannot host it
/// (e.g. `CAP-LEGACY-V2` outside v2). Returns the mutated scenario and the
/// index of the violating op.
fn mutate(scenario: &Connection, mutation: &Mutation) -> Option<(Connection, usize)> {
    let mut mutated = scenario.clone();
    match mutation {
        Mutation::DropCapability => {
            // Make room: a revision with the capability, advertised, and at
            // least one keyed plan op.
            if mutated.revision.protocol_version() == 2 {
                mutated.revision = Revision::V1;
            }
            mutated.capability = Capability::Object;
            mutated.pin_spec = false;
            let keyed = PlanOp::Update {
                plan: 0,
                content: Content::Markdown {
                    text: "plan".into(),
                },
                plan_meta: Meta::Absent,
                meta: Meta::Absent,
            };
            let at = mutated.ops.len() / 2 + 1;
            mutated.ops.insert(
                at.min(mutated.ops.len()),
                Op::Update {
                    session: 0,
                    update: SessionUpdate::Plan(keyed),
                },
            );
            mutated.legalize();
            let (at, session, op) =
                mutated
                    .ops
                    .iter()
                    .enumerate()
                    .find_map(|(i, op)| match op {
                        Op::Update {
                            session,
                            update: SessionUpdate::Plan(PlanOp::Update { plan, content, .. }),
                        } => Some((
                            i,
                            *session,
                            gen::KeyedOp::Update {
                                plan: *plan,
                                content: content.clone(),
                            },
                        )),
                        Op::Update {
                            session,
                            update: SessionUpdate::Plan(PlanOp::Remove { plan, .. }),
                        } => Some((i, *session, gen::KeyedOp::Remove { plan: *plan })),
                        _ => None,
                    })?;
            mutated.capability = Capability::Omitted;
            if let Some(slot) = mutated.ops.get_mut(at) {
                *slot = Op::Violation(Violation::PlanOpWithoutCapability(
                    gen::PlanOpWithoutCapability { session, op },
                ));
            }
            mutated.legalize();
            let index = mutated
                .ops
                .iter()
                .position(|op| matches!(op, Op::Violation(_)))?;
            Some((mutated, index))
        }
        Mutation::Insert { at, violation } => {
            let at = at % (mutated.ops.len() + 1);
            mutated.ops.insert(at, Op::Violation(violation.clone()));
            mutated.legalize();
            let index = mutated
                .ops
                .iter()
                .position(|op| matches!(op, Op::Violation(_)))?;
            Some((mutated, index))
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn each_mutation_is_reported_as_exactly_its_rule_at_its_line(
        scenario in scenario(),
        mutation in mutation(),
    ) {
        let mutated = mutate(&scenario, &mutation);
        prop_assume!(mutated.is_some());
        let Some((mutated, index)) = mutated else { unreachable!() };
        let Some(Op::Violation(violation)) = mutated.ops.get(index) else {
            unreachable!("mutate returns the violation's index")
        };
        let (rendered, report) = check(&mutated);
        // One op, one line, one expected diagnostic there.
        let span = rendered.spans[index].clone();
        prop_assert_eq!(span.end - span.start, 1);
        prop_assert_eq!(rendered.expected.len(), 1);
        prop_assert_eq!(rendered.expected[0].rule.id, violation.rule().id);
        prop_assert_eq!(rendered.expected[0].line, span.start);
        // Exactly that one is reported: no other error or warning.
        if let Err(e) = rendered.compare(&report.diagnostics) {
            prop_assert!(false, "{:?}: {}\n{}", violation, e, describe(&rendered, &report.diagnostics));
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// Several violations in one trace are independent: each is reported at
    /// its own line, and nothing else (what the `structured` fuzz target checks).
    #[test]
    fn several_violations_are_each_reported_exactly(scenario in scenario_with_violations()) {
        let (rendered, report) = check(&scenario);
        let injected = scenario.ops.iter().filter(|op| matches!(op, Op::Violation(_))).count();
        prop_assert_eq!(rendered.expected.len(), injected);
        if let Err(e) = rendered.compare(&report.diagnostics) {
            prop_assert!(false, "{}\n{}", e, describe(&rendered, &report.diagnostics));
        }
    }
}

// ---------------------------------------------------------------------------
// 3. The reference state against a deliberately simple oracle.

/// What a client shows, the obvious way: lists and linear scans.
#[derive(Default)]
struct Oracle {
    /// (session, legacy entries if any), in the order sessions opened.
    sessions: Vec<(String, Option<Vec<Entry>>)>,
    /// (session, plan id, content), in the order plans were first shown.
    plans: Vec<(String, String, Content)>,
}

impl Oracle {
    fn open(&mut self, session: &str) {
        if !self.sessions.iter().any(|(s, _)| s == session) {
            self.sessions.push((session.to_owned(), None));
        }
    }

    fn apply(&mut self, session: &str, op: &PlanOp) {
        match op {
            PlanOp::Legacy { entries, .. } => {
                for (s, legacy) in &mut self.sessions {
                    if s == session {
                        *legacy = Some(entries.clone());
                    }
                }
            }
            PlanOp::Update { plan, content, .. } => {
                let id = gen::plan_name(*plan);
                let mut found = false;
                for (s, p, c) in &mut self.plans {
                    if s == session && *p == id {
                        *c = content.clone();
                        found = true;
                    }
                }
                if !found {
                    self.plans.push((session.to_owned(), id, content.clone()));
                }
            }
            PlanOp::Remove { plan, .. } => {
                let id = gen::plan_name(*plan);
                self.plans.retain(|(s, p, _)| !(s == session && *p == id));
            }
        }
    }

    /// Follow one (legalized) op.
    fn step(&mut self, op: &Op) {
        match op {
            Op::NewSession { session } => self.open(&gen::session_name(*session)),
            Op::LoadSession { session, replay } => {
                let name = gen::session_name(*session);
                self.open(&name);
                for update in replay {
                    if let SessionUpdate::Plan(op) = update {
                        self.apply(&name, op);
                    }
                }
            }
            Op::Update {
                session,
                update: SessionUpdate::Plan(op),
            } => self.apply(&gen::session_name(*session), op),
            // A client shows these two (a bad `_meta` or a custom member
            // does not stop it); every other violation is rejected.
            Op::Violation(Violation::BadMeta(gen::BadMeta { session, op }))
            | Op::Violation(Violation::UnknownMember(gen::UnknownMember { session, op })) => {
                self.apply(&gen::session_name(*session), op)
            }
            _ => {}
        }
    }
}

fn entry_json(e: &Entry) -> Value {
    json!({"content": e.content, "priority": e.priority.render(), "status": e.status.render()})
}

fn content_json(content: &Content) -> Value {
    match content {
        Content::Items { entries } => {
            json!({"type": "items", "entries": entries.iter().map(entry_json).collect::<Vec<_>>()})
        }
        Content::File { uri } => json!({"type": "file", "uri": uri.render()}),
        Content::Markdown { text } => json!({"type": "markdown", "content": text}),
        Content::Custom { data, .. } => json!({"type": content.type_name(), "data": data}),
    }
}

/// The differences between the validator's state and the oracle's.
fn state_differences(validator: &Validator, oracle: &Oracle) -> Vec<String> {
    let mut out = Vec::new();
    let state = validator.state();
    let names: Vec<&str> = state.sessions().map(|(s, _)| s).collect();
    let oracle_names: Vec<&str> = oracle.sessions.iter().map(|(s, _)| s.as_str()).collect();
    if names != oracle_names {
        out.push(format!("sessions {names:?} vs oracle {oracle_names:?}"));
    }
    for (name, legacy) in &oracle.sessions {
        let Some(plans) = state.session(name) else {
            continue;
        };
        let shown_legacy = plans.legacy.as_ref().map(|entries| {
            entries
                .iter()
                .map(|e| json!({"content": e.content, "priority": e.priority.as_str(), "status": e.status.as_str()}))
                .collect::<Vec<_>>()
        });
        let oracle_legacy = legacy
            .as_ref()
            .map(|entries| entries.iter().map(entry_json).collect::<Vec<_>>());
        if shown_legacy != oracle_legacy {
            out.push(format!(
                "{name} legacy {shown_legacy:?} vs oracle {oracle_legacy:?}"
            ));
        }
        let shown: Vec<(String, Value)> = plans
            .plans
            .iter()
            .map(|(id, view)| (id.to_string(), view.to_json()))
            .collect();
        let expected: Vec<(String, Value)> = oracle
            .plans
            .iter()
            .filter(|(s, _, _)| s == name)
            .map(|(_, id, content)| (id.clone(), content_json(content)))
            .collect();
        if shown != expected {
            out.push(format!("{name} plans {shown:?} vs oracle {expected:?}"));
        }
    }
    out
}

/// Legal ops with violations mixed in (rejected messages must leave the
/// state alone; the two that a client shows must change it).
fn scenario_with_violations() -> impl Strategy<Value = Connection> {
    (
        scenario(),
        prop::collection::vec((any::<usize>(), violation()), 0..4),
    )
        .prop_map(|(mut scenario, violations)| {
            for (at, v) in violations {
                let at = at % (scenario.ops.len() + 1);
                scenario.ops.insert(at, Op::Violation(v));
            }
            scenario.legalized()
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reference_state_agrees_with_a_simple_oracle(scenario in scenario_with_violations()) {
        let rendered = scenario.render();
        let mut validator = Validator::new(scenario.config());
        let mut oracle = Oracle::default();
        let mut line = 0u64;
        let mut feed = |validator: &mut Validator, upto: u64| {
            while line + 1 < upto {
                line += 1;
                let text = rendered.lines[(line - 1) as usize].as_bytes();
                validator.push_record(line, text);
            }
        };
        // The handshake, then op by op.
        feed(&mut validator, rendered.spans.first().map_or(rendered.lines.len() as u64 + 1, |s| s.start));
        for (op, span) in scenario.ops.iter().zip(&rendered.spans) {
            feed(&mut validator, span.end);
            oracle.step(op);
            let differences = state_differences(&validator, &oracle);
            prop_assert!(
                differences.is_empty(),
                "after {:?} (lines {:?}): {:?}",
                op,
                span,
                differences
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 4. Typed messages round-trip in every revision.

/// Plan ids, including the empty one (allowed by the schema, warned about).
fn plan_id() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z0-9-]{1,8}",
        1 => "\\PC{0,6}",
    ]
}

fn typed_meta() -> impl Strategy<Value = typed::Meta> {
    prop_oneof![
        3 => Just(None),
        1 => Just(Some(typed::RawMeta::new("null"))),
        1 => ("[a-z_]{1,5}", any::<i32>())
            .prop_map(|(k, v)| Some(typed::RawMeta::from_value(&json!({ k: v })))),
    ]
}

fn typed_entry(revision: Revision) -> impl Strategy<Value = typed::PlanEntry> {
    let open = revision.spelling().open_enums;
    let mut priorities = vec![
        Just(typed::Priority::High).boxed(),
        Just(typed::Priority::Medium).boxed(),
        Just(typed::Priority::Low).boxed(),
    ];
    let mut statuses = vec![
        Just(typed::Status::Pending).boxed(),
        Just(typed::Status::InProgress).boxed(),
        Just(typed::Status::Completed).boxed(),
    ];
    if open {
        priorities.push("_[a-z]{0,4}".prop_map(typed::Priority::Custom).boxed());
        statuses.push(Just(typed::Status::Cancelled).boxed());
        statuses.push("_[a-z]{0,4}".prop_map(typed::Status::Custom).boxed());
    }
    (
        text(),
        Union::new(priorities),
        Union::new(statuses),
        typed_meta(),
    )
        .prop_map(|(content, priority, status, meta)| typed::PlanEntry {
            content,
            priority,
            status,
            meta,
        })
}

fn typed_content(revision: Revision) -> impl Strategy<Value = typed::PlanContent> {
    let spelling = revision.spelling();
    let id_key = spelling.plan_id_key;
    let mut uris = vec![
        "file:///[a-z/]{1,12}\\.md".boxed(),
        "https://[a-z]{1,8}\\.example/[a-z]{0,6}".boxed(),
    ];
    if !spelling.absolute_file_uri {
        uris.push("[a-z/]{1,10}\\.md".boxed());
    }
    let mut contents = vec![prop::collection::vec(typed_entry(revision), 0..4)
        .prop_map(|entries| typed::PlanContent::Items { entries })
        .boxed()];
    if spelling.plan_types.contains(&"file") {
        contents.push(
            Union::new(uris)
                .prop_map(|uri| typed::PlanContent::File { uri })
                .boxed(),
        );
    }
    let paths = if spelling.markdown_path {
        prop_oneof![
            Just(None),
            "/[a-z/]{1,12}\\.md".prop_map(Some),
            "[A-Z]:\\\\[a-z]{1,8}\\.md".prop_map(Some),
            "\\\\\\\\[a-z]{1,6}\\\\[a-z]{1,6}\\\\plan\\.md".prop_map(Some),
        ]
        .boxed()
    } else {
        Just(None).boxed()
    };
    contents.push(
        (text(), paths)
            .prop_map(|(content, path)| typed::PlanContent::Markdown { content, path })
            .boxed(),
    );
    if spelling.open_enums {
        let fields = prop::collection::btree_map(
            "[a-z][a-zA-Z]{0,6}",
            prop_oneof![
                any::<i64>().prop_map(Value::from),
                "\\PC{0,6}".prop_map(Value::from),
                any::<bool>().prop_map(Value::from),
                Just(Value::Null),
            ],
            0..3,
        )
        .prop_map(move |fields| {
            fields
                .into_iter()
                .filter(|(k, _)| k != "type" && k != id_key)
                .collect::<serde_json::Map<String, Value>>()
        });
        contents.push(
            ("_[a-z]{0,6}", fields)
                .prop_map(|(type_name, fields)| typed::PlanContent::Custom {
                    type_name,
                    fields: fields
                        .iter()
                        .map(|(k, v)| (k.clone(), typed::RawJson::from_value(v)))
                        .collect(),
                })
                .boxed(),
        );
    }
    Union::new(contents)
}

fn plan_message(revision: Revision) -> impl Strategy<Value = typed::PlanMessage> {
    let mut messages = vec![
        (
            plan_id(),
            typed_content(revision),
            typed_meta(),
            typed_meta(),
        )
            .prop_map(|(id, content, plan_meta, meta)| {
                typed::PlanMessage::Update(typed::PlanUpdate {
                    plan: typed::Plan {
                        id,
                        content,
                        meta: plan_meta,
                    },
                    meta,
                })
            })
            .boxed(),
        (plan_id(), typed_meta())
            .prop_map(|(plan_id, meta)| {
                typed::PlanMessage::Removed(typed::PlanRemoved { plan_id, meta })
            })
            .boxed(),
    ];
    if revision.spelling().legacy_plan {
        messages.push(
            (
                prop::collection::vec(typed_entry(revision), 0..4),
                typed_meta(),
            )
                .prop_map(|(entries, meta)| {
                    typed::PlanMessage::Legacy(typed::LegacyPlan { entries, meta })
                })
                .boxed(),
        );
    }
    Union::new(messages)
}

fn revision_and_message() -> impl Strategy<Value = (Revision, typed::PlanMessage)> {
    revision().prop_flat_map(|revision| (Just(revision), plan_message(revision)))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn typed_messages_round_trip_in_every_revision(
        (revision, message) in revision_and_message()
    ) {
        let json = message.to_update_json(revision);
        let object = json.as_object().expect("an update is an object");
        let parsed = parse_plan_update(object, message.kind(), revision, 10_000);
        // The only diagnostic a well-typed message may draw is the empty-id warning.
        let empty_id = match &message {
            typed::PlanMessage::Update(u) => u.plan.id.is_empty(),
            typed::PlanMessage::Removed(r) => r.plan_id.is_empty(),
            typed::PlanMessage::Legacy(_) => false,
        };
        let rules: Vec<&str> = parsed.diagnostics.iter().map(|d| d.rule.id).collect();
        let allowed: &[&str] = if empty_id { &["SHAPE-PLAN-ID-EMPTY"] } else { &[] };
        prop_assert_eq!(rules, allowed.to_vec(), "{}", json);
        prop_assert_eq!(parsed.message, Some(message));
    }
}

// ---------------------------------------------------------------------------
// 5. Sessions are independent.

/// (op index in the full scenario, rule id) of each diagnostic about
/// `session`, in order.
fn session_diagnostics(
    diagnostics: &[Diagnostic],
    rendered: &Rendered,
    session: &str,
    index_of: impl Fn(usize) -> usize,
) -> Vec<(usize, &'static str)> {
    diagnostics
        .iter()
        .filter(|d| d.session.as_deref() == Some(session))
        .map(|d| {
            let op = rendered.op_at_line(d.line).map_or(usize::MAX, &index_of);
            (op, d.rule.id)
        })
        .collect()
}

/// Scenarios whose violations are all about one of its sessions.
fn scenario_with_session_violations() -> impl Strategy<Value = Connection> {
    scenario_with_violations().prop_map(|mut scenario| {
        scenario.ops.retain(|op| match op {
            Op::Violation(v) => v.session().is_some(),
            _ => true,
        });
        scenario
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn splitting_sessions_into_separate_traces_keeps_each_sessions_diagnostics(
        scenario in scenario_with_session_violations()
    ) {
        let (rendered, report) = check(&scenario);
        for (session, part, indices) in scenario.split_by_session() {
            let name = gen::session_name(session);
            let (part_rendered, part_report) = check(&part);
            let whole = session_diagnostics(&report.diagnostics, &rendered, &name, |i| i);
            let alone = session_diagnostics(&part_report.diagnostics, &part_rendered, &name, |i| {
                indices.get(i).copied().unwrap_or(usize::MAX)
            });
            prop_assert_eq!(
                &whole,
                &alone,
                "session {} together:\n{}\nalone:\n{}",
                name,
                describe(&rendered, &report.diagnostics),
                describe(&part_rendered, &part_report.diagnostics)
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 6. The FULL-DELTA heuristic: a warning, so it must not cry wolf.

/// Entries with few distinct contents, so twins are common.
fn plain_entries(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<typed::PlanEntry>> {
    let status = prop_oneof![
        Just(typed::Status::Pending),
        Just(typed::Status::InProgress),
        Just(typed::Status::Completed),
        Just(typed::Status::Cancelled),
    ];
    prop::collection::vec(
        (prop::sample::select(vec!["a", "b", "c"]), status).prop_map(|(content, status)| {
            typed::PlanEntry {
                content: content.into(),
                priority: typed::Priority::Medium,
                status,
                meta: None,
            }
        }),
        len,
    )
}

/// Runs updates of one plan through FULL-DELTA; the indexes of the updates
/// warned about, and the most entries it remembered at once.
fn delta_warnings(updates: &[Vec<typed::PlanEntry>]) -> (Vec<usize>, usize) {
    use acp_plan_conformance::rules::full::{check_update, Suspicion};
    let mut suspicion = Suspicion::default();
    let mut warned = Vec::new();
    let mut most = 0;
    for k in 1..updates.len() {
        let outcome = check_update(
            &updates[k - 1],
            &suspicion,
            &updates[k],
            k as u64 + 1,
            "/params/update/entries",
        );
        if outcome.diagnostic.is_some() {
            warned.push(k);
        }
        suspicion = outcome.suspicion;
        most = most.max(suspicion.len());
    }
    (warned, most)
}

fn count_content(entries: &[typed::PlanEntry], content: &str) -> usize {
    entries.iter().filter(|e| e.content == content).count()
}

proptest! {
    #![proptest_config(config())]

    /// Repeating a list, extending it, or deleting some of its tasks while
    /// repeating the others unchanged (as real agents do) is a full list,
    /// whatever came before and comes after.
    #[test]
    fn full_lists_never_look_like_deltas(
        previous in plain_entries(1..7),
        keep in prop::collection::vec(any::<bool>(), 7),
        added in plain_entries(0..3),
    ) {
        let mut extended = previous.clone();
        extended.extend(added);
        let kept: Vec<typed::PlanEntry> = previous
            .iter()
            .zip(&keep)
            .filter(|(_, keep)| **keep)
            .map(|(e, _)| e.clone())
            .collect();
        let updates = [previous.clone(), previous.clone(), extended, previous.clone(), kept.clone(), previous.clone()];
        let (warned, most) = delta_warnings(&updates[..5]);
        prop_assert!(warned.is_empty(), "{:?}", updates);
        prop_assert_eq!(most, 0, "a full list is never suspected");
        // Even the original list coming back after the deletion is a
        // re-addition, not evidence: the deletion repeated tasks unchanged.
        // (With every task deleted, the list was emptied: a full list too.)
        prop_assert!(delta_warnings(&updates).0.is_empty());
    }

    /// Every warning rests on evidence: an unfinished entry that an earlier
    /// update left out (its content sent fewer times than before) is in the
    /// warned update with the same content and status. Arbitrary updates of
    /// few contents, so twins, returns and replans are common.
    #[test]
    fn every_delta_warning_has_evidence(updates in prop::collection::vec(plain_entries(0..5), 2..8)) {
        let (warned, most) = delta_warnings(&updates);
        for k in warned {
            let evidence = (1..k).any(|j| {
                updates[j - 1].iter().any(|gone| {
                    !gone.status.is_finished()
                        && count_content(&updates[j], &gone.content)
                            < count_content(&updates[j - 1], &gone.content)
                        && updates[k].contains(gone)
                })
            });
            prop_assert!(evidence, "update {} of {:?}", k, updates);
        }
        // Entries only move between the plan and what is remembered.
        let longest = updates.iter().map(Vec::len).max().unwrap_or(0);
        prop_assert!(most <= longest);
    }

    /// A replan that drops tasks for good (every update keeps some of the
    /// tasks, with any statuses, and never brings a dropped one back) is
    /// never warned about, however much it looks like a delta.
    #[test]
    fn replans_that_drop_tasks_are_silent(
        statuses in prop::collection::vec(prop::collection::vec(0usize..4, 6), 2..6),
        keep in prop::collection::vec(prop::collection::vec(any::<bool>(), 6), 6),
    ) {
        let all = [
            typed::Status::Pending,
            typed::Status::InProgress,
            typed::Status::Completed,
            typed::Status::Cancelled,
        ];
        let mut alive: Vec<usize> = (0..6).collect();
        let mut updates = Vec::new();
        for (step, statuses) in statuses.iter().enumerate() {
            if step > 0 {
                alive.retain(|&task| keep[step][task]);
            }
            updates.push(
                alive
                    .iter()
                    .map(|&task| typed::PlanEntry {
                        content: format!("task {task}"),
                        priority: typed::Priority::High,
                        status: all[statuses[task]].clone(),
                        meta: None,
                    })
                    .collect::<Vec<_>>(),
            );
        }
        prop_assert!(delta_warnings(&updates).0.is_empty(), "{:?}", updates);
    }

    /// The shape the rule is for: an update carries only the tasks that
    /// changed (a delta), possibly several in a row, and then the full list
    /// comes with the tasks no delta touched, unchanged. Caught every time.
    /// (Built so that task 0 is unfinished and no delta touches it, and
    /// every delta changes at least one task: no case is rejected.)
    #[test]
    fn true_deltas_are_caught(
        mut statuses in prop::collection::vec(0usize..4, 2..7),
        first in 0usize..2,
        deltas in prop::collection::vec(
            (prop::collection::vec(any::<bool>(), 7), any::<prop::sample::Index>()),
            1..4,
        ),
        shift in 1usize..4,
    ) {
        let all = [
            typed::Status::Pending,
            typed::Status::InProgress,
            typed::Status::Completed,
            typed::Status::Cancelled,
        ];
        let entry = |i: usize, s: usize| typed::PlanEntry {
            content: format!("task {i}"),
            priority: typed::Priority::High,
            status: all[s % 4].clone(),
            meta: None,
        };
        statuses[0] = first;
        let tasks = statuses.len();
        let mut current = statuses.clone();
        let mut updates = vec![current.iter().enumerate().map(|(i, s)| entry(i, *s)).collect::<Vec<_>>()];
        for (mask, pick) in &deltas {
            let forced = 1 + pick.index(tasks - 1);
            let delta: Vec<typed::PlanEntry> = (1..tasks)
                .filter(|&i| mask[i] || i == forced)
                .map(|i| {
                    current[i] += shift;
                    entry(i, current[i])
                })
                .collect();
            updates.push(delta);
        }
        updates.push(current.iter().enumerate().map(|(i, s)| entry(i, *s)).collect());
        let (warned, _) = delta_warnings(&updates);
        prop_assert_eq!(warned, vec![updates.len() - 1], "{:?}", updates);
    }
}

// ---------------------------------------------------------------------------
// Readings: repeats, escapes and batches (issue 11).

proptest! {
    #![proptest_config(config())]

    /// Repeat a random member of a random message (with its own value, then
    /// with another member's value) and escape random characters of its
    /// strings: see `acp_plan_conformance::fuzzing::readings`.
    #[test]
    fn repeats_and_escapes_never_blame_the_other_party(
        scenario in scenario(),
        line in any::<usize>(),
        choice in any::<usize>(),
        other in any::<usize>(),
        seed in any::<u64>(),
    ) {
        let mut scenario = scenario;
        scenario.framing = Framing::Envelope;
        let text = scenario.render().text();
        acp_plan_conformance::fuzzing::readings::check(&text, line, choice, other, seed)
            .map_err(|v| TestCaseError::fail(v.0))?;
    }

    /// Bare lines cut into batches: every message is checked as before, at
    /// its index in its batch (and v1 and the draft note each batch; v2 warns
    /// of each lifecycle-sensitive request batched).
    #[test]
    fn a_trace_cut_into_batches_is_checked_message_by_message(
        scenario in scenario(),
        cuts in prop::collection::vec(any::<bool>(), 64),
    ) {
        let mut scenario = scenario;
        scenario.framing = Framing::Bare;
        let rendered = scenario.render();
        let (_, report) = check(&scenario);
        // Group lines: a cut after line i when cuts[i] says so.
        let mut batches: Vec<Vec<usize>> = vec![Vec::new()];
        for i in 0..rendered.lines.len() {
            batches.last_mut().unwrap().push(i);
            if cuts[i % cuts.len()] {
                batches.push(Vec::new());
            }
        }
        batches.retain(|b| !b.is_empty());
        let mut place = vec![(0u64, 0usize); rendered.lines.len()];
        let mut text = String::new();
        for (b, members) in batches.iter().enumerate() {
            let elements: Vec<&str> = members.iter().map(|&i| rendered.lines[i].as_str()).collect();
            text.push_str(&format!("[{}]\n", elements.join(",")));
            for (index, &i) in members.iter().enumerate() {
                place[i] = (b as u64 + 1, index);
            }
        }
        let batched = check_reader("batched", text.as_bytes(), scenario.config()).expect("reading from memory");
        let mut expected: Vec<(&str, u64, String)> = report
            .diagnostics
            .iter()
            .map(|d| {
                let (line, index) = place[d.line as usize - 1];
                (d.rule.id, line, format!("/{index}{}", d.pointer))
            })
            .collect();
        // A batch is judged by the revision the trace has, before the
        // handshake's answer too (without `--spec` the lines up to it are
        // read ahead for it). Under v2, each lifecycle-sensitive request in
        // a batch is a warning.
        for (b, members) in batches.iter().enumerate() {
            if !scenario.revision.spelling().batches {
                expected.push(("ENV-BATCH", b as u64 + 1, String::new()));
                continue;
            }
            for (index, &i) in members.iter().enumerate() {
                let message: serde_json::Value = serde_json::from_str(&rendered.lines[i]).expect("a rendered message");
                let method = message["method"].as_str().unwrap_or_default();
                if acp_plan_conformance::rules::env::LIFECYCLE_SENSITIVE.contains(&method) {
                    expected.push(("ENV-BATCH-LIFECYCLE", b as u64 + 1, format!("/{index}/method")));
                }
            }
        }
        expected.sort();
        let mut got: Vec<(&str, u64, String)> = batched
            .diagnostics
            .iter()
            .map(|d| (d.rule.id, d.line, d.pointer.clone()))
            .collect();
        got.sort();
        prop_assert_eq!(got, expected, "{}", text);
        prop_assert_eq!(batched.state, report.state);
    }
}
