//! The server's state: open documents, the workspaces with their live skill indexes and
//! config, the client's settings, and the analysis of one document's text.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ropey::Rope;
use tower_lsp_server::ls_types::{InitializeParams, Uri};

use super::capabilities::{ClientCaps, position_encoding, workspace_folders};
use super::convert::uri_path;
use super::documents::{Buffer, Encoding};
use super::eval_results::{EvalSummary, description_of, eval_key};
use super::folders::FolderState;
use super::settings::ClientSettings;
use crate::agent::eval::set::find_set;
use crate::analysis::{Engine, RegistryView, WorkspaceBatch};
use crate::config::FILE_NAMES;
use crate::diagnostic::Diagnostic;
use crate::targets::{Client, ClientSet};
use crate::workspace::discovery::is_skill_path;
use crate::workspace::open::{Owner, owner_of};
use crate::workspace::{Registry, Source};

/// Everything the server knows between messages. The fields are private so that the
/// generation moves with every change a diagnostic can depend on: each method that changes
/// one bumps it, and no caller has to remember to.
#[derive(Default)]
pub(crate) struct State {
    documents: HashMap<Uri, Buffer>,
    workspaces: Vec<FolderState>,
    encoding: Encoding,
    caps: ClientCaps,
    settings: ClientSettings,
    /// Workspace folders to index once the client has initialized.
    pending_folders: Vec<PathBuf>,
    /// Bumped whenever anything a diagnostic depends on may have changed (a buffer, a file,
    /// the settings, the index, an eval result). It is the pull model's `resultId`: a client
    /// that already holds this generation's report gets "unchanged" without a re-lint.
    generation: u64,
    /// The last `skill/runEvals` result of each skill this session, by SKILL.md path: the
    /// code lens's title and the `trigger-evals` information diagnostic.
    eval_results: HashMap<PathBuf, EvalSummary>,
    /// The other files of each skill (by SKILL.md path) whose security findings were last
    /// sent with its SKILL.md's: a file missing from the next report gets an empty one.
    skill_file_reports: HashMap<PathBuf, Vec<Uri>>,
    /// Every skill file (not a SKILL.md) a workspace pull has reported findings for: the
    /// reports a later pull must answer for when the client still holds them.
    skill_files_reported: std::collections::HashSet<Uri>,
}

/// Changes: each bumps the generation.
impl State {
    fn changed(&mut self) {
        self.generation += 1;
    }

    pub(crate) fn open_document(&mut self, uri: Uri, document: Buffer) {
        self.changed();
        self.documents.insert(uri, document);
    }

    /// Runs `edit` on an open document with the negotiated encoding; `None` when the document
    /// is not open.
    pub(crate) fn edit_document<R>(
        &mut self,
        uri: &Uri,
        edit: impl FnOnce(&mut Buffer, Encoding) -> R,
    ) -> Option<R> {
        self.changed();
        let encoding = self.encoding;
        self.documents
            .get_mut(uri)
            .map(|document| edit(document, encoding))
    }

    /// Returns whether it was open.
    pub(crate) fn close_document(&mut self, uri: &Uri) -> bool {
        self.changed();
        self.documents.remove(uri).is_some()
    }

    pub(crate) fn set_settings(&mut self, settings: ClientSettings) {
        self.changed();
        self.settings = settings;
    }

    /// Adds indexed folders; buffers opened while they were indexed replace their disk copies.
    pub(crate) fn add_workspaces(&mut self, workspaces: impl IntoIterator<Item = FolderState>) {
        self.changed();
        self.workspaces.extend(workspaces);
        for path in self.open_paths() {
            self.ensure_workspace(&path);
            self.refresh_skill(&path);
        }
    }

    pub(crate) fn remove_workspaces(&mut self, folders: &[PathBuf]) {
        self.changed();
        self.workspaces
            .retain(|workspace| !folders.contains(&workspace.folder));
    }

    /// Files or folders changed on disk: a config reloads its workspace, any other path
    /// refreshes its workspace's index unless an open buffer stands for it (its own edits
    /// updated the index), and whatever reads the disk (`broken-link`, a skill's scripts) may
    /// read differently now.
    pub(crate) fn files_changed(&mut self, paths: &[PathBuf]) {
        self.changed();
        let overlay = self.overlay();
        let open = self.open_paths();
        for path in paths {
            let is_config = path
                .file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| FILE_NAMES.contains(&name));
            if is_config {
                if let Some(workspace) = self.workspace_of_mut(path) {
                    let folder = workspace.folder.clone();
                    *workspace = FolderState::load(folder, &overlay);
                }
            } else if !open.contains(path) {
                if let Some(workspace) = self.workspace_of_mut(path) {
                    workspace.refresh(path, &overlay);
                }
            }
        }
    }

    pub(crate) fn set_eval_result(&mut self, skill: PathBuf, summary: EvalSummary) {
        self.changed();
        self.eval_results.insert(skill, summary);
    }

    pub(crate) fn add_pending_folders(&mut self, folders: impl IntoIterator<Item = PathBuf>) {
        self.pending_folders.extend(folders);
    }

    pub(crate) fn take_pending_folders(&mut self) -> Vec<PathBuf> {
        std::mem::take(&mut self.pending_folders)
    }

    /// Remembers the skill files a workspace pull reported findings for.
    pub(crate) fn note_reported(&mut self, uris: impl IntoIterator<Item = Uri>) {
        self.skill_files_reported.extend(uris);
    }
}

