//! Trigger evals in the language server end to end: the code lens, `skill/runEvals` with its
//! `$/progress` and `skill/evalResult` notifications, the `trigger-evals` information
//! diagnostic, cancellation and errors, against a scripted Messages API server on 127.0.0.1.

use crate::lsp_client;
use crate::scripted_server;

use std::time::Duration;

use lsp_client::{Client, at, document, lsp_uri};
use scripted_server::{Reply, Server, anthropic_stream};
use serde_json::{Value, json};
use skill_lsp::lsp::ext::{
    Catalog, CatalogParams, ImproveDescription, ImproveDescriptionParams, RunEvals, RunEvalsParams,
};
use tower_lsp_server::ls_types::{self as lsp, NumberOrString};

const KEY: &str = "sk-ant-test-PLANTED-KEY-lspeval-31";
const PDF: &str =
    "---\nname: pdf\ndescription: Fills PDF forms. Use when the user has a PDF.\n---\n# PDF\n";
const DOCX: &str = "---\nname: docx\ndescription: Edits Word documents.\n---\n# DOCX\n";
const TRIGGERS: &str = r#"[
  {"query": "fill in this pdf form", "should_trigger": true},
  {"query": "what is the weather", "should_trigger": false},
  {"query": "merge two pdf files", "should_trigger": true}
]
"#;

/// The scripted model's answer that loads `skill`.
pub(crate) fn load(skill: &str) -> Reply {
    Reply::sse(&anthropic_stream(
        &[json!({"tool": "load_skill", "id": "toolu_1", "input": {"name": skill}})],
        "tool_use",
    ))
}

fn start(server: &Server, files: &[(&str, &str)]) -> Client {
    start_with_model(server, files, KEY)
}

/// The server on a workspace of `files`, with the scripted Messages API `server` as its model
/// (under the API key `key`, which no message may show), for a client that shows progress and
/// runs the code lens of the trigger evals.
pub(crate) fn start_with_model(server: &Server, files: &[(&str, &str)], key: &str) -> Client {
    let url = server.url();
    let env = [
        ("ANTHROPIC_API_KEY", key),
        ("ANTHROPIC_BASE_URL", url.as_str()),
        ("MODEL_ID", "test-model"),
        ("SKILL_LSP_RETRY_BASE_MS", "5"),
    ];
    Client::start_with_env(
        files,
        json!({"window": {"workDoneProgress": true}, "experimental": {"skillLsp": {"runTriggerEvals": true}}}),
        &env,
    )
}

pub(crate) fn lenses_of(uri: &str) -> lsp::CodeLensParams {
    lsp::CodeLensParams {
        text_document: document(uri),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    }
}

fn lens_title(client: &mut Client, uri: &str) -> String {
    let lenses = client.ask::<lsp::request::CodeLensRequest>(lenses_of(uri));
    assert_eq!(lenses.as_array().map(Vec::len), Some(1), "{lenses:#}");
    assert_eq!(lenses[0]["range"]["start"]["line"], 2, "{lenses:#}");
    assert_eq!(lenses[0]["command"]["command"], "skillLsp.runTriggerEvals");
    assert_eq!(lenses[0]["command"]["arguments"][0]["skill"], "pdf");
    lenses[0]["command"]["title"].as_str().unwrap().to_owned()
}

/// A JSON file opened in the editor, at version 1.
pub(crate) fn json_opened(uri: &str, text: &str) -> lsp::DidOpenTextDocumentParams {
    lsp::DidOpenTextDocumentParams {
        text_document: lsp::TextDocumentItem {
            uri: lsp_uri(uri),
            language_id: "json".into(),
            version: 1,
            text: text.into(),
        },
    }
}

fn has_eval_diagnostic(diagnostics: &[Value]) -> bool {
    diagnostics.iter().any(|d| d["code"] == "trigger-evals")
}

