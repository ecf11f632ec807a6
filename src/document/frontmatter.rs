//! Finds the frontmatter block: the delimiter lines, the YAML between them and the body after.
//!
//! Two readings of the same text live here. `split` is the linter's: it tolerates a BOM, text
//! before the block and malformed delimiters so that it can point at them. `split_strict` is the
//! loader's (design.md §5): a standalone first line `---` and a later standalone `---`, nothing
//! else.

use crate::text::{TextRange, lines_with_ranges};

const BOM: char = '\u{feff}';

/// A delimiter line, without its line ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delimiter {
    pub line: TextRange,
    /// Exactly `---`; otherwise dashes with extras such as `-----`, `--- x` or trailing blanks.
    pub exact: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// Text before the opening delimiter (after any BOM): the `frontmatter-not-first` case.
    pub preamble: Option<TextRange>,
    pub open: Delimiter,
    /// `None` when no closing delimiter line exists.
    pub close: Option<Delimiter>,
    /// The YAML text between the delimiter lines (to the end of the text when unterminated).
    pub yaml: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    pub bom: bool,
    pub block: Option<Block>,
    /// Everything after the closing delimiter line; the whole text (after any BOM) without a block.
    pub body: TextRange,
}

/// How a line that starts at column 0 relates to `---`.
fn delimiter_kind(line: &str) -> Option<bool> {
    if line == "---" {
        return Some(true);
    }
    let dashes = line.bytes().take_while(|&byte| byte == b'-').count();
    if dashes < 3 {
        return None;
    }
    let rest = &line[dashes..];
    // `-----`, `---  ` and `--- x` are meant as delimiters; `---x` is ordinary text.
    if rest.is_empty() || rest.starts_with([' ', '\t']) {
        Some(false)
    } else {
        None
    }
}

/// The end of the line holding `line` including its line ending.
fn line_end_with_newline(text: &str, line: TextRange) -> usize {
    let rest = &text[line.end..];
    if rest.starts_with("\r\n") {
        line.end + 2
    } else if rest.starts_with('\n') {
        line.end + 1
    } else {
        line.end
    }
}

fn is_preamble_line(line: &str, in_comment: &mut bool) -> bool {
    let trimmed = line.trim();
    if *in_comment {
        if trimmed.contains("-->") {
            *in_comment = false;
        }
        return true;
    }
    if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
        return true;
    }
    if trimmed.starts_with("<!--") {
        *in_comment = !trimmed.contains("-->");
        return true;
    }
    false
}

