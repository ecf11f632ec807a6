//! The frontmatter as a YAML tree with exact byte spans, built from `saphyr-parser`'s events.
//!
//! saphyr reports positions in characters; this module turns them into byte offsets of the whole
//! file so that every node range can be used directly for diagnostics and edits.

use saphyr_parser::{Event, Parser, ScalarStyle};

use crate::text::TextRange;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl Style {
    #[must_use]
    pub(crate) fn is_block(self) -> bool {
        matches!(self, Style::Literal | Style::Folded)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NodeKind {
    Scalar { value: String, style: Style },
    Sequence(Vec<Node>),
    Mapping(Vec<Entry>),
    Alias,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    /// From the first character of the node (a quote, a block indicator, `[`, `{` or `-`) to its last.
    pub range: TextRange,
    /// A `[..]` or `{..}` collection.
    pub flow: bool,
    /// Carries an explicit tag such as `!!str`.
    pub tagged: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    pub key: Node,
    pub value: Node,
}

/// The YAML type a scalar resolves to under the YAML 1.2 core schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScalarType {
    Null,
    Bool,
    Int,
    Float,
    Str,
}

impl ScalarType {
    #[must_use]
    pub(crate) fn describe(self) -> &'static str {
        match self {
            ScalarType::Null => "null",
            ScalarType::Bool => "a boolean",
            ScalarType::Int => "an integer",
            ScalarType::Float => "a number",
            ScalarType::Str => "a string",
        }
    }
}

impl Node {
    /// Whether a mapping anywhere in the tree repeats a string key (what strict readers
    /// refuse). One pass per mapping with a set, so a mapping of 80,000 keys costs 80,000
    /// look-ups, not their pairs.
    #[must_use]
    pub(crate) fn repeats_a_key(&self) -> bool {
        match &self.kind {
            NodeKind::Mapping(entries) => {
                let mut seen = std::collections::HashSet::with_capacity(entries.len());
                entries
                    .iter()
                    .filter_map(|entry| entry.key.as_str())
                    .any(|key| !seen.insert(key))
                    || entries.iter().any(|entry| entry.value.repeats_a_key())
            }
            NodeKind::Sequence(items) => items.iter().any(Node::repeats_a_key),
            NodeKind::Scalar { .. } | NodeKind::Alias => false,
        }
    }

