//! `skill-lsp eval`: trigger evals from the command line — which skills and eval sets, the
//! provider, a progress bar, the human/JSON/JUnit formats and the exit code. The measurement is
//! `crate::agent::eval`.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::ValueEnum;

use super::display_path;
use super::{EXIT_FINDINGS, EXIT_TROUBLE, error_line, warning_line, write_stdout};
use crate::agent::eval::cache::cache_dir;
use crate::agent::eval::estimate::Estimate;
use crate::agent::eval::report::Verdict;
use crate::agent::eval::route::{ROUTING_MAX_TOKENS, routing_max_tokens};
use crate::agent::eval::run::{DEFAULT_JOBS, DEFAULT_MAX_TURNS, DEFAULT_RUNS, DEFAULT_THRESHOLD};
use crate::agent::eval::set;
use crate::agent::eval::target::Target;
use crate::agent::eval::{
    EvalError, EvalOptions, EvalReport, Evaluator, Progress, QueryResult, SkillReport,
    SkillUnderTest,
};
use crate::agent::provider;
use crate::config::Price;
use crate::targets::{Client, ClientSet};
use crate::text::thousands;
use crate::workspace::Workspace;
use crate::workspace::loader::{fs_path, workspace_of_skill};
use crate::workspace::open::{SkillRef, find_skill, skills_under};
use crate::workspace::{Disk, Registry};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum EvalFormat {
    Human,
    Json,
    Junit,
}

#[derive(clap::Args, Debug)]
pub(crate) struct EvalArgs {
    /// Skills to evaluate: names, skill folders or SKILL.md paths; another folder stands for the
    /// skills under it with a trigger eval set (default: every skill of the workspace with one).
    #[arg(value_name = "SKILL_OR_PATH")]
    pub skills: Vec<String>,
    /// The workspace whose catalog the model sees (default: the workspace of the first skill
    /// path given, else the current folder).
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// Use this eval set instead of the skill's own (evals/triggers.json, else the first of
    /// evals/eval_queries.json, evals/trigger/eval_queries.json, evals/trigger-eval.json,
    /// evals/eval_set.json, eval_set.json, eval_queries.json in its folder; one skill must be
    /// named).
    #[arg(long, value_name = "FILE")]
    pub eval_set: Option<PathBuf>,
    /// Runs per query, or `auto`: 3, then one more at a time for each query whose 95 %
    /// interval still straddles the threshold, up to 10.
    #[arg(long, value_name = "N|auto", default_value = "3", value_parser = parse_runs)]
    pub runs: Runs,
    /// The trigger rate a should-trigger query must reach (and a should-not-trigger query stay
    /// below) to pass.
    #[arg(long, value_name = "T", default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f64,
    /// Model calls in flight at once.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_JOBS)]
    pub jobs: usize,
    /// Model calls per run. A run triggers when the model loads the skill within them; its
    /// other calls are answered from a read-only view of the workspace (files listed and read
    /// for real, commands and writes refused) and it goes on, as in a chat.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TURNS)]
    pub max_turns: u32,
    /// Count only the model's first tool call (one model call per run, the cheapest mode):
    /// looking around first is a miss.
    #[arg(long, conflicts_with = "max_turns")]
    pub first_call_only: bool,
    /// The most tokens one routing request may use (default: 1024, or SKILL_LSP_MAX_TOKENS /
    /// `[agent] max-tokens` of skill-lsp.toml where lower). A run that reaches it before any tool
    /// call counts as not triggered, with a warning.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_tokens: Option<u32>,
    /// Evaluate this description for the (single) skill under test instead of its file's.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
    /// The model id (default: MODEL_ID, then `[agent] model` of skill-lsp.toml).
    #[arg(long)]
    pub model: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Human)]
    pub format: EvalFormat,
    /// Send every run again instead of using cached results (the new results are cached).
    #[arg(long)]
    pub no_cache: bool,
    /// The most model requests to send: a hard cap. The eval stops there and reports the
    /// queries with the runs they have; the runs made are cached, so running again goes on.
    #[arg(long, value_name = "N")]
    pub max_requests: Option<u64>,
    /// Send nothing: print how many runs and requests the eval would make, and an estimate of
    /// their tokens (and cost, with `[agent.price]` in skill-lsp.toml).
    #[arg(long, conflicts_with = "improve")]
    pub dry_run: bool,
    /// Rewrite the (single) skill's description until its evals pass: the queries are split
    /// 60/40 into train and test, the model rewrites from the failing train queries, and the
    /// description with the best test score wins. Prints each try, the best and a diff.
    #[arg(long, conflicts_with = "description")]
    pub improve: bool,
    /// Rewrites `--improve` tries at most.
    #[arg(long, value_name = "N", default_value_t = 5, requires = "improve")]
    pub iterations: u32,
    /// The seed of `--improve`'s train/test split.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "improve")]
    pub seed: u64,
    /// Write `--improve`'s best description into the SKILL.md (when it beats the file's).
    #[arg(long, requires = "improve")]
    pub apply: bool,
    /// Send the catalog as this client lists it (as `catalog --target` prints it): its names,
    /// its cut descriptions, its budget, the skills it leaves out; loads count by the names it
    /// lists. The report says when it cut or dropped the skill under test.
    #[arg(long, value_name = "CLIENT")]
    pub target: Option<String>,
    /// The model's context window in tokens, for `--target`'s listing budget (default: the
    /// client's default).
    #[arg(long, value_name = "N", requires = "target")]
    pub context_window: Option<u64>,
}

