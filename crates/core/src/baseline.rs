//! Baselines: failures a team accepts for now, so that a large existing
//! implementation can adopt the suite green and then ratchet.
//!
//! A baseline is a TOML file (docs/guide.md, "Baselines") of entries, each naming a
//! rule, optionally a scope (a glob over trace paths or scenario names), a
//! reason and an optional expiry date. [`judge`] matches the entries against a
//! finished run: a diagnostic whose rule and trace an entry covers is
//! *baselined* (still reported, no longer failing the run). An entry that has
//! expired, or that covers nothing any more, fails the run, so fixed problems
//! leave the baseline and cannot come back unnoticed.
//!
//! Matching is by rule and scope only, never by line or message: traces are
//! re-recorded, lines move, and messages get better.

use crate::catalog::Counts;
use crate::catalog::{Rule, Severity};
use crate::rules;
use crate::validate::TraceReport;
use chrono::NaiveDate;
use glob::{MatchOptions, Pattern};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::{self, Write};
use std::path::Path;

/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// `*` and `?` stay within one path segment; `**` crosses segments.
const SCOPE_MATCH: MatchOptions = MatchOptions {
    case_sensitive: true,
    require_literal_separator: true,
    require_literal_leading_dot: false,
};

/// A parsed baseline file.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// The file as named on the command line, for messages.
    pub file: String,
    /// The accepted failures, in the order of the file.
    pub entries: Vec<Entry>,
}

/// One accepted failure.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The rule whose diagnostics the entry accepts.
    pub rule: &'static Rule,
    /// Which traces (or scenarios) the entry covers; `None` covers all.
    pub scope: Option<Scope>,
    /// Why the failure is accepted (required in the file).
    pub reason: String,
    /// The last day (UTC) on which the entry is honoured.
    pub expires: Option<NaiveDate>,
    /// 1-based line of the entry's `[[expected]]` header in the file.
    pub line: u64,
}

/// A glob over trace names (see [`scope_name`]).
#[derive(Clone, Debug)]
pub struct Scope {
    /// The glob as written in the file.
    pub text: String,
    pattern: Pattern,
}

impl Scope {
    /// Reads a scope glob; the error says why it is not one.
    pub fn parse(text: &str) -> Result<Scope, String> {
        let pattern =
            Pattern::new(text).map_err(|e| format!("scope `{text}` is not a glob: {e}"))?;
        Ok(Scope {
            text: text.to_owned(),
            pattern,
        })
    }

    /// Whether the scope covers the trace or scenario called `name`.
    pub fn matches(&self, name: &str) -> bool {
        self.pattern.matches_with(&scope_name(name), SCOPE_MATCH)
    }
}

impl Entry {
    /// Whether the entry covers `rule` in the trace or scenario `name`.
    pub fn covers(&self, name: &str, rule: &str) -> bool {
        self.rule.id == rule && self.scope.as_ref().is_none_or(|s| s.matches(name))
    }

    /// Whether the entry has expired on `today`.
    pub fn expired(&self, today: NaiveDate) -> bool {
        self.expires.is_some_and(|last_day| today > last_day)
    }

    /// "CAP-PLAN-OPS in corpus/x.jsonl" or "CAP-PLAN-OPS in every trace".
    pub fn describe(&self) -> String {
        match &self.scope {
            Some(scope) => format!("{} in {}", self.rule.id, scope.text),
            None => format!("{} in every trace", self.rule.id),
        }
    }
}

/// A baseline and the day its expiry is judged on: what a live run
/// (`acp-plan agent`) applies to each scenario as it ends, and to the whole
/// run for its report. Scopes match scenario names there.
#[derive(Clone, Debug)]
pub struct AsOf {
    /// The baseline to apply.
    pub baseline: Baseline,
    /// The day (UTC) its expiry dates are judged on.
    pub today: NaiveDate,
}

impl AsOf {
    /// [`judge`] `traces` by this baseline as of its day.
    pub fn judge(&self, traces: &[TraceReport]) -> Judgement {
        judge(&self.baseline, traces, self.today)
    }
}

/// Why a baseline could not be used (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read baseline {file}: {source}")]
    Io {
        /// The file as named on the command line.
        file: String,
        /// The error reading it.
        source: std::io::Error,
    },
    /// The file is not a baseline (TOML syntax, format version or a member).
    #[error("baseline {file}: {message}")]
    Invalid {
        /// The file as named on the command line.
        file: String,
        /// What is wrong with it.
        message: String,
    },
    /// One entry is wrong (an unknown rule, a bad scope or date).
    #[error("baseline {file}:{line}: {message}")]
    Entry {
        /// The file as named on the command line.
        file: String,
        /// 1-based line of the entry in the file.
        line: u64,
        /// What is wrong with the entry.
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    version: Option<toml::Spanned<i64>>,
    #[serde(default)]
    expected: Vec<toml::Spanned<RawEntry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    rule: String,
    scope: Option<String>,
    reason: String,
    expires: Option<toml::Value>,
}

