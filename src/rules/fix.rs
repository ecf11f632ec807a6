//! Writing YAML values for fixes, and checking that a fix parses back to what was meant.

use crate::clients::ClientReading;
use crate::diagnostic::{Diagnostic, Edit, Rename, Severity, apply_edits};
use crate::document::SkillDocument;
use crate::document::yaml::{ScalarType, core_type, yaml11_only_type};
use crate::rules::Group;
use crate::text::TextRange;

/// How `ch` is written inside a quoted scalar; `None` when it stands for itself.
#[must_use]
pub(crate) fn escape(ch: char, single: bool) -> Option<String> {
    if single {
        return (ch == '\'').then(|| "''".to_owned());
    }
    match ch {
        '\\' => Some("\\\\".to_owned()),
        '"' => Some("\\\"".to_owned()),
        '\n' => Some("\\n".to_owned()),
        '\r' => Some("\\r".to_owned()),
        '\t' => Some("\\t".to_owned()),
        ch if ch.is_control() || ch == '\u{feff}' => Some(format!("\\u{:04X}", u32::from(ch))),
        _ => None,
    }
}

fn quote_with(value: &str, single: bool) -> String {
    let mark = if single { '\'' } else { '"' };
    let mut out = String::with_capacity(value.len() + 2);
    out.push(mark);
    for ch in value.chars() {
        match escape(ch, single) {
            Some(escaped) => out.push_str(&escaped),
            None => out.push(ch),
        }
    }
    out.push(mark);
    out
}

/// Whether `quoted` picks single quotes: when `value` holds `"` but no `'` and nothing that
/// needs an escape.
#[must_use]
pub(crate) fn prefers_single_quotes(value: &str) -> bool {
    value.contains('"')
        && !value.contains('\'')
        && !value.chars().any(|ch| ch.is_control() || ch == '\u{feff}')
}

/// The most readable quoting of `value`: single quotes when it holds `"` but no `'`, else double.
#[must_use]
pub(crate) fn quoted(value: &str) -> String {
    quote_with(value, prefers_single_quotes(value))
}

/// `value` as a YAML string: plain when that reads back as the same string under YAML 1.1 and
/// 1.2, quoted otherwise.
#[must_use]
pub(crate) fn yaml_string(value: &str) -> String {
    let plain_safe = !value.is_empty()
        && core_type(value) == ScalarType::Str
        && yaml11_only_type(value).is_none()
        && value.trim() == value
        && !value.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%',
            '@', '`',
        ])
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && !value.chars().any(|ch| ch.is_control() || ch == '\u{feff}');
    if plain_safe {
        value.to_owned()
    } else {
        quoted(value)
    }
}

/// `text` with its frontmatter's `description` value replaced by `description` (plain or
/// quoted as YAML needs), everything else byte for byte; `None` when there is no description
/// to replace or the result would not read back as exactly `description` with the same keys.
#[must_use]
pub(crate) fn with_description(text: &str, description: &str) -> Option<String> {
    let edit = description_edit(text, description)?;
    apply_edits(text, &[edit]).ok()
}

/// The one edit [`with_description`] makes, for a front end that sends edits rather than text
/// (the editor's "Improve the description" applies it to the open buffer).
#[must_use]
pub(crate) fn description_edit(text: &str, description: &str) -> Option<Edit> {
    let document = SkillDocument::parse(text);
    let entry = document.field("description")?;
    let keys = |document: &SkillDocument| {
        document
            .mapping()
            .and_then(|mapping| mapping.as_mapping())
            .map(|entries| {
                entries
                    .iter()
                    .map(|entry| entry.key.as_str().map(str::to_owned))
                    .collect::<Vec<_>>()
            })
    };
    let before = keys(&document);
    let edit = Edit::replace(entry.value.range, yaml_string(description));
    let ok = verify(text, std::slice::from_ref(&edit), |_, changed| {
        keys(changed) == before
            && changed
                .field("description")
                .and_then(|entry| entry.value.as_str())
                == Some(description)
    });
    ok.then_some(edit)
}

/// Applies `edits` to `text` and hands the re-parsed document to `check`; `false` when the edits
/// do not apply or `check` refuses the result. Fixes use this to prove they round-trip. The
/// checks read the frontmatter, so the body is not parsed ([`SkillDocument::parse_frontmatter`]).
pub(crate) fn verify(
    text: &str,
    edits: &[Edit],
    check: impl Fn(&str, &SkillDocument) -> bool,
) -> bool {
    match apply_edits(text, edits) {
        Ok(new_text) => {
            let document = SkillDocument::parse_frontmatter(&new_text);
            check(&new_text, &document)
        }
        Err(_) => false,
    }
}

