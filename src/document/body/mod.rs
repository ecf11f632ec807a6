//! The Markdown body: links, bundled-file paths and headings, with their byte ranges in the file.
//!
//! The body is read as CommonMark (with GitHub's tables, footnotes, strikethrough and task lists),
//! so a link inside a code block, an HTML comment or a code span is text, not a link. What counts
//! as a reference to a bundled file is deliberately narrow: real skills are full of example paths,
//! paths of the user's project and shell commands, and a `broken-link` on those is noise;
//! `own_paths` holds those judgements, this module the CommonMark walk.

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::text::{TextRange, line_count};

mod own_paths;
use own_paths::{Examples, Found};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReferenceKind {
    /// `[text](target)`, `![alt](target)` or a `[label]: target` definition.
    Link,
    /// A code span that is one path into `scripts/`, `references/` or `assets/`, or below a
    /// skill-folder placeholder, naming a file with an extension: `` `scripts/fill.py` ``.
    Path,
    /// A bundled path anywhere else (prose, commands, code blocks, examples): worth a link in the
    /// editor when the file exists, never a finding, since nothing says it must exist.
    Loose,
}

/// A file of the skill folder that the body refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reference {
    pub kind: ReferenceKind,
    /// The path as the agent would open it from the skill folder: a skill-folder placeholder
    /// dropped, a link's `#fragment` and `?query` cut and its percent-escapes decoded, a code
    /// span's `:line` suffix cut.
    pub target: String,
    /// The written target's bytes in the file (placeholder included, suffixes excluded).
    pub range: TextRange,
    /// Written below `{baseDir}` or `${CLAUDE_SKILL_DIR}`: it can only mean the skill folder.
    pub anchored: bool,
}

