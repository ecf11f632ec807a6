//! Where a piece of a skill's text sits, which decides how much a pattern found there means:
//! `curl … | sh` in a script the agent runs is a threat, the same words in a code span of a
//! security-review skill are an explanation.

use std::ops::Range;
use std::sync::LazyLock;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use regex::Regex;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Place {
    /// A frontmatter value of a SKILL.md.
    Frontmatter,
    /// Markdown a reader sees rendered (and any text that is not Markdown or a script).
    #[default]
    Prose,
    /// Quoted rather than run: a block of a data language (`text`, `json`, …), or a block the
    /// text introduces as a bad example.
    Quoted,
    /// A code span in prose: a command the text may tell the agent to run ("first run
    /// `curl … | sh`") or one it only names ("never run `curl … | sh`").
    Span,
    /// Markdown a reader does not see rendered: an HTML comment, a link title, image alt text.
    Hidden,
    /// A fenced block of a language the agent runs; the number tells blocks apart, since a
    /// secret read in one block and a send in another are not one program.
    Block(u32),
    /// A script the skill ships.
    Script,
    /// A whole-line comment of a script.
    Comment,
}

impl Place {
    /// Text that runs: a script or a block the agent is told to run.
    #[must_use]
    pub(crate) fn runs(self) -> bool {
        matches!(self, Place::Block(_) | Place::Script)
    }

    /// Where it sits, for a finding's message.
    #[must_use]
    pub(crate) fn subject(self) -> &'static str {
        match self {
            Place::Frontmatter => "the frontmatter",
            Place::Prose | Place::Quoted | Place::Span => "the text",
            Place::Hidden => "text hidden from readers of the rendered page",
            Place::Block(_) => "this code block",
            Place::Script | Place::Comment => "this script",
        }
    }
}

/// The places of one file, found once and looked up by offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Places {
    /// Sorted, not overlapping; text outside every range is prose (Markdown) or script.
    ranges: Vec<(Range<usize>, Place)>,
    /// What text outside `ranges` is.
    rest: Place,
    /// Offsets before this are frontmatter (a SKILL.md).
    frontmatter_end: usize,
}

impl Places {
    /// The place of byte `offset`.
    #[must_use]
    pub(crate) fn at(&self, offset: usize) -> Place {
        if offset < self.frontmatter_end {
            return Place::Frontmatter;
        }
        let index = self
            .ranges
            .partition_point(|(range, _)| range.start <= offset);
        match index.checked_sub(1).map(|at| &self.ranges[at]) {
            Some((range, place)) if offset < range.end => *place,
            _ => self.rest,
        }
    }

    /// The range of the block or comment region at `offset`, if it is in one.
    #[must_use]
    pub(crate) fn region_at(&self, offset: usize) -> Option<Range<usize>> {
        let index = self
            .ranges
            .partition_point(|(range, _)| range.start <= offset);
        let (range, _) = &self.ranges[index.checked_sub(1)?];
        (offset < range.end).then(|| range.clone())
    }

    /// Whether any text after the frontmatter is in `place`.
    #[must_use]
    pub(crate) fn has(&self, place: Place) -> bool {
        self.rest == place || self.ranges.iter().any(|(_, at)| *at == place)
    }

    /// A script: every line runs except whole-line comments.
    #[must_use]
    pub(crate) fn script(text: &str) -> Self {
        let mut ranges = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim_start();
            // A block comment that closes on its line and is followed by code (a minified
            // file's banner) does not make the line a comment.
            let closed_then_code = trimmed.starts_with("/*")
                && trimmed
                    .split_once("*/")
                    .is_some_and(|(_, rest)| !rest.trim().is_empty());
            let is_comment = ["#", "//", "REM ", "rem ", "::", "/*", "* ", "*/"]
                .iter()
                .any(|marker| trimmed.starts_with(marker))
                && !trimmed.starts_with("#!")
                && !closed_then_code;
            if is_comment {
                ranges.push((start..start + line.len(), Place::Comment));
            }
            start += line.len();
        }
        Self {
            ranges,
            rest: Place::Script,
            frontmatter_end: 0,
        }
    }

    /// Markdown from `body_start` on (a SKILL.md's frontmatter before it). `blocks_run`: the
    /// agent runs its blocks (a SKILL.md, a reference), rather than a person reading them (a
    /// README).
    #[must_use]
    pub(crate) fn markdown(text: &str, body_start: usize, blocks_run: bool) -> Self {
        let body = &text[body_start..];
        let mut walk = MarkdownWalk::new(blocks_run);
        for (event, span) in
            Parser::new_ext(body, crate::document::body::options()).into_offset_iter()
        {
            walk.feed(body, &event, span);
        }
        walk.finish(text, body_start)
    }

    /// The byte where the body these places were found in starts.
    #[must_use]
    pub(crate) fn body_start(&self) -> usize {
        self.frontmatter_end
    }
}

