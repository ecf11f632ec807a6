//! One engine: for the same files, `check --format json` and the language server (the real
//! binary over stdio, every SKILL.md opened in one workspace folder) report the same findings —
//! rule, severity and range, the server's UTF-16 positions turned into the CLI's 1-based
//! character columns by this test's own reading of the line model (LF, CRLF or a lone CR).

use crate::lsp_client;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use lsp_client::{BIN, Client, document};
use serde_json::{Value, json};
use tower_lsp_server::ls_types as lsp;

/// (path relative to the workspace, rule, severity, start line, start column, end line, end
/// column), lines and columns 1-based, columns in characters.
type Finding = (String, String, String, u64, u64, u64, u64);

/// The lines of `text` with the line model both front ends must share.
fn lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => {
                out.push(&text[start..at]);
                start = at + 1;
            }
            b'\r' => {
                out.push(&text[start..at]);
                if bytes.get(at + 1) == Some(&b'\n') {
                    at += 1;
                }
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    out.push(&text[start..]);
    out
}

/// A 1-based character column from an LSP position in UTF-16 code units.
fn char_column(lines: &[&str], line: u64, utf16: u64) -> u64 {
    let Some(text) = lines.get(usize::try_from(line).unwrap()) else {
        return 1;
    };
    let mut units = 0;
    let mut chars = 0;
    for ch in text.chars() {
        if units >= utf16 {
            break;
        }
        units += ch.len_utf16() as u64;
        chars += 1;
    }
    chars + 1
}

/// A plugin manifest: the server checks it as `check` does.
fn is_manifest(path: &Path) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|folder| folder == ".claude-plugin")
        && path
            .file_name()
            .is_some_and(|name| name == "plugin.json" || name == "marketplace.json")
}

fn skill_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap().filter_map(Result::ok) {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_symlink() && path.is_dir() {
                // A linked skill folder: its SKILL.md is seen through the link.
                let linked = path.join("SKILL.md");
                if linked.is_file() {
                    found.push(linked);
                }
            } else if (path
                .file_name()
                .is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md"))
                || path.ends_with("agents/openai.yaml")
                || is_manifest(&path))
                && path.is_file()
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn cli_findings(workspace: &Path) -> BTreeSet<Finding> {
    let output = Command::new(BIN)
        .args(["check", "--format", "json", "."])
        .current_dir(workspace)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{error}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        // What an allow comment suppresses is listed in JSON with its reason; the editor, like
        // the human output, leaves it out.
        .filter(|d| d["suppressed"].is_null())
        .map(|d| {
            let at = |end: &str, key: &str| d["range"][end][key].as_u64().unwrap();
            (
                d["path"].as_str().unwrap().to_owned(),
                d["rule"].as_str().unwrap().to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
                at("start", "line"),
                at("start", "column"),
                at("end", "line"),
                at("end", "column"),
            )
        })
        .collect()
}

fn severity(lsp: &Value) -> String {
    match lsp.as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "info",
        _ => "hint",
    }
    .to_owned()
}

