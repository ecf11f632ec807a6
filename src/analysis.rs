//! The one analysis engine: everything `check`, the language server (push and pull) and
//! `skill/catalog` report about a SKILL.md comes from here.
//!
//! A file's findings are its file, field and body rules ([`Engine::lint_file`]) plus the
//! workspace rules of the registry it belongs to ([`Engine::workspace_findings`]), with the
//! severity overrides applied once, in [`Engine::apply_levels`]. Front ends only convert: they choose
//! where text comes from (disk or an editor buffer) and how positions are printed, never which
//! rules run or how a registry is built. Registries come from the loader
//! ([`crate::workspace::loader::roots_for`] and the index), whatever the front end.

use std::collections::{HashMap, HashSet};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::document::mentions::Mention;
use crate::plugins::{Files, ManifestContext, Profile};
use crate::rules::suggest::{NearIndex, NearNames};
use crate::rules::{self, FileAnalysis, FileContext, RuleSettings};
use crate::targets::{Client, ClientSet, Home};
use crate::workspace::{Registry, Skill};

/// A registry as the engine analyses files against it: the registry, shared, with the index
/// `unknown-mention` builds from its names on first use. Clones share both, so a registry is
/// indexed once however many files (`check`) or requests (the server) are analysed against it.
/// The index is kept here rather than in the registry, which stays the loader's plain data; a
/// new registry makes a new view, and [`RegistryView::replace_at`] drops the index when a name
/// changes, so no analysis sees an index of other names.
#[derive(Clone, Debug, Default)]
pub(crate) struct RegistryView {
    registry: Arc<Registry>,
    near: Arc<NearIndex>,
    /// The members' paths, hashed on first use: `Path`'s `==` walks components, and an editor
    /// asks whether its document is a member at every analysis. [`RegistryView::replace_at`]
    /// keeps the paths, so it keeps these.
    members: Arc<OnceLock<HashSet<PathBuf>>>,
}

impl From<Registry> for RegistryView {
    fn from(registry: Registry) -> Self {
        Self {
            registry: Arc::new(registry),
            near: Arc::default(),
            members: Arc::default(),
        }
    }
}

impl Deref for RegistryView {
    type Target = Registry;

    fn deref(&self) -> &Registry {
        &self.registry
    }
}

impl RegistryView {
    /// Whether `path` is one of [`Registry::members`].
    #[must_use]
    pub(crate) fn is_member(&self, path: &Path) -> bool {
        self.members
            .get_or_init(|| self.registry.members().cloned().collect())
            .contains(path)
    }

    /// Builds the index `unknown-mention` looks names up in, as [`NearNames::index`].
    pub(crate) fn index_names(&self) {
        NearNames::new(&self.registry, &self.near).index();
    }

    /// [`Registry::replace_at`] on this view's registry (copied first if an analysis still
    /// holds it). Names and their order are all the index knows, so it is kept when only a
    /// description changed: typing in one skill of a large workspace does not re-index it.
    pub(crate) fn replace_at(&mut self, position: usize, skill: Skill) {
        let renamed = self.registry.skills[position].name != skill.name;
        Arc::make_mut(&mut self.registry).replace_at(position, skill);
        if renamed {
            self.near = Arc::default();
        }
    }
}

/// The workspace findings of one registry by file ([`Engine::workspace_batch`]).
#[derive(Debug, Default)]
pub(crate) struct WorkspaceBatch {
    findings: HashMap<PathBuf, Vec<Diagnostic>>,
}

/// Whether `path` is `__pycache__/NAME.TAG.pyc` beside a `NAME.py` of `names`.
fn has_python_source(path: &Path, names: &std::collections::HashSet<PathBuf>) -> bool {
    let Some(cache) = path
        .parent()
        .filter(|parent| parent.ends_with("__pycache__"))
    else {
        return false;
    };
    let Some(stem) = path
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(|name| name.strip_suffix(".pyc"))
        .and_then(|name| name.split('.').next())
    else {
        return false;
    };
    cache
        .parent()
        .is_some_and(|folder| names.contains(&folder.join(format!("{stem}.py"))))
}

