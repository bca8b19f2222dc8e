//! The fast path of the strict parser: a plan update that breaks no SHAPE
//! rule, read straight from its JSON text into the typed message through
//! borrowed structures, without building a `serde_json::Map` first.
//!
//! It accepts only what [`super::parse_plan_update`] accepts without a single
//! diagnostic, and returns the message that the strict parser returns. Every
//! doubt (an unknown or duplicated member, a `null` where a value belongs, a
//! value outside the revision, an empty id, a custom plan type) makes it
//! return `None`, and the caller runs the strict parser, which names every
//! violation with its pointer. The decisions therefore stay in one place.

use super::is_absolute_uri;
use crate::spec::messages::{
    LegacyPlan, Meta, Plan, PlanContent, PlanEntry, PlanMessage, PlanRemoved, PlanUpdate, Priority,
    Status,
};
use crate::spec::{Revision, Spelling};
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;
use std::marker::PhantomData;

/// Parse the `update` object of a plan-related `session/update` when it is
/// well-formed for `revision`; `None` sends the caller to the strict parser.
pub(crate) fn parse_well_formed(
    update: &str,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Option<PlanMessage> {
    parse(Text(update), kind, revision, max_entries)
        .ok()
        .flatten()
}

/// [`parse_well_formed`] on the `update` member of `session/update` params
/// (a JSON object whose members were read already, so none repeats), in the
/// same pass as the params.
pub(crate) fn parse_well_formed_params(
    params: &str,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Option<PlanMessage> {
    parse(InParams(params), kind, revision, max_entries)
        .ok()
        .flatten()
}

/// [`parse_well_formed`] on the rest of an `update` object being read, whose
/// first member, `sessionUpdate`, was read already (another `sessionUpdate`
/// fails the read). An error is the reader's, and must end the whole read;
/// `Ok(None)` is an update that was read but is not well-formed.
pub(crate) fn parse_well_formed_rest<'de, A: MapAccess<'de>>(
    rest: A,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Result<Option<PlanMessage>, A::Error> {
    parse(Rest(rest), kind, revision, max_entries)
}

/// Where the update's members come from.
trait Source<'de> {
    /// What `sessionUpdate` may be: anything, or not there at all.
    type Kind: Deserialize<'de> + Default;
    type Error;
    fn read<W: Deserialize<'de>>(self) -> Result<W, Self::Error>;
}

/// The update object's text.
struct Text<'a>(&'a str);

impl<'a> Source<'a> for Text<'a> {
    type Kind = IgnoredAny;
    type Error = serde_json::Error;
    fn read<W: Deserialize<'a>>(self) -> Result<W, Self::Error> {
        serde_json::from_str::<Object<W>>(self.0).map(|o| o.0)
    }
}

/// The text of params whose `update` is the object.
struct InParams<'a>(&'a str);

impl<'a> Source<'a> for InParams<'a> {
    type Kind = IgnoredAny;
    type Error = serde_json::Error;
    fn read<W: Deserialize<'a>>(self) -> Result<W, Self::Error> {
        /// Params members other than `update` are not this parser's business.
        #[derive(Deserialize)]
        struct Params<W> {
            update: Object<W>,
        }
        serde_json::from_str::<Params<W>>(self.0).map(|p| p.update.0)
    }
}

/// The members after `sessionUpdate`.
struct Rest<A>(A);

impl<'de, A: MapAccess<'de>> Source<'de> for Rest<A> {
    type Kind = Repeated;
    type Error = A::Error;
    fn read<W: Deserialize<'de>>(self) -> Result<W, Self::Error> {
        W::deserialize(de::value::MapAccessDeserializer::new(self.0))
    }
}

/// A `sessionUpdate` after the first: never accepted.
#[derive(Default)]
struct Repeated;

impl<'de> Deserialize<'de> for Repeated {
    fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Err(de::Error::duplicate_field("sessionUpdate"))
    }
}

