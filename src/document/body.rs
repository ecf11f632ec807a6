//! The Markdown body: links, bundled-file mentions and headings, with their byte ranges.
//!
//! This is not a Markdown parser. It knows fenced code blocks and inline code spans well enough
//! not to mistake code for links, and it finds `scripts/`, `references/` and `assets/` paths
//! everywhere, code included, because instructions name their scripts in command lines.

use crate::text::{TextRange, lines_with_ranges};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// `[text](target)` or `![alt](target)` or a `[label]: target` definition.
    Link,
    /// A bare `scripts/…`, `references/…` or `assets/…` path.
    Mention,
}

/// A relative file that the body refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub kind: ReferenceKind,
    /// The target as written, without `#fragment` or `?query`, percent-escapes decoded.
    pub target: String,
    /// The target's bytes in the file.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    pub title: String,
    /// The whole heading line.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Body {
    pub range: TextRange,
    pub references: Vec<Reference>,
    pub headings: Vec<Heading>,
    pub line_count: usize,
    /// Nothing but whitespace.
    pub blank: bool,
}

const BUNDLE_DIRS: [&str; 3] = ["scripts/", "references/", "assets/"];

fn fence_marker(line: &str) -> Option<(u8, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let marker = *rest.as_bytes().first()?;
    if marker != b'`' && marker != b'~' {
        return None;
    }
    let count = rest.bytes().take_while(|&byte| byte == marker).count();
    (count >= 3).then_some((marker, count))
}

/// Parses the body, the range of `text` after the frontmatter.
#[must_use]
pub fn parse(text: &str, range: TextRange) -> Body {
    let source = &text[range.as_range()];
    let mut body = Body {
        range,
        blank: source.trim().is_empty(),
        ..Body::default()
    };
    let mut fence: Option<(u8, usize)> = None;
    for (line_range, line) in lines_with_ranges(source) {
        body.line_count += 1;
        let line_range = line_range.shifted(range.start);
        if let Some((marker, count)) = fence {
            if fence_marker(line).is_some_and(|(m, c)| m == marker && c >= count)
                && line
                    .trim_start()
                    .trim_start_matches(marker as char)
                    .trim()
                    .is_empty()
            {
                fence = None;
            }
            continue;
        }
        if let Some(opening) = fence_marker(line) {
            fence = Some(opening);
            continue;
        }
        if let Some(heading) = parse_heading(line, line_range) {
            body.headings.push(heading);
        }
        if memchr::memchr(b']', line.as_bytes()).is_some() {
            find_links(
                line,
                line_range.start,
                &code_spans(line),
                &mut body.references,
            );
        }
    }
    // Mentions count everywhere, code included; a link's own target is not a second mention.
    let links: Vec<TextRange> = body
        .references
        .iter()
        .map(|reference| reference.range)
        .collect();
    find_mentions(source, range.start, &links, &mut body.references);
    body.references
        .sort_by_key(|reference| reference.range.start);
    body
}

fn parse_heading(line: &str, range: TextRange) -> Option<Heading> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let level = trimmed.bytes().take_while(|&byte| byte == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &trimmed[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim_end().to_owned();
    Some(Heading {
        level: u8::try_from(level).unwrap_or(6),
        title,
        range,
    })
}

/// Byte ranges (within the line) of inline code spans.
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut spans = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'`' {
            at += 1;
            continue;
        }
        let ticks = bytes[at..].iter().take_while(|&&byte| byte == b'`').count();
        let open_end = at + ticks;
        let mut search = open_end;
        let mut closed = None;
        while let Some(found) = line[search..].find('`') {
            let close_start = search + found;
            let close_ticks = bytes[close_start..]
                .iter()
                .take_while(|&&byte| byte == b'`')
                .count();
            if close_ticks == ticks {
                closed = Some(close_start + close_ticks);
                break;
            }
            search = close_start + close_ticks;
        }
        match closed {
            Some(end) => {
                spans.push((at, end));
                at = end;
            }
            None => at = open_end,
        }
    }
    spans
}

fn in_spans(spans: &[(usize, usize)], at: usize) -> bool {
    spans.iter().any(|&(start, end)| start <= at && at < end)
}

