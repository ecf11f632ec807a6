//! How OpenCode (1.18.33) reads one SKILL.md and lists its skills to the model, measured against
//! the real client (`tests/clients`): its frontmatter block (closed by the first line break
//! followed by `---`, or by the end of the file), YAML read with YAML 1.1-style types and one
//! rewrite of values holding a colon, the string `name` it requires, the descriptions it lists
//! as written, and its order. It has no cap and no budget.

use crate::document::yaml::{self, Node, NodeKind, Style};
use crate::text::TextRange;

/// The version every fact here was measured against.
pub(crate) const VERSION: &str = "1.18.33";

/// What OpenCode reads from one SKILL.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    Loaded {
        /// The frontmatter name, as written.
        name: String,
        /// As written; `None` when the frontmatter has no `description` key: the skill loads,
        /// but is not listed.
        description: Option<String>,
    },
    /// OpenCode does not load it (`failed to load skill` in its log, or silently).
    Refused(Refusal),
}

impl super::ClientReading for Reading {
    /// OpenCode loads a skill without a description but does not list it.
    fn reads_frontmatter(&self) -> bool {
        matches!(
            self,
            Reading::Loaded {
                description: Some(_),
                ..
            }
        )
    }

    fn name_in(&self, folder: &str) -> String {
        match self {
            Reading::Loaded { name, .. } => name.clone(),
            Reading::Refused(_) => folder.to_owned(),
        }
    }

    fn unnamed(&self) -> Self {
        match self {
            Reading::Loaded { description, .. } => Reading::Loaded {
                name: String::new(),
                description: description.clone(),
            },
            refused @ Reading::Refused(_) => refused.clone(),
        }
    }
}

/// Why OpenCode does not load a SKILL.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No frontmatter, an empty one, or one that is not a mapping.
    NoFrontmatter,
    /// The YAML does not parse (a repeated key included), even after OpenCode's rewrite.
    InvalidYaml,
    /// `name` is missing or not a string.
    NoStringName,
    /// `description` is there but not a string (a number, a date, a boolean, null).
    DescriptionNotAString,
}

impl Refusal {
    /// In words, for findings and `catalog`.
    #[must_use]
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Refusal::NoFrontmatter => "it has no frontmatter mapping",
            Refusal::InvalidYaml => "its frontmatter is not valid YAML (or repeats a key)",
            Refusal::NoStringName => "it has no name that is a string",
            Refusal::DescriptionNotAString => "its description is not a string",
        }
    }
}

impl Default for Reading {
    fn default() -> Self {
        Reading::Refused(Refusal::NoFrontmatter)
    }
}

/// Reads a SKILL.md as OpenCode does.
#[must_use]
pub(crate) fn read(text: &str) -> Reading {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match matter(text).map(|range| parse(text, range)) {
        Some(Parsed::Root(root)) => fields(root.as_ref()),
        Some(Parsed::Empty) | None => Reading::Refused(Refusal::NoFrontmatter),
        Some(Parsed::Broken) => {
            let rewritten = sanitize(text);
            match matter(&rewritten).map(|range| parse(&rewritten, range)) {
                Some(Parsed::Root(root)) => fields(root.as_ref()),
                Some(Parsed::Empty) | None => Reading::Refused(Refusal::NoFrontmatter),
                Some(Parsed::Broken) => Reading::Refused(Refusal::InvalidYaml),
            }
        }
    }
}

/// The frontmatter as OpenCode's Markdown reader finds it: the text starts with `---` (not
/// `----`), the rest of that line is skipped, and the YAML runs to the first line break
/// followed by `---`, or to the end of the file.
fn matter(text: &str) -> Option<TextRange> {
    let rest = text.strip_prefix("---")?;
    if rest.starts_with('-') {
        return None;
    }
    // The rest of the first line names a language; the YAML starts at its line break.
    let line_end = rest.find('\n').map_or(rest.len(), |at| {
        if at > 0 && rest.as_bytes()[at - 1] == b'\r' {
            at - 1
        } else {
            at
        }
    });
    let start = 3 + line_end;
    let end = text[start..]
        .find("\n---")
        .map_or(text.len(), |at| start + at);
    Some(TextRange::new(start, end))
}