impl Reference {
    /// Whether the rules hold the file to exist.
    #[must_use]
    pub(crate) fn is_checked(&self) -> bool {
        self.kind != ReferenceKind::Loose
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Heading {
    pub level: u8,
    pub title: String,
    /// The heading's lines, without the final line break.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Body {
    pub range: TextRange,
    /// Links and code-span paths, in file order (some judged incidental, so `Loose`); the
    /// loose paths of prose and other code are found only by [`all_references`].
    pub references: Vec<Reference>,
    pub line_count: usize,
    /// Nothing but whitespace.
    pub blank: bool,
    /// Prose and code stretches (byte ranges into the body), for skill mentions; empty when
    /// the body can hold none ([`has_sigil`]).
    pub(crate) regions: Vec<(Range<usize>, Region)>,
    /// Where the security rules' matches sit, found in the same parse; `None` when the body was
    /// not parsed (the security rules then parse it themselves if a match needs it).
    pub(crate) places: Option<crate::security::Places>,
}

const BUNDLE_DIRS: [&str; 3] = ["scripts/", "references/", "assets/"];

/// How skills name their own folder; clients replace these before the agent reads the body.
const SKILL_DIR_PLACEHOLDERS: [&str; 3] = ["{baseDir}", "${CLAUDE_SKILL_DIR}", "$CLAUDE_SKILL_DIR"];

/// Link targets that templates and Markdown tutorials use in place of a real one.
const PLACEHOLDER_TARGETS: [&str; 9] = [
    "url",
    "link",
    "path",
    "uri",
    "href",
    "file",
    "target",
    "destination",
    "path/to/file",
];

pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// A link or image whose end has not been seen yet.
struct OpenLink {
    span: Range<usize>,
    image: bool,
    link_type: LinkType,
    dest: String,
    /// Where its text ends so far: the destination follows the `](` after it.
    content_end: usize,
}

/// The body's size, without reading it as Markdown.
#[must_use]
pub(crate) fn measure(text: &str, range: TextRange) -> Body {
    let source = &text[range.as_range()];
    Body {
        range,
        blank: source.trim().is_empty(),
        line_count: line_count(source),
        ..Body::default()
    }
}

/// Parses the body, the range of `text` after the frontmatter, for what the rules read from it
/// (with the security rules' [`Body::places`] when `places`).
#[must_use]
pub(crate) fn parse(text: &str, range: TextRange, places: bool) -> Body {
    let source = &text[range.as_range()];
    let mut body = measure(text, range);
    let sigil = has_sigil(source);
    // The Markdown parse is most of what a check costs, and a body that can hold neither a
    // reference nor a mention would give the rules nothing from it.
    if body.blank || !(sigil || may_refer(source)) {
        return body;
    }
    let walked = walk(
        source,
        Collect {
            regions: sigil,
            editor: false,
            places,
        },
    );
    body.references = shifted(walked.references, range.start);
    body.regions = walked.regions;
    body.places = walked.places.map(|places| places.finish(text, range.start));
    body
}

/// The headings of the body `text[range]`, for the editor's outline.
#[must_use]
pub(crate) fn headings(text: &str, range: TextRange) -> Vec<Heading> {
    let walked = walk(
        &text[range.as_range()],
        Collect {
            regions: false,
            editor: true,
            places: false,
        },
    );
    walked
        .headings
        .into_iter()
        .map(|mut heading| {
            heading.range = heading.range.shifted(range.start);
            heading
        })
        .collect()
}

/// The references of [`Body::references`] and the loose bundled paths of the rest of the body
/// `text[range]`, in file order: what an editor can link.
#[must_use]
pub(crate) fn all_references(text: &str, range: TextRange) -> Vec<Reference> {
    let source = &text[range.as_range()];
    let walked = walk(
        source,
        Collect {
            regions: false,
            editor: true,
            places: false,
        },
    );
    let examples = Examples { source };
    let mut found = Found {
        source,
        examples: &examples,
        references: walked.references,
        loose_code: Vec::new(),
    };
    for span in walked.loose {
        found.loose(span);
    }
    shifted(without_repeats(found.references), range.start)
}

/// Whether `source` may hold a reference the rules check: an inline link or image needs `](`,
/// a definition `]:`, and a code-span path one of [`BUNDLE_DIRS`] or a placeholder and its `/`
/// ([`bundle_path`]). A superset, so that a `false` is certain; a byte search, as all of these
/// are ASCII.
fn may_refer(source: &str) -> bool {
    let bytes = source.as_bytes();
    memchr::memchr2_iter(b']', b'/', bytes).any(|at| {
        if bytes[at] == b']' {
            return matches!(bytes.get(at + 1), Some(b'(' | b':'));
        }
        let through_slash = &source[..=at];
        BUNDLE_DIRS.iter().any(|dir| through_slash.ends_with(dir))
            || SKILL_DIR_PLACEHOLDERS
                .iter()
                .any(|placeholder| source[..at].ends_with(placeholder))
    })
}

fn shifted(mut references: Vec<Reference>, by: usize) -> Vec<Reference> {
    for reference in &mut references {
        reference.range = reference.range.shifted(by);
    }
    references
}

/// What a [`walk`] collects besides the references of links and code spans.
#[derive(Clone, Copy)]
struct Collect {
    /// [`Body::regions`].
    regions: bool,
    /// Headings and the text where loose paths may be written, which only the editor reads.
    editor: bool,
    /// [`Body::places`].
    places: bool,
}

/// One CommonMark parse's findings, with byte ranges into the parsed source.
#[derive(Default)]
struct Walked {
    /// In file order, without repeats.
    references: Vec<Reference>,
    regions: Vec<(Range<usize>, Region)>,
    headings: Vec<Heading>,
    /// Text where loose bundled paths may be written, joined where the ranges touch.
    loose: Vec<Range<usize>>,
    /// The security rules' places, not yet shifted to the file.
    places: Option<crate::security::MarkdownWalk>,
}

fn walk(source: &str, collect: Collect) -> Walked {
    let examples = Examples { source };
    let mut found = Found {
        source,
        examples: &examples,
        references: Vec::new(),
        loose_code: Vec::new(),
    };
    let parser = Parser::new_ext(source, options()).into_offset_iter();
    let definitions: Vec<(String, Range<usize>)> = parser
        .reference_definitions()
        .iter()
        .map(|(_, definition)| (definition.dest.to_string(), definition.span.clone()))
        .collect();
    for (dest, span) in definitions {
        if let Some(raw) = definition_destination(source, span) {
            found.link(&dest, raw);
        }
    }
    let mut walked = Walked::default();
    let mut links: Vec<OpenLink> = Vec::new();
    let mut heading: Option<(u8, Range<usize>, String)> = None;
    let mut loose: Vec<Range<usize>> = Vec::new();
    let mut regions = Regions::default();
    let mut places = collect
        .places
        .then(|| crate::security::MarkdownWalk::new(true));
    for (event, span) in parser {
        if collect.regions {
            regions.feed(&event, span.clone());
        }
        if let Some(places) = places.as_mut() {
            places.feed(source, &event, span.clone());
        }
        if let Event::End(TagEnd::Link | TagEnd::Image) = event {
            if let Some(open) = links.pop() {
                found.closed_link(&open);
            }
            if let Some(outer) = links.last_mut() {
                outer.content_end = outer.content_end.max(span.end);
            }
            continue;
        }
        if let Some(open) = links.last_mut() {
            open.content_end = open.content_end.max(span.end);
        }
        match event {
            Event::Start(Tag::Heading { level, .. }) if collect.editor => {
                heading = Some((level as u8, span, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, span, title)) = heading.take() {
                    let lines = source[span.clone()].trim_end_matches(['\r', '\n']);
                    walked.headings.push(Heading {
                        level,
                        title: title.trim().to_owned(),
                        range: TextRange::new(span.start, span.start + lines.len()),
                    });
                }
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => links.push(OpenLink {
                content_end: span.start + 1,
                span,
                image: false,
                link_type,
                dest: dest_url.to_string(),
            }),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => links.push(OpenLink {
                content_end: span.start + 2,
                span,
                image: true,
                link_type,
                dest: dest_url.to_string(),
            }),
            Event::Text(text) if collect.editor => {
                if let Some((_, _, title)) = heading.as_mut() {
                    title.push_str(&text);
                }
                let autolink = links
                    .iter()
                    .any(|open| matches!(open.link_type, LinkType::Autolink | LinkType::Email));
                if !autolink {
                    loose.push(span);
                }
            }
            Event::Code(code) => {
                if let Some((_, _, title)) = heading.as_mut() {
                    title.push_str(&code);
                }
                if links.is_empty() {
                    found.code_span(span);
                } else if collect.editor {
                    // The link's own destination is the reference; its text only names it.
                    loose.push(span);
                }
            }
            _ => {}
        }
    }
    if collect.editor {
        loose.append(&mut found.loose_code);
        loose.sort_by_key(|span| span.start);
        walked.loose = merge(loose);
    }
    walked.references = without_repeats(found.references);
    walked.regions = regions.found;
    walked.places = places;
    walked
}

/// In file order, without a loose path that lies inside a link or a checked code span: that
/// is the same reference.
fn without_repeats(references: Vec<Reference>) -> Vec<Reference> {
    let (checked, loose): (Vec<Reference>, Vec<Reference>) =
        references.into_iter().partition(Reference::is_checked);
    let mut checked_ranges: Vec<TextRange> = checked.iter().map(|r| r.range).collect();
    checked_ranges.sort_by_key(|range| range.start);
    let mut kept = checked;
    kept.extend(loose.into_iter().filter(|reference| {
        let before = checked_ranges.partition_point(|range| range.start < reference.range.end);
        before == 0 || !checked_ranges[before - 1].overlaps(reference.range)
    }));
    kept.sort_by_key(|reference| reference.range.start);
    kept
}

/// Joins ranges that touch: pulldown-cmark cuts text at every character that might open
/// emphasis, so `scripts/my_tool.py` can arrive in pieces.
fn merge(ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match merged.last_mut() {
            Some(last) if last.end == range.start => last.end = range.end,
            _ => merged.push(range),
        }
    }
    merged
}

/// Where the destination of an inline link is written: after the `](` that follows its text.
fn inline_destination(
    source: &str,
    content_end: usize,
    span: &Range<usize>,
) -> Option<Range<usize>> {
    let tail = source.get(content_end..span.end)?;
    let open = content_end + tail.find("](")? + 2;
    let close = if source[..span.end].ends_with(')') {
        span.end - 1
    } else {
        span.end
    };
    destination_at(source, open, close.max(open))
}

/// Where the destination of a `[label]: destination` definition is written.
fn definition_destination(source: &str, span: Range<usize>) -> Option<Range<usize>> {
    let text = source.get(span.clone())?;
    let bytes = text.as_bytes();
    let mut at = text.find('[')? + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 1,
            b']' => break,
            _ => {}
        }
        at += 1;
    }
    if bytes.get(at + 1) != Some(&b':') {
        return None;
    }
    destination_at(source, span.start + at + 2, span.end)
}

