//! File and frontmatter rules: encoding, delimiters, YAML syntax, mapping shape, duplicate keys
//! and flow style.

use super::fix::{line_end_after, normalise_name, quoted, verify};
use super::recover::{Quote, Rewrite};
use super::{Checker, Rule};
use crate::diagnostic::{Edit, Fix};
use crate::document::tolerant::{Masked, Tolerant};
use crate::document::yaml::{Decoration, DecorationKind};
use crate::document::{Node, NodeKind, SkillDocument, Style};
use crate::targets::{Client, Effect};
use crate::text::{TextRange, lines_with_ranges};

/// How each client takes a file whose frontmatter it cannot read at all.
pub(super) fn unreadable_frontmatter(target: Client) -> Effect {
    match target {
        Client::ClaudeCode => Effect::Degrade(
            "loads it without metadata (folder name, first body line)",
            "load it without metadata (folder name, first body line)",
        ),
        other => other.refusal(),
    }
}

/// How each client takes YAML that does not parse.
fn broken_yaml(target: Client) -> Effect {
    match target {
        Client::ClaudeCode => Effect::Degrade(
            "loads the body with empty metadata",
            "load the body with empty metadata",
        ),
        Client::Gemini => Effect::Degrade(
            "recovers name and description with its fallback parser",
            "recover name and description with their fallback parsers",
        ),
        other => other.refusal(),
    }
}

/// How each client takes an unquoted `: ` in a value.
fn colon_effect(target: Client) -> Effect {
    match target {
        // Claude Code reads such values since v2.1.69; Gemini CLI has a line-based fallback.
        Client::ClaudeCode | Client::Gemini => Effect::Load,
        other => other.refusal(),
    }
}

pub(super) fn check(checker: &mut Checker<'_>) {
    let text = checker.text;
    let document = checker.document;
    if document.split.bom {
        let bom = TextRange::new(0, '\u{feff}'.len_utf8());
        checker.report(
            Rule::Bom,
            bom,
            "a UTF-8 byte-order mark precedes the opening '---'",
            // Claude Code 2.1.328 skips the mark and reads the skill (the oracles' BOM case).
            |target| match target {
                Client::ClaudeCode => Effect::Load,
                other => other.refusal(),
            },
            vec![Fix::new(
                "Remove the byte-order mark",
                true,
                vec![Edit::delete(bom)],
            )],
        );
    }
    let Some(block) = document.block() else {
        missing_frontmatter(checker);
        return;
    };
    if let Some(preamble) = block.preamble {
        let shown = trimmed_range(text, preamble);
        let fixes = move_block_first(text, document, preamble)
            .into_iter()
            .collect();
        checker.report(
            Rule::FrontmatterNotFirst,
            shown,
            "the frontmatter must start on line 1, but text comes before its opening '---'",
            unreadable_frontmatter,
            fixes,
        );
    }
    for (delimiter, which) in [(Some(block.open), "opening"), (block.close, "closing")] {
        let Some(delimiter) = delimiter.filter(|delimiter| !delimiter.exact) else {
            continue;
        };
        let line = &text[delimiter.line.as_range()];
        let only_dashes = line.trim_end().bytes().all(|byte| byte == b'-');
        // skills-ref checks that the file starts with `---` and splits at the first `---`
        // anywhere, so it takes any closing line that starts with three dashes, and an opening
        // line whose extra characters are spaces (they become blank YAML).
        let skills_ref_reads = which == "closing"
            || line
                .strip_prefix("---")
                .is_some_and(|rest| rest.trim_start_matches(' ').is_empty());
        let fix = Fix::new(
            "Replace with '---'",
            only_dashes,
            vec![Edit::replace(delimiter.line, "---")],
        );
        checker.report(
            Rule::MalformedDelimiter,
            delimiter.line,
            format!("the {which} delimiter '{line}' must be exactly '---'"),
            move |target| match target {
                Client::AgentSkills if skills_ref_reads => Effect::Degrade(
                    "accepts it, but loaders that match the exact line do not",
                    "accept it, but loaders that match the exact line do not",
                ),
                other => unreadable_frontmatter(other),
            },
            vec![fix],
        );
    }
    if block.close.is_none() {
        checker.report(
            Rule::UnterminatedFrontmatter,
            block.open.line,
            "the frontmatter has no closing '---' line",
            unreadable_frontmatter,
            Vec::new(),
        );
        lint_assumed_closed(checker);
        return;
    }
    yaml_rules(checker);
}

/// The rules on the YAML of a closed block: its syntax (with recovery), then its structure.
fn yaml_rules(checker: &mut Checker<'_>) {
    let Some(yaml) = &checker.document.yaml else {
        return;
    };
    if let Some(error) = &yaml.error {
        if let Some(rewrite) = yaml_errors(checker, error.offset, &error.message) {
            lint_rewritten(checker, &rewrite);
        }
        return;
    }
    structure(checker);
}

/// A new skill is typed top down, so its closing `---` comes last: until then the keys typed so
/// far are linted as if it followed them ([`SkillDocument::assume_closed`]), and field findings
/// appear as the keys are typed instead of all at once at the end. What would sit on the
/// invented closing line, or edit at or past it in the middle of a line, is left out.
fn lint_assumed_closed(checker: &mut Checker<'_>) {
    let text = checker.text;
    let Some(assumed) = checker.document.assume_closed(text) else {
        return;
    };
    let Some(end) = assumed.yaml_range().map(|range| range.end) else {
        return;
    };
    let mut inner = Checker {
        file: checker.file,
        text,
        document: &assumed,
        context: checker.context,
        diagnostics: Vec::new(),
    };
    yaml_rules(&mut inner);
    super::fields::check(&mut inner);
    super::fix::keep_comments(text, &assumed, &mut inner.diagnostics);
    let at_line_start = end == 0 || text[..end].ends_with(['\n', '\r']);
    let inside = |range: TextRange| range.end < end || (range.end == end && at_line_start);
    checker
        .diagnostics
        .extend(inner.diagnostics.into_iter().filter_map(|mut diagnostic| {
            if diagnostic.range.start >= end {
                return None;
            }
            diagnostic
                .fixes
                .retain(|fix| fix.edits.iter().all(|edit| inside(edit.range)));
            Some(diagnostic)
        }));
}

