//! How Claude Code (2.1.328) reads one SKILL.md and lists its skills to the model, measured
//! against the real client (`tests/clients`): its own frontmatter reading (more forgiving than
//! YAML), the folder-first name, which skills it keeps out of the listing, the text cleaning and
//! escaping of descriptions, the per-skill cap, its listing order and its budget.

use crate::document::yaml::{self, Node, NodeKind, ScalarType, Style};
use crate::text::TextRange;

use super::js::{self, utf16_len};
use super::{Fate, Hidden};

/// The version every fact here was measured against.
pub(crate) const VERSION: &str = "2.1.328";
/// The cap on one skill's listed text (description, ` - `, `when_to_use`), in UTF-16 units.
pub(crate) const SKILL_CAP: usize = 1_536;
/// The listing budget of the default model: 1 % of a 1,000,000-token window at 3 characters
/// per token.
pub(crate) const DEFAULT_BUDGET: usize = 30_000;
/// Characters per token Claude Code assumes for its default model when it sizes the budget.
pub(crate) const CHARS_PER_TOKEN: u64 = 3;
/// Claude Code's own skills, listed after the project's: how many there are, and the columns
/// taken by the ones always listed in full.
pub(crate) const OWN_SKILLS: usize = 13;
const OWN_FIXED_COLUMNS: usize = 6_039;
/// Two of its own skills compete for the budget like the project's, after them: each one's
/// columns listed by name only and in full.
const OWN_FLEXIBLE: [(usize, usize); 2] = [(6, 67), (17, 90)];
/// Columns of its own skills' lines when all are listed in full.
pub(crate) const OWN_SKILLS_CHARS: usize =
    OWN_FIXED_COLUMNS + OWN_FLEXIBLE[0].1 + OWN_FLEXIBLE[1].1;
/// Longest frontmatter `name` Claude Code keeps.
const NAME_LIMIT: usize = 256;
/// A description taken from the body is cut to this many UTF-16 units.
const BODY_DESCRIPTION_LIMIT: usize = 100;

/// The listing budget in characters for a context window (tokens), or the default model's.
#[must_use]
pub(crate) fn budget(context_window: Option<u64>) -> usize {
    context_window.map_or(DEFAULT_BUDGET, |window| {
        usize::try_from(window * CHARS_PER_TOKEN / 100).unwrap_or(usize::MAX)
    })
}

/// What Claude Code reads from one SKILL.md.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Reading {
    /// The frontmatter `name` as Claude Code keeps it (any scalar, as text), if any.
    pub(crate) display_name: Option<String>,
    /// The listed text before the cap: description (or the body's first line), then
    /// ` - when_to_use`; cleaned and with `<` and `>` escaped as the model sees them.
    pub(crate) text: String,
    /// The description came from the body.
    pub(crate) from_body: bool,
    /// Why the model is not offered the skill, when it is not.
    pub(crate) hidden: Option<Hidden>,
    /// The frontmatter could not be read even after Claude Code's quoting repair: every field
    /// was ignored.
    pub(crate) frontmatter_ignored: bool,
    /// `user-invocable` is set and not truthy: no slash command for the user.
    pub(crate) hidden_from_user: bool,
}

impl super::ClientReading for Reading {
    fn reads_frontmatter(&self) -> bool {
        !self.frontmatter_ignored && !self.from_body
    }

    fn name_in(&self, folder: &str) -> String {
        self.display_name
            .clone()
            .unwrap_or_else(|| folder.to_owned())
    }

    fn unnamed(&self) -> Self {
        Self {
            display_name: None,
            ..self.clone()
        }
    }
}

/// What Claude Code takes from the value of an enumerated field it reads, as its loader
/// converts it: `context` is `fork` only when written exactly so, and anything else runs the
/// skill inline, as no `context` does; `shell` is trimmed and lowercased, and an unknown one
/// falls back to bash; `effort` is lowercased (`med` is `medium`), and an unknown one is
/// dropped for the model's default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Setting {
    /// Claude Code takes the value as this one of the field's values.
    Takes(String),
    /// Claude Code passes over the value and does what it does without the field, which the
    /// text says (`runs the skill inline`).
    Default(&'static str),
    /// A form whose reading is not modelled here (a number for `effort`).
    Unmodelled,
}

