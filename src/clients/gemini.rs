//! How Gemini CLI (0.61.0) reads one SKILL.md and lists its skills to the model, measured
//! against the real client (`tests/clients`): its frontmatter pattern, YAML with a line-based
//! fallback that takes almost anything, its name clean-up, and its listing (every skill, whole,
//! as written, one per name).

use crate::document::yaml::{self, Node, NodeKind, Style};
use crate::text::TextRange;

/// The version every fact here was measured against.
pub(crate) const VERSION: &str = "0.61.0";

/// What Gemini CLI reads from one SKILL.md: `None` when it drops the file (no frontmatter at the
/// very top, or no name or description even for its fallback reader).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reading(pub(crate) Option<Loaded>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Loaded {
    /// The name with each of `:\/<>*?"|` turned into `-`.
    pub name: String,
    /// As written (YAML's string, or the fallback reader's text).
    pub description: String,
}

impl super::ClientReading for Reading {
    fn reads_frontmatter(&self) -> bool {
        self.0.is_some()
    }

    fn name_in(&self, folder: &str) -> String {
        self.0
            .as_ref()
            .map_or_else(|| folder.to_owned(), |loaded| loaded.name.clone())
    }

    fn unnamed(&self) -> Self {
        Reading(self.0.as_ref().map(|loaded| Loaded {
            name: String::new(),
            description: loaded.description.clone(),
        }))
    }
}

/// Reads a SKILL.md as Gemini CLI does.
#[must_use]
pub(crate) fn read(text: &str) -> Reading {
    let Some(range) = matter(text) else {
        return Reading(None);
    };
    let source = &text[range.as_range()];
    let document = yaml::parse(text, range);
    let strict = document
        .root
        .as_ref()
        .filter(|_| document.error.is_none())
        .filter(|root| !root.repeats_a_key())
        .and_then(|root| {
            let name = string(&root.get("name")?.value)?;
            let description = string(&root.get("description")?.value)?;
            Some((name.to_owned(), description.to_owned()))
        });
    let Some((name, description)) = strict.or_else(|| simple(source)) else {
        return Reading(None);
    };
    Reading(Some(Loaded {
        name: name
            .chars()
            .map(|c| {
                if matches!(c, ':' | '\\' | '/' | '<' | '>' | '*' | '?' | '"' | '|') {
                    '-'
                } else {
                    c
                }
            })
            .collect(),
        description,
    }))
}

/// `---` and a line break open the file; the YAML runs to the first line break (CRLF or LF)
/// followed by `---`.
fn matter(text: &str) -> Option<TextRange> {
    let rest = text
        .strip_prefix("---\r\n")
        .or_else(|| text.strip_prefix("---\n"))?;
    let start = text.len() - rest.len();
    let close = rest.find("\n---")?;
    let end = if close > 0 && rest.as_bytes()[close - 1] == b'\r' {
        close - 1
    } else {
        close
    };
    Some(TextRange::new(start, start + end))
}

/// A string to a JavaScript YAML reader: quoted, block, or plain text that is no null, boolean,
/// number or date.
fn string(node: &Node) -> Option<&str> {
    let NodeKind::Scalar { value, style } = &node.kind else {
        return None;
    };
    if *style != Style::Plain || node.tagged || !super::opencode::resolves_to_other_type(value) {
        Some(value)
    } else {
        None
    }
}

/// The fallback reader: the last `name:` line's text, trimmed; the last `description:` line's
/// text and the indented lines after it, trimmed and joined by spaces.
fn simple(source: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = source
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let (mut name, mut description) = (None, None);
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let key = line.trim_start_matches(js_space);
        if let Some(value) = key.strip_prefix("name:") {
            name = Some(value.trim_matches(js_space).to_owned());
        } else if let Some(value) = key.strip_prefix("description:") {
            let mut parts = vec![value.trim_matches(js_space)];
            while let Some(next) = lines.get(index + 1) {
                let continues = next.starts_with([' ', '\t'])
                    && next
                        .trim_start_matches([' ', '\t'])
                        .starts_with(|c: char| !js_space(c));
                if !continues {
                    break;
                }
                parts.push(next.trim_matches(js_space));
                index += 1;
            }
            description = Some(
                parts
                    .into_iter()
                    .filter(|part| !part.is_empty())
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        index += 1;
    }
    Some((name?, description?))
}

fn js_space(c: char) -> bool {
    super::js::is_js_space(c)
}

/// One loaded skill as Gemini CLI's listing sees it, in the order it found them
/// (`.gemini/skills`, then `.agents/skills`).
#[derive(Clone, Debug)]
pub(crate) struct Candidate<'a> {
    pub name: &'a str,
}

/// Gemini CLI's listing: one line per name, at the place the name was first found, for the
/// copy found last. Returns, per listed line, the index whose text is listed, and the indexes
/// replaced by a later copy.
#[must_use]
pub(crate) fn listing(candidates: &[Candidate<'_>]) -> (Vec<usize>, Vec<(usize, usize)>) {
    let mut order: Vec<usize> = Vec::new();
    let mut slot: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut replaced = Vec::new();
    for (index, candidate) in candidates.iter().enumerate() {
        match slot.get(candidate.name) {
            Some(&at) => {
                replaced.push((order[at], index));
                order[at] = index;
            }
            None => {
                slot.insert(candidate.name, order.len());
                order.push(index);
            }
        }
    }
    (order, replaced)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> (String, String) {
        let Reading(Some(loaded)) = read(text) else {
            panic!("{text:?}");
        };
        (loaded.name, loaded.description)
    }

    #[test]
    fn strict_then_line_based() {
        assert_eq!(
            loaded("---\nname: a:b\ndescription: |\n  x\n  y\n---\n"),
            ("a-b".into(), "x\ny\n".into())
        );
        assert_eq!(
            loaded("---\nname: a\ndescription: Use when: asked\n---\n"),
            ("a".into(), "Use when: asked".into())
        );
        assert_eq!(
            loaded("---\nname: a\ndescription:\n  - x\n  - y\n---\n"),
            ("a".into(), "- x - y".into())
        );
        assert_eq!(
            loaded("---\nname: 3000\ndescription: \"q\"\n---\n"),
            ("3000".into(), "\"q\"".into())
        );
        assert_eq!(
            read("\u{feff}---\nname: a\ndescription: d\n---\n"),
            Reading(None)
        );
        assert_eq!(read("---  \nname: a\ndescription: d\n---\n"), Reading(None));
        assert_eq!(read("---\nname: a\n---\nbody\n"), Reading(None));
    }
}