/// Lints the frontmatter as its colon fixes would write it (design.md §4, "One run shows everything"), so one
/// run shows every finding; each finding points at the original characters. The loader still
/// sees no metadata in such a file.
fn lint_rewritten(checker: &mut Checker<'_>, rewrite: &Rewrite) {
    // The yaml and field rules read no Markdown.
    let parsed = SkillDocument::parse_frontmatter(&rewrite.text);
    // An unclosed block is read as closed here too (see `lint_assumed_closed`).
    let document = parsed.assume_closed(&rewrite.text).unwrap_or(parsed);
    // The clients are asked about the repaired text too: whether one skips the file for a
    // field is this finding's doing only if the colon is not already why it skips it.
    let mut inner = Checker {
        file: &rewrite.text,
        text: &rewrite.text,
        document: &document,
        context: checker.context,
        diagnostics: Vec::new(),
    };
    yaml_rules(&mut inner);
    super::fields::check(&mut inner);
    super::fix::keep_comments(&rewrite.text, &document, &mut inner.diagnostics);
    for diagnostic in inner.diagnostics {
        checker.diagnostics.push(rewrite.diagnostic(diagnostic));
    }
}

/// The rules on a frontmatter that parsed: its shape, duplicate keys and flow collections.
fn structure(checker: &mut Checker<'_>) {
    let Some(block) = checker.document.block() else {
        return;
    };
    let Some(yaml) = &checker.document.yaml else {
        return;
    };
    match &yaml.root {
        None => checker.report(
            Rule::NotAMapping,
            block.open.line,
            "the frontmatter is empty; it must be a mapping with at least name and description",
            broken_yaml,
            Vec::new(),
        ),
        Some(root) if !matches!(root.kind, NodeKind::Mapping(_)) => checker.report(
            Rule::NotAMapping,
            root.range,
            format!(
                "the frontmatter is {}, not a mapping of fields such as name and description",
                root.describe()
            ),
            broken_yaml,
            Vec::new(),
        ),
        Some(root) => {
            duplicate_keys(checker, root, "");
            flow_style(checker, root);
            anchors_and_tags(checker, &yaml.decorations);
        }
    }
}

fn anchors_and_tags(checker: &mut Checker<'_>, decorations: &[Decoration]) {
    for decoration in decorations {
        let written = &checker.text[decoration.range.as_range()];
        let what = match decoration.kind {
            DecorationKind::Anchor => "an anchor",
            DecorationKind::Alias => "an alias (a reference to an anchor)",
            DecorationKind::Tag => "a tag",
        };
        checker.report(
            Rule::AnchorOrTag,
            decoration.range,
            format!("'{written}' is {what}, which strict YAML parsers such as strictyaml refuse"),
            |target| match target {
                Client::AgentSkills => Effect::Reject,
                _ => Effect::Load,
            },
            Vec::new(),
        );
    }
}

fn trimmed_range(text: &str, range: TextRange) -> TextRange {
    let slice = &text[range.as_range()];
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.start + slice.trim_end().len();
    if start < end {
        TextRange::new(start, end)
    } else {
        TextRange::empty(range.start)
    }
}

fn missing_frontmatter(checker: &mut Checker<'_>) {
    let text = checker.text;
    let document = checker.document;
    let first_line = lines_with_ranges(&text[document.split.body.as_range()])
        .next()
        .map_or(TextRange::empty(document.split.body.start), |(range, _)| {
            range.shifted(document.split.body.start)
        });
    let newline = document.newline();
    let name = checker.context.folder_name().map(normalise_name);
    let description =
        crate::workspace::loader::description_from_body(&text[document.split.body.as_range()]);
    let mut skeleton = format!("---{newline}");
    if let Some(name) = name.as_deref().filter(|name| !name.is_empty()) {
        skeleton.push_str(&format!("name: {name}{newline}"));
    }
    skeleton.push_str(&format!(
        "description: {}{newline}---{newline}",
        quoted(&description)
    ));
    if !text[document.split.body.as_range()].starts_with(['\n', '\r']) {
        skeleton.push_str(newline);
    }
    // A skeleton for the author to complete: what clients read is what they write.
    let fix = Fix::new(
        "Insert a frontmatter skeleton",
        false,
        vec![Edit::insert(document.split.body.start, skeleton)],
    )
    .changing_reading();
    // A SKILL.md with no frontmatter in no folder clients take skills from (no `skills/` above
    // it, no client folder, no plugin) is as likely a template or a fragment a build merges into
    // a skill as a skill: said, but no error until it is put where a client looks.
    let loose = checker.context.home == crate::targets::Home::Portable
        && !checker
            .context
            .path
            .ancestors()
            .skip(1)
            .any(|folder| folder.file_name().is_some_and(|name| name == "skills"));
    let reported_at = checker.diagnostics.len();
    let message = if loose {
        "the file has no frontmatter block ('---' on line 1, name and description, '---'); it sits in no skills folder, so if it is a template or a fragment rather than a skill, exclude it"
    } else {
        "the file has no frontmatter block ('---' on line 1, name and description, '---')"
    };
    checker.report(
        Rule::MissingFrontmatter,
        first_line,
        message,
        unreadable_frontmatter,
        vec![fix],
    );
    if loose {
        checker.set_severity_since(reported_at, crate::diagnostic::Severity::Warning);
    }
}

/// Moves the frontmatter block above the text that precedes it.
fn move_block_first(text: &str, document: &SkillDocument, preamble: TextRange) -> Option<Fix> {
    let block = document.block()?;
    block.close?;
    let block_end = document.split.body.start;
    let block_text = &text[block.open.line.start..block_end];
    let preamble_text = &text[preamble.as_range()];
    let mut replacement = block_text.to_owned();
    if !block_text.ends_with('\n') {
        replacement.push_str(document.newline());
    }
    if !preamble_text.trim().is_empty() {
        replacement.push_str(preamble_text);
    }
    let edit = Edit::replace(TextRange::new(preamble.start, block_end), replacement);
    Some(Fix::new("Move the frontmatter to line 1", true, vec![edit]))
}

/// A `key: value` line whose plain value holds `: ` — the most common breakage (PITFALLS #1).
struct ColonValue {
    /// The value as written, continuation lines folded in as YAML would.
    intended: String,
    /// The text of each of the value's lines, which `intended` joins with spaces.
    lines: Vec<TextRange>,
    /// The value's bytes, continuation lines included.
    range: TextRange,
    /// The offending `:`.
    colon: usize,
    key: String,
    indent: usize,
}

