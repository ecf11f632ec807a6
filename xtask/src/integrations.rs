//! The `integrations` step: the CI integrations, exercised as a user's CI would run them.
//!
//! a. the GitHub Action's check step (`action/check.sh`): annotations, exit codes, SARIF, the
//!    sarif-file output;
//! b. the pre-commit hook (`.pre-commit-hooks.yaml`): a real `pre-commit run` in a sample git
//!    repository, with pre-commit building skill-lsp itself (`language: rust`, i.e.
//!    `cargo install --path .`).
//!
//! `cargo xtask integrations` runs it alone. The knobs:
//!
//! - `SKILL_LSP_BIN` — the binary for part a when run alone (default: a fresh release build);
//! - `PYTHON` — the interpreter for pre-commit's venv (default: python3.11, else python3);
//! - `SKIP_PRE_COMMIT=1` — run part a only;
//! - `CARGO_BUILD_JOBS` — for the hook's build (default 2).
//!
//! Needs Rust, Python >= 3.9 with venv/pip, git, and PyPI. Everything it keeps lives in
//! `target/ci-integrations` (gitignored): the venv, `PRE_COMMIT_HOME` (the hook's built
//! environment, reused while the sources are unchanged) and a cargo target dir for the hook's
//! build. pre-commit clones the hook repository at a commit, so the checkout's files (tracked,
//! and untracked but not ignored) are copied to `target/ci-integrations/hook-repo` and committed
//! there with a fixed date and author: the same sources give the same commit, and no rebuild.
//!
//! Prints one `ok - …` or `FAIL - …` line per check and `N passed, M failed` last; fails when a
//! check fails.

use std::env;
use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::json::{self, Value};
use crate::support::{
    Scratch, copy_entry, create_dir, exit_code, is_executable, output, python, python_version,
    remove_dir, seconds, succeeds, var, write,
};
use crate::{Context, status};

const PRE_COMMIT_VERSION: &str = "4.7.0";

/// The checks so far, printed as they are made.
#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
}

impl Tally {
    fn check(&mut self, description: &str, ok: bool) {
        if ok {
            println!("ok - {description}");
            self.passed += 1;
        } else {
            println!("FAIL - {description}");
            self.failed += 1;
        }
    }

    /// The summary; an error when anything failed.
    fn finish(self) -> Result<(), String> {
        println!();
        println!("{} passed, {} failed", self.passed, self.failed);
        if self.failed == 0 {
            Ok(())
        } else {
            Err(format!("{} of the integration checks failed", self.failed))
        }
    }
}

/// The environment every command of the run gets: the server first on PATH, and for part b git
/// and the hook's build kept apart from the user's.
struct Run {
    root: PathBuf,
    tmp: PathBuf,
    envs: Vec<(&'static str, OsString)>,
}

impl Run {
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.envs(self.envs.iter().map(|(name, value)| (name, value)));
        command
    }

    fn tmp(&self, name: &str) -> PathBuf {
        self.tmp.join(name)
    }
}

