//! Body and folder rules: empty or overlong bodies, links to missing or outside files, and the
//! file name's case.

use std::path::{Component, Path, PathBuf};

use super::{Checker, Rule};
use crate::diagnostic::{Fix, Rename};
use crate::document::Reference;
use crate::targets::{Client, Effect};
use crate::text::{TextRange, lines_with_ranges};

pub(super) const BODY_MAX_LINES: usize = 500;
pub(super) const BODY_MAX_TOKENS: usize = 5_000;
/// How far up a path may be found before it counts as missing: a project skill's
/// `scripts/release.sh` or `[guide](docs/guide.md)` often names the repository's own files,
/// which the agent opens from the project folder.
const MAX_PARENT_LEVELS: usize = 8;
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
        rename: Some(Rename {
            from: path.to_path_buf(),
            to: path.with_file_name("SKILL.md"),
        }),
        ..Fix::new("Rename the file to SKILL.md", true, Vec::new())
    };
    let first_line = lines_with_ranges(checker.text)
        .next()
        .map_or(TextRange::empty(0), |(range, _)| range);
    // skills-ref looks for `SKILL.md`, then `skill.md`; every other client for `SKILL.md` only.
    let lowercase = name == "skill.md";
    checker.report(
        Rule::SkillMdCase,
        first_line,
        format!(
            "the file is named '{name}', not 'SKILL.md', which case-sensitive file systems (Linux, CI) tell apart"
        ),
        |target| match target {
            Client::AgentSkills if lowercase => Effect::Fine(
                "finds it (it also looks for skill.md)",
                "find it (they also look for skill.md)",
            ),
            Client::AgentSkills | Client::ClaudeUpload => Effect::Reject,
            _ => Effect::Skip,
        },
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
    // A body has no more characters than bytes: most are short enough to need no count.
    if source.len() / CHARS_PER_TOKEN <= BODY_MAX_TOKENS {
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
    let references: Vec<Reference> = checker
        .document
        .body
        .references
        .iter()
        .filter(|reference| reference.is_checked())
        .cloned()
        .collect();
    let mut disk = Lookups {
        exists: checker.context.exists,
        answered: Vec::new(),
    };
    // A file linked from many places in one skill is one thing to move: said at its first link.
    let mut escaped = std::collections::HashSet::new();
    for reference in references {
        let target = reference.target.replace('\\', "/");
        match inside_skill(&target) {
            None => {
                let exists = disk.exists(Path::new(&target));
                // Only where the skill is copied away from its repository is a link out of its
                // folder lost; one that exists nowhere is a broken link, and said once.
                if exists
                    && leaves_what_is_copied(checker.context, &target)
                    && escaped.insert(target.trim_end_matches('/').to_owned())
                {
                    let sibling = sibling_skill(&mut disk, &target);
                    let reported_at = checker.diagnostics.len();
                    let (message, why) = match &sibling {
                        Some(skill) => (
                            format!(
                                "{} points into the skill '{skill}' beside this one",
                                reference.target
                            ),
                            "it resolves where the two are installed together, and is missing where this one is installed alone",
                        ),
                        None => (
                            format!("{} points outside the skill folder", reference.target),
                            "installers copy only the skill folder, so the file will be missing",
                        ),
                    };
                    checker.report_all(
                        Rule::LinkEscapesSkill,
                        reference.range,
                        message,
                        why,
                        Vec::new(),
                    );
                    // Collections link their skills to one another on purpose.
                    if sibling.is_some() {
                        checker.set_severity_since(reported_at, crate::diagnostic::Severity::Info);
                    }
                }
                if !exists {
                    checker.report_all(
                        Rule::BrokenLink,
                        reference.range,
                        format!(
                            "{} does not exist, in the skill folder or outside it",
                            reference.target
                        ),
                        "the agent cannot open it",
                        Vec::new(),
                    );
                }
            }
            Some(relative) => {
                if relative.as_os_str().is_empty()
                    || disk.exists(&relative)
                    || (!reference.anchored && in_a_parent_folder(checker, &mut disk, &relative))
                {
                    continue;
                }
                checker.report_all(
                    Rule::BrokenLink,
                    reference.range,
                    format!("{} does not exist in the skill folder", reference.target),
                    "the agent cannot open it",
                    Vec::new(),
                );
            }
        }
    }
}

/// The skill beside this one that `target` (relative to this skill's folder) points into:
/// `../<folder>/…` where `<folder>` holds a SKILL.md.
fn sibling_skill(disk: &mut Lookups<'_>, target: &str) -> Option<String> {
    let mut parts = Path::new(target)
        .components()
        .filter(|part| !matches!(part, Component::CurDir));
    if parts.next() != Some(Component::ParentDir) {
        return None;
    }
    let Some(Component::Normal(folder)) = parts.next() else {
        return None;
    };
    let folder = folder.to_str()?;
    disk.exists(&Path::new("..").join(folder).join("SKILL.md"))
        .then(|| folder.to_owned())
}

/// Whether a link that climbs out of the skill folder reaches past what is installed with it:
/// nothing in a project's client folder, whose skills are used where they are; the plugin's
/// folder for a plugin's skill (Claude Code installs a plugin whole); the skill folder anywhere
/// else.
fn leaves_what_is_copied(context: &crate::rules::FileContext<'_>, target: &str) -> bool {
    match context.home {
        crate::targets::Home::ClientFolder(_) => false,
        crate::targets::Home::Portable => true,
        // `<plugin>/skills/<skill>/SKILL.md`: two levels up is the plugin's root.
        crate::targets::Home::Plugin => {
            let inside_plugin = Path::new("skills/skill").join(target);
            inside_skill(&inside_plugin.to_string_lossy()).is_none()
        }
    }
}

/// `FileContext::exists`, each path asked once per file: a body names the same file again and
/// again, and each answer is a look-up of its whole path on the disk.
struct Lookups<'a> {
    exists: &'a dyn Fn(&Path) -> bool,
    answered: Vec<(PathBuf, bool)>,
}