/// The places of a Markdown body, found from the events of its CommonMark parse: fed by
/// [`Places::markdown`], or by the body rules' own parse of a SKILL.md so that the body is not
/// parsed twice.
#[derive(Debug, Default)]
pub(crate) struct MarkdownWalk {
    blocks_run: bool,
    /// Byte ranges into the body.
    ranges: Vec<(Range<usize>, Place)>,
    blocks: u32,
    /// The open code block: where it starts, and what it is.
    block: Option<(usize, BlockKind)>,
    image_depth: usize,
}

impl MarkdownWalk {
    #[must_use]
    pub(crate) fn new(blocks_run: bool) -> Self {
        Self {
            blocks_run,
            ..Self::default()
        }
    }

    /// One event of the parse of `body`, with its span in `body`.
    pub(crate) fn feed(&mut self, body: &str, event: &Event<'_>, span: Range<usize>) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let runs = match kind {
                    CodeBlockKind::Fenced(info) => runs_language(info),
                    CodeBlockKind::Indented => true,
                };
                let quoted = !runs
                    || !self.blocks_run
                    || introduced_as_bad(&body[..span.start])
                    || heading_marks_bad(&body[..span.start])
                    || first_line_marks_bad(&body[span.clone()]);
                let kind = if quoted {
                    BlockKind::Quoted
                } else if matches!(kind, CodeBlockKind::Indented)
                    && holds_code_spans(&body[span.clone()])
                {
                    // A list item indented one level too deep becomes an indented block; its
                    // code spans show it was written as prose around a command.
                    BlockKind::Prose
                } else {
                    BlockKind::Runs
                };
                self.block = Some((span.start, kind));
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((start, kind)) = self.block.take() {
                    let place = match kind {
                        BlockKind::Quoted => Place::Quoted,
                        BlockKind::Prose => Place::Span,
                        BlockKind::Runs => {
                            self.blocks += 1;
                            Place::Block(self.blocks)
                        }
                    };
                    self.ranges.push((start..span.end, place));
                }
            }
            // In Markdown written for people, a code span is shown, not run.
            Event::Code(_) if self.block.is_none() => self.ranges.push((
                span,
                if self.blocks_run {
                    Place::Span
                } else {
                    Place::Quoted
                },
            )),
            Event::Start(Tag::Image { title, .. }) => {
                self.image_depth += 1;
                push_title(body, &span, title, &mut self.ranges);
            }
            Event::End(TagEnd::Image) => self.image_depth = self.image_depth.saturating_sub(1),
            Event::Start(Tag::Link { title, .. }) => {
                push_title(body, &span, title, &mut self.ranges);
            }
            Event::Text(_) if self.image_depth > 0 && self.block.is_none() => {
                self.ranges.push((span, Place::Hidden));
            }
            _ => {}
        }
    }

    /// The places of `text`, whose body (the text fed) starts at `body_start`.
    #[must_use]
    pub(crate) fn finish(self, text: &str, body_start: usize) -> Places {
        let mut ranges: Vec<(Range<usize>, Place)> = self
            .ranges
            .into_iter()
            .map(|(range, place)| (range.start + body_start..range.end + body_start, place))
            .collect();
        // HTML comments, found in the raw text: a comment may span several HTML events.
        let mut from = body_start;
        while let Some(at) = memchr::memmem::find(&text.as_bytes()[from..], b"<!--") {
            let start = from + at;
            let end = memchr::memmem::find(&text.as_bytes()[start + 4..], b"-->")
                .map_or(text.len(), |at| start + 4 + at + 3);
            let inside_code = ranges.iter().any(|(range, place)| {
                range.contains(&start)
                    && matches!(place, Place::Quoted | Place::Block(_) | Place::Span)
            });
            if !inside_code {
                ranges.push((start..end, Place::Hidden));
            }
            from = end;
        }
        ranges.sort_by_key(|(range, _)| (range.start, range.end));
        // Keep the outer range where two overlap (an image inside a link, a comment in a title).
        let mut merged: Vec<(Range<usize>, Place)> = Vec::with_capacity(ranges.len());
        for (range, place) in ranges {
            match merged.last() {
                Some((last, _)) if range.start < last.end => {}
                _ => merged.push((range, place)),
            }
        }
        Places {
            ranges: merged,
            rest: Place::Prose,
            frontmatter_end: body_start,
        }
    }
}

/// What a code block of Markdown is, decided at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    /// A command the agent runs.
    Runs,
    /// Data, or an example of what not to do.
    Quoted,
    /// Prose that parsed as a block: read as a code span.
    Prose,
}

/// Whether an indented block holds a line of Markdown with a code span in it: a list item or a
/// sentence ("- reject `rm -rf /` outright"), not a command.
fn holds_code_spans(block: &str) -> bool {
    block.lines().any(|line| {
        let line = line.trim();
        let markup = line.starts_with("- ") || line.starts_with("* ") || line.ends_with('.');
        markup && line.matches('`').count() >= 2
    })
}

/// A link's or image's title, found in its source span.
fn push_title(
    text: &str,
    span: &Range<usize>,
    title: &str,
    ranges: &mut Vec<(Range<usize>, Place)>,
) {
    if title.trim().is_empty() {
        return;
    }
    if let Some(at) = text[span.clone()].rfind(title) {
        let start = span.start + at;
        ranges.push((start..start + title.len(), Place::Hidden));
    }
}