/// Turns any text into a valid skill name: lowercase ASCII letters, digits and single hyphens,
/// The offset just past the line ending (`\n`) of the line holding `offset`: where an edit that
/// removes or moves whole lines ends.
/// The whole line of a top-level entry whose value stays on it (`key: value` at column 0), line
/// break included: what an edit that removes or moves the entry takes. `None` for an entry
/// that is indented or spans lines.
#[must_use]
pub(crate) fn entry_line(text: &str, entry: &crate::document::yaml::Entry) -> Option<TextRange> {
    let line_start = text[..entry.key.range.start]
        .rfind('\n')
        .map_or(0, |at| at + 1);
    if line_start != entry.key.range.start || text[entry.value.range.as_range()].contains('\n') {
        return None;
    }
    Some(TextRange::new(
        line_start,
        line_end_after(text, entry.value.range.end),
    ))
}

#[must_use]
pub(crate) fn line_end_after(text: &str, offset: usize) -> usize {
    text[offset..]
        .find('\n')
        .map_or(text.len(), |at| offset + at + 1)
}

/// at most 64 characters.
#[must_use]
pub(crate) fn normalise_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut previous_hyphen = true;
    let mut previous_lower = false;
    for ch in name.trim().chars() {
        // `camelCase` and `PascalCase` split at the case change.
        if ch.is_ascii_uppercase() && previous_lower && !previous_hyphen {
            out.push('-');
        }
        previous_lower = ch.is_ascii_lowercase() || ch.is_ascii_digit();
        let lower = ch.to_ascii_lowercase();
        if lower.is_ascii_lowercase() || lower.is_ascii_digit() {
            out.push(lower);
            previous_hyphen = false;
        } else if !previous_hyphen {
            out.push('-');
            previous_hyphen = true;
        }
    }
    let mut out = out.trim_end_matches('-').to_owned();
    if out.len() > 64 {
        out.truncate(64);
        out = out.trim_end_matches('-').to_owned();
    }
    out
}

/// How many rounds of fix-and-relint a text gets; fixes that enable other fixes need a few.
const MAX_ROUNDS: usize = 8;

/// Errors in the frontmatter's structure; a fix must never add one.
fn structural_errors(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.rule.group() == Group::File && d.severity == Severity::Error)
        .count()
}

/// The safe edits of one round: the first safe fix of each finding, skipping any that overlap
/// an edit already taken.
fn safe_edits(diagnostics: &[Diagnostic]) -> (Vec<Edit>, usize, Option<Rename>) {
    let mut edits: Vec<Edit> = Vec::new();
    let mut count = 0;
    let mut rename = None;
    for diagnostic in diagnostics {
        let Some(fix) = diagnostic.fixes.iter().find(|fix| fix.safe) else {
            continue;
        };
        if let Some(planned) = &fix.rename {
            rename = Some(planned.clone());
            count += 1;
            continue;
        }
        let clashes = fix.edits.iter().any(|edit| {
            edits.iter().any(|taken| {
                taken.range.overlaps(edit.range) || taken.range.start == edit.range.start
            })
        });
        if fix.edits.is_empty() || clashes {
            continue;
        }
        edits.extend(fix.edits.iter().cloned());
        count += 1;
    }
    (edits, count, rename)
}

/// Leaves no fix safe that would remove a YAML comment: a fix whose edits replace frontmatter
/// text holding a comment (`- Read  # why` inside a list rewritten as a string, `# note` after a
/// value that gets quoted, which would put the note into the value) is still offered in the
/// editor, but `check --fix` and fix-all keep their hands off it.
///
/// A `#` is a comment only where the YAML parses: a line that does not (an unquoted `: `) is
/// read whole by the clients that repair it, `# …` included, and its fix keeps it so. The
/// readings that lint past such a line or an unclosed block call this on their own parse.
pub(crate) fn keep_comments(
    text: &str,
    document: &crate::document::SkillDocument,
    diagnostics: &mut [Diagnostic],
) {
    let parsed = document
        .yaml
        .as_ref()
        .is_some_and(|yaml| yaml.error.is_none());
    let Some(yaml) = document.yaml_range().filter(|_| parsed) else {
        return;
    };
    for fix in diagnostics
        .iter_mut()
        .flat_map(|diagnostic| diagnostic.fixes.iter_mut())
        .filter(|fix| fix.safe)
    {
        let eats_comment = fix.edits.iter().any(|edit| {
            let start = edit.range.start.max(yaml.start);
            let end = edit.range.end.min(yaml.end);
            start < end && text.get(start..end).is_some_and(holds_comment)
        });
        if eats_comment {
            fix.safe = false;
        }
    }
}

