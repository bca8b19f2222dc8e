//! Variable references `†<kind>.<dotted.path>` and `_outputPath` values.
//!
//! Grammar (what the seed's examples use; the seed names the kinds `input`
//! and `state` and leaves room for other Data messages):
//!
//! ```text
//! reference   = "†" kind 1*("." segment)
//! kind        = (ALPHA / "_") *(ALPHA / DIGIT / "_" / "-")
//! segment     = 1*(any character except ".", whitespace, control, "†", "|", "&")
//! output-path = reference *(ws "||" ws reference)     ; writes one of them
//!             / reference *(ws "&&" ws reference)     ; writes all of them
//! ```
//!
//! A string argument is a reference exactly when it starts with `†`; any
//! other string is a literal. Mixing `||` and `&&` in one output path has no
//! meaning in the text, so it is malformed.

use std::fmt;

/// The character that starts a reference.
pub const SIGIL: char = '†';

/// A parsed reference: which Data message, and the path inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reference {
    pub kind: String,
    pub path: Vec<String>,
}

impl Reference {
    /// `kind.a.b`, without the sigil (data-flow graph labels).
    pub fn dotted(&self) -> String {
        let mut out = self.kind.clone();
        for segment in &self.path {
            out.push('.');
            out.push_str(segment);
        }
        out
    }

    /// Whether one path is a prefix of the other (same kind): writing one
    /// of them changes what a read of the other sees.
    pub fn overlaps(&self, other: &Reference) -> bool {
        self.kind == other.kind && self.path.iter().zip(&other.path).all(|(a, b)| a == b)
    }
}

impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{SIGIL}{}", self.dotted())
    }
}

/// Why a string that starts with `†` is not a reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceError {
    /// Nothing after the sigil, or a path with no kind (`†.x`).
    NoKind,
    /// The kind is not an identifier.
    BadKind,
    /// A kind without a path (`†state`).
    NoPath,
    /// `..`, or a trailing `.`.
    EmptySegment,
    /// A character segments may not hold.
    BadCharacter(char),
    /// More segments than the checker's limit.
    TooDeep { segments: usize, limit: usize },
}

impl fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReferenceError::NoKind => f.write_str("no data kind after `†`"),
            ReferenceError::BadKind => {
                f.write_str("the data kind is not a name (letters, digits, `_`, `-`)")
            }
            ReferenceError::NoPath => {
                f.write_str("no path after the data kind (expected `†kind.path`)")
            }
            ReferenceError::EmptySegment => f.write_str("the path has an empty segment"),
            ReferenceError::BadCharacter(c) if c.is_whitespace() => {
                f.write_str("the path contains whitespace")
            }
            ReferenceError::BadCharacter(c) => {
                write!(f, "the path contains {:?}", c)
            }
            ReferenceError::TooDeep { segments, limit } => {
                write!(
                    f,
                    "the path has {segments} segments, over the limit of {limit}"
                )
            }
        }
    }
}

/// Whether a string argument is meant as a reference.
pub fn is_reference(text: &str) -> bool {
    text.starts_with(SIGIL)
}

/// Parse `†kind.a.b`. `max_segments` bounds the path (hostile input).
pub fn parse_reference(text: &str, max_segments: usize) -> Result<Reference, ReferenceError> {
    let rest = text.strip_prefix(SIGIL).ok_or(ReferenceError::NoKind)?;
    let (kind, path) = match rest.split_once('.') {
        Some((kind, path)) => (kind, Some(path)),
        None => (rest, None),
    };
    if kind.is_empty() {
        return Err(ReferenceError::NoKind);
    }
    if let Some(c) = kind.chars().find(|&c| c.is_whitespace() || c == SIGIL) {
        return Err(ReferenceError::BadCharacter(c));
    }
    let mut chars = kind.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(ReferenceError::BadKind);
    }
    let path = path.ok_or(ReferenceError::NoPath)?;
    let mut segments = Vec::new();
    for segment in path.split('.') {
        if segments.len() == max_segments {
            return Err(ReferenceError::TooDeep {
                segments: path.split('.').count(),
                limit: max_segments,
            });
        }
        if segment.is_empty() {
            return Err(ReferenceError::EmptySegment);
        }
        if let Some(c) = segment
            .chars()
            .find(|&c| c.is_whitespace() || c.is_control() || matches!(c, SIGIL | '|' | '&'))
        {
            return Err(ReferenceError::BadCharacter(c));
        }
        segments.push(segment.to_owned());
    }
    Ok(Reference {
        kind: kind.to_owned(),
        path: segments,
    })
}

/// How the targets of an `_outputPath` combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// One target.
    Single,
    /// `a || b`: the tool writes one of them.
    Any,
    /// `a && b`: the tool writes all of them.
    All,
}

impl Join {
    pub fn operator(self) -> &'static str {
        match self {
            Join::Single => "",
            Join::Any => "||",
            Join::All => "&&",
        }
    }
}

/// A parsed `_outputPath`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputPath {
    pub join: Join,
    pub targets: Vec<Reference>,
}

impl OutputPath {
    /// Whether each target is written on some runs only (`||` between
    /// distinct targets).
    pub fn is_alternative(&self) -> bool {
        self.join == Join::Any && self.targets.len() > 1
    }
}

impl fmt::Display for OutputPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, target) in self.targets.iter().enumerate() {
            if i > 0 {
                write!(f, " {} ", self.join.operator())?;
            }
            write!(f, "{target}")?;
        }
        Ok(())
    }
}

