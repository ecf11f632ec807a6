//! The server's state: open documents, the workspaces with their live skill indexes and
//! config, the client's settings, and the analysis of one document's text.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ropey::Rope;
use serde_json::Value;
use tower_lsp_server::ls_types::{InitializeParams, Uri};

use super::capabilities::{ClientCaps, position_encoding, workspace_folders};
use super::convert::uri_path;
use super::documents::{Document, Encoding};
use crate::analysis::{Engine, RegistryView, WorkspaceBatch};
use crate::config::Config;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{Rule, RuleSettings};
use crate::targets::{Target, TargetSet};
use crate::workspace::discovery::is_skill_path;
use crate::workspace::open::{Owner, owner_of};
use crate::workspace::{Registry, Source, Workspace, WorkspaceIndex};

/// The server's state for one workspace folder: an editor's workspace folder, or a folder the
/// loader derived for a SKILL.md opened outside every folder's skills roots (implicit).
pub(crate) struct FolderState {
    pub folder: PathBuf,
    /// Derived for an opened file rather than named by the editor: it gets diagnostics but is
    /// not part of the agent's catalog.
    pub implicit: bool,
    pub config: Config,
    pub index: WorkspaceIndex,
    /// The index's registry, rebuilt only when the index changes; analyses share it.
    pub registry: RegistryView,
}

impl FolderState {
    pub(crate) fn load(folder: PathBuf, source: &dyn Source) -> Self {
        let (workspace, problem) = Workspace::open_lenient(folder);
        if let Some(error) = problem {
            tracing::warn!("ignoring config: {error}");
        }
        // Every client's reading: the hover on a name says what each client does.
        let index = workspace.index(source, TargetSet::ALL);
        let registry = RegistryView::from(index.registry());
        let Workspace { folder, config } = workspace;
        Self {
            folder,
            implicit: false,
            config,
            index,
            registry,
        }
    }

    /// Re-reads one path after a change; returns whether the registry changed.
    pub(crate) fn refresh(&mut self, path: &Path, source: &dyn Source) -> bool {
        let changed = match self.index.refresh(path, source) {
            Some(changed) => changed,
            None => {
                // Not a SKILL.md of a root: maybe a skill folder that appeared or went away.
                let before = self.index.clone();
                self.index.refresh_folder(path, source);
                self.index != before
            }
        };
        if changed && !self.patch_registry(path) {
            self.registry = RegistryView::from(self.index.registry());
        }
        changed
    }

    /// Updates one skill of the registry in place (typing in its description or name) instead
    /// of rebuilding every entry; see [`Registry::replaceable`] for when that is allowed.
    fn patch_registry(&mut self, path: &Path) -> bool {
        let Some(skill) = self.index.skill_at(path) else {
            return false;
        };
        // Checked on the shared registry, so a refusal copies nothing.
        let Some(position) = self.registry.replaceable(&skill) else {
            return false;
        };
        self.registry.replace_at(position, skill);
        true
    }
}

/// Settings from `workspace/didChangeConfiguration` (`skillLsp.targets`, `skillLsp.rules`).
#[derive(Clone, Debug, Default)]
pub(crate) struct ClientSettings {
    pub targets: Option<Vec<Target>>,
    pub rules: RuleSettings,
}

impl ClientSettings {
    /// Reads `{"skillLsp": {...}}` or the inner object itself; unknown values are logged and
    /// skipped.
    #[must_use]
    pub(crate) fn from_json(value: &Value) -> Self {
        let section = value.get("skillLsp").unwrap_or(value);
        let targets = section.get("targets").and_then(Value::as_array).map(|ids| {
            ids.iter()
                .filter_map(Value::as_str)
                .filter_map(|id| {
                    Target::parse(id).or_else(|| {
                        tracing::warn!("unknown target '{id}' in settings");
                        None
                    })
                })
                .collect::<Vec<_>>()
        });
        let mut rules = RuleSettings::default();
        if let Some(map) = section.get("rules").and_then(Value::as_object) {
            for (id, level) in map {
                let (Some(rule), Some(level)) = (Rule::parse(id), level.as_str()) else {
                    tracing::warn!("unknown rule setting '{id}'");
                    continue;
                };
                let severity = match (level, Severity::parse(level)) {
                    ("off", _) => None,
                    (_, Some(severity)) => Some(severity),
                    (_, None) => {
                        tracing::warn!("unknown severity '{level}' for {id}");
                        continue;
                    }
                };
                rules.overrides.insert(rule, severity);
            }
        }
        Self {
            targets: targets.filter(|targets| !targets.is_empty()),
            rules,
        }
    }
}

