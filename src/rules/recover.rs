//! Linting past a recoverable YAML error: the frontmatter is rewritten the way its fix would
//! write it, linted, and every finding is carried back to the characters of the original text.
//!
//! The rewrite only quotes values, so each character of the rewritten text comes from a known
//! place in the original: the same character (verbatim), an escape of it, a quote mark that
//! stands for the value's edge, or a space that stands for a folded line break.

use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::text::TextRange;

use super::fix::{escape, prefers_single_quotes};

/// A run of the rewritten text and the original text it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    new: TextRange,
    old: TextRange,
    /// Same bytes in both texts, so offsets inside map one to one.
    verbatim: bool,
}

/// The rewritten text and the way back to the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rewrite {
    pub text: String,
    /// Cover the rewritten text, in order.
    pieces: Vec<Piece>,
    /// The rewritten values, in rewritten offsets.
    regions: Vec<TextRange>,
    original_len: usize,
}

/// A plain value to quote: the original ranges of its lines' text, which YAML folds into one
/// line joined by spaces.
pub(super) struct Quote {
    pub lines: Vec<TextRange>,
}

impl Rewrite {
    /// `text` with each value of `quotes` (sorted, not overlapping) written as a quoted scalar
    /// exactly as `fix::quoted` writes it.
    pub(super) fn quoting(text: &str, quotes: &[Quote]) -> Self {
        let mut out = Self {
            text: String::with_capacity(text.len() + 16),
            pieces: Vec::new(),
            regions: Vec::new(),
            original_len: text.len(),
        };
        let mut copied = 0;
        for quote in quotes {
            let (Some(first), Some(last)) = (quote.lines.first(), quote.lines.last()) else {
                continue;
            };
            out.push(text, TextRange::new(copied, first.start), None);
            let region_start = out.text.len();
            let intended = quote
                .lines
                .iter()
                .map(|line| &text[line.as_range()])
                .collect::<Vec<_>>()
                .join(" ");
            let single = prefers_single_quotes(&intended);
            let mark = if single { "'" } else { "\"" };
            out.push(text, TextRange::empty(first.start), Some(mark));
            for (index, line) in quote.lines.iter().enumerate() {
                if index > 0 {
                    let folded = TextRange::new(quote.lines[index - 1].end, line.start);
                    out.push(text, folded, Some(" "));
                }
                let mut run = line.start;
                for (at, ch) in text[line.as_range()].char_indices() {
                    if let Some(escaped) = escape(ch, single) {
                        let at = line.start + at;
                        out.push(text, TextRange::new(run, at), None);
                        out.push(text, TextRange::new(at, at + ch.len_utf8()), Some(&escaped));
                        run = at + ch.len_utf8();
                    }
                }
                out.push(text, TextRange::new(run, line.end), None);
            }
            out.push(text, TextRange::empty(last.end), Some(mark));
            out.regions
                .push(TextRange::new(region_start, out.text.len()));
            copied = last.end;
        }
        out.push(text, TextRange::new(copied, text.len()), None);
        out
    }

    /// Appends `old` as is (`None`) or as `written`.
    fn push(&mut self, text: &str, old: TextRange, written: Option<&str>) {
        let start = self.text.len();
        match written {
            None if old.is_empty() => return,
            None => self.text.push_str(&text[old.as_range()]),
            Some(written) => self.text.push_str(written),
        }
        self.pieces.push(Piece {
            new: TextRange::new(start, self.text.len()),
            old,
            verbatim: written.is_none(),
        });
    }

    fn start(&self, offset: usize) -> usize {
        let index = self.pieces.partition_point(|piece| piece.new.end <= offset);
        match self.pieces.get(index) {
            Some(piece) if piece.verbatim => piece.old.start + (offset - piece.new.start),
            Some(piece) => piece.old.start,
            None => self.original_len,
        }
    }

    fn end(&self, offset: usize) -> usize {
        let index = self.pieces.partition_point(|piece| piece.new.end < offset);
        match self.pieces.get(index) {
            _ if offset == 0 => 0,
            Some(piece) if piece.verbatim => piece.old.start + (offset - piece.new.start),
            Some(piece) => piece.old.end,
            None => self.original_len,
        }
    }

