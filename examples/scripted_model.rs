//! The scripted Messages API server of the agent tests, as a program, for the editor tests
//! (VS Code, Neovim) that drive a real editor against a model on 127.0.0.1.
//!
//! ```text
//! cargo run --example scripted_model -- SCRIPT.json [--record REQUESTS.jsonl]
//! ```
//!
//! SCRIPT is a JSON array with one entry per model call, answered in order:
//! `{"blocks": [{"text": "..."} | {"tool": "load_skill", "id": "t1", "input": {...}}], "stopReason": "end_turn"}`
//! streams those blocks as Anthropic SSE; `{"hang": true}` never answers (for cancellation);
//! `{"status": 529, "error": "overloaded"}` answers with an error. The first line on stdout is
//! the base URL (`http://127.0.0.1:PORT`); the server then runs until it is killed. With
//! `--record`, every request received is appended to the file as one JSON line
//! `{"method", "path", "body"}` (headers are left out so no key is written anywhere).

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line program: the URL goes to stdout, errors to stderr"
)]

#[path = "../tests/support/scripted_server.rs"]
mod scripted_server;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use scripted_server::{Reply, Server, anthropic_stream};
use serde_json::{Value, json};

fn reply(entry: &Value, index: usize) -> Result<Reply, String> {
    if entry["hang"] == true {
        return Ok(Reply::hang());
    }
    if let Some(status) = entry["status"].as_u64() {
        let message = entry["error"].as_str().unwrap_or("scripted error");
        let status = u16::try_from(status).map_err(|_| format!("entry {index}: bad status"))?;
        return Ok(Reply::json(
            status,
            &json!({"type": "error", "error": {"type": "scripted", "message": message}}),
        ));
    }
    let blocks = entry["blocks"]
        .as_array()
        .ok_or_else(|| format!("entry {index}: needs \"blocks\", \"hang\" or \"status\""))?;
    let stop = entry["stopReason"].as_str().unwrap_or(
        if blocks.iter().any(|block| block.get("tool").is_some()) {
            "tool_use"
        } else {
            "end_turn"
        },
    );
    Ok(Reply::sse(&anthropic_stream(blocks, stop)))
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let script = args
        .next()
        .ok_or("usage: scripted_model SCRIPT.json [--record FILE]")?;
    let record = match (args.next().as_deref(), args.next()) {
        (Some("--record"), Some(path)) => Some(PathBuf::from(path)),
        (None, _) => None,
        _ => return Err("usage: scripted_model SCRIPT.json [--record FILE]".into()),
    };
    let text = std::fs::read_to_string(&script).map_err(|error| format!("{script}: {error}"))?;
    let entries: Vec<Value> =
        serde_json::from_str(&text).map_err(|error| format!("{script}: {error}"))?;
    let replies = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| reply(entry, index))
        .collect::<Result<Vec<_>, _>>()?;
    let server = Server::start(replies);
    println!("{}", server.url());
    std::io::stdout()
        .flush()
        .map_err(|error| error.to_string())?;
    let mut written = 0;
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let Some(path) = &record else { continue };
        let requests = server.requests();
        if requests.len() == written {
            continue;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        for request in &requests[written..] {
            let body = serde_json::from_slice::<Value>(&request.body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&request.body).into()));
            let line = json!({"method": request.method, "path": request.path, "body": body});
            writeln!(file, "{line}").map_err(|error| error.to_string())?;
        }
        written = requests.len();
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scripted_model: {message}");
            ExitCode::FAILURE
        }
    }
}
