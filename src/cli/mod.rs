//! The command line (design.md §2): argument definitions and dispatch. Each subcommand is a
//! function that calls the core and a formatter and returns an exit code.

mod catalog;
mod chat;
mod check;
mod check_run;
mod eval;
mod explain;
mod fix;
pub(crate) mod format;
mod load;
mod rules;
mod spool;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit code for findings that fail the run.
pub(crate) const EXIT_FINDINGS: u8 = 1;
/// Exit code for usage, config or I/O trouble.
pub const EXIT_TROUBLE: u8 = 2;

use crate::VERSION;

#[derive(Parser, Debug)]
#[command(
    name = "skill-lsp",
    version = VERSION,
    about = "Lint, author and run Agent Skills (SKILL.md): a linter, a language server and a catalog-first agent",
    after_help = "With no command, skill-lsp starts the language server on stdio."
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Start the language server on stdio (the default with no command).
    Serve {
        /// Talk over stdin/stdout (the only transport; accepted for editors that pass it).
        #[arg(long)]
        stdio: bool,
    },
    /// Lint SKILL.md files: PATHs may be SKILL.md files, skill folders or any folders to search.
    Check(CheckArgs),
    /// Print the catalog exactly as the agent's system prompt gets it.
    Catalog(CatalogArgs),
    /// Why is a skill invisible? What each client does with it: the root it is read from,
    /// whether it is listed and with which text, who can invoke it.
    Explain(ExplainArgs),
    /// Print what load_skill(NAME) returns.
    Load {
        /// The skill's name.
        name: String,
        /// The workspace or skills root to load from (default: the current folder).
        #[arg(long)]
        root: Option<PathBuf>,
    },
    /// Run the catalog-first agent in the terminal: one PROMPT, or a REPL without one.
    Chat(ChatArgs),
    /// Trigger evals: does each query of a skill's eval set (evals/triggers.json, …) make the model load the skill?
    Eval(eval::EvalArgs),
    /// Print a shell completion script: bash, zsh, fish, elvish or powershell.
    Completions { shell: clap_complete::Shell },
    /// Print the man page (roff) for skill-lsp(1).
    Man,
    /// List the rules, or explain one.
    Rules {
        /// A rule id such as `unquoted-colon`.
        rule: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CheckFormat {
    Human,
    /// One line per finding: `path:line:column: severity[rule] message`, `[*]` when `--fix`
    /// applies its fix.
    Concise,
    Json,
    Github,
    Sarif,
}

/// The extra checks `claude plugin validate --profile` selects, for plugin manifests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PluginProfile {
    /// What the plugin directory requires of a submission: a README and a license.
    Directory,
}