/// `Ok(None)`: read, but not well-formed.
fn parse<'de, S: Source<'de>>(
    source: S,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Result<Option<PlanMessage>, S::Error> {
    let spelling = revision.spelling();
    let message = match kind {
        "plan" => {
            let wire = source.read::<LegacyWire<'de, S::Kind>>()?;
            entries(wire.entries, spelling, max_entries).map(|entries| {
                PlanMessage::Legacy(LegacyPlan {
                    entries,
                    meta: wire.meta,
                })
            })
        }
        "plan_update" => {
            let wire = source.read::<UpdateWire<'de, S::Kind>>()?;
            let Object(plan) = wire.plan;
            let entries = plan
                .entries
                .map(|items| entries(items, spelling, max_entries));
            let content = match plan.path {
                Some(_) => None,
                None => plan_content(&plan.type_name, entries, plan.uri, plan.content, spelling),
            };
            match (plan_id(plan.id, plan.plan_id, spelling), content) {
                (Some(id), Some(content)) => Some(PlanMessage::Update(PlanUpdate {
                    plan: Plan {
                        id,
                        content,
                        meta: plan.meta,
                    },
                    meta: wire.meta,
                })),
                _ => None,
            }
        }
        "plan_removed" => {
            let wire = source.read::<RemovedWire<S::Kind>>()?;
            plan_id(wire.id, wire.plan_id, spelling).map(|plan_id| {
                PlanMessage::Removed(PlanRemoved {
                    plan_id,
                    meta: wire.meta,
                })
            })
        }
        _ => None,
    };
    Ok(message)
}

/// The content of a `plan_update`'s plan from the members it carries
/// (`entries` already typed: `Some(None)` when they are not well-formed);
/// `None` for a custom type or members that belong to another type.
pub(crate) fn plan_content(
    type_name: &str,
    entries: Option<Option<Vec<PlanEntry>>>,
    uri: Option<String>,
    content: Option<String>,
    spelling: &Spelling,
) -> Option<PlanContent> {
    match (type_name, entries, uri, content) {
        ("items", Some(entries), None, None) => {
            entries.map(|entries| PlanContent::Items { entries })
        }
        ("file", None, Some(uri), None)
            if spelling.plan_types.contains(&"file")
                && (!spelling.absolute_file_uri || is_absolute_uri(&uri)) =>
        {
            Some(PlanContent::File { uri })
        }
        // A `path` is read the exact way (the wire struct declines it).
        ("markdown", None, None, Some(content)) if spelling.plan_types.contains(&"markdown") => {
            Some(PlanContent::Markdown {
                content,
                path: None,
            })
        }
        // Custom types, and members that belong to another type.
        _ => None,
    }
}

/// The revision's id key, non-empty, and not the other revisions' key.
pub fn plan_id(id: Option<String>, plan_id: Option<String>, spelling: &Spelling) -> Option<String> {
    let (own, other) = match spelling.plan_id_key {
        "planId" => (plan_id, id),
        "id" => (id, plan_id),
        _ => return None,
    };
    match (own, other) {
        (Some(own), None) if !own.is_empty() => Some(own),
        _ => None,
    }
}

fn entries(
    items: Vec<Object<EntryWire<'_>>>,
    spelling: &Spelling,
    max_entries: usize,
) -> Option<Vec<PlanEntry>> {
    if items.len() > max_entries {
        return None;
    }
    items
        .into_iter()
        .map(|Object(entry)| {
            plan_entry(
                entry.content,
                &entry.priority,
                &entry.status,
                entry.meta,
                spelling,
            )
        })
        .collect()
}

/// One entry, if its priority and status are the revision's.
pub(crate) fn plan_entry(
    content: String,
    priority: &str,
    status: &str,
    meta: Meta,
    spelling: &Spelling,
) -> Option<PlanEntry> {
    let priority = allowed(priority, spelling.priorities, spelling)
        .then(|| Priority::known(priority).unwrap_or_else(|| Priority::Custom(priority.into())))?;
    let status = allowed(status, spelling.statuses, spelling)
        .then(|| Status::known(status).unwrap_or_else(|| Status::Custom(status.into())))?;
    Some(PlanEntry {
        priority,
        status,
        content,
        meta,
    })
}

/// The strict parser's test for `priority` and `status` values.
fn allowed(value: &str, values: &[&str], spelling: &Spelling) -> bool {
    values.contains(&value) || (spelling.open_enums && value.starts_with('_'))
}

// `_kind` is `sessionUpdate`, which the caller read to pick the type: here
// it may be anything ([`Text`], [`InParams`]) or must not be there ([`Rest`]).

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LegacyWire<'a, K> {
    #[serde(rename = "sessionUpdate", default)]
    _kind: K,
    #[serde(borrow)]
    entries: Vec<Object<EntryWire<'a>>>,
    #[serde(rename = "_meta", default, deserialize_with = "meta")]
    meta: Meta,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateWire<'a, K> {
    #[serde(rename = "sessionUpdate", default)]
    _kind: K,
    #[serde(borrow)]
    plan: Object<PlanWire<'a>>,
    #[serde(rename = "_meta", default, deserialize_with = "meta")]
    meta: Meta,
}

