//! What must hold for any input, checked by two drivers: the cargo-fuzz targets in `fuzz/`
//! (coverage-guided, for hours) and the bounded property tests in `tests/it/properties.rs` (in CI).
//! Each entry point takes raw bytes and panics when an invariant breaks.

#![allow(dead_code, reason = "each driver uses a different part")]

use std::path::Path;

use skill_lsp::diagnostic::apply_edits;
use skill_lsp::rules::fix::fix_all;
use skill_lsp::rules::{FileContext, lint_bytes, lint_text};
use skill_lsp::targets::ALL_CLIENTS;

/// Real SKILL.md shapes the drivers start from (the fuzz corpora add the fixtures and skills).
pub const SEEDS: &[&str] = &[
    "---\nname: pdf\ndescription: Fill forms. Use when asked.\nmetadata:\n  k: v\nallowed-tools: [Read, Grep]\n---\n# PDF\n\nRun scripts/x.py and [a](references/a.md).\n",
    "\u{feff}---\r\nname: Ünïcödé 日本\r\ndescription: |\r\n  a: b\r\n  ---\r\n---\r\nbody 😀\r\n",
    "<!-- c -->\n---\ndescription: Use when: x # y\nhooks:\n  Pre: [1, {a: b}]\n---\n",
    "----\nname: 3000\ndescription: >-\n  x\n--- x\n",
    "---\nname: Bad_Name\ndescription: Reviews code: use when asked\nfoo: bar\n---\nSee /pdf and $code-review.\n",
];

/// Fragments that meet the parsers' edge cases when spliced in.
pub const PIECES: &[&str] = &[
    ":",
    ": ",
    "\"",
    "'",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "---\n",
    "- ",
    "[",
    "{",
    "#",
    "é",
    "😀",
    "|",
    ">",
    "&a",
    "*a",
    "!!str ",
    "\u{feff}",
    "](",
    "../",
    "name: ",
    "description: ",
    "  ",
    "𝄞",
];

/// A cursor over fuzz bytes; reads past the end give zeros, so every input decodes.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let byte = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    pub fn below(&mut self, bound: usize) -> usize {
        let value = usize::from(self.byte()) | (usize::from(self.byte()) << 8);
        if bound == 0 { 0 } else { value % bound }
    }

    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    pub fn rest(&mut self) -> &'a [u8] {
        let rest = self.data.get(self.at..).unwrap_or(&[]);
        self.at = self.data.len();
        rest
    }

    /// A short text: pieces of [`PIECES`] and the input's own bytes (lossily decoded).
    pub fn text(&mut self) -> String {
        let mut out = String::new();
        for _ in 0..self.below(4) {
            match self.byte() % 3 {
                0 => out.push_str(PIECES[self.below(PIECES.len())]),
                1 => out.push(char::from(b'a' + self.byte() % 26)),
                _ => {
                    let len = self.below(6);
                    let start = self.at.min(self.data.len());
                    let end = (start + len).min(self.data.len());
                    out.push_str(&String::from_utf8_lossy(&self.data[start..end]));
                    self.at = end;
                }
            }
        }
        out
    }
}

fn check_ranges(text: &str, diagnostics: &[skill_lsp::diagnostic::Diagnostic]) {
    for diagnostic in diagnostics {
        let range = diagnostic.range;
        assert!(
            range.start <= range.end
                && range.end <= text.len()
                && text.is_char_boundary(range.start)
                && text.is_char_boundary(range.end),
            "bad range {range:?} for {} in {text:?}",
            diagnostic.rule
        );
        for fix in &diagnostic.fixes {
            for edit in &fix.edits {
                let range = edit.range;
                assert!(
                    range.end <= text.len()
                        && text.is_char_boundary(range.start)
                        && text.is_char_boundary(range.end),
                    "bad edit {range:?} in fix '{}' of {} in {text:?}",
                    fix.title,
                    diagnostic.rule
                );
            }
        }
    }
}