/// Why an `_outputPath` string is malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputPathError {
    /// Empty or only whitespace.
    Empty,
    /// Both `||` and `&&`.
    MixedOperators,
    /// An operator with nothing on one side.
    MissingTarget { index: usize },
    /// A target that does not start with `†`.
    NotReference { index: usize },
    /// A target that starts with `†` but does not parse.
    BadTarget { index: usize, error: ReferenceError },
}

impl fmt::Display for OutputPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputPathError::Empty => f.write_str("it is empty"),
            OutputPathError::MixedOperators => {
                f.write_str("it mixes `||` and `&&`, which has no defined meaning")
            }
            OutputPathError::MissingTarget { index } => {
                write!(f, "target {} is missing around an operator", index + 1)
            }
            OutputPathError::NotReference { index } => {
                write!(f, "target {} is not a reference (`†kind.path`)", index + 1)
            }
            OutputPathError::BadTarget { index, error } => {
                write!(f, "target {}: {error}", index + 1)
            }
        }
    }
}

/// Parse an `_outputPath` string.
pub fn parse_output_path(text: &str, max_segments: usize) -> Result<OutputPath, OutputPathError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(OutputPathError::Empty);
    }
    let join = match (text.contains("||"), text.contains("&&")) {
        (true, true) => return Err(OutputPathError::MixedOperators),
        (true, false) => Join::Any,
        (false, true) => Join::All,
        (false, false) => Join::Single,
    };
    let parts: Vec<&str> = match join {
        Join::Single => vec![text],
        _ => text.split(join.operator()).map(str::trim).collect(),
    };
    let mut targets = Vec::with_capacity(parts.len());
    for (index, part) in parts.into_iter().enumerate() {
        if part.is_empty() {
            return Err(OutputPathError::MissingTarget { index });
        }
        if !is_reference(part) {
            return Err(OutputPathError::NotReference { index });
        }
        let target = parse_reference(part, max_segments)
            .map_err(|error| OutputPathError::BadTarget { index, error })?;
        targets.push(target);
    }
    // `†state.a || †state.a` says the same thing twice; keep one.
    let mut seen = std::collections::HashSet::new();
    targets.retain(|t| seen.insert(t.clone()));
    Ok(OutputPath { join, targets })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> Result<Reference, ReferenceError> {
        parse_reference(text, 8)
    }

    #[test]
    fn parses_the_seed_references() {
        let reference = r("†state.userProfileData").unwrap();
        assert_eq!(reference.kind, "state");
        assert_eq!(reference.path, ["userProfileData"]);
        assert_eq!(reference.to_string(), "†state.userProfileData");
        assert_eq!(r("†input.a.0.b").unwrap().path, ["a", "0", "b"]);
    }

    #[test]
    fn rejects_malformed_references() {
        assert_eq!(r("†"), Err(ReferenceError::NoKind));
        assert_eq!(r("†.x"), Err(ReferenceError::NoKind));
        assert_eq!(r("†state"), Err(ReferenceError::NoPath));
        assert_eq!(r("†state."), Err(ReferenceError::EmptySegment));
        assert_eq!(r("†state..x"), Err(ReferenceError::EmptySegment));
        assert_eq!(r("†9s.x"), Err(ReferenceError::BadKind));
        assert_eq!(r("†state.a b"), Err(ReferenceError::BadCharacter(' ')));
        assert_eq!(
            r("†state.a || †state.b"),
            Err(ReferenceError::BadCharacter(' '))
        );
        assert_eq!(r("†state.a†b"), Err(ReferenceError::BadCharacter('†')));
        assert_eq!(
            parse_reference("†s.a.b.c", 2),
            Err(ReferenceError::TooDeep {
                segments: 3,
                limit: 2
            })
        );
    }

    #[test]
    fn overlap_is_a_prefix_relation_within_a_kind() {
        let a = r("†state.a").unwrap();
        let ab = r("†state.a.b").unwrap();
        let ac = r("†state.a.c").unwrap();
        let input_a = r("†input.a").unwrap();
        assert!(a.overlaps(&ab) && ab.overlaps(&a) && a.overlaps(&a));
        assert!(!ab.overlaps(&ac));
        assert!(!a.overlaps(&input_a));
    }

    #[test]
    fn parses_output_paths() {
        let any = parse_output_path("†state.receipt || †state.error", 8).unwrap();
        assert_eq!(any.join, Join::Any);
        assert_eq!(any.targets.len(), 2);
        assert_eq!(any.to_string(), "†state.receipt || †state.error");
        let all = parse_output_path("†state.a&&†state.b", 8).unwrap();
        assert_eq!(all.join, Join::All);
        let one = parse_output_path(" †state.a ", 8).unwrap();
        assert_eq!((one.join, one.targets.len()), (Join::Single, 1));
        let twice = parse_output_path("†state.a || †state.a", 8).unwrap();
        assert_eq!(twice.targets.len(), 1);
    }

    #[test]
    fn rejects_malformed_output_paths() {
        let p = |t| parse_output_path(t, 8);
        assert_eq!(p("  "), Err(OutputPathError::Empty));
        assert_eq!(
            p("†state.a || †state.b && †state.c"),
            Err(OutputPathError::MixedOperators)
        );
        assert_eq!(
            p("†state.a ||"),
            Err(OutputPathError::MissingTarget { index: 1 })
        );
        assert_eq!(
            p("state.a"),
            Err(OutputPathError::NotReference { index: 0 })
        );
        assert!(matches!(
            p("†state.a | †state.b"),
            Err(OutputPathError::BadTarget { index: 0, .. })
        ));
    }
}
