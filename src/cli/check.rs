//! `skill-lsp check`: discover, lint in parallel, add the workspace rules, format, exit code.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::format::{self, FileReport, Report};
use super::{
    CheckArgs, CheckFormat, EXIT_FINDINGS, EXIT_TROUBLE, error_line, parse_targets, warning_line,
    write_stdout,
};
use crate::analysis::Engine;
use crate::config::Config;
use crate::diagnostic::{Diagnostic, Severity};
use crate::document::mentions::Mention;
use crate::rules;
use crate::workspace::discovery::{discover, walk};
use crate::workspace::loader::{
    Metadata, clean, fs_path, read_metadata, roots_for, workspace_of_skill,
};
use crate::workspace::read::read_bytes;
use crate::workspace::{Registry, Source};

/// Settings shared by every file of a run: the engine, which decides every finding.
pub(super) struct Run {
    pub engine: Engine,
}

impl Run {
    /// Lints one file's bytes with this run's settings (file rules only: `--fix` and `--stdin`).
    pub fn lint(&self, path: &Path, bytes: &[u8]) -> (String, Vec<Diagnostic>) {
        let analysis = self.lint_and_read(path, bytes.to_vec());
        (analysis.text, analysis.diagnostics)
    }

    /// Lints one file and reads its loader metadata from the same parse.
    pub fn lint_and_read(&self, path: &Path, bytes: Vec<u8>) -> rules::FileAnalysis {
        let skill_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let exists = |relative: &Path| fs_path(&skill_dir).join(relative).exists();
        self.engine.lint_file(path, bytes, &exists)
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
    let mut engine = Engine::new(config);
    if !targets.is_empty() {
        engine.targets = Some(parse_targets(targets)?);
    }
    Ok(Run { engine })
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
            let what = if path.is_symlink() {
                "a dangling symlink (its target does not exist)"
            } else {
                "no such file or folder"
            };
            error_line(&format!("{}: {what}", path.display()));
            return EXIT_TROUBLE;
        }
    }
    let mut run = match settings(args.config.as_deref(), &paths[0], &args.targets) {
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
    run.engine.context_window = args.context_window;
    let (report, io_trouble) = check_files(&run, &paths, args.format == CheckFormat::Human);
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
            report.compact(&[]);
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

/// What a run keeps of one linted file.
struct Linted {
    /// As given (display form).
    path: PathBuf,
    report: Option<FileReport>,
    metadata: Option<Metadata>,
    mentions: Vec<Mention>,
}

/// Walks `paths` and lints each SKILL.md on the walker's threads as it is found, then runs the
/// workspace rules on the registries the loader builds for the workspaces the files belong to.
/// Returns the report and whether some file or folder could not be read.
pub(super) fn check_files(run: &Run, paths: &[PathBuf], keep_text: bool) -> (Report, bool) {
    // An error is a message and whether it stops the run from being trusted (exit 2).
    let linted: Mutex<Vec<Result<Linted, (String, bool)>>> = Mutex::new(Vec::new());
    let lint_one = |path: &Path| -> Result<Linted, (String, bool)> {
        if path.is_symlink() && !path.exists() {
            // Every client skips it, as skills-ref does ("missing SKILL.md"); there is no text to
            // hold a finding, so it is trouble, named for what it is.
            return Err((
                format!(
                    "cannot read {}: a dangling symlink (its target does not exist); no client can load this skill",
                    display_path(path).display()
                ),
                true,
            ));
        }
        let bytes = read_bytes(path)
            .map_err(|error| (format!("cannot read {}: {error}", path.display()), true))?;
        let display = display_path(path);
        let rules::FileAnalysis {
            text,
            diagnostics,
            metadata,
            mentions,
        } = run.lint_and_read(&display, bytes);
        let is_loader_file = path.file_name().is_some_and(|name| name == "SKILL.md");
        let metadata = metadata.filter(|_| is_loader_file);
        // Workspace findings come later, when the text is gone: keep the positions of every
        // offset they can point at (the name, the description, mentions, the file start).
        let mut anchors = vec![0];
        if let Some(metadata) = &metadata {
            anchors.extend(metadata.name_range.iter().flat_map(|r| [r.start, r.end]));
            anchors.extend(
                metadata
                    .description_range
                    .iter()
                    .flat_map(|r| [r.start, r.end]),
            );
            anchors.extend(mentions.iter().flat_map(|m| [m.range.start, m.range.end]));
        }
        let keep = keep_text && !diagnostics.is_empty();
        let mut report = FileReport::new(display.clone(), text, diagnostics);
        if !keep {
            report.compact(&anchors);
        }
        Ok(Linted {
            path: display,
            report: Some(report),
            metadata,
            mentions,
        })
    };
    let walk_errors = walk(paths, &|path, _| {
        let result = lint_one(&path);
        linted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(result);
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
    let mut files: BTreeMap<PathBuf, Linted> = BTreeMap::new();
    let mut errors = Vec::new();
    for result in linted
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        match result {
            Err(error) => errors.push(error),
            Ok(linted) => {
                files.entry(linted.path.clone()).or_insert(linted);
            }
        }
    }
    errors.sort();
    errors.dedup();
    for (message, stops) in errors {
        if stops {
            error_line(&message);
        } else {
            warning_line(&message);
        }
        trouble |= stops;
    }
    let files_checked = files.len();
    let skills_checked = files
        .values()
        .filter(|linted| linted.metadata.is_some())
        .count();
    for (path, diagnostic) in workspace_findings(run, paths, &files) {
        if let Some(report) = files
            .get_mut(&path)
            .and_then(|linted| linted.report.as_mut())
        {
            report.diagnostics.push(diagnostic);
        }
    }
    let mut reports: Vec<FileReport> = files
        .into_values()
        .filter_map(|linted| linted.report)
        .filter(|report| !report.diagnostics.is_empty())
        .collect();
    for report in &mut reports {
        rules::sort(&mut report.diagnostics);
    }
    (
        Report {
            files: reports,
            files_checked,
            skills_checked,
        },
        trouble,
    )
}

/// The absolute, `.`-free form of a path, for comparing paths however they were spelled.
fn key(path: &Path) -> PathBuf {
    clean(&std::path::absolute(fs_path(path)).unwrap_or_else(|_| path.to_path_buf()))
}

/// The workspace findings of the checked files. Each SKILL.md belongs to one workspace: the
/// config file's folder or a folder argument whose skills roots hold it, else the one the loader
/// derives from its own path; each workspace's registry is the loader's, built from
/// [`roots_for`] with the metadata this run already parsed.
fn workspace_findings(
    run: &Run,
    paths: &[PathBuf],
    files: &BTreeMap<PathBuf, Linted>,
) -> Vec<(PathBuf, Diagnostic)> {
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
    let mut by_key: HashMap<PathBuf, &Path> = HashMap::new();
    let mut workspaces: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    for (path, linted) in files {
        by_key.insert(key(path), path);
        if linted.metadata.is_none() {
            continue;
        }
        let Some(root) = path.parent().and_then(Path::parent) else {
            continue;
        };
        let root = key(root);
        let workspace = known
            .iter()
            .find(|(_, roots)| roots.contains(&root))
            .map(|(workspace, _)| workspace.clone())
            .or_else(|| workspace_of_skill(path));
        if let Some(workspace) = workspace {
            workspaces.entry(key(&workspace)).or_insert(workspace);
        }
    }
    let cache = Parsed {
        files,
        by_key: &by_key,
    };
    let mut findings = Vec::new();
    for workspace in workspaces.values() {
        let roots: Vec<PathBuf> = roots_for(workspace, extra)
            .iter()
            .map(|root| clean(root))
            .collect();
        let registry = Registry::scan(&roots, &cache);
        let mentions = |path: &Path| {
            let linted = files.get(*by_key.get(&key(path))?)?;
            Some(linted.mentions.clone())
        };
        for (path, diagnostic) in run.engine.workspace_findings_all(&registry, &mentions) {
            // Only the files this run was asked about: a linked skill's siblings stay quiet.
            if let Some(checked) = by_key.get(&key(&path)) {
                findings.push((checked.to_path_buf(), diagnostic));
            }
        }
    }
    findings
}

/// The loader's view of the files this run parsed: their metadata without a second read.
struct Parsed<'a> {
    files: &'a BTreeMap<PathBuf, Linted>,
    by_key: &'a HashMap<PathBuf, &'a Path>,
}

impl Source for Parsed<'_> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        crate::workspace::read::read_text(path)
    }

    fn metadata(&self, path: &Path, folder: &str) -> std::io::Result<Metadata> {
        let parsed = self
            .by_key
            .get(&key(path))
            .and_then(|given| self.files.get(*given))
            .and_then(|linted| linted.metadata.clone());
        match parsed {
            Some(metadata) => Ok(metadata),
            None => self.read(path).map(|text| read_metadata(&text, folder)),
        }
    }
}
