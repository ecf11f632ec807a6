//! The rules of design.md §4: the per-file lint entry point and the checks; the ids, default
//! severities and groups are in `rule_table`.
//!
//! File, field and body rules run on one `SkillDocument`; workspace rules (`duplicate-name`,
//! `symlink-escape`, `catalog-budget`) run on the loader's registry in `cross_skill`.

mod body;
pub(crate) mod cross_skill;
pub(crate) mod fields;
mod file;
pub mod fix;
pub(crate) mod openai_yaml;
mod recover;
pub(crate) mod suggest;
pub(crate) mod unknown_mention;

use std::collections::HashMap;
use std::path::Path;

use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::document::SkillDocument;
use crate::targets::{Client, ClientSet, Effect, consequence};
use crate::text::TextRange;

pub use crate::rule_table::{Group, Rule, RuleDoc, Weighing};

/// Severity overrides from the config's `[rules]` table; `None` turns a rule off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RuleSettings {
    pub(crate) overrides: HashMap<Rule, Option<Severity>>,
}

impl RuleSettings {
    #[cfg(test)]
    #[must_use]
    pub(crate) fn is_off(&self, rule: Rule) -> bool {
        matches!(self.overrides.get(&rule), Some(None))
    }
}

/// What a file's rules need to know besides its text.
pub struct FileContext<'a> {
    /// The SKILL.md path (as given or absolute): its file name and folder name matter.
    pub path: &'a Path,
    /// The selected targets.
    pub targets: &'a [Client],
    /// The validators among them that nobody chose: their rejection is a portability warning.
    pub advisory: ClientSet,
    /// Where the skill lives: whether it is used in place or copied away to be installed.
    pub home: crate::targets::Home,
    /// Whether a path relative to the skill folder exists (for `broken-link`).
    pub exists: &'a dyn Fn(&Path) -> bool,
    /// Whether any security rule is on: with all of them off, the file is not scanned at all.
    pub security: bool,
}

impl FileContext<'_> {
    #[must_use]
    pub(crate) fn folder_name(&self) -> Option<&str> {
        self.path.parent()?.file_name()?.to_str()
    }

    #[must_use]
    pub(crate) fn file_name(&self) -> Option<&str> {
        self.path.file_name()?.to_str()
    }
}

/// The severity a finding gets from what it does to the selected targets (design.md §4): an
/// error when any of them skips, rejects or misreads the skill, whatever the rule's default; when
/// they only load it degraded, an error-by-default rule drops to a warning, and warning, info and
/// hint rules keep their default. A validator nobody chose (`advisory`) that rejects the skill
/// makes no error: every client still loads it.
#[must_use]
pub(crate) fn severity_for(
    rule: Rule,
    effects: &[(Client, Effect)],
    advisory: ClientSet,
) -> Severity {
    let only_advised = effects
        .iter()
        .filter(|(_, effect)| effect.affects())
        .all(|(client, _)| advisory.contains(*client));
    if effects
        .iter()
        .any(|(client, effect)| effect.is_breaking() && !advisory.contains(*client))
    {
        Severity::Error
    } else if only_advised
        && !effects.iter().any(|(_, effect)| effect.is_breaking())
        && rule.default_severity() == Severity::Warning
    {
        // Only a validator nobody chose would read it less well; no client loads it worse.
        Severity::Info
    } else if rule.default_severity() == Severity::Error {
        Severity::Warning
    } else {
        rule.default_severity()
    }
}