pub fn run(context: &Context, bin: &Path) -> Result<(), String> {
    let work = context.root.join("target/ci-integrations");
    create_dir(&work)?;
    let scratch = Scratch::new("skill-lsp-ci-integrations")?;
    let mut run = Run {
        root: context.root.clone(),
        tmp: scratch.path.clone(),
        envs: Vec::new(),
    };
    let mut bin_dir = fs::canonicalize(bin)
        .ok()
        .and_then(|bin| bin.parent().map(Path::to_path_buf))
        .ok_or_else(|| format!("{} is not an executable file", bin.display()))?;
    if bin.file_name().is_none_or(|name| name != "skill-lsp") {
        // The action runs `skill-lsp` from PATH: give the binary that name.
        let named = run.tmp("bin");
        create_dir(&named)?;
        let bin = fs::canonicalize(bin).map_err(|error| format!("{}: {error}", bin.display()))?;
        symlink(&bin, &named.join("skill-lsp"))?;
        bin_dir = named;
    }
    let path = env::var_os("PATH").unwrap_or_default();
    let path = env::join_paths([bin_dir].into_iter().chain(env::split_paths(&path)))
        .map_err(|error| format!("PATH: {error}"))?;
    run.envs.push(("PATH", path));

    let mut tally = Tally::default();
    action(&run, &mut tally)?;
    if var("SKIP_PRE_COMMIT").as_deref() == Some("1") {
        println!("== b. pre-commit: skipped (SKIP_PRE_COMMIT=1)");
        return tally.finish();
    }
    pre_commit(&mut run, &work, &mut tally)?;
    tally.finish()
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> Result<(), String> {
    std::os::unix::fs::symlink(target, link).map_err(|error| format!("{}: {error}", link.display()))
}

#[cfg(not(unix))]
fn symlink(target: &Path, link: &Path) -> Result<(), String> {
    fs::copy(target, link)
        .map(drop)
        .map_err(|error| format!("{}: {error}", link.display()))
}

/// The SKILL.md of a skill folder; `body` None is a short valid body.
fn write_skill(dir: &Path, name: &str, body: Option<&str>) -> Result<(), String> {
    create_dir(dir)?;
    let body = body.unwrap_or("\n# Tables\n\nRead the CSV and print it as a table.\n");
    write(
        &dir.join("SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Formats CSV files as aligned tables. Use when the user \
             asks to pretty-print a CSV file.\n---\n{body}"
        ),
    )
}

/// A skill a client refuses: Copilot skips a skill whose description holds an unquoted `: `
/// (its YAML does not parse), an error wherever the skill lives.
fn write_broken_skill(dir: &Path) -> Result<(), String> {
    create_dir(dir)?;
    write(
        &dir.join("SKILL.md"),
        "---\nname: bad-skill\ndescription: Formats CSV files. Use when: the user asks for a table.\n---\n\n# Tables\n\nRead the CSV and print it as a table.\n",
    )
}

/// What one run of the action's check step left.
struct ActionRun {
    code: i32,
    out: String,
    github_output: String,
}

/// Part a: the action's check step in a workspace with a clean, a broken and a warned skill.
fn action(run: &Run, tally: &mut Tally) -> Result<(), String> {
    println!("== a. the GitHub Action's check step (action/check.sh)");
    let start = Instant::now();
    let ws = run.tmp("ws");
    write_skill(&ws.join("skills/good-skill"), "good-skill", None)?;
    // unquoted-colon: an error (Copilot skips the skill)
    write_broken_skill(&ws.join("skills/bad-skill"))?;
    // body-empty: a warning only
    write_skill(&ws.join("warn/warn-skill"), "warn-skill", Some(""))?;
    let action = |name: &str, inputs: &[(&str, &str)]| -> Result<ActionRun, String> {
        let github_output = run.tmp(&format!("{name}.github-output"));
        write(&github_output, "")?;
        let out = run.tmp(&format!("{name}.out"));
        let err = run.tmp(&format!("{name}.err"));
        let create = |path: &Path| {
            File::create(path).map_err(|error| format!("{}: {error}", path.display()))
        };
        let code = run
            .command("bash")
            .arg(run.root.join("action/check.sh"))
            .current_dir(&ws)
            .env_remove("INPUT_PATHS")
            .env_remove("INPUT_TARGETS")
            .env_remove("INPUT_STRICT")
            .env_remove("INPUT_SARIF_FILE")
            .env("GITHUB_OUTPUT", &github_output)
            .envs(inputs.iter().copied())
            .stdout(create(&out)?)
            .stderr(create(&err)?)
            .status()
            .map(exit_code)
            .map_err(|error| format!("cannot run action/check.sh: {error}"))?;
        Ok(ActionRun {
            code,
            out: fs::read_to_string(&out).unwrap_or_default(),
            github_output: fs::read_to_string(&github_output).unwrap_or_default(),
        })
    };
    let sarif = |file: &str| fs::read_to_string(ws.join(file)).unwrap_or_default();

    let broken = action(
        "broken",
        &[
            ("INPUT_PATHS", "skills"),
            ("INPUT_SARIF_FILE", "reports/skill-lsp.sarif"),
        ],
    )?;
    tally.check(
        &format!("broken skill: exit code 1 (got {})", broken.code),
        broken.code == 1,
    );
    tally.check(
        "broken skill: a ::error annotation for skills/bad-skill/SKILL.md with title=unquoted-colon",
        broken
            .out
            .lines()
            .any(|line| error_annotation(line, "skills/bad-skill/SKILL.md", "unquoted-colon")),
    );
    tally.check(
        "broken skill: no annotation for the clean skill",
        !broken.out.contains("file=skills/good-skill/"),
    );
    tally.check(
        "broken skill: the SARIF file (in a new folder) parses as SARIF 2.1.0",
        is_sarif(&sarif("reports/skill-lsp.sarif")),
    );
    tally.check(
        "broken skill: the SARIF file has the unquoted-colon result",
        sarif_has_rule(&sarif("reports/skill-lsp.sarif"), "unquoted-colon"),
    );
    tally.check(
        "broken skill: GITHUB_OUTPUT has sarif-file=reports/skill-lsp.sarif",
        has_line(&broken.github_output, "sarif-file=reports/skill-lsp.sarif"),
    );

    let clean = action(
        "clean",
        &[
            ("INPUT_PATHS", "skills/good-skill"),
            ("INPUT_TARGETS", "agentskills claude-code codex"),
        ],
    )?;
    tally.check(
        &format!(
            "clean skill (three targets): exit code 0 (got {})",
            clean.code
        ),
        clean.code == 0,
    );
    tally.check(
        "clean skill: no ::error annotation",
        !clean.out.lines().any(|line| line.starts_with("::error")),
    );
    tally.check(
        "clean skill: the default SARIF file skill-lsp.sarif parses as SARIF 2.1.0",
        is_sarif(&sarif("skill-lsp.sarif")),
    );
    tally.check(
        "clean skill: GITHUB_OUTPUT has sarif-file=skill-lsp.sarif",
        has_line(&clean.github_output, "sarif-file=skill-lsp.sarif"),
    );

    let two_paths = action(
        "two-paths",
        &[
            ("INPUT_PATHS", "skills/good-skill\n  warn"),
            ("INPUT_SARIF_FILE", "two.sarif"),
        ],
    )?;
    tally.check(
        &format!(
            "two paths (newline-separated), a warning only: exit code 0 (got {})",
            two_paths.code
        ),
        two_paths.code == 0,
    );
    tally.check(
        "two paths: a ::warning annotation for warn/warn-skill/SKILL.md",
        two_paths
            .out
            .lines()
            .any(|line| line.starts_with("::warning file=warn/warn-skill/SKILL.md")),
    );

    let strict = action(
        "strict",
        &[
            ("INPUT_PATHS", "skills/good-skill warn"),
            ("INPUT_STRICT", "true"),
            ("INPUT_SARIF_FILE", "strict.sarif"),
        ],
    )?;
    tally.check(
        &format!(
            "strict: true with a warning: exit code 1 (got {})",
            strict.code
        ),
        strict.code == 1,
    );
    tally.check(
        "strict: the SARIF file is still written",
        is_sarif(&sarif("strict.sarif")),
    );

    let bad_target = action(
        "bad-target",
        &[
            ("INPUT_PATHS", "skills/good-skill"),
            ("INPUT_TARGETS", "no-such-target"),
        ],
    )?;
    tally.check(
        &format!("an unknown target: exit code 2 (got {})", bad_target.code),
        bad_target.code == 2,
    );

    let bad_strict = action(
        "bad-strict",
        &[
            ("INPUT_PATHS", "skills/good-skill"),
            ("INPUT_STRICT", "maybe"),
        ],
    )?;
    tally.check(
        &format!("strict: maybe: exit code 2 (got {})", bad_strict.code),
        bad_strict.code == 2,
    );
    println!("   (part a: {} s)", seconds(start));
    Ok(())
}

/// Part b: pre-commit installs the hook from a repository holding this checkout and runs it in
/// a sample repository. Trouble setting up is a failed check, and ends the checks.
fn pre_commit(run: &mut Run, work: &Path, tally: &mut Tally) -> Result<(), String> {
    println!("== b. the pre-commit hook (.pre-commit-hooks.yaml)");
    let start = Instant::now();

    // pre-commit in a venv, reused while the interpreter and the pin are unchanged.
    let python = python();
    let venv = work.join("venv");
    let pinned = format!("pre-commit=={PRE_COMMIT_VERSION}");
    let want = format!("{} {pinned}", python_version(&python));
    let stamp = venv.join(".stamp");
    let have = fs::read_to_string(&stamp).unwrap_or_default();
    if !is_executable(&venv.join("bin/pre-commit")) || have.trim_end_matches('\n') != want {
        remove_dir(&venv)?;
        let installed = succeeds(run.command(&python).args(["-m", "venv"]).arg(&venv))
            && succeeds(run.command(venv.join("bin/python")).args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                &pinned,
            ]));
        if !installed {
            tally.check(
                &format!("pip install {pinned} into {}", venv.display()),
                false,
            );
            return Ok(());
        }
        write(&stamp, &format!("{want}\n"))?;
    }
    let pre_commit = venv.join("bin/pre-commit");
    println!(
        "   {} ({} s)",
        output(run.command(&pre_commit).arg("--version")),
        seconds(start)
    );
    tally.check(
        "pre-commit validate-manifest .pre-commit-hooks.yaml",
        succeeds(
            run.command(&pre_commit)
                .arg("validate-manifest")
                .arg(run.root.join(".pre-commit-hooks.yaml")),
        ),
    );

    // git without the user's or the machine's settings (no signing, hooks or templates).
    for (name, value) in [
        ("GIT_CONFIG_NOSYSTEM", "1"),
        ("GIT_CONFIG_GLOBAL", "/dev/null"),
        ("GIT_AUTHOR_NAME", "ci"),
        ("GIT_AUTHOR_EMAIL", "ci@localhost"),
        ("GIT_COMMITTER_NAME", "ci"),
        ("GIT_COMMITTER_EMAIL", "ci@localhost"),
    ] {
        run.envs.push((name, value.into()));
    }

    let hook_repo = work.join("hook-repo");
    if let Err(error) = hook_repository(run, &hook_repo) {
        eprintln!("{error}");
        tally.check(
            &format!("commit the checkout's files to {}", hook_repo.display()),
            false,
        );
        return Ok(());
    }
    let rev = output(
        run.command("git")
            .arg("-C")
            .arg(&hook_repo)
            .args(["rev-parse", "HEAD"]),
    );
    tally.check(
        &format!("the hook repository has .pre-commit-hooks.yaml at {rev}"),
        succeeds(run.command("git").arg("-C").arg(&hook_repo).args([
            "cat-file",
            "-e",
            &format!("{rev}:.pre-commit-hooks.yaml"),
        ])),
    );

    // One built hook environment at a time: a new commit (changed sources) starts
    // PRE_COMMIT_HOME anew.
    let home = work.join("pre-commit-home");
    let home_rev = work.join("pre-commit-home.rev");
    if fs::read_to_string(&home_rev)
        .unwrap_or_default()
        .trim_end_matches('\n')
        != rev
    {
        remove_dir(&home)?;
        write(&home_rev, &format!("{rev}\n"))?;
    }
    run.envs.push(("PRE_COMMIT_HOME", home.clone().into()));
    // The hook's `cargo install`: a kept target dir makes a rebuild after a source change
    // incremental.
    run.envs
        .push(("CARGO_TARGET_DIR", work.join("cargo-target").into()));
    let jobs = var("CARGO_BUILD_JOBS").unwrap_or_else(|| "2".to_owned());
    run.envs.push(("CARGO_BUILD_JOBS", jobs.into()));
    run.envs.push(("CARGO_TERM_COLOR", "never".into()));

    // A sample repository that uses the hook; git's own trouble here shows in the checks below.
    let sample = run.tmp("sample");
    create_dir(&sample)?;
    let git = |args: &[&str]| {
        let _ = run
            .command("git")
            .arg("-C")
            .arg(&sample)
            .args(args)
            .status();
    };
    git(&["init", "-q", "-b", "main"]);
    write(
        &sample.join(".pre-commit-config.yaml"),
        &format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: skill-lsp-check\n",
            hook_repo.display()
        ),
    )?;
    write_skill(&sample.join("skills/good-skill"), "good-skill", None)?;
    write(&sample.join("README.md"), "# notes\n\nname: not-a-skill\n")?;
    git(&["add", "-A"]);
    git(&["commit", "-q", "--no-verify", "-m", "a clean skill"]);

    let pre_commit_run = |name: &str, args: &[&str]| -> Result<(i32, String), String> {
        let out = run.tmp(&format!("{name}.out"));
        let file = File::create(&out).map_err(|error| format!("{}: {error}", out.display()))?;
        let both = file
            .try_clone()
            .map_err(|error| format!("{}: {error}", out.display()))?;
        let code = run
            .command(&pre_commit)
            .args(["run", "--color", "never"])
            .args(args)
            .current_dir(&sample)
            .stdout(file)
            .stderr(both)
            .status()
            .map(exit_code)
            .map_err(|error| format!("cannot run pre-commit: {error}"))?;
        Ok((code, fs::read_to_string(&out).unwrap_or_default()))
    };

    let at = Instant::now();
    let (code, out) = pre_commit_run("pc-clean", &["--all-files"])?;
    println!(
        "   pre-commit run --all-files, first run (installs the hook when needed): {} s",
        seconds(at)
    );
    tally.check(
        &format!("pre-commit, a clean skill: exit code 0 (got {code})"),
        code == 0,
    );
    tally.check(
        "pre-commit, a clean skill: the hook 'skill-lsp check' ran and passed",
        hook_said(&out, "Passed"),
    );
    if code != 0 {
        indented(&out, "   | ");
        if let Ok(log) = fs::read_to_string(home.join("pre-commit.log")) {
            let lines: Vec<&str> = log.lines().collect();
            indented(
                &lines[lines.len().saturating_sub(40)..].join("\n"),
                "   log| ",
            );
        }
    }

    write_broken_skill(&sample.join("skills/bad-skill"))?;
    git(&["add", "-A"]);
    let at = Instant::now();
    let (code, out) = pre_commit_run("pc-broken", &["--all-files"])?;
    println!(
        "   pre-commit run --all-files, hook installed: {} s",
        seconds(at)
    );
    tally.check(
        &format!("pre-commit, a broken skill added: exit code 1 (got {code})"),
        code == 1,
    );
    tally.check(
        "pre-commit, a broken skill added: the hook failed",
        hook_said(&out, "Failed"),
    );
    tally.check(
        "pre-commit, a broken skill added: the output names the rule unquoted-colon",
        out.contains("unquoted-colon"),
    );
    tally.check(
        "pre-commit, a broken skill added: the output names skills/bad-skill/SKILL.md",
        out.contains("skills/bad-skill/SKILL.md"),
    );
    if code != 1 {
        indented(&out, "   | ");
    }

    let (code, out) = pre_commit_run(
        "pc-files",
        &["--files", "skills/good-skill/SKILL.md", "README.md"],
    )?;
    tally.check(
        &format!(
            "pre-commit --files of the clean skill only (pass_filenames): exit code 0 (got {code})"
        ),
        code == 0,
    );
    if code != 0 {
        indented(&out, "   | ");
    }

    let (_, out) = pre_commit_run("pc-none", &["--files", "README.md"])?;
    tally.check(
        "pre-commit --files README.md: the hook is skipped (files: matches SKILL.md only)",
        hook_said(&out, "(no files to check)Skipped"),
    );
    println!("   (part b: {} s)", seconds(start));
    Ok(())
}

