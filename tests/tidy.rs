//! Keeps the architecture honest: the core stays free of LSP, async and HTTP types, and the
//! README documents every rule.

use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const CORE: &[&str] = &[
    "src/analysis.rs",
    "src/text.rs",
    "src/diagnostic.rs",
    "src/targets.rs",
    "src/config.rs",
    "src/field_table.rs",
    "src/rule_table.rs",
    "src/document",
    "src/rules",
    "src/workspace",
];
/// The front ends' crates, and the front ends themselves: the core depends on neither.
const FORBIDDEN: &[&str] = &[
    "tower_lsp_server",
    "lsp_types",
    "tokio",
    "reqwest",
    "crate::lsp",
    "crate::agent",
    "crate::cli",
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|ext| ext == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn core_modules_know_nothing_of_lsp_async_or_http() {
    let mut files = Vec::new();
    for part in CORE {
        rust_files(&Path::new(ROOT).join(part), &mut files);
    }
    assert!(files.len() > 10);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in FORBIDDEN {
            assert!(!text.contains(word), "{} mentions {word}", file.display());
        }
    }
}

/// Front ends only convert: every finding comes from `analysis::Engine`, so none of them runs a
/// rule, a workspace rule or a severity override itself.
#[test]
fn front_ends_reach_the_rules_only_through_the_engine() {
    let mut files = Vec::new();
    for part in ["src/cli", "src/lsp", "src/agent", "src/main.rs"] {
        rust_files(&Path::new(ROOT).join(part), &mut files);
    }
    assert!(files.len() > 10);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in [
            "rules::lint_",
            "rules::cross_skill::",
            "NearNames",
            "rules.apply(",
            "FileContext",
        ] {
            assert!(!text.contains(word), "{} uses {word}", file.display());
        }
    }
}

/// Positions are converted from text already in hand: no converter reads a file.
#[test]
fn no_position_conversion_reads_the_disk() {
    let mut files = Vec::new();
    for part in [
        "src/lsp/convert.rs",
        "src/lsp/documents.rs",
        "src/cli/format",
    ] {
        rust_files(&Path::new(ROOT).join(part), &mut files);
    }
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in ["read_text", "read_bytes", "fs::read", "File::open"] {
            assert!(!text.contains(word), "{} uses {word}", file.display());
        }
    }
}

#[test]
fn readme_documents_every_rule() {
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    for rule in skill_lsp::rules::Rule::ALL {
        assert!(
            readme.contains(&format!("`{}`", rule.as_str())),
            "README does not mention {rule}"
        );
    }
}

#[test]
fn vscode_settings_offer_every_rule() {
    let manifest: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(Path::new(ROOT).join("editors/vscode/package.json")).unwrap(),
    )
    .unwrap();
    let listed =
        &manifest["contributes"]["configuration"]["properties"]["skillLsp.rules"]["properties"];
    let listed: std::collections::BTreeSet<&str> = listed
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let rules: std::collections::BTreeSet<&str> = skill_lsp::rules::Rule::ALL
        .iter()
        .map(|rule| rule.as_str())
        .collect();
    assert_eq!(
        listed, rules,
        "editors/vscode/package.json skillLsp.rules is out of step"
    );
    for rule in skill_lsp::rules::Rule::ALL {
        let description = listed_description(&manifest, rule.as_str());
        let default = format!("(default `{}`)", rule.default_severity().as_str());
        assert!(
            description.ends_with(&default),
            "{}: {description}",
            rule.as_str()
        );
    }
}

fn listed_description<'a>(manifest: &'a serde_json::Value, rule: &str) -> &'a str {
    manifest["contributes"]["configuration"]["properties"]["skillLsp.rules"]["properties"][rule]
        ["markdownDescription"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn every_rule_has_a_fixture() {
    for rule in skill_lsp::rules::Rule::ALL {
        assert!(
            Path::new(ROOT)
                .join("tests/fixtures")
                .join(rule.as_str())
                .is_dir(),
            "no tests/fixtures/{rule}"
        );
    }
}

/// `docs/rules.md`, which every diagnostic links to, is generated from the rule docs; run with
/// `UPDATE_DOCS=1` to rewrite it.
#[test]
fn rules_doc_is_in_step_with_the_code() {
    use skill_lsp::rules::Rule;
    let mut text = String::from(
        "# skill-lsp rules\n\nGenerated from the rule definitions (`skill-lsp rules RULE` prints the same).\nSeverities are defaults; `skill-lsp.toml` can change them per rule.\n",
    );
    for rule in Rule::ALL {
        let doc = rule.doc();
        text.push_str(&format!(
            "\n## {id}\n\n{title}, default **{severity}**.\n\n- What: {what}\n- Why: {why}\n- Example: {example}\n- Fix: {fix}\n",
            id = rule.as_str(),
            title = rule.group().title(),
            severity = rule.default_severity().as_str(),
            what = doc.summary,
            why = doc.why,
            example = doc.example,
            fix = doc.fix,
        ));
    }
    let path = Path::new(ROOT).join("docs/rules.md");
    if std::env::var_os("UPDATE_DOCS").is_some() {
        fs::write(&path, &text).unwrap();
    }
    assert_eq!(
        fs::read_to_string(&path).unwrap_or_default(),
        text,
        "docs/rules.md is stale: run UPDATE_DOCS=1 cargo test --test tidy"
    );
}

#[test]
fn readme_documents_every_custom_lsp_method() {
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    for method in skill_lsp::lsp::ext::COMMANDS {
        assert!(readme.contains(method), "README does not document {method}");
    }
}