impl Lookups<'_> {
    fn exists(&mut self, path: &Path) -> bool {
        if let Some((_, found)) = self.answered.iter().find(|(asked, _)| asked == path) {
            return *found;
        }
        let found = (self.exists)(path);
        self.answered.push((path.to_path_buf(), found));
        found
    }
}

/// Whether `relative` exists below a folder that contains the skill folder.
fn in_a_parent_folder(checker: &Checker<'_>, disk: &mut Lookups<'_>, relative: &Path) -> bool {
    let levels = checker.context.path.parent().map_or(0, |folder| {
        folder
            .components()
            .filter(|component| matches!(component, Component::Normal(_)))
            .count()
    });
    let mut up = PathBuf::new();
    for _ in 0..levels.min(MAX_PARENT_LEVELS) {
        up.push("..");
        if disk.exists(&up.join(relative)) {
            return true;
        }
    }
    false
}

/// What `skill-lsp rules` says of the rules checked here.
pub(crate) fn rule_doc(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    use crate::rule_table::{Rule, RuleDoc};
    Some(match rule {
        Rule::BodyEmpty => RuleDoc::new(
            "Nothing but whitespace after the closing `---`.",
            "The body is the instructions the agent loads; an empty one teaches nothing.",
            "A SKILL.md that ends right after its frontmatter.",
            "Write the instructions.",
        ),
        Rule::BodyTooLong => RuleDoc::new(
            "The body is over 500 lines or about 5,000 tokens.",
            "The whole body enters the agent's context when the skill loads; progressive disclosure keeps it small.",
            "A 900-line SKILL.md with every API detail inline.",
            "Move detail into files under references/ and link them.",
        ),
        Rule::BrokenLink => RuleDoc::new(
            "A relative Markdown link, or a code span that is one `scripts/`, `references/` or `assets/` path naming a file with an extension, points to nothing: not in the skill folder (`{baseDir}/` and `${CLAUDE_SKILL_DIR}/` mean it), and, for a bare path, not in a folder above it either. A `../` link that exists nowhere counts too. Code blocks, HTML, comments, examples (after \"e.g.\", \"for example\" or an \"Example:\" line, in English, German, Spanish, French, Portuguese, Russian, Chinese, Japanese or Korean), patterns (`scripts/*.py`, `references/<name>.md`), placeholders (`path/to/…`, `your-…`), another skill's file (\"`pdf`'s `scripts/fill.py`\") and files to be written are left alone; `file.py:15` is checked as `file.py`.",
            "The agent follows these paths; a missing file wastes a turn or derails the task.",
            "Run `scripts/fill.py` when the folder has no scripts/fill.py.",
            "Create the file or correct the path.",
        ),
        Rule::LinkEscapesSkill => RuleDoc::new(
            "A relative link leaves what is installed with the skill (`../`) to a file that exists: the skill folder for a portable skill, the plugin's folder for a plugin's skill. Not reported in a project's client folder (`.claude/skills`, …), whose skills are used where they are; a link that exists nowhere is `broken-link` instead. A link into a skill beside this one (`../other/…` where `other` holds a SKILL.md) is information: it resolves where a collection is installed together. A file linked several times is reported at its first link.",
            "Installers copy only the skill folder (Claude Code copies a plugin whole); files outside it are missing wherever the skill is installed.",
            "`[shared](../common/notes.md)`",
            "Copy the file into the skill folder and link it there.",
        ),
        Rule::SkillMdCase => RuleDoc::new(
            "The file is named `skill.md` or `Skill.md`, not `SKILL.md`, and a selected client looks for `SKILL.md` only. skills-ref also accepts `skill.md` (not `Skill.md`); Claude Code, Codex, Copilot, OpenCode, Gemini CLI and claude.ai uploads want `SKILL.md`.",
            "Case-sensitive file systems (Linux, CI) tell the names apart, so those clients never find the skill.",
            "`skills/pdf/skill.md` in a project for Claude Code",
            "Rename the file to SKILL.md (safe; done in two steps for case-insensitive file systems).",
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use expect_test::expect;

    use crate::diagnostic::Severity;
    use crate::rules::test_support::{check, lint_as};
    use crate::rules::{FileContext, Rule, lint_text};
    use crate::targets::Client;

    const AS: &[Client] = &[Client::AgentSkills];
    const HEAD: &str = "---\nname: pdf\ndescription: Use when asked.\n---\n";

    #[test]
    fn body_empty() {
        check(
            AS,
            &format!("{HEAD}\n  \n"),
            expect![[r#"
                body-empty 4:1-4:4 warning: the skill has no instructions after its frontmatter — an agent that loads it learns nothing beyond the description
            "#]],
        );
        check(AS, &format!("{HEAD}Do it.\n"), expect![[""]]);
    }

    #[test]
    fn body_too_long_by_lines_and_tokens() {
        check(
            AS,
            &format!("{HEAD}{}", "step\n".repeat(501)),
            expect![[r#"
                body-too-long 505:1-505:5 warning: the body has 501 lines; keep it under 500 and move detail into references/ — agents load the whole body into their context
            "#]],
        );
        let wide = format!("{}\n", "word ".repeat(4_100));
        check(
            AS,
            &format!("{HEAD}{wide}"),
            expect![[r#"
                body-too-long 5:20001-5:20501 warning: the body is about 5125 tokens; keep it under 5000 and move detail into references/ — agents load the whole body into their context
            "#]],
        );
        check(
            AS,
            &format!("{HEAD}{}", "step\n".repeat(400)),
            expect![[""]],
        );
    }

    #[test]
    fn broken_and_escaping_links() {
        let text = format!(
            "{HEAD}See [guide](references/guide.md), [gone](references/gone.md), run `scripts/run.py` and `scripts/missing.sh`, [web](https://x.dev).\n"
        );
        check(
            AS,
            &text,
            expect![[r#"
                broken-link 5:42-5:60 warning: references/gone.md does not exist in the skill folder — the agent cannot open it
                broken-link 5:89-5:107 warning: scripts/missing.sh does not exist in the skill folder — the agent cannot open it
            "#]],
        );
    }

    /// Lints `body` as `repo/skills/pdf/SKILL.md` of a tree holding `files` (paths from the
    /// skill folder, `../` for the folders above it).
    fn lint_tree(body: &str, files: &[&str], targets: &[Client]) -> Vec<(Rule, String, String)> {
        lint_tree_at(crate::targets::Home::Portable, body, files, targets)
    }

    fn lint_tree_at(
        home: crate::targets::Home,
        body: &str,
        files: &[&str],
        targets: &[Client],
    ) -> Vec<(Rule, String, String)> {
        let text = format!("{HEAD}{body}");
        let exists = |relative: &Path| {
            let mut normal: Vec<String> = Vec::new();
            for part in relative.components() {
                match part {
                    std::path::Component::ParentDir => normal.push("..".into()),
                    std::path::Component::Normal(name) => {
                        normal.push(name.to_string_lossy().into_owned());
                    }
                    _ => {}
                }
            }
            files.contains(&normal.join("/").as_str())
        };
        let context = FileContext {
            path: Path::new("repo/skills/pdf/SKILL.md"),
            targets,
            advisory: crate::targets::ClientSet::NONE,
            home,
            exists: &exists,
            security: true,
        };
        lint_text(&text, &context)
            .into_iter()
            .filter(|d| matches!(d.rule, Rule::BrokenLink | Rule::LinkEscapesSkill))
            .map(|d| (d.rule, text[d.range.as_range()].to_owned(), d.message))
            .collect()
    }

    fn rules_and_texts(found: &[(Rule, String, String)]) -> Vec<(Rule, &str)> {
        found
            .iter()
            .map(|(rule, text, _)| (*rule, text.as_str()))
            .collect()
    }

    #[test]
    fn a_link_out_of_the_skill_is_broken_only_when_it_exists_nowhere() {
        let found = lint_tree(
            "[common](../common.md) and [gone](../gone.md)\n",
            &["../common.md"],
            AS,
        );
        // A link that exists nowhere is broken, and said once.
        assert_eq!(
            rules_and_texts(&found),
            vec![
                (Rule::LinkEscapesSkill, "../common.md"),
                (Rule::BrokenLink, "../gone.md"),
            ]
        );
        assert!(found[1].2.contains("in the skill folder or outside it"));
        // The same file linked again (a folder link with or without its slash) is said once.
        let found = lint_tree(
            "[a](../common.md), [b](../common.md), [c](../icons/) and [d](../icons)\n",
            &["../common.md", "../icons"],
            AS,
        );
        assert_eq!(
            rules_and_texts(&found),
            vec![
                (Rule::LinkEscapesSkill, "../common.md"),
                (Rule::LinkEscapesSkill, "../icons/"),
            ]
        );
    }

    /// A link out of the skill folder is lost only where the skill is copied away: never in a
    /// project's client folder (used in place), past the plugin's folder for a plugin's skill
    /// (installed whole), past the skill folder anywhere else.
    #[test]
    fn a_link_out_of_the_skill_matters_only_where_the_skill_is_copied() {
        use crate::targets::Home;
        let body =
            "[common](../common.md), [notes](../../common/notes.md), [repo](../../../README.md)\n";
        let files = [
            "../common.md",
            "../../common/notes.md",
            "../../../README.md",
        ];
        let escapes = |home| {
            let found = lint_tree_at(home, body, &files, AS);
            rules_and_texts(&found)
                .into_iter()
                .map(|(rule, text)| {
                    assert_eq!(rule, Rule::LinkEscapesSkill);
                    text.to_owned()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            escapes(Home::Portable),
            [
                "../common.md",
                "../../common/notes.md",
                "../../../README.md"
            ]
        );
        assert_eq!(escapes(Home::Plugin), ["../../../README.md"]);
        assert!(escapes(Home::ClientFolder(".claude")).is_empty());
        // A link into a sibling skill of the collection is information: it works where the
        // collection is installed together.
        let found = lint_tree_at(
            Home::Portable,
            "[other](../other/references/x.md)\n",
            &["../other/references/x.md", "../other/SKILL.md"],
            AS,
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .2
                .contains("points into the skill 'other' beside this one")
        );
    }

    #[test]
    fn a_path_of_the_project_is_not_broken() {
        // The repository's own `scripts/release.sh` and `docs/guide.md`, two folders up, which
        // the agent opens from the project folder; a placeholder means the skill folder itself.
        let found = lint_tree(
            "Run `scripts/release.sh`, `{baseDir}/scripts/release.sh`, [r](scripts/release.sh), [g](docs/guide.md).\n",
            &["../../scripts/release.sh", "../../docs/guide.md"],
            AS,
        );
        assert_eq!(
            rules_and_texts(&found),
            vec![(Rule::BrokenLink, "{baseDir}/scripts/release.sh")]
        );
        assert!(
            found[0]
                .2
                .starts_with("scripts/release.sh does not exist in the skill folder")
        );
    }

    #[test]
    fn placeholders_resolve_to_the_skill_folder() {
        let found = lint_tree(
            "Run `${CLAUDE_SKILL_DIR}/scripts/fill.py` and `$CLAUDE_SKILL_DIR/scripts/gone.py`, see [a]({baseDir}/references/a.md).\n",
            &["scripts/fill.py", "references/a.md"],
            AS,
        );
        assert_eq!(
            rules_and_texts(&found),
            vec![(Rule::BrokenLink, "$CLAUDE_SKILL_DIR/scripts/gone.py")]
        );
        assert!(found[0].2.starts_with("scripts/gone.py does not exist"));
    }

    #[test]
    fn code_comments_and_examples_are_never_broken_links() {
        let body = "```bash\npython scripts/gone.py\n[a](gone.md)\n```\n\n    [b](gone.md)\n\n\
                    <!-- [c](gone.md) -->\n\nPut helpers in assets/code, e.g. `scripts/rotate.py`.\n\n\
                    Example:\n`references/api.md`\n\nSee `scripts/tool.py:15` and `scripts/*.py`.\n";
        let found = lint_tree(body, &["scripts/tool.py"], AS);
        assert!(found.is_empty(), "{found:?}");
        // The line suffix is cut, not ignored: a missing file with a line is still missing.
        let found = lint_tree("See `scripts/gone.py:15:2`.\n", &[], AS);
        assert_eq!(
            rules_and_texts(&found),
            vec![(Rule::BrokenLink, "scripts/gone.py")]
        );
    }

    /// "For example" in the languages skills are written in, an intro line ending in a
    /// full-width colon, and placeholder paths make an example; the same line without them
    /// still names a missing file.
    #[test]
    fn examples_in_other_languages_and_placeholder_paths_are_not_broken_links() {
        let examples = [
            "Lege Hilfsdateien ab, z. B. `scripts/rotate.py`.",
            "Lege Hilfsdateien ab, beispielsweise `scripts/rotate.py`.",
            "Guarda los scripts, p. ej. `scripts/rotate.py`.",
            "Guarda los scripts, por ejemplo `scripts/rotate.py`.",
            "Rangez les scripts, par exemple `scripts/rotate.py`.",
            "Rangez les scripts (p. ex. `scripts/rotate.py`).",
            "Guarde os scripts, por exemplo `scripts/rotate.py`.",
            "Храните скрипты, например `scripts/rotate.py`.",
            "Например: `scripts/rotate.py`.",
            "把脚本放在这里，例如 `scripts/rotate.py`。",
            "スクリプトを置きます。例えば `scripts/rotate.py` です。",
            "스크립트를 둡니다. 예를 들어 `scripts/rotate.py`.",
            "Beispiel:\n`scripts/rotate.py`",
            "示例：\n`scripts/rotate.py`",
            "使用例：\n`scripts/rotate.py`",
            "Пример:\n`scripts/rotate.py`",
            "See [the report](path/to/report.md).",
            "Run `scripts/your-tool.py` on it.",
            "Read [notes](your-project/notes.md).",
        ];
        for body in examples {
            let found = lint_tree(&format!("{body}\n"), &[], AS);
            assert!(found.is_empty(), "{body}: {found:?}");
        }
        for body in [
            "Lege Hilfsdateien ab: `scripts/rotate.py`.",
            "把脚本放在这里 `scripts/rotate.py`。",
            "Храните скрипты в `scripts/rotate.py`.",
            "例外：\n`scripts/rotate.py`",
            "See [the report](paths/to/report.md).",
        ] {
            let found = lint_tree(&format!("{body}\n"), &[], AS);
            assert_eq!(found.len(), 1, "{body}: {found:?}");
            assert_eq!(found[0].0, Rule::BrokenLink, "{body}");
        }
    }

    #[test]
    fn skill_md_case_depends_on_the_targets() {
        let body = format!("{HEAD}Body\n");
        let case = |path: &str, targets: &[Client]| {
            lint_as(&body, path, targets)
                .into_iter()
                .find(|d| d.rule == Rule::SkillMdCase)
        };
        // skills-ref reads `skill.md`: with it alone selected, nothing breaks.
        assert!(case("skills/pdf/skill.md", AS).is_none());
        let both = case(
            "skills/pdf/skill.md",
            &[Client::AgentSkills, Client::ClaudeCode],
        )
        .unwrap();
        assert_eq!(both.severity, Severity::Error);
        assert_eq!(both.targets, vec![Client::ClaudeCode]);
        assert!(
            both.message.ends_with(
                "— Claude Code skips this skill; skills-ref finds it (it also looks for skill.md)"
            ),
            "{}",
            both.message
        );
        let rename = both.fixes[0].rename.as_ref().unwrap();
        assert_eq!(rename.to, Path::new("skills/pdf/SKILL.md"));
        // `Skill.md` is neither name skills-ref tries.
        let mixed = case("skills/pdf/Skill.md", AS).unwrap();
        assert_eq!(mixed.severity, Severity::Error);
        assert!(
            mixed.message.ends_with("— skills-ref rejects it"),
            "{}",
            mixed.message
        );
        for target in [
            Client::ClaudeCode,
            Client::Codex,
            Client::Copilot,
            Client::OpenCode,
            Client::Gemini,
        ] {
            assert!(case("x/pdf/skill.md", &[target]).is_some(), "{target}");
        }
        assert!(case("skills/pdf/SKILL.md", &[Client::ClaudeCode]).is_none());
    }
}
