//! Text ranges and the line index: byte offsets inside, positions at the edges.
//!
//! Invariant: every `TextRange` handed out by the core lies on UTF-8 char boundaries of the text it
//! was computed from. `LineIndex` converts a byte offset to a line plus a column counted in bytes,
//! UTF-16 code units (the LSP default) or Unicode scalar values (the CLI's columns), and back.

use std::ops::Range;

/// A half-open byte range `start..end` into a document's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

impl TextRange {
    #[must_use]
    pub(crate) fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "range start {start} after end {end}");
        Self { start, end }
    }

    #[must_use]
    pub(crate) fn empty(offset: usize) -> Self {
        Self::new(offset, offset)
    }

    #[must_use]
    pub(crate) fn len(self) -> usize {
        self.end - self.start
    }

    #[must_use]
    pub(crate) fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// True when the two ranges share at least one byte, or one is empty and sits inside the other.
    #[must_use]
    pub(crate) fn overlaps(self, other: TextRange) -> bool {
        self.start < other.end && other.start < self.end
            || (self.is_empty() && other.start <= self.start && self.start < other.end)
            || (other.is_empty() && self.start <= other.start && other.start < self.end)
    }

    #[must_use]
    pub(crate) fn shifted(self, by: usize) -> Self {
        Self::new(self.start + by, self.end + by)
    }

    #[must_use]
    pub(crate) fn as_range(self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Range<usize>> for TextRange {
    fn from(range: Range<usize>) -> Self {
        Self::new(range.start, range.end)
    }
}

/// A zero-based line and a zero-based column whose unit depends on the encoding asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// The unit a column is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColumnUnit {
    /// Bytes of UTF-8 (LSP `utf-8` position encoding).
    Utf8,
    /// UTF-16 code units (LSP default).
    Utf16,
    /// Unicode scalar values (the CLI and JSON output).
    Char,
}

