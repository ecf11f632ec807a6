//! Messages as prose: diagnostic messages and fix titles are shown as plain text (the Problems
//! panel, quick-fix menus, terminals), so they carry no Markdown — no backticks, no `**`. Every
//! fixture and a set of generated broken inputs are linted through the library for every target
//! (all fixes, not just the first), and `check --format json` covers the workspace rules.

use crate::invariants;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use skill_lsp::rules::{FileContext, lint_bytes};
use skill_lsp::targets::ALL_CLIENTS;

const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Why `text` does not read as plain text, if it does not.
fn markup(text: &str) -> Option<&'static str> {
    if text.contains('`') {
        Some("a backtick")
    } else if text.contains("**") {
        Some("'**'")
    } else {
        None
    }
}

/// The markup problems of every message and fix title for `bytes` as `path`, for each target.
fn problems(path: &Path, bytes: &[u8], out: &mut Vec<String>) {
    let folder = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let exists = move |relative: &Path| folder.join(relative).exists();
    for target in ALL_CLIENTS {
        let context = FileContext {
            path,
            targets: &[target],
            advisory: skill_lsp::targets::ClientSet::NONE,
            home: skill_lsp::targets::Home::Portable,
            exists: &exists,
            security: true,
        };
        let (_, diagnostics) = lint_bytes(bytes, &context);
        for diagnostic in diagnostics {
            let mut texts = vec![("message", diagnostic.message.clone())];
            texts.extend(
                diagnostic
                    .fixes
                    .iter()
                    .map(|fix| ("fix title", fix.title.clone())),
            );
            for (what, text) in texts {
                if let Some(why) = markup(&text) {
                    out.push(format!(
                        "{} ({}): the {what} has {why}: {text}",
                        path.display(),
                        diagnostic.rule
                    ));
                }
            }
        }
    }
}

/// Every file under `dir` whose name is SKILL.md in any case.
fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            skill_files(&path, out);
        } else if path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.eq_ignore_ascii_case("SKILL.md"))
        {
            out.push(path);
        }
    }
}

/// Broken inputs that reach most rules, beyond the fixtures.
const BROKEN: &[&str] = &[
    "---\nname: PDF_Tools\ndescription: \"\"\nmode: x\nversion: 1.0\nuser-invocable: yes\ncontext: forked\nlicense: no\nmetadata:\n  version: 1.10\n  tags: [a, b]\nallowed-tools: Read, Grep\n---\n",
    "---\nname: claude-helper\ndescription: Reads <b>files</b>: all of them\nargument-hint: [a, b]\nhooks:\n  PreToolUse: run\ndisableModelInvocation: true\nwhen_to_use: now\ncompatibility: \"\"\n---\nSee [a](references/gone.md), [b](../out.md), scripts/gone.py, /pdff and $code-reveiw.\n",
    "---\nname: a--b\nname: a\ndescription: &d x\nsummary: *d\nmetadata: x\n---\n",
    "-----\nname: pdf\ndescription: x\n---\n",
    "text first\n---\nname: pdf\n---\n",
    "---\n- a\n- b\n---\n",
    "---\n---\n",
    "---\nname: pdf\ndescription: Use when: x\n",
    "\u{feff}---\nname: pdf\ndescription: x\n---\n",
    "no frontmatter at all\n",
    "---\nname: [a\n---\n",
];

#[test]
fn messages_and_fix_titles_have_no_markdown() {
    let mut problems_found = Vec::new();
    let mut files = Vec::new();
    skill_files(&Path::new(ROOT).join("tests/fixtures"), &mut files);
    assert!(files.len() > 30, "only {} fixtures found", files.len());
    for file in &files {
        let bytes = fs::read(file).unwrap();
        problems(file, &bytes, &mut problems_found);
    }
    let generated = Path::new(ROOT).join("tests/fixtures/generated/SKILL.md");
    let long_name = format!(
        "---\nname: {}\ndescription: {}\n---\n",
        "a".repeat(70),
        "Does things. ".repeat(100)
    );
    let mut inputs: Vec<String> = BROKEN.iter().map(|&text| text.to_owned()).collect();
    inputs.push(long_name);
    inputs.extend(invariants::SEEDS.iter().map(|&seed| seed.to_owned()));
    // Seeds with pieces spliced in at fixed pseudo-random places.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % bound as u64).unwrap()
    };
    for _ in 0..400 {
        let mut text = invariants::SEEDS[next(invariants::SEEDS.len())].to_owned();
        for _ in 0..3 {
            let piece = invariants::PIECES[next(invariants::PIECES.len())];
            let mut at = next(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert_str(at, piece);
        }
        inputs.push(text);
    }
    for input in &inputs {
        problems(&generated, input.as_bytes(), &mut problems_found);
    }
    for name in ["skill.md", "Skill.md"] {
        let path = Path::new(ROOT).join("tests/fixtures/generated").join(name);
        problems(&path, BROKEN[0].as_bytes(), &mut problems_found);
    }
    problems(&generated, b"---\nname: \xff\n---\n", &mut problems_found);
    assert!(problems_found.is_empty(), "{}", problems_found.join("\n"));
}

#[test]
fn workspace_rule_messages_have_no_markdown() {
    let mut args = vec!["check", "tests/fixtures", "--format", "json"];
    for id in [
        "agentskills",
        "claude-upload",
        "claude-code",
        "codex",
        "copilot",
        "opencode",
        "gemini",
    ] {
        args.extend(["--target", id]);
    }
    let output = Command::new(BIN)
        .args(&args)
        .current_dir(ROOT)
        .output()
        .unwrap();
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let diagnostics = value["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() > 30, "{value}");
    let mut found = Vec::new();
    for diagnostic in diagnostics {
        let texts = [
            diagnostic["message"].as_str(),
            diagnostic["fix"]["title"].as_str(),
        ];
        for text in texts.into_iter().flatten() {
            if let Some(why) = markup(text) {
                found.push(format!("{} has {why}: {text}", diagnostic["rule"]));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
