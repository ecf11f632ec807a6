//! Finds the SKILL.md files to check: gitignore-aware, hidden folders included, `.git`,
//! `node_modules` and `target` skipped (design.md §2, "Discovery").

use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub(crate) use super::walk::WalkError;
use super::walk::{Entry, walk_tree};
use crate::exclude::Excludes;

/// Folders inside a skill that are not what the skill ships: version control, installed
/// dependencies and build output. Fewer than `check`'s default exclusions
/// ([`crate::exclude::DEFAULT_EXCLUDE`]) on purpose: those decide which SKILL.md files are
/// checked, and a skill's own `fixtures/` or `testdata/` is copied with it when it is
/// installed, so its files are scanned like any other.
const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

#[derive(Debug, Default)]
pub(crate) struct Discovered {
    /// Sorted, without duplicates.
    pub files: Vec<PathBuf>,
}

/// Codex's file beside a SKILL.md, relative to the skill folder.
pub(crate) const OPENAI_YAML: &str = "agents/openai.yaml";

/// Whether `path` is a skill's `agents/openai.yaml`.
#[must_use]
pub(crate) fn is_openai_yaml(path: &Path) -> bool {
    path.ends_with(OPENAI_YAML)
}

/// `SKILL.md` in any case: the miscased names are found so that `skill-md-case` can report them.
#[must_use]
pub(crate) fn is_skill_file_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("SKILL.md")
}

/// Whether `path`'s last component is a SKILL.md name ([`is_skill_file_name`]).
#[must_use]
pub(crate) fn is_skill_path(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(is_skill_file_name)
}

/// Bytes that sort as [`Path`]s do (component by component, `/` before a name), compared
/// as plain bytes: sorting by these keys computed once is much cheaper than comparing
/// thousands of paths, which splits both into components on every comparison.
///
/// Each component is a tag that orders the kinds as [`Component`](std::path::Component)
/// does, its bytes, and a 0, which puts a name before any longer name it starts (no path
/// holds a 0 byte).
#[must_use]
pub(crate) fn path_order_key(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        unix_path_order_key(path.as_os_str().as_encoded_bytes())
    }
    #[cfg(not(unix))]
    {
        components_order_key(path)
    }
}

#[cfg(any(not(unix), test))]
const TAG_PREFIX: u8 = 1;
const TAG_ROOT: u8 = 2;
const TAG_CURRENT: u8 = 3;
const TAG_PARENT: u8 = 4;
const TAG_NAME: u8 = 5;

/// One component of a [`path_order_key`]: its tag, its bytes and a 0.
fn push_component(key: &mut Vec<u8>, tag: u8, bytes: &[u8]) {
    key.push(tag);
    key.extend_from_slice(bytes);
    key.push(0);
}

/// [`path_order_key`] from the components [`Path::components`] gives (on Unix, the definition
/// the byte loop is tested against). Windows prefixes compare by their bytes here, which may
/// order two drives differently from `Path`.
#[cfg(any(not(unix), test))]
fn components_order_key(path: &Path) -> Vec<u8> {
    use std::path::Component;
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for component in path.components() {
        let (tag, bytes) = match component {
            Component::Prefix(prefix) => (TAG_PREFIX, prefix.as_os_str().as_encoded_bytes()),
            Component::RootDir => (TAG_ROOT, &[][..]),
            Component::CurDir => (TAG_CURRENT, &[][..]),
            Component::ParentDir => (TAG_PARENT, &[][..]),
            Component::Normal(name) => (TAG_NAME, name.as_encoded_bytes()),
        };
        push_component(&mut key, tag, bytes);
    }
    key
}

/// [`path_order_key`] of a Unix path's bytes, split at each `/` as [`Path::components`] splits
/// them, without its parsing of each component (the keys of 50,000 paths are computed in every
/// `check` of 10,000 skills): empty parts and `.` are dropped, except a `.` that starts the
/// path.
#[cfg(unix)]
fn unix_path_order_key(bytes: &[u8]) -> Vec<u8> {
    let mut key = Vec::with_capacity(bytes.len() + 8);
    let mut parts = bytes.split(|byte| *byte == b'/');
    if bytes.first() == Some(&b'/') {
        push_component(&mut key, TAG_ROOT, &[]);
        parts.next();
    } else if bytes == b"." || bytes.starts_with(b"./") {
        push_component(&mut key, TAG_CURRENT, &[]);
        parts.next();
    }
    for part in parts {
        match part {
            b"" | b"." => {}
            b".." => push_component(&mut key, TAG_PARENT, &[]),
            name => push_component(&mut key, TAG_NAME, name),
        }
    }
    key
}