fn colon_values(text: &str, yaml: TextRange) -> Vec<ColonValue> {
    let source = &text[yaml.as_range()];
    let lines: Vec<(TextRange, &str)> = lines_with_ranges(source)
        .map(|(range, line)| (range.shifted(yaml.start), line))
        .collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let (line_range, line) = lines[index];
        index += 1;
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        let key_len = rest
            .find(|ch: char| !(ch.is_alphanumeric() || matches!(ch, '_' | '-' | '.')))
            .unwrap_or(rest.len());
        if key_len == 0 || !rest[key_len..].starts_with(": ") {
            continue;
        }
        let after_key = &rest[key_len + 1..];
        let value = after_key.trim();
        if value.is_empty()
            || value.starts_with([
                '"', '\'', '|', '>', '[', '{', '&', '*', '!', '#', '%', '@', '`',
            ])
        {
            continue;
        }
        let value_start = line_range.start
            + indent
            + key_len
            + 1
            + (after_key.len() - after_key.trim_start().len());
        let mut pieces = vec![value.to_owned()];
        let mut piece_ranges = vec![TextRange::new(value_start, value_start + value.len())];
        let mut end = value_start + value.len();
        // Continuation lines of a multi-line plain scalar are indented deeper than the key.
        while index < lines.len() {
            let (next_range, next) = lines[index];
            let next_indent = next.len() - next.trim_start_matches([' ', '\t']).len();
            let content = next.trim();
            if content.is_empty() || next_indent <= indent || content.starts_with('#') {
                break;
            }
            pieces.push(content.to_owned());
            let content_start = next_range.start + (next.len() - next.trim_start().len());
            piece_ranges.push(TextRange::new(content_start, content_start + content.len()));
            end = content_start + content.len();
            index += 1;
        }
        let range = TextRange::new(value_start, end);
        let written = &text[range.as_range()];
        let colon = written
            .find(": ")
            .or_else(|| written.ends_with(':').then(|| written.len() - 1))
            .or_else(|| written.find(":\n"))
            .or_else(|| written.find(":\r\n"));
        if let Some(colon) = colon {
            found.push(ColonValue {
                intended: pieces.join(" "),
                lines: piece_ranges,
                range,
                colon: value_start + colon,
                key: rest[..key_len].to_owned(),
                indent,
            });
        }
    }
    found
}

/// Reports a YAML error; when unquoted colons explain all of it, returns the frontmatter as
/// their quote fixes write it.
fn yaml_errors(checker: &mut Checker<'_>, offset: usize, message: &str) -> Option<Rewrite> {
    let text = checker.text;
    let yaml = checker.document.yaml_range()?;
    let colons = colon_values(text, yaml);
    let explained = colons.iter().any(|colon| {
        let line_start = text[..colon.range.start].rfind('\n').map_or(0, |at| at + 1);
        (line_start..=colon.range.end).contains(&offset)
    });
    if !colons.is_empty() {
        let quote_edits: Vec<Edit> = colons
            .iter()
            .map(|colon| Edit::replace(colon.range, quoted(&colon.intended)))
            .collect();
        let block_edits: Vec<Edit> = colons
            .iter()
            .map(|colon| {
                let pad = " ".repeat(colon.indent + 2);
                Edit::replace(
                    colon.range,
                    format!(">-{}{pad}{}", checker.document.newline(), colon.intended),
                )
            })
            .collect();
        let round_trips = |edits: &[Edit]| {
            verify(text, edits, |_, document| {
                let Some(root) = document.mapping() else {
                    return false;
                };
                colons.iter().all(|colon| {
                    find_key(root, &colon.key, colon.indent).is_some_and(|value| {
                        value.is_string() && value.as_str() == Some(colon.intended.as_str())
                    })
                })
            })
        };
        let quote_ok = round_trips(&quote_edits);
        let block_ok = round_trips(&block_edits);
        for (index, colon) in colons.iter().enumerate() {
            let mut fixes = Vec::new();
            if quote_ok {
                fixes.push(Fix::new(
                    format!("Quote the '{}' value", colon.key),
                    true,
                    vec![quote_edits[index].clone()],
                ));
            }
            if block_ok {
                fixes.push(Fix::new(
                    format!("Turn the '{}' value into a '>-' block", colon.key),
                    false,
                    vec![block_edits[index].clone()],
                ));
            }
            checker.report(
                Rule::UnquotedColon,
                TextRange::new(colon.colon, colon.colon + 1),
                format!(
                    "the unquoted '{}' value contains ': ', which YAML reads as a nested mapping",
                    colon.key
                ),
                colon_effect,
                fixes,
            );
        }
        let quotes: Vec<Quote> = colons
            .iter()
            .map(|colon| Quote {
                lines: colon.lines.clone(),
            })
            .collect();
        let rewrite = Rewrite::quoting(text, &quotes);
        // The rewrite must be the quote fixes applied; anything else would lint another text.
        let faithful = crate::diagnostic::apply_edits(text, &quote_edits)
            .ok()
            .as_deref()
            == Some(rewrite.text.as_str());
        // When the colons explain the first error but quoting them does not make the YAML
        // parse, the quoted text is linted all the same: its next error (a half-typed key) is
        // then reported and read around like any other.
        if faithful && (quote_ok || explained) {
            return Some(rewrite);
        }
    }
    if explained {
        return None;
    }
    // A tab in the indentation has its own message, which says more than any recovery.
    match crate::document::tolerant::read(text, yaml).filter(|_| indent_tab(text, yaml).is_none()) {
        Some(tolerant) => lint_tolerant(checker, &tolerant),
        None => yaml_syntax(checker, yaml, offset, message),
    }
    None
}

/// The first tab used for indentation in `text[yaml]`.
fn indent_tab(text: &str, yaml: TextRange) -> Option<usize> {
    let source = &text[yaml.as_range()];
    lines_with_ranges(source).find_map(|(range, line)| {
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        indent.find('\t').map(|at| yaml.start + range.start + at)
    })
}

