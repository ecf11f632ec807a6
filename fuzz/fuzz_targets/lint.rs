//! Fuzz target: see `lint_invariants` in tests/support/invariants.rs for what must hold.
#![no_main]

#[path = "../../tests/support/invariants.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| invariants::lint_invariants(data));
