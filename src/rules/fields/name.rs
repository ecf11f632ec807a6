//! The `name` rules: missing, empty, length, characters, the folder, reserved words.

use super::*;

/// What skills-ref validates as the name: the value with surrounding whitespace stripped.
fn skills_ref_name(name: &str) -> Cow<'_, str> {
    nfkc(name.trim())
}

/// skills-ref compares names and folders in Unicode compatibility form: a name typed
/// precomposed matches a folder that macOS stored decomposed, and `ｐｄｆ` is `pdf`.
fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    icu_normalizer::ComposingNormalizerBorrowed::new_nfkc().normalize(text)
}

/// skills-ref's character rule: lowercase, letters (any script), digits and single inner
/// hyphens; stricter clients allow ASCII only.
fn skills_ref_accepts_format(name: &str) -> bool {
    let name = skills_ref_name(name);
    let name = name.as_ref();
    !name.is_empty()
        && name.to_lowercase() == name
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.chars().all(|ch| ch.is_alphanumeric() || ch == '-')
}

/// How a client takes a missing or empty `name`.
fn no_name(target: Client) -> Effect {
    match target {
        Client::ClaudeCode | Client::Codex => {
            Effect::Fine("uses the folder name", "use the folder name")
        }
        other => other.refusal(),
    }
}

/// The `name` rules, each in its own function below.
pub(super) fn name_rules(checker: &mut Checker<'_>, root: &Node) {
    let Some(entry) = root.get("name") else {
        missing_name(checker);
        return;
    };
    let value = &entry.value;
    // `field-type` covers collections; a scalar of another type (`name: 3000`) is still the
    // text skills-ref compares, so the name checks run on it too.
    let Some(name) = value.as_str() else {
        return;
    };
    if name.trim().is_empty() {
        empty_name(checker, entry, name);
        return;
    }
    name_length(checker, value, name);
    name_format(checker, value, name);
    name_mismatch(checker, value, name);
    reserved_word(checker, value, name);
}

/// The folder's name when it is a valid skill name: what a fix may set `name` to.
fn valid_folder(checker: &Checker<'_>) -> Option<String> {
    folder_name(checker).filter(|folder| crate::field_table::is_valid_skill_name(folder))
}

/// A fix that sets the value to the folder's name (`{}` in `title` stands for it).
fn set_to_folder(checker: &Checker<'_>, value: &Node, title: &str, safe: bool) -> Vec<Fix> {
    valid_folder(checker)
        .map(|folder| {
            vec![Fix::new(
                title.replace("{}", &folder),
                safe,
                vec![Edit::replace(value.range, yaml_string(&folder))],
            )]
        })
        .unwrap_or_default()
}

/// `missing-name`.
fn missing_name(checker: &mut Checker<'_>) {
    let fixes = match (valid_folder(checker), insert_point(checker)) {
        (Some(folder), Some(at)) => vec![Fix::new(
            format!("Insert 'name: {folder}'"),
            true,
            vec![Edit::insert(
                at,
                format!("name: {folder}{}", checker.document.newline()),
            )],
        )],
        _ => Vec::new(),
    };
    let open = opening_line(checker);
    checker.report(
        Rule::MissingName,
        open,
        "the frontmatter has no name field",
        no_name,
        fixes,
    );
}

/// An empty name is `field-type`: the loader falls back to the folder name.
fn empty_name(checker: &mut Checker<'_>, entry: &Entry, name: &str) {
    let value = &entry.value;
    let fixes = set_to_folder(checker, value, "Set name to '{}'", true);
    checker.report(
        Rule::FieldType,
        if name.is_empty() && !value.is_string() {
            entry.key.range
        } else {
            value.range
        },
        "name is empty",
        no_name,
        fixes,
    );
}

/// `name-length`.
fn name_length(checker: &mut Checker<'_>, value: &Node, name: &str) {
    let chars = name.chars().count();
    if chars <= NAME_MAX {
        return;
    }
    let stripped_fits = skills_ref_name(name).chars().count() <= NAME_MAX;
    checker.report(
        Rule::NameLength,
        past_limit(checker.text, value, NAME_MAX),
        format!("name is {chars} characters long; the limit is {NAME_MAX}"),
        move |target| match target {
            Client::ClaudeCode | Client::Gemini => Effect::Load,
            Client::AgentSkills if stripped_fits => Effect::Load,
            other => other.refusal(),
        },
        Vec::new(),
    );
}