fn server_findings(workspace: tempfile::TempDir) -> BTreeSet<Finding> {
    let root = workspace.path().to_path_buf();
    let files = skill_files(&root);
    // Pull diagnostics: each answer is computed when asked, after every file is open.
    let mut client = Client::start_in(
        workspace,
        json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}}),
        &[],
    );
    let mut texts = Vec::new();
    for path in &files {
        // An editor's buffer is text: a file that is not UTF-8 never reaches the server as it
        // is on disk, so there is nothing to compare.
        let Ok(text) = String::from_utf8(fs::read(path).unwrap()) else {
            continue;
        };
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        client.open(&relative, &text);
        texts.push((relative, text));
    }
    let mut findings = BTreeSet::new();
    let mut insert = |relative: &str, text: &str, items: &Value| {
        let lines = lines(text);
        for d in items.as_array().unwrap() {
            let at = |end: &str, key: &str| d["range"][end][key].as_u64().unwrap();
            findings.insert((
                relative.to_owned(),
                d["code"].as_str().unwrap().to_owned(),
                severity(&d["severity"]),
                at("start", "line") + 1,
                char_column(&lines, at("start", "line"), at("start", "character")),
                at("end", "line") + 1,
                char_column(&lines, at("end", "line"), at("end", "character")),
            ));
        }
    };
    for (relative, text) in &texts {
        let report =
            client.ask::<lsp::request::DocumentDiagnosticRequest>(lsp::DocumentDiagnosticParams {
                text_document: document(&client.uri(relative)),
                identifier: None,
                previous_result_id: None,
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            });
        insert(relative, text, &report["items"]);
        // A SKILL.md's report carries the security findings of the skill's other files.
        for (uri, related) in report["relatedDocuments"].as_object().into_iter().flatten() {
            let path = uri.strip_prefix("file://").expect("a file URI");
            let path = percent_decode(path);
            let related_path = Path::new(&path)
                .strip_prefix(&root)
                .expect("inside the workspace")
                .to_string_lossy()
                .into_owned();
            // As for check's findings: a file that is not UTF-8 is left out of the comparison.
            let Ok(text) = String::from_utf8(fs::read(&path).unwrap()) else {
                continue;
            };
            insert(&related_path, &text, &related["items"]);
        }
    }
    client.shutdown();
    findings
}

/// A file URI's path with its `%XX` escapes decoded.
fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%'
            && let Some(byte) = path
                .get(at + 1..at + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            at += 3;
            continue;
        }
        out.push(bytes[at]);
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Copies `from` (symlinks kept) into a fresh folder.
fn copy_of(from: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("cp")
        .arg("-a")
        .arg(format!("{}/.", from.display()))
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

fn assert_same(workspace: tempfile::TempDir, what: &str) -> BTreeSet<Finding> {
    let utf8 = |path: &String| {
        fs::read(workspace.path().join(path)).is_ok_and(|bytes| String::from_utf8(bytes).is_ok())
    };
    let cli: BTreeSet<Finding> = cli_findings(workspace.path())
        .into_iter()
        .filter(|finding| utf8(&finding.0))
        .collect();
    let server = server_findings(workspace);
    let only_cli: Vec<_> = cli.difference(&server).collect();
    let only_server: Vec<_> = server.difference(&cli).collect();
    assert!(
        only_cli.is_empty() && only_server.is_empty(),
        "{what}: check and the server disagree\nonly check: {only_cli:#?}\nonly server: {only_server:#?}"
    );
    cli
}

#[test]
fn every_fixture_gives_the_same_findings_in_check_and_the_server() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut names: Vec<_> = fs::read_dir(&fixtures)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    names.sort();
    let mut total = 0;
    for fixture in names {
        total += assert_same(copy_of(&fixture), &fixture.display().to_string()).len();
    }
    assert!(
        total > 30,
        "the fixtures have findings to compare ({total})"
    );
}

