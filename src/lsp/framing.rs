//! Our own JSON-RPC framing in front of tower-lsp-server, so that one bad message cannot end the
//! session.
//!
//! tower-lsp-server's read loop stops at the first frame its codec rejects (design.md §8.1). This
//! layer splits stdin into frames itself, answers bodies that are not JSON with `-32700` and JSON
//! that is not a JSON-RPC message with `-32600`, and forwards only well-formed messages to the
//! server through an in-memory pipe. Both the server's output and these error replies go to
//! stdout through one writer, a whole frame at a time.

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt,
};
use tokio::sync::mpsc;

/// Frames larger than this are refused unread (a client bug or an attack, not a SKILL.md).
pub(crate) const MAX_FRAME: usize = 64 * 1024 * 1024;

/// What reading one frame gave.
#[derive(Debug, PartialEq)]
pub enum Frame {
    Body(Vec<u8>),
    /// The header was unreadable or named a bad length; the message is described.
    BadHeader(String),
    End,
}

/// Reads one `Content-Length` framed message.
pub async fn read_frame<R: AsyncBufRead + Unpin>(reader: &mut R) -> std::io::Result<Frame> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    let mut line = String::new();
    loop {
        line.clear();
        let read = reader.read_line(&mut line).await?;
        if read == 0 {
            return Ok(if saw_header {
                Frame::BadHeader("the stream ended inside a header".into())
            } else {
                Frame::End
            });
        }
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            if !saw_header {
                continue; // Stray blank lines between frames.
            }
            break;
        }
        saw_header = true;
        if let Some((name, value)) = trimmed.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    match length {
        None => Ok(Frame::BadHeader(
            "missing or invalid Content-Length header".into(),
        )),
        Some(length) if length > MAX_FRAME => {
            // Skip the body so the stream stays in step.
            let mut skipped = reader.take(length as u64);
            tokio::io::copy(&mut skipped, &mut tokio::io::sink()).await?;
            Ok(Frame::BadHeader(format!(
                "message of {length} bytes is larger than the {MAX_FRAME}-byte limit"
            )))
        }
        Some(length) => {
            let mut body = vec![0; length];
            reader.read_exact(&mut body).await?;
            Ok(Frame::Body(body))
        }
    }
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
    let id_ok = id
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
        Some(id) if id_ok => id,
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
    mut input: R,
    mut to_server: W,
    replies: mpsc::UnboundedSender<Vec<u8>>,
) -> InputEnd
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut end = InputEnd::Closed;
    loop {
        let frame = match read_frame(&mut input).await {
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
    let mut reader = tokio::io::BufReader::new(from_server);
    while let Ok(Frame::Body(body)) = read_frame(&mut reader).await {
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

    #[tokio::test]
    async fn frames_split_and_bad_headers_are_reported() {
        let input =
            b"Content-Length: 2\r\n\r\n{}\r\n\r\nX-Other: 1\r\n\r\nContent-Length: 3\r\n\r\n[1]"
                .to_vec();
        let mut reader = tokio::io::BufReader::new(&input[..]);
        assert_eq!(
            read_frame(&mut reader).await.unwrap(),
            Frame::Body(b"{}".to_vec())
        );
        assert!(matches!(
            read_frame(&mut reader).await.unwrap(),
            Frame::BadHeader(_)
        ));
        assert_eq!(
            read_frame(&mut reader).await.unwrap(),
            Frame::Body(b"[1]".to_vec())
        );
        assert_eq!(read_frame(&mut reader).await.unwrap(), Frame::End);
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