/// What [`Engine::scan_skill_files`] found in one skill's folder.
#[derive(Debug, Default)]
pub(crate) struct SkillScan {
    /// The other files with findings: path, text (empty for binaries), findings.
    pub files: Vec<(PathBuf, String, Vec<Diagnostic>)>,
    /// The findings on the SKILL.md that need the whole folder: its grants (`permissions`) and
    /// `capability-mismatch`.
    pub skill_md: Vec<Diagnostic>,
    /// One piece of evidence per capability the skill shows, the notable first.
    pub evidence: Vec<crate::security::Evidence>,
}

impl crate::security::SkillGate for Engine {
    fn security_errors(&self, skill_md: &Path, text: &str) -> Vec<String> {
        self.security_report(skill_md, text).0
    }
}

/// What decides a run's findings besides the files: targets, rule levels, the context window.
#[derive(Clone, Debug, Default)]
pub(crate) struct Engine {
    /// Targets chosen outright (`--target`, the editor's `skillLsp.targets`); they win over the
    /// config's, which win over the folder's owner (design.md §4).
    pub targets: Option<Vec<Client>>,
    pub config: Config,
    /// Rule levels from the editor, applied after the config's.
    pub client_rules: RuleSettings,
    /// The model's context window in tokens, for `catalog-budget`.
    pub context_window: Option<u64>,
    /// The extra checks of `claude plugin validate --profile` for plugin manifests.
    pub plugin_profile: Option<Profile>,
    /// Which folders are plugin roots, as the disk answered ([`Engine::home_of`]).
    plugin_roots: Arc<Mutex<HashMap<PathBuf, bool>>>,
}

impl Engine {
    #[must_use]
    pub(crate) fn new(config: Config) -> Self {
        Self {
            config,
            ..Self::default()
        }
    }

    /// The selected targets for the SKILL.md at `path`.
    #[must_use]
    pub(crate) fn targets_for(&self, path: &Path) -> Vec<Client> {
        self.reading_for(path).0
    }

    /// The targets for the SKILL.md at `path` and which of them are validators judged for
    /// portability only: the targets chosen (`--target`, the editor's, the config's), which
    /// are all taken at their word, or else those of where the skill lives ([`Home`]).
    #[must_use]
    pub(crate) fn reading_for(&self, path: &Path) -> (Vec<Client>, ClientSet) {
        match self.chosen_targets() {
            Some(chosen) => (chosen, ClientSet::NONE),
            None => self.home_of(path).readers(),
        }
    }

    /// [`Engine::reading_for`] a skill known to live at `home`.
    fn reading_at(&self, home: Home) -> (Vec<Client>, ClientSet) {
        self.chosen_targets()
            .map_or_else(|| home.readers(), |chosen| (chosen, ClientSet::NONE))
    }

    /// The targets chosen outright or by the config, which win over where a skill lives.
    fn chosen_targets(&self) -> Option<Vec<Client>> {
        self.targets.clone().or_else(|| self.config.targets.clone())
    }

    /// Whom the SKILL.md at `path` is checked for, as a summary groups skills: `plugin skills
    /// for Claude Code`, `portable skills for Claude Code, Codex, … (skills-ref for
    /// portability)`, or `skills for the chosen targets: …`.
    #[must_use]
    pub(crate) fn checked_for(&self, path: &Path) -> String {
        // Where the skill lives is asked only when it decides.
        let home = self.chosen_targets().is_none().then(|| self.home_of(path));
        let (targets, advisory) = home.map_or_else(|| self.reading_for(path), Home::readers);
        let names = |advised: bool| {
            let names: Vec<&str> = targets
                .iter()
                .filter(|target| advisory.contains(**target) == advised)
                .map(|target| target.display())
                .collect();
            crate::targets::join_names(&names)
        };
        let whom = if advisory.is_empty() {
            names(false)
        } else {
            format!("{} ({} for portability)", names(false), names(true))
        };
        match home {
            Some(home) => format!("{} for {whom}", home.describe()),
            None => format!("skills for the chosen targets: {whom}"),
        }
    }