/// Collects the findings of one file and words them for the selected targets.
pub(crate) struct Checker<'a> {
    pub text: &'a str,
    /// The file's own text, which `text` rewrites for some passes: what clients read.
    pub file: &'a str,
    pub document: &'a SkillDocument,
    pub context: &'a FileContext<'a>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    /// Reports a finding whose effect differs per client. It fires only when a selected target
    /// is affected, and its message ends with the consequence for every selected target.
    pub(crate) fn report(
        &mut self,
        rule: Rule,
        range: TextRange,
        message: impl Into<String>,
        effect: impl Fn(Client) -> Effect,
        fixes: Vec<Fix>,
    ) {
        let file = self.file;
        let effects: Vec<(Client, Effect)> = self
            .context
            .targets
            .iter()
            .map(|&target| match effect(target) {
                // The clients read fields more loosely (or differently) than the rules assume,
                // and Codex, OpenCode and Gemini CLI recover some broken frontmatter: a skip
                // over the file's content is claimed only when the client's own reading
                // (`clients`) drops the file.
                Effect::Skip
                    if matches!(
                        rule.group(),
                        crate::rule_table::Group::File | crate::rule_table::Group::Fields
                    ) && client_loads(target, file, self.context.folder_name())
                        == Some(true) =>
                {
                    (
                        target,
                        Effect::Fine(
                            "reads it anyway and lists the skill",
                            "read it anyway and list the skill",
                        ),
                    )
                }
                effect => (target, effect),
            })
            .collect();
        if !effects.iter().any(|(_, effect)| effect.affects()) {
            return;
        }
        let advisory = self.context.advisory;
        let severity = severity_for(rule, &effects, advisory);
        let mut diagnostic = Diagnostic::new(
            rule,
            range,
            format!(
                "{} — {}{}",
                message.into(),
                consequence(&effects),
                crate::targets::portability_note(&effects, advisory)
            ),
        );
        diagnostic.severity = severity;
        diagnostic.targets = effects
            .iter()
            .filter(|(_, effect)| effect.affects())
            .map(|(target, _)| *target)
            .collect();
        diagnostic.fixes = fixes;
        self.diagnostics.push(diagnostic);
    }

    /// Sets the severity of what was reported since `start` (`diagnostics.len()` before the
    /// report): for a finding whose weight is not decided by its effect on the clients alone.
    pub(crate) fn set_severity_since(&mut self, start: usize, severity: Severity) {
        for diagnostic in self.diagnostics.iter_mut().skip(start) {
            diagnostic.severity = severity;
        }
    }

    /// Reports a finding that hurts every client alike; `why` is the closing consequence.
    pub(crate) fn report_all(
        &mut self,
        rule: Rule,
        range: TextRange,
        message: impl Into<String>,
        why: &str,
        fixes: Vec<Fix>,
    ) {
        let mut diagnostic = Diagnostic::new(rule, range, format!("{} — {why}", message.into()));
        diagnostic.targets = self.context.targets.to_vec();
        diagnostic.fixes = fixes;
        self.diagnostics.push(diagnostic);
    }
}

/// Whether a modelled client loads the SKILL.md with this text (`clients`); `None` for the
/// clients whose reading is not modelled here.
fn client_loads(target: Client, file: &str, folder: Option<&str>) -> Option<bool> {
    use crate::clients::{ClientReading, codex, copilot, gemini, opencode};
    match target {
        Client::Codex => Some(codex::read(file).reads_frontmatter()),
        // Without a frontmatter name, Copilot makes one of the folder's.
        Client::Copilot => Some(match copilot::read(file) {
            copilot::Reading::Loaded { name: None, .. } => {
                folder.is_none_or(|folder| copilot::valid_name(folder).is_ok())
            }
            copilot::Reading::Loaded { .. } => true,
            copilot::Reading::Refused(_) => false,
        }),
        // OpenCode loads a skill without a description but does not list it.
        Client::OpenCode => Some(opencode::read(file).reads_frontmatter()),
        Client::Gemini => Some(gemini::read(file).reads_frontmatter()),
        _ => None,
    }
}

/// Lints one SKILL.md given as bytes: the file, frontmatter, field and body rules.
///
/// Returns the text the ranges refer to (the file's text, or a lossy decoding of it when it is
/// not UTF-8) and the findings, sorted by position.
#[must_use]
pub fn lint_bytes(bytes: &[u8], context: &FileContext<'_>) -> (String, Vec<Diagnostic>) {
    if let Some(encoding) = crate::text::wide_encoding(bytes) {
        return wide_text(bytes, encoding, context);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let diagnostics = lint_text(text, context);
            (text.to_owned(), diagnostics)
        }
        Err(error) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let at = error.valid_up_to();
            let width = text[at..].chars().next().map_or(0, char::len_utf8);
            let mut diagnostics = Vec::new();
            let mut diagnostic = Diagnostic::new(
                Rule::InvalidUtf8,
                TextRange::new(at, at + width),
                format!(
                    "the file is not valid UTF-8: byte {at} (0x{:02X}) starts no valid character — \
                     every client fails to read it",
                    bytes[at]
                ),
            );
            diagnostic.targets = context.targets.to_vec();
            diagnostics.push(diagnostic);
            (text, diagnostics)
        }
    }
}

