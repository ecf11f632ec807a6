//! `skill-lsp eval` end to end: the real binary against a scripted Messages API or
//! OpenAI-compatible server on 127.0.0.1, checking what the model was sent, what was measured,
//! the output formats, the cache, exit codes, and that the key never shows.

use crate::scripted_server;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use scripted_server::{End, Reply, Server, anthropic_stream};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");
const ANTHROPIC_KEY: &str = "sk-ant-test-PLANTED-KEY-eval-77";
const OPENAI_KEY: &str = "sk-openai-PLANTED-KEY-eval-88";

const PDF: &str = "---\nname: pdf\ndescription: Fills PDF forms and merges PDF files. Use when the user has a PDF.\n---\n# PDF\n\nSECRET-PDF-BODY\n";
const DOCX: &str = "---\nname: docx\ndescription: Edits Word documents. Use for .docx files.\n---\n# DOCX\n\nBody.\n";

#[derive(Clone, Copy, Debug)]
enum Wire {
    Anthropic,
    OpenAi,
}

const WIRES: [Wire; 2] = [Wire::Anthropic, Wire::OpenAi];

impl Wire {
    /// A streamed reply whose first action is a call of `tool` with `input`.
    fn tool_text(self, tool: &str, input: &Value) -> String {
        match self {
            Wire::Anthropic => anthropic_stream(
                &[
                    json!({"text": "Let me look."}),
                    json!({"tool": tool, "id": "toolu_1", "input": input}),
                ],
                "tool_use",
            ),
            Wire::OpenAi => openai_stream(Some((tool, input)), true),
        }
    }

    fn tool(self, tool: &str, input: &Value) -> Reply {
        Reply::sse(&self.tool_text(tool, input))
    }

    fn load(self, skill: &str) -> Reply {
        self.tool("load_skill", &json!({"name": skill}))
    }

    fn text(self) -> Reply {
        match self {
            Wire::Anthropic => Reply::sse(&anthropic_stream(
                &[json!({"text": "The capital of France is Paris."})],
                "end_turn",
            )),
            Wire::OpenAi => Reply::sse(&openai_stream(None, true)),
        }
    }

    /// The first `load_skill(skill)` call complete, then nothing more: the server keeps the
    /// connection open without ending the reply.
    fn load_then_stall(self, skill: &str) -> Reply {
        let input = json!({"name": skill});
        let text = match self {
            Wire::Anthropic => {
                let whole = self.tool_text("load_skill", &input);
                let cut = whole.find("event: message_delta").unwrap();
                whole[..cut].to_owned()
            }
            Wire::OpenAi => openai_stream(Some(("load_skill", &input)), false),
        };
        Reply::sse_ending(&text, End::Stall)
    }

    /// A `load_skill(skill)` call, then a pause of `delay` before the reply ends with its usage:
    /// 1,234 input and 56 output tokens, all of it after the call for an OpenAI-compatible
    /// server, the output tokens after it for Anthropic.
    fn load_then_usage_later(self, skill: &str, delay: Duration) -> Reply {
        let whole = self
            .tool_text("load_skill", &json!({"name": skill}))
            .replace("\"prompt_tokens\":100", "\"prompt_tokens\":1234")
            .replace("\"completion_tokens\":20", "\"completion_tokens\":56")
            .replace("\"input_tokens\":100", "\"input_tokens\":1234")
            .replace("\"output_tokens\":20", "\"output_tokens\":56");
        let marker = match self {
            Wire::Anthropic => "event: message_delta",
            Wire::OpenAi => "\"finish_reason\":\"tool_calls\"",
        };
        // At the start of the event (or chunk) that follows the call.
        let cut = whole[..whole.find(marker).unwrap()].rfind("\n\n").unwrap() + 2;
        assert!(whole[cut..].contains(":56"), "{}", &whole[cut..]);
        Reply::paused(&whole[..cut], delay, &whole[cut..])
    }

    /// Some text, then the connection is closed mid-reply.
    fn text_then_cut(self) -> Reply {
        let whole = match self {
            Wire::Anthropic => anthropic_stream(
                &[json!({"text": "The capital of France is Paris."})],
                "end_turn",
            ),
            Wire::OpenAi => openai_stream(None, true),
        };
        let marker = match self {
            Wire::Anthropic => "event: content_block_stop",
            Wire::OpenAi => "is Paris.",
        };
        Reply::sse_ending(&whole[..whole.find(marker).unwrap()], End::Cut)
    }