    /// A range of the rewritten text as a range of the original.
    pub(super) fn range(&self, range: TextRange) -> TextRange {
        let start = self.start(range.start);
        if range.is_empty() {
            TextRange::empty(start)
        } else {
            TextRange::new(start, self.end(range.end).max(start))
        }
    }

    /// An edit carries over when it keeps clear of each rewritten value or replaces all of it;
    /// text inside a value is written in the rewrite's quoting, which the original lacks.
    fn carries_over(&self, range: TextRange) -> bool {
        self.regions.iter().all(|region| {
            range.end <= region.start
                || range.start >= region.end
                || (range.start <= region.start && range.end >= region.end)
        })
    }

    fn fix(&self, fix: Fix) -> Option<Fix> {
        if !fix.edits.iter().all(|edit| self.carries_over(edit.range)) {
            return None;
        }
        let edits = fix
            .edits
            .into_iter()
            .map(|edit| Edit::replace(self.range(edit.range), edit.text))
            .collect();
        Some(Fix { edits, ..fix })
    }

    /// A finding on the rewritten text as a finding on the original.
    pub(super) fn diagnostic(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        diagnostic.range = self.range(diagnostic.range);
        diagnostic.fixes = std::mem::take(&mut diagnostic.fixes)
            .into_iter()
            .filter_map(|fix| self.fix(fix))
            .collect();
        diagnostic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fix::quoted;

    fn rewrite(text: &str, values: &[&[&str]]) -> Rewrite {
        let quotes: Vec<Quote> = values
            .iter()
            .map(|lines| Quote {
                lines: lines
                    .iter()
                    .map(|line| {
                        let at = text.find(line).unwrap();
                        TextRange::new(at, at + line.len())
                    })
                    .collect(),
            })
            .collect();
        Rewrite::quoting(text, &quotes)
    }

    #[test]
    fn quotes_like_the_fix_and_maps_back() {
        let text = "name: a: b\ndescription: It's \"hi\": now\n  and é\\ later\nk: v\n";
        let rewritten = rewrite(text, &[&["a: b"], &["It's \"hi\": now", "and é\\ later"]]);
        let expected = format!(
            "name: {}\ndescription: {}\nk: v\n",
            quoted("a: b"),
            quoted("It's \"hi\": now and é\\ later")
        );
        assert_eq!(rewritten.text, expected);
        let back = |needle: &str| {
            let at = rewritten.text.find(needle).unwrap();
            let range = rewritten.range(TextRange::new(at, at + needle.len()));
            &text[range.as_range()]
        };
        assert_eq!(back("k: v"), "k: v");
        assert_eq!(
            back("\"a: b\""),
            "a: b",
            "the quotes stand for the value's edges"
        );
        assert_eq!(back("é"), "é");
        assert_eq!(
            back("now and"),
            "now\n  and",
            "the folding space is the line break"
        );
        assert_eq!(back("\\\\"), "\\", "an escape is its character");
        assert_eq!(back("\\\"hi\\\""), "\"hi\"");
        let value = rewritten.text.find("\"It's").unwrap();
        let whole = rewritten.text[value..].find('\n').unwrap() + value;
        assert_eq!(
            &text[rewritten.range(TextRange::new(value, whole)).as_range()],
            "It's \"hi\": now\n  and é\\ later"
        );
        let insert = rewritten.range(TextRange::empty(rewritten.text.len()));
        assert_eq!(insert, TextRange::empty(text.len()));
    }

    #[test]
    fn edits_inside_a_rewritten_value_are_dropped() {
        let text = "description: a: b\n";
        let rewritten = rewrite(text, &[&["a: b"]]);
        let inside = Fix::new("x", true, vec![Edit::insert(15, "z")]);
        assert_eq!(rewritten.fix(inside), None);
        let whole = Fix::new("x", true, vec![Edit::replace(TextRange::new(13, 19), "c")]);
        assert_eq!(
            rewritten.fix(whole).unwrap().edits,
            vec![Edit::replace(TextRange::new(13, 17), "c")]
        );
    }
}
