//! The server's workspace folders: each folder's config and its live skill index.

use std::path::{Path, PathBuf};

use crate::analysis::RegistryView;
use crate::config::Config;
use crate::targets::ClientSet;
use crate::workspace::{Source, Workspace, WorkspaceIndex};

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
        let index = workspace.index(source, ClientSet::ALL);
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
        let plugins_changed = self.index.refresh_plugins(path, source);
        let changed = match self.index.refresh(path, source) {
            Some(changed) => changed,
            None => {
                // Not a SKILL.md of a root: maybe a skill folder that appeared or went away.
                let before = self.index.clone();
                self.index.refresh_folder(path, source);
                self.index != before
            }
        };
        // The plugins' copies of their skills live in the registry too: patching the loader's
        // copy alone would leave them behind.
        if plugins_changed || changed && !self.patch_registry(path) {
            self.registry = RegistryView::from(self.index.registry());
        }
        changed || plugins_changed
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
