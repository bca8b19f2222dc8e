//! The plan checker's integration tests, one module per former test file, in
//! one binary (one link instead of three; `cargo test -p acp-plan-dag --test
//! suite -- dag_corpus::` runs a module).

mod dag_corpus;
mod dag_props;
mod fuzz_regressions;