#[derive(Default)]
pub(crate) struct State {
    pub documents: HashMap<Uri, Document>,
    pub workspaces: Vec<FolderState>,
    pub encoding: Encoding,
    pub caps: ClientCaps,
    pub settings: ClientSettings,
    /// Workspace folders to index once the client has initialized.
    pub pending_folders: Vec<PathBuf>,
    /// Bumped whenever anything a diagnostic depends on may have changed (a buffer, a file,
    /// the settings, the index). It is the pull model's `resultId`: a client that already holds
    /// this generation's report gets "unchanged" without a re-lint.
    pub generation: u64,
    /// The last `skill/runEvals` result of each skill this session, by SKILL.md path: the
    /// code lens's title and the `trigger-evals` information diagnostic.
    pub eval_results: HashMap<PathBuf, EvalSummary>,
    /// The other files of each skill (by SKILL.md path) whose security findings were last
    /// sent with its SKILL.md's: a file missing from the next report gets an empty one.
    pub skill_file_reports: HashMap<PathBuf, Vec<Uri>>,
    /// Every skill file (not a SKILL.md) a workspace pull has reported findings for: the
    /// reports a later pull must answer for when the client still holds them.
    pub skill_files_reported: std::collections::HashSet<Uri>,
}

/// What the editor shows of a skill's last trigger-eval run: valid while the description and
/// the eval set it was measured with are unchanged (`key`, see [`eval_key`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalSummary {
    pub key: String,
    pub passed: usize,
    pub total: usize,
    /// Should-trigger queries that failed.
    pub missed: usize,
    /// Should-not-trigger queries that failed.
    pub wrongly_loaded: usize,
    /// Each failing query with why: `missed`, `loaded docx instead`, `wrongly loaded`.
    pub failing: Vec<(String, String)>,
}

impl EvalSummary {
    /// The summary of one skill's report, measured against `key`.
    #[must_use]
    pub(crate) fn new(key: String, report: &crate::agent::eval::SkillReport) -> Self {
        let failing: Vec<&crate::agent::eval::QueryResult> =
            report.results.iter().filter(|it| !it.pass).collect();
        Self {
            key,
            passed: report.summary.passed,
            total: report.summary.total,
            missed: failing.iter().filter(|it| it.should_trigger).count(),
            wrongly_loaded: failing.iter().filter(|it| !it.should_trigger).count(),
            failing: failing
                .iter()
                .map(|result| {
                    let why = if !result.should_trigger {
                        "wrongly loaded".to_owned()
                    } else if let Some((name, _)) =
                        result.loaded_instead.iter().max_by_key(|(_, runs)| **runs)
                    {
                        format!("loaded {name} instead")
                    } else {
                        "missed".to_owned()
                    };
                    (result.query.clone(), why)
                })
                .collect(),
        }
    }

    /// The code lens title: `Trigger evals: 8/10 — 1 missed, 1 wrongly loaded`.
    #[must_use]
    pub(crate) fn lens_title(&self) -> String {
        let mut parts = Vec::new();
        if self.missed > 0 {
            parts.push(format!("{} missed", self.missed));
        }
        if self.wrongly_loaded > 0 {
            parts.push(format!("{} wrongly loaded", self.wrongly_loaded));
        }
        if parts.is_empty() {
            parts.push("all passed".to_owned());
        }
        format!(
            "Trigger evals: {}/{} \u{2014} {}",
            self.passed,
            self.total,
            parts.join(", ")
        )
    }