#[must_use]
pub(crate) fn setting(field: &str, value: &str) -> Setting {
    match field {
        "context" if value == "fork" => Setting::Takes(value.to_owned()),
        "context" => Setting::Default("runs the skill inline"),
        "shell" => match value.trim().to_lowercase().as_str() {
            known @ ("bash" | "powershell") => Setting::Takes(known.to_owned()),
            _ => Setting::Default("runs the skill's commands with bash"),
        },
        "effort" => {
            let lower = value.to_lowercase();
            let lower = if lower == "med" {
                "medium".to_owned()
            } else {
                lower
            };
            if ["low", "medium", "high", "xhigh", "max"].contains(&lower.as_str()) {
                Setting::Takes(lower)
            } else if lower.trim().parse::<f64>().is_ok() {
                Setting::Unmodelled
            } else {
                Setting::Default("uses the model's default effort")
            }
        }
        _ => Setting::Unmodelled,
    }
}

/// Reads a SKILL.md as Claude Code does (the loader reads it through [`read_reusing`]).
#[cfg(test)]
#[must_use]
pub(crate) fn read(text: &str) -> Reading {
    read_reusing(text, None)
}

/// [`read`], reusing a parse of the same frontmatter block when the linter found the same one
/// (the usual case), so that a check parses the YAML once.
#[must_use]
pub(crate) fn read_reusing(
    whole: &str,
    parsed: Option<(TextRange, &yaml::YamlDocument)>,
) -> Reading {
    let bom = crate::text::bom_len(whole);
    let text = &whole[bom..];
    let (reused, mapping, body, ignored);
    match split(text) {
        Some((yaml_range, body_start)) => {
            let same = parsed.filter(|(range, document)| {
                range.start == yaml_range.start + bom
                    && range.end == yaml_range.end + bom
                    && document.error.is_none()
            });
            if let Some((_, document)) = same {
                reused = document
                    .root
                    .as_ref()
                    .filter(|root| root.as_mapping().is_some());
                mapping = None;
                ignored = false;
            } else {
                let (root, failed) = parse_forgiving(&text[yaml_range.as_range()]);
                reused = None;
                mapping = root;
                ignored = failed;
            }
            body = &text[body_start..];
        }
        None => {
            (reused, mapping, body, ignored) = (None, None, text, false);
        }
    }
    let mapping = reused.or(mapping.as_ref());
    let field = |key: &str| {
        mapping
            .and_then(|root| root.get(key))
            .map(|entry| &entry.value)
    };
    let display_name = field("name")
        .and_then(js_string)
        .filter(|name| utf16_len(name) <= NAME_LIMIT);
    let description = field("description").and_then(|value| match value.scalar_type()? {
        ScalarType::Str => Some(value.as_str()?.trim_matches(js::is_js_space).to_owned())
            .filter(|text| !text.is_empty()),
        ScalarType::Null => None,
        _ => js_string(value),
    });
    let from_body = description.is_none();
    let description = description.unwrap_or_else(|| description_from_body(body));
    let mut listed = escape(&clean(&description));
    if let Some(extra) = field("when_to_use").and_then(js_string) {
        listed.push_str(" - ");
        listed.push_str(&escape(&clean(&extra)));
    }
    let hidden = if field("disable-model-invocation").is_some_and(is_truthy) {
        Some(Hidden::ModelInvocationDisabled)
    } else if field("paths").is_some_and(is_path_scoped) {
        Some(Hidden::PathScoped)
    } else {
        None
    };
    Reading {
        display_name,
        text: listed,
        from_body,
        hidden,
        frontmatter_ignored: ignored,
        hidden_from_user: field("user-invocable").is_some_and(|value| !is_truthy(value)),
    }
}

