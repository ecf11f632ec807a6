//! A live index of a workspace's skills: the loader's registry kept up to date one SKILL.md at a
//! time, so an editor can follow file events and unsaved buffers without rescanning.

use crate::exclude::Excludes;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::loader::{Metadata, Source, add_readings, client_reads};
use super::plugins::Plugin;
use super::registry::{Refusal, Refused, Registry, Skill};
use crate::clients::Readings;
use crate::targets::{ALL_CLIENTS, ClientSet};

#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    path: PathBuf,
    state: Result<Metadata, Refusal>,
}

/// Every `<root>/*/SKILL.md` of a workspace, in loader order: root, then folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorkspaceIndex {
    roots: Vec<PathBuf>,
    /// The clients whose own readings each skill is read with.
    clients: ClientSet,
    /// The skill folders left out (`exclude`, `extend-exclude`).
    excludes: Excludes,
    slots: BTreeMap<(usize, String), Slot>,
    /// The workspace's folder and the plugins it offers, when it was opened as one
    /// (`Workspace::index`).
    pub(crate) plugins: Option<(PathBuf, Vec<Plugin>)>,
}

/// The root with every symlink resolved, which registered files must stay inside.
fn real_root(root: &Path) -> Option<PathBuf> {
    fs::canonicalize(super::loader::fs_path(root)).ok()
}

/// Whether `<root>/<folder>/SKILL.md` may be registered, and what it says; `real_root` is
/// [`real_root`] of `root`, resolved once per scan rather than once per skill. `plain_folder`
/// says whether the folder is a real folder (no link) when the caller's listing already knows;
/// `clients` whose readings to take.
fn probe(
    root: &Path,
    real_root: Option<&Path>,
    folder: &str,
    plain_folder: Option<bool>,
    source: &dyn Source,
    clients: ClientSet,
) -> Option<Slot> {
    let folder_path = root.join(folder);
    let path = folder_path.join("SKILL.md");
    let (on_disk, regular) = if source.is_plain_file(&path) {
        (true, true)
    } else {
        let file = fs::symlink_metadata(&path);
        (
            file.is_ok(),
            file.is_ok_and(|file| file.file_type().is_file()),
        )
    };
    if !on_disk && !source.is_open(&path) {
        return None;
    }
    let real_root = real_root?;
    // A regular SKILL.md in a folder that is no link lies inside the root by construction:
    // only links can lead out, so only they are resolved (a `readlink` per path component).
    let plain = regular
        && plain_folder.unwrap_or_else(|| {
            fs::symlink_metadata(&folder_path).is_ok_and(|folder| folder.file_type().is_dir())
        });
    let refusal = if plain {
        None
    } else {
        match fs::canonicalize(&path) {
            Err(_) if !on_disk => None,
            Err(_) => Some(Refusal::NotAFile),
            Ok(resolved) if !resolved.starts_with(real_root) => Some(Refusal::OutsideRoot {
                resolved,
                readings: source
                    .metadata(&path, folder, clients)
                    .ok()
                    .map(|metadata| Box::new(metadata.readings)),
            }),
            Ok(resolved) if !resolved.is_file() => Some(Refusal::NotAFile),
            Ok(_) => None,
        }
    };
    let state = match refusal {
        Some(refusal) => Err(refusal),
        None => source
            .metadata(&path, folder, clients)
            .map_err(|error| Refusal::Unreadable {
                reason: error.to_string(),
            }),
    };
    Some(Slot { path, state })
}

/// Every `<root>/<folder>/SKILL.md` of `roots` that may be registered, and what it says, in
/// loader order (root, then folder).
fn probe_roots(
    roots: &[PathBuf],
    source: &dyn Source,
    clients: ClientSet,
    excludes: &Excludes,
) -> Vec<((usize, String), Slot)> {
    let mut candidates = Vec::new();
    for (root_index, root) in roots.iter().enumerate() {
        let Ok(entries) = fs::read_dir(super::loader::fs_path(root)) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let Ok(folder) = entry.file_name().into_string() else {
                continue;
            };
            // The listing's own file type (no system call on most file systems) tells a
            // real folder; only links, and entries of unknown type, are looked up.
            let plain = entry.file_type().ok().filter(|kind| !kind.is_symlink());
            let is_folder = match plain {
                Some(kind) => kind.is_dir(),
                None => entry.path().is_dir(),
            };
            if is_folder && !excludes.excludes(&root.join(&folder), true) {
                candidates.push((root_index, folder, plain.is_some()));
            }
        }
    }
    // In order before they are read: sorting the slots after would move every skill's parse
    // around. A folder name is listed once per root, so no two are equal.
    candidates.par_sort_unstable_by(|(a_root, a, _), (b_root, b, _)| (a_root, a).cmp(&(b_root, b)));
    // Reading and parsing each SKILL.md is independent work: thousands of skills index on
    // every core, and the slots are collected in the candidates' order.
    let real_roots: Vec<Option<PathBuf>> = roots.iter().map(|root| real_root(root)).collect();
    candidates
        .into_par_iter()
        .filter_map(|(root_index, folder, plain)| {
            let slot = probe(
                &roots[root_index],
                real_roots[root_index].as_deref(),
                &folder,
                plain.then_some(true),
                source,
                clients,
            )?;
            Some(((root_index, folder), slot))
        })
        .collect()
}