    fn command(self, dir: &Path, server: &Server, args: &[&str]) -> Command {
        let mut command = Command::new(BIN);
        command
            .arg("eval")
            .args(args)
            .current_dir(dir)
            .env_remove("OPENAI_BASE_URL")
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("ANTHROPIC_BASE_URL")
            .env_remove("CLICOLOR_FORCE")
            .env("MODEL_ID", "test-model")
            .env("SKILL_LSP_RETRY_BASE_MS", "5")
            .stdin(Stdio::null());
        match self {
            Wire::Anthropic => command
                .env("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
                .env("ANTHROPIC_BASE_URL", server.url()),
            Wire::OpenAi => command
                .env("OPENAI_API_KEY", OPENAI_KEY)
                .env("OPENAI_BASE_URL", format!("{}/v1", server.url())),
        };
        command
    }

    fn eval(self, dir: &Path, server: &Server, args: &[&str]) -> Output {
        let output = self.command(dir, server, args).output().unwrap();
        assert_no_key(&output);
        output
    }

    /// The system prompt and the first user message of a recorded request.
    fn prompt(self, body: &Value) -> (String, String) {
        match self {
            Wire::Anthropic => (
                body["system"].as_str().unwrap().to_owned(),
                body["messages"][0]["content"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            ),
            Wire::OpenAi => (
                body["messages"][0]["content"].as_str().unwrap().to_owned(),
                body["messages"][1]["content"].as_str().unwrap().to_owned(),
            ),
        }
    }

    fn tool_names(self, body: &Value) -> Vec<String> {
        body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| match self {
                Wire::Anthropic => tool["name"].as_str().unwrap().to_owned(),
                Wire::OpenAi => tool["function"]["name"].as_str().unwrap().to_owned(),
            })
            .collect()
    }
}

/// An OpenAI-compatible chat completions stream: some text, then maybe one tool call whose
/// arguments come in two pieces; `finish` adds the finish reason, usage and `[DONE]`.
fn openai_stream(tool: Option<(&str, &Value)>, finish: bool) -> String {
    let mut out = String::new();
    let mut chunk = |delta: Value, finish_reason: Value| {
        let data = json!({"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]});
        out.push_str(&format!("data: {data}\n\n"));
    };
    chunk(json!({"role": "assistant", "content": ""}), Value::Null);
    match tool {
        None => {
            chunk(json!({"content": "The capital of France "}), Value::Null);
            chunk(json!({"content": "is Paris."}), Value::Null);
        }
        Some((name, input)) => {
            chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": name, "arguments": ""}}]}),
                Value::Null,
            );
            let arguments = input.to_string();
            let (head, tail) = arguments.split_at(arguments.len() / 2);
            for piece in [head, tail] {
                chunk(
                    json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
                    Value::Null,
                );
            }
        }
    }
    if finish {
        let reason = if tool.is_some() { "tool_calls" } else { "stop" };
        chunk(json!({}), json!(reason));
        out.push_str("data: {\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":20}}\n\n");
        out.push_str("data: [DONE]\n\n");
    }
    out
}

fn assert_no_key(output: &Output) {
    for key in [ANTHROPIC_KEY, OPENAI_KEY] {
        for stream in [&output.stdout, &output.stderr] {
            assert!(
                !String::from_utf8_lossy(stream).contains(key),
                "the key leaked: {}",
                String::from_utf8_lossy(stream)
            );
        }
    }
}

/// A workspace with skills `docx` and `pdf`; `pdf` has an eval set.
fn workspace(triggers: &Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (folder, text) in [("pdf", PDF), ("docx", DOCX)] {
        let skill = dir.path().join("skills").join(folder);
        fs::create_dir_all(&skill).unwrap();
        fs::write(skill.join("SKILL.md"), text).unwrap();
    }
    let evals = dir.path().join("skills/pdf/evals");
    fs::create_dir_all(&evals).unwrap();
    fs::write(
        evals.join("triggers.json"),
        serde_json::to_string_pretty(triggers).unwrap(),
    )
    .unwrap();
    dir
}

fn three_queries() -> Value {
    json!([
        {"query": "Fill in the form in tax.pdf", "should_trigger": true},
        {"query": "Merge a.pdf and b.pdf", "should_trigger": true},
        {"query": "What is the capital of France?", "should_trigger": false},
    ])
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is not JSON ({error}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn right_skill_passes_another_skill_fails_and_is_named_nothing_loaded_passes() {
    for wire in WIRES {
        let dir = workspace(&three_queries());
        let server = Server::start(vec![wire.load("pdf"), wire.load("docx"), wire.text()]);
        let output = wire.eval(
            dir.path(),
            &server,
            &["--runs", "1", "--jobs", "1", "--format", "json"],
        );
        assert_eq!(
            output.status.code(),
            Some(1),
            "{wire:?}: {}",
            stderr(&output)
        );
        let report = stdout_json(&output);
        assert_eq!(report["skill_name"], "pdf");
        assert_eq!(
            report["description"],
            "Fills PDF forms and merges PDF files. Use when the user has a PDF."
        );
        let results = report["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        assert_eq!(
            (
                &results[0]["query"],
                &results[0]["pass"],
                &results[0]["trigger_rate"]
            ),
            (
                &json!("Fill in the form in tax.pdf"),
                &json!(true),
                &json!(1.0)
            )
        );
        assert_eq!(results[0]["loaded_instead"], json!({}));
        assert_eq!(results[1]["pass"], false);
        assert_eq!(results[1]["triggers"], 0);
        assert_eq!(results[1]["loaded_instead"], json!({"docx": 1}));
        assert_eq!(
            (
                &results[2]["should_trigger"],
                &results[2]["pass"],
                &results[2]["trigger_rate"]
            ),
            (&json!(false), &json!(true), &json!(0.0))
        );
        assert_eq!(
            report["confusions"],
            json!([{"query": "Merge a.pdf and b.pdf", "skill": "docx", "runs": 1}])
        );
        assert_eq!(report["summary"]["total"], 3, "{wire:?}: {report:#}");
        assert_eq!(
            (&report["summary"]["passed"], &report["summary"]["failed"]),
            (&json!(2), &json!(1))
        );
        assert_eq!(report["summary"]["precision"], 1.0);
        assert_eq!(report["summary"]["recall"], 0.5);
        // 95 % Wilson intervals: 1 of 1 run, 1 of 2, 0 of 1.
        for (key, want) in [
            ("precision_interval", [0.2065, 1.0]),
            ("recall_interval", [0.0945, 0.9055]),
            ("false_trigger_interval", [0.0, 0.7935]),
        ] {
            let got = report["summary"][key].as_array().unwrap();
            for (got, want) in got.iter().zip(want) {
                assert!(
                    (got.as_f64().unwrap() - want).abs() < 5e-4,
                    "{key}: {report:#}"
                );
            }
        }
        assert_eq!(report["summary"]["false_trigger_rate"], 0.0);
        assert_eq!(report["run"]["requests"], 3);
        assert_eq!(report["run"]["cached_runs"], 0);
        assert_eq!(
            report["run"]["provider"],
            match wire {
                Wire::Anthropic => "anthropic",
                Wire::OpenAi => "openai",
            }
        );
        assert!(
            report["summary"]["input_tokens"].as_u64().unwrap() >= 100,
            "{report:#}"
        );

        // Every request: the whole catalog, the six tools, the query as the user message.
        let requests = server.requests();
        assert_eq!(requests.len(), 3);
        let mut queries = Vec::new();
        for request in &requests {
            let body = request.json();
            let (system, user) = wire.prompt(&body);
            assert!(
                system.contains("Skills available:\n- docx: Edits Word documents. Use for .docx files.\n- pdf: Fills PDF forms and merges PDF files."),
                "{system}"
            );
            assert!(system.starts_with("You are a coding agent at "), "{system}");
            assert!(!system.contains("SECRET-PDF-BODY"));
            assert_eq!(
                wire.tool_names(&body),
                [
                    "bash",
                    "read_file",
                    "write_file",
                    "edit_file",
                    "glob",
                    "load_skill"
                ]
            );
            assert_eq!(body["model"], "test-model");
            queries.push(user);
        }
        assert_eq!(
            queries,
            [
                "Fill in the form in tax.pdf",
                "Merge a.pdf and b.pdf",
                "What is the capital of France?"
            ]
        );
    }
}

#[test]
fn three_runs_yes_no_yes_give_a_trigger_rate_of_two_thirds() {
    for wire in WIRES {
        let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
        let server = Server::start(vec![wire.load("pdf"), wire.text(), wire.load("pdf")]);
        let output = wire.eval(
            dir.path(),
            &server,
            &["pdf", "--runs", "3", "--format", "json"],
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{wire:?}: {}",
            stderr(&output)
        );
        let result = &stdout_json(&output)["results"][0];
        assert_eq!(
            (&result["triggers"], &result["runs"]),
            (&json!(2), &json!(3))
        );
        let rate = result["trigger_rate"].as_f64().unwrap();
        assert!((rate - 0.67).abs() < 0.01, "{rate}");
        assert_eq!(result["pass"], true);
        assert_eq!(server.requests().len(), 3);
        // At a threshold above 2/3 the same runs (now cached) fail.
        let output = wire.eval(
            dir.path(),
            &server,
            &["pdf", "--threshold", "0.7", "--format", "json"],
        );
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert_eq!(server.requests().len(), 3, "answered from the cache");
    }
}

#[test]
fn a_candidate_description_is_what_the_catalog_shows() {
    for wire in WIRES {
        let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
        let server = Server::start(vec![wire.load("pdf")]);
        let candidate = "CANDIDATE: Reads and fills PDF forms.";
        let output = wire.eval(
            dir.path(),
            &server,
            &[
                "skills/pdf",
                "--runs",
                "1",
                "--description",
                candidate,
                "--format",
                "json",
            ],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report = stdout_json(&output);
        assert_eq!(report["description"], candidate);
        assert_eq!(report["candidate"], true);
        let (system, _) = wire.prompt(&server.requests()[0].json());
        assert!(
            system.contains(&format!("- pdf: {candidate}\n")),
            "{system}"
        );
        assert!(system.contains("- docx: Edits Word documents."), "{system}");
        assert_eq!(
            fs::read_to_string(dir.path().join("skills/pdf/SKILL.md")).unwrap(),
            PDF,
            "the file is not edited"
        );
    }
}

#[test]
fn results_are_cached_until_the_catalog_changes_and_no_cache_sends_again() {
    for wire in WIRES {
        let dir = workspace(&three_queries());
        let server = Server::start(vec![
            wire.load("pdf"),
            wire.load("pdf"),
            wire.text(),
            // For --no-cache.
            wire.load("pdf"),
            wire.load("pdf"),
            wire.text(),
            // After a description changes.
            wire.load("pdf"),
            wire.load("pdf"),
            wire.text(),
        ]);
        let args = ["--runs", "1", "--jobs", "1"];
        let first = wire.eval(dir.path(), &server, &args);
        assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
        assert!(
            stdout(&first).contains("(0 from the cache, 3 model calls)"),
            "{}",
            stdout(&first)
        );
        assert_eq!(server.requests().len(), 3);
        assert_eq!(
            fs::read_to_string(dir.path().join(".skill-lsp/.gitignore")).unwrap(),
            "cache/\n"
        );
        let cache = dir.path().join(".skill-lsp/cache/evals");
        let entries: Vec<_> = fs::read_dir(&cache)
            .unwrap()
            .map(|it| it.unwrap().path())
            .collect();
        assert_eq!(entries.len(), 3);
        for entry in &entries {
            let text = fs::read_to_string(entry).unwrap();
            assert!(
                !text.contains(ANTHROPIC_KEY) && !text.contains(OPENAI_KEY),
                "{text}"
            );
        }

        // An unrelated edit (a skill's body) changes nothing the model sees: no request.
        fs::write(
            dir.path().join("skills/pdf/SKILL.md"),
            PDF.replace("SECRET-PDF-BODY", "A new body line."),
        )
        .unwrap();
        let second = wire.eval(dir.path(), &server, &args);
        assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
        assert!(
            stdout(&second).contains("(3 from the cache, 0 model calls)"),
            "{}",
            stdout(&second)
        );
        assert_eq!(server.requests().len(), 3, "{wire:?}: no HTTP request");
        assert!(
            stdout(&second).contains("tokens spent: 0 in, 0 out"),
            "{}",
            stdout(&second)
        );

        let fresh = wire.eval(
            dir.path(),
            &server,
            &["--runs", "1", "--jobs", "1", "--no-cache"],
        );
        assert_eq!(fresh.status.code(), Some(0), "{}", stderr(&fresh));
        assert!(
            stdout(&fresh).contains("(0 from the cache, 3 model calls)"),
            "{}",
            stdout(&fresh)
        );
        assert_eq!(server.requests().len(), 6);

        // Another skill's description is part of the catalog: the runs are made again.
        fs::write(
            dir.path().join("skills/docx/SKILL.md"),
            DOCX.replace("Edits Word documents.", "Edits and creates Word documents."),
        )
        .unwrap();
        let changed = wire.eval(dir.path(), &server, &args);
        assert_eq!(changed.status.code(), Some(0), "{}", stderr(&changed));
        assert_eq!(server.requests().len(), 9);
    }
}

/// A reply that stalls after its tool call is read on only for the grace (2 s) after the call:
/// the run counts, its tokens are estimated and the report says so.
#[test]
fn the_stream_is_abandoned_once_the_tool_call_is_complete() {
    for wire in WIRES {
        let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
        let server = Server::start(vec![
            wire.load_then_stall("pdf"),
            wire.load_then_stall("pdf"),
        ]);
        let started = Instant::now();
        let output = wire
            .command(dir.path(), &server, &["--runs", "1", "--format", "json"])
            // A client that waited for the end of the reply would wait this long, then fail;
            // the server holds the connection for 10 s.
            .env("SKILL_LSP_TIMEOUT_MS", "30000")
            .env("SKILL_LSP_MAX_ATTEMPTS", "1")
            .output()
            .unwrap();
        assert_no_key(&output);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{wire:?}: {}",
            stderr(&output)
        );
        let took = started.elapsed();
        assert!(took < Duration::from_secs(8), "{wire:?}: {took:?}");
        let report = stdout_json(&output);
        assert_eq!(report["results"][0]["triggers"], 1);
        assert_eq!(server.requests().len(), 1);
        // The server saw the client close the connection it was holding open mid-reply.
        let deadline = Instant::now() + Duration::from_secs(5);
        while server.closed_by_client() == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(server.closed_by_client(), 1, "{wire:?}");
        let run = &report["run"];
        assert_eq!(run["usage_estimated_runs"], 1, "{wire:?}: {run:#}");
        let (input, output_tokens) = (
            run["input_tokens"].as_u64().unwrap(),
            run["output_tokens"].as_u64().unwrap(),
        );
        // An estimated run does not calibrate `--dry-run`.
        let estimate = stdout_json(&wire.eval(
            dir.path(),
            &server,
            &["--runs", "1", "--no-cache", "--dry-run", "--format", "json"],
        ));
        assert_eq!(
            estimate["dry_run"]["calibration"]["runs"], 0,
            "{estimate:#}"
        );
        match wire {
            // The input tokens came at message_start; the output is ours.
            Wire::Anthropic => assert_eq!(input, 100, "{run:#}"),
            // Nothing came: the request's bytes at a rough 3.5 bytes a token, as `--dry-run`
            // counts them before any run has calibrated it.
            Wire::OpenAi => assert_eq!(
                json!(input),
                estimate["dry_run"]["input_tokens"],
                "{run:#} {estimate:#}"
            ),
        }
        assert!(output_tokens > 1, "{wire:?}: {run:#}");

        let human = wire
            .command(dir.path(), &server, &["--runs", "1", "--no-cache"])
            .output()
            .unwrap();
        // The same request and reply again: the same estimate (under a thousand, no commas).
        assert!(
            stdout(&human).contains(&format!(
                "tokens spent: {input} in, {output_tokens} out (1 run's usage estimated) · "
            )),
            "{wire:?}: {}",
            stdout(&human)
        );
    }
}

/// The usage a provider reports only after the tool call (an OpenAI-compatible server in its
/// last chunk, Anthropic the output tokens in `message_delta`) is waited for and recorded as
/// reported, and such runs calibrate `--dry-run`.
#[test]
fn usage_that_comes_after_the_tool_call_is_recorded_exactly() {
    for wire in WIRES {
        let dir = workspace(&json!([
            {"query": "Fill in tax.pdf", "should_trigger": true},
            {"query": "Merge a.pdf and b.pdf into one file", "should_trigger": true},
        ]));
        let pause = Duration::from_millis(400);
        let server = Server::start(vec![
            wire.load_then_usage_later("pdf", pause),
            wire.load_then_usage_later("pdf", pause),
        ]);
        let output = wire.eval(
            dir.path(),
            &server,
            &["--runs", "1", "--jobs", "1", "--format", "json"],
        );
        assert_eq!(
            output.status.code(),
            Some(0),
            "{wire:?}: {}",
            stderr(&output)
        );
        let report = stdout_json(&output);
        for result in report["results"].as_array().unwrap() {
            assert_eq!(result["triggers"], 1, "{wire:?}: {result:#}");
            assert_eq!(
                (&result["input_tokens"], &result["output_tokens"]),
                (&json!(1234), &json!(56)),
                "{wire:?}: {result:#}"
            );
        }
        let run = &report["run"];
        assert_eq!(
            (
                &run["input_tokens"],
                &run["output_tokens"],
                &run["usage_estimated_runs"]
            ),
            (&json!(2468), &json!(112), &json!(0)),
            "{wire:?}: {run:#}"
        );
        let human = wire
            .command(dir.path(), &server, &["--runs", "1"])
            .output()
            .unwrap();
        assert!(
            stdout(&human)
                .contains("(2 from the cache, 0 model calls) · tokens spent: 0 in, 0 out · "),
            "{}",
            stdout(&human)
        );

        // Both runs calibrate the estimate of the same runs: their tokens, to the token.
        let estimate = stdout_json(&wire.eval(
            dir.path(),
            &server,
            &["--runs", "1", "--no-cache", "--dry-run", "--format", "json"],
        ));
        let guess = &estimate["dry_run"];
        assert_eq!(guess["calibration"]["runs"], 2, "{estimate:#}");
        assert_eq!(
            (&guess["input_tokens"], &guess["output_tokens"]),
            (&json!(2468), &json!(112)),
            "{estimate:#}"
        );
        assert_eq!(server.requests().len(), 2);
    }
}

/// The tool result a recorded request ends with: its text and whether it is an error.
fn last_tool_result(body: &Value) -> (String, bool) {
    let messages = body["messages"].as_array().unwrap();
    let result = &messages.last().unwrap()["content"][0];
    assert_eq!(result["type"], "tool_result", "{body:#}");
    (
        result["content"].as_str().unwrap().to_owned(),
        result["is_error"] == true,
    )
}

/// run_eval.py counts only the model's first tool call, so a model that looks before it loads
/// scores 0. Within a run, a look around is answered for real (read-only) and the load that
/// follows counts; commands and writes are refused without running; `--first-call-only` keeps
/// the old, cheapest count.
#[test]
fn a_look_around_before_the_load_still_triggers() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    fs::write(dir.path().join("tax.pdf"), "%PDF-1.7").unwrap();
    let server = Server::start(vec![
        wire.tool("glob", &json!({"pattern": "*.pdf"})),
        wire.tool("bash", &json!({"command": "touch ran-a-command"})),
        wire.load("pdf"),
        wire.tool("read_file", &json!({"path": "../outside.txt"})),
        wire.load("docx"),
        // --first-call-only: a first call to glob does not trigger.
        wire.tool("glob", &json!({"pattern": "*.pdf"})),
    ]);
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let result = &stdout_json(&output)["results"][0];
    assert_eq!(result["triggers"], 1, "{result:#}");
    assert_eq!(result["other_tools"], json!({}), "{result:#}");
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    // The listing is the workspace's, as a chat's glob gives it.
    let (listing, is_error) = last_tool_result(&requests[1].json());
    assert!(!is_error && listing.contains("tax.pdf"), "{listing}");
    // The command is refused, and not run.
    let (refusal, is_error) = last_tool_result(&requests[2].json());
    assert!(
        is_error && refusal.contains("not available during evals"),
        "{refusal}"
    );
    assert!(!dir.path().join("ran-a-command").exists());

    // Loading another skill after looking is a confusion, and reads stay in the workspace.
    let output = wire.eval(
        dir.path(),
        &server,
        &["--runs", "1", "--no-cache", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let result = &stdout_json(&output)["results"][0];
    assert_eq!(result["loaded_instead"], json!({"docx": 1}), "{result:#}");
    let (outside, is_error) = last_tool_result(&server.requests()[4].json());
    assert!(
        is_error,
        "a read outside the workspace was answered: {outside}"
    );

    let output = wire.eval(
        dir.path(),
        &server,
        &[
            "--runs",
            "1",
            "--no-cache",
            "--first-call-only",
            "--format",
            "json",
        ],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stdout_json(&output);
    assert_eq!(report["results"][0]["triggers"], 0);
    assert_eq!(report["results"][0]["other_tools"], json!({"glob": 1}));
    assert_eq!(report["run"]["max_turns"], 1);
    assert_eq!(server.requests().len(), 6);

    let output = wire.eval(
        dir.path(),
        &server,
        &["--first-call-only", "--max-turns", "2"],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(server.requests().len(), 6);
}

/// A first token that takes its time is waited for: the run counts, once, without a retry.
#[test]
fn a_slow_first_token_is_waited_for_and_counted_once() {
    let wire = Wire::OpenAi;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    let server = Server::start(vec![Reply::late(
        Duration::from_millis(1500),
        &wire.tool_text("load_skill", &json!({"name": "pdf"})),
    )]);
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout_json(&output);
    assert_eq!(report["results"][0]["triggers"], 1, "{report:#}");
    assert_eq!(report["run"]["requests"], 1, "{report:#}");
    assert_eq!(server.requests().len(), 1);
}

/// A skill of the same name in another skills folder of the workspace (an installed copy in
/// `.claude/skills`) is the one the model would see only if it won the name: the catalog lists
/// one `pdf`, and it is the one under test, with its own description.
#[test]
fn a_skill_of_the_same_name_elsewhere_does_not_stand_in_for_the_one_under_test() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    let installed = dir.path().join(".claude/skills/pdf");
    fs::create_dir_all(&installed).unwrap();
    fs::write(
        installed.join("SKILL.md"),
        "---\nname: pdf\ndescription: INSTALLED-COPY reads PDF files. Use for PDFs.\n---\n# PDF\n",
    )
    .unwrap();
    let server = Server::start(vec![wire.load("pdf")]);
    let output = wire.eval(
        dir.path(),
        &server,
        &["skills/pdf", "--runs", "1", "--format", "json"],
    );
    let requests = server.requests();
    let (system, _) = wire.prompt(&requests.first().expect("a request").json());
    assert_eq!(
        system.matches("- pdf:").count(),
        1,
        "the catalog lists pdf once: {system}"
    );
    let report = stdout_json(&output);
    assert_eq!(
        report["description"], "Fills PDF forms and merges PDF files. Use when the user has a PDF.",
        "{report:#}"
    );
    assert!(
        system.contains("Fills PDF forms and merges PDF files."),
        "the catalog shows another pdf than the one under test: {system}"
    );
    // The shadowed copy is not what an agent sees: evaluating it is refused, nothing is sent.
    let output = wire.eval(dir.path(), &server, &[".claude/skills/pdf", "--runs", "1"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(".claude/skills/pdf: not a skill of the workspace"),
        "{}",
        stderr(&output)
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn queries_run_concurrently_and_every_run_is_counted() {
    let wire = Wire::OpenAi;
    let queries: Vec<Value> = (0..6)
        .map(|i| json!({"query": format!("Fill in form {i}.pdf"), "should_trigger": true}))
        .collect();
    let dir = workspace(&Value::Array(queries));
    let server = Server::start((0..12).map(|_| wire.load("pdf")).collect());
    let output = wire.eval(
        dir.path(),
        &server,
        &["--runs", "2", "--jobs", "4", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout_json(&output);
    assert_eq!(report["summary"]["passed"], 6);
    assert_eq!(report["run"]["runs"], 12);
    assert_eq!(server.requests().len(), 12);
}

/// `--max-requests` is a hard cap however many runs are in flight: the eval stops there, keeps
/// the runs it finished, and says how many it did not make.
#[test]
fn max_requests_is_never_exceeded_and_the_eval_stops_with_partial_results() {
    let wire = Wire::OpenAi;
    let queries: Vec<Value> = (0..6)
        .map(|i| json!({"query": format!("Fill in form {i}.pdf"), "should_trigger": true}))
        .collect();
    let dir = workspace(&Value::Array(queries));
    // Every reply looks around first, so each run wants both of its two turns.
    let server = Server::start(
        (0..30)
            .map(|_| wire.tool("glob", &json!({"pattern": "*.pdf"})))
            .collect(),
    );
    let output = wire.eval(
        dir.path(),
        &server,
        &[
            "--runs",
            "2",
            "--jobs",
            "4",
            "--max-turns",
            "2",
            "--max-requests",
            "5",
            "--format",
            "json",
        ],
    );
    assert_eq!(server.requests().len(), 5, "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stdout_json(&output);
    // Each run needs two requests and four run at once, so one or two of the 12 are made
    // (which depends on how the four interleave); a run cut by the cap is not counted.
    let made = report["run"]["runs"].as_u64().unwrap();
    assert!(made == 1 || made == 2, "{report:#}");
    let runs: u64 = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["runs"].as_u64().unwrap())
        .sum();
    assert_eq!(runs, made);
    let warnings = report["run"]["warnings"].to_string();
    assert!(
        warnings.contains(&format!(
            "stopped at --max-requests 5: {} of 12 runs not made",
            12 - made
        )),
        "{warnings}"
    );
    assert!(
        stderr(&output).contains("stopped at --max-requests 5"),
        "{}",
        stderr(&output)
    );

    let output = wire.eval(dir.path(), &server, &["--max-requests", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--max-requests must be at least 1"),
        "{}",
        stderr(&output)
    );
    assert_eq!(server.requests().len(), 5);
}

/// `--dry-run` sends nothing and says what a run would: runs, requests and tokens, rough
/// before any run of the model and measured on the cached runs after one, and the cost with a
/// price in the config.
#[test]
fn a_dry_run_sends_nothing_and_estimates_from_the_runs_before_it() {
    let wire = Wire::Anthropic;
    let dir = workspace(&three_queries());
    fs::write(
        dir.path().join("skill-lsp.toml"),
        "[agent.price]\ninput = 3.0\noutput = 15.0\n",
    )
    .unwrap();
    let server = Server::start((0..3).map(|_| wire.text()).collect());
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--dry-run"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("dry run: nothing was sent to test-model"),
        "{text}"
    );
    assert!(text.contains("runs: 3 (0 answered by the cache)"), "{text}");
    assert!(text.contains("requests: 3 to 9 "), "{text}");
    assert!(
        text.contains("tokens are rough (3.5 bytes a token)"),
        "{text}"
    );
    assert!(
        text.contains(" USD (at 3 USD input and 15 USD output per million tokens"),
        "{text}"
    );
    assert!(server.requests().is_empty());

    // A real run: each reply reads to its end, so its usage calibrates the next estimate.
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--format", "json"]);
    assert_eq!(server.requests().len(), 3, "{}", stderr(&output));
    let spent = stdout_json(&output)["run"].clone();

    let output = wire.eval(
        dir.path(),
        &server,
        &["--runs", "1", "--no-cache", "--dry-run", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let estimate = stdout_json(&output);
    let guess = &estimate["dry_run"];
    assert_eq!(guess["calibration"]["runs"], 3, "{estimate:#}");
    assert_eq!(guess["requests"], 3, "{estimate:#}");
    let within = |guessed: &Value, real: &Value| {
        let (guessed, real) = (guessed.as_f64().unwrap(), real.as_f64().unwrap());
        (guessed - real).abs() <= real * 0.1
    };
    assert!(
        within(&guess["input_tokens"], &spent["input_tokens"]),
        "{estimate:#} against {spent:#}"
    );
    assert!(
        within(&guess["output_tokens"], &spent["output_tokens"]),
        "{estimate:#} against {spent:#}"
    );
    assert_eq!(estimate["cost"]["currency"], "USD");

    // What the cache answers costs nothing.
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--dry-run"]);
    assert!(
        stdout(&output).contains("runs: 3 (3 answered by the cache)"),
        "{}",
        stdout(&output)
    );
    assert!(
        stdout(&output).contains("requests: 0 "),
        "{}",
        stdout(&output)
    );
    assert_eq!(server.requests().len(), 3);
}

/// `--runs auto` adds runs only to the queries still undecided, one at a time, up to ten: a
/// query the model always answers alike is decided at four runs; one it answers half and half
/// stays undecided at the cap. The added runs are cached like the others.
#[test]
fn runs_auto_adds_runs_to_undecided_queries_only_up_to_ten() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([
        {"query": "Fill in tax.pdf", "should_trigger": true},
        {"query": "Do something with this pdf", "should_trigger": true},
    ]));
    let (load, text) = (|| wire.load("pdf"), || wire.text());
    // Round one: three runs each; then one more each; then the second query alone.
    let replies = vec![
        load(),
        load(),
        load(),
        load(),
        text(),
        load(), // 3/3 and 2/3: both undecided
        load(),
        text(), // 4/4 decides the first; 2/4
        load(),
        text(),
        load(),
        text(),
        load(),
        text(), // the second up to ten runs: 5/10
    ];
    let server = Server::start(replies);
    let args = ["--runs", "auto", "--jobs", "1", "--format", "json"];
    let output = wire.eval(dir.path(), &server, &args);
    assert_eq!(server.requests().len(), 14, "{}", stderr(&output));
    let report = stdout_json(&output);
    let results = report["results"].as_array().unwrap();
    assert_eq!(
        (&results[0]["runs"], &results[0]["verdict"]),
        (&json!(4), &json!("pass")),
        "{report:#}"
    );
    assert_eq!(
        (
            &results[1]["runs"],
            &results[1]["triggers"],
            &results[1]["verdict"]
        ),
        (&json!(10), &json!(5), &json!("undecided")),
        "{report:#}"
    );
    assert_eq!(report["summary"]["undecided"], 1, "{report:#}");
    assert_eq!(report["run"]["auto_runs"], true, "{report:#}");

    let again = wire.eval(dir.path(), &server, &args);
    assert_eq!(server.requests().len(), 14, "the cache answers every run");
    assert_eq!(
        stdout_json(&again)["results"],
        report["results"]
            .clone()
            .as_array()
            .map(|results| {
                results
                    .iter()
                    .map(|result| {
                        let mut result = result.clone();
                        result["cached_runs"] = result["runs"].clone();
                        result
                    })
                    .collect::<Vec<_>>()
            })
            .map(Value::Array)
            .unwrap()
    );

    let output = wire.eval(dir.path(), &server, &["--runs", "some"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("expected a number of runs or `auto`, got 'some'"),
        "{}",
        stderr(&output)
    );
}

/// `--improve`: the file's description fails two should-trigger queries; the model rewrites it
/// from the failing train queries only (the test queries stay unseen), the rewrite passes
/// everything, and `--apply` writes it into the SKILL.md, the rest of the file untouched.
#[test]
fn improve_rewrites_from_the_train_failures_and_apply_writes_the_best() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([
        {"query": "Fill in tax.pdf", "should_trigger": true},
        {"query": "Merge a.pdf and b.pdf", "should_trigger": true},
        {"query": "Rotate page 2 of scan.pdf", "should_trigger": true},
        {"query": "What is the capital of France?", "should_trigger": false},
        {"query": "Write a haiku about autumn", "should_trigger": false},
    ]));
    let better = "Reads, fills, merges and rotates PDF files. Use when the user mentions a PDF file or form.";
    let (load, text) = (|| wire.load("pdf"), || wire.text());
    let rewrite = Reply::sse(&anthropic_stream(
        &[json!({"text": format!("\"{better}\"")})],
        "end_turn",
    ));
    let server = Server::start(vec![
        load(),
        text(),
        text(),
        text(),
        text(), // the file's description: two misses
        rewrite,
        load(),
        load(),
        load(),
        text(),
        text(), // the rewrite: all pass
        // The second time, with --apply: the runs come from the cache, the rewrite anew.
        Reply::sse(&anthropic_stream(&[json!({"text": better})], "end_turn")),
    ]);
    let skill_md = dir.path().join("skills/pdf/SKILL.md");
    let before = fs::read_to_string(&skill_md).unwrap();
    let args = [
        "pdf",
        "--improve",
        "--runs",
        "1",
        "--jobs",
        "1",
        "--format",
        "json",
    ];
    let output = wire.eval(dir.path(), &server, &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout_json(&output);
    let improve = &report["improve"];
    assert_eq!(
        improve["iterations"].as_array().unwrap().len(),
        2,
        "{report:#}"
    );
    assert_eq!(improve["best"], 1, "{report:#}");
    assert_eq!(report["best_description"], better, "{report:#}");
    assert_eq!(report["applied"], false);
    assert_eq!(
        fs::read_to_string(&skill_md).unwrap(),
        before,
        "nothing written without --apply"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 11);
    // The rewrite request: no tools, the failing train queries, never a test query.
    let ask = requests[5].json();
    assert!(
        ask.get("tools")
            .is_none_or(|tools| tools.as_array().is_some_and(Vec::is_empty)),
        "{ask:#}"
    );
    let prompt = ask["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let queries = [
        "Fill in tax.pdf",
        "Merge a.pdf and b.pdf",
        "Rotate page 2 of scan.pdf",
        "What is the capital of France?",
        "Write a haiku about autumn",
    ];
    let failing_first = [1, 2];
    for index in improve["split"]["train"].as_array().unwrap() {
        let i = usize::try_from(index.as_u64().unwrap()).unwrap();
        assert_eq!(
            prompt.contains(queries[i]),
            failing_first.contains(&i),
            "train query {i} in the prompt: {prompt}"
        );
    }
    for index in improve["split"]["test"].as_array().unwrap() {
        let i = usize::try_from(index.as_u64().unwrap()).unwrap();
        assert!(
            !prompt.contains(queries[i]),
            "a test query was shown: {prompt}"
        );
    }
    // What the skill covers goes as its outline, never its text (small models copy text back).
    assert!(
        prompt.contains("The sections of its instructions: PDF\n"),
        "{prompt}"
    );
    assert!(!prompt.contains("SECRET-PDF-BODY"), "{prompt}");
    // The candidate is what the catalog shows while it is measured.
    let (system, _) = wire.prompt(&requests[6].json());
    assert!(system.contains(better), "{system}");

    // Again with --apply: the runs come from the cache (kept per endpoint), the rewrite anew.
    let mut args = args.to_vec();
    args.push("--apply");
    let output = wire.eval(dir.path(), &server, &args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout_json(&output)["applied"], true);
    assert_eq!(server.requests().len(), 12);
    let after = fs::read_to_string(&skill_md).unwrap();
    assert_eq!(
        after,
        before.replace(
            "description: Fills PDF forms and merges PDF files. Use when the user has a PDF.",
            &format!("description: {better}")
        )
    );
    // With the new description every run is cached and passes: nothing left to improve.
    let output = wire.eval(
        dir.path(),
        &server,
        &["pdf", "--improve", "--runs", "1", "--jobs", "1"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("improve pdf: 3 train and 2 test queries (seed 1)\n"),
        "{text}"
    );
    assert!(text.contains("(the file's; best)"), "{text}");
    assert!(
        text.ends_with("every query passes with the file's description: nothing to improve\n"),
        "{text}"
    );
    assert_eq!(server.requests().len(), 12);
    let check = Command::new(BIN)
        .args(["check", "--target", "agentskills"])
        .arg(&skill_md)
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
}

#[test]
fn human_output_is_a_table_without_colour_when_piped() {
    let wire = Wire::Anthropic;
    let dir = workspace(&three_queries());
    let server = Server::start(vec![wire.load("pdf"), wire.load("docx"), wire.text()]);
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--jobs", "1"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(
        !text.contains('\x1b') && !stderr(&output).contains('\x1b'),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0] == "pdf  skills/pdf/evals/triggers.json", "{text}");
    // One run decides nothing at a threshold of 0.5: each verdict is marked undecided.
    assert_eq!(
        lines[1],
        "  pass?    1/1  trigger  Fill in the form in tax.pdf"
    );
    assert_eq!(
        lines[2],
        "  FAIL?    0/1  trigger  Merge a.pdf and b.pdf  → loaded docx 1/1"
    );
    assert_eq!(
        lines[3],
        "  pass?    0/1  no       What is the capital of France?"
    );
    assert_eq!(
        lines[4],
        "  2/3 passed · precision 1.00 [0.21–1.00] · recall 0.50 [0.09–0.91] · false triggers 0.00 [0.00–0.79]"
    );
    assert_eq!(
        lines[5],
        "  ?: undecided — run more: 3 queries (their 95 % intervals straddle the threshold, so more runs could turn them; --runs auto adds runs to those only)"
    );
    assert_eq!(
        lines[6],
        "  confusion: \"Merge a.pdf and b.pdf\" → docx (1/1 runs)"
    );
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("2/3 queries passed (1 failed) · 1 skill · 3 runs (0 from the cache, 3 model calls) · tokens spent: "),
        "{last}"
    );
    assert!(last.ends_with("anthropic test-model"), "{last}");
}

#[test]
fn junit_has_a_suite_per_skill_and_a_case_per_query() {
    let wire = Wire::OpenAi;
    let dir = workspace(&three_queries());
    let server = Server::start(vec![wire.load("pdf"), wire.load("docx"), wire.text()]);
    let output = wire.eval(
        dir.path(),
        &server,
        &["--runs", "1", "--jobs", "1", "--format", "junit"],
    );
    assert_eq!(output.status.code(), Some(1));
    let xml = stdout(&output);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"skill-lsp eval\" tests=\"3\" failures=\"1\""), "{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), 1);
    assert!(
        xml.contains("<testsuite name=\"pdf\" tests=\"3\" failures=\"1\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 3);
    assert!(
        xml.contains(
            "<testcase classname=\"pdf\" name=\"[should trigger] Fill in the form in tax.pdf\"/>"
        ),
        "{xml}"
    );
    assert!(xml.contains("<testcase classname=\"pdf\" name=\"[should not trigger] What is the capital of France?\"/>"), "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 1);
    assert!(xml.contains("<failure type=\"trigger\" message=\"should trigger, but triggered in 0/1 runs (rate 0.00 &lt; threshold 0.5); loaded instead: docx (1/1)\">"), "{xml}");
    assert!(
        xml.contains("<property name=\"recall\" value=\"0.50\"/>"),
        "{xml}"
    );
    assert!(xml.trim_end().ends_with("</testsuites>"));
}

#[test]
fn several_skills_give_a_skills_array() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    let evals = dir.path().join("skills/docx/evals");
    fs::create_dir_all(&evals).unwrap();
    fs::write(
        evals.join("triggers.json"),
        r#"[{"query": "Fix the heading in report.docx", "should_trigger": true}]"#,
    )
    .unwrap();
    let server = Server::start(vec![wire.load("docx"), wire.load("pdf")]);
    let output = wire.eval(
        dir.path(),
        &server,
        &["--runs", "1", "--jobs", "1", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout_json(&output);
    let names: Vec<&str> = report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["skill_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["docx", "pdf"], "catalog order");
    assert_eq!(
        report["summary"],
        json!({"total": 2, "passed": 2, "failed": 0})
    );
    // --description needs one skill under test.
    let output = wire.eval(dir.path(), &server, &["--description", "x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--description is for one skill"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_malformed_eval_set_is_trouble_with_path_line_and_column() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([]));
    let path = dir.path().join("skills/pdf/evals/triggers.json");
    fs::write(
        &path,
        "[\n  {\"query\": \"Fill in tax.pdf\", \"should_trigger\": \"yes\"}\n]\n",
    )
    .unwrap();
    let server = Server::start(vec![]);
    let output = wire.eval(dir.path(), &server, &[]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains(
            "skill-lsp: error: skills/pdf/evals/triggers.json:2:54: invalid type: string \"yes\", expected a boolean\n"
        ),
        "{message}"
    );
    fs::write(&path, "[{\"query\": \"Fill in tax.pdf\"}]").unwrap();
    let message = stderr(&wire.eval(dir.path(), &server, &[]));
    assert!(
        message.contains("triggers.json:1:29: missing field `should_trigger`"),
        "{message}"
    );
    fs::write(&path, "[]").unwrap();
    let message = stderr(&wire.eval(dir.path(), &server, &[]));
    assert!(
        message.contains("triggers.json:1:2: the eval set is empty"),
        "{message}"
    );
    assert!(server.requests().is_empty());

    // --eval-set: a file elsewhere, for one named skill.
    let elsewhere = dir.path().join("mine.json");
    fs::write(&elsewhere, "{\"query\": \"x\"}").unwrap();
    let output = wire.eval(dir.path(), &server, &["pdf", "--eval-set", "mine.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("mine.json:1:8: expected a JSON array"),
        "{}",
        stderr(&output)
    );
    let output = wire.eval(dir.path(), &server, &["--eval-set", "mine.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--eval-set needs the skill it is for"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn eval_set_elsewhere_and_exit_codes() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    fs::write(
        dir.path().join("docx-evals.json"),
        r#"[{"query": "What is 2 + 2?", "should_trigger": false, "note": "unknown keys are tolerated"}]"#,
    )
    .unwrap();
    let server = Server::start(vec![wire.text()]);
    let output = wire.eval(
        dir.path(),
        &server,
        &["docx", "--eval-set", "docx-evals.json", "--runs", "1"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains(
            "\n  note: no query should trigger; add should-trigger queries to measure recall\n"
        ),
        "{}",
        stdout(&output)
    );
    assert!(
        stdout(&output).contains("1/1 queries passed (all passed)"),
        "{}",
        stdout(&output)
    );

    // A skill without an eval set, an unknown skill, bad flags: 2, and nothing is sent.
    let output = wire.eval(dir.path(), &server, &["docx"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("skill 'docx' has no eval set"),
        "{}",
        stderr(&output)
    );
    let output = wire.eval(dir.path(), &server, &["nope"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no skill named 'nope'"),
        "{}",
        stderr(&output)
    );
    for args in [
        ["--runs", "0"],
        ["--threshold", "1.5"],
        ["--jobs", "0"],
        ["--max-turns", "0"],
    ] {
        let output = wire.eval(dir.path(), &server, &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
    assert_eq!(server.requests().len(), 1);

    // No provider configured: 2, naming the variables.
    let output = Command::new(BIN)
        .args(["eval", "--runs", "1"])
        .current_dir(dir.path())
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env("MODEL_ID", "m")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("ANTHROPIC_API_KEY"),
        "{}",
        stderr(&output)
    );

    // The provider refuses the key: 2, its message, never the key.
    let server = Server::start(vec![Reply::json(
        401,
        &json!({"type": "error", "error": {"type": "authentication_error", "message": format!("invalid x-api-key {ANTHROPIC_KEY}")}}),
    )]);
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--no-cache"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("HTTP 401"), "{}", stderr(&output));
}

#[test]
fn a_run_whose_stream_breaks_mid_reply_is_run_again() {
    for wire in WIRES {
        let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
        let server = Server::start(vec![wire.text_then_cut(), wire.load("pdf")]);
        let output = wire.eval(dir.path(), &server, &["--runs", "1", "--format", "json"]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{wire:?}: {}",
            stderr(&output)
        );
        let report = stdout_json(&output);
        assert_eq!(report["results"][0]["triggers"], 1);
        assert_eq!(report["run"]["requests"], 2);
        assert_eq!(server.requests().len(), 2);

        // Broken every time: trouble, after the restarts.
        let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
        let server = Server::start(vec![
            wire.text_then_cut(),
            wire.text_then_cut(),
            wire.text_then_cut(),
        ]);
        let output = wire.eval(dir.path(), &server, &["--runs", "1"]);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{wire:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains("pdf: query \"Fill in tax.pdf\": "),
            "{}",
            stderr(&output)
        );
        assert_eq!(server.requests().len(), 3);
    }
}

#[test]
fn a_folder_stands_for_the_skills_under_it_with_eval_sets() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    let server = Server::start(vec![wire.load("pdf"), wire.load("pdf")]);
    // From inside the workspace, and naming it from outside: only pdf has an eval set.
    let output = wire.eval(
        dir.path(),
        &server,
        &[".", "--runs", "1", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout_json(&output)["skill_name"], "pdf");
    let elsewhere = tempfile::tempdir().unwrap();
    let skills = dir.path().join("skills");
    let output = wire.eval(
        elsewhere.path(),
        &server,
        &[
            skills.to_str().unwrap(),
            "--runs",
            "1",
            "--format",
            "json",
            "--no-cache",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout_json(&output)["skill_name"], "pdf");
    assert_eq!(server.requests().len(), 2);
    // The same folder spelled another way (cached); a folder without any eval set under it.
    let output = wire.eval(dir.path(), &server, &["skills/docx/..", "--runs", "1"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = wire.eval(elsewhere.path(), &server, &["."]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(".: no skill of the workspace ")
            && stderr(&output).contains(
                " under it has an eval set (trigger evals: looked for evals/triggers.json, "
            ),
        "{}",
        stderr(&output)
    );
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn the_model_comes_from_model_flag_then_model_id_then_config() {
    let wire = Wire::OpenAi;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    fs::write(
        dir.path().join("skill-lsp.toml"),
        "[agent]\nmodel = \"from-config\"\n",
    )
    .unwrap();
    let server = Server::start(vec![wire.load("pdf"), wire.load("pdf"), wire.load("pdf")]);
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--no-cache"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = wire.eval(
        dir.path(),
        &server,
        &["--runs", "1", "--model", "from-flag"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("openai from-flag\n"),
        "{}",
        stdout(&output)
    );
    let output = wire
        .command(dir.path(), &server, &["--runs", "1"])
        .env("MODEL_ID", "")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let models: Vec<Value> = server
        .requests()
        .iter()
        .map(|request| request.json()["model"].clone())
        .collect();
    assert_eq!(
        models,
        [
            json!("test-model"),
            json!("from-flag"),
            json!("from-config")
        ]
    );
}

/// A copy of a folder, files and subfolders.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn every_bundled_skill_has_an_eval_set_of_which_about_half_are_near_misses() {
    // A copy, so that the run's cache is not written into the repository.
    let dir = tempfile::tempdir().unwrap();
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("skills"),
        &dir.path().join("skills"),
    );
    let mut sets = Vec::new();
    for skill in ["agent-builder", "code-review", "mcp-builder", "pdf"] {
        let path = dir
            .path()
            .join("skills")
            .join(skill)
            .join("evals/triggers.json");
        let set: Vec<Value> = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        let misses = set
            .iter()
            .filter(|case| case["should_trigger"] == false)
            .count();
        assert!(
            (10..=20).contains(&set.len()),
            "{skill}: {} queries",
            set.len()
        );
        assert!(
            misses * 5 >= set.len() * 2 && misses * 5 <= set.len() * 3,
            "{skill}: {misses} of {} should not trigger",
            set.len()
        );
        sets.push(set);
    }
    // A model that never loads a skill: the near misses pass, the rest fail.
    let wire = Wire::Anthropic;
    let total: usize = sets.iter().map(Vec::len).sum();
    let server = Server::start((0..total).map(|_| wire.text()).collect());
    let output = wire.eval(
        dir.path(),
        &server,
        &["skills", "--runs", "1", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stdout_json(&output);
    let skills = report["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 4);
    for skill in skills {
        for result in skill["results"].as_array().unwrap() {
            assert_eq!(
                result["pass"],
                result["should_trigger"] == false,
                "{result}"
            );
        }
    }
    assert_eq!(report["summary"]["total"], total);
    assert_eq!(server.requests().len(), total);
}

#[test]
fn routing_requests_have_a_small_token_limit_and_runs_cut_by_it_are_warned_about() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "Fill in tax.pdf", "should_trigger": true}]));
    let cut = || {
        Reply::sse(&anthropic_stream(
            &[json!({"text": "Let me think about which skill"})],
            "max_tokens",
        ))
    };
    let server = Server::start(vec![cut(), cut(), cut(), cut()]);
    let sent = |index: usize| server.requests()[index].json()["max_tokens"].clone();
    let output = wire.eval(dir.path(), &server, &["--runs", "1", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(sent(0), 1024, "the default routing limit");
    let report = stdout_json(&output);
    assert_eq!(report["results"][0]["triggers"], 0);
    assert_eq!(
        report["run"]["warnings"],
        json!([
            "1 run reached the token limit (1024 tokens) before any tool call and count as not triggered; a higher --max-tokens gives the model room"
        ])
    );
    // A lower agent limit lowers it; a higher one does not raise it; the flag sets it.
    let with_env = |value: &str, args: &[&str]| {
        wire.command(
            dir.path(),
            &server,
            &[&["--runs", "1", "--no-cache"], args].concat(),
        )
        .env("SKILL_LSP_MAX_TOKENS", value)
        .output()
        .unwrap()
    };
    assert_eq!(with_env("200", &[]).status.code(), Some(1));
    assert_eq!(sent(1), 200);
    assert_eq!(with_env("5000", &[]).status.code(), Some(1));
    assert_eq!(sent(2), 1024);
    assert_eq!(
        with_env("200", &["--max-tokens", "64"]).status.code(),
        Some(1)
    );
    assert_eq!(sent(3), 64);
}

#[test]
fn the_eval_set_is_the_first_name_found_and_output_evals_alone_are_not_run() {
    let wire = Wire::Anthropic;
    let dir = workspace(&json!([{"query": "unused", "should_trigger": true}]));
    let pdf = dir.path().join("skills/pdf");
    fs::remove_file(pdf.join("evals/triggers.json")).unwrap();
    // The guide's name, wrapped as some sets are, and skill-creator's export beside the SKILL.md.
    fs::write(
        pdf.join("evals/eval_queries.json"),
        r#"{"skill_name": "pdf", "queries": [{"query": "Fill in tax.pdf", "should_trigger": true, "split": "train"}]}"#,
    )
    .unwrap();
    fs::write(
        pdf.join("eval_set.json"),
        r#"[{"query": "Never read", "should_trigger": false}]"#,
    )
    .unwrap();
    let server = Server::start(vec![wire.text()]);
    let output = wire.eval(
        dir.path(),
        &server,
        &["pdf", "--runs", "1", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = stdout_json(&output);
    assert!(
        report["eval_set"]
            .as_str()
            .unwrap()
            .ends_with("skills/pdf/evals/eval_queries.json"),
        "{report:#}"
    );
    assert_eq!(report["results"][0]["query"], "Fill in tax.pdf");
    assert_eq!(report["results"].as_array().unwrap().len(), 1);
    assert!(
        stderr(&output).contains(
            "skill-lsp: warning: skill 'pdf': measuring evals/eval_queries.json; eval_set.json is not read (the first of evals/triggers.json, evals/eval_queries.json, "
        ),
        "{}",
        stderr(&output)
    );
    assert_eq!(server.requests().len(), 1);

    // A skill with output evals only: nothing to run, and the message says why.
    let docx = dir.path().join("skills/docx");
    fs::create_dir_all(docx.join("evals")).unwrap();
    fs::write(
        docx.join("evals/evals.json"),
        r#"{"skill_name": "docx", "evals": [{"id": 1, "prompt": "Convert a.docx"}]}"#,
    )
    .unwrap();
    let output = wire.eval(dir.path(), &server, &["docx"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("skill 'docx' has no eval set (trigger evals: looked for evals/triggers.json, evals/eval_queries.json, evals/trigger/eval_queries.json, evals/trigger-eval.json, evals/eval_set.json, eval_set.json, eval_queries.json)")
            && message.contains("; its evals/evals.json holds output evals (prompts and expected outputs), which skill-lsp does not run yet"),
        "{message}"
    );
    // The whole workspace, when no skill has a trigger set: the same, counted.
    fs::remove_file(pdf.join("evals/eval_queries.json")).unwrap();
    fs::remove_file(pdf.join("eval_set.json")).unwrap();
    let output = wire.eval(dir.path(), &server, &[]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains(" has an eval set (trigger evals: looked for evals/triggers.json, ")
            && message.contains("; 1 has only output evals (evals/evals.json: prompts and expected outputs), which skill-lsp does not run yet"),
        "{message}"
    );
    assert_eq!(server.requests().len(), 1, "nothing more is sent");
}

/// A skill whose trigger word sits past Claude Code's cut of 1,536 characters, listed by its
/// folder `pdf-tools` with its name beside it (`pdf-tools (pdf)`).
fn cut_workspace() -> (tempfile::TempDir, usize) {
    let dir = tempfile::tempdir().unwrap();
    let description = format!(
        "{}Use it for ZEBRAFORM files.",
        "Handles office documents of many kinds. ".repeat(80)
    );
    let skill = dir.path().join(".claude/skills/pdf-tools");
    fs::create_dir_all(skill.join("evals")).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        format!("---\nname: pdf\ndescription: {description}\n---\n# PDF\n"),
    )
    .unwrap();
    fs::write(
        skill.join("evals/triggers.json"),
        json!([
            {"query": "Open the zebra file", "should_trigger": true},
            {"query": "What is the capital of France?", "should_trigger": false},
        ])
        .to_string(),
    )
    .unwrap();
    let docx = dir.path().join(".claude/skills/docx");
    fs::create_dir_all(&docx).unwrap();
    fs::write(docx.join("SKILL.md"), DOCX).unwrap();
    (dir, description.chars().count())
}

/// `--improve --target`: each description tried carries what the client did with it. At a
/// 2,000-token window Claude Code lists every skill by name only, so no rewrite can win, and
/// the report says why for each try and in its summary.
#[test]
fn improve_under_a_target_says_what_the_client_did_with_each_try() {
    let wire = Wire::Anthropic;
    let (dir, _) = cut_workspace();
    let server = Server::answering(move |request| {
        let body = request.json();
        let routing = body["tools"]
            .as_array()
            .is_some_and(|tools| !tools.is_empty());
        if routing {
            wire.text()
        } else {
            Reply::sse(&anthropic_stream(
                &[json!({"text": "Opens ZEBRAFORM files."})],
                "end_turn",
            ))
        }
    });
    let args = [
        "pdf",
        "--improve",
        "--iterations",
        "1",
        "--runs",
        "1",
        "--jobs",
        "1",
        "--target",
        "claude-code",
        "--context-window",
        "2000",
    ];
    let output = wire.eval(
        dir.path(),
        &server,
        &[&args[..], &["--format", "json"]].concat(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout_json(&output);
    let iterations = report["improve"]["iterations"].as_array().unwrap();
    assert_eq!(iterations.len(), 2, "{report:#}");
    assert_eq!(iterations[1]["description"], "Opens ZEBRAFORM files.");
    for iteration in iterations {
        assert!(
            iteration["target_note"]
                .as_str()
                .is_some_and(|note| note.starts_with("Claude Code lists this skill by name only")),
            "{report:#}"
        );
    }
    let summary = report["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("no rewrite beat the file's description")
            && summary.contains(". Claude Code lists this skill by name only"),
        "{summary}"
    );

    // The human table gives each try's note under its line.
    let human = wire.eval(dir.path(), &server, &args);
    let text = stdout(&human);
    assert_eq!(
        text.matches("\n                    Claude Code lists this skill by name only")
            .count(),
        2,
        "{text}"
    );

    // At the default window the rewrite is listed whole: no note.
    let whole = wire.eval(
        dir.path(),
        &server,
        &[&args[..args.len() - 2], &["--format", "json"]].concat(),
    );
    let report = stdout_json(&whole);
    let iterations = report["improve"]["iterations"].as_array().unwrap();
    assert_eq!(iterations[1]["target_note"], Value::Null, "{report:#}");
    assert!(
        iterations[0]["target_note"]
            .as_str()
            .is_some_and(|note| note.starts_with("Claude Code cuts this description")),
        "{report:#}"
    );
}

/// A model that loads the skill when the catalog it is sent holds ZEBRAFORM and the query
/// asks for a zebra file, by the name the catalog lists it under (`pdf-tools` where Claude
/// Code's line `pdf-tools (pdf)` is, else `pdf`); otherwise it answers in text.
fn zebra_model(wire: Wire) -> Server {
    Server::answering(move |request| {
        let body = request.json();
        let (system, query) = wire.prompt(&body);
        if system.contains("ZEBRAFORM") && query.contains("zebra") {
            let name = if system.contains("- pdf-tools (pdf):") {
                "pdf-tools"
            } else {
                "pdf"
            };
            wire.load(name)
        } else {
            wire.text()
        }
    })
}

#[test]
fn a_description_cut_by_the_target_fails_under_it_and_passes_without_it() {
    let wire = Wire::Anthropic;
    let (dir, full) = cut_workspace();
    let server = zebra_model(wire);
    let args = ["pdf", "--runs", "1", "--jobs", "1", "--format", "json"];

    // The agent's own catalog shows the whole description: the query triggers.
    let whole = wire.eval(dir.path(), &server, &args);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    let report = stdout_json(&whole);
    assert_eq!(report["results"][0]["triggers"], 1, "{report:#}");
    assert!(report.get("target").is_none(), "{report:#}");

    // Claude Code cuts it before the trigger word: the same model does not load it.
    let target = [&args[..], &["--target", "claude-code"]].concat();
    let cut = wire.eval(dir.path(), &server, &target);
    assert_eq!(cut.status.code(), Some(1), "{}", stderr(&cut));
    let report = stdout_json(&cut);
    assert_eq!(report["results"][0]["triggers"], 0, "{report:#}");
    assert_eq!(report["results"][0]["pass"], false);
    let view = &report["target"];
    assert_eq!(view["client"], "claude-code", "{report:#}");
    assert_eq!(view["presence"], "listed");
    assert_eq!(view["fate"], "capped");
    assert_eq!(view["listed_as"], "pdf-tools (pdf)");
    assert_eq!(view["seen_chars"], 1535);
    assert_eq!(view["full_chars"], full);
    assert!(!view["seen"].as_str().unwrap().contains("ZEBRAFORM"));
    assert_eq!(full, 3_227);
    assert!(
        view["note"].as_str().unwrap().starts_with(
            "Claude Code cuts this description at 1,535 of its 3,227 characters: the model saw “…"
        ),
        "{view:#}"
    );
    // What was sent: Claude Code's listing, its names for load_skill.
    let requests = server.requests();
    let sent = requests.last().unwrap().json();
    let (system, _) = wire.prompt(&sent);
    assert!(
        system.contains("The following skills are available for use with the Skill tool:\n\n- docx: Edits Word documents. Use for .docx files.\n- pdf-tools (pdf): Handles office documents"),
        "{system}"
    );
    assert!(!system.contains("ZEBRAFORM"), "{system}");
    let load_skill = sent["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "load_skill")
        .unwrap();
    assert_eq!(
        load_skill["input_schema"]["properties"]["name"]["enum"],
        json!(["docx", "pdf-tools", "pdf"])
    );

    // The human report says why it lost.
    let human = wire.eval(
        dir.path(),
        &server,
        &["pdf", "--runs", "1", "--target", "claude-code"],
    );
    assert_eq!(human.status.code(), Some(1));
    assert!(
        stdout(&human).contains("  Claude Code cuts this description at 1,535 of its "),
        "{}",
        stdout(&human)
    );
    assert!(
        stdout(&human).contains("(2 from the cache, 0 model calls)"),
        "the target's runs are cached under their own key: {}",
        stdout(&human)
    );

    // A candidate goes through the same listing: short, it is listed whole and the model loads
    // it by the folder Claude Code lists, which counts for the skill.
    let short = wire.eval(
        dir.path(),
        &server,
        &[&target[..], &["--description", "Opens ZEBRAFORM files."]].concat(),
    );
    assert_eq!(short.status.code(), Some(0), "{}", stderr(&short));
    let report = stdout_json(&short);
    assert_eq!(report["results"][0]["triggers"], 1, "{report:#}");
    assert_eq!(report["target"]["fate"], "full");
    assert_eq!(report["target"]["note"], Value::Null);
    // A long candidate is cut as the file's description is.
    let long = format!("{}ZEBRAFORM.", "Opens files. ".repeat(130));
    let long = wire.eval(
        dir.path(),
        &server,
        &[&target[..], &["--description", &long]].concat(),
    );
    assert_eq!(long.status.code(), Some(1), "{}", stderr(&long));
    assert_eq!(stdout_json(&long)["target"]["fate"], "capped");

    // A validator is no target for evals.
    let validator = wire.eval(
        dir.path(),
        &server,
        &[&args[..], &["--target", "agentskills"]].concat(),
    );
    assert_eq!(validator.status.code(), Some(2));
    assert!(
        stderr(&validator)
            .contains("--target: agentskills (skills-ref) lists no skills to a model"),
        "{}",
        stderr(&validator)
    );

    // --dry-run measures the target's catalog: the cut one is smaller.
    let estimate = |extra: &[&str]| {
        let output = wire.eval(
            dir.path(),
            &server,
            &[&args[..], &["--dry-run", "--no-cache"], extra].concat(),
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout_json(&output)["dry_run"]["input_tokens"]
            .as_u64()
            .unwrap()
    };
    assert!(
        estimate(&["--target", "claude-code"]) < estimate(&[]),
        "the cut catalog is the smaller request"
    );

    // The budget follows the model's context window: 1% of 2,000 tokens holds no description,
    // so Claude Code lists both skills by name only.
    let small = wire.eval(
        dir.path(),
        &server,
        &[&target[..], &["--context-window", "2000"]].concat(),
    );
    assert_eq!(small.status.code(), Some(1), "{}", stderr(&small));
    let report = stdout_json(&small);
    assert_eq!(report["target"]["fate"], "name-only", "{report:#}");
    assert_eq!(report["target"]["seen"], Value::Null);
    let requests = server.requests();
    let (system, _) = wire.prompt(&requests.last().unwrap().json());
    assert!(
        system.contains("- docx\n") && !system.contains("Edits Word documents"),
        "{system}"
    );
    // The dry run says so before anything is sent.
    let dry = wire.eval(
        dir.path(),
        &server,
        &[&target[..], &["--context-window", "2000", "--dry-run"]].concat(),
    );
    assert_eq!(dry.status.code(), Some(0), "{}", stderr(&dry));
    let estimate = stdout_json(&dry);
    let notes = estimate["dry_run"]["target_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{estimate:#}");
    assert!(
        notes[0]
            .as_str()
            .unwrap()
            .starts_with("pdf: Claude Code lists this skill by name only"),
        "{estimate:#}"
    );
    assert!(
        estimate["summary"]
            .as_str()
            .unwrap()
            .ends_with(notes[0].as_str().unwrap()),
        "the question an editor asks carries it: {estimate:#}"
    );
    let human = wire.eval(
        dir.path(),
        &server,
        &[
            "pdf",
            "--target",
            "claude-code",
            "--context-window",
            "2000",
            "--dry-run",
        ],
    );
    assert!(
        stdout(&human).contains("\n  pdf: Claude Code lists this skill by name only"),
        "{}",
        stdout(&human)
    );
    // Without a target there is no listing budget to set.
    let alone = wire.eval(
        dir.path(),
        &server,
        &[&args[..], &["--context-window", "2000"]].concat(),
    );
    assert_eq!(alone.status.code(), Some(2), "{}", stderr(&alone));
    assert!(stderr(&alone).contains("--target"), "{}", stderr(&alone));
}