/// Parse, every rule and every fix on arbitrary bytes: no panic; every range and edit lies on
/// char boundaries inside the text; every fix applies and its result lints again; the safe-fix
/// loop never adds a structural error and reaches a fixed point (running it again on its output
/// changes nothing).
pub fn lint_invariants(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let selector = bytes.byte();
    let targets: Vec<_> = ALL_CLIENTS
        .iter()
        .enumerate()
        .filter(|(index, _)| selector & (1 << index) != 0)
        .map(|(_, target)| *target)
        .collect();
    let targets = if targets.is_empty() {
        ALL_CLIENTS.to_vec()
    } else {
        targets
    };
    let exists = |path: &Path| path.to_str().is_some_and(|path| path.len() % 2 == 0);
    let context = FileContext {
        path: Path::new("skills/pdf/SKILL.md"),
        targets: &targets,
        advisory: skill_lsp::targets::ClientSet::NONE,
        home: skill_lsp::targets::Home::Portable,
        exists: &exists,
        security: true,
    };
    let (text, diagnostics) = lint_bytes(bytes.rest(), &context);
    check_ranges(&text, &diagnostics);
    for diagnostic in &diagnostics {
        for fix in &diagnostic.fixes {
            let fixed = apply_edits(&text, &fix.edits)
                .unwrap_or_else(|error| panic!("fix '{}' does not apply: {error}", fix.title));
            check_ranges(&fixed, &lint_text(&fixed, &context));
        }
    }
    let lint = |text: &str| lint_text(text, &context);
    let structural = |text: &str| {
        lint(text)
            .iter()
            .filter(|d| {
                d.rule.group() == skill_lsp::rules::Group::File
                    && d.severity == skill_lsp::diagnostic::Severity::Error
            })
            .count()
    };
    let once = fix_all(&text, lint);
    assert!(
        structural(&once.text) <= structural(&text),
        "fix-all added a structural error: {text:?} -> {:?}",
        once.text
    );
    let twice = fix_all(&once.text, lint);
    assert_eq!(
        twice.text, once.text,
        "fix-all is not at a fixed point after one run on {text:?}"
    );
}

/// A whole-input server-sent events parser written from the WHATWG rules, independent of
/// `SseParser`, to compare against.
fn reference_sse(input: &[u8]) -> Vec<(String, String)> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let mut lines = Vec::new();
    let mut start = 0;
    let mut index = 0;
    while index < input.len() {
        match input[index] {
            b'\n' => {
                lines.push(&input[start..index]);
                start = index + 1;
            }
            b'\r' => {
                lines.push(&input[start..index]);
                if input.get(index + 1) == Some(&b'\n') {
                    index += 1;
                }
                start = index + 1;
            }
            _ => {}
        }
        index += 1;
    }
    let tail = &input[start..];
    let mut events = Vec::new();
    let (mut event, mut data, mut has_data) = (String::new(), String::new(), false);
    let mut dispatch = |event: &mut String, data: &mut String, has_data: &mut bool| {
        if *has_data {
            let name = if event.is_empty() {
                "message"
            } else {
                event.as_str()
            };
            events.push((name.to_owned(), std::mem::take(data)));
        }
        event.clear();
        data.clear();
        *has_data = false;
    };
    let all_lines = lines.into_iter().chain((!tail.is_empty()).then_some(tail));
    for line in all_lines {
        if line.is_empty() {
            dispatch(&mut event, &mut data, &mut has_data);
            continue;
        }
        if line[0] == b':' {
            continue;
        }
        let line = String::from_utf8_lossy(line);
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (&*line, ""),
        };
        match field {
            "event" => value.clone_into(&mut event),
            "data" => {
                if has_data {
                    data.push('\n');
                }
                data.push_str(value);
                has_data = true;
            }
            _ => {}
        }
    }
    // The stream's end closes a pending event (see `SseParser::finish`).
    dispatch(&mut event, &mut data, &mut has_data);
    events
}

