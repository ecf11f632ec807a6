//! `skill-lsp check`: discover, lint in parallel, add the workspace rules, format, exit code.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use super::check_run::{CheckRun, exists_beside};
use super::display_path;
use super::format::{FileReport, Format, Summary, Totals};
use super::spool::{Kept, Spool};
use super::{CheckArgs, CheckFormat, EXIT_FINDINGS, EXIT_TROUBLE, error_line, write_stdout};
use crate::analysis::RegistryView;
use crate::diagnostic::{Diagnostic, Severity};
use crate::document::mentions::Mention;
use crate::rules;
use crate::targets::ClientSet;
use crate::workspace::Registry;
use crate::workspace::discovery::{
    FileIndex, OPENAI_YAML, discover, is_openai_yaml, path_order_key, walk_indexed,
};
use crate::workspace::loader::{Disk, Metadata, Source, add_readings, clean, roots_for};
use crate::workspace::open::{Owner, owner_of};
use crate::workspace::read::{DiskFiles, Roots, read_bytes};

mod output;
mod workspaces;
use output::{Checked, Output};
use workspaces::{KeyMap, KeySet, Keys, Linted, Workspaces};

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
    let mut run = match CheckRun::new(args.config.as_deref(), &paths[0], &args.targets) {
        Ok(run) => run,
        Err(message) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    if !args.exclude.is_empty() {
        let extended =
            std::mem::take(&mut run.engine.config.exclude).extended(Path::new("."), &args.exclude);
        match extended {
            Ok(excludes) => run.engine.config.exclude = excludes,
            Err(message) => {
                error_line(&format!("--exclude: {message}"));
                return EXIT_TROUBLE;
            }
        }
    }
    let mut trouble = false;
    if args.fix {
        let roots = Roots::new(&paths);
        let fixed = super::fix::fix_files(
            &run,
            &discover(&paths, &run.engine.config.exclude).files,
            &roots,
        );
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
    run.engine.plugin_profile = plugin_profile(args);
    let mut output = Output::new(format_of(args), args.strict);
    output.totals.statistics = args.statistics;
    trouble |= check_files(&run, &paths, &mut output, KEPT_IN_MEMORY);
    output.finish(trouble)
}

fn plugin_profile(args: &CheckArgs) -> Option<crate::plugins::Profile> {
    args.profile.map(|profile| match profile {
        super::PluginProfile::Directory => crate::plugins::Profile::Directory,
    })
}

fn format_of(args: &CheckArgs) -> Format {
    match args.format {
        CheckFormat::Human => Format::Human {
            colour: super::format::human::use_colour(),
        },
        CheckFormat::Concise => Format::Concise {
            colour: super::format::human::use_colour(),
        },
        CheckFormat::Json => Format::Json,
        CheckFormat::Github => Format::Github,
        CheckFormat::Sarif => Format::Sarif,
    }
}

/// `check --stdin`: one SKILL.md's text from standard input, linted as if it were at
/// `--stdin-filename` (its folder name, targets and links), without the workspace rules.
fn run_stdin(args: &CheckArgs) -> u8 {
    let bytes = match crate::workspace::read::read_stream(std::io::stdin().lock()) {
        Ok(bytes) => bytes,
        Err(error) => {
            error_line(&format!("cannot read standard input: {error}"));
            return EXIT_TROUBLE;
        }
    };
    let path = args
        .stdin_filename
        .clone()
        .unwrap_or_else(|| PathBuf::from("SKILL.md"));
    let start = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut run = match CheckRun::new(args.config.as_deref(), start, &args.targets) {
        Ok(run) => run,
        Err(message) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    run.engine.plugin_profile = plugin_profile(args);
    let display = display_path(&path);
    let mut output = Output::new(format_of(args), args.strict);
    if let Some((text, diagnostics)) = run.engine.lint_manifest(&path, &bytes, &DiskFiles) {
        output.add(Checked::new(&output, &display, text, diagnostics));
        return output.finish(false);
    }
    let analysis = run.lint_and_read(&display, bytes, ClientSet::NONE);
    let is_skill = analysis.metadata.is_some();
    let mut diagnostics = analysis.diagnostics;
    if is_skill && run.engine.security_enabled() {
        // The grants and capability-mismatch are judged with the skill's other files, read from
        // the disk as the editor reads the files it does not hold open.
        // Without a file name there is no folder to read: the current one is no skill's.
        let files = if args.stdin_filename.is_some() {
            shown_skill_files(&FileIndex::default(), display.as_path(), &path)
        } else {
            Vec::new()
        };
        let scan = run
            .engine
            .scan_skill_files(&display, &analysis.text, analysis.evidence, files);
        diagnostics.extend(scan.skill_md);
    }
    let mut checked = Checked::new(&output, &display, analysis.text, diagnostics);
    checked.skill = is_skill;
    output.add(checked);
    output.finish(false)
}

/// Files rendered at a time in the second pass: enough to keep every core busy, few enough
/// that the texts of the files linted again stay small whatever the corpus.
const CHUNK: usize = 512;

/// The most rendered output the first pass keeps in memory for the second; the rest waits in
/// a temporary file ([`Spool`]).
const KEPT_IN_MEMORY: usize = 4 * 1024 * 1024;

/// What the first pass learned about one file.
struct FirstPass {
    /// What the loader registers from it (`None`: not UTF-8, or unreadable).
    metadata: Option<Metadata>,
    mentions: Vec<Mention>,
    /// Its own findings rendered (the text kept aside in the spool), or `None` if they could
    /// not be kept: the file is then linted again in its turn.
    checked: Option<(Checked, Kept)>,
    /// Why it could not be read, reported in its turn.
    error: Option<String>,
    /// A regular file, no symlink, as the walk listed it, and read.
    plain: bool,
    /// For a skill's SKILL.md: the capabilities its own blocks show and its text up to its
    /// body (all the folder scan reads of it), kept in the spool beside the rendered output,
    /// within the same memory budget (`None`: it could not be kept, and the SKILL.md is read
    /// again); its folder's other files are scanned in the second pass.
    evidence: Option<(Vec<crate::security::Evidence>, Option<Kept>)>,
    /// The paths its links name, relative to its folder, which the first pass took to exist
    /// without asking the disk ([`assumptions_hold`]).
    assumed: Vec<PathBuf>,
}

/// Walks `paths` and checks the files in two passes. The first lints each file on every core
/// as soon as the walk finds it, keeping what the loader registers from it and its rendered findings; the registries
/// of the workspaces the files belong to are then built from those parses (a file is read
/// again only for a client reading the first pass did not take, `Registry::read_clients`); the
/// second pass writes the files in path order, each with the findings of the workspace rules
/// added, linting again only a file that has such findings and findings of its own, or whose
/// output could not be kept (a file with only such findings is read again for their
/// positions). Returns whether some file or folder could not be read.
fn check_files(
    run: &CheckRun,
    paths: &[PathBuf],
    output: &mut Output,
    keep_in_memory: usize,
) -> bool {
    let spool = Spool::new(keep_in_memory);
    // The first pass starts while the walk goes on: each file found is linted on the pool.
    let found: Mutex<Vec<(PathBuf, PathBuf, FirstPass)>> = Mutex::new(Vec::new());
    let manifests: Mutex<Vec<(PathBuf, Result<Checked, String>)>> = Mutex::new(Vec::new());
    // Codex's files beside the skills, linted when their SKILL.md is written out.
    let openai: Mutex<HashSet<PathBuf>> = Mutex::new(HashSet::new());
    let mut walk_errors = Vec::new();
    let mut index = FileIndex::default();
    // Files reached through a link that leaves the named folders: never read, so a planted
    // link to `/proc/self/environ` or a home folder cannot put its text into the output.
    let roots = Roots::new(paths);
    let outside: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());
    rayon::in_place_scope(|scope| {
        (walk_errors, index) = walk_indexed(paths, &run.engine.config.exclude, &|path, is_link| {
            let (found, spool, output, manifests) = (&found, &spool, &*output, &manifests);
            if is_link {
                if let Err(why) = roots.check(&path) {
                    outside
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((path, why));
                    return;
                }
            }
            if is_openai_yaml(&path) {
                openai
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(path);
                return;
            }
            scope.spawn(move |_| {
                let display = display_path(&path);
                if crate::plugins::manifest_kind(&path).is_some() {
                    let checked = check_manifest(run, output, &display, &path);
                    manifests
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((display, checked));
                    return;
                }
                let mut pass = first_pass(run, output, spool, &display, &path);
                pass.plain = !is_link && pass.metadata.is_some();
                found
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push((display, path, pass));
            });
        });
    });
    let mut trouble = false;
    let mut outside = outside
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    outside.sort();
    outside.dedup();
    let unread = walk_errors
        .iter()
        .map(|error| (&error.path, &error.message))
        .chain(outside.iter().map(|(path, why)| (path, why)));
    for (path, why) in unread {
        error_line(&format!("cannot read {}: {why}", path.display()));
        trouble = true;
    }
    let mut found = found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut manifests = manifests
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let openai = openai
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    manifests.sort_by_cached_key(|(display, _)| path_order_key(display));
    manifests.dedup_by(|a, b| a.0 == b.0);
    let keys = Keys::new();
    let (found_keys, taken): (Vec<PathBuf>, Vec<Option<Metadata>>) = found
        .par_iter_mut()
        .map(|(display, _, pass)| (keys.key(display), pass.metadata.take()))
        .unzip();
    // Which workspace owns each file needs only its path: found while the parses are gathered.
    let ((plain, metadata), owners) = rayon::join(
        || {
            let mut plain = KeySet::with_capacity_and_hasher(found.len(), Default::default());
            let mut metadata = KeyMap::with_capacity_and_hasher(found.len(), Default::default());
            for ((key, (_, _, pass)), read) in found_keys.iter().zip(&found).zip(taken) {
                if pass.plain {
                    plain.insert(key.clone().into_os_string());
                }
                if let Some(read) = read {
                    metadata.insert(key.clone().into_os_string(), read);
                }
            }
            (plain, metadata)
        },
        || {
            let displays = found.iter().map(|(display, _, _)| display.as_path());
            Workspaces::owners(run, paths, displays, &found_keys, &keys)
        },
    );
    let linted = Linted {
        keys: &keys,
        plain,
        metadata: Mutex::new(metadata),
    };
    // The workspaces need the files in no order, and the order of the output needs nothing of
    // the workspaces: the registries are built on one core while the other sorts the files
    // and checks the link targets the first pass took to exist.
    let asks_names = found
        .iter()
        .any(|(_, _, pass)| pass.mentions.iter().any(|mention| !mention.in_code));
    let (workspaces, (order, broken)) = rayon::join(
        || {
            let workspaces = Workspaces::build(run, owners, &linted, &keys);
            if asks_names {
                workspaces.index_names();
            }
            workspaces
        },
        || {
            let mut order: Vec<usize> = (0..found.len()).collect();
            order.par_sort_by_cached_key(|at| path_order_key(&found[*at].0));
            // In path order, each folder's search of the walk's listing starts near the last
            // one's, whose keys are still in the cache.
            let broken: Vec<usize> = order
                .par_iter()
                .copied()
                .filter(|at| {
                    let (display, path, pass) = &found[*at];
                    !assumptions_hold(&index, (display, path), &pass.assumed)
                })
                .collect();
            (order, broken)
        },
    );
    let Linted {
        plain, metadata, ..
    } = linted;
    drop_aside((plain, metadata));
    for at in broken {
        // A link the first pass took to exist does not: its findings were wrong, and it is
        // linted again with the disk's answers.
        found[at].2.checked = None;
    }
    let (mut files, file_keys) = in_path_order(found, found_keys, &order);

    for (chunk, chunk_keys) in files.chunks_mut(CHUNK).zip(file_keys.chunks(CHUNK)) {
        let done: Vec<(Result<Checked, String>, Option<FolderScan>)> = chunk
            .par_iter_mut()
            .zip(chunk_keys)
            .map(|((display, path, pass), key)| {
                let (display, path) = (&*display, &*path);
                if let Some(error) = pass.error.take() {
                    return (Err(error), None);
                }
                let folder = pass
                    .evidence
                    .take()
                    .filter(|_| path.file_name().is_some_and(|name| name == "SKILL.md"))
                    .filter(|_| run.engine.security_enabled())
                    .map(|(own, frontmatter)| {
                        // The SKILL.md as the first pass read it, or read again if its
                        // frontmatter could not be kept: the folder scan reads nothing after it.
                        let frontmatter = frontmatter
                            .and_then(|kept| spool.take(kept))
                            .unwrap_or_else(|| {
                                crate::text::decode_lossy(read_bytes(path).unwrap_or_default())
                            });
                        scan_folder(run, output, &index, (display, path), own, &frontmatter)
                    });
                let mut extra = workspaces.findings_of(run, key, &pass.mentions);
                extra.extend(
                    folder
                        .iter()
                        .flat_map(|folder| folder.skill_md.iter().cloned()),
                );
                match pass.checked.take() {
                    Some((mut checked, kept)) if extra.is_empty() => {
                        if let Some(text) = spool.take(kept) {
                            checked.text = text;
                            return (Ok(checked), folder);
                        }
                    }
                    Some((checked, _)) if checked.summary.is_empty() && !checked.suppressed => {
                        return (
                            render_workspace_findings(output, display, path, &checked, extra),
                            folder,
                        );
                    }
                    _ => {}
                }
                (check_one(run, output, display, path, extra), folder)
            })
            .collect();
        for ((display, path, _), (result, folder)) in chunk.iter().zip(done) {
            match result {
                Ok(checked) => {
                    let skill = checked.skill;
                    output.add(checked);
                    if let Some(folder) = &folder {
                        output.capabilities(display, &folder.evidence);
                    }
                    let file = path.parent().map(|folder| folder.join(OPENAI_YAML));
                    if let Some(file) = file.filter(|file| skill && openai.contains(file)) {
                        match check_openai_yaml(run, output, display, path, &file) {
                            Ok(checked) => output.add(checked),
                            Err(message) => {
                                error_line(&message);
                                trouble = true;
                            }
                        }
                    }
                    // A skill's other files follow its SKILL.md, in path order among themselves.
                    for checked in folder.into_iter().flat_map(|folder| folder.files) {
                        output.add(checked);
                    }
                }
                Err(message) => {
                    error_line(&message);
                    trouble = true;
                }
            }
        }
    }
    // Plugin manifests come after the skills, in path order among themselves: no workspace
    // rule joins them to a skill, so they need no second pass.
    for (_, result) in manifests {
        match result {
            Ok(checked) => output.add(checked),
            Err(message) => {
                error_line(&message);
                trouble = true;
            }
        }
    }
    drop_aside((files, file_keys, workspaces, index, openai));
    trouble
}

/// The files of the first pass (`found`, with their keys) in `order`, their path order, each
/// path once: the first copy of a file found twice stands for both. In place: what the first
/// pass keeps of 10,000 files is megabytes, which copying into new vectors spent more time on
/// (faulting their pages in) than the sort itself.
fn in_path_order(
    mut found: Vec<(PathBuf, PathBuf, FirstPass)>,
    mut keys: Vec<PathBuf>,
    order: &[usize],
) -> (Vec<(PathBuf, PathBuf, FirstPass)>, Vec<PathBuf>) {
    permute(&mut found, order);
    permute(&mut keys, order);
    let repeated: Vec<bool> = std::iter::once(false)
        .chain(found.windows(2).map(|pair| pair[0].0 == pair[1].0))
        .collect();
    if repeated.contains(&true) {
        let mut at = 0..;
        found.retain(|_| !repeated[at.next().unwrap_or_default()]);
        let mut at = 0..;
        keys.retain(|_| !repeated[at.next().unwrap_or_default()]);
    }
    (found, keys)
}

/// Puts `items` in `order`: afterwards `items[i]` is what was at `order[i]`, a permutation of
/// the positions. Each cycle of the permutation is followed with swaps, so nothing is copied
/// but the items that move.
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// Frees `built` on a thread of its own: the paths, parses and registries of a large run take
/// milliseconds to free (15 ms of 10,000 skills' 0.5 s), which the output need not wait for,
/// nor the exit, which frees the lot at once.
fn drop_aside<T: Send + 'static>(built: T) {
    // When no thread can be started, the closure is dropped here, and `built` with it.
    let _ = std::thread::Builder::new().spawn(move || drop(built));
}