/// Every member any plan type may carry; which ones may appear together is
/// decided after reading. `Some` means present (a `null` fails the read).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanWire<'a> {
    #[serde(rename = "type", borrow)]
    type_name: Cow<'a, str>,
    #[serde(default, deserialize_with = "present")]
    id: Option<String>,
    #[serde(rename = "planId", default, deserialize_with = "present")]
    plan_id: Option<String>,
    #[serde(default, borrow, deserialize_with = "present")]
    entries: Option<Vec<Object<EntryWire<'a>>>>,
    #[serde(default, deserialize_with = "present")]
    uri: Option<String>,
    #[serde(default, deserialize_with = "present")]
    content: Option<String>,
    /// A markdown plan's file (schema 1.20.0): read the exact way, which
    /// judges whether it is absolute.
    #[serde(default, deserialize_with = "present")]
    path: Option<de::IgnoredAny>,
    #[serde(rename = "_meta", default, deserialize_with = "meta")]
    meta: Meta,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RemovedWire<K> {
    #[serde(rename = "sessionUpdate", default)]
    _kind: K,
    #[serde(default, deserialize_with = "present")]
    id: Option<String>,
    #[serde(rename = "planId", default, deserialize_with = "present")]
    plan_id: Option<String>,
    #[serde(rename = "_meta", default, deserialize_with = "meta")]
    meta: Meta,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryWire<'a> {
    content: String,
    #[serde(borrow)]
    priority: Cow<'a, str>,
    #[serde(borrow)]
    status: Cow<'a, str>,
    #[serde(rename = "_meta", default, deserialize_with = "meta")]
    meta: Meta,
}

/// A struct read only from a JSON object: serde would also read one from an
/// array, which the strict parser rejects.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Object)
            }
        }
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

/// A member that is there, whatever its value's type says about `null`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `_meta` as the strict parser keeps it: an object or `null`; anything else
/// is a SHAPE-META diagnostic, and a repeated member name inside it an
/// ENV-DUPLICATE-KEY warning, so either fails the read (the exact path
/// reports them).
fn meta<'de, D: Deserializer<'de>>(d: D) -> Result<Meta, D::Error> {
    let raw = <&'de serde_json::value::RawValue>::deserialize(d)?;
    plain_meta(raw.get()).ok_or_else(|| {
        de::Error::custom("`_meta` is not an object or null, or holds something to remark on")
    })
}

/// `_meta`'s text as the strict parser keeps it, or `None` when the strict
/// parser has something to say about it.
pub(crate) fn plain_meta(text: &str) -> Option<Meta> {
    // Kept as text, never built; anything the exact path would remark on
    // (a repeated name, a number beyond f64, an unpaired surrogate) sends
    // the update there.
    if !matches!(text.as_bytes().first(), Some(b'{' | b'n')) {
        return None;
    }
    if !crate::trace::is_plain(text) {
        return None;
    }
    Some(Some(crate::spec::messages::RawMeta::new(text)))
}

#[cfg(test)]
mod tests {
    use super::super::parse_plan_update;
    use super::*;
    use crate::spec::PlanObject;
    use proptest::prelude::*;
    use serde_json::{Map, Value};
    use std::collections::BTreeSet;

    const MAX_ENTRIES: usize = 3;