    #[must_use]
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }

    #[must_use]
    pub(crate) fn style(&self) -> Option<Style> {
        match &self.kind {
            NodeKind::Scalar { style, .. } => Some(*style),
            _ => None,
        }
    }

    #[must_use]
    pub(crate) fn as_mapping(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Mapping(entries) => Some(entries),
            _ => None,
        }
    }

    /// The scalar's type under the YAML 1.2 core schema; `None` for collections and aliases.
    #[must_use]
    pub(crate) fn scalar_type(&self) -> Option<ScalarType> {
        match &self.kind {
            NodeKind::Scalar { value, style } => Some(if *style == Style::Plain && !self.tagged {
                core_type(value)
            } else {
                ScalarType::Str
            }),
            _ => None,
        }
    }

    /// True for a string under YAML 1.2: quoted, block, tagged, or plain text that is not null,
    /// a boolean or a number.
    #[must_use]
    pub(crate) fn is_string(&self) -> bool {
        self.scalar_type() == Some(ScalarType::Str)
    }

    /// What the node is, in words for messages.
    #[must_use]
    pub(crate) fn describe(&self) -> &'static str {
        match &self.kind {
            NodeKind::Scalar { .. } => self.scalar_type().map_or("a scalar", ScalarType::describe),
            NodeKind::Sequence(_) => "a list",
            NodeKind::Mapping(_) => "a mapping",
            NodeKind::Alias => "an alias",
        }
    }

    /// Where character `index` of a scalar's value is written in `text`, so a caret can point
    /// into the value rather than at a quote or a block indicator. Quoting, indentation and line
    /// folding keep the value's visible characters in order, so they are matched one by one; an
    /// index on whitespace moves to the next visible character. `None` when nothing matches.
    #[must_use]
    pub(crate) fn source_offset(&self, text: &str, index: usize) -> Option<usize> {
        let NodeKind::Scalar { value, .. } = &self.kind else {
            return None;
        };
        let content = self.content_range(text)?;
        let source = &text[content.as_range()];
        if source.starts_with(value.as_str()) {
            return value
                .char_indices()
                .map(|(at, _)| at)
                .chain([value.len()])
                .nth(index)
                .map(|at| content.start + at);
        }
        let (wanted, _) = value
            .chars()
            .enumerate()
            .skip(index)
            .find(|(_, ch)| !ch.is_whitespace())?;
        let mut written = source.char_indices();
        for (at_char, ch) in value.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            let at = loop {
                let (at, seen) = written.next()?;
                if seen == ch {
                    break at;
                }
            };
            if at_char == wanted {
                return Some(content.start + at);
            }
        }
        None
    }

    /// The written text of a scalar's value: inside its quotes, or below a block header line.
    #[must_use]
    pub(crate) fn content_range(&self, text: &str) -> Option<TextRange> {
        let NodeKind::Scalar { style, .. } = &self.kind else {
            return None;
        };
        let range = self.range;
        Some(match style {
            Style::Plain => range,
            Style::SingleQuoted | Style::DoubleQuoted => {
                if range.len() < 2 {
                    return None;
                }
                TextRange::new(range.start + 1, range.end - 1)
            }
            Style::Literal | Style::Folded => {
                let header = text[range.as_range()]
                    .find('\n')
                    .map_or(range.len(), |at| at + 1);
                TextRange::new(range.start + header, range.end.max(range.start + header))
            }
        })
    }

    /// Looks a key up in a mapping node (the first entry with that key).
    #[must_use]
    pub(crate) fn get(&self, key: &str) -> Option<&Entry> {
        self.as_mapping()?
            .iter()
            .find(|entry| entry.key.as_str() == Some(key))
    }
}

/// Resolves a plain scalar by the YAML 1.2 core schema.
#[must_use]
pub(crate) fn core_type(value: &str) -> ScalarType {
    match value {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarType::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return ScalarType::Bool,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return ScalarType::Float,
        _ => {}
    }
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    if !unsigned.is_empty() && unsigned.bytes().all(|byte| byte.is_ascii_digit()) {
        return ScalarType::Int;
    }
    if let Some(octal) = value.strip_prefix("0o") {
        if !octal.is_empty() && octal.bytes().all(|byte| (b'0'..=b'7').contains(&byte)) {
            return ScalarType::Int;
        }
    }
    if let Some(hex) = value.strip_prefix("0x") {
        if !hex.is_empty() && hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return ScalarType::Int;
        }
    }
    if is_core_float(unsigned) {
        return ScalarType::Float;
    }
    ScalarType::Str
}

fn is_core_float(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty())
        }
        None => !mantissa.is_empty() && digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !exponent.is_empty() && digits(exponent)
    });
    mantissa_ok && exponent_ok
}

/// What a YAML 1.1 loader (PyYAML and friends) reads a plain scalar as, when that differs from a
/// YAML 1.2 string: `yes`/`no`/`on`/`off`/`y`/`n`, dates, sexagesimal and underscored numbers.
#[must_use]
pub(crate) fn yaml11_only_type(value: &str) -> Option<&'static str> {
    match value {
        "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "on" | "On" | "ON"
        | "off" | "Off" | "OFF" => return Some("a boolean"),
        _ => {}
    }
    let bytes = value.as_bytes();
    let is_date = bytes.len() >= 8
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && value[5..]
            .split(['-', 'T', 't', ' ', ':', '.', 'Z', '+'])
            .all(|part| part.bytes().all(|byte| byte.is_ascii_digit()));
    if is_date {
        return Some("a date");
    }
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    let number_like = |text: &str| {
        !text.is_empty()
            && text.bytes().any(|byte| byte.is_ascii_digit())
            && text
                .bytes()
                .all(|byte| byte.is_ascii_digit() || matches!(byte, b'_' | b'.' | b':'))
    };
    if (unsigned.contains('_') || unsigned.contains(':')) && number_like(unsigned) {
        return Some("a number");
    }
    if let Some(binary) = unsigned.strip_prefix("0b") {
        if !binary.is_empty()
            && binary
                .bytes()
                .all(|byte| matches!(byte, b'0' | b'1' | b'_'))
        {
            return Some("a number");
        }
    }
    None
}