fn looks_like_yaml_key(line: &str) -> bool {
    let key_len = line
        .bytes()
        .take_while(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-'))
        .count();
    key_len > 0
        && line[key_len..]
            .trim_start_matches([' ', '\t'])
            .starts_with(':')
}

/// The linter's reading of `text`.
#[must_use]
pub(crate) fn split(text: &str) -> Split {
    let bom = text.starts_with(BOM);
    let start = if bom { BOM.len_utf8() } else { 0 };
    let mut lines =
        lines_with_ranges(&text[start..]).map(|(range, line)| (range.shifted(start), line));

    let mut in_comment = false;
    let mut preamble_end = None;
    let mut open = None;
    for (index, (range, line)) in lines.by_ref().enumerate() {
        if let Some(exact) = delimiter_kind(line) {
            let is_block = index == 0 || exact;
            if is_block {
                open = Some(Delimiter { line: range, exact });
                if index > 0 {
                    preamble_end = Some(range.start);
                }
                break;
            }
        }
        // Only a short run of blank lines, comments and headings may hide a block below it.
        if index >= 40 || !is_preamble_line(line, &mut in_comment) {
            break;
        }
    }
    let Some(open) = open else {
        return Split {
            bom,
            block: None,
            body: TextRange::new(start, text.len()),
        };
    };
    let yaml_start = line_end_with_newline(text, open.line);
    let mut close = None;
    for (range, line) in lines {
        if let Some(exact) = delimiter_kind(line) {
            close = Some(Delimiter { line: range, exact });
            break;
        }
    }
    if preamble_end.is_some() {
        // A block below other text counts only when it is closed and starts with a key.
        let first_yaml_line = text[yaml_start..].lines().next().unwrap_or("");
        if close.is_none() || !looks_like_yaml_key(first_yaml_line) {
            return Split {
                bom,
                block: None,
                body: TextRange::new(start, text.len()),
            };
        }
    }
    let (yaml_end, body_start) = match close {
        Some(close) => (close.line.start, line_end_with_newline(text, close.line)),
        None => (text.len(), text.len()),
    };
    Split {
        bom,
        block: Some(Block {
            preamble: preamble_end.map(|end| TextRange::new(start, end)),
            open,
            close,
            yaml: TextRange::new(yaml_start, yaml_end),
        }),
        body: TextRange::new(body_start, text.len()),
    }
}

/// The loader's reading (design.md §5): `(yaml, body)` ranges, or `None` when the text has no
/// frontmatter by the strict rule.
#[must_use]
pub(crate) fn split_strict(text: &str) -> Option<(TextRange, TextRange)> {
    let mut lines = lines_with_ranges(text);
    let (first, first_line) = lines.next()?;
    if first_line != "---" || first.end == text.len() {
        return None;
    }
    let yaml_start = line_end_with_newline(text, first);
    for (range, line) in lines {
        if line == "---" {
            let body_start = line_end_with_newline(text, range);
            return Some((
                TextRange::new(yaml_start, range.start),
                TextRange::new(body_start, text.len()),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml_of(text: &str) -> Option<&str> {
        let split = split(text);
        split.block.map(|block| &text[block.yaml.as_range()])
    }

    #[test]
    fn plain_block_and_body() {
        let text = "---\nname: a\n---\n# Body\n";
        let split = split(text);
        let block = split.block.unwrap();
        assert!(block.open.exact && block.close.unwrap().exact);
        assert_eq!(&text[block.yaml.as_range()], "name: a\n");
        assert_eq!(&text[split.body.as_range()], "# Body\n");
        assert_eq!(
            split_strict(text).map(|(yaml, body)| (&text[yaml.as_range()], &text[body.as_range()])),
            Some(("name: a\n", "# Body\n"))
        );
    }

    #[test]
    fn crlf_delimiters() {
        let text = "---\r\nname: a\r\n---\r\nbody";
        assert_eq!(yaml_of(text), Some("name: a\r\n"));
        let (yaml, body) = split_strict(text).unwrap();
        assert_eq!(&text[yaml.as_range()], "name: a\r\n");
        assert_eq!(&text[body.as_range()], "body");
    }

    #[test]
    fn indented_dashes_in_a_block_scalar_are_content() {
        for newline in ["\n", "\r\n"] {
            let text = [
                "---",
                "description: |",
                "  a",
                "  ---",
                "  b",
                "---",
                "body",
                "",
            ]
            .join(newline);
            let (yaml, body) = split_strict(&text).unwrap();
            assert!(text[yaml.as_range()].contains("  ---"));
            assert_eq!(&text[body.as_range()], format!("body{newline}"));
            assert!(yaml_of(&text).unwrap().contains("  ---"));
        }
    }

    #[test]
    fn dashes_followed_by_text_are_not_frontmatter() {
        let text = "---not frontmatter\nname: x\n---\n";
        assert_eq!(split(text).block, None);
        assert_eq!(split_strict(text), None);
    }

    #[test]
    fn bom_is_seen_by_the_linter_not_the_loader() {
        let text = "\u{feff}---\nname: a\n---\n";
        let split = split(text);
        assert!(split.bom);
        assert_eq!(yaml_of(text), Some("name: a\n"));
        assert_eq!(split_strict(text), None);
    }

    #[test]
    fn malformed_delimiters_are_recognised() {
        let text = "-----\nname: a\n--- x\nbody";
        let block = split(text).block.unwrap();
        assert!(!block.open.exact);
        assert!(!block.close.unwrap().exact);
        assert_eq!(&text[block.yaml.as_range()], "name: a\n");
        assert_eq!(split_strict(text), None);
    }

    #[test]
    fn text_before_the_block_is_a_preamble() {
        let text = "<!-- license -->\n\n---\nname: a\n---\nbody\n";
        let block = split(text).block.unwrap();
        assert_eq!(block.preamble, Some(TextRange::new(0, 18)));
        assert_eq!(&text[block.yaml.as_range()], "name: a\n");
        assert_eq!(split_strict(text), None);
        // A horizontal rule in a body is not a hidden block.
        assert_eq!(split("# Title\n\n---\n\nText\n").block, None);
    }

    #[test]
    fn unterminated_block() {
        let text = "---\nname: a\n";
        let block = split(text).block.unwrap();
        assert_eq!(block.close, None);
        assert_eq!(split_strict(text), None);
    }

    #[test]
    fn empty_and_lone_delimiter() {
        assert_eq!(split("").block, None);
        assert_eq!(split_strict("---"), None);
        assert_eq!(
            split_strict("---\n---\n"),
            Some((TextRange::new(4, 4), TextRange::new(8, 8)))
        );
    }
}
