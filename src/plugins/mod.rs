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
mod offered;

pub use offered::{Offered, offered};

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

/// Whether `folder`, the folder above a `skills/` folder, is a Claude Code plugin's root: it
/// holds a `.claude-plugin/plugin.json`, or a marketplace.json there or up to three folders
/// above lists it as a local plugin (`"source": "./"`, `./plugins/<name>`,
/// `./external_plugins/<name>`; an entry may stand without a plugin.json). A marketplace
/// beside a `skills/` folder it does not list leaves that folder's skills what they were.
#[must_use]
pub fn is_plugin_root(folder: &Path, files: &dyn Files) -> bool {
    files.kind(&folder.join(MANIFEST_FOLDER).join("plugin.json")) == Some(EntryKind::File)
        || offered::listed(folder, files)
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
    /// The names of the folders directly inside `path` (links followed), in any order.
    fn folders(&self, path: &Path) -> Vec<String>;
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

/// The skills a plugin gives Claude Code, as `plugin:skill`, sorted as Claude Code lists them
/// (UTF-16 code units). Measured on Claude Code 2.1.328 (`claude plugin validate --json`,
/// `provides.skills`): every folder of `skills/` that holds a SKILL.md, by folder name; each
/// `skills` path of plugin.json that is itself a skill folder, by its frontmatter `name` (its
/// folder name without one); each folder holding SKILL.md directly inside any other `skills`
/// path, by folder name; the plugin's root when its SKILL.md has a frontmatter `name`, by it.
/// Empty when plugin.json has no string `name`.
#[must_use]
pub fn provided_skills(manifest: &Path, text: &str, files: &dyn Files) -> Vec<String> {
    let Ok(root) = json::parse(text) else {
        return Vec::new();
    };
    let Some(plugin) = root.get("name").and_then(|name| name.value.as_str()) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = skill_folders(&root_of(manifest), Some(&root), files)
        .into_iter()
        .map(|(name, _)| format!("{plugin}:{name}"))
        .collect();
    ids.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    ids.dedup();
    ids
}

/// The skills of the plugin at `plugin_root` whose plugin.json is `manifest` (`None` without
/// one), as [`provided_skills`] finds them: each the name it has within the plugin and its
/// folder, the `skills/` folder's first, then the root's, then those of plugin.json's `skills`.
#[must_use]
pub(crate) fn skill_folders(
    plugin_root: &Path,
    manifest: Option<&json::Node>,
    files: &dyn Files,
) -> Vec<(String, PathBuf)> {
    let is_skill = |folder: &Path| files.kind(&folder.join("SKILL.md")) == Some(EntryKind::File);
    let skills_in = |folder: &Path| -> Vec<(String, PathBuf)> {
        let mut names: Vec<String> = files
            .folders(folder)
            .into_iter()
            .filter(|name| is_skill(&folder.join(name)))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|name| {
                let path = folder.join(&name);
                (name, path)
            })
            .collect()
    };
    let named = |folder: &Path| -> Option<String> {
        files
            .read(&folder.join("SKILL.md"))
            .and_then(|text| frontmatter_name(&text))
            .or_else(|| folder.file_name()?.to_str().map(str::to_owned))
    };
    let mut skills = skills_in(&plugin_root.join("skills"));
    // A plugin whose root holds a SKILL.md with a frontmatter name is a skill itself (a root
    // SKILL.md without frontmatter, a README by another name, is not listed).
    if is_skill(plugin_root) {
        if let Some(name) = files
            .read(&plugin_root.join("SKILL.md"))
            .and_then(|text| frontmatter_name(&text))
        {
            skills.push((name, plugin_root.to_path_buf()));
        }
    }
    let paths: Vec<&str> = match manifest
        .and_then(|root| root.get("skills"))
        .map(|member| &member.value)
    {
        Some(node) => match node.items() {
            Some(items) => items.iter().filter_map(json::Node::as_str).collect(),
            None => node.as_str().into_iter().collect(),
        },
        None => Vec::new(),
    };
    for path in paths {
        // `./x` and `x` name the same folder; dropping the `.` keeps the paths comparable.
        let folder: PathBuf = std::iter::once(plugin_root)
            .chain(
                Path::new(path)
                    .components()
                    .filter(|part| !matches!(part, std::path::Component::CurDir))
                    .map(|part| Path::new(part.as_os_str())),
            )
            .collect();
        if is_skill(&folder) {
            skills.extend(named(&folder).map(|name| (name, folder.clone())));
        } else {
            skills.extend(skills_in(&folder));
        }
    }
    let mut seen = std::collections::HashSet::new();
    skills.retain(|(name, folder)| seen.insert((name.clone(), folder.clone())));
    skills
}

