//! A tiny HTTP/1.1 server on 127.0.0.1 for provider tests: it answers each request with the next
//! scripted reply (one connection per request, `connection: close`) and records what it was sent.
//! Streamed bodies go out in chunked encoding, split at awkward byte boundaries with small pauses.

#![allow(dead_code, reason = "each test binary uses a different part")]

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Names lowercased, in the order sent.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("the request body is JSON")
    }
}

/// How a streamed body ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The terminating zero-length chunk.
    Complete,
    /// The socket is closed without the terminating chunk.
    Cut,
    /// Nothing more is sent; the connection stays open until the client closes it.
    Stall,
}

#[derive(Clone, Debug)]
pub enum Body {
    /// Sent whole with a `content-length`.
    Full(Vec<u8>),
    /// Sent in chunked encoding, a few bytes at a time.
    Chunked(Vec<u8>, End),
    /// No reply at all; the connection stays open until the client closes it.
    Hang,
    /// The connection is closed right after the request is read.
    Drop,
    /// A stream that never ends: `prefix`, then one byte of an SSE comment every `delay`
    /// (slowloris), until the client closes the connection.
    Trickle(Vec<u8>, Duration),
    /// The headers at once, then after `delay` the body in chunked encoding, complete: a local
    /// server that reads a long prompt before its first token.
    Late(Duration, Vec<u8>),
    /// `prefix`, then SSE comment lines in 64 KiB chunks, as fast as the client reads, until
    /// `total` bytes are sent or the client closes the connection.
    Flood(Vec<u8>, usize),
    /// In chunked encoding, complete: `head`, then a pause of `delay`, then `rest` (a model
    /// that takes its time to end a reply after its tool call).
    Paused(Vec<u8>, Duration, Vec<u8>),
}

#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