/// `--runs`: a number of runs per query, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Runs {
    Fixed(u32),
    Auto,
}

fn parse_runs(text: &str) -> Result<Runs, String> {
    if text == "auto" {
        return Ok(Runs::Auto);
    }
    text.parse::<u32>()
        .map(Runs::Fixed)
        .map_err(|_| format!("expected a number of runs or `auto`, got '{text}'"))
}

pub(super) fn run(args: &EvalArgs) -> u8 {
    let Prepared {
        workspace,
        registry,
        config_model,
        config_max_tokens,
        price,
        under_test,
        target,
    } = match prepare(args) {
        Ok(prepared) => prepared,
        Err(messages) => {
            for message in messages {
                error_line(&message);
            }
            return EXIT_TROUBLE;
        }
    };
    let provider = match provider::from_env(
        &|name| std::env::var(name).ok(),
        args.model.as_deref(),
        config_model.as_deref(),
    ) {
        Ok(provider) => provider,
        Err(error) => {
            error_line(&error.to_string());
            return EXIT_TROUBLE;
        }
    };
    let env = |name: &str| std::env::var(name).ok();
    let max_tokens = match routing_max_tokens(&env, args.max_tokens, config_max_tokens) {
        Ok(tokens) => tokens,
        Err(message) => {
            error_line(&message);
            return EXIT_TROUBLE;
        }
    };
    let options = measuring(args, Some(cache_dir(&workspace)), max_tokens);
    let evaluator = Evaluator {
        provider: Arc::from(provider),
        workspace,
        registry,
        target,
    };
    if args.dry_run {
        let estimate = match (args.improve, under_test.as_slice()) {
            (true, [tested]) => evaluator.estimate_improve(tested, &options, args.iterations),
            _ => evaluator.estimate(&under_test, &options),
        };
        return match estimate {
            Ok(estimate) => {
                let model = evaluator.provider.model().to_owned();
                write_stdout(&match args.format {
                    EvalFormat::Json => format!("{:#}\n", estimate.json(&model, price.as_ref())),
                    EvalFormat::Human | EvalFormat::Junit => {
                        dry_run_human(&estimate, &model, price.as_ref())
                    }
                });
                0
            }
            Err(error) => {
                error_line(&error.to_string());
                EXIT_TROUBLE
            }
        };
    }
    if args.improve {
        return improve(args, &evaluator, &under_test, &options);
    }
    let Some(result) =
        measure(async |on_progress| evaluator.run(&under_test, &options, on_progress).await)
    else {
        return EXIT_TROUBLE;
    };
    let report = match finished(result) {
        Ok(report) => report,
        Err(code) => return code,
    };
    for warning in &report.warnings {
        warning_line(warning);
    }
    let output = match args.format {
        EvalFormat::Human => human(&report, super::format::human::use_colour()),
        EvalFormat::Json => json_report(&report),
        EvalFormat::Junit => junit(&report),
    };
    write_stdout(&output);
    if report.passed() { 0 } else { EXIT_FINDINGS }
}

