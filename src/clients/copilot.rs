//! How the Copilot CLI (1.0.102) reads one SKILL.md and lists its skills to the model, measured
//! against the real client (`tests/clients`): its frontmatter block, strict YAML, the fields it
//! type-checks, its name rule, the description taken from the body, its escaping, its order and
//! the 15,000-character budget after which skills are offered by name only.

use crate::document::yaml::{self, Node, NodeKind, ScalarType};
use crate::text::TextRange;

use super::Fate;
use super::js::{utf16_len, utf16_prefix};

/// The version every fact here was measured against.
pub(crate) const VERSION: &str = "1.0.102";
/// Longest description Copilot loads, in UTF-16 units; a description taken from the body is cut
/// to this length instead.
pub(crate) const DESCRIPTION_LIMIT: usize = 1_024;
/// Longest name Copilot loads, in characters.
pub(crate) const NAME_LIMIT: usize = 64;
/// The `<skill>` entries of the listing fit this many UTF-16 units; the skills after the first
/// that does not fit are offered by name only.
pub(crate) const BUDGET: usize = 15_000;

/// Why Copilot does not load a SKILL.md (`copilot skill list` names it under "failed to load";
/// a prompt run drops it silently).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No `---` line first, or no closing `---` line.
    MissingFrontmatter,
    /// The YAML does not parse, or repeats a key.
    InvalidYaml,
    /// A field has the wrong type (`name` or `description` not a string, the two switches not
    /// booleans, `allowed-tools` not a string or list of strings).
    InvalidType(&'static str),
    /// `name` is empty.
    EmptyName,
    /// The name is longer than [`NAME_LIMIT`] characters.
    NameTooLong,
    /// The name holds a character other than ASCII letters, digits, `-`, `_`, `.`, `:` and
    /// spaces, or does not start with a letter or digit.
    InvalidName,
    /// The description is longer than [`DESCRIPTION_LIMIT`] UTF-16 units.
    DescriptionTooLong,
}

impl Refusal {
    /// In words, for findings and `catalog`.
    #[must_use]
    pub(crate) fn describe(&self) -> String {
        match self {
            Refusal::MissingFrontmatter => {
                "it has no frontmatter block between --- lines at the top".to_owned()
            }
            Refusal::InvalidYaml => {
                "its frontmatter is not valid YAML (or repeats a key)".to_owned()
            }
            Refusal::InvalidType(field) => format!("{field} has the wrong type"),
            Refusal::EmptyName => "its name is empty".to_owned(),
            Refusal::NameTooLong => format!("its name is longer than {NAME_LIMIT} characters"),
            Refusal::InvalidName => "its name is not made of ASCII letters, digits, '-', '_', '.', ':' and spaces, starting with a letter or digit".to_owned(),
            Refusal::DescriptionTooLong => {
                format!("its description is longer than {DESCRIPTION_LIMIT} characters")
            }
        }
    }
}

/// What Copilot reads from one SKILL.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    Loaded {
        /// The frontmatter name, trimmed, spaces turned into `-`; `None`: the folder's.
        name: Option<String>,
        /// As written (white space kept), or from the body.
        description: String,
        /// `disable-model-invocation: true`: loaded, but not offered to the model.
        hidden: bool,
    },
    Refused(Refusal),
}

impl Default for Reading {
    fn default() -> Self {
        Reading::Refused(Refusal::MissingFrontmatter)
    }
}

impl super::ClientReading for Reading {
    fn reads_frontmatter(&self) -> bool {
        matches!(self, Reading::Loaded { .. })
    }

    fn name_in(&self, folder: &str) -> String {
        match self {
            Reading::Loaded {
                name: Some(name), ..
            } => name.clone(),
            _ => folder.to_owned(),
        }
    }

    fn unnamed(&self) -> Self {
        match self {
            Reading::Loaded {
                description,
                hidden,
                ..
            } => Reading::Loaded {
                name: None,
                description: description.clone(),
                hidden: *hidden,
            },
            refused @ Reading::Refused(_) => refused.clone(),
        }
    }
}

/// Reads a SKILL.md as Copilot does.
#[must_use]
pub(crate) fn read(text: &str) -> Reading {
    read_reusing(text, None)
}