/// A file in UTF-16 or UTF-32: one finding that names the encoding, instead of the findings of
/// its text misread as UTF-8 ("no frontmatter" for the NUL bytes between the characters).
fn wide_text(bytes: &[u8], encoding: &str, context: &FileContext<'_>) -> (String, Vec<Diagnostic>) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    let width = text.chars().next().map_or(0, char::len_utf8);
    let mut diagnostic = Diagnostic::new(
        Rule::InvalidUtf8,
        TextRange::new(0, width),
        format!(
            "the file is {encoding} text, not UTF-8 — every client fails to read it; save it as \
             UTF-8"
        ),
    );
    diagnostic.targets = context.targets.to_vec();
    (text, vec![diagnostic])
}

/// Lints one SKILL.md's bytes and reads what the loader would register from it, with the
/// readings of `clients`, parsing once.
#[must_use]
pub(crate) fn lint_and_read(
    bytes: Vec<u8>,
    context: &FileContext<'_>,
    folder: &str,
    clients: ClientSet,
) -> FileAnalysis {
    let wide = crate::text::wide_encoding(&bytes).is_some();
    match String::from_utf8(bytes) {
        Ok(text) if !wide => {
            let document = SkillDocument::parse_for_rules(&text, context.security);
            let (diagnostics, evidence) = lint_document_with_evidence(&text, &document, context);
            let metadata =
                crate::workspace::loader::read_metadata_parsed(&text, &document, folder, clients);
            let mentions = crate::document::mentions::body_mentions(&text, &document.body);
            FileAnalysis {
                text,
                diagnostics,
                metadata: Some(metadata),
                mentions,
                evidence,
            }
        }
        read => {
            let bytes =
                read.map_or_else(std::string::FromUtf8Error::into_bytes, String::into_bytes);
            let (text, diagnostics) = lint_bytes(&bytes, context);
            FileAnalysis {
                text,
                diagnostics,
                metadata: None,
                mentions: Vec::new(),
                evidence: Vec::new(),
            }
        }
    }
}

/// One file's findings and what the workspace rules need from it.
pub(crate) struct FileAnalysis {
    /// The text the ranges refer to (lossy when the file is not UTF-8).
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    /// What the loader would register; `None` for text that is not UTF-8.
    pub(crate) metadata: Option<crate::workspace::loader::Metadata>,
    /// Skill mentions in the body.
    pub mentions: Vec<crate::document::mentions::Mention>,
    /// What the SKILL.md's own blocks show the skill can do (`security`).
    pub(crate) evidence: Vec<crate::security::Evidence>,
}

/// Lints one SKILL.md's text.
#[must_use]
pub fn lint_text(text: &str, context: &FileContext<'_>) -> Vec<Diagnostic> {
    let document = SkillDocument::parse(text);
    lint_document(text, &document, context)
}

#[must_use]
pub(crate) fn lint_document(
    text: &str,
    document: &SkillDocument,
    context: &FileContext<'_>,
) -> Vec<Diagnostic> {
    lint_document_with_evidence(text, document, context).0
}

