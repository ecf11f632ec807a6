//! What a run leaves out: `exclude` and `extend-exclude` of `skill-lsp.toml` and `--exclude`,
//! gitignore-style patterns, each set relative to the folder it was given in (the config file's,
//! or the current folder for the command line).

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Left out unless `exclude` says otherwise: folders of other tools' packages and builds, which
/// hold copies of skills (installed dependencies) rather than the project's own.
/// Test fixtures are left out too: they hold broken skills on purpose, and a path named on the
/// command line is checked all the same.
pub(crate) const DEFAULT_EXCLUDE: [&str; 11] = [
    ".git",
    "node_modules",
    "target",
    ".venv",
    "venv",
    ".tox",
    "__pycache__",
    "site-packages",
    "fixtures",
    "__fixtures__",
    "testdata",
];

/// One set of patterns and the folder they are relative to.
#[derive(Clone, Debug)]
struct PatternSet {
    /// Absolute; `/` for the defaults, which hold wherever a run looks.
    base: PathBuf,
    /// The defaults: they name folders at any depth but never reach above what a run was given
    /// (a project that itself sits in a folder named `target` or `fixtures` is still a project).
    anywhere: bool,
    patterns: Vec<String>,
    matcher: Gitignore,
}

impl PartialEq for PatternSet {
    fn eq(&self, other: &Self) -> bool {
        self.base == other.base
            && self.anywhere == other.anywhere
            && self.patterns == other.patterns
    }
}

impl Eq for PatternSet {}

/// The patterns in force; a path any set matches is left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Excludes {
    sets: Vec<PatternSet>,
    /// The current folder when they were made, which relative paths are joined to (asked once,
    /// not for every path a walk meets).
    cwd: PathBuf,
}

impl Default for Excludes {
    fn default() -> Self {
        let defaults: Vec<String> = DEFAULT_EXCLUDE.iter().map(|&p| p.to_owned()).collect();
        let mut excludes = Self::new(Path::new("/"), &defaults).unwrap_or_else(|_| Self::none());
        for set in &mut excludes.sets {
            set.anywhere = true;
        }
        excludes
    }
}

impl Excludes {
    /// `patterns`, relative to `base`.
    ///
    /// # Errors
    ///
    /// The first pattern that is not a valid glob, with why.
    pub(crate) fn new(base: &Path, patterns: &[String]) -> Result<Self, String> {
        let mut excludes = Self::none();
        excludes
            .sets
            .push(PatternSet::new(base, &excludes.cwd, patterns)?);
        Ok(excludes)
    }

    /// Nothing left out.
    #[must_use]
    pub(crate) fn none() -> Self {
        Self {
            sets: Vec::new(),
            cwd: std::env::current_dir().unwrap_or_default(),
        }
    }

    /// These patterns and `patterns` too, relative to `base`.
    ///
    /// # Errors
    ///
    /// As [`Excludes::new`].
    pub(crate) fn extended(mut self, base: &Path, patterns: &[String]) -> Result<Self, String> {
        if !patterns.is_empty() {
            let set = PatternSet::new(base, &self.cwd, patterns)?;
            self.sets.push(set);
        }
        Ok(self)
    }

    /// Whether `path` (a folder when `is_folder`) or a folder above it is left out.
    #[must_use]
    pub(crate) fn excludes(&self, path: &Path, is_folder: bool) -> bool {
        self.test(path, is_folder, true)
    }

    /// Whether a pattern matches `path` itself: for a walk, which asks of each folder as it
    /// enters it, so that nothing above the folders it was given (a path named on the command
    /// line) leaves anything out.
    #[must_use]
    pub(crate) fn matches(&self, path: &Path, is_folder: bool) -> bool {
        self.test(path, is_folder, false)
    }

    fn test(&self, path: &Path, is_folder: bool, parents: bool) -> bool {
        if self.sets.is_empty() {
            return false;
        }
        let joined;
        let absolute = if path.is_absolute() {
            path
        } else {
            joined = self.cwd.join(path);
            &joined
        };
        self.sets.iter().any(|set| {
            absolute.strip_prefix(&set.base).is_ok_and(|relative| {
                !relative.as_os_str().is_empty()
                    && if parents && !set.anywhere {
                        set.matcher
                            .matched_path_or_any_parents(relative, is_folder)
                            .is_ignore()
                    } else {
                        set.matcher.matched(relative, is_folder).is_ignore()
                    }
            })
        })
    }
}

impl PatternSet {
    fn new(base: &Path, cwd: &Path, patterns: &[String]) -> Result<Self, String> {
        let base = if base.is_absolute() {
            base.to_path_buf()
        } else {
            cwd.join(base)
        };
        // Matched against paths made relative to `base` here, so the builder's own root (which
        // it strips byte by byte) is left out.
        let mut builder = GitignoreBuilder::new(".");
        for pattern in patterns {
            builder
                .add_line(None, pattern)
                .map_err(|error| format!("bad exclude pattern '{pattern}': {error}"))?;
        }
        let matcher = builder.build().map_err(|error| error.to_string())?;
        Ok(Self {
            base,
            anywhere: false,
            patterns: patterns.to_vec(),
            matcher,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_gitignore_style_and_relative_to_where_they_were_given() {
        let base = std::env::temp_dir().join("project");
        let excludes = Excludes::new(
            &base,
            &[
                "tests/fixtures/".to_owned(),
                "*.draft.md".to_owned(),
                "/vendor".to_owned(),
            ],
        )
        .unwrap();
        let at = |relative: &str| base.join(relative);
        assert!(excludes.excludes(&at("tests/fixtures"), true));
        assert!(excludes.excludes(&at("tests/fixtures/bad/SKILL.md"), false));
        assert!(excludes.excludes(&at("a/b/notes.draft.md"), false));
        assert!(excludes.excludes(&at("vendor/x/SKILL.md"), false));
        assert!(!excludes.excludes(&at("skills/vendor/SKILL.md"), false));
        assert!(!excludes.excludes(&at("skills/pdf/SKILL.md"), false));
        assert!(!excludes.excludes(&base, true));
        // Outside the base, a set says nothing.
        assert!(!excludes.excludes(&std::env::temp_dir().join("tests/fixtures"), true));
        let more = excludes
            .extended(&base.join("skills"), &["old/".to_owned()])
            .unwrap();
        assert!(more.excludes(&at("skills/old/SKILL.md"), false));
        assert!(!more.excludes(&at("old/SKILL.md"), false));
        assert!(Excludes::new(&base, &["[z-a]".to_owned()]).is_err());
        let defaults = Excludes::default();
        // The defaults name folders at any depth, asked of each folder as it is met; what
        // lies above a path is never judged by them.
        assert!(defaults.excludes(Path::new("x/node_modules"), true));
        assert!(defaults.excludes(Path::new(".venv"), true));
        assert!(!defaults.excludes(Path::new("/work/target/project/skills/x"), true));
        assert!(!defaults.excludes(Path::new("fixtures/skills/x/SKILL.md"), false));
    }
}