    /// The member names a serde-derived struct reads (`deserialize_struct`'s
    /// field list), caught by a deserializer that reads nothing.
    fn wire_members<'de, W: Deserialize<'de>>() -> BTreeSet<&'static str> {
        struct Fields(Option<&'static [&'static str]>);
        impl<'de> Deserializer<'de> for &mut Fields {
            type Error = de::value::Error;
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0 = Some(fields);
                Err(de::Error::custom("fields read"))
            }
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(de::Error::custom("not a struct"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
                bytes byte_buf option unit unit_struct newtype_struct seq tuple
                tuple_struct map enum identifier ignored_any
            }
        }
        let mut fields = Fields(None);
        let _ = W::deserialize(&mut fields);
        fields.0.expect("a struct").iter().copied().collect()
    }

    /// The names `spec` gives the members of `objects`, the plan id under
    /// every revision's key (the fast path reads both and checks the key).
    fn spec_members(objects: &[PlanObject]) -> BTreeSet<&'static str> {
        Revision::ALL
            .into_iter()
            .flat_map(|r| {
                objects
                    .iter()
                    .flat_map(move |&o| r.spelling().member_names(o))
            })
            .collect()
    }

    #[test]
    fn the_wire_structs_read_the_members_spec_allows() {
        use PlanObject::*;
        type K = IgnoredAny;
        assert_eq!(
            wire_members::<LegacyWire<K>>(),
            spec_members(&[LegacyUpdate])
        );
        assert_eq!(wire_members::<UpdateWire<K>>(), spec_members(&[PlanUpdate]));
        assert_eq!(
            wire_members::<RemovedWire<K>>(),
            spec_members(&[PlanRemoved])
        );
        assert_eq!(
            wire_members::<PlanWire>(),
            spec_members(&[ItemsPlan, FilePlan, MarkdownPlan])
        );
        assert_eq!(wire_members::<EntryWire>(), spec_members(&[Entry]));
        // A new object fails to compile here until it has its wire struct.
        for object in PlanObject::ALL {
            let wire = match object {
                LegacyUpdate => wire_members::<LegacyWire<K>>(),
                PlanUpdate => wire_members::<UpdateWire<K>>(),
                PlanRemoved => wire_members::<RemovedWire<K>>(),
                ItemsPlan | FilePlan | MarkdownPlan => wire_members::<PlanWire>(),
                Entry => wire_members::<EntryWire>(),
            };
            assert!(spec_members(&[object]).is_subset(&wire), "{object:?}");
        }
    }

    /// The strict parser's verdict when it has nothing to say, else `None`.
    fn strict(update: &str, kind: &str, revision: Revision) -> Option<PlanMessage> {
        let map: Map<String, Value> = serde_json::from_str(update).ok()?;
        let parsed = parse_plan_update(&map, kind, revision, MAX_ENTRIES);
        if parsed.diagnostics.is_empty() {
            parsed.message
        } else {
            None
        }
    }

    #[test]
    fn well_formed_updates_take_the_fast_path_in_every_revision() {
        for revision in Revision::ALL {
            let key = revision.spelling().plan_id_key;
            let (priority, status) = if revision.spelling().open_enums {
                ("_urgent", "cancelled")
            } else {
                ("high", "completed")
            };
            let entry = format!(
                r#"{{"status":"{status}","content":"a\"b","priority":"{priority}","_meta":{{"k":[1]}}}}"#
            );
            let mut updates = vec![
                (
                    "plan_update",
                    format!(
                        r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","{key}":"p","entries":[{entry},{entry}]}},"_meta":null}}"#
                    ),
                ),
                (
                    "plan_update",
                    format!(
                        r##"{{"sessionUpdate":"plan_update","plan":{{"type":"markdown","{key}":"p","content":"# x"}}}}"##
                    ),
                ),
                (
                    "plan_removed",
                    format!(r#"{{"sessionUpdate":"plan_removed","{key}":"p"}}"#),
                ),
            ];
            if revision.spelling().legacy_plan {
                updates.push((
                    "plan",
                    format!(r#"{{"sessionUpdate":"plan","entries":[{entry}]}}"#),
                ));
            }
            if revision.spelling().plan_types.contains(&"file") {
                updates.push((
                    "plan_update",
                    format!(
                        r#"{{"plan":{{"uri":"file:///p.md","{key}":"p","type":"file","_meta":{{}}}},"sessionUpdate":"plan_update"}}"#
                    ),
                ));
            }
            for (kind, update) in updates {
                let fast = parse_well_formed(&update, kind, revision, MAX_ENTRIES);
                assert!(fast.is_some(), "{revision}: {update}");
                assert_eq!(
                    fast,
                    strict(&update, kind, revision),
                    "{revision}: {update}"
                );
            }
        }
    }

    #[test]
    fn anything_the_strict_parser_remarks_on_goes_to_it() {
        let cases = [
            (
                "plan",
                r#"{"sessionUpdate":"plan","entries":[["a","high","pending"]]}"#,
            ),
            (
                "plan",
                r#"{"sessionUpdate":"plan","entries":[],"entries":[]}"#,
            ),
            ("plan", r#"{"sessionUpdate":"plan","entries":[],"_meta":3}"#),
            (
                "plan",
                r#"{"sessionUpdate":"plan","entries":[],"title":"x"}"#,
            ),
            (
                "plan",
                r#"{"sessionUpdate":"plan","entries":[{},{},{},{}]}"#,
            ),
            (
                "plan_removed",
                r#"{"sessionUpdate":"plan_removed","planId":""}"#,
            ),
            (
                "plan_removed",
                r#"{"sessionUpdate":"plan_removed","planId":"p","id":null}"#,
            ),
            (
                "plan_removed",
                r#"{"sessionUpdate":"plan_removed","id":"p"}"#,
            ),
            (
                "plan_update",
                r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"x","uri":null}}"#,
            ),
            (
                "plan_update",
                r#"{"sessionUpdate":"plan_update","plan":{"type":"_x","planId":"p"}}"#,
            ),
            (
                "plan_update",
                r#"{"sessionUpdate":"plan_update","plan":["markdown","p","x"]}"#,
            ),
            (
                "plan_update",
                r#"{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p","uri":"p.md"}}"#,
            ),
        ];
        for (kind, update) in cases {
            assert_eq!(
                parse_well_formed(update, kind, Revision::V2, MAX_ENTRIES),
                None,
                "{update}"
            );
        }
    }

    /// A JSON object whose members each appear with probability `p` (always
    /// at 1), in any order, with the first one repeated with probability
    /// `repeat`.
    fn object(
        members: Vec<(&'static str, f64, BoxedStrategy<String>)>,
        repeat: f64,
    ) -> BoxedStrategy<String> {
        let parts: Vec<BoxedStrategy<Option<String>>> = members
            .into_iter()
            .map(|(key, p, value)| {
                let member = value.prop_map(move |v| format!("\"{key}\":{v}"));
                if p >= 1.0 {
                    member.prop_map(Some).boxed()
                } else {
                    prop::option::weighted(p, member).boxed()
                }
            })
            .collect();
        (parts, prop::bool::weighted(repeat))
            .prop_flat_map(|(parts, repeat)| {
                let mut parts: Vec<String> = parts.into_iter().flatten().collect();
                if repeat && !parts.is_empty() {
                    parts.push(parts[0].clone());
                }
                Just(parts).prop_shuffle()
            })
            .prop_map(|parts| format!("{{{}}}", parts.join(",")))
            .boxed()
    }

    /// Mostly `good` values, sometimes `bad` ones.
    fn value(good: &[&'static str], bad: &[&'static str]) -> BoxedStrategy<String> {
        let good = prop::sample::select(good.to_vec()).prop_map(String::from);
        let bad = prop::sample::select(bad.to_vec()).prop_map(String::from);
        prop_oneof![8 => good, 1 => bad].boxed()
    }

    fn meta() -> BoxedStrategy<String> {
        value(
            &["{}", "null", r#"{"k":[1,{"x":null}]}"#],
            &["3", "[]", "\"m\""],
        )
    }

    fn plan_id() -> BoxedStrategy<String> {
        value(&["\"p\"", "\"q\""], &["\"\"", "null", "1"])
    }

    fn entries(repeat: f64) -> BoxedStrategy<String> {
        let entry = object(
            vec![
                (
                    "content",
                    0.95,
                    value(&["\"a\"", "\"\\u0062\""], &["null", "1"]),
                ),
                (
                    "priority",
                    0.95,
                    value(
                        &["\"high\"", "\"medium\"", "\"low\""],
                        &["\"_p\"", "\"urgent\"", "null"],
                    ),
                ),
                (
                    "status",
                    0.95,
                    value(
                        &["\"pending\"", "\"in_progress\"", "\"completed\""],
                        &["\"cancelled\"", "\"_s\"", "\"done\""],
                    ),
                ),
                ("_meta", 0.2, meta()),
                ("id", 0.03, plan_id()),
            ],
            repeat,
        );
        let list =
            prop::collection::vec(prop_oneof![20 => entry, 1 => Just("[]".to_owned())], 0..5)
                .prop_map(|e| format!("[{}]", e.join(",")));
        prop_oneof![20 => list, 1 => Just("{}".to_owned()), 1 => Just("null".to_owned())].boxed()
    }

    /// Mostly the members of the plan's type, sometimes another type's.
    fn plan(repeat: f64) -> BoxedStrategy<String> {
        let type_name = value(&["items", "file", "markdown"], &["_custom", "bogus"]);
        let id_key = prop::sample::select(vec!["planId", "id"]);
        (type_name, id_key)
            .prop_flat_map(move |(type_name, id_key)| {
                let (other_key, p) = if id_key == "id" {
                    ("planId", 0.05)
                } else {
                    ("id", 0.05)
                };
                let own = |member: &str| if member == type_name { 0.95 } else { 0.05 };
                object(
                    vec![
                        ("type", 0.97, Just(format!("\"{type_name}\"")).boxed()),
                        (id_key, 0.95, plan_id()),
                        (other_key, p, plan_id()),
                        ("entries", own("items"), entries(repeat)),
                        (
                            "uri",
                            own("file"),
                            value(
                                &["\"file:///p.md\"", "\"https://x/y\""],
                                &["\"p.md\"", "null"],
                            ),
                        ),
                        (
                            "content",
                            own("markdown"),
                            value(&["\"# x\"", "\"\""], &["null", "[]"]),
                        ),
                        ("_meta", 0.2, meta()),
                        ("title", 0.03, Just("\"t\"".to_owned()).boxed()),
                    ],
                    repeat,
                )
            })
            .boxed()
    }

    fn update(repeat: f64) -> impl Strategy<Value = (&'static str, String)> {
        let kind = prop::sample::select(vec!["plan", "plan_update", "plan_removed"]);
        kind.prop_flat_map(move |kind| {
            let tag = Just(format!("\"{kind}\"")).boxed();
            let members = match kind {
                "plan" => vec![
                    ("sessionUpdate", 1.0, tag),
                    ("entries", 0.95, entries(repeat)),
                    ("_meta", 0.2, meta()),
                    ("plan", 0.03, plan(repeat)),
                ],
                "plan_update" => vec![
                    ("sessionUpdate", 1.0, tag),
                    (
                        "plan",
                        0.95,
                        prop_oneof![20 => plan(repeat), 1 => Just("[]".to_owned())].boxed(),
                    ),
                    ("_meta", 0.2, meta()),
                    ("entries", 0.03, entries(repeat)),
                ],
                _ => vec![
                    ("sessionUpdate", 1.0, tag),
                    ("planId", 0.6, plan_id()),
                    ("id", 0.4, plan_id()),
                    ("_meta", 0.2, meta()),
                ],
            };
            object(members, repeat).prop_map(move |update| (kind, update))
        })
    }

    proptest! {
        /// Whatever the fast path accepts, the strict parser accepts without
        /// a word and turns into the same message.
        #[test]
        fn fast_path_accepts_only_what_the_strict_parser_does(
            (kind, update) in update(0.05),
            revision in prop::sample::select(Revision::ALL.to_vec()),
        ) {
            let fast = parse_well_formed(&update, kind, revision, MAX_ENTRIES);
            let params = format!(r#"{{"sessionId":"s","update":{update},"other":[{update}]}}"#);
            let in_params = parse_well_formed_params(&params, kind, revision, MAX_ENTRIES);
            prop_assert_eq!(&fast, &in_params);
            if let Some(fast) = fast {
                prop_assert_eq!(Some(fast), strict(&update, kind, revision), "{} {}", revision, update);
            }
        }

        /// Without repeated members, whatever the strict parser accepts
        /// without a word (but v2 custom plan types) takes the fast path.
        #[test]
        fn fast_path_takes_every_plain_well_formed_update(
            (kind, update) in update(0.0),
            revision in prop::sample::select(Revision::ALL.to_vec()),
        ) {
            let strict = strict(&update, kind, revision);
            let custom_type = matches!(
                &strict,
                Some(PlanMessage::Update(PlanUpdate { plan: Plan { content: PlanContent::Custom { .. }, .. }, .. }))
            );
            if strict.is_some() && !custom_type {
                let fast = parse_well_formed(&update, kind, revision, MAX_ENTRIES);
                prop_assert_eq!(fast, strict, "{} {}", revision, update);
            }
        }
    }
}
