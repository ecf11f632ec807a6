//! The command line, run as a binary on fixture trees: exit codes, the four formats, `--fix`,
//! `catalog`, `load`, `rules`, and bad input.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("the binary runs")
}

fn run(args: &[&str]) -> Output {
    run_in(Path::new(ROOT), args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn normalise(text: &str) -> String {
    text.replace(ROOT, "[ROOT]")
}

fn json(args: &[&str]) -> (Value, i32) {
    let output = run(args);
    let value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|error| panic!("{error}: {}", stdout(&output)));
    (value, output.status.code().unwrap_or(-1))
}

/// A temporary copy of a fixture folder.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(entry.path()).unwrap(), &target).unwrap();
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn write(path: &Path, text: impl AsRef<[u8]>) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

const GOOD: &str = "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF form.\n---\n# PDF\n\nSteps.\n";

#[test]
fn exit_codes() {
    assert_eq!(run(&["check", "skills"]).status.code(), Some(0));
    assert_eq!(
        run(&["check", "tests/fixtures/clean"]).status.code(),
        Some(0)
    );
    assert_eq!(run(&["check", "tests/fixtures"]).status.code(), Some(1));
    let missing = run(&["check", "no/such/dir"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("no/such/dir: no such file or folder"));
    assert_eq!(run(&["check", "--format", "yaml"]).status.code(), Some(2));
    assert_eq!(
        run(&["check", "--target", "cursor", "skills"])
            .status
            .code(),
        Some(2)
    );
    // Warnings pass unless --strict.
    assert_eq!(
        run(&["check", "tests/fixtures/body-empty"]).status.code(),
        Some(0)
    );
    assert_eq!(
        run(&["check", "--strict", "tests/fixtures/body-empty"])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn bundled_skills_are_clean_for_the_three_targets() {
    let output = run(&[
        "check",
        "skills",
        "--target",
        "agentskills",
        "--target",
        "claude-code",
        "--target",
        "codex",
        "--format",
        "json",
    ]);
    let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["diagnostics"], Value::Array(vec![]), "{value:#}");
    assert_eq!(value["checked"]["skills"], 4);
}

/// Each fixture folder's `check --format json`, one snapshot per folder (most folders are one
/// rule's cases), so a change to one rule shows as a change to its own snapshot.
#[test]
fn every_fixture_matches_its_json_snapshot() {
    let mut folders: Vec<String> = fs::read_dir(Path::new(ROOT).join("tests/fixtures"))
        .unwrap()
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert!(folders.len() > 60, "{} fixture folders", folders.len());
    for folder in folders {
        let (value, _) = json(&[
            "check",
            &format!("tests/fixtures/{folder}"),
            "--format",
            "json",
        ]);
        insta::assert_snapshot!(
            format!("fixture_{folder}"),
            normalise(&serde_json::to_string_pretty(&value).unwrap())
        );
    }
}

#[test]
fn json_shape_follows_spec_section_3() {
    let (value, _) = json(&["check", "tests/fixtures/name-mismatch", "--format", "json"]);
    let first = &value["diagnostics"][0];
    assert_eq!(value["version"], 1);
    assert_eq!(first["path"], "tests/fixtures/name-mismatch/pdf/SKILL.md");
    assert_eq!(first["rule"], "name-mismatch");
    // A portable skill: only the specification's validator objects.
    assert_eq!(first["severity"], "warning");
    assert_eq!(
        first["range"],
        serde_json::json!({"start": {"line": 2, "column": 7}, "end": {"line": 2, "column": 16}})
    );
    // Clients that list the frontmatter name would list another: the editor's to offer.
    assert_eq!(
        first["fix"]["title"],
        "Rename to 'pdf' (renames the skill in Claude Code, Codex, Copilot, OpenCode and Gemini CLI)"
    );
    assert_eq!(first["fix"]["safe"], false);
    assert_eq!(first["fix"]["edits"][0]["text"], "pdf");
    assert_eq!(first["targets"], serde_json::json!(["agentskills"]));
    assert!(
        first["message"].as_str().unwrap().starts_with(
            "name 'pdf-tools' does not match its folder 'pdf' — skills-ref rejects it"
        )
    );
}

#[test]
fn targets_change_findings_and_their_words() {
    let (value, _) = json(&[
        "check",
        "tests/fixtures/reserved-word",
        "--format",
        "json",
        "--target",
        "claude-upload",
    ]);
    let rules: Vec<&str> = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"reserved-word"), "{rules:?}");
    let (value, code) = json(&[
        "check",
        "tests/fixtures/unquoted-colon",
        "--format",
        "json",
        "--target",
        "copilot",
        "--target",
        "claude-code",
    ]);
    assert_eq!(code, 1);
    let colon = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "unquoted-colon")
        .unwrap();
    let message = colon["message"].as_str().unwrap();
    assert!(
        message.ends_with("— Copilot skips this skill; Claude Code loads it"),
        "{message}"
    );
    assert_eq!(colon["targets"], serde_json::json!(["copilot"]));
    // Codex 0.169.0 quotes such a value itself and loads the skill.
    let (value, _) = json(&[
        "check",
        "tests/fixtures/unquoted-colon",
        "--format",
        "json",
        "--target",
        "codex",
    ]);
    assert!(
        value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["rule"] != "unquoted-colon"),
        "{value}"
    );
}

#[test]
fn fields_are_judged_per_selected_target() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms. Use when asked.\nargument-hint: \"[file]\"\ndisable-model-invocation: true\nmodel: sonnet\n---\nBody\n",
    );
    let check = |targets: &[&str]| {
        let mut args = vec!["check", ".", "--format", "json"];
        for target in targets {
            args.extend(["--target", target]);
        }
        let output = run_in(dir.path(), &args);
        let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let found: Vec<(String, String, String)> = value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["rule"].as_str().unwrap().to_owned(),
                    d["severity"].as_str().unwrap().to_owned(),
                    d["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        (found, output.status.code())
    };
    let (found, code) = check(&["agentskills"]);
    assert_eq!(code, Some(1));
    assert_eq!(found.len(), 3, "{found:?}");
    for (rule, severity, message) in &found {
        assert_eq!(
            (rule.as_str(), severity.as_str()),
            ("unknown-field", "error")
        );
        assert!(message.ends_with("— skills-ref rejects it"), "{message}");
    }
    assert_eq!(
        found[2].2,
        "unknown field 'model' here: only Claude Code reads it — skills-ref rejects it"
    );
    let (found, code) = check(&["claude-code"]);
    assert_eq!((found.len(), code), (0, Some(0)), "{found:?}");
    let (found, _) = check(&["agentskills", "claude-code"]);
    assert!(
        found[2]
            .2
            .ends_with("— skills-ref rejects it; Claude Code reads it"),
        "{found:?}"
    );
}

