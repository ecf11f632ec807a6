//! The one walk over a tree of files, shared by `check`, a skill's file list, the server's
//! mention search and the agent's `glob`: hidden files included, links reported but never
//! followed, and what git would ignore left out.
//!
//! Ignore files are read here, from each folder's own listing, rather than by a walker that
//! reads whatever answers to the name `.gitignore`: the listing already says whether the name
//! is a regular file, so a `.gitignore` linked to `/dev/zero` is refused without being opened,
//! and a folder without one costs no system call beyond reading the folder itself.
//!
//! Which rules apply follows git: a folder's `.gitignore` over its parents' (the deepest rule
//! that matches decides, `!` included), the repository's `.git/info/exclude` under all of them,
//! and nothing inside a folder that is itself left out. Above the walked root, the ignore files
//! of the folders up to the enclosing repository's top are read too, or of every folder above
//! it outside a repository (a download of a repository without its `.git` keeps its rules).

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::read;

/// A file or folder the walk could not read; the walk goes on without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WalkError {
    pub path: PathBuf,
    pub message: String,
}

/// What a directory listing says an entry is; a link is never asked what it points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Folder,
    Link,
    /// A FIFO, socket or device.
    Other,
}

impl Kind {
    fn of(kind: fs::FileType) -> Self {
        if kind.is_symlink() {
            Self::Link
        } else if kind.is_dir() {
            Self::Folder
        } else if kind.is_file() {
            Self::File
        } else {
            Self::Other
        }
    }
}

/// One file or folder met by the walk.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    path: PathBuf,
    depth: usize,
    kind: Kind,
}

impl Entry {
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn into_path(self) -> PathBuf {
        self.path
    }

    /// 0 for the root, 1 for what it holds, and so on.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    pub(crate) fn is_folder(&self) -> bool {
        self.kind == Kind::Folder
    }

    pub(crate) fn is_file(&self) -> bool {
        self.kind == Kind::File
    }

    pub(crate) fn is_link(&self) -> bool {
        self.kind == Kind::Link
    }

    pub(crate) fn file_name(&self) -> &OsStr {
        self.path.file_name().unwrap_or(self.path.as_os_str())
    }

    /// The file name, when it is UTF-8.
    pub(crate) fn name(&self) -> Option<&str> {
        self.file_name().to_str()
    }
}

/// Walks `root`, on the rayon pool: every entry that the ignore rules and `keep` let through is
/// handed to `visit`, the root first; a folder `keep` refuses is not entered. `visit` returns
/// whether to go on (a walk that has found enough stops early). Returns what could not be read,
/// sorted by path, or why the root itself was not walked (an ignore file above or at it that is
/// not a regular file).
///
/// # Errors
///
/// The refusal of the whole root.
pub(crate) fn walk_tree(
    root: &Path,
    keep: &(dyn Fn(&Entry) -> bool + Sync),
    visit: &(dyn Fn(Entry) -> bool + Sync),
) -> Result<Vec<WalkError>, WalkError> {
    let above = rules_above(root)?;
    let walk = Walk {
        keep,
        visit,
        errors: Mutex::new(Vec::new()),
        stopped: AtomicBool::new(false),
    };
    let entry = Entry {
        path: root.to_path_buf(),
        depth: 0,
        kind: Kind::Folder,
    };
    if (walk.visit)(entry) {
        rayon::scope(|scope| walk.folder(scope, root.to_path_buf(), 0, above));
    }
    let mut errors = walk
        .errors
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    errors.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(errors)
}

struct Walk<'a> {
    keep: &'a (dyn Fn(&Entry) -> bool + Sync),
    visit: &'a (dyn Fn(Entry) -> bool + Sync),
    errors: Mutex<Vec<WalkError>>,
    stopped: AtomicBool,
}

