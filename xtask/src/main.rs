//! `cargo xtask`: the repository's one entry point for its checks and chores.
//!
//! - `cargo xtask ci` — everything a change must pass: formatting, lints, the bundled skills,
//!   the supply chain, the CI integrations, then the whole test suite. `.ci/run` and
//!   `.github/workflows/ci.yml` run exactly this.
//! - `cargo xtask test` — the whole test suite (the README's test command): Rust tests, the real
//!   model, pytest-lsp, the real clients, skills-ref, both editors, the packages.
//! - `cargo xtask bench [N]` — `check` against its peers on a generated corpus.
//! - `cargo xtask dist [--require-all] BIN_DIR OUT_DIR` — the release packages from a folder of
//!   binaries (`vsix` and `npm-pack` make one package each; dist.rs).
//! - `cargo xtask versions check|sync` — one version, Cargo.toml's, in every manifest
//!   (versions.rs).
//! - `cargo xtask steps` — the step names that `--skip` and `--only` take.
//! - `cargo xtask skills-ref | pytest-lsp [ARGS] | clients [ARGS] | integrations | nvim [BINS]` —
//!   one test driver on its own (skills_ref.rs, pytest_lsp.rs, clients.rs, integrations.rs,
//!   nvim.rs): on `SKILL_LSP_BIN` when set, else on a fresh build; pytest-lsp and clients pass
//!   their arguments to pytest, nvim takes the server and the scripted model.
//!
//! `ci` and `test` take `--skip STEP` and `--only STEP` (each repeatable, or comma-separated)
//! for a quick local loop; a run that skipped anything says so at its start and its end, and is
//! not a pass.
//!
//! Standard library only, so that it builds in seconds before anything else.

mod clients;
mod dist;
mod integrations;
mod json;
mod nvim;
mod pytest_lsp;
mod skills_ref;
mod support;
mod versions;

use std::collections::BTreeSet;
use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// One named step of `ci` or `test`.
#[derive(Clone)]
struct Step {
    name: &'static str,
    what: &'static str,
    run: fn(&Context) -> Result<(), String>,
}

/// What the tasks share: where the repository is, and where the task was started.
struct Context {
    root: PathBuf,
    invoked_from: PathBuf,
}

impl Context {
    /// A path from the command line: xtask works in the repository, but a relative path was
    /// meant from where the task was started.
    fn path(&self, arg: &str) -> PathBuf {
        self.invoked_from.join(arg)
    }

    fn release_bin(&self) -> PathBuf {
        self.root.join("target/release/skill-lsp")
    }

    fn debug_bin(&self) -> PathBuf {
        self.root.join("target/debug/skill-lsp")
    }
}

const CHECKS: &[Step] = &[
    Step {
        name: "fmt",
        what: "cargo fmt",
        run: |_| cargo(&["fmt", "--all", "--", "--check"]),
    },
    Step {
        name: "clippy",
        what: "cargo clippy, warnings denied",
        run: |_| {
            cargo(&[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ])
        },
    },
    Step {
        name: "skills",
        what: "the bundled skills are clean for agentskills, claude-code and codex",
        run: |_| {
            let check = [
                "run",
                "--release",
                "--quiet",
                "--bin",
                "skill-lsp",
                "--",
                "check",
            ];
            let targets = ["--target", "agentskills", "--target", "claude-code"];
            cargo(&[&check[..], &["skills"], &targets, &["--target", "codex"]].concat())?;
            cargo(&[&check[..], &["skills"]].concat())
        },
    },
    Step {
        name: "deny",
        what: "supply chain: licences, duplicates, sources, advisories (cargo-deny)",
        run: |context| deny(context),
    },
    Step {
        name: "integrations",
        what: "the pre-commit hook and the GitHub Action's check step",
        run: |context| integrations::run(context, &release_build(context)?),
    },
];

