//! The `description` rules: missing, empty, length, a trigger, angle brackets.

use super::*;

const TRIGGERS: &[&str] = &[
    "use when",
    "use after",
    "use before",
    "use only when",
    "use only for",
    "use this",
    "skill when",
    "when claude",
    "when the agent",
    "when an agent",
    "use it",
    "use for",
    "used when",
    "used for",
    "when the user",
    "when a user",
    "when user",
    "when you",
    "when asked",
    "when working",
    "when the task",
    "whenever",
    "trigger",
    "invoke",
    "if the user",
    "if you need",
    "for tasks",
    // Chinese: "use when the user …", "(use) when …", "applies to", "used for".
    "当用户",
    "时使用",
    "时调用",
    "时触发",
    "适用于",
    "用于",
    "使用场景",
    "触发",
    // Japanese: "use when …", "in the case of …", "trigger".
    "に使用",
    "ときに",
    "場合に",
    "際に",
    "トリガー",
    // Korean: "use when …", "in the case of …", "trigger".
    "때 사용",
    "사용할 때",
    "경우 사용",
    "경우에 사용",
    "트리거",
    // Spanish and Portuguese.
    "cuando el usuario",
    "usar cuando",
    "usa cuando",
    "úsalo",
    "utiliza cuando",
    "utilizar cuando",
    "usar para",
    "quando o usuário",
    "quando o utilizador",
    "usar quando",
    "use quando",
    "utilize quando",
    "utilizar quando",
    // French.
    "lorsque",
    "quand l'utilisateur",
    "à utiliser",
    "à charger",
    "dès que",
    "dès qu'",
    "utiliser quand",
    "utilisez",
    // German.
    "verwenden, wenn",
    "verwenden wenn",
    "verwende",
    "wenn der benutzer",
    "wenn der nutzer",
    "wenn nutzer",
    "einsetzen, wenn",
    "nutzen, wenn",
    // Russian.
    "используй",
    "используйте",
    "использовать, когда",
    "использовать когда",
    "когда пользователь",
    "применяй",
];

/// Whether the description is written mostly in a script whose "use when" phrasing the rule
/// does not know (Arabic, Hebrew, Devanagari, Thai, …): it stands aside rather than guess.
fn unreadable_script(description: &str) -> bool {
    let letters: Vec<char> = description
        .chars()
        .filter(|ch| ch.is_alphabetic())
        .collect();
    let known = |ch: &char| {
        ch.is_ascii()
            || matches!(*ch as u32,
                0x00C0..=0x024F // Latin with accents
                | 0x0400..=0x04FF // Cyrillic
                | 0x3040..=0x30FF // Hiragana, Katakana
                | 0x3400..=0x9FFF // Han
                | 0xAC00..=0xD7AF // Hangul
                | 0xF900..=0xFAFF)
    };
    let unknown = letters.iter().filter(|ch| !known(ch)).count();
    unknown * 2 > letters.len()
}

/// "Use" and a moment, with adverbs between ("Use immediately after a deploy", "Use
/// proactively when …"): a trigger the fixed phrases above do not spell.
static USE_AT_A_MOMENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?:use|used|invoke|load|apply)\s+(?:[a-z]+ly\s+|only\s+|also\s+|always\s+)+(?:when|whenever|after|before|for|if|during|once|while)\b",
    )
    .expect("trigger expression compiles")
});

/// How a client takes a missing or empty `description`.
fn no_description(target: Client) -> Effect {
    match target {
        Client::ClaudeCode => Effect::Degrade(
            "uses the body's first line instead",
            "use the body's first line instead",
        ),
        other => other.refusal(),
    }
}

/// The `description` rules, each in its own function below.
pub(super) fn description_rules(checker: &mut Checker<'_>, root: &Node) {
    let Some(entry) = root.get("description") else {
        missing_description(checker, root);
        return;
    };
    let value = &entry.value;
    if !value.is_string() {
        if value.as_str() == Some("") {
            checker.report(
                Rule::DescriptionEmpty,
                entry.key.range,
                "description is empty",
                no_description,
                Vec::new(),
            );
        }
        return;
    }
    let description = value.as_str().unwrap_or_default();
    if description.trim().is_empty() {
        checker.report(
            Rule::DescriptionEmpty,
            value.range,
            "description is blank",
            no_description,
            Vec::new(),
        );
        return;
    }
    description_length(checker, value, description);
    description_trigger(checker, value, description);
    description_angle_brackets(checker, value, description);
}

/// `missing-description`, with a fix that inserts the body's first line after `name`.
fn missing_description(checker: &mut Checker<'_>, root: &Node) {
    let fixes = insert_point(checker)
        .map(|at| {
            let body = &checker.text[checker.document.split.body.as_range()];
            let guess = crate::workspace::loader::description_from_body(body);
            let after_name = root.get("name").map_or(at, |name| {
                line_end_after(checker.text, name.value.range.end.max(name.key.range.end))
            });
            vec![
                Fix::new(
                    "Insert a description",
                    false,
                    vec![Edit::insert(
                        after_name,
                        format!(
                            "description: {}{}",
                            quoted(&guess),
                            checker.document.newline()
                        ),
                    )],
                )
                // A first guess for the author to complete: what clients read is what they write.
                .changing_reading(),
            ]
        })
        .unwrap_or_default();
    let open = opening_line(checker);
    checker.report(
        Rule::MissingDescription,
        open,
        "the frontmatter has no description field",
        no_description,
        fixes,
    );
}