/// Codex's `agents/openai.yaml` of a checked SKILL.md's folder (`file`, found by the walk):
/// it sorts right after the SKILL.md (`S` before `a`), so the output stays in path order.
fn check_openai_yaml(
    run: &CheckRun,
    output: &Output,
    display: &Path,
    path: &Path,
    file: &Path,
) -> Result<Checked, String> {
    let skill_dir = path.parent().unwrap_or(Path::new("."));
    let shown = display
        .parent()
        .unwrap_or(Path::new(""))
        .join(rules::openai_yaml::PATH);
    let bytes = read_checked(&shown, file)?;
    let text = crate::text::decode_lossy(bytes);
    let skill = read_bytes(path).unwrap_or_default();
    let name = crate::workspace::loader::read_metadata(
        &String::from_utf8_lossy(&skill),
        "",
        ClientSet::NONE,
    )
    .name;
    let name = (!name.is_empty()).then_some(name);
    let diagnostics = run.engine.lint_openai_yaml(
        &text,
        skill_dir,
        &|path: &Path| path.is_file(),
        name.as_deref(),
    );
    Ok(Checked::new(output, &shown, text, diagnostics))
}

/// Checks one plugin manifest (`.claude-plugin/plugin.json` or `marketplace.json`) and renders
/// its findings.
fn check_manifest(
    run: &CheckRun,
    output: &Output,
    display: &Path,
    path: &Path,
) -> Result<Checked, String> {
    let bytes = read_checked(display, path)?;
    let (text, diagnostics) = run
        .engine
        .lint_manifest(display, &bytes, &DiskFiles)
        .unwrap_or_default();
    Ok(Checked::new(output, display, text, diagnostics))
}

