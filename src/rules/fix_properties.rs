//! `--fix` keeps what it does not fix, over generated frontmatter: comments everywhere (after
//! values, on lines of their own, between list items), CRLF or LF, block scalars, anchors and
//! aliases, flow collections, and values the safe fixes change (an unquoted `: `, numbers and
//! YAML 1.1 booleans in `metadata`, a list or commas in `allowed-tools`). After fix-all:
//! every comment is still there, in order; the line endings are the file's; the top-level keys
//! keep their order; the frontmatter parses, to the same strings as the original means; and a
//! second run changes nothing.

use std::path::Path;

use proptest::prelude::*;

use super::fix::fix_all;
use super::{FileContext, lint_text};
use crate::document::SkillDocument;
use crate::document::yaml::{Node, NodeKind};
use crate::targets::ALL_CLIENTS;

/// One top-level entry as generated: its lines (without line breaks) and, for the checks, the
/// strings it means (`None` for a value the check does not compare).
#[derive(Clone, Debug)]
struct Field {
    lines: Vec<String>,
    /// The line as the original means it where the original does not parse (an unquoted
    /// `: `): the check parses the original with this line instead.
    meant: Option<String>,
}

/// A unique comment, so that each can be found again.
fn comment(id: &mut u32) -> String {
    *id += 1;
    format!("# c{id}")
}

fn maybe_comment(on: bool, id: &mut u32) -> String {
    if on {
        format!("  {}", comment(id))
    } else {
        String::new()
    }
}

prop_compose! {
    fn description()(kind in 0..6u8, commented in any::<bool>()) -> (u8, bool) {
        (kind, commented)
    }
}

fn description_field((kind, commented): (u8, bool), id: &mut u32) -> Field {
    let text = "Fills forms. Use when asked";
    let (lines, meant) = match kind {
        // A `#` after an unquoted `: ` is part of the value to the clients that repair the
        // line: no comment is put there.
        0 => (
            vec!["description: Fills forms. Use when: asked".to_owned()],
            Some("description: \"Fills forms. Use when: asked\"".to_owned()),
        ),
        1 => (
            vec![format!(
                "description: \"{text}\"{}",
                maybe_comment(commented, id)
            )],
            None,
        ),
        2 => (
            vec![format!(
                "description: '{text}'{}",
                maybe_comment(commented, id)
            )],
            None,
        ),
        3 => (
            vec![
                format!("description: |{}", maybe_comment(commented, id)),
                "  Fills forms.".to_owned(),
                "  Use when asked.".to_owned(),
            ],
            None,
        ),
        4 => (
            vec![
                format!("description: >-{}", maybe_comment(commented, id)),
                "  Fills forms.".to_owned(),
                "  Use when asked.".to_owned(),
            ],
            None,
        ),
        _ => (
            vec![format!(
                "description: {text}{}",
                maybe_comment(commented, id)
            )],
            None,
        ),
    };
    Field { lines, meant }
}

/// `metadata`: block entries of plain words, numbers, YAML 1.1 booleans, quoted strings,
/// anchors and aliases, or one flow mapping.
fn metadata_field(values: &[(u8, bool)], flow: bool, id: &mut u32) -> Field {
    if flow {
        return Field {
            lines: vec![format!(
                "metadata: {{a: b, n: \"1\"}}{}",
                maybe_comment(true, id)
            )],
            meant: None,
        };
    }
    let mut lines = vec![format!(
        "metadata:{}",
        maybe_comment(values.len() % 2 == 1, id)
    )];
    for (index, (kind, commented)) in values.iter().enumerate() {
        let value = match kind {
            0 => "word".to_owned(),
            1 => "1".to_owned(),
            2 => "1.10".to_owned(),
            3 => "yes".to_owned(),
            4 => "\"quoted: x\"".to_owned(),
            5 => format!("&a{index} anchored"),
            _ => "off".to_owned(),
        };
        lines.push(format!(
            "  k{index}: {value}{}",
            maybe_comment(*commented, id)
        ));
        if *kind == 5 {
            lines.push(format!("  r{index}: *a{index}"));
        }
        if index % 3 == 2 {
            lines.push(format!("  {}", comment(id)));
        }
    }
    Field { lines, meant: None }
}