/// [`read`], reusing a parse of the same frontmatter block when the linter found the same one.
#[must_use]
pub(crate) fn read_reusing(
    whole: &str,
    parsed: Option<(TextRange, &yaml::YamlDocument)>,
) -> Reading {
    let bom = crate::text::bom_len(whole);
    let Some((range, body)) = split(&whole[bom..]) else {
        return Reading::Refused(Refusal::MissingFrontmatter);
    };
    let range = TextRange::new(range.start + bom, range.end + bom);
    let reused = parsed
        .filter(|(parsed_range, document)| *parsed_range == range && document.error.is_none())
        .map(|(_, document)| document.root.clone());
    let root = match reused {
        Some(root) => root,
        None => {
            let document = yaml::parse(whole, range);
            if document.error.is_some() {
                return Reading::Refused(Refusal::InvalidYaml);
            }
            document.root
        }
    };
    if root.as_ref().is_some_and(Node::repeats_a_key) {
        return Reading::Refused(Refusal::InvalidYaml);
    }
    // Copilot's YAML ends before the line break that precedes the closing `---`, so a block
    // scalar that ends the frontmatter loses its last line break, and one followed by another
    // key keeps it.
    let ends_block = |node: &Node| whole[node.range.end..range.end].trim().is_empty();
    match fields(root.as_ref(), &whole[bom + body..], &ends_block) {
        Ok(reading) => reading,
        Err(refusal) => Reading::Refused(refusal),
    }
}

/// The frontmatter block: a first line that is `---` (trailing white space allowed), up to the
/// next such line. Returns the YAML range and where the body starts.
fn split(text: &str) -> Option<(TextRange, usize)> {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').map(|line| {
        let start = offset;
        offset += line.len();
        (start, line)
    });
    let (_, first) = lines.next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let yaml_start = first.len();
    for (start, line) in lines {
        if line.trim_end() == "---" {
            return Some((TextRange::new(yaml_start, start), start + line.len()));
        }
    }
    None
}

fn fields(
    root: Option<&Node>,
    body: &str,
    ends_block: &dyn Fn(&Node) -> bool,
) -> Result<Reading, Refusal> {
    let field = |key: &str| {
        root.and_then(|root| root.get(key))
            .map(|entry| &entry.value)
    };
    let name = match field("name") {
        None => None,
        Some(node) => {
            let name = string(node).ok_or(Refusal::InvalidType("name"))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(Refusal::EmptyName);
            }
            Some(valid_name(name)?)
        }
    };
    let description = match field("description") {
        None => {
            let text = description_from_body(body);
            utf16_prefix(&text, DESCRIPTION_LIMIT).to_owned()
        }
        Some(node) => {
            let text = string(node).ok_or(Refusal::InvalidType("description"))?;
            if utf16_len(text) > DESCRIPTION_LIMIT {
                return Err(Refusal::DescriptionTooLong);
            }
            if ends_block(node) {
                text.strip_suffix('\n').unwrap_or(text).to_owned()
            } else {
                text.to_owned()
            }
        }
    };
    let mut hidden = false;
    for key in ["disable-model-invocation", "user-invocable"] {
        match field(key) {
            None => {}
            Some(node) if is_null(node) => {}
            Some(node)
                if node.scalar_type() == Some(ScalarType::Bool)
                    && key == "disable-model-invocation" =>
            {
                hidden = node
                    .as_str()
                    .is_some_and(|value| value.eq_ignore_ascii_case("true"));
            }
            Some(node) if node.scalar_type() == Some(ScalarType::Bool) => {}
            Some(_) => {
                return Err(Refusal::InvalidType(if key == "user-invocable" {
                    "user-invocable"
                } else {
                    "disable-model-invocation"
                }));
            }
        }
    }
    // A hint written as a YAML list (`[file]`) or mapping makes Copilot refuse the skill, as a
    // switch that is not a boolean does.
    if field("argument-hint")
        .is_some_and(|hint| matches!(hint.kind, NodeKind::Sequence(_) | NodeKind::Mapping(_)))
    {
        return Err(Refusal::InvalidType("argument-hint"));
    }
    if let Some(tools) = field("allowed-tools") {
        let fine = match &tools.kind {
            NodeKind::Sequence(items) => items.iter().all(|item| string(item).is_some()),
            _ => is_null(tools) || string(tools).is_some(),
        };
        if !fine {
            return Err(Refusal::InvalidType("allowed-tools"));
        }
    }
    Ok(Reading::Loaded {
        name,
        description,
        hidden,
    })
}