/// Read and parse a baseline file.
pub fn load(path: &Path) -> Result<Baseline, LoadError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
        file: file.clone(),
        source,
    })?;
    parse(&file, &text)
}

/// Parse baseline text; `file` names it in messages.
pub fn parse(file: &str, text: &str) -> Result<Baseline, LoadError> {
    let raw: RawFile = toml::from_str(text).map_err(|e| LoadError::Invalid {
        file: file.to_owned(),
        message: e.to_string().trim_end().to_owned(),
    })?;
    match raw.version.as_ref().map(|v| *v.get_ref()) {
        Some(v) if v == i64::from(FORMAT_VERSION) => {}
        Some(v) => {
            return Err(LoadError::Invalid {
                file: file.to_owned(),
                message: format!(
                    "version {v} is not supported (this acp-plan reads version {FORMAT_VERSION})"
                ),
            })
        }
        None => {
            return Err(LoadError::Invalid {
                file: file.to_owned(),
                message: format!("missing `version = {FORMAT_VERSION}` at the top"),
            })
        }
    }
    let mut entries = Vec::with_capacity(raw.expected.len());
    for spanned in raw.expected {
        let line = line_of(text, spanned.span().start);
        let fail = |message: String| LoadError::Entry {
            file: file.to_owned(),
            line,
            message,
        };
        let raw = spanned.into_inner();
        let rule = rules::find(&raw.rule).ok_or_else(|| {
            fail(format!(
                "unknown rule `{}` (`acp-plan rules` lists them)",
                raw.rule
            ))
        })?;
        if raw.reason.trim().is_empty() {
            return Err(fail(
                "`reason` is empty: say why the failure is accepted".into(),
            ));
        }
        let scope = raw
            .scope
            .as_deref()
            .map(Scope::parse)
            .transpose()
            .map_err(fail)?;
        let expires = raw
            .expires
            .map(|v| expiry_date(&v))
            .transpose()
            .map_err(fail)?;
        entries.push(Entry {
            rule,
            scope,
            reason: raw.reason,
            expires,
            line,
        });
    }
    Ok(Baseline {
        file: file.to_owned(),
        entries,
    })
}

/// `expires = 2026-09-30` (a TOML date) or `expires = "2026-09-30"`.
fn expiry_date(value: &toml::Value) -> Result<NaiveDate, String> {
    match value {
        toml::Value::Datetime(dt) if dt.time.is_none() && dt.offset.is_none() => {
            parse_date(&dt.to_string())
        }
        toml::Value::String(s) => parse_date(s),
        other => Err(format!(
            "`expires` must be a date like 2026-09-30, not {other}"
        )),
    }
}

/// A calendar date written `YYYY-MM-DD`.
pub fn parse_date(text: &str) -> Result<NaiveDate, String> {
    let shaped = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    let date = shaped
        .then(|| NaiveDate::parse_from_str(text, "%Y-%m-%d").ok())
        .flatten();
    date.ok_or_else(|| format!("`{text}` is not a date written YYYY-MM-DD"))
}

/// Today's date in UTC, against which expiry is judged by default.
pub fn today_utc() -> NaiveDate {
    chrono::Utc::now().date_naive()
}

fn line_of(text: &str, byte: usize) -> u64 {
    let upto = text.get(..byte).unwrap_or(text);
    upto.bytes().filter(|&b| b == b'\n').count() as u64 + 1
}

/// A trace name as scopes see it: `./` dropped, `/` as the separator, so a
/// baseline written on one machine matches on another.
pub fn scope_name(name: &str) -> String {
    let name = name.replace('\\', "/");
    let mut rest = name.as_str();
    while let Some(stripped) = rest.strip_prefix("./") {
        rest = stripped;
    }
    rest.to_owned()
}

/// What became of one entry in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryStatus {
    /// It covers at least one diagnostic and has not expired.
    Used,
    /// Its expiry date has passed: it covers nothing and fails the run.
    Expired,
    /// It covers no diagnostic: the problem is gone; it fails the run.
    Unused,
}

impl EntryStatus {
    /// The status as reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryStatus::Used => "used",
            EntryStatus::Expired => "expired",
            EntryStatus::Unused => "unused",
        }
    }
}

/// What became of one baseline entry in a run.
#[derive(Clone, Debug)]
pub struct EntryOutcome {
    /// The entry as read from the file.
    pub entry: Entry,
    /// Diagnostics the entry covers (kept for the report or not).
    pub matched: u64,
    /// Whether it was used, expired or unused.
    pub status: EntryStatus,
}

impl EntryOutcome {
    /// Whether the entry fails the run (expired or unused).
    pub fn is_problem(&self) -> bool {
        self.status != EntryStatus::Used
    }

