//! Claude Code plugin manifests: `.claude-plugin/plugin.json` and
//! `.claude-plugin/marketplace.json`, checked as `claude plugin validate` (Claude Code 2.1.328)
//! decides.
//!
//! The mapping of Claude's modes: an error of `claude plugin validate` is an Error-severity
//! finding, a warning is a Warning, so `check` fails where the plain command fails and
//! `check --strict` where `--strict` does; the plugin directory's submission checks
//! (`--profile directory`) run only when [`Profile::Directory`] is asked for.
//!
//! Core code: no I/O. What exists on disk, and the text of a neighbouring file, come through
//! [`Files`], which the front end supplies (the disk for `check`, the disk under the open buffers
//! for the editor).

mod check;
pub mod fields;
pub mod json;

use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;

/// The folder Claude Code looks for manifests in, at a plugin's or a marketplace's root.
pub const MANIFEST_FOLDER: &str = ".claude-plugin";

/// Which manifest a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestKind {
    Plugin,
    Marketplace,
}

impl ManifestKind {
    #[must_use]
    pub fn file_name(self) -> &'static str {
        match self {
            ManifestKind::Plugin => "plugin.json",
            ManifestKind::Marketplace => "marketplace.json",
        }
    }
}

/// The manifest `path` is, if it is one: `plugin.json` or `marketplace.json` inside a
/// `.claude-plugin` folder (the only place Claude Code reads them from).
#[must_use]
pub fn manifest_kind(path: &Path) -> Option<ManifestKind> {
    let folder = path.parent()?.file_name()?;
    if folder != MANIFEST_FOLDER {
        return None;
    }
    match path.file_name()?.to_str()? {
        "plugin.json" => Some(ManifestKind::Plugin),
        "marketplace.json" => Some(ManifestKind::Marketplace),
        _ => None,
    }
}

/// The plugin's (or marketplace's) root: the folder holding `.claude-plugin`.
#[must_use]
pub fn root_of(manifest: &Path) -> PathBuf {
    let folder = manifest.parent().unwrap_or(Path::new(""));
    if folder
        .file_name()
        .is_some_and(|name| name == MANIFEST_FOLDER)
    {
        folder.parent().unwrap_or(Path::new("")).to_path_buf()
    } else {
        folder.to_path_buf()
    }
}

/// An extra set of checks on top of `claude plugin validate`'s own, as its `--profile` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// What the plugin directory requires of a submission (`--profile directory`).
    Directory,
}

impl Profile {
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        (text == "directory").then_some(Profile::Directory)
    }
}

/// What is at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Folder,
    /// A socket, a device, a dangling link: it exists, and is neither.
    Other,
}

/// The file system as the manifest checks see it, supplied by the front end.
pub trait Files {
    /// What is at `path` (following links), or `None` when nothing is.
    fn kind(&self, path: &Path) -> Option<EntryKind>;
    /// The text of the file at `path`, or `None` when it cannot be read as text.
    fn read(&self, path: &Path) -> Option<String>;
}

/// What a manifest's checks need besides its text.
pub struct ManifestContext<'a> {
    /// The manifest's path; the plugin root is the folder above `.claude-plugin`.
    pub path: &'a Path,
    pub profile: Option<Profile>,
    pub files: &'a dyn Files,
}

/// Checks one manifest's bytes. Returns the text the ranges refer to (a lossy decoding when the
/// bytes are not UTF-8, as Claude Code reads them) and the findings, unsorted and before rule
/// levels; `None` when `path` is no manifest.
#[must_use]
pub fn lint_manifest(
    bytes: &[u8],
    context: &ManifestContext<'_>,
) -> Option<(String, Vec<Diagnostic>)> {
    let kind = manifest_kind(context.path)?;
    let text = String::from_utf8_lossy(bytes).into_owned();
    let diagnostics = check::check(&text, kind, context);
    Some((text, diagnostics))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_manifests_in_a_claude_plugin_folder_are_manifests() {
        assert_eq!(
            manifest_kind(Path::new("x/.claude-plugin/plugin.json")),
            Some(ManifestKind::Plugin)
        );
        assert_eq!(
            manifest_kind(Path::new(".claude-plugin/marketplace.json")),
            Some(ManifestKind::Marketplace)
        );
        assert_eq!(manifest_kind(Path::new("x/plugin.json")), None);
        assert_eq!(
            manifest_kind(Path::new("x/.claude-plugin/other.json")),
            None
        );
        assert_eq!(
            root_of(Path::new("a/b/.claude-plugin/plugin.json")),
            Path::new("a/b")
        );
    }
}
