//! How Codex (0.169.0) reads one SKILL.md and lists its skills to the model, measured against the
//! real client (`tests/clients`): its frontmatter block, its strict YAML with one repair pass,
//! the fields it type-checks, its names and whitespace, the per-description cap, its order, and
//! the token budget it fits the whole listing into.

use crate::document::yaml::{self, Node, NodeKind, ScalarType};
use crate::text::TextRange;

use super::Fate;

/// The version every fact here was measured against.
pub(crate) const VERSION: &str = "0.169.0";
/// Longest description listed whole, in characters; a longer one keeps its first
/// `DESCRIPTION_CAP - 3` characters and `...`.
pub(crate) const DESCRIPTION_CAP: usize = 1_024;
/// Longest name Codex loads, in characters.
pub(crate) const NAME_LIMIT: usize = 64;
/// The context window Codex assumes for a model it has no metadata for.
pub(crate) const DEFAULT_CONTEXT_WINDOW: u64 = 272_000;
/// The listing gets this share of the context window, in percent.
const BUDGET_PERCENT: u64 = 2;
/// Codex estimates a token as four bytes.
const BYTES_PER_TOKEN: usize = 4;
/// Codex's own skills, listed before the project's and counted against the same budget: name
/// and the length of its description (ASCII, so bytes and characters alike).
pub(crate) const OWN: [(&str, usize); 4] = [
    ("imagegen", 570),
    ("openai-docs", 624),
    ("skill-creator", 106),
    ("skill-installer", 225),
];

/// The listing budget in tokens for a context window (tokens), or for the default one.
#[must_use]
pub(crate) fn budget(context_window: Option<u64>) -> usize {
    let window = context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW);
    usize::try_from(window.saturating_mul(BUDGET_PERCENT) / 100).unwrap_or(usize::MAX)
}

/// Why Codex does not load a SKILL.md (it says so on stderr: `failed to load skill`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No `---` line first (a byte order mark counts), no closing `---` line, or nothing
    /// between them.
    MissingFrontmatter,
    /// The YAML does not parse, even after Codex's repair of unquoted values.
    InvalidYaml,
    /// `name`, `description` or `metadata` (or `metadata.short-description`) has the wrong type.
    InvalidType(&'static str),
    /// `name`, `description` or `metadata` is given twice.
    DuplicateField(&'static str),
    /// No description, or only white space.
    MissingDescription,
    /// The name is longer than [`NAME_LIMIT`] characters.
    NameTooLong,
}

impl Refusal {
    /// In words, for findings and `catalog`.
    #[must_use]
    pub(crate) fn describe(&self) -> String {
        match self {
            Refusal::MissingFrontmatter => {
                "it has no frontmatter block between --- lines at the top".to_owned()
            }
            Refusal::InvalidYaml => "its frontmatter is not valid YAML".to_owned(),
            Refusal::InvalidType(field) => format!("{field} has the wrong type"),
            Refusal::DuplicateField(field) => format!("{field} is given twice"),
            Refusal::MissingDescription => "it has no description".to_owned(),
            Refusal::NameTooLong => {
                format!("its name is longer than {NAME_LIMIT} characters")
            }
        }
    }
}

/// What Codex reads from one SKILL.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    Loaded {
        /// The frontmatter name, white space collapsed; `None`: the folder's name is used.
        name: Option<String>,
        /// White space collapsed, before the cap.
        description: String,
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
            Reading::Loaded { description, .. } => Reading::Loaded {
                name: None,
                description: description.clone(),
            },
            refused @ Reading::Refused(_) => refused.clone(),
        }
    }
}

/// Reads a SKILL.md as Codex does.
#[must_use]
pub(crate) fn read(text: &str) -> Reading {
    read_reusing(text, None)
}

/// [`read`], reusing a parse of the same frontmatter block when the linter found the same one.
#[must_use]
pub(crate) fn read_reusing(
    text: &str,
    parsed: Option<(TextRange, &yaml::YamlDocument)>,
) -> Reading {
    let Some(range) = split(text) else {
        return Reading::Refused(Refusal::MissingFrontmatter);
    };
    let reused = parsed
        .filter(|(parsed_range, document)| *parsed_range == range && document.error.is_none())
        .map(|(_, document)| document.root.clone());
    let root = match reused {
        Some(root) => root,
        None => match parse_repaired(&text[range.as_range()]) {
            Some(root) => root,
            None => return Reading::Refused(Refusal::InvalidYaml),
        },
    };
    match fields(root.as_ref()) {
        Ok(reading) => reading,
        Err(refusal) => Reading::Refused(refusal),
    }
}

