//! The `skill-lsp` binary: parse arguments and hand over to `skill_lsp::cli`.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match skill_lsp::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            // Help and version are not failures; usage errors exit 2 (design.md §2).
            return if error.use_stderr() {
                ExitCode::from(skill_lsp::cli::EXIT_TROUBLE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    skill_lsp::cli::run(cli)
}