    /// The information diagnostic's message: `Trigger evals: 8/10 passed; failing: 'q' (missed)`.
    #[must_use]
    pub(crate) fn message(&self) -> String {
        let mut message = format!("Trigger evals: {}/{} passed", self.passed, self.total);
        if !self.failing.is_empty() {
            let failing: Vec<String> = self
                .failing
                .iter()
                .map(|(query, why)| format!("'{query}' ({why})"))
                .collect();
            message.push_str("; failing: ");
            message.push_str(&failing.join(", "));
        }
        message
    }
}

/// What a stored eval result is valid for: a hash of the description and the eval set's text.
#[must_use]
pub(crate) fn eval_key(description: &str, set_text: &str) -> String {
    crate::agent::eval::run::hex_hash(format!("{description}\u{0}{set_text}").as_bytes())
}

/// The eval set next to a SKILL.md.
#[must_use]
pub(crate) fn triggers_path(skill_file: &Path) -> PathBuf {
    skill_file
        .parent()
        .unwrap_or(Path::new(""))
        .join(crate::agent::eval::set::TRIGGERS_FILE)
}

/// The description of a SKILL.md's text (empty when it has none).
#[must_use]
pub(crate) fn description_of(text: &str) -> String {
    crate::document::SkillDocument::parse(text)
        .field("description")
        .and_then(|entry| entry.value.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Open buffers first, the disk second: unsaved edits are what the loader sees (design.md §5).
pub(crate) struct Overlay(pub HashMap<PathBuf, Arc<str>>);

/// See [`State::agent_context`].
pub(crate) struct AgentContext {
    pub folder: PathBuf,
    pub registry: Registry,
    pub overlay: Overlay,
    pub agent: crate::config::AgentConfig,
    /// Judges a skill's security before it loads, with the editor's rule levels.
    pub engine: Engine,
}

impl Source for Overlay {
    fn read(&self, path: &Path) -> io::Result<String> {
        match self.0.get(path) {
            Some(text) => Ok(text.to_string()),
            None => crate::workspace::read::read_text(path),
        }
    }

    fn is_open(&self, path: &Path) -> bool {
        self.0.contains_key(path)
    }
}

/// A document's text and version at one moment, for analysis outside the lock: an open buffer,
/// or a file read for the catalog or a workspace pull. Request handlers get it inside a
/// `Snapshot`.
#[derive(Clone)]
pub(crate) struct DocumentText {
    pub uri: Uri,
    pub path: Option<PathBuf>,
    pub text: Arc<str>,
    pub rope: Rope,
    pub version: i32,
}

impl DocumentText {
    /// Whether the document is an eval set, `<skill>/evals/triggers.json`.
    #[must_use]
    pub(crate) fn is_eval_set(&self) -> bool {
        self.path
            .as_deref()
            .is_some_and(|path| path.ends_with(crate::agent::eval::set::TRIGGERS_FILE))
    }

    /// Whether the document is a plugin manifest, `.claude-plugin/plugin.json` or
    /// `.claude-plugin/marketplace.json`.
    #[must_use]
    pub(crate) fn is_manifest(&self) -> bool {
        self.path
            .as_deref()
            .is_some_and(|path| crate::plugins::manifest_kind(path).is_some())
    }

    /// Whether the document is a SKILL.md (by its file name, whatever its languageId).
    #[must_use]
    pub(crate) fn is_skill_file(&self) -> bool {
        self.path.as_deref().is_some_and(is_skill_path)
    }

    /// Whether the document is Codex's `<skill>/agents/openai.yaml`.
    #[must_use]
    pub(crate) fn is_openai_yaml(&self) -> bool {
        self.path
            .as_deref()
            .is_some_and(crate::workspace::discovery::is_openai_yaml)
    }
}

/// What analysing one document needs from the state, copied out under the lock.
pub(crate) struct AnalysisContext {
    /// Decides every finding (the same engine `check` runs).
    pub engine: Engine,
    pub registry: Option<RegistryView>,
    pub open_paths: Vec<PathBuf>,
    /// The open buffers, read instead of the disk for a skill's other files (its scripts and
    /// references are scanned as the editor holds them).
    pub overlay: Overlay,
    /// Set when many files of the registry are analysed with this context (a workspace pull,
    /// the catalog): their workspace findings, computed by the first analysis that needs them.
    pub batch: Option<Arc<OnceLock<WorkspaceBatch>>>,
}

impl AnalysisContext {
    /// The targets selected for the document at `path`.
    #[must_use]
    pub(crate) fn targets(&self, path: Option<&Path>) -> Vec<Target> {
        path.map_or_else(
            || vec![Target::AgentSkills],
            |path| self.engine.targets_for(path),
        )
    }
}

impl State {
    /// What to send for the other files of the skill at `skill`, given the reports of those that
    /// have findings now: those, and an empty report for each file sent last time that has
    /// none now (a client keeps a file's diagnostics until told otherwise).
    pub(crate) fn skill_file_updates<T: Default>(
        &mut self,
        skill: &Path,
        reports: Vec<(Uri, T)>,
    ) -> Vec<(Uri, T)> {
        let now: Vec<Uri> = reports.iter().map(|(uri, _)| uri.clone()).collect();
        let before = if now.is_empty() {
            self.skill_file_reports.remove(skill).unwrap_or_default()
        } else {
            self.skill_file_reports
                .insert(skill.to_path_buf(), now.clone())
                .unwrap_or_default()
        };
        let mut updates = reports;
        updates.extend(
            before
                .into_iter()
                .filter(|uri| !now.contains(uri))
                .map(|uri| (uri, T::default())),
        );
        updates
    }

    /// `initialize`: keeps what the client can do, its encoding, folders and settings, and
    /// returns the encoding and capabilities the server's answer is built from.
    pub(crate) fn initialize(&mut self, params: &InitializeParams) -> (Encoding, ClientCaps) {
        self.encoding = position_encoding(params);
        self.caps = ClientCaps::from_params(params);
        self.pending_folders = workspace_folders(params);
        if let Some(options) = &params.initialization_options {
            self.settings = ClientSettings::from_json(options);
        }
        (self.encoding, self.caps)
    }

    pub(crate) fn overlay(&self) -> Overlay {
        Overlay(
            self.documents
                .iter()
                .filter_map(|(uri, document)| Some((uri_path(uri)?, document.text.clone())))
                .collect(),
        )
    }

    pub(crate) fn document_text(&self, uri: &Uri) -> Option<DocumentText> {
        let document = self.documents.get(uri)?;
        Some(DocumentText {
            uri: uri.clone(),
            path: uri_path(uri),
            text: document.text.clone(),
            rope: document.rope.clone(),
            version: document.version,
        })
    }

    /// The index of the workspace holding `path`: the one whose skills roots hold it (as the
    /// loader scans them), else the deepest folder that contains it.
    fn workspace_index(&self, path: &Path) -> Option<usize> {
        if let Some(found) = self
            .workspaces
            .iter()
            .position(|workspace| workspace.index.locate(path).is_some())
        {
            return Some(found);
        }
        self.workspaces
            .iter()
            .enumerate()
            .filter(|(_, workspace)| path.starts_with(&workspace.folder))
            .max_by_key(|(_, workspace)| workspace.folder.components().count())
            .map(|(index, _)| index)
    }

    pub(crate) fn workspace_of(&self, path: &Path) -> Option<&FolderState> {
        self.workspaces.get(self.workspace_index(path)?)
    }

    pub(crate) fn workspace_of_mut(&mut self, path: &Path) -> Option<&mut FolderState> {
        let index = self.workspace_index(path)?;
        self.workspaces.get_mut(index)
    }

    /// Makes sure a SKILL.md outside every workspace's skills roots still has the workspace
    /// the loader derives for it (as `check` does), indexing it once.
    pub(crate) fn ensure_workspace(&mut self, path: &Path) {
        if path.file_name().is_none_or(|name| name != "SKILL.md") {
            return;
        }
        let known = |root: &Path| {
            self.workspaces
                .iter()
                .position(|workspace| workspace.index.holds_root(root))
        };
        let Some(Owner::Derived(folder)) = owner_of(path, known) else {
            return;
        };
        if self
            .workspaces
            .iter()
            .any(|workspace| workspace.folder == folder)
        {
            return;
        }
        let overlay = self.overlay();
        let mut workspace = FolderState::load(folder, &overlay);
        workspace.implicit = true;
        self.workspaces.push(workspace);
    }

    pub(crate) fn analysis_context(&self, path: Option<&Path>) -> AnalysisContext {
        let workspace = path.and_then(|path| self.workspace_of(path));
        let mut engine = Engine::new(
            workspace
                .map(|workspace| workspace.config.clone())
                .unwrap_or_default(),
        );
        engine.targets.clone_from(&self.settings.targets);
        engine.client_rules = self.settings.rules.clone();
        AnalysisContext {
            engine,
            registry: workspace.map(|workspace| workspace.registry.clone()),
            open_paths: self.documents.keys().filter_map(uri_path).collect(),
            overlay: self.overlay(),
            batch: None,
        }
    }

    /// [`State::analysis_context`] for each of `paths`, for analysing all of them: the paths of
    /// one workspace share one context, whose workspace findings are computed once for all.
    pub(crate) fn batch_contexts<'p>(
        &self,
        paths: impl IntoIterator<Item = &'p Path>,
    ) -> Vec<Arc<AnalysisContext>> {
        let mut shared: HashMap<Option<PathBuf>, Arc<AnalysisContext>> = HashMap::new();
        paths
            .into_iter()
            .map(|path| {
                let folder = self
                    .workspace_of(path)
                    .map(|workspace| workspace.folder.clone());
                shared
                    .entry(folder)
                    .or_insert_with(|| {
                        let mut context = self.analysis_context(Some(path));
                        context.batch = Some(Arc::default());
                        Arc::new(context)
                    })
                    .clone()
            })
            .collect()
    }

    /// The skills the agent sees, and `skill/catalog` shows: the editor's workspace folders'
    /// registries in folder order (the first folder that defines a name wins), with the first
    /// folder as the agent's workspace.
    pub(crate) fn agent_view(&self) -> Option<(PathBuf, Registry)> {
        let mut folders = self
            .workspaces
            .iter()
            .filter(|workspace| !workspace.implicit);
        let first = folders.next()?;
        let mut registry = (*first.registry).clone();
        for workspace in folders {
            for skill in &workspace.registry.skills {
                registry.add(skill.clone());
            }
        }
        Some((first.folder.clone(), registry))
    }

    /// What the agent works with, for a chat and for trigger evals alike: the folder and
    /// registry of [`State::agent_view`], the open buffers, and that folder's `[agent]` config.
    pub(crate) fn agent_context(&self) -> Option<AgentContext> {
        let (folder, registry) = self.agent_view()?;
        let agent = self
            .workspaces
            .iter()
            .find(|workspace| workspace.folder == folder)
            .map(|workspace| workspace.config.agent.clone())
            .unwrap_or_default();
        let engine = self.analysis_context(Some(&folder)).engine;
        Some(AgentContext {
            folder,
            registry,
            overlay: self.overlay(),
            agent,
            engine,
        })
    }

    /// The last eval result of the SKILL.md at `path` whose text is `text`, if the description
    /// and the eval set (open buffer or disk) are still those it was measured with.
    #[must_use]
    pub(crate) fn eval_summary(&self, path: &Path, text: &str) -> Option<EvalSummary> {
        let stored = self.eval_results.get(path)?;
        let set_text = self.overlay().read(&triggers_path(path)).ok()?;
        (stored.key == eval_key(&description_of(text), &set_text)).then(|| stored.clone())
    }

    /// Re-reads the index entry of `path` from the overlay after its buffer or file changed.
    /// Returns whether a registry changed.
    pub(crate) fn refresh_skill(&mut self, path: &Path) -> bool {
        let overlay = self.overlay();
        self.workspace_of_mut(path).is_some_and(|workspace| {
            workspace.index.locate(path).is_some() && workspace.refresh(path, &overlay)
        })
    }
}

/// All findings for one document's text: for a SKILL.md, the engine's analysis of its text,
/// with the links of its body checked against the disk and the open buffers, and
/// `capability-mismatch` from the files of its folder.
#[must_use]
pub(crate) fn analyze(document: &DocumentText, context: &AnalysisContext) -> Vec<Diagnostic> {
    analyze_skill(document, context).diagnostics
}

/// What one analysis of a document found: its own findings and, for a SKILL.md, the security
/// findings of the other files of its skill and what the skill can do.
#[derive(Default)]
pub(crate) struct DocumentAnalysis {
    pub diagnostics: Vec<Diagnostic>,
    /// A skill's other files with security findings: path, text, findings.
    pub skill_files: Vec<(PathBuf, String, Vec<Diagnostic>)>,
    pub evidence: Vec<crate::security::Evidence>,
}

/// [`analyze`], keeping what the scan of a SKILL.md's folder found in its other files.
#[must_use]
pub(crate) fn analyze_skill(
    document: &DocumentText,
    context: &AnalysisContext,
) -> DocumentAnalysis {
    let fallback = PathBuf::from(document.uri.path().as_str());
    let path = document.path.clone().unwrap_or(fallback);
    if document.is_openai_yaml() {
        return DocumentAnalysis {
            diagnostics: analyze_openai_yaml(&document.text, &path, context),
            ..DocumentAnalysis::default()
        };
    }
    if document.is_manifest() {
        let files = EditorFiles {
            open_paths: &context.open_paths,
        };
        return DocumentAnalysis {
            diagnostics: context
                .engine
                .lint_manifest(&path, document.text.as_bytes(), &files)
                .map(|(_, diagnostics)| diagnostics)
                .unwrap_or_default(),
            ..DocumentAnalysis::default()
        };
    }
    let skill_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let open_paths = &context.open_paths;
    let exists = |relative: &Path| {
        let full = skill_dir.join(relative);
        full.exists() || open_paths.contains(&full)
    };
    let engine = &context.engine;
    let registry = context.registry.as_ref();
    let batch = registry
        .zip(context.batch.as_ref())
        .map(|(registry, batch)| batch.get_or_init(|| engine.workspace_batch(registry)));
    let bytes = document.text.as_bytes().to_vec();
    let analysis = engine.analyze(&path, bytes, &exists, registry, batch);
    // What an allow comment suppresses with its reason stays out of the editor, as it stays out
    // of `check`'s human output.
    let mut diagnostics = analysis.diagnostics;
    diagnostics.retain(|diagnostic| diagnostic.suppressed.is_none());
    // A buffer with no file behind it has no folder to scan.
    if document.path.is_none() || !is_skill_path(&path) {
        return DocumentAnalysis {
            diagnostics,
            ..DocumentAnalysis::default()
        };
    }
    let files = skill_files(&context.overlay, &skill_dir);
    let scan = engine.scan_skill_files(&path, &document.text, analysis.evidence, files);
    if !scan.skill_md.is_empty() {
        diagnostics.extend(scan.skill_md);
        crate::rules::sort(&mut diagnostics);
    }
    let mut skill_files = scan.files;
    for (_, _, found) in &mut skill_files {
        found.retain(|diagnostic| diagnostic.suppressed.is_none());
    }
    skill_files.retain(|(_, _, found)| !found.is_empty());
    DocumentAnalysis {
        diagnostics,
        skill_files,
        evidence: scan.evidence,
    }
}

/// The files a skill ships besides its SKILL.md, as the editor holds them: an open buffer in
/// place of its file on disk.
fn skill_files(overlay: &Overlay, folder: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = crate::workspace::discovery::read_skill_files(folder);
    for (path, bytes) in &mut files {
        if let Some(text) = overlay.0.get(path) {
            *bytes = text.as_bytes().to_vec();
        }
    }
    files
}

/// A skill's `agents/openai.yaml`: the engine's findings, with the icons looked up on the disk
/// and among the open buffers, and the skill's name from the registry (else from its SKILL.md).
fn analyze_openai_yaml(text: &str, path: &Path, context: &AnalysisContext) -> Vec<Diagnostic> {
    let Some(skill_dir) = path.parent().and_then(Path::parent) else {
        return Vec::new();
    };
    let skill_file = skill_dir.join("SKILL.md");
    let name = context
        .registry
        .as_ref()
        .and_then(|registry| registry.skill_at(&skill_file))
        .map(|skill| skill.name.clone())
        .or_else(|| {
            let text = std::fs::read_to_string(&skill_file).ok()?;
            Some(crate::workspace::loader::read_metadata(&text, "", TargetSet::NONE).name)
        })
        .filter(|name| !name.is_empty());
    let open_paths = &context.open_paths;
    let exists = |file: &Path| file.is_file() || open_paths.iter().any(|open| open == file);
    context
        .engine
        .lint_openai_yaml(text, skill_dir, &exists, name.as_deref())
}

/// The files a manifest points to as the editor sees them: the disk, and an open buffer counts
/// as a file even before it is saved (as `broken-link` counts it for a SKILL.md).
struct EditorFiles<'a> {
    open_paths: &'a [PathBuf],
}

