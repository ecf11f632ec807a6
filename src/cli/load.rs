//! `skill-lsp load NAME`: what `load_skill(NAME)` returns.

use std::path::Path;

use super::{EXIT_FINDINGS, EXIT_TROUBLE, error_line, write_stdout};
use crate::targets::ClientSet;
use crate::workspace::{Disk, Workspace};

pub(super) fn run(name: &str, root: Option<&Path>) -> u8 {
    let workspace = match Workspace::open(root.unwrap_or(Path::new("."))) {
        Ok(workspace) => workspace,
        Err(error) => {
            error_line(&error.to_string());
            return EXIT_TROUBLE;
        }
    };
    let registry = workspace.registry(&Disk, ClientSet::NONE);
    match registry.load(name, &Disk) {
        Ok(content) => {
            write_stdout(&content);
            0
        }
        Err(message) => {
            super::stderr_line(&message);
            EXIT_FINDINGS
        }
    }
}