impl WorkspaceIndex {
    /// Scans each root in order, reading each skill with the readings of `clients`; missing
    /// roots hold no skills.
    #[must_use]
    pub(crate) fn scan(
        roots: &[PathBuf],
        source: &dyn Source,
        clients: ClientSet,
        excludes: &Excludes,
    ) -> Self {
        WorkspaceIndex {
            roots: roots.to_vec(),
            clients,
            excludes: excludes.clone(),
            slots: probe_roots(roots, source, clients, excludes)
                .into_iter()
                .collect(),
            plugins: None,
        }
    }

    /// Whether `root` is one of this workspace's skills roots.
    #[must_use]
    pub(crate) fn holds_root(&self, root: &Path) -> bool {
        self.roots.iter().any(|candidate| candidate == root)
    }

    /// The root and folder of a `<root>/<folder>/SKILL.md` path of this workspace.
    #[must_use]
    pub(crate) fn locate(&self, path: &Path) -> Option<(usize, String)> {
        if path.file_name()? != "SKILL.md" {
            return None;
        }
        let folder_path = path.parent()?;
        let root = folder_path.parent()?;
        let root_index = self.roots.iter().position(|candidate| candidate == root)?;
        Some((root_index, folder_path.file_name()?.to_str()?.to_owned()))
    }

    /// Re-reads one skill after its file changed, appeared or went away (or a buffer changed:
    /// `source` decides where the text comes from). Returns `None` when the path does not
    /// belong here, else whether what the loader registers changed (a body edit does not).
    pub(crate) fn refresh(&mut self, path: &Path, source: &dyn Source) -> Option<bool> {
        let (root_index, folder) = self.locate(path)?;
        let excluded = self
            .excludes
            .excludes(&self.roots[root_index].join(&folder), true);
        let slot = probe(
            &self.roots[root_index],
            real_root(&self.roots[root_index]).as_deref(),
            &folder,
            None,
            source,
            self.clients,
        );
        let slot = slot.filter(|_| !excluded);
        let key = (root_index, folder);
        let changed = self.slots.get(&key) != slot.as_ref();
        match slot {
            Some(slot) => self.slots.insert(key, slot),
            None => self.slots.remove(&key),
        };
        Some(changed)
    }

    /// Re-reads every skill folder under `path` (a folder that was created, removed or renamed).
    pub(crate) fn refresh_folder(&mut self, path: &Path, source: &dyn Source) {
        for (root_index, root) in self.roots.clone().iter().enumerate() {
            if path == root || root.starts_with(path) {
                self.slots.retain(|(index, _), _| *index != root_index);
                let rescanned = WorkspaceIndex::scan(
                    std::slice::from_ref(root),
                    source,
                    self.clients,
                    &self.excludes,
                );
                for ((_, folder), slot) in rescanned.slots {
                    self.slots.insert((root_index, folder), slot);
                }
            } else if path.parent() == Some(root.as_path()) {
                self.refresh(&path.join("SKILL.md"), source);
            }
        }
    }

    /// The registered form of the skill at `path`, when it is readable and inside its root.
    #[must_use]
    pub(crate) fn skill_at(&self, path: &Path) -> Option<Skill> {
        let (root_index, folder) = self.locate(path)?;
        let slot = self.slots.get(&(root_index, folder.clone()))?;
        let metadata = slot.state.as_ref().ok()?.clone();
        Some(Skill::new(
            metadata,
            slot.path.clone(),
            self.roots[root_index].clone(),
            folder,
        ))
    }

    /// The loader's registry as of now.
    #[must_use]
    pub(crate) fn registry(&self) -> Registry {
        let mut registry = registry_of(&self.roots, self.slots.clone());
        if let Some((_, plugins)) = &self.plugins {
            registry.plugins.clone_from(plugins);
        }
        registry
    }

    /// Whether `path` is the SKILL.md of one of the workspace's plugins.
    #[must_use]
    pub(crate) fn holds_plugin_skill(&self, path: &Path) -> bool {
        self.plugins
            .as_ref()
            .is_some_and(|(_, plugins)| super::plugins::plugin_skill(plugins, path).is_some())
    }

    /// Follows a change to a plugin's skill or manifest; whether the plugins changed. A
    /// manifest's change reads the plugins again: it may add, drop or rename any of them.
    pub(crate) fn refresh_plugins(&mut self, path: &Path, source: &dyn Source) -> bool {
        let Some((folder, plugins)) = &mut self.plugins else {
            return false;
        };
        if crate::plugins::manifest_kind(path).is_some() {
            let again = super::plugins::read_plugins(folder, source);
            let changed = again != *plugins;
            *plugins = again;
            return changed;
        }
        super::plugins::refresh(plugins, path, source)
    }
}

