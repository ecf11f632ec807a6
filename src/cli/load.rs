//! `skill-lsp load NAME`: what `load_skill(NAME)` returns.

use std::path::Path;

use super::{EXIT_FINDINGS, EXIT_TROUBLE, error_line, write_stdout};
use crate::config::Config;
use crate::targets::TargetSet;
use crate::workspace::loader::roots_for;
use crate::workspace::{Disk, Registry};

pub(super) fn run(name: &str, root: Option<&Path>) -> u8 {
    let root = root.unwrap_or(Path::new("."));
    if !root.is_dir() {
        error_line(&format!("{}: no such folder", root.display()));
        return EXIT_TROUBLE;
    }
    let config = match Config::discover(root) {
        Ok(config) => config,
        Err(error) => {
            error_line(&error.to_string());
            return EXIT_TROUBLE;
        }
    };
    let registry = Registry::scan_for(&roots_for(root, &config.roots), &Disk, TargetSet::NONE);
    match registry.load(name, &Disk) {
        Ok(content) => {
            write_stdout(&content);
            0
        }
        Err(message) => {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr().lock(),
                format!("{message}\n").as_bytes(),
            );
            EXIT_FINDINGS
        }
    }
}
