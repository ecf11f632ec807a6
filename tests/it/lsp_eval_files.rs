//! A skill's eval files in the language server, whatever their names: a trigger set under any
//! name of `set::SET_FILES` is the one `skill/runEvals` and the code lens measure (the first
//! that exists), a set that another comes before says so, and `evals/evals.json` (output evals)
//! gets its problems as diagnostics at their exact ranges. Against a scripted Messages API
//! server on 127.0.0.1.

use crate::lsp_client;
use crate::scripted_server;

use crate::lsp_eval::{json_opened, lenses_of, load, start_with_model};
use lsp_client::{Client, at};
use scripted_server::Server;
use serde_json::Value;
use skill_lsp::lsp::ext::{Catalog, CatalogParams, RunEvals, RunEvalsParams};
use tower_lsp_server::ls_types as lsp;

const KEY: &str = "sk-ant-test-PLANTED-KEY-evalfiles-26";
const PDF: &str =
    "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF.\n---\n# PDF\n";
/// The Agent Skills guide's name, with the train/validation split it suggests.
const EVAL_QUERIES: &str = r#"[
  {"query": "fill in this pdf form", "should_trigger": true, "split": "train"},
  {"query": "what is the weather", "should_trigger": false, "split": "validation"}
]
"#;
/// skill-creator's export, left at the top of the skill folder.
const EVAL_SET: &str = r#"[{"query": "never measured", "should_trigger": true}]"#;

fn lens_titles(client: &mut Client, uri: &str) -> Vec<String> {
    let lenses = client.ask::<lsp::request::CodeLensRequest>(lenses_of(uri));
    lenses
        .as_array()
        .map(|lenses| {
            lenses
                .iter()
                .map(|lens| lens["command"]["title"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Each diagnostic as `(start line, start character, end line, end character, severity, code,
/// message)`.
fn ranges(diagnostics: &[Value]) -> Vec<(u64, u64, u64, u64, u64, String, String)> {
    diagnostics
        .iter()
        .map(|d| {
            (
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["character"].as_u64().unwrap(),
                d["range"]["end"]["line"].as_u64().unwrap(),
                d["range"]["end"]["character"].as_u64().unwrap(),
                d["severity"].as_u64().unwrap(),
                d["code"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn run_evals_measures_eval_queries_json_and_says_which_set_it_ran() {
    let server = Server::start(vec![load("pdf"), load("pdf")]);
    let mut client = start_with_model(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/pdf/evals/eval_queries.json", EVAL_QUERIES),
        ],
        KEY,
    );
    let uri = client.open("skills/pdf/SKILL.md", PDF);
    assert_eq!(lens_titles(&mut client, &uri), ["Run trigger evals"]);
    let result = client.ask::<RunEvals>(RunEvalsParams {
        uri: Some(uri.clone()),
        runs: Some(1),
        ..RunEvalsParams::default()
    });
    assert!(
        result["eval_set"]
            .as_str()
            .unwrap()
            .ends_with("skills/pdf/evals/eval_queries.json"),
        "{result:#}"
    );
    let queries: Vec<&str> = result["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|it| it["query"].as_str().unwrap())
        .collect();
    assert_eq!(queries, ["fill in this pdf form", "what is the weather"]);
    assert_eq!(server.requests().len(), 2);
    assert_eq!(
        lens_titles(&mut client, &uri),
        ["Trigger evals: 1/2 \u{2014} 1 wrongly loaded, 2 undecided"]
    );

    // skill-creator's export beside the SKILL.md comes later in the order: the lens names the
    // set it runs, and the export, open, says it is not measured.
    let export = client.uri("skills/pdf/eval_set.json");
    client.tell::<lsp::notification::DidOpenTextDocument>(json_opened(&export, EVAL_SET));
    let found = ranges(&client.diagnostics(&export, Some(1)));
    assert_eq!(found.len(), 1, "{found:#?}");
    let (line, start, end_line, end, severity, code, message) = &found[0];
    assert_eq!((*line, *start, *end_line, *end, *severity), (0, 0, 0, 1, 3));
    assert_eq!(code, "eval-set");
    assert!(
        message.starts_with("This set is not measured: the skill's trigger evals run evals/eval_queries.json, the first of evals/triggers.json, "),
        "{message}"
    );
    assert_eq!(
        lens_titles(&mut client, &uri),
        ["Trigger evals: 1/2 \u{2014} 1 wrongly loaded, 2 undecided (evals/eval_queries.json)"]
    );
    let (log, stderr) = client.finish();
    assert!(!log.iter().any(|m| m.to_string().contains(KEY)));
    assert!(!stderr.contains(KEY));
}

#[test]
fn an_open_evals_json_gets_its_problems_at_their_ranges_and_key_completion() {
    let server = Server::start(vec![]);
    let mut client = start_with_model(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/pdf/evals/files/form.pdf", "%PDF-1.4\n"),
        ],
        KEY,
    );
    let evals = client.uri("skills/pdf/evals/evals.json");
    let text = r#"{
  "skill_name": "pdf-forms",
  "evals": [
    {"id": 1, "prompt": "Fill in form.pdf", "files": ["evals/files/form.pdf"]},
    {"id": 1, "expected_output": "A filled form", "files": ["evals/files/gone.pdf"]}
  ]
}
"#;
    client.tell::<lsp::notification::DidOpenTextDocument>(json_opened(&evals, text));
    let found = ranges(&client.diagnostics(&evals, Some(1)));
    let warning = 2;
    let error = 1;
    let code = || "output-evals".to_owned();
    assert_eq!(
        found,
        [
            (
                1,
                16,
                1,
                27,
                warning,
                code(),
                "skill_name is 'pdf-forms', but the skill's frontmatter name is 'pdf'".into()
            ),
            (
                4,
                4,
                4,
                5,
                error,
                code(),
                "eval 2 has no \"prompt\"; every eval needs the user message".into()
            ),
            (
                4,
                11,
                4,
                12,
                error,
                code(),
                "id 1 is also the id of eval 1; each eval needs its own".into()
            ),
            (
                4,
                60,
                4,
                82,
                warning,
                code(),
                "no file evals/files/gone.pdf in the skill folder (files are relative to it)"
                    .into()
            ),
        ]
    );
    let items = client.ask::<lsp::request::Completion>(lsp::CompletionParams {
        text_document_position: at(&evals, 3, 5),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    });
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"prompt") && labels.contains(&"expectations"),
        "{labels:?}"
    );

    // No SKILL.md beside it: another project's evals.json is left alone.
    let stray = client.uri("tools/evals/evals.json");
    client.tell::<lsp::notification::DidOpenTextDocument>(json_opened(&stray, "[1, 2"));
    client.ask::<Catalog>(CatalogParams {});
    assert!(
        !client
            .log
            .iter()
            .any(|m| m["params"]["uri"] == stray.as_str()),
        "a JSON file of no skill was linted"
    );
    assert!(server.requests().is_empty());
    client.shutdown();
}