impl Reply {
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: Body::Full(value.to_string().into_bytes()),
        }
    }

    pub fn html(status: u16, html: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "text/html; charset=utf-8".into())],
            body: Body::Full(html.as_bytes().to_vec()),
        }
    }

    pub fn sse(text: &str) -> Self {
        Self::sse_ending(text, End::Complete)
    }

    pub fn sse_ending(text: &str, end: End) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: Body::Chunked(text.as_bytes().to_vec(), end),
        }
    }

    pub fn hang() -> Self {
        Self {
            status: 0,
            headers: Vec::new(),
            body: Body::Hang,
        }
    }

    pub fn trickle(prefix: &str, delay: Duration) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: Body::Trickle(prefix.as_bytes().to_vec(), delay),
        }
    }

    pub fn late(delay: Duration, text: &str) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: Body::Late(delay, text.as_bytes().to_vec()),
        }
    }

    pub fn paused(head: &str, delay: Duration, rest: &str) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: Body::Paused(head.as_bytes().to_vec(), delay, rest.as_bytes().to_vec()),
        }
    }

    pub fn flood(prefix: &str, total: usize) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type".into(), "text/event-stream".into())],
            body: Body::Flood(prefix.as_bytes().to_vec(), total),
        }
    }

    pub fn drop_connection() -> Self {
        Self {
            status: 0,
            headers: Vec::new(),
            body: Body::Drop,
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

/// Answers a request from what it holds, for a model scripted by its input.
type Responder = Box<dyn Fn(&Recorded) -> Reply + Send + Sync>;

struct Shared {
    replies: Mutex<VecDeque<Reply>>,
    /// When set, answers every request instead of `replies`.
    responder: Option<Responder>,
    requests: Mutex<Vec<Recorded>>,
    /// Connections left open by `Hang` or `End::Stall` that the client has since closed.
    closed_by_client: AtomicUsize,
    stop: AtomicBool,
}

pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Server {
    pub fn start(replies: Vec<Reply>) -> Self {
        Self::serving(replies, None)
    }

    /// A server that answers each request with `respond(request)`: a model whose reply follows
    /// what it was sent, whatever the order of the requests.
    pub fn answering(respond: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Self {
        Self::serving(Vec::new(), Some(Box::new(respond)))
    }

    fn serving(replies: Vec<Reply>, responder: Option<Responder>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        let shared = Arc::new(Shared {
            replies: Mutex::new(replies.into()),
            responder,
            requests: Mutex::new(Vec::new()),
            closed_by_client: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let accept_shared = Arc::clone(&shared);
        thread::spawn(move || {
            for stream in listener.incoming() {
                if accept_shared.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = Arc::clone(&accept_shared);
                thread::spawn(move || serve(stream, &shared));
            }
        });
        Self { addr, shared }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// How many connections left open (`Body::Hang`, `End::Stall`) the client has closed. Poll it
    /// with an async sleep: blocking the test's runtime would stop the client closing anything.
    pub fn closed_by_client(&self) -> usize {
        self.shared.closed_by_client.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(mut stream: TcpStream, shared: &Shared) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let Some(request) = read_request(&mut stream) else {
        return;
    };
    shared.requests.lock().unwrap().push(request.clone());
    let reply = match &shared.responder {
        Some(respond) => respond(&request),
        None => shared
            .replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| {
                Reply::json(
                    500,
                    &serde_json::json!({"error": {"message": "no scripted reply left"}}),
                )
            }),
    };
    let head = |extra: &str| {
        let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
        for (name, value) in &reply.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("connection: close\r\n");
        head.push_str(extra);
        head.push_str("\r\n");
        head
    };
    match &reply.body {
        Body::Full(bytes) => {
            let _ =
                stream.write_all(head(&format!("content-length: {}\r\n", bytes.len())).as_bytes());
            let _ = stream.write_all(bytes);
            let _ = stream.flush();
        }
        Body::Chunked(bytes, end) => {
            if stream
                .write_all(head("transfer-encoding: chunked\r\n").as_bytes())
                .is_err()
                || !write_awkward_chunks(&mut stream, bytes)
            {
                return;
            }
            match end {
                End::Complete => {
                    let _ = stream.write_all(b"0\r\n\r\n");
                    let _ = stream.flush();
                }
                End::Cut => {}
                End::Stall => wait_for_client_close(&mut stream, shared),
            }
        }
        Body::Paused(before, delay, after) => {
            if stream
                .write_all(head("transfer-encoding: chunked\r\n").as_bytes())
                .is_err()
                || !write_awkward_chunks(&mut stream, before)
            {
                return;
            }
            thread::sleep(*delay);
            if !write_awkward_chunks(&mut stream, after) {
                shared.closed_by_client.fetch_add(1, Ordering::SeqCst);
                return;
            }
            let _ = stream.write_all(b"0\r\n\r\n");
            let _ = stream.flush();
        }
        Body::Hang => wait_for_client_close(&mut stream, shared),
        Body::Drop => {}
        Body::Trickle(prefix, delay) => {
            if stream
                .write_all(head("transfer-encoding: chunked\r\n").as_bytes())
                .is_err()
            {
                return;
            }
            let mut frame = |piece: &[u8]| {
                let mut frame = format!("{:x}\r\n", piece.len()).into_bytes();
                frame.extend_from_slice(piece);
                frame.extend_from_slice(b"\r\n");
                stream.write_all(&frame).and_then(|()| stream.flush())
            };
            if !prefix.is_empty() && frame(prefix).is_err() {
                return;
            }
            let started = Instant::now();
            for byte in b": still here\n".iter().cycle() {
                if shared.stop.load(Ordering::SeqCst) || started.elapsed() > Duration::from_secs(60)
                {
                    break;
                }
                if frame(std::slice::from_ref(byte)).is_err() {
                    shared.closed_by_client.fetch_add(1, Ordering::SeqCst);
                    return;
                }
                thread::sleep(*delay);
            }
        }
        Body::Late(delay, text) => {
            if stream
                .write_all(head("transfer-encoding: chunked\r\n").as_bytes())
                .and_then(|()| stream.flush())
                .is_err()
            {
                return;
            }
            thread::sleep(*delay);
            let mut frame = format!("{:x}\r\n", text.len()).into_bytes();
            frame.extend_from_slice(text);
            frame.extend_from_slice(b"\r\n0\r\n\r\n");
            let _ = stream.write_all(&frame).and_then(|()| stream.flush());
        }
        Body::Flood(prefix, total) => {
            if stream
                .write_all(head("transfer-encoding: chunked\r\n").as_bytes())
                .is_err()
            {
                return;
            }
            let line = b": padding padding padding padding padding padding padding padding\n";
            let mut chunk = prefix.clone();
            while chunk.len() < 64 * 1024 {
                chunk.extend_from_slice(line);
            }
            let mut sent = 0;
            while sent < *total && !shared.stop.load(Ordering::SeqCst) {
                let mut frame = format!("{:x}\r\n", chunk.len()).into_bytes();
                frame.extend_from_slice(&chunk);
                frame.extend_from_slice(b"\r\n");
                if stream.write_all(&frame).is_err() {
                    shared.closed_by_client.fetch_add(1, Ordering::SeqCst);
                    return;
                }
                if sent == 0 {
                    // The prefix goes once; padding follows.
                    chunk.clear();
                    while chunk.len() < 64 * 1024 {
                        chunk.extend_from_slice(line);
                    }
                }
                sent += frame.len();
            }
            let _ = stream.write_all(b"0\r\n\r\n");
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Writes `bytes` in chunked encoding at awkward sizes, which split lines, CRLFs and multi-byte
/// characters, with small pauses; false once the client has gone.
fn write_awkward_chunks(stream: &mut TcpStream, bytes: &[u8]) -> bool {
    const SIZES: [usize; 10] = [1, 2, 3, 5, 7, 11, 13, 17, 4, 9];
    let mut offset = 0;
    let mut n_chunks = 0;
    while offset < bytes.len() {
        let size = SIZES[n_chunks % SIZES.len()].min(bytes.len() - offset);
        let piece = &bytes[offset..offset + size];
        let mut frame = format!("{size:x}\r\n").into_bytes();
        frame.extend_from_slice(piece);
        frame.extend_from_slice(b"\r\n");
        if stream
            .write_all(&frame)
            .and_then(|()| stream.flush())
            .is_err()
        {
            return false;
        }
        offset += size;
        n_chunks += 1;
        if n_chunks % 8 == 0 {
            thread::sleep(Duration::from_millis(1));
        }
    }
    true
}

/// Blocks until the client closes the connection (a read returns 0) or 10 s pass.
fn wait_for_client_close(stream: &mut TcpStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(20)));
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut buffer = [0u8; 1024];
    while Instant::now() < deadline && !shared.stop.load(Ordering::SeqCst) {
        match stream.read(&mut buffer) {
            Ok(0) => {
                shared.closed_by_client.fetch_add(1, Ordering::SeqCst);
                return;
            }
            Ok(_) => {}
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => {
                shared.closed_by_client.fetch_add(1, Ordering::SeqCst);
                return;
            }
        }
    }
}

fn read_request(stream: &mut TcpStream) -> Option<Recorded> {
    let mut data = Vec::new();
    let mut buffer = [0u8; 4096];
    let head_end = loop {
        if let Some(pos) = data.windows(4).position(|it| it == b"\r\n\r\n") {
            break pos;
        }
        let n = stream.read(&mut buffer).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buffer[..n]);
    };
    let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_owned();
    let path = request_line.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    let mut body = data[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut buffer).ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&buffer[..n]);
    }
    Some(Recorded {
        method,
        path,
        headers,
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        401 => "Unauthorized",
        403 => "Forbidden",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

/// An Anthropic SSE stream for the given content blocks (`{"text": ..}` or `{"tool": name, "id", "input"}`).
pub fn anthropic_stream(blocks: &[serde_json::Value], stop_reason: &str) -> String {
    let mut out = String::new();
    let mut event = |name: &str, data: serde_json::Value| {
        out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    };
    event(
        "message_start",
        serde_json::json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "test", "usage": {"input_tokens": 100, "output_tokens": 1}}}),
    );
    for (index, block) in blocks.iter().enumerate() {
        if let Some(text) = block["text"].as_str() {
            event(
                "content_block_start",
                serde_json::json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
            );
            let (head, tail) = text.split_at(text.len() / 2);
            for piece in [head, tail] {
                event(
                    "content_block_delta",
                    serde_json::json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}}),
                );
            }
        } else {
            event(
                "content_block_start",
                serde_json::json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": block["id"], "name": block["tool"], "input": {}}}),
            );
            let input = block["input"].to_string();
            let (head, tail) = input.split_at(input.len() / 2);
            for piece in [head, tail] {
                event(
                    "content_block_delta",
                    serde_json::json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}),
                );
            }
        }
        event(
            "content_block_stop",
            serde_json::json!({"type": "content_block_stop", "index": index}),
        );
    }
    event(
        "message_delta",
        serde_json::json!({"type": "message_delta", "delta": {"stop_reason": stop_reason}, "usage": {"output_tokens": 20}}),
    );
    event("message_stop", serde_json::json!({"type": "message_stop"}));
    out
}