/// Files over this size are not read by the security rules.
const SCANNED_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// [`skill_files`] with their bytes, read as every file of a run is read (no blocking on a
/// FIFO, the size cap); a file over [`SCANNED_MAX_BYTES`], or one that cannot be read, is left
/// out.
#[must_use]
pub(crate) fn read_skill_files(folder: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    read_files(skill_files(folder))
}

/// [`read_skill_files`], with the files listed by `index` when it covers `folder`.
#[must_use]
pub(crate) fn read_indexed_skill_files(
    index: &FileIndex,
    folder: &Path,
) -> Vec<(PathBuf, Vec<u8>)> {
    read_files(
        index
            .skill_files(folder)
            .unwrap_or_else(|| skill_files(folder)),
    )
}

fn read_files(files: Vec<PathBuf>) -> Vec<(PathBuf, Vec<u8>)> {
    files
        .into_iter()
        .filter_map(|file| {
            let bytes = crate::workspace::read::read_bytes_within(&file, SCANNED_MAX_BYTES).ok()?;
            Some((file, bytes))
        })
        .collect()
}

/// The files a skill ships besides its SKILL.md, sorted: everything under its folder that git
/// would keep, without following links, leaving out folders of nested skills (they are skills
/// of their own), `agents/openai.yaml` (linted on its own) and [`SKIPPED_DIRS`].
#[must_use]
pub(crate) fn skill_files(folder: &Path) -> Vec<PathBuf> {
    let keep = |entry: &Entry| {
        if !entry.is_folder() || entry.depth() == 0 {
            return true;
        }
        let name = entry.name().unwrap_or("");
        !(SKIPPED_DIRS.contains(&name) || is_skill_folder(entry.path()))
    };
    // What the walk leaves out is said by the walk of `check` or the index, which meet it too.
    let files = Mutex::new(Vec::new());
    let _ = walk_tree(folder, &keep, &|entry| {
        if entry.depth() > 0 && entry.is_file() && ships(folder, entry.path()) {
            lock(&files).push(entry.into_path());
        }
        true
    });
    let mut files = files
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    files.sort();
    files
}

/// Whether `folder` holds a skill of its own (a nested skill's folder is not part of the
/// skill around it).
fn is_skill_folder(folder: &Path) -> bool {
    folder.join("SKILL.md").is_file()
}

/// Whether `path`, a file under `folder`, is shipped by the skill there: not its SKILL.md, nor
/// its `agents/openai.yaml`.
fn ships(folder: &Path, path: &Path) -> bool {
    let relative = path.strip_prefix(folder).unwrap_or(path);
    !(relative
        .parent()
        .is_none_or(|parent| parent.as_os_str().is_empty())
        && is_skill_path(relative))
        && relative != Path::new(OPENAI_YAML)
}

/// How many of the first items of `items` hold `within`, which holds for a run at the start
/// and for nothing after it: found from the start, in steps that double, so a short run costs a
/// few comparisons however long `items` is.
fn run_length<T>(items: &[T], within: impl Fn(&T) -> bool) -> usize {
    let mut step = 1;
    let mut low = 0;
    while low + step <= items.len() && within(&items[low + step - 1]) {
        low += step;
        step *= 2;
    }
    // The run ends in `low..low + step`, within `items`.
    let high = (low + step).min(items.len());
    low + items[low..high].partition_point(within)
}

/// The files the walk listed under one folder ([`FileIndex::under`]).
pub(crate) struct Listing<'a> {
    /// Sorted by key, each key starting with the folder's.
    files: &'a [(Vec<u8>, PathBuf)],
    /// The length of the folder's key.
    prefix: usize,
}

impl Listing<'_> {
    /// Whether the walk listed `relative` as a regular file in the folder, or a regular file
    /// under it (it is then a folder): either way it exists. `false` says nothing: the walk
    /// leaves out what git ignores and does not follow links. A path with `.` or `..` in it,
    /// which a link may resolve elsewhere, is never held: its key keeps them, and the keys
    /// listed under a folder hold names only.
    #[must_use]
    pub(crate) fn holds(&self, relative: &Path) -> bool {
        // A path's key is a prefix of the keys of everything under it, and sorts first.
        let key = path_order_key(relative);
        fn rest(listed: &[u8], prefix: usize) -> &[u8] {
            listed.get(prefix..).unwrap_or_default()
        }
        let at = self
            .files
            .partition_point(|(listed, _)| rest(listed, self.prefix) < key.as_slice());
        self.files
            .get(at)
            .is_some_and(|(listed, _)| rest(listed, self.prefix).starts_with(&key))
    }
}

