//! The workspaces of a `check` run: which workspace owns each SKILL.md, each one's registry from
//! the first pass's parses, and the registry-wide findings by file.

use super::*;

/// The loader's source for the registries of a `check` run: the metadata the first pass read
/// from each checked SKILL.md, and the disk for the skills the run did not check.
/// Each metadata is handed over once (a skill in two registries is read again for the
/// second), so the registries do not hold a second copy of every description.
/// The maps of a run are keyed by the bytes of [`Keys::key`]: keys are clean, so equal paths
/// have equal bytes, and hashing the bytes costs a tenth of `Path`'s hash, which parses the
/// components of every path it hashes.
pub(super) struct Linted<'a> {
    pub(super) keys: &'a Keys,
    /// The SKILL.md files the walk listed as regular files.
    pub(super) plain: KeySet,
    pub(super) metadata: Mutex<KeyMap<Metadata>>,
}

impl Source for Linted<'_> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        Disk.read(path)
    }

    fn is_plain_file(&self, path: &Path) -> bool {
        self.plain.contains(self.keys.key(path).as_os_str())
    }

    fn metadata(&self, path: &Path, folder: &str, clients: ClientSet) -> std::io::Result<Metadata> {
        let known = self
            .metadata
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(self.keys.key(path).as_os_str());
        match known {
            Some(mut metadata) => {
                let missing = clients.without(metadata.readings.clients());
                if !missing.is_empty() {
                    add_readings(&mut metadata.readings, &self.read(path)?, missing);
                }
                Ok(metadata)
            }
            None => Disk.metadata(path, folder, clients),
        }
    }
}

/// A map keyed by the bytes of [`Keys::key`]. Fx hashing: the keys are the run's own paths, not
/// input an attacker picks to collide, and SipHash over each whole path was a visible part of
/// the serial work between the two passes.
pub(super) type KeyMap<V> = rustc_hash::FxHashMap<OsString, V>;

/// A set of the bytes of [`Keys::key`] (see [`KeyMap`]).
pub(super) type KeySet = rustc_hash::FxHashSet<OsString>;

/// Paths made comparable however they were spelled: absolute and `.`-free, against the
/// current folder read once per run (`std::path::absolute` asks the OS for it on every call,
/// and this runs several times per file).
pub(super) struct Keys {
    pub(super) cwd: PathBuf,
}

impl Keys {
    pub(super) fn new() -> Self {
        Self {
            cwd: std::env::current_dir().unwrap_or_default(),
        }
    }

    pub(super) fn key(&self, path: &Path) -> PathBuf {
        if path.is_absolute() {
            clean(path)
        } else {
            clean(&self.cwd.join(path))
        }
    }
}

/// The registries of the workspaces the checked SKILL.md files belong to, and the findings of
/// the registry-wide rules (`duplicate-name`, `symlink-escape`, `catalog-budget`) by file.
/// Built before any file is linted, from the loader's own reading of each frontmatter, so
/// each file's findings are complete when it is linted and can be written at once.
pub(super) struct Workspaces {
    pub(super) registries: Vec<RegistryView>,
    /// By the bytes of [`Keys::key`] (see [`Linted`]): the registry-wide findings of each
    /// checked file.
    pub(super) findings: KeyMap<Vec<Diagnostic>>,
    /// By the bytes of [`Keys::key`]: the registries that hold each checked file, whose names
    /// its mentions must match (`unknown-mention`).
    pub(super) members: KeyMap<Vec<usize>>,
}

/// Which workspace owns each checked SKILL.md ([`Workspaces::owners`]), found without the
/// first pass's parses, so while they are gathered for the registries.
pub(super) struct Owners<'f> {
    /// Workspace key -> (workspace as given, the checked SKILL.md files that brought it in).
    workspaces: BTreeMap<PathBuf, (PathBuf, Vec<PathBuf>)>,
    /// The keys of every checked file.
    checked: rustc_hash::FxHashSet<&'f OsStr>,
}

