//! Our own JSON-RPC framing in front of tower-lsp-server, so that one bad message cannot end the
//! session.
//!
//! tower-lsp-server's read loop stops at the first frame its codec rejects (design.md §8.1). This
//! layer splits stdin into frames itself, answers bodies that are not JSON with `-32700` and JSON
//! that is not a JSON-RPC message with `-32600`, and forwards only well-formed messages to the
//! server through an in-memory pipe. Both the server's output and these error replies go to
//! stdout through one writer, a whole frame at a time.

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// Frames larger than this are refused unread (a client bug or an attack, not a SKILL.md).
pub(crate) const MAX_FRAME: usize = 64 * 1024 * 1024;

/// What reading one frame gave.
#[derive(Debug, PartialEq)]
pub enum Frame {
    Body(Vec<u8>),
    /// The header was unreadable, named a bad length, or the body was cut short by the next
    /// header; the problem is described. The reader is in step again after it.
    BadHeader(String),
    /// A message over [`MAX_FRAME`], skipped unread: what it was (from its first bytes) and
    /// how large, for the user, who would otherwise never learn why a file goes unchecked.
    TooLarge(String),
    End,
}

/// How much of an oversized message is kept to say what it was.
const TOO_LARGE_HEAD: usize = 4096;

/// A header block longer than this without its blank line is not a header.
const MAX_HEADER: usize = 8 * 1024;

/// Splits a byte stream into `Content-Length` framed messages, and gets back in step after a
/// frame whose length is wrong.
///
/// A header line (`Content-Length: N` then a line break) cannot occur inside a JSON body: a JSON
/// string holds no raw line break, and outside strings `Content-Length` is not JSON. So a body
/// that holds one was cut short by the next frame (its length overstated): it is reported, and
/// reading starts again at that header instead of swallowing the next messages, or waiting for
/// bytes the client will never send because it waits for an answer. Text before a header (the
/// rest of a body whose length was understated) is skipped.
pub struct FrameReader<R> {
    input: R,
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts.
    at: usize,
    ended: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    pub fn new(input: R) -> Self {
        Self {
            input,
            buf: Vec::new(),
            at: 0,
            ended: false,
        }
    }

    /// Reads more input; `false` at its end.
    async fn fill(&mut self) -> std::io::Result<bool> {
        if self.ended {
            return Ok(false);
        }
        if self.at > 0 && self.at * 2 >= self.buf.len() {
            self.buf.drain(..self.at);
            self.at = 0;
        }
        let mut chunk = [0u8; 64 * 1024];
        let read = self.input.read(&mut chunk).await?;
        if read == 0 {
            self.ended = true;
        }
        self.buf.extend_from_slice(&chunk[..read]);
        Ok(read > 0)
    }