/// Every regular file a walk of `check` passed, and every link it did not follow: a skill's
/// files are taken from it rather than from a walk of each skill folder, which costs more than
/// scanning the files (each walk reads the ignore files of every folder above it again).
#[derive(Debug, Default)]
pub(crate) struct FileIndex {
    /// Folders walked whole.
    roots: Vec<PathBuf>,
    /// Sorted by [`path_order_key`], so that a folder's files are one run.
    files: Vec<(Vec<u8>, PathBuf)>,
    links: std::collections::HashSet<PathBuf>,
}

impl FileIndex {
    /// What the walk listed under `folder`, to ask about many paths in it: one search of the
    /// whole index, then searches of the folder's own files.
    #[must_use]
    pub(crate) fn under(&self, folder: &Path) -> Listing<'_> {
        // What lies under a folder has keys that continue the folder's, and sort together.
        let prefix = path_order_key(folder);
        let start = self
            .files
            .partition_point(|(key, _)| key.as_slice() < prefix.as_slice());
        let len = run_length(&self.files[start..], |(key, _)| key.starts_with(&prefix));
        Listing {
            files: &self.files[start..start + len],
            prefix: prefix.len(),
        }
    }

    /// The files [`skill_files`] finds under `folder`, in its order, as the walk saw them;
    /// `None` when the walk did not pass through `folder` (a SKILL.md named on the command line
    /// or reached through a link): walk it then.
    #[must_use]
    pub(crate) fn skill_files(&self, folder: &Path) -> Option<Vec<PathBuf>> {
        if !self.roots.iter().any(|root| folder.starts_with(root)) {
            return None;
        }
        let mut above = Some(folder);
        while let Some(at) = above {
            if self.links.contains(at) {
                return None;
            }
            if self.roots.iter().any(|root| root == at) {
                break;
            }
            above = at.parent();
        }
        let mut nested: std::collections::HashMap<&Path, bool> = std::collections::HashMap::new();
        let mut files = Vec::new();
        // `folder` is a folder, so no listed file has its key: all of the run lies under it.
        for (_, path) in self.under(folder).files {
            if !ships(folder, path) {
                continue;
            }
            // Inside a nested skill's folder: not this skill's.
            let in_nested = path
                .ancestors()
                .skip(1)
                .take_while(|dir| *dir != folder)
                .any(|dir| *nested.entry(dir).or_insert_with(|| is_skill_folder(dir)));
            if !in_nested {
                files.push(path.clone());
            }
        }
        // In the index's order, which is the order of paths.
        Some(files)
    }
}