/// [`lint_document`], with the capabilities the security rules saw in the file's blocks.
fn lint_document_with_evidence(
    text: &str,
    document: &SkillDocument,
    context: &FileContext<'_>,
) -> (Vec<Diagnostic>, Vec<crate::security::Evidence>) {
    let mut checker = Checker {
        text,
        file: text,
        document,
        context,
        diagnostics: Vec::new(),
    };
    file::check(&mut checker);
    fields::check(&mut checker);
    body::check(&mut checker);
    let mut diagnostics = checker.diagnostics;
    let security = if context.security {
        crate::security::skill_findings(context.path, text, document)
    } else {
        crate::security::Scan::default()
    };
    diagnostics.extend(security.diagnostics.into_iter().map(|mut diagnostic| {
        diagnostic.targets = context.targets.to_vec();
        diagnostic
    }));
    fix::keep_comments(text, document, &mut diagnostics);
    fix::keep_readings(
        text,
        document,
        context.folder_name().unwrap_or_default(),
        context.targets,
        &mut diagnostics,
    );
    sort(&mut diagnostics);
    (diagnostics, security.evidence)
}

/// Deterministic order: position, then rule.
pub(crate) fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.range.start, a.range.end, a.rule).cmp(&(b.range.start, b.range.end, b.rule))
    });
}

/// The explanations of the rules this module checks, for `skill-lsp rules`.
pub(crate) fn rule_docs(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    file::rule_doc(rule)
        .or_else(|| fields::rule_docs(rule))
        .or_else(|| body::rule_doc(rule))
        .or_else(|| cross_skill::rule_doc(rule))
        .or_else(|| openai_yaml::rule_doc(rule))
        .or_else(|| unknown_mention::rule_doc(rule))
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::path::Path;

    use expect_test::Expect;

    use super::{FileContext, lint_text};
    use crate::diagnostic::{Diagnostic, apply_edits};
    use crate::rules::Rule;
    use crate::targets::Client;

    pub(crate) fn lint_as(text: &str, path: &str, targets: &[Client]) -> Vec<Diagnostic> {
        let exists = |relative: &Path| {
            let name = relative.to_string_lossy();
            name == "references/guide.md" || name == "scripts" || name == "scripts/run.py"
        };
        let context = FileContext {
            path: Path::new(path),
            targets,
            advisory: crate::targets::ClientSet::NONE,
            home: crate::targets::Home::Portable,
            exists: &exists,
            security: true,
        };
        lint_text(text, &context)
    }

    pub(crate) fn lint(text: &str) -> Vec<Diagnostic> {
        lint_as(text, "skills/pdf/SKILL.md", &[Client::AgentSkills])
    }

    /// The findings of one rule: (covered text, message).
    pub(crate) fn findings(text: &str, rule: Rule, targets: &[Client]) -> Vec<(String, String)> {
        lint_as(text, "skills/pdf/SKILL.md", targets)
            .into_iter()
            .filter(|diagnostic| diagnostic.rule == rule)
            .map(|diagnostic| {
                (
                    text[diagnostic.range.as_range()].to_owned(),
                    diagnostic.message,
                )
            })
            .collect()
    }

    /// Applies the first fix of the first finding of `rule` and returns the new text.
    pub(crate) fn fixed(text: &str, rule: Rule, targets: &[Client]) -> String {
        let diagnostic = lint_as(text, "skills/pdf/SKILL.md", targets)
            .into_iter()
            .find(|diagnostic| diagnostic.rule == rule)
            .unwrap_or_else(|| panic!("{rule} did not fire on {text:?}"));
        let fix = diagnostic
            .fixes
            .first()
            .unwrap_or_else(|| panic!("{rule} has no fix"));
        apply_edits(text, &fix.edits).expect("fix edits apply")
    }

    /// A finding as rule tests write it: `rule L:C-L:C severity: message`, lines and columns
    /// 1-based, columns in characters.
    fn render(text: &str, diagnostic: &Diagnostic) -> String {
        let at = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
            format!("{line}:{column}")
        };
        format!(
            "{} {}-{} {}: {}",
            diagnostic.rule,
            at(diagnostic.range.start),
            at(diagnostic.range.end),
            diagnostic.severity.as_str(),
            diagnostic.message
        )
    }

    /// Every finding of `input` linted as `skills/pdf/SKILL.md` for `targets`, one [`render`]ed
    /// line each.
    pub(crate) fn rendered(targets: &[Client], input: &str) -> String {
        lint_as(input, "skills/pdf/SKILL.md", targets)
            .iter()
            .map(|diagnostic| render(input, diagnostic) + "\n")
            .collect()
    }

    /// Checks the findings of `input` against `expect`, in full: a changed message fails here,
    /// and `UPDATE_EXPECT=1 cargo test --lib` writes the new findings into the test for the
    /// diff to show.
    #[track_caller]
    pub(crate) fn check(targets: &[Client], input: &str, expect: Expect) {
        expect.assert_eq(&rendered(targets, input));
    }

    pub(crate) fn rules_of(text: &str, targets: &[Client]) -> Vec<Rule> {
        lint_as(text, "skills/pdf/SKILL.md", targets)
            .into_iter()
            .map(|diagnostic| diagnostic.rule)
            .collect()
    }
}

