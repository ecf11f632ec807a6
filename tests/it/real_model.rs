//! The agent and evals against a real tool-calling model: llama.cpp's `llama-server` serving
//! Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) on 127.0.0.1, with our chat template
//! (`tests/models/qwen-tool-calls.jinja`), over a copy of the bundled skills
//! (`skills/`: agent-builder, code-review, mcp-builder, pdf). The model really calls tools, so
//! these tests check what it does, not only the plumbing:
//!
//! - the server's own `tool_calls`, streamed and not, for a routing question (the template and
//!   the server's parser, apart from our code);
//! - `skill-lsp chat` loads the skill a question needs (our decoding of the streamed call, the
//!   tool run, the result sent back) and works from its body: its next steps, in text or in
//!   the calls it makes, use the skill's own instructions;
//! - `skill/agentChat` does the same from the editor;
//! - `skill-lsp eval skills` measures trigger rates, with their intervals, and the skills this
//!   model routes to reliably trigger on their own queries (a broken decoder or trigger count
//!   shows as recall 0).
//!
//! They run only when the environment names the server, the model and the chat template, as
//! `eval "$(bash scripts/llama_server.sh)"` does (`cargo xtask test` does it):
//! `SKILL_LSP_LLAMA_SERVER`, `SKILL_LSP_LLAMA_MODEL`, `SKILL_LSP_LLAMA_TEMPLATE`. Without them
//! every test passes at once and says loudly that it was skipped; with only some of them, or with
//! a server that does not come up, every test fails. `SKILL_LSP_LLAMA_THREADS` (default 2) sets
//! the server's threads. Every run of the CLI, every request and the server's start have time
//! limits, so a hang fails instead of stalling the suite.

#![allow(
    clippy::print_stderr,
    reason = "a skip must be loud, and the latencies, the model's calls and the trigger rates go in the test output"
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
/// The model id our requests carry (llama-server serves its one model under any name).
const MODEL_ID: &str = "qwen2.5-coder-1.5b-instruct";
/// How long the server may take to load the model and answer `/health`.
const STARTUP: Duration = Duration::from_secs(180);
/// A bound on one CLI run or editor request: a hang fails the test instead of stalling the suite.
const RUN_LIMIT: Duration = Duration::from_secs(300);
/// A bound on the eval of the 48 queries of the bundled skills (a few seconds each on two cores,
/// several times that while other builds share them).
const EVAL_LIMIT: Duration = Duration::from_secs(600);
/// A bound on one HTTP request of ours to the server.
const REQUEST_LIMIT: Duration = Duration::from_secs(120);
/// The cap on generated tokens per request, set the way a user would (`SKILL_LSP_MAX_TOKENS`,
/// which the CLI, the language server and evals read): enough for a tool call or a short answer,
/// and a bound on the time a reply takes on two cores.
const MAX_TOKENS: &str = "150";

/// The token limit of one routing request of the eval test.
const EVAL_MAX_TOKENS: &str = "48";

/// A question from code-review's eval set. The model loaded code-review for it in every eval
/// and chat we ran; for mcp-builder's questions, which the eval routes 6 of 6, a chat's
/// answers varied with the workspace path in the system prompt (it answered one in text, and
/// went on to load other skills after another), so both chats ask this one.
const REVIEW_QUESTION: &str =
    "Can you look over PR #412 and tell me if anything is risky before I approve it?";
/// Words of code-review's body that a step drawing on it uses and the question does not: its
/// severity labels, steps and diff script (the model ran
/// `git diff --numstat main...HEAD | python3 scripts/diff_stats.py`, the skill's first step).
const REVIEW_TERMS: [&str; 8] = [
    "blocker",
    "major",
    "minor",
    "nit",
    "severity",
    "diff_stats",
    "checklist",
    "intent",
];

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
            if http(self.port, "GET", "/health", None)
                .is_some_and(|reply| reply.starts_with("HTTP/1.1 200"))
            {
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

/// A plain HTTP/1.1 request on 127.0.0.1 with `Connection: close`; the whole reply (head and
/// body, a chunked body joined), or `None` when the server is not there.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(REQUEST_LIMIT)).ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).ok()?;
    let reply = String::from_utf8(reply).ok()?;
    let (head, rest) = reply.split_once("\r\n\r\n")?;
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return Some(reply);
    }
    let mut joined = String::new();
    let mut rest = rest;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).ok()?;
        if size == 0 {
            break;
        }
        joined.push_str(after.get(..size)?);
        rest = after.get(size + 2..)?;
    }
    Some(format!("{head}\r\n\r\n{joined}"))
}