fn is_null(node: &Node) -> bool {
    node.scalar_type() == Some(ScalarType::Null)
}

/// A YAML string (quoted, block, or plain text that is no number, boolean or null).
fn string(node: &Node) -> Option<&str> {
    if node.scalar_type() == Some(ScalarType::Str) {
        node.as_str()
    } else {
        None
    }
}

/// Copilot's name rule: ASCII letters, digits, `-`, `_`, `.`, `:` and spaces, a letter or digit
/// first, at most [`NAME_LIMIT`] characters; spaces become `-`.
pub(crate) fn valid_name(name: &str) -> Result<String, Refusal> {
    if name.chars().count() > NAME_LIMIT {
        return Err(Refusal::NameTooLong);
    }
    let first_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    let rest_ok = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | ' '));
    if !first_ok || !rest_ok {
        return Err(Refusal::InvalidName);
    }
    Ok(name.replace(' ', "-"))
}

/// How many of the body's lines make a description taken from it.
const BODY_LINES: usize = 3;

/// The body's first [`BODY_LINES`] text lines (blank lines and headings left out), each trimmed,
/// joined by spaces.
fn description_from_body(body: &str) -> String {
    body.split('\n')
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .take(BODY_LINES)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `&`, `<`, `>`, `"` and `'` as XML entities.
#[must_use]
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// One loaded skill as Copilot's listing sees it, in root order (`.github/skills`,
/// `.agents/skills`, `.claude/skills`), folders in name order.
#[derive(Clone, Debug)]
pub(crate) struct Candidate<'a> {
    /// The name as listed (the frontmatter's, else the folder's).
    pub name: &'a str,
    pub description: &'a str,
    pub hidden: bool,
}

/// A listed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Index into the candidates.
    pub index: usize,
    /// The escaped text the model sees; `None` when offered by name only.
    pub description: Option<String>,
    pub fate: Fate,
}

/// Why a candidate is not listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Omitted {
    /// An earlier candidate has the same name (its index).
    Shadowed(usize),
    /// `disable-model-invocation: true`.
    Hidden,
}

