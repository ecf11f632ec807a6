//! "Did you mean": the edit distance, the budget of edits a suggestion may be away, the known
//! field a key most likely meant (`unknown-field`) and the skill a mention most likely meant
//! (`unknown-mention`, through `NearNames`).

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::targets::{ALL_CLIENTS, Client};
use crate::workspace::Registry;

/// How a word's length is counted when its edit budget is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LengthUnit {
    /// Unicode scalar values.
    Chars,
    /// UTF-8 bytes.
    Bytes,
}

/// Field keys are counted in characters.
pub(crate) const FIELD_KEY_LENGTH: LengthUnit = LengthUnit::Chars;
/// Skill mentions are counted in bytes. (The two units agree on ASCII, which every valid skill
/// name is; a mention with other characters names no skill a client loads, and only reaches the
/// longer budget sooner.)
pub(crate) const MENTION_LENGTH: LengthUnit = LengthUnit::Bytes;

/// Words shorter than this may be one edit away from a suggestion; longer ones two.
pub(crate) const LONG_WORD: usize = 6;

/// How many edits (see [`edit_distance`]) a suggestion for `word` may be away: one for a word
/// shorter than [`LONG_WORD`] in `unit`, two otherwise.
#[must_use]
pub(crate) fn edit_budget(word: &str, unit: LengthUnit) -> usize {
    let length = match unit {
        LengthUnit::Chars => word.chars().count(),
        LengthUnit::Bytes => word.len(),
    };
    if length >= LONG_WORD { 2 } else { 1 }
}

/// Lowercase with separators removed, so `disableModelInvocation` meets `disable-model-invocation`.
pub(super) fn squash(key: &str) -> String {
    key.chars()
        .filter(|ch| *ch != '-' && *ch != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The Levenshtein distance between `a` and `b`, counted in characters.
#[must_use]
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // One row of the table, overwritten in place: `diagonal` holds the cell above-left.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The known field a key most likely meant: same letters with other case or separators, or a
/// small typo.
#[must_use]
pub(crate) fn near_miss(key: &str, targets: &[Client]) -> Option<&'static str> {
    // Each field once, squashed once, in the order of the selected targets, then all.
    let mut known: Vec<(String, &'static str)> = Vec::new();
    for field in targets
        .iter()
        .chain(ALL_CLIENTS.iter())
        .flat_map(|target| target.fields())
    {
        if !known.iter().any(|(_, seen)| *seen == field) {
            known.push((squash(field), field));
        }
    }
    let squashed = squash(key);
    if let Some((_, found)) = known.iter().find(|(known, _)| *known == squashed) {
        return Some(found);
    }
    // Older spellings seen in the wild.
    if squashed == "userinvokable" {
        return Some("user-invocable");
    }
    let limit = edit_budget(key, FIELD_KEY_LENGTH);
    let length = squashed.chars().count();
    known
        .iter()
        // Lengths further apart than the budget are further apart in edits too.
        .filter(|(known, _)| known.chars().count().abs_diff(length) <= limit)
        .map(|(known, field)| (edit_distance(&squashed, known), *field))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, field)| field)
}

/// Finds the skill names close to a mention without comparing it with every name: each name
/// is indexed under itself and its one-character deletions, so two strings within one edit of
/// each other (or one substitution or transposition apart) share a key.
pub(crate) struct NearNames<'r> {
    registry: &'r Registry,
    index: &'r NearIndex,
}

/// The index of [`NearNames`] for one registry (hashes of every name and its one-character
/// deletions with the skill's index, sorted: a few bytes per variant), built on the first
/// lookup. Whoever analyses many files against one registry keeps it next to that registry
/// (`analysis::RegistryView`), so it is built once per registry, not once per file; it is only
/// valid for the names and order it was built from.
#[derive(Debug, Default)]
pub(crate) struct NearIndex(OnceLock<Vec<(u64, u32)>>);

/// The hashes of `word` and of each of its one-character deletions, in that order
/// ([`Scratch::variant_hashes`]).
fn variant_hashes(word: &str) -> Vec<u64> {
    let mut hashes = Vec::with_capacity(word.len() + 1);
    Scratch::default().variant_hashes(word, |hash| hashes.push(hash));
    hashes
}

/// Names hashed by one task of the index's build, with one [`Scratch`].
const HASHED_TOGETHER: usize = 256;

/// The working space of [`Scratch::variant_hashes`], kept from one word to the next.
#[derive(Default)]
struct Scratch {
    /// `suffix[i]`: the hash of the word's bytes from `i` on.
    suffix: Vec<u64>,
    /// `power[i]`: `BASE` to the number of the word's bytes from `i` on, what a prefix is
    /// multiplied by to have those bytes follow it.
    power: Vec<u64>,
}