/// Start offsets of every line.
///
/// The one line model of the project: a line ends at `\n`, `\r\n` or a lone `\r`, as in LSP,
/// YAML and CommonMark, so the CLI's `line:column` and an editor's position name the same
/// character. [`lines_with_ranges`] splits by the same rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    #[must_use]
    pub(crate) fn new(text: &str) -> Self {
        let mut line_starts = Vec::with_capacity(text.len() / 40 + 1);
        line_starts.push(0);
        let bytes = text.as_bytes();
        line_starts.extend(
            memchr::memchr2_iter(b'\n', b'\r', bytes)
                .filter(|&at| !(bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n')))
                .map(|at| at + 1),
        );
        Self {
            line_starts,
            len: text.len(),
        }
    }

    /// Number of lines; a text ending in a line break has an empty last line.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte range of line `line` including its line ending, or `None` past the end.
    #[must_use]
    pub(crate) fn line_range(&self, line: usize) -> Option<TextRange> {
        let start = *self.line_starts.get(line)?;
        let end = self.line_starts.get(line + 1).copied().unwrap_or(self.len);
        Some(TextRange::new(start, end))
    }

    /// The zero-based line holding `offset` (offsets past the end map to the last line).
    #[must_use]
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Converts a byte offset to a line and column in `unit`. Offsets past the end clamp to the end;
    /// offsets inside a multi-byte character count up to that character's start.
    #[must_use]
    pub(crate) fn line_col(&self, text: &str, offset: usize, unit: ColumnUnit) -> LineCol {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let line_start = self.line_starts[line];
        let prefix = &text[line_start..offset];
        let col = match unit {
            ColumnUnit::Utf8 => prefix.len(),
            ColumnUnit::Utf16 => prefix.chars().map(char::len_utf16).sum(),
            ColumnUnit::Char => prefix.chars().count(),
        };
        LineCol {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    /// Converts a line and column back to a byte offset. A line past the end gives the end of the
    /// text; a column past the end of its line gives the end of that line (before its line ending);
    /// a column in the middle of a character gives that character's start.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn offset(&self, text: &str, position: LineCol, unit: ColumnUnit) -> usize {
        let Some(line_range) = self.line_range(position.line as usize) else {
            return text.len();
        };
        let line_text = &text[line_range.as_range()];
        let content_len = line_text.len() - line_break_len(line_text);
        let wanted = position.col as usize;
        let mut units = 0;
        for (byte_idx, ch) in line_text[..content_len].char_indices() {
            let width = match unit {
                ColumnUnit::Utf8 => ch.len_utf8(),
                ColumnUnit::Utf16 => ch.len_utf16(),
                ColumnUnit::Char => 1,
            };
            if units + width > wanted {
                return line_range.start + byte_idx;
            }
            units += width;
        }
        line_range.start + content_len
    }
}

/// A position counted in every column unit at once, for a place in a file whose text will not
/// be at hand when the position is needed (the other skill of a `duplicate-name`): front ends
/// pick their unit and never read the file again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Point {
    /// Zero-based line.
    pub line: u32,
    /// Zero-based columns in UTF-8 bytes, UTF-16 code units and characters.
    pub utf8: u32,
    pub utf16: u32,
    pub char: u32,
}

impl Point {
    /// The point of a byte offset of `text`, scanning only the text before it.
    #[must_use]
    pub(crate) fn at(text: &str, offset: usize) -> Self {
        let offset = floor_char_boundary(text, offset);
        let mut line = 0u32;
        let mut line_start = 0;
        while let Some((_, next)) = next_break(text, line_start).filter(|(_, next)| *next <= offset)
        {
            line += 1;
            line_start = next;
        }
        let prefix = &text[line_start..offset];
        let count = |units: usize| u32::try_from(units).unwrap_or(u32::MAX);
        Self {
            line,
            utf8: count(prefix.len()),
            utf16: count(prefix.chars().map(char::len_utf16).sum()),
            char: count(prefix.chars().count()),
        }
    }

    #[must_use]
    pub(crate) fn col(self, unit: ColumnUnit) -> u32 {
        match unit {
            ColumnUnit::Utf8 => self.utf8,
            ColumnUnit::Utf16 => self.utf16,
            ColumnUnit::Char => self.char,
        }
    }
}

/// A range as two [`Point`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Span {
    pub start: Point,
    pub end: Point,
}

impl Span {
    #[must_use]
    pub(crate) fn of(text: &str, range: TextRange) -> Self {
        Self {
            start: Point::at(text, range.start),
            end: Point::at(text, range.end),
        }
    }
}

/// `12,345`.
#[must_use]
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The bytes as text: their own when they are UTF-8 (no copy, no second pass), a lossy decoding
/// otherwise.
#[must_use]
pub(crate) fn decode_lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

/// The wide Unicode encoding `bytes` are in, when they are UTF-16 or UTF-32 rather than UTF-8:
/// by the byte-order mark, or without one by the zero bytes that wide encodings put beside
/// each ASCII character (a SKILL.md starts with `---`, so its first characters are ASCII).
/// UTF-16 text of ASCII characters is valid UTF-8 full of NUL bytes, which would otherwise read
/// as a file without frontmatter.
#[must_use]
pub(crate) fn wide_encoding(bytes: &[u8]) -> Option<&'static str> {
    const MARKS: [(&[u8], &str); 4] = [
        (&[0xFF, 0xFE, 0, 0], "UTF-32LE"),
        (&[0, 0, 0xFE, 0xFF], "UTF-32BE"),
        (&[0xFF, 0xFE], "UTF-16LE"),
        (&[0xFE, 0xFF], "UTF-16BE"),
    ];
    if let Some((_, name)) = MARKS.iter().find(|(mark, _)| bytes.starts_with(mark)) {
        return Some(name);
    }
    // Without a mark: the zero bytes of the first eight bytes, when they are all ASCII or zero
    // and follow one of the wide patterns exactly.
    let head = bytes.get(..8)?;
    if head.iter().any(|byte| *byte >= 0x80) {
        return None;
    }
    let zero = |at: usize| head[at] == 0;
    let pattern = |zeros: &[usize]| (0..8).all(|at| zero(at) == zeros.contains(&(at % 4)));
    [
        (&[1, 2, 3][..], "UTF-32LE"),
        (&[0, 1, 2][..], "UTF-32BE"),
        (&[1, 3][..], "UTF-16LE"),
        (&[0, 2][..], "UTF-16BE"),
    ]
    .into_iter()
    .find(|(zeros, _)| pattern(zeros))
    .map(|(_, name)| name)
}

