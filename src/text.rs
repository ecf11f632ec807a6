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
    pub fn new(start: usize, end: usize) -> Self {
        debug_assert!(start <= end, "range start {start} after end {end}");
        Self { start, end }
    }

    #[must_use]
    pub fn empty(offset: usize) -> Self {
        Self::new(offset, offset)
    }

    #[must_use]
    pub fn len(self) -> usize {
        self.end - self.start
    }

    #[must_use]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    #[must_use]
    pub fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// True when the two ranges share at least one byte, or one is empty and sits inside the other.
    #[must_use]
    pub fn overlaps(self, other: TextRange) -> bool {
        self.start < other.end && other.start < self.end
            || (self.is_empty() && other.start <= self.start && self.start < other.end)
            || (other.is_empty() && self.start <= other.start && other.start < self.end)
    }

    #[must_use]
    pub fn shifted(self, by: usize) -> Self {
        Self::new(self.start + by, self.end + by)
    }

    #[must_use]
    pub fn as_range(self) -> Range<usize> {
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
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// The unit a column is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnUnit {
    /// Bytes of UTF-8 (LSP `utf-8` position encoding).
    Utf8,
    /// UTF-16 code units (LSP default).
    Utf16,
    /// Unicode scalar values (the CLI and JSON output).
    Char,
}

/// Start offsets of every line. `\n` ends a line; a `\r` before it belongs to the line ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    #[must_use]
    pub fn new(text: &str) -> Self {
        let mut line_starts = Vec::with_capacity(text.len() / 40 + 1);
        line_starts.push(0);
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|newline| newline + 1));
        Self {
            line_starts,
            len: text.len(),
        }
    }

    /// Number of lines; a text ending in `\n` has an empty last line.
    #[must_use]
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte range of line `line` including its line ending, or `None` past the end.
    #[must_use]
    pub fn line_range(&self, line: usize) -> Option<TextRange> {
        let start = *self.line_starts.get(line)?;
        let end = self.line_starts.get(line + 1).copied().unwrap_or(self.len);
        Some(TextRange::new(start, end))
    }

    /// The zero-based line holding `offset` (offsets past the end map to the last line).
    #[must_use]
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Converts a byte offset to a line and column in `unit`. Offsets past the end clamp to the end;
    /// offsets inside a multi-byte character count up to that character's start.
    #[must_use]
    pub fn line_col(&self, text: &str, offset: usize, unit: ColumnUnit) -> LineCol {
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
    #[must_use]
    pub fn offset(&self, text: &str, position: LineCol, unit: ColumnUnit) -> usize {
        let Some(line_range) = self.line_range(position.line as usize) else {
            return text.len();
        };
        let line_text = &text[line_range.as_range()];
        let content_len = line_text
            .strip_suffix("\r\n")
            .or_else(|| line_text.strip_suffix('\n'))
            .map_or(line_text.len(), str::len);
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

/// The greatest char boundary at or below `offset`.
#[must_use]
pub fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    if offset >= text.len() {
        return text.len();
    }
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Splits text into lines, each with its byte range excluding the line ending.
pub fn lines_with_ranges(text: &str) -> impl Iterator<Item = (TextRange, &str)> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start > text.len() || (start == text.len() && start != 0 && text.ends_with('\n')) {
            return None;
        }
        let rest = &text[start..];
        let (line, advance) = match rest.find('\n') {
            Some(newline) => (&rest[..newline], newline + 1),
            None => (rest, rest.len() + 1),
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        let range = TextRange::new(start, start + line.len());
        start += advance;
        Some((range, line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) {
        let index = LineIndex::new(text);
        for unit in [ColumnUnit::Utf8, ColumnUnit::Utf16, ColumnUnit::Char] {
            for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let position = index.line_col(text, offset, unit);
                let back = index.offset(text, position, unit);
                // The `\r` of a CRLF is not addressable as a column of its own line's content.
                if text[..offset].ends_with('\r') || text[offset..].starts_with("\r\n") {
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
        assert_eq!(lines_with_ranges("").count(), 1);
    }
}