/// A parse failure at a byte offset of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub offset: usize,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct YamlDocument {
    /// The first document's root; `None` for an empty stream or after an error.
    pub root: Option<Node>,
    pub error: Option<YamlError>,
    /// More than one document in the frontmatter (an inner `---` or `...`).
    pub extra_documents: bool,
    /// Anchors, aliases and tags, in file order: YAML allows them, strict parsers do not.
    pub decorations: Vec<Decoration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DecorationKind {
    /// `&name` before a node.
    Anchor,
    /// `*name` in place of a node.
    Alias,
    /// `!!str`, `!custom` and the like before a node.
    Tag,
}

/// An anchor, alias or tag and the characters that write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decoration {
    pub kind: DecorationKind,
    pub range: TextRange,
}

enum Frame {
    Sequence {
        start: usize,
        items: Vec<Node>,
        flow: bool,
        tagged: bool,
    },
    Mapping {
        start: usize,
        entries: Vec<Entry>,
        key: Option<Node>,
        flow: bool,
        tagged: bool,
    },
}

/// Maps saphyr's character indices to byte offsets of the file.
struct Offsets<'a> {
    text: &'a str,
    base: usize,
    /// Byte offset of each char index; empty when the text is ASCII and the two agree.
    table: Vec<usize>,
}

impl<'a> Offsets<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        let table = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices()
                .map(|(byte, _)| byte)
                .chain([text.len()])
                .collect()
        };
        Self { text, base, table }
    }

    fn byte(&self, char_index: usize) -> usize {
        let local = if self.table.is_empty() {
            char_index.min(self.text.len())
        } else {
            self.table
                .get(char_index)
                .copied()
                .unwrap_or(self.text.len())
        };
        self.base + local
    }

    /// Moves `end` back over trailing blanks and line breaks (block scalars end at the next line).
    fn trim_end(&self, start: usize, end: usize) -> usize {
        let local = &self.text[start - self.base..end - self.base];
        start + local.trim_end_matches([' ', '\t', '\r', '\n']).len()
    }
}

/// Records the anchor and tag of a node whose event starts at `start` (saphyr's span starts at
/// them; it numbers anchors from 1, 0 is none) and returns where the node itself starts.
fn decorations(
    document: &mut YamlDocument,
    text: &str,
    start: usize,
    anchor: usize,
    tag: bool,
) -> usize {
    if anchor == 0 && !tag {
        return start;
    }
    let mut at = start;
    loop {
        let rest = &text[at..];
        let kind = match rest.as_bytes().first() {
            Some(b'&') => DecorationKind::Anchor,
            Some(b'!') => DecorationKind::Tag,
            _ => return at,
        };
        let len = rest.find([' ', '\t', '\r', '\n']).unwrap_or(rest.len());
        document.decorations.push(Decoration {
            kind,
            range: TextRange::new(at, at + len),
        });
        // The node may start on the next line: `metadata: &m` then its keys.
        at += len + rest[len..].len()
            - rest[len..]
                .trim_start_matches([' ', '\t', '\r', '\n'])
                .len();
    }
}