enum Parsed {
    Root(Option<Node>),
    /// Nothing but comments and white space: read as no data.
    Empty,
    Broken,
}

fn parse(text: &str, range: TextRange) -> Parsed {
    let source = &text[range.as_range()];
    let meaningful = source.split('\n').any(|line| {
        let trimmed = line.trim_start();
        !trimmed.is_empty() && !trimmed.starts_with('#')
    });
    if !meaningful {
        return Parsed::Empty;
    }
    let mut document = yaml::parse(text, range);
    if document.error.is_some() && source.contains("\n\t") {
        // OpenCode's YAML reader takes tabs that indent a line as white space.
        let detabbed: String = split_lines(source)
            .into_iter()
            .map(|line| {
                let tabs = line.len() - line.trim_start_matches('\t').len();
                format!("{}{}", "  ".repeat(tabs), &line[tabs..])
            })
            .collect::<Vec<_>>()
            .join("\n");
        document = yaml::parse(&detabbed, TextRange::new(0, detabbed.len()));
    }
    if document.error.is_some() || document.root.as_ref().is_some_and(Node::repeats_a_key) {
        return Parsed::Broken;
    }
    Parsed::Root(document.root)
}

/// OpenCode's rewrite of a frontmatter that failed to parse: a top-level `key: value` line
/// (the key letters, digits and `_`) whose unquoted value holds a colon becomes a literal block.
fn sanitize(text: &str) -> String {
    let Some(rest) = text.strip_prefix("---") else {
        return text.to_owned();
    };
    let Some(rest) = rest
        .strip_prefix("\r\n")
        .or_else(|| rest.strip_prefix('\n'))
    else {
        return text.to_owned();
    };
    let start = text.len() - rest.len();
    // The block ends at the first line break (CRLF or LF) followed by `---`.
    let Some(close) = rest.find("\n---") else {
        return text.to_owned();
    };
    let end = if close > 0 && rest.as_bytes()[close - 1] == b'\r' {
        close - 1
    } else {
        close
    };
    let block = &rest[..end];
    let rewritten: Vec<String> = split_lines(block)
        .into_iter()
        .map(|line| {
            let trimmed = line.trim();
            if trimmed.starts_with('#')
                || trimmed.is_empty()
                || line.starts_with(char::is_whitespace)
            {
                return line.to_owned();
            }
            let Some((key, value)) = line.split_once(':') else {
                return line.to_owned();
            };
            let key = key.trim_end();
            let key_ok = key
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let value = value.trim();
            if !key_ok
                || value.is_empty()
                || value == ">"
                || value == "|"
                || value.starts_with(['"', '\''])
                || !value.contains(':')
            {
                return line.to_owned();
            }
            format!("{key}: |-\n  {value}")
        })
        .collect();
    format!(
        "{}{}{}",
        &text[..start],
        rewritten.join("\n"),
        &text[start + end..]
    )
}

/// Lines split at CRLF or LF.
fn split_lines(text: &str) -> Vec<&str> {
    text.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect()
}

fn fields(root: Option<&Node>) -> Reading {
    let Some(root) = root.filter(|root| matches!(root.kind, NodeKind::Mapping(_))) else {
        return Reading::Refused(Refusal::NoFrontmatter);
    };
    let field = |key: &str| root.get(key).map(|entry| &entry.value);
    let Some(name) = field("name").and_then(string) else {
        return Reading::Refused(Refusal::NoStringName);
    };
    let description = match field("description") {
        None => None,
        Some(node) => match string(node) {
            Some(text) => Some(text.to_owned()),
            None => return Reading::Refused(Refusal::DescriptionNotAString),
        },
    };
    Reading::Loaded {
        name: name.to_owned(),
        description,
    }
}

/// A scalar OpenCode's YAML reader (YAML 1.1-style types) makes a string of.
fn string(node: &Node) -> Option<&str> {
    let NodeKind::Scalar { value, style } = &node.kind else {
        return None;
    };
    if *style != Style::Plain || node.tagged || !resolves_to_other_type(value) {
        Some(value)
    } else {
        None
    }
}