    /// What is wrong with the entry and what to do, for reports.
    pub fn problem(&self) -> Option<String> {
        match self.status {
            EntryStatus::Used => None,
            EntryStatus::Expired => Some(format!(
                "baseline entry for {} expired on {}: fix what it covered or extend `expires`",
                self.entry.describe(),
                self.entry
                    .expires
                    .map(|d| d.to_string())
                    .unwrap_or_default()
            )),
            EntryStatus::Unused => Some(format!(
                "baseline entry for {} matches no failure: the problem is gone, remove the entry",
                self.entry.describe()
            )),
        }
    }
}

/// A baseline applied to a run.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The baseline file as named on the command line.
    pub file: String,
    /// The day (UTC) expiry dates were judged on.
    pub today: NaiveDate,
    /// In the order of the file.
    pub entries: Vec<EntryOutcome>,
    /// Per trace (same index as the run's traces): rule id → covering entry.
    covered: Vec<BTreeMap<&'static str, usize>>,
    /// Per trace: diagnostics baselined, by severity.
    baselined: Vec<Counts>,
}

impl Judgement {
    /// The entry that baselines `rule` in trace number `trace`, if any.
    pub fn covering(&self, trace: usize, rule: &str) -> Option<&EntryOutcome> {
        let index = *self.covered.get(trace)?.get(rule)?;
        self.entries.get(index)
    }

    /// Diagnostics baselined in trace number `trace`.
    pub fn baselined_in(&self, trace: usize) -> Counts {
        self.baselined.get(trace).copied().unwrap_or_default()
    }

    /// Diagnostics baselined in all traces.
    pub fn baselined_total(&self) -> Counts {
        let mut total = Counts::default();
        for c in &self.baselined {
            total.errors += c.errors;
            total.warnings += c.warnings;
            total.infos += c.infos;
        }
        total
    }

    /// Entries that fail the run (expired or unused).
    pub fn problems(&self) -> impl Iterator<Item = &EntryOutcome> {
        self.entries.iter().filter(|e| e.is_problem())
    }
}

/// Apply `baseline` to the finished `traces` as of `today`. The first
/// unexpired entry (in file order) that covers a rule in a trace takes all of
/// that rule's diagnostics there.
pub fn judge(baseline: &Baseline, traces: &[TraceReport], today: NaiveDate) -> Judgement {
    let mut matched = vec![0u64; baseline.entries.len()];
    let mut covered = Vec::with_capacity(traces.len());
    let mut baselined = Vec::with_capacity(traces.len());
    for trace in traces {
        let mut by_rule = BTreeMap::new();
        let mut counts = Counts::default();
        for (&rule_id, &count) in &trace.by_rule {
            let found = baseline
                .entries
                .iter()
                .enumerate()
                .find(|(_, e)| !e.expired(today) && e.covers(&trace.name, rule_id));
            let Some((index, entry)) = found else {
                continue;
            };
            by_rule.insert(entry.rule.id, index);
            if let Some(m) = matched.get_mut(index) {
                *m += count;
            }
            match entry.rule.severity() {
                Severity::Error => counts.errors += count,
                Severity::Warning => counts.warnings += count,
                Severity::Info => counts.infos += count,
                Severity::Incomplete => counts.incomplete += count,
            }
        }
        covered.push(by_rule);
        baselined.push(counts);
    }
    let entries = baseline
        .entries
        .iter()
        .zip(matched)
        .map(|(entry, matched)| EntryOutcome {
            status: if entry.expired(today) {
                EntryStatus::Expired
            } else if matched == 0 {
                EntryStatus::Unused
            } else {
                EntryStatus::Used
            },
            entry: entry.clone(),
            matched,
        })
        .collect();
    Judgement {
        file: baseline.file.clone(),
        today,
        entries,
        covered,
        baselined,
    }
}

/// How `acp-plan baseline write` words its entries.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Also accept warnings (for runs gated with `--deny-warnings`).
    pub warnings: bool,
    /// The reason written into every entry.
    pub reason: String,
    /// The expiry date written into every entry, if any.
    pub expires: Option<NaiveDate>,
}

