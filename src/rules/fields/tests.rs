//! The field rules, data-driven: a frontmatter in, the findings out.

use expect_test::expect;

use crate::diagnostic::Severity;
use crate::rules::Rule;
use crate::rules::suggest::near_miss;
use crate::rules::test_support::{check, fixed, lint_as, rendered, rules_of};
use crate::targets::Client;

const AS: &[Client] = &[Client::AgentSkills];
const CC: &[Client] = &[Client::ClaudeCode];

fn fm(fields: &str) -> String {
    format!("---\n{fields}---\nBody\n")
}

#[test]
fn missing_name_and_description() {
    let text = fm("description: Use when asked.\n");
    check(
        AS,
        &text,
        expect![[r#"
            missing-name 1:1-1:4 error: the frontmatter has no name field — skills-ref rejects it
        "#]],
    );
    assert_eq!(
        fixed(&text, Rule::MissingName, AS),
        fm("name: pdf\ndescription: Use when asked.\n")
    );
    // Claude Code does not need a name.
    check(CC, &text, expect![[""]]);

    let text = fm("name: pdf\n");
    check(
        CC,
        &text,
        expect![[r#"
            missing-description 1:1-1:4 warning: the frontmatter has no description field — Claude Code uses the body's first line instead
        "#]],
    );
    assert_eq!(
        fixed(&text, Rule::MissingDescription, AS),
        fm("name: pdf\ndescription: \"Body\"\n")
    );
}

#[test]
fn field_type_quotes_lists_and_numbers() {
    let text = fm("name: pdf\ndescription: Use when asked.\nargument-hint: [file]\n");
    check(
        CC,
        &text,
        expect![[r#"
            field-type 4:16-4:22 error: 'argument-hint' is a list; it must be a string — Claude Code misreads the value
        "#]],
    );
    assert_eq!(
        fixed(&text, Rule::FieldType, CC),
        fm("name: pdf\ndescription: Use when asked.\nargument-hint: \"[file]\"\n")
    );
    check(
        AS,
        &fm("name: 3000\ndescription: Use when asked.\n"),
        expect![[r#"
            field-type 2:7-2:11 warning: 'name' is an integer; it must be a string — skills-ref reads it as text, but YAML 1.2 loaders do not
            name-mismatch 2:7-2:11 error: name '3000' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
    check(
        AS,
        &fm("name: pdf\ndescription: Use when asked.\nmetadata: x\n"),
        expect![[r#"
            field-type 4:11-4:12 warning: metadata is a string; it must be a mapping of string keys to string values — skills-ref passes it through unchecked
        "#]],
    );
    check(
        CC,
        &fm("name: pdf\ndescription: Use when asked.\nhooks:\n  PreToolUse: run\n"),
        expect![[r#"
            field-type 5:3-5:18 error: hooks must map each event to a list of '{matcher, hooks: [{type, command}]}' entries — Claude Code misreads the value
        "#]],
    );
    // A well-formed hook is no field error; what it runs is the security rules' to say,
    // with the skill's folder (`Engine::scan_skill_files`).
    check(
        CC,
        &fm(
            "name: pdf\ndescription: Use when asked.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n",
        ),
        expect![[""]],
    );
}

#[test]
fn field_value_enums_and_booleans() {
    let text = fm(
        "name: pdf\ndescription: Use when asked.\ncontext: forked\neffort: huge\nuser-invocable: yes\n",
    );
    // Claude Code reads `yes` as true: nothing to say for it alone.
    check(
        CC,
        &text,
        expect![[r#"
            field-value 4:10-4:16 error: 'context: forked' is not one of the allowed values (fork): Claude Code runs the skill inline, as without the field — Claude Code misreads the value
            field-value 5:9-5:13 error: 'effort: huge' is not one of the allowed values (low, medium, high, xhigh, max): Claude Code uses the model's default effort, as without the field — Claude Code misreads the value
        "#]],
    );
    // Copilot refuses a quoted boolean (Claude Code reads it as meant).
    let fixed_text = fixed(
        &fm("name: pdf\ndescription: Use when asked.\nuser-invocable: \"false\"\n"),
        Rule::FieldValue,
        &[Client::Copilot],
    );
    assert!(fixed_text.contains("user-invocable: false\n"));
    check(
        &[Client::Codex],
        &text,
        expect![[r#"
            unknown-field 4:1-4:8 info: unknown field 'context' here: only Claude Code and Copilot read it — Codex ignores it
            unknown-field 5:1-5:7 info: unknown field 'effort' here: only Claude Code reads it — Codex ignores it
            unknown-field 6:1-6:15 info: unknown field 'user-invocable' here: only Claude Code and Copilot read it — Codex ignores it
        "#]],
    );
}

#[test]
fn name_rules() {
    let long = "a".repeat(65);
    check(
        AS,
        &fm(&format!("name: {long}\ndescription: Use when.\n")),
        expect![[r#"
            name-mismatch 2:7-2:72 error: name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' does not match its folder 'pdf' — skills-ref rejects it
            name-length 2:71-2:72 error: name is 65 characters long; the limit is 64 — skills-ref rejects it
        "#]],
    );
    check(
        AS,
        &fm("name: PDF_Tools\ndescription: Use when asked.\n"),
        expect![[r#"
            name-format 2:7-2:16 error: name 'PDF_Tools' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: 'pdf-tools') — skills-ref rejects it
            name-mismatch 2:7-2:16 error: name 'PDF_Tools' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
    let text = fm("name: pdf-tools\ndescription: Use when asked.\n");
    check(
        AS,
        &text,
        expect![[r#"
            name-mismatch 2:7-2:16 error: name 'pdf-tools' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
    assert_eq!(
        fixed(&text, Rule::NameMismatch, AS),
        fm("name: pdf\ndescription: Use when asked.\n")
    );
    check(CC, &text, expect![[""]]);
    let reserved = fm("name: claude-pdf\ndescription: Use when asked.\n");
    check(
        &[Client::ClaudeUpload],
        &reserved,
        expect![[r#"
            reserved-word 2:7-2:17 error: name 'claude-pdf' contains the reserved word 'claude' — claude.ai upload rejects it
        "#]],
    );
    check(
        AS,
        &reserved,
        expect![[r#"
            name-mismatch 2:7-2:17 error: name 'claude-pdf' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
}

#[test]
fn description_rules() {
    check(
        AS,
        &fm("name: pdf\ndescription: \"  \"\n"),
        expect![[r#"
            description-empty 3:14-3:18 error: description is blank — skills-ref rejects it
        "#]],
    );
    check(
        AS,
        &fm("name: pdf\ndescription:\n"),
        expect![[r#"
            description-empty 3:1-3:12 error: description is empty — skills-ref rejects it
        "#]],
    );
    let long = format!("Use when {}", "x".repeat(1100));
    // The range marks what is past the limit.
    check(
        AS,
        &fm(&format!("name: pdf\ndescription: \"{long}\"\n")),
        expect![[r#"
            description-length 3:1039-3:1124 error: description is 1109 characters long; the limit is 1024 — skills-ref rejects it
        "#]],
    );
    check(
        &[Client::Codex],
        &fm(&format!("name: pdf\ndescription: {long}\n")),
        expect![[r#"
            description-length 3:1038-3:1123 warning: description is 1109 characters long; the limit is 1024 — Codex lists only its first 1,021 characters and '...'
        "#]],
    );
    check(
        AS,
        &fm("name: pdf\ndescription: Fills PDF forms.\n"),
        expect![[r#"
            description-trigger 3:14-3:30 hint: description says what the skill does but not when to use it (add "Use when …") — agents choose skills by their description alone
        "#]],
    );
    let angle = fm("name: pdf\ndescription: Use when editing <form> tags.\n");
    check(
        &[Client::ClaudeUpload],
        &angle,
        expect![[r#"
            description-angle-brackets 3:31-3:32 error: description contains '<', which uploads read as an XML tag — claude.ai upload rejects it
        "#]],
    );
    check(
        AS,
        &angle,
        expect![[r#"
            description-angle-brackets 3:31-3:32 warning: description contains '<', which uploads read as an XML tag — skills-ref accepts it, but claude.ai upload rejects XML tags
        "#]],
    );
}

#[test]
fn compatibility_and_metadata() {
    let text = fm(&format!(
        "name: pdf\ndescription: Use when asked.\ncompatibility: {}\n",
        "x".repeat(501)
    ));
    check(
        AS,
        &text,
        expect![[r#"
            compatibility-length 4:516-4:517 error: compatibility is 501 characters long; the limit is 500 — skills-ref rejects it
        "#]],
    );
    let text = fm(
        "name: pdf\ndescription: Use when asked.\nmetadata:\n  nested:\n    a: b\n  version: 1.0\n  flag: yes\n",
    );
    check(
        AS,
        &text,
        expect![[r#"
            metadata-value 6:5-6:9 warning: 'metadata.nested' is a mapping; metadata values should be strings — skills-ref turns it into a string
            yaml11-type 7:12-7:15 warning: 'metadata.version: 1.0' is a number, not a string — loaders turn it into text differently ('1.10' becomes '1.1'); quote it
            yaml11-type 8:9-8:12 warning: 'metadata.flag: yes' is a string in YAML 1.2 but a boolean in YAML 1.1 — loaders built on YAML 1.1 (PyYAML and others) read it wrongly; quote it
        "#]],
    );
    let quoted = fixed(&text, Rule::Yaml11Type, AS);
    assert!(quoted.contains("version: \"1.0\""));
}

#[test]
fn yaml11_words_in_string_fields() {
    let text = fm("name: pdf\ndescription: Use when asked.\nlicense: no\n");
    check(
        AS,
        &text,
        expect![[r#"
            yaml11-type 4:10-4:12 warning: 'license: no' is a string in YAML 1.2 but a boolean in YAML 1.1 — loaders built on YAML 1.1 (PyYAML and others) read it wrongly; quote it
        "#]],
    );
    assert!(fixed(&text, Rule::Yaml11Type, AS).contains("license: \"no\""));
}

#[test]
fn allowed_tools_shape() {
    let text =
        fm("name: pdf\ndescription: Use when asked.\nallowed-tools:\n  - Read\n  - Bash(git:*)\n");
    check(
        AS,
        &text,
        expect![[r#"
            allowed-tools-shape 5:3-6:16 warning: allowed-tools is a list; the spec wants one space-separated string — skills-ref passes it through unchecked, but clients that follow the spec expect a string
        "#]],
    );
    assert_eq!(
        fixed(&text, Rule::AllowedToolsShape, AS),
        fm("name: pdf\ndescription: Use when asked.\nallowed-tools: Read Bash(git:*)\n")
    );
    let commas = fm("name: pdf\ndescription: Use when asked.\nallowed-tools: Read, Grep\n");
    assert_eq!(
        fixed(&commas, Rule::AllowedToolsShape, AS),
        fm("name: pdf\ndescription: Use when asked.\nallowed-tools: Read Grep\n")
    );
    check(CC, &commas, expect![[""]]);
}

#[test]
fn unknown_fields_suggest_and_move() {
    assert_eq!(
        near_miss("descripton", &[Client::AgentSkills]),
        Some("description")
    );
    assert_eq!(
        near_miss("disableModelInvocation", &[Client::ClaudeCode]),
        Some("disable-model-invocation")
    );
    assert_eq!(
        near_miss("user-invokable", &[Client::ClaudeCode]),
        Some("user-invocable")
    );
    assert_eq!(near_miss("version", &[Client::AgentSkills]), None);

    let text = fm("name: pdf\ndescripton: Use when asked.\n");
    check(
        AS,
        &text,
        expect![[r#"
            missing-description 1:1-1:4 error: the frontmatter has no description field — skills-ref rejects it
            unknown-field 3:1-3:11 error: unknown field 'descripton'; did you mean 'description'? — skills-ref rejects it
        "#]],
    );
    assert_eq!(
        fixed(&text, Rule::UnknownField, AS),
        fm("name: pdf\ndescription: Use when asked.\n")
    );

    let text = fm("name: pdf\ndescription: Use when asked.\nversion: 1.0\n");
    let diagnostics = lint_as(&text, "skills/pdf/SKILL.md", AS);
    let finding = diagnostics
        .iter()
        .find(|d| d.rule == Rule::UnknownField)
        .unwrap();
    let moved = crate::diagnostic::apply_edits(&text, &finding.fixes[0].edits).unwrap();
    assert_eq!(
        moved,
        fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  version: \"1.0\"\n")
    );
    assert_eq!(rules_of(&moved, AS), vec![]);

    check(
        &[Client::Codex],
        &text,
        expect![[r#"
            unknown-field 4:1-4:8 info: unknown field 'version'; put custom data under metadata — Codex ignores it
        "#]],
    );
    check(
        CC,
        &fm("name: pdf\ndescription: Use when asked.\nwhen_to_use: x\n"),
        expect![[""]],
    );
}

/// The first finding of `rule`: (covered text, severity, message).
fn first(text: &str, rule: Rule, targets: &[Client]) -> Option<(String, Severity, String)> {
    lint_as(text, "skills/pdf/SKILL.md", targets)
        .into_iter()
        .find(|d| d.rule == rule)
        .map(|d| (text[d.range.as_range()].to_owned(), d.severity, d.message))
}

#[test]
fn client_fields_are_unknown_to_the_targets_that_do_not_read_them() {
    for line in [
        "argument-hint: \"[file]\"",
        "disable-model-invocation: true",
        "model: sonnet",
        "user-invocable: false",
        "effort: high",
        "context: fork",
        "when_to_use: For PDFs.",
        "agent: Explore",
        "paths: \"*.pdf\"",
        "shell: bash",
    ] {
        let text = fm(&format!(
            "name: pdf\ndescription: Use when asked.\n{line}\n"
        ));
        let key = line.split(':').next().unwrap();
        let (covered, severity, message) = first(&text, Rule::UnknownField, AS)
            .unwrap_or_else(|| panic!("{key} is silent for agentskills"));
        assert_eq!(covered, key);
        assert_eq!(severity, Severity::Error, "skills-ref rejects unknown keys");
        assert!(message.ends_with("— skills-ref rejects it"), "{message}");
        assert!(message.contains("Claude Code"), "{message}");
        assert!(
            first(&text, Rule::UnknownField, CC).is_none(),
            "{key} is a Claude Code field"
        );
        let both = first(
            &text,
            Rule::UnknownField,
            &[Client::AgentSkills, Client::ClaudeCode],
        )
        .unwrap();
        assert_eq!(both.1, Severity::Error);
        assert!(
            both.2
                .ends_with("— skills-ref rejects it; Claude Code reads it"),
            "{}",
            both.2
        );
    }
    let hint = fm("name: pdf\ndescription: Use when asked.\nargument-hint: x\n");
    assert_eq!(
        first(&hint, Rule::UnknownField, &[Client::ClaudeUpload])
            .unwrap()
            .2,
        "unknown field 'argument-hint' here: only Claude Code and Copilot read it — claude.ai upload rejects it"
    );
    assert!(first(&hint, Rule::UnknownField, &[Client::Copilot]).is_none());
    // Clients that ignore unknown keys: information for another client's field (it does
    // nothing here, and breaks nothing), nothing for the open standard's optional fields.
    let codex = first(
        &fm("name: pdf\ndescription: Use when asked.\ndisable-model-invocation: true\n"),
        Rule::UnknownField,
        &[Client::Codex],
    )
    .unwrap();
    assert_eq!(codex.1, Severity::Info);
    assert!(codex.2.ends_with("— Codex ignores it"), "{}", codex.2);
    let standard = fm(
        "name: pdf\ndescription: Use when asked.\nlicense: MIT\ncompatibility: Python 3\nallowed-tools: Read\n",
    );
    for target in [Client::Codex, Client::Gemini, Client::Copilot] {
        assert!(
            first(&standard, Rule::UnknownField, &[target]).is_none(),
            "{target}"
        );
    }
}

#[test]
fn a_rename_to_another_field_is_never_safe() {
    let rename = |text: &str, targets: &[Client]| {
        lint_as(text, "skills/pdf/SKILL.md", targets)
            .into_iter()
            .find(|d| d.rule == Rule::UnknownField)
            .and_then(|d| {
                d.fixes
                    .into_iter()
                    .find(|fix| fix.title.starts_with("Rename"))
            })
            .map(|fix| (fix.title, fix.safe))
    };
    let head = "name: pdf\ndescription: Use when asked.\n";
    assert_eq!(
        rename(&fm(&format!("{head}mode: sonnet\n")), CC),
        Some((
            "Rename to 'model' (Claude Code then acts on it)".to_owned(),
            false
        ))
    );
    assert_eq!(
        rename(&fm("name: pdf\ndescripton: Use when asked.\n"), AS),
        Some(("Rename to 'description'".to_owned(), false)),
        "a typo of a required field is still another word"
    );
    assert_eq!(
        rename(&fm(&format!("{head}user-invokable: false\n")), CC),
        Some((
            "Rename to 'user-invocable' (Claude Code then acts on it)".to_owned(),
            false
        ))
    );
    // A respelling Claude Code would then act on changes what it does: the editor's to offer.
    assert_eq!(
        rename(&fm(&format!("{head}disableModelInvocation: true\n")), CC),
        Some((
            "Rename to 'disable-model-invocation' (Claude Code then acts on it)".to_owned(),
            false
        ))
    );
    assert_eq!(
        rename(&fm(&format!("{head}allowed_tools: Read\n")), AS),
        Some(("Rename to 'allowed-tools'".to_owned(), true))
    );
    assert_eq!(
        rename(&fm(&format!("{head}disableModelInvocation: true\n")), AS),
        Some(("Rename to 'disable-model-invocation'".to_owned(), false)),
        "the respelt key would still be unknown to skills-ref"
    );
    // `check --fix` and fix-all apply safe fixes only: a respelling no selected client acts
    // on, not one after which Claude Code would pre-approve the tools.
    let text = fm(&format!("{head}mode: sonnet\nallowed_tools: Read\n"));
    let fix_all_for = |targets: &[Client]| {
        crate::rules::fix::fix_all(&text, |text| lint_as(text, "skills/pdf/SKILL.md", targets)).text
    };
    assert_eq!(
        fix_all_for(&[Client::AgentSkills]),
        fm(&format!("{head}mode: sonnet\nallowed-tools: Read\n"))
    );
    assert_eq!(
        fix_all_for(&[Client::AgentSkills, Client::ClaudeCode]),
        text
    );
}

#[test]
fn severity_follows_what_the_targets_do() {
    let flow = fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  tags: [a, b]\n");
    // strictyaml refuses the flow list, so `metadata-value` is an error here.
    check(
        AS,
        &flow,
        expect![[r#"
            flow-style 5:9-5:15 error: 'tags' is written in flow style ('[a, b]'), which strict YAML parsers such as strictyaml refuse — skills-ref rejects it
            metadata-value 5:9-5:15 error: 'metadata.tags' is a list; metadata values should be strings — skills-ref rejects it
        "#]],
    );
    check(CC, &flow, expect![[""]]);
    let nested = fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  tags:\n    - a\n");
    check(
        AS,
        &nested,
        expect![[r#"
            metadata-value 6:5-6:8 warning: 'metadata.tags' is a list; metadata values should be strings — skills-ref turns it into a string
        "#]],
    );
    // The upload check does not look.
    check(
        &[Client::ClaudeUpload],
        &nested,
        expect![[r#"
            metadata-value 6:5-6:8 warning: 'metadata.tags' is a list; metadata values should be strings — claude.ai upload accepts it, but the spec asks for string values
        "#]],
    );
    // A Codex skip makes any rule an error; an error-by-default rule that only degrades
    // drops to a warning; hint rules stay hints.
    let short =
        fm("name: pdf\ndescription: Use when asked.\nmetadata:\n  short-description:\n    - a\n");
    check(
        &[Client::Codex],
        &short,
        expect![[r#"
            metadata-value 6:5-6:8 error: 'metadata.short-description' is a list; metadata values should be strings — Codex skips this skill
        "#]],
    );
    check(
        CC,
        &fm("name: pdf\n"),
        expect![[r#"
            missing-description 1:1-1:4 warning: the frontmatter has no description field — Claude Code uses the body's first line instead
        "#]],
    );
    check(
        AS,
        &fm("name: pdf\ndescription: Fills forms.\n"),
        expect![[r#"
            description-trigger 3:14-3:26 hint: description says what the skill does but not when to use it (add "Use when …") — agents choose skills by their description alone
        "#]],
    );
}

/// An adverb alone is no moment: "Use carefully" still says nothing of when.
#[test]
fn an_adverb_is_no_trigger() {
    check(
        AS,
        &fm("name: pdf\ndescription: Fills forms. Apply carefully.\n"),
        expect![[r#"
            description-trigger 3:14-3:43 hint: description says what the skill does but not when to use it (add "Use when …") — agents choose skills by their description alone
        "#]],
    );
}

#[test]
fn triggers_in_any_case() {
    let mut found = String::new();
    for description in [
        "Fills forms. Use after a PDF upload.",
        "Fills forms. USE BEFORE sending a PDF.",
        "Fills forms. Use only when a PDF is open.",
        "Fills forms when Claude needs a PDF.",
        "Fills forms. Activate this skill when a PDF appears.",
        "Fills forms. Load this skill when PDFs come up.",
        "Use this skill for PDF forms.",
        "Fills forms. Triggers: pdf, form.",
        "Fills forms. TRIGGER on PDFs.",
        "Fills forms. Use immediately after a PDF upload.",
        "Fills forms. Use proactively when a PDF is open.",
        "Fills forms. Invoke automatically before sending a PDF.",
    ] {
        let text = fm(&format!("name: pdf\ndescription: {description}\n"));
        for line in rendered(AS, &text).lines() {
            found += &format!("{description} => {line}\n");
        }
    }
    // No description-trigger for any of them; `Triggers: ` is also an unquoted colon, a finding
    // of its own.
    expect![[r#"
        Fills forms. Triggers: pdf, form. => unquoted-colon 3:35-3:36 error: the unquoted 'description' value contains ': ', which YAML reads as a nested mapping — skills-ref rejects it
    "#]].assert_eq(&found);
}

#[test]
fn carets_point_into_block_scalars() {
    let text = fm("name: pdf\ndescription: >\n  Use when editing\n  <form> tags.\n");
    assert_eq!(
        first(&text, Rule::DescriptionAngleBrackets, AS).unwrap().0,
        "<"
    );
    let at = lint_as(&text, "skills/pdf/SKILL.md", AS)
        .into_iter()
        .find(|d| d.rule == Rule::DescriptionAngleBrackets)
        .unwrap()
        .range;
    assert_eq!(at.start, text.find("<form").unwrap());
    let literal = fm("name: pdf\ndescription: |\n  Says \"a > b\" # not a comment\n");
    let at = lint_as(&literal, "skills/pdf/SKILL.md", AS)
        .into_iter()
        .find(|d| d.rule == Rule::DescriptionAngleBrackets)
        .unwrap()
        .range;
    assert_eq!(at.start, literal.find("> b").unwrap());
    // The cut point of an overlong folded description.
    let words = "word ".repeat(120);
    let long = fm(&format!(
        "name: pdf\ndescription: >-\n  Use when asked.\n  {words}\n  {words}\n"
    ));
    let (covered, _, _) = first(&long, Rule::DescriptionLength, AS).unwrap();
    let parsed = crate::document::SkillDocument::parse(&long)
        .field("description")
        .unwrap()
        .value
        .as_str()
        .unwrap()
        .to_owned();
    let past: String = parsed.chars().skip(1024).collect();
    assert_eq!(
        covered.split_whitespace().collect::<Vec<_>>(),
        past.split_whitespace().collect::<Vec<_>>()
    );
    assert!(!covered.starts_with('>'));
    let compatibility = fm(&format!(
        "name: pdf\ndescription: Use when asked.\ncompatibility: |\n  {}\n",
        "y".repeat(510)
    ));
    assert_eq!(
        first(&compatibility, Rule::CompatibilityLength, AS)
            .unwrap()
            .0,
        "y".repeat(10)
    );
}

#[test]
fn skills_ref_claims_match_skills_ref() {
    // Each case was run through skills-ref 0.1.1 (`skills_ref.validator.validate`).
    let head = "name: pdf\ndescription: Use when asked.\n";
    // Empty compatibility: skills-ref checks only `len <= 500`.
    check(
        AS,
        &fm(&format!("{head}compatibility: \"\"\n")),
        expect![[r#"
            compatibility-length 4:16-4:18 warning: compatibility is empty; leave it out or give 1-500 characters — skills-ref accepts it; the spec does not
        "#]],
    );
    check(
        AS,
        &fm(&format!("{head}compatibility: {}\n", "x".repeat(501))),
        expect![[r#"
            compatibility-length 4:516-4:517 error: compatibility is 501 characters long; the limit is 500 — skills-ref rejects it
        "#]],
    );
    // A list compatibility fails its string check.
    check(
        AS,
        &fm(&format!("{head}compatibility:\n  - Python\n")),
        expect![[r#"
            field-type 5:3-5:11 error: 'compatibility' is a list; it must be a string — skills-ref rejects it
        "#]],
    );
    // allowed-tools, license and metadata are not validated at all.
    check(
        AS,
        &fm(&format!("{head}allowed-tools:\n  - Read\n  - Grep\n")),
        expect![[r#"
            allowed-tools-shape 5:3-6:9 warning: allowed-tools is a list; the spec wants one space-separated string — skills-ref passes it through unchecked, but clients that follow the spec expect a string
        "#]],
    );
    check(
        AS,
        &fm(&format!("{head}allowed-tools: Read, Grep\n")),
        expect![[r#"
            allowed-tools-shape 4:16-4:26 warning: allowed-tools is comma-separated; the spec wants tools separated by spaces — skills-ref passes it through unchecked, but clients that follow the spec split it at spaces only
        "#]],
    );
    check(
        AS,
        &fm(&format!("{head}license:\n  - MIT\n")),
        expect![[r#"
            field-type 5:3-5:8 warning: 'license' is a list; it must be a string — skills-ref passes it through unchecked
        "#]],
    );
    check(
        AS,
        &fm(&format!("{head}metadata: x\n")),
        expect![[r#"
            field-type 4:11-4:12 warning: metadata is a string; it must be a mapping of string keys to string values — skills-ref passes it through unchecked
        "#]],
    );
    check(
        AS,
        &fm(&format!("{head}allowed-tools:\n  a: b\n")),
        expect![[r#"
            field-type 5:3-5:7 warning: 'allowed-tools' is a mapping; it must be a string or a list of strings — skills-ref passes it through unchecked
        "#]],
    );
    // strictyaml reads every scalar as text: `name: 3000` is the name "3000".
    check(
        AS,
        &fm("name: 3000\ndescription: Use when asked.\n"),
        expect![[r#"
            field-type 2:7-2:11 warning: 'name' is an integer; it must be a string — skills-ref reads it as text, but YAML 1.2 loaders do not
            name-mismatch 2:7-2:11 error: name '3000' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
    check(
        AS,
        &fm("name: pdf\ndescription: ~\n"),
        expect![[r#"
            field-type 3:14-3:15 warning: 'description' is null; it must be a string — skills-ref reads it as text, but YAML 1.2 loaders do not
        "#]],
    );
    // skills-ref strips the name and accepts lowercase letters of any script.
    let padded = fm("name: \" pdf \"\ndescription: Use when asked.\n");
    check(
        AS,
        &padded,
        expect![[r#"
            name-format 2:7-2:14 warning: name ' pdf ' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: 'pdf') — skills-ref accepts it, but stricter clients allow only a-z, 0-9 and hyphens
        "#]],
    );
    // OpenCode 1.18.33 takes any string as the name and lists the skill under it.
    check(&[Client::OpenCode], &padded, expect![[""]]);
    let unicode = "---\nname: café\ndescription: Use when asked.\n---\nBody\n";
    let diagnostics = lint_as(unicode, "skills/café/SKILL.md", AS);
    let format = diagnostics
        .iter()
        .find(|d| d.rule == Rule::NameFormat)
        .unwrap();
    assert_eq!(format.severity, Severity::Warning);
    assert!(
        format.message.contains("skills-ref accepts it"),
        "{}",
        format.message
    );
    check(
        AS,
        &fm("name: Pdf\ndescription: Use when asked.\n"),
        expect![[r#"
            name-format 2:7-2:10 error: name 'Pdf' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: 'pdf') — skills-ref rejects it
            name-mismatch 2:7-2:10 error: name 'Pdf' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
    let long = format!(
        "name: \"{} \"\ndescription: Use when asked.\n",
        "a".repeat(64)
    );
    // skills-ref counts the stripped name.
    check(
        AS,
        &fm(&long),
        expect![[r#"
            name-format 2:7-2:74 warning: name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ' must use only lowercase letters, digits and single hyphens, not at the start or end (suggested: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa') — skills-ref accepts it, but stricter clients allow only a-z, 0-9 and hyphens
            name-mismatch 2:7-2:74 error: name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ' does not match its folder 'pdf' — skills-ref rejects it
        "#]],
    );
}

/// Clients list a skill without a name under its folder's: writing that name out renames
/// nothing, so the fix stays safe and its title plain; a name that differs from the folder is
/// a rename for the clients that list the frontmatter name.
#[test]
fn writing_out_the_folders_name_is_no_rename() {
    use crate::targets::Home;
    // A portable skill, read by every client and the spec's validator (which wants the name).
    let (readers, _) = Home::Portable.readers();
    let first_fix = |text: &str, rule: Rule| {
        let found = lint_as(text, "skills/pdf/SKILL.md", &readers);
        found
            .iter()
            .find(|d| d.rule == rule)
            .and_then(|d| d.fixes.first())
            .map_or_else(
                || panic!("{rule}: {found:#?}"),
                |fix| (fix.title.clone(), fix.safe),
            )
    };
    assert_eq!(
        first_fix(
            &fm("description: Fills PDF forms. Use when asked.\n"),
            Rule::MissingName
        ),
        ("Insert 'name: pdf'".to_owned(), true)
    );
    let (title, safe) = first_fix(
        &fm("name: pdf-tools\ndescription: Fills PDF forms. Use when asked.\n"),
        Rule::NameMismatch,
    );
    assert!(
        !safe && title.starts_with("Rename to 'pdf' (renames the skill in "),
        "{title}"
    );
}

/// Where the skill lives decides who reads it: a field one of its clients reads is not
/// reported for the others, which pass over it and lose nothing; no fix moves such a field
/// under `metadata` (where no client reads it); and a validator nobody chose makes a warning,
/// not an error, since every client still loads the skill.
#[test]
fn fields_some_reader_uses_are_neither_noise_nor_moved_away() {
    use crate::targets::{ClientSet, Home};
    let text = fm(
        "name: pdf\ndescription: Use when asked.\nargument-hint: <file>\ndisable-model-invocation: true\nversion: 2\n",
    );
    let (readers, _) = Home::ClientFolder(".claude").readers();
    let found = lint_as(&text, ".claude/skills/pdf/SKILL.md", &readers);
    let unknown: Vec<&str> = found
        .iter()
        .filter(|d| d.rule == Rule::UnknownField)
        .map(|d| &text[d.range.as_range()])
        .collect();
    assert_eq!(unknown, ["version"], "{found:#?}");
    // The spec's validator rejects all three; only `version` may move under metadata.
    let found = lint_as(&text, "skills/pdf/SKILL.md", AS);
    for diagnostic in found.iter().filter(|d| d.rule == Rule::UnknownField) {
        let key = &text[diagnostic.range.as_range()];
        let moves = diagnostic
            .fixes
            .iter()
            .any(|fix| fix.title.starts_with("Move"));
        assert_eq!(moves, key == "version", "{key}: {:?}", diagnostic.fixes);
    }
    // Portable: the validator is advisory, so a warning with a note saying when it matters.
    let (readers, advisory) = Home::Portable.readers();
    assert_eq!(advisory, ClientSet::of([Client::AgentSkills]));
    let context_exists = |_: &std::path::Path| true;
    let context = crate::rules::FileContext {
        path: std::path::Path::new("skills/pdf/SKILL.md"),
        targets: &readers,
        advisory,
        home: crate::targets::Home::Portable,
        exists: &context_exists,
        security: false,
    };
    let found = crate::rules::lint_text(&text, &context);
    let version = found
        .iter()
        .find(|d| d.rule == Rule::UnknownField && &text[d.range.as_range()] == "version")
        .unwrap();
    assert_eq!(version.severity, Severity::Warning);
    assert!(
        version
            .message
            .ends_with("(only a validator objects: this matters when publishing to a registry)"),
        "{}",
        version.message
    );
}

/// Three classes the corpus showed: a metadata boolean is no YAML 1.1 trap (tools test for the
/// boolean, and quoting it would change what they do); a key whose value could not be the
/// near-miss field's is not offered as its misspelling; a field finding judged past a repaired
/// colon does not inherit the colon's skip.
#[test]
fn metadata_booleans_house_keys_and_repaired_colons_are_judged_for_what_they_are() {
    let text = fm(
        "name: pdf\ndescription: Use when asked.\nmetadata:\n  internal: true\n  version: 1.10\n",
    );
    let found = lint_as(&text, "skills/pdf/SKILL.md", AS);
    let yaml11: Vec<&str> = found
        .iter()
        .filter(|d| d.rule == Rule::Yaml11Type)
        .map(|d| &text[d.range.as_range()])
        .collect();
    assert_eq!(yaml11, ["1.10"]);

    let text =
        fm("name: pdf\ndescription: Use when asked.\nagents:\n  reviewer: checks the output\n");
    let found = lint_as(&text, "skills/pdf/SKILL.md", CC);
    let unknown = found.iter().find(|d| d.rule == Rule::UnknownField).unwrap();
    assert!(
        !unknown.message.contains("did you mean"),
        "{}",
        unknown.message
    );
    assert_eq!(unknown.severity, Severity::Info);
    let text = fm("name: pdf\ndescription: Use when asked.\nagentt: Explore\n");
    let found = lint_as(&text, "skills/pdf/SKILL.md", CC);
    assert!(
        found
            .iter()
            .any(|d| d.message.contains("did you mean 'agent'"))
    );

    // Copilot skips the file for its colon; once that is repaired it lists the skill, so the
    // name finding is not an error of Copilot's.
    let text = "---\nname: pdf-tools\ndescription: Use when: asked.\n---\nBody\n";
    let found = lint_as(text, "skills/pdf/SKILL.md", &[Client::Copilot]);
    let colon = found
        .iter()
        .find(|d| d.rule == Rule::UnquotedColon)
        .unwrap();
    assert_eq!(colon.severity, Severity::Error);
    let name = found.iter().find(|d| d.rule == Rule::NameMismatch);
    assert!(
        name.is_none_or(|d| d.severity != Severity::Error),
        "{name:?}"
    );
}

/// A SKILL.md without frontmatter in no skills folder (a template, a fragment a build merges)
/// is said as a warning; in a skills folder, where clients look, it is the error it always was.
#[test]
fn a_loose_file_without_frontmatter_is_a_warning() {
    let text = "<!-- fragment: merged into the real skill by the build -->\n# Steps\n";
    let severity = |path: &str| {
        lint_as(text, path, &[Client::Codex])
            .into_iter()
            .find(|d| d.rule == Rule::MissingFrontmatter)
            .map(|d| (d.severity, d.message.contains("exclude it")))
    };
    assert_eq!(
        severity("flavors/web/pdf/SKILL.md"),
        Some((Severity::Warning, true))
    );
    assert_eq!(
        severity("repo/skills/pdf/SKILL.md"),
        Some((Severity::Error, false))
    );
}

/// Copilot refuses a skill whose `argument-hint` is a YAML list (seen with the real client),
/// and OpenCode does not list a skill without a description: the messages say so.
#[test]
fn client_readings_decide_what_a_message_claims() {
    let text = fm("name: pdf\ndescription: Use when asked.\nargument-hint:\n  - file\n");
    let found = lint_as(&text, ".github/skills/pdf/SKILL.md", &[Client::Copilot]);
    let hint = found.iter().find(|d| d.rule == Rule::FieldType).unwrap();
    assert!(
        hint.message.ends_with("Copilot skips this skill"),
        "{}",
        hint.message
    );
    assert_eq!(hint.severity, Severity::Error);
    let text = fm("name: pdf\n");
    let found = lint_as(&text, ".opencode/skills/pdf/SKILL.md", &[Client::OpenCode]);
    let missing = found
        .iter()
        .find(|d| d.rule == Rule::MissingDescription)
        .unwrap();
    assert!(
        !missing.message.contains("lists the skill"),
        "{}",
        missing.message
    );
}

/// "Use when" in the languages skills are written in counts as a trigger; a description in a
/// script the rule cannot read is left alone rather than guessed at.
#[test]
fn triggers_are_recognised_in_other_languages() {
    let fires = |description: &str| {
        let text = fm(&format!("name: pdf\ndescription: {description}\n"));
        lint_as(&text, "skills/pdf/SKILL.md", AS)
            .iter()
            .any(|d| d.rule == Rule::DescriptionTrigger)
    };
    for description in [
        "处理 PDF 表单。当用户需要填写表单时使用。",
        "PDF フォームを処理します。フォームの入力が必要な場合に使用します。",
        "PDF 양식을 처리합니다. 사용자가 양식을 채워야 할 때 사용하세요.",
        "Procesa formularios PDF. Usar cuando el usuario necesite rellenarlos.",
        "Traite les formulaires PDF. À utiliser lorsque l'utilisateur doit les remplir.",
        "Verarbeitet PDF-Formulare. Verwenden, wenn der Benutzer sie ausfüllen muss.",
        "Processa formulários PDF. Use quando o usuário precisar preenchê-los.",
        "Обрабатывает PDF-формы. Используйте, когда пользователь заполняет форму.",
        "يعالج نماذج PDF ويملؤها للمستخدم",
    ] {
        assert!(!fires(description), "{description}");
    }
    for description in [
        "Fills PDF forms.",
        "处理 PDF 表单。",
        "Procesa formularios PDF.",
        "Обрабатывает PDF-формы.",
    ] {
        assert!(fires(description), "{description}");
    }
}

/// Every field a client reads, with values its checks fix (another type, a quoted or spelled
/// boolean, a value outside the set, an unquoted `: `), in a folder of each of its readers:
/// every fix offered leaves each reader loading the skill as before or better (a client that
/// refused it now loads it), and where Claude Code takes an enumerated value, it takes the
/// same one after. No fix moves or drops a field its reader acts on.
#[test]
fn every_fix_keeps_what_the_fields_readers_do() {
    use crate::clients::claude_code::{Setting, setting};
    use crate::clients::{ClientReading, Readings};
    use crate::diagnostic::apply_edits;
    use crate::field_table::{FIELDS, Shape};
    use crate::targets::{ClientSet, Home};

    /// A client that loaded the skill reads it the same (but for its name, where `renames`);
    /// one that refused it may now load it.
    fn same_or_better(before: &Readings, after: &Readings, renames: bool) -> Result<(), String> {
        let loaded = |readings: &Readings| {
            [
                // Claude Code's fallback (folder name, first body line) is not its reading of
                // the frontmatter: reading the frontmatter instead is what a fix is for.
                readings
                    .claude
                    .as_ref()
                    .map(|r| !r.frontmatter_ignored && !r.from_body),
                readings
                    .codex
                    .as_ref()
                    .map(|r| matches!(**r, crate::clients::codex::Reading::Loaded { .. })),
                readings
                    .copilot
                    .as_ref()
                    .map(|r| matches!(**r, crate::clients::copilot::Reading::Loaded { .. })),
                readings
                    .opencode
                    .as_ref()
                    .map(|r| matches!(**r, crate::clients::opencode::Reading::Loaded { .. })),
                readings.gemini.as_ref().map(|r| r.0.is_some()),
            ]
        };
        let (was, is) = (loaded(before), loaded(after));
        // Each client's readings as text, and with the names cleared.
        fn texts<R: ClientReading + std::fmt::Debug>(
            before: Option<&R>,
            after: Option<&R>,
        ) -> (String, String, bool) {
            let same_but_name = match (before, after) {
                (Some(before), Some(after)) => before.unnamed() == after.unnamed(),
                (before, after) => before.is_none() && after.is_none(),
            };
            (format!("{before:?}"), format!("{after:?}"), same_but_name)
        }
        let pairs = [
            texts(before.claude.as_deref(), after.claude.as_deref()),
            texts(before.codex.as_deref(), after.codex.as_deref()),
            texts(before.copilot.as_deref(), after.copilot.as_deref()),
            texts(before.opencode.as_deref(), after.opencode.as_deref()),
            texts(before.gemini.as_deref(), after.gemini.as_deref()),
        ];
        for (index, (old, new, same_but_name)) in pairs.iter().enumerate() {
            let gained = was[index] == Some(false) && is[index] == Some(true);
            let renamed = renames && *same_but_name;
            if old != new && !gained && !renamed {
                return Err(format!("{old}\n  became\n{new}"));
            }
        }
        Ok(())
    }

    let folder_of = |reader: Client| match reader {
        Client::ClaudeCode => ".claude",
        Client::Copilot => ".github",
        _ => ".agents",
    };
    let mut checked = 0;
    for field in FIELDS.iter().filter(|field| !field.readers.is_empty()) {
        let values: &[&str] = match field.shape {
            Shape::String => &["[a, b]", "123", "true", "Fills forms: fast"],
            Shape::Enum => &["Forked", "inline", " Bash", "HIGH", "med", "[fork]", "3"],
            Shape::Bool => &[
                "yes",
                "\"true\"",
                "\"false\"",
                "Off",
                "maybe",
                "1",
                "[true]",
            ],
            Shape::StringOrList => &["{a: b}", "[Read, 3]", "Read, Write", "Read Write"],
            Shape::Metadata => &["[a]", "{version: 1.0}"],
            Shape::Hooks => &["[a]"],
        };
        for value in values {
            let fields = if field.name == "name" {
                format!("name: {value}\ndescription: Fills forms. Use when asked.\n")
            } else if field.name == "description" {
                format!("name: pdf\ndescription: {value}\n")
            } else {
                format!(
                    "name: pdf\ndescription: Fills forms. Use when asked.\n{}: {value}\n",
                    field.name
                )
            };
            let text = fm(&fields);
            for reader in field.readers {
                let folder = folder_of(*reader);
                let (targets, _) = Home::ClientFolder(folder).readers();
                let path = format!("{folder}/skills/pdf/SKILL.md");
                let clients = ClientSet::of(targets.iter().copied());
                let before = Readings::read(&text, None, clients);
                for diagnostic in lint_as(&text, &path, &targets) {
                    for fix in &diagnostic.fixes {
                        let after_text = apply_edits(&text, &fix.edits).unwrap();
                        let after = Readings::read(&after_text, None, clients);
                        let case = format!(
                            "{}: {value} in {folder}, fix '{}' of {}:\n{after_text}",
                            field.name, fix.title, diagnostic.rule
                        );
                        let renames = !fix.safe && fix.title.contains("(renames the skill in ");
                        let acts = !fix.safe
                            && diagnostic.rule == Rule::UnknownField
                            && fix.title.ends_with(" then acts on it)");
                        if acts {
                            checked += 1;
                            continue;
                        }
                        if let Err(change) = same_or_better(&before, &after, renames) {
                            panic!("{case}\n{change}");
                        }
                        assert!(
                            !fix.title.starts_with("Move"),
                            "{case}\n{} is read by {reader:?}",
                            field.name
                        );
                        if field.shape == Shape::Enum && *reader == Client::ClaudeCode {
                            let taken = |text: &str| {
                                let key = format!("\n{}: ", field.name);
                                text.find(&key).map_or(Setting::Default(""), |at| {
                                    let rest = &text[at + key.len()..];
                                    let line = rest.lines().next().unwrap_or("");
                                    match setting(field.name, line.trim_matches('"')) {
                                        Setting::Default(_) => Setting::Default(""),
                                        other => other,
                                    }
                                })
                            };
                            assert_eq!(taken(&text), taken(&after_text), "{case}");
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 40, "{checked} fixes checked");
}