#[cfg(test)]
mod robustness {
    //! Arbitrary edits to real SKILL.md text: no panic, every range on char boundaries inside the
    //! text, every fix applies and re-lints.

    use std::path::Path;

    use super::{FileContext, lint_and_read, lint_bytes, lint_text};
    use crate::diagnostic::apply_edits;
    use crate::targets::ALL_CLIENTS;
    use crate::targets::ClientSet;

    const SEEDS: &[&str] = &[
        "---\nname: pdf\ndescription: Fill forms. Use when asked.\nmetadata:\n  k: v\nallowed-tools: [Read, Grep]\n---\n# PDF\n\nRun scripts/x.py and [a](references/a.md).\n",
        "\u{feff}---\r\nname: Ünïcödé 日本\r\ndescription: |\r\n  a: b\r\n  ---\r\n---\r\nbody 😀\r\n",
        "<!-- c -->\n---\ndescription: Use when: x # y\nhooks:\n  Pre: [1, {a: b}]\n---\n",
        "----\nname: 3000\ndescription: >-\n  x\n--- x\n",
    ];

    const INSERTS: &[&str] = &[
        ":", ": ", "\"", "'", "\t", "\n", "\r\n", "---\n", "- ", "[", "{", "#", "é", "😀", "|",
        ">", "&a", "*a", "!!str ", "\u{feff}", "](", "../",
    ];

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            usize::try_from(self.0 % 1_000_000).unwrap_or(0)
        }
    }

    fn mutate(text: &str, rng: &mut Rng) -> String {
        let mut out = text.to_owned();
        for _ in 0..=(rng.next() % 4) {
            let mut at = rng.next() % (out.len() + 1);
            while !out.is_char_boundary(at) {
                at -= 1;
            }
            match rng.next() % 3 {
                0 => out.insert_str(at, INSERTS[rng.next() % INSERTS.len()]),
                1 => {
                    let mut end = (at + 1 + rng.next() % 8).min(out.len());
                    while !out.is_char_boundary(end) {
                        end -= 1;
                    }
                    out.replace_range(at..end, "");
                }
                _ => out.truncate(at),
            }
        }
        out
    }

    #[test]
    fn mutated_skills_never_panic_and_fixes_stay_valid() {
        let exists = |_: &Path| false;
        let mut rng = Rng(0x5eed_cafe_f00d);
        for round in 0..1_500 {
            let seed = SEEDS[round % SEEDS.len()];
            let text = mutate(seed, &mut rng);
            let targets = [
                ALL_CLIENTS[round % ALL_CLIENTS.len()],
                ALL_CLIENTS[(round / 7) % ALL_CLIENTS.len()],
            ];
            let context = FileContext {
                path: Path::new("skills/pdf/SKILL.md"),
                targets: &targets,
                advisory: crate::targets::ClientSet::NONE,
                home: crate::targets::Home::Portable,
                exists: &exists,
                security: true,
            };
            for diagnostic in lint_text(&text, &context) {
                let range = diagnostic.range;
                assert!(
                    range.end <= text.len()
                        && text.is_char_boundary(range.start)
                        && text.is_char_boundary(range.end),
                    "{text:?} {diagnostic:?}"
                );
                for fix in &diagnostic.fixes {
                    let fixed = apply_edits(&text, &fix.edits)
                        .unwrap_or_else(|error| panic!("{error}: {text:?} {fix:?}"));
                    let _ = lint_text(&fixed, &context);
                }
            }
        }
    }

    #[test]
    fn wide_text_says_its_encoding_instead_of_missing_frontmatter() {
        let exists = |_: &Path| false;
        let context = FileContext {
            path: Path::new("skills/pdf/SKILL.md"),
            targets: &ALL_CLIENTS,
            advisory: crate::targets::ClientSet::NONE,
            home: crate::targets::Home::Portable,
            exists: &exists,
            security: true,
        };
        let skill = "---\nname: pdf\ndescription: Fills forms. Use when asked.\n---\nBody\n";
        // Without a mark the bytes are valid UTF-8 (NUL between the characters).
        let bare: Vec<u8> = skill.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let marked = [
            &[0xFE, 0xFF][..],
            &skill
                .encode_utf16()
                .flat_map(u16::to_be_bytes)
                .collect::<Vec<_>>(),
        ]
        .concat();
        for (bytes, encoding) in [(bare, "UTF-16LE"), (marked, "UTF-16BE")] {
            for diagnostics in [
                lint_bytes(&bytes, &context).1,
                lint_and_read(bytes.clone(), &context, "pdf", ClientSet::NONE).diagnostics,
            ] {
                assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
                assert_eq!(diagnostics[0].rule, super::Rule::InvalidUtf8);
                assert!(
                    diagnostics[0].message.contains(encoding)
                        && diagnostics[0].message.contains("save it as UTF-8"),
                    "{}",
                    diagnostics[0].message
                );
            }
        }
    }

    #[test]
    fn invalid_utf8_points_at_the_first_bad_byte() {
        let exists = |_: &Path| false;
        let context = FileContext {
            path: Path::new("skills/pdf/SKILL.md"),
            targets: &ALL_CLIENTS,
            advisory: crate::targets::ClientSet::NONE,
            home: crate::targets::Home::Portable,
            exists: &exists,
            security: true,
        };
        let (text, diagnostics) = lint_bytes(b"---\nname: caf\xe9\n", &context);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].rule, super::Rule::InvalidUtf8);
        assert_eq!(&text[diagnostics[0].range.as_range()], "\u{fffd}");
        assert!(diagnostics[0].message.contains("byte 13 (0xE9)"));
        let (_, clean) = lint_bytes(
            b"---\nname: pdf\ndescription: Use when asked.\n---\nBody\n",
            &context,
        );
        assert!(
            clean
                .iter()
                .all(|diagnostic| diagnostic.rule != super::Rule::InvalidUtf8)
        );
    }
}

