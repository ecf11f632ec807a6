//! Reading a frontmatter whose YAML does not parse, as it is most of the time while a key is
//! being typed. SKILL.md frontmatter is a flat mapping, so the lines that break it can be set
//! aside one by one: a top-level line that cannot be a key (`descr`, half typed) becomes a
//! comment, and a value that cannot be read (an unclosed quote) becomes blank. Every masked
//! character is replaced by one of the same byte length, so every offset into the masked text
//! is an offset into the original: findings on the rest need no mapping back.
//!
//! Only editor help and the field rules read this; the loader never does (a client would drop
//! the skill, so the catalog must too).

use crate::text::TextRange;

use super::yaml::{self, YamlDocument};

/// Why a line was set aside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Masked {
    /// A top-level line with no `: ` that is not a comment, a list item or a key: the word
    /// being typed. `range` is the line's text.
    NotAKey { range: TextRange },
    /// The value of `key` that YAML could not read (`message` says why); `range` is the value,
    /// `entry` the key and the value.
    Value {
        key: String,
        range: TextRange,
        entry: TextRange,
        message: String,
    },
}

impl Masked {
    /// The characters blanked.
    #[must_use]
    pub(crate) fn range(&self) -> TextRange {
        match self {
            Masked::NotAKey { range } | Masked::Value { range, .. } => *range,
        }
    }

    /// What a finding must not be about: the line set aside, or the whole entry whose value was
    /// (the key is there, its value is not).
    #[must_use]
    pub(crate) fn region(&self) -> TextRange {
        match self {
            Masked::NotAKey { range } | Masked::Value { entry: range, .. } => *range,
        }
    }
}

/// The frontmatter read around its broken lines.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tolerant {
    /// The whole file with the broken lines masked, byte for byte as long as the original.
    pub text: String,
    /// The masked text's frontmatter, which parses.
    pub yaml: YamlDocument,
    pub masked: Vec<Masked>,
}

/// How many values may be set aside one after the other before giving up.
const MAX_VALUE_MASKS: usize = 4;

/// Reads `text[yaml]` around the lines that break it; `None` when it parses as it is, or when
/// masking does not make it parse.
#[must_use]
pub(crate) fn read(text: &str, yaml: TextRange) -> Option<Tolerant> {
    yaml::parse(text, yaml).error?;
    let mut masked_text = text.to_owned();
    let mut masked = Vec::new();
    for range in not_a_key_lines(text, yaml) {
        blank(&mut masked_text, range, true);
        masked.push(Masked::NotAKey { range });
    }
    for _ in 0..=MAX_VALUE_MASKS {
        let document = yaml::parse(&masked_text, yaml);
        let Some(next) = document.error else {
            return (!masked.is_empty()).then_some(Tolerant {
                text: masked_text,
                yaml: document,
                masked,
            });
        };
        let (key, entry, range) = value_at(&masked_text, yaml, next.offset)?;
        if masked.iter().any(|it| it.range() == range) {
            return None;
        }
        blank(&mut masked_text, range, false);
        masked.push(Masked::Value {
            key,
            range,
            entry,
            message: next.message,
        });
    }
    None
}

/// Replaces `text[range]` with spaces (or, as a comment, `#` then spaces), byte for byte.
fn blank(text: &mut String, range: TextRange, comment: bool) {
    let mut replacement = " ".repeat(range.len());
    if comment && !replacement.is_empty() {
        replacement.replace_range(0..1, "#");
    }
    text.replace_range(range.as_range(), &replacement);
}

/// The lines of `text[yaml]` with their ranges, without their line break (LF, CRLF or CR).
fn lines(text: &str, yaml: TextRange) -> impl Iterator<Item = TextRange> + '_ {
    let source = &text[yaml.as_range()];
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= source.len() {
            return None;
        }
        let rest = &source[at..];
        let len = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let range = TextRange::new(yaml.start + at, yaml.start + at + len);
        at += len;
        if source[at..].starts_with("\r\n") {
            at += 2;
        } else if at < source.len() {
            at += 1;
        }
        Some(range)
    })
}