    /// Where the SKILL.md at `path` lives; whether a folder is a plugin's root is asked of the
    /// disk once per folder.
    #[must_use]
    pub(crate) fn home_of(&self, path: &Path) -> Home {
        Home::of(path, &|root| {
            let mut known = self
                .plugin_roots
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            *known.entry(root.to_path_buf()).or_insert_with(|| {
                crate::plugins::is_plugin_root(root, &crate::workspace::read::DiskFiles)
            })
        })
    }

    /// The findings of one plugin manifest (`.claude-plugin/plugin.json` or `marketplace.json`),
    /// levels applied, with the text their ranges refer to; `None` when `path` is no manifest.
    /// `files` answers for the plugin's paths (the disk, or the editor's view of it).
    #[must_use]
    pub(crate) fn lint_manifest(
        &self,
        path: &Path,
        bytes: &[u8],
        files: &dyn Files,
    ) -> Option<(String, Vec<Diagnostic>)> {
        let context = ManifestContext {
            path,
            profile: self.plugin_profile,
            files,
        };
        let (text, mut diagnostics) = crate::plugins::lint_manifest(bytes, &context)?;
        self.apply_levels(&mut diagnostics);
        rules::sort(&mut diagnostics);
        Some((text, diagnostics))
    }

    /// The file, field and body rules of one SKILL.md's bytes, and what the loader and the
    /// workspace rules need from the same parse, with the readings of `clients`. `exists`
    /// answers for paths relative to the skill folder (the disk for `check`, the disk and open
    /// buffers for an editor).
    #[must_use]
    pub(crate) fn lint_file(
        &self,
        path: &Path,
        bytes: Vec<u8>,
        exists: &dyn Fn(&Path) -> bool,
        clients: ClientSet,
    ) -> FileAnalysis {
        let home = self.home_of(path);
        let (targets, advisory) = self.reading_at(home);
        let context = FileContext {
            path,
            targets: &targets,
            advisory,
            home,
            exists,
            security: self.security_enabled(),
        };
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        let mut analysis = rules::lint_and_read(bytes, &context, folder, clients);
        self.apply_levels(&mut analysis.diagnostics);
        analysis
    }

    /// The clients whose own readings of the SKILL.md at `path` the workspace rules are likely
    /// to need, as far as the file alone tells: its selected targets that `catalog-budget`
    /// lists. A registry needing others adds them ([`Engine::listed_clients`]).
    #[must_use]
    pub(crate) fn listed_clients_of(&self, path: &Path) -> ClientSet {
        rules::cross_skill::listed_among(&self.targets_for(path))
    }

    /// The clients whose listing of `registry` the workspace rules compute: the readings its
    /// skills need ([`Registry::read_clients`]).
    #[must_use]
    pub(crate) fn listed_clients(&self, registry: &Registry) -> ClientSet {
        rules::cross_skill::listed_clients(registry, &|path: &Path| self.targets_for(path))
    }

    /// The registry-wide findings (`duplicate-name`, `symlink-escape`, `catalog-budget`) of
    /// every skill of `registry`, each with its file; a file's mentions are judged with
    /// [`Engine::unknown_mentions`] when it is linted.
    #[must_use]
    pub(crate) fn workspace_findings_all(&self, registry: &Registry) -> Vec<(PathBuf, Diagnostic)> {
        let targets_for = |path: &Path| self.targets_for(path);
        rules::cross_skill::check(registry, &targets_for, self.context_window)
            .into_iter()
            .filter_map(|(path, diagnostic)| Some((path, self.apply_level(diagnostic)?)))
            .collect()
    }

