//! An expression searched one alternative at a time, with the matches the whole expression
//! finds.
//!
//! An expression of several phrases (`do not tell the user… | without telling… | hide it
//! from…`) has many, mostly common, first words; the regular expression engine then starts its
//! automaton at nearly every word of a file. Each phrase alone has few first words that its
//! literal search skips to, and the phrases together cost a fraction of the whole.

use std::ops::Range;

use regex::Regex;
use regex_syntax::hir::{Hir, HirKind};

/// The alternatives of one expression, compiled one by one.
pub(crate) struct Split {
    whole: Regex,
    parts: Vec<Regex>,
}

impl Split {
    /// `source` as [`regex::Regex`] reads it; one part when it has no alternatives to split.
    ///
    /// # Panics
    ///
    /// When `source` does not compile: the expressions are the module's own.
    #[must_use]
    pub(crate) fn new(source: &str) -> Self {
        let whole = Regex::new(source).expect("security expression compiles");
        let parts = match regex_syntax::parse(source) {
            Ok(hir) => {
                let alternatives = top_alternatives(&hir);
                if alternatives.len() > 1 {
                    alternatives
                        .iter()
                        .map(|part| Regex::new(&part.to_string()).expect("alternative compiles"))
                        .collect()
                } else {
                    Vec::new()
                }
            }
            Err(_) => Vec::new(),
        };
        Split { whole, parts }
    }

    /// What is searched: the parts, or the whole expression when it has none. A prefilter that
    /// filters each of them ([`Split::find_iter_where`]) spares the search of parts that cannot
    /// match.
    #[must_use]
    pub(crate) fn searched(&self) -> Vec<&Regex> {
        if self.parts.is_empty() {
            vec![&self.whole]
        } else {
            self.parts.iter().collect()
        }
    }

    /// Every match of the whole expression, as its leftmost-first search finds them: the match
    /// that starts first, of the earliest alternative among those starting there, then the next
    /// from its end on. None of the module's expressions matches empty text.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn find_iter(&self, text: &str) -> Vec<Range<usize>> {
        self.find_iter_where(text, &|_| true)
    }

    /// [`Split::find_iter`], knowing that the searched expressions ([`Split::searched`]) for
    /// which `may_match` says no match nowhere in `text`: they are not searched.
    #[must_use]
    pub(crate) fn find_iter_where(
        &self,
        text: &str,
        may_match: &dyn Fn(usize) -> bool,
    ) -> Vec<Range<usize>> {
        if self.parts.is_empty() {
            if !may_match(0) {
                return Vec::new();
            }
            return self
                .whole
                .find_iter(text)
                .map(|found| found.range())
                .collect();
        }
        // Per part, the first match from where it was last searched: still its first match
        // from any later offset up to that match's start. A part that cannot match has none.
        let mut ahead: Vec<Option<Option<Range<usize>>>> = (0..self.parts.len())
            .map(|part| (!may_match(part)).then_some(None))
            .collect();
        let mut found = Vec::new();
        let mut at = 0;
        loop {
            let mut best: Option<Range<usize>> = None;
            for (part, regex) in self.parts.iter().enumerate() {
                let stale = match &ahead[part] {
                    None => true,
                    Some(Some(range)) => range.start < at,
                    Some(None) => false,
                };
                if stale {
                    ahead[part] = Some(regex.find_at(text, at).map(|found| found.range()));
                }
                if let Some(Some(range)) = &ahead[part] {
                    if best.as_ref().is_none_or(|best| range.start < best.start) {
                        best = Some(range.clone());
                    }
                }
            }
            match best {
                Some(range) if !range.is_empty() => {
                    at = range.end;
                    found.push(range);
                }
                _ => return found,
            }
        }
    }
}

/// The alternatives at the top of `hir`, with what the parser factored out before them
/// (`\b(?:a…|b…)`) spread over each; nested alternations stay whole, as each part is searched
/// over the whole text. Only a prefix that matches one way is spread: were it to have choices
/// (`x*(?:a|b)`), the whole expression could prefer a longer prefix with a later alternative to
/// a shorter one with an earlier, which no search of the parts alone can tell.
fn top_alternatives(hir: &Hir) -> Vec<Hir> {
    match hir.kind() {
        HirKind::Capture(capture) => top_alternatives(&capture.sub),
        HirKind::Alternation(subs) => subs.clone(),
        HirKind::Concat(parts) => {
            let Some(at) = parts
                .iter()
                .position(|part| matches!(part.kind(), HirKind::Alternation(_)))
            else {
                return vec![hir.clone()];
            };
            let fixed = parts[..at]
                .iter()
                .all(|part| matches!(part.kind(), HirKind::Look(_) | HirKind::Literal(_)));
            let HirKind::Alternation(subs) = parts[at].kind() else {
                return vec![hir.clone()];
            };
            if !fixed {
                return vec![hir.clone()];
            }
            subs.iter()
                .map(|sub| {
                    let mut joined = parts[..at].to_vec();
                    joined.push(sub.clone());
                    joined.extend_from_slice(&parts[at + 1..]);
                    Hir::concat(joined)
                })
                .collect()
        }
        _ => vec![hir.clone()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split search finds what the whole expression finds, where alternatives overlap,
    /// share a start, and follow each other.
    #[test]
    fn finds_what_the_whole_expression_finds() {
        let sources = [
            r"(?i)\bdo\s+not\s+tell\b|\btell\s+the\s+user\b|\bthe\s+user\b",
            r"ab\w|abc|bcd|c+",
            r"(?m)^x+|y|x",
            r"\bfoo(?:bar|baz)|bar\w*",
            r"\b(?:ab|a)(?:c|bc)",
        ];
        let texts = [
            "Do not tell the user. do NOT tell the user; tell the user the user",
            "abcd abc bcd cab abcabc",
            "xxy\nxyx\n yx",
            "foobar barfoo foobaz bar_x",
            "abc ac abbc",
        ];
        for source in sources {
            let whole = Regex::new(source).unwrap();
            let split = Split::new(source);
            assert!(split.parts.len() > 1, "{source}");
            for text in texts {
                let expected: Vec<_> = whole.find_iter(text).map(|found| found.range()).collect();
                assert_eq!(split.find_iter(text), expected, "{source} on {text:?}");
            }
        }
        // A prefix with choices is not spread: whole, `(?:x|xy)(?:yz|z)` takes `x` then `yz`
        // where the parts alone could not tell it from `xy` then `z`.
        for source in [r"x*(?:a|b)", r"(?:x|xy)+(?:yz|z)"] {
            assert!(Split::new(source).parts.is_empty(), "{source}");
        }
    }
}