/// What a fix does to one client's reading of the skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// It reads the skill as before, or now reads the frontmatter of one it refused or read
    /// through its fallback.
    Same,
    /// It reads the skill as before under another name: it lists it, and the user types it, so.
    Renamed,
    /// Anything else: another description, a switch flipped, the skill dropped.
    Other,
}

/// Compares one client's readings before and after a fix of the SKILL.md in `folder`.
fn change<R: ClientReading>(before: Option<&R>, after: Option<&R>, folder: &str) -> Change {
    let (Some(before), Some(after)) = (before, after) else {
        return Change::Same;
    };
    if before == after || (!before.reads_frontmatter() && after.reads_frontmatter()) {
        Change::Same
    } else if before.unnamed() != after.unnamed() {
        Change::Other
    } else if before.name_in(folder) == after.name_in(folder) {
        // The folder's name written out where it stood in for the missing one.
        Change::Same
    } else {
        Change::Renamed
    }
}

/// The worst change a fix makes to what the modelled clients read (the one reading of each
/// client, the same that lists the skill), and the clients it makes that change for.
fn worst_change(
    before: &crate::clients::Readings,
    after: &crate::clients::Readings,
    folder: &str,
) -> (Change, Vec<crate::targets::Client>) {
    // In the order of `crate::clients::MODELLED`.
    let changes = [
        change(before.claude.as_deref(), after.claude.as_deref(), folder),
        change(before.codex.as_deref(), after.codex.as_deref(), folder),
        change(before.copilot.as_deref(), after.copilot.as_deref(), folder),
        change(
            before.opencode.as_deref(),
            after.opencode.as_deref(),
            folder,
        ),
        change(before.gemini.as_deref(), after.gemini.as_deref(), folder),
    ];
    let worst = if changes.contains(&Change::Other) {
        Change::Other
    } else if changes.contains(&Change::Renamed) {
        Change::Renamed
    } else {
        Change::Same
    };
    let whom = crate::clients::MODELLED
        .into_iter()
        .zip(changes)
        .filter(|(_, change)| *change == worst)
        .map(|(client, _)| client)
        .collect();
    (worst, whom)
}

/// No fix changes what a client that reads the skill does with it: each fix is applied and the
/// skill read again as each modelled client among `targets` reads it (`document` is `text`
/// parsed; `folder` is the name of the SKILL.md's folder, which clients list a skill without a
/// name under). A fix after which a client reads it otherwise (another description, a switch
/// flipped, the skill dropped) is withdrawn, unless it was made to ([`Fix::changes_reading`]:
/// its title says how) and then it is the editor's only; one after which a client lists it
/// under another name stays for the editor only, its title saying so. A client that refused
/// the skill, or fell back to its folder and body, and now reads its frontmatter counts as
/// unchanged: that is what the fix is for.
pub(crate) fn keep_readings(
    text: &str,
    document: &SkillDocument,
    folder: &str,
    targets: &[crate::targets::Client],
    diagnostics: &mut [Diagnostic],
) {
    use crate::clients::Readings;
    // Each fix costs a reading of the whole file. Past this many bytes read in all (a file of
    // thousands of fixable findings), the fixes cannot be shown harmless in time: none is
    // offered, which changes nothing for any client.
    const READING_BUDGET: usize = 32 << 20;
    let fixes: usize = diagnostics
        .iter()
        .map(|diagnostic| diagnostic.fixes.len())
        .sum();
    if fixes.saturating_mul(text.len().max(1)) > READING_BUDGET {
        for diagnostic in diagnostics.iter_mut() {
            diagnostic.fixes.clear();
        }
        return;
    }
    let clients = crate::targets::ClientSet::of(targets.iter().copied());
    let mut before: Option<Readings> = None;
    for diagnostic in diagnostics.iter_mut() {
        if diagnostic.fixes.is_empty() {
            continue;
        }
        // The file as it is: the linter's parse of its frontmatter serves the readings too.
        let before = before.get_or_insert_with(|| {
            let parsed = document.yaml_range().zip(document.yaml.as_ref());
            Readings::read(text, parsed, clients)
        });
        diagnostic.fixes.retain_mut(|fix| {
            let Ok(after_text) = apply_edits(text, &fix.edits) else {
                return true;
            };
            let after = Readings::read(&after_text, None, clients);
            match worst_change(before, &after, folder) {
                (Change::Same, _) => true,
                (Change::Renamed, whom) => {
                    let names: Vec<&str> = whom.iter().map(|client| client.display()).collect();
                    fix.safe = false;
                    fix.title.push_str(&format!(
                        " (renames the skill in {})",
                        crate::targets::join_names(&names)
                    ));
                    true
                }
                (Change::Other, _) if fix.changes_reading => {
                    fix.safe = false;
                    true
                }
                (Change::Other, _) => false,
            }
        });
    }
}