/// Reports each line that breaks the YAML where it is (the line being typed, not where the
/// scanner gave up), in plain words, then lints the rest of the frontmatter as read around
/// them, so a half-typed key does not hide every other finding (design.md §4, "One run shows everything").
fn lint_tolerant(checker: &mut Checker<'_>, tolerant: &Tolerant) {
    let text = checker.text;
    for masked in &tolerant.masked {
        let (range, message) = match masked {
            Masked::NotAKey { range } => {
                let shown = trimmed_range(text, *range);
                let word: String = text[shown.as_range()].chars().take(40).collect();
                (
                    shown,
                    format!(
                        "'{word}' has no ':' after it, so the frontmatter is not valid YAML; a field is written as 'key: value'"
                    ),
                )
            }
            Masked::Value {
                key,
                range,
                message,
                ..
            } => (
                trimmed_range(text, *range),
                format!(
                    "the value of '{key}' is not valid YAML ({message}); finish it or put it in quotes"
                ),
            ),
        };
        checker.report(Rule::YamlSyntax, range, message, broken_yaml, Vec::new());
    }
    // The masked text has the original's offsets, so only the YAML tree differs, and the
    // tolerant reading has parsed it already.
    let mut document = checker.document.clone();
    document.yaml = Some(tolerant.yaml.clone());
    let mut inner = Checker {
        file: checker.file,
        text: &tolerant.text,
        document: &document,
        context: checker.context,
        diagnostics: Vec::new(),
    };
    structure(&mut inner);
    super::fields::check(&mut inner);
    // The masked text has the original's offsets; what touches a masked line is about text
    // that is not there, and its fixes would edit blanks.
    let about_masked = |range: TextRange| {
        tolerant.masked.iter().any(|masked| {
            let region = masked.region();
            region.start <= range.start && range.start < region.end.max(region.start + 1)
        })
    };
    let edits_masked = |range: TextRange| {
        tolerant
            .masked
            .iter()
            .any(|masked| range.start < masked.range().end && masked.range().start < range.end)
    };
    checker
        .diagnostics
        .extend(inner.diagnostics.into_iter().filter(|diagnostic| {
            !about_masked(diagnostic.range)
                && diagnostic
                    .fixes
                    .iter()
                    .flat_map(|fix| &fix.edits)
                    .all(|edit| !edits_masked(edit.range))
        }));
}

/// Reports a YAML error at `offset`, or at the first tab used for indentation.
fn yaml_syntax(checker: &mut Checker<'_>, yaml: TextRange, offset: usize, message: &str) {
    let text = checker.text;
    let (range, message) = match indent_tab(text, yaml) {
        Some(at) => (
            TextRange::new(at, at + 1),
            "the frontmatter is not valid YAML: a tab is used for indentation (YAML allows only spaces)"
                .to_owned(),
        ),
        None => {
            let at = crate::text::floor_char_boundary(text, offset.min(yaml.end));
            let width = text[at..].chars().next().filter(|ch| *ch != '\n').map_or(0, char::len_utf8);
            (
                TextRange::new(at, at + width),
                format!("the frontmatter is not valid YAML: {message}"),
            )
        }
    };
    checker.report(Rule::YamlSyntax, range, message, broken_yaml, Vec::new());
}

/// Finds a key's value at the given indentation: top level, or one level down (metadata).
fn find_key<'n>(root: &'n Node, key: &str, indent: usize) -> Option<&'n Node> {
    if indent == 0 {
        return root.get(key).map(|entry| &entry.value);
    }
    root.as_mapping()?
        .iter()
        .find_map(|entry| entry.value.get(key).map(|inner| &inner.value))
}

fn duplicate_keys(checker: &mut Checker<'_>, mapping: &Node, prefix: &str) {
    let Some(entries) = mapping.as_mapping() else {
        return;
    };
    // Where each key occurs last: an entry before that is a repeat, found in one pass (a
    // frontmatter of 80,000 keys took 48 s comparing each key with every later one).
    let mut last: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        if let Some(key) = entry.key.as_str() {
            last.insert(key, index);
        }
    }
    for (index, entry) in entries.iter().enumerate() {
        let Some(key) = entry.key.as_str() else {
            continue;
        };
        if last.get(key).is_some_and(|at| *at > index) {
            let text = checker.text;
            let line_start = text[..entry.key.range.start]
                .rfind('\n')
                .map_or(0, |at| at + 1);
            let line_end = line_end_after(text, entry.value.range.end.max(entry.key.range.end));
            let fix = Fix::new(
                format!("Remove the earlier '{prefix}{key}'"),
                false,
                vec![Edit::delete(TextRange::new(line_start, line_end))],
            );
            checker.report(
                Rule::DuplicateKey,
                entry.key.range,
                format!("the key '{prefix}{key}' appears twice; some loaders keep this one, some the later one"),
                |target| match target {
                    Client::AgentSkills
                    | Client::ClaudeUpload
                    | Client::Codex
                    | Client::Copilot => target.refusal(),
                    _ => Effect::Misread,
                },
                vec![fix],
            );
        }
        if prefix.is_empty() && key == "metadata" {
            duplicate_keys(checker, &entry.value, "metadata.");
        }
    }
}

fn flow_style(checker: &mut Checker<'_>, root: &Node) {
    let Some(entries) = root.as_mapping() else {
        return;
    };
    let mut stack: Vec<(&Node, Option<(&Node, usize)>)> = Vec::new();
    for entry in entries {
        stack.push((&entry.value, Some((&entry.key, 0))));
    }
    while let Some((node, key)) = stack.pop() {
        if node.flow {
            let fixes = key
                .and_then(|(key, indent)| block_rewrite(checker.text, key, node, indent))
                .into_iter()
                .collect();
            checker.report(
                Rule::FlowStyle,
                node.range,
                format!(
                    "'{}' is written in flow style ('{}'), which strict YAML parsers such as strictyaml refuse",
                    key.and_then(|(key, _)| key.as_str()).unwrap_or("value"),
                    if matches!(node.kind, NodeKind::Sequence(_)) { "[a, b]" } else { "{k: v}" }
                ),
                |target| match target {
                    Client::AgentSkills => Effect::Reject,
                    _ => Effect::Load,
                },
                fixes,
            );
            continue;
        }
        if let NodeKind::Mapping(inner) = &node.kind {
            for entry in inner {
                let indent = key.map_or(0, |(_, indent)| indent + 2);
                stack.push((&entry.value, Some((&entry.key, indent))));
            }
        } else if let NodeKind::Sequence(items) = &node.kind {
            for item in items {
                stack.push((item, None));
            }
        }
    }
}

