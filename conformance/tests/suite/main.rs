//! The integration tests of the `acp-plan` binary, one module per former
//! test file, in one binary: each test binary links the whole library, so
//! one link instead of eleven (`cargo test -p acp-plan --test suite -- cli::`
//! runs a module). `common` holds the helpers they share.

mod common;

mod action;
mod ci_gate;
mod cli;
mod cli_reports;
mod client;
mod dag_cli;
mod live;
mod readme;
mod rule_reference;
mod spec_coverage;
mod spec_quotes;