/// Reads a file for `check`, naming a dangling symlink for what it is.
fn read_checked(display: &Path, path: &Path) -> Result<Vec<u8>, String> {
    read_bytes(path).map_err(|error| {
        if path.is_symlink() && !path.exists() {
            // Every client skips it, as skills-ref does ("missing SKILL.md"); there is no
            // text to hold a finding, so it is trouble, named for what it is.
            format!(
                "cannot read {}: a dangling symlink (its target does not exist); no client can load this skill",
                display.display()
            )
        } else {
            format!("cannot read {}: {error}", path.display())
        }
    })
}

/// What [`render`] returns besides the rendered file: what the loader registers from it (only
/// for a `SKILL.md`), its mentions, the capabilities its blocks show, and for a `SKILL.md` its
/// text up to its body.
type Rendered = (
    Checked,
    Option<Metadata>,
    Vec<Mention>,
    Vec<crate::security::Evidence>,
    Option<String>,
);

/// A SKILL.md's text up to its body: all that the scan of its folder reads of it
/// ([`crate::analysis::Engine::scan_skill_files`]).
fn frontmatter_of(text: &str) -> String {
    let body = crate::document::frontmatter::split(text).body.start;
    text.get(..body).unwrap_or(text).to_owned()
}

/// Lints one file's bytes, adds the workspace findings `extra` and renders the lot; returns
/// what the loader registers from it (only for a `SKILL.md`, with the readings of `clients`),
/// its mentions, the capabilities its blocks show and, for a `SKILL.md` the loader registers,
/// its frontmatter (its text up to its body).
fn render(
    run: &CheckRun,
    output: &Output,
    (display, path): (&Path, &Path),
    bytes: Vec<u8>,
    extra: Vec<Diagnostic>,
    clients: ClientSet,
    exists: &dyn Fn(&Path) -> bool,
) -> Rendered {
    let rules::FileAnalysis {
        text,
        mut diagnostics,
        metadata,
        mentions,
        evidence,
    } = run.engine.lint_file(display, bytes, exists, clients);
    let is_loader_file = path.file_name().is_some_and(|name| name == "SKILL.md");
    let frontmatter = (is_loader_file && metadata.is_some()).then(|| frontmatter_of(&text));
    diagnostics.extend(extra);
    let mut checked = Checked::new(output, display, text, diagnostics);
    checked.skill = is_loader_file && metadata.is_some();
    // Said only by the human summary.
    if matches!(output.format, Format::Human { .. } | Format::Concise { .. }) {
        checked.checked_for = Some(run.engine.checked_for(display));
    }
    (
        checked,
        metadata.filter(|_| is_loader_file),
        mentions,
        evidence,
        frontmatter,
    )
}

