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
    "src/rule_docs.rs",
    "src/document",
    "src/clients",
    "src/rules",
    "src/workspace",
    "src/plugins",
    "src/security",
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
            // Whole paths only: `crate::cli` is not `crate::clients`.
            let mentioned = text.match_indices(word).any(|(at, _)| {
                !text[at + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            assert!(!mentioned, "{} mentions {word}", file.display());
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
            "plugins::lint_",
            "security::scan",
            "security::mismatch",
            "security::skill_findings",
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
        // The Rules table lists the severities `skill-lsp rules` prints.
        let row = format!("| `{}` | {} |", rule.as_str(), rule.severity_list());
        assert!(
            readme.contains(&row),
            "README's Rules table has no row {row}"
        );
    }
}

/// The docs name the repository's own files by their paths in it: an absolute path
/// (`/home/me/skill-lsp/target/release/skill-lsp`) is the machine a measurement ran on.
#[test]
fn docs_name_the_repository_files_relative_to_it() {
    let absolute = regex::Regex::new(
        r#"(?m)(?:^|[\s`(="'])(/[^\s`"']*?/(?:target|\.bench|scripts|src|tests|docs|editors)/)"#,
    )
    .unwrap();
    let mut files = vec![Path::new(ROOT).join("README.md")];
    let mut folders = vec![Path::new(ROOT).join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|extension| extension == "md") {
                files.push(path);
            }
        }
    }
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for hit in absolute.captures_iter(&text) {
            let at = hit.get(1).unwrap();
            let line = text[..at.start()].lines().count().max(1);
            found.push(format!("{}:{line}: {}", file.display(), at.as_str()));
        }
    }
    assert!(
        found.is_empty(),
        "absolute paths into the repository:\n{}",
        found.join("\n")
    );
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
        let default = format!("(default `{}`)", rule.severity_list());
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
        "# skill-lsp rules\n\nGenerated from the rule definitions (`skill-lsp rules RULE` prints the same).\nA rule with several severities prints the one that fits what the clients a skill is checked for do with it (security rules: how certain the pattern is and where the text sits); `[rules]` in `skill-lsp.toml` can set one per rule.\n",
    );
    for rule in Rule::ALL {
        let doc = rule.doc();
        text.push_str(&format!(
            "\n## {id}\n\n{title}, **{severities}**: {how}.\n\n- What: {what}\n- Why: {why}\n- Example: {example}\n- Fix: {fix}\n",
            id = rule.as_str(),
            title = rule.group().title(),
            severities = rule.severity_list(),
            how = rule.severity_text(),
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
        "docs/rules.md is stale: run UPDATE_DOCS=1 cargo test --test it tidy::"
    );
}

#[test]
fn readme_documents_every_custom_lsp_method() {
    let readme = fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    for method in skill_lsp::lsp::ext::COMMANDS {
        assert!(readme.contains(method), "README does not document {method}");
    }
}

/// The module path of a source file: `src/lsp/handlers/mod.rs` is `lsp::handlers`.
fn module_of(file: &Path) -> String {
    let relative = file.strip_prefix(Path::new(ROOT).join("src")).unwrap();
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

/// Every path a `use` tree names: `a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        if !path.is_empty() {
            out.push(format!("{prefix}{path}"));
        }
        return;
    };
    let head = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let prefix = format!("{prefix}{head}");
    let (mut depth, mut start) = (0, 0);
    for (at, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand_use(&prefix, &inner[start..at], out);
                start = at + 1;
            }
            _ => {}
        }
    }
    expand_use(&prefix, &inner[start..], out);
}