/// Whether a plain scalar is null, a boolean, a number or a date to OpenCode's YAML reader.
pub(crate) fn resolves_to_other_type(value: &str) -> bool {
    matches!(
        value,
        "" | "~"
            | "null"
            | "Null"
            | "NULL"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
            | ".nan"
            | ".NaN"
            | ".NAN"
    ) || is_int(value)
        || is_float(value)
        || is_timestamp(value)
}

fn digits_with_underscores(text: &str, radix: u32) -> bool {
    !text.is_empty()
        && text.chars().all(|c| c == '_' || c.is_digit(radix))
        && text.chars().any(|c| c.is_digit(radix))
}

fn is_int(value: &str) -> bool {
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    if let Some(binary) = unsigned.strip_prefix("0b") {
        return digits_with_underscores(binary, 2);
    }
    if let Some(hex) = unsigned.strip_prefix("0x") {
        return digits_with_underscores(hex, 16);
    }
    if unsigned.len() > 1 && unsigned.starts_with('0') {
        return digits_with_underscores(&unsigned[1..], 8);
    }
    if unsigned.contains(':') {
        let mut parts = unsigned.split(':');
        let first = parts.next().unwrap_or_default();
        return first.starts_with(|c: char| ('1'..='9').contains(&c))
            && digits_with_underscores(first, 10)
            && parts.all(sexagesimal_part);
    }
    unsigned == "0"
        || (unsigned.starts_with(|c: char| ('1'..='9').contains(&c))
            && digits_with_underscores(unsigned, 10))
}

fn sexagesimal_part(part: &str) -> bool {
    (1..=2).contains(&part.len())
        && part.chars().all(|c| c.is_ascii_digit())
        && (part.len() == 1 || part.as_bytes()[0] <= b'5')
}

fn is_float(value: &str) -> bool {
    if value.ends_with('_') {
        return false;
    }
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let exponent_ok = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !exponent.is_empty() && exponent.chars().all(|c| c.is_ascii_digit())
    });
    let fraction_ok = |text: &str| text.chars().all(|c| c == '_' || c.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        // `.5` (no sign allowed before it in this form is not checked: rare)
        Some(("", fraction)) => !fraction.is_empty() && fraction_ok(fraction),
        Some((whole, fraction)) if whole.contains(':') => {
            exponent.is_none() && is_int(whole) && fraction_ok(fraction)
        }
        Some((whole, fraction)) => {
            (whole == "0"
                || (whole.starts_with(|c: char| ('1'..='9').contains(&c))
                    && digits_with_underscores(whole, 10)))
                && fraction_ok(fraction)
        }
        // Without a dot, only a number with an exponent is a float.
        None => {
            exponent.is_some()
                && (mantissa == "0"
                    || (mantissa.starts_with(|c: char| ('1'..='9').contains(&c))
                        && digits_with_underscores(mantissa, 10)))
        }
    };
    mantissa_ok && exponent_ok
}

/// `YYYY-MM-DD`, optionally followed by a time.
fn is_timestamp(value: &str) -> bool {
    let bytes = value.as_bytes();
    if bytes.len() < 8 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return false;
    }
    let rest = &value[5..];
    let mut parts = rest.splitn(2, '-');
    let month = parts.next().unwrap_or_default();
    let Some(day_and_time) = parts.next() else {
        return false;
    };
    let number =
        |text: &str| (1..=2).contains(&text.len()) && text.chars().all(|c| c.is_ascii_digit());
    if !number(month) {
        return false;
    }
    let day_end = day_and_time
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(day_and_time.len());
    let (day, time) = day_and_time.split_at(day_end);
    if !number(day) {
        return false;
    }
    if time.is_empty() {
        return month.len() == 2 && day.len() == 2;
    }
    let time = time
        .strip_prefix(['T', 't'])
        .unwrap_or_else(|| time.trim_start_matches([' ', '\t']));
    let mut clock = time.splitn(3, ':');
    let (Some(hour), Some(minute), Some(second)) = (clock.next(), clock.next(), clock.next())
    else {
        return false;
    };
    number(hour)
        && minute.len() == 2
        && minute.chars().all(|c| c.is_ascii_digit())
        && second.len() >= 2
        && second[..2].chars().all(|c| c.is_ascii_digit())
}