#[test]
fn run_evals_streams_results_and_updates_the_lens_and_the_diagnostic() {
    // Every run loads pdf: the two should-trigger queries pass, the other fails.
    let server = Server::start(vec![load("pdf"), load("pdf"), load("pdf")]);
    let mut client = start(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/pdf/evals/triggers.json", TRIGGERS),
            ("skills/docx/SKILL.md", DOCX),
        ],
    );
    let uri = client.open("skills/pdf/SKILL.md", PDF);
    assert!(!has_eval_diagnostic(&client.diagnostics(&uri, Some(1))));
    assert_eq!(lens_title(&mut client, &uri), "Run trigger evals");
    // No lens on a skill without an eval set.
    let docx = client.open("skills/docx/SKILL.md", DOCX);
    let none = client.ask::<lsp::request::CodeLensRequest>(lenses_of(&docx));
    assert!(none.is_null() || none == json!([]), "{none:#}");

    let result = client.ask::<RunEvals>(RunEvalsParams {
        uri: Some(uri.clone()),
        runs: Some(1),
        work_done_token: Some(NumberOrString::String("evals-1".into())),
        ..RunEvalsParams::default()
    });
    assert_eq!(result["skill_name"], "pdf", "{result:#}");
    assert_eq!(result["summary"]["passed"], 2, "{result:#}");
    assert_eq!(result["summary"]["failed"], 1, "{result:#}");
    let results = result["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    assert_eq!(results[1]["query"], "what is the weather");
    assert_eq!(results[1]["pass"], false);
    assert_eq!(result["run"]["provider"], "anthropic", "{result:#}");

    let end = client.wait(|m| {
        m["method"] == "$/progress"
            && m["params"]["token"] == "evals-1"
            && m["params"]["value"]["kind"] == "end"
    });
    assert_eq!(end["params"]["value"]["message"], "2/3 passed");
    let begin = client
        .log
        .iter()
        .find(|m| {
            m["method"] == "$/progress"
                && m["params"]["token"] == "evals-1"
                && m["params"]["value"]["kind"] == "begin"
        })
        .cloned()
        .expect("a progress begin");
    assert_eq!(begin["params"]["value"]["title"], "Trigger evals: pdf");
    let reports = client
        .log
        .iter()
        .filter(|m| {
            m["method"] == "$/progress"
                && m["params"]["token"] == "evals-1"
                && m["params"]["value"]["kind"] == "report"
        })
        .count();
    assert_eq!(reports, 3);
    let notified: Vec<Value> = client
        .log
        .iter()
        .filter(|m| m["method"] == "skill/evalResult")
        .map(|m| m["params"].clone())
        .collect();
    assert_eq!(notified.len(), 3, "{notified:#?}");
    for params in &notified {
        assert_eq!(params["skill"], "pdf");
        assert_eq!(params["uri"], uri.as_str());
        assert!(params["result"]["query"].is_string());
    }

    // The information diagnostic on the description, then the lens with the results.
    let published = client.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri.as_str()
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|items| has_eval_diagnostic(items))
    });
    let diagnostics = published["params"]["diagnostics"].as_array().unwrap();
    let info = diagnostics
        .iter()
        .find(|d| d["code"] == "trigger-evals")
        .unwrap();
    assert_eq!(info["severity"], 3);
    assert_eq!(info["range"]["start"]["line"], 2);
    assert_eq!(
        info["message"],
        "Trigger evals: 2/3 passed; failing: 'what is the weather' (wrongly loaded); 3 undecided (too few runs to tell pass from fail: run more)"
    );
    assert_eq!(
        lens_title(&mut client, &uri),
        "Trigger evals: 2/3 \u{2014} 1 wrongly loaded, 3 undecided"
    );

    // Again without a token: the client declared work-done progress, so the server makes one;
    // every run comes from the cache, and each query is still reported.
    let again = client.ask::<RunEvals>(RunEvalsParams {
        skill: Some("pdf".into()),
        runs: Some(1),
        ..RunEvalsParams::default()
    });
    assert_eq!(again["summary"]["passed"], 2, "{again:#}");
    assert_eq!(again["run"]["cached_runs"], 3, "{again:#}");
    assert_eq!(server.requests().len(), 3, "the second run is cached");
    // It spends model calls: a request an editor sends on purpose, not a server command.
    let commands = &client.init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(
        !commands.to_string().contains("skill/runEvals"),
        "{commands}"
    );
    let begin = client.wait(|m| {
        m["method"] == "$/progress"
            && m["params"]["value"]["kind"] == "begin"
            && m["params"]["value"]["title"] == "Trigger evals: pdf"
            && m["params"]["token"] != "evals-1"
    });
    let token = begin["params"]["token"].clone();
    assert!(
        token.as_str().unwrap().starts_with("skill-lsp/evals/pdf/"),
        "{token}"
    );
    client.wait(|m| m["params"]["token"] == token && m["params"]["value"]["kind"] == "end");
    let notified = client
        .log
        .iter()
        .filter(|m| m["method"] == "skill/evalResult")
        .count();
    assert_eq!(notified, 6);
    client.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri.as_str()
            && m["params"]["diagnostics"]
                .as_array()
                .is_some_and(|items| has_eval_diagnostic(items))
    });

    // A workspace pull reports it as the push does.
    let report =
        client.ask::<lsp::request::WorkspaceDiagnosticRequest>(lsp::WorkspaceDiagnosticParams {
            identifier: None,
            previous_result_ids: Vec::new(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        });
    let pulled = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["uri"] == uri.as_str())
        .expect("the SKILL.md is in the workspace report");
    assert!(
        has_eval_diagnostic(pulled["items"].as_array().unwrap()),
        "{pulled:#}"
    );

    // An edit of the eval set retires the diagnostic; the same set again brings it back.
    let set = client.uri("skills/pdf/evals/triggers.json");
    client.tell::<lsp::notification::DidOpenTextDocument>(json_opened(&set, TRIGGERS));
    client.change(
        &set,
        2,
        json!([{"text": TRIGGERS.replace("merge two", "join two")}]),
    );
    let published = |with: bool| {
        let uri = uri.clone();
        move |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && m["params"]["diagnostics"]
                    .as_array()
                    .is_some_and(|items| has_eval_diagnostic(items) == with)
        }
    };
    client.wait(published(false));
    assert_eq!(lens_title(&mut client, &uri), "Run trigger evals");
    client.change(&set, 3, json!([{"text": TRIGGERS}]));
    client.wait(published(true));

    // A new description retires both.
    client.change(
        &uri,
        2,
        json!([{"range": {"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 18}}, "text": "Edits"}]),
    );
    let diagnostics = client.diagnostics(&uri, Some(2));
    assert!(!has_eval_diagnostic(&diagnostics), "{diagnostics:#?}");
    assert_eq!(lens_title(&mut client, &uri), "Run trigger evals");

    let (log, stderr) = client.finish();
    for message in &log {
        assert!(!message.to_string().contains(KEY));
    }
    assert!(!stderr.contains(KEY));
}

#[test]
fn cancelling_run_evals_answers_request_cancelled_and_the_server_keeps_serving() {
    let server = Server::start((0..12).map(|_| Reply::hang()).collect());
    let mut client = start(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/pdf/evals/triggers.json", TRIGGERS),
        ],
    );
    client.send(&json!({"jsonrpc": "2.0", "id": 8001, "method": "skill/runEvals", "params": {"skill": "pdf", "runs": 1, "noCache": true, "workDoneToken": "evals-8001"}}));
    // The run is under way once its progress began and the model calls went out.
    client.wait(|m| {
        m["method"] == "$/progress"
            && m["params"]["token"] == "evals-8001"
            && m["params"]["value"]["kind"] == "begin"
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while server.requests().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no model call went out"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    client.tell::<lsp::notification::Cancel>(lsp::CancelParams {
        id: NumberOrString::Number(8001),
    });
    let cancelled = client.wait(|m| m["id"] == 8001);
    assert_eq!(cancelled["error"]["code"], -32800, "{cancelled:#}");
    let end = client.wait(|m| {
        m["method"] == "$/progress"
            && m["params"]["token"] == "evals-8001"
            && m["params"]["value"]["kind"] == "end"
    });
    assert_eq!(end["params"]["value"]["message"], "cancelled");
    // The model calls were dropped with the run.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while server.closed_by_client() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the model requests were not dropped"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let catalog = client.ask::<Catalog>(CatalogParams {});
    assert!(catalog["prompt"].as_str().unwrap().starts_with("- pdf:"));
    client.shutdown();
}

/// `dryRun` answers what the run would send, sends nothing and reports no progress: what an
/// editor shows before it asks to run; `maxRequests` caps the run that follows.
#[test]
fn a_dry_run_estimates_and_sends_nothing_then_max_requests_caps_the_run() {
    let server = Server::start(vec![load("pdf"), load("pdf"), load("pdf")]);
    let mut client = start(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/pdf/evals/triggers.json", TRIGGERS),
            ("skills/docx/SKILL.md", DOCX),
            (
                "skill-lsp.toml",
                "[agent.price]\ninput = 3.0\noutput = 15.0\n",
            ),
        ],
    );
    let estimate = client.ask::<RunEvals>(RunEvalsParams {
        skill: Some("pdf".into()),
        runs: Some(2),
        dry_run: Some(true),
        ..RunEvalsParams::default()
    });
    assert_eq!(estimate["dry_run"]["runs"], 6, "{estimate:#}");
    assert_eq!(estimate["dry_run"]["requests"], 6, "{estimate:#}");
    // Worded by the server, for the editors' question.
    let summary = estimate["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("up to 18 model requests (6 runs, 0 cached), about ")
            && summary.contains(" input tokens, ")
            && summary.ends_with(" USD"),
        "{summary}"
    );
    assert_eq!(estimate["model"], "test-model", "{estimate:#}");
    assert_eq!(estimate["cost"]["currency"], "USD", "{estimate:#}");
    assert!(server.requests().is_empty());
    assert!(
        !client
            .backlog
            .iter()
            .chain(&client.log)
            .any(|m| m["method"] == "skill/evalResult"
                || m["params"]["token"]
                    .as_str()
                    .is_some_and(|token| token.contains("evals"))),
        "a dry run reported progress or results"
    );

    let report = client.ask::<RunEvals>(RunEvalsParams {
        skill: Some("pdf".into()),
        runs: Some(2),
        max_requests: Some(3),
        ..RunEvalsParams::default()
    });
    assert_eq!(server.requests().len(), 3, "{report:#}");
    assert_eq!(report["run"]["runs"], 3, "{report:#}");
    assert!(
        report["run"]["warnings"]
            .to_string()
            .contains("stopped at --max-requests 3: 3 of 6 runs not made"),
        "{report:#}"
    );
    client.shutdown();
}

#[test]
fn errors_are_lsp_errors_and_the_server_keeps_serving() {
    let server = Server::start(vec![]);
    let mut client = start(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/docx/SKILL.md", DOCX),
            (
                "skills/docx/evals/triggers.json",
                "[{\"query\": \"a\", \"should_trigger\": 1}]",
            ),
        ],
    );
    let unknown = client.request_raw("skill/runEvals", json!({"skill": "nope"}));
    let message = unknown["error"]["message"].as_str().unwrap();
    assert!(message.contains("no skill named 'nope'"), "{message}");
    let missing = client.request_raw("skill/runEvals", json!({"skill": "pdf"}));
    let message = missing["error"]["message"].as_str().unwrap();
    assert!(message.contains("has no eval set"), "{message}");
    let bad = client.request_raw("skill/runEvals", json!({"skill": "docx"}));
    let message = bad["error"]["message"].as_str().unwrap();
    assert!(message.contains("triggers.json:1:"), "{message}");
    let neither = client.request_raw("skill/runEvals", json!({}));
    assert!(neither["error"]["message"].is_string(), "{neither:#}");
    assert!(server.requests().is_empty());
    let catalog = client.ask::<Catalog>(CatalogParams {});
    assert!(catalog["prompt"].as_str().unwrap().contains("- pdf:"));
    let (log, stderr) = client.finish();
    assert!(!log.iter().any(|m| m.to_string().contains(KEY)));
    assert!(!stderr.contains(KEY));
}