/// The first pass over one file: lint it, keep what the loader and the workspace rules need,
/// and keep its rendered findings in the spool.
fn first_pass(
    run: &CheckRun,
    output: &Output,
    spool: &Spool,
    display: &Path,
    path: &Path,
) -> FirstPass {
    let bytes = match read_checked(display, path) {
        Ok(bytes) => bytes,
        Err(error) => {
            return FirstPass {
                metadata: None,
                mentions: Vec::new(),
                checked: None,
                error: Some(error),
                plain: false,
                evidence: None,
                assumed: Vec::new(),
            };
        }
    };
    // The readings the workspace rules will likely want, taken from this parse: the file's own
    // targets' (a registry reads any other it needs again, `Registry::read_clients`).
    let clients = run.engine.listed_clients_of(display);
    // Each link target is taken to exist, and checked once the walk has listed every file
    // (`assumptions_hold`): most are in that listing, which answers without the look-up of
    // a whole path on the disk that asking now would cost.
    let assumed = std::cell::RefCell::new(Vec::new());
    let exists = |relative: &Path| {
        assumed.borrow_mut().push(relative.to_path_buf());
        true
    };
    let (mut checked, metadata, mentions, evidence, frontmatter) = render(
        run,
        output,
        (display, path),
        bytes,
        Vec::new(),
        clients,
        &exists,
    );
    let text = std::mem::take(&mut checked.text);
    FirstPass {
        evidence: metadata
            .is_some()
            .then_some(evidence)
            .zip(frontmatter.map(|frontmatter| spool.keep(frontmatter))),
        metadata,
        mentions,
        checked: spool.keep(text).map(|kept| (checked, kept)),
        error: None,
        plain: false,
        assumed: assumed.into_inner(),
    }
}

