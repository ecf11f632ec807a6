//! What a request handler reads: one document's text with the negotiated encoding, the
//! client's capabilities and the analysis context, copied out of the [`State`] under the lock
//! ([`Snapshot::take`]), so that every handler is a plain function of `(&Snapshot, params)`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::{self as lsp, Position, Uri};

use super::capabilities::ClientCaps;
use super::convert::to_lsp_diagnostic;
use super::documents::{Encoding, offset_of, range_of};
use super::eval_results::EvalSummary;
use super::state::{AnalysisContext, BufferText, EvalFile, Overlay, State, analyze, analyze_skill};
use crate::analysis::RegistryView;
use crate::diagnostic::Diagnostic;

pub(crate) struct Snapshot {
    pub document: BufferText,
    pub encoding: Encoding,
    pub caps: ClientCaps,
    /// The engine and registry of the document's workspace: the same analysis `check` runs.
    pub context: AnalysisContext,
    /// Open buffers over the disk, for handlers that read other files.
    pub overlay: Overlay,
    /// The workspace folder that holds the document, else the first one, with its registry:
    /// the scope of references and rename.
    pub workspace: Option<(PathBuf, RegistryView)>,
    /// The version of every open document, by path (a rename's edits name them).
    pub versions: HashMap<PathBuf, i32>,
    /// The skill's last trigger-eval result, while its description and eval set are unchanged.
    pub eval: Option<EvalSummary>,
}

impl Snapshot {
    /// Whether a file is there as the editor sees it: an open buffer or a file on disk.
    #[must_use]
    pub(crate) fn exists(&self, path: &Path) -> bool {
        self.overlay.0.contains_key(path) || path.is_file()
    }

    /// Which of a skill's eval files the document is, if one.
    #[must_use]
    pub(crate) fn eval_file(&self) -> Option<EvalFile> {
        self.document.eval_file(&|path| self.exists(path))
    }

    /// The snapshot of an open document, taken from `state` under its lock; `None` when the
    /// document is not open.
    pub(crate) fn take(state: &State, uri: &Uri) -> Option<Self> {
        let document = state.document_text(uri)?;
        let path = document.path.as_deref();
        let context = state.analysis_context(path);
        let workspace = path
            .and_then(|path| state.workspace_of(path))
            .or_else(|| state.workspaces().first())
            .map(|workspace| (workspace.folder.clone(), workspace.registry.clone()));
        let versions = state.open_versions();
        let eval = path
            .filter(|_| document.is_skill_file())
            .and_then(|path| state.eval_summary(path, &document.text));
        Some(Snapshot {
            eval,
            document,
            encoding: state.encoding(),
            caps: state.caps(),
            context,
            overlay: state.overlay(),
            workspace,
            versions,
        })
    }

    /// The byte offset of an LSP position in the document (clamped to the text).
    #[must_use]
    pub(crate) fn offset(&self, position: Position) -> usize {
        offset_of(&self.document.rope, position, self.encoding)
    }

    /// The LSP range of a byte range of the document.
    #[must_use]
    pub(crate) fn range(&self, start: usize, end: usize) -> lsp::Range {
        range_of(&self.document.rope, start, end, self.encoding)
    }

    /// Every finding of the document, from the engine.
    #[must_use]
    pub(crate) fn analyze(&self) -> Vec<Diagnostic> {
        analyze(&self.document, &self.context)
    }

    /// The findings as the client receives them, with those of the skill's other files (its
    /// scripts and references) by URI.
    #[must_use]
    pub(crate) fn lsp_diagnostics(
        &self,
    ) -> (Vec<lsp::Diagnostic>, Vec<(Uri, Vec<lsp::Diagnostic>)>) {
        let analysis = analyze_skill(&self.document, &self.context);
        let related = self.caps.related_information;
        let items = analysis
            .diagnostics
            .iter()
            .map(|diagnostic| {
                to_lsp_diagnostic(diagnostic, &self.document.rope, self.encoding, related)
            })
            .collect();
        (
            items,
            skill_file_reports(analysis.skill_files, self.encoding, related),
        )
    }
}

/// The security findings of a skill's other files, as LSP diagnostics by the file's URI.
#[must_use]
pub(crate) fn skill_file_reports(
    files: Vec<(PathBuf, String, Vec<Diagnostic>)>,
    encoding: Encoding,
    related: bool,
) -> Vec<(Uri, Vec<lsp::Diagnostic>)> {
    files
        .into_iter()
        .filter_map(|(path, text, diagnostics)| {
            let uri = Uri::from_file_path(std::path::absolute(&path).ok()?)?;
            let rope = ropey::Rope::from_str(&text);
            let items = diagnostics
                .iter()
                .map(|diagnostic| to_lsp_diagnostic(diagnostic, &rope, encoding, related))
                .collect();
            Some((uri, items))
        })
        .collect()
}

/// A snapshot of `text` as `skills/pdf/SKILL.md` of a workspace at `/w`, with no workspace
/// indexed and a client that declared nothing; tests set what they need.
#[cfg(test)]
#[must_use]
pub(crate) fn test_snapshot(text: &str) -> Snapshot {
    let document = super::state::test_document(text);
    let state = State::default();
    Snapshot {
        context: state.analysis_context(document.path.as_deref()),
        document,
        encoding: Encoding::Utf16,
        caps: ClientCaps::default(),
        overlay: state.overlay(),
        workspace: None,
        versions: HashMap::new(),
        eval: None,
    }
}
