use super::{print, EXIT_CONFORMANT};
use crate::cli::{RulesArgs, RulesFormat};
use crate::report::reference;
use crate::rules::catalog;
use crate::spec::list_revisions;
use std::fmt::Write;

pub fn run(args: RulesArgs) -> u8 {
    match args.format {
        RulesFormat::Json => {
            let rules: Vec<_> = catalog().collect();
            print(&format!(
                "{}\n",
                serde_json::to_string_pretty(&rules).unwrap_or_default()
            ));
        }
        RulesFormat::Markdown => print(&reference::markdown()),
        RulesFormat::Human => {
            let mut out = String::new();
            for rule in catalog() {
                let _ = writeln!(
                    out,
                    "{:<24} {:<6} {}\n    {}",
                    rule.id,
                    rule.level.as_str(),
                    list_revisions(rule.revisions),
                    rule.summary,
                );
                let several = !rule.revision_citations.is_empty();
                for (revisions, citation) in rule.citations() {
                    if revisions.is_empty() {
                        continue;
                    }
                    if several {
                        let _ = writeln!(out, "    [{}] {citation}", list_revisions(&revisions));
                    } else {
                        let _ = writeln!(out, "    {citation}");
                    }
                    if !citation.note.is_empty() {
                        let _ = writeln!(out, "      note: {}", citation.note);
                    }
                }
                out.push('\n');
            }
            print(&out);
        }
    }
    EXIT_CONFORMANT
}