#[test]
fn the_measuring_options_of_the_cli_are_params_checked_as_the_cli_checks_them() {
    let server = Server::start(vec![]);
    let mut client = start(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            (
                "skills/pdf/evals/triggers.json",
                "[{\"query\": \"fill this form\", \"should_trigger\": true}]",
            ),
        ],
    );
    let bad = client.request_raw(
        "skill/runEvals",
        json!({"skill": "pdf", "threshold": 1.5, "maxTurns": 0, "jobs": 0, "runs": 0}),
    );
    let message = bad["error"]["message"].as_str().unwrap();
    assert_eq!(bad["error"]["code"], -32602);
    assert_eq!(
        message,
        "runs must be at least 1; threshold must be between 0 and 1, got 1.5; jobs must be at least 1; maxTurns must be at least 1"
    );
    assert!(
        server.requests().is_empty(),
        "nothing is sent for bad options"
    );
    client.finish();
}

#[test]
fn a_missing_provider_or_a_refusing_one_is_an_error_without_the_key() {
    let files = [
        ("skills/pdf/SKILL.md", PDF),
        ("skills/pdf/evals/triggers.json", TRIGGERS),
    ];
    let mut client = Client::start_with_env(&files, json!({}), &[]);
    // A client that does not declare the lens's command gets no lens (it would be a dead
    // button), but the request itself is there.
    let uri = client.open("skills/pdf/SKILL.md", PDF);
    let lenses = client.ask::<lsp::request::CodeLensRequest>(lenses_of(&uri));
    assert!(lenses.as_array().is_none_or(Vec::is_empty), "{lenses:#}");
    let response = client.request_raw("skill/runEvals", json!({"skill": "pdf"}));
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("MODEL_ID") || message.contains("ANTHROPIC_API_KEY"),
        "{message}"
    );
    client.ask::<Catalog>(CatalogParams {});
    client.shutdown();

    let refusal = json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
    let server = Server::start((0..12).map(|_| Reply::json(401, &refusal)).collect());
    let mut client = start(&server, &files);
    let response = client.request_raw("skill/runEvals", json!({"skill": "pdf", "runs": 1}));
    assert_eq!(response["error"]["code"], -32603, "{response:#}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(message.contains("401"), "{message}");
    client.ask::<Catalog>(CatalogParams {});
    let (log, stderr) = client.finish();
    assert!(!log.iter().any(|m| m.to_string().contains(KEY)));
    assert!(!stderr.contains(KEY));
}