fn write(dir: &Path, relative: &str, bytes: &str) {
    let path = dir.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A workspace of skills with every kind of line break, wide and astral characters, broken
/// YAML, links, duplicates across roots (one of them added by the config) and a nested project.
fn generated_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "skill-lsp.toml", "roots = [\"vendor/skills\"]\n");
    let bodies = [
        "# 中文 skill 😀\n\nSee [guide](references/missing.md) and `scripts/none.py`.\n",
        "Intro.\rSee [guide](missing.md)\r\nMore 😀 text [x](../../elsewhere.md)\n",
        "Ünïcödé — [a](a.md)\r\n\r\nUse /pdff or $pdf.\n",
    ];
    let heads = [
        "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF.\n---\n",
        "---\r\nname: 中文\r\ndescription: Use when: the user asks 😀\r\n---\r\n",
        "---\rname: cr-only\rdescription: Lone carriage returns. Use when asked.\r---\r",
        "---\nname: Broken_Name\ndescription: [unclosed\n---\n",
        "---\nname: emoji\ndescription: \"😀 <b> tags\" \nmodel: sonnet\nallowed-tools: [Read, Grep]\n---\n",
    ];
    let mut count = 0;
    for (h, head) in heads.iter().enumerate() {
        for (b, body) in bodies.iter().enumerate() {
            count += 1;
            let folder = format!("skills/s{h}{b}");
            write(
                root,
                &format!("{folder}/SKILL.md"),
                &format!("{head}{body}"),
            );
            if b == 0 {
                write(root, &format!("{folder}/scripts/run.py"), "print(1)\n");
            }
        }
    }
    assert_eq!(count, 15);
    // The same name in `skills/` and in a root only the config knows.
    write(
        root,
        "vendor/skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Another PDF skill. Use when asked.\n---\nBody\n",
    );
    write(
        root,
        ".claude/skills/pdf/SKILL.md",
        "---\r\nname: pdf\r\ndescription: Claude's copy. Use when asked.\r\nargument-hint: [file]\r\n---\r\nBody\r\n",
    );
    write(
        root,
        ".codex/skills/pdf/SKILL.md",
        "---\nname: pdf\ndescription: Codex's copy. Use when asked.\n---\nBody\n",
    );
    // A nested project with skills of its own.
    write(
        root,
        "packages/app/.claude/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploys. Use when asked.\n---\nRun /deplyo.\n",
    );
    write(
        root,
        "packages/app/.claude/skills/deplyo/SKILL.md",
        "---\nname: deploy\ndescription: Typo folder. Use when asked.\n---\nBody\n",
    );
    // A linked skill folder, as `.claude/skills/x -> ../../.agents/skills/x` layouts do.
    write(
        root,
        ".agents/skills/shared/SKILL.md",
        "---\nname: shared\ndescription: Shared. Use when asked.\nuser-invocable: true\n---\nBody\n",
    );
    std::os::unix::fs::symlink(
        "../../.agents/skills/shared",
        root.join(".claude/skills/shared"),
    )
    .unwrap();
    dir
}

#[test]
fn a_generated_corpus_gives_the_same_findings_in_check_and_the_server() {
    let findings = assert_same(generated_corpus(), "generated corpus");
    let has = |path: &str, rule: &str| findings.iter().any(|(p, r, ..)| p == path && r == rule);
    // The divergences the one engine closed, each seen through both front ends above.
    assert!(
        has("skills/pdf/SKILL.md", "duplicate-name")
            || has("skills/s00/SKILL.md", "duplicate-name")
    );
    assert!(has("vendor/skills/pdf/SKILL.md", "duplicate-name"));
    assert!(
        !has(".codex/skills/pdf/SKILL.md", "duplicate-name"),
        "Codex reads neither skills/ nor .claude/skills"
    );
    assert!(has(".claude/skills/shared/SKILL.md", "symlink-escape"));
    assert!(has(
        "packages/app/.claude/skills/deplyo/SKILL.md",
        "duplicate-name"
    ));
    // `Intro.\rSee [guide](missing.md)`: the lone CR ends line 5, so the link is on line 6.
    let link = findings
        .iter()
        .find(|(p, r, ..)| p == "skills/s01/SKILL.md" && r == "broken-link")
        .expect("the link after a lone CR is checked");
    assert_eq!((link.3, link.4), (6, 13), "{link:?}");
}

#[test]
fn workspace_pull_reports_linked_skills_the_loader_refuses() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        ".agents/skills/shared/SKILL.md",
        "---\nname: shared\ndescription: Shared. Use when asked.\n---\nBody\n",
    );
    fs::create_dir_all(dir.path().join(".claude/skills")).unwrap();
    std::os::unix::fs::symlink(
        "../../.agents/skills/shared",
        dir.path().join(".claude/skills/shared"),
    )
    .unwrap();
    let mut client = Client::start_in(
        dir,
        json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}}),
        &[],
    );
    let linked = client.uri(".claude/skills/shared/SKILL.md");
    let report =
        client.ask::<lsp::request::WorkspaceDiagnosticRequest>(lsp::WorkspaceDiagnosticParams {
            identifier: None,
            previous_result_ids: Vec::new(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        });
    let item = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["uri"] == linked)
        .unwrap_or_else(|| panic!("{report:#}"));
    let codes: Vec<&str> = item["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["symlink-escape"]);
    client.shutdown();
}