#[test]
fn modules_do_not_depend_on_each_other_in_a_cycle() {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    let modules: Vec<String> = files.iter().map(|file| module_of(file)).collect();
    // The longest module that is a prefix of `path` (an item path resolves to its module).
    let resolve = |path: &str| -> Option<usize> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len()).rev().find_map(|len| {
            modules
                .iter()
                .position(|module| *module == parts[..len].join("::"))
        })
    };
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); files.len()];
    for (index, file) in files.iter().enumerate() {
        let text = fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        let code: String = code
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let module = &modules[index];
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        let mut paths = Vec::new();
        for statement in code.split(';') {
            if let Some(at) = statement.find("use crate::") {
                expand_use("", &statement[at + "use crate::".len()..], &mut paths);
            } else if let Some(at) = statement.find("use super::") {
                let tree = &statement[at + "use super::".len()..];
                expand_use(&format!("{parent}::"), tree, &mut paths);
            }
        }
        for (at, _) in code.match_indices("crate::") {
            let rest: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|ch| ch.is_alphanumeric() || *ch == '_' || *ch == ':')
                .collect();
            paths.push(rest.trim_end_matches(':').to_owned());
        }
        for path in paths {
            let path = path.trim_start_matches("::");
            if let Some(target) = resolve(path) {
                let inside = module.starts_with(&format!("{}::", modules[target]));
                if target != index && !inside && !module.is_empty() {
                    edges[index].push(target);
                }
            }
        }
    }
    // A depth-first search that reports the first cycle it closes.
    fn visit(
        node: usize,
        edges: &[Vec<usize>],
        state: &mut [u8],
        stack: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[node] = 1;
        stack.push(node);
        for &next in &edges[node] {
            if state[next] == 1 {
                let from = stack.iter().position(|&n| n == next).unwrap();
                return Some(stack[from..].to_vec());
            }
            if state[next] == 0 {
                if let Some(cycle) = visit(next, edges, state, stack) {
                    return Some(cycle);
                }
            }
        }
        stack.pop();
        state[node] = 2;
        None
    }
    let mut state = vec![0u8; files.len()];
    for node in 0..files.len() {
        if state[node] == 0 {
            let cycle = visit(node, &edges, &mut state, &mut Vec::new());
            assert!(
                cycle.is_none(),
                "modules depend on each other in a cycle: {}",
                cycle
                    .unwrap()
                    .iter()
                    .map(|&n| modules[n].as_str())
                    .collect::<Vec<_>>()
                    .join(" -> ")
            );
        }
    }
}

/// The singular claim phrases a message can end with: the fixed ones of `Effect::phrase` and the
/// first string of every `Effect::Degrade(..)` and `Effect::Fine(..)` in the sources (tests
/// aside).
fn claim_phrases() -> std::collections::BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    let mut phrases = std::collections::BTreeSet::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or_default();
        for constructor in ["Effect::Degrade(", "Effect::Fine("] {
            for (at, _) in code.match_indices(constructor) {
                let rest = code[at + constructor.len()..].trim_start();
                if let Some(literal) = rest.strip_prefix('"') {
                    phrases.insert(literal[..literal.find('"').unwrap()].to_owned());
                }
            }
        }
        for line in code.lines() {
            if let Some((_, phrase)) = line
                .trim()
                .strip_prefix("(Effect::")
                .and_then(|rest| rest.split_once(", false) => \""))
            {
                phrases.insert(phrase.trim_end_matches("\",").to_owned());
            }
        }
    }
    phrases
}

/// Every claim about a client that a message can make is in `tests/clients/claims.json` with the
/// oracle cases that show it, and every case named there exists: a test function of
/// `tests/clients`, a skill of its scenarios or a case of its file, or an oracle script.
#[test]
fn every_client_claim_is_backed_by_an_oracle_case() {
    let claims: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(Path::new(ROOT).join("tests/clients/claims.json")).unwrap(),
    )
    .unwrap();
    let claims = claims.as_object().unwrap();
    let phrases = claim_phrases();
    assert!(
        phrases.contains("skips this skill") && phrases.len() > 15,
        "{phrases:?}"
    );
    let listed: std::collections::BTreeSet<String> = claims
        .keys()
        .filter(|key| !key.starts_with('_'))
        .cloned()
        .collect();
    let unbacked: Vec<_> = phrases.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&phrases).collect();
    assert!(
        unbacked.is_empty() && stale.is_empty(),
        "tests/clients/claims.json is out of step with the messages\nno oracle case: {unbacked:#?}\nno longer said: {stale:#?}"
    );
    let cases = fs::read_to_string(Path::new(ROOT).join("tests/clients/cases.py")).unwrap();
    for phrase in &listed {
        let evidence = claims[phrase]["evidence"].as_array().unwrap();
        assert!(!evidence.is_empty(), "{phrase}: no evidence");
        for item in evidence {
            let item = item.as_str().unwrap();
            let (place, case) = item
                .split_once('#')
                .map_or((item, None), |(a, b)| (a, Some(b)));
            let (file, function) = place
                .split_once("::")
                .map_or((place, None), |(a, b)| (a, Some(b)));
            let text = fs::read_to_string(Path::new(ROOT).join(file))
                .unwrap_or_else(|_| panic!("{phrase}: {file} does not exist"));
            if let Some(function) = function {
                assert!(
                    text.contains(&format!("def {function}(")),
                    "{phrase}: no {function} in {file}"
                );
            }
            if let Some(case) = case {
                let quoted = format!("\"{case}\"");
                assert!(
                    cases.contains(&quoted) || text.contains(&quoted),
                    "{phrase}: no case {case} in tests/clients/cases.py or {file}"
                );
            }
        }
    }
}