/// Parses `text[yaml]` (the frontmatter of the whole `text`). Never fails: errors are data.
#[must_use]
pub(crate) fn parse(text: &str, yaml: TextRange) -> YamlDocument {
    let source = &text[yaml.as_range()];
    let offsets = Offsets::new(source, yaml.start);
    let mut parser = Parser::new_from_str(source);
    let mut stack: Vec<Frame> = Vec::new();
    let mut document = YamlDocument::default();
    let mut documents = 0;
    // End of the last complete node, to find block scalar indicators that saphyr's spans skip.
    let mut last_end = yaml.start;

    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(pair) => pair,
            Err(error) => {
                document.root = None;
                document.error = Some(YamlError {
                    offset: offsets.byte(error.marker().index()),
                    message: error.info().to_owned(),
                });
                return document;
            }
        };
        let start = offsets.byte(span.start.index());
        let end = offsets.byte(span.end.index());
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    document.extra_documents = true;
                    break;
                }
                continue;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
            Event::SequenceStart(anchor, tag) => {
                let start = decorations(&mut document, text, start, anchor, tag.is_some());
                let flow = text[start..].starts_with('[');
                stack.push(Frame::Sequence {
                    start,
                    items: Vec::new(),
                    flow,
                    tagged: tag.is_some(),
                });
                last_end = start;
                continue;
            }
            Event::MappingStart(anchor, tag) => {
                let start = decorations(&mut document, text, start, anchor, tag.is_some());
                let flow = text[start..].starts_with('{');
                stack.push(Frame::Mapping {
                    start,
                    entries: Vec::new(),
                    key: None,
                    flow,
                    tagged: tag.is_some(),
                });
                last_end = start;
                continue;
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Sequence {
                    start,
                    items,
                    flow,
                    tagged,
                }) => {
                    let end = if flow {
                        end
                    } else {
                        items.last().map_or(start, |item| item.range.end)
                    };
                    Node {
                        kind: NodeKind::Sequence(items),
                        range: TextRange::new(start, end.max(start)),
                        flow,
                        tagged,
                    }
                }
                _ => break,
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Mapping {
                    start,
                    entries,
                    flow,
                    tagged,
                    ..
                }) => {
                    let end = if flow {
                        end
                    } else {
                        entries.last().map_or(start, |entry| entry.value.range.end)
                    };
                    Node {
                        kind: NodeKind::Mapping(entries),
                        range: TextRange::new(start, end.max(start)),
                        flow,
                        tagged,
                    }
                }
                _ => break,
            },
            Event::Alias(_) => {
                document.decorations.push(Decoration {
                    kind: DecorationKind::Alias,
                    range: TextRange::new(start, end),
                });
                Node {
                    kind: NodeKind::Alias,
                    range: TextRange::new(start, end),
                    flow: false,
                    tagged: false,
                }
            }
            Event::Scalar(value, scalar_style, anchor, tag) => {
                let tagged_start = start;
                let start = decorations(&mut document, text, start, anchor, tag.is_some());
                let style = match scalar_style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted => Style::SingleQuoted,
                    ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                };
                let range = if style.is_block() {
                    // saphyr's span starts at the content; the node starts at its `|` or `>`,
                    // the first one after the key (a comment on the header line may hold more).
                    // After an anchor or tag, the span starts at them and the indicator follows.
                    let header = if tagged_start == start {
                        &text[last_end..start.max(last_end)]
                    } else {
                        ""
                    };
                    let indicator = header.find(['|', '>']).map_or(start, |at| last_end + at);
                    TextRange::new(indicator, offsets.trim_end(indicator, end.max(indicator)))
                } else if style == Style::Plain && value.is_empty() {
                    TextRange::empty(last_end)
                } else {
                    TextRange::new(start, end)
                };
                Node {
                    kind: NodeKind::Scalar {
                        value: value.into_owned(),
                        style,
                    },
                    range,
                    flow: false,
                    tagged: tag.is_some(),
                }
            }
        };
        last_end = node.range.end;
        match stack.last_mut() {
            None => {
                if document.root.is_none() {
                    document.root = Some(node);
                }
            }
            Some(Frame::Sequence { items, .. }) => items.push(node),
            Some(Frame::Mapping { entries, key, .. }) => match key.take() {
                None => {
                    // An empty value's range sits right after its key's colon.
                    last_end = text[node.range.end..]
                        .find(':')
                        .map_or(node.range.end, |colon| node.range.end + colon + 1);
                    *key = Some(node);
                }
                Some(key_node) => entries.push(Entry {
                    key: key_node,
                    value: node,
                }),
            },
        }
    }
    document
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_all(text: &str) -> YamlDocument {
        parse(text, TextRange::new(0, text.len()))
    }

    #[test]
    fn a_repeated_key_is_found_at_any_depth_and_only_then() {
        let cases = [
            ("a: 1\nb: 2\n", false),
            ("a: 1\nb: 2\na: 3\n", true),
            ("a: 1\nm:\n  x: 1\n  y: 2\n", false),
            ("a: 1\nm:\n  x: 1\n  x: 2\n", true),
            ("l:\n  - {p: 1, q: 2}\n  - {p: 1, p: 2}\n", true),
            ("l:\n  - {p: 1}\n  - {p: 1}\n", false),
            ("? [a]\n: 1\n? [a]\n: 2\n", false),
        ];
        for (text, repeats) in cases {
            let root = parse_all(text).root.unwrap();
            assert_eq!(root.repeats_a_key(), repeats, "{text}");
        }
    }

    fn slice<'t>(text: &'t str, node: &Node) -> &'t str {
        &text[node.range.as_range()]
    }

    #[test]
    fn anchors_aliases_and_tags_are_found_where_they_are_written() {
        let text = "name: &n pdf # &not-this\ndescription: !!str >-\n  Text\nmetadata: &m\n  a: *n\n  b: !custom [x]\nlist: !!seq\n  - &i one\n";
        let document = parse_all(text);
        assert!(document.error.is_none(), "{:?}", document.error);
        let found: Vec<(DecorationKind, &str)> = document
            .decorations
            .iter()
            .map(|decoration| (decoration.kind, &text[decoration.range.as_range()]))
            .collect();
        assert_eq!(
            found,
            [
                (DecorationKind::Anchor, "&n"),
                (DecorationKind::Tag, "!!str"),
                (DecorationKind::Anchor, "&m"),
                (DecorationKind::Alias, "*n"),
                (DecorationKind::Tag, "!custom"),
                (DecorationKind::Tag, "!!seq"),
                (DecorationKind::Anchor, "&i"),
            ]
        );
        // The nodes themselves start after their anchor or tag.
        let root = document.root.unwrap();
        assert_eq!(slice(text, &root.get("name").unwrap().value), "pdf");
        assert_eq!(
            slice(text, &root.get("description").unwrap().value),
            ">-\n  Text"
        );
        let metadata = &root.get("metadata").unwrap().value;
        assert!(slice(text, metadata).starts_with("a: *n"));
        assert!(metadata.get("b").unwrap().value.flow);
        assert!(
            parse_all("name: pdf\ndescription: 'a & b ! c'\n")
                .decorations
                .is_empty()
        );
    }

    #[test]
    fn spans_cover_keys_and_values_in_bytes() {
        let text = "name: pdf\ndescription: \"中文 x\"\nk: 'q'\n";
        let root = parse_all(text).root.unwrap();
        let entries = root.as_mapping().unwrap();
        assert_eq!(slice(text, &entries[0].key), "name");
        assert_eq!(slice(text, &entries[0].value), "pdf");
        assert_eq!(slice(text, &entries[1].value), "\"中文 x\"");
        assert_eq!(entries[1].value.as_str(), Some("中文 x"));
        assert_eq!(slice(text, &entries[2].value), "'q'");
    }

    #[test]
    fn block_scalars_start_at_their_indicator() {
        let text = "description: |\n  one\n  ---\nnext: >-\n  a\n  b\n";
        let root = parse_all(text).root.unwrap();
        let description = &root.get("description").unwrap().value;
        assert_eq!(slice(text, description), "|\n  one\n  ---");
        assert_eq!(description.as_str(), Some("one\n---\n"));
        let next = &root.get("next").unwrap().value;
        assert_eq!(slice(text, next), ">-\n  a\n  b");
        assert_eq!(next.as_str(), Some("a b"));
    }

    #[test]
    fn a_comment_on_the_header_line_is_not_the_indicator() {
        let text = "description: > # see <x>\n  a <b>\n";
        let root = parse_all(text).root.unwrap();
        let description = &root.get("description").unwrap().value;
        assert_eq!(slice(text, description), "> # see <x>\n  a <b>");
        assert_eq!(description.as_str(), Some("a <b>\n"));
    }

    #[test]
    fn source_offsets_skip_quotes_indicators_and_folding() {
        let text =
            "a: >-\n  one\n  two <x>\nb: \"q \\\"<\\\" z\"\nc: plain\n  more <y>\nd: 'it''s <w>'\n";
        let root = parse_all(text).root.unwrap();
        let at = |key: &str, needle: char| {
            let value = &root.get(key).unwrap().value;
            let parsed = value.as_str().unwrap();
            let index = parsed[..parsed.find(needle).unwrap()].chars().count();
            value.source_offset(text, index).map(|at| &text[at..=at])
        };
        assert_eq!(at("a", '<'), Some("<"));
        assert_eq!(at("b", '<'), Some("<"));
        assert_eq!(at("c", '<'), Some("<"));
        assert_eq!(at("d", '<'), Some("<"));
        let a = &root.get("a").unwrap().value;
        // The folded line break is whitespace: the next visible character stands for it.
        assert_eq!(
            a.source_offset(text, 3).map(|at| &text[at..at + 3]),
            Some("two")
        );
        assert_eq!(
            &text[a.content_range(text).unwrap().as_range()],
            "  one\n  two <x>"
        );
    }

    #[test]
    fn collections_know_flow_and_block() {
        let text = "a: [x, y]\nb:\n  - x\n  - y\nc: {k: v}\nd:\n  k: v\n";
        let root = parse_all(text).root.unwrap();
        let value = |key| &root.get(key).unwrap().value;
        assert!(value("a").flow && value("c").flow);
        assert!(!value("b").flow && !value("d").flow);
        assert_eq!(slice(text, value("a")), "[x, y]");
        assert_eq!(slice(text, value("b")), "- x\n  - y");
        assert_eq!(slice(text, value("d")), "k: v");
    }

    #[test]
    fn empty_value_sits_after_the_colon() {
        let text = "name:\ndescription: x\n";
        let root = parse_all(text).root.unwrap();
        let name = &root.get("name").unwrap().value;
        assert_eq!(name.scalar_type(), Some(ScalarType::Null));
        assert_eq!(name.range, TextRange::empty(5));
    }

    #[test]
    fn errors_carry_a_byte_offset() {
        let text = "é: x\ndescription: Use when: the user\n";
        let document = parse_all(text);
        assert!(document.root.is_none());
        let error = document.error.unwrap();
        assert_eq!(error.offset, text.find(": the").unwrap());
        assert!(error.message.contains("mapping values"));
    }

    #[test]
    fn scalar_types() {
        for (value, expected) in [
            ("3000", ScalarType::Int),
            ("1.0", ScalarType::Float),
            ("-2e5", ScalarType::Float),
            ("0x1F", ScalarType::Int),
            ("true", ScalarType::Bool),
            ("~", ScalarType::Null),
            ("yes", ScalarType::Str),
            ("1.0.3", ScalarType::Str),
            ("pdf", ScalarType::Str),
            (".", ScalarType::Str),
        ] {
            assert_eq!(core_type(value), expected, "{value}");
        }
        assert_eq!(yaml11_only_type("no"), Some("a boolean"));
        assert_eq!(yaml11_only_type("2024-01-31"), Some("a date"));
        assert_eq!(yaml11_only_type("1_000"), Some("a number"));
        assert_eq!(yaml11_only_type("1:20"), Some("a number"));
        assert_eq!(yaml11_only_type("none"), None);
        assert_eq!(yaml11_only_type("pdf-2024"), None);
    }

    #[test]
    fn lists_and_empty_streams() {
        let document = parse_all("- a\n- b\n");
        assert!(matches!(document.root.unwrap().kind, NodeKind::Sequence(_)));
        assert_eq!(parse_all("").root, None);
        assert_eq!(parse_all("# only a comment\n").root, None);
    }
}