/// The destination in `source[start..end]` after optional whitespace: `<…>` (the range inside
/// the brackets) or a run without whitespace and unbalanced `)`.
fn destination_at(source: &str, start: usize, end: usize) -> Option<Range<usize>> {
    let inner = source.get(start..end)?;
    let lead = inner.len() - inner.trim_start().len();
    let rest = &inner[lead..];
    let at = start + lead;
    if let Some(bracketed) = rest.strip_prefix('<') {
        let close = bracketed.find('>')?;
        return Some(at + 1..at + 1 + close);
    }
    let bytes = rest.as_bytes();
    let mut depth = 0usize;
    let mut index = 0;
    let mut len = rest.len();
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 1,
            b'(' => depth += 1,
            b')' if depth == 0 => {
                len = index;
                break;
            }
            b')' => depth -= 1,
            byte if byte.is_ascii_whitespace() => {
                len = index;
                break;
            }
            _ => {}
        }
        index += 1;
    }
    Some(at..at + len.min(rest.len()))
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

/// What a stretch of the body is, for skill mentions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Region {
    Prose,
    /// Code spans and blocks, HTML and HTML comments.
    Code,
}

/// The text of the body by region, in order, with byte ranges into `source`. Link destinations,
/// autolinks and Markdown syntax belong to no region.
pub(crate) fn regions(source: &str) -> Vec<(Range<usize>, Region)> {
    let mut tracker = Regions::default();
    for (event, span) in Parser::new_ext(source, options()).into_offset_iter() {
        tracker.feed(&event, span);
    }
    tracker.found
}

