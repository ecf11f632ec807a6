//! The OpenAI-compatible chat completions provider (design.md §6), for OpenAI and local servers
//! such as Ollama or llama.cpp: `POST {base}/chat/completions` with `"stream": true`, and the
//! decoder of its `data:` chunks.

use reqwest::header::HeaderMap;
use serde_json::{Map, Value, json};

use super::decode::{Decoder, parse_event_json, tool_input};
use super::http::{HttpProvider, WireFormat};
use super::key::ApiKey;
use super::sse::SseEvent;
use super::transport::HttpSettings;
use super::types::{Block, Message, ProviderError, Request, Response, Role, StreamEvent, Usage};

/// OpenAI's public endpoint, used when only `OPENAI_API_KEY` is set.
pub(crate) const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// A client for one model behind an OpenAI-compatible chat completions API.
pub type OpenAi = HttpProvider<OpenAiWire>;

impl OpenAi {
    /// A provider for `model` at `base_url` (usually ending in `/v1`); `key` is sent as a bearer
    /// token when given.
    ///
    /// # Errors
    ///
    /// [`ProviderError::Config`] for a malformed base URL or a key that cannot go in a header.
    pub fn new(
        base_url: &str,
        key: Option<ApiKey>,
        model: impl Into<String>,
        settings: HttpSettings,
    ) -> Result<Self, ProviderError> {
        Self::with_key(base_url, key, model.into(), settings)
    }
}

/// The chat completions wire format: a bearer token, `function` tools, `tool` messages.
#[derive(Debug)]
pub struct OpenAiWire;

impl WireFormat for OpenAiWire {
    const NAME: &'static str = "openai";
    const BASE_VAR: &'static str = "OPENAI_BASE_URL";
    const KEY_VAR: &'static str = "OPENAI_API_KEY";
    const PATH: &'static str = "/chat/completions";
    type Decoder = OpenAiDecoder;

    fn key_headers(key: &ApiKey, headers: &mut HeaderMap) -> Result<(), ProviderError> {
        headers.insert("authorization", key.header_value("Bearer ", Self::KEY_VAR)?);
        Ok(())
    }

    fn request_body(request: &Request<'_>) -> Value {
        request_body(request)
    }
}

/// The JSON body of a streamed chat completions request.
pub(crate) fn request_body(request: &Request<'_>) -> Value {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for message in request.messages {
        push_message(message, &mut messages);
    }
    let mut body = Map::new();
    body.insert("model".to_owned(), json!(request.model));
    body.insert("max_tokens".to_owned(), json!(request.max_tokens));
    body.insert("messages".to_owned(), Value::Array(messages));
    if !request.tools.is_empty() {
        let tools = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    },
                })
            })
            .collect();
        body.insert("tools".to_owned(), Value::Array(tools));
    }
    body.insert("stream".to_owned(), Value::Bool(true));
    body.insert("stream_options".to_owned(), json!({"include_usage": true}));
    Value::Object(body)
}

/// One conversation message becomes one chat message, except that each tool result is a `tool`
/// message of its own, placed first so it follows the assistant's `tool_calls`.
fn push_message(message: &Message, messages: &mut Vec<Value>) {
    let mut texts = Vec::new();
    let mut tool_calls = Vec::new();
    for block in &message.content {
        match block {
            Block::Text { text } if !text.is_empty() => texts.push(text.as_str()),
            Block::Text { .. } => {}
            Block::ToolUse { id, name, input } => tool_calls.push(json!({
                "id": id,
                "type": "function",
                // What the model wrote, also when it was not JSON.
                "function": {"name": name, "arguments": input.as_str().map_or_else(|| input.to_string(), str::to_owned)},
            })),
            // The API has no error flag, so the model is told in the text.
            Block::ToolResult {
                tool_use_id,
                content,
                is_error,
            } => messages.push(json!({
                "role": "tool",
                "tool_call_id": tool_use_id,
                "content": if *is_error { format!("Error: {content}") } else { content.clone() },
            })),
        }
    }
    let text = texts.join("\n\n");
    match message.role {
        Role::User => {
            if !text.is_empty() {
                messages.push(json!({"role": "user", "content": text}));
            }
        }
        Role::Assistant => {
            if tool_calls.is_empty() {
                messages.push(json!({"role": "assistant", "content": text}));
            } else {
                let content = if text.is_empty() {
                    Value::Null
                } else {
                    Value::String(text)
                };
                messages.push(
                    json!({"role": "assistant", "content": content, "tool_calls": tool_calls}),
                );
            }
        }
    }
}

/// A tool call while it streams in.
#[derive(Debug)]
struct Call {
    index: u64,
    id: String,
    name: String,
    arguments: String,
    announced: bool,
    /// Whether `StreamEvent::ToolUse` went out for it.
    completed: bool,
}

