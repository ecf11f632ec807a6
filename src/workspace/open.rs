//! The three workspace questions every front end asks, answered once: which config and skills
//! roots a folder has (`Workspace::open`), which workspace owns a SKILL.md (`owner_of`), and
//! which skill of a registry a name or a path means (`find_skill`).

use std::fmt;
use std::path::{Path, PathBuf};

use super::discovery::root_of;
use super::loader::{fs_path, roots_for, workspace_of_skill};
use super::plugins::read_plugins;
use super::registry::{Registry, Skill};
use super::{Source, WorkspaceIndex};
use crate::config::{Config, ConfigError};
use crate::targets::ClientSet;

/// A folder as the loader sees it: the config in force there and the skills roots it scans.
#[derive(Clone, Debug)]
pub(crate) struct Workspace {
    pub folder: PathBuf,
    pub config: Config,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum OpenError {
    #[error("{}: no such folder", .0.display())]
    NoFolder(PathBuf),
    #[error("{}: {source}", .path.display())]
    Unresolved {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl Workspace {
    /// The workspace at `folder`, spelled as given (paths in output stay as the user wrote them).
    ///
    /// # Errors
    /// The folder does not exist, or the config found for it is unreadable or invalid.
    pub(crate) fn open(folder: &Path) -> Result<Self, OpenError> {
        if !fs_path(folder).is_dir() {
            return Err(OpenError::NoFolder(folder.to_path_buf()));
        }
        Ok(Self {
            folder: folder.to_path_buf(),
            config: Config::discover(folder)?,
        })
    }

    /// The workspace at `folder` with links resolved, for a front end that hands the path to a
    /// model (the agent's prompt names it) or compares it with other resolved paths.
    ///
    /// # Errors
    /// As [`Workspace::open`], and a folder that cannot be resolved.
    pub(crate) fn open_resolved(folder: &Path) -> Result<Self, OpenError> {
        if !fs_path(folder).is_dir() {
            return Err(OpenError::NoFolder(folder.to_path_buf()));
        }
        let resolved =
            std::fs::canonicalize(fs_path(folder)).map_err(|source| OpenError::Unresolved {
                path: folder.to_path_buf(),
                source,
            })?;
        Self::open(&resolved)
    }

    /// The workspace at `folder` even when its config is broken: the defaults stand in and the
    /// problem is returned beside them, for a server that must keep serving.
    pub(crate) fn open_lenient(folder: PathBuf) -> (Self, Option<ConfigError>) {
        let (config, problem) = match Config::discover(&folder) {
            Ok(config) => (config, None),
            Err(error) => (Config::default(), Some(error)),
        };
        (Self { folder, config }, problem)
    }

    /// The skills roots, in the loader's order (design.md §5).
    #[must_use]
    pub(crate) fn roots(&self) -> Vec<PathBuf> {
        roots_for(&self.folder, &self.config.roots)
    }

    /// The loader's registry, with the readings of `clients` beside its own.
    #[must_use]
    pub(crate) fn registry(&self, source: &dyn Source, clients: ClientSet) -> Registry {
        let mut registry =
            Registry::scan_excluding(&self.roots(), source, clients, &self.config.exclude);
        registry.plugins = read_plugins(&self.folder, source);
        registry
    }

    /// The registry kept live, one SKILL.md at a time.
    #[must_use]
    pub(crate) fn index(&self, source: &dyn Source, clients: ClientSet) -> WorkspaceIndex {
        let mut index = WorkspaceIndex::scan(&self.roots(), source, clients, &self.config.exclude);
        index.plugins = Some((self.folder.clone(), read_plugins(&self.folder, source)));
        index
    }
}

/// Who owns a SKILL.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Owner<T> {
    /// A workspace the caller already knows (an editor folder, a folder argument, the config's
    /// folder) whose skills roots hold the file.
    Known(T),
    /// No known workspace holds it: the one the loader derives from the file's own path.
    Derived(PathBuf),
}

/// The workspace that owns `skill_file`: the first known workspace whose skills roots hold
/// the file's root (`known` answers for a root), else the one its path implies. `None` for a
/// path with no skill folder above it.
pub(crate) fn owner_of<'p, T>(
    skill_file: &'p Path,
    known: impl FnOnce(&'p Path) -> Option<T>,
) -> Option<Owner<T>> {
    let root = root_of(skill_file)?;
    if let Some(found) = known(root) {
        return Some(Owner::Known(found));
    }
    workspace_of_skill(skill_file).map(Owner::Derived)
}

/// A skill asked for by name, or by its folder or SKILL.md.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SkillRef<'a> {
    Name(&'a str),
    Path(&'a Path),
}

/// Why [`find_skill`] found nothing; the text is the same in every front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SkillNotFound {
    Name {
        name: String,
        workspace: PathBuf,
        available: Vec<String>,
    },
    Path {
        path: PathBuf,
        workspace: PathBuf,
    },
}

impl fmt::Display for SkillNotFound {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkillNotFound::Name {
                name,
                workspace,
                available,
            } => {
                let available = if available.is_empty() {
                    "none".to_owned()
                } else {
                    available.join(", ")
                };
                write!(
                    formatter,
                    "no skill named '{name}' in {} (skills: {available})",
                    workspace.display()
                )
            }
            SkillNotFound::Path { path, workspace } => write!(
                formatter,
                "{}: not a skill of the workspace {}",
                path.display(),
                workspace.display()
            ),
        }
    }
}

impl std::error::Error for SkillNotFound {}