/// The SSE parser on arbitrary bytes in arbitrary chunks: no panic, the same events whatever
/// the chunking, and the same events as the reference parser.
pub fn sse_invariants(data: &[u8]) {
    use skill_lsp::agent::provider::sse::SseParser;
    let mut bytes = Bytes::new(data);
    let cuts = bytes.byte() % 16;
    let mut cut_points: Vec<usize> = (0..cuts).map(|_| bytes.below(4096)).collect();
    let stream = bytes.rest();
    for cut in &mut cut_points {
        *cut %= stream.len() + 1;
    }
    cut_points.sort_unstable();
    let collect = |chunks: &[&[u8]]| {
        let mut parser = SseParser::new();
        let mut events: Vec<(String, String)> = chunks
            .iter()
            .flat_map(|chunk| parser.feed(chunk))
            .map(|event| (event.event, event.data))
            .collect();
        events.extend(parser.finish().map(|event| (event.event, event.data)));
        events
    };
    let whole = collect(&[stream]);
    let mut chunks = Vec::new();
    let mut previous = 0;
    for cut in cut_points {
        chunks.push(&stream[previous..cut]);
        previous = cut;
    }
    chunks.push(&stream[previous..]);
    assert_eq!(
        collect(&chunks),
        whole,
        "chunking changed the events of {stream:?}"
    );
    let byte_by_byte: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(collect(&byte_by_byte), whole, "byte-by-byte differs");
    assert_eq!(
        whole,
        reference_sse(stream),
        "differs from the reference on {stream:?}"
    );
}

/// Byte offsets of line starts under LSP's rules (`\n`, `\r\n` and a lone `\r` end a line).
/// Every frame `FrameReader` reads from `input` fed in pieces of `piece` bytes, to its end.
fn frames_of(input: &[u8], piece: usize) -> Vec<skill_lsp::lsp::framing::Frame> {
    use skill_lsp::lsp::framing::{Frame, FrameReader};
    use tokio::io::AsyncWriteExt;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let (mut writer, reader) = tokio::io::duplex(piece.max(1));
        let input = input.to_vec();
        let piece = piece.max(1);
        let feed = tokio::spawn(async move {
            for chunk in input.chunks(piece) {
                if writer.write_all(chunk).await.is_err() {
                    return;
                }
            }
        });
        let mut reader = FrameReader::new(reader);
        let mut frames = Vec::new();
        loop {
            let frame = reader
                .next()
                .await
                .expect("an in-memory pipe does not fail");
            if frame == Frame::End {
                break;
            }
            frames.push(frame);
        }
        feed.await.expect("the feeder ends");
        frames
    })
}

/// The client's framing, whatever bytes come (a client bug, a hostile peer, a cut pipe): the
/// reader ends, reads the same frames however the bytes arrive (whole, or in pieces of any size
/// the first byte picks), and every body it hands on is bytes of the input; a well-framed
/// message after the bytes and two line breaks is read whole unless the bytes left a message
/// open that swallows it.
pub fn framing_invariants(data: &[u8]) {
    use skill_lsp::lsp::framing::{Frame, encode};
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let piece = 1 + usize::from(selector) * 3;
    let whole = frames_of(input, input.len());
    assert_eq!(
        frames_of(input, piece),
        whole,
        "pieces of {piece} bytes read otherwise than the whole of {input:?}"
    );
    for frame in &whole {
        if let Frame::Body(body) = frame {
            assert!(
                body.is_empty() || input.windows(body.len()).any(|window| window == body),
                "a body that is not in the input: {body:?}"
            );
        }
    }
    // After bytes that end every frame they open, a good message is read whole.
    let closed = whole.iter().all(|frame| matches!(frame, Frame::Body(_)))
        && !input.ends_with(b"\r")
        && frames_of(&[input, b"\r\n\r\n"].concat(), input.len() + 4).len() == whole.len();
    if closed {
        let good = br#"{"jsonrpc":"2.0","method":"x"}"#;
        let after = frames_of(&[input, b"\r\n\r\n", &encode(good)].concat(), piece);
        assert_eq!(after.last(), Some(&Frame::Body(good.to_vec())), "{input:?}");
    }
}

fn reference_line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\n' => starts.push(index + 1),
            b'\r' if bytes.get(index + 1) != Some(&b'\n') => starts.push(index + 1),
            _ => {}
        }
        index += 1;
    }
    starts
}