#[test]
fn names_are_compared_in_unicode_compatibility_form_as_skills_ref_does() {
    // macOS stores folder names decomposed; the frontmatter is usually typed composed.
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skills/cafe\u{301}/SKILL.md"),
        "---\nname: caf\u{e9}\ndescription: Brews coffee. Use when asked for coffee.\n---\nBody\n",
    );
    let rules = |target: &str| {
        let output = run_in(
            dir.path(),
            &["check", ".", "--format", "json", "--target", target],
        );
        let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let found: Vec<(String, String)> = value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["rule"].as_str().unwrap().to_owned(),
                    d["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        (found, output.status.code())
    };
    // skills-ref 0.1.1 says "Valid skill" for this folder.
    let (found, code) = rules("agentskills");
    assert_eq!(code, Some(0), "{found:?}");
    assert!(
        found.iter().all(|(rule, _)| rule != "name-mismatch"),
        "{found:?}"
    );
    // A client that compares bytes does not match them, and the message says why.
    let (found, code) = rules("copilot");
    assert_eq!(code, Some(1));
    let mismatch = found
        .iter()
        .find(|(rule, _)| rule == "name-mismatch")
        .unwrap();
    assert!(
        mismatch.1.contains("different Unicode characters"),
        "{found:?}"
    );
}

#[test]
fn fix_applies_respellings_but_not_renames_to_other_fields() {
    let dir = tempfile::tempdir().unwrap();
    let text = "---\nname: pdf\ndescription: Fills PDF forms. Use when asked.\nmode: sonnet\nallowed_tools: Read\ndisableModelInvocation: true\n---\nBody\n";
    // For skills-ref alone a respelling changes what nobody acts on: `--fix` applies it.
    let portable = dir.path().join("skills/pdf/SKILL.md");
    write(&portable, text);
    let output = run_in(
        dir.path(),
        &["check", "skills", "--fix", "--target", "agentskills"],
    );
    assert!(stderr(&output).contains("Fixed "), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(&portable).unwrap(),
        "---\nname: pdf\ndescription: Fills PDF forms. Use when asked.\nmode: sonnet\nallowed-tools: Read\ndisableModelInvocation: true\n---\nBody\n"
    );
    // Claude Code reads `.claude/skills`: once spelt right it would pre-approve the tools and
    // hide the skill from the model, so the renames are the editor's, titled so.
    let path = dir.path().join(".claude/skills/pdf/SKILL.md");
    write(&path, text);
    run_in(dir.path(), &["check", ".claude", "--fix"]);
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    let after: Value = serde_json::from_str(&stdout(&run_in(
        dir.path(),
        &["check", ".claude", "--format", "json"],
    )))
    .unwrap();
    let titles: Vec<(String, bool)> = after["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unknown-field")
        .map(|d| {
            (
                d["fix"]["title"].as_str().unwrap_or_default().to_owned(),
                d["fix"]["safe"] == true,
            )
        })
        .collect();
    assert_eq!(
        titles,
        [
            (
                "Rename to 'model' (Claude Code then acts on it)".to_owned(),
                false
            ),
            (
                "Rename to 'allowed-tools' (Claude Code then acts on it)".to_owned(),
                false
            ),
            (
                "Rename to 'disable-model-invocation' (Claude Code and Copilot then act on it)"
                    .to_owned(),
                false
            ),
        ]
    );
}

#[test]
fn github_lines() {
    let output = run(&["check", "tests/fixtures", "--format", "github"]);
    let (value, _) = json(&["check", "tests/fixtures", "--format", "json"]);
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    assert_eq!(lines.len(), value["diagnostics"].as_array().unwrap().len());
    for line in &lines {
        let (head, message) = line
            .split_once("::")
            .and_then(|(_, rest)| rest.split_once("::"))
            .expect("::level props::message");
        assert!(
            ["error ", "warning ", "notice "]
                .iter()
                .any(|level| head.starts_with(level)),
            "{line}"
        );
        assert!(
            head.contains("file=tests/fixtures/")
                && head.contains(",line=")
                && head.contains(",col=")
                && head.contains(",title="),
            "{line}"
        );
        assert!(!message.contains('\n'));
    }
    assert!(
        lines.contains(&"::warning file=tests/fixtures/name-mismatch/pdf/SKILL.md,line=2,col=7,endLine=2,endColumn=16,title=name-mismatch::name 'pdf-tools' does not match its folder 'pdf' — skills-ref rejects it; Copilot and OpenCode read it anyway and list the skill; the others load it (only a validator objects: this matters when publishing to a registry)"),
        "{lines:#?}"
    );
    // Security findings are titled together.
    assert!(
        lines.iter().any(
            |line| line.starts_with("::error file=tests/fixtures/remote-code/")
                && line.contains(",title=security/remote-code::")
        ),
        "{lines:#?}"
    );
}