/// The folder of a skill, from its SKILL.md or the folder itself.
fn skill_folder(path: &Path) -> &Path {
    if path.file_name().is_some_and(|name| name == "SKILL.md") || fs_path(path).is_file() {
        path.parent().unwrap_or(path)
    } else {
        path
    }
}

/// The folder with links resolved, so an editor that names the real file and a registry that
/// scanned the link agree.
fn resolved(folder: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(fs_path(folder)).ok()
}

/// The skill of `registry` that `wanted` means: a registered name, or a path to a registered
/// skill's folder or SKILL.md (as scanned, or through links).
///
/// # Errors
/// No such skill; the error names the workspace and, for a name, the skills there are.
pub(crate) fn find_skill<'r>(
    registry: &'r Registry,
    wanted: SkillRef<'_>,
    workspace: &Path,
) -> Result<&'r Skill, SkillNotFound> {
    match wanted {
        SkillRef::Name(name) => registry.get(name).ok_or_else(|| SkillNotFound::Name {
            name: name.to_owned(),
            workspace: workspace.to_path_buf(),
            available: registry.names().into_iter().map(str::to_owned).collect(),
        }),
        SkillRef::Path(path) => {
            let folder = skill_folder(path);
            let as_scanned = registry
                .skills
                .iter()
                .find(|skill| skill.path.parent() == Some(folder));
            as_scanned
                .or_else(|| {
                    let wanted = resolved(folder)?;
                    registry.skills.iter().find(|skill| {
                        skill
                            .path
                            .parent()
                            .and_then(resolved)
                            .is_some_and(|it| it == wanted)
                    })
                })
                .ok_or_else(|| SkillNotFound::Path {
                    path: path.to_path_buf(),
                    workspace: workspace.to_path_buf(),
                })
        }
    }
}

/// The skills of `registry` whose folders sit under `folder` (links resolved), in catalog
/// order.
pub(crate) fn skills_under<'r>(registry: &'r Registry, folder: &Path) -> Vec<&'r Skill> {
    let Some(wanted) = resolved(folder) else {
        return Vec::new();
    };
    registry
        .skills
        .iter()
        .filter(|skill| {
            skill
                .path
                .parent()
                .and_then(resolved)
                .is_some_and(|it| it.starts_with(&wanted))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Disk;

    fn skill(root: &Path, name: &str) {
        let folder = root.join("skills").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Use when testing {name}.\n---\nBody\n"),
        )
        .unwrap();
    }

    #[test]
    fn a_skill_is_found_by_name_folder_file_or_link() {
        let dir = tempfile::tempdir().unwrap();
        skill(dir.path(), "pdf");
        skill(dir.path(), "docx");
        let workspace = Workspace::open(dir.path()).unwrap();
        let registry = workspace.registry(&Disk, ClientSet::NONE);
        let find =
            |wanted| find_skill(&registry, wanted, dir.path()).map(|skill| skill.name.clone());
        assert_eq!(find(SkillRef::Name("pdf")).unwrap(), "pdf");
        let folder = dir.path().join("skills/docx");
        assert_eq!(find(SkillRef::Path(&folder)).unwrap(), "docx");
        let file = folder.join("SKILL.md");
        assert_eq!(find(SkillRef::Path(&file)).unwrap(), "docx");
        #[cfg(unix)]
        {
            let link = dir.path().join("elsewhere");
            std::os::unix::fs::symlink(&folder, &link).unwrap();
            assert_eq!(
                find(SkillRef::Path(&link.join("SKILL.md"))).unwrap(),
                "docx"
            );
        }
    }

    #[test]
    fn a_missing_skill_is_named_with_the_workspace_and_what_is_there() {
        let dir = tempfile::tempdir().unwrap();
        skill(dir.path(), "pdf");
        skill(dir.path(), "docx");
        let registry = Workspace::open(dir.path())
            .unwrap()
            .registry(&Disk, ClientSet::NONE);
        let ws = Path::new("/w");
        let error = find_skill(&registry, SkillRef::Name("nope"), ws).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no skill named 'nope' in /w (skills: docx, pdf)"
        );
        let error = find_skill(&Registry::default(), SkillRef::Name("nope"), ws).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no skill named 'nope' in /w (skills: none)"
        );
        let stray = dir.path().join("stray/SKILL.md");
        let error = find_skill(&registry, SkillRef::Path(&stray), ws).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{}: not a skill of the workspace /w", stray.display())
        );
    }

    #[test]
    fn a_known_workspace_owns_its_roots_and_the_path_decides_the_rest() {
        let known = |root: &Path| (root == Path::new("/w/vendor")).then_some("w");
        assert_eq!(
            owner_of(Path::new("/w/vendor/pdf/SKILL.md"), known),
            Some(Owner::Known("w"))
        );
        assert_eq!(
            owner_of(Path::new("/x/.claude/skills/pdf/SKILL.md"), known),
            Some(Owner::Derived(PathBuf::from("/x")))
        );
        assert_eq!(owner_of(Path::new("SKILL.md"), known), None);
    }

    #[test]
    fn opening_a_missing_folder_or_a_broken_config_says_where() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        assert_eq!(
            Workspace::open(&missing).unwrap_err().to_string(),
            format!("{}: no such folder", missing.display())
        );
        std::fs::write(dir.path().join("skill-lsp.toml"), "targets = 3\n").unwrap();
        let error = Workspace::open(dir.path()).unwrap_err().to_string();
        assert!(error.contains("skill-lsp.toml:1:"), "{error}");
        let (workspace, problem) = Workspace::open_lenient(dir.path().to_path_buf());
        assert!(problem.is_some());
        assert_eq!(workspace.config, Config::default());
    }
}