/// The frontmatter as Codex finds it: the first line is `---` (surrounding white space
/// allowed), and the YAML runs to the next such line. `None` when there is no such block, or it
/// is empty.
fn split(text: &str) -> Option<TextRange> {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').map(|line| {
        let start = offset;
        offset += line.len();
        (start, line)
    });
    let (_, first) = lines.next()?;
    if first.trim() != "---" {
        return None;
    }
    let yaml_start = first.len();
    for (start, line) in lines {
        if line.trim() == "---" {
            return (start > yaml_start).then(|| TextRange::new(yaml_start, start));
        }
    }
    None
}

/// Parses the YAML; when it does not parse, Codex quotes the plain values that hold `: ` or
/// start with `[`, `{`, `@` or a backtick, and tries once more. `None` when both fail;
/// `Some(None)` for an empty document.
fn parse_repaired(source: &str) -> Option<Option<Node>> {
    let parse = |source: &str| {
        let document = yaml::parse(source, TextRange::new(0, source.len()));
        document.error.is_none().then_some(document.root)
    };
    parse(source).or_else(|| parse(&repair(source)))
}

/// Codex's repair of a frontmatter that failed to parse.
fn repair(source: &str) -> String {
    source
        .split('\n')
        .map(|line| quote_line(line).unwrap_or_else(|| line.to_owned()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `key: value` with the value double-quoted, when the line's value needs it.
fn quote_line(line: &str) -> Option<String> {
    let colon = line
        .char_indices()
        .find(|&(at, c)| c == ':' && line[at + 1..].starts_with([' ', '\t']))
        .map(|(at, _)| at)?;
    let key = &line[..colon];
    if key.trim().is_empty() {
        return None;
    }
    let rest = line[colon + 1..].trim_start_matches([' ', '\t']);
    // A comment (white space, then `#`) ends the value.
    let value = rest
        .char_indices()
        .find(|&(at, c)| c == '#' && at > 0 && rest[..at].ends_with([' ', '\t']))
        .map_or(rest, |(at, _)| &rest[..at])
        .trim_end();
    if value.is_empty() || value.starts_with(['"', '\'', '|', '>']) {
        return None;
    }
    let needs = value.starts_with(['[', '{', '@', '`'])
        || value
            .char_indices()
            .any(|(at, c)| c == ':' && value[at + 1..].starts_with([' ', '\t']));
    needs.then(|| {
        format!(
            "{key}: \"{}\"",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        )
    })
}

/// The fields Codex deserializes, type-checked as it does (other keys are ignored).
fn fields(root: Option<&Node>) -> Result<Reading, Refusal> {
    let entries: &[yaml::Entry] = match root {
        None => &[],
        Some(root) if is_null(root) => &[],
        Some(Node {
            kind: NodeKind::Mapping(entries),
            ..
        }) => entries,
        Some(_) => return Err(Refusal::InvalidType("the frontmatter")),
    };
    let field = |key: &'static str| -> Result<Option<&Node>, Refusal> {
        let mut found = entries
            .iter()
            .filter(|entry| entry.key.as_str() == Some(key));
        let first = found.next().map(|entry| &entry.value);
        if found.next().is_some() {
            return Err(Refusal::DuplicateField(key));
        }
        Ok(first)
    };
    let name = text_field(field("name")?, "name")?;
    let description = text_field(field("description")?, "description")?;
    if let Some(metadata) = field("metadata")? {
        match &metadata.kind {
            NodeKind::Mapping(_) => {
                let short = metadata.get("short-description").map(|entry| &entry.value);
                text_field(short, "metadata.short-description")?;
            }
            _ if is_null(metadata) => {}
            _ => return Err(Refusal::InvalidType("metadata")),
        }
    }
    let name = name
        .map(|name| collapse(&name))
        .filter(|name| !name.is_empty());
    if name
        .as_deref()
        .is_some_and(|name| name.chars().count() > NAME_LIMIT)
    {
        return Err(Refusal::NameTooLong);
    }
    let description = description
        .map(|description| collapse(&description))
        .filter(|description| !description.is_empty())
        .ok_or(Refusal::MissingDescription)?;
    Ok(Reading::Loaded { name, description })
}

fn is_null(node: &Node) -> bool {
    node.scalar_type() == Some(ScalarType::Null)
}

/// A string field: any scalar as written (a number or boolean keeps its spelling), null as
/// absent; a list, mapping or alias is the wrong type.
fn text_field(node: Option<&Node>, field: &'static str) -> Result<Option<String>, Refusal> {
    match node {
        None => Ok(None),
        Some(node) if is_null(node) => Ok(None),
        Some(Node {
            kind: NodeKind::Scalar { value, .. },
            ..
        }) => Ok(Some(value.clone())),
        Some(_) => Err(Refusal::InvalidType(field)),
    }
}

/// Every run of white space (Unicode's) becomes one space; none at either end.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The description as listed before the budget: at most [`DESCRIPTION_CAP`] characters.
#[must_use]
pub(crate) fn capped(description: &str) -> (String, bool) {
    if description.chars().count() <= DESCRIPTION_CAP {
        return (description.to_owned(), false);
    }
    let kept: String = description.chars().take(DESCRIPTION_CAP - 3).collect();
    (format!("{kept}..."), true)
}

/// One loaded skill as Codex's listing sees it.
#[derive(Clone, Debug)]
pub(crate) struct Candidate<'a> {
    /// The name as listed (the frontmatter's, else the folder's).
    pub name: &'a str,
    pub description: &'a str,
    /// The SKILL.md's path below its root (`folder/SKILL.md`), which the listed line shows.
    pub file: &'a str,
    /// What the listing sorts equal names by: the SKILL.md's path.
    pub path: &'a std::path::Path,
}

/// Codex's listing of a set of skills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Listing {
    /// The project's lines, in order.
    pub lines: Vec<Line>,
    /// Indexes of the candidates left out: even their names did not fit.
    pub left_out: Vec<usize>,
    /// Tokens the whole listing (Codex's own skills included) would take with every
    /// description whole, as Codex estimates them.
    pub needed: usize,
}