    /// The workspace findings of the one file at `path` (an editor analyses one document at a
    /// time); the same rules as [`Engine::workspace_findings_all`], restricted to that file:
    /// taken from `batch` when this engine made one for this registry
    /// ([`Engine::workspace_batch`]), else computed for this file alone.
    #[must_use]
    pub(crate) fn workspace_findings(
        &self,
        registry: &RegistryView,
        path: &Path,
        mentions: &[Mention],
        batch: Option<&WorkspaceBatch>,
    ) -> Vec<Diagnostic> {
        let mut findings = if let Some(batch) = batch {
            batch.findings.get(path).cloned().unwrap_or_default()
        } else {
            let targets_for = |path: &Path| self.targets_for(path);
            let mut findings =
                rules::cross_skill::check_file(registry, path, &targets_for, self.context_window);
            self.apply_levels(&mut findings);
            findings
        };
        if registry.is_member(path) {
            findings.extend(self.unknown_mentions(registry, mentions));
        }
        findings
    }

    /// The workspace findings of every file of `registry` at once, for a front end that
    /// analyses many of its files with this engine (given to [`Engine::analyze`]): per file the
    /// same as [`Engine::workspace_findings`] alone, without that pass over the whole registry
    /// for each file (which made a pull of a 10,000-skill workspace quadratic).
    #[must_use]
    pub(crate) fn workspace_batch(&self, registry: &RegistryView) -> WorkspaceBatch {
        let mut findings: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
        for (path, diagnostic) in self.workspace_findings_all(registry) {
            findings.entry(path).or_default().push(diagnostic);
        }
        WorkspaceBatch { findings }
    }

    /// Everything about one SKILL.md: its own rules, then the workspace rules of `registry`
    /// (absent outside a workspace; from `batch` when there is one), sorted.
    #[must_use]
    pub(crate) fn analyze(
        &self,
        path: &Path,
        bytes: Vec<u8>,
        exists: &dyn Fn(&Path) -> bool,
        registry: Option<&RegistryView>,
        batch: Option<&WorkspaceBatch>,
    ) -> FileAnalysis {
        // The loader's reading is for `check`'s registries: an editor's come from its index.
        let mut analysis = self.lint_file(path, bytes, exists, ClientSet::NONE);
        if let Some(registry) = registry {
            let more = self.workspace_findings(registry, path, &analysis.mentions, batch);
            analysis.diagnostics.extend(more);
            rules::sort(&mut analysis.diagnostics);
        }
        analysis
    }

    /// `unknown-mention` for the mentions of one member of `registry`, levels applied.
    #[must_use]
    pub(crate) fn unknown_mentions(
        &self,
        registry: &RegistryView,
        mentions: &[Mention],
    ) -> Vec<Diagnostic> {
        let mut found = rules::unknown_mention::unknown_mentions(
            &NearNames::new(registry, &registry.near),
            mentions,
        );
        self.apply_levels(&mut found);
        found
    }

    /// The findings of a skill's `agents/openai.yaml` (Codex's file), unless targets were chosen
    /// outright without Codex. `skill_dir` is the skill folder; `exists` answers for absolute
    /// paths; `skill_name` is the SKILL.md's name, when it has one.
    #[must_use]
    pub(crate) fn lint_openai_yaml(
        &self,
        text: &str,
        skill_dir: &Path,
        exists: &dyn Fn(&Path) -> bool,
        skill_name: Option<&str>,
    ) -> Vec<Diagnostic> {
        let chosen = self.targets.as_ref().or(self.config.targets.as_ref());
        if chosen.is_some_and(|targets| !targets.contains(&Client::Codex)) {
            return Vec::new();
        }
        let mut diagnostics = rules::openai_yaml::check(text, skill_dir, exists, skill_name);
        self.apply_levels(&mut diagnostics);
        diagnostics
    }

