//! Skill mentions in Markdown: `/name` (a slash command) and `$name` (Codex's mention syntax).

use super::body::{Body, Region, regions};
use crate::text::TextRange;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mention {
    pub name: String,
    /// `/` or `$`.
    pub sigil: char,
    /// The name's bytes, without the sigil.
    pub range: TextRange,
    /// Written in code, HTML or an HTML comment: a rename still follows it, but nothing says
    /// it was meant as a mention, so `unknown-mention` leaves it alone.
    pub in_code: bool,
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-'
}

/// Finds mentions in the Markdown `text[range]`. A mention starts after whitespace, an opening
/// bracket or a backtick, and is not followed by another path segment (`/usr/bin` is a path, not
/// a skill). Link destinations and autolinks (`[x](/docs)`, `<https://x.dev/docs>`) hold none.
#[must_use]
pub(crate) fn mentions(text: &str, range: TextRange) -> Vec<Mention> {
    if !has_sigil(&text[range.as_range()]) {
        return Vec::new();
    }
    find(text, range, &regions(&text[range.as_range()]))
}

/// The mentions of a parsed body, from the regions its one parse found.
#[must_use]
pub(crate) fn body_mentions(text: &str, body: &Body) -> Vec<Mention> {
    if !has_sigil(&text[body.range.as_range()]) {
        return Vec::new();
    }
    find(text, body.range, &body.regions)
}

/// Whether `text` may hold a mention: a sigil where one can start, followed by a character a
/// name can start with. Most bodies have none, and then their regions are never needed. A byte
/// search, as both sigils are ASCII (a `char` pattern decodes every character of the body).
pub(crate) fn has_sigil(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'/', b'$', bytes).any(|at| {
        let starts = at == 0
            || matches!(
                bytes[at - 1],
                b' ' | b'\t' | b'\n' | b'\r' | b'(' | b'[' | b'`'
            );
        starts && bytes.get(at + 1).is_some_and(u8::is_ascii_alphanumeric)
    })
}

fn find(
    text: &str,
    range: TextRange,
    regions: &[(std::ops::Range<usize>, Region)],
) -> Vec<Mention> {
    let bytes = text.as_bytes();
    let region_at = |at: usize| {
        let offset = at - range.start;
        let index = regions.partition_point(|(span, _)| span.start <= offset);
        index
            .checked_sub(1)
            .map(|index| &regions[index])
            .filter(|(span, _)| offset < span.end)
            .map(|(_, region)| *region)
    };
    let mut found = Vec::new();
    for sigil in [b'/', b'$'] {
        for at in memchr::memchr_iter(sigil, &bytes[range.as_range()]).map(|at| at + range.start) {
            let Some(region) = region_at(at) else {
                continue;
            };
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
                    in_code: region == Region::Code,
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

    /// (name, in code) of every mention.
    fn sites(text: &str) -> Vec<(String, bool)> {
        mentions(text, TextRange::new(0, text.len()))
            .into_iter()
            .map(|m| (m.name, m.in_code))
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

    #[test]
    fn url_paths_are_not_mentions() {
        assert!(
            names("https://x.dev/docs and example.com/docs and src/docs, [docs](/docs), <https://x.dev/docs>\n\n[ref]: /docs\n")
                .is_empty()
        );
        assert_eq!(
            names("[run /pdf](https://x.dev/pdf) then (/pdf)"),
            vec![('/', "pdf".into()), ('/', "pdf".into())]
        );
    }

    #[test]
    fn mentions_in_code_and_comments_are_marked() {
        let text = "Run /pdf.\n`/code-span`\n\n```\n/fenced\n```\n\n    /indented\n\n<!-- /commented -->\n\n<div>\n/html\n</div>\n";
        assert_eq!(
            sites(text),
            vec![
                ("pdf".into(), false),
                ("code-span".into(), true),
                ("fenced".into(), true),
                ("indented".into(), true),
                ("commented".into(), true),
                ("html".into(), true),
            ]
        );
    }

    #[test]
    fn ranges_are_offsets_into_the_whole_text() {
        let text = "---\nname: x\n---\nUse /pdf now.\n";
        let start = text.find("Use").unwrap();
        let found = mentions(text, TextRange::new(start, text.len()));
        assert_eq!(&text[found[0].range.as_range()], "pdf");
        assert!(!found[0].in_code);
    }

    #[test]
    fn the_bodys_one_parse_finds_the_same_mentions() {
        for text in [
            "---\nname: a\n---\nUse /pdf, `$code-review` and [x](/docs).\n\n```\n/run\n```\n<!-- /hidden -->\n",
            "---\nname: a\n---\n",
            "---\nname: a\n---\n> quote /pdf\n\n    /indented\n\n<https://x.dev/docs> $x\r\n/y",
        ] {
            let document = crate::document::SkillDocument::parse(text);
            assert_eq!(
                body_mentions(text, &document.body),
                mentions(text, document.body.range),
                "{text:?}"
            );
        }
    }
}
