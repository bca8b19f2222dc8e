use super::{print, EXIT_CONFORMANT, EXIT_USAGE};
use crate::cli::GenArgs;
use crate::gen::{synthetic, Framing, SyntheticParams, Violation};
use std::fs::File;
use std::io::{self, BufWriter, Write};

pub fn run(args: GenArgs) -> u8 {
    if args.inject.iter().any(|rule| rule == "list") {
        print(&format!("{}\n", Violation::injectable_rules().join("\n")));
        return EXIT_CONFORMANT;
    }
    let mut inject = Vec::new();
    for rule in &args.inject {
        match Violation::for_rule(rule) {
            Some(v) => inject.push(v),
            None => {
                eprintln!(
                    "error: cannot inject `{rule}`; injectable rules: {}",
                    Violation::injectable_rules().join(", ")
                );
                return EXIT_USAGE;
            }
        }
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
        inject,
    };
    if let Err(e) = params.check() {
        eprintln!("error: {e}");
        return EXIT_USAGE;
    }
    let result = match &args.output {
        Some(path) => match File::create(path) {
            Ok(file) => synthetic(&params, args.seed, BufWriter::new(file)),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return EXIT_USAGE;
            }
        },
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
            EXIT_CONFORMANT
        }
        // A closed pipe (`| head`) is how readers stop reading.
        Err(crate::gen::synthetic::SyntheticError::Io(e))
            if e.kind() == io::ErrorKind::BrokenPipe =>
        {
            EXIT_CONFORMANT
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