/// Whether YAML text holds a comment: a `#` at the start of a line or after white space, outside
/// quotes (judged line by line; a `#` inside a block scalar counts too, which errs on the side
/// of keeping the text).
fn holds_comment(yaml: &str) -> bool {
    yaml.lines().any(|line| {
        let mut quote = None;
        let mut previous = ' ';
        for c in line.chars() {
            match (quote, c) {
                (None, '#') if previous.is_whitespace() => return true,
                (None, '"' | '\'') => quote = Some(c),
                (Some(open), _) if c == open => quote = None,
                _ => {}
            }
            previous = c;
        }
        false
    })
}

/// What applying every safe fix to a text gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixOutcome {
    pub text: String,
    /// How many fixes were applied (a rename counts once).
    pub(crate) applied: usize,
    /// A file rename the fixes ask for (`skill-md-case`).
    pub(crate) rename: Option<Rename>,
}

/// Applies the safe fixes of `lint`'s findings round by round until nothing changes. A round
/// that would add a structural error (a frontmatter that no longer parses) is not taken, so the
/// result always re-parses at least as well as the input. `check --fix` and the editor's
/// fix-all both run this.
pub fn fix_all(original: &str, lint: impl Fn(&str) -> Vec<Diagnostic>) -> FixOutcome {
    let mut text = original.to_owned();
    let mut applied = 0;
    let mut rename = None;
    for _ in 0..MAX_ROUNDS {
        let diagnostics = lint(&text);
        let (edits, count, planned) = safe_edits(&diagnostics);
        rename = rename.or(planned);
        if edits.is_empty() {
            break;
        }
        let Ok(candidate) = apply_edits(&text, &edits) else {
            break;
        };
        if structural_errors(&lint(&candidate)) > structural_errors(&diagnostics)
            || candidate == text
        {
            break;
        }
        applied += count;
        text = candidate;
    }
    if rename.is_some() && applied == 0 {
        applied = 1;
    }
    FixOutcome {
        text,
        applied,
        rename,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::yaml;
    use crate::text::TextRange;

    fn reads_back(scalar: &str) -> Option<String> {
        let text = format!("k: {scalar}\n");
        let document = yaml::parse(&text, TextRange::new(0, text.len()));
        let value = document.root?.get("k")?.value.clone();
        value
            .is_string()
            .then(|| value.as_str().unwrap().to_owned())
    }

    #[test]
    fn quoting_round_trips() {
        for value in [
            "Use when: the user asks",
            "say \"hi\" # not a comment",
            "it's \"both\"",
            "back\\slash",
            "日本語: テキスト",
            "yes",
            "1.0",
            "- dash",
            "tab\there",
            "",
        ] {
            assert_eq!(
                reads_back(&quoted(value)).as_deref(),
                Some(value),
                "{value}"
            );
            assert_eq!(
                reads_back(&yaml_string(value)).as_deref(),
                Some(value),
                "{value}"
            );
        }
    }

    #[test]
    fn plain_when_safe() {
        assert_eq!(yaml_string("pdf-tools"), "pdf-tools");
        assert_eq!(yaml_string("no"), "\"no\"");
        assert_eq!(yaml_string("3000"), "\"3000\"");
    }

    #[test]
    fn names_normalise() {
        assert_eq!(normalise_name("PDF Tools"), "pdf-tools");
        assert_eq!(normalise_name("myCoolSkill"), "my-cool-skill");
        assert_eq!(normalise_name("--a__b--"), "a-b");
        assert_eq!(normalise_name("ns:skill.v2"), "ns-skill-v2");
        assert_eq!(normalise_name(&"x".repeat(70)).len(), 64);
    }
}