/// Rewrites a flow collection of scalars as a block collection under its key.
fn block_rewrite(text: &str, key: &Node, node: &Node, indent: usize) -> Option<Fix> {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let pad = " ".repeat(indent + 2);
    let scalar_text = |item: &Node| -> Option<String> {
        match item.kind {
            NodeKind::Scalar { ref value, style } => Some(match style {
                Style::Plain => text[item.range.as_range()].to_owned(),
                _ => quoted(value),
            }),
            _ => None,
        }
    };
    let mut out = String::from(":");
    match &node.kind {
        NodeKind::Sequence(items) if !items.is_empty() => {
            for item in items {
                out.push_str(&format!("{newline}{pad}- {}", scalar_text(item)?));
            }
        }
        NodeKind::Mapping(entries) if !entries.is_empty() => {
            for entry in entries {
                out.push_str(&format!(
                    "{newline}{pad}{}: {}",
                    scalar_text(&entry.key)?,
                    scalar_text(&entry.value)?
                ));
            }
        }
        _ => return None,
    }
    let edit = Edit::replace(TextRange::new(key.range.end, node.range.end), out);
    let expected = node.clone();
    let key_name = key.as_str()?.to_owned();
    let ok = verify(text, std::slice::from_ref(&edit), |_, document| {
        let Some(root) = document.mapping() else {
            return false;
        };
        find_key(root, &key_name, indent).is_some_and(|value| same_data(value, &expected))
    });
    ok.then(|| Fix::new("Rewrite in block style", true, vec![edit]))
}