/// Whether `c` would be obeyed rather than shown by a terminal or a reader: control characters
/// (an escape sequence moves the cursor, recolours, clears the screen; a line break starts a
/// line a CI runner may read as a workflow command) and the bidirectional formatting characters
/// (they show text in another order than it is).
#[must_use]
pub(crate) fn hidden_meaning(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with each character of [`hidden_meaning`] but those in `keep` written as its escape
/// (`\u{1b}`): shown, never obeyed.
#[must_use]
pub(crate) fn escape_hidden<'a>(text: &'a str, keep: &[char]) -> std::borrow::Cow<'a, str> {
    let hidden = |c: char| hidden_meaning(c) && !keep.contains(&c);
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// File text (a name, a value, a path, a line) as one line of a terminal or CI log: everything
/// [`escape_hidden`] escapes but tabs.
#[must_use]
pub(crate) fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    escape_hidden(text, &['\t'])
}

/// The greatest char boundary at or below `offset`.
#[must_use]
pub(crate) fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    if offset >= text.len() {
        return text.len();
    }
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The length of the line break that ends `line` (`\n`, `\r\n`, `\r` or none).
#[cfg(test)]
fn line_break_len(line: &str) -> usize {
    if line.ends_with("\r\n") {
        2
    } else if line.ends_with(['\n', '\r']) {
        1
    } else {
        0
    }
}

/// The offset just past the line break that ends the line starting at or before `from`, and the
/// end of that line's content: `(content_end, next_line_start)`. `None` when no break follows.
fn next_break(text: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let at = from + memchr::memchr2(b'\n', b'\r', &bytes[from..])?;
    let width = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
        2
    } else {
        1
    };
    Some((at, at + width))
}

/// The length in bytes of a UTF-8 byte-order mark at the start of `text` (0 or 3): the readers
/// that skip it start there.
#[must_use]
pub(crate) fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// How many lines [`lines_with_ranges`] yields, counted without visiting each line: every
/// line break ends one, and text after the last break (or no text at all) is one more.
#[must_use]
pub(crate) fn line_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let feeds = memchr::memchr_iter(b'\n', bytes).count();
    // A lone CR ends a line too; a CR before LF is half of one break.
    let lone_returns = memchr::memchr_iter(b'\r', bytes)
        .filter(|&at| bytes.get(at + 1) != Some(&b'\n'))
        .count();
    let ends_with_break = matches!(bytes.last(), Some(b'\n' | b'\r'));
    feeds + lone_returns + usize::from(text.is_empty() || !ends_with_break)
}

/// Splits text into lines (by the one line model of [`LineIndex`]), each with its byte range
/// excluding the line break.
pub(crate) fn lines_with_ranges(text: &str) -> impl Iterator<Item = (TextRange, &str)> {
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let (end, next) = match next_break(text, start) {
            Some(found) => found,
            None => {
                done = true;
                if start == text.len() && start != 0 {
                    return None;
                }
                (text.len(), text.len())
            }
        };
        let range = TextRange::new(start, end);
        start = next;
        Some((range, &text[range.as_range()]))
    })
}

