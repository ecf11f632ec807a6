//! `check` on real-world workspace layouts: symlinked skill folders seen under the client's own
//! root, dangling links, and arguments that cannot go together.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn json_in(dir: &Path, args: &[&str]) -> Value {
    let output = run_in(dir, args);
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{error}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// `.claude/skills/<x> -> ../../.agents/skills/<x>` for each of `names`.
fn linked_layout(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join(".claude/skills")).unwrap();
    for name in names {
        write(
            &dir.path().join(format!(".agents/skills/{name}/SKILL.md")),
            &format!("---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody\n"),
        );
        symlink(
            format!("../../.agents/skills/{name}"),
            dir.path().join(format!(".claude/skills/{name}")),
        )
        .unwrap();
    }
    dir
}

fn findings(report: &Value) -> Vec<(String, String, Vec<String>)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_owned(),
                d["rule"].as_str().unwrap().to_owned(),
                d["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn symlinked_skill_folders_are_checked_for_the_client_that_sees_them() {
    let dir = linked_layout(&["alpha", "beta"]);
    let report = json_in(dir.path(), &["check", "--format", "json", ".claude/skills"]);
    assert_eq!(report["checked"]["files"], 2, "{report:#}");
    let found = findings(&report);
    for name in ["alpha", "beta"] {
        let path = format!(".claude/skills/{name}/SKILL.md");
        let escape = found
            .iter()
            .find(|(p, rule, _)| *p == path && rule == "symlink-escape")
            .unwrap_or_else(|| panic!("{path}: {found:#?}"));
        assert_eq!(escape.2, ["claude-code"], "judged for Claude Code");
    }
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("Claude Code follows the link and loads it")
            && message.contains("skill-lsp's own agent does not register it"),
        "{message}"
    );
    // The whole repository: each skill twice, once under each root.
    let report = json_in(dir.path(), &["check", "--format", "json", "."]);
    assert_eq!(report["checked"]["files"], 4);
}

#[test]
fn one_linked_skill_is_reported_alone() {
    let names: Vec<String> = (0..12).map(|i| format!("skill-{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let dir = linked_layout(&refs);
    let report = json_in(
        dir.path(),
        &["check", "--format", "json", ".claude/skills/skill-3"],
    );
    let found = findings(&report);
    assert_eq!(
        found
            .iter()
            .map(|(path, rule, _)| (path.as_str(), rule.as_str()))
            .collect::<Vec<_>>(),
        vec![(".claude/skills/skill-3/SKILL.md", "symlink-escape")],
        "no word about the siblings"
    );
}

#[test]
fn dangling_links_are_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    symlink("nowhere/SKILL.md", dir.path().join("SKILL.md")).unwrap();
    let output = run_in(dir.path(), &["check", "SKILL.md"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("SKILL.md: a dangling symlink"), "{stderr}");

    // Found by a walk, it is named as such; the other skills are still checked.
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skills/good/SKILL.md"),
        "---\nname: good\ndescription: Good. Use when asked.\n---\nBody\n",
    );
    fs::create_dir_all(dir.path().join("skills/gone")).unwrap();
    symlink(
        "../../missing/SKILL.md",
        dir.path().join("skills/gone/SKILL.md"),
    )
    .unwrap();
    let report = json_in(dir.path(), &["check", "--format", "json", "."]);
    assert_eq!(report["checked"]["files"], 1);
    let output = run_in(dir.path(), &["check", "."]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read skills/gone/SKILL.md: a dangling symlink"),
        "{stderr}"
    );
}

#[test]
fn stdin_and_paths_do_not_go_together() {
    let dir = tempfile::tempdir().unwrap();
    let output = run_in(dir.path(), &["check", "--stdin", "skills"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("cannot be used with"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn config_roots_join_the_workspace_registry() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skill-lsp.toml"),
        "roots = [\"vendor/skills\"]\n",
    );
    for root in ["skills", "vendor/skills"] {
        write(
            &dir.path().join(format!("{root}/pdf/SKILL.md")),
            "---\nname: pdf\ndescription: Fills PDF forms. Use when asked.\n---\nBody\n",
        );
    }
    for args in [
        &["check", "--format", "json", "."][..],
        &["check", "--format", "json", "skills/pdf"],
    ] {
        let report = json_in(dir.path(), args);
        let duplicates: Vec<String> = findings(&report)
            .into_iter()
            .filter(|(_, rule, _)| rule == "duplicate-name")
            .map(|(path, _, _)| path)
            .collect();
        let expected: Vec<&str> = if args.contains(&".") {
            vec!["skills/pdf/SKILL.md", "vendor/skills/pdf/SKILL.md"]
        } else {
            vec!["skills/pdf/SKILL.md"]
        };
        assert_eq!(duplicates, expected, "{args:?}");
    }
}