    /// The security findings of the files a skill ships besides its SKILL.md, and what the
    /// skill can do: `files` are the skill's other files (path as the caller names them, bytes),
    /// `skill_text` the SKILL.md's text, or its frontmatter alone (its text up to its body:
    /// nothing after it is read here), and `own` the capabilities its own blocks showed
    /// ([`FileAnalysis::evidence`]). The SKILL.md's grants and `capability-mismatch` are judged
    /// here, since only the whole folder shows what a skill does.
    #[must_use]
    pub(crate) fn scan_skill_files(
        &self,
        skill_md: &Path,
        skill_text: &str,
        own: Vec<crate::security::Evidence>,
        files: Vec<(PathBuf, Vec<u8>)>,
    ) -> SkillScan {
        use crate::security::{self, FileKind};
        if !self.security_enabled() {
            return SkillScan::default();
        }
        let targets = self.targets_for(skill_md);
        let document = crate::document::SkillDocument::parse_frontmatter(skill_text);
        let declared = security::Declared::of(skill_text, &document);
        let folder = skill_md.parent().unwrap_or(Path::new(""));
        let mut evidence = own;
        let mut scanned = Vec::new();
        let names: std::collections::HashSet<PathBuf> =
            files.iter().map(|(path, _)| path.clone()).collect();
        for (path, bytes) in files {
            // Bytecode Python wrote next to its source is the source, compiled; bytecode
            // without its source is code nobody can read.
            if has_python_source(&path, &names) {
                continue;
            }
            // Judged by where the file sits in the skill: a skill kept under a `tests/` folder
            // of its repository is no test.
            let kind = security::kind_of(path.strip_prefix(folder).unwrap_or(&path), &bytes);
            let text = match kind {
                FileKind::Binary | FileKind::Compiled(_) => String::new(),
                _ => crate::text::decode_lossy(bytes),
            };
            let scan = security::scan(&path, &text, kind, 0);
            evidence.extend(scan.evidence);
            let mut diagnostics = scan.diagnostics;
            declared.apply(kind, &text, &mut diagnostics);
            for diagnostic in &mut diagnostics {
                diagnostic.targets.clone_from(&targets);
            }
            self.apply_levels(&mut diagnostics);
            if !diagnostics.is_empty() {
                rules::sort(&mut diagnostics);
                scanned.push((path, text, diagnostics));
            }
        }
        evidence.sort_by_key(|evidence| (evidence.capability, !evidence.notable));
        let mut skill_md = security::skill_md_findings(skill_text, &document, folder, &evidence);
        for diagnostic in &mut skill_md {
            diagnostic.targets.clone_from(&targets);
        }
        self.apply_levels(&mut skill_md);
        evidence.dedup_by_key(|evidence| evidence.capability);
        SkillScan {
            files: scanned,
            skill_md,
            evidence,
        }
    }

    /// What the security rules say of the skill whose SKILL.md is at `skill_md` (its text
    /// `text`, its other files read from the disk): its errors, one line each
    /// (`file:line: message [rule]`; a finding the skill suppresses with a reason, or a rule the
    /// config turns down, is no error), and what it can do, one piece of evidence per
    /// capability.
    #[must_use]
    pub(crate) fn security_report(
        &self,
        skill_md: &Path,
        text: &str,
    ) -> (Vec<String>, Vec<crate::security::Evidence>) {
        let folder = skill_md.parent().unwrap_or(Path::new(""));
        let files = crate::workspace::discovery::read_skill_files(folder);
        let analysis = self.lint_file(
            skill_md,
            text.as_bytes().to_vec(),
            &|_| true,
            ClientSet::NONE,
        );
        let scan = self.scan_skill_files(skill_md, text, analysis.evidence, files);
        let mut errors = Vec::new();
        let mut report = |path: &Path, text: &str, diagnostics: &[Diagnostic]| {
            for diagnostic in diagnostics {
                if diagnostic.rule.group() == rules::Group::Security
                    && diagnostic.severity == crate::diagnostic::Severity::Error
                    && diagnostic.suppressed.is_none()
                {
                    let line = crate::text::Span::of(text, diagnostic.range).start.line + 1;
                    let shown = path.strip_prefix(folder).unwrap_or(path);
                    errors.push(format!(
                        "{}:{line}: {} [{}]",
                        shown.display(),
                        diagnostic.message,
                        diagnostic.rule.as_str()
                    ));
                }
            }
        };
        report(skill_md, text, &analysis.diagnostics);
        report(skill_md, text, &scan.skill_md);
        for (path, file_text, diagnostics) in &scan.files {
            report(path, file_text, diagnostics);
        }
        (errors, scan.evidence)
    }

