use super::{print, EXIT_CONFORMANT};
use crate::cli::{GenArgs, SpacingArg};
use crate::error::Error;
use acp_plan_conformance::gen::{synthetic, Framing, Spacing, SyntheticParams, Violation};
use std::fs::File;
use std::io::{self, BufWriter, Write};

pub fn run(args: GenArgs) -> Result<u8, Error> {
    if args.inject.iter().any(|rule| rule == "list") {
        print(&format!("{}\n", Violation::injectable_rules().join("\n")));
        return Ok(EXIT_CONFORMANT);
    }
    let mut inject = Vec::new();
    for rule in &args.inject {
        let violation = Violation::for_rule(rule).ok_or_else(|| {
            Error::Usage(format!(
                "cannot inject `{rule}`; injectable rules: {}",
                Violation::injectable_rules().join(", ")
            ))
        })?;
        inject.push(violation);
    }
    let params = SyntheticParams {
        revision: args.spec,
        framing: if args.bare {
            Framing::Bare
        } else {
            Framing::Envelope
        },
        sessions: args.sessions,
        messages: args.messages,
        plans: args.plans,
        entries: args.entries,
        non_plan_share: args.non_plan_share,
        payload_bytes: args.payload_bytes,
        chunk_bytes: args.chunk_bytes,
        tool_output_bytes: args.tool_output_bytes,
        turn_length: args.turn_length,
        spacing: match args.spacing {
            SpacingArg::Compact => Spacing::Compact,
            SpacingArg::Python => Spacing::Python,
        },
        inject,
    };
    params.check()?;
    let result = match &args.output {
        Some(path) => {
            let file = File::create(path).map_err(|source| Error::Create {
                path: path.clone(),
                source,
            })?;
            synthetic(&params, args.seed, BufWriter::new(file))
        }
        None => synthetic(&params, args.seed, BufWriter::new(io::stdout().lock())),
    };
    match result {
        Ok(summary) => {
            let mut stderr = io::stderr().lock();
            for expected in &summary.expected {
                let _ = writeln!(
                    stderr,
                    "injected {} at line {}",
                    expected.rule.id, expected.line
                );
            }
            if params.needs_pinned_spec() {
                let _ = writeln!(
                    stderr,
                    "note: check this trace with --spec {} (the handshake does not select it)",
                    params.revision
                );
            }
            Ok(EXIT_CONFORMANT)
        }
        // A closed pipe (`| head`) is how readers stop reading.
        Err(acp_plan_conformance::gen::synthetic::SyntheticError::Io(e))
            if e.kind() == io::ErrorKind::BrokenPipe =>
        {
            Ok(EXIT_CONFORMANT)
        }
        Err(e) => Err(e.into()),
    }
}