/// Runs `work` on the model runtime, with a progress bar when stderr is a terminal: `None`
/// when the runtime cannot start (said already), `Some(None)` when Ctrl-C stopped it.
fn measure<T>(work: impl AsyncFnOnce(&mut (dyn FnMut(Progress) + Send)) -> T) -> Option<Option<T>> {
    let runtime = super::model_runtime()?;
    let show_progress = std::io::stderr().is_terminal();
    let mut on_progress = |progress: Progress| {
        if show_progress {
            draw_progress(progress);
        }
    };
    let result = runtime.block_on(async {
        tokio::select! {
            result = work(&mut on_progress) => Some(result),
            _ = tokio::signal::ctrl_c() => None,
        }
    });
    runtime.shutdown_background();
    if show_progress {
        let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
    }
    Some(result)
}

/// What a measurement ended with, or the exit code once its trouble is said: Ctrl-C, a model
/// call that failed (the runs before it are cached), or a setup error.
fn finished<T>(result: Option<Result<T, EvalError>>) -> Result<T, u8> {
    match result {
        None => {
            error_line("cancelled; the runs that finished are cached");
            Err(130)
        }
        Some(Err(error @ EvalError::Provider { .. })) => {
            error_line(&format!(
                "{error} (the runs that finished are cached; run again to go on)"
            ));
            Err(EXIT_TROUBLE)
        }
        Some(Err(error)) => {
            error_line(&error.to_string());
            Err(EXIT_TROUBLE)
        }
        Some(Ok(value)) => Ok(value),
    }
}

/// `--improve`: the loop for the one skill under test, its report, and `--apply`.
fn improve(
    args: &EvalArgs,
    evaluator: &Evaluator,
    under_test: &[SkillUnderTest],
    options: &EvalOptions,
) -> u8 {
    let [tested] = under_test else {
        error_line("--improve rewrites one skill's description: name the skill");
        return EXIT_TROUBLE;
    };
    let Some(skill) = evaluator.registry.get(&tested.skill).cloned() else {
        error_line(&format!("no skill named '{}'", tested.skill));
        return EXIT_TROUBLE;
    };
    let Some(result) = measure(async |on_progress| {
        evaluator
            .improve(tested, options, args.iterations, args.seed, on_progress)
            .await
    }) else {
        return EXIT_TROUBLE;
    };
    let improvement = match finished(result) {
        Ok(improvement) => improvement,
        Err(code) => return code,
    };
    for warning in &improvement.warnings {
        warning_line(warning);
    }
    let path = display_path(&skill.path).display().to_string();
    let mut applied = false;
    if args.apply && improvement.best > 0 {
        // Through the one safe writer: a save made while the loop ran is never reverted.
        let roots = crate::workspace::read::Roots::new(std::slice::from_ref(&skill.path));
        let written = crate::workspace::write::hold(&skill.path, &roots).map(|held| {
            std::str::from_utf8(&held.bytes)
                .ok()
                .and_then(|text| {
                    crate::rules::fix::with_description(text, &improvement.best().description)
                })
                .map(|text| held.replace(text.as_bytes()))
        });
        match written.and_then(Option::transpose) {
            Ok(Some(())) => applied = true,
            Err(error) => {
                error_line(&format!("{path}: cannot write the description: {error}"));
                return EXIT_TROUBLE;
            }
            Ok(None) => {
                error_line(&format!(
                    "{path}: the description could not be replaced safely; the file is unchanged"
                ));
                return EXIT_TROUBLE;
            }
        }
    }
    let output = match args.format {
        EvalFormat::Json => {
            let mut value = improvement.json();
            value["path"] = path.clone().into();
            value["applied"] = applied.into();
            format!("{value:#}\n")
        }
        EvalFormat::Human | EvalFormat::Junit => {
            improve_human(&improvement, &path, applied, args.apply)
        }
    };
    write_stdout(&output);
    0
}

