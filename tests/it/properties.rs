//! Bounded property tests of the invariants the fuzz targets in `fuzz/` check for hours:
//! the same oracle (`support/invariants.rs`), random inputs, a fixed case budget, in CI.

use crate::invariants;

use proptest::prelude::*;

/// Random bytes, or a seed SKILL.md with random bytes spliced in (most random bytes never get
/// past the frontmatter).
fn skill_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600),
        (
            0..invariants::SEEDS.len(),
            proptest::collection::vec(
                (any::<u16>(), proptest::collection::vec(any::<u8>(), 0..8)),
                0..6
            ),
        )
            .prop_map(|(seed, splices)| {
                let mut text = invariants::SEEDS[seed].as_bytes().to_vec();
                for (at, piece) in splices {
                    let at = usize::from(at) % (text.len() + 1);
                    text.splice(at..at, piece);
                }
                let mut out = vec![0xff];
                out.extend(text);
                out
            }),
    ]
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        max_shrink_iters: 300,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(3000))]
    #[test]
    fn lint_and_fixes_hold_on_any_bytes(data in skill_bytes()) {
        invariants::lint_invariants(&data);
    }
}

proptest! {
    #![proptest_config(config(3000))]
    #[test]
    fn sse_parser_is_chunking_invariant(data in proptest::collection::vec(
        prop_oneof![any::<u8>(), Just(b'\n'), Just(b'\r'), Just(b':'), Just(b' '), Just(b'd')], 0..400)) {
        invariants::sse_invariants(&data);
    }
}

proptest! {
    #![proptest_config(config(3000))]
    #[test]
    fn framing_is_chunking_invariant_and_recovers(data in proptest::collection::vec(
        prop_oneof![
            any::<u8>(),
            Just(b'\n'),
            Just(b'\r'),
            Just(b'{'),
            Just(b'}'),
            Just(b' '),
            Just(b'0'),
            Just(b'7'),
            Just(b'C'),
        ], 0..300)
        .prop_map(|mut bytes| {
            // Headers in the noise: one whose body holds the next header (a length that lies),
            // and one cut at the end, so that the resynchronisation is exercised.
            let long = b"Content-Length: 40\r\n\r\n";
            let short = b"Content-Length: 3\r\n\r\n";
            let at = bytes.len() / 3;
            let inside = (at + bytes.len() % 20).min(bytes.len());
            bytes.splice(inside..inside, short.iter().copied());
            bytes.splice(at..at, long.iter().copied());
            let cut = bytes.len() % long.len();
            bytes.extend_from_slice(&long[..cut]);
            bytes
        })) {
        invariants::framing_invariants(&data);
    }
}

proptest! {
    #![proptest_config(config(2000))]
    #[test]
    fn document_edits_match_the_reference(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        invariants::document_invariants(&data);
    }
}

proptest! {
    #![proptest_config(config(1000))]
    #[test]
    fn lsp_sessions_keep_the_text_and_answer_everything(data in proptest::collection::vec(any::<u8>(), 0..500)) {
        invariants::lsp_session_invariants(&data);
    }
}

#[test]
fn lsp_session_smoke() {
    invariants::lsp_session_invariants(&[0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
}
