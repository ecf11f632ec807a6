//! The `clients` step, the client oracles: the real agent clients, each installed from npm at
//! the version pinned in `tests/clients/clients.py`, run offline against a recording model server
//! on 127.0.0.1, and the skill listing each one sends compared with
//! `skill-lsp catalog --target CLIENT` (`tests/clients`).
//!
//! `cargo xtask clients [PYTEST ARGS]` runs it alone, passing the arguments to pytest
//! (`-k codex`, …). The knobs:
//!
//! - `SKILL_LSP_BIN` — the binary when run alone (default: a fresh debug build);
//! - `SKILL_LSP_CLIENTS` — where the clients are installed (default: `.cache/clients`, reused).
//!
//! Needs Node 20 with npm and Python 3; the first install takes a minute or two, later runs
//! reuse every client whose installed version is the pin. Prints a per-client tally of
//! agreements at the end (from `target/oracle-report.jsonl`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::support::{create_dir, exit_code, is_executable, seconds, var, write};
use crate::{Context, json, status};

const PYTEST: &str = "pytest==8.3.4";

pub fn run(context: &Context, bin: &Path, pytest_args: &[String]) -> Result<(), String> {
    let clients = var("SKILL_LSP_CLIENTS")
        .map(|clients| context.path(&clients))
        .unwrap_or_else(|| context.root.join(".cache/clients"));
    install_clients(&context.root, &clients)?;

    let venv = context.root.join("target/clients-venv");
    if !is_executable(&venv.join("bin/pytest")) {
        status(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
        )?;
        status(
            Command::new(venv.join("bin/pip")).args(["install", "--quiet", PYTEST]),
            &format!("pip install {PYTEST}"),
        )?;
    }
    let report = context.root.join("target/oracle-report.jsonl");
    let _ = fs::remove_file(&report);
    let tests = Command::new(venv.join("bin/pytest"))
        .arg("-q")
        .args(pytest_args)
        .current_dir(context.root.join("tests/clients"))
        .env("SKILL_LSP_BIN", bin)
        .env("SKILL_LSP_CLIENTS", &clients)
        .env("SKILL_LSP_ORACLE_REPORT", &report)
        .status()
        .map_err(|error| format!("cannot run pytest: {error}"))?;
    if let Ok(rows) = fs::read_to_string(&report) {
        for line in tally(&rows)? {
            println!("clients: {line}");
        }
    }
    if tests.success() {
        Ok(())
    } else {
        Err(format!(
            "pytest tests/clients exited with {}",
            exit_code(tests)
        ))
    }
}

/// One client as the harness pins it: the folder under the cache, the npm package, the version.
#[derive(Debug, PartialEq)]
struct Pin {
    folder: String,
    package: String,
    version: String,
}

/// Every pinned client installed under `clients`, skipping those already at their pin.
fn install_clients(root: &Path, clients: &Path) -> Result<(), String> {
    // The pins of the clients with oracles, read from the harness: a new release is one edit
    // there.
    let listed = Command::new("python3")
        .args([
            "-c",
            "from clients import CLIENTS, PINS; [print(*PINS[c]) for c in CLIENTS]",
        ])
        .current_dir(root.join("tests/clients"))
        .stderr(Stdio::inherit())
        .output()
        .map_err(|error| format!("cannot run python3: {error}"))?;
    if !listed.status.success() {
        return Err(format!(
            "reading the pins of tests/clients/clients.py exited with {}",
            listed.status
        ));
    }
    let start = Instant::now();
    for pin in pins(&String::from_utf8_lossy(&listed.stdout))? {
        let folder = clients.join(&pin.folder);
        let manifest: PathBuf = folder
            .join("node_modules")
            .join(&pin.package)
            .join("package.json");
        let pinned = format!("\"version\": \"{}\"", pin.version);
        if fs::read_to_string(&manifest).is_ok_and(|text| text.contains(&pinned)) {
            continue;
        }
        let wanted = format!("{}@{}", pin.package, pin.version);
        println!("clients: installing {wanted} into {}", folder.display());
        create_dir(&folder)?;
        write(&folder.join("package.json"), "{\"private\": true}\n")?;
        status(
            Command::new("npm")
                .args([
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    &wanted,
                ])
                .current_dir(&folder)
                .stdout(Stdio::null()),
            &format!("npm install {wanted}"),
        )?;
    }
    println!("clients: clients ready in {} s", seconds(start));
    Ok(())
}

/// The pins as the harness prints them: `FOLDER PACKAGE VERSION` a line.
fn pins(listed: &str) -> Result<Vec<Pin>, String> {
    listed
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                [folder, package, version] => Ok(Pin {
                    folder: folder.to_owned(),
                    package: package.to_owned(),
                    version: version.to_owned(),
                }),
                _ => Err(format!(
                    "a pin that is not FOLDER PACKAGE VERSION: '{line}'"
                )),
            },
        )
        .collect()
}

/// Per client, in name order, the listed lines and how many agree and differ, summed over the
/// report's rows (one per client and scenario).
fn tally(rows: &str) -> Result<Vec<String>, String> {
    #[derive(Default)]
    struct Sum {
        lines: u64,
        agree: u64,
        differ: u64,
        version: String,
    }
    let mut sums: BTreeMap<String, Sum> = BTreeMap::new();
    for row in rows.lines().filter(|line| !line.trim().is_empty()) {
        let row = json::parse(row).map_err(|error| format!("oracle report: {error}: {row}"))?;
        let text = |key: &str| {
            row.get(key)
                .and_then(json::Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format!("oracle report: no string '{key}' in a row"))
        };
        let count = |key: &str| match row.get(key) {
            Some(json::Value::Number(number)) => number
                .parse::<u64>()
                .map_err(|_| format!("oracle report: '{key}' is {number}")),
            _ => Err(format!("oracle report: no number '{key}' in a row")),
        };
        let sum = sums.entry(text("client")?).or_default();
        sum.lines += count("lines")?;
        sum.agree += count("agree")?;
        sum.differ += count("differ")?;
        sum.version = text("version")?;
    }
    Ok(sums
        .into_iter()
        .map(|(client, sum)| {
            format!(
                "{client} {}: {} listed lines, {} agree, {} differ",
                sum.version, sum.lines, sum.agree, sum.differ
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_are_read_a_line_each() {
        let read =
            pins("claude @anthropic-ai/claude-code 2.1.328\n\ncodex @openai/codex 0.169.0\n")
                .unwrap();
        assert_eq!(
            read,
            [
                Pin {
                    folder: "claude".into(),
                    package: "@anthropic-ai/claude-code".into(),
                    version: "2.1.328".into()
                },
                Pin {
                    folder: "codex".into(),
                    package: "@openai/codex".into(),
                    version: "0.169.0".into()
                }
            ]
        );
        assert!(pins("claude @anthropic-ai/claude-code\n").is_err());
    }

    #[test]
    fn the_tally_sums_each_client_over_its_scenarios() {
        let rows = r#"{"client": "codex", "version": "0.169.0", "scenario": "a", "lines": 200, "agree": 200, "differ": 0}
{"client": "claude-code", "version": "2.1.328", "scenario": "a", "lines": 0, "agree": 0, "differ": 0}
{"client": "codex", "version": "0.169.0", "scenario": "b", "lines": 7, "agree": 3, "differ": 4}
"#;
        assert_eq!(
            tally(rows).unwrap(),
            [
                "claude-code 2.1.328: 0 listed lines, 0 agree, 0 differ",
                "codex 0.169.0: 207 listed lines, 203 agree, 4 differ"
            ]
        );
        assert!(tally("{\"client\": \"codex\"}").is_err());
    }
}