/// The byte offset of an LSP position in `text`, clamped the way the server documents it: a
/// line past the end is the end of the text, a column past the line's content is the end of
/// the content, a column inside a character is that character's start.
pub fn reference_offset(text: &str, line: u32, character: u32, utf16: bool) -> usize {
    let starts = reference_line_starts(text);
    let Some(&start) = starts.get(line as usize) else {
        return text.len();
    };
    let end = starts.get(line as usize + 1).copied().unwrap_or(text.len());
    let content = text[start..end].trim_end_matches(['\n', '\r']);
    let mut units = 0;
    for (index, ch) in content.char_indices() {
        let width = if utf16 { ch.len_utf16() } else { ch.len_utf8() };
        if units + width > character as usize {
            return start + index;
        }
        units += width;
    }
    start + content.len()
}

/// One edit of a `didChange`: the LSP range and the new text.
#[derive(Clone, Debug)]
pub struct Change {
    pub range: Option<(u32, u32, u32, u32)>,
    pub text: String,
}

/// Applies a change to the reference text the way LSP defines it (a backwards range inserts at
/// its start).
pub fn reference_apply(text: &mut String, change: &Change, utf16: bool) {
    match change.range {
        None => change.text.clone_into(text),
        Some((l1, c1, l2, c2)) => {
            let start = reference_offset(text, l1, c1, utf16);
            let end = reference_offset(text, l2, c2, utf16).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

/// A random change whose positions aim near (and past) the text's real lines and columns.
pub fn random_change(bytes: &mut Bytes<'_>, text: &str) -> Change {
    let lines = reference_line_starts(text).len();
    let position = |bytes: &mut Bytes<'_>| {
        let line = bytes.below(lines + 2) as u32;
        let character = bytes.below(48) as u32;
        (line, character)
    };
    if bytes.byte() % 16 == 0 {
        return Change {
            range: None,
            text: SEEDS[bytes.below(SEEDS.len())].to_owned() + &bytes.text(),
        };
    }
    let (l1, c1) = position(bytes);
    let (l2, c2) = if bytes.byte() % 2 == 0 {
        (l1, c1 + bytes.below(6) as u32)
    } else {
        position(bytes)
    };
    Change {
        range: Some((l1, c1, l2, c2)),
        text: bytes.text(),
    }
}

/// The server's document model on its own: a random edit sequence leaves the rope, its string
/// and the reference string equal, in both position encodings.
pub fn document_invariants(data: &[u8]) {
    use skill_lsp::lsp::documents::{Buffer, Encoding};
    use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};
    let mut bytes = Bytes::new(data);
    let utf16 = bytes.byte() % 2 == 0;
    let encoding = if utf16 {
        Encoding::Utf16
    } else {
        Encoding::Utf8
    };
    let mut reference = SEEDS[bytes.below(SEEDS.len())].to_owned();
    let mut document = Buffer::new(&reference, 1);
    let mut version = 1;
    while !bytes.is_empty() {
        let batch: Vec<Change> = (0..=bytes.below(3))
            .map(|_| {
                let change = random_change(&mut bytes, &reference);
                reference_apply(&mut reference, &change, utf16);
                change
            })
            .collect();
        version += 1;
        let events = batch
            .iter()
            .map(|change| TextDocumentContentChangeEvent {
                range: change.range.map(|(l1, c1, l2, c2)| {
                    Range::new(Position::new(l1, c1), Position::new(l2, c2))
                }),
                range_length: None,
                text: change.text.clone(),
            })
            .collect();
        document.apply(events, version, encoding);
        assert_eq!(&*document.text, reference, "after {batch:?}");
        assert_eq!(document.rope.to_string(), reference);
    }
}

/// The whole server (framing, dispatch, documents, every handler) fed a random session of edits,
/// requests at random positions and malformed messages: no handler fails internally, every
/// request is answered, and after the session the edited document's diagnostics equal those of
/// the reference text opened fresh, so the server's text never drifted from the client's.
pub fn lsp_session_invariants(data: &[u8]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(lsp_session(data));
}

mod session {
    use serde_json::{Value, json};
    use skill_lsp::lsp::framing::{Frame, FrameReader, encode};
    use std::time::Duration;
    use tokio::io::{AsyncWriteExt, DuplexStream};

    pub struct Peer {
        writer: DuplexStream,
        reader: FrameReader<DuplexStream>,
        pub next_id: i64,
        /// Every message the server sent, in order.
        pub received: Vec<Value>,
    }

    impl Peer {
        pub fn start() -> Self {
            let (writer, server_input) = tokio::io::duplex(1 << 20);
            let (server_output, reader) = tokio::io::duplex(1 << 20);
            tokio::spawn(skill_lsp::lsp::serve(server_input, server_output));
            Self {
                writer,
                reader: FrameReader::new(reader),
                next_id: 1,
                received: Vec::new(),
            }
        }

        pub async fn send_raw(&mut self, body: &[u8]) {
            self.writer
                .write_all(&encode(body))
                .await
                .expect("the server reads its input");
        }

        pub async fn notify(&mut self, method: &str, params: Value) {
            let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
            self.send_raw(message.to_string().as_bytes()).await;
        }

        pub async fn request(&mut self, method: &str, params: Value) -> i64 {
            let id = self.next_id;
            self.next_id += 1;
            let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
            self.send_raw(message.to_string().as_bytes()).await;
            id
        }

        /// The newest message already received that `done` accepts, else reads messages
        /// (answering the server's own requests) until one is.
        pub async fn until(&mut self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
            if let Some(message) = self.received.iter().rev().find(|message| done(message)) {
                return message.clone();
            }
            let read = async {
                loop {
                    let frame = self.reader.next().await.expect("server output");
                    let Frame::Body(body) = frame else {
                        panic!("the server's output ended or was not framed: {frame:?}");
                    };
                    let message: Value =
                        serde_json::from_slice(&body).expect("the server sends JSON");
                    if message.get("method").is_some() && message.get("id").is_some() {
                        let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": null});
                        self.writer
                            .write_all(&encode(reply.to_string().as_bytes()))
                            .await
                            .expect("the server reads its input");
                    }
                    self.received.push(message.clone());
                    if done(&message) {
                        return message;
                    }
                }
            };
            let Ok(message) = tokio::time::timeout(Duration::from_secs(5), read).await else {
                let tail: Vec<String> = self
                    .received
                    .iter()
                    .rev()
                    .take(6)
                    .map(|message| {
                        let text = message.to_string();
                        text.chars().take(300).collect()
                    })
                    .collect();
                panic!("no {what} within 5 s; the last messages, newest first: {tail:#?}");
            };
            message
        }

        pub async fn response(&mut self, id: i64) -> Value {
            self.until(&format!("response {id}"), |message| {
                message["id"] == id && message.get("method").is_none()
            })
            .await
        }
    }
}

const SESSION_URI: &str = "file:///fuzz-workspace/skills/pdf/SKILL.md";

async fn lsp_session(data: &[u8]) {
    use serde_json::{Value, json};
    let mut bytes = Bytes::new(data);
    let utf16 = bytes.byte() % 2 == 0;
    let encoding = if utf16 { "utf-16" } else { "utf-8" };
    let mut peer = session::Peer::start();
    let id = peer
        .request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {
                "general": {"positionEncodings": [encoding]},
                "textDocument": {"publishDiagnostics": {"versionSupport": true},
                    "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source"]}}},
                    "completion": {"completionItem": {"snippetSupport": true}}}}}),
        )
        .await;
    let init = peer.response(id).await;
    assert_eq!(
        init["result"]["capabilities"]["positionEncoding"], encoding,
        "{init}"
    );
    peer.notify("initialized", json!({})).await;
    let mut reference = SEEDS[bytes.below(SEEDS.len())].to_owned();
    let mut version = 1;
    peer.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": SESSION_URI, "languageId": "markdown", "version": 1, "text": reference}}),
    )
    .await;
    let position = |bytes: &mut Bytes<'_>, reference: &str| {
        let lines = reference_line_starts(reference).len();
        json!({"line": bytes.below(lines + 2), "character": bytes.below(40)})
    };
    let document = json!({"uri": SESSION_URI});
    let mut pending = Vec::new();
    let mut steps = 0;
    while !bytes.is_empty() && steps < 64 {
        steps += 1;
        match bytes.byte() % 8 {
            0..=2 => {
                let batch: Vec<Value> = (0..=bytes.below(3))
                    .map(|_| {
                        let change = random_change(&mut bytes, &reference);
                        reference_apply(&mut reference, &change, utf16);
                        match change.range {
                            None => json!({"text": change.text}),
                            Some((l1, c1, l2, c2)) => json!({"range": {
                                "start": {"line": l1, "character": c1},
                                "end": {"line": l2, "character": c2}}, "text": change.text}),
                        }
                    })
                    .collect();
                version += 1;
                peer.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": SESSION_URI, "version": version}, "contentChanges": batch}),
                )
                .await;
            }
            3 => {
                let at = position(&mut bytes, &reference);
                let params = json!({"textDocument": document, "position": at});
                pending.push(peer.request("textDocument/completion", params).await);
            }
            4 => {
                let at = position(&mut bytes, &reference);
                let params = json!({"textDocument": document, "position": at});
                pending.push(peer.request("textDocument/hover", params).await);
            }
            5 => {
                let (start, end) = (
                    position(&mut bytes, &reference),
                    position(&mut bytes, &reference),
                );
                let only = if bytes.byte() % 2 == 0 {
                    json!(["quickfix"])
                } else {
                    json!(["source.fixAll.skill-lsp"])
                };
                let params = json!({"textDocument": document, "range": {"start": start, "end": end},
                    "context": {"diagnostics": [], "only": only}});
                pending.push(peer.request("textDocument/codeAction", params).await);
            }
            6 => {
                let method = [
                    "textDocument/documentSymbol",
                    "textDocument/documentLink",
                    "textDocument/inlayHint",
                    "textDocument/definition",
                    "textDocument/references",
                    "skill/catalog",
                ][bytes.below(6)];
                let at = position(&mut bytes, &reference);
                let end = position(&mut bytes, &reference);
                let params = json!({"textDocument": document, "position": at,
                    "range": {"start": at, "end": end}, "context": {"includeDeclaration": true}});
                pending.push(peer.request(method, params).await);
            }
            _ => {
                let garbage: &[u8] = match bytes.byte() % 5 {
                    0 => b"{\"jsonrpc\": \"2.0\", \"id\": ",
                    1 => b"[]",
                    2 => b"{\"jsonrpc\": \"2.0\", \"method\": 7}",
                    3 => b"{\"jsonrpc\": \"2.0\", \"id\": 999999, \"method\": \"textDocument/hover\", \"params\": {\"x\": 1}}",
                    _ => b"\xff\xfe not json",
                };
                peer.send_raw(garbage).await;
            }
        }
    }
    for id in pending {
        let response = peer.response(id).await;
        assert!(
            response["error"]["code"] != -32603,
            "internal error: {response}"
        );
    }
    let is_publish = |version: i64| {
        move |message: &Value| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == SESSION_URI
                && message["params"]["version"] == version
        }
    };
    let edited = peer
        .until("diagnostics of the edited text", is_publish(version))
        .await;
    peer.notify("textDocument/didClose", json!({"textDocument": document}))
        .await;
    peer.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": SESSION_URI, "languageId": "markdown", "version": version + 1, "text": reference}}),
    )
    .await;
    let fresh = peer
        .until("diagnostics of the reference text", is_publish(version + 1))
        .await;
    assert_eq!(
        edited["params"]["diagnostics"], fresh["params"]["diagnostics"],
        "the server's text drifted from the client's: reference {reference:?}"
    );
    let id = peer.request("shutdown", Value::Null).await;
    let response = peer.response(id).await;
    assert!(response.get("error").is_none(), "{response}");
    peer.notify("exit", Value::Null).await;
}
