//! Open documents: a rope per buffer, its version, and incremental edits applied in the
//! negotiated position encoding.

use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// The position encoding agreed with the client (design.md §7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
}

/// An open document as the editor holds it: a rope for edits in the client's positions, the
/// version the client gave it, and the text as one string for analysis. ("Document" is the
/// parsed SKILL.md, `SkillDocument`; "buffer" is always this.)
#[derive(Clone, Debug)]
pub struct Buffer {
    pub rope: Rope,
    pub version: i32,
    /// The text as one string, rebuilt after each batch of edits; analyses work on this.
    pub text: Arc<str>,
}

impl Buffer {
    #[must_use]
    pub fn new(text: &str, version: i32) -> Self {
        Self {
            rope: Rope::from_str(text),
            version,
            text: Arc::from(text),
        }
    }

    /// Applies a `didChange` batch in order; each range refers to the text after the previous
    /// change. Out-of-range positions are clamped, never a panic.
    pub fn apply(
        &mut self,
        changes: Vec<TextDocumentContentChangeEvent>,
        version: i32,
        encoding: Encoding,
    ) {
        for change in changes {
            match change.range {
                None => self.rope = Rope::from_str(&change.text),
                Some(range) => {
                    let start = char_index(&self.rope, range.start, encoding);
                    let end = char_index(&self.rope, range.end, encoding).max(start);
                    self.rope.remove(start..end);
                    self.rope.insert(start, &change.text);
                }
            }
        }
        self.version = version;
        self.text = Arc::from(self.rope.to_string());
    }
}

/// The char index of an LSP position: a line past the end is the end of the text, a column
/// past the end of its line is the end of that line (before its line break).
#[must_use]
pub(crate) fn char_index(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let line_start = rope.line_to_char(line);
    let slice = rope.line(line);
    let mut content_chars = slice.len_chars();
    // Columns past the content stop before the line break (`\n`, `\r\n` or `\r`).
    if content_chars > 0 && slice.char(content_chars - 1) == '\n' {
        content_chars -= 1;
    }
    if content_chars > 0 && slice.char(content_chars - 1) == '\r' {
        content_chars -= 1;
    }
    let content = slice.slice(..content_chars);
    let column = position.character as usize;
    let chars = match encoding {
        Encoding::Utf16 => content.utf16_cu_to_char(column.min(content.len_utf16_cu())),
        Encoding::Utf8 => content.byte_to_char(column.min(content.len_bytes())),
    };
    line_start + chars
}

/// The LSP position of a byte offset into the document's text.
#[must_use]
pub(crate) fn position_of(rope: &Rope, offset: usize, encoding: Encoding) -> Position {
    let offset = offset.min(rope.len_bytes());
    let char_index = rope.byte_to_char(offset);
    let line = rope.char_to_line(char_index);
    let line_start = rope.line_to_char(line);
    let character = match encoding {
        Encoding::Utf16 => rope.char_to_utf16_cu(char_index) - rope.char_to_utf16_cu(line_start),
        Encoding::Utf8 => offset - rope.line_to_byte(line),
    };
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(character).unwrap_or(u32::MAX),
    )
}

/// The byte offset of an LSP position.
#[must_use]
pub(crate) fn offset_of(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    rope.char_to_byte(char_index(rope, position, encoding))
}

#[must_use]
pub(crate) fn range_of(rope: &Rope, start: usize, end: usize, encoding: Encoding) -> Range {
    Range::new(
        position_of(rope, start, encoding),
        position_of(rope, end, encoding),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's rope and the core's line index share one line model (LF, CRLF, lone CR),
    /// so an editor position and the CLI's `line:column` name the same character.
    #[test]
    fn positions_follow_the_cores_line_model() {
        use crate::text::{ColumnUnit, LineIndex};
        let text = "a\rb😀\r\nc\n\rd中e\r";
        let rope = Rope::from_str(text);
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let position = position_of(&rope, offset, Encoding::Utf16);
            let core = index.line_col(text, offset, ColumnUnit::Utf16);
            assert_eq!(
                (position.line, position.character),
                (core.line, core.col),
                "offset {offset}"
            );
        }
    }

    fn change(range: Option<(u32, u32, u32, u32)>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|(a, b, c, d)| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_edits_in_utf16_and_utf8() {
        let mut document = Buffer::new("a😀b\nline two\n", 1);
        // After the emoji: UTF-16 column 3, UTF-8 column 5.
        document.apply(vec![change(Some((0, 3, 0, 3)), "X")], 2, Encoding::Utf16);
        assert_eq!(&*document.text, "a😀Xb\nline two\n");
        document.apply(vec![change(Some((0, 5, 0, 6)), "Y")], 3, Encoding::Utf8);
        assert_eq!(&*document.text, "a😀Yb\nline two\n");
        document.apply(
            vec![
                change(Some((1, 0, 1, 4)), "LINE"),
                change(Some((1, 4, 1, 8)), "_2"),
            ],
            4,
            Encoding::Utf16,
        );
        assert_eq!(&*document.text, "a😀Yb\nLINE_2\n");
        assert_eq!(document.version, 4);
        document.apply(vec![change(None, "new")], 5, Encoding::Utf16);
        assert_eq!(&*document.text, "new");
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let mut document = Buffer::new("ab\r\ncd", 1);
        document.apply(vec![change(Some((0, 99, 7, 0)), "!")], 2, Encoding::Utf16);
        assert_eq!(&*document.text, "ab!");
        let mut backwards = Buffer::new("abcdef", 1);
        backwards.apply(vec![change(Some((0, 4, 0, 2)), "-")], 2, Encoding::Utf16);
        assert_eq!(&*backwards.text, "abcd-ef");
    }

    #[test]
    fn positions_round_trip() {
        let rope = Rope::from_str("x: 中文😀\r\ny\n");
        for (offset, _) in "x: 中文😀\r\ny\n".char_indices() {
            for encoding in [Encoding::Utf8, Encoding::Utf16] {
                let position = position_of(&rope, offset, encoding);
                let back = offset_of(&rope, position, encoding);
                if offset == 14 {
                    continue; // The `\n` of `\r\n` is not addressable on its own line.
                }
                assert_eq!(back, offset, "{offset} {encoding:?} {position:?}");
            }
        }
        assert_eq!(position_of(&rope, 13, Encoding::Utf16), Position::new(0, 7));
        assert_eq!(position_of(&rope, 9, Encoding::Utf16), Position::new(0, 5));
    }
}
