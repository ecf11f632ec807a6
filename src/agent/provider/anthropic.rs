//! The Anthropic Messages API provider (design.md §6): `POST {base}/v1/messages` with
//! `"stream": true`, and the decoder of its server-sent events.

use std::collections::BTreeMap;

use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Map, Value, json};

use super::decode::{Decoder, parse_event_json, sent_input, tool_input};
use super::http::{HttpProvider, WireFormat};
use super::key::ApiKey;
use super::sse::SseEvent;
use super::transport::HttpSettings;
use super::types::{Block, Message, ProviderError, Request, Response, Role, StreamEvent, Usage};

/// The public endpoint, used when `ANTHROPIC_BASE_URL` is unset.
pub(crate) const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";

/// The API version every request names.
pub(crate) const API_VERSION: &str = "2023-06-01";

/// A client for one model behind the Anthropic Messages API.
pub type Anthropic = HttpProvider<AnthropicWire>;

impl Anthropic {
    /// A provider for `model` at `base_url` (without `/v1`).
    ///
    /// # Errors
    ///
    /// [`ProviderError::Config`] for a malformed base URL or a key that cannot go in a header.
    pub fn new(
        base_url: &str,
        key: ApiKey,
        model: impl Into<String>,
        settings: HttpSettings,
    ) -> Result<Self, ProviderError> {
        Self::with_key(base_url, Some(key), model.into(), settings)
    }
}

/// The Messages API's wire format: the key in `x-api-key`, `anthropic-version`, content blocks.
#[derive(Debug)]
pub struct AnthropicWire;

impl WireFormat for AnthropicWire {
    const NAME: &'static str = "anthropic";
    const BASE_VAR: &'static str = "ANTHROPIC_BASE_URL";
    const KEY_VAR: &'static str = "ANTHROPIC_API_KEY";
    const PATH: &'static str = "/v1/messages";
    type Decoder = AnthropicDecoder;

    fn key_headers(key: &ApiKey, headers: &mut HeaderMap) -> Result<(), ProviderError> {
        headers.insert("x-api-key", key.header_value("", Self::KEY_VAR)?);
        headers.insert("anthropic-version", HeaderValue::from_static(API_VERSION));
        Ok(())
    }

    fn request_body(request: &Request<'_>) -> Value {
        request_body(request)
    }
}

/// The JSON body of a streamed Messages request.
pub(crate) fn request_body(request: &Request<'_>) -> Value {
    let mut body = Map::new();
    body.insert("model".to_owned(), json!(request.model));
    body.insert("max_tokens".to_owned(), json!(request.max_tokens));
    if !request.system.is_empty() {
        body.insert("system".to_owned(), json!(request.system));
    }
    let messages: Vec<Value> = request.messages.iter().map(message_json).collect();
    body.insert("messages".to_owned(), Value::Array(messages));
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.input_schema,
                })
            })
            .collect();
        body.insert("tools".to_owned(), Value::Array(tools));
    }
    body.insert("stream".to_owned(), Value::Bool(true));
    Value::Object(body)
}

fn message_json(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    // The API wants tool results before any text in a user message, and rejects empty text.
    let mut blocks: Vec<&Block> = message
        .content
        .iter()
        .filter(|block| !matches!(block, Block::Text { text } if text.is_empty()))
        .collect();
    blocks.sort_by_key(|block| !matches!(block, Block::ToolResult { .. }));
    let content: Vec<Value> = blocks
        .into_iter()
        .map(|block| match block {
            Block::Text { text } => json!({"type": "text", "text": text}),
            Block::ToolUse { id, name, input } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": sent_input(input)})
            }
            Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => json!({
                "type": "tool_result",
                "tool_use_id": tool_use_id,
                "content": content,
                "is_error": is_error,
            }),
        })
        .collect();
    json!({"role": role, "content": content})
}

/// A content block while it streams in.
#[derive(Debug)]
enum Partial {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        /// The `partial_json` pieces so far.
        json: String,
        /// Set by `content_block_stop`: the input, or the model's text when it is not JSON
        /// (kept until the stop reason says whether the token limit cut it).
        input: Option<Value>,
    },
    /// A block kind this client does not use (thinking, server tools): skipped.
    Other,
}

/// The state of one streamed Messages response.
#[derive(Debug, Default)]
pub struct AnthropicDecoder {
    blocks: BTreeMap<u64, Partial>,
    stop_reason: Option<String>,
    usage: Usage,
    done: bool,
}

fn index_of(data: &Value) -> Result<u64, ProviderError> {
    data.get("index")
        .and_then(Value::as_u64)
        .ok_or_else(|| ProviderError::Protocol("a content block event has no index".to_owned()))
}