/// `allowed-tools`: a list (each item maybe commented), a space-separated string, or commas.
fn tools_field(kind: u8, commented: &[bool], id: &mut u32) -> Field {
    let tools = ["Read", "Grep", "Glob"];
    let lines = match kind {
        0 => {
            let mut lines = vec!["allowed-tools:".to_owned()];
            for (tool, on) in tools.iter().zip(commented) {
                lines.push(format!("  - {tool}{}", maybe_comment(*on, id)));
            }
            lines
        }
        1 => vec![format!(
            "allowed-tools: Read Grep{}",
            maybe_comment(true, id)
        )],
        _ => vec![format!(
            "allowed-tools: Read, Grep{}",
            maybe_comment(commented[0], id)
        )],
    };
    Field { lines, meant: None }
}

prop_compose! {
    fn skill()(
        crlf in any::<bool>(),
        description in description(),
        metadata in proptest::collection::vec((0..7u8, any::<bool>()), 0..6),
        flow in any::<bool>(),
        tools in 0..3u8,
        tool_comments in proptest::collection::vec(any::<bool>(), 3),
        order in Just(vec![0, 1, 2, 3]).prop_shuffle(),
        between in proptest::collection::vec(any::<bool>(), 5),
    ) -> (String, Vec<Field>, bool) {
        let mut id = 0;
        let name = Field { lines: vec![format!("name: pdf{}", maybe_comment(between[4], &mut id))], meant: None };
        let fields = [
            name,
            description_field(description, &mut id),
            metadata_field(&metadata, flow, &mut id),
            tools_field(tools, &tool_comments, &mut id),
        ];
        let fields: Vec<Field> = order.iter().map(|at| fields[*at].clone()).collect();
        let newline = if crlf { "\r\n" } else { "\n" };
        let mut text = format!("---{newline}");
        for (field, comment_before) in fields.iter().zip(&between) {
            if *comment_before {
                id += 1;
                text.push_str(&format!("# c{id}{newline}"));
            }
            for line in &field.lines {
                text.push_str(line);
                text.push_str(newline);
            }
        }
        text.push_str(&format!("---{newline}# PDF{newline}{newline}Fill the form.{newline}"));
        (text, fields, crlf)
    }
}

/// The comments of `text`, in order.
fn comments(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("# c") {
        let digits: String = rest[at + 3..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if !digits.is_empty() {
            found.push(format!("# c{digits}"));
        }
        rest = &rest[at + 3..];
    }
    found
}

/// The strings a parsed value means: scalars by their text, collections item by item; an
/// alias as the anchor's value is not expanded (`*a`).
fn meaning(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar { value, .. } => value.clone(),
        NodeKind::Sequence(items) => items.iter().map(meaning).collect::<Vec<_>>().join(" "),
        NodeKind::Mapping(entries) => entries
            .iter()
            .map(|entry| format!("{}={}", meaning(&entry.key), meaning(&entry.value)))
            .collect::<Vec<_>>()
            .join(","),
        NodeKind::Alias => "*".to_owned(),
    }
}

/// The top-level keys and what each means, of a frontmatter that parses.
fn mapping(text: &str) -> Option<Vec<(String, String)>> {
    let document = SkillDocument::parse(text);
    let yaml = document.yaml.as_ref()?;
    if yaml.error.is_some() {
        return None;
    }
    let root = document.mapping()?;
    Some(
        root.as_mapping()?
            .iter()
            .map(|entry| (meaning(&entry.key), meaning(&entry.value)))
            .collect(),
    )
}