fn improve_human(
    improvement: &crate::agent::eval::improve::Improvement,
    path: &str,
    applied: bool,
    asked_to_apply: bool,
) -> String {
    let mut out = String::new();
    let first = &improvement.iterations[0];
    let _ = writeln!(
        out,
        "improve {}: {} train and {} test queries (seed {})",
        improvement.skill, first.train_total, first.test_total, improvement.split.seed
    );
    let _ = writeln!(out, "   #  train  test   description");
    for (i, iteration) in improvement.iterations.iter().enumerate() {
        let mark = match (i, i == improvement.best) {
            (0, true) => "  (the file's; best)",
            (0, false) => "  (the file's)",
            (_, true) => "  ← best",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  {i:>2}  {:>5}  {:>5}  {}{mark}",
            format!("{}/{}", iteration.train_passed, iteration.train_total),
            format!("{}/{}", iteration.test_passed, iteration.test_total),
            short(&iteration.description, 70)
        );
        if let Some(note) = &iteration.target_note {
            let _ = writeln!(out, "                    {note}");
        }
    }
    let best = improvement.best();
    if improvement.best == 0 {
        let _ = writeln!(out, "{}", improvement.summary());
        return out;
    }
    let _ = writeln!(out, "--- {path}: description");
    let _ = writeln!(out, "+++ {}", improvement.summary());
    let _ = writeln!(out, "-{}", first.description);
    let _ = writeln!(out, "+{}", best.description);
    if applied {
        let _ = writeln!(out, "applied: {path}");
    } else if !asked_to_apply {
        let _ = writeln!(out, "run again with --apply to write it into {path}");
    }
    out
}

/// The workspace, its registry, its config's model and the skills under test.
struct Prepared {
    workspace: PathBuf,
    registry: Registry,
    config_model: Option<String>,
    config_max_tokens: Option<u32>,
    price: Option<Price>,
    under_test: Vec<SkillUnderTest>,
    /// `--target`.
    target: Option<Target>,
}

/// The measuring options the flags ask for.
fn measuring(args: &EvalArgs, cache_dir: Option<PathBuf>, max_tokens: u32) -> EvalOptions {
    EvalOptions {
        runs: match args.runs {
            Runs::Fixed(runs) => runs,
            Runs::Auto => DEFAULT_RUNS,
        },
        auto_runs: args.runs == Runs::Auto,
        threshold: args.threshold,
        jobs: args.jobs,
        max_turns: if args.first_call_only {
            1
        } else {
            args.max_turns
        },
        max_tokens,
        cache_dir,
        read_cache: !args.no_cache,
        max_requests: args.max_requests,
    }
}