/// Renders a file whose first pass (`first`) found nothing of its own with the workspace
/// findings `extra`, which are then all its findings: its text is read again for their
/// positions, but not linted again (`catalog-budget` over a client's whole listing can give
/// every file of a large workspace a finding). Its own findings are thus those of the text the
/// first pass read, as for every file without workspace findings.
fn render_workspace_findings(
    output: &Output,
    display: &Path,
    path: &Path,
    first: &Checked,
    extra: Vec<Diagnostic>,
) -> Result<Checked, String> {
    let bytes = read_checked(display, path)?;
    // The text as the linter takes it: the file's own, or a lossy decoding of it.
    let text = crate::text::decode_lossy(bytes);
    let mut checked = Checked::new(output, display, text, extra);
    checked.skill = first.skill;
    checked.checked_for.clone_from(&first.checked_for);
    Ok(checked)
}

/// Lints one file again, with the workspace findings `extra` added, and renders it.
fn check_one(
    run: &CheckRun,
    output: &Output,
    display: &Path,
    path: &Path,
    extra: Vec<Diagnostic>,
) -> Result<Checked, String> {
    let bytes = read_checked(display, path)?;
    let exists = |relative: &Path| exists_beside(display, relative);
    Ok(render(
        run,
        output,
        (display, path),
        bytes,
        extra,
        ClientSet::NONE,
        &exists,
    )
    .0)
}

