//! Whether a path the body names is the skill's own bundled file, or an example, a path of the
//! user's project, a placeholder or a file the skill says lives elsewhere: the heuristics that
//! keep `broken-link` to the skill's own files.

use super::*;

/// The path below a skill-folder placeholder (`{baseDir}/x` → `x`), and how many bytes the
/// placeholder and its slash take.
pub(super) fn below_skill_dir(path: &str) -> Option<(&str, usize)> {
    SKILL_DIR_PLACEHOLDERS.iter().find_map(|placeholder| {
        let rest = path.strip_prefix(placeholder)?.strip_prefix('/')?;
        Some((rest, path.len() - rest.len()))
    })
}

pub(super) fn is_external(target: &str) -> bool {
    if target.starts_with(['#', '/', '\\', '~']) {
        return true;
    }
    // A scheme such as `https:` or `mailto:`; a Windows drive letter (`C:`) is absolute too.
    target.find(':').is_some_and(|colon| {
        let scheme = &target[..colon];
        scheme.starts_with(|ch: char| ch.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.'))
    })
}

/// Characters that make a path a pattern or a template rather than one file.
pub(super) fn is_pattern(path: &str) -> bool {
    path.contains([
        '*', '?', '[', ']', '{', '}', '<', '>', '$', '%', '|', '"', '\'', '`',
    ]) || path.contains("...")
        || path.contains('…')
}

/// The last segment has an extension: `fill.py`, `form.tar.gz`, not `v1.2` or `notes.`.
pub(super) fn has_extension(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some(dot) = name.rfind('.') else {
        return false;
    };
    let extension = &name[dot + 1..];
    dot > 0
        && (1..=10).contains(&extension.len())
        && extension.bytes().all(|byte| byte.is_ascii_alphanumeric())
        && extension.bytes().any(|byte| byte.is_ascii_alphabetic())
}

pub(super) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' && at + 3 <= bytes.len() {
            if let Some(byte) = text
                .get(at + 1..at + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            {
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

/// A code span or link that is one bundled path: how many of its bytes the path takes (a
/// placeholder included, a `:line` suffix not), the path from the skill folder, and whether a
/// placeholder anchors it.
pub(super) fn bundle_path(token: &str) -> Option<(usize, String, bool)> {
    let (rest, skip, anchored) = match below_skill_dir(token) {
        Some((rest, skip)) => (rest, skip, true),
        None => {
            let rest = token.strip_prefix("./").unwrap_or(token);
            (rest, token.len() - rest.len(), false)
        }
    };
    if !anchored && !BUNDLE_DIRS.iter().any(|dir| rest.starts_with(dir)) {
        return None;
    }
    // `scripts/tool.py:15`, `scripts/tool.py:15:3` and `scripts/tool.py:main` name the file too.
    let path = rest.split(':').next().unwrap_or(rest);
    if is_pattern(path) || path.contains('\\') || !has_extension(path) {
        return None;
    }
    Some((skip + path.len(), path.to_owned(), anchored))
}

/// Whether what the body says at an offset is an example rather than the skill's own files:
/// after "e.g." or "for example" on its line, or in the block that an "Example:" line opens.
/// Only checked references ask, so the lines are read on demand, not all up front.
pub(super) struct Examples<'a> {
    pub(super) source: &'a str,
}

pub(super) const EXAMPLE_MARKERS: [&str; 8] = [
    "e.g.",
    "e.g,",
    "eg.",
    "eg,",
    "for example",
    "for instance",
    "example:",
    "examples:",
];

/// "For example" in the other languages skills are written in (German, Spanish, French,
/// Portuguese, Russian, Chinese, Japanese, Korean), lowercase. Matched at a word start.
pub(super) const TRANSLATED_MARKERS: [&str; 29] = [
    "z.b.",
    "z. b.",
    "bspw.",
    "beispielsweise",
    "zum beispiel",
    "p. ej.",
    "p.ej.",
    "por ejemplo",
    "p. ex.",
    "p.ex.",
    "par exemple",
    "por exemplo",
    "ex.:",
    "например",
    "напр.",
    "к примеру",
    "例如",
    "比如",
    "譬如",
    "示例：",
    "例：",
    "例:",
    "例えば",
    "たとえば",
    "예를 들어",
    "예를 들면",
    "예:",
    "예시:",
    "예)",
];

/// Words of a line ending in `:` that opens a block of examples, of what not to do, or of
/// files still to make; with "example" in the languages of `TRANSLATED_MARKERS`.
pub(super) const INTRO_WORDS: [&str; 19] = [
    "example",
    "create",
    "e.g.",
    "violation",
    "bad",
    "wrong",
    "incorrect",
    "avoid",
    "don't",
    "anti-pattern",
    "beispiel",
    "ejemplo",
    "exemple",
    "exemplo",
    "пример",
    "示例",
    "例：",
    "例:",
    "예시",
];

/// `**Examples**:` and `_e.g._` are markers too: emphasis is dropped before matching.
pub(super) fn plain_lowercase(line: &str) -> String {
    line.to_ascii_lowercase().replace(['*', '_'], "")
}

pub(super) fn has_marker(lower: &str) -> bool {
    has_english_marker(lower) || has_translated_marker(lower)
}

/// `lower` holds "for example" in another language, at a word start. Its letters beyond ASCII
/// are lowercased here: `plain_lowercase` leaves them.
fn has_translated_marker(lower: &str) -> bool {
    let lower = lower.to_lowercase();
    TRANSLATED_MARKERS.iter().any(|marker| {
        lower.match_indices(marker).any(|(at, _)| {
            !lower[..at]
                .chars()
                .next_back()
                .is_some_and(|before| before.is_alphanumeric() && before.is_ascii())
        })
    })
}

fn has_english_marker(lower: &str) -> bool {
    let bytes = lower.as_bytes();
    // Every marker starts with `e` or `f`: only those places are tried, rather than searching
    // the line once per marker (this runs for every path a body names).
    memchr::memchr2_iter(b'e', b'f', bytes).any(|at| {
        // `eg.` inside a word (`jpeg.`) is no marker.
        (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
            && EXAMPLE_MARKERS
                .iter()
                .any(|marker| bytes[at..].starts_with(marker.as_bytes()))
    })
}

/// A line that ends in `:` and opens a block of examples: "Example:", "**Violations:**".
pub(super) fn is_intro(line: &str) -> bool {
    // A full-width colon ends the line in Chinese and Japanese.
    if !line
        .trim_end_matches(|ch: char| ch.is_whitespace() || matches!(ch, '*' | '_'))
        .ends_with([':', '：'])
    {
        return false;
    }
    let lower = plain_lowercase(line).to_lowercase();
    let bare = lower
        .trim()
        .trim_matches(|ch: char| matches!(ch, '#' | '>' | '-' | ' '));
    bare.ends_with([':', '：']) && INTRO_WORDS.iter().any(|word| bare.contains(word))
}

impl Examples<'_> {
    pub(super) fn contains(&self, offset: usize) -> bool {
        let source = self.source;
        let line_start = source[..offset].rfind('\n').map_or(0, |at| at + 1);
        if has_marker(&plain_lowercase(&source[line_start..offset])) {
            return true;
        }
        // Up through the lines of this block: an intro among them opens the example from the
        // next line on. Past the blank lines above the block, only the line just before them
        // can open it.
        let mut end = line_start;
        let mut in_block = true;
        while end > 0 {
            let start = source[..end - 1].rfind('\n').map_or(0, |at| at + 1);
            let line = &source[start..end - 1];
            end = start;
            let trimmed = line.trim();
            if trimmed.is_empty() {
                in_block = false;
                continue;
            }
            if is_intro(line) {
                return true;
            }
            if !in_block || trimmed.starts_with('#') {
                return false;
            }
        }
        false
    }
}

/// Paths that stand for any file: `references/filename.md`, `scripts/your_script.py`,
/// `your-project/notes.md`, `path/to/report.pdf`.
pub(super) fn is_placeholder_name(path: &str) -> bool {
    let segments: Vec<String> = path
        .split('/')
        .map(|segment| {
            let stem = segment.split('.').next().unwrap_or(segment);
            stem.to_ascii_lowercase()
        })
        .collect();
    let name = segments.last().map_or("", String::as_str);
    matches!(
        name,
        "filename" | "file-name" | "file_name" | "foo" | "bar" | "baz" | "xxx" | "placeholder"
    ) || segments
        .windows(2)
        .any(|pair| pair[0] == "path" && pair[1] == "to")
        || segments.iter().any(|segment| {
            ["your-", "your_", "my-", "my_"]
                .iter()
                .any(|prefix| segment.starts_with(prefix))
        })
}

/// Inside a quotation, which in a skill is an example of what to write: `"see [a](b.md)"`.
pub(super) fn is_quoted(before: &str) -> bool {
    let opening = before.matches(['"', '“']).count();
    let closing = before.matches('”').count();
    opening.saturating_sub(closing) % 2 == 1
}

/// The file is read only when it is there: "`references/style.txt` (if it exists)".
pub(super) fn is_conditional(after: &str) -> bool {
    let after = after.to_lowercase();
    let head = after.get(..after.len().min(40)).unwrap_or(&after);
    [
        "if it exists",
        "if exists",
        "if present",
        "when present",
        "if any",
        "optional",
        "若存在",
        "如有",
    ]
    .iter()
    .any(|phrase| head.contains(phrase))
}

/// Words whose `'s` is `is`: "here's `scripts/x.py`".
pub(super) const CONTRACTIONS: [&str; 8] =
    ["it", "here", "there", "that", "what", "let", "who", "where"];

/// Words that may stand between an article and its path: "an existing `assets/x.png`".
pub(super) const ADJECTIVES: [&str; 7] = [
    "existing",
    "new",
    "optional",
    "custom",
    "own",
    "separate",
    "dedicated",
];

/// Words that may stand between a verb and the path it governs: "save the report to `x`".
pub(super) const FILLER_WORDS: [&str; 15] = [
    "to", "into", "in", "as", "at", "under", "the", "your", "new", "a", "an", "file", "output",
    "result", "report",
];

/// Verbs that make the path one the agent is to write or that lives where something was
/// installed, not one the skill ships.
pub(super) const OUTPUT_VERBS: [&str; 32] = [
    "create",
    "creates",
    "creating",
    "created",
    "write",
    "writes",
    "writing",
    "written",
    "save",
    "saves",
    "saving",
    "saved",
    "log",
    "logs",
    "logged",
    "export",
    "exports",
    "exported",
    "generate",
    "generates",
    "generated",
    "produce",
    "produces",
    "produced",
    "emit",
    "emits",
    "emitted",
    "store",
    "stores",
    "stored",
    "install",
    "installed",
];

/// What the words around a code-span path say about it (`before` and `after` are the rest of
/// its line): another skill's file ("`pdf`'s `scripts/fill.py`", "see its `x`", "`x` in the
/// wiki skill"), any file of a kind ("a `scripts/x.py` whose …") or one the agent is to write
/// ("logged to `x`").
pub(super) fn says_elsewhere(before: &str, after: &str) -> bool {
    let before = before
        .trim_end_matches(['`', '(', '[', '<', '"', '*'])
        .trim_end()
        .to_lowercase();
    // A plural's possessive, the name often in code itself: "`guardrails`' `x`".
    if let Some(head) = before
        .strip_suffix('\'')
        .or_else(|| before.strip_suffix('’'))
    {
        if head.trim_end_matches(['`', '*']).ends_with('s') {
            return true;
        }
    }
    let is_word_char = |ch: char| ch.is_alphanumeric() || matches!(ch, '-' | '\'' | '’');
    let words = before
        .split(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty())
        .rev();
    let last: Vec<&str> = words.take(6).collect();
    // "`skill-tester`'s own rubric (`x`)", but not "here's `x`" or "this skill's `x`".
    let possessive = last.iter().enumerate().any(|(index, word)| {
        let owner = word.strip_suffix("'s").or_else(|| word.strip_suffix("’s"));
        let own = matches!(last.get(index + 1), Some(&("this" | "the" | "our")));
        owner.is_some_and(|owner| !CONTRACTIONS.contains(&owner) && !own)
    });
    if possessive {
        return true;
    }
    let last = &last[..last.len().min(4)];
    let determiner = last.iter().find(|word| !ADJECTIVES.contains(word));
    if determiner.is_some_and(|word| {
        matches!(
            *word,
            "a" | "an" | "its" | "their" | "any" | "each" | "every"
        )
    }) {
        return true;
    }
    let verb = last.iter().find(|word| !FILLER_WORDS.contains(word));
    if verb.is_some_and(|word| OUTPUT_VERBS.contains(word)) {
        return true;
    }
    let after = after.to_lowercase();
    let mut words = after
        .split(|ch: char| !is_word_char(ch))
        .filter(|word| !word.is_empty());
    matches!(words.next(), Some("in" | "from" | "of"))
        && words
            .take(3)
            .any(|word| matches!(word, "skill" | "skill's" | "plugin" | "plugin's"))
}

/// References found so far, with byte ranges into the body.
pub(super) struct Found<'a> {
    pub(super) source: &'a str,
    pub(super) examples: &'a Examples<'a>,
    pub(super) references: Vec<Reference>,
    /// Code spans that are no bundled path, whose text may still hold loose ones.
    pub(super) loose_code: Vec<Range<usize>>,
}

impl Found<'_> {
    pub(super) fn push(
        &mut self,
        kind: ReferenceKind,
        target: String,
        range: Range<usize>,
        anchored: bool,
    ) {
        let mut line_start = self.source[..range.start]
            .rfind('\n')
            .map_or(0, |at| at + 1);
        if line_start > 0
            && self.source[line_start..range.start]
                .trim_matches(|ch: char| ch.is_whitespace() || matches!(ch, '`' | '(' | '*'))
                .is_empty()
        {
            // The words that govern a path at the start of a line end the line before.
            line_start = self.source[..line_start - 1]
                .rfind('\n')
                .map_or(0, |at| at + 1);
        }
        let line_end = self.source[range.end..]
            .find('\n')
            .map_or(self.source.len(), |at| range.end + at);
        let before = &self.source[line_start..range.start];
        let after = &self.source[range.end..line_end];
        let incidental = self.examples.contains(range.start)
            || is_placeholder_name(&target)
            || self.in_output_column(line_start)
            || is_quoted(before)
            || is_conditional(after)
            || (kind == ReferenceKind::Path && !anchored && says_elsewhere(before, after));
        self.references.push(Reference {
            kind: if incidental {
                ReferenceKind::Loose
            } else {
                kind
            },
            target,
            range: TextRange::new(range.start, range.end),
            anchored,
        });
    }

    /// A table row under a header that lists what gets written: "| Stack | Files written |".
    pub(super) fn in_output_column(&self, line_start: usize) -> bool {
        let is_row = |line: &str| line.trim_start().starts_with('|');
        if !is_row(&self.source[line_start..]) {
            return false;
        }
        let mut header = line_start;
        while header > 0 {
            let previous = self.source[..header - 1].rfind('\n').map_or(0, |at| at + 1);
            if !is_row(&self.source[previous..header]) {
                break;
            }
            header = previous;
        }
        let line = self.source[header..]
            .lines()
            .next()
            .unwrap_or("")
            .to_lowercase();
        ["written", "output", "generated", "created", "produced"]
            .iter()
            .any(|word| line.contains(word))
    }

    pub(super) fn closed_link(&mut self, open: &OpenLink) {
        if open.link_type != LinkType::Inline {
            // Reference-style links are checked at their definition; autolinks are URLs.
            return;
        }
        let content_end = open
            .content_end
            .max(open.span.start + if open.image { 2 } else { 1 });
        if let Some(raw) = inline_destination(self.source, content_end, &open.span) {
            self.link(&open.dest, raw);
        }
    }

    /// A link destination: `dest` as pulldown-cmark read it (escapes resolved), `raw` where
    /// it is written.
    pub(super) fn link(&mut self, dest: &str, raw: Range<usize>) {
        let dest = dest.trim();
        if dest.is_empty() || is_external(dest) {
            return;
        }
        let written = &self.source[raw.clone()];
        let raw_len = written.find(['#', '?']).unwrap_or(written.len());
        let path = dest.split(['#', '?']).next().unwrap_or("");
        let (path, anchored) = match below_skill_dir(path) {
            Some((rest, _)) => (rest, true),
            None => (path, false),
        };
        let decoded = percent_decode(path);
        if decoded.is_empty()
            || is_pattern(&decoded)
            || PLACEHOLDER_TARGETS
                .iter()
                .any(|word| decoded.eq_ignore_ascii_case(word))
        {
            return;
        }
        self.push(
            ReferenceKind::Link,
            decoded,
            raw.start..raw.start + raw_len,
            anchored,
        );
    }

    pub(super) fn code_span(&mut self, span: Range<usize>) {
        let raw = &self.source[span.clone()];
        let ticks = raw.bytes().take_while(|&byte| byte == b'`').count();
        if raw.len() < 2 * ticks {
            return;
        }
        let inner = span.start + ticks..span.end - ticks;
        let text = &self.source[inner.clone()];
        let start = inner.start + (text.len() - text.trim_start().len());
        let content = text.trim();
        if !content.contains(char::is_whitespace) {
            if let Some((len, target, anchored)) = bundle_path(content) {
                self.push(ReferenceKind::Path, target, start..start + len, anchored);
                return;
            }
        }
        self.loose_code.push(inner);
    }

    /// Bundled paths in text that asks nothing of them: prose, commands, code.
    pub(super) fn loose(&mut self, span: Range<usize>) {
        let text = &self.source[span.clone()];
        let bytes = text.as_bytes();
        let mut search = 0;
        while let Some(found) = memchr::memchr(b'/', &bytes[search..]) {
            let slash = search + found;
            search = slash + 1;
            let before = &text[..slash];
            let (start, anchored) = if let Some(dir) = BUNDLE_DIRS
                .iter()
                .find(|dir| text[..=slash].ends_with(*dir))
            {
                let start = slash + 1 - dir.len();
                let boundary = text[..start].chars().next_back().is_none_or(|prev| {
                    !(prev.is_alphanumeric()
                        || matches!(prev, '/' | '.' | '_' | '-' | '\\' | '$' | '{' | '}'))
                });
                if !boundary {
                    continue;
                }
                (start, false)
            } else if let Some(placeholder) = SKILL_DIR_PLACEHOLDERS
                .iter()
                .find(|placeholder| before.ends_with(*placeholder))
            {
                (slash - placeholder.len(), true)
            } else {
                continue;
            };
            let rest = &text[search..];
            let path_len = rest
                .find(|ch: char| !(ch.is_alphanumeric() || matches!(ch, '_' | '-' | '.' | '/')))
                .unwrap_or(rest.len());
            if matches!(
                rest[path_len..].chars().next(),
                Some('<' | '{' | '*' | '[' | '$')
            ) {
                continue;
            }
            let path = rest[..path_len].trim_end_matches(['.', '-', '/']);
            if path.is_empty() {
                continue;
            }
            let target = if anchored {
                path.to_owned()
            } else {
                format!("{}{path}", &text[start..search])
            };
            let end = search + path.len();
            search = end;
            self.references.push(Reference {
                kind: ReferenceKind::Loose,
                target,
                range: TextRange::new(span.start + start, span.start + end),
                anchored,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: some marker occurs where no letter or digit runs into it.
    fn has_marker_by_definition(lower: &str) -> bool {
        EXAMPLE_MARKERS.iter().any(|marker| {
            lower
                .match_indices(marker)
                .any(|(at, _)| at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric())
        })
    }

    #[test]
    fn markers_start_where_has_marker_looks() {
        for marker in EXAMPLE_MARKERS {
            assert!(marker.starts_with(['e', 'f']), "{marker}");
        }
    }

    #[test]
    fn markers_are_found_as_the_definition_finds_them() {
        let parts = [
            "e.g.", "e.g", "eg", ".", ",", "for ", "for", "example", "instance", "s", ":", "jp",
            " ", "x", "f", "e", "é", "(",
        ];
        let mut lines = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = lines
                .iter()
                .flat_map(|line| parts.iter().map(move |part| format!("{line}{part}")))
                .collect();
            lines.extend(longer);
            lines.sort();
            lines.dedup();
        }
        let mut found = 0;
        for line in &lines {
            let expected = has_marker_by_definition(line);
            assert_eq!(has_english_marker(line), expected, "{line:?}");
            found += usize::from(expected);
        }
        assert!(
            found > 1000 && found < lines.len() / 2,
            "{found} of {}",
            lines.len()
        );
    }
}