#[test]
fn an_open_eval_set_gets_diagnostics_and_completion_other_json_does_not() {
    let server = Server::start(vec![]);
    let mut client = start(&server, &[("skills/pdf/SKILL.md", PDF)]);
    let set = client.uri("skills/pdf/evals/triggers.json");
    let text = "[\n  {\"query\": \"a\", \"should_trigger\": \"yes\"}\n]\n";
    client.tell::<lsp::notification::DidOpenTextDocument>(json_opened(&set, text));
    let diagnostics = client.diagnostics(&set, Some(1));
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 1);
    assert!(
        !diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("triggers.json")
    );
    let items = client.ask::<lsp::request::Completion>(lsp::CompletionParams {
        text_document_position: at(&set, 1, 35),
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
    assert_eq!(labels, ["true", "false"]);

    let other = client.uri("package.json");
    client.tell::<lsp::notification::DidOpenTextDocument>(json_opened(&other, "{ not json"));
    // Nothing is published for other JSON: the catalog answers first.
    client.ask::<Catalog>(CatalogParams {});
    assert!(
        !client
            .log
            .iter()
            .any(|m| m["params"]["uri"] == other.as_str()),
        "other JSON was linted"
    );
    client.shutdown();
}

/// The improve action end to end, as an editor drives it: the code action on `description:`
/// (only for a client that implements its command), the estimate of the whole loop, then
/// `skill/improveDescription` with `$/progress` for each description measured and written, and
/// an answer whose edit turns the open buffer into the proposed text. The file on disk is never
/// written by the server.
#[test]
fn improve_description_offers_an_action_reports_progress_and_answers_an_edit() {
    const WEAK: &str = "---\nname: pdf\ndescription: Notes.\n---\n# PDF\n";
    const BETTER: &str = "Fills and merges PDF files. Use when the user mentions a PDF.";
    // Routing: with the rewrite in the catalog the model loads pdf for PDF queries; with the
    // weak description it loads nothing. Without tools it is a rewrite request.
    let server = Server::answering(|request| {
        let body = request.json();
        if body
            .get("tools")
            .is_none_or(|tools| tools.as_array().is_none_or(Vec::is_empty))
        {
            return Reply::sse(&anthropic_stream(&[json!({"text": BETTER})], "end_turn"));
        }
        let system = body["system"].to_string();
        let query = body["messages"][0]["content"].to_string();
        if system.contains(BETTER) && query.contains("pdf") {
            load("pdf")
        } else {
            Reply::sse(&anthropic_stream(
                &[json!({"text": "No skill needed."})],
                "end_turn",
            ))
        }
    });
    let url = server.url();
    let env = [
        ("ANTHROPIC_API_KEY", KEY),
        ("ANTHROPIC_BASE_URL", url.as_str()),
        ("MODEL_ID", "test-model"),
    ];
    let mut client = Client::start_with_env(
        &[
            ("skills/pdf/SKILL.md", WEAK),
            ("skills/pdf/evals/triggers.json", TRIGGERS),
            ("skills/docx/SKILL.md", DOCX),
        ],
        json!({
            "window": {"workDoneProgress": true},
            "workspace": {"workspaceEdit": {"documentChanges": true}},
            "experimental": {"skillLsp": {"improveDescription": true}},
        }),
        &env,
    );
    let uri = client.open("skills/pdf/SKILL.md", WEAK);
    let range = json!({"start": {"line": 2, "character": 15}, "end": {"line": 2, "character": 15}});
    let actions = client.ask::<lsp::request::CodeActionRequest>(lsp::CodeActionParams {
        text_document: document(&uri),
        range: lsp_client::typed(&range),
        context: lsp::CodeActionContext::default(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let improve = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|action| action["title"] == "Improve the description with the trigger evals…")
        .unwrap_or_else(|| panic!("no improve action: {actions:#}"));
    assert_eq!(improve["kind"], "refactor.rewrite");
    assert_eq!(improve["command"]["command"], "skillLsp.improveDescription");
    assert_eq!(
        improve["command"]["arguments"][0],
        json!({"skill": "pdf", "uri": uri})
    );
    // Not on the name line.
    let on_name = json!({"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 2}});
    let elsewhere = client.ask::<lsp::request::CodeActionRequest>(lsp::CodeActionParams {
        text_document: document(&uri),
        range: lsp_client::typed(&on_name),
        context: lsp::CodeActionContext::default(),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    assert!(
        !elsewhere
            .to_string()
            .contains("skillLsp.improveDescription"),
        "{elsewhere:#}"
    );

    let params = |dry_run: bool| ImproveDescriptionParams {
        eval: RunEvalsParams {
            uri: Some(uri.clone()),
            runs: Some(1),
            jobs: Some(1),
            dry_run: dry_run.then_some(true),
            work_done_token: Some(NumberOrString::String("improve-1".into())),
            ..RunEvalsParams::default()
        },
        iterations: Some(2),
        seed: None,
    };
    let estimate = client.ask::<ImproveDescription>(params(true));
    let summary = estimate["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(
            "up to 31 model requests (3 runs, 0 cached; then up to 2 rewrites of 3 runs each)"
        ),
        "{summary}"
    );
    assert!(server.requests().is_empty(), "a dry run sent something");

    let result = client.ask::<ImproveDescription>(params(false));
    assert_eq!(result["improved"], true, "{result:#}");
    assert_eq!(result["best_description"], BETTER, "{result:#}");
    assert_eq!(result["improve"]["best"], 1, "{result:#}");
    assert!(
        result["summary"]
            .as_str()
            .unwrap()
            .starts_with("rewrite 1 passes "),
        "{result:#}"
    );
    let proposed = WEAK.replace("Notes.", BETTER);
    assert_eq!(result["current"], WEAK);
    assert_eq!(result["proposed"], proposed.as_str());
    // One edit of the description value, for the buffer's version: applied, it gives the proposal.
    let change = &result["edit"]["documentChanges"][0];
    assert_eq!(change["textDocument"], json!({"uri": uri, "version": 1}));
    let edits = change["edits"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{result:#}");
    assert_eq!(
        edits[0]["range"],
        json!({"start": {"line": 2, "character": 13}, "end": {"line": 2, "character": 19}})
    );
    assert_eq!(edits[0]["newText"], BETTER);
    assert_eq!(
        std::fs::read_to_string(client.path("skills/pdf/SKILL.md")).unwrap(),
        WEAK,
        "the server wrote the file"
    );
    // Progress: the file's description measured, a rewrite written and measured, the outcome.
    let reports: Vec<String> = client
        .backlog
        .iter()
        .chain(&client.log)
        .filter(|m| m["method"] == "$/progress" && m["params"]["token"] == "improve-1")
        .map(|m| {
            let value = &m["params"]["value"];
            format!(
                "{} {}",
                value["kind"].as_str().unwrap(),
                value["message"]
                    .as_str()
                    .or(value["title"].as_str())
                    .unwrap_or("")
            )
        })
        .collect();
    let has = |wanted: &str| reports.iter().any(|line| line.starts_with(wanted));
    assert!(has("begin measuring the description"), "{reports:#?}");
    assert!(
        has("report measuring the description: 3/3 runs"),
        "{reports:#?}"
    );
    assert!(has("report rewrite 1 of 2: writing"), "{reports:#?}");
    assert!(has("report rewrite 1 of 2: 3/3 runs"), "{reports:#?}");
    assert!(has("end rewrite 1 passes "), "{reports:#?}");
    client.shutdown();
}

#[test]
fn run_evals_with_a_target_sends_its_listing_and_says_when_it_drops_the_skill() {
    // Claude Code keeps a skill the model may not invoke out of its listing: a load of it by
    // name counts for nothing.
    let hidden = "---\nname: pdf\ndescription: Fills PDF forms.\ndisable-model-invocation: true\n---\n# PDF\n";
    let server = Server::start((0..6).map(|_| load("pdf")).collect());
    let mut client = start(
        &server,
        &[
            (".claude/skills/pdf/SKILL.md", hidden),
            (".claude/skills/pdf/evals/triggers.json", TRIGGERS),
            (".claude/skills/docx/SKILL.md", DOCX),
        ],
    );
    let params = |target: &str| RunEvalsParams {
        skill: Some("pdf".into()),
        runs: Some(1),
        jobs: Some(1),
        target: Some(target.into()),
        ..RunEvalsParams::default()
    };
    let report = client.ask::<RunEvals>(params("claude-code"));
    assert_eq!(report["target"]["client"], "claude-code", "{report:#}");
    assert_eq!(report["target"]["presence"], "omitted");
    assert_eq!(report["target"]["reason"], "model-invocation-disabled");
    assert!(
        report["target"]["note"]
            .as_str()
            .unwrap()
            .ends_with("the model cannot load it"),
        "{report:#}"
    );
    assert_eq!(report["results"][0]["triggers"], 0, "{report:#}");
    assert_eq!(
        report["results"][0]["loaded_instead"],
        json!({"pdf (not listed by claude-code)": 1})
    );
    let sent = server.requests()[0].json();
    let system = sent["system"].as_str().unwrap();
    assert!(
        system.contains("available for use with the Skill tool:\n\n- docx: Edits Word documents.")
            && !system.contains("- pdf"),
        "{system}"
    );
    let unknown = client.request_raw(
        "skill/runEvals",
        json!({"skill": "pdf", "target": "claude-upload"}),
    );
    let message = unknown["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("target: claude-upload (claude.ai upload) lists no skills to a model"),
        "{message}"
    );
    assert_eq!(server.requests().len(), 3);
    let no_target = client.request_raw(
        "skill/runEvals",
        json!({"skill": "pdf", "contextWindow": 2000}),
    );
    assert_eq!(no_target["error"]["code"], -32602, "{no_target:#}");
    // Claude Code's budget at a 2,000-token context window holds no description.
    let small = RunEvalsParams {
        context_window: Some(2_000),
        no_cache: Some(true),
        ..params("claude-code")
    };
    client.ask::<RunEvals>(small);
    let requests = server.requests();
    let sent = requests.last().unwrap().json();
    let system = sent["system"].as_str().unwrap();
    assert!(
        system.contains("- docx\n") && !system.contains("Edits Word documents"),
        "{system}"
    );
    client.shutdown();
}

/// `autoRuns` is `--runs auto` from the editor: runs are added one at a time to the queries
/// still undecided, and a model that always answers the same way decides each at four runs
/// (the 95 % interval of 4/4 starts at 0.51).
/// Its estimate says how far it may go.
#[test]
fn auto_runs_add_runs_until_every_query_is_decided() {
    let server = Server::answering(|request| {
        let body = request.json();
        if body["messages"][0]["content"].to_string().contains("pdf") {
            load("pdf")
        } else {
            Reply::sse(&anthropic_stream(
                &[json!({"text": "No skill needed."})],
                "end_turn",
            ))
        }
    });
    let mut client = start(
        &server,
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/pdf/evals/triggers.json", TRIGGERS),
        ],
    );
    let params = |dry_run: bool| RunEvalsParams {
        skill: Some("pdf".into()),
        auto_runs: Some(true),
        dry_run: dry_run.then_some(true),
        ..RunEvalsParams::default()
    };
    let estimate = client.ask::<RunEvals>(params(true));
    let summary = estimate["summary"].as_str().unwrap();
    assert!(
        summary.starts_with(
            "up to 90 model requests (9 runs, 0 cached, up to 30 as undecided queries get more)"
        ),
        "{summary}"
    );
    assert_eq!(estimate["dry_run"]["runs_at_most"], 30, "{estimate:#}");
    let report = client.ask::<RunEvals>(params(false));
    assert_eq!(report["run"]["auto_runs"], true, "{report:#}");
    let verdicts: Vec<(&str, u64)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["verdict"].as_str().unwrap(),
                result["runs"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [("pass", 4), ("pass", 4), ("pass", 4)],
        "{report:#}"
    );
    assert_eq!(report["summary"]["undecided"], 0);
    assert_eq!(server.requests().len(), 12);
    client.shutdown();
}