/// Walks each path: a file is taken as it is, a folder is searched recursively.
#[must_use]
pub(crate) fn discover(paths: &[PathBuf], excludes: &Excludes) -> Discovered {
    let files = Mutex::new(Vec::new());
    // Walk errors are not reported here (`check --fix` skips what it cannot read). Plugin
    // manifests have no fixes, so `--fix` is handed SKILL.md files only.
    let _ = walk_seeing(
        paths,
        excludes,
        &|path, _| {
            if crate::plugins::manifest_kind(&path).is_none() && !is_openai_yaml(&path) {
                lock(&files).push(path);
            }
        },
        None,
    );
    let mut files = files
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    files.sort();
    files.dedup();
    Discovered { files }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Walks each path and hands every SKILL.md and every plugin manifest
/// (`.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`), and whether it is itself a
/// symlink, to `on_file` on the walker's own threads, so that reading and linting overlap the
/// walk; what `excludes` leaves out is not entered or handed on (a path named is taken as it
/// is). Returns what could not be read, sorted, and every file it passed for
/// [`FileIndex::skill_files`]. A file may be visited twice when two paths overlap; callers that
/// care deduplicate.
pub(crate) fn walk_indexed(
    paths: &[PathBuf],
    excludes: &Excludes,
    on_file: &(dyn Fn(PathBuf, bool) + Sync),
) -> (Vec<WalkError>, FileIndex) {
    let seen = Mutex::new(Seen::default());
    let errors = walk_seeing(paths, excludes, on_file, Some(&seen));
    let seen = seen
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut files: Vec<(Vec<u8>, PathBuf)> = seen
        .files
        .into_iter()
        .map(|path| (path_order_key(&path), path))
        .collect();
    files.sort_unstable();
    files.dedup();
    let index = FileIndex {
        roots: paths
            .iter()
            .filter(|path| !path.is_file())
            .cloned()
            .collect(),
        files,
        links: seen.links.into_iter().collect(),
    };
    (errors, index)
}

#[derive(Default)]
struct Seen {
    files: Vec<PathBuf>,
    links: Vec<PathBuf>,
}

fn walk_seeing(
    paths: &[PathBuf],
    excludes: &Excludes,
    on_file: &(dyn Fn(PathBuf, bool) + Sync),
    seen: Option<&Mutex<Seen>>,
) -> Vec<WalkError> {
    let errors = Mutex::new(Vec::new());
    // Folders are asked as the walk meets them; files only when they are candidates.
    let keep = |entry: &Entry| {
        !(entry.is_folder() && entry.depth() > 0 && excludes.matches(entry.path(), true))
    };
    let visit = |entry: Entry| {
        if entry.is_folder() && entry.name().is_some_and(is_skill_file_name) {
            // Not a skill to any client, and silence would read as "no problems".
            lock(&errors).push(WalkError {
                path: entry.path().to_path_buf(),
                message: "a folder, not a file; no client loads a skill from it".to_owned(),
            });
        }
        if let Some(seen) = seen.filter(|_| entry.depth() > 0) {
            if entry.is_link() {
                lock(seen).links.push(entry.path().to_path_buf());
            } else if entry.is_file() {
                lock(seen).files.push(entry.path().to_path_buf());
            }
        }
        let is_candidate = !entry.is_folder()
            && (entry.name().is_some_and(is_skill_file_name)
                || crate::plugins::manifest_kind(entry.path()).is_some()
                || is_openai_yaml(entry.path()));
        if is_candidate {
            if entry.depth() == 0 || !excludes.matches(entry.path(), false) {
                let is_link = entry.is_link();
                on_file(entry.into_path(), is_link);
            }
        } else if entry.is_link() && entry.depth() > 0 {
            linked_skills(entry.path(), on_file);
        }
        true
    };
    for path in paths {
        if path.is_file() {
            on_file(path.clone(), path.is_symlink());
            continue;
        }
        match walk_tree(path, &keep, &visit) {
            Ok(found) => lock(&errors).extend(found),
            Err(refused) => lock(&errors).push(refused),
        }
    }
    let mut errors = errors
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    errors
}

/// The SKILL.md files seen through a symlinked folder, without walking into it: the folder is
/// a skill in a skills folder (`.claude/skills/x -> ../../.agents/skills/x`) or a skills folder
/// (`.claude/skills -> ../.agents/skills`). Clients follow such links, so each skill is linted
/// under the path its clients see it by; a link elsewhere (`.claude/commands/x -> ../skills/x`)
/// is no place a client takes skills from, and its target is checked where it is. Looking one
/// or two levels down, never recursing, cannot loop.
fn linked_skills(link: &Path, on_file: &(dyn Fn(PathBuf, bool) + Sync)) {
    let named_skills = |folder: Option<&Path>| {
        folder
            .and_then(Path::file_name)
            .is_some_and(|name| name == "skills" || name == "skill")
    };
    let in_skills_folder = named_skills(link.parent());
    if !(in_skills_folder || named_skills(Some(link))) || !link.is_dir() {
        return;
    }
    let skill_file = |folder: &Path| {
        std::fs::read_dir(folder)
            .ok()?
            .filter_map(Result::ok)
            .find_map(|entry| {
                let named = entry.file_name().to_str().is_some_and(is_skill_file_name);
                (named && entry.path().is_file()).then(|| entry.path())
            })
    };
    if in_skills_folder {
        if let Some(file) = skill_file(link) {
            on_file(file, true);
            return;
        }
    }
    let Ok(entries) = std::fs::read_dir(link) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        if entry.path().is_dir() {
            if let Some(file) = skill_file(&entry.path()) {
                on_file(file, true);
            }
        }
    }
}