    /// The next frame.
    ///
    /// # Errors
    ///
    /// The input's I/O error.
    pub async fn next(&mut self) -> std::io::Result<Frame> {
        // The header: up to its blank line, stray line breaks before it skipped.
        let length = loop {
            while self
                .buf
                .get(self.at)
                .is_some_and(|byte| matches!(byte, b'\r' | b'\n'))
            {
                self.at += 1;
            }
            let unread = &self.buf[self.at..];
            // Only the first MAX_HEADER bytes are looked at, so that how the input arrived
            // never changes what is read.
            let head = &unread[..unread.len().min(MAX_HEADER)];
            if let Some((header_len, body)) = header_end(head) {
                let length = content_length(&String::from_utf8_lossy(&unread[..header_len]));
                self.at += body;
                break length;
            }
            if unread.len() >= MAX_HEADER {
                // No header ends here: skip to the next header line, or to where one could
                // still begin.
                let skip =
                    find_header_line(&head[1..]).map_or(MAX_HEADER - HEADER_LINE, |at| at + 1);
                self.at += skip;
                return Ok(Frame::BadHeader(format!(
                    "skipped {skip} bytes that held no message header"
                )));
            }
            if !self.fill().await? {
                let rest = self.buf.len() - self.at;
                self.at = self.buf.len();
                return Ok(if rest == 0 {
                    Frame::End
                } else {
                    Frame::BadHeader("the stream ended inside a header".into())
                });
            }
        };
        let Some(length) = length else {
            return Ok(Frame::BadHeader(
                "missing or invalid Content-Length header".into(),
            ));
        };
        // The body, from `self.at` (which `fill` keeps valid). A body over the limit is dropped
        // as it comes, all but a header line's length kept for the search.
        let refused = length > MAX_FRAME;
        let mut dropped = 0usize;
        let mut searched = 0usize;
        let mut head = Vec::new();
        loop {
            let remaining = length - dropped;
            let have = (self.buf.len() - self.at).min(remaining);
            if refused && head.len() < TOO_LARGE_HEAD {
                // The body's first bytes, as they arrive: `dropped` of them are gone, and only
                // bytes at or after `head.len()` are ever dropped before it is full.
                let upto = (dropped + have).min(TOO_LARGE_HEAD);
                let from = head.len() - dropped;
                head.extend_from_slice(&self.buf[self.at + from..self.at + upto - dropped]);
            }
            // Only new bytes are searched (less a header line's length, which may straddle).
            let from = searched.saturating_sub(HEADER_LINE);
            if let Some(at) = find_header_line(&self.buf[self.at + from..self.at + have]) {
                let cut = dropped + from + at;
                self.at += from + at;
                return Ok(Frame::BadHeader(format!(
                    "a message declared {length} bytes, but a new header began after {cut}"
                )));
            }
            searched = have;
            if have == remaining {
                self.at += have;
                return Ok(if refused {
                    Frame::TooLarge(too_large(length, &head))
                } else {
                    Frame::Body(self.buf[self.at - have..self.at].to_vec())
                });
            }
            if refused && have > HEADER_LINE {
                let drop = have - HEADER_LINE;
                self.buf.drain(self.at..self.at + drop);
                dropped += drop;
                searched -= drop;
            }
            if !self.fill().await? {
                self.at = self.buf.len();
                return Ok(Frame::BadHeader(format!(
                    "the stream ended inside a message of {length} bytes"
                )));
            }
        }
    }
}

/// What an oversized message was, as far as its first bytes tell (the method, and the
/// document it names: a client puts both before a document's text), and its size.
fn too_large(length: usize, head: &[u8]) -> String {
    let head = String::from_utf8_lossy(head);
    let field = |name: &str| {
        let key = format!("\"{name}\"");
        let after = &head[head.find(&key)? + key.len()..];
        let value = after
            .trim_start()
            .strip_prefix(':')?
            .trim_start()
            .strip_prefix('"')?;
        // Up to the closing quote; an escaped quote is too rare in a method or URI to matter.
        let value = &value[..value.find('"')?];
        Some(crate::text::visible(value).into_owned())
    };
    let what = match (field("method"), field("uri")) {
        (Some(method), Some(uri)) => format!("{method} of {uri}"),
        (Some(method), None) => method,
        (None, Some(uri)) => format!("a message about {uri}"),
        (None, None) => "a message".to_owned(),
    };
    format!(
        "{what} is {length} bytes, over the {MAX_FRAME}-byte limit of one message; it was skipped, so that file is not checked"
    )
}

/// Longer than any line [`find_header_line`] takes for a header (the name, at most
/// [`MAX_PADDING`] blanks, at most [`MAX_DIGITS`] digits, a line break): the overlap kept when
/// searching in pieces, which makes the search's answer the same however the bytes arrived.
const HEADER_LINE: usize = 64;
const MAX_PADDING: usize = 16;
const MAX_DIGITS: usize = 20;

/// Where the header block at the start of `bytes` ends: (end of its last line, start of the
/// body), when its blank line has arrived.
fn header_end(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut line = 0;
    while let Some(newline) = memchr::memchr(b'\n', &bytes[line..]) {
        let end = line + newline;
        let content = &bytes[line..end];
        if content.is_empty() || content == b"\r" {
            return Some((line, end + 1));
        }
        line = end + 1;
    }
    None
}