/// The state of one streamed chat completion.
#[derive(Debug, Default)]
pub struct OpenAiDecoder {
    text: String,
    calls: Vec<Call>,
    finish_reason: Option<String>,
    usage: Usage,
    done: bool,
}

impl OpenAiDecoder {
    fn on_tool_call(&mut self, fragment: &Value, sink: &mut dyn FnMut(StreamEvent)) {
        let id = fragment
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        // Servers that leave out `index` send each call whole, with an id.
        let index = fragment
            .get("index")
            .and_then(Value::as_u64)
            .unwrap_or_else(|| match self.calls.last() {
                Some(last) if id.is_empty() || id == last.id => last.index,
                Some(last) => last.index + 1,
                None => 0,
            });
        let position = match self.calls.iter().position(|it| it.index == index) {
            Some(position) => position,
            None => {
                self.calls.push(Call {
                    index,
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                    announced: false,
                    completed: false,
                });
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[position];
        if call.id.is_empty() && !id.is_empty() {
            id.clone_into(&mut call.id);
        }
        let function = fragment.get("function").unwrap_or(&Value::Null);
        if let Some(name) = function.get("name").and_then(Value::as_str) {
            if call.name.is_empty() {
                name.clone_into(&mut call.name);
            }
        }
        match function.get("arguments") {
            Some(Value::String(piece)) => call.arguments.push_str(piece),
            Some(Value::Null) | None => {}
            Some(whole) => call.arguments.push_str(&whole.to_string()),
        }
        if !call.announced && !call.name.is_empty() {
            call.announced = true;
            if call.id.is_empty() {
                call.id = format!("call_{index}");
            }
            sink(StreamEvent::ToolUseStart {
                id: call.id.clone(),
                name: call.name.clone(),
            });
        }
        // Arguments that parse as a JSON object are complete: nothing may follow an object's
        // closing brace.
        let complete = serde_json::from_str::<Value>(&call.arguments)
            .ok()
            .filter(Value::is_object);
        if let Some(input) = complete {
            self.complete(position, Some(input), sink);
        }
    }

    /// Tells `sink` that the call at `position` is complete (once).
    fn complete(
        &mut self,
        position: usize,
        input: Option<Value>,
        sink: &mut dyn FnMut(StreamEvent),
    ) {
        let usage = self.usage;
        let call = &mut self.calls[position];
        if call.completed || !call.announced {
            return;
        }
        // Arguments that are not JSON are announced with the turn, once the finish reason says
        // whether the limit cut them.
        let Some(input) =
            input.or_else(|| Some(tool_input(&call.arguments)).filter(Value::is_object))
        else {
            return;
        };
        call.completed = true;
        sink(StreamEvent::ToolUse {
            id: call.id.clone(),
            name: call.name.clone(),
            input,
            usage,
        });
    }
}

impl Decoder for OpenAiDecoder {
    fn on_event(
        &mut self,
        event: SseEvent,
        sink: &mut dyn FnMut(StreamEvent),
    ) -> Result<(), ProviderError> {
        if event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let data = parse_event_json(&event)?;
        if let Some(error) = data.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .or_else(|| error.as_str())
                .unwrap_or("no message");
            return Err(ProviderError::Protocol(format!(
                "the stream reported an error: {message}"
            )));
        }
        if let Some(usage) = data.get("usage").filter(|it| it.is_object()) {
            if let Some(tokens) = usage.get("prompt_tokens").and_then(Value::as_u64) {
                self.usage.input_tokens = tokens;
            }
            if let Some(tokens) = usage.get("completion_tokens").and_then(Value::as_u64) {
                self.usage.output_tokens = tokens;
            }
        }
        let choices = data.get("choices").and_then(Value::as_array);
        let Some(choice) = choices.and_then(|it| {
            it.iter()
                .find(|choice| choice.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
        }) else {
            return Ok(());
        };
        let delta = choice.get("delta").unwrap_or(&Value::Null);
        if let Some(piece) = delta
            .get("content")
            .and_then(Value::as_str)
            .filter(|it| !it.is_empty())
        {
            self.text.push_str(piece);
            sink(StreamEvent::Text(piece.to_owned()));
        }
        if let Some(fragments) = delta.get("tool_calls").and_then(Value::as_array) {
            for fragment in fragments {
                self.on_tool_call(fragment, sink);
            }
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            self.finish_reason = Some(reason.to_owned());
            // Calls without arguments (or with odd ones) are complete at the end of the turn.
            for position in 0..self.calls.len() {
                self.complete(position, None, sink);
            }
        }
        Ok(())
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn open_tool(&self) -> Option<&str> {
        if self.done || self.finish_reason.is_some() {
            return None;
        }
        self.calls.last().map(|call| call.name.as_str())
    }

    fn finish(self) -> Result<Response, ProviderError> {
        if let Some(name) = self.open_tool() {
            return Err(ProviderError::Protocol(format!(
                "the stream ended inside the input of tool `{name}`"
            )));
        }
        if !self.done && self.finish_reason.is_none() {
            return Err(ProviderError::Protocol(
                "the stream ended before its last chunk".to_owned(),
            ));
        }
        let mut content = Vec::new();
        if !self.text.is_empty() {
            content.push(Block::Text { text: self.text });
        }
        let hit_limit = self.finish_reason.as_deref() == Some("length");
        let mut cut_tool = None;
        for call in self.calls {
            if call.name.is_empty() {
                return Err(ProviderError::Protocol(
                    "a tool call in the stream has no name".to_owned(),
                ));
            }
            let input = tool_input(&call.arguments);
            if hit_limit && !input.is_object() {
                // The limit stopped the model mid-call: keep the calls it finished.
                cut_tool.get_or_insert(call.name);
                continue;
            }
            content.push(Block::ToolUse {
                id: call.id,
                name: call.name,
                input,
            });
        }
        let has_calls = content.iter().any(|it| matches!(it, Block::ToolUse { .. }));
        // Some servers end a turn with tool calls as "stop"; the calls are what count.
        let stop_reason = match self.finish_reason.as_deref() {
            Some("tool_calls" | "function_call") => "tool_use".to_owned(),
            Some("stop") | None if has_calls => "tool_use".to_owned(),
            Some("stop") | None => "end_turn".to_owned(),
            Some("length") => "max_tokens".to_owned(),
            Some(other) => other.to_owned(),
        };
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
    use serde_json::json;

    use super::{OpenAiDecoder, request_body};
    use crate::agent::provider::decode::end_of_stream;
    use crate::agent::provider::sse::SseParser;
    use crate::agent::provider::{
        Block, Decoder, Message, ProviderError, Request, Response, Role, StreamEvent, ToolSpec,
        Usage,
    };

    const STREAM: &str = r#"data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Let me "},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"content":"look."},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"pa"}}]},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":\"a.md\"}"}}]},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"glob","arguments":"{}"}}]},"finish_reason":null}]}

data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: {"id":"c1","choices":[],"usage":{"prompt_tokens":30,"completion_tokens":12,"total_tokens":42}}

data: [DONE]

"#;

    fn decode(stream: &str) -> (Result<Response, ProviderError>, Vec<StreamEvent>) {
        let mut parser = SseParser::new();
        let mut chunks = OpenAiDecoder::default();
        let mut seen = Vec::new();
        for event in parser.feed(stream.as_bytes()) {
            if let Err(error) = chunks.on_event(event, &mut |it| seen.push(it)) {
                return (Err(error), seen);
            }
        }
        (
            end_of_stream(chunks, &mut parser, &mut |it| seen.push(it)),
            seen,
        )
    }

    #[test]
    fn text_and_tool_calls_are_assembled() {
        let (response, seen) = decode(STREAM);
        let response = response.unwrap();
        assert_eq!(
            response.content,
            [
                Block::Text {
                    text: "Let me look.".to_owned()
                },
                Block::ToolUse {
                    id: "call_a".to_owned(),
                    name: "read_file".to_owned(),
                    input: json!({"path": "a.md"}),
                },
                Block::ToolUse {
                    id: "call_b".to_owned(),
                    name: "glob".to_owned(),
                    input: json!({}),
                },
            ]
        );
        assert_eq!(response.stop_reason, "tool_use");
        assert_eq!(
            response.usage,
            Usage {
                input_tokens: 30,
                output_tokens: 12
            }
        );
        assert_eq!(
            seen,
            [
                StreamEvent::Text("Let me ".to_owned()),
                StreamEvent::Text("look.".to_owned()),
                StreamEvent::ToolUseStart {
                    id: "call_a".to_owned(),
                    name: "read_file".to_owned()
                },
                StreamEvent::ToolUse {
                    id: "call_a".to_owned(),
                    name: "read_file".to_owned(),
                    input: json!({"path": "a.md"}),
                    usage: Usage::default(),
                },
                StreamEvent::ToolUseStart {
                    id: "call_b".to_owned(),
                    name: "glob".to_owned()
                },
                StreamEvent::ToolUse {
                    id: "call_b".to_owned(),
                    name: "glob".to_owned(),
                    input: json!({}),
                    usage: Usage::default(),
                },
            ]
        );
    }

    #[test]
    fn finish_reasons_map_to_anthropic_stop_reasons() {
        for (reason, expected) in [
            ("stop", "end_turn"),
            ("length", "max_tokens"),
            ("content_filter", "content_filter"),
        ] {
            let stream = format!(
                "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"x\"}},\"finish_reason\":\"{reason}\"}}]}}\n\ndata: [DONE]"
            );
            assert_eq!(decode(&stream).0.unwrap().stop_reason, expected);
        }
    }

    #[test]
    fn stream_cut_inside_tool_arguments_is_a_protocol_error() {
        let cut = &STREAM[..STREAM.find("th\\\":\\\"a.md").unwrap()];
        let error = decode(cut).0.unwrap_err();
        assert!(matches!(error, ProviderError::Protocol(_)), "{error}");
        assert!(error.to_string().contains("read_file"), "{error}");
    }

    #[test]
    fn length_inside_tool_arguments_drops_that_call_and_keeps_the_complete_ones() {
        let stream = r#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"glob","arguments":"{\"pattern\":\"*\"}"}}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"load_skill","arguments":"{\"na"}}]},"finish_reason":null}]}

data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}

data: [DONE]
"#;
        let response = decode(stream).0.unwrap();
        assert_eq!(response.stop_reason, "max_tokens");
        assert_eq!(response.cut_tool.as_deref(), Some("load_skill"));
        assert_eq!(
            response.content,
            [Block::ToolUse {
                id: "a".into(),
                name: "glob".into(),
                input: json!({"pattern": "*"}),
            }]
        );
        // Without the limit, the broken arguments are kept for an error result, and sent
        // back as the model wrote them.
        let response = decode(&stream.replace("length", "tool_calls")).0.unwrap();
        assert!(response.cut_tool.is_none());
        assert_eq!(
            response.content[1],
            Block::ToolUse {
                id: "b".into(),
                name: "load_skill".into(),
                input: json!("{\"na"),
            }
        );
    }

    #[test]
    fn stream_without_a_last_chunk_is_a_protocol_error() {
        let cut = &STREAM[..STREAM
            .find("data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\"")
            .unwrap()];
        let error = decode(cut).0.unwrap_err();
        assert!(matches!(error, ProviderError::Protocol(_)), "{error}");
    }

    #[test]
    fn whole_tool_calls_without_index_are_kept_apart() {
        let stream = r#"data: {"choices":[{"delta":{"tool_calls":[{"id":"a","function":{"name":"glob","arguments":{"pattern":"*"}}},{"id":"b","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":"stop"}]}

data: [DONE]
"#;
        let response = decode(stream).0.unwrap();
        assert_eq!(response.stop_reason, "tool_use");
        assert_eq!(
            response.content,
            [
                Block::ToolUse {
                    id: "a".to_owned(),
                    name: "glob".to_owned(),
                    input: json!({"pattern": "*"}),
                },
                Block::ToolUse {
                    id: "b".to_owned(),
                    name: "bash".to_owned(),
                    input: json!({"command": "ls"}),
                },
            ]
        );
    }

    #[test]
    fn error_chunk_is_an_error() {
        let error = decode("data: {\"error\":{\"message\":\"model crashed\"}}\n\n")
            .0
            .unwrap_err();
        assert!(error.to_string().contains("model crashed"), "{error}");
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
                        text: "ok".to_owned(),
                    },
                    Block::ToolUse {
                        id: "t1".to_owned(),
                        name: "bash".to_owned(),
                        input: json!({"command": "ls"}),
                    },
                    Block::ToolUse {
                        id: "t2".to_owned(),
                        name: "glob".to_owned(),
                        input: json!({}),
                    },
                ],
            },
            Message {
                role: Role::User,
                content: vec![
                    Block::ToolResult {
                        tool_use_id: "t1".to_owned(),
                        content: "denied".to_owned(),
                        is_error: true,
                    },
                    Block::ToolResult {
                        tool_use_id: "t2".to_owned(),
                        content: "a.md".to_owned(),
                        is_error: false,
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
                "messages": [
                    {"role": "system", "content": "sys"},
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "ok", "tool_calls": [
                        {"id": "t1", "type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"ls\"}"}},
                        {"id": "t2", "type": "function", "function": {"name": "glob", "arguments": "{}"}}
                    ]},
                    {"role": "tool", "tool_call_id": "t1", "content": "Error: denied"},
                    {"role": "tool", "tool_call_id": "t2", "content": "a.md"}
                ],
                "tools": [{"type": "function", "function": {"name": "bash", "description": "Run", "parameters": {"type": "object"}}}],
                "stream": true,
                "stream_options": {"include_usage": true}
            })
        );
    }
}
