//! Skill mentions in Markdown: `/name` (a slash command) and `$name` (Codex's mention syntax).

use crate::text::TextRange;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    pub name: String,
    /// `/` or `$`.
    pub sigil: char,
    /// The name's bytes, without the sigil.
    pub range: TextRange,
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-'
}

/// Finds mentions in `text[range]`. A mention starts after whitespace, an opening bracket or a
/// backtick, and is not followed by another path segment (`/usr/bin` is a path, not a skill).
#[must_use]
pub fn mentions(text: &str, range: TextRange) -> Vec<Mention> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for sigil in [b'/', b'$'] {
        for at in memchr::memchr_iter(sigil, &bytes[range.as_range()]).map(|at| at + range.start) {
            let before_ok = at == range.start
                || matches!(
                    bytes[at - 1],
                    b' ' | b'\t' | b'\n' | b'\r' | b'(' | b'[' | b'`'
                );
            if !before_ok {
                continue;
            }
            let start = at + 1;
            let mut end = start;
            while end < range.end && is_name_byte(bytes[end]) {
                end += 1;
            }
            let name = &text[start..end];
            let after = bytes.get(end).copied().filter(|_| end < range.end);
            let path_like = matches!(after, Some(b'/' | b'_' | b'{' | b'(' | b':' | b'=' | b'\\' | b'A'..=b'Z'))
                // `/file.txt` is a path; `/pdf.` ends a sentence.
                || (after == Some(b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_alphanumeric));
            let valid = name
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_alphanumeric)
                && !name.ends_with('-')
                && !name.bytes().all(|byte| byte.is_ascii_digit())
                && !path_like;
            if valid {
                found.push(Mention {
                    name: name.to_owned(),
                    sigil: char::from(sigil),
                    range: TextRange::new(start, end),
                });
            }
        }
    }
    found.sort_by_key(|mention| mention.range.start);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<(char, String)> {
        mentions(text, TextRange::new(0, text.len()))
            .into_iter()
            .map(|m| (m.sigil, m.name))
            .collect()
    }

    #[test]
    fn finds_slash_and_dollar_mentions() {
        assert_eq!(
            names("Run /pdf then $code-review, or (`/mcp-builder`).\n"),
            vec![
                ('/', "pdf".into()),
                ('$', "code-review".into()),
                ('/', "mcp-builder".into())
            ]
        );
    }

    #[test]
    fn paths_urls_and_variables_are_not_mentions() {
        assert!(
            names("see /usr/bin and https://x.io/pdf and a/b and $HOME and $1 and /tmp/x")
                .is_empty()
        );
        assert_eq!(
            names("cost $5 or /pdf. Or /notes.txt"),
            vec![('/', "pdf".into())]
        );
    }
}