/// The value of the last `Content-Length` in a header block; a header line with text before
/// its name (the rest of a body whose length was understated) counts from the name.
fn content_length(header: &str) -> Option<usize> {
    header.lines().rev().find_map(|line| {
        let lower = line.to_ascii_lowercase();
        let at = lower.find("content-length:")?;
        line[at + "content-length:".len()..].trim().parse().ok()
    })
}

/// The offset of the first `Content-Length: N` line in `bytes` (digits, then a line break):
/// something no JSON body holds.
fn find_header_line(bytes: &[u8]) -> Option<usize> {
    const NAME: &[u8] = b"content-length:";
    let mut from = 0;
    while let Some(found) = memchr::memchr2(b'C', b'c', &bytes[from..]) {
        let at = from + found;
        from = at + 1;
        let Some(name) = bytes.get(at..at + NAME.len()) else {
            continue;
        };
        if !name.eq_ignore_ascii_case(NAME) {
            continue;
        }
        let rest = &bytes[at + NAME.len()..];
        let value = rest
            .iter()
            .position(|byte| !matches!(byte, b' ' | b'\t'))
            .unwrap_or(rest.len());
        let digits = rest[value..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        let after = rest.get(value + digits..).unwrap_or_default();
        let line_break = after.starts_with(b"\r\n") || after.starts_with(b"\n");
        if value <= MAX_PADDING && (1..=MAX_DIGITS).contains(&digits) && line_break {
            return Some(at);
        }
    }
    None
}

/// Frames a message for the wire.
#[must_use]
pub fn encode(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_response(id: Value, code: i64, message: &str) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    serde_json::to_vec(&body).unwrap_or_default()
}

/// Whether a JSON value is a JSON-RPC 2.0 request, notification or response that the server's
/// codec will accept; otherwise the error reply to send (if the message had an id).
fn check_message(value: &Value) -> Result<(), Option<Vec<u8>>> {
    let Some(object) = value.as_object() else {
        return Err(Some(error_response(
            Value::Null,
            -32600,
            "a JSON-RPC message must be an object",
        )));
    };
    let id = object.get("id").cloned();
    // The server keeps a numeric id as an i64: a fraction, an exponent or a number past i64
    // is allowed by JSON-RPC but cannot be echoed, so it is refused here, with the id as sent.
    let id_ok = id
        .as_ref()
        .is_none_or(|id| id.is_string() || id.is_i64() || id.is_null());
    let id_echoable = id
        .as_ref()
        .is_none_or(|id| id.is_string() || id.is_number() || id.is_null());
    let version_ok = object.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
    let is_call = object.get("method").is_some_and(Value::is_string);
    let is_response =
        id.is_some() && (object.contains_key("result") || object.contains_key("error"));
    let params_ok = object
        .get("params")
        .is_none_or(|params| params.is_object() || params.is_array() || params.is_null());
    if version_ok && id_ok && params_ok && (is_call || is_response) {
        return Ok(());
    }
    // Notifications get no reply, even when broken; requests get an error with their id.
    let reply_id = match id {
        Some(id) if id_echoable => id,
        None if is_call => return Err(None),
        Some(_) | None => Value::Null,
    };
    Err(Some(error_response(
        reply_id,
        -32600,
        "invalid JSON-RPC message",
    )))
}

/// Why the client's input ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputEnd {
    /// The client sent `exit` (and may keep its end of the pipe open).
    Exit,
    /// The client closed the pipe or sent something unreadable as a frame.
    Closed,
}