/// Top-level lines that cannot be a key: not blank, not indented, not a comment, a list item,
/// a document marker or a flow collection, and without a `:` followed by a space or the end.
fn not_a_key_lines(text: &str, yaml: TextRange) -> Vec<TextRange> {
    lines(text, yaml)
        .filter(|range| {
            let line = &text[range.as_range()];
            let Some(first) = line.chars().next() else {
                return false;
            };
            if first.is_whitespace() || matches!(first, '#' | '-' | '[' | '{' | '"' | '\'' | '.') {
                return false;
            }
            !line
                .match_indices(':')
                .any(|(at, _)| line[at + 1..].is_empty() || line[at + 1..].starts_with([' ', '\t']))
        })
        .collect()
}

/// The top-level key whose value holds `offset` (or whose line is the last key line before it)
/// with the range of the entry and of its value, up to the next top-level key.
fn value_at(text: &str, yaml: TextRange, offset: usize) -> Option<(String, TextRange, TextRange)> {
    let all: Vec<TextRange> = lines(text, yaml).collect();
    let keyed: Vec<(usize, TextRange, usize)> = all
        .iter()
        .enumerate()
        .filter_map(|(index, range)| {
            let line = &text[range.as_range()];
            if line.starts_with([' ', '\t', '#', '-']) || line.is_empty() {
                return None;
            }
            let colon = line
                .find(": ")
                .or_else(|| line.ends_with(':').then(|| line.len() - 1))?;
            Some((index, *range, colon))
        })
        .collect();
    let (index, range, colon) = keyed
        .iter()
        .rev()
        .find(|(_, range, _)| range.start <= offset)
        .copied()?;
    let next_key = keyed
        .iter()
        .find(|(other, _, _)| *other > index)
        .map(|(other, _, _)| *other);
    let last_line = next_key.map_or(all.len() - 1, |next| next - 1);
    let key = text[range.start..range.start + colon].trim().to_owned();
    let value_start = range.start + colon + 1;
    let value_end = all[last_line].end.max(value_start);
    (value_end > value_start).then(|| {
        (
            key,
            TextRange::new(range.start, value_end),
            TextRange::new(value_start, value_end),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frontmatter(text: &str) -> TextRange {
        let start = text.find("---\n").unwrap() + 4;
        let end = text[start..].find("\n---").unwrap() + start + 1;
        TextRange::new(start, end)
    }

    #[test]
    fn a_half_typed_key_becomes_a_comment_and_the_rest_reads() {
        let text = "---\nname: pdf\ndescr\nlicense: MIT\n---\nBody\n";
        let tolerant = read(text, frontmatter(text)).expect("recovered");
        assert_eq!(tolerant.text.len(), text.len());
        assert_eq!(&tolerant.text[14..19], "#    ");
        let root = tolerant.yaml.root.expect("a mapping");
        assert_eq!(root.get("name").unwrap().value.as_str(), Some("pdf"));
        assert_eq!(root.get("license").unwrap().value.as_str(), Some("MIT"));
        assert_eq!(
            tolerant.masked,
            [Masked::NotAKey {
                range: TextRange::new(14, 19)
            }]
        );
    }

    #[test]
    fn an_unreadable_value_is_blanked_and_its_key_kept() {
        let text = "---\nname: pdf\ndescription: \"Fills forms\nlicense: MIT\n---\n";
        let tolerant = read(text, frontmatter(text)).expect("recovered");
        let root = tolerant.yaml.root.expect("a mapping");
        assert!(root.get("description").is_some());
        assert_eq!(root.get("license").unwrap().value.as_str(), Some("MIT"));
        assert!(matches!(
            &tolerant.masked[..],
            [Masked::Value { key, .. }] if key == "description"
        ));
    }

    #[test]
    fn valid_yaml_and_hopeless_yaml_give_nothing() {
        let text = "---\nname: pdf\n---\n";
        assert!(read(text, frontmatter(text)).is_none());
        let text = "---\n[a, b\n---\n";
        assert!(read(text, frontmatter(text)).is_none());
    }

    #[test]
    fn crlf_and_multibyte_lines_keep_their_length() {
        let text = "---\r\nname: pdf\r\nbéschreibung\r\n---\r\n";
        let yaml = TextRange::new(5, text.find("---\r\n\u{0}").unwrap_or(text.len() - 5));
        let tolerant = read(text, yaml).expect("recovered");
        assert_eq!(tolerant.text.len(), text.len());
        assert!(tolerant.text.contains("\r\n#"));
    }
}