impl<'a> Walk<'a> {
    fn folder<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        folder: PathBuf,
        depth: usize,
        rules: Option<Arc<Rules>>,
    ) where
        'a: 's,
    {
        if self.stopped.load(Ordering::Relaxed) {
            return;
        }
        let listing = match fs::read_dir(&folder) {
            Ok(listing) => listing,
            Err(error) => return self.error(folder, &error),
        };
        let mut entries = Vec::new();
        let mut ignore_file = None;
        for item in listing {
            let item = match item.and_then(|item| Ok((item.file_type()?, item))) {
                Ok((kind, item)) => (Kind::of(kind), item),
                Err(error) => {
                    self.error(folder.clone(), &error);
                    continue;
                }
            };
            let (kind, item) = item;
            if item.file_name() == ".gitignore" {
                ignore_file = Some(kind);
            }
            entries.push(Entry {
                path: item.path(),
                depth: depth + 1,
                kind,
            });
        }
        let rules = match ignore_file {
            None => rules,
            Some(kind) => match Rules::read(&folder, ".gitignore", kind, rules) {
                Ok(rules) => Some(Arc::new(rules)),
                Err(message) => {
                    self.refuse(folder, message);
                    return;
                }
            },
        };
        for entry in entries {
            if self.stopped.load(Ordering::Relaxed) {
                return;
            }
            if rules
                .as_deref()
                .is_some_and(|rules| rules.ignores(&entry.path, entry.is_folder()))
                || !(self.keep)(&entry)
            {
                continue;
            }
            let descend = entry.is_folder().then(|| entry.path.clone());
            if !(self.visit)(entry) {
                self.stopped.store(true, Ordering::Relaxed);
                return;
            }
            if let Some(child) = descend {
                let rules = rules.clone();
                scope.spawn(move |scope| self.folder(scope, child, depth + 1, rules));
            }
        }
    }

    fn error(&self, path: PathBuf, error: &std::io::Error) {
        self.refuse(path, error.to_string());
    }

    fn refuse(&self, path: PathBuf, message: String) {
        self.errors
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(WalkError { path, message });
    }
}

/// The ignore rules of one file, above those of the folders around it.
struct Rules {
    matcher: Gitignore,
    /// The folder the file's patterns are relative to, as the walk names it.
    base: PathBuf,
    /// Where `base` lies below that folder: empty, except for the rules of the folders above
    /// the walked root, which are matched against paths under the root.
    offset: PathBuf,
    outer: Option<Arc<Rules>>,
}

impl Rules {
    /// The rules of `folder/name`, which its folder's listing says is a `kind`, over `outer`.
    fn read(
        folder: &Path,
        name: &str,
        kind: Kind,
        outer: Option<Arc<Self>>,
    ) -> Result<Self, String> {
        Self::read_at(folder, folder, PathBuf::new(), name, kind, outer)
    }

    fn read_at(
        folder: &Path,
        base: &Path,
        offset: PathBuf,
        name: &str,
        kind: Kind,
        outer: Option<Arc<Self>>,
    ) -> Result<Self, String> {
        let path = folder.join(name);
        let refused = |what: String| {
            format!(
                "its {name} is {what}, which is not read (git does not follow it either); the folder was not checked"
            )
        };
        if kind == Kind::Link {
            let target = fs::read_link(&path).unwrap_or_default();
            return Err(refused(format!("a link to {}", target.display())));
        }
        if kind != Kind::File {
            return Err(refused("not a regular file".to_owned()));
        }
        // Opened without following a link put there since the listing, and refused unless it
        // is still a regular file of bounded size.
        let bytes = read::read_unfollowed(&path)
            .map_err(|error| refused(format!("unreadable ({error})")))?
            .0;
        // Paths are matched relative to `base`, so the builder's own root (which it strips from
        // paths byte by byte) is left out.
        let mut builder = GitignoreBuilder::new(".");
        for line in String::from_utf8_lossy(&bytes).lines() {
            // A pattern git would not accept is skipped, as git skips it.
            let _ = builder.add_line(Some(path.clone()), line);
        }
        let matcher = builder.build().unwrap_or_else(|_| Gitignore::empty());
        Ok(Self {
            matcher,
            base: base.to_path_buf(),
            offset,
            outer,
        })
    }