/// Copies client frames to the server, answering malformed ones on `replies`, until the client
/// sends `exit` or closes its end.
pub(crate) async fn pump_input<R, W>(
    input: R,
    mut to_server: W,
    replies: mpsc::UnboundedSender<Vec<u8>>,
) -> InputEnd
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut end = InputEnd::Closed;
    let mut input = FrameReader::new(input);
    loop {
        let frame = match input.next().await {
            Ok(frame) => frame,
            Err(error) => {
                tracing::debug!("stdin closed: {error}");
                break;
            }
        };
        match frame {
            Frame::End => break,
            Frame::BadHeader(message) => {
                tracing::warn!("bad frame header: {message}");
                let _ = replies.send(error_response(Value::Null, -32700, &message));
            }
            Frame::TooLarge(message) => {
                tracing::warn!("{message}");
                let _ = replies.send(error_response(Value::Null, -32700, &message));
                // A notification (didOpen) gets no reply, so the user is told.
                let shown = json!({"jsonrpc": "2.0", "method": "window/showMessage",
                    "params": {"type": 2, "message": format!("skill-lsp: {message}")}});
                let _ = replies.send(serde_json::to_vec(&shown).unwrap_or_default());
            }
            Frame::Body(body) => match serde_json::from_slice::<Value>(&body) {
                Err(error) => {
                    tracing::warn!("message is not JSON: {error}");
                    let _ = replies.send(error_response(
                        Value::Null,
                        -32700,
                        &format!("parse error: {error}"),
                    ));
                }
                Ok(value) => match check_message(&value) {
                    Ok(()) => {
                        if to_server.write_all(&encode(&body)).await.is_err()
                            || to_server.flush().await.is_err()
                        {
                            break;
                        }
                        // Nothing after `exit` matters, and the server stops reading at it.
                        if value.get("id").is_none() && value["method"] == "exit" {
                            end = InputEnd::Exit;
                            break;
                        }
                    }
                    Err(Some(reply)) => {
                        tracing::warn!("invalid JSON-RPC message dropped");
                        let _ = replies.send(reply);
                    }
                    Err(None) => tracing::warn!("invalid notification dropped"),
                },
            },
        }
    }
    // Closing the pipe tells the server the client is gone.
    let _ = to_server.shutdown().await;
    end
}

/// Re-frames the server's output into whole messages on `out`.
pub(crate) async fn pump_output<R: AsyncRead + Unpin>(
    from_server: R,
    out: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut reader = FrameReader::new(from_server);
    while let Ok(Frame::Body(body)) = reader.next().await {
        if out.send(body).is_err() {
            break;
        }
    }
}