/// The frontmatter block as Claude Code finds it: `---`, whitespace up to a line break, then
/// everything up to the first `---` anywhere (even inside a line), then whitespace. Returns the
/// YAML range and where the body starts.
fn split(text: &str) -> Option<(TextRange, usize)> {
    if text.get(3..).is_none_or(|rest| !rest.contains("---")) {
        return None;
    }
    let after_open = text.strip_prefix("---")?;
    let space = after_open.len() - after_open.trim_start_matches(js::is_js_space).len();
    // The opening whitespace must hold a line break; the YAML starts after its last one.
    let newline = after_open[..space].rfind('\n')?;
    let yaml_start = 3 + newline + 1;
    let close = yaml_start + text[yaml_start..].find("---")?;
    let after_close = &text[close + 3..];
    // `\s*\n?`: greedy whitespace gives back nothing, so the optional line break is already eaten.
    let body =
        close + 3 + (after_close.len() - after_close.trim_start_matches(js::is_js_space).len());
    Some((TextRange::new(yaml_start, close), body))
}

/// Parses the YAML; when it fails, quotes the plain values that hold YAML syntax, turns leading
/// tabs into spaces and tries once more; when that fails too, the frontmatter is ignored.
fn parse_forgiving(source: &str) -> (Option<Node>, bool) {
    if let Some(root) = parse_mapping(source) {
        return (root, false);
    }
    let repaired = repair(source);
    match parse_mapping(&repaired) {
        Some(root) => (root, false),
        None => (None, true),
    }
}

/// `None` when the YAML does not parse; `Some(None)` when it parses to something that is no
/// mapping (every field is then absent).
fn parse_mapping(source: &str) -> Option<Option<Node>> {
    let document = yaml::parse(source, TextRange::new(0, source.len()));
    if document.error.is_some() {
        return None;
    }
    Some(document.root.filter(|root| root.as_mapping().is_some()))
}