/// Collects [`regions`] from a parse's events, so that the body's one parse also serves mentions.
#[derive(Default)]
pub(crate) struct Regions {
    found: Vec<(Range<usize>, Region)>,
    code_blocks: usize,
    autolinks: usize,
}

impl Regions {
    fn feed(&mut self, event: &Event<'_>, span: Range<usize>) {
        let region = match event {
            Event::Start(Tag::CodeBlock(_)) => {
                self.code_blocks += 1;
                return;
            }
            Event::End(TagEnd::CodeBlock) => {
                self.code_blocks = self.code_blocks.saturating_sub(1);
                return;
            }
            Event::Start(Tag::Link { link_type, .. }) => {
                if matches!(link_type, LinkType::Autolink | LinkType::Email) {
                    self.autolinks += 1;
                }
                return;
            }
            Event::End(TagEnd::Link) => {
                self.autolinks = self.autolinks.saturating_sub(1);
                return;
            }
            Event::Text(_) if self.autolinks > 0 => return,
            Event::Text(_) if self.code_blocks == 0 => Region::Prose,
            Event::Text(_) | Event::Code(_) | Event::Html(_) | Event::InlineHtml(_) => Region::Code,
            _ => return,
        };
        match self.found.last_mut() {
            Some((last, kind)) if *kind == region && last.end == span.start => last.end = span.end,
            _ => self.found.push((span, region)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (kind, target, written text) of every reference.
    fn refs(text: &str) -> Vec<(ReferenceKind, String, String)> {
        all_references(text, TextRange::new(0, text.len()))
            .into_iter()
            .map(|reference| {
                let written = text[reference.range.as_range()].to_owned();
                (reference.kind, reference.target, written)
            })
            .collect()
    }

    /// The targets the rules check.
    fn checked(text: &str) -> Vec<String> {
        parse(text, TextRange::new(0, text.len()), true)
            .references
            .into_iter()
            .filter(Reference::is_checked)
            .map(|reference| reference.target)
            .collect()
    }

    #[test]
    fn links_images_and_code_span_paths() {
        let found = refs(
            "See [guide](references/guide.md#intro) and ![x](assets/logo%20big.png \"t\").\n\
             Run `scripts/run.py` or [web](https://example.com) or [top](#top).\n",
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
                    ReferenceKind::Path,
                    "scripts/run.py".into(),
                    "scripts/run.py".into()
                ),
            ]
        );
    }

    #[test]
    fn ranges_are_shifted_into_the_file() {
        let text = "---\nname: x\n---\nSee [a](references/a.md).\n";
        let start = text.find("See").unwrap();
        let body = parse(text, TextRange::new(start, text.len()), true);
        let range = body.references[0].range;
        assert_eq!(&text[range.as_range()], "references/a.md");
    }

    #[test]
    fn code_blocks_html_and_comments_hold_no_checked_reference() {
        let text = "```sh\n[a](missing.md)\npython scripts/fill.py out.pdf\n```\n\n    [b](indented.md)\n\n\
                    <!-- [c](commented.md) `scripts/old.py` -->\n\n<div>\n[d](html.md)\n</div>\n\n\
                    Inline <span>`x`</span> and `[e](span.md)`.\n";
        assert!(checked(text).is_empty(), "{:?}", refs(text));
        // The command in the fence still links in the editor when the file exists.
        assert_eq!(
            refs(text),
            vec![(
                ReferenceKind::Loose,
                "scripts/fill.py".into(),
                "scripts/fill.py".into()
            )]
        );
    }

    #[test]
    fn reference_style_links_are_checked_at_their_definition() {
        let text = "Read [the guide][g] and [api].\n\n[g]: references/guide.md \"Guide\"\n[api]:\n  <references/my api.md>\n[^1]: a footnote, not a link\n";
        let found = refs(text);
        let targets: Vec<(&str, &str)> = found
            .iter()
            .map(|(_, target, written)| (target.as_str(), written.as_str()))
            .collect();
        assert_eq!(
            targets,
            vec![
                ("references/guide.md", "references/guide.md"),
                ("references/my api.md", "references/my api.md"),
            ]
        );
    }

    #[test]
    fn link_destinations_in_every_form() {
        let text = "[a](<references/a b.md>) [b](references/b.md \"title\") [c]( references/c(1).md )\n\
                    [d](references/d.md?raw=1) [e](./references/e.md) [f](references/f\\_g.md)\n\
                    [![badge](assets/badge.svg)](references/badge.md) [](references/empty-text.md)\n";
        let found = refs(text);
        let pairs: Vec<(String, String)> = found
            .into_iter()
            .map(|(_, target, written)| (target, written))
            .collect();
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(
            pairs,
            vec![
                pair("references/a b.md", "references/a b.md"),
                pair("references/b.md", "references/b.md"),
                pair("references/c(1).md", "references/c(1).md"),
                pair("references/d.md", "references/d.md"),
                pair("./references/e.md", "./references/e.md"),
                pair("references/f_g.md", "references/f\\_g.md"),
                pair("assets/badge.svg", "assets/badge.svg"),
                pair("references/badge.md", "references/badge.md"),
                pair("references/empty-text.md", "references/empty-text.md"),
            ]
        );
    }

    #[test]
    fn external_and_absolute_targets_are_not_files_of_the_skill() {
        let text = "[a](https://x.dev/a.md) [b](mailto:me@x.dev) [c](#usage) [d](/etc/hosts)\n\
                    [e](~/notes.md) [f](C:\\tools\\x.md) [g](//cdn.x.dev/y.js) <https://x.dev/z.md>\n\
                    [h](url) [i](LINK) [j](path/to/file) [k](references/{name}.md) [l](<>)\n";
        assert!(checked(text).is_empty(), "{:?}", refs(text));
    }

    #[test]
    fn skill_dir_placeholders_mean_the_skill_folder() {
        let text = "[a]({baseDir}/references/a.md) `${CLAUDE_SKILL_DIR}/scripts/b.py` \
                    `$CLAUDE_SKILL_DIR/assets/c.png` `{baseDir}/tool.sh`\n";
        let body = parse(text, TextRange::new(0, text.len()), true);
        let found: Vec<(&str, &str, bool)> = body
            .references
            .iter()
            .map(|r| (r.target.as_str(), &text[r.range.as_range()], r.anchored))
            .collect();
        assert_eq!(
            found,
            vec![
                ("references/a.md", "{baseDir}/references/a.md", true),
                ("scripts/b.py", "${CLAUDE_SKILL_DIR}/scripts/b.py", true),
                ("assets/c.png", "$CLAUDE_SKILL_DIR/assets/c.png", true),
                ("tool.sh", "{baseDir}/tool.sh", true),
            ]
        );
    }

    #[test]
    fn only_clear_code_span_paths_are_checked() {
        let text = "Use `scripts/tool.py:15`, `references/api.md:3:7`, `./assets/logo.png`.\n\
                    Not `scripts/*.py`, `references/<name>.md`, `scripts/{x}.py`, `assets/code`,\n\
                    `scripts/`, `python scripts/run.py in.pdf`, `references/…`, `src/scripts/a.py`,\n\
                    `scripts\\win.py`, `assets/v1.2`. Prose assets/code or scripts/b.sh is not either.\n";
        let found = refs(text);
        let checked: Vec<(&str, &str)> = found
            .iter()
            .filter(|(kind, _, _)| *kind == ReferenceKind::Path)
            .map(|(_, target, written)| (target.as_str(), written.as_str()))
            .collect();
        assert_eq!(
            checked,
            vec![
                ("scripts/tool.py", "scripts/tool.py"),
                ("references/api.md", "references/api.md"),
                ("assets/logo.png", "./assets/logo.png"),
            ]
        );
        let loose: Vec<&str> = found
            .iter()
            .filter(|(kind, _, _)| *kind == ReferenceKind::Loose)
            .map(|(_, target, _)| target.as_str())
            .collect();
        assert_eq!(
            loose,
            vec![
                "assets/code",
                "scripts/run.py",
                "assets/v1.2",
                "assets/code",
                "scripts/b.sh"
            ]
        );
    }

    #[test]
    fn examples_are_not_the_skills_own_files() {
        let text = "Bundle helpers, e.g. `scripts/rotate.py` or [a guide](references/guide.md).\n\
                    For example: `assets/logo.png`.\n\
                    Example:\n\n- `scripts/example.py`\n- [x](references/x.md)\n\n\
                    **Examples:**\n`assets/a.png` and `assets/b.png`\n\n\
                    - **Example**: `scripts/rotate_pdf.py`\n\n**Violations:**\n- `references/v2/schema.md`\n\n\
                    Read `skill-tester`'s `references/schema.md`, the pdf skill’s `assets/form.pdf`, see its `scripts/x.py`.\n\
                    The `guardrails`' `scripts/guard.mjs`; follow `references/ingest.md` in the llm-wiki skill.\n\
                    Given a `scripts/smoke.py` whose path is odd, results logged to `scripts/out/info.txt`.\n\
                    Save the report to `assets/report.pdf`; see `references/filename.md`, `scripts/my_script.py`.\n\
                    Say \"see [api](references/api.md)\"; read `references/style.txt` (if it exists).\n\
                    Obtain an existing `assets/preview.png` or ask for one.\n\
                    The catalog of `tuning`'s\n`references/catalog.md`, and `grader`'s own rubric (`references/rubric.md`).\n\n\
                    **Fix:** Create a `references/` folder and move material there:\n- Examples → `references/examples.md`\n\n\
                    Run `builder`'s Phase 3.5 compliance testing (`references/compliance.md`).\n\n\
                    | Stack | Files written |\n|---|---|\n| R | `scripts/R/out/info.txt` |\n\n\
                    Now the real one: `scripts/fill.py`. A jpeg. `assets/real.png`\n";
        assert_eq!(checked(text), vec!["scripts/fill.py", "assets/real.png"]);
        // A table that lists what it reads is checked.
        assert_eq!(
            checked("| Step | Script |\n|---|---|\n| 1 | `scripts/one.py` |\n"),
            vec!["scripts/one.py"]
        );
        // Verbs that use a file are not verbs that write one.
        assert_eq!(
            checked(
                "Output created by `scripts/make.py`; run `scripts/run.py` in the folder.\n\
                     Here's `scripts/a.py`, it's `scripts/b.py` and this skill's `scripts/c.py`.\n"
            ),
            vec![
                "scripts/make.py",
                "scripts/run.py",
                "scripts/a.py",
                "scripts/b.py",
                "scripts/c.py"
            ]
        );
    }

    /// The body as the rules would read it with every body parsed, shortcut or not.
    fn parse_always(text: &str) -> Body {
        let range = TextRange::new(0, text.len());
        let mut body = parse(text, range, true);
        if !body.blank {
            let walked = walk(
                text,
                Collect {
                    regions: has_sigil(text),
                    editor: false,
                    places: false,
                },
            );
            body.references = walked.references;
            body.regions = walked.regions;
        }
        body
    }

    #[test]
    fn skipping_the_markdown_parse_never_changes_what_the_rules_read() {
        const PIECES: [&str; 24] = [
            "Plain prose with **bold** and a table | a | b |.",
            "See [guide](references/guide.md).",
            "![chart](assets/chart.png)",
            "[guide][g]\n\n[g]: references/g.md",
            "[label]:  <scripts/run.py>",
            "Run `scripts/fill.py` now.",
            "Open `./assets/form.pdf`.",
            "`{baseDir}/notes.md` and `${CLAUDE_SKILL_DIR}/a.txt` and `$CLAUDE_SKILL_DIR/b.txt`",
            "Use /pdf or $review here.",
            "A path /usr/bin and (/docs)",
            "[not a link] (x.md) and ]\n(y.md)",
            "```\n[code](missing.md) `scripts/x.py`\n```",
            "    [indented](missing.md)",
            "<!-- [hidden](missing.md) -->",
            "<https://example.com/scripts/a.py>",
            "# Heading with `scripts/h.py`",
            "Setext\n===",
            "Example:\n`references/api.md`",
            "scripts /x and references\\/y and assets-/z",
            "[x](#anchor) [y](https://x.dev)",
            "café 中文 🚀 [ü](références/ü.md)",
            "- [ ] task with [link](a.md)",
            "> quote `assets/q.png`",
            "Footnote[^1].\n\n[^1]: See scripts/f.py",
        ];
        let mut bodies: Vec<String> = Vec::new();
        for first in PIECES {
            bodies.push(first.to_owned());
            for second in PIECES {
                bodies.push(format!("{first}\n\n{second}\n"));
                bodies.push(format!("{first} {second}"));
                bodies.push(format!("{first}\r\n{second}\r"));
            }
        }
        let mut skipped = 0;
        for body in &bodies {
            let parsed = parse(body, TextRange::new(0, body.len()), true);
            skipped += usize::from(!has_sigil(body) && !may_refer(body));
            assert_eq!(parsed, parse_always(body), "{body:?}");
        }
        assert!(skipped >= 20, "only {skipped} bodies took the shortcut");
    }

    #[test]
    fn headings_atx_and_setext() {
        let text = "# Title\n\n[ref]: references/a.md\n## Sub `code` ##\n\nSetext\n===\n    # not a heading\n";
        let range = TextRange::new(0, text.len());
        let body = parse(text, range, true);
        let found = headings(text, range);
        let titles: Vec<_> = found
            .iter()
            .map(|h| (h.level, h.title.as_str(), &text[h.range.as_range()]))
            .collect();
        assert_eq!(
            titles,
            vec![
                (1, "Title", "# Title"),
                (2, "Sub code", "## Sub `code` ##"),
                (1, "Setext", "Setext\n===")
            ]
        );
        assert_eq!(body.references[0].target, "references/a.md");
        assert_eq!(body.line_count, 8);
    }

    #[test]
    fn regions_separate_prose_from_code() {
        let text = "Run /pdf `and /code` <!-- /hidden -->\n\n```\n/fenced\n```\n[x](/docs) <https://x.dev/docs>\n";
        let kinds: Vec<(&str, Region)> = regions(text)
            .into_iter()
            .map(|(range, region)| (&text[range], region))
            .collect();
        assert!(kinds.contains(&("Run /pdf ", Region::Prose)), "{kinds:?}");
        assert!(kinds.contains(&("`and /code`", Region::Code)), "{kinds:?}");
        assert!(
            kinds.contains(&("<!-- /hidden -->", Region::Code)),
            "{kinds:?}"
        );
        assert!(kinds.contains(&("/fenced\n", Region::Code)), "{kinds:?}");
        assert!(
            !kinds.iter().any(|(text, _)| text.contains("docs")),
            "{kinds:?}"
        );
    }
}