#[derive(clap::Args, Debug)]
pub(crate) struct CheckArgs {
    /// Files or folders to check (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
    pub format: CheckFormat,
    /// Check for this target (repeatable): agentskills, claude-upload, claude-code, codex, copilot, opencode, gemini.
    #[arg(long = "target", value_name = "T")]
    pub targets: Vec<String>,
    /// Apply the safe fixes in place, then report what is left.
    #[arg(long)]
    pub fix: bool,
    /// Fail on warnings too.
    #[arg(long)]
    pub strict: bool,
    /// Leave out paths matching this gitignore-style pattern, relative to the current folder
    /// (repeatable; added to the config's `exclude` and `extend-exclude`).
    #[arg(long, value_name = "PATTERN")]
    pub exclude: Vec<String>,
    /// Print how many findings each rule made (and how many `--fix` would fix) instead of the
    /// findings themselves.
    #[arg(long)]
    pub statistics: bool,
    /// Use this config file instead of looking for skill-lsp.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read one SKILL.md from standard input instead of PATHs (for editors and pipes).
    #[arg(long, conflicts_with_all = ["fix", "paths"])]
    pub stdin: bool,
    /// With --stdin: the path the text belongs to (for its folder, targets and links).
    #[arg(long, value_name = "PATH", requires = "stdin")]
    pub(crate) stdin_filename: Option<PathBuf>,
    /// Context window in tokens, for `catalog-budget` (default: each client's default).
    #[arg(long, value_name = "N")]
    pub(crate) context_window: Option<u64>,
    /// Plugin manifests: also run the checks of `claude plugin validate --profile P`.
    #[arg(long, value_enum, value_name = "P")]
    pub(crate) profile: Option<PluginProfile>,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ChatArgs {
    /// What to ask; without it, a REPL.
    pub prompt: Option<String>,
    /// The workspace (default: the current folder).
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// The model id (default: MODEL_ID, then `[agent] model` of skill-lsp.toml).
    #[arg(long)]
    pub model: Option<String>,
    /// Stop after this many model calls in one turn (default 30).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u32>,
    /// The most tokens one model reply may use (default: SKILL_LSP_MAX_TOKENS, then
    /// `[agent] max-tokens` of skill-lsp.toml, then 8192).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_tokens: Option<u32>,
    /// Approve these kinds of tool calls without asking: bash, write, unsafe-skill (load a
    /// skill in which the security rules find an error).
    #[arg(long, value_name = "KINDS")]
    pub allow: Option<String>,
    /// Write the transcript as JSON lines instead of streaming text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CatalogFormat {
    Text,
    Xml,
    Json,
}

#[derive(clap::Args, Debug)]
pub(crate) struct CatalogArgs {
    /// Workspaces or skills roots (default: the current folder).
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = CatalogFormat::Text)]
    pub format: CatalogFormat,
    /// Show the listing as this client would send it (its budget applied).
    #[arg(long, value_name = "T")]
    pub target: Option<String>,
    /// The model's context window in tokens, for the client's listing budget.
    #[arg(long, value_name = "N")]
    pub(crate) context_window: Option<u64>,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ExplainArgs {
    /// The skill: its name, its folder, or the name a client lists it under.
    pub name: String,
    /// The workspace (default: the current folder).
    #[arg(long)]
    pub root: Option<PathBuf>,
    /// Only these clients (repeatable or comma-separated; default: every client).
    #[arg(long, value_name = "T")]
    pub target: Vec<String>,
    /// The model's context window in tokens, for the client's listing budget.
    #[arg(long, value_name = "N")]
    pub(crate) context_window: Option<u64>,
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    pub format: ExplainFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExplainFormat {
    Text,
    Json,
}

/// Runs the command line; `main` only maps the result to the process exit code.
#[must_use]
pub fn run(cli: Cli) -> ExitCode {
    let code = match cli.command {
        None | Some(Command::Serve { .. }) => serve(),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Catalog(args)) => catalog::run(&args),
        Some(Command::Explain(args)) => explain::run(&args),
        Some(Command::Load { name, root }) => load::run(&name, root.as_deref()),
        Some(Command::Chat(args)) => chat::run(&args),
        Some(Command::Eval(args)) => eval::run(&args),
        Some(Command::Rules { rule }) => rules::run(rule.as_deref()),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "skill-lsp",
                &mut out,
            );
            write_stdout(&String::from_utf8_lossy(&out));
            0
        }
        Some(Command::Man) => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(&mut out) {
                Ok(()) => {
                    write_stdout(&String::from_utf8_lossy(&out));
                    0
                }
                Err(error) => {
                    error_line(&format!("cannot render the man page: {error}"));
                    EXIT_TROUBLE
                }
            }
        }
    };
    ExitCode::from(code)
}

fn serve() -> u8 {
    crate::lsp::run()
}

/// Prints `error: {message}` on stderr.
pub(crate) fn error_line(message: &str) {
    stderr_line(&format!("skill-lsp: error: {message}"));
}

/// A warning on stderr, one line as [`error_line`] writes it.
pub(crate) fn warning_line(message: &str) {
    stderr_line(&format!("skill-lsp: warning: {message}"));
}

/// One line on stderr, whatever file text it quotes: a path or a name with a line break or an
/// escape sequence in it is shown escaped, so it cannot redraw the terminal or start a line of
/// its own (one a CI runner would read as a workflow command).
pub(crate) fn stderr_line(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", crate::text::visible(line));
}

/// The runtime of the commands that talk to a model (`chat`, `eval`); `None` after saying
/// why it could not start. One thread: the work is waiting on the network, and worker threads
/// only add wake-ups (an eval of 36 runs made 2,000 context switches on two workers, 240 on one,
/// for half the CPU time).
fn model_runtime() -> Option<tokio::runtime::Runtime> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    if runtime.is_err() {
        error_line("cannot start the async runtime");
    }
    runtime.ok()
}

/// Writes to stdout, ignoring a closed pipe (`skill-lsp check | head`).
pub(crate) fn write_stdout(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// Parses `--target` values.
pub(crate) fn parse_targets(ids: &[String]) -> Result<Vec<crate::targets::Client>, String> {
    ids.iter()
        .flat_map(|id| id.split(','))
        .map(|id| {
            crate::targets::Client::parse(id.trim()).ok_or_else(|| {
                format!(
                    "unknown target '{id}'; expected one of: {}",
                    crate::targets::ALL_CLIENTS
                        .map(crate::targets::Client::id)
                        .join(", ")
                )
            })
        })
        .collect()
}

/// A path as the user would type it: without a leading `./`, and relative to the current
/// folder when it is an absolute path inside it (resolved once per run).
pub(crate) fn display_path(path: &std::path::Path) -> std::path::PathBuf {
    static CURRENT: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    if path.is_relative() {
        return path
            .strip_prefix(".")
            .map_or_else(|_| path.to_path_buf(), std::path::Path::to_path_buf);
    }
    let current =
        CURRENT.get_or_init(|| std::env::current_dir().and_then(std::fs::canonicalize).ok());
    current
        .as_deref()
        .and_then(|current| path.strip_prefix(current).ok())
        .filter(|relative| !relative.as_os_str().is_empty())
        .map_or_else(|| path.to_path_buf(), std::path::Path::to_path_buf)
}