impl Scratch {
    /// Gives `found` the hashes of `word` and of each of its one-character deletions, in that
    /// order.
    ///
    /// A polynomial hash (`h = h * BASE + byte`, wrapping), so that the hash of a deletion
    /// comes from the hashes of what precedes and follows the deleted character in constant
    /// time: all of a word's variants cost one pass over it, where hashing each variant anew
    /// cost a pass per character. A collision only costs one more edit-distance check.
    fn variant_hashes(&mut self, word: &str, mut found: impl FnMut(u64)) {
        let bytes = word.as_bytes();
        self.suffix.clear();
        self.suffix.resize(bytes.len() + 1, 0);
        self.power.clear();
        self.power.resize(bytes.len() + 1, 1);
        for at in (0..bytes.len()).rev() {
            self.power[at] = self.power[at + 1].wrapping_mul(BASE);
            self.suffix[at] = weight(bytes[at])
                .wrapping_mul(self.power[at + 1])
                .wrapping_add(self.suffix[at + 1]);
        }
        found(self.suffix[0]);
        // The hash of the bytes before the character deleted.
        let mut prefix = 0;
        let mut before = 0;
        for (at, ch) in word.char_indices() {
            for byte in &bytes[before..at] {
                prefix = step(prefix, *byte);
            }
            before = at;
            let end = at + ch.len_utf8();
            found(
                prefix
                    .wrapping_mul(self.power[end])
                    .wrapping_add(self.suffix[end]),
            );
        }
    }
}

/// The pieces' pairs in one vector sorted by hash, then by index: sorted into buckets by the
/// top bits of their hash first (one counting pass and one placing pass), then each bucket,
/// of a few pairs, on its own. On 10,000 names' 230,000 pairs, a comparison sort took several
/// times as long.
fn sorted_by_bucket(pieces: Vec<Vec<(u64, u32)>>) -> Vec<(u64, u32)> {
    const BITS: u32 = 16;
    let bucket = |hash: u64| (hash >> (64 - BITS)) as usize;
    let mut starts = vec![0usize; (1 << BITS) + 1];
    for (hash, _) in pieces.iter().flatten() {
        starts[bucket(*hash) + 1] += 1;
    }
    for at in 1..starts.len() {
        starts[at] += starts[at - 1];
    }
    let total = starts[starts.len() - 1];
    let mut sorted = vec![(0, 0); total];
    let mut next = starts.clone();
    for pair in pieces.into_iter().flatten() {
        let slot = &mut next[bucket(pair.0)];
        sorted[*slot] = pair;
        *slot += 1;
    }
    for range in starts.windows(2) {
        sorted[range[0]..range[1]].sort_unstable();
    }
    sorted
}

/// An odd 64-bit multiplier with well-spread bits (the golden ratio's).
const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// One byte more of a polynomial hash.
fn step(hash: u64, byte: u8) -> u64 {
    hash.wrapping_mul(BASE).wrapping_add(weight(byte))
}

/// What a byte adds to a polynomial hash: bytes count from 1, so that a 0 byte still changes it.
fn weight(byte: u8) -> u64 {
    u64::from(byte) + 1
}

impl<'r> NearNames<'r> {
    /// Looks names up in `registry` through `index`, which must have been built from it (or
    /// be empty).
    #[must_use]
    pub(crate) fn new(registry: &'r Registry, index: &'r NearIndex) -> Self {
        Self { registry, index }
    }