/// Claude Code's repair of a frontmatter that failed to parse.
fn repair(source: &str) -> String {
    let quoted: Vec<String> = source.split('\n').map(quote_line).collect();
    quoted
        .join("\n")
        .split('\n')
        .map(|line| {
            let tabs = line.len() - line.trim_start_matches('\t').len();
            format!("{}{}", "  ".repeat(tabs), &line[tabs..])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A `key: value` line whose plain value holds YAML syntax gets the value double-quoted.
fn quote_line(line: &str) -> String {
    let Some((key, value)) = key_value(line) else {
        return line.to_owned();
    };
    let quoted = (value.starts_with('"') && value.ends_with('"'))
        || (value.starts_with('\'') && value.ends_with('\''));
    let flow_list = value.starts_with('[')
        && value.ends_with(']')
        && parse_mapping(&format!("k: {value}")).is_some_and(|root| {
            root.and_then(|root| {
                root.get("k")
                    .map(|entry| matches!(entry.value.kind, NodeKind::Sequence(_)))
            })
            .unwrap_or(false)
        });
    let syntax = value.contains(": ")
        || value.chars().any(|c| {
            matches!(
                c,
                '{' | '}' | '[' | ']' | '*' | '&' | '#' | '!' | '|' | '>' | '%' | '@' | '`'
            )
        });
    if quoted || flow_list || !syntax {
        return line.to_owned();
    }
    format!(
        "{key}: \"{}\"",
        value.replace('\\', "\\\\").replace('"', "\\\"")
    )
}

/// `^([a-zA-Z_-]+):\s+(\S.*)$` on one line (`.` stops at a carriage return, as in JavaScript).
fn key_value(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
    {
        return None;
    }
    let rest = &line[colon + 1..];
    let value = rest.trim_start_matches(js::is_js_space);
    if value.len() == rest.len()
        || value.is_empty()
        || value.contains(['\r', '\u{2028}', '\u{2029}'])
    {
        return None;
    }
    Some((key, value))
}

/// A scalar as JavaScript's `String(value)` writes what Bun's YAML parser made of it.
fn js_string(node: &Node) -> Option<String> {
    let NodeKind::Scalar { value, style } = &node.kind else {
        return None;
    };
    match node.scalar_type()? {
        ScalarType::Null => None,
        ScalarType::Bool => Some(value.to_ascii_lowercase()),
        ScalarType::Int | ScalarType::Float if *style == Style::Plain => {
            Some(js::number_string(value))
        }
        _ => Some(value.clone()),
    }
}

/// `true`, `1`, `yes` or `on` in any case, as a boolean, number or string.
fn is_truthy(node: &Node) -> bool {
    js_string(node).is_some_and(|text| {
        matches!(
            text.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

/// `paths` makes a skill conditional (offered once a matching file is touched) unless every
/// pattern is empty or `**` once a trailing `/**` is dropped.
fn is_path_scoped(node: &Node) -> bool {
    let patterns: Vec<String> = match &node.kind {
        NodeKind::Sequence(items) => items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_owned))
            .collect(),
        NodeKind::Scalar { .. } => js_string(node)
            .map(|text| text.split(',').map(|part| part.trim().to_owned()).collect())
            .unwrap_or_default(),
        _ => return false,
    };
    let kept: Vec<&str> = patterns
        .iter()
        .map(|pattern| pattern.strip_suffix("/**").unwrap_or(pattern))
        .filter(|pattern| !pattern.is_empty())
        .collect();
    !kept.is_empty() && !kept.iter().all(|pattern| *pattern == "**")
}

/// The body's first non-blank line (a heading's text without its `#`s), cut to 100 units.
fn description_from_body(body: &str) -> String {
    let Some(line) = body
        .split('\n')
        .map(|line| line.trim_matches(js::is_js_space))
        .find(|line| !line.is_empty())
    else {
        return "Skill".to_owned();
    };
    let heading = line
        .strip_prefix('#')
        .map(|rest| rest.trim_start_matches('#'))
        .and_then(|rest| {
            let text = rest.trim_start_matches(js::is_js_space);
            (text.len() < rest.len() && !text.is_empty()).then_some(text)
        });
    let text = heading.unwrap_or(line);
    if utf16_len(text) > BODY_DESCRIPTION_LIMIT {
        format!("{}...", js::utf16_prefix(text, BODY_DESCRIPTION_LIMIT - 3))
    } else {
        text.to_owned()
    }
}

/// Each run of control, format, private-use, unassigned or invisible characters becomes one
/// space (a joiner or variation selector inside an emoji stays).
#[must_use]
pub(crate) fn clean(text: &str) -> String {
    // Printable ASCII has nothing to clean, and most descriptions are just that: no Unicode
    // property lookups for them (they showed in profiles of `check` on large corpora).
    if text.bytes().all(|byte| (b' '..=b'~').contains(&byte)) {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for (index, &c) in chars.iter().enumerate() {
        if js::is_invisible(c) && !js::joins_emoji(&chars, index) {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('<', "&lt;").replace('>', "&gt;")
}

/// One skill as Claude Code considers it for its listing.
#[derive(Clone, Debug)]
pub(crate) struct Candidate<'a> {
    /// The folder's name; a plugin's skill's is `plugin:folder`.
    pub folder: &'a str,
    pub reading: &'a Reading,
    /// Where it comes from: 0 for the project's and the user's skills, then one group per
    /// installed plugin, in the order the plugins were installed. Each group is listed after
    /// the one before, sorted within itself.
    pub group: usize,
}

/// A listed line: the name as shown and what happens to the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Index into the candidates.
    pub index: usize,
    pub name: String,
    /// The text the model sees, after the cap; `None` when listed by name only.
    pub description: Option<String>,
    pub fate: Fate,
}

/// Claude Code's listing of the given skills (one root's or several roots', in root order):
/// the first skill of a folder name wins, hidden ones are left out, the rest sorted by folder
/// name as ICU's root collation sorts, named, capped and fitted to the budget. Returns the
/// lines and, for each candidate left out, its index and why.
#[must_use]
pub(crate) fn listing(
    candidates: &[Candidate<'_>],
    budget: usize,
) -> (Vec<Line>, Vec<(usize, Omitted)>) {
    let mut omitted = Vec::new();
    let mut winners: Vec<usize> = Vec::new();
    let mut by_folder: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (index, candidate) in candidates.iter().enumerate() {
        match by_folder.get(candidate.folder) {
            Some(&winner) => omitted.push((index, Omitted::Shadowed(winner))),
            None => {
                by_folder.insert(candidate.folder, index);
                winners.push(index);
            }
        }
    }
    let collator = super::collate::Collator::new();
    winners.sort_by(|&a, &b| {
        candidates[a]
            .group
            .cmp(&candidates[b].group)
            .then_with(|| collator.compare(candidates[a].folder, candidates[b].folder))
    });
    // The command table: path-scoped skills join it only once a matching file is touched.
    let table: Vec<usize> = winners
        .iter()
        .copied()
        .filter(|&index| candidates[index].reading.hidden != Some(Hidden::PathScoped))
        .collect();
    let mut shown: Vec<usize> = Vec::new();
    for index in winners {
        match candidates[index].reading.hidden {
            Some(hidden) => omitted.push((
                index,
                Omitted::Hidden(hidden, listed_name(candidates, &table, index)),
            )),
            None => shown.push(index),
        }
    }
    let names: Vec<String> = shown
        .iter()
        .map(|&index| listed_name(candidates, &table, index))
        .collect();
    let texts: Vec<(String, bool)> = shown
        .iter()
        .map(|&index| {
            let text = &candidates[index].reading.text;
            if utf16_len(text) > SKILL_CAP {
                (format!("{}…", js::utf16_prefix(text, SKILL_CAP - 1)), true)
            } else {
                (text.clone(), false)
            }
        })
        .collect();
    // The budget counts terminal columns (a CJK character takes two), not characters.
    let name_only = |name: &str| 2 + js::columns(name);
    let full = |name: &str, text: &str| 2 + js::columns(name) + 2 + js::columns(text);
    let count = shown.len() + OWN_SKILLS;
    let flexible_name_only: usize = OWN_FLEXIBLE.iter().map(|(name_only, _)| name_only).sum();
    let total: usize = OWN_SKILLS_CHARS
        + names
            .iter()
            .zip(&texts)
            .map(|(name, (text, _))| full(name, text))
            .sum::<usize>()
        + count.saturating_sub(1);
    let over = total > budget;
    let mut left = if over {
        budget as i64
            - (OWN_FIXED_COLUMNS
                + flexible_name_only
                + names.iter().map(|name| name_only(name)).sum::<usize>()
                + count.saturating_sub(1)) as i64
    } else {
        0
    };
    let mut lines = Vec::with_capacity(shown.len());
    for ((index, name), (text, capped)) in shown.into_iter().zip(names).zip(texts) {
        let keep = if over {
            let extra = (full(&name, &text) - name_only(&name)) as i64;
            let fits = extra <= left;
            if fits {
                left -= extra;
            }
            fits
        } else {
            true
        };
        let fate = match (keep, capped) {
            (false, _) => Fate::NameOnly,
            (true, true) => Fate::Capped,
            (true, false) => Fate::Full,
        };
        lines.push(Line {
            index,
            name,
            description: keep.then_some(text),
            fate,
        });
    }
    (lines, omitted)
}

/// Why a candidate is not in the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Omitted {
    /// An earlier root holds a skill folder of the same name (the candidate's index).
    Shadowed(usize),
    /// Kept from the model, with the name it would be listed under (the user's slash command
    /// answers to it, as to a listed skill's).
    Hidden(Hidden, String),
}

/// The folder name, followed by ` (name)` when the frontmatter names the skill differently
/// with a usable name that resolves to this skill in Claude Code's command table: no built-in
/// command has the name, no other skill's folder is the name (searched first, wherever it
/// sorts), and no skill before it has it as its frontmatter name. `all` are the skills in the
/// command table, in order: the listed and the model-hidden ones, not the path-scoped ones,
/// which join the table only once a matching file is touched.
fn listed_name(candidates: &[Candidate<'_>], all: &[usize], index: usize) -> String {
    let folder = candidates[index].folder;
    let Some(name) = candidates[index].reading.display_name.as_deref() else {
        return folder.to_owned();
    };
    let usable = name != folder
        && !folder.ends_with(&format!(":{name}"))
        && utf16_len(name) <= NAME_LIMIT
        && name
            .chars()
            .all(|c| c == '_' || c == ':' || c == '.' || c == '-' || js::is_letter_mark_number(c));
    if !usable || super::claude_code_command(name) {
        return folder.to_owned();
    }
    let by_folder = all
        .iter()
        .copied()
        .find(|&other| candidates[other].folder == name);
    let resolved = by_folder.or_else(|| {
        all.iter()
            .copied()
            .find(|&other| candidates[other].reading.display_name.as_deref() == Some(name))
    });
    if resolved.is_none_or(|found| found == index) {
        format!("{folder} ({name})")
    } else {
        folder.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_closes_at_the_first_three_dashes() {
        let reading = read("---\nname: x\ndescription: a---b end\n---\nbody\n");
        assert_eq!(reading.text, "a");
    }

    #[test]
    fn unquoted_colons_and_flow_syntax_are_repaired() {
        let reading = read(
            "---\nname: x\ndescription: Use when: asked\nargument-hint: [METHOD] [/path] [description]\n---\nb\n",
        );
        assert_eq!(reading.text, "Use when: asked");
        assert!(!reading.frontmatter_ignored);
        let reading = read("---\nname: x\ndescription: \"unterminated\n---\nQuote body\n");
        assert!(reading.frontmatter_ignored);
        assert_eq!(
            (reading.text.as_str(), reading.display_name),
            ("Quote body", None)
        );
    }

    #[test]
    fn descriptions_are_cleaned_and_escaped() {
        let reading =
            read("---\ndescription: \"a  b\\tc <x> & d\"\nwhen_to_use: |\n  multi\n  line\n---\n");
        assert_eq!(reading.text, "a  b c &lt;x&gt; & d - multi line ");
        let reading = read("---\ndescription: 42.50\n---\n");
        assert_eq!(reading.text, "42.5");
        let reading = read("---\nname: n\n---\n\n## Heading   here\nmore\n");
        assert_eq!(
            (reading.text.as_str(), reading.from_body),
            ("Heading   here", true)
        );
        assert_eq!(read("# No frontmatter\n").text, "No frontmatter");
    }

    #[test]
    fn hidden_skills() {
        for (value, hidden) in [
            ("true", true),
            ("\"yes\"", true),
            ("1", true),
            ("On", true),
            ("no", false),
            ("false", false),
        ] {
            let reading = read(&format!(
                "---\ndescription: d\ndisable-model-invocation: {value}\n---\n"
            ));
            assert_eq!(reading.hidden.is_some(), hidden, "{value}");
        }
        assert_eq!(
            read("---\ndescription: d\npaths: [\"*.py\"]\n---\n").hidden,
            Some(Hidden::PathScoped)
        );
        assert_eq!(
            read("---\ndescription: d\npaths: [\"**\"]\n---\n").hidden,
            None
        );
    }

    /// The names of a listing of `(folder, SKILL.md text)` skills, in order.
    fn names(skills: &[(&str, &str)]) -> Vec<String> {
        let readings: Vec<Reading> = skills.iter().map(|(_, text)| read(text)).collect();
        let candidates: Vec<Candidate<'_>> = skills
            .iter()
            .zip(&readings)
            .map(|((folder, _), reading)| Candidate {
                folder,
                reading,
                group: 0,
            })
            .collect();
        listing(&candidates, DEFAULT_BUDGET)
            .0
            .into_iter()
            .map(|line| line.name)
            .collect()
    }

    #[test]
    fn the_name_is_shown_when_it_leads_to_this_skill_alone() {
        let named = |name: &str| format!("---\nname: {name}\ndescription: d\n---\n");
        assert_eq!(
            names(&[("Folder", &named("folder-name"))]),
            ["Folder (folder-name)"]
        );
        // A built-in command answers to it (not only Claude Code's own skills).
        assert_eq!(names(&[("wf", &named("workflows"))]), ["wf"]);
        assert_eq!(names(&[("ctx", &named("context"))]), ["ctx"]);
        // Another skill's folder wins, wherever it sorts.
        assert_eq!(
            names(&[
                ("a-first", &named("b-second")),
                ("b-second", "---\ndescription: d\n---\n")
            ]),
            ["a-first", "b-second"]
        );
        // Two frontmatter names: the first in order keeps it.
        assert_eq!(
            names(&[("a", &named("same")), ("b", &named("same"))]),
            ["a (same)", "b"]
        );
        // A path-scoped skill is no command until a matching file is touched; a model-hidden one is.
        let scoped = "---\nname: shared\ndescription: d\npaths: [\"*.py\"]\n---\n";
        assert_eq!(
            names(&[("a-scoped", scoped), ("b-skill", &named("shared"))]),
            ["b-skill (shared)"]
        );
        let manual = "---\nname: shared\ndescription: d\ndisable-model-invocation: true\n---\n";
        assert_eq!(
            names(&[("a-manual", manual), ("b-skill", &named("shared"))]),
            ["b-skill"]
        );
    }
}