/// One loaded skill as OpenCode's listing sees it, in scan order (`.claude/skills`,
/// `.agents/skills`, `.opencode/skills`).
#[derive(Clone, Debug)]
pub(crate) struct Candidate<'a> {
    pub name: &'a str,
    pub description: Option<&'a str>,
}

/// Why a candidate is not listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Omitted {
    /// Another candidate has the same name (its index) and is listed in its place; OpenCode
    /// reads skills concurrently and keeps whichever copy it read last, so which one varies
    /// from run to run. skill-lsp assumes the last in scan order.
    Shadowed(usize),
    /// No `description` key: the skill loads but is not listed.
    NoDescription,
}

/// OpenCode's listing: one skill per name, those with a description, sorted as JavaScript's
/// `localeCompare` sorts their names, each listed whole. Returns the indexes listed, in order,
/// and those left out.
#[must_use]
pub(crate) fn listing(candidates: &[Candidate<'_>]) -> (Vec<usize>, Vec<(usize, Omitted)>) {
    let mut winner: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, candidate) in candidates.iter().enumerate() {
        winner.insert(candidate.name, index);
    }
    let mut omitted = Vec::new();
    let mut listed = Vec::new();
    for (index, candidate) in candidates.iter().enumerate() {
        let kept = winner[candidate.name];
        if kept != index {
            omitted.push((index, Omitted::Shadowed(kept)));
        } else if candidate.description.is_none() {
            omitted.push((index, Omitted::NoDescription));
        } else {
            listed.push(index);
        }
    }
    let collator = super::collate::Collator::new();
    listed.sort_by(|&a, &b| collator.compare(candidates[a].name, candidates[b].name));
    (listed, omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> (String, Option<String>) {
        match read(text) {
            Reading::Loaded { name, description } => (name, description),
            Reading::Refused(refusal) => panic!("{text:?}: {refusal:?}"),
        }
    }

    #[test]
    fn frontmatter_block() {
        assert_eq!(
            loaded("\u{feff}---\nname: a\ndescription: d\n---\nb\n"),
            ("a".into(), Some("d".into()))
        );
        assert_eq!(
            loaded("---\nname: a\ndescription: never closed\n")
                .1
                .as_deref(),
            Some("never closed")
        );
        assert_eq!(loaded("---\r\nname: a\r\n---\r\n").1, None);
        assert_eq!(read("# none\n"), Reading::Refused(Refusal::NoFrontmatter));
        assert_eq!(
            read("----\nname: a\n---\n"),
            Reading::Refused(Refusal::NoFrontmatter)
        );
    }

    #[test]
    fn values_with_colons_are_rewritten() {
        assert_eq!(
            loaded("---\nname: a\ndescription: Use when: asked # kept\n---\n")
                .1
                .as_deref(),
            Some("Use when: asked # kept")
        );
        assert_eq!(
            read("---\nname: a\ndisable-model-invocation: a: b\n---\n"),
            Reading::Refused(Refusal::InvalidYaml)
        );
        assert_eq!(
            read("---\nname: a\ndescription: x\ndescription: y\n---\n"),
            Reading::Refused(Refusal::InvalidYaml)
        );
    }

    #[test]
    fn types() {
        for value in [
            "42.50",
            "true",
            "2024-01-01",
            "1_000",
            "012",
            "1:30",
            "~",
            "0x1F",
        ] {
            assert_eq!(
                read(&format!("---\nname: a\ndescription: {value}\n---\n")),
                Reading::Refused(Refusal::DescriptionNotAString),
                "{value}"
            );
        }
        for value in ["yes", "no", "on", "1.2.3", "'42'", "v1"] {
            assert!(
                matches!(
                    read(&format!("---\nname: a\ndescription: {value}\n---\n")),
                    Reading::Loaded { .. }
                ),
                "{value}"
            );
        }
        assert_eq!(
            read("---\ndescription: d\n---\n"),
            Reading::Refused(Refusal::NoStringName)
        );
        assert_eq!(loaded("---\nname: ''\ndescription: d\n---\n").0, "");
    }
}