/// Languages an agent runs when a skill shows a block of them; a block without a language is
/// taken as a command too, since that is how most skills write them.
fn runs_language(info: &str) -> bool {
    let language = info
        .split(|ch: char| ch.is_whitespace() || ch == ',' || ch == '{')
        .next()
        .unwrap_or("")
        .trim_start_matches('.')
        .to_ascii_lowercase();
    matches!(
        language.as_str(),
        "" | "sh"
            | "bash"
            | "shell"
            | "zsh"
            | "fish"
            | "ksh"
            | "console"
            | "terminal"
            | "shell-session"
            | "sh-session"
            | "shellsession"
            | "powershell"
            | "ps"
            | "ps1"
            | "pwsh"
            | "cmd"
            | "bat"
            | "batch"
            | "python"
            | "py"
            | "python3"
            | "javascript"
            | "js"
            | "node"
            | "mjs"
            | "typescript"
            | "ts"
            | "ruby"
            | "rb"
            | "perl"
            | "php"
            | "dockerfile"
            | "makefile"
            | "make"
    )
}

pub(crate) static BAD_EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::compile(
        r"(?i)\b(?:bad|don'?t|do\s+not|never|avoid|malicious|dangerous|insecure|unsafe|vulnerable|attacks?|attackers?|exploits?|wrong|anti-?patterns?|red\s+flags?|suspicious|detects?|flags?|flagged|look\s+for|instead\s+of|risky|harmful|forbidden|blocked|prohibited|reject|check\s+for|search\s+for|scan\s+for|patterns?|indicators?|signatures?|examples?\s+of|such\s+as|e\.g\.|warns?|refuse|deny|denies|guard|prevent|catch(?:es)?|threats?|iocs?)\b|❌|🚫|⛔|⚠|严禁|禁止|不要|切勿|避免|危险|恶意|絶対に|禁止する|しないで",
    )
});

/// Whether the last lines of prose before a block present it as something not to do or to look
/// for ("Never run this:", "❌ Bad", "Flag commands such as:").
pub(crate) fn introduced_as_bad(before: &str) -> bool {
    let lead: Vec<&str> = before
        .lines()
        .rev()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .take(2)
        .collect();
    lead.iter().any(|line| BAD_EXAMPLE.is_match(line))
}

/// Whether the section holding the text ends a heading that presents what follows as things
/// to look for or avoid ("## Red flags", "### Exfiltration — search for").
pub(crate) fn heading_marks_bad(before: &str) -> bool {
    before
        .lines()
        .rev()
        .find(|line| line.trim_start().starts_with('#'))
        .is_some_and(|heading| BAD_EXAMPLE.is_match(heading))
}

/// A block whose first line is a comment saying it is a bad example (`# BAD: …`).
fn first_line_marks_bad(block: &str) -> bool {
    let mut lines = block.lines().skip(1).map(str::trim);
    let first = lines.find(|line| !line.is_empty()).unwrap_or("");
    (first.starts_with('#') || first.starts_with("//") || first.starts_with("REM"))
        && BAD_EXAMPLE.is_match(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place_of(text: &str, needle: &str) -> Place {
        let places = Places::markdown(text, 0, true);
        places.at(text.find(needle).unwrap())
    }

    #[test]
    fn markdown_places() {
        let text = "Run this:\n\n```bash\ncurl x | sh\n```\n\nA `curl y | sh` span.\n\n<!-- hidden words -->\n\n![alt words](a.png \"title words\")\n\n```text\nplain data\n```\n\nNever do this:\n\n```bash\nrm -rf /\n```\n";
        assert_eq!(place_of(text, "curl x"), Place::Block(1));
        assert_eq!(place_of(text, "curl y"), Place::Span);
        assert_eq!(place_of(text, "hidden words"), Place::Hidden);
        assert_eq!(place_of(text, "alt words"), Place::Hidden);
        assert_eq!(place_of(text, "title words"), Place::Hidden);
        assert_eq!(place_of(text, "plain data"), Place::Quoted);
        assert_eq!(place_of(text, "rm -rf"), Place::Quoted);
        assert_eq!(place_of(text, "Run this"), Place::Prose);
    }

    #[test]
    fn frontmatter_comes_first() {
        let text = "---\nname: x\n---\nbody\n";
        let places = Places::markdown(text, text.find("body").unwrap(), true);
        assert_eq!(places.at(5), Place::Frontmatter);
        assert_eq!(places.at(text.find("body").unwrap()), Place::Prose);
    }

    #[test]
    fn script_comments() {
        let text = "#!/bin/sh\n# curl x | sh\ncurl y | sh\n";
        let places = Places::script(text);
        assert_eq!(places.at(text.find("curl x").unwrap()), Place::Comment);
        assert_eq!(places.at(text.find("curl y").unwrap()), Place::Script);
        assert_eq!(places.at(2), Place::Script);
    }
}