const TESTS: &[Step] = &[
    Step {
        name: "rust",
        what: "Rust unit, property, CLI, LSP and agent tests (and xtask's own)",
        run: |_| cargo(&["test", "--workspace"]),
    },
    Step {
        name: "fuzz",
        what: "the server's frame reader under libFuzzer for a minute (cargo-fuzz)",
        run: |_| bash("fuzz/ci.sh", &[], &[]),
    },
    Step {
        name: "real-model",
        what: "the agent and evals against llama-server with a real model",
        run: real_model,
    },
    Step {
        name: "pytest-lsp",
        what: "the server under pytest-lsp with recorded editor capabilities",
        run: |context| pytest_lsp::run(context, &debug_build(context)?, &[]),
    },
    Step {
        name: "clients",
        what: "the real clients as oracles: each listing against catalog --target",
        run: |context| clients::run(context, &debug_build(context)?, &[]),
    },
    Step {
        name: "skills-ref",
        what: "verdicts against the reference validator skills-ref",
        run: |context| skills_ref::run(context, &debug_build(context)?),
    },
    Step {
        name: "nvim",
        what: "the Neovim plugin in headless Neovim",
        run: |context| {
            let (server, model) = editor_builds(context)?;
            nvim::run(context, &server, &model)
        },
    },
    Step {
        name: "vscode",
        what: "the VS Code extension in code-server, and the package with the server inside",
        run: |context| editor_script(context, "scripts/ci_vscode.sh", true),
    },
    Step {
        name: "packages",
        what: "the packages without a Rust toolchain: wheel, npm, the Action's release install",
        run: |context| editor_script(context, "scripts/ci_packages.sh", false),
    },
];

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let context = Context {
        root: root(),
        invoked_from: env::current_dir().unwrap_or_default(),
    };
    if let Err(error) = env::set_current_dir(&context.root) {
        eprintln!("xtask: cannot enter {}: {error}", context.root.display());
        return ExitCode::from(2);
    }
    let Some((task, rest)) = args.split_first() else {
        eprintln!("{}", usage());
        return ExitCode::from(2);
    };
    let outcome = match task.as_str() {
        "ci" => run_steps(&context, &[CHECKS, TESTS].concat(), rest),
        "test" => run_steps(&context, TESTS, rest),
        "steps" => {
            for step in CHECKS.iter().chain(TESTS) {
                println!("{:<13} {}", step.name, step.what);
            }
            Ok(())
        }
        "bench" => bash("benches/bench.sh", &strs(rest), &[]),
        "dist" => dist::dist(&context, rest),
        "vsix" => dist::vsix_task(&context, rest),
        "npm-pack" => dist::npm_pack_task(&context, rest),
        "versions" => versions::run(&context, rest),
        "skills-ref" | "pytest-lsp" | "clients" | "integrations" | "nvim" => {
            alone(&context, task, rest)
        }
        "help" | "--help" | "-h" => {
            println!("{}", usage());
            Ok(())
        }
        other => Err(format!("unknown task '{other}'\n{}", usage())),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> String {
    format!(
        "usage: cargo xtask ci [--skip STEP]... [--only STEP]...    formatting, lints, supply chain, then the tests\n       \
         cargo xtask test [--skip STEP]... [--only STEP]...  the whole test suite, or the steps named\n       \
         cargo xtask steps                                   the steps and what each runs\n       \
         cargo xtask skills-ref | integrations               one step alone, on $SKILL_LSP_BIN or a fresh build\n       \
         cargo xtask pytest-lsp | clients [PYTEST ARGS]      the same, passing the arguments to pytest\n       \
         cargo xtask nvim [SKILL_LSP SCRIPTED_MODEL]         the nvim step alone (default: fresh release builds)\n       \
         cargo xtask bench [N]                               check against its peers on N generated skills\n       \
         {}\n       \
         {}",
        dist::USAGE,
        versions::USAGE
    )
}

/// One test driver run on its own, as a person runs it to look into a failure.
fn alone(context: &Context, task: &str, args: &[String]) -> Result<(), String> {
    let no_args = || match args {
        [] => Ok(()),
        _ => Err(format!("{task} takes no arguments\n{}", usage())),
    };
    match task {
        "skills-ref" => {
            no_args()?;
            skills_ref::run(context, &server_from_env(context, false)?)
        }
        "pytest-lsp" => pytest_lsp::run(context, &server_from_env(context, false)?, args),
        "clients" => clients::run(context, &server_from_env(context, false)?, args),
        "integrations" => {
            no_args()?;
            integrations::run(context, &server_from_env(context, true)?)
        }
        "nvim" => match args {
            [] => {
                let (server, model) = editor_builds(context)?;
                nvim::run(context, &server, &model)
            }
            [server, model] => nvim::run(context, &context.path(server), &context.path(model)),
            _ => Err(format!("nvim takes both binaries or neither\n{}", usage())),
        },
        _ => unreachable!("{task} is not a test driver"),
    }
}

/// The server a driver run alone checks: `SKILL_LSP_BIN` when set (the knob the old scripts
/// had), else a fresh debug or release build, as its step uses.
fn server_from_env(context: &Context, release: bool) -> Result<PathBuf, String> {
    let Some(bin) = support::var("SKILL_LSP_BIN") else {
        return if release {
            release_build(context)
        } else {
            debug_build(context)
        };
    };
    let bin = context.path(&bin);
    if support::is_executable(&bin) {
        Ok(bin)
    } else {
        Err(format!(
            "SKILL_LSP_BIN={} is not an executable file",
            bin.display()
        ))
    }
}

/// The repository: the folder above this crate's manifest.
fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map_or(manifest.clone(), Path::to_path_buf)
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The steps named by `--skip`, and those `--only` leaves out, checked against the steps there
/// are. `SKIP_EDITORS=1` (the older switch) skips the editors and the packages.
fn skipped(steps: &[Step], args: &[String]) -> Result<BTreeSet<String>, String> {
    let mut skip = BTreeSet::new();
    let mut only: Option<BTreeSet<String>> = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, names)) => (flag, Some(names)),
            None => (arg.as_str(), None),
        };
        let named = match flag {
            "--skip" => &mut skip,
            "--only" => only.get_or_insert_with(BTreeSet::new),
            _ => return Err(format!("unexpected argument '{arg}'\n{}", usage())),
        };
        let names = match inline {
            Some(names) => names,
            None => args
                .next()
                .ok_or_else(|| format!("{flag} needs a step name"))?,
        };
        named.extend(names.split(',').map(str::to_owned));
    }
    match env::var("SKIP_EDITORS").as_deref() {
        Err(_) => {}
        Ok("1") => skip.extend(["nvim", "vscode", "packages"].map(str::to_owned)),
        Ok(other) => {
            return Err(format!(
                "SKIP_EDITORS must be 1 to skip the editor tests (or unset), not '{other}'"
            ));
        }
    }
    for name in skip.iter().chain(only.iter().flatten()) {
        if !CHECKS.iter().chain(TESTS).any(|step| step.name == name) {
            return Err(format!(
                "no step named '{name}' (cargo xtask steps lists them)"
            ));
        }
    }
    if let Some(only) = only {
        // A check named with `test --only` would leave nothing to run, and that is no test.
        if let Some(name) = only
            .iter()
            .find(|name| !steps.iter().any(|step| step.name == *name))
        {
            return Err(format!("'{name}' is not a step of this task"));
        }
        skip.extend(
            steps
                .iter()
                .filter(|step| !only.contains(step.name))
                .map(|step| step.name.to_owned()),
        );
    }
    skip.retain(|name| steps.iter().any(|step| step.name == name));
    Ok(skip)
}

