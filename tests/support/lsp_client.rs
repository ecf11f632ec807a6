//! An LSP client for tests: spawns the real binary, frames JSON-RPC on its stdin and stdout,
//! answers the server's own requests, and waits for messages with a timeout.

#![allow(dead_code, reason = "each test binary uses a different part")]

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tower_lsp_server::ls_types::notification::{DidChangeTextDocument, DidOpenTextDocument};
use tower_lsp_server::ls_types::{
    DidChangeTextDocumentParams, DidOpenTextDocumentParams, Position, TextDocumentIdentifier,
    TextDocumentItem, TextDocumentPositionParams, Uri, VersionedTextDocumentIdentifier,
};

pub const BIN: &str = env!("CARGO_BIN_EXE_skill-lsp");
/// A guard against a hung server, not a speed limit: generous enough for a debug build on a
/// loaded two-core machine (a 1,500-skill index under file churn once took over 20 s there).
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Messages read while waiting for something else.
    pub backlog: Vec<Value>,
    /// Every message the server sent, in order.
    pub log: Vec<Value>,
    /// The result for each request the server makes (the default answers `null`).
    pub answer: fn(&Value) -> Value,
    /// The `initialize` result.
    pub init: Value,
    next_id: i64,
    dir: tempfile::TempDir,
    /// The server's stderr goes to a file here, outside the workspace.
    stderr_dir: tempfile::TempDir,
}

fn answer_null(_: &Value) -> Value {
    Value::Null
}

pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// `uri` (a `file://` URI as [`Client::uri`] writes it) as the protocol's type.
pub fn lsp_uri(uri: &str) -> Uri {
    uri.parse()
        .unwrap_or_else(|error| panic!("{uri} is not a URI: {error}"))
}

/// The document at `uri`, for a typed request.
pub fn document(uri: &str) -> TextDocumentIdentifier {
    TextDocumentIdentifier { uri: lsp_uri(uri) }
}

/// A place in the document at `uri`, for a typed request.
pub fn at(uri: &str, line: u32, character: u32) -> TextDocumentPositionParams {
    TextDocumentPositionParams {
        text_document: document(uri),
        position: Position { line, character },
    }
}

/// Part of an answer (a range, a diagnostic) as its protocol type, to send it back.
pub fn typed<T: serde::de::DeserializeOwned>(value: &Value) -> T {
    serde_json::from_value(value.clone())
        .unwrap_or_else(|error| panic!("not the protocol's type ({error}): {value:#}"))
}

impl Client {
    /// Starts the server on a workspace holding `files` (relative path → text).
    pub fn start(files: &[(&str, &str)], capabilities: Value) -> Self {
        Self::start_with_env(files, capabilities, &[])
    }