/// The skills root a SKILL.md belongs to: the folder above its skill folder.
#[must_use]
pub(crate) fn root_of(skill_file: &Path) -> Option<&Path> {
    skill_file.parent()?.parent()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A linked folder counts as a skill where clients take skills from (a skills folder, or a
    /// linked skills folder); a link elsewhere to a skill is not that skill a second time.
    #[cfg(unix)]
    #[test]
    fn links_count_where_clients_take_skills_from() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path();
        let write = |path: &str| {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "---\nname: x\n---\n").unwrap();
        };
        write(".claude/skills/x/SKILL.md");
        write("common/y/SKILL.md");
        std::fs::create_dir_all(root.join(".claude/commands")).unwrap();
        std::os::unix::fs::symlink("../skills/x", root.join(".claude/commands/x")).unwrap();
        std::os::unix::fs::symlink("../../common/y", root.join(".claude/skills/y")).unwrap();
        std::fs::create_dir_all(root.join(".cursor")).unwrap();
        std::os::unix::fs::symlink("../.claude/skills", root.join(".cursor/skills")).unwrap();
        let found = Mutex::new(Vec::new());
        let _ = walk_indexed(&[root.to_path_buf()], &Excludes::default(), &|path, _| {
            lock(&found).push(path.strip_prefix(root).unwrap().to_path_buf());
        });
        let mut found = found.into_inner().unwrap();
        found.sort();
        let expected: Vec<PathBuf> = [
            ".claude/skills/x/SKILL.md",
            ".claude/skills/y/SKILL.md",
            ".cursor/skills/x/SKILL.md",
            ".cursor/skills/y/SKILL.md",
            "common/y/SKILL.md",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_run_is_measured_whatever_its_length() {
        for len in 0..70 {
            for run in 0..=len {
                let items: Vec<usize> = (0..len).collect();
                assert_eq!(
                    run_length(&items, |item| *item < run),
                    run,
                    "{run} of {len}"
                );
            }
        }
    }

    #[test]
    fn path_order_keys_sort_as_paths_do() {
        let parts = [
            "a", "a-b", "a.b", "ab", ".x", "A", "é", "z", ".", "..", "SKILL.md", "a b",
        ];
        let mut paths: Vec<PathBuf> = Vec::new();
        for first in parts {
            for second in parts {
                for third in ["", "SKILL.md", "x/y"] {
                    for root in ["", "/", "./"] {
                        paths.push(PathBuf::from(format!("{root}{first}/{second}/{third}")));
                        paths.push(PathBuf::from(format!("{root}{first}//{second}")));
                    }
                }
            }
        }
        let mut by_path = paths.clone();
        by_path.sort();
        let mut by_key = paths;
        by_key.sort_by_cached_key(|path| path_order_key(path));
        assert_eq!(by_path, by_key);
    }

    /// The byte loop gives the key the components give, on paths spelled every way a path
    /// can be: doubled, leading and trailing separators, `.` and `..` anywhere, names that
    /// start with dots.
    #[cfg(unix)]
    #[test]
    fn the_unix_key_is_the_components_key() {
        let parts = [
            "", ".", "..", "a", ".a", "..a", "a.", "a..b", "é", "SKILL.md",
        ];
        let mut checked = 0;
        for first in parts {
            for second in parts {
                for third in parts {
                    for root in ["", "/", "//", "./", "../", "/./", ".//"] {
                        for tail in ["", "/", "//", "/.", "/./"] {
                            let path = format!("{root}{first}/{second}/{third}{tail}");
                            for path in [path.clone(), path.replace('/', "//")] {
                                let path = Path::new(&path);
                                assert_eq!(
                                    unix_path_order_key(path.as_os_str().as_encoded_bytes()),
                                    components_order_key(path),
                                    "{path:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        for path in [
            "", ".", "..", "/", "//", "./", ".//", "/.", "a", "./a", "/a",
        ] {
            assert_eq!(
                unix_path_order_key(path.as_bytes()),
                components_order_key(Path::new(path)),
                "{path:?}"
            );
        }
        assert!(checked > 50_000);
    }

    /// A skill's files taken from the walk of `check` are the files a walk of the skill's own
    /// folder finds: nested skills, ignored files, skipped folders, links, Codex's file, a
    /// miscased SKILL.md below the top, a sibling whose name starts the same, and a skill
    /// reached through a link (walked on its own).
    #[test]
    fn indexed_skill_files_are_the_walked_ones() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("repo");
        let write = |path: &str, text: &str| {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(".gitignore", "*.log\nbuild/\n");
        write("skills/a/SKILL.md", "---\nname: a\n---\n");
        write("skills/a/scripts/run.sh", "echo hi\n");
        write("skills/a/scripts/out.log", "ignored\n");
        write("skills/a/build/x.txt", "ignored\n");
        write("skills/a/node_modules/m.js", "skipped\n");
        write("skills/a/agents/openai.yaml", "x: 1\n");
        write("skills/a/references/skill.md", "a reference\n");
        write("skills/a/.hidden/notes.md", "hidden but kept\n");
        write("skills/a/sub/.gitignore", "secret.txt\n");
        write("skills/a/sub/secret.txt", "ignored below\n");
        write("skills/a/sub/kept.txt", "kept\n");
        write("skills/a/nested/SKILL.md", "---\nname: nested\n---\n");
        write("skills/a/nested/ref.md", "the nested skill's\n");
        write("skills/a-b/SKILL.md", "---\nname: a-b\n---\n");
        write("skills/a-b/ref.md", "a sibling's\n");
        write("elsewhere/c/SKILL.md", "---\nname: c\n---\n");
        write("elsewhere/c/ref.md", "through a link\n");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("elsewhere/c"), root.join("skills/c")).unwrap();
            std::os::unix::fs::symlink(root.join("skills/a-b/ref.md"), root.join("skills/a/l.md"))
                .unwrap();
        }
        let skills = root.join("skills");
        let found = Mutex::new(Vec::new());
        let (_, index) = walk_indexed(
            std::slice::from_ref(&skills),
            &Excludes::default(),
            &|path, _| {
                lock(&found).push(path);
            },
        );
        let mut folders: Vec<PathBuf> = lock(&found)
            .iter()
            .filter(|path| path.ends_with("SKILL.md"))
            .map(|path| path.parent().unwrap().to_path_buf())
            .collect();
        folders.sort();
        assert!(folders.len() >= 3, "{folders:?}");
        for folder in &folders {
            let walked = skill_files(folder);
            match index.skill_files(folder) {
                Some(indexed) => assert_eq!(indexed, walked, "{}", folder.display()),
                None => assert!(folder.ends_with("c"), "{} not indexed", folder.display()),
            }
        }
        let a = index.skill_files(&skills.join("a")).unwrap();
        let names: Vec<_> = a
            .iter()
            .map(|path| path.strip_prefix(skills.join("a")).unwrap())
            .collect();
        assert_eq!(
            names,
            [
                Path::new(".hidden/notes.md"),
                Path::new("references/skill.md"),
                Path::new("scripts/run.sh"),
                Path::new("sub/.gitignore"),
                Path::new("sub/kept.txt"),
            ]
        );
    }

    /// The listing says a path exists only where it does: a listed file, or a folder holding
    /// one; never a name that merely starts a listed one, nor what the walk left out.
    #[test]
    fn the_listing_answers_only_for_what_it_holds() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("skills");
        let write = |path: &str| {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x\n").unwrap();
        };
        write(".gitignore");
        std::fs::write(root.join(".gitignore"), "*.log\n").unwrap();
        write("a/SKILL.md");
        write("a/scripts-old/run.sh");
        write("a/references/deep/guide.md");
        write("a/out.log");
        std::fs::create_dir_all(root.join("a/empty")).unwrap();
        let (_, index) = walk_indexed(
            std::slice::from_ref(&root),
            &Excludes::default(),
            &|_, _| {},
        );
        let a = index.under(&root.join("a"));
        for listed in [
            "SKILL.md",
            "scripts-old",
            "scripts-old/run.sh",
            "references",
            "references/deep",
            "references/deep/guide.md",
        ] {
            assert!(a.holds(Path::new(listed)), "{listed}");
        }
        for unlisted in [
            "scripts",
            "scripts-old/run",
            "references/deep/guide",
            "reference",
            "out.log",
            "empty",
            "missing.md",
            "./SKILL.md",
            "references/../SKILL.md",
        ] {
            assert!(!a.holds(Path::new(unlisted)), "{unlisted}");
        }
        assert!(index.under(&root).holds(Path::new("a/references/deep")));
        assert!(!index.under(&root.join("a/empty")).holds(Path::new("x")));
        assert!(
            !FileIndex::default()
                .under(&root.join("a"))
                .holds(Path::new("SKILL.md"))
        );
    }
}