impl crate::plugins::Files for EditorFiles<'_> {
    fn kind(&self, path: &Path) -> Option<crate::plugins::EntryKind> {
        crate::workspace::read::DiskFiles.kind(path).or_else(|| {
            self.open_paths
                .iter()
                .any(|open| open == path)
                .then_some(crate::plugins::EntryKind::File)
        })
    }

    fn read(&self, path: &Path) -> Option<String> {
        crate::workspace::read::DiskFiles.read(path)
    }

    fn folders(&self, path: &Path) -> Vec<String> {
        crate::workspace::read::DiskFiles.folders(path)
    }
}

/// `text` as `skills/pdf/SKILL.md` of a workspace at `/w`, for handler tests.
#[cfg(test)]
#[must_use]
pub(crate) fn test_document(text: &str) -> DocumentText {
    DocumentText {
        uri: "file:///w/skills/pdf/SKILL.md"
            .parse()
            .expect("a valid uri"),
        path: Some("/w/skills/pdf/SKILL.md".into()),
        text: text.into(),
        rope: Rope::from_str(text),
        version: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eval_summary_counts_missed_and_wrongly_loaded_queries() {
        use crate::agent::eval::report::RunRecord;
        use crate::agent::eval::set::EvalCase;
        use crate::agent::eval::{QueryResult, SkillReport};
        let run = |loaded: Option<&str>| RunRecord {
            loaded: loaded.map(str::to_owned),
            ..RunRecord::default()
        };
        let result = |query: &str, should_trigger: bool, loaded: Option<&str>| {
            let case = EvalCase {
                query: query.into(),
                should_trigger,
            };
            QueryResult::from_runs(&case, "pdf", &[run(loaded)], 0.5)
        };
        let report = SkillReport::new(
            "pdf".into(),
            "d".into(),
            false,
            "triggers.json".into(),
            vec![
                result("fill the form", true, Some("pdf")),
                result("query one", true, None),
                result("query two", true, Some("docx")),
                result("weather", false, Some("pdf")),
                result("hello", false, None),
            ],
        );
        let summary = EvalSummary::new("k".into(), &report);
        assert_eq!((summary.passed, summary.total), (2, 5));
        assert_eq!((summary.missed, summary.wrongly_loaded), (2, 1));
        assert_eq!(
            summary.lens_title(),
            "Trigger evals: 2/5 \u{2014} 2 missed, 1 wrongly loaded"
        );
        assert_eq!(
            summary.message(),
            "Trigger evals: 2/5 passed; failing: 'query one' (missed), 'query two' (loaded docx instead), 'weather' (wrongly loaded)"
        );
        assert_ne!(eval_key("a", "[]"), eval_key("b", "[]"));
        assert_ne!(eval_key("a", "[]"), eval_key("a", "[ ]"));
    }

    #[test]
    fn settings_read_targets_and_rules() {
        let settings = ClientSettings::from_json(&serde_json::json!({
            "skillLsp": {"targets": ["codex", "nope"], "rules": {"description-trigger": "off", "bom": "warning", "x": "error"}}
        }));
        assert_eq!(settings.targets, Some(vec![Target::Codex]));
        assert!(settings.rules.is_off(Rule::DescriptionTrigger));
        assert_eq!(
            settings.rules.overrides[&Rule::Bom],
            Some(Severity::Warning)
        );
        assert!(
            ClientSettings::from_json(&serde_json::json!(null))
                .targets
                .is_none()
        );
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;

    #[test]
    fn description_edits_patch_the_registry_and_renames_rebuild_it() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b"] {
            let path = dir.path().join(format!("skills/{name}/SKILL.md"));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(
                &path,
                format!("---\nname: {name}\ndescription: Old.\n---\nBody\n"),
            )
            .unwrap();
        }
        let mut state = State::default();
        state.workspaces.push(FolderState::load(
            dir.path().to_path_buf(),
            &state.overlay(),
        ));
        let b = dir.path().join("skills/b/SKILL.md");
        let uri = Uri::from_file_path(&b).unwrap();
        state.documents.insert(
            uri.clone(),
            Document::new("---\nname: b\ndescription: New words.\n---\nBody\n", 2),
        );
        assert!(state.refresh_skill(&b));
        assert_eq!(
            state.workspaces[0].registry.catalog(),
            "- a: Old.\n- b: New words."
        );
        state.documents.insert(
            uri,
            Document::new("---\nname: a\ndescription: New words.\n---\nBody\n", 3),
        );
        assert!(state.refresh_skill(&b));
        assert_eq!(
            state.workspaces[0].registry.shadowed.len(),
            1,
            "a rename takes the full rebuild"
        );
        assert!(!state.refresh_skill(&b), "nothing changed");
    }
}

#[cfg(test)]
mod agent_view_tests {
    use super::*;

    #[test]
    fn the_catalog_and_the_agent_see_every_workspace_folder_in_order() {
        let folders: Vec<tempfile::TempDir> =
            (0..2).map(|_| tempfile::tempdir().unwrap()).collect();
        for (folder, (name, description)) in folders.iter().zip([("a", "First."), ("b", "Second.")])
        {
            let path = folder.path().join(format!("skills/{name}/SKILL.md"));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(
                &path,
                format!("---\nname: {name}\ndescription: {description}\n---\n"),
            )
            .unwrap();
        }
        let mut state = State::default();
        for folder in &folders {
            let workspace = FolderState::load(folder.path().to_path_buf(), &state.overlay());
            state.workspaces.push(workspace);
        }
        // A derived workspace for a file outside the folders' roots is not the agent's.
        let mut implicit = FolderState::load(folders[1].path().join("skills"), &state.overlay());
        implicit.implicit = true;
        state.workspaces.push(implicit);
        let (folder, registry) = state.agent_view().unwrap();
        assert_eq!(folder, folders[0].path());
        assert_eq!(registry.catalog(), "- a: First.\n- b: Second.");
    }
}