    /// Starts the server with extra environment variables (and none of the agent's own).
    pub fn start_with_env(
        files: &[(&str, &str)],
        capabilities: Value,
        env: &[(&str, &str)],
    ) -> Self {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            fs::create_dir_all(full.parent().unwrap()).unwrap();
            fs::write(full, text).unwrap();
        }
        Self::start_in(dir, capabilities, env)
    }

    /// Starts the server on a workspace folder the caller prepared.
    pub fn start_in(dir: tempfile::TempDir, capabilities: Value, env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(BIN);
        for name in [
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_BASE_URL",
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
            "MODEL_ID",
            "SKILL_LSP_LOG",
            "RUST_LOG",
        ] {
            command.env_remove(name);
        }
        command.envs(env.iter().copied());
        let stderr_dir = tempfile::tempdir().unwrap();
        let stderr = fs::File::create(stderr_dir.path().join("stderr.log")).unwrap();
        let mut child = command
            .args(["serve", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("every frame has a Content-Length")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if sender.send(value).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            messages,
            backlog: Vec::new(),
            log: Vec::new(),
            answer: answer_null,
            init: Value::Null,
            next_id: 1,
            dir,
            stderr_dir,
        };
        let root = client.dir.path().to_path_buf();
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(&root), "capabilities": capabilities, "workspaceFolders": [{"uri": uri(&root), "name": "w"}]}),
        );
        assert!(
            result["capabilities"]["textDocumentSync"].is_object(),
            "{result:#}"
        );
        client.init = result;
        client.notify("initialized", json!({}));
        client
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    pub fn uri(&self, relative: &str) -> String {
        uri(&self.path(relative))
    }

    pub fn send(&mut self, value: &Value) {
        self.stdin
            .write_all(&frame(&serde_json::to_vec(value).unwrap()))
            .unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|message| message["id"] == id && message.get("method").is_none())
    }

    /// A typed request: its method, parameters and result come from `ls_types`, so a test cannot
    /// misspell a method or send parameters of the wrong shape, and the server's answer must
    /// parse as the protocol's result type. Returns the answer as sent, for snapshots.
    pub fn ask<R>(&mut self, params: R::Params) -> Value
    where
        R: tower_lsp_server::ls_types::request::Request,
        R::Params: serde::Serialize,
        R::Result: serde::de::DeserializeOwned,
    {
        let params = serde_json::to_value(params).expect("LSP parameters serialize");
        let answer = self.request(R::METHOD, params);
        if let Err(error) = serde_json::from_value::<R::Result>(answer.clone()) {
            panic!(
                "{}: the answer is not the protocol's result type ({error}): {answer:#}",
                R::METHOD
            );
        }
        answer
    }

    /// A typed notification (see [`Client::ask`]).
    pub fn tell<N>(&mut self, params: N::Params)
    where
        N: tower_lsp_server::ls_types::notification::Notification,
        N::Params: serde::Serialize,
    {
        let params = serde_json::to_value(params).expect("LSP parameters serialize");
        self.notify(N::METHOD, params);
    }

    /// Like [`Self::request_raw`], but waits up to `timeout` for the response (for requests that
    /// wait on a real model) instead of [`TIMEOUT`].
    pub fn request_raw_within(&mut self, method: &str, params: Value, timeout: Duration) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_within(timeout, |message| {
            message["id"] == id && message.get("method").is_none()
        })
    }

    /// A request's result; panics on an error response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        assert!(response.get("error").is_none(), "{method}: {response:#}");
        response["result"].clone()
    }

    /// Waits for a message matching `wanted`, answering the server's own requests on the way.
    pub fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        self.wait_within(TIMEOUT, wanted)
    }

    /// [`Self::wait`] with a timeout of its own.
    pub fn wait_within(&mut self, timeout: Duration, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(index) = self.backlog.iter().position(&wanted) {
            return self.backlog.remove(index);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let message = self.next_message(deadline, "timed out");
            self.answer_request(&message);
            if wanted(&message) {
                return message;
            }
            self.backlog.push(message);
        }
    }

    /// The next message from the server, logged; panics with `what` at the deadline.
    fn next_message(&mut self, deadline: Instant, what: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("{what}; unread: {:#?}", self.backlog),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the server went away; unread: {:#?}", self.backlog)
            }
        };
        self.log.push(message.clone());
        message
    }

    /// Answers `message` with [`Self::answer`] if it is a request from the server
    /// (registerCapability, workDoneProgress/create, an approval).
    fn answer_request(&mut self, message: &Value) {
        if message.get("method").is_some() && message.get("id").is_some() {
            let result = (self.answer)(message);
            self.send(&json!({"jsonrpc": "2.0", "id": message["id"], "result": result}));
        }
    }

    /// Waits for the server's request `method` and leaves it unanswered, as a client that is
    /// shutting down may; other requests are answered on the way.
    pub fn wait_unanswered(&mut self, method: &str) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.next_message(deadline, &format!("no {method} request"));
            if message["method"] == method && message.get("id").is_some() {
                return message;
            }
            self.answer_request(&message);
            self.backlog.push(message);
        }
    }

    /// The next diagnostics published for `uri` (at `version` when given).
    pub fn diagnostics(&mut self, uri: &str, version: Option<i64>) -> Vec<Value> {
        let uri = uri.to_owned();
        let message = self.wait(|message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
                && version.is_none_or(|version| message["params"]["version"] == version)
        });
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn open(&mut self, relative: &str, text: &str) -> String {
        let uri = self.uri(relative);
        self.tell::<DidOpenTextDocument>(DidOpenTextDocumentParams {
            text_document: TextDocumentItem {
                uri: lsp_uri(&uri),
                language_id: "markdown".into(),
                version: 1,
                text: text.into(),
            },
        });
        uri
    }

    /// Edits the open document at `uri`; `changes` is the JSON of its content changes.
    pub fn change(&mut self, uri: &str, version: i64, changes: Value) {
        self.tell::<DidChangeTextDocument>(DidChangeTextDocumentParams {
            text_document: VersionedTextDocumentIdentifier {
                uri: lsp_uri(uri),
                version: i32::try_from(version).expect("a version the protocol can carry"),
            },
            content_changes: typed(&changes),
        });
    }

    /// Shuts the server down; returns every message it sent and its stderr.
    pub fn finish(mut self) -> (Vec<Value>, String) {
        let _ = self.request_raw("shutdown", json!(null));
        self.notify("exit", json!(null));
        let deadline = Instant::now() + TIMEOUT;
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
        while let Ok(message) = self.messages.try_recv() {
            self.log.push(message);
        }
        let stderr = fs::read_to_string(self.stderr_dir.path().join("stderr.log")).unwrap();
        (self.log, stderr)
    }

    pub fn shutdown(mut self) {
        self.request("shutdown", json!(null));
        self.notify("exit", json!(null));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