/// Whether every path in `assumed`, relative to the folder of the file at `path` (named
/// `display` in the output), exists as the first pass took it to. The walk's listing answers
/// for a path it holds, a regular file or a folder with one in it, each of which exists; any
/// other path, including one the walk did not list because git ignores it or a link leads
/// there, is looked up on the disk, so the answer is always the disk's.
fn assumptions_hold(
    index: &FileIndex,
    (display, path): (&Path, &Path),
    assumed: &[PathBuf],
) -> bool {
    if assumed.is_empty() {
        return true;
    }
    let listed = index.under(path.parent().unwrap_or(Path::new("")));
    assumed
        .iter()
        .all(|relative| listed.holds(relative) || exists_beside(display, relative))
}

/// The security scan of a checked skill's folder: its other files rendered, the findings on its
/// SKILL.md that need the folder (grants, `capability-mismatch`), and what the skill can do.
struct FolderScan {
    skill_md: Vec<Diagnostic>,
    files: Vec<Checked>,
    evidence: Vec<crate::security::Evidence>,
}

/// Reads the files a skill ships besides its SKILL.md (`path`) and scans them; `display` names
/// the SKILL.md as the output does, and the other files are named from it. `frontmatter` is
/// the SKILL.md's text up to its body (or all of it), as the first pass read it.
fn scan_folder(
    run: &CheckRun,
    output: &Output,
    index: &FileIndex,
    (display, path): (&Path, &Path),
    own: Vec<crate::security::Evidence>,
    frontmatter: &str,
) -> FolderScan {
    let files = shown_skill_files(index, display, path);
    let scan = run
        .engine
        .scan_skill_files(display, frontmatter, own, files);
    FolderScan {
        skill_md: scan.skill_md,
        files: scan
            .files
            .into_iter()
            .map(|(file, text, diagnostics)| {
                let mut checked = Checked::new(output, &file, text, diagnostics);
                checked.part_of_skill = true;
                checked
            })
            .collect(),
        evidence: scan.evidence,
    }
}

