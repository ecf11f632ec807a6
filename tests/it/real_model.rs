//! The OpenAI-compatible path against a real model server: llama.cpp's `llama-server` serving
//! SmolLM2-135M-Instruct on 127.0.0.1, driven by `skill-lsp eval`, `skill-lsp chat` and
//! `skill/agentChat`. A model this small decides badly, so these tests pin the plumbing (the
//! request is accepted, the stream is decoded, tool calls parse, the run ends in bounded time
//! with a well-formed result), not the model's choices.
//!
//! They run only when the environment names the server, the model and a tool-capable chat
//! template, as `eval "$(bash scripts/llama_server.sh)"` does (`cargo xtask test` does it):
//! `SKILL_LSP_LLAMA_SERVER`, `SKILL_LSP_LLAMA_MODEL`, `SKILL_LSP_LLAMA_TEMPLATE`. Without them
//! every test passes at once and says loudly that it was skipped; with only some of them, or with
//! a server that does not come up, every test fails. `SKILL_LSP_LLAMA_THREADS` (default 2) sets
//! the server's threads.

#![allow(
    clippy::print_stderr,
    reason = "a skip must be loud, and the latencies and the model's calls go in the test output"
)]

use crate::lsp_client;

use std::fs::{self, File};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use lsp_client::Client;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");
const VARS: [&str; 3] = [
    "SKILL_LSP_LLAMA_SERVER",
    "SKILL_LSP_LLAMA_MODEL",
    "SKILL_LSP_LLAMA_TEMPLATE",
];
/// How long the server may take to load the model and answer `/health`.
const STARTUP: Duration = Duration::from_secs(120);
/// A bound on one CLI run: a hang fails the test instead of stalling the suite.
const RUN_LIMIT: Duration = Duration::from_secs(300);
/// The cap on generated tokens per request, set the way a user would (`SKILL_LSP_MAX_TOKENS`,
/// which the CLI, the server and evals read): the agent's default of 8,192 takes a 135M model
/// rambling on two threads minutes to fill, and llama-server lets a request's `max_tokens` win
/// over its own `--n-predict`.
const MAX_TOKENS: &str = "96";

const PDF: &str = "---\nname: pdf\ndescription: Fills PDF forms and merges PDF files. Use when the user has a PDF file.\n---\n# PDF\n\nUse pypdf to read and fill the form fields.\n";
const DOCX: &str = "---\nname: docx\ndescription: Edits Word documents. Use for .docx files.\n---\n# DOCX\n\nUse python-docx.\n";
const TRIGGERS: &str = r#"[
  {"query": "Fill in the form fields of tax.pdf", "should_trigger": true},
  {"query": "Merge a.pdf and b.pdf into one PDF file", "should_trigger": true},
  {"query": "What is the capital of France?", "should_trigger": false}
]
"#;
/// A prompt that spells out the call it wants, for the best chance that a tiny model makes one.
const LOAD_PROMPT: &str = "Call the load_skill tool with the argument {\"name\": \"pdf\"} now. Do not write anything else.";

/// One model server at a time: the tests share two cores, and latencies stay comparable.
static SERIAL: Mutex<()> = Mutex::new(());

/// The three paths from the environment; `None` (after a loud notice) when none is set.
fn configured(test: &str) -> Option<[PathBuf; 3]> {
    let values = VARS.map(|name| std::env::var_os(name).filter(|it| !it.is_empty()));
    if values.iter().all(Option::is_none) {
        eprintln!(
            "!!!! real_model::{test} skipped: set SKILL_LSP_LLAMA_SERVER, SKILL_LSP_LLAMA_MODEL \
             and SKILL_LSP_LLAMA_TEMPLATE (eval \"$(bash scripts/llama_server.sh)\") to run it \
             against llama-server !!!!"
        );
        return None;
    }
    let paths = std::array::from_fn(|index| {
        let value = values[index].clone().unwrap_or_else(|| {
            panic!(
                "{} is not set, but {} are: set all three or none",
                VARS[index],
                VARS.join(", ")
            )
        });
        let path = PathBuf::from(value);
        assert!(
            path.is_file(),
            "{}: {} is not a file",
            VARS[index],
            path.display()
        );
        path
    });
    Some(paths)
}