/// Checks the arguments and finds the workspace, its registry and the skills under test with
/// their eval sets. Every problem found is returned, not only the first.
fn prepare(args: &EvalArgs) -> Result<Prepared, Vec<String>> {
    let mut problems = measuring(args, None, args.max_tokens.unwrap_or(ROUTING_MAX_TOKENS))
        .problems(|name| format!("--{name}"));
    if args
        .description
        .as_deref()
        .is_some_and(|text| text.trim().is_empty())
    {
        problems.push("--description is empty".to_owned());
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let client = match args.target.as_deref().map(target_of).transpose() {
        Ok(client) => client,
        Err(message) => return Err(vec![message]),
    };
    let workspace = match &args.root {
        Some(root) => root.clone(),
        None => args
            .skills
            .iter()
            .map(Path::new)
            .find(|path| path.exists())
            .and_then(|path| {
                let file = if path.is_dir() {
                    path.join("SKILL.md")
                } else {
                    path.to_path_buf()
                };
                // A folder of skills (or a workspace) given alone is the workspace itself.
                if path.is_dir() && !file.is_file() {
                    return Some(path.to_path_buf());
                }
                workspace_of_skill(&file)
            })
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    let opened = Workspace::open_resolved(&workspace).map_err(|error| vec![error.to_string()])?;
    // The target's readings only: its listing reads them, nothing else does.
    let registry = opened.registry(&Disk, ClientSet::of(client));
    let target = client.map(|client| Target {
        client,
        context_window: args.context_window,
    });
    let Workspace {
        folder: workspace,
        config,
    } = opened;

    // The skills under test, in the order given (or catalog order).
    let mut names: Vec<String> = Vec::new();
    for arg in &args.skills {
        match resolve(arg, &workspace, &registry) {
            Ok(found) => {
                for name in found {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            Err(message) => problems.push(message),
        }
    }
    let all = args.skills.is_empty();
    if all {
        if args.eval_set.is_some() {
            problems.push("--eval-set needs the skill it is for: name one skill".to_owned());
        }
        names = registry
            .skills
            .iter()
            .filter(|skill| set::find_set(&skill.path, &is_file).is_some())
            .map(|skill| skill.name.clone())
            .collect();
        if names.is_empty() && problems.is_empty() {
            problems.push(no_set_anywhere(&workspace, "", registry.skills.iter()));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if args.eval_set.is_some() && names.len() != 1 {
        problems.push("--eval-set needs exactly one skill".to_owned());
    }
    if args.description.is_some() && names.len() != 1 {
        problems.push(format!(
            "--description is for one skill, but {} are under test ({}); name one",
            names.len(),
            names.join(", ")
        ));
    }
    let mut under_test = Vec::new();
    for name in names {
        let Some(skill) = registry.get(&name) else {
            continue;
        };
        let path = match &args.eval_set {
            Some(path) => path.clone(),
            None => match set::find_set(&display_path(&skill.path), &is_file) {
                Some(found) => {
                    if let Some(warning) = found.shadow_warning(&name) {
                        warning_line(&warning);
                    }
                    found.path
                }
                None => {
                    let dir = display_path(skill.path.parent().unwrap_or(Path::new("")));
                    problems.push(format!(
                        "{}; write one there or pass --eval-set FILE",
                        set::no_set_message(&dir, &name, &is_file)
                    ));
                    continue;
                }
            },
        };
        match set::load(&path) {
            Ok(set) => under_test.push(SkillUnderTest {
                skill: name,
                description: args.description.clone(),
                set,
            }),
            Err(error) => problems.push(error.to_string()),
        }
    }
    if problems.is_empty() {
        Ok(Prepared {
            workspace,
            registry,
            config_model: config.agent.model,
            config_max_tokens: config.agent.max_tokens,
            price: config.agent.price,
            under_test,
            target,
        })
    } else {
        Err(problems)
    }
}

/// `--target`'s client, spelt as `catalog --target` spells it: one that lists skills to a model.
fn target_of(id: &str) -> Result<Client, String> {
    crate::agent::eval::target::parse(id).map_err(|message| format!("--target: {message}"))
}

/// A skill argument: a skill name, a skill folder or SKILL.md of the workspace, or any other
/// folder, which stands for the skills under it that have an eval set.
fn resolve(arg: &str, workspace: &Path, registry: &Registry) -> Result<Vec<String>, String> {
    let path = Path::new(arg);
    if !path.exists() {
        return find_skill(registry, SkillRef::Name(arg), workspace)
            .map(|skill| vec![skill.name.clone()])
            .map_err(|error| error.to_string());
    }
    match find_skill(registry, SkillRef::Path(path), workspace) {
        Ok(skill) => return Ok(vec![skill.name.clone()]),
        Err(error) if !path.is_dir() || fs_path(path).join("SKILL.md").is_file() => {
            return Err(format!("{error} (pass --root to choose the workspace)"));
        }
        Err(_) => {}
    }
    let skills = skills_under(registry, path);
    let under: Vec<String> = skills
        .iter()
        .filter(|skill| set::find_set(&skill.path, &is_file).is_some())
        .map(|skill| skill.name.clone())
        .collect();
    if under.is_empty() {
        return Err(format!(
            "{arg}: {}",
            no_set_anywhere(workspace, " under it", skills.into_iter())
        ));
    }
    Ok(under)
}

/// Whether a file is there: the CLI's view of the candidates of `set::find_set`.
fn is_file(path: &Path) -> bool {
    path.is_file()
}

/// Why no skill of `skills` (those of `workspace`, or under an argument) can be measured: the
/// names looked for, and how many have output evals only, which are not run yet.
fn no_set_anywhere<'a>(
    workspace: &Path,
    under: &str,
    skills: impl Iterator<Item = &'a crate::workspace::Skill>,
) -> String {
    let output_only = skills
        .filter(|skill| {
            skill
                .path
                .parent()
                .is_some_and(|dir| dir.join(set::OUTPUT_EVALS_FILE).is_file())
        })
        .count();
    let mut message = format!(
        "no skill of the workspace {}{under} has an eval set (trigger evals: looked for {} in each skill folder)",
        workspace.display(),
        set::searched()
    );
    if output_only > 0 {
        message.push_str(&format!(
            "; {output_only} {} only output evals ({}: prompts and expected outputs), which skill-lsp does not run yet",
            if output_only == 1 { "has" } else { "have" },
            set::OUTPUT_EVALS_FILE
        ));
    }
    message.push_str(
        "; write a set (see docs/schemas/triggers.schema.json) or name a skill and pass --eval-set FILE",
    );
    message
}

fn draw_progress(progress: Progress) {
    const WIDTH: usize = 30;
    let filled = (progress.done * WIDTH)
        .checked_div(progress.total)
        .unwrap_or(WIDTH);
    let bar: String = "#".repeat(filled) + &".".repeat(WIDTH - filled);
    let mut line = format!(
        "\r\x1b[2Keval [{bar}] {}/{} runs ({} cached)",
        progress.done, progress.total, progress.cached
    );
    if let Some(round) = progress.round {
        line = if round.rewriting {
            format!("\r\x1b[2Kimprove: {}", round.label())
        } else {
            format!("{line}, {}", round.label())
        };
    }
    let _ = write!(std::io::stderr().lock(), "{line}");
    let _ = std::io::stderr().flush();
}

/// The query on one line, shortened for the table.
fn short(text: &str, max: usize) -> String {
    let line = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if line.chars().count() <= max {
        line
    } else {
        let mut cut: String = line.chars().take(max - 1).collect();
        cut.push('…');
        cut
    }
}

fn ratio(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_owned(), |it| format!("{it:.2}"))
}

/// `0.83 [0.44–0.97]`: a rate and its 95 % Wilson interval.
fn with_interval(value: Option<f64>, interval: Option<[f64; 2]>) -> String {
    match (value, interval) {
        (Some(value), Some([low, high])) => format!("{value:.2} [{low:.2}–{high:.2}]"),
        (value, _) => ratio(value),
    }
}

/// What `--dry-run` prints: the runs, requests and tokens the eval would send, and their cost
/// at `price`, each as the least (every run loads or answers at its first call) and the most
/// (every run takes all its turns).
fn dry_run_human(estimate: &Estimate, model: &str, price: Option<&Price>) -> String {
    let mut out = String::new();
    let range = crate::agent::eval::estimate::range;
    let _ = writeln!(out, "dry run: nothing was sent to {model}");
    for note in &estimate.target_notes {
        let _ = writeln!(out, "  {note}");
    }
    let _ = writeln!(
        out,
        "  runs: {} ({} answered by the cache)",
        thousands(estimate.runs as u64),
        thousands(estimate.cached_runs as u64)
    );
    let _ = writeln!(
        out,
        "  requests: {} (one per run when the model decides at once; up to {} turns each)",
        range(estimate.requests, estimate.requests_at_most),
        estimate.max_turns
    );
    let _ = writeln!(
        out,
        "  input tokens: about {}",
        range(estimate.input_tokens, estimate.input_tokens_at_most)
    );
    let _ = writeln!(
        out,
        "  output tokens: about {}",
        range(estimate.output_tokens, estimate.output_tokens_at_most)
    );
    if let Some(price) = price {
        let (least, most) = estimate.cost(price);
        // Cents hide a small eval's cost: below one unit, four decimals.
        let shown = crate::agent::eval::estimate::money_range(least, most, &price.currency);
        let _ = writeln!(
            out,
            "  cost: about {shown} (at {} {cur} input and {} {cur} output per million tokens, [agent.price])",
            price.input,
            price.output,
            cur = price.currency
        );
    }
    let calibration = &estimate.calibration;
    if calibration.runs == 0 {
        let _ = writeln!(
            out,
            "  tokens are rough (3.5 bytes a token): no earlier run of {model} in the cache to measure them on"
        );
    } else {
        let _ = writeln!(
            out,
            "  tokens measured on {} earlier run{} of {model}",
            thousands(calibration.runs),
            if calibration.runs == 1 { "" } else { "s" }
        );
    }
    out
}

fn human(report: &EvalReport, colour: bool) -> String {
    let paint = |code: &str, text: &str| {
        if colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    };
    let mut out = String::new();
    for skill in &report.skills {
        let _ = writeln!(
            out,
            "{}  {}",
            paint("1", &skill.skill_name),
            skill.eval_set.display()
        );
        if skill.candidate {
            let _ = writeln!(
                out,
                "  candidate description: {}",
                short(&skill.description, 200)
            );
        }
        if let Some(target) = &skill.target {
            // What the client did with the skill decides what the model could do with it.
            let line = match (&target.note, &target.listed_as) {
                (Some(note), _) => paint("33", note),
                (None, Some(name)) => paint(
                    "2",
                    &format!(
                        "{} lists it as '{name}', its description whole",
                        target.measured_with.as_deref().unwrap_or(target.client)
                    ),
                ),
                (None, None) => String::new(),
            };
            if !line.is_empty() {
                let _ = writeln!(out, "  {line}");
            }
        }
        for result in &skill.results {
            // An interval across the threshold decides nothing: say so rather than pass/FAIL.
            let verdict = match (result.verdict, result.pass) {
                (Verdict::Undecided, true) => paint("33", "pass?"),
                (Verdict::Undecided, false) => paint("33", "FAIL?"),
                (_, true) => paint("32", "pass "),
                (_, false) => paint("1;31", "FAIL "),
            };
            let expect = if result.should_trigger {
                "trigger"
            } else {
                "no     "
            };
            let _ = write!(
                out,
                "  {verdict}  {:>5}  {expect}  {}",
                format!("{}/{}", result.triggers, result.runs),
                short(&result.query, 72)
            );
            let instead = instead_text(result);
            if !instead.is_empty() {
                // Where a should-trigger query went instead matters; for the others it is a note.
                let code = if result.should_trigger { "33" } else { "2" };
                let _ = write!(out, "  {}", paint(code, &format!("→ {instead}")));
            }
            out.push('\n');
        }
        let summary = &skill.summary;
        let _ = writeln!(
            out,
            "  {}/{} passed · precision {} · recall {} · false triggers {}",
            summary.passed,
            summary.total,
            with_interval(summary.precision, summary.precision_interval),
            with_interval(summary.recall, summary.recall_interval),
            with_interval(summary.false_trigger_rate, summary.false_trigger_interval),
        );
        if summary.undecided > 0 {
            let hint = if report.auto_runs {
                "still after 10 runs: their trigger rates sit near the threshold"
            } else {
                "their 95 % intervals straddle the threshold, so more runs could turn them; --runs auto adds runs to those only"
            };
            let _ = writeln!(
                out,
                "  {}",
                paint(
                    "33",
                    &format!(
                        "?: undecided — run more: {} quer{} ({hint})",
                        summary.undecided,
                        if summary.undecided == 1 { "y" } else { "ies" }
                    )
                )
            );
        }
        let positives = skill.results.iter().filter(|it| it.should_trigger).count();
        if positives == skill.results.len() {
            let _ = writeln!(
                out,
                "  {}",
                paint(
                    "2",
                    "note: every query should trigger; add should-not-trigger queries to measure precision"
                )
            );
        } else if positives == 0 {
            let _ = writeln!(
                out,
                "  {}",
                paint(
                    "2",
                    "note: no query should trigger; add should-trigger queries to measure recall"
                )
            );
        }
        for confusion in &skill.confusions {
            let _ = writeln!(
                out,
                "  confusion: \"{}\" → {} ({}/{} runs)",
                short(&confusion.query, 60),
                confusion.skill,
                confusion.runs,
                report.runs_per_query
            );
        }
        out.push('\n');
    }
    let summary = &report.summary;
    let verdict = if report.passed() {
        paint("1;32", "all passed")
    } else {
        paint("1;31", &format!("{} failed", summary.failed))
    };
    let _ = writeln!(
        out,
        "{}/{} queries passed ({verdict}) · {} skill{} · {} runs ({} from the cache, {} model calls) · tokens spent: {} in, {} out{} · {:.1}s · {} {}",
        summary.passed,
        summary.total,
        summary.skills,
        if summary.skills == 1 { "" } else { "s" },
        summary.runs,
        summary.cached_runs,
        summary.requests,
        thousands(summary.input_tokens),
        thousands(summary.output_tokens),
        estimated_note(summary.usage_estimated_runs),
        // Milliseconds as seconds, for the eye.
        summary.elapsed_ms as f64 / 1000.0,
        report.provider,
        report.model,
    );
    out
}

/// ` (3 runs' usage estimated)` after the tokens spent, when the provider did not report every
/// run's usage: their tokens are counted from the bytes sent and received.
fn estimated_note(runs: u32) -> String {
    match runs {
        0 => String::new(),
        1 => " (1 run's usage estimated)".to_owned(),
        runs => format!(" ({runs} runs' usage estimated)"),
    }
}

/// `docx 3/3, bash 1/3`: where the runs went instead of the skill under test.
fn instead_text(result: &QueryResult) -> String {
    let mut parts: Vec<String> = result
        .loaded_instead
        .iter()
        .map(|(name, runs)| format!("loaded {name} {runs}/{}", result.runs))
        .collect();
    if result.should_trigger {
        parts.extend(
            result
                .other_tools
                .iter()
                .map(|(tool, runs)| format!("{tool} first {runs}/{}", result.runs)),
        );
    }
    parts.join(", ")
}

/// One skill: skill-creator's `run_eval.py` object and more; several: `{"skills": [...]}`.
fn json_report(report: &EvalReport) -> String {
    format!("{}\n", report.json_text())
}

fn junit(report: &EvalReport) -> String {
    let seconds = report.summary.elapsed_ms as f64 / 1000.0;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"skill-lsp eval\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{seconds:.3}\">",
        report.summary.total, report.summary.failed
    );
    for skill in &report.skills {
        junit_suite(&mut out, skill, report);
    }
    out.push_str("</testsuites>\n");
    out
}

fn junit_suite(out: &mut String, skill: &SkillReport, report: &EvalReport) {
    let name = crate::text::xml_escape(&skill.skill_name);
    let _ = writeln!(
        out,
        "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">",
        skill.summary.total, skill.summary.failed
    );
    out.push_str("    <properties>\n");
    for (key, value) in [
        ("description", skill.description.clone()),
        ("eval_set", skill.eval_set.display().to_string()),
        ("provider", report.provider.clone()),
        ("model", report.model.clone()),
        ("runs_per_query", report.runs_per_query.to_string()),
        ("threshold", report.threshold.to_string()),
        ("precision", ratio(skill.summary.precision)),
        ("recall", ratio(skill.summary.recall)),
    ] {
        let _ = writeln!(
            out,
            "      <property name=\"{key}\" value=\"{}\"/>",
            crate::text::xml_escape(&value)
        );
    }
    if let Some(target) = &skill.target {
        for (key, value) in [
            ("target", Some(target.client)),
            ("target_note", target.note.as_deref()),
        ] {
            if let Some(value) = value {
                let _ = writeln!(
                    out,
                    "      <property name=\"{key}\" value=\"{}\"/>",
                    crate::text::xml_escape(value)
                );
            }
        }
    }
    out.push_str("    </properties>\n");
    for result in &skill.results {
        let expect = if result.should_trigger {
            "should trigger"
        } else {
            "should not trigger"
        };
        let _ = write!(
            out,
            "    <testcase classname=\"{name}\" name=\"[{expect}] {}\"",
            crate::text::xml_escape(&short(&result.query, 200))
        );
        match result.failure_reason(report.threshold) {
            None => out.push_str("/>\n"),
            Some(reason) => {
                let _ = writeln!(
                    out,
                    ">\n      <failure type=\"trigger\" message=\"{}\">query: {}\ntrigger rate: {}/{}\n{}</failure>\n    </testcase>",
                    crate::text::xml_escape(&reason),
                    crate::text::xml_escape(&result.query),
                    result.triggers,
                    result.runs,
                    crate::text::xml_escape(&instead_text(result)),
                );
            }
        }
    }
    out.push_str("  </testsuite>\n");
}