/// The files the skill of the SKILL.md at `path` ships besides it, with their bytes, named from
/// `display` (the SKILL.md as the output names it).
fn shown_skill_files(index: &FileIndex, display: &Path, path: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let folder = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let shown_folder = display.parent().unwrap_or(Path::new(""));
    crate::workspace::discovery::read_indexed_skill_files(index, folder)
        .into_iter()
        .filter_map(|(file, bytes)| {
            let relative = file.strip_prefix(folder).ok()?.to_path_buf();
            Some((shown_folder.join(relative), bytes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, bytes: &[u8]) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    /// The output of one run over `root` with `keep_in_memory` bytes of kept output.
    fn output_of(root: &Path, format: Format, keep_in_memory: usize) -> (String, bool) {
        let run = CheckRun::new(None, root, &[]).unwrap();
        let mut output = Output::new(format, false);
        let trouble = check_files(&run, &[root.to_path_buf()], &mut output, keep_in_memory);
        let tail = output.format.tail(&output.totals, output.any);
        (output.pending + &tail, trouble)
    }

    /// The folder scan of every labelled case finds the same from the SKILL.md's frontmatter
    /// alone, which the first pass keeps, as from its whole text.
    #[test]
    fn the_folder_scan_reads_only_the_frontmatter() {
        let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/security/cases");
        let run = CheckRun::new(None, &cases, &[]).unwrap();
        let mut scanned = 0;
        let mut folders = vec![cases.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                if path.file_name().is_none_or(|name| name != "SKILL.md") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let frontmatter = frontmatter_of(&text);
                assert!(frontmatter.len() < text.len(), "{}", path.display());
                let [whole, alone] = [text.as_str(), frontmatter.as_str()].map(|skill_text| {
                    let own = run
                        .lint_and_read(&path, text.clone().into_bytes(), ClientSet::NONE)
                        .evidence;
                    let files = shown_skill_files(&FileIndex::default(), &path, &path);
                    let scan = run.engine.scan_skill_files(&path, skill_text, own, files);
                    format!("{scan:?}")
                });
                assert_eq!(alone, whole, "{}", path.display());
                scanned += 1;
            }
        }
        assert!(scanned > 100, "{scanned}");
    }

    #[test]
    fn a_file_with_only_workspace_findings_renders_as_when_linted_again() {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join("skills");
        let files: [(&str, &[u8]); 3] = [
            (
                "plain",
                b"---\nname: plain\ndescription: Does plain things. Use when asked.\n---\nBody.\n",
            ),
            (
                "wide",
                "---\nname: wide\ndescription: Café ✓ 文字 things. Use when asked.\n---\nBody.\n"
                    .as_bytes(),
            ),
            (
                "crlf",
                b"---\r\nname: crlf\r\ndescription: Does crlf things. Use when asked.\r\n---\r\nBody.\r\n",
            ),
        ];
        let run = CheckRun::new(None, &skills, &[]).unwrap();
        for format in [
            Format::Json,
            Format::Human { colour: false },
            Format::Sarif,
            Format::Github,
        ] {
            let output = Output::new(format, false);
            for (folder, bytes) in files {
                let path = skills.join(folder).join("SKILL.md");
                write(&path, bytes);
                let first = first_pass(&run, &output, &Spool::new(usize::MAX), &path, &path);
                let (first, _) = first.checked.unwrap();
                assert!(
                    first.summary.is_empty(),
                    "{folder} has no finding of its own"
                );
                let text = String::from_utf8(bytes.to_vec()).unwrap();
                let description = text.find("Does").or_else(|| text.find("Café")).unwrap();
                let extra = || {
                    let mut finding = Diagnostic::new(
                        crate::rules::Rule::CatalogBudget,
                        crate::text::TextRange::new(description, text.find(" Use").unwrap()),
                        "Codex cuts this description in its skill listing",
                    );
                    finding.targets = vec![crate::targets::Client::Codex];
                    vec![finding.clone(), finding]
                };
                let alone =
                    render_workspace_findings(&output, &path, &path, &first, extra()).unwrap();
                let again = check_one(&run, &output, &path, &path, extra()).unwrap();
                assert_eq!(alone.text, again.text, "{folder}");
                assert!(alone.text.contains("Codex cuts"), "{}", alone.text);
                assert_eq!(
                    (
                        alone.skill,
                        alone.fixable,
                        alone.failed,
                        alone.failed_strict
                    ),
                    (
                        again.skill,
                        again.fixable,
                        again.failed,
                        again.failed_strict
                    )
                );
                assert_eq!(
                    (alone.summary.warnings, alone.summary.errors),
                    (again.summary.warnings, again.summary.errors)
                );
            }
        }
    }

    /// The first pass takes every link target to exist and checks after the walk: a target
    /// the walk did not list (ignored by git, behind a link, an empty folder) is found on the
    /// disk, and only the targets that exist nowhere are reported.
    #[test]
    fn links_the_walk_did_not_list_are_asked_of_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join("skills");
        write(&skills.join(".gitignore"), b"*.log\n");
        write(&skills.join("common/notes.md"), b"notes\n");
        write(&skills.join("alpha/out.log"), b"ignored, but there\n");
        write(&skills.join("alpha/scripts-old/run.sh"), b"echo\n");
        write(&skills.join("alpha/references/guide.md"), b"guide\n");
        std::fs::create_dir_all(skills.join("alpha/empty")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(skills.join("common"), skills.join("alpha/linked")).unwrap();
        #[cfg(not(unix))]
        write(&skills.join("alpha/linked/notes.md"), b"notes\n");
        write(
            &skills.join("alpha/SKILL.md"),
            b"---\nname: alpha\ndescription: Does alpha things. Use when asked.\n---\n\
              Read [a](references/guide.md), [b](out.log), [c](empty), [d](linked/notes.md),\n\
              [e](scripts-old/run.sh), [f](../common/notes.md), [g](scripts/run.sh),\n\
              [h](references/gone.md) and [i](scripts).\n",
        );
        // Its one missing target starts the name of a file the walk listed.
        write(&skills.join("beta/scripts-old/run.sh"), b"echo\n");
        write(
            &skills.join("beta/SKILL.md"),
            b"---\nname: beta\ndescription: Does beta things. Use when asked.\n---\n\
              Run [it](scripts-old/run.sh), not [that](scripts).\n",
        );
        let (json, _) = output_of(&skills, Format::Json, usize::MAX);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut broken: Vec<String> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|diagnostic| diagnostic["rule"] == "broken-link")
            .map(|diagnostic| {
                let message = diagnostic["message"].as_str().unwrap();
                message.split(" — ").next().unwrap().to_owned()
            })
            .collect();
        broken.sort();
        assert_eq!(
            broken,
            [
                "references/gone.md does not exist in the skill folder",
                "scripts does not exist in the skill folder",
                "scripts does not exist in the skill folder",
                "scripts/run.sh does not exist in the skill folder",
            ],
            "{json}"
        );
    }

    /// Every permutation of up to six items, and a long one, end as the definition says.
    #[test]
    fn permute_puts_each_item_where_the_order_says() {
        fn permutations(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![Vec::new()];
            }
            let mut all = Vec::new();
            for shorter in permutations(n - 1) {
                for at in 0..n {
                    let mut longer = shorter.clone();
                    longer.insert(at, n - 1);
                    all.push(longer);
                }
            }
            all
        }
        let mut orders: Vec<Vec<usize>> = (0..=6).flat_map(permutations).collect();
        // A long one with long cycles: position i takes the item 7919 i places on.
        orders.push((0..10_000).map(|at| (at * 7919) % 10_000).collect());
        for order in orders {
            let items: Vec<String> = (0..order.len()).map(|at| format!("item {at}")).collect();
            let mut permuted = items.clone();
            permute(&mut permuted, &order);
            let expected: Vec<String> = order.iter().map(|from| items[*from].clone()).collect();
            assert_eq!(permuted, expected, "{order:?}");
        }
    }

    /// A file reached through two arguments is checked and counted once, in its place, with
    /// the workspace findings it has however it was reached.
    #[test]
    fn a_file_found_twice_is_written_once() {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join("skills");
        for (folder, name) in [("alpha", "same"), ("beta", "same"), ("gamma", "gamma")] {
            write(
                &skills.join(folder).join("SKILL.md"),
                format!("---\nname: {name}\ndescription: Does {folder} things. Use when asked.\n---\nSee [x](gone.md).\n")
                    .as_bytes(),
            );
        }
        let run = CheckRun::new(None, &skills, &[]).unwrap();
        let mut output = Output::new(Format::Json, false);
        let paths = [
            skills.join("beta"),
            skills.clone(),
            skills.join("beta/SKILL.md"),
        ];
        check_files(&run, &paths, &mut output, usize::MAX);
        let json = output.pending + &output.format.tail(&output.totals, output.any);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let findings: Vec<(String, String)> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|diagnostic| {
                let path = diagnostic["path"].as_str().unwrap();
                let folder = Path::new(path).parent().unwrap().file_name().unwrap();
                let rule = diagnostic["rule"].as_str().unwrap();
                (folder.to_string_lossy().into_owned(), rule.to_owned())
            })
            .collect();
        let expected = [
            ("alpha", "name-mismatch"),
            ("alpha", "duplicate-name"),
            ("alpha", "broken-link"),
            ("beta", "name-mismatch"),
            ("beta", "duplicate-name"),
            ("beta", "broken-link"),
            ("gamma", "broken-link"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(folder, rule)| ((*folder).to_owned(), (*rule).to_owned()))
            .collect();
        assert_eq!(findings, expected, "{json}");
        assert_eq!(report["checked"]["files"], 3, "{json}");
    }

    #[test]
    fn output_is_the_same_from_memory_from_disk_and_linted_again() {
        let dir = tempfile::tempdir().unwrap();
        let skills = dir.path().join("skills");
        let skill = |name: &str, body: &str| {
            format!(
                "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n{body}\n"
            )
        };
        write(
            &skills.join("alpha/SKILL.md"),
            skill("alpha", "See [a](missing.md) and [b](gone.md).").as_bytes(),
        );
        // Two skills named `twin`: each has a workspace finding, so each is linted again.
        write(
            &skills.join("twin/SKILL.md"),
            skill("twin", "Body.").as_bytes(),
        );
        // Another skill of that name, not a copy (a copy would be no finding).
        write(
            &skills.join("twin-copy/SKILL.md"),
            skill("twin", "Body [x](nope.md).")
                .replace("Does twin things", "Does other things")
                .as_bytes(),
        );
        write(
            &skills.join("clean/SKILL.md"),
            skill("clean", "Run /alpha first.").as_bytes(),
        );
        write(
            &skills.join("mentions/SKILL.md"),
            skill("mentions", "Then run /alphaa.").as_bytes(),
        );
        write(
            &skills.join("latin/SKILL.md"),
            b"---\nname: latin\ndescription: caf\xe9\n---\n",
        );
        for format in [Format::Json, Format::Human { colour: false }, Format::Sarif] {
            let (in_memory, trouble) = output_of(&skills, format, usize::MAX);
            assert!(!trouble);
            for rule in [
                "broken-link",
                "duplicate-name",
                "unknown-mention",
                "invalid-utf8",
            ] {
                assert!(in_memory.contains(rule), "{rule} missing from {in_memory}");
            }
            let (spooled, _) = output_of(&skills, format, 0);
            assert_eq!(spooled, in_memory, "kept on disk");
            let (some_spooled, _) = output_of(&skills, format, 200);
            assert_eq!(some_spooled, in_memory, "partly in memory");
        }
    }
}
