//! An incremental server-sent events parser, fed byte chunks split anywhere (design.md §8.3).
//!
//! It follows the WHATWG event-stream rules: lines end in CRLF, LF or CR; `event:` sets the type;
//! `data:` lines are joined with `\n`; lines starting with `:` are comments; a blank line
//! dispatches the event. Bytes are kept until a whole line is in, so a chunk may end inside a UTF-8
//! character or between the CR and LF of a line end.

use memchr::memchr2;

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, or `message` when the event had none.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// The parser state between chunks.
#[derive(Debug, Default)]
pub struct SseParser {
    /// The bytes of the line being read, up to its end.
    line: Vec<u8>,
    /// The last chunk ended in a CR, so an LF at the start of the next one ends nothing.
    after_cr: bool,
    /// At least one line was read, so a byte order mark can no longer start the stream.
    started: bool,
    event: String,
    data: String,
    has_data: bool,
}

impl SseParser {
    /// A parser at the start of a stream.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next chunk and returns the events it completed, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(pos) = memchr2(b'\r', b'\n', rest) {
            self.line.extend_from_slice(&rest[..pos]);
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut events);
            if rest[pos] == b'\r' {
                match rest.get(pos + 1) {
                    Some(b'\n') => rest = &rest[pos + 2..],
                    Some(_) => rest = &rest[pos + 1..],
                    None => {
                        self.after_cr = true;
                        rest = &[];
                    }
                }
            } else {
                rest = &rest[pos + 1..];
            }
        }
        self.line.extend_from_slice(rest);
        events
    }

    /// Ends the stream. Unlike a browser, which drops an event that no blank line closed, this
    /// returns it: some servers end with `data: [DONE]` and no blank line.
    pub fn finish(&mut self) -> Option<SseEvent> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut events);
        }
        self.process_line(b"", &mut events);
        events.pop()
    }

    fn process_line(&mut self, line: &[u8], events: &mut Vec<SseEvent>) {
        let mut line = line;
        if !self.started {
            self.started = true;
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if line.is_empty() {
            let event = std::mem::take(&mut self.event);
            if self.has_data {
                self.has_data = false;
                let mut data = std::mem::take(&mut self.data);
                if data.ends_with('\n') {
                    data.pop();
                }
                events.push(SseEvent {
                    event: if event.is_empty() {
                        "message".to_owned()
                    } else {
                        event
                    },
                    data,
                });
            }
            return;
        }
        if line[0] == b':' {
            return;
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (&*text, ""),
        };
        match field {
            "event" => value.clone_into(&mut self.event),
            "data" => {
                self.has_data = true;
                self.data.push_str(value);
                self.data.push('\n');
            }
            // `id` and `retry` matter only to a browser that reconnects.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{SseEvent, SseParser};

    /// A recorded Anthropic stream (shortened), with a multi-byte character and a comment.
    const RECORDED: &str = "event: message_start\n\
data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":12}}}\n\
\n\
: keep-alive comment\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"h\u{e9}llo \u{1F600} \u{4E16}\"}}\n\
\n\
event: ping\n\
data: {\"type\": \"ping\"}\n\
\n\
event: message_stop\n\
data: {\"type\":\"message_stop\"}\n\
\n";

    fn parse_whole(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut parser = SseParser::new();
        let mut events = Vec::new();
        for chunk in chunks {
            events.extend(parser.feed(chunk));
        }
        events.extend(parser.finish());
        events
    }

    fn event(event: &str, data: &str) -> SseEvent {
        SseEvent {
            event: event.to_owned(),
            data: data.to_owned(),
        }
    }

    #[test]
    fn recorded_stream_parses_into_its_events() {
        let events = parse_whole(&[RECORDED.as_bytes()]);
        let names: Vec<&str> = events.iter().map(|it| it.event.as_str()).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "content_block_delta",
                "ping",
                "message_stop"
            ]
        );
        assert!(events[1].data.contains("h\u{e9}llo \u{1F600} \u{4E16}"));
    }

    #[test]
    fn every_split_point_gives_the_same_events() {
        for text in [RECORDED.to_owned(), RECORDED.replace('\n', "\r\n")] {
            let bytes = text.as_bytes();
            let expected = parse_whole(&[bytes]);
            assert_eq!(expected.len(), 4);
            for split in 0..=bytes.len() {
                let (head, tail) = bytes.split_at(split);
                assert_eq!(parse_whole(&[head, tail]), expected, "split at {split}");
            }
            for first in (0..bytes.len()).step_by(7) {
                for second in first..bytes.len() {
                    let chunks = [&bytes[..first], &bytes[first..second], &bytes[second..]];
                    assert_eq!(parse_whole(&chunks), expected, "split at {first}/{second}");
                }
            }
            let one_byte_chunks: Vec<&[u8]> = bytes.chunks(1).collect();
            assert_eq!(parse_whole(&one_byte_chunks), expected);
        }
    }

    #[test]
    fn cr_only_line_ends_work() {
        let events = parse_whole(&[b"event: a\rdata: 1\r\rdata: 2\r", b"\r"]);
        assert_eq!(events, [event("a", "1"), event("message", "2")]);
    }

    #[test]
    fn multi_line_data_is_joined_with_newlines() {
        let events = parse_whole(&[b"data: one\ndata:two\ndata\ndata:  three\n\n"]);
        assert_eq!(events, [event("message", "one\ntwo\n\n three")]);
    }

    #[test]
    fn comments_and_unknown_fields_are_skipped() {
        let events = parse_whole(&[b": hi\nid: 7\nretry: 10\nfoo: bar\ndata: x\n\n"]);
        assert_eq!(events, [event("message", "x")]);
    }

    #[test]
    fn blank_line_without_data_dispatches_nothing_and_resets_the_type() {
        let events = parse_whole(&[b"event: lonely\n\ndata: x\n\n"]);
        assert_eq!(events, [event("message", "x")]);
    }

    #[test]
    fn byte_order_mark_is_dropped_at_the_start_only() {
        let events = parse_whole(&[b"\xEF\xBB", b"\xBFdata: x\n\n"]);
        assert_eq!(events, [event("message", "x")]);
    }

    #[test]
    fn unterminated_last_event_comes_out_of_finish() {
        let mut parser = SseParser::new();
        assert!(parser.feed(b"data: [DONE]").is_empty());
        assert_eq!(parser.finish(), Some(event("message", "[DONE]")));
        assert_eq!(parser.finish(), None);
    }

    #[test]
    fn value_without_a_space_after_the_colon() {
        let events = parse_whole(&[b"event:x\ndata:{\"a\":1}\n\n"]);
        assert_eq!(events, [event("x", "{\"a\":1}")]);
    }
}
