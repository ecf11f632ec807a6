//! Body and folder rules: empty or overlong bodies, links to missing or outside files, and the
//! file name's case.

use std::path::{Component, Path, PathBuf};

use super::{Checker, Rule};
use crate::diagnostic::{Fix, Rename};
use crate::text::{TextRange, lines_with_ranges};

pub const BODY_MAX_LINES: usize = 500;
pub const BODY_MAX_TOKENS: usize = 5_000;
/// A rough and conservative token estimate: about four characters of English per token.
const CHARS_PER_TOKEN: usize = 4;

pub(super) fn check(checker: &mut Checker<'_>) {
    file_name_case(checker);
    let document = checker.document;
    let body = &document.body;
    if let Some(block) = document.block() {
        if let Some(close) = block.close {
            if body.blank {
                checker.report_all(
                    Rule::BodyEmpty,
                    close.line,
                    "the skill has no instructions after its frontmatter",
                    "an agent that loads it learns nothing beyond the description",
                    Vec::new(),
                );
            }
        }
    }
    too_long(checker);
    links(checker);
}

fn file_name_case(checker: &mut Checker<'_>) {
    let Some(name) = checker.context.file_name() else {
        return;
    };
    if name == "SKILL.md" || !name.eq_ignore_ascii_case("SKILL.md") {
        return;
    }
    let path = checker.context.path;
    let fix = Fix {
        title: "Rename the file to SKILL.md".to_owned(),
        safe: true,
        edits: Vec::new(),
        rename: Some(Rename {
            from: path.to_path_buf(),
            to: path.with_file_name("SKILL.md"),
        }),
    };
    let first_line = lines_with_ranges(checker.text)
        .next()
        .map_or(TextRange::empty(0), |(range, _)| range);
    checker.report_all(
        Rule::SkillMdCase,
        first_line,
        format!("the file is named `{name}`, not `SKILL.md`"),
        "clients on case-sensitive file systems (Linux, CI) never find it",
        vec![fix],
    );
}

fn too_long(checker: &mut Checker<'_>) {
    let body = &checker.document.body;
    let source = &checker.text[body.range.as_range()];
    if body.line_count > BODY_MAX_LINES {
        let range = lines_with_ranges(source)
            .nth(BODY_MAX_LINES)
            .map_or(TextRange::empty(body.range.start), |(range, _)| {
                range.shifted(body.range.start)
            });
        checker.report_all(
            Rule::BodyTooLong,
            range,
            format!("the body has {} lines; keep it under {BODY_MAX_LINES} and move detail into references/", body.line_count),
            "agents load the whole body into their context",
            Vec::new(),
        );
        return;
    }
    let chars = source.chars().count();
    let tokens = chars / CHARS_PER_TOKEN;
    if tokens > BODY_MAX_TOKENS {
        let cut = source
            .char_indices()
            .nth(BODY_MAX_TOKENS * CHARS_PER_TOKEN)
            .map_or(source.len(), |(at, _)| at);
        let line_end = source[cut..].find('\n').map_or(source.len(), |at| cut + at);
        let range = TextRange::new(body.range.start + cut, body.range.start + line_end);
        checker.report_all(
            Rule::BodyTooLong,
            range,
            format!("the body is about {tokens} tokens; keep it under {BODY_MAX_TOKENS} and move detail into references/"),
            "agents load the whole body into their context",
            Vec::new(),
        );
    }
}

/// The path below the skill folder, or `None` when it climbs out of it.
fn inside_skill(target: &str) -> Option<PathBuf> {
    let mut normal = PathBuf::new();
    for component in Path::new(target).components() {
        match component {
            Component::Normal(part) => normal.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !normal.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(normal)
}

fn links(checker: &mut Checker<'_>) {
    let references = checker.document.body.references.clone();
    for reference in references {
        let target = reference.target.replace('\\', "/");
        match inside_skill(&target) {
            None => checker.report_all(
                Rule::LinkEscapesSkill,
                reference.range,
                format!("`{}` points outside the skill folder", reference.target),
                "installers copy only the skill folder, so the file will be missing",
                Vec::new(),
            ),
            Some(relative) => {
                if relative.as_os_str().is_empty() || (checker.context.exists)(&relative) {
                    continue;
                }
                checker.report_all(
                    Rule::BrokenLink,
                    reference.range,
                    format!("`{}` does not exist in the skill folder", reference.target),
                    "the agent cannot open it",
                    Vec::new(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule;
    use crate::rules::test_support::{findings, lint_as};
    use crate::targets::Target;

    const AS: &[Target] = &[Target::AgentSkills];
    const HEAD: &str = "---\nname: pdf\ndescription: Use when asked.\n---\n";

    #[test]
    fn body_empty() {
        let found = findings(&format!("{HEAD}\n  \n"), Rule::BodyEmpty, AS);
        assert_eq!(found[0].0, "---");
        assert!(findings(&format!("{HEAD}Do it.\n"), Rule::BodyEmpty, AS).is_empty());
    }

    #[test]
    fn body_too_long_by_lines_and_tokens() {
        let lines = "step\n".repeat(501);
        let found = findings(&format!("{HEAD}{lines}"), Rule::BodyTooLong, AS);
        assert!(found[0].1.contains("501 lines"));
        assert_eq!(found[0].0, "step");
        let wide = format!("{}\n", "word ".repeat(4_100));
        assert!(
            findings(&format!("{HEAD}{wide}"), Rule::BodyTooLong, AS)[0]
                .1
                .contains("tokens")
        );
        assert!(
            findings(
                &format!("{HEAD}{}", "step\n".repeat(400)),
                Rule::BodyTooLong,
                AS
            )
            .is_empty()
        );
    }

    #[test]
    fn broken_and_escaping_links() {
        let text = format!(
            "{HEAD}See [guide](references/guide.md), [gone](references/gone.md), run scripts/run.py and scripts/missing.sh, [up](../other/SKILL.md), [web](https://x.dev).\n"
        );
        let broken = findings(&text, Rule::BrokenLink, AS);
        assert_eq!(
            broken.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(),
            vec!["references/gone.md", "scripts/missing.sh"]
        );
        assert!(broken[0].1.contains("does not exist in the skill folder"));
        let escapes = findings(&text, Rule::LinkEscapesSkill, AS);
        assert_eq!(escapes[0].0, "../other/SKILL.md");
    }

    #[test]
    fn skill_md_case() {
        let diagnostics = lint_as(&format!("{HEAD}Body\n"), "skills/pdf/skill.md", AS);
        let finding = diagnostics
            .iter()
            .find(|d| d.rule == Rule::SkillMdCase)
            .unwrap();
        let rename = finding.fixes[0].rename.as_ref().unwrap();
        assert_eq!(rename.to, std::path::Path::new("skills/pdf/SKILL.md"));
        let clean = lint_as(&format!("{HEAD}Body\n"), "skills/pdf/SKILL.md", AS);
        assert!(clean.iter().all(|d| d.rule != Rule::SkillMdCase));
    }
}