    /// Whether any rule of the security group is on. When the config (or the editor) turns them
    /// all off, nothing is scanned: no findings to drop, and no capabilities either.
    #[must_use]
    pub(crate) fn security_enabled(&self) -> bool {
        // Asked for every file of a run: the few rules set off are counted, rather than every
        // rule looked up in both settings.
        let mut off: Vec<rules::Rule> = [&self.config.rules, &self.client_rules]
            .iter()
            .flat_map(|settings| &settings.overrides)
            .filter(|(rule, level)| level.is_none() && rule.group() == rules::Group::Security)
            .map(|(rule, _)| *rule)
            .collect();
        if off.is_empty() {
            return true;
        }
        off.sort_unstable();
        off.dedup();
        let security = rules::Rule::ALL
            .iter()
            .filter(|rule| rule.group() == rules::Group::Security)
            .count();
        off.len() < security
    }

    /// Applies the rule levels of the config, then the editor's: a rule turned off drops its
    /// findings, a level replaces their severity.
    pub(crate) fn apply_levels(&self, diagnostics: &mut Vec<Diagnostic>) {
        *diagnostics = std::mem::take(diagnostics)
            .into_iter()
            .filter_map(|diagnostic| self.apply_level(diagnostic))
            .collect();
    }

    fn apply_level(&self, mut diagnostic: Diagnostic) -> Option<Diagnostic> {
        for settings in [&self.config.rules, &self.client_rules] {
            match settings.overrides.get(&diagnostic.rule) {
                None => {}
                Some(None) => return None,
                Some(Some(severity)) => diagnostic.severity = *severity,
            }
        }
        Some(diagnostic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::mentions::mentions;
    use crate::text::TextRange;
    use crate::workspace::loader::read_metadata;

    /// The skill registered from `skills/pdf/SKILL.md` under `name`.
    fn skill(name: &str, description: &str) -> Skill {
        let text = format!("---\nname: {name}\ndescription: {description}\n---\n");
        Skill::new(
            read_metadata(&text, "pdf", ClientSet::ALL),
            "skills/pdf/SKILL.md".into(),
            "skills".into(),
            "pdf".into(),
        )
    }

    /// The group is on while any of its rules is on in both the config and the editor's
    /// settings, whichever of the two turns the others off.
    #[test]
    fn the_security_group_is_off_only_when_every_rule_of_it_is() {
        use crate::diagnostic::Severity;
        use rules::Rule;
        let security: Vec<Rule> = Rule::ALL
            .iter()
            .copied()
            .filter(|rule| rule.group() == rules::Group::Security)
            .collect();
        assert!(security.len() > 2);
        let off = |rules: &[Rule]| {
            rules
                .iter()
                .map(|rule| format!("{} = \"off\"\n", rule.as_str()))
                .collect::<String>()
        };
        let engine_with = |config_off: &[Rule], editor_off: &[Rule]| {
            let text = format!("[rules]\n{}", off(config_off));
            let mut engine =
                Engine::new(Config::parse(&text, Path::new("skill-lsp.toml")).unwrap());
            for rule in editor_off {
                engine.client_rules.overrides.insert(*rule, None);
            }
            engine
        };
        assert!(Engine::default().security_enabled());
        assert!(!engine_with(&security, &[]).security_enabled());
        assert!(!engine_with(&[], &security).security_enabled());
        let (first, rest) = security.split_first().unwrap();
        assert!(engine_with(rest, &[]).security_enabled());
        assert!(!engine_with(rest, &[*first]).security_enabled());
        // Set off twice is still one rule off.
        assert!(engine_with(rest, rest).security_enabled());
        // A level is not off, nor is another group's rule.
        let mut engine = engine_with(rest, &[Rule::BrokenLink]);
        engine
            .client_rules
            .overrides
            .insert(*first, Some(Severity::Hint));
        assert!(engine.security_enabled());
    }

    #[test]
    fn a_batch_gives_every_file_what_analysing_it_alone_gives() {
        use crate::workspace::loader::{Disk, roots_for};
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        let long = "Fills PDF forms and much more. ".repeat(60);
        // duplicate-name across two roots, catalog-budget, unknown-mention, a clean skill.
        write(
            "skills/pdf/SKILL.md",
            &format!("---\nname: pdf\ndescription: {long}\n---\nSee /docx and /pdff.\n"),
        );
        write(
            ".claude/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Also PDF. Use when asked.\n---\nBody.\n",
        );
        write(
            ".claude/skills/docx/SKILL.md",
            "---\nname: docx\ndescription: Word files. Use when asked.\n---\nUse /pdf.\n",
        );
        for index in 0..40 {
            write(
                &format!(".claude/skills/s{index}/SKILL.md"),
                &format!("---\nname: s{index}\ndescription: {long}\n---\nBody.\n"),
            );
        }
        let registry = Registry::scan(&roots_for(dir.path(), &[]), &Disk);
        let view = RegistryView::from(registry);
        for targets in [None, Some(vec![Client::ClaudeCode, Client::Codex])] {
            let engine = Engine {
                targets,
                ..Engine::default()
            };
            let batch = engine.workspace_batch(&view);
            let members: Vec<PathBuf> = view.members().cloned().collect();
            assert!(members.len() > 40);
            let mut workspace_findings = 0;
            for path in &members {
                let bytes = std::fs::read(path).unwrap();
                let exists = |_: &Path| true;
                let alone = engine.analyze(path, bytes.clone(), &exists, Some(&view), None);
                let batched = engine.analyze(path, bytes, &exists, Some(&view), Some(&batch));
                assert_eq!(alone.diagnostics, batched.diagnostics, "{}", path.display());
                workspace_findings += alone
                    .diagnostics
                    .iter()
                    .filter(|diagnostic| {
                        diagnostic.rule.group() == crate::rule_table::Group::Workspace
                    })
                    .count();
            }
            assert!(workspace_findings >= 3, "{workspace_findings}");
        }
    }

    #[test]
    fn a_patched_view_keeps_its_index_only_while_the_names_stay() {
        let mut registry = Registry::default();
        registry.add(skill("pdf", "A."));
        let mut view = RegistryView::from(registry);
        let engine = Engine::default();
        let text = "Run /pdff.";
        let found = mentions(text, TextRange::new(0, text.len()));
        assert_eq!(engine.unknown_mentions(&view, &found).len(), 1);
        let held = view.clone();
        view.replace_at(0, skill("pdf", "B."));
        assert!(Arc::ptr_eq(&view.near, &held.near), "a description edit");
        view.replace_at(0, skill("xls", "B."));
        assert!(!Arc::ptr_eq(&view.near, &held.near), "a rename");
        assert!(engine.unknown_mentions(&view, &found).is_empty());
        assert_eq!(
            engine.unknown_mentions(&held, &found).len(),
            1,
            "an analysis that holds the old registry keeps its index"
        );
    }
}