/// A listed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Index into the candidates.
    pub index: usize,
    /// The text the model sees; `None` when every description was removed.
    pub description: Option<String>,
    pub fate: Fate,
}

/// Codex's listing of the given skills: its own first, then the project's sorted by name (then
/// path), each description capped; over the token budget (four bytes a token, each line rounded
/// up) every description is cut to one common length in characters, the lines that can still
/// take a character more getting it in order; when even names alone do not fit, descriptions
/// are removed and the lines that do not fit left out.
#[must_use]
pub(crate) fn listing(candidates: &[Candidate<'_>], budget: usize) -> Listing {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| {
        candidates[a]
            .name
            .cmp(candidates[b].name)
            .then_with(|| candidates[a].path.cmp(candidates[b].path))
    });
    // Codex's own skills take the first lines; their descriptions are plain ASCII, so a
    // stand-in of the right length costs what theirs do.
    let own_text: Vec<String> = OWN.iter().map(|(_, length)| "x".repeat(*length)).collect();
    struct Row {
        /// `- name: (file: rN/path)` and its newline, in bytes.
        fixed: usize,
        text: String,
        capped: bool,
        index: Option<usize>,
    }
    let row = |name: &str, file: &str, description: &str, index: Option<usize>| {
        let (text, capped) = capped(description);
        Row {
            fixed: format!("- {name}: (file: r0/{file})\n").len(),
            text,
            capped,
            index,
        }
    };
    let mut rows: Vec<Row> = OWN
        .iter()
        .zip(&own_text)
        .map(|((name, _), text)| row(name, &format!("{name}/SKILL.md"), text, None))
        .collect();
    rows.extend(order.iter().map(|&index| {
        let candidate = &candidates[index];
        row(
            candidate.name,
            candidate.file,
            candidate.description,
            Some(index),
        )
    }));
    let cost = |row: &Row, chars: usize| -> usize {
        let prefix = char_prefix(&row.text, chars);
        (row.fixed + 1 + prefix.len()).div_ceil(BYTES_PER_TOKEN)
    };
    let longest = rows
        .iter()
        .map(|row| row.text.chars().count())
        .max()
        .unwrap_or(0);
    let total = |chars: usize| rows.iter().map(|row| cost(row, chars)).sum::<usize>();
    let needed = total(longest);
    let mut lines = Vec::with_capacity(candidates.len());
    let mut left_out = Vec::new();
    if needed <= budget {
        for row in &rows {
            if let Some(index) = row.index {
                let fate = if row.capped { Fate::Capped } else { Fate::Full };
                lines.push(Line {
                    index,
                    description: Some(row.text.clone()),
                    fate,
                });
            }
        }
        return Listing {
            lines,
            left_out,
            needed,
        };
    }
    if total(0) > budget {
        // Names only, in order, as long as they fit.
        let mut used = 0;
        for row in &rows {
            let line = row.fixed.div_ceil(BYTES_PER_TOKEN);
            let fits = used + line <= budget;
            if fits {
                used += line;
            }
            if let Some(index) = row.index {
                if fits {
                    lines.push(Line {
                        index,
                        description: None,
                        fate: Fate::NameOnly,
                    });
                } else {
                    left_out.push(index);
                }
            }
        }
        return Listing {
            lines,
            left_out,
            needed,
        };
    }
    // The longest common length that fits.
    let (mut low, mut high) = (0, longest);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        if total(mid) <= budget {
            low = mid;
        } else {
            high = mid - 1;
        }
    }
    let common = low;
    let mut spare = budget - total(common);
    for row in &rows {
        let mut chars = common;
        let extra = cost(row, common + 1) - cost(row, common);
        if extra <= spare {
            spare -= extra;
            chars += 1;
        }
        let Some(index) = row.index else { continue };
        let length = row.text.chars().count();
        if length <= chars {
            let fate = if row.capped { Fate::Capped } else { Fate::Full };
            lines.push(Line {
                index,
                description: Some(row.text.clone()),
                fate,
            });
            continue;
        }
        // The line is cut at its tokens' last byte, on a character boundary.
        let room = cost(row, chars) * BYTES_PER_TOKEN - row.fixed - 1;
        let text = byte_prefix(&row.text, room).to_owned();
        lines.push(Line {
            index,
            fate: if text.is_empty() {
                Fate::NameOnly
            } else {
                Fate::Shortened
            },
            description: (!text.is_empty()).then_some(text),
        });
    }
    Listing {
        lines,
        left_out,
        needed,
    }
}