/// Reads.
impl State {
    /// The pull model's `resultId` for the state as it is now.
    #[must_use]
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    #[must_use]
    pub(crate) fn encoding(&self) -> Encoding {
        self.encoding
    }

    #[must_use]
    pub(crate) fn caps(&self) -> ClientCaps {
        self.caps
    }

    #[must_use]
    pub(crate) fn workspaces(&self) -> &[FolderState] {
        &self.workspaces
    }

    #[must_use]
    pub(crate) fn is_open(&self, uri: &Uri) -> bool {
        self.documents.contains_key(uri)
    }

    #[must_use]
    pub(crate) fn open_paths(&self) -> Vec<PathBuf> {
        self.documents.keys().filter_map(uri_path).collect()
    }

    /// The version of each open document, by path.
    #[must_use]
    pub(crate) fn open_versions(&self) -> HashMap<PathBuf, i32> {
        self.documents
            .iter()
            .filter_map(|(uri, document)| Some((uri_path(uri)?, document.version)))
            .collect()
    }

    #[must_use]
    pub(crate) fn open_uris(&self) -> Vec<Uri> {
        self.documents.keys().cloned().collect()
    }

    #[must_use]
    pub(crate) fn version_of(&self, uri: &Uri) -> Option<i32> {
        self.documents.get(uri).map(|document| document.version)
    }

    #[must_use]
    pub(crate) fn was_reported(&self, uri: &Uri) -> bool {
        self.skill_files_reported.contains(uri)
    }
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

/// A skill's eval file open in the editor ([`BufferText::eval_file`]), with the skill's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EvalFile {
    /// A trigger eval set: `evals/triggers.json` or another name of `set::SET_FILES`.
    Triggers { dir: PathBuf },
    /// The output evals, `evals/evals.json`.
    Outputs { dir: PathBuf },
}

/// A document's text and version at one moment, for analysis outside the lock: an open buffer,
/// or a file read for the catalog or a workspace pull. Request handlers get it inside a
/// `Snapshot`.
#[derive(Clone)]
pub(crate) struct BufferText {
    pub uri: Uri,
    pub path: Option<PathBuf>,
    pub text: Arc<str>,
    pub rope: Rope,
    pub version: i32,
}