impl Workspaces {
    /// Each SKILL.md belongs to one workspace: the config file's folder or a folder argument
    /// whose skills roots hold it, else the one the loader derives from its own path.
    pub(super) fn owners<'f>(
        run: &CheckRun,
        paths: &[PathBuf],
        displays: impl Iterator<Item = &'f Path>,
        file_keys: &'f [PathBuf],
        keys: &Keys,
    ) -> Owners<'f> {
        let key = |path: &Path| keys.key(path);
        let extra = &run.engine.config.roots;
        let mut known: Vec<PathBuf> = Vec::new();
        if let Some(folder) = run.engine.config.path.as_deref().and_then(Path::parent) {
            known.push(folder.to_path_buf());
        }
        known.extend(paths.iter().filter(|path| path.is_dir()).cloned());
        let known: Vec<(PathBuf, Vec<PathBuf>)> = known
            .into_iter()
            .map(|workspace| {
                let roots = roots_for(&workspace, extra)
                    .iter()
                    .map(|root| key(root))
                    .collect();
                (workspace, roots)
            })
            .collect();
        let checked: rustc_hash::FxHashSet<&OsStr> =
            file_keys.iter().map(|key| key.as_os_str()).collect();
        // Workspace key -> (workspace as given, the checked SKILL.md files that brought it in).
        let mut workspaces: BTreeMap<PathBuf, (PathBuf, Vec<PathBuf>)> = BTreeMap::new();
        // Skills root as spelled -> the known workspace whose roots hold it, and its key. Two
        // spellings of one root are two entries with the same answer.
        let mut known_root: HashMap<&OsStr, Option<(PathBuf, PathBuf)>> = HashMap::new();
        for (display, file_key) in displays.zip(file_keys) {
            if display.file_name().is_none_or(|name| name != "SKILL.md") {
                continue;
            }
            let workspace = match owner_of(display, |root| {
                known_root
                    .entry(root.as_os_str())
                    .or_insert_with(|| {
                        let root = key(root);
                        known
                            .iter()
                            .find(|(_, roots)| roots.contains(&root))
                            .map(|(workspace, _)| (key(workspace), workspace.clone()))
                    })
                    .clone()
            }) {
                Some(Owner::Known(found)) => Some(found),
                Some(Owner::Derived(workspace)) => Some((key(&workspace), workspace)),
                None => None,
            };
            if let Some((workspace_key, workspace)) = workspace {
                workspaces
                    .entry(workspace_key)
                    .or_insert_with(|| (workspace, Vec::new()))
                    .1
                    .push(file_key.clone());
            }
        }
        Owners {
            workspaces,
            checked,
        }
    }

    /// The registry of each workspace of `owners`, the loader's, built from [`roots_for`] and
    /// read from `source`, with its workspace findings and its members among the checked files.
    pub(super) fn build(
        run: &CheckRun,
        owners: Owners<'_>,
        source: &dyn Source,
        keys: &Keys,
    ) -> Self {
        let key = |path: &Path| keys.key(path);
        let extra = &run.engine.config.roots;
        let Owners {
            workspaces,
            checked,
        } = owners;
        let mut built = Workspaces {
            registries: Vec::new(),
            findings: KeyMap::default(),
            members: KeyMap::default(),
        };
        for (workspace, owners) in workspaces.values() {
            let roots: Vec<PathBuf> = roots_for(workspace, extra)
                .iter()
                .map(|root| clean(root))
                .collect();
            // Read with no client's readings but those the first pass took: which listings the
            // workspace rules compute is known once the registry's members are.
            let mut registry = Registry::scan_for(&roots, source, ClientSet::NONE);
            // A workspace whose checked files the loader cannot read (not UTF-8, say) has
            // nothing to say about them.
            let unreadable: HashSet<OsString> = registry
                .refused
                .iter()
                .filter(|refused| {
                    matches!(
                        refused.refusal,
                        crate::workspace::registry::Refusal::Unreadable { .. }
                    )
                })
                .map(|refused| key(&refused.path).into_os_string())
                .collect();
            if owners
                .iter()
                .all(|owner| unreadable.contains(owner.as_os_str()))
            {
                continue;
            }
            registry.read_clients(run.engine.listed_clients(&registry), source);
            let index = built.registries.len();
            for (path, diagnostic) in run.engine.workspace_findings_all(&registry) {
                let path = key(&path);
                // Only the files this run was asked about: a linked skill's siblings stay quiet.
                if checked.contains(path.as_os_str()) {
                    built
                        .findings
                        .entry(path.into_os_string())
                        .or_default()
                        .push(diagnostic);
                }
            }
            let members: Vec<&PathBuf> = registry.members().collect();
            let members: Vec<PathBuf> = members
                .par_iter()
                .map(|member| key(member))
                .filter(|member| checked.contains(member.as_os_str()))
                .collect();
            built.members.reserve(members.len());
            for member in members {
                built
                    .members
                    .entry(member.into_os_string())
                    .or_default()
                    .push(index);
            }
            built.registries.push(RegistryView::from(registry));
        }
        built
    }

    /// Builds each registry's index of near names (`unknown-mention`) before the files are
    /// checked against it on every core.
    pub(super) fn index_names(&self) {
        for registry in &self.registries {
            registry.index_names();
        }
    }

    /// The workspace findings of the checked file whose [`Keys::key`] is `path`.
    pub(super) fn findings_of(
        &self,
        run: &CheckRun,
        path: &Path,
        mentions: &[Mention],
    ) -> Vec<Diagnostic> {
        let mut found = Vec::new();
        if self.registries.is_empty() {
            return found;
        }
        if let Some(findings) = self.findings.get(path.as_os_str()) {
            found.extend(findings.iter().cloned());
        }
        if mentions.is_empty() {
            return found;
        }
        for index in self.members.get(path.as_os_str()).into_iter().flatten() {
            found.extend(
                run.engine
                    .unknown_mentions(&self.registries[*index], mentions),
            );
        }
        found
    }
}