    fn variants(&self) -> &'r [(u64, u32)] {
        // Twenty-odd variants per name: a workspace of thousands of skills is indexed on every
        // core, as whoever asks first holds up the others.
        self.index.0.get_or_init(|| {
            let hashed: Vec<Vec<(u64, u32)>> = self
                .registry
                .skills
                .par_chunks(HASHED_TOGETHER)
                .enumerate()
                .map(|(chunk, skills)| {
                    let mut variants = Vec::with_capacity(skills.len() * 24);
                    let mut scratch = Scratch::default();
                    for (offset, skill) in skills.iter().enumerate() {
                        let index = chunk * HASHED_TOGETHER + offset;
                        let index = u32::try_from(index).unwrap_or(u32::MAX);
                        scratch.variant_hashes(&skill.name, |hash| variants.push((hash, index)));
                    }
                    variants
                })
                .collect();
            let mut variants = sorted_by_bucket(hashed);
            variants.dedup();
            variants
        })
    }

    /// Builds the index now rather than at the first look-up, for a caller that knows
    /// look-ups will come: inside a parallel loop, the other threads would wait for it.
    pub(crate) fn index(&self) {
        self.variants();
    }

    #[must_use]
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.registry.get(name).is_some()
    }

    /// The closest name within the edit budget (see [`edit_budget`]).
    #[must_use]
    pub(crate) fn nearest(&self, word: &str) -> Option<&'r str> {
        let limit = edit_budget(word, MENTION_LENGTH);
        let variants = self.variants();
        let skills = &self.registry.skills;
        variant_hashes(word)
            .into_iter()
            .flat_map(|hash| {
                let start = variants.partition_point(|(candidate, _)| *candidate < hash);
                variants[start..]
                    .iter()
                    .take_while(move |(candidate, _)| *candidate == hash)
            })
            .filter_map(|(_, index)| skills.get(*index as usize))
            .map(|skill| (edit_distance(word, &skill.name), skill.name.as_str()))
            .filter(|(distance, _)| *distance <= limit)
            .min()
            .map(|(_, name)| name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each variant's hash is the hash of the variant itself, written out and hashed byte by
    /// byte: the word, then the word without each of its characters in turn.
    #[test]
    fn variant_hashes_hash_the_variants() {
        let whole = |text: &str| text.bytes().fold(0, step);
        for word in [
            "",
            "a",
            "ab",
            "pdf",
            "code-review",
            "日本語",
            "naïve-x",
            "aab",
            "a\0b",
        ] {
            let mut expected = vec![whole(word)];
            for (at, ch) in word.char_indices() {
                let variant = format!("{}{}", &word[..at], &word[at + ch.len_utf8()..]);
                expected.push(whole(&variant));
            }
            assert_eq!(variant_hashes(word), expected, "{word:?}");
        }
        // Deleting different characters that leave the same text gives the same hash; other
        // texts differ.
        let hashes = variant_hashes("aab");
        assert_eq!(hashes[1], hashes[2], "ab twice");
        assert_ne!(hashes[1], hashes[3], "ab and aa");
        assert_ne!(whole("\0"), whole(""), "a 0 byte counts");
    }

    /// The buckets give what one sort of all the pairs gives: pairs spread over every bucket,
    /// many in one bucket, equal hashes, the extremes, and pieces that are empty.
    #[test]
    fn sorted_by_bucket_sorts_by_hash_then_index() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut pieces: Vec<Vec<(u64, u32)>> = vec![Vec::new()];
        for piece in 0..40_u32 {
            let pairs = (0..1_000_u32).map(|at| {
                let hash = match at % 4 {
                    0 => random(),
                    // One bucket, many hashes in it.
                    1 => 0x1234_0000_0000_0000 | (random() >> 16),
                    // Equal hashes with other indexes.
                    2 => 42,
                    _ => [0, u64::MAX, 1 << 48, (1 << 48) - 1][(random() % 4) as usize],
                };
                (hash, piece * 1_000 + (random() % 1_000) as u32)
            });
            pieces.push(pairs.collect());
            pieces.push(Vec::new());
        }
        let mut expected: Vec<(u64, u32)> = pieces.iter().flatten().copied().collect();
        expected.sort_unstable();
        assert_eq!(sorted_by_bucket(pieces), expected);
        assert!(sorted_by_bucket(Vec::new()).is_empty());
    }

    #[test]
    fn the_budget_counts_in_the_unit_given() {
        assert_eq!(edit_budget("pdfs", LengthUnit::Chars), 1);
        assert_eq!(edit_budget("review", LengthUnit::Chars), 2);
        // Three characters, six bytes.
        assert_eq!(edit_budget("日本語", LengthUnit::Chars), 1);
        assert_eq!(edit_budget("日本語", LengthUnit::Bytes), 2);
    }

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("日本", "日本語"), 1);
    }

    /// The definition, computed the slow way: the last characters match, or one of the three
    /// edits makes them.
    fn distance_by_definition(a: &[char], b: &[char]) -> usize {
        match (a.split_last(), b.split_last()) {
            (None, _) => b.len(),
            (_, None) => a.len(),
            (Some((x, a_rest)), Some((y, b_rest))) => {
                let substitute = distance_by_definition(a_rest, b_rest) + usize::from(x != y);
                let delete = distance_by_definition(a_rest, b) + 1;
                let insert = distance_by_definition(a, b_rest) + 1;
                substitute.min(delete).min(insert)
            }
        }
    }

    #[test]
    fn edit_distance_follows_the_definition() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "acb",
            "model",
            "mode",
            "modle",
            "tools",
            "toosl",
            "日本",
            "日本語",
            "ü",
            "u",
            "license",
            "licence",
        ];
        for a in words {
            for b in words {
                let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                assert_eq!(
                    edit_distance(a, b),
                    distance_by_definition(&ca, &cb),
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
