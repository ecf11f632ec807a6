//! SKILL.md text → `SkillDocument`: frontmatter block, YAML tree with spans, Markdown body.
//!
//! Parsing never fails and never panics: broken input is data that the rules report on.

pub(crate) mod body;
pub(crate) mod frontmatter;
pub(crate) mod mentions;
pub(crate) mod tolerant;
pub(crate) mod yaml;

use crate::text::TextRange;

pub(crate) use body::{Body, Heading, Reference, ReferenceKind};
pub(crate) use frontmatter::{Block, Split};
pub(crate) use yaml::{Entry, Node, NodeKind, ScalarType, Style, YamlDocument};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineEndings {
    Lf,
    Crlf,
    Mixed,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SkillDocument {
    pub split: Split,
    /// Parsed only when the block is closed.
    pub yaml: Option<YamlDocument>,
    pub body: Body,
    pub line_endings: LineEndings,
}

impl SkillDocument {
    #[must_use]
    pub(crate) fn parse(text: &str) -> Self {
        Self::parse_for_rules(text, true)
    }

    /// [`Self::parse`], finding the places of the security rules' matches in the same pass only
    /// when `security` (any of those rules is on): they cost a twentieth of a check without them.
    #[must_use]
    pub(crate) fn parse_for_rules(text: &str, security: bool) -> Self {
        let mut document = Self::parse_frontmatter(text);
        document.body = body::parse(text, document.split.body, security);
        document
    }

    /// The document with its body measured but not read as Markdown (`body.references` and
    /// `body.regions` are empty): for what looks at the frontmatter only, such as a fix proving
    /// that it round-trips, where parsing the body again was a fifth of a check's work.
    #[must_use]
    pub(crate) fn parse_frontmatter(text: &str) -> Self {
        let split = frontmatter::split(text);
        let yaml = split
            .block
            .as_ref()
            .filter(|block| block.close.is_some())
            .map(|block| yaml::parse(text, block.yaml));
        let body = body::measure(text, split.body);
        Self {
            split,
            yaml,
            body,
            line_endings: line_endings(text),
        }
    }

    /// The document as editor help reads it: when the frontmatter's YAML does not parse, its
    /// tree is the tolerant reading around the broken lines ([`tolerant::read`]), so hover,
    /// symbols and inlay hints keep working while a key is typed. Never for the loader or the
    /// rules, which must see what clients see.
    #[must_use]
    pub(crate) fn parse_for_editing(text: &str) -> Self {
        let parsed = Self::parse(text);
        let mut document = parsed.assume_closed(text).unwrap_or(parsed);
        let broken = document
            .yaml
            .as_ref()
            .is_some_and(|yaml| yaml.error.is_some());
        if let (true, Some(range)) = (broken, document.yaml_range()) {
            if let Some(tolerant) = tolerant::read(text, range) {
                document.yaml = Some(tolerant.yaml);
            }
        }
        document
    }

    /// A block with no closing `---`, read as it is while a new skill is typed top down: the
    /// lines after the opening `---` up to the first blank line, `#` line or line of dashes
    /// (where a body or the closing line starts), as if a closing `---` followed them. The
    /// closing line is an empty range where they end. `None` when the block is closed or those
    /// lines are blank. For the field rules and editor help, never the loader.
    #[must_use]
    pub(crate) fn assume_closed(&self, text: &str) -> Option<Self> {
        let block = self.block().filter(|block| block.close.is_none())?;
        let start = block.yaml.start;
        let end = crate::text::lines_with_ranges(&text[start..])
            .find(|(_, line)| {
                let line = line.trim();
                line.is_empty() || line.starts_with('#') || line.bytes().all(|byte| byte == b'-')
            })
            .map_or(text.len(), |(range, _)| start + range.start);
        if text[start..end].trim().is_empty() {
            return None;
        }
        let yaml = TextRange::new(start, end);
        let mut assumed = self.clone();
        assumed.split.block = Some(Block {
            close: Some(frontmatter::Delimiter {
                line: TextRange::empty(end),
                exact: true,
            }),
            yaml,
            ..block.clone()
        });
        assumed.yaml = Some(yaml::parse(text, yaml));
        Some(assumed)
    }

    #[must_use]
    pub(crate) fn block(&self) -> Option<&Block> {
        self.split.block.as_ref()
    }

    /// The frontmatter's top-level mapping, when it parsed as one.
    #[must_use]
    pub(crate) fn mapping(&self) -> Option<&Node> {
        self.yaml
            .as_ref()?
            .root
            .as_ref()
            .filter(|root| matches!(root.kind, NodeKind::Mapping(_)))
    }

    /// The first top-level entry named `key`.
    #[must_use]
    pub(crate) fn field(&self, key: &str) -> Option<&Entry> {
        self.mapping()?.get(key)
    }

    /// The newline the file uses, for text that fixes insert.
    #[must_use]
    pub(crate) fn newline(&self) -> &'static str {
        match self.line_endings {
            LineEndings::Crlf => "\r\n",
            LineEndings::Lf | LineEndings::Mixed => "\n",
        }
    }

    /// Where the YAML text of a closed block starts and ends.
    #[must_use]
    pub(crate) fn yaml_range(&self) -> Option<TextRange> {
        self.block().filter(|b| b.close.is_some()).map(|b| b.yaml)
    }
}

fn line_endings(text: &str) -> LineEndings {
    let bytes = text.as_bytes();
    let newlines = memchr::memchr_iter(b'\n', bytes).count();
    let crlf = memchr::memchr_iter(b'\r', bytes)
        .filter(|&at| bytes.get(at + 1) == Some(&b'\n'))
        .count();
    if crlf == 0 {
        LineEndings::Lf
    } else if crlf == newlines {
        LineEndings::Crlf
    } else {
        LineEndings::Mixed
    }
}