/// `text` for XML element text or a double-quoted attribute: `& < > "` escaped, and the
/// control characters XML 1.0 forbids even when escaped written as spaces.
#[must_use]
pub(crate) fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped_and_forbidden_controls_become_spaces() {
        assert_eq!(
            xml_escape("a <b> & \"c\" it's\u{7}\tend"),
            "a &lt;b&gt; &amp; &quot;c&quot; it's \tend"
        );
    }

    #[test]
    fn wide_encodings_are_named_with_or_without_a_mark() {
        let text = "---\nname: x\n";
        let utf16le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let utf16be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let utf32le: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_le_bytes())
            .collect();
        let utf32be: Vec<u8> = text
            .chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect();
        for (bytes, name) in [
            (utf16le, "UTF-16LE"),
            (utf16be, "UTF-16BE"),
            (utf32le, "UTF-32LE"),
            (utf32be, "UTF-32BE"),
        ] {
            assert_eq!(wide_encoding(&bytes), Some(name));
            let mark: &[u8] = match name {
                "UTF-16LE" => &[0xFF, 0xFE],
                "UTF-16BE" => &[0xFE, 0xFF],
                "UTF-32LE" => &[0xFF, 0xFE, 0, 0],
                _ => &[0, 0, 0xFE, 0xFF],
            };
            assert_eq!(wide_encoding(&[mark, &bytes].concat()), Some(name));
        }
        for utf8 in [
            "---\nname: x\n",
            "",
            "---",
            "\u{feff}---\nname: été\n",
            "ab\0cd\0ef\0",
        ] {
            assert_eq!(wide_encoding(utf8.as_bytes()), None, "{utf8:?}");
        }
    }

    #[test]
    fn terminal_controls_are_shown_not_obeyed() {
        assert_eq!(visible("plain é 日本\tx"), "plain é 日本\tx");
        assert!(matches!(visible("plain"), std::borrow::Cow::Borrowed(_)));
        assert_eq!(
            visible("a\u{1b}[2Jb\nc\rd\u{7}\u{9b}e\u{202e}f"),
            "a\\u{1b}[2Jb\\u{a}c\\u{d}d\\u{7}\\u{9b}e\\u{202e}f"
        );
        assert_eq!(
            visible("x\n::error file=a::forged"),
            "x\\u{a}::error file=a::forged"
        );
        assert_eq!(escape_hidden("a\nb\u{1b}", &['\n']), "a\nb\\u{1b}");
    }

    #[test]
    fn line_count_is_the_number_of_lines_yielded() {
        for text in [
            "",
            "a",
            "\n",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\rb",
            "\r",
            "\r\n",
            "\r\r\n\n",
            "x\r",
            "x\r\ny\rz\n\n",
            "中文\r\n😀",
        ] {
            assert_eq!(
                line_count(text),
                lines_with_ranges(text).count(),
                "{text:?}"
            );
        }
    }

    fn round_trip(text: &str) {
        let index = LineIndex::new(text);
        for unit in [ColumnUnit::Utf8, ColumnUnit::Utf16, ColumnUnit::Char] {
            for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let position = index.line_col(text, offset, unit);
                let back = index.offset(text, position, unit);
                // The `\r` of a CRLF is not addressable as a column of its own line's content.
                if text[..offset].ends_with('\r') && text[offset..].starts_with('\n') {
                    continue;
                }
                assert_eq!(back, offset, "{text:?} offset {offset} unit {unit:?}");
            }
        }
    }

    #[test]
    fn ascii_positions() {
        let text = "ab\ncd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        assert_eq!(
            index.line_col(text, 4, ColumnUnit::Char),
            LineCol { line: 1, col: 1 }
        );
        assert_eq!(
            index.line_col(text, 6, ColumnUnit::Char),
            LineCol { line: 2, col: 0 }
        );
        round_trip(text);
    }

    #[test]
    fn cjk_counts_one_char_three_bytes_one_utf16_unit() {
        let text = "name: 中文x";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.line_col(text, x, ColumnUnit::Char).col, 8);
        assert_eq!(index.line_col(text, x, ColumnUnit::Utf16).col, 8);
        assert_eq!(index.line_col(text, x, ColumnUnit::Utf8).col, 12);
        round_trip(text);
    }

    #[test]
    fn emoji_is_a_surrogate_pair_in_utf16() {
        let text = "a😀b\n😀";
        let index = LineIndex::new(text);
        let b = text.find('b').unwrap();
        assert_eq!(index.line_col(text, b, ColumnUnit::Utf16).col, 3);
        assert_eq!(index.line_col(text, b, ColumnUnit::Char).col, 2);
        assert_eq!(index.line_col(text, b, ColumnUnit::Utf8).col, 5);
        // A UTF-16 column inside the pair maps to the emoji's start.
        assert_eq!(
            index.offset(text, LineCol { line: 0, col: 2 }, ColumnUnit::Utf16),
            1
        );
        round_trip(text);
    }

    #[test]
    fn combining_marks_count_as_their_own_chars() {
        let text = "e\u{301}x";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 3, ColumnUnit::Char).col, 2);
        round_trip(text);
    }

    #[test]
    fn crlf_lines_end_before_the_carriage_return() {
        let text = "a\r\nbc\r\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        assert_eq!(
            index.line_col(text, 3, ColumnUnit::Char),
            LineCol { line: 1, col: 0 }
        );
        // A column past the line's end clamps before the `\r\n`.
        assert_eq!(
            index.offset(text, LineCol { line: 0, col: 9 }, ColumnUnit::Char),
            1
        );
        round_trip(text);
    }

    #[test]
    fn a_lone_carriage_return_ends_a_line() {
        let text = "Intro.\rSee [x](y.md)\r\nz\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        let see = text.find("See").unwrap();
        assert_eq!(
            index.line_col(text, see, ColumnUnit::Char),
            LineCol { line: 1, col: 0 }
        );
        assert_eq!(
            index.offset(text, LineCol { line: 0, col: 99 }, ColumnUnit::Char),
            6,
            "a column past the end stops before the lone CR"
        );
        round_trip(text);
    }

    #[test]
    fn points_agree_with_the_line_index() {
        let text = "a\r\nb😀c\rd中\ne";
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let point = Point::at(text, offset);
            for unit in [ColumnUnit::Utf8, ColumnUnit::Utf16, ColumnUnit::Char] {
                let expected = index.line_col(text, offset, unit);
                assert_eq!(
                    (point.line, point.col(unit)),
                    (expected.line, expected.col),
                    "{offset} {unit:?}"
                );
            }
        }
    }

    #[test]
    fn empty_last_line_and_out_of_range() {
        let text = "x\n";
        let index = LineIndex::new(text);
        assert_eq!(
            index.line_col(text, 2, ColumnUnit::Utf16),
            LineCol { line: 1, col: 0 }
        );
        assert_eq!(
            index.offset(text, LineCol { line: 7, col: 3 }, ColumnUnit::Utf16),
            2
        );
        assert_eq!(
            index.line_col(text, 99, ColumnUnit::Char),
            LineCol { line: 1, col: 0 }
        );
        let empty = "";
        let index = LineIndex::new(empty);
        assert_eq!(index.line_count(), 1);
        assert_eq!(
            index.line_col(empty, 0, ColumnUnit::Char),
            LineCol { line: 0, col: 0 }
        );
    }

    #[test]
    fn lines_with_ranges_strips_endings() {
        let lines: Vec<_> = lines_with_ranges("a\r\nb\n\nc").collect();
        assert_eq!(
            lines,
            vec![
                (TextRange::new(0, 1), "a"),
                (TextRange::new(3, 4), "b"),
                (TextRange::new(5, 5), ""),
                (TextRange::new(6, 7), "c"),
            ]
        );
        assert_eq!(lines_with_ranges("x\n").count(), 1);
        let lines: Vec<_> = lines_with_ranges("a\rb\r\nc\r")
            .map(|(_, line)| line)
            .collect();
        assert_eq!(lines, vec!["a", "b", "c"]);
        assert_eq!(lines_with_ranges("").count(), 1);
    }
}