#[cfg(test)]
mod severity {
    use super::{Rule, severity_for};
    use crate::diagnostic::Severity;
    use crate::targets::{Client, Effect};

    #[test]
    fn follows_the_worst_effect_whatever_the_default() {
        let degrade = Effect::Degrade("x", "x");
        for (rule, effects, expected) in [
            (
                Rule::FlowStyle,
                vec![(Client::AgentSkills, Effect::Reject)],
                Severity::Error,
            ),
            (
                Rule::MetadataValue,
                vec![(Client::Codex, Effect::Skip)],
                Severity::Error,
            ),
            (
                Rule::AllowedToolsShape,
                vec![(Client::ClaudeCode, Effect::Misread)],
                Severity::Error,
            ),
            (
                Rule::UnknownField,
                vec![(Client::Codex, degrade)],
                Severity::Warning,
            ),
            (
                Rule::NameMismatch,
                vec![(Client::AgentSkills, degrade)],
                Severity::Warning,
            ),
            (
                Rule::DescriptionTrigger,
                vec![(Client::Codex, degrade)],
                Severity::Hint,
            ),
            (
                Rule::CompatibilityLength,
                vec![
                    (Client::ClaudeCode, Effect::Load),
                    (Client::OpenCode, Effect::Reject),
                ],
                Severity::Error,
            ),
        ] {
            assert_eq!(
                severity_for(rule, &effects, crate::targets::ClientSet::NONE),
                expected,
                "{rule}"
            );
        }
    }
}

#[cfg(test)]
mod fix_properties;