/// A server for one test, started when the environment names one, held under [`SERIAL`].
/// The server is killed before the lock is let go (fields drop in order).
struct Served {
    llama: Llama,
    _serial: std::sync::MutexGuard<'static, ()>,
}

/// Starts the server for `test`, or `None` (after a loud notice) when none is configured.
fn serve(test: &str) -> Option<Served> {
    let paths = configured(test)?;
    let serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Some(Served {
        llama: Llama::start(&paths),
        _serial: serial,
    })
}

/// A running `llama-server` on 127.0.0.1; killed on drop.
struct Llama {
    child: Child,
    port: u16,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Llama {
    fn start([server, model, template]: &[PathBuf; 3]) -> Self {
        let threads = std::env::var("SKILL_LSP_LLAMA_THREADS").unwrap_or_else(|_| "2".to_owned());
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("llama-server.log");
        let log_file = File::create(&log).unwrap();
        // A free port: bind, read it, let go. Another process could take it in between; the
        // server then exits at once and the wait below says so.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(server)
            .arg("--model")
            .arg(model)
            .arg("--chat-template-file")
            .arg(template)
            .args(["--jinja", "--host", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .args(["--threads", &threads, "--seed", "42", "--temp", "0"])
            .args(["--ctx-size", "8192", "--parallel", "1"])
            .args(["--no-webui"])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().unwrap())
            .stderr(log_file)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", server.display()));
        let mut llama = Llama {
            child,
            port,
            log,
            _dir: dir,
        };
        llama.wait_healthy();
        llama
    }

    /// The base URL our code is given.
    fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    fn log_text(&self) -> String {
        fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn wait_healthy(&mut self) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!(
                    "llama-server exited before it was ready ({status}):\n{}",
                    self.log_text()
                );
            }
            if get(self.port, "/health").is_some_and(|reply| reply.starts_with("HTTP/1.1 200")) {
                eprintln!(
                    "llama-server ready on port {} after {:.1} s",
                    self.port,
                    started.elapsed().as_secs_f64()
                );
                return;
            }
            assert!(
                started.elapsed() < STARTUP,
                "llama-server did not answer /health within {STARTUP:?}:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The server's per-request timings (its `prompt eval time` and `eval time` lines), for
    /// the test output.
    fn timings(&self) -> String {
        self.log_text()
            .lines()
            .filter(|line| line.contains("prompt eval time") || line.contains(" eval time"))
            .map(str::trim)
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Llama {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!("---- llama-server log\n{}", self.log_text());
        } else {
            eprintln!("---- llama-server timings\n{}", self.timings());
        }
    }
}

/// A plain HTTP/1.1 GET on 127.0.0.1; the whole reply, or `None` when the server is not there.
fn get(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply).ok()?;
    Some(reply)
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("skills/pdf/SKILL.md", PDF),
        ("skills/pdf/evals/triggers.json", TRIGGERS),
        ("skills/docx/SKILL.md", DOCX),
    ];
    for (path, text) in files {
        let full = dir.path().join(path);
        fs::create_dir_all(full.parent().unwrap()).unwrap();
        fs::write(full, text).unwrap();
    }
    dir
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs the CLI against the server with a clean provider environment, killing it after
/// [`RUN_LIMIT`].
fn skill_lsp(llama: &Llama, dir: &Path, args: &[&str]) -> Run {
    let out = tempfile::tempdir().unwrap();
    let (stdout_path, stderr_path) = (out.path().join("stdout"), out.path().join("stderr"));
    let started = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("ANTHROPIC_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("CLICOLOR_FORCE")
        .env("OPENAI_BASE_URL", llama.base_url())
        .env("MODEL_ID", "smollm2-135m-instruct")
        .env("SKILL_LSP_MAX_TOKENS", MAX_TOKENS)
        .stdin(Stdio::null())
        .stdout(File::create(&stdout_path).unwrap())
        .stderr(File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "skill-lsp {args:?} did not finish within {RUN_LIMIT:?}; stderr so far:\n{}",
                fs::read_to_string(&stderr_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let run = Run {
        code,
        stdout: fs::read_to_string(stdout_path).unwrap(),
        stderr: fs::read_to_string(stderr_path).unwrap(),
        took: started.elapsed(),
    };
    eprintln!(
        "skill-lsp {args:?}: exit {:?} after {:.1} s\n---- stdout\n{}\n---- stderr\n{}",
        run.code,
        run.took.as_secs_f64(),
        run.stdout,
        run.stderr
    );
    run
}

/// Words in our own messages that would mean the reply was not understood.
fn assert_no_decode_error(text: &str) {
    for word in ["parse", "decode", "invalid", "malformed", "unexpected"] {
        assert!(
            !text.to_lowercase().contains(word),
            "a decoding complaint ('{word}'):\n{text}"
        );
    }
}

/// The tool calls of a transcript (its `assistant` entries' `toolCalls`), each with a known tool
/// name and an object input.
fn checked_tool_calls(transcript: &[Value]) -> Vec<Value> {
    let known = [
        "bash",
        "read_file",
        "write_file",
        "edit_file",
        "glob",
        "load_skill",
    ];
    let calls: Vec<Value> = transcript
        .iter()
        .filter(|entry| entry["type"] == "assistant")
        .flat_map(|entry| entry["toolCalls"].as_array().cloned().unwrap_or_default())
        .collect();
    for call in &calls {
        let name = call["name"].as_str().unwrap_or_default();
        assert!(known.contains(&name), "a call of an unknown tool: {call}");
        assert!(
            call["input"].is_object(),
            "a call whose input is not an object: {call}"
        );
        assert!(
            call["id"].as_str().is_some_and(|id| !id.is_empty()),
            "{call}"
        );
    }
    calls
}

#[test]
fn eval_runs_every_query_against_llama_server() {
    let Some(served) = serve("eval_runs_every_query_against_llama_server") else {
        return;
    };
    let llama = &served.llama;
    let dir = workspace();
    let run = skill_lsp(
        llama,
        dir.path(),
        &[
            "eval",
            "--runs",
            "1",
            "--jobs",
            "1",
            "--no-cache",
            "--format",
            "json",
        ],
    );
    // 0: every query passed; 1: some failed. 2 would be a usage or provider error.
    assert!(
        matches!(run.code, Some(0 | 1)),
        "exit {:?}:\n{}",
        run.code,
        run.stderr
    );
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|error| panic!("stdout is not JSON ({error}):\n{}", run.stdout));
    assert_eq!(report["skill_name"], "pdf", "{report:#}");
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 3, "{report:#}");
    for (result, query) in results.iter().zip([
        "Fill in the form fields of tax.pdf",
        "Merge a.pdf and b.pdf into one PDF file",
        "What is the capital of France?",
    ]) {
        assert_eq!(result["query"], query, "{report:#}");
        assert!(result["pass"].is_boolean(), "{result:#}");
        assert!(result["trigger_rate"].is_number(), "{result:#}");
    }
    assert_eq!(report["summary"]["total"], 3, "{report:#}");
    assert_eq!(report["run"]["provider"], "openai", "{report:#}");
    assert_eq!(
        report["run"]["requests"], 3,
        "one request per run: {report:#}"
    );
    assert_eq!(report["run"]["cached_runs"], 0, "{report:#}");
    assert!(
        report["summary"]["input_tokens"].as_u64().unwrap_or(0) > 0,
        "usage came back from the stream: {report:#}"
    );
    assert_eq!(
        run.code == Some(0),
        report["summary"]["failed"] == 0,
        "the exit code follows the failures: {report:#}"
    );
    assert_no_decode_error(&run.stderr);
}

#[test]
fn chat_completes_and_parses_any_tool_call() {
    let Some(served) = serve("chat_completes_and_parses_any_tool_call") else {
        return;
    };
    let llama = &served.llama;
    let dir = workspace();
    let root = dir.path().to_str().unwrap();
    let run = skill_lsp(
        llama,
        dir.path(),
        &[
            "chat",
            "--root",
            root,
            "--max-turns",
            "2",
            "--json",
            LOAD_PROMPT,
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let transcript: Vec<Value> = run
        .stdout
        .lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("a transcript line is not JSON ({error}): {line}"))
        })
        .collect();
    assert_eq!(
        transcript.first().map(|it| &it["type"]),
        Some(&json!("user"))
    );
    assert!(
        transcript.iter().any(|entry| entry["type"] == "assistant"),
        "the model answered: {transcript:#?}"
    );
    let calls = checked_tool_calls(&transcript);
    eprintln!("tool calls: {calls:#?}");
    // Every call was run and answered.
    let results = transcript
        .iter()
        .filter(|entry| entry["type"] == "tool_result")
        .count();
    assert_eq!(results, calls.len(), "{transcript:#?}");
    assert_no_decode_error(&run.stderr);
}

#[test]
fn agent_chat_over_the_language_server_against_llama_server() {
    let Some(served) = serve("agent_chat_over_the_language_server_against_llama_server") else {
        return;
    };
    let llama = &served.llama;
    let url = llama.base_url();
    let env = [
        ("OPENAI_BASE_URL", url.as_str()),
        ("MODEL_ID", "smollm2-135m-instruct"),
        ("SKILL_LSP_MAX_TOKENS", MAX_TOKENS),
    ];
    let mut client = Client::start_with_env(
        &[
            ("skills/pdf/SKILL.md", PDF),
            ("skills/docx/SKILL.md", DOCX),
            // Two model calls at most: the loop's default is 30.
            ("skill-lsp.toml", "[agent]\nmax-turns = 2\n"),
        ],
        json!({"window": {"workDoneProgress": true}}),
        &env,
    );
    let started = Instant::now();
    let response = client.request_raw(
        "skill/agentChat",
        json!({"prompt": LOAD_PROMPT, "workDoneToken": "real-1"}),
    );
    eprintln!(
        "skill/agentChat answered after {:.1} s: {response:#}",
        started.elapsed().as_secs_f64()
    );
    assert!(response.get("error").is_none(), "{response:#}");
    let result = &response["result"];
    assert!(result["reply"].is_string(), "{result:#}");
    let stop = result["stopReason"].as_str().unwrap_or_default();
    assert!(
        [
            "end_turn",
            "stop",
            "length",
            "max_tokens",
            "tool_use",
            "tool_calls"
        ]
        .contains(&stop)
            || stop.starts_with("max_turns"),
        "stop reason {stop:?}: {result:#}"
    );
    assert!(
        result["sessionId"]
            .as_str()
            .is_some_and(|id| id.starts_with("chat-")),
        "{result:#}"
    );
    assert!(
        result["usage"]["inputTokens"].as_u64().unwrap_or(0) > 0,
        "{result:#}"
    );
    let transcript = result["transcript"].as_array().cloned().unwrap_or_default();
    let calls = checked_tool_calls(&transcript);
    eprintln!("tool calls: {calls:#?}");
    let loaded = result["loadedSkills"].as_array().unwrap();
    for skill in loaded {
        assert!(
            ["pdf", "docx"].contains(&skill.as_str().unwrap()),
            "{result:#}"
        );
    }
    let done = client.wait(|m| m["method"] == "skill/agentEvent" && m["params"]["kind"] == "done");
    assert_eq!(done["params"]["sessionId"], result["sessionId"], "{done:#}");
    client.wait(|m| {
        m["method"] == "$/progress"
            && m["params"]["token"] == "real-1"
            && m["params"]["value"]["kind"] == "end"
    });
    let (_, stderr) = client.finish();
    assert_no_decode_error(&stderr);
}