/// The baseline that makes this run pass: one entry per failing rule per
/// trace, scoped to that trace, in trace order then rule id order.
pub fn write(traces: &[TraceReport], options: &WriteOptions) -> String {
    let mut out = String::new();
    out.push_str(
        "# acp-plan baseline: failures accepted for now (docs/guide.md, \"Baselines\").\n\
         # `acp-plan check --baseline FILE` (`agent`: scopes are scenario names) passes\n\
         # while every entry still matches a failure and has not expired; remove\n\
         # entries as the problems get fixed.\n",
    );
    let _ = writeln!(out, "version = {FORMAT_VERSION}");
    let mut written = 0;
    for trace in traces {
        for (&rule_id, &count) in &trace.by_rule {
            let Some(rule) = rules::find(rule_id) else {
                continue;
            };
            let fails = match rule.severity() {
                Severity::Error | Severity::Incomplete => true,
                Severity::Warning => options.warnings,
                Severity::Info => false,
            };
            if !fails {
                continue;
            }
            written += 1;
            out.push('\n');
            let severity = rule.severity().as_str();
            let _ = write!(
                out,
                "# {count} {severity}{}",
                if count == 1 { "" } else { "s" }
            );
            if let Some(first) = trace.diagnostics.iter().find(|d| d.rule.id == rule_id) {
                let _ = write!(
                    out,
                    ", first at line {}: {}",
                    first.line,
                    comment_text(&first.message)
                );
            }
            out.push('\n');
            out.push_str("[[expected]]\n");
            let _ = writeln!(out, "rule = {}", toml_string(rule_id));
            let scope = Pattern::escape(&scope_name(&trace.name));
            let _ = writeln!(out, "scope = {}", toml_string(&scope));
            let _ = writeln!(out, "reason = {}", toml_string(&options.reason));
            if let Some(date) = options.expires {
                let _ = writeln!(out, "expires = {date}");
            }
        }
    }
    if written == 0 {
        out.push_str("\n# Nothing to accept: this run passes without a baseline.\n");
    }
    out
}

fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// One line of a TOML comment: no control characters, not too long.
fn comment_text(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    crate::text::shorten(&flat, 160)
}

impl fmt::Display for EntryStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> NaiveDate {
        parse_date(text).unwrap()
    }

    #[test]
    fn dates_are_strict() {
        assert_eq!(date("2026-02-28").to_string(), "2026-02-28");
        for bad in [
            "2026-2-28",
            "2026-02-30",
            "26-02-28",
            "2026/02/28",
            "2026-02-28T00:00",
        ] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scope_names_ignore_dot_slash_and_backslashes() {
        assert_eq!(scope_name("./corpus/x.jsonl"), "corpus/x.jsonl");
        assert_eq!(scope_name(r"corpus\x.jsonl"), "corpus/x.jsonl");
    }

    #[test]
    fn globs_stay_within_segments_unless_doubled() {
        let one = Scope::parse("corpus/*.jsonl").unwrap();
        assert!(one.matches("corpus/a.jsonl"));
        assert!(one.matches("./corpus/a.jsonl"));
        assert!(!one.matches("corpus/traces/a.jsonl"));
        let deep = Scope::parse("corpus/**/*.jsonl").unwrap();
        assert!(deep.matches("corpus/traces/a.jsonl"));
        let literal = Scope::parse(&Pattern::escape("odd[1].jsonl")).unwrap();
        assert!(literal.matches("odd[1].jsonl"));
    }

    #[test]
    fn entries_carry_their_line_and_both_date_spellings() {
        let text = "version = 1\n\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\nexpires = 2026-01-31\n\n[[expected]]\nrule = \"ENV-UTF8\"\nscope = \"a/*.jsonl\"\nreason = \"r\"\nexpires = \"2026-02-01\"\n";
        let b = parse("b.toml", text).unwrap();
        assert_eq!(b.entries.len(), 2);
        assert_eq!(b.entries[0].line, 3);
        assert_eq!(b.entries[1].line, 8);
        assert_eq!(b.entries[0].expires, Some(date("2026-01-31")));
        assert_eq!(b.entries[1].expires, Some(date("2026-02-01")));
        assert!(b.entries[0].scope.is_none());
    }

    #[test]
    fn expiry_is_inclusive_of_the_last_day() {
        let text = "version = 1\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\nexpires = 2026-01-31\n";
        let entry = &parse("b.toml", text).unwrap().entries[0];
        assert!(!entry.expired(date("2026-01-31")));
        assert!(entry.expired(date("2026-02-01")));
    }

    #[test]
    fn bad_files_say_where_and_why() {
        let cases = [
            ("[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\n", "missing `version = 1`"),
            ("version = 2\n", "version 2 is not supported"),
            ("version = 1\n[[expected]]\nrule = \"NOPE\"\nreason = \"r\"\n", "b.toml:2: unknown rule `NOPE`"),
            ("version = 1\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \" \"\n", "b.toml:2: `reason` is empty"),
            ("version = 1\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\nexpires = 2026-13-01\n", "b.toml"),
            ("version = 1\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\nexpires = \"soon\"\n", "`soon` is not a date"),
            ("version = 1\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\nexpiry = 2026-01-01\n", "unknown field `expiry`"),
            ("version = 1\n[[expected]]\nrule = \"ENV-JSON\"\nreason = \"r\"\nscope = \"[\"\n", "is not a glob"),
        ];
        for (text, expected) in cases {
            let error = parse("b.toml", text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }
}