/// Copilot's listing: the first skill of each name, hidden ones left out, sorted by name, each an
/// escaped `<skill>` entry while the entries fit [`BUDGET`]; from the first that does not, the
/// rest are offered by name only.
#[must_use]
pub(crate) fn listing(candidates: &[Candidate<'_>]) -> (Vec<Line>, Vec<(usize, Omitted)>) {
    let mut omitted = Vec::new();
    let mut winners: Vec<usize> = Vec::new();
    let mut by_name: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, candidate) in candidates.iter().enumerate() {
        match by_name.get(candidate.name) {
            Some(&winner) => omitted.push((index, Omitted::Shadowed(winner))),
            None => {
                by_name.insert(candidate.name, index);
                if candidate.hidden {
                    omitted.push((index, Omitted::Hidden));
                } else {
                    winners.push(index);
                }
            }
        }
    }
    winners.sort_by(|&a, &b| candidates[a].name.cmp(candidates[b].name));
    let mut used = 0;
    let mut full = true;
    let lines = winners
        .into_iter()
        .map(|index| {
            let candidate = &candidates[index];
            let description = escape(candidate.description);
            let entry = format!(
                "<skill>\n  <name>{}</name>\n  <description>{description}</description>\n  <location>project</location>\n</skill>\n",
                escape(candidate.name)
            );
            full = full && used + utf16_len(&entry) <= BUDGET;
            if full {
                used += utf16_len(&entry);
                Line {
                    index,
                    description: Some(description),
                    fate: Fate::Full,
                }
            } else {
                Line {
                    index,
                    description: None,
                    fate: Fate::NameOnly,
                }
            }
        })
        .collect();
    (lines, omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> (Option<String>, String, bool) {
        match read(text) {
            Reading::Loaded {
                name,
                description,
                hidden,
            } => (name, description, hidden),
            Reading::Refused(refusal) => panic!("{text:?}: {refusal:?}"),
        }
    }

    fn refused(text: &str) -> Refusal {
        match read(text) {
            Reading::Refused(refusal) => refusal,
            loaded @ Reading::Loaded { .. } => panic!("{text:?}: {loaded:?}"),
        }
    }

    #[test]
    fn frontmatter_and_yaml() {
        assert_eq!(loaded("\u{feff}---\ndescription: d\n---\n").1, "d");
        assert_eq!(loaded("---   \r\ndescription: d\r\n--- \r\n").1, "d");
        assert_eq!(
            refused("---\ndescription: d\n ---\n"),
            Refusal::MissingFrontmatter
        );
        assert_eq!(refused("# no block\n"), Refusal::MissingFrontmatter);
        assert_eq!(
            refused("---\ndescription: Use when: asked\n---\n"),
            Refusal::InvalidYaml
        );
        assert_eq!(
            refused("---\ndescription: d\nmetadata:\n  a: 1\n  a: 2\n---\n"),
            Refusal::InvalidYaml
        );
        assert_eq!(
            loaded("---\n---\n# Title\n\nline a\nline b\n\n## More\nsecond\nfourth\n").1,
            "line a line b second"
        );
        assert_eq!(loaded("---\ndescription: |\n  a\n\n  b\n---\n").1, "a\n\nb");
        // Followed by another key, a block scalar keeps its last line break.
        assert_eq!(
            loaded("---\ndescription: >\n  a\n  b\nlicense: MIT\n---\n").1,
            "a b\n"
        );
    }

    #[test]
    fn fields_names_and_types() {
        assert_eq!(
            loaded("---\nname: '  my skill  '\ndescription: \"  raw\\tkept \"\n---\n"),
            (Some("my-skill".into()), "  raw\tkept ".into(), false)
        );
        assert_eq!(
            refused("---\nname: 3000\ndescription: d\n---\n"),
            Refusal::InvalidType("name")
        );
        assert_eq!(
            refused("---\nname:\ndescription: d\n---\n"),
            Refusal::InvalidType("name")
        );
        assert_eq!(
            refused("---\nname: ''\ndescription: d\n---\n"),
            Refusal::EmptyName
        );
        assert_eq!(
            refused("---\nname: é\ndescription: d\n---\n"),
            Refusal::InvalidName
        );
        assert_eq!(
            refused("---\ndescription: 42.50\n---\n"),
            Refusal::InvalidType("description")
        );
        assert_eq!(
            refused("---\ndescription:\n---\nbody\n"),
            Refusal::InvalidType("description")
        );
        assert_eq!(
            refused(&format!(
                "---\ndescription: \"{}\"\n---\n",
                "😀".repeat(600)
            )),
            Refusal::DescriptionTooLong
        );
        assert_eq!(
            refused("---\ndescription: d\ndisable-model-invocation: no\n---\n"),
            Refusal::InvalidType("disable-model-invocation")
        );
        assert!(loaded("---\ndescription: d\ndisable-model-invocation: true\n---\n").2);
        assert_eq!(
            loaded(&format!("---\n---\n{}\n", "word ".repeat(300)))
                .1
                .len(),
            1_024
        );
    }

    #[test]
    fn the_budget_stops_at_the_first_entry_that_does_not_fit() {
        let long = "d".repeat(900);
        let names: Vec<String> = (0..20).map(|i| format!("s{i:02}")).collect();
        let candidates: Vec<Candidate<'_>> = names
            .iter()
            .enumerate()
            .map(|(i, name)| Candidate {
                name,
                description: if i == 19 { "short" } else { &long },
                hidden: false,
            })
            .collect();
        let (lines, _) = listing(&candidates);
        let full = lines.iter().filter(|line| line.fate == Fate::Full).count();
        assert_eq!(full, 15, "entries of 997 units");
        assert_eq!(lines[19].fate, Fate::NameOnly);
    }
}