/// Writes each message to `writer` as one frame.
pub(crate) async fn write_frames<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut messages: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(body) = messages.recv().await {
        if writer.write_all(&encode(&body)).await.is_err() || writer.flush().await.is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every frame of `input`, read in pieces of `piece` bytes.
    fn frames(input: &[u8], piece: usize) -> Vec<Frame> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (mut writer, reader) = tokio::io::duplex(piece.max(1));
            let input = input.to_vec();
            let feed = tokio::spawn(async move {
                for chunk in input.chunks(piece.max(1)) {
                    writer.write_all(chunk).await.unwrap();
                }
            });
            let mut reader = FrameReader::new(reader);
            let mut frames = Vec::new();
            loop {
                let frame = reader.next().await.unwrap();
                if frame == Frame::End {
                    break;
                }
                frames.push(frame);
            }
            feed.await.unwrap();
            frames
        })
    }

    fn is_bad(frame: &Frame) -> bool {
        matches!(frame, Frame::BadHeader(_))
    }

    #[test]
    fn frames_split_and_bad_headers_are_reported() {
        let input =
            b"Content-Length: 2\r\n\r\n{}\r\n\r\nX-Other: 1\r\n\r\nContent-Length: 3\r\n\r\n[1]";
        for piece in [1, 2, 7, 1000] {
            let frames = frames(input, piece);
            assert_eq!(frames.len(), 3, "{frames:?}");
            assert_eq!(frames[0], Frame::Body(b"{}".to_vec()));
            assert!(is_bad(&frames[1]));
            assert_eq!(frames[2], Frame::Body(b"[1]".to_vec()));
        }
    }

    #[test]
    fn a_wrong_length_costs_one_frame_and_the_next_is_read() {
        let good = br#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#;
        let next = encode(good);
        let bad = br#"{"jsonrpc":"2.0","id":1,"method":"x"}"#;
        for (declared, why) in [
            (bad.len() + 500, "overstated"),
            (bad.len() - 5, "understated"),
        ] {
            let mut input = format!("Content-Length: {declared}\r\n\r\n").into_bytes();
            input.extend_from_slice(bad);
            input.extend_from_slice(&next);
            input.extend_from_slice(&next);
            for piece in [1, 3, 64, 100_000] {
                let frames = frames(&input, piece);
                let bodies: Vec<&Frame> = frames.iter().filter(|frame| !is_bad(frame)).collect();
                let good_ones = bodies
                    .iter()
                    .filter(|frame| **frame == &Frame::Body(good.to_vec()))
                    .count();
                assert_eq!(good_ones, 2, "{why}, pieces of {piece}: {frames:?}");
                // The broken one is reported: a bad header, or (understated) a cut body that
                // will not parse.
                assert!(frames.len() > good_ones, "{why}: {frames:?}");
            }
        }
    }

    #[test]
    fn header_text_inside_a_json_string_is_not_a_header() {
        // A SKILL.md that talks about framing: escaped line breaks, so no header line.
        let body = json!({"jsonrpc": "2.0", "method": "x", "params": {"text": "Content-Length: 12\r\n\r\nhi"}})
            .to_string()
            .into_bytes();
        for piece in [1, 5, 4096] {
            assert_eq!(frames(&encode(&body), piece), [Frame::Body(body.clone())]);
        }
    }

    #[test]
    fn an_oversized_frame_is_skipped_in_step_and_named() {
        let open = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/skills/big/SKILL.md","languageId":"markdown","version":1,"text":""#;
        let length = MAX_FRAME + 10;
        let mut input = format!("Content-Length: {length}\r\n\r\n").into_bytes();
        input.extend_from_slice(open);
        input.resize(input.len() + length - open.len(), b'x');
        input.extend_from_slice(&encode(b"[1]"));
        // However the bytes arrive (in pieces smaller than a header line, than the kept head,
        // or much larger), the same two frames.
        for piece in [61, 1000, 1 << 20] {
            let frames = frames(&input, piece);
            assert_eq!(frames.len(), 2, "{:?}", frames.first());
            let Frame::TooLarge(message) = &frames[0] else {
                panic!("{:?}", frames[0]);
            };
            assert_eq!(
                message,
                &format!(
                    "textDocument/didOpen of file:///w/skills/big/SKILL.md is {length} bytes, over the {MAX_FRAME}-byte limit of one message; it was skipped, so that file is not checked"
                )
            );
            assert_eq!(frames[1], Frame::Body(b"[1]".to_vec()));
        }
    }

    #[test]
    fn ids_the_server_cannot_echo_are_refused_with_the_id_as_sent() {
        for id in [
            json!(1.5),
            json!(1e3),
            json!(18_446_744_073_709_551_615_u64),
            json!(-0.0),
        ] {
            let message = json!({"jsonrpc": "2.0", "id": id, "method": "hover"});
            let reply = check_message(&message).unwrap_err().unwrap();
            let reply: Value = serde_json::from_slice(&reply).unwrap();
            assert_eq!(reply["id"], id);
            assert_eq!(reply["error"]["code"], -32600);
        }
        for id in [
            json!(0),
            json!(-7),
            json!(i64::MAX),
            json!("a"),
            Value::Null,
        ] {
            let message = json!({"jsonrpc": "2.0", "id": id, "method": "hover"});
            assert!(check_message(&message).is_ok(), "{id}");
        }
    }

    #[test]
    fn messages_are_checked() {
        assert!(check_message(&json!({"jsonrpc": "2.0", "id": 1, "method": "x"})).is_ok());
        assert!(check_message(&json!({"jsonrpc": "2.0", "method": "x"})).is_ok());
        assert!(check_message(&json!({"jsonrpc": "2.0", "id": 1, "result": null})).is_ok());
        let reply = check_message(&json!({"jsonrpc": "2.0", "id": 7}))
            .unwrap_err()
            .unwrap();
        let reply: Value = serde_json::from_slice(&reply).unwrap();
        assert_eq!(reply["id"], 7);
        assert_eq!(reply["error"]["code"], -32600);
        assert!(
            check_message(&json!({"jsonrpc": "1.0", "method": "x"}))
                .unwrap_err()
                .is_none()
        );
        assert!(check_message(&json!([1, 2])).unwrap_err().is_some());
        assert!(
            check_message(&json!({"jsonrpc": "2.0", "id": 1, "method": "x", "params": 3})).is_err()
        );
    }
}
