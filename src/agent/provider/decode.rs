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

/// Parses a tool's assembled input; an empty input means `{}`.
pub(crate) fn parse_tool_input(name: &str, json: &str) -> Result<Value, ProviderError> {
    if json.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    serde_json::from_str(json).map_err(|error| {
        ProviderError::Protocol(format!(
            "the input of tool `{name}` is not valid JSON ({error})"
        ))
    })
}