fn run_steps(context: &Context, steps: &[Step], args: &[String]) -> Result<(), String> {
    let skip = skipped(steps, args)?;
    let notice = || {
        if !skip.is_empty() {
            let names: Vec<&str> = skip.iter().map(String::as_str).collect();
            eprintln!(
                "!!!! skipped: {}; this is not a full pass !!!!",
                names.join(", ")
            );
        }
    };
    notice();
    let started = Instant::now();
    for step in steps {
        if skip.contains(step.name) {
            continue;
        }
        println!("== {}: {}", step.name, step.what);
        let at = Instant::now();
        (step.run)(context).map_err(|error| format!("step '{}' failed: {error}", step.name))?;
        println!("== {} passed in {} s", step.name, at.elapsed().as_secs());
    }
    println!("== all passed in {} s", started.elapsed().as_secs());
    notice();
    Ok(())
}

fn status(command: &mut Command, shown: &str) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|error| format!("cannot run {shown}: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} exited with {status}"))
    }
}

/// The cargo that runs this task (`CARGO`), so every step uses one toolchain.
fn cargo_command() -> Command {
    Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
}

fn cargo(args: &[&str]) -> Result<(), String> {
    let shown = format!("cargo {}", args.join(" "));
    status(cargo_command().args(args), &shown)
}

fn bash(script: &str, args: &[&str], envs: &[(&str, &std::ffi::OsStr)]) -> Result<(), String> {
    let mut command = Command::new("bash");
    command.arg(script).args(args);
    for (name, value) in envs {
        command.env(name, value);
    }
    status(&mut command, script)
}