fn str_field(value: &Value, pointer: &str) -> String {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Maps an `error` event to the status the same error has as a reply.
fn stream_error(data: &Value) -> ProviderError {
    let kind = str_field(data, "/error/type");
    let message = data
        .pointer("/error/message")
        .and_then(Value::as_str)
        .unwrap_or("the stream reported an error")
        .to_owned();
    let status = match kind.as_str() {
        "invalid_request_error" => 400,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" => 429,
        "api_error" => 500,
        "overloaded_error" => 529,
        _ => {
            return ProviderError::Protocol(format!("the stream reported an error: {message}"));
        }
    };
    ProviderError::Http {
        status,
        message,
        retryable: super::retry::is_retryable_status(status),
    }
}

impl Decoder for AnthropicDecoder {
    fn on_event(
        &mut self,
        event: SseEvent,
        sink: &mut dyn FnMut(StreamEvent),
    ) -> Result<(), ProviderError> {
        if event.event == "ping" {
            return Ok(());
        }
        let data = parse_event_json(&event)?;
        let kind = data
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or(&event.event);
        match kind {
            "message_start" => {
                if let Some(tokens) = data
                    .pointer("/message/usage/input_tokens")
                    .and_then(Value::as_u64)
                {
                    self.usage.input_tokens = tokens;
                }
                if let Some(tokens) = data
                    .pointer("/message/usage/output_tokens")
                    .and_then(Value::as_u64)
                {
                    self.usage.output_tokens = tokens;
                }
            }
            "content_block_start" => {
                let index = index_of(&data)?;
                let block = data.get("content_block").unwrap_or(&Value::Null);
                let partial = match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let text = str_field(block, "/text");
                        if !text.is_empty() {
                            sink(StreamEvent::Text(text.clone()));
                        }
                        Partial::Text(text)
                    }
                    Some("tool_use") => {
                        let id = str_field(block, "/id");
                        let name = str_field(block, "/name");
                        sink(StreamEvent::ToolUseStart {
                            id: id.clone(),
                            name: name.clone(),
                        });
                        Partial::ToolUse {
                            id,
                            name,
                            json: String::new(),
                            input: None,
                        }
                    }
                    _ => Partial::Other,
                };
                self.blocks.insert(index, partial);
            }
            "content_block_delta" => {
                let index = index_of(&data)?;
                let delta = data.get("delta").unwrap_or(&Value::Null);
                match (
                    self.blocks.get_mut(&index),
                    delta.get("type").and_then(Value::as_str),
                ) {
                    (Some(Partial::Text(text)), Some("text_delta")) => {
                        let piece = str_field(delta, "/text");
                        text.push_str(&piece);
                        if !piece.is_empty() {
                            sink(StreamEvent::Text(piece));
                        }
                    }
                    (
                        Some(Partial::ToolUse {
                            json, input: None, ..
                        }),
                        Some("input_json_delta"),
                    ) => json.push_str(
                        delta
                            .get("partial_json")
                            .and_then(Value::as_str)
                            .unwrap_or_default(),
                    ),
                    (None, _) => {
                        return Err(ProviderError::Protocol(format!(
                            "a delta for content block {index}, which was never started"
                        )));
                    }
                    // Thinking and signature deltas, and deltas of skipped blocks.
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = index_of(&data)?;
                if let Some(Partial::ToolUse {
                    id,
                    name,
                    json,
                    input,
                }) = self.blocks.get_mut(&index)
                {
                    let value = tool_input(json);
                    // Input that is not JSON is announced with the turn, once the stop reason
                    // says whether the limit cut it.
                    if value.is_object() {
                        sink(StreamEvent::ToolUse {
                            id: id.clone(),
                            name: name.clone(),
                            input: value.clone(),
                            usage: self.usage,
                        });
                    }
                    *input = Some(value);
                }
            }
            "message_delta" => {
                if let Some(reason) = data.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(reason.to_owned());
                }
                if let Some(tokens) = data.pointer("/usage/output_tokens").and_then(Value::as_u64) {
                    self.usage.output_tokens = tokens;
                }
                if let Some(tokens) = data.pointer("/usage/input_tokens").and_then(Value::as_u64) {
                    self.usage.input_tokens = self.usage.input_tokens.max(tokens);
                }
            }
            "message_stop" => self.done = true,
            "error" => return Err(stream_error(&data)),
            // Newer event kinds are skipped, as the API's versioning policy asks.
            _ => {}
        }
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn open_tool(&self) -> Option<&str> {
        self.blocks.values().find_map(|block| match block {
            Partial::ToolUse {
                name, input: None, ..
            } => Some(name.as_str()),
            _ => None,
        })
    }

    fn finish(self) -> Result<Response, ProviderError> {
        let hit_limit = self.stop_reason.as_deref() == Some("max_tokens");
        if !hit_limit && let Some(name) = self.open_tool() {
            return Err(ProviderError::Protocol(format!(
                "the stream ended inside the input of tool `{name}`"
            )));
        }
        if !self.done {
            return Err(ProviderError::Protocol(
                "the stream ended before message_stop".to_owned(),
            ));
        }
        let mut content = Vec::new();
        let mut cut_tool = None;
        for partial in self.blocks.into_values() {
            match partial {
                Partial::Text(text) if !text.is_empty() => content.push(Block::Text { text }),
                Partial::ToolUse {
                    id,
                    name,
                    input: Some(input),
                    ..
                } if input.is_object() || !hit_limit => {
                    content.push(Block::ToolUse { id, name, input });
                }
                // The limit stopped the model mid-call: keep the calls it finished.
                Partial::ToolUse { name, .. } if hit_limit => {
                    cut_tool.get_or_insert(name);
                }
                _ => {}
            }
        }
        let stop_reason = self.stop_reason.unwrap_or_else(|| {
            if content.iter().any(|it| matches!(it, Block::ToolUse { .. })) {
                "tool_use".to_owned()
            } else {
                "end_turn".to_owned()
            }
        });
        Ok(Response {
            content,
            stop_reason,
            usage: self.usage,
            cut_tool,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{AnthropicDecoder, message_json, request_body};
    use crate::agent::provider::decode::end_of_stream;
    use crate::agent::provider::sse::SseParser;
    use crate::agent::provider::{
        Block, Decoder, Message, ProviderError, Request, Response, Role, StreamEvent, ToolSpec,
        Usage,
    };

    const STREAM: &str = r#"event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Reading "}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the skill."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"load_skill","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"na"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"me\": \"pdf\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_2","name":"glob","input":{}}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":42}}

event: message_stop
data: {"type":"message_stop"}

"#;

    fn decode(stream: &str) -> (Result<Response, ProviderError>, Vec<StreamEvent>) {
        let mut parser = SseParser::new();
        let mut events = AnthropicDecoder::default();
        let mut seen = Vec::new();
        for event in parser.feed(stream.as_bytes()) {
            if let Err(error) = events.on_event(event, &mut |it| seen.push(it)) {
                return (Err(error), seen);
            }
        }
        (
            end_of_stream(events, &mut parser, &mut |it| seen.push(it)),
            seen,
        )
    }

    #[test]
    fn text_and_tool_use_are_assembled() {
        let (response, seen) = decode(STREAM);
        let response = response.unwrap();
        assert_eq!(
            response.content,
            [
                Block::Text {
                    text: "Reading the skill.".to_owned()
                },
                Block::ToolUse {
                    id: "toolu_1".to_owned(),
                    name: "load_skill".to_owned(),
                    input: json!({"name": "pdf"}),
                },
                Block::ToolUse {
                    id: "toolu_2".to_owned(),
                    name: "glob".to_owned(),
                    input: json!({}),
                },
            ]
        );
        assert_eq!(response.stop_reason, "tool_use");
        assert_eq!(
            response.usage,
            Usage {
                input_tokens: 25,
                output_tokens: 42
            }
        );
        assert_eq!(
            seen,
            [
                StreamEvent::Text("Reading ".to_owned()),
                StreamEvent::Text("the skill.".to_owned()),
                StreamEvent::ToolUseStart {
                    id: "toolu_1".to_owned(),
                    name: "load_skill".to_owned()
                },
                StreamEvent::ToolUse {
                    id: "toolu_1".to_owned(),
                    name: "load_skill".to_owned(),
                    input: json!({"name": "pdf"}),
                    usage: Usage {
                        input_tokens: 25,
                        output_tokens: 1
                    },
                },
                StreamEvent::ToolUseStart {
                    id: "toolu_2".to_owned(),
                    name: "glob".to_owned()
                },
                StreamEvent::ToolUse {
                    id: "toolu_2".to_owned(),
                    name: "glob".to_owned(),
                    input: json!({}),
                    usage: Usage {
                        input_tokens: 25,
                        output_tokens: 1
                    },
                },
            ]
        );
    }

    #[test]
    fn stream_without_message_stop_is_a_protocol_error() {
        let cut = &STREAM[..STREAM.find("event: message_delta").unwrap()];
        let (response, _) = decode(cut);
        let error = response.unwrap_err();
        assert!(matches!(error, ProviderError::Protocol(_)), "{error}");
        assert!(error.to_string().contains("message_stop"), "{error}");
    }

    #[test]
    fn stream_cut_inside_a_tool_input_names_the_tool() {
        let cut = &STREAM[..STREAM.find("me\\\": \\\"pdf").unwrap() - 80];
        let (response, _) = decode(cut);
        let error = response.unwrap_err();
        assert!(matches!(error, ProviderError::Protocol(_)), "{error}");
        assert!(error.to_string().contains("load_skill"), "{error}");
    }

    #[test]
    fn malformed_tool_input_is_kept_for_an_error_result() {
        let broken = STREAM.replace(r#"me\": \"pdf\"}"#, r#"me\": \"pdf\""#);
        let (response, events) = decode(&broken);
        let response = response.unwrap();
        let [_, Block::ToolUse { name, input, .. }, _] = response.content.as_slice() else {
            panic!("{response:?}");
        };
        assert_eq!(input, &json!(r#"{"name": "pdf""#));
        let problem = crate::agent::provider::input_error(name, input).unwrap();
        assert!(
            problem.contains("`load_skill` are not valid JSON (EOF"),
            "{problem}"
        );
        // Not announced as a call with input, and sent back as an empty object.
        assert!(!events.iter().any(
            |event| matches!(event, StreamEvent::ToolUse { name, .. } if name == "load_skill")
        ));
        let sent = message_json(&Message {
            role: Role::Assistant,
            content: response.content.clone(),
        });
        assert_eq!(sent["content"][1]["input"], json!({}));
    }

    #[test]
    fn error_event_maps_to_its_status() {
        let stream = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        match decode(stream).0 {
            Err(ProviderError::Http {
                status: 529,
                message,
                retryable: true,
            }) => assert_eq!(message, "Overloaded"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_json_is_a_protocol_error() {
        let (response, _) = decode("event: message_start\ndata: {oops\n\n");
        assert!(matches!(response, Err(ProviderError::Protocol(_))));
    }

    #[test]
    fn thinking_blocks_and_unknown_events_are_skipped() {
        let stream = r#"event: message_start
data: {"type":"message_start","message":{"usage":{"input_tokens":3}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: something_new
data: {"type":"something_new"}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}

event: message_stop
data: {"type":"message_stop"}

"#;
        let response = decode(stream).0.unwrap();
        assert!(response.content.is_empty());
        assert_eq!(response.stop_reason, "end_turn");
    }

    #[test]
    fn request_body_shape() {
        let messages = [
            Message {
                role: Role::User,
                content: vec![Block::Text {
                    text: "hi".to_owned(),
                }],
            },
            Message {
                role: Role::Assistant,
                content: vec![
                    Block::Text {
                        text: String::new(),
                    },
                    Block::ToolUse {
                        id: "t1".to_owned(),
                        name: "bash".to_owned(),
                        input: json!({"command": "ls"}),
                    },
                ],
            },
            Message {
                role: Role::User,
                content: vec![
                    Block::Text {
                        text: "and then".to_owned(),
                    },
                    Block::ToolResult {
                        tool_use_id: "t1".to_owned(),
                        content: "denied".to_owned(),
                        is_error: true,
                    },
                ],
            },
        ];
        let tools = [ToolSpec {
            name: "bash".to_owned(),
            description: "Run".to_owned(),
            input_schema: json!({"type": "object"}),
        }];
        let body = request_body(&Request {
            model: "m",
            system: "sys",
            messages: &messages,
            tools: &tools,
            max_tokens: 100,
        });
        assert_eq!(
            body,
            json!({
                "model": "m",
                "max_tokens": 100,
                "system": "sys",
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                    {"role": "assistant", "content": [
                        {"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "ls"}}
                    ]},
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "t1", "content": "denied", "is_error": true},
                        {"type": "text", "text": "and then"}
                    ]}
                ],
                "tools": [{"name": "bash", "description": "Run", "input_schema": {"type": "object"}}],
                "stream": true
            })
        );
    }

    #[test]
    fn the_token_limit_inside_a_tool_input_drops_that_call_and_keeps_the_rest() {
        let stream = r#"event: message_start
data: {"type":"message_start","message":{"usage":{"input_tokens":9,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"glob","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"pattern\":\"*\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t2","name":"write_file","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"path\":\"a.md\",\"content\":\"long"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":100}}

event: message_stop
data: {"type":"message_stop"}
"#;
        let response = decode(stream).0.unwrap();
        assert_eq!(response.stop_reason, "max_tokens");
        assert_eq!(response.cut_tool.as_deref(), Some("write_file"));
        assert_eq!(
            response.content,
            [Block::ToolUse {
                id: "t1".into(),
                name: "glob".into(),
                input: json!({"pattern": "*"}),
            }]
        );
        // Without the limit, the same broken input is kept, for an error result.
        let response = decode(&stream.replace("max_tokens", "tool_use")).0.unwrap();
        assert!(response.cut_tool.is_none());
        assert!(matches!(
            &response.content[1],
            Block::ToolUse { name, input: Value::String(_), .. } if name == "write_file"
        ));
        // A block the limit left without its stop counts as cut too.
        let unclosed = stream.replacen(
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
            "",
            1,
        );
        let response = decode(&unclosed).0.unwrap();
        assert_eq!(response.cut_tool.as_deref(), Some("write_file"));
    }
}