/// Every text file of the repository that people read or run, skipping what tools install.
fn repository_texts() -> Vec<PathBuf> {
    const SKIPPED: &[&str] = &["target", "node_modules", ".git", ".cache", ".bench", "out"];
    const TEXT: &[&str] = &[
        "rs", "md", "ts", "js", "lua", "sh", "py", "toml", "json", "yml",
    ];
    let mut files = vec![Path::new(ROOT).join(".ci/run")];
    let mut folders = vec![PathBuf::from(ROOT)];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(folder).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if !SKIPPED.iter().any(|skipped| name == *skipped) {
                    folders.push(path);
                }
            } else if path
                .extension()
                .and_then(|extension| extension.to_str())
                .is_some_and(|extension| TEXT.contains(&extension))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The reasons behind the code live in `docs/`: a comment that cites a document a clone does
/// not have explains nothing, and a citation of `design.md` names a section that exists.
#[test]
fn the_design_is_cited_from_the_repository() {
    let outside =
        // A citation may break across a comment's lines ("SPEC\n//! section 6").
        regex::Regex::new(r"(?:SPEC|STYLE)(?:\s|//!?|#)+section|shared[/]reference|SPEC\.md")
            .unwrap();
    let citation = regex::Regex::new(r#"design\.md §(\d+(?:\.\d+)?)(?:, "([^"]+)")?"#).unwrap();
    let design = fs::read_to_string(Path::new(ROOT).join("docs/design.md")).unwrap();
    let sections: Vec<&str> = design
        .lines()
        .filter_map(|line| line.strip_prefix("## ").or(line.strip_prefix("### ")))
        .filter_map(|heading| heading.split_once(' '))
        .map(|(number, _)| number.trim_end_matches('.'))
        .collect();
    let mut found = Vec::new();
    let mut cited = 0;
    for file in repository_texts() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let shown = file.strip_prefix(ROOT).unwrap().display().to_string();
        for hit in outside.find_iter(&text) {
            let line = text[..hit.start()].matches('\n').count() + 1;
            found.push(format!(
                "{shown}:{line}: cites notes outside the repository"
            ));
        }
        for (number, line) in text.lines().enumerate() {
            for hit in citation.captures_iter(line) {
                cited += 1;
                if !sections.contains(&&hit[1]) {
                    found.push(format!(
                        "{shown}:{}: no section §{} in docs/design.md",
                        number + 1,
                        &hit[1]
                    ));
                }
                if let Some(title) = hit.get(2) {
                    if !design.contains(title.as_str()) {
                        found.push(format!(
                            "{shown}:{}: docs/design.md has no \"{}\"",
                            number + 1,
                            title.as_str()
                        ));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(
        cited > 50,
        "only {cited} citations of docs/design.md found: is the walk right?"
    );
}

/// The module names a piece of text lists as the core, in backticks, in order of appearance.
fn listed_modules(text: &str) -> std::collections::BTreeSet<String> {
    let name = regex::Regex::new(r"`([a-z_]+)`").unwrap();
    name.captures_iter(text)
        .map(|hit| hit[1].to_string())
        .collect()
}

/// `CORE` is the one list of core modules: docs/ARCHITECTURE.md's core section and lib.rs's
/// doc comment name the same modules.
#[test]
fn the_core_is_listed_once() {
    let core: std::collections::BTreeSet<String> = CORE
        .iter()
        .map(|path| {
            let file = path.trim_start_matches("src/");
            file.trim_end_matches(".rs").to_string()
        })
        .collect();
    let architecture = fs::read_to_string(Path::new(ROOT).join("docs/ARCHITECTURE.md")).unwrap();
    let section = architecture
        .split("### The core")
        .nth(1)
        .and_then(|rest| rest.split("\n### ").next())
        .expect("docs/ARCHITECTURE.md has a '### The core' section");
    let bullets: String = section
        .lines()
        .filter_map(|line| line.strip_prefix("- "))
        .filter_map(|line| line.split(" — ").next())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        listed_modules(&bullets),
        core,
        "docs/ARCHITECTURE.md's core section"
    );
    let lib = fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap();
    let doc: String = lib
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .filter(|line| !line.contains("front end"))
        .collect::<Vec<_>>()
        .join(" ");
    let named = doc.split("The core").nth(1).unwrap_or_default();
    let named = named.split(" is ").next().unwrap_or_default();
    assert_eq!(listed_modules(named), core, "src/lib.rs's doc comment");
}

/// Every row of docs/ARCHITECTURE.md's invariants table names a test, `FILE::NAME`, that
/// exists: a guard that is not a test guards nothing.
#[test]
fn every_invariant_names_a_test_that_exists() {
    let architecture = fs::read_to_string(Path::new(ROOT).join("docs/ARCHITECTURE.md")).unwrap();
    let table = architecture
        .split("## Invariants")
        .nth(1)
        .expect("docs/ARCHITECTURE.md has an Invariants section");
    let reference = regex::Regex::new(r"`([\w/.-]+\.(?:rs|py|ts|lua))::(\w+)`").unwrap();
    let mut problems = Vec::new();
    let mut rows = 0;
    for row in table.lines().filter(|line| line.starts_with("| ")).skip(2) {
        rows += 1;
        let mut named = 0;
        for hit in reference.captures_iter(row) {
            named += 1;
            let (file, test) = (&hit[1], &hit[2]);
            let Ok(text) = fs::read_to_string(Path::new(ROOT).join(file)) else {
                problems.push(format!("{file} does not exist"));
                continue;
            };
            let defined = [
                format!("fn {test}("),
                format!("def {test}("),
                format!("fn {test}<"),
            ];
            if !defined
                .iter()
                .any(|definition| text.contains(definition.as_str()))
            {
                problems.push(format!("{file} has no test {test}"));
            }
        }
        if named == 0 {
            problems.push(format!("a row names no test: {row}"));
        }
    }
    assert!(rows >= 10, "only {rows} invariants found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// CI, the pull-request workflow and the README run one entry point, so a pull request is
/// checked as `.ci/run` checks main.
#[test]
fn ci_the_workflow_and_the_readme_run_the_xtask() {
    let read = |path: &str| fs::read_to_string(Path::new(ROOT).join(path)).unwrap();
    assert!(read(".ci/run").contains("\ncargo xtask ci\n"), ".ci/run");
    assert!(
        read(".github/workflows/ci.yml").contains("run: cargo xtask ci\n"),
        ".github/workflows/ci.yml"
    );
    let workflow = read(".github/workflows/ci.yml");
    assert!(
        workflow.contains("pull_request:"),
        "the workflow runs on pull requests"
    );
    assert!(
        read("README.md").contains("```sh\ncargo xtask test\n```"),
        "the README's test command"
    );
    assert!(
        !Path::new(ROOT).join("scripts/test.sh").exists(),
        "a second entry point for the test suite"
    );
}

/// The quoted strings between `start` and the first `end` after it in a repository file.
fn quoted_list(file: &str, start: &str, end: &str) -> Vec<String> {
    let text = fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{file} has no {start}"));
    let block = &text[from + start.len()..];
    let block = &block[..block.find(end).unwrap()];
    block
        .split(['"', '\''])
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Both editors must know the eval set's names before the server runs (to sync and watch those
/// files): their lists are the server's, in its order.
#[test]
fn the_editors_know_the_servers_eval_set_names() {
    let server = quoted_list(
        "src/agent/eval/set.rs",
        "pub(crate) const SET_FILES: &[&str] = &[",
        "];",
    );
    assert_eq!(server.len(), 7, "{server:?}");
    let vscode = quoted_list(
        "editors/vscode/src/client.ts",
        "export const EVAL_SET_FILES = [",
        "];",
    );
    assert_eq!(
        vscode, server,
        "editors/vscode/src/client.ts EVAL_SET_FILES"
    );
    let mut nvim = quoted_list(
        "editors/nvim/lua/skill_lsp/config.lua",
        "M.eval_files = {",
        "}",
    );
    assert_eq!(nvim.pop().as_deref(), Some("evals/evals.json"));
    assert_eq!(
        nvim, server,
        "editors/nvim/lua/skill_lsp/config.lua M.eval_files"
    );
}