/// A SKILL.md's frontmatter `name`, when it has a string one.
fn frontmatter_name(text: &str) -> Option<String> {
    let document = crate::document::SkillDocument::parse(text);
    let entries = document.mapping()?.as_mapping()?;
    entries
        .iter()
        .rev()
        .find(|entry| entry.key.as_str() == Some("name"))
        .and_then(|entry| entry.value.as_str())
        .map(str::to_owned)
}

/// The explanations of the rules this module checks, for `skill-lsp rules`.
pub(crate) fn rule_docs(rule: crate::rule_table::Rule) -> Option<crate::rule_table::RuleDoc> {
    check::rule_doc(rule)
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

    /// A folder tree: each path a file with its text, folders implied.
    pub(super) struct Tree(pub(super) Vec<(&'static str, &'static str)>);

    impl Files for Tree {
        fn kind(&self, path: &Path) -> Option<EntryKind> {
            let path = path.to_str()?;
            if self.0.iter().any(|(file, _)| *file == path) {
                Some(EntryKind::File)
            } else if self
                .0
                .iter()
                .any(|(file, _)| file.starts_with(&format!("{path}/")))
            {
                Some(EntryKind::Folder)
            } else {
                None
            }
        }
        fn read(&self, path: &Path) -> Option<String> {
            let path = path.to_str()?;
            self.0
                .iter()
                .find(|(file, _)| *file == path)
                .map(|(_, text)| (*text).to_owned())
        }
        fn folders(&self, path: &Path) -> Vec<String> {
            let prefix = format!("{}/", path.display());
            let mut names: Vec<String> = self
                .0
                .iter()
                .filter_map(|(file, _)| file.strip_prefix(&prefix))
                .filter_map(|rest| rest.split_once('/').map(|(name, _)| name.to_owned()))
                .collect();
            names.sort();
            names.dedup();
            names
        }
    }

    /// The cases measured on Claude Code 2.1.328's `provides.skills`.
    #[test]
    fn provided_skills_follow_claude_codes_listing() {
        let tree = Tree(vec![
            (
                "p/skills/foo/SKILL.md",
                "---\nname: Zed\ndescription: d\n---\n",
            ),
            ("p/skills/Apple/SKILL.md", "---\ndescription: d\n---\n"),
            (
                "p/skills/nested/deeper/SKILL.md",
                "---\nname: deeper\n---\n",
            ),
            ("p/extra2/x/SKILL.md", "---\nname: ex\n---\n"),
            ("p/extra2/y/SKILL.md", "---\nname: y\n---\n"),
        ]);
        let manifest = Path::new("p/.claude-plugin/plugin.json");
        let provided = |text: &str| provided_skills(manifest, text, &tree);
        assert_eq!(provided(r#"{"name": "pv"}"#), ["pv:Apple", "pv:foo"]);
        assert_eq!(
            provided(r#"{"name": "pv", "skills": "./skills/foo"}"#),
            ["pv:Apple", "pv:Zed", "pv:foo"]
        );
        assert_eq!(
            provided(r#"{"name": "pv", "skills": ["./extra2", "."]}"#),
            ["pv:Apple", "pv:foo", "pv:x", "pv:y"]
        );
        assert!(provided(r#"{"skills": "./extra2"}"#).is_empty());
        let single = Tree(vec![("q/SKILL.md", "---\nname: humanize\n---\n")]);
        let manifest = Path::new("q/.claude-plugin/plugin.json");
        assert_eq!(
            provided_skills(manifest, r#"{"name": "hz"}"#, &single),
            ["hz:humanize"]
        );
        let readme = Tree(vec![("r/SKILL.md", "# Not a skill\n")]);
        let manifest = Path::new("r/.claude-plugin/plugin.json");
        assert!(provided_skills(manifest, r#"{"name": "r"}"#, &readme).is_empty());
    }
}
