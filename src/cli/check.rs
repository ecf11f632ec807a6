//! `skill-lsp check`: discover, lint in parallel, add the workspace rules, format, exit code.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::format::{self, FileReport, Report};
use super::{
    CheckArgs, CheckFormat, EXIT_FINDINGS, EXIT_TROUBLE, error_line, parse_targets, write_stdout,
};
use crate::config::Config;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{self, FileContext};
use crate::targets::Target;
use crate::workspace::discovery::{discover, root_of, walk};
use crate::workspace::loader::{DEFAULT_ROOTS, Refusal, Refused};
use crate::workspace::read::read_bytes;
use crate::workspace::{Registry, Skill};

/// Settings shared by every file of a run.
pub(super) struct Run {
    pub config: Config,
    pub targets: Option<Vec<Target>>,
}

impl Run {
    pub fn targets_for(&self, path: &Path) -> Vec<Target> {
        if let Some(targets) = &self.targets {
            return targets.clone();
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.config.targets_for(&absolute)
    }

    /// Lints one file's bytes with this run's settings.
    pub fn lint(&self, path: &Path, bytes: &[u8]) -> (String, Vec<Diagnostic>) {
        let analysis = self.lint_and_read(path, bytes.to_vec());
        (analysis.text, analysis.diagnostics)
    }

    /// Lints one file and reads its loader metadata from the same parse.
    pub fn lint_and_read(&self, path: &Path, bytes: Vec<u8>) -> rules::FileAnalysis {
        let targets = self.targets_for(path);
        let skill_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let exists = |relative: &Path| skill_dir.join(relative).exists();
        let context = FileContext {
            path,
            targets: &targets,
            exists: &exists,
        };
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        let mut analysis = rules::lint_and_read(bytes, &context, folder);
        self.config.rules.apply(&mut analysis.diagnostics);
        analysis
    }
}

/// Builds the run's settings from the arguments: `--config`, or the nearest config file.
pub(super) fn settings(
    config_path: Option<&Path>,
    start: &Path,
    targets: &[String],
) -> Result<Run, String> {
    let config = match config_path {
        Some(path) => Config::load(path),
        None => Config::discover(start),
    }
    .map_err(|error| error.to_string())?;
    let targets = if targets.is_empty() {
        None
    } else {
        Some(parse_targets(targets)?)
    };
    Ok(Run { config, targets })
}

/// Drops a leading `./` so paths read as the user would write them.
pub(super) fn display_path(path: &Path) -> PathBuf {
    path.strip_prefix(".")
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

pub(super) fn run(args: &CheckArgs) -> u8 {
    if args.stdin {
        return run_stdin(args);
    }
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    for path in &paths {
        if !path.exists() {
            error_line(&format!("{}: no such file or folder", path.display()));
            return EXIT_TROUBLE;
        }
    }
    let run = match settings(args.config.as_deref(), &paths[0], &args.targets) {
        Ok(run) => run,
        Err(message) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    let mut trouble = false;
    if args.fix {
        let fixed = super::fix::fix_files(&run, &discover(&paths).files);
        trouble |= fixed.trouble;
        if fixed.fixes > 0 {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr().lock(),
                format!(
                    "Fixed {} finding(s) in {} file(s).\n",
                    fixed.fixes, fixed.files
                )
                .as_bytes(),
            );
        }
    }
    // The walk comes after any fixes, which may have renamed files (`skill-md-case`).
    let (report, io_trouble) = check_files(
        &run,
        &paths,
        args.context_window,
        args.format == CheckFormat::Human,
    );
    trouble |= io_trouble;
    finish(args, &report, trouble)
}

/// `check --stdin`: one SKILL.md's text from standard input, linted as if it were at
/// `--stdin-filename` (its folder name, targets and links), without the workspace rules.
fn run_stdin(args: &CheckArgs) -> u8 {
    let mut bytes = Vec::new();
    if let Err(error) = std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes) {
        error_line(&format!("cannot read standard input: {error}"));
        return EXIT_TROUBLE;
    }
    let path = args
        .stdin_filename
        .clone()
        .unwrap_or_else(|| PathBuf::from("SKILL.md"));
    let start = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let run = match settings(args.config.as_deref(), start, &args.targets) {
        Ok(run) => run,
        Err(message) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    let display = display_path(&path);
    let analysis = run.lint_and_read(&display, bytes);
    let mut files = Vec::new();
    if !analysis.diagnostics.is_empty() {
        let mut report = FileReport::new(display, analysis.text, analysis.diagnostics);
        if args.format != CheckFormat::Human {
            report.compact();
        }
        files.push(report);
    }
    let skills_checked = usize::from(analysis.metadata.is_some());
    finish(
        args,
        &Report {
            files,
            files_checked: 1,
            skills_checked,
        },
        false,
    )
}

/// Prints the report in the asked format and turns it into the exit code (SPEC section 2).
fn finish(args: &CheckArgs, report: &Report, trouble: bool) -> u8 {
    let output = match args.format {
        CheckFormat::Human => format::human::render(report, format::human::use_colour()),
        CheckFormat::Json => format::json::render(report),
        CheckFormat::Github => format::github::render(report),
        CheckFormat::Sarif => format::sarif::render(report),
    };
    write_stdout(&output);
    if trouble {
        return EXIT_TROUBLE;
    }
    let fails = |severity: Severity| {
        severity == Severity::Error || (args.strict && severity == Severity::Warning)
    };
    let failed = report
        .files
        .iter()
        .flat_map(|file| &file.diagnostics)
        .any(|diagnostic| fails(diagnostic.severity));
    if failed { EXIT_FINDINGS } else { 0 }
}

struct Linted {
    path: PathBuf,
    report: Option<FileReport>,
    skill: Option<Skill>,
    mentions: Vec<crate::document::mentions::Mention>,
}

/// Walks `paths` and lints each SKILL.md on the walker's threads as it is found, then runs the
/// workspace rules on the registries the skills form. Returns the report and whether some file
/// or folder could not be read.
pub(super) fn check_files(
    run: &Run,
    paths: &[PathBuf],
    context_window: Option<u64>,
    keep_text: bool,
) -> (Report, bool) {
    let linted: Mutex<Vec<(PathBuf, Result<Linted, String>)>> = Mutex::new(Vec::new());
    let lint_one = |path: &PathBuf| -> Result<Linted, String> {
        let bytes =
            read_bytes(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let display = display_path(path);
        let rules::FileAnalysis {
            text,
            diagnostics,
            metadata,
            mentions,
        } = run.lint_and_read(&display, bytes);
        let is_loader_file = path.file_name().is_some_and(|name| name == "SKILL.md");
        let skill = metadata.filter(|_| is_loader_file).and_then(|metadata| {
            let folder = path.parent()?.file_name()?.to_str()?.to_owned();
            let root = root_of(&display)?.to_path_buf();
            Some(Skill::new(metadata, display.clone(), root, folder))
        });
        // Only files with findings keep anything, and only the human format keeps text.
        let report = (!diagnostics.is_empty()).then(|| {
            let mut report = FileReport::new(display.clone(), text, diagnostics);
            if !keep_text {
                report.compact();
            }
            report
        });
        Ok(Linted {
            path: display,
            report,
            skill,
            mentions,
        })
    };
    let linked_files: Mutex<HashSet<PathBuf>> = Mutex::new(HashSet::new());
    let walk_errors = walk(paths, &|path, is_link| {
        if is_link {
            linked_files
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(display_path(&path));
        }
        let result = lint_one(&path);
        linted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((path, result));
    });
    let mut trouble = false;
    for error in &walk_errors {
        error_line(&format!(
            "cannot read {}: {}",
            error.path.display(),
            error.message
        ));
        trouble = true;
    }
    let mut linted = linted
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let linked_files = linked_files
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    linted.sort_by(|a, b| a.0.cmp(&b.0));
    linted.dedup_by(|a, b| a.0 == b.0);
    let results = linted.into_iter().map(|(_, result)| result);
    let mut by_path: BTreeMap<PathBuf, FileReport> = BTreeMap::new();
    let mut skills = Vec::new();
    let mut mentions: BTreeMap<PathBuf, Vec<crate::document::mentions::Mention>> = BTreeMap::new();
    let mut files_checked = 0;
    for result in results {
        match result {
            Err(message) => {
                error_line(&message);
                trouble = true;
            }
            Ok(linted) => {
                files_checked += 1;
                if !linted.mentions.is_empty() {
                    mentions.insert(linted.path.clone(), linted.mentions);
                }
                if let Some(skill) = linted.skill {
                    skills.push(skill);
                }
                if let Some(report) = linted.report {
                    by_path.insert(linted.path, report);
                }
            }
        }
    }
    let skills_checked = skills.len();
    let targets_for = |path: &Path| run.targets_for(path);
    let mut workspace = Vec::new();
    for registry in registries_of(skills, &linked_files) {
        workspace.extend(rules::workspace::check(
            &registry,
            &targets_for,
            context_window,
        ));
        // Mentions resolve against the registry of the skill's own workspace.
        let near_names = rules::workspace::NearNames::new(&registry);
        let members = registry
            .skills
            .iter()
            .map(|skill| &skill.path)
            .chain(registry.shadowed.iter().map(|(skill, _)| &skill.path));
        for path in members {
            if let Some(found) = mentions.get(path) {
                for diagnostic in near_names.unknown_mentions(found) {
                    workspace.push((path.clone(), diagnostic));
                }
            }
        }
    }
    for (path, diagnostic) in workspace {
        let mut kept = vec![diagnostic];
        run.config.rules.apply(&mut kept);
        let Some(diagnostic) = kept.pop() else {
            continue;
        };
        let entry = by_path
            .entry(path.clone())
            .or_insert_with(|| FileReport::new(path.clone(), String::new(), Vec::new()));
        if entry.text.is_empty() {
            // The text was dropped or never kept; read it back for this finding's positions.
            entry.set_text(
                read_bytes(&path)
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                    .unwrap_or_default(),
            );
        }
        entry.diagnostics.push(diagnostic);
    }
    let mut files: Vec<FileReport> = by_path.into_values().collect();
    for file in &mut files {
        rules::sort(&mut file.diagnostics);
    }
    (
        Report {
            files,
            files_checked,
            skills_checked,
        },
        trouble,
    )
}

/// Which default root (SPEC section 5) `root` is, by its longest matching path suffix, and the
/// workspace above it.
fn default_root(root: &Path) -> Option<(usize, PathBuf)> {
    let text = root.to_string_lossy().replace('\\', "/");
    DEFAULT_ROOTS
        .iter()
        .enumerate()
        .filter_map(|(index, default)| {
            if text == *default {
                Some((index, default.len(), PathBuf::new()))
            } else {
                let workspace = text.strip_suffix(default)?.strip_suffix('/')?;
                Some((index, default.len(), PathBuf::from(workspace)))
            }
        })
        .max_by_key(|(_, length, _)| *length)
        .map(|(index, _, workspace)| (index, workspace))
}

/// The workspace a skills root belongs to: the folder above a default root such as `skills/`
/// or `.claude/skills/`, or the root itself.
fn workspace_of(root: &Path) -> PathBuf {
    default_root(root).map_or_else(|| root.to_path_buf(), |(_, workspace)| workspace)
}

/// One registry per workspace, roots in the loader's priority order (SPEC section 5), with the
/// symlinked folders of each root that resolve outside it refused.
fn registries_of(mut skills: Vec<Skill>, linked_files: &HashSet<PathBuf>) -> Vec<Registry> {
    let priority = |root: &Path| default_root(root).map_or(DEFAULT_ROOTS.len(), |(index, _)| index);
    skills.sort_by_cached_key(|skill| {
        (
            workspace_of(&skill.root),
            priority(&skill.root),
            skill.root.clone(),
            skill.folder.clone(),
        )
    });
    let mut registries: Vec<(PathBuf, Registry)> = Vec::new();
    for skill in skills {
        let workspace = workspace_of(&skill.root);
        if registries
            .last()
            .is_none_or(|(current, _)| *current != workspace)
        {
            registries.push((workspace, Registry::default()));
        }
        let Some((_, registry)) = registries.last_mut() else {
            continue;
        };
        if !registry.roots.contains(&skill.root) {
            registry.roots.push(skill.root.clone());
            registry
                .refused
                .extend(escaping_links(&skill.root, linked_files));
        }
        // The loader does not register a SKILL.md that resolves outside its root.
        if !registry
            .refused
            .iter()
            .any(|refused| refused.path == skill.path)
        {
            registry.add(skill);
        }
    }
    registries
        .into_iter()
        .map(|(_, registry)| registry)
        .collect()
}

/// Folders of a root whose SKILL.md resolves outside it (the walk does not follow links).
fn escaping_links(root: &Path, linked_files: &HashSet<PathBuf>) -> Vec<Refused> {
    let Ok(real_root) = fs::canonicalize(root) else {
        return Vec::new();
    };
    let Ok(entries) = fs::read_dir(root) else {
        return Vec::new();
    };
    let mut refused = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path().join("SKILL.md");
        // The folder's type comes with the listing; a linked SKILL.md inside a real folder was
        // seen by the walk, which does not follow links.
        let linked = entry.file_type().is_ok_and(|kind| kind.is_symlink())
            || linked_files.contains(&display_path(&path));
        if !linked {
            continue;
        }
        if let Ok(resolved) = fs::canonicalize(&path) {
            if !resolved.starts_with(&real_root) {
                refused.push(Refused {
                    path: display_path(&path),
                    root: root.to_path_buf(),
                    refusal: Refusal::OutsideRoot { resolved },
                });
            }
        }
    }
    refused.sort_by(|a, b| a.path.cmp(&b.path));
    refused
}