/// The debug build of the server (what `cargo test` left), brought up to date.
fn debug_build(context: &Context) -> Result<PathBuf, String> {
    cargo(&["build", "--quiet", "--bin", "skill-lsp"])?;
    Ok(context.debug_bin())
}

fn release_build(context: &Context) -> Result<PathBuf, String> {
    cargo(&["build", "--release", "--quiet", "--bin", "skill-lsp"])?;
    Ok(context.release_bin())
}

/// The release builds of the server and the scripted model server, which the editor tests
/// drive.
fn editor_builds(context: &Context) -> Result<(PathBuf, PathBuf), String> {
    cargo(&[
        "build",
        "--release",
        "--quiet",
        "--bin",
        "skill-lsp",
        "--example",
        "scripted_model",
    ])?;
    let model = context.root.join("target/release/examples/scripted_model");
    Ok((context.release_bin(), model))
}

/// A script that drives the release build in a real editor (or packages it), with the
/// scripted model server when it talks to a model.
fn editor_script(context: &Context, script: &str, with_model: bool) -> Result<(), String> {
    let (bin, model) = editor_builds(context)?;
    let bin = bin.to_string_lossy();
    let model = model.to_string_lossy();
    if with_model {
        bash(script, &[&bin, &model], &[])
    } else {
        bash(script, &[&bin], &[])
    }
}

/// The real-model tests: `scripts/llama_server.sh` builds or reuses llama-server and the model
/// (cached under `.cache/llama`) and prints the variables the tests read.
fn real_model(_: &Context) -> Result<(), String> {
    let output = Command::new("bash")
        .arg("scripts/llama_server.sh")
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run scripts/llama_server.sh: {error}"))?;
    if !output.status.success() {
        return Err(format!(
            "scripts/llama_server.sh exited with {}",
            output.status
        ));
    }
    let printed = String::from_utf8_lossy(&output.stdout);
    let mut command = cargo_command();
    command.args([
        "test",
        "--test",
        "it",
        "real_model::",
        "--",
        "--test-threads",
        "1",
    ]);
    for line in printed.lines() {
        let Some((name, value)) = line
            .strip_prefix("export ")
            .and_then(|assignment| assignment.split_once('='))
        else {
            continue;
        };
        command.env(name, unquote(value));
    }
    status(&mut command, "cargo test --test it real_model::")
}

/// A value as bash's `printf %q` writes it: backslash escapes, or `$'…'` for control
/// characters (which our paths do not have).
fn unquote(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            out.extend(chars.next());
        } else {
            out.push(ch);
        }
    }
    out
}

/// The cargo-deny release the supply-chain step runs (installed when missing).
const DENY_VERSION: &str = "0.20.2";

/// Where cargo-deny keeps the default advisory database, under its `db-path`.
const ADVISORY_DB_FOLDER: &str = "advisory-db-3157b0e258782691";

/// Supply-chain checks with cargo-deny (deny.toml): licences, duplicate or banned crates and
/// sources always; RustSec advisories from the live database, or, where github.com cannot be
/// reached (CI machines reach only the package registries), from a snapshot bundle
/// (`SKILL_LSP_ADVISORY_BUNDLE`, else the team's copy beside the repository), naming its commit
/// and date; skipped, saying so, only when neither is there.
fn deny(context: &Context) -> Result<(), String> {
    let installed = cargo_command()
        .args(["deny", "--version"])
        .output()
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).contains(DENY_VERSION));
    if !installed {
        println!("installing cargo-deny {DENY_VERSION}");
        cargo(&[
            "install",
            "--locked",
            "--quiet",
            "cargo-deny",
            "--version",
            DENY_VERSION,
        ])?;
    }
    cargo(&[
        "deny",
        "--log-level",
        "error",
        "check",
        "licenses",
        "bans",
        "sources",
    ])?;
    let fetched = cargo_command()
        .args(["deny", "--log-level", "error", "fetch", "db"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if fetched {
        println!("advisories: the live RustSec database");
        return cargo(&["deny", "--log-level", "error", "check", "advisories"]);
    }
    let bundle = env::var_os("SKILL_LSP_ADVISORY_BUNDLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            context
                .root
                .join("../shared/data/rustsec-advisory-db.bundle")
        });
    if !bundle.is_file() {
        println!(
            "advisories: SKIPPED — github.com is unreachable and there is no snapshot at {};\n  \
             point SKILL_LSP_ADVISORY_BUNDLE at a git bundle of github.com/rustsec/advisory-db to check them offline",
            bundle.display()
        );
        return Ok(());
    }
    let work = env::temp_dir().join(format!("skill-lsp-deny-{}", std::process::id()));
    let outcome = offline_advisories(&bundle, &work);
    let _ = std::fs::remove_dir_all(&work);
    outcome
}