/// The checkout's files (tracked, and untracked but not ignored; not a tracked file deleted in
/// the work tree) copied to `hook_repo` and committed there at a fixed date.
fn hook_repository(run: &Run, hook_repo: &Path) -> Result<(), String> {
    remove_dir(hook_repo)?;
    create_dir(hook_repo)?;
    let listed = run
        .command("git")
        .arg("-C")
        .arg(&run.root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run git ls-files: {error}"))?;
    if !listed.status.success() {
        return Err(format!("git ls-files exited with {}", listed.status));
    }
    let listed = String::from_utf8_lossy(&listed.stdout);
    for file in listed.split('\0').filter(|file| !file.is_empty()) {
        let from = run.root.join(file);
        if !from.is_file() {
            continue;
        }
        let to = hook_repo.join(file);
        if let Some(parent) = to.parent() {
            create_dir(parent)?;
        }
        copy_entry(&from, &to)?;
    }
    let git = |args: &[&str]| {
        let mut command = run.command("git");
        command.args(args).current_dir(hook_repo);
        command
    };
    status(&mut git(&["init", "-q", "-b", "main"]), "git init")?;
    status(&mut git(&["add", "-A"]), "git add")?;
    status(
        git(&[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            "skill-lsp sources for the pre-commit test",
        ])
        .env("GIT_AUTHOR_DATE", "2000-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2000-01-01T00:00:00Z"),
        "git commit",
    )
}

/// Prints `text` with every line behind `prefix` (`sed 's/^/PREFIX/'`).
fn indented(text: &str, prefix: &str) {
    for line in text.lines() {
        println!("{prefix}{line}");
    }
}

/// Whether `text` has `line` as a whole line (`grep -x`).
fn has_line(text: &str, line: &str) -> bool {
    text.lines().any(|candidate| candidate == line)
}

/// An error annotation of the action for `file` with the rule as its title:
/// `::error file=FILE,line=N,col=N…title=RULE::message`.
fn error_annotation(line: &str, file: &str, rule: &str) -> bool {
    let digits = |text: &str| {
        text.trim_start_matches(|ch: char| ch.is_ascii_digit())
            .len()
    };
    let Some(rest) = line
        .strip_prefix("::error file=")
        .and_then(|rest| rest.strip_prefix(file))
        .and_then(|rest| rest.strip_prefix(",line="))
    else {
        return false;
    };
    let rest = &rest[rest.len() - digits(rest)..];
    let Some(rest) = rest.strip_prefix(",col=") else {
        return false;
    };
    let rest = &rest[rest.len() - digits(rest)..];
    rest.contains(&format!("title={rule}::"))
}

/// pre-commit's line for the hook: `skill-lsp check`, dots, then `result` at the line's end.
fn hook_said(out: &str, result: &str) -> bool {
    out.lines().any(|line| {
        line.strip_prefix("skill-lsp check").is_some_and(|rest| {
            let after = rest.trim_start_matches('.');
            after.len() < rest.len() && after == result
        })
    })
}

/// The runs of a SARIF 2.1.0 document, when `text` is one with at least one run.
fn sarif_runs(text: &str) -> Option<Vec<Value>> {
    let doc = json::parse(text).ok()?;
    if doc.get("version").and_then(Value::as_str) != Some("2.1.0") {
        return None;
    }
    match doc.get("runs") {
        Some(Value::Array(runs)) if !runs.is_empty() => Some(runs.clone()),
        _ => None,
    }
}

fn is_sarif(text: &str) -> bool {
    sarif_runs(text).is_some()
}

/// Whether a result of any run has the rule as its `ruleId`.
fn sarif_has_rule(text: &str, rule: &str) -> bool {
    sarif_runs(text).is_some_and(|runs| {
        runs.iter().any(|run| match run.get("results") {
            Some(Value::Array(results)) => results
                .iter()
                .any(|result| result.get("ruleId").and_then(Value::as_str) == Some(rule)),
            _ => false,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_annotation_names_its_file_position_and_rule() {
        let line = "::error file=skills/bad-skill/SKILL.md,line=2,col=7,endLine=2,endColumn=17,\
                    title=name-mismatch::name 'other-name' does not match its folder 'bad-skill'";
        let file = "skills/bad-skill/SKILL.md";
        assert!(error_annotation(line, file, "name-mismatch"));
        assert!(!error_annotation(line, file, "name-invalid"));
        assert!(!error_annotation(
            line,
            "skills/good-skill/SKILL.md",
            "name-mismatch"
        ));
        assert!(!error_annotation(
            &line.replace("::error", "::warning"),
            file,
            "name-mismatch"
        ));
        assert!(!error_annotation(
            &line.replace(",col=7", ""),
            file,
            "name-mismatch"
        ));
        assert!(error_annotation(
            "::error file=skills/bad-skill/SKILL.md,line=,col=,title=name-mismatch::",
            file,
            "name-mismatch"
        ));
    }

    #[test]
    fn the_hook_line_is_its_name_dots_and_the_result() {
        let out = "[INFO] Installing environment\nskill-lsp check..........Passed\n";
        assert!(hook_said(out, "Passed"));
        assert!(!hook_said(out, "Failed"));
        assert!(!hook_said("skill-lsp checkPassed\n", "Passed"));
        assert!(!hook_said("skill-lsp check....Passed (late)\n", "Passed"));
        assert!(hook_said(
            "skill-lsp check.....(no files to check)Skipped\n",
            "(no files to check)Skipped"
        ));
    }

    #[test]
    fn sarif_needs_its_version_and_a_run() {
        let doc = r#"{"version": "2.1.0", "runs": [{"results": [{"ruleId": "name-mismatch"}]}]}"#;
        assert!(is_sarif(doc));
        assert!(sarif_has_rule(doc, "name-mismatch"));
        assert!(!sarif_has_rule(doc, "body-empty"));
        assert!(is_sarif(r#"{"version": "2.1.0", "runs": [{}]}"#));
        assert!(!sarif_has_rule(
            r#"{"version": "2.1.0", "runs": [{}]}"#,
            "x"
        ));
        assert!(!is_sarif(r#"{"version": "2.1.0", "runs": []}"#));
        assert!(!is_sarif(r#"{"version": "2.0.0", "runs": [{}]}"#));
        assert!(!is_sarif("not json"));
    }

    #[test]
    fn a_whole_line_is_a_whole_line() {
        assert!(has_line("a=b\nsarif-file=x.sarif\n", "sarif-file=x.sarif"));
        assert!(!has_line("sarif-file=x.sarif.bak\n", "sarif-file=x.sarif"));
    }
}