#[test]
fn sarif_has_the_schemas_required_fields() {
    let (sarif, _) = json(&["check", "tests/fixtures", "--format", "sarif"]);
    assert_eq!(sarif["version"], "2.1.0");
    let runs = sarif["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "skill-lsp");
    let rules = driver["rules"].as_array().unwrap();
    assert!(rules.iter().all(|rule| rule["id"].is_string()));
    let results = runs[0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for result in results {
        assert!(result["message"]["text"].is_string());
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert!(["error", "warning", "note", "none"].contains(&result["level"].as_str().unwrap()));
        let location = &result["locations"][0]["physicalLocation"];
        assert!(
            location["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .starts_with("tests/fixtures/")
        );
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(location["region"]["startColumn"].as_u64().unwrap() >= 1);
        for fix in result["fixes"].as_array().into_iter().flatten() {
            let change = &fix["artifactChanges"][0];
            assert!(change["artifactLocation"]["uri"].is_string());
            assert!(change["replacements"][0]["deletedRegion"]["startLine"].is_u64());
        }
    }
}

#[test]
fn human_output_snapshot() {
    let output = run(&[
        "check",
        "tests/fixtures/unquoted-colon",
        "tests/fixtures/name-mismatch",
        "tests/fixtures/broken-link",
    ]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!("human", stdout(&output));
}

#[test]
fn fix_round_trip_is_safe_and_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("fixtures");
    copy_tree(&Path::new(ROOT).join("tests/fixtures"), &tree);
    let before = run_in(&tree, &["check", ".", "--format", "json"]);
    let before: Value = serde_json::from_str(&stdout(&before)).unwrap();
    let fixed = run_in(&tree, &["check", ".", "--fix", "--format", "json"]);
    assert!(stderr(&fixed).contains("Fixed "), "{}", stderr(&fixed));
    let after: Value = serde_json::from_str(&stdout(&fixed)).unwrap();
    assert!(after["summary"]["errors"].as_u64() < before["summary"]["errors"].as_u64());
    // Nothing that --fix fixes is left, and nothing structural was introduced.
    for diagnostic in after["diagnostics"].as_array().unwrap() {
        assert!(
            diagnostic["fix"].is_null()
                || diagnostic["fix"]["safe"] == false
                || diagnostic["rule"] == "unknown-field",
            "{diagnostic:#}"
        );
    }
    let snapshot = |root: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(dir).unwrap().map(Result::unwrap) {
                let kind = entry.file_type().unwrap();
                if kind.is_dir() {
                    stack.push(entry.path());
                } else if kind.is_file() {
                    files.push((entry.path(), fs::read(entry.path()).unwrap()));
                }
            }
        }
        files.sort();
        files
    };
    let once = snapshot(&tree);
    let again = run_in(&tree, &["check", ".", "--fix"]);
    assert!(
        !stderr(&again).contains("Fixed "),
        "a second --fix changes nothing: {}",
        stderr(&again)
    );
    assert_eq!(once, snapshot(&tree));
    // Exact results for a few fixes.
    let read = |rel: &str| fs::read_to_string(tree.join(rel)).unwrap();
    // Codex reads the broken line only up to ` # really`, the others whole: no quoting keeps
    // both, so `--fix` leaves it.
    assert!(read("unquoted-colon/pdf/SKILL.md").contains(
        "description: Fills PDF forms. Use when: the user says \"fill\" # really, für alle\n"
    ));
    // Recovery: the findings behind the broken colon were judged in the same run; the name is
    // left, since clients that list the frontmatter name would list it otherwise.
    assert_eq!(
        read("unquoted-colon/forms/SKILL.md"),
        "---\nname: Forms\ndescription: \"Fills forms. Use when: the user has a <form> to fill\"\nargument-hint: \"[file]\"\n---\n# Forms\n\n1. Fill the form.\n"
    );
    assert!(read("unknown-field/pdf/SKILL.md").contains("\nmode: sonnet\n"));
    assert!(read("bom/pdf/SKILL.md").starts_with("---\n"));
    assert!(read("frontmatter-not-first/pdf/SKILL.md").starts_with("---\nname: pdf\n"));
    assert!(tree.join("skill-md-case/pdf/SKILL.md").is_file());
    assert!(
        !fs::read_dir(tree.join("skill-md-case/pdf"))
            .unwrap()
            .any(|entry| entry.unwrap().file_name() == "Skill.md")
    );
    // Bytes outside the edited range are untouched.
    let original =
        fs::read_to_string(Path::new(ROOT).join("tests/fixtures/yaml11-type/pdf/SKILL.md"))
            .unwrap();
    assert_eq!(
        read("yaml11-type/pdf/SKILL.md"),
        original
            .replace("license: no", "license: \"no\"")
            .replace("version: 1.10", "version: \"1.10\"")
    );
    // No temporary files are left behind.
    assert!(once.iter().all(|(path, _)| {
        !path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .contains("skill-lsp")
    }));
}

#[test]
fn catalog_and_load_follow_the_loader_contract() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    write(
        &root.join("b-block/SKILL.md"),
        "---\nname: block\ndescription: |\n  First line.\n  ---\n  Use when asked.\n---\nSECRET BODY TEXT\n",
    );
    write(
        &root.join("a-utf8/SKILL.md"),
        "---\nname: utf\ndescription: Übersetzt 日本語. Use when 😀.\n---\nKörper\n",
    );
    write(
        &root.join("c-list/SKILL.md"),
        "---\n- a\n- b\n---\n# Heading   text\nmore\n",
    );
    write(
        &root.join("d-crlf/SKILL.md"),
        "---\r\nname: crlf\r\ndescription: |\r\n  one\r\n  ---\r\n  two\r\n---\r\nbody\r\n",
    );
    write(
        &root.join("e-not/SKILL.md"),
        "---not frontmatter\nname: x\n",
    );
    write(
        &dir.path().join("outside/evil/SKILL.md"),
        "---\nname: evil\ndescription: outside\n---\n",
    );
    std::os::unix::fs::symlink(dir.path().join("outside/evil"), root.join("evil")).unwrap();
    fs::create_dir_all(root.join("f-link")).unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("outside/evil/SKILL.md"),
        root.join("f-link/SKILL.md"),
    )
    .unwrap();

    let catalog = stdout(&run_in(dir.path(), &["catalog"]));
    assert_eq!(
        catalog,
        "- utf: Übersetzt 日本語. Use when 😀.\n- block: First line. --- Use when asked.\n- c-list: Heading text\n- crlf: one --- two\n- e-not: ---not frontmatter\n"
    );
    assert!(!catalog.contains("SECRET"));
    assert_eq!(
        stdout(&run_in(dir.path(), &["catalog", "skills"])),
        catalog,
        "a skills root works as well as its workspace"
    );

    let loaded = run_in(dir.path(), &["load", "utf"]);
    assert_eq!(loaded.status.code(), Some(0));
    assert_eq!(
        loaded.stdout,
        fs::read(root.join("a-utf8/SKILL.md")).unwrap()
    );
    let crlf = run_in(dir.path(), &["load", "crlf", "--root", "skills"]);
    assert_eq!(crlf.stdout, fs::read(root.join("d-crlf/SKILL.md")).unwrap());

    let unknown = run_in(dir.path(), &["load", "evil"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert_eq!(
        stderr(&unknown),
        "Error: Unknown skill 'evil'. Available: utf, block, c-list, crlf, e-not\n"
    );
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(
        stderr(&run_in(empty.path(), &["load", "x"])),
        "Error: Unknown skill 'x'. Available: none\n"
    );
    assert_eq!(
        stdout(&run_in(empty.path(), &["catalog"])),
        "(no skills found: no skill folder in skills, .agents/skills, .claude/skills, .github/skills, .codex/skills, .opencode/skills and .gemini/skills)\n"
    );

    let xml = stdout(&run_in(dir.path(), &["catalog", "--format", "xml"]));
    assert!(xml.starts_with("<available_skills>\n  <skill>\n    <name>utf</name>"));
    let as_json: Value = serde_json::from_str(&stdout(&run_in(
        dir.path(),
        &["catalog", "--format", "json"],
    )))
    .unwrap();
    assert_eq!(as_json["skills"].as_array().unwrap().len(), 5);
    assert_eq!(as_json["prompt"].as_str().unwrap(), catalog.trim_end());
}

#[test]
fn catalog_shows_a_clients_budgeted_listing() {
    let dir = tempfile::tempdir().unwrap();
    for index in 0..60 {
        write(
            &dir.path()
                .join(format!(".codex/skills/s{index:02}/SKILL.md")),
            format!(
                "---\nname: s{index:02}\ndescription: {}Use when needed.\n---\nBody\n",
                "word ".repeat(150)
            ),
        );
    }
    // 60 descriptions of 766 characters overflow Codex's 5,440 tokens: each is cut to one length.
    let full = stdout(&run_in(dir.path(), &["catalog"]));
    let codex = stdout(&run_in(dir.path(), &["catalog", "--target", "codex"]));
    assert!(
        full.chars().count() > 40_000 && codex.chars().count() < 21_760,
        "{} {}",
        full.len(),
        codex.len()
    );
    let listing: Value = serde_json::from_str(&stdout(&run_in(
        dir.path(),
        &["catalog", "--target", "codex", "--format", "json"],
    )))
    .unwrap();
    assert_eq!(listing["measured_with"], "Codex 0.169.0");
    assert!(
        listing["listed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|item| item["fate"] == "shortened"),
        "{listing}"
    );
    let checked = run_in(dir.path(), &["check", ".", "--format", "json"]);
    let value: Value = serde_json::from_str(&stdout(&checked)).unwrap();
    let budget = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "catalog-budget")
        .count();
    assert_eq!(budget, 60);
}

#[test]
fn explain_says_what_each_client_does_with_a_skill() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join(".claude/skills/Growth-Scout/SKILL.md"),
        "---\nname: growth-scout\ndescription: Finds <growth> ideas.\n---\nBody\n",
    );
    write(
        &dir.path().join(".agents/skills/manual/SKILL.md"),
        "---\nname: manual\ndescription: By hand.\ndisable-model-invocation: true\n---\nBody\n",
    );
    let claude = run_in(
        dir.path(),
        &["explain", "Growth-Scout", "--target", "claude-code"],
    );
    assert_eq!(claude.status.code(), Some(0), "{}", stderr(&claude));
    assert_eq!(
        stdout(&claude),
        ".claude/skills/Growth-Scout/SKILL.md\n\n\
         Claude Code: listed as Growth-Scout (growth-scout)\n\
         \x20 read from .claude/skills\n\
         \x20 the model sees: Finds &lt;growth&gt; ideas.\n\
         \x20 invoked by the model: yes (the model sees it in the listing)\n\
         \x20 invoked by the user: yes (as /Growth-Scout or /growth-scout)\n"
    );
    // The name a client lists, the frontmatter name and the folder all find it.
    for name in ["Growth-Scout (growth-scout)", "growth-scout"] {
        assert_eq!(
            stdout(&run_in(
                dir.path(),
                &["explain", name, "--target", "claude-code"]
            )),
            stdout(&claude)
        );
    }
    let output = run_in(dir.path(), &["explain", "manual", "--format", "json"]);
    let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let clients = value[0]["clients"].as_array().unwrap();
    let ids: Vec<&str> = clients
        .iter()
        .map(|c| c["target"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["claude-code", "codex", "copilot", "opencode", "gemini"]
    );
    assert_eq!(clients[0]["status"], "not-read", "{:#}", clients[0]);
    assert_eq!(clients[0]["root"], Value::Null);
    assert_eq!(clients[1]["status"], "listed", "{:#}", clients[1]);
    assert_eq!(clients[1]["root"], "./.agents/skills");
    assert_eq!(clients[1]["model_invocable"]["can"], true);
    let unknown = run_in(dir.path(), &["explain", "nope"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        stderr(&unknown).starts_with("Unknown skill 'nope'. Available:"),
        "{}",
        stderr(&unknown)
    );
    let bad = run_in(dir.path(), &["explain", "manual", "--target", "vim"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A marketplace of two plugins (`tests/fixtures/plugin-skills`): `alpha`, and `beta-real`
/// in the folder `beta-folder` under the entry `beta`, beside a project skill.
fn plugin_fixture() -> PathBuf {
    Path::new(ROOT).join("tests/fixtures/plugin-skills")
}

#[test]
fn explain_says_claude_code_lists_a_plugin_skill_once_the_plugin_is_installed() {
    let greet = run_in(&plugin_fixture(), &["explain", "greet"]);
    assert_eq!(greet.status.code(), Some(0), "{}", stderr(&greet));
    let text = stdout(&greet);
    assert!(
        text.starts_with(
            "plugins/alpha/skills/greet/SKILL.md\n\n\
             Claude Code: listed as alpha:greet, once the plugin alpha from the marketplace fixture-market is installed (claude plugin install alpha@fixture-market)\n\
             \x20 read from plugins/alpha/skills\n\
             \x20 the model sees: Greets the user warmly. Use when the conversation starts.\n\
             \x20 invoked by the model: yes (the model sees it in the listing)\n\
             \x20 invoked by the user: yes (as /alpha:greet)\n\n\
             Codex: not loaded: this skill comes with the Claude Code plugin alpha, and Codex does not load Claude Code plugins (it reads .agents/skills and .codex/skills)\n\
             \x20 invoked by the model: no (Codex does not load it)\n"
        ),
        "{text}"
    );
    assert!(!text.contains("no root it reads holds"), "{text}");
    // Its Claude Code name finds it too, and the plugin's name is plugin.json's, not the
    // marketplace entry's or the folder's.
    assert_eq!(
        stdout(&run_in(&plugin_fixture(), &["explain", "alpha:greet"])),
        text
    );
    let deploy = stdout(&run_in(
        &plugin_fixture(),
        &["explain", "beta-real:deploy", "--target", "claude-code"],
    ));
    assert!(
        deploy.contains("listed as beta-real:deploy, once the plugin beta-real from the marketplace fixture-market is installed (claude plugin install beta@fixture-market)"),
        "{deploy}"
    );
    let missing = run_in(&plugin_fixture(), &["explain", "beta:deploy"]);
    assert_eq!(missing.status.code(), Some(1), "{}", stdout(&missing));
    // What it could have been: the loader's skills, then the plugins' under their Claude Code
    // names.
    assert!(
        stderr(&missing).contains("Available: project-notes; plugin skills (Claude Code): alpha:Named-Folder, alpha:greet, ")
            && stderr(&missing).contains("beta-real:deploy"),
        "{}",
        stderr(&missing)
    );
    // Invocation follows the frontmatter as for a project's skill.
    let manual = run_in(
        &plugin_fixture(),
        &[
            "explain",
            "manual",
            "--target",
            "claude-code",
            "--format",
            "json",
        ],
    );
    let value: Value = serde_json::from_str(&stdout(&manual)).unwrap();
    let claude = &value[0]["clients"][0];
    assert_eq!(claude["status"], "omitted", "{claude:#}");
    assert_eq!(claude["reason"], "model-invocation-disabled");
    assert_eq!(claude["model_invocable"]["can"], false);
    assert_eq!(claude["user_invocable"]["can"], true);
    assert_eq!(claude["user_invocable"]["why"], "as /alpha:manual");
    assert_eq!(claude["plugin"]["name"], "alpha");
    assert_eq!(claude["plugin"]["marketplace"], "fixture-market");
    let named = stdout(&run_in(
        &plugin_fixture(),
        &["explain", "alpha:shown-name", "--target", "claude-code"],
    ));
    assert!(
        named.contains("listed as alpha:Named-Folder (alpha:shown-name)")
            && named.contains("as /alpha:Named-Folder or /alpha:shown-name"),
        "{named}"
    );
    // A project skill beside the plugins is explained as before.
    let project = stdout(&run_in(
        &plugin_fixture(),
        &["explain", "project-notes", "--target", "claude-code"],
    ));
    assert!(
        project.contains("Claude Code: listed as project-notes\n  read from .claude/skills"),
        "{project}"
    );
}

#[test]
fn catalog_for_claude_code_lists_each_plugins_skills_under_it() {
    let listed = run_in(&plugin_fixture(), &["catalog", "--target", "claude-code"]);
    assert_eq!(
        stdout(&listed),
        "- project-notes: Keeps the project notes. Use when the user asks about notes.\n\n\
         Plugin alpha from the marketplace fixture-market, listed once installed (claude plugin install alpha@fixture-market):\n\
         - alpha:greet: Greets the user warmly. Use when the conversation starts.\n\
         - alpha:Named-Folder (alpha:shown-name): Shows a name that differs from its folder. Use when testing names.\n\n\
         Plugin beta-real from the marketplace fixture-market, listed once installed (claude plugin install beta@fixture-market):\n\
         - beta-real:deploy: Deploys the service. Use when the user asks to ship.\n"
    );
    let output = run_in(
        &plugin_fixture(),
        &["catalog", "--target", "claude-code", "--format", "json"],
    );
    let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let listed: Vec<(&str, Option<&str>)> = value["listed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| (item["name"].as_str().unwrap(), item["plugin"].as_str()))
        .collect();
    assert_eq!(
        listed,
        [
            ("project-notes", None),
            ("alpha:greet", Some("alpha")),
            ("alpha:Named-Folder (alpha:shown-name)", Some("alpha")),
            ("beta-real:deploy", Some("beta-real")),
        ]
    );
    let omitted = &value["omitted"][0];
    assert_eq!(omitted["plugin"], "alpha", "{omitted:#}");
    assert_eq!(omitted["reason"], "model-invocation-disabled");
    assert_eq!(value["plugins"][1]["install"], "beta@fixture-market");
    assert_eq!(value["plugins"][1]["skills"][0]["id"], "beta-real:deploy");
    // Without a target the loader's catalog has the project's skill, and says what it leaves out.
    let loader = run_in(&plugin_fixture(), &["catalog"]);
    assert_eq!(
        stdout(&loader),
        "- project-notes: Keeps the project notes. Use when the user asks about notes.\n"
    );
    assert!(
        stderr(&loader)
            .contains("4 skills of the Claude Code plugins here are not in this catalog"),
        "{}",
        stderr(&loader)
    );
    // The clients that load no plugins list only the project's skills.
    let codex = stdout(&run_in(
        &plugin_fixture(),
        &["catalog", "--target", "codex"],
    ));
    assert_eq!(
        codex,
        "(no skills listed: no skill folder in .agents/skills and .codex/skills)\n"
    );
}

#[test]
fn an_empty_catalog_says_why() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join(".claude-plugin/plugin.json"),
        "{\"name\": \"solo\"}\n",
    );
    write(
        &dir.path().join("plugin-skills/x/SKILL.md"),
        "---\nname: x\ndescription: Not under skills/.\n---\n",
    );
    let claude = stdout(&run_in(dir.path(), &["catalog", "--target", "claude-code"]));
    assert_eq!(
        claude,
        "(no skills listed: no skill folder in .claude/skills)\n\n(1 more plugin here provides no skills)\n"
    );
    write(
        &dir.path().join("skills/y/SKILL.md"),
        "---\nname: y\ndescription: A plugin skill.\n---\n",
    );
    fs::remove_dir_all(dir.path().join("plugin-skills")).unwrap();
    // `skills/` is the loader's root and the plugin's: the plugin without a marketplace is
    // installed from its folder.
    let claude = stdout(&run_in(dir.path(), &["catalog", "--target", "claude-code"]));
    assert!(
        claude.ends_with("Plugin solo, listed once installed (claude --plugin-dir .):\n- solo:y: A plugin skill.\n"),
        "{claude}"
    );
    let empty = tempfile::tempdir().unwrap();
    write(
        &empty.path().join(".claude-plugin/marketplace.json"),
        "{\"name\": \"m\", \"owner\": {\"name\": \"o\"}, \"plugins\": [{\"name\": \"p\", \"source\": \"./p\"}]}\n",
    );
    write(
        &empty.path().join("p/skills/z/SKILL.md"),
        "---\nname: z\ndescription: Only a plugin's.\n---\n",
    );
    assert_eq!(
        stdout(&run_in(empty.path(), &["catalog"])),
        "(no skills found: no skill folder in skills, .agents/skills, .claude/skills, .github/skills, .codex/skills, .opencode/skills and .gemini/skills; 1 skill of 1 Claude Code plugin here is listed by Claude Code once a plugin is installed: skill-lsp catalog --target claude-code)\n"
    );
}

#[test]
fn rules_lists_and_explains() {
    let list = stdout(&run(&["rules"]));
    for id in [
        "invalid-utf8",
        "unquoted-colon",
        "unknown-field",
        "skill-md-case",
        "catalog-budget",
    ] {
        assert!(list.contains(id), "{id}");
    }
    let one = stdout(&run(&["rules", "unquoted-colon"]));
    assert!(one.starts_with("unquoted-colon (file and frontmatter, error/warning)"));
    assert!(one.contains("Severity: an error where a client the skill is checked for skips"));
    assert!(one.contains("Why:") && one.contains("Example:") && one.contains("Fix:"));
    let unknown = run(&["rules", "colon"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("did you mean unquoted-colon"));
}

/// What `skill-lsp rules` says a rule's severities are is what its findings print with: every
/// finding on every fixture, for the default targets and for each target chosen alone.
#[test]
fn every_finding_keeps_to_the_severities_its_rule_lists() {
    use skill_lsp::rules::Rule;
    let targets = [
        None,
        Some("claude-code"),
        Some("codex"),
        Some("copilot"),
        Some("opencode"),
        Some("gemini"),
        Some("agentskills"),
        Some("claude-upload"),
    ];
    let mut seen = 0;
    for target in targets {
        let mut args = vec![
            "check",
            "tests/fixtures",
            "tests/security",
            "--format",
            "json",
        ];
        if let Some(target) = target {
            args.extend(["--target", target]);
        }
        let (value, _) = json(&args);
        for finding in value["diagnostics"].as_array().unwrap() {
            let rule = Rule::parse(finding["rule"].as_str().unwrap()).unwrap();
            let severity = finding["severity"].as_str().unwrap();
            assert!(
                rule.severities()
                    .iter()
                    .any(|listed| listed.as_str() == severity),
                "{rule} printed as {severity} (targets {target:?}) but `rules` lists {}: {}",
                rule.severity_list(),
                finding["path"]
            );
            seen += 1;
        }
    }
    assert!(seen > 1000, "{seen} findings");
}

#[test]
fn config_file_is_found_and_applied() {
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms.\nversion: 1\n---\nBody\n",
    );
    let before: Value =
        serde_json::from_str(&stdout(&run_in(dir.path(), &["check", "--format", "json"]))).unwrap();
    let rules = |value: &Value| {
        value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["rule"].as_str().unwrap().to_owned(),
                    d["severity"].as_str().unwrap().to_owned(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        rules(&before),
        vec![
            ("description-trigger".into(), "hint".into()),
            ("unknown-field".into(), "warning".into())
        ]
    );
    write(
        &dir.path().join("skill-lsp.toml"),
        "targets = [\"codex\"]\n[rules]\ndescription-trigger = \"off\"\n",
    );
    let after: Value = serde_json::from_str(&stdout(&run_in(
        &dir.path().join("skills"),
        &["check", "--format", "json"],
    )))
    .unwrap();
    // Codex ignores `version`, as every client does: information, not a warning.
    assert_eq!(rules(&after), vec![("unknown-field".into(), "info".into())]);
    write(&dir.path().join("bad.toml"), "targets = 3\n");
    let bad = run_in(dir.path(), &["check", "--config", "bad.toml"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("bad.toml:1:11:"), "{}", stderr(&bad));
}

#[test]
fn bad_input_is_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    write(
        &root.join("good/SKILL.md"),
        GOOD.replace("name: pdf", "name: good"),
    );
    write(
        &root.join("binary/SKILL.md"),
        (0u8..=255).cycle().take(4096).collect::<Vec<u8>>(),
    );
    write(&root.join("empty/SKILL.md"), "");
    let mut huge = String::from("---\nname: huge\ndescription: Use when testing.\n---\n");
    while huge.len() < 10 * 1024 * 1024 {
        huge.push_str(
            "A line of instructions that goes on for a while, with scripts/missing.sh in it.\n",
        );
    }
    write(&root.join("huge/SKILL.md"), &huge);
    fs::create_dir_all(root.join("dangling")).unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("nowhere/SKILL.md"),
        root.join("dangling/SKILL.md"),
    )
    .unwrap();
    std::os::unix::fs::symlink(root.join("loop-b"), root.join("loop-a")).unwrap();
    std::os::unix::fs::symlink(root.join("loop-a"), root.join("loop-b")).unwrap();
    let output = run_in(dir.path(), &["check", ".", "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "an unreadable file is trouble: {}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains(
            "skill-lsp: error: cannot read skills/dangling/SKILL.md: a dangling symlink (its target does not exist)"
        ),
        "{}",
        stderr(&output)
    );
    // A file that cannot be read at all still stops the run being trusted.
    let unreadable = root.join("fifo/SKILL.md");
    fs::create_dir_all(unreadable.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&unreadable)
        .status()
        .unwrap();
    assert!(status.success());
    let trouble = run_in(dir.path(), &["check", "skills/fifo/SKILL.md"]);
    assert_eq!(trouble.status.code(), Some(2), "{}", stderr(&trouble));
    fs::remove_file(&unreadable).unwrap();
    let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let rules_for = |folder: &str| -> Vec<String> {
        value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["path"].as_str().unwrap().contains(&format!("/{folder}/")))
            .map(|d| d["rule"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(rules_for("binary"), vec!["invalid-utf8"]);
    assert_eq!(rules_for("empty"), vec!["missing-frontmatter"]);
    assert!(rules_for("huge").contains(&"body-too-long".to_owned()));
    assert!(rules_for("good").is_empty());
    assert_eq!(value["checked"]["files"], 4);
}

#[test]
fn thousands_of_skills() {
    let dir = tempfile::tempdir().unwrap();
    for index in 0..2_000 {
        let name = format!("skill-{index:04}");
        let description = if index % 10 == 0 {
            "Use when: broken".to_owned()
        } else {
            "Does things. Use when asked.".to_owned()
        };
        write(
            &dir.path().join(format!("skills/{name}/SKILL.md")),
            format!("---\nname: {name}\ndescription: {description}\n---\nBody\n"),
        );
    }
    let (value, code) = {
        let output = run_in(dir.path(), &["check", "--format", "json"]);
        (
            serde_json::from_str::<Value>(&stdout(&output)).unwrap(),
            output.status.code(),
        )
    };
    assert_eq!(code, Some(1));
    assert_eq!(value["checked"]["files"], 2_000);
    assert_eq!(value["summary"]["errors"], 200);
    // Deterministic order: sorted by path.
    let paths: Vec<&str> = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort_unstable();
    assert_eq!(paths, sorted);
}

#[test]
fn gitignored_and_skipped_folders_are_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join(".gitignore"), "ignored/\n");
    let broken = "---\nname: x\n";
    write(&dir.path().join("ignored/x/SKILL.md"), broken);
    write(&dir.path().join("node_modules/x/SKILL.md"), broken);
    write(&dir.path().join("target/x/SKILL.md"), broken);
    write(&dir.path().join(".git/x/SKILL.md"), broken);
    write(&dir.path().join(".claude/skills/pdf/SKILL.md"), GOOD);
    let output = run_in(dir.path(), &["check", "--format", "json"]);
    let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["checked"]["files"], 1, "{value:#}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn serve_ends_cleanly_when_stdin_is_empty() {
    let output = Command::new(BIN)
        .args(["serve", "--stdio"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty(), "nothing but protocol on stdout");
}

#[test]
fn version_names_the_commit() {
    let version = stdout(&run(&["--version"]));
    assert!(
        version.starts_with(&format!("skill-lsp {} (", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    assert!(version.trim_end().ends_with(')'));
}

/// `check --stdin --stdin-filename NAME --format json` in `dir`, with `input` on stdin.
fn check_stdin(dir: &Path, name: &str, input: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(BIN)
        .args([
            "check",
            "--stdin",
            "--stdin-filename",
            name,
            "--format",
            "json",
        ])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn stdin_is_linted_as_the_named_file() {
    let output = check_stdin(
        Path::new(ROOT),
        "skills/pdf/SKILL.md",
        b"---\nname: pdf-tools\ndescription: Fills forms. Use when asked.\n---\nBody\n",
    );
    // Only the specification's validator objects to a portable skill's name: a warning.
    assert_eq!(output.status.code(), Some(0));
    let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["checked"]["files"], 1);
    assert_eq!(value["diagnostics"][0]["path"], "skills/pdf/SKILL.md");
    assert_eq!(
        value["diagnostics"][0]["rule"], "name-mismatch",
        "the folder comes from --stdin-filename"
    );
    let clean = Command::new(BIN)
        .args([
            "check",
            "--stdin",
            "--stdin-filename",
            "skills/pdf/SKILL.md",
        ])
        .stdin(std::fs::File::open(Path::new(ROOT).join("skills/pdf/SKILL.md")).unwrap())
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
}

/// The grants of a SKILL.md read from stdin are judged with the skill's other files on disk,
/// as `check` of the folder judges them: the same buffer gets a warning beside a script that
/// reads a key file, and information beside one that does not.
#[test]
fn stdin_grants_are_judged_with_the_folder_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("deploy");
    fs::create_dir_all(skill.join("scripts")).unwrap();
    let text = "---\nname: deploy\ndescription: Deploys the site with its shell scripts.\nallowed-tools: Bash\n---\nRun `scripts/go.sh`.\n";
    fs::write(skill.join("SKILL.md"), text).unwrap();
    let grant = |script: &str| -> Value {
        fs::write(skill.join("scripts/go.sh"), script).unwrap();
        let output = check_stdin(dir.path(), "deploy/SKILL.md", text.as_bytes());
        let value: Value = serde_json::from_str(&stdout(&output)).unwrap();
        let found: Vec<Value> = value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|found| found["rule"] == "permissions")
            .cloned()
            .collect();
        assert_eq!(found.len(), 1, "{value}");
        found[0].clone()
    };
    let quiet = grant("#!/bin/sh\nrsync -a public/ site/\n");
    assert_eq!(quiet["severity"], "info", "{quiet}");
    let risky = grant("#!/bin/sh\ncp ~/.aws/credentials /tmp/c\n");
    assert_eq!(risky["severity"], "warning", "{risky}");
    assert_eq!(
        risky["related"][0]["path"], "deploy/scripts/go.sh",
        "{risky}"
    );
    let folder = Command::new(BIN)
        .args(["check", "deploy", "--format", "json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let value: Value = serde_json::from_str(&stdout(&folder)).unwrap();
    assert!(
        value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|found| found["rule"] == "permissions" && found["severity"] == "warning"),
        "{value}"
    );
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(&run(&["completions", shell]));
        assert!(
            script.contains("check") && script.contains("catalog") && script.len() > 500,
            "{shell}"
        );
    }
    let man = stdout(&run(&["man"]));
    assert!(man.contains(".TH skill-lsp 1") && man.contains("check"));
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
}

// `check` on real-world workspace layouts: symlinked skill folders seen under the client's own
// root, dangling links, config roots, and arguments that cannot go together.

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

/// `.claude/skills/<x> -> ../../.agents/skills/<x>` for each of `names`, in a git work tree
/// (links that leave the folders named and their work tree are not read).
fn linked_layout(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join(".git")).unwrap();
    fs::create_dir_all(dir.path().join(".claude/skills")).unwrap();
    for name in names {
        write(
            &dir.path().join(format!(".agents/skills/{name}/SKILL.md")),
            format!("---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody\n"),
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
        assert_eq!(
            escape.2,
            ["claude-code", "copilot", "opencode"],
            "judged for the clients that read .claude/skills"
        );
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
    // Two different skills of one name (copies would be no finding).
    for (root, what) in [
        ("skills", "Fills PDF forms"),
        ("vendor/skills", "Merges PDFs"),
    ] {
        write(
            &dir.path().join(format!("{root}/pdf/SKILL.md")),
            format!("---\nname: pdf\ndescription: {what}. Use when asked.\n---\nBody\n"),
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

/// Claude's three modes of `claude plugin validate` as `check` maps them: errors fail, `--strict`
/// fails on warnings too, `--profile directory` adds the plugin directory's requirements. The
/// plugin is copied out of this repository: the directory checks read the README and LICENSE of
/// the git repository a plugin sits in.
#[test]
fn plugin_manifests_follow_claudes_modes() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("plugin");
    fs::create_dir_all(plugin.join(".claude-plugin")).unwrap();
    let manifest = plugin.join(".claude-plugin/plugin.json");
    let code = |args: &[&str]| run_in(dir.path(), args).status.code();
    // Complete but for an author: a warning only.
    fs::write(
        &manifest,
        r#"{"name": "notes", "version": "1.0.0", "description": "Takes notes."}"#,
    )
    .unwrap();
    assert_eq!(code(&["check", "plugin"]), Some(0));
    assert_eq!(code(&["check", "--strict", "plugin"]), Some(1));
    let (directory, _) = {
        let output = run_in(
            dir.path(),
            &[
                "check",
                "--format",
                "json",
                "--profile",
                "directory",
                "plugin",
            ],
        );
        let value: Value = serde_json::from_slice(&output.stdout).unwrap();
        (value, output.status.code())
    };
    let rules: Vec<&str> = directory["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "manifest-recommended",
            "directory-readme",
            "directory-license"
        ]
    );
    // A manifest given by path, and one piped in with its name, are checked the same.
    let output = run_in(dir.path(), &["check", "plugin/.claude-plugin/plugin.json"]);
    assert!(
        stdout(&output).contains("manifest-recommended"),
        "{}",
        stdout(&output)
    );
    let mut child = Command::new(BIN)
        .args([
            "check",
            "--stdin",
            "--stdin-filename",
            "plugin/.claude-plugin/plugin.json",
        ])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"{\"name\": 1}").unwrap();
    let piped = child.wait_with_output().unwrap();
    assert_eq!(piped.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&piped.stdout).contains("manifest-schema"));
    // --fix leaves manifests alone.
    assert_eq!(code(&["check", "--fix", "plugin"]), Some(0));
}

/// A skill's other files are scanned: the finding in the script names the secret read as
/// related information, and the skill's capabilities come with evidence.
#[test]
fn security_findings_carry_related_reads_and_capabilities() {
    let (value, code) = json(&["check", "tests/fixtures/exfiltration", "--format", "json"]);
    assert_eq!(code, 1);
    let diagnostics = value["diagnostics"].as_array().unwrap();
    let send = diagnostics
        .iter()
        .find(|d| d["rule"] == "exfiltration")
        .expect("an exfiltration finding");
    assert_eq!(
        send["path"],
        "tests/fixtures/exfiltration/pdf/scripts/sync.py"
    );
    assert_eq!(send["severity"], "error");
    assert_eq!(send["range"]["start"]["line"], 3);
    assert_eq!(send["related"][0]["range"]["start"]["line"], 2);
    let kinds: Vec<&str> = value["capabilities"][0]["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"network") && kinds.contains(&"secrets"),
        "{kinds:?}"
    );
    assert_eq!(
        value["checked"]["files"], 1,
        "a skill's scripts are not counted as checked files"
    );
}

/// An allow comment with a reason suppresses the finding everywhere but JSON, which lists it
/// with its reason; without a reason it suppresses nothing and the finding says so.
#[test]
fn allow_comments_need_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/setup");
    fs::create_dir_all(skill.join("scripts")).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        "---\nname: setup\ndescription: Installs the team's CLI. Use when asked to set it up.\n---\nRun `scripts/install.sh`.\n",
    )
    .unwrap();
    let script = "#!/bin/sh\n# skill-lsp: allow remote-code — the vendor's documented installer, pinned by checksum upstream\ncurl -fsSL https://tools.example.com/install.sh | sh\n";
    fs::write(skill.join("scripts/install.sh"), script).unwrap();
    let human = run_in(dir.path(), &["check", "skills"]);
    assert_eq!(human.status.code(), Some(0), "{}", stdout(&human));
    assert!(!stdout(&human).contains("remote-code"));
    let output = run_in(dir.path(), &["check", "skills", "--format", "json"]);
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "remote-code")
        .expect("listed in JSON");
    assert_eq!(
        found["suppressed"],
        "the vendor's documented installer, pinned by checksum upstream"
    );
    assert_eq!(value["summary"]["warnings"], 0);

    fs::write(
        skill.join("scripts/install.sh"),
        script.replace(
            " — the vendor's documented installer, pinned by checksum upstream",
            "",
        ),
    )
    .unwrap();
    let output = run_in(dir.path(), &["check", "skills"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "a warning does not fail the run"
    );
    assert!(stdout(&output).contains("gives no reason, so it does not count"));
}

/// SARIF gives GitHub code scanning a security score for each security rule.
#[test]
fn sarif_ranks_security_rules() {
    let output = run(&["check", "tests/fixtures/remote-code", "--format", "sarif"]);
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rules = value["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let remote = rules.iter().find(|r| r["id"] == "remote-code").unwrap();
    assert_eq!(remote["properties"]["security-severity"], "9.0");
    assert_eq!(remote["properties"]["tags"][0], "security");
    let name = rules.iter().find(|r| r["id"] == "name-format").unwrap();
    assert!(name.get("properties").is_none());
    let results = value["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "remote-code" && r["level"] == "error")
    );
}

/// A finding on a long line shows a window of it, and a long span a window of its start: a
/// 700-character description is not printed whole with 700 carets under it.
#[test]
fn a_long_line_and_a_long_span_are_cut_around_the_finding() {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("skills/long");
    fs::create_dir_all(&skill).unwrap();
    let description = "Handles PDFs: forms, tables and more. ".repeat(18);
    fs::write(
        skill.join("SKILL.md"),
        format!(
            "---\nname: long\ndescription: {}\n---\nBody\n",
            description.trim_end()
        ),
    )
    .unwrap();
    let output = run_in(dir.path(), &["check", "skills"]);
    let text = stdout(&output);
    assert!(text.contains("hint[description-trigger]"), "{text}");
    for line in text.lines().filter(|line| line.contains(" | ")) {
        assert!(
            line.chars().count() <= 140,
            "a line of {} characters:\n{line}",
            line.chars().count()
        );
    }
    let frame: Vec<&str> = text
        .split("hint[description-trigger]")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|line| line.contains(" | "))
        .collect();
    assert!(
        frame[0].ends_with('…'),
        "the cut line ends with an ellipsis: {}",
        frame[0]
    );
    assert!(
        frame[1].trim_end().ends_with("^ …"),
        "the underline says the span goes on: {}",
        frame[1]
    );
}

/// Where a skill lives says whom it is checked for: a plugin's skill for Claude Code (which
/// reads `disable-model-invocation` and does not care what the spec's validator says), a
/// portable collection's for every client, with the validator's verdict a warning. The summary
/// says so, and `--statistics` counts findings by rule instead of listing them.
#[test]
fn a_plugin_skill_is_checked_for_claude_code_and_the_summary_says_for_whom() {
    let dir = tempfile::tempdir().unwrap();
    let skill = "---\nname: x\ndescription: Deploys the app. Use when the user asks to deploy.\ndisable-model-invocation: true\n---\nBody\n";
    write(
        &dir.path().join("deploy/.claude-plugin/plugin.json"),
        "{\"name\": \"deploy\", \"version\": \"1.0.0\", \"description\": \"Deploys.\", \"author\": {\"name\": \"A\"}}\n",
    );
    write(&dir.path().join("deploy/skills/x/SKILL.md"), skill);
    write(&dir.path().join("skills/x/SKILL.md"), skill);
    let report = json_in(dir.path(), &["check", "--format", "json"]);
    let found: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| format!("{} {} {}", d["path"], d["rule"], d["severity"]))
        .collect();
    assert_eq!(
        found,
        [r#""skills/x/SKILL.md" "unknown-field" "warning""#],
        "{report:#}"
    );
    let human = run_in(dir.path(), &["check"]);
    assert_eq!(human.status.code(), Some(0));
    assert!(
        stdout(&human).contains("Checked for: 1 plugin skill for Claude Code; 1 portable skill for Claude Code, Codex, Copilot, OpenCode and Gemini CLI (skills-ref for portability)."),
        "{}",
        stdout(&human)
    );
    // Chosen targets win, and are taken at their word.
    let chosen = run_in(dir.path(), &["check", "--target", "agentskills"]);
    assert_eq!(chosen.status.code(), Some(1), "{}", stdout(&chosen));
    assert!(stdout(&chosen).contains("Checked for: 2 skills for the chosen targets: skills-ref."));
    let statistics = run_in(
        dir.path(),
        &["check", "--target", "agentskills", "--statistics"],
    );
    let text = stdout(&statistics);
    assert!(text.starts_with("2  unknown-field\n"), "{text}");
    assert!(!text.contains("error["), "{text}");
}

/// `--format concise` prints one line per finding, the same findings at the same positions as
/// the JSON, `[*]` where `--fix` applies the fix, and the human summary without code frames.
#[test]
fn concise_format_is_one_line_per_finding() {
    let args = [
        "check",
        "tests/fixtures/unquoted-colon",
        "tests/fixtures/name-format",
    ];
    let (value, json_code) = json(&[&args[..], &["--format", "json"]].concat());
    let output = run(&[&args[..], &["--format", "concise"]].concat());
    assert_eq!(output.status.code(), Some(json_code));
    let text = stdout(&output);
    let expected: Vec<String> = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{}: {}[{}] {}{}",
                d["path"].as_str().unwrap(),
                d["range"]["start"]["line"],
                d["range"]["start"]["column"],
                d["severity"].as_str().unwrap(),
                d["rule"].as_str().unwrap(),
                d["message"].as_str().unwrap(),
                if d["fix"]["safe"] == true { " [*]" } else { "" }
            )
        })
        .collect();
    assert!(expected.len() >= 3, "{value:#}");
    assert!(expected.iter().any(|line| line.ends_with(" [*]")));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..expected.len()], expected, "{text}");
    let rest = lines[expected.len()..].join("\n");
    assert!(rest.starts_with("Checked for: "), "{rest}");
    assert!(
        rest.contains("fixable with `skill-lsp check --fix` (marked [*])."),
        "{rest}"
    );
    assert!(
        !text.contains("-->") && !text.contains("Findings by rule"),
        "{text}"
    );
}