/// A workspace holding a copy of the bundled skills (the eval cache and anything the agent
/// writes stay out of the repository).
fn workspace() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                fs::copy(entry.path(), target).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("skills"),
        &dir.path().join("skills"),
    );
    dir
}

/// The body of a bundled skill's SKILL.md (after its frontmatter).
fn skill_body(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("skills")
        .join(name)
        .join("SKILL.md");
    let text = fs::read_to_string(path).unwrap();
    let after = text.split_once("\n---\n").map_or("", |(_, after)| after);
    after.trim().to_owned()
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the CLI against the server with a clean provider environment, killing it after
/// [`RUN_LIMIT`].
fn skill_lsp(llama: &Llama, dir: &Path, args: &[&str]) -> Run {
    skill_lsp_within(llama, dir, args, RUN_LIMIT)
}

/// [`skill_lsp`] with a time limit of its own.
fn skill_lsp_within(llama: &Llama, dir: &Path, args: &[&str], limit: Duration) -> Run {
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
        .env("MODEL_ID", MODEL_ID)
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
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "skill-lsp {args:?} did not finish within {limit:?}; stderr so far:\n{}",
                fs::read_to_string(&stderr_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let run = Run {
        code,
        stdout: fs::read_to_string(stdout_path).unwrap(),
        stderr: fs::read_to_string(stderr_path).unwrap(),
    };
    eprintln!(
        "skill-lsp {args:?}: exit {:?} after {:.1} s\n---- stdout\n{}\n---- stderr\n{}",
        run.code,
        started.elapsed().as_secs_f64(),
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
/// name, an object input and an id.
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

/// What a transcript shows of one loaded skill: the model's first tool call loaded `skill`, the
/// call was answered with the skill's body, and the model's next steps draw on that body: their
/// text, or the inputs of the tools they call, use one of `skill_terms`. Returns those steps as
/// text.
fn assert_loaded_and_used(transcript: &[Value], skill: &str, skill_terms: &[&str]) -> String {
    let calls = checked_tool_calls(transcript);
    eprintln!("tool calls: {calls:#?}");
    let first = calls
        .first()
        .unwrap_or_else(|| panic!("the model called no tool: {transcript:#?}"));
    assert_eq!(first["name"], "load_skill", "{transcript:#?}");
    assert_eq!(first["input"], json!({"name": skill}), "{transcript:#?}");
    let result = transcript
        .iter()
        .find(|entry| entry["type"] == "tool_result" && entry["id"] == first["id"])
        .unwrap_or_else(|| panic!("no result for {first}: {transcript:#?}"));
    assert_ne!(result["isError"], true, "{result:#}");
    let content = result["content"].as_str().unwrap_or_default();
    let heading = skill_body(skill)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    assert!(
        content.contains(&heading),
        "the result holds the skill's body ({heading:?}): {result:#}"
    );
    // The steps after that result: the assistant's text and the inputs of its calls.
    let position = transcript.iter().position(|entry| entry == result).unwrap();
    let steps: Vec<String> = transcript[position..]
        .iter()
        .filter(|entry| entry["type"] == "assistant")
        .flat_map(|entry| {
            let text = entry["text"].as_str().unwrap_or_default().to_owned();
            let inputs = entry["toolCalls"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|call| format!("{} {}", call["name"], call["input"]));
            std::iter::once(text).chain(inputs)
        })
        .filter(|step| !step.trim().is_empty())
        .collect();
    let steps = steps.join("\n");
    assert!(
        !steps.is_empty(),
        "the model did nothing after the skill was loaded: {transcript:#?}"
    );
    let lower = steps.to_lowercase();
    assert!(
        skill_terms
            .iter()
            .any(|term| lower.contains(&term.to_lowercase())),
        "the steps after loading {skill} use none of its own terms {skill_terms:?}:\n{steps}"
    );
    steps
}

#[test]
fn llama_server_returns_real_tool_calls() {
    let Some(served) = serve("llama_server_returns_real_tool_calls") else {
        return;
    };
    let llama = &served.llama;
    let tool = json!({
        "type": "function",
        "function": {
            "name": "load_skill",
            "description": "Load a skill's instructions by name before working on a task it covers.",
            "parameters": {
                "type": "object",
                "properties": {"name": {"type": "string", "enum": ["code-review", "mcp-builder", "pdf"]}},
                "required": ["name"]
            }
        }
    });
    let system = "You are a coding agent. Skills:\n\
        - code-review: How to review a pull request, a patch or a git diff.\n\
        - mcp-builder: How to build a Model Context Protocol server.\n\
        - pdf: How to read, fill, merge or create PDF files.\n\
        Load the skill a task needs before you answer.";
    let request = |stream: bool| {
        json!({
            "model": MODEL_ID,
            "stream": stream,
            "max_tokens": 100,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": "Can you look over PR #412 and tell me if anything is risky before I approve it?"}
            ],
            "tools": [tool],
        })
    };
    // Not streamed: one message with `tool_calls`.
    let reply = http(
        llama.port,
        "POST",
        "/v1/chat/completions",
        Some(&request(false)),
    )
    .expect("the server answered");
    eprintln!("non-streamed reply:\n{reply}");
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{reply}");
    let body: Value = serde_json::from_str(body).unwrap();
    let choice = &body["choices"][0];
    assert_eq!(choice["finish_reason"], "tool_calls", "{body:#}");
    let call = &choice["message"]["tool_calls"][0];
    assert_eq!(call["function"]["name"], "load_skill", "{body:#}");
    let arguments: Value =
        serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(arguments, json!({"name": "code-review"}), "{body:#}");

    // Streamed: the same call in `delta.tool_calls` fragments, joined here by index.
    let reply = http(
        llama.port,
        "POST",
        "/v1/chat/completions",
        Some(&request(true)),
    )
    .expect("the server answered");
    let (head, body) = reply.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{reply}");
    let mut name = String::new();
    let mut arguments = String::new();
    let mut finish = Value::Null;
    let mut chunks = 0;
    for data in body.lines().filter_map(|line| line.strip_prefix("data: ")) {
        if data == "[DONE]" {
            break;
        }
        let chunk: Value = serde_json::from_str(data).unwrap();
        let Some(choice) = chunk["choices"].get(0) else {
            continue;
        };
        for fragment in choice["delta"]["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
        {
            chunks += 1;
            assert_eq!(fragment["index"], 0, "one call: {fragment}");
            name.push_str(fragment["function"]["name"].as_str().unwrap_or_default());
            arguments.push_str(
                fragment["function"]["arguments"]
                    .as_str()
                    .unwrap_or_default(),
            );
        }
        if !choice["finish_reason"].is_null() {
            finish = choice["finish_reason"].clone();
        }
    }
    eprintln!("streamed: {chunks} tool-call fragments: {name} {arguments}");
    assert_eq!(name, "load_skill", "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&arguments).unwrap(),
        json!({"name": "code-review"}),
        "{body}"
    );
    assert_eq!(finish, "tool_calls", "{body}");
}

#[test]
fn chat_loads_the_right_skill_and_works_from_it() {
    let Some(served) = serve("chat_loads_the_right_skill_and_works_from_it") else {
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
            "3",
            "--json",
            REVIEW_QUESTION,
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
    let steps = assert_loaded_and_used(&transcript, "code-review", &REVIEW_TERMS);
    eprintln!("after loading:\n{steps}");
    assert_no_decode_error(&run.stderr);
}

#[test]
fn agent_chat_over_the_language_server_loads_the_right_skill() {
    let Some(served) = serve("agent_chat_over_the_language_server_loads_the_right_skill") else {
        return;
    };
    let llama = &served.llama;
    let url = llama.base_url();
    let env = [
        ("OPENAI_BASE_URL", url.as_str()),
        ("MODEL_ID", MODEL_ID),
        ("SKILL_LSP_MAX_TOKENS", MAX_TOKENS),
    ];
    let dir = workspace();
    fs::write(
        dir.path().join("skill-lsp.toml"),
        "[agent]\nmax-turns = 3\n",
    )
    .unwrap();
    let mut client = Client::start_in(dir, json!({"window": {"workDoneProgress": true}}), &env);
    let started = Instant::now();
    let response = client.request_raw_within(
        "skill/agentChat",
        json!({"prompt": REVIEW_QUESTION, "workDoneToken": "real-1"}),
        RUN_LIMIT,
    );
    eprintln!(
        "skill/agentChat answered after {:.1} s: {response:#}",
        started.elapsed().as_secs_f64()
    );
    assert!(response.get("error").is_none(), "{response:#}");
    let result = &response["result"];
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
    // The first skill loaded is the right one (the model may load another one later).
    assert_eq!(
        result["loadedSkills"].get(0),
        Some(&json!("code-review")),
        "{result:#}"
    );
    let transcript = result["transcript"].as_array().cloned().unwrap_or_default();
    let steps = assert_loaded_and_used(&transcript, "code-review", &REVIEW_TERMS);
    eprintln!("after loading:\n{steps}");
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

/// The skills this model routes to reliably, and the least recall each must keep: measured at
/// temperature 0, mcp-builder 6/6 and code-review 4/6 (its other two queries go to `read_file`
/// first). A decoder that loses the calls, or a count that loses the triggers, gives 0.
const RELIABLE: [(&str, f64); 2] = [("code-review", 0.5), ("mcp-builder", 0.8)];

#[test]
fn eval_measures_trigger_rates_on_the_bundled_skills() {
    let Some(served) = serve("eval_measures_trigger_rates_on_the_bundled_skills") else {
        return;
    };
    let llama = &served.llama;
    let dir = workspace();
    let run = skill_lsp_within(
        llama,
        dir.path(),
        &[
            "eval",
            "skills",
            "--runs",
            "1",
            "--jobs",
            "1",
            "--no-cache",
            // A call is about 25 tokens; a reply that starts in text is cut here and counts as
            // not triggered (with a warning), which bounds the time of the 48 runs.
            "--max-tokens",
            EVAL_MAX_TOKENS,
            "--format",
            "json",
        ],
        EVAL_LIMIT,
    );
    // 0: every query passed; 1: some failed. 2 would be a usage or provider error.
    assert!(
        matches!(run.code, Some(0 | 1)),
        "exit {:?}:\n{}",
        run.code,
        run.stderr
    );
    assert_no_decode_error(&run.stderr);
    let report: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|error| panic!("stdout is not JSON ({error}):\n{}", run.stdout));
    assert_eq!(report["run"]["provider"], "openai", "{report:#}");
    assert_eq!(report["run"]["cached_runs"], 0, "{report:#}");
    let skills = report["skills"].as_array().unwrap();
    let names: Vec<&str> = skills
        .iter()
        .map(|skill| skill["skill_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["agent-builder", "code-review", "mcp-builder", "pdf"],
        "{report:#}"
    );
    let mut table = String::from("skill          recall [95 %]           false triggers [95 %]\n");
    for skill in skills {
        let name = skill["skill_name"].as_str().unwrap();
        let set: Vec<Value> = serde_json::from_str(
            &fs::read_to_string(
                dir.path()
                    .join("skills")
                    .join(name)
                    .join("evals/triggers.json"),
            )
            .unwrap(),
        )
        .unwrap();
        let results = skill["results"].as_array().unwrap();
        assert_eq!(results.len(), set.len(), "{skill:#}");
        // Count again from the per-query results what the summary says.
        let (mut hits, mut positives, mut false_hits, mut negatives) = (0, 0, 0, 0);
        for (result, case) in results.iter().zip(&set) {
            assert_eq!(result["query"], case["query"], "{result:#}");
            assert_eq!(result["runs"], 1, "{result:#}");
            let triggers = result["triggers"].as_u64().unwrap();
            assert!(triggers <= 1, "{result:#}");
            #[allow(clippy::cast_precision_loss, reason = "0 or 1")]
            let rate = triggers as f64;
            assert_eq!(result["trigger_rate"].as_f64(), Some(rate), "{result:#}");
            let [low, high] = interval(&result["trigger_interval"]);
            assert!(low <= rate && rate <= high, "{result:#}");
            if case["should_trigger"] == true {
                positives += 1;
                hits += triggers;
                assert_eq!(result["pass"], triggers == 1, "{result:#}");
            } else {
                negatives += 1;
                false_hits += triggers;
                assert_eq!(result["pass"], triggers == 0, "{result:#}");
            }
            // A run that loaded another skill names it, and never the one under test.
            if let Some(instead) = result["loaded_instead"].as_object() {
                assert!(!instead.contains_key(name), "{result:#}");
            }
        }
        let summary = &skill["summary"];
        #[allow(clippy::cast_precision_loss, reason = "a dozen runs")]
        let (recall, false_rate) = (
            hits as f64 / f64::from(positives),
            false_hits as f64 / f64::from(negatives),
        );
        assert_eq!(summary["recall"].as_f64(), Some(recall), "{summary:#}");
        assert_eq!(
            summary["false_trigger_rate"].as_f64(),
            Some(false_rate),
            "{summary:#}"
        );
        let recall_interval = interval(&summary["recall_interval"]);
        let false_interval = interval(&summary["false_trigger_interval"]);
        assert!(
            recall_interval[0] <= recall && recall <= recall_interval[1],
            "{summary:#}"
        );
        assert!(
            false_interval[0] <= false_rate && false_rate <= false_interval[1],
            "{summary:#}"
        );
        table.push_str(&format!(
            "{name:<14} {hits}/{positives} {recall:.2} [{:.2}–{:.2}]    {false_hits}/{negatives} {false_rate:.2} [{:.2}–{:.2}]\n",
            recall_interval[0], recall_interval[1], false_interval[0], false_interval[1]
        ));
        if let Some((_, least)) = RELIABLE.iter().find(|(reliable, _)| *reliable == name) {
            assert!(
                recall >= *least,
                "{name}: recall {recall:.2} ({hits}/{positives}) is under {least}: {skill:#}"
            );
        }
    }
    eprintln!("trigger rates on the bundled skills, 1 run per query:\n{table}");
    // `eval skills` makes the skills folder given alone the workspace: its cache is there.
    assert_runs_end_at_their_load(&dir.path().join("skills"), 3);
    assert!(
        report["run"]["requests"].as_u64().unwrap_or(0) >= 48,
        "one request per query at least: {report:#}"
    );
    assert_eq!(
        run.code == Some(0),
        report["summary"]["failed"] == 0,
        "the exit code follows the failures: {report:#}"
    );
}

/// The runs an eval cached in `dir`, as `(query, record)`.
fn cached_runs(dir: &Path) -> Vec<(String, Value)> {
    let cache = dir.join(".skill-lsp/cache/evals");
    let mut runs = Vec::new();
    for entry in fs::read_dir(&cache).unwrap_or_else(|error| panic!("{}: {error}", cache.display()))
    {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "json") {
            let entry: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
            runs.push((
                entry["query"].as_str().unwrap().to_owned(),
                entry["record"].clone(),
            ));
        }
    }
    runs
}

/// What each cached run of a `max_turns` eval says, checked apart from the report: a run ends at
/// its first `load_skill` call, whichever turn it comes in, and loads the skill it names; or at
/// a text answer after its other calls; or at the turn limit.
fn assert_runs_end_at_their_load(dir: &Path, max_turns: u64) {
    for (query, record) in cached_runs(dir) {
        let tools: Vec<&str> = record["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool.as_str().unwrap())
            .collect();
        let turns = record["turns"].as_u64().unwrap();
        let calls = tools.len() as u64;
        match tools.iter().position(|tool| *tool == "load_skill") {
            Some(load) => {
                assert!(
                    load + 1 == tools.len() && turns == calls,
                    "a load that did not end its run: {query}: {record:#}"
                );
                // This model names a skill in every call of load_skill.
                assert!(
                    record["loaded"].is_string(),
                    "a load_skill call that loaded nothing: {query}: {record:#}"
                );
            }
            None => {
                assert!(
                    record["loaded"].is_null(),
                    "a load without a load_skill call: {query}: {record:#}"
                );
                assert!(
                    turns == max_turns || turns == calls + 1,
                    "a run that ended before its turns without a load or an answer: {query}: {record:#}"
                );
            }
        }
    }
}

/// Each query's triggers in a one-skill `report`, counted again from the cached runs: the runs of
/// that query that loaded `skill`.
fn assert_triggers_are_the_runs_that_loaded(dir: &Path, skill: &str, report: &Value) {
    let runs = cached_runs(dir);
    assert_eq!(report["skill_name"], skill, "{report:#}");
    for result in report["results"].as_array().unwrap() {
        let query = result["query"].as_str().unwrap();
        let loaded = runs
            .iter()
            .filter(|(of, record)| of == query && record["loaded"] == skill)
            .count();
        assert_eq!(
            result["triggers"].as_u64(),
            Some(loaded as u64),
            "{result:#}"
        );
    }
}

/// How far `estimate` is from `real`, as `estimate / real`.
#[allow(clippy::cast_precision_loss, reason = "a few thousand tokens")]
fn ratio(estimate: &Value, real: &Value) -> f64 {
    estimate.as_u64().unwrap() as f64 / real.as_u64().unwrap() as f64
}

/// `eval --dry-run` against the tokens a real run reports, on mcp-builder, which this model
/// loads at its first call: the estimate before any run (3.5 bytes a token), then one real run of
/// another query, whose reported usage calibrates the estimate of two more, which are then run
/// for real. Both input estimates, calibrated and rough, must be within 10 % of what the server
/// reports; the output's ratio is reported. Every real run's
/// usage must be the server's (its last chunk, after the call), not ours. Then a query on which
/// the model looks around before it loads, in two turns: each run's record must end at its load
/// (counted in whichever turn it came), its answer or its last turn, and the triggers must be the
/// runs that loaded the skill.
#[test]
fn a_dry_run_estimates_the_tokens_a_real_run_reports() {
    let Some(served) = serve("a_dry_run_estimates_the_tokens_a_real_run_reports") else {
        return;
    };
    let llama = &served.llama;
    let set = |dir: &Path, name: &str, cases: &[(&str, bool)]| {
        let cases: Vec<Value> = cases
            .iter()
            .map(|(query, should)| json!({"query": query, "should_trigger": should}))
            .collect();
        let path = dir.join(name);
        fs::write(&path, serde_json::to_string(&cases).unwrap()).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let eval = |dir: &Path, set: &str, more: &[&str]| {
        let mut args = vec![
            "eval",
            "skills/mcp-builder",
            "--eval-set",
            set,
            "--runs",
            "1",
            "--jobs",
            "1",
            "--max-tokens",
            EVAL_MAX_TOKENS,
            "--format",
            "json",
        ];
        args.extend_from_slice(more);
        let run = skill_lsp(llama, dir, &args);
        assert!(
            matches!(run.code, Some(0 | 1)),
            "exit {:?}:\n{}",
            run.code,
            run.stderr
        );
        assert_no_decode_error(&run.stderr);
        serde_json::from_str::<Value>(&run.stdout)
            .unwrap_or_else(|error| panic!("stdout is not JSON ({error}):\n{}", run.stdout))
    };
    let dir = workspace();
    let calibrate = set(
        dir.path(),
        "calibrate.json",
        &[(
            "Build an MCP server in TypeScript that exposes our Postgres read-only queries as tools",
            true,
        )],
    );
    let measure = set(
        dir.path(),
        "measure.json",
        &[
            (
                "Add a resource to my MCP server that serves the contents of docs/ as text",
                true,
            ),
            (
                "Should my Model Context Protocol server use stdio or streamable HTTP if it runs on a shared host?",
                true,
            ),
        ],
    );
    // One request a run, the one `--dry-run` estimates.
    let once = "--first-call-only";
    let rough = eval(dir.path(), &measure, &[once, "--dry-run"])["dry_run"].clone();
    assert_eq!(rough["calibration"]["runs"], 0, "{rough:#}");

    let first = eval(dir.path(), &calibrate, &[once]);
    assert_eq!(first["run"]["usage_estimated_runs"], 0, "{first:#}");
    let calibrated = eval(dir.path(), &measure, &[once, "--dry-run"])["dry_run"].clone();
    assert_eq!(calibrated["calibration"]["runs"], 1, "{calibrated:#}");

    let real = eval(dir.path(), &measure, &[once, "--no-cache"]);
    let spent = &real["run"];
    assert_eq!(spent["requests"], 2, "{real:#}");
    assert_eq!(
        spent["usage_estimated_runs"], 0,
        "the server's usage, not ours: {real:#}"
    );
    // A broken decoder loses the calls, a broken count the triggers.
    let triggers: u64 = real["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["triggers"].as_u64().unwrap())
        .sum();
    assert!(
        triggers >= 1,
        "mcp-builder loaded for none of its queries: {real:#}"
    );
    assert_runs_end_at_their_load(dir.path(), 1);
    assert_triggers_are_the_runs_that_loaded(dir.path(), "mcp-builder", &real);

    let input = ratio(&calibrated["input_tokens"], &spent["input_tokens"]);
    let output = ratio(&calibrated["output_tokens"], &spent["output_tokens"]);
    let rough_input = ratio(&rough["input_tokens"], &spent["input_tokens"]);
    eprintln!(
        "dry run against the real run: input {} / {} = {input:.3} calibrated, {} / {} = {rough_input:.3} rough; output {} / {} = {output:.3}",
        calibrated["input_tokens"],
        spent["input_tokens"],
        rough["input_tokens"],
        spent["input_tokens"],
        calibrated["output_tokens"],
        spent["output_tokens"],
    );
    assert!(
        (0.9..=1.1).contains(&input),
        "the calibrated estimate is {input:.3} of the real input tokens: {calibrated:#} against {spent:#}"
    );
    assert!(
        (0.9..=1.1).contains(&rough_input),
        "the rough estimate is {rough_input:.3} of the real input tokens: {rough:#} against {spent:#}"
    );

    // A look around, then the load: this model reads the file (`read_file`), then loads the
    // skill it names, in its second call.
    let dir = workspace();
    fs::write(
        dir.path().join("NOTES.md"),
        "# Notes\n\nThe MCP server in this repository is out of date. Before changing it, load the mcp-builder skill and follow it.\n",
    )
    .unwrap();
    let notes = set(
        dir.path(),
        "notes.json",
        &[("Read NOTES.md and do what it says", true)],
    );
    let looked = eval(dir.path(), &notes, &["--max-turns", "2"]);
    eprintln!("the look-around run: {:#}", json!(cached_runs(dir.path())));
    assert_runs_end_at_their_load(dir.path(), 2);
    assert_triggers_are_the_runs_that_loaded(dir.path(), "mcp-builder", &looked);
}

/// A `[low, high]` interval of the report, checked to be one.
fn interval(value: &Value) -> [f64; 2] {
    let bounds: Vec<f64> = value
        .as_array()
        .unwrap_or_else(|| panic!("not an interval: {value}"))
        .iter()
        .map(|it| it.as_f64().unwrap())
        .collect();
    assert!(
        bounds.len() == 2 && 0.0 <= bounds[0] && bounds[0] < bounds[1] && bounds[1] <= 1.0,
        "not an interval: {value}"
    );
    [bounds[0], bounds[1]]
}