    /// Whether git would leave `path` out: the innermost file with a pattern that matches it
    /// decides, and a `!` pattern brings it back.
    fn ignores(&self, path: &Path, is_folder: bool) -> bool {
        let mut rules = Some(self);
        while let Some(current) = rules {
            let Ok(relative) = path.strip_prefix(&current.base) else {
                rules = current.outer.as_deref();
                continue;
            };
            let found = if current.offset.as_os_str().is_empty() {
                current.matcher.matched(relative, is_folder)
            } else {
                current
                    .matcher
                    .matched(current.offset.join(relative), is_folder)
            };
            if found.is_ignore() {
                return true;
            }
            if found.is_whitelist() {
                return false;
            }
            rules = current.outer.as_deref();
        }
        false
    }
}

/// The rules that apply to the root before its own `.gitignore`: the enclosing repository's
/// `.git/info/exclude`, then the `.gitignore` of each folder from the repository's top down to
/// the root's parent; outside a repository, of every folder above the root.
fn rules_above(root: &Path) -> Result<Option<Arc<Rules>>, WalkError> {
    let Ok(real) = fs::canonicalize(root) else {
        // The walk itself says what is wrong with the root.
        return Ok(None);
    };
    let top = real
        .ancestors()
        .find(|folder| folder.join(".git").exists())
        .unwrap_or_else(|| real.ancestors().last().unwrap_or(&real));
    let kind_of = |path: &Path| match fs::symlink_metadata(path) {
        Ok(metadata) => Some(Kind::of(metadata.file_type())),
        Err(_) => None,
    };
    // One file's rules over `outer`, matched against paths under the root.
    let layer = |folder: &Path, name: &str, kind: Kind, outer: Option<Arc<Rules>>| {
        let offset = real
            .strip_prefix(folder)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        Rules::read_at(folder, root, offset, name, kind, outer)
            .map(|rules| Some(Arc::new(rules)))
            .map_err(|message| WalkError {
                path: folder.to_path_buf(),
                message,
            })
    };
    let mut rules = None;
    if let Some(kind) = kind_of(&top.join(".git/info/exclude")) {
        rules = layer(top, ".git/info/exclude", kind, None)?;
    }
    // From the top down, each folder's rules over those above it; the root's own file is read
    // by the walk.
    let mut folders: Vec<&Path> = real
        .ancestors()
        .skip(1)
        .take_while(|folder| folder.starts_with(top))
        .collect();
    folders.reverse();
    for folder in folders {
        if let Some(kind) = kind_of(&folder.join(".gitignore")) {
            rules = layer(folder, ".gitignore", kind, rules)?;
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// The files the walk hands over under `root`, relative to it, sorted.
    fn files(root: &Path) -> Vec<String> {
        let found = Mutex::new(Vec::new());
        walk_tree(root, &|_| true, &|entry| {
            if entry.is_file() {
                let relative = entry.path().strip_prefix(root).unwrap().to_owned();
                found.lock().unwrap().push(relative.display().to_string());
            }
            true
        })
        .unwrap();
        let mut found = found.into_inner().unwrap();
        found.sort();
        found
    }

    #[test]
    fn the_deepest_matching_rule_decides_and_ignored_folders_are_not_entered() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(&root.join(".gitignore"), "*.log\nbuild/\nsecret*\n");
        write(&root.join("a.log"), "");
        write(&root.join("build/x.md"), "");
        write(&root.join("keep.md"), "");
        write(&root.join("sub/.gitignore"), "!wanted.log\n# a comment\n\n");
        write(&root.join("sub/wanted.log"), "");
        write(&root.join("sub/other.log"), "");
        write(&root.join("sub/secret.md"), "");
        // A folder-only pattern leaves a file of that name alone.
        write(&root.join("sub/build"), "");
        assert_eq!(
            files(root),
            [
                ".gitignore",
                "keep.md",
                "sub/.gitignore",
                "sub/build",
                "sub/wanted.log"
            ]
        );
    }

    #[test]
    fn rules_above_the_root_apply_up_to_the_repository_top_only() {
        let dir = tempfile::tempdir().unwrap();
        // Above the repository: not read.
        write(&dir.path().join(".gitignore"), "*.md\n");
        let top = dir.path().join("repo");
        fs::create_dir_all(top.join(".git/info")).unwrap();
        write(&top.join(".git/info/exclude"), "*.tmp\n");
        write(&top.join(".gitignore"), "/skills/old/\n*.bak\n");
        write(&top.join("skills/.gitignore"), "!keep.bak\n");
        for name in [
            "old/SKILL.md",
            "new/SKILL.md",
            "new/x.tmp",
            "new/x.bak",
            "keep.bak",
        ] {
            write(&top.join("skills").join(name), "");
        }
        assert_eq!(
            files(&top.join("skills")),
            [".gitignore", "keep.bak", "new/SKILL.md"]
        );
    }

    #[test]
    fn patterns_match_below_their_folder_however_the_walk_names_it() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("skills/.gitignore"), "/skills/\n");
        // A walk named by the relative path `skills`: the folder's name again below it is what
        // the anchored pattern means, and a name that merely starts with it is not.
        let rules = Rules::read_at(
            &dir.path().join("skills"),
            Path::new("skills"),
            PathBuf::new(),
            ".gitignore",
            Kind::File,
            None,
        )
        .unwrap();
        assert!(rules.ignores(Path::new("skills/skills"), true));
        assert!(!rules.ignores(Path::new("skills/skillsx"), true));
        assert!(!rules.ignores(Path::new("skills/a/skills"), true));
    }

    #[test]
    fn an_ignore_file_that_is_not_a_regular_file_refuses_its_folder_unread() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(&root.join("a/SKILL.md"), "");
        write(&root.join("trap/SKILL.md"), "");
        std::os::unix::fs::symlink("/dev/zero", root.join("trap/.gitignore")).unwrap();
        let errors = walk_tree(root, &|_| true, &|_| true).unwrap();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].path, root.join("trap"));
        assert!(
            errors[0].message.contains("a link to /dev/zero"),
            "{errors:?}"
        );
        assert_eq!(files(root), ["a/SKILL.md"]);
        // Above the root, the whole walk is refused.
        let refused = walk_tree(&root.join("trap"), &|_| true, &|_| true);
        assert!(
            refused.is_ok(),
            "the root's own file refuses the root's folder only"
        );
        fs::create_dir(root.join(".git")).unwrap();
        fs::remove_file(root.join("trap/.gitignore")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", root.join(".gitignore")).unwrap();
        let refused = walk_tree(&root.join("a"), &|_| true, &|_| true).unwrap_err();
        assert_eq!(refused.path, fs::canonicalize(root).unwrap());
    }

    #[test]
    fn links_are_listed_not_followed_and_a_walk_can_stop_early() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for index in 0..20 {
            write(&root.join(format!("f{index}/x.md")), "");
        }
        std::os::unix::fs::symlink("/", root.join("up")).unwrap();
        let links = Mutex::new(Vec::new());
        walk_tree(root, &|_| true, &|entry| {
            let below_link = entry.path().strip_prefix(root.join("up"));
            assert!(below_link.is_err() || below_link.unwrap().as_os_str().is_empty());
            if entry.is_link() {
                links.lock().unwrap().push(entry.into_path());
            }
            true
        })
        .unwrap();
        assert_eq!(links.into_inner().unwrap(), [root.join("up")]);
        let seen = std::sync::atomic::AtomicUsize::new(0);
        walk_tree(root, &|_| true, &|_| {
            seen.fetch_add(1, Ordering::SeqCst) < 5
        })
        .unwrap();
        // Threads already past the check may each hand over one more.
        assert!(seen.load(Ordering::SeqCst) < 12, "{seen:?}");
    }
}