/// `allowed-tools` means its tools, however they are separated.
fn tools_meaning(value: &str) -> Vec<String> {
    value
        .split([' ', ','])
        .filter(|tool| !tool.is_empty())
        .map(str::to_owned)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fix_all_keeps_what_it_does_not_fix((text, fields, crlf) in skill()) {
        let exists = |_: &Path| true;
        let context = FileContext {
            path: Path::new("skills/pdf/SKILL.md"),
            targets: &ALL_CLIENTS,
            advisory: crate::targets::ClientSet::NONE,
            home: crate::targets::Home::Portable,
            exists: &exists,
            security: true,
        };
        let lint = |text: &str| lint_text(text, &context);
        let fixed = fix_all(&text, lint).text;

        // Every comment is kept, in order.
        prop_assert_eq!(comments(&fixed), comments(&text), "{:?}\n->\n{:?}", text, fixed);
        // The file's line endings.
        if crlf {
            prop_assert!(!fixed.replace("\r\n", "").contains('\n'), "{:?}", fixed);
        } else {
            prop_assert!(!fixed.contains('\r'), "{:?}", fixed);
        }
        // It parses, with the keys in their order and the values the original means.
        let meant_text = fields.iter().fold(text.clone(), |text, field| match &field.meant {
            Some(line) => text.replacen(&field.lines[0], line, 1),
            None => text,
        });
        let before = mapping(&meant_text).expect("the original means a mapping");
        let Some(after) = mapping(&fixed) else {
            // The colon's quoting is withheld where a client that repairs the broken line
            // reads a comment after another value as part of it: parsing would drop it, and
            // the client would read the skill otherwise (`keep_readings`).
            let unquoted = fields.iter().any(|field| field.meant.is_some());
            let trailing_comment = text
                .lines()
                .any(|line| !line.trim_start().starts_with('#') && line.contains("  # "));
            prop_assert!(unquoted && trailing_comment, "the fixed frontmatter does not parse: {:?}", fixed);
            return Ok(());
        };
        let keys = |mapping: &[(String, String)]| mapping.iter().map(|(key, _)| key.clone()).collect::<Vec<_>>();
        prop_assert_eq!(keys(&after), keys(&before), "{:?}", fixed);
        for ((key, was), (_, now)) in before.iter().zip(&after) {
            if key == "allowed-tools" {
                prop_assert_eq!(tools_meaning(now), tools_meaning(was), "{:?}", fixed);
            } else {
                prop_assert_eq!(now, was, "{} in {:?}", key, fixed);
            }
        }
        // A fixed point.
        prop_assert_eq!(fix_all(&fixed, lint).text, fixed.clone());
        // Nothing outside the frontmatter moved.
        let body = |text: &str| text.split_once("---").and_then(|(_, rest)| rest.split_once("\n---").map(|(_, body)| body.to_owned()));
        prop_assert_eq!(body(&fixed), body(&text));
    }
}

/// The readings that lint past what does not parse (an unclosed block, read as if closed; a
/// line with an unquoted `: `, read as its fix would write it) keep comments as the plain
/// reading does: a fix whose edits would replace one is offered, but not as safe (the editor's
/// fix-all and `--fix` apply safe fixes only).
#[test]
fn fixes_on_the_tolerant_readings_keep_comments() {
    let exists = |_: &Path| true;
    let context = FileContext {
        path: Path::new("skills/pdf/SKILL.md"),
        targets: &[crate::targets::Client::AgentSkills],
        advisory: crate::targets::ClientSet::NONE,
        home: crate::targets::Home::Portable,
        exists: &exists,
        security: true,
    };
    let tools = "allowed-tools:\n  - Read  # c1\n  - Grep # c2\n";
    // The tools before the last key: a fix that reaches the invented closing line is left out.
    let unclosed = format!(
        "---\nname: pdf\n{tools}description: Extracts text from PDF files. Use when the user asks about PDFs.\n"
    );
    let broken_line = format!(
        "---\nname: pdf\ndescription: Extracts text: from PDF files. Use when the user asks about PDFs.\n{tools}---\nBody.\n"
    );
    for text in [unclosed, broken_line] {
        for fix in lint_text(&text, &context)
            .iter()
            .flat_map(|diagnostic| &diagnostic.fixes)
            .filter(|fix| fix.safe)
        {
            for edit in &fix.edits {
                let replaced = &text[edit.range.start..edit.range.end];
                assert!(!replaced.contains("# c"), "{text:?}: {fix:?}");
            }
        }
        let fixed = fix_all(&text, |text: &str| lint_text(text, &context)).text;
        assert_eq!(
            comments(&fixed),
            ["# c1", "# c2"],
            "{text:?}\n->\n{fixed:?}"
        );
    }
}
