//! The library's integration tests, one module per former test file, in one
//! binary: each test binary links the whole library, so one link instead of
//! eight (`cargo test -p acp-plan-conformance --test suite -- reports::`
//! runs a module). `vectors` (its own libtest-mimic main) and
//! `fuzz_regressions` (CI builds it with `--features arbitrary`, which would
//! rebuild this whole binary) stay apart.

mod doc_links;
mod docs_snapshots;
mod hostile_input;
mod layers;
mod properties;
mod reports;
mod schema_agreement;
mod verdicts;
