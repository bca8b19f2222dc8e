use super::{print, EXIT_CONFORMANT};
use crate::cli::{RulesArgs, RulesFormat};
use crate::error::Error;
use acp_plan_conformance::report::reference;
use acp_plan_conformance::spec::list_revisions;
use std::fmt::Write;

pub fn run(args: RulesArgs) -> Result<u8, Error> {
    match args.format {
        RulesFormat::Json => {
            let rules: Vec<_> = acp_plan_dag::every_rule().collect();
            print(&format!(
                "{}\n",
                serde_json::to_string_pretty(&rules).unwrap_or_default()
            ));
        }
        RulesFormat::Markdown => print(&reference::markdown(acp_plan_dag::every_rule())),
        RulesFormat::Human => {
            let mut out = String::new();
            for rule in acp_plan_dag::every_rule() {
                let _ = writeln!(
                    out,
                    "{:<24} {:<6} {}\n    {}",
                    rule.id,
                    rule.level_label(),
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
    Ok(EXIT_CONFORMANT)
}