/// `exclude` replaces the default exclusions, `extend-exclude` and `--exclude` add to them, all
/// gitignore-style; `check` does not walk into what they leave out and `catalog` does not list
/// it.
#[test]
fn excluded_paths_are_neither_checked_nor_listed() {
    let dir = tempfile::tempdir().unwrap();
    let broken = "---\nname: x\n";
    write(&dir.path().join("tests/fixtures/bad/SKILL.md"), broken);
    write(&dir.path().join("node_modules/pkg/SKILL.md"), broken);
    write(&dir.path().join(".claude/skills/pdf/SKILL.md"), GOOD);
    write(
        &dir.path().join(".claude/skills/old/SKILL.md"),
        GOOD.replace("name: pdf", "name: old"),
    );
    let files = |args: &[&str]| {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        json_in(dir.path(), &all)["checked"]["files"].clone()
    };
    // By default node_modules and test fixtures are left out.
    assert_eq!(files(&[]), 2);
    write(
        &dir.path().join("skill-lsp.toml"),
        "extend-exclude = [\".claude/skills/old\"]\n",
    );
    assert_eq!(files(&[]), 1);
    assert_eq!(files(&["--exclude", ".claude/skills/pdf/"]), 0);
    let catalog = run_in(dir.path(), &["catalog"]);
    let listed = stdout(&catalog);
    assert!(
        listed.contains("pdf") && !listed.contains("old"),
        "{listed}"
    );
    // `exclude` replaces the defaults: node_modules is walked again.
    write(&dir.path().join("skill-lsp.toml"), "exclude = []\n");
    assert_eq!(files(&[]), 4);
    write(
        &dir.path().join("skill-lsp.toml"),
        "exclude = [\"[z-a]\"]\n",
    );
    let bad = run_in(dir.path(), &["check"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("skill-lsp.toml:1:1: bad exclude pattern '[z-a]'"),
        "{}",
        stderr(&bad)
    );
}