/// The loader's registry of `roots` from their `slots`, in loader order.
fn registry_of(
    roots: &[PathBuf],
    slots: impl IntoIterator<Item = ((usize, String), Slot)>,
) -> Registry {
    let slots = slots.into_iter();
    let mut registry = Registry::with_capacity(slots.size_hint().0);
    registry.roots = roots.to_vec();
    for ((root_index, folder), slot) in slots {
        let root = roots[root_index].clone();
        match slot.state {
            Ok(metadata) => registry.add(Skill::new(metadata, slot.path, root, folder)),
            Err(refusal) => registry.refused.push(Refused {
                path: slot.path,
                root,
                refusal,
            }),
        }
    }
    registry
}

impl Registry {
    /// Scans `<root>/*/SKILL.md` for each root in order, each skill with every client's own
    /// reading. Missing roots are skipped; nothing here fails the scan as a whole. A one-off
    /// index: the registry is what an index yields.
    #[must_use]
    pub fn scan(roots: &[PathBuf], source: &dyn Source) -> Self {
        Self::scan_for(roots, source, ClientSet::ALL)
    }

    /// [`Registry::scan`] with the readings of `clients` only: what a front end that shows no
    /// other client's listing needs (each reading costs a parse of every file).
    #[must_use]
    pub(crate) fn scan_for(roots: &[PathBuf], source: &dyn Source, clients: ClientSet) -> Self {
        Self::scan_excluding(roots, source, clients, &Excludes::default())
    }

    /// [`Registry::scan_for`], leaving out the skill folders `excludes` matches.
    #[must_use]
    pub(crate) fn scan_excluding(
        roots: &[PathBuf],
        source: &dyn Source,
        clients: ClientSet,
        excludes: &Excludes,
    ) -> Self {
        registry_of(roots, probe_roots(roots, source, clients, excludes))
    }

    /// Adds the readings of `clients` to a registry read without them (`check` reads the files
    /// before it knows which listings its workspace rules need), where a client's listing
    /// ([`crate::workspace::catalog::client_listing`]) looks for them: every registered,
    /// shadowed or linked-in skill under a root the client reads. Each such file is read again
    /// from `source`; one that can no longer be read stays without them, and the client's
    /// listing leaves it out, as the client would.
    pub(crate) fn read_clients(&mut self, clients: ClientSet, source: &dyn Source) {
        if clients.is_empty() {
            return;
        }
        let only_root = self.roots.len() == 1;
        let wanted = |root: &Path| {
            ClientSet::of(
                ALL_CLIENTS
                    .into_iter()
                    .filter(|&target| clients.contains(target))
                    .filter(|&target| client_reads(target, root, only_root)),
            )
        };
        let add = |path: &Path, root: &Path, readings: &mut Readings| {
            let missing = wanted(root).without(readings.clients());
            if missing.is_empty() {
                return;
            }
            if let Ok(text) = source.read(path) {
                add_readings(readings, &text, missing);
            }
        };
        // Thousands of files may need reading again: on every core.
        self.skills
            .par_iter_mut()
            .chain(self.shadowed.par_iter_mut().map(|(skill, _)| skill))
            .for_each(|skill| add(&skill.path, &skill.root, &mut skill.readings));
        for refused in &mut self.refused {
            if let Refusal::OutsideRoot {
                readings: Some(readings),
                ..
            } = &mut refused.refusal
            {
                add(&refused.path, &refused.root, readings);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Disk;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    #[test]
    fn follows_changes_one_file_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join("skills");
        let claude = dir.path().join(".claude/skills");
        write(
            &skills.join("b/SKILL.md"),
            "---\nname: b\ndescription: B.\n---\n",
        );
        write(
            &claude.join("a/SKILL.md"),
            "---\nname: a\ndescription: A.\n---\n",
        );
        let roots = vec![skills.clone(), claude.clone()];
        let mut index = WorkspaceIndex::scan(&roots, &Disk, ClientSet::ALL, &Excludes::default());
        assert_eq!(
            index.registry().names(),
            vec!["b", "a"],
            "roots keep their order"
        );
        assert_eq!(index.registry(), Registry::scan(&roots, &Disk));

        write(
            &claude.join("a/SKILL.md"),
            "---\nname: b\ndescription: A now B.\n---\n",
        );
        assert_eq!(index.refresh(&claude.join("a/SKILL.md"), &Disk), Some(true));
        assert_eq!(
            index.refresh(&claude.join("a/SKILL.md"), &Disk),
            Some(false),
            "nothing changed"
        );
        let registry = index.registry();
        assert_eq!(registry.names(), vec!["b"]);
        assert_eq!(registry.shadowed.len(), 1);

        fs::remove_dir_all(skills.join("b")).unwrap();
        index.refresh(&skills.join("b/SKILL.md"), &Disk);
        assert_eq!(index.registry().names(), vec!["b"]);
        assert_eq!(index.registry().skills[0].description, "A now B.");
        assert_eq!(index.refresh(&dir.path().join("README.md"), &Disk), None);

        write(
            &skills.join("c/SKILL.md"),
            "---\nname: c\ndescription: C.\n---\n",
        );
        index.refresh_folder(&skills.join("c"), &Disk);
        assert_eq!(index.registry().names(), vec!["c", "b"]);
    }
}
