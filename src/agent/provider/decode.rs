//! Reading a streamed reply: the `Decoder` each wire format implements, and the helpers they
//! share (the end of the stream, an event's JSON, a tool's assembled input).

use serde_json::Value;

use super::sse::{SseEvent, SseParser};
use super::types::{ProviderError, Response, StreamEvent};

/// Turns one provider's event stream into a [`Response`].
pub trait Decoder: Send {
    /// Takes the next event, passing streamed pieces to `sink`.
    fn on_event(
        &mut self,
        event: SseEvent,
        sink: &mut dyn FnMut(StreamEvent),
    ) -> Result<(), ProviderError>;
    /// The stream said it is complete; the rest of the body need not be read.
    fn is_done(&self) -> bool;
    /// The tool whose input is being streamed, if any.
    fn open_tool(&self) -> Option<&str>;
    /// The whole response, or a protocol error if the stream stopped short.
    fn finish(self) -> Result<Response, ProviderError>;
}

/// Ends a stream at the end of the body: an event left without its closing blank line still
/// counts, but if it is cut short the decoder's own complaint (a tool input left open, no final
/// event) says more than the broken JSON does.
pub(crate) fn end_of_stream<D: Decoder>(
    mut decoder: D,
    parser: &mut SseParser,
    sink: &mut dyn FnMut(StreamEvent),
) -> Result<Response, ProviderError> {
    let trailing = parser.finish().map(|event| decoder.on_event(event, sink));
    match (trailing, decoder.finish()) {
        (Some(Err(error)), _) if !matches!(error, ProviderError::Protocol(_)) => Err(error),
        (_, Err(error)) | (Some(Err(error)), Ok(_)) => Err(error),
        (_, Ok(response)) => Ok(response),
    }
}

/// Parses one event's JSON payload.
pub(crate) fn parse_event_json(event: &SseEvent) -> Result<Value, ProviderError> {
    serde_json::from_str(&event.data).map_err(|error| {
        ProviderError::Protocol(format!(
            "an event in the stream is not valid JSON ({error})"
        ))
    })
}

/// A tool's assembled input: an empty input means `{}`; input that is not JSON is kept as the
/// string the model wrote, so that the call gets an error result naming the problem
/// ([`input_error`]) and the conversation goes on, instead of one broken reply ending it.
pub(crate) fn tool_input(json: &str) -> Value {
    if json.trim().is_empty() {
        return Value::Object(serde_json::Map::new());
    }
    // Anything but an object is kept as written, so that the error result can say what it
    // was: a JSON string parsed here would read as text that is not JSON.
    match serde_json::from_str(json) {
        Ok(object @ Value::Object(_)) => object,
        _ => Value::String(json.to_owned()),
    }
}

/// Why a tool's input cannot be run: not JSON (kept as the model's text by [`tool_input`]),
/// or JSON that is not an object. `None` for an object.
#[must_use]
pub(crate) fn input_error(name: &str, input: &Value) -> Option<String> {
    match input {
        Value::Object(_) => None,
        Value::String(raw) => match serde_json::from_str::<Value>(raw) {
            Err(why) => Some(format!(
                "the arguments of `{name}` are not valid JSON ({why}); call it again with a JSON object"
            )),
            Ok(value) => {
                let kind = match value {
                    Value::String(_) => "a string",
                    Value::Number(_) => "a number",
                    Value::Array(_) => "an array",
                    Value::Bool(_) => "a boolean",
                    _ => "null",
                };
                Some(format!(
                    "the arguments of `{name}` must be a JSON object, not {kind}; call it again with one"
                ))
            }
        },
        _ => Some(format!(
            "the arguments of `{name}` must be a JSON object; call it again with one"
        )),
    }
}

/// The input to send back to the API for a call: the object, or `{}` for input that was not
/// one (the API accepts only objects; the call's error result says what went wrong).
#[must_use]
pub(crate) fn sent_input(input: &Value) -> Value {
    if input.is_object() {
        input.clone()
    } else {
        Value::Object(serde_json::Map::new())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Whatever a model sends instead of an object is named for what it is: text that is not
    /// JSON, or JSON of the wrong kind (a JSON string is not mistaken for broken JSON).
    #[test]
    fn arguments_that_are_not_an_object_are_named_for_what_they_are() {
        let error = |raw: &str| input_error("bash", &tool_input(raw)).unwrap();
        assert!(error(r#"{"command": "ls""#).contains("are not valid JSON (EOF"));
        assert!(error(r#""ls -la""#).contains("must be a JSON object, not a string"));
        assert!(error("[1, 2]").contains("not an array"));
        assert!(error("5").contains("not a number"));
        assert!(error("null").contains("not null"));
        assert_eq!(tool_input(r#"{"a": 1}"#), json!({"a": 1}));
        assert_eq!(tool_input("  "), json!({}));
        assert_eq!(input_error("bash", &json!({"a": 1})), None);
        assert_eq!(sent_input(&tool_input("5")), json!({}));
    }
}