impl BufferText {
    /// Which of a skill's eval files the document is, by its name and the SKILL.md beside it:
    /// a trigger set (one of `set::SET_FILES`) or the output evals (`evals/evals.json`).
    #[must_use]
    pub(crate) fn eval_file(&self, exists: &dyn Fn(&Path) -> bool) -> Option<EvalFile> {
        use crate::agent::eval::set;
        let path = self.path.as_deref()?;
        if let Some(dir) = set::output_evals_skill_dir(path, exists) {
            return Some(EvalFile::Outputs { dir });
        }
        set::set_skill_dir(path, exists).map(|(dir, _)| EvalFile::Triggers { dir })
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
    /// Whether the document's skill folder may be walked for the files it ships
    /// ([`State::may_walk`]).
    pub scan_folder: bool,
}

impl AnalysisContext {
    /// The targets selected for the document at `path`.
    #[must_use]
    pub(crate) fn targets(&self, path: Option<&Path>) -> Vec<Client> {
        path.map_or_else(
            || vec![Client::AgentSkills],
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

    /// The open buffer of the file at `path`, whichever spelling of its uri the editor used.
    pub(crate) fn document_at(&self, path: &Path) -> Option<BufferText> {
        let uri = self
            .documents
            .keys()
            .find(|uri| uri_path(uri).as_deref() == Some(path))?;
        self.document_text(uri)
    }

    pub(crate) fn document_text(&self, uri: &Uri) -> Option<BufferText> {
        let document = self.documents.get(uri)?;
        Some(BufferText {
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

    fn workspace_of_mut(&mut self, path: &Path) -> Option<&mut FolderState> {
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
        if !self.may_walk(&folder)
            || self
                .workspaces
                .iter()
                .any(|workspace| workspace.folder == folder)
        {
            return;
        }
        let overlay = self.overlay();
        let mut workspace = FolderState::load(folder, &overlay);
        workspace.implicit = true;
        self.changed();
        self.workspaces.push(workspace);
    }

    /// Whether a folder an opened file implies (its skill folder, the workspace derived for it)
    /// may be walked: never the file system's root, the home folder, or a folder above one of
    /// the editor's workspace folders. A document at `file:///SKILL.md` or `~/SKILL.md` would
    /// otherwise have the whole disk or home folder read on every keystroke.
    fn may_walk(&self, folder: &Path) -> bool {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        folder
            .parent()
            .is_some_and(|parent| !parent.as_os_str().is_empty())
            && home.as_deref() != Some(folder)
            && !self.workspaces.iter().any(|workspace| {
                !workspace.implicit
                    && workspace.folder != folder
                    && workspace.folder.starts_with(folder)
            })
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
            open_paths: self.open_paths(),
            overlay: self.overlay(),
            batch: None,
            scan_folder: path
                .and_then(Path::parent)
                .is_some_and(|folder| self.may_walk(folder)),
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
            for plugin in &workspace.registry.plugins {
                if !registry
                    .plugins
                    .iter()
                    .any(|known| known.root == plugin.root)
                {
                    registry.plugins.push(plugin.clone());
                }
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
        let overlay = self.overlay();
        let exists = |path: &Path| overlay.is_open(path) || path.is_file();
        let set_text = overlay.read(&find_set(path, &exists)?.path).ok()?;
        (stored.key == eval_key(&description_of(text), &set_text)).then(|| stored.clone())
    }

    /// Re-reads the index entry of `path` from the overlay after its buffer or file changed.
    /// Returns whether a registry changed.
    pub(crate) fn refresh_skill(&mut self, path: &Path) -> bool {
        let overlay = self.overlay();
        let changed = self.workspace_of_mut(path).is_some_and(|workspace| {
            (workspace.index.locate(path).is_some() || workspace.index.holds_plugin_skill(path))
                && workspace.refresh(path, &overlay)
        });
        if changed {
            self.changed();
        }
        changed
    }
}

/// All findings for one document's text: for a SKILL.md, the engine's analysis of its text,
/// with the links of its body checked against the disk and the open buffers, and
/// `capability-mismatch` from the files of its folder.
#[must_use]
pub(crate) fn analyze(document: &BufferText, context: &AnalysisContext) -> Vec<Diagnostic> {
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
pub(crate) fn analyze_skill(document: &BufferText, context: &AnalysisContext) -> DocumentAnalysis {
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
    // A buffer with no file behind it has no folder to scan, nor has a file whose folder is
    // the disk's root or home folder.
    if document.path.is_none() || !is_skill_path(&path) || !context.scan_folder {
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
            let text = crate::workspace::read::read_text(&skill_file).ok()?;
            Some(crate::workspace::loader::read_metadata(&text, "", ClientSet::NONE).name)
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
pub(crate) fn test_document(text: &str) -> BufferText {
    BufferText {
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
mod generation_tests {
    use super::*;

    /// The pull model answers "unchanged" when a client holds this generation's report, so
    /// every change a diagnostic can depend on must move it.
    #[test]
    fn every_change_moves_the_generation() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("skills/pdf/SKILL.md");
        std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
        std::fs::write(&skill, "---\nname: pdf\ndescription: Old.\n---\n").unwrap();
        let uri = Uri::from_file_path(&skill).unwrap();
        let mut state = State::default();
        let mut last = state.generation();
        let mut moved = |state: &State, what: &str| {
            assert!(
                state.generation() > last,
                "{what} left the generation at {last}"
            );
            last = state.generation();
        };
        let folder = FolderState::load(dir.path().to_path_buf(), &state.overlay());
        state.add_workspaces([folder]);
        moved(&state, "adding a workspace");
        state.open_document(uri.clone(), Buffer::new("---\nname: pdf\n---\n", 1));
        moved(&state, "opening a document");
        state.edit_document(&uri, |document, _| document.version = 2);
        moved(&state, "editing a document");
        state.set_settings(ClientSettings::default());
        moved(&state, "new settings");
        state.files_changed(&[dir.path().join("skills/pdf/references/a.md")]);
        moved(&state, "a file changed on disk");
        let summary = EvalSummary {
            key: String::new(),
            passed: 0,
            total: 0,
            missed: 0,
            wrongly_loaded: 0,
            failing: Vec::new(),
            undecided: 0,
        };
        state.set_eval_result(skill.clone(), summary);
        moved(&state, "an eval result");
        state.close_document(&uri);
        moved(&state, "closing a document");
        state.remove_workspaces(&[dir.path().to_path_buf()]);
        moved(&state, "removing a workspace");
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
            Buffer::new("---\nname: b\ndescription: New words.\n---\nBody\n", 2),
        );
        assert!(state.refresh_skill(&b));
        assert_eq!(
            state.workspaces[0].registry.catalog(),
            "- a: Old.\n- b: New words."
        );
        state.documents.insert(
            uri,
            Buffer::new("---\nname: a\ndescription: New words.\n---\nBody\n", 3),
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
