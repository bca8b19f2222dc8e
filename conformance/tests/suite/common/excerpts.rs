//! The vendored excerpts of the texts the suite quotes (`corpus/spec/excerpts/`)
//! and the comparison that keeps quotations verbatim.
//!
//! An excerpt file is a header of `key: value` lines (`document`, `source`,
//! `revision`, `retrieved`), a line `---`, then paragraphs copied from the
//! source as they stand (Markdown and MDX included; `[…]` marks an omission).
//! A quotation is verbatim when it is a substring of its excerpt once both are
//! [`rendered`]: markup a reader of the page does not see is dropped and
//! whitespace is collapsed. No word is ever changed, so an altered quotation
//! is never found.

use std::collections::BTreeMap;

use super::repo_root;

pub const EXCERPTS: &str = "corpus/spec/excerpts";

pub struct Excerpt {
    pub file: String,
    pub document: String,
    pub header: BTreeMap<String, String>,
    /// The body as [`rendered`].
    pub rendered: String,
}

/// Every excerpt, by document title.
pub fn load() -> BTreeMap<String, Excerpt> {
    let mut out = BTreeMap::new();
    for file in super::corpus_files(EXCERPTS, "txt") {
        if file.ends_with("/README.md") {
            continue;
        }
        let text = std::fs::read_to_string(repo_root().join(&file)).expect("readable excerpt");
        let (head, body) = text
            .split_once("\n---\n")
            .unwrap_or_else(|| panic!("{file}: no `---` line after the header"));
        let header: BTreeMap<String, String> = head
            .lines()
            .map(|l| {
                let (k, v) = l
                    .split_once(": ")
                    .unwrap_or_else(|| panic!("{file}: header line {l:?} is not `key: value`"));
                (k.to_owned(), v.to_owned())
            })
            .collect();
        for key in ["document", "source", "revision", "retrieved"] {
            assert!(header.contains_key(key), "{file}: header lacks `{key}`");
        }
        let document = header["document"].clone();
        let previous = out.insert(
            document.clone(),
            Excerpt {
                file: file.clone(),
                document: document.clone(),
                header,
                rendered: rendered(body),
            },
        );
        assert!(previous.is_none(), "two excerpts of {document}");
    }
    out
}

/// Whether `quotation` stands verbatim in `excerpt` (see the module docs).
pub fn quoted_in(excerpt: &Excerpt, quotation: &str) -> bool {
    let quotation = rendered(quotation);
    !quotation.is_empty() && excerpt.rendered.contains(&quotation)
}

/// Text as a reader of the rendered page sees it: `<ParamField path="p"
/// type="t" required>` reads "p t required", `[text](url)` reads "text",
/// `**` and backticks vanish, list bullets at the start of a line vanish,
/// and whitespace runs become one space.
pub fn rendered(text: &str) -> String {
    let mut lines = String::with_capacity(text.len());
    for line in text.lines() {
        let trimmed = line.trim_start();
        let unbulleted = ["- ", "* ", "• "]
            .iter()
            .find_map(|b| trimmed.strip_prefix(b))
            .unwrap_or(line);
        lines.push_str(unbulleted);
        lines.push('\n');
    }
    let text = param_fields(&lines).replace("</ParamField>", " ");
    let text = links(&text).replace("**", "").replace('`', "");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn param_fields(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<ParamField ") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('>') else {
            break;
        };
        let tag = &rest[start..start + end];
        let attribute = |name: &str| {
            tag.split_once(&format!("{name}=\""))
                .and_then(|(_, v)| v.split_once('"'))
                .map(|(v, _)| v.to_owned())
                .unwrap_or_default()
        };
        out.push_str(&attribute("path"));
        out.push(' ');
        out.push_str(&attribute("type"));
        if tag.split_whitespace().any(|w| w == "required") {
            out.push_str(" required");
        }
        out.push(' ');
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

/// `[text](target)` → `text`; other brackets stay.
fn links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let link = after.find(']').and_then(|close| {
            let tail = &after[close + 1..];
            let target_end = tail.strip_prefix('(')?.find(')')?;
            Some((close, close + 1 + 1 + target_end + 1))
        });
        match link {
            Some((close, consumed)) => {
                out.push_str(&rest[..open]);
                out.push_str(&after[..close]);
                rest = &after[consumed..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