fn same_data(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
        (NodeKind::Scalar { value: x, .. }, NodeKind::Scalar { value: y, .. }) => {
            x == y && a.scalar_type() == b.scalar_type()
        }
        (NodeKind::Sequence(x), NodeKind::Sequence(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_data(p, q))
        }
        (NodeKind::Mapping(x), NodeKind::Mapping(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| same_data(&p.key, &q.key) && same_data(&p.value, &q.value))
        }
        _ => false,
    }
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::InvalidUtf8 => RuleDoc::new(
            "The file is not valid UTF-8.",
            "Every client reads SKILL.md as UTF-8 text; a file in another encoding fails to load or loads as garbage.",
            "A SKILL.md saved as Latin-1 with `é` stored as the byte 0xE9.",
            "Re-save the file as UTF-8.",
        ),
        Rule::Bom => RuleDoc::new(
            "A UTF-8 byte-order mark comes before the opening `---`.",
            "Loaders that test for `---` at the very start (skills-ref, Codex, Gemini CLI, Claude Code before v2.1.239) see no frontmatter and skip the skill.",
            "Windows Notepad's \"UTF-8 with BOM\" writes the bytes EF BB BF before `---`.",
            "Remove the byte-order mark (safe).",
        ),
        Rule::MissingFrontmatter => RuleDoc::new(
            "The file has no frontmatter block.",
            "Without `name` and `description` most clients skip the skill; Claude Code falls back to the folder name and the first line of the body.",
            "A SKILL.md that starts with `# My skill`.",
            "Insert a skeleton with `name` from the folder and a `description` to complete.",
        ),
        Rule::FrontmatterNotFirst => RuleDoc::new(
            "Text (a blank line, a comment, a heading) comes before the frontmatter.",
            "Clients only look for `---` on line 1; anything above it hides the whole block.",
            "An SPDX comment `<!-- SPDX-License-Identifier: MIT -->` above `---`.",
            "Move the frontmatter block to line 1 and the preceding text below it (safe).",
        ),
        Rule::MalformedDelimiter => RuleDoc::new(
            "A delimiter line is dashes but not exactly `---`.",
            "Parsers match the exact line `---`; `----`, `--- ` or `--- x` leave the frontmatter unopened or unclosed. skills-ref only needs the file to start with `---` and splits at the first `---`, so it reads a closing `----` or `--- x` and an opening `---` with trailing spaces (a warning when it is the only target).",
            "`-----` as the first line.",
            "Replace the line with `---` (safe when the line holds only dashes and blanks).",
        ),
        Rule::UnterminatedFrontmatter => RuleDoc::new(
            "The frontmatter has no closing `---` line. The lines after the opening `---`, up to the first blank line, heading or line of dashes, are still linted as if the closing line followed them, so a skill typed from the top gets its field findings before it is finished.",
            "Without the closing line, loaders read the whole file as frontmatter (and fail) or ignore it.",
            "`---`, `name: pdf`, `description: …` and then the body with no `---` between.",
            "Add a `---` line after the last field.",
        ),
        Rule::YamlSyntax => RuleDoc::new(
            "The frontmatter is not valid YAML. A top-level line that cannot be a key (`descr`, half typed) or a value YAML cannot read (an unclosed quote or bracket) is reported on its own line, and the rest of the frontmatter is still linted around it, so one run shows every finding.",
            "Codex, skills-ref, Copilot and most loaders skip a skill whose YAML fails to parse; Claude Code keeps only the body.",
            "`description: [unclosed` or a tab used for indentation.",
            "Correct the YAML at the reported position.",
        ),
        Rule::UnquotedColon => RuleDoc::new(
            "A plain (unquoted) value contains `: `. The rest of the frontmatter is still linted, as if the value were quoted, so one run shows every finding.",
            "YAML reads `key: a: b` as a nested mapping and fails; this is the most common reason skills silently disappear.",
            "`description: Use when: the user asks for a PDF`",
            "Wrap the value in quotes, escaping as needed (safe, verified to parse back to the same text), or turn it into a `>-` block.",
        ),
        Rule::NotAMapping => RuleDoc::new(
            "The frontmatter is a list, a scalar, or empty.",
            "Clients look up `name` and `description` in a mapping; anything else gives them nothing.",
            "`- name: pdf` (a list item) instead of `name: pdf`.",
            "Write the fields as `key: value` lines.",
        ),
        Rule::DuplicateKey => RuleDoc::new(
            "A key appears twice.",
            "YAML forbids it; some loaders keep the first value, some the last, strict ones reject the file.",
            "Two `description:` lines.",
            "Remove the earlier one (offered, not applied automatically).",
        ),
        Rule::FlowStyle => RuleDoc::new(
            "A `[a, b]` or `{k: v}` flow collection.",
            "skills-ref parses with strictyaml, which rejects flow style.",
            "`allowed-tools: [Read, Grep]`",
            "Rewrite the collection in block style (safe).",
        ),
        Rule::AnchorOrTag => RuleDoc::new(
            "A YAML anchor (`&name`), alias (`*name`) or tag (`!!str`, `!custom`).",
            "skills-ref parses with strictyaml, which rejects all three; other clients' YAML parsers accept them.",
            "`description: &d Fills PDF forms.` and later `summary: *d`",
            "Write the value out in full, and quote a value instead of tagging it `!!str`.",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::Rule;
    use crate::rules::test_support::{check, findings, fixed, lint, rules_of};
    use crate::targets::Client;

    const AS: &[Client] = &[Client::AgentSkills];
    const CLEAN: &str = "---\nname: pdf\ndescription: Fill PDF forms. Use when the user has a PDF.\n---\n# PDF\n\nSteps.\n";

    #[test]
    fn clean_file_has_no_findings() {
        assert_eq!(lint(CLEAN), vec![]);
    }

    #[test]
    fn bom_fires_points_and_fixes() {
        let text = format!("\u{feff}{CLEAN}");
        check(
            AS,
            &text,
            expect![[r#"
                bom 1:1-1:2 error: a UTF-8 byte-order mark precedes the opening '---' — skills-ref rejects it
            "#]],
        );
        assert_eq!(fixed(&text, Rule::Bom, AS), CLEAN);
    }

    #[test]
    fn missing_frontmatter_inserts_a_skeleton() {
        let text = "# PDF tools\n\nFill forms.\n";
        check(
            AS,
            text,
            expect![[r#"
                missing-frontmatter 1:1-1:12 error: the file has no frontmatter block ('---' on line 1, name and description, '---') — skills-ref rejects it
            "#]],
        );
        let new_text = fixed(text, Rule::MissingFrontmatter, AS);
        assert_eq!(
            new_text,
            "---\nname: pdf\ndescription: \"PDF tools\"\n---\n\n# PDF tools\n\nFill forms.\n"
        );
        assert!(!rules_of(&new_text, AS).contains(&Rule::MissingFrontmatter));
        check(
            AS,
            "",
            expect![[r#"
                missing-frontmatter 1:1-1:1 error: the file has no frontmatter block ('---' on line 1, name and description, '---') — skills-ref rejects it
            "#]],
        );
    }

    #[test]
    fn missing_frontmatter_is_a_warning_for_claude_code_alone() {
        check(
            &[Client::ClaudeCode],
            "# x\n",
            expect![[r#"
                missing-frontmatter 1:1-1:4 warning: the file has no frontmatter block ('---' on line 1, name and description, '---') — Claude Code loads it without metadata (folder name, first body line)
            "#]],
        );
    }

    #[test]
    fn frontmatter_not_first_moves_the_block() {
        let text = "<!-- SPDX -->\n---\nname: pdf\ndescription: Use when asked.\n---\nBody\n";
        check(
            AS,
            text,
            expect![[r#"
                frontmatter-not-first 1:1-1:14 error: the frontmatter must start on line 1, but text comes before its opening '---' — skills-ref rejects it
            "#]],
        );
        let new_text = fixed(text, Rule::FrontmatterNotFirst, AS);
        assert_eq!(
            new_text,
            "---\nname: pdf\ndescription: Use when asked.\n---\n<!-- SPDX -->\nBody\n"
        );
        assert_eq!(rules_of(&new_text, AS), vec![]);
    }

    #[test]
    fn malformed_delimiters() {
        let text = "-----\nname: pdf\ndescription: Use when asked.\n---   \nBody\n";
        check(
            AS,
            text,
            expect![[r#"
                malformed-delimiter 1:1-1:6 error: the opening delimiter '-----' must be exactly '---' — skills-ref rejects it
                malformed-delimiter 4:1-4:7 warning: the closing delimiter '---   ' must be exactly '---' — skills-ref accepts it, but loaders that match the exact line do not
            "#]],
        );
        let once = fixed(text, Rule::MalformedDelimiter, AS);
        let twice = fixed(&once, Rule::MalformedDelimiter, AS);
        assert_eq!(
            twice,
            "---\nname: pdf\ndescription: Use when asked.\n---\nBody\n"
        );
    }

    #[test]
    fn unterminated_frontmatter_points_at_the_opening_line() {
        // The keys typed so far are linted as if the closing line followed them.
        check(
            AS,
            "---\nname: pdf\n",
            expect![[r#"
                unterminated-frontmatter 1:1-1:4 error: the frontmatter has no closing '---' line — skills-ref rejects it
                missing-description 1:1-1:4 error: the frontmatter has no description field — skills-ref rejects it
            "#]],
        );
    }

    #[test]
    fn a_skill_typed_top_down_gets_field_findings_before_its_closing_line() {
        // The half-typed key at the end of the file, an unquoted colon and a bad name: each on
        // its own line, in words, while the closing '---' is not there yet.
        check(
            AS,
            "---\nname: PDF\ndescription: Fills forms: fast. Use when a PDF is involved.\nlicen",
            expect![[r#"
                unterminated-frontmatter 1:1-1:4 error: the frontmatter has no closing '---' line — skills-ref rejects it
                name-format 2:7-2:10 error: name 'PDF' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: 'pdf') — skills-ref rejects it
                name-mismatch 2:7-2:10 error: name 'PDF' does not match its folder 'pdf' — skills-ref rejects it
                unquoted-colon 3:25-3:26 error: the unquoted 'description' value contains ': ', which YAML reads as a nested mapping — skills-ref rejects it
                yaml-syntax 4:1-4:6 error: 'licen' has no ':' after it, so the frontmatter is not valid YAML; a field is written as 'key: value' — skills-ref rejects it
            "#]],
        );
        // The assumed block ends where a body would start: a blank line, a heading, dashes.
        for body in ["\n\nSome text: here\n", "\n# Title\nnot: a key\n", "\n--"] {
            let text = format!("---\nname: pdf\ndescription: Fills forms. Use when asked.{body}");
            let rules: Vec<Rule> = rules_of(&text, AS)
                .into_iter()
                .filter(|rule| *rule != Rule::BodyEmpty)
                .collect();
            assert_eq!(rules, [Rule::UnterminatedFrontmatter], "{text:?}");
        }
        // A fix that would insert in the middle of the line being typed is not offered.
        let text = "---\nname: pdf\ndescription: Fills forms. Use when asked.\nmodel: sonet";
        for diagnostic in crate::rules::test_support::lint_as(text, "skills/pdf/SKILL.md", AS) {
            for edit in diagnostic.fixes.iter().flat_map(|fix| &fix.edits) {
                assert!(edit.range.end < text.len(), "{diagnostic:?}");
            }
        }
    }

    #[test]
    fn a_half_typed_key_after_an_unquoted_colon_is_reported_on_its_line() {
        check(
            AS,
            "---\nname: pdf\ndescription: Fills forms: fast. Use when asked.\nlicen\n---\nBody\n",
            expect![[r#"
                unquoted-colon 3:25-3:26 error: the unquoted 'description' value contains ': ', which YAML reads as a nested mapping — skills-ref rejects it
                yaml-syntax 4:1-4:6 error: 'licen' has no ':' after it, so the frontmatter is not valid YAML; a field is written as 'key: value' — skills-ref rejects it
            "#]],
        );
    }

    #[test]
    fn a_half_typed_key_is_reported_on_its_line_and_the_rest_is_linted() {
        check(
            AS,
            "---\nname: Pdf\ndescr\nfoo: bar\n---\nBody\n",
            expect![[r#"
                missing-description 1:1-1:4 error: the frontmatter has no description field — skills-ref rejects it
                name-format 2:7-2:10 error: name 'Pdf' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: 'pdf') — skills-ref rejects it
                name-mismatch 2:7-2:10 error: name 'Pdf' does not match its folder 'pdf' — skills-ref rejects it
                yaml-syntax 3:1-3:6 error: 'descr' has no ':' after it, so the frontmatter is not valid YAML; a field is written as 'key: value' — skills-ref rejects it
                unknown-field 4:1-4:4 error: unknown field 'foo'; put custom data under metadata — skills-ref rejects it
            "#]],
        );
    }

    #[test]
    fn yaml_syntax_errors_and_tabs() {
        check(
            AS,
            "---\nname: pdf\ndescription: [unclosed\n---\n",
            expect![[r#"
                yaml-syntax 3:14-3:23 error: the value of 'description' is not valid YAML (while parsing a flow sequence, expected ',' or ']'); finish it or put it in quotes — skills-ref rejects it
                body-empty 4:1-4:4 warning: the skill has no instructions after its frontmatter — an agent that loads it learns nothing beyond the description
            "#]],
        );
        // A hopeless frontmatter still gets the scanner's words where it stopped.
        check(
            AS,
            "---\n[a, b\n---\n",
            expect![[r#"
                yaml-syntax 3:1-3:2 error: the frontmatter is not valid YAML: while parsing a flow sequence, expected ',' or ']' — skills-ref rejects it
                body-empty 3:1-3:4 warning: the skill has no instructions after its frontmatter — an agent that loads it learns nothing beyond the description
            "#]],
        );
        check(
            AS,
            "---\nmetadata:\n\tk: v\n---\n",
            expect![[r#"
                yaml-syntax 3:1-3:2 error: the frontmatter is not valid YAML: a tab is used for indentation (YAML allows only spaces) — skills-ref rejects it
                body-empty 4:1-4:4 warning: the skill has no instructions after its frontmatter — an agent that loads it learns nothing beyond the description
            "#]],
        );
    }

    #[test]
    fn unquoted_colon_is_recognised_and_quoted_round_trip() {
        for value in [
            "Use when: the user asks",
            "Say \"hi\": then go # not a comment",
            "Fügt Daten ein: für 日本語 ユーザー",
            "It's here: and \"there\"",
            "Back\\slash: ok",
        ] {
            let text = format!("---\nname: pdf\ndescription: {value}\n---\nBody\n");
            let found = findings(
                &text,
                Rule::UnquotedColon,
                &[Client::AgentSkills, Client::Codex, Client::ClaudeCode],
            );
            assert_eq!(found.len(), 1, "{value}");
            assert_eq!(found[0].0, ":");
            assert!(
                found[0].1.ends_with(
                    "— skills-ref rejects it; Codex reads it anyway and lists the skill; Claude Code loads it"
                ),
                "{}",
                found[0].1
            );
            assert!(!rules_of(&text, AS).contains(&Rule::YamlSyntax));
            let new_text = fixed(&text, Rule::UnquotedColon, AS);
            let document = crate::document::SkillDocument::parse(&new_text);
            let description = document.field("description").unwrap();
            assert_eq!(description.value.as_str(), Some(value), "{new_text}");
            assert!(description.value.is_string());
        }
    }

    #[test]
    fn unquoted_colon_block_fix_and_continuations() {
        let text = "---\nname: pdf\ndescription: Use when: the user\n  asks for forms\nmetadata:\n  note: a: b\n---\nBody\n";
        let diagnostics = lint(text);
        let colons: Vec<_> = diagnostics
            .iter()
            .filter(|d| d.rule == Rule::UnquotedColon)
            .collect();
        assert_eq!(colons.len(), 2);
        let block_fix = &colons[0].fixes[1];
        let new_text = crate::diagnostic::apply_edits(text, &block_fix.edits).unwrap();
        assert!(
            new_text.contains("description: >-\n  Use when: the user asks for forms\n"),
            "{new_text}"
        );
        let quoted = crate::diagnostic::apply_edits(text, &colons[1].fixes[0].edits).unwrap();
        assert!(quoted.contains("note: \"a: b\""));
    }

    #[test]
    fn after_an_unquoted_colon_the_rest_is_linted() {
        let text = "---\nname: PDF_Tools\ndescription: Use when: the user asks for <forms>\n  and more\nmodel: sonnet\nmetadata:\n  tags: [a, b]\n---\nBody\n";
        let diagnostics = lint(text);
        let found: Vec<(Rule, &str)> = diagnostics
            .iter()
            .map(|d| (d.rule, &text[d.range.as_range()]))
            .collect();
        for expected in [
            (Rule::UnquotedColon, ":"),
            (Rule::NameFormat, "PDF_Tools"),
            (Rule::NameMismatch, "PDF_Tools"),
            (Rule::UnknownField, "model"),
            (Rule::FlowStyle, "[a, b]"),
            (Rule::DescriptionAngleBrackets, "<"),
        ] {
            assert!(found.contains(&expected), "{expected:?} in {found:?}");
        }
        let bracket = diagnostics
            .iter()
            .find(|d| d.rule == Rule::DescriptionAngleBrackets)
            .unwrap();
        assert_eq!(bracket.range.start, text.find("<forms").unwrap());
        assert!(
            found
                .iter()
                .all(|(rule, _)| !matches!(rule, Rule::YamlSyntax | Rule::DescriptionTrigger)),
            "{found:?}"
        );
        // Fixes apply to the original text.
        assert!(fixed(text, Rule::NameMismatch, AS).contains("\nname: pdf\n"));
        assert!(fixed(text, Rule::FlowStyle, AS).contains("  tags:\n    - a\n    - b\n"));
        // The loader still reads no metadata from the broken file.
        assert!(
            crate::document::SkillDocument::parse(text)
                .mapping()
                .is_none()
        );
    }

    #[test]
    fn recovered_findings_on_the_broken_value_cover_the_original_characters() {
        let text = format!(
            "---\nname: pdf: tools\ndescription: Use when: {}\n---\nBody\n",
            "x".repeat(1100)
        );
        let diagnostics = lint(&text);
        let covered = |rule: Rule| {
            diagnostics
                .iter()
                .find(|d| d.rule == rule)
                .map(|d| &text[d.range.as_range()])
        };
        assert_eq!(covered(Rule::NameFormat), Some("pdf: tools"));
        assert_eq!(covered(Rule::NameMismatch), Some("pdf: tools"));
        assert_eq!(
            covered(Rule::DescriptionLength),
            Some("x".repeat(1110 - 1024).as_str())
        );
        // A fix that replaces the whole value carries over as a replacement of what is written.
        let rename = diagnostics
            .iter()
            .find(|d| d.rule == Rule::NameMismatch)
            .unwrap();
        let renamed = crate::diagnostic::apply_edits(&text, &rename.fixes[0].edits).unwrap();
        assert!(renamed.starts_with("---\nname: pdf\ndescription: Use when: x"));
    }

    #[test]
    fn no_recovery_when_quoting_leaves_the_yaml_broken() {
        let text = "---\nname: pdf\ndescription: Use when: asked\nmodel: x\nmetadata:\n\tk: v\n---\nBody\n";
        let rules = rules_of(text, AS);
        assert!(rules.contains(&Rule::UnquotedColon), "{rules:?}");
        assert!(!rules.contains(&Rule::UnknownField), "{rules:?}");
        assert_eq!(findings(text, Rule::YamlSyntax, AS)[0].0, "\t");
        // The next error is reported where it is in the original text.
        let text =
            "---\nname: pdf\ndescription: Use when: asked, \"x\"\nother: [unclosed\n---\nBody\n";
        let found = findings(text, Rule::YamlSyntax, AS);
        assert_eq!(found.len(), 1, "{found:?}");
        let diagnostic = crate::rules::test_support::lint(text)
            .into_iter()
            .find(|d| d.rule == Rule::YamlSyntax)
            .unwrap();
        assert!(
            diagnostic.range.start > text.find("other").unwrap(),
            "{diagnostic:?}"
        );
    }

    #[test]
    fn malformed_delimiters_that_skills_ref_reads() {
        // skills-ref 0.1.1 needs the file to start with `---` and splits at the first `---`.
        let severity = |text: &str| {
            crate::rules::test_support::lint_as(text, "skills/pdf/SKILL.md", AS)
                .into_iter()
                .find(|d| d.rule == Rule::MalformedDelimiter)
                .map(|d| (d.severity, d.message))
                .unwrap()
        };
        for text in [
            "---\nname: pdf\ndescription: Use when asked.\n--- x\nBody\n",
            "---\nname: pdf\ndescription: Use when asked.\n----\nBody\n",
            "---  \nname: pdf\ndescription: Use when asked.\n---\nBody\n",
        ] {
            let (level, message) = severity(text);
            assert_eq!(level, crate::diagnostic::Severity::Warning, "{text:?}");
            assert!(message.contains("skills-ref accepts it"), "{message}");
        }
        for text in [
            "-----\nname: pdf\ndescription: Use when asked.\n---\nBody\n",
            "--- x\nname: pdf\ndescription: Use when asked.\n---\nBody\n",
        ] {
            let (level, message) = severity(text);
            assert_eq!(level, crate::diagnostic::Severity::Error, "{text:?}");
            assert!(message.ends_with("skills-ref rejects it"), "{message}");
        }
    }

    #[test]
    fn not_a_mapping() {
        let found = findings("---\n- a\n- b\n---\nBody\n", Rule::NotAMapping, AS);
        assert_eq!(found[0].0, "- a\n- b");
        assert!(found[0].1.contains("a list"));
        let empty = findings("---\n---\nBody\n", Rule::NotAMapping, AS);
        assert!(empty[0].1.contains("empty"));
    }

    #[test]
    fn duplicate_key_points_at_the_earlier_key() {
        let text = "---\nname: pdf\ndescription: a. Use when b.\nname: pdf\n---\nBody\n";
        let found = findings(text, Rule::DuplicateKey, AS);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "name");
        let new_text = fixed(text, Rule::DuplicateKey, AS);
        assert_eq!(
            new_text,
            "---\ndescription: a. Use when b.\nname: pdf\n---\nBody\n"
        );
    }

    #[test]
    fn flow_style_rewrites_as_block() {
        let text = "---\nname: pdf\ndescription: Use when asked.\nallowed-tools: [Read, \"Bash(git:*)\"]\nmetadata:\n  tags: {a: b}\n---\nBody\n";
        let found = findings(text, Rule::FlowStyle, AS);
        assert_eq!(found.len(), 2);
        assert!(found.iter().any(|f| f.0 == "[Read, \"Bash(git:*)\"]"));
        let new_text = fixed(text, Rule::FlowStyle, AS);
        assert!(
            !new_text.contains('[') || !new_text.contains('{'),
            "{new_text}"
        );
        assert!(findings(text, Rule::FlowStyle, &[Client::ClaudeCode]).is_empty());
        let mut current = text.to_owned();
        while rules_of(&current, AS).contains(&Rule::FlowStyle) {
            current = fixed(&current, Rule::FlowStyle, AS);
        }
        assert!(
            current.contains("allowed-tools:\n  - Read\n  - \"Bash(git:*)\"\n"),
            "{current}"
        );
        assert!(
            current.contains("metadata:\n  tags:\n    a: b\n"),
            "{current}"
        );
    }
}