/// `description-length`: characters for every client, UTF-16 units for Copilot.
fn description_length(checker: &mut Checker<'_>, value: &Node, description: &str) {
    let chars = description.chars().count();
    if chars > DESCRIPTION_MAX {
        checker.report(
            Rule::DescriptionLength,
            past_limit(checker.text, value, DESCRIPTION_MAX),
            format!("description is {chars} characters long; the limit is {DESCRIPTION_MAX}"),
            |target| match target {
                Client::ClaudeCode | Client::Gemini => Effect::Load,
                Client::Codex => Effect::Degrade(
                    "lists only its first 1,021 characters and '...'",
                    "list only its first 1,021 characters and '...'",
                ),
                other => other.refusal(),
            },
            Vec::new(),
        );
    } else if crate::clients::js::utf16_len(description) > DESCRIPTION_MAX {
        // Copilot counts UTF-16 units: a character beyond the Basic Multilingual Plane (most
        // emoji) counts twice.
        checker.report(
            Rule::DescriptionLength,
            value.range,
            format!(
                "description is {} UTF-16 units long (emoji and other characters beyond U+FFFF count twice); Copilot's limit is {DESCRIPTION_MAX}",
                crate::clients::js::utf16_len(description)
            ),
            |target| match target {
                Client::Copilot => Effect::Skip,
                _ => Effect::Load,
            },
            Vec::new(),
        );
    }
}

/// `description-trigger`.
fn description_trigger(checker: &mut Checker<'_>, value: &Node, description: &str) {
    let lower = description.to_lowercase();
    if !TRIGGERS.iter().any(|trigger| lower.contains(trigger))
        && !USE_AT_A_MOMENT.is_match(description)
        && !unreadable_script(description)
    {
        checker.report_all(
            Rule::DescriptionTrigger,
            value.range,
            "description says what the skill does but not when to use it (add \"Use when …\")",
            "agents choose skills by their description alone",
            Vec::new(),
        );
    }
}

/// `description-angle-brackets`.
fn description_angle_brackets(checker: &mut Checker<'_>, value: &Node, description: &str) {
    if let Some(bracket) = description.find(['<', '>']) {
        let range = written_char(checker.text, value, bracket).unwrap_or(value.range);
        let ch = &description[bracket..=bracket];
        checker.report(
            Rule::DescriptionAngleBrackets,
            range,
            format!("description contains '{ch}', which uploads read as an XML tag"),
            |target| match target {
                Client::ClaudeUpload => Effect::Reject,
                Client::AgentSkills => Effect::Degrade(
                    "accepts it, but claude.ai upload rejects XML tags",
                    "accept it, but claude.ai upload rejects XML tags",
                ),
                _ => Effect::Load,
            },
            Vec::new(),
        );
    }
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::MissingDescription => RuleDoc::new(
            "A target requires `description` and it is absent.",
            "The description is all an agent sees before loading a skill; most clients skip a skill without one.",
            "A frontmatter with only `name`.",
            "Insert a `description` (guessed from the body; review it).",
        ),
        Rule::DescriptionEmpty => RuleDoc::new(
            "`description` is empty or only whitespace.",
            "An empty description leaves the agent no reason to load the skill; most clients skip it.",
            "`description: \"\"`",
            "Write what the skill does and when to use it.",
        ),
        Rule::DescriptionLength => RuleDoc::new(
            "`description` is longer than 1024 characters.",
            "Codex, skills-ref and uploads reject longer descriptions.",
            "A description that pastes the whole usage guide.",
            "Keep the trigger summary in the description; move the rest into the body.",
        ),
        Rule::DescriptionTrigger => RuleDoc::new(
            "The description says what the skill does but not when to use it.",
            "Agents pick skills by matching the task to the description; without a trigger they rarely load it.",
            "`description: Fills PDF forms.`",
            "Add a sentence such as \"Use when the user needs to fill or read a PDF form.\" (\"Use after/before/only when…\", \"Use immediately after…\", \"When Claude needs…\", \"Activate this skill when…\", \"Use this skill…\" and \"Triggers:\" count too, in any case, and so does the same phrasing in Chinese, Japanese, Korean, Spanish, French, German, Portuguese and Russian: \"当用户…时使用\", \"…場合に使用\", \"…때 사용\", \"usar cuando\", \"à utiliser lorsque\", \"verwenden, wenn\", \"use quando\", \"используйте, когда\"). A description written mostly in another script is left alone.",
        ),
        Rule::DescriptionAngleBrackets => RuleDoc::new(
            "The description contains `<` or `>`.",
            "claude.ai and API uploads reject descriptions with XML tags (and any angle bracket).",
            "`description: Edit <form> elements.`",
            "Write the tag without brackets, e.g. `form` or `{form}`.",
        ),
        _ => return None,
    })
}