fn is_external(target: &str) -> bool {
    if target.starts_with('#') || target.starts_with('/') || target.starts_with("//") {
        return true;
    }
    // A scheme such as `https:` or `mailto:`; a Windows drive letter counts as absolute too.
    match target.find(':') {
        Some(colon) => target[..colon]
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.')),
        None => false,
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' && at + 2 < bytes.len() && text.is_char_boundary(at + 3) {
            let hex = &text[at + 1..at + 3];
            if let Ok(byte) = u8::from_str_radix(hex, 16) {
                out.push(byte);
                at += 3;
                continue;
            }
        }
        out.push(bytes[at]);
        at += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

fn push_link(target_raw: &str, start: usize, out: &mut Vec<Reference>) {
    let target_raw = target_raw.trim();
    let (target_raw, start) = match target_raw.strip_prefix('<') {
        Some(inner) => (inner.strip_suffix('>').unwrap_or(inner), start + 1),
        None => (target_raw, start),
    };
    if target_raw.is_empty() || is_external(target_raw) {
        return;
    }
    let path = target_raw.split(['#', '?']).next().unwrap_or("");
    if path.is_empty() {
        return;
    }
    out.push(Reference {
        kind: ReferenceKind::Link,
        target: percent_decode(path),
        range: TextRange::new(start, start + path.len()),
    });
}

fn find_links(line: &str, line_start: usize, code: &[(usize, usize)], out: &mut Vec<Reference>) {
    // A reference definition: `[label]: target`.
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') && !trimmed.starts_with("[^") {
        if let Some(close) = trimmed.find("]:") {
            let indent = line.len() - trimmed.len();
            let after = &trimmed[close + 2..];
            let target = after.trim_start();
            let target = target.split_whitespace().next().unwrap_or("");
            let target_at = indent + close + 2 + (after.len() - after.trim_start().len());
            push_link(target, line_start + target_at, out);
            return;
        }
    }
    let mut search = 0;
    while let Some(found) = line[search..].find("](") {
        let open = search + found + 2;
        search = open;
        if in_spans(code, open) {
            continue;
        }
        // The target ends at the matching `)`, allowing one level of nested parentheses.
        let mut depth = 0usize;
        let mut end = None;
        for (offset, ch) in line[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(open + offset);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { continue };
        let inner = &line[open..end];
        // Drop an optional title: `(path "title")`.
        let target = inner.trim_start();
        let leading = inner.len() - target.len();
        let target = if target.starts_with('<') {
            target.split_inclusive('>').next().unwrap_or(target)
        } else {
            target.split([' ', '\t']).next().unwrap_or(target)
        };
        push_link(target, line_start + open + leading, out);
        search = end;
    }
}

fn find_mentions(line: &str, line_start: usize, skip: &[TextRange], out: &mut Vec<Reference>) {
    let bytes = line.as_bytes();
    // Most lines hold no `/` at all; look for the folder names only around slashes.
    let mut search = 0;
    while let Some(found) = bytes[search..].iter().position(|&byte| byte == b'/') {
        let slash = search + found;
        search = slash + 1;
        let Some(dir) = BUNDLE_DIRS
            .iter()
            .find(|dir| line[..=slash].ends_with(*dir))
        else {
            continue;
        };
        let start = slash + 1 - dir.len();
        let boundary_ok = line[..start].chars().next_back().is_none_or(|prev| {
            !(prev.is_alphanumeric() || matches!(prev, '/' | '.' | '_' | '-' | '\\' | '$' | '{'))
        });
        if !boundary_ok {
            continue;
        }
        let rest = &line[search..];
        let path_len = rest
            .find(|ch: char| !(ch.is_alphanumeric() || matches!(ch, '_' | '-' | '.' | '/')))
            .unwrap_or(rest.len());
        let next = rest[path_len..].chars().next();
        // Placeholders and patterns (`scripts/<name>.py`, `scripts/*.py`) name no one file.
        if matches!(next, Some('<' | '{' | '*' | '[' | '$')) {
            continue;
        }
        let path = rest[..path_len].trim_end_matches(['.', '-', '/']);
        if path.is_empty() {
            continue;
        }
        let range = TextRange::new(line_start + start, line_start + search + path.len());
        // A path's own inner slashes must not start new mentions.
        search += path.len();
        if skip.iter().any(|link| link.overlaps(range)) {
            continue;
        }
        out.push(Reference {
            kind: ReferenceKind::Mention,
            target: format!("{dir}{path}"),
            range,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(text: &str) -> Vec<(ReferenceKind, String, String)> {
        parse(text, TextRange::new(0, text.len()))
            .references
            .into_iter()
            .map(|reference| {
                let written = text[reference.range.as_range()].to_owned();
                (reference.kind, reference.target, written)
            })
            .collect()
    }

    #[test]
    fn links_and_mentions() {
        let found = refs(
            "See [guide](references/guide.md#intro) and ![x](assets/logo%20big.png \"t\").\n\
             Run `python scripts/run.py` or [web](https://example.com) or [top](#top).\n",
        );
        assert_eq!(
            found,
            vec![
                (
                    ReferenceKind::Link,
                    "references/guide.md".into(),
                    "references/guide.md".into()
                ),
                (
                    ReferenceKind::Link,
                    "assets/logo big.png".into(),
                    "assets/logo%20big.png".into()
                ),
                (
                    ReferenceKind::Mention,
                    "scripts/run.py".into(),
                    "scripts/run.py".into()
                ),
            ]
        );
    }

    #[test]
    fn code_fences_hide_links_but_not_mentions() {
        let found =
            refs("```sh\n[a](missing.md)\npython scripts/fill.py out.pdf\n```\n[b](../up.md)\n");
        assert_eq!(
            found,
            vec![
                (
                    ReferenceKind::Mention,
                    "scripts/fill.py".into(),
                    "scripts/fill.py".into()
                ),
                (ReferenceKind::Link, "../up.md".into(), "../up.md".into()),
            ]
        );
    }

    #[test]
    fn placeholders_urls_and_punctuation() {
        let found =
            refs("Put it in scripts/<name>.py, see https://x.io/scripts/a.py, or scripts/b.sh.\n");
        assert_eq!(
            found,
            vec![(
                ReferenceKind::Mention,
                "scripts/b.sh".into(),
                "scripts/b.sh".into()
            )]
        );
    }

    #[test]
    fn reference_definitions_and_headings() {
        let text = "# Title\n\n[ref]: references/a.md\n## Sub ##\n";
        let body = parse(text, TextRange::new(0, text.len()));
        assert_eq!(body.references[0].target, "references/a.md");
        let titles: Vec<_> = body
            .headings
            .iter()
            .map(|h| (h.level, h.title.as_str()))
            .collect();
        assert_eq!(titles, vec![(1, "Title"), (2, "Sub")]);
        assert_eq!(body.line_count, 4);
    }
}
