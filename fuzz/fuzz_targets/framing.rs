//! Fuzz target: see `framing_invariants` in tests/support/invariants.rs for what must hold.
#![no_main]

#[path = "../../tests/support/invariants.rs"]
mod invariants;

libfuzzer_sys::fuzz_target!(|data: &[u8]| invariants::framing_invariants(data));