fn char_prefix(text: &str, chars: usize) -> &str {
    text.char_indices()
        .nth(chars)
        .map_or(text, |(at, _)| &text[..at])
}

fn byte_prefix(text: &str, bytes: usize) -> &str {
    if bytes >= text.len() {
        return text;
    }
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> (Option<String>, String) {
        match read(text) {
            Reading::Loaded { name, description } => (name, description),
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
    fn frontmatter_block() {
        assert_eq!(loaded("---  \nname: a\ndescription: d\n ---\nb\n").1, "d");
        assert_eq!(loaded("---\r\ndescription: d\r\n---\r\n").1, "d");
        assert_eq!(
            refused("\u{feff}---\ndescription: d\n---\n"),
            Refusal::MissingFrontmatter
        );
        assert_eq!(refused("---\n---\nbody\n"), Refusal::MissingFrontmatter);
        assert_eq!(
            refused("---\ndescription: d\n"),
            Refusal::MissingFrontmatter
        );
        assert_eq!(refused(""), Refusal::MissingFrontmatter);
    }

    #[test]
    fn the_repair_quotes_values_that_break_yaml() {
        for (value, listed) in [
            ("a: b # c", "a: b"),
            ("[a] b", "[a] b"),
            ("@at start", "@at start"),
            ("{a} b", "{a} b"),
            ("a:\tb", "a: b"),
            ("a\\: b", "a\\: b"),
            ("a: \"b\" c", "a: \"b\" c"),
            ("*alias: x", "*alias: x"),
        ] {
            assert_eq!(
                loaded(&format!("---\ndescription: {value}\n---\n")).1,
                listed,
                "{value}"
            );
        }
        for value in [
            "ends with colon:",
            "'a': b",
            "\"quoted\" tail",
            "*x",
            "a: b\n  more",
        ] {
            assert_eq!(
                refused(&format!("---\ndescription: {value}\n---\n")),
                Refusal::InvalidYaml,
                "{value}"
            );
        }
        assert_eq!(
            refused("---\ndescription: null\nother: a: b\n---\n"),
            Refusal::MissingDescription
        );
        assert_eq!(
            loaded("---\ndescription: ok\nmetadata:\n  k: v: w\n---\n").1,
            "ok"
        );
    }

    #[test]
    fn fields_and_types() {
        assert_eq!(
            loaded("---\nname: 1.50\ndescription: 42.50\n---\n"),
            (Some("1.50".into()), "42.50".into())
        );
        assert_eq!(
            loaded("---\nname: ''\ndescription: \" a\\tb\\u2028c \"\n---\n"),
            (None, "a b c".into())
        );
        assert_eq!(
            refused("---\ndescription: [a, b]\n---\n"),
            Refusal::InvalidType("description")
        );
        assert_eq!(
            refused("---\ndescription: d\nmetadata: text\n---\n"),
            Refusal::InvalidType("metadata")
        );
        assert_eq!(
            refused("---\ndescription: d\nname: a\nname: b\n---\n"),
            Refusal::DuplicateField("name")
        );
        assert_eq!(
            loaded("---\ndescription: d\nfoo: 1\nfoo: 2\n---\n").1,
            "d",
            "unknown keys may repeat"
        );
        assert_eq!(
            refused("---\ndescription: \"  \"\n---\n"),
            Refusal::MissingDescription
        );
        assert_eq!(
            refused(&format!(
                "---\nname: {}\ndescription: d\n---\n",
                "n".repeat(65)
            )),
            Refusal::NameTooLong
        );
        assert!(matches!(
            read(&format!(
                "---\nname: {}\ndescription: d\n---\n",
                "é".repeat(64)
            )),
            Reading::Loaded { .. }
        ));
    }

    #[test]
    fn the_cap_counts_characters() {
        let (text, capped_) = capped(&"é".repeat(1_030));
        assert!(capped_);
        assert_eq!(text.chars().count(), DESCRIPTION_CAP);
        assert!(text.ends_with("..."));
        assert_eq!(capped(&"d".repeat(1_024)), ("d".repeat(1_024), false));
    }

    fn crowd(count: usize, length: usize) -> (Vec<String>, Vec<String>, Vec<String>) {
        let names: Vec<String> = (0..count).map(|i| format!("s{i:03}")).collect();
        let descriptions = names
            .iter()
            .map(|name| format!("skill {} {}", &name[1..], "x".repeat(length))[..length].to_owned())
            .collect();
        let files = names
            .iter()
            .map(|name| format!("{name}/SKILL.md"))
            .collect();
        (names, descriptions, files)
    }

    fn run(count: usize, length: usize) -> (Vec<Line>, Vec<usize>) {
        let (names, descriptions, files) = crowd(count, length);
        let paths: Vec<std::path::PathBuf> = files.iter().map(std::path::PathBuf::from).collect();
        let candidates: Vec<Candidate<'_>> = (0..count)
            .map(|i| Candidate {
                name: &names[i],
                description: &descriptions[i],
                file: &files[i],
                path: &paths[i],
            })
            .collect();
        let listing = listing(&candidates, budget(None));
        (listing.lines, listing.left_out)
    }

    #[test]
    fn over_budget_every_description_is_cut_to_one_length() {
        // Measured: 200 skills of 300 characters list 118 descriptions of 74 characters, then
        // 70; 700 list 598 names and leave 102 out.
        let (lines, _) = run(200, 300);
        let lengths: Vec<usize> = lines
            .iter()
            .map(|line| line.description.as_ref().map_or(0, String::len))
            .collect();
        assert_eq!(lengths.iter().filter(|&&n| n == 74).count(), 118);
        assert_eq!(lengths.iter().filter(|&&n| n == 70).count(), 82);
        let (lines, _) = run(30, 300);
        assert!(lines.iter().all(|line| line.fate == Fate::Full));
        let (lines, left_out) = run(700, 300);
        assert_eq!((lines.len(), left_out.len()), (598, 102));
        assert!(lines.iter().all(|line| line.description.is_none()));
    }
}