/// The advisories checked against a snapshot: the bundle cloned where cargo-deny looks for its
/// database, and deny.toml with `db-path` pointed there.
fn offline_advisories(bundle: &Path, work: &Path) -> Result<(), String> {
    let db = work.join("db");
    let clone = db.join(ADVISORY_DB_FOLDER);
    status(
        Command::new("git")
            .args([
                "-c",
                "init.defaultBranch=main",
                "-c",
                "advice.detachedHead=false",
                "clone",
                "-q",
            ])
            .arg(bundle)
            .arg(&clone),
        "git clone of the advisory bundle",
    )?;
    let snapshot = Command::new("git")
        .arg("-C")
        .arg(&clone)
        .args(["log", "-1", "--format=%H, %cs"])
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_default();
    println!(
        "advisories: github.com unreachable; using the RustSec snapshot {} (commit {snapshot})",
        bundle.display()
    );
    let config =
        std::fs::read_to_string("deny.toml").map_err(|error| format!("deny.toml: {error}"))?;
    if !config.contains("\n[advisories]\n") {
        return Err("deny.toml has no [advisories] table".to_owned());
    }
    let config = config.replacen(
        "\n[advisories]\n",
        &format!("\n[advisories]\ndb-path = {:?}\n", db.to_string_lossy()),
        1,
    );
    let offline = work.join("deny.toml");
    std::fs::write(&offline, config).map_err(|error| format!("{}: {error}", offline.display()))?;
    let offline = offline.to_string_lossy().into_owned();
    cargo(&[
        "deny",
        "--log-level",
        "error",
        "--offline",
        "--config",
        &offline,
        "check",
        "advisories",
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_q_values_come_back_whole() {
        assert_eq!(unquote(r"/w/a\ b/model.gguf"), "/w/a b/model.gguf");
        assert_eq!(unquote("/plain/path"), "/plain/path");
    }

    #[test]
    fn every_step_has_its_own_name() {
        let names: BTreeSet<&str> = CHECKS.iter().chain(TESTS).map(|step| step.name).collect();
        assert_eq!(names.len(), CHECKS.len() + TESTS.len());
    }

    #[test]
    fn only_runs_the_steps_it_names() {
        let args = |list: &[&str]| list.iter().map(|arg| (*arg).to_owned()).collect::<Vec<_>>();
        let skip = skipped(TESTS, &args(&["--only", "clients,nvim"])).unwrap();
        let ran: Vec<&str> = TESTS
            .iter()
            .map(|step| step.name)
            .filter(|name| !skip.contains(*name))
            .collect();
        assert_eq!(ran, ["clients", "nvim"]);
        let skip = skipped(
            TESTS,
            &args(&["--only=clients", "--only", "rust", "--skip=rust"]),
        )
        .unwrap();
        assert_eq!(skip.len(), TESTS.len() - 1);
        assert!(!skip.contains("clients"));
        let all = [CHECKS, TESTS].concat();
        let skip = skipped(&all, &args(&["--only", "integrations"])).unwrap();
        assert_eq!(skip.len(), all.len() - 1);
        assert!(skipped(TESTS, &args(&["--only", "nope"])).is_err());
        assert!(skipped(TESTS, &args(&["--only", "fmt"])).is_err());
        assert!(skipped(TESTS, &args(&["--only"])).is_err());
        assert!(skipped(TESTS, &args(&["--also", "rust"])).is_err());
    }

    #[test]
    fn skipping_an_unknown_step_is_an_error() {
        let args = |list: &[&str]| list.iter().map(|arg| (*arg).to_owned()).collect::<Vec<_>>();
        assert!(skipped(TESTS, &args(&["--skip", "nope"])).is_err());
        let skip = skipped(
            TESTS,
            &args(&["--skip", "nvim,vscode", "--skip=real-model"]),
        )
        .unwrap();
        assert_eq!(
            skip.into_iter().collect::<Vec<_>>(),
            ["nvim", "real-model", "vscode"]
        );
    }
}