/// `name-format`.
fn name_format(checker: &mut Checker<'_>, value: &Node, name: &str) {
    if crate::field_table::has_valid_name_characters(name) {
        return;
    }
    let skills_ref_ok = skills_ref_accepts_format(name);
    let normalised = normalise_name(name);
    let fixes = if normalised.is_empty() {
        Vec::new()
    } else {
        let safe = folder_name(checker).as_deref() == Some(normalised.as_str());
        vec![Fix::new(
            format!("Change name to '{normalised}'"),
            safe,
            vec![Edit::replace(value.range, yaml_string(&normalised))],
        )]
    };
    checker.report(
        Rule::NameFormat,
        value.range,
        if normalised.is_empty() {
            format!(
                "name '{name}' must use only lowercase letters, digits and single hyphens, not at the start or end"
            )
        } else {
            format!(
                "name '{name}' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: '{normalised}')"
            )
        },
        move |target| match target {
            Client::ClaudeCode | Client::Codex | Client::Gemini => Effect::Load,
            Client::AgentSkills if skills_ref_ok => Effect::Degrade(
                "accepts it, but stricter clients allow only a-z, 0-9 and hyphens",
                "accept it, but stricter clients allow only a-z, 0-9 and hyphens",
            ),
            other => other.refusal(),
        },
        fixes,
    );
}

/// `name-mismatch`.
fn name_mismatch(checker: &mut Checker<'_>, value: &Node, name: &str) {
    let Some(folder) = folder_name(checker) else {
        return;
    };
    if name == folder {
        return;
    }
    let fixes = set_to_folder(checker, value, &format!("Rename to '{folder}'"), true);
    let skills_ref_matches = skills_ref_name(name) == nfkc(&folder);
    let message = if nfkc(name) == nfkc(&folder) {
        format!(
            "name '{name}' and its folder '{folder}' look alike but are written with different Unicode characters (for example a composed and a decomposed accent)"
        )
    } else {
        format!("name '{name}' does not match its folder '{folder}'")
    };
    checker.report(
        Rule::NameMismatch,
        value.range,
        message,
        move |target| match target {
            Client::AgentSkills if skills_ref_matches => Effect::Load,
            Client::AgentSkills | Client::Copilot | Client::OpenCode => target.refusal(),
            _ => Effect::Load,
        },
        fixes,
    );
}

/// `reserved-word`.
fn reserved_word(checker: &mut Checker<'_>, value: &Node, name: &str) {
    let lower = name.to_lowercase();
    let Some(word) = ["claude", "anthropic"]
        .into_iter()
        .find(|word| lower.contains(word))
    else {
        return;
    };
    checker.report(
        Rule::ReservedWord,
        value.range,
        format!("name '{name}' contains the reserved word '{word}'"),
        |target| match target {
            Client::ClaudeUpload => Effect::Reject,
            _ => Effect::Load,
        },
        Vec::new(),
    );
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::MissingName => RuleDoc::new(
            "A target requires `name` and it is absent.",
            "The spec, Copilot, OpenCode and Gemini CLI need `name`; Claude Code and Codex fall back to the folder name.",
            "A frontmatter with only `description`.",
            "Insert `name:` with the folder name (safe when the folder name is a valid name).",
        ),
        Rule::NameLength => RuleDoc::new(
            "`name` is longer than 64 characters.",
            "The spec, Codex, Copilot and OpenCode reject longer names.",
            "A 70-character name.",
            "Shorten the name (and the folder).",
        ),
        Rule::NameFormat => RuleDoc::new(
            "`name` has characters other than lowercase a-z, 0-9 and single hyphens inside.",
            "Copilot silently fails to load such skills and uploads reject them. skills-ref strips surrounding spaces and accepts lowercase letters of any script (`café`), which stricter clients refuse.",
            "`name: PDF Tools`",
            "Use the normalised name shown in the message (safe when it equals the folder name).",
        ),
        Rule::NameMismatch => RuleDoc::new(
            "`name` differs from the parent folder's name.",
            "The spec, Copilot and OpenCode require the two to match and skip the skill otherwise. skills-ref compares them in Unicode compatibility form (NFKC), so a composed `é` in `name` matches a folder that macOS stored decomposed; other clients compare the characters as written.",
            "`skills/pdf/SKILL.md` with `name: pdf-tools`.",
            "Set `name` to the folder name (safe), or rename the folder.",
        ),
        Rule::ReservedWord => RuleDoc::new(
            "`name` contains `claude` or `anthropic`.",
            "claude.ai and API uploads reject such names.",
            "`name: claude-helper`",
            "Choose a name without the reserved words.",
        ),
        _ => return None,
    })
}
